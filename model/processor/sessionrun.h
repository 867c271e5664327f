// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The agent loop's worker (internal to the processor): sessionrun.cpp runs prompts; its parts are
// CompactionRun (compactionrun.*), ToolRunner (toolrunner.*) and DeltaCoalescer (deltacoalescer.*).

#include "compactionrun.h"
#include "core/logging.h"
#include "deltacoalescer.h"
#include "permission.h"
#include "processor.h"
#include "snapshot.h"
#include "step.h"
#include "streamassembler.h"
#include "tool.h"
#include "toolrunner.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QPointer>
#include <QMutex>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

class QNetworkAccessManager;

namespace weft
{

/// One prompt's run, on its own worker thread: a state machine driven by that thread's event
/// loop (no nested loop). Each wait (the instruction URLs, a provider's stream, a retry's delay,
/// the tool calls of a step on the run's tool pool) ends with an event that calls the
/// continuation given when the wait began; abortNow() ends the current wait the same way. The
/// continuations keep OpenCode's SessionPrompt.loop order: prepare, steps (retries, tools,
/// automatic compaction), prune, summaries, title. A sub-agent's run (the task tool) lives on
/// the same thread; the tool's thread waits for it.
/// The steered messages of a run (Processor::steer()) waiting for its next step: filled on any
/// thread, emptied by the run between its steps, and by the Processor after the run for what
/// came too late. Thread-safe.
class SteerInbox
{
public:
    void add(const QString &text)
    {
        const QMutexLocker locker(&m_mutex);
        m_texts.append(text);
    }
    [[nodiscard]] QStringList take()
    {
        const QMutexLocker locker(&m_mutex);
        return std::exchange(m_texts, {});
    }

private:
    QMutex m_mutex;
    QStringList m_texts;
};

class SessionRun : public QObject
{
    Q_OBJECT

public:
    /// What the runs of one Processor share.
    struct Shared {
        std::shared_ptr<SessionService> service;
        std::shared_ptr<PermissionGate> permissions;
        /// What each session has read, for the edit tools; kept across runs (turns).
        std::shared_ptr<FileTimes> fileTimes;
        /// The question tool's questions waiting for the user.
        std::shared_ptr<PendingReplies<QuestionReply>> questions;
    };
    SessionRun(Shared shared, ProcessorConfig config, PromptRequest request, Session session,
               std::shared_ptr<std::atomic_bool> abortFlag);

