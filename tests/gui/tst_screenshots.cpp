// SPDX-License-Identifier: GPL-3.0-or-later
// Renders the main window on the OpenCode fixture and on Weft's sample sessions, in a light and
// a dark palette, to <build>/screenshots/*.png for a human to look at.

#include "compactiondialog.h"
#include "composer.h"
#include "attentioninbox.h"
#include "attentionpanel.h"
#include "contextmeter.h"
#include "core/identifier.h"
#include "fakellmserver.h"
#include "guitest.h"
#include "mainwindow.h"
#include "panearea.h"
#include "sessionpane.h"
#include "noticebar.h"
#include "qt/attentionmodel.h"
#include "processor/setup.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "session/sampledata.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QDateTime>
#include <QPainter>
#include <QDir>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QMenu>
#include <QAction>
#include <QSettings>
#include <QTest>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
/// A processor set-up whose one model is served by the loopback server at @p base; bash asks.
ProcessorSetup liveSetup(const QString &dataDir, const QUrl &base)
{
    const JsonObject config{
        {u"model"_s, u"local/qwen3-coder"_s},
        {u"provider"_s,
         JsonObject{{u"local"_s,
                     JsonObject{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                                {u"options"_s, JsonObject{{u"baseURL"_s, base.toString()}, {u"apiKey"_s, u"sk-local"_s}}},
                                {u"models"_s, JsonObject{{u"qwen3-coder"_s,
                                                          JsonObject{{u"limit"_s, JsonObject{{u"context"_s, 262144}, {u"output"_s, 65536}}}}}}}}}}},
        {u"permission"_s, JsonObject{{u"bash"_s, u"ask"_s}}},
    };
    const Result<Config> parsed = Config::parse(toJson(config, 2), QDir(dataDir).filePath(u"weft.json"_s));
    if (!parsed)
        return {};
    Result<ProcessorSetup> setup = makeProcessorSetup(parsed.value(), dataDir);
    if (!setup)
        return {};
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    s.config.snapshots = ProcessorConfig::Snapshots::Never;
    return s;
}
/// Weft's sample sessions in a fresh data dir. Their project folder exists: the agent runs its
/// tools there, and the bash tool refuses a missing working directory before it asks.
struct SampleStore
{
    QTemporaryDir dataDir;
    QTemporaryDir projects;
    std::shared_ptr<SessionService> service;
    QString project;
    QString sampleID; // the sample session

    bool setUp()
    {
        auto store = std::make_shared<JsonStore>(dataDir.path());
        if (!store->initialize())
            return false;
        service = std::make_shared<SessionService>(store);
        project = projects.filePath(u"src/hello"_s);
        if (!QDir().mkpath(project))
            return false;
        const Result<QString> created = test::ownRead([&] { return SampleData::create(*service, project); });
        if (!created)
            return false;
        sampleID = created.value();
        return true;
    }
};
} // namespace

class TestScreenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void render_data();
    void render();
    /// A session running against the loopback LLM server: a tool call waiting for permission,
    /// then the compaction dialog's preview and progress.
    void liveRun_data();
    void liveRun();
    /// A fork made from one of the user's messages, its text in the composer; then Help ›
    /// Keyboard Shortcuts over the window.
    void forkPrefilledAndShortcuts();
    /// Text selected with the mouse from a reply's first line into its code block, the code
    /// block's copy button showing under the mouse.
    void textSelection();
    /// The attention inbox open over the window: a session asking for permission and one whose
    /// run failed, while a third is open.
    void attentionInbox();
    /// Issue 36: two sessions side by side, the right one running.
    void splitView();

private:
    QTemporaryDir m_settings;
};

void TestScreenshots::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings, std::nullopt));
    QVERIFY(QDir().mkpath(QStringLiteral(WEFT_BINARY_DIR "/screenshots")));
}

void TestScreenshots::render_data()
{
    QTest::addColumn<bool>("sample");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<QString>("position");
    QTest::addColumn<bool>("running");
    QTest::addRow("fixture-light") << false << false << u"bottom"_s << false;
    QTest::addRow("fixture-dark") << false << true << u"bottom"_s << false;
    QTest::addRow("sample-light") << true << false << u"top"_s << false;
    QTest::addRow("sample-dark") << true << true << u"top"_s << false;
    QTest::addRow("sample-end-light") << true << false << u"bottom"_s << false;
    QTest::addRow("sample-end-dark") << true << true << u"bottom"_s << false;
    QTest::addRow("sample-running-light") << true << false << u"bottom"_s << true;
    QTest::addRow("sample-running-dark") << true << true << u"bottom"_s << true;
}

