// SPDX-License-Identifier: GPL-3.0-or-later
// The agent loop's safety and its tools that wait on others, against the loopback LLM server
// with a config in OpenCode's format: the tool calls of one step in parallel (overlap observed
// through a barrier, the results in the order issued, abort, one failing), permission questions
// one at a time, the agent's step limit, the task tool's real child session, the session diff
// after each step, and the question tool.

#include "fakellmserver.h"
#include "runfixture.h"

#include "processor/processor.h"
#include "processor/setup.h"
#include "session/sessionservice.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{

struct Call {
    QString id;
    QString tool;
    JsonObject input;
};

/// One step that calls @p calls (streamed with their arguments in two pieces each).
QByteArray toolCalls(const QList<Call> &calls, qint64 prompt = 1500)
{
    OpenAiStream s;
    s.role().text(u"Working on it."_s);
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const QString args = QString::fromUtf8(toJson(calls.at(i).input, 0));
        s.toolCallStart(int(i), calls.at(i).id, calls.at(i).tool, args.left(4));
        s.toolCallArguments(int(i), args.mid(4));
    }
    s.finish(u"tool_calls"_s).usage(prompt, 40).done();
    return s.bytes();
}

JsonObject bash(const QString &command)
{
    return JsonObject{{u"command"_s, command}, {u"description"_s, u"Run it"_s}};
}

/// A shell loop that waits (at most 20 s) until @p file exists; exits 3 when it never does.
QString waitFor(const QString &file)
{
    return u"i=0; while [ ! -e %1 ]; do i=$((i+1)); [ $i -gt 400 ] && exit 3; sleep 0.05; done"_s.arg(file);
}

QList<Part> toolParts(const QList<MessageWithParts> &messages)
{
    QList<Part> parts;
    for (const MessageWithParts &m : messages) {
        for (const Part &p : m.parts) {
            if (p.type() == PartType::Tool)
                parts.append(p);
        }
    }
    return parts;
}

/// The tool results a request sent, in order: {tool_call_id, content}.
QList<std::pair<QString, QString>> toolResults(const FakeRequest &request)
{
    QList<std::pair<QString, QString>> results;
    for (const JsonValue &m : request.json.array(u"messages")) {
        const JsonObject message = m.toObject();
        if (message.string(u"role") == u"tool")
            results.append({message.string(u"tool_call_id"), message.value(u"content").toString()});
    }
    return results;
}

QStringList toolNames(const FakeRequest &request)
{
    QStringList names;
    for (const JsonValue &t : request.json.array(u"tools"))
        names.append(t.toObject().object(u"function").string(u"name"));
    return names;
}

} // namespace

class TestAgentLoop : public QObject
{
    Q_OBJECT

private:
    RunFixture m_run;
    std::unique_ptr<Processor> m_processor;
    QString m_project;

    /// The processor from a config written as a user would (`extra` over the fixture's).
    bool makeProcessor(const JsonObject &extra = {}, bool questions = false,
                       ProcessorConfig::AskPolicy policy = ProcessorConfig::AskPolicy::Deny)
    {
        JsonObject config{{u"permission"_s, JsonObject{{u"bash"_s, u"allow"_s}}}};
        for (const QString &key : extra.keys())
            config.insert(key, extra.value(key));
        Result<ProcessorSetup> setup = loadProcessorSetup(m_run.writeConfig(config), m_run.data->path());
        if (!setup) {
            qWarning() << setup.error().toString();
            return false;
        }
        ProcessorConfig c = setup->config;
        c.generateTitles = false;
        c.retryInitialMs = 5;
        c.retryMaxMs = 20;
        c.maxRetries = 1;
        c.askPolicy = policy;
        c.questions = questions;
        m_processor = std::make_unique<Processor>(m_run.service, c);
        return true;
    }

    Result<QString> start(const QString &text)
    {
        PromptRequest request;
        request.sessionID = m_run.sessionID;
        request.text = text;
        return m_processor->prompt(request);
    }

    /// Runs @p text to its end; the finished() arguments.
    QList<QVariant> run(const QString &text)
    {
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        if (const Result<QString> started = start(text); !started) {
            qWarning() << started.error().toString();
            return {};
        }
        if (!finished.wait(60000))
            return {};
        return finished.first();
    }

    QList<MessageWithParts> messages() const { return m_run.service->messages(m_run.sessionID); }

