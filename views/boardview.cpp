// SPDX-License-Identifier: GPL-3.0-or-later
#include "boardview.h"

#include "app/serversource.h"
#include "app/sessioncontroller.h"
#include "attentioninbox.h"
#include "core/toolnames.h"
#include "mainwindow.h"
#include "qt/attentionmodel.h"
#include "qt/boardmodel.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "style.h"

#include <QAction>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QSettings>
#include <QStackedLayout>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int TileSpacing = 8; // between tiles, and around them
constexpr int MinTileWidth = 280;
constexpr int TilePadding = 10; // inside a tile

BoardModel::State tileState(const QModelIndex &index)
{
    return index.data(BoardModel::StateRole).value<BoardModel::State>();
}

QColor tileStateColor(BoardModel::State state, const QPalette &palette)
{
    switch (state) {
    case BoardModel::State::Waiting:
        return Style::neutral(palette);
    case BoardModel::State::Failed:
        return Style::negative(palette);
    case BoardModel::State::Running:
        return Style::active(palette);
    case BoardModel::State::Finished:
        return Style::positive(palette);
    case BoardModel::State::Queued:
    case BoardModel::State::Stopped:
        break;
    }
    return Style::dimText(palette);
}

/// The board's rows in words: what a screen reader reads and a tool tip shows.
class BoardWords : public BoardSortModel
{
public:
    using BoardSortModel::BoardSortModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role != Qt::AccessibleTextRole && role != Qt::ToolTipRole)
            return BoardSortModel::data(index, role);
        QStringList lines{index.data(BoardModel::TitleRole).toString(), BoardView::stateText(index)};
        for (const QString &line : {BoardView::placeText(index), BoardView::activityText(index),
                                    BoardView::noteText(index), BoardView::usageText(index)}) {
            if (!line.isEmpty())
                lines.append(line);
        }
        return lines.join(role == Qt::ToolTipRole ? u"\n"_s : u". "_s);
    }
};

/// A tile: its state's stripe and badge, title, place, what it does, what waits, usage.
class BoardDelegate : public QStyledItemDelegate
{
public:
    explicit BoardDelegate(QObject *parent)
        : QStyledItemDelegate(parent)
    {
    }

    void setTileWidth(int width) { m_width = width; }
    void setSpinnerPhase(int phase) { m_phase = phase; }

    /// The height of a tile in @p font.
    [[nodiscard]] static int tileHeight(const QFont &font)
    {
        const QFontMetrics fm(font);
        const QFontMetrics small(Style::smallFont(font));
        QFont bold = font;
        bold.setBold(true);
        const QFontMetrics title(bold);
        // Title, place, what it does, what waits, usage.
        return TilePadding + title.height() + 2 + small.height() + 8 + fm.height() + 4 + fm.height() + 8
            + small.height() + TilePadding;
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const override
    {
        return {m_width, tileHeight(option.font)};
    }

    void paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QPalette &palette = option.palette;
        const BoardModel::State state = tileState(index);
        const QColor color = tileStateColor(state, palette);
        const QColor text = palette.color(QPalette::Text);
        const QColor dim = Style::dimText(palette);
        const bool selected = option.state.testFlag(QStyle::State_Selected);
        const bool focused = selected && option.state.testFlag(QStyle::State_HasFocus);
        const bool hovered = option.state.testFlag(QStyle::State_MouseOver);
        const QRectF card = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5);

        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        // The card, its border showing selection, and the state's stripe on the left.
        QColor base = palette.color(QPalette::Base);
        if (hovered && !selected)
            base = Style::mix(base, palette.color(QPalette::Highlight), 0.05);
        const QColor border = selected ? palette.color(QPalette::Highlight)
                                       : Style::mix(palette.color(QPalette::Mid), base, 0.3);
        p->setPen(QPen(border, focused ? 2 : 1));
        p->setBrush(base);
        p->drawRoundedRect(card, 6, 6);
        QPainterPath clip;
        clip.addRoundedRect(card, 6, 6);
        p->setClipPath(clip);
        p->fillRect(QRectF(card.left(), card.top(), 4, card.height()), color);
        p->setClipping(false);

