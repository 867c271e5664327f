// SPDX-License-Identifier: GPL-3.0-or-later
// The board's model (issue 36 §1): runs become tiles, what the service announces updates them
// (the last line written, the tool running, tokens and cost), the attention inbox's questions
// show on their tiles, ended runs stay until dismissed or run again, sorting and the filter to a
// set of sessions. No store read on the GUI thread: the usage of a session is read off it.

#include "core/identifier.h"
#include "guitest.h"
#include "qt/attentionmodel.h"
#include "qt/boardmodel.h"
#include "runfixture.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
using State = BoardModel::State;

State stateAt(const QAbstractItemModel &model, int row)
{
    return model.index(row, 0).data(BoardModel::StateRole).value<State>();
}

QStringList titles(const QAbstractItemModel &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out.append(model.index(row, 0).data(BoardModel::TitleRole).toString());
    return out;
}
} // namespace

class TestBoardModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void runsBecomeTiles();
    void liveOutputTokensAndCost();
    void usageReadOffTheGuiThread();
    void runFollowedFromItsMiddle();
    void endedRunsStayUntilDismissed();
    void questionsOnTheirTiles();
    void queuedSessions();
    void sortingAndFilter();
    void elapsedTicksWhileRunning();
    void branchOfAGitFolder();
    void sourceGoesAway();

private:
    /// A session of the store titled @p title in the project folder (or @p directory).
    QString makeSession(const QString &title, const QString &directory = {}, const QString &parentID = {});
    [[nodiscard]] Message assistant(const QString &sessionID, qint64 created, double cost, qint64 input,
                                    qint64 output) const;

    QTemporaryDir m_settings;
    QTemporaryDir m_data;
    QTemporaryDir m_project;
    std::shared_ptr<SessionService> m_service;
    QHash<QString, Session> m_sessions; // what the lookup finds (the window's list)
    std::unique_ptr<BoardModel> m_model;
};

void TestBoardModel::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
}

void TestBoardModel::init()
{
    QVERIFY(m_data.isValid() && m_project.isValid());
    auto store = std::make_shared<JsonStore>(m_data.path());
    QVERIFY(test::ownRead([&] { return store->initialize(); }));
    m_service = std::make_shared<SessionService>(store);
    m_model = std::make_unique<BoardModel>();
    new QAbstractItemModelTester(m_model.get(), QAbstractItemModelTester::FailureReportingMode::Fatal, m_model.get());
    m_model->setSessionLookup([this](const QString &source, const QString &sessionID) -> std::optional<Session> {
        if (!source.isEmpty() || !m_sessions.contains(sessionID))
            return std::nullopt;
        return m_sessions.value(sessionID);
    });
    // No git here (branchOfAGitFolder sets its own).
    m_model->setBranchResolver([](const QString &) { return QtFuture::makeReadyValueFuture(QString()); });
    m_model->followService(QString(), m_service.get());
}

void TestBoardModel::cleanup()
{
    m_model.reset();
    m_service.reset();
    m_sessions.clear();
}

QString TestBoardModel::makeSession(const QString &title, const QString &directory, const QString &parentID)
{
    SessionService::CreateOptions options;
    options.directory = directory.isEmpty() ? m_project.path() : directory;
    options.title = title;
    options.parentID = parentID;
    const Result<Session> created = test::ownRead([&] { return m_service->create(options); });
    if (!created)
        return {};
    m_sessions.insert(created->id(), created.value());
    return created->id();
}

Message TestBoardModel::assistant(const QString &sessionID, qint64 created, double cost, qint64 input,
                                  qint64 output) const
{
    Message m = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), sessionID, created,
                                       u"msg_parent"_s, u"fake"_s, u"gpt-test"_s, u"build"_s, m_project.path(),
                                       m_project.path());
    m.setCost(cost);
    Tokens t;
    t.input = input;
    t.output = output;
    m.setTokens(t);
    return m;
}

