// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionsidebar.h"

#include "qt/sessiontreemodel.h"
#include "sessiondelegate.h"
#include "style.h"

#include <QAction>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

SessionSidebar::SessionSidebar(SessionTreeModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_filter(new QLineEdit(this))
{
    setObjectName(u"sidebar"_s);
    m_proxy->setSourceModel(model);
    m_proxy->setFilterRole(SessionTreeModel::FilterTextRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    // A session matches on its title; its project and date group stay shown above it.
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(false);

    m_filter->setObjectName(u"sidebarFilter"_s);
    m_filter->setPlaceholderText(tr("Filter sessions…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->addAction(Style::icon(u"edit-find"_s), QLineEdit::LeadingPosition);
    m_filter->setAccessibleName(tr("Filter sessions"));
    m_filter->installEventFilter(this);
    connect(m_filter, &QLineEdit::textChanged, this, &SessionSidebar::applyFilter);

    m_view->setObjectName(u"sessionTree"_s);
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new SessionDelegate(m_view));
    m_view->setHeaderHidden(true);
    m_view->setUniformRowHeights(false);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::EditKeyPressed);
    m_view->setExpandsOnDoubleClick(true);
    m_view->setAnimated(false);
    m_view->setIndentation(14);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setAccessibleName(tr("Sessions"));
    m_view->header()->setStretchLastSection(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto *filterBox = new QWidget(this);
    m_headerLayout = new QVBoxLayout(filterBox);
    m_headerLayout->setContentsMargins(6, 6, 6, 6);
    m_headerLayout->addWidget(m_filter);
    layout->addWidget(filterBox);
    layout->addWidget(m_view, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &current) {
        const QModelIndex source = m_proxy->mapToSource(current);
        const QString id = m_model->sessionID(source);
        const QString sourceKey = m_model->sourceOf(source);
        if (id.isEmpty() || (id == m_current && sourceKey == m_currentSource))
            return;
        m_current = id;
        m_currentSource = sourceKey;
        Q_EMIT currentSessionChanged(id);
    });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &SessionSidebar::expandDefaults);
    // The tree shows a page of each project; the next comes when the end of one is in view.
    const auto queueFetch = [this] {
        if (m_fetchQueued)
            return;
        m_fetchQueued = true;
        QMetaObject::invokeMethod(this, &SessionSidebar::fetchVisible, Qt::QueuedConnection);
    };
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, queueFetch);
    connect(m_view->verticalScrollBar(), &QScrollBar::rangeChanged, this, queueFetch);
    connect(m_view, &QTreeView::expanded, this, queueFetch);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex index = m_view->indexAt(pos);
        if (index.isValid())
            m_view->setCurrentIndex(index);
        auto *menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        const bool onSession = !m_model->sessionID(m_proxy->mapToSource(index)).isEmpty();
        for (QAction *action : std::as_const(m_contextActions)) {
            if (!action)
                menu->addSeparator();
            else if (onSession || action->property("weftGlobal").toBool())
                menu->addAction(action);
        }
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    expandDefaults({}, 0, m_proxy->rowCount() - 1);
}

SessionSidebar::~SessionSidebar() = default;

void SessionSidebar::addHeaderWidget(QWidget *widget)
{
    m_headerLayout->addWidget(widget, 0, Qt::AlignLeft);
}

QToolButton *SessionSidebar::addFooterAction(QAction *action)
{
    auto *button = new QToolButton(this);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    button->setObjectName(action->objectName() + u"Button"_s);
    // A QToolButton keeps showing an action that was hidden: follow it.
    button->setVisible(action->isVisible());
    connect(action, &QAction::changed, button, [button, action] { button->setVisible(action->isVisible()); });
    layout()->addWidget(button);
    return button;
}

void SessionSidebar::setContextActions(const QList<QAction *> &actions)
{
    m_contextActions = actions;
}

QString SessionSidebar::currentSessionID() const
{
    return m_model->sessionID(m_proxy->mapToSource(m_view->currentIndex()));
}

QString SessionSidebar::currentSource() const
{
    return m_model->sourceOf(m_proxy->mapToSource(m_view->currentIndex()));
}

