// SPDX-License-Identifier: GPL-3.0-or-later
// SessionController without a window: a prompt against the loopback LLM server, a permission
// question answered, a fork, a compaction undone, the refusals that the window words, and the
// route of each operation on a session: refused while it runs, sent to the server that holds it.

#include "app/serversource.h"
#include "app/sessioncontroller.h"
#include "diff/diffdocument.h"
#include "fakellmserver.h"
#include "fakeopencodeserver.h"
#include "qt/sessionsmodel.h"
#include "server/serverclient.h"
#include "runfixture.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "testdata.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{
QByteArray bashCall(const QString &callID, const QString &command)
{
    OpenAiStream s;
    s.role().text(u"Let me run it."_s);
    const QString args
        = QString::fromUtf8(toJson(JsonObject{{u"command"_s, command}, {u"description"_s, u"Run it"_s}}, 0));
    s.toolCallStart(0, callID, u"bash"_s, args);
    s.finish(u"tool_calls"_s).usage(3200, 40).done();
    return s.bytes();
}
} // namespace

class TestSessionController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void promptRuns();
    void noModelIsRefused();
    void permissionAnswered();
    void permissionDroppedWhenStopped();
    void forkOffTheGuiThread();
    void forkOfUnknownSessionFails();
    void compactThenUndo();
    void readOnlyIsNotRunnable();
    void checkPromptDecidesOnce();
    void operationsRefusedWhileBusy();
    void serverSessionRevertsOnTheServer();
    void steerAndQueueWhileRunning();
    void queueWaitsAfterAFailedRun();

private:
    std::unique_ptr<SessionController> makeController(bool configured = true);
    bool waitIdle(SessionController *controller, int timeoutMs = 20000);

    test::RunFixture m_run;
};

void TestSessionController::initTestCase()
{
    clearProviderKeys();
}

void TestSessionController::init()
{
    QVERIFY(m_run.setUp());
}

void TestSessionController::cleanup()
{
    m_run.tearDown();
}


std::unique_ptr<SessionController> TestSessionController::makeController(bool configured)
{
    Result<ProcessorSetup> setup
        = configured ? loadProcessorSetup(m_run.writeConfig(JsonObject{{u"snapshot"_s, false}}), m_run.data->path())
                     : makeProcessorSetup(Config(), m_run.data->path());
    if (!setup) {
        qWarning() << setup.error().toString();
        return {};
    }
    ProcessorSetup s = setup.value();
    s.config.generateTitles = false;
    s.config.snapshots = ProcessorConfig::Snapshots::Never;
    s.config.retryInitialMs = 5;
    s.config.retryMaxMs = 20;
    s.config.maxRetries = 1;
    return std::make_unique<SessionController>(m_run.service, m_run.data->path(), s);
}

bool TestSessionController::waitIdle(SessionController *controller, int timeoutMs)
{
    QSignalSpy finished(controller, &SessionController::runFinished);
    const bool idle = QTest::qWaitFor([&] { return !controller->isBusy(m_run.sessionID); }, timeoutMs);
    // The run's last writes reach the GUI thread queued, before its end is announced there.
    return idle && (!finished.isEmpty() || finished.wait(timeoutMs));
}

void TestSessionController::promptRuns()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    QVERIFY(controller->isRunnable(m_run.sessionID));
    QVERIFY(controller->availableModels().contains(u"fake/gpt-test"_s));
    QVERIFY(controller->agents().contains(u"build"_s));
    QSignalSpy busy(controller.get(), &SessionController::busyChanged);
    QSignalSpy finished(controller.get(), &SessionController::runFinished);
    m_run.server->enqueue(FakeReply::sse(textReply({u"Hello "_s, u"there."_s})));
    const SessionController::PromptResult sent = controller->prompt(m_run.sessionID, u"Say hello"_s, {}, {});
    QVERIFY2(sent.ok(), qPrintable(sent.error));
    QCOMPARE(sent.sessionID, m_run.sessionID);
    QVERIFY(controller->isBusy(m_run.sessionID));
    QVERIFY(controller->busySessions().contains(m_run.sessionID));
    QVERIFY(waitIdle(controller.get()));
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toString(), m_run.sessionID);
    QVERIFY(finished.at(0).at(1).toBool());
    QVERIFY(busy.size() >= 2);
    QCOMPARE(busy.first().at(1).toBool(), true);
    QCOMPARE(busy.last().at(1).toBool(), false);
    const QList<MessageWithParts> messages = m_run.service->messages(m_run.sessionID);
    QCOMPARE(messages.size(), 2);
    QVERIFY(messages.at(0).info.isUser());
    QVERIFY(messages.at(1).info.isAssistant());
    QCOMPARE(m_run.server->requests().size(), 1);
}

