// SPDX-License-Identifier: GPL-3.0-or-later
// The window runs sessions against the loopback LLM server, configured through a weft.json as a
// user would: prompts through the composer stream into one row (no model reset), Stop, the
// compaction dialog (preview first, progress, cancel, undo), permission questions answered in
// the notice strip, the running indicator, the context meter, reverted messages hidden, and
// changes another process makes to the data dir.

#include "compactiondialog.h"
#include "composer.h"
#include "contextmeter.h"
#include "core/identifier.h"
#include "fakellmserver.h"
#include "runfixture.h"
#include "guitest.h"
#include "scriptedquestions.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "processor/processor.h"
#include "queuedprompts.h"
#include "processor/setup.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QCompleter>
#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QMessageBox>
#include <QTimer>
#include <QApplication>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{
QStringList words(int n)
{
    QStringList pieces;
    for (int i = 0; i < n; ++i)
        pieces.append(u"word%1 "_s.arg(i));
    return pieces;
}
} // namespace

class TestGuiRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void noModelSaysHowToConfigure();
    void providerWithoutKeySaysWhichKey();
    void promptStreamsIntoOneRow();
    void staysWhereTheUserScrolled();
    void stopMidStream();
    void quitDuringRunAsksFirst();
    void compactWithPreviewThenUndo();
    void cancelCompaction();
    void permissionAllowOnce();
    void permissionDeny();
    void agentQuestionAnsweredInWindow();
    void contextMeter();
    void revertHidesMessages();
    void otherProcessChangesAppear();
    void commandFromTheComposer();
    void steerAndQueueFromTheComposer();

private:
    bool makeWindow(std::optional<ProcessorSetup> setup);
    bool makeConfiguredWindow();
    bool sendAndWait(const QString &text);
    bool waitIdle(int timeoutMs = 20000);

    QTemporaryDir m_settings;
    test::RunFixture m_run;
    std::unique_ptr<MainWindow> m_window;
};

void TestGuiRun::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
    clearProviderKeys();
}

void TestGuiRun::init()
{
    QVERIFY(m_run.setUp());
}

void TestGuiRun::cleanup()
{
    m_window.reset();
    m_run.tearDown();
}


bool TestGuiRun::makeWindow(std::optional<ProcessorSetup> setup)
{
    m_window = std::make_unique<MainWindow>(test::makeController(m_run.service, m_run.data->path(), std::move(setup)));
    return test::showAndOpen(*m_window, m_run.sessionID);
}

bool TestGuiRun::makeConfiguredWindow()
{
    // "snapshot": false as a user writes it: the configuration is read again for each run.
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
    return makeWindow(s);
}

bool TestGuiRun::waitIdle(int timeoutMs)
{
    if (!QTest::qWaitFor([this] { return !m_window->controller()->processor()->isBusy(m_run.sessionID); }, timeoutMs))
        return false;
    // The run's last updates were queued to this thread before it ended: delivered now.
    return test::settle(*m_window);
}

bool TestGuiRun::sendAndWait(const QString &text)
{
    Composer *composer = m_window->composer();
    composer->setText(text);
    composer->send();
    if (!composer->text().isEmpty())
        return false;
    return waitIdle();
}

void TestGuiRun::noModelSaysHowToConfigure()
{
    // No config and no API key: the prompt stays, the notice says where to configure.
    QVERIFY(makeWindow(std::nullopt));
    Composer *composer = m_window->composer();
    composer->editor()->setFocus();
    QTest::keyClicks(composer->editor(), u"hello"_s);
    QTest::keyClick(composer->editor(), Qt::Key_Return);
    QCOMPARE(composer->text(), u"hello"_s);
    NoticeBar *notices = m_window->noticeBar();
    QVERIFY(notices->hasNotice(u"sendError"_s));
    const QString text = notices->noticeText(u"sendError"_s);
    QVERIFY2(text.contains(u"weft.json"_s) && text.contains(u"--config"_s), qPrintable(text));
    QVERIFY(notices->isVisibleTo(m_window.get()));
    QCOMPARE(m_run.server->requests().size(), 0);
    QVERIFY(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }).isEmpty());
    QVERIFY(!m_window->controller()->processor()->isBusy(m_run.sessionID));
    // The window's processor asks about `ask` rules.
    QCOMPARE(m_window->controller()->processor()->config().askPolicy, ProcessorConfig::AskPolicy::Interactive);
}

void TestGuiRun::providerWithoutKeySaysWhichKey()
{
    // A session last run with a model whose provider has no key here: said before sending.
    QVERIFY(makeConfiguredWindow());
    Composer *composer = m_window->composer();
    composer->setCurrentModel(u"anthropic/claude-sonnet-4-5"_s);
    composer->setText(u"hello"_s);
    composer->send();
    QCOMPARE(composer->text(), u"hello"_s);
    const QString text = m_window->noticeBar()->noticeText(u"sendError"_s);
    QVERIFY2(text.contains(u"ANTHROPIC_API_KEY"_s), qPrintable(text));
    QVERIFY(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }).isEmpty());
    // Back to a configured model: the error goes with the next prompt.
    m_run.server->enqueue(FakeReply::sse(textReply({u"Hi."_s})));
    composer->setCurrentModel(u"fake/gpt-test"_s);
    composer->send();
    QVERIFY(!m_window->noticeBar()->hasNotice(u"sendError"_s));
    QVERIFY(waitIdle());
    QCOMPARE(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }).size(), 2);
}

