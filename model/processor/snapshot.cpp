// SPDX-License-Identifier: GPL-3.0-or-later
#include "snapshot.h"

#include "core/logging.h"
#include "core/tr.h"
#include "diff/textdiff.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// One lock per shadow repository: git's index and our info/exclude are shared by every user of
/// the same repository in this process.
QMutex &lockFor(const QString &gitDir)
{
    static QMutex registryMutex;
    static QHash<QString, std::shared_ptr<QMutex>> locks;
    QMutexLocker lock(&registryMutex);
    auto &entry = locks[gitDir];
    if (!entry)
        entry = std::make_shared<QMutex>();
    return *entry;
}

bool isHash(const QString &hash)
{
    static const QRegularExpression re(u"\\A[0-9a-f]{4,64}\\z"_s);
    return re.match(hash).hasMatch();
}

bool isInside(const QString &root, const QString &path)
{
    if (root == u"/")
        return path.startsWith(u'/');
    return path == root || (path.startsWith(root) && path.size() > root.size() && path.at(root.size()) == u'/');
}

/// Escapes a path for a gitignore line so that it matches only itself.
QString excludeLine(const QString &relative)
{
    QString out = u"/"_s;
    for (const QChar c : relative) {
        if (c == u'*' || c == u'?' || c == u'[' || c == u'\\' || c == u'!' || c == u'#')
            out += u'\\';
        out += c;
    }
    if (out.endsWith(u' '))
        out.insert(out.size() - 1, u'\\');
    return out;
}

QStringList chunked(const QStringList &list, qsizetype from, qsizetype size)
{
    return list.mid(from, size);
}

QString notMadeHere(const QString &hash, const QString &workTree)
{
    return ProcessorTr::tr("the snapshot %1 was not made by Weft on this machine for %2 (a session imported from "
                           "elsewhere names snapshots of another machine); refusing to change files from it")
        .arg(hash.isEmpty() ? ProcessorTr::tr("(none)") : hash, workTree);
}

} // namespace