void TestBoardModel::runsBecomeTiles()
{
    const QString id = makeSession(u"Fix the login form"_s);
    QVERIFY(!id.isEmpty());
    QCOMPARE(m_model->rowCount(), 0);

    m_model->setRunning(id, {}, true);
    QCOMPARE(m_model->rowCount(), 1);
    const QModelIndex tile = m_model->index(0);
    QCOMPARE(tile.data(BoardModel::SessionIdRole).toString(), id);
    QCOMPARE(tile.data(BoardModel::SourceRole).toString(), QString());
    QCOMPARE(tile.data(BoardModel::TitleRole).toString(), u"Fix the login form"_s);
    QCOMPARE(tile.data(Qt::DisplayRole).toString(), u"Fix the login form"_s);
    QCOMPARE(tile.data(BoardModel::ProjectRole).toString(), QDir(m_project.path()).dirName());
    QCOMPARE(tile.data(BoardModel::DirectoryRole).toString(), m_project.path());
    QCOMPARE(tile.data(BoardModel::StateRole).value<State>(), State::Running);
    QCOMPARE(tile.data(BoardModel::ActivityRole).value<BoardModel::Activity>(), BoardModel::Activity::None);
    QVERIFY(tile.data(BoardModel::StartedRole).toLongLong() > 0);
    QCOMPARE(m_model->indexFor(id), tile);
    QVERIFY(!m_model->indexFor(id, u"opencode-server:http://127.0.0.1:1"_s).isValid());

    // Running again changes nothing; a session not on the board that stops is not added.
    m_model->setRunning(id, {}, true);
    m_model->setRunning(u"ses_unknown"_s, {}, false);
    QCOMPARE(m_model->rowCount(), 1);

    // A title changed in the store shows.
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    const Result<Session> renamed
        = test::ownRead([&] { return m_service->rename(id, u"Fix the login form, again"_s); });
    QVERIFY(renamed);
    m_sessions.insert(id, renamed.value());
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0).data(BoardModel::TitleRole).toString(), u"Fix the login form, again"_s,
                              20000);
    QVERIFY(!changed.isEmpty());
    QVERIFY(changed.constLast().at(2).value<QList<int>>().contains(BoardModel::TitleRole));

    // Deleted: the tile goes.
    QVERIFY(test::ownRead([&] { return m_service->remove(id); }));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->rowCount(), 0, 20000);
}

void TestBoardModel::liveOutputTokensAndCost()
{
    const QString id = makeSession(u"Streams"_s);
    const QString other = makeSession(u"Not on the board"_s);
    m_model->setRunning(id, {}, true);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);

    // The reply's text: its last line with something on it.
    const Message reply = assistant(id, QDateTime::currentMSecsSinceEpoch(), 0, 0, 0);
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(reply); }));
    Part text = Part::makeText(Identifier::ascending(Identifier::Kind::Part), id, reply.id(),
                               u"First I read the form.\nThen I check the handler.\n\n"_s);
    QVERIFY(test::ownRead([&] { return m_service->updatePart(text, u"Then I check the handler.\n\n"_s); }));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0).data(BoardModel::ActivityTextRole).toString(),
                              u"Then I check the handler."_s, 20000);
    QCOMPARE(m_model->index(0).data(BoardModel::ActivityRole).value<BoardModel::Activity>(),
             BoardModel::Activity::Text);
    const auto rolesChanged = [&] {
        QSet<int> roles;
        for (const QList<QVariant> &signal : std::as_const(changed)) {
            for (int role : signal.at(2).value<QList<int>>())
                roles.insert(role);
        }
        return roles;
    };
    QVERIFY(rolesChanged().contains(BoardModel::ActivityTextRole));

    // A tool call: its name and what it works on.
    Part tool = Part::make(Identifier::ascending(Identifier::Kind::Part), id, reply.id(), PartType::Tool);
    tool.json().insert(u"tool"_s, u"bash"_s);
    tool.json().insert(u"callID"_s, u"call_1"_s);
    tool.setState(ToolState::running(JsonObject{{u"command"_s, u"npm test -- --watch=false"_s}}, 1));
    QVERIFY(test::ownRead([&] { return m_service->updatePart(tool); }));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0).data(BoardModel::ActivityRole).value<BoardModel::Activity>(),
                 BoardModel::Activity::Tool, 20000);
    QCOMPARE(m_model->index(0).data(BoardModel::ToolRole).toString(), u"bash"_s);
    QCOMPARE(m_model->index(0).data(BoardModel::ActivityTextRole).toString(), u"npm test -- --watch=false"_s);
    QCOMPARE(m_model->index(0).data(BoardModel::ToolStatusRole).value<ToolStatus>(), ToolStatus::Running);

    // Usage: the cost adds up, the tokens are those in context after the newest message.
    changed.clear();
    const Message first = assistant(id, 1000, 0.25, 12000, 300);
    const Message second = assistant(id, 2000, 0.5, 20000, 500);
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(first); }));
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(second); }));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0).data(BoardModel::CostRole).toDouble(), 0.75, 20000);
    QCOMPARE(m_model->index(0).data(BoardModel::TokensRole).toLongLong(), qint64(20500));
    QVERIFY(rolesChanged().contains(BoardModel::CostRole));
    // An update of a message replaces its usage.
    Message more = second;
    more.setCost(1.0);
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(more); }));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0).data(BoardModel::CostRole).toDouble(), 1.25, 20000);

    // Another session's output does not touch the tile.
    changed.clear();
    const Message elsewhere = assistant(other, 3000, 9.0, 1, 1);
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(elsewhere); }));
    QCoreApplication::processEvents();
    QCOMPARE(m_model->index(0).data(BoardModel::CostRole).toDouble(), 1.25);
    QCOMPARE(m_model->rowCount(), 1);
}

