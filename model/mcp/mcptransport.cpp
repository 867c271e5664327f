// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcptransport.h"

#include "core/logging.h"
#include "core/network.h"
#include "core/tr.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcessEnvironment>

#include <memory>

using namespace Qt::StringLiterals;

namespace weft
{

Result<JsonValue> parseMcpMessage(QByteArrayView bytes)
{
    JsonParseError error;
    std::optional<JsonValue> value = parseJson(bytes, &error);
    if (!value)
        return Error{u"not JSON: "_s + error.toString()};
    if (!value->isObject() && !value->isArray())
        return Error{u"not a JSON-RPC message (a JSON %1)"_s.arg(JsonValue::typeName(value->type()))};
    return *value;
}

/// A JSON-RPC ID as a hash key ("n:1", "s:abc").
static QString idKey(const JsonValue &id)
{
    if (id.isString())
        return u"s:"_s + id.toString();
    if (id.isNumber())
        return u"n:"_s + QString::fromLatin1(formatJsNumber(id.toDouble()));
    return {};
}

/// At most @p max characters of a server's text, on one line, for an error message.
static QString snippet(QByteArrayView bytes, qsizetype max = 300)
{
    QString text = QString::fromUtf8(bytes.first(qMin(bytes.size(), max * 4))).simplified();
    if (text.size() > max)
        text = text.first(max) + u'…';
    return text;
}

// ---- stdio

McpStdioTransport::McpStdioTransport(const McpServerConfig &config, QObject *parent)
    : McpTransport(parent)
    , m_config(config)
{
}

McpStdioTransport::~McpStdioTransport()
{
    close();
}

void McpStdioTransport::open()
{
    m_process = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &[key, value] : std::as_const(m_config.environment))
        env.insert(key, value);
    m_process->setProcessEnvironment(env);
    m_process->setProgram(m_config.command.constFirst());
    m_process->setArguments(m_config.command.mid(1));
    connect(m_process, &QProcess::started, this, &McpTransport::opened);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &McpStdioTransport::readStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &McpStdioTransport::readStderr);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(McpTr::tr("could not start \"%1\": %2").arg(m_config.command.constFirst(), m_process->errorString()));
    });
    connect(m_process, &QProcess::finished, this, &McpStdioTransport::onFinished);
    m_process->start(QIODevice::ReadWrite);
}

void McpStdioTransport::send(const JsonObject &message)
{
    if (!m_process || m_process->state() != QProcess::Running)
        return;
    QByteArray line = toJson(message, 0);
    line += '\n';
    m_process->write(line);
}

void McpStdioTransport::readStdout()
{
    m_buffer += m_process->readAllStandardOutput();
    qsizetype start = 0;
    while (!m_failed) {
        // A long line arrives in many reads: look for its end only in what is new.
        const qsizetype end = m_buffer.indexOf('\n', std::max(start, m_scanned));
        if (end < 0) {
            m_scanned = m_buffer.size();
            break;
        }
        m_scanned = 0;
        QByteArrayView line = QByteArrayView(m_buffer).sliced(start, end - start);
        start = end + 1;
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        Result<JsonValue> message = parseMcpMessage(line);
        if (message)
            Q_EMIT received(message.value());
        else
            Q_EMIT notice(McpTr::tr("ignored a line on stdout that is not a JSON-RPC message (%1): %2")
                              .arg(message.error().message, snippet(line, 120)));
    }
    m_buffer.remove(0, start);
    m_scanned = std::max<qsizetype>(0, m_scanned - start);
    if (m_buffer.size() > MaxMessageBytes)
        fail(McpTr::tr("the server wrote a line longer than %1 MiB on stdout").arg(MaxMessageBytes / (1024 * 1024)));
}

void McpStdioTransport::readStderr()
{
    m_stderrBuffer += m_process->readAllStandardError();
    qsizetype start = 0;
    for (;;) {
        const qsizetype end = m_stderrBuffer.indexOf('\n', start);
        if (end < 0)
            break;
        const QString line = snippet(QByteArrayView(m_stderrBuffer).sliced(start, end - start), 500);
        start = end + 1;
        if (line.isEmpty())
            continue;
        m_stderrTail.append(line);
        if (m_stderrTail.size() > 20)
            m_stderrTail.removeFirst();
        Q_EMIT notice(line);
    }
    m_stderrBuffer.remove(0, start);
    if (m_stderrBuffer.size() > 64 * 1024) // a line that never ends: keep its start
        m_stderrBuffer.truncate(0);
}

