// SPDX-License-Identifier: GPL-3.0-or-later
#include "markdownrenderer.h"

#include "style.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>

#include <QAbstractTextDocumentLayout>
#include <QFontDatabase>
#include <QPainter>
#include <QPainterPath>
#include <QTextBlock>
#include <QStringTokenizer>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
// Marks the blocks of a fenced code block; the value numbers the code block in the document.
constexpr int CodeGroupProperty = QTextFormat::UserProperty + 1;
constexpr qreal CodePadding = 6;

/// "1. " or "12) ": an item of an ordered list.
bool isOrderedItem(QStringView line)
{
    qsizetype digits = 0;
    while (digits < line.size() && digits < 10 && line.at(digits).isDigit())
        ++digits;
    if (digits == 0 || digits > 9 || digits >= line.size())
        return false;
    const QChar mark = line.at(digits);
    return (mark == u'.' || mark == u')') && (digits + 1 == line.size() || line.at(digits + 1) == u' ');
}
} // namespace

KSyntaxHighlighting::Repository &syntaxRepository()
{
    static KSyntaxHighlighting::Repository repository;
    return repository;
}

KSyntaxHighlighting::Theme syntaxTheme(const QPalette &palette)
{
    return syntaxRepository().themeForPalette(palette);
}

CodeHighlighter::CodeHighlighter(const QString &language, const KSyntaxHighlighting::Theme &theme)
{
    KSyntaxHighlighting::Repository &repo = syntaxRepository();
    KSyntaxHighlighting::Definition definition = repo.definitionForName(language);
    if (!definition.isValid() && !language.isEmpty())
        definition = repo.definitionForFileName(u"file."_s + language);
    if (!definition.isValid() && !language.isEmpty())
        definition = repo.definitionForFileName(language);
    setDefinition(definition);
    setTheme(theme);
}

bool CodeHighlighter::isValid() const
{
    return definition().isValid();
}

QList<QList<QTextLayout::FormatRange>> CodeHighlighter::highlight(const QStringList &lines)
{
    QList<QList<QTextLayout::FormatRange>> result;
    result.reserve(lines.size());
    KSyntaxHighlighting::State state;
    for (const QString &line : lines) {
        m_ranges.clear();
        state = highlightLine(line, state);
        result.append(m_ranges);
    }
    return result;
}

void CodeHighlighter::applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format)
{
    if (length <= 0 || format.isDefaultTextStyle(theme()))
        return;
    QTextCharFormat f;
    if (format.hasTextColor(theme()))
        f.setForeground(format.textColor(theme()));
    if (format.hasBackgroundColor(theme()))
        f.setBackground(format.backgroundColor(theme()));
    if (format.isBold(theme()))
        f.setFontWeight(QFont::DemiBold);
    if (format.isItalic(theme()))
        f.setFontItalic(true);
    if (format.isUnderline(theme()))
        f.setFontUnderline(true);
    if (format.isStrikeThrough(theme()))
        f.setFontStrikeOut(true);
    m_ranges.append({offset, length, f});
}

namespace Markdown
{

QFont codeFont(const QFont &font)
{
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    fixed.setPointSizeF(font.pointSizeF() * 0.95);
    return fixed;
}

void render(QTextDocument *document, const QString &markdown, const QFont &font, const QPalette &palette)
{
    document->setDefaultFont(font);
    document->setDocumentMargin(0);
    document->setUndoRedoEnabled(false);
    document->setMarkdown(markdown, QTextDocument::MarkdownDialectGitHub);

    const QColor codeBackground = Style::mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.07);
    const QFont fixed = codeFont(font);
    const KSyntaxHighlighting::Theme theme = syntaxTheme(palette);