    bool toolsRunning(int n) const
    {
        int running = 0;
        for (const Part &p : toolParts(messages()))
            running += p.state().status() == ToolStatus::Running ? 1 : 0;
        return running == n;
    }

private Q_SLOTS:
    void initTestCase() { clearProviderKeys(); }

    void init()
    {
        QVERIFY(m_run.setUp());
        m_project = m_run.project->path();
    }

    void cleanup()
    {
        if (m_processor) {
            m_processor->abortAll();
            QVERIFY(m_processor->waitForIdle());
        }
        m_processor.reset();
        m_run.tearDown();
    }

    // ---- parallel tool calls

    void parallelToolsOverlap()
    {
        // Each call waits for the other to have started: in sequence the first would wait for
        // ever (and fail after 20 s). The second call ends first; the results keep the order
        // of the calls.
        const QString a = m_project + u"/a"_s, b = m_project + u"/b"_s;
        const QString first = u"touch %1.started; %2; %3; echo first-done"_s.arg(a, waitFor(b + u".started"_s),
                                                                                   waitFor(b + u".done"_s));
        const QString second = u"touch %1.started; %2; echo second-done; touch %1.done"_s.arg(b, waitFor(a + u".started"_s));
        m_run.server->enqueue(FakeReply::sse(toolCalls({{u"call_a"_s, u"bash"_s, bash(first)},
                                                        {u"call_b"_s, u"bash"_s, bash(second)}})));
        m_run.server->enqueue(FakeReply::sse(textReply({u"Both ran."_s})));
        QVERIFY(makeProcessor());
        const QList<QVariant> finished = run(u"run both"_s);
        QVERIFY(!finished.isEmpty());
        QVERIFY(finished.at(1).toBool());

        const QList<Part> tools = toolParts(messages());
        QCOMPARE(tools.size(), 2);
        QCOMPARE(tools.at(0).callID(), u"call_a"_s);
        QCOMPARE(tools.at(0).state().status(), ToolStatus::Completed);
        QCOMPARE(tools.at(1).state().status(), ToolStatus::Completed);
        QVERIFY2(tools.at(0).state().output().contains(u"first-done"_s), qPrintable(tools.at(0).state().output()));
        QVERIFY(tools.at(1).state().output().contains(u"second-done"_s));
        // The barrier is the proof: "first-done" means the first call saw the second start and
        // then end its command while it was still running itself. The recorded times agree.
        QVERIFY(tools.at(0).state().started() <= tools.at(1).state().ended());
        QVERIFY(tools.at(1).state().started() <= tools.at(0).state().ended());

        // The model reads the results in the order it issued the calls.
        QCOMPARE(m_run.server->requests().size(), 2);
        const auto results = toolResults(m_run.server->requests().at(1));
        QCOMPARE(results.size(), 2);
        QCOMPARE(results.at(0).first, u"call_a"_s);
        QVERIFY(results.at(0).second.contains(u"first-done"_s));
        QCOMPARE(results.at(1).first, u"call_b"_s);
        QVERIFY(results.at(1).second.contains(u"second-done"_s));
    }

    void oneFailsOtherSucceeds()
    {
        m_run.server->enqueue(FakeReply::sse(
            toolCalls({{u"call_read"_s, u"read"_s, JsonObject{{u"filePath"_s, m_project + u"/missing.txt"_s}}},
                       {u"call_echo"_s, u"bash"_s, bash(u"echo still-fine"_s)},
                       {u"call_nope"_s, u"no_such_tool"_s, JsonObject{}}})));
        m_run.server->enqueue(FakeReply::sse(textReply({u"One failed."_s})));
        QVERIFY(makeProcessor());
        const QList<QVariant> finished = run(u"try"_s);
        QVERIFY(!finished.isEmpty());
        QVERIFY(finished.at(1).toBool());
        const QList<Part> tools = toolParts(messages());
        QCOMPARE(tools.size(), 3);
        QCOMPARE(tools.at(0).state().status(), ToolStatus::Error);
        QVERIFY2(tools.at(0).state().errorText().contains(u"missing.txt"_s), qPrintable(tools.at(0).state().errorText()));
        QCOMPARE(tools.at(1).state().status(), ToolStatus::Completed);
        QVERIFY(tools.at(1).state().output().contains(u"still-fine"_s));
        QCOMPARE(tools.at(2).state().status(), ToolStatus::Error);
        QVERIFY(tools.at(2).state().errorText().contains(u"Unknown tool"_s));
        const auto results = toolResults(m_run.server->requests().at(1));
        QCOMPARE(results.size(), 3);
        QCOMPARE(results.at(0).first, u"call_read"_s);
        QCOMPARE(results.at(1).first, u"call_echo"_s);
        QCOMPARE(results.at(2).first, u"call_nope"_s);
        QVERIFY(results.at(0).second.contains(u"missing.txt"_s));
    }

