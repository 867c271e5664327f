// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionrun.h"

#include "session/sessionstore.h"
#include "core/tr.h"
#include "mcp/mcpmanager.h"

#include "tools/applypatchtool.h"
#include "tools/mcptool.h"
#include "tools/tasktool.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/project.h"
#include "provider/attachmentencoding.h"
#include "revert.h"
#include "session/modelmessages.h"
#include "session/sessionservice.h"
#include "store/sessionlock.h"
#include "systemprompt.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QNetworkAccessManager>
#include <QThread>

#include <future>
#include <limits>

using namespace Qt::StringLiterals;

namespace weft
{

SessionRun::SessionRun(Shared shared, ProcessorConfig config, PromptRequest request, Session session,
                       std::shared_ptr<std::atomic_bool> abortFlag)
    : m_service(std::move(shared.service))
    , m_config(std::move(config))
    , m_permissions(std::move(shared.permissions))
    , m_fileTimes(std::move(shared.fileTimes))
    , m_request(std::move(request))
    , m_session(std::move(session))
    , m_abort(std::move(abortFlag))
    , m_questions(std::move(shared.questions))
    , m_deltas(new DeltaCoalescer([service = m_service](const Part &part, const QString &delta) {
        service->announcePart(part, delta);
    }, 16, this))
{
    Result<Compaction::Settings> settings = Compaction::Settings::fromConfig(m_config.compaction);
    if (!settings) {
        qCWarning(lcProcessor).noquote()
            << "invalid compaction settings, using the defaults:" << settings.error().toString();
        settings = Compaction::Settings::fromConfig({});
    }
    m_settings = settings.value();
    ToolRunner::Host host;
    host.writePart = [this](const Part &part) { writePart(part); };
    host.flush = [this] { flushDeltas(); };
    host.context = [this](const QString &messageID, Part &part, const JsonObject &input, qint64 start) {
        return toolContext(messageID, part, input, start);
    };
    host.ask = [this](const PermissionAsk &question, const QString &messageID, const QString &callID) {
        return ask(question, messageID, callID);
    };
    host.abortFlag = m_abort;
    m_toolRunner = std::make_unique<ToolRunner>(m_session.id(), std::move(host), this);
}

void SessionRun::abortNow()
{
    m_abort->store(true);
    {
        // Each sub-agent stops its own stream (they share this thread).
        QMutexLocker locker(&m_subagentsMutex);
        for (SessionRun *subagent : std::as_const(m_subagents))
            QMetaObject::invokeMethod(subagent, &SessionRun::abortNow, Qt::QueuedConnection);
    }
    // The wait that runs ends from the event loop, not from here: abortNow() may be called
    // from inside a stream's handler (a failed write).
    if (m_sent) {
        if (m_provider) {
            m_provider->disconnect(this);
            m_provider->abort();
        }
        QMetaObject::invokeMethod(this, [this, serial = m_sendSerial] { endSend(serial, RequestOutcome{}); },
                                  Qt::QueuedConnection);
    }
    if (m_retryTimer && m_retryTimer->isActive())
        m_retryTimer->start(0);
}

Provider *SessionRun::makeProvider(const ResolvedModel &model)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    return Provider::create(model.settings, m_network, this);
}

