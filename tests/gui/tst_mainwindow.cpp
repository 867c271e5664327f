// SPDX-License-Identifier: GPL-3.0-or-later
// The main window on fixture data: opening sessions, forking from the timeline's context menu,
// keyboard use, the composer's requests, persistence of the splitters, problems.

#include "composer.h"
#include "noticebar.h"
#include "shortcutsdialog.h"
#include "contextmeter.h"
#include "guitest.h"
#include "scriptedquestions.h"
#include "mainwindow.h"
#include "sessionpane.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "processor/setup.h"
#include "session/sessionstore.h"
#include "sessionsidebar.h"
#include "startupgate.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QThreadPool>
#include <QSignalSpy>
#include <QSplitter>
#include <QSet>
#include <QMimeData>
#include <QDropEvent>
#include <QTemporaryDir>
#include <QApplication>
#include <QUrl>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString HandNamed = u"ses_dff05751fffexgWr6MRybGFAXU"_s;
const QString LastUser = u"msg_200fa8a79001521Zy53EibRhjH"_s;
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void opensTheNewestSession();
    void opensTheSessionGivenAtStart();
    void gitWaitsForTheFirstFrame();
    void showsAFixtureSession();
    void forkFromUserMessage();
    void forkFromAssistantMessage_data();
    void forkFromAssistantMessage();
    void promptHistory();
    void keyboardShortcutsList();
    void importByDropping();
    void keyboard();
    void deleteMovesToTheTrash();
    void composerRequests();
    void toolCardsExpand();
    void spinnerOnlyWhileRunning();
    void splitterSizesPersist();
    void exportWritesTheDocument();
    void problemsInTheStatusBar();

private:
    MainWindow *makeWindow();

    QTemporaryDir m_settings;
    std::unique_ptr<test::FixtureDataDir> m_data;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
}

void TestMainWindow::init()
{
    m_data = std::make_unique<test::FixtureDataDir>();
    m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
}

void TestMainWindow::cleanup()
{
    m_window.reset();
    m_service.reset();
    m_data.reset();
}

MainWindow *TestMainWindow::makeWindow()
{
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    m_window->resize(1300, 820);
    m_window->show();
    if (!QTest::qWaitForWindowExposed(m_window.get()))
        return nullptr;
    return m_window.get();
}

void TestMainWindow::opensTheNewestSession()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QTRY_COMPARE(w->currentSessionID(), HandNamed);
    QCOMPARE(w->sidebar()->currentSessionID(), HandNamed);
    QTRY_VERIFY(w->timelineModel()->rowCount() > 0);
    QCOMPARE(w->composer()->sessionID(), HandNamed);
}

