// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/git.h"

// OpenCode's Snapshot: the project's files tracked in a shadow git repository, so that every step
// can record a tree hash, list what it changed and be undone. Uses the `git` program.

#include "core/result.h"
#include "core/revertplan.h"
#include "core/types.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace weft
{

class Snapshot
{
public:
    /// Files changed since a snapshot: OpenCode's patch part. @c hash is the snapshot the files can
    /// be restored from (the step's start); @c files are absolute paths.
    struct Patch {
        QString hash;
        QStringList files;
        QString tree; ///< the tree written now, when patch() made one
    };

    /// Files larger than this are left out of snapshots (OpenCode: 2 MiB).
    static constexpr qint64 DefaultMaxFileSize = 2 * 1024 * 1024;

    /// A snapshot of @p directory (the session's directory) inside @p worktree (the project root;
    /// "/" or empty for OpenCode's "global" project, where the directory itself is the work tree).
    /// The shadow repository is `<dataDir>/snapshot/<projectID>`; when it already serves another
    /// work tree (a clone of the same repository, another folder of the global project), this one
    /// gets its own index file there.
    Snapshot(const QString &dataDir, const QString &projectID, const QString &worktree, const QString &directory = {});

    [[nodiscard]] QString gitDir() const { return m_gitDir; }
    [[nodiscard]] QString workTree() const { return m_workTree; }
    [[nodiscard]] QString directory() const { return m_directory; }
    void setMaxFileSize(qint64 bytes) { m_maxFileSize = bytes; }
    [[nodiscard]] qint64 maxFileSize() const { return m_maxFileSize; }
    /// Time limit of one git command.
    void setGitTimeout(int ms) { m_gitTimeoutMs = ms; }

    /// Stages the directory's current files (`git add -A .`, huge files left out) and writes the
    /// tree: returns its hash. Initializes the shadow repository on first use.
    Result<QString> track();
    /// The files changed since @p hash (staging the current state first), as absolute paths.
    Result<Patch> patch(const QString &hash);
    /// The unified diff between @p hash and the current files.
    Result<QString> diff(const QString &hash);
    /// Each file changed between two trees, with its full contents before and after (empty for
    /// binary files and files over maxFileSize) and its added/removed line counts. Paths are
    /// relative to the work tree.
    Result<QList<FileDiff>> diffFull(const QString &from, const QString &to);
    /// Whether @p hash is a tree this data dir's Weft wrote for this work tree (track() and
    /// patch() record each tree they write, in `<gitDir>/weft-made-<work tree key>`): a tree
    /// that merely exists in the repository (git knows the empty tree without any object) or one
    /// written for another folder is not. Only such trees are restored from.
    [[nodiscard]] bool madeHere(const QString &hash) const;
    /// Puts the files back as they were in @p hash: every file of that tree is written, and files
    /// the snapshot tracks now but that tree lacks are deleted (within the directory). Refused
    /// unless madeHere(@p hash).
    Result<void> restore(const QString &hash);

    /// What revert() would do (core/revertplan.h).
    using RevertPlan = weft::RevertPlan;
    /// The plan of revert(@p patches), or why it is refused: a patch whose snapshot is not
    /// madeHere(), or a file it would change whose current content no snapshot can hold (over
    /// maxFileSize, or ignored), so that restoring the current state (an unrevert) could not
    /// bring it back. Stages the current files.
    Result<RevertPlan> planRevert(const QList<Patch> &patches);
    /// OpenCode's Snapshot.revert: for each file of each patch (the first patch naming a file
    /// wins), restores it from that patch's hash, or deletes it when it did not exist there.
    /// Files outside the work tree are ignored. Refused, before any file is touched, where
    /// planRevert() refuses.
    Result<RevertPlan> revert(const QList<Patch> &patches);
    /// `git gc --prune=7.days` on the shadow repository.
    Result<void> cleanup();

private:
    using GitResult = Git::Output;
    GitResult git(const QStringList &args, const QByteArray &stdinData = {}, bool withWorkTree = true) const;
    Result<void> ensureInit();
    Result<void> stage();
    void syncExcludes(const QStringList &largeFiles);
    [[nodiscard]] QStringList toRelative(const QByteArray &nulSeparated) const;
    [[nodiscard]] bool isTree(const QString &hash) const;
    [[nodiscard]] QString pathspec() const;
    /// Notes @p hash as a tree written here for this work tree (madeHere()).
    void record(const QString &hash);
    [[nodiscard]] bool madeHereLocked(const QString &hash) const;
    struct Plan {
        QList<std::pair<QString, QStringList>> restore; ///< snapshot hash, paths relative to the work tree
        QStringList remove;                             ///< absolute paths
        QStringList removeRelative;
    };
    Result<Plan> plan(const QList<Patch> &patches);

    QString m_dataDir;
    QString m_gitDir;
    QString m_workTree;
    QString m_directory;
    QString m_indexFile; ///< empty: the repository's own index
    QString m_recordFile; ///< the trees written here for this work tree, one hash a line
    QString m_lastRecorded;
    qint64 m_maxFileSize = DefaultMaxFileSize;
    int m_gitTimeoutMs = 300000;
    bool m_initialized = false;
};

} // namespace weft