void TestBoardModel::usageReadOffTheGuiThread()
{
    // A session with a history before its tile appears: its cost and last words are read (off
    // the GUI thread: a read here would end the test).
    const QString id = makeSession(u"Has a history"_s);
    const Message old = assistant(id, 1000, 0.4, 8000, 200);
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(old); }));
    const Part said = Part::makeText(Identifier::ascending(Identifier::Kind::Part), id, old.id(),
                                     u"All tests pass now."_s);
    QVERIFY(test::ownRead([&] { return m_service->updatePart(said); }));
    QCoreApplication::processEvents();

    m_model->setRunning(id, {}, true);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0).data(BoardModel::CostRole).toDouble(), 0.4, 20000);
    QCOMPARE(m_model->index(0).data(BoardModel::TokensRole).toLongLong(), qint64(8200));
    QCOMPARE(m_model->index(0).data(BoardModel::ActivityTextRole).toString(), u"All tests pass now."_s);
}

void TestBoardModel::runFollowedFromItsMiddle()
{
    // A run under way before the board sees it: its time counts from its prompt.
    const QString id = makeSession(u"Runs already"_s);
    const qint64 prompted = QDateTime::currentMSecsSinceEpoch() - 90000;
    const Message prompt = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), id, prompted,
                                             u"build"_s, u"fake"_s, u"gpt-test"_s);
    Message reply = assistant(id, prompted + 100, 0, 0, 0);
    reply.setParentID(prompt.id());
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(prompt); }));
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(reply); }));
    QCoreApplication::processEvents();
    m_model->setRunning(id, {}, true);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->index(0).data(BoardModel::StartedRole).toLongLong(), prompted, 20000);
    QVERIFY(m_model->index(0).data(BoardModel::ElapsedRole).toLongLong() >= 90000);
}

