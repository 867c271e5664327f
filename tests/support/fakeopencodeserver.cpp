// SPDX-License-Identifier: GPL-3.0-or-later
#include "fakeopencodeserver.h"
#include "testdata.h"

#include <QDateTime>
#include <QSet>

using namespace Qt::StringLiterals;

namespace weft::test
{

namespace
{

QString recordedDir()
{
    return QStringLiteral(WEFT_TEST_DATA) + u"/opencode-1.18.34-server"_s;
}

QString recordedV2Dir()
{
    return QStringLiteral(WEFT_TEST_DATA) + u"/opencode-v2-preview-server"_s;
}

QString key(const QByteArray &method, const QString &path)
{
    return QString::fromLatin1(method) + u' ' + path;
}

QByteArray pathOnly(const QByteArray &target)
{
    const qsizetype q = target.indexOf('?');
    return QByteArray::fromPercentEncoding(q < 0 ? target : target.first(q));
}

} // namespace

QList<RecordedExchange> recordedExchanges()
{
    static const QList<RecordedExchange> exchanges = [] {
        QList<RecordedExchange> result;
        const std::optional<JsonValue> parsed = parseJson(readFile(recordedDir() + u"/exchanges.json"_s));
        if (!parsed)
            return result;
        for (const JsonValue &v : parsed->toArray()) {
            const JsonObject o = v.toObject();
            RecordedExchange e;
            e.name = o.string(u"name");
            e.method = o.string(u"method").toLatin1();
            const QString target = o.string(u"path");
            e.path = target.section(u'?', 0, 0);
            e.query = target.section(u'?', 1);
            e.status = int(o.integer(u"status"));
            e.requestBody = o.value(u"requestBody");
            e.responseBody = o.value(u"responseBody");
            result.append(e);
        }
        return result;
    }();
    return exchanges;
}

RecordedExchange recordedExchange(const QString &name)
{
    for (const RecordedExchange &e : recordedExchanges()) {
        if (e.name == name)
            return e;
    }
    qWarning("no recorded exchange named %s", qPrintable(name));
    return {};
}

QList<QByteArray> recordedEvents(const QString &file)
{
    QList<QByteArray> frames;
    const QByteArray bytes = readFile(recordedDir() + u'/' + file);
    for (const QByteArray &frame : bytes.split('\n')) {
        if (frame.startsWith("data: "))
            frames.append(frame + "\n\n");
    }
    return frames;
}

QList<QByteArray> recordedApiEvents()
{
    QList<QByteArray> frames;
    const QByteArray bytes = readFile(recordedV2Dir() + u"/events-stream.txt"_s);
    for (const QByteArray &frame : bytes.split('\n')) {
        if (frame.startsWith("data: "))
            frames.append(frame + "\n\n");
    }
    return frames;
}

static JsonObject apiDump()
{
    static const JsonObject dump = [] {
        const std::optional<JsonValue> parsed = parseJson(readFile(recordedV2Dir() + u"/api-dump.json"_s));
        return parsed ? parsed->toObject() : JsonObject();
    }();
    return dump;
}

JsonValue recordedApiAnswer(const QString &target)
{
    return apiDump().object(target).value(u"body");
}

FakeOpencodeServer::FakeOpencodeServer(const QString &password, QObject *parent)
    : QObject(parent)
    , m_authorization(password.isEmpty() ? QByteArray() : "Basic " + (u"opencode:"_s + password).toUtf8().toBase64())
{
    connect(&m_server, &QTcpServer::newConnection, this, &FakeOpencodeServer::onNewConnection);
}

FakeOpencodeServer::~FakeOpencodeServer() = default;

bool FakeOpencodeServer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QUrl FakeOpencodeServer::url() const
{
    return QUrl(u"http://127.0.0.1:%1"_s.arg(m_server.serverPort()));
}

void FakeOpencodeServer::route(const QByteArray &method, const QString &path, Handler handler)
{
    m_routes.insert(key(method, path), std::move(handler));
}

void FakeOpencodeServer::route(const QByteArray &method, const QString &path, int status, const JsonValue &body)
{
    const QByteArray bytes = body.isUndefined() ? QByteArray() : toJson(body, 0);
    route(method, path, [status, bytes](const FakeRequest &) { return Reply{status, bytes}; });
}

void FakeOpencodeServer::routeRecorded(const QString &name)
{
    const RecordedExchange e = recordedExchange(name);
    route(e.method, e.path, e.status, e.status == 204 ? JsonValue() : e.responseBody);
}

void FakeOpencodeServer::routeAllRecorded()
{
    QSet<QString> seen;
    for (const RecordedExchange &e : recordedExchanges()) {
        if (e.status != 200 || seen.contains(key(e.method, e.path)) || e.name.contains(u"password"))
            continue;
        seen.insert(key(e.method, e.path));
        route(e.method, e.path, e.status, e.responseBody);
    }
}

void FakeOpencodeServer::routeAllRecordedV2()
{
    const JsonObject dump = apiDump();
    QSet<QString> seen;
    for (qsizetype i = 0; i < dump.size(); ++i) {
        const QString path = dump.keyAt(i).section(u'?', 0, 0);
        const JsonObject answer = dump.object(dump.keyAt(i));
        if (seen.contains(path) || answer.integer(u"status") != 200 || answer.value(u"body").isString())
            continue;
        seen.insert(path);
        route("GET", path, 200, answer.value(u"body"));
    }
    // Each listed session by its ID, as the list has it (the recording read one of them).
    for (const JsonValue &v : dump.object(u"/api/session"_s).object(u"body").array(u"data")) {
        const QString path = u"/api/session/"_s + v.toObject().string(u"id");
        if (!seen.contains(path))
            route("GET", path, 200, JsonObject{{u"data"_s, v}});
    }
}

void FakeOpencodeServer::pushApiEvent(const QString &type, const JsonObject &data)
{
    const JsonObject event{{u"id"_s, u"evt_fake%1"_s.arg(++m_apiEvents)},
                           {u"created"_s, QDateTime::currentMSecsSinceEpoch()},
                           {u"type"_s, type},
                           {u"data"_s, data}};
    pushFrame("data: " + toJson(event, 0) + "\n\n");
}

void FakeOpencodeServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        socket->setParent(this);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            m_streams.removeAll(QPointer<QTcpSocket>(socket));
            socket->deleteLater();
        });
    }
}

