// SPDX-License-Identifier: GPL-3.0-or-later
#include "processor.h"

#include "core/identifier.h"
#include "core/tr.h"
#include "session/sessionservice.h"
#include "sessionrun.h"
#include "setup.h"

#include "mcp/mcpmanager.h"
#include "store/sessionlock.h"

#include <QDir>
#include <QDeadlineTimer>
#include <QRegularExpression>
#include <QThread>

using namespace Qt::StringLiterals;

namespace weft
{

qint64 retryDelay(int attempt, std::optional<qint64> retryAfterMs, qint64 initialMs, qint64 maxMs)
{
    if (retryAfterMs && *retryAfterMs >= 0)
        return *retryAfterMs;
    qint64 delay = initialMs;
    for (int i = 1; i < attempt && delay < maxMs; ++i)
        delay *= 2;
    return qMin(delay, maxMs);
}

QString cleanTitle(const QString &answer)
{
    QString text = answer;
    // Reasoning models sometimes put their thinking in the text.
    static const QRegularExpression think(u"<think>.*</think>"_s, QRegularExpression::DotMatchesEverythingOption);
    text.remove(think);
    for (QString line : text.split(u'\n')) {
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        while (!line.isEmpty() && (line.front() == u'"' || line.front() == u'\'' || line.front() == u'#' || line.front() == u'`'
                                   || line.front() == u'*' || line.front() == u'「'))
            line.remove(0, 1);
        while (!line.isEmpty() && (line.back() == u'"' || line.back() == u'\'' || line.back() == u'.' || line.back() == u'`'
                                   || line.back() == u'*' || line.back() == u'」' || line.back() == u'。'))
            line.chop(1);
        line = line.trimmed();
        if (line.size() > 50)
            line = line.left(50).trimmed();
        if (!line.isEmpty())
            return line;
    }
    return {};
}

// ---------------------------------------------------------------------------------------------

Processor::Processor(std::shared_ptr<SessionService> service, ProcessorConfig config, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
    , m_config(std::move(config))
    , m_permissions(std::make_shared<PermissionGate>(m_config.askPolicy))
{
    qRegisterMetaType<weft::PermissionRequest>();
    qRegisterMetaType<weft::MessageError>();
    qRegisterMetaType<weft::LlmEvent>();
}

Processor::~Processor()
{
    abortAll();
    QList<Running> running;
    {
        QMutexLocker locker(&m_mutex);
        running = m_running.values();
        m_running.clear();
    }
    for (const Running &r : std::as_const(running)) {
        // An aborted run ends by itself and then its thread (its tool calls and sub-agents need
        // that thread's event loop to end: it is not quit from here).
        r.thread->wait();
        delete r.run.data();
        delete r.thread;
    }
}

QList<PromptCommand> ProcessorConfig::availableCommands() const
{
    QList<PromptCommand> all = commands;
    if (mcpServers)
        all += PromptCommand::fromMcpPrompts(mcpServers->prompts(mcp.keys()));
    return all;
}

QList<McpResourceInfo> ProcessorConfig::availableResources() const
{
    return mcpServers ? mcpServers->resources(mcp.keys()) : QList<McpResourceInfo>();
}

Result<ProcessorConfig> configForDirectory(const ProcessorConfig &base, const QString &directory)
{
    if (!base.loadProject)
        return base;
    ProcessorConfig config = base;
    if (Result<void> loaded = base.loadProject(config, directory); !loaded)
        return loaded.error();
    return config;
}

Result<ProcessorConfig> Processor::configFor(const QString &directory) const
{
    return configForDirectory(m_config, directory);
}

Result<ResolvedPrompt> Processor::checkPrompt(const PromptRequest &request) const
{
    ResolvedPrompt resolved;
    if (!request.sessionID.isEmpty()) {
        if (const QString why = Identifier::whyInvalid(request.sessionID, Identifier::Kind::Session); !why.isEmpty())
            return Error{why, {}};
        resolved.session = request.session && request.session->id() == request.sessionID
            ? request.session
            : m_service->get(request.sessionID);
        if (!resolved.session)
            return Error{ProcessorTr::tr("no session with ID \"%1\"").arg(request.sessionID), {}};
    }
    if (m_service->isReadOnly())
        return Error{ProcessorTr::tr("this session is in a read-only store; import it into Weft first"), {}};
    // An imported session's directory is the file's claim: no run works there before the user
    // has accepted it.
    if (resolved.session) {
        if (auto confirmed = m_service->checkDirectoryConfirmed(*resolved.session); !confirmed)
            return confirmed.error();
    }
    resolved.directory = resolved.session ? resolved.session->directory()
                                          : (request.directory.isEmpty() ? QDir::currentPath() : request.directory);
    // The project's configuration (its agents, commands, models) decides.
    Result<ProcessorConfig> config = configFor(resolved.directory);
    if (!config)
        return config.error();
    resolved.config = std::move(config).value();
    PromptRequest &run = resolved.request;
    run = request;
    // A command may be an MCP server's prompt ("server:prompt"): those are known once the
    // project's servers are in use (prompt() does the same for every run).
    if (run.slashCommands || !run.command.isEmpty())
        useMcpServers(resolved.config, McpUse::Include);
    const QList<PromptCommand> commands = resolved.config.availableCommands();
    if (run.slashCommands && run.command.isEmpty() && run.text.startsWith(u'/')) {
        static const QRegularExpression space(u"\\s"_s);
        const qsizetype end = run.text.indexOf(space);
        const QString name = run.text.mid(1, end < 0 ? -1 : end - 1);
        if (PromptCommand::find(commands, name)) {
            run.command = name;
            run.text = end < 0 ? QString() : run.text.mid(end + 1).trimmed();
        }
    }
    QString model = run.model;
    QString agent = run.agent;
    if (!run.command.isEmpty()) {
        const std::optional<PromptCommand> command = PromptCommand::find(commands, run.command);
        if (!command) {
            QStringList names;
            for (const PromptCommand &c : commands)
                names.append(c.name);
            return Error{ProcessorTr::tr("no command \"%1\"%2")
                             .arg(run.command,
                                  names.isEmpty() ? ProcessorTr::tr("; no commands are configured")
                                                  : ProcessorTr::tr("; available: %1").arg(names.join(u", "_s))),
                         {}};
        }
        if (!command->model.isEmpty())
            model = command->model;
        if (!command->agent.isEmpty())
            agent = command->agent;
    }
    const std::optional<Agent> found = resolved.config.agents.find(agent.isEmpty() ? u"build"_s : agent);
    if (!agent.isEmpty() && !found)
        return Error{ProcessorTr::tr("unknown agent \"%1\"").arg(agent), {}};
    resolved.modelRef = !model.isEmpty() ? model : found ? found->model : QString();
    if (!resolved.config.resolveModel)
        return resolved; // a configuration without providers (tests of what comes before a run)
    if (Result<ResolvedModel> m = resolved.config.resolveModel(resolved.modelRef))
        resolved.model = m.value();
    else
        resolved.modelError = m.error().message;
    return resolved;
}

Result<QString> Processor::prompt(const PromptRequest &request)
{
    Result<ResolvedPrompt> resolved = checkPrompt(request);
    if (!resolved)
        return resolved.error();
    return prompt(std::move(resolved).value());
}

Result<QString> Processor::prompt(ResolvedPrompt prompt)
{
    if (prompt.request.text.trimmed().isEmpty() && prompt.request.command.isEmpty())
        return Error{ProcessorTr::tr("the message is empty"), {}};
    // A model that cannot be used fails before anything is written.
    if (!prompt.modelRef.isEmpty() && !prompt.model)
        return Error{prompt.modelError, {}};
    useMcpServers(prompt.config, McpUse::Include);
    if (!prompt.session) {
        SessionService::CreateOptions options;
        options.directory = prompt.directory;
        Result<Session> created = m_service->create(options);
        if (!created)
            return created.error();
        prompt.session = created.value();
    }
    const QString id = prompt.session->id();
    return start(newRun(std::move(prompt.config), prompt.request, *prompt.session), id);
}

SessionRun *Processor::newRun(ProcessorConfig config, PromptRequest request, Session session)
{
    return new SessionRun(SessionRun::Shared{m_service, m_permissions, m_fileTimes, m_questions}, std::move(config),
                          std::move(request), std::move(session), std::make_shared<std::atomic_bool>(false));
}

Result<QString> Processor::start(SessionRun *run, const QString &id)
{
    auto *thread = new QThread;
    thread->setObjectName(u"weft-run-"_s + id.right(8));
    run->moveToThread(thread);
    const auto refuse = [&](Error error) {
        delete run;
        delete thread;
        return error;
    };
    if (isBusy(id))
        return refuse(Error{ProcessorTr::tr("session %1 is busy").arg(id), {}});
    // Another process (a `weft run`, another window) may be running it.
    std::shared_ptr<SessionLock> lock;
    if (!m_config.dataDir.isEmpty()) {
        Result<std::unique_ptr<SessionLock>> taken = SessionLock::acquire(m_config.dataDir, id, {});
        if (!taken)
            return refuse(taken.error());
        lock = std::move(taken).value();
    }
    {
        QMutexLocker locker(&m_mutex);
        if (m_running.contains(id))
            return refuse(Error{ProcessorTr::tr("session %1 is busy").arg(id), {}});
        m_running.insert(id, {thread, run, run->abortFlag(), lock, run->isCompaction() ? nullptr : run->steerInbox()});
    }
    connect(thread, &QThread::started, run, &SessionRun::run);
    // The run's thread ends once the run is done (from that thread), then endRun() here.
    connect(run, &SessionRun::done, thread, &QThread::quit, Qt::DirectConnection);
    connect(thread, &QThread::finished, this, [this, id] { endRun(id); }, Qt::QueuedConnection);
    connect(run, &SessionRun::retrying, this, &Processor::retrying, Qt::QueuedConnection);
    connect(run, &SessionRun::permissionRequested, this, &Processor::permissionRequested, Qt::QueuedConnection);
    connect(run, &SessionRun::compactionStarted, this, &Processor::compactionStarted, Qt::QueuedConnection);
    connect(run, &SessionRun::compactionFinished, this, &Processor::compactionFinished, Qt::QueuedConnection);
    connect(run, &SessionRun::questionAsked, this, &Processor::questionAsked, Qt::QueuedConnection);
    connect(run, &SessionRun::questionClosed, this, &Processor::questionClosed, Qt::QueuedConnection);
    Q_EMIT busyChanged(id, true);
    thread->start();
    return id;
}

Result<Compaction::Settings> Processor::compactionSettings() const
{
    return Compaction::Settings::fromConfig(m_config.compaction);
}

Result<ResolvedModel> Processor::compactionModel(const QString &sessionID, const QString &requested) const
{
    const Result<Compaction::Settings> settings = compactionSettings();
    if (!settings)
        return settings.error();
    return resolveCompactionModel(m_config, settings.value(), *m_service, sessionID, requested);
}

namespace
{
Result<Session> sessionFor(SessionService &service, const QString &sessionID)
{
    if (const QString why = Identifier::whyInvalid(sessionID, Identifier::Kind::Session); !why.isEmpty())
        return Error{why, {}};
    const std::optional<Session> session = service.get(sessionID);
    if (!session)
        return Error{ProcessorTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    return *session;
}
} // namespace

Result<QString> Processor::compact(const QString &sessionID, const CompactOptions &options)
{
    const Result<Session> session = sessionFor(*m_service, sessionID);
    if (!session)
        return session.error();
    return compact(session.value(), options);
}

Result<QString> Processor::compact(const Session &session, const CompactOptions &options)
{
    const QString sessionID = session.id();
    if (m_service->isReadOnly())
        return Error{ProcessorTr::tr("this session is in a read-only store; import it into Weft first"), {}};
    if (auto confirmed = m_service->checkDirectoryConfirmed(session); !confirmed)
        return confirmed.error();
    if (const Result<Compaction::Settings> settings = compactionSettings(); !settings)
        return settings.error();
    if (isBusy(sessionID))
        return Error{ProcessorTr::tr("session %1 is busy").arg(sessionID), {}};
    Result<ProcessorConfig> config = configFor(session.directory());
    if (!config)
        return config.error();
    PromptRequest request;
    request.sessionID = sessionID;
    request.directory = session.directory();
    SessionRun *run = newRun(std::move(config).value(), request, session);
    run->setCompaction(options);
    return start(run, sessionID);
}

Result<Compaction::Preview> Processor::previewCompaction(const QString &sessionID, const CompactOptions &options) const
{
    const Result<Session> session = sessionFor(*m_service, sessionID);
    if (!session)
        return session.error();
    const Result<Compaction::Settings> settings = compactionSettings();
    if (!settings)
        return settings.error();
    Compaction::ModelLimits limits;
    if (const Result<ResolvedModel> model = resolveCompactionModel(m_config, settings.value(), *m_service, sessionID, options.model)) {
        limits = {model->ref(), model->contextLimit, model->outputLimit};
    } else if (!options.model.isEmpty()) {
        return model.error();
    }
    return Compaction::makePreview(sessionID, m_service->messages(sessionID), settings.value(),
                                   options.strategy.value_or(settings->strategy), limits);
}

Result<Compaction::PrunePlan> Processor::prune(const QString &sessionID, bool dryRun)
{
    if (const Result<Session> session = sessionFor(*m_service, sessionID); !session)
        return session.error();
    const Result<Compaction::Settings> settings = compactionSettings();
    if (!settings)
        return settings.error();
    if (!dryRun && isBusy(sessionID))
        return Error{ProcessorTr::tr("session %1 is busy").arg(sessionID), {}};
    return Compaction::prune(*m_service, sessionID, settings.value(), dryRun);
}

Result<Compaction::UndoPlan> Processor::canUndoCompaction(const QString &sessionID) const
{
    if (const Result<Session> session = sessionFor(*m_service, sessionID); !session)
        return session.error();
    if (isBusy(sessionID))
        return Error{ProcessorTr::tr("session %1 is busy").arg(sessionID), {}};
    return Compaction::planUndo(m_service->messages(sessionID));
}

Result<Compaction::UndoPlan> Processor::undoCompaction(const QString &sessionID)
{
    if (const Result<Compaction::UndoPlan> plan = canUndoCompaction(sessionID); !plan)
        return plan;
    return Compaction::undo(*m_service, sessionID);
}

void Processor::endRun(const QString &sessionID)
{
    Running running;
    {
        QMutexLocker locker(&m_mutex);
        if (!m_running.contains(sessionID))
            return; // ended by waitForIdle() already
        running = m_running.take(sessionID);
    }
    // Its finished() came from its last instructions: this wait is for those alone.
    running.thread->wait();
    SessionRun *run = running.run.data();
    const bool ok = run && run->succeeded();
    const MessageError error = run ? run->error() : MessageError();
    // Its last writes failed: the lock file stays, so that the next start closes the run.
    if (running.lock && run && run->leftUnfinished())
        running.lock->keepFile();
    // The worker's thread has ended: its objects can be deleted from here.
    delete run;
    delete running.thread;
    // Released before the run's end is announced: whoever hears it may start the next run.
    running.lock.reset();
    if (running.steers) {
        if (const QStringList late = running.steers->take(); !late.isEmpty())
            Q_EMIT steersNotDelivered(sessionID, late);
    }
    Q_EMIT busyChanged(sessionID, false);
    Q_EMIT finished(sessionID, ok, error);
}

void Processor::abort(const QString &sessionID)
{
    QMutexLocker locker(&m_mutex);
    auto it = m_running.find(sessionID);
    if (it == m_running.end())
        return;
    it->abortFlag->store(true);
    if (it->run)
        QMetaObject::invokeMethod(it->run, &SessionRun::abortNow, Qt::QueuedConnection);
    m_permissions->wake();
    m_questions->wake();
}

bool Processor::steer(const QString &sessionID, const QString &text)
{
    if (text.trimmed().isEmpty())
        return false;
    QMutexLocker locker(&m_mutex);
    const auto it = m_running.constFind(sessionID);
    if (it == m_running.cend() || !it->steers)
        return false;
    it->steers->add(text);
    return true;
}

void Processor::abortAll()
{
    for (const QString &id : busySessions())
        abort(id);
}

bool Processor::isBusy(const QString &sessionID) const
{
    QMutexLocker locker(&m_mutex);
    return m_running.contains(sessionID);
}

QStringList Processor::busySessions() const
{
    QMutexLocker locker(&m_mutex);
    return m_running.keys();
}

void Processor::answerPermission(const QString &requestID, PermissionReply reply)
{
    m_permissions->answer(requestID, reply);
}

bool Processor::answerQuestion(const QString &requestID, const QList<QStringList> &answers)
{
    return m_questions->answer(requestID, QuestionReply{false, answers});
}

bool Processor::rejectQuestion(const QString &requestID)
{
    return m_questions->answer(requestID, QuestionReply{true, {}});
}

bool Processor::waitForIdle(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (const QString &id : busySessions()) {
        QThread *thread = nullptr;
        {
            QMutexLocker locker(&m_mutex);
            thread = m_running.value(id).thread;
        }
        // A run's thread ends by itself once the run is done (no event of this thread needed).
        if (!thread || !thread->wait(deadline))
            return false;
        endRun(id);
    }
    return busySessions().isEmpty();
}

} // namespace weft
