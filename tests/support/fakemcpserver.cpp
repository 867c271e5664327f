// SPDX-License-Identifier: GPL-3.0-or-later
#include "fakemcpserver.h"

#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace weft::test
{

JsonObject fakeMcpLocal(const QString &program, const QStringList &args, const JsonObject &more)
{
    JsonArray command{program};
    for (const QString &arg : args)
        command.append(arg);
    JsonObject o{{u"type"_s, u"local"_s}, {u"command"_s, command}};
    for (qsizetype i = 0; i < more.size(); ++i)
        o.insert(more.keyAt(i), more.valueAt(i));
    return o;
}

static JsonObject tool(const QString &name, const QString &description, const JsonObject &properties = {})
{
    return JsonObject{{u"name"_s, name},
                      {u"description"_s, description},
                      {u"inputSchema"_s, JsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, properties}}}};
}

static JsonObject text(const QString &t)
{
    return JsonObject{{u"type"_s, u"text"_s}, {u"text"_s, t}};
}

static JsonObject answer(const JsonValue &id, const JsonObject &result)
{
    return JsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}};
}

static JsonObject error(const JsonValue &id, int code, const QString &message)
{
    return JsonObject{{u"jsonrpc"_s, u"2.0"_s},
                      {u"id"_s, id},
                      {u"error"_s, JsonObject{{u"code"_s, code}, {u"message"_s, message}}}};
}

static JsonObject content(const JsonArray &items, bool isError = false)
{
    JsonObject result{{u"content"_s, items}};
    if (isError)
        result.insert(u"isError"_s, true);
    return result;
}

QList<JsonObject> FakeMcpLogic::toolList() const
{
    const JsonObject string{{u"type"_s, u"string"_s}};
    const JsonObject number{{u"type"_s, u"number"_s}};
    QList<JsonObject> tools{tool(u"echo"_s, u"Echoes the text"_s, {{u"text"_s, string}}),
                            tool(u"add"_s, u"Adds two numbers"_s, {{u"a"_s, number}, {u"b"_s, number}}),
                            tool(u"image"_s, u"Returns an image"_s),
                            tool(u"resource"_s, u"Returns an embedded resource"_s),
                            tool(u"fail"_s, u"Always fails"_s),
                            tool(u"die"_s, u"The server goes away"_s),
                            tool(u"hang"_s, u"Never answers"_s),
                            tool(u"hostile"_s, u"Garbage before the answer"_s),
                            tool(u"notify"_s, u"Changes the tool list"_s),
                            tool(u"big"_s, u"A long output"_s),
                            JsonObject{{u"name"_s, u"my.tool/name"_s}, {u"description"_s, u"No schema"_s}}};
    if (m_late)
        tools.append(tool(u"late"_s, u"Appears after notify"_s));
    return tools;
}

