// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineDelegate: selecting and copying the timeline's text. The view turns the mouse into
// text points (TimelineView::mousePressEvent and friends); the delegate keeps the selection,
// paints it and gives its text. A selection runs from a character of one row to a character of
// another, in reading order, over every text block in between (Markdown text, expanded
// reasoning, errors); tool cards and notices are not text and are skipped.

#include "markdownrenderer.h"
#include "style.h"
#include "timelinedelegate.h"
#include "timelinedelegate_p.h"

#include <QAbstractItemView>
#include <QMimeData>
#include <QPainter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocumentFragment>

#include <tuple>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
int lengthOf(const QTextDocument *doc)
{
    return doc->characterCount() - 1;
}

/// Reading order: the row, the text block, the character.
auto orderOf(const TimelineDelegate::TextPoint &p)
{
    return std::tuple(p.row.row(), p.block, p.pos);
}
} // namespace

QList<const TimelineDelegate::Block *> TimelineDelegate::textBlocks(const Layout &layout)
{
    QList<const Block *> result;
    for (const Block &b : layout.blocks) {
        if (b.doc)
            result.append(&b);
    }
    return result;
}

TimelineDelegate::TextPoint TimelineDelegate::textPointAt(const QModelIndex &index, const QPoint &pos) const
{
    TextPoint point{QPersistentModelIndex(index), 0, 0};
    if (!index.isValid())
        return point;
    const auto l = layout(index);
    const auto blocks = textBlocks(*l);
    for (qsizetype i = 0; i < blocks.size(); ++i) {
        const Block *b = blocks.at(i);
        if (pos.y() < b->docPos.y()) {
            // Above this block: the end of the one before, or the start of the first.
            if (i > 0) {
                point.block = int(i - 1);
                point.pos = lengthOf(blocks.at(i - 1)->doc.get());
            }
            return point;
        }
        if (pos.y() <= b->docPos.y() + b->doc->size().height()) {
            point.block = int(i);
            point.pos = std::max(0, b->doc->documentLayout()->hitTest(QPointF(pos) - b->docPos, Qt::FuzzyHit));
            return point;
        }
    }
    if (!blocks.isEmpty()) {
        point.block = int(blocks.size() - 1);
        point.pos = lengthOf(blocks.last()->doc.get());
    }
    return point;
}

std::pair<TimelineDelegate::TextPoint, TimelineDelegate::TextPoint>
TimelineDelegate::wordAt(const TextPoint &point, bool paragraph) const
{
    if (!point.row.isValid())
        return {point, point};
    const auto l = layout(point.row);
    const auto blocks = textBlocks(*l);
    if (point.block >= blocks.size())
        return {point, point};
    QTextCursor cursor(blocks.at(point.block)->doc.get());
    cursor.setPosition(std::min(point.pos, lengthOf(blocks.at(point.block)->doc.get())));
    cursor.select(paragraph ? QTextCursor::BlockUnderCursor : QTextCursor::WordUnderCursor);
    int from = cursor.selectionStart();
    const int to = cursor.selectionEnd();
    // BlockUnderCursor takes the separator before the paragraph along.
    if (paragraph && from < to && cursor.document()->characterAt(from) == QChar::ParagraphSeparator)
        ++from;
    return {TextPoint{point.row, point.block, from}, TextPoint{point.row, point.block, to}};
}

void TimelineDelegate::setTextSelection(const TextPoint &anchor, const TextPoint &focus)
{
    m_selectionAnchor = anchor;
    m_selectionFocus = focus;
    m_view->viewport()->update();
}

void TimelineDelegate::clearTextSelection()
{
    if (!m_selectionAnchor.row.isValid() && !m_selectionFocus.row.isValid())
        return;
    m_selectionAnchor = {};
    m_selectionFocus = {};
    m_view->viewport()->update();
}

void TimelineDelegate::selectAllText()
{
    const QAbstractItemModel *model = m_view->model();
    if (!model || model->rowCount() == 0)
        return;
    const QModelIndex last = model->index(model->rowCount() - 1, 0);
    const auto blocks = textBlocks(*layout(last));
    TextPoint end{QPersistentModelIndex(last), 0, 0};
    if (!blocks.isEmpty())
        end = TextPoint{end.row, int(blocks.size() - 1), lengthOf(blocks.last()->doc.get())};
    setTextSelection(TextPoint{QPersistentModelIndex(model->index(0, 0)), 0, 0}, end);
}

bool TimelineDelegate::hasTextSelection() const
{
    return m_selectionAnchor.row.isValid() && m_selectionFocus.row.isValid()
        && orderOf(m_selectionAnchor) != orderOf(m_selectionFocus);
}

std::pair<int, int> TimelineDelegate::selectedRange(int row, int ordinal, int length) const
{
    if (!hasTextSelection())
        return {};
    const bool forward = orderOf(m_selectionAnchor) < orderOf(m_selectionFocus);
    const TextPoint &start = forward ? m_selectionAnchor : m_selectionFocus;
    const TextPoint &end = forward ? m_selectionFocus : m_selectionAnchor;
    const auto here = std::tuple(row, ordinal);
    const auto first = std::tuple(start.row.row(), start.block);
    const auto last = std::tuple(end.row.row(), end.block);
    if (here < first || here > last)
        return {};
    const int from = here == first ? std::min(start.pos, length) : 0;
    const int to = here == last ? std::min(end.pos, length) : length;
    return from < to ? std::pair(from, to) : std::pair(0, 0);
}