void TestSessionController::noModelIsRefused()
{
    std::unique_ptr<SessionController> controller = makeController(false);
    QVERIFY(controller);
    const SessionController::PromptResult sent = controller->prompt(m_run.sessionID, u"hello"_s, {}, {});
    QCOMPARE(sent.status, SessionController::PromptResult::Status::NoModel);
    const SessionController::PromptResult unknown = controller->prompt(m_run.sessionID, u"hello"_s, {}, u"nowhere/model"_s);
    QCOMPARE(unknown.status, SessionController::PromptResult::Status::UnknownModel);
    QVERIFY(!unknown.error.isEmpty());
    QVERIFY(m_run.service->messages(m_run.sessionID).isEmpty());
    QCOMPARE(m_run.server->requests().size(), 0);
    QCOMPARE(controller->prompt(QString(), u"hello"_s, {}, {}).status,
             SessionController::PromptResult::Status::NotRunnable);
}

void TestSessionController::permissionAnswered()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    QSignalSpy requested(controller.get(), &SessionController::permissionRequested);
    QSignalSpy closed(controller.get(), &SessionController::permissionClosed);
    m_run.server->enqueue(FakeReply::sse(bashCall(u"call_allow"_s, u"echo allowed-output"_s)));
    m_run.server->enqueue(FakeReply::sse(textReply({u"It printed the text."_s})));
    QVERIFY(controller->prompt(m_run.sessionID, u"Run echo"_s, {}, {}).ok());
    QTRY_COMPARE_WITH_TIMEOUT(requested.size(), 1, 10000);
    const PermissionRequest request = requested.at(0).at(0).value<PermissionRequest>();
    QCOMPARE(request.sessionID, m_run.sessionID);
    QCOMPARE(request.permission, u"bash"_s);
    QCOMPARE(controller->pendingPermissions().size(), 1);
    QVERIFY(controller->pendingPermission(request.id));
    QVERIFY(controller->isWithin(request.sessionID, m_run.sessionID));
    QVERIFY(controller->isBusy(m_run.sessionID));
    QVERIFY(!controller->answerPermission(u"no-such-request"_s, PermissionReply::Once));
    QVERIFY(controller->answerPermission(request.id, PermissionReply::Once));
    QCOMPARE(closed.size(), 1);
    QCOMPARE(closed.at(0).at(0).value<PermissionRequest>().id, request.id);
    QVERIFY(controller->pendingPermissions().isEmpty());
    QVERIFY(!controller->answerPermission(request.id, PermissionReply::Once));
    QVERIFY(waitIdle(controller.get()));
    const Part tool = firstToolPart(m_run.service->messages(m_run.sessionID));
    QCOMPARE(tool.state().status(), ToolStatus::Completed);
    QVERIFY(tool.state().output().contains(u"allowed-output"_s));
    QCOMPARE(m_run.server->requests().size(), 2);
}

void TestSessionController::permissionDroppedWhenStopped()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    QSignalSpy requested(controller.get(), &SessionController::permissionRequested);
    QSignalSpy closed(controller.get(), &SessionController::permissionClosed);
    m_run.server->enqueue(FakeReply::sse(bashCall(u"call_stop"_s, u"echo never"_s)));
    QVERIFY(controller->prompt(m_run.sessionID, u"Run echo"_s, {}, {}).ok());
    QTRY_COMPARE_WITH_TIMEOUT(requested.size(), 1, 10000);
    controller->stop(m_run.sessionID);
    QVERIFY(waitIdle(controller.get()));
    // The run ended: its question cannot be answered any more.
    QTRY_COMPARE(closed.size(), 1);
    QVERIFY(controller->pendingPermissions().isEmpty());
    QCOMPARE(firstToolPart(m_run.service->messages(m_run.sessionID)).state().status(), ToolStatus::Error);
}

