// SPDX-License-Identifier: GPL-3.0-or-later
#include "worktrees.h"

#include "core/git.h"
#include "core/tr.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <map>
#include <memory>
#include <mutex>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// The key of git's configuration where create() records a branch's base.
QString baseKey(const QString &branch)
{
    return u"branch."_s + branch + u".weftBase"_s;
}

Git::Output git(const QString &directory, const QStringList &arguments, const QByteArray &input = {},
                const QHash<QString, QString> &environment = {})
{
    Git::Options options;
    options.workingDirectory = directory;
    options.input = input;
    options.environment = environment;
    return Git::run(arguments, options);
}

/// Holds the repository whose common git folder is @p commonDir, for this process's changes to what its worktrees share
/// (.git/config, .git/worktrees, the main checkout) and for reading the list of worktrees: git
/// takes its own locks on them and fails instead of waiting (two worktrees made at once in one
/// repository failed about once in 30), and a list read while one is added can find it half made.
/// Recursive: create() finds what it made.
std::unique_lock<std::recursive_mutex> lockRepository(const QString &commonDir)
{
    static std::mutex guard;
    static std::map<QString, std::unique_ptr<std::recursive_mutex>> locks;
    std::recursive_mutex *lock = nullptr;
    {
        const std::lock_guard held(guard);
        std::unique_ptr<std::recursive_mutex> &slot = locks[commonDir];
        if (!slot)
            slot = std::make_unique<std::recursive_mutex>();
        lock = slot.get();
    }
    return std::unique_lock(*lock);
}

Error gitError(const QString &what, const Git::Output &output, const QString &where)
{
    return Error{what + u": "_s + output.errorText(), where};
}

QList<Worktree> parsePorcelain(const QByteArray &text)
{
    QList<Worktree> list;
    Worktree current;
    bool open = false;
    const auto close = [&] {
        if (open)
            list.append(current);
        current = Worktree();
        open = false;
    };
    for (const QByteArray &raw : text.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty()) {
            close();
            continue;
        }
        const qsizetype space = line.indexOf(u' ');
        const QString key = space < 0 ? line : line.left(space);
        const QString value = space < 0 ? QString() : line.mid(space + 1);
        if (key == u"worktree") {
            close();
            current.path = value;
            current.main = list.isEmpty();
            open = true;
        } else if (key == u"HEAD") {
            current.head = value;
        } else if (key == u"branch") {
            current.branch = value.startsWith(u"refs/heads/") ? value.mid(11) : value;
        } else if (key == u"locked") {
            current.locked = true;
        } else if (key == u"prunable") {
            current.prunable = true;
        }
    }
    close();
    return list;
}

QStringList nulSeparated(const QByteArray &out)
{
    QStringList list;
    for (const QByteArray &item : out.split('\0')) {
        if (!item.isEmpty())
            list.append(QString::fromUtf8(item));
    }
    return list;
}
} // namespace

Result<Worktrees> Worktrees::open(const QString &directory)
{
    if (!QFileInfo(directory).isDir())
        return Error{WorktreeTr::tr("no folder %1").arg(directory), directory};
    // The common git folder names the repository without the list of its worktrees, which is
    // read under the repository's lock: read while a worktree is added, it can be half made.
    const Git::Output common = git(directory, {u"rev-parse"_s, u"--path-format=absolute"_s, u"--git-common-dir"_s});
    const QString commonDir = common.ok() ? QFileInfo(common.line()).canonicalFilePath() : QString();
    if (commonDir.isEmpty())
        return Error{WorktreeTr::tr("%1 is not in a git repository").arg(directory), directory};
    const auto held = lockRepository(commonDir);
    const Git::Output listed = git(directory, {u"worktree"_s, u"list"_s, u"--porcelain"_s});
    if (!listed.ok())
        return Error{WorktreeTr::tr("%1 is not in a git repository").arg(directory), directory};
    const QList<Worktree> all = parsePorcelain(listed.out);
    if (all.isEmpty() || listed.out.contains("\nbare\n"))
        return Error{WorktreeTr::tr("%1: a bare repository has no checkout to work in").arg(directory), directory};
    return Worktrees(all.first().path, commonDir);
}

QString Worktrees::defaultParent() const
{
    const QFileInfo main(m_main);
    return main.dir().filePath(main.fileName() + u".worktrees"_s);
}

