// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/project.h"
#include "processor/snapshot.h"
#include "testdata.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::writeFile;

namespace
{

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Runs git in @p dir without letting it write anything optional (no index refresh).
QByteArray runGit(const QString &dir, const QStringList &args, int *code = nullptr)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"GIT_OPTIONAL_LOCKS"_s, u"0"_s);
    env.remove(u"GIT_DIR"_s);
    p.setProcessEnvironment(env);
    p.start(u"git"_s, QStringList{u"-c"_s, u"user.name=Test"_s, u"-c"_s, u"user.email=test@example.org"_s, u"-c"_s,
                                  u"commit.gpgsign=false"_s, u"-c"_s, u"init.defaultBranch=main"_s}
                          + args);
    p.waitForFinished(60000);
    if (code)
        *code = p.exitCode();
    return p.readAllStandardOutput();
}

/// Every file under @p dir with its size, modification time and content hash.
QStringList listing(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        out.append(u"%1 %2 %3 %4"_s.arg(QDir(dir).relativeFilePath(info.absoluteFilePath()))
                       .arg(info.size())
                       .arg(info.lastModified().toMSecsSinceEpoch())
                       .arg(QString::fromLatin1(QCryptographicHash::hash(readFile(info.absoluteFilePath()), QCryptographicHash::Sha1).toHex())));
    }
    out.sort();
    return out;
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

QStringList treeFiles(const QString &gitDir, const QString &hash)
{
    return sorted(QString::fromUtf8(runGit(gitDir, {u"--git-dir"_s, gitDir, u"ls-tree"_s, u"-r"_s, u"--name-only"_s, hash}))
                      .split(u'\n', Qt::SkipEmptyParts));
}

const QByteArray Binary("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);

/// A project with a few files; a git repository with one commit when asked.
struct TestProject {
    QTemporaryDir root;
    QString dir;
    QString data;
    QString id = u"global"_s;
    QString worktree = u"/"_s;

    explicit TestProject(bool git)
    {
        dir = QDir::cleanPath(root.path() + u"/project"_s);
        data = QDir::cleanPath(root.path() + u"/data"_s);
        QDir().mkpath(dir);
        if (!writeFile(dir + u"/a.txt"_s, "one\ntwo\nthree\n") || !writeFile(dir + u"/src/b.cpp"_s, "int b;\n")
            || !writeFile(dir + u"/del.txt"_s, "bye\n") || !writeFile(dir + u"/bin.dat"_s, Binary)
            || !writeFile(dir + u"/.gitignore"_s, "ignored.log\n") || !writeFile(dir + u"/ignored.log"_s, "noise\n"))
            qFatal("cannot write the test project in %s", qPrintable(dir));
        if (git) {
            runGit(dir, {u"init"_s, u"-q"_s});
            runGit(dir, {u"add"_s, u"-A"_s});
            runGit(dir, {u"commit"_s, u"-q"_s, u"-m"_s, u"initial"_s});
            const ProjectIdentity identity = identifyProject(dir);
            id = identity.id;
            worktree = identity.worktree;
        }
    }
    [[nodiscard]] QString p(const QString &rel) const { return dir + u'/' + rel; }
};

} // namespace