Result<void> SessionRun::prepare()
{
    QString subtaskModel; // "provider/model" of a subtask; empty: the prompt's
    if (!m_request.command.isEmpty()) {
        // Processor::prompt checked that the command exists in this configuration.
        std::optional<PromptCommand> command = PromptCommand::find(m_config.availableCommands(), m_request.command);
        if (!command)
            return Error{ProcessorTr::tr("no command \"%1\"").arg(m_request.command), {}};
        const QString commandAgent = !command->agent.isEmpty() ? command->agent
            : !m_request.agent.isEmpty()                       ? m_request.agent
                                                               : u"build"_s;
        const std::optional<Agent> agent = m_config.agents.find(commandAgent);
        if (!agent)
            return Error{ProcessorTr::tr("unknown agent \"%1\"").arg(commandAgent), {}};
        // As OpenCode: a command of a sub-agent runs as a subtask unless it says otherwise.
        if (command->subtask.value_or(agent->mode == Agent::Mode::Subagent)) {
            m_subtask = Subtask{commandAgent, command->description, command->name, {}, {}};
            subtaskModel = !command->model.isEmpty() ? command->model
                : !agent->model.isEmpty()            ? agent->model
                                                     : m_request.model;
        } else {
            m_request.agent = commandAgent;
            if (!command->model.isEmpty())
                m_request.model = command->model;
        }
        if (!command->mcpServer.isEmpty()) {
            JsonObject arguments;
            for (qsizetype i = 0; i < command->mcpArguments.size(); ++i)
                arguments.insert(command->mcpArguments.at(i), u"$%1"_s.arg(i + 1));
            const Result<QString> text = m_config.mcpServers->promptText(command->mcpServer, command->mcpPrompt, arguments,
                                                                         [abort = m_abort] { return abort->load(); });
            if (!text)
                return text.error();
            command->body = text.value();
        }
        m_request.text = PromptCommand::runShellSubstitutions(command->fill(m_request.text), m_session.directory(), m_abort);
        if (m_request.text.trimmed().isEmpty())
            return Error{ProcessorTr::tr("the command /%1 gave an empty prompt").arg(command->name), {}};
        if (m_subtask)
            m_subtask->prompt = m_request.text.trimmed();
    }
    const QString agentName = m_request.agent.isEmpty() ? u"build"_s : m_request.agent;
    const std::optional<Agent> agent = m_config.agents.find(agentName);
    if (!agent)
        return Error{ProcessorTr::tr("unknown agent \"%1\"").arg(agentName), {}};
    m_agent = *agent;

    QString modelRef = m_request.model;
    if (modelRef.isEmpty())
        modelRef = m_agent.model;
    if (modelRef.isEmpty()) {
        // The model of the session's last user message, as OpenCode continues with it.
        const QList<Message> messages = storeOf(*m_service)->messages(m_session.id());
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
    if (m_subtask) {
        // Resolved once, before anything is written: the subtask part names it, the sub-agent
        // runs on it.
        const Result<ResolvedModel> taskModel
            = subtaskModel.isEmpty() ? Result<ResolvedModel>(m_model) : m_config.resolveModel(subtaskModel);
        if (!taskModel)
            return taskModel.error();
        m_subtask->model = taskModel.value();
    }

    if (auto r = prepareWorkspace(); !r)
        return r;

    QList<std::shared_ptr<Tool>> tools = builtinTools();
    if (m_config.mcpServers)
        tools += McpTool::agentTools(m_config.mcpServers, m_config.mcp.keys());
    QStringList names;
    for (const std::shared_ptr<Tool> &tool : tools)
        names.append(tool->name());
    PermissionRuleset rules = Permission::agentRuleset(m_agent.name, {m_config.dataDir, m_worktree},
                                                       m_config.permission, m_agent.permission);
    rules += m_session.permission();
    const QSet<QString> disabled = Permission::disabledTools(names, rules);
    // As OpenCode: GPT models (but GPT-4) edit with apply_patch, the others with edit and write.
    QList<std::shared_ptr<Tool>> offered;
    const bool patch = ApplyPatchTool::preferredFor(m_model.apiModelID.isEmpty() ? m_model.modelID : m_model.apiModelID);
    for (const std::shared_ptr<Tool> &tool : tools) {
        if (!m_agent.toolEnabled(tool->name()) || disabled.contains(tool->name()))
            continue;
        if (tool->name() == u"apply_patch" ? !patch : (patch && (tool->name() == u"edit" || tool->name() == u"write")))
            continue;
        if (tool->name() == u"task" && m_nested)
            continue;
        // As OpenCode offers it only to interactive clients: not where no one can answer.
        if (tool->name() == u"question" && !m_config.questions)
            continue;
        offered.append(tool);
    }
    m_toolRunner->setTools(offered);
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

StepSpec SessionRun::promptStep(int step) const
{
    StepSpec spec;
    spec.model = m_model;
    spec.tools = true;
    spec.temperature = m_agent.temperature;
    spec.topP = m_agent.topP;
    if (m_agent.maxSteps > 0 && step + 1 >= m_agent.maxSteps) {
        // OpenCode's last step: the model sums up in text instead of calling tools.
        spec.tools = false;
        spec.reminder = AgentRegistry::promptResource(u"max-steps"_s);
    }
    return spec;
}

QString SessionRun::systemPrompt() const
{
    const QString apiModelID = m_model.apiModelID.isEmpty() ? m_model.modelID : m_model.apiModelID;
    SystemPrompt::Input input;
    input.model = {m_model.providerID, apiModelID, m_model.settings.npm};
    input.agentPrompt = m_agent.prompt;
    input.environment = SystemPrompt::Environment::current(m_model.providerID, apiModelID, m_session.directory(),
                                                           m_worktree, m_session.projectID() != u"global");
    // The instruction files (AGENTS.md, the config's `instructions`), found as OpenCode finds them.
    input.instructions = m_config.instructions;
    return SystemPrompt::compose(input);
}

QList<LlmToolDefinition> SessionRun::toolDefinitions() const
{
    QList<LlmToolDefinition> list;
    for (const std::shared_ptr<Tool> &tool : m_toolRunner->tools())
        list.append({tool->name(), tool->description(), tool->parameters()});
    return list;
}

QList<LlmMessage> SessionRun::buildMessages(const QList<MessageWithParts> &history) const
{
    QList<LlmMessage> messages{LlmMessage::system(systemPrompt())};
    messages += ModelMessages::toModelMessages(ModelMessages::filterCompacted(history));
    return messages;
}

PermissionDecision SessionRun::ask(const PermissionAsk &question, const QString &messageID, const QString &callID)
{
    PermissionRuleset rules = Permission::agentRuleset(m_agent.name, {m_config.dataDir, m_worktree},
                                                       m_config.permission, m_agent.permission);
    rules += m_session.permission();
    const PermissionRequest request = Permission::request(question, m_session.id(), messageID, callID);
    auto announce = [this](const PermissionRequest &question) {
        flushDeltas();
        Q_EMIT permissionRequested(question);
    };
    // Tools run in parallel, but the user is asked one thing at a time.
    const bool interactive = m_permissions->wouldAsk(request, rules);
    if (interactive && !lockInteraction())
        return PermissionDecision::Deny;
    const PermissionDecision decision = m_permissions->ask(request, rules, announce, [this] { return aborted(); });
    if (interactive)
        m_interaction->unlock();
    return decision;
}

bool SessionRun::lockInteraction()
{
    while (!m_interaction->tryLock(100)) {
        if (aborted())
            return false;
    }
    return true;
}

std::optional<QList<QStringList>> SessionRun::askQuestions(const JsonArray &questions, const QString &messageID,
                                                           const QString &callID)
{
    if (!lockInteraction())
        return std::nullopt;
    const QString id = Identifier::ascending(Identifier::Kind::Question);
    const JsonObject request{{u"id"_s, id},
                             {u"sessionID"_s, m_session.id()},
                             {u"questions"_s, questions},
                             {u"tool"_s, JsonObject{{u"messageID"_s, messageID}, {u"callID"_s, callID}}}};
    m_questions->open(id);
    flushDeltas();
    Q_EMIT questionAsked(request);
    const std::optional<QuestionReply> reply = m_questions->wait(id, [this] { return aborted(); });
    Q_EMIT questionClosed(m_session.id(), id);
    m_interaction->unlock();
    if (!reply || reply->dismissed)
        return std::nullopt;
    return reply->answers;
}

void SessionRun::storageFailed(const Error &error)
{
    bool first = false;
    {
        QMutexLocker locker(&m_storageMutex);
        if (!m_storageError) {
            m_storageError = error;
            first = true;
        }
    }
    qCWarning(lcProcessor).noquote() << "cannot write the session:" << error.toString();
    if (first) {
        // Nothing more can be kept: stop at once, as Stop does (tools stop, the stream ends).
        if (QThread::currentThread() == thread())
            abortNow();
        else
            QMetaObject::invokeMethod(this, &SessionRun::abortNow, Qt::QueuedConnection);
        m_abort->store(true);
    }
}

bool SessionRun::leftUnfinished() const
{
    QMutexLocker locker(&m_storageMutex);
    return m_storageError.has_value();
}

MessageError SessionRun::storageFailure() const
{
    QMutexLocker locker(&m_storageMutex);
    if (!m_storageError)
        return {};
    return MessageError::unknown(ProcessorTr::tr("Weft could not write this session to its data folder (%1), so the "
                                                 "run was stopped; everything written before is kept")
                                     .arg(m_storageError->toString()));
}

void SessionRun::writePart(const Part &part)
{
    // A part announced in full supersedes any delta still waiting for it.
    m_deltas->drop(part.id());
    (void)stored(m_service->updatePart(part));
}

void SessionRun::writeStreaming(const Part &part, const QString &delta)
{
    (void)stored(m_service->storeStreamingPart(part, delta));
    m_deltas->add(part, delta);
}

StreamAssembler SessionRun::assembler(const Message &assistant)
{
    StreamAssembler::Sink sink;
    sink.write = [this](const Part &part) { writePart(part); };
    sink.stream = [this](const Part &part, const QString &delta) { writeStreaming(part, delta); };
    sink.flush = [this] { flushDeltas(); };
    return StreamAssembler(m_session.id(), assistant.id(), std::move(sink));
}

void SessionRun::send(const ResolvedModel &model, const LlmRequest &request,
                      std::function<void(const LlmEvent &)> onEvent, std::function<void(const RequestOutcome &)> done)
{
    Provider *provider = makeProvider(model);
    m_provider = provider;
    m_sent = std::move(done);
    const quint64 serial = ++m_sendSerial;
    enter(State::Streaming);
    connect(provider, &Provider::event, this, std::move(onEvent));
    connect(provider, &Provider::finished, this, [this, serial] { endSend(serial, RequestOutcome{true, {}, {}}); });
    connect(provider, &Provider::failed, this, [this, serial](const MessageError &error, std::optional<qint64> after) {
        endSend(serial, RequestOutcome{true, error, after});
    });
    if (aborted()) {
        QMetaObject::invokeMethod(this, [this, serial] { endSend(serial, RequestOutcome{}); }, Qt::QueuedConnection);
        return;
    }
    provider->start(request);
}

void SessionRun::endSend(quint64 serial, const RequestOutcome &outcome)
{
    if (serial != m_sendSerial || !m_sent)
        return;
    Q_ASSERT(m_state == State::Streaming);
    if (Provider *provider = m_provider) {
        provider->disconnect(this);
        if (!outcome.ended)
            provider->abort();
        // Not from its own signal (Provider's rule); the run's network manager outlives it.
        provider->deleteLater();
    }
    m_provider = nullptr;
    const auto done = std::exchange(m_sent, {});
    done(outcome);
}

LlmRequest SessionRun::makeRequest(const StepSpec &spec) const
{
    const ResolvedModel &model = spec.model;
    LlmRequest request;
    request.providerID = model.providerID;
    request.modelID = model.apiModelID.isEmpty() ? model.modelID : model.apiModelID;
    request.messages = AttachmentEncoding::replaceUnsupported(
        spec.messages.isEmpty() ? buildMessages(m_service->messages(m_session.id())) : spec.messages,
        model.inputModalities);
    if (!spec.reminder.isEmpty())
        request.messages.append(LlmMessage::assistant(spec.reminder));
    if (spec.tools)
        request.tools = toolDefinitions();
    request.maxOutputTokens = Provider::outputTokenLimit(model.settings, model.providerOptions, model.outputLimit);
    request.temperature = spec.temperature;
    request.topP = spec.topP;
    request.providerOptions = model.providerOptions;
    return request;
}

void SessionRun::runStep(const Message &assistant, const StepSpec &spec, StepDone done)
{
    Q_ASSERT(!m_step);
    m_step = std::make_unique<Step>();
    m_step->assistant = assistant;
    m_step->spec = spec;
    m_step->done = std::move(done);
    startAttempt();
}

void SessionRun::startAttempt()
{
    Step &step = *m_step;
    step.parts.emplace(assembler(step.assistant));
    step.startSnapshot = trackSnapshot();
    step.parts->startStep(step.startSnapshot);
    send(step.spec.model, makeRequest(step.spec), [this](const LlmEvent &event) { m_step->parts->handle(event); },
         [this](const RequestOutcome &sent) {
             if (!sent.ended)
                 attemptEnded(MessageError::aborted(u"The operation was aborted."_s), sent.retryAfter);
             else if (!sent.error.isNull())
                 attemptEnded(sent.error, sent.retryAfter);
             else
                 attemptEnded(m_step->parts->error(), sent.retryAfter);
         });
}

void SessionRun::attemptEnded(const MessageError &error, std::optional<qint64> retryAfter)
{
    flushDeltas();
    Step &step = *m_step;
    StreamAssembler &parts = *step.parts;
    if (parts.lastText())
        m_lastText = *parts.lastText();
    if (aborted()) {
        finishAborted(step.assistant, parts);
        endStep(StepResult::Stop);
        return;
    }
    if (error.isNull()) {
        finishStep();
        return;
    }
    if (!error.isRetryable() || step.attempt >= m_config.maxRetries) {
        failStep(step.assistant, parts, error);
        endStep(StepResult::Failed);
        return;
    }
    ++step.attempt;
    waitToRetry(step.attempt, StreamOutcome{false, error, retryAfter}, [this](bool waited) {
        if (!waited) {
            finishAborted(m_step->assistant, *m_step->parts);
            endStep(StepResult::Stop);
            return;
        }
        startAttempt();
    });
}

void SessionRun::endStep(StepResult result)
{
    const std::unique_ptr<Step> step = std::move(m_step);
    step->done(result, step->assistant);
}

void SessionRun::waitToRetry(int attempt, const StreamOutcome &outcome, std::function<void(bool)> done)
{
    const MessageError &error = outcome.error;
    const qint64 delay = retryDelay(attempt, outcome.retryAfter, m_config.retryInitialMs, m_config.retryMaxMs);
    Part retry = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), m_step->assistant.id(),
                            PartType::Retry);
    retry.json().insert(u"attempt"_s, attempt);
    retry.json().insert(u"error"_s, error.json());
    retry.json().insert(u"time"_s, JsonObject{{u"created"_s, now()}});
    writePart(retry);
    qCInfo(lcProcessor).noquote() << "retry" << attempt << "in" << delay << "ms after" << error.message();
    Q_EMIT retrying(m_session.id(), attempt, delay, error);
    if (!m_retryTimer) {
        m_retryTimer = new QTimer(this);
        m_retryTimer->setSingleShot(true);
        connect(m_retryTimer, &QTimer::timeout, this, [this] {
            Q_ASSERT(m_state == State::WaitingToRetry);
            const auto waited = std::exchange(m_retryDone, {});
            waited(!aborted());
        });
    }
    m_retryDone = std::move(done);
    enter(State::WaitingToRetry);
    // abortNow() ends the wait early (a timeout of 0).
    m_retryTimer->start(aborted() ? 0 : int(qMin<qint64>(delay, std::numeric_limits<int>::max())));
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
    (void)stored(m_service->updateMessage(assistant));
    m_service->reportError(m_session.id(), error);
    m_lastError = error;
}

