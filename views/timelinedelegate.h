// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAbstractItemDelegate>
#include <QAbstractTextDocumentLayout>
#include <QCache>
#include <QImage>
#include <QPersistentModelIndex>
#include <QSet>
#include <QTextDocument>
#include <QTimer>

#include <memory>
#include <unordered_map>
#include <vector>

class QAbstractItemView;
class QElapsedTimer;
class QMimeData;

namespace weft
{

/// Paints one message of the timeline (no widget per message): the header, Markdown text with
/// highlighted code, collapsible reasoning, tool cards with a state badge, notices and errors.
///
/// One layout function, layout(), gives every rectangle (it dispatches to one function per kind
/// of block); paint(), sizeHint(), hitTest(), activate() and helpEvent() all use it. Layouts are cached
/// by message ID (with the row's revision and the width) and text documents by part ID, so that
/// scrolling and a streaming row cost no Markdown parsing except for the part that changed.
class TimelineDelegate : public QAbstractItemDelegate
{
    Q_OBJECT

public:
    explicit TimelineDelegate(QAbstractItemView *view);
    ~TimelineDelegate() override;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                   const QModelIndex &index) override;

    /// Reasoning and tool parts are collapsed until the user expands them.
    [[nodiscard]] bool isExpanded(const QString &partID) const { return m_expanded.contains(partID); }
    void setExpanded(const QModelIndex &index, const QString &partID, bool expanded);
    /// The rotation of the running spinners, advanced by the view while something runs.
    void setSpinnerPhase(int degrees) { m_spinnerPhase = degrees; }
    /// Marks the tool call @p callID as waiting for the user's answer to a permission question:
    /// its badge says "Needs approval" instead of "Running". The caller invalidates the message.
    void setAwaitingPermission(const QString &callID, bool waiting);
    [[nodiscard]] bool isAwaitingPermission(const QString &callID) const { return m_awaiting.contains(callID); }
    /// Find in the session: @p text is highlighted (case-insensitive) in the messages' text and
    /// the part @p currentPartID (the current match) is framed. Empty: no highlight.
    void setFindHighlight(const QString &text, const QString &currentPartID = {});
    [[nodiscard]] QString findHighlight() const { return m_find; }
    [[nodiscard]] QString findPart() const { return m_findPart; }
    /// Where part @p partID is drawn in the row of @p index (relative to the row), or null.
    [[nodiscard]] QRect partRect(const QModelIndex &index, const QString &partID) const;
    /// Forgets the cached layout of row @p index (of the view's model or its source): it is laid
    /// out again when next asked, not estimated (its neighbours changed, a part was expanded).
    void invalidate(const QModelIndex &index);
    /// Forgets every cached layout, height and document (the font or palette changed).
    void clearCaches();
    /// Forgets the laid-out text, documents and images but keeps the rows' heights (the view was
    /// hidden: shown again, it lays out only the rows it paints).
    void releaseLayouts();

    // Estimated heights. A row the view has not shown yet at the current width gets a height
    // estimated from its text's length and its parts, without rendering Markdown: a page of 60
    // older messages added above 20,000 rows then costs no layout. The view lays out exactly
    // the rows it shows (measure()) and the others in idle time.

    /// True when row @p index's height is an estimate.
    [[nodiscard]] bool isEstimated(const QModelIndex &index) const;
    /// Lays out row @p index; true when its height differs from the one the view had.
    bool measure(const QModelIndex &index) const;
    /// Some row's height is an estimate.
    [[nodiscard]] bool hasEstimates() const { return m_heights.estimates() > 0; }
    /// Forgets the estimates of rows the view no longer has (every row shown was measured).
    void dropEstimates();
    /// Pays ahead, a piece at a time, what the first layout of row @p index in this process
    /// would pay at once (up to 20 ms for a row of Chinese and Japanese text with a C++ block):
    /// for each script of its text, the fonts that the faces its text is set in fall back on,
    /// and the syntax definition of each of its code blocks' languages. Stops before a piece once
    /// @p clock has run @p budgetMs; true when the row has nothing left to warm and time is left
    /// to lay it out (timelinewarmup.cpp).
    bool warmUp(const QModelIndex &index, const QElapsedTimer &clock, qint64 budgetMs) const;