void SessionSidebar::fetchVisible()
{
    m_fetchQueued = false;
    const int bottom = m_view->viewport()->height();
    // The right edge: nested rows start further right (QTreeView::indexAt() of their indentation is nothing).
    const QPoint top(m_view->viewport()->width() - 1, 0);
    for (QModelIndex index = m_view->indexAt(top); index.isValid(); index = m_view->indexBelow(index)) {
        if (m_view->visualRect(index).top() >= bottom)
            break;
        const QModelIndex parent = index.parent();
        if (index.row() != m_proxy->rowCount(parent) - 1 || !m_model->hasMore(m_proxy->mapToSource(parent)))
            continue;
        // The end of what the project or group shows: the last row of its last child's subtree.
        QModelIndex last = index;
        while (m_view->isExpanded(last) && m_proxy->rowCount(last) > 0)
            last = m_proxy->index(m_proxy->rowCount(last) - 1, 0, last);
        // Within a screen below the view: the next page is there before the user scrolls to it.
        const QRect rect = m_view->visualRect(last);
        if (rect.isValid() && rect.top() < 2 * bottom) {
            m_model->showMore(m_proxy->mapToSource(parent));
            return;
        }
    }
}

bool SessionSidebar::selectSession(const QString &sessionID, const QString &sourceKey)
{
    QModelIndex source = m_model->revealSession(sessionID, sourceKey);
    if (!source.isValid())
        return false;
    QModelIndex index = m_proxy->mapFromSource(source);
    if (!index.isValid()) {
        m_filter->clear();
        index = m_proxy->mapFromSource(source);
    }
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
        m_view->expand(p);
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    return true;
}

void SessionSidebar::renameCurrent()
{
    const QModelIndex index = m_view->currentIndex();
    if (index.isValid() && (index.flags() & Qt::ItemIsEditable))
        m_view->edit(index);
}

void SessionSidebar::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void SessionSidebar::expandDefaults(const QModelIndex &parent, int first, int last)
{
    // Projects, date groups and session families open; the archive stays closed until asked.
    for (int row = first; row <= last; ++row) {
        const QModelIndex index = m_proxy->index(row, 0, parent);
        if (!index.isValid())
            continue;
        const auto group = index.data(SessionTreeModel::DateGroupRole).value<SessionTreeModel::DateGroup>();
        const auto kind = index.data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>();
        const bool archived
            = group == SessionTreeModel::DateGroup::Archived && kind != SessionTreeModel::NodeKind::Project;
        if (!archived || !m_filter->text().isEmpty())
            m_view->expand(index);
        expandDefaults(index, 0, m_proxy->rowCount(index) - 1);
    }
}

void SessionSidebar::applyFilter(const QString &text)
{
    m_model->setFilterText(text.trimmed());
    m_proxy->setFilterFixedString(text.trimmed());
    if (!text.trimmed().isEmpty())
        m_view->expandAll();
    else
        expandDefaults({}, 0, m_proxy->rowCount() - 1);
    if (!m_current.isEmpty()) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->indexForSession(m_current, m_currentSource));
        if (index.isValid()) {
            m_view->selectionModel()->setCurrentIndex(index,
                                                      QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_view->scrollTo(index);
        }
    }
}

bool SessionSidebar::eventFilter(QObject *watched, QEvent *event)
{
    // Down from the filter box goes into the list; Escape clears the filter, then leaves it.
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        auto *ke = static_cast<QKeyEvent *>(event);
        if (ke->key() == Qt::Key_Down || ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter) {
            m_view->setFocus(Qt::TabFocusReason);
            if (currentSessionID().isEmpty()) {
                // The first session below the filter (the view made its first row current).
                for (QModelIndex i = m_proxy->index(0, 0); i.isValid(); i = m_view->indexBelow(i)) {
                    if (!m_model->sessionID(m_proxy->mapToSource(i)).isEmpty()) {
                        m_view->setCurrentIndex(i);
                        break;
                    }
                }
            }
            return true;
        }
        if (ke->key() == Qt::Key_Escape) {
            if (!m_filter->text().isEmpty())
                m_filter->clear();
            else
                m_view->setFocus(Qt::OtherFocusReason);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace weft
