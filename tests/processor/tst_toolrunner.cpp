// SPDX-License-Identifier: GPL-3.0-or-later
// The run's tool calls (ToolRunner): calls in parallel with their outcomes in order on the
// runner's thread, the checks before a call (unknown tool, invalid input, aborted, a doom loop
// the user refuses), the states written, and work handed off the runner's thread.

#include "processor/toolrunner.h"

#include <QMutex>
#include <QSemaphore>
#include <QTest>
#include <QThread>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
/// A tool that runs @p body.
class FakeTool : public Tool
{
public:
    FakeTool(QString name, std::function<ToolResult(const JsonObject &)> body)
        : m_name(std::move(name))
        , m_body(std::move(body))
    {
    }
    QString name() const override { return m_name; }
    QString description() const override { return m_name; }
    JsonObject parameters() const override { return {}; }
    ToolResult execute(ToolContext &, const JsonObject &input) override
    {
        ++calls;
        return m_body(input);
    }
    std::atomic_int calls = 0;

private:
    QString m_name;
    std::function<ToolResult(const JsonObject &)> m_body;
};
} // namespace

class TestToolRunner : public QObject
{
    Q_OBJECT

    QMutex m_mutex;
    QHash<QString, Part> m_written; ///< the last state written of each call, by call ID
    QList<PermissionAsk> m_asked;
    PermissionDecision m_answer = PermissionDecision::Allow;
    std::shared_ptr<std::atomic_bool> m_abort;
    std::unique_ptr<ToolRunner> m_runner;

    static Part call(const QString &tool, const JsonObject &input, const QString &callID)
    {
        Part part = Part::make(u"prt_"_s + callID, u"ses_1"_s, u"msg_1"_s, PartType::Tool);
        part.json().insert(u"callID"_s, callID);
        part.json().insert(u"tool"_s, tool);
        part.setState(ToolState::pending(input, {}));
        return part;
    }

    /// Runs @p calls and waits for their outcomes (and checks they came on this thread).
    QList<ToolRunner::Outcome> run(const QList<Part> &calls)
    {
        std::optional<QList<ToolRunner::Outcome>> outcomes;
        QThread *thread = nullptr;
        m_runner->run(u"msg_1"_s, calls, [&](const QList<ToolRunner::Outcome> &ended) {
            outcomes = ended;
            thread = QThread::currentThread();
        });
        if (!QTest::qWaitFor([&] { return outcomes.has_value(); }, 20000))
            return {};
        if (thread != QThread::currentThread())
            return {};
        return *outcomes;
    }

    ToolState written(const QString &callID)
    {
        QMutexLocker locker(&m_mutex);
        return m_written.value(callID).state();
    }

private Q_SLOTS:
    void init()
    {
        m_written.clear();
        m_asked.clear();
        m_answer = PermissionDecision::Allow;
        m_abort = std::make_shared<std::atomic_bool>(false);
        ToolRunner::Host host;
        host.writePart = [this](const Part &part) {
            QMutexLocker locker(&m_mutex);
            m_written.insert(part.callID(), part);
        };
        host.flush = [] {};
        host.context = [this](const QString &messageID, Part &part, const JsonObject &, qint64) {
            ToolContext context;
            context.messageID = messageID;
            context.callID = part.callID();
            context.abortFlag = m_abort;
            return context;
        };
        host.ask = [this](const PermissionAsk &ask, const QString &, const QString &) {
            QMutexLocker locker(&m_mutex);
            m_asked.append(ask);
            return m_answer;
        };
        host.abortFlag = m_abort;
        m_runner = std::make_unique<ToolRunner>(u"ses_1"_s, std::move(host));
    }

    void cleanup() { m_runner.reset(); }

