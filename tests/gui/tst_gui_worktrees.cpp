// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions in git worktrees from the window (issue 36 §2), against real repositories made by the
// test and the loopback LLM server: New Session in a worktree by keyboard and by mouse (a hostile
// name refused, the setup script run or not), the branch in the sidebar, the changes pane's
// worktree scope, Apply to Main Checkout by merge, rebase and diff, and a conflicting one whose
// files are listed, Commit with the message the session's model proposes, Remove refused while
// dirty then confirmed, and a fork that gets a worktree of its own.

#include "app/serversource.h"
#include "changespane.h"
#include "fakeopencodeserver.h"
#include "server/serverclient.h"
#include "core/git.h"
#include "guitest.h"
#include "newsessiondialog.h"
#include "processor/setup.h"
#include "qt/diffmodel.h"
#include "runfixture.h"
#include "scriptedquestions.h"
#include "session/sessionservice.h"
#include "testdata.h"
#include "worktreedialogs.h"
#include "worktreepresenter.h"

#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QInputDialog>
#include <QUrlQuery>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{
QString gitLine(const QString &dir, const QStringList &args)
{
    Git::Options options;
    options.workingDirectory = dir;
    return Git::run(args, options).line();
}

/// Clicks a check box or radio button on its indicator (its middle may be past its text).
void clickButton(QAbstractButton *button)
{
    QTest::mouseClick(button, Qt::LeftButton, {}, QPoint(8, button->height() / 2));
}
} // namespace

class TestGuiWorktrees : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void newSessionByKeyboard();
    void newSessionByMouse();
    void defaultFromSettingsThenProject();
    void changesPaneShowsTheWorktreeDiff();
    void apply_data();
    void apply();
    void commitWithTheProposedMessage();
    void removeRefusedWhileDirtyThenConfirmed();
    void forkGetsAWorktree();
    void terminalCommand();
    void serverSession();

private:
    [[nodiscard]] WorktreePresenter *presenter() const { return m_window->worktrees(); }
    /// A session in a new worktree @p name, open in the window with its worktree known.
    [[nodiscard]] QString openInWorktree(const QString &name);
    [[nodiscard]] QString worktreePath(const QString &name) const
    {
        return QFileInfo(m_repo).absolutePath() + u"/app.worktrees/"_s + name;
    }

    QTemporaryDir m_settings;
    RunFixture m_run;
    QString m_repo;
    QString m_repoSessionID;
    std::unique_ptr<MainWindow> m_window;
    std::shared_ptr<ScriptedQuestions> m_questions;
    bool m_confirm = false;
    QStringList m_asked;
};

void TestGuiWorktrees::initTestCase()
{
    QVERIFY(initGuiTestCase(m_settings));
    clearProviderKeys();
}

void TestGuiWorktrees::init()
{
    if (!Git::available())
        QSKIP("git is not installed");
    QVERIFY(m_run.setUp());
    m_repo = m_run.project->filePath(u"app"_s);
    QVERIFY(QDir().mkpath(m_repo));
    QVERIFY(git(m_repo, {u"init"_s, u"--quiet"_s, u"--initial-branch=main"_s}));
    QVERIFY(git(m_repo, {u"config"_s, u"user.name"_s, u"Test"_s}));
    QVERIFY(git(m_repo, {u"config"_s, u"user.email"_s, u"test@example.com"_s}));
    QVERIFY(writeFile(m_repo + u"/README"_s, "one\ntwo\nthree\n"));
    QVERIFY(writeFile(m_repo + u"/.weft/worktree-setup"_s, "echo set up > setup-ran\n"));
    QVERIFY(git(m_repo, {u"add"_s, u"-A"_s}));
    QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"start"_s}));

    SessionService::CreateOptions options;
    options.directory = m_repo;
    options.title = u"In the repository"_s;
    const Result<Session> session = ownRead([&] { return m_run.service->create(options); });
    QVERIFY(session);
    m_repoSessionID = session->id();

    Result<ProcessorSetup> setup
        = loadProcessorSetup(m_run.writeConfig(JsonObject{{u"snapshot"_s, false}}), m_run.data->path());
    QVERIFY(setup);
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    m_window = std::make_unique<MainWindow>(makeController(m_run.service, m_run.data->path(), s));
    m_confirm = false;
    m_asked.clear();
    m_questions = scriptedQuestions([this](const Confirmation &c) {
        m_asked.append(c.text);
        return m_confirm;
    });
    presenter()->setUserQuestions(m_questions);
    m_window->setUserQuestions(m_questions);
    QVERIFY(showAndOpen(*m_window, m_repoSessionID));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void TestGuiWorktrees::cleanup()
{
    m_window.reset();
    m_run.tearDown();
    QSettings().remove(u"NewSession"_s);
}