        const QFont font = option.font;
        const QFont small = Style::smallFont(font);
        QFont bold = font;
        bold.setBold(true);
        const QFontMetrics fm(font);
        const QFontMetrics sfm(small);
        const QFontMetrics bfm(bold);
        const int left = option.rect.left() + TilePadding + 4;
        const int right = option.rect.right() - TilePadding;
        int y = option.rect.top() + TilePadding;

        // The badge, then the title beside it.
        const QString badge = BoardView::stateText(index);
        const bool spinning = state == BoardModel::State::Running;
        const int badgeW = sfm.horizontalAdvance(badge) + 18 + (spinning ? 14 : 0);
        const int badgeH = sfm.height() + 4;
        const QRectF badgeRect(right - badgeW, y + (bfm.height() - badgeH) / 2.0, badgeW, badgeH);
        if (spinning) {
            Style::drawPill(p, badgeRect, QString(), color, small);
            Style::drawSpinner(p, QPointF(badgeRect.left() + 12, badgeRect.center().y()), 4, m_phase, color);
            p->setFont(small);
            p->setPen(color);
            p->drawText(badgeRect.adjusted(20, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft, badge);
        } else {
            Style::drawPill(p, badgeRect, badge, color, small);
        }
        p->setFont(bold);
        p->setPen(text);
        const int titleW = int(badgeRect.left()) - 8 - left;
        p->drawText(QRect(left, y, titleW, bfm.height()), Qt::AlignVCenter | Qt::AlignLeft,
                    bfm.elidedText(index.data(BoardModel::TitleRole).toString(), Qt::ElideRight, titleW));
        y += bfm.height() + 2;

        // Where: the folder and its branch.
        p->setFont(small);
        p->setPen(dim);
        p->drawText(QRect(left, y, right - left, sfm.height()), Qt::AlignVCenter | Qt::AlignLeft,
                    sfm.elidedText(BoardView::placeText(index), Qt::ElideMiddle, right - left));
        y += sfm.height() + 8;

        // What it does now.
        p->setFont(font);
        const auto activity = index.data(BoardModel::ActivityRole).value<BoardModel::Activity>();
        const QString line = index.data(BoardModel::ActivityTextRole).toString();
        QRect lineRect(left, y, right - left, fm.height());
        if (activity == BoardModel::Activity::Tool) {
            const QString tool = ToolNames::displayName(index.data(BoardModel::ToolRole).toString());
            p->setFont(bold);
            p->setPen(Style::active(palette));
            const int toolW = std::min(bfm.horizontalAdvance(tool), lineRect.width() / 2);
            // elidedText() measures in fractions: the rounded advance alone would cut the name.
            p->drawText(lineRect, Qt::AlignVCenter | Qt::AlignLeft, bfm.elidedText(tool, Qt::ElideRight, toolW + 1));
            lineRect.setLeft(lineRect.left() + toolW + fm.horizontalAdvance(u' ') * 2);
            p->setFont(font);
            p->setPen(text);
            p->drawText(lineRect, Qt::AlignVCenter | Qt::AlignLeft,
                        fm.elidedText(line, Qt::ElideRight, lineRect.width()));
        } else if (activity == BoardModel::Activity::None) {
            p->setPen(dim);
            const bool starting = state == BoardModel::State::Queued || state == BoardModel::State::Running;
            p->drawText(lineRect, Qt::AlignVCenter | Qt::AlignLeft,
                        starting ? BoardView::tr("Starting…") : BoardView::tr("Nothing written yet"));
        } else {
            QFont f = font;
            f.setItalic(activity == BoardModel::Activity::Thinking);
            p->setFont(f);
            p->setPen(activity == BoardModel::Activity::Thinking ? dim : text);
            p->drawText(lineRect, Qt::AlignVCenter | Qt::AlignLeft,
                        QFontMetrics(f).elidedText(BoardView::activityText(index), Qt::ElideRight, lineRect.width()));
        }
        y += fm.height() + 4;

        // What waits: the question asked, the error, the queue.
        if (const QString note = BoardView::noteText(index); !note.isEmpty()) {
            const QColor noteColor = state == BoardModel::State::Waiting ? Style::neutral(palette)
                : state == BoardModel::State::Failed                     ? Style::negative(palette)
                                                             : dim;
            QFont f = font;
            f.setBold(state == BoardModel::State::Waiting);
            p->setFont(f);
            p->setPen(noteColor);
            p->drawText(QRect(left, y, right - left, fm.height()), Qt::AlignVCenter | Qt::AlignLeft,
                        QFontMetrics(f).elidedText(note, Qt::ElideRight, right - left));
        }
        y += fm.height() + 8;

        // How long, tokens, cost.
        p->setFont(small);
        p->setPen(dim);
        p->drawText(QRect(left, y, right - left, sfm.height()), Qt::AlignVCenter | Qt::AlignLeft,
                    sfm.elidedText(BoardView::usageText(index), Qt::ElideRight, right - left));
        p->restore();
    }

private:
    int m_width = MinTileWidth;
    int m_phase = 0;
};