    /// What the run waits for (the event that advances it next).
    enum class State {
        Idle,                 ///< not started
        FetchingInstructions, ///< the config's instruction URLs
        Streaming,            ///< a provider's stream: a step, a compaction's summary, the title
        WaitingToRetry,       ///< a retry's delay (a QTimer)
        RunningTools,         ///< the tool calls of a step (or a subtask's task call) on the tool pool
        Finished,             ///< done() was emitted (or the sub-agent's result handed back)
    };
    /// Starts the run (on its thread); done() follows from that thread's event loop.
    void run();
    [[nodiscard]] std::shared_ptr<std::atomic_bool> abortFlag() const { return m_abort; }
    /// Where Processor::steer() leaves messages for the run's next step.
    [[nodiscard]] const std::shared_ptr<SteerInbox> &steerInbox() const { return m_steers; }
    /// A compaction run (setCompaction()), which takes no steered messages.
    [[nodiscard]] bool isCompaction() const { return m_compactOnly; }
    /// Whether the run ended without an error (valid once state() is Finished).
    [[nodiscard]] bool succeeded() const { return m_ok; }
    /// The error the run ended with (null when it succeeded).
    [[nodiscard]] MessageError error() const { return m_ok ? MessageError() : m_lastError; }
    /// Makes run() compact the session instead of sending a prompt.
    void setCompaction(const CompactOptions &options)
    {
        m_compactOnly = true;
        m_compactOptions = options;
    }
    /// Whether a write of the session failed (a full disk, an I/O error): the run was stopped
    /// and what it wrote last may be unfinished on disk (closed at the next start, see
    /// JsonStore::closeInterruptedRuns()).
    [[nodiscard]] bool leftUnfinished() const;

Q_SIGNALS:
    void done(const QString &sessionID, bool ok, const weft::MessageError &error);
    void retrying(const QString &sessionID, int attempt, qint64 delayMs, const weft::MessageError &error);
    void permissionRequested(const weft::PermissionRequest &request);
    void compactionStarted(const QString &sessionID, bool automatic);
    void compactionFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    /// The question tool asks (see Processor::questionAsked).
    void questionAsked(const weft::JsonObject &request);
    void questionClosed(const QString &sessionID, const QString &requestID);

public Q_SLOTS:
    void abortNow();

private:
    /// Fetches the config's instruction URLs (once, not for a sub-agent), then calls @p next.
    void fetchInstructions(std::function<void()> next);
    Result<void> prepare();
    Result<void> prepareWorkspace();
    /// prepare() has succeeded: writes the user message and starts the loop.
    void startPrompt();
    /// The prompt's loop has ended: prune, summaries, title, done().
    void endPrompt(bool ok, bool firstPrompt);
    /// Ends the run: done(), or the sub-agent's result to its parent.
    void finish(bool ok);
    /// The step @p step (from 0) of the agent loop: the agent's model and tools, except the
    /// last step the agent's `steps` allow, which has no tools and the max-steps reminder.
    StepSpec promptStep(int step) const;
    /// The agent loop from @p user on; @p done gets false when it ended with an error or was aborted.
    void runLoop(const Message &user, std::function<void(bool ok)> done);
    /// The loop's state between its steps.
    struct Loop {
        Message user;
        int step = 0;
        bool overflowRecovery = false; ///< a compaction after ContextOverflowError, once in a row
        bool justCompacted = false;
        std::function<void(bool ok)> done;
    };
    std::unique_ptr<Loop> m_loopState;
    void nextStep();
    void afterStep(StepResult result, const Message &assistant);
    /// The loop continues from @p continued after an automatic compaction (an error: it ends).
    void continueAfterCompaction(const Result<std::optional<Message>> &continued);
    void endLoop(bool ok);

    /// A command that runs as a sub-agent (`subtask: true`, or a command of a sub-agent):
    /// OpenCode's subtask part. The user message holds it; the task tool runs it in a child
    /// session before the model goes on.
    struct Subtask {
        QString agent;
        QString description;
        QString command;
        ResolvedModel model; ///< the command's, its agent's, else the prompt's
        QString prompt;
    };
    /// The subtask part of user message @p user.
    [[nodiscard]] Part subtaskPart(const Message &user) const;
    /// Runs m_subtask as OpenCode's loop does (handleSubtask): an assistant message of the
    /// sub-agent with a task tool call that runs it (on the tool pool), then a synthetic user
    /// message asking to sum up, which the loop continues from. @p done gets nullopt when the run
    /// was stopped or cannot go on.
    void runSubtask(const Message &user, std::function<void(std::optional<Message>)> done);

    // ---- compaction
    void runCompactionOnly();
    void endCompactionOnly(bool ok);
    using Compacted = CompactionRun::Compacted;
    /// A compaction (CompactionRun) whose summary streams as this run's step.
    void compactNow(const CompactOptions &options, std::function<void(const Compacted &)> done);
    void pruneAfterRun();
    std::unique_ptr<CompactionRun> m_compaction;

