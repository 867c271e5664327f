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
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QScopeGuard>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QStyleOptionSlider>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int SpinnerIntervalMs = 80;
constexpr int DragScrollIntervalMs = 30;
// A slice of measuring estimated rows in idle time: a quarter of a frame, so that with the
// relayout after it, input and painting go on at 60 frames a second.
constexpr qint64 IdleMeasureMs = 4;
// The longest a slice takes. It stops after the row that ran over its time, and a row's
// measuring takes up to 8 ms on a 2-core VM once its fonts and syntax definitions are warm
// (TimelineDelegate::warmUp(): a piece of that takes up to 7 ms, the C++ definition up to 12 ms
// once).
constexpr qint64 LongestSliceMs = IdleMeasureMs + 8;

/// A scroll bar that repaints only where its handle was and is when its value changes.
///
/// QScrollBar repaints all of itself at every step: a groove as tall as the view, which Qt's
/// raster engine fills on its GUI thread pool (a fill over 96 lines is split between threads, and
/// the GUI thread waits for them). Waking those threads at every frame of a scroll took 4-10 ms
/// of a frame on a 2-core VM; the handle's places are a few dozen lines, filled on the spot.
class TimelineScrollBar : public QScrollBar
{
public:
    using QScrollBar::QScrollBar;

protected:
    void sliderChange(SliderChange change) override
    {
        const int before = std::exchange(m_paintedValue, value());
        // Styles that show the bar on a change repaint all of it.
        if (change != SliderValueChange || style()->styleHint(QStyle::SH_ScrollBar_Transient, nullptr, this)) {
            QScrollBar::sliderChange(change);
            return;
        }
        // Styles draw the handle's outline and shadow a little outside its rectangle.
        const auto handleAt = [this](int v) {
            const QRect r = rectOf(QStyle::SC_ScrollBarSlider, v);
            const int m = HandleMargin;
            return orientation() == Qt::Vertical ? r.adjusted(0, -m, 0, m) : r.adjusted(-m, 0, m, 0);
        };
        QRegion region = QRegion(handleAt(before)) | handleAt(value());
        // At and off the ends the arrows may enable or disable (Breeze greys the arrow at an end).
        const auto atEnd = [this](int v) { return v == minimum() || v == maximum(); };
        if (atEnd(before) || atEnd(value())) {
            region += rectOf(QStyle::SC_ScrollBarSubLine, value());
            region += rectOf(QStyle::SC_ScrollBarAddLine, value());
        }
        // (Qt repaints a child widget's dirty area as one rectangle: a jump repaints all that
        // lies between, a step a few dozen lines.)
        update(region);
    }

private:
    [[nodiscard]] QRect rectOf(QStyle::SubControl control, int value) const
    {
        QStyleOptionSlider option;
        initStyleOption(&option);
        option.sliderValue = value;
        option.sliderPosition = value;
        return style()->subControlRect(QStyle::CC_ScrollBar, &option, control, this);
    }

