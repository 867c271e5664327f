// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventrecorder.h"

#include "provider/provider.h"

#include <QLocale>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(weft::test::FakeReply::Framing)

namespace
{

using Type = LlmEvent::Type;
using Headers = QList<std::pair<QByteArray, QByteArray>>;

LlmRequest simpleRequest()
{
    return readRequest(u"fake"_s, u"gpt-test"_s, 2048, u"You are terse."_s, u"Read /tmp/x.txt"_s, true);
}

QString httpDate(const QDateTime &utc)
{
    return QLocale::c().toString(utc.toUTC(), u"ddd, dd MMM yyyy hh:mm:ss 'GMT'"_s);
}

} // namespace

class TestOpenAiProvider : public ProviderTest
{
    Q_OBJECT

private:
    std::unique_ptr<OpenAiCompatibleProvider> makeProvider(const QString &npm = u"@ai-sdk/openai-compatible"_s,
                                                           qint64 timeoutMs = 20000)
    {
        ProviderSettings s;
        s.providerID = u"fake"_s;
        s.protocol = ProviderProtocol::OpenAiCompatible;
        s.npm = npm;
        s.baseURL = m_server->baseUrl(u"/v1"_s);
        s.apiKey = u"sk-test-123"_s;
        s.headers = JsonObject{{u"X-Title"_s, u"weft"_s}};
        s.timeoutMs = timeoutMs;
        return std::make_unique<OpenAiCompatibleProvider>(s);
    }

private Q_SLOTS:
    void streamsEverything_data()
    {
        QTest::addColumn<qsizetype>("chunkSize");
        QTest::addColumn<FakeReply::Framing>("framing");
        QTest::addColumn<QString>("reasoningField");
        QTest::addRow("whole body, chunked") << qsizetype(0) << FakeReply::Framing::Chunked << u"reasoning_content"_s;
        QTest::addRow("1 byte writes") << qsizetype(1) << FakeReply::Framing::Chunked << u"reasoning_content"_s;
        QTest::addRow("2 byte writes") << qsizetype(2) << FakeReply::Framing::Chunked << u"reasoning"_s;
        QTest::addRow("3 byte writes, close-delimited")
            << qsizetype(3) << FakeReply::Framing::CloseDelimited << u"reasoning_content"_s;
        QTest::addRow("7 byte writes") << qsizetype(7) << FakeReply::Framing::Chunked << u"reasoning"_s;
        QTest::addRow("61 byte writes") << qsizetype(61) << FakeReply::Framing::Chunked << u"reasoning_content"_s;
        QTest::addRow("64 byte writes, close-delimited")
            << qsizetype(64) << FakeReply::Framing::CloseDelimited << u"reasoning"_s;
    }

    void streamsEverything()
    {
        QFETCH(qsizetype, chunkSize);
        QFETCH(FakeReply::Framing, framing);
        QFETCH(QString, reasoningField);

        OpenAiStream stream;
        stream.role()
            .reasoning(u"Let me "_s, reasoningField)
            .reasoning(u"think"_s, reasoningField)
            .text(u"Hello"_s)
            .text(u", wö"_s)
            .text(u"rld 🌍"_s)
            .toolCallStart(0, u"call_a"_s, u"read"_s)
            .toolCallArguments(0, u"{\"file"_s)
            .toolCallArguments(0, u"Path\": \"/tmp/"_s)
            .toolCallArguments(0, u"x.txt\"}"_s)
            .toolCallStart(1, u"call_b"_s, u"glob"_s, u"{\"pattern\":\"*.cpp\"}"_s)
            .finish(u"tool_calls"_s)
            .usage(1200, 340, 1000, 120)
            .append(": keep-alive comment\r\n\r\n"_ba)
            .done();
        FakeReply reply = FakeReply::sse(stream.bytes()).chunked(chunkSize, chunkSize == 1 ? 0 : 1);
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
            u"reasoning-start"_s,
            u"reasoning-delta"_s,
            u"reasoning-delta"_s,
            u"reasoning-end"_s,
            u"text-start"_s,
            u"text-delta"_s,
            u"text-delta"_s,
            u"text-delta"_s,
            u"tool-input-start"_s,
            u"tool-input-delta"_s,
            u"tool-input-delta"_s,
            u"tool-input-delta"_s,
            u"tool-input-start"_s,
            u"tool-input-delta"_s,
            u"text-end"_s,
            u"tool-input-end"_s,
            u"tool-call"_s,
            u"tool-input-end"_s,
            u"tool-call"_s,
            u"finish-step"_s,
        };
        QCOMPARE(rec.types(), expected);
        QCOMPARE(rec.joined(Type::ReasoningDelta), u"Let me think"_s);
        QCOMPARE(rec.joined(Type::TextDelta), u"Hello, wörld 🌍"_s);
        QCOMPARE(rec.joined(Type::ToolInputDelta, u"call_a"_s), u"{\"filePath\": \"/tmp/x.txt\"}"_s);

