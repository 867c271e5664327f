// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QWidget>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QListView;
class QModelIndex;
class QStackedLayout;

namespace weft
{

class BoardModel;
class BoardSortModel;
class BoardView;
class MainWindow;

/// The window's board: every session that runs or waits, of every source, as a tile
/// (BoardModel), fed from the window's SessionController (runs started, ended, queued), the
/// services of its sources (what the sessions write, their cost) and the attention inbox (what
/// they ask). Shown in a dock (View › Board) the user can float or dock.
class Board : public QObject
{
    Q_OBJECT

public:
    /// Follows @p window's controller and puts the board's dock into the window (hidden until
    /// its "showBoard" action is checked).
    explicit Board(MainWindow *window);
    ~Board() override;

    [[nodiscard]] MainWindow *window() const { return m_window; }
    [[nodiscard]] BoardModel *model() const { return m_model; }
    /// The board in the dock (other views may show the model too: a BoardView of their own).
    [[nodiscard]] BoardView *view() const;
    [[nodiscard]] QDockWidget *dock() const;

    /// Opens @p sessionID of @p source in the window; with the question @p requestID that waits
    /// there, the keyboard on its first answer.
    void open(const QString &sessionID, const QString &source, const QString &requestID = {});
    /// Stops the run of @p sessionID (where it runs: here or on its server).
    void stop(const QString &sessionID);

private:
    void onBusyChanged(const QString &sessionID, bool busy);

    MainWindow *m_window;
    BoardModel *m_model;
    QPointer<QDockWidget> m_dock;
    QPointer<BoardView> m_view;
};

/// Tiles of a Board's sessions in a grid that reflows with the width, each painted with its
/// state's badge, what it does now, the question it asks, how long it runs, tokens and cost;
/// sortable (a combo), filtered to a set of sessions if asked (setSessionFilter()), with an
/// empty state. A click or Return opens the tile's session; its context menu (or Delete) stops
/// the run or dismisses an ended one.
class BoardView : public QWidget
{
    Q_OBJECT

public:
    explicit BoardView(Board *board, QWidget *parent = nullptr);
    ~BoardView() override;

    /// Shows only the sessions of @p sessionIDs (all when empty).
    void setSessionFilter(const QSet<QString> &sessionIDs);
    [[nodiscard]] QListView *listView() const { return m_list; }
    [[nodiscard]] QComboBox *sortCombo() const { return m_sort; }
    /// The model the list shows (sorted, filtered, in words for screen readers).
    [[nodiscard]] BoardSortModel *sortModel() const { return m_sorted; }
    /// The text shown while no tile is (the empty state).
    [[nodiscard]] QLabel *emptyLabel() const { return m_empty; }
    /// How many run, wait, ended: "3 running · 1 waiting for you".
    [[nodiscard]] QLabel *summaryLabel() const { return m_summary; }
    QSize sizeHint() const override;
    /// The menu of the tile at @p index: Open, Stop, Dismiss, Dismiss All Ended (the caller owns it).
    [[nodiscard]] QMenu *contextMenu(const QModelIndex &index);

    // A tile in words (of a row of BoardModel, or of a model over it): what it paints, what a
    // screen reader reads.
    /// Its badge: "Running", "Needs approval", "Asks you", "Queued", "Finished", "Failed", "Stopped".
    [[nodiscard]] static QString stateText(const QModelIndex &index);
    /// "project · branch".
    [[nodiscard]] static QString placeText(const QModelIndex &index);
    /// What it does now: the last line written, "Thinking: …", or "Shell: npm test".
    [[nodiscard]] static QString activityText(const QModelIndex &index);
    /// What waits: the question ("Asks to run a command: rm -rf build"), the error, the queue.
    [[nodiscard]] static QString noteText(const QModelIndex &index);
    /// "2 min 05 s · 41.8k tokens · $0.13".
    [[nodiscard]] static QString usageText(const QModelIndex &index);
    /// "12 s", "3 min 05 s", "1 h 02 min": how long a run took.
    [[nodiscard]] static QString elapsedText(qint64 ms);

private:
    void open(const QModelIndex &index);
    void updateEmpty();
    void updateSummary();
    void showContextMenu(const QModelIndex &index, const QPoint &globalPos);

    QPointer<Board> m_board;
    BoardSortModel *m_sorted;
    QComboBox *m_sort;
    QListView *m_list;
    QLabel *m_summary;
    QLabel *m_empty;
    QStackedLayout *m_stack;
};

} // namespace weft