    void abortStopsAllTools()
    {
        m_run.server->enqueue(FakeReply::sse(toolCalls({{u"call_1"_s, u"bash"_s, bash(u"sleep 30"_s)},
                                                        {u"call_2"_s, u"bash"_s, bash(u"sleep 30"_s)}})));
        QVERIFY(makeProcessor());
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        QVERIFY(start(u"sleep twice"_s).ok());
        QTRY_VERIFY_WITH_TIMEOUT(toolsRunning(2), 10000);
        QElapsedTimer timer;
        timer.start();
        m_processor->abort(m_run.sessionID);
        QVERIFY(finished.wait(10000));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(finished.first().at(1).toBool(), false);
        const QList<Part> tools = toolParts(messages());
        QCOMPARE(tools.size(), 2);
        for (const Part &p : tools) {
            QCOMPARE(p.state().status(), ToolStatus::Error);
            QCOMPARE(p.state().errorText(), u"Tool execution aborted"_s);
        }
        QCOMPARE(messages().at(1).info.error().name(), u"MessageAbortedError"_s);
        QCOMPARE(m_run.server->requests().size(), 1);
    }

    void permissionsOneAtATime()
    {
        // Two calls that both need approval: the user is asked one thing at a time.
        m_run.server->enqueue(FakeReply::sse(toolCalls({{u"call_1"_s, u"bash"_s, bash(u"echo one"_s)},
                                                        {u"call_2"_s, u"bash"_s, bash(u"echo two"_s)}})));
        m_run.server->enqueue(FakeReply::sse(textReply({u"Done."_s})));
        QVERIFY(makeProcessor(JsonObject{{u"permission"_s, JsonObject{{u"bash"_s, u"ask"_s}}}}, false,
                              ProcessorConfig::AskPolicy::Interactive));
        QSignalSpy asked(m_processor.get(), &Processor::permissionRequested);
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        QVERIFY(start(u"echo twice"_s).ok());
        QVERIFY(asked.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(toolsRunning(2), 10000); // both run, one waits its turn
        QVERIFY(!asked.wait(300));
        QCOMPARE(asked.size(), 1);
        const PermissionRequest first = asked.at(0).at(0).value<PermissionRequest>();
        m_processor->answerPermission(first.id, PermissionReply::Once);
        QVERIFY(asked.wait(10000));
        QCOMPARE(asked.size(), 2);
        const PermissionRequest second = asked.at(1).at(0).value<PermissionRequest>();
        QVERIFY(second.callID != first.callID);
        m_processor->answerPermission(second.id, PermissionReply::Reject);
        QVERIFY(finished.wait(20000));
        const QList<Part> tools = toolParts(messages());
        QCOMPARE(tools.size(), 2);
        for (const Part &p : tools) {
            const bool approved = p.callID() == first.callID;
            QCOMPARE(p.state().status(), approved ? ToolStatus::Completed : ToolStatus::Error);
        }
    }

    // ---- the step limit

    void stepLimit_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("toolOnLastStep");
        QTest::addRow("steps") << u"steps"_s << false;
        QTest::addRow("maxSteps (older key)") << u"maxSteps"_s << false;
        QTest::addRow("a tool call on the last step is not run") << u"steps"_s << true;
    }

