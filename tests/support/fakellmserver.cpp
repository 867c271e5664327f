// SPDX-License-Identifier: GPL-3.0-or-later
#include "fakellmserver.h"

#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace weft::test
{

QByteArray FakeRequest::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool FakeRequest::hasHeader(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

FakeReply &FakeReply::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.removeIf([&name](const auto &h) { return h.first.compare(name, Qt::CaseInsensitive) == 0; });
    headers.append({name, value});
    return *this;
}

FakeReply &FakeReply::chunked(qsizetype size, int delay)
{
    chunkSize = size;
    delayMs = delay;
    return *this;
}

FakeReply FakeReply::sse(const QByteArray &body)
{
    FakeReply r;
    r.status = 200;
    r.body = body;
    r.withHeader("Content-Type", "text/event-stream; charset=utf-8").withHeader("Cache-Control", "no-cache");
    return r;
}

FakeReply FakeReply::json(int status, const QByteArray &body)
{
    FakeReply r;
    r.status = status;
    r.body = body;
    r.framing = Framing::ContentLength;
    r.withHeader("Content-Type", "application/json");
    return r;
}

// ---------------------------------------------------------------------------------------------

namespace sse
{

QByteArray event(const JsonObject &data, QByteArrayView eventName)
{
    return raw(toJson(data, 0), eventName);
}

QByteArray raw(QByteArrayView data, QByteArrayView eventName)
{
    QByteArray out;
    if (!eventName.isEmpty())
        out += "event: " + eventName.toByteArray() + '\n';
    out += "data: " + data.toByteArray() + "\n\n";
    return out;
}

QByteArray done()
{
    return QByteArrayLiteral("data: [DONE]\n\n");
}

} // namespace sse

OpenAiStream::OpenAiStream(const QString &model)
    : m_model(model)
{
}

OpenAiStream &OpenAiStream::chunk(const JsonObject &delta, const JsonValue &finishReason)
{
    const JsonObject choice{{u"index"_s, 0}, {u"delta"_s, delta}, {u"finish_reason"_s, finishReason}};
    const JsonObject data{{u"id"_s, u"chatcmpl-test"_s},
                          {u"object"_s, u"chat.completion.chunk"_s},
                          {u"created"_s, 1700000000},
                          {u"model"_s, m_model},
                          {u"choices"_s, JsonArray{choice}}};
    m_bytes += sse::event(data);
    return *this;
}

OpenAiStream &OpenAiStream::role()
{
    return chunk(JsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u""_s}});
}

OpenAiStream &OpenAiStream::text(const QString &piece)
{
    return chunk(JsonObject{{u"content"_s, piece}});
}

OpenAiStream &OpenAiStream::reasoning(const QString &piece, const QString &field)
{
    return chunk(JsonObject{{u"content"_s, nullptr}, {field, piece}});
}

OpenAiStream &OpenAiStream::toolCallStart(int index, const QString &id, const QString &name, const QString &arguments)
{
    const JsonObject call{{u"index"_s, index},
                          {u"id"_s, id},
                          {u"type"_s, u"function"_s},
                          {u"function"_s, JsonObject{{u"name"_s, name}, {u"arguments"_s, arguments}}}};
    return chunk(JsonObject{{u"tool_calls"_s, JsonArray{call}}});
}

OpenAiStream &OpenAiStream::toolCallArguments(int index, const QString &piece)
{
    const JsonObject call{{u"index"_s, index}, {u"function"_s, JsonObject{{u"arguments"_s, piece}}}};
    return chunk(JsonObject{{u"tool_calls"_s, JsonArray{call}}});
}

OpenAiStream &OpenAiStream::finish(const QString &reason)
{
    return chunk(JsonObject{}, reason);
}

