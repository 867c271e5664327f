// SPDX-License-Identifier: GPL-3.0-or-later
// The board in the window (issue 36 §1), against the loopback LLM server: several runs at once
// appear as tiles with what they write, a permission question shows on its tile, the last line
// follows a new run, a click or Return opens the session, the context menu stops a run, Delete
// dismisses an ended one; View › Show Board and its shortcut show the dock; the empty state and
// the filter to a set of sessions.

#include "boardview.h"
#include "app/serversource.h"
#include "fakellmserver.h"
#include "fakeopencodeserver.h"
#include "guitest.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "qt/boardmodel.h"
#include "qt/sessionsmodel.h"
#include "runfixture.h"
#include "session/sessionservice.h"
#include "sourcespresenter.h"
#include "store/sessionlock.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QProcess>
#include <QSysInfo>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{
using State = BoardModel::State;

/// A reply that writes @p text and then keeps its connection open: the run goes on until stopped.
FakeReply streamingReply(const QString &text)
{
    FakeReply reply = FakeReply::sse(OpenAiStream().role().text(text).bytes());
    reply.hang = true;
    return reply;
}
} // namespace

class TestGuiBoard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void concurrentRunsAsTiles();
    void emptyStateAndFilter();
    void serverSessionsOnTheBoard();
    void sessionRunElsewhere();

private:
    bool makeWindow();
    QString makeSession(const QString &title);
    /// Queues @p reply and starts a run of @p sessionID that takes it (the server has its request).
    bool run(const QString &sessionID, const FakeReply &reply);
    [[nodiscard]] BoardView *view() const { return m_window->board()->view(); }
    [[nodiscard]] QModelIndex tile(const QString &sessionID) const;
    [[nodiscard]] State stateOf(const QString &sessionID) const
    {
        return tile(sessionID).data(BoardModel::StateRole).value<State>();
    }
    [[nodiscard]] QString lastLine(const QString &sessionID) const
    {
        return tile(sessionID).data(BoardModel::ActivityTextRole).toString();
    }
    bool showBoard();

    QTemporaryDir m_settings;
    test::RunFixture m_run;
    QString m_openID;
    std::unique_ptr<MainWindow> m_window;
};

void TestGuiBoard::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
    clearProviderKeys();
}

void TestGuiBoard::init()
{
    QVERIFY(m_run.setUp());
    m_openID = makeSession(u"The open session"_s);
    QVERIFY(!m_openID.isEmpty());
    QVERIFY(makeWindow());
}

void TestGuiBoard::cleanup()
{
    m_window.reset();
    m_run.tearDown();
}

bool TestGuiBoard::makeWindow()
{
    const QString config = m_run.writeConfig(JsonObject{{u"snapshot"_s, false}});
    Result<ProcessorSetup> setup = loadProcessorSetup(config, m_run.data->path());
    if (!setup) {
        qWarning() << setup.error().toString();
        return false;
    }
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    m_window = std::make_unique<MainWindow>(test::makeController(m_run.service, m_run.data->path(), s));
    new QAbstractItemModelTester(m_window->board()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal,
                                 m_window.get());
    new QAbstractItemModelTester(view()->sortModel(), QAbstractItemModelTester::FailureReportingMode::Fatal,
                                 m_window.get());
    if (!test::showAndOpen(*m_window, m_openID))
        return false;
    m_window->activateWindow();
    return QTest::qWaitForWindowActive(m_window.get());
}

QString TestGuiBoard::makeSession(const QString &title)
{
    SessionService::CreateOptions options;
    options.directory = m_run.project->path();
    options.title = title;
    const Result<Session> created = test::ownRead([&] { return m_run.service->create(options); });
    return created ? created->id() : QString();
}

bool TestGuiBoard::run(const QString &sessionID, const FakeReply &reply)
{
    // One at a time: each run takes the reply queued for it.
    const qsizetype requests = m_run.server->requests().size();
    m_run.server->enqueue(reply);
    const SessionController::PromptResult result = m_window->controller()->prompt(sessionID, u"Go"_s, {}, {});
    if (!result.ok()) {
        qWarning() << "prompt refused:" << result.error;
        return false;
    }
    return QTest::qWaitFor([&] { return m_run.server->requests().size() > requests; }, 20000);
}

QModelIndex TestGuiBoard::tile(const QString &sessionID) const
{
    const QAbstractItemModel *model = view()->sortModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, 0);
        if (index.data(BoardModel::SessionIdRole).toString() == sessionID)
            return index;
    }
    return {};
}