    // ---- one step (sessionrun.cpp)
    /// How one stream ended.
    struct StreamOutcome
    {
        bool ok = false;
        MessageError error;
        std::optional<qint64> retryAfter;
    };
    /// One step: streams, retries, runs the tools the model called, records the step's usage;
    /// @p done gets the result and the assistant message as the step left it.
    void runStep(const Message &assistant, const StepSpec &spec, StepDone done);
    /// The step that runs (one at a time in a run).
    struct Step {
        Message assistant;
        StepSpec spec;
        int attempt = 0;
        std::optional<StreamAssembler> parts;
        QString startSnapshot;
        StepDone done;
    };
    std::unique_ptr<Step> m_step;
    void startAttempt();
    void attemptEnded(const MessageError &error, std::optional<qint64> retryAfter);
    void endStep(StepResult result);
    [[nodiscard]] StreamAssembler assembler(const Message &assistant);
    [[nodiscard]] LlmRequest makeRequest(const StepSpec &spec) const;
    /// How one request to a provider ended.
    struct RequestOutcome
    {
        bool ended = false; ///< finished or failed; false: aborted while it ran
        MessageError error; ///< failed
        std::optional<qint64> retryAfter;
    };
    /// Sends @p request to @p model's provider; @p done follows once the provider finished or
    /// failed, or the run was aborted (the request is then aborted too). @p onEvent sees each
    /// event of the stream.
    void send(const ResolvedModel &model, const LlmRequest &request, std::function<void(const LlmEvent &)> onEvent,
              std::function<void(const RequestOutcome &)> done);
    /// Ends the request @p serial (a later one may run already) with @p outcome.
    void endSend(quint64 serial, const RequestOutcome &outcome);
    /// Records the retry and waits for it (m_retryTimer); @p done gets false when aborted meanwhile.
    void waitToRetry(int attempt, const StreamOutcome &outcome, std::function<void(bool)> done);
    void failStep(Message &assistant, const StreamAssembler &parts, const MessageError &error);
    void finishStep();
    /// The tools of the step have run: usage, patch, and the step's result.
    void completeStep();
    /// The `patch` part of the files changed since @p startSnapshot; false when none changed.
    bool writePatch(const Message &assistant, const QString &startSnapshot);
    /// Runs @p calls in parallel on the tool runner; @p done follows on the run's thread once all
    /// have ended, with false when the run must stop (aborted, doom loop refused).
    void executeTools(const QList<Part> &calls, std::function<void(bool)> done);
    ToolContext toolContext(const QString &assistantID, Part &part, const JsonObject &input, qint64 start);
    /// Runs @p agent in a child session with @p prompt, on @p model (the run's model when unset).
    /// Called on a tool's thread: the child's run lives on this run's thread, the tool's thread
    /// waits for its result.
    Result<QString> runSubagent(const QString &agent, const QString &description, const QString &prompt,
                                const std::optional<ResolvedModel> &model = std::nullopt);
    void finishAborted(Message &assistant, StreamAssembler &parts);
    /// For a sub-agent: where its result goes (its last text, or its error).
    std::function<void(const Result<QString> &)> m_nestedDone;
    /// The diffs of the turn of @p userMessageID (summary.diffs of that message) and, with
    /// @p session, of the whole session (session_diff and the session's summary).
    void summarize(const QString &userMessageID, bool session);
    void generateTitle(std::function<void()> done);
    void collectText(const ResolvedModel &model, const QList<LlmMessage> &messages, qint64 maxTokens,
                     std::function<void(const Result<QString> &)> done);
    QList<LlmMessage> buildMessages(const QList<MessageWithParts> &history) const;
    QString systemPrompt() const;
    QList<LlmToolDefinition> toolDefinitions() const;
    PermissionDecision ask(const PermissionAsk &question, const QString &messageID, const QString &callID);
    /// The question tool's questions to the user (see ToolContext::askQuestions).
    std::optional<QList<QStringList>> askQuestions(const JsonArray &questions, const QString &messageID,
                                                   const QString &callID);
    /// Waits for the turn to talk to the user (one question at a time in a run and its
    /// sub-agents); false when the run was aborted meanwhile. Unlock m_interaction after.
    bool lockInteraction();
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
    // Part writes: from the run's thread and from tool threads alike.
    void writeStreaming(const Part &part, const QString &delta);
    void flushDeltas() { m_deltas->flush(); }
    /// Whether @p written succeeded; the first failure stops the run (storageFailure()).
    template<typename T>
    bool stored(const Result<T> &written)
    {
        if (written)
            return true;
        storageFailed(written.error());
        return false;
    }
    void storageFailed(const Error &error);
    /// The run's error after a failed write; null when none failed.
    [[nodiscard]] MessageError storageFailure() const;
    void writePart(const Part &part);
    qint64 now() const { return QDateTime::currentMSecsSinceEpoch(); }

