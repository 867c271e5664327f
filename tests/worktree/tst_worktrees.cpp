// SPDX-License-Identifier: GPL-3.0-or-later
// Worktrees against real git repositories made by the test: create, list, status, diff, commit,
// the three ways of applying (a conflicting one each), remove, and hostile names.
#include "core/git.h"
#include "testdata.h"
#include "worktree/worktrees.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace weft;
using weft::test::readFile;
using weft::test::writeFile;
using namespace Qt::StringLiterals;

namespace
{
Git::Output git(const QString &dir, const QStringList &args)
{
    Git::Options options;
    options.workingDirectory = dir;
    return Git::run(args, options);
}

} // namespace

class TestWorktrees : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void createListAndFind();
    void createsAtOnceFromManyThreads();
    void opensWhileOthersAreMade();
    void statusDiffAndCommit();
    void mergeBringsTheBranch();
    void mergeConflictLeavesMainAsItWas();
    void rebaseThenFastForward();
    void rebaseConflictLeavesBothAsTheyWere();
    void diffAppliesUncommittedWork();
    void diffConflictIsShown();
    void mergeRefusesDirtyMain();
    void removeRefusesUncommittedUnlessForced();
    void hostileNamesAndRevisions_data();
    void hostileNamesAndRevisions();
    void notARepository();

private:
    /// A worktree made from the test's repository, with @p file changed in it and committed.
    Worktree workedOn(const QString &name, const QString &file, const QByteArray &content);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_repo;
    std::optional<Worktrees> m_trees;
};

void TestWorktrees::init()
{
    if (!Git::available())
        QSKIP("git is not installed");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_repo = m_dir->filePath(u"app"_s);
    QVERIFY(QDir().mkpath(m_repo));
    QVERIFY(git(m_repo, {u"init"_s, u"--quiet"_s, u"--initial-branch=main"_s}).ok());
    QVERIFY(git(m_repo, {u"config"_s, u"user.name"_s, u"Test"_s}).ok());
    QVERIFY(git(m_repo, {u"config"_s, u"user.email"_s, u"test@example.com"_s}).ok());
    QVERIFY(writeFile(m_repo + u"/main.c"_s, "int main() { return 0; }\n"));
    QVERIFY(writeFile(m_repo + u"/README"_s, "one\ntwo\nthree\n"));
    QVERIFY(git(m_repo, {u"add"_s, u"-A"_s}).ok());
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"first"_s}).ok());
    Result<Worktrees> trees = Worktrees::open(m_repo + u"/"_s);
    QVERIFY2(trees, qPrintable(trees ? QString() : trees.error().toString()));
    m_trees.emplace(trees.value());
}

Worktree TestWorktrees::workedOn(const QString &name, const QString &file, const QByteArray &content)
{
    Result<Worktree> created = m_trees->create({.name = name});
    if (!created) {
        qWarning() << created.error().toString();
        return {};
    }
    if (!writeFile(created->path + u'/' + file, content) || !m_trees->commit(*created, u"work on "_s + file))
        return {};
    const Result<Worktree> found = m_trees->find(created->path);
    return found ? found.value() : Worktree();
}

void TestWorktrees::createListAndFind()
{
    QCOMPARE(m_trees->mainPath(), QFileInfo(m_repo).canonicalFilePath());
    QCOMPARE(m_trees->defaultParent(), m_dir->filePath(u"app.worktrees"_s));
    const QString head = git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line();

    const Result<Worktree> created = m_trees->create({.name = u"fix-parser"_s});
    QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
    QCOMPARE(created->path, m_dir->filePath(u"app.worktrees/fix-parser"_s));
    QCOMPARE(created->branch, u"weft/fix-parser"_s);
    QCOMPARE(created->base, head);
    QCOMPARE(created->head, head);
    QVERIFY(!created->main);
    QVERIFY(QFile::exists(created->path + u"/main.c"_s));

    // Opened from inside the linked worktree, it is the same repository.
    const Result<Worktrees> fromInside = Worktrees::open(created->path);
    QVERIFY(fromInside);
    QCOMPARE(fromInside->mainPath(), m_trees->mainPath());

    const Result<QList<Worktree>> all = m_trees->list();
    QVERIFY(all);
    QCOMPARE(all->size(), 2);
    QVERIFY(all->at(0).main);
    QCOMPARE(all->at(0).branch, u"main"_s);
    QVERIFY(all->at(0).base.isEmpty());
    QCOMPARE(all->at(1), created.value());

    // Elsewhere, from another base, on a branch of the caller's choice.
    QVERIFY(writeFile(m_repo + u"/README"_s, "changed\n"));
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-am"_s, u"second"_s}).ok());
    const QString parent = m_dir->filePath(u"elsewhere"_s);
    const Result<Worktree> second
        = m_trees->create({.name = u"old"_s, .branch = u"feature/old"_s, .base = head, .parent = parent});
    QVERIFY2(second, qPrintable(second ? QString() : second.error().toString()));
    QCOMPARE(second->path, parent + u"/old"_s);
    QCOMPARE(second->branch, u"feature/old"_s);
    QCOMPARE(second->base, head);
    QCOMPARE(readFile(second->path + u"/README"_s), QByteArray("one\ntwo\nthree\n"));

    // Names and branches are not taken twice.
    QVERIFY(!m_trees->create({.name = u"fix-parser"_s}));
    QVERIFY(!m_trees->create({.name = u"other"_s, .branch = u"weft/fix-parser"_s}));
    QVERIFY(!m_trees->find(m_dir->path()));
}

