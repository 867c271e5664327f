// SPDX-License-Identifier: GPL-3.0-or-later
#include "processor.h"

#include "compaction/compaction.h"
#include "core/identifier.h"
#include "core/logging.h"
#include "core/project.h"
#include "permission.h"
#include "revert.h"
#include "session/modelmessages.h"
#include "session/sessionservice.h"
#include "snapshot.h"
#include "tool.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <QSet>
#include <QSysInfo>
#include <QThread>
#include <QTimer>
#include <QUuid>
#include <QWaitCondition>

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

/// Waits of tools for the user's answer to a permission question.
struct PermissionWaiter {
    QMutex mutex;
    QWaitCondition changed;
    QHash<QString, std::optional<PermissionReply>> answers;
};

// ---------------------------------------------------------------------------------------------

/// One prompt's run, on its own worker thread. The loop is written linearly: waits for the
/// network and for retry delays run a local event loop on the worker thread, which keeps the
/// steps, retries and tool calls readable top to bottom, as in OpenCode's SessionPrompt.loop.
class SessionRun : public QObject
{
    Q_OBJECT

public:
    SessionRun(Processor *processor, PromptRequest request, Session session, std::shared_ptr<std::atomic_bool> abortFlag)
        : m_processor(processor)
        , m_service(processor->m_service)
        , m_config(processor->m_config)
        , m_waiter(processor->m_waiter)
        , m_request(std::move(request))
        , m_session(std::move(session))
        , m_abort(std::move(abortFlag))
    {
        Result<Compaction::Settings> settings = Compaction::Settings::fromConfig(m_config.compaction);
        if (!settings) {
            qCWarning(lcProcessor).noquote() << "invalid compaction settings, using the defaults:" << settings.error().toString();
            settings = Compaction::Settings::fromConfig({});
        }
        m_settings = settings.value();
    }

    void run();
    [[nodiscard]] std::shared_ptr<std::atomic_bool> abortFlag() const { return m_abort; }
    /// Runs as a nested sub-agent on the current thread (the task tool); returns its last text.
    Result<QString> runNested();
    /// Makes run() compact the session instead of sending a prompt.
    void setCompaction(const CompactOptions &options)
    {
        m_compactOnly = true;
        m_compactOptions = options;
    }

Q_SIGNALS:
    void done(const QString &sessionID, bool ok, const weft::MessageError &error);
    void retrying(const QString &sessionID, int attempt, qint64 delayMs, const weft::MessageError &error);
    void permissionRequested(const weft::PermissionRequest &request);
    void compactionStarted(const QString &sessionID, bool automatic);
    void compactionFinished(const QString &sessionID, bool ok, const weft::MessageError &error);

public Q_SLOTS:
    void abortNow();

private:
    enum class StepResult { Continue, Stop, Failed };
    /// What one step sends: the model, fixed messages (empty: the session's context, rebuilt
    /// for each attempt) and whether the agent's tools are offered.
    struct StepSpec {
        ResolvedModel model;
        QList<LlmMessage> messages;
        bool tools = true;
        std::optional<double> temperature;
        std::optional<double> topP;
    };

    Result<void> prepare();
    Result<void> prepareWorkspace();
    StepSpec promptStep() const;
    /// The agent loop from @p user on; false when it ended with an error or was aborted.
    bool runLoop(Message user);
    void runCompactionOnly();
    /// Prunes, then streams a summary (see Processor::compact). Returns the synthetic continue
    /// message of an automatic compaction (nullopt for a manual one), or the error after the
    /// session was restored.
    Result<std::optional<Message>> compactNow(const CompactOptions &options);
    void pruneAfterRun();
    StepResult runStep(Message &assistant, const StepSpec &spec);
    bool streamOnce(const ResolvedModel &model, const LlmRequest &request, Message &assistant, QString &finishReason,
                    LlmUsage &usage, JsonObject &metadata, MessageError &error, std::optional<qint64> &retryAfter);
    bool executeTools(Message &assistant);
    void finishAborted(Message &assistant);
    /// The diffs of the turn of @p userMessageID (summary.diffs of that message) and, with
    /// @p session, of the whole session (session_diff and the session's summary).
    void summarize(const QString &userMessageID, bool session);
    void generateTitle();
    Result<QString> collectText(const ResolvedModel &model, const QList<LlmMessage> &messages, qint64 maxTokens);
    QList<LlmMessage> buildMessages(const QList<MessageWithParts> &history) const;
    QString systemPrompt() const;
    QList<LlmToolDefinition> toolDefinitions() const;
    PermissionDecision ask(const QString &permission, const QStringList &patterns, const JsonObject &metadata,
                           const QString &messageID, const QString &callID);
    bool sleepAbortable(qint64 ms);
    Provider *makeProvider(const ResolvedModel &model);
    bool aborted() const { return m_abort->load(); }
    QString trackSnapshot()
    {
        if (!m_snapshot)
            return {};
        Result<QString> hash = m_snapshot->track();
        if (!hash) {
            // Snapshots are a convenience (diffs, revert); a failure must not stop the agent.
            qCWarning(lcProcessor).noquote() << "snapshot failed:" << hash.error().toString();
            return {};
        }
        return hash.value();
    }
    void writeStreaming(const Part &part, const QString &delta);
    void flushDeltas();
    void writePart(const Part &part);
    qint64 now() const { return QDateTime::currentMSecsSinceEpoch(); }

    Processor *m_processor;
    std::shared_ptr<SessionService> m_service;
    ProcessorConfig m_config;
    std::shared_ptr<PermissionWaiter> m_waiter;
    PromptRequest m_request;
    Session m_session;
    std::shared_ptr<std::atomic_bool> m_abort;

    Agent m_agent;
    ResolvedModel m_model;
    QString m_userMessageID;
    QString m_worktree;
    QList<std::shared_ptr<Tool>> m_tools;
    std::unique_ptr<Snapshot> m_snapshot;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<Provider> m_provider;
    QEventLoop *m_loop = nullptr;
    QSet<QString> m_readFiles;
    QString m_lastText;
    MessageError m_lastError;
    bool m_nested = false;
    bool m_stopAfterStep = false;
    Compaction::Settings m_settings;
    QStringList m_turns; // synthetic continue messages of automatic compactions in this run
    bool m_compactOnly = false;
    CompactOptions m_compactOptions;
    QList<QByteArray> m_recentCalls; // tool + input of the last calls, for doom-loop detection

    // Streaming parts and their coalesced deltas.
    QHash<QString, Part> m_streamParts;      // stream id -> part
    QHash<QString, Part> m_toolParts;        // call id -> part
    QStringList m_toolOrder;
    QHash<QString, QString> m_pendingDelta;  // part id -> delta not announced yet
    QHash<QString, Part> m_pendingPart;
    QTimer *m_flushTimer = nullptr;
    QElapsedTimer m_sinceFlush;
};

void SessionRun::abortNow()
{
    m_abort->store(true);
    if (m_provider)
        m_provider->abort();
    if (m_loop)
        m_loop->quit();
}