    static constexpr int HandleMargin = 4;
    int m_paintedValue = 0;
};
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
    // QAbstractItemView connects the scroll bar it made, not one set later.
    auto *bar = new TimelineScrollBar(Qt::Vertical, this);
    setVerticalScrollBar(bar);
    connect(bar, &QScrollBar::actionTriggered, this, &TimelineView::verticalScrollbarAction);
    connect(bar, &QScrollBar::valueChanged, this, &TimelineView::verticalScrollbarValueChanged);
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

    m_dragScroll.setInterval(DragScrollIntervalMs);
    connect(&m_dragScroll, &QTimer::timeout, this, &TimelineView::dragScroll);
    m_tripleClick.setSingleShot(true);

    m_measure.setSingleShot(true);
    m_clock.start();
    connect(&m_measure, &QTimer::timeout, this, &TimelineView::measureInIdleTime);

    m_spinner.setInterval(SpinnerIntervalMs);
    connect(&m_spinner, &QTimer::timeout, this, &TimelineView::advanceSpinner);

    m_copyText = new QAction(Style::icon(u"edit-copy"_s), tr("&Copy Text"), this);
    m_copyText->setObjectName(u"copyText"_s);
    m_copyText->setShortcut(QKeySequence::Copy);
    m_copyText->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copyText, &QAction::triggered, this, &TimelineView::copyText);
    addAction(m_copyText);
    m_selectAllText = new QAction(tr("Select &All"), this);
    m_selectAllText->setObjectName(u"selectAllText"_s);
    m_selectAllText->setShortcut(QKeySequence::SelectAll);
    m_selectAllText->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_selectAllText->setToolTip(tr("Select the text of every loaded message"));
    connect(m_selectAllText, &QAction::triggered, m_delegate, &TimelineDelegate::selectAllText);
    addAction(m_selectAllText);
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
    if (model == m_model)
        return;
    if (m_revertFilter)
        m_revertFilter->deleteLater();
    m_revertFilter = nullptr;
    m_model = model;
    // Row keys are the model's own: another model's may be the same numbers.
    m_delegate->clearCaches();
    model->setAccessibleText([this](const QModelIndex &index) { return m_delegate->accessibleText(index); });
    showRows(model);
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_pinned = true;
        m_delegate->clearTextSelection();
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

void TimelineView::showRows(QAbstractItemModel *rows)
{
    QItemSelectionModel *selection = selectionModel();
    disconnect(m_rowsAboutToBeInserted);
    setModel(rows);
    delete selection; // setModel() made the view its own; nothing else holds the old one
    m_rowsAboutToBeInserted
        = connect(rows, &QAbstractItemModel::rowsAboutToBeInserted, this, &TimelineView::onRowsAboutToBeInserted);
}

QModelIndex TimelineView::sourceIndex(const QModelIndex &index) const
{
    return m_revertFilter && index.model() == m_revertFilter ? m_revertFilter->mapToSource(index) : index;
}

QModelIndex TimelineView::viewIndex(const QModelIndex &source) const
{
    return m_revertFilter ? m_revertFilter->mapFromSource(source) : source;
}

void TimelineView::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    viewport()->update();
}

void TimelineView::setRevert(const QString &messageID, const QString &partID)
{
    if (!m_model || (messageID == revertMessageID() && (messageID.isEmpty() || partID == m_revertFilter->revertPart())))
        return;
    const QString before = revertMessageID();
    m_delegate->clearTextSelection(); // its rows are the shown model's
    m_pressIndex = QPersistentModelIndex();
    m_hoveredCodeRow = QPersistentModelIndex();
    if (messageID.isEmpty()) {
        showRows(m_model);
        m_revertFilter->deleteLater();
        m_revertFilter = nullptr;
    } else if (m_revertFilter) {
        m_revertFilter->setRevert(messageID, partID);
    } else {
        m_revertFilter = new TimelineRevertFilter(this);
        m_revertFilter->setSourceModel(m_model);
        m_revertFilter->setRevert(messageID, partID);
        showRows(m_revertFilter);
    }
    // The message cut at a part is laid out anew; so is the one whose cut went away. What a
    // revert hides is the end of the rows (the messages from the revert on): placed again at the
    // same scroll position, the rows above the one read, and it, stay where they were.
    m_delegate->invalidate(m_model->indexForId(before));
    m_delegate->invalidate(m_model->indexForId(messageID));
    relayoutKeepingPlace();
    measureVisibleRows();
    viewport()->update();
}

QString TimelineView::revertMessageID() const
{
    return m_revertFilter ? m_revertFilter->revertMessage() : QString();
}

int TimelineView::hiddenMessageCount() const
{
    return m_revertFilter ? m_model->rowCount() - m_revertFilter->rowCount() : 0;
}

