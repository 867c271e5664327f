// SPDX-License-Identifier: GPL-3.0-or-later
// Renders the main window on the OpenCode fixture and on Weft's sample sessions, in a light and
// a dark palette, to <build>/screenshots/*.png for a human to look at.

#include "compactiondialog.h"
#include "composer.h"
#include "attentioninbox.h"
#include "attentionpanel.h"
#include "bestofdialog.h"
#include "bestoflauncher.h"
#include "bestofview.h"
#include "boardview.h"
#include "contextmeter.h"
#include "diffview.h"
#include "core/identifier.h"
#include "fakellmserver.h"
#include "guitest.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "panearea.h"
#include "sessionpane.h"
#include "qt/attentionmodel.h"
#include "qt/boardmodel.h"
#include "processor/setup.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "runfixture.h"
#include "session/sampledata.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "timelinedelegate.h"
#include "timelineview.h"
#include "worktreedialogs.h"
#include "core/git.h"
#include "runfixture.h"

#include <QFile>
#include <QListWidget>
#include <QRadioButton>

#include <QDateTime>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QDir>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
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
/// A processor set-up whose one model is served by the loopback server at @p base; bash asks
/// unless @p bash says otherwise.
ProcessorSetup liveSetup(const QString &dataDir, const QUrl &base, const JsonValue &bash = JsonValue(u"ask"_s))
{
    const JsonObject config{
        {u"model"_s, u"local/qwen3-coder"_s},
        {u"provider"_s,
         JsonObject{{u"local"_s,
                     JsonObject{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                                {u"options"_s, JsonObject{{u"baseURL"_s, base.toString()}, {u"apiKey"_s, u"sk-local"_s}}},
                                {u"models"_s, JsonObject{{u"qwen3-coder"_s,
                                                          JsonObject{{u"limit"_s, JsonObject{{u"context"_s, 262144}, {u"output"_s, 65536}}}}}}}}}}},
        {u"permission"_s, JsonObject{{u"bash"_s, bash}}},
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
    /// Session › Worktree › Apply to Main Checkout… after a merge that met a conflict: the
    /// worktree's commits and files, and the file in conflict listed.
    void worktreeApplyConflict();

    /// Best of three: three models' runs of one prompt compared side by side (changes, diffs,
    /// test results), in a git repository made by the test.
    void bestOfComparison();
    /// The board docked under the window: four sessions running at once against the loopback
    /// server (one writes, one runs the tests, one thinks, one waits for permission).
    void board_data();
    void board();

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

void TestScreenshots::worktreeApplyConflict()
{
    if (!Git::available())
        QSKIP("git is not installed");
    test::useStyle(test::lightPalette());
    QSettings().clear();
    SampleStore sample;
    QVERIFY(sample.setUp());
    const QString repo = sample.projects.filePath(u"parser"_s);
    const auto write = [](const QString &path, const QByteArray &content) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
    };
    QVERIFY(QDir().mkpath(repo));
    QVERIFY(test::git(repo, {u"init"_s, u"--quiet"_s, u"--initial-branch=main"_s}));
    QVERIFY(test::git(repo, {u"config"_s, u"user.name"_s, u"Ada"_s}));
    QVERIFY(test::git(repo, {u"config"_s, u"user.email"_s, u"ada@example.com"_s}));
    QVERIFY(write(repo + u"/src/lexer.c"_s, "int next_token(void)\n{\n    return 0;\n}\n"));
    QVERIFY(write(repo + u"/README.md"_s, "# parser\n"));
    QVERIFY(test::git(repo, {u"add"_s, u"-A"_s}));
    QVERIFY(test::git(repo, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"Start"_s}));

    MainWindow window(test::makeController(sample.service, sample.dataDir.path()));
    QVERIFY(test::showAndOpen(window, sample.sampleID, QSize(1280, 800)));
    NewSessionRequest request;
    request.directory = repo;
    request.worktree = Worktrees::CreateOptions{.name = u"string-literals"_s};
    const Result<Session> created = test::awaitResult(window.controller()->createSession(request), 20000);
    QVERIFY(created);
    const QString tree = created->directory();
    QVERIFY(write(tree + u"/src/lexer.c"_s, "int next_token(void)\n{\n    return read_string();\n}\n"));
    QVERIFY(write(tree + u"/src/strings.c"_s, "int read_string(void);\n"));
    QVERIFY(test::git(tree, {u"add"_s, u"-A"_s}));
    QVERIFY(test::git(tree, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"Lex string literals"_s}));
    QVERIFY(write(tree + u"/tests/strings.t"_s, "\"a\\\"b\"\n"));
    QVERIFY(test::git(tree, {u"add"_s, u"-A"_s}));
    QVERIFY(test::git(tree, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"Test escaped quotes"_s}));
    QVERIFY(write(repo + u"/src/lexer.c"_s, "int next_token(void)\n{\n    return skip_space();\n}\n"));
    QVERIFY(test::git(repo, {u"commit"_s, u"--quiet"_s, u"-am"_s, u"Skip white space"_s}));

    const Result<Worktree> held = test::awaitResult(window.controller()->worktreeOf(created->id()), 20000);
    QVERIFY(held);
    auto *dialog = new ApplyWorktreeDialog(window.controller(), held.value(), &window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QSignalSpy loaded(dialog, &ApplyWorktreeDialog::loaded);
    dialog->show();
    QVERIFY(loaded.wait(20000));
    QSignalSpy applied(dialog, &ApplyWorktreeDialog::applied);
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"apply"_s), Qt::LeftButton);
    QVERIFY(applied.wait(20000));
    QCOMPARE(dialog->conflictList()->count(), 1);
    test::deliverPosted();
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    QVERIFY(dialog->grab().save(dir + u"worktree-apply-conflict.png"_s));
    qInfo("wrote %sworktree-apply-conflict.png", qPrintable(dir));
}