Provider *SessionRun::makeProvider(const ResolvedModel &model)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    if (model.settings.protocol == ProviderProtocol::Anthropic)
        return new AnthropicProvider(model.settings, m_network, this);
    return new OpenAiCompatibleProvider(model.settings, m_network, this);
}

Result<void> SessionRun::prepare()
{
    const QString agentName = m_request.agent.isEmpty() ? u"build"_s : m_request.agent;
    const std::optional<Agent> agent = m_config.agents.find(agentName);
    if (!agent)
        return Error{u"unknown agent \"%1\""_s.arg(agentName), {}};
    m_agent = *agent;

    QString modelRef = m_request.model;
    if (modelRef.isEmpty())
        modelRef = m_agent.model;
    if (modelRef.isEmpty()) {
        // The model of the session's last user message, as OpenCode continues with it.
        const QList<Message> messages = m_service->store()->messages(m_session.id());
        for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
            if (it->isUser() && !it->modelProviderID().isEmpty()) {
                modelRef = it->modelProviderID() + u'/' + it->modelModelID();
                break;
            }
        }
    }
    Result<ResolvedModel> model = m_config.resolveModel(modelRef);
    if (!model && !m_request.model.isEmpty())
        return model.error();
    if (!model)
        model = m_config.resolveModel({});
    if (!model)
        return model.error();
    m_model = model.value();

    if (auto r = prepareWorkspace(); !r)
        return r;

    m_tools.clear();
    const QList<std::shared_ptr<Tool>> tools = builtinTools();
    QStringList names;
    for (const std::shared_ptr<Tool> &tool : tools)
        names.append(tool->name());
    PermissionRuleset rules = Permission::agentRuleset(m_agent.name, {m_config.dataDir, m_worktree}, m_config.permission,
                                                       m_agent.permission);
    rules += m_session.permission();
    const QSet<QString> disabled = Permission::disabledTools(names, rules);
    for (const std::shared_ptr<Tool> &tool : tools) {
        if (!m_agent.toolEnabled(tool->name()) || disabled.contains(tool->name()))
            continue;
        if (tool->name() == u"task" && m_nested)
            continue;
        m_tools.append(tool);
    }
    return {};
}

Result<void> SessionRun::prepareWorkspace()
{
    m_worktree = m_session.directory();
    const ProjectIdentity identity = identifyProject(m_session.directory());
    if (!identity.worktree.isEmpty() && identity.worktree != u"/")
        m_worktree = identity.worktree;
    if (m_config.snapshots && !m_snapshot)
        m_snapshot = std::make_unique<Snapshot>(m_config.dataDir, m_session.projectID(), m_worktree, m_session.directory());
    return {};
}

SessionRun::StepSpec SessionRun::promptStep() const
{
    StepSpec spec;
    spec.model = m_model;
    spec.tools = true;
    spec.temperature = m_agent.temperature;
    spec.topP = m_agent.topP;
    return spec;
}

QString SessionRun::systemPrompt() const
{
    QString prompt = m_agent.prompt;
    const QString date = QDateTime::currentDateTime().toString(u"ddd MMM dd yyyy"_s);
    prompt += u"\n\nHere is some useful information about the environment you are running in:\n<env>\n"
              u"  Working directory: %1\n  Is directory a git repo: %2\n  Platform: %3\n  Today's date: %4\n</env>"_s
                  .arg(m_session.directory(), m_session.projectID() == u"global" ? u"no"_s : u"yes"_s,
                       QSysInfo::kernelType(), date);
    // Project instructions, as OpenCode reads them.
    for (const QString &name : {u"AGENTS.md"_s, u"CLAUDE.md"_s}) {
        QFile file(m_worktree + u'/' + name);
        if (file.size() > 0 && file.size() < 200000 && file.open(QIODevice::ReadOnly)) {
            prompt += u"\n\nInstructions from: "_s + file.fileName() + u'\n' + QString::fromUtf8(file.readAll());
            break;
        }
    }
    return prompt;
}

QList<LlmToolDefinition> SessionRun::toolDefinitions() const
{
    QList<LlmToolDefinition> list;
    for (const std::shared_ptr<Tool> &tool : m_tools)
        list.append({tool->name(), tool->description(), tool->parameters()});
    return list;
}

QList<LlmMessage> SessionRun::buildMessages(const QList<MessageWithParts> &history) const
{
    QList<LlmMessage> messages{LlmMessage::system(systemPrompt())};
    messages += ModelMessages::toModelMessages(ModelMessages::filterCompacted(history));
    return messages;
}

PermissionDecision SessionRun::ask(const QString &permission, const QStringList &patterns, const JsonObject &metadata,
                                   const QString &messageID, const QString &callID)
{
    QList<PermissionRule> approved;
    {
        QMutexLocker locker(&m_processor->m_mutex);
        approved = m_processor->m_approved.value(m_session.id());
    }
    PermissionRuleset rules = Permission::agentRuleset(m_agent.name, {m_config.dataDir, m_worktree}, m_config.permission,
                                                       m_agent.permission);
    rules += m_session.permission();
    rules += approved;
    const PermissionRule::Action action = Permission::decide(permission, patterns, rules);
    if (action == PermissionRule::Action::Deny)
        return PermissionDecision::Deny;
    const bool needAsk = action == PermissionRule::Action::Ask;
    if (!needAsk)
        return PermissionDecision::Allow;
    switch (m_config.askPolicy) {
    case ProcessorConfig::AskPolicy::Allow:
        return PermissionDecision::Allow;
    case ProcessorConfig::AskPolicy::Deny:
        qCInfo(lcProcessor) << "permission" << permission << "needs approval; denied (no one to ask)";
        return PermissionDecision::Deny;
    case ProcessorConfig::AskPolicy::Interactive:
        break;
    }
    flushDeltas();
    PermissionRequest request{Identifier::ascending(Identifier::Kind::Permission), m_session.id(), messageID, callID,
                              permission, patterns, metadata};
    {
        QMutexLocker locker(&m_waiter->mutex);
        m_waiter->answers.insert(request.id, std::nullopt);
    }
    Q_EMIT permissionRequested(request);
    std::optional<PermissionReply> reply;
    {
        QMutexLocker locker(&m_waiter->mutex);
        while (!aborted()) {
            reply = m_waiter->answers.value(request.id);
            if (reply)
                break;
            m_waiter->changed.wait(&m_waiter->mutex, 200);
        }
        m_waiter->answers.remove(request.id);
    }
    if (!reply || *reply == PermissionReply::Reject)
        return PermissionDecision::Deny;
    if (*reply == PermissionReply::Always) {
        QMutexLocker locker(&m_processor->m_mutex);
        for (const QString &pattern : patterns)
            m_processor->m_approved[m_session.id()].append({permission, pattern, PermissionRule::Action::Allow});
    }
    return PermissionDecision::Allow;
}

bool SessionRun::sleepAbortable(qint64 ms)
{
    if (aborted())
        return false;
    QEventLoop loop;
    m_loop = &loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    m_loop = nullptr;
    return !aborted();
}

