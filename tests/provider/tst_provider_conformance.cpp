// SPDX-License-Identifier: GPL-3.0-or-later
// What every wire protocol does alike, run over the three against the loopback server: streamed
// text, a tool call and usage; HTTP errors and their retry-after; a dropped connection, a stalled
// one, a refused one; aborts; redirects that keep the key with its origin. What is particular to
// one protocol is in its own test (tst_provider_openai, _anthropic, _responses).
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

/// One wire protocol: how its provider is made, where it posts, how the key travels, and how
/// its streams and error bodies are written.
struct Wire
{
    ProviderProtocol protocol;
    QByteArray path; ///< where a request goes (below the baseURL's /v1)
    QByteArray keyHeader; ///< the header that carries the key, and its value
    QByteArray keyValue;
    QByteArray deltaEvent; ///< the SSE event name of a text delta (none: only data lines)

    [[nodiscard]] std::unique_ptr<Provider> provider(const QUrl &baseURL, qint64 timeoutMs = 20000) const
    {
        ProviderSettings s;
        s.providerID = u"fake"_s;
        s.protocol = protocol;
        s.baseURL = baseURL;
        s.apiKey = u"sk-test-123"_s;
        s.headers = JsonObject{{u"X-Title"_s, u"weft"_s}};
        s.timeoutMs = timeoutMs;
        switch (protocol) {
        case ProviderProtocol::Anthropic:
            return std::make_unique<AnthropicProvider>(s);
        case ProviderProtocol::OpenAiResponses:
            return std::make_unique<OpenAiResponsesProvider>(s);
        default:
            return std::make_unique<OpenAiCompatibleProvider>(s);
        }
    }

    /// A stream: text in @p pieces, a call of `read` with @p input (none when empty), then the
    /// end of the turn (100 tokens in, 20 out) with @p reason, the protocol's word (null: the
    /// one for what came before; empty: none). Without @p end the stream just stops there (one
    /// the server cuts or holds).
    [[nodiscard]] QByteArray stream(const QStringList &pieces, const QStringList &input = {}, bool end = true,
                                    const QString &reason = {}) const
    {
        switch (protocol) {
        case ProviderProtocol::Anthropic: {
            AnthropicStream s;
            s.messageStart(100).text(0, pieces);
            if (!input.isEmpty())
                s.toolUse(1, u"call_1"_s, u"read"_s, input);
            if (end)
                s.messageDelta(!reason.isNull()      ? reason
                                   : input.isEmpty() ? u"end_turn"_s
                                                     : u"tool_use"_s,
                               20)
                    .messageStop();
            return s.bytes();
        }
        case ProviderProtocol::OpenAiResponses: {
            ResponsesStream s;
            s.created().message(0, u"msg_1"_s, pieces);
            if (!input.isEmpty())
                s.functionCall(1, u"fc_1"_s, u"call_1"_s, u"read"_s, input);
            if (end)
                s.completed(100, 20, 0, 0, reason);
            return s.bytes();
        }
        default: {
            OpenAiStream s;
            s.role();
            for (const QString &piece : pieces)
                s.text(piece);
            if (!input.isEmpty())
                s.toolCallStart(0, u"call_1"_s, u"read"_s);
            for (const QString &piece : input)
                s.toolCallArguments(0, piece);
            if (end && (reason.isNull() || !reason.isEmpty()))
                s.finish(!reason.isNull() ? reason : input.isEmpty() ? u"stop"_s : u"tool_calls"_s);
            if (end)
                s.usage(100, 20).done();
            return s.bytes();
        }
        }
    }

    /// The body of an error answer that says @p message, with OpenAI's @p code or Anthropic's @p type.
    [[nodiscard]] QByteArray errorBody(const QString &code, const QString &type, const QString &message) const
    {
        return toJson(protocol == ProviderProtocol::Anthropic
                          ? JsonObject{{u"type"_s, u"error"_s},
                                       {u"error"_s, JsonObject{{u"type"_s, type}, {u"message"_s, message}}}}
                          : JsonObject{{u"error"_s, JsonObject{{u"message"_s, message}, {u"code"_s, code}}}},
                      0);
    }
};