/// The grid: tiles as wide as the width allows (at least MinTileWidth), Return opens, Delete
/// dismisses, the running tiles' spinners turn while the list is shown.
class BoardList : public QListView
{
public:
    explicit BoardList(QWidget *parent)
        : QListView(parent)
        , m_delegate(new BoardDelegate(this))
        , m_spinner(new QTimer(this))
    {
        setObjectName(u"boardList"_s);
        setViewMode(QListView::ListMode);
        setFlow(QListView::LeftToRight);
        setWrapping(true);
        setResizeMode(QListView::Adjust);
        setMovement(QListView::Static);
        setUniformItemSizes(true);
        setSpacing(TileSpacing / 2);
        setSelectionMode(QAbstractItemView::SingleSelection);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setMouseTracking(true);
        setFrameShape(QFrame::NoFrame);
        setItemDelegate(m_delegate);
        viewport()->setBackgroundRole(QPalette::Window);
        m_spinner->setInterval(80);
        connect(m_spinner, &QTimer::timeout, this, [this] {
            m_phase = (m_phase + 24) % 360;
            m_delegate->setSpinnerPhase(m_phase);
            viewport()->update();
        });
    }

    std::function<void(const QModelIndex &)> onOpen;
    std::function<void(const QModelIndex &)> onDismiss;
    std::function<void(const QModelIndex &, const QPoint &globalPos)> onMenu;

    /// Turns the spinners while a shown tile runs.
    void updateSpinner()
    {
        bool running = false;
        for (int row = 0; model() && row < model()->rowCount() && !running; ++row)
            running = tileState(model()->index(row, 0)) == BoardModel::State::Running;
        if (running && isVisible())
            m_spinner->start();
        else
            m_spinner->stop();
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QListView::resizeEvent(event);
        relayoutTiles();
    }

    void showEvent(QShowEvent *event) override
    {
        QListView::showEvent(event);
        relayoutTiles();
        updateSpinner();
    }

    void hideEvent(QHideEvent *event) override
    {
        QListView::hideEvent(event);
        m_spinner->stop();
    }

    void contextMenuEvent(QContextMenuEvent *event) override
    {
        // The menu key: the current tile's menu, at the tile.
        const bool keyboard = event->reason() == QContextMenuEvent::Keyboard;
        const QModelIndex index = keyboard ? currentIndex() : indexAt(event->pos());
        if (!index.isValid() || !onMenu)
            return;
        setCurrentIndex(index);
        onMenu(index, keyboard ? viewport()->mapToGlobal(visualRect(index).center()) : event->globalPos());
        event->accept();
    }

    void keyPressEvent(QKeyEvent *event) override
    {
        const QModelIndex current = currentIndex();
        if (current.isValid() && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)) {
            if (onOpen)
                onOpen(current);
            event->accept();
            return;
        }
        if (current.isValid() && event->key() == Qt::Key_Delete && BoardModel::hasEnded(tileState(current))) {
            if (onDismiss)
                onDismiss(current);
            event->accept();
            return;
        }
        QListView::keyPressEvent(event);
    }

