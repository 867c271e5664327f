// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/compactionpreview.h"
#include "core/json.h"
#include "core/mcpserver.h"
#include "core/permissionrequest.h"
#include "core/prompt.h"
#include "core/result.h"
#include "core/revertplan.h"
#include "core/searchhit.h"
#include "core/storeinfo.h"
#include "core/types.h"
#include "worktree/worktrees.h"

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>
#include <optional>
#include <type_traits>

class QFileSystemWatcher;
class QThreadPool;
class QTimer;

namespace weft
{

class DiffDocument;
class OpencodeSource;
class Processor;
class ProviderFactory;
class SearchIndex;
class ServerClient;
class ServerSource;
class SessionService;
struct ProcessorSetup;
struct ResolvedPrompt;
namespace Compaction
{
struct Settings;
}

/// A new session of Weft's own store: in @c directory, or in a new git worktree of its repository.
struct NewSessionRequest {
    QString directory;
    /// Empty: identified from the directory as OpenCode does.
    QString projectID;
    /// Empty: "New session - <ISO time>".
    QString title;
    /// A worktree to make (Worktrees::create()) for the session to work in, instead of @c directory.
    std::optional<Worktrees::CreateOptions> worktree;
    /// Run the repository's setup script in the new worktree (SessionWorktree::setupScript()).
    bool runSetup = true;
};

/// What Weft does with sessions, without widgets: the window, the command line and the tests
/// drive it alike.
///
/// The controller owns the Processor made from a ProcessorSetup (its `ask` permissions are
/// asked: permissionRequested(), then answerPermission()), runs prompts, Stop and compactions,
/// keeps the pending permission questions, the result of each session's last compaction and
/// undoes it, forks, copies OpenCode's sessions into Weft and brings reverted messages back off
/// the GUI thread (forked(), imported(), revertChanged(), or failed()), creates sessions, in a new
/// git worktree when asked, and does what the window does with those worktrees (createSession(),
/// worktreeOf(), applyWorktree(), ...), and holds the search index and OpenCode's data folder as a
/// second source (openSources()).
///
/// It says nothing in words: its results are values and signals, the window words them.
class SessionController : public QObject
{
    Q_OBJECT

public:
    /// The work off the GUI thread that can fail (failed()).
    enum class Operation {
        Fork,
        Import,
        UndoCompaction,
        Revert,
        Unrevert,
        Connect, ///< connecting to an OpenCode server (the sessionID is empty)
        ServerRequest, ///< a prompt, Stop, compaction, revert, delete or answer sent to a server
    };
    Q_ENUM(Operation)

    /// The outcome of prompt(): sent, or why not, with what the window needs to say it.
    struct PromptResult
    {
        enum class Status {
            Sent,
            Steered, ///< the session runs: the prompt goes into its run at the next step
            Queued, ///< the session runs: the prompt waits for the run to end (queuedPrompts())
            NotRunnable, ///< no processor, no session, or a read-only store
            NoModel, ///< no model given and none configured
            UnknownModel, ///< the model cannot be resolved (@c error says why)
            NoApiKey, ///< the model's provider needs a key and has none (@c env names it)
            Failed, ///< the processor refused (@c error says why)
        };
        Status status = Status::Sent;
        QString sessionID; ///< the session a sent prompt runs in
        QString error; ///< the resolver's or the processor's message
        QString providerID; ///< NoApiKey: the provider
        /// The model it runs with, "provider/model" (UnknownModel: the one named; NoModel: empty).
        QString model;
        QStringList env; ///< NoApiKey: the variables that give the key
        /// What the context meter shows of that model: its context (0: unknown) and the tokens
        /// in context at which its session compacts itself (0: never, or unknown).
        qint64 contextLimit = 0;
        qint64 compactAt = 0;
        [[nodiscard]] bool ok() const
        {
            return status == Status::Sent || status == Status::Steered || status == Status::Queued;
        }
    };

    /// Tokens in context before and after a compaction (from its preview).
    struct CompactionTokens
    {
        qint64 before = 0;
        qint64 after = 0;
    };

