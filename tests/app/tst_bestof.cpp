// SPDX-License-Identifier: GPL-3.0-or-later
// Best of N without a window: one prompt run on three models (a fake provider each, on loopback)
// in a real git repository made by the test, at most two at once, each in a worktree of its own;
// a test command per worktree; one kept (its change in the main checkout, the other worktrees
// gone, their branches kept); a failing run; Stop all.

#include "app/bestofrun.h"
#include "app/sessioncontroller.h"
#include "app/sessionworktree.h"
#include "core/git.h"
#include "fakellmserver.h"
#include "processor/setup.h"
#include "runfixture.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{
QString gitLine(const QString &dir, const QStringList &args)
{
    Git::Options options;
    options.workingDirectory = dir;
    return Git::run(args, options).line();
}
} // namespace

class TestBestOf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void threeRunsTwoAtOnceThenKeepOne();
    void failedRunAndMergeKept();
    void stopAll();
    void keepRefusedLeavesEveryWorktree();
    void diffOfEachFile();
    void testTimesOut();

private:
    /// The controller over a config with providers fake1..fake3, one per fake server.
    std::unique_ptr<SessionController> makeController();
    BestOfRun::Request request(const QStringList &models) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_repo;
    std::shared_ptr<SessionService> m_service;
    QList<std::shared_ptr<FakeLlmServer>> m_servers;
};

void TestBestOf::initTestCase()
{
    clearProviderKeys();
}

void TestBestOf::init()
{
    if (!Git::available())
        QSKIP("git is not installed");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_repo = m_dir->filePath(u"app"_s);
    QVERIFY(QDir().mkpath(m_repo));
    QVERIFY(makeGitRepository(m_repo));
    QVERIFY(git(m_repo, {u"config"_s, u"user.name"_s, u"Test"_s}));
    QVERIFY(git(m_repo, {u"config"_s, u"user.email"_s, u"test@example.com"_s}));
    QDir().mkpath(m_dir->filePath(u"data"_s));
    auto store = std::make_shared<JsonStore>(m_dir->filePath(u"data"_s));
    QVERIFY(store->initialize());
    m_service = std::make_shared<SessionService>(store);
    m_servers.clear();
    for (int i = 0; i < 3; ++i) {
        m_servers.append(std::make_shared<FakeLlmServer>());
        QVERIFY(m_servers.last()->listen());
    }
}

void TestBestOf::cleanup()
{
    m_service.reset();
    m_servers.clear();
    m_dir.reset();
}

std::unique_ptr<SessionController> TestBestOf::makeController()
{
    JsonObject providers;
    for (qsizetype i = 0; i < m_servers.size(); ++i) {
        providers.insert(u"fake%1"_s.arg(i + 1),
                         JsonObject{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                                    {u"options"_s, JsonObject{{u"baseURL"_s, m_servers.at(i)->baseUrl().toString()},
                                                              {u"apiKey"_s, u"sk-test"_s}}},
                                    {u"models"_s, JsonObject{{u"gpt-test"_s, JsonObject{}}}}});
    }
    const QString config = m_dir->filePath(u"data/weft.json"_s);
    if (!writeFakeProviderConfig(config, m_servers.first()->baseUrl(),
                                 JsonObject{{u"provider"_s, providers},
                                            {u"model"_s, u"fake1/gpt-test"_s},
                                            {u"small_model"_s, u"fake1/gpt-test"_s},
                                            {u"permission"_s, JsonObject{{u"bash"_s, u"allow"_s}}},
                                            {u"snapshot"_s, false}}))
        return {};
    Result<ProcessorSetup> setup = loadProcessorSetup(config, m_dir->filePath(u"data"_s));
    if (!setup) {
        qWarning() << setup.error().toString();
        return {};
    }
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    s.config.snapshots = ProcessorConfig::Snapshots::Never;
    s.config.maxRetries = 0;
    return std::make_unique<SessionController>(m_service, m_dir->filePath(u"data"_s), s);
}

BestOfRun::Request TestBestOf::request(const QStringList &models) const
{
    BestOfRun::Request r;
    r.directory = m_repo;
    r.prompt = u"Write your file"_s;
    r.models = models;
    return r;
}

