// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessioncontroller.h"

#include "app/opencodesource.h"
#include "app/serversource.h"
#include "compaction/compaction.h"
#include "core/async.h"
#include "core/logging.h"
#include "core/project.h"
#include "core/tr.h"
#include "opencodedb/dbimport.h"
#include "processor/revert.h"
#include "processor/setup.h"
#include "search/searchindex.h"
#include "server/serverclient.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "session/sessionstore.h"
#include "session/transfer.h"
#include "store/sessionlock.h"

#include <QDir>
#include <QSettings>
#include <QSaveFile>
#include <QFileSystemWatcher>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

SessionController::SessionController(std::shared_ptr<SessionService> service, const QString &dataDir,
                                     ProcessorSetup setup, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
    , m_dataDir(dataDir)
    , m_pool(new QThreadPool(this))
    , m_servicePool(new QThreadPool(this))
{
    m_pool->setMaxThreadCount(2);
    m_servicePool->setMaxThreadCount(4);
    setupProcessor(std::move(setup));
    // The summary of a compaction started here, as it streams.
    connect(m_service.get(), &SessionService::messageUpdated, this, [this](const Message &m) {
        if (m_compacting.contains(m.sessionID()) && m.isAssistant() && m.isSummary())
            m_summaries.insert(m.sessionID(), m.id());
    });
    connect(m_service.get(), &SessionService::partUpdated, this, [this](const Part &part, const QString &) {
        if (part.type() == PartType::Text && m_summaries.value(part.sessionID()) == part.messageID())
            Q_EMIT compactionSummaryChanged(part.sessionID(), part.text());
    });
    // Sessions other processes run. A process that takes a lock writes its name into the file
    // after it holds it (SessionLock::acquire()), so a watcher of the folder (files made and
    // removed) and of each lock file (written) says at once when one starts. A process that dies
    // leaves its file as it was, which only a look at the lock tells: every second, and only
    // while some session runs elsewhere (an idle window wakes up for nothing).
    if (!m_dataDir.isEmpty() && !m_service->isReadOnly() && QDir().mkpath(SessionLock::folder(m_dataDir))) {
        m_lockWatcher = new QFileSystemWatcher({SessionLock::folder(m_dataDir)}, this);
        connect(m_lockWatcher, &QFileSystemWatcher::directoryChanged, this, &SessionController::refreshElsewhere);
        connect(m_lockWatcher, &QFileSystemWatcher::fileChanged, this, &SessionController::refreshElsewhere);
        m_lockPoll = new QTimer(this);
        m_lockPoll->setInterval(1000);
        connect(m_lockPoll, &QTimer::timeout, this, &SessionController::refreshElsewhere);
        refreshElsewhere();
    }
}

void SessionController::refreshElsewhere()
{
    QHash<QString, RunHolder> now;
    QSet<QString> files;
    for (const QString &sessionID : SessionLock::lockFiles(m_dataDir)) {
        files.insert(SessionLock::path(m_dataDir, sessionID));
        if (const std::optional<RunHolder> holder = SessionLock::holder(m_dataDir, sessionID);
            holder && !holder->isThisProcess())
            now.insert(sessionID, *holder);
    }
    const QStringList watched = m_lockWatcher->files();
    const QSet<QString> gone = QSet<QString>(watched.cbegin(), watched.cend()) - files;
    if (!gone.isEmpty())
        m_lockWatcher->removePaths(gone.values());
    files -= QSet<QString>(watched.cbegin(), watched.cend());
    if (!files.isEmpty())
        m_lockWatcher->addPaths(files.values());
    if (now == m_elsewhere)
        return;
    const QHash<QString, RunHolder> before = std::exchange(m_elsewhere, now);
    if (m_elsewhere.isEmpty())
        m_lockPoll->stop();
    else if (!m_lockPoll->isActive())
        m_lockPoll->start();
    // A holder that ended, or was followed by another process between two looks, may have left
    // its run open.
    bool ended = false;
    for (auto it = before.cbegin(); it != before.cend(); ++it) {
        const auto current = m_elsewhere.constFind(it.key());
        if (current == m_elsewhere.cend()) {
            ended = true;
            Q_EMIT runningElsewhereChanged(it.key(), false);
        } else if (*current != *it) {
            ended = true;
            Q_EMIT runningElsewhereChanged(it.key(), true);
        }
    }
    for (auto it = m_elsewhere.cbegin(); it != m_elsewhere.cend(); ++it) {
        if (!before.contains(it.key()))
            Q_EMIT runningElsewhereChanged(it.key(), true);
    }
    // A process that ended without finishing its run (killed, crashed) left it open: close it
    // now, off the GUI thread (it reads the sessions). A session live again meanwhile keeps its
    // lock, and the recovery leaves it alone.
    if (ended) {
        whenFinished(QtConcurrent::run(m_pool, [service = m_service] { return service->closeInterruptedRuns(); }),
                     this, [this](const InterruptedRuns &recovery) {
                         if (recovery.runs > 0)
                             Q_EMIT interruptedRunsClosed(recovery.runs, recovery.sessions);
                     });
    }
}

std::optional<RunHolder> SessionController::runningElsewhere(const QString &sessionID) const
{
    const auto it = m_elsewhere.constFind(sessionID);
    return it == m_elsewhere.cend() ? std::nullopt : std::optional<RunHolder>(*it);
}

SessionController::~SessionController()
{
    closeSources();
    // Work that uses the processor or a service ends first; then the processor stops its runs and
    // waits for them.
    m_pool->waitForDone();
    m_servicePool->waitForDone();
    m_processor.reset();
}

QList<StoreProblem> SessionController::problems() const
{
    return m_service->problems();
}

// ---- the processor

void SessionController::setupProcessor(ProcessorSetup setup)
{
    // The controller can ask: `ask` rules become questions (permissionRequested()).
    setup.config.askPolicy = ProcessorConfig::AskPolicy::Interactive;
    // ...and the agent's questions (the question tool), as OpenCode's own servers' are.
    setup.config.questions = true;
    if (setup.config.dataDir.isEmpty())
        setup.config.dataDir = m_dataDir;
    m_factory = setup.factory;
    m_configPath
        = m_factory && !m_factory->config().path().isEmpty() ? m_factory->config().path() : Config::defaultPath();
    const Result<Compaction::Settings> settings = Compaction::Settings::fromConfig(setup.config.compaction);
    m_compactionSettings
        = std::make_unique<const Compaction::Settings>(settings ? settings.value() : Compaction::Settings());
    m_processor = std::make_unique<Processor>(m_service, setup.config);
    Processor *processor = m_processor.get();
    connect(processor, &Processor::busyChanged, this, &SessionController::onBusyChanged);
    connect(processor, &Processor::finished, this,
            [this](const QString &sessionID, bool ok, const MessageError &error) {
                m_compacting.remove(sessionID);
                m_summaries.remove(sessionID);
                onRunFinished(sessionID, ok, error);
            });
    // Steered too late for the run: they go first when it has ended.
    connect(processor, &Processor::steersNotDelivered, this, [this](const QString &sessionID, const QStringList &texts) {
        for (auto it = texts.crbegin(); it != texts.crend(); ++it)
            enqueue(sessionID, {.text = *it}, true);
    });
    connect(processor, &Processor::permissionRequested, this, [this](const PermissionRequest &request) {
        m_permissions.append(request);
        Q_EMIT permissionRequested(request);
    });
    connect(processor, &Processor::compactionStarted, this, &SessionController::compactionStarted);
    connect(processor, &Processor::compactionFinished, this, &SessionController::onCompactionFinished);
    connect(processor, &Processor::retrying, this, &SessionController::retrying);
    connect(processor, &Processor::questionAsked, this, &SessionController::questionAsked);
    connect(processor, &Processor::questionClosed, this, &SessionController::questionClosed);
}

bool SessionController::setProcessorSetup(ProcessorSetup setup)
{
    if (m_processor && !m_processor->busySessions().isEmpty())
        return false;
    m_pool->waitForDone();
    m_processor.reset();
    setupProcessor(std::move(setup));
    Q_EMIT processorChanged();
    return true;
}

QString SessionController::defaultModel() const
{
    return m_factory ? m_factory->defaultModel() : QString();
}

QStringList SessionController::availableModels() const
{
    QStringList models;
    if (!m_factory)
        return models;
    const auto add = [&models](const QString &ref) {
        if (!ref.isEmpty() && !models.contains(ref))
            models.append(ref);
    };
    add(m_factory->defaultModel());
    // The models the config names, then the catalogue's models of every provider with a key.
    const JsonObject providers = m_factory->config().providers();
    for (const QString &provider : providers.keys()) {
        for (const QString &model : providers.object(provider).object(u"models").keys())
            add(provider + u'/' + model);
    }
    for (const QString &provider : m_factory->providerIDs()) {
        const Result<ProviderInfo> info = m_factory->providerInfo(provider);
        if (!info || info->apiKey.isEmpty() || providers.contains(provider))
            continue;
        for (const QString &model : m_factory->catalogue().provider(provider).object(u"models").keys())
            add(provider + u'/' + model);
    }
    return models;
}

QStringList SessionController::agents() const
{
    QStringList agents;
    if (!m_processor)
        return agents;
    for (const Agent &agent : m_processor->config().agents.primary()) {
        if (!agent.hidden)
            agents.append(agent.name);
    }
    return agents;
}

QFuture<SessionController::ProjectChoices> SessionController::projectChoices(const QString &sessionID)
{
    if (const ServerSource *server = serverOf(sessionID)) {
        // The server's own agents and models, in the session's folder (as the list holds it).
        const std::optional<Session> session = m_lookup ? m_lookup(sessionID) : std::nullopt;
        return server->promptChoices(session ? session->directory() : QString())
            .then([](const ServerSource::PromptChoices &offered) {
                ProjectChoices choices;
                choices.agents = offered.agents;
                choices.models = offered.models;
                choices.defaultModel = offered.defaultModel;
                return choices;
            });
    }
    if (!m_processor)
        return QtFuture::makeReadyValueFuture(ProjectChoices());
    const std::optional<Session> session
        = sessionID.isEmpty() ? std::nullopt : (m_lookup ? m_lookup(sessionID) : m_service->get(sessionID));
    const QString directory = session ? session->directory() : QDir::currentPath();
    return QtConcurrent::run([base = m_processor->config(), directory] { return configForDirectory(base, directory); })
        .then(this, [](Result<ProcessorConfig> config) {
            ProjectChoices choices;
            if (!config) {
                choices.error = config.error().toString();
                return choices;
            }
            // The project's MCP servers start now (their prompts are commands too).
            useMcpServers(config.value(), McpUse::Include);
            for (const Agent &agent : config->agents.primary()) {
                if (!agent.hidden)
                    choices.agents.append(agent.name);
            }
            for (const PromptCommand &command : config->availableCommands())
                choices.commands.append({command.name, command.description, command.mcpArguments});
            choices.resources = config->availableResources();
            return choices;
        });
}

// ---- runs

bool SessionController::isRunnable(const QString &sessionID) const
{
    if (const ServerSource *server = serverOf(sessionID))
        return server->state() != ServerSource::State::Failed;
    return m_processor && !sessionID.isEmpty() && !m_service->isReadOnly() && !m_elsewhere.contains(sessionID);
}

bool SessionController::isBusy(const QString &sessionID) const
{
    if (const ServerSource *server = serverOf(sessionID))
        return server->isBusy(sessionID);
    return m_processor && !sessionID.isEmpty() && m_processor->isBusy(sessionID);
}

QStringList SessionController::busySessions() const
{
    QStringList busy = runningHere();
    for (const ServerSource *server : m_servers)
        busy += server->busySessions();
    return busy;
}

QStringList SessionController::runningHere() const
{
    return m_processor ? m_processor->busySessions() : QStringList();
}

void SessionController::stopRunsHere()
{
    if (!m_processor)
        return;
    m_processor->abortAll();
    m_processor->waitForIdle();
}

SessionController::PromptResult SessionController::checkPrompt(const PromptRequest &request) const
{
    std::optional<ResolvedPrompt> resolved;
    return check(request, resolved);
}

SessionController::PromptResult SessionController::check(const PromptRequest &request,
                                                         std::optional<ResolvedPrompt> &resolved) const
{
    using Status = PromptResult::Status;
    PromptResult result;
    result.sessionID = request.sessionID;
    // What the context meter shows of the model the prompt runs with.
    const auto meter = [this, &result](const ResolvedModel &model) {
        result.model = model.ref();
        result.contextLimit = model.contextLimit;
        if (m_compactionSettings && m_compactionSettings->autoCompact)
            result.compactAt = Compaction::usableContext(model.contextLimit, model.outputLimit, *m_compactionSettings);
    };
    Result<ResolvedPrompt> checked = Error{};
    if (!isRunnable(request.sessionID))
        result.status = Status::NotRunnable;
    else if (!serverOf(request.sessionID))
        checked = m_processor->checkPrompt(request);
    if (!checked) {
        // Not run here (or the server runs it with its own config): only the model, resolved
        // against Weft's configuration, for what a window shows of it.
        if (result.ok() && !serverOf(request.sessionID)) {
            result.status = Status::Failed;
            result.error = checked.error().toString();
        }
        if (m_processor && m_processor->config().resolveModel) {
            if (const Result<ResolvedModel> model = m_processor->config().resolveModel(request.model))
                meter(model.value());
        }
        return result;
    }
    resolved = std::move(checked).value();
    const ResolvedPrompt &prompt = *resolved;
    // A model that cannot be reached is said before anything is written.
    if (!prompt.model) {
        result.status = prompt.modelRef.isEmpty() ? Status::NoModel : Status::UnknownModel;
        result.error = prompt.modelError;
        result.model = prompt.modelRef;
        return result;
    }
    meter(*prompt.model);
    if (m_factory) {
        // A provider of the catalogue that needs a key and has none would fail after retries.
        const Result<ProviderInfo> provider = m_factory->providerInfo(prompt.model->providerID);
        if (provider && provider->apiKey.isEmpty() && !provider->env.isEmpty()) {
            result.status = Status::NoApiKey;
            result.providerID = prompt.model->providerID;
            result.env = provider->env;
        }
    }
    return result;
}

SessionController::PromptResult SessionController::prompt(const QString &sessionID, const QString &text,
                                                          const QString &agent, const QString &model,
                                                          const QList<PromptAttachment> &attachments,
                                                          PromptDelivery delivery)
{
    using Status = PromptResult::Status;
    PromptRequest request;
    request.sessionID = sessionID;
    request.text = text;
    request.agent = agent;
    request.model = model;
    request.slashCommands = true;
    request.attachments = attachments;
    // The session as the window lists it: the check does not read it again on the GUI thread.
    if (m_lookup)
        request.session = m_lookup(sessionID);
    if (isBusy(sessionID)) {
        PromptResult result;
        result.sessionID = sessionID;
        // Weft's own run, and an OpenCode 2 server's, take a steered text at its next step;
        // anything else waits its turn in Weft's queue, where it can still be edited.
        if (delivery == PromptDelivery::Steer && attachments.isEmpty()) {
            ServerSource *server = serverOf(sessionID);
            if (server && server->takesDelivery()) {
                server->prompt(sessionID, text, agent, model, PromptDelivery::Steer);
                result.status = PromptResult::Status::Steered;
                return result;
            }
            if (!server && m_processor && m_processor->steer(sessionID, text)) {
                result.status = PromptResult::Status::Steered;
                return result;
            }
        }
        enqueue(sessionID, {.text = text, .agent = agent, .model = model, .attachments = attachments});
        result.status = PromptResult::Status::Queued;
        return result;
    }
    std::optional<ResolvedPrompt> resolved;
    PromptResult result = check(request, resolved);
    if (!result.ok())
        return result;
    if (ServerSource *server = serverOf(sessionID)) {
        if (!attachments.isEmpty()) {
            result.status = Status::Failed;
            result.error = u"files are not sent to an OpenCode server yet"_s;
            return result;
        }
        // The server runs it with its own config; a failure to send comes as failed().
        server->prompt(sessionID, text, agent, model);
        return result;
    }
    const Result<QString> started = m_processor->prompt(*std::move(resolved));
    if (!started) {
        result.status = Status::Failed;
        result.error = started.error().toString();
        return result;
    }
    result.sessionID = started.value();
    return result;
}

void SessionController::enqueue(const QString &sessionID, QueuedPrompt prompt, bool first)
{
    prompt.id = m_nextQueuedID++;
    QList<QueuedPrompt> &queue = m_queues[sessionID];
    if (first)
        queue.prepend(std::move(prompt));
    else
        queue.append(std::move(prompt));
    Q_EMIT queueChanged(sessionID);
}

QList<SessionController::QueuedPrompt> SessionController::queuedPrompts(const QString &sessionID) const
{
    return m_queues.value(sessionID);
}

bool SessionController::editQueued(const QString &sessionID, quint64 id, const QString &text)
{
    for (QueuedPrompt &p : m_queues[sessionID]) {
        if (p.id == id) {
            p.text = text;
            Q_EMIT queueChanged(sessionID);
            return true;
        }
    }
    return false;
}

bool SessionController::moveQueued(const QString &sessionID, quint64 id, qsizetype position)
{
    QList<QueuedPrompt> &queue = m_queues[sessionID];
    for (qsizetype i = 0; i < queue.size(); ++i) {
        if (queue.at(i).id == id) {
            queue.move(i, std::clamp<qsizetype>(position, 0, queue.size() - 1));
            Q_EMIT queueChanged(sessionID);
            return true;
        }
    }
    return false;
}

bool SessionController::removeQueued(const QString &sessionID, quint64 id)
{
    const auto it = m_queues.find(sessionID);
    if (it == m_queues.end() || !it->removeIf([id](const QueuedPrompt &p) { return p.id == id; }))
        return false;
    if (it->isEmpty())
        m_queues.erase(it);
    Q_EMIT queueChanged(sessionID);
    return true;
}

SessionController::PromptResult SessionController::sendQueuedNow(const QString &sessionID)
{
    PromptResult result;
    result.sessionID = sessionID;
    const auto it = m_queues.find(sessionID);
    if (it == m_queues.end() || it->isEmpty() || isBusy(sessionID)) {
        result.status = PromptResult::Status::Failed;
        result.error = isBusy(sessionID) ? SessionTr::tr("session %1 is running").arg(sessionID)
                                         : SessionTr::tr("nothing is queued for session %1").arg(sessionID);
        return result;
    }
    const QueuedPrompt next = it->takeFirst();
    if (it->isEmpty())
        m_queues.erase(it);
    result = prompt(sessionID, next.text, next.agent, next.model, next.attachments);
    if (result.status != PromptResult::Status::Sent)
        m_queues[sessionID].prepend(next); // it waits, first, for the user to see why
    Q_EMIT queueChanged(sessionID);
    return result;
}

void SessionController::onRunFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    Q_EMIT runFinished(sessionID, ok, error);
    if (ok && !m_queues.value(sessionID).isEmpty() && !isBusy(sessionID))
        sendQueuedNow(sessionID);
}