    /// Runs sessions of @p service with a processor made from @p setup (processor/setup.h: the
    /// composition root, app/window.cpp, makes it); its `ask` permissions are always asked
    /// (Interactive), its data dir defaults to @p dataDir.
    SessionController(std::shared_ptr<SessionService> service, const QString &dataDir, ProcessorSetup setup,
                      QObject *parent = nullptr);
    /// Ends the search index and OpenCode's source, waits for the work off the GUI thread, then
    /// stops the processor's runs.
    ~SessionController() override;

    [[nodiscard]] SessionService *service() const { return m_service.get(); }
    [[nodiscard]] const std::shared_ptr<SessionService> &sharedService() const { return m_service; }
    /// Runs @p work (a callable taking SessionService &) with Weft's own service off the GUI
    /// thread, on the pool the controller waits for when it goes: what holds a service must not
    /// let go of it on a pool thread after the window closed (its watchers are the GUI thread's).
    template<typename Work>
    [[nodiscard]] auto withService(Work work) -> QFuture<std::invoke_result_t<Work, SessionService &>>
    {
        return QtConcurrent::run(m_servicePool, [service = m_service, work = std::move(work)] { return work(*service); });
    }
    [[nodiscard]] QString dataDir() const { return m_dataDir; }
    /// The store's problems (damaged files it skipped).
    [[nodiscard]] QList<StoreProblem> problems() const;

    // ---- the processor
    /// The processor itself, for the command line and the tests (the views ask the controller).
    [[nodiscard]] Processor *processor() const { return m_processor.get(); }
    /// The config file the processor was set up from (the default path without one).
    [[nodiscard]] QString configPath() const { return m_configPath; }
    /// The configured default model ("provider/model"), empty when none is.
    [[nodiscard]] QString defaultModel() const;
    /// Replaces the processor with one made from @p setup (after the config changed). Refused
    /// (false) while a session runs. processorChanged() follows.
    bool setProcessorSetup(ProcessorSetup setup);
    /// The default model, the models the config names, then the catalogue's models of every
    /// provider with a key.
    [[nodiscard]] QStringList availableModels() const;
    /// The primary agents that are not hidden.
    [[nodiscard]] QStringList agents() const;
    /// What the composer offers for a session of Weft's store: the primary agents and the
    /// commands of its directory's configuration (the project's .opencode folder adds its own),
    /// the resources of its MCP servers, or the error that keeps that configuration from being
    /// used.
    struct ProjectChoices {
        /// A command `/name` runs: the config's, a .opencode/command file's or an MCP server's
        /// prompt (its arguments, in their order).
        struct Command
        {
            QString name;
            QString description;
            QStringList mcpArguments;
        };
        QStringList agents;
        /// An OpenCode 2 server's models ("provider/model") and its default; empty: the
        /// composer keeps Weft's.
        QStringList models;
        QString defaultModel;
        QList<Command> commands;
        QList<McpResourceInfo> resources;
        QString error;
    };
    /// Read off the GUI thread (it reads the project's files and asks git for its root); the
    /// project's MCP servers are started (the prompts of those connected are commands).
    [[nodiscard]] QFuture<ProjectChoices> projectChoices(const QString &sessionID);