QString TestGuiWorktrees::openInWorktree(const QString &name)
{
    NewSessionRequest request;
    request.directory = m_repo;
    request.title = name;
    request.worktree = Worktrees::CreateOptions{.name = name};
    request.runSetup = false;
    const Result<Session> created = awaitResult(m_window->controller()->createSession(request), 20000);
    if (!created) {
        qWarning() << created.error().toString();
        return {};
    }
    // The future may have finished before the sidebar took the session (queued to this thread).
    if (!QTest::qWaitFor([&] { return m_window->sessionsModel()->indexForId(created->id()).isValid(); }, 20000))
        return {};
    QSignalSpy known(presenter(), &WorktreePresenter::currentWorktreeChanged);
    if (!openAndLoad(*m_window, created->id()) || !(presenter()->currentWorktree() || known.wait(20000))
        || !presenter()->currentWorktree())
        return {};
    return created->id();
}

void TestGuiWorktrees::newSessionByKeyboard()
{
    QSignalSpy created(presenter(), &WorktreePresenter::sessionCreated);
    QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(presenter()->newSessionDialog());
    NewSessionDialog *dialog = presenter()->newSessionDialog();
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isRepository(), 20000);
    auto *inWorktree = dialog->findChild<QCheckBox *>(u"inWorktree"_s);
    auto *name = dialog->findChild<QLineEdit *>(u"worktreeName"_s);
    auto *runSetup = dialog->findChild<QCheckBox *>(u"runSetup"_s);
    QVERIFY(inWorktree && name && runSetup);
    // Not the default (Settings say no): checked with the keyboard.
    QVERIFY(!inWorktree->isChecked());
    inWorktree->setFocus();
    QTest::keyClick(inWorktree, Qt::Key_Space);
    QVERIFY(inWorktree->isChecked());
    QVERIFY(name->isEnabled());
    QVERIFY(runSetup->isEnabled() && runSetup->isChecked()); // the repository has a setup script
    QTest::keyClick(name, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(name, u"kbd-feature"_s);
    QCOMPARE(dialog->findChild<QLabel *>(u"worktreeBranch"_s)->text(), u"On a new branch: weft/kbd-feature"_s);
    QTest::keyClick(name, Qt::Key_Return);

    QVERIFY(created.wait(20000));
    const QString id = created.first().first().toString();
    QCOMPARE(m_window->currentSessionID(), id);
    const std::optional<Session> session = m_window->sessionsModel()->session(id);
    QVERIFY(session);
    const QString path = worktreePath(u"kbd-feature"_s);
    QCOMPARE(session->directory(), path);
    QCOMPARE(readFile(path + u"/setup-ran"_s), QByteArray("set up\n"));
    // The sidebar shows its branch; the session in the main checkout shows none.
    QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionsModel()->indexForId(id).data(SessionsModel::BranchRole).toString(),
                              u"weft/kbd-feature"_s, 20000);
    QCOMPARE(m_window->sessionsModel()->indexForId(m_repoSessionID).data(SessionsModel::BranchRole).toString(), QString());
    QTRY_VERIFY_WITH_TIMEOUT(presenter()->currentWorktree(), 20000);
    QCOMPARE(presenter()->currentWorktree()->branch, u"weft/kbd-feature"_s);
    QVERIFY(presenter()->action(u"worktreeApply"_s)->isEnabled());
    // The project remembers the choice.
    QVERIFY(WorktreePresenter::projectInWorktree(session->projectID()));
}

