// SPDX-License-Identifier: GPL-3.0-or-later
#include "diffdocument.h"

#include "core/tr.h"

#include <QDeadlineTimer>
#include <QRegularExpression>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// A line diff of two whole files may take at most this long; past it the rest is shown coarsely.
constexpr int LineDiffBudgetMs = 2000;

QStringList toStrings(const QList<QStringView> &views)
{
    QStringList out;
    out.reserve(views.size());
    for (QStringView v : views)
        out.append(v.toString());
    return out;
}

QString statusFromCounts(bool oldEmpty, bool newEmpty)
{
    if (oldEmpty && !newEmpty)
        return u"added"_s;
    if (!oldEmpty && newEmpty)
        return u"deleted"_s;
    return u"modified"_s;
}

} // namespace

// ---- DiffDocument

DiffDocument DiffDocument::fromContents(const QString &path, const QString &before, const QString &after, int context)
{
    DiffDocument d;
    d.m_form = Form::Contents;
    d.m_path = path;
    d.m_before = before;
    d.m_status = statusFromCounts(before.isEmpty(), after.isEmpty());
    const QList<QStringView> oldLines = TextDiff::splitLines(before, &d.m_oldNoEol);
    const QList<QStringView> newLines = TextDiff::splitLines(after, &d.m_newNoEol);
    std::vector<int> a, b;
    const int ids = TextDiff::internLines(oldLines, d.m_oldNoEol, newLines, d.m_newNoEol, a, b);
    const QList<TextDiff::Edit> edits = TextDiff::lineDiff(a, b, ids, QDeadlineTimer(LineDiffBudgetMs));
    d.m_oldLines = toStrings(oldLines);
    d.m_newLines = toStrings(newLines);
    d.buildRows(edits, context);
    d.finish();
    return d;
}

void DiffDocument::buildRows(const QList<TextDiff::Edit> &edits, int context)
{
    for (const TextDiff::Hunk &range : TextDiff::hunks(edits, context)) {
        Hunk h;
        h.oldStart = qint32(range.oldStart);
        h.oldCount = qint32(range.oldCount);
        h.newStart = qint32(range.newStart);
        h.newCount = qint32(range.newCount);
        h.oldFirst = qint32(range.oldFirst);
        h.newFirst = qint32(range.newFirst);
        m_hunks.append(h);
        addHunkRows(edits, range.begin, range.end, QString());
    }
}

void DiffDocument::addHunkRows(const QList<TextDiff::Edit> &edits, qsizetype begin, qsizetype end,
                               const QString &heading)
{
    using Op = TextDiff::Edit::Op;
    const auto hunk = qint32(m_hunks.size() - 1);
    m_hunks.last().row = qint32(m_rows.size());
    m_hunks.last().heading = heading;
    m_rows.append(Row{RowKind::Hunk, -1, -1, -1, hunk});
    qsizetype i = begin;
    while (i < end) {
        const TextDiff::Edit &e = edits.at(i);
        if (e.op == Op::Equal) {
            m_rows.append(Row{RowKind::Context, qint32(e.oldIndex), qint32(e.newIndex), -1, hunk});
            ++i;
            continue;
        }
        // A block of changes: its removed lines, then its added lines, paired in order.
        QList<qint32> removed, added;
        while (i < end && edits.at(i).op != Op::Equal) {
            if (edits.at(i).op == Op::Delete)
                removed.append(qint32(edits.at(i).oldIndex));
            else
                added.append(qint32(edits.at(i).newIndex));
            ++i;
        }
        const auto firstRemoved = qint32(m_rows.size());
        const auto firstAdded = qint32(firstRemoved + removed.size());
        const qsizetype pairs = std::min(removed.size(), added.size());
        for (qsizetype k = 0; k < removed.size(); ++k)
            m_rows.append(Row{RowKind::Removed, removed.at(k), -1, k < pairs ? qint32(firstAdded + k) : -1, hunk});
        for (qsizetype k = 0; k < added.size(); ++k)
            m_rows.append(Row{RowKind::Added, -1, added.at(k), k < pairs ? qint32(firstRemoved + k) : -1, hunk});
        m_deletions += removed.size();
        m_additions += added.size();
    }
}