void TestSessionController::forkOffTheGuiThread()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    m_run.server->enqueue(FakeReply::sse(textReply({u"First answer."_s})));
    QVERIFY(controller->prompt(m_run.sessionID, u"First"_s, {}, {}).ok());
    QVERIFY(waitIdle(controller.get()));
    QCOMPARE(m_run.service->messages(m_run.sessionID).size(), 2);

    QSignalSpy forked(controller.get(), &SessionController::forked);
    QSignalSpy failed(controller.get(), &SessionController::failed);
    controller->fork(m_run.sessionID);
    QVERIFY(forked.isEmpty()); // never inside the call
    QVERIFY(forked.wait(10000));
    QVERIFY(failed.isEmpty());
    QCOMPARE(forked.at(0).at(0).toString(), m_run.sessionID);
    const Session copy = forked.at(0).at(1).value<Session>();
    QVERIFY(!copy.id().isEmpty() && copy.id() != m_run.sessionID);
    QVERIFY(copy.title().contains(u"fork"_s));
    QCOMPARE(m_run.service->messages(copy.id()).size(), 2);
    // The copy runs as the original does.
    m_run.server->enqueue(FakeReply::sse(textReply({u"Second answer."_s})));
    QVERIFY(controller->prompt(copy.id(), u"Second"_s, {}, {}).ok());
    QTRY_VERIFY_WITH_TIMEOUT(!controller->isBusy(copy.id()), 20000);
    QTRY_COMPARE(m_run.service->messages(copy.id()).size(), 4);
    QCOMPARE(m_run.service->messages(m_run.sessionID).size(), 2);
}

void TestSessionController::forkOfUnknownSessionFails()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    QSignalSpy forked(controller.get(), &SessionController::forked);
    QSignalSpy failed(controller.get(), &SessionController::failed);
    controller->fork(u"ses_doesnotexist"_s);
    QVERIFY(failed.wait(10000));
    QVERIFY(forked.isEmpty());
    QCOMPARE(failed.at(0).at(0).value<SessionController::Operation>(), SessionController::Operation::Fork);
    QCOMPARE(failed.at(0).at(1).toString(), u"ses_doesnotexist"_s);
    QVERIFY(!failed.at(0).at(2).toString().isEmpty());
}

void TestSessionController::compactThenUndo()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    for (const QString &question : {u"Question"_s, u"Another question"_s}) {
        m_run.server->enqueue(FakeReply::sse(textReply({u"An answer."_s}, 3000, 2800)));
        QVERIFY(controller->prompt(m_run.sessionID, question, {}, {}).ok());
        QVERIFY(waitIdle(controller.get()));
    }
    QCOMPARE(m_run.service->messages(m_run.sessionID).size(), 4);
    QVERIFY(!controller->canUndoCompaction(m_run.sessionID));

    const QFuture<Result<CompactionPreview>> future = controller->previewCompaction(m_run.sessionID);
    const Result<CompactionPreview> preview = future.result();
    QVERIFY2(preview, qPrintable(preview ? QString() : preview.error().toString()));

    QSignalSpy summary(controller.get(), &SessionController::compactionSummaryChanged);
    QSignalSpy finished(controller.get(), &SessionController::compactionFinished);
    m_run.server->enqueue(FakeReply::sse(textReply({u"The summary "_s, u"of it all."_s})));
    const Result<QString> started = controller->compact(m_run.sessionID, preview.value());
    QVERIFY2(started, qPrintable(started ? QString() : started.error().toString()));
    QVERIFY(waitIdle(controller.get()));
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(finished.at(0).at(1).toBool());
    QVERIFY(!summary.isEmpty());
    QCOMPARE(summary.last().at(0).toString(), m_run.sessionID);
    QVERIFY(summary.last().at(1).toString().contains(u"of it all."_s));
    const std::optional<SessionController::CompactionTokens> result = controller->compactionResult(m_run.sessionID);
    QVERIFY(result);
    QCOMPARE(result->before, preview->tokensBefore);
    QCOMPARE(result->after, preview->tokensAfter);
    QVERIFY(controller->canUndoCompaction(m_run.sessionID));
    QVERIFY(controller->canUndoCompaction(m_run.sessionID, m_run.service->messages(m_run.sessionID)));

    QSignalSpy undone(controller.get(), &SessionController::compactionUndone);
    controller->undoCompaction(m_run.sessionID);
    QVERIFY(undone.wait(10000));
    QVERIFY(!controller->compactionResult(m_run.sessionID));
    QVERIFY(!controller->canUndoCompaction(m_run.sessionID));
    QCOMPARE(m_run.service->messages(m_run.sessionID).size(), 4);
}