void TestScreenshots::render()
{
    QFETCH(bool, sample);
    QFETCH(bool, dark);
    QFETCH(QString, position);
    QFETCH(bool, running);
    test::useStyle(dark ? test::darkPalette() : test::lightPalette());
    QSettings().clear();

    test::FixtureDataDir fixture;
    QTemporaryDir sampleDir;
    const QString dataDir = sample ? sampleDir.path() : fixture.path();
    auto store = std::make_shared<JsonStore>(dataDir);
    QVERIFY(store->initialize());
    auto service = std::make_shared<SessionService>(store);
    QString open = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
    if (sample) {
        const Result<QString> created
            = test::ownRead([&] { return SampleData::create(*service, QDir::homePath() + u"/src/hello"_s); });
        QVERIFY(created);
        open = created.value();
    }

    if (running) {
        // A reply in progress after the compaction: text streaming, one tool running, one waiting.
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const Message user = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), open, now - 8000,
                                               u"build"_s, u"anthropic"_s, u"claude-sonnet-4-5"_s);
        QVERIFY(test::ownRead([&] { return service->updateMessage(user); }));
        const Part prompt = Part::makeText(Identifier::ascending(Identifier::Kind::Part), open, user.id(),
                                           u"Go on with the `--shout` flag, and add a test for it."_s);
        QVERIFY(test::ownRead([&] { return service->updatePart(prompt); }));
        const QString dir = test::ownRead([&] { return service->get(open); })->directory();
        const Message reply
            = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), open, now - 7000, user.id(),
                                     u"anthropic"_s, u"claude-sonnet-4-5"_s, u"build"_s, dir, dir);
        QVERIFY(test::ownRead([&] { return service->updateMessage(reply); }));
        const Part text = Part::makeText(Identifier::ascending(Identifier::Kind::Part), open, reply.id(),
                                         u"I'll add the flag to `main()` first, then a small test script that runs "
                                         u"`./hello --shout Ada` and checks the output."_s);
        QVERIFY(test::ownRead([&] { return service->updatePart(text); }));
        Part edit = Part::make(Identifier::ascending(Identifier::Kind::Part), open, reply.id(), PartType::Tool);
        edit.json().insert(u"callID"_s, u"toolu_live1"_s);
        edit.json().insert(u"tool"_s, u"edit"_s);
        edit.setState(ToolState::running(JsonObject{{u"filePath"_s, dir + u"/hello.c"_s}}, now - 2000, u"hello.c"_s));
        QVERIFY(test::ownRead([&] { return service->updatePart(edit); }));
        Part bash = Part::make(Identifier::ascending(Identifier::Kind::Part), open, reply.id(), PartType::Tool);
        bash.json().insert(u"callID"_s, u"toolu_live2"_s);
        bash.json().insert(u"tool"_s, u"bash"_s);
        bash.setState(ToolState::pending(JsonObject{}, u"{\"command\": \"sh test.sh"_s));
        QVERIFY(test::ownRead([&] { return service->updatePart(bash); }));
    }

    MainWindow window(test::makeController(service, dataDir));
    QVERIFY(test::showAndOpen(window, open, QSize(1440, 900)));
    // Limits come from the provider's model list; a typical one shows the meter's bar.
    window.contextMeter()->setLimit(200000);
    window.contextMeter()->setThreshold(0.9);

    // Open a tool card and the reasoning, as a user reading the session would.
    TimelineView *view = window.timelineView();
    TimelineDelegate *delegate = view->timelineDelegate();
    QAbstractItemModel *rows = view->model();
    int expanded = 0;
    for (int r = position == u"top" ? 0 : rows->rowCount() - 1;
         !running && r >= 0 && r < rows->rowCount() && expanded < 2; r += position == u"top" ? 1 : -1) {
        const QModelIndex idx = rows->index(r, 0);
        for (const Part &p : idx.data(TimelineModel::PartsRole).value<QList<Part>>()) {
            const bool interesting = p.type() == PartType::Reasoning
                || (p.type() == PartType::Tool && p.state().status() == ToolStatus::Completed && p.tool() != u"read");
            if (interesting && expanded < 2) {
                delegate->setExpanded(idx, p.id(), true);
                ++expanded;
            }
        }
    }
    QVERIFY(test::settle(window));
    if (position == u"top")
        view->scrollToTop();
    else
        view->jumpToBottom();
    QVERIFY(test::settle(window));

    const QString name = QString::fromLatin1(QTest::currentDataTag());
    const QString path = QStringLiteral(WEFT_BINARY_DIR "/screenshots/") + name + u".png"_s;
    const QPixmap shot = window.grab();
    QVERIFY(!shot.isNull());
    QVERIFY(shot.save(path));
    qInfo("wrote %s", qPrintable(path));
}