/// The input of the call of `read` a turn makes, in two pieces.
const QStringList ReadInput{u"{\"filePath\": "_s, u"\"/tmp/a\"}"_s};

const QHash<QString, Wire> &wires()
{
    static const QHash<QString, Wire> all{
        {u"openai-compatible"_s,
         {ProviderProtocol::OpenAiCompatible, "/v1/chat/completions", "authorization", "Bearer sk-test-123", {}}},
        {u"anthropic"_s,
         {ProviderProtocol::Anthropic, "/v1/messages", "x-api-key", "sk-test-123", "content_block_delta"}},
        {u"responses"_s,
         {ProviderProtocol::OpenAiResponses, "/v1/responses", "authorization", "Bearer sk-test-123",
          "response.output_text.delta"}},
    };
    return all;
}

LlmRequest simpleRequest()
{
    return readRequest(u"fake"_s, u"model-test"_s, 2048, u"You are terse."_s, u"Read /tmp/a"_s);
}

/// A row of a data function for each wire protocol: the "wire" column, then @p values.
template<typename... Values> void addRows(const char *tag, const Values &...values)
{
    for (const char *wire : {"openai-compatible", "anthropic", "responses"})
        ((QTest::addRow(*tag ? "%s, %s" : "%s", wire, tag) << QString::fromLatin1(wire)) << ... << values);
}

/// The data of a test with no other column: a row for each wire protocol.
void wireRows()
{
    QTest::addColumn<QString>("wire");
    addRows("");
}

} // namespace

class TestProviderConformance : public ProviderTest
{
    Q_OBJECT

private:
    Wire m_wire;

    std::unique_ptr<Provider> makeProvider(qint64 timeoutMs = 20000) const
    {
        return m_wire.provider(m_server->baseUrl(u"/v1"_s), timeoutMs);
    }

private Q_SLOTS:
    void init()
    {
        ProviderTest::init();
        QFETCH(QString, wire);
        m_wire = wires().value(wire);
    }

    void streamsTextAToolCallAndUsage_data()
    {
        QTest::addColumn<QString>("wire");
        QTest::addColumn<qsizetype>("chunkSize");
        QTest::addColumn<FakeReply::Framing>("framing");
        addRows("whole body", qsizetype(0), FakeReply::Framing::Chunked);
        addRows("1 byte writes", qsizetype(1), FakeReply::Framing::Chunked);
        addRows("7 byte writes, close-delimited", qsizetype(7), FakeReply::Framing::CloseDelimited);
    }

    void streamsTextAToolCallAndUsage()
    {
        QFETCH(qsizetype, chunkSize);
        QFETCH(FakeReply::Framing, framing);
        FakeReply reply = FakeReply::sse(m_wire.stream({u"Hello"_s, u", wö"_s, u"rld 🌍"_s}, ReadInput))
                              .chunked(chunkSize, chunkSize == 1 ? 0 : 1);
        reply.framing = framing;
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY2(!rec.error, qPrintable(rec.error ? rec.error->message() : QString()));
        QVERIFY(rec.finished);
        QCOMPARE(rec.endings, 1);
        QCOMPARE(rec.eventsAfterEnd, 0);
        QCOMPARE(rec.indexOf(Type::Start), 0);
        QCOMPARE(rec.joined(Type::TextDelta), u"Hello, wörld 🌍"_s);
        QCOMPARE(rec.joined(Type::ToolInputDelta), u"{\"filePath\": \"/tmp/a\"}"_s);
        const LlmEvent start = rec.ofType(Type::ToolInputStart).value(0);
        QCOMPARE(start.id, u"call_1"_s);
        QCOMPARE(start.toolName, u"read"_s);
        const QList<LlmEvent> calls = rec.ofType(Type::ToolCall);
        QCOMPARE(calls.size(), 1);
        QCOMPARE(calls.at(0).id, u"call_1"_s);
        QCOMPARE(calls.at(0).toolName, u"read"_s);
        QCOMPARE(calls.at(0).input, (JsonObject{{u"filePath"_s, u"/tmp/a"_s}}));
        QCOMPARE(calls.at(0).rawInput, u"{\"filePath\": \"/tmp/a\"}"_s);
        QVERIFY(calls.at(0).inputError.isEmpty());
        const LlmEvent finish = rec.events.last();
        QCOMPARE(finish.type, Type::FinishStep);
        QCOMPARE(finish.finishReason, u"tool-calls"_s);
        QCOMPARE(finish.usage.inputTokens, 100);
        QCOMPARE(finish.usage.outputTokens, 20);

        // What the server saw.
        QCOMPARE(m_server->requests().size(), 1);
        const FakeRequest &req = m_server->requests().front();
        QCOMPARE(req.method, "POST"_ba);
        QCOMPARE(req.path, m_wire.path);
        QCOMPARE(req.header(m_wire.keyHeader), m_wire.keyValue);
        QCOMPARE(req.header("x-title"), "weft"_ba);
        QVERIFY(req.header("content-type").startsWith("application/json"));
        QVERIFY(req.header("user-agent").startsWith("weft/"));
        QCOMPARE(req.json.string(u"model"), u"model-test"_s);
        QCOMPARE(req.json.value(u"stream"), JsonValue(true));
    }

