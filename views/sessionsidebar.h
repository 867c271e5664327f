// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QAction;
class QLineEdit;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;
class QVBoxLayout;

namespace weft
{

class SessionTreeModel;

/// The session sidebar: a filter box over the tree of projects, date groups and sessions.
class SessionSidebar : public QWidget
{
    Q_OBJECT

public:
    explicit SessionSidebar(SessionTreeModel *model, QWidget *parent = nullptr);
    ~SessionSidebar() override;

    [[nodiscard]] QTreeView *view() const { return m_view; }
    [[nodiscard]] QLineEdit *filterEdit() const { return m_filter; }
    [[nodiscard]] QSortFilterProxyModel *proxy() const { return m_proxy; }
    [[nodiscard]] SessionTreeModel *treeModel() const { return m_model; }

    /// The session of the current row, or empty when the current row is not a session.
    [[nodiscard]] QString currentSessionID() const;
    /// The source of the current row (SessionTreeModel::sourceOf; empty: Weft's own sessions).
    [[nodiscard]] QString currentSource() const;
    /// Makes @p sessionID of @p source current and selected (clearing the filter when it hides it).
    bool selectSession(const QString &sessionID, const QString &source = {});
    /// Starts renaming the current session in place.
    void renameCurrent();
    void focusFilter();
    /// Adds @p widget under the filter box (the attention inbox's count).
    void addHeaderWidget(QWidget *widget);
    /// The actions of the context menu (null entries are separators).
    void setContextActions(const QList<QAction *> &actions);
    /// Adds a button for @p action under the sessions (the trash), shown while the action is
    /// visible; gives the button.
    QToolButton *addFooterAction(QAction *action);

Q_SIGNALS:
    /// The current session changed (currentSource() says of which source).
    void currentSessionChanged(const QString &sessionID);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void expandDefaults(const QModelIndex &parent, int first, int last);
    void applyFilter(const QString &text);
    /// Asks the model for the next page of a group or project whose last shown row is in view.
    void fetchVisible();

    SessionTreeModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    QLineEdit *m_filter;
    QVBoxLayout *m_headerLayout = nullptr;
    QList<QAction *> m_contextActions;
    QString m_current;
    QString m_currentSource;
    bool m_fetchQueued = false;
};

} // namespace weft
