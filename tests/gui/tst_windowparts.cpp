// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of the main window, each without the window: the wording of prompt and operation
// errors (ErrorWording), the actions and menus (WindowActions), the questions' dialogs
// (DialogQuestions), and the sources presenter (SourcesPresenter) of a window.

#include "app/rememberedservers.h"
#include "app/serversource.h"
#include "errorwording.h"
#include "guitest.h"
#include "session/sessionservice.h"
#include "sourcespresenter.h"
#include "store/jsonstore.h"
#include "userquestions.h"
#include "windowactions.h"

#include "core/types.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QMainWindow>
#include <QMenuBar>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

Q_DECLARE_METATYPE(weft::SessionController::PromptResult::Status)
Q_DECLARE_METATYPE(weft::SessionController::Operation)
Q_DECLARE_METATYPE(weft::WindowActions::State)

class TestWindowParts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void promptNotSent_data();
    void promptNotSent();
    void operationFailed_data();
    void operationFailed();
    void runAndCompactionFailures();
    void interruptedRuns();
    void actionsHaveNamesAndDistinctShortcuts();
    void menusShowTheActions();
    void actionsFollowTheSession_data();
    void actionsFollowTheSession();
    void archiveAndDeleteNameWhatTheyDo();
    void dialogQuestionsConfirm();
    void dialogQuestionsAnswer();
    void sourcesRememberServersAndOpenTheirHits();

private:
    QTemporaryDir m_settings;
};

void TestWindowParts::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings, std::nullopt));
}

void TestWindowParts::promptNotSent_data()
{
    using Status = SessionController::PromptResult::Status;
    QTest::addColumn<Status>("status");
    // What the text must name (separated by |); empty: no text (the prompt was sent).
    QTest::addColumn<QString>("names");
    QTest::addRow("sent") << Status::Sent << QString();
    QTest::addRow("not runnable") << Status::NotRunnable << u"read-only|Import it into Weft"_s;
    QTest::addRow("no model") << Status::NoModel << u"No model is configured|/cfg/opencode.json|--config FILE"_s;
    QTest::addRow("unknown model") << Status::UnknownModel
                                   << u"The model acme/big cannot be used: no such provider|/cfg/opencode.json"_s;
    QTest::addRow("no API key") << Status::NoApiKey
                                << u"The provider anthropic of the model anthropic/claude has no API key|Set ANTHROPIC_API_KEY or "
                                   u"WEFT_KEY|/cfg/opencode.json"_s;
    QTest::addRow("failed") << Status::Failed << u"The prompt could not be sent: no such provider"_s;
}

void TestWindowParts::promptNotSent()
{
    QFETCH(SessionController::PromptResult::Status, status);
    QFETCH(QString, names);
    SessionController::PromptResult result;
    result.status = status;
    result.error = u"no such provider"_s;
    result.providerID = u"anthropic"_s;
    result.model = u"anthropic/claude"_s;
    result.env = {u"ANTHROPIC_API_KEY"_s, u"WEFT_KEY"_s};
    const QString text = ErrorWording::promptNotSent(result, u"acme/big"_s, u"/cfg/opencode.json"_s);
    if (names.isEmpty()) {
        QVERIFY2(text.isEmpty(), qPrintable(text));
        return;
    }
    for (const QString &name : names.split(u'|'))
        QVERIFY2(text.contains(name), qPrintable(text + u" lacks "_s + name));
}

void TestWindowParts::operationFailed_data()
{
    using Operation = SessionController::Operation;
    QTest::addColumn<Operation>("operation");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("text");
    QTest::addRow("fork") << Operation::Fork << u"Fork"_s << u"The session could not be forked:\ndisk full"_s;
    QTest::addRow("import") << Operation::Import << u"Copy into Weft"_s
                            << u"The session could not be copied into Weft:\ndisk full"_s;
    QTest::addRow("undo compaction") << Operation::UndoCompaction << u"Undo Compaction"_s
                                     << u"The compaction could not be undone:\ndisk full"_s;
    // The changes pane that asked for a revert says why it failed.
    QTest::addRow("revert") << Operation::Revert << QString() << QString();
    QTest::addRow("unrevert") << Operation::Unrevert << u"Unrevert"_s
                              << u"The reverted messages could not be brought back:\ndisk full"_s;
    // Notices: no title.
    QTest::addRow("connect") << Operation::Connect << QString()
                             << u"Weft cannot connect to the OpenCode server: disk full"_s;
    QTest::addRow("server request") << Operation::ServerRequest << QString()
                                    << u"The OpenCode server refused: disk full"_s;
}

