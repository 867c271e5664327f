// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the edit tools find `oldString` in a file when it is not an exact match: OpenCode's chain
// of replacers (packages/opencode/src/tool/edit.ts), tried in OpenCode's order. Each replacer
// proposes candidate texts that really occur in the content; the first candidate that occurs
// exactly once is replaced (or, with replaceAll, every occurrence of the first candidate found).
// Pure functions on strings; lengths and indices are UTF-16 code units, as in JavaScript.

#include <QList>
#include <QString>
#include <QStringList>

namespace weft::TextReplace
{

enum class Replacer {
    Simple,               ///< oldString as given
    LineTrimmed,          ///< lines equal after trimming each
    BlockAnchor,          ///< first and last lines as anchors, middle lines by similarity (3+ lines)
    WhitespaceNormalized, ///< runs of whitespace collapsed to one space
    IndentationFlexible,  ///< equal after removing the common indentation
    EscapeNormalized,     ///< \n, \t, \", ... in oldString taken as the characters they stand for
    TrimmedBoundary,      ///< oldString without leading and trailing whitespace
    ContextAware,         ///< first and last lines as anchors, half the middle lines equal (3+ lines)
    MultiOccurrence,      ///< every exact occurrence (for replaceAll)
};

/// The replacers in the order OpenCode tries them.
[[nodiscard]] const QList<Replacer> &chain();
[[nodiscard]] QString name(Replacer replacer);

/// What @p replacer proposes for @p find in @p content, in order (OpenCode's generator yields).
[[nodiscard]] QStringList candidates(Replacer replacer, const QString &content, const QString &find);

/// OpenCode's thresholds for BlockAnchor: one candidate block is accepted at any similarity of
/// its middle lines; of several, the most similar one needs at least 0.3.
inline constexpr double SingleCandidateSimilarityThreshold = 0.0;
inline constexpr double MultipleCandidatesSimilarityThreshold = 0.3;

struct Outcome {
    enum class Status { Replaced, Identical, NotFound, Ambiguous };
    Status status = Status::NotFound;
    QString content;   ///< the new content (Replaced)
    QString matched;   ///< the text of the file that was replaced (Replaced)
    Replacer replacer = Replacer::Simple; ///< which replacer found it (Replaced)
    QString error;     ///< OpenCode's message (otherwise)

    [[nodiscard]] bool ok() const { return status == Status::Replaced; }
};

/// OpenCode's messages.
[[nodiscard]] QString identicalMessage();
[[nodiscard]] QString notFoundMessage();
[[nodiscard]] QString ambiguousMessage();

/// OpenCode's replace(): tries the chain; refuses identical strings, a text found nowhere and a
/// text found only at several places ("Found multiple matches ..."). @p oldString must not be
/// empty (the tools treat an empty oldString as "write the whole file").
[[nodiscard]] Outcome replace(const QString &content, const QString &oldString, const QString &newString,
                              bool replaceAll = false);

/// OpenCode's trimDiff: removes the indentation common to all non-blank content lines of a
/// unified diff (after the +/-/space prefix), for a compact display.
[[nodiscard]] QString trimDiff(const QString &diff);

/// Edit distance (insertions, deletions, substitutions of UTF-16 units).
[[nodiscard]] int levenshtein(const QString &a, const QString &b);

/// JavaScript's notion of whitespace (String.prototype.trim, /\s/): Unicode spaces, line
/// terminators and U+FEFF.
[[nodiscard]] bool isJsSpace(QChar c);
[[nodiscard]] QString jsTrim(const QString &text);

} // namespace weft::TextReplace