Snapshot::Snapshot(const QString &dataDir, const QString &projectID, const QString &worktree, const QString &directory)
    : m_dataDir(dataDir)
{
    const QString cleanedWorktree = worktree.isEmpty() ? QString() : QDir::cleanPath(worktree);
    const QString cleanedDirectory = directory.isEmpty() ? QString() : QDir::cleanPath(directory);
    const bool global = cleanedWorktree.isEmpty() || cleanedWorktree == u"/";
    m_workTree = global ? cleanedDirectory : cleanedWorktree;
    m_directory = cleanedDirectory.isEmpty() ? m_workTree : cleanedDirectory;
    if (!isInside(m_workTree, m_directory))
        m_directory = m_workTree;
    QString id = projectID.isEmpty() ? u"global"_s : projectID;
    // The ID is a folder name: keep it harmless.
    id.replace(u'/', u'_').replace(u'\\', u'_');
    if (id == u"." || id == u"..")
        id = u"global"_s;
    m_gitDir = QDir::cleanPath(dataDir + u"/snapshot/"_s + id);
    const QByteArray key = QCryptographicHash::hash(m_workTree.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    m_recordFile = m_gitDir + u"/weft-made-"_s + QString::fromLatin1(key);
}

Snapshot::GitResult Snapshot::git(const QStringList &args, const QByteArray &stdinData, bool withWorkTree) const
{
    QStringList full{
        u"-c"_s, u"core.autocrlf=false"_s,   u"-c"_s, u"core.longpaths=true"_s, u"-c"_s, u"core.symlinks=true"_s,
        u"-c"_s, u"core.quotepath=false"_s,  u"-c"_s, u"core.fsmonitor=false"_s, u"-c"_s, u"core.hooksPath=/dev/null"_s,
        u"-c"_s, u"core.safecrlf=false"_s,   u"-c"_s, u"color.ui=false"_s,       u"-c"_s, u"gc.auto=0"_s,
        u"-c"_s, u"maintenance.auto=false"_s, u"-c"_s, u"advice.detachedHead=false"_s,
        u"--literal-pathspecs"_s, u"--git-dir"_s, m_gitDir,
    };
    if (withWorkTree)
        full << u"--work-tree"_s << m_workTree;
    full += args;
    Git::Options options;
    options.workingDirectory = QFileInfo(m_workTree).isDir() ? m_workTree : m_gitDir;
    options.input = stdinData;
    options.timeoutMs = m_gitTimeoutMs;
    if (!m_indexFile.isEmpty())
        options.environment.insert(u"GIT_INDEX_FILE"_s, m_indexFile);
    const GitResult result = Git::run(full, options);
    if (result.timedOut)
        qCWarning(lcProcessor) << "snapshot: git timed out:" << args.mid(0, 3);
    return result;
}

QString Snapshot::pathspec() const
{
    if (m_directory == m_workTree)
        return u"."_s;
    return QDir(m_workTree).relativeFilePath(m_directory);
}

QStringList Snapshot::toRelative(const QByteArray &nulSeparated) const
{
    QStringList list;
    for (const QByteArray &item : nulSeparated.split('\0')) {
        if (!item.isEmpty())
            list.append(QString::fromUtf8(item));
    }
    return list;
}

bool Snapshot::isTree(const QString &hash) const
{
    if (!isHash(hash))
        return false;
    const GitResult r = git({u"cat-file"_s, u"-t"_s, hash}, {}, false);
    return r.ok() && r.out.trimmed() == "tree";
}

void Snapshot::record(const QString &hash)
{
    if (hash.isEmpty() || hash == m_lastRecorded)
        return;
    // One short append per tree: atomic for other processes appending to the same file.
    QFile file(m_recordFile);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append) || file.write((hash + u'\n').toLatin1()) != hash.size() + 1) {
        qCWarning(lcProcessor) << "snapshot: cannot record" << hash << "in" << m_recordFile << file.errorString();
        return;
    }
    m_lastRecorded = hash;
}

bool Snapshot::madeHereLocked(const QString &hash) const
{
    // A full hash only: an abbreviation could name another object.
    if (!isHash(hash) || (hash.size() != 40 && hash.size() != 64))
        return false;
    QFile file(m_recordFile);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray data = file.readAll();
    const QByteArray line = hash.toLatin1() + '\n';
    if (!data.startsWith(line) && !data.contains(QByteArray('\n' + line)))
        return false;
    return isTree(hash);
}

bool Snapshot::madeHere(const QString &hash) const
{
    QMutexLocker lock(&lockFor(m_gitDir));
    return madeHereLocked(hash);
}