void TestGuiRun::promptStreamsIntoOneRow()
{
    QVERIFY(makeConfiguredWindow());
    TimelineModel *timeline = m_window->timelineModel();
    QAbstractItemModelTester timelineTester(timeline, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester viewTester(m_window->timelineView()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester sessionsTester(m_window->sessionsModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester treeTester(m_window->sessionTreeModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
    Composer *composer = m_window->composer();
    QCOMPARE(composer->currentModel(), u"fake/gpt-test"_s);

    const QStringList pieces = words(60);
    m_run.server->enqueue(FakeReply::sse(textReply(pieces)).chunked(40, 8));

    QSignalSpy reset(timeline, &QAbstractItemModel::modelReset);
    QSignalSpy viewReset(m_window->timelineView()->model(), &QAbstractItemModel::modelReset);
    QSignalSpy inserted(timeline, &QAbstractItemModel::rowsInserted);
    QSignalSpy sessionChanges(m_window->sessionsModel(), &QAbstractItemModel::dataChanged);
    QList<int> lengths;
    bool preciseRoles = true;
    bool singleRows = true;
    connect(timeline, &QAbstractItemModel::dataChanged, this,
            [&](const QModelIndex &tl, const QModelIndex &br, const QList<int> &roles) {
                singleRows = singleRows && tl.row() == br.row();
                preciseRoles = preciseRoles && !roles.isEmpty() && !roles.contains(TimelineModel::IdRole);
                if (tl.data(TimelineModel::AuthorRole).value<Message::Role>() == Message::Role::Assistant
                    && roles.contains(TimelineModel::TextRole))
                    lengths.append(int(tl.data(TimelineModel::TextRole).toString().size()));
            });

    // Keyboard: Shift+Enter is a new line, Enter sends.
    composer->editor()->setFocus();
    QTest::keyClicks(composer->editor(), u"Tell me"_s);
    QTest::keyClick(composer->editor(), Qt::Key_Return, Qt::ShiftModifier);
    QTest::keyClicks(composer->editor(), u"a story"_s);
    QCOMPARE(composer->text(), u"Tell me\na story"_s);
    QTest::keyClick(composer->editor(), Qt::Key_Return);
    QCOMPARE(composer->text(), QString()); // taken
    QVERIFY(!m_window->noticeBar()->hasNotice(u"sendError"_s));

    // Running: the composer offers Stop (and Queue, Steer for more), the sidebar marks the session.
    QTRY_VERIFY(composer->isRunning());
    QVERIFY(composer->stopButton()->isVisibleTo(composer));
    QCOMPARE(composer->sendButton()->text(), u"Queue"_s);
    QVERIFY(composer->steerButton()->isVisibleTo(composer));
    QVERIFY(m_window->sessionsModel()->isRunning(m_run.sessionID));
    QVERIFY(m_window->sessionsModel()->indexForId(m_run.sessionID).data(SessionsModel::RunningRole).toBool());
    QVERIFY(m_window->action(u"stop"_s)->isEnabled());
    QVERIFY(!m_window->action(u"compact"_s)->isEnabled());

    QVERIFY(waitIdle());
    QVERIFY(!composer->isRunning());
    QVERIFY(composer->sendButton()->isVisibleTo(composer));
    QVERIFY(!m_window->sessionsModel()->isRunning(m_run.sessionID));
    QVERIFY(!m_window->sessionsModel()->indexForId(m_run.sessionID).data(SessionsModel::RunningRole).toBool());
    bool runningRoleChanged = false;
    for (const QList<QVariant> &args : std::as_const(sessionChanges))
        runningRoleChanged = runningRoleChanged || args.at(2).value<QList<int>>().contains(SessionsModel::RunningRole);
    QVERIFY(runningRoleChanged);

    // Two rows came in (the prompt and the reply); the reply grew in place, never a reset.
    QCOMPARE(reset.size(), 0);
    QCOMPARE(viewReset.size(), 0);
    QCOMPARE(inserted.size(), 2);
    QCOMPARE(timeline->rowCount(), 2);
    QVERIFY(singleRows);
    QVERIFY(preciseRoles);
    QVERIFY2(lengths.size() >= 3, qPrintable(u"%1 text changes"_s.arg(lengths.size())));
    // Growing (the end of the text trims its trailing space).
    for (qsizetype i = 1; i < lengths.size(); ++i)
        QVERIFY2(lengths.at(i) >= lengths.at(i - 1) - 1, qPrintable(u"%1 after %2"_s.arg(lengths.at(i)).arg(lengths.at(i - 1))));
    QVERIFY(lengths.first() < lengths.last());
    QCOMPARE(timeline->index(0).data(TimelineModel::TextRole).toString(), u"Tell me\na story"_s);
    QCOMPARE(timeline->index(1).data(TimelineModel::TextRole).toString(), pieces.join(QString()).trimmed());
    // The request carried the composer's choices.
    QCOMPARE(m_run.server->requests().size(), 1);
    QCOMPARE(m_run.server->requests().first().json.string(u"model"), u"gpt-test"_s);
    const Message user = timeline->index(0).data(TimelineModel::MessageRole).value<Message>();
    QCOMPARE(user.agent(), u"build"_s);
    // The view followed the stream to its end.
    QScrollBar *bar = m_window->timelineView()->verticalScrollBar();
    QVERIFY(m_window->timelineView()->isPinnedToBottom());
    QCOMPARE(bar->value(), bar->maximum());
}

void TestGuiRun::staysWhereTheUserScrolled()
{
    QVERIFY(makeConfiguredWindow());
    TimelineView *view = m_window->timelineView();
    QScrollBar *bar = view->verticalScrollBar();
    // Enough text to scroll.
    QStringList lines;
    for (int i = 0; i < 80; ++i)
        lines.append(u"Line %1 of a long answer.\n\n"_s.arg(i));
    m_run.server->enqueue(FakeReply::sse(textReply(lines)));
    QVERIFY(sendAndWait(u"A long answer, please"_s));
    QTRY_VERIFY(bar->maximum() > 0);
    QTRY_COMPARE(bar->value(), bar->maximum());

    // Streaming while the user sits at the bottom keeps the end in view...
    m_run.server->enqueue(FakeReply::sse(textReply(lines)).chunked(200, 15));
    m_window->composer()->setText(u"Once more"_s);
    m_window->composer()->send();
    QTRY_VERIFY(m_window->timelineModel()->rowCount() == 4
                && !m_window->timelineModel()->index(3).data(TimelineModel::TextRole).toString().isEmpty());
    QTRY_COMPARE(bar->value(), bar->maximum());
    // ... and once the user scrolled up, what the user reads stays where it is on screen while
    // the reply grows. (Not the scroll bar's value: rows above measured meanwhile move it.)
    bar->setValue(bar->maximum() / 3);
    QVERIFY(!view->isPinnedToBottom());
    const QPoint top(view->viewport()->width() / 2, 0);
    const QPersistentModelIndex reading = view->indexAt(top);
    QVERIFY(reading.isValid());
    const int readingTop = view->visualRect(reading).top();
    const int maxBefore = bar->maximum();
    QVERIFY(waitIdle());
    QVERIFY(bar->maximum() > maxBefore);
    QCOMPARE(view->indexAt(top), QModelIndex(reading));
    QCOMPARE(view->visualRect(reading).top(), readingTop);
    QVERIFY(!view->isPinnedToBottom());
}

void TestGuiRun::stopMidStream()
{
    QVERIFY(makeConfiguredWindow());
    OpenAiStream partial;
    partial.role().text(u"I will write "_s).text(u"a very long answer"_s);
    FakeReply reply = FakeReply::sse(partial.bytes());
    reply.hang = true;
    m_run.server->enqueue(reply);
    Composer *composer = m_window->composer();
    composer->setText(u"Go on forever"_s);
    composer->send();
    TimelineModel *timeline = m_window->timelineModel();
    QTRY_VERIFY2(timeline->rowCount() == 2
                     && timeline->index(1).data(TimelineModel::TextRole).toString().contains(u"long answer"_s),
                 qPrintable(u"%1 rows, last: %2, requests: %3"_s.arg(timeline->rowCount())
                                .arg(timeline->index(timeline->rowCount() - 1).data(TimelineModel::TextRole).toString())
                                .arg(m_run.server->requests().size())
                                + u" loading %1 pool %2/%3"_s.arg(timeline->isLoading()).arg(QThreadPool::globalInstance()->activeThreadCount()).arg(QThreadPool::globalInstance()->maxThreadCount())));
    QVERIFY(composer->isRunning());
    QVERIFY(timeline->index(1).data(TimelineModel::RunningRole).toBool());
    QVERIFY(composer->stopButton()->isVisibleTo(composer));
    composer->stopButton()->click();
    QVERIFY(waitIdle(10000));
    QTRY_VERIFY(!timeline->index(1).data(TimelineModel::RunningRole).toBool());
    const MessageError error = timeline->index(1).data(TimelineModel::ErrorRole).value<MessageError>();
    QCOMPARE(error.kind(), MessageError::Kind::Aborted);
    QVERIFY(!composer->isRunning());
    QVERIFY(!m_window->sessionsModel()->isRunning(m_run.sessionID));
    // Stopping is not an error worth a notice.
    QVERIFY(!m_window->noticeBar()->hasNotice(u"runError"_s));
    QVERIFY(!m_window->timelineView()->isAnimating());
}

void TestGuiRun::quitDuringRunAsksFirst()
{
    QVERIFY(makeConfiguredWindow());
    OpenAiStream partial;
    partial.role().text(u"Still working"_s);
    FakeReply reply = FakeReply::sse(partial.bytes());
    reply.hang = true;
    m_run.server->enqueue(reply);
    Composer *composer = m_window->composer();
    composer->setText(u"Take your time"_s);
    composer->send();
    QTRY_VERIFY(m_window->controller()->processor()->isBusy(m_run.sessionID));
    TimelineModel *timeline = m_window->timelineModel();
    QTRY_VERIFY(timeline->rowCount() == 2
                && timeline->index(1).data(TimelineModel::TextRole).toString().contains(u"Still working"_s));

    // Closing asks; the user answers with the button named `button` once the question is up.
    const auto closeAnswering = [this](const QString &button) {
        QString question;
        QTimer::singleShot(0, m_window.get(), [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box)
                return;
            question = box->text();
            if (auto *b = box->findChild<QPushButton *>(button))
                b->click();
        });
        const bool closed = m_window->close();
        return std::make_pair(closed, question);
    };
    // "Keep Window Open": nothing stops.
    const auto [kept, asked] = closeAnswering(u"keepOpen"_s);
    QVERIFY(!kept);
    QVERIFY2(asked.contains(u"1 session is still running"_s) || asked.contains(u"1 session(s)"_s), qPrintable(asked));
    QVERIFY(m_window->isVisible());
    QVERIFY(m_window->controller()->processor()->isBusy(m_run.sessionID));
    // "Stop and Quit": the run stops, what it wrote is kept, the window closes.
    const auto [closed, again] = closeAnswering(u"stopAndQuit"_s);
    QVERIFY(closed);
    QVERIFY(!again.isEmpty());
    QVERIFY(!m_window->isVisible());
    QVERIFY(!m_window->controller()->processor()->isBusy(m_run.sessionID));
    const QList<MessageWithParts> messages = test::ownRead([&] { return m_run.service->messages(m_run.sessionID); });
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).info.error().name(), u"MessageAbortedError"_s);
    QVERIFY(TimelineModel::visibleText(messages.at(1).parts).contains(u"Still working"_s));
}

void TestGuiRun::compactWithPreviewThenUndo()
{
    QVERIFY(makeConfiguredWindow());
    // Answers long enough that a summary makes the context smaller.
    QStringList answer;
    for (int i = 0; i < 200; ++i)
        answer.append(u"The parser reads token %1 and builds a node for it. "_s.arg(i));
    m_run.server->enqueue(FakeReply::sse(textReply(answer, 3000, 2800)));
    QVERIFY(sendAndWait(u"First question about the parser"_s));
    m_run.server->enqueue(FakeReply::sse(textReply(answer, 6200, 2800)));
    QVERIFY(sendAndWait(u"Second question about the lexer"_s));
    TimelineModel *timeline = m_window->timelineModel();
    QCOMPARE(timeline->rowCount(), 4);
    QVERIFY(!m_window->canUndoCompaction());
    QVERIFY(!m_window->action(u"undoCompaction"_s)->isEnabled());
    const qsizetype requestsBefore = m_run.server->requests().size();

    // The button opens the preview; nothing is sent yet.
    Composer *composer = m_window->composer();
    QVERIFY(composer->compactButton()->isEnabled());
    composer->compactButton()->click();
    QTRY_VERIFY(m_window->compactionDialog());
    QPointer<CompactionDialog> dialog = m_window->compactionDialog();
    QVERIFY(dialog->isVisible());
    QTRY_COMPARE(dialog->stage(), CompactionDialog::Stage::Preview);
    QCOMPARE(m_run.server->requests().size(), requestsBefore);
    const Result<Compaction::Preview> expected
        = test::ownRead([&] { return m_window->controller()->processor()->previewCompaction(m_run.sessionID); });
    QVERIFY(expected);
    QVERIFY(expected->canCompact());
    const QLocale locale;
    QCOMPARE(expected->summarized.size(), 4);
    QVERIFY(dialog->fieldText(u"summarized"_s).startsWith(u"4 messages"_s));
    QVERIFY2(dialog->fieldText(u"summarized"_s).contains(locale.toString(expected->summarizedTokens)),
             qPrintable(dialog->fieldText(u"summarized"_s)));
    // The context now is the last reply's usage: 6200 input + 2800 output.
    QCOMPARE(expected->tokensBefore, 9000);
    QVERIFY2(dialog->fieldText(u"before"_s).contains(locale.toString(qint64(9000))), qPrintable(dialog->fieldText(u"before"_s)));
    QVERIFY2(dialog->fieldText(u"after"_s).contains(locale.toString(expected->tokensAfter)),
             qPrintable(dialog->fieldText(u"after"_s)));
    QVERIFY(expected->tokensAfter < expected->tokensBefore);
    QVERIFY(dialog->fieldText(u"model"_s).startsWith(u"fake/gpt-test"_s));
    QVERIFY(dialog->fieldText(u"model"_s).contains(locale.toString(qint64(100000))));
    QVERIFY(dialog->fieldText(u"prune"_s).startsWith(u"none"_s));
    QVERIFY(dialog->fieldText(u"problem"_s).isEmpty());
    QVERIFY(dialog->compactButton()->isEnabled());

    // Compact: progress, the summary as it streams, then the dialog goes.
    QStringList summary{u"## Goal\n"_s, u"Understand the parser "_s, u"and the lexer.\n"_s};
    for (int i = 0; i < 30; ++i)
        summary.append(u"Detail %1. "_s.arg(i));
    m_run.server->enqueue(FakeReply::sse(textReply(summary, 5000, 300)).chunked(30, 10));
    QSignalSpy reset(timeline, &QAbstractItemModel::modelReset);
    dialog->compactButton()->click();
    QCOMPARE(dialog->stage(), CompactionDialog::Stage::Running);
    QVERIFY(dialog->progressBar()->isVisible());
    QCOMPARE(dialog->progressBar()->maximum(), 0); // indeterminate
    QVERIFY(dialog->cancelButton()->isEnabled());
    QTRY_VERIFY(dialog && dialog->summaryText().contains(u"Understand the parser"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog, 15000);
    QVERIFY(waitIdle());
    QCOMPARE(reset.size(), 0);

    // The marker and the summary are in the timeline; the older rows are out of context.
    QCOMPARE(timeline->rowCount(), 6);
    QCOMPARE(timeline->index(4).data(TimelineModel::CompactionRole).value<TimelineModel::CompactionKind>(),
             TimelineModel::CompactionKind::Manual);
    QVERIFY(timeline->index(5).data(TimelineModel::IsSummaryRole).toBool());
    QVERIFY(timeline->index(5).data(TimelineModel::TextRole).toString().contains(u"Detail 29."_s));
    QVERIFY(!timeline->index(0).data(TimelineModel::InContextRole).toBool());
    // The meter counts the summary now.
    QCOMPARE(m_window->contextMeter()->tokens(), 300);

    // Undo: in the menu and in the notice strip, while the processor agrees.
    QVERIFY(test::ownRead([&] { return m_window->controller()->processor()->canUndoCompaction(m_run.sessionID); }).ok());
    QTRY_VERIFY(m_window->canUndoCompaction());
    QVERIFY(m_window->action(u"undoCompaction"_s)->isEnabled());
    NoticeBar *notices = m_window->noticeBar();
    QVERIFY(notices->hasNotice(u"compactionUndo"_s));
    QVERIFY2(notices->noticeText(u"compactionUndo"_s).contains(locale.toString(qint64(9000))),
             qPrintable(notices->noticeText(u"compactionUndo"_s)));
    QPushButton *undo = notices->button(u"compactionUndo"_s, u"undoCompaction"_s);
    QVERIFY(undo);
    undo->click();
    QTRY_COMPARE(timeline->rowCount(), 4);
    QVERIFY(timeline->index(0).data(TimelineModel::InContextRole).toBool());
    QCOMPARE(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }).size(), 4);
    QTRY_VERIFY(!notices->hasNotice(u"compactionUndo"_s));
    QVERIFY(!m_window->action(u"undoCompaction"_s)->isEnabled());
    QVERIFY(!test::ownRead([&] { return m_window->controller()->processor()->canUndoCompaction(m_run.sessionID); }).ok());
    QCOMPARE(reset.size(), 0);

    // The menu action opens the same dialog; Cancel in the preview closes it.
    m_window->action(u"compact"_s)->trigger();
    QTRY_VERIFY(m_window->compactionDialog());
    dialog = m_window->compactionDialog();
    QTRY_COMPARE(dialog->stage(), CompactionDialog::Stage::Preview);
    dialog->cancelButton()->click();
    QTRY_VERIFY(!dialog);
    QCOMPARE(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }).size(), 4);
}

