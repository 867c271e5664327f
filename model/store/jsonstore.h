// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store.h"
#include "jsonstorage.h"

#include <QHash>
#include <QMutex>

#include <memory>

namespace weft
{

/// The JSON file layout of OpenCode 1.1 (`<data>/storage/...`), read and written.
///
/// Reading tolerates damaged files: each one is reported once (path and reason) and skipped.
/// Writing is atomic per file. The layout, field names and formatting are OpenCode's, so that
/// OpenCode 1.1 reads what Weft writes.
class JsonStore : public Store
{
public:
    /// The number of storage migrations OpenCode 1.1 has applied to a layout like this one.
    static constexpr int MigrationVersion = 2;

    /// @p dataDir is an OpenCode-style data dir; the files live in `<dataDir>/storage`.
    explicit JsonStore(const QString &dataDir);
    ~JsonStore() override;

    /// Creates `storage/` and writes the `migration` file when the layout is new; refuses a
    /// layout of a migration version Weft does not know (older layouts need OpenCode's own
    /// migration, newer ones are unknown).
    Result<void> initialize();

    [[nodiscard]] JsonStorage &storage() { return m_storage; }
    [[nodiscard]] QString dataDir() const { return m_dataDir; }
    /// The data dir: its `lock/` and `weft-imported/` folders.
    [[nodiscard]] QString weftDataDir() const override { return m_dataDir; }

    QString location() const override;
    StoreCapabilities capabilities() const override
    {
        return StoreCapability::Writable | StoreCapability::Live | StoreCapability::SessionFiles
            | StoreCapability::Trash | StoreCapability::RunRecovery;
    }
    /// `<dataDir>/weft-trash`, where deleted sessions wait 30 days.
    SessionTrash *trash() override;
    /// The keys of every file of @p session that removeSession() removes, the session's info
    /// first, then its diff, share and todo files, then its messages each followed by its parts:
    /// what the trash moves.
    [[nodiscard]] QList<JsonStorage::Key> sessionKeys(const Session &session);
    /// The file that holds a session's info, or empty when the session is unknown.
    QString sessionFile(const QString &sessionID) override;
    /// A session's `time.updated`, or its message folder's modification time when newer (every
    /// message file is written by a rename into that folder; time.updated does not move with
    /// every message).
    Result<QHash<QString, qint64>> changeStamps(const QList<Session> &sessions) override;
    /// A JsonStoreWatcher: follows the files of the session a view shows.
    StoreWatcher *createWatcher(QObject *parent) override;
    QList<Project> projects() override;
    QList<Session> sessions() override;
    std::optional<Session> session(const QString &sessionID) override;
    QList<Message> messages(const QString &sessionID) override;
    QList<Part> parts(const QString &sessionID, const QString &messageID) override;
    std::optional<Message> message(const QString &sessionID, const QString &messageID) override;
    QList<FileDiff> sessionDiff(const QString &sessionID) override;
    QList<Todo> todos(const QString &sessionID) override;
    QList<MessageWithParts> messagesWithParts(const QString &sessionID) override;
    QStringList messageIDs(const QString &sessionID) override;
    QList<Message> messagesByID(const QString &sessionID, const QStringList &messageIDs) override;
    QList<MessageWithParts> withParts(const QString &sessionID, const QList<Message> &infos) override;
    /// From folder listings alone: every message file of every session, every part file, and
    /// every folder of parts (a message ID whose message file is gone still owns its parts).
    QSet<QString> takenIDs(const QSet<QString> &messageIDs, const QSet<QString> &partIDs) override;

    Result<void> writeProject(const Project &project) override;
    Result<void> writeSession(const Session &session) override;
    Result<void> writeMessage(const Message &message) override;
    Result<void> writePart(const Part &part) override;
    Result<void> writeMessages(const QList<MessageWithParts> &messages) override;
    /// Streaming writes: the whole part file is rewritten (atomically, without fsync) at most
    /// every StreamRewriteMs; in between, each text delta is appended to a small journal under
    /// `<dataDir>/stream/`, which initialize() replays after a crash. A 5,000-delta reply thus
    /// costs a few hundred file rewrites, not 5,000, and loses at most the last delta.
    Result<void> writePartStreaming(const Part &part, const QString &delta) override;
    static constexpr qint64 StreamRewriteMs = 50;
    /// What initialize() closed.
    [[nodiscard]] InterruptedRuns recovery() const override { return m_recovery; }
    /// Closes the runs that died (runrecovery.cpp): the sessions with a lock file or a stream
    /// journal that no live process holds (SessionLock) get their journals applied, then their
    /// unfinished assistant messages closed as OpenCode closes an aborted one
    /// (MessageAbortedError, `time.completed`), with their pending and running tool calls as
    /// errors. Sessions another process runs are not touched. initialize() calls it; a window
    /// calls it again when a process it watched running a session ends.
    InterruptedRuns closeInterruptedRuns() override;
    /// The number of streamed parts initialize() completed from their journals.
    [[nodiscard]] int recoveredStreams() const { return m_recovery.streams; }
    Result<void> writeSessionDiff(const QString &sessionID, const QList<FileDiff> &diffs) override;
    Result<void> writeTodos(const QString &sessionID, const QList<Todo> &todos) override;
    Result<void> removeSession(const Session &session) override;
    Result<void> removeMessage(const QString &sessionID, const QString &messageID) override;
    Result<void> removePart(const QString &sessionID, const QString &messageID, const QString &partID) override;

private:
    /// Reads and validates one file; damaged or invalid files are reported and give nullopt.
    template<typename T>
    std::optional<T> readTyped(const JsonStorage::Key &key);
    /// Reads one message file, checking that it belongs where it lies.
    std::optional<Message> readMessage(const QString &sessionID, const QString &messageID);
    /// The project folder that holds @p sessionID, found through the cache or a scan.
    QString projectOf(const QString &sessionID);

    struct StreamState {
        qint64 lastFullWrite = 0;
        qsizetype writtenTextLength = 0; ///< length of `text` in the part file on disk
        bool dirty = false;              ///< changed since the last full write, not journaled
        Part latest;                     ///< the newest value, ahead of the file between full writes
    };
    Result<void> writeStreamFull(const Part &part, StreamState &state);
    void endStream(const QString &partID);
    [[nodiscard]] QString journalPath(const QString &messageID, const QString &partID) const;
    /// Applies the stream journals @p journals (file names in `<dataDir>/stream/`).
    void replayJournals(const QStringList &journals, InterruptedRuns &recovery);
    /// Closes the unfinished assistant messages of @p sessionID; false when a write failed.
    bool closeUnfinishedMessages(const QString &sessionID, InterruptedRuns &recovery);

    QString m_dataDir;
    JsonStorage m_storage;
    QMutex m_streamMutex;
    QHash<QString, StreamState> m_streams; // part ID -> state
    InterruptedRuns m_recovery;
    QMutex m_indexMutex;
    QHash<QString, QString> m_sessionProject; // sessionID -> projectID
    std::unique_ptr<SessionTrash> m_trash;
};

} // namespace weft