void TestWorktrees::createsAtOnceFromManyThreads()
{
    // Git fails instead of waiting for its own locks (.git/config.lock, .git/worktrees): made at
    // once from six threads (best of N, a fork and a new session together), every worktree is
    // made, with its base recorded, and removed again.
    constexpr int count = 6;
    std::array<std::optional<Result<Worktree>>, count> made;
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i)
        threads.emplace_back([this, i, &made] { made[i] = m_trees->create({.name = u"at-once-%1"_s.arg(i)}); });
    for (std::thread &t : threads)
        t.join();
    const QString head = git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line();
    for (const std::optional<Result<Worktree>> &m : made) {
        QVERIFY(m.has_value());
        QVERIFY2(*m, qPrintable(*m ? QString() : m->error().toString()));
        QCOMPARE((*m)->base, head);
    }
    QCOMPARE(m_trees->list()->size(), count + 1);
    threads.clear();
    std::array<std::optional<Result<void>>, count> removed;
    for (int i = 0; i < count; ++i)
        threads.emplace_back([this, i, &made, &removed] { removed[i] = m_trees->remove(made[i]->value()); });
    for (std::thread &t : threads)
        t.join();
    for (const std::optional<Result<void>> &r : removed)
        QVERIFY2(r && *r, qPrintable(r && !*r ? r->error().toString() : QString()));
    QCOMPARE(m_trees->list()->size(), 1);
}

void TestWorktrees::opensWhileOthersAreMade()
{
    // Best of N checks a finished run's worktree (open() from it, then list()) while the next
    // run's worktree is made: a list of the worktrees read meanwhile can find the new one half
    // made, and git then fails. Opened from a linked worktree and from the main checkout, again
    // and again while eight worktrees are made and removed, every open and list succeeds.
    const Result<Worktree> first = m_trees->create({.name = u"first"_s});
    QVERIFY(first);
    constexpr int count = 8;
    std::atomic_bool making = true;
    std::atomic_int failures = 0;
    QString failure;
    std::mutex failureLock;
    std::vector<std::thread> readers;
    for (const QString &from : {first->path, m_repo}) {
        readers.emplace_back([&, from] {
            while (making) {
                const Result<Worktrees> opened = Worktrees::open(from);
                const Result<QList<Worktree>> all = opened ? opened->list() : Result<QList<Worktree>>(opened.error());
                if (!all) {
                    ++failures;
                    const std::lock_guard held(failureLock);
                    failure = all.error().toString();
                }
            }
        });
    }
    std::atomic_int made = 0;
    std::vector<std::thread> makers;
    for (int i = 0; i < count; ++i) {
        makers.emplace_back([this, i, &made] {
            if (const Result<Worktree> w = m_trees->create({.name = u"made-%1"_s.arg(i)}); w && m_trees->remove(w.value()))
                ++made;
        });
    }
    for (std::thread &t : makers)
        t.join();
    making = false;
    for (std::thread &t : readers)
        t.join();
    QCOMPARE(int(made), count);
    QVERIFY2(failures == 0, qPrintable(u"%1 failed: %2"_s.arg(int(failures)).arg(failure)));
    QVERIFY(m_trees->remove(first.value()));
}