void FakeOpencodeServer::onReadyRead(QTcpSocket *socket)
{
    QByteArray &buffer = m_buffers[socket];
    buffer += socket->readAll();
    FakeRequest request;
    while (takeHttpRequest(buffer, request)) {
        m_requests.append(request);
        Q_EMIT requestReceived(request);
        const QString path = QString::fromUtf8(pathOnly(request.path));
        auto respond = [socket](int status, const QByteArray &body, const QByteArray &extra = {}) {
            QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReason(status) + "\r\n" + extra;
            if (!body.isEmpty())
                head += "Content-Type: application/json\r\n";
            head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
            socket->write(head + body);
        };
        // As the real server: 401 with an empty body and a Basic challenge.
        if (!m_authorization.isEmpty() && request.header("authorization") != m_authorization) {
            respond(401, {}, "www-authenticate: Basic realm=\"Secure Area\"\r\n");
            continue;
        }
        if (request.method == "GET" && path == (m_v2Only ? u"/api/event"_s : u"/global/event"_s)) {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n");
            m_streams.append(socket);
            const QByteArray hello = m_v2Only
                ? QByteArray("data: {\"id\":\"evt_0\",\"type\":\"server.connected\",\"data\":{}}\n\n")
                : QByteArray("data: {\"payload\":{\"id\":\"evt_0\",\"type\":\"server.connected\",\"properties\":{}}}\n\n");
            socket->write(QByteArray::number(hello.size(), 16) + "\r\n" + hello + "\r\n");
            Q_EMIT eventStreamOpened();
            continue;
        }
        const auto it = m_routes.constFind(key(request.method, path));
        if (it == m_routes.cend()) {
            respond(404, R"({"name":"NotFoundError","data":{"message":"no route"}})");
            continue;
        }
        const Reply reply = (*it)(request);
        QByteArray extra;
        for (const auto &[name, value] : reply.headers)
            extra += name + ": " + value + "\r\n";
        respond(reply.body.isEmpty() && reply.status == 200 ? 204 : reply.status, reply.body, extra);
    }
}

void FakeOpencodeServer::pushFrame(const QByteArray &frame)
{
    for (const QPointer<QTcpSocket> &socket : std::as_const(m_streams)) {
        if (socket)
            socket->write(QByteArray::number(frame.size(), 16) + "\r\n" + frame + "\r\n");
    }
}

void FakeOpencodeServer::pushEvent(const QString &type, const JsonObject &properties, const QString &directory)
{
    JsonObject envelope;
    if (!directory.isEmpty())
        envelope.insert(u"directory"_s, directory);
    envelope.insert(u"payload"_s, JsonObject{{u"type"_s, type}, {u"properties"_s, properties}});
    pushFrame("data: " + toJson(envelope, 0) + "\n\n");
}

void FakeOpencodeServer::dropEventStreams()
{
    const QList<QPointer<QTcpSocket>> streams = m_streams;
    m_streams.clear();
    for (const QPointer<QTcpSocket> &socket : streams) {
        if (socket)
            socket->abort();
    }
}

int FakeOpencodeServer::openEventStreams() const
{
    int open = 0;
    for (const QPointer<QTcpSocket> &socket : m_streams)
        open += socket ? 1 : 0;
    return open;
}

int FakeOpencodeServer::count(const QByteArray &method, const QString &path) const
{
    int n = 0;
    for (const FakeRequest &r : m_requests)
        n += (r.method == method && QString::fromUtf8(pathOnly(r.path)) == path) ? 1 : 0;
    return n;
}

} // namespace weft::test
