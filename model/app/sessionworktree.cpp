// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionworktree.h"

#include "core/git.h"
#include "core/tr.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace weft::SessionWorktree
{

namespace
{
/// Whether @p path is @p folder or inside it (both canonical).
bool within(const QString &path, const QString &folder)
{
    return !folder.isEmpty() && (path == folder || path.startsWith(folder + u'/'));
}

Result<void> runSetupScript(const QString &script, const Worktree &worktree, const QString &mainPath)
{
    QProcess process;
    process.setProgram(u"sh"_s);
    process.setArguments({script});
    process.setWorkingDirectory(worktree.path);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"WEFT_WORKTREE"_s, worktree.path);
    environment.insert(u"WEFT_MAIN_CHECKOUT"_s, mainPath);
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start();
    if (!process.waitForStarted())
        return Error{WorktreeTr::tr("cannot run the setup script %1: %2").arg(script, process.errorString()),
                     worktree.path};
    if (!process.waitForFinished(SetupTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        return Error{WorktreeTr::tr("the setup script %1 did not finish in %n minute(s); the worktree %2 stays",
                                    nullptr, SetupTimeoutMs / 60000)
                         .arg(script, worktree.path),
                     worktree.path};
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        // Its last lines say why.
        const QStringList lines = QString::fromUtf8(process.readAll()).trimmed().split(u'\n');
        return Error{WorktreeTr::tr("the setup script %1 failed (exit code %2); the worktree %3 stays:\n%4")
                         .arg(script)
                         .arg(process.exitCode())
                         .arg(worktree.path, lines.mid(qMax(0, int(lines.size()) - 8)).join(u'\n')),
                     worktree.path};
    }
    return {};
}
} // namespace

QString setupScriptName()
{
    return u".weft/worktree-setup"_s;
}

QString setupScript(const QString &mainPath)
{
    const QFileInfo script(QDir(mainPath).filePath(setupScriptName()));
    return script.isFile() ? script.absoluteFilePath() : QString();
}

Result<Made> create(const QString &directory, const Worktrees::CreateOptions &options, bool runSetup)
{
    const Result<Worktrees> trees = Worktrees::open(directory);
    if (!trees)
        return trees.error();
    Result<Worktree> made = trees->create(options);
    if (!made)
        return made.error();
    // The session works in the same subfolder of the new worktree as it would have of its checkout.
    QString folder = made->path;
    if (const Result<QList<Worktree>> all = trees->list()) {
        const QString wanted = QFileInfo(directory).canonicalFilePath();
        for (const Worktree &w : all.value()) {
            const QString root = QFileInfo(w.path).canonicalFilePath();
            if (w.path != made->path && within(wanted, root)) {
                const QString sub = QDir(made->path).filePath(QDir(root).relativeFilePath(wanted));
                if (QFileInfo(sub).isDir())
                    folder = QDir::cleanPath(sub);
                break;
            }
        }
    }
    if (runSetup) {
        if (const QString script = setupScript(trees->mainPath()); !script.isEmpty()) {
            if (const Result<void> ran = runSetupScript(script, made.value(), trees->mainPath()); !ran)
                return ran.error();
        }
    }
    return Made{made.value(), folder};
}

Result<Worktree> holding(const QString &directory)
{
    const Result<Worktrees> trees = Worktrees::open(directory);
    if (!trees)
        return trees.error();
    const Result<QList<Worktree>> all = trees->list();
    if (!all)
        return all.error();
    const QString wanted = QFileInfo(directory).canonicalFilePath();
    // The deepest holds it: a worktree may be made inside the main checkout's folder.
    std::optional<Worktree> found;
    qsizetype depth = -1;
    for (const Worktree &w : all.value()) {
        const QString root = QFileInfo(w.path).canonicalFilePath();
        if (within(wanted, root) && root.size() > depth) {
            found = w;
            depth = root.size();
        }
    }
    if (!found || found->main)
        return Error{WorktreeTr::tr("%1 is not in a linked worktree of %2").arg(directory, trees->mainPath()),
                     directory};
    return *found;
}

Result<Worktree> fork(const Worktree &from, Worktrees::CreateOptions options)
{
    const Result<Worktrees> trees = Worktrees::open(from.path);
    if (!trees)
        return trees.error();
    // Its uncommitted changes: its diff against its own HEAD.
    Worktree current = from;
    current.base = from.head;
    const Result<QByteArray> uncommitted = trees->diff(current);
    if (!uncommitted)
        return uncommitted.error();
    options.base = from.head;
    Result<Worktree> made = trees->create(options);
    if (!made || uncommitted->isEmpty())
        return made;
    Git::Options run;
    run.workingDirectory = made->path;
    run.input = uncommitted.value();
    const Git::Output applied = Git::run({u"apply"_s, u"--binary"_s, u"--whitespace=nowarn"_s}, run);
    if (!applied.ok())
        return Error{WorktreeTr::tr("cannot copy the uncommitted changes of %1 into %2: %3")
                         .arg(from.path, made->path, applied.errorText()),
                     made->path};
    return made;
}

QList<FileDiff> splitPatch(const QByteArray &patch)
{
    QList<FileDiff> files;
    const QString text = QString::fromUtf8(patch);
    const QStringList lines = text.split(u'\n');
    const auto unquote = [](QString path) {
        if (path.size() >= 2 && path.startsWith(u'"') && path.endsWith(u'"'))
            path = path.mid(1, path.size() - 2);
        return path;
    };
    qsizetype start = -1;
    const auto close = [&](qsizetype end) {
        if (start < 0)
            return;
        const QStringList chunk = lines.mid(start, end - start);
        QString file;
        QString status = u"modified"_s;
        qint64 additions = 0;
        qint64 deletions = 0;
        bool inHunk = false;
        for (const QString &line : chunk) {
            if (!inHunk) {
                if (line.startsWith(u"new file mode"))
                    status = u"added"_s;
                else if (line.startsWith(u"deleted file mode"))
                    status = u"deleted"_s;
                else if (line.startsWith(u"+++ ") && line != u"+++ /dev/null")
                    file = unquote(line.mid(4)).mid(2);
                else if (line.startsWith(u"--- ") && line != u"--- /dev/null" && file.isEmpty())
                    file = unquote(line.mid(4)).mid(2);
                else if (line.startsWith(u"@@"))
                    inHunk = true;
                continue;
            }
            if (line.startsWith(u'+'))
                ++additions;
            else if (line.startsWith(u'-'))
                ++deletions;
        }
        if (file.isEmpty()) {
            // No hunk (a binary file, a mode change): the header names it, "diff --git a/X b/X".
            const QString header = chunk.first().mid(11);
            const qsizetype split = header.indexOf(u" b/"_s);
            file = unquote(split < 0 ? header : header.mid(split + 3));
        }
        QString own = chunk.join(u'\n');
        if (!own.endsWith(u'\n'))
            own += u'\n';
        files.append(FileDiff(JsonObject{{u"file"_s, file},
                                         {u"patch"_s, own},
                                         {u"status"_s, status},
                                         {u"additions"_s, additions},
                                         {u"deletions"_s, deletions}}));
        start = -1;
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).startsWith(u"diff --git "_s)) {
            close(i);
            start = i;
        }
    }
    // The text ends with a newline: its last "line" is empty.
    close(lines.size() && lines.last().isEmpty() ? lines.size() - 1 : lines.size());
    return files;
}

} // namespace weft::SessionWorktree