void TestMainWindow::opensTheSessionGivenAtStart()
{
    // `weft --session ID` (app/window.cpp): shown right after the window is made, before the
    // session list is in; it stays once the list comes (not the newest), selected in the sidebar.
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    MainWindow *w = m_window.get();
    QSignalSpy listed(w->sessionsModel(), &SessionsModel::loaded);
    w->openAtStart(MainID);
    QCOMPARE(w->currentSessionID(), MainID);
    QCOMPARE(listed.count(), 0);
    w->show();
    QVERIFY(listed.wait(20000));
    QCOMPARE(w->currentSessionID(), MainID);
    QTRY_COMPARE_WITH_TIMEOUT(w->sidebar()->currentSessionID(), MainID, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(w->timelineModel()->rowCount(), 30, 20000);
    QCOMPARE(w->windowTitle(), u"Scripted session please create the fi"_s);

    // One the store does not have: the window starts as it would without it, with the tabs of
    // the window before (the one above, which showed MainID), once the list is in.
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    w = m_window.get();
    QSignalSpy listedAgain(w->sessionsModel(), &SessionsModel::loaded);
    w->openAtStart(u"ses_notInTheStore"_s);
    QCOMPARE(w->currentSessionID(), u"ses_notInTheStore"_s);
    w->show();
    QVERIFY(listedAgain.wait(20000));
    QCOMPARE(w->currentSessionID(), MainID);
    QTRY_COMPARE_WITH_TIMEOUT(w->timelineModel()->rowCount(), 30, 20000);
}

void TestMainWindow::gitWaitsForTheFirstFrame()
{
    // A git on PATH that notes each start, then runs the real one.
    const QString realGit = QStandardPaths::findExecutable(u"git"_s);
    if (realGit.isEmpty())
        QSKIP("no git on PATH");
    QTemporaryDir bin;
    QVERIFY(bin.isValid());
    const QString log = bin.filePath(u"git.log"_s);
    // A session in a folder that is there (the fixture's folders are not): its project is asked.
    QTemporaryDir project;
    SessionService::CreateOptions options;
    options.directory = project.path();
    options.title = u"In a folder"_s;
    const Result<Session> created = test::ownRead([&] { return m_service->create(options); });
    QVERIFY(created);
    // The config as the window loads it: a session's project is read again for its choices.
    const QString config = bin.filePath(u"weft.json"_s);
    QVERIFY(test::writeFile(config, "{}"));
    Result<ProcessorSetup> setup = loadProcessorSetup(config, m_data->path(), project.path());
    QVERIFY(setup);
    QVERIFY(test::writeFile(bin.filePath(u"git"_s),
                            QByteArray("#!/bin/sh\necho \"$*\" >> '" + log.toUtf8() + "'\nexec '" + realGit.toUtf8()
                                       + "' \"$@\"\n"),
                            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", QByteArray(QFile::encodeName(bin.path()) + ':' + path));
    const auto restorePath = qScopeGuard([path] { qputenv("PATH", path); });

    // Made, a session given as at start: what the first frame does not need waits for the gate
    // (the project's identity for the composer's choices, its files, the worktree).
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path(), std::move(setup).value()));
    MainWindow *w = m_window.get();
    StartupGate *gate = w->startupGate();
    w->openAtStart(created->id());
    QThreadPool::globalInstance()->waitForDone(); // whatever was started off the GUI thread ended
    QVERIFY(!gate->isOpen());
    QVERIFY(!QFile::exists(log));
    bool ran = false;
    StartupGate::run(gate, this, [&ran] { ran = true; });
    QVERIFY(!ran);

    // Shown: the frame that painted the session opens it (or its longest wait), and git runs.
    w->resize(1300, 820);
    w->show();
    QTRY_VERIFY_WITH_TIMEOUT(gate->isOpen(), 20000);
    QVERIFY(ran);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(log), 20000);
    QCOMPARE(w->currentSessionID(), created->id());
    // Once open, work given runs at once.
    bool now = false;
    StartupGate::run(gate, this, [&now] { now = true; });
    QVERIFY(now);
    // Without a gate (a pane made outside a window) work runs at once.
    bool direct = false;
    StartupGate::run(nullptr, this, [&direct] { direct = true; });
    QVERIFY(direct);
}

void TestMainWindow::showsAFixtureSession()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    QCOMPARE(w->sidebar()->currentSessionID(), MainID);
    QCOMPARE(w->windowTitle(), u"Scripted session please create the fi"_s);
    TimelineView *view = w->timelineView();
    QAbstractItemModel *rows = view->model();
    QAbstractItemModelTester tester(rows, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(rows->rowCount(), 30);
    // Badges: the tool states of the rows as the delegate labels them.
    QStringList badges;
    for (int r = 0; r < rows->rowCount(); ++r) {
        const QModelIndex idx = rows->index(r, 0);
        const bool live = idx.data(TimelineModel::RunningRole).toBool();
        for (ToolStatus s : idx.data(TimelineModel::ToolStatusesRole).value<QList<ToolStatus>>())
            badges.append(TimelineDelegate::badgeText(s, live));
    }
    QCOMPARE(badges.count(u"Error"_s), 3);
    QCOMPARE(badges.count(u"Completed"_s), 6);
    QCOMPARE(badges.size(), 9);
    // The view is at the newest message.
    QTRY_VERIFY(view->isPinnedToBottom());
    QVERIFY(view->visualRect(rows->index(29, 0)).intersects(view->viewport()->rect()));
    // Every row has a height, and the compaction marker is slimmer than a reply.
    for (int r = 0; r < rows->rowCount(); ++r)
        QVERIFY(view->visualRect(rows->index(r, 0)).height() > 10);
    // The context meter: the last reply's tokens.
    QCOMPARE(w->contextMeter()->tokens(), w->timelineModel()->contextTokens());
    QVERIFY(w->contextMeter()->tokens() > 0);
    QCOMPARE(w->composer()->currentModel(), u"fake/m1"_s);
    QCOMPARE(w->composer()->currentAgent(), u"build"_s);
}