QString Worktrees::whyInvalidName(const QString &name)
{
    static const QRegularExpression allowed(u"^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$"_s);
    if (!allowed.match(name).hasMatch())
        return WorktreeTr::tr("\"%1\" cannot name a worktree: use up to 64 letters, digits, '.', '_' and '-', "
                              "starting with a letter, digit or '_'")
            .arg(name);
    if (name.contains(u".."_s) || name.endsWith(u".lock"_s) || name.endsWith(u'.'))
        return WorktreeTr::tr("\"%1\" cannot name a worktree").arg(name);
    return {};
}

Result<QList<Worktree>> Worktrees::list() const
{
    const auto held = lockRepository(m_commonDir);
    const Git::Output listed = git(m_main, {u"worktree"_s, u"list"_s, u"--porcelain"_s});
    if (!listed.ok())
        return gitError(WorktreeTr::tr("cannot list the worktrees"), listed, m_main);
    QList<Worktree> all = parsePorcelain(listed.out);
    for (Worktree &w : all) {
        if (!w.main && !w.branch.isEmpty())
            w.base = recordedBase(w.branch);
    }
    return all;
}

Result<Worktree> Worktrees::find(const QString &path) const
{
    Result<QList<Worktree>> all = list();
    if (!all)
        return all.error();
    const QString wanted = QFileInfo(path).canonicalFilePath();
    for (const Worktree &w : all.value()) {
        if (!wanted.isEmpty() && QFileInfo(w.path).canonicalFilePath() == wanted)
            return w;
    }
    return Error{WorktreeTr::tr("%1 is not a worktree of %2").arg(path, m_main), path};
}

QString Worktrees::recordedBase(const QString &branch) const
{
    return git(m_main, {u"config"_s, u"--get"_s, baseKey(branch)}).line();
}

Result<QString> Worktrees::resolveCommit(const QString &revision) const
{
    if (revision.isEmpty() || revision.startsWith(u'-'))
        return Error{WorktreeTr::tr("\"%1\" is not a commit").arg(revision), m_main};
    const Git::Output resolved = git(m_main, {u"rev-parse"_s, u"--verify"_s, u"--quiet"_s, u"--end-of-options"_s,
                                              revision + u"^{commit}"_s});
    if (!resolved.ok())
        return Error{WorktreeTr::tr("\"%1\" is not a commit of %2").arg(revision, m_main), m_main};
    return resolved.line();
}

QStringList Worktrees::unmerged(const QString &path) const
{
    return nulSeparated(git(path, {u"diff"_s, u"--name-only"_s, u"--diff-filter=U"_s, u"-z"_s}).out);
}

Result<Worktree> Worktrees::create(const CreateOptions &options) const
{
    if (const QString why = whyInvalidName(options.name); !why.isEmpty())
        return Error{why, m_main};
    const QString branch = options.branch.isEmpty() ? u"weft/"_s + options.name : options.branch;
    if (branch.startsWith(u'-')
        || !git(m_main, {u"check-ref-format"_s, u"--branch"_s, branch}).ok())
        return Error{WorktreeTr::tr("\"%1\" cannot name a branch").arg(branch), m_main};
    if (git(m_main, {u"rev-parse"_s, u"--verify"_s, u"--quiet"_s, u"refs/heads/"_s + branch}).ok())
        return Error{WorktreeTr::tr("the branch %1 exists already").arg(branch), m_main};
    const Result<QString> base = resolveCommit(options.base.isEmpty() ? u"HEAD"_s : options.base);
    if (!base)
        return base.error();
    const QString parent = QDir::cleanPath(options.parent.isEmpty() ? defaultParent() : options.parent);
    if (!QDir::isAbsolutePath(parent))
        return Error{WorktreeTr::tr("the folder for worktrees must be an absolute path: %1").arg(parent), parent};
    const QString path = parent + u'/' + options.name;
    if (QFileInfo::exists(path))
        return Error{WorktreeTr::tr("%1 exists already").arg(path), path};
    if (!QDir().mkpath(parent))
        return Error{WorktreeTr::tr("cannot make the folder %1").arg(parent), parent};
    const auto held = lockRepository(m_commonDir);
    const Git::Output added = git(m_main, {u"worktree"_s, u"add"_s, u"--quiet"_s, u"-b"_s, branch, path, base.value()});
    if (!added.ok())
        return gitError(WorktreeTr::tr("cannot make the worktree %1").arg(path), added, path);
    const Git::Output recorded = git(m_main, {u"config"_s, baseKey(branch), base.value()});
    if (!recorded.ok())
        return gitError(WorktreeTr::tr("cannot record the base of %1").arg(branch), recorded, m_main);
    return find(path);
}

