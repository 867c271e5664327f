// SPDX-License-Identifier: GPL-3.0-or-later
#include "frontmatter.h"

#include "core/tr.h"

#include <QRegularExpression>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

int indentOf(QStringView line)
{
    int n = 0;
    while (n < line.size() && line[n] == u' ')
        ++n;
    return n;
}

bool isBlankOrComment(QStringView line)
{
    const QStringView t = line.trimmed();
    return t.isEmpty() || t.startsWith(u'#');
}

/// The position of the ':' that ends a mapping key in @p text (quoted keys allowed), or -1.
qsizetype keyColon(QStringView text)
{
    qsizetype i = 0;
    if (!text.isEmpty() && (text[0] == u'"' || text[0] == u'\'')) {
        const QChar quote = text[0];
        for (i = 1; i < text.size(); ++i) {
            if (text[i] == u'\\' && quote == u'"')
                ++i;
            else if (text[i] == quote)
                break;
        }
        if (i >= text.size())
            return -1;
        ++i;
        while (i < text.size() && text[i] == u' ')
            ++i;
        return i < text.size() && text[i] == u':' && (i + 1 == text.size() || text[i + 1] == u' ') ? i : -1;
    }
    if (text.startsWith(u'[') || text.startsWith(u'{') || text.startsWith(u"- ") || text == u"-")
        return -1;
    for (i = 0; i < text.size(); ++i) {
        if (text[i] == u':' && (i + 1 == text.size() || text[i + 1] == u' ' || text[i + 1] == u'\t'))
            return i;
        if (text[i] == u' ' && i + 1 < text.size() && text[i + 1] == u'#')
            return -1;
    }
    return -1;
}

void skipSpaces(const QString &text, qsizetype &pos)
{
    while (pos < text.size() && text[pos] == u' ')
        ++pos;
}

bool isSequenceItem(QStringView text)
{
    return text == u"-" || text.startsWith(u"- ");
}

JsonValue plainScalar(QStringView raw)
{
    const QString s = raw.trimmed().toString();
    if (s.isEmpty() || s == u"~" || s == u"null" || s == u"Null" || s == u"NULL")
        return JsonValue(nullptr);
    if (s == u"true" || s == u"True" || s == u"TRUE")
        return JsonValue(true);
    if (s == u"false" || s == u"False" || s == u"FALSE")
        return JsonValue(false);
    static const QRegularExpression integer(uR"(^[-+]?[0-9]+$)"_s);
    static const QRegularExpression real(uR"(^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$|^[-+]?[0-9]+[eE][-+]?[0-9]+$)"_s);
    if (integer.match(s).hasMatch()) {
        bool ok = false;
        const qint64 n = s.toLongLong(&ok);
        if (ok)
            return JsonValue(n);
    }
    if (real.match(s).hasMatch())
        return JsonValue(s.toDouble());
    return JsonValue(s);
}

class YamlParser
{
public:
    YamlParser(const QString &text, int firstLine)
        : m_lines(text.split(u'\n'))
        , m_firstLine(firstLine)
    {
        for (QString &line : m_lines) {
            if (line.endsWith(u'\r'))
                line.chop(1);
            line.replace(u'\t', u"    "_s);
        }
    }

    Result<JsonObject> document()
    {
        skipBlank();
        if (m_pos >= m_lines.size())
            return JsonObject();
        const int indent = indentOf(m_lines.at(m_pos));
        JsonValue root = mapping(indent);
        if (!m_error.isEmpty())
            return Error{m_error, u"line %1"_s.arg(m_errorLine)};
        skipBlank();
        if (m_pos < m_lines.size())
            return Error{ConfigTr::tr("unexpected indentation"), u"line %1"_s.arg(m_firstLine + m_pos)};
        return root.toObject();
    }

private:
    void fail(const QString &message, qsizetype line)
    {
        if (m_error.isEmpty()) {
            m_error = message;
            m_errorLine = m_firstLine + int(line);
        }
        m_pos = m_lines.size();
    }

    void skipBlank()
    {
        while (m_pos < m_lines.size() && isBlankOrComment(m_lines.at(m_pos)))
            ++m_pos;
    }

