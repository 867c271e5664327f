// SPDX-License-Identifier: GPL-3.0-or-later
#include "panearea.h"

#include "app/sessioncontroller.h"
#include "qt/timelinemodel.h"
#include "sessionpane.h"
#include "style.h"
#include "timelineview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QCursor>
#include <QDrag>
#include <QDragEnterEvent>
#include <QMenu>
#include <QMimeData>
#include <QMouseEvent>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// The splitter @p widget is in, or null.
QSplitter *splitterOf(const QWidget *widget)
{
    return widget ? qobject_cast<QSplitter *>(widget->parentWidget()) : nullptr;
}

/// The layout keys (saveLayout()).
constexpr auto TabsKey = "tabs";
constexpr auto CurrentKey = "current";
constexpr auto FocusedKey = "focused";
constexpr auto SplitKey = "split";
constexpr auto SizesKey = "sizes";
constexpr auto ChildrenKey = "children";
constexpr auto SessionKey = "session";
constexpr auto SourceKey = "source";
constexpr auto ChangesKey = "changes";

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

} // namespace

// ---- PaneTabBar

PaneTabBar::PaneTabBar(QWidget *parent)
    : QTabBar(parent)
{
    setObjectName(u"paneTabBar"_s);
    setMovable(true);
    setTabsClosable(true);
    setElideMode(Qt::ElideRight);
    setUsesScrollButtons(true);
    setDocumentMode(true);
    setContextMenuPolicy(Qt::CustomContextMenu);
}

QSize PaneTabBar::tabSizeHint(int index) const
{
    // Long titles are elided (elideMode()) in tabs of at most this width.
    QSize size = QTabBar::tabSizeHint(index);
    size.setWidth(std::min(size.width(), fontMetrics().averageCharWidth() * 34));
    return size;
}

QString PaneTabBar::mimeType()
{
    return u"application/x-weft-pane"_s;
}

void PaneTabBar::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        m_pressPos = event->position().toPoint();
        m_pressedTab = tabAt(m_pressPos);
    }
    QTabBar::mousePressEvent(event);
}

void PaneTabBar::mouseMoveEvent(QMouseEvent *event)
{
    // Along the bar the tab moves among its neighbours (QTabBar); dragged off the bar it goes as
    // a drag to another group, an edge of one, or out of the window.
    const QPoint pos = event->position().toPoint();
    const auto *group = qobject_cast<PaneGroup *>(parentWidget());
    const int margin = QApplication::startDragDistance() * 2;
    if (!(event->buttons() & Qt::LeftButton) || m_pressedTab < 0 || !group
        || rect().adjusted(0, -margin, 0, margin).contains(pos)) {
        QTabBar::mouseMoveEvent(event);
        return;
    }
    SessionPane *pane = group->pane(m_pressedTab);
    m_pressedTab = -1;
    // End the tab bar's own move of the tab first.
    QMouseEvent release(QEvent::MouseButtonRelease, event->position(), event->globalPosition(), Qt::LeftButton,
                        Qt::NoButton, event->modifiers());
    QTabBar::mouseReleaseEvent(&release);
    if (!pane)
        return;
    auto *data = new QMimeData;
    data->setData(mimeType(), QByteArray::number(quintptr(pane)));
    auto *drag = new QDrag(this);
    drag->setMimeData(data);
    const QPixmap preview = pane->grab();
    if (!preview.isNull())
        drag->setPixmap(preview.scaledToWidth(240, Qt::SmoothTransformation));
    const QPointer<QWidget> window = this->window();
    if (drag->exec(Qt::MoveAction) == Qt::IgnoreAction && window && !window->frameGeometry().contains(QCursor::pos())) {
        // Dropped outside the window: the tab gets a window of its own.
        if (auto *area = window->findChild<PaneArea *>(); area && area->panes().contains(pane))
            area->moveToNewWindow(pane);
    }
}

void PaneTabBar::mouseReleaseEvent(QMouseEvent *event)
{
    m_pressedTab = -1;
    if (event->button() == Qt::MiddleButton) {
        if (const int index = tabAt(event->position().toPoint()); index >= 0) {
            Q_EMIT tabCloseRequested(index);
            return;
        }
    }
    QTabBar::mouseReleaseEvent(event);
}

// ---- PaneGroup

