// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonstorage.h"
#include "storewatcher.h"

#include <QFileSystemWatcher>
#include <QHash>
#include <QSet>
#include <QTimer>

#include <memory>

namespace weft
{

class JsonStore;

/// Follows the JSON files of one session that another process (a running OpenCode) writes: the
/// session's file (and its folder), its `message/<sessionID>/` folder, and the message files and `part/<messageID>/`
/// folders of its newest messages (the only ones a running session changes). On a change it
/// re-reads just the files that changed, off the GUI thread, and reports them.
///
/// The files the store itself wrote or removed are recognised by their stamps
/// (JsonStorage::isOwnVersion()) and never read back: Weft's own writes reach the models as the
/// service's signals, once.
class JsonStoreWatcher : public StoreWatcher
{
    Q_OBJECT

public:
    explicit JsonStoreWatcher(std::shared_ptr<JsonStore> store, QObject *parent = nullptr);
    ~JsonStoreWatcher() override;

    void start() override;
    void stop() override;
    /// Follows @p sessionID (empty: nothing) and the files of @p recentMessageIDs. Messages that
    /// appear later are followed from their first file on.
    void follow(const QString &sessionID, const QStringList &recentMessageIDs) override;
    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    /// How long changes are collected before they are read (default 40 ms).
    void setDelay(int ms) { m_timer.setInterval(ms); }

private:
    using Snapshot = QHash<QString, JsonStorage::FileStamp>; // file name -> its version
    [[nodiscard]] static Snapshot scan(const QString &dir);
    void setSession(const QString &sessionID);
    void setWatchedMessages(const QStringList &messageIDs);
    void watchMessage(const QString &messageID, bool reportExisting);
    void markDirty(const QString &path);
    void flush();
    /// Lists @p dirs off the GUI thread, then apply()s the listing with the changed files.
    void scanLater(const QStringList &dirs, const QSet<QString> &changedMessageFiles, const QSet<QString> &changedPartFiles);
    /// Compares @p scanned folders with what was seen before and reads what changed.
    void apply(const QHash<QString, Snapshot> &scanned, const QSet<QString> &changedMessageFiles,
               const QSet<QString> &changedPartFiles);
    /// Reads the changed files off the GUI thread and reports those the store did not write.
    void read(const QStringList &messageIDs, const QList<std::pair<QString, QString>> &parts, bool sessionInfo,
              const QList<std::pair<QString, QString>> &removed);
    void rewatch();

    std::shared_ptr<JsonStore> m_store;
    QString m_root;
    QString m_sessionID;
    QString m_sessionFile;
    QString m_sessionDir; // the folder of the session's file
    JsonStorage::FileStamp m_sessionStamp; // the version of the session's file seen last
    QFileSystemWatcher m_fs;
    QTimer m_timer;
    QHash<QString, Snapshot> m_snapshots; // folder -> its files
    QSet<QString> m_watchedMessages;
    QSet<QString> m_dirty;
    int m_generation = 0;
    bool m_running = false;
    bool m_scanning = false; // a listing is on its way: changes wait for it
};

} // namespace weft