Result<void> Snapshot::ensureInit()
{
    if (m_initialized)
        return {};
    if (m_workTree.isEmpty() || !QFileInfo(m_workTree).isDir())
        return Error{ProcessorTr::tr("the project folder does not exist"), m_workTree};
    if (!QFileInfo::exists(m_gitDir + u"/HEAD"_s)) {
        if (!QDir().mkpath(m_gitDir))
            return Error{ProcessorTr::tr("cannot create the snapshot repository"), m_gitDir};
        const GitResult init = git({u"init"_s, u"--quiet"_s, u"--template="_s});
        if (!init.ok())
            return Error{ProcessorTr::tr("git init failed: %1").arg(init.errorText()), m_gitDir};
        for (const auto &[key, value] : {std::pair{u"core.autocrlf"_s, u"false"_s}, std::pair{u"core.longpaths"_s, u"true"_s},
                                         std::pair{u"core.symlinks"_s, u"true"_s}, std::pair{u"core.fsmonitor"_s, u"false"_s},
                                         std::pair{u"gc.auto"_s, u"0"_s}})
            git({u"config"_s, key, value}, {}, false);
        qCInfo(lcProcessor) << "snapshot: initialized" << m_gitDir << "for" << m_workTree;
    }
    // The work tree the repository was made for uses its index; other work trees (clones of the
    // same repository, other folders of the global project) get their own.
    QString primary = QString::fromUtf8(git({u"config"_s, u"--get"_s, u"core.worktree"_s}, {}, false).out).trimmed();
    if (primary.isEmpty()) {
        git({u"config"_s, u"core.worktree"_s, m_workTree}, {}, false);
        primary = m_workTree;
    }
    if (QDir::cleanPath(primary) != m_workTree) {
        const QByteArray key = QCryptographicHash::hash(m_workTree.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
        m_indexFile = m_gitDir + u"/index-"_s + QString::fromLatin1(key);
    }
    m_initialized = true;
    return {};
}

void Snapshot::syncExcludes(const QStringList &largeFiles)
{
    QString text;
    // The project's own excludes (read only).
    const QString userExclude = m_workTree + u"/.git/info/exclude"_s;
    if (QFileInfo(m_workTree + u"/.git"_s).isDir()) {
        QFile file(userExclude);
        if (file.open(QIODevice::ReadOnly))
            text = QString::fromUtf8(file.readAll()).trimmed();
    }
    for (const QString &large : largeFiles) {
        if (!text.isEmpty())
            text += u'\n';
        text += excludeLine(large);
    }
    if (!text.isEmpty())
        text += u'\n';
    const QString target = m_gitDir + u"/info/exclude"_s;
    const QByteArray data = text.toUtf8();
    {
        QFile current(target);
        if (current.open(QIODevice::ReadOnly) && current.readAll() == data)
            return;
    }
    QDir().mkpath(m_gitDir + u"/info"_s);
    QFile file(target);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(data);
}

Result<void> Snapshot::stage()
{
    syncExcludes({});
    const QString ps = pathspec();
    const GitResult others = git({u"ls-files"_s, u"--others"_s, u"--exclude-standard"_s, u"-z"_s, u"--"_s, ps});
    const GitResult modified = git({u"diff-files"_s, u"--name-only"_s, u"-z"_s, u"--"_s, ps});
    if (!others.ok() || !modified.ok())
        qCWarning(lcProcessor).noquote() << "snapshot: cannot list files:" << others.errorText() << modified.errorText();

    QStringList largeUntracked;
    QStringList largeTracked;
    const auto collect = [&](const QStringList &files, QStringList &into) {
        for (const QString &rel : files) {
            const QFileInfo info(m_workTree + u'/' + rel);
            if (info.isFile() && !info.isSymLink() && info.size() > m_maxFileSize)
                into.append(rel);
        }
    };
    collect(toRelative(others.out), largeUntracked);
    collect(toRelative(modified.out), largeTracked);
    syncExcludes(largeUntracked + largeTracked);

    const GitResult add = git({u"add"_s, u"-A"_s, u"--ignore-errors"_s, u"--"_s, ps});
    if (!add.ok())
        qCWarning(lcProcessor).noquote() << "snapshot: git add reported:" << add.errorText();
    // Tracked files that grew too large leave the snapshot (their last small version stays in the
    // older trees).
    for (qsizetype i = 0; i < largeTracked.size(); i += 100) {
        QStringList args{u"rm"_s, u"--cached"_s, u"--quiet"_s, u"--ignore-unmatch"_s, u"--"_s};
        args += chunked(largeTracked, i, 100);
        git(args);
    }
    return {};
}

Result<QString> Snapshot::track()
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (auto init = ensureInit(); !init)
        return init.error();
    if (auto staged = stage(); !staged)
        return staged.error();
    const GitResult tree = git({u"write-tree"_s});
    const QString hash = QString::fromUtf8(tree.out).trimmed();
    if (!tree.ok() || !isHash(hash))
        return Error{ProcessorTr::tr("git write-tree failed: %1").arg(tree.errorText()), m_gitDir};
    record(hash);
    qCDebug(lcProcessor) << "snapshot: tracked" << hash << m_directory;
    return hash;
}

