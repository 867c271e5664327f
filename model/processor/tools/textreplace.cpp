// SPDX-License-Identifier: GPL-3.0-or-later
#include "textreplace.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

namespace weft::TextReplace
{

namespace
{

/// A replacer's candidates go to @p yield, which returns false to stop (OpenCode's generators are
/// lazy: the first usable candidate ends the search).
using Yield = std::function<bool(const QString &candidate)>;

qsizetype leadingSpace(QStringView text)
{
    qsizetype n = 0;
    while (n < text.size() && isJsSpace(text.at(n)))
        ++n;
    return n;
}

/// `text.replace(/\s+/g, " ").trim()`
QString normalizeWhitespace(const QString &text)
{
    QString out;
    out.reserve(text.size());
    bool inSpace = false;
    for (const QChar c : text) {
        if (isJsSpace(c)) {
            if (!inSpace)
                out.append(u' ');
            inSpace = true;
        } else {
            out.append(c);
            inSpace = false;
        }
    }
    return jsTrim(out);
}

/// Offset of line @p line in the text split into @p lines at '\n'.
qsizetype lineOffset(const QStringList &lines, qsizetype line)
{
    qsizetype offset = 0;
    for (qsizetype k = 0; k < line; ++k)
        offset += lines.at(k).size() + 1;
    return offset;
}

/// The text of lines [first, last] (inclusive) of @p content, as it is in the content.
QString blockText(const QString &content, const QStringList &lines, qsizetype first, qsizetype last)
{
    const qsizetype start = lineOffset(lines, first);
    qsizetype end = start;
    for (qsizetype k = first; k <= last; ++k) {
        end += lines.at(k).size();
        if (k < last)
            ++end;
    }
    return content.mid(start, end - start);
}

QString joinLines(const QStringList &lines, qsizetype first, qsizetype count)
{
    return lines.mid(first, count).join(u'\n');
}

bool simple(const QString &, const QString &find, const Yield &yield)
{
    return yield(find);
}

bool lineTrimmed(const QString &content, const QString &find, const Yield &yield)
{
    const QStringList original = content.split(u'\n');
    QStringList search = find.split(u'\n');
    if (search.last().isEmpty())
        search.removeLast();
    for (qsizetype i = 0; i <= original.size() - search.size(); ++i) {
        bool matches = true;
        for (qsizetype j = 0; j < search.size(); ++j) {
            if (jsTrim(original.at(i + j)) != jsTrim(search.at(j))) {
                matches = false;
                break;
            }
        }
        if (!matches)
            continue;
        if (search.isEmpty()) {
            if (!yield(QString()))
                return false;
            continue;
        }
        if (!yield(blockText(content, original, i, i + search.size() - 1)))
            return false;
    }
    return true;
}

/// Mean similarity (1 - distance / longer length) of the middle lines of a candidate block and
/// the search block; @p early stops at the first line once the sum reaches the single-candidate
/// threshold, as OpenCode's single-candidate branch does.
double middleSimilarity(const QStringList &original, const QStringList &search, qsizetype start, qsizetype end,
                        bool single)
{
    const qsizetype searchSize = search.size();
    const qsizetype actualSize = end - start + 1;
    const qsizetype linesToCheck = std::min(searchSize - 2, actualSize - 2);
    if (linesToCheck <= 0)
        return 1.0;
    double similarity = 0;
    for (qsizetype j = 1; j < searchSize - 1 && j < actualSize - 1; ++j) {
        const QString originalLine = jsTrim(original.at(start + j));
        const QString searchLine = jsTrim(search.at(j));
        const qsizetype maxLen = std::max(originalLine.size(), searchLine.size());
        if (maxLen == 0)
            continue;
        const double lineSimilarity = 1.0 - double(levenshtein(originalLine, searchLine)) / double(maxLen);
        if (single) {
            similarity += lineSimilarity / double(linesToCheck);
            if (similarity >= SingleCandidateSimilarityThreshold)
                break;
        } else {
            similarity += lineSimilarity;
        }
    }
    return single ? similarity : similarity / double(linesToCheck);
}

bool blockAnchor(const QString &content, const QString &find, const Yield &yield)
{
    const QStringList original = content.split(u'\n');
    QStringList search = find.split(u'\n');
    if (search.size() < 3)
        return true;
    if (search.last().isEmpty())
        search.removeLast();

    const QString firstLine = jsTrim(search.first());
    const QString lastLine = jsTrim(search.last());
    // Weft's own: blank lines anchor nothing (they would tie any two blank lines of the file
    // together); OpenCode 1.18 leaves such an oldString to the trimmed-boundary replacer too.
    if (firstLine.isEmpty() || lastLine.isEmpty())
        return true;
    struct Candidate {
        qsizetype start;
        qsizetype end;
    };
    std::vector<Candidate> candidates;
    for (qsizetype i = 0; i < original.size(); ++i) {
        if (jsTrim(original.at(i)) != firstLine)
            continue;
        for (qsizetype j = i + 2; j < original.size(); ++j) {
            if (jsTrim(original.at(j)) == lastLine) {
                candidates.push_back({i, j});
                break; // the first occurrence of the last line only
            }
        }
    }
    if (candidates.empty())
        return true;

    if (candidates.size() == 1) {
        const Candidate c = candidates.front();
        if (middleSimilarity(original, search, c.start, c.end, true) >= SingleCandidateSimilarityThreshold)
            return yield(blockText(content, original, c.start, c.end));
        return true;
    }

    double best = -1;
    const Candidate *bestMatch = nullptr;
    for (const Candidate &c : candidates) {
        const double similarity = middleSimilarity(original, search, c.start, c.end, false);
        if (similarity > best) {
            best = similarity;
            bestMatch = &c;
        }
    }
    if (bestMatch && best >= MultipleCandidatesSimilarityThreshold)
        return yield(blockText(content, original, bestMatch->start, bestMatch->end));
    return true;
}

/// The first match in @p line of OpenCode's pattern: the words of @p find (split at whitespace)
/// separated by one or more whitespace characters. Empty when there is none.
std::optional<QString> matchWords(const QString &line, const QString &find)
{
    // find.trim().split(/\s+/)
    const QString trimmed = jsTrim(find);
    QStringList words;
    {
        QString word;
        for (const QChar c : trimmed) {
            if (isJsSpace(c)) {
                if (!word.isEmpty())
                    words.append(word);
                word.clear();
            } else {
                word.append(c);
            }
        }
        words.append(word); // "" for an empty find: the empty pattern, matching at 0
    }
    if (words.size() == 1 && words.first().isEmpty())
        return QString();
    for (qsizetype start = 0; start < line.size(); ++start) {
        qsizetype pos = start;
        bool ok = true;
        for (qsizetype k = 0; k < words.size() && ok; ++k) {
            if (!QStringView(line).mid(pos).startsWith(words.at(k))) {
                ok = false;
                break;
            }
            pos += words.at(k).size();
            if (k + 1 < words.size()) {
                const qsizetype spaces = leadingSpace(QStringView(line).mid(pos));
                if (spaces == 0)
                    ok = false;
                pos += spaces;
            }
        }
        if (ok)
            return line.mid(start, pos - start);
    }
    return std::nullopt;
}

bool whitespaceNormalized(const QString &content, const QString &find, const Yield &yield)
{
    const QString normalizedFind = normalizeWhitespace(find);
    const QStringList lines = content.split(u'\n');
    for (const QString &line : lines) {
        const QString normalizedLine = normalizeWhitespace(line);
        if (normalizedLine == normalizedFind) {
            // Weft's own: the line's indentation (and trailing blanks) stay out of the match when
            // oldString has none, so that a newString without them does not unindent the line.
            // OpenCode's matches the whole line and drops the indentation.
            qsizetype start = 0;
            qsizetype end = line.size();
            if (find.isEmpty() || !isJsSpace(find.front())) {
                while (start < end && isJsSpace(line.at(start)))
                    ++start;
            }
            if (find.isEmpty() || !isJsSpace(find.back())) {
                while (end > start && isJsSpace(line.at(end - 1)))
                    --end;
            }
            if (!yield(line.mid(start, end - start)))
                return false;
        } else if (normalizedLine.contains(normalizedFind)) {
            if (const std::optional<QString> match = matchWords(line, find)) {
                if (!yield(*match))
                    return false;
            }
        }
    }
    const QStringList findLines = find.split(u'\n');
    if (findLines.size() > 1) {
        for (qsizetype i = 0; i <= lines.size() - findLines.size(); ++i) {
            const QString block = joinLines(lines, i, findLines.size());
            if (normalizeWhitespace(block) == normalizedFind && !yield(block))
                return false;
        }
    }
    return true;
}

QString removeIndentation(const QString &text)
{
    const QStringList lines = text.split(u'\n');
    qsizetype minIndent = std::numeric_limits<qsizetype>::max();
    bool any = false;
    for (const QString &line : lines) {
        if (jsTrim(line).isEmpty())
            continue;
        any = true;
        minIndent = std::min(minIndent, leadingSpace(line));
    }
    if (!any)
        return text;
    QStringList out;
    out.reserve(lines.size());
    for (const QString &line : lines)
        out.append(jsTrim(line).isEmpty() ? line : line.mid(minIndent));
    return out.join(u'\n');
}

bool indentationFlexible(const QString &content, const QString &find, const Yield &yield)
{
    const QString normalizedFind = removeIndentation(find);
    const QStringList contentLines = content.split(u'\n');
    const qsizetype findCount = find.count(u'\n') + 1;
    for (qsizetype i = 0; i <= contentLines.size() - findCount; ++i) {
        const QString block = joinLines(contentLines, i, findCount);
        if (removeIndentation(block) == normalizedFind && !yield(block))
            return false;
    }
    return true;
}

/// `str.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, ...)`
QString unescape(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'\\' && i + 1 < text.size()) {
            const char16_t next = text.at(i + 1).unicode();
            QChar replacement;
            switch (next) {
            case u'n': replacement = u'\n'; break;
            case u't': replacement = u'\t'; break;
            case u'r': replacement = u'\r'; break;
            case u'\'': case u'"': case u'`': case u'\\': case u'\n': case u'$': replacement = QChar(next); break;
            default: break;
            }
            if (!replacement.isNull()) {
                out.append(replacement);
                ++i;
                continue;
            }
        }
        out.append(c);
    }
    return out;
}