PaneGroup::PaneGroup(PaneArea *area, QWidget *parent)
    : QTabWidget(parent)
    , m_area(area)
    , m_dropZone(new QWidget(this))
{
    setObjectName(u"paneGroup"_s);
    setAccessibleName(tr("Open sessions"));
    setTabBar(new PaneTabBar(this));
    setDocumentMode(true);
    setAcceptDrops(true);
    // Groups side by side share the window: a narrow one clips its pane rather than widen the
    // window to what every pane's composer would like.
    setMinimumSize(320, 240);
    m_dropZone->setObjectName(u"paneDropZone"_s);
    m_dropZone->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_dropZone->setAutoFillBackground(true);
    QPalette palette = m_dropZone->palette();
    QColor highlight = palette.color(QPalette::Highlight);
    highlight.setAlpha(70);
    palette.setColor(QPalette::Window, highlight);
    m_dropZone->setPalette(palette);
    m_dropZone->hide();
}

SessionPane *PaneGroup::pane(int index) const
{
    return qobject_cast<SessionPane *>(widget(index));
}

QList<SessionPane *> PaneGroup::panes() const
{
    QList<SessionPane *> list;
    for (int i = 0; i < count(); ++i) {
        if (SessionPane *p = pane(i))
            list.append(p);
    }
    return list;
}

PaneGroup::Zone PaneGroup::zoneAt(const QPoint &pos) const
{
    if (tabBar()->geometry().contains(pos) || pos.y() < tabBar()->geometry().bottom())
        return Zone::Center;
    // The outer quarter of each side splits there; the nearest side wins in a corner.
    const QRectF r = rect();
    const double x = (pos.x() - r.left()) / std::max(1.0, r.width());
    const double y = (pos.y() - r.top()) / std::max(1.0, r.height());
    const std::array<std::pair<double, Zone>, 4> sides{
        {{x, Zone::Left}, {1.0 - x, Zone::Right}, {y, Zone::Top}, {1.0 - y, Zone::Bottom}}};
    const auto nearest = std::min_element(sides.begin(), sides.end(),
                                          [](const auto &a, const auto &b) { return a.first < b.first; });
    return nearest->first < 0.25 ? nearest->second : Zone::Center;
}

SessionPane *PaneGroup::draggedPane(const QMimeData *data) const
{
    if (!data || !data->hasFormat(PaneTabBar::mimeType()))
        return nullptr;
    bool ok = false;
    const quintptr address = data->data(PaneTabBar::mimeType()).toULongLong(&ok);
    if (!ok)
        return nullptr;
    // Only a pane of this area (the drag names it by address, within the process).
    for (SessionPane *p : m_area->panes()) {
        if (quintptr(p) == address)
            return p;
    }
    return nullptr;
}

void PaneGroup::showDropZone(Zone zone)
{
    QRect r = rect();
    r.setTop(tabBar()->geometry().bottom());
    switch (zone) {
    case Zone::Center:
        break;
    case Zone::Left:
        r.setWidth(r.width() / 2);
        break;
    case Zone::Right:
        r.setLeft(r.left() + r.width() / 2);
        break;
    case Zone::Top:
        r.setHeight(r.height() / 2);
        break;
    case Zone::Bottom:
        r.setTop(r.top() + r.height() / 2);
        break;
    }
    m_dropZone->setGeometry(r);
    m_dropZone->raise();
    m_dropZone->show();
}

void PaneGroup::dragEnterEvent(QDragEnterEvent *event)
{
    if (draggedPane(event->mimeData())) {
        event->acceptProposedAction();
        showDropZone(zoneAt(event->position().toPoint()));
        return;
    }
    QTabWidget::dragEnterEvent(event);
}

void PaneGroup::dragMoveEvent(QDragMoveEvent *event)
{
    if (draggedPane(event->mimeData())) {
        event->acceptProposedAction();
        showDropZone(zoneAt(event->position().toPoint()));
        return;
    }
    QTabWidget::dragMoveEvent(event);
}

void PaneGroup::dragLeaveEvent(QDragLeaveEvent *event)
{
    m_dropZone->hide();
    QTabWidget::dragLeaveEvent(event);
}

