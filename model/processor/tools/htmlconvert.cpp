// SPDX-License-Identifier: GPL-3.0-or-later
#include "htmlconvert.h"

#include <QHash>
#include <QList>
#include <QSet>

#include <algorithm>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace weft::Html
{

namespace
{

// ---------------------------------------------------------------------------------------------
// Entities

const QHash<QString, char32_t> &namedEntities()
{
    static const QHash<QString, char32_t> table{
        {u"amp"_s, U'&'},       {u"lt"_s, U'<'},         {u"gt"_s, U'>'},        {u"quot"_s, U'"'},
        {u"apos"_s, U'\''},     {u"nbsp"_s, 0xA0},       {u"copy"_s, 0xA9},      {u"reg"_s, 0xAE},
        {u"trade"_s, 0x2122},   {u"hellip"_s, 0x2026},   {u"mdash"_s, 0x2014},   {u"ndash"_s, 0x2013},
        {u"lsquo"_s, 0x2018},   {u"rsquo"_s, 0x2019},    {u"ldquo"_s, 0x201C},   {u"rdquo"_s, 0x201D},
        {u"sbquo"_s, 0x201A},   {u"bdquo"_s, 0x201E},    {u"laquo"_s, 0xAB},     {u"raquo"_s, 0xBB},
        {u"lsaquo"_s, 0x2039},  {u"rsaquo"_s, 0x203A},   {u"bull"_s, 0x2022},    {u"middot"_s, 0xB7},
        {u"times"_s, 0xD7},     {u"divide"_s, 0xF7},     {u"deg"_s, 0xB0},       {u"plusmn"_s, 0xB1},
        {u"euro"_s, 0x20AC},    {u"pound"_s, 0xA3},      {u"yen"_s, 0xA5},       {u"cent"_s, 0xA2},
        {u"sect"_s, 0xA7},      {u"para"_s, 0xB6},       {u"shy"_s, 0xAD},       {u"zwj"_s, 0x200D},
        {u"zwnj"_s, 0x200C},    {u"ensp"_s, 0x2002},     {u"emsp"_s, 0x2003},    {u"thinsp"_s, 0x2009},
        {u"larr"_s, 0x2190},    {u"rarr"_s, 0x2192},     {u"uarr"_s, 0x2191},    {u"darr"_s, 0x2193},
        {u"harr"_s, 0x2194},    {u"rArr"_s, 0x21D2},     {u"lArr"_s, 0x21D0},    {u"hArr"_s, 0x21D4},
        {u"le"_s, 0x2264},      {u"ge"_s, 0x2265},       {u"ne"_s, 0x2260},      {u"asymp"_s, 0x2248},
        {u"infin"_s, 0x221E},   {u"minus"_s, 0x2212},    {u"frac12"_s, 0xBD},    {u"frac14"_s, 0xBC},
        {u"frac34"_s, 0xBE},    {u"sup2"_s, 0xB2},       {u"sup3"_s, 0xB3},      {u"micro"_s, 0xB5},
        {u"iexcl"_s, 0xA1},     {u"iquest"_s, 0xBF},     {u"dagger"_s, 0x2020},  {u"Dagger"_s, 0x2021},
        {u"permil"_s, 0x2030},  {u"prime"_s, 0x2032},    {u"Prime"_s, 0x2033},   {u"check"_s, 0x2713},
        {u"alpha"_s, 0x3B1},    {u"beta"_s, 0x3B2},      {u"gamma"_s, 0x3B3},    {u"delta"_s, 0x3B4},
        {u"lambda"_s, 0x3BB},   {u"mu"_s, 0x3BC},        {u"pi"_s, 0x3C0},       {u"sigma"_s, 0x3C3},
        {u"eacute"_s, 0xE9},    {u"egrave"_s, 0xE8},     {u"ecirc"_s, 0xEA},     {u"aacute"_s, 0xE1},
        {u"agrave"_s, 0xE0},    {u"acirc"_s, 0xE2},      {u"auml"_s, 0xE4},      {u"ouml"_s, 0xF6},
        {u"uuml"_s, 0xFC},      {u"Auml"_s, 0xC4},       {u"Ouml"_s, 0xD6},      {u"Uuml"_s, 0xDC},
        {u"szlig"_s, 0xDF},     {u"ccedil"_s, 0xE7},     {u"ntilde"_s, 0xF1},    {u"oacute"_s, 0xF3},
        {u"iacute"_s, 0xED},    {u"uacute"_s, 0xFA},     {u"Eacute"_s, 0xC9},    {u"oslash"_s, 0xF8},
        {u"aring"_s, 0xE5},     {u"aelig"_s, 0xE6},      {u"grave"_s, U'`'},     {u"lowast"_s, 0x2217},
    };
    return table;
}

void appendCodePoint(QString &out, char32_t cp)
{
    // Invalid, NUL and surrogate code points become U+FFFD, as the HTML spec says.
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = 0xFFFD;
    const char32_t one[1] = {cp};
    out += QString::fromUcs4(one, 1);
}

/// Decodes the reference at @p text[@p i] ('&'); returns the characters consumed (0: not one).
qsizetype decodeReference(QStringView text, qsizetype i, QString &out)
{
    const qsizetype n = text.size();
    qsizetype j = i + 1;
    if (j < n && text.at(j) == u'#') {
        ++j;
        const bool hex = j < n && (text.at(j) == u'x' || text.at(j) == u'X');
        if (hex)
            ++j;
        const qsizetype digits = j;
        char32_t value = 0;
        while (j < n && j - digits < 8) {
            const QChar c = text.at(j);
            const int d = hex ? (c.isDigit() ? c.unicode() - '0'
                                 : (c.toLower() >= u'a' && c.toLower() <= u'f') ? c.toLower().unicode() - 'a' + 10
                                                                               : -1)
                              : (c.isDigit() ? c.unicode() - '0' : -1);
            if (d < 0)
                break;
            value = value * (hex ? 16 : 10) + char32_t(d);
            ++j;
        }
        if (j == digits)
            return 0;
        if (j < n && text.at(j) == u';')
            ++j;
        appendCodePoint(out, value);
        return j - i;
    }
    while (j < n && j - i <= 32 && text.at(j).isLetterOrNumber())
        ++j;
    const QString name = text.mid(i + 1, j - i - 1).toString();
    const auto it = namedEntities().constFind(name);
    if (it == namedEntities().constEnd())
        return 0;
    const bool semicolon = j < n && text.at(j) == u';';
    // Without the semicolon only the oldest few are references (as browsers read them).
    if (!semicolon && name != u"amp" && name != u"lt" && name != u"gt" && name != u"quot" && name != u"nbsp")
        return 0;
    appendCodePoint(out, it.value());
    return j - i + (semicolon ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// The tree

struct Node {
    QString tag; ///< lower case; empty for a text node
    QString text; ///< a text node's text, decoded
    QList<std::pair<QString, QString>> attributes;
    std::vector<std::unique_ptr<Node>> children;
    Node *parent = nullptr;

    [[nodiscard]] bool isText() const { return tag.isEmpty(); }
    [[nodiscard]] QString attribute(QStringView name) const
    {
        for (const auto &[key, value] : attributes) {
            if (key == name)
                return value;
        }
        return {};
    }
    Node *append(std::unique_ptr<Node> child)
    {
        child->parent = this;
        children.push_back(std::move(child));
        return children.back().get();
    }
    void appendText(const QString &t)
    {
        if (t.isEmpty())
            return;
        if (!children.empty() && children.back()->isText()) {
            children.back()->text += t;
            return;
        }
        auto node = std::make_unique<Node>();
        node->text = t;
        append(std::move(node));
    }
};

bool isOneOf(QStringView tag, std::initializer_list<QStringView> tags)
{
    return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

bool isVoid(QStringView tag)
{
    return isOneOf(tag, {u"area", u"base", u"br", u"col", u"embed", u"hr", u"img", u"input", u"link", u"meta",
                         u"param", u"source", u"track", u"wbr", u"keygen"});
}

/// Elements whose content is text up to their end tag.
bool isRawText(QStringView tag)
{
    return isOneOf(tag, {u"script", u"style", u"textarea", u"title", u"xmp", u"iframe", u"noembed", u"noframes",
                         u"noscript", u"plaintext"});
}

/// Start tags that end an open paragraph.
bool closesParagraph(QStringView tag)
{
    return isOneOf(tag, {u"address", u"article", u"aside", u"blockquote", u"center", u"details", u"dialog", u"dir",
                         u"div", u"dl", u"fieldset", u"figcaption", u"figure", u"footer", u"form", u"h1", u"h2",
                         u"h3", u"h4", u"h5", u"h6", u"header", u"hgroup", u"hr", u"main", u"menu", u"nav", u"ol",
                         u"p", u"pre", u"section", u"summary", u"table", u"ul", u"li", u"dd", u"dt"});
}

bool isHeadContent(QStringView tag)
{
    return isOneOf(tag, {u"title", u"meta", u"link", u"style", u"script", u"base", u"noscript", u"template"});
}

struct Document {
    std::unique_ptr<Node> root = std::make_unique<Node>();
    QString baseHref;
};

class Parser
{
public:
    explicit Parser(QStringView html) : m_html(html)
    {
        m_doc.root->tag = u"#root"_s;
        m_stack.append(m_doc.root.get());
    }

    Document parse()
    {
        const qsizetype n = m_html.size();
        qsizetype i = 0;
        while (i < n) {
            const qsizetype lt = m_html.indexOf(u'<', i);
            if (lt < 0) {
                text(m_html.mid(i));
                break;
            }
            if (lt > i)
                text(m_html.mid(i, lt - i));
            i = markup(lt);
        }
        return std::move(m_doc);
    }

private:
    Node *current() const { return m_stack.constLast(); }

    void text(QStringView raw) { current()->appendText(decodeEntities(raw)); }

    static bool isNameStart(QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'); }
    static bool isNameChar(QChar c) { return c.isLetterOrNumber() || c == u'-' || c == u':' || c == u'_'; }

    /// Handles the markup at @p i ('<'); returns where parsing goes on.
    qsizetype markup(qsizetype i)
    {
        const qsizetype n = m_html.size();
        const QStringView rest = m_html.mid(i);
        if (rest.startsWith(u"<!--")) {
            const qsizetype end = m_html.indexOf(u"-->", i + 4);
            return end < 0 ? n : end + 3;
        }
        if (rest.startsWith(u"<![CDATA[")) {
            const qsizetype end = m_html.indexOf(u"]]>", i + 9);
            current()->appendText(m_html.mid(i + 9, (end < 0 ? n : end) - i - 9).toString());
            return end < 0 ? n : end + 3;
        }
        if (rest.size() > 1 && (rest.at(1) == u'!' || rest.at(1) == u'?')) {
            const qsizetype end = m_html.indexOf(u'>', i);
            return end < 0 ? n : end + 1;
        }
        if (rest.size() > 2 && rest.at(1) == u'/' && isNameStart(rest.at(2))) {
            qsizetype j = i + 2;
            while (j < n && isNameChar(m_html.at(j)))
                ++j;
            const QString name = m_html.mid(i + 2, j - i - 2).toString().toLower();
            const qsizetype end = m_html.indexOf(u'>', j);
            endTag(name);
            return end < 0 ? n : end + 1;
        }
        if (rest.size() > 1 && isNameStart(rest.at(1)))
            return startTag(i);
        current()->appendText(u"<"_s);
        return i + 1;
    }

    qsizetype startTag(qsizetype i)
    {
        const qsizetype n = m_html.size();
        qsizetype j = i + 1;
        while (j < n && isNameChar(m_html.at(j)))
            ++j;
        auto node = std::make_unique<Node>();
        node->tag = m_html.mid(i + 1, j - i - 1).toString().toLower();
        bool selfClosing = false;
        // Attributes: name, name=value, name="value", name='value'.
        while (j < n) {
            while (j < n && (m_html.at(j).isSpace() || m_html.at(j) == u'/')) {
                selfClosing = m_html.at(j) == u'/';
                ++j;
            }
            if (j >= n || m_html.at(j) == u'>')
                break;
            selfClosing = false;
            const qsizetype nameStart = j;
            while (j < n && !m_html.at(j).isSpace() && m_html.at(j) != u'=' && m_html.at(j) != u'>'
                   && !(m_html.at(j) == u'/' && j + 1 < n && m_html.at(j + 1) == u'>'))
                ++j;
            const QString name = m_html.mid(nameStart, j - nameStart).toString().toLower();
            while (j < n && m_html.at(j).isSpace())
                ++j;
            QString value;
            if (j < n && m_html.at(j) == u'=') {
                ++j;
                while (j < n && m_html.at(j).isSpace())
                    ++j;
                if (j < n && (m_html.at(j) == u'"' || m_html.at(j) == u'\'')) {
                    const QChar quote = m_html.at(j);
                    const qsizetype end = m_html.indexOf(quote, j + 1);
                    value = decodeEntities(m_html.mid(j + 1, (end < 0 ? n : end) - j - 1));
                    j = end < 0 ? n : end + 1;
                } else {
                    const qsizetype start = j;
                    while (j < n && !m_html.at(j).isSpace() && m_html.at(j) != u'>')
                        ++j;
                    value = decodeEntities(m_html.mid(start, j - start));
                }
            }
            if (!name.isEmpty())
                node->attributes.append({name, value});
        }
        const qsizetype after = j < n ? j + 1 : n;
        const QString tag = node->tag;

        if (tag == u"base" && m_doc.baseHref.isEmpty())
            m_doc.baseHref = node->attribute(u"href");
        openImplied(tag);

        if (isRawText(tag)) {
            // The content runs to the matching end tag, whatever it holds.
            qsizetype end = n;
            qsizetype k = after;
            while ((k = m_html.indexOf(u"</"_s, k, Qt::CaseInsensitive)) >= 0) {
                if (m_html.mid(k + 2, tag.size()).compare(tag, Qt::CaseInsensitive) == 0
                    && (k + 2 + tag.size() >= n || !isNameChar(m_html.at(k + 2 + tag.size())))) {
                    end = k;
                    break;
                }
                k += 2;
            }
            if (tag == u"plaintext")
                end = n;
            const QStringView content = m_html.mid(after, end - after);
            Node *element = current()->append(std::move(node));
            if (tag == u"textarea" || tag == u"title")
                element->appendText(decodeEntities(content));
            else
                element->appendText(content.toString());
            if (end >= n)
                return n;
            const qsizetype close = m_html.indexOf(u'>', end);
            return close < 0 ? n : close + 1;
        }
        Node *element = current()->append(std::move(node));
        if (!isVoid(tag) && !selfClosing)
            m_stack.append(element);
        return after;
    }

    /// The index in the stack of the innermost open @p tag, not looking past @p boundaries; -1.
    qsizetype findOpen(QStringView tag, std::initializer_list<QStringView> boundaries) const
    {
        for (qsizetype k = m_stack.size() - 1; k > 0; --k) {
            const QString &open = m_stack.at(k)->tag;
            if (open == tag)
                return k;
            if (isOneOf(open, boundaries))
                return -1;
        }
        return -1;
    }

    void popTo(qsizetype index)
    {
        if (index > 0)
            m_stack.resize(index);
    }

    /// Closes what a start tag of @p tag closes implicitly.
    void openImplied(const QString &tag)
    {
        if (const qsizetype head = findOpen(u"head", {}); head > 0 && !isHeadContent(tag))
            popTo(head);
        if (closesParagraph(tag))
            popTo(findOpen(u"p", {u"table", u"td", u"th", u"caption", u"button", u"object", u"template"}));
        if (tag == u"li")
            popTo(findOpen(u"li", {u"ul", u"ol", u"menu", u"table"}));
        else if (tag == u"dt" || tag == u"dd")
            popTo(std::max(findOpen(u"dt", {u"dl", u"table"}), findOpen(u"dd", {u"dl", u"table"})));
        else if (tag == u"tr")
            popTo(findOpen(u"tr", {u"table"}));
        else if (tag == u"td" || tag == u"th")
            popTo(std::max(findOpen(u"td", {u"tr", u"table"}), findOpen(u"th", {u"tr", u"table"})));
        else if (tag == u"thead" || tag == u"tbody" || tag == u"tfoot")
            popTo(std::max({findOpen(u"thead", {u"table"}), findOpen(u"tbody", {u"table"}), findOpen(u"tfoot", {u"table"})}));
        else if (tag == u"option")
            popTo(findOpen(u"option", {u"select"}));
        else if (tag.size() == 2 && tag.at(0) == u'h' && tag.at(1) >= u'1' && tag.at(1) <= u'6') {
            for (const QStringView h : {u"h1", u"h2", u"h3", u"h4", u"h5", u"h6"}) {
                if (const qsizetype k = findOpen(h, {u"div", u"section", u"article", u"table", u"li"}); k > 0
                    && k == m_stack.size() - 1)
                    popTo(k);
            }
        }
    }

    void endTag(const QString &tag)
    {
        if (tag == u"br") {
            auto br = std::make_unique<Node>();
            br->tag = u"br"_s;
            current()->append(std::move(br));
            return;
        }
        // A stray end tag closes nothing beyond a table or a cell it is not part of.
        static const std::initializer_list<QStringView> tableParts{u"table", u"td", u"th", u"tr", u"thead", u"tbody",
                                                                   u"tfoot", u"caption"};
        const bool isTablePart = isOneOf(tag, tableParts);
        popTo(findOpen(tag, isTablePart ? std::initializer_list<QStringView>{} : tableParts));
    }

    QStringView m_html;
    Document m_doc;
    QList<Node *> m_stack;
};

// ---------------------------------------------------------------------------------------------
// Output

/// Marks a hard line break ("  " at the end of a line) until the end, so that trimming trailing
/// spaces does not remove it.
constexpr QChar HardBreak(0xE000);

bool isHtmlSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f';
}

QString collapseWhitespace(QStringView text)
{
    QString out;
    out.reserve(text.size());
    bool space = false;
    for (const QChar c : text) {
        if (isHtmlSpace(c)) {
            space = true;
            continue;
        }
        if (space)
            out += u' ';
        space = false;
        out += c;
    }
    if (space)
        out += u' ';
    return out;
}

/// Markdown being written: inline text joins with single spaces, blocks are separated by blank
/// lines, and no line starts with the spaces of the HTML source.
class Out
{
public:
    QString s;

    /// Text already rendered (escaped); spaces merge with those around it.
    void inlineText(QString t, bool escapeLineStart = false)
    {
        if (t.isEmpty())
            return;
        const bool lineStart = s.isEmpty() || s.endsWith(u'\n');
        if (lineStart) {
            qsizetype k = 0;
            while (k < t.size() && t.at(k) == u' ')
                ++k;
            t.remove(0, k);
            if (escapeLineStart)
                t = escapeStart(t);
        }
        if (t.startsWith(u' ') && (s.endsWith(u' ') || s.endsWith(u'\n')))
            t.remove(0, 1);
        s += t;
    }
    void raw(const QString &t) { s += t; }
    /// Ends the current block: at most @p newlines line ends after the text so far.
    void breakBlock(int newlines = 2)
    {
        qsizetype end = s.size();
        int had = 0;
        while (end > 0 && (s.at(end - 1) == u' ' || s.at(end - 1) == u'\t' || s.at(end - 1) == u'\n'
                           || s.at(end - 1) == HardBreak)) {
            had += s.at(end - 1) == u'\n' ? 1 : 0;
            --end;
        }
        s.truncate(end);
        // A break never shrinks one already there (a list item after a paragraph).
        if (!s.isEmpty())
            s += QString(std::min(std::max(newlines, had), 2), u'\n');
    }
    void lineBreak()
    {
        while (s.endsWith(u' '))
            s.chop(1);
        s += HardBreak;
        s += u'\n';
    }

    /// Turndown's escapes for text at the start of a line: "# ", "- ", "+ ", "> ", "1. ", "===".
    static QString escapeStart(const QString &t)
    {
        if (t.startsWith(u'-') || t.startsWith(u"+ ") || t.startsWith(u'>') || t.startsWith(u'=')
            || t.startsWith(u"~~~"))
            return u'\\' + t;
        qsizetype k = 0;
        while (k < t.size() && k < 7 && t.at(k) == u'#')
            ++k;
        if (k > 0 && k <= 6 && (k == t.size() || t.at(k) == u' '))
            return u'\\' + t;
        k = 0;
        while (k < t.size() && t.at(k).isDigit())
            ++k;
        if (k > 0 && k + 1 < t.size() && t.at(k) == u'.' && t.at(k + 1) == u' ')
            return t.left(k) + u"\\"_s + t.mid(k);
        return t;
    }
};

QString escapeInline(const QString &t)
{
    QString out;
    out.reserve(t.size() + 8);
    for (const QChar c : t) {
        if (c == u'\\' || c == u'*' || c == u'_' || c == u'`' || c == u'[' || c == u']')
            out += u'\\';
        out += c;
    }
    return out;
}

/// Trims spaces and line ends (and hard-break marks) at both ends.
QString trimmedBlock(const QString &t)
{
    qsizetype a = 0;
    qsizetype b = t.size();
    const auto blank = [](QChar c) { return isHtmlSpace(c) || c == HardBreak; };
    while (a < b && blank(t.at(a)))
        ++a;
    while (b > a && blank(t.at(b - 1)))
        --b;
    return t.mid(a, b - a);
}

/// One line: line ends and runs of spaces become single spaces.
QString oneLine(const QString &t)
{
    QString s = t;
    s.remove(HardBreak);
    return collapseWhitespace(s).trimmed();
}

/// The text of a subtree as it is (for pre and code), with br as line ends.
void textContent(const Node &node, QString &out)
{
    if (node.isText()) {
        out += node.text;
        return;
    }
    if (node.tag == u"br") {
        out += u'\n';
        return;
    }
    if (isOneOf(node.tag, {u"script", u"style", u"template"}))
        return;
    for (const auto &child : node.children)
        textContent(*child, out);
}

QString textContent(const Node &node)
{
    QString out;
    textContent(node, out);
    return out;
}

/// The longest run of @p c in @p text.
qsizetype longestRun(const QString &text, QChar c)
{
    qsizetype best = 0;
    qsizetype run = 0;
    for (const QChar x : text) {
        run = x == c ? run + 1 : 0;
        best = std::max(best, run);
    }
    return best;
}

bool isDropped(QStringView tag)
{
    return isOneOf(tag, {u"script", u"style", u"meta", u"link", u"head", u"title", u"noscript", u"template", u"svg",
                         u"iframe", u"object", u"embed", u"canvas", u"select", u"button", u"input", u"textarea",
                         u"base", u"audio", u"video", u"map", u"dialog"});
}

bool isBlock(QStringView tag)
{
    return isOneOf(tag, {u"p", u"div", u"section", u"article", u"header", u"footer", u"main", u"nav", u"aside",
                         u"figure", u"figcaption", u"address", u"center", u"details", u"summary", u"fieldset",
                         u"form", u"hgroup", u"legend", u"dl", u"dt", u"dd", u"html", u"body", u"caption"});
}

class MarkdownWriter
{
public:
    explicit MarkdownWriter(const QUrl &base) : m_base(base) { }

    struct Context {
        bool inCell = false;   ///< inside a table cell: everything on one line
        bool inListItem = false;
    };

    void children(const Node &node, Out &out, const Context &ctx)
    {
        for (const auto &child : node.children)
            render(*child, out, ctx);
    }

    void render(const Node &node, Out &out, const Context &ctx)
    {
        if (node.isText()) {
            out.inlineText(escapeInline(collapseWhitespace(node.text)), true);
            return;
        }
        const QString &tag = node.tag;
        if (isDropped(tag))
            return;
        if (tag == u"br") {
            if (ctx.inCell)
                out.inlineText(u" "_s);
            else
                out.lineBreak();
        } else if (tag == u"hr") {
            if (!ctx.inCell) {
                out.breakBlock();
                out.raw(u"---"_s);
                out.breakBlock();
            }
        } else if (tag.size() == 2 && tag.at(0) == u'h' && tag.at(1) >= u'1' && tag.at(1) <= u'6') {
            const QString content = oneLine(inner(node, ctx));
            if (ctx.inCell) {
                out.inlineText(content);
            } else if (!content.isEmpty()) {
                out.breakBlock();
                out.raw(QString(tag.at(1).digitValue(), u'#') + u' ' + content);
                out.breakBlock();
            }
        } else if (tag == u"strong" || tag == u"b") {
            wrapInline(node, out, ctx, u"**"_s);
        } else if (tag == u"em" || tag == u"i" || tag == u"cite" || tag == u"dfn" || tag == u"var") {
            wrapInline(node, out, ctx, u"*"_s);
        } else if (tag == u"del" || tag == u"s" || tag == u"strike") {
            wrapInline(node, out, ctx, u"~~"_s);
        } else if (tag == u"code" || tag == u"kbd" || tag == u"samp" || tag == u"tt") {
            inlineCode(textContent(node), out);
        } else if (tag == u"pre") {
            pre(node, out, ctx);
        } else if (tag == u"a") {
            link(node, out, ctx);
        } else if (tag == u"img") {
            image(node, out);
        } else if (tag == u"ul" || tag == u"ol") {
            list(node, out, ctx);
        } else if (tag == u"li") {
            // An item outside any list.
            item(node, u"- "_s, out, ctx);
        } else if (tag == u"blockquote") {
            blockquote(node, out, ctx);
        } else if (tag == u"table") {
            table(node, out, ctx);
        } else if (isBlock(tag) && !ctx.inCell) {
            out.breakBlock(tag == u"dt" || tag == u"dd" ? 1 : 2);
            children(node, out, ctx);
            out.breakBlock(tag == u"dt" || tag == u"dd" ? 1 : 2);
        } else {
            children(node, out, ctx);
        }
    }

private:
    QString inner(const Node &node, const Context &ctx)
    {
        Out sub;
        children(node, sub, ctx);
        return sub.s;
    }

    /// Emphasis and the like: the delimiters hug the text, the spaces around it stay outside.
    void wrapInline(const Node &node, Out &out, const Context &ctx, const QString &delimiter)
    {
        const QString content = inner(node, ctx);
        const QString core = trimmedBlock(content);
        if (core.isEmpty()) {
            out.inlineText(content.isEmpty() ? QString() : u" "_s);
            return;
        }
        if (isHtmlSpace(content.front()))
            out.inlineText(u" "_s);
        out.inlineText(delimiter + core + delimiter);
        if (isHtmlSpace(content.back()))
            out.inlineText(u" "_s);
    }

    static void inlineCode(const QString &code, Out &out)
    {
        const QString text = collapseWhitespace(code);
        if (text.trimmed().isEmpty())
            return;
        const QString fence(longestRun(text, u'`') + 1, u'`');
        const bool pad = text.startsWith(u'`') || text.endsWith(u'`');
        out.inlineText(fence + (pad ? u" "_s : QString()) + text + (pad ? u" "_s : QString()) + fence);
    }

    static QString languageOf(const Node &node)
    {
        for (const QString &cls : node.attribute(u"class").split(u' ', Qt::SkipEmptyParts)) {
            if (cls.startsWith(u"language-"))
                return cls.mid(9);
            if (cls.startsWith(u"lang-"))
                return cls.mid(5);
        }
        return {};
    }

    void pre(const Node &node, Out &out, const Context &ctx)
    {
        QString code = textContent(node);
        if (code.startsWith(u'\n'))
            code.remove(0, 1);
        while (code.endsWith(u'\n') || code.endsWith(u' ') || code.endsWith(u'\t'))
            code.chop(1);
        if (ctx.inCell) {
            inlineCode(code, out);
            return;
        }
        QString language = languageOf(node);
        for (const auto &child : node.children) {
            if (language.isEmpty() && child->tag == u"code")
                language = languageOf(*child);
        }
        const QString fence(std::max<qsizetype>(3, longestRun(code, u'`') + 1), u'`');
        out.breakBlock();
        out.raw(fence + language + u'\n' + code + u'\n' + fence);
        out.breakBlock();
    }

    QString resolve(const QString &url) const
    {
        QString resolved = url.trimmed();
        if (m_base.isValid() && !resolved.isEmpty())
            resolved = m_base.resolved(QUrl(resolved)).toString();
        resolved.replace(u' ', u"%20"_s);
        resolved.replace(u'(', u"%28"_s);
        resolved.replace(u')', u"%29"_s);
        return resolved;
    }

    static QString titlePart(const Node &node)
    {
        QString title = oneLine(node.attribute(u"title"));
        if (title.isEmpty())
            return {};
        title.replace(u'"', u"\\\""_s);
        return u" \""_s + title + u'"';
    }

    void link(const Node &node, Out &out, const Context &ctx)
    {
        const QString content = inner(node, ctx);
        const QString text = oneLine(content);
        const QString href = node.attribute(u"href").trimmed();
        if (text.isEmpty())
            return;
        if (href.isEmpty() || href.startsWith(u"javascript:", Qt::CaseInsensitive)) {
            out.inlineText(content);
            return;
        }
        if (isHtmlSpace(content.front()))
            out.inlineText(u" "_s);
        out.inlineText(u'[' + text + u"]("_s + resolve(href) + titlePart(node) + u')');
        if (isHtmlSpace(content.back()))
            out.inlineText(u" "_s);
    }

    void image(const Node &node, Out &out)
    {
        QString src = node.attribute(u"src").trimmed();
        if (src.isEmpty())
            src = node.attribute(u"data-src").trimmed();
        const QString alt = escapeInline(oneLine(node.attribute(u"alt")));
        if (src.isEmpty() || src.startsWith(u"data:", Qt::CaseInsensitive)) {
            // Inline image data is no use as text; its description is.
            out.inlineText(alt);
            return;
        }
        out.inlineText(u"!["_s + alt + u"]("_s + resolve(src) + titlePart(node) + u')');
    }

    /// Renders one list item with @p marker; its later lines are indented under its text.
    void item(const Node &node, const QString &marker, Out &out, const Context &ctx)
    {
        Context inner = ctx;
        inner.inListItem = true;
        Out sub;
        children(node, sub, inner);
        const QString content = trimmedBlock(sub.s);
        if (ctx.inCell) {
            out.inlineText(u' ' + oneLine(content));
            return;
        }
        if (!out.s.isEmpty() && !out.s.endsWith(u'\n'))
            out.breakBlock(1);
        const QString indent(marker.size(), u' ');
        const QStringList lines = content.split(u'\n');
        QString text = marker + lines.value(0);
        for (qsizetype k = 1; k < lines.size(); ++k) {
            const QString &line = lines.at(k);
            text += u'\n';
            if (!line.isEmpty())
                text += indent + line;
        }
        out.raw(text + u'\n');
    }

    void list(const Node &node, Out &out, const Context &ctx)
    {
        const bool ordered = node.tag == u"ol";
        const int newlines = ctx.inListItem ? 1 : 2;
        if (!ctx.inCell)
            out.breakBlock(newlines);
        bool ok = false;
        qint64 number = node.attribute(u"start").toLongLong(&ok);
        if (!ok)
            number = 1;
        for (const auto &child : node.children) {
            if (child->tag == u"li")
                item(*child, ordered ? u"%1. "_s.arg(number++) : u"- "_s, out, ctx);
            else if (!child->isText() || !child->text.trimmed().isEmpty())
                render(*child, out, ctx);
        }
        if (!ctx.inCell)
            out.breakBlock(newlines);
    }

    void blockquote(const Node &node, Out &out, const Context &ctx)
    {
        const QString content = trimmedBlock(inner(node, ctx));
        if (content.isEmpty())
            return;
        if (ctx.inCell) {
            out.inlineText(oneLine(content));
            return;
        }
        QStringList lines = content.split(u'\n');
        for (QString &line : lines)
            line = line.isEmpty() ? u">"_s : u"> "_s + line;
        out.breakBlock();
        out.raw(lines.join(u'\n'));
        out.breakBlock();
    }

    static void collectRows(const Node &node, QList<const Node *> &rows)
    {
        for (const auto &child : node.children) {
            if (child->tag == u"tr")
                rows.append(child.get());
            else if (child->tag == u"thead" || child->tag == u"tbody" || child->tag == u"tfoot")
                collectRows(*child, rows);
        }
    }

    void table(const Node &node, Out &out, const Context &ctx)
    {
        QList<const Node *> rows;
        collectRows(node, rows);
        QList<QStringList> cells;
        qsizetype columns = 0;
        const Node *onlyCell = nullptr;
        qsizetype cellCount = 0;
        Context cellContext = ctx;
        cellContext.inCell = true;
        for (const Node *row : std::as_const(rows)) {
            QStringList line;
            for (const auto &cell : row->children) {
                if (cell->tag != u"td" && cell->tag != u"th")
                    continue;
                ++cellCount;
                onlyCell = cell.get();
                QString text = oneLine(inner(*cell, cellContext));
                text.replace(u'|', u"\\|"_s);
                line.append(text);
                bool ok = false;
                const int span = cell->attribute(u"colspan").toInt(&ok);
                for (int k = 1; ok && k < std::min(span, 50); ++k)
                    line.append(QString());
            }
            if (!line.isEmpty()) {
                columns = std::max(columns, line.size());
                cells.append(line);
            }
        }
        // A table of one cell is layout, not data: its content as it is.
        if (cellCount == 1 && onlyCell && !ctx.inCell) {
            out.breakBlock();
            children(*onlyCell, out, ctx);
            out.breakBlock();
            return;
        }
        if (cells.isEmpty())
            return;
        if (ctx.inCell) {
            for (const QStringList &line : std::as_const(cells))
                out.inlineText(u' ' + line.join(u' '));
            return;
        }
        QString text;
        for (const auto &captionNode : node.children) {
            if (captionNode->tag == u"caption") {
                const QString caption = oneLine(inner(*captionNode, cellContext));
                if (!caption.isEmpty())
                    text += caption + u"\n\n"_s;
            }
        }
        for (qsizetype r = 0; r < cells.size(); ++r) {
            QStringList line = cells.at(r);
            while (line.size() < columns)
                line.append(QString());
            text += u"| "_s + line.join(u" | "_s) + u" |\n"_s;
            if (r == 0) {
                QStringList rule;
                for (qsizetype c = 0; c < columns; ++c)
                    rule.append(u"---"_s);
                text += u"| "_s + rule.join(u" | "_s) + u" |\n"_s;
            }
        }
        out.breakBlock();
        out.raw(text);
        out.breakBlock();
    }

    QUrl m_base;
};

QString finish(QString s)
{
    s.replace(HardBreak, u"  "_s);
    s.replace(QChar(0xA0), u' ');
    return trimmedBlock(s);
}

// ---------------------------------------------------------------------------------------------
// Plain text

void plainText(const Node &node, Out &out)
{
    if (node.isText()) {
        out.inlineText(collapseWhitespace(node.text));
        return;
    }
    const QString &tag = node.tag;
    if (isDropped(tag))
        return;
    if (tag == u"br") {
        out.breakBlock(1);
        return;
    }
    if (tag == u"pre") {
        QString code = textContent(node);
        if (code.startsWith(u'\n'))
            code.remove(0, 1);
        out.breakBlock();
        out.raw(code);
        out.breakBlock();
        return;
    }
    if (tag == u"td" || tag == u"th") {
        if (!out.s.isEmpty() && !out.s.endsWith(u'\n'))
            out.raw(u"\t"_s);
        for (const auto &child : node.children)
            plainText(*child, out);
        return;
    }
    const bool paragraph = tag == u"p" || tag == u"blockquote" || tag == u"table" || tag == u"ul" || tag == u"ol"
        || tag == u"hr" || (tag.size() == 2 && tag.at(0) == u'h' && tag.at(1) >= u'1' && tag.at(1) <= u'6');
    const bool line = paragraph || isBlock(tag) || tag == u"li" || tag == u"tr";
    if (line)
        out.breakBlock(paragraph ? 2 : 1);
    for (const auto &child : node.children)
        plainText(*child, out);
    if (line)
        out.breakBlock(paragraph ? 2 : 1);
}

} // namespace

QString decodeEntities(QStringView text)
{
    if (!text.contains(u'&'))
        return text.toString();
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == u'&') {
            if (const qsizetype used = decodeReference(text, i, out); used > 0) {
                i += used - 1;
                continue;
            }
        }
        out += text.at(i);
    }
    return out;
}

QString toMarkdown(QStringView html, const QUrl &baseUrl)
{
    const Document doc = Parser(html).parse();
    QUrl base = baseUrl;
    if (!doc.baseHref.isEmpty())
        base = base.isValid() ? base.resolved(QUrl(doc.baseHref)) : QUrl(doc.baseHref);
    MarkdownWriter writer(base.isValid() && !base.isRelative() ? base : QUrl());
    Out out;
    writer.render(*doc.root, out, {});
    return finish(out.s);
}

QString toText(QStringView html)
{
    const Document doc = Parser(html).parse();
    Out out;
    plainText(*doc.root, out);
    return finish(out.s);
}

} // namespace weft::Html