bool TestGuiBoard::showBoard()
{
    // The window shows it again as it was when the last one closed.
    QDockWidget *dock = m_window->board()->dock();
    if (dock->isVisible())
        return m_window->action(u"showBoard"_s)->isChecked();
    // View › Show Board's shortcut.
    QTest::keyClick(m_window.get(), Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
    return QTest::qWaitFor([&] { return dock->isVisible() && view()->isVisible(); }, 10000)
        && m_window->action(u"showBoard"_s)->isChecked();
}

void TestGuiBoard::concurrentRunsAsTiles()
{
    QVERIFY(!m_window->board()->dock()->isVisible());
    QVERIFY(showBoard());
    QVERIFY(view()->emptyLabel()->isVisible());
    QCOMPARE(view()->emptyLabel()->text(), u"No session is running"_s);

    // Four runs at once: three write and go on, one asks to run a command.
    const QString login = makeSession(u"Fix the login form"_s);
    const QString docs = makeSession(u"Update the README"_s);
    const QString tests = makeSession(u"Port the tests"_s);
    const QString clean = m_run.sessionID;
    QVERIFY(run(login, streamingReply(u"Reading the form handler.\nThe bug is in validate()."_s)));
    QVERIFY(run(docs, streamingReply(u"Adding the --shout flag to the usage."_s)));
    QVERIFY(run(tests, streamingReply(u"Converting test.sh to pytest."_s)));
    QVERIFY(run(clean, FakeReply::sse(bashCallReply(u"call_clean"_s, u"rm -rf build"_s))));

    QTRY_COMPARE_WITH_TIMEOUT(view()->sortModel()->rowCount(), 4, 20000);
    QVERIFY(view()->listView()->isVisible());
    QVERIFY(!view()->emptyLabel()->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(lastLine(login), u"The bug is in validate()."_s, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(lastLine(docs), u"Adding the --shout flag to the usage."_s, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(lastLine(tests), u"Converting test.sh to pytest."_s, 20000);
    QCOMPARE(stateOf(login), State::Running);
    QCOMPARE(tile(login).data(BoardModel::TitleRole).toString(), u"Fix the login form"_s);

    // The question is on its tile, first by state, in the inbox's words.
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(clean), State::Waiting, 20000);
    QVERIFY2(tile(clean).data(BoardModel::RequestDetailRole).toString().contains(u"rm -rf build"_s),
             qPrintable(tile(clean).data(BoardModel::RequestDetailRole).toString()));
    QCOMPARE(view()->sortModel()->index(0, 0).data(BoardModel::SessionIdRole).toString(), clean);
    QVERIFY(BoardView::noteText(tile(clean)).startsWith(u"⚑ "_s));
    QCOMPARE(BoardView::stateText(tile(clean)), u"Needs approval"_s);
    QVERIFY(tile(clean).data(Qt::AccessibleTextRole).toString().contains(u"rm -rf build"_s));

    // The grid reflows with the width: the four in a row, in two rows of a narrow floating dock.
    QListView *list = view()->listView();
    const auto rows = [&] {
        QSet<int> tops;
        for (int row = 0; row < view()->sortModel()->rowCount(); ++row)
            tops.insert(list->visualRect(view()->sortModel()->index(row, 0)).top());
        return tops.size();
    };
    QTRY_COMPARE_WITH_TIMEOUT(rows(), 1, 20000);
    QDockWidget *dock = m_window->board()->dock();
    dock->setFloating(true);
    dock->resize(640, 420);
    QTRY_COMPARE_WITH_TIMEOUT(rows(), 2, 20000);
    dock->setFloating(false);
    QTRY_COMPARE_WITH_TIMEOUT(rows(), 1, 20000);

    // A click on a tile opens its session.
    const QRect docsRect = list->visualRect(tile(docs));
    QVERIFY(!docsRect.isEmpty());
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, docsRect.center());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->currentSessionID(), docs, 20000);

    // The keyboard: Home, Right, Return opens the second tile's session.
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Home);
    QCOMPARE(list->currentIndex().row(), 0);
    QTest::keyClick(list, Qt::Key_Right);
    QCOMPARE(list->currentIndex().row(), 1);
    const QString second = list->currentIndex().data(BoardModel::SessionIdRole).toString();
    QVERIFY(second != docs);
    QTest::keyClick(list, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->currentSessionID(), second, 20000);

    // Denied in the window: the question leaves the tile; the agent's answer ends the run.
    m_run.server->enqueue(FakeReply::sse(textReply({u"Understood, I will leave build/ alone."_s})));
    // The asking tile opens its session with the keyboard on the question's first answer.
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(tile(clean)).center());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->currentSessionID(), clean, 20000);
    const QStringList keys = m_window->noticeBar()->keys().filter(u"permission-"_s);
    QVERIFY(!keys.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->noticeBar()->button(keys.first(), u"allowOnce"_s)->hasFocus(), 20000);
    m_window->noticeBar()->button(keys.first(), u"deny"_s)->click();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(clean), State::Finished, 20000);
    QCOMPARE(lastLine(clean), u"Understood, I will leave build/ alone."_s);
    // A new run of it: running again, its last line the new one.
    QVERIFY(run(clean, streamingReply(u"Second thoughts: listing build/ first."_s)));
    QTRY_COMPARE_WITH_TIMEOUT(lastLine(clean), u"Second thoughts: listing build/ first."_s, 20000);
    QCOMPARE(stateOf(clean), State::Running);

    // Stop from the tile's context menu, opened with the menu key.
    list->setCurrentIndex(tile(login));
    QContextMenuEvent menuEvent(QContextMenuEvent::Keyboard, QPoint(), list->mapToGlobal(QPoint()));
    QCoreApplication::sendEvent(list, &menuEvent);
    QMenu *menu = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())), 20000);
    QAction *stop = menu->findChild<QAction *>(u"boardStop"_s);
    QVERIFY(stop && stop->isEnabled());
    QVERIFY(!menu->findChild<QAction *>(u"boardDismiss"_s)->isEnabled());
    stop->trigger();
    menu->close();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(login), State::Stopped, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->controller()->processor()->isBusy(login), 20000);
    // The ended tile stays until dismissed: Delete on it.
    QCOMPARE(view()->sortModel()->rowCount(), 4);
    list->setCurrentIndex(tile(login));
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(view()->sortModel()->rowCount(), 3);
    QVERIFY(!tile(login).isValid());

    // Sorted by title from the combo.
    QComboBox *sort = view()->sortCombo();
    sort->setCurrentIndex(sort->findData(QVariant::fromValue(BoardSortModel::SortKey::Title)));
    QCOMPARE(view()->sortModel()->index(0, 0).data(BoardModel::TitleRole).toString(), u"A test session"_s);
    QCOMPARE(view()->sortModel()->index(2, 0).data(BoardModel::TitleRole).toString(), u"Update the README"_s);

    // Hidden again with the action.
    m_window->action(u"showBoard"_s)->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->board()->dock()->isVisible(), 20000);
    for (const QString &id : {docs, tests, clean})
        m_window->controller()->stop(id);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->controller()->busySessions().isEmpty(), 20000);
}

