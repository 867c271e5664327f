// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/storeinfo.h"
#include "core/types.h"

#include <QFuture>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>
#include <optional>

namespace weft
{

class SessionTrash;
class Store;
class StoreWatcher;
struct StoreChange;

/// The one path for every change to session data: the GUI thread, the processor thread, file
/// watchers and importers all change sessions through this class, which writes the store and
/// announces the change with one signal (OpenCode's event bus: session.created, message.updated,
/// message.part.updated, ...).
///
/// All methods are thread-safe and may be called from any thread. Signals are emitted on the
/// calling thread; receivers in other threads get them queued (connect with a context object),
/// so models on the GUI thread can follow a processor on a worker thread.
class SessionService : public QObject, public std::enable_shared_from_this<SessionService>
{
    Q_OBJECT

public:
    explicit SessionService(std::shared_ptr<Store> store, QObject *parent = nullptr);
    ~SessionService() override;

    /// What the backend can do (writable, live, session files, importable).
    [[nodiscard]] StoreCapabilities capabilities() const;
    [[nodiscard]] bool has(StoreCapability capability) const { return capabilities().testFlag(capability); }
    [[nodiscard]] bool isReadOnly() const { return !has(StoreCapability::Writable); }
    /// The store's problems (damaged files it skipped), oldest first.
    [[nodiscard]] QList<StoreProblem> problems() const;
    /// What opening the store closed of runs that died (StoreCapability::RunRecovery).
    [[nodiscard]] InterruptedRuns recovery() const;
    /// Closes the runs that died since (StoreCapability::RunRecovery; Store::closeInterruptedRuns()).
    InterruptedRuns closeInterruptedRuns();

    /// The version written into new sessions (OpenCode writes its own release there).
    [[nodiscard]] static QString version();

    // ---- reads
    /// Every session of every project, newest `time.updated` first.
    [[nodiscard]] QList<Session> list() const;
    /// Root sessions only (no parentID), newest first: what `opencode session list` shows.
    [[nodiscard]] QList<Session> listRoots() const;
    [[nodiscard]] std::optional<Session> get(const QString &sessionID) const;
    [[nodiscard]] QList<Session> children(const QString &parentID) const;
    [[nodiscard]] QList<MessageWithParts> messages(const QString &sessionID) const;
    /// messages(), each made into bytes by @p map on the thread pool and handed to @p take in
    /// order while later ones are still read (Store::mapMessages()).
    void mapMessages(const QString &sessionID, const std::function<QByteArray(MessageWithParts &&message)> &map,
                     const std::function<void(QByteArray &&bytes)> &take) const;
    [[nodiscard]] QList<FileDiff> diff(const QString &sessionID) const;
    /// The session's todo list (what the todowrite tool wrote), in order.
    [[nodiscard]] QList<Todo> todos(const QString &sessionID) const;
    /// What a changes view shows: the session's info with its `session_diff`, or with the
    /// `summary.diffs` and the prompt of one turn.
    struct Changes {
        std::optional<Session> session;
        QList<FileDiff> diffs;
        QString prompt;
    };
    /// Reads the changes of @p sessionID (of the turn of user message @p turnID when set) off
    /// the calling thread, on Qt's global pool: a diff holds whole file contents.
    [[nodiscard]] QFuture<Changes> changes(const QString &sessionID, const QString &turnID = {}) const;
    /// The messages of @p sessionID with their parts, in order, except those in @p skip (what a
    /// view holds already and need not be read again), read off the calling thread.
    [[nodiscard]] QFuture<QList<MessageWithParts>> messagesLater(const QString &sessionID,
                                                                 const QSet<QString> &skip = {}) const;
    /// The prompt of a user message: its first text part that is not synthetic, simplified.
    [[nodiscard]] static QString promptOf(const QList<Part> &parts);
    /// The file that holds the session's info (StoreCapability::SessionFiles), else empty.
    [[nodiscard]] QString sessionFile(const QString &sessionID) const;

