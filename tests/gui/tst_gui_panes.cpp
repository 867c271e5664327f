// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions side by side (issue 36 §1): tabs opened from the sidebar (Ctrl+click, middle click,
// Ctrl+T), groups split right and down, a tab dragged onto another group's tab bar or an edge of
// it, Ctrl+Tab and Ctrl+1…9, closing (Ctrl+W, middle click), the layout restored by the next
// window, a tab in a window of its own, and two sessions running at once against the fake
// model server, each streaming into its own pane from its own composer.

#include "composer.h"
#include "fakellmserver.h"
#include "guitest.h"
#include "mainwindow.h"
#include "panearea.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "runfixture.h"
#include "session/sessionservice.h"
#include "sessionpane.h"
#include "sessionsidebar.h"
#include "timelineview.h"

#include <QAction>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTest>
#include <QTreeView>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

class TestGuiPanes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void newTabFromTheSidebar();
    void splitRightAndDown();
    void dragTabToAnotherGroupAndEdge();
    void ctrlTabAndCtrlNumber();
    void closeTabs();
    void layoutPersists();
    void moveTabToNewWindow();
    void twoRunsAtOnce();

private:
    bool makeWindow(bool withModel = false);
    /// A second and a third session in the fixture's project, made before the window.
    bool makeMoreSessions();
    /// Clicks @p sessionID's row in the sidebar with @p button and @p modifiers.
    void clickRow(const QString &sessionID, Qt::MouseButton button, Qt::KeyboardModifiers modifiers = {});
    /// What a tab dropped at @p pos of @p group does (the drag's events as Qt sends them).
    static bool dropTab(SessionPane *pane, PaneGroup *group, QPoint pos);
    [[nodiscard]] QStringList shownSessions() const;

    QTemporaryDir m_settings;
    RunFixture m_run;
    QString m_second;
    QString m_third;
    std::unique_ptr<MainWindow> m_window;
};

void TestGuiPanes::initTestCase()
{
    QVERIFY(initGuiTestCase(m_settings));
    clearProviderKeys();
}

void TestGuiPanes::init()
{
    QSettings().clear(); // each test starts with one tab
    QVERIFY(m_run.setUp());
    QVERIFY(makeMoreSessions());
}

void TestGuiPanes::cleanup()
{
    m_window.reset();
    m_run.tearDown();
}

bool TestGuiPanes::makeMoreSessions()
{
    return ownRead([&] {
        SessionService::CreateOptions options;
        options.directory = m_run.project->path();
        options.title = u"Second session"_s;
        const Result<Session> second = m_run.service->create(options);
        options.title = u"Third session"_s;
        const Result<Session> third = m_run.service->create(options);
        if (!second || !third)
            return false;
        m_second = second->id();
        m_third = third->id();
        return true;
    });
}

bool TestGuiPanes::makeWindow(bool withModel)
{
    std::optional<ProcessorSetup> setup;
    if (withModel) {
        const QString config = m_run.writeConfig();
        Result<ProcessorSetup> loaded = loadProcessorSetup(config, m_run.data->path());
        if (!loaded)
            return false;
        setup = loaded.value();
        setup->config.generateTitles = false;
    }
    m_window = std::make_unique<MainWindow>(makeController(m_run.service, m_run.data->path(), std::move(setup)));
    if (!showAndOpen(*m_window, m_run.sessionID))
        return false;
    m_window->activateWindow();
    return QTest::qWaitForWindowActive(m_window.get());
}

void TestGuiPanes::clickRow(const QString &sessionID, Qt::MouseButton button, Qt::KeyboardModifiers modifiers)
{
    SessionSidebar *sidebar = m_window->sidebar();
    const QModelIndex index = sidebar->proxy()->mapFromSource(m_window->sessionTreeModel()->indexForSession(sessionID));
    QVERIFY(index.isValid());
    sidebar->view()->scrollTo(index);
    QTest::mouseClick(sidebar->view()->viewport(), button, modifiers, sidebar->view()->visualRect(index).center());
}