    /// A value that starts on the line after a key (or a sequence dash): deeper than @p parent.
    JsonValue block(int parent, bool sequenceAtParentAllowed)
    {
        skipBlank();
        if (m_pos >= m_lines.size())
            return JsonValue(nullptr);
        const QString &line = m_lines.at(m_pos);
        const int indent = indentOf(line);
        const QStringView text = QStringView(line).mid(indent);
        if (indent == parent && sequenceAtParentAllowed && isSequenceItem(text))
            return sequence(indent);
        if (indent <= parent)
            return JsonValue(nullptr);
        if (isSequenceItem(text))
            return sequence(indent);
        if (keyColon(text) >= 0)
            return mapping(indent);
        // A plain scalar on its own lines.
        QStringList parts;
        while (m_pos < m_lines.size() && !isBlankOrComment(m_lines.at(m_pos)) && indentOf(m_lines.at(m_pos)) > parent)
            parts.append(m_lines.at(m_pos++).trimmed());
        return inlineValue(parts.join(u' '), m_pos - 1);
    }

    JsonValue mapping(int indent)
    {
        JsonObject object;
        while (true) {
            skipBlank();
            if (m_pos >= m_lines.size())
                break;
            const QString line = m_lines.at(m_pos);
            const int here = indentOf(line);
            if (here < indent)
                break;
            if (here > indent) {
                fail(ConfigTr::tr("unexpected indentation"), m_pos);
                break;
            }
            const QStringView text = QStringView(line).mid(here);
            const qsizetype colon = keyColon(text);
            if (colon < 0) {
                if (isSequenceItem(text))
                    break; // a sequence at the key's own indentation belongs to the caller
                fail(ConfigTr::tr("expected \"key: value\""), m_pos);
                break;
            }
            const qsizetype keyLine = m_pos;
            QString key = text.left(colon).trimmed().toString();
            if (key.startsWith(u'"') || key.startsWith(u'\''))
                key = inlineValue(key, keyLine).toString();
            const QString rest = text.mid(colon + 1).trimmed().toString();
            ++m_pos;
            JsonValue value;
            if (rest.isEmpty() || rest.startsWith(u'#'))
                value = block(indent, true);
            else if (rest.startsWith(u'|') || rest.startsWith(u'>'))
                value = blockScalar(indent, rest);
            else
                value = inlineValue(rest, keyLine);
            if (!m_error.isEmpty())
                break;
            object.insert(key, value);
        }
        return object;
    }

    JsonValue sequence(int indent)
    {
        JsonArray array;
        while (true) {
            skipBlank();
            if (m_pos >= m_lines.size())
                break;
            const QString line = m_lines.at(m_pos);
            const int here = indentOf(line);
            const QStringView text = QStringView(line).mid(here);
            if (here != indent || !isSequenceItem(text))
                break;
            const QString rest = text.mid(1).trimmed().toString();
            if (rest.isEmpty() || rest.startsWith(u'#')) {
                ++m_pos;
                array.append(block(indent, false));
            } else if (keyColon(rest) >= 0) {
                // "- key: value": a mapping that starts on the dash's line.
                const int inner = indent + 1 + indentOf(text.mid(1));
                m_lines[m_pos] = QString(inner, u' ') + rest;
                array.append(mapping(inner));
            } else {
                ++m_pos;
                array.append(inlineValue(rest, m_pos - 1));
            }
            if (!m_error.isEmpty())
                break;
        }
        return array;
    }