void SessionRun::writePart(const Part &part)
{
    // A part announced in full supersedes any delta still waiting for it.
    m_pendingDelta.remove(part.id());
    m_pendingPart.remove(part.id());
    if (auto r = m_service->updatePart(part); !r)
        qCWarning(lcProcessor).noquote() << "cannot write part:" << r.error().toString();
}

void SessionRun::writeStreaming(const Part &part, const QString &delta)
{
    if (auto r = m_service->storeStreamingPart(part, delta); !r)
        qCWarning(lcProcessor).noquote() << "cannot write part:" << r.error().toString();
    m_pendingDelta[part.id()] += delta;
    m_pendingPart.insert(part.id(), part);
    if (!m_flushTimer) {
        m_flushTimer = new QTimer(this);
        m_flushTimer->setSingleShot(true);
        m_flushTimer->setInterval(16);
        connect(m_flushTimer, &QTimer::timeout, this, &SessionRun::flushDeltas);
    }
    if (!m_flushTimer->isActive()) {
        m_flushTimer->start();
        m_sinceFlush.start();
    } else if (m_sinceFlush.elapsed() >= 16) {
        // A burst keeps this thread from reaching its event loop: announce from here.
        flushDeltas();
    }
}

void SessionRun::flushDeltas()
{
    if (m_flushTimer)
        m_flushTimer->stop();
    for (auto it = m_pendingPart.cbegin(); it != m_pendingPart.cend(); ++it)
        m_service->announcePart(it.value(), m_pendingDelta.value(it.key()));
    m_pendingPart.clear();
    m_pendingDelta.clear();
}

bool SessionRun::streamOnce(const ResolvedModel &model, const LlmRequest &request, Message &assistant, QString &finishReason,
                            LlmUsage &usage, JsonObject &metadata, MessageError &error, std::optional<qint64> &retryAfter)
{
    Provider *provider = makeProvider(model);
    m_provider = provider;
    bool ok = false;
    bool ended = false;
    QEventLoop loop;
    m_loop = &loop;

    auto partFor = [&](const QString &streamID, PartType type) -> Part & {
        auto it = m_streamParts.find(streamID);
        if (it == m_streamParts.end()) {
            Part p = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), type);
            p.json().insert(u"text"_s, u""_s);
            p.json().insert(u"time"_s, JsonObject{{u"start"_s, now()}});
            it = m_streamParts.insert(streamID, p);
        }
        return it.value();
    };

    connect(provider, &Provider::event, &loop, [&](const LlmEvent &e) {
        switch (e.type) {
        case LlmEvent::Type::TextStart:
        case LlmEvent::Type::ReasoningStart: {
            const PartType type = e.type == LlmEvent::Type::TextStart ? PartType::Text : PartType::Reasoning;
            Part &p = partFor(e.type == LlmEvent::Type::TextStart ? u"text:"_s + e.id : u"reasoning:"_s + e.id, type);
            if (!e.providerMetadata.isEmpty())
                p.json().insert(u"metadata"_s, e.providerMetadata);
            writePart(p);
            break;
        }
        case LlmEvent::Type::TextDelta:
        case LlmEvent::Type::ReasoningDelta: {
            const bool text = e.type == LlmEvent::Type::TextDelta;
            Part &p = partFor(text ? u"text:"_s + e.id : u"reasoning:"_s + e.id, text ? PartType::Text : PartType::Reasoning);
            p.setText(p.text() + e.text);
            writeStreaming(p, e.text);
            break;
        }
        case LlmEvent::Type::TextEnd:
        case LlmEvent::Type::ReasoningEnd: {
            const bool text = e.type == LlmEvent::Type::TextEnd;
            Part &p = partFor(text ? u"text:"_s + e.id : u"reasoning:"_s + e.id, text ? PartType::Text : PartType::Reasoning);
            flushDeltas();
            if (text) {
                // OpenCode trims the end of a finished text part.
                QString t = p.text();
                while (!t.isEmpty() && t.back().isSpace())
                    t.chop(1);
                p.setText(t);
                m_lastText = t;
            }
            if (!e.providerMetadata.isEmpty())
                p.json().insert(u"metadata"_s, e.providerMetadata);
            p.setTimeField(u"end"_s, now());
            writePart(p);
            break;
        }
        case LlmEvent::Type::ToolInputStart: {
            Part p = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Tool);
            p.json().insert(u"callID"_s, e.id);
            p.json().insert(u"tool"_s, e.toolName);
            p.setState(ToolState::pending(JsonObject{}, u""_s));
            m_toolParts.insert(e.id, p);
            m_toolOrder.append(e.id);
            writePart(p);
            break;
        }
        case LlmEvent::Type::ToolInputDelta: {
            auto it = m_toolParts.find(e.id);
            if (it == m_toolParts.end())
                break;
            ToolState state = it->state();
            state.json().insert(u"raw"_s, state.raw() + e.text);
            it->setState(state);
            writeStreaming(*it, {});
            break;
        }
        case LlmEvent::Type::ToolInputEnd:
            break;
        case LlmEvent::Type::ToolCall: {
            auto it = m_toolParts.find(e.id);
            if (it == m_toolParts.end()) {
                Part p = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Tool);
                p.json().insert(u"callID"_s, e.id);
                p.json().insert(u"tool"_s, e.toolName);
                it = m_toolParts.insert(e.id, p);
                m_toolOrder.append(e.id);
            }
            ToolState state = ToolState::pending(e.input, e.rawInput);
            if (!e.inputError.isEmpty())
                state.json().insert(u"inputError"_s, e.inputError);
            it->setState(state);
            writePart(*it);
            break;
        }
        case LlmEvent::Type::FinishStep:
            finishReason = e.finishReason;
            usage = e.usage;
            metadata = e.providerMetadata;
            break;
        case LlmEvent::Type::Error:
            error = e.error;
            break;
        case LlmEvent::Type::Start:
            break;
        }
    });
    connect(provider, &Provider::finished, &loop, [&] {
        ok = error.isNull();
        ended = true;
        loop.quit();
    });
    connect(provider, &Provider::failed, &loop, [&](const MessageError &e, std::optional<qint64> after) {
        error = e;
        retryAfter = after;
        ended = true;
        loop.quit();
    });
    provider->start(request);
    if (!ended && !aborted())
        loop.exec();
    m_loop = nullptr;
    if (!ended) {
        provider->abort();
        error = MessageError::aborted(u"The operation was aborted."_s);
    }
    flushDeltas();
    m_provider = nullptr;
    provider->deleteLater();
    return ok;
}

