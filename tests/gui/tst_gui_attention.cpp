// SPDX-License-Identifier: GPL-3.0-or-later
// The attention inbox (issue 17): sessions that wait on the user, run against the loopback LLM
// server while another session is open. A permission question and a failed run of a session
// that is not open appear in the list and in the sidebar's count; a click (or Return) opens the
// session and puts the keyboard on the question's answer; answering, opening or running again
// removes the entry. Sub-agent sessions name their parent. Desktop notifications go out only
// while the window is not active and the setting is on (a recording notifier), and the D-Bus
// notifier speaks org.freedesktop.Notifications to a fake service on a peer connection.

#include "attentioninbox.h"
#include "attentionpanel.h"
#include "desktopnotifier.h"
#include "fakellmserver.h"
#include "guitest.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "qt/attentionmodel.h"
#include "qt/sessionsmodel.h"
#include "runfixture.h"
#include "session/sessionservice.h"
#include "settingsdialog.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QListView>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include <optional>

#ifdef WEFT_HAVE_DBUS
#include "dbusnotifier.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusServer>
#endif

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{
/// Keeps what would have been shown.
class RecordingNotifier : public DesktopNotifier
{
public:
    using DesktopNotifier::DesktopNotifier;
    bool notify(const DesktopNotification &notification) override
    {
        sent.append(notification);
        return true;
    }
    void click(qsizetype i) { Q_EMIT activated(sent.at(i).sessionID, sent.at(i).source); }
    QList<DesktopNotification> sent;
};

#ifdef WEFT_HAVE_DBUS
/// org.freedesktop.Notifications as a desktop's notification daemon offers it.
class FakeNotifications : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")

public:
    struct Call
    {
        QString appName;
        uint replacesId = 0;
        QString icon;
        QString summary;
        QString body;
        QStringList actions;
        QVariantMap hints;
        int timeout = 0;
    };
    QList<Call> calls;

public Q_SLOTS:
    uint Notify(const QString &appName, uint replacesId, const QString &icon, const QString &summary,
                const QString &body, const QStringList &actions, const QVariantMap &hints, int timeout)
    {
        calls.append({appName, replacesId, icon, summary, body, actions, hints, timeout});
        return uint(100 + calls.size());
    }
};
#endif
} // namespace

class TestGuiAttention : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void permissionOfAnotherSession();
    void failedRunAppears();
    void subagentNamesItsParent();
    void notificationsWhileInactive();
    void notificationsTurnedOff();
    void settingsToggle();
    void dbusNotificationOpensTheSession();

private:
    bool makeWindow();
    /// Starts a run of @p sessionID with the next reply of the fake server.
    bool prompt(const QString &sessionID, const QString &text);
    bool waitIdle(const QString &sessionID);
    [[nodiscard]] AttentionInbox *inbox() const { return m_window->attentionInbox(); }
    [[nodiscard]] QString permissionKey() const;
    /// Makes another window the active one.
    bool deactivateWindow();

    QTemporaryDir m_settings;
    test::RunFixture m_run;
    QString m_openID; // the session the window shows
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<QWidget> m_other;
    QPointer<RecordingNotifier> m_recorder;
};

void TestGuiAttention::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
    clearProviderKeys();
}

void TestGuiAttention::init()
{
    QSettings().remove(u"Notifications"_s);
    QVERIFY(m_run.setUp());
    SessionService::CreateOptions options;
    options.directory = m_run.project->path();
    options.title = u"The open session"_s;
    const Result<Session> open = test::ownRead([&] { return m_run.service->create(options); });
    QVERIFY(open);
    m_openID = open->id();
    QVERIFY(makeWindow());
    m_recorder = new RecordingNotifier;
    inbox()->setNotifier(m_recorder);
}

void TestGuiAttention::cleanup()
{
    m_other.reset();
    m_window.reset();
    m_run.tearDown();
    QSettings().remove(u"Notifications"_s);
}