Result<WorktreeStatus> Worktrees::status(const Worktree &worktree) const
{
    const Git::Output listed = git(worktree.path, {u"status"_s, u"--porcelain=v1"_s, u"-z"_s, u"--untracked-files=all"_s});
    if (!listed.ok())
        return gitError(WorktreeTr::tr("cannot read the state of %1").arg(worktree.path), listed, worktree.path);
    WorktreeStatus status;
    const QStringList entries = nulSeparated(listed.out);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QString &entry = entries.at(i);
        status.uncommitted.append(entry.mid(3));
        // A rename or copy is followed by its source.
        if (entry.startsWith(u'R') || entry.startsWith(u'C'))
            ++i;
    }
    if (!worktree.base.isEmpty()) {
        const Git::Output counted = git(worktree.path, {u"rev-list"_s, u"--count"_s, worktree.base + u"..HEAD"_s});
        if (counted.ok())
            status.commits = counted.line().toInt();
    }
    return status;
}

Result<QByteArray> Worktrees::diff(const Worktree &worktree) const
{
    if (worktree.base.isEmpty())
        return Error{WorktreeTr::tr("%1 has no recorded base commit").arg(worktree.path), worktree.path};
    // Everything, new files too, staged in an index of its own: the worktree's index stays as
    // its user left it.
    QTemporaryDir scratch;
    if (!scratch.isValid())
        return Error{scratch.errorString(), {}};
    const QHash<QString, QString> index{{u"GIT_INDEX_FILE"_s, scratch.filePath(u"index"_s)}};
    for (const QStringList &step : {QStringList{u"read-tree"_s, u"HEAD"_s}, QStringList{u"add"_s, u"-A"_s}}) {
        const Git::Output staged = git(worktree.path, step, {}, index);
        if (!staged.ok())
            return gitError(WorktreeTr::tr("cannot read the changes of %1").arg(worktree.path), staged, worktree.path);
    }
    const Git::Output diffed = git(worktree.path, {u"diff"_s, u"--cached"_s, u"--binary"_s, u"--no-color"_s,
                                                   u"--no-ext-diff"_s, worktree.base}, {}, index);
    if (!diffed.ok())
        return gitError(WorktreeTr::tr("cannot read the changes of %1").arg(worktree.path), diffed, worktree.path);
    return diffed.out;
}

Result<QList<WorktreeCommit>> Worktrees::commits(const Worktree &worktree) const
{
    if (worktree.base.isEmpty())
        return Error{WorktreeTr::tr("%1 has no recorded base commit").arg(worktree.path), worktree.path};
    const Git::Output logged
        = git(worktree.path, {u"log"_s, u"-z"_s, u"--format=%H %s"_s, worktree.base + u"..HEAD"_s, u"--"_s});
    if (!logged.ok())
        return gitError(WorktreeTr::tr("cannot read the commits of %1").arg(worktree.path), logged, worktree.path);
    QList<WorktreeCommit> list;
    for (const QString &entry : nulSeparated(logged.out))
        list.append({entry.section(u' ', 0, 0), entry.section(u' ', 1)});
    return list;
}

Result<QString> Worktrees::commit(const Worktree &worktree, const QString &message) const
{
    if (message.trimmed().isEmpty())
        return Error{WorktreeTr::tr("a commit needs a message"), worktree.path};
    const Result<WorktreeStatus> state = status(worktree);
    if (!state)
        return state.error();
    if (state->uncommitted.isEmpty())
        return Error{WorktreeTr::tr("%1 has nothing to commit").arg(worktree.path), worktree.path};
    const Git::Output added = git(worktree.path, {u"add"_s, u"-A"_s});
    if (!added.ok())
        return gitError(WorktreeTr::tr("cannot stage the changes of %1").arg(worktree.path), added, worktree.path);
    const Git::Output committed = git(worktree.path, {u"commit"_s, u"--quiet"_s, u"--file=-"_s}, message.toUtf8());
    if (!committed.ok())
        return gitError(WorktreeTr::tr("cannot commit in %1").arg(worktree.path), committed, worktree.path);
    return git(worktree.path, {u"rev-parse"_s, u"HEAD"_s}).line();
}

