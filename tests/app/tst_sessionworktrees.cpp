// SPDX-License-Identifier: GPL-3.0-or-later
// SessionController's sessions in git worktrees against real repositories made by the test: a
// new session in a new worktree (its setup script run, or not, or failing), worktreeOf(), and
// hostile names refused before git sees them.

#include "app/serversource.h"
#include "app/sessioncontroller.h"
#include "app/sessionworktree.h"
#include "core/git.h"
#include "fakeopencodeserver.h"
#include "qt/sessionsmodel.h"
#include "server/serverclient.h"
#include "processor/setup.h"
#include "runfixture.h"
#include "session/sessionservice.h"
#include "testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QUrlQuery>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{
template<typename T>
T awaitFuture(QFuture<T> future)
{
    [[maybe_unused]] const bool done = QTest::qWaitFor([&future] { return future.isFinished(); }, 20000);
    return future.result();
}
} // namespace

class TestSessionWorktrees : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void newSessionInAWorktreeRunsTheSetupScript();
    void setupScriptNotRunWhenNotAsked();
    void failingSetupScriptSaysSo();
    void subfolderKeptInTheWorktree();
    void worktreeOfTheMainCheckoutIsAnError();
    void hostileNamesRefused_data();
    void hostileNamesRefused();
    void serverWorktrees();

private:
    [[nodiscard]] NewSessionRequest request(const QString &name) const;
    [[nodiscard]] qsizetype sessionCount() const;

    RunFixture m_run;
    std::unique_ptr<SessionController> m_controller;
    QString m_repo;
};

void TestSessionWorktrees::init()
{
    if (!Git::available())
        QSKIP("git is not installed");
    QVERIFY(m_run.setUp());
    m_repo = m_run.project->filePath(u"app"_s);
    QVERIFY(QDir().mkpath(m_repo + u"/src"_s));
    QVERIFY(git(m_repo, {u"init"_s, u"--quiet"_s, u"--initial-branch=main"_s}));
    QVERIFY(git(m_repo, {u"config"_s, u"user.name"_s, u"Test"_s}));
    QVERIFY(git(m_repo, {u"config"_s, u"user.email"_s, u"test@example.com"_s}));
    QVERIFY(writeFile(m_repo + u"/src/main.c"_s, "int main() { return 0; }\n"));
    // The setup script records where it ran and what it was told.
    QVERIFY(writeFile(m_repo + u"/.weft/worktree-setup"_s,
                      "printf '%s\\n%s\\n' \"$WEFT_WORKTREE\" \"$WEFT_MAIN_CHECKOUT\" > setup-ran\n"));
    QVERIFY(git(m_repo, {u"add"_s, u"-A"_s}));
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"start"_s}));
    Result<ProcessorSetup> setup = makeProcessorSetup(Config(), m_run.data->path());
    QVERIFY(setup);
    m_controller = std::make_unique<SessionController>(m_run.service, m_run.data->path(), setup.value());
}

void TestSessionWorktrees::cleanup()
{
    m_controller.reset();
    m_run.tearDown();
}

NewSessionRequest TestSessionWorktrees::request(const QString &name) const
{
    NewSessionRequest r;
    r.directory = m_repo;
    r.title = u"In a worktree"_s;
    r.worktree = Worktrees::CreateOptions{.name = name};
    return r;
}

qsizetype TestSessionWorktrees::sessionCount() const
{
    return m_run.service->list().size();
}

void TestSessionWorktrees::newSessionInAWorktreeRunsTheSetupScript()
{
    const Result<Session> created = awaitFuture(m_controller->createSession(request(u"feature"_s)));
    QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
    const QString path = QFileInfo(m_repo).absolutePath() + u"/app.worktrees/feature"_s;
    QCOMPARE(created->directory(), path);
    QCOMPARE(created->title(), u"In a worktree"_s);
    QVERIFY(QFileInfo::exists(path + u"/src/main.c"_s));
    QCOMPARE(readFile(path + u"/setup-ran"_s), (path + u'\n' + m_repo + u'\n').toUtf8());

    const Result<Worktree> held = awaitFuture(m_controller->worktreeOf(created->id()));
    QVERIFY2(held, qPrintable(held ? QString() : held.error().toString()));
    QCOMPARE(held->path, path);
    QCOMPARE(held->branch, u"weft/feature"_s);
    Git::Options options;
    options.workingDirectory = m_repo;
    QCOMPARE(held->base, Git::run({u"rev-parse"_s, u"HEAD"_s}, options).line());
    QVERIFY(!held->main);
}

void TestSessionWorktrees::setupScriptNotRunWhenNotAsked()
{
    NewSessionRequest r = request(u"quiet"_s);
    r.runSetup = false;
    const Result<Session> created = awaitFuture(m_controller->createSession(r));
    QVERIFY(created);
    QVERIFY(QFileInfo::exists(created->directory() + u"/src/main.c"_s));
    QVERIFY(!QFileInfo::exists(created->directory() + u"/setup-ran"_s));
}

void TestSessionWorktrees::failingSetupScriptSaysSo()
{
    QVERIFY(writeFile(m_repo + u"/.weft/worktree-setup"_s, "echo 'npm: not found' >&2\nexit 3\n"));
    const qsizetype before = sessionCount();
    const Result<Session> created = awaitFuture(m_controller->createSession(request(u"broken"_s)));
    QVERIFY(!created);
    QVERIFY2(created.error().message.contains(u"setup script"_s), qPrintable(created.error().toString()));
    QVERIFY(created.error().message.contains(u"exit code 3"_s));
    QVERIFY(created.error().message.contains(u"npm: not found"_s));
    QCOMPARE(sessionCount(), before);
}