    void stepLimit()
    {
        QFETCH(QString, key);
        QFETCH(bool, toolOnLastStep);
        m_run.server->enqueue(FakeReply::sse(toolCalls({{u"call_1"_s, u"bash"_s, bash(u"echo step-one"_s)}})));
        if (toolOnLastStep)
            m_run.server->enqueue(FakeReply::sse(toolCalls({{u"call_2"_s, u"bash"_s, bash(u"echo never"_s)}})));
        else
            m_run.server->enqueue(FakeReply::sse(textReply({u"Limit reached; one command ran."_s})));
        // Were the limit not kept, a third step would get the server's "no scripted reply".
        QVERIFY(makeProcessor(JsonObject{{u"agent"_s, JsonObject{{u"build"_s, JsonObject{{key, 2}}}}}}));
        const QList<QVariant> finished = run(u"go"_s);
        QVERIFY(!finished.isEmpty());
        QVERIFY(finished.at(1).toBool());
        QCOMPARE(m_run.server->requests().size(), 2);
        // The first step has the tools; the last none, and ends with the reminder as the
        // assistant's.
        QVERIFY(toolNames(m_run.server->requests().at(0)).contains(u"bash"_s));
        const FakeRequest &last = m_run.server->requests().at(1);
        QVERIFY(toolNames(last).isEmpty());
        const JsonArray sent = last.json.array(u"messages");
        const JsonObject reminder = sent.at(sent.size() - 1).toObject();
        QCOMPARE(reminder.string(u"role"), u"assistant"_s);
        QVERIFY2(reminder.value(u"content").toString().contains(u"STEP LIMIT REACHED"_s),
                 qPrintable(reminder.value(u"content").toString()));
        const QList<Part> tools = toolParts(messages());
        QCOMPARE(tools.size(), toolOnLastStep ? 2 : 1);
        QCOMPARE(tools.at(0).state().status(), ToolStatus::Completed);
        if (toolOnLastStep) {
            QCOMPARE(tools.at(1).state().status(), ToolStatus::Error);
            QVERIFY(!QFile::exists(m_project + u"/never"_s));
        }
        QCOMPARE(messages().size(), 3);
    }

    // ---- the task tool's child session, end to end

    void taskRunsChildSession()
    {
        m_run.server->enqueue(FakeReply::sse(toolCalls(
            {{u"call_task"_s, u"task"_s,
              JsonObject{{u"description"_s, u"Count the files"_s},
                         {u"prompt"_s, u"Count the files in the project and answer with the number."_s},
                         {u"subagent_type"_s, u"general"_s}}}})));
        // The child's own loop: one step on the same server, then the parent's second step.
        m_run.server->enqueue(FakeReply::sse(textReply({u"There are "_s, u"3 files."_s}, 2000, 100)));
        m_run.server->enqueue(FakeReply::sse(textReply({u"The sub-agent counted 3 files."_s})));
        QVERIFY(makeProcessor());
        QSignalSpy created(m_run.service.get(), &SessionService::sessionCreated);
        const QList<QVariant> finished = run(u"How many files?"_s);
        QVERIFY(!finished.isEmpty());
        QVERIFY(finished.at(1).toBool());

        // A real child session, listed among the parent's children, created once.
        const QList<Session> children = m_run.service->children(m_run.sessionID);
        QCOMPARE(children.size(), 1);
        const Session child = children.first();
        QCOMPARE(child.parentID(), m_run.sessionID);
        QVERIFY2(child.title().contains(u"Count the files"_s) && child.title().contains(u"@general subagent"_s),
                 qPrintable(child.title()));
        QCOMPARE(created.size(), 1);
        // Its run streamed from the same server: its prompt, its answer with tokens and cost.
        QCOMPARE(m_run.server->requests().size(), 3);
        QVERIFY(m_run.server->requests().at(1).body.contains("Count the files in the project"));
        QVERIFY(!toolNames(m_run.server->requests().at(1)).contains(u"task"_s)); // no grandchildren
        const QList<MessageWithParts> childMessages = m_run.service->messages(child.id());
        QCOMPARE(childMessages.size(), 2);
        QCOMPARE(childMessages.at(0).info.agent(), u"general"_s);
        QCOMPARE(childMessages.at(1).info.tokens().input, 2000);
        QCOMPARE(childMessages.at(1).info.tokens().output, 100);
        QVERIFY(childMessages.at(1).info.cost() > 0);
        QCOMPARE(childMessages.at(1).info.finish(), u"stop"_s);
        // Its answer came back to the parent.
        const Part task = toolParts(messages()).first();
        QCOMPARE(task.state().status(), ToolStatus::Completed);
        QCOMPARE(task.state().output(), u"<task_result>\nThere are 3 files.\n</task_result>"_s);
        const auto results = toolResults(m_run.server->requests().at(2));
        QCOMPARE(results.size(), 1);
        QVERIFY(results.first().second.contains(u"There are 3 files."_s));
        QCOMPARE(messages().size(), 3);
    }