    // ---- runs
    /// Whether @p sessionID of Weft's store can be run (a processor, a writable store).
    [[nodiscard]] bool isRunnable(const QString &sessionID) const;
    [[nodiscard]] bool isBusy(const QString &sessionID) const;
    /// The process that runs @p sessionID of Weft's store when that is another one (a `weft run`,
    /// another window): the session is followed live here, and not run until that ends.
    [[nodiscard]] std::optional<RunHolder> runningElsewhere(const QString &sessionID) const;
    [[nodiscard]] QStringList sessionsRunningElsewhere() const { return m_elsewhere.keys(); }
    [[nodiscard]] QStringList busySessions() const;
    /// The sessions this process runs (a server's run there): what quitting stops.
    [[nodiscard]] QStringList runningHere() const;
    /// Stops the runs of this process and waits for them to end (before quitting).
    void stopRunsHere();
    /// Decides, once, whether and how @p request would run: the session can be run here (not
    /// read-only, not busy elsewhere), its project's configuration, command, agent and model
    /// (Processor::checkPrompt()), and a key for the model's provider. Status Sent: it would be
    /// sent, @c resolved says how. A server's session runs with the server's config: only the
    /// model is resolved (against Weft's), for the context meter. Its text is not looked at.
    [[nodiscard]] PromptResult checkPrompt(const PromptRequest &request) const;
    /// checkPrompt(), then starts the run with @p attachments (refused for a server's session:
    /// its files are on the server). While the session runs, @p delivery decides: steered into
    /// the run (Weft's own runs and OpenCode 2 servers'; a prompt with attachments, or one an
    /// OpenCode 1.x server cannot steer, is queued instead), or queued (Default too) in Weft, to
    /// be sent when the run has ended.
    PromptResult prompt(const QString &sessionID, const QString &text, const QString &agent, const QString &model,
                        const QList<PromptAttachment> &attachments = {},
                        PromptDelivery delivery = PromptDelivery::Queue);

    // ---- the queue: prompts waiting for their session's run to end
    struct QueuedPrompt {
        quint64 id = 0; ///< unique in this controller
        QString text;
        QString agent;
        QString model;
        QList<PromptAttachment> attachments;
        bool operator==(const QueuedPrompt &) const = default;
    };
    /// The prompts waiting for @p sessionID, the next first. The next goes when a run of the
    /// session ends well; after a run that failed or was stopped they wait (sendQueuedNow()).
    [[nodiscard]] QList<QueuedPrompt> queuedPrompts(const QString &sessionID) const;
    bool editQueued(const QString &sessionID, quint64 id, const QString &text);
    /// Moves queued prompt @p id to @p position (0: next).
    bool moveQueued(const QString &sessionID, quint64 id, qsizetype position);
    bool removeQueued(const QString &sessionID, quint64 id);
    /// Sends the next queued prompt of @p sessionID now, when it does not run; its result (a
    /// prompt that cannot be sent stays first in the queue).
    PromptResult sendQueuedNow(const QString &sessionID);
    /// Stops the run of @p sessionID (a prompt or a compaction).
    void stop(const QString &sessionID);

    // ---- compaction
    /// What compacting @p sessionID would do, read off the GUI thread.
    [[nodiscard]] QFuture<Result<CompactionPreview>> previewCompaction(const QString &sessionID);
    /// Starts a compaction of @p sessionID; @p preview, when given, is kept as its result
    /// (compactionResult()) unless it fails. The summary streams as compactionSummaryChanged().
    Result<QString> compact(const QString &sessionID, const std::optional<CompactionPreview> &preview = {});
    /// The tokens of @p sessionID's last compaction started here, while it stands.
    [[nodiscard]] std::optional<CompactionTokens> compactionResult(const QString &sessionID) const;
    /// Whether the last compaction of @p sessionID can be undone, from the store.
    [[nodiscard]] bool canUndoCompaction(const QString &sessionID) const;
    /// The same from the last rows of the session (its marker, the summary and perhaps the
    /// synthetic "Continue" message): what a view that holds them answers without reading.
    [[nodiscard]] bool canUndoCompaction(const QString &sessionID, const QList<MessageWithParts> &tail) const;
    /// Undoes the last compaction off the GUI thread: compactionUndone() or failed().
    void undoCompaction(const QString &sessionID);

    // ---- permissions
    /// The questions waiting for an answer, oldest first.
    [[nodiscard]] QList<PermissionRequest> pendingPermissions() const;
    [[nodiscard]] std::optional<PermissionRequest> pendingPermission(const QString &requestID) const;
    /// Answers a pending question (false when it is not pending any more): permissionClosed().
    bool answerPermission(const QString &requestID, PermissionReply reply);
    /// Whether @p sessionID is @p rootID or one of its (subagent) descendants.
    [[nodiscard]] bool isWithin(const QString &sessionID, const QString &rootID) const;
    /// How sessions are looked up for isWithin() (a model that holds them; default: the service).
    void setSessionLookup(std::function<std::optional<Session>(const QString &sessionID)> lookup)
    {
        m_lookup = std::move(lookup);
    }