OpenAiStream &OpenAiStream::usage(qint64 prompt, qint64 completion, qint64 cached, qint64 reasoning)
{
    JsonObject usage{
        {u"prompt_tokens"_s, prompt}, {u"completion_tokens"_s, completion}, {u"total_tokens"_s, prompt + completion}};
    if (cached >= 0)
        usage.insert(u"prompt_tokens_details"_s, JsonObject{{u"cached_tokens"_s, cached}});
    if (reasoning >= 0)
        usage.insert(u"completion_tokens_details"_s, JsonObject{{u"reasoning_tokens"_s, reasoning}});
    const JsonObject data{{u"id"_s, u"chatcmpl-test"_s},
                          {u"object"_s, u"chat.completion.chunk"_s},
                          {u"model"_s, m_model},
                          {u"choices"_s, JsonArray{}},
                          {u"usage"_s, usage}};
    m_bytes += sse::event(data);
    return *this;
}

OpenAiStream &OpenAiStream::done()
{
    m_bytes += sse::done();
    return *this;
}

OpenAiStream &OpenAiStream::append(const QByteArray &raw)
{
    m_bytes += raw;
    return *this;
}

AnthropicStream::AnthropicStream(const QString &model)
    : m_model(model)
{
}

AnthropicStream &AnthropicStream::add(const QByteArray &type, const JsonObject &data)
{
    JsonObject withType{{u"type"_s, QString::fromLatin1(type)}};
    for (qsizetype i = 0; i < data.size(); ++i)
        withType.insert(data.keyAt(i), data.valueAt(i));
    m_bytes += sse::event(withType, type);
    return *this;
}

AnthropicStream &AnthropicStream::messageStart(qint64 input, qint64 cacheRead, qint64 cacheWrite, qint64 output)
{
    const JsonObject usage{{u"input_tokens"_s, input},
                           {u"cache_creation_input_tokens"_s, cacheWrite},
                           {u"cache_read_input_tokens"_s, cacheRead},
                           {u"output_tokens"_s, output}};
    const JsonObject message{{u"id"_s, u"msg_test"_s},      {u"type"_s, u"message"_s},   {u"role"_s, u"assistant"_s},
                             {u"model"_s, m_model},         {u"content"_s, JsonArray{}}, {u"stop_reason"_s, nullptr},
                             {u"stop_sequence"_s, nullptr}, {u"usage"_s, usage}};
    return add("message_start", JsonObject{{u"message"_s, message}});
}

AnthropicStream &AnthropicStream::ping()
{
    return add("ping", {});
}

AnthropicStream &AnthropicStream::text(int index, const QStringList &pieces)
{
    add("content_block_start",
        JsonObject{{u"index"_s, index}, {u"content_block"_s, JsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u""_s}}}});
    for (const QString &piece : pieces)
        add("content_block_delta",
            JsonObject{{u"index"_s, index},
                       {u"delta"_s, JsonObject{{u"type"_s, u"text_delta"_s}, {u"text"_s, piece}}}});
    return add("content_block_stop", JsonObject{{u"index"_s, index}});
}

AnthropicStream &AnthropicStream::thinking(int index, const QStringList &pieces, const QString &signature)
{
    add("content_block_start",
        JsonObject{{u"index"_s, index},
                   {u"content_block"_s, JsonObject{{u"type"_s, u"thinking"_s}, {u"thinking"_s, u""_s}}}});
    for (const QString &piece : pieces)
        add("content_block_delta",
            JsonObject{{u"index"_s, index},
                       {u"delta"_s, JsonObject{{u"type"_s, u"thinking_delta"_s}, {u"thinking"_s, piece}}}});
    if (!signature.isEmpty())
        add("content_block_delta",
            JsonObject{{u"index"_s, index},
                       {u"delta"_s, JsonObject{{u"type"_s, u"signature_delta"_s}, {u"signature"_s, signature}}}});
    return add("content_block_stop", JsonObject{{u"index"_s, index}});
}

AnthropicStream &AnthropicStream::toolUse(int index, const QString &id, const QString &name,
                                          const QStringList &jsonPieces)
{
    add("content_block_start",
        JsonObject{
            {u"index"_s, index},
            {u"content_block"_s,
             JsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, id}, {u"name"_s, name}, {u"input"_s, JsonObject{}}}}});
    for (const QString &piece : jsonPieces)
        add("content_block_delta",
            JsonObject{{u"index"_s, index},
                       {u"delta"_s, JsonObject{{u"type"_s, u"input_json_delta"_s}, {u"partial_json"_s, piece}}}});
    return add("content_block_stop", JsonObject{{u"index"_s, index}});
}

