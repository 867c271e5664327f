// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jsonstorage.h"

#include <functional>

namespace weft::Migrations
{

/// Reports a file that a migration could not carry over: its path and the reason.
using ProblemReporter = std::function<void(const QString &path, const QString &reason)>;

/// The storage migrations of OpenCode 1.1 (`storage.ts`), in order:
///
/// 0. Sessions of the old per-project layout (`<data>/project/<dir>/storage/session/{info,
///    message,part}`) are copied into the global layout; a git project is identified by its
///    first root commit, found in the worktree that its messages name (`path.root`), and gets
///    a `project/<id>.json`. Projects whose worktree is gone stay where they are, as in OpenCode.
/// 1. `summary.diffs` moves out of each session file into `session_diff/<session>.json`; the
///    session keeps `summary: {additions, deletions}` at the same place among its keys.
///
/// Runs the migrations from @p fromVersion on and returns the version reached (the number of
/// migrations). Damaged files are reported and skipped, never overwritten; like OpenCode, a
/// migration that cannot carry a file over still counts as run.
int run(JsonStorage &storage, const QString &dataDir, int fromVersion, const ProblemReporter &problem);

/// The number of migrations OpenCode 1.1 knows.
constexpr int Count = 2;

} // namespace weft::Migrations