SessionRun::StepResult SessionRun::runStep(Message &assistant, const StepSpec &spec)
{
    int attempt = 0;
    while (true) {
        m_streamParts.clear();
        m_toolParts.clear();
        m_toolOrder.clear();

        const QString startSnapshot = trackSnapshot();
        Part stepStart = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::StepStart);
        if (!startSnapshot.isEmpty())
            stepStart.json().insert(u"snapshot"_s, startSnapshot);
        writePart(stepStart);

        const ResolvedModel &model = spec.model;
        LlmRequest request;
        request.providerID = model.providerID;
        request.modelID = model.apiModelID.isEmpty() ? model.modelID : model.apiModelID;
        request.messages = spec.messages.isEmpty() ? buildMessages(m_service->messages(m_session.id())) : spec.messages;
        if (spec.tools)
            request.tools = toolDefinitions();
        request.maxOutputTokens = model.outputLimit > 0 ? qMin<qint64>(model.outputLimit, 32000) : 0;
        request.temperature = spec.temperature;
        request.topP = spec.topP;
        request.providerOptions = model.providerOptions;

        QString finishReason;
        LlmUsage usage;
        JsonObject metadata;
        MessageError error;
        std::optional<qint64> retryAfter;
        const bool ok = streamOnce(model, request, assistant, finishReason, usage, metadata, error, retryAfter);

        if (aborted()) {
            finishAborted(assistant);
            return StepResult::Stop;
        }
        if (!ok) {
            if (error.isRetryable() && attempt < m_config.maxRetries) {
                ++attempt;
                const qint64 delay = retryDelay(attempt, retryAfter, m_config.retryInitialMs, m_config.retryMaxMs);
                Part retry = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Retry);
                retry.json().insert(u"attempt"_s, attempt);
                retry.json().insert(u"error"_s, error.json());
                retry.json().insert(u"time"_s, JsonObject{{u"created"_s, now()}});
                writePart(retry);
                qCInfo(lcProcessor).noquote() << "retry" << attempt << "in" << delay << "ms after" << error.message();
                Q_EMIT retrying(m_session.id(), attempt, delay, error);
                if (!sleepAbortable(delay)) {
                    finishAborted(assistant);
                    return StepResult::Stop;
                }
                continue;
            }
            // Give up: the message ends with the error, the session announces it.
            for (const QString &callID : std::as_const(m_toolOrder)) {
                Part p = m_toolParts.value(callID);
                const ToolState s = p.state();
                if (s.status() == ToolStatus::Pending || s.status() == ToolStatus::Running) {
                    p.setState(ToolState::error(s.input(), u"Tool execution aborted"_s, now(), now()));
                    writePart(p);
                }
            }
            assistant.setError(error);
            assistant.setFinish(u"error"_s);
            assistant.setCompleted(now());
            (void)m_service->updateMessage(assistant);
            m_service->reportError(m_session.id(), error);
            m_lastError = error;
            return StepResult::Failed;
        }

        const bool wantsTools = !m_toolOrder.isEmpty();
        if (wantsTools && !spec.tools) {
            // No tools were offered (a summary): calls the model made anyway are not run.
            for (const QString &callID : std::as_const(m_toolOrder)) {
                Part p = m_toolParts.value(callID);
                p.setState(ToolState::error(p.state().input(), u"No tools are available here"_s, now(), now()));
                writePart(p);
            }
        } else if (wantsTools && !executeTools(assistant)) {
            if (aborted()) {
                finishAborted(assistant);
                return StepResult::Stop;
            }
        }

        const StepUsage stepUsage = getUsage(model.cost, usage, metadata);
        const QString endSnapshot = trackSnapshot();
        Part stepFinish = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::StepFinish);
        stepFinish.json().insert(u"reason"_s, finishReason.isEmpty() ? u"unknown"_s : finishReason);
        if (!endSnapshot.isEmpty())
            stepFinish.json().insert(u"snapshot"_s, endSnapshot);
        stepFinish.json().insert(u"cost"_s, stepUsage.costValue());
        stepFinish.json().insert(u"tokens"_s, stepUsage.tokens.toJson());
        writePart(stepFinish);
        if (m_snapshot && !startSnapshot.isEmpty()) {
            const Result<Snapshot::Patch> patched = m_snapshot->patch(startSnapshot);
            const Snapshot::Patch patch = patched ? patched.value() : Snapshot::Patch();
            if (!patched)
                qCWarning(lcProcessor).noquote() << "snapshot patch failed:" << patched.error().toString();
            if (!patch.files.isEmpty()) {
                Part p = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Patch);
                p.json().insert(u"hash"_s, patch.hash);
                JsonArray files;
                for (const QString &f : patch.files)
                    files.append(f);
                p.json().insert(u"files"_s, files);
                writePart(p);
            }
        }

        assistant.setCost(stepUsage.costValue());
        assistant.setTokens(stepUsage.tokens);
        assistant.setFinish(finishReason.isEmpty() ? u"unknown"_s : finishReason);
        assistant.setCompleted(now());
        (void)m_service->updateMessage(assistant);
        if (m_stopAfterStep)
            return StepResult::Failed;
        return wantsTools && spec.tools && finishReason == FinishReason::ToolCalls ? StepResult::Continue : StepResult::Stop;
    }
}

bool SessionRun::executeTools(Message &assistant)
{
    for (const QString &callID : std::as_const(m_toolOrder)) {
        if (aborted())
            return false;
        Part part = m_toolParts.value(callID);
        ToolState state = part.state();
        const JsonObject input = state.input();
        const qint64 start = now();

        std::shared_ptr<Tool> tool;
        for (const std::shared_ptr<Tool> &t : std::as_const(m_tools)) {
            if (t->name() == part.tool())
                tool = t;
        }
        auto fail = [&](const QString &message) {
            part.setState(ToolState::error(input, message, start, now()));
            writePart(part);
        };
        if (!tool) {
            fail(u"Unknown tool \"%1\". Available tools: %2"_s.arg(part.tool(), [&] {
                QStringList names;
                for (const auto &t : std::as_const(m_tools))
                    names.append(t->name());
                return names.join(u", "_s);
            }()));
            continue;
        }
        if (!state.json().string(u"inputError").isEmpty()) {
            fail(u"Invalid input for tool %1: %2"_s.arg(part.tool(), state.json().string(u"inputError")));
            continue;
        }

        // Doom loop: the same call three times in a row.
        const QByteArray signature = part.tool().toUtf8() + toJson(input, 0);
        m_recentCalls.append(signature);
        if (m_recentCalls.size() > 3)
            m_recentCalls.removeFirst();
        if (m_recentCalls.size() == 3 && m_recentCalls.at(0) == signature && m_recentCalls.at(1) == signature) {
            if (ask(u"doom_loop"_s, {part.tool()}, JsonObject{{u"tool"_s, part.tool()}, {u"input"_s, input}}, assistant.id(), callID)
                == PermissionDecision::Deny) {
                const QString message = u"Doom loop detected: the tool \"%1\" was called three times in a row with the same input. "
                                        u"The run was stopped."_s.arg(part.tool());
                fail(message);
                m_stopAfterStep = true;
                m_lastError = MessageError::unknown(message);
                assistant.setError(m_lastError);
                m_service->reportError(m_session.id(), m_lastError);
                return false;
            }
        }

        part.setState(ToolState::running(input, start));
        writePart(part);

        ToolContext context;
        context.sessionID = m_session.id();
        context.messageID = assistant.id();
        context.callID = callID;
        context.agent = m_agent.name;
        context.directory = m_session.directory();
        context.worktree = m_worktree;
        context.dataDir = m_config.dataDir;
        context.abortFlag = m_abort;
        context.ask = [this, &assistant, callID](const QString &permission, const QStringList &patterns, const JsonObject &metadata) {
            return ask(permission, patterns, metadata, assistant.id(), callID);
        };
        context.runSubagent = [this](const QString &agent, const QString &description, const QString &prompt) -> Result<QString> {
            SessionService::CreateOptions options;
            options.directory = m_session.directory();
            options.projectID = m_session.projectID();
            options.parentID = m_session.id();
            options.title = description + u" (@"_s + agent + u" subagent)"_s;
            Result<Session> child = m_service->create(options);
            if (!child)
                return child.error();
            PromptRequest request{child->id(), m_session.directory(), prompt, agent, m_model.ref()};
            SessionRun nested(m_processor, request, child.value(), m_abort);
            nested.m_nested = true;
            connect(&nested, &SessionRun::retrying, this, &SessionRun::retrying);
            connect(&nested, &SessionRun::permissionRequested, this, &SessionRun::permissionRequested);
            connect(&nested, &SessionRun::compactionStarted, this, &SessionRun::compactionStarted);
            connect(&nested, &SessionRun::compactionFinished, this, &SessionRun::compactionFinished);
            return nested.runNested();
        };
        context.progress = [this, &part, input, start](const QString &title, const JsonObject &metadata) {
            part.setState(ToolState::running(input, start, title, metadata));
            writeStreaming(part, {});
        };
        context.wasRead = [this](const QString &path) { return m_readFiles.contains(QDir::cleanPath(path)); };
        context.markRead = [this](const QString &path) { m_readFiles.insert(QDir::cleanPath(path)); };

        ToolResult result = tool->execute(context, input);
        flushDeltas();
        if (aborted() && !result.ok) {
            fail(u"Tool execution aborted"_s);
            return false;
        }
        if (result.ok) {
            part.setState(ToolState::completed(input, result.output, result.title, result.metadata, start, now()));
            writePart(part);
        } else {
            part.setState(ToolState::error(input, result.error, start, now(), result.metadata));
            writePart(part);
        }
    }
    return !aborted();
}