void TestGuiWorktrees::newSessionByMouse()
{
    QSignalSpy created(presenter(), &WorktreePresenter::sessionCreated);
    presenter()->action(u"newSessionInWorktree"_s)->trigger();
    QTRY_VERIFY(presenter()->newSessionDialog());
    NewSessionDialog *dialog = presenter()->newSessionDialog();
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isRepository(), 20000);
    auto *inWorktree = dialog->findChild<QCheckBox *>(u"inWorktree"_s);
    auto *name = dialog->findChild<QLineEdit *>(u"worktreeName"_s);
    auto *parent = dialog->findChild<QLineEdit *>(u"worktreeParent"_s);
    auto *runSetup = dialog->findChild<QCheckBox *>(u"runSetup"_s);
    auto *create = dialog->findChild<QPushButton *>(u"create"_s);
    QVERIFY(inWorktree && name && parent && runSetup && create);
    QCOMPARE(QDir::fromNativeSeparators(parent->text()), QFileInfo(m_repo).absolutePath() + u"/app.worktrees"_s);
    clickButton(inWorktree);
    QVERIFY(inWorktree->isChecked());
    // A hostile name is refused before anything runs.
    name->clear();
    QTest::keyClicks(name, u"../../etc"_s);
    QVERIFY(!create->isEnabled());
    QVERIFY(dialog->findChild<QLabel *>(u"hint"_s)->text().contains(u"cannot name a worktree"_s));
    name->clear();
    QTest::keyClicks(name, u"mouse-one"_s);
    QVERIFY(create->isEnabled());
    // Elsewhere than beside the repository, and without the setup script.
    const QString elsewhere = m_run.project->filePath(u"trees"_s);
    parent->clear();
    QTest::keyClicks(parent, elsewhere);
    clickButton(runSetup);
    QVERIFY(!runSetup->isChecked());
    QTest::mouseClick(create, Qt::LeftButton);

    QVERIFY(created.wait(20000));
    const std::optional<Session> session = m_window->sessionsModel()->session(created.first().first().toString());
    QVERIFY(session);
    QCOMPARE(session->directory(), elsewhere + u"/mouse-one"_s);
    QVERIFY(QFileInfo::exists(elsewhere + u"/mouse-one/README"_s));
    QVERIFY(!QFileInfo::exists(elsewhere + u"/mouse-one/setup-ran"_s));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionsModel()->indexForId(session->id()).data(SessionsModel::BranchRole).toString(),
                              u"weft/mouse-one"_s, 20000);
}

void TestGuiWorktrees::defaultFromSettingsThenProject()
{
    // Settings say "in a worktree" for projects that have not chosen; a project's own choice wins.
    WorktreePresenter::setDefaultInWorktree(true);
    const auto open = [this]() -> NewSessionDialog * {
        presenter()->action(u"newSessionInWorktree"_s)->trigger();
        NewSessionDialog *dialog = presenter()->newSessionDialog();
        if (!dialog || !QTest::qWaitFor([dialog] { return dialog->isRepository(); }, 20000))
            return nullptr;
        return dialog;
    };
    NewSessionDialog *dialog = open();
    QVERIFY(dialog);
    auto *inWorktree = dialog->findChild<QCheckBox *>(u"inWorktree"_s);
    QVERIFY(inWorktree->isChecked());
    // This project chooses the plain session: remembered.
    clickButton(inWorktree);
    QVERIFY(!inWorktree->isChecked());
    QSignalSpy created(presenter(), &WorktreePresenter::sessionCreated);
    QTest::keyClick(dialog->findChild<QLineEdit *>(u"directory"_s), Qt::Key_Return);
    QVERIFY(created.wait(20000));
    const std::optional<Session> plain = m_window->sessionsModel()->session(created.first().first().toString());
    QVERIFY(plain);
    QCOMPARE(plain->directory(), m_repo);
    QVERIFY(!WorktreePresenter::projectInWorktree(plain->projectID()));
    QVERIFY(m_window->openSession(m_repoSessionID));
    dialog = open();
    QVERIFY(dialog);
    QVERIFY(!dialog->findChild<QCheckBox *>(u"inWorktree"_s)->isChecked());
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!presenter()->newSessionDialog());
}

