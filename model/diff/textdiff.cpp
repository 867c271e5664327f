// SPDX-License-Identifier: GPL-3.0-or-later
#include "textdiff.h"

#include <QHash>
#include <QList>
#include <QStringView>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace weft::TextDiff
{

namespace
{

/// Myers' O(ND) difference algorithm in linear space (the "middle snake" bisection, as in
/// diff-match-patch): exact for any number of differences.
class LineDiff
{
public:
    LineDiff(const std::vector<int> &a, const std::vector<int> &b, QList<Edit> &out,
             QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever))
        : m_a(a)
        , m_b(b)
        , m_out(out)
        , m_deadline(deadline)
    {
    }

    void run() { diffRange(0, qsizetype(m_a.size()), 0, qsizetype(m_b.size())); }

private:
    void diffRange(qsizetype aLo, qsizetype aHi, qsizetype bLo, qsizetype bHi)
    {
        while (aLo < aHi && bLo < bHi && m_a[size_t(aLo)] == m_b[size_t(bLo)]) {
            m_out.append(Edit{Edit::Op::Equal, aLo, bLo});
            ++aLo;
            ++bLo;
        }
        qsizetype suffix = 0;
        while (aHi - suffix > aLo && bHi - suffix > bLo
               && m_a[size_t(aHi - 1 - suffix)] == m_b[size_t(bHi - 1 - suffix)])
            ++suffix;
        aHi -= suffix;
        bHi -= suffix;
        if (aLo == aHi || bLo == bHi) {
            for (qsizetype i = aLo; i < aHi; ++i)
                m_out.append(Edit{Edit::Op::Delete, i, -1});
            for (qsizetype j = bLo; j < bHi; ++j)
                m_out.append(Edit{Edit::Op::Insert, -1, j});
        } else {
            bisect(aLo, aHi, bLo, bHi);
        }
        for (qsizetype i = 0; i < suffix; ++i)
            m_out.append(Edit{Edit::Op::Equal, aHi + i, bHi + i});
    }

    void bisect(qsizetype aLo, qsizetype aHi, qsizetype bLo, qsizetype bHi)
    {
        const qsizetype n = aHi - aLo;
        const qsizetype m = bHi - bLo;
        const qsizetype maxD = (n + m + 1) / 2;
        const qsizetype vOffset = maxD;
        const qsizetype vLength = 2 * maxD + 2;
        std::vector<qsizetype> v1(size_t(vLength), -1);
        std::vector<qsizetype> v2(size_t(vLength), -1);
        v1[size_t(vOffset + 1)] = 0;
        v2[size_t(vOffset + 1)] = 0;
        const qsizetype delta = n - m;
        const bool front = (delta % 2) != 0;
        qsizetype k1start = 0, k1end = 0, k2start = 0, k2end = 0;
        const auto A = [&](qsizetype i) { return m_a[size_t(aLo + i)]; };
        const auto B = [&](qsizetype j) { return m_b[size_t(bLo + j)]; };
        for (qsizetype d = 0; d < maxD; ++d) {
            if (m_deadline.hasExpired())
                break;
            for (qsizetype k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
                const qsizetype k1Offset = vOffset + k1;
                qsizetype x1;
                if (k1 == -d || (k1 != d && v1[size_t(k1Offset - 1)] < v1[size_t(k1Offset + 1)]))
                    x1 = v1[size_t(k1Offset + 1)];
                else
                    x1 = v1[size_t(k1Offset - 1)] + 1;
                qsizetype y1 = x1 - k1;
                while (x1 < n && y1 < m && A(x1) == B(y1)) {
                    ++x1;
                    ++y1;
                }
                v1[size_t(k1Offset)] = x1;
                if (x1 > n) {
                    k1end += 2;
                } else if (y1 > m) {
                    k1start += 2;
                } else if (front) {
                    const qsizetype k2Offset = vOffset + delta - k1;
                    if (k2Offset >= 0 && k2Offset < vLength && v2[size_t(k2Offset)] != -1) {
                        const qsizetype x2 = n - v2[size_t(k2Offset)];
                        if (x1 >= x2) {
                            split(aLo, aHi, bLo, bHi, x1, y1);
                            return;
                        }
                    }
                }
            }
            for (qsizetype k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
                const qsizetype k2Offset = vOffset + k2;
                qsizetype x2;
                if (k2 == -d || (k2 != d && v2[size_t(k2Offset - 1)] < v2[size_t(k2Offset + 1)]))
                    x2 = v2[size_t(k2Offset + 1)];
                else
                    x2 = v2[size_t(k2Offset - 1)] + 1;
                qsizetype y2 = x2 - k2;
                while (x2 < n && y2 < m && A(n - x2 - 1) == B(m - y2 - 1)) {
                    ++x2;
                    ++y2;
                }
                v2[size_t(k2Offset)] = x2;
                if (x2 > n) {
                    k2end += 2;
                } else if (y2 > m) {
                    k2start += 2;
                } else if (!front) {
                    const qsizetype k1Offset = vOffset + delta - k2;
                    if (k1Offset >= 0 && k1Offset < vLength && v1[size_t(k1Offset)] != -1) {
                        const qsizetype x1 = v1[size_t(k1Offset)];
                        const qsizetype y1 = vOffset + x1 - k1Offset;
                        if (x1 >= n - x2) {
                            split(aLo, aHi, bLo, bHi, x1, y1);
                            return;
                        }
                    }
                }
            }
        }
        // Nothing in common.
        for (qsizetype i = aLo; i < aHi; ++i)
            m_out.append(Edit{Edit::Op::Delete, i, -1});
        for (qsizetype j = bLo; j < bHi; ++j)
            m_out.append(Edit{Edit::Op::Insert, -1, j});
    }

    void split(qsizetype aLo, qsizetype aHi, qsizetype bLo, qsizetype bHi, qsizetype x, qsizetype y)
    {
        diffRange(aLo, aLo + x, bLo, bLo + y);
        diffRange(aLo + x, aHi, bLo + y, bHi);
    }

    const std::vector<int> &m_a;
    const std::vector<int> &m_b;
    QList<Edit> &m_out;
    QDeadlineTimer m_deadline;
};

/// Lines of a word diff longer than this get no word marks (the token diff would cost more than
/// it shows).
constexpr qsizetype MaxWordDiffLine = 4000;

/// The number of @p key in @p ids, a new one when it has none yet.
int internId(QHash<QStringView, int> &ids, QStringView key)
{
    auto it = ids.constFind(key);
    if (it != ids.constEnd())
        return it.value();
    const int id = int(ids.size());
    ids.insert(key, id);
    return id;
}

/// The line diff of two texts, as the tools count and print it: Myers' algorithm on all lines.
struct TextLines
{
    QList<QStringView> oldLines;
    QList<QStringView> newLines;
    bool oldNoEol = false;
    bool newNoEol = false;
    QList<Edit> edits;
};

TextLines diffTexts(const QString &before, const QString &after)
{
    TextLines t;
    t.oldLines = splitLines(before, &t.oldNoEol);
    t.newLines = splitLines(after, &t.newNoEol);
    std::vector<int> a, b;
    internLines(t.oldLines, t.oldNoEol, t.newLines, t.newNoEol, a, b);
    t.edits = diff(a, b);
    return t;
}

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

/// Splits a line into words, runs of white space and single other characters.
QList<QStringView> tokens(QStringView line)
{
    QList<QStringView> out;
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (i < n) {
        qsizetype j = i + 1;
        if (isWordChar(line[i])) {
            while (j < n && isWordChar(line[j]))
                ++j;
        } else if (line[i].isSpace()) {
            while (j < n && line[j].isSpace())
                ++j;
        } else if (line[i].isHighSurrogate() && j < n && line[j].isLowSurrogate()) {
            ++j;
        }
        out.append(line.mid(i, j - i));
        i = j;
    }
    return out;
}

bool onlySpace(QStringView s)
{
    return std::all_of(s.begin(), s.end(), [](QChar c) { return c.isSpace(); });
}

/// Ranges of the changed tokens of one side, neighbours joined across white space.
void collectRanges(const QList<QStringView> &toks, const QList<bool> &changed, QStringView line,
                   QList<WordRange> &ranges)
{
    qint32 pos = 0;
    for (qsizetype i = 0; i < toks.size(); ++i) {
        const auto len = qint32(toks.at(i).size());
        if (changed.at(i)) {
            if (!ranges.isEmpty()) {
                WordRange &last = ranges.last();
                const qint32 gapStart = last.start + last.length;
                if (gapStart == pos || onlySpace(line.mid(gapStart, pos - gapStart))) {
                    last.length = pos + len - last.start;
                    pos += len;
                    continue;
                }
            }
            ranges.append({pos, len});
        }
        pos += len;
    }
}

} // namespace