void SessionRun::finishStep()
{
    Step &step = *m_step;
    StreamAssembler &parts = *step.parts;
    const bool wantsTools = parts.hasToolCalls();
    if (wantsTools && !step.spec.tools) {
        // No tools were offered (a summary): calls the model made anyway are not run.
        for (Part part : parts.toolParts()) {
            part.setState(ToolState::error(part.state().input(), u"No tools are available here"_s, now(), now()));
            writePart(part);
        }
    } else if (wantsTools) {
        executeTools(parts.toolParts(), [this](bool goOn) {
            if (!goOn && aborted()) {
                finishAborted(m_step->assistant, *m_step->parts);
                endStep(StepResult::Stop);
                return;
            }
            completeStep();
        });
        return;
    }
    completeStep();
}

void SessionRun::completeStep()
{
    Step &step = *m_step;
    StreamAssembler &parts = *step.parts;
    Message &assistant = step.assistant;
    const bool wantsTools = parts.hasToolCalls();
    const StepUsage stepUsage = parts.finishStep(step.spec.model.cost, trackSnapshot());
    const bool changed = writePatch(assistant, step.startSnapshot);
    assistant.setCost(stepUsage.costValue());
    assistant.setTokens(stepUsage.tokens);
    assistant.setFinish(parts.finishReason());
    assistant.setCompleted(now());
    (void)stored(m_service->updateMessage(assistant));
    // The session's diff and the turn's follow each step that changed files, not only the end
    // of the run, so that the changes pane follows the agent.
    if (changed && !m_compactOnly)
        summarize(assistant.parentID(), true);
    if (m_stopAfterStep)
        return endStep(StepResult::Failed);
    if (m_dismissed)
        return endStep(StepResult::Stop);
    endStep(wantsTools && step.spec.tools && parts.finishReason() == FinishReason::ToolCalls ? StepResult::Continue
                                                                                               : StepResult::Stop);
}