void TestMainWindow::forkFromUserMessage()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    TimelineView *view = w->timelineView();
    const QModelIndex source = w->timelineModel()->indexForId(LastUser);
    const QModelIndex index = view->model()->index(source.row(), 0);
    std::unique_ptr<QMenu> menu(view->createContextMenu(index, w));
    auto *fork = menu->findChild<QAction *>(u"forkFromHere"_s);
    QVERIFY(fork);
    QSignalSpy forked(w, &MainWindow::forked);
    fork->trigger();
    QVERIFY(forked.wait(10000));
    const QString id = forked.first().at(0).toString();
    QVERIFY(id != MainID);
    QCOMPARE(w->currentSessionID(), id);
    QCOMPARE(w->sidebar()->currentSessionID(), id);
    // Everything before that user message: 28 of the 30 messages.
    QCOMPARE(test::ownRead([&] { return m_service->messages(id); }).size(), 28);
    QTRY_COMPARE(w->timelineModel()->rowCount(), 28);
    QCOMPARE(w->timelineModel()->sessionID(), id);
    QCOMPARE(test::ownRead([&] { return m_service->get(id); })->title(),
             u"Scripted session please create the fi (fork #1)"_s);
    // The sidebar shows it under the session it came from.
    const QModelIndex node = w->sessionTreeModel()->indexForSession(id);
    QCOMPARE(node.parent(), w->sessionTreeModel()->indexForSession(MainID));
    // The message forked from is in the composer, to be edited and sent again, cursor at its end.
    const QString forkedText
        = TimelineModel::visibleText(test::ownRead([&] { return storeOf(*m_service)->parts(MainID, LastUser); }));
    QVERIFY(!forkedText.isEmpty());
    QCOMPARE(w->composer()->text(), forkedText);
    QTRY_VERIFY(w->composer()->editor()->hasFocus());
    QCOMPARE(w->composer()->editor()->textCursor().position(), forkedText.size());
}

void TestMainWindow::forkFromAssistantMessage_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("expected");
    QTest::addRow("first reply") << 1 << 2; // its user message and itself
    QTest::addRow("second step of a turn") << 2 << 3;
    QTest::addRow("summary") << 27 << 28;
    QTest::addRow("last reply") << 29 << 30; // the whole session
}

void TestMainWindow::forkFromAssistantMessage()
{
    QFETCH(int, row);
    QFETCH(int, expected);
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    TimelineView *view = w->timelineView();
    const QModelIndex index = view->model()->index(row, 0);
    QCOMPARE(index.data(TimelineModel::AuthorRole).value<Message::Role>(), Message::Role::Assistant);
    // The index is the view's (a proxy's): it does not outlive the switch to the fork.
    const QVariant text = index.data(TimelineModel::TextRole);
    std::unique_ptr<QMenu> menu(view->createContextMenu(index, w));
    QSignalSpy forked(w, &MainWindow::forked);
    menu->findChild<QAction *>(u"forkFromHere"_s)->trigger();
    QVERIFY(forked.wait(10000));
    const QString id = forked.first().at(0).toString();
    QCOMPARE(w->currentSessionID(), id);
    QCOMPARE(w->sidebar()->currentSessionID(), id);
    QCOMPARE(test::ownRead([&] { return m_service->messages(id); }).size(), expected);
    QTRY_COMPARE(w->timelineModel()->rowCount(), expected);
    // The fork ends with the message it was made from; the composer stays empty.
    QCOMPARE(w->timelineModel()->index(expected - 1, 0).data(TimelineModel::TextRole), text);
    QCOMPARE(w->composer()->text(), QString());
}

