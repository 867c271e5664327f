// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

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

} // namespace weft::TextDiff