bool SessionRun::writePatch(const Message &assistant, const QString &startSnapshot)
{
    if (!m_snapshot || startSnapshot.isEmpty())
        return false;
    const Result<Snapshot::Patch> patched = m_snapshot->patch(startSnapshot);
    if (!patched)
        qCWarning(lcProcessor).noquote() << "snapshot patch failed:" << patched.error().toString();
    if (!patched || patched->files.isEmpty())
        return false;
    Part part
        = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Patch);
    part.json().insert(u"hash"_s, patched->hash);
    JsonArray files;
    for (const QString &file : patched->files)
        files.append(file);
    part.json().insert(u"files"_s, files);
    writePart(part);
    return true;
}

void SessionRun::executeTools(const QList<Part> &calls, std::function<void(bool)> done)
{
    if (calls.isEmpty() || aborted())
        return done(!aborted());
    // Each call on a thread of its own; this thread keeps handling its events (abortNow(), the
    // deltas' timer, the sub-agents) until the last call has ended.
    enter(State::RunningTools);
    m_toolRunner->run(m_step->assistant.id(), calls, [this, done = std::move(done)](const QList<ToolRunner::Outcome> &outcomes) {
        // The results stay in the order of the calls (the model reads them so).
        for (const ToolRunner::Outcome &outcome : outcomes) {
            m_dismissed = m_dismissed || outcome.dismissed;
            if (!outcome.doomLoop.isEmpty() && !m_stopAfterStep) {
                m_stopAfterStep = true;
                m_lastError = MessageError::unknown(outcome.doomLoop);
                m_step->assistant.setError(m_lastError);
                m_service->reportError(m_session.id(), m_lastError);
            }
        }
        done(!aborted() && !m_stopAfterStep);
    });
}

