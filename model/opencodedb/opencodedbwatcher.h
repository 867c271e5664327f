// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "store/storewatcher.h"

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
/// OpenCode 1.18's V2 conversation rows (`session_message`, when the database has the table) are
/// followed the same way: a row inserted or changed is mapped by the store (with its neighbouring
/// rows, OpencodeDbStore::readV2Rows()) and reported as its V1 message when that changed, and
/// the parts whose value changed (a grown text with its delta). A new assistant row also
/// re-reports the user message it answers, whose agent and model come from it. A deleted row
/// reloads its session.
///
/// Changes are reported on the thread the watcher lives in (normally the GUI thread), in commit
/// order: sessions, then messages, then parts. The SessionService over the database owns the
/// watcher (OpencodeDbStore::createWatcher()) and announces them with its signals, so that the
/// models and the search index follow OpenCode live.
class OpencodeDbWatcher : public StoreWatcher
{
    Q_OBJECT

public:
    explicit OpencodeDbWatcher(std::shared_ptr<OpencodeDbStore> store, QObject *parent = nullptr);
    ~OpencodeDbWatcher() override;

    [[nodiscard]] std::shared_ptr<OpencodeDbStore> store() const { return m_store; }
    /// How long file notifications are collected before the database is read (default 50 ms).
    void setDebounce(int ms) { m_debounce.setInterval(ms); }
    /// The shortest time between two full scans (default 2000 ms; longer when a scan is slow).
    void setFullScanInterval(int ms);

    /// Takes the current database state as known (nothing is reported for it) and starts
    /// following. Returns before the worker is ready; started() says when it is.
    void start() override;
    void stop() override;
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

Q_SIGNALS:
    /// After each read that found changes, with their number (problems not counted).
    void changesRead(int count);

private:
    class Worker;
    void watchFiles();
    void onFileEvent(const QString &path);
    void requestPoll(bool full);
    void deliver(const QList<StoreChange> &changes);

    std::shared_ptr<OpencodeDbStore> m_store;
    QFileSystemWatcher m_fs;
    QTimer m_debounce;
    QTimer m_fallback;
    QThread m_thread;
    Worker *m_worker = nullptr;
    QAtomicInteger<int> m_queued = 0;
    int m_fullScanInterval = 2000;
};

} // namespace weft
