// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionrun.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/project.h"
#include "revert.h"
#include "session/modelmessages.h"
#include "session/sessionservice.h"
#include "systemprompt.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QNetworkAccessManager>

using namespace Qt::StringLiterals;

namespace weft
{

void SessionRun::abortNow()
{
    m_abort->store(true);
    if (m_subagent)
        m_subagent->abortNow();
    if (m_provider)
        m_provider->abort();
    if (m_loop)
        m_loop->quit();
}

Provider *SessionRun::makeProvider(const ResolvedModel &model)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    return Provider::create(model.settings, m_network, this);
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
    PermissionRuleset rules = Permission::agentRuleset(m_agent.name, {m_config.dataDir, m_worktree},
                                                       m_config.permission, m_agent.permission);
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
    using Snapshots = ProcessorConfig::Snapshots;
    const bool wanted = m_config.snapshots == Snapshots::Always
        || (m_config.snapshots == Snapshots::InGitRepositories && identity.vcs == u"git");
    if (wanted && !m_snapshot)
        m_snapshot
            = std::make_unique<Snapshot>(m_config.dataDir, m_session.projectID(), m_worktree, m_session.directory());
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

namespace
{

/// The project's instruction file: the first of AGENTS.md and CLAUDE.md at the top of the
/// project. (Full discovery, as OpenCode's InstructionPrompt does it, replaces this.)
QList<SystemPrompt::Instruction> projectInstructions(const QString &worktree)
{
    for (const QString &name : {u"AGENTS.md"_s, u"CLAUDE.md"_s}) {
        QFile file(worktree + u'/' + name);
        if (file.size() > 0 && file.size() < 200000 && file.open(QIODevice::ReadOnly))
            return {{file.fileName(), QString::fromUtf8(file.readAll())}};
    }
    return {};
}

} // namespace

QString SessionRun::systemPrompt() const
{
    const QString apiModelID = m_model.apiModelID.isEmpty() ? m_model.modelID : m_model.apiModelID;
    SystemPrompt::Input input;
    input.model = {m_model.providerID, apiModelID, m_model.settings.npm};
    input.agentPrompt = m_agent.prompt;
    input.environment = SystemPrompt::Environment::current(m_model.providerID, apiModelID, m_session.directory(),
                                                           m_worktree, m_session.projectID() != u"global");
    input.instructions = projectInstructions(m_worktree);
    return SystemPrompt::compose(input);
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
    PermissionRuleset rules = Permission::agentRuleset(m_agent.name, {m_config.dataDir, m_worktree},
                                                       m_config.permission, m_agent.permission);
    rules += m_session.permission();
    const PermissionRequest request{{}, m_session.id(), messageID, callID, permission, patterns, metadata};
    auto announce = [this](const PermissionRequest &question) {
        flushDeltas();
        Q_EMIT permissionRequested(question);
    };
    return m_permissions->ask(request, rules, announce, [this] { return aborted(); });
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

StreamAssembler SessionRun::assembler(const Message &assistant)
{
    StreamAssembler::Sink sink;
    sink.write = [this](const Part &part) { writePart(part); };
    sink.stream = [this](const Part &part, const QString &delta) { writeStreaming(part, delta); };
    sink.flush = [this] { flushDeltas(); };
    return StreamAssembler(m_session.id(), assistant.id(), std::move(sink));
}

SessionRun::RequestOutcome SessionRun::send(const ResolvedModel &model, const LlmRequest &request,
                                            const std::function<void(const LlmEvent &)> &onEvent)
{
    Provider *provider = makeProvider(model);
    m_provider = provider;
    RequestOutcome outcome;
    QEventLoop loop;
    m_loop = &loop;
    connect(provider, &Provider::event, &loop, onEvent);
    connect(provider, &Provider::finished, &loop, [&] {
        outcome.ended = true;
        loop.quit();
    });
    connect(provider, &Provider::failed, &loop, [&](const MessageError &error, std::optional<qint64> after) {
        outcome.error = error;
        outcome.retryAfter = after;
        outcome.ended = true;
        loop.quit();
    });
    provider->start(request);
    if (!outcome.ended && !aborted())
        loop.exec();
    m_loop = nullptr;
    if (!outcome.ended)
        provider->abort();
    m_provider = nullptr;
    provider->deleteLater();
    return outcome;
}

SessionRun::StreamOutcome SessionRun::streamOnce(const ResolvedModel &model, const LlmRequest &request,
                                                 StreamAssembler &parts)
{
    const RequestOutcome sent = send(model, request, [&](const LlmEvent &event) { parts.handle(event); });
    StreamOutcome outcome;
    if (!sent.ended)
        outcome.error = MessageError::aborted(u"The operation was aborted."_s);
    else if (!sent.error.isNull())
        outcome.error = sent.error;
    else
        outcome.error = parts.error();
    outcome.ok = outcome.error.isNull();
    outcome.retryAfter = sent.retryAfter;
    flushDeltas();
    return outcome;
}

LlmRequest SessionRun::makeRequest(const StepSpec &spec) const
{
    const ResolvedModel &model = spec.model;
    LlmRequest request;
    request.providerID = model.providerID;
    request.modelID = model.apiModelID.isEmpty() ? model.modelID : model.apiModelID;
    request.messages = spec.messages.isEmpty() ? buildMessages(m_service->messages(m_session.id())) : spec.messages;
    if (spec.tools)
        request.tools = toolDefinitions();
    request.maxOutputTokens = Provider::outputTokenLimit(model.settings, model.providerOptions, model.outputLimit);
    request.temperature = spec.temperature;
    request.topP = spec.topP;
    request.providerOptions = model.providerOptions;
    return request;
}

SessionRun::StepResult SessionRun::runStep(Message &assistant, const StepSpec &spec)
{
    for (int attempt = 0;; ++attempt) {
        StreamAssembler parts = assembler(assistant);
        const QString startSnapshot = trackSnapshot();
        parts.startStep(startSnapshot);
        const StreamOutcome outcome = streamOnce(spec.model, makeRequest(spec), parts);
        if (parts.lastText())
            m_lastText = *parts.lastText();
        if (aborted()) {
            finishAborted(assistant, parts);
            return StepResult::Stop;
        }
        if (outcome.ok)
            return finishStep(assistant, spec, parts, startSnapshot);
        if (!outcome.error.isRetryable() || attempt >= m_config.maxRetries) {
            failStep(assistant, parts, outcome.error);
            return StepResult::Failed;
        }
        if (!waitToRetry(assistant, attempt + 1, outcome)) {
            finishAborted(assistant, parts);
            return StepResult::Stop;
        }
    }
}

bool SessionRun::waitToRetry(const Message &assistant, int attempt, const StreamOutcome &outcome)
{
    const MessageError &error = outcome.error;
    const qint64 delay = retryDelay(attempt, outcome.retryAfter, m_config.retryInitialMs, m_config.retryMaxMs);
    Part retry
        = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Retry);
    retry.json().insert(u"attempt"_s, attempt);
    retry.json().insert(u"error"_s, error.json());
    retry.json().insert(u"time"_s, JsonObject{{u"created"_s, now()}});
    writePart(retry);
    qCInfo(lcProcessor).noquote() << "retry" << attempt << "in" << delay << "ms after" << error.message();
    Q_EMIT retrying(m_session.id(), attempt, delay, error);
    return sleepAbortable(delay);
}

void SessionRun::failStep(Message &assistant, const StreamAssembler &parts, const MessageError &error)
{
    // Give up: the message ends with the error, the session announces it.
    for (Part part : parts.toolParts()) {
        const ToolState state = part.state();
        if (state.status() == ToolStatus::Pending || state.status() == ToolStatus::Running) {
            part.setState(ToolState::error(state.input(), u"Tool execution aborted"_s, now(), now()));
            writePart(part);
        }
    }
    assistant.setError(error);
    assistant.setFinish(u"error"_s);
    assistant.setCompleted(now());
    (void)m_service->updateMessage(assistant);
    m_service->reportError(m_session.id(), error);
    m_lastError = error;
}

SessionRun::StepResult SessionRun::finishStep(Message &assistant, const StepSpec &spec, StreamAssembler &parts,
                                              const QString &startSnapshot)
{
    const bool wantsTools = parts.hasToolCalls();
    if (wantsTools && !spec.tools) {
        // No tools were offered (a summary): calls the model made anyway are not run.
        for (Part part : parts.toolParts()) {
            part.setState(ToolState::error(part.state().input(), u"No tools are available here"_s, now(), now()));
            writePart(part);
        }
    } else if (wantsTools && !executeTools(assistant, parts.toolParts()) && aborted()) {
        finishAborted(assistant, parts);
        return StepResult::Stop;
    }

    const StepUsage stepUsage = parts.finishStep(spec.model.cost, trackSnapshot());
    writePatch(assistant, startSnapshot);
    assistant.setCost(stepUsage.costValue());
    assistant.setTokens(stepUsage.tokens);
    assistant.setFinish(parts.finishReason());
    assistant.setCompleted(now());
    (void)m_service->updateMessage(assistant);
    if (m_stopAfterStep)
        return StepResult::Failed;
    return wantsTools && spec.tools && parts.finishReason() == FinishReason::ToolCalls ? StepResult::Continue
                                                                                       : StepResult::Stop;
}

void SessionRun::writePatch(const Message &assistant, const QString &startSnapshot)
{
    if (!m_snapshot || startSnapshot.isEmpty())
        return;
    const Result<Snapshot::Patch> patched = m_snapshot->patch(startSnapshot);
    if (!patched)
        qCWarning(lcProcessor).noquote() << "snapshot patch failed:" << patched.error().toString();
    if (!patched || patched->files.isEmpty())
        return;
    Part part
        = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Patch);
    part.json().insert(u"hash"_s, patched->hash);
    JsonArray files;
    for (const QString &file : patched->files)
        files.append(file);
    part.json().insert(u"files"_s, files);
    writePart(part);
}

