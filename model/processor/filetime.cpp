// SPDX-License-Identifier: GPL-3.0-or-later
#include "filetime.h"

#include <QDir>
#include <QMutexLocker>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace weft
{

QDateTime FileTimes::lastRead(const QString &sessionID, const QString &path) const
{
    const QMutexLocker lock(&m_mutex);
    return m_reads.value(sessionID).value(path);
}

void FileTimes::markRead(const QString &sessionID, const QString &path, const QDateTime &when)
{
    const QMutexLocker lock(&m_mutex);
    m_reads[sessionID].insert(path, when);
}

void FileTimes::seed(const QString &sessionID, const QString &path, const QDateTime &when)
{
    const QMutexLocker lock(&m_mutex);
    QDateTime &known = m_reads[sessionID][path];
    if (!known.isValid() || known < when)
        known = when;
}

void FileTimes::clearSession(const QString &sessionID)
{
    const QMutexLocker lock(&m_mutex);
    m_reads.remove(sessionID);
}

QHash<QString, QDateTime> FileTimes::readsInHistory(const QList<MessageWithParts> &messages, const QString &directory)
{
    static const QStringList tools{u"read"_s, u"edit"_s, u"multiedit"_s, u"write"_s};
    QHash<QString, QDateTime> reads;
    const QDir base(directory);
    for (const MessageWithParts &message : messages) {
        for (const Part &part : message.parts) {
            if (part.type() != PartType::Tool || !tools.contains(part.tool()))
                continue;
            const ToolState state = part.state();
            if (state.status() != ToolStatus::Completed || state.ended() <= 0)
                continue;
            const QString filePath = state.input().string(u"filePath");
            if (filePath.isEmpty())
                continue;
            const QString path = QDir::cleanPath(base.absoluteFilePath(filePath));
            const QDateTime when = QDateTime::fromMSecsSinceEpoch(state.ended(), QTimeZone::UTC);
            QDateTime &known = reads[path];
            if (!known.isValid() || known < when)
                known = when;
        }
    }
    return reads;
}

} // namespace weft