bool escapeNormalized(const QString &content, const QString &find, const Yield &yield)
{
    const QString unescapedFind = unescape(find);
    if (content.contains(unescapedFind) && !yield(unescapedFind))
        return false;
    const QStringList lines = content.split(u'\n');
    const qsizetype findCount = unescapedFind.count(u'\n') + 1;
    for (qsizetype i = 0; i <= lines.size() - findCount; ++i) {
        const QString block = joinLines(lines, i, findCount);
        if (unescape(block) == unescapedFind && !yield(block))
            return false;
    }
    return true;
}

bool trimmedBoundary(const QString &content, const QString &find, const Yield &yield)
{
    const QString trimmedFind = jsTrim(find);
    if (trimmedFind == find)
        return true; // already trimmed
    if (content.contains(trimmedFind) && !yield(trimmedFind))
        return false;
    const QStringList lines = content.split(u'\n');
    const qsizetype findCount = find.count(u'\n') + 1;
    for (qsizetype i = 0; i <= lines.size() - findCount; ++i) {
        const QString block = joinLines(lines, i, findCount);
        if (jsTrim(block) == trimmedFind && !yield(block))
            return false;
    }
    return true;
}

bool contextAware(const QString &content, const QString &find, const Yield &yield)
{
    QStringList findLines = find.split(u'\n');
    if (findLines.size() < 3)
        return true;
    if (findLines.last().isEmpty())
        findLines.removeLast();
    const QStringList contentLines = content.split(u'\n');
    const QString firstLine = jsTrim(findLines.first());
    const QString lastLine = jsTrim(findLines.last());
    for (qsizetype i = 0; i < contentLines.size(); ++i) {
        if (jsTrim(contentLines.at(i)) != firstLine)
            continue;
        for (qsizetype j = i + 2; j < contentLines.size(); ++j) {
            if (jsTrim(contentLines.at(j)) != lastLine)
                continue;
            // The first block closed by the last line: at least half of its non-empty middle
            // lines must be equal (trimmed) to the search's.
            const qsizetype blockSize = j - i + 1;
            if (blockSize == findLines.size()) {
                qsizetype matching = 0;
                qsizetype nonEmpty = 0;
                for (qsizetype k = 1; k < blockSize - 1; ++k) {
                    const QString blockLine = jsTrim(contentLines.at(i + k));
                    const QString findLine = jsTrim(findLines.at(k));
                    if (!blockLine.isEmpty() || !findLine.isEmpty()) {
                        ++nonEmpty;
                        if (blockLine == findLine)
                            ++matching;
                    }
                }
                if ((nonEmpty == 0 || double(matching) / double(nonEmpty) >= 0.5)
                    && !yield(joinLines(contentLines, i, blockSize)))
                    return false;
            }
            break;
        }
    }
    return true;
}