bool TestGuiAttention::makeWindow()
{
    const QString config = m_run.writeConfig(JsonObject{{u"snapshot"_s, false}});
    Result<ProcessorSetup> setup = loadProcessorSetup(config, m_run.data->path());
    if (!setup) {
        qWarning() << setup.error().toString();
        return false;
    }
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    s.config.retryInitialMs = 5;
    s.config.retryMaxMs = 20;
    s.config.maxRetries = 1;
    m_window = std::make_unique<MainWindow>(test::makeController(m_run.service, m_run.data->path(), s));
    // Every model under the tester, from empty.
    new QAbstractItemModelTester(m_window->attentionInbox()->model(),
                                 QAbstractItemModelTester::FailureReportingMode::Fatal, m_window.get());
    if (!test::showAndOpen(*m_window, m_openID))
        return false;
    m_window->activateWindow();
    return QTest::qWaitForWindowActive(m_window.get());
}

bool TestGuiAttention::prompt(const QString &sessionID, const QString &text)
{
    const SessionController::PromptResult result = m_window->controller()->prompt(sessionID, text, {}, {});
    if (!result.ok())
        qWarning() << "prompt refused:" << result.error;
    return result.ok();
}

bool TestGuiAttention::waitIdle(const QString &sessionID)
{
    // The queued signals of the run's end (the inbox's, the window's) come after it is idle.
    const bool idle = QTest::qWaitFor([&] { return !m_window->controller()->processor()->isBusy(sessionID); }, 20000);
    QCoreApplication::processEvents();
    return idle;
}

QString TestGuiAttention::permissionKey() const
{
    const QStringList keys = m_window->noticeBar()->keys().filter(u"permission-"_s);
    return keys.isEmpty() ? QString() : keys.first();
}

bool TestGuiAttention::deactivateWindow()
{
    m_other = std::make_unique<QWidget>();
    m_other->setWindowTitle(u"Another application"_s);
    m_other->resize(200, 100);
    m_other->show();
    m_other->activateWindow();
    if (!QTest::qWaitForWindowActive(m_other.get()))
        return false;
    return !m_window->isActiveWindow();
}

void TestGuiAttention::permissionOfAnotherSession()
{
    AttentionModel *model = inbox()->model();
    QToolButton *count = m_window->findChild<QToolButton *>(u"attentionButton"_s);
    QVERIFY(count);
    QVERIFY(count->isHidden());

    m_run.server->enqueue(FakeReply::sse(bashCallReply(u"call_inbox"_s, u"echo inbox-output"_s)));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Done."_s})));
    QVERIFY(prompt(m_run.sessionID, u"Run echo"_s));

    // The session that asks is not the open one: it is listed, and counted in the sidebar.
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    const QModelIndex entry = model->index(0);
    QCOMPARE(entry.data(AttentionModel::KindRole).value<AttentionModel::Kind>(), AttentionModel::Kind::Permission);
    QCOMPARE(entry.data(AttentionModel::SessionIdRole).toString(), m_run.sessionID);
    QCOMPARE(entry.data(AttentionModel::TitleRole).toString(), u"A test session"_s);
    QVERIFY2(entry.data(AttentionModel::DetailRole).toString().contains(u"run a command: echo inbox-output"_s),
             qPrintable(entry.data(AttentionModel::DetailRole).toString()));
    QVERIFY(count->isVisibleTo(m_window.get()));
    QCOMPARE(count->text(), u"⚑ 1 waiting"_s);
    QVERIFY(!count->accessibleName().isEmpty());
    QCOMPARE(m_window->currentSessionID(), m_openID);
    // The window is active: no desktop notification.
    QVERIFY(m_recorder->sent.isEmpty());

    // The count opens the list; a click on the entry opens the session with its question.
    QTest::mouseClick(count, Qt::LeftButton);
    AttentionPanel *panel = inbox()->panel();
    QTRY_VERIFY(panel->isVisible());
    QListView *view = panel->view();
    QCOMPARE(view->model()->rowCount(), 1);
    const QModelIndex row = view->model()->index(0, 0);
    QVERIFY2(row.data(Qt::DisplayRole).toString().startsWith(u"A test session\n"_s),
             qPrintable(row.data(Qt::DisplayRole).toString()));
    QCOMPARE(row.data(Qt::AccessibleTextRole), row.data(Qt::DisplayRole));
    const QRect rect = view->visualRect(row);
    QVERIFY(!rect.isEmpty());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QTRY_COMPARE(m_window->currentSessionID(), m_run.sessionID);
    QVERIFY(!panel->isVisible());
    const QString key = permissionKey();
    QVERIFY(!key.isEmpty());
    QPushButton *allow = m_window->noticeBar()->button(key, u"allowOnce"_s);
    QVERIFY(allow);
    QTRY_VERIFY(allow->hasFocus());
    // Opening does not answer: the question still waits.
    QCOMPARE(model->rowCount(), 1);

    // Answered: the entry goes, and the run's end in the open session adds none.
    allow->click();
    QTRY_COMPARE(model->rowCount(), 0);
    QVERIFY(waitIdle(m_run.sessionID));
    QCOMPARE(model->rowCount(), 0);
    QVERIFY(count->isHidden());
}