Result<Snapshot::Patch> Snapshot::patch(const QString &hash)
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (auto init = ensureInit(); !init)
        return init.error();
    if (!isTree(hash))
        return Error{ProcessorTr::tr("unknown snapshot"), hash};
    if (auto staged = stage(); !staged)
        return staged.error();
    const GitResult r = git({u"diff"_s, u"--cached"_s, u"--no-ext-diff"_s, u"--no-renames"_s, u"--name-only"_s, u"-z"_s,
                             hash, u"--"_s, pathspec()});
    if (!r.ok())
        return Error{ProcessorTr::tr("git diff failed: %1").arg(r.errorText()), hash};
    Patch patch;
    patch.hash = hash;
    for (const QString &rel : toRelative(r.out))
        patch.files.append(m_workTree == u"/" ? QString(u"/"_s + rel) : QString(m_workTree + u'/' + rel));
    const GitResult tree = git({u"write-tree"_s});
    if (tree.ok()) {
        patch.tree = QString::fromUtf8(tree.out).trimmed();
        record(patch.tree);
    }
    return patch;
}

Result<QString> Snapshot::diff(const QString &hash)
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (auto init = ensureInit(); !init)
        return init.error();
    if (!isTree(hash))
        return Error{ProcessorTr::tr("unknown snapshot"), hash};
    if (auto staged = stage(); !staged)
        return staged.error();
    const GitResult r = git({u"diff"_s, u"--cached"_s, u"--no-ext-diff"_s, u"--no-renames"_s, hash, u"--"_s, pathspec()});
    if (!r.ok())
        return Error{ProcessorTr::tr("git diff failed: %1").arg(r.errorText()), hash};
    return QString::fromUtf8(r.out).trimmed();
}

Result<QList<FileDiff>> Snapshot::diffFull(const QString &from, const QString &to)
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (auto init = ensureInit(); !init)
        return init.error();
    if (!isTree(from))
        return Error{ProcessorTr::tr("unknown snapshot"), from};
    if (!isTree(to))
        return Error{ProcessorTr::tr("unknown snapshot"), to};
    const GitResult numstat = git({u"diff"_s, u"--no-ext-diff"_s, u"--no-renames"_s, u"--numstat"_s, u"-z"_s, from, to,
                                   u"--"_s, pathspec()});
    if (!numstat.ok())
        return Error{ProcessorTr::tr("git diff failed: %1").arg(numstat.errorText()), from + u".."_s + to};

    struct Entry {
        QString file;
        bool binary = false;
        qint64 additions = 0;
        qint64 deletions = 0;
    };
    QList<Entry> entries;
    for (const QByteArray &record : numstat.out.split('\0')) {
        if (record.isEmpty())
            continue;
        const QList<QByteArray> fields = record.split('\t');
        if (fields.size() < 3)
            continue;
        Entry e;
        e.binary = fields.at(0) == "-" && fields.at(1) == "-";
        e.additions = e.binary ? 0 : fields.at(0).toLongLong();
        e.deletions = e.binary ? 0 : fields.at(1).toLongLong();
        e.file = QString::fromUtf8(record.mid(fields.at(0).size() + fields.at(1).size() + 2));
        entries.append(e);
    }

    // Contents of both sides in one `git cat-file --batch`.
    QByteArray requests;
    QList<qsizetype> requested; // entry index per request pair
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (entries.at(i).binary || entries.at(i).file.contains(u'\n'))
            continue;
        const QByteArray path = entries.at(i).file.toUtf8();
        requests += from.toLatin1() + ':' + path + '\n' + to.toLatin1() + ':' + path + '\n';
        requested.append(i);
    }
    QHash<qsizetype, std::pair<QString, QString>> contents;
    if (!requested.isEmpty()) {
        const GitResult batch = git({u"cat-file"_s, u"--batch"_s}, requests, false);
        const QByteArray &out = batch.out;
        qsizetype pos = 0;
        const auto next = [&]() -> std::optional<QString> { // nullopt: missing or too large
            const qsizetype eol = out.indexOf('\n', pos);
            if (eol < 0) {
                pos = out.size();
                return std::nullopt;
            }
            const QByteArray header = out.mid(pos, eol - pos);
            pos = eol + 1;
            const QList<QByteArray> parts = header.split(' ');
            if (parts.size() != 3 || parts.at(1) == "missing")
                return std::nullopt;
            const qsizetype size = parts.at(2).toLongLong();
            const QByteArray data = out.mid(pos, size);
            pos += size + 1; // content and its trailing newline
            if (parts.at(1) != "blob" || size > m_maxFileSize)
                return std::nullopt;
            return QString::fromUtf8(data);
        };
        for (const qsizetype i : std::as_const(requested)) {
            const auto before = next();
            const auto after = next();
            contents.insert(i, {before.value_or(QString()), after.value_or(QString())});
        }
    }

    QList<FileDiff> diffs;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const Entry &e = entries.at(i);
        const auto c = contents.value(i);
        diffs.append(FileDiff::fromContents(e.file, c.first, c.second, e.additions, e.deletions));
    }
    return diffs;
}

