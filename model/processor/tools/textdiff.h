// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDeadlineTimer>
#include <QList>
#include <QString>

#include <vector>

namespace weft::TextDiff
{

struct Counts {
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
struct Edit {
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

} // namespace weft::TextDiff
