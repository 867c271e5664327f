// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "qt/diffmodel.h"

#include <QAbstractScrollArea>
#include <QColor>
#include <QWidget>

#include <memory>

class QAction;
class QLabel;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace weft
{

class DiffHighlighting;

/// The colours of a diff, from the palette (readable in light and dark themes).
struct DiffColors {
    QColor added;        ///< background of an added line
    QColor removed;      ///< background of a removed line
    QColor addedWord;    ///< background of a changed word in an added line
    QColor removedWord;  ///< background of a changed word in a removed line
    QColor addedGutter;  ///< line-number column of an added line
    QColor removedGutter;
    QColor gutter;       ///< line-number column of other lines
    QColor hunk;         ///< background of a hunk header
    QColor hunkText;
    QColor filler;       ///< side-by-side: where the other side has lines this one lacks
    QColor lineNumber;
    QColor addedSign;
    QColor removedSign;
    [[nodiscard]] static DiffColors fromPalette(const QPalette &palette);
};

/// One painted column of a diff (no widget and no text document per line: a 50,000-line file
/// costs what the visible rows cost): the unified layout, or the old or new side of the
/// side-by-side layout. Scrolls by rows vertically and by pixels horizontally.
class DiffTextArea : public QAbstractScrollArea
{
    Q_OBJECT

public:
    enum class Side { Unified, Old, New };

    explicit DiffTextArea(Side side, QWidget *parent = nullptr);

    void setDocument(std::shared_ptr<const DiffDocument> document, std::shared_ptr<DiffHighlighting> highlighting);
    [[nodiscard]] Side side() const { return m_side; }
    /// Rows of this column: the document's rows (unified) or side-by-side rows.
    [[nodiscard]] int rowCount() const;
    [[nodiscard]] int rowHeight() const { return m_rowHeight; }
    /// The first row shown.
    [[nodiscard]] int topRow() const;
    void setTopRow(int row);
    /// The rectangle of row @p row in viewport coordinates (may lie outside the viewport).
    [[nodiscard]] QRect rowRect(int row) const;
    /// Where character @p column of row @p row is drawn, in viewport coordinates.
    [[nodiscard]] QRectF characterRect(int row, int column) const;
    /// The unified row shown at row @p row of this column (-1 for a filler).
    [[nodiscard]] int documentRow(int row) const;
    /// x where the text starts (after the gutter), in viewport coordinates.
    [[nodiscard]] int textLeft() const { return m_textLeft; }
    /// The hunk marked as current (its header gets an accent).
    void setCurrentHunk(int hunk);
    /// Side by side: the other column. Both get the same horizontal range (that of the narrower
    /// one, which lacks the width of the vertical scroll bar), so that they stay aligned to the end.
    void setScrollPartner(DiffTextArea *partner) { m_partner = partner; }

Q_SIGNALS:
    void topRowChanged(int row);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateMetrics();
    void updateScrollBars();
    void paintRow(QPainter &p, int row, int y, const DiffColors &colors);
    [[nodiscard]] QString lineText(int documentRow, bool oldSide) const;

    Side m_side;
    std::shared_ptr<const DiffDocument> m_doc;
    std::shared_ptr<DiffHighlighting> m_highlighting;
    QFont m_font;
    int m_rowHeight = 18;
    qreal m_charWidth = 8;
    int m_numberWidth = 40;
    int m_textLeft = 0;
    int m_maxTextWidth = 0;
    int m_currentHunk = -1;
    DiffTextArea *m_partner = nullptr;
};

/// The diff of one file: unified or side by side (the choice is remembered), syntax highlighting
/// chosen by the file name, added and removed lines and changed words marked, line numbers, hunk
/// navigation; files over a size limit wait behind a "show anyway" notice.
class DiffView : public QWidget
{
    Q_OBJECT

public:
    enum class Mode { Unified, SideBySide };

    /// Files with more lines than this (on either side), or more characters, are shown only on
    /// request.
    static constexpr qint64 LargeFileLines = 20000;
    static constexpr qint64 LargeFileCharacters = 2 * 1024 * 1024;
    [[nodiscard]] static bool isLarge(const FileDiff &diff);

