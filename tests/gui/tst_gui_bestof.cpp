// SPDX-License-Identifier: GPL-3.0-or-later
// Best of N from the window, against the loopback LLM server in a real git repository made by
// the test: Session › Run on Several Models… (disabled outside a repository), the dialog by mouse
// and keyboard (the composer's prompt, runs added and removed, the same model three times, the
// limit, the test command), the runs' tiles, the comparison (changes, diffs, test badges and
// output) and Keep This One (applied, the other worktrees removed).

#include "bestofdialog.h"
#include "bestoflauncher.h"
#include "bestofview.h"
#include "boardview.h"
#include "composer.h"
#include "core/git.h"
#include "diffview.h"
#include "fakellmserver.h"
#include "guitest.h"
#include "qt/boardmodel.h"
#include "qt/diffmodel.h"
#include "runfixture.h"
#include "scriptedquestions.h"

#include <QAction>
#include <QPointer>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

class TestGuiBestOf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void disabledOutsideARepository();
    void dialogRunsCompareAndKeep();
    void closingAsksAndStopAllStops();

private:
    bool makeWindow();
    [[nodiscard]] BestOfLauncher *launcher() const { return m_window->findChild<BestOfLauncher *>(); }

    QTemporaryDir m_settings;
    RunFixture m_run;
    std::unique_ptr<MainWindow> m_window;
};

void TestGuiBestOf::initTestCase()
{
    QVERIFY(initGuiTestCase(m_settings));
    clearProviderKeys();
}

void TestGuiBestOf::init()
{
    QVERIFY(m_run.setUp());
}

void TestGuiBestOf::cleanup()
{
    m_window.reset();
    m_run.tearDown();
}

bool TestGuiBestOf::makeWindow()
{
    const QString config
        = m_run.writeConfig(JsonObject{{u"snapshot"_s, false}, {u"permission"_s, JsonObject{{u"bash"_s, u"allow"_s}}}});
    Result<ProcessorSetup> setup = loadProcessorSetup(config, m_run.data->path());
    if (!setup) {
        qWarning() << setup.error().toString();
        return false;
    }
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    s.config.maxRetries = 0;
    m_window = std::make_unique<MainWindow>(makeController(m_run.service, m_run.data->path(), s));
    return showAndOpen(*m_window, m_run.sessionID);
}

void TestGuiBestOf::disabledOutsideARepository()
{
    QVERIFY(makeWindow());
    QAction *action = m_window->action(u"runOnSeveralModels"_s);
    QVERIFY(action);
    QVERIFY(launcher());
    QTRY_VERIFY_WITH_TIMEOUT(action->toolTip().contains(u"not in a git repository"_s), 10000);
    QVERIFY(!action->isEnabled());
    action->trigger();
    QVERIFY(!launcher()->dialog());
}