Result<ApplyResult> Worktrees::apply(const Worktree &worktree, ApplyMode mode) const
{
    if (worktree.main)
        return Error{WorktreeTr::tr("%1 is the main checkout").arg(worktree.path), worktree.path};
    if (worktree.branch.isEmpty() && mode != ApplyMode::Diff)
        return Error{WorktreeTr::tr("%1 has no branch to merge").arg(worktree.path), worktree.path};
    const auto held = lockRepository(m_commonDir);
    ApplyResult result;
    if (mode == ApplyMode::Diff) {
        const Result<QByteArray> patch = diff(worktree);
        if (!patch)
            return patch.error();
        if (patch->isEmpty())
            return result;
        const Git::Output applied = git(m_main, {u"apply"_s, u"--3way"_s, u"--binary"_s, u"--whitespace=nowarn"_s},
                                        patch.value());
        result.conflicts = unmerged(m_main);
        if (!applied.ok() && result.conflicts.isEmpty())
            return gitError(WorktreeTr::tr("cannot apply the changes of %1").arg(worktree.path), applied, m_main);
        return result;
    }
    const Git::Output dirty = git(m_main, {u"status"_s, u"--porcelain"_s, u"--untracked-files=no"_s});
    if (!dirty.ok() || !dirty.out.isEmpty())
        return Error{WorktreeTr::tr("the main checkout %1 has uncommitted changes: commit or stash them first").arg(m_main),
                     m_main};
    if (mode == ApplyMode::Merge) {
        const Git::Output merged = git(m_main, {u"merge"_s, u"--no-ff"_s, u"--no-edit"_s, u"--quiet"_s,
                                                u"refs/heads/"_s + worktree.branch});
        if (!merged.ok()) {
            result.conflicts = unmerged(m_main);
            git(m_main, {u"merge"_s, u"--abort"_s});
            if (result.conflicts.isEmpty())
                return gitError(WorktreeTr::tr("cannot merge %1").arg(worktree.branch), merged, m_main);
        }
        return result;
    }
    const QString target = git(m_main, {u"symbolic-ref"_s, u"--quiet"_s, u"--short"_s, u"HEAD"_s}).line();
    if (target.isEmpty())
        return Error{WorktreeTr::tr("the main checkout %1 has no branch checked out").arg(m_main), m_main};
    const Git::Output rebased = git(worktree.path, {u"rebase"_s, u"--quiet"_s, u"refs/heads/"_s + target});
    if (!rebased.ok()) {
        result.conflicts = unmerged(worktree.path);
        git(worktree.path, {u"rebase"_s, u"--abort"_s});
        if (result.conflicts.isEmpty())
            return gitError(WorktreeTr::tr("cannot rebase %1 onto %2").arg(worktree.branch, target), rebased,
                            worktree.path);
        return result;
    }
    const Git::Output forwarded = git(m_main, {u"merge"_s, u"--ff-only"_s, u"--quiet"_s, u"refs/heads/"_s + worktree.branch});
    if (!forwarded.ok())
        return gitError(WorktreeTr::tr("cannot bring %1 into %2").arg(worktree.branch, target), forwarded, m_main);
    return result;
}

Result<void> Worktrees::remove(const Worktree &worktree, bool force) const
{
    if (worktree.main)
        return Error{WorktreeTr::tr("%1 is the main checkout").arg(worktree.path), worktree.path};
    if (!force && !worktree.prunable) {
        const Result<WorktreeStatus> state = status(worktree);
        if (!state)
            return state.error();
        if (!state->uncommitted.isEmpty())
            return Error{WorktreeTr::tr("%1 has %n uncommitted change(s)", nullptr, int(state->uncommitted.size()))
                             .arg(worktree.path),
                         worktree.path};
    }
    QStringList arguments{u"worktree"_s, u"remove"_s};
    if (force)
        arguments << u"--force"_s;
    arguments << worktree.path;
    const auto held = lockRepository(m_commonDir);
    const Git::Output removed = git(m_main, arguments);
    if (!removed.ok()) {
        if (worktree.prunable && git(m_main, {u"worktree"_s, u"prune"_s}).ok())
            return {};
        return gitError(WorktreeTr::tr("cannot remove %1").arg(worktree.path), removed, worktree.path);
    }
    return {};
}

} // namespace weft