    /// What is under @p pos (row coordinates relative to the row's top-left corner).
    struct Hit
    {
        enum class Kind { None, Toggle, Link, Tool, Header, Body, Text, Changes, CopyCode };
        Kind kind = Kind::None;
        QString partID;
        QString link;
        int codeGroup = 0; // in a fenced code block of the text: its number in the part, from 1 (Text, Link, CopyCode)
        /// What a click acts on: a toggle, a link, the changes line, a code block's copy button.
        [[nodiscard]] bool isClickable() const
        {
            return kind == Kind::Toggle || kind == Kind::Link || kind == Kind::Changes || kind == Kind::CopyCode;
        }
    };
    [[nodiscard]] Hit hitTest(const QModelIndex &index, const QPoint &pos) const;
    /// A click at @p pos (row coordinates) of row @p index: toggles, follows a link, opens the
    /// turn's changes or copies a code block. False when nothing there is clickable.
    bool activate(const QModelIndex &index, const QPoint &pos);

    // Text selection (timelinetext.cpp). The text of the timeline is selected as in a browser:
    // from a character of one row's text to a character of another's, every text in between.

    /// A character of the text of a row: of its text blocks (Markdown text, expanded reasoning,
    /// the error), counted from the row's first.
    struct TextPoint
    {
        QPersistentModelIndex row;
        int block = 0;
        int pos = 0;
    };
    /// The character nearest to @p pos (row coordinates) of row @p index; a point between two
    /// text blocks is the end of the one above, one above them all the start of the first.
    [[nodiscard]] TextPoint textPointAt(const QModelIndex &index, const QPoint &pos) const;
    /// The word at @p point (or, with @p paragraph, its paragraph) as the two ends of a selection.
    [[nodiscard]] std::pair<TextPoint, TextPoint> wordAt(const TextPoint &point, bool paragraph) const;
    /// Selects from @p anchor to @p focus (in either order) and repaints.
    void setTextSelection(const TextPoint &anchor, const TextPoint &focus);
    void clearTextSelection();
    /// Selects the text of every loaded row.
    void selectAllText();
    [[nodiscard]] bool hasTextSelection() const;
    [[nodiscard]] TextPoint selectionAnchor() const { return m_selectionAnchor; }
    /// The selected text, the rows' texts separated by a blank line.
    [[nodiscard]] QString selectedText() const;
    /// The selection for the clipboard: plain text and HTML.
    [[nodiscard]] QMimeData *selectedMimeData() const;
    /// The code block under the mouse shows its copy button; @p group 0: none. True when it changed.
    bool setHoveredCode(const QString &partID, int group);
    /// The text of code block @p group of part @p partID of row @p index (empty when not found).
    [[nodiscard]] QString codeBlockText(const QModelIndex &index, const QString &partID, int group) const;

    /// The badge text of a tool in @p status; @p live is false when its message has ended (a
    /// tool left pending or running then was interrupted).
    [[nodiscard]] static QString badgeText(ToolStatus status, bool live);

    /// What a screen reader says for row @p index: who wrote it and when, whether it is in
    /// context, its text, each tool call with its state in words, its error.
    [[nodiscard]] QString accessibleText(const QModelIndex &index) const;

Q_SIGNALS:
    void linkActivated(const QString &link);
    /// A code block's copy button put @p text on the clipboard.
    void codeCopied(const QString &text);
    /// The "N files changed in this turn" line of a user message was clicked.
    void changesActivated(const QModelIndex &index);

private:
    struct Block;
    struct Layout;
    struct CachedLayout;
    struct CachedDocument;

    struct LayoutState;