AnthropicStream &AnthropicStream::messageDelta(const QString &stopReason, qint64 outputTokens)
{
    return add("message_delta",
               JsonObject{{u"delta"_s, JsonObject{{u"stop_reason"_s, stopReason}, {u"stop_sequence"_s, nullptr}}},
                          {u"usage"_s, JsonObject{{u"output_tokens"_s, outputTokens}}}});
}

AnthropicStream &AnthropicStream::messageStop()
{
    return add("message_stop", {});
}

AnthropicStream &AnthropicStream::error(const QString &type, const QString &message)
{
    return add("error", JsonObject{{u"error"_s, JsonObject{{u"type"_s, type}, {u"message"_s, message}}}});
}

AnthropicStream &AnthropicStream::append(const QByteArray &raw)
{
    m_bytes += raw;
    return *this;
}

ResponsesStream::ResponsesStream(const QString &model)
    : m_model(model)
{
}

ResponsesStream &ResponsesStream::add(const QString &type, const JsonObject &data)
{
    JsonObject withType{{u"type"_s, type}, {u"sequence_number"_s, m_sequence++}};
    for (qsizetype i = 0; i < data.size(); ++i)
        withType.insert(data.keyAt(i), data.valueAt(i));
    m_bytes += sse::event(withType, type.toUtf8());
    return *this;
}

JsonObject ResponsesStream::response(const QString &status) const
{
    return JsonObject{{u"id"_s, m_responseID},        {u"object"_s, u"response"_s}, {u"created_at"_s, 1700000000},
                      {u"status"_s, status},          {u"model"_s, m_model},        {u"output"_s, JsonArray{}},
                      {u"incomplete_details"_s, nullptr}, {u"usage"_s, nullptr}};
}

ResponsesStream &ResponsesStream::created(const QString &responseID)
{
    m_responseID = responseID;
    add(u"response.created"_s, JsonObject{{u"response"_s, response(u"in_progress"_s)}});
    return add(u"response.in_progress"_s, JsonObject{{u"response"_s, response(u"in_progress"_s)}});
}

ResponsesStream &ResponsesStream::message(int outputIndex, const QString &itemID, const QStringList &pieces)
{
    const JsonObject empty{{u"type"_s, u"output_text"_s}, {u"annotations"_s, JsonArray{}}, {u"text"_s, u""_s}};
    JsonObject item{{u"id"_s, itemID},           {u"type"_s, u"message"_s},     {u"status"_s, u"in_progress"_s},
                    {u"content"_s, JsonArray{}}, {u"role"_s, u"assistant"_s}};
    add(u"response.output_item.added"_s, JsonObject{{u"output_index"_s, outputIndex}, {u"item"_s, item}});
    const JsonObject where{{u"item_id"_s, itemID}, {u"output_index"_s, outputIndex}, {u"content_index"_s, 0}};
    JsonObject partAdded = where;
    partAdded.insert(u"part"_s, empty);
    add(u"response.content_part.added"_s, partAdded);
    QString text;
    for (const QString &piece : pieces) {
        JsonObject delta = where;
        delta.insert(u"delta"_s, piece);
        add(u"response.output_text.delta"_s, delta);
        text += piece;
    }
    JsonObject textDone = where;
    textDone.insert(u"text"_s, text);
    add(u"response.output_text.done"_s, textDone);
    JsonObject full = empty;
    full.insert(u"text"_s, text);
    JsonObject partDone = where;
    partDone.insert(u"part"_s, full);
    add(u"response.content_part.done"_s, partDone);
    item.insert(u"status"_s, u"completed"_s);
    item.insert(u"content"_s, JsonArray{full});
    return add(u"response.output_item.done"_s, JsonObject{{u"output_index"_s, outputIndex}, {u"item"_s, item}});
}