void DiffDocument::finish()
{
    // Side-by-side rows: context and hunk rows on both sides, each block of changes with its
    // removed lines left and its added lines right.
    m_sideOf = QList<qint32>(m_rows.size(), -1);
    qsizetype i = 0;
    while (i < m_rows.size()) {
        const Row &r = m_rows.at(i);
        if (r.kind == RowKind::Hunk || r.kind == RowKind::Context) {
            if (r.kind == RowKind::Hunk)
                m_hunks[r.hunk].sideRow = qint32(m_sideRows.size());
            m_sideOf[i] = qint32(m_sideRows.size());
            m_sideRows.append(SideRow{qint32(i), qint32(i)});
            ++i;
            continue;
        }
        qsizetype removedEnd = i;
        while (removedEnd < m_rows.size() && m_rows.at(removedEnd).kind == RowKind::Removed)
            ++removedEnd;
        qsizetype addedEnd = removedEnd;
        while (addedEnd < m_rows.size() && m_rows.at(addedEnd).kind == RowKind::Added)
            ++addedEnd;
        const qsizetype removed = removedEnd - i;
        const qsizetype added = addedEnd - removedEnd;
        for (qsizetype k = 0; k < std::max(removed, added); ++k) {
            SideRow s;
            if (k < removed) {
                s.left = qint32(i + k);
                m_sideOf[i + k] = qint32(m_sideRows.size());
            }
            if (k < added) {
                s.right = qint32(removedEnd + k);
                m_sideOf[removedEnd + k] = qint32(m_sideRows.size());
            }
            m_sideRows.append(s);
        }
        i = addedEnd;
    }

    // Changed words of paired lines.
    std::vector<QList<WordRange>> perRow(size_t(m_rows.size()));
    for (qsizetype r = 0; r < m_rows.size(); ++r) {
        const Row &row = m_rows.at(r);
        if (row.kind != RowKind::Removed || row.partner < 0)
            continue;
        TextDiff::changedWords(m_oldLines.at(row.oldLine), m_newLines.at(m_rows.at(row.partner).newLine),
                               perRow[size_t(r)], perRow[size_t(row.partner)]);
    }
    m_wordIndex = QList<qint32>(m_rows.size() + 1, 0);
    for (qsizetype r = 0; r < m_rows.size(); ++r) {
        m_wordIndex[r] = qint32(m_words.size());
        m_words.append(perRow[size_t(r)]);
    }
    m_wordIndex[m_rows.size()] = qint32(m_words.size());
}

int DiffDocument::rowOfSide(int sideRow) const
{
    if (sideRow < 0 || sideRow >= m_sideRows.size())
        return -1;
    const SideRow &s = m_sideRows.at(sideRow);
    return s.left >= 0 ? s.left : s.right;
}

QList<DiffDocument::WordRange> DiffDocument::words(int row) const
{
    if (row < 0 || row + 1 >= m_wordIndex.size())
        return {};
    return m_words.mid(m_wordIndex.at(row), m_wordIndex.at(row + 1) - m_wordIndex.at(row));
}

QString DiffDocument::text(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return {};
    const Row &r = m_rows.at(row);
    switch (r.kind) {
    case RowKind::Hunk:
        return hunkHeader(r.hunk);
    case RowKind::Removed:
        return m_oldLines.at(r.oldLine);
    case RowKind::Added:
    case RowKind::Context:
        return m_newLines.at(r.newLine);
    }
    return {};
}

QString DiffDocument::hunkHeader(int hunk) const
{
    if (hunk < 0 || hunk >= m_hunks.size())
        return {};
    const Hunk &h = m_hunks.at(hunk);
    QString s = u"@@ -%1,%2 +%3,%4 @@"_s.arg(h.oldStart).arg(h.oldCount).arg(h.newStart).arg(h.newCount);
    if (!h.heading.isEmpty())
        s += u' ' + h.heading;
    return s;
}

int DiffDocument::maxLineLength(int tabWidth) const
{
    const auto width = [tabWidth](const QString &line) {
        int w = 0;
        for (QChar c : line)
            w = c == u'\t' ? (w / tabWidth + 1) * tabWidth : w + 1;
        return w;
    };
    int longest = 0;
    for (const Row &r : m_rows) {
        if (r.oldLine >= 0)
            longest = std::max(longest, width(m_oldLines.at(r.oldLine)));
        if (r.newLine >= 0 && r.kind != RowKind::Context)
            longest = std::max(longest, width(m_newLines.at(r.newLine)));
    }
    return longest;
}