void PaneGroup::dropEvent(QDropEvent *event)
{
    m_dropZone->hide();
    SessionPane *pane = draggedPane(event->mimeData());
    if (!pane) {
        QTabWidget::dropEvent(event);
        return;
    }
    event->acceptProposedAction();
    const QPoint pos = event->position().toPoint();
    const Zone zone = zoneAt(pos);
    if (zone == Zone::Center) {
        if (indexOf(pane) >= 0)
            return; // its own group: the tab bar reorders
        m_area->moveToGroup(pane, this, tabBar()->tabAt(tabBar()->mapFrom(this, pos)));
    } else {
        m_area->moveToZone(pane, this, zone);
    }
}

// ---- PaneArea

PaneArea::PaneArea(Factory factory, QWidget *parent)
    : QWidget(parent)
    , m_factory(std::move(factory))
    , m_root(new QSplitter(Qt::Horizontal, this))
{
    setObjectName(u"paneArea"_s);
    m_root->setObjectName(u"paneSplitterRoot"_s);
    m_root->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_root);
    PaneGroup *group = makeGroup();
    m_root->addWidget(group);
    SessionPane *pane = makePane();
    insertPane(pane, group, 0);
    setCurrent(pane);
    connect(qApp, &QApplication::focusChanged, this, &PaneArea::onFocusChanged);
}

PaneArea::~PaneArea()
{
    disconnect(qApp, &QApplication::focusChanged, this, &PaneArea::onFocusChanged);
    for (const QPointer<QWidget> &window : std::as_const(m_windows))
        delete window.data();
}

PaneGroup *PaneArea::currentGroup() const
{
    PaneGroup *group = groupOf(m_current);
    if (group)
        return group;
    const QList<PaneGroup *> all = groups();
    return all.isEmpty() ? nullptr : all.first();
}

QList<PaneGroup *> PaneArea::groups() const
{
    QList<PaneGroup *> list;
    const std::function<void(QWidget *)> collect = [&](QWidget *node) {
        if (auto *group = qobject_cast<PaneGroup *>(node)) {
            list.append(group);
        } else if (auto *splitter = qobject_cast<QSplitter *>(node)) {
            for (int i = 0; i < splitter->count(); ++i)
                collect(splitter->widget(i));
        }
    };
    collect(m_root);
    return list;
}

QList<SessionPane *> PaneArea::panes() const
{
    QList<SessionPane *> list;
    for (const PaneGroup *group : groups())
        list += group->panes();
    for (const QPointer<QWidget> &window : m_windows) {
        if (window) {
            if (auto *p = window->findChild<SessionPane *>(QString(), Qt::FindDirectChildrenOnly))
                list.append(p);
        }
    }
    return list;
}

PaneGroup *PaneArea::groupOf(const SessionPane *pane) const
{
    if (!pane)
        return nullptr;
    // A group's pages sit in its stacked widget.
    for (QWidget *w = pane->parentWidget(); w; w = w->parentWidget()) {
        if (auto *group = qobject_cast<PaneGroup *>(w))
            return group->indexOf(const_cast<SessionPane *>(pane)) >= 0 ? group : nullptr;
    }
    return nullptr;
}

QWidget *PaneArea::windowOf(const SessionPane *pane) const
{
    for (const QPointer<QWidget> &window : m_windows) {
        if (window && pane && pane->parentWidget() == window)
            return window;
    }
    return nullptr;
}

SessionPane *PaneArea::paneShowing(const QString &sessionID, const QString &source) const
{
    if (m_current && m_current->sessionID() == sessionID && m_current->source() == source)
        return m_current;
    for (SessionPane *p : panes()) {
        if (p->sessionID() == sessionID && p->source() == source)
            return p;
    }
    return nullptr;
}

PaneGroup *PaneArea::makeGroup()
{
    auto *group = new PaneGroup(this);
    connect(group, &QTabWidget::tabCloseRequested, this, [this, group](int index) {
        if (SessionPane *p = group->pane(index))
            closePane(p);
    });
    connect(group, &QTabWidget::tabBarClicked, this, [this, group](int index) {
        if (SessionPane *p = group->pane(index))
            setCurrentPane(p);
    });
    connect(group, &QTabWidget::currentChanged, this, [this, group] {
        if (groupOf(m_current) == group || !m_current)
            setCurrent(group->pane(group->currentIndex()));
        Q_EMIT layoutChanged();
    });
    connect(group->tabBar(), &QTabBar::tabMoved, this, &PaneArea::layoutChanged);
    connect(group->tabBar(), &QWidget::customContextMenuRequested, this,
            [this, group](const QPoint &pos) { showTabMenu(group, pos); });
    return group;
}