void TestGuiRun::cancelCompaction()
{
    QVERIFY(makeConfiguredWindow());
    m_run.server->enqueue(FakeReply::sse(textReply({u"An answer."_s})));
    QVERIFY(sendAndWait(u"A question"_s));
    m_window->composer()->compactButton()->click();
    QTRY_VERIFY(m_window->compactionDialog());
    QPointer<CompactionDialog> dialog = m_window->compactionDialog();
    QTRY_COMPARE(dialog->stage(), CompactionDialog::Stage::Preview);
    OpenAiStream partial;
    partial.role().text(u"## Goal\nSomething"_s);
    FakeReply hanging = FakeReply::sse(partial.bytes());
    hanging.hang = true;
    m_run.server->enqueue(hanging);
    dialog->compactButton()->click();
    QTRY_VERIFY(dialog->summaryText().contains(u"Something"_s));
    QVERIFY(m_window->controller()->processor()->isBusy(m_run.sessionID));
    QVERIFY(m_window->composer()->isRunning());
    // Escape (or Cancel) stops the compaction; the session stays as it was.
    QTest::keyClick(dialog, Qt::Key_Escape);
    QVERIFY(dialog);
    QVERIFY(waitIdle(10000));
    QTRY_COMPARE(dialog->stage(), CompactionDialog::Stage::Failed);
    QVERIFY2(dialog->fieldText(u"status"_s).contains(u"cancelled"_s), qPrintable(dialog->fieldText(u"status"_s)));
    QTRY_COMPARE(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }).size(), 2);
    QTRY_COMPARE(m_window->timelineModel()->rowCount(), 2);
    QVERIFY(!m_window->canUndoCompaction());
    dialog->cancelButton()->click(); // "Close"
    QTRY_VERIFY(!dialog);
}