void TestSessionController::readOnlyIsNotRunnable()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    QVERIFY(!controller->isRunnable(QString()));
    QVERIFY(!controller->unrevert(QString()));
    // Without an OpenCode source there is nothing to copy from.
    QVERIFY(!controller->importSession(m_run.sessionID));
    QVERIFY(controller->serviceFor(u"elsewhere"_s) == m_run.service.get());
    QVERIFY(!controller->primarySourceKey().isEmpty());
    // A new processor only while nothing runs.
    QSignalSpy changed(controller.get(), &SessionController::processorChanged);
    Result<ProcessorSetup> setup = loadProcessorSetup(m_run.writeConfig(), m_run.data->path());
    QVERIFY(setup);
    QVERIFY(controller->setProcessorSetup(setup.value()));
    QCOMPARE(changed.size(), 1);
    QVERIFY(controller->processor()->config().askPolicy == ProcessorConfig::AskPolicy::Interactive);
}

void TestSessionController::checkPromptDecidesOnce()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    PromptRequest request;
    request.sessionID = m_run.sessionID;
    // The configured model, resolved against the project's configuration: what the run uses and
    // the context meter shows.
    const SessionController::PromptResult check = controller->checkPrompt(request);
    QVERIFY2(check.ok(), qPrintable(check.error));
    QCOMPARE(check.model, u"fake/gpt-test"_s);
    // The meter's figures: the model's context, and where automatic compaction starts (OpenCode's
    // usable context: the context less the output the model may need).
    QCOMPARE(check.contextLimit, 100000);
    QVERIFY2(check.compactAt > 0 && check.compactAt < check.contextLimit, qPrintable(QString::number(check.compactAt)));
    // An unknown model and agent are refused before anything is written, with the reason.
    request.model = u"nowhere/model"_s;
    const SessionController::PromptResult unknown = controller->checkPrompt(request);
    QCOMPARE(unknown.status, SessionController::PromptResult::Status::UnknownModel);
    QCOMPARE(unknown.model, u"nowhere/model"_s);
    request.model.clear();
    request.agent = u"nobody"_s;
    const SessionController::PromptResult agent = controller->checkPrompt(request);
    QCOMPARE(agent.status, SessionController::PromptResult::Status::Failed);
    QVERIFY2(agent.error.contains(u"nobody"_s), qPrintable(agent.error));
    QCOMPARE(m_run.service->messages(m_run.sessionID).size(), 0);
    // Without a processor's session (none given) nothing runs.
    QCOMPARE(controller->checkPrompt(PromptRequest()).status, SessionController::PromptResult::Status::NotRunnable);
}

void TestSessionController::operationsRefusedWhileBusy()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    m_run.server->enqueue(FakeReply::sse(textReply({u"First answer."_s})));
    QVERIFY(controller->prompt(m_run.sessionID, u"First"_s, {}, {}).ok());
    QVERIFY(waitIdle(controller.get()));
    const QString firstUser = m_run.service->messages(m_run.sessionID).constFirst().info.id();

    // A run waits for a permission answer: the session is busy.
    QSignalSpy requested(controller.get(), &SessionController::permissionRequested);
    m_run.server->enqueue(FakeReply::sse(bashCall(u"call_busy"_s, u"echo busy"_s)));
    QVERIFY(controller->prompt(m_run.sessionID, u"Run echo"_s, {}, {}).ok());
    QTRY_COMPARE_WITH_TIMEOUT(requested.size(), 1, 10000);
    QVERIFY(controller->isBusy(m_run.sessionID));

    QSignalSpy changed(controller.get(), &SessionController::revertChanged);
    QSignalSpy failed(controller.get(), &SessionController::failed);
    QVERIFY(!controller->revert(m_run.sessionID, firstUser));
    QVERIFY(!controller->unrevert(m_run.sessionID));
    const QString file = m_run.project->filePath(u"untouched.txt"_s);
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("as it is\n");
    out.close();
    const auto document = std::make_shared<DiffDocument>(
        DiffDocument::fromContents(u"untouched.txt"_s, u"before\n"_s, u"as it is\n"_s));
    const Result<void> reverted = controller->revertFile(m_run.sessionID, document, file).result();
    QVERIFY(!reverted);
    QVERIFY2(reverted.error().message.contains(u"running"_s), qPrintable(reverted.error().message));
    QCOMPARE(readFile(file), QByteArray("as it is\n"));
    QVERIFY(!controller->rename(m_run.sessionID, u"Renamed"_s).result());
    QVERIFY(!controller->setArchived(m_run.sessionID, true).result());
    QVERIFY(!controller->moveToTrash(m_run.sessionID).result());
    QVERIFY(!controller->remove(m_run.sessionID).result());
    QVERIFY(m_run.service->get(m_run.sessionID));
    QVERIFY(m_run.service->get(m_run.sessionID)->title() != u"Renamed"_s);

    // Once it ends, the same requests go through.
    controller->stop(m_run.sessionID);
    QVERIFY(waitIdle(controller.get()));
    QVERIFY(controller->rename(m_run.sessionID, u"Renamed"_s).result());
    QCOMPARE(m_run.service->get(m_run.sessionID)->title(), u"Renamed"_s);
    QVERIFY(changed.isEmpty());
    QVERIFY(failed.isEmpty());
}