void TestWindowParts::operationFailed()
{
    QFETCH(SessionController::Operation, operation);
    QFETCH(QString, title);
    QFETCH(QString, text);
    const ErrorWording::Text failure = ErrorWording::operationFailed(operation, u"disk full"_s);
    QCOMPARE(failure.title, title);
    QCOMPARE(failure.text, text);
}

void TestWindowParts::runAndCompactionFailures()
{
    QCOMPARE(ErrorWording::runFailed(MessageError()), u"The run failed."_s);
    QCOMPARE(ErrorWording::runFailed(MessageError::unknown(u"overloaded"_s)), u"The run failed: overloaded"_s);
    QCOMPARE(ErrorWording::compactionRunFailed(MessageError()), u"The compaction ended without a summary."_s);
    QCOMPARE(ErrorWording::compactionRunFailed(MessageError::api(u"boom"_s, 500, false)),
             u"The compaction failed: boom"_s);
    QCOMPARE(ErrorWording::compactionFailed(MessageError::aborted(u"stopped"_s)),
             u"The compaction was cancelled; the session is as it was."_s);
    QCOMPARE(ErrorWording::compactionFailed(MessageError::api(u"boom"_s, 500, false)),
             u"The compaction failed; the session is as it was: boom"_s);
}

void TestWindowParts::interruptedRuns()
{
    QCOMPARE(ErrorWording::interruptedRuns(1),
             u"Closed 1 interrupted run whose process ended before finishing; what was written is kept."_s);
    QCOMPARE(ErrorWording::interruptedRuns(3),
             u"Closed 3 interrupted runs whose process ended before finishing; what was written is kept."_s);
}

void TestWindowParts::actionsHaveNamesAndDistinctShortcuts()
{
    QMainWindow window;
    WindowActions actions(&window);
    QVERIFY(actions.actions().size() >= 28);
    QHash<QKeySequence, QString> owners;
    for (auto it = actions.actions().cbegin(); it != actions.actions().cend(); ++it) {
        QAction *a = it.value();
        QCOMPARE(a->objectName(), it.key());
        QVERIFY2(!a->text().isEmpty(), qPrintable(it.key()));
        QCOMPARE(actions.action(it.key()), a);
        // One key, one action: a key two actions share does neither.
        for (const QKeySequence &key : a->shortcuts()) {
            QVERIFY2(!owners.contains(key),
                     qPrintable(key.toString() + u" of "_s + it.key() + u" and "_s + owners.value(key)));
            owners.insert(key, it.key());
        }
    }
    QVERIFY(!actions.action(u"noSuchAction"_s));
}

void TestWindowParts::menusShowTheActions()
{
    QMainWindow window;
    WindowActions actions(&window);
    auto *copy = new QAction(u"Copy"_s, &window);
    actions.add(u"findNext"_s, new QAction(u"Find Next"_s, &window));
    actions.add(u"findPrevious"_s, new QAction(u"Find Previous"_s, &window));
    actions.createMenus(&window, {copy});
    QStringList menus;
    QSet<QAction *> shown;
    for (QAction *menu : window.menuBar()->actions()) {
        menus.append(menu->text());
        for (QAction *a : menu->menu()->actions())
            shown.insert(a);
    }
    QCOMPARE(menus, (QStringList{u"&File"_s, u"&Edit"_s, u"&View"_s, u"&Session"_s, u"Se&ttings"_s, u"&Help"_s}));
    QVERIFY(shown.contains(copy));
    // Every action is in a menu, where its shortcut shows.
    for (QAction *a : actions.actions())
        QVERIFY2(shown.contains(a), qPrintable(a->objectName()));
    const QList<QAction *> context = actions.sessionContextActions();
    QVERIFY(context.contains(actions.action(u"deleteSession"_s)));
    QVERIFY(context.contains(nullptr)); // separators
}

namespace
{
using State = WindowActions::State;

/// The open session of Weft's own writable store, idle.
State ownSession()
{
    State s;
    s.session = true;
    s.writable = true;
    s.runsHere = true;
    s.runnable = true;
    s.trash = true;
    s.sessionFiles = true;
    return s;
}
} // namespace