void TestGuiBoard::emptyStateAndFilter()
{
    QVERIFY(showBoard());
    const QString other = makeSession(u"Another"_s);
    QVERIFY(run(m_run.sessionID, FakeReply::sse(textReply({u"All done."_s}))));
    QTRY_COMPARE_WITH_TIMEOUT(view()->sortModel()->rowCount(), 1, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(m_run.sessionID), State::Finished, 20000);
    QVERIFY(view()->listView()->isVisible());

    // Filtered to sessions not on the board: the empty state says so.
    view()->setSessionFilter({other});
    QCOMPARE(view()->sortModel()->rowCount(), 0);
    QVERIFY(view()->emptyLabel()->isVisible());
    QCOMPARE(view()->emptyLabel()->text(), u"None of these sessions is running"_s);
    view()->setSessionFilter({m_run.sessionID, other});
    QCOMPARE(view()->sortModel()->rowCount(), 1);
    QVERIFY(view()->listView()->isVisible());

    // Dismissed from the menu of a right click: empty again.
    QListView *list = view()->listView();
    const QPoint at = list->visualRect(tile(m_run.sessionID)).center();
    QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, at, list->viewport()->mapToGlobal(at));
    QCoreApplication::sendEvent(list->viewport(), &menuEvent);
    QMenu *menu = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())), 20000);
    QAction *dismiss = menu->findChild<QAction *>(u"boardDismiss"_s);
    QVERIFY(dismiss && dismiss->isEnabled());
    QVERIFY(!menu->findChild<QAction *>(u"boardStop"_s)->isEnabled());
    dismiss->trigger();
    menu->close();
    QCOMPARE(view()->sortModel()->rowCount(), 0);
    QVERIFY(view()->emptyLabel()->isVisible());
}