void TestScreenshots::liveRun_data()
{
    QTest::addColumn<bool>("dark");
    QTest::addRow("light") << false;
    QTest::addRow("dark") << true;
}

void TestScreenshots::liveRun()
{
    QFETCH(bool, dark);
    test::useStyle(dark ? test::darkPalette() : test::lightPalette());
    QSettings().clear();
    const QString suffix = dark ? u"-dark.png"_s : u"-light.png"_s;
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");

    test::FakeLlmServer server;
    QVERIFY(server.listen());
    SampleStore sample;
    QVERIFY(sample.setUp());
    const auto &service = sample.service;
    const QString open = sample.sampleID;

    const ProcessorSetup s = liveSetup(sample.dataDir.path(), server.baseUrl());
    QVERIFY(s.config.resolveModel);

    MainWindow window(test::makeController(service, sample.dataDir.path(), s));
    QVERIFY(test::showAndOpen(window, open, QSize(1440, 900)));

    window.composer()->setCurrentModel(u"local/qwen3-coder"_s);
    // The reply streams some text, then asks to run the tests.
    test::OpenAiStream reply(u"qwen3-coder"_s);
    reply.role().text(u"The flag is in. Let me run the test script to check that "_s).text(u"`--shout` upper-cases the name."_s);
    const QByteArray args = toJson(JsonObject{{u"command"_s, u"sh test.sh"_s}, {u"description"_s, u"Run the tests"_s}}, 0);
    reply.toolCallStart(0, u"call_tests"_s, u"bash"_s, QString::fromUtf8(args));
    reply.finish(u"tool_calls"_s).usage(41800, 120).done();
    server.enqueue(test::FakeReply::sse(reply.bytes()));
    window.composer()->setText(u"Now run the tests."_s);
    window.composer()->send();
    QTRY_VERIFY_WITH_TIMEOUT(!window.noticeBar()->keys().filter(u"permission-"_s).isEmpty(), 10000);
    window.composer()->setText(u"And then update the README"_s);
    QVERIFY(test::settle(window));
    QVERIFY(window.grab().save(dir + u"run-permission"_s + suffix));

    // Denied: the agent answers and stops.
    server.enqueue(test::FakeReply::sse(test::OpenAiStream(u"qwen3-coder"_s)
                                            .role()
                                            .text(u"Understood, I will not run it. You can run `sh test.sh` yourself."_s)
                                            .finish(u"stop"_s)
                                            .usage(42100, 30)
                                            .done()
                                            .bytes()));
    const QString key = window.noticeBar()->keys().filter(u"permission-"_s).first();
    window.noticeBar()->button(key, u"deny"_s)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->processor()->isBusy(open), 10000);

    // The compaction dialog: the preview, then the summary streaming.
    window.composer()->compactButton()->click();
    QTRY_VERIFY(window.compactionDialog());
    QPointer<CompactionDialog> dialog = window.compactionDialog();
    QTRY_COMPARE(dialog->stage(), CompactionDialog::Stage::Preview);
    QVERIFY(test::settle(window));
    QVERIFY(dialog->grab().save(dir + u"compaction-preview"_s + suffix));
    test::OpenAiStream summary(u"qwen3-coder"_s);
    summary.role().text(u"## Goal\nA `hello` program in C that greets a name.\n\n## Done\n"_s)
        .text(u"- `main()` reads the name from argv.\n- The `--shout` flag upper-cases it.\n"_s);
    test::FakeReply hanging = test::FakeReply::sse(summary.bytes());
    hanging.hang = true;
    server.enqueue(hanging);
    dialog->compactButton()->click();
    QTRY_VERIFY(dialog->summaryText().contains(u"--shout"_s));
    QVERIFY(test::settle(window));
    QVERIFY(dialog->grab().save(dir + u"compaction-progress"_s + suffix));
    QVERIFY(window.grab().save(dir + u"compaction-running"_s + suffix));
    dialog->cancelButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->processor()->isBusy(open), 10000);
    QTRY_COMPARE(dialog->stage(), CompactionDialog::Stage::Failed);
    dialog->close();
}