private:
    void relayoutTiles()
    {
        // QListView keeps room for the scroll bar while it is hidden (its wrapping layout would
        // otherwise show it, narrowing the rows and wrapping them again).
        const int bar = verticalScrollBar()->isVisible()
            ? 0
            : style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, verticalScrollBar()) + 2;
        const int width = viewport()->width() - bar - TileSpacing;
        const int columns = std::max(1, width / (MinTileWidth + TileSpacing));
        const int tile = std::max(MinTileWidth, width / columns - TileSpacing);
        m_delegate->setTileWidth(tile);
        scheduleDelayedItemsLayout();
    }

    BoardDelegate *m_delegate;
    QTimer *m_spinner;
    int m_phase = 0;
};

} // namespace

// ---- Board

Board::Board(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_model(new BoardModel(this))
{
    m_model->setSessionLookup([window](const QString &source, const QString &sessionID) -> std::optional<Session> {
        const SessionsModel *sessions = window->sessionTreeModel()->sessionsModel(source);
        return sessions ? sessions->session(sessionID) : std::nullopt;
    });
    m_model->setAttentionModel(window->attentionInbox()->model());

    SessionController *c = window->controller();
    m_model->followService(QString(), c->service());
    connect(c, &SessionController::busyChanged, this, &Board::onBusyChanged);
    connect(c, &SessionController::runFinished, m_model,
            [this, c](const QString &sessionID, bool ok, const MessageError &error) {
                const bool stopped = !ok && error.kind() == MessageError::Kind::Aborted;
                const BoardModel::State outcome = ok ? BoardModel::State::Finished
                    : stopped                        ? BoardModel::State::Stopped
                                                     : BoardModel::State::Failed;
                m_model->setFinished(sessionID, c->sourceOf(sessionID), outcome,
                                     ok || stopped ? QString() : error.message());
            });
    // A `weft run` in a terminal, another window: shown, not stopped from here.
    connect(c, &SessionController::runningElsewhereChanged, m_model, [this](const QString &sessionID, bool running) {
        m_model->setRunningElsewhere(sessionID, QString(), running);
    });
    for (const QString &sessionID : c->sessionsRunningElsewhere())
        m_model->setRunningElsewhere(sessionID, QString(), true);
    connect(c, &SessionController::queueChanged, m_model, [this, c](const QString &sessionID) {
        m_model->setQueued(sessionID, c->sourceOf(sessionID), int(c->queuedPrompts(sessionID).size()));
    });
    // A server's key is its address once it connects: asked when it is ready and when it closes.
    const auto followServer = [this](ServerSource *server) {
        if (server->isReady())
            m_model->followService(server->key(), server->service());
        connect(server, &ServerSource::ready, m_model,
                [this, server] { m_model->followService(server->key(), server->service()); });
        connect(server, &ServerSource::aboutToClose, m_model, [this, server] { m_model->removeSource(server->key()); });
    };
    connect(c, &SessionController::serverAdded, this, followServer);
    for (ServerSource *server : c->servers())
        followServer(server);
    for (const QString &sessionID : c->busySessions())
        onBusyChanged(sessionID, true);

    m_dock = new QDockWidget(tr("Board"), window);
    m_dock->setObjectName(u"boardDock"_s);
    m_view = new BoardView(this, m_dock);
    m_dock->setWidget(m_view);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    QAction *show = window->action(u"showBoard"_s);
    connect(show, &QAction::toggled, m_dock, [this](bool on) {
        m_dock->setVisible(on);
        if (on) {
            m_dock->raise();
            m_view->listView()->setFocus(Qt::ShortcutFocusReason);
        }
    });
    connect(m_dock->toggleViewAction(), &QAction::toggled, show, &QAction::setChecked);
}

Board::~Board()
{
    delete m_dock; // its view shows the model that goes with the board
}

BoardView *Board::view() const
{
    return m_view;
}

QDockWidget *Board::dock() const
{
    return m_dock;
}

void Board::onBusyChanged(const QString &sessionID, bool busy)
{
    m_model->setRunning(sessionID, m_window->controller()->sourceOf(sessionID), busy);
}

void Board::open(const QString &sessionID, const QString &source, const QString &requestID)
{
    // A question: opened as the inbox opens it, the keyboard on its first answer.
    AttentionInbox *inbox = m_window->attentionInbox();
    if (const QModelIndex question = inbox->model()->indexForRequest(requestID); question.isValid()) {
        inbox->open(question);
        return;
    }
    m_window->openSession(sessionID, source);
}

void Board::stop(const QString &sessionID)
{
    m_window->controller()->stop(sessionID);
}

// ---- BoardView

BoardView::BoardView(Board *board, QWidget *parent)
    : QWidget(parent)
    , m_board(board)
    , m_sorted(new BoardWords(this))
    , m_sort(new QComboBox(this))
    , m_list(new BoardList(this))
    , m_summary(new QLabel(this))
    , m_empty(new QLabel(tr("No session is running"), this))
    , m_stack(new QStackedLayout)
{
    setObjectName(u"boardView"_s);
    m_sorted->setSourceModel(board->model());
    m_list->setModel(m_sorted);
    m_list->setAccessibleName(tr("Running sessions"));

    m_sort->setObjectName(u"boardSort"_s);
    m_sort->setAccessibleName(tr("Sort the board"));
    m_sort->addItem(tr("By state"), QVariant::fromValue(BoardSortModel::SortKey::State));
    m_sort->addItem(tr("By time"), QVariant::fromValue(BoardSortModel::SortKey::Elapsed));
    m_sort->addItem(tr("By cost"), QVariant::fromValue(BoardSortModel::SortKey::Cost));
    m_sort->addItem(tr("By title"), QVariant::fromValue(BoardSortModel::SortKey::Title));
    const int saved = m_sort->findData(QSettings().value(u"Board/sort"_s).toInt());
    m_sort->setCurrentIndex(std::max(0, saved));
    m_sorted->setSortKey(m_sort->currentData().value<BoardSortModel::SortKey>());
    connect(m_sort, &QComboBox::currentIndexChanged, this, [this] {
        const auto key = m_sort->currentData().value<BoardSortModel::SortKey>();
        m_sorted->setSortKey(key);
        QSettings().setValue(u"Board/sort"_s, int(key));
    });

    m_empty->setObjectName(u"boardEmpty"_s);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    QPalette emptyPalette = m_empty->palette();
    emptyPalette.setColor(QPalette::WindowText, Style::dimText(emptyPalette));
    m_empty->setPalette(emptyPalette);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(TileSpacing, TileSpacing / 2, TileSpacing, 0);
    m_summary->setObjectName(u"boardSummary"_s);
    m_summary->setPalette(emptyPalette);
    bar->addWidget(m_summary);
    bar->addStretch(1);
    bar->addWidget(m_sort);
    m_stack->addWidget(m_list);
    m_stack->addWidget(m_empty);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addLayout(m_stack, 1);

    auto *list = static_cast<BoardList *>(m_list);
    list->onOpen = [this](const QModelIndex &index) { open(index); };
    list->onDismiss = [this](const QModelIndex &index) {
        if (m_board)
            m_board->model()->dismiss(index.data(BoardModel::SessionIdRole).toString(),
                                  index.data(BoardModel::SourceRole).toString());
    };
    connect(m_list, &QListView::clicked, this, &BoardView::open);
    list->onMenu = [this](const QModelIndex &index, const QPoint &globalPos) { showContextMenu(index, globalPos); };
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_sorted, signal, this, &BoardView::updateEmpty);
    connect(m_sorted, &QAbstractItemModel::modelReset, this, &BoardView::updateEmpty);
    connect(m_sorted, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &, const QModelIndex &,
                                                                     const QList<int> &roles) {
        if (roles.isEmpty() || roles.contains(BoardModel::StateRole))
            updateSummary();
    });
    connect(m_sorted, &QAbstractItemModel::dataChanged, list, &BoardList::updateSpinner);
    connect(m_sorted, &QAbstractItemModel::rowsInserted, list, &BoardList::updateSpinner);
    connect(m_sorted, &QAbstractItemModel::rowsRemoved, list, &BoardList::updateSpinner);
    updateEmpty();
}

