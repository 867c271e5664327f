// SPDX-License-Identifier: GPL-3.0-or-later
// The MCP servers in the window: the settings page (state, tools, error, Connect) and the notice
// of a server that fails.

#include "fakemcpserver.h"
#include "testdata.h"
#include "../gui/testcontroller.h"

#include "composer.h"
#include "mainwindow.h"
#include "app/mcpservers.h"
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
#include <QPlainTextEdit>
#include <QSignalSpy>
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
    void resourcesInTheComposer();
};

void TestMcpGui::settingsPage()
{
    McpManager manager;
    McpServers servers(&manager);
    McpServersPage page(&servers);
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
    MainWindow window(test::makeController(service, fixture.path()));
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
    MainWindow window(test::makeController(service, fixture.path(), setup.value()));
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
    // Its resources are offered after '@'.
    QTRY_COMPARE(window.composer()->resources().size(), 3);
    QCOMPARE(window.composer()->resources().at(1).uri, u"memo://logo.png"_s);

    // (Completing them in the composer is tested with the config's commands in tst_gui_run.)
}

void TestMcpGui::resourcesInTheComposer()
{
    // "@" offers the project's files, then the MCP resources as "name (uri)"; choosing one
    // writes "@name" and sends the resource along, read by the run (tst_mcp::resourcesAreAttached).
    QTemporaryDir project;
    QFile readme(project.filePath(u"README.md"_s));
    QVERIFY(readme.open(QIODevice::WriteOnly));
    readme.write("# Project\n");
    readme.close();
    Composer composer;
    composer.setSessionID(u"ses_test"_s);
    QSignalSpy loaded(&composer, &Composer::projectFilesLoaded);
    composer.setProjectDirectory(project.path());
    QVERIFY(composer.projectFilesReady() || loaded.wait(10000));
    composer.setResources({{u"memo"_s, u"notes"_s, u"memo://notes"_s, u"The team's notes"_s, u"text/markdown"_s},
                           {u"memo"_s, u"logo"_s, u"memo://logo.png"_s, {}, u"image/png"_s}});
    composer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&composer));
    composer.activateWindow();
    QPlainTextEdit *editor = composer.editor();
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    QAbstractItemView *popup = composer.completer()->popup();
    QTest::keyClicks(editor, u"Check @"_s);
    QTRY_VERIFY(popup->isVisible());
    QStringList rows;
    for (int row = 0; row < popup->model()->rowCount(); ++row)
        rows.append(popup->model()->index(row, 0).data().toString());
    QCOMPARE(rows, (QStringList{u"README.md"_s, u"notes (memo://notes)"_s, u"logo (memo://logo.png)"_s}));
    QTest::keyClicks(editor, u"not"_s);
    QTRY_COMPARE(popup->model()->index(0, 0).data().toString(), u"notes (memo://notes)"_s);
    QTest::keyClick(popup, Qt::Key_Return);
    QTRY_VERIFY(!popup->isVisible());
    QCOMPARE(composer.text(), u"Check @notes "_s);
    QTest::keyClicks(editor, u"today"_s);

    QSignalSpy send(&composer, &Composer::sendRequested);
    QTest::keyClick(editor, Qt::Key_Return);
    QCOMPARE(send.size(), 1);
    const auto sent = send.first().at(4).value<QList<PromptAttachment>>();
    QCOMPARE(sent.size(), 1);
    QCOMPARE(sent.first().kind, PromptAttachment::Kind::McpResource);
    QCOMPARE(sent.first().mcpServer, u"memo"_s);
    QCOMPARE(sent.first().uri, u"memo://notes"_s);
    QCOMPARE(sent.first().mime, u"text/markdown"_s);
    QCOMPARE(sent.first().mention, u"@notes"_s);
    QCOMPARE(sent.first().mentionStart, 6);

    // A mention deleted from the text is not sent.
    editor->setPlainText(u"Check nothing"_s);
    QCOMPARE(composer.attachmentsToSend().size(), 0);
}

QTEST_MAIN(TestMcpGui)
#include "tst_mcp_gui.moc"