    // ---- session changes
    struct CreateOptions {
        QString directory;
        QString projectID;  ///< empty: identified from the directory as OpenCode does
        QString parentID;   ///< a child (subagent) session when set
        QString title;      ///< empty: "New session - <ISO time>" / "Child session - <ISO time>"
        QList<PermissionRule> permission;
        qint64 now = 0;     ///< creation time; 0: the current time
    };
    Result<Session> create(const CreateOptions &options);
    /// Read-modify-write of a session; sets time.updated unless @p touch is false.
    Result<Session> update(const QString &sessionID, const std::function<void(Session &)> &editor, bool touch = true);
    Result<Session> touch(const QString &sessionID);
    Result<Session> rename(const QString &sessionID, const QString &title);
    Result<Session> setArchived(const QString &sessionID, bool archived);
    /// Copies the messages of @p sessionID before @p messageID (all of them when empty) into a
    /// new session titled "<title> (fork #n)", with new IDs and remapped parent IDs.
    Result<Session> fork(const QString &sessionID, const QString &messageID = {});
    /// Removes a session with its children (recursively), messages, parts, diff and share.
    Result<void> remove(const QString &sessionID);

    // ---- imported sessions
    /// Weft's own note on a session that came from an import (a file someone sent, another
    /// store): kept in `<dataDir>/weft-imported/<sessionID>.json`, outside OpenCode's files.
    struct ImportNote {
        QString directory;   ///< the directory the session claimed when it was imported
        bool confirmed = false; ///< the user accepted that runs and reverts use @c directory
        qint64 time = 0;     ///< when it was imported (ms)
        QList<PermissionRule> dropped; ///< the session's permission rules the import dropped
    };
    /// The note of @p sessionID, or nullopt when it was not imported (or the store keeps no notes).
    [[nodiscard]] std::optional<ImportNote> importNote(const QString &sessionID) const;
    /// Writes the note of an imported session; refused when the store cannot keep one (only
    /// Weft's JSON store can).
    Result<void> writeImportNote(const QString &sessionID, const ImportNote &note);
    /// The user accepts that runs and reverts of the imported @p sessionID use its directory.
    Result<void> confirmImportedDirectory(const QString &sessionID);
    /// Refuses a session whose directory comes from an import the user has not confirmed yet
    /// (or that changed since): what a run or a revert checks before it touches the directory.
    [[nodiscard]] Result<void> checkDirectoryConfirmed(const QString &sessionID) const;
    /// confirmImportedDirectory() and checkDirectoryConfirmed() for @p session as the caller
    /// holds it (a window's list): the session is not read again, so a window may ask on its GUI
    /// thread (only the import note is read).
    Result<void> confirmImportedDirectory(const Session &session);
    [[nodiscard]] Result<void> checkDirectoryConfirmed(const Session &session) const;

    // ---- the trash (StoreCapability::Trash)
    /// Moves a session with its children (recursively) and all their files to the store's
    /// trash, where it can be restored for 30 days; announces sessionDeleted for each, children
    /// first, exactly as remove() does.
    Result<TrashEntry> moveToTrash(const QString &sessionID);
    /// The trash's entries, newest first (none without StoreCapability::Trash).
    [[nodiscard]] QList<TrashEntry> trashEntries() const;
    /// Moves the sessions of the trash entry @p entryID back, byte for byte, and announces them
    /// (sessionCreated, the deleted session first); gives the deleted session. Refuses when a
    /// session with one of their IDs exists again.
    Result<Session> restoreFromTrash(const QString &entryID);
    /// Deletes a trash entry for good.
    Result<void> deleteFromTrash(const QString &entryID);
    /// Deletes every trash entry for good.
    Result<void> emptyTrash();
    /// The same four off the calling thread, on Qt's global pool, as a window calls them: the work
    /// holds the service until it is done. For a service a std::shared_ptr owns (else they fail).
    [[nodiscard]] QFuture<QList<TrashEntry>> trashEntriesLater() const;
    [[nodiscard]] QFuture<Result<Session>> restoreFromTrashLater(const QString &entryID);
    [[nodiscard]] QFuture<Result<void>> deleteFromTrashLater(const QString &entryID);
    [[nodiscard]] QFuture<Result<void>> emptyTrashLater();
    /// Deletes the trash entries older than 30 days at @p now (ms; 0: the current time); gives
    /// how many. The window calls it when it starts.
    int purgeTrash(qint64 now = 0);
    Result<void> setDiff(const QString &sessionID, const QList<FileDiff> &diffs);
    /// Replaces the session's todo list and announces it (todosChanged).
    Result<void> setTodos(const QString &sessionID, const QList<Todo> &todos);