    QTextCursor cursor(document);
    int group = 0;
    for (QTextBlock block = document->begin(); block.isValid();) {
        const QTextBlockFormat bf = block.blockFormat();
        const bool isCode
            = bf.hasProperty(QTextFormat::BlockCodeFence) || bf.hasProperty(QTextFormat::BlockCodeLanguage);
        if (!isCode) {
            // Inline code: a tint behind the fixed-pitch runs, as in every Markdown viewer.
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                if (!fragment.charFormat().fontFixedPitch())
                    continue;
                QTextCharFormat f;
                f.setBackground(codeBackground);
                f.setFont(fixed, QTextCharFormat::FontPropertiesSpecifiedOnly);
                cursor.setPosition(fragment.position());
                cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
                cursor.mergeCharFormat(f);
            }
            // Headings as large as a word processor's look out of place in a chat: tone them down.
            if (bf.headingLevel() > 0) {
                QTextCharFormat f;
                // The importer scales headings with FontSizeAdjustment, on top of the point size.
                f.setProperty(QTextFormat::FontSizeAdjustment, 0);
                f.setFontPointSize(font.pointSizeF()
                                   * (bf.headingLevel() <= 1       ? 1.2
                                          : bf.headingLevel() == 2 ? 1.1
                                                                   : 1.0));
                f.setFontWeight(QFont::DemiBold);
                cursor.setPosition(block.position());
                cursor.setPosition(block.position() + block.length() - 1, QTextCursor::KeepAnchor);
                cursor.mergeCharFormat(f);
            }
            block = block.next();
            continue;
        }
        // One fenced block: consecutive blocks with the fence property.
        ++group;
        const QString language = bf.stringProperty(QTextFormat::BlockCodeLanguage);
        QList<QTextBlock> blocks;
        QStringList lines;
        for (; block.isValid(); block = block.next()) {
            const QTextBlockFormat f = block.blockFormat();
            if (!(f.hasProperty(QTextFormat::BlockCodeFence) || f.hasProperty(QTextFormat::BlockCodeLanguage)))
                break;
            if (f.stringProperty(QTextFormat::BlockCodeLanguage) != language && !blocks.isEmpty())
                break;
            blocks.append(block);
            lines.append(block.text());
        }
        CodeHighlighter highlighter(language, theme);
        const QList<QList<QTextLayout::FormatRange>> formats
            = highlighter.isValid() ? highlighter.highlight(lines) : QList<QList<QTextLayout::FormatRange>>();
        for (qsizetype i = 0; i < blocks.size(); ++i) {
            const QTextBlock &b = blocks.at(i);
            QTextBlockFormat f;
            f.setProperty(CodeGroupProperty, group);
            f.setLeftMargin(CodePadding * 1.5);
            f.setRightMargin(CodePadding * 1.5);
            f.setTopMargin(i == 0 ? CodePadding * 2 : 0);
            f.setBottomMargin(i == blocks.size() - 1 ? CodePadding * 2 : 0);
            f.setNonBreakableLines(true);
            cursor.setPosition(b.position());
            cursor.mergeBlockFormat(f);
            QTextCharFormat cf;
            cf.setFont(fixed, QTextCharFormat::FontPropertiesSpecifiedOnly);
            cursor.setPosition(b.position());
            cursor.setPosition(b.position() + b.length() - 1, QTextCursor::KeepAnchor);
            cursor.mergeCharFormat(cf);
            // The way QSyntaxHighlighter applies formats: on the block's layout, so that they
            // are drawn without becoming part of the document's own formatting.
            if (i < formats.size())
                b.layout()->setFormats(QList<QTextLayout::FormatRange>(formats.at(i).cbegin(), formats.at(i).cend()));
        }
        if (!blocks.isEmpty())
            document->markContentsDirty(blocks.first().position(),
                                        blocks.last().position() + blocks.last().length() - blocks.first().position());
    }
}

namespace
{
/// The fence character of a line that opens or closes a fenced code block (``` or ~~~, indented
/// less than four spaces), else a null QChar.
QChar fenceOf(QStringView line)
{
    const QStringView trimmed = line.trimmed();
    const bool fenceLine = (trimmed.startsWith(u"```") || trimmed.startsWith(u"~~~"))
        && line.indexOf(trimmed.at(0)) < 4;
    return fenceLine ? trimmed.at(0) : QChar();
}
} // namespace