void TestGuiBestOf::dialogRunsCompareAndKeep()
{
    if (!Git::available())
        QSKIP("git is not installed");
    const QString repo = m_run.project->path();
    QVERIFY(makeGitRepository(repo));
    QVERIFY(makeWindow());
    QAction *action = m_window->action(u"runOnSeveralModels"_s);
    QTRY_VERIFY_WITH_TIMEOUT(action->isEnabled(), 10000);

    // Three runs of the same model one after the other: each writes a file named after its
    // worktree; the test command passes in the second one only.
    // The first reply waits until the first run's tile has been looked at.
    for (int i = 0; i < 3; ++i) {
        FakeReply call
            = FakeReply::sse(bashCallReply(u"call_%1"_s.arg(i), u"echo hello > \"$(basename \"$PWD\").txt\""_s));
        call.held = i == 0;
        m_run.server->enqueue(call);
        m_run.server->enqueue(FakeReply::sse(textReply({u"Wrote it."_s})));
    }
    m_window->composer()->editor()->setFocus();
    QTest::keyClicks(m_window->composer()->editor(), u"Write a greeting file"_s);
    action->trigger();
    BestOfDialog *dialog = launcher()->dialog();
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 20000);
    QCOMPARE(dialog->promptEdit()->toPlainText(), u"Write a greeting file"_s);
    QCOMPARE(dialog->models().size(), 3);
    QCOMPARE(dialog->models().first(), u"fake/gpt-test"_s);
    // Only one model is configured: the three runs start on it.
    QCOMPARE(dialog->models(), QStringList(3, u"fake/gpt-test"_s));
    QCOMPARE(dialog->limitBox()->value(), 3);

    // A fourth run, then removed again.
    QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
    QCOMPARE(dialog->models().size(), 4);
    QCOMPARE(dialog->models().last(), u"fake/gpt-test"_s);
    QTest::mouseClick(dialog->removeButton(3), Qt::LeftButton);
    QCOMPARE(dialog->models().size(), 3);
    QVERIFY(dialog->limitLabel()->text().contains(u"all runs"_s));

    // One at a time, by keyboard.
    dialog->limitBox()->setFocus();
    QTest::keyClick(dialog->limitBox(), Qt::Key_Down);
    QTest::keyClick(dialog->limitBox(), Qt::Key_Down);
    QCOMPARE(dialog->limitBox()->value(), 1);
    QVERIFY(dialog->limitLabel()->text().contains(u"2 waiting"_s));
    dialog->testEdit()->setFocus();
    QTest::keyClicks(dialog->testEdit(), u"echo testing; case \"$PWD\" in *-2) exit 0;; *) exit 1;; esac"_s);

    // An empty prompt cannot run.
    const QString prompt = dialog->promptEdit()->toPlainText();
    dialog->promptEdit()->clear();
    QVERIFY(!dialog->runButton()->isEnabled());
    dialog->promptEdit()->setFocus();
    QTest::keyClicks(dialog->promptEdit(), prompt);
    QVERIFY(dialog->runButton()->isEnabled());
    QTest::mouseClick(dialog->runButton(), Qt::LeftButton);

    QTRY_COMPARE_WITH_TIMEOUT(launcher()->views().size(), 1, 20000);
    BestOfView *view = launcher()->views().first();
    auto questions = scriptedQuestions([](const Confirmation &c) { return c.text.contains(u"run 2"_s); });
    view->setUserQuestions(questions);
    QTRY_VERIFY_WITH_TIMEOUT(view->isVisible(), 20000);
    QVERIFY(!view->isComparing());
    QVERIFY(view->statusLabel()->text().contains(u"1 running, 2 waiting"_s));
    QVERIFY(view->statusLabel()->text().contains(u"at most 1"_s));
    // The running run's tile, and only the group's.
    QTRY_COMPARE_WITH_TIMEOUT(m_run.server->heldReplies(), 1, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(view->boardView()->sortModel()->rowCount(), 1, 20000);
    QCOMPARE(view->boardView()->sortModel()->index(0, 0).data(BoardModel::SessionIdRole).toString(),
             view->group()->runs().at(0).sessionID);
    QCOMPARE(view->group()->runs().at(0).state, BestOfRun::State::Running);
    QVERIFY(view->statusLabel()->text().contains(u"1 running, 2 waiting"_s));
    m_run.server->release();

    QTRY_VERIFY_WITH_TIMEOUT(view->group()->isFinished(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(view->isComparing(), 20000);
    QVERIFY(view->statusLabel()->text().contains(u"keep one"_s));
    QVERIFY(!view->stopButton()->isEnabled());
    QCOMPARE(m_run.server->requests().size(), 6);
    for (int i = 0; i < 3; ++i) {
        const BestOfView::Column &column = view->column(i);
        const BestOfRun::Run &run = view->group()->runs().at(i);
        QCOMPARE(run.state, BestOfRun::State::Finished);
        QVERIFY(column.model->text().contains(u"fake/gpt-test"_s));
        QCOMPARE(column.state->text(), u"Finished"_s);
        QCOMPARE(column.changes->text(), u"Files: 1  +1 −0"_s);
        QCOMPARE(column.test->text(), i == 1 ? u"Tests pass"_s : u"Tests fail (exit 1)"_s);
        QCOMPARE(column.diffs->rowCount(), 1);
        QCOMPARE(column.diffs->diff(0).file(), run.name + u".txt"_s);
        QTRY_VERIFY_WITH_TIMEOUT(column.diff->document(), 20000);
        QVERIFY(column.keep->isEnabled());
    }
    // The output on demand.
    const BestOfView::Column &first = view->column(0);
    QVERIFY(!first.output->isVisible());
    QTest::mouseClick(first.showOutput, Qt::LeftButton);
    QVERIFY(first.output->isVisible());
    QVERIFY(first.output->toPlainText().contains(u"testing"_s));

    // Keep the second, as uncommitted changes (the mode chosen by keyboard, first item).
    view->applyModeBox()->setFocus();
    QTest::keyClick(view->applyModeBox(), Qt::Key_Home);
    QCOMPARE(ApplyMode(view->applyModeBox()->currentData().toInt()), ApplyMode::Diff);
    QTest::mouseClick(view->column(1).keep, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(view->noticeLabel()->text().contains(u"applied"_s), 20000);
    const BestOfRun::Run &kept = view->group()->runs().at(1);
    QVERIFY(QFile::exists(repo + u'/' + kept.name + u".txt"_s));
    QVERIFY(!QDir(view->group()->runs().at(0).worktreePath).exists());
    QVERIFY(!QDir(view->group()->runs().at(2).worktreePath).exists());
    QVERIFY(QDir(kept.worktreePath).exists());
    QCOMPARE(view->column(1).keep->text(), u"Kept"_s);
    QVERIFY(!view->column(1).keep->isEnabled());
    QVERIFY(!view->column(0).keep->isVisible());
    QVERIFY(questions->warnings.isEmpty());

    // Its session opens in the window.
    QTest::mouseClick(view->column(1).open, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->currentSessionID(), kept.sessionID, 20000);
    // The test command is remembered for the repository.
    QVERIFY(BestOfLauncher::savedTestCommand(QFileInfo(repo).canonicalFilePath()).contains(u"testing"_s));
}

void TestGuiBestOf::closingAsksAndStopAllStops()
{
    if (!Git::available())
        QSKIP("git is not installed");
    QVERIFY(makeGitRepository(m_run.project->path()));
    QVERIFY(makeWindow());
    QAction *action = m_window->action(u"runOnSeveralModels"_s);
    QTRY_VERIFY_WITH_TIMEOUT(action->isEnabled(), 10000);
    OpenAiStream endless;
    endless.role().text(u"Thinking about it"_s);
    FakeReply hanging = FakeReply::sse(endless.bytes());
    hanging.hang = true;
    m_run.server->enqueue(hanging);
    m_window->composer()->setText(u"Take your time"_s);
    action->trigger();
    BestOfDialog *dialog = launcher()->dialog();
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 20000);
    QTest::mouseClick(dialog->removeButton(2), Qt::LeftButton);
    QCOMPARE(dialog->models().size(), 2);
    dialog->limitBox()->setFocus();
    QTest::keyClick(dialog->limitBox(), Qt::Key_Down);
    QCOMPARE(dialog->limitBox()->value(), 1);
    // Return in the test command runs it (the default button).
    dialog->testEdit()->setFocus();
    QTest::keyClick(dialog->testEdit(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(launcher()->views().size(), 1, 20000);
    QPointer<BestOfView> view = launcher()->views().first();
    QTRY_COMPARE_WITH_TIMEOUT(m_run.server->requests().size(), 1, 20000);
    const QString sessionID = view->group()->runs().at(0).sessionID;
    QVERIFY(m_window->controller()->isBusy(sessionID));

    int asked = 0;
    bool agree = false;
    view->setUserQuestions(scriptedQuestions([&](const Confirmation &) {
        ++asked;
        return agree;
    }));
    QVERIFY(!view->close());
    QCOMPARE(asked, 1);
    QVERIFY(view->isVisible());
    QVERIFY(m_window->controller()->isBusy(sessionID));

    // Stop All: the run stops, the waiting one never starts; then closing asks nothing.
    QTest::mouseClick(view->stopButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(view->group()->isFinished(), 20000);
    QVERIFY(!m_window->controller()->isBusy(sessionID));
    QCOMPARE(view->group()->runs().at(0).state, BestOfRun::State::Stopped);
    QCOMPARE(view->group()->runs().at(1).state, BestOfRun::State::Stopped);
    QTRY_COMPARE_WITH_TIMEOUT(view->column(0).state->text(), u"Stopped"_s, 20000);
    QVERIFY(!view->stopButton()->isEnabled());
    QVERIFY(view->close());
    QCOMPARE(asked, 1);
    QTRY_VERIFY_WITH_TIMEOUT(!view, 20000);
    QCOMPARE(m_run.server->requests().size(), 1); // the second run never started
}

QTEST_MAIN(TestGuiBestOf)
#include "tst_gui_bestof.moc"