ToolContext SessionRun::baseToolContext(const QString &messageID)
{
    ToolContext context;
    context.sessionID = m_session.id();
    context.messageID = messageID;
    context.agent = m_agent.name;
    context.directory = m_session.directory();
    context.worktree = m_worktree;
    context.dataDir = m_config.dataDir;
    context.abortFlag = m_abort;
    context.eventLoop = this;
    return context;
}

ToolContext SessionRun::toolContext(const QString &assistantID, Part &part, const JsonObject &input, qint64 start)
{
    ToolContext context = baseToolContext(assistantID);
    context.callID = part.callID();
    context.ask = [this, assistantID, callID = part.callID()](const PermissionAsk &question) {
        return ask(question, assistantID, callID);
    };
    if (m_config.questions) {
        context.askQuestions = [this, assistantID, callID = part.callID()](const JsonArray &questions) {
            return askQuestions(questions, assistantID, callID);
        };
    }
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

void SessionRun::writeAttachments(const Message &user)
{
    if (m_request.attachments.isEmpty())
        return;
    ToolContext context = baseToolContext(user.id());
    context.lastRead = [this](const QString &path) { return m_fileTimes->lastRead(m_session.id(), QDir::cleanPath(path)); };
    context.markRead = [this](const QString &path) { m_fileTimes->markRead(m_session.id(), QDir::cleanPath(path)); };
    for (const PromptAttachment &attachment : std::as_const(m_request.attachments)) {
        for (const Part &part : Attachments::toParts(attachment, context, m_session.id(), user.id(), m_config.mcpServers))
            writePart(part);
    }
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

Part SessionRun::subtaskPart(const Message &user) const
{
    // MessageV2.SubtaskPart, in its schema's key order.
    Part part = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), user.id(), PartType::Subtask);
    part.json().insert(u"prompt"_s, m_subtask->prompt);
    part.json().insert(u"description"_s, m_subtask->description);
    part.json().insert(u"agent"_s, m_subtask->agent);
    part.json().insert(u"model"_s, JsonObject{{u"providerID"_s, m_subtask->model.providerID},
                                              {u"modelID"_s, m_subtask->model.modelID}});
    part.json().insert(u"command"_s, m_subtask->command);
    return part;
}