void TestWorktrees::statusDiffAndCommit()
{
    const Result<Worktree> w = m_trees->create({.name = u"status"_s});
    QVERIFY(w);
    Result<WorktreeStatus> state = m_trees->status(*w);
    QVERIFY(state);
    QVERIFY(state->uncommitted.isEmpty());
    QCOMPARE(state->commits, 0);
    QVERIFY(!m_trees->commit(*w, u"nothing"_s));

    QVERIFY(writeFile(w->path + u"/main.c"_s, "int main() { return 1; }\n"));
    QVERIFY(writeFile(w->path + u"/src/new file.c"_s, "void f(void) {}\n"));
    state = m_trees->status(*w);
    QVERIFY(state);
    QCOMPARE(state->uncommitted, (QStringList{u"main.c"_s, u"src/new file.c"_s}));

    // The diff holds the new file too, and leaves the worktree's index alone.
    const Result<QByteArray> diff = m_trees->diff(*w);
    QVERIFY(diff);
    QVERIFY(diff->contains("+int main() { return 1; }"));
    QVERIFY(diff->contains("new file.c"));
    QVERIFY(git(w->path, {u"diff"_s, u"--cached"_s, u"--name-only"_s}).out.isEmpty());

    QVERIFY(!m_trees->commit(*w, u"  "_s));
    const Result<QString> commit = m_trees->commit(*w, u"Return 1\n\nA body with \"quotes\" and --options"_s);
    QVERIFY2(commit, qPrintable(commit ? QString() : commit.error().toString()));
    QCOMPARE(git(w->path, {u"log"_s, u"-1"_s, u"--format=%B"_s}).line(), u"Return 1\n\nA body with \"quotes\" and --options"_s);
    state = m_trees->status(*w);
    QVERIFY(state->uncommitted.isEmpty());
    QCOMPARE(state->commits, 1);
    // Committed work is still what it changed since its base.
    QVERIFY(m_trees->diff(*w)->contains("new file.c"));
}

void TestWorktrees::mergeBringsTheBranch()
{
    const Worktree w = workedOn(u"merge"_s, u"feature.c"_s, "int feature;\n");
    QVERIFY(!w.path.isEmpty());
    const Result<ApplyResult> applied = m_trees->apply(w, ApplyMode::Merge);
    QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().toString()));
    QVERIFY(applied->clean());
    QCOMPARE(readFile(m_repo + u"/feature.c"_s), QByteArray("int feature;\n"));
    QCOMPARE(git(m_repo, {u"rev-list"_s, u"--count"_s, u"--merges"_s, u"HEAD"_s}).line(), u"1"_s);
}

void TestWorktrees::mergeConflictLeavesMainAsItWas()
{
    const Worktree w = workedOn(u"conflict"_s, u"README"_s, "one\nTWO from the worktree\nthree\n");
    QVERIFY(!w.path.isEmpty());
    QVERIFY(writeFile(m_repo + u"/README"_s, "one\nTWO from main\nthree\n"));
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-am"_s, u"main's change"_s}).ok());
    const QString before = git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line();

    const Result<ApplyResult> applied = m_trees->apply(w, ApplyMode::Merge);
    QVERIFY(applied);
    QCOMPARE(applied->conflicts, QStringList{u"README"_s});
    QCOMPARE(git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line(), before);
    QCOMPARE(readFile(m_repo + u"/README"_s), QByteArray("one\nTWO from main\nthree\n"));
    QVERIFY(git(m_repo, {u"status"_s, u"--porcelain"_s}).out.isEmpty());
}

void TestWorktrees::rebaseThenFastForward()
{
    const Worktree w = workedOn(u"rebase"_s, u"feature.c"_s, "int feature;\n");
    QVERIFY(!w.path.isEmpty());
    QVERIFY(writeFile(m_repo + u"/other.c"_s, "int other;\n"));
    QVERIFY(git(m_repo, {u"add"_s, u"other.c"_s}).ok());
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"other"_s}).ok());

    const Result<ApplyResult> applied = m_trees->apply(w, ApplyMode::Rebase);
    QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().toString()));
    QVERIFY(applied->clean());
    // A straight line: main's commit, then the worktree's; no merge commit.
    QCOMPARE(git(m_repo, {u"log"_s, u"--format=%s"_s}).line(), u"work on feature.c\nother\nfirst"_s);
    QCOMPARE(git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line(), git(w.path, {u"rev-parse"_s, u"HEAD"_s}).line());
}