void SessionController::stop(const QString &sessionID)
{
    if (ServerSource *server = serverOf(sessionID))
        server->stop(sessionID);
    else if (m_processor)
        m_processor->abort(sessionID);
}

void SessionController::onBusyChanged(const QString &sessionID, bool busy)
{
    if (!busy)
        dropPermissions(sessionID);
    Q_EMIT busyChanged(sessionID, busy);
}

// ---- compaction

QFuture<Result<CompactionPreview>> SessionController::previewCompaction(const QString &sessionID)
{
    // The preview reads every message of the session.
    Processor *processor = m_processor.get();
    return QtConcurrent::run(m_pool, [processor, sessionID]() -> Result<CompactionPreview> {
        const Result<Compaction::Preview> preview = processor->previewCompaction(sessionID);
        if (!preview)
            return preview.error();
        const Compaction::Preview &p = preview.value();
        CompactionPreview shown;
        shown.model = p.model.ref;
        shown.modelContext = p.model.context;
        shown.keepsTail = p.strategy == Compaction::Strategy::SummaryTail;
        shown.summarized = int(p.summarized.size());
        shown.summarizedTokens = p.summarizedTokens;
        shown.kept = int(p.kept.size());
        shown.keptTokens = p.keptTokens;
        shown.pruneEnabled = p.prune.enabled;
        shown.pruneDisabledBy = p.prune.disabledBy;
        shown.pruneApplies = p.prune.willApply();
        shown.prunedOutputs = int(p.prune.parts.size());
        shown.pruneSavings = p.prune.savings();
        shown.prunable = p.prune.pruned;
        shown.pruneMinimum = Compaction::PruneMinimum;
        shown.tokensBefore = p.tokensBefore;
        shown.beforeFromUsage = p.beforeSource == u"usage";
        shown.tokensAfter = p.tokensAfter;
        shown.usable = p.usable;
        shown.problem = p.problem;
        return shown;
    });
}