    JsonValue blockScalar(int parent, const QString &header)
    {
        const bool folded = header.startsWith(u'>');
        const bool strip = header.contains(u'-');
        const bool keep = header.contains(u'+');
        QStringList lines;
        int blockIndent = -1;
        while (m_pos < m_lines.size()) {
            const QString &line = m_lines.at(m_pos);
            if (line.trimmed().isEmpty()) {
                lines.append(QString());
                ++m_pos;
                continue;
            }
            const int here = indentOf(line);
            if (here <= parent)
                break;
            if (blockIndent < 0)
                blockIndent = here;
            if (here < blockIndent)
                break;
            lines.append(line.mid(blockIndent));
            ++m_pos;
        }
        // Trailing blank lines belong to the chomping, not to the text.
        int trailing = 0;
        while (!lines.isEmpty() && lines.last().isEmpty()) {
            lines.removeLast();
            ++trailing;
        }
        QString text;
        if (folded) {
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (i > 0)
                    text += lines.at(i).isEmpty() || lines.at(i - 1).isEmpty() || lines.at(i).startsWith(u' ') ? u"\n"_s : u" "_s;
                text += lines.at(i);
            }
        } else {
            text = lines.join(u'\n');
        }
        if (!strip && !lines.isEmpty())
            text += u'\n';
        if (keep)
            text += QString(trailing, u'\n');
        return JsonValue(text);
    }

    /// A value written on one line: quoted, flow or plain.
    JsonValue inlineValue(const QString &text, qsizetype line)
    {
        qsizetype pos = 0;
        JsonValue value = flowValue(text, pos, line, false);
        if (!m_error.isEmpty())
            return value;
        skipSpaces(text, pos);
        if (pos < text.size() && text[pos] != u'#')
            fail(ConfigTr::tr("unexpected text after the value: \"%1\"").arg(text.mid(pos)), line);
        return value;
    }

    /// A flow key that is no string, as js-yaml (OpenCode's reader) turns it into a property
    /// name: JavaScript's String() of it, "[object Object]" for a mapping. Not its JSON: keys
    /// nested in keys would escape each other's quotes, doubling the text at every level.
    static QString keyString(const JsonValue &key)
    {
        switch (key.type()) {
        case JsonValue::Type::String:
            return key.toString();
        case JsonValue::Type::Object:
            return u"[object Object]"_s;
        case JsonValue::Type::Array: {
            QStringList items;
            for (const JsonValue &item : key.toArray())
                items.append(item.isNull() || item.isUndefined() ? QString() : keyString(item));
            return items.join(u',');
        }
        default:
            return QString::fromUtf8(toJson(key, 0));
        }
    }

    JsonValue flowValue(const QString &text, qsizetype &pos, qsizetype line, bool inFlow)
    {
        skipSpaces(text, pos);
        if (pos >= text.size())
            return JsonValue(nullptr);
        const QChar c = text[pos];
        if (c == u'"')
            return doubleQuoted(text, pos, line);
        if (c == u'\'')
            return singleQuoted(text, pos, line);
        if (c == u'[') {
            JsonArray array;
            ++pos;
            while (true) {
                skipSpaces(text, pos);
                if (pos >= text.size()) {
                    fail(ConfigTr::tr("unterminated flow sequence"), line);
                    return array;
                }
                if (text[pos] == u']') {
                    ++pos;
                    return array;
                }
                const qsizetype itemStart = pos;
                array.append(flowValue(text, pos, line, true));
                if (!m_error.isEmpty())
                    return array;
                skipSpaces(text, pos);
                if (pos < text.size() && text[pos] == u',')
                    ++pos;
                // A character no item can start with (':' or '}') would be read again forever.
                if (pos == itemStart) {
                    fail(u"unexpected '%1' in a flow sequence"_s.arg(text[pos]), line);
                    return array;
                }
            }
        }
        if (c == u'{') {
            JsonObject object;
            ++pos;
            while (true) {
                skipSpaces(text, pos);
                if (pos >= text.size()) {
                    fail(ConfigTr::tr("unterminated flow mapping"), line);
                    return object;
                }
                if (text[pos] == u'}') {
                    ++pos;
                    return object;
                }
                const qsizetype memberStart = pos;
                const JsonValue key = flowValue(text, pos, line, true);
                if (!m_error.isEmpty())
                    return object;
                skipSpaces(text, pos);
                JsonValue value(nullptr);
                if (pos < text.size() && text[pos] == u':') {
                    ++pos;
                    value = flowValue(text, pos, line, true);
                }
                object.insert(keyString(key), value);
                skipSpaces(text, pos);
                if (pos < text.size() && text[pos] == u',')
                    ++pos;
                // A character no member can start with (']') would be read again forever.
                if (pos == memberStart) {
                    fail(u"unexpected '%1' in a flow mapping"_s.arg(text[pos]), line);
                    return object;
                }
            }
        }
        // A plain scalar: to a comment, or inside a flow to a ',', ']', '}' or a key's ':'.
        const qsizetype start = pos;
        while (pos < text.size()) {
            const QChar ch = text[pos];
            if (ch == u'#' && pos > start && text[pos - 1] == u' ')
                break;
            if (inFlow && (ch == u',' || ch == u']' || ch == u'}'))
                break;
            if (inFlow && ch == u':' && (pos + 1 == text.size() || text[pos + 1] == u' '))
                break;
            ++pos;
        }
        return plainScalar(QStringView(text).mid(start, pos - start));
    }

    JsonValue doubleQuoted(const QString &text, qsizetype &pos, qsizetype line)
    {
        QString out;
        ++pos;
        while (pos < text.size()) {
            const QChar c = text[pos++];
            if (c == u'"')
                return JsonValue(out);
            if (c != u'\\') {
                out += c;
                continue;
            }
            if (pos >= text.size())
                break;
            const QChar e = text[pos++];
            switch (e.unicode()) {
            case 'n': out += u'\n'; break;
            case 't': out += u'\t'; break;
            case 'r': out += u'\r'; break;
            case '0': out += QChar(0); break;
            case 'u':
            case 'x': {
                const int digits = e == u'u' ? 4 : 2;
                bool ok = false;
                const uint code = text.mid(pos, digits).toUInt(&ok, 16);
                if (!ok || pos + digits > text.size()) {
                    fail(ConfigTr::tr("bad escape in a quoted string"), line);
                    return JsonValue(out);
                }
                out += QChar(char16_t(code));
                pos += digits;
                break;
            }
            default: out += e; break;
            }
        }
        fail(ConfigTr::tr("unterminated quoted string"), line);
        return JsonValue(out);
    }

    JsonValue singleQuoted(const QString &text, qsizetype &pos, qsizetype line)
    {
        QString out;
        ++pos;
        while (pos < text.size()) {
            const QChar c = text[pos++];
            if (c == u'\'') {
                if (pos < text.size() && text[pos] == u'\'') {
                    out += u'\'';
                    ++pos;
                    continue;
                }
                return JsonValue(out);
            }
            out += c;
        }
        fail(ConfigTr::tr("unterminated quoted string"), line);
        return JsonValue(out);
    }

    QStringList m_lines;
    int m_firstLine;
    qsizetype m_pos = 0;
    QString m_error;
    int m_errorLine = 0;
};

} // namespace