DiffDocument DiffDocument::fromPatch(const QString &path, const QString &patch)
{
    DiffDocument d;
    d.m_form = Form::Patch;
    d.m_path = path;
    const QStringList lines = patch.split(u'\n');
    static const QRegularExpression header(u"^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@ ?(.*)$"_s);
    bool sawNewFile = false, sawDeletedFile = false;
    QString headerPath;
    qsizetype i = 0;
    const qsizetype n = lines.size();
    while (i < n) {
        const QString &line = lines.at(i);
        if (!line.startsWith(u"@@")) {
            if (line.startsWith(u"new file mode") || line == u"--- /dev/null")
                sawNewFile = true;
            else if (line.startsWith(u"deleted file mode") || line == u"+++ /dev/null")
                sawDeletedFile = true;
            else if (line.startsWith(u"+++ ") && headerPath.isEmpty())
                headerPath = line.mid(4).section(u'\t', 0, 0);
            else if (line.startsWith(u"Index: ") && headerPath.isEmpty())
                headerPath = line.mid(7);
            ++i;
            continue;
        }
        const QRegularExpressionMatch m = header.match(line);
        ++i;
        if (!m.hasMatch())
            continue;
        Hunk h;
        h.oldStart = m.captured(1).toInt();
        h.oldCount = m.capturedLength(2) ? m.captured(2).toInt() : 1;
        h.newStart = m.captured(3).toInt();
        h.newCount = m.capturedLength(4) ? m.captured(4).toInt() : 1;
        h.oldFirst = qint32(d.m_oldLines.size());
        h.newFirst = qint32(d.m_newLines.size());
        d.m_hunks.append(h);
        QList<TextDiff::Edit> edits;
        qint32 oldSeen = 0, newSeen = 0;
        QChar lastKind;
        while (i < n) {
            const QString &l = lines.at(i);
            const bool countsDone = oldSeen >= h.oldCount && newSeen >= h.newCount;
            if (l.startsWith(u'\\')) {
                // "\ No newline at end of file": the line before it ends its side's file.
                if (lastKind == u'-' || lastKind == u' ')
                    d.m_oldNoEol = true;
                if (lastKind == u'+' || lastKind == u' ')
                    d.m_newNoEol = true;
                ++i;
                continue;
            }
            if (countsDone)
                break;
            const QChar kind = l.isEmpty() ? u' ' : l.at(0);
            const QString text = l.mid(1);
            if (kind == u' ') {
                edits.append(TextDiff::Edit{TextDiff::Edit::Op::Equal, qint32(d.m_oldLines.size()),
                                            qint32(d.m_newLines.size())});
                d.m_oldLines.append(text);
                d.m_oldNumbers.append(h.oldStart + oldSeen++);
                d.m_newLines.append(text);
                d.m_newNumbers.append(h.newStart + newSeen++);
            } else if (kind == u'-') {
                edits.append(TextDiff::Edit{TextDiff::Edit::Op::Delete, qint32(d.m_oldLines.size()), -1});
                d.m_oldLines.append(text);
                d.m_oldNumbers.append(h.oldStart + oldSeen++);
            } else if (kind == u'+') {
                edits.append(TextDiff::Edit{TextDiff::Edit::Op::Insert, -1, qint32(d.m_newLines.size())});
                d.m_newLines.append(text);
                d.m_newNumbers.append(h.newStart + newSeen++);
            } else {
                break; // not a hunk line: the hunk was shorter than its header said
            }
            lastKind = kind;
            ++i;
        }
        // Counts as the lines were, should the header have said otherwise.
        d.m_hunks.last().oldCount = oldSeen;
        d.m_hunks.last().newCount = newSeen;
        d.addHunkRows(edits, 0, edits.size(), m.captured(5).trimmed());
    }
    if (d.m_path.isEmpty()) {
        if (headerPath == u"/dev/null")
            headerPath.clear();
        if (headerPath.startsWith(u"b/"))
            headerPath = headerPath.mid(2);
        d.m_path = headerPath;
    }
    const bool onlyAdded = !d.m_hunks.isEmpty() && d.m_hunks.size() == 1 && d.m_hunks.first().oldStart == 0
        && d.m_hunks.first().oldCount == 0;
    const bool onlyRemoved = !d.m_hunks.isEmpty() && d.m_hunks.size() == 1 && d.m_hunks.first().newStart == 0
        && d.m_hunks.first().newCount == 0;
    if (sawNewFile || onlyAdded)
        d.m_status = u"added"_s;
    else if (sawDeletedFile || onlyRemoved)
        d.m_status = u"deleted"_s;
    else
        d.m_status = u"modified"_s;
    d.finish();
    return d;
}