    /// The layout of the row @p index (cached): a dispatcher over the functions below, which lay
    /// out one kind of block each and move LayoutState::y past it.
    [[nodiscard]] std::shared_ptr<const Layout> layout(const QModelIndex &index) const;
    /// The column, the card and continuation flags.
    void layoutColumn(const QModelIndex &index, int width, LayoutState &state) const;
    /// The divider of a compaction; true when it is all the row shows.
    bool layoutCompactionMarker(const QModelIndex &index, LayoutState &state) const;
    /// The author, time, model, tokens and context tag.
    void layoutHeader(const QModelIndex &index, LayoutState &state) const;
    /// One part: dispatches on its type.
    void layoutPart(const Part &part, LayoutState &state) const;
    /// Markdown text.
    void layoutText(const Part &part, LayoutState &state) const;
    /// The space between two paragraphs of a document in @p font (between the pieces of a
    /// reply being written).
    [[nodiscard]] qreal paragraphGap(const QFont &font) const;
    /// Collapsible reasoning.
    void layoutReasoning(const Part &part, LayoutState &state) const;
    /// A tool card with its badge (and its first error line when collapsed).
    void layoutTool(const Part &part, LayoutState &state) const;
    /// The input and output boxes of an expanded tool card from @p top; returns their bottom.
    qreal layoutToolDetails(const ToolState &toolState, Block &block, qreal top, LayoutState &state) const;
    /// An attached file: its type's icon, name and kind; an image's thumbnail below.
    void layoutFile(const Part &part, LayoutState &state) const;
    /// The picture of an image attachment (its data: URL) scaled into @p box, decoded once and
    /// cached by part ID; null when it cannot be decoded.
    [[nodiscard]] QImage thumbnail(const QString &partID, const QString &url, const QSize &box) const;
    /// The one-line notices: patches, retries, agents, subtasks, unknown parts.
    void layoutNotice(const Part &part, LayoutState &state) const;
    /// The "N files changed in this turn" line.
    void layoutChanges(const QModelIndex &index, LayoutState &state) const;
    /// The message's error.
    void layoutError(const QModelIndex &index, const QString &messageID, LayoutState &state) const;
    /// "Working…" while the message runs.
    void layoutWorking(LayoutState &state) const;
    /// The card and the column's height, the row's height.
    void layoutEnd(LayoutState &state) const;
    /// The document of @p text from @p slot when it is for the same text, font, palette and
    /// width (the width is set anew), else a new one, which replaces @p slot (not freed here).
    [[nodiscard]] std::shared_ptr<QTextDocument> cachedDocument(CachedDocument *&slot, QStringView text, bool markdown,
                                                                const QFont &font, qreal width) const;
    /// Piece @p piece of text part @p partID of a reply written in pieces (Markdown::pieceStarts()).
    [[nodiscard]] std::shared_ptr<QTextDocument> pieceDocument(const QString &partID, qsizetype piece, QStringView text,
                                                               const QFont &font, qreal width) const;
    [[nodiscard]] std::shared_ptr<QTextDocument> document(const QString &key, QStringView text, bool markdown,
                                                          const QFont &font, qreal width) const;
    [[nodiscard]] int viewWidth() const;
    [[nodiscard]] QString messageToolTip(const QModelIndex &index) const;
    [[nodiscard]] QString toolToolTip(const Part &part, bool live) const;
    struct PaintState;
    /// Paints @p block: a dispatcher over the functions below, which paint one kind of block
    /// each (as the layout functions lay out one kind each).
    /// @p selected: the selected characters of the block's document (from, to), empty when none;
    /// @p exposed: what of the row is in view (row coordinates).
    void paintBlock(QPainter *painter, const Block &block, const QPalette &palette, bool live,
                    std::pair<int, int> selected, const QRectF &exposed) const;
    /// The block's document in @p color, with the find matches and the selection, clipped to
    /// what is in view.
    void paintDocument(const Block &block, const QColor &color, bool findCurrent, const PaintState &state) const;
    /// Markdown text, with the copy buttons of its code blocks.
    void paintText(const Block &block, const PaintState &state) const;
    void paintReasoning(const Block &block, const PaintState &state) const;
    /// A tool card: its frame, header, badge and first error line.
    void paintTool(const Block &block, const PaintState &state) const;
    /// The input and output lines of an expanded tool card below @p header.
    void paintToolDetails(const Block &block, const QRectF &header, const PaintState &state) const;
    /// An attachment's chip and an image's thumbnail.
    void paintFile(const Block &block, const PaintState &state) const;
    /// A one-line notice.
    void paintLine(const Block &block, const PaintState &state) const;
    /// The message's error in its box.
    void paintError(const Block &block, const PaintState &state) const;
    void paintWorking(const Block &block, const PaintState &state) const;
    /// The copy button of code block @p code of text block @p block; wide enough for either label.
    [[nodiscard]] QRectF copyButtonRect(const Block &block, const QRectF &code) const;
    void paintCopyButton(QPainter *painter, const QRectF &rect, bool copied, const QPalette &palette) const;
    /// The blocks of @p layout with text (a document), in reading order: what TextPoint counts.
    [[nodiscard]] static QList<const Block *> textBlocks(const Layout &layout);
    /// The characters of text block @p ordinal (a document of @p length) of row @p row that the
    /// selection holds; (0, 0) when none.
    [[nodiscard]] std::pair<int, int> selectedRange(int row, int ordinal, int length) const;
    /// Fills @p out with the selected text of every row (false when nothing is selected): what
    /// selectedText() and selectedMimeData() give.
    bool selectionDocument(QTextDocument *out) const;
    void addTextSelection(QAbstractTextDocumentLayout::PaintContext &ctx, QTextDocument *doc,
                          std::pair<int, int> selected, const QPalette &palette) const;
    void paintBadge(QPainter *painter, const QRectF &rect, ToolStatus status, bool live, bool asking,
                    const QPalette &palette) const;