    void callsRunInParallelAndEndInOrder()
    {
        // Each call waits for the other to have started: in sequence the first would time out.
        // The second ends first; the outcomes keep the order of the calls.
        QSemaphore first, second;
        auto a = std::make_shared<FakeTool>(u"a"_s, [&](const JsonObject &) {
            first.release();
            return second.tryAcquire(1, 10000) ? ToolResult::success(u"a"_s, u"A done"_s)
                                               : ToolResult::failure(u"b never started"_s);
        });
        auto b = std::make_shared<FakeTool>(u"b"_s, [&](const JsonObject &) {
            second.release();
            return first.tryAcquire(1, 10000) ? ToolResult::success(u"b"_s, u"B done"_s)
                                              : ToolResult::failure(u"a never started"_s);
        });
        m_runner->setTools({a, b});
        const QList<ToolRunner::Outcome> outcomes = run({call(u"a"_s, {}, u"call_a"_s), call(u"b"_s, {}, u"call_b"_s)});
        QCOMPARE(outcomes.size(), 2);
        QCOMPARE(written(u"call_a"_s).status(), ToolStatus::Completed);
        QCOMPARE(written(u"call_a"_s).output(), u"A done"_s);
        QCOMPARE(written(u"call_b"_s).output(), u"B done"_s);
    }

    void callsAreCheckedFirst()
    {
        auto a = std::make_shared<FakeTool>(u"a"_s, [](const JsonObject &) { return ToolResult::success({}, {}); });
        m_runner->setTools({a});
        Part invalid = call(u"a"_s, {}, u"call_invalid"_s);
        ToolState state = invalid.state();
        state.json().insert(u"inputError"_s, u"not JSON"_s);
        invalid.setState(state);
        const QList<ToolRunner::Outcome> outcomes = run({call(u"nope"_s, {}, u"call_unknown"_s), invalid});
        QCOMPARE(outcomes.size(), 2);
        QCOMPARE(a->calls.load(), 0);
        QCOMPARE(written(u"call_unknown"_s).status(), ToolStatus::Error);
        QCOMPARE(written(u"call_unknown"_s).errorText(), u"Unknown tool \"nope\". Available tools: a"_s);
        QCOMPARE(written(u"call_invalid"_s).errorText(), u"Invalid input for tool a: not JSON"_s);
    }

    void abortedCallsDoNotRun()
    {
        auto a = std::make_shared<FakeTool>(u"a"_s, [](const JsonObject &) { return ToolResult::success({}, {}); });
        m_runner->setTools({a});
        m_abort->store(true);
        QCOMPARE(run({call(u"a"_s, {}, u"call_1"_s)}).size(), 1);
        QCOMPARE(a->calls.load(), 0);
        QCOMPARE(written(u"call_1"_s).errorText(), u"Tool execution aborted"_s);
    }

    void aRefusedDoomLoopStops()
    {
        auto a = std::make_shared<FakeTool>(u"a"_s, [](const JsonObject &) { return ToolResult::success({}, u"ok"_s); });
        m_runner->setTools({a});
        const JsonObject input{{u"x"_s, 1}};
        // Two identical calls over two steps are fine; the third in a row asks, and is refused.
        QVERIFY(run({call(u"a"_s, input, u"call_1"_s)}).first().doomLoop.isEmpty());
        QVERIFY(run({call(u"a"_s, input, u"call_2"_s)}).first().doomLoop.isEmpty());
        QVERIFY(m_asked.isEmpty());
        m_answer = PermissionDecision::Deny;
        const QList<ToolRunner::Outcome> third = run({call(u"a"_s, input, u"call_3"_s)});
        QCOMPARE(third.size(), 1);
        QVERIFY(third.first().doomLoop.startsWith(u"Doom loop detected"_s));
        QCOMPARE(m_asked.size(), 1);
        QCOMPARE(m_asked.first().permission, u"doom_loop"_s);
        QCOMPARE(a->calls.load(), 2);
        QCOMPARE(written(u"call_3"_s).status(), ToolStatus::Error);
    }

    void workOffThreadEndsOnTheRunnersThread()
    {
        QThread *worker = nullptr;
        QThread *ended = nullptr;
        m_runner->offThread<int>([&] {
            worker = QThread::currentThread();
            return 42;
        }, [&](int value) {
            QCOMPARE(value, 42);
            ended = QThread::currentThread();
        });
        QTRY_VERIFY(ended);
        QCOMPARE(ended, QThread::currentThread());
        QVERIFY(worker != QThread::currentThread());
    }
};

QTEST_GUILESS_MAIN(TestToolRunner)
#include "tst_toolrunner.moc"