void SessionRun::finishAborted(Message &assistant)
{
    flushDeltas();
    // Close what was streaming, then the tools that never finished.
    for (auto it = m_streamParts.begin(); it != m_streamParts.end(); ++it) {
        if (it->json().object(u"time").contains(u"end"))
            continue;
        it->setTimeField(u"end"_s, now());
        writePart(*it);
    }
    for (const QString &callID : std::as_const(m_toolOrder)) {
        Part p = m_toolParts.value(callID);
        const QString stored = p.id();
        // Re-read: the tool may have finished and been written meanwhile.
        for (const Part &current : m_service->store()->parts(m_session.id(), assistant.id())) {
            if (current.id() == stored)
                p = current;
        }
        const ToolState s = p.state();
        if (s.status() == ToolStatus::Pending || s.status() == ToolStatus::Running) {
            p.setState(ToolState::error(s.input(), u"Tool execution aborted"_s, s.started() > 0 ? s.started() : now(), now()));
            writePart(p);
        }
    }
    assistant.setError(MessageError::aborted(u"The operation was aborted."_s));
    assistant.setCompleted(now());
    (void)m_service->updateMessage(assistant);
    m_lastError = assistant.error();
}

void SessionRun::summarize(const QString &userMessageID, bool session)
{
    if (!m_snapshot)
        return;
    const QList<MessageWithParts> messages = m_service->messages(m_session.id());
    auto diffOf = [&](const QList<const MessageWithParts *> &scope) -> std::optional<QList<FileDiff>> {
        QString from, to;
        for (const MessageWithParts *m : scope) {
            for (const Part &p : m->parts) {
                if (p.type() == PartType::StepStart && from.isEmpty() && !p.snapshot().isEmpty())
                    from = p.snapshot();
                if (p.type() == PartType::StepFinish && !p.snapshot().isEmpty())
                    to = p.snapshot();
            }
        }
        if (from.isEmpty() || to.isEmpty())
            return std::nullopt;
        Result<QList<FileDiff>> diffs = m_snapshot->diffFull(from, to);
        if (!diffs) {
            qCWarning(lcProcessor).noquote() << "snapshot diff failed:" << diffs.error().toString();
            return std::nullopt;
        }
        return diffs.value();
    };
    QList<const MessageWithParts *> all;
    for (const MessageWithParts &m : messages)
        all.append(&m);
    if (!session) {
        // only the turn below
    } else if (const auto diffs = diffOf(all)) {
        qint64 additions = 0, deletions = 0;
        for (const FileDiff &d : *diffs) {
            additions += d.additions();
            deletions += d.deletions();
        }
        (void)m_service->setDiff(m_session.id(), *diffs);
        (void)m_service->update(m_session.id(), [&](Session &s) { s.setSummary(additions, deletions, diffs->size()); });
    }
    // The user message of this prompt: the diff of its turn.
    for (const MessageWithParts &m : messages) {
        if (m.info.id() != userMessageID)
            continue;
        QList<const MessageWithParts *> turn{&m};
        for (const MessageWithParts &a : messages) {
            if (a.info.isAssistant() && a.info.parentID() == userMessageID)
                turn.append(&a);
        }
        if (const auto diffs = diffOf(turn)) {
            Message user = m.info;
            // OpenCode's key order: summary right after time.
            if (!user.json().contains(u"summary"))
                user.json().insertAfter(u"time", u"summary"_s, JsonObject());
            user.setSummaryDiffs(*diffs);
            (void)m_service->updateMessage(user);
        }
    }
}

Result<QString> SessionRun::collectText(const ResolvedModel &model, const QList<LlmMessage> &messages, qint64 maxTokens)
{
    LlmRequest request;
    request.providerID = model.providerID;
    request.modelID = model.apiModelID.isEmpty() ? model.modelID : model.apiModelID;
    request.messages = messages;
    request.maxOutputTokens = maxTokens;
    Provider *provider = makeProvider(model);
    m_provider = provider;
    QString text;
    MessageError error;
    bool ended = false;
    QEventLoop loop;
    m_loop = &loop;
    connect(provider, &Provider::event, &loop, [&](const LlmEvent &e) {
        if (e.type == LlmEvent::Type::TextDelta)
            text += e.text;
    });
    connect(provider, &Provider::finished, &loop, [&] {
        ended = true;
        loop.quit();
    });
    connect(provider, &Provider::failed, &loop, [&](const MessageError &e) {
        error = e;
        ended = true;
        loop.quit();
    });
    provider->start(request);
    if (!ended && !aborted())
        loop.exec();
    m_loop = nullptr;
    m_provider = nullptr;
    provider->deleteLater();
    if (!error.isNull())
        return Error{error.message(), {}};
    if (!ended)
        return Error{u"aborted"_s, {}};
    return text;
}