void TestScreenshots::forkPrefilledAndShortcuts()
{
    test::useStyle(test::lightPalette());
    QSettings().clear();
    test::FixtureDataDir fixture;
    auto store = std::make_shared<JsonStore>(fixture.path());
    QVERIFY(store->initialize());
    auto service = std::make_shared<SessionService>(store);
    const QString open = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
    MainWindow window(test::makeController(service, fixture.path()));
    QVERIFY(test::showAndOpen(window, open, QSize(1440, 900)));
    // The last message the user wrote, forked from as the timeline's menu does.
    TimelineView *view = window.timelineView();
    QAbstractItemModel *rows = view->model();
    int userRow = -1;
    for (int r = rows->rowCount() - 1; r >= 0 && userRow < 0; --r) {
        if (rows->index(r, 0).data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::User
            && !rows->index(r, 0).data(TimelineModel::TextRole).toString().isEmpty())
            userRow = r;
    }
    QVERIFY(userRow >= 0);
    std::unique_ptr<QMenu> menu(view->createContextMenu(rows->index(userRow, 0), &window));
    QSignalSpy forked(&window, &MainWindow::forked);
    menu->findChild<QAction *>(u"forkFromHere"_s)->trigger();
    QVERIFY(forked.wait(10000));
    QTRY_VERIFY(!window.composer()->text().isEmpty());
    QVERIFY(test::settle(window));
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    QVERIFY(window.grab().save(dir + u"fork-prefilled.png"_s));
    qInfo("wrote %sfork-prefilled.png", qPrintable(dir));

    window.showShortcuts();
    QTRY_VERIFY(window.shortcutsDialog() && window.shortcutsDialog()->isVisible());
    QVERIFY(test::settle(window));
    QVERIFY(window.shortcutsDialog()->grab().save(dir + u"keyboard-shortcuts.png"_s));
    qInfo("wrote %skeyboard-shortcuts.png", qPrintable(dir));
}

void TestScreenshots::textSelection()
{
    test::useStyle(test::lightPalette());
    QSettings().clear();
    SampleStore sample;
    QVERIFY(sample.setUp());
    MainWindow window(test::makeController(sample.service, sample.dataDir.path()));
    QVERIFY(test::showAndOpen(window, sample.sampleID, QSize(1440, 900)));
    TimelineView *view = window.timelineView();
    QAbstractItemModel *rows = view->model();
    int codeRow = -1;
    for (int r = rows->rowCount() - 1; r >= 0 && codeRow < 0; --r) {
        if (rows->index(r, 0).data(TimelineModel::TextRole).toString().contains(u"static void greet"_s))
            codeRow = r;
    }
    QVERIFY(codeRow >= 0);
    const QModelIndex index = rows->index(codeRow, 0);
    view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    QVERIFY(test::settle(window));
    // From the reply's first character to the middle of its code block's second line.
    const QRect rect = view->visualRect(index);
    QPoint start;
    QPoint inCode;
    for (int y = rect.top(); y < rect.bottom() && inCode.isNull(); y += 2) {
        const auto hit = view->timelineDelegate()->hitTest(index, QPoint(rect.left() + 150, y) - rect.topLeft());
        if (start.isNull() && hit.kind == TimelineDelegate::Hit::Kind::Text)
            start = QPoint(rect.left() + 40, y + 2);
        if (hit.codeGroup == 1)
            inCode = QPoint(rect.left() + 150, y + 24);
    }
    QVERIFY(!start.isNull() && !inCode.isNull());
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, QPoint(view->visualRect(index).left() + 2, start.y()));
    QTest::mouseMove(view->viewport(), inCode);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, inCode);
    QTest::mouseMove(view->viewport(), inCode + QPoint(1, 0));
    QVERIFY(view->timelineDelegate()->selectedText().contains(u"static void greet"_s));
    QVERIFY(test::settle(window));
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    QVERIFY(window.grab().save(dir + u"text-selection.png"_s));
    qInfo("wrote %stext-selection.png", qPrintable(dir));
}