void TestGuiAttention::failedRunAppears()
{
    AttentionModel *model = inbox()->model();
    m_run.server->enqueue(
        FakeReply::json(400, "{\"error\": {\"message\": \"The test provider refuses this prompt\"}}"));
    QVERIFY(prompt(m_run.sessionID, u"Fail, please"_s));
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    const QModelIndex entry = model->index(0);
    QCOMPARE(entry.data(AttentionModel::KindRole).value<AttentionModel::Kind>(), AttentionModel::Kind::Failed);
    QVERIFY2(entry.data(AttentionModel::DetailRole).toString().contains(u"The test provider refuses this prompt"_s),
             qPrintable(entry.data(AttentionModel::DetailRole).toString()));
    QCOMPARE(model->waitingCount(), 1);
    QToolButton *count = inbox()->button();
    QCOMPARE(count->text(), u"⚑ 1 waiting"_s);

    // Return on the entry opens the session; the failure is seen then.
    inbox()->showPanel();
    QListView *view = inbox()->panel()->view();
    QTRY_VERIFY(view->isVisible());
    QCOMPARE(view->currentIndex().row(), 0);
    QTest::keyClick(view, Qt::Key_Return);
    QTRY_COMPARE(m_window->currentSessionID(), m_run.sessionID);
    QCOMPARE(model->rowCount(), 0);
    QVERIFY(count->isHidden());

    // A failure is dropped too when its session runs again (here while another is open).
    QVERIFY(m_window->openSession(m_openID));
    m_run.server->enqueue(FakeReply::json(400, "{\"error\": {\"message\": \"Refused again\"}}"));
    QVERIFY(prompt(m_run.sessionID, u"Fail again"_s));
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    QVERIFY(model->index(0).data(AttentionModel::DetailRole).toString().contains(u"Refused again"_s));
    // Held: the run has started and not finished while the test looks.
    FakeReply fine = FakeReply::sse(textReply({u"Fine now."_s}));
    fine.held = true;
    m_run.server->enqueue(fine);
    QVERIFY(prompt(m_run.sessionID, u"Now work"_s));
    QTRY_COMPARE(model->rowCount(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(m_run.server->heldReplies(), qsizetype(1), 10000);
    m_run.server->release();
    QVERIFY(waitIdle(m_run.sessionID));
    // It finished while another session was open: it waits to be looked at, not counted as waiting.
    QTRY_COMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0).data(AttentionModel::KindRole).value<AttentionModel::Kind>(),
             AttentionModel::Kind::Finished);
    QCOMPARE(model->waitingCount(), 0);
    QCOMPARE(count->text(), u"1 finished"_s);
}

void TestGuiAttention::subagentNamesItsParent()
{
    AttentionModel *model = inbox()->model();
    SessionService::CreateOptions options;
    options.directory = m_run.project->path();
    options.parentID = m_run.sessionID;
    options.title = u"Helper"_s;
    const Result<Session> child = test::ownRead([&] { return m_run.service->create(options); });
    QVERIFY(child);
    QTRY_VERIFY(m_window->sessionsModel()->session(child->id()));

    m_run.server->enqueue(FakeReply::sse(bashCallReply(u"call_child"_s, u"echo child-output"_s)));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Done."_s})));
    QVERIFY(prompt(child->id(), u"Run echo"_s));
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    const QModelIndex entry = model->index(0);
    QCOMPARE(entry.data(AttentionModel::SessionIdRole).toString(), child->id());
    QCOMPARE(entry.data(AttentionModel::ParentIdRole).toString(), m_run.sessionID);
    QCOMPARE(entry.data(AttentionModel::ParentTitleRole).toString(), u"A test session"_s);
    QVERIFY2(AttentionPanel::entryText(entry).startsWith(u"Helper (sub-agent of “A test session”)\n"_s),
             qPrintable(AttentionPanel::entryText(entry)));

    // Opened from the list: the child session itself, under its parent in the sidebar.
    inbox()->open(entry);
    QCOMPARE(m_window->currentSessionID(), child->id());
    const QString key = permissionKey();
    QVERIFY(!key.isEmpty());
    m_window->noticeBar()->button(key, u"deny"_s)->click();
    QTRY_COMPARE(model->rowCount(), 0);
    QVERIFY(waitIdle(child->id()));
}