void TestWindowParts::actionsFollowTheSession_data()
{
    QTest::addColumn<State>("state");
    // The actions enabled (all others of the list below are disabled).
    QTest::addColumn<QStringList>("enabled");
    State none;
    QTest::addRow("no session") << none << QStringList{u"newSession"_s, u"showOpencode"_s, u"chooseOpencodeDir"_s};
    QTest::addRow("own session") << ownSession()
                                 << QStringList{u"newSession"_s,     u"showOpencode"_s,  u"chooseOpencodeDir"_s,
                                                u"forkSession"_s,    u"renameSession"_s, u"archiveSession"_s,
                                                u"deleteSession"_s,  u"exportSession"_s, u"revealDataFile"_s,
                                                u"compact"_s};
    State busy = ownSession();
    busy.busy = true;
    QTest::addRow("own session, running")
        << busy
        << QStringList{u"newSession"_s,    u"showOpencode"_s,  u"chooseOpencodeDir"_s, u"forkSession"_s,
                       u"renameSession"_s, u"archiveSession"_s, u"deleteSession"_s,     u"exportSession"_s,
                       u"revealDataFile"_s, u"stop"_s};
    State notRunnable = ownSession();
    notRunnable.runnable = false;
    notRunnable.sessionFiles = false;
    QTest::addRow("own session, no model to run it")
        << notRunnable
        << QStringList{u"newSession"_s,    u"showOpencode"_s,   u"chooseOpencodeDir"_s, u"forkSession"_s,
                       u"renameSession"_s, u"archiveSession"_s, u"deleteSession"_s,     u"exportSession"_s};
    State opencode;
    opencode.session = true;
    opencode.importable = true;
    QTest::addRow("OpenCode's folder") << opencode
                                       << QStringList{u"newSession"_s,  u"showOpencode"_s, u"chooseOpencodeDir"_s,
                                                      u"forkSession"_s, u"exportSession"_s, u"compact"_s};
    State server;
    server.session = true;
    server.server = true;
    server.runsHere = true;
    server.runnable = true;
    QTest::addRow("server, connected")
        << server
        << QStringList{u"newSession"_s,    u"showOpencode"_s,  u"chooseOpencodeDir"_s, u"forkSession"_s,
                       u"deleteSession"_s, u"exportSession"_s, u"compact"_s,           u"disconnectServer"_s};
    State offline = server;
    offline.runsHere = false;
    QTest::addRow("server, disconnected")
        << offline
        << QStringList{u"newSession"_s, u"showOpencode"_s, u"chooseOpencodeDir"_s, u"exportSession"_s,
                       u"disconnectServer"_s};
    State readOnly;
    readOnly.session = true;
    readOnly.readOnly = true;
    QTest::addRow("read-only store") << readOnly << QStringList{u"exportSession"_s};
}

void TestWindowParts::actionsFollowTheSession()
{
    QFETCH(State, state);
    QFETCH(QStringList, enabled);
    QMainWindow window;
    WindowActions actions(&window);
    actions.update(state);
    const QStringList followed{u"newSession"_s,     u"forkSession"_s,       u"renameSession"_s,
                               u"archiveSession"_s, u"deleteSession"_s,     u"exportSession"_s,
                               u"revealDataFile"_s, u"compact"_s,           u"stop"_s,
                               u"disconnectServer"_s, u"showOpencode"_s,    u"chooseOpencodeDir"_s};
    for (const QString &name : followed)
        QVERIFY2(actions.action(name)->isEnabled() == enabled.contains(name), qPrintable(name));
}

void TestWindowParts::archiveAndDeleteNameWhatTheyDo()
{
    QMainWindow window;
    WindowActions actions(&window);
    State state = ownSession();
    actions.update(state);
    QCOMPARE(actions.action(u"archiveSession"_s)->text(), u"&Archive"_s);
    // Into the trash at once (Undo brings it back): no question, no dots.
    QCOMPARE(actions.action(u"deleteSession"_s)->text(), u"&Delete"_s);
    QVERIFY(actions.action(u"showTrash"_s)->isVisible());
    state.archived = true;
    state.trash = false;
    actions.update(state);
    QCOMPARE(actions.action(u"archiveSession"_s)->text(), u"Un&archive"_s);
    QCOMPARE(actions.action(u"deleteSession"_s)->text(), u"&Delete…"_s);
    QVERIFY(!actions.action(u"showTrash"_s)->isVisible());
    QVERIFY(!actions.action(u"undoDelete"_s)->isVisible());
}