void TestGuiRun::permissionAllowOnce()
{
    QVERIFY(makeConfiguredWindow());
    m_run.server->enqueue(FakeReply::sse(bashCallReply(u"call_allow"_s, u"echo allowed-output"_s)));
    m_run.server->enqueue(FakeReply::sse(textReply({u"It printed the text."_s})));
    m_window->composer()->setText(u"Run echo"_s);
    m_window->composer()->send();
    NoticeBar *notices = m_window->noticeBar();
    QTRY_VERIFY_WITH_TIMEOUT(!notices->keys().filter(u"permission-"_s).isEmpty(), 10000);
    const QString key = notices->keys().filter(u"permission-"_s).first();
    QVERIFY2(notices->noticeText(key).contains(u"run a command"_s) && notices->noticeText(key).contains(u"echo allowed-output"_s),
             qPrintable(notices->noticeText(key)));
    // The tool call waits, marked in the timeline.
    QVERIFY(m_window->timelineView()->timelineDelegate()->isAwaitingPermission(u"call_allow"_s));
    QVERIFY(m_window->controller()->processor()->isBusy(m_run.sessionID));
    QPushButton *allow = notices->button(key, u"allowOnce"_s);
    QVERIFY(allow);
    QVERIFY(notices->button(key, u"allowAlways"_s));
    QVERIFY(notices->button(key, u"deny"_s));
    allow->click();
    QVERIFY(!notices->hasNotice(key));
    QVERIFY(!m_window->timelineView()->timelineDelegate()->isAwaitingPermission(u"call_allow"_s));
    QVERIFY(waitIdle());
    const Part tool = firstToolPart(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }));
    QCOMPARE(tool.state().status(), ToolStatus::Completed);
    QVERIFY(tool.state().output().contains(u"allowed-output"_s));
    QCOMPARE(m_run.server->requests().size(), 2);
    QVERIFY(m_run.server->requests().at(1).body.contains("allowed-output"));
}