BoardView::~BoardView() = default;

void BoardView::setSessionFilter(const QSet<QString> &sessionIDs)
{
    m_sorted->setSessionFilter(sessionIDs);
    updateEmpty();
}

void BoardView::open(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    if (m_board)
        m_board->open(index.data(BoardModel::SessionIdRole).toString(), index.data(BoardModel::SourceRole).toString(),
                      index.data(BoardModel::RequestIdRole).toString());
}

void BoardView::updateSummary()
{
    int running = 0;
    int waiting = 0;
    int ended = 0;
    for (int row = 0; row < m_sorted->rowCount(); ++row) {
        const BoardModel::State state = tileState(m_sorted->index(row, 0));
        if (state == BoardModel::State::Waiting)
            ++waiting;
        else if (state == BoardModel::State::Running)
            ++running;
        else if (BoardModel::hasEnded(state))
            ++ended;
    }
    QStringList parts;
    if (running > 0)
        parts.append(tr("%1 running").arg(running));
    if (waiting > 0)
        parts.append(tr("%1 waiting for you").arg(waiting));
    if (ended > 0)
        parts.append(tr("%1 ended").arg(ended));
    m_summary->setText(parts.join(u" · "_s));
}

QSize BoardView::sizeHint() const
{
    // The sort bar and one row of tiles.
    return {MinTileWidth * 3,
            m_sort->sizeHint().height() + BoardDelegate::tileHeight(m_list->font()) + 4 * TileSpacing};
}

