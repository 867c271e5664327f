// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAbstractItemDelegate>
#include <QAbstractTextDocumentLayout>
#include <QCache>
#include <QImage>
#include <QSet>
#include <QTextDocument>

#include <memory>

class QAbstractItemView;

namespace weft
{

/// Paints one message of the timeline (no widget per message): the header, Markdown text with
/// highlighted code, collapsible reasoning, tool cards with a state badge, notices and errors.
///
/// One layout function, layout(), gives every rectangle (it dispatches to one function per kind
/// of block); paint(), sizeHint(), editorEvent() and helpEvent() all use it. Layouts are cached
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
    bool editorEvent(QEvent *event, QAbstractItemModel *model, const QStyleOptionViewItem &option,
                     const QModelIndex &index) override;
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
    /// Forgets the cached layout of one message (its neighbours changed: a continuation row
    /// depends on the row above it).
    void invalidate(const QString &messageID);
    /// Forgets every cached layout and document (the font, palette or width changed).
    void clearCaches();

    /// What is under @p pos (row coordinates relative to the row's top-left corner).
    struct Hit
    {
        enum class Kind { None, Toggle, Link, Tool, Header, Body, Changes };
        Kind kind = Kind::None;
        QString partID;
        QString link;
    };
    [[nodiscard]] Hit hitTest(const QModelIndex &index, const QPoint &pos) const;

    /// The badge text of a tool in @p status; @p live is false when its message has ended (a
    /// tool left pending or running then was interrupted).
    [[nodiscard]] static QString badgeText(ToolStatus status, bool live);

    /// What a screen reader says for row @p index: who wrote it and when, whether it is in
    /// context, its text, each tool call with its state in words, its error.
    [[nodiscard]] QString accessibleText(const QModelIndex &index) const;

Q_SIGNALS:
    void linkActivated(const QString &link);
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
    [[nodiscard]] std::shared_ptr<QTextDocument> document(const QString &key, const QString &text, bool markdown,
                                                          const QFont &font, qreal width) const;
    [[nodiscard]] int viewWidth() const;
    [[nodiscard]] QString messageToolTip(const QModelIndex &index) const;
    [[nodiscard]] QString toolToolTip(const Part &part, bool live) const;
    void paintBlock(QPainter *painter, const Block &block, const QPalette &palette, bool live) const;
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
    mutable QCache<QString, CachedLayout> m_layouts;
    mutable QCache<QString, CachedDocument> m_documents;
    mutable QCache<QString, QImage> m_thumbnails;
};

} // namespace weft