class TestSnapshot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!Git::available())
            QSKIP("the git program is not available");
    }

    void lifecycle_data()
    {
        QTest::addColumn<bool>("git");
        QTest::newRow("git-repository") << true;
        QTest::newRow("plain-directory") << false;
    }
    void lifecycle()
    {
        QFETCH(bool, git);
        TestProject project(git);
        QVERIFY(project.root.isValid());
        if (git) {
            QCOMPARE(project.id.size(), 40);
            QCOMPARE(QDir::cleanPath(project.worktree), project.dir);
        }
        const QStringList gitListingBefore = git ? listing(project.p(u".git"_s)) : QStringList();
        const QByteArray statusBefore = git ? runGit(project.dir, {u"status"_s, u"--porcelain"_s}) : QByteArray();

        Snapshot snapshot(project.data, project.id, project.worktree, project.dir);
        QCOMPARE(snapshot.gitDir(), project.data + u"/snapshot/"_s + project.id);
        QCOMPARE(snapshot.workTree(), project.dir);

        // track
        const auto h1 = snapshot.track();
        QVERIFY2(h1.ok(), qPrintable(h1.ok() ? QString() : h1.error().toString()));
        QCOMPARE(h1.value().size(), 40);
        QVERIFY(QFileInfo::exists(snapshot.gitDir() + u"/HEAD"_s));
        QVERIFY2(!QFileInfo::exists(snapshot.gitDir() + u"/hooks"_s), "no hooks in the shadow repository");
        QVERIFY(readFile(snapshot.gitDir() + u"/config"_s).contains("autocrlf = false"));
        QCOMPARE(treeFiles(snapshot.gitDir(), h1.value()),
                 (QStringList{u".gitignore"_s, u"a.txt"_s, u"bin.dat"_s, u"del.txt"_s, u"src/b.cpp"_s}));
        QCOMPARE(snapshot.track().value(), h1.value()); // nothing changed, same tree
        if (!git)
            QVERIFY2(!QFileInfo::exists(project.p(u".git"_s)), "a plain directory does not become a repository");

        // change: modify, add, delete, binary, ignored
        QVERIFY(writeFile(project.p(u"a.txt"_s), "one\nTWO\nthree\nfour\n"));
        QVERIFY(writeFile(project.p(u"new.txt"_s), "fresh\n"));
        QVERIFY(QFile::remove(project.p(u"del.txt"_s)));
        QVERIFY(writeFile(project.p(u"bin.dat"_s), Binary + QByteArray("\0more", 5)));
        QVERIFY(writeFile(project.p(u"ignored.log"_s), "more noise\n"));

        // patch
        const auto patch = snapshot.patch(h1.value());
        QVERIFY2(patch.ok(), qPrintable(patch.ok() ? QString() : patch.error().toString()));
        QCOMPARE(patch->hash, h1.value());
        QCOMPARE(sorted(patch->files), (QStringList{project.p(u"a.txt"_s), project.p(u"bin.dat"_s), project.p(u"del.txt"_s),
                                                    project.p(u"new.txt"_s)}));
        QVERIFY(!patch->tree.isEmpty());
        QVERIFY(patch->tree != h1.value());
        const auto h2 = snapshot.track();
        QVERIFY(h2.ok());
        QCOMPARE(h2.value(), patch->tree);

        // diff
        const auto text = snapshot.diff(h1.value());
        QVERIFY(text.ok());
        QVERIFY2(text->contains(u"-two\n+TWO"_s), qPrintable(text.value()));

        // diffFull
        const auto diffs = snapshot.diffFull(h1.value(), h2.value());
        QVERIFY2(diffs.ok(), qPrintable(diffs.ok() ? QString() : diffs.error().toString()));
        QCOMPARE(diffs->size(), 4);
        QHash<QString, FileDiff> byFile;
        for (const FileDiff &d : diffs.value())
            byFile.insert(d.file(), d);
        QCOMPARE(sorted(byFile.keys()), (QStringList{u"a.txt"_s, u"bin.dat"_s, u"del.txt"_s, u"new.txt"_s}));
        const FileDiff a = byFile.value(u"a.txt"_s);
        QCOMPARE(a.before(), u"one\ntwo\nthree\n"_s);
        QCOMPARE(a.after(), u"one\nTWO\nthree\nfour\n"_s);
        QCOMPARE(a.additions(), 2);
        QCOMPARE(a.deletions(), 1);
        QCOMPARE(a.json().keys(), (QStringList{u"file"_s, u"before"_s, u"after"_s, u"additions"_s, u"deletions"_s}));
        const FileDiff added = byFile.value(u"new.txt"_s);
        QCOMPARE(added.before(), QString());
        QCOMPARE(added.after(), u"fresh\n"_s);
        QCOMPARE(added.additions(), 1);
        QCOMPARE(added.deletions(), 0);
        const FileDiff removed = byFile.value(u"del.txt"_s);
        QCOMPARE(removed.before(), u"bye\n"_s);
        QCOMPARE(removed.after(), QString());
        QCOMPARE(removed.deletions(), 1);
        const FileDiff binary = byFile.value(u"bin.dat"_s);
        QVERIFY(binary.hasContents());
        QCOMPARE(binary.before(), QString());
        QCOMPARE(binary.after(), QString());
        QCOMPARE(binary.additions(), 0);
        QCOMPARE(binary.deletions(), 0);
        const auto none = snapshot.diffFull(h2.value(), h2.value());
        QVERIFY(none.ok());
        QVERIFY(none->isEmpty());

        // restore: everything as in h1, the new file gone, ignored files untouched
        const auto restored = snapshot.restore(h1.value());
        QVERIFY2(restored.ok(), qPrintable(restored.ok() ? QString() : restored.error().toString()));
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("one\ntwo\nthree\n"));
        QCOMPARE(readFile(project.p(u"del.txt"_s)), QByteArray("bye\n"));
        QCOMPARE(readFile(project.p(u"bin.dat"_s)), Binary);
        QVERIFY(!QFileInfo::exists(project.p(u"new.txt"_s)));
        QCOMPARE(readFile(project.p(u"ignored.log"_s)), QByteArray("more noise\n"));
        QCOMPARE(snapshot.track().value(), h1.value());

        // restore forward again, then revert single files from a patch
        QVERIFY(snapshot.restore(h2.value()).ok());
        QCOMPARE(readFile(project.p(u"new.txt"_s)), QByteArray("fresh\n"));
        QVERIFY(!QFileInfo::exists(project.p(u"del.txt"_s)));
        const auto reverted = snapshot.revert({Snapshot::Patch{h1.value(), {project.p(u"a.txt"_s), project.p(u"new.txt"_s)}, {}},
                                               // a later patch naming a.txt again does not win
                                               Snapshot::Patch{h2.value(), {project.p(u"a.txt"_s)}, {}}});
        QVERIFY2(reverted.ok(), qPrintable(reverted.ok() ? QString() : reverted.error().toString()));
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("one\ntwo\nthree\n"));
        QVERIFY2(!QFileInfo::exists(project.p(u"new.txt"_s)), "a file the step created is deleted");
        QVERIFY2(!QFileInfo::exists(project.p(u"del.txt"_s)), "files outside the patches stay as they are");
        QCOMPARE(readFile(project.p(u"bin.dat"_s)), Binary + QByteArray("\0more", 5));

        // back to the start: the user's repository is exactly as before
        QVERIFY(snapshot.restore(h1.value()).ok());
        QVERIFY(snapshot.cleanup().ok());
        if (git) {
            QCOMPARE(runGit(project.dir, {u"status"_s, u"--porcelain"_s}), statusBefore);
            QCOMPARE(listing(project.p(u".git"_s)), gitListingBefore);
        }
    }

    void outerGitEnvironmentIsIgnored()
    {
        TestProject project(true);
        const QStringList before = listing(project.p(u".git"_s));
        // As if Weft ran from a git hook: GIT_DIR points at the user's repository.
        qputenv("GIT_DIR", project.p(u".git"_s).toUtf8());
        qputenv("GIT_INDEX_FILE", project.p(u".git/index"_s).toUtf8());
        Snapshot snapshot(project.data, project.id, project.worktree, project.dir);
        const auto h1 = snapshot.track();
        QVERIFY(writeFile(project.p(u"a.txt"_s), "changed\n"));
        const auto patch = snapshot.patch(h1.value());
        const auto restored = snapshot.restore(h1.value());
        qunsetenv("GIT_DIR");
        qunsetenv("GIT_INDEX_FILE");
        QVERIFY(h1.ok());
        QVERIFY(patch.ok());
        QCOMPARE(patch->files, QStringList{project.p(u"a.txt"_s)});
        QVERIFY(restored.ok());
        QCOMPARE(listing(project.p(u".git"_s)), before);
        QVERIFY(QFileInfo::exists(snapshot.gitDir() + u"/HEAD"_s));
    }

    void largeFiles()
    {
        TestProject project(false);
        Snapshot snapshot(project.data, project.id, project.worktree, project.dir);
        snapshot.setMaxFileSize(1024);
        QCOMPARE(snapshot.maxFileSize(), 1024);
        QVERIFY(writeFile(project.p(u"big.txt"_s), QByteArray(4096, 'x')));
        QVERIFY(writeFile(project.p(u"weird *name?.txt"_s), QByteArray(4096, 'y')));
        QVERIFY(writeFile(project.p(u"grow.txt"_s), "small\n"));
        QVERIFY(writeFile(project.p(u"medium.txt"_s), QByteArray(800, 'm') + '\n'));
        const auto h1 = snapshot.track();
        QVERIFY(h1.ok());
        QStringList files = treeFiles(snapshot.gitDir(), h1.value());
        QVERIFY(!files.contains(u"big.txt"_s));
        QVERIFY(!files.contains(u"weird *name?.txt"_s));
        QVERIFY(files.contains(u"grow.txt"_s));
        QVERIFY(files.contains(u"medium.txt"_s));

        // A tracked file that grows too large leaves the snapshot, and restoring never deletes it.
        QVERIFY(writeFile(project.p(u"grow.txt"_s), QByteArray(5000, 'g')));
        QVERIFY(writeFile(project.p(u"medium.txt"_s), QByteArray(900, 'M') + '\n'));
        const auto h2 = snapshot.track();
        QVERIFY(h2.ok());
        files = treeFiles(snapshot.gitDir(), h2.value());
        QVERIFY(!files.contains(u"grow.txt"_s));
        QVERIFY(snapshot.restore(h2.value()).ok());
        QCOMPARE(readFile(project.p(u"grow.txt"_s)).size(), 5000);
        QCOMPARE(readFile(project.p(u"big.txt"_s)).size(), 4096);

        // Contents over the limit are left out of diffFull, the counts stay.
        snapshot.setMaxFileSize(100);
        const auto diffs = snapshot.diffFull(h1.value(), h2.value());
        QVERIFY(diffs.ok());
        bool sawMedium = false;
        for (const FileDiff &d : diffs.value()) {
            if (d.file() != u"medium.txt")
                continue;
            sawMedium = true;
            QCOMPARE(d.before(), QString());
            QCOMPARE(d.after(), QString());
            QCOMPARE(d.additions(), 1);
            QCOMPARE(d.deletions(), 1);
        }
        QVERIFY(sawMedium);
    }

    void invalidHashes_data()
    {
        QTest::addColumn<QString>("hash");
        QTest::newRow("option-injection") << u"--output=/tmp/weft-pwned"_s;
        QTest::newRow("not-hex") << u"zzzz"_s;
        QTest::newRow("empty") << QString();
        QTest::newRow("unknown-object") << u"0123456789abcdef0123456789abcdef01234567"_s;
        QTest::newRow("range") << u"HEAD~1"_s;
    }
    void invalidHashes()
    {
        QFETCH(QString, hash);
        TestProject project(false);
        Snapshot snapshot(project.data, project.id, project.worktree, project.dir);
        const auto h = snapshot.track();
        QVERIFY(h.ok());
        QVERIFY(!snapshot.patch(hash).ok());
        QVERIFY(!snapshot.diff(hash).ok());
        QVERIFY(!snapshot.diffFull(hash, h.value()).ok());
        QVERIFY(!snapshot.diffFull(h.value(), hash).ok());
        QVERIFY(!snapshot.restore(hash).ok());
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("one\ntwo\nthree\n"));
        QVERIFY(!QFileInfo::exists(u"/tmp/weft-pwned"_s));
        // revert skips such patches and reports unknown trees
        const auto reverted = snapshot.revert({Snapshot::Patch{hash, {project.p(u"a.txt"_s)}, {}}});
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("one\ntwo\nthree\n"));
        Q_UNUSED(reverted)
    }

    void revertIgnoresOutsideFiles()
    {
        TestProject project(false);
        QVERIFY(writeFile(project.root.path() + u"/outside.txt"_s, "keep me\n"));
        Snapshot snapshot(project.data, project.id, project.worktree, project.dir);
        const auto h = snapshot.track();
        QVERIFY(h.ok());
        const auto reverted = snapshot.revert({Snapshot::Patch{
            h.value(), {project.root.path() + u"/outside.txt"_s, project.p(u"../outside.txt"_s), project.dir}, {}}});
        QVERIFY(reverted.ok());
        QCOMPARE(readFile(project.root.path() + u"/outside.txt"_s), QByteArray("keep me\n"));
        QVERIFY(QFileInfo(project.dir).isDir());
    }

    void revertRelativeAndNested()
    {
        TestProject project(true);
        Snapshot snapshot(project.data, project.id, project.worktree, project.dir);
        const auto h1 = snapshot.track();
        QVERIFY(h1.ok());
        QVERIFY(writeFile(project.p(u"src/b.cpp"_s), "int b = 2;\n"));
        QVERIFY(writeFile(project.p(u"src/deep/new/file.h"_s), "#pragma once\n"));
        const auto patch = snapshot.patch(h1.value());
        QVERIFY(patch.ok());
        QCOMPARE(sorted(patch->files), (QStringList{project.p(u"src/b.cpp"_s), project.p(u"src/deep/new/file.h"_s)}));
        QVERIFY(snapshot.revert({patch.value()}).ok());
        QCOMPARE(readFile(project.p(u"src/b.cpp"_s)), QByteArray("int b;\n"));
        QVERIFY(!QFileInfo::exists(project.p(u"src/deep/new/file.h"_s)));
        QCOMPARE(snapshot.track().value(), h1.value());
    }

    void revertRefusesSnapshotsNotMadeHere()
    {
        // git knows the empty tree in every repository, and a tree written for another folder
        // exists in the shared one: neither is a snapshot of this work tree made here.
        QTemporaryDir root;
        const QString data = root.path() + u"/data"_s;
        const QString home = root.path() + u"/home"_s;
        const QString other = root.path() + u"/other"_s;
        QVERIFY(writeFile(home + u"/notes.txt"_s, "notes\n"));
        QVERIFY(writeFile(home + u"/docs/thesis.tex"_s, "thesis\n"));
        QVERIFY(writeFile(other + u"/x.txt"_s, "x\n"));
        Snapshot snapshot(data, u"global"_s, u"/"_s, home);
        Snapshot elsewhere(data, u"global"_s, u"/"_s, other);
        const auto own = snapshot.track();
        const auto foreign = elsewhere.track();
        QVERIFY(own.ok());
        QVERIFY(foreign.ok());
        QVERIFY(snapshot.madeHere(own.value()));
        QVERIFY(!snapshot.madeHere(foreign.value()));
        const QString emptyTree = u"4b825dc642cb6eb9a060e54bf8d69288fbee4904"_s;
        QVERIFY(!snapshot.madeHere(emptyTree));
        QVERIFY(!snapshot.madeHere(own.value().left(12))); // abbreviations are not taken
        const QStringList files{home + u"/notes.txt"_s, home + u"/docs/thesis.tex"_s};
        for (const QString &hash : {emptyTree, foreign.value()}) {
            const auto reverted = snapshot.revert({Snapshot::Patch{hash, files, {}}});
            QVERIFY(!reverted.ok());
            QVERIFY2(reverted.error().message.contains(u"not made by Weft on this machine"_s), qPrintable(reverted.error().message));
            QVERIFY(!snapshot.planRevert({Snapshot::Patch{hash, files, {}}}).ok());
            QVERIFY(!snapshot.restore(hash).ok());
            // A patch made here next to it does not make the foreign one acceptable.
            QVERIFY(!snapshot.revert({Snapshot::Patch{own.value(), {}, {}}, Snapshot::Patch{hash, files, {}}}).ok());
        }
        QCOMPARE(readFile(home + u"/notes.txt"_s), QByteArray("notes\n"));
        QCOMPARE(readFile(home + u"/docs/thesis.tex"_s), QByteArray("thesis\n"));
        // The record survives cleanup, once per tree.
        QVERIFY(snapshot.cleanup().ok());
        QVERIFY(snapshot.madeHere(own.value()));
    }

    void revertKeepsWhatNoSnapshotHolds()
    {
        // A file over the size limit is in no snapshot: reverting it would lose its content for
        // good (an unrevert restores only snapshots), so the revert refuses and touches nothing.
        TestProject project(false);
        Snapshot snapshot(project.data, project.id, project.worktree, project.dir);
        snapshot.setMaxFileSize(1024);
        QVERIFY(writeFile(project.p(u"grow.txt"_s), "small\n"));
        const auto h1 = snapshot.track();
        QVERIFY(h1.ok());
        QVERIFY(writeFile(project.p(u"grow.txt"_s), QByteArray(5000, 'g')));
        QVERIFY(writeFile(project.p(u"a.txt"_s), "changed\n"));
        const auto patch = snapshot.patch(h1.value());
        QVERIFY(patch.ok());
        QVERIFY(patch->files.contains(project.p(u"grow.txt"_s)));
        const auto plan = snapshot.planRevert({patch.value()});
        QVERIFY(!plan.ok());
        QVERIFY2(plan.error().message.contains(u"grow.txt"_s), qPrintable(plan.error().message));
        const auto reverted = snapshot.revert({patch.value()});
        QVERIFY(!reverted.ok());
        QCOMPARE(readFile(project.p(u"grow.txt"_s)), QByteArray(5000, 'g'));
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("changed\n"));

        // Without it, the revert goes ahead, and restoring the state before it brings back
        // exactly what it changed.
        QVERIFY(QFile::remove(project.p(u"grow.txt"_s)));
        QVERIFY(writeFile(project.p(u"fresh.txt"_s), "created by the step\n"));
        const auto patch2 = snapshot.patch(h1.value());
        QVERIFY(patch2.ok());
        const auto before = snapshot.track();
        QVERIFY(before.ok());
        const auto planned = snapshot.planRevert({patch2.value()});
        QVERIFY2(planned.ok(), qPrintable(planned.ok() ? QString() : planned.error().toString()));
        QCOMPARE(planned->remove, QStringList{project.p(u"fresh.txt"_s)});
        QCOMPARE(sorted(planned->restore), (QStringList{project.p(u"a.txt"_s), project.p(u"grow.txt"_s)}));
        const auto done = snapshot.revert({patch2.value()});
        QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().toString()));
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("one\ntwo\nthree\n"));
        QCOMPARE(readFile(project.p(u"grow.txt"_s)), QByteArray("small\n"));
        QVERIFY(!QFileInfo::exists(project.p(u"fresh.txt"_s)));
        QVERIFY(snapshot.restore(before.value()).ok());
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("changed\n"));
        QCOMPARE(readFile(project.p(u"fresh.txt"_s)), QByteArray("created by the step\n"));
        QVERIFY(!QFileInfo::exists(project.p(u"grow.txt"_s)));
    }

    void subdirectorySession()
    {
        TestProject project(true);
        QVERIFY(writeFile(project.p(u"sub/x.txt"_s), "x\n"));
        runGit(project.dir, {u"add"_s, u"-A"_s});
        runGit(project.dir, {u"commit"_s, u"-q"_s, u"-m"_s, u"sub"_s});
        Snapshot snapshot(project.data, project.id, project.worktree, project.p(u"sub"_s));
        QCOMPARE(snapshot.directory(), project.p(u"sub"_s));
        const auto h1 = snapshot.track();
        QVERIFY(h1.ok());
        QVERIFY(writeFile(project.p(u"a.txt"_s), "changed outside the session folder\n"));
        QVERIFY(writeFile(project.p(u"sub/x.txt"_s), "X\n"));
        QVERIFY(writeFile(project.p(u"sub/y.txt"_s), "y\n"));
        const auto patch = snapshot.patch(h1.value());
        QVERIFY(patch.ok());
        QCOMPARE(sorted(patch->files), (QStringList{project.p(u"sub/x.txt"_s), project.p(u"sub/y.txt"_s)}));
        QVERIFY(snapshot.restore(h1.value()).ok());
        QCOMPARE(readFile(project.p(u"sub/x.txt"_s)), QByteArray("x\n"));
        QVERIFY(!QFileInfo::exists(project.p(u"sub/y.txt"_s)));
        QCOMPARE(readFile(project.p(u"a.txt"_s)), QByteArray("changed outside the session folder\n"));
    }

    void clonesShareRepositoryNotIndex()
    {
        // Two folders of the same project (clones share the root commit): one shadow repository,
        // separate indexes, so one never deletes the other's files.
        QTemporaryDir root;
        const QString data = root.path() + u"/data"_s;
        const QString a = root.path() + u"/a"_s;
        const QString b = root.path() + u"/b"_s;
        QVERIFY(writeFile(a + u"/only-a.txt"_s, "a\n"));
        QVERIFY(writeFile(b + u"/only-b.txt"_s, "b\n"));
        Snapshot sa(data, u"global"_s, u"/"_s, a);
        Snapshot sb(data, u"global"_s, u"/"_s, b);
        QCOMPARE(sa.gitDir(), sb.gitDir());
        const auto ha = sa.track();
        const auto hb = sb.track();
        QVERIFY(ha.ok());
        QVERIFY(hb.ok());
        QVERIFY(ha.value() != hb.value());
        QVERIFY(writeFile(a + u"/later-a.txt"_s, "later\n"));
        QVERIFY(sa.track().ok());
        QVERIFY(sa.restore(ha.value()).ok());
        QVERIFY(!QFileInfo::exists(a + u"/later-a.txt"_s));
        QVERIFY(QFileInfo::exists(a + u"/only-a.txt"_s));
        QVERIFY(sb.restore(hb.value()).ok());
        QVERIFY(QFileInfo::exists(b + u"/only-b.txt"_s));
        QVERIFY(!QFileInfo::exists(b + u"/only-a.txt"_s));
        QVERIFY(QFileInfo::exists(a + u"/only-a.txt"_s));
        const QStringList indexes = QDir(sa.gitDir()).entryList({u"index*"_s}, QDir::Files);
        QCOMPARE(indexes.size(), 2);
    }

    void missingDirectory()
    {
        QTemporaryDir root;
        Snapshot snapshot(root.path() + u"/data"_s, u"global"_s, u"/"_s, root.path() + u"/does-not-exist"_s);
        const auto h = snapshot.track();
        QVERIFY(!h.ok());
        QVERIFY(!snapshot.restore(u"abcd"_s).ok());
    }
};

QTEST_GUILESS_MAIN(TestSnapshot)
#include "tst_snapshot.moc"