    explicit DiffView(QWidget *parent = nullptr);
    ~DiffView() override;

    /// Shows @p document (null: nothing selected).
    void setDocument(std::shared_ptr<const DiffDocument> document);
    [[nodiscard]] std::shared_ptr<const DiffDocument> document() const { return m_doc; }
    /// Shows the large-file notice for @p path instead of a diff; showAnywayRequested() when the
    /// user asks for it.
    void showLargeFileNotice(const QString &path, qint64 lines);
    [[nodiscard]] bool isShowingLargeFileNotice() const;
    /// Shows @p text in place of a diff (nothing selected, no changes...).
    void showMessage(const QString &text);
    /// Shows that the diff of @p path is being computed (off the GUI thread) until setDocument().
    void showComputing(const QString &path);
    [[nodiscard]] bool isComputing() const { return m_computing; }

    [[nodiscard]] Mode mode() const { return m_mode; }
    /// Switches the layout, keeping the row in view, and remembers the choice.
    void setMode(Mode mode);
    /// The layout chosen last (QSettings), for a new view.
    [[nodiscard]] static Mode savedMode();

    /// The KSyntaxHighlighting definition chosen for the file (by its name); empty for none.
    [[nodiscard]] QString definitionName() const;

    [[nodiscard]] int hunkCount() const;
    [[nodiscard]] int currentHunk() const { return m_currentHunk; }
    /// Scrolls to the next / previous hunk; false (and no scrolling) when there is none.
    bool nextHunk();
    bool previousHunk();
    /// Scrolls to hunk @p hunk (the first with 0, the last with -1).
    void goToHunk(int hunk);

    [[nodiscard]] DiffTextArea *unifiedArea() const { return m_unified; }
    [[nodiscard]] DiffTextArea *leftArea() const { return m_left; }
    [[nodiscard]] DiffTextArea *rightArea() const { return m_right; }
    /// The column that shows the diff in the current mode (the right one side by side).
    [[nodiscard]] DiffTextArea *activeArea() const;

    [[nodiscard]] QAction *nextHunkAction() const { return m_nextHunk; }
    [[nodiscard]] QAction *previousHunkAction() const { return m_previousHunk; }
    [[nodiscard]] QAction *unifiedAction() const { return m_unifiedAction; }
    [[nodiscard]] QAction *sideBySideAction() const { return m_sideBySideAction; }

Q_SIGNALS:
    void showAnywayRequested();
    void modeChanged(weft::DiffView::Mode mode);
    void currentHunkChanged(int hunk);
    /// next/previous hunk found no further hunk in this file (the pane goes to the next file).
    void hunkNavigationExhausted(bool forward);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void syncScrolling();
    void updateHeader();
    /// Leaves out the hunk position when the header is too narrow for the file name.
    void fitHeader();
    void updateHunkFromScroll();
    [[nodiscard]] int hunkRow(int hunk) const;

    std::shared_ptr<const DiffDocument> m_doc;
    std::shared_ptr<DiffHighlighting> m_highlighting;
    Mode m_mode = Mode::Unified;
    int m_currentHunk = -1;
    bool m_navigating = false;
    bool m_computing = false;

    QLabel *m_path = nullptr;
    QLabel *m_stats = nullptr;
    QLabel *m_hunkLabel = nullptr;
    QToolButton *m_previousButton = nullptr;
    QToolButton *m_nextButton = nullptr;
    QToolButton *m_unifiedButton = nullptr;
    QToolButton *m_sideBySideButton = nullptr;
    QStackedWidget *m_stack = nullptr;
    DiffTextArea *m_unified = nullptr;
    QWidget *m_sideBySide = nullptr;
    DiffTextArea *m_left = nullptr;
    DiffTextArea *m_right = nullptr;
    QWidget *m_notice = nullptr;
    QLabel *m_noticeTitle = nullptr;
    QLabel *m_noticeText = nullptr;
    QPushButton *m_showAnyway = nullptr;
    QAction *m_nextHunk = nullptr;
    QAction *m_previousHunk = nullptr;
    QAction *m_unifiedAction = nullptr;
    QAction *m_sideBySideAction = nullptr;
};

} // namespace weft