SessionPane *PaneArea::makePane()
{
    SessionPane *pane = m_factory();
    connect(pane, &SessionPane::stateChanged, this, [this, pane] { updateTab(pane); });
    connect(pane, &SessionPane::sessionChanged, this, [this, pane] {
        updateTab(pane);
        if (pane == m_current)
            Q_EMIT currentPaneChanged(pane);
        Q_EMIT layoutChanged();
    });
    return pane;
}

void PaneArea::updateTab(SessionPane *pane)
{
    const QString title = pane->title();
    if (QWidget *window = windowOf(pane)) {
        window->setWindowTitle(title);
        return;
    }
    PaneGroup *group = groupOf(pane);
    if (!group)
        return;
    const int index = group->indexOf(pane);
    // A running session's tab says so, as the sidebar does (its pane may be in the background).
    const bool busy = pane->timelineModel()->isRunning();
    group->setTabText(index, (busy ? u"● "_s : QString()) + QString(title).replace(u'&', u"&&"_s));
    group->setTabToolTip(index, title);
}

void PaneArea::insertPane(SessionPane *pane, PaneGroup *group, int index)
{
    PaneGroup *from = groupOf(pane);
    QWidget *window = windowOf(pane);
    if (from)
        from->removeTab(from->indexOf(pane));
    const int at = index < 0 || index > group->count() ? group->count() : index;
    group->insertTab(at, pane, QString());
    pane->show();
    updateTab(pane);
    if (window) {
        m_windows.removeAll(window);
        window->removeEventFilter(this);
        window->deleteLater();
    }
    if (from && from != group)
        removeGroupIfEmpty(from);
    updateActiveMarks();
    Q_EMIT layoutChanged();
}

void PaneArea::removeGroupIfEmpty(PaneGroup *group)
{
    if (!group || group->count() > 0)
        return;
    QSplitter *splitter = splitterOf(group);
    group->hide();
    group->setParent(nullptr);
    group->deleteLater(); // a drag from its tab bar may still be on the stack
    // Splitters left with one child give it to their parent; empty ones go.
    while (splitter && splitter != m_root) {
        QSplitter *parent = splitterOf(splitter);
        if (splitter->count() == 0) {
            splitter->hide();
            splitter->setParent(nullptr);
            splitter->deleteLater();
        } else if (splitter->count() == 1 && parent) {
            const QList<int> sizes = parent->sizes();
            QWidget *child = splitter->widget(0);
            parent->replaceWidget(parent->indexOf(splitter), child);
            child->show();
            parent->setSizes(sizes);
            splitter->setParent(nullptr);
            splitter->deleteLater();
        } else {
            break;
        }
        splitter = parent;
    }
    // The root with one splitter inside takes its children and its direction.
    if (m_root->count() == 1) {
        if (auto *only = qobject_cast<QSplitter *>(m_root->widget(0))) {
            const QList<int> sizes = only->sizes();
            m_root->setOrientation(only->orientation());
            while (only->count() > 0) {
                QWidget *child = only->widget(0);
                m_root->addWidget(child);
                child->show();
            }
            only->setParent(nullptr);
            only->deleteLater();
            m_root->setSizes(sizes);
        }
    }
    if (groups().isEmpty()) {
        PaneGroup *fresh = makeGroup();
        m_root->addWidget(fresh);
        insertPane(makePane(), fresh, 0);
    }
}

void PaneArea::detach(SessionPane *pane)
{
    if (PaneGroup *group = groupOf(pane)) {
        group->removeTab(group->indexOf(pane));
        removeGroupIfEmpty(group);
    } else if (QWidget *window = windowOf(pane)) {
        m_windows.removeAll(window);
        window->removeEventFilter(this);
        pane->setParent(nullptr);
        window->deleteLater();
    }
}

void PaneArea::setCurrent(SessionPane *pane)
{
    if (m_current == pane || !pane)
        return;
    m_current = pane;
    updateActiveMarks();
    Q_EMIT currentPaneChanged(pane);
}