void TestGuiBoard::serverSessionsOnTheBoard()
{
    // An OpenCode server as a source; its recorded event stream runs a session that asks.
    test::FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    server.route("GET", u"/experimental/session"_s, 200, test::recordedExchange(u"session list"_s).responseBody);
    QVERIFY(showBoard());
    ServerSource *source = m_window->sources()->connectServer(server.url().toString(), u"secret"_s, false);
    QVERIFY(source);
    QTRY_VERIFY_WITH_TIMEOUT(source->isReady(), 20000);
    const QString id = test::recordedExchange(u"create V1 session"_s).responseBody.toObject().string(u"id");
    QVERIFY(!id.isEmpty());
    const QList<QByteArray> frames = test::recordedEvents(u"events-global-permission.sse"_s).mid(1);
    qsizetype asked = -1;
    for (qsizetype i = 0; i < frames.size() && asked < 0; ++i) {
        server.pushFrame(frames.at(i));
        if (frames.at(i).contains("\"type\":\"permission.asked\""))
            asked = i;
    }
    QVERIFY(asked > 0);
    QTRY_VERIFY_WITH_TIMEOUT(tile(id).isValid(), 20000);
    QCOMPARE(tile(id).data(BoardModel::SourceRole).toString(), source->key());
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(id), State::Waiting, 20000);
    QVERIFY(!tile(id).data(BoardModel::RequestDetailRole).toString().isEmpty());
    // Titled as the server's list says, not by its ID.
    QVERIFY(tile(id).data(BoardModel::TitleRole).toString() != id);

    // The rest of the stream: the command ran, the run ended there.
    for (const QByteArray &frame : frames.mid(asked + 1))
        server.pushFrame(frame);
    QTRY_VERIFY_WITH_TIMEOUT(BoardModel::hasEnded(stateOf(id)), 20000);
    QVERIFY(!tile(id).data(BoardModel::ActivityTextRole).toString().isEmpty());

    // A click opens it from its server.
    QListView *list = view()->listView();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(tile(id)).center());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->currentSessionID(), id, 20000);
    QCOMPARE(m_window->currentSource(), source->key());

    // The server goes: so do its tiles.
    m_window->sources()->disconnectServer(source->key());
    QTRY_VERIFY_WITH_TIMEOUT(!tile(id).isValid(), 20000);
}

void TestGuiBoard::sessionRunElsewhere()
{
    // A `weft run` in a terminal holds the session's lock (flock(1) holding it), then names
    // itself in the file as Weft does (SessionLock::acquire(): the name is written once the lock is
    // held, which is what the window's watcher sees).
    QVERIFY(showBoard());
    const QString id = m_run.sessionID;
    const QString lockFile = SessionLock::path(m_run.data->path(), id);
    QVERIFY(QDir().mkpath(SessionLock::folder(m_run.data->path())));
    QProcess holder;
    // --no-fork: flock(1) becomes `sleep`, so that killing it releases the lock.
    holder.start(u"flock"_s, {u"--exclusive"_s, u"--no-fork"_s, lockFile, u"sleep"_s, u"120"_s});
    QVERIFY2(holder.waitForStarted(), "flock(1) of util-linux is needed");
    QTRY_VERIFY_WITH_TIMEOUT(SessionLock::holder(m_run.data->path(), id).has_value(), 20000);
    QFile file(lockFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(toJson(JsonObject{{u"pid"_s, 4242}, {u"host"_s, QSysInfo::machineHostName()},
                                 {u"command"_s, u"weft run"_s}, {u"since"_s, qint64(1764000000000)}},
                      0));
    file.close();

    QTRY_VERIFY_WITH_TIMEOUT(tile(id).isValid(), 20000);
    QCOMPARE(stateOf(id), State::Running);
    QVERIFY(tile(id).data(BoardModel::ElsewhereRole).toBool());
    QCOMPARE(BoardView::noteText(tile(id)), u"Runs in another process"_s);
    // Not stopped from here.
    std::unique_ptr<QMenu> menu(view()->contextMenu(tile(id)));
    QVERIFY(!menu->findChild<QAction *>(u"boardStop"_s)->isEnabled());

    // That process ends: so does the tile's run.
    holder.kill();
    QVERIFY(holder.waitForFinished());
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(id), State::Finished, 20000);
    QVERIFY(!tile(id).data(BoardModel::ElsewhereRole).toBool());
}

QTEST_MAIN(TestGuiBoard)
#include "tst_gui_board.moc"