Counts count(const QString &before, const QString &after)
{
    Counts c;
    for (const Edit &e : diffTexts(before, after).edits) {
        if (e.op == Edit::Op::Insert)
            ++c.additions;
        else if (e.op == Edit::Op::Delete)
            ++c.deletions;
    }
    return c;
}

QString unified(const QString &file, const QString &before, const QString &after, int context)
{
    QString out = u"Index: "_s + file + u"\n===================================================================\n--- "_s
        + file + u"\n+++ "_s + file + u'\n';
    const TextLines t = diffTexts(before, after);
    for (const Hunk &h : hunks(t.edits, context)) {
        out += u"@@ -%1,%2 +%3,%4 @@\n"_s.arg(h.oldStart).arg(h.oldCount).arg(h.newStart).arg(h.newCount);
        for (qsizetype i = h.begin; i < h.end; ++i) {
            const Edit &e = t.edits.at(i);
            const bool fromNew = e.op == Edit::Op::Insert;
            const QStringView line = fromNew ? t.newLines.at(e.newIndex) : t.oldLines.at(e.oldIndex);
            const bool noEol = fromNew ? t.newNoEol && e.newIndex == t.newLines.size() - 1
                                       : t.oldNoEol && e.oldIndex == t.oldLines.size() - 1;
            const QChar prefix = e.op == Edit::Op::Equal ? u' ' : (e.op == Edit::Op::Delete ? u'-' : u'+');
            out += prefix;
            out += line;
            out += u'\n';
            if (noEol)
                out += u"\\ No newline at end of file\n"_s;
        }
    }
    return out;
}