void TestBestOf::threeRunsTwoAtOnceThenKeepOne()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    // Each run writes a file of its own and ends; the first replies wait until both first runs
    // have asked, so that they are seen running at once.
    const QStringList files{u"one.txt"_s, u"two.txt"_s, u"three.txt"_s};
    for (int i = 0; i < 3; ++i) {
        FakeReply call = FakeReply::sse(bashCallReply(u"call_%1"_s.arg(i), u"echo run > %1"_s.arg(files.at(i))));
        call.held = i < 2;
        m_servers.at(i)->enqueue(call);
        m_servers.at(i)->enqueue(FakeReply::sse(textReply({u"Done."_s})));
    }
    BestOfRun::Request r = request({u"fake1/gpt-test"_s, u"fake2/gpt-test"_s, u"fake3/gpt-test"_s});
    r.limit = 2;
    r.testCommand = u"echo checking; test -f two.txt"_s;
    BestOfRun group(controller.get(), r);
    QCOMPARE(group.limit(), 2);
    int mostBusy = 0;
    connect(controller.get(), &SessionController::busyChanged, &group, [&] {
        const QSet<QString> ids = group.sessionIDs();
        const QStringList busy = controller->busySessions();
        mostBusy = std::max(mostBusy, int(std::count_if(busy.cbegin(), busy.cend(), [&](const QString &id) {
                                              return ids.contains(id);
                                          })));
    });
    QSignalSpy finished(&group, &BestOfRun::finished);
    QVERIFY(group.start());
    QCOMPARE(group.runningCount(), 2); // their worktrees made at once (Worktrees takes turns in git)
    QCOMPARE(group.waitingCount(), 1);
    QCOMPARE(group.runs().at(0).state, BestOfRun::State::Starting);
    QCOMPARE(group.runs().at(1).state, BestOfRun::State::Starting);
    QCOMPARE(group.runs().at(2).state, BestOfRun::State::Waiting);

    const auto states = [&] {
        QStringList out;
        for (const BestOfRun::Run &run : group.runs())
            out.append(u"%1 %2"_s.arg(int(run.state)).arg(run.setupError));
        return out.join(u"; "_s);
    };
    QTRY_VERIFY2_WITH_TIMEOUT(m_servers.at(0)->heldReplies() == 1 && m_servers.at(1)->heldReplies() == 1,
                              qPrintable(states()), 20000);
    QCOMPARE(group.runningCount(), 2);
    QCOMPARE(group.waitingCount(), 1);
    QCOMPARE(m_servers.at(2)->requests().size(), 0);
    QCOMPARE(mostBusy, 2);
    m_servers.at(0)->release();
    m_servers.at(1)->release();
    QVERIFY(finished.wait(30000) || finished.size() == 1);
    QVERIFY(group.isFinished());
    QCOMPARE(mostBusy, 2);

    QSet<QString> worktrees;
    for (int i = 0; i < 3; ++i) {
        const BestOfRun::Run &run = group.runs().at(i);
        QCOMPARE(run.state, BestOfRun::State::Finished);
        QVERIFY(run.name.startsWith(u"best-"_s));
        QVERIFY(run.name.endsWith(u"-%1"_s.arg(i + 1)));
        QCOMPARE(run.branch, u"weft/"_s + run.name);
        QCOMPARE(gitLine(run.worktreePath, {u"branch"_s, u"--show-current"_s}), run.branch);
        QCOMPARE(run.directory, run.worktreePath);
        QCOMPARE(QFileInfo(run.worktreePath).fileName(), run.name);
        worktrees.insert(run.worktreePath);
        // Its own file, in its own worktree only.
        for (int j = 0; j < 3; ++j)
            QCOMPARE(QFile::exists(run.worktreePath + u'/' + files.at(j)), i == j);
        QCOMPARE(run.diffs.size(), 1);
        QCOMPARE(run.diffs.first().file(), files.at(i));
        QCOMPARE(run.diffs.first().status(), u"added"_s);
        QCOMPARE(run.additions, qint64(1));
        QCOMPARE(run.deletions, qint64(0));
        QVERIFY(run.tokens.total() > 0);
        QVERIFY(run.cost >= 0);
        QVERIFY(run.test);
        QCOMPARE(run.test->passed(), i == 1);
        QCOMPARE(run.test->exitCode, i == 1 ? 0 : 1);
        QVERIFY(run.test->output.contains(u"checking"_s));
    }
    QCOMPARE(worktrees.size(), 3);
    QCOMPARE(group.sessionIDs().size(), 3);
    QCOMPARE(m_service->get(group.runs().at(0).sessionID)->directory(), group.runs().at(0).worktreePath);

    // Keep the second: its file comes to the main checkout, the other worktrees go, branches stay.
    QSignalSpy kept(&group, &BestOfRun::kept);
    QVERIFY(group.keep(1, ApplyMode::Diff));
    QVERIFY(!group.keep(0, ApplyMode::Diff)); // one keep at a time
    QVERIFY(kept.wait(20000));
    const auto result = kept.at(0).at(1).value<BestOfRun::Kept>();
    QVERIFY(result.apply.clean());
    QVERIFY(result.notRemoved.isEmpty());
    QCOMPARE(group.keptIndex(), 1);
    QVERIFY(QFile::exists(m_repo + u"/two.txt"_s));
    QVERIFY(!QFile::exists(m_repo + u"/one.txt"_s));
    QVERIFY(!QFile::exists(m_repo + u"/three.txt"_s));
    QVERIFY(!QDir(group.runs().at(0).worktreePath).exists());
    QVERIFY(!QDir(group.runs().at(2).worktreePath).exists());
    QVERIFY(QDir(group.runs().at(1).worktreePath).exists());
    const QString branches = gitLine(m_repo, {u"branch"_s, u"--list"_s, u"weft/best-*"_s});
    for (const BestOfRun::Run &run : group.runs())
        QVERIFY2(branches.contains(u"weft/"_s + run.name), qPrintable(branches));
}