void TestGuiAttention::notificationsWhileInactive()
{
    QVERIFY(deactivateWindow());
    m_run.server->enqueue(FakeReply::sse(bashCallReply(u"call_note"_s, u"echo note-output"_s)));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Done."_s})));
    QVERIFY(prompt(m_run.sessionID, u"Run echo"_s));
    QTRY_COMPARE_WITH_TIMEOUT(m_recorder->sent.size(), 1, 10000);
    DesktopNotification n = m_recorder->sent.at(0);
    QCOMPARE(n.summary, u"“A test session” waits for your permission"_s);
    QCOMPARE(n.body, u"Asks to run a command: echo note-output"_s);
    QCOMPARE(n.sessionID, m_run.sessionID);
    QCOMPARE(n.source, QString());

    // Clicking it brings the window up on the session, the keyboard on the answer.
    m_recorder->click(0);
    QTRY_COMPARE(m_window->currentSessionID(), m_run.sessionID);
    QTRY_VERIFY(m_window->isActiveWindow());
    const QString key = permissionKey();
    QPushButton *allow = m_window->noticeBar()->button(key, u"allowOnce"_s);
    QVERIFY(allow);
    QTRY_VERIFY(allow->hasFocus());

    // Away again: the end of the run is told too.
    QVERIFY(deactivateWindow());
    allow->click();
    QVERIFY(waitIdle(m_run.sessionID));
    QTRY_COMPARE(m_recorder->sent.size(), 2);
    n = m_recorder->sent.at(1);
    QCOMPARE(n.summary, u"“A test session” finished"_s);
    QCOMPARE(n.body, u"The run finished."_s);

    // And a failure, with its error.
    m_run.server->enqueue(FakeReply::json(400, "{\"error\": {\"message\": \"No more today\"}}"));
    QVERIFY(prompt(m_run.sessionID, u"Fail"_s));
    QTRY_COMPARE_WITH_TIMEOUT(m_recorder->sent.size(), 3, 10000);
    n = m_recorder->sent.at(2);
    QCOMPARE(n.summary, u"“A test session” failed"_s);
    QVERIFY2(n.body.startsWith(u"The run failed: "_s) && n.body.contains(u"No more today"_s), qPrintable(n.body));
}

void TestGuiAttention::notificationsTurnedOff()
{
    // Off in Settings, as a user turns it off.
    {
        SettingsDialog dialog(m_window->controller()->configPath());
        auto *box = dialog.findChild<QCheckBox *>(u"desktopNotifications"_s);
        QVERIFY(box);
        QVERIFY(box->isChecked());
        box->setChecked(false);
        QVERIFY(dialog.apply());
    }
    QVERIFY(!DesktopNotifier::isEnabled());
    QVERIFY(deactivateWindow());
    m_run.server->enqueue(FakeReply::json(400, "{\"error\": {\"message\": \"Quietly refused\"}}"));
    QVERIFY(prompt(m_run.sessionID, u"Fail"_s));
    // The inbox still lists it; nothing is sent.
    QTRY_COMPARE_WITH_TIMEOUT(inbox()->model()->rowCount(), 1, 10000);
    QVERIFY(waitIdle(m_run.sessionID));
    QVERIFY(m_recorder->sent.isEmpty());
}