ResponsesStream &ResponsesStream::reasoning(int outputIndex, const QString &itemID,
                                            const QList<QStringList> &summaryParts, const QString &encrypted)
{
    JsonObject item{{u"id"_s, itemID}, {u"type"_s, u"reasoning"_s}, {u"summary"_s, JsonArray{}}};
    if (!encrypted.isEmpty())
        item.insert(u"encrypted_content"_s, encrypted);
    add(u"response.output_item.added"_s, JsonObject{{u"output_index"_s, outputIndex}, {u"item"_s, item}});
    JsonArray summary;
    for (qsizetype index = 0; index < summaryParts.size(); ++index) {
        const JsonObject where{{u"item_id"_s, itemID}, {u"output_index"_s, outputIndex}, {u"summary_index"_s, qint64(index)}};
        JsonObject added = where;
        added.insert(u"part"_s, JsonObject{{u"type"_s, u"summary_text"_s}, {u"text"_s, u""_s}});
        add(u"response.reasoning_summary_part.added"_s, added);
        QString text;
        for (const QString &piece : summaryParts.at(index)) {
            JsonObject delta = where;
            delta.insert(u"delta"_s, piece);
            add(u"response.reasoning_summary_text.delta"_s, delta);
            text += piece;
        }
        JsonObject done = where;
        done.insert(u"text"_s, text);
        add(u"response.reasoning_summary_text.done"_s, done);
        const JsonObject part{{u"type"_s, u"summary_text"_s}, {u"text"_s, text}};
        JsonObject partDone = where;
        partDone.insert(u"part"_s, part);
        add(u"response.reasoning_summary_part.done"_s, partDone);
        summary.append(part);
    }
    item.insert(u"summary"_s, summary);
    return add(u"response.output_item.done"_s, JsonObject{{u"output_index"_s, outputIndex}, {u"item"_s, item}});
}

ResponsesStream &ResponsesStream::functionCall(int outputIndex, const QString &itemID, const QString &callID,
                                               const QString &name, const QStringList &argumentPieces)
{
    JsonObject item{{u"id"_s, itemID},        {u"type"_s, u"function_call"_s}, {u"status"_s, u"in_progress"_s},
                    {u"arguments"_s, u""_s}, {u"call_id"_s, callID},          {u"name"_s, name}};
    add(u"response.output_item.added"_s, JsonObject{{u"output_index"_s, outputIndex}, {u"item"_s, item}});
    QString arguments;
    for (const QString &piece : argumentPieces) {
        add(u"response.function_call_arguments.delta"_s,
            JsonObject{{u"item_id"_s, itemID}, {u"output_index"_s, outputIndex}, {u"delta"_s, piece}});
        arguments += piece;
    }
    add(u"response.function_call_arguments.done"_s,
        JsonObject{{u"item_id"_s, itemID}, {u"output_index"_s, outputIndex}, {u"arguments"_s, arguments}});
    item.insert(u"status"_s, u"completed"_s);
    item.insert(u"arguments"_s, arguments);
    return add(u"response.output_item.done"_s, JsonObject{{u"output_index"_s, outputIndex}, {u"item"_s, item}});
}

ResponsesStream &ResponsesStream::completed(qint64 input, qint64 output, qint64 cached, qint64 reasoning,
                                            const QString &incompleteReason)
{
    JsonObject r = response(incompleteReason.isEmpty() ? u"completed"_s : u"incomplete"_s);
    r.insert(u"usage"_s, JsonObject{{u"input_tokens"_s, input},
                                    {u"input_tokens_details"_s, JsonObject{{u"cached_tokens"_s, cached}}},
                                    {u"output_tokens"_s, output},
                                    {u"output_tokens_details"_s, JsonObject{{u"reasoning_tokens"_s, reasoning}}},
                                    {u"total_tokens"_s, input + output}});
    if (!incompleteReason.isEmpty())
        r.insert(u"incomplete_details"_s, JsonObject{{u"reason"_s, incompleteReason}});
    return add(incompleteReason.isEmpty() ? u"response.completed"_s : u"response.incomplete"_s,
               JsonObject{{u"response"_s, r}});
}

