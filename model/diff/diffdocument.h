// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/types.h"
#include "diff/textdiff.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace weft
{

/// One file's diff, ready to be shown: the lines of both sides, the rows of the unified and the
/// side-by-side layouts, the hunks and the changed words of paired lines. Built from either form
/// of a FileDiff: full contents before and after (line diff with Myers' algorithm, see
/// TextDiff::lineDiff) or unified patch text (parsed). Immutable once built; safe to share between
/// threads. Building one for a large file takes a while: the GUI builds it off the GUI thread
/// (DiffModel::requestDocument).
class DiffDocument
{
public:
    enum class Form : quint8 { Contents, Patch };
    enum class RowKind : quint8 { Hunk, Context, Removed, Added };

    /// A row of the unified layout. @c oldLine / @c newLine index oldLines() / newLines() (-1:
    /// none); @c partner is the row of the paired line of a change (a removed line and the added
    /// line that replaced it), -1 when unpaired; @c hunk numbers the hunk the row belongs to.
    struct Row
    {
        RowKind kind = RowKind::Context;
        qint32 oldLine = -1;
        qint32 newLine = -1;
        qint32 partner = -1;
        qint32 hunk = -1;
    };
    /// A row of the side-by-side layout: the unified rows shown left (old side: context, removed
    /// or hunk) and right (new side: context, added or hunk); -1 leaves that side empty (a filler
    /// where the other side has lines the one side lacks). A hunk row has the same row on both
    /// sides.
    struct SideRow
    {
        qint32 left = -1;
        qint32 right = -1;
    };
    /// A hunk: the `@@ -oldStart,oldCount +newStart,newCount @@` header and where it starts.
    struct Hunk
    {
        qint32 oldStart = 0;
        qint32 oldCount = 0;
        qint32 newStart = 0;
        qint32 newCount = 0;
        qint32 row = 0; ///< its header row in rows()
        qint32 sideRow = 0; ///< its header row in sideRows()
        qint32 oldFirst = 0; ///< its first line in oldLines()
        qint32 newFirst = 0; ///< its first line in newLines()
        QString heading; ///< the text after the second "@@" (a function name), if any
    };
    /// Changed characters of a paired line: [start, start + length).
    using WordRange = TextDiff::WordRange;

    /// Lines of context around changes in the contents form.
    static constexpr int DefaultContext = 3;

    DiffDocument() = default;
    [[nodiscard]] static DiffDocument fromContents(const QString &path, const QString &before, const QString &after,
                                                   int context = DefaultContext);
    [[nodiscard]] static DiffDocument fromPatch(const QString &path, const QString &patch);
    /// From whichever form @p diff has (contents when it has both).
    [[nodiscard]] static DiffDocument fromFileDiff(const FileDiff &diff, int context = DefaultContext);

    [[nodiscard]] Form form() const { return m_form; }
    [[nodiscard]] QString path() const { return m_path; }
    /// "added", "deleted" or "modified".
    [[nodiscard]] QString status() const { return m_status; }
    [[nodiscard]] qint64 additions() const { return m_additions; }
    [[nodiscard]] qint64 deletions() const { return m_deletions; }
    /// True when there is nothing to show line by line (binary or empty contents on both sides).
    [[nodiscard]] bool isEmpty() const { return m_rows.isEmpty(); }

    /// The old side's lines: the whole file before (contents form) or the old lines of the hunks
    /// (patch form), in order.
    [[nodiscard]] const QStringList &oldLines() const { return m_oldLines; }
    [[nodiscard]] const QStringList &newLines() const { return m_newLines; }
    /// The 1-based line number in the file of oldLines()[i] / newLines()[i].
    [[nodiscard]] int oldNumber(int i) const { return m_oldNumbers.isEmpty() ? i + 1 : m_oldNumbers.at(i); }
    [[nodiscard]] int newNumber(int i) const { return m_newNumbers.isEmpty() ? i + 1 : m_newNumbers.at(i); }
    /// Whether the old / new file ends without a newline.
    [[nodiscard]] bool oldMissingNewline() const { return m_oldNoEol; }
    [[nodiscard]] bool newMissingNewline() const { return m_newNoEol; }

    [[nodiscard]] const QList<Row> &rows() const { return m_rows; }
    [[nodiscard]] const QList<SideRow> &sideRows() const { return m_sideRows; }
    [[nodiscard]] const QList<Hunk> &hunks() const { return m_hunks; }
    /// The side-by-side row that shows unified row @p row, and back (the left row, else the right).
    [[nodiscard]] int sideRowOf(int row) const { return row >= 0 && row < m_sideOf.size() ? m_sideOf.at(row) : -1; }
    [[nodiscard]] int rowOfSide(int sideRow) const;
    /// The changed words of the (removed or added) line of unified row @p row; empty when the row
    /// is not paired or its line changed too much for word marks to help.
    [[nodiscard]] QList<WordRange> words(int row) const;
    /// The text of unified row @p row (the hunk header for a hunk row).
    [[nodiscard]] QString text(int row) const;
    /// The header of hunk @p hunk: "@@ -1,4 +1,5 @@ heading".
    [[nodiscard]] QString hunkHeader(int hunk) const;
    /// The longest line in characters (tabs count as @p tabWidth), for the horizontal extent.
    [[nodiscard]] int maxLineLength(int tabWidth = 4) const;

    /// The file as it was before the change, computed from @p current (the file as it is now) by
    /// applying the diff backwards; for the contents form simply before. Fails when @p current is
    /// not the diff's "after" side (the file changed since).
    [[nodiscard]] Result<QString> reverse(const QString &current) const;
    /// Whether the file did not exist before the change (reverting deletes it).
    [[nodiscard]] bool isAdded() const { return m_status == QLatin1String("added"); }
    /// Whether the file no longer exists after the change (reverting recreates it).
    [[nodiscard]] bool isDeleted() const { return m_status == QLatin1String("deleted"); }
    /// What putting the file back as it was before the change does to it (FileRevert::revert()).
    enum class RevertAction { Restore, Create, Delete };
    [[nodiscard]] RevertAction revertAction() const
    {
        return isAdded() ? RevertAction::Delete : isDeleted() ? RevertAction::Create : RevertAction::Restore;
    }

    /// Word-level marks for a pair of changed lines: the changed ranges of @p oldLine and of
    /// @p newLine, empty when the lines have too little in common for marks to help (see
    /// TextDiff::changedWords).
    static void changedWords(const QString &oldLine, const QString &newLine, QList<WordRange> &oldRanges,
                             QList<WordRange> &newRanges)
    {
        TextDiff::changedWords(oldLine, newLine, oldRanges, newRanges);
    }

    /// The status of @p diff without building its document: "added", "deleted" or "modified".
    [[nodiscard]] static QString statusOf(const FileDiff &diff);
    /// Lines of the longer side of @p diff (counted, not diffed: cheap).
    [[nodiscard]] static qint64 lineCountOf(const FileDiff &diff);
    /// Characters of text behind @p diff (both contents, or the patch).
    [[nodiscard]] static qint64 sizeOf(const FileDiff &diff);

private:
    void buildRows(const QList<TextDiff::Edit> &edits, int context);
    void addHunkRows(const QList<TextDiff::Edit> &edits, qsizetype begin, qsizetype end, const QString &heading);
    void finish();

    Form m_form = Form::Contents;
    QString m_path;
    QString m_status;
    QString m_before; ///< contents form: the text before, for reverse()
    qint64 m_additions = 0;
    qint64 m_deletions = 0;
    bool m_oldNoEol = false;
    bool m_newNoEol = false;
    QStringList m_oldLines;
    QStringList m_newLines;
    QList<int> m_oldNumbers; ///< patch form only
    QList<int> m_newNumbers;
    QList<Row> m_rows;
    QList<SideRow> m_sideRows;
    QList<qint32> m_sideOf;
    QList<Hunk> m_hunks;
    QList<qint32> m_wordIndex; ///< per row, the first of its ranges in m_words (size rows + 1)
    QList<WordRange> m_words;
};

} // namespace weft
