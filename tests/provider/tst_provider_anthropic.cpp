// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventrecorder.h"

#include "provider/provider.h"

#include <QSignalSpy>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(weft::test::FakeReply::Framing)

namespace
{

using Type = LlmEvent::Type;

LlmRequest simpleRequest()
{
    return readRequest(u"anthropic"_s, u"claude-test"_s, 8000, u"You are Weft."_s, u"Read /tmp/a"_s);
}

} // namespace

class TestAnthropicProvider : public ProviderTest
{
    Q_OBJECT

private:
    std::unique_ptr<AnthropicProvider> makeProvider()
    {
        ProviderSettings s;
        s.providerID = u"anthropic"_s;
        s.protocol = ProviderProtocol::Anthropic;
        s.npm = u"@ai-sdk/anthropic"_s;
        s.baseURL = m_server->baseUrl(u"/v1"_s);
        s.apiKey = u"sk-ant-test"_s;
        s.timeoutMs = 20000;
        return std::make_unique<AnthropicProvider>(s);
    }

    QByteArray fullStream() const
    {
        return AnthropicStream()
            .messageStart(12, 3000, 500)
            .ping()
            .thinking(0, {u"Let me"_s, u" check ✓"_s}, u"sig-abc=="_s)
            .text(1, {u"I'll read "_s, u"the file."_s})
            .toolUse(2, u"toolu_01"_s, u"read"_s, {u"{\"filePath\":"_s, u" \"/tmp/"_s, u"a\"}"_s})
            .messageDelta(u"tool_use"_s, 87)
            .messageStop()
            .bytes();
    }

private Q_SLOTS:
    void streamsEverything_data()
    {
        QTest::addColumn<qsizetype>("chunkSize");
        QTest::addColumn<FakeReply::Framing>("framing");
        QTest::addRow("whole") << qsizetype(0) << FakeReply::Framing::Chunked;
        QTest::addRow("1 byte writes") << qsizetype(1) << FakeReply::Framing::Chunked;
        QTest::addRow("5 byte writes") << qsizetype(5) << FakeReply::Framing::Chunked;
        QTest::addRow("17 byte writes, close-delimited") << qsizetype(17) << FakeReply::Framing::CloseDelimited;
        QTest::addRow("100 byte writes") << qsizetype(100) << FakeReply::Framing::Chunked;
    }

