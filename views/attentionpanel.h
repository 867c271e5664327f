// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;
class QListView;
class QModelIndex;

namespace weft
{

class AttentionModel;

/// The list of sessions that wait on the user (AttentionModel), popped up from the sidebar's
/// count: one row each, the session's title (and its parent's, for a sub-agent) over what it
/// waits for. A click or Return on a row asks for it to be opened (entryActivated()); Escape
/// closes the list.
class AttentionPanel : public QFrame
{
    Q_OBJECT

public:
    explicit AttentionPanel(AttentionModel *model, QWidget *parent = nullptr);
    ~AttentionPanel() override;

    [[nodiscard]] QListView *view() const { return m_view; }
    [[nodiscard]] AttentionModel *model() const { return m_model; }
    /// Shows the list as a popup under @p anchor, the first row current and focused.
    void popup(QWidget *anchor);
    /// What a row of @p index (of the AttentionModel) says: the title line, then the detail.
    [[nodiscard]] static QString entryText(const QModelIndex &index);

Q_SIGNALS:
    /// A row was clicked or chosen with Return: @p index is the AttentionModel's.
    void entryActivated(const QModelIndex &index);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateEmpty();

    AttentionModel *m_model;
    QListView *m_view;
    QLabel *m_empty;
};

} // namespace weft
