// SPDX-License-Identifier: GPL-3.0-or-later
#include "diffmodel.h"

#include "processor/tools/textdiff.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// A line diff of two whole files may take at most this long; past it the rest is shown coarsely.
constexpr int LineDiffBudgetMs = 2000;
/// Lines longer than this get no word marks (the token diff would cost more than it shows).
constexpr qsizetype MaxWordDiffLine = 4000;

/// Splits @p text at '\n' (a final '\n' ends the last line, it does not start an empty one).
void splitLines(const QString &text, QStringList &lines, bool &missingNewline)
{
    lines.clear();
    missingNewline = false;
    qsizetype pos = 0;
    const qsizetype size = text.size();
    while (pos < size) {
        const qsizetype nl = text.indexOf(u'\n', pos);
        if (nl < 0) {
            lines.append(text.mid(pos));
            missingNewline = true;
            break;
        }
        lines.append(text.mid(pos, nl - pos));
        pos = nl + 1;
    }
}

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
                   QList<DiffDocument::WordRange> &ranges)
{
    qint32 pos = 0;
    for (qsizetype i = 0; i < toks.size(); ++i) {
        const auto len = qint32(toks.at(i).size());
        if (changed.at(i)) {
            if (!ranges.isEmpty()) {
                DiffDocument::WordRange &last = ranges.last();
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

/// Line diff of two interned sequences. Lines that occur only on one side are certainly removed
/// or added: they are set aside before Myers' algorithm runs on the rest (as GNU diff does), which
/// keeps rewrites of large files fast without changing the result.
QList<TextDiff::Edit> lineDiff(const std::vector<int> &a, const std::vector<int> &b, int idCount)
{
    std::vector<quint8> seen(size_t(idCount), 0);
    for (int v : a)
        seen[size_t(v)] |= 1;
    for (int v : b)
        seen[size_t(v)] |= 2;
    std::vector<int> ra, rb;
    std::vector<qint32> ma, mb;
    for (size_t i = 0; i < a.size(); ++i) {
        if (seen[size_t(a[i])] == 3) {
            ra.push_back(a[i]);
            ma.push_back(qint32(i));
        }
    }
    for (size_t j = 0; j < b.size(); ++j) {
        if (seen[size_t(b[j])] == 3) {
            rb.push_back(b[j]);
            mb.push_back(qint32(j));
        }
    }
    const QList<TextDiff::Edit> reduced = TextDiff::diff(ra, rb, QDeadlineTimer(LineDiffBudgetMs));
    QList<TextDiff::Edit> out;
    out.reserve(qsizetype(std::max(a.size(), b.size())));
    qint32 oi = 0, ni = 0;
    const auto deleteTo = [&](qint32 end) {
        for (; oi < end; ++oi)
            out.append(TextDiff::Edit{TextDiff::Edit::Op::Delete, oi, -1});
    };
    const auto insertTo = [&](qint32 end) {
        for (; ni < end; ++ni)
            out.append(TextDiff::Edit{TextDiff::Edit::Op::Insert, -1, ni});
    };
    for (const TextDiff::Edit &e : reduced) {
        switch (e.op) {
        case TextDiff::Edit::Op::Equal:
            deleteTo(ma[size_t(e.oldIndex)]);
            insertTo(mb[size_t(e.newIndex)]);
            out.append(TextDiff::Edit{TextDiff::Edit::Op::Equal, oi++, ni++});
            break;
        case TextDiff::Edit::Op::Delete:
            deleteTo(ma[size_t(e.oldIndex)] + 1);
            break;
        case TextDiff::Edit::Op::Insert:
            insertTo(mb[size_t(e.newIndex)] + 1);
            break;
        }
    }
    deleteTo(qint32(a.size()));
    insertTo(qint32(b.size()));
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

void DiffDocument::changedWords(const QString &oldLine, const QString &newLine, QList<WordRange> &oldRanges,
                                QList<WordRange> &newRanges)
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
    for (const TextDiff::Edit &e : TextDiff::diff(a, b, QDeadlineTimer(50))) {
        if (e.op != TextDiff::Edit::Op::Equal)
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

DiffDocument DiffDocument::fromContents(const QString &path, const QString &before, const QString &after, int context)
{
    DiffDocument d;
    d.m_form = Form::Contents;
    d.m_path = path;
    d.m_before = before;
    d.m_status = statusFromCounts(before.isEmpty(), after.isEmpty());
    splitLines(before, d.m_oldLines, d.m_oldNoEol);
    splitLines(after, d.m_newLines, d.m_newNoEol);

    QHash<QStringView, int> ids;
    const auto toIds = [&](const QStringList &lines, bool noEol) {
        std::vector<int> v;
        v.reserve(size_t(lines.size()));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const int id = internId(ids, QStringView(lines.at(i)));
            // A last line without a newline differs from the same text with one.
            v.push_back(id * 2 + (noEol && i == lines.size() - 1 ? 0 : 1));
        }
        return v;
    };
    const std::vector<int> a = toIds(d.m_oldLines, d.m_oldNoEol);
    const std::vector<int> b = toIds(d.m_newLines, d.m_newNoEol);
    const QList<TextDiff::Edit> te = lineDiff(a, b, int(ids.size()) * 2);
    QList<Edit> edits;
    edits.reserve(te.size());
    for (const TextDiff::Edit &e : te)
        edits.append({e.op == TextDiff::Edit::Op::Equal    ? Edit::Op::Equal
                      : e.op == TextDiff::Edit::Op::Delete ? Edit::Op::Delete
                                                           : Edit::Op::Insert,
                      qint32(e.oldIndex), qint32(e.newIndex)});
    d.buildRows(edits, std::max(0, context));
    d.finish();
    return d;
}

void DiffDocument::buildRows(const QList<Edit> &edits, int context)
{
    QList<qsizetype> changes;
    for (qsizetype i = 0; i < edits.size(); ++i) {
        if (edits.at(i).op != Edit::Op::Equal)
            changes.append(i);
    }
    if (changes.isEmpty())
        return;
    // Old/new lines before each edit, for the hunk headers.
    QList<qint32> oldBefore(edits.size() + 1, 0);
    QList<qint32> newBefore(edits.size() + 1, 0);
    for (qsizetype i = 0; i < edits.size(); ++i) {
        oldBefore[i + 1] = oldBefore[i] + (edits.at(i).op != Edit::Op::Insert ? 1 : 0);
        newBefore[i + 1] = newBefore[i] + (edits.at(i).op != Edit::Op::Delete ? 1 : 0);
    }
    qsizetype c = 0;
    while (c < changes.size()) {
        const qsizetype first = changes.at(c);
        qsizetype last = first;
        while (c + 1 < changes.size() && changes.at(c + 1) - last <= 2 * context + 1) {
            ++c;
            last = changes.at(c);
        }
        ++c;
        const qsizetype start = std::max<qsizetype>(0, first - context);
        const qsizetype end = std::min<qsizetype>(edits.size(), last + context + 1);
        Hunk h;
        h.oldCount = oldBefore[end] - oldBefore[start];
        h.newCount = newBefore[end] - newBefore[start];
        h.oldStart = h.oldCount == 0 ? oldBefore[start] : oldBefore[start] + 1;
        h.newStart = h.newCount == 0 ? newBefore[start] : newBefore[start] + 1;
        h.oldFirst = oldBefore[start];
        h.newFirst = newBefore[start];
        m_hunks.append(h);
        addHunkRows(edits, start, end, QString());
    }
}

void DiffDocument::addHunkRows(const QList<Edit> &edits, qsizetype begin, qsizetype end, const QString &heading)
{
    const auto hunk = qint32(m_hunks.size() - 1);
    m_hunks.last().row = qint32(m_rows.size());
    m_hunks.last().heading = heading;
    m_rows.append(Row{RowKind::Hunk, -1, -1, -1, hunk});
    qsizetype i = begin;
    while (i < end) {
        const Edit &e = edits.at(i);
        if (e.op == Edit::Op::Equal) {
            m_rows.append(Row{RowKind::Context, e.oldIndex, e.newIndex, -1, hunk});
            ++i;
            continue;
        }
        // A block of changes: its removed lines, then its added lines, paired in order.
        QList<qint32> removed, added;
        while (i < end && edits.at(i).op != Edit::Op::Equal) {
            if (edits.at(i).op == Edit::Op::Delete)
                removed.append(edits.at(i).oldIndex);
            else
                added.append(edits.at(i).newIndex);
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
        changedWords(m_oldLines.at(row.oldLine), m_newLines.at(m_rows.at(row.partner).newLine), perRow[size_t(r)],
                     perRow[size_t(row.partner)]);
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
        QList<Edit> edits;
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
                edits.append(Edit{Edit::Op::Equal, qint32(d.m_oldLines.size()), qint32(d.m_newLines.size())});
                d.m_oldLines.append(text);
                d.m_oldNumbers.append(h.oldStart + oldSeen++);
                d.m_newLines.append(text);
                d.m_newNumbers.append(h.newStart + newSeen++);
            } else if (kind == u'-') {
                edits.append(Edit{Edit::Op::Delete, qint32(d.m_oldLines.size()), -1});
                d.m_oldLines.append(text);
                d.m_oldNumbers.append(h.oldStart + oldSeen++);
            } else if (kind == u'+') {
                edits.append(Edit{Edit::Op::Insert, -1, qint32(d.m_newLines.size())});
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
    QStringList cur;
    bool curNoEol = false;
    splitLines(current, cur, curNoEol);
    QStringList out;
    qsizetype cursor = 0;
    bool endsWithOld = false; // whether the file's last line came from a hunk's old side
    for (const Hunk &h : m_hunks) {
        // Where the hunk's new lines are in the current file (with no new lines: after newStart).
        const qsizetype pos = h.newCount == 0 ? h.newStart : h.newStart - 1;
        if (pos < cursor || pos + h.newCount > cur.size())
            return Error{u"the file no longer matches the change (it was edited since)"_s, {}};
        for (qsizetype k = 0; k < h.newCount; ++k) {
            if (cur.at(pos + k) != m_newLines.at(h.newFirst + k))
                return Error{u"the file no longer matches the change at line %1 (it was edited since)"_s.arg(pos + k + 1), {}};
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

// ---- DiffModel

DiffModel::DiffModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

DiffModel::~DiffModel() = default;

void DiffModel::setDiffs(const QList<FileDiff> &diffs)
{
    beginResetModel();
    m_diffs = diffs;
    m_documents = QList<std::shared_ptr<const DiffDocument>>(diffs.size());
    endResetModel();
}

int DiffModel::rowOfPath(const QString &path) const
{
    for (qsizetype i = 0; i < m_diffs.size(); ++i) {
        if (m_diffs.at(i).file() == path)
            return int(i);
    }
    return -1;
}

qint64 DiffModel::totalAdditions() const
{
    qint64 sum = 0;
    for (const FileDiff &d : m_diffs)
        sum += d.additions();
    return sum;
}

qint64 DiffModel::totalDeletions() const
{
    qint64 sum = 0;
    for (const FileDiff &d : m_diffs)
        sum += d.deletions();
    return sum;
}

std::shared_ptr<const DiffDocument> DiffModel::document(int row) const
{
    if (row < 0 || row >= m_diffs.size())
        return {};
    if (!m_documents.at(row))
        m_documents[row] = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(m_diffs.at(row)));
    return m_documents.at(row);
}

QString DiffModel::statusOf(const FileDiff &diff)
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

qint64 DiffModel::lineCountOf(const FileDiff &diff)
{
    // A final newline ends the last line; it does not start another one.
    const auto lines = [](const QString &text) -> qint64 {
        return text.count(u'\n') + (!text.isEmpty() && !text.endsWith(u'\n') ? 1 : 0);
    };
    if (diff.hasContents())
        return std::max(lines(diff.before()), lines(diff.after()));
    return lines(diff.patch());
}

qint64 DiffModel::sizeOf(const FileDiff &diff)
{
    if (diff.hasContents())
        return diff.before().size() + diff.after().size();
    return diff.patch().size();
}

int DiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_diffs.size());
}

QVariant DiffModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_diffs.size())
        return {};
    const FileDiff &d = m_diffs.at(index.row());
    const QString path = d.file();
    switch (role) {
    case Qt::DisplayRole:
    case FileNameRole:
        return path.section(u'/', -1);
    case Qt::ToolTipRole:
    case PathRole:
        return path;
    case DirectoryRole:
        return path.contains(u'/') ? path.section(u'/', 0, -2) : QString();
    case AdditionsRole:
        return d.additions();
    case DeletionsRole:
        return d.deletions();
    case StatusRole:
        return statusOf(d);
    case LineCountRole:
        return lineCountOf(d);
    case SizeRole:
        return sizeOf(d);
    default:
        break;
    }
    return {};
}

QHash<int, QByteArray> DiffModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{PathRole, "path"},
                  {FileNameRole, "fileName"},
                  {DirectoryRole, "directory"},
                  {AdditionsRole, "additions"},
                  {DeletionsRole, "deletions"},
                  {StatusRole, "status"},
                  {LineCountRole, "lineCount"},
                  {SizeRole, "size"}});
    return names;
}

// ---- FileRevert

namespace FileRevert
{

Result<QString> resolve(const QString &base, const QString &directory, const QString &file)
{
    if (file.isEmpty())
        return Error{u"the diff names no file"_s, {}};
    if (file.contains(QChar(0)))
        return Error{u"the path \"%1\" is not a valid file name"_s.arg(file), {}};
    const QString root = QFileInfo(directory).canonicalFilePath();
    if (directory.isEmpty() || root.isEmpty())
        return Error{u"the session's directory \"%1\" does not exist"_s.arg(directory), {}};
    const QString from = base.isEmpty() ? directory : base;
    QString path = QDir::cleanPath(QDir::isAbsolutePath(file) ? file : QDir(from).filePath(file));

    // Resolve symbolic links through the deepest part of the path that exists.
    QString rest;
    QString probe = path;
    while (true) {
        const QFileInfo info(probe);
        if (info.isSymLink() && !info.exists())
            return Error{u"\"%1\" goes through a broken symbolic link"_s.arg(file), {}};
        if (info.exists())
            break;
        const QString parent = info.path();
        if (parent == probe)
            break;
        rest = rest.isEmpty() ? info.fileName() : info.fileName() + u'/' + rest;
        probe = parent;
    }
    const QString existing = QFileInfo(probe).canonicalFilePath();
    if (existing.isEmpty())
        return Error{u"cannot resolve \"%1\""_s.arg(file), {}};
    path = rest.isEmpty() ? existing : QDir::cleanPath(existing + u'/' + rest);
    const QString prefix = root.endsWith(u'/') ? root : root + u'/';
    if (!path.startsWith(prefix) || path.size() == prefix.size())
        return Error{u"\"%1\" is outside the session's directory %2; not touching it"_s.arg(file, directory), {}};
    return path;
}

Action actionFor(const DiffDocument &document)
{
    if (document.isAdded())
        return Action::Delete;
    if (document.isDeleted())
        return Action::Create;
    return Action::Restore;
}

Result<void> revert(const DiffDocument &document, const QString &absolutePath)
{
    const Action action = actionFor(document);
    if (action == Action::Delete) {
        const QFileInfo info(absolutePath);
        if (!info.exists() && !info.isSymLink())
            return {};
        if (info.isDir())
            return Error{u"\"%1\" is a folder now; not deleting it"_s.arg(absolutePath), {}};
        if (!QFile::remove(absolutePath))
            return Error{u"cannot delete \"%1\""_s.arg(absolutePath), {}};
        return {};
    }
    if (document.isEmpty())
        return Error{u"the change of \"%1\" has no text to restore (a binary or very large file)"_s.arg(document.path()), {}};
    QString current;
    if (QFileInfo(absolutePath).isDir())
        return Error{u"\"%1\" is a folder now; not replacing it"_s.arg(absolutePath), {}};
    if (QFile file(absolutePath); file.exists()) {
        if (!file.open(QIODevice::ReadOnly))
            return Error{u"cannot read \"%1\": %2"_s.arg(absolutePath, file.errorString()), {}};
        current = QString::fromUtf8(file.readAll());
    }
    const Result<QString> before = document.reverse(current);
    if (!before)
        return before.error();
    if (!QDir().mkpath(QFileInfo(absolutePath).absolutePath()))
        return Error{u"cannot create the folder of \"%1\""_s.arg(absolutePath), {}};
    QSaveFile out(absolutePath);
    if (!out.open(QIODevice::WriteOnly))
        return Error{u"cannot write \"%1\": %2"_s.arg(absolutePath, out.errorString()), {}};
    const QByteArray bytes = before.value().toUtf8();
    if (out.write(bytes) != bytes.size() || !out.commit())
        return Error{u"cannot write \"%1\": %2"_s.arg(absolutePath, out.errorString()), {}};
    return {};
}

} // namespace FileRevert

} // namespace weft
