// SPDX-License-Identifier: GPL-3.0-or-later
// The MCP servers in the window: the settings page (state, tools, error, Connect) and the notice
// of a server that fails.

#include "fakemcpserver.h"
#include "testdata.h"

#include "composer.h"
#include "mainwindow.h"
#include "mcp/mcpmanager.h"
#include "mcpserverspage.h"
#include "noticebar.h"
#include "processor/setup.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{
JsonObject fake(const QStringList &args = {})
{
    return test::fakeMcpLocal(QString::fromUtf8(FAKE_MCP_STDIO), args);
}

QTreeWidgetItem *row(QTreeWidget *tree, const QString &name)
{
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        if (tree->topLevelItem(i)->text(0) == name)
            return tree->topLevelItem(i);
    }
    return nullptr;
}
} // namespace

class TestMcpGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void settingsPage();
    void noticeOfFailedServer();
    void promptsInTheComposer();
};

void TestMcpGui::settingsPage()
{
    McpManager manager;
    McpServersPage page(&manager);
    QVERIFY(page.findChild<QLabel *>(u"mcpEmpty"_s)->isVisibleTo(&page));
    JsonObject off = fake();
    off.insert(u"enabled"_s, false);
    manager.configure({{u"good"_s, fake()}, {u"broken"_s, fake({u"--exit-at-start"_s})}, {u"off"_s, off}});
    QVERIFY(manager.waitForStartup(20000));
    QTRY_COMPARE(page.tree()->topLevelItemCount(), 3);
    QTRY_COMPARE(row(page.tree(), u"good"_s)->text(2), u"connected"_s);
    QCOMPARE(row(page.tree(), u"good"_s)->text(1), u"local"_s);
    QCOMPARE(row(page.tree(), u"good"_s)->text(3), u"11"_s);
    QVERIFY(row(page.tree(), u"good"_s)->text(4).contains(u"fake-mcp over stdio"_s));
    QTRY_COMPARE(row(page.tree(), u"broken"_s)->text(2), u"failed"_s);
    QVERIFY(row(page.tree(), u"broken"_s)->text(4).contains(u"FAKE_TOKEN is not set"_s));
    QCOMPARE(row(page.tree(), u"off"_s)->text(2), u"disabled"_s);
    QCOMPARE(page.connectButton(u"good"_s)->text(), u"Reconnect"_s);

    // Connect starts a disabled server (a test of its configuration).
    QPushButton *connect = page.connectButton(u"off"_s);
    QVERIFY(connect && connect->isEnabled());
    connect->click();
    QVERIFY(manager.waitForStartup(20000));
    QTRY_COMPARE(row(page.tree(), u"off"_s)->text(2), u"connected"_s);
}

void TestMcpGui::noticeOfFailedServer()
{
    test::FixtureDataDir fixture;
    auto store = std::make_shared<JsonStore>(fixture.path());
    QVERIFY(store->initialize());
    auto service = std::make_shared<SessionService>(store);
    // A server that already failed before the window opened, and one that fails after.
    McpManager *mcp = McpManager::instance();
    mcp->configure({{u"early"_s, fake({u"--exit-at-start"_s})}});
    QVERIFY(mcp->waitForStartup(20000));
    MainWindow window(service, fixture.path());
    auto *notices = window.findChild<NoticeBar *>();
    QVERIFY(notices);
    QTRY_VERIFY(notices->hasNotice(u"mcp-early"_s));
    QVERIFY(notices->noticeText(u"mcp-early"_s).contains(u"FAKE_TOKEN is not set"_s));

    mcp->configure({{u"early"_s, fake({u"--exit-at-start"_s})}, {u"late"_s, fake({u"--protocol"_s, u"1999-01-01"_s})}});
    QTRY_VERIFY(notices->hasNotice(u"mcp-late"_s));
    QVERIFY(notices->noticeText(u"mcp-late"_s).contains(u"1999-01-01"_s));

    // Once the server works, its notice goes.
    mcp->configure({{u"early"_s, fake()}, {u"late"_s, fake({u"--protocol"_s, u"1999-01-01"_s})}});
    QVERIFY(mcp->waitForStartup(20000));
    QTRY_VERIFY(!notices->hasNotice(u"mcp-early"_s));
    QVERIFY(notices->hasNotice(u"mcp-late"_s));
    QVERIFY(notices->button(u"mcp-late"_s, u"mcpReconnect"_s));
}

void TestMcpGui::promptsInTheComposer()
{
    // The configured server starts with the window; once it is connected its prompts are offered
    // after '/' as "server:prompt", with the arguments they take.
    test::FixtureDataDir fixture;
    auto store = std::make_shared<JsonStore>(fixture.path());
    QVERIFY(store->initialize());
    auto service = std::make_shared<SessionService>(store);
    QTemporaryDir dir;
    QFile file(dir.filePath(u"weft.json"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(toJson(JsonObject{{u"mcp"_s, JsonObject{{u"srv"_s, fake()}}}}));
    file.close();
    Result<ProcessorSetup> setup = loadProcessorSetup(file.fileName(), fixture.path());
    QVERIFY2(setup, qPrintable(setup ? QString() : setup.error().toString()));
    MainWindow window(service, fixture.path(), setup.value());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QAbstractItemModel *commands = window.composer()->commandCompleter()->model();
    const auto offered = [commands] {
        QStringList rows;
        for (int row = 0; row < commands->rowCount(); ++row)
            rows.append(commands->index(row, 0).data().toString());
        return rows;
    };
    QTRY_COMPARE(offered(), (QStringList{u"/srv:greet — Greets someone (arguments: name mood)"_s, u"/srv:broken_one"_s}));

    // (Completing them in the composer is tested with the config's commands in tst_gui_run.)
}

QTEST_MAIN(TestMcpGui)
#include "tst_mcp_gui.moc"