    void finishReasons_data()
    {
        QTest::addColumn<QString>("wire");
        QTest::addColumn<bool>("toolCall");
        QTest::addColumn<QString>("reason"); // the protocol's word; null: the one for what came before
        QTest::addColumn<QString>("expected");
        const auto add = [](const char *wire, bool toolCall, const QString &reason, const QString &expected) {
            QTest::addRow("%s, %s%s", wire,
                          reason.isNull()        ? "default"
                              : reason.isEmpty() ? "none"
                                                 : qPrintable(reason),
                          toolCall ? ", after a call" : "")
                << QString::fromLatin1(wire) << toolCall << reason << expected;
        };
        add("openai-compatible", false, u"stop"_s, u"stop"_s);
        add("openai-compatible", false, u"length"_s, u"length"_s);
        add("openai-compatible", false, u"content_filter"_s, u"content-filter"_s);
        add("openai-compatible", false, u"tool_calls"_s, u"tool-calls"_s);
        add("openai-compatible", false, u"function_call"_s, u"tool-calls"_s);
        add("openai-compatible", false, u"eos_token"_s, u"unknown"_s);
        add("openai-compatible", false, u""_s, u"unknown"_s);
        add("anthropic", false, u"end_turn"_s, u"stop"_s);
        add("anthropic", false, u"stop_sequence"_s, u"stop"_s);
        add("anthropic", false, u"pause_turn"_s, u"stop"_s);
        add("anthropic", false, u"tool_use"_s, u"tool-calls"_s);
        add("anthropic", false, u"max_tokens"_s, u"length"_s);
        add("anthropic", false, u"refusal"_s, u"content-filter"_s);
        add("anthropic", false, u"something_else"_s, u"unknown"_s);
        // The Responses API says why a response is incomplete; else the output tells.
        add("responses", false, QString(), u"stop"_s);
        add("responses", true, QString(), u"tool-calls"_s);
        add("responses", false, u"max_output_tokens"_s, u"length"_s);
        add("responses", false, u"content_filter"_s, u"content-filter"_s);
        add("responses", true, u"something_new"_s, u"tool-calls"_s);
        add("responses", false, u"something_new"_s, u"unknown"_s);
    }

    void finishReasons()
    {
        QFETCH(bool, toolCall);
        QFETCH(QString, reason);
        QFETCH(QString, expected);
        m_server->enqueue(FakeReply::sse(m_wire.stream({u"ok"_s}, toolCall ? ReadInput : QStringList(), true, reason)));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        QCOMPARE(rec.events.last().type, Type::FinishStep);
        QCOMPARE(rec.events.last().finishReason, expected);
        QCOMPARE(rec.events.last().usage.outputTokens, 20);
    }

