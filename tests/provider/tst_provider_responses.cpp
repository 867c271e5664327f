// SPDX-License-Identifier: GPL-3.0-or-later
// OpenAI's Responses API against the loopback server: the request body, streamed text, tool
// calls and reasoning summaries, usage and cost, errors, retries and dropped connections.
#include "eventrecorder.h"

#include "provider/config.h"
#include "provider/provider.h"
#include "provider/usage.h"

#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(weft::test::FakeReply::Framing)

namespace
{

using Type = LlmEvent::Type;

LlmRequest simpleRequest(const QString &model = u"gpt-5"_s)
{
    return readRequest(u"openai"_s, model, 32000, u"You are Weft."_s, u"Read /tmp/a"_s);
}

QByteArray fullStream()
{
    return ResponsesStream()
        .created(u"resp_42"_s)
        .reasoning(0, u"rs_1"_s, {{u"**Reading**"_s, u" the file ✓"_s}, {u"Then answer."_s}}, u"gAAAA-encrypted"_s)
        .message(1, u"msg_1"_s, {u"I'll read "_s, u"the file."_s})
        .functionCall(2, u"fc_1"_s, u"call_abc"_s, u"read"_s, {u"{\"filePath\":"_s, u" \"/tmp/"_s, u"a\"}"_s})
        .completed(5000, 300, 4000, 120)
        .bytes();
}

JsonObject bodyOf(const Provider &provider, const LlmRequest &request)
{
    const std::optional<JsonValue> parsed = parseJson(provider.requestBody(request));
    return parsed && parsed->isObject() ? parsed->toObject() : JsonObject{};
}

} // namespace