Result<QString> SessionController::compact(const QString &sessionID, const std::optional<CompactionPreview> &preview)
{
    if (ServerSource *server = serverOf(sessionID)) {
        // The server summarises with its own agent loop and model (OpenCode's /compact).
        server->compact(sessionID);
        Q_EMIT compactionStarted(sessionID, false);
        return sessionID;
    }
    if (!m_processor)
        return Error{ProcessorTr::tr("no processor"), {}};
    m_summaries.remove(sessionID);
    m_compacting.insert(sessionID);
    // The session as the window lists it: not read again on the GUI thread.
    const std::optional<Session> listed = m_lookup ? m_lookup(sessionID) : std::nullopt;
    const Result<QString> started = listed ? m_processor->compact(*listed) : m_processor->compact(sessionID);
    if (!started) {
        m_compacting.remove(sessionID);
        return started;
    }
    if (preview)
        m_compactionResults.insert(sessionID, {preview->tokensBefore, preview->tokensAfter});
    return started;
}

void SessionController::onCompactionFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    if (!ok)
        m_compactionResults.remove(sessionID);
    m_compacting.remove(sessionID);
    m_summaries.remove(sessionID);
    Q_EMIT compactionFinished(sessionID, ok, error);
}

std::optional<SessionController::CompactionTokens> SessionController::compactionResult(const QString &sessionID) const
{
    const auto it = m_compactionResults.constFind(sessionID);
    return it == m_compactionResults.constEnd() ? std::nullopt : std::optional(it.value());
}