void TestGuiRun::permissionDeny()
{
    QVERIFY(makeConfiguredWindow());
    m_run.server->enqueue(FakeReply::sse(bashCallReply(u"call_deny"_s, u"echo denied-output"_s)));
    m_run.server->enqueue(FakeReply::sse(textReply({u"I was not allowed."_s})));
    m_window->composer()->setText(u"Run echo"_s);
    m_window->composer()->send();
    NoticeBar *notices = m_window->noticeBar();
    QTRY_VERIFY_WITH_TIMEOUT(!notices->keys().filter(u"permission-"_s).isEmpty(), 10000);
    const QString key = notices->keys().filter(u"permission-"_s).first();
    notices->button(key, u"deny"_s)->click();
    QVERIFY(waitIdle());
    const Part tool = firstToolPart(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }));
    QCOMPARE(tool.state().status(), ToolStatus::Error);
    QVERIFY(!tool.state().errorText().isEmpty());
    QVERIFY(!test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }).last().parts.isEmpty());
    // The command never ran: its output is nowhere in what the model was sent.
    QCOMPARE(m_run.server->requests().size(), 2);
    QVERIFY(!m_run.server->requests().at(1).body.contains("denied-output\\n"));
    QVERIFY(!notices->hasNotice(key));
    // The badge in the timeline shows the error.
    TimelineModel *timeline = m_window->timelineModel();
    QTRY_VERIFY(timeline->index(1).data(TimelineModel::ToolStatusesRole).value<QList<ToolStatus>>()
                == QList<ToolStatus>{ToolStatus::Error});
}