class TestResponsesProvider : public ProviderTest
{
    Q_OBJECT

private:
    std::unique_ptr<OpenAiResponsesProvider> makeProvider()
    {
        ProviderSettings s;
        s.providerID = u"openai"_s;
        s.protocol = ProviderProtocol::OpenAiResponses;
        s.npm = u"@ai-sdk/openai"_s;
        s.baseURL = m_server->baseUrl(u"/v1"_s);
        s.apiKey = u"sk-openai-test"_s;
        s.timeoutMs = 20000;
        return std::make_unique<OpenAiResponsesProvider>(s);
    }

private Q_SLOTS:
    void streamsEverything_data()
    {
        QTest::addColumn<qsizetype>("chunkSize");
        QTest::addColumn<FakeReply::Framing>("framing");
        QTest::addRow("whole") << qsizetype(0) << FakeReply::Framing::Chunked;
        QTest::addRow("1 byte writes") << qsizetype(1) << FakeReply::Framing::Chunked;
        QTest::addRow("13 byte writes, close-delimited") << qsizetype(13) << FakeReply::Framing::CloseDelimited;
        QTest::addRow("200 byte writes") << qsizetype(200) << FakeReply::Framing::Chunked;
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
        QCOMPARE(rec.eventsAfterEnd, 0);

        const QStringList expected = {
            u"start"_s,
            u"reasoning-start"_s, // rs_1:0
            u"reasoning-delta"_s,
            u"reasoning-delta"_s,
            u"reasoning-start"_s, // rs_1:1
            u"reasoning-delta"_s,
            u"reasoning-end"_s,
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
        QCOMPARE(rec.joined(Type::ReasoningDelta, u"rs_1:0"_s), u"**Reading** the file ✓"_s);
        QCOMPARE(rec.joined(Type::ReasoningDelta, u"rs_1:1"_s), u"Then answer."_s);
        QCOMPARE(rec.joined(Type::TextDelta, u"msg_1"_s), u"I'll read the file."_s);

        // The reasoning carries its item and encrypted content, as the AI SDK's metadata does.
        const QList<LlmEvent> ends = rec.ofType(Type::ReasoningEnd);
        QCOMPARE(ends.size(), 2);
        for (const LlmEvent &end : ends) {
            const JsonObject openai = end.providerMetadata.object(u"openai");
            QCOMPARE(openai.string(u"itemId"), u"rs_1"_s);
            QCOMPARE(openai.string(u"reasoningEncryptedContent"), u"gAAAA-encrypted"_s);
        }
        QCOMPARE(rec.ofType(Type::ReasoningStart).front().providerMetadata.object(u"openai").string(
                     u"reasoningEncryptedContent"),
                 u"gAAAA-encrypted"_s);

        QCOMPARE(rec.ofType(Type::ToolCall).front().id, u"call_abc"_s);

        const LlmEvent finish = rec.events.last();
        QCOMPARE(finish.finishReason, u"tool-calls"_s);
        QCOMPARE(finish.usage.inputTokens, 5000);
        QCOMPARE(finish.usage.outputTokens, 300);
        QCOMPARE(finish.usage.cachedInputTokens, 4000);
        QCOMPARE(finish.usage.reasoningTokens, 120);
        QCOMPARE(finish.usage.totalTokens, 5300);
        const JsonObject meta = finish.providerMetadata.object(u"openai");
        QCOMPARE(meta.string(u"responseId"), u"resp_42"_s);
        QCOMPARE(meta.object(u"usage").integer(u"input_tokens"), 5000);
    }

    /// OpenCode's cost arithmetic on what the stream reported: the cached tokens are part of the
    /// input the Responses API reports, and are charged at the cache rate.
    void usageAndCost()
    {
        m_server->enqueue(FakeReply::sse(fullStream()));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        const LlmEvent finish = rec.events.last();
        const ModelCost gpt5{CostRates{1.25, 10, 0.125, 0}, std::nullopt};
        const StepUsage step = getUsage(gpt5, finish.usage, finish.providerMetadata);
        QCOMPARE(step.tokens.input, 1000); // 5000 reported, 4000 of them cached
        QCOMPARE(step.tokens.output, 300);
        QCOMPARE(step.tokens.reasoning, 120);
        QCOMPARE(step.tokens.cacheRead, 4000);
        QCOMPARE(step.tokens.cacheWrite, 0);
        // 1000 × 1.25 + 300 × 10 + 120 × 10 + 4000 × 0.125, per million
        QCOMPARE(step.cost, Money::fromPico(5950000000)); // $0.00595
    }

    void requestBodyConversation()
    {
        auto provider = makeProvider();
        LlmRequest r = simpleRequest(u"gpt-5"_s);
        r.temperature = 0.3;
        r.topP = 0.9;
        r.toolChoice = u"required"_s;
        r.providerOptions = JsonObject{{u"reasoningSummary"_s, u"auto"_s},
                                       {u"textVerbosity"_s, u"low"_s},
                                       {u"promptCacheKey"_s, u"ses_1"_s},
                                       {u"include"_s, JsonArray{u"web_search_call.results"_s}},
                                       {u"strictJsonSchema"_s, true},
                                       {u"service_tier"_s, u"flex"_s}};
        const JsonObject openaiMeta{{u"openai"_s,
                                     JsonObject{{u"itemId"_s, u"rs_1"_s}, {u"reasoningEncryptedContent"_s, u"ENC1"_s}}}};
        r.messages = {
            LlmMessage::system(u"one"_s),
            LlmMessage::user(u"hi"_s),
            LlmMessage::make(LlmMessage::Role::Assistant,
                             {LlmPart::makeReasoning(u"Summary A"_s, openaiMeta),
                              LlmPart::makeReasoning(u"Summary B"_s, openaiMeta),
                              LlmPart::makeReasoning(u"from another provider"_s,
                                                     JsonObject{{u"anthropic"_s, JsonObject{{u"signature"_s, u"S"_s}}}}),
                              LlmPart::makeText(u"Let me look."_s),
                              LlmPart::makeToolCall(u"call_1"_s, u"read"_s, JsonObject{{u"filePath"_s, u"/a"_s}})}),
            LlmMessage::make(LlmMessage::Role::Tool,
                             {LlmPart::makeToolResult(u"call_1"_s, u"read"_s, u"content"_s),
                              LlmPart::makeToolResult(u"call_2"_s, u"read"_s, u"no such file"_s, true)}),
            LlmMessage::make(LlmMessage::Role::User,
                             {LlmPart::makeText(u"and this?"_s),
                              LlmPart::makeFile(u"image/png"_s, u"data:image/png;base64,iVBORw0KGgo="_s, u"a.png"_s)}),
        };
        const JsonObject body = bodyOf(*provider, r);
        QCOMPARE(body.string(u"model"), u"gpt-5"_s);
        QCOMPARE(body.integer(u"max_output_tokens"), 32000);
        QVERIFY(!body.contains(u"temperature")); // a reasoning model
        QVERIFY(!body.contains(u"top_p"));
        QCOMPARE(body.value(u"store"), JsonValue(false));
        QCOMPARE(body.object(u"reasoning"), (JsonObject{{u"effort"_s, u"medium"_s}, {u"summary"_s, u"auto"_s}}));
        QCOMPARE(body.object(u"text"), (JsonObject{{u"verbosity"_s, u"low"_s}}));
        QCOMPARE(body.string(u"prompt_cache_key"), u"ses_1"_s);
        QCOMPARE(body.string(u"service_tier"), u"flex"_s);
        QVERIFY(!body.contains(u"strictJsonSchema"));
        QCOMPARE(body.array(u"include"),
                 (JsonArray{u"web_search_call.results"_s, u"reasoning.encrypted_content"_s}));
        QCOMPARE(body.value(u"tool_choice"), JsonValue(u"required"_s));
        const JsonObject tool = body.array(u"tools").at(0).toObject();
        QCOMPARE(tool.string(u"type"), u"function"_s);
        QCOMPARE(tool.string(u"name"), u"read"_s);
        QCOMPARE(tool.string(u"description"), u"Reads a file"_s);
        QCOMPARE(tool.object(u"parameters").string(u"type"), u"object"_s);
        QCOMPARE(tool.value(u"strict"), JsonValue(false));

        const JsonArray input = body.array(u"input");
        QStringList kinds;
        for (const JsonValue &v : input) {
            const JsonObject o = v.toObject();
            kinds.append(o.contains(u"role") ? o.string(u"role") : o.string(u"type"));
        }
        QCOMPARE(kinds, (QStringList{u"developer"_s, u"user"_s, u"reasoning"_s, u"assistant"_s, u"function_call"_s,
                                     u"function_call_output"_s, u"function_call_output"_s, u"user"_s}));
        QCOMPARE(input.at(0).toObject().string(u"content"), u"one"_s);
        QCOMPARE(input.at(1).toObject().array(u"content").at(0).toObject(),
                 (JsonObject{{u"type"_s, u"input_text"_s}, {u"text"_s, u"hi"_s}}));
        const JsonObject reasoning = input.at(2).toObject();
        QCOMPARE(reasoning.string(u"encrypted_content"), u"ENC1"_s);
        QVERIFY(!reasoning.contains(u"id")); // not stored on OpenAI's side: no item reference
        QCOMPARE(reasoning.array(u"summary"),
                 (JsonArray{JsonObject{{u"type"_s, u"summary_text"_s}, {u"text"_s, u"Summary A"_s}},
                            JsonObject{{u"type"_s, u"summary_text"_s}, {u"text"_s, u"Summary B"_s}}}));
        QCOMPARE(input.at(3).toObject().array(u"content").at(0).toObject(),
                 (JsonObject{{u"type"_s, u"output_text"_s}, {u"text"_s, u"Let me look."_s}}));
        const JsonObject call = input.at(4).toObject();
        QCOMPARE(call.string(u"call_id"), u"call_1"_s);
        QCOMPARE(call.string(u"name"), u"read"_s);
        QCOMPARE(call.string(u"arguments"), u"{\"filePath\":\"/a\"}"_s);
        QCOMPARE(input.at(5).toObject(),
                 (JsonObject{{u"type"_s, u"function_call_output"_s}, {u"call_id"_s, u"call_1"_s}, {u"output"_s, u"content"_s}}));
        QCOMPARE(input.at(6).toObject().string(u"output"), u"no such file"_s);
        const JsonArray last = input.at(7).toObject().array(u"content");
        QCOMPARE(last.size(), 2);
        QCOMPARE(last.at(1).toObject(), (JsonObject{{u"type"_s, u"input_image"_s},
                                                   {u"image_url"_s, u"data:image/png;base64,iVBORw0KGgo="_s}}));
    }

    void requestBodyPerModel()
    {
        auto provider = makeProvider();
        // A model that does not reason: system role, sampling kept, no reasoning, nothing encrypted.
        LlmRequest r = simpleRequest(u"gpt-4.1"_s);
        r.temperature = 0.3;
        r.providerOptions = JsonObject{{u"reasoningEffort"_s, u"high"_s}};
        JsonObject body = bodyOf(*provider, r);
        QCOMPARE(body.array(u"input").at(0).toObject().string(u"role"), u"system"_s);
        QCOMPARE(body.value(u"temperature"), JsonValue(0.3));
        QVERIFY(!body.contains(u"reasoning"));
        QVERIFY(!body.contains(u"include"));
        QCOMPARE(body.value(u"store"), JsonValue(false));

        // Codex: no default effort; the configured one is sent.
        r = simpleRequest(u"gpt-5-codex"_s);
        QVERIFY(!bodyOf(*provider, r).contains(u"reasoning"));
        r.providerOptions = JsonObject{{u"reasoningEffort"_s, u"high"_s}};
        QCOMPARE(bodyOf(*provider, r).object(u"reasoning"), (JsonObject{{u"effort"_s, u"high"_s}}));

        // The API's own spelling is taken as written; store: true needs no encrypted reasoning.
        r = simpleRequest(u"o3"_s);
        r.providerOptions = JsonObject{{u"store"_s, true}, {u"reasoning"_s, JsonObject{{u"effort"_s, u"low"_s}}}};
        body = bodyOf(*provider, r);
        QCOMPARE(body.value(u"store"), JsonValue(true));
        QCOMPARE(body.object(u"reasoning"), (JsonObject{{u"effort"_s, u"low"_s}}));
        QVERIFY(!body.contains(u"include"));
        QCOMPARE(body.array(u"input").at(0).toObject().string(u"role"), u"developer"_s);

        // Small calls (titles) reason as little as OpenCode's smallOptions ask.
        r = simpleRequest(u"gpt-5-nano"_s);
        r.small = true;
        QCOMPARE(bodyOf(*provider, r).object(u"reasoning"), (JsonObject{{u"effort"_s, u"minimal"_s}}));
        r.modelID = u"gpt-5.1"_s;
        QCOMPARE(bodyOf(*provider, r).object(u"reasoning"), (JsonObject{{u"effort"_s, u"low"_s}}));

        // No limit known: no max_output_tokens; tool choice of one tool.
        r = simpleRequest(u"gpt-5-mini"_s);
        r.maxOutputTokens = 0;
        r.toolChoice = u"read"_s;
        body = bodyOf(*provider, r);
        QVERIFY(!body.contains(u"max_output_tokens"));
        QCOMPARE(body.object(u"tool_choice"), (JsonObject{{u"type"_s, u"function"_s}, {u"name"_s, u"read"_s}}));
        QCOMPARE(provider->endpoint(), m_server->baseUrl(u"/v1/responses"_s));
    }

    void reasoningModels()
    {
        for (const QString &id : {u"o1"_s, u"o3-mini"_s, u"o4-mini"_s, u"gpt-5"_s, u"gpt-5.1-codex"_s,
                                  u"codex-mini-latest"_s, u"openai/gpt-5"_s})
            QVERIFY2(OpenAiResponsesProvider::isReasoningModel(id), qPrintable(id));
        for (const QString &id : {u"gpt-4o"_s, u"gpt-4.1-mini"_s, u"gpt-5-chat-latest"_s, u"chatgpt-4o-latest"_s})
            QVERIFY2(!OpenAiResponsesProvider::isReasoningModel(id), qPrintable(id));
    }

    void streamErrors_data()
    {
        QTest::addColumn<bool>("failedEvent");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<int>("status");
        QTest::addRow("error: rate limit") << false << u"rate_limit_exceeded"_s << u"Slow down"_s << u"APIError"_s
                                           << true << 429;
        QTest::addRow("error: server") << false << u"server_error"_s << u"Oops"_s << u"APIError"_s << true << 500;
        QTest::addRow("failed: server") << true << u"server_error"_s << u"The model failed"_s << u"APIError"_s << true
                                        << 500;
        QTest::addRow("failed: context") << true << u"context_length_exceeded"_s << u"Too long"_s
                                         << u"ContextOverflowError"_s << false << 0;
        QTest::addRow("failed: unknown code") << true << u"invalid_prompt"_s << u"Refused"_s << u"APIError"_s << false
                                              << 0;
    }

    void streamErrors()
    {
        QFETCH(bool, failedEvent);
        QFETCH(QString, code);
        QFETCH(QString, message);
        QFETCH(QString, name);
        QFETCH(bool, retryable);
        QFETCH(int, status);
        ResponsesStream s;
        s.created().message(0, u"msg_1"_s, {u"partial"_s});
        if (failedEvent)
            s.failed(code, message);
        else
            s.error(code, message);
        s.completed(1, 1); // never reached
        m_server->enqueue(FakeReply::sse(s.bytes()).chunked(11));
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
        QCOMPARE(rec.indexOf(Type::FinishStep), -1);
        QCOMPARE(rec.eventsAfterEnd, 0);
    }

    void droppedBeforeCompleted()
    {
        // Everything but response.completed, then the connection closes (a dropped connection
        // elsewhere in the stream: tst_provider_conformance).
        const QByteArray body = fullStream();
        FakeReply reply = FakeReply::sse(body.first(body.indexOf("event: response.completed"))).chunked(64);
        reply.framing = FakeReply::Framing::CloseDelimited;
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"APIError"_s);
        QVERIFY(rec.error->isRetryable());
        QCOMPARE(rec.indexOf(Type::Start), 0);
        QCOMPARE(rec.indexOf(Type::FinishStep), -1);
        QCOMPARE(rec.joined(Type::TextDelta), u"I'll read the file."_s);
    }