void PaneArea::updateActiveMarks()
{
    const QList<SessionPane *> all = panes();
    // One pane needs no mark; of several, the focused one has it.
    for (SessionPane *p : all)
        p->setActive(all.size() > 1 && p == m_current);
    // A lone group shows its tab bar from two tabs on; groups side by side always show theirs.
    const QList<PaneGroup *> allGroups = groups();
    for (PaneGroup *group : allGroups)
        group->setTabBarAutoHide(allGroups.size() == 1);
}

void PaneArea::setCurrentPane(SessionPane *pane, bool focus)
{
    if (!pane)
        return;
    if (PaneGroup *group = groupOf(pane)) {
        setCurrent(pane); // before the group's currentChanged, which follows the current group
        group->setCurrentWidget(pane);
    } else if (QWidget *window = windowOf(pane)) {
        window->raise();
        window->activateWindow();
        setCurrent(pane);
    }
    if (focus)
        pane->timelineView()->setFocus(Qt::OtherFocusReason);
}

void PaneArea::onFocusChanged(QWidget *, QWidget *now)
{
    for (QWidget *w = now; w; w = w->parentWidget()) {
        if (auto *pane = qobject_cast<SessionPane *>(w)) {
            if ((isAncestorOf(pane) && groupOf(pane)) || windowOf(pane))
                setCurrent(pane);
            return;
        }
    }
}

SessionPane *PaneArea::addTab()
{
    PaneGroup *group = currentGroup();
    SessionPane *pane = makePane();
    insertPane(pane, group, group->indexOf(m_current) + 1);
    setCurrentPane(pane);
    return pane;
}

SessionPane *PaneArea::splitCurrent(Qt::Orientation orientation)
{
    SessionPane *from = m_current;
    PaneGroup *group = currentGroup();
    if (!group)
        return nullptr;
    SessionPane *pane = makePane();
    if (from) {
        pane->setSession(from->sessionID(), from->source());
        pane->setChangesShown(from->changesShown());
    }
    insertPane(pane, splitGroup(group, orientation == Qt::Horizontal ? PaneGroup::Zone::Right : PaneGroup::Zone::Bottom), 0);
    setCurrentPane(pane);
    return pane;
}

void PaneArea::moveToGroup(SessionPane *pane, PaneGroup *group, int index)
{
    if (!pane || !group)
        return;
    insertPane(pane, group, index);
    setCurrentPane(pane);
}

void PaneArea::moveToZone(SessionPane *pane, PaneGroup *group, PaneGroup::Zone zone)
{
    if (!pane || !group)
        return;
    if (zone == PaneGroup::Zone::Center) {
        moveToGroup(pane, group);
        return;
    }
    if (group->indexOf(pane) >= 0 && group->count() == 1)
        return; // the group's only tab beside itself: nothing moves
    insertPane(pane, splitGroup(group, zone), 0);
    setCurrentPane(pane);
}

PaneGroup *PaneArea::splitGroup(PaneGroup *group, PaneGroup::Zone zone)
{
    const Qt::Orientation orientation
        = zone == PaneGroup::Zone::Left || zone == PaneGroup::Zone::Right ? Qt::Horizontal : Qt::Vertical;
    const bool after = zone == PaneGroup::Zone::Right || zone == PaneGroup::Zone::Bottom;
    PaneGroup *fresh = makeGroup();
    QSplitter *splitter = splitterOf(group);
    const int at = splitter->indexOf(group);
    QList<int> sizes = splitter->sizes();
    if (splitter->orientation() == orientation || splitter->count() == 1) {
        // Beside it in its splitter: the group gives half of its room.
        splitter->setOrientation(orientation);
        const int half = sizes.value(at) / 2;
        splitter->insertWidget(after ? at + 1 : at, fresh);
        sizes[at] -= half;
        sizes.insert(after ? at + 1 : at, half);
        splitter->setSizes(sizes);
    } else {
        // Across its splitter: a splitter of the other direction takes its place, holding both.
        auto *inner = new QSplitter(orientation);
        inner->setChildrenCollapsible(false);
        splitter->replaceWidget(at, inner);
        inner->addWidget(group);
        inner->insertWidget(after ? 1 : 0, fresh);
        group->show();
        splitter->setSizes(sizes);
        inner->setSizes({1, 1});
    }
    return fresh;
}