void TestGuiWorktrees::changesPaneShowsTheWorktreeDiff()
{
    ChangesPane *pane = m_window->changesPane();
    QVERIFY(!pane->findChild<QToolButton *>(u"scopeWorktree"_s)->isVisible());
    const QString id = openInWorktree(u"diffed"_s);
    QVERIFY(!id.isEmpty());
    const QString path = worktreePath(u"diffed"_s);
    QVERIFY(writeFile(path + u"/README"_s, "one\nTWO\nthree\n"));
    QVERIFY(writeFile(path + u"/new.txt"_s, "new\n"));
    m_window->action(u"showChanges"_s)->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(pane->worktree(), 20000);
    auto *button = pane->findChild<QToolButton *>(u"scopeWorktree"_s);
    QTRY_VERIFY(button->isVisible());
    QSignalSpy loaded(pane, &ChangesPane::loaded);
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(pane->scope(), ChangesPane::Scope::Worktree);
    QVERIFY(loaded.wait(20000));
    QTRY_COMPARE_WITH_TIMEOUT(pane->model()->rowCount(), 2, 20000);
    QStringList files;
    for (int row = 0; row < pane->model()->rowCount(); ++row)
        files << pane->model()->diff(row).file();
    files.sort();
    QCOMPARE(files, (QStringList{u"README"_s, u"new.txt"_s}));
}

void TestGuiWorktrees::apply_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("conflict");
    QTest::addRow("merge") << int(ApplyMode::Merge) << false;
    QTest::addRow("rebase") << int(ApplyMode::Rebase) << false;
    QTest::addRow("diff") << int(ApplyMode::Diff) << false;
    QTest::addRow("merge, conflicting") << int(ApplyMode::Merge) << true;
    QTest::addRow("rebase, conflicting") << int(ApplyMode::Rebase) << true;
    QTest::addRow("diff, conflicting") << int(ApplyMode::Diff) << true;
}

void TestGuiWorktrees::apply()
{
    QFETCH(int, mode);
    QFETCH(bool, conflict);
    const ApplyMode applyMode = ApplyMode(mode);
    const QString id = openInWorktree(u"applied"_s);
    QVERIFY(!id.isEmpty());
    const QString path = worktreePath(u"applied"_s);
    QVERIFY(writeFile(path + u"/README"_s, "one\nfrom the worktree\nthree\n"));
    QVERIFY(writeFile(path + u"/feature.c"_s, "int feature;\n"));
    if (applyMode != ApplyMode::Diff) {
        QVERIFY(git(path, {u"add"_s, u"-A"_s}));
        QVERIFY(git(path, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"Add the feature"_s}));
    }
    if (conflict) {
        QVERIFY(writeFile(m_repo + u"/README"_s, "one\nfrom main\nthree\n"));
        QVERIFY(git(m_repo, {u"commit"_s, u"--quiet"_s, u"-am"_s, u"Main moved on"_s}));
    }
    const QString mainHead = gitLine(m_repo, {u"rev-parse"_s, u"HEAD"_s});

    presenter()->action(u"worktreeApply"_s)->trigger();
    QTRY_VERIFY(presenter()->applyDialog());
    ApplyWorktreeDialog *dialog = presenter()->applyDialog();
    QSignalSpy loaded(dialog, &ApplyWorktreeDialog::loaded);
    QVERIFY(loaded.wait(20000));
    // What will come: its commit, its files.
    QCOMPARE(dialog->commitList()->count(), applyMode == ApplyMode::Diff ? 0 : 1);
    if (applyMode != ApplyMode::Diff)
        QVERIFY(dialog->commitList()->item(0)->text().endsWith(u"Add the feature"_s));
    QCOMPARE(dialog->fileList()->count(), 2);
    const char *names[] = {"modeMerge", "modeRebase", "modeDiff"};
    clickButton(dialog->findChild<QRadioButton *>(QString::fromLatin1(names[mode])));
    QCOMPARE(dialog->mode(), applyMode);
    QSignalSpy applied(dialog, &ApplyWorktreeDialog::applied);
    auto *applyButton = dialog->findChild<QPushButton *>(u"apply"_s);
    QVERIFY(applyButton->isEnabled());
    QTest::mouseClick(applyButton, Qt::LeftButton);
    QVERIFY(applied.wait(20000));
    QVERIFY2(applied.first().at(0).toBool(), qPrintable(applied.first().at(2).toString()));
    const QStringList conflicted = applied.first().at(1).toStringList();

    if (!conflict) {
        QVERIFY(conflicted.isEmpty());
        QVERIFY(dialog->outcomeText().startsWith(u"Applied"_s));
        QCOMPARE(readFile(m_repo + u"/README"_s), QByteArray("one\nfrom the worktree\nthree\n"));
        QCOMPARE(readFile(m_repo + u"/feature.c"_s), QByteArray("int feature;\n"));
        if (applyMode == ApplyMode::Diff)
            QCOMPARE(gitLine(m_repo, {u"rev-parse"_s, u"HEAD"_s}), mainHead); // uncommitted
        else
            QVERIFY(gitLine(m_repo, {u"log"_s, u"--format=%s"_s}).contains(u"Add the feature"_s));
        return;
    }
    // The conflict is shown, file by file, never dropped.
    QCOMPARE(conflicted, QStringList{u"README"_s});
    QListWidget *conflicts = dialog->conflictList();
    QVERIFY(conflicts->isVisible());
    QCOMPARE(conflicts->count(), 1);
    QCOMPARE(conflicts->item(0)->text(), u"README"_s);
    if (applyMode == ApplyMode::Diff) {
        QVERIFY(dialog->outcomeText().contains(u"conflict markers"_s));
        QVERIFY(readFile(m_repo + u"/README"_s).contains("<<<<<<<"));
    } else {
        // Merge and rebase leave both as they were, and say so.
        QVERIFY(dialog->outcomeText().contains(u"Nothing was changed"_s));
        QCOMPARE(gitLine(m_repo, {u"rev-parse"_s, u"HEAD"_s}), mainHead);
        QCOMPARE(readFile(m_repo + u"/README"_s), QByteArray("one\nfrom main\nthree\n"));
        QCOMPARE(gitLine(m_repo, {u"status"_s, u"--porcelain"_s, u"--untracked-files=no"_s}), QString());
        QCOMPARE(readFile(path + u"/README"_s), QByteArray("one\nfrom the worktree\nthree\n"));
    }
}