    void httpErrors_data()
    {
        QTest::addColumn<QString>("wire");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code"); // OpenAI's
        QTest::addColumn<QString>("type"); // Anthropic's
        QTest::addColumn<QByteArray>("retryHeader");
        QTest::addColumn<QByteArray>("retryValue");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<qint64>("retryAfter"); // -1: none
        addRows("429 retry-after seconds", 429, u"rate_limit_exceeded"_s, u"rate_limit_error"_s, "retry-after"_ba,
                "7"_ba, u"APIError"_s, true, qint64(7000));
        addRows("500 retry-after-ms", 500, u"server_error"_s, u"api_error"_s, "retry-after-ms"_ba, "250"_ba,
                u"APIError"_s, true, qint64(250));
        addRows("401", 401, u"invalid_api_key"_s, u"authentication_error"_s, QByteArray(), QByteArray(),
                u"ProviderAuthError"_s, false, qint64(-1));
        addRows("400", 400, u"invalid_request"_s, u"invalid_request_error"_s, QByteArray(), QByteArray(), u"APIError"_s,
                false, qint64(-1));
        addRows("400 context overflow", 400, u"context_length_exceeded"_s, u"invalid_request_error"_s, QByteArray(),
                QByteArray(), u"ContextOverflowError"_s, false, qint64(-1));
    }

