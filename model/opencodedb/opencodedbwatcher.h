// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAtomicInteger>
#include <QFileSystemWatcher>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QTimer>

#include <memory>

namespace weft
{

class OpencodeDbStore;
class SessionService;

/// Follows an OpenCode database while OpenCode writes it: new and changed sessions, messages and
/// parts appear as signals, typically within 100 ms of OpenCode's commit, without reloading
/// anything else.
///
/// How: a QFileSystemWatcher on the database, its `-wal` file and their folder (re-armed when
/// OpenCode replaces or recreates a file) wakes a worker thread at most every debounce interval
/// (50 ms). The worker checks `PRAGMA data_version` and, when something was committed, reads
/// only the rows that changed: rows inserted since the last read (by rowid) and recently
/// inserted rows whose `time_updated` moved (by rowid tail and `time_updated`, so the big tables
/// are never scanned on a quick read). Rows changed far back (compaction marks on old parts) and
/// deleted rows are found by a full scan that runs at most every few seconds while the database
/// changes, and once after it settles. A row is reported when its `time_updated` or content
/// changed, never twice for the same state; rows that OpenCode committed late with an older
/// timestamp are caught by a 5-second overlap of the time window.
///
/// Signals are emitted on the thread the watcher lives in (normally the GUI thread), in commit
/// order: sessions, then messages, then parts. With setService(), the same changes are also
/// announced through that SessionService's signals, so that the models that listen to the
/// service (and the search index) follow OpenCode live.
class OpencodeDbWatcher : public QObject
{
    Q_OBJECT

public:
    explicit OpencodeDbWatcher(std::shared_ptr<OpencodeDbStore> store, QObject *parent = nullptr);
    ~OpencodeDbWatcher() override;

    [[nodiscard]] std::shared_ptr<OpencodeDbStore> store() const { return m_store; }
    /// Also announce every change through @p service (sessionCreated/Updated/Deleted,
    /// messageUpdated, partUpdated with delta, sessionChangedExternally, problemFound).
    void setService(SessionService *service);
    /// How long file notifications are collected before the database is read (default 50 ms).
    void setDebounce(int ms) { m_debounce.setInterval(ms); }
    /// The shortest time between two full scans (default 2000 ms; longer when a scan is slow).
    void setFullScanInterval(int ms);

    /// Takes the current database state as known (nothing is reported for it) and starts
    /// following. Returns before the worker is ready; started() says when it is.
    void start();
    void stop();
    [[nodiscard]] bool isRunning() const { return m_thread.isRunning(); }
    /// Reads the database now (for example after the machine woke up).
    void pollNow();
    /// Reads now with a full scan (for example after a "reload").
    void rescan();

    struct Stats {
        qint64 polls = 0;      ///< reads of the database
        qint64 fullScans = 0;  ///< of which full scans
        qint64 skipped = 0;    ///< wake-ups with nothing committed (data_version unchanged)
        qint64 lastPollUs = 0; ///< duration of the last read
        qint64 lastFullScanUs = 0;
    };
    [[nodiscard]] Stats stats() const;

    /// One change found by a read, in the order it is reported.
    struct Change {
        enum class Kind { SessionCreated, SessionUpdated, SessionDeleted, MessageUpdated, PartUpdated, SessionChanged, Problem };
        Kind kind = Kind::SessionUpdated;
        Session session;
        Message message;
        Part part;
        QString text; ///< delta (PartUpdated), session ID (SessionChanged), reason (Problem)
        QString location;
    };

Q_SIGNALS:
    /// The worker has taken the current state as known; changes committed from now on are
    /// reported. Load what a view shows after this signal (or connect before loading and
    /// accept that a change committed in between is reported once more).
    void started();
    void sessionCreated(const weft::Session &session);
    void sessionUpdated(const weft::Session &session);
    void sessionDeleted(const weft::Session &session);
    void messageUpdated(const weft::Message &message);
    /// @p delta is the text appended since the part was last reported, when its text grew.
    void partUpdated(const weft::Part &part, const QString &delta);
    /// Rows of the session were deleted (a revert's cleanup, a removed message): reload it.
    void sessionChangedExternally(const QString &sessionID);
    void problemFound(const QString &location, const QString &reason);
    /// After each read that found changes, with their number.
    void changesRead(int count);

private:
    class Worker;
    void watchFiles();
    void onFileEvent(const QString &path);
    void requestPoll(bool full);
    void deliver(const QList<Change> &changes);

    std::shared_ptr<OpencodeDbStore> m_store;
    QPointer<SessionService> m_service;
    QFileSystemWatcher m_fs;
    QTimer m_debounce;
    QTimer m_fallback;
    QThread m_thread;
    Worker *m_worker = nullptr;
    QAtomicInteger<int> m_queued = 0;
    int m_fullScanInterval = 2000;
};

} // namespace weft