    std::shared_ptr<SessionService> m_service;
    ProcessorConfig m_config;
    std::shared_ptr<PermissionGate> m_permissions;
    std::shared_ptr<FileTimes> m_fileTimes;
    PromptRequest m_request;
    Session m_session;
    std::shared_ptr<std::atomic_bool> m_abort;

    Agent m_agent;
    ResolvedModel m_model;
    QString m_userMessageID;
    std::optional<Subtask> m_subtask;
    QString m_worktree;
    std::unique_ptr<Snapshot> m_snapshot;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<Provider> m_provider;
    State m_state = State::Idle;
    /// The run waits for the event that ends @p state now (logged with lcProcessor, debug).
    void enter(State state);
    [[nodiscard]] static const char *stateName(State state)
    {
        switch (state) {
        case State::Idle:
            return "nothing (idle)";
        case State::FetchingInstructions:
            return "instruction URLs";
        case State::Streaming:
            return "a provider's stream";
        case State::WaitingToRetry:
            return "a retry's delay";
        case State::RunningTools:
            return "tool calls";
        case State::Finished:
            return "nothing (finished)";
        }
        return "";
    }
    bool m_ok = false;
    /// The request that runs (send()): where its end goes, and its number.
    std::function<void(const RequestOutcome &)> m_sent;
    quint64 m_sendSerial = 0;
    QTimer *m_retryTimer = nullptr;
    std::function<void(bool)> m_retryDone;
    bool m_instructionsFetched = false;
    /// The sub-agent runs of `task` calls while they run (each on its tool's thread).
    QMutex m_subagentsMutex;
    QList<SessionRun *> m_subagents;
    /// Held while a question waits for the user: one at a time in the run and its sub-agents.
    std::shared_ptr<QMutex> m_interaction = std::make_shared<QMutex>();
    std::shared_ptr<PendingReplies<QuestionReply>> m_questions;
    /// The reads the session's history shows are added to m_fileTimes once per run.
    std::once_flag m_readsFromHistory;
    /// What every tool context of this run holds: session, message, agent, folders, abort flag.
    [[nodiscard]] ToolContext baseToolContext(const QString &messageID);
    /// The parts of the request's attachments in the user message (Attachments::toParts).
    void writeAttachments(const Message &user);
    void takeReadsFromHistory();
    QString m_lastText;
    MessageError m_lastError;
    bool m_nested = false;
    bool m_stopAfterStep = false;
    bool m_dismissed = false; // the user dismissed a question: the run ends after this step
    Compaction::Settings m_settings;
    QStringList m_turns; // synthetic user messages of this run: after automatic compactions, after a subtask
    bool m_compactOnly = false;
    std::shared_ptr<SteerInbox> m_steers = std::make_shared<SteerInbox>();
    /// Writes the steered messages waiting in the inbox as user messages after the step that
    /// just ended; the last of them, or nothing when none waits.
    [[nodiscard]] std::optional<Message> admitSteers();
    CompactOptions m_compactOptions;

    /// Deltas coalesced before they are announced (tools write from their own threads).
    DeltaCoalescer *m_deltas = nullptr;
    /// The tool calls (a child; destroyed first, after its calls have ended).
    std::unique_ptr<ToolRunner> m_toolRunner;
    mutable QMutex m_storageMutex;
    std::optional<Error> m_storageError; ///< the first write that failed
};

} // namespace weft
