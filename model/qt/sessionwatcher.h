// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace weft
{

class JsonStore;
class SessionService;

/// Follows the JSON files of one open session that another process (a running OpenCode) writes:
/// the session's `message/<sessionID>/` folder, and the message files and `part/<messageID>/`
/// folders of its newest messages (the only ones a running session changes). On a change it
/// re-reads just the files that changed, off the GUI thread, and reports them one by one.
///
/// Weft's own writes are seen too; what they report equals what the models already hold, and
/// the models ignore values that did not change.
class SessionWatcher : public QObject
{
    Q_OBJECT

public:
    explicit SessionWatcher(SessionService *service, QObject *parent = nullptr);
    ~SessionWatcher() override;

    /// Follows @p sessionID (empty: nothing).
    void setSession(const QString &sessionID);
    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    /// The messages whose files and part folders are followed (the newest few). Messages that
    /// appear later are followed from their first file on.
    void setWatchedMessages(const QStringList &messageIDs);
    /// False when the store is not a JSON store (nothing to watch).
    [[nodiscard]] bool isActive() const { return m_store != nullptr; }
    /// How long changes are collected before they are read (default 40 ms).
    void setDelay(int ms) { m_timer.setInterval(ms); }

Q_SIGNALS:
    void messageChanged(const weft::Message &message);
    void messageDeleted(const QString &sessionID, const QString &messageID);
    void partChanged(const weft::Part &part);
    void partDeleted(const QString &sessionID, const QString &messageID, const QString &partID);
    /// The session's own file changed (title, archive, summary, ...).
    void sessionInfoChanged(const QString &sessionID);

private:
    struct Stamp
    {
        qint64 modified = 0;
        qint64 size = -1;
        bool operator==(const Stamp &) const = default;
    };
    using Snapshot = QHash<QString, Stamp>; // file name -> stamp

    [[nodiscard]] static Snapshot scan(const QString &dir);
    [[nodiscard]] static Stamp stamp(const QString &file);
    void watchMessage(const QString &messageID, bool reportExisting);
    void markDirty(const QString &path);
    void flush();
    /// Lists @p dirs off the GUI thread, then apply()s the listing with the changed files.
    void scanLater(const QStringList &dirs, const QSet<QString> &changedMessageFiles, const QSet<QString> &changedPartFiles);
    /// Compares @p scanned folders with what was seen before and reads what changed.
    void apply(const QHash<QString, Snapshot> &scanned, const QSet<QString> &changedMessageFiles,
               const QSet<QString> &changedPartFiles);
    void rewatch();

    SessionService *m_service;
    JsonStore *m_store = nullptr;
    QString m_root;
    QString m_sessionID;
    QString m_sessionFile;
    QFileSystemWatcher m_fs;
    QTimer m_timer;
    QHash<QString, Snapshot> m_snapshots; // folder -> its files
    QSet<QString> m_watchedMessages;
    QSet<QString> m_dirty;
    int m_generation = 0;
    bool m_scanning = false; // a listing is on its way: changes wait for it
};

} // namespace weft
