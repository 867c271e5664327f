// SPDX-License-Identifier: GPL-3.0-or-later
#include "attentionmodel.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

AttentionModel::AttentionModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

AttentionModel::~AttentionModel() = default;

int AttentionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant AttentionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case TitleRole: {
        const std::optional<Session> s = lookup(e.source, e.sessionID);
        return s && !s->title().isEmpty() ? s->title() : e.sessionID;
    }
    case KindRole:
        return QVariant::fromValue(e.kind);
    case SessionIdRole:
        return e.sessionID;
    case SourceRole:
        return e.source;
    case RequestIdRole:
        return e.requestID;
    case ParentIdRole: {
        const std::optional<Session> s = lookup(e.source, e.sessionID);
        return s ? s->parentID() : QString();
    }
    case ParentTitleRole: {
        const std::optional<Session> s = lookup(e.source, e.sessionID);
        if (!s || s->parentID().isEmpty())
            return QString();
        const std::optional<Session> parent = lookup(e.source, s->parentID());
        return parent && !parent->title().isEmpty() ? parent->title() : s->parentID();
    }
    case DetailRole:
        return e.detail;
    case TimeRole:
        return e.time;
    default:
        return {};
    }
}

QHash<int, QByteArray> AttentionModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{KindRole, "kind"},
                  {SessionIdRole, "sessionID"},
                  {SourceRole, "source"},
                  {RequestIdRole, "requestID"},
                  {TitleRole, "title"},
                  {ParentIdRole, "parentID"},
                  {ParentTitleRole, "parentTitle"},
                  {DetailRole, "detail"},
                  {TimeRole, "time"}});
    return names;
}

void AttentionModel::setSessionLookup(SessionLookup lookup)
{
    m_lookup = std::move(lookup);
    if (!m_entries.isEmpty())
        Q_EMIT dataChanged(index(0), index(rowCount() - 1),
                           {Qt::DisplayRole, TitleRole, ParentIdRole, ParentTitleRole});
}

std::optional<Session> AttentionModel::lookup(const QString &source, const QString &sessionID) const
{
    return m_lookup ? m_lookup(source, sessionID) : std::nullopt;
}

void AttentionModel::addRequest(Kind kind, const QString &requestID, const QString &sessionID, const QString &source,
                                const QString &detail)
{
    if (requestID.isEmpty())
        return;
    if (const QModelIndex existing = indexForRequest(requestID); existing.isValid()) {
        m_entries[existing.row()].detail = detail;
        Q_EMIT dataChanged(existing, existing, {DetailRole});
        return;
    }
    insertEntry({kind, requestID, sessionID, source, detail, QDateTime::currentDateTime()});
}

void AttentionModel::removeRequest(const QString &requestID)
{
    if (const QModelIndex existing = indexForRequest(requestID); existing.isValid())
        dropRow(existing.row());
}

void AttentionModel::addRunResult(Kind kind, const QString &sessionID, const QString &source, const QString &detail)
{
    Q_ASSERT(kind == Kind::Failed || kind == Kind::Finished);
    clearRunResult(sessionID, source);
    if (sessionID == m_currentSession && source == m_currentSource)
        return;
    insertEntry({kind, QString(), sessionID, source, detail, QDateTime::currentDateTime()});
}

void AttentionModel::clearRunResult(const QString &sessionID, const QString &source)
{
    if (const int row = rowOfRunResult(sessionID, source); row >= 0)
        dropRow(row);
}

void AttentionModel::setCurrentSession(const QString &sessionID, const QString &source)
{
    m_currentSession = sessionID;
    m_currentSource = source;
    clearRunResult(sessionID, source);
}

void AttentionModel::removeSource(const QString &source)
{
    for (int row = int(m_entries.size()) - 1; row >= 0; --row) {
        if (m_entries.at(row).source == source)
            dropRow(row);
    }
}

int AttentionModel::waitingCount() const
{
    return int(
        std::count_if(m_entries.cbegin(), m_entries.cend(), [](const Entry &e) { return e.kind != Kind::Finished; }));
}

int AttentionModel::finishedCount() const
{
    return int(m_entries.size()) - waitingCount();
}

QModelIndex AttentionModel::indexForRequest(const QString &requestID) const
{
    if (requestID.isEmpty())
        return {};
    for (qsizetype row = 0; row < m_entries.size(); ++row) {
        if (m_entries.at(row).requestID == requestID)
            return index(int(row));
    }
    return {};
}

QModelIndex AttentionModel::indexForRunResult(const QString &sessionID, const QString &source) const
{
    const int row = rowOfRunResult(sessionID, source);
    return row >= 0 ? index(row) : QModelIndex();
}

int AttentionModel::rowOfRunResult(const QString &sessionID, const QString &source) const
{
    for (qsizetype row = 0; row < m_entries.size(); ++row) {
        const Entry &e = m_entries.at(row);
        if (e.requestID.isEmpty() && e.sessionID == sessionID && e.source == source)
            return int(row);
    }
    return -1;
}

void AttentionModel::insertEntry(const Entry &entry)
{
    // What wants an answer comes before what only wants a look, each oldest first.
    int row = int(m_entries.size());
    if (entry.kind != Kind::Finished) {
        const auto firstFinished = std::find_if(m_entries.cbegin(), m_entries.cend(),
                                                [](const Entry &e) { return e.kind == Kind::Finished; });
        row = int(firstFinished - m_entries.cbegin());
    }
    beginInsertRows({}, row, row);
    m_entries.insert(row, entry);
    endInsertRows();
    Q_EMIT countsChanged();
}

void AttentionModel::dropRow(int row)
{
    beginRemoveRows({}, row, row);
    m_entries.removeAt(row);
    endRemoveRows();
    Q_EMIT countsChanged();
}

} // namespace weft