void TestBestOf::failedRunAndMergeKept()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    m_servers.at(0)->enqueue(FakeReply::sse(bashCallReply(u"call_a"_s, u"echo kept > kept.txt"_s)));
    m_servers.at(0)->enqueue(FakeReply::sse(textReply({u"Done."_s})));
    m_servers.at(1)->enqueue(FakeReply::json(400, R"({"error":{"message":"bad request for this model"}})"));
    BestOfRun::Request r = request({u"fake1/gpt-test"_s, u"fake2/gpt-test"_s});
    r.testCommand = u"true"_s;
    BestOfRun group(controller.get(), r);
    QCOMPARE(group.limit(), 2);
    QSignalSpy finished(&group, &BestOfRun::finished);
    QVERIFY(group.start());
    QVERIFY(finished.wait(30000));
    const BestOfRun::Run &good = group.runs().at(0);
    const BestOfRun::Run &bad = group.runs().at(1);
    QCOMPARE(good.state, BestOfRun::State::Finished);
    QVERIFY(good.test && good.test->passed());
    QCOMPARE(bad.state, BestOfRun::State::Failed);
    QVERIFY2(!bad.error.isNull(), qPrintable(bad.setupError));
    QVERIFY(!bad.test); // a failed run is not tested
    QVERIFY(bad.diffs.isEmpty());

    // Merge takes commits: the run's uncommitted file is committed on its branch first.
    const QString before = gitLine(m_repo, {u"rev-list"_s, u"--count"_s, u"HEAD"_s});
    QSignalSpy kept(&group, &BestOfRun::kept);
    QVERIFY(group.keep(0, ApplyMode::Merge));
    QVERIFY(kept.wait(20000));
    QVERIFY(kept.at(0).at(1).value<BestOfRun::Kept>().apply.clean());
    QVERIFY(QFile::exists(m_repo + u"/kept.txt"_s));
    QVERIFY(gitLine(m_repo, {u"status"_s, u"--porcelain"_s}).isEmpty());
    QVERIFY(gitLine(m_repo, {u"rev-list"_s, u"--count"_s, u"HEAD"_s}).toInt() > before.toInt());
    QVERIFY(!QDir(bad.worktreePath).exists());
}

void TestBestOf::stopAll()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    OpenAiStream endless;
    endless.role().text(u"never ends"_s);
    FakeReply hanging = FakeReply::sse(endless.bytes());
    hanging.hang = true;
    m_servers.at(0)->enqueue(hanging);
    BestOfRun::Request r = request({u"fake1/gpt-test"_s, u"fake1/gpt-test"_s});
    r.limit = 1;
    BestOfRun group(controller.get(), r);
    QSignalSpy finished(&group, &BestOfRun::finished);
    QVERIFY(group.start());
    QTRY_COMPARE_WITH_TIMEOUT(m_servers.at(0)->requests().size(), 1, 20000);
    QCOMPARE(group.runs().at(0).state, BestOfRun::State::Running);
    QCOMPARE(group.waitingCount(), 1);
    group.stopAll();
    QCOMPARE(group.runs().at(1).state, BestOfRun::State::Stopped);
    QVERIFY(finished.wait(20000) || finished.size() == 1);
    QCOMPARE(group.runs().at(0).state, BestOfRun::State::Stopped);
    QVERIFY(group.runs().at(1).sessionID.isEmpty()); // never started
    QCOMPARE(m_servers.at(0)->requests().size(), 1);
    QVERIFY(group.isFinished());
}