DiffDocument DiffDocument::fromFileDiff(const FileDiff &diff, int context)
{
    DiffDocument d;
    if (diff.hasContents())
        d = fromContents(diff.file(), diff.before(), diff.after(), context);
    else if (diff.hasPatch())
        d = fromPatch(diff.file(), diff.patch());
    else
        d.m_path = diff.file();
    const QString status = diff.status();
    if (status == u"added" || status == u"deleted" || status == u"modified")
        d.m_status = status;
    else if (d.m_status.isEmpty())
        d.m_status = u"modified"_s;
    return d;
}

Result<QString> DiffDocument::reverse(const QString &current) const
{
    if (m_form == Form::Contents)
        return m_before;
    bool curNoEol = false;
    const QStringList cur = toStrings(TextDiff::splitLines(current, &curNoEol));
    QStringList out;
    qsizetype cursor = 0;
    bool endsWithOld = false; // whether the file's last line came from a hunk's old side
    for (const Hunk &h : m_hunks) {
        // Where the hunk's new lines are in the current file (with no new lines: after newStart).
        const qsizetype pos = h.newCount == 0 ? h.newStart : h.newStart - 1;
        if (pos < cursor || pos + h.newCount > cur.size())
            return Error{DiffTr::tr("the file no longer matches the change (it was edited since)"), {}};
        for (qsizetype k = 0; k < h.newCount; ++k) {
            if (cur.at(pos + k) != m_newLines.at(h.newFirst + k))
                return Error{DiffTr::tr("the file no longer matches the change at line %1 (it was edited since)")
                                 .arg(pos + k + 1),
                             {}};
        }
        for (qsizetype k = cursor; k < pos; ++k)
            out.append(cur.at(k));
        for (qsizetype k = 0; k < h.oldCount; ++k)
            out.append(m_oldLines.at(h.oldFirst + k));
        cursor = pos + h.newCount;
        endsWithOld = cursor >= cur.size();
    }
    for (qsizetype k = cursor; k < cur.size(); ++k)
        out.append(cur.at(k));
    if (out.isEmpty())
        return QString();
    QString text = out.join(u'\n');
    const bool noEol = endsWithOld ? m_oldNoEol : curNoEol;
    if (!noEol)
        text += u'\n';
    return text;
}

QString DiffDocument::statusOf(const FileDiff &diff)
{
    const QString status = diff.status();
    if (status == u"added" || status == u"deleted" || status == u"modified")
        return status;
    if (diff.hasContents())
        return statusFromCounts(diff.before().isEmpty(), diff.after().isEmpty());
    if (diff.hasPatch()) {
        const QString patch = diff.patch();
        if (patch.contains(u"\n--- /dev/null") || patch.startsWith(u"--- /dev/null") || patch.contains(u"@@ -0,0 "))
            return u"added"_s;
        if (patch.contains(u"\n+++ /dev/null") || patch.contains(u" +0,0 @@"))
            return u"deleted"_s;
    }
    return u"modified"_s;
}

qint64 DiffDocument::lineCountOf(const FileDiff &diff)
{
    // A final newline ends the last line; it does not start another one.
    const auto lines = [](const QString &text) -> qint64 {
        return text.count(u'\n') + (!text.isEmpty() && !text.endsWith(u'\n') ? 1 : 0);
    };
    if (diff.hasContents())
        return std::max(lines(diff.before()), lines(diff.after()));
    return lines(diff.patch());
}

qint64 DiffDocument::sizeOf(const FileDiff &diff)
{
    if (diff.hasContents())
        return diff.before().size() + diff.after().size();
    return diff.patch().size();
}

} // namespace weft
