// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineview.h"

#include "qt/timelinemodel.h"
#include "qt/timelinerevertfilter.h"
#include "style.h"
#include "timelinedelegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDesktopServices>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int SpinnerIntervalMs = 80;
} // namespace

TimelineView::TimelineView(QWidget *parent)
    : QListView(parent)
    , m_delegate(new TimelineDelegate(this))
{
    setObjectName(u"timeline"_s);
    setItemDelegate(m_delegate);
    setVerticalScrollMode(ScrollPerPixel);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // A scroll bar that comes and goes would change the width, and with it every row's height.
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setResizeMode(Adjust);
    setUniformItemSizes(false);
    setSelectionMode(SingleSelection);
    setMouseTracking(true);
    setFrameShape(QFrame::NoFrame);
    setSpacing(0);
    setEditTriggers(NoEditTriggers);
    verticalScrollBar()->setSingleStep(24);
    viewport()->setAutoFillBackground(true);
    setAccessibleName(tr("Conversation"));
    m_placeholder = tr("Select a session in the sidebar, or start a new one.");

    connect(m_delegate, &TimelineDelegate::changesActivated, this, [this](const QModelIndex &index) {
        Q_EMIT turnChangesRequested(index.data(TimelineModel::SessionIdRole).toString(),
                                    index.data(TimelineModel::IdRole).toString());
    });
    connect(m_delegate, &TimelineDelegate::linkActivated, this, [](const QString &link) {
        const QUrl url(link);
        if (url.scheme() == u"http" || url.scheme() == u"https" || url.scheme() == u"mailto")
            QDesktopServices::openUrl(url);
    });
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int max) {
        if (m_pinned)
            verticalScrollBar()->setValue(max);
        maybeFetchOlder();
    });

    m_spinner.setInterval(SpinnerIntervalMs);
    connect(&m_spinner, &QTimer::timeout, this, &TimelineView::advanceSpinner);

    m_copyText = new QAction(Style::icon(u"edit-copy"_s), tr("&Copy Text"), this);
    m_copyText->setObjectName(u"copyText"_s);
    m_copyText->setShortcut(QKeySequence::Copy);
    m_copyText->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copyText, &QAction::triggered, this, &TimelineView::copyText);
    addAction(m_copyText);
    m_copyMarkdown = new QAction(tr("Copy as &Markdown"), this);
    m_copyMarkdown->setObjectName(u"copyMarkdown"_s);
    m_copyMarkdown->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyMarkdown->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copyMarkdown, &QAction::triggered, this, &TimelineView::copyMarkdown);
    addAction(m_copyMarkdown);
}

TimelineView::~TimelineView() = default;

void TimelineView::setTimelineModel(TimelineModel *model)
{
    if (m_proxy)
        m_proxy->deleteLater();
    m_model = model;
    auto *filter = new TimelineRevertFilter(this);
    filter->setAccessibleText([this](const QModelIndex &index) { return m_delegate->accessibleText(index); });
    m_proxy = filter;
    m_proxy->setSourceModel(model);
    setModel(m_proxy);
    connect(m_proxy, &QAbstractItemModel::rowsAboutToBeInserted, this, &TimelineView::onRowsAboutToBeInserted);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        m_pinned = true;
        m_delegate->clearCaches();
        viewport()->update();
    });
    connect(model, &TimelineModel::loaded, this, [this] {
        jumpToBottom();
        maybeFetchOlder();
    });
    connect(model, &TimelineModel::olderLoaded, this, &TimelineView::maybeFetchOlder);
    connect(model, &TimelineModel::runningChanged, this, &TimelineView::updateAnimation);
    updateAnimation();
}

QModelIndex TimelineView::sourceIndex(const QModelIndex &index) const
{
    return m_proxy ? m_proxy->mapToSource(index) : QModelIndex();
}

void TimelineView::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    viewport()->update();
}

void TimelineView::setRevert(const QString &messageID, const QString &partID)
{
    auto *proxy = static_cast<TimelineRevertFilter *>(m_proxy);
    if (!proxy)
        return;
    const QString before = proxy->revertMessage();
    if (!proxy->setRevert(messageID, partID))
        return;
    // The message cut at a part is laid out anew; so is the one whose cut went away.
    m_delegate->invalidate(before);
    m_delegate->invalidate(messageID);
    scheduleDelayedItemsLayout();
    viewport()->update();
}