void TimelineView::setAwaitingPermission(const QString &messageID, const QString &callID, bool waiting)
{
    if (m_delegate->isAwaitingPermission(callID) == waiting)
        return;
    m_delegate->setAwaitingPermission(callID, waiting);
    if (m_model)
        m_delegate->invalidate(m_model->indexForId(messageID));
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
    m_frames.beginFrame(m_clock.elapsed());
    QListView::verticalScrollbarValueChanged(value);
    m_pinned = value >= verticalScrollBar()->maximum() - 2;
    measureVisibleRows();
    maybeFetchOlder();
}

void TimelineView::doItemsLayout()
{
    relayoutKeepingPlace();
    measureVisibleRows();
}

void TimelineView::relayoutKeepingPlace()
{
    // The row the user reads: the one remembered before rows came in (QListView forgets where
    // its rows were when rows are inserted), or else the first one on screen.
    QModelIndex first = m_anchor;
    int offset = m_anchorOffset;
    m_anchor = QPersistentModelIndex();
    if (!first.isValid()) {
        first = indexAt(QPoint(viewport()->width() / 2, 0));
        offset = first.isValid() ? visualRect(first).top() : 0;
    }
    m_frames.beginFrame(m_clock.elapsed());
    // Nothing is measured on the way (the scroll bar moves): the place is not back yet.
    const QScopedValueRollback guard(m_measuring, true);
    QListView::doItemsLayout();
    m_unplacedHeights = false;
    QScrollBar *bar = verticalScrollBar();
    if (m_pinned)
        bar->setValue(bar->maximum());
    else if (first.isValid())
        bar->setValue(bar->value() + visualRect(first).top() - offset);
}

void TimelineView::measureVisibleRows()
{
    if (m_measuring || !model())
        return;
    {
        const QScopedValueRollback guard(m_measuring, true);
        // Every placing of the rows asks all of them their size (20,000 rows: milliseconds), so the
        // rows are measured as far as their exact heights fill the viewport, not as far as their
        // estimates did: estimates taller than the rows would leave rows that come into view
        // after the placing unmeasured, and need one more. Then the rows are placed once, as
        // relayoutKeepingPlace() will: the first visible row where it is, or the end in view.
        // A placing that cannot keep the place (the end of the rows came up) may show more
        // estimated rows: another round, a few at most.
        const int height = viewport()->height();
        QStyleOptionViewItem option;
        initViewItemOption(&option);
        for (int round = 0; round < 4; ++round) {
            bool changed = false;
            const int rows = model()->rowCount();
            const auto measure = [&](int row) {
                const QModelIndex index = model()->index(row, 0);
                if (m_delegate->isEstimated(index))
                    m_delegate->measure(index);
                const int exact = m_delegate->sizeHint(option, index).height();
                // A row measured in idle time may still be placed with its estimate: the place
                // of the row after it tells (visualRect() has a row's current height, not the
                // one it was placed with).
                if (row + 1 < rows)
                    changed |= visualRect(model()->index(row + 1, 0)).top() - visualRect(index).top() != exact;
                else
                    changed |= m_unplacedHeights;
                return exact;
            };
            if (m_pinned) {
                for (int row = rows - 1, bottom = height; row >= 0 && bottom > 0; --row)
                    bottom -= measure(row);
            } else {
                const QModelIndex first = indexAt(QPoint(viewport()->width() / 2, 0));
                int top = first.isValid() ? visualRect(first).top() : 0;
                for (int row = first.isValid() ? first.row() : 0; row < rows && top < height; ++row)
                    top += measure(row);
            }
            if (!changed)
                break;
            relayoutKeepingPlace();
        }
    }
    // The rows off screen: in idle time.
    if (m_delegate->hasEstimates() && !m_measure.isActive())
        m_measure.start(0);
}