bool SessionRun::executeTools(Message &assistant, const QList<Part> &calls)
{
    for (const Part &call : calls) {
        if (aborted() || !executeTool(assistant, call))
            return false;
    }
    return !aborted();
}

std::shared_ptr<Tool> SessionRun::findTool(const QString &name) const
{
    std::shared_ptr<Tool> found;
    for (const std::shared_ptr<Tool> &tool : m_tools) {
        if (tool->name() == name)
            found = tool;
    }
    return found;
}

bool SessionRun::executeTool(Message &assistant, Part part)
{
    const ToolState state = part.state();
    const JsonObject input = state.input();
    const qint64 start = now();
    auto fail = [&](const QString &message) {
        part.setState(ToolState::error(input, message, start, now()));
        writePart(part);
    };
    const std::shared_ptr<Tool> tool = findTool(part.tool());
    if (!tool) {
        QStringList names;
        for (const std::shared_ptr<Tool> &t : std::as_const(m_tools))
            names.append(t->name());
        fail(u"Unknown tool \"%1\". Available tools: %2"_s.arg(part.tool(), names.join(u", "_s)));
        return true;
    }
    if (!state.json().string(u"inputError").isEmpty()) {
        fail(u"Invalid input for tool %1: %2"_s.arg(part.tool(), state.json().string(u"inputError")));
        return true;
    }
    if (isDoomLoop(part.tool(), input)
        && ask(u"doom_loop"_s, {part.tool()}, JsonObject{{u"tool"_s, part.tool()}, {u"input"_s, input}}, assistant.id(),
               part.callID())
            == PermissionDecision::Deny) {
        const QString message
            = u"Doom loop detected: the tool \"%1\" was called three times in a row with the same input. "
              u"The run was stopped."_s.arg(part.tool());
        fail(message);
        m_stopAfterStep = true;
        m_lastError = MessageError::unknown(message);
        assistant.setError(m_lastError);
        m_service->reportError(m_session.id(), m_lastError);
        return false;
    }

    part.setState(ToolState::running(input, start));
    writePart(part);
    ToolContext context = toolContext(assistant, part, input, start);
    const ToolResult result = tool->execute(context, input);
    flushDeltas();
    if (aborted() && !result.ok) {
        fail(u"Tool execution aborted"_s);
        return false;
    }
    if (result.ok)
        part.setState(ToolState::completed(input, result.output, result.title, result.metadata, start, now()));
    else
        part.setState(ToolState::error(input, result.error, start, now(), result.metadata));
    writePart(part);
    return true;
}