void TestGuiRun::agentQuestionAnsweredInWindow()
{
    // Weft's own agent asks (the question tool): the notice and dialog of an OpenCode server's
    // questions, answered to the run; a second question declined ends the turn.
    QVERIFY(makeConfiguredWindow());
    QCOMPARE(m_window->controller()->processor()->config().questions, true);
    auto questionCall = [](const QString &callID, const QString &question) {
        const JsonArray questions{JsonObject{
            {u"question"_s, question},
            {u"header"_s, u"Choice"_s},
            {u"options"_s, JsonArray{JsonObject{{u"label"_s, u"Red"_s}, {u"description"_s, u"Warm"_s}},
                                     JsonObject{{u"label"_s, u"Blue"_s}, {u"description"_s, u"Cool"_s}}}}}};
        OpenAiStream s;
        const QString args = QString::fromUtf8(toJson(JsonObject{{u"questions"_s, questions}}, 0));
        s.role().toolCallStart(0, callID, u"question"_s, args.left(8));
        s.toolCallArguments(0, args.mid(8));
        s.finish(u"tool_calls"_s).usage(3000, 20).done();
        return s.bytes();
    };
    m_run.server->enqueue(FakeReply::sse(questionCall(u"call_q1"_s, u"Which colour?"_s)));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Blue it is."_s})));
    JsonObject shown;
    m_window->setUserQuestions(test::scriptedQuestions({}, [&shown](const JsonObject &request) {
        shown = request;
        return std::optional<QList<QStringList>>({{u"Blue"_s}});
    }));
    m_window->composer()->setText(u"Paint it"_s);
    m_window->composer()->send();
    NoticeBar *notices = m_window->noticeBar();
    QTRY_VERIFY_WITH_TIMEOUT(!notices->keys().filter(u"question-"_s).isEmpty(), 10000);
    QString key = notices->keys().filter(u"question-"_s).first();
    QVERIFY2(notices->noticeText(key).contains(u"Which colour?"_s), qPrintable(notices->noticeText(key)));
    QPushButton *answer = notices->button(key, u"answer"_s);
    QVERIFY(answer);
    answer->click();
    QCOMPARE(shown.value(u"questions").toArray().at(0).toObject().string(u"question"), u"Which colour?"_s);
    QCOMPARE(shown.object(u"tool").string(u"callID"), u"call_q1"_s);
    QTRY_VERIFY(!notices->hasNotice(key));
    QVERIFY(waitIdle());
    Part tool = firstToolPart(test::ownRead([&] { return m_run.service->messages(m_run.sessionID); }));
    QCOMPARE(tool.state().status(), ToolStatus::Completed);
    QVERIFY2(tool.state().output().contains(u"\"Which colour?\"=\"Blue\""_s), qPrintable(tool.state().output()));
    QCOMPARE(m_run.server->requests().size(), 2);

    // Declined: the call fails as dismissed and the turn ends there (no further request).
    m_run.server->enqueue(FakeReply::sse(questionCall(u"call_q2"_s, u"Which shade?"_s)));
    m_window->composer()->setText(u"And the shade?"_s);
    m_window->composer()->send();
    QTRY_VERIFY_WITH_TIMEOUT(!notices->keys().filter(u"question-"_s).isEmpty(), 10000);
    key = notices->keys().filter(u"question-"_s).first();
    QPushButton *decline = notices->button(key, u"decline"_s);
    QVERIFY(decline);
    decline->click();
    QTRY_VERIFY(!notices->hasNotice(key));
    QVERIFY(waitIdle());
    QCOMPARE(m_run.server->requests().size(), 3);
    const QList<MessageWithParts> messages = test::ownRead([&] { return m_run.service->messages(m_run.sessionID); });
    tool = firstToolPart({messages.last()});
    QCOMPARE(tool.callID(), u"call_q2"_s);
    QCOMPARE(tool.state().status(), ToolStatus::Error);
    QCOMPARE(tool.state().errorText(), u"The user dismissed this question"_s);
}