QString McpStdioTransport::withStderr(const QString &error) const
{
    QStringList tail = m_stderrTail;
    const QString pending = snippet(m_stderrBuffer, 500);
    if (!pending.isEmpty())
        tail.append(pending);
    if (tail.isEmpty())
        return error;
    // The last lines say most; three are enough for a notice.
    return error + u": "_s + tail.mid(qMax(0, tail.size() - 3)).join(u" / "_s);
}

void McpStdioTransport::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_closing)
        return;
    readStdout();
    readStderr();
    const QString what = status == QProcess::CrashExit
        ? McpTr::tr("the server process crashed")
        : McpTr::tr("the server process exited with code %1").arg(exitCode);
    fail(withStderr(what));
}

void McpStdioTransport::fail(const QString &error)
{
    if (m_failed || m_closing)
        return;
    m_failed = true;
    Q_EMIT failed(error);
}

void McpStdioTransport::close()
{
    if (!m_process || m_closing)
        return;
    m_closing = true;
    m_process->disconnect(this);
    if (m_process->state() != QProcess::NotRunning) {
        // As the MCP SDK does: close stdin and give the server a moment, then SIGTERM, then SIGKILL.
        m_process->closeWriteChannel();
        if (!m_process->waitForFinished(300)) {
            m_process->terminate();
            if (!m_process->waitForFinished(1000)) {
                m_process->kill();
                m_process->waitForFinished(1000);
            }
        }
    }
}

// ---- streamable HTTP

/// What one HTTP answer has brought so far.
struct McpHttpTransport::Stream
{
    JsonValue id;
    bool listening = false;
    bool sse = false;
    bool decided = false;
    bool answered = false;
    SseParser parser;
    QByteArray body;
};

McpHttpTransport::McpHttpTransport(const McpServerConfig &config, QNetworkAccessManager *network, QObject *parent)
    : McpTransport(parent)
    , m_config(config)
    , m_network(network)
{
}

McpHttpTransport::~McpHttpTransport()
{
    close();
}

QNetworkRequest McpHttpTransport::request(bool eventStreamOnly) const
{
    QNetworkRequest request{QUrl(m_config.url)};
    for (const auto &[name, value] : m_config.headers)
        request.setRawHeader(name, value);
    request.setRawHeader("Accept", eventStreamOnly ? "text/event-stream" : "application/json, text/event-stream");
    if (!m_sessionId.isEmpty())
        request.setRawHeader("Mcp-Session-Id", m_sessionId);
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("Mcp-Protocol-Version", m_protocolVersion);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    return request;
}

void McpHttpTransport::open()
{
    // Nothing to set up: the initialize POST is the first contact.
    QMetaObject::invokeMethod(this, &McpTransport::opened, Qt::QueuedConnection);
}

void McpHttpTransport::send(const JsonObject &message)
{
    if (m_closed)
        return;
    QNetworkRequest req = request(false);
    req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *reply = Network::send(m_network, req, "POST", toJson(message, 0));
    const JsonValue id = message.contains(u"method") ? message.value(u"id") : JsonValue();
    if (!id.isUndefined())
        m_byId.insert(idKey(id), reply);
    watch(reply, id, false);
}

void McpHttpTransport::initialized(const QString &protocolVersion)
{
    m_protocolVersion = protocolVersion.toUtf8();
    if (m_closed || m_listen)
        return;
    m_listen = Network::send(m_network, request(true), "GET");
    watch(m_listen, {}, true);
}

void McpHttpTransport::cancel(const JsonValue &id)
{
    if (QPointer<QNetworkReply> reply = m_byId.take(idKey(id)))
        reply->abort();
}