void TestMainWindow::keyboardShortcutsList()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w));
    // Help › Keyboard Shortcuts, by its own shortcut.
    QTest::keyClick(w, Qt::Key_Comma, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(w->shortcutsDialog() && w->shortcutsDialog()->isVisible());
    ShortcutsDialog *dialog = w->shortcutsDialog();
    const QStringList all = dialog->visibleRows();
    const auto keys = [](const QKeySequence &k) { return k.toString(QKeySequence::NativeText); };
    // Every action of the window with a shortcut is there, named as in its menu, once.
    QVERIFY2(all.contains(u"Fork\t"_s + keys(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B)) + u"\tWindow"_s),
             qPrintable(all.join(u'\n')));
    QVERIFY(all.contains(u"New Session\t"_s + keys(QKeySequence::New) + u"\tWindow"_s));
    QVERIFY(all.contains(u"Keyboard Shortcuts\t"_s + keys(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Comma)) + u"\tWindow"_s));
    QVERIFY(all.contains(u"Copy Text\t"_s + keys(QKeySequence::Copy) + u"\tTimeline"_s));
    QVERIFY(all.contains(u"Copy as Markdown\t"_s + keys(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)) + u"\tTimeline"_s));
    QVERIFY(all.contains(u"Send the prompt\t"_s + keys(QKeySequence(Qt::Key_Return)) + u"\tPrompt"_s));
    QCOMPARE(QSet<QString>(all.cbegin(), all.cend()).size(), all.size());
    QVERIFY2(all.size() >= 20, qPrintable(QString::number(all.size())));
    // Searching by name, by key or by place narrows the list as the user types.
    QTest::keyClicks(dialog->searchField(), u"fork"_s);
    const QStringList fork = dialog->visibleRows();
    QVERIFY(!fork.isEmpty() && fork.size() < all.size());
    for (const QString &row : fork)
        QVERIFY2(row.contains(u"fork"_s, Qt::CaseInsensitive), qPrintable(row));
    dialog->searchField()->clear();
    QTest::keyClicks(dialog->searchField(), keys(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B)));
    QCOMPARE(dialog->visibleRows().size(), 1);
    QVERIFY(dialog->visibleRows().constFirst().startsWith(u"Fork\t"_s));
    dialog->searchField()->setText(u"nothing matches this"_s);
    QCOMPARE(dialog->visibleRows().size(), 0);
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!w->shortcutsDialog());
}

void TestMainWindow::importByDropping()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    QTemporaryDir dir;
    const QString good = dir.filePath(u"main.json"_s);
    const Result<void> exported = test::awaitResult(w->exportSession(MainID, good));
    QVERIFY2(exported, qPrintable(exported ? QString() : exported.error().toString()));
    const QString broken = dir.filePath(u"broken.json"_s);
    QFile file(broken);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"info\": {\"id\": \"../../etc\"}, \"messages\": [");
    file.close();
    QVERIFY(w->action(u"importSession"_s));
    QCOMPARE(w->action(u"importSession"_s)->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));

    QWidget *target = w->timelineView()->viewport();
    const QPoint pos = target->rect().center();
    const auto drag = [&](const QList<QUrl> &urls) {
        QMimeData mime;
        mime.setUrls(urls);
        QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &enter);
        if (!enter.isAccepted())
            return false;
        QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &drop);
        return drop.isAccepted();
    };
    // Something else dropped is not an import.
    QVERIFY(!drag({QUrl::fromLocalFile(dir.filePath(u"notes.txt"_s))}));
    QVERIFY(!drag({QUrl(u"https://example.com/session.json"_s)}));

    // Two export files: the good one is imported (its IDs are taken, so it gets new ones) and
    // opened; the damaged one is named in a notice with the reason.
    QSignalSpy finished(w, &MainWindow::importsFinished);
    const qsizetype before = test::ownRead([&] { return m_service->list(); }).size();
    QVERIFY(drag({QUrl::fromLocalFile(good), QUrl::fromLocalFile(broken)}));
    QVERIFY(finished.wait(10000));
    const QStringList imported = finished.first().at(0).toStringList();
    QCOMPARE(imported.size(), 1);
    QCOMPARE(finished.first().at(1).toStringList(), QStringList{broken});
    QVERIFY(imported.first() != MainID);
    QCOMPARE(test::ownRead([&] { return m_service->messages(imported.first()); }).size(),
             test::ownRead([&] { return m_service->messages(MainID); }).size());
    QTRY_COMPARE(w->currentSessionID(), imported.first());
    QTRY_VERIFY(w->sessionsModel()->indexForId(imported.first()).isValid());
    NoticeBar *notices = w->noticeBar();
    QVERIFY(notices->hasNotice(u"import"_s));
    QVERIFY2(notices->noticeText(u"import"_s).contains(u"broken.json"_s), qPrintable(notices->noticeText(u"import"_s)));
    // Nothing of the damaged file was written.
    QCOMPARE(test::ownRead([&] { return m_service->list(); }).size(), before + 1);
}