bool SessionController::canUndoCompaction(const QString &sessionID) const
{
    return isRunnable(sessionID) && !isBusy(sessionID) && m_processor->canUndoCompaction(sessionID).ok();
}

bool SessionController::canUndoCompaction(const QString &sessionID, const QList<MessageWithParts> &tail) const
{
    // Compaction::planUndo over the last rows answers as over all.
    return isRunnable(sessionID) && !isBusy(sessionID) && Compaction::planUndo(tail).ok();
}

void SessionController::undoCompaction(const QString &sessionID)
{
    Processor *processor = m_processor.get();
    whenFinished(QtConcurrent::run(m_pool, [processor, sessionID] { return processor->undoCompaction(sessionID); }),
                 this, [this, sessionID](const Result<Compaction::UndoPlan> &result) {
                     if (!result) {
                         Q_EMIT failed(Operation::UndoCompaction, sessionID, result.error().toString());
                         return;
                     }
                     m_compactionResults.remove(sessionID);
                     Q_EMIT compactionUndone(sessionID);
                 });
}

// ---- permissions

QList<PermissionRequest> SessionController::pendingPermissions() const
{
    QList<PermissionRequest> pending = m_permissions;
    for (const ServerSource *server : m_servers)
        pending += server->pendingPermissions();
    return pending;
}

