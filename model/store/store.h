// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/storeinfo.h"
#include "core/types.h"

#include <QFlags>
#include <QHash>
#include <QMutex>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QObject;

namespace weft
{

class SessionTrash;
class StoreWatcher;

/// The newest messages of a session, and what a reader needs to read the others after them
/// (Store::newestMessages()).
struct NewestMessages
{
    QList<MessageWithParts> messages; ///< the newest ones, with their parts, in order
    QStringList olderIDs; ///< the IDs of the others, oldest first by the time in the ID
    /// False when the store could not list the others without reading them all (a server that
    /// pages its answer): then olderIDs is empty and messages() has them.
    bool olderListed = true;
};

/// Where sessions live: the JSON files of OpenCode 1.1 (read-write) or the SQLite database of
/// OpenCode 1.2+ (read-only). All methods are thread-safe. Reads never modify the data.
class Store : public std::enable_shared_from_this<Store>
{
public:
    virtual ~Store();

    /// A short description for the user: the folder or database file.
    [[nodiscard]] virtual QString location() const = 0;
    [[nodiscard]] virtual StoreCapabilities capabilities() const = 0;
    [[nodiscard]] bool has(StoreCapability capability) const { return capabilities().testFlag(capability); }
    [[nodiscard]] bool isReadOnly() const { return !has(StoreCapability::Writable); }
    /// The file that holds a session's info (StoreCapability::SessionFiles), else empty.
    [[nodiscard]] virtual QString sessionFile(const QString &sessionID)
    {
        Q_UNUSED(sessionID)
        return {};
    }
    /// For each session of @p sessions, a stamp that changes whenever anything of the session
    /// changes (its messages and parts too): what the search index compares to know what to
    /// read again. The default is each session's `time.updated`.
    [[nodiscard]] virtual Result<QHash<QString, qint64>> changeStamps(const QList<Session> &sessions);
    /// A new watcher of what other processes write to this store (StoreCapability::Live), as a
    /// child of @p parent, not started; null without the capability. The store must be owned by
    /// a std::shared_ptr (the watcher keeps it alive).
    [[nodiscard]] virtual StoreWatcher *createWatcher(QObject *parent)
    {
        Q_UNUSED(parent)
        return nullptr;
    }
    /// Where deleted sessions go (StoreCapability::Trash), else null.
    [[nodiscard]] virtual SessionTrash *trash() { return nullptr; }
    /// What opening the store closed of runs that died (StoreCapability::RunRecovery), else nothing.
    [[nodiscard]] virtual InterruptedRuns recovery() const { return {}; }
    /// Closes the runs that died since the store was opened (StoreCapability::RunRecovery): what
    /// a window does when a process it watched running a session ends. Nothing without it.
    virtual InterruptedRuns closeInterruptedRuns() { return {}; }
    /// The folder of Weft's own files beside the sessions (session locks, import notes) with
    /// StoreCapability::RunRecovery, else empty.
    [[nodiscard]] virtual QString weftDataDir() const { return {}; }

