// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDeadlineTimer>
#include <QList>
#include <QString>
#include <QStringView>

#include <vector>

namespace weft::TextDiff
{

struct Counts
{
    qint64 additions = 0;
    qint64 deletions = 0;
    bool operator==(const Counts &) const = default;
};

/// Lines added and removed between two texts (a line diff, as `git diff --numstat` counts).
[[nodiscard]] Counts count(const QString &before, const QString &after);

/// A unified diff of two versions of @p file in the form OpenCode's tools put in their metadata
/// (jsdiff's createTwoFilesPatch): an `Index:` header, `---`/`+++` lines and `@@` hunks with
/// @p context lines around changes; "\ No newline at end of file" where it applies.
/// Identical texts give the header only.
[[nodiscard]] QString unified(const QString &file, const QString &before, const QString &after, int context = 3);

/// One step of an edit script: keep old[oldIndex] == new[newIndex], delete old[oldIndex] or
/// insert new[newIndex].
struct Edit
{
    enum class Op : quint8 { Equal, Delete, Insert };
    Op op = Op::Equal;
    qsizetype oldIndex = -1; ///< Equal and Delete
    qsizetype newIndex = -1; ///< Equal and Insert
};

/// Myers' diff of two token sequences (equal ints are equal tokens): the shortest edit script, in
/// order (the line diff above, for any tokens: lines, words). Once @p deadline has passed, the
/// parts not yet compared are given as delete-all/insert-all (a correct but longer script), so that
/// a pathological input cannot hang the caller.
[[nodiscard]] QList<Edit> diff(const std::vector<int> &a, const std::vector<int> &b,
                               QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

/// Splits @p text at '\n' (a final '\n' ends the last line, it does not start an empty one).
/// @p missingNewline tells whether the last line has no '\n'. The views point into @p text.
[[nodiscard]] QList<QStringView> splitLines(QStringView text, bool *missingNewline = nullptr);

/// Numbers the lines of both sides for diff(): equal numbers for equal lines, where a last line
/// without a newline (@p oldMissingNewline, @p newMissingNewline) differs from the same text with
/// one. Returns how many numbers were given (all are below it).
int internLines(const QList<QStringView> &oldLines, bool oldMissingNewline, const QList<QStringView> &newLines,
                bool newMissingNewline, std::vector<int> &a, std::vector<int> &b);

/// diff() for lines numbered by internLines() (@p idCount: its result): lines found on one side
/// only are certainly removed or added and set aside before Myers' algorithm runs on the rest (as
/// GNU diff does), which keeps rewrites of large files fast. The script may differ from diff()'s
/// where several shortest scripts exist.
[[nodiscard]] QList<Edit> lineDiff(const std::vector<int> &a, const std::vector<int> &b, int idCount,
                                   QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

/// A hunk of an edit script: edits [begin, end) (changes with their context lines) and its
/// `@@ -oldStart,oldCount +newStart,newCount @@` numbers.
struct Hunk
{
    qsizetype begin = 0;
    qsizetype end = 0;
    qsizetype oldStart = 0;
    qsizetype oldCount = 0;
    qsizetype newStart = 0;
    qsizetype newCount = 0;
    qsizetype oldFirst = 0; ///< the 0-based index of its first old line
    qsizetype newFirst = 0; ///< the 0-based index of its first new line
};

/// The changes of @p edits grouped into hunks with @p context lines around them; changes at most
/// 2 * @p context lines apart share a hunk (as diff -U and jsdiff group them). None when nothing
/// changed.
[[nodiscard]] QList<Hunk> hunks(const QList<Edit> &edits, int context);

/// Changed characters of a line: [start, start + length).
struct WordRange
{
    qint32 start = 0;
    qint32 length = 0;
    bool operator==(const WordRange &) const = default;
};

/// Word-level marks for a pair of changed lines: the changed ranges of @p oldLine and of
/// @p newLine (words, runs of white space and single other characters compared; neighbouring
/// ranges joined across white space), both empty when the lines have too little in common for
/// marks to help or are too long to compare.
void changedWords(QStringView oldLine, QStringView newLine, QList<WordRange> &oldRanges, QList<WordRange> &newRanges);

} // namespace weft::TextDiff