void BoardView::updateEmpty()
{
    updateSummary();
    const bool empty = m_sorted->rowCount() == 0;
    m_empty->setText(m_sorted->sessionFilter().isEmpty() ? tr("No session is running")
                                                         : tr("None of these sessions is running"));
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_empty) : m_list);
    if (!empty && !m_list->currentIndex().isValid())
        m_list->setCurrentIndex(m_sorted->index(0, 0));
}

QMenu *BoardView::contextMenu(const QModelIndex &index)
{
    auto *menu = new QMenu(this);
    const QString sessionID = index.data(BoardModel::SessionIdRole).toString();
    const QString source = index.data(BoardModel::SourceRole).toString();
    const BoardModel::State state = tileState(index);
    const QPersistentModelIndex tile(index);
    QAction *open = menu->addAction(Style::icon(u"weft-session"_s), tr("&Open"), this,
                                    [this, tile] { BoardView::open(tile); });
    open->setObjectName(u"boardOpen"_s);
    QAction *stop = menu->addAction(Style::icon(u"process-stop"_s), tr("&Stop Run"), this,
                                    [this, sessionID] {
                                        if (m_board)
                                            m_board->stop(sessionID);
                                    });
    stop->setObjectName(u"boardStop"_s);
    stop->setEnabled((state == BoardModel::State::Running || state == BoardModel::State::Waiting)
                     && !index.data(BoardModel::ElsewhereRole).toBool());
    menu->addSeparator();
    QAction *dismiss = menu->addAction(Style::icon(u"dialog-close"_s), tr("&Dismiss"), this,
                                       [this, sessionID, source] {
                                           if (m_board)
                                               m_board->model()->dismiss(sessionID, source);
                                       });
    dismiss->setObjectName(u"boardDismiss"_s);
    dismiss->setEnabled(BoardModel::hasEnded(state));
    QAction *all = menu->addAction(tr("Dismiss &All Ended"), this, [this] {
        if (m_board)
            m_board->model()->dismissEnded();
    });
    all->setObjectName(u"boardDismissAll"_s);
    return menu;
}