    void taskChildFails()
    {
        m_run.server->enqueue(FakeReply::sse(toolCalls(
            {{u"call_task"_s, u"task"_s,
              JsonObject{{u"description"_s, u"Look around"_s}, {u"prompt"_s, u"look"_s}, {u"subagent_type"_s, u"general"_s}}}})));
        // The child's provider refuses the key: not retried, the child ends with the error.
        m_run.server->enqueue(FakeReply::json(401, R"({"error":{"message":"bad key for the child","type":"auth"}})"));
        m_run.server->enqueue(FakeReply::sse(textReply({u"The sub-agent failed."_s})));
        QVERIFY(makeProcessor());
        const QList<QVariant> finished = run(u"delegate"_s);
        QVERIFY(!finished.isEmpty());
        QVERIFY(finished.at(1).toBool());
        const QList<Session> children = m_run.service->children(m_run.sessionID);
        QCOMPARE(children.size(), 1);
        const QList<MessageWithParts> childMessages = m_run.service->messages(children.first().id());
        QCOMPARE(childMessages.size(), 2);
        QVERIFY(!childMessages.at(1).info.error().isNull());
        const Part task = toolParts(messages()).first();
        QCOMPARE(task.state().status(), ToolStatus::Error);
        QVERIFY2(task.state().errorText().contains(u"bad key for the child"_s), qPrintable(task.state().errorText()));
        QVERIFY(toolResults(m_run.server->requests().at(2)).first().second.contains(u"bad key for the child"_s));
    }

    void taskAbortDuringChild()
    {
        m_run.server->enqueue(FakeReply::sse(toolCalls(
            {{u"call_task"_s, u"task"_s,
              JsonObject{{u"description"_s, u"Wait"_s}, {u"prompt"_s, u"wait"_s}, {u"subagent_type"_s, u"general"_s}}}})));
        FakeReply stalled = FakeReply::sse(OpenAiStream().role().text(u"Thinking"_s).bytes());
        stalled.hang = true;
        m_run.server->enqueue(stalled);
        QVERIFY(makeProcessor());
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        QVERIFY(start(u"delegate"_s).ok());
        auto childStreams = [this] {
            const QList<Session> children = m_run.service->children(m_run.sessionID);
            if (children.isEmpty())
                return false;
            const QList<MessageWithParts> ms = m_run.service->messages(children.first().id());
            return ms.size() == 2 && ms.at(1).parts.size() >= 2;
        };
        QTRY_VERIFY_WITH_TIMEOUT(childStreams(), 10000);
        m_processor->abort(m_run.sessionID);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        const QString child = m_run.service->children(m_run.sessionID).first().id();
        QCOMPARE(m_run.service->messages(child).at(1).info.error().name(), u"MessageAbortedError"_s);
        QCOMPARE(toolParts(messages()).first().state().status(), ToolStatus::Error);
        QVERIFY(!m_processor->isBusy(m_run.sessionID));
        QTRY_VERIFY_WITH_TIMEOUT(m_run.server->clientAborts() >= 1, 5000);
    }

