// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A session in a git worktree of its own, beyond what Worktrees does: the project's setup script,
// and which worktree holds a session's folder. What the controller (off the GUI thread) and
// `weft run --worktree` share. Every call blocks (git, the script).

#include "core/result.h"
#include "core/types.h"
#include "worktree/worktrees.h"

#include <QString>

namespace weft::SessionWorktree
{

/// Where a repository keeps the script run in each new worktree, relative to its main checkout:
/// ".weft/worktree-setup". It runs with `sh`, in the new worktree, with WEFT_WORKTREE (the new
/// worktree's folder) and WEFT_MAIN_CHECKOUT (the main checkout's) set. A file of the repository,
/// as Conductor's and Cursor's worktree setups are: it goes with the project, and the window asks
/// before running it (the New Session dialog's checkbox names it).
[[nodiscard]] QString setupScriptName();
/// The setup script of the repository whose main checkout is @p mainPath, empty when it has none.
[[nodiscard]] QString setupScript(const QString &mainPath);
/// How long a setup script may run before it is killed.
inline constexpr int SetupTimeoutMs = 10 * 60 * 1000;

/// Makes the worktree @p options in the repository of @p directory, then, when @p runSetup and the
/// repository has one, runs its setup script there. The folder a session in it works in: the
/// worktree's own, or the same subfolder of it as @p directory is of its checkout. A setup script
/// that fails is an error that says so (with its last lines); the worktree stays.
struct Made {
    Worktree worktree;
    QString directory;
};
[[nodiscard]] Result<Made> create(const QString &directory, const Worktrees::CreateOptions &options, bool runSetup);

/// The linked worktree (not the main checkout) that holds @p directory, or an error when none does.
[[nodiscard]] Result<Worktree> holding(const QString &directory);

/// A new worktree @p options made from @p from's HEAD, with @p from's uncommitted changes (new
/// files too) copied into it as uncommitted changes: a fork of the work as it stands. Its base is
/// @p from's HEAD. No setup script runs (the work is copied, not set up anew).
[[nodiscard]] Result<Worktree> fork(const Worktree &from, Worktrees::CreateOptions options);

/// A unified diff of many files (`git diff`) as one FileDiff per file: its path, its own patch,
/// its status ("added", "deleted", "modified") and its added and removed lines.
[[nodiscard]] QList<FileDiff> splitPatch(const QByteArray &patch);

} // namespace weft::SessionWorktree