std::optional<PermissionRequest> SessionController::pendingPermission(const QString &requestID) const
{
    for (const PermissionRequest &request : pendingPermissions()) {
        if (request.id == requestID)
            return request;
    }
    return std::nullopt;
}

bool SessionController::answerPermission(const QString &requestID, PermissionReply reply)
{
    for (ServerSource *server : std::as_const(m_servers)) {
        if (server->hasPermission(requestID))
            return server->answerPermission(requestID, reply);
    }
    for (qsizetype i = 0; i < m_permissions.size(); ++i) {
        if (m_permissions.at(i).id != requestID)
            continue;
        const PermissionRequest request = m_permissions.takeAt(i);
        if (m_processor)
            m_processor->answerPermission(requestID, reply);
        Q_EMIT permissionClosed(request);
        return true;
    }
    return false;
}

void SessionController::dropPermissions(const QString &sessionID)
{
    // The run ended (or was stopped): its questions can no longer be answered.
    const QList<PermissionRequest> pending = m_permissions;
    for (const PermissionRequest &request : pending) {
        if (!isWithin(request.sessionID, sessionID))
            continue;
        m_permissions.removeIf([&request](const PermissionRequest &r) { return r.id == request.id; });
        Q_EMIT permissionClosed(request);
    }
}

bool SessionController::isWithin(const QString &sessionID, const QString &rootID) const
{
    if (rootID.isEmpty())
        return false;
    QString id = sessionID;
    for (int depth = 0; depth < 64 && !id.isEmpty(); ++depth) {
        if (id == rootID)
            return true;
        const std::optional<Session> s = m_lookup ? m_lookup(id) : m_service->get(id);
        id = s ? s->parentID() : QString();
    }
    return false;
}

// ---- fork, import, revert

void SessionController::fork(const QString &sessionID, const QString &messageID)
{
    if (ServerSource *server = serverOf(sessionID)) {
        server->fork(sessionID, messageID);
        return;
    }
    std::shared_ptr<SessionService> service = m_service;
    // Copying a long session is many small writes: off the GUI thread. The new session's signals
    // reach the models queued, before the continuation below runs.
    whenFinished(QtConcurrent::run(m_servicePool, [service, sessionID, messageID] { return service->fork(sessionID, messageID); }),
                 this, [this, sessionID](const Result<Session> &result) {
                     if (!result)
                         Q_EMIT failed(Operation::Fork, sessionID, result.error().toString());
                     else
                         Q_EMIT forked(sessionID, result.value());
                 });
}

bool SessionController::importSession(const QString &sessionID)
{
    if (!m_opencode || !m_opencode->service() || m_service->isReadOnly() || sessionID.isEmpty())
        return false;
    std::shared_ptr<Store> source = storeOf(*m_opencode->service());
    std::shared_ptr<SessionService> target = m_service;
    // Many small writes: off the GUI thread. The copies' signals reach the models queued, before
    // the continuation runs.
    whenFinished(QtConcurrent::run(
                     [source, target, sessionID] { return DbImport::importSessions(*source, *target, {sessionID}); }),
                 this, [this, sessionID](const Result<QList<DbImport::Imported>> &result) {
                     QString error = result ? QString() : result.error().toString();
                     std::optional<Session> copy;
                     if (result) {
                         for (const DbImport::Imported &i : result.value()) {
                             if (i.sourceID != sessionID)
                                 continue;
                             error = i.error;
                             if (!i.session.id().isEmpty())
                                 copy = i.session;
                         }
                     }
                     if (!copy)
                         Q_EMIT failed(Operation::Import, sessionID, error);
                     else
                         Q_EMIT imported(sessionID, *copy);
                 });
    return true;
}

