// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace weft
{

/// A TimelineModel as a session with a pending revert shows it: the messages the revert took
/// back are hidden (OpenCode's `revert.messageID`), and so are the parts from `revert.partID` on
/// in that message, with the text, Markdown and part roles of the cut message computed from the
/// parts that stay. Message IDs ascend with time, as in OpenCode's
/// `messages.filter(m => m.id < revert.messageID)`.
///
/// The timeline view shows it only while a revert is pending, and the timeline model itself
/// otherwise.
class TimelineRevertFilter : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    /// The message the pending revert starts at, empty without one.
    [[nodiscard]] QString revertMessage() const { return m_message; }
    [[nodiscard]] QString revertPart() const { return m_part; }
    /// Hides what a revert at @p messageID (and @p partID in it, when set) took back; an empty
    /// @p messageID shows everything. False when nothing changed.
    bool setRevert(const QString &messageID, const QString &partID);

    QVariant data(const QModelIndex &index, int role) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_message;
    QString m_part;
};

} // namespace weft
