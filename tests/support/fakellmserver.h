// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A loopback HTTP/1.1 server that plays scripted LLM replies (OpenAI chat completions, OpenAI
// Responses and Anthropic Messages streams, errors, dropped connections) and records what it was
// sent.

#include "core/json.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTcpServer>
#include <QThread>
#include <QUrl>

#include <utility>

namespace weft::test
{

/// One request the server received.
struct FakeRequest
{
    QByteArray method;
    QByteArray path;
    /// Header names in lower case, in the order received.
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    /// The body parsed as a JSON object (empty when it is not one).
    JsonObject json;

    [[nodiscard]] QByteArray header(QByteArrayView name) const;
    [[nodiscard]] bool hasHeader(QByteArrayView name) const;
};

/// Takes one complete HTTP/1.1 request (headers, and a body of Content-Length bytes) off the
/// front of @p buffer into @p request; false (and nothing taken) while it is incomplete.
bool takeHttpRequest(QByteArray &buffer, FakeRequest &request);
/// The reason phrase of an HTTP status ("Not Found").
[[nodiscard]] QByteArray httpReason(int status);

/// One scripted reply.
struct FakeReply
{
    enum class Framing {
        Chunked, ///< Transfer-Encoding: chunked, one HTTP chunk per TCP write
        CloseDelimited, ///< no length: the body ends when the server closes the connection
        ContentLength, ///< Content-Length
    };

    int status = 200;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    Framing framing = Framing::Chunked;
    /// Bytes per TCP write (0: the whole body at once). Writes cut the body at any byte, so SSE
    /// frames, UTF-8 sequences and "\r\n" pairs end up split.
    qsizetype chunkSize = 0;
    /// Explicit cut positions in the body (overrides chunkSize).
    QList<qsizetype> splitAt;
    /// Milliseconds between writes.
    int delayMs = 1;
    /// Close the connection after this many body bytes, without ending the body (a drop).
    qsizetype dropAfter = -1;
    /// Keep the connection open after the body, never ending it (for abort tests).
    bool hang = false;
    /// Send nothing until FakeLlmServer::release(): the client waits for this reply while the
    /// test looks at what happened before it (the steps before, say).
    bool held = false;

    /// Sets a header, replacing one of the same name.
    FakeReply &withHeader(const QByteArray &name, const QByteArray &value);
    FakeReply &chunked(qsizetype size, int delay = 1);