void TestBoardModel::endedRunsStayUntilDismissed()
{
    const QString ok = makeSession(u"Goes well"_s);
    const QString bad = makeSession(u"Goes badly"_s);
    const QString stopped = makeSession(u"Is stopped"_s);
    for (const QString &id : {ok, bad, stopped})
        m_model->setRunning(id, {}, true);
    QCOMPARE(m_model->rowCount(), 3);

    // busyChanged(false) comes before the run's outcome.
    m_model->setRunning(ok, {}, false);
    m_model->setFinished(ok, {}, State::Finished);
    m_model->setRunning(bad, {}, false);
    m_model->setFinished(bad, {}, State::Failed, u"The provider refused: quota"_s);
    m_model->setFinished(stopped, {}, State::Stopped);
    QCOMPARE(m_model->rowCount(), 3);
    QCOMPARE(m_model->indexFor(ok).data(BoardModel::StateRole).value<State>(), State::Finished);
    QCOMPARE(m_model->indexFor(bad).data(BoardModel::StateRole).value<State>(), State::Failed);
    QCOMPARE(m_model->indexFor(bad).data(BoardModel::ErrorRole).toString(), u"The provider refused: quota"_s);
    QCOMPARE(m_model->indexFor(stopped).data(BoardModel::StateRole).value<State>(), State::Stopped);
    // The elapsed time is that of the run, no longer growing.
    const qint64 elapsed = m_model->indexFor(ok).data(BoardModel::ElapsedRole).toLongLong();
    const qint64 started = m_model->indexFor(ok).data(BoardModel::StartedRole).toLongLong();
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentMSecsSinceEpoch() > started + elapsed + 5, 20000);
    QCOMPARE(m_model->indexFor(ok).data(BoardModel::ElapsedRole).toLongLong(), elapsed);

    // Dismissed: gone. A running one cannot be dismissed.
    m_model->dismiss(ok, {});
    QCOMPARE(m_model->rowCount(), 2);
    QVERIFY(!m_model->indexFor(ok).isValid());
    // The next run of a failed one: running again, its error gone.
    m_model->setRunning(bad, {}, true);
    QCOMPARE(m_model->indexFor(bad).data(BoardModel::StateRole).value<State>(), State::Running);
    QCOMPARE(m_model->indexFor(bad).data(BoardModel::ErrorRole).toString(), QString());
    m_model->dismiss(bad, {});
    QVERIFY(m_model->indexFor(bad).isValid());
    // Dismiss all ended: the stopped one goes, the running one stays.
    m_model->dismissEnded();
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(m_model->index(0).data(BoardModel::SessionIdRole).toString(), bad);
}

void TestBoardModel::questionsOnTheirTiles()
{
    AttentionModel attention;
    attention.setCurrentSession(u"ses_open"_s, {});
    m_model->setAttentionModel(&attention);
    const QString id = makeSession(u"Cleans the build"_s);
    const QString child = makeSession(u"A helper"_s, {}, id);
    m_model->setRunning(id, {}, true);

    attention.addRequest(AttentionModel::Kind::Permission, u"per_1"_s, id, {},
                         u"Asks to run a command: rm -rf build"_s);
    QModelIndex tile = m_model->indexFor(id);
    QCOMPARE(tile.data(BoardModel::StateRole).value<State>(), State::Waiting);
    QCOMPARE(tile.data(BoardModel::RequestIdRole).toString(), u"per_1"_s);
    QCOMPARE(tile.data(BoardModel::RequestDetailRole).toString(), u"Asks to run a command: rm -rf build"_s);
    QCOMPARE(tile.data(BoardModel::RequestKindRole).value<AttentionModel::Kind>(), AttentionModel::Kind::Permission);
    QCOMPARE(tile.data(BoardModel::RequestCountRole).toInt(), 1);

    // A sub-agent without a tile of its own asks on its parent's.
    attention.setSessionLookup([this](const QString &, const QString &sessionID) -> std::optional<Session> {
        if (!m_sessions.contains(sessionID))
            return std::nullopt;
        return m_sessions.value(sessionID);
    });
    attention.addRequest(AttentionModel::Kind::Question, u"que_1"_s, child, {}, u"Asks: Which database?"_s);
    QCOMPARE(m_model->indexFor(id).data(BoardModel::RequestCountRole).toInt(), 2);
    QVERIFY(!m_model->indexFor(child).isValid());
    // A sub-agent of the sub-agent too.
    const QString grandchild = makeSession(u"A helper's helper"_s, {}, child);
    attention.addRequest(AttentionModel::Kind::Permission, u"per_2"_s, grandchild, {}, u"Asks to read files: x"_s);
    QCOMPARE(m_model->indexFor(id).data(BoardModel::RequestCountRole).toInt(), 3);
    attention.removeRequest(u"per_2"_s);
    QCOMPARE(m_model->indexFor(id).data(BoardModel::RequestCountRole).toInt(), 2);

    // A run's outcome in the inbox is not a question.
    attention.addRunResult(AttentionModel::Kind::Failed, id, {}, u"The run failed."_s);
    QCOMPARE(m_model->indexFor(id).data(BoardModel::RequestCountRole).toInt(), 2);

    // Answered: back to running.
    attention.removeRequest(u"per_1"_s);
    tile = m_model->indexFor(id);
    QCOMPARE(tile.data(BoardModel::RequestIdRole).toString(), u"que_1"_s);
    QCOMPARE(tile.data(BoardModel::RequestKindRole).value<AttentionModel::Kind>(), AttentionModel::Kind::Question);
    attention.removeRequest(u"que_1"_s);
    QCOMPARE(m_model->indexFor(id).data(BoardModel::StateRole).value<State>(), State::Running);
    QCOMPARE(m_model->indexFor(id).data(BoardModel::RequestIdRole).toString(), QString());
    m_model->setAttentionModel(nullptr);
}