void SessionRun::runSubtask(const Message &user, std::function<void(std::optional<Message>)> done)
{
    const Subtask &task = *m_subtask;
    const ResolvedModel &model = task.model;
    Message assistant = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), m_session.id(), now(),
                                               user.id(), model.providerID, model.modelID, task.agent,
                                               m_session.directory(), m_worktree);
    (void)stored(m_service->updateMessage(assistant));
    const JsonObject input{{u"prompt"_s, task.prompt},
                           {u"description"_s, task.description},
                           {u"subagent_type"_s, task.agent},
                           {u"command"_s, task.command}};
    Part part = Part::make(Identifier::ascending(Identifier::Kind::Part), m_session.id(), assistant.id(), PartType::Tool);
    part.json().insert(u"callID"_s, Identifier::ascending(Identifier::Kind::Part));
    part.json().insert(u"tool"_s, u"task"_s);
    const qint64 start = now();
    part.setState(ToolState::running(input, start));
    writePart(part);

    // The task tool itself, as OpenCode runs it (on the tool pool: the sub-agent runs on this
    // thread): the user chose the agent, so no permission is asked for it, and it runs on the
    // command's model.
    enter(State::RunningTools);
    m_toolRunner->offThread<std::pair<Part, ToolResult>>(
        [this, part, input, start, assistantID = assistant.id(), model]() mutable {
            ToolContext context = toolContext(assistantID, part, input, start);
            context.ask = [](const PermissionAsk &) { return PermissionDecision::Allow; };
            context.runSubagent = [this, model](const QString &agent, const QString &description, const QString &prompt) {
                return runSubagent(agent, description, prompt, model);
            };
            ToolResult result = TaskTool().execute(context, input);
            return std::pair<Part, ToolResult>{part, std::move(result)};
        },
        [this, assistant, input, start, done = std::move(done)](std::pair<Part, ToolResult> ended) mutable {
            auto &[part, result] = ended;
            flushDeltas();
            if (aborted())
                part.setState(ToolState::error(input, u"Cancelled"_s, start, now(), result.metadata));
            else if (result.ok)
                part.setState(ToolState::completed(input, result.output, result.title, result.metadata, start, now()));
            else
                part.setState(
                    ToolState::error(input, u"Tool execution failed: "_s + result.error, start, now(), result.metadata));
            writePart(part);
            assistant.setFinish(u"tool-calls"_s);
            assistant.setCompleted(now());
            (void)stored(m_service->updateMessage(assistant));
            if (aborted() || leftUnfinished())
                return done(std::nullopt);

            // The model of the prompt goes on from the sub-agent's answer.
            Message summary = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_session.id(), now(),
                                                m_agent.name, m_model.providerID, m_model.modelID);
            (void)stored(m_service->updateMessage(summary));
            writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_session.id(), summary.id(),
                                     u"Summarize the task tool output above and continue with your task."_s, true));
            m_turns.append(summary.id());
            if (leftUnfinished())
                return done(std::nullopt);
            done(summary);
        });
}

Result<QString> SessionRun::runSubagent(const QString &agent, const QString &description, const QString &prompt,
                                        const std::optional<ResolvedModel> &model)
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
    // The child session is run by this process too: a run that dies leaves both to be closed.
    std::unique_ptr<SessionLock> lock;
    if (!m_config.dataDir.isEmpty()) {
        Result<std::unique_ptr<SessionLock>> taken = SessionLock::acquire(m_config.dataDir, child->id(), {});
        if (!taken)
            return taken.error();
        lock = std::move(taken).value();
    }
    PromptRequest request{child->id(), m_session.directory(), prompt, agent, model ? model->ref() : m_model.ref()};
    // The child's run lives on this run's thread (its event loop drives it); this tool's thread
    // waits for its result. Its signals go on as this run's.
    auto *nested = new SessionRun(Shared{m_service, m_permissions, m_fileTimes, m_questions}, m_config, request,
                                  child.value(), m_abort);
    nested->m_nested = true;
    nested->m_interaction = m_interaction;
    nested->moveToThread(thread());
    connect(nested, &SessionRun::retrying, this, &SessionRun::retrying);
    connect(nested, &SessionRun::permissionRequested, this, &SessionRun::permissionRequested);
    connect(nested, &SessionRun::compactionStarted, this, &SessionRun::compactionStarted);
    connect(nested, &SessionRun::compactionFinished, this, &SessionRun::compactionFinished);
    connect(nested, &SessionRun::questionAsked, this, &SessionRun::questionAsked);
    connect(nested, &SessionRun::questionClosed, this, &SessionRun::questionClosed);
    auto result = std::make_shared<std::promise<Result<QString>>>();
    std::future<Result<QString>> ended = result->get_future();
    nested->m_nestedDone = [this, nested, result](const Result<QString> &text) {
        {
            QMutexLocker locker(&m_subagentsMutex);
            m_subagents.removeOne(nested);
        }
        nested->deleteLater();
        result->set_value(text);
    };
    // Stop reaches the sub-agent at once: abortNow() stops its stream too while it runs.
    {
        QMutexLocker locker(&m_subagentsMutex);
        m_subagents.append(nested);
    }
    QMetaObject::invokeMethod(nested, &SessionRun::run, Qt::QueuedConnection);
    return ended.get();
}