void TestGuiWorktrees::commitWithTheProposedMessage()
{
    const QString id = openInWorktree(u"committed"_s);
    QVERIFY(!id.isEmpty());
    const QString path = worktreePath(u"committed"_s);
    QVERIFY(writeFile(path + u"/parser.c"_s, "int parse(void);\n"));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Add the parser\n\n"_s, u"It declares parse()."_s})));
    const qsizetype before = m_run.server->requests().size();
    presenter()->action(u"worktreeCommit"_s)->trigger();
    QTRY_VERIFY(presenter()->commitDialog());
    CommitWorktreeDialog *dialog = presenter()->commitDialog();
    QSignalSpy proposed(dialog, &CommitWorktreeDialog::proposed);
    QVERIFY(proposed.wait(20000));
    QVERIFY2(proposed.first().first().toBool(), qPrintable(dialog->statusText()));
    QCOMPARE(dialog->messageEdit()->toPlainText(), u"Add the parser\n\nIt declares parse()."_s);
    // The model was asked about the diff, in one call without tools.
    QCOMPARE(m_run.server->requests().size(), before + 1);
    const FakeRequest &asked = m_run.server->requests().last();
    QVERIFY(asked.body.contains("parser.c"));
    QVERIFY(!asked.json.contains(u"tools"_s));
    // Edited before committing, by keyboard.
    dialog->messageEdit()->setFocus();
    QTest::keyClick(dialog->messageEdit(), Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(dialog->messageEdit(), u" Edited."_s);
    QSignalSpy committed(dialog, &CommitWorktreeDialog::committed);
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"commit"_s), Qt::LeftButton);
    QVERIFY(committed.wait(20000));
    QCOMPARE(gitLine(path, {u"log"_s, u"-1"_s, u"--format=%B"_s}), u"Add the parser\n\nIt declares parse(). Edited."_s);
    QCOMPARE(gitLine(path, {u"status"_s, u"--porcelain"_s}), QString());
}