void TestGuiRun::contextMeter()
{
    QVERIFY(makeConfiguredWindow());
    ContextMeter *meter = m_window->contextMeter();
    // The limit (the project's config) comes after the window's first frame (StartupGate).
    QTRY_COMPARE_WITH_TIMEOUT(meter->limit(), 100000, 20000);
    m_run.server->enqueue(FakeReply::sse(textReply({u"Counted."_s}, 20000, 1000)));
    QVERIFY(sendAndWait(u"Count me"_s));
    QTRY_COMPARE(meter->tokens(), 21000);
    // 20000 input at $3/M + 1000 output at $15/M
    QCOMPARE(qRound64(meter->cost() * 100000), 7500);
    QVERIFY2(meter->text().contains(u"21"_s) && meter->text().contains(u"21%"_s), qPrintable(meter->text()));
    // The threshold mark: (100000 - min(4000, 32000)) / 100000.
    QVERIFY2(meter->toolTip().contains(u"96%"_s), qPrintable(meter->toolTip()));
}

void TestGuiRun::revertHidesMessages()
{
    QVERIFY(makeConfiguredWindow());
    m_run.server->enqueue(FakeReply::sse(textReply({u"First."_s})));
    QVERIFY(sendAndWait(u"one"_s));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Second."_s})));
    QVERIFY(sendAndWait(u"two"_s));
    TimelineModel *timeline = m_window->timelineModel();
    QCOMPARE(timeline->rowCount(), 4);
    const QString secondUser = timeline->index(2).data(TimelineModel::IdRole).toString();
    TimelineView *view = m_window->timelineView();
    QAbstractItemModelTester viewTester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

    // Another process (`weft session revert`) records a revert in the session's file.
    JsonStore other(m_run.data->path());
    Session session = *test::ownRead([&] { return m_run.service->get(m_run.sessionID); });
    session.setRevert(JsonObject{{u"messageID"_s, secondUser}});
    QVERIFY(other.writeSession(session));
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 2, 5000);
    QCOMPARE(timeline->rowCount(), 4); // the model keeps them; the view hides them
    QCOMPARE(view->hiddenMessageCount(), 2);
    NoticeBar *notices = m_window->noticeBar();
    QTRY_VERIFY(notices->hasNotice(u"revert"_s));
    QVERIFY2(notices->noticeText(u"revert"_s).startsWith(u"2 messages reverted"_s), qPrintable(notices->noticeText(u"revert"_s)));

    // Unrevert brings them back.
    notices->button(u"revert"_s, u"unrevert"_s)->click();
    QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 4, 5000);
    QTRY_VERIFY(!notices->hasNotice(u"revert"_s));
    QVERIFY(!test::ownRead([&] { return m_run.service->get(m_run.sessionID); })->hasRevert());
}

void TestGuiRun::otherProcessChangesAppear()
{
    QVERIFY(makeConfiguredWindow());
    m_run.server->enqueue(FakeReply::sse(textReply({u"Here."_s})));
    QVERIFY(sendAndWait(u"hello"_s));
    TimelineModel *timeline = m_window->timelineModel();
    QSignalSpy reset(timeline, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(timeline, &QAbstractItemModel::rowsInserted);
    // "Another process" (a running OpenCode) appends a turn and renames the session.
    JsonStore other(m_run.data->path());
    const Message user = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), m_run.sessionID,
                                           QDateTime::currentMSecsSinceEpoch(), u"build"_s, u"fake"_s, u"gpt-test"_s);
    QVERIFY(other.writeMessage(user));
    QVERIFY(other.writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_run.sessionID, user.id(),
                                           u"Written by OpenCode"_s)));
    Session session = *test::ownRead([&] { return m_run.service->get(m_run.sessionID); });
    session.setTitle(u"Renamed elsewhere"_s);
    QVERIFY(other.writeSession(session));
    QTRY_COMPARE_WITH_TIMEOUT(timeline->rowCount(), 3, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(timeline->index(2).data(TimelineModel::TextRole).toString(), u"Written by OpenCode"_s, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->sessionsModel()->session(m_run.sessionID)->title(), u"Renamed elsewhere"_s, 5000);
    QTRY_COMPARE(m_window->windowTitle(), u"Renamed elsewhere"_s);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(inserted.size(), 1);
}