void TestMainWindow::promptHistory()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    // The session's prompts, oldest first, as the user typed them.
    QStringList prompts;
    for (const Message &m : test::ownRead([&] { return storeOf(*m_service)->messages(MainID); })) {
        const QString text = m.isUser()
            ? TimelineModel::visibleText(test::ownRead([&] { return storeOf(*m_service)->parts(MainID, m.id()); }))
            : QString();
        if (!text.isEmpty())
            prompts.append(text);
    }
    QVERIFY(prompts.size() >= 3);
    QPlainTextEdit *editor = w->composer()->editor();
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w));
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    // Up walks back from the newest, Down walks forward to an empty composer.
    QTest::keyClick(editor, Qt::Key_Up);
    QCOMPARE(w->composer()->text(), prompts.constLast());
    QTest::keyClick(editor, Qt::Key_Up);
    QCOMPARE(w->composer()->text(), prompts.at(prompts.size() - 2));
    QTest::keyClick(editor, Qt::Key_Down);
    QCOMPARE(w->composer()->text(), prompts.constLast());
    QTest::keyClick(editor, Qt::Key_Down);
    QCOMPARE(w->composer()->text(), QString());
    // At the oldest, Up stays there.
    for (int i = 0; i < prompts.size() + 2; ++i)
        QTest::keyClick(editor, Qt::Key_Up);
    QCOMPARE(w->composer()->text(), prompts.constFirst());
    // A recalled prompt that is edited is the user's own text: Up is the editor's again.
    QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(editor, u" (again)"_s);
    const QString edited = prompts.constFirst() + u" (again)"_s;
    QCOMPARE(w->composer()->text(), edited);
    QTest::keyClick(editor, Qt::Key_Up);
    QTest::keyClick(editor, Qt::Key_Down);
    QCOMPARE(w->composer()->text(), edited);
    // Text the user typed is never replaced.
    w->composer()->clearText();
    QTest::keyClicks(editor, u"new words"_s);
    QTest::keyClick(editor, Qt::Key_Up);
    QCOMPARE(w->composer()->text(), u"new words"_s);
}

void TestMainWindow::keyboard()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    QTreeView *tree = w->sidebar()->view();

    // Ctrl+K: the sidebar's filter (Ctrl+F finds in the session).
    w->activateWindow();
    w->timelineView()->setFocus();
    QTest::keySequence(w, QKeySequence(Qt::CTRL | Qt::Key_K));
    QTRY_VERIFY(w->sidebar()->filterEdit()->hasFocus());
    QTest::keyClicks(w->sidebar()->filterEdit(), u"hand"_s);
    QTest::keyClick(w->sidebar()->filterEdit(), Qt::Key_Down);
    QVERIFY(tree->hasFocus());
    QTRY_COMPARE(w->currentSessionID(), HandNamed);
    QTest::keyClick(w->sidebar()->filterEdit(), Qt::Key_Escape);

    // Arrows walk the sessions and open them.
    tree->setFocus();
    w->openAtStart(MainID);
    QTest::keyClick(tree, Qt::Key_Up);
    QTest::keyClick(tree, Qt::Key_Up);
    QTRY_COMPARE(w->currentSessionID(), HandNamed);

    // F2 renames in place.
    QTest::keyClick(tree, Qt::Key_F2);
    auto *editor = tree->viewport()->findChild<QLineEdit *>();
    QVERIFY(editor);
    QTRY_VERIFY(editor->isVisible());
    editor->selectAll();
    QTest::keyClicks(editor, u"Renamed by keyboard"_s);
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE(test::ownRead([&] { return m_service->get(HandNamed); })->title(), u"Renamed by keyboard"_s);
    QTRY_COMPARE(w->windowTitle(), u"Renamed by keyboard"_s);

    // Ctrl+Shift+B forks the current session (Ctrl+Shift+F searches all sessions).
    QSignalSpy forked(w, &MainWindow::forked);
    tree->setFocus();
    QTest::keySequence(w, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    QVERIFY(forked.wait(10000));
    QCOMPARE(test::ownRead([&] { return m_service->get(forked.first().at(0).toString()); })->title(),
             u"Renamed by keyboard (fork #1)"_s);
}