QWidget *PaneArea::moveToNewWindow(SessionPane *pane)
{
    if (!pane || windowOf(pane))
        return windowOf(pane);
    if (panes().size() - m_windows.size() <= 1)
        return nullptr; // the area keeps a pane
    const QSize size = pane->size();
    auto *window = new QWidget(this->window(), Qt::Window);
    window->setObjectName(u"paneWindow"_s);
    window->setAttribute(Qt::WA_DeleteOnClose, false);
    auto *layout = new QVBoxLayout(window);
    layout->setContentsMargins(0, 0, 0, 0);
    detach(pane);
    pane->setParent(window);
    layout->addWidget(pane);
    pane->show();
    m_windows.append(window);
    window->installEventFilter(this);
    window->resize(size.expandedTo(QSize(640, 480)));
    window->setWindowTitle(pane->title());
    window->setWindowIcon(this->window()->windowIcon());
    window->show();
    updateActiveMarks();
    setCurrentPane(pane);
    Q_EMIT layoutChanged();
    return window;
}

bool PaneArea::eventFilter(QObject *watched, QEvent *event)
{
    // A pane's own window closes with the pane.
    if (event->type() == QEvent::Close) {
        for (const QPointer<QWidget> &window : std::as_const(m_windows)) {
            if (window == watched) {
                if (auto *pane = window->findChild<SessionPane *>(QString(), Qt::FindDirectChildrenOnly))
                    closePane(pane);
                break;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PaneArea::closePane(SessionPane *pane)
{
    if (!pane)
        return;
    const bool inWindow = windowOf(pane) != nullptr;
    if (!inWindow && panes().size() - m_windows.size() <= 1) {
        pane->setSession(QString()); // the area keeps a pane
        return;
    }
    const bool wasCurrent = pane == m_current;
    PaneGroup *group = groupOf(pane);
    detach(pane);
    pane->hide();
    pane->deleteLater();
    if (wasCurrent) {
        m_current = nullptr;
        // The tab the group shows now, else the first group's.
        PaneGroup *next = group && groups().contains(group) ? group : currentGroup();
        if (next)
            setCurrentPane(next->pane(next->currentIndex()), !inWindow);
    }
    updateActiveMarks();
    Q_EMIT layoutChanged();
}

void PaneArea::cycleTab(int step)
{
    QList<SessionPane *> all;
    for (const PaneGroup *group : groups())
        all += group->panes();
    if (all.size() < 2)
        return;
    const qsizetype at = all.indexOf(m_current);
    const qsizetype next = ((at < 0 ? 0 : at) + step % all.size() + all.size()) % all.size();
    setCurrentPane(all.at(next));
}

void PaneArea::goToTab(int n)
{
    PaneGroup *group = currentGroup();
    if (!group || n < 0)
        return;
    // The ninth goes to the last, as in browsers.
    const int index = n == 8 ? group->count() - 1 : n;
    if (index < group->count())
        setCurrentPane(group->pane(index));
}

void PaneArea::showTabMenu(PaneGroup *group, const QPoint &pos)
{
    SessionPane *pane = group->pane(group->tabBar()->tabAt(pos));
    if (!pane)
        return;
    QMenu menu(this);
    menu.setObjectName(u"paneTabMenu"_s);
    menu.addAction(tr("Split &Right"), this, [this, pane] {
        setCurrentPane(pane);
        splitCurrent(Qt::Horizontal);
    });
    menu.addAction(tr("Split &Down"), this, [this, pane] {
        setCurrentPane(pane);
        splitCurrent(Qt::Vertical);
    });
    QAction *window = menu.addAction(tr("Move to New &Window"), this, [this, pane] { moveToNewWindow(pane); });
    window->setEnabled(panes().size() - m_windows.size() > 1);
    menu.addSeparator();
    menu.addAction(Style::icon(u"tab-close"_s), tr("&Close Tab"), this, [this, pane] { closePane(pane); });
    menu.exec(group->tabBar()->mapToGlobal(pos));
}

// ---- layout

QVariantMap PaneArea::saveLayout() const
{
    return saveNode(m_root);
}

QVariantMap PaneArea::saveNode(QWidget *node) const
{
    QVariantMap map;
    if (auto *group = qobject_cast<PaneGroup *>(node)) {
        QVariantList tabs;
        for (const SessionPane *p : group->panes()) {
            if (p->sessionID().isEmpty())
                continue;
            tabs.append(QVariantMap{{key(SessionKey), p->sessionID()},
                                    {key(SourceKey), p->source()},
                                    {key(ChangesKey), p->changesShown()}});
        }
        map.insert(key(TabsKey), tabs);
        map.insert(key(CurrentKey), group->currentIndex());
        map.insert(key(FocusedKey), groupOf(m_current) == group);
    } else if (auto *splitter = qobject_cast<QSplitter *>(node)) {
        QVariantList children;
        for (int i = 0; i < splitter->count(); ++i)
            children.append(saveNode(splitter->widget(i)));
        QVariantList sizes;
        for (int size : splitter->sizes())
            sizes.append(size);
        map.insert(key(SplitKey), splitter->orientation() == Qt::Horizontal ? u"h"_s : u"v"_s);
        map.insert(key(SizesKey), sizes);
        map.insert(key(ChildrenKey), children);
    }
    return map;
}

QWidget *PaneArea::restoreNode(const QVariantMap &node, const Exists &exists, PaneGroup **focused)
{
    if (node.contains(key(TabsKey))) {
        PaneGroup *group = makeGroup();
        const QVariantList tabs = node.value(key(TabsKey)).toList();
        for (const QVariant &tab : tabs) {
            const QVariantMap t = tab.toMap();
            const QString id = t.value(key(SessionKey)).toString();
            const QString source = t.value(key(SourceKey)).toString();
            if (id.isEmpty() || !exists(id, source))
                continue; // the session is gone: its tab with it
            SessionPane *pane = makePane();
            group->addTab(pane, QString());
            pane->setSession(id, source);
            pane->setChangesShown(t.value(key(ChangesKey)).toBool());
            updateTab(pane);
        }
        if (group->count() == 0) {
            delete group;
            return nullptr;
        }
        group->setCurrentIndex(std::clamp(node.value(key(CurrentKey)).toInt(), 0, group->count() - 1));
        if (node.value(key(FocusedKey)).toBool() || !*focused)
            *focused = group;
        return group;
    }
    if (!node.contains(key(SplitKey)))
        return nullptr;
    auto *splitter = new QSplitter(node.value(key(SplitKey)).toString() == u"v" ? Qt::Vertical : Qt::Horizontal);
    splitter->setChildrenCollapsible(false);
    const QVariantList children = node.value(key(ChildrenKey)).toList();
    const QVariantList sizes = node.value(key(SizesKey)).toList();
    QList<int> kept;
    for (qsizetype i = 0; i < children.size(); ++i) {
        if (QWidget *child = restoreNode(children.at(i).toMap(), exists, focused)) {
            splitter->addWidget(child);
            kept.append(std::max(1, sizes.value(i).toInt()));
        }
    }
    if (splitter->count() == 0) {
        delete splitter;
        return nullptr;
    }
    if (splitter->count() == 1) {
        QWidget *only = splitter->widget(0);
        only->setParent(nullptr);
        delete splitter;
        return only;
    }
    splitter->setSizes(kept);
    return splitter;
}

bool PaneArea::restoreLayout(const QVariantMap &layout, const Exists &exists)
{
    PaneGroup *focused = nullptr;
    QWidget *node = restoreNode(layout, exists, &focused);
    if (!node)
        return false;
    // What the area showed goes (the empty pane of a new window).
    m_current = nullptr;
    for (const QPointer<QWidget> &window : std::as_const(m_windows))
        delete window.data();
    m_windows.clear();
    while (m_root->count() > 0) {
        QWidget *child = m_root->widget(0);
        child->hide();
        child->setParent(nullptr);
        child->deleteLater();
    }
    if (auto *splitter = qobject_cast<QSplitter *>(node)) {
        const QList<int> sizes = splitter->sizes();
        m_root->setOrientation(splitter->orientation());
        while (splitter->count() > 0)
            m_root->addWidget(splitter->widget(0));
        delete splitter;
        m_root->setSizes(sizes);
    } else {
        m_root->setOrientation(Qt::Horizontal);
        m_root->addWidget(node);
    }
    if (!focused)
        focused = groups().constFirst();
    setCurrentPane(focused->pane(focused->currentIndex()), false);
    updateActiveMarks();
    Q_EMIT layoutChanged();
    return true;
}

} // namespace weft