    // ---- message and part changes
    Result<Message> updateMessage(const Message &message);
    Result<void> removeMessage(const QString &sessionID, const QString &messageID);
    /// Writes @p part; @p delta is the text appended since the last update (for live views).
    Result<Part> updatePart(const Part &part, const QString &delta = {});
    Result<void> removePart(const QString &sessionID, const QString &messageID, const QString &partID);
    /// Writes a part of a streaming reply without announcing it (and without waiting for the
    /// disk): the processor announces coalesced deltas with announcePart() at most every few
    /// milliseconds, so that a fast stream does not flood the GUI thread.
    Result<void> storeStreamingPart(const Part &part, const QString &delta = {});
    /// Emits partUpdated for a part already stored.
    void announcePart(const Part &part, const QString &delta);

    // ---- changes made by other processes (StoreCapability::Live)
    /// Starts following what other processes write to the store, with the watcher the store
    /// makes (nothing happens for a store without StoreCapability::Live). What it finds is
    /// announced with the signals below, exactly like the service's own changes; the store's own
    /// writes never come back. watchingStarted() says when the state at the start is known.
    /// Call on the service's thread.
    void startWatching();
    /// Follows with @p watcher instead of the store's own (the service takes it over).
    void startWatching(StoreWatcher *watcher);
    void stopWatching();
    [[nodiscard]] StoreWatcher *watcher() const;
    /// The session a view shows and its newest messages: a backend that cannot follow the whole
    /// store cheaply (JSON files) follows these. Starts watching when it has not started yet.
    /// The last call wins: one session is followed at a time.
    void followSession(const QString &sessionID, const QStringList &recentMessageIDs = {});

    /// Announces an error of a session (session.error), for example a failed prompt.
    void reportError(const QString &sessionID, const MessageError &error);
    /// Announces a completed compaction (session.compacted).
    void announceCompacted(const QString &sessionID);

    /// The title of a fork of a session titled @p title: "<title> (fork #1)", "(fork #n+1)".
    [[nodiscard]] static QString forkedTitle(const QString &title);
    /// A readable two-word slug like OpenCode's ("curious-planet").
    [[nodiscard]] static QString makeSlug();

Q_SIGNALS:
    void sessionCreated(const weft::Session &session);
    void sessionUpdated(const weft::Session &session);
    void sessionDeleted(const weft::Session &session);
    void sessionDiffChanged(const QString &sessionID, const QList<weft::FileDiff> &diffs);
    /// The todo list of @p sessionID was replaced (OpenCode's todo.updated).
    void todosChanged(const QString &sessionID, const QList<weft::Todo> &todos);
    void sessionError(const QString &sessionID, const weft::MessageError &error);
    void sessionCompacted(const QString &sessionID);
    /// Another process changed @p sessionID in ways that cannot be announced one by one (rows
    /// deleted): views reload what they show of it.
    void sessionChangedExternally(const QString &sessionID);
    /// The watcher knows the store's state at startWatching(): changes from now on are announced.
    void watchingStarted();
    void messageUpdated(const weft::Message &message);
    void messageRemoved(const QString &sessionID, const QString &messageID);
    void partUpdated(const weft::Part &part, const QString &delta);
    void partRemoved(const QString &sessionID, const QString &messageID, const QString &partID);
    /// A damaged file or row was found and skipped.
    void problemFound(const QString &location, const QString &reason);
    /// Entries were added to the trash or left it (restored, deleted, purged).
    void trashChanged();

private:
    /// The layers below the views read the store itself (session/sessionstore.h).
    friend std::shared_ptr<Store> storeOf(const SessionService &service);

    Result<void> ensureWritable() const;
    /// The new session create() writes (its project recorded), not written yet.
    Result<Session> prepare(const CreateOptions &options);
    /// Logs and signals a session written for the first time.
    void announceCreated(const Session &session);
    Result<void> removeRecursive(const Session &session, int depth);
    /// Refuses a session that a process is running: it is not pulled away from that run.
    Result<void> checkNotRunning(const Session &session) const;
    /// @p session and its descendants, parents before children.
    Result<void> collectTree(const Session &session, int depth, QList<Session> &tree) const;
    Result<SessionTrash *> trash() const;
    /// @p work(service) on Qt's global pool, holding the service; @p ifGone when no shared_ptr owns it.
    template<typename R, typename Work>
    QFuture<R> later(R ifGone, Work work) const;
    void announce(const QList<StoreChange> &changes);

    std::shared_ptr<Store> m_store;
    QPointer<StoreWatcher> m_watcher;
};

/// Registers the value types for queued connections. Called once by SessionService.
void registerMetaTypes();

} // namespace weft