void McpHttpTransport::watch(QNetworkReply *reply, const JsonValue &id, bool listening)
{
    auto stream = std::make_shared<Stream>();
    stream->id = id;
    stream->listening = listening;
    const auto deliver = [this, stream](QByteArrayView bytes) {
        Result<JsonValue> message = parseMcpMessage(bytes);
        if (!message) {
            Q_EMIT notice(McpTr::tr("ignored a reply that is not a JSON-RPC message (%1): %2")
                              .arg(message.error().message, snippet(bytes, 120)));
            return;
        }
        if (message->isObject() && !stream->id.isUndefined() && message->toObject().value(u"id") == stream->id
            && !message->toObject().contains(u"method"))
            stream->answered = true;
        Q_EMIT received(message.value());
    };
    connect(reply, &QNetworkReply::readyRead, this, [this, reply, stream, deliver] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (!stream->decided) {
            stream->decided = true;
            stream->sse = reply->header(QNetworkRequest::ContentTypeHeader).toString().startsWith(u"text/event-stream");
            if (status == 200 && !reply->rawHeader("Mcp-Session-Id").isEmpty() && m_sessionId.isEmpty())
                m_sessionId = reply->rawHeader("Mcp-Session-Id");
        }
        const QByteArray bytes = reply->readAll();
        if (status >= 200 && status < 300 && stream->sse) {
            for (const SseEvent &event : stream->parser.feed(bytes)) {
                if (event.event.isEmpty() || event.event == "message")
                    deliver(event.data);
            }
            if (stream->parser.failed()) {
                // Refused rather than buffered: the answer (or the notification stream) ends here.
                const QString error = McpTr::tr("the server's event stream was refused: %1").arg(stream->parser.errorString());
                if (stream->listening)
                    Q_EMIT notice(error);
                else if (!stream->id.isUndefined() && !stream->answered)
                    Q_EMIT requestFailed(stream->id, error);
                stream->answered = true;
                reply->abort();
            }
            return;
        }
        stream->body += bytes;
        if (stream->body.size() > MaxMessageBytes) {
            Q_EMIT requestFailed(stream->id, u"the server's answer is larger than %1 MiB"_s.arg(MaxMessageBytes / (1024 * 1024)));
            stream->answered = true;
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, stream, deliver] {
        reply->deleteLater();
        if (!stream->id.isUndefined())
            m_byId.remove(idKey(stream->id));
        if (m_closed)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 200 && m_sessionId.isEmpty() && !reply->rawHeader("Mcp-Session-Id").isEmpty())
            m_sessionId = reply->rawHeader("Mcp-Session-Id");
        if (reply->isOpen())
            stream->body += reply->readAll();
        QString error;
        if (const QString refused = Network::refusal(reply); !refused.isEmpty()) {
            if (stream->listening) {
                Q_EMIT notice(McpTr::tr("the notification stream ended: %1").arg(refused));
                return;
            }
            error = refused; // the call fails below with it
        } else if (reply->error() == QNetworkReply::OperationCanceledError) {
            return; // the client gave up on it (cancel()) or the transport closed
        } else if (status >= 400 || (status == 0 && reply->error() != QNetworkReply::NoError)) {
            error = status ? u"HTTP %1"_s.arg(status) : reply->errorString();
            const QString body = snippet(stream->body, 200);
            if (status && !body.isEmpty())
                error += u": "_s + body;
            if (status == 404 && !m_sessionId.isEmpty() && !stream->listening) {
                // The server no longer knows the session (it restarted or expired it).
                Q_EMIT failed(McpTr::tr("the server ended the session (%1)").arg(error));
                return;
            }
        } else if (!stream->sse && !stream->body.trimmed().isEmpty()) {
            deliver(stream->body);
        } else if (stream->sse && stream->parser.finish() && !stream->answered) {
            error = u"the server's answer ended in the middle of an event"_s;
        }
        if (stream->listening) {
            // 405: the server offers no stream of its own; anything else only costs notifications.
            if (!error.isEmpty() && status != 405)
                Q_EMIT notice(McpTr::tr("the notification stream ended: %1").arg(error));
            return;
        }
        if (!stream->id.isUndefined() && !stream->answered)
            Q_EMIT requestFailed(stream->id, error.isEmpty() ? u"the server's answer ended without a result"_s : error);
    });
}

void McpHttpTransport::close()
{
    if (m_closed)
        return;
    m_closed = true;
    const auto replies = m_byId.values();
    for (const QPointer<QNetworkReply> &reply : replies) {
        if (reply)
            reply->abort();
    }
    m_byId.clear();
    if (m_listen)
        m_listen->abort();
    if (!m_sessionId.isEmpty() && m_network) {
        // Ends the session on the server (it may refuse with 405; the answer does not matter).
        QNetworkReply *reply = Network::send(m_network, request(false), "DELETE");
        connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    }
}