    [[nodiscard]] virtual QList<Project> projects() = 0;
    /// All sessions of all projects, in no particular order.
    [[nodiscard]] virtual QList<Session> sessions() = 0;
    /// The sessions as a list of them shows and keeps them (the sidebar's SessionsModel):
    /// sessions() without what only a reader of one session needs, where a backend holds such
    /// parts apart (a database's token counts, cost, metadata and summary diffs). The default is
    /// sessions().
    [[nodiscard]] virtual QList<Session> listedSessions() { return sessions(); }
    /// The newest @p roots root sessions (by time.updated) with all their descendants, as
    /// listedSessions() reads them, in no particular order: a list's first step, read without
    /// going through every session (listedSessions() brings the rest after it). std::nullopt
    /// where the backend cannot read such a page (the default): the list then loads in one step.
    [[nodiscard]] virtual std::optional<QList<Session>> newestListedSessions(int roots)
    {
        Q_UNUSED(roots);
        return std::nullopt;
    }
    [[nodiscard]] virtual std::optional<Session> session(const QString &sessionID) = 0;
    /// The messages of a session, ordered by time.created then ID.
    [[nodiscard]] virtual QList<Message> messages(const QString &sessionID) = 0;
    /// The parts of a message, ordered by ID.
    [[nodiscard]] virtual QList<Part> parts(const QString &sessionID, const QString &messageID) = 0;
    [[nodiscard]] virtual std::optional<Message> message(const QString &sessionID, const QString &messageID) = 0;
    [[nodiscard]] virtual QList<FileDiff> sessionDiff(const QString &sessionID) = 0;
    /// The session's todo list (OpenCode's `todo/<sessionID>`), in order; empty when it has none
    /// or the backend keeps none (the default).
    [[nodiscard]] virtual QList<Todo> todos(const QString &sessionID)
    {
        Q_UNUSED(sessionID)
        return {};
    }
    /// Messages with their parts, in order.
    [[nodiscard]] virtual QList<MessageWithParts> messagesWithParts(const QString &sessionID);
    /// What mapMessages() makes of each message (its export text, say).
    using MessageMapper = std::function<QByteArray(MessageWithParts &&message)>;
    /// The messages of messagesWithParts(), each made into bytes by @p map on the thread pool,
    /// several at once, and handed to @p take in their order on the calling thread: for work that
    /// streams a whole session out (an export), never holding it all. The default reads
    /// messagesWithParts() first; a backend that reads rows maps each message as soon as its
    /// parts are read, and takes the first bytes while later messages are still being read.
    virtual void mapMessages(const QString &sessionID, const MessageMapper &map,
                             const std::function<void(QByteArray &&bytes)> &take);
    /// The IDs of a session's messages, in no particular order, as cheaply as the backend can tell
    /// them (a folder listing for JSON files): what a view needs to read the newest messages of a
    /// long session first. The default reads the messages.
    [[nodiscard]] virtual QStringList messageIDs(const QString &sessionID);
    /// The messages of @p messageIDs that exist and can be read, ordered like messages().
    [[nodiscard]] virtual QList<Message> messagesByID(const QString &sessionID, const QStringList &messageIDs);
    /// Which of @p messageIDs and @p partIDs a message or part of any session in the store has
    /// already: an import must not reuse them (a message's parts are filed under its ID alone, so
    /// a reused ID would overwrite, and a removal delete, another session's files). The default
    /// reads every session.
    [[nodiscard]] virtual QSet<QString> takenIDs(const QSet<QString> &messageIDs, const QSet<QString> &partIDs);
    /// @p infos with their parts, in the same order.
    [[nodiscard]] virtual QList<MessageWithParts> withParts(const QString &sessionID, const QList<Message> &infos);
    /// The newest @p count messages with their parts: what a view shows first of a long session.
    /// The default lists messageIDs(), orders them by the creation time their IDs carry and reads
    /// the newest @p count with messagesByID() and withParts().
    [[nodiscard]] virtual NewestMessages newestMessages(const QString &sessionID, qsizetype count);

    virtual Result<void> writeProject(const Project &project) = 0;
    virtual Result<void> writeSession(const Session &session) = 0;
    virtual Result<void> writeMessage(const Message &message) = 0;
    virtual Result<void> writePart(const Part &part) = 0;
    /// Writes many new messages with their parts at once (a fork): all of them are durable when
    /// it returns, but a backend may flush once for all instead of once per file. The default
    /// writes them one by one.
    virtual Result<void> writeMessages(const QList<MessageWithParts> &messages);
    /// Writes a part that is being streamed. @p delta is the text appended to the part's `text`
    /// since the previous call (empty for other changes). A backend may write the whole part
    /// only now and then, as long as a crash loses at most the last delta.
    virtual Result<void> writePartStreaming(const Part &part, const QString &delta)
    {
        Q_UNUSED(delta)
        return writePart(part);
    }
    virtual Result<void> writeSessionDiff(const QString &sessionID, const QList<FileDiff> &diffs) = 0;
    /// Replaces the session's todo list (the todowrite tool). The default refuses: only a
    /// backend that keeps todo lists overrides it.
    virtual Result<void> writeTodos(const QString &sessionID, const QList<Todo> &todos);
    /// Removes the session's own files: session info, messages, parts, diff, share. Children are
    /// the caller's business (SessionService::remove cascades).
    virtual Result<void> removeSession(const Session &session) = 0;
    virtual Result<void> removeMessage(const QString &sessionID, const QString &messageID) = 0;
    virtual Result<void> removePart(const QString &sessionID, const QString &messageID, const QString &partID) = 0;

    /// Problems found by reads so far (damaged files), oldest first, without duplicates.
    [[nodiscard]] QList<StoreProblem> problems() const;
    /// Called (on the reading thread) for each new problem.
    void setProblemHandler(std::function<void(const StoreProblem &)> handler);

protected:
    /// Messages mapped as one batch by mapMessages(): few enough that the first bytes are taken
    /// early and a pool thread gets work soon, enough that a batch is worth handing over.
    static constexpr qsizetype MapMessagesBatch = 64;
    /// @p ids ordered by the creation time their IDs carry, split into the newest @p count
    /// (first) and the others, oldest first (second): newestMessages()'s page and olderIDs.
    [[nodiscard]] static std::pair<QStringList, QStringList> splitNewest(const QStringList &ids, qsizetype count);
    void reportProblem(const QString &location, const QString &reason);
    void clearProblem(const QString &location);

private:
    mutable QMutex m_problemsMutex;
    QList<StoreProblem> m_problems;
    std::function<void(const StoreProblem &)> m_problemHandler;
};

} // namespace weft
