// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineDelegate::warmUp(): the first layout's costs of a row, paid ahead in pieces.

#include "timelinedelegate.h"

#include "markdownrenderer.h"
#include "qt/timelinemodel.h"

#include <QAbstractItemView>
#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QTextLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
// Characters of a script laid out to warm it: enough for the fonts it falls back on to load.
constexpr qsizetype SampleLength = 8;

/// What warmUp() found in a row's text: for each face its text is laid out in, a few characters
/// of each script the Latin fonts do not cover; and the languages of its fenced code blocks.
struct RowNeeds
{
    struct Sample
    {
        QFont face;
        QString text;
    };
    QHash<QString, Sample> samples; // by the face's key and the script
    QStringList languages;
};

/// The faces @p text of a part is laid out in: the view's font @p font, or its italic for
/// (expanded) reasoning; Markdown's bold for strong text and headings, its face for code.
QList<QFont> facesOf(QStringView text, bool reasoning, const QFont &font)
{
    if (reasoning) {
        QFont italic = font;
        italic.setItalic(true);
        return {italic};
    }
    QList<QFont> faces{font};
    if (text.contains(u"**") || text.contains(u"__") || text.startsWith(u'#') || text.contains(u"\n#")) {
        QFont bold = font;
        bold.setBold(true);
        faces.append(bold);
    }
    if (text.contains(u'`'))
        faces.append(Markdown::codeFont(font));
    return faces;
}

void scan(QStringView text, const QList<QFont> &faces, RowNeeds &needs)
{
    QHash<int, QString> scripts;
    for (qsizetype i = 0; i < text.size(); ++i) {
        char32_t c = text.at(i).unicode();
        if (c < 0x80)
            continue;
        if (QChar::isHighSurrogate(c) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            ++i;
        }
        const QChar::Script script = QChar::script(c);
        if (script == QChar::Script_Common || script == QChar::Script_Inherited || script == QChar::Script_Latin)
            continue;
        QString &sample = scripts[int(script)];
        if (sample.size() < SampleLength)
            sample += QString::fromUcs4(&c, 1);
    }
    for (auto it = scripts.cbegin(); it != scripts.cend(); ++it) {
        for (const QFont &face : faces)
            needs.samples.insert(face.key() + u'|' + QString::number(it.key()), {face, it.value()});
    }
    // Syntax definitions are found by name whatever its case: one warm-up for "Python" and "python".
    for (const QString &language : Markdown::fenceLanguages(text)) {
        if (!needs.languages.contains(language.toLower()))
            needs.languages.append(language.toLower());
    }
}

// What is warm in this process (the GUI thread's font caches, the syntax repository).
QSet<QString> &warmFaces()
{
    static QSet<QString> keys;
    return keys;
}

QSet<QString> &warmLanguages()
{
    static QSet<QString> languages;
    return languages;
}
} // namespace

bool TimelineDelegate::warmUp(const QModelIndex &index, const QElapsedTimer &clock, qint64 budgetMs) const
{
    RowNeeds needs;
    const QFont font = m_view->font();
    for (const Part &part : index.data(TimelineModel::PartsRole).value<QList<Part>>()) {
        // Collapsed reasoning shows its title only.
        if (part.type() != PartType::Text && !(part.type() == PartType::Reasoning && isExpanded(part.id())))
            continue;
        const QString text = part.text();
        scan(text, facesOf(text, part.type() == PartType::Reasoning, font), needs);
    }
    if (needs.samples.isEmpty() && needs.languages.isEmpty())
        return true;
    const auto outOfTime = [&] { return clock.elapsed() >= budgetMs; };
    bool warmed = false;
    for (auto it = needs.samples.cbegin(); it != needs.samples.cend(); ++it) {
        if (warmFaces().contains(it.key()))
            continue;
        if (outOfTime())
            return false;
        QTextLayout layout(it->text, it->face);
        layout.beginLayout();
        layout.createLine();
        layout.endLayout();
        warmFaces().insert(it.key());
        warmed = true;
    }
    for (const QString &language : std::as_const(needs.languages)) {
        if (warmLanguages().contains(language))
            continue;
        if (outOfTime())
            return false;
        // Highlighting a line loads the definition and those it includes, as a code block's
        // first highlighting would (C++: 5 to 12 ms, once).
        CodeHighlighter highlighter(language, syntaxTheme(m_view->palette()));
        if (highlighter.isValid())
            (void)highlighter.highlight({u"x"_s});
        warmLanguages().insert(language);
        warmed = true;
    }
    // The row itself in a slice of its own when the warming used this one up.
    return !warmed || !outOfTime();
}

} // namespace weft