Result<void> Snapshot::restore(const QString &hash)
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (auto init = ensureInit(); !init)
        return init.error();
    if (!madeHereLocked(hash))
        return Error{notMadeHere(hash, m_workTree), hash};
    const QString ps = pathspec();
    const GitResult tracked = git({u"ls-files"_s, u"-z"_s, u"--"_s, ps});
    const GitResult target = git({u"ls-tree"_s, u"-r"_s, u"--name-only"_s, u"-z"_s, hash, u"--"_s, ps});
    if (!tracked.ok() || !target.ok())
        return Error{
            ProcessorTr::tr("cannot list the snapshot's files: %1").arg((tracked.ok() ? target : tracked).errorText()),
            hash};

    const GitResult read = git({u"read-tree"_s, hash});
    if (!read.ok())
        return Error{ProcessorTr::tr("git read-tree failed: %1").arg(read.errorText()), hash};
    const GitResult checkout = git({u"checkout-index"_s, u"-a"_s, u"-f"_s});
    if (!checkout.ok())
        return Error{ProcessorTr::tr("git checkout-index failed: %1").arg(checkout.errorText()), hash};

    const QStringList targetFiles = toRelative(target.out);
    const QSet<QString> keep(targetFiles.cbegin(), targetFiles.cend());
    for (const QString &rel : toRelative(tracked.out)) {
        if (keep.contains(rel))
            continue;
        const QString absolute = QDir::cleanPath(m_workTree + u'/' + rel);
        if (!isInside(m_directory, absolute) || absolute == m_directory)
            continue;
        const QFileInfo info(absolute);
        if (info.isDir() && !info.isSymLink())
            continue;
        if (!QFile::remove(absolute) && (info.exists() || info.isSymLink())) {
            qCWarning(lcProcessor) << "snapshot: cannot remove" << absolute;
            continue;
        }
        // Folders the file leaves empty go too.
        QString parent = QFileInfo(absolute).absolutePath();
        while (parent != m_directory && isInside(m_directory, parent) && QDir().rmdir(parent))
            parent = QFileInfo(parent).absolutePath();
    }
    qCInfo(lcProcessor) << "snapshot: restored" << hash << "in" << m_directory;
    return {};
}