    /// 200 text/event-stream with @p body.
    [[nodiscard]] static FakeReply sse(const QByteArray &body);
    /// An error (or any) reply with a JSON body and Content-Length.
    [[nodiscard]] static FakeReply json(int status, const QByteArray &body);
};

/// Builders for server-sent events.
namespace sse
{
/// "data: <json>\n\n", with an "event:" line first when @p eventName is given.
[[nodiscard]] QByteArray event(const JsonObject &data, QByteArrayView eventName = {});
/// "data: <raw>\n\n".
[[nodiscard]] QByteArray raw(QByteArrayView data, QByteArrayView eventName = {});
/// "data: [DONE]\n\n".
[[nodiscard]] QByteArray done();
} // namespace sse

/// An OpenAI chat completions stream, chunk by chunk.
class OpenAiStream
{
public:
    explicit OpenAiStream(const QString &model = QStringLiteral("gpt-test"));
    OpenAiStream &role();
    OpenAiStream &text(const QString &piece);
    /// A reasoning piece in @p field ("reasoning_content" or "reasoning").
    OpenAiStream &reasoning(const QString &piece, const QString &field = QStringLiteral("reasoning_content"));
    /// The first piece of tool call @p index, carrying its ID and name.
    OpenAiStream &toolCallStart(int index, const QString &id, const QString &name, const QString &arguments = {});
    OpenAiStream &toolCallArguments(int index, const QString &piece);
    OpenAiStream &finish(const QString &reason);
    /// A final chunk with no choices and the usage.
    OpenAiStream &usage(qint64 prompt, qint64 completion, qint64 cached = -1, qint64 reasoning = -1);
    OpenAiStream &done();
    OpenAiStream &append(const QByteArray &raw);
    [[nodiscard]] QByteArray bytes() const { return m_bytes; }

private:
    OpenAiStream &chunk(const JsonObject &delta, const JsonValue &finishReason = JsonValue(nullptr));
    QString m_model;
    QByteArray m_bytes;
};

/// An Anthropic Messages stream, event by event.
class AnthropicStream
{
public:
    explicit AnthropicStream(const QString &model = QStringLiteral("claude-test"));
    AnthropicStream &messageStart(qint64 input, qint64 cacheRead = 0, qint64 cacheWrite = 0, qint64 output = 1);
    AnthropicStream &ping();
    AnthropicStream &text(int index, const QStringList &pieces);
    AnthropicStream &thinking(int index, const QStringList &pieces, const QString &signature);
    AnthropicStream &toolUse(int index, const QString &id, const QString &name, const QStringList &jsonPieces);
    AnthropicStream &messageDelta(const QString &stopReason, qint64 outputTokens);
    AnthropicStream &messageStop();
    AnthropicStream &error(const QString &type, const QString &message);
    AnthropicStream &append(const QByteArray &raw);
    [[nodiscard]] QByteArray bytes() const { return m_bytes; }

private:
    AnthropicStream &add(const QByteArray &type, const JsonObject &data);
    QString m_model;
    QByteArray m_bytes;
};

/// An OpenAI Responses stream, event by event, as api.openai.com sends it (each event named by
/// an `event:` line and its `type`, with a growing `sequence_number`).
class ResponsesStream
{
public:
    explicit ResponsesStream(const QString &model = QStringLiteral("gpt-5-test"));
    /// response.created and response.in_progress.
    ResponsesStream &created(const QString &responseID = QStringLiteral("resp_test"));
    /// A message item: output_item.added, content_part.added, output_text.delta per piece,
    /// output_text.done, content_part.done, output_item.done.
    ResponsesStream &message(int outputIndex, const QString &itemID, const QStringList &pieces);
    /// A reasoning item with @p encrypted content (none when empty) and one summary part per
    /// entry of @p summaryParts, streamed piece by piece.
    ResponsesStream &reasoning(int outputIndex, const QString &itemID, const QList<QStringList> &summaryParts,
                               const QString &encrypted);
    /// A function_call item whose arguments stream in @p argumentPieces.
    ResponsesStream &functionCall(int outputIndex, const QString &itemID, const QString &callID, const QString &name,
                                  const QStringList &argumentPieces);
    /// response.completed with this usage, or response.incomplete when @p incompleteReason is given.
    ResponsesStream &completed(qint64 input, qint64 output, qint64 cached = 0, qint64 reasoning = 0,
                               const QString &incompleteReason = {});
    /// response.failed with an error.
    ResponsesStream &failed(const QString &code, const QString &message);
    /// An `error` event.
    ResponsesStream &error(const QString &code, const QString &message);
    ResponsesStream &append(const QByteArray &raw);
    [[nodiscard]] QByteArray bytes() const { return m_bytes; }

private:
    ResponsesStream &add(const QString &type, const JsonObject &data);
    [[nodiscard]] JsonObject response(const QString &status) const;
    QString m_model;
    QString m_responseID = QStringLiteral("resp_test");
    qint64 m_sequence = 0;
    QByteArray m_bytes;
};

class FakeConnection;

/// The server. Replies are played in the order they were queued, one per request; a request
/// with no reply queued gets a 500.
class FakeLlmServer : public QObject
{
    Q_OBJECT

public:
    explicit FakeLlmServer(QObject *parent = nullptr);
    ~FakeLlmServer() override;

    /// Listens on 127.0.0.1 at a free port.
    bool listen();
    [[nodiscard]] quint16 port() const;
    /// http://127.0.0.1:<port><path>.
    [[nodiscard]] QUrl baseUrl(const QString &path = QStringLiteral("/v1")) const;

    void enqueue(const FakeReply &reply);
    /// Drops the replies not taken yet.
    void clearReplies() { m_replies.clear(); }
    [[nodiscard]] qsizetype pendingReplies() const { return m_replies.size(); }
    [[nodiscard]] const QList<FakeRequest> &requests() const { return m_requests; }
    /// Connections the client closed before the server ended its reply.
    [[nodiscard]] int clientAborts() const { return m_clientAborts; }
    /// Requests whose reply is held (FakeReply::held) and not released yet.
    [[nodiscard]] qsizetype heldReplies() const { return m_held.size(); }
    /// Starts the held replies.
    void release();

Q_SIGNALS:
    void requestReceived(int index);
    void clientAborted();

private:
    friend class FakeConnection;
    void onNewConnection();
    FakeReply takeReply();
    void recordRequest(const FakeRequest &request);
    void noteClientAbort();

    QTcpServer m_server;
    QList<QPointer<FakeConnection>> m_held;
    QList<FakeReply> m_replies;
    QList<FakeRequest> m_requests;
    int m_clientAborts = 0;
};

/// A FakeLlmServer in a thread of its own, for benchmarks that time the client's thread: a
/// provider is another machine, and its writing a large reply is not the client's stall.
class FakeLlmServerThread
{
public:
    FakeLlmServerThread();
    /// Ends the thread; the server is deleted in it.
    ~FakeLlmServerThread();
    Q_DISABLE_COPY_MOVE(FakeLlmServerThread)

    /// Listens and queues @p reply; the base URL (baseUrl()), or an empty one when it cannot listen.
    QUrl start(const FakeReply &reply);
    /// The server, for connecting to its signals (they arrive queued).
    [[nodiscard]] FakeLlmServer *server() const { return m_server; }

private:
    QThread m_thread;
    FakeLlmServer *m_server;
};

} // namespace weft::test