ResponsesStream &ResponsesStream::failed(const QString &code, const QString &message)
{
    JsonObject r = response(u"failed"_s);
    r.insert(u"error"_s, JsonObject{{u"code"_s, code}, {u"message"_s, message}});
    return add(u"response.failed"_s, JsonObject{{u"response"_s, r}});
}

ResponsesStream &ResponsesStream::error(const QString &code, const QString &message)
{
    return add(u"error"_s, JsonObject{{u"code"_s, code}, {u"message"_s, message}, {u"param"_s, nullptr}});
}

ResponsesStream &ResponsesStream::append(const QByteArray &raw)
{
    m_bytes += raw;
    return *this;
}

// ---------------------------------------------------------------------------------------------

/// One client connection: reads a request, then plays one scripted reply and closes.
QByteArray httpReason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    case 529:
        return "Overloaded";
    default:
        return "Status";
    }
}

bool takeHttpRequest(QByteArray &buffer, FakeRequest &request)
{
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return false;
    FakeRequest parsed;
    qsizetype contentLength = 0;
    const QList<QByteArray> lines = buffer.first(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    parsed.method = requestLine.value(0);
    parsed.path = requestLine.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.first(colon).trimmed().toLower();
        const QByteArray value = line.sliced(colon + 1).trimmed();
        parsed.headers.append({name, value});
        if (name == "content-length")
            contentLength = value.toLongLong();
    }
    const qsizetype bodyStart = headerEnd + 4;
    if (buffer.size() - bodyStart < contentLength)
        return false;
    parsed.body = buffer.sliced(bodyStart, contentLength);
    if (const std::optional<JsonValue> json = parseJson(parsed.body); json && json->isObject())
        parsed.json = json->toObject();
    buffer.remove(0, bodyStart + contentLength);
    request = std::move(parsed);
    return true;
}

class FakeConnection : public QObject
{
public:
    FakeConnection(FakeLlmServer *server, QTcpSocket *socket)
        : QObject(socket)
        , m_server(server)
        , m_socket(socket)
    {
        // Small writes must leave at once (no Nagle delay), so that every piece is its own packet.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
        connect(socket, &QTcpSocket::disconnected, this, [this] {
            if (m_replying && !m_ended && m_server)
                m_server->noteClientAbort();
            m_ended = true;
            m_socket->deleteLater();
        });
    }

private:
    void onReadyRead()
    {
        m_buffer += m_socket->readAll();
        if (m_replying || !takeHttpRequest(m_buffer, m_request))
            return;
        m_replying = true;
        m_reply = m_server->takeReply();
        if (m_reply.held)
            m_server->m_held.append(this);
        m_server->recordRequest(m_request);
        if (!m_reply.held)
            startReply();
    }

public:
    void startReply()
    {
        QByteArray head = "HTTP/1.1 " + QByteArray::number(m_reply.status) + ' ' + httpReason(m_reply.status) + "\r\n";
        for (const auto &[name, value] : std::as_const(m_reply.headers))
            head += name + ": " + value + "\r\n";
        if (m_reply.framing == FakeReply::Framing::Chunked)
            head += "Transfer-Encoding: chunked\r\n";
        else if (m_reply.framing == FakeReply::Framing::ContentLength)
            head += "Content-Length: " + QByteArray::number(m_reply.body.size()) + "\r\n";
        head += "Connection: close\r\n\r\n";
        m_socket->write(head);
        m_socket->flush();

        // Cut the body into pieces.
        QList<qsizetype> cuts = m_reply.splitAt;
        if (cuts.isEmpty() && m_reply.chunkSize > 0) {
            for (qsizetype at = m_reply.chunkSize; at < m_reply.body.size(); at += m_reply.chunkSize)
                cuts.append(at);
        }
        qsizetype from = 0;
        for (qsizetype cut : std::as_const(cuts)) {
            if (cut <= from || cut >= m_reply.body.size())
                continue;
            m_pieces.append(m_reply.body.sliced(from, cut - from));
            from = cut;
        }
        if (from < m_reply.body.size())
            m_pieces.append(m_reply.body.sliced(from));
        writeNext();
    }

private:
    void writeNext()
    {
        if (m_ended)
            return;
        if (m_next >= m_pieces.size()) {
            if (m_reply.hang)
                return;
            if (m_reply.framing == FakeReply::Framing::Chunked)
                m_socket->write("0\r\n\r\n");
            m_ended = true;
            m_socket->disconnectFromHost();
            return;
        }
        QByteArray piece = m_pieces.at(m_next++);
        bool drop = false;
        if (m_reply.dropAfter >= 0 && m_written + piece.size() >= m_reply.dropAfter) {
            piece.truncate(m_reply.dropAfter - m_written);
            drop = true;
        }
        m_written += piece.size();
        if (!piece.isEmpty()) {
            if (m_reply.framing == FakeReply::Framing::Chunked)
                m_socket->write(QByteArray::number(piece.size(), 16) + "\r\n" + piece + "\r\n");
            else
                m_socket->write(piece);
            m_socket->flush();
        }
        if (drop) {
            m_ended = true;
            m_socket->disconnectFromHost();
            return;
        }
        QTimer::singleShot(m_reply.delayMs, this, [this] { writeNext(); });
    }