    void subtaskCommandRunsAsChildTask()
    {
        // A command with `subtask: true` (here on the primary agent "build"; a command of a
        // sub-agent is one by default) runs as OpenCode runs it: the user message holds a subtask
        // part, the task tool runs the agent in a child session, then the prompt's agent sums up.
        m_run.server->enqueue(FakeReply::sse(textReply({u"Found 2 TODOs."_s}))); // the child
        m_run.server->enqueue(FakeReply::sse(textReply({u"The review found 2 TODOs."_s}))); // the parent
        JsonObject commands{
            {u"review"_s, JsonObject{{u"template"_s, u"Review $1 for TODOs."_s},
                                     {u"description"_s, u"Review a file"_s},
                                     {u"agent"_s, u"general"_s},
                                     {u"subtask"_s, true}}},
            {u"inline"_s, JsonObject{{u"template"_s, u"Explain $ARGUMENTS."_s}, {u"agent"_s, u"general"_s},
                                     {u"subtask"_s, false}}}};
        QVERIFY(makeProcessor({{u"command"_s, commands}}));
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        PromptRequest request;
        request.sessionID = m_run.sessionID;
        request.text = u"/review main.cpp"_s;
        request.slashCommands = true;
        QVERIFY(m_processor->prompt(request).ok());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).value<MessageError>().message()));

        const QList<MessageWithParts> ms = messages();
        QCOMPARE(ms.size(), 4);
        // 1. The user's message: the subtask, as OpenCode stores it, and no text.
        QCOMPARE(ms.at(0).info.agent(), u"build"_s);
        QCOMPARE(ms.at(0).parts.size(), 1);
        const Part subtask = ms.at(0).parts.first();
        QCOMPARE(subtask.typeName(), u"subtask"_s);
        QCOMPARE(subtask.json().keys(), (QStringList{u"id"_s, u"sessionID"_s, u"messageID"_s, u"type"_s, u"prompt"_s,
                                                     u"description"_s, u"agent"_s, u"model"_s, u"command"_s}));
        QCOMPARE(subtask.prompt(), u"Review main.cpp for TODOs."_s);
        QCOMPARE(subtask.description(), u"Review a file"_s);
        QCOMPARE(subtask.agent(), u"general"_s);
        QCOMPARE(subtask.json().string(u"command"_s), u"review"_s);
        // 2. The sub-agent's message: one task call, completed with the child's answer.
        QCOMPARE(ms.at(1).info.agent(), u"general"_s);
        QCOMPARE(ms.at(1).info.finish(), u"tool-calls"_s);
        QVERIFY(ms.at(1).info.completed() > 0);
        const Part task = toolParts({ms.at(1)}).first();
        QCOMPARE(task.tool(), u"task"_s);
        QCOMPARE(task.state().status(), ToolStatus::Completed);
        QCOMPARE(task.state().input().string(u"subagent_type"_s), u"general"_s);
        QCOMPARE(task.state().input().string(u"command"_s), u"review"_s);
        QCOMPARE(task.state().output(), u"<task_result>\nFound 2 TODOs.\n</task_result>"_s);
        const QList<Session> children = m_run.service->children(m_run.sessionID);
        QCOMPARE(children.size(), 1);
        QCOMPARE(m_run.service->messages(children.first().id()).first().info.agent(), u"general"_s);
        QVERIFY(m_run.server->requests().at(0).body.contains("Review main.cpp for TODOs."));
        // 3. The synthetic request to sum up, 4. the prompt's agent answering from the result.
        QCOMPARE(ms.at(2).parts.first().text(), u"Summarize the task tool output above and continue with your task."_s);
        QVERIFY(ms.at(2).parts.first().isSynthetic());
        QCOMPARE(ms.at(3).info.agent(), u"build"_s);
        QCOMPARE(ms.at(3).info.parentID(), ms.at(2).info.id());
        QCOMPARE(m_run.server->requests().size(), 2);
        const QByteArray parent = m_run.server->requests().at(1).body;
        QVERIFY(parent.contains("The following tool was executed by the user"));
        QVERIFY(parent.contains("Found 2 TODOs."));
        QVERIFY(parent.contains("Summarize the task tool output above"));

        // `subtask: false` keeps a command in the session, on its agent.
        m_run.server->enqueue(FakeReply::sse(textReply({u"It is the entry point."_s})));
        request.text = u"/inline main.cpp"_s;
        QVERIFY(m_processor->prompt(request).ok());
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.at(1).at(1).toBool());
        QCOMPARE(m_run.service->children(m_run.sessionID).size(), 1);
        const QList<MessageWithParts> after = messages();
        QCOMPARE(after.size(), 6);
        QCOMPARE(after.at(4).info.agent(), u"general"_s);
        QCOMPARE(after.at(4).parts.first().text(), u"Explain main.cpp."_s);
    }

    // ---- the session's diff after each step

    void diffAfterEachStep()
    {
        QVERIFY(makeGitRepository(m_project));
        const QString file = m_project + u"/notes.txt"_s;
        m_run.server->enqueue(FakeReply::sse(toolCalls(
            {{u"call_write"_s, u"write"_s, JsonObject{{u"filePath"_s, file}, {u"content"_s, u"one\ntwo\nthree\n"_s}}}})));
        FakeReply second = FakeReply::sse(textReply({u"Wrote it."_s}));
        second.held = true; // step 2 waits until the diff of step 1 was looked at
        m_run.server->enqueue(second);
        QVERIFY(makeProcessor());
        QSignalSpy diffChanged(m_run.service.get(), &SessionService::sessionDiffChanged);
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        QVERIFY(start(u"write notes"_s).ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_run.server->heldReplies() == 1, 20000);
        QVERIFY(m_processor->isBusy(m_run.sessionID));

        // While step 2 runs: session_diff, the session's summary and the turn's diffs.
        QVERIFY(!diffChanged.isEmpty());
        QCOMPARE(diffChanged.last().at(0).toString(), m_run.sessionID);
        const QList<FileDiff> diffs = m_run.service->diff(m_run.sessionID);
        QCOMPARE(diffs.size(), 1);
        QVERIFY(diffs.first().file().endsWith(u"notes.txt"_s));
        QCOMPARE(diffs.first().additions(), 3);
        const Session session = *m_run.service->get(m_run.sessionID);
        QCOMPARE(session.additions(), 3);
        QCOMPARE(session.filesChanged(), 1);
        QCOMPARE(messages().at(0).info.summaryDiffs().size(), 1);

        m_run.server->release();
        QVERIFY(finished.wait(20000));
        QVERIFY(finished.first().at(1).toBool());
        QCOMPARE(m_run.service->diff(m_run.sessionID).size(), 1);
    }

    // ---- the question tool

    void questionAnswered()
    {
        const JsonArray questions = storageQuestions();
        m_run.server->enqueue(
            FakeReply::sse(toolCalls({{u"call_q"_s, u"question"_s, JsonObject{{u"questions"_s, questions}}}})));
        m_run.server->enqueue(FakeReply::sse(textReply({u"Postgres it is."_s})));
        QVERIFY(makeProcessor({}, true));
        QSignalSpy asked(m_processor.get(), &Processor::questionAsked);
        QSignalSpy closed(m_processor.get(), &Processor::questionClosed);
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        QVERIFY(start(u"set up storage"_s).ok());
        QVERIFY(asked.wait(10000));
        // Offered (the build agent allows it), and asked in an OpenCode server's shape.
        QVERIFY(toolNames(m_run.server->requests().at(0)).contains(u"question"_s));
        const JsonObject request = asked.first().first().value<JsonObject>();
        QVERIFY(request.string(u"id").startsWith(u"que_"_s));
        QCOMPARE(request.string(u"sessionID"), m_run.sessionID);
        QCOMPARE(request.value(u"questions").toArray(), questions);
        QCOMPARE(request.object(u"tool").string(u"callID"), u"call_q"_s);
        QCOMPARE(request.object(u"tool").string(u"messageID"), messages().at(1).info.id());
        QVERIFY(!m_processor->answerQuestion(u"que_unknown"_s, {}));
        QVERIFY(m_processor->answerQuestion(request.string(u"id"), {{u"Postgres"_s}, {u"Search"_s, u"Export"_s}, {}}));
        QVERIFY(finished.wait(10000));
        QVERIFY(finished.first().at(1).toBool());
        QCOMPARE(closed.size(), 1);
        QCOMPARE(closed.first().at(1).toString(), request.string(u"id"));
        QVERIFY(!m_processor->answerQuestion(request.string(u"id"), {})); // not waiting any more

        const QString expected = u"User has answered your questions: \"Which database?\"=\"Postgres\", "
                                 u"\"Which features?\"=\"Search, Export\", \"Anything else?\"=\"Unanswered\". "
                                 u"You can now continue with the user's answers in mind."_s;
        const Part tool = toolParts(messages()).first();
        QCOMPARE(tool.state().status(), ToolStatus::Completed);
        QCOMPARE(tool.state().output(), expected);
        QCOMPARE(tool.state().title(), u"Asked 3 questions"_s);
        QCOMPARE(tool.state().metadata().value(u"answers").toArray(),
                 (JsonArray{JsonArray{u"Postgres"_s}, JsonArray{u"Search"_s, u"Export"_s}, JsonArray{}}));
        QCOMPARE(toolResults(m_run.server->requests().at(1)).first().second, expected);
    }

    void questionDismissed()
    {
        const JsonArray questions{JsonObject{
            {u"question"_s, u"Proceed?"_s},
            {u"header"_s, u"Proceed"_s},
            {u"options"_s, JsonArray{JsonObject{{u"label"_s, u"Yes"_s}, {u"description"_s, u"Go on"_s}}}}}};
        m_run.server->enqueue(
            FakeReply::sse(toolCalls({{u"call_q"_s, u"question"_s, JsonObject{{u"questions"_s, questions}}}})));
        QVERIFY(makeProcessor({}, true));
        QSignalSpy asked(m_processor.get(), &Processor::questionAsked);
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        QVERIFY(start(u"do it"_s).ok());
        QVERIFY(asked.wait(10000));
        QVERIFY(m_processor->rejectQuestion(asked.first().first().value<JsonObject>().string(u"id")));
        QVERIFY(finished.wait(10000));
        // As OpenCode: the call fails with "dismissed" and the turn ends without another step.
        QVERIFY(finished.first().at(1).toBool());
        QCOMPARE(m_run.server->requests().size(), 1);
        const Part tool = toolParts(messages()).first();
        QCOMPARE(tool.state().status(), ToolStatus::Error);
        QCOMPARE(tool.state().errorText(), u"The user dismissed this question"_s);
    }

    void questionAbortedWhileWaiting()
    {
        const JsonArray questions{JsonObject{{u"question"_s, u"Wait?"_s}, {u"header"_s, u"Wait"_s}, {u"options"_s, JsonArray{}}}};
        m_run.server->enqueue(
            FakeReply::sse(toolCalls({{u"call_q"_s, u"question"_s, JsonObject{{u"questions"_s, questions}}}})));
        QVERIFY(makeProcessor({}, true));
        QSignalSpy asked(m_processor.get(), &Processor::questionAsked);
        QSignalSpy closed(m_processor.get(), &Processor::questionClosed);
        QSignalSpy finished(m_processor.get(), &Processor::finished);
        QVERIFY(start(u"ask me"_s).ok());
        QVERIFY(asked.wait(10000));
        m_processor->abort(m_run.sessionID);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QCOMPARE(closed.size(), 1);
        QCOMPARE(toolParts(messages()).first().state().status(), ToolStatus::Error);
    }

    void questionNotOfferedWithoutAnyoneToAnswer()
    {
        // A run no one watches (a script's `weft run`): the tool is not offered; a model that
        // calls it anyway reads why it failed.
        const JsonArray questions{JsonObject{{u"question"_s, u"Hm?"_s}, {u"header"_s, u"Hm"_s}, {u"options"_s, JsonArray{}}}};
        m_run.server->enqueue(
            FakeReply::sse(toolCalls({{u"call_q"_s, u"question"_s, JsonObject{{u"questions"_s, questions}}}})));
        m_run.server->enqueue(FakeReply::sse(textReply({u"I will decide myself."_s})));
        QVERIFY(makeProcessor({}, false));
        const QList<QVariant> finished = run(u"ask me"_s);
        QVERIFY(!finished.isEmpty());
        QVERIFY(!toolNames(m_run.server->requests().at(0)).contains(u"question"_s));
        QVERIFY(toolNames(m_run.server->requests().at(0)).contains(u"bash"_s));
        const Part tool = toolParts(messages()).first();
        QCOMPARE(tool.state().status(), ToolStatus::Error);
        QVERIFY(tool.state().errorText().contains(u"Unknown tool \"question\""_s));
    }

    void questionInvalidInput_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("error");
        QTest::addRow("no questions") << QByteArray(R"({"questions":[]})") << u"at least one question"_s;
        QTest::addRow("not an array") << QByteArray(R"({"questions":7})") << u"must be an array"_s;
        QTest::addRow("no header") << QByteArray(R"({"questions":[{"question":"Q","options":[]}]})")
                                   << u"questions[0].header"_s;
        QTest::addRow("option without label")
            << QByteArray(R"({"questions":[{"question":"Q","header":"H","options":[{"description":"d"}]}]})")
            << u"questions[0].options[0].label"_s;
        QTest::addRow("multiple not a boolean")
            << QByteArray(R"({"questions":[{"question":"Q","header":"H","options":[],"multiple":"yes"}]})")
            << u"multiple"_s;
    }

    void questionInvalidInput()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, error);
        const std::optional<JsonValue> parsed = parseJson(input);
        QVERIFY(parsed && parsed->isObject());
        m_run.server->enqueue(FakeReply::sse(toolCalls({{u"call_q"_s, u"question"_s, parsed->toObject()}})));
        m_run.server->enqueue(FakeReply::sse(textReply({u"Oops."_s})));
        QVERIFY(makeProcessor({}, true));
        QSignalSpy asked(m_processor.get(), &Processor::questionAsked);
        const QList<QVariant> finished = run(u"ask"_s);
        QVERIFY(!finished.isEmpty());
        QCOMPARE(asked.size(), 0);
        const Part tool = toolParts(messages()).first();
        QCOMPARE(tool.state().status(), ToolStatus::Error);
        QVERIFY2(tool.state().errorText().contains(error), qPrintable(tool.state().errorText()));
    }
};

QTEST_GUILESS_MAIN(TestAgentLoop)
#include "tst_agentloop.moc"