QString TimelineView::revertMessageID() const
{
    return m_proxy ? static_cast<TimelineRevertFilter *>(m_proxy)->revertMessage() : QString();
}

int TimelineView::hiddenMessageCount() const
{
    return m_proxy && m_model ? m_model->rowCount() - m_proxy->rowCount() : 0;
}

void TimelineView::setAwaitingPermission(const QString &messageID, const QString &callID, bool waiting)
{
    if (m_delegate->isAwaitingPermission(callID) == waiting)
        return;
    m_delegate->setAwaitingPermission(callID, waiting);
    m_delegate->invalidate(messageID);
    scheduleDelayedItemsLayout();
    viewport()->update();
}

void TimelineView::jumpToBottom()
{
    m_pinned = true;
    executeDelayedItemsLayout();
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void TimelineView::verticalScrollbarValueChanged(int value)
{
    QListView::verticalScrollbarValueChanged(value);
    m_pinned = value >= verticalScrollBar()->maximum() - 2;
    maybeFetchOlder();
}

void TimelineView::maybeFetchOlder()
{
    if (!m_model || !m_model->canFetchMore({}))
        return;
    // Within a screen of the top (or a first page that does not fill the view): fetch the
    // previous page before the user gets there.
    if (verticalScrollBar()->value() <= viewport()->height())
        m_model->fetchMore({});
}

void TimelineView::onRowsAboutToBeInserted(const QModelIndex &parent, int start, int)
{
    if (parent.isValid() || start != 0 || m_pinned || model()->rowCount() == 0)
        return;
    // Older messages go above what the user is reading: remember the first visible row and where
    // it is, to put it back there once the new rows have pushed it down.
    QModelIndex first = indexAt(QPoint(viewport()->width() / 2, 1));
    if (!first.isValid())
        first = model()->index(0, 0);
    m_anchor = first;
    m_anchorOffset = visualRect(first).top();
}

void TimelineView::rowsInserted(const QModelIndex &parent, int start, int end)
{
    QListView::rowsInserted(parent, start, end);
    // The row after the new ones may have been a continuation of what was above it.
    if (const QModelIndex next = model()->index(end + 1, 0); next.isValid())
        m_delegate->invalidate(next.data(TimelineModel::IdRole).toString());
    if (m_anchor.isValid()) {
        const QModelIndex anchor = m_anchor;
        m_anchor = QPersistentModelIndex();
        executeDelayedItemsLayout();
        const int moved = visualRect(anchor).top() - m_anchorOffset;
        verticalScrollBar()->setValue(verticalScrollBar()->value() + moved);
    } else if (m_pinned) {
        scheduleDelayedItemsLayout();
    }
    updateAnimation();
}

void TimelineView::dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    QListView::dataChanged(topLeft, bottomRight, roles);
    // A row's height follows its content: lay the rows out again (the delegate's cache makes the
    // unchanged ones cost a lookup).
    if (roles.isEmpty() || roles.contains(TimelineModel::RevisionRole))
        scheduleDelayedItemsLayout();
    if (roles.isEmpty() || roles.contains(TimelineModel::RunningRole))
        updateAnimation();
}

void TimelineView::updateAnimation()
{
    const bool run = m_model && m_model->isRunning() && isVisible();
    if (run && !m_spinner.isActive())
        m_spinner.start();
    else if (!run && m_spinner.isActive())
        m_spinner.stop();
}

void TimelineView::advanceSpinner()
{
    m_phase = (m_phase + 30) % 360;
    m_delegate->setSpinnerPhase(m_phase);
    // Repaint only the visible rows that run.
    const QModelIndex first = indexAt(QPoint(viewport()->width() / 2, 0));
    const int from = first.isValid() ? first.row() : 0;
    for (int row = from; row < model()->rowCount(); ++row) {
        const QModelIndex idx = model()->index(row, 0);
        const QRect r = visualRect(idx);
        if (r.top() > viewport()->height())
            break;
        if (idx.data(TimelineModel::RunningRole).toBool())
            viewport()->update(r);
    }
}