void TestGuiAttention::settingsToggle()
{
    QVERIFY(DesktopNotifier::isEnabled()); // on by default
    SettingsDialog dialog;
    dialog.setCurrentPage(SettingsDialog::Page::Notifications);
    QCOMPARE(dialog.currentPage(), SettingsDialog::Page::Notifications);
    auto *box = dialog.findChild<QCheckBox *>(u"desktopNotifications"_s);
    QVERIFY(box);
    QVERIFY(box->isChecked());
    QVERIFY(!dialog.hasChanges());
    box->setChecked(false);
    QVERIFY(dialog.hasChanges());
    QVERIFY(DesktopNotifier::isEnabled()); // not before it is applied
    QVERIFY(dialog.apply());
    QVERIFY(!dialog.hasChanges());
    QVERIFY(!DesktopNotifier::isEnabled());
    SettingsDialog again;
    QVERIFY(!again.findChild<QCheckBox *>(u"desktopNotifications"_s)->isChecked());
}

void TestGuiAttention::dbusNotificationOpensTheSession()
{
#ifndef WEFT_HAVE_DBUS
    QSKIP("Weft is built without QtDBus");
#else
    // A private D-Bus peer plays the desktop's notification service: the real Notify call and
    // ActionInvoked signal go over the wire, without a session bus.
    QDBusServer server;
    QVERIFY2(server.isConnected(), qPrintable(server.lastError().message()));
    FakeNotifications service;
    std::optional<QDBusConnection> serviceSide;
    connect(&server, &QDBusServer::newConnection, this, [&](const QDBusConnection &connection) {
        serviceSide = connection;
        serviceSide->registerObject(u"/org/freedesktop/Notifications"_s, &service, QDBusConnection::ExportAllSlots);
    });
    const QString name = u"weft-notifications-test"_s;
    {
        QDBusConnection client = QDBusConnection::connectToPeer(server.address(), name);
        QVERIFY2(client.isConnected(), qPrintable(client.lastError().message()));
        QTRY_VERIFY(serviceSide.has_value());
        auto *notifier = new DBusNotifier(client);
        QVERIFY(notifier->isAvailable());
        inbox()->setNotifier(notifier);
    }

    QVERIFY(deactivateWindow());
    m_run.server->enqueue(FakeReply::json(400, "{\"error\": {\"message\": \"Refused on the wire\"}}"));
    QVERIFY(prompt(m_run.sessionID, u"Fail"_s));
    QTRY_COMPARE_WITH_TIMEOUT(service.calls.size(), qsizetype(1), 10000);
    const FakeNotifications::Call call = service.calls.at(0);
    QCOMPARE(call.appName, u"Weft"_s);
    QCOMPARE(call.replacesId, 0u);
    QCOMPARE(call.icon, u"dev.weft.Weft"_s);
    QCOMPARE(call.summary, u"“A test session” failed"_s);
    QVERIFY2(call.body.contains(u"Refused on the wire"_s), qPrintable(call.body));
    QCOMPARE(call.actions.value(0), u"default"_s);
    QCOMPARE(call.actions.size(), 2);
    QCOMPARE(call.hints.value(u"desktop-entry"_s).toString(), u"dev.weft.Weft"_s);
    QCOMPARE(call.timeout, -1);
    QVERIFY(waitIdle(m_run.sessionID));

    // The daemon says the user clicked it: the window comes up on the session.
    QSignalSpy activated(inbox()->notifier(), &DesktopNotifier::activated);
    QVERIFY(serviceSide->send(QDBusMessage::createSignal(u"/org/freedesktop/Notifications"_s,
                                                         u"org.freedesktop.Notifications"_s, u"ActionInvoked"_s)
                              << uint(101) << u"default"_s));
    QTRY_COMPARE(activated.size(), 1);
    QCOMPARE(activated.first().at(0).toString(), m_run.sessionID);
    QTRY_COMPARE(m_window->currentSessionID(), m_run.sessionID);
    QCOMPARE(inbox()->model()->rowCount(), 0);

    // The session's next notification replaces its last one.
    QVERIFY(deactivateWindow());
    m_run.server->enqueue(FakeReply::json(400, "{\"error\": {\"message\": \"Refused twice\"}}"));
    QVERIFY(prompt(m_run.sessionID, u"Fail"_s));
    QTRY_COMPARE_WITH_TIMEOUT(service.calls.size(), qsizetype(2), 10000);
    QCOMPARE(service.calls.at(1).replacesId, 101u);
    QVERIFY(waitIdle(m_run.sessionID));

    inbox()->setNotifier(nullptr);
    QDBusConnection::disconnectFromPeer(name);
#endif
}

QTEST_MAIN(TestGuiAttention)
#include "tst_gui_attention.moc"