// ---- HTTP+SSE (2024-11-05)

McpSseTransport::McpSseTransport(const McpServerConfig &config, QNetworkAccessManager *network, QObject *parent)
    : McpTransport(parent)
    , m_config(config)
    , m_network(network)
{
}

McpSseTransport::~McpSseTransport()
{
    close();
}

void McpSseTransport::open()
{
    QNetworkRequest request{QUrl(m_config.url)};
    for (const auto &[name, value] : m_config.headers)
        request.setRawHeader(name, value);
    request.setRawHeader("Accept", "text/event-stream");
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    m_stream = Network::send(m_network, request, "GET");
    connect(m_stream, &QNetworkReply::readyRead, this, &McpSseTransport::onStreamData);
    connect(m_stream, &QNetworkReply::finished, this, &McpSseTransport::onStreamFinished);
}

void McpSseTransport::onStreamData()
{
    const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200)
        return; // the error is reported when the reply finishes
    const QList<SseEvent> events = m_parser.feed(m_stream->readAll());
    if (m_parser.failed()) {
        m_closed = true;
        m_stream->abort();
        Q_EMIT failed(McpTr::tr("the server's event stream was refused: %1").arg(m_parser.errorString()));
        return;
    }
    for (const SseEvent &event : events) {
        if (event.event == "endpoint") {
            const QUrl endpoint = QUrl(m_config.url).resolved(QUrl(QString::fromUtf8(event.data).trimmed()));
            const QUrl base(m_config.url);
            if (endpoint.scheme() != base.scheme() || endpoint.host() != base.host() || endpoint.port() != base.port()) {
                m_closed = true;
                m_stream->abort();
                Q_EMIT failed(McpTr::tr("the server named an endpoint on another origin: %1").arg(endpoint.toString()));
                return;
            }
            const bool first = m_endpoint.isEmpty();
            m_endpoint = endpoint;
            if (first)
                Q_EMIT opened();
        } else if (event.event.isEmpty() || event.event == "message") {
            Result<JsonValue> message = parseMcpMessage(event.data);
            if (message)
                Q_EMIT received(message.value());
            else
                Q_EMIT notice(McpTr::tr("ignored an event that is not a JSON-RPC message (%1): %2")
                                  .arg(message.error().message, snippet(event.data, 120)));
        }
    }
}

void McpSseTransport::onStreamFinished()
{
    m_stream->deleteLater();
    if (m_closed)
        return;
    m_closed = true;
    const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (const QString refused = Network::refusal(m_stream); !refused.isEmpty())
        Q_EMIT failed(refused);
    else if (status && status != 200)
        Q_EMIT failed(McpTr::tr("HTTP %1: %2")
                          .arg(status)
                          .arg(snippet(m_stream->isOpen() ? m_stream->readAll() : QByteArray(), 200)));
    else if (m_stream->error() != QNetworkReply::NoError)
        Q_EMIT failed(m_stream->errorString());
    else
        Q_EMIT failed(McpTr::tr("the server ended the event stream"));
}

void McpSseTransport::send(const JsonObject &message)
{
    if (m_closed || m_endpoint.isEmpty())
        return;
    QNetworkRequest request{m_endpoint};
    for (const auto &[name, value] : m_config.headers)
        request.setRawHeader(name, value);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *reply = Network::send(m_network, request, "POST", toJson(message, 0));
    const JsonValue id = message.contains(u"method") ? message.value(u"id") : JsonValue();
    connect(reply, &QNetworkReply::finished, this, [this, reply, id] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (m_closed || id.isUndefined())
            return;
        if (const QString refused = Network::refusal(reply); !refused.isEmpty()) {
            Q_EMIT requestFailed(id, refused);
            return;
        }
        if (status >= 200 && status < 300)
            return;
        Q_EMIT requestFailed(id, status ? u"HTTP %1: %2"_s.arg(status).arg(snippet(reply->isOpen() ? reply->readAll() : QByteArray(), 200))
                                        : reply->errorString());
    });
}

void McpSseTransport::close()
{
    if (m_closed)
        return;
    m_closed = true;
    if (m_stream)
        m_stream->abort();
}

} // namespace weft