    // ---- fork, import, revert, and the other operations on a session
    // Each goes to the server for a server's session (serverOf()) and to Weft's own engine for
    // the others; those that change a session refuse one that runs (isBusy()).
    /// Forks @p sessionID before @p messageID (see SessionService::fork) off the GUI thread.
    void fork(const QString &sessionID, const QString &messageID = {});
    /// What reverting @p sessionID to before @p messageID would do to the files (those written
    /// back, those deleted) or why it is refused (Revert::plan()), read off the GUI thread. A
    /// server's session: an empty plan (the server keeps its files and its snapshots).
    [[nodiscard]] QFuture<Result<RevertPlan>> planRevert(const QString &sessionID, const QString &messageID);
    /// Reverts @p sessionID to before @p messageID (or @p partID of it): the files go back from
    /// the snapshots off the GUI thread, or the server does it. revertChanged() or failed(Revert)
    /// follows. False (nothing done) when the session cannot be run or is busy.
    bool revert(const QString &sessionID, const QString &messageID, const QString &partID = {});
    /// Where the file @p file of a diff of a session in @p directory is on disk (FileRevert::resolve()
    /// against the project's work tree, which git tells): read off the GUI thread.
    [[nodiscard]] QFuture<Result<QString>> locateFile(const QString &directory, const QString &file);
    /// Puts the file at @p absolutePath (of @p sessionID's changes) back to the "before" side of
    /// @p document (FileRevert::revert) off the GUI thread. Refused for a session that cannot be
    /// run here (a read-only store, a server's: its files are there) or is busy.
    [[nodiscard]] QFuture<Result<void>> revertFile(const QString &sessionID, std::shared_ptr<const DiffDocument> document,
                                                   const QString &absolutePath);
    // Each of these reads the session and writes it off the calling thread (a window's GUI thread
    // must not wait for the disk or a server); the refusal of a session that runs is at once.
    /// Renames @p sessionID (refused while it runs).
    [[nodiscard]] QFuture<Result<Session>> rename(const QString &sessionID, const QString &title);
    /// Archives @p sessionID or brings it back to the list (refused while it runs).
    [[nodiscard]] QFuture<Result<Session>> setArchived(const QString &sessionID, bool archived);
    /// Deletes @p sessionID of Weft's store, with its subagent sessions, into the trash
    /// (StoreCapability::Trash), refused while it runs.
    [[nodiscard]] QFuture<Result<TrashEntry>> moveToTrash(const QString &sessionID);
    /// Deletes @p sessionID for good: on its server, or from Weft's store (refused while it runs).
    /// A server's refusal comes as failed(ServerRequest).
    [[nodiscard]] QFuture<Result<void>> remove(const QString &sessionID);
    /// Copies @p sessionID of OpenCode's source into Weft's store off the GUI thread. False
    /// (nothing done) without an open source or with a read-only store.
    bool importSession(const QString &sessionID);
    /// Brings back the reverted messages of @p sessionID (files from the snapshots) off the GUI
    /// thread, or asks its server: revertChanged() or failed(Unrevert). False when it cannot run
    /// now (not runnable, busy).
    bool unrevert(const QString &sessionID);
    /// Writes the export document of @p sessionID of @p source (see serviceFor()) to @p path, off
    /// the GUI thread; the file appears, whole, only when all of it is written.
    [[nodiscard]] QFuture<Result<void>> exportSession(const QString &sessionID, const QString &path,
                                                      const QString &source = {}) const;