bool TestGuiPanes::dropTab(SessionPane *pane, PaneGroup *group, QPoint pos)
{
    QMimeData data;
    data.setData(PaneTabBar::mimeType(), QByteArray::number(quintptr(pane)));
    QDragEnterEvent enter(pos, Qt::MoveAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(group, &enter);
    if (!enter.isAccepted())
        return false;
    QDragMoveEvent move(pos, Qt::MoveAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(group, &move);
    QDropEvent drop(pos, Qt::MoveAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(group, &drop);
    return drop.isAccepted();
}

QStringList TestGuiPanes::shownSessions() const
{
    QStringList ids;
    for (const SessionPane *pane : m_window->paneArea()->panes())
        ids.append(pane->sessionID());
    return ids;
}

void TestGuiPanes::newTabFromTheSidebar()
{
    QVERIFY(makeWindow());
    PaneArea *area = m_window->paneArea();
    QCOMPARE(area->panes().size(), 1);
    QCOMPARE(m_window->currentSessionID(), m_run.sessionID);

    // Ctrl+click: a new tab, focused; the first stays.
    clickRow(m_second, Qt::LeftButton, Qt::ControlModifier);
    QCOMPARE(shownSessions(), (QStringList{m_run.sessionID, m_second}));
    QCOMPARE(m_window->currentSessionID(), m_second);
    QCOMPARE(m_window->timelineModel()->sessionID(), m_second);
    QCOMPARE(area->groups().size(), 1);
    QCOMPARE(area->currentGroup()->currentIndex(), 1);
    QCOMPARE(m_window->windowTitle(), u"Second session"_s);
    QCOMPARE(m_window->sidebar()->currentSessionID(), m_second);

    // A middle click: another.
    clickRow(m_third, Qt::MiddleButton);
    QCOMPARE(shownSessions(), (QStringList{m_run.sessionID, m_second, m_third}));
    QCOMPARE(m_window->currentSessionID(), m_third);

    // A plain click shows the row in the focused tab; a session open in a tab focuses that tab.
    clickRow(m_run.sessionID, Qt::LeftButton);
    QCOMPARE(shownSessions().size(), 3);
    QCOMPARE(m_window->currentSessionID(), m_run.sessionID);
    QCOMPARE(area->currentGroup()->currentIndex(), 0);

    // Ctrl+T: the sidebar's session in a tab of its own, after the focused one.
    QTest::keyClick(m_window.get(), Qt::Key_T, Qt::ControlModifier);
    QCOMPARE(shownSessions(), (QStringList{m_run.sessionID, m_run.sessionID, m_second, m_third}));
    QCOMPARE(area->currentGroup()->currentIndex(), 1);
    QCOMPARE(m_window->currentSessionID(), m_run.sessionID);
    // Each tab its own timeline and composer.
    QVERIFY(area->panes().at(0)->timelineModel() != area->panes().at(1)->timelineModel());
    QVERIFY(area->panes().at(0)->composer() != area->panes().at(1)->composer());
}

void TestGuiPanes::splitRightAndDown()
{
    QVERIFY(makeWindow());
    PaneArea *area = m_window->paneArea();
    SessionPane *first = area->currentPane();
    QVERIFY(!first->isActive()); // one pane: no mark
    QTRY_COMPARE(first->composer()->attachButton()->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);

    // View › Split Right: the session in a group to the right, focused and marked.
    m_window->action(u"splitRight"_s)->trigger();
    QCOMPARE(area->groups().size(), 2);
    SessionPane *right = area->currentPane();
    QVERIFY(right != first);
    QCOMPARE(right->sessionID(), m_run.sessionID);
    QVERIFY(right->isActive());
    QVERIFY(!first->isActive());
    QTRY_VERIFY(area->groups().at(1)->isVisible());
    QVERIFY(area->groups().at(0)->geometry().right() < area->groups().at(1)->geometry().left());
    QTRY_COMPARE(right->timelineModel()->rowCount(), first->timelineModel()->rowCount());
    // Half the window's width: the composers' Attach and Compact show their icons only (their tool
    // tips name them), so that the row's buttons are not cut; as wide as the window, their text.
    for (SessionPane *pane : {first, right}) {
        QTRY_COMPARE(pane->composer()->attachButton()->toolButtonStyle(), Qt::ToolButtonIconOnly);
        QCOMPARE(pane->composer()->compactButton()->toolButtonStyle(), Qt::ToolButtonIconOnly);
    }

    // The right one shows another session; Split Down puts it below.
    clickRow(m_second, Qt::LeftButton);
    QCOMPARE(right->sessionID(), m_second);
    QCOMPARE(first->sessionID(), m_run.sessionID);
    QTest::keyClick(m_window.get(), Qt::Key_Backslash, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(area->groups().size(), 3);
    SessionPane *below = area->currentPane();
    QCOMPARE(below->sessionID(), m_second);
    const QList<PaneGroup *> groups = area->groups();
    QTRY_VERIFY(groups.at(2)->isVisible());
    QCOMPARE(groups.at(1)->geometry().left(), groups.at(2)->geometry().left());
    QVERIFY(groups.at(1)->mapTo(m_window.get(), QPoint()).y() < groups.at(2)->mapTo(m_window.get(), QPoint()).y());

    // Focus follows a click into a pane: the window's title and the sidebar with it.
    first->timelineView()->setFocus(Qt::MouseFocusReason);
    QTRY_COMPARE(area->currentPane(), first);
    QCOMPARE(m_window->currentSessionID(), m_run.sessionID);
    QCOMPARE(m_window->sidebar()->currentSessionID(), m_run.sessionID);
    QCOMPARE(m_window->windowTitle(), u"A test session"_s);
    QVERIFY(first->isActive() && !below->isActive());
}

void TestGuiPanes::dragTabToAnotherGroupAndEdge()
{
    QVERIFY(makeWindow());
    PaneArea *area = m_window->paneArea();
    QVERIFY(m_window->openSessionInNewTab(m_second));
    SessionPane *second = area->currentPane();
    m_window->action(u"splitRight"_s)->trigger();
    QCOMPARE(area->groups().size(), 2);
    PaneGroup *left = area->groups().at(0);
    PaneGroup *right = area->groups().at(1);
    QCOMPARE(left->count(), 2);
    QCOMPARE(right->count(), 1);

    // The left group's second tab dropped on the right group's tab bar: it moves there.
    QVERIFY(dropTab(second, right, right->tabBar()->geometry().center()));
    QCOMPARE(left->count(), 1);
    QCOMPARE(right->count(), 2);
    QCOMPARE(area->groupOf(second), right);
    QCOMPARE(area->currentPane(), second);

    // Dropped at the bottom edge of the left group: a group of its own below it.
    QVERIFY(dropTab(second, left, QPoint(left->width() / 2, left->height() - 5)));
    QCOMPARE(area->groups().size(), 3);
    PaneGroup *bottom = area->groupOf(second);
    QVERIFY(bottom != left && bottom != right);
    QCOMPARE(bottom->count(), 1);
    QCOMPARE(right->count(), 1);
    QTRY_VERIFY(bottom->isVisible());
    QVERIFY(bottom->mapTo(m_window.get(), QPoint()).y() > left->mapTo(m_window.get(), QPoint()).y());

    // A group whose last tab leaves goes: the right one's dropped on the left one's middle.
    SessionPane *rightPane = right->pane(0);
    QVERIFY(dropTab(rightPane, left, left->rect().center()));
    QCOMPARE(area->groups().size(), 2);
    QCOMPARE(area->groupOf(rightPane), left);
    QCOMPARE(left->count(), 2);
    // What is not a tab is not taken.
    QMimeData text;
    text.setText(u"hello"_s);
    QDragEnterEvent enter(left->rect().center(), Qt::MoveAction, &text, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(left, &enter);
    QVERIFY(!enter.isAccepted());
}

void TestGuiPanes::ctrlTabAndCtrlNumber()
{
    QVERIFY(makeWindow());
    PaneArea *area = m_window->paneArea();
    QVERIFY(m_window->openSessionInNewTab(m_second));
    QVERIFY(m_window->openSessionInNewTab(m_third));
    QCOMPARE(m_window->currentSessionID(), m_third);

    QWidget *target = m_window.get();
    QTest::keyClick(target, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(m_window->currentSessionID(), m_run.sessionID);
    const auto name = [this] {
        const QString id = m_window->currentSessionID();
        return id == m_run.sessionID ? u"first"_s : id == m_second ? u"second"_s : id == m_third ? u"third"_s : id;
    };
    QTest::keyClick(target, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(name(), u"second"_s);
    QTest::keyClick(target, Qt::Key_Tab, Qt::ControlModifier);
    QCOMPARE(name(), u"third"_s);
    QTest::keyClick(target, Qt::Key_Tab, Qt::ControlModifier); // around
    QCOMPARE(m_window->currentSessionID(), m_run.sessionID);
    QTest::keyClick(target, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(m_window->currentSessionID(), m_third);
    QTest::keyClick(target, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(m_window->currentSessionID(), m_second);
    QTest::keyClick(target, Qt::Key_9, Qt::ControlModifier); // the last
    QCOMPARE(m_window->currentSessionID(), m_third);
    QTest::keyClick(target, Qt::Key_5, Qt::ControlModifier); // no fifth: nothing
    QCOMPARE(m_window->currentSessionID(), m_third);
    QCOMPARE(area->currentGroup()->currentIndex(), 2);
    // The tab shown is the focused pane's, and only its timeline paints.
    QVERIFY(area->currentPane()->timelineView()->isVisible());
    QVERIFY(!area->panes().at(0)->timelineView()->isVisible());
}

void TestGuiPanes::closeTabs()
{
    QVERIFY(makeWindow());
    PaneArea *area = m_window->paneArea();
    QVERIFY(m_window->openSessionInNewTab(m_second));
    QVERIFY(m_window->openSessionInNewTab(m_third));
    QCOMPARE(area->panes().size(), 3);

    // Ctrl+W closes the focused tab; its neighbour is focused.
    QTest::keyClick(m_window.get(), Qt::Key_W, Qt::ControlModifier);
    QCOMPARE(shownSessions(), (QStringList{m_run.sessionID, m_second}));
    QCOMPARE(m_window->currentSessionID(), m_second);

    // A middle click on a tab closes it.
    QTabBar *bar = area->currentGroup()->tabBar();
    QTest::mouseClick(bar, Qt::MiddleButton, {}, bar->tabRect(0).center());
    QCOMPARE(shownSessions(), (QStringList{m_second}));
    QCOMPARE(m_window->currentSessionID(), m_second);

    // The last tab is emptied, not removed; a click in the sidebar fills it again.
    QTest::keyClick(m_window.get(), Qt::Key_W, Qt::ControlModifier);
    QCOMPARE(shownSessions(), (QStringList{QString()}));
    QVERIFY(m_window->currentSessionID().isEmpty());
    QVERIFY(m_window->windowTitle().isEmpty() || !m_window->windowTitle().contains(u"session"_s));
    clickRow(m_second, Qt::LeftButton);
    QCOMPARE(shownSessions(), (QStringList{m_second}));
}

void TestGuiPanes::layoutPersists()
{
    QVERIFY(makeWindow());
    PaneArea *area = m_window->paneArea();
    QVERIFY(m_window->openSessionInNewTab(m_second));
    m_window->action(u"splitRight"_s)->trigger();
    clickRow(m_third, Qt::LeftButton);
    QCOMPARE(area->groups().size(), 2);
    QCOMPARE(shownSessions(), (QStringList{m_run.sessionID, m_second, m_third}));
    m_window.reset();

    // The next window opens the same tabs in the same groups, the focused one focused.
    m_window = std::make_unique<MainWindow>(makeController(m_run.service, m_run.data->path()));
    m_window->show();
    area = m_window->paneArea();
    QTRY_COMPARE_WITH_TIMEOUT(shownSessions(), (QStringList{m_run.sessionID, m_second, m_third}), 10000);
    QCOMPARE(area->groups().size(), 2);
    QCOMPARE(area->groups().at(0)->currentIndex(), 1);
    QCOMPARE(m_window->currentSessionID(), m_third);
    QTRY_VERIFY(!m_window->timelineModel()->isLoading());
    m_window.reset();

    // A session deleted meanwhile: its tab is gone, silently.
    QVERIFY(ownRead([&] { return m_run.service->remove(m_third); }));
    m_window = std::make_unique<MainWindow>(makeController(m_run.service, m_run.data->path()));
    m_window->show();
    area = m_window->paneArea();
    QTRY_COMPARE_WITH_TIMEOUT(shownSessions(), (QStringList{m_run.sessionID, m_second}), 10000);
    QCOMPARE(area->groups().size(), 1);
}

void TestGuiPanes::moveTabToNewWindow()
{
    QVERIFY(makeWindow());
    PaneArea *area = m_window->paneArea();
    // The only tab stays in the window.
    QVERIFY(!area->moveToNewWindow(area->currentPane()));
    QVERIFY(m_window->openSessionInNewTab(m_second));
    SessionPane *moved = area->currentPane();
    m_window->action(u"moveTabToWindow"_s)->trigger();
    QWidget *window = area->windowOf(moved);
    QVERIFY(window);
    QVERIFY(window->isWindow());
    QTRY_VERIFY(window->isVisible());
    QCOMPARE(window->windowTitle(), u"Second session"_s);
    QCOMPARE(area->groups().size(), 1);
    QCOMPARE(area->groups().at(0)->count(), 1);
    QVERIFY(area->panes().contains(moved));
    QVERIFY(moved->timelineView()->isVisible());
    QTRY_VERIFY(!moved->timelineModel()->isLoading());

    // Closing that window closes the pane.
    const QPointer<SessionPane> guard(moved);
    QVERIFY(window->close());
    QTRY_VERIFY(!guard);
    QCOMPARE(shownSessions(), (QStringList{m_run.sessionID}));
    QCOMPARE(m_window->currentSessionID(), m_run.sessionID);
}

void TestGuiPanes::twoRunsAtOnce()
{
    QVERIFY(makeWindow(true));
    PaneArea *area = m_window->paneArea();
    SessionPane *left = area->currentPane();
    m_window->action(u"splitRight"_s)->trigger();
    clickRow(m_second, Qt::LeftButton);
    SessionPane *right = area->currentPane();
    QVERIFY(left != right);
    QCOMPARE(left->sessionID(), m_run.sessionID);
    QCOMPARE(right->sessionID(), m_second);
    QTRY_VERIFY(!right->timelineModel()->isLoading());

    // Both replies wait at the server until both runs asked (the first request is the left's):
    // the two sessions run at once.
    FakeReply leftReply = FakeReply::sse(textReply({u"Left "_s, u"reply "_s, u"streams."_s})).chunked(16, 2);
    FakeReply rightReply = FakeReply::sse(textReply({u"Right "_s, u"reply "_s, u"streams."_s})).chunked(16, 2);
    leftReply.held = true;
    rightReply.held = true;
    m_run.server->enqueue(leftReply);
    m_run.server->enqueue(rightReply);
    // Each composer sends to its own pane's session, typed and sent with the keyboard.
    QTest::mouseClick(left->composer()->editor()->viewport(), Qt::LeftButton);
    QTRY_COMPARE(area->currentPane(), left);
    QTest::keyClicks(left->composer()->editor(), u"left prompt"_s);
    QTest::keyClick(left->composer()->editor(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_run.server->heldReplies(), 1, 20000);
    QTest::mouseClick(right->composer()->editor()->viewport(), Qt::LeftButton);
    QTRY_COMPARE(area->currentPane(), right);
    QTest::keyClicks(right->composer()->editor(), u"right prompt"_s);
    QTest::keyClick(right->composer()->editor(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_run.server->heldReplies(), 2, 20000);
    QVERIFY(left->composer()->isRunning());
    QVERIFY(right->composer()->isRunning());
    QVERIFY(m_window->sessionsModel()->isRunning(m_run.sessionID));
    QVERIFY(m_window->sessionsModel()->isRunning(m_second));
    m_run.server->release();

    const auto replyOf = [](const SessionPane *pane) {
        const TimelineModel *model = pane->timelineModel();
        for (int row = model->rowCount() - 1; row >= 0; --row) {
            const QModelIndex index = model->index(row);
            if (index.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::Assistant)
                return index.data(TimelineModel::TextRole).toString();
        }
        return QString();
    };
    const auto promptOf = [](const SessionPane *pane) {
        const TimelineModel *model = pane->timelineModel();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row);
            if (index.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::User)
                return index.data(TimelineModel::TextRole).toString();
        }
        return QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(replyOf(left), u"Left reply streams."_s, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(replyOf(right), u"Right reply streams."_s, 20000);
    QCOMPARE(promptOf(left), u"left prompt"_s);
    QCOMPARE(promptOf(right), u"right prompt"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->controller()->isBusy(m_run.sessionID), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->controller()->isBusy(m_second), 20000);
    QTRY_VERIFY(!left->composer()->isRunning() && !right->composer()->isRunning());
    // Written to each session, none to the other.
    const QList<MessageWithParts> leftMessages = ownRead([&] { return m_run.service->messages(m_run.sessionID); });
    const QList<MessageWithParts> rightMessages = ownRead([&] { return m_run.service->messages(m_second); });
    QCOMPARE(leftMessages.size(), 2);
    QCOMPARE(rightMessages.size(), 2);
}

QTEST_MAIN(TestGuiPanes)
#include "tst_gui_panes.moc"