void TestSessionController::serverSessionRevertsOnTheServer()
{
    test::FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    for (const QString &name : {u"revert to the 2nd user message"_s, u"unrevert"_s})
        server.routeRecorded(name);
    server.route("GET", u"/experimental/session"_s, 200, test::recordedExchange(u"session list"_s).responseBody);
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    ServerSource *source = controller->addServer(ServerClient(server.url(), u"secret"_s));
    QVERIFY(source);
    QTRY_VERIFY_WITH_TIMEOUT(source->isReady(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(source->sessions()->isLoaded(), 5000);
    const QString id = test::recordedExchange(u"create V1 session"_s).responseBody.toObject().string(u"id");
    QCOMPARE(controller->serverOf(id), source);
    const QString messageID
        = test::recordedExchange(u"fork before the 2nd user message"_s).requestBody.toObject().string(u"messageID");

    // Nothing is planned here (the server keeps the files), and the revert is a request to it.
    const Result<RevertPlan> plan = controller->planRevert(id, messageID).result();
    QVERIFY(plan && plan->restore.isEmpty() && plan->remove.isEmpty());
    QSignalSpy changed(controller.get(), &SessionController::revertChanged);
    QVERIFY(controller->revert(id, messageID));
    QVERIFY(changed.wait(5000));
    QVERIFY(changed.at(0).at(0).value<Session>().hasRevert());
    const auto posted = [&server](const QString &what) {
        for (const test::FakeRequest &r : server.requests()) {
            if (r.method == "POST" && QString::fromUtf8(r.path).section(u'?', 0, 0).endsWith(what))
                return true;
        }
        return false;
    };
    QVERIFY(posted(u"/revert"_s));
    QVERIFY(controller->unrevert(id));
    QVERIFY(changed.wait(5000));
    QVERIFY(!changed.at(1).at(0).value<Session>().hasRevert());
    QVERIFY(posted(u"/unrevert"_s));
    // A file of a server's session is not written here.
    QVERIFY(!controller->revertFile(id, std::make_shared<DiffDocument>(), m_run.project->filePath(u"x"_s)).result());
}

void TestSessionController::steerAndQueueWhileRunning()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    FakeReply first = FakeReply::sse(textReply({u"First."_s}));
    first.held = true; // the run waits for it while the test sends more
    m_run.server->enqueue(first);
    m_run.server->enqueue(FakeReply::sse(textReply({u"Steered answer."_s})));
    m_run.server->enqueue(FakeReply::sse(textReply({u"Second queued answer."_s})));
    m_run.server->enqueue(FakeReply::sse(textReply({u"First queued answer."_s})));
    QSignalSpy queueChanged(controller.get(), &SessionController::queueChanged);
    QSignalSpy finished(controller.get(), &SessionController::runFinished);
    using Status = SessionController::PromptResult::Status;

    QCOMPARE(controller->prompt(m_run.sessionID, u"Start"_s, {}, {}).status, Status::Sent);
    QTRY_COMPARE(m_run.server->requests().size(), 1);
    QCOMPARE(controller->prompt(m_run.sessionID, u"Steer this"_s, {}, {}, {}, PromptDelivery::Steer).status, Status::Steered);
    QCOMPARE(controller->prompt(m_run.sessionID, u"Queued one"_s, {}, {}).status, Status::Queued);
    QCOMPARE(controller->prompt(m_run.sessionID, u"Queued two"_s, {}, {}, {}, PromptDelivery::Queue).status, Status::Queued);
    // A steered prompt with files waits its turn: a run takes only text at its next step.
    const PromptAttachment file{.kind = PromptAttachment::Kind::Text, .path = m_run.project->filePath(u"a.txt"_s)};
    QCOMPARE(controller->prompt(m_run.sessionID, u"With a file"_s, {}, {}, {file}, PromptDelivery::Steer).status,
             Status::Queued);
    QList<SessionController::QueuedPrompt> queued = controller->queuedPrompts(m_run.sessionID);
    QCOMPARE(queued.size(), 3);
    QCOMPARE(queued.at(0).text, u"Queued one"_s);
    QCOMPARE(queueChanged.size(), 3);

    // Edited, reordered and removed before they go.
    QVERIFY(controller->editQueued(m_run.sessionID, queued.at(1).id, u"Queued two, edited"_s));
    QVERIFY(controller->moveQueued(m_run.sessionID, queued.at(1).id, 0));
    QVERIFY(controller->removeQueued(m_run.sessionID, queued.at(2).id));
    QVERIFY(!controller->removeQueued(m_run.sessionID, 999999));
    QVERIFY(!controller->editQueued(m_run.sessionID, 999999, u"x"_s));
    queued = controller->queuedPrompts(m_run.sessionID);
    QCOMPARE(queued.size(), 2);
    QCOMPARE(queued.at(0).text, u"Queued two, edited"_s);
    QCOMPARE(queued.at(1).text, u"Queued one"_s);
    QCOMPARE(controller->sendQueuedNow(m_run.sessionID).status, Status::Failed); // it runs

    // The run answers the steered prompt itself, then the queue goes, one run each.
    m_run.server->release();
    QTRY_VERIFY2_WITH_TIMEOUT(finished.size() == 3,
                              qPrintable(u"%1 runs ended, %2 requests"_s.arg(finished.size()).arg(m_run.server->requests().size())),
                              20000);
    QVERIFY(!controller->isBusy(m_run.sessionID));
    for (const QList<QVariant> &run : std::as_const(finished))
        QVERIFY(run.at(1).toBool());
    QVERIFY(controller->queuedPrompts(m_run.sessionID).isEmpty());
    QStringList texts;
    for (const MessageWithParts &m : m_run.service->messages(m_run.sessionID)) {
        for (const Part &part : m.parts) {
            if (part.type() == PartType::Text && !part.isSynthetic())
                texts.append(part.text());
        }
    }
    QCOMPARE(texts, (QStringList{u"Start"_s, u"First."_s, u"Steer this"_s, u"Steered answer."_s, u"Queued two, edited"_s,
                                 u"Second queued answer."_s, u"Queued one"_s, u"First queued answer."_s}));
    QCOMPARE(m_run.server->requests().size(), 4);
}

void TestSessionController::queueWaitsAfterAFailedRun()
{
    std::unique_ptr<SessionController> controller = makeController();
    QVERIFY(controller);
    FakeReply refused = FakeReply::json(401, "{\"error\":{\"message\":\"bad key\"}}");
    refused.held = true;
    m_run.server->enqueue(refused);
    QSignalSpy finished(controller.get(), &SessionController::runFinished);
    using Status = SessionController::PromptResult::Status;
    QCOMPARE(controller->prompt(m_run.sessionID, u"Fails"_s, {}, {}).status, Status::Sent);
    QTRY_COMPARE(m_run.server->requests().size(), 1);
    QCOMPARE(controller->prompt(m_run.sessionID, u"Waits"_s, {}, {}).status, Status::Queued);
    m_run.server->release();
    QVERIFY(finished.wait(20000));
    QVERIFY(!finished.first().at(1).toBool());
    QVERIFY(!controller->isBusy(m_run.sessionID));
    // Not sent after a failure: the user sees why first, then sends it.
    QCOMPARE(m_run.server->requests().size(), 1);
    QCOMPARE(controller->queuedPrompts(m_run.sessionID).size(), 1);
    m_run.server->enqueue(FakeReply::sse(textReply({u"Now it works."_s})));
    QCOMPARE(controller->sendQueuedNow(m_run.sessionID).status, Status::Sent);
    QVERIFY(controller->queuedPrompts(m_run.sessionID).isEmpty());
    QVERIFY(waitIdle(controller.get()));
    QCOMPARE(m_run.server->requests().size(), 2);
    QCOMPARE(controller->sendQueuedNow(m_run.sessionID).status, Status::Failed); // nothing queued
}

QTEST_GUILESS_MAIN(TestSessionController)
#include "tst_sessioncontroller.moc"