    // ---- sessions in git worktrees (sessioncontrollerworktrees.cpp)
    /// Creates a session off the GUI thread: with a worktree, the worktree is made first (git),
    /// then the repository's setup script runs in it when asked; the session works there.
    [[nodiscard]] QFuture<Result<Session>> createSession(const NewSessionRequest &request);
    /// The linked worktree that holds @p sessionID's folder, read off the GUI thread; an error
    /// when none does (the main checkout, no repository). A server's session: the server's
    /// worktree (ServerSource::worktreeOf()), where the server has them.
    [[nodiscard]] QFuture<Result<Worktree>> worktreeOf(const QString &sessionID);
    /// The repository of a folder as New Session shows it: where its worktrees go by default and
    /// its setup script (empty: none).
    struct WorktreeRepository {
        QString mainPath;
        QString defaultParent;
        QString setupScript;
    };
    /// Read off the GUI thread; an error when @p directory is in no git repository.
    [[nodiscard]] QFuture<Result<WorktreeRepository>> worktreeRepository(const QString &directory);
    /// The branch of each of @p directories that a linked worktree holds (the others are left
    /// out), read off the GUI thread: what the sidebar and the board show.
    [[nodiscard]] QFuture<QHash<QString, QString>> worktreeBranches(const QStringList &directories);
    /// What a worktree holds that its base does not, as the apply dialog shows it.
    struct WorktreeChanges {
        /// Its commits since its base, the newest first.
        QList<WorktreeCommit> commits;
        /// Everything it changed since its base, uncommitted changes included, file by file.
        QList<FileDiff> files;
        /// Its files changed and not committed (Worktrees::status()).
        QStringList uncommitted;
        /// The main checkout's folder and branch (what applying changes).
        QString mainPath;
        QString mainBranch;
        /// The main checkout has uncommitted changes (Merge and Rebase refuse then).
        bool mainDirty = false;
    };
    /// Read off the GUI thread.
    [[nodiscard]] QFuture<Result<WorktreeChanges>> worktreeChanges(const Worktree &worktree);
    /// Brings @p worktree's work into the main checkout off the GUI thread (Worktrees::apply()).
    [[nodiscard]] QFuture<Result<ApplyResult>> applyWorktree(const Worktree &worktree, ApplyMode mode);
    /// Commits everything @p worktree holds with @p message off the GUI thread: the new commit.
    [[nodiscard]] QFuture<Result<QString>> commitWorktree(const Worktree &worktree, const QString &message);
    /// A commit message for what @p worktree holds, asked of @p sessionID's model (its last
    /// reply's, else the default) in one call without tools: a subject line, a blank line and
    /// a short body. The worktree's changes are read off the GUI thread; the model's answer streams
    /// on it.
    [[nodiscard]] QFuture<Result<QString>> proposeCommitMessage(const QString &sessionID, const Worktree &worktree);
    /// Removes @p worktree's folder off the GUI thread; refused while it has uncommitted changes
    /// unless @p force. Its branch stays.
    [[nodiscard]] QFuture<Result<void>> removeWorktree(const Worktree &worktree, bool force);
    /// Gives session @p sessionID (a fork of a session in @p from) a worktree of its own: @p options
    /// made from @p from's HEAD with its uncommitted changes (SessionWorktree::fork()), and the
    /// session's folder moved there. Off the GUI thread; refused while the session runs.
    [[nodiscard]] QFuture<Result<Session>> forkWorktree(const QString &sessionID, const Worktree &from,
                                                        const Worktrees::CreateOptions &options);

    // ---- OpenCode servers
    /// Connects to the OpenCode server of @p client (again, when it is a source already) and
    /// shows its sessions as a source: serverAdded(), then the source's ready().
    ServerSource *addServer(const ServerClient &client);
    /// Closes and forgets the server source @p key.
    void removeServer(const QString &key);
    [[nodiscard]] QList<ServerSource *> servers() const { return m_servers; }
    [[nodiscard]] ServerSource *server(const QString &key) const;
    /// The server whose session @p sessionID is, or null (Weft's own, OpenCode's folder). Runs,
    /// Stop, fork, compaction, revert and permission answers of its sessions go to it.
    [[nodiscard]] ServerSource *serverOf(const QString &sessionID) const;
    /// The source key of @p sessionID: a server's, or empty for Weft's own store.
    [[nodiscard]] QString sourceOf(const QString &sessionID) const;
    /// Answers question @p requestID of the `question` tool, on the server that asked it or to
    /// Weft's own run: for each of its questions, the labels chosen. False when no one waits for it.
    bool answerQuestion(const QString &requestID, const QList<QStringList> &answers);
    bool rejectQuestion(const QString &requestID);