FakeMcpLogic::Output FakeMcpLogic::handle(const JsonObject &message)
{
    Output out;
    const QString method = message.string(u"method");
    const JsonValue id = message.value(u"id");
    m_methods.append(method.isEmpty() ? u"(answer)"_s : method);
    if (id.isUndefined() || method.isEmpty())
        return out; // notifications and answers need nothing
    const JsonObject params = message.object(u"params");
    if (method == u"initialize") {
        if (!m_options.answerInitialize)
            return out;
        const QString version = m_options.protocolVersion.isEmpty() ? params.string(u"protocolVersion")
                                                                     : m_options.protocolVersion;
        out.messages.append(answer(
            id, JsonObject{{u"protocolVersion"_s, version},
                           {u"capabilities"_s, JsonObject{{u"tools"_s, JsonObject{{u"listChanged"_s, true}}},
                                                          {u"prompts"_s, JsonObject()},
                                                          {u"resources"_s, JsonObject()}}},
                           {u"serverInfo"_s, JsonObject{{u"name"_s, u"fake-mcp"_s}, {u"version"_s, u"1.2.3"_s}}}}));
    } else if (method == u"ping") {
        out.messages.append(answer(id, {}));
    } else if (method == u"tools/list") {
        const QList<JsonObject> all = toolList();
        const int start = params.string(u"cursor").toInt();
        const int count = m_options.pageSize > 0 ? m_options.pageSize : int(all.size());
        JsonArray page;
        for (int i = start; i < qMin(int(all.size()), start + count); ++i)
            page.append(all.at(i));
        JsonObject result{{u"tools"_s, page}};
        if (start + count < all.size())
            result.insert(u"nextCursor"_s, QString::number(start + count));
        out.messages.append(answer(id, result));
    } else if (method == u"prompts/list") {
        out.messages.append(answer(
            id, JsonObject{{u"prompts"_s, JsonArray{JsonObject{
                                              {u"name"_s, u"greet"_s},
                                              {u"description"_s, u"Greets someone"_s},
                                              {u"arguments"_s, JsonArray{JsonObject{{u"name"_s, u"name"_s}, {u"required"_s, true}},
                                                                         JsonObject{{u"name"_s, u"mood"_s}}}}},
                                              JsonObject{{u"name"_s, u"broken one"_s}}}}}));
    } else if (method == u"resources/list") {
        out.messages.append(answer(
            id, JsonObject{{u"resources"_s,
                            JsonArray{JsonObject{{u"uri"_s, u"memo://notes"_s},
                                                 {u"name"_s, u"notes"_s},
                                                 {u"description"_s, u"The team's notes"_s},
                                                 {u"mimeType"_s, u"text/markdown"_s}},
                                      JsonObject{{u"uri"_s, u"memo://logo.png"_s},
                                                 {u"name"_s, u"logo"_s},
                                                 {u"mimeType"_s, u"image/png"_s}},
                                      JsonObject{{u"uri"_s, u"memo://gone"_s}, {u"name"_s, u"gone"_s}}}}}));
    } else if (method == u"resources/read") {
        const QString uri = params.string(u"uri");
        if (uri == u"memo://notes")
            out.messages.append(answer(
                id, JsonObject{{u"contents"_s, JsonArray{JsonObject{{u"uri"_s, uri},
                                                                    {u"mimeType"_s, u"text/markdown"_s},
                                                                    {u"text"_s, u"# Notes\nShip on Friday."_s}}}}}));
        else if (uri == u"memo://logo.png")
            out.messages.append(answer(
                id, JsonObject{{u"contents"_s, JsonArray{JsonObject{{u"uri"_s, uri},
                                                                    {u"mimeType"_s, u"image/png"_s},
                                                                    {u"blob"_s, u"iVBORw0KGgo="_s}}}}}));
        else
            out.messages.append(error(id, -32002, u"Resource not found: "_s + uri));
    } else if (method == u"prompts/get") {
        // OpenCode asks with the arguments as "$1".."$n" and fills them in itself.
        const JsonObject args = params.object(u"arguments");
        if (params.string(u"name") == u"greet")
            out.messages.append(answer(
                id, JsonObject{{u"messages"_s,
                                JsonArray{JsonObject{{u"role"_s, u"user"_s},
                                                     {u"content"_s, text(u"Say hello to %1, %2."_s.arg(args.string(u"name"),
                                                                                                       args.string(u"mood")))}},
                                          JsonObject{{u"role"_s, u"user"_s},
                                                     {u"content"_s, JsonObject{{u"type"_s, u"image"_s},
                                                                               {u"data"_s, u"iVBORw0KGgo="_s},
                                                                               {u"mimeType"_s, u"image/png"_s}}}},
                                          JsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, text(u"Gladly."_s)}}}}}));
        else
            out.messages.append(error(id, -32602, u"Prompt not available: "_s + params.string(u"name")));
    } else if (method == u"tools/call") {
        const QString name = params.string(u"name");
        const JsonObject args = params.object(u"arguments");
        if (name == u"echo") {
            out.messages.append(answer(id, content({text(u"echo: "_s + args.string(u"text"))})));
        } else if (name == u"add") {
            out.messages.append(answer(id, content({text(QString::number(args.number(u"a") + args.number(u"b")))})));
        } else if (name == u"image") {
            out.messages.append(answer(id, content({text(u"an image"_s),
                                                    JsonObject{{u"type"_s, u"image"_s},
                                                               {u"data"_s, u"iVBORw0KGgo="_s},
                                                               {u"mimeType"_s, u"image/png"_s}}})));
        } else if (name == u"resource") {
            out.messages.append(answer(
                id, content({JsonObject{{u"type"_s, u"resource"_s},
                                        {u"resource"_s, JsonObject{{u"uri"_s, u"file:///notes.txt"_s},
                                                                   {u"mimeType"_s, u"text/plain"_s},
                                                                   {u"text"_s, u"resource text"_s}}}},
                             JsonObject{{u"type"_s, u"resource"_s},
                                        {u"resource"_s, JsonObject{{u"uri"_s, u"file:///data.bin"_s},
                                                                   {u"blob"_s, u"AAEC"_s}}}}})));
        } else if (name == u"fail") {
            out.messages.append(answer(id, content({text(u"something broke"_s)}, true)));
        } else if (name == u"die") {
            out.die = true;
        } else if (name == u"hang") {
            // never answered
        } else if (name == u"hostile") {
            out.garbage = {"this is not JSON", "{\"jsonrpc\":\"2.0\",\"id\":987654,\"result\":{}}", "42",
                           "{\"jsonrpc\":\"2.0\",\"id\":\"x1\",\"method\":\"sampling/createMessage\",\"params\":{}}",
                           "{\"unexpected\":true}", QByteArray(5000, '{')};
            out.messages.append(answer(id, content({text(u"survived"_s)})));
        } else if (name == u"notify") {
            m_late = true;
            out.messages.append(JsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, u"notifications/tools/list_changed"_s}});
            out.messages.append(answer(id, content({text(u"notified"_s)})));
        } else if (name == u"big") {
            QStringList lines;
            for (int i = 0; i < 3000; ++i)
                lines.append(u"line %1"_s.arg(i));
            out.messages.append(answer(id, content({text(lines.join(u'\n'))})));
        } else if (name == u"my.tool/name") {
            out.messages.append(answer(id, content({text(u"sanitised"_s)})));
        } else {
            out.messages.append(error(id, -32602, u"Unknown tool: "_s + name));
        }
    } else {
        out.messages.append(error(id, -32601, u"Method not found"_s));
    }
    return out;
}