bool multiOccurrence(const QString &content, const QString &find, const Yield &yield)
{
    if (find.isEmpty())
        return true; // OpenCode would loop forever; the tools never pass an empty oldString
    qsizetype from = 0;
    while (true) {
        const qsizetype index = content.indexOf(find, from);
        if (index < 0)
            break;
        if (!yield(find))
            return false;
        from = index + find.size();
    }
    return true;
}

bool run(Replacer replacer, const QString &content, const QString &find, const Yield &yield)
{
    switch (replacer) {
    case Replacer::Simple: return simple(content, find, yield);
    case Replacer::LineTrimmed: return lineTrimmed(content, find, yield);
    case Replacer::BlockAnchor: return blockAnchor(content, find, yield);
    case Replacer::WhitespaceNormalized: return whitespaceNormalized(content, find, yield);
    case Replacer::IndentationFlexible: return indentationFlexible(content, find, yield);
    case Replacer::EscapeNormalized: return escapeNormalized(content, find, yield);
    case Replacer::TrimmedBoundary: return trimmedBoundary(content, find, yield);
    case Replacer::ContextAware: return contextAware(content, find, yield);
    case Replacer::MultiOccurrence: return multiOccurrence(content, find, yield);
    }
    return true;
}

} // namespace

bool isJsSpace(QChar c)
{
    const char16_t u = c.unicode();
    if (u == u'\t' || u == u'\n' || u == 0x0B || u == u'\f' || u == u'\r' || u == u' ')
        return true;
    if (u < 0x80)
        return false;
    return u == 0xA0 || u == 0xFEFF || u == 0x2028 || u == 0x2029 || c.category() == QChar::Separator_Space;
}