QList<Edit> diff(const std::vector<int> &a, const std::vector<int> &b, QDeadlineTimer deadline)
{
    QList<Edit> edits;
    edits.reserve(qsizetype(std::max(a.size(), b.size())));
    LineDiff(a, b, edits, deadline).run();
    return edits;
}

QList<QStringView> splitLines(QStringView text, bool *missingNewline)
{
    QList<QStringView> lines;
    bool noEol = false;
    qsizetype pos = 0;
    const qsizetype size = text.size();
    while (pos < size) {
        const qsizetype nl = text.indexOf(u'\n', pos);
        if (nl < 0) {
            lines.append(text.mid(pos));
            noEol = true;
            break;
        }
        lines.append(text.mid(pos, nl - pos));
        pos = nl + 1;
    }
    if (missingNewline)
        *missingNewline = noEol;
    return lines;
}

int internLines(const QList<QStringView> &oldLines, bool oldMissingNewline, const QList<QStringView> &newLines,
                bool newMissingNewline, std::vector<int> &a, std::vector<int> &b)
{
    QHash<QStringView, int> ids;
    const auto toIds = [&ids](const QList<QStringView> &lines, bool noEol, std::vector<int> &out) {
        out.clear();
        out.reserve(size_t(lines.size()));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const int id = internId(ids, lines.at(i));
            // A last line without a newline differs from the same text with one.
            out.push_back(id * 2 + (noEol && i == lines.size() - 1 ? 0 : 1));
        }
    };
    toIds(oldLines, oldMissingNewline, a);
    toIds(newLines, newMissingNewline, b);
    return int(ids.size()) * 2;
}

QList<Edit> lineDiff(const std::vector<int> &a, const std::vector<int> &b, int idCount, QDeadlineTimer deadline)
{
    std::vector<quint8> seen(size_t(idCount), 0);
    for (int v : a)
        seen[size_t(v)] |= 1;
    for (int v : b)
        seen[size_t(v)] |= 2;
    std::vector<int> ra, rb;
    std::vector<qsizetype> ma, mb;
    for (size_t i = 0; i < a.size(); ++i) {
        if (seen[size_t(a[i])] == 3) {
            ra.push_back(a[i]);
            ma.push_back(qsizetype(i));
        }
    }
    for (size_t j = 0; j < b.size(); ++j) {
        if (seen[size_t(b[j])] == 3) {
            rb.push_back(b[j]);
            mb.push_back(qsizetype(j));
        }
    }
    const QList<Edit> reduced = diff(ra, rb, deadline);
    QList<Edit> out;
    out.reserve(qsizetype(std::max(a.size(), b.size())));
    qsizetype oi = 0, ni = 0;
    const auto deleteTo = [&](qsizetype end) {
        for (; oi < end; ++oi)
            out.append(Edit{Edit::Op::Delete, oi, -1});
    };
    const auto insertTo = [&](qsizetype end) {
        for (; ni < end; ++ni)
            out.append(Edit{Edit::Op::Insert, -1, ni});
    };
    for (const Edit &e : reduced) {
        switch (e.op) {
        case Edit::Op::Equal:
            deleteTo(ma[size_t(e.oldIndex)]);
            insertTo(mb[size_t(e.newIndex)]);
            out.append(Edit{Edit::Op::Equal, oi++, ni++});
            break;
        case Edit::Op::Delete:
            deleteTo(ma[size_t(e.oldIndex)] + 1);
            break;
        case Edit::Op::Insert:
            insertTo(mb[size_t(e.newIndex)] + 1);
            break;
        }
    }
    deleteTo(qsizetype(a.size()));
    insertTo(qsizetype(b.size()));
    return out;
}