void TestMainWindow::deleteMovesToTheTrash()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, HandNamed));
    QStringList asked;
    w->setUserQuestions(test::scriptedQuestions([&](const Confirmation &c) {
        asked.append(c.text);
        return false;
    }));
    QTreeView *tree = w->sidebar()->view();
    w->activateWindow();
    tree->setFocus();
    // No question: the session goes to the trash, and Undo brings it back (tst_gui_trash).
    QTest::keyClick(tree, Qt::Key_Delete);
    QCOMPARE(asked.size(), 0);
    QTRY_VERIFY(!test::ownRead([&] { return m_service->get(HandNamed); }).has_value());
    QVERIFY(!test::ownRead([&] { return m_service->get(u"ses_dff057405ffesKzX5TtUsbqkQ3"_s); }).has_value());
    QTRY_VERIFY(!w->sessionsModel()->indexForId(HandNamed).isValid());
    QCOMPARE(test::ownRead([&] { return m_service->trashEntries(); }).size(), 1);
    QTRY_VERIFY(w->noticeBar()->hasNotice(u"trash"_s));
    // Another session is shown instead.
    QTRY_VERIFY(!w->currentSessionID().isEmpty());
    QVERIFY(w->currentSessionID() != HandNamed);

    // In the composer, Delete edits text and deletes no session.
    QVERIFY(test::openAndLoad(*w, MainID));
    w->composer()->editor()->setFocus();
    w->composer()->setText(u"ab"_s);
    w->composer()->editor()->moveCursor(QTextCursor::Start);
    QTest::keyClick(w->composer()->editor(), Qt::Key_Delete);
    QCOMPARE(w->composer()->text(), u"b"_s);
    QCOMPARE(asked.size(), 0);
    QCOMPARE(test::ownRead([&] { return m_service->trashEntries(); }).size(), 1);
}

void TestMainWindow::composerRequests()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    Composer *composer = w->composer();
    QSignalSpy send(composer, &Composer::sendRequested);
    QSignalSpy compact(composer, &Composer::compactRequested);
    QVERIFY(!composer->sendButton()->isEnabled());
    QPlainTextEdit *editor = composer->editor();
    editor->setFocus();
    QTest::keyClicks(editor, u"first line"_s);
    QTest::keyClick(editor, Qt::Key_Return, Qt::ShiftModifier);
    QTest::keyClicks(editor, u"second line"_s);
    QCOMPARE(composer->text(), u"first line\nsecond line"_s);
    QVERIFY(composer->sendButton()->isEnabled());
    QTest::keyClick(editor, Qt::Key_Return);
    QCOMPARE(send.size(), 1);
    QCOMPARE(send.first().at(0).toString(), MainID);
    QCOMPARE(send.first().at(1).toString(), u"first line\nsecond line"_s);
    QCOMPARE(send.first().at(2).toString(), u"build"_s);
    QCOMPARE(send.first().at(3).toString(), u"fake/m1"_s);
    // The text stays until the receiver took it.
    QCOMPARE(composer->text(), u"first line\nsecond line"_s);

    composer->compactButton()->click();
    QCOMPARE(compact.size(), 1);
    QCOMPARE(compact.first().at(0).toString(), MainID);
    w->action(u"compact"_s)->trigger();
    QCOMPARE(compact.size(), 2);
}

void TestMainWindow::toolCardsExpand()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    TimelineView *view = w->timelineView();
    const QModelIndex index
        = view->model()->index(w->timelineModel()->indexForId(u"msg_200fa80bc001XL5vut0Jqlbu27"_s).row(), 0);
    view->scrollTo(index, QAbstractItemView::PositionAtTop);
    QVERIFY(test::settle(*w));
    const int before = view->visualRect(index).height();
    // Click on the tool card's header.
    QPoint header;
    const QRect rect = view->visualRect(index);
    for (int y = 0; y < rect.height() && header.isNull(); y += 2) {
        const QPoint p(rect.center().x(), rect.top() + y);
        if (view->timelineDelegate()->hitTest(index, p - rect.topLeft()).kind == TimelineDelegate::Hit::Kind::Toggle)
            header = p;
    }
    QVERIFY(!header.isNull());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, header);
    QTRY_VERIFY(view->visualRect(index).height() > before + 40);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(index).topLeft() + (header - rect.topLeft()));
    QTRY_COMPARE(view->visualRect(index).height(), before);
}