bool SessionRun::isDoomLoop(const QString &tool, const JsonObject &input)
{
    // Doom loop: the same call three times in a row.
    const QByteArray signature = tool.toUtf8() + toJson(input, 0);
    m_recentCalls.append(signature);
    if (m_recentCalls.size() > 3)
        m_recentCalls.removeFirst();
    return m_recentCalls.size() == 3 && m_recentCalls.at(0) == signature && m_recentCalls.at(1) == signature;
}

ToolContext SessionRun::toolContext(Message &assistant, Part &part, const JsonObject &input, qint64 start)
{
    ToolContext context;
    context.sessionID = m_session.id();
    context.messageID = assistant.id();
    context.callID = part.callID();
    context.agent = m_agent.name;
    context.directory = m_session.directory();
    context.worktree = m_worktree;
    context.dataDir = m_config.dataDir;
    context.abortFlag = m_abort;
    context.ask = [this, &assistant, callID = part.callID()](const QString &permission, const QStringList &patterns,
                                                             const JsonObject &metadata) {
        return ask(permission, patterns, metadata, assistant.id(), callID);
    };
    context.runSubagent = [this](const QString &agent, const QString &description, const QString &prompt) {
        return runSubagent(agent, description, prompt);
    };
    context.progress = [this, &part, input, start](const QString &title, const JsonObject &metadata) {
        part.setState(ToolState::running(input, start, title, metadata));
        writeStreaming(part, {});
    };
    context.lastRead = [this](const QString &path) {
        takeReadsFromHistory();
        return m_fileTimes->lastRead(m_session.id(), QDir::cleanPath(path));
    };
    context.markRead = [this](const QString &path) { m_fileTimes->markRead(m_session.id(), QDir::cleanPath(path)); };
    context.todos = [this] { return m_service->todos(m_session.id()); };
    context.setTodos = [this](const QList<Todo> &todos) { return m_service->setTodos(m_session.id(), todos); };
    return context;
}