void TestScreenshots::bestOfComparison()
{
    if (!Git::available())
        QSKIP("git is not installed");
    test::useStyle(test::lightPalette());
    QSettings().clear();
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    SampleStore sample;
    QVERIFY(sample.setUp());
    const auto writeFile = [&](const QString &name, const QByteArray &content) {
        QFile f(sample.project + u'/' + name);
        return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
    };
    QVERIFY(writeFile(u"hello.py"_s,
                      "import sys\n\n\ndef greet(name):\n    return f\"Hello, {name}!\"\n\n\n"
                      "if __name__ == \"__main__\":\n    name = sys.argv[1] if len(sys.argv) > 1 else \"world\"\n"
                      "    print(greet(name))\n"));
    QVERIFY(writeFile(u"README.md"_s, "# hello\n\nGreets someone: `python3 hello.py Ada`.\n"));
    QVERIFY(test::makeGitRepository(sample.project));
    QVERIFY(test::git(sample.project, {u"add"_s, u"-A"_s}));
    QVERIFY(test::git(sample.project, {u"-c"_s, u"user.email=t@e"_s, u"-c"_s, u"user.name=t"_s, u"commit"_s, u"-q"_s,
                                       u"-m"_s, u"hello"_s}));

    // Three models of one local provider, each with its price.
    JsonObject models;
    const QStringList names{u"qwen3-coder"_s, u"gpt-oss-120b"_s, u"devstral"_s};
    for (int i = 0; i < names.size(); ++i) {
        models.insert(names.at(i), JsonObject{{u"limit"_s, JsonObject{{u"context"_s, 262144}, {u"output"_s, 65536}}},
                                              {u"cost"_s, JsonObject{{u"input"_s, 0.4 + i}, {u"output"_s, 1.6 + 2 * i}}}});
    }
    const JsonObject config{
        {u"model"_s, u"local/qwen3-coder"_s},
        {u"provider"_s,
         JsonObject{{u"local"_s,
                     JsonObject{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                                {u"options"_s, JsonObject{{u"baseURL"_s, server.baseUrl().toString()}, {u"apiKey"_s, u"sk-local"_s}}},
                                {u"models"_s, models}}}}},
        {u"permission"_s, JsonObject{{u"bash"_s, u"allow"_s}}},
    };
    const Result<Config> parsed = Config::parse(toJson(config, 2), QDir(sample.dataDir.path()).filePath(u"weft.json"_s));
    QVERIFY(parsed);
    Result<ProcessorSetup> setup = makeProcessorSetup(parsed.value(), sample.dataDir.path());
    QVERIFY(setup);
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    s.config.snapshots = ProcessorConfig::Snapshots::Never;

    // The three at once, their first replies held until the tiles are taken (the replies are
    // played in the order asked: the worktrees are made one at a time, so run 1 asks first);
    // two add --shout, the third --loud, which the test script does not accept.
    const QByteArray shout = "import sys\n\n\ndef greet(name, shout=False):\n    text = f\"Hello, {name}!\"\n"
                             "    return text.upper() if shout else text\n\n\nif __name__ == \"__main__\":\n"
                             "    args = [a for a in sys.argv[1:] if a != \"--shout\"]\n"
                             "    print(greet(args[0] if args else \"world\", \"--shout\" in sys.argv))\n";
    const QByteArray shout2 = "import argparse\n\n\ndef greet(name, shout=False):\n    text = f\"Hello, {name}!\"\n"
                              "    return text.upper() if shout else text\n\n\nif __name__ == \"__main__\":\n"
                              "    parser = argparse.ArgumentParser()\n    parser.add_argument(\"name\", nargs=\"?\", default=\"world\")\n"
                              "    parser.add_argument(\"--shout\", action=\"store_true\")\n    args = parser.parse_args()\n"
                              "    print(greet(args.name, args.shout))\n";
    const QByteArray loud = "import sys\n\n\ndef greet(name, loud=False):\n    return f\"Hello, {name}!\" + (\"!!\" if loud else \"\")\n\n\n"
                            "if __name__ == \"__main__\":\n    name = sys.argv[1] if len(sys.argv) > 1 else \"world\"\n"
                            "    print(greet(name, \"--loud\" in sys.argv))\n";
    const QList<QString> commands{
        u"cat > hello.py <<'EOF'\n"_s + QString::fromUtf8(shout)
            + u"EOF\nprintf '\\nShout it: `python3 hello.py --shout Ada`.\\n' >> README.md"_s,
        u"cat > hello.py <<'EOF'\n"_s + QString::fromUtf8(shout2) + u"EOF"_s,
        u"cat > hello.py <<'EOF'\n"_s + QString::fromUtf8(loud) + u"EOF"_s,
    };
    for (int i = 0; i < commands.size(); ++i) {
        test::OpenAiStream call(names.at(i));
        call.role().text(u"I'll add the flag to hello.py."_s);
        const QByteArray args = toJson(JsonObject{{u"command"_s, commands.at(i)}, {u"description"_s, u"Add the flag"_s}}, 0);
        call.toolCallStart(0, u"call_%1"_s.arg(i), u"bash"_s, QString::fromUtf8(args));
        call.finish(u"tool_calls"_s).usage(14200 + 2100 * i, 310 + 90 * i).done();
        test::FakeReply held = test::FakeReply::sse(call.bytes());
        held.held = true;
        server.enqueue(held);
    }
    for (int i = 0; i < commands.size(); ++i) {
        test::OpenAiStream done(names.at(i));
        done.role().text(u"Added the flag."_s).finish(u"stop"_s).usage(15100 + 2300 * i, 120 + 40 * i).done();
        server.enqueue(test::FakeReply::sse(done.bytes()));
    }

    MainWindow window(test::makeController(sample.service, sample.dataDir.path(), s));
    QVERIFY(test::showAndOpen(window, sample.sampleID, QSize(1440, 900)));
    QAction *action = window.action(u"runOnSeveralModels"_s);
    QTRY_VERIFY_WITH_TIMEOUT(action->isEnabled(), 10000);
    window.composer()->setCurrentModel(u"local/qwen3-coder"_s);
    window.composer()->setText(u"Add a --shout flag to hello.py that upper-cases the greeting."_s);
    action->trigger();
    auto *launcher = window.findChild<BestOfLauncher *>();
    QVERIFY(launcher && launcher->dialog());
    BestOfDialog *dialog = launcher->dialog();
    QCOMPARE(dialog->models(), QStringList({u"local/qwen3-coder"_s, u"local/gpt-oss-120b"_s, u"local/devstral"_s}));
    dialog->testEdit()->setText(u"grep -q 'upper()' hello.py && echo 'ok  test_shout' || { echo 'FAIL test_shout: "
                                u"hello.py --shout Ada printed \"Hello, Ada!\"'; exit 1; }"_s);
    QVERIFY(test::settle(window));
    QVERIFY(dialog->grab().save(QStringLiteral(WEFT_BINARY_DIR "/screenshots/best-of-dialog.png")));
    dialog->runButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(launcher->views().size(), 1, 20000);
    BestOfView *view = launcher->views().first();
    view->resize(1440, 900);
    QTRY_COMPARE_WITH_TIMEOUT(server.heldReplies(), 3, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(view->boardView()->sortModel()->rowCount(), 3, 20000);
    test::deliverPosted();
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    QVERIFY(view->grab().save(dir + u"best-of-3-running.png"_s));
    server.release();
    QTRY_VERIFY_WITH_TIMEOUT(view->group()->isFinished(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(view->isComparing(), 20000);
    for (int i = 0; i < 3; ++i) {
        const BestOfView::Column &column = view->column(i);
        QTRY_VERIFY_WITH_TIMEOUT(column.diff->document(), 20000);
    }
    view->column(2).showOutput->click();
    test::deliverPosted();
    QVERIFY(view->grab().save(dir + u"best-of-3.png"_s));
    qInfo("wrote %sbest-of-3.png", qPrintable(dir));
}

void TestScreenshots::board_data()
{
    QTest::addColumn<bool>("dark");
    QTest::addRow("light") << false;
    QTest::addRow("dark") << true;
}

void TestScreenshots::board()
{
    QFETCH(bool, dark);
    test::useStyle(dark ? test::darkPalette() : test::lightPalette());
    QSettings().clear();
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    SampleStore sample;
    QVERIFY(sample.setUp());
    const auto &service = sample.service;
    // Each session in a worktree of its own, on its branch.
    QVERIFY(test::makeGitRepository(sample.project));
    const auto worktree = [&](const QString &name, const QString &branch) {
        const QString path = QDir::cleanPath(sample.project + u"/../hello-"_s + name);
        const bool added = test::git(sample.project, {u"worktree"_s, u"add"_s, u"-q"_s, u"-b"_s, branch, path});
        return added ? path : QString();
    };
    const auto make = [&](const QString &title, double cost, qint64 tokens, const QString &directory) {
        SessionService::CreateOptions options;
        options.directory = directory;
        options.title = title;
        const Result<Session> session = test::ownRead([&] { return service->create(options); });
        if (!session)
            return QString();
        // What its earlier turns cost.
        Message earlier = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), session->id(),
                                                 QDateTime::currentMSecsSinceEpoch() - 600000, u"msg_earlier"_s,
                                                 u"local"_s, u"qwen3-coder"_s, u"build"_s, directory, directory);
        earlier.setCost(cost);
        Tokens t;
        t.input = tokens;
        t.output = tokens / 40;
        earlier.setTokens(t);
        earlier.setCompleted(QDateTime::currentMSecsSinceEpoch() - 590000);
        if (!test::ownRead([&] { return service->updateMessage(earlier); }))
            return QString();
        return session->id();
    };
    const QString readmeDir = worktree(u"readme"_s, u"docs/shout-flag"_s);
    QVERIFY(!readmeDir.isEmpty());
    // The test script the agent runs there takes a while.
    QFile script(QDir(readmeDir).filePath(u"test.sh"_s));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("sleep 20\n");
    script.close();
    const QString login
        = make(u"Fix the login form validation"_s, 0.42, 38200, worktree(u"login"_s, u"fix/login-validation"_s));
    const QString readme = make(u"Document --shout in the README"_s, 0.08, 12400, readmeDir);
    const QString pytest
        = make(u"Port the tests to pytest"_s, 1.37, 91800, worktree(u"pytest"_s, u"tests/pytest"_s));
    const QString cleanup = make(u"Clean up the build scripts"_s, 0.21, 24100, sample.project);
    QVERIFY(!login.isEmpty() && !readme.isEmpty() && !pytest.isEmpty() && !cleanup.isEmpty());

    const ProcessorSetup s = liveSetup(sample.dataDir.path(), server.baseUrl(),
                                       JsonObject{{u"*"_s, u"ask"_s}, {u"sh test.sh"_s, u"allow"_s}});
    QVERIFY(s.config.resolveModel);
    MainWindow window(test::makeController(service, sample.dataDir.path(), s));
    QVERIFY(test::showAndOpen(window, sample.sampleID, QSize(1440, 900)));
    window.action(u"showBoard"_s)->trigger();
    QDockWidget *dock = window.board()->dock();
    QTRY_VERIFY(dock->isVisible());
    window.resizeDocks({dock}, {dock->sizeHint().height()}, Qt::Vertical);

    // One run at a time takes its reply.
    const auto run = [&](const QString &sessionID, const QByteArray &body, bool hang) {
        const qsizetype requests = server.requests().size();
        test::FakeReply reply = test::FakeReply::sse(body);
        reply.hang = hang;
        server.enqueue(reply);
        return window.controller()->prompt(sessionID, u"Go on"_s, {}, {}).ok()
            && QTest::qWaitFor([&] { return server.requests().size() > requests; }, 10000);
    };
    const auto tool = [](const QString &text, const QString &id, const QString &command, const QString &what) {
        test::OpenAiStream reply(u"qwen3-coder"_s);
        reply.role().text(text);
        const QByteArray args = toJson(JsonObject{{u"command"_s, command}, {u"description"_s, what}}, 0);
        reply.toolCallStart(0, id, u"bash"_s, QString::fromUtf8(args));
        return reply.finish(u"tool_calls"_s).usage(21400, 80).done().bytes();
    };
    QVERIFY(run(login,
                test::OpenAiStream(u"qwen3-coder"_s)
                    .role()
                    .text(u"The bug is in `validate()`: an empty password passes.\n"_s)
                    .text(u"I'll add the check, then a test for an empty password and one for spaces only."_s)
                    .bytes(),
                true));
    QVERIFY(run(readme, tool(u"The flag is documented; now the examples."_s, u"call_tests"_s, u"sh test.sh"_s,
                             u"Run the tests"_s),
                false));
    QVERIFY(run(pytest,
                test::OpenAiStream(u"qwen3-coder"_s)
                    .role()
                    .reasoning(u"test.sh compares the output of three runs.\nEach becomes a parametrized pytest case "
                               "with capsys."_s)
                    .bytes(),
                true));
    QVERIFY(run(cleanup, tool(u"Removing the old build output first."_s, u"call_clean"_s, u"rm -rf build dist"_s,
                              u"Remove the build output"_s),
                false));

    BoardView *board = window.board()->view();
    const auto tileOf = [&](const QString &id) { return window.board()->model()->indexFor(id); };
    QTRY_COMPARE_WITH_TIMEOUT(board->sortModel()->rowCount(), 4, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(tileOf(cleanup).data(BoardModel::StateRole).value<BoardModel::State>(),
                              BoardModel::State::Waiting, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(tileOf(readme).data(BoardModel::ToolStatusRole).value<ToolStatus>(), ToolStatus::Running,
                              10000);
    QTRY_VERIFY_WITH_TIMEOUT(tileOf(login).data(BoardModel::ActivityTextRole).toString().contains(u"spaces only"_s),
                             10000);
    QTRY_COMPARE_WITH_TIMEOUT(tileOf(pytest).data(BoardModel::ActivityRole).value<BoardModel::Activity>(),
                              BoardModel::Activity::Thinking, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(tileOf(login).data(BoardModel::BranchRole).toString(), u"fix/login-validation"_s,
                              10000);
    // A few seconds into the runs.
    QTRY_VERIFY_WITH_TIMEOUT(tileOf(login).data(BoardModel::ElapsedRole).toLongLong() >= 2000, 10000);
    board->listView()->setCurrentIndex(board->sortModel()->index(0, 0));
    QVERIFY(test::settle(window));
    QCOMPARE(board->summaryLabel()->text(), u"3 running · 1 waiting for you"_s);
    // The list lays its tiles out again 100 ms after a resize (QListView::Adjust).
    QTRY_VERIFY(!board->listView()->verticalScrollBar()->isVisible());
    QVERIFY(test::settle(window));
    const QString dir = QStringLiteral(WEFT_BINARY_DIR "/screenshots/");
    const QString suffix = dark ? u"-dark.png"_s : u"-light.png"_s;
    QVERIFY(window.grab().save(dir + u"board"_s + suffix));
    QVERIFY(board->grab().save(dir + u"board-tiles"_s + suffix));
    qInfo("wrote %sboard%s", qPrintable(dir), qPrintable(suffix));
    for (const QString &id : {login, readme, pytest, cleanup})
        window.controller()->stop(id);
    QTRY_VERIFY_WITH_TIMEOUT(window.controller()->busySessions().isEmpty(), 20000);
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
