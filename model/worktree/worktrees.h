// SPDX-License-Identifier: GPL-3.0-or-later
// Git worktrees for sessions: each agent works on its own copy of the repository, on a branch of
// its own, and its work comes back to the main checkout when the user says so.
#pragma once

#include "core/result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace weft
{

/// A working tree of a repository, as `git worktree list --porcelain` tells it.
struct Worktree {
    QString path;
    /// The commit checked out.
    QString head;
    /// The branch checked out ("weft/fix-parser"), empty when detached.
    QString branch;
    /// The commit the branch started from (recorded by Worktrees::create()), empty for a worktree
    /// Weft did not make.
    QString base;
    /// The repository's main working tree (not a linked one).
    bool main = false;
    bool locked = false;
    /// Its folder is gone (`git worktree prune` would forget it).
    bool prunable = false;

    bool operator==(const Worktree &) const = default;
};

/// What a worktree holds that its base does not.
struct WorktreeStatus {
    /// Files changed and not committed (tracked or not), as `git status --porcelain` lists them.
    QStringList uncommitted;
    /// Commits on its branch since its base.
    int commits = 0;
};

/// A commit of a worktree's branch.
struct WorktreeCommit {
    QString hash;
    /// The first line of its message.
    QString subject;
    bool operator==(const WorktreeCommit &) const = default;
};

/// How Worktrees::apply() brings a worktree's work into the main checkout.
enum class ApplyMode {
    Merge, ///< `git merge --no-ff` of its branch (its uncommitted changes are not taken)
    Rebase, ///< its branch rebased onto the main checkout's, then fast-forwarded there
    Diff, ///< everything it changed since its base, uncommitted included, as uncommitted changes
};

/// What Worktrees::apply() did.
struct ApplyResult {
    /// Files in conflict. Merge and Rebase then leave the main checkout (and the worktree) as they
    /// were; Diff leaves them with conflict markers, as `git apply --3way` does, for the user.
    QStringList conflicts;
    [[nodiscard]] bool clean() const { return conflicts.isEmpty(); }
};

/// Worktrees of one repository, through the `git` program (core/git.h). Every call blocks: call
/// them on worker threads or from the command line. Names, branches and commits given by a user
/// (or a model) are checked before they reach git, never taken as options.
class Worktrees
{
public:
    struct CreateOptions {
        /// The worktree's name: its folder's and, unless @ref branch is given, its branch's
        /// ("weft/NAME"). Letters, digits, '.', '_' and '-', not first '.' or '-'.
        QString name;
        QString branch;
        /// The commit (or branch, tag) to start from; the main checkout's HEAD when empty.
        QString base;
        /// The folder that receives the worktree's folder; beside the repository when empty
        /// (defaultParent()).
        QString parent;
    };

    /// The repository of @p directory (any folder inside a working tree of it).
    [[nodiscard]] static Result<Worktrees> open(const QString &directory);

    /// The main working tree's folder.
    [[nodiscard]] QString mainPath() const { return m_main; }
    /// Where new worktrees go by default: "<repository>.worktrees" beside the main working tree.
    [[nodiscard]] QString defaultParent() const;

    [[nodiscard]] Result<QList<Worktree>> list() const;
    /// The worktree at @p path, or an error when it is not one of this repository's.
    [[nodiscard]] Result<Worktree> find(const QString &path) const;

    /// Makes a new branch at @p options' base and checks it out in a new worktree.
    [[nodiscard]] Result<Worktree> create(const CreateOptions &options) const;
    [[nodiscard]] Result<WorktreeStatus> status(const Worktree &worktree) const;
    /// Everything @p worktree changed since its base, uncommitted and new files included, as a
    /// unified diff (`git diff --binary`); its index is left alone.
    [[nodiscard]] Result<QByteArray> diff(const Worktree &worktree) const;
    /// The commits on @p worktree's branch since its base, the newest first.
    [[nodiscard]] Result<QList<WorktreeCommit>> commits(const Worktree &worktree) const;
    /// Commits everything @p worktree holds (new files included) with @p message; an error when
    /// there is nothing to commit.
    [[nodiscard]] Result<QString> commit(const Worktree &worktree, const QString &message) const;
    /// Brings @p worktree's work into the main checkout. Merge and Rebase need a main checkout
    /// without uncommitted changes.
    [[nodiscard]] Result<ApplyResult> apply(const Worktree &worktree, ApplyMode mode) const;
    /// Removes @p worktree's folder and forgets it; refused while it has uncommitted changes
    /// unless @p force. Its branch stays (its commits are not lost).
    [[nodiscard]] Result<void> remove(const Worktree &worktree, bool force = false) const;

    /// Why @p name cannot name a worktree, or an empty string.
    [[nodiscard]] static QString whyInvalidName(const QString &name);

private:
    Worktrees(const QString &mainPath, const QString &commonDir)
        : m_main(mainPath)
        , m_commonDir(commonDir)
    {
    }
    /// The base recorded for @p branch by create().
    [[nodiscard]] QString recordedBase(const QString &branch) const;
    [[nodiscard]] Result<QString> resolveCommit(const QString &revision) const;
    [[nodiscard]] QStringList unmerged(const QString &path) const;

    QString m_main;
    /// The repository's common git folder (canonical): what its lock is known by, from the main
    /// checkout and from any linked worktree alike.
    QString m_commonDir;
};

} // namespace weft