// ---- HTTP

FakeMcpHttpServer::FakeMcpHttpServer()
    : FakeMcpHttpServer(Options())
{
}

FakeMcpHttpServer::FakeMcpHttpServer(Options options)
    : m_worker(new Worker(options))
    , m_legacy(options.legacySse)
{
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
}

FakeMcpHttpServer::~FakeMcpHttpServer()
{
    m_thread.quit();
    m_thread.wait();
}

bool FakeMcpHttpServer::listen()
{
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, &Worker::listen, Qt::BlockingQueuedConnection, qReturnArg(m_port));
    return m_port != 0;
}

QString FakeMcpHttpServer::url() const
{
    return u"http://127.0.0.1:%1/%2"_s.arg(m_port).arg(m_legacy ? u"sse"_s : u"mcp"_s);
}

QList<FakeRequest> FakeMcpHttpServer::requests() const
{
    return m_worker->requests();
}

QStringList FakeMcpHttpServer::methods() const
{
    return m_worker->methods();
}

FakeMcpHttpServer::Worker::Worker(Options options)
    : m_options(options)
    , m_logic(options.logic)
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            socket->setParent(this);
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
            connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
                m_buffers.remove(socket);
                socket->deleteLater();
            });
        }
    });
}

quint16 FakeMcpHttpServer::Worker::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0) ? m_server.serverPort() : 0;
}

