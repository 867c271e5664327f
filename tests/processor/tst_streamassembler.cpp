// SPDX-License-Identifier: GPL-3.0-or-later
// StreamAssembler alone: provider events in, the parts of an assistant message out.
#include "processor/streamassembler.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
/// What the assembler sent to its sink, in order.
struct Recorder
{
    struct Write
    {
        Part part;
        bool streamed = false;
        QString delta;
    };
    QList<Write> writes;
    int flushes = 0;
    qint64 clock = 1000;

    StreamAssembler assembler()
    {
        StreamAssembler::Sink sink;
        sink.write = [this](const Part &part) { writes.append({part, false, {}}); };
        sink.stream = [this](const Part &part, const QString &delta) { writes.append({part, true, delta}); };
        sink.flush = [this] { ++flushes; };
        return StreamAssembler(u"ses_test"_s, u"msg_test"_s, std::move(sink), [this] { return clock; });
    }
};

LlmEvent llmEvent(LlmEvent::Type type, const QString &id = {}, const QString &text = {})
{
    return LlmEvent::make(type, id, text);
}
} // namespace

class TestStreamAssembler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void textAndReasoning()
    {
        Recorder recorder;
        StreamAssembler parts = recorder.assembler();
        parts.handle(llmEvent(LlmEvent::Type::Start));
        parts.handle(llmEvent(LlmEvent::Type::ReasoningStart, u"r1"_s));
        parts.handle(llmEvent(LlmEvent::Type::ReasoningDelta, u"r1"_s, u"Think"_s));
        LlmEvent reasoningEnd = llmEvent(LlmEvent::Type::ReasoningEnd, u"r1"_s);
        reasoningEnd.providerMetadata = JsonObject{{u"anthropic"_s, JsonObject{{u"signature"_s, u"sig"_s}}}};
        recorder.clock = 1500;
        parts.handle(reasoningEnd);
        parts.handle(llmEvent(LlmEvent::Type::TextStart, u"t1"_s));
        parts.handle(llmEvent(LlmEvent::Type::TextDelta, u"t1"_s, u"Hello"_s));
        parts.handle(llmEvent(LlmEvent::Type::TextDelta, u"t1"_s, u", world  \n"_s));
        recorder.clock = 2000;
        parts.handle(llmEvent(LlmEvent::Type::TextEnd, u"t1"_s));

        QCOMPARE(recorder.writes.size(), 7);
        const Part reasoning = recorder.writes.at(2).part;
        QCOMPARE(reasoning.type(), PartType::Reasoning);
        QCOMPARE(reasoning.sessionID(), u"ses_test"_s);
        QCOMPARE(reasoning.messageID(), u"msg_test"_s);
        QCOMPARE(reasoning.text(), u"Think"_s);
        QCOMPARE(reasoning.timeField(u"start"), 1000);
        QCOMPARE(reasoning.timeField(u"end"), 1500);
        QCOMPARE(reasoning.json().object(u"metadata").object(u"anthropic").string(u"signature"), u"sig"_s);

        // The deltas stream; the part keeps its ID from start to end.
        QVERIFY(recorder.writes.at(5).streamed);
        QCOMPARE(recorder.writes.at(5).delta, u", world  \n"_s);
        QCOMPARE(recorder.writes.at(5).part.text(), u"Hello, world  \n"_s);
        const Part text = recorder.writes.at(6).part;
        QCOMPARE(text.id(), recorder.writes.at(3).part.id());
        QCOMPARE(text.type(), PartType::Text);
        QCOMPARE(text.text(), u"Hello, world"_s); // the end is trimmed
        QCOMPARE(text.timeField(u"end"), 2000);
        QVERIFY(text.id() != reasoning.id());
        QCOMPARE(recorder.flushes, 2); // before each part ends
        QCOMPARE(parts.lastText(), std::optional<QString>(u"Hello, world"_s));
        QVERIFY(!parts.hasToolCalls());
    }

    void toolCalls()
    {
        Recorder recorder;
        StreamAssembler parts = recorder.assembler();
        LlmEvent start = llmEvent(LlmEvent::Type::ToolInputStart, u"call_1"_s);
        start.toolName = u"read"_s;
        parts.handle(start);
        parts.handle(llmEvent(LlmEvent::Type::ToolInputDelta, u"call_1"_s, u"{\"path\":"_s));
        parts.handle(llmEvent(LlmEvent::Type::ToolInputDelta, u"call_1"_s, u"\"a.txt\"}"_s));
        parts.handle(llmEvent(LlmEvent::Type::ToolInputEnd, u"call_1"_s));
        LlmEvent call = llmEvent(LlmEvent::Type::ToolCall, u"call_1"_s);
        call.toolName = u"read"_s;
        call.input = JsonObject{{u"path"_s, u"a.txt"_s}};
        call.rawInput = u"{\"path\":\"a.txt\"}"_s;
        parts.handle(call);
        // A call without streamed input, with input the provider could not parse.
        LlmEvent bad = llmEvent(LlmEvent::Type::ToolCall, u"call_2"_s);
        bad.toolName = u"bash"_s;
        bad.rawInput = u"{oops"_s;
        bad.inputError = u"not JSON"_s;
        parts.handle(bad);
        // Input for an unknown call is ignored.
        parts.handle(llmEvent(LlmEvent::Type::ToolInputDelta, u"call_9"_s, u"x"_s));

        QCOMPARE(recorder.writes.size(), 5);
        QCOMPARE(recorder.writes.at(0).part.state().status(), ToolStatus::Pending);
        QVERIFY(recorder.writes.at(2).streamed);
        QCOMPARE(recorder.writes.at(2).part.state().raw(), u"{\"path\":\"a.txt\"}"_s);
        QVERIFY(parts.hasToolCalls());
        const QList<Part> tools = parts.toolParts();
        QCOMPARE(tools.size(), 2);
        QCOMPARE(tools.at(0).id(), recorder.writes.at(0).part.id());
        QCOMPARE(tools.at(0).callID(), u"call_1"_s);
        QCOMPARE(tools.at(0).tool(), u"read"_s);
        QCOMPARE(tools.at(0).state().input().string(u"path"), u"a.txt"_s);
        QCOMPARE(tools.at(1).callID(), u"call_2"_s);
        QCOMPARE(tools.at(1).tool(), u"bash"_s);
        QCOMPARE(tools.at(1).state().json().string(u"inputError"), u"not JSON"_s);
        QCOMPARE(tools.at(1).state().raw(), u"{oops"_s);
    }

    void stepFrameAndUsage()
    {
        Recorder recorder;
        StreamAssembler parts = recorder.assembler();
        const Part start = parts.startStep(u"snap1"_s);
        QCOMPARE(start.type(), PartType::StepStart);
        QCOMPARE(start.snapshot(), u"snap1"_s);
        QCOMPARE(parts.finishReason(), u"unknown"_s);

        LlmEvent finish = llmEvent(LlmEvent::Type::FinishStep);
        finish.finishReason = u"tool-calls"_s;
        finish.usage.inputTokens = 1000;
        finish.usage.cachedInputTokens = 200;
        finish.usage.outputTokens = 100;
        parts.handle(finish);
        QCOMPARE(parts.finishReason(), u"tool-calls"_s);

        // $3 per million input tokens, $15 per million output, $0.30 per million cache reads.
        const ModelCost cost{CostRates{3, 15, 0.3, 0}, std::nullopt};
        const StepUsage usage = parts.finishStep(cost, u"snap2"_s);
        QCOMPARE(usage.tokens.input, 800); // cached tokens are not input (OpenAI-compatible)
        QCOMPARE(usage.tokens.cacheRead, 200);
        QCOMPARE(usage.tokens.output, 100);
        const Part stepFinish = recorder.writes.last().part;
        QCOMPARE(stepFinish.type(), PartType::StepFinish);
        QCOMPARE(stepFinish.json().string(u"reason"), u"tool-calls"_s);
        QCOMPARE(stepFinish.snapshot(), u"snap2"_s);
        QCOMPARE(stepFinish.cost(), usage.costValue());
        QVERIFY(qFuzzyCompare(stepFinish.cost(), (800 * 3 + 100 * 15 + 200 * 0.3) / 1e6));
        QCOMPARE(Tokens::fromJson(stepFinish.json().object(u"tokens")).input, 800);

        // No snapshot: no snapshot field.
        QVERIFY(!parts.startStep({}).json().contains(u"snapshot"));
    }

    void errorEventAndAbort()
    {
        Recorder recorder;
        StreamAssembler parts = recorder.assembler();
        parts.handle(llmEvent(LlmEvent::Type::TextStart, u"t1"_s));
        parts.handle(llmEvent(LlmEvent::Type::TextDelta, u"t1"_s, u"partial"_s));
        parts.handle(llmEvent(LlmEvent::Type::ReasoningStart, u"r1"_s));
        LlmEvent error = llmEvent(LlmEvent::Type::Error);
        error.error = MessageError::unknown(u"boom"_s);
        parts.handle(error);
        QCOMPARE(parts.error().message(), u"boom"_s);
        QVERIFY(!parts.lastText()); // no text part ended

        recorder.clock = 3000;
        const qsizetype before = recorder.writes.size();
        parts.closeStreaming();
        QCOMPARE(recorder.writes.size(), before + 2);
        for (qsizetype i = before; i < recorder.writes.size(); ++i)
            QCOMPARE(recorder.writes.at(i).part.timeField(u"end"), 3000);
        QCOMPARE(recorder.writes.at(before).part.text(), u"partial"_s);
        // What has ended is not ended again.
        parts.closeStreaming();
        QCOMPARE(recorder.writes.size(), before + 2);
    }
};

QTEST_GUILESS_MAIN(TestStreamAssembler)
#include "tst_streamassembler.moc"