QList<Hunk> hunks(const QList<Edit> &edits, int context)
{
    context = std::max(0, context);
    QList<qsizetype> changes;
    for (qsizetype i = 0; i < edits.size(); ++i) {
        if (edits.at(i).op != Edit::Op::Equal)
            changes.append(i);
    }
    if (changes.isEmpty())
        return {};
    // Old/new lines before each edit, for the hunk headers.
    QList<qsizetype> oldBefore(edits.size() + 1, 0);
    QList<qsizetype> newBefore(edits.size() + 1, 0);
    for (qsizetype i = 0; i < edits.size(); ++i) {
        oldBefore[i + 1] = oldBefore[i] + (edits.at(i).op != Edit::Op::Insert ? 1 : 0);
        newBefore[i + 1] = newBefore[i] + (edits.at(i).op != Edit::Op::Delete ? 1 : 0);
    }
    QList<Hunk> out;
    qsizetype c = 0;
    while (c < changes.size()) {
        const qsizetype first = changes.at(c);
        qsizetype last = first;
        while (c + 1 < changes.size() && changes.at(c + 1) - last <= 2 * context + 1) {
            ++c;
            last = changes.at(c);
        }
        ++c;
        Hunk h;
        h.begin = std::max<qsizetype>(0, first - context);
        h.end = std::min<qsizetype>(edits.size(), last + context + 1);
        h.oldCount = oldBefore[h.end] - oldBefore[h.begin];
        h.newCount = newBefore[h.end] - newBefore[h.begin];
        h.oldStart = h.oldCount == 0 ? oldBefore[h.begin] : oldBefore[h.begin] + 1;
        h.newStart = h.newCount == 0 ? newBefore[h.begin] : newBefore[h.begin] + 1;
        h.oldFirst = oldBefore[h.begin];
        h.newFirst = newBefore[h.begin];
        out.append(h);
    }
    return out;
}

void changedWords(QStringView oldLine, QStringView newLine, QList<WordRange> &oldRanges, QList<WordRange> &newRanges)
{
    oldRanges.clear();
    newRanges.clear();
    if (oldLine.size() > MaxWordDiffLine || newLine.size() > MaxWordDiffLine)
        return;
    const QList<QStringView> oldToks = tokens(oldLine);
    const QList<QStringView> newToks = tokens(newLine);
    QHash<QStringView, int> ids;
    const auto toIds = [&](const QList<QStringView> &toks) {
        std::vector<int> v;
        v.reserve(size_t(toks.size()));
        for (QStringView t : toks)
            v.push_back(internId(ids, t));
        return v;
    };
    const std::vector<int> a = toIds(oldToks);
    const std::vector<int> b = toIds(newToks);
    QList<bool> oldChanged(oldToks.size(), true);
    QList<bool> newChanged(newToks.size(), true);
    qsizetype common = 0;
    for (const Edit &e : diff(a, b, QDeadlineTimer(50))) {
        if (e.op != Edit::Op::Equal)
            continue;
        oldChanged[e.oldIndex] = false;
        newChanged[e.newIndex] = false;
        if (!onlySpace(oldToks.at(e.oldIndex)))
            common += oldToks.at(e.oldIndex).size();
    }
    // Lines with little in common are simply replaced: marking nearly every word helps nobody.
    const qsizetype oldText = oldLine.trimmed().size();
    const qsizetype newText = newLine.trimmed().size();
    if (oldText + newText > 0 && 2 * common * 10 < (oldText + newText) * 4)
        return;
    collectRanges(oldToks, oldChanged, oldLine, oldRanges);
    collectRanges(newToks, newChanged, newLine, newRanges);
}

} // namespace weft::TextDiff