void SessionRun::generateTitle()
{
    const std::optional<Session> session = m_service->get(m_session.id());
    if (!session || !Session::isDefaultTitle(session->title()) || !m_session.parentID().isEmpty())
        return;
    ResolvedModel model = m_model;
    if (!m_config.smallModel.isEmpty()) {
        if (Result<ResolvedModel> small = m_config.resolveModel(m_config.smallModel))
            model = small.value();
    }
    const std::optional<Agent> titleAgent = m_config.agents.find(u"title"_s);
    const QList<LlmMessage> messages{LlmMessage::system(titleAgent ? titleAgent->prompt : QString()),
                                     LlmMessage::user(m_request.text.left(4000))};
    const Result<QString> answer = collectText(model, messages, 100);
    if (!answer) {
        qCInfo(lcProcessor).noquote() << "title generation failed, keeping the default title:" << answer.error().message;
        return;
    }
    const QString title = cleanTitle(answer.value());
    if (!title.isEmpty())
        (void)m_service->update(m_session.id(), [&](Session &s) { s.setTitle(title); });
}

Result<QString> SessionRun::runNested()
{
    m_lastText.clear();
    run();
    if (!m_lastError.isNull() && m_lastText.isEmpty())
        return Error{m_lastError.message(), {}};
    return m_lastText;
}

void SessionRun::run()
{
    if (m_compactOnly) {
        runCompactionOnly();
        return;
    }
    if (Result<void> prepared = prepare(); !prepared) {
        m_lastError = MessageError::unknown(prepared.error().toString());
        m_service->reportError(m_session.id(), m_lastError);
        if (!m_nested)
            Q_EMIT done(m_session.id(), false, m_lastError);
        return;
    }

    // A pending revert is committed by the next prompt: the hidden messages go for good.
    if (m_session.hasRevert()) {
        if (auto r = Revert::cleanup(*m_service, m_session.id()); !r)
            qCWarning(lcProcessor).noquote() << "cannot commit the revert:" << r.error().toString();
        if (const auto s = m_service->get(m_session.id()))
            m_session = *s;
    }

    // Agent switches carry OpenCode's reminders as synthetic text.
    QString previousAgent;
    const QList<Message> previous = m_service->store()->messages(m_session.id());
    for (auto it = previous.crbegin(); it != previous.crend(); ++it) {
        if (it->isUser()) {
            previousAgent = it->agent();
            break;
        }
    }
    const bool firstPrompt = previous.isEmpty();

    const qint64 created = now();
    Message user = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_session.id(), created, m_agent.name,
                                     m_model.providerID, m_model.modelID);
    (void)m_service->updateMessage(user);
    m_userMessageID = user.id();
    writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_session.id(), user.id(), m_request.text));
    if (m_agent.name == u"plan") {
        const QString planFile = (m_session.projectID() == u"global" ? m_config.dataDir + u"/plans"_s : m_worktree + u"/.opencode/plans"_s)
            + u'/' + QString::number(m_session.created()) + u'-' + m_session.slug() + u".md"_s;
        writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_session.id(), user.id(),
                                 AgentRegistry::promptResource(u"plan-reminder"_s).arg(planFile), true));
    } else if (previousAgent == u"plan" && m_agent.name == u"build") {
        writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_session.id(), user.id(),
                                 AgentRegistry::promptResource(u"build-switch"_s), true));
    }
    (void)m_service->touch(m_session.id());

    const bool ok = runLoop(user);
    pruneAfterRun();

    summarize(m_userMessageID, true);
    for (const QString &turn : std::as_const(m_turns))
        summarize(turn, false);
    if (m_config.generateTitles && firstPrompt && !aborted() && !m_nested)
        generateTitle();
    (void)m_service->touch(m_session.id());

    if (!m_nested)
        Q_EMIT done(m_session.id(), ok, ok ? MessageError() : m_lastError);
}

bool SessionRun::runLoop(Message user)
{
    bool ok = true;
    bool overflowRecovery = false; // a compaction after ContextOverflowError, once in a row
    bool justCompacted = false;
    for (int step = 0;; ++step) {
        if (aborted())
            break;
        if (m_agent.maxSteps > 0 && step >= m_agent.maxSteps)
            break;
        Message assistant = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), m_session.id(), now(),
                                                   user.id(), m_model.providerID, m_model.modelID, m_agent.name,
                                                   m_session.directory(), m_worktree);
        (void)m_service->updateMessage(assistant);
        const StepResult result = runStep(assistant, promptStep());
        if (aborted())
            break;
        if (result == StepResult::Failed) {
            // The provider refused the context as too long: with automatic compaction on (and
            // only then), compact and try again once.
            if (m_lastError.kind() == MessageError::Kind::ContextOverflow && m_settings.autoCompact && !overflowRecovery
                && !m_stopAfterStep) {
                overflowRecovery = true;
                Result<std::optional<Message>> continued = compactNow(CompactOptions{true, {}, {}});
                if (continued && continued.value()) {
                    m_lastError = MessageError();
                    user = *continued.value();
                    m_turns.append(user.id());
                    justCompacted = true;
                    continue;
                }
            }
            ok = false;
            break;
        }
        overflowRecovery = false;
        // OpenCode's overflow check after each step (SessionCompaction.isOverflow): never when
        // automatic compaction is off, by the config or the environment.
        if (Compaction::isOverflow(assistant.tokens(), m_model.contextLimit, m_model.outputLimit, m_settings)) {
            if (justCompacted) {
                // The context is still too large right after a compaction: stop rather than
                // summarise the summary again and again.
                m_lastError = MessageError::contextOverflow(
                    u"The context is still over the limit after compaction (%1 tokens, %2 usable)"_s
                        .arg(Compaction::overflowCount(assistant.tokens()))
                        .arg(Compaction::usableContext(m_model.contextLimit, m_model.outputLimit, m_settings)));
                m_service->reportError(m_session.id(), m_lastError);
                ok = false;
                break;
            }
            Result<std::optional<Message>> continued = compactNow(CompactOptions{true, {}, {}});
            if (!continued || !continued.value()) {
                ok = false;
                break;
            }
            user = *continued.value();
            m_turns.append(user.id());
            justCompacted = true;
            continue;
        }
        justCompacted = false;
        if (result != StepResult::Continue)
            break;
    }
    if (aborted())
        ok = false;
    if (!ok && m_lastError.isNull() && aborted())
        m_lastError = MessageError::aborted(u"The operation was aborted."_s);
    return ok;
}

void SessionRun::pruneAfterRun()
{
    // OpenCode prunes at the end of every loop (SessionCompaction.prune), unless disabled.
    if (!m_settings.prune)
        return;
    Result<Compaction::PrunePlan> pruned = Compaction::prune(*m_service, m_session.id(), m_settings);
    if (!pruned)
        qCWarning(lcProcessor).noquote() << "prune failed:" << pruned.error().toString();
    else if (pruned->applied)
        qCInfo(lcProcessor).noquote() << "pruned" << pruned->parts.size() << "tool outputs," << pruned->pruned << "tokens";
}