Result<Snapshot::Plan> Snapshot::plan(const QList<Patch> &patches)
{
    // Files grouped by the hash they come back from; the first patch naming a file wins.
    QList<std::pair<QString, QStringList>> groups;
    QSet<QString> seen;
    QStringList foreign;
    for (const Patch &patch : patches) {
        if (!madeHereLocked(patch.hash)) {
            if (!foreign.contains(patch.hash))
                foreign.append(patch.hash);
            continue;
        }
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto &g) { return g.first == patch.hash; });
        if (it == groups.end()) {
            groups.append({patch.hash, {}});
            it = groups.end() - 1;
        }
        for (const QString &file : patch.files) {
            const QString absolute = QDir::cleanPath(QDir::isAbsolutePath(file) ? file : m_workTree + u'/' + file);
            if (seen.contains(absolute))
                continue;
            seen.insert(absolute);
            if (!isInside(m_workTree, absolute) || absolute == m_workTree) {
                qCWarning(lcProcessor) << "snapshot: revert ignores a file outside the project" << absolute;
                continue;
            }
            it->second.append(absolute);
        }
    }
    if (!foreign.isEmpty()) {
        qCWarning(lcProcessor) << "snapshot: revert refused, snapshots not made here:" << foreign;
        return Error{notMadeHere(foreign.join(u", "_s), m_workTree), m_workTree};
    }

    // The current files, as an unrevert will restore them.
    if (auto staged = stage(); !staged)
        return staged.error();
    const GitResult written = git({u"write-tree"_s});
    const QString current = QString::fromUtf8(written.out).trimmed();
    if (!written.ok() || !isHash(current))
        return Error{ProcessorTr::tr("git write-tree failed: %1").arg(written.errorText()), m_gitDir};
    record(current);

    const auto listed = [this](const QString &hash, const QStringList &rels) -> Result<QSet<QString>> {
        QSet<QString> found;
        for (qsizetype i = 0; i < rels.size(); i += 100) {
            QStringList args{u"ls-tree"_s, u"--name-only"_s, u"-z"_s, hash, u"--"_s};
            args += chunked(rels, i, 100);
            const GitResult tree = git(args);
            if (!tree.ok())
                return Error{tree.errorText(), hash};
            for (const QString &rel : toRelative(tree.out))
                found.insert(rel);
        }
        return found;
    };

    Plan plan;
    QStringList changed; // relative paths of existing files the revert overwrites or deletes
    for (const auto &[hash, files] : std::as_const(groups)) {
        QStringList rels;
        for (const QString &absolute : files)
            rels.append(QDir(m_workTree).relativeFilePath(absolute));
        const Result<QSet<QString>> existing = listed(hash, rels);
        if (!existing)
            return Error{ProcessorTr::tr("cannot list the snapshot's files: %1").arg(existing.error().message), hash};
        QStringList restore;
        for (qsizetype j = 0; j < files.size(); ++j) {
            const QFileInfo info(files.at(j));
            const bool present = info.exists() || info.isSymLink();
            if (existing->contains(rels.at(j))) {
                restore.append(rels.at(j));
                if (present && !(info.isDir() && !info.isSymLink()))
                    changed.append(rels.at(j));
                continue;
            }
            // Not in that snapshot: the step created it.
            if (info.isDir() && !info.isSymLink())
                continue;
            plan.removeRelative.append(rels.at(j));
            if (present) {
                plan.remove.append(files.at(j));
                changed.append(rels.at(j));
            }
        }
        if (!restore.isEmpty())
            plan.restore.append({hash, restore});
    }

    // What the revert changes must be in the current tree, or an unrevert could not bring it back.
    const Result<QSet<QString>> held = listed(current, changed);
    if (!held)
        return Error{ProcessorTr::tr("cannot list the snapshot's files: %1").arg(held.error().message), current};
    QStringList unsafe;
    for (const QString &rel : std::as_const(changed)) {
        if (!held->contains(rel))
            unsafe.append(rel);
    }
    if (!unsafe.isEmpty())
        return Error{ProcessorTr::tr("refusing to revert: no snapshot can hold the current content of these files "
                                     "(larger than %1 KB, or ignored), so they could not be brought back afterwards: %2")
                         .arg(m_maxFileSize / 1024)
                         .arg(unsafe.join(u", "_s)),
                     m_workTree};
    return plan;
}

