// SPDX-License-Identifier: GPL-3.0-or-later
// Runs with reasoning models through the whole loop: Anthropic extended thinking configured as
// in OpenCode (its request, its signed and redacted blocks stored and sent back across a tool
// step), and OpenAI's Responses API for the "openai" provider (a 429 retried, encrypted
// reasoning and the function call sent back, usage and cost recorded).
#include "runfixture.h"

#include "processor/processor.h"
#include "processor/setup.h"
#include "session/sessionservice.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

class TestReasoningRuns : public QObject
{
    Q_OBJECT

private:
    RunFixture m_fx;

    /// A processor for the config of @p providers with @p model as the model.
    std::unique_ptr<Processor> makeProcessor(const QString &model, const JsonObject &providers)
    {
        const QString path = m_fx.writeConfig({{u"model"_s, model}, {u"small_model"_s, model}, {u"provider"_s, providers}});
        if (path.isEmpty())
            return {};
        const Result<ProcessorSetup> setup = loadProcessorSetup(path, m_fx.data->path());
        if (!setup) {
            qWarning() << setup.error().toString();
            return {};
        }
        ProcessorConfig config = setup->config;
        config.generateTitles = false;
        config.retryInitialMs = 5;
        config.retryMaxMs = 50;
        return std::make_unique<Processor>(m_fx.service, config);
    }

    bool run(Processor &processor, const QString &text)
    {
        QSignalSpy finished(&processor, &Processor::finished);
        PromptRequest request;
        request.sessionID = m_fx.sessionID;
        request.text = text;
        if (!processor.prompt(request))
            return false;
        if (!finished.wait(30000) && finished.isEmpty())
            return false;
        if (!finished.first().at(1).toBool())
            qWarning() << finished.first().at(2).value<MessageError>().message();
        return finished.first().at(1).toBool();
    }

    QString writeNotes()
    {
        const QString path = m_fx.project->filePath(u"notes.txt"_s);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write("remember the milk\n");
        return path;
    }