void TimelineDelegate::addTextSelection(QAbstractTextDocumentLayout::PaintContext &ctx, QTextDocument *doc,
                                        std::pair<int, int> selected, const QPalette &palette) const
{
    if (selected.first >= selected.second)
        return;
    QAbstractTextDocumentLayout::Selection selection;
    selection.cursor = QTextCursor(doc);
    selection.cursor.setPosition(selected.first);
    selection.cursor.setPosition(selected.second, QTextCursor::KeepAnchor);
    selection.format.setBackground(palette.color(QPalette::Highlight));
    selection.format.setForeground(palette.color(QPalette::HighlightedText));
    ctx.selections.append(selection);
}

bool TimelineDelegate::selectionDocument(QTextDocument *out) const
{
    if (!hasTextSelection())
        return false;
    const QAbstractItemModel *model = m_view->model();
    const int first = std::min(m_selectionAnchor.row.row(), m_selectionFocus.row.row());
    const int last = std::max(m_selectionAnchor.row.row(), m_selectionFocus.row.row());
    // The selected pieces, a blank paragraph between two texts.
    QTextCursor cursor(out);
    bool empty = true;
    for (int row = first; row <= last; ++row) {
        const auto blocks = textBlocks(*layout(model->index(row, 0)));
        for (qsizetype i = 0; i < blocks.size(); ++i) {
            const auto [from, to] = selectedRange(row, int(i), lengthOf(blocks.at(i)->doc.get()));
            if (from >= to)
                continue;
            QTextCursor piece(blocks.at(i)->doc.get());
            piece.setPosition(from);
            piece.setPosition(to, QTextCursor::KeepAnchor);
            if (!empty) {
                cursor.insertBlock();
                cursor.insertBlock();
            }
            cursor.insertFragment(piece.selection());
            empty = false;
        }
    }
    return true;
}

QString TimelineDelegate::selectedText() const
{
    QTextDocument out;
    return selectionDocument(&out) ? out.toPlainText() : QString();
}

QMimeData *TimelineDelegate::selectedMimeData() const
{
    QTextDocument out;
    if (!selectionDocument(&out))
        return nullptr;
    auto *mime = new QMimeData;
    mime->setText(out.toPlainText());
    mime->setHtml(out.toHtml());
    return mime;
}

bool TimelineDelegate::setHoveredCode(const QString &partID, int group)
{
    const std::pair<QString, int> hovered = group > 0 ? std::pair(partID, group) : std::pair(QString(), 0);
    if (hovered == m_hoveredCode)
        return false;
    m_hoveredCode = hovered;
    return true;
}

QString TimelineDelegate::codeBlockText(const QModelIndex &index, const QString &partID, int group) const
{
    if (!index.isValid())
        return {};
    const auto l = layout(index);
    for (const Block &b : l->blocks) {
        if (b.partID != partID || !b.doc || b.kind != Block::Kind::Text)
            continue;
        for (const Markdown::CodeBlock &code : Markdown::codeBlocks(b.doc.get())) {
            if (b.codeBase + code.group == group)
                return Markdown::codeText(b.doc.get(), code);
        }
    }
    return {};
}

QRectF TimelineDelegate::copyButtonRect(const Block &block, const QRectF &code) const
{
    const QFontMetricsF sfm(Style::smallFont(m_view->font()));
    const qreal icon = sfm.height();
    const qreal label = std::max(sfm.horizontalAdvance(tr("Copy")), sfm.horizontalAdvance(tr("Copied")));
    const QSizeF size(icon + label + 16, sfm.height() + 6);
    const QRectF r = code.translated(block.docPos);
    return QRectF(QPointF(r.right() - 6 - size.width(), r.top() + 5), size);
}

void TimelineDelegate::paintCopyButton(QPainter *p, const QRectF &rect, bool copied, const QPalette &palette) const
{
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor accent = copied ? Style::active(palette) : text;
    p->setPen(QPen(Style::mix(base, accent, copied ? 0.5 : 0.22), 1));
    p->setBrush(Style::mix(base, text, 0.02));
    p->drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    const QFont small = Style::smallFont(m_view->font());
    const qreal side = QFontMetricsF(small).height() - 2;
    const QRectF iconRect(rect.left() + 6, rect.center().y() - side / 2, side, side);
    Style::icon(copied ? u"dialog-ok-apply"_s : u"edit-copy"_s).paint(p, iconRect.toAlignedRect());
    p->setFont(small);
    p->setPen(copied ? Style::active(palette) : Style::dimText(palette));
    p->drawText(rect.adjusted(side + 10, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft, copied ? tr("Copied") : tr("Copy"));
    p->restore();
}

} // namespace weft