    QPointer<FakeLlmServer> m_server;
    QTcpSocket *m_socket;
    QByteArray m_buffer;
    FakeRequest m_request;
    bool m_replying = false;
    bool m_ended = false;
    FakeReply m_reply;
    QList<QByteArray> m_pieces;
    qsizetype m_next = 0;
    qsizetype m_written = 0;
};

FakeLlmServer::FakeLlmServer(QObject *parent)
    : QObject(parent)
    , m_server(this) // a child, so that moveToThread() takes the listening socket along
{
    connect(&m_server, &QTcpServer::newConnection, this, &FakeLlmServer::onNewConnection);
}

FakeLlmServer::~FakeLlmServer() = default;

bool FakeLlmServer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

quint16 FakeLlmServer::port() const
{
    return m_server.serverPort();
}

QUrl FakeLlmServer::baseUrl(const QString &path) const
{
    return QUrl(u"http://127.0.0.1:%1%2"_s.arg(port()).arg(path));
}

void FakeLlmServer::enqueue(const FakeReply &reply)
{
    m_replies.append(reply);
}

void FakeLlmServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection())
        new FakeConnection(this, socket);
}

FakeReply FakeLlmServer::takeReply()
{
    if (m_replies.isEmpty())
        return FakeReply::json(500, R"({"error":{"message":"no scripted reply","type":"server_error"}})");
    return m_replies.takeFirst();
}

void FakeLlmServer::recordRequest(const FakeRequest &request)
{
    m_requests.append(request);
    Q_EMIT requestReceived(int(m_requests.size() - 1));
}

void FakeLlmServer::release()
{
    const QList<QPointer<FakeConnection>> held = std::exchange(m_held, {});
    for (const QPointer<FakeConnection> &connection : held) {
        if (connection)
            connection->startReply();
    }
}

void FakeLlmServer::noteClientAbort()
{
    ++m_clientAborts;
    Q_EMIT clientAborted();
}

FakeLlmServerThread::FakeLlmServerThread()
    : m_server(new FakeLlmServer)
{
    m_server->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_server, &QObject::deleteLater);
    m_thread.start();
}

FakeLlmServerThread::~FakeLlmServerThread()
{
    m_thread.quit();
    m_thread.wait();
}

QUrl FakeLlmServerThread::start(const FakeReply &reply)
{
    QUrl base;
    QMetaObject::invokeMethod(
        m_server,
        [&] {
            if (m_server->listen())
                base = m_server->baseUrl();
            m_server->enqueue(reply);
        },
        Qt::BlockingQueuedConnection);
    return base;
}

} // namespace weft::test