QString jsTrim(const QString &text)
{
    qsizetype start = 0;
    qsizetype end = text.size();
    while (start < end && isJsSpace(text.at(start)))
        ++start;
    while (end > start && isJsSpace(text.at(end - 1)))
        --end;
    return (start == 0 && end == text.size()) ? text : text.mid(start, end - start);
}

int levenshtein(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return int(std::max(a.size(), b.size()));
    std::vector<int> previous(size_t(b.size()) + 1);
    std::vector<int> current(size_t(b.size()) + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        previous[size_t(j)] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int cost = a.at(i - 1) == b.at(j - 1) ? 0 : 1;
            current[size_t(j)] = std::min({previous[size_t(j)] + 1, current[size_t(j - 1)] + 1, previous[size_t(j - 1)] + cost});
        }
        std::swap(previous, current);
    }
    return previous[size_t(b.size())];
}

const QList<Replacer> &chain()
{
    static const QList<Replacer> order{Replacer::Simple,          Replacer::LineTrimmed,
                                       Replacer::BlockAnchor,     Replacer::WhitespaceNormalized,
                                       Replacer::IndentationFlexible, Replacer::EscapeNormalized,
                                       Replacer::TrimmedBoundary, Replacer::ContextAware,
                                       Replacer::MultiOccurrence};
    return order;
}