void TestBoardModel::queuedSessions()
{
    const QString id = makeSession(u"Waits its turn"_s);
    m_model->setQueued(id, {}, 2);
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(stateAt(*m_model, 0), State::Queued);
    QCOMPARE(m_model->index(0).data(BoardModel::QueuedRole).toInt(), 2);
    m_model->dismiss(id, {}); // it waits: stays
    QCOMPARE(m_model->rowCount(), 1);
    // Its queue emptied before it ran: the tile goes.
    m_model->setQueued(id, {}, 0);
    QCOMPARE(m_model->rowCount(), 0);

    // Queued behind a run: running first, then queued once it ended (the prompts wait).
    m_model->setRunning(id, {}, true);
    m_model->setQueued(id, {}, 1);
    QCOMPARE(stateAt(*m_model, 0), State::Running);
    m_model->setFinished(id, {}, State::Failed, u"no"_s);
    QCOMPARE(stateAt(*m_model, 0), State::Queued);
    m_model->setQueued(id, {}, 0);
    QCOMPARE(stateAt(*m_model, 0), State::Failed);
}

void TestBoardModel::sortingAndFilter()
{
    const QString a = makeSession(u"Alpha"_s);
    const QString b = makeSession(u"Bravo"_s);
    const QString c = makeSession(u"Charlie"_s);
    const QString d = makeSession(u"Delta"_s);
    AttentionModel attention;
    m_model->setAttentionModel(&attention);
    BoardSortModel sorted;
    new QAbstractItemModelTester(&sorted, QAbstractItemModelTester::FailureReportingMode::Fatal, &sorted);
    sorted.setSourceModel(m_model.get());

    m_model->setRunning(a, {}, true); // running, started first
    QTRY_VERIFY_WITH_TIMEOUT(m_model->indexFor(a).data(BoardModel::ElapsedRole).toLongLong() > 0, 20000);
    m_model->setRunning(b, {}, true);
    m_model->setFinished(b, {}, State::Finished);
    m_model->setRunning(c, {}, true);
    m_model->setFinished(c, {}, State::Failed, u"boom"_s);
    m_model->setRunning(d, {}, true);
    attention.addRequest(AttentionModel::Kind::Permission, u"per_d"_s, d, {}, u"Asks to change files: x"_s);
    // Costs: Bravo 3, Charlie 1, Delta 2, Alpha 0.
    for (const auto &[id, cost] : {std::pair(b, 3.0), std::pair(c, 1.0), std::pair(d, 2.0)})
        QVERIFY(test::ownRead([&] { return m_service->updateMessage(assistant(id, 1000, cost, 10, 10)); }));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->indexFor(b).data(BoardModel::CostRole).toDouble(), 3.0, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->indexFor(d).data(BoardModel::CostRole).toDouble(), 2.0, 20000);

    // By state: waiting, failed, running, finished.
    QCOMPARE(sorted.sortKey(), BoardSortModel::SortKey::State);
    QCOMPARE(titles(sorted), (QStringList{u"Delta"_s, u"Charlie"_s, u"Alpha"_s, u"Bravo"_s}));
    sorted.setSortKey(BoardSortModel::SortKey::Cost);
    QCOMPARE(titles(sorted), (QStringList{u"Bravo"_s, u"Delta"_s, u"Charlie"_s, u"Alpha"_s}));
    sorted.setSortKey(BoardSortModel::SortKey::Title);
    QCOMPARE(titles(sorted), (QStringList{u"Alpha"_s, u"Bravo"_s, u"Charlie"_s, u"Delta"_s}));
    sorted.setSortKey(BoardSortModel::SortKey::Elapsed);
    QCOMPARE(titles(sorted).first(), u"Alpha"_s); // the longest run

    // A change re-sorts: the question answered, Delta runs like Alpha.
    sorted.setSortKey(BoardSortModel::SortKey::State);
    attention.removeRequest(u"per_d"_s);
    QCOMPARE(titles(sorted), (QStringList{u"Charlie"_s, u"Alpha"_s, u"Delta"_s, u"Bravo"_s}));

    // Filtered to a best-of-N group's sessions.
    sorted.setSessionFilter({b, d});
    QCOMPARE(titles(sorted), (QStringList{u"Delta"_s, u"Bravo"_s}));
    m_model->dismiss(b, {});
    QCOMPARE(titles(sorted), (QStringList{u"Delta"_s}));
    sorted.clearSessionFilter();
    QCOMPARE(sorted.rowCount(), 3);
    m_model->setAttentionModel(nullptr);
}

