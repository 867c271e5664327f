// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QTabBar>
#include <QTabWidget>
#include <QVariantMap>

#include <functional>

class QSplitter;

namespace weft
{

class PaneArea;
class SessionPane;

/// The tab bar of a PaneGroup: a tab dragged off it carries its pane to another group (or an
/// edge of one, to split there); a middle click closes a tab.
class PaneTabBar : public QTabBar
{
    Q_OBJECT

public:
    explicit PaneTabBar(QWidget *parent = nullptr);

    /// The MIME type of a dragged tab (its data: the pane, within this process).
    static QString mimeType();

protected:
    [[nodiscard]] QSize tabSizeHint(int index) const override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QPoint m_pressPos;
    int m_pressedTab = -1;
};

/// A group of tabs, each a SessionPane; a drop of a dragged tab moves it here (on the tab bar or
/// the middle) or splits the group (at an edge).
class PaneGroup : public QTabWidget
{
    Q_OBJECT

public:
    /// Where in a group a dragged tab goes.
    enum class Zone { Center, Left, Right, Top, Bottom };
    Q_ENUM(Zone)

    explicit PaneGroup(PaneArea *area, QWidget *parent = nullptr);

    [[nodiscard]] PaneTabBar *paneTabBar() const { return static_cast<PaneTabBar *>(tabBar()); }
    [[nodiscard]] SessionPane *pane(int index) const;
    [[nodiscard]] QList<SessionPane *> panes() const;
    /// The zone of the group a tab dropped at @p pos (the group's coordinates) goes to.
    [[nodiscard]] Zone zoneAt(const QPoint &pos) const;

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    [[nodiscard]] SessionPane *draggedPane(const QMimeData *data) const;
    void showDropZone(Zone zone);

    PaneArea *m_area;
    QWidget *m_dropZone;
};

/// The window's session panes: tab groups (PaneGroup) in nested splitters, and panes moved to
/// windows of their own. One pane is current (the focused one, marked): the window's actions
/// act on it, its session is the window's title and the sidebar's selection.
///
/// There is always at least one pane in the area (closing the last tab empties it instead).
class PaneArea : public QWidget
{
    Q_OBJECT

public:
    /// Makes a pane (the window wires it).
    using Factory = std::function<SessionPane *()>;
    /// Whether a session of a saved layout still exists (restoreLayout()).
    using Exists = std::function<bool(const QString &sessionID, const QString &source)>;

    explicit PaneArea(Factory factory, QWidget *parent = nullptr);
    ~PaneArea() override;

    [[nodiscard]] SessionPane *currentPane() const { return m_current; }
    [[nodiscard]] PaneGroup *currentGroup() const;
    /// Every pane: the groups' in order, then those in windows of their own.
    [[nodiscard]] QList<SessionPane *> panes() const;
    /// The groups in order (left to right, top to bottom).
    [[nodiscard]] QList<PaneGroup *> groups() const;
    /// The group of @p pane, or null (a pane in a window of its own).
    [[nodiscard]] PaneGroup *groupOf(const SessionPane *pane) const;
    /// The pane in the area or in a window showing @p sessionID of @p source, the current first.
    [[nodiscard]] SessionPane *paneShowing(const QString &sessionID, const QString &source) const;

    /// Makes @p pane current: shows its tab (or raises its window) and, with @p focus, focuses it.
    void setCurrentPane(SessionPane *pane, bool focus = true);
    /// A new tab after the current one in the current group, made current.
    SessionPane *addTab();
    /// Splits the current group: a new group beside it (@p orientation Horizontal: to the right;
    /// Vertical: below) showing the current session too, made current.
    SessionPane *splitCurrent(Qt::Orientation orientation);
    /// Moves @p pane into @p group as tab @p index (-1: last).
    void moveToGroup(SessionPane *pane, PaneGroup *group, int index = -1);
    /// Moves @p pane into a new group at @p zone's edge of @p group (Center: into @p group).
    void moveToZone(SessionPane *pane, PaneGroup *group, PaneGroup::Zone zone);
    /// Moves @p pane into a window of its own; closing that window closes the pane. Null when it
    /// is the only pane of the area.
    QWidget *moveToNewWindow(SessionPane *pane);
    /// The window of @p pane when it has one of its own, else null.
    [[nodiscard]] QWidget *windowOf(const SessionPane *pane) const;
    /// Closes @p pane's tab (its window); the last pane of the area is emptied instead.
    void closePane(SessionPane *pane);
    /// The tab @p step after the current one in the current group, around.
    void cycleTab(int step);
    /// The @p n th tab (from 0) of the current group; the last one for n = 8 when there are more.
    void goToTab(int n);
    /// Every pane's text and busy mark again.
    void updateTab(SessionPane *pane);

    /// The groups, their tabs (sessions) and the splitters' sizes.
    [[nodiscard]] QVariantMap saveLayout() const;
    /// Rebuilds the groups from @p layout, dropping tabs whose session is gone (@p exists);
    /// false (nothing changed) when none is left.
    bool restoreLayout(const QVariantMap &layout, const Exists &exists);

Q_SIGNALS:
    /// Another pane is current (or the current one shows another session).
    void currentPaneChanged(SessionPane *pane);
    /// The panes or the way they are laid out changed.
    void layoutChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    friend class PaneGroup;
    PaneGroup *makeGroup();
    /// A new empty group at @p zone's edge of @p group.
    PaneGroup *splitGroup(PaneGroup *group, PaneGroup::Zone zone);
    SessionPane *makePane();
    /// Puts @p pane into @p group at @p index, taking it from where it was.
    void insertPane(SessionPane *pane, PaneGroup *group, int index);
    /// Takes @p pane out of its group (or window), removing what it leaves empty.
    void detach(SessionPane *pane);
    void removeGroupIfEmpty(PaneGroup *group);
    void onFocusChanged(QWidget *old, QWidget *now);
    void setCurrent(SessionPane *pane);
    void updateActiveMarks();
    void showTabMenu(PaneGroup *group, const QPoint &pos);
    [[nodiscard]] QVariantMap saveNode(QWidget *node) const;
    QWidget *restoreNode(const QVariantMap &node, const Exists &exists, PaneGroup **focused);

    Factory m_factory;
    QSplitter *m_root;
    QPointer<SessionPane> m_current;
    QList<QPointer<QWidget>> m_windows;
};

} // namespace weft