    // ---- sources and search
    /// Opens the search index beside Weft's data (never in OpenCode's folder) and makes the
    /// source of OpenCode's sessions (closed until opened).
    void openSources();
    /// Closes both (before the services they follow go).
    void closeSources();
    /// The index itself, for the command line and the tests (the views search with search()).
    [[nodiscard]] SearchIndex *searchIndex() const { return m_searchIndex; }
    /// Whether the search index is open (openSources() opened it).
    [[nodiscard]] bool canSearch() const;
    /// Settings › Search: what the index covers, from the settings. setSearchLimits() saves and
    /// applies them: off closes the index (its file is kept), on opens it, other changes sync it.
    [[nodiscard]] static SearchLimits searchLimits();
    void setSearchLimits(const SearchLimits &limits);
    /// The index's background sync waits while a reason is set ("typing"); a running session
    /// pauses it by itself (busyChanged).
    void pauseIndexing(const QString &reason);
    void resumeIndexing(const QString &reason);
    /// Whether @p query has words to look for (SearchIndex::ftsQuery()).
    [[nodiscard]] static bool isSearchQuery(const QString &query);
    using Searcher = std::function<Result<QList<SearchHit>>(const QString &query, const SearchOptions &options)>;
    /// Searches every source of the open index (SearchIndex::search()); callable off the GUI
    /// thread while the sources stay open.
    [[nodiscard]] Searcher searcher() const;
    /// The documents a message and its parts give the index: what "find in this session" looks
    /// in too, so that both find the same.
    [[nodiscard]] static QList<SearchDocument> searchDocuments(const Message &message, const QList<Part> &parts);
    [[nodiscard]] OpencodeSource *opencodeSource() const { return m_opencode; }
    /// Whether @p source is one the controller has now: Weft's own (empty), OpenCode's folder or
    /// database, a connected server (serviceFor() answers Weft's own service for any other).
    [[nodiscard]] bool hasSource(const QString &source) const;
    /// The service of @p source: OpenCode's or a server's when @p source is its key, else Weft's.
    [[nodiscard]] SessionService *serviceFor(const QString &source) const;
    /// The search index's key of Weft's own store.
    [[nodiscard]] QString primarySourceKey() const;
    /// Who wrote the message of a search hit, read from the stores (thread-safe: callable off
    /// the GUI thread).
    [[nodiscard]] std::function<std::optional<Message::Role>(const SearchHit &)> roleResolver() const;

Q_SIGNALS:
    void processorChanged();
    void busyChanged(const QString &sessionID, bool busy);
    /// Another process started or stopped running @p sessionID (runningElsewhere()).
    void runningElsewhereChanged(const QString &sessionID, bool running);
    /// Runs that died were closed: at the start (JsonStore::recovery()), or when a process that
    /// was running a session ended without finishing it.
    void interruptedRunsClosed(int runs, const QStringList &sessions);
    void retrying(const QString &sessionID, int attempt, qint64 delayMs, const weft::MessageError &error);
    /// A run ended (prompt or compaction); see Processor::finished.
    void runFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    /// The queued prompts of @p sessionID changed (queued, edited, moved, removed or sent).
    void queueChanged(const QString &sessionID);
    void compactionStarted(const QString &sessionID, bool automatic);
    void compactionFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    /// The summary of a compaction started with compact() grew.
    void compactionSummaryChanged(const QString &sessionID, const QString &text);
    void compactionUndone(const QString &sessionID);
    /// A question is pending (pendingPermissions()).
    void permissionRequested(const weft::PermissionRequest &request);
    /// A question is not pending any more: answered, or its run ended.
    void permissionClosed(const weft::PermissionRequest &request);
    /// A fork of @p sessionID finished: @p session is the new one.
    void forked(const QString &sessionID, const weft::Session &session);
    /// @p sessionID of OpenCode's source was copied into Weft as @p session.
    void imported(const QString &sessionID, const weft::Session &session);
    /// A revert or an unrevert of @p session finished (its revert() says which stands).
    void revertChanged(const weft::Session &session);
    /// An agent asks the user (the `question` tool): a server's (see ServerSource) or Weft's own
    /// (Processor::questionAsked), in the same shape.
    void questionAsked(const weft::JsonObject &request);
    void questionClosed(const QString &sessionID, const QString &requestID);
    /// The search index is catching up with a source: sessions @p done of @p total.
    void searchProgress(int done, int total);
    /// A server source was made (addServer()).
    void serverAdded(weft::ServerSource *server);
    /// @p operation on @p sessionID failed; @p error says why.
    void failed(weft::SessionController::Operation operation, const QString &sessionID, const QString &error);

private:
    void openSearchIndex();
    void closeSearchIndex();
    void setupProcessor(ProcessorSetup setup);
    /// checkPrompt(), and how the prompt would run (@p resolved) when it runs here.
    [[nodiscard]] PromptResult check(const PromptRequest &request, std::optional<ResolvedPrompt> &resolved) const;
    void onBusyChanged(const QString &sessionID, bool busy);
    void onCompactionFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    void dropPermissions(const QString &sessionID);
    /// Why @p sessionID cannot be changed now (busy, or run by another process), or nothing.
    [[nodiscard]] Result<void> checkIdle(const QString &sessionID) const;
    /// The service that holds @p sessionID: its server's, or Weft's (held by work off the GUI thread).
    [[nodiscard]] std::shared_ptr<SessionService> sharedServiceOf(const QString &sessionID) const;
    /// serviceFor(), held by work off the GUI thread.
    [[nodiscard]] std::shared_ptr<SessionService> sharedServiceFor(const QString &source) const;
    /// Reads which sessions other processes run (their lock files).
    void refreshElsewhere();