    void streamsEverything()
    {
        QFETCH(qsizetype, chunkSize);
        QFETCH(FakeReply::Framing, framing);
        FakeReply reply = FakeReply::sse(fullStream()).chunked(chunkSize, chunkSize == 1 ? 0 : 1);
        reply.framing = framing;
        m_server->enqueue(reply);

        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY2(!rec.error, qPrintable(rec.error ? rec.error->message() : QString()));
        QVERIFY(rec.finished);
        QCOMPARE(rec.endings, 1);

        const QStringList expected = {
            u"start"_s,
            u"reasoning-start"_s,
            u"reasoning-delta"_s,
            u"reasoning-delta"_s,
            u"reasoning-end"_s,
            u"text-start"_s,
            u"text-delta"_s,
            u"text-delta"_s,
            u"text-end"_s,
            u"tool-input-start"_s,
            u"tool-input-delta"_s,
            u"tool-input-delta"_s,
            u"tool-input-delta"_s,
            u"tool-input-end"_s,
            u"tool-call"_s,
            u"finish-step"_s,
        };
        QCOMPARE(rec.types(), expected);
        QCOMPARE(rec.joined(Type::ReasoningDelta), u"Let me check ✓"_s);
        QCOMPARE(rec.joined(Type::TextDelta), u"I'll read the file."_s);
        QCOMPARE(rec.ofType(Type::TextStart).front().id, u"1"_s);

        const LlmEvent reasoningEnd = rec.ofType(Type::ReasoningEnd).front();
        QCOMPARE(reasoningEnd.providerMetadata.object(u"anthropic").string(u"signature"), u"sig-abc=="_s);
        QCOMPARE(rec.ofType(Type::ToolCall).front().id, u"toolu_01"_s);

        const LlmEvent finish = rec.events.last();
        QCOMPARE(finish.finishReason, u"tool-calls"_s);
        QCOMPARE(finish.usage.inputTokens, 12);
        QCOMPARE(finish.usage.outputTokens, 87);
        QCOMPARE(finish.usage.cachedInputTokens, 3000);
        QCOMPARE(finish.usage.cacheWriteTokens, 500);
        QCOMPARE(finish.usage.reasoningTokens, 0);
        const JsonObject meta = finish.providerMetadata.object(u"anthropic");
        QCOMPARE(meta.integer(u"cacheCreationInputTokens"), 500);
        QCOMPARE(meta.object(u"usage").integer(u"output_tokens"), 87);
        QCOMPARE(meta.object(u"usage").integer(u"cache_read_input_tokens"), 3000);

        const FakeRequest &req = m_server->requests().front();
        QCOMPARE(req.header("anthropic-version"), "2023-06-01"_ba);
        QVERIFY(!req.hasHeader("authorization"));
        QCOMPARE(req.json.integer(u"max_tokens"), 8000);
        const JsonObject system = req.json.array(u"system").at(0).toObject();
        QCOMPARE(system.string(u"text"), u"You are Weft."_s);
        QCOMPARE(system.object(u"cache_control").string(u"type"), u"ephemeral"_s);
        const JsonObject tool = req.json.array(u"tools").at(0).toObject();
        QCOMPARE(tool.string(u"name"), u"read"_s);
        QCOMPARE(tool.object(u"input_schema").string(u"type"), u"object"_s);
        const JsonArray messages = req.json.array(u"messages");
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).toObject().string(u"role"), u"user"_s);
    }

    void requestBodyConversation()
    {
        auto provider = makeProvider();
        LlmRequest r;
        r.modelID = u"claude-sonnet-4-5"_s;
        r.providerOptions
            = JsonObject{{u"thinking"_s, JsonObject{{u"type"_s, u"enabled"_s}, {u"budget_tokens"_s, 4000}}}};
        r.messages = {
            LlmMessage::system(u"one"_s),
            LlmMessage::system(u"two"_s),
            LlmMessage::system(u"three"_s),
            LlmMessage::user(u"hi"_s),
            LlmMessage::make(
                LlmMessage::Role::Assistant,
                {LlmPart::makeReasoning(u"thinking..."_s,
                                        JsonObject{{u"anthropic"_s, JsonObject{{u"signature"_s, u"SIG"_s}}}}),
                 LlmPart::makeReasoning(u"unsigned, dropped"_s), LlmPart::makeText(u"Let me look."_s),
                 LlmPart::makeToolCall(u"toolu_1"_s, u"read"_s, JsonObject{{u"filePath"_s, u"/a"_s}})}),
            LlmMessage::make(LlmMessage::Role::Tool,
                             {LlmPart::makeToolResult(u"toolu_1"_s, u"read"_s, u"content"_s),
                              LlmPart::makeToolResult(u"toolu_2"_s, u"read"_s, u"no such file"_s, true)}),
            LlmMessage::user(u"and now?"_s),
            LlmMessage::make(LlmMessage::Role::Assistant, {LlmPart::makeText(u"Partial answer  \n"_s)}),
        };
        const std::optional<JsonValue> parsed = parseJson(provider->requestBody(r));
        QVERIFY(parsed && parsed->isObject());
        const JsonObject body = parsed->toObject();
        // The thinking budget comes on top of the text's tokens, as the AI SDK counts it.
        QCOMPARE(body.integer(u"max_tokens"), AnthropicProvider::DefaultMaxTokens + 4000);
        QCOMPARE(body.object(u"thinking").integer(u"budget_tokens"), 4000);
        QVERIFY(!body.contains(u"tools"));

        const JsonArray system = body.array(u"system");
        QCOMPARE(system.size(), 3);
        QVERIFY(system.at(0).toObject().contains(u"cache_control"));
        QVERIFY(system.at(1).toObject().contains(u"cache_control"));
        QVERIFY(!system.at(2).toObject().contains(u"cache_control"));

        const JsonArray messages = body.array(u"messages");
        QCOMPARE(messages.size(), 4); // user, assistant, user (tool results + text), assistant
        const JsonArray assistant = messages.at(1).toObject().array(u"content");
        QCOMPARE(assistant.size(), 3);
        QCOMPARE(assistant.at(0).toObject().string(u"type"), u"thinking"_s);
        QCOMPARE(assistant.at(0).toObject().string(u"signature"), u"SIG"_s);
        QCOMPARE(assistant.at(1).toObject().string(u"text"), u"Let me look."_s);
        QCOMPARE(assistant.at(2).toObject().string(u"type"), u"tool_use"_s);
        QCOMPARE(assistant.at(2).toObject().object(u"input").string(u"filePath"), u"/a"_s);

        const JsonObject userTurn = messages.at(2).toObject();
        QCOMPARE(userTurn.string(u"role"), u"user"_s);
        const JsonArray results = userTurn.array(u"content");
        QCOMPARE(results.size(), 3);
        QCOMPARE(results.at(0).toObject().string(u"type"), u"tool_result"_s);
        QCOMPARE(results.at(0).toObject().string(u"tool_use_id"), u"toolu_1"_s);
        QVERIFY(!results.at(0).toObject().contains(u"is_error"));
        QCOMPARE(results.at(1).toObject().value(u"is_error"), JsonValue(true));
        QCOMPARE(results.at(2).toObject().string(u"text"), u"and now?"_s);
        QVERIFY(results.at(2).toObject().contains(u"cache_control")); // last block of the last two turns
        QVERIFY(!results.at(1).toObject().contains(u"cache_control"));

        const JsonObject last = messages.at(3).toObject().array(u"content").at(0).toObject();
        QCOMPARE(last.string(u"text"), u"Partial answer"_s); // trailing white space trimmed
        QVERIFY(last.contains(u"cache_control"));
        QVERIFY(!messages.at(0).toObject().array(u"content").at(0).toObject().contains(u"cache_control"));
        QCOMPARE(provider->endpoint(), m_server->baseUrl(u"/v1/messages"_s));
    }

    /// OpenCode's model option `thinking` in the AI SDK's spelling becomes the API's parameter;
    /// max_tokens and the sampling parameters follow the AI SDK's rules.
    void thinkingRequest_data()
    {
        QTest::addColumn<JsonObject>("options");
        QTest::addColumn<JsonObject>("thinking");
        QTest::addColumn<qint64>("maxTokens");
        QTest::addColumn<bool>("sampling");
        QTest::addRow("AI SDK spelling")
            << JsonObject{{u"thinking"_s, JsonObject{{u"type"_s, u"enabled"_s}, {u"budgetTokens"_s, 16000}}}}
            << JsonObject{{u"type"_s, u"enabled"_s}, {u"budget_tokens"_s, 16000}} << qint64(32000 + 16000) << false;
        QTest::addRow("API spelling")
            << JsonObject{{u"thinking"_s, JsonObject{{u"type"_s, u"enabled"_s}, {u"budget_tokens"_s, 3000}}}}
            << JsonObject{{u"type"_s, u"enabled"_s}, {u"budget_tokens"_s, 3000}} << qint64(32000 + 3000) << false;
        QTest::addRow("enabled without a budget")
            << JsonObject{{u"thinking"_s, JsonObject{{u"type"_s, u"enabled"_s}}}}
            << JsonObject{{u"type"_s, u"enabled"_s}, {u"budget_tokens"_s, AnthropicProvider::MinThinkingBudget}}
            << qint64(32000 + AnthropicProvider::MinThinkingBudget) << false;
        QTest::addRow("disabled") << JsonObject{{u"thinking"_s, JsonObject{{u"type"_s, u"disabled"_s}}}}
                                  << JsonObject{{u"type"_s, u"disabled"_s}} << qint64(32000) << true;
        QTest::addRow("none") << JsonObject{} << JsonObject{} << qint64(32000) << true;
        QTest::addRow("not an object") << JsonObject{{u"thinking"_s, true}} << JsonObject{} << qint64(32000) << true;
    }

    void thinkingRequest()
    {
        QFETCH(JsonObject, options);
        QFETCH(JsonObject, thinking);
        QFETCH(qint64, maxTokens);
        QFETCH(bool, sampling);
        auto provider = makeProvider();
        LlmRequest r = simpleRequest();
        r.maxOutputTokens = 32000;
        r.temperature = 0.7;
        r.topP = 0.9;
        r.providerOptions = options;
        const JsonObject body = parseJson(provider->requestBody(r))->toObject();
        QCOMPARE(body.object(u"thinking"), thinking);
        QCOMPARE(body.contains(u"thinking"), !thinking.isEmpty());
        QCOMPARE(body.integer(u"max_tokens"), maxTokens);
        QCOMPARE(body.contains(u"temperature"), sampling);
        QCOMPARE(body.contains(u"top_p"), sampling);
        QVERIFY(!toJson(body, 0).contains("budgetTokens"));
        QCOMPARE(AnthropicProvider::thinkingParameter(options), thinking);
    }

    /// OpenCode's ProviderTransform.maxOutputTokens: text and thinking within the model's limit.
    void outputTokenLimit_data()
    {
        QTest::addColumn<ProviderProtocol>("protocol");
        QTest::addColumn<qint64>("budget");
        QTest::addColumn<qint64>("modelLimit");
        QTest::addColumn<qint64>("expected");
        QTest::addRow("no thinking, 64k model") << ProviderProtocol::Anthropic << qint64(0) << qint64(64000)
                                                << qint64(32000);
        QTest::addRow("no thinking, 8k model") << ProviderProtocol::Anthropic << qint64(0) << qint64(8192)
                                               << qint64(8192);
        QTest::addRow("max budget fits beside 32k") << ProviderProtocol::Anthropic << qint64(31999) << qint64(64000)
                                                    << qint64(32000);
        QTest::addRow("budget takes from the text") << ProviderProtocol::Anthropic << qint64(16000) << qint64(32000)
                                                    << qint64(16000);
        QTest::addRow("budget beyond the limit") << ProviderProtocol::Anthropic << qint64(40000) << qint64(32000)
                                                 << qint64(1);
        QTest::addRow("unknown limit") << ProviderProtocol::Anthropic << qint64(16000) << qint64(0) << qint64(0);
        QTest::addRow("not Anthropic") << ProviderProtocol::OpenAiCompatible << qint64(16000) << qint64(32000)
                                       << qint64(32000);
    }

    void outputTokenLimit()
    {
        QFETCH(ProviderProtocol, protocol);
        QFETCH(qint64, budget);
        QFETCH(qint64, modelLimit);
        QFETCH(qint64, expected);
        ProviderSettings settings;
        settings.protocol = protocol;
        JsonObject options;
        if (budget > 0)
            options.insert(u"thinking"_s, JsonObject{{u"type"_s, u"enabled"_s}, {u"budgetTokens"_s, budget}});
        QCOMPARE(Provider::outputTokenLimit(settings, options, modelLimit), expected);
    }

    void redactedThinkingStream()
    {
        const QByteArray redacted
            = sse::event(JsonObject{{u"type"_s, u"content_block_start"_s},
                                    {u"index"_s, 0},
                                    {u"content_block"_s,
                                     JsonObject{{u"type"_s, u"redacted_thinking"_s}, {u"data"_s, u"EncRypted=="_s}}}},
                         "content_block_start")
            + sse::event(JsonObject{{u"type"_s, u"content_block_stop"_s}, {u"index"_s, 0}}, "content_block_stop");
        m_server->enqueue(FakeReply::sse(AnthropicStream()
                                             .messageStart(5)
                                             .append(redacted)
                                             .text(1, {u"Done."_s})
                                             .messageDelta(u"end_turn"_s, 3)
                                             .messageStop()
                                             .bytes())
                              .chunked(7));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        const JsonObject expected{{u"anthropic"_s, JsonObject{{u"redactedData"_s, u"EncRypted=="_s}}}};
        QCOMPARE(rec.ofType(Type::ReasoningStart).front().providerMetadata, expected);
        QCOMPARE(rec.ofType(Type::ReasoningEnd).front().providerMetadata, expected);
        QCOMPARE(rec.joined(Type::ReasoningDelta), QString());

        // Sent back as it came.
        LlmRequest r = simpleRequest();
        r.messages.append(LlmMessage::make(LlmMessage::Role::Assistant,
                                           {LlmPart::makeReasoning(QString(), expected), LlmPart::makeText(u"Done."_s)}));
        r.messages.append(LlmMessage::user(u"more"_s));
        const JsonArray messages = parseJson(provider->requestBody(r))->toObject().array(u"messages");
        QCOMPARE(messages.at(1).toObject().array(u"content").at(0).toObject(),
                 (JsonObject{{u"type"_s, u"redacted_thinking"_s}, {u"data"_s, u"EncRypted=="_s}}));
    }

    void betaHeaders()
    {
        m_server->enqueue(FakeReply::sse(AnthropicStream().messageStart(1).messageDelta(u"end_turn"_s, 1).messageStop().bytes()));
        auto provider = makeProvider(); // the "anthropic" provider
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QCOMPARE(m_server->requests().last().header("anthropic-beta"),
                 "interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14"_ba);

        // Another provider speaking the protocol (a proxy, a gateway) gets none.
        ProviderSettings s = provider->settings();
        s.providerID = u"gateway"_s;
        AnthropicProvider other(s);
        EventRecorder rec2(&other);
        m_server->enqueue(FakeReply::sse(AnthropicStream().messageStart(1).messageDelta(u"end_turn"_s, 1).messageStop().bytes()));
        other.start(simpleRequest());
        QVERIFY(rec2.wait());
        QVERIFY(!m_server->requests().last().hasHeader("anthropic-beta"));
    }

    void httpErrors_data()
    {
        // The errors every protocol answers alike are in tst_provider_conformance.
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("retryHeader");
        QTest::addColumn<QByteArray>("retryValue");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<qint64>("retryAfter");
        QTest::addRow("529 overloaded")
            << 529 << QByteArray() << QByteArray()
            << R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"_ba << u"APIError"_s
            << true << qint64(-1);
    }

    void httpErrors()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, retryHeader);
        QFETCH(QByteArray, retryValue);
        QFETCH(QByteArray, body);
        QFETCH(QString, name);
        QFETCH(bool, retryable);
        QFETCH(qint64, retryAfter);
        FakeReply reply = FakeReply::json(status, body);
        if (!retryHeader.isEmpty())
            reply.withHeader(retryHeader, retryValue);
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        const QString expectedMessage = parseJson(body)->toObject().object(u"error").string(u"message");
        rec.verifyErrorResponse(name, expectedMessage, retryable);
        if (QTest::currentTestFailed())
            return;
        if (name == u"APIError")
            QCOMPARE(rec.error->statusCode(), status);
        if (name == u"ContextOverflowError")
            QCOMPARE(rec.error->data().string(u"responseBody"), QString::fromUtf8(body));
        if (retryAfter < 0)
            QVERIFY(!rec.retryAfterMs);
        else
            QCOMPARE(rec.retryAfterMs, std::optional<qint64>(retryAfter));
    }

    void streamErrorEvents_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<int>("status");
        QTest::addRow("overloaded") << u"overloaded_error"_s << u"Overloaded"_s << u"APIError"_s << true << 529;
        QTest::addRow("rate limit") << u"rate_limit_error"_s << u"Slow down"_s << u"APIError"_s << true << 429;
        QTest::addRow("api error") << u"api_error"_s << u"Internal"_s << u"APIError"_s << true << 500;
        QTest::addRow("invalid request") << u"invalid_request_error"_s << u"Bad"_s << u"APIError"_s << false << 400;
        QTest::addRow("too long") << u"invalid_request_error"_s << u"prompt is too long: 1 > 0"_s
                                  << u"ContextOverflowError"_s << false << 0;
        QTest::addRow("auth") << u"permission_error"_s << u"No"_s << u"ProviderAuthError"_s << false << 0;
    }

    void streamErrorEvents()
    {
        QFETCH(QString, type);
        QFETCH(QString, message);
        QFETCH(QString, name);
        QFETCH(bool, retryable);
        QFETCH(int, status);
        m_server->enqueue(
            FakeReply::sse(
                AnthropicStream().messageStart(5).text(0, {u"partial"_s}).error(type, message).messageStop().bytes())
                .chunked(9));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), name);
        QCOMPARE(rec.error->message(), message);
        QCOMPARE(rec.error->isRetryable(), retryable);
        QCOMPARE(rec.error->statusCode(), status);
        QCOMPARE(rec.joined(Type::TextDelta), u"partial"_s);
        QCOMPARE(rec.eventsAfterEnd, 0);
    }

    void droppedAfterTheLastBlock()
    {
        // Everything but message_stop, then the connection closes (a dropped connection
        // elsewhere in the stream: tst_provider_conformance).
        const QByteArray body = fullStream();
        FakeReply reply = FakeReply::sse(body.first(body.indexOf("event: message_stop"))).chunked(64);
        reply.framing = FakeReply::Framing::CloseDelimited;
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"APIError"_s);
        QVERIFY(rec.error->isRetryable());
        QVERIFY(rec.indexOf(Type::Start) == 0);
        QVERIFY(rec.indexOf(Type::FinishStep) < 0);
    }

    void unknownEventsAndBlocksIgnored()
    {
        QByteArray body = AnthropicStream().messageStart(5).bytes();
        body += "event: brand_new_event\ndata: {\"type\":\"brand_new_event\",\"x\":1}\n\n";
        body += "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                "\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"srv_1\",\"name\":\"web_search\"}}\n\n";
        body += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n";
        body += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n";
        body += AnthropicStream().text(1, {u"done"_s}).messageDelta(u"end_turn"_s, 4).messageStop().bytes();
        m_server->enqueue(FakeReply::sse(body));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        QCOMPARE(rec.types(),
                 (QStringList{u"start"_s, u"text-start"_s, u"text-delta"_s, u"text-end"_s, u"finish-step"_s}));
    }

    void toolUseWithoutInput()
    {
        m_server->enqueue(FakeReply::sse(AnthropicStream()
                                             .messageStart(5)
                                             .toolUse(0, u"toolu_9"_s, u"list"_s, {})
                                             .messageDelta(u"tool_use"_s, 9)
                                             .messageStop()
                                             .bytes()));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        const LlmEvent call = rec.ofType(Type::ToolCall).front();
        QVERIFY(call.input.isEmpty());
        QVERIFY(call.inputError.isEmpty());
        QCOMPARE(call.rawInput, u"{}"_s);
    }
};

QTEST_GUILESS_MAIN(TestAnthropicProvider)
#include "tst_provider_anthropic.moc"
