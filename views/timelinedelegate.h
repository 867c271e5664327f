// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAbstractItemDelegate>
#include <QAbstractTextDocumentLayout>
#include <QCache>
#include <QSet>
#include <QTextDocument>

#include <memory>

class QAbstractItemView;

namespace weft
{

/// Paints one message of the timeline (no widget per message): the header, Markdown text with
/// highlighted code, collapsible reasoning, tool cards with a state badge, notices and errors.
///
/// One layout function, layout(), gives every rectangle; paint(), sizeHint(), editorEvent() and
/// helpEvent() all use it. Layouts are cached by message ID (with the row's revision and the
/// width) and text documents by part ID, so that scrolling and a streaming row cost no Markdown
/// parsing except for the part that changed.
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

Q_SIGNALS:
    void linkActivated(const QString &link);
    /// The "N files changed in this turn" line of a user message was clicked.
    void changesActivated(const QModelIndex &index);

private:
    struct Block;
    struct Layout;
    struct CachedLayout;
    struct CachedDocument;

    [[nodiscard]] std::shared_ptr<const Layout> layout(const QModelIndex &index) const;
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
};

} // namespace weft