    QList<Part> partsOf(PartType type) const
    {
        QList<Part> out;
        for (const MessageWithParts &m : m_fx.service->messages(m_fx.sessionID)) {
            for (const Part &p : m.parts) {
                if (p.type() == type)
                    out.append(p);
            }
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        clearProviderKeys();
    }

    void init()
    {
        QVERIFY(m_fx.setUp());
    }

    void cleanup()
    {
        m_fx.tearDown();
    }

    void anthropicThinkingAcrossAToolStep()
    {
        const QString notes = writeNotes();
        QVERIFY(!notes.isEmpty());
        const JsonObject model{{u"limit"_s, JsonObject{{u"context"_s, 200000}, {u"output"_s, 8000}}},
                               {u"cost"_s, JsonObject{{u"input"_s, 3}, {u"output"_s, 15}}},
                               {u"options"_s,
                                JsonObject{{u"thinking"_s, JsonObject{{u"type"_s, u"enabled"_s}, {u"budgetTokens"_s, 2048}}}}}};
        const JsonObject claude{
            {u"npm"_s, u"@ai-sdk/anthropic"_s},
            {u"options"_s,
             JsonObject{{u"baseURL"_s, m_fx.server->baseUrl().toString()}, {u"apiKey"_s, u"sk-ant-test"_s}}},
            {u"models"_s, JsonObject{{u"claude-sonnet-4-5"_s, model}}}};
        auto processor = makeProcessor(u"claude/claude-sonnet-4-5"_s, JsonObject{{u"claude"_s, claude}});
        QVERIFY(processor);

        const QString input = QString::fromUtf8(toJson(JsonObject{{u"filePath"_s, notes}}, 0));
        m_fx.server->enqueue(FakeReply::sse(
            AnthropicStream(u"claude-sonnet-4-5"_s)
                .messageStart(900)
                .thinking(0, {u"The user wants "_s, u"the notes."_s}, u"sig-1=="_s)
                .append(sse::event(JsonObject{{u"type"_s, u"content_block_start"_s},
                                              {u"index"_s, 1},
                                              {u"content_block"_s,
                                               JsonObject{{u"type"_s, u"redacted_thinking"_s}, {u"data"_s, u"REDACTED"_s}}}},
                                   "content_block_start"))
                .append(sse::event(JsonObject{{u"type"_s, u"content_block_stop"_s}, {u"index"_s, 1}}, "content_block_stop"))
                .toolUse(2, u"toolu_1"_s, u"read"_s, {input.left(4), input.mid(4)})
                .messageDelta(u"tool_use"_s, 60)
                .messageStop()
                .bytes()));
        m_fx.server->enqueue(FakeReply::sse(AnthropicStream(u"claude-sonnet-4-5"_s)
                                                .messageStart(1000)
                                                .thinking(0, {u"Got it."_s}, u"sig-2=="_s)
                                                .text(1, {u"It says: remember the milk."_s})
                                                .messageDelta(u"end_turn"_s, 20)
                                                .messageStop()
                                                .bytes()));
        QVERIFY(run(*processor, u"What is in notes.txt?"_s));
        QCOMPARE(m_fx.server->requests().size(), 2);

        // The request: thinking in the API's spelling, max_tokens holding text and budget within
        // the model's 8,000 (OpenCode gives the text 8000 − 2048), no sampling parameters.
        const JsonObject first = m_fx.server->requests().at(0).json;
        QCOMPARE(first.object(u"thinking"),
                 (JsonObject{{u"type"_s, u"enabled"_s}, {u"budget_tokens"_s, 2048}}));
        QCOMPARE(first.integer(u"max_tokens"), 8000);
        QVERIFY(!first.contains(u"temperature"));
        QVERIFY(!first.contains(u"budgetTokens"));

        // Stored as OpenCode stores them: the signature (or the redacted data) in the metadata.
        const QList<Part> reasoning = partsOf(PartType::Reasoning);
        QCOMPARE(reasoning.size(), 3);
        QCOMPARE(reasoning.at(0).text(), u"The user wants the notes."_s);
        QCOMPARE(reasoning.at(0).json().object(u"metadata"),
                 (JsonObject{{u"anthropic"_s, JsonObject{{u"signature"_s, u"sig-1=="_s}}}}));
        QCOMPARE(reasoning.at(1).text(), QString());
        QCOMPARE(reasoning.at(1).json().object(u"metadata"),
                 (JsonObject{{u"anthropic"_s, JsonObject{{u"redactedData"_s, u"REDACTED"_s}}}}));
        QCOMPARE(reasoning.at(2).json().object(u"metadata").object(u"anthropic").string(u"signature"), u"sig-2=="_s);

        // The next step of the same turn sends the thinking back, signed, before the tool call.
        const JsonArray messages = m_fx.server->requests().at(1).json.array(u"messages");
        QCOMPARE(messages.size(), 3); // user, assistant, user with the tool result
        const JsonArray assistant = messages.at(1).toObject().array(u"content");
        QCOMPARE(assistant.size(), 3);
        QCOMPARE(assistant.at(0).toObject().string(u"type"), u"thinking"_s);
        QCOMPARE(assistant.at(0).toObject().string(u"thinking"), u"The user wants the notes."_s);
        QCOMPARE(assistant.at(0).toObject().string(u"signature"), u"sig-1=="_s);
        QCOMPARE(assistant.at(1).toObject(),
                 (JsonObject{{u"type"_s, u"redacted_thinking"_s}, {u"data"_s, u"REDACTED"_s}}));
        QCOMPARE(assistant.at(2).toObject().string(u"type"), u"tool_use"_s);
        QCOMPARE(assistant.at(2).toObject().string(u"id"), u"toolu_1"_s);
        const JsonObject result = messages.at(2).toObject().array(u"content").at(0).toObject();
        QCOMPARE(result.string(u"type"), u"tool_result"_s);
        QVERIFY(result.string(u"content").contains(u"remember the milk"_s));
    }

    void responsesApiAcrossAToolStep()
    {
        const QString notes = writeNotes();
        QVERIFY(!notes.isEmpty());
        const JsonObject model{{u"limit"_s, JsonObject{{u"context"_s, 400000}, {u"output"_s, 128000}}},
                               {u"cost"_s, JsonObject{{u"input"_s, 1.25}, {u"output"_s, 10}, {u"cache_read"_s, 0.125}}},
                               {u"options"_s, JsonObject{{u"reasoningSummary"_s, u"auto"_s}}}};
        const JsonObject openai{
            {u"npm"_s, u"@ai-sdk/openai"_s},
            {u"options"_s, JsonObject{{u"baseURL"_s, m_fx.server->baseUrl().toString()}, {u"apiKey"_s, u"sk-oa-test"_s}}},
            {u"models"_s, JsonObject{{u"gpt-5"_s, model}}}};
        auto processor = makeProcessor(u"openai/gpt-5"_s, JsonObject{{u"openai"_s, openai}});
        QVERIFY(processor);

        const QString input = QString::fromUtf8(toJson(JsonObject{{u"filePath"_s, notes}}, 0));
        m_fx.server->enqueue(
            FakeReply::json(429, R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})")
                .withHeader("retry-after-ms", "20"));
        m_fx.server->enqueue(FakeReply::sse(ResponsesStream(u"gpt-5"_s)
                                                .created(u"resp_1"_s)
                                                .reasoning(0, u"rs_1"_s, {{u"Reading the notes."_s}}, u"ENC-1"_s)
                                                .functionCall(1, u"fc_1"_s, u"call_1"_s, u"read"_s,
                                                              {input.left(6), input.mid(6)})
                                                .completed(2000, 80, 0, 40)
                                                .bytes())
                                 .chunked(50));
        m_fx.server->enqueue(FakeReply::sse(ResponsesStream(u"gpt-5"_s)
                                                .created(u"resp_2"_s)
                                                .reasoning(0, u"rs_2"_s, {}, u"ENC-2"_s)
                                                .message(1, u"msg_1"_s, {u"It says: "_s, u"remember the milk."_s})
                                                .completed(2500, 30, 1800, 10)
                                                .bytes()));
        QVERIFY(run(*processor, u"What is in notes.txt?"_s));
        QCOMPARE(m_fx.server->requests().size(), 3);

        for (const FakeRequest &r : m_fx.server->requests()) {
            QCOMPARE(r.path, "/v1/responses"_ba);
            QCOMPARE(r.header("authorization"), "Bearer sk-oa-test"_ba);
        }
        // The 429 was retried as with the other providers: a retry part, then the same request.
        const QList<Part> retries = partsOf(PartType::Retry);
        QCOMPARE(retries.size(), 1);
        QCOMPARE(m_fx.server->requests().at(0).body, m_fx.server->requests().at(1).body);
        const JsonObject first = m_fx.server->requests().at(1).json;
        QCOMPARE(first.value(u"store"), JsonValue(false));
        QCOMPARE(first.object(u"reasoning"), (JsonObject{{u"effort"_s, u"medium"_s}, {u"summary"_s, u"auto"_s}}));
        QCOMPARE(first.array(u"include"), (JsonArray{u"reasoning.encrypted_content"_s}));
        QCOMPARE(first.integer(u"max_output_tokens"), 32000);
        QCOMPARE(first.array(u"input").at(0).toObject().string(u"role"), u"developer"_s);

        // The second step sends the encrypted reasoning, the call and its output back.
        const JsonArray items = m_fx.server->requests().at(2).json.array(u"input");
        QStringList kinds;
        for (const JsonValue &v : items) {
            const JsonObject o = v.toObject();
            kinds.append(o.contains(u"role") ? o.string(u"role") : o.string(u"type"));
        }
        QCOMPARE(kinds, (QStringList{u"developer"_s, u"user"_s, u"reasoning"_s, u"function_call"_s,
                                     u"function_call_output"_s}));
        QCOMPARE(items.at(2).toObject().string(u"encrypted_content"), u"ENC-1"_s);
        QCOMPARE(items.at(2).toObject().array(u"summary").at(0).toObject().string(u"text"), u"Reading the notes."_s);
        QCOMPARE(items.at(3).toObject().string(u"call_id"), u"call_1"_s);
        QCOMPARE(items.at(4).toObject().string(u"call_id"), u"call_1"_s);
        QVERIFY(items.at(4).toObject().string(u"output").contains(u"remember the milk"_s));

        // The reasoning parts keep what the next step needs; a reasoning item without a summary
        // is kept too (its encrypted content matters).
        const QList<Part> reasoning = partsOf(PartType::Reasoning);
        QCOMPARE(reasoning.size(), 2);
        QCOMPARE(reasoning.at(0).json().object(u"metadata").object(u"openai").string(u"reasoningEncryptedContent"),
                 u"ENC-1"_s);
        QCOMPARE(reasoning.at(1).text(), QString());
        QCOMPARE(reasoning.at(1).json().object(u"metadata").object(u"openai").string(u"itemId"), u"rs_2"_s);

        // Usage and cost of the last step: 2500 input of which 1800 cached.
        const QList<Part> finishes = partsOf(PartType::StepFinish);
        QCOMPARE(finishes.size(), 2);
        const Tokens tokens = finishes.last().tokens();
        QCOMPARE(tokens.input, 700);
        QCOMPARE(tokens.output, 30);
        QCOMPARE(tokens.reasoning, 10);
        QCOMPARE(tokens.cacheRead, 1800);
        // (700 × 1.25 + 30 × 10 + 10 × 10 + 1800 × 0.125) / 1e6
        QCOMPARE(finishes.last().cost(), 0.0015);
        QCOMPARE(finishes.last().json().string(u"reason"), u"stop"_s);
        QCOMPARE(finishes.first().json().string(u"reason"), u"tool-calls"_s);
    }
};

QTEST_GUILESS_MAIN(TestReasoningRuns)
#include "tst_reasoningruns.moc"