void TestGuiRun::commandFromTheComposer()
{
    // A command of the project's .opencode folder: offered after '/', completed with Enter, run
    // with its template and arguments.
    const QString file = m_run.project->path() + u"/.opencode/command/greet.md"_s;
    QVERIFY(QDir().mkpath(QFileInfo(file).path()));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("---\ndescription: Greets someone\n---\nSay hello to $ARGUMENTS!\n");
    f.close();
    QVERIFY(makeConfiguredWindow());
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    Composer *composer = m_window->composer();
    composer->editor()->setFocus();
    QTRY_VERIFY(composer->editor()->hasFocus());

    QTest::keyClicks(composer->editor(), u"/gr"_s);
    QAbstractItemView *popup = composer->commandCompleter()->popup();
    QTRY_VERIFY(popup->isVisible());
    QCOMPARE(composer->commandCompleter()->completionCount(), 1);
    QVERIFY(popup->currentIndex().data().toString().contains(u"Greets someone"_s));
    QTest::keyClick(composer->editor(), Qt::Key_Return);
    QCOMPARE(composer->text(), u"/greet "_s);
    QVERIFY(!popup->isVisible());
    // Text that is not a command's start offers nothing.
    QTest::keyClicks(composer->editor(), u"Bob"_s);
    QVERIFY(!popup->isVisible());

    m_run.server->enqueue(FakeReply::sse(textReply({u"Hello, Bob."_s})));
    QTest::keyClick(composer->editor(), Qt::Key_Return);
    QVERIFY(waitIdle());
    QCOMPARE(m_run.server->requests().size(), 1);
    const JsonArray messages = m_run.server->requests().first().json.array(u"messages");
    const JsonObject last = messages.at(messages.size() - 1).toObject();
    QCOMPARE(last.value(u"content").isString() ? last.string(u"content")
                                               : last.array(u"content").at(0).toObject().string(u"text"),
             u"Say hello to Bob!"_s);
    // The user message holds the filled-in template, as OpenCode records a command.
    const QList<MessageWithParts> stored = test::ownRead([&] { return m_run.service->messages(m_run.sessionID); });
    QCOMPARE(stored.size(), 2);
    QCOMPARE(stored.first().parts.first().text(), u"Say hello to Bob!"_s);
}

void TestGuiRun::steerAndQueueFromTheComposer()
{
    QVERIFY(makeConfiguredWindow());
    FakeReply first = FakeReply::sse(textReply({u"Looking at the parser."_s}));
    first.held = true; // the reply runs while the user types more
    m_run.server->enqueue(first);
    m_run.server->enqueue(FakeReply::sse(textReply({u"Tests added as well."_s})));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Docs updated."_s})));
    Composer *composer = m_window->composer();
    QueuedPromptsView *queue = m_window->queuedPrompts();
    QVERIFY(queue->isHidden());
    QVERIFY(composer->steerButton()->isHidden());
    composer->editor()->setFocus();
    QTest::keyClicks(composer->editor(), u"Fix the parser"_s);
    QTest::keyClick(composer->editor(), Qt::Key_Return);
    QTRY_VERIFY(composer->isRunning());
    QTRY_COMPARE(m_run.server->requests().size(), 1);

    // While it replies: Queue (Enter) and Steer (Alt+Enter) instead of Send.
    QVERIFY(composer->steerButton()->isVisible());
    QCOMPARE(composer->sendButton()->text(), u"Queue"_s);
    QVERIFY(composer->stopButton()->isVisible());
    QTest::keyClicks(composer->editor(), u"Add a test too"_s);
    QTest::keyClick(composer->editor(), Qt::Key_Return, Qt::AltModifier);
    QVERIFY(composer->text().isEmpty());
    QVERIFY(queue->isHidden()); // steered, not queued
    QTest::keyClicks(composer->editor(), u"Then update the docs"_s);
    QTest::keyClick(composer->editor(), Qt::Key_Return);
    QVERIFY(composer->text().isEmpty());
    QTRY_VERIFY(queue->isVisible());
    QCOMPARE(queue->rows().size(), 1);
    QVERIFY2(queue->headline().contains(u"Queued (1)"_s), qPrintable(queue->headline()));
    QVERIFY(queue->sendNextButton()->isHidden()); // it goes by itself

    // Edited in place before it goes.
    auto *editor = queue->rows().first()->findChild<QLineEdit *>(u"queuedText"_s);
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, u"Then update the README"_s);
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE(m_window->controller()->queuedPrompts(m_run.sessionID).first().text, u"Then update the README"_s);

    // The reply answers the steered prompt itself; the queued one follows as its own run.
    m_run.server->release();
    QTRY_VERIFY_WITH_TIMEOUT(m_run.server->requests().size() == 3 && !composer->isRunning(), 20000);
    QVERIFY(waitIdle());
    QTRY_VERIFY(queue->isHidden());
    QCOMPARE(composer->sendButton()->text(), u"Send"_s);
    QVERIFY(composer->steerButton()->isHidden());
    TimelineModel *timeline = m_window->timelineModel();
    QStringList texts;
    for (int row = 0; row < timeline->rowCount(); ++row)
        texts.append(timeline->index(row).data(TimelineModel::TextRole).toString());
    QCOMPARE(texts, (QStringList{u"Fix the parser"_s, u"Looking at the parser."_s, u"Add a test too"_s,
                                 u"Tests added as well."_s, u"Then update the README"_s, u"Docs updated."_s}));
}

QTEST_MAIN(TestGuiRun)
#include "tst_gui_run.moc"