    void httpErrors()
    {
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, type);
        QFETCH(QByteArray, retryHeader);
        QFETCH(QByteArray, retryValue);
        QFETCH(QString, name);
        QFETCH(bool, retryable);
        QFETCH(qint64, retryAfter);
        const QString message = name == u"ContextOverflowError"
            ? u"prompt is too long: 210533 tokens > 200000 maximum"_s
            : u"Something went wrong"_s;
        const QByteArray body = m_wire.errorBody(code, type, message);
        FakeReply reply = FakeReply::json(status, body);
        if (!retryHeader.isEmpty())
            reply.withHeader(retryHeader, retryValue);
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        rec.verifyErrorResponse(name, message, retryable);
        if (QTest::currentTestFailed())
            return;
        const MessageError &e = *rec.error;
        if (name != u"ProviderAuthError")
            QCOMPARE(e.data().string(u"responseBody"), QString::fromUtf8(body));
        if (name == u"APIError") {
            QCOMPARE(e.statusCode(), status);
            if (!retryHeader.isEmpty())
                QCOMPARE(e.data().object(u"responseHeaders").string(QString::fromLatin1(retryHeader)),
                         QString::fromLatin1(retryValue));
        }
        if (name == u"ProviderAuthError")
            QCOMPARE(e.data().string(u"providerID"), u"fake"_s);
        if (retryAfter < 0)
            QVERIFY(!rec.retryAfterMs);
        else
            QCOMPARE(rec.retryAfterMs, std::optional<qint64>(retryAfter));
    }

    void droppedConnection_data()
    {
        QTest::addColumn<QString>("wire");
        QTest::addColumn<FakeReply::Framing>("framing");
        QTest::addColumn<int>("where"); // 0: before any byte; 1: between two events; 2: inside an event
        addRows("chunked, before any byte", FakeReply::Framing::Chunked, 0);
        addRows("chunked, between events", FakeReply::Framing::Chunked, 1);
        addRows("chunked, inside an event", FakeReply::Framing::Chunked, 2);
        addRows("close-delimited, between events", FakeReply::Framing::CloseDelimited, 1);
        addRows("close-delimited, inside an event", FakeReply::Framing::CloseDelimited, 2);
    }

    void droppedConnection()
    {
        QFETCH(FakeReply::Framing, framing);
        QFETCH(int, where);
        const QByteArray body
            = m_wire.stream({u"Hello there, this is a longer answer"_s, u" that is cut"_s, u" off"_s}, ReadInput);
        const qsizetype second = body.indexOf(" that is cut");
        QVERIFY(second > 0);
        FakeReply reply = FakeReply::sse(body).chunked(50);
        reply.framing = framing;
        reply.dropAfter = where == 0 ? 0 : where == 1 ? body.lastIndexOf("\n\n", second) + 2 : second;
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"APIError"_s);
        QVERIFY(rec.error->isRetryable());
        QCOMPARE(rec.endings, 1);
        QCOMPARE(rec.eventsAfterEnd, 0);
        if (where > 0)
            QCOMPARE(rec.indexOf(Type::Start), 0);
        QCOMPARE(rec.joined(Type::TextDelta), where == 0 ? QString() : u"Hello there, this is a longer answer"_s);
        QCOMPARE(rec.indexOf(Type::FinishStep), -1);
    }

    void malformedEvent_data() { wireRows(); }

    void malformedEvent()
    {
        QByteArray body = m_wire.stream({u"before"_s}, {}, false);
        if (!m_wire.deltaEvent.isEmpty())
            body += "event: " + m_wire.deltaEvent + "\n";
        body += "data: {\"type\": nope\n\n" + m_wire.stream({u"after"_s}, ReadInput);
        m_server->enqueue(FakeReply::sse(body).chunked(3));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"UnknownError"_s);
        QVERIFY(!rec.error->isRetryable());
        QVERIFY2(rec.error->message().startsWith(u"Malformed event from fake"_s), qPrintable(rec.error->message()));
        QCOMPARE(rec.joined(Type::TextDelta), u"before"_s);
        QCOMPARE(rec.eventsAfterEnd, 0);
    }

    void invalidToolInput_data() { wireRows(); }

    void invalidToolInput()
    {
        m_server->enqueue(FakeReply::sse(m_wire.stream({u"Editing."_s}, {u"{\"filePath\": \"/a\", "_s})));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        const QList<LlmEvent> calls = rec.ofType(Type::ToolCall);
        QCOMPARE(calls.size(), 1);
        QVERIFY2(calls.front().inputError.startsWith(u"The tool input is not valid JSON"_s),
                 qPrintable(calls.front().inputError));
        QCOMPARE(calls.front().rawInput, u"{\"filePath\": \"/a\", "_s);
        QVERIFY(calls.front().input.isEmpty());
    }

    void stalledConnection_data() { wireRows(); }

    void stalledConnection()
    {
        // Nothing more comes for longer than the timeout: a retryable error, the text kept.
        FakeReply reply = FakeReply::sse(m_wire.stream({u"slow"_s}, {}, false));
        reply.hang = true;
        m_server->enqueue(reply);
        auto provider = makeProvider(300);
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest(), 10000));
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"APIError"_s);
        QVERIFY(rec.error->isRetryable());
        QCOMPARE(rec.joined(Type::TextDelta), u"slow"_s);
    }

    void connectionRefused_data() { wireRows(); }

    void connectionRefused()
    {
        const QUrl url = m_server->baseUrl(u"/v1"_s);
        delete m_server; // nothing listens on that port any more
        m_server = nullptr;
        auto provider = m_wire.provider(url);
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"APIError"_s);
        QVERIFY(rec.error->isRetryable());
        QVERIFY(!rec.error->data().contains(u"statusCode"));
    }

    void abortMidStream_data() { wireRows(); }

    void abortMidStream()
    {
        QStringList pieces;
        for (int i = 0; i < 20; ++i)
            pieces.append(u"piece %1 "_s.arg(i));
        FakeReply reply = FakeReply::sse(m_wire.stream(pieces, {}, false)).chunked(40, 5);
        reply.hang = true; // never ends by itself
        m_server->enqueue(reply);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        int deltas = 0;
        rec.onEvent = [&](const LlmEvent &e) {
            if (e.type == Type::TextDelta && ++deltas == 2)
                provider->abort();
        };
        QSignalSpy aborted(m_server, &FakeLlmServer::clientAborted);
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.error->name(), u"MessageAbortedError"_s);
        QVERIFY(!rec.retryAfterMs);
        QCOMPARE(rec.joined(Type::TextDelta), u"piece 0 piece 1 "_s);
        QVERIFY(!provider->isRunning());
        QVERIFY(!aborted.isEmpty() || aborted.wait(5000)); // the server saw the connection close
        EventRecorder::deliverPending();
        QCOMPARE(rec.endings, 1);
        QCOMPARE(rec.eventsAfterEnd, 0);

        // The same provider runs the next call normally.
        rec.clear();
        rec.onEvent = nullptr;
        m_server->enqueue(FakeReply::sse(m_wire.stream({u"again"_s}, ReadInput)));
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(rec.finished);
        QCOMPARE(rec.joined(Type::TextDelta), u"again"_s);
    }

    void abortBeforeResponse_data() { wireRows(); }

    void abortBeforeResponse()
    {
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        provider->start(simpleRequest());
        provider->abort();
        QCOMPARE(rec.endings, 1); // synchronous
        QCOMPARE(rec.error->name(), u"MessageAbortedError"_s);
        provider->abort(); // nothing running: no second signal
        EventRecorder::deliverPending();
        QCOMPARE(rec.endings, 1);
    }

    // Credentials stay with the baseURL's origin.

    void redirectElsewhereKeepsTheKey_data()
    {
        QTest::addColumn<QString>("wire");
        QTest::addColumn<int>("status");
        for (const int status : {302, 307, 308})
            addRows(QByteArray::number(status).constData(), status);
    }

    void redirectElsewhereKeepsTheKey()
    {
        // A baseURL that redirects to another host:port: neither the key nor the configured
        // headers go there; the call fails, naming both origins, and is not retried.
        QFETCH(int, status);
        FakeLlmServer elsewhere;
        QVERIFY(elsewhere.listen());
        elsewhere.enqueue(FakeReply::sse(m_wire.stream({u"stolen"_s}, ReadInput)));
        FakeReply moved;
        moved.status = status;
        moved.framing = FakeReply::Framing::ContentLength;
        moved.withHeader("Location", elsewhere.baseUrl(QString::fromLatin1(m_wire.path)).toEncoded());
        m_server->enqueue(moved);
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY(!rec.finished);
        QVERIFY(rec.error);
        QCOMPARE(rec.endings, 1);
        QVERIFY(rec.events.isEmpty());
        QVERIFY2(rec.error->message().contains(
                     u"http://127.0.0.1:%1 redirected to http://127.0.0.1:%2, another origin"_s.arg(m_server->port())
                         .arg(elsewhere.port())),
                 qPrintable(rec.error->message()));
        QVERIFY(!rec.error->isRetryable());
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(m_server->requests().at(0).header(m_wire.keyHeader), m_wire.keyValue);
        QCOMPARE(elsewhere.requests().size(), 0);
    }

    void redirectWithinTheOriginIsFollowed_data() { wireRows(); }

    void redirectWithinTheOriginIsFollowed()
    {
        FakeReply moved;
        moved.status = 307;
        moved.framing = FakeReply::Framing::ContentLength;
        const QByteArray path = QByteArray(m_wire.path).replace("/v1/", "/v2/");
        moved.withHeader("Location", path);
        m_server->enqueue(moved);
        m_server->enqueue(FakeReply::sse(m_wire.stream({u"ok"_s}, ReadInput)));
        auto provider = makeProvider();
        EventRecorder rec(provider.get());
        QVERIFY(rec.run(simpleRequest()));
        QVERIFY2(!rec.error, qPrintable(rec.error ? rec.error->message() : QString()));
        QVERIFY(rec.finished);
        QCOMPARE(m_server->requests().size(), 2);
        const FakeRequest &second = m_server->requests().at(1);
        QCOMPARE(second.path, path);
        QCOMPARE(second.header(m_wire.keyHeader), m_wire.keyValue);
        QCOMPARE(second.header("x-title"), "weft"_ba);
        QCOMPARE(second.json.string(u"model"_s), u"model-test"_s); // 307 keeps the body
    }
};

QTEST_GUILESS_MAIN(TestProviderConformance)
#include "tst_provider_conformance.moc"