Result<void> SessionController::checkIdle(const QString &sessionID) const
{
    if (isBusy(sessionID))
        return Error{SessionTr::tr("session %1 is running; stop it first").arg(sessionID), {}};
    if (const std::optional<RunHolder> holder = runningElsewhere(sessionID))
        return Error{SessionTr::tr("session %1 is being run by %2").arg(sessionID, holder->describe()), {}};
    return {};
}

std::shared_ptr<SessionService> SessionController::sharedServiceOf(const QString &sessionID) const
{
    const ServerSource *server = serverOf(sessionID);
    return server && server->service() ? server->sharedService() : m_service;
}

QFuture<Result<RevertPlan>> SessionController::planRevert(const QString &sessionID, const QString &messageID)
{
    if (serverOf(sessionID))
        return QtFuture::makeReadyValueFuture(Result<RevertPlan>(RevertPlan()));
    std::shared_ptr<SessionService> service = m_service;
    const QString dataDir = m_dataDir;
    // Reads the session and stages the current files in the snapshot repository (git).
    return QtConcurrent::run(m_pool, [service, dataDir, sessionID, messageID] {
        return Revert::plan(*service, dataDir, sessionID, messageID);
    });
}

bool SessionController::revert(const QString &sessionID, const QString &messageID, const QString &partID)
{
    if (!isRunnable(sessionID) || isBusy(sessionID))
        return false;
    if (ServerSource *server = serverOf(sessionID)) {
        server->revert(sessionID, messageID, partID);
        return true;
    }
    std::shared_ptr<SessionService> service = m_service;
    const QString dataDir = m_dataDir;
    // Writes files back from the snapshots (git): off the GUI thread.
    whenFinished(QtConcurrent::run(m_pool,
                                   [service, dataDir, sessionID, messageID, partID] {
                                       return Revert::revert(*service, dataDir, sessionID, messageID, partID);
                                   }),
                 this, [this, sessionID](const Result<Session> &result) {
                     if (!result)
                         Q_EMIT failed(Operation::Revert, sessionID, result.error().toString());
                     else
                         Q_EMIT revertChanged(result.value());
                 });
    return true;
}

QFuture<Result<QString>> SessionController::locateFile(const QString &directory, const QString &file)
{
    return QtConcurrent::run(m_pool, [directory, file] {
        // Paths in a diff are relative to the project's work tree (the session's directory or above).
        const ProjectIdentity project = identifyProject(directory);
        const QString base = project.worktree.isEmpty() || project.worktree == u"/" ? directory : project.worktree;
        return FileRevert::resolve(base, directory, file);
    });
}

QFuture<Result<void>> SessionController::revertFile(const QString &sessionID, std::shared_ptr<const DiffDocument> document,
                                                    const QString &absolutePath)
{
    const auto refused = [](const QString &why) { return QtFuture::makeReadyValueFuture(Result<void>(Error{why, {}})); };
    if (serverOf(sessionID))
        return refused(SessionTr::tr("the files of an OpenCode server's session are on the server"));
    if (m_service->isReadOnly())
        return refused(SessionTr::tr("the store is read-only"));
    if (const Result<void> idle = checkIdle(sessionID); !idle)
        return refused(idle.error().message);
    return QtConcurrent::run(m_pool, [document = std::move(document), absolutePath] {
        return FileRevert::revert(*document, absolutePath);
    });
}

QFuture<Result<Session>> SessionController::rename(const QString &sessionID, const QString &title)
{
    if (const Result<void> idle = checkIdle(sessionID); !idle)
        return QtFuture::makeReadyValueFuture(Result<Session>(idle.error()));
    if (ServerSource *server = serverOf(sessionID))
        return server->rename(sessionID, title);
    return QtConcurrent::run(m_servicePool, [service = sharedServiceOf(sessionID), sessionID, title] {
        return service->rename(sessionID, title);
    });
}

QFuture<Result<Session>> SessionController::setArchived(const QString &sessionID, bool archived)
{
    if (const Result<void> idle = checkIdle(sessionID); !idle)
        return QtFuture::makeReadyValueFuture(Result<Session>(idle.error()));
    return QtConcurrent::run(m_servicePool, [service = sharedServiceOf(sessionID), sessionID, archived] {
        return service->setArchived(sessionID, archived);
    });
}

QFuture<Result<TrashEntry>> SessionController::moveToTrash(const QString &sessionID)
{
    if (serverOf(sessionID))
        return QtFuture::makeReadyValueFuture(
            Result<TrashEntry>(Error{SessionTr::tr("an OpenCode server's sessions have no trash"), sessionID}));
    if (const Result<void> idle = checkIdle(sessionID); !idle)
        return QtFuture::makeReadyValueFuture(Result<TrashEntry>(idle.error()));
    return QtConcurrent::run(m_servicePool, [service = m_service, sessionID] { return service->moveToTrash(sessionID); });
}