void TestBoardModel::elapsedTicksWhileRunning()
{
    const QString id = makeSession(u"Ticks"_s);
    m_model->setRunning(id, {}, true);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    const auto ticks = [&] {
        return std::count_if(changed.cbegin(), changed.cend(), [](const QList<QVariant> &signal) {
            return signal.at(2).value<QList<int>>() == QList<int>{BoardModel::ElapsedRole};
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(ticks() >= 1, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(m_model->index(0).data(BoardModel::ElapsedRole).toLongLong() >= 1000, 20000);
    // Ended: no more ticks.
    m_model->setFinished(id, {}, State::Finished);
    changed.clear();
    QVERIFY(!QTest::qWaitFor([&] { return ticks() > 0; }, 1500));
}

void TestBoardModel::branchOfAGitFolder()
{
    QTemporaryDir repo;
    QVERIFY(test::makeGitRepository(repo.path()));
    QVERIFY(test::git(repo.path(), {u"checkout"_s, u"-q"_s, u"-b"_s, u"board/fix-login"_s}));
    BoardModel model; // with git, off the GUI thread
    model.setSessionLookup([this](const QString &, const QString &sessionID) -> std::optional<Session> {
        if (!m_sessions.contains(sessionID))
            return std::nullopt;
        return m_sessions.value(sessionID);
    });
    const QString inRepo = makeSession(u"In a repository"_s, repo.path());
    const QString outside = makeSession(u"Outside"_s);
    model.setRunning(inRepo, {}, true);
    model.setRunning(outside, {}, true);
    QTRY_COMPARE_WITH_TIMEOUT(model.indexFor(inRepo).data(BoardModel::BranchRole).toString(), u"board/fix-login"_s,
                              20000);
    QCOMPARE(model.indexFor(outside).data(BoardModel::BranchRole).toString(), QString());
}

void TestBoardModel::sourceGoesAway()
{
    const QString server = u"opencode-server:http://127.0.0.1:4096"_s;
    m_model->setRunning(u"ses_remote1"_s, server, true);
    m_model->setRunning(u"ses_remote2"_s, server, true);
    const QString local = makeSession(u"Here"_s);
    m_model->setRunning(local, {}, true);
    QCOMPARE(m_model->rowCount(), 3);
    // Unknown to the lookup: the ID is the title.
    QCOMPARE(m_model->indexFor(u"ses_remote1"_s, server).data(BoardModel::TitleRole).toString(), u"ses_remote1"_s);
    m_model->removeSource(server);
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(m_model->index(0).data(BoardModel::SessionIdRole).toString(), local);
}

QTEST_MAIN(TestBoardModel)
#include "tst_boardmodel.moc"