void TestWorktrees::rebaseConflictLeavesBothAsTheyWere()
{
    const Worktree w = workedOn(u"rebase-conflict"_s, u"README"_s, "one\nTWO from the worktree\nthree\n");
    QVERIFY(!w.path.isEmpty());
    QVERIFY(writeFile(m_repo + u"/README"_s, "one\nTWO from main\nthree\n"));
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-am"_s, u"main's change"_s}).ok());
    const QString mainBefore = git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line();
    const QString worktreeBefore = git(w.path, {u"rev-parse"_s, u"HEAD"_s}).line();

    const Result<ApplyResult> applied = m_trees->apply(w, ApplyMode::Rebase);
    QVERIFY(applied);
    QCOMPARE(applied->conflicts, QStringList{u"README"_s});
    QCOMPARE(git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line(), mainBefore);
    QCOMPARE(git(w.path, {u"rev-parse"_s, u"HEAD"_s}).line(), worktreeBefore);
    QVERIFY(git(w.path, {u"status"_s, u"--porcelain"_s}).out.isEmpty());
}

void TestWorktrees::diffAppliesUncommittedWork()
{
    const Result<Worktree> w = m_trees->create({.name = u"diff"_s});
    QVERIFY(w);
    QVERIFY(writeFile(w->path + u"/main.c"_s, "int main() { return 2; }\n"));
    QVERIFY(writeFile(w->path + u"/added.bin"_s, QByteArray("\x00\x01\x02 binary", 10)));
    const QString before = git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line();

    const Result<ApplyResult> applied = m_trees->apply(*w, ApplyMode::Diff);
    QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().toString()));
    QVERIFY(applied->clean());
    // As changes in the main checkout, not a commit.
    QCOMPARE(git(m_repo, {u"rev-parse"_s, u"HEAD"_s}).line(), before);
    QCOMPARE(readFile(m_repo + u"/main.c"_s), QByteArray("int main() { return 2; }\n"));
    QCOMPARE(readFile(m_repo + u"/added.bin"_s), QByteArray("\x00\x01\x02 binary", 10));
    // Nothing to bring: nothing done.
    const Result<Worktree> empty = m_trees->create({.name = u"empty"_s});
    QVERIFY(empty);
    QVERIFY(m_trees->apply(*empty, ApplyMode::Diff)->clean());
}

void TestWorktrees::diffConflictIsShown()
{
    const Result<Worktree> w = m_trees->create({.name = u"diff-conflict"_s});
    QVERIFY(w);
    QVERIFY(writeFile(w->path + u"/README"_s, "one\nTWO from the worktree\nthree\n"));
    QVERIFY(writeFile(w->path + u"/clean.c"_s, "int clean;\n"));
    QVERIFY(writeFile(m_repo + u"/README"_s, "one\nTWO from main\nthree\n"));
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-am"_s, u"main's change"_s}).ok());

    const Result<ApplyResult> applied = m_trees->apply(*w, ApplyMode::Diff);
    QVERIFY2(applied, qPrintable(applied ? QString() : applied.error().toString()));
    QCOMPARE(applied->conflicts, QStringList{u"README"_s});
    // The conflict is in the file for the user to resolve; the rest applied.
    const QByteArray readme = readFile(m_repo + u"/README"_s);
    QVERIFY2(readme.contains("<<<<<<<") && readme.contains("TWO from the worktree") && readme.contains("TWO from main"),
             readme.constData());
    QCOMPARE(readFile(m_repo + u"/clean.c"_s), QByteArray("int clean;\n"));
}

void TestWorktrees::mergeRefusesDirtyMain()
{
    const Worktree w = workedOn(u"dirty-main"_s, u"feature.c"_s, "int feature;\n");
    QVERIFY(!w.path.isEmpty());
    QVERIFY(writeFile(m_repo + u"/README"_s, "uncommitted\n"));
    for (ApplyMode mode : {ApplyMode::Merge, ApplyMode::Rebase}) {
        const Result<ApplyResult> applied = m_trees->apply(w, mode);
        QVERIFY(!applied);
        QVERIFY2(applied.error().toString().contains(u"uncommitted"_s), qPrintable(applied.error().toString()));
    }
    QCOMPARE(readFile(m_repo + u"/README"_s), QByteArray("uncommitted\n"));
    QVERIFY(!QFile::exists(m_repo + u"/feature.c"_s));
    // The main checkout is never applied to itself, nor removed.
    const Worktree main = m_trees->list()->first();
    QVERIFY(!m_trees->apply(main, ApplyMode::Diff));
    QVERIFY(!m_trees->remove(main, true));
}