QFuture<Result<void>> SessionController::remove(const QString &sessionID)
{
    if (const Result<void> idle = checkIdle(sessionID); !idle)
        return QtFuture::makeReadyValueFuture(Result<void>(idle.error()));
    if (ServerSource *server = serverOf(sessionID)) {
        // Done there; a refusal comes as failed(ServerRequest).
        server->remove(sessionID);
        return QtFuture::makeReadyValueFuture(Result<void>());
    }
    return QtConcurrent::run(m_servicePool, [service = m_service, sessionID] { return service->remove(sessionID); });
}

bool SessionController::unrevert(const QString &sessionID)
{
    if (!isRunnable(sessionID) || isBusy(sessionID))
        return false;
    if (ServerSource *server = serverOf(sessionID)) {
        server->unrevert(sessionID);
        return true;
    }
    std::shared_ptr<SessionService> service = m_service;
    const QString dataDir = m_dataDir;
    // Puts files back from the snapshots (git): off the GUI thread.
    whenFinished(QtConcurrent::run(
                     m_pool, [service, dataDir, sessionID] { return Revert::unrevert(*service, dataDir, sessionID); }),
                 this, [this, sessionID](const Result<Session> &result) {
                     if (!result)
                         Q_EMIT failed(Operation::Unrevert, sessionID, result.error().toString());
                     else
                         Q_EMIT revertChanged(result.value());
                 });
    return true;
}

QFuture<Result<void>> SessionController::exportSession(const QString &sessionID, const QString &path,
                                                       const QString &source) const
{
    // A session of OpenCode's source exports from OpenCode's data, as `opencode export` does.
    // Written as it is read; the file appears, whole, only when all of it is written.
    return QtConcurrent::run(m_servicePool, [service = sharedServiceFor(source), sessionID, path]() -> Result<void> {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return Error{file.errorString(), {}};
        const Result<void> written = Transfer::writeExport(
            *service, sessionID, [&file](QByteArrayView bytes) { file.write(bytes.data(), bytes.size()); });
        if (!written) {
            file.cancelWriting();
            return written.error();
        }
        if (!file.commit())
            return Error{file.errorString(), {}};
        return {};
    });
}

// ---- sources and search

void SessionController::openSources()
{
    if (m_searchIndex || m_opencode)
        return;
    if (searchLimits().enabled)
        openSearchIndex();
    m_opencode = new OpencodeSource(this);
    connect(m_opencode, &OpencodeSource::ready, this, [this] {
        if (m_searchIndex && m_searchIndex->isOpen())
            m_searchIndex->addSource(m_opencode->service(), m_opencode->key());
    });
    connect(m_opencode, &OpencodeSource::aboutToClose, this, [this] {
        if (m_searchIndex && m_opencode->service())
            m_searchIndex->removeSource(m_opencode->service());
    });
}

void SessionController::closeSources()
{
    for (ServerSource *server : std::as_const(m_servers)) {
        disconnect(server, nullptr, this, nullptr);
        server->close();
    }
    // The index's worker uses the services: it ends first.
    closeSearchIndex();
    if (m_opencode) {
        disconnect(m_opencode, nullptr, this, nullptr);
        m_opencode->close();
    }
}

bool SessionController::hasSource(const QString &source) const
{
    return source.isEmpty() || (m_opencode && m_opencode->key() == source && m_opencode->service())
        || (server(source) && server(source)->service());
}

SessionService *SessionController::serviceFor(const QString &source) const
{
    return sharedServiceFor(source).get();
}

std::shared_ptr<SessionService> SessionController::sharedServiceFor(const QString &source) const
{
    if (!source.isEmpty() && m_opencode && m_opencode->key() == source && m_opencode->service())
        return m_opencode->sharedService();
    if (const ServerSource *s = server(source); s && s->service())
        return s->sharedService();
    return m_service;
}

// ---- OpenCode servers

ServerSource *SessionController::addServer(const ServerClient &client)
{
    ServerSource *existing = server(ServerSource::keyFor(client.baseUrl()));
    if (existing) {
        existing->connectTo(client);
        return existing;
    }
    auto *source = new ServerSource(this);
    m_servers.append(source);
    connect(source, &ServerSource::busyChanged, this, &SessionController::busyChanged);
    connect(source, &ServerSource::runFinished, this, &SessionController::onRunFinished);
    connect(source, &ServerSource::permissionRequested, this, &SessionController::permissionRequested);
    connect(source, &ServerSource::permissionClosed, this, &SessionController::permissionClosed);
    connect(source, &ServerSource::questionAsked, this, &SessionController::questionAsked);
    connect(source, &ServerSource::questionClosed, this, &SessionController::questionClosed);
    connect(source, &ServerSource::forked, this, &SessionController::forked);
    connect(source, &ServerSource::compactionFinished, this, &SessionController::compactionFinished);
    connect(source, &ServerSource::reverted, this, &SessionController::revertChanged);
    connect(source, &ServerSource::failed, this,
            [this](ServerSource::Operation operation, const QString &sessionID, const QString &error) {
                switch (operation) {
                case ServerSource::Operation::Connect:
                    Q_EMIT failed(Operation::Connect, sessionID, error);
                    break;
                case ServerSource::Operation::Fork:
                    Q_EMIT failed(Operation::Fork, sessionID, error);
                    break;
                case ServerSource::Operation::Revert:
                    Q_EMIT failed(Operation::Revert, sessionID, error);
                    break;
                case ServerSource::Operation::Unrevert:
                    Q_EMIT failed(Operation::Unrevert, sessionID, error);
                    break;
                default:
                    Q_EMIT failed(Operation::ServerRequest, sessionID, error);
                    break;
                }
            });
    Q_EMIT serverAdded(source);
    source->connectTo(client);
    return source;
}