QList<FakeRequest> FakeMcpHttpServer::Worker::requests() const
{
    QMutexLocker lock(&m_mutex);
    return m_requests;
}

QStringList FakeMcpHttpServer::Worker::methods() const
{
    QMutexLocker lock(&m_mutex);
    return m_logic.methods();
}

void FakeMcpHttpServer::Worker::onReadyRead(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer += socket->readAll();
    FakeRequest request;
    while (takeHttpRequest(buffer, request)) {
        {
            QMutexLocker lock(&m_mutex);
            m_requests.append(request);
        }
        handle(socket, request);
        if (!m_buffers.contains(socket))
            return;
    }
}

void FakeMcpHttpServer::Worker::writeReply(QTcpSocket *socket, int status, const QByteArray &type, const QByteArray &body,
                                   const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReason(status) + "\r\n";
    if (!type.isEmpty())
        head += "Content-Type: " + type + "\r\n";
    for (const auto &[name, value] : headers)
        head += name + ": " + value + "\r\n";
    head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    socket->write(head + body);
}

FakeMcpLogic::Output FakeMcpHttpServer::Worker::handleLocked(const JsonObject &message)
{
    QMutexLocker lock(&m_mutex);
    return m_logic.handle(message);
}

static QByteArray sseEvent(const JsonObject &message)
{
    return "event: message\ndata: " + toJson(message, 0) + "\n\n";
}

void FakeMcpHttpServer::Worker::handle(QTcpSocket *socket, const FakeRequest &request)
{
    const QUrl url(QString::fromUtf8(request.path));
    if (m_options.legacySse) {
        if (request.method == "GET" && url.path() == u"/sse") {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
                          "event: endpoint\ndata: /messages?session=1\n\n");
            m_legacyStream = socket;
            return;
        }
        if (request.method == "POST" && url.path() == u"/messages") {
            const FakeMcpLogic::Output out = handleLocked(request.json);
            writeReply(socket, 202, "text/plain", "Accepted");
            if (m_legacyStream) {
                for (const JsonObject &message : out.messages)
                    m_legacyStream->write(sseEvent(message));
                if (out.die)
                    m_legacyStream->abort();
            }
            return;
        }
        writeReply(socket, 404, "text/plain", "Not Found");
        return;
    }
    if (url.path() != u"/mcp") {
        writeReply(socket, 404, "text/plain", "Not Found");
        return;
    }
    if (request.method == "GET" || request.method == "DELETE") {
        writeReply(socket, request.method == "GET" ? 405 : 200, "text/plain", {});
        return;
    }
    if (request.json.isEmpty()) {
        writeReply(socket, 400, "application/json", toJson(error(nullptr, -32700, u"Parse error"_s), 0));
        return;
    }
    const bool initialize = request.json.string(u"method") == u"initialize";
    if (!initialize && request.header("mcp-session-id") != m_sessionId) {
        writeReply(socket, 400, "text/plain", "Bad Request: No valid session ID provided");
        return;
    }
    const FakeMcpLogic::Output out = handleLocked(request.json);
    if (out.die) {
        socket->abort();
        m_buffers.remove(socket);
        socket->deleteLater();
        return;
    }
    QList<std::pair<QByteArray, QByteArray>> headers;
    if (initialize)
        headers.append({"Mcp-Session-Id", m_sessionId});
    if (out.messages.isEmpty() && request.json.value(u"id").isUndefined()) {
        writeReply(socket, 202, {}, {}, headers);
        return;
    }
    if (out.messages.isEmpty())
        return; // hang: the request stays open
    if (m_options.sse) {
        QByteArray body;
        for (const QByteArray &line : out.garbage)
            body += "data: " + line + "\n\n";
        for (const JsonObject &message : out.messages)
            body += sseEvent(message);
        writeReply(socket, 200, "text/event-stream", body, headers);
    } else {
        const JsonObject last = out.messages.constLast();
        writeReply(socket, 200, "application/json", toJson(last, 0), headers);
    }
}

} // namespace weft::test