QList<qsizetype> pieceStarts(QStringView text)
{
    QList<qsizetype> starts;
    bool inFence = false;
    QChar fence;
    bool blankBefore = false;
    bool inContainer = false; // a list or a quote: its paragraphs stay together
    qsizetype pos = 0;
    while (pos < text.size()) {
        qsizetype end = text.indexOf(u'\n', pos);
        if (end < 0)
            end = text.size();
        const QStringView line = text.mid(pos, end - pos);
        const QStringView trimmed = line.trimmed();
        const QChar lineFence = fenceOf(line);
        const bool fenceLine = !lineFence.isNull();
        if (inFence) {
            if (lineFence == fence)
                inFence = false;
        } else if (trimmed.isEmpty()) {
            blankBefore = true;
        } else {
            const QChar first = line.at(0);
            const bool listOrQuote = first == u'>'
                || ((first == u'-' || first == u'*' || first == u'+') && line.size() > 1 && line.at(1) == u' ')
                || isOrderedItem(line);
            const bool startsBlock = !first.isSpace() && !listOrQuote && first != u'|';
            if (blankBefore && startsBlock && pos > 0 && !inContainer)
                starts.append(pos);
            if (listOrQuote)
                inContainer = true;
            else if (startsBlock)
                inContainer = false;
            blankBefore = false;
            if (fenceLine) {
                inFence = true;
                fence = lineFence;
            }
        }
        pos = end + 1;
    }
    return starts;
}

QStringList fenceLanguages(QStringView text)
{
    QStringList languages;
    QChar fence; // of the open block, null outside one
    for (const QStringView line : QStringTokenizer(text, u'\n')) {
        const QChar lineFence = fenceOf(line);
        if (lineFence.isNull())
            continue;
        if (!fence.isNull()) {
            if (lineFence == fence)
                fence = QChar();
            continue;
        }
        fence = lineFence;
        QStringView info = line.trimmed();
        while (info.startsWith(fence))
            info = info.mid(1);
        info = info.trimmed();
        const qsizetype space = info.indexOf(u' ');
        const QString language = (space < 0 ? info : info.left(space)).toString();
        if (!language.isEmpty() && !languages.contains(language))
            languages.append(language);
    }
    return languages;
}

QList<CodeBlock> codeBlocks(QTextDocument *document)
{
    QList<CodeBlock> result;
    QAbstractTextDocumentLayout *layout = document->documentLayout();
    const qreal right = document->textWidth();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const int g = block.blockFormat().intProperty(CodeGroupProperty);
        if (g == 0)
            continue;
        QRectF r = layout->blockBoundingRect(block);
        r.setLeft(0);
        r.setRight(right > 0 ? right : r.right());
        if (result.isEmpty() || result.last().group != g) {
            result.append(CodeBlock{g, r, block.position(), block.position() + block.length() - 1});
        } else {
            result.last().rect = result.last().rect.united(r);
            result.last().end = block.position() + block.length() - 1;
        }
    }
    // The block rectangles hold the text only; the first and last line's margins leave room for
    // the padding around it.
    for (CodeBlock &b : result)
        b.rect.adjust(0, -CodePadding, 0, CodePadding);
    return result;
}

int codeBlockCount(const QTextDocument *document)
{
    // The groups are numbered in order: the last one is the count.
    for (QTextBlock block = document->lastBlock(); block.isValid(); block = block.previous()) {
        if (const int g = block.blockFormat().intProperty(CodeGroupProperty))
            return g;
    }
    return 0;
}

QString codeText(QTextDocument *document, const CodeBlock &block)
{
    QTextCursor cursor(document);
    cursor.setPosition(block.start);
    cursor.setPosition(block.end, QTextCursor::KeepAnchor);
    return cursor.selection().toPlainText();
}

void paintCodeBackgrounds(QPainter *painter, QTextDocument *document, const QPointF &offset, const QPalette &palette)
{
    const QColor background = Style::mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.06);
    const QColor border = Style::mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.13);
    const QList<CodeBlock> blocks = codeBlocks(document);
    if (blocks.isEmpty())
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(border, 1));
    painter->setBrush(background);
    for (const CodeBlock &b : blocks)
        painter->drawRoundedRect(b.rect.translated(offset).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    painter->restore();
}

} // namespace Markdown
} // namespace weft