void SessionRun::finishAborted(Message &assistant, StreamAssembler &parts)
{
    // Close what was streaming (the run's own copies are newer than the store's, whose text may
    // still be in the stream journal), then the tools that never finished, by the rule a dead
    // run's reply is closed with (Part::closeUnfinished).
    parts.closeStreaming();
    const QList<Part> onDisk = storeOf(*m_service)->parts(m_session.id(), assistant.id());
    for (Part part : parts.toolParts()) {
        // Re-read: the tool may have finished and been written meanwhile.
        for (const Part &current : onDisk) {
            if (current.id() == part.id())
                part = current;
        }
        if (part.closeUnfinished(u"Tool execution aborted"_s, now()))
            writePart(part);
    }
    assistant.setError(MessageError::aborted(u"The operation was aborted."_s));
    assistant.setCompleted(now());
    (void)stored(m_service->updateMessage(assistant));
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
            (void)stored(m_service->updateMessage(user));
        }
    }
}

void SessionRun::collectText(const ResolvedModel &model, const QList<LlmMessage> &messages, qint64 maxTokens,
                             std::function<void(const Result<QString> &)> done)
{
    LlmRequest request;
    request.providerID = model.providerID;
    request.modelID = model.apiModelID.isEmpty() ? model.modelID : model.apiModelID;
    request.messages = messages;
    request.maxOutputTokens = maxTokens;
    request.small = true;
    auto text = std::make_shared<QString>();
    send(model, request, [text](const LlmEvent &e) {
        if (e.type == LlmEvent::Type::TextDelta)
            *text += e.text;
    }, [text, done = std::move(done)](const RequestOutcome &sent) {
        if (!sent.error.isNull())
            return done(Error{sent.error.message(), {}});
        if (!sent.ended)
            return done(Error{u"aborted"_s, {}});
        done(*text);
    });
}

void SessionRun::generateTitle(std::function<void()> done)
{
    const std::optional<Session> session = m_service->get(m_session.id());
    if (!session || !Session::isDefaultTitle(session->title()) || !m_session.parentID().isEmpty())
        return done();
    ResolvedModel model = m_model;
    if (!m_config.smallModel.isEmpty()) {
        if (Result<ResolvedModel> small = m_config.resolveModel(m_config.smallModel))
            model = small.value();
    }
    const std::optional<Agent> titleAgent = m_config.agents.find(u"title"_s);
    const QList<LlmMessage> messages{LlmMessage::system(titleAgent ? titleAgent->prompt : QString()),
                                     LlmMessage::user(m_request.text.left(4000))};
    collectText(model, messages, 100, [this, done = std::move(done)](const Result<QString> &answer) {
        if (!answer) {
            qCInfo(lcProcessor).noquote() << "title generation failed, keeping the default title:"
                                          << answer.error().message;
        } else if (const QString title = cleanTitle(answer.value()); !title.isEmpty()) {
            (void)m_service->update(m_session.id(), [&](Session &s) { s.setTitle(title); });
        }
        done();
    });
}

void SessionRun::finish(bool ok)
{
    flushDeltas();
    m_ok = ok;
    enter(State::Finished);
    if (m_nestedDone) {
        const auto done = std::exchange(m_nestedDone, {});
        if (!m_lastError.isNull() && m_lastText.isEmpty())
            done(Error{m_lastError.message(), {}});
        else
            done(m_lastText);
        return;
    }
    Q_EMIT done(m_session.id(), ok, ok ? MessageError() : m_lastError);
}

void SessionRun::fetchInstructions(std::function<void()> next)
{
    // `instructions` URLs, fetched before the first step (OpenCode: 5 s each).
    if (m_config.instructionUrls.isEmpty() || m_nested || m_instructionsFetched)
        return next();
    m_instructionsFetched = true;
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    enter(State::FetchingInstructions);
    Instructions::fetch(m_network, m_config.instructionUrls,
                        [this, next = std::move(next)](const QList<Instruction> &fetched) {
                            m_config.instructions += fetched;
                            next();
                        });
}

void SessionRun::enter(State state)
{
    qCDebug(lcProcessor).noquote() << "run of" << m_session.id() << "waits:" << stateName(state);
    m_state = state;
}

void SessionRun::run()
{
    Q_ASSERT(m_state == State::Idle);
    if (m_compactOnly) {
        runCompactionOnly();
        return;
    }
    fetchInstructions([this] {
        if (Result<void> prepared = prepare(); !prepared) {
            m_lastError = MessageError::unknown(prepared.error().toString());
            m_service->reportError(m_session.id(), m_lastError);
            finish(false);
            return;
        }
        startPrompt();
    });
}

void SessionRun::startPrompt()
{
    // A pending revert is committed by the next prompt: the hidden messages go for good.
    if (m_session.hasRevert()) {
        if (auto r = Revert::cleanup(*m_service, m_session.id()); !r)
            qCWarning(lcProcessor).noquote() << "cannot commit the revert:" << r.error().toString();
        if (const auto s = m_service->get(m_session.id()))
            m_session = *s;
    }

    // Agent switches carry OpenCode's reminders as synthetic text.
    QString previousAgent;
    const QList<Message> previous = storeOf(*m_service)->messages(m_session.id());
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
    (void)stored(m_service->updateMessage(user));
    m_userMessageID = user.id();
    if (m_subtask) {
        writePart(subtaskPart(user));
    } else {
        writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_session.id(), user.id(), m_request.text));
        writeAttachments(user);
    }
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

    const auto loop = [this, firstPrompt](const Message &from) {
        runLoop(from, [this, firstPrompt](bool ok) { endPrompt(ok, firstPrompt); });
    };
    if (leftUnfinished())
        return endPrompt(false, firstPrompt);
    if (!m_subtask)
        return loop(user);
    runSubtask(user, [this, loop, firstPrompt](std::optional<Message> next) {
        if (!next)
            return endPrompt(false, firstPrompt);
        loop(*next);
    });
}

