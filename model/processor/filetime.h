// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QString>

namespace weft
{

/// When each session last read (or wrote) each file: OpenCode's FileTime. The edit tools refuse
/// a file the session has not read, or one changed on disk since (its modification time is
/// later than the read). The processor keeps one for all runs, so that a file read in an earlier
/// turn may be edited; a run also takes the reads recorded in the session's history (which lets
/// `weft run --continue` edit what an earlier process read). Thread-safe.
class FileTimes
{
public:
    /// The last read of @p path (a cleaned absolute path) by @p sessionID; null when never.
    [[nodiscard]] QDateTime lastRead(const QString &sessionID, const QString &path) const;
    void markRead(const QString &sessionID, const QString &path, const QDateTime &when = QDateTime::currentDateTimeUtc());
    /// Records @p when unless a later read is known.
    void seed(const QString &sessionID, const QString &path, const QDateTime &when);
    void clearSession(const QString &sessionID);

    /// The reads a session's history shows: completed calls of the tools that read or write a
    /// whole file (read, edit, multiedit, write), with the time each ended; relative paths are
    /// taken against @p directory.
    [[nodiscard]] static QHash<QString, QDateTime> readsInHistory(const QList<MessageWithParts> &messages,
                                                                   const QString &directory);

private:
    mutable QMutex m_mutex;
    QHash<QString, QHash<QString, QDateTime>> m_reads;
};

} // namespace weft