    void addFindSelections(QAbstractTextDocumentLayout::PaintContext &ctx, const QTextDocument *doc,
                           const QPalette &palette, bool current) const;

    QAbstractItemView *m_view;
    QString m_find;
    QString m_findPart;
    QSet<QString> m_expanded;
    QSet<QString> m_awaiting; // tool call IDs waiting for a permission answer
    int m_spinnerPhase = 0;
    TextPoint m_selectionAnchor;
    TextPoint m_selectionFocus;
    // The code block whose copy button shows (partID and group), and the one just copied.
    std::pair<QString, int> m_hoveredCode;
    std::pair<QString, int> m_copiedCode;
    QTimer m_copiedTimer;
    mutable QCache<QString, CachedLayout> m_layouts;
    /// Every laid-out row's height (with the revision and width it is for), kept when its
    /// layout leaves the bounded cache above: the list view asks every row's size whenever
    /// rows are added, and a long session (20,000 messages) must not be laid out anew for it.
    /// Kept by row key (TimelineModel::index()'s internalId()): the view asks every row's size
    /// at every relayout, so this lookup must not build or hash the message ID's string.
    struct CachedHeight
    {
        int revision = -1;
        int width = 0; // 0: none
        int height = 0;
        bool estimated = false;
    };
    /// The heights by row key. The keys of a session's rows are dense (the model numbers its rows
    /// as it makes them), so this is a vector from the smallest key on, not a hash: a relayout
    /// of 20,000 rows looks up each one.
    class Heights
    {
    public:
        [[nodiscard]] CachedHeight *find(quint64 key)
        {
            return key >= m_first && key - m_first < m_rows.size() && m_rows[key - m_first].width > 0
                ? &m_rows[key - m_first]
                : nullptr;
        }
        void store(quint64 key, const CachedHeight &height);
        /// Marks the height of @p key measured (no longer an estimate).
        void setMeasured(CachedHeight *height);
        void dropEstimates();
        void clear();
        [[nodiscard]] int estimates() const { return m_estimates; }

    private:
        std::vector<CachedHeight> m_rows;
        quint64 m_first = 0;
        int m_estimates = 0;
    };
    [[nodiscard]] int estimatedHeight(const QModelIndex &index, int width) const;
    mutable Heights m_heights;
    mutable QHash<QString, qreal> m_paragraphGaps; // by font
    mutable QCache<QString, CachedDocument> m_documents;
    /// The pieces of replies written while the session was shown, by part, outside the bounded
    /// cache above: a long reply has hundreds of pieces, which would flush that cache and be
    /// rendered again at every delta. A written reply keeps its pieces (layoutText()); they go
    /// with the other caches, when the session or the font changes.
    mutable std::unordered_map<QString, std::vector<std::unique_ptr<CachedDocument>>> m_pieces;
    mutable QCache<QString, QImage> m_thumbnails;
};

} // namespace weft
