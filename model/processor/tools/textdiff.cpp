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

enum class Op : quint8 { Equal, Delete, Insert };

struct Line {
    QStringView text;
    bool eol = true; ///< ended with '\n'
};

struct Entry {
    Op op;
    qsizetype oldIndex; ///< index into the old lines (Equal, Delete)
    qsizetype newIndex; ///< index into the new lines (Equal, Insert)
};

QList<Line> splitLines(const QString &s)
{
    QList<Line> lines;
    qsizetype pos = 0;
    const qsizetype size = s.size();
    while (pos < size) {
        const qsizetype nl = s.indexOf(u'\n', pos);
        if (nl < 0) {
            lines.append(Line{QStringView(s).mid(pos), false});
            break;
        }
        lines.append(Line{QStringView(s).mid(pos, nl - pos), true});
        pos = nl + 1;
    }
    return lines;
}

/// Myers' O(ND) difference algorithm in linear space (the "middle snake" bisection, as in
/// diff-match-patch): exact for any number of differences.
class LineDiff
{
public:
    LineDiff(const std::vector<int> &a, const std::vector<int> &b, QList<Entry> &out,
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
            m_out.append(Entry{Op::Equal, aLo, bLo});
            ++aLo;
            ++bLo;
        }
        qsizetype suffix = 0;
        while (aHi - suffix > aLo && bHi - suffix > bLo && m_a[size_t(aHi - 1 - suffix)] == m_b[size_t(bHi - 1 - suffix)])
            ++suffix;
        aHi -= suffix;
        bHi -= suffix;
        if (aLo == aHi || bLo == bHi) {
            for (qsizetype i = aLo; i < aHi; ++i)
                m_out.append(Entry{Op::Delete, i, -1});
            for (qsizetype j = bLo; j < bHi; ++j)
                m_out.append(Entry{Op::Insert, -1, j});
        } else {
            bisect(aLo, aHi, bLo, bHi);
        }
        for (qsizetype i = 0; i < suffix; ++i)
            m_out.append(Entry{Op::Equal, aHi + i, bHi + i});
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
            m_out.append(Entry{Op::Delete, i, -1});
        for (qsizetype j = bLo; j < bHi; ++j)
            m_out.append(Entry{Op::Insert, -1, j});
    }

    void split(qsizetype aLo, qsizetype aHi, qsizetype bLo, qsizetype bHi, qsizetype x, qsizetype y)
    {
        diffRange(aLo, aLo + x, bLo, bLo + y);
        diffRange(aLo + x, aHi, bLo + y, bHi);
    }

    const std::vector<int> &m_a;
    const std::vector<int> &m_b;
    QList<Entry> &m_out;
    QDeadlineTimer m_deadline;
};

QList<Entry> diffLines(const QList<Line> &oldLines, const QList<Line> &newLines)
{
    QHash<QStringView, int> ids;
    const auto id = [&](const Line &line) {
        auto it = ids.constFind(line.text);
        int base;
        if (it == ids.constEnd()) {
            base = int(ids.size());
            ids.insert(line.text, base);
        } else {
            base = it.value();
        }
        return base * 2 + (line.eol ? 1 : 0);
    };
    std::vector<int> a;
    std::vector<int> b;
    a.reserve(size_t(oldLines.size()));
    b.reserve(size_t(newLines.size()));
    for (const Line &l : oldLines)
        a.push_back(id(l));
    for (const Line &l : newLines)
        b.push_back(id(l));

    QList<Entry> entries;
    entries.reserve(qsizetype(std::max(a.size(), b.size())));
    LineDiff(a, b, entries).run();
    return entries;
}

} // namespace

Counts count(const QString &before, const QString &after)
{
    Counts c;
    for (const Entry &e : diffLines(splitLines(before), splitLines(after))) {
        if (e.op == Op::Insert)
            ++c.additions;
        else if (e.op == Op::Delete)
            ++c.deletions;
    }
    return c;
}

QString unified(const QString &file, const QString &before, const QString &after, int context)
{
    context = std::max(0, context);
    QString out = u"Index: "_s + file + u"\n===================================================================\n--- "_s + file
        + u"\n+++ "_s + file + u'\n';
    const QList<Line> oldLines = splitLines(before);
    const QList<Line> newLines = splitLines(after);
    const QList<Entry> entries = diffLines(oldLines, newLines);

    // Positions of the changes, grouped into hunks whose gaps are at most 2 * context lines.
    QList<qsizetype> changes;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (entries.at(i).op != Op::Equal)
            changes.append(i);
    }
    if (changes.isEmpty())
        return out;

    // Old/new line counts before each entry, for the hunk headers.
    QList<qsizetype> oldBefore(entries.size() + 1, 0);
    QList<qsizetype> newBefore(entries.size() + 1, 0);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        oldBefore[i + 1] = oldBefore[i] + (entries.at(i).op != Op::Insert ? 1 : 0);
        newBefore[i + 1] = newBefore[i] + (entries.at(i).op != Op::Delete ? 1 : 0);
    }

    qsizetype c = 0;
    while (c < changes.size()) {
        qsizetype first = changes.at(c);
        qsizetype last = first;
        while (c + 1 < changes.size() && changes.at(c + 1) - last <= 2 * context + 1) {
            ++c;
            last = changes.at(c);
        }
        ++c;
        const qsizetype start = std::max<qsizetype>(0, first - context);
        const qsizetype end = std::min<qsizetype>(entries.size(), last + context + 1);
        const qsizetype oldCount = oldBefore[end] - oldBefore[start];
        const qsizetype newCount = newBefore[end] - newBefore[start];
        const qsizetype oldStart = oldCount == 0 ? oldBefore[start] : oldBefore[start] + 1;
        const qsizetype newStart = newCount == 0 ? newBefore[start] : newBefore[start] + 1;
        out += u"@@ -%1,%2 +%3,%4 @@\n"_s.arg(oldStart).arg(oldCount).arg(newStart).arg(newCount);
        for (qsizetype i = start; i < end; ++i) {
            const Entry &e = entries.at(i);
            const Line &line = e.op == Op::Insert ? newLines.at(e.newIndex) : oldLines.at(e.oldIndex);
            const QChar prefix = e.op == Op::Equal ? u' ' : (e.op == Op::Delete ? u'-' : u'+');
            out += prefix;
            out += line.text;
            out += u'\n';
            if (!line.eol)
                out += u"\\ No newline at end of file\n"_s;
        }
    }
    return out;
}

QList<Edit> diff(const std::vector<int> &a, const std::vector<int> &b, QDeadlineTimer deadline)
{
    QList<Entry> entries;
    entries.reserve(qsizetype(std::max(a.size(), b.size())));
    LineDiff(a, b, entries, deadline).run();
    QList<Edit> edits;
    edits.reserve(entries.size());
    for (const Entry &e : entries)
        edits.append(Edit{e.op == Op::Equal ? Edit::Op::Equal : e.op == Op::Delete ? Edit::Op::Delete : Edit::Op::Insert,
                          e.oldIndex, e.newIndex});
    return edits;
}

} // namespace weft::TextDiff