    /// The configuration picks the Responses API for the "openai" provider, as OpenCode does.
    void chosenForOpenAi()
    {
        QCOMPARE(ProviderFactory::protocolFor(u"openai", u"@ai-sdk/openai"), ProviderProtocol::OpenAiResponses);
        QCOMPARE(ProviderFactory::protocolFor(u"openai", u"@ai-sdk/openai-compatible"),
                 ProviderProtocol::OpenAiCompatible);
        QCOMPARE(ProviderFactory::protocolFor(u"my-proxy", u"@ai-sdk/openai"), ProviderProtocol::OpenAiCompatible);
        QCOMPARE(ProviderFactory::protocolFor(u"anthropic", u"@ai-sdk/anthropic"), ProviderProtocol::Anthropic);

        const JsonObject options{{u"apiKey"_s, u"sk-x"_s}, {u"baseURL"_s, m_server->baseUrl().toString()}};
        const QByteArray text = toJson(
            JsonObject{{u"provider"_s, JsonObject{{u"openai"_s, JsonObject{{u"options"_s, options}}}}}}, 0);
        const Result<Config> config = Config::parse(text, u"/tmp/weft.json"_s, QProcessEnvironment());
        QVERIFY(config);
        const ProviderFactory factory(config.value(), ModelCatalogue(), QProcessEnvironment());
        const Result<Provider *> created = factory.create(u"openai/gpt-5"_s);
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        std::unique_ptr<Provider> provider(created.value());
        QVERIFY(qobject_cast<OpenAiResponsesProvider *>(provider.get()));
        QCOMPARE(provider->endpoint(), m_server->baseUrl(u"/v1/responses"_s));
    }
};

QTEST_GUILESS_MAIN(TestResponsesProvider)
#include "tst_provider_responses.moc"