        const QList<LlmEvent> starts = rec.ofType(Type::ToolInputStart);
        QCOMPARE(starts.at(0).id, u"call_a"_s);
        QCOMPARE(starts.at(0).toolName, u"read"_s);
        QCOMPARE(starts.at(1).id, u"call_b"_s);
        QCOMPARE(starts.at(1).toolName, u"glob"_s);

        const QList<LlmEvent> calls = rec.ofType(Type::ToolCall);
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).id, u"call_a"_s);
        QCOMPARE(calls.at(0).toolName, u"read"_s);
        QCOMPARE(calls.at(0).input, (JsonObject{{u"filePath"_s, u"/tmp/x.txt"_s}}));
        QCOMPARE(calls.at(0).rawInput, u"{\"filePath\": \"/tmp/x.txt\"}"_s);
        QVERIFY(calls.at(0).inputError.isEmpty());
        QCOMPARE(calls.at(1).input, (JsonObject{{u"pattern"_s, u"*.cpp"_s}}));

        const LlmEvent finish = rec.events.last();
        QCOMPARE(finish.finishReason, u"tool-calls"_s);
        QCOMPARE(finish.usage.inputTokens, 1200);
        QCOMPARE(finish.usage.outputTokens, 340);
        QCOMPARE(finish.usage.cachedInputTokens, 1000);
        QCOMPARE(finish.usage.reasoningTokens, 120);
        QCOMPARE(finish.usage.cacheWriteTokens, 0);
        QCOMPARE(finish.usage.totalTokens, 1540);
        QVERIFY(!finish.providerMetadata.contains(u"anthropic"));
        QCOMPARE(finish.providerMetadata.object(u"fake").object(u"usage").integer(u"prompt_tokens"), 1200);

        // What the server saw (what every protocol sends alike: tst_provider_conformance).
        const FakeRequest &req = m_server->requests().front();
        QCOMPARE(req.header("accept"), "text/event-stream"_ba);
        QCOMPARE(req.json.object(u"stream_options").value(u"include_usage"), JsonValue(true));
        QCOMPARE(req.json.integer(u"max_tokens"), 2048);
        QVERIFY(!req.json.contains(u"max_completion_tokens"));
        const JsonArray messages = req.json.array(u"messages");
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.at(0).toObject().string(u"role"), u"system"_s);
        QCOMPARE(messages.at(0).toObject().string(u"content"), u"You are terse."_s);
        QCOMPARE(messages.at(1).toObject().string(u"role"), u"user"_s);
        QCOMPARE(messages.at(1).toObject().string(u"content"), u"Read /tmp/x.txt"_s);
        const JsonObject tool = req.json.array(u"tools").at(0).toObject();
        QCOMPARE(tool.string(u"type"), u"function"_s);
        QCOMPARE(tool.object(u"function").string(u"name"), u"read"_s);
        QCOMPARE(tool.object(u"function").object(u"parameters").array(u"required").at(0).toString(), u"filePath"_s);
    }

    void requestBodyConversation()
    {
        auto provider = makeProvider(u"@ai-sdk/openai"_s);
        LlmRequest r;
        r.modelID = u"o4-mini"_s;
        r.maxOutputTokens = 1000;
        r.temperature = 0.5;
        r.toolChoice = u"required"_s;
        r.interleavedReasoningField = u"reasoning_content"_s;
        r.providerOptions = JsonObject{{u"reasoning_effort"_s, u"high"_s}};
        r.tools = {LlmToolDefinition{u"bash"_s, u"Runs a command"_s, {}}};
        r.messages = {
            LlmMessage::system(u"sys"_s),
            LlmMessage::make(
                LlmMessage::Role::User,
                {LlmPart::makeText(u"look"_s), LlmPart::makeFile(u"image/png"_s, u"data:image/png;base64,AAAA"_s)}),
            LlmMessage::make(LlmMessage::Role::Assistant,
                             {LlmPart::makeReasoning(u"hmm"_s), LlmPart::makeText(u"Running."_s),
                              LlmPart::makeToolCall(u"call_1"_s, u"bash"_s, JsonObject{{u"command"_s, u"ls"_s}})}),
            LlmMessage::make(LlmMessage::Role::Tool,
                             {LlmPart::makeToolResult(u"call_1"_s, u"bash"_s, u"a.txt\n"_s),
                              LlmPart::makeToolResult(u"call_2"_s, u"bash"_s, u"boom"_s, true)}),
        };
        const std::optional<JsonValue> parsed = parseJson(provider->requestBody(r));
        QVERIFY(parsed && parsed->isObject());
        const JsonObject body = parsed->toObject();
        QCOMPARE(body.integer(u"max_completion_tokens"), 1000);
        QVERIFY(!body.contains(u"max_tokens"));
        QCOMPARE(body.number(u"temperature"), 0.5);
        QCOMPARE(body.string(u"tool_choice"), u"required"_s);
        QCOMPARE(body.string(u"reasoning_effort"), u"high"_s);
        QCOMPARE(body.array(u"tools").at(0).toObject().object(u"function").object(u"parameters").string(u"type"),
                 u"object"_s);

        const JsonArray messages = body.array(u"messages");
        QCOMPARE(messages.size(), 5);
        const JsonArray userContent = messages.at(1).toObject().array(u"content");
        QCOMPARE(userContent.size(), 2);
        QCOMPARE(userContent.at(1).toObject().object(u"image_url").string(u"url"), u"data:image/png;base64,AAAA"_s);
        const JsonObject assistant = messages.at(2).toObject();
        QCOMPARE(assistant.string(u"content"), u"Running."_s);
        QCOMPARE(assistant.string(u"reasoning_content"), u"hmm"_s);
        const JsonObject call = assistant.array(u"tool_calls").at(0).toObject();
        QCOMPARE(call.string(u"id"), u"call_1"_s);
        QCOMPARE(call.object(u"function").string(u"arguments"), u"{\"command\":\"ls\"}"_s);
        QCOMPARE(messages.at(3).toObject().string(u"role"), u"tool"_s);
        QCOMPARE(messages.at(3).toObject().string(u"tool_call_id"), u"call_1"_s);
        QCOMPARE(messages.at(3).toObject().string(u"content"), u"a.txt\n"_s);
        QCOMPARE(messages.at(4).toObject().string(u"content"), u"boom"_s);
        QCOMPARE(provider->endpoint(), m_server->baseUrl(u"/v1/chat/completions"_s));
    }

    void finishesWithoutDone()
    {
        // Some servers end the body after the finish reason without "data: [DONE]".
        OpenAiStream stream;
        stream.text(u"ok"_s).finish(u"stop"_s).usage(5, 1);
        FakeReply reply = FakeReply::sse(stream.bytes());
        reply.framing = FakeReply::Framing::CloseDelimited;
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        QCOMPARE(rec.events.last().usage.inputTokens, 5);
    }

    void cutInsideAnEventAfterTheFinishReason()
    {
        // The finish reason came, then the body ended in the middle of an event (no [DONE]): what
        // was cut off may have been more of the answer, so the call fails (and may be retried).
        OpenAiStream stream;
        stream.text(u"ok"_s).finish(u"stop"_s).append("data: {\"choices\":[{\"delta\":{\"content\":\"more");
        FakeReply reply = FakeReply::sse(stream.bytes());
        reply.framing = FakeReply::Framing::CloseDelimited;
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"APIError"_s);
        QVERIFY(rec.error->isRetryable());
        QVERIFY2(rec.error->message().contains(u"middle of an event"_s), qPrintable(rec.error->message()));
        QVERIFY(rec.indexOf(Type::FinishStep) < 0);
    }

    void endlessLineIsRefused()
    {
        // A "data:" line 17 MiB long that never ends, on a connection that stays open: the call
        // fails while the server still holds the connection, so the client did not wait for (or
        // buffer) the end of the line; the error names the limit and is not retried.
        QByteArray body = OpenAiStream().text(u"start"_s).bytes();
        body += "data: {\"choices\":[{\"delta\":{\"content\":\"";
        body.append(17 * 1024 * 1024, 'a');
        FakeReply reply = FakeReply::sse(body).chunked(256 * 1024, 0);
        reply.hang = true;
        m_server->enqueue(reply);
        auto provider = makeProvider(u"@ai-sdk/openai-compatible"_s, 60000);
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest(), 60000));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QVERIFY2(rec.error->message().contains(u"16 MiB"_s), qPrintable(rec.error->message()));
        QVERIFY(!rec.error->isRetryable());
        QCOMPARE(rec.joined(Type::TextDelta), u"start"_s);
        QTRY_COMPARE(m_server->clientAborts(), 1); // the client hung up on the endless line
    }

    void httpErrors_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<Headers>("headers");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<QString>("message");
        QTest::addColumn<qint64>("retryAfter"); // -1: none; -2: an HTTP date about 30 s ahead

        const QByteArray rateBody
            = R"({"error":{"message":"Rate limit reached for gpt-test","type":"requests","code":"rate_limit_exceeded"}})";
        QTest::addRow("429 retry-after fraction")
            << 429 << Headers{{"Retry-After", "0.25"}} << rateBody << u"APIError"_s << true
            << u"Rate limit reached for gpt-test"_s << qint64(250);
        QTest::addRow("429 retry-after-ms") << 429 << Headers{{"retry-after-ms", "1500"}} << rateBody << u"APIError"_s
                                            << true << u"Rate limit reached for gpt-test"_s << qint64(1500);
        QTest::addRow("429 retry-after-ms wins")
            << 429 << Headers{{"retry-after", "10"}, {"retry-after-ms", "250.5"}} << rateBody << u"APIError"_s << true
            << u"Rate limit reached for gpt-test"_s << qint64(251);
        QTest::addRow("429 retry-after HTTP date")
            << 429 << Headers{{"retry-after", httpDate(QDateTime::currentDateTimeUtc().addSecs(30)).toLatin1()}}
            << rateBody << u"APIError"_s << true << u"Rate limit reached for gpt-test"_s << qint64(-2);
        QTest::addRow("429 without retry-after") << 429 << Headers{} << rateBody << u"APIError"_s << true
                                                 << u"Rate limit reached for gpt-test"_s << qint64(-1);
        QTest::addRow("502 html") << 502 << Headers{{"Content-Type", "text/html"}} << "<html>bad gateway</html>"_ba
                                  << u"APIError"_s << true << u"Bad Gateway"_s << qint64(-1);
        QTest::addRow("503 retry-after") << 503 << Headers{{"retry-after", "2"}} << "{}"_ba << u"APIError"_s << true
                                         << u"{}"_s << qint64(2000);
        QTest::addRow("403") << 403 << Headers{} << R"({"error":"forbidden region"})"_ba << u"ProviderAuthError"_s
                             << false << u"forbidden region"_s << qint64(-1);
        QTest::addRow("404 plain") << 404 << Headers{} << "model not found"_ba << u"APIError"_s << false
                                   << u"model not found"_s << qint64(-1);
        QTest::addRow("400 llama.cpp overflow")
            << 400 << Headers{}
            << R"({"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}})"_ba
            << u"ContextOverflowError"_s << false
            << u"the request exceeds the available context size, try increasing it"_s << qint64(-1);
    }

    void httpErrors()
    {
        QFETCH(int, status);
        QFETCH(Headers, headers);
        QFETCH(QByteArray, body);
        QFETCH(QString, name);
        QFETCH(bool, retryable);
        QFETCH(QString, message);
        QFETCH(qint64, retryAfter);

        FakeReply reply = FakeReply::json(status, body);
        for (const auto &[k, v] : std::as_const(headers))
            reply.withHeader(k, v);
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        rec.verifyErrorResponse(name, message, retryable);
        if (QTest::currentTestFailed())
            return;
        const MessageError &e = *rec.error;
        if (name == u"APIError") {
            QCOMPARE(e.statusCode(), status);
            QCOMPARE(e.data().string(u"responseBody"), QString::fromUtf8(body));
            for (const auto &[k, v] : std::as_const(headers))
                QCOMPARE(e.data().object(u"responseHeaders").string(QString::fromLatin1(k).toLower()),
                         QString::fromLatin1(v));
        }
        if (name == u"ProviderAuthError")
            QCOMPARE(e.data().string(u"providerID"), u"fake"_s);
        if (retryAfter == -1) {
            QVERIFY(!rec.retryAfterMs);
        } else if (retryAfter == -2) {
            QVERIFY(rec.retryAfterMs);
            QVERIFY2(*rec.retryAfterMs > 25000 && *rec.retryAfterMs <= 31000,
                     qPrintable(QString::number(*rec.retryAfterMs)));
        } else {
            QCOMPARE(rec.retryAfterMs, std::optional<qint64>(retryAfter));
        }
    }

    void retryAfterParsing_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("value");
        QTest::addColumn<qint64>("expected"); // -1 = none
        QTest::addRow("seconds") << u"retry-after"_s << u"3"_s << qint64(3000);
        QTest::addRow("fraction rounds up") << u"retry-after"_s << u"1.0001"_s << qint64(1001);
        QTest::addRow("ms") << u"retry-after-ms"_s << u"20"_s << qint64(20);
        QTest::addRow("IMF date") << u"retry-after"_s << u"Wed, 21 Oct 2015 07:28:30 GMT"_s << qint64(30000);
        QTest::addRow("RFC 850 date") << u"retry-after"_s << u"Wednesday, 21-Oct-15 07:29:00 GMT"_s << qint64(60000);
        QTest::addRow("asctime date") << u"retry-after"_s << u"Wed Oct 21 07:28:10 2015"_s << qint64(10000);
        QTest::addRow("past date") << u"retry-after"_s << u"Wed, 21 Oct 2015 07:27:00 GMT"_s << qint64(-1);
        QTest::addRow("garbage") << u"retry-after"_s << u"soon"_s << qint64(-1);
        QTest::addRow("negative") << u"retry-after-ms"_s << u"-5"_s << qint64(-1);
    }

    void retryAfterParsing()
    {
        QFETCH(QString, header);
        QFETCH(QString, value);
        QFETCH(qint64, expected);
        const QDateTime now(QDate(2015, 10, 21), QTime(7, 28, 0), QTimeZone::UTC);
        const std::optional<qint64> got = Provider::retryAfterMs(JsonObject{{header, value}}, now);
        if (expected < 0)
            QVERIFY(!got);
        else
            QCOMPARE(got, std::optional<qint64>(expected));
    }

    void malformedEvents_data()
    {
        QTest::addColumn<QByteArray>("event");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<QString>("messagePart");
        QTest::addRow("not an object") << "data: [1,2,3]\n\n"_ba << u"UnknownError"_s << false
                                       << u"not a JSON object"_s;
        QTest::addRow("invalid UTF-8 and junk")
            << "data: \xFF\xFE garbage\n\n"_ba << u"UnknownError"_s << false << u"Malformed event"_s;
        QTest::addRow("error chunk")
            << "data: {\"error\":{\"message\":\"Upstream overloaded\",\"type\":\"server_error\"}}\n\n"_ba
            << u"APIError"_s << true << u"Upstream overloaded"_s;
        QTest::addRow("openrouter error code")
            << "data: {\"error\":{\"code\":429,\"message\":\"Rate limited upstream\"}}\n\n"_ba << u"APIError"_s << true
            << u"Rate limited upstream"_s;
        QTest::addRow("error event, context")
            << "event: error\ndata: {\"message\":\"prompt is too long: 300000 tokens\"}\n\n"_ba
            << u"ContextOverflowError"_s << false << u"prompt is too long"_s;
    }

    void malformedEvents()
    {
        QFETCH(QByteArray, event);
        QFETCH(QString, name);
        QFETCH(bool, retryable);
        QFETCH(QString, messagePart);
        OpenAiStream stream;
        stream.text(u"before"_s).append(event).text(u"after"_s).finish(u"stop"_s).done();
        m_server->enqueue(FakeReply::sse(stream.bytes()).chunked(5));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), name);
        QCOMPARE(rec.error->isRetryable(), retryable);
        QVERIFY2(rec.error->message().contains(messagePart), qPrintable(rec.error->message()));
        QCOMPARE(rec.joined(Type::TextDelta), u"before"_s);
        QCOMPARE(rec.eventsAfterEnd, 0);
    }

    void toolCallsWithoutIndex()
    {
        // Ollama-style: each call complete in one chunk, all with index 0.
        OpenAiStream stream;
        stream.toolCallStart(0, u"call_1"_s, u"read"_s, u"{\"filePath\":\"/a\"}"_s)
            .toolCallStart(0, u"call_2"_s, u"read"_s, u"{\"filePath\":\"/b\"}"_s)
            .finish(u"tool_calls"_s)
            .done();
        m_server->enqueue(FakeReply::sse(stream.bytes()));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        const QList<LlmEvent> calls = rec.ofType(Type::ToolCall);
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).id, u"call_1"_s);
        QCOMPARE(calls.at(0).input.string(u"filePath"), u"/a"_s);
        QCOMPARE(calls.at(1).id, u"call_2"_s);
        QCOMPARE(calls.at(1).input.string(u"filePath"), u"/b"_s);
    }

    void eventStreamLabelledAsJson()
    {
        FakeReply reply = FakeReply::sse(OpenAiStream().text(u"odd"_s).finish(u"stop"_s).done().bytes());
        reply.withHeader("Content-Type", "application/json");
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        QCOMPARE(rec.joined(Type::TextDelta), u"odd"_s);

        // A JSON error object with status 200.
        m_server->enqueue(FakeReply::json(200, R"({"error":{"message":"quota exceeded","code":429}})"));
        rec.clear();
        QVERIFY(rec.run(simpleRequest()));
        QCOMPARE(rec.error->name(), u"APIError"_s);
        QCOMPARE(rec.error->message(), u"quota exceeded"_s);
        QVERIFY(rec.error->isRetryable());
    }

    void sharedNetworkManager()
    {
        QNetworkAccessManager nam;
        ProviderSettings s;
        s.providerID = u"fake"_s;
        s.baseURL = m_server->baseUrl(u"/v1/"_s); // a trailing slash is fine
        OpenAiCompatibleProvider provider(s, &nam);
        EventRecorder rec(&provider);
        m_server->enqueue(FakeReply::sse(OpenAiStream().text(u"hi"_s).finish(u"stop"_s).done().bytes()));
        // A receiver on a queued connection (as a GUI-thread receiver of a worker's provider).
        QList<LlmEvent> queued;
        std::optional<MessageError> queuedError;
        QObject receiver;
        connect(
            &provider, &Provider::event, &receiver, [&queued](const LlmEvent &e) { queued.append(e); },
            Qt::QueuedConnection);
        connect(
            &provider, &Provider::failed, &receiver,
            [&queuedError](const MessageError &e, std::optional<qint64>) { queuedError = e; }, Qt::QueuedConnection);
        provider.start(simpleRequest());
        QVERIFY(rec.wait());
        QVERIFY(rec.finished);
        QCOMPARE(queued.size(), rec.events.size());
        QCOMPARE(queued.last().type, Type::FinishStep);
        QCOMPARE(m_server->requests().front().path, "/v1/chat/completions"_ba);
        QVERIFY(m_server->requests().front().header("user-agent").startsWith("weft/"));
        QVERIFY(!m_server->requests().front().hasHeader("authorization")); // no key, no header
    }

};

QTEST_GUILESS_MAIN(TestOpenAiProvider)
#include "tst_provider_openai.moc"