void TimelineView::paintEvent(QPaintEvent *event)
{
    if (model() && model()->rowCount() > 0) {
        QListView::paintEvent(event);
        return;
    }
    QPainter p(viewport());
    QString text = m_placeholder;
    if (m_model && m_model->isLoading())
        text = tr("Loading…");
    else if (m_model && !m_model->sessionID().isEmpty())
        text = tr("No messages yet. Write the first one below.");
    p.setPen(Style::dimText(palette()));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    p.setFont(f);
    p.drawText(viewport()->rect().adjusted(40, 0, -40, 0), Qt::AlignCenter | Qt::TextWordWrap, text);
}

QMenu *TimelineView::createContextMenu(const QModelIndex &index, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    if (index.isValid()) {
        setCurrentIndex(index);
        menu->addAction(m_copyText);
        menu->addAction(m_copyMarkdown);
        menu->addSeparator();
        QAction *fork = menu->addAction(Style::icon(u"weft-fork"_s), tr("&Fork from Here"));
        fork->setObjectName(u"forkFromHere"_s);
        const bool isUser = index.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::User;
        fork->setToolTip(isUser ? tr("A new session with the messages before this one")
                                : tr("A new session with the messages up to and including this reply"));
        fork->setStatusTip(fork->toolTip());
        const QPersistentModelIndex target(index);
        connect(fork, &QAction::triggered, this, [this, target, isUser] {
            if (!target.isValid() || !m_model)
                return;
            const QString prompt = isUser ? target.data(TimelineModel::TextRole).toString() : QString();
            Q_EMIT forkRequested(m_model->sessionID(), m_model->forkPoint(sourceIndex(target)), prompt);
        });
    }
    if (!m_pinned) {
        menu->addSeparator();
        QAction *bottom = menu->addAction(Style::icon(u"go-bottom"_s), tr("&Jump to Latest"));
        connect(bottom, &QAction::triggered, this, &TimelineView::jumpToBottom);
    }
    return menu;
}

void TimelineView::contextMenuEvent(QContextMenuEvent *event)
{
    QModelIndex index = indexAt(event->pos());
    if (event->reason() == QContextMenuEvent::Keyboard)
        index = currentIndex();
    QMenu *menu = createContextMenu(index, this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (menu->isEmpty()) {
        delete menu;
        return;
    }
    menu->popup(event->globalPos());
}

void TimelineView::copyText()
{
    const QModelIndex index = currentIndex();
    if (!index.isValid())
        return;
    QApplication::clipboard()->setText(index.data(TimelineModel::TextRole).toString());
}

void TimelineView::copyMarkdown()
{
    const QModelIndex index = currentIndex();
    if (!index.isValid())
        return;
    auto *mime = new QMimeData;
    const QString markdown = index.data(TimelineModel::MarkdownRole).toString();
    mime->setText(markdown);
    mime->setData(u"text/markdown"_s, markdown.toUtf8());
    QApplication::clipboard()->setMimeData(mime);
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    QListView::mouseMoveEvent(event);
    const QModelIndex index = indexAt(event->position().toPoint());
    const auto hit = m_delegate->hitTest(index, event->position().toPoint() - visualRect(index).topLeft());
    const bool clickable
        = hit.kind == TimelineDelegate::Hit::Kind::Toggle || hit.kind == TimelineDelegate::Hit::Kind::Link
        || hit.kind == TimelineDelegate::Hit::Kind::Changes;
    viewport()->setCursor(clickable ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void TimelineView::showEvent(QShowEvent *event)
{
    QListView::showEvent(event);
    updateAnimation();
}

void TimelineView::hideEvent(QHideEvent *event)
{
    QListView::hideEvent(event);
    updateAnimation();
}

void TimelineView::changeEvent(QEvent *event)
{
    QListView::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange
        || event->type() == QEvent::StyleChange) {
        m_delegate->clearCaches();
        scheduleDelayedItemsLayout();
    }
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    const bool pinned = m_pinned;
    QListView::resizeEvent(event);
    if (pinned) {
        m_pinned = true;
        executeDelayedItemsLayout();
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    }
}

} // namespace weft