Result<Snapshot::RevertPlan> Snapshot::planRevert(const QList<Patch> &patches)
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (auto init = ensureInit(); !init)
        return init.error();
    const Result<Plan> planned = plan(patches);
    if (!planned)
        return planned.error();
    RevertPlan out;
    for (const auto &[hash, rels] : planned->restore) {
        for (const QString &rel : rels)
            out.restore.append(QDir::cleanPath(m_workTree + u'/' + rel));
    }
    out.remove = planned->remove;
    return out;
}

Result<Snapshot::RevertPlan> Snapshot::revert(const QList<Patch> &patches)
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (auto init = ensureInit(); !init)
        return init.error();
    const Result<Plan> planned = plan(patches);
    if (!planned)
        return planned.error();

    RevertPlan done;
    QStringList problems;
    for (const QString &absolute : planned->remove) {
        qCInfo(lcProcessor) << "snapshot: revert deletes" << absolute;
        if (!QFile::remove(absolute))
            problems.append(u"cannot delete %1"_s.arg(absolute));
        else
            done.remove.append(absolute);
    }
    for (qsizetype i = 0; i < planned->removeRelative.size(); i += 100) {
        QStringList args{u"rm"_s, u"--cached"_s, u"--quiet"_s, u"--ignore-unmatch"_s, u"--"_s};
        args += chunked(planned->removeRelative, i, 100);
        git(args);
    }
    for (const auto &[hash, rels] : planned->restore) {
        for (qsizetype i = 0; i < rels.size(); i += 100) {
            const QStringList restore = chunked(rels, i, 100);
            QStringList args{u"checkout"_s, hash, u"--"_s};
            args += restore;
            if (!git(args).ok()) {
                for (const QString &rel : restore) {
                    const GitResult one = git({u"checkout"_s, hash, u"--"_s, rel});
                    if (!one.ok())
                        problems.append(u"%1: %2"_s.arg(rel, one.errorText()));
                }
            }
            for (const QString &rel : restore)
                done.restore.append(QDir::cleanPath(m_workTree + u'/' + rel));
        }
    }
    if (!problems.isEmpty())
        return Error{ProcessorTr::tr("some files could not be reverted: %1").arg(problems.join(u"; "_s)), m_workTree};
    return done;
}

Result<void> Snapshot::cleanup()
{
    QMutexLocker lock(&lockFor(m_gitDir));
    if (!QFileInfo::exists(m_gitDir + u"/HEAD"_s))
        return {};
    const GitResult r = git({u"gc"_s, u"--quiet"_s, u"--prune=7.days"_s}, {}, false);
    if (!r.ok())
        return Error{ProcessorTr::tr("git gc failed: %1").arg(r.errorText()), m_gitDir};
    // The record keeps the trees gc left, each once.
    QFile file(m_recordFile);
    if (file.open(QIODevice::ReadOnly)) {
        QList<QByteArray> hashes;
        QSet<QByteArray> unique;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (isHash(QString::fromLatin1(line)) && !unique.contains(line)) {
                unique.insert(line);
                hashes.append(line);
            }
        }
        file.close();
        const GitResult check = git({u"cat-file"_s, u"--batch-check"_s}, hashes.join('\n') + '\n', false);
        if (check.ok()) {
            QByteArray kept;
            for (const QByteArray &line : check.out.split('\n')) {
                const QList<QByteArray> fields = line.split(' ');
                if (fields.size() == 3 && fields.at(1) == "tree")
                    kept += fields.at(0) + '\n';
            }
            QSaveFile out(m_recordFile);
            if (!out.open(QIODevice::WriteOnly) || out.write(kept) != kept.size() || !out.commit())
                qCWarning(lcProcessor) << "snapshot: cannot rewrite" << m_recordFile << out.errorString();
        }
    }
    return {};
}

} // namespace weft