QString name(Replacer replacer)
{
    switch (replacer) {
    case Replacer::Simple: return u"SimpleReplacer"_s;
    case Replacer::LineTrimmed: return u"LineTrimmedReplacer"_s;
    case Replacer::BlockAnchor: return u"BlockAnchorReplacer"_s;
    case Replacer::WhitespaceNormalized: return u"WhitespaceNormalizedReplacer"_s;
    case Replacer::IndentationFlexible: return u"IndentationFlexibleReplacer"_s;
    case Replacer::EscapeNormalized: return u"EscapeNormalizedReplacer"_s;
    case Replacer::TrimmedBoundary: return u"TrimmedBoundaryReplacer"_s;
    case Replacer::ContextAware: return u"ContextAwareReplacer"_s;
    case Replacer::MultiOccurrence: return u"MultiOccurrenceReplacer"_s;
    }
    return {};
}

QStringList candidates(Replacer replacer, const QString &content, const QString &find)
{
    QStringList out;
    run(replacer, content, find, [&out](const QString &candidate) {
        out.append(candidate);
        return true;
    });
    return out;
}

QString identicalMessage()
{
    return u"No changes to apply: oldString and newString are identical."_s;
}

QString notFoundMessage()
{
    return u"Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings."_s;
}

QString ambiguousMessage()
{
    return u"Found multiple matches for oldString. Provide more surrounding context to make the match unique."_s;
}

Outcome replace(const QString &content, const QString &oldString, const QString &newString, bool replaceAll)
{
    Outcome outcome;
    if (oldString == newString) {
        outcome.status = Outcome::Status::Identical;
        outcome.error = identicalMessage();
        return outcome;
    }
    bool notFound = true;
    for (const Replacer replacer : chain()) {
        bool done = false;
        run(replacer, content, oldString, [&](const QString &search) {
            // An empty candidate is found at 0 and at the end: unique only in empty content.
            // (OpenCode's replaceAll would insert newString between all characters.)
            if (search.isEmpty() && !content.isEmpty()) {
                notFound = false;
                return true;
            }
            const qsizetype index = content.indexOf(search);
            if (index < 0)
                return true;
            notFound = false;
            if (search.isEmpty()) {
                outcome.content = newString; // the empty content
            } else if (replaceAll) {
                outcome.content = content;
                outcome.content.replace(search, newString);
            } else {
                if (index != content.lastIndexOf(search))
                    return true; // ambiguous: try the next candidate
                outcome.content = content.left(index) + newString + content.mid(index + search.size());
            }
            outcome.status = Outcome::Status::Replaced;
            outcome.matched = search;
            outcome.replacer = replacer;
            done = true;
            return false;
        });
        if (done)
            return outcome;
    }
    outcome.status = notFound ? Outcome::Status::NotFound : Outcome::Status::Ambiguous;
    outcome.error = notFound ? notFoundMessage() : ambiguousMessage();
    return outcome;
}

QString trimDiff(const QString &diff)
{
    const QStringList lines = diff.split(u'\n');
    auto isContent = [](const QString &line) {
        return (line.startsWith(u'+') || line.startsWith(u'-') || line.startsWith(u' ')) && !line.startsWith(u"---")
            && !line.startsWith(u"+++");
    };
    bool any = false;
    qsizetype min = std::numeric_limits<qsizetype>::max();
    for (const QString &line : lines) {
        if (!isContent(line))
            continue;
        any = true;
        const QString text = line.mid(1);
        if (!jsTrim(text).isEmpty())
            min = std::min(min, leadingSpace(text));
    }
    if (!any || min == std::numeric_limits<qsizetype>::max() || min == 0)
        return diff;
    QStringList out;
    out.reserve(lines.size());
    for (const QString &line : lines)
        out.append(isContent(line) ? line.left(1) + line.mid(1).mid(min) : line);
    return out.join(u'\n');
}

} // namespace weft::TextReplace