void TestGuiWorktrees::removeRefusedWhileDirtyThenConfirmed()
{
    const QString id = openInWorktree(u"removed"_s);
    QVERIFY(!id.isEmpty());
    const QString path = worktreePath(u"removed"_s);
    QVERIFY(writeFile(path + u"/unsaved.txt"_s, "work\n"));
    QSignalSpy finished(presenter(), &WorktreePresenter::removeFinished);
    m_confirm = false;
    presenter()->action(u"worktreeRemove"_s)->trigger();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.first().first().toBool(), false);
    QCOMPARE(m_asked.size(), 1);
    QVERIFY2(m_asked.first().contains(u"1 uncommitted change"_s), qPrintable(m_asked.first()));
    QVERIFY(m_asked.first().contains(u"weft/removed stays"_s));
    QVERIFY(QFileInfo::exists(path + u"/unsaved.txt"_s));

    m_confirm = true;
    presenter()->action(u"worktreeRemove"_s)->trigger();
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.last().first().toBool(), true);
    QVERIFY(!QFileInfo::exists(path));
    // The branch stays; the menu has no worktree any more.
    QVERIFY(git(m_repo, {u"rev-parse"_s, u"--verify"_s, u"--quiet"_s, u"refs/heads/weft/removed"_s}));
    QVERIFY(!presenter()->currentWorktree());
    QVERIFY(!presenter()->action(u"worktreeRemove"_s)->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionsModel()->indexForId(id).data(SessionsModel::BranchRole).toString(),
                              QString(), 20000);
}

void TestGuiWorktrees::forkGetsAWorktree()
{
    const QString id = openInWorktree(u"forked"_s);
    QVERIFY(!id.isEmpty());
    const QString path = worktreePath(u"forked"_s);
    QVERIFY(writeFile(path + u"/committed.txt"_s, "in a commit\n"));
    QVERIFY(git(path, {u"add"_s, u"-A"_s}));
    QVERIFY(git(path, {u"commit"_s, u"--quiet"_s, u"-m"_s, u"Work"_s}));
    QVERIFY(writeFile(path + u"/uncommitted.txt"_s, "not yet\n"));
    QVERIFY(writeFile(path + u"/README"_s, "one\nchanged\nthree\n"));
    m_confirm = true;
    QSignalSpy forked(m_window.get(), &MainWindow::forked);
    QSignalSpy done(presenter(), &WorktreePresenter::forkWorktreeFinished);
    m_window->action(u"forkSession"_s)->trigger();
    QVERIFY(done.wait(20000));
    QVERIFY2(done.first().first().toBool(), qPrintable(done.first().at(1).toString()));
    QCOMPARE(m_asked.size(), 1);
    QVERIFY(m_asked.first().contains(u"uncommitted changes copied"_s));
    QTRY_COMPARE_WITH_TIMEOUT(forked.size(), 1, 20000);
    const QString forkID = forked.first().first().toString();
    const QString forkPath = done.first().at(1).toString();
    QVERIFY(forkPath.startsWith(worktreePath(u"forked-fork-"_s)));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionsModel()->session(forkID)->directory(), forkPath, 20000);
    // From its HEAD, with its uncommitted changes; the original keeps its own.
    QCOMPARE(readFile(forkPath + u"/committed.txt"_s), QByteArray("in a commit\n"));
    QCOMPARE(readFile(forkPath + u"/uncommitted.txt"_s), QByteArray("not yet\n"));
    QCOMPARE(readFile(forkPath + u"/README"_s), QByteArray("one\nchanged\nthree\n"));
    QCOMPARE(gitLine(forkPath, {u"rev-parse"_s, u"HEAD"_s}), gitLine(path, {u"rev-parse"_s, u"HEAD"_s}));
    QCOMPARE(readFile(path + u"/uncommitted.txt"_s), QByteArray("not yet\n"));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sessionsModel()->indexForId(forkID).data(SessionsModel::BranchRole).toString().startsWith(
                                 u"weft/forked-fork-"_s),
                             20000);
    QCOMPARE(m_window->sessionsModel()->session(id)->directory(), path);
}

void TestGuiWorktrees::terminalCommand()
{
    // $TERMINAL first, split without a shell; else a known terminal told the folder its own way.
    const QByteArray saved = qgetenv("TERMINAL");
    const QString sh = QStandardPaths::findExecutable(u"sh"_s);
    QVERIFY(!sh.isEmpty());
    qputenv("TERMINAL", QByteArray(QFile::encodeName(sh) + " -c \"exit 0\""));
    const std::optional<WorktreePresenter::Command> chosen = WorktreePresenter::terminalCommand(u"/tmp/a b"_s);
    QVERIFY(chosen);
    QCOMPARE(chosen->program, sh);
    QCOMPARE(chosen->arguments, (QStringList{u"-c"_s, u"exit 0"_s}));
    if (saved.isNull())
        qunsetenv("TERMINAL");
    else
        qputenv("TERMINAL", saved);
}

