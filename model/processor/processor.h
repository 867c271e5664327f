// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agent.h"
#include "attachments.h"
#include "compaction/compaction.h"
#include "filetime.h"
#include "instructions.h"
#include "promptcommand.h"
#include "core/result.h"
#include "core/types.h"
#include "permission.h"
#include "provider/provider.h"
#include "provider/usage.h"
#include "tool.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace weft
{

class McpRegistry;
class SessionLock;
class SessionService;
class SessionRun;
class SteerInbox;

/// A model the processor can call, resolved from "provider/model" by the configuration.
struct ResolvedModel {
    QString providerID;
    QString modelID;
    QString apiModelID;          ///< the ID the API expects (usually modelID)
    ProviderSettings settings;   ///< where and how to reach the provider
    qint64 contextLimit = 0;     ///< 0 = unknown
    qint64 outputLimit = 0;      ///< 0 = unknown
    ModelCost cost;
    JsonObject providerOptions;  ///< merged into every request body
    /// What the model reads besides text ("image", "pdf", ...; ModelInfo::inputModalities()):
    /// files of other kinds reach it as OpenCode's "cannot read" text.
    QStringList inputModalities{QStringLiteral("text")};

    [[nodiscard]] QString ref() const { return providerID + u'/' + modelID; }
};

/// What the processor needs from the configuration. Functions must be thread-safe.
struct ProcessorConfig {
    QString dataDir;
    /// Resolves "provider/model"; an empty reference means the configured default model.
    std::function<Result<ResolvedModel>(const QString &ref)> resolveModel;
    /// The small model for titles ("provider/model"); empty = the session's model.
    QString smallModel;
    /// The config's permission rules (evaluated first; the agent's and the session's win).
    QList<PermissionRule> permission;
    AgentRegistry agents;
    /// How `ask` permissions are answered: Interactive emits permissionRequested() and waits for
    /// answerPermission(); Deny and Allow answer at once (headless runs, --auto-approve).
    using AskPolicy = PermissionGate::AskPolicy;
    AskPolicy askPolicy = AskPolicy::Deny;
    /// Whether someone answers the question tool (the window; `weft run` on a terminal): only
    /// then is it offered, as OpenCode offers it only to interactive clients. The questions are
    /// announced with Processor::questionAsked() and answered with answerQuestion().
    bool questions = false;
    /// Attempts after the first failed one before giving up with session.error.
    int maxRetries = 5;
    qint64 retryInitialMs = 2000; ///< OpenCode: 2 s, doubling
    qint64 retryMaxMs = 30000;    ///< cap when the server sends no retry-after
    bool generateTitles = true;
    /// When the project is snapshot in a shadow git repository (needs the git program): always,
    /// never (the config's `snapshot: false`), or only in a git repository (no `snapshot` key:
    /// staging a home folder at every step is not acceptable).
    enum class Snapshots { Always, Never, InGitRepositories };
    Snapshots snapshots = Snapshots::Always;
    /// The config's `compaction` object ({auto, prune, strategy, estimator, prompt, model,
    /// reserved}); read with the environment (OPENCODE_DISABLE_AUTOCOMPACT/_PRUNE) when a run
    /// starts, see Compaction::Settings.
    JsonObject compaction;
    /// The instruction files for the system prompt (AGENTS.md, the config's `instructions`...)
    /// and the `instructions` URLs, fetched when a run starts.
    QList<Instruction> instructions;
    QStringList instructionUrls;
    /// The config's commands (`command` and markdown command files); see availableCommands().
    QList<PromptCommand> commands;
    /// Applies the configuration OpenCode finds for a session's directory (the project's
    /// opencode.json(c) and .opencode folders, its instructions) to this one's configured parts;
    /// empty: this configuration everywhere. Called for each prompt (Processor::configFor), so
    /// edits apply to the next one.
    std::function<Result<void>(ProcessorConfig &config, const QString &directory)> loadProject;
    /// The MCP servers the configuration names (its `mcp` object).
    JsonObject mcp;
    /// The process's MCP servers (useMcpServers()): the runs offer the tools of those `mcp`
    /// names, besides the built-in ones and through the same agent and permission filters, and
    /// their prompts as commands. Null: no MCP.
    std::shared_ptr<McpRegistry> mcpServers;

    /// The commands a prompt can run: the config's, then the prompts of its connected MCP servers
    /// (named "server:prompt", as OpenCode names them).
    [[nodiscard]] QList<PromptCommand> availableCommands() const;
    /// The resources of the connected MCP servers this config names: what "@" mentions offer.
    [[nodiscard]] QList<McpResourceInfo> availableResources() const;
};

/// @p base with the configuration of @p directory applied (ProcessorConfig::loadProject), read
/// now; @p base itself when it has no loadProject. Safe on any thread.
[[nodiscard]] Result<ProcessorConfig> configForDirectory(const ProcessorConfig &base, const QString &directory);
/// The user's reply to the question tool: for each question the labels chosen (or text of
/// one's own); or dismissed.
struct QuestionReply {
    bool dismissed = false;
    QList<QStringList> answers;
};

/// A prompt checked by Processor::checkPrompt(): how it runs, decided once.
struct ResolvedPrompt {
    PromptRequest request; ///< as asked, a "/name" of its text found as a command
    std::optional<Session> session; ///< the session it continues; none: a new one in `directory`
    QString directory;
    ProcessorConfig config; ///< the configuration of its project, which the run uses
    /// The model named for it: the command's, else the request's, else the agent's; empty: the
    /// run continues with the session's last model, else the default.
    QString modelRef;
    /// modelRef resolved (the default when it is empty), or none (modelError says why).
    std::optional<ResolvedModel> model;
    QString modelError;
};

/// A compaction to run (Processor::compact).
struct CompactOptions {
    /// The compaction part's `auto`. An automatic compaction adds the synthetic "Continue if you
    /// have next steps..." user message and lets the agent continue from it, as OpenCode's does.
    bool automatic = false;
    /// "provider/model" for the summary; empty: `compaction.model`, else the compaction agent's
    /// model, else the session's last model, else the default.
    QString model;
    /// Empty: `compaction.strategy` (default "summary").
    std::optional<Compaction::Strategy> strategy;
};

/// The agent loop (OpenCode's SessionPrompt.loop and SessionProcessor): each prompt runs on its
/// own worker thread and records every step in the store as it happens, through the
/// SessionService, whose signals let views follow live.
///
/// The object itself lives on the thread that made it (the GUI thread in the app); prompt(),
/// abort() and answerPermission() may be called from any thread.
class Processor : public QObject
{
    Q_OBJECT

public:
    Processor(std::shared_ptr<SessionService> service, ProcessorConfig config, QObject *parent = nullptr);
    ~Processor() override;

    [[nodiscard]] const ProcessorConfig &config() const { return m_config; }
    /// The configuration for sessions in @p directory: config() with the project's files applied
    /// (ProcessorConfig::loadProject), read now.
    [[nodiscard]] Result<ProcessorConfig> configFor(const QString &directory) const;
    [[nodiscard]] SessionService *service() const { return m_service.get(); }

    /// Decides how @p request would run, without writing anything: its session, its project's
    /// configuration, its command, agent and model. An error for a read-only store, an unknown
    /// session, command or agent, or a directory not yet accepted; a model that cannot be
    /// resolved is said in ResolvedPrompt::model. Its text is not looked at (prompt() does).
    [[nodiscard]] Result<ResolvedPrompt> checkPrompt(const PromptRequest &request) const;
    /// Starts @p prompt (from checkPrompt()) on a worker thread. Returns the session ID (a new
    /// session when the request names none), or an error when the session is busy, the text
    /// empty or the model named cannot be resolved.
    Result<QString> prompt(ResolvedPrompt prompt);
    /// checkPrompt(), then prompt().
    Result<QString> prompt(const PromptRequest &request);
    /// Stops the session's run: the stream stops, running tools are cancelled, the message is
    /// completed with MessageAbortedError. An aborted compaction leaves the session as it was.
    void abort(const QString &sessionID);
    /// Steers the prompt @p sessionID runs (PromptDelivery::Steer): @p text becomes a user
    /// message once its current step has ended, and the loop answers it, going on where it would
    /// have stopped. False, and nothing done, when the session runs no prompt (idle, or a
    /// compaction). Text that arrives too late for the loop (it has ended meanwhile) comes back
    /// through steersNotDelivered().
    bool steer(const QString &sessionID, const QString &text);

    // ---- compaction (see model/compaction/compaction.h)
    /// The compaction settings: the config's `compaction` object and the environment, read now.
    [[nodiscard]] Result<Compaction::Settings> compactionSettings() const;
    /// Summarises the session on a worker thread, like prompt(): prune first (unless disabled),
    /// then a user message with a `compaction{auto}` part and an assistant message with
    /// `summary: true`, mode and agent "compaction", streamed from the model with the summary
    /// prompt and no tools; `time.compacting` is set on the session meanwhile. Emits
    /// busyChanged(true), compactionStarted, compactionFinished, busyChanged(false), finished.
    /// A compaction that fails, is aborted or (summary-tail) would not make the context smaller
    /// leaves the session as it was (its prune is undone too) and reports session.error.
    /// Returns the session ID, or an error when the session is busy, unknown or read-only, or
    /// the settings are invalid.
    Result<QString> compact(const QString &sessionID, const CompactOptions &options = {});
    /// compact() of @p session as the caller has it (not read again: no store read on the
    /// calling thread).
    Result<QString> compact(const Session &session, const CompactOptions &options = {});
    /// What compact() would do, without changing anything: messages summarised and kept, tool
    /// outputs pruned, tokens before and after, the model. Reads the store on the calling thread.
    [[nodiscard]] Result<Compaction::Preview> previewCompaction(const QString &sessionID, const CompactOptions &options = {}) const;
    /// OpenCode's prune on the calling thread (a dry run with @p dryRun). Refused while the
    /// session is busy; with pruning disabled, returns the plan with enabled = false and changes
    /// nothing.
    Result<Compaction::PrunePlan> prune(const QString &sessionID, bool dryRun = false);
    /// Removes the last compaction (its marker, summary and synthetic continue message) when
    /// nothing was added after it. Refused while the session is busy.
    Result<Compaction::UndoPlan> undoCompaction(const QString &sessionID);
    /// Whether undoCompaction() would succeed now (the error says why not).
    [[nodiscard]] Result<Compaction::UndoPlan> canUndoCompaction(const QString &sessionID) const;
    /// The model a compaction of @p sessionID would use.
    [[nodiscard]] Result<ResolvedModel> compactionModel(const QString &sessionID, const QString &requested = {}) const;
    void abortAll();
    [[nodiscard]] bool isBusy(const QString &sessionID) const;
    [[nodiscard]] QStringList busySessions() const;
    void answerPermission(const QString &requestID, PermissionReply reply);
    /// Answers question @p requestID of the question tool (questionAsked()): for each of its
    /// questions the labels chosen or the user's own text. False when it is not waiting.
    bool answerQuestion(const QString &requestID, const QList<QStringList> &answers);
    /// Dismisses question @p requestID: the tool fails with "The user dismissed this question"
    /// and the run ends after the step, as in OpenCode. False when it is not waiting.
    bool rejectQuestion(const QString &requestID);
    /// Waits (blocking, without processing events) until the runs' threads have ended, at most
    /// @p timeoutMs, and ends them here (busyChanged(), finished()); true when idle. For after
    /// abortAll().
    bool waitForIdle(int timeoutMs = 30000);

Q_SIGNALS:
    void busyChanged(const QString &sessionID, bool busy);
    void retrying(const QString &sessionID, int attempt, qint64 delayMs, const weft::MessageError &error);
    void permissionRequested(const weft::PermissionRequest &request);
    /// A run ended: @p ok is false when it ended with an error (also announced as session.error).
    /// Emitted for compact() runs too.
    void finished(const QString &sessionID, bool ok, const weft::MessageError &error);
    /// A compaction began: a manual one (compact()) or an automatic one inside a prompt run
    /// (the context overflowed). The summary then streams through the SessionService's signals.
    void compactionStarted(const QString &sessionID, bool automatic);
    /// A compaction ended. On success SessionService::sessionCompacted was emitted before; on
    /// failure the session was left as it was and @p error says why.
    void compactionFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    /// The question tool asks the user (ProcessorConfig::questions), in the shape of an OpenCode
    /// server's `question.asked`: `{id, sessionID, questions: [{question, header, options:
    /// [{label, description}], multiple}], tool: {messageID, callID}}`. The run waits for
    /// answerQuestion() or rejectQuestion(). One question at a time per run.
    void questionAsked(const weft::JsonObject &request);
    /// Question @p requestID is not waiting any more: answered, dismissed, or its run stopped.
    void questionClosed(const QString &sessionID, const QString &requestID);
    /// Steered @p texts that the run of @p sessionID could no longer take (its loop had ended,
    /// failed or was stopped): emitted before finished(), for the caller to send them next.
    void steersNotDelivered(const QString &sessionID, const QStringList &texts);

private:
    struct Running {
        QThread *thread = nullptr;
        QPointer<SessionRun> run;
        std::shared_ptr<std::atomic_bool> abortFlag;
        /// This process's claim on the session (released when the run has ended).
        std::shared_ptr<SessionLock> lock;
        /// Messages steered into it (none for a compaction).
        std::shared_ptr<SteerInbox> steers;
    };
    /// The run's thread has ended (its run was done): deletes both, releases the session and
    /// says so. Nothing when waitForIdle() did it already.
    void endRun(const QString &sessionID);
    /// A run of @p request with what the runs share (the service, permissions, reads, questions).
    SessionRun *newRun(ProcessorConfig config, PromptRequest request, Session session);
    Result<QString> start(SessionRun *run, const QString &sessionID);

    std::shared_ptr<SessionService> m_service;
    ProcessorConfig m_config;
    mutable QMutex m_mutex;
    QHash<QString, Running> m_running;
    /// The rules' and the user's answers; remembers "always" per session (OpenCode keeps them
    /// for the session). Shared with the runs.
    std::shared_ptr<PermissionGate> m_permissions;
    /// What each session has read, for the edit tools; kept across runs (turns).
    std::shared_ptr<FileTimes> m_fileTimes = std::make_shared<FileTimes>();
    /// The question tool's questions waiting for the user. Shared with the runs.
    std::shared_ptr<PendingReplies<QuestionReply>> m_questions = std::make_shared<PendingReplies<QuestionReply>>();
};

/// OpenCode's retry delay: retry-after(-ms) when the server sent it, else initial * 2^(attempt-1)
/// capped at @p maxMs.
[[nodiscard]] qint64 retryDelay(int attempt, std::optional<qint64> retryAfterMs, qint64 initialMs, qint64 maxMs);

/// A title from a model's answer: first non-empty line, without quotes or trailing dots, at most
/// 50 characters. Empty when nothing usable is left.
[[nodiscard]] QString cleanTitle(const QString &answer);

} // namespace weft
