// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPalette>
#include <QRectF>
#include <QTextLayout>

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Theme>

class QFont;
class QPainter;
class QTextDocument;

namespace KSyntaxHighlighting
{
class Repository;
}

namespace weft
{

/// The application's one KSyntaxHighlighting repository (loading the definitions is costly).
[[nodiscard]] KSyntaxHighlighting::Repository &syntaxRepository();
/// The highlighting theme that suits @p palette (light or dark).
[[nodiscard]] KSyntaxHighlighting::Theme syntaxTheme(const QPalette &palette);

/// Highlights code line by line into QTextLayout format ranges (for text that is painted, not
/// edited: code blocks in messages).
class CodeHighlighter : public KSyntaxHighlighting::AbstractHighlighter
{
public:
    CodeHighlighter(const QString &language, const KSyntaxHighlighting::Theme &theme);
    [[nodiscard]] bool isValid() const;
    /// The formats of each line of @p lines, the state carried from line to line.
    [[nodiscard]] QList<QList<QTextLayout::FormatRange>> highlight(const QStringList &lines);

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override;

private:
    QList<QTextLayout::FormatRange> m_ranges;
};

/// Markdown into a QTextDocument for painting: the palette's colours, code blocks highlighted
/// and set apart, inline code tinted.
namespace Markdown
{
/// The fixed-pitch face of code in Markdown set in @p font.
[[nodiscard]] QFont codeFont(const QFont &font);
/// Fills @p document from @p markdown. The document's default font is @p font.
void render(QTextDocument *document, const QString &markdown, const QFont &font, const QPalette &palette);
/// Paints the code-block backgrounds of a rendered document at @p offset (before the text).
void paintCodeBackgrounds(QPainter *painter, QTextDocument *document, const QPointF &offset, const QPalette &palette);

/// Where Markdown @p text can be cut into pieces that render alone as they render together:
/// before a paragraph or heading that follows a blank line, outside fenced code, lists and
/// quotes. A reply being written is laid out piece by piece, so that each new delta renders
/// only its last piece. The offsets of the pieces' starts after the first, in order.
[[nodiscard]] QList<qsizetype> pieceStarts(QStringView text);
/// The languages of the fenced code blocks of Markdown @p text, as the renderer gives them to its
/// highlighter (the first word of a fence's info string), each once, in order.
[[nodiscard]] QStringList fenceLanguages(QStringView text);

/// A fenced code block of a rendered document.
struct CodeBlock
{
    int group = 0; // its number in the document, from 1
    QRectF rect; // where its background is drawn, in document coordinates
    int start = 0; // the document positions of its text
    int end = 0;
};
/// The fenced code blocks of a rendered document, in order.
[[nodiscard]] QList<CodeBlock> codeBlocks(QTextDocument *document);
/// How many fenced code blocks a rendered document has.
[[nodiscard]] int codeBlockCount(const QTextDocument *document);
/// The text of code block @p block, as it was written (no trailing newline).
[[nodiscard]] QString codeText(QTextDocument *document, const CodeBlock &block);
} // namespace Markdown

} // namespace weft