namespace
{
Result<ResolvedModel> resolveCompactionModel(const ProcessorConfig &config, const Compaction::Settings &settings,
                                             SessionService &service, const QString &sessionID, const QString &requested)
{
    if (!requested.isEmpty())
        return config.resolveModel(requested);
    if (!settings.model.isEmpty())
        return config.resolveModel(settings.model);
    if (const std::optional<Agent> agent = config.agents.find(u"compaction"_s); agent && !agent->model.isEmpty())
        return config.resolveModel(agent->model);
    // OpenCode: the model of the last user message.
    const QList<Message> messages = service.store()->messages(sessionID);
    for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
        if (it->isUser() && !it->modelProviderID().isEmpty()) {
            if (Result<ResolvedModel> model = config.resolveModel(it->modelProviderID() + u'/' + it->modelModelID()))
                return model;
            break;
        }
    }
    return config.resolveModel({});
}
} // namespace

Result<std::optional<Message>> SessionRun::compactNow(const CompactOptions &options)
{
    const QString sid = m_session.id();
    flushDeltas();
    Q_EMIT compactionStarted(sid, options.automatic);
    qCInfo(lcProcessor).noquote() << (options.automatic ? "automatic" : "manual") << "compaction of" << sid;
    auto fail = [&](const MessageError &error, bool report) -> Result<std::optional<Message>> {
        if (report)
            m_service->reportError(sid, error);
        m_lastError = error;
        Q_EMIT compactionFinished(sid, false, error);
        return Error{error.message(), {}};
    };

    const Result<ResolvedModel> model = resolveCompactionModel(m_config, m_settings, *m_service, sid, options.model);
    if (!model)
        return fail(MessageError::unknown(u"cannot compact: "_s + model.error().toString()), true);
    const Compaction::Strategy strategy = options.strategy.value_or(m_settings.strategy);

    // Prune first, so that the summary request itself fits.
    QList<Compaction::PruneCandidate> pruned;
    if (m_settings.prune) {
        const Result<Compaction::PrunePlan> plan = Compaction::prune(*m_service, sid, m_settings);
        if (!plan)
            qCWarning(lcProcessor).noquote() << "prune failed:" << plan.error().toString();
        else if (plan->applied)
            pruned = plan->parts;
    }
    auto restorePrune = [&] {
        if (auto r = Compaction::unprune(*m_service, sid, pruned); !r)
            qCWarning(lcProcessor).noquote() << "cannot undo the prune:" << r.error().toString();
    };
    if (aborted()) {
        restorePrune();
        return fail(MessageError::aborted(u"The operation was aborted."_s), false);
    }

    const QList<MessageWithParts> history = m_service->messages(sid);
    const Compaction::SummaryPlan plan = Compaction::planSummary(history, strategy);
    if (plan.summarized().isEmpty()) {
        restorePrune();
        return fail(MessageError::unknown(history.isEmpty() ? u"Nothing to compact: the session has no messages"_s
                                                            : u"Nothing to summarise: the history is too short to keep a tail "
                                                              u"(no user message to split at)"_s),
                    true);
    }
    const qint64 before = Compaction::contextEstimate(history, m_settings.estimator);

    // The marker carries the agent and model of the last prompt, as OpenCode's create() does.
    QString agent = u"build"_s, providerID = model->providerID, modelID = model->modelID;
    for (auto it = history.crbegin(); it != history.crend(); ++it) {
        if (it->info.isUser() && !it->info.modelProviderID().isEmpty()) {
            agent = it->info.agent().isEmpty() ? agent : it->info.agent();
            providerID = it->info.modelProviderID();
            modelID = it->info.modelModelID();
            break;
        }
    }
    const Message marker = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), sid, now(), agent, providerID, modelID);
    (void)m_service->updateMessage(marker);
    Part markerPart = Part::make(Identifier::ascending(Identifier::Kind::Part), sid, marker.id(), PartType::Compaction);
    markerPart.json().insert(u"auto"_s, options.automatic);
    if (!plan.tailStartID.isEmpty())
        markerPart.json().insert(u"tail_start_id"_s, plan.tailStartID);
    writePart(markerPart);
    (void)m_service->update(sid, [&](Session &s) { s.setTimeField(u"compacting"_s, now()); }, false);

    Message summary = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), sid, now(), marker.id(),
                                             model->providerID, model->modelID, u"compaction"_s, m_session.directory(), m_worktree);
    summary.json().insertAfter(u"path", u"summary"_s, true);
    (void)m_service->updateMessage(summary);

    // The request: the summary prompt, the history to summarise with the marker's question, and
    // the request to summarise; no tools.
    const std::optional<Agent> compactionAgent = m_config.agents.find(u"compaction"_s);
    QString system = m_settings.prompt;
    if (system.isEmpty()) {
        if (strategy == Compaction::Strategy::SummaryTail)
            system = AgentRegistry::promptResource(u"summary-tail"_s);
        else
            system = compactionAgent ? compactionAgent->prompt : AgentRegistry::promptResource(u"compaction"_s);
    }
    StepSpec spec;
    spec.model = model.value();
    spec.tools = false;
    if (compactionAgent) {
        spec.temperature = compactionAgent->temperature;
        spec.topP = compactionAgent->topP;
    }
    QList<MessageWithParts> summarised;
    for (const qsizetype i : plan.summarized())
        summarised.append(history.at(i));
    summarised.append(MessageWithParts{marker, {markerPart}});
    spec.messages.append(LlmMessage::system(system));
    spec.messages += ModelMessages::toModelMessages(summarised);
    spec.messages.append(LlmMessage::user(strategy == Compaction::Strategy::SummaryTail
                                              ? Compaction::SnapshotRequest.toString()
                                              : AgentRegistry::promptResource(u"compaction-request"_s).trimmed()));

    const StepResult result = runStep(summary, spec);

    auto clearCompacting = [&] {
        (void)m_service->update(sid, [](Session &s) { s.removeTimeField(u"compacting"); }, false);
    };
    auto rollback = [&] {
        // A compaction that did not complete leaves the session as it was.
        if (auto r = m_service->removeMessage(sid, summary.id()); !r)
            qCWarning(lcProcessor).noquote() << "cannot remove the summary:" << r.error().toString();
        if (auto r = m_service->removeMessage(sid, marker.id()); !r)
            qCWarning(lcProcessor).noquote() << "cannot remove the compaction message:" << r.error().toString();
        restorePrune();
        clearCompacting();
    };
    if (aborted()) {
        rollback();
        return fail(MessageError::aborted(u"The operation was aborted."_s), false);
    }
    if (result == StepResult::Failed || summary.hasError()) {
        const MessageError error = m_lastError.isNull() ? summary.error() : m_lastError;
        rollback();
        return fail(error, false); // runStep announced the error
    }
    if (strategy == Compaction::Strategy::SummaryTail) {
        // Gemini CLI refuses a compression that inflates the history.
        const qint64 after = Compaction::contextEstimate(m_service->messages(sid), m_settings.estimator);
        if (after >= before) {
            rollback();
            return fail(MessageError::unknown(u"Compaction refused: the summary and the kept messages (~%1 tokens) are not "
                                              u"smaller than the history they would replace (~%2 tokens); the history was "
                                              u"kept as it was"_s.arg(after)
                                                  .arg(before)),
                        true);
        }
    }

    summarize(marker.id(), false);
    clearCompacting();
    std::optional<Message> continued;
    if (options.automatic) {
        Message next = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), sid, now(), agent, providerID, modelID);
        (void)m_service->updateMessage(next);
        writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), sid, next.id(),
                                 Compaction::ContinueText.toString(), true));
        continued = next;
    }
    m_service->announceCompacted(sid);
    Q_EMIT compactionFinished(sid, true, MessageError());
    return continued;
}