void TimelineView::measureInIdleTime()
{
    if (!model() || !m_delegate->hasEstimates())
        return;
    // Idle time is what the frames leave: after a frame that leaves no room for a slice, the
    // slice waits for the next frame period. (Rows shown for the first time, with glyphs never
    // drawn, made frames of up to 12 ms.)
    if (const qint64 delay = m_frames.idleDelay(m_clock.elapsed(), LongestSliceMs); delay > 0) {
        m_measure.start(delay);
        return;
    }
    const QScopedValueRollback guard(m_measuring, true);
    QElapsedTimer clock;
    clock.start();
    bool changed = false;
    bool scanned = true; // every row was looked at
    const QModelIndex first = indexAt(QPoint(viewport()->width() / 2, 0));
    const int rows = model()->rowCount();
    const int from = first.isValid() ? first.row() : rows - 1;
    // Outwards from the top of the viewport, a row below and a row above in turn: the rows
    // measured first are the ones a scroll either way shows next.
    for (int distance = 0; scanned && (from + distance < rows || from - distance > 0); ++distance) {
        if (clock.elapsed() >= IdleMeasureMs) {
            scanned = false;
            break;
        }
        for (const int row : {from + distance, from - distance - 1}) {
            if (row < 0 || row >= rows)
                continue;
            const QModelIndex index = model()->index(row, 0);
            if (!m_delegate->isEstimated(index))
                continue;
            // A row's first layout in this process can cost several slices (fonts to fall back
            // on, a syntax definition): paid ahead a piece at a time, the row in a later slice.
            if (!m_delegate->warmUp(index, clock, IdleMeasureMs)) {
                scanned = false;
                break;
            }
            changed |= m_delegate->measure(index);
        }
    }
    if (scanned)
        m_delegate->dropEstimates(); // the rest are of rows no longer shown
    // The rows are placed again once, when the measuring is done, not after every slice: each
    // placing asks every row its size, as long as a slice with 20,000 rows. The rows measured
    // meanwhile are placed when they come into view (measureVisibleRows()) or a page comes in.
    m_unplacedHeights |= changed;
    if (m_delegate->hasEstimates())
        m_measure.start(0);
    else if (m_unplacedHeights)
        relayoutKeepingPlace();
}

void TimelineView::maybeFetchOlder()
{
    if (!m_model || !m_model->canLoadOlder())
        return;
    // Within a screen of the top (or a first page that does not fill the view): fetch the
    // previous page before the user gets there.
    if (verticalScrollBar()->value() <= viewport()->height())
        m_model->loadOlder();
}

void TimelineView::onRowsAboutToBeInserted(const QModelIndex &parent, int start, int)
{
    if (parent.isValid() || m_pinned || model()->rowCount() == 0)
        return;
    // Older messages go above what the user is reading, a new one below it: remember the first
    // visible row and where it is, to keep it there when the rows are placed again.
    QModelIndex first = indexAt(QPoint(viewport()->width() / 2, 1));
    if (!first.isValid() && start == 0)
        first = model()->index(0, 0); // a first page that does not fill the view
    if (!first.isValid())
        return;
    m_anchor = first;
    m_anchorOffset = visualRect(first).top();
}