void TestGuiWorktrees::serverSession()
{
    // An OpenCode server's session: its worktree is the server's (OpenCode 1.18's
    // /experimental/worktree); without the routes the menu says it is not available.
    test::FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    server.route("GET", u"/experimental/session"_s, 200, test::recordedExchange(u"session list"_s).responseBody);
    const JsonObject recorded = test::recordedExchange(u"create V1 session"_s).responseBody.toObject();
    const QString id = recorded.string(u"id");
    const QString folder = recorded.string(u"directory");
    ServerSource *source = m_window->controller()->addServer(ServerClient(server.url(), u"secret"_s));
    QTRY_VERIFY_WITH_TIMEOUT(source->isReady(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(source->sessions()->isLoaded(), 10000);
    QSignalSpy known(presenter(), &WorktreePresenter::currentWorktreeChanged);
    QVERIFY(m_window->openSession(id, source->key()));
    QVERIFY(known.wait(20000));
    QAction *apply = presenter()->action(u"worktreeApply"_s);
    QAction *remove = presenter()->action(u"worktreeRemove"_s);
    QVERIFY(!apply->isEnabled() && !remove->isEnabled());
    QCOMPARE(apply->toolTip(), u"Worktrees are not available on this server"_s);

    server.route("GET", u"/experimental/worktree"_s, 200, JsonArray{folder});
    QVERIFY(m_window->openSession(m_repoSessionID));
    QVERIFY(known.wait(20000));
    QVERIFY(m_window->openSession(id, source->key()));
    QVERIFY(known.wait(20000));
    QVERIFY(presenter()->currentWorktree());
    QCOMPARE(presenter()->currentWorktree()->path, folder);
    // The server's worktree can be removed there; what needs its files here cannot.
    QVERIFY(remove->isEnabled());
    QVERIFY(!apply->isEnabled());
    QCOMPARE(apply->toolTip(), u"Not available on this server: its files are the server's"_s);

    // New Session from it: a worktree the server makes, named here, and a session there.
    server.route("POST", u"/experimental/worktree"_s, [](const test::FakeRequest &request) {
        const QString name = request.json.string(u"name");
        return test::FakeOpencodeServer::Reply{
            200, toJson(JsonObject{{u"name"_s, name}, {u"branch"_s, u"opencode/"_s + name}, {u"directory"_s, u"/srv/wt/"_s + name}}, 0)};
    });
    server.route("POST", u"/session"_s, [](const test::FakeRequest &request) {
        JsonObject session = test::recordedExchange(u"create V1 session"_s).responseBody.toObject();
        session.insert(u"id"_s, u"ses_inservertree00000000000"_s);
        session.insert(u"directory"_s,
                       QUrlQuery(QUrl(QString::fromUtf8(request.path)).query()).queryItemValue(u"directory"_s, QUrl::FullyDecoded));
        return test::FakeOpencodeServer::Reply{200, toJson(session, 0)};
    });
    QSignalSpy created(presenter(), &WorktreePresenter::sessionCreated);
    QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    QInputDialog *ask = nullptr;
    QTRY_VERIFY((ask = m_window->findChild<QInputDialog *>(u"serverWorktreeDialog"_s)));
    auto *edit = ask->findChild<QLineEdit *>();
    QVERIFY(edit);
    QTest::keyClicks(edit, u"hotfix"_s);
    QTest::keyClick(edit, Qt::Key_Return);
    QVERIFY(created.wait(20000));
    QCOMPARE(created.first().first().toString(), u"ses_inservertree00000000000"_s);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->currentSessionID(), u"ses_inservertree00000000000"_s, 20000);
    QCOMPARE(m_window->currentSource(), source->key());
    // The source goes before its server.
    m_window->controller()->removeServer(source->key());
}

QTEST_MAIN(TestGuiWorktrees)
#include "tst_gui_worktrees.moc"