void BoardView::showContextMenu(const QModelIndex &index, const QPoint &globalPos)
{
    QMenu *menu = contextMenu(index);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

QString BoardView::stateText(const QModelIndex &index)
{
    switch (tileState(index)) {
    case BoardModel::State::Waiting:
        return index.data(BoardModel::RequestKindRole).value<AttentionModel::Kind>() == AttentionModel::Kind::Question
            ? tr("Asks you")
            : tr("Needs approval");
    case BoardModel::State::Failed:
        return tr("Failed");
    case BoardModel::State::Running:
        return tr("Running");
    case BoardModel::State::Queued:
        return tr("Queued");
    case BoardModel::State::Finished:
        return tr("Finished");
    case BoardModel::State::Stopped:
        return tr("Stopped");
    }
    return {};
}

QString BoardView::placeText(const QModelIndex &index)
{
    const QString project = index.data(BoardModel::ProjectRole).toString();
    const QString branch = index.data(BoardModel::BranchRole).toString();
    if (branch.isEmpty())
        return project;
    return project.isEmpty() ? tr("branch %1").arg(branch) : tr("%1 · branch %2").arg(project, branch);
}

QString BoardView::activityText(const QModelIndex &index)
{
    const QString line = index.data(BoardModel::ActivityTextRole).toString();
    switch (index.data(BoardModel::ActivityRole).value<BoardModel::Activity>()) {
    case BoardModel::Activity::None:
        return {};
    case BoardModel::Activity::Text:
        return line;
    case BoardModel::Activity::Thinking:
        return tr("Thinking: %1").arg(line);
    case BoardModel::Activity::Tool: {
        const QString tool = ToolNames::displayName(index.data(BoardModel::ToolRole).toString());
        return line.isEmpty() ? tool : tr("%1: %2").arg(tool, line);
    }
    }
    return {};
}

QString BoardView::noteText(const QModelIndex &index)
{
    switch (tileState(index)) {
    case BoardModel::State::Waiting: {
        const QString detail = index.data(BoardModel::RequestDetailRole).toString();
        const int more = index.data(BoardModel::RequestCountRole).toInt() - 1;
        return more > 0 ? tr("⚑ %1 (+%2 more)").arg(detail).arg(more) : tr("⚑ %1").arg(detail);
    }
    case BoardModel::State::Failed: {
        const QString error = index.data(BoardModel::ErrorRole).toString();
        return error.isEmpty() ? tr("The run failed.") : error.section(u'\n', 0, 0);
    }
    case BoardModel::State::Stopped:
        return tr("Stopped by you.");
    case BoardModel::State::Queued:
    case BoardModel::State::Running:
    case BoardModel::State::Finished: {
        if (index.data(BoardModel::ElsewhereRole).toBool())
            return tr("Runs in another process");
        const int queued = index.data(BoardModel::QueuedRole).toInt();
        return queued > 0 ? tr("Queued prompts: %1").arg(queued) : QString();
    }
    }
    return {};
}

QString BoardView::usageText(const QModelIndex &index)
{
    QStringList parts;
    if (const qint64 elapsed = index.data(BoardModel::ElapsedRole).toLongLong(); elapsed > 0)
        parts.append(elapsedText(elapsed));
    if (const qint64 tokens = index.data(BoardModel::TokensRole).toLongLong(); tokens > 0)
        parts.append(tr("%1 tokens").arg(Style::compactNumber(tokens)));
    if (const double cost = index.data(BoardModel::CostRole).toDouble(); cost > 0)
        parts.append(Style::formatCost(cost));
    return parts.join(u" · "_s);
}

QString BoardView::elapsedText(qint64 ms)
{
    const qint64 s = ms / 1000;
    if (s < 60)
        return tr("%1 s").arg(s);
    if (s < 3600)
        return tr("%1 min %2 s").arg(s / 60).arg(int(s % 60), 2, 10, QChar(u'0'));
    return tr("%1 h %2 min").arg(s / 3600).arg(int((s / 60) % 60), 2, 10, QChar(u'0'));
}

} // namespace weft
