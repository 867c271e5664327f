// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The agent loop's worker (internal to the processor): sessionrun.cpp runs prompts,
// compactionrun.cpp runs compactions.

#include "core/logging.h"
#include "permission.h"
#include "processor.h"
#include "snapshot.h"
#include "streamassembler.h"
#include "tool.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPointer>
#include <QMutex>
#include <QSet>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

class QNetworkAccessManager;

namespace weft
{

/// One prompt's run, on its own worker thread. The loop is written linearly: waits for the
/// network and for retry delays run a local event loop on the worker thread, which keeps the
/// steps, retries and tool calls readable top to bottom, as in OpenCode's SessionPrompt.loop.
class SessionRun : public QObject
{
    Q_OBJECT

public:
    SessionRun(Processor *processor, ProcessorConfig config, PromptRequest request, Session session,
               std::shared_ptr<std::atomic_bool> abortFlag)
        : m_processor(processor)
        , m_service(processor->m_service)
        , m_config(std::move(config))
        , m_permissions(processor->m_permissions)
        , m_fileTimes(processor->m_fileTimes)
        , m_request(std::move(request))
        , m_session(std::move(session))
        , m_abort(std::move(abortFlag))
        , m_questions(processor->m_questions)
    {
        Result<Compaction::Settings> settings = Compaction::Settings::fromConfig(m_config.compaction);
        if (!settings) {
            qCWarning(lcProcessor).noquote()
                << "invalid compaction settings, using the defaults:" << settings.error().toString();
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
    enum class StepResult { Continue, Stop, Failed };
    /// What one step sends: the model, fixed messages (empty: the session's context, rebuilt
    /// for each attempt) and whether the agent's tools are offered.
    struct StepSpec
    {
        ResolvedModel model;
        QList<LlmMessage> messages;
        bool tools = true;
        /// Appended to the messages as the assistant's (OpenCode's max-steps reminder).
        QString reminder;
        std::optional<double> temperature;
        std::optional<double> topP;
    };

    Result<void> prepare();
    Result<void> prepareWorkspace();
    /// The step @p step (from 0) of the agent loop: the agent's model and tools, except the
    /// last step the agent's `steps` allow, which has no tools and the max-steps reminder.
    StepSpec promptStep(int step) const;
    /// The agent loop from @p user on; false when it ended with an error or was aborted.
    bool runLoop(Message user);

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
    /// sub-agent with a task tool call that runs it, then a synthetic user message asking to sum
    /// up, which the loop continues from. Nullopt when the run was stopped or cannot go on.
    std::optional<Message> runSubtask(const Message &user);

    // ---- compaction (compactionrun.cpp)
    void runCompactionOnly();
    /// Prunes, then streams a summary (see Processor::compact). Returns the synthetic continue
    /// message of an automatic compaction (nullopt for a manual one), or the error after the
    /// session was restored.
    Result<std::optional<Message>> compactNow(const CompactOptions &options);
    void pruneAfterRun();
    Result<std::optional<Message>> failCompaction(const MessageError &error, bool report);
    /// Prune before a summary; returns what it cleared (to restore on failure).
    QList<Compaction::PruneCandidate> pruneBeforeSummary();
    void unprune(const QList<Compaction::PruneCandidate> &pruned);
    /// The user message with the `compaction` part; sets `time.compacting` on the session.
    MessageWithParts writeCompactionMarker(const QList<MessageWithParts> &history, const ResolvedModel &model,
                                           bool automatic, const QString &tailStartID);
    [[nodiscard]] StepSpec summaryStep(const ResolvedModel &model, Compaction::Strategy strategy,
                                       const QList<MessageWithParts> &summarised) const;
    void clearCompacting();
    void rollbackCompaction(const QString &summaryID, const QString &markerID,
                            const QList<Compaction::PruneCandidate> &pruned);
    /// Ends a compaction that succeeded; returns the synthetic continue message of an automatic one.
    std::optional<Message> completeCompaction(const Message &marker, bool automatic);

    // ---- one step (sessionrun.cpp)
    /// How one stream ended.
    struct StreamOutcome
    {
        bool ok = false;
        MessageError error;
        std::optional<qint64> retryAfter;
    };
    /// One step: streams, retries, runs the tools the model called, records the step's usage.
    StepResult runStep(Message &assistant, const StepSpec &spec);
    [[nodiscard]] StreamAssembler assembler(const Message &assistant);
    [[nodiscard]] LlmRequest makeRequest(const StepSpec &spec) const;
    StreamOutcome streamOnce(const ResolvedModel &model, const LlmRequest &request, StreamAssembler &parts);
    /// How one request to a provider ended.
    struct RequestOutcome
    {
        bool ended = false; ///< finished or failed; false: aborted while it ran
        MessageError error; ///< failed
        std::optional<qint64> retryAfter;
    };
    /// Sends @p request to @p model's provider and waits in a local event loop (which abort()
    /// leaves) until the provider finished or failed, or the run was aborted (the request is
    /// then aborted too). @p onEvent sees each event of the stream.
    RequestOutcome send(const ResolvedModel &model, const LlmRequest &request,
                        const std::function<void(const LlmEvent &)> &onEvent);
    /// Records the retry and waits for it; false when aborted meanwhile.
    bool waitToRetry(const Message &assistant, int attempt, const StreamOutcome &outcome);
    void failStep(Message &assistant, const StreamAssembler &parts, const MessageError &error);
    StepResult finishStep(Message &assistant, const StepSpec &spec, StreamAssembler &parts,
                          const QString &startSnapshot);
    /// The `patch` part of the files changed since @p startSnapshot; false when none changed.
    bool writePatch(const Message &assistant, const QString &startSnapshot);
    /// How one tool call ended, for the step (applied on the run's thread, in the calls' order).
    struct ToolOutcome
    {
        QString doomLoop;       ///< the error when a doom loop was refused
        bool dismissed = false; ///< the user dismissed the question tool's questions
    };
    /// Runs @p calls in parallel, each on a thread of the run's tool pool, and waits for all of
    /// them (the run's thread keeps handling its events meanwhile); false when the run must stop
    /// (aborted, doom loop refused).
    bool executeTools(Message &assistant, const QList<Part> &calls);
    /// One call, on its tool thread; @p repeated: the third identical call in a row.
    ToolOutcome executeTool(const QString &assistantID, Part part, bool repeated);
    [[nodiscard]] std::shared_ptr<Tool> findTool(const QString &name) const;
    /// Records the call; true when it is the third identical call in a row.
    bool isDoomLoop(const QString &tool, const JsonObject &input);
    ToolContext toolContext(const QString &assistantID, Part &part, const JsonObject &input, qint64 start);
    /// Runs @p agent in a child session with @p prompt, on @p model (the run's model when unset).
    Result<QString> runSubagent(const QString &agent, const QString &description, const QString &prompt,
                                const std::optional<ResolvedModel> &model = std::nullopt);
    void finishAborted(Message &assistant, StreamAssembler &parts);
    /// The diffs of the turn of @p userMessageID (summary.diffs of that message) and, with
    /// @p session, of the whole session (session_diff and the session's summary).
    void summarize(const QString &userMessageID, bool session);
    void generateTitle();
    Result<QString> collectText(const ResolvedModel &model, const QList<LlmMessage> &messages, qint64 maxTokens);
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
    // Part writes: from the run's thread and from tool threads alike.
    void writeStreaming(const Part &part, const QString &delta);
    /// Starts the coalescing timer (on the run's thread).
    void scheduleFlush();
    void flushDeltas();
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

    Processor *m_processor;
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
    QList<std::shared_ptr<Tool>> m_tools;
    std::unique_ptr<Snapshot> m_snapshot;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<Provider> m_provider;
    QEventLoop *m_loop = nullptr;
    /// The sub-agent runs of `task` calls while they run (each on its tool's thread).
    QMutex m_subagentsMutex;
    QList<SessionRun *> m_subagents;
    /// The threads of tool calls (made for the first step that calls tools).
    std::unique_ptr<QThreadPool> m_toolPool;
    /// Held while a question waits for the user: one at a time in the run and its sub-agents.
    std::shared_ptr<QMutex> m_interaction = std::make_shared<QMutex>();
    std::shared_ptr<PendingReplies<QuestionReply>> m_questions;
    /// The reads the session's history shows are added to m_fileTimes once per run.
    std::once_flag m_readsFromHistory;
    /// What every tool context of this run holds: session, message, agent, folders, abort flag.
    [[nodiscard]] ToolContext baseToolContext(const QString &messageID) const;
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
    CompactOptions m_compactOptions;
    QList<QByteArray> m_recentCalls; // tool + input of the last calls, for doom-loop detection

    // Deltas coalesced before they are announced (under m_pendingMutex: tools write from their
    // own threads).
    QMutex m_pendingMutex;
    mutable QMutex m_storageMutex;
    std::optional<Error> m_storageError; ///< the first write that failed
    QHash<QString, QString> m_pendingDelta; // part id -> delta not announced yet
    QHash<QString, Part> m_pendingPart;
    QTimer *m_flushTimer = nullptr;
    QElapsedTimer m_sinceFlush;
};

/// The model a compaction of @p sessionID uses: @p requested, else `compaction.model`, else the
/// compaction agent's model, else the model of the session's last user message, else the default.
[[nodiscard]] Result<ResolvedModel> resolveCompactionModel(const ProcessorConfig &config,
                                                           const Compaction::Settings &settings,
                                                           SessionService &service, const QString &sessionID,
                                                           const QString &requested);

} // namespace weft
