// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace weft
{

/// How OpenCode identifies the project of a directory.
struct ProjectIdentity {
    QString id;       ///< first root commit of the repository, or "global" outside git
    QString worktree; ///< the repository's top level, or "/" for global
    QString vcs;      ///< "git" or empty
};

/// Identifies @p directory as OpenCode 1.1 does: the sorted root commits of
/// `git rev-list --max-parents=0 --all`, the first one; "global" when @p directory is not in a git
/// repository with commits (or git is missing).
[[nodiscard]] ProjectIdentity identifyProject(const QString &directory);

} // namespace weft