void SessionRun::takeReadsFromHistory()
{
    std::call_once(m_readsFromHistory, [this] {
        const QHash<QString, QDateTime> reads =
            FileTimes::readsInHistory(m_service->messages(m_session.id()), m_session.directory());
        for (auto it = reads.cbegin(); it != reads.cend(); ++it)
            m_fileTimes->seed(m_session.id(), it.key(), it.value());
    });
}

Result<QString> SessionRun::runSubagent(const QString &agent, const QString &description, const QString &prompt)
{
    SessionService::CreateOptions options;
    options.directory = m_session.directory();
    options.projectID = m_session.projectID();
    options.parentID = m_session.id();
    options.title = description + u" (@"_s + agent + u" subagent)"_s;
    // As OpenCode: a sub-agent keeps no todo list of its own.
    options.permission = {{u"todowrite"_s, u"*"_s, PermissionRule::Action::Deny},
                          {u"todoread"_s, u"*"_s, PermissionRule::Action::Deny}};
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
    // Stop reaches the sub-agent at once: abortNow() stops its stream too while it runs.
    m_subagent = &nested;
    const auto result = nested.runNested();
    m_subagent = nullptr;
    return result;
}

void SessionRun::finishAborted(Message &assistant, StreamAssembler &parts)
{
    // Close what was streaming, then the tools that never finished.
    parts.closeStreaming();
    for (Part part : parts.toolParts()) {
        const QString stored = part.id();
        // Re-read: the tool may have finished and been written meanwhile.
        for (const Part &current : m_service->store()->parts(m_session.id(), assistant.id())) {
            if (current.id() == stored)
                part = current;
        }
        const ToolState state = part.state();
        if (state.status() == ToolStatus::Pending || state.status() == ToolStatus::Running) {
            part.setState(ToolState::error(state.input(), u"Tool execution aborted"_s,
                                           state.started() > 0 ? state.started() : now(), now()));
            writePart(part);
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
    request.small = true;
    QString text;
    const RequestOutcome sent = send(model, request, [&](const LlmEvent &e) {
        if (e.type == LlmEvent::Type::TextDelta)
            text += e.text;
    });
    if (!sent.error.isNull())
        return Error{sent.error.message(), {}};
    if (!sent.ended)
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
        qCInfo(lcProcessor).noquote() << "title generation failed, keeping the default title:"
                                      << answer.error().message;
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
    Message user = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_session.id(), created,
                                     m_agent.name, m_model.providerID, m_model.modelID);
    (void)m_service->updateMessage(user);
    m_userMessageID = user.id();
    writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_session.id(), user.id(), m_request.text));
    if (m_agent.name == u"plan") {
        const QString planFile
            = (m_session.projectID() == u"global" ? m_config.dataDir + u"/plans"_s : m_worktree + u"/.opencode/plans"_s)
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
        Message assistant = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), m_session.id(),
                                                   now(), user.id(), m_model.providerID, m_model.modelID, m_agent.name,
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

} // namespace weft
