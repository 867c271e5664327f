// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

#include <functional>

namespace weft
{

/// A TimelineModel as a session with a pending revert shows it: the messages the revert took
/// back are hidden (OpenCode's `revert.messageID`), and so are the parts from `revert.partID` on
/// in that message, with the text, Markdown and part roles of the cut message computed from the
/// parts that stay. Message IDs ascend with time, as in OpenCode's
/// `messages.filter(m => m.id < revert.messageID)`.
///
/// Fetching older messages is left to the view: QAbstractItemView fetches more when its *last*
/// row is visible, which in a chat would load the whole history page by page while the user sits
/// at the bottom, so this model never offers it (the timeline view fetches near the top).
class TimelineRevertFilter : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    bool canFetchMore(const QModelIndex &) const override { return false; }
    void fetchMore(const QModelIndex &) override { }

    /// The message the pending revert starts at, empty without one.
    [[nodiscard]] QString revertMessage() const { return m_message; }
    [[nodiscard]] QString revertPart() const { return m_part; }
    /// Hides what a revert at @p messageID (and @p partID in it, when set) took back; an empty
    /// @p messageID shows everything. False when nothing changed.
    bool setRevert(const QString &messageID, const QString &partID);

    QVariant data(const QModelIndex &index, int role) const override;

    /// What a screen reader says for a row (Qt::AccessibleTextRole): the view's words, which
    /// know how the row is shown.
    void setAccessibleText(std::function<QString(const QModelIndex &index)> text) { m_accessibleText = std::move(text); }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_message;
    QString m_part;
    std::function<QString(const QModelIndex &)> m_accessibleText;
};

} // namespace weft
