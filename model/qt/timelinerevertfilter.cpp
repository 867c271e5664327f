// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinerevertfilter.h"

#include "core/types.h"
#include "timelinemodel.h"

namespace weft
{

bool TimelineRevertFilter::setRevert(const QString &messageID, const QString &partID)
{
    if (messageID == m_message && partID == m_part)
        return false;
    m_message = messageID;
    m_part = messageID.isEmpty() ? QString() : partID;
    invalidateRowsFilter();
    return true;
}

QVariant TimelineRevertFilter::data(const QModelIndex &index, int role) const
{
    if (role == Qt::AccessibleTextRole && index.isValid()) {
        // The view's words for the row as this model shows it (a message cut at a part).
        const auto *timeline = qobject_cast<const TimelineModel *>(sourceModel());
        return timeline ? QVariant(timeline->accessibleText(index)) : QVariant();
    }
    if (m_part.isEmpty() || !index.isValid())
        return QSortFilterProxyModel::data(index, role);
    switch (role) {
    case Qt::DisplayRole:
    case TimelineModel::TextRole:
    case TimelineModel::MarkdownRole:
    case TimelineModel::PartsRole:
    case TimelineModel::PartTypesRole:
    case TimelineModel::ToolStatusesRole:
        break;
    default:
        return QSortFilterProxyModel::data(index, role);
    }
    if (QSortFilterProxyModel::data(index, TimelineModel::IdRole).toString() != m_message)
        return QSortFilterProxyModel::data(index, role);
    QList<Part> parts;
    for (const Part &p : QSortFilterProxyModel::data(index, TimelineModel::PartsRole).value<QList<Part>>()) {
        if (p.id() == m_part)
            break;
        parts.append(p);
    }
    switch (role) {
    case Qt::DisplayRole:
    case TimelineModel::TextRole:
        return TimelineModel::visibleText(parts);
    case TimelineModel::MarkdownRole:
        return TimelineModel::markdown(QSortFilterProxyModel::data(index, TimelineModel::MessageRole).value<Message>(),
                                       parts);
    case TimelineModel::PartTypesRole: {
        QList<PartType> types;
        for (const Part &p : std::as_const(parts))
            types.append(p.type());
        return QVariant::fromValue(types);
    }
    case TimelineModel::ToolStatusesRole: {
        QList<ToolStatus> statuses;
        for (const Part &p : std::as_const(parts)) {
            if (p.type() == PartType::Tool)
                statuses.append(p.state().status());
        }
        return QVariant::fromValue(statuses);
    }
    default:
        return QVariant::fromValue(parts);
    }
}

bool TimelineRevertFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_message.isEmpty())
        return true;
    const QString id = sourceModel()->index(sourceRow, 0, sourceParent).data(TimelineModel::IdRole).toString();
    return id < m_message || (id == m_message && !m_part.isEmpty());
}

} // namespace weft