void TestBestOf::keepRefusedLeavesEveryWorktree()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    for (int i = 0; i < 2; ++i) {
        m_servers.at(i)->enqueue(FakeReply::sse(bashCallReply(u"call_%1"_s.arg(i), u"echo run > run%1.txt"_s.arg(i))));
        m_servers.at(i)->enqueue(FakeReply::sse(textReply({u"Done."_s})));
    }
    BestOfRun group(controller.get(), request({u"fake1/gpt-test"_s, u"fake2/gpt-test"_s}));
    QSignalSpy finished(&group, &BestOfRun::finished);
    QVERIFY(!group.keep(0, ApplyMode::Diff)); // nothing ended yet
    QVERIFY(group.start());
    QVERIFY(!group.start());
    QVERIFY(finished.wait(30000));
    QVERIFY(!group.runs().at(0).test); // no test command

    // A merge needs a clean main checkout: refused, and nothing is removed.
    QFile dirty(m_repo + u"/dirty.txt"_s);
    QVERIFY(dirty.open(QIODevice::WriteOnly) && dirty.write("x\n") == 2);
    dirty.close();
    QVERIFY(git(m_repo, {u"add"_s, u"dirty.txt"_s}));
    QSignalSpy failed(&group, &BestOfRun::keepFailed);
    QVERIFY(group.keep(0, ApplyMode::Merge));
    QVERIFY(failed.wait(20000));
    QCOMPARE(failed.at(0).at(0).toInt(), 0);
    QVERIFY(!failed.at(0).at(1).toString().isEmpty());
    QCOMPARE(group.keptIndex(), -1);
    QVERIFY(!group.isKeeping());
    for (const BestOfRun::Run &run : group.runs())
        QVERIFY(QDir(run.worktreePath).exists());
    QVERIFY(!QFile::exists(m_repo + u"/run0.txt"_s));
    // Once the main checkout is clean again, it can be kept.
    QVERIFY(git(m_repo, {u"rm"_s, u"-q"_s, u"-f"_s, u"dirty.txt"_s}));
    QSignalSpy kept(&group, &BestOfRun::kept);
    QVERIFY(group.keep(0, ApplyMode::Rebase));
    QVERIFY(kept.wait(20000));
    QVERIFY(QFile::exists(m_repo + u"/run0.txt"_s));
    QVERIFY(!QDir(group.runs().at(1).worktreePath).exists());
}

/// What a run's column shows of its worktree's diff: a file each, with its patch and counts.
void TestBestOf::diffOfEachFile()
{
    const QByteArray diff = "diff --git a/src/a.c b/src/a.c\n"
                            "index 1..2 100644\n"
                            "--- a/src/a.c\n"
                            "+++ b/src/a.c\n"
                            "@@ -1,2 +1,2 @@\n"
                            "-old\n"
                            "+new\n"
                            " same\n"
                            "diff --git a/gone.txt b/gone.txt\n"
                            "deleted file mode 100644\n"
                            "--- a/gone.txt\n"
                            "+++ /dev/null\n"
                            "@@ -1 +0,0 @@\n"
                            "-bye\n"
                            "diff --git a/new.txt b/new.txt\n"
                            "new file mode 100644\n"
                            "--- /dev/null\n"
                            "+++ b/new.txt\n"
                            "@@ -0,0 +1,2 @@\n"
                            "+--- a line that looks like a header\n"
                            "++++ and another\n";
    const QList<FileDiff> files = SessionWorktree::splitPatch(diff);
    QCOMPARE(files.size(), 3);
    QCOMPARE(files.at(0).file(), u"src/a.c"_s);
    QCOMPARE(files.at(0).status(), u"modified"_s);
    QCOMPARE(files.at(0).additions(), qint64(1));
    QCOMPARE(files.at(0).deletions(), qint64(1));
    QVERIFY(files.at(0).patch().startsWith(u"diff --git a/src/a.c"_s));
    QCOMPARE(files.at(1).file(), u"gone.txt"_s);
    QCOMPARE(files.at(1).status(), u"deleted"_s);
    QCOMPARE(files.at(1).deletions(), qint64(1));
    QCOMPARE(files.at(2).file(), u"new.txt"_s);
    QCOMPARE(files.at(2).status(), u"added"_s);
    QCOMPARE(files.at(2).additions(), qint64(2));
    QCOMPARE(files.at(2).deletions(), qint64(0));
    QVERIFY(SessionWorktree::splitPatch({}).isEmpty());
}

void TestBestOf::testTimesOut()
{
    const BestOfRun::TestResult quick = BestOfRun::runTest(u"echo out; echo err >&2; exit 3"_s, m_repo, 20000, nullptr);
    QCOMPARE(quick.exitCode, 3);
    QVERIFY(!quick.passed());
    QVERIFY(quick.output.contains(u"out"_s) && quick.output.contains(u"err"_s));
    const BestOfRun::TestResult slow = BestOfRun::runTest(u"echo started; sleep 30"_s, m_repo, 300, nullptr);
    QVERIFY(slow.timedOut);
    QCOMPARE(slow.exitCode, -1);
    QVERIFY(slow.output.contains(u"started"_s));
    std::atomic_bool cancelled = true;
    const BestOfRun::TestResult stopped = BestOfRun::runTest(u"sleep 30"_s, m_repo, 20000, &cancelled);
    QVERIFY(!stopped.passed());
    QVERIFY(!stopped.timedOut);
}

QTEST_GUILESS_MAIN(TestBestOf)
#include "tst_bestof.moc"