void TimelineView::rowsInserted(const QModelIndex &parent, int start, int end)
{
    QListView::rowsInserted(parent, start, end);
    // The row after the new ones may have been a continuation of what was above it.
    if (const QModelIndex next = model()->index(end + 1, 0); next.isValid())
        m_delegate->invalidate(next);
    if (m_anchor.isValid()) {
        // Placed at once: what is on screen is known only once the anchor is back.
        executeDelayedItemsLayout();
        m_anchor = QPersistentModelIndex();
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
    m_frames.beginFrame(m_clock.elapsed());
    const auto painted = qScopeGuard([this] { m_frames.endFrame(); });
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

QMenu *TimelineView::createContextMenu(const QModelIndex &index, QWidget *parent, const QPoint &pos)
{
    auto *menu = new QMenu(parent);
    if (index.isValid()) {
        setCurrentIndex(index);
        menu->addAction(m_copyText);
        const QPersistentModelIndex target(index);
        if (m_delegate->hasTextSelection()) {
            // Copy Text copies the selection; the message under the mouse is one more item.
            QAction *message = menu->addAction(tr("Copy &Message Text"));
            message->setObjectName(u"copyMessageText"_s);
            connect(message, &QAction::triggered, this, [target] {
                if (target.isValid())
                    QApplication::clipboard()->setText(target.data(TimelineModel::TextRole).toString());
            });
        }
        const auto hit = pos.x() >= 0 ? m_delegate->hitTest(index, pos - visualRect(index).topLeft())
                                      : TimelineDelegate::Hit();
        if (hit.codeGroup > 0) {
            QAction *code = menu->addAction(tr("Copy Code &Block"));
            code->setObjectName(u"copyCodeBlock"_s);
            connect(code, &QAction::triggered, this, [this, target, hit] {
                QApplication::clipboard()->setText(m_delegate->codeBlockText(target, hit.partID, hit.codeGroup));
            });
        }
        menu->addAction(m_copyMarkdown);
        menu->addSeparator();
        QAction *fork = menu->addAction(Style::icon(u"weft-fork"_s), tr("&Fork from Here"));
        fork->setObjectName(u"forkFromHere"_s);
        const bool isUser = index.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::User;
        fork->setToolTip(isUser ? tr("A new session with the messages before this one")
                                : tr("A new session with the messages up to and including this reply"));
        fork->setStatusTip(fork->toolTip());
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
    QPoint pos = event->pos();
    if (event->reason() == QContextMenuEvent::Keyboard) {
        index = currentIndex();
        pos = {-1, -1};
    }
    QMenu *menu = createContextMenu(index, this, pos);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (menu->isEmpty()) {
        delete menu;
        return;
    }
    menu->popup(event->globalPos());
}

void TimelineView::copyText()
{
    if (QMimeData *selected = m_delegate->selectedMimeData()) {
        QApplication::clipboard()->setMimeData(selected);
        return;
    }
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

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const QModelIndex index = indexAt(pos);
    m_pressPos = pos;
    m_pressIndex = index;
    m_dragged = false;
    if (event->button() == Qt::LeftButton) {
        const QPoint rowPos = pos - visualRect(index).topLeft();
        if (!index.isValid()) {
            m_delegate->clearTextSelection();
        } else if (!m_delegate->hitTest(index, rowPos).isClickable()) {
            const auto point = m_delegate->textPointAt(index, rowPos);
            if (m_tripleClick.isActive()
                && (pos - m_doubleClickPos).manhattanLength() < QApplication::startDragDistance()) {
                m_tripleClick.stop();
                const auto [from, to] = m_delegate->wordAt(point, true);
                m_delegate->setTextSelection(from, to);
            } else if ((event->modifiers() & Qt::ShiftModifier) && m_delegate->selectionAnchor().row.isValid()) {
                m_delegate->setTextSelection(m_delegate->selectionAnchor(), point);
                m_selecting = true;
            } else {
                m_delegate->setTextSelection(point, point);
                m_selecting = true;
            }
        }
    }
    QListView::mousePressEvent(event);
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_selecting && (event->buttons() & Qt::LeftButton)) {
        // The list's own drag would move the current row along: the text selection replaces it.
        if ((pos - m_pressPos).manhattanLength() >= QApplication::startDragDistance())
            m_dragged = true;
        m_dragPos = pos;
        extendSelectionTo(pos);
        const bool outside = pos.y() < 0 || pos.y() >= viewport()->height();
        if (outside && !m_dragScroll.isActive())
            m_dragScroll.start();
        else if (!outside)
            m_dragScroll.stop();
        return;
    }
    QListView::mouseMoveEvent(event);
    const QModelIndex index = indexAt(pos);
    const auto hit = m_delegate->hitTest(index, pos - visualRect(index).topLeft());
    setHoveredCode(index, hit.partID, hit.codeGroup);
    viewport()->setCursor(hit.isClickable()                      ? Qt::PointingHandCursor
                              : hit.kind == TimelineDelegate::Hit::Kind::Text ? Qt::IBeamCursor
                                                                              : Qt::ArrowCursor);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    const bool selecting = std::exchange(m_selecting, false);
    m_dragScroll.stop();
    const bool afterDoubleClick = std::exchange(m_releaseAfterDoubleClick, false);
    QListView::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    const QPoint pos = event->position().toPoint();
    const QModelIndex index = indexAt(pos);
    // A click (not the end of a drag, nor the second half of a double click) on something
    // clickable: a toggle, a link, the changes line, a code block's copy button.
    if (!m_dragged && !afterDoubleClick && index.isValid() && index == m_pressIndex)
        m_delegate->activate(index, pos - visualRect(index).topLeft());
    // X11 and Wayland's primary selection: what is selected pastes with the middle button.
    if (selecting && m_delegate->hasTextSelection() && QApplication::clipboard()->supportsSelection())
        QApplication::clipboard()->setText(m_delegate->selectedText(), QClipboard::Selection);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    m_releaseAfterDoubleClick = true;
    const QPoint pos = event->position().toPoint();
    const QModelIndex index = indexAt(pos);
    const QPoint rowPos = pos - visualRect(index).topLeft();
    if (event->button() != Qt::LeftButton || !index.isValid()
        || m_delegate->hitTest(index, rowPos).kind != TimelineDelegate::Hit::Kind::Text) {
        QListView::mouseDoubleClickEvent(event);
        return;
    }
    const auto [from, to] = m_delegate->wordAt(m_delegate->textPointAt(index, rowPos), false);
    m_delegate->setTextSelection(from, to);
    m_selecting = false;
    m_doubleClickPos = pos;
    m_tripleClick.start(QApplication::doubleClickInterval());
    if (QApplication::clipboard()->supportsSelection() && m_delegate->hasTextSelection())
        QApplication::clipboard()->setText(m_delegate->selectedText(), QClipboard::Selection);
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && m_delegate->hasTextSelection()) {
        m_delegate->clearTextSelection();
        event->accept();
        return;
    }
    QListView::keyPressEvent(event);
}

void TimelineView::leaveEvent(QEvent *event)
{
    QListView::leaveEvent(event);
    setHoveredCode({}, {}, 0);
}

void TimelineView::setHoveredCode(const QModelIndex &index, const QString &partID, int group)
{
    if (!m_delegate->setHoveredCode(partID, group))
        return;
    if (m_hoveredCodeRow.isValid())
        viewport()->update(visualRect(m_hoveredCodeRow));
    m_hoveredCodeRow = group > 0 ? QPersistentModelIndex(index) : QPersistentModelIndex();
    if (m_hoveredCodeRow.isValid())
        viewport()->update(visualRect(m_hoveredCodeRow));
}

void TimelineView::extendSelectionTo(const QPoint &pos)
{
    if (!model() || model()->rowCount() == 0)
        return;
    // The row under the mouse, or the nearest one when it is past the last row or the edges.
    const int y = std::clamp(pos.y(), 0, std::max(0, viewport()->height() - 1));
    QModelIndex index = indexAt(QPoint(viewport()->width() / 2, y));
    if (!index.isValid()) {
        const QModelIndex last = model()->index(model()->rowCount() - 1, 0);
        index = y >= visualRect(last).bottom() ? last : model()->index(0, 0);
    }
    m_delegate->setTextSelection(m_delegate->selectionAnchor(),
                                 m_delegate->textPointAt(index, pos - visualRect(index).topLeft()));
}

void TimelineView::dragScroll()
{
    const int beyond = m_dragPos.y() < 0 ? m_dragPos.y() : std::max(0, m_dragPos.y() - viewport()->height() + 1);
    if (beyond == 0) {
        m_dragScroll.stop();
        return;
    }
    // Faster the further the mouse is past the edge, as in a text editor.
    const int step = std::clamp(std::abs(beyond) / 2, 4, 60);
    QScrollBar *bar = verticalScrollBar();
    bar->setValue(bar->value() + (beyond < 0 ? -step : step));
    extendSelectionTo(m_dragPos);
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
