// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace weft
{

/// What compacting a session would do, as the window shows it before asking (made by
/// SessionController::previewCompaction() from the compaction layer's preview).
struct CompactionPreview
{
    QString model; ///< "provider/model" of the summary; empty: none configured
    qint64 modelContext = 0; ///< its context (0: unknown)
    bool keepsTail = false; ///< summary-tail (Gemini CLI's): the newest 30% stay as they are

    int summarized = 0; ///< messages the summary replaces
    qint64 summarizedTokens = 0;
    int kept = 0; ///< messages kept as they are
    qint64 keptTokens = 0;

    // The prune before the summary: old tool outputs cleared.
    bool pruneEnabled = true;
    QString pruneDisabledBy; ///< "config" or the environment variable that turned it off
    bool pruneApplies = false; ///< enabled, and more than pruneMinimum tokens would be cleared
    int prunedOutputs = 0;
    qint64 pruneSavings = 0; ///< tokens the model no longer reads once cleared
    qint64 prunable = 0; ///< tokens of the old outputs it could clear
    qint64 pruneMinimum = 0; ///< what it takes for prune to clear anything (OpenCode's PRUNE_MINIMUM)

    qint64 tokensBefore = 0; ///< the context now
    bool beforeFromUsage = false; ///< tokensBefore is the last reply's usage (else an estimate)
    qint64 tokensAfter = 0; ///< the context after (estimated)
    qint64 usable = 0; ///< the usable context of the model (0: unknown)
    QString problem; ///< why a compaction would fail ("nothing to summarise"), empty otherwise

    [[nodiscard]] bool canCompact() const { return problem.isEmpty(); }
};

} // namespace weft
