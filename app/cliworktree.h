// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `weft worktree list|apply|remove` and `weft run --worktree NAME`: sessions on a git worktree
// of their own (model/worktree).

#include "cli.h"

#include "core/result.h"
#include "worktree/worktrees.h"

#include <QStringList>

namespace weft::Cli
{

/// `weft worktree list [--format json|table]`, `weft worktree apply NAME [--mode merge|rebase|diff]`,
/// `weft worktree remove NAME [--force]`, for the repository of the current directory. NAME is a
/// worktree's folder name or path.
int worktreeCommand(const GlobalOptions &options, const QStringList &args);

/// The worktree @p name of the repository of the current directory, for `weft run --worktree`:
/// the existing one of that name, else a new one (branch weft/NAME from HEAD, beside the
/// repository, with the repository's setup script run there when @p runSetup). Says on stderr
/// which. The folder to run in: the worktree's, or the current directory's counterpart in it.
[[nodiscard]] Result<QString> worktreeForRun(const QString &name, bool runSetup);

} // namespace weft::Cli