Result<JsonObject> parseYamlMapping(const QString &yaml, int firstLine)
{
    return YamlParser(yaml, firstLine).document();
}

Result<FrontMatterDocument> parseFrontMatter(const QString &input)
{
    FrontMatterDocument doc;
    QString text = input;
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    // "---" on the first line opens the front matter; the next line that is "---" closes it.
    const auto firstLineEnd = text.indexOf(u'\n');
    if (QStringView(text).left(firstLineEnd < 0 ? text.size() : firstLineEnd).trimmed() != u"---") {
        doc.content = text;
        return doc;
    }
    qsizetype pos = firstLineEnd + 1;
    qsizetype close = -1;
    qsizetype after = text.size();
    while (pos <= text.size() && firstLineEnd >= 0) {
        qsizetype end = text.indexOf(u'\n', pos);
        const qsizetype lineEnd = end < 0 ? text.size() : end;
        if (QStringView(text).mid(pos, lineEnd - pos).trimmed() == u"---") {
            close = pos;
            after = end < 0 ? text.size() : end + 1;
            break;
        }
        if (end < 0)
            break;
        pos = end + 1;
    }
    if (close < 0)
        return Error{ConfigTr::tr("the front matter is not closed with a \"---\" line"), u"line 1"_s};
    Result<JsonObject> data = parseYamlMapping(text.mid(firstLineEnd + 1, close - firstLineEnd - 1), 2);
    if (!data)
        return data.error();
    doc.data = data.value();
    doc.hasFrontMatter = true;
    doc.content = text.mid(after);
    return doc;
}

} // namespace weft
