// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "framebudget.h"

#include <QElapsedTimer>
#include <QListView>
#include <QPersistentModelIndex>
#include <QTimer>

class QMenu;

namespace weft
{

class TimelineDelegate;
class TimelineModel;
class TimelineRevertFilter;

/// The chat timeline: a virtualised list of painted messages (TimelineDelegate), scrolled per
/// pixel. It stays at the bottom while the user is there (a stream grows into view) and keeps
/// its place when older messages are prepended as the user scrolls up.
class TimelineView : public QListView
{
    Q_OBJECT

public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    void setTimelineModel(TimelineModel *model);
    [[nodiscard]] TimelineModel *timelineModel() const { return m_model; }
    [[nodiscard]] TimelineDelegate *timelineDelegate() const { return m_delegate; }

    /// The context menu for @p index (what a right click at @p pos, in viewport coordinates,
    /// shows; a code block there can be copied), for the view and for tests.
    [[nodiscard]] QMenu *createContextMenu(const QModelIndex &index, QWidget *parent, const QPoint &pos = {-1, -1});
    /// True while the view follows the end of the timeline.
    [[nodiscard]] bool isPinnedToBottom() const { return m_pinned; }
    /// Rows with estimated heights are being measured in idle time.
    [[nodiscard]] bool hasPendingMeasurements() const { return m_measure.isActive(); }
    /// The spinner timer runs only while a reply is being written.
    [[nodiscard]] bool isAnimating() const { return m_spinner.isActive(); }
    /// The placeholder shown when there are no rows.
    void setPlaceholderText(const QString &text);
    /// Hides what a pending revert took back (the session's `revert`, as OpenCode's views do):
    /// the messages from @p messageID on, or, with @p partID, that message's parts from
    /// @p partID on and the messages after it. Empty: everything is shown.
    void setRevert(const QString &messageID, const QString &partID = {});
    [[nodiscard]] QString revertMessageID() const;
    /// Loaded messages hidden by the revert.
    [[nodiscard]] int hiddenMessageCount() const;
    /// Marks the tool call @p callID of message @p messageID as waiting for a permission answer.
    void setAwaitingPermission(const QString &messageID, const QString &callID, bool waiting);

    /// Scrolls to part @p partID of message @p messageID (to the message when @p partID is empty
    /// or not drawn), loading the older messages first when it is not loaded yet. A collapsed
    /// reasoning or tool part is expanded; the row becomes current. partRevealed() when done.
    void revealPart(const QString &messageID, const QString &partID = {});
    /// Find in the session: highlights @p text in the messages and frames part @p currentPartID.
    void setFindHighlight(const QString &text, const QString &currentPartID = {});

    /// Lays the rows out keeping the row the user reads where it is on screen (see
    /// relayoutKeepingPlace()), then measures the rows on screen whose heights were estimated
    /// (see TimelineDelegate::isEstimated()); the others are measured in idle time.
    void doItemsLayout() override;

    QAction *copyTextAction() const { return m_copyText; }
    QAction *copyMarkdownAction() const { return m_copyMarkdown; }
    QAction *selectAllTextAction() const { return m_selectAllText; }

public Q_SLOTS:
    void jumpToBottom();
    /// Copies the selected text, or the current message's text when nothing is selected.
    void copyText();
    void copyMarkdown();

Q_SIGNALS:
    /// "Fork from here": a new session from the messages before @p messageID (all of them when
    /// empty), as TimelineModel::forkPoint() chose it. From a user message, @p prompt is its
    /// text, to be edited and sent again in the fork (as OpenCode's TUI does); else empty.
    void forkRequested(const QString &sessionID, const QString &messageID, const QString &prompt);
    /// The "files changed in this turn" line of user message @p messageID was clicked.
    void turnChangesRequested(const QString &sessionID, const QString &messageID);
    /// revealPart() scrolled to the part (or gave up: the message is not in the session).
    void partRevealed(const QString &messageID, const QString &partID);

protected:
    void paintEvent(QPaintEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void verticalScrollbarValueChanged(int value) override;
    void rowsInserted(const QModelIndex &parent, int start, int end) override;
    void dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles = {}) override;

private:
    void onRowsAboutToBeInserted(const QModelIndex &parent, int start, int end);
    void updateAnimation();
    void advanceSpinner();
    void maybeFetchOlder();
    /// Shows @p rows: the timeline model itself, or the revert filter over it.
    void showRows(QAbstractItemModel *rows);
    /// The timeline model's index of the view's row @p index, and back.
    [[nodiscard]] QModelIndex sourceIndex(const QModelIndex &index) const;
    [[nodiscard]] QModelIndex viewIndex(const QModelIndex &source) const;

    /// Lays out exactly the rows on screen that have an estimated height; when a row on screen
    /// is not placed with its exact height, places the rows again (once) keeping the first
    /// visible one where it is. Leaves the other estimated rows to measureInIdleTime().
    void measureVisibleRows();
    /// One slice of measuring estimated rows in idle time, nearest to the viewport first. The
    /// rows are placed again when all are measured (or as they come into view).
    void measureInIdleTime();
    /// Lays the rows out again keeping the row the user reads where it is on screen, whatever
    /// changed above it (or the end in view, when pinned there). That row is the one
    /// onRowsAboutToBeInserted() remembered, or else the first visible one. Every placing of
    /// the rows goes through here.
    void relayoutKeepingPlace();

    void revealLoaded();
    /// Moves the end of the text selection to @p pos (viewport coordinates, may be outside it
    /// while the user drags past an edge).
    void extendSelectionTo(const QPoint &pos);
    /// Scrolls while a drag-selection is held beyond the top or bottom edge.
    void dragScroll();
    /// Shows the copy button of code block @p group of part @p partID of row @p index (0: none).
    void setHoveredCode(const QModelIndex &index, const QString &partID, int group);

    TimelineModel *m_model = nullptr;
    QString m_revealMessage; // what revealPart() waits for while older messages load
    QString m_revealPart;
    // What a pending revert hides. Only while one is: the view shows the timeline model itself
    // otherwise, as every placing of 20,000 rows maps each row through a proxy (a third of it).
    TimelineRevertFilter *m_revertFilter = nullptr;
    QMetaObject::Connection m_rowsAboutToBeInserted;
    TimelineDelegate *m_delegate = nullptr;
    QTimer m_spinner;
    int m_phase = 0;
    bool m_pinned = true;
    QPersistentModelIndex m_anchor;
    int m_anchorOffset = 0;
    QString m_placeholder;
    QAction *m_copyText = nullptr;
    QAction *m_copyMarkdown = nullptr;
    QAction *m_selectAllText = nullptr;
    // Mouse selection of text: a press not on something clickable starts it, dragging extends
    // it, a double click selects a word and a triple click a paragraph.
    bool m_selecting = false;
    bool m_dragged = false;
    bool m_releaseAfterDoubleClick = false;
    QPoint m_pressPos;
    QPoint m_dragPos;
    QPersistentModelIndex m_pressIndex;
    QTimer m_dragScroll;
    QTimer m_tripleClick; // runs for a double-click interval after a double click
    QPoint m_doubleClickPos;
    QPersistentModelIndex m_hoveredCodeRow;
    QTimer m_measure; // measureInIdleTime()
    // What the frames leave of their periods for measureInIdleTime(), on m_clock.
    FrameBudget m_frames;
    QElapsedTimer m_clock;
    bool m_measuring = false;
    /// Rows measured in idle time since the rows were last placed: their places are not yet
    /// those of their heights.
    bool m_unplacedHeights = false;
};

} // namespace weft