void SessionRun::endPrompt(bool ok, bool firstPrompt)
{
    pruneAfterRun();
    summarize(m_userMessageID, true);
    for (const QString &turn : std::as_const(m_turns))
        summarize(turn, false);
    auto end = [this, ok]() mutable {
        (void)m_service->touch(m_session.id());
        if (leftUnfinished()) {
            ok = false;
            m_lastError = storageFailure();
        }
        finish(ok);
    };
    if (m_config.generateTitles && firstPrompt && !aborted() && !m_nested)
        return generateTitle(std::move(end));
    end();
}

void SessionRun::runLoop(const Message &user, std::function<void(bool ok)> done)
{
    m_loopState = std::make_unique<Loop>();
    m_loopState->user = user;
    m_loopState->done = std::move(done);
    nextStep();
}

void SessionRun::nextStep()
{
    if (aborted())
        return endLoop(true);
    Loop &loop = *m_loopState;
    Message assistant = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), m_session.id(), now(),
                                               loop.user.id(), m_model.providerID, m_model.modelID, m_agent.name,
                                               m_session.directory(), m_worktree);
    (void)stored(m_service->updateMessage(assistant));
    runStep(assistant, promptStep(loop.step),
            [this](StepResult result, const Message &assistant) { afterStep(result, assistant); });
}

void SessionRun::afterStep(StepResult result, const Message &assistant)
{
    Loop &loop = *m_loopState;
    if (aborted())
        return endLoop(true);
    if (result == StepResult::Failed) {
        // The provider refused the context as too long: with automatic compaction on (and
        // only then), compact and try again once.
        if (m_lastError.kind() == MessageError::Kind::ContextOverflow && m_settings.autoCompact && !loop.overflowRecovery
            && !m_stopAfterStep) {
            loop.overflowRecovery = true;
            compactNow(CompactOptions{true, {}, {}}, [this](const Compacted &continued) {
                if (continued && continued.value())
                    m_lastError = MessageError();
                continueAfterCompaction(continued);
            });
            return;
        }
        return endLoop(false);
    }
    loop.overflowRecovery = false;
    // OpenCode's overflow check after each step (SessionCompaction.isOverflow): never when
    // automatic compaction is off, by the config or the environment.
    if (Compaction::isOverflow(assistant.tokens(), m_model.contextLimit, m_model.outputLimit, m_settings)) {
        if (loop.justCompacted) {
            // The context is still too large right after a compaction: stop rather than
            // summarise the summary again and again.
            m_lastError = MessageError::contextOverflow(
                ProcessorTr::tr("The context is still over the limit after compaction (%1 tokens, %2 usable)")
                    .arg(Compaction::overflowCount(assistant.tokens()))
                    .arg(Compaction::usableContext(m_model.contextLimit, m_model.outputLimit, m_settings)));
            m_service->reportError(m_session.id(), m_lastError);
            return endLoop(false);
        }
        compactNow(CompactOptions{true, {}, {}}, [this](const Compacted &continued) { continueAfterCompaction(continued); });
        return;
    }
    loop.justCompacted = false;
    // Messages steered into the run are answered next, whether or not the step asked for more.
    if (!m_stopAfterStep && !m_nested) {
        if (const std::optional<Message> steered = admitSteers()) {
            loop.user = *steered;
            m_turns.append(steered->id());
            ++loop.step;
            return nextStep();
        }
    }
    if (result != StepResult::Continue)
        return endLoop(true);
    ++loop.step;
    nextStep();
}

std::optional<Message> SessionRun::admitSteers()
{
    std::optional<Message> last;
    for (const QString &text : m_steers->take()) {
        Message user = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_session.id(), now(),
                                         m_agent.name, m_model.providerID, m_model.modelID);
        (void)stored(m_service->updateMessage(user));
        writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_session.id(), user.id(), text));
        qCInfo(lcProcessor).noquote() << "steered into" << m_session.id() << "as" << user.id();
        last = user;
    }
    return last;
}

void SessionRun::continueAfterCompaction(const Compacted &continued)
{
    if (!continued || !continued.value())
        return endLoop(false);
    Loop &loop = *m_loopState;
    loop.user = *continued.value();
    m_turns.append(loop.user.id());
    loop.justCompacted = true;
    ++loop.step;
    nextStep();
}

void SessionRun::endLoop(bool ok)
{
    if (aborted())
        ok = false;
    if (!ok && m_lastError.isNull() && aborted())
        m_lastError = MessageError::aborted(u"The operation was aborted."_s);
    const std::unique_ptr<Loop> loop = std::move(m_loopState);
    loop->done(ok);
}

} // namespace weft