void TestMainWindow::spinnerOnlyWhileRunning()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    QVERIFY(!w->timelineView()->isAnimating());
    Message reply
        = Message::makeAssistant(u"msg_300000000001AAAAAAAAAAAAAA"_s, MainID, 1795312760000, LastUser, u"fake"_s,
                                 u"m1"_s, u"build"_s, u"/home/dev/src/demo"_s, u"/home/dev/src/demo"_s);
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(reply); }));
    QTRY_VERIFY(w->timelineView()->isAnimating());
    // Another process writes this reply: the sidebar marks the session, but Stop could not stop
    // it, and a reply a crash left unfinished must not lock the composer: Send stays.
    QVERIFY(!w->composer()->isRunning());
    QVERIFY(w->composer()->sendButton()->isVisible());
    QVERIFY(w->sessionsModel()->isRunning(MainID));
    reply.setCompleted(1795312761000);
    QVERIFY(test::ownRead([&] { return m_service->updateMessage(reply); }));
    QTRY_VERIFY(!w->timelineView()->isAnimating());
    QVERIFY(!w->composer()->isRunning());
}

void TestMainWindow::splitterSizesPersist()
{
    {
        MainWindow *w = makeWindow();
        QVERIFY(w);
        QTRY_VERIFY(!w->currentSessionID().isEmpty()); // the tabs of the window before are in
        QTRY_VERIFY(w->currentPane()->splitter()->sizes().value(0) > 0);
        // Sidebar | panes; in the pane, timeline | changes (each pane has its changes pane).
        w->splitter()->setSizes({220, 1080});
        w->currentPane()->splitter()->setSizes({780, 300});
        w->centerSplitter()->setSizes({600, 160});
        m_window.reset();
    }
    QList<int> sizes;
    QList<int> center;
    {
        QSettings settings;
        QVERIFY(settings.contains(u"MainWindow/splitter"_s));
    }
    MainWindow *w = makeWindow();
    QVERIFY(w);
    // The tabs of the last window come once the session list is in, laid out after.
    QTRY_VERIFY(!w->currentSessionID().isEmpty());
    QTRY_VERIFY(w->currentPane()->splitter()->sizes().value(0) > 0);
    sizes = w->splitter()->sizes();
    center = w->centerSplitter()->sizes();
    QCOMPARE(sizes.value(0), 220);
    QCOMPARE(w->currentPane()->splitter()->sizes().value(1), 300);
    QCOMPARE(center.value(1), 160);
}

void TestMainWindow::exportWritesTheDocument()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QTemporaryDir out;
    const QString path = out.filePath(u"main.json"_s);
    const Result<void> exported = test::awaitResult(w->exportSession(MainID, path));
    QVERIFY2(exported, qPrintable(exported ? QString() : exported.error().toString()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::optional<JsonValue> doc = parseJson(file.readAll());
    QVERIFY(doc);
    QCOMPARE(doc->toObject().object(u"info"_s).string(u"id"_s), MainID);
    QCOMPARE(doc->toObject().array(u"messages"_s).size(), 30);
}

void TestMainWindow::problemsInTheStatusBar()
{
    // A crash left a message file of NUL bytes.
    QFile damaged(m_data->storage() + u"/message/"_s + MainID + u"/msg_200fa7ecb001c3Nb1NHK3TNUPw.json"_s);
    QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
    damaged.write(QByteArray(64, '\0'));
    damaged.close();
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(test::openAndLoad(*w, MainID));
    QTRY_COMPARE(w->problemCount(), 1);
    auto *button = w->findChild<QToolButton *>(u"problemsButton"_s);
    QVERIFY(button);
    QVERIFY(button->isVisible());
    QCOMPARE(button->text(), u"1 problem"_s);
    // The rest of the session is there.
    QCOMPARE(w->timelineModel()->rowCount(), 29);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