void SessionRun::runCompactionOnly()
{
    const QString sid = m_session.id();
    bool ok = true;
    (void)prepareWorkspace();
    Result<std::optional<Message>> compacted = compactNow(m_compactOptions);
    if (!compacted) {
        ok = false;
    } else if (compacted.value()) {
        // An automatic compaction lets the agent continue from the synthetic message.
        const Message next = *compacted.value();
        m_request.agent = next.agent();
        m_request.model = next.modelProviderID() + u'/' + next.modelModelID();
        if (Result<void> prepared = prepare(); !prepared) {
            m_lastError = MessageError::unknown(prepared.error().toString());
            m_service->reportError(sid, m_lastError);
            ok = false;
        } else {
            m_userMessageID = next.id();
            ok = runLoop(next);
            pruneAfterRun();
        }
    }
    if (ok)
        summarize(QString(), true);
    for (const QString &turn : std::as_const(m_turns))
        summarize(turn, false);
    if (!m_userMessageID.isEmpty())
        summarize(m_userMessageID, false);
    if (ok)
        (void)m_service->touch(sid);
    Q_EMIT done(sid, ok, ok ? MessageError() : m_lastError);
}

// ---------------------------------------------------------------------------------------------

Processor::Processor(std::shared_ptr<SessionService> service, ProcessorConfig config, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
    , m_config(std::move(config))
    , m_waiter(std::make_shared<PermissionWaiter>())
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
        r.thread->quit();
        r.thread->wait();
        delete r.run.data();
        delete r.thread;
    }
}

Result<QString> Processor::prompt(const PromptRequest &request)
{
    if (request.text.trimmed().isEmpty())
        return Error{u"the message is empty"_s, {}};
    if (!request.model.isEmpty()) {
        // A model that cannot be used fails before anything is written.
        if (Result<ResolvedModel> model = m_config.resolveModel(request.model); !model)
            return model.error();
    }
    if (!request.agent.isEmpty() && !m_config.agents.find(request.agent))
        return Error{u"unknown agent \"%1\""_s.arg(request.agent), {}};
    std::optional<Session> session;
    if (request.sessionID.isEmpty()) {
        SessionService::CreateOptions options;
        options.directory = request.directory.isEmpty() ? QDir::currentPath() : request.directory;
        Result<Session> created = m_service->create(options);
        if (!created)
            return created.error();
        session = created.value();
    } else {
        if (const QString why = Identifier::whyInvalid(request.sessionID, Identifier::Kind::Session); !why.isEmpty())
            return Error{why, {}};
        session = m_service->get(request.sessionID);
        if (!session)
            return Error{u"no session with ID \"%1\""_s.arg(request.sessionID), {}};
    }
    if (m_service->isReadOnly())
        return Error{u"this session is in a read-only store; import it into Weft first"_s, {}};
    auto abortFlag = std::make_shared<std::atomic_bool>(false);
    return start(new SessionRun(this, request, *session, abortFlag), session->id());
}

Result<QString> Processor::start(SessionRun *run, const QString &id)
{
    auto *thread = new QThread;
    thread->setObjectName(u"weft-run-"_s + id.right(8));
    run->moveToThread(thread);
    {
        QMutexLocker locker(&m_mutex);
        if (m_running.contains(id)) {
            delete run;
            delete thread;
            return Error{u"session %1 is busy"_s.arg(id), {}};
        }
        m_running.insert(id, {thread, run, run->abortFlag()});
    }
    connect(thread, &QThread::started, run, &SessionRun::run);
    connect(run, &SessionRun::done, this, &Processor::onRunFinished, Qt::QueuedConnection);
    connect(run, &SessionRun::retrying, this, &Processor::retrying, Qt::QueuedConnection);
    connect(run, &SessionRun::permissionRequested, this, &Processor::permissionRequested, Qt::QueuedConnection);
    connect(run, &SessionRun::compactionStarted, this, &Processor::compactionStarted, Qt::QueuedConnection);
    connect(run, &SessionRun::compactionFinished, this, &Processor::compactionFinished, Qt::QueuedConnection);
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
        return Error{u"no session with ID \"%1\""_s.arg(sessionID), {}};
    return *session;
}
} // namespace

Result<QString> Processor::compact(const QString &sessionID, const CompactOptions &options)
{
    const Result<Session> session = sessionFor(*m_service, sessionID);
    if (!session)
        return session.error();
    if (m_service->isReadOnly())
        return Error{u"this session is in a read-only store; import it into Weft first"_s, {}};
    if (const Result<Compaction::Settings> settings = compactionSettings(); !settings)
        return settings.error();
    if (isBusy(sessionID))
        return Error{u"session %1 is busy"_s.arg(sessionID), {}};
    auto abortFlag = std::make_shared<std::atomic_bool>(false);
    auto *run = new SessionRun(this, PromptRequest{sessionID, session->directory(), {}, {}, {}}, session.value(), abortFlag);
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
        return Error{u"session %1 is busy"_s.arg(sessionID), {}};
    return Compaction::prune(*m_service, sessionID, settings.value(), dryRun);
}

Result<Compaction::UndoPlan> Processor::canUndoCompaction(const QString &sessionID) const
{
    if (const Result<Session> session = sessionFor(*m_service, sessionID); !session)
        return session.error();
    if (isBusy(sessionID))
        return Error{u"session %1 is busy"_s.arg(sessionID), {}};
    return Compaction::planUndo(m_service->messages(sessionID));
}

Result<Compaction::UndoPlan> Processor::undoCompaction(const QString &sessionID)
{
    if (const Result<Compaction::UndoPlan> plan = canUndoCompaction(sessionID); !plan)
        return plan;
    return Compaction::undo(*m_service, sessionID);
}

void Processor::onRunFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    Running running;
    {
        QMutexLocker locker(&m_mutex);
        running = m_running.take(sessionID);
    }
    if (running.thread) {
        running.thread->quit();
        running.thread->wait();
        // The worker's thread has ended: its objects can be deleted from here.
        delete running.run.data();
        delete running.thread;
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
    m_waiter->changed.wakeAll();
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
    QMutexLocker locker(&m_waiter->mutex);
    if (m_waiter->answers.contains(requestID))
        m_waiter->answers.insert(requestID, reply);
    m_waiter->changed.wakeAll();
}

bool Processor::waitForIdle(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!busySessions().isEmpty()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(1);
    }
    return true;
}

} // namespace weft

#include "processor.moc"