void TestWorktrees::removeRefusesUncommittedUnlessForced()
{
    const Result<Worktree> w = m_trees->create({.name = u"remove"_s});
    QVERIFY(w);
    QVERIFY(writeFile(w->path + u"/draft.txt"_s, "unsaved work\n"));
    const Result<void> refused = m_trees->remove(*w);
    QVERIFY(!refused);
    QVERIFY2(refused.error().toString().contains(u"1 uncommitted change"_s), qPrintable(refused.error().toString()));
    QVERIFY(QFile::exists(w->path + u"/draft.txt"_s));

    QVERIFY(m_trees->remove(*w, true));
    QVERIFY(!QFile::exists(w->path));
    QCOMPARE(m_trees->list()->size(), 1);
    // Its branch stays: committed work is never lost with the folder.
    QVERIFY(git(m_repo, {u"rev-parse"_s, u"--verify"_s, u"refs/heads/weft/remove"_s}).ok());

    // A clean one goes without asking; one whose folder is gone is forgotten.
    const Result<Worktree> clean = m_trees->create({.name = u"clean"_s});
    QVERIFY(clean);
    QVERIFY(m_trees->remove(*clean));
    const Result<Worktree> gone = m_trees->create({.name = u"gone"_s});
    QVERIFY(gone);
    QVERIFY(QDir(gone->path).removeRecursively());
    const Result<Worktree> prunable = m_trees->find(gone->path);
    QVERIFY(!prunable); // its folder is gone: find() cannot match it; list() still says it
    const QList<Worktree> all = m_trees->list().value();
    QCOMPARE(all.size(), 2);
    QVERIFY(all.at(1).prunable);
    QVERIFY(m_trees->remove(all.at(1)));
    QCOMPARE(m_trees->list()->size(), 1);
}

void TestWorktrees::hostileNamesAndRevisions_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("branch");
    QTest::addColumn<QString>("base");
    QTest::addColumn<QString>("why");
    const QString badName = u"cannot name a worktree"_s;
    QTest::addRow("path in the name") << u"../../etc"_s << QString() << QString() << badName;
    QTest::addRow("absolute name") << u"/tmp/x"_s << QString() << QString() << badName;
    QTest::addRow("option as name") << u"--force"_s << QString() << QString() << badName;
    QTest::addRow("dot name") << u".git"_s << QString() << QString() << badName;
    QTest::addRow("dots in the name") << u"a..b"_s << QString() << QString() << badName;
    QTest::addRow("empty name") << QString() << QString() << QString() << badName;
    QTest::addRow("space in the name") << u"a b"_s << QString() << QString() << badName;
    QTest::addRow("too long") << QString(65, u'a') << QString() << QString() << badName;
    QTest::addRow("option as branch") << u"ok1"_s << u"--orphan"_s << QString() << u"cannot name a branch"_s;
    QTest::addRow("bad branch") << u"ok2"_s << u"a..b"_s << QString() << u"cannot name a branch"_s;
    QTest::addRow("option as base") << u"ok3"_s << QString() << u"--output=/tmp/pwned"_s << u"is not a commit"_s;
    QTest::addRow("unknown base") << u"ok4"_s << QString() << u"no-such-branch"_s << u"is not a commit"_s;
}

void TestWorktrees::hostileNamesAndRevisions()
{
    QFETCH(QString, name);
    QFETCH(QString, branch);
    QFETCH(QString, base);
    QFETCH(QString, why);
    const Result<Worktree> created = m_trees->create({.name = name, .branch = branch, .base = base});
    QVERIFY(!created);
    QVERIFY2(created.error().toString().contains(why), qPrintable(created.error().toString()));
    QCOMPARE(m_trees->list()->size(), 1);
    QVERIFY(!QFile::exists(u"/tmp/pwned"_s));
    QVERIFY(!QFileInfo::exists(m_dir->filePath(u"etc"_s)));
    QVERIFY(git(m_repo, {u"branch"_s, u"--list"_s, u"weft/*"_s}).out.isEmpty());
}

void TestWorktrees::notARepository()
{
    QTemporaryDir plain;
    const Result<Worktrees> none = Worktrees::open(plain.path());
    QVERIFY(!none);
    QVERIFY2(none.error().toString().contains(u"not in a git repository"_s), qPrintable(none.error().toString()));
    QVERIFY(!Worktrees::open(plain.filePath(u"missing"_s)));
    const QString bare = plain.filePath(u"bare.git"_s);
    QVERIFY(git(plain.path(), {u"init"_s, u"--quiet"_s, u"--bare"_s, bare}).ok());
    QVERIFY(!Worktrees::open(bare));
}

QTEST_GUILESS_MAIN(TestWorktrees)
#include "tst_worktrees.moc"