void TestWindowParts::dialogQuestionsConfirm()
{
    QWidget parent;
    DialogQuestions questions(&parent);
    // What the box showed, and the button clicked: the going ahead, or Cancel.
    QMessageBox::Icon icon = QMessageBox::NoIcon;
    QString title;
    QString defaultButton;
    const auto answer = [&](bool goAhead) {
        QTimer::singleShot(0, &parent, [&, goAhead] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            icon = box->icon();
            title = box->windowTitle();
            defaultButton = box->defaultButton() ? box->defaultButton()->text() : QString();
            QAbstractButton *cancel = box->button(QMessageBox::Cancel);
            QAbstractButton *go = nullptr;
            for (QAbstractButton *b : box->buttons()) {
                if (b != cancel)
                    go = b;
            }
            QVERIFY(go && cancel);
            (goAhead ? go : cancel)->click();
        });
    };
    answer(true);
    QVERIFY(questions.confirm({u"Delete Session"_s, u"Delete it?"_s, u"&Delete"_s, u"edit-delete"_s}));
    QCOMPARE(icon, QMessageBox::Warning);
    QCOMPARE(title, u"Delete Session"_s);
    QVERIFY(defaultButton != u"&Delete"_s); // what cannot be undone is not the default
    answer(false);
    QVERIFY(!questions.confirm({u"Delete Session"_s, u"Delete it?"_s, u"&Delete"_s, u"edit-delete"_s}));
    answer(false);
    QVERIFY(!questions.confirm({u"Copy into Weft"_s, u"Copy it?"_s, u"&Copy into Weft"_s, QString(), false, true}));
    QCOMPARE(icon, QMessageBox::Question);
    QCOMPARE(defaultButton, u"&Copy into Weft"_s);
}

void TestWindowParts::dialogQuestionsAnswer()
{
    QWidget parent;
    DialogQuestions questions(&parent);
    const JsonObject request{{u"id"_s, u"que_1"_s},
                             {u"questions"_s,
                              JsonArray{JsonObject{{u"question"_s, u"Which file?"_s},
                                                   {u"header"_s, u"File"_s},
                                                   {u"options"_s, JsonArray{JsonObject{{u"label"_s, u"a.txt"_s}}}}}}}};
    // Cancelled: no answer to send.
    QTimer::singleShot(0, &parent, [] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->reject();
    });
    QVERIFY(!questions.answer(request).has_value());
}

void TestWindowParts::sourcesRememberServersAndOpenTheirHits()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    auto service = std::make_shared<SessionService>(std::make_shared<JsonStore>(data.path()));
    MainWindow window(test::makeController(service, data.path()));
    SourcesPresenter *sources = window.sources();
    QVERIFY(sources);

    // A search hit in Weft's own store opens there; one of a source not shown does not open.
    SearchHit own;
    own.source = window.controller()->primarySourceKey();
    QCOMPARE(sources->sourceOf(own), std::optional<QString>(QString()));
    SearchHit elsewhere;
    elsewhere.source = u"opencode:/nowhere"_s;
    QVERIFY(!sources->sourceOf(elsewhere).has_value());

    // Weft's own sessions are forked and compacted where they are: no offer to copy them.
    sources->setCurrent(u"ses_own"_s, QString());
    QVERIFY(!sources->offerImportInstead(u"ses_own"_s, u"fork it"_s));

    // A server is remembered connected, with its password when asked to; disconnected, it is
    // not connected at the next start.
    ServerSource *server = sources->connectServer(u"http://127.0.0.1:9"_s, u"secret"_s, true);
    QVERIFY(server);
    const QString url = server->url().toString();
    const QString key = server->key();
    {
        QSettings settings;
        QCOMPARE(RememberedServers::read(settings), (QList<RememberedServers::Entry>{{url, u"secret"_s, true}}));
    }
    sources->disconnectServer(key);
    {
        QSettings settings;
        QCOMPARE(RememberedServers::read(settings), (QList<RememberedServers::Entry>{{url, u"secret"_s, false}}));
    }
    QVERIFY(!window.controller()->server(key));
}

QTEST_MAIN(TestWindowParts)
#include "tst_windowparts.moc"