void SessionController::removeServer(const QString &key)
{
    ServerSource *source = server(key);
    if (!source)
        return;
    m_servers.removeAll(source);
    source->close();
    source->deleteLater();
}

ServerSource *SessionController::server(const QString &key) const
{
    for (ServerSource *s : m_servers) {
        if (s->key() == key)
            return s;
    }
    return nullptr;
}

ServerSource *SessionController::serverOf(const QString &sessionID) const
{
    for (ServerSource *s : m_servers) {
        if (s->holds(sessionID))
            return s;
    }
    return nullptr;
}

QString SessionController::sourceOf(const QString &sessionID) const
{
    const ServerSource *s = serverOf(sessionID);
    return s ? s->key() : QString();
}

bool SessionController::answerQuestion(const QString &requestID, const QList<QStringList> &answers)
{
    for (ServerSource *server : std::as_const(m_servers)) {
        if (server->hasQuestion(requestID))
            return server->answerQuestion(requestID, answers);
    }
    return m_processor && m_processor->answerQuestion(requestID, answers);
}

bool SessionController::rejectQuestion(const QString &requestID)
{
    for (ServerSource *server : std::as_const(m_servers)) {
        if (server->hasQuestion(requestID))
            return server->rejectQuestion(requestID);
    }
    return m_processor && m_processor->rejectQuestion(requestID);
}

void SessionController::openSearchIndex()
{
    // The search index lives beside Weft's own data, never in OpenCode's folder.
    m_searchIndex = new SearchIndex(this);
    m_searchIndex->setLimits(searchLimits());
    // Pauses asked before the index was there hold its first sync too.
    for (const QString &reason : std::as_const(m_indexingPauses))
        m_searchIndex->pause(reason);
    connect(m_searchIndex, &SearchIndex::progress, this, &SessionController::searchProgress);
    // A streaming run has the machine first.
    connect(this, &SessionController::busyChanged, m_searchIndex, [index = m_searchIndex](const QString &sessionID, bool busy) {
        busy ? index->pause(u"run "_s + sessionID) : index->resume(u"run "_s + sessionID);
    });
    const QString weftDir = m_service->isReadOnly() ? DataDir::defaultPath() : m_dataDir;
    QDir().mkpath(weftDir);
    if (const Result<void> opened = m_searchIndex->open(SearchIndex::defaultFile(weftDir)); !opened) {
        qCWarning(lcUi) << "search index not available:" << opened.error().toString();
        return;
    }
    m_searchIndex->addSource(m_service.get());
    if (m_opencode && m_opencode->isReady() && m_opencode->service())
        m_searchIndex->addSource(m_opencode->service(), m_opencode->key());
}

void SessionController::closeSearchIndex()
{
    if (m_searchIndex && m_opencode && m_opencode->service())
        m_searchIndex->removeSource(m_opencode->service());
    delete m_searchIndex;
    m_searchIndex = nullptr;
}

SearchLimits SessionController::searchLimits()
{
    return SearchLimits::read(QSettings());
}

void SessionController::setSearchLimits(const SearchLimits &limits)
{
    QSettings settings;
    limits.write(settings);
    if (!limits.enabled) {
        closeSearchIndex();
        Q_EMIT searchProgress(0, 0);
    } else if (!m_searchIndex) {
        if (m_opencode) // the sources are open
            openSearchIndex();
    } else {
        m_searchIndex->setLimits(limits);
        m_searchIndex->refresh();
    }
}

void SessionController::pauseIndexing(const QString &reason)
{
    m_indexingPauses.insert(reason);
    if (m_searchIndex)
        m_searchIndex->pause(reason);
}

void SessionController::resumeIndexing(const QString &reason)
{
    m_indexingPauses.remove(reason);
    if (m_searchIndex)
        m_searchIndex->resume(reason);
}

bool SessionController::canSearch() const
{
    return m_searchIndex && m_searchIndex->isOpen();
}

bool SessionController::isSearchQuery(const QString &query)
{
    return !SearchIndex::ftsQuery(query).isEmpty();
}

SessionController::Searcher SessionController::searcher() const
{
    return [index = m_searchIndex](const QString &query, const SearchOptions &options) -> Result<QList<SearchHit>> {
        return index ? index->search(query, options) : Result<QList<SearchHit>>(QList<SearchHit>());
    };
}

QList<SearchDocument> SessionController::searchDocuments(const Message &message, const QList<Part> &parts)
{
    return SearchIndex::documents(message, parts);
}

QString SessionController::primarySourceKey() const
{
    return SearchIndex::sourceKey(*storeOf(*m_service));
}

std::function<std::optional<Message::Role>(const SearchHit &)> SessionController::roleResolver() const
{
    QHash<QString, std::shared_ptr<Store>> stores;
    stores.insert(primarySourceKey(), storeOf(*m_service));
    if (m_opencode && m_opencode->service())
        stores.insert(m_opencode->key(), storeOf(*m_opencode->service()));
    return [stores](const SearchHit &hit) -> std::optional<Message::Role> {
        const std::shared_ptr<Store> store = stores.value(hit.source);
        if (!store)
            return std::nullopt;
        const std::optional<Message> m = store->message(hit.sessionID, hit.messageID);
        return m ? std::optional(m->role()) : std::nullopt;
    };
}

} // namespace weft