    std::shared_ptr<SessionService> m_service;
    QString m_dataDir;
    std::unique_ptr<Processor> m_processor;
    std::shared_ptr<const ProviderFactory> m_factory;
    QString m_configPath;
    std::unique_ptr<const Compaction::Settings> m_compactionSettings; // of the config (the context meter's)
    QThreadPool *m_pool = nullptr; // work off the GUI thread that uses the processor (previews, undo)
    /// Work off the GUI thread that holds one of the sessions' services (rename, fork, worktrees
    /// and their setup scripts, ...). The controller waits for it when it goes: a service's last
    /// reference must not go on a pool thread (its watchers belong to the GUI thread), which the
    /// global pool's work did after a window closed (a pane test then hung on a dead inotify fd).
    QThreadPool *m_servicePool = nullptr;
    QList<PermissionRequest> m_permissions; // pending questions, oldest first
    QHash<QString, CompactionTokens> m_compactionResults;
    QSet<QString> m_compacting; // sessions with a compact() running
    QHash<QString, QList<QueuedPrompt>> m_queues;
    quint64 m_nextQueuedID = 1;
    void enqueue(const QString &sessionID, QueuedPrompt prompt, bool first = false);
    /// A run of @p sessionID ended: runFinished(), then its next queued prompt when it went well.
    void onRunFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    QHash<QString, QString> m_summaries; // sessionID -> the summary message of its compaction
    std::function<std::optional<Session>(const QString &)> m_lookup;
    SearchIndex *m_searchIndex = nullptr;
    /// pauseIndexing()'s reasons not resumed yet: an index opened later starts paused by them.
    QSet<QString> m_indexingPauses;
    OpencodeSource *m_opencode = nullptr;
    QList<ServerSource *> m_servers;
    QHash<QString, RunHolder> m_elsewhere; // sessions other processes run
    QFileSystemWatcher *m_lockWatcher = nullptr; // the lock folder and its files
    QTimer *m_lockPoll = nullptr; // while sessions run elsewhere: their holders may die
};

} // namespace weft