void TestScreenshots::attentionInbox()
{
    test::useStyle(test::lightPalette());
    QSettings().clear();
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    SampleStore sample;
    QVERIFY(sample.setUp());
    const auto &service = sample.service;
    const auto make = [&](const QString &title) {
        SessionService::CreateOptions options;
        options.directory = sample.project;
        options.title = title;
        const Result<Session> session = test::ownRead([&] { return service->create(options); });
        return session ? session->id() : QString();
    };
    const QString asking = make(u"Update the README for --shout"_s);
    const QString failing = make(u"Port the tests to Python"_s);
    QVERIFY(!asking.isEmpty() && !failing.isEmpty());
    const ProcessorSetup s = liveSetup(sample.dataDir.path(), server.baseUrl());
    QVERIFY(s.config.resolveModel);
    MainWindow window(test::makeController(service, sample.dataDir.path(), s));
    QVERIFY(test::showAndOpen(window, sample.sampleID, QSize(1440, 900)));

    test::OpenAiStream reply(u"qwen3-coder"_s);
    reply.role().text(u"I'll check the README's examples first."_s);
    const QByteArray args = toJson(JsonObject{{u"command"_s, u"grep -n hello README.md"_s},
                                              {u"description"_s, u"Find the examples"_s}}, 0);
    reply.toolCallStart(0, u"call_readme"_s, u"bash"_s, QString::fromUtf8(args));
    reply.finish(u"tool_calls"_s).usage(12800, 60).done();
    server.enqueue(test::FakeReply::sse(reply.bytes()));
    QVERIFY(window.controller()->prompt(asking, u"Update the README"_s, {}, {}).ok());
    QTRY_COMPARE_WITH_TIMEOUT(window.attentionInbox()->model()->rowCount(), 1, 10000);
    server.enqueue(test::FakeReply::json(400, "{\"error\": {\"message\": \"The model is not available in your region\"}}"));
    QVERIFY(window.controller()->prompt(failing, u"Port test.sh to pytest"_s, {}, {}).ok());
    QTRY_COMPARE_WITH_TIMEOUT(window.attentionInbox()->model()->rowCount(), 2, 10000);

    window.attentionInbox()->showPanel();
    QWidget *panel = window.attentionInbox()->panel();
    QTRY_VERIFY(panel && panel->isVisible());
    QVERIFY(test::settle(window));
    // The list is a pop-up of its own: painted over the window where it shows.
    QImage shot = window.grab().toImage();
    {
        QPainter p(&shot);
        p.drawPixmap(window.mapFromGlobal(panel->mapToGlobal(QPoint(0, 0))), panel->grab());
    }
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    QVERIFY(shot.save(dir + u"attention-inbox.png"_s));
    qInfo("wrote %sattention-inbox.png", qPrintable(dir));
}

void TestScreenshots::splitView()
{
    test::useStyle(test::lightPalette());
    QSettings().clear();
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    SampleStore sample;
    QVERIFY(sample.setUp());
    const auto &service = sample.service;
    SessionService::CreateOptions options;
    options.directory = sample.project;
    options.title = u"Update the README for --shout"_s;
    const Result<Session> other = test::ownRead([&] { return service->create(options); });
    QVERIFY(other);
    const ProcessorSetup s = liveSetup(sample.dataDir.path(), server.baseUrl());
    MainWindow window(test::makeController(service, sample.dataDir.path(), s));
    QVERIFY(test::showAndOpen(window, sample.sampleID, QSize(1600, 900)));
    window.action(u"showChanges"_s)->setChecked(false);
    QVERIFY(window.openSessionInNewTab(other->id()));
    window.action(u"splitRight"_s)->trigger();
    // The left group shows the sample session again, the right one the README's, running.
    window.paneArea()->groups().constFirst()->setCurrentIndex(0);
    QVERIFY(window.openSession(other->id()));
    QCOMPARE(window.paneArea()->groups().size(), 2);

    test::OpenAiStream reply(u"qwen3-coder"_s);
    reply.role()
        .text(u"I'll add a section on `--shout` after the usage example.\n\n"_s)
        .text(u"```sh\n$ ./hello --shout world\nHELLO, WORLD!\n```\n\nThe flag upper-cases the whole greeting, "_s)
        .text(u"so the README says so and shows"_s);
    test::FakeReply streaming = test::FakeReply::sse(reply.bytes());
    streaming.hang = true; // still replying when the picture is taken
    server.enqueue(streaming);
    SessionPane *right = window.currentPane();
    right->composer()->setText(u"Document the --shout flag in the README"_s);
    right->composer()->send();
    QTRY_VERIFY_WITH_TIMEOUT(right->timelineView()->isAnimating(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(right->timelineModel()->rowCount() >= 2, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        right->timelineModel()
            ->index(right->timelineModel()->rowCount() - 1)
            .data(TimelineModel::TextRole)
            .toString()
            .contains(u"shows"_s),
        10000);
    QVERIFY(test::settle(window));
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    QVERIFY(window.grab().save(dir + u"split-view.png"_s));
    qInfo("wrote %ssplit-view.png", qPrintable(dir));
    window.controller()->stop(other->id());
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(other->id()), 10000);
}

QTEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
