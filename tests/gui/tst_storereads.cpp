// SPDX-License-Identifier: GPL-3.0-or-later
// No store read on the GUI thread (issue 34): such a read ends a GUI test (test::initGuiTestCase(),
// checked in a child process), and the window makes none while it shows, loads its list, opens a
// session, shows the context meter of its model, lists the trash and restores from it (counted
// in report mode here). The test's own reads say so (StoreReads::AllowHere).

#include "contextmeter.h"
#include "guitest.h"
#include "mainwindow.h"
#include "processor/setup.h"
#include "qt/sessionsmodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "store/storereads.h"
#include "runfixture.h"
#include "testdata.h"
#include "trashdialog.h"

#include <QProcess>
#include <QPushButton>
#include <QTest>
#include <QTreeView>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString HandNamed = u"ses_dff05751fffexgWr6MRybGFAXU"_s;
const char *const ChildVariable = "WEFT_TEST_READ_IN_A_CHILD";

QStringList g_reported;
QtMessageHandler g_previous = nullptr;

void collect(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    if (text.contains(u"on the GUI thread"_s))
        g_reported.append(text);
    else
        g_previous(type, context, text);
}

/// Collects the reports of store reads on the GUI thread while it lives.
class Watch
{
public:
    Watch()
    {
        g_reported.clear();
        StoreReads::setPolicy(StoreReads::OnGuiThread::Report);
        g_previous = qInstallMessageHandler(collect);
    }
    ~Watch()
    {
        qInstallMessageHandler(g_previous);
        StoreReads::setPolicy(m_policy);
    }

private:
    const StoreReads::OnGuiThread m_policy = StoreReads::policy();
};
} // namespace

class TestStoreReadsInTheWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(test::initGuiTestCase(m_settings));
        test::clearProviderKeys();
    }

    void init()
    {
        m_data = std::make_unique<test::FixtureDataDir>();
        m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
    }

    void cleanup()
    {
        m_service.reset();
        m_data.reset();
    }

    void aReadThereEndsAGuiTest()
    {
        // What every GUI test runs under (test::initGuiTestCase()): the read below, run in a child
        // process as a GUI test runs, ends it.
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(u"WEFT_STORE_READ_CHECK"_s);
        environment.insert(QString::fromLatin1(ChildVariable), u"1"_s);
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(), {u"readThereInAChild"_s});
        QVERIFY(child.waitForFinished(60000));
        const QString output = QString::fromLocal8Bit(child.readAllStandardOutput() + child.readAllStandardError());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        QVERIFY2(output.contains(u"a store read (session) on the GUI thread"_s), qPrintable(output));
        QVERIFY2(!output.contains(u"the read went through"_s), qPrintable(output));
    }

    void readThereInAChild()
    {
        if (!qEnvironmentVariableIsSet(ChildVariable))
            QSKIP("the child process of aReadThereEndsAGuiTest()");
        (void)m_service->get(MainID);
        qWarning("the read went through");
    }

    void aReadThereIsReported()
    {
        // What this test would miss if the check did not fire.
        const Watch watch;
        QVERIFY(m_service->get(MainID));
        QCOMPARE(g_reported.size(), 1);
        QVERIFY(g_reported.first().contains(u"a store read (session) on the GUI thread"_s));
    }

    void openTheTrashAndRestore()
    {
        QVERIFY(test::ownRead([&] { return m_service->moveToTrash(HandNamed); }));
        MainWindow window(test::makeController(m_service, m_data->path()));
        {
            const Watch watch;
            window.resize(1200, 800);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(test::openAndLoad(window, MainID));

            TrashDialog *dialog = window.showTrash();
            QVERIFY(dialog);
            QTRY_COMPARE(dialog->list()->model()->rowCount(), 1);
            auto *restore = dialog->findChild<QPushButton *>(u"restore"_s);
            QVERIFY(restore && restore->isEnabled());
            QTest::mouseClick(restore, Qt::LeftButton);
            QTRY_COMPARE(window.currentSessionID(), HandNamed);
            QTRY_COMPARE(dialog->list()->model()->rowCount(), 0);
            test::deliverPosted();
            QCOMPARE(g_reported, QStringList());
        }
        QVERIFY(test::ownRead([&] { return m_service->get(HandNamed); }));
    }

    void theContextMeterReadsNoSession()
    {
        test::RunFixture run;
        QVERIFY(run.setUp());
        const Result<ProcessorSetup> setup = loadProcessorSetup(run.writeConfig(), run.data->path());
        QVERIFY(setup);
        {
            MainWindow window(test::makeController(run.service, run.data->path(), setup.value()));
            const Watch watch;
            QVERIFY(test::showAndOpen(window, run.sessionID));
            // The limit of the model the next prompt would use, decided as for a prompt (after the
            // window's first frame: StartupGate).
            QTRY_COMPARE_WITH_TIMEOUT(window.contextMeter()->limit(), 100000, 20000);
            test::deliverPosted();
            QCOMPARE(g_reported, QStringList());
        }
        run.tearDown();
    }

private:
    QTemporaryDir m_settings;
    std::unique_ptr<test::FixtureDataDir> m_data;
    std::shared_ptr<SessionService> m_service;
};

QTEST_MAIN(TestStoreReadsInTheWindow)
#include "tst_storereads.moc"