void TestSessionWorktrees::subfolderKeptInTheWorktree()
{
    NewSessionRequest r = request(u"sub"_s);
    r.directory = m_repo + u"/src"_s;
    const Result<Session> created = awaitFuture(m_controller->createSession(r));
    QVERIFY(created);
    QCOMPARE(created->directory(), QFileInfo(m_repo).absolutePath() + u"/app.worktrees/sub/src"_s);
    const Result<Worktree> held = awaitFuture(m_controller->worktreeOf(created->id()));
    QVERIFY(held);
    QCOMPARE(held->branch, u"weft/sub"_s);
}

void TestSessionWorktrees::worktreeOfTheMainCheckoutIsAnError()
{
    NewSessionRequest r;
    r.directory = m_repo;
    const Result<Session> created = awaitFuture(m_controller->createSession(r));
    QVERIFY(created);
    QCOMPARE(created->directory(), m_repo);
    QVERIFY(!awaitFuture(m_controller->worktreeOf(created->id())));
    QVERIFY(!awaitFuture(m_controller->worktreeOf(u"ses_nothere"_s)));
}

void TestSessionWorktrees::hostileNamesRefused_data()
{
    QTest::addColumn<QString>("name");
    QTest::addRow("parent folders") << u"../../etc"_s;
    QTest::addRow("an option") << u"-rf"_s;
    QTest::addRow("a path") << u"a/b"_s;
    QTest::addRow("hidden") << u".git"_s;
    QTest::addRow("empty") << QString();
    QTest::addRow("a lock") << u"x.lock"_s;
}

void TestSessionWorktrees::hostileNamesRefused()
{
    QFETCH(QString, name);
    const qsizetype before = sessionCount();
    const QStringList around = QDir(m_run.project->path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    const Result<Session> created = awaitFuture(m_controller->createSession(request(name)));
    QVERIFY(!created);
    QCOMPARE(sessionCount(), before);
    QCOMPARE(QDir(m_run.project->path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), around);
    QVERIFY(!QFileInfo::exists(m_repo + u"/setup-ran"_s));
}

void TestSessionWorktrees::serverWorktrees()
{
    // OpenCode 1.18's /experimental/worktree: a session in one of the server's worktrees, its
    // removal asked of the server; a server without the routes says so.
    test::FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    server.route("GET", u"/experimental/session"_s, 200, test::recordedExchange(u"session list"_s).responseBody);
    const JsonObject session = test::recordedExchange(u"create V1 session"_s).responseBody.toObject();
    const QString id = session.string(u"id");
    const QString folder = session.string(u"directory");
    QVERIFY(!id.isEmpty() && !folder.isEmpty());
    ServerSource *source = m_controller->addServer(ServerClient(server.url(), u"secret"_s));
    QTRY_VERIFY_WITH_TIMEOUT(source->isReady(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(source->sessions()->isLoaded(), 5000);

    const Result<Worktree> none = awaitFuture(m_controller->worktreeOf(id));
    QVERIFY(!none);
    QVERIFY2(none.error().message.contains(u"not available on this server"_s), qPrintable(none.error().toString()));

    server.route("GET", u"/experimental/worktree"_s, 200, JsonArray{u"/elsewhere"_s, folder});
    QByteArray removedBody;
    server.route("DELETE", u"/experimental/worktree"_s, [&removedBody](const test::FakeRequest &request) {
        removedBody = request.body;
        return test::FakeOpencodeServer::Reply{200, "true"};
    });
    const Result<Worktree> held = awaitFuture(m_controller->worktreeOf(id));
    QVERIFY2(held, qPrintable(held ? QString() : held.error().toString()));
    QCOMPARE(held->path, folder);
    // A new session in a new worktree of the server: the worktree made there, then the session.
    server.route("POST", u"/experimental/worktree"_s, [](const test::FakeRequest &request) {
        return test::FakeOpencodeServer::Reply{
            200, toJson(JsonObject{{u"name"_s, request.json.string(u"name")},
                                   {u"branch"_s, u"opencode/"_s + request.json.string(u"name")},
                                   {u"directory"_s, u"/srv/worktrees/"_s + request.json.string(u"name")}},
                        0)};
    });
    QString createdIn;
    server.route("POST", u"/session"_s, [&createdIn](const test::FakeRequest &request) {
        createdIn = QUrlQuery(QUrl(QString::fromUtf8(request.path)).query()).queryItemValue(u"directory"_s, QUrl::FullyDecoded);
        JsonObject session = test::recordedExchange(u"create V1 session"_s).responseBody.toObject();
        session.insert(u"id"_s, u"ses_inworktree0000000000000"_s);
        session.insert(u"directory"_s, createdIn);
        return test::FakeOpencodeServer::Reply{200, toJson(session, 0)};
    });
    const Result<Session> inWorktree = awaitFuture(source->createInWorktree(id, u"bugfix"_s));
    QVERIFY2(inWorktree, qPrintable(inWorktree ? QString() : inWorktree.error().toString()));
    QCOMPARE(createdIn, u"/srv/worktrees/bugfix"_s);
    QCOMPARE(inWorktree->directory(), u"/srv/worktrees/bugfix"_s);

    QVERIFY(awaitFuture(source->removeWorktree(id, folder)));
    QCOMPARE(parseJson(removedBody)->toObject().string(u"directory"), folder);
    server.route("GET", u"/experimental/worktree"_s, 200, JsonArray{u"/elsewhere"_s});
    QVERIFY(!awaitFuture(m_controller->worktreeOf(id)));
    // The source goes before its server.
    m_controller->removeServer(source->key());
}

QTEST_GUILESS_MAIN(TestSessionWorktrees)
#include "tst_sessionworktrees.moc"
