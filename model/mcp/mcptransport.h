// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How JSON-RPC messages reach an MCP server: a child process's stdin/stdout (newline-delimited
// JSON), streamable HTTP (POST, the answer as JSON or as an SSE stream) or the older HTTP+SSE
// transport (a GET event stream, POSTs to the endpoint it names).

#include "mcpconfig.h"
#include "provider/sseparser.h"

#include "core/json.h"
#include "core/result.h"

#include <QByteArray>
#include <QHash>
#include <QNetworkRequest>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QStringList>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace weft
{

/// One connection to a server. Lives on one thread; all signals are emitted there.
class McpTransport : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    /// Starts the connection; opened() or failed() follows.
    virtual void open() = 0;
    /// Sends one JSON-RPC message (request, notification or response).
    virtual void send(const JsonObject &message) = 0;
    /// Gives up on the answer to request @p id (a timeout or an abort): an HTTP transport ends
    /// the request's stream. The default does nothing.
    virtual void cancel(const JsonValue &id) { (void)id; }
    /// The handshake is done: the transport may start what it does after it (the HTTP GET stream
    /// for server notifications) and send the negotiated protocol version.
    virtual void initialized(const QString &protocolVersion) { (void)protocolVersion; }
    /// Ends the connection (a child process is asked to exit, then ended).
    virtual void close() = 0;
    /// "stdio", "streamable HTTP" or "SSE".
    [[nodiscard]] virtual QString kind() const = 0;

    /// The most a single message may be: 64 MiB. A larger one ends the connection.
    static constexpr qsizetype MaxMessageBytes = 64 * 1024 * 1024;

Q_SIGNALS:
    void opened();
    /// A message arrived (an object, or an array for a JSON-RPC batch).
    void received(const weft::JsonValue &message);
    /// The request with @p id got no answer and never will (an HTTP error, a dropped stream).
    void requestFailed(const weft::JsonValue &id, const QString &error);
    /// The connection is gone (the process exited, could not start, the stream broke): @p error
    /// says why, with what the server wrote to stderr when there was something.
    void failed(const QString &error);
    /// Something worth showing in a log: a stderr line, a line that is not JSON.
    void notice(const QString &text);
};

/// A local server: the child process's stdin and stdout carry one JSON message per line; stderr
/// is kept (its last lines explain a failure).
class McpStdioTransport : public McpTransport
{
    Q_OBJECT

public:
    explicit McpStdioTransport(const McpServerConfig &config, QObject *parent = nullptr);
    ~McpStdioTransport() override;

    void open() override;
    void send(const JsonObject &message) override;
    void close() override;
    [[nodiscard]] QString kind() const override { return QStringLiteral("stdio"); }
    /// The last lines the process wrote to stderr (at most 20).
    [[nodiscard]] QStringList stderrTail() const { return m_stderrTail; }

private:
    void readStdout();
    void readStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void fail(const QString &error);
    [[nodiscard]] QString withStderr(const QString &error) const;

    McpServerConfig m_config;
    QProcess *m_process = nullptr;
    QByteArray m_buffer;
    qsizetype m_scanned = 0; ///< m_buffer's bytes already searched for a line break
    QByteArray m_stderrBuffer;
    QStringList m_stderrTail;
    bool m_closing = false;
    bool m_failed = false;
};

/// A remote server over streamable HTTP (MCP 2025-03-26 and later): each message is POSTed with
/// `Accept: application/json, text/event-stream`; the answer comes as JSON or as an SSE stream;
/// `Mcp-Session-Id` from the initialize answer goes with every later request; after the
/// handshake a GET stream carries the server's own notifications (405 means it has none).
class McpHttpTransport : public McpTransport
{
    Q_OBJECT

public:
    McpHttpTransport(const McpServerConfig &config, QNetworkAccessManager *network, QObject *parent = nullptr);
    ~McpHttpTransport() override;

    void open() override;
    void send(const JsonObject &message) override;
    void cancel(const JsonValue &id) override;
    void initialized(const QString &protocolVersion) override;
    void close() override;
    [[nodiscard]] QString kind() const override { return QStringLiteral("streamable HTTP"); }
    [[nodiscard]] QByteArray sessionId() const { return m_sessionId; }

private:
    struct Stream;
    void watch(QNetworkReply *reply, const JsonValue &id, bool listening);
    void finishReply(QNetworkReply *reply);
    [[nodiscard]] QNetworkRequest request(bool eventStreamOnly) const;

    McpServerConfig m_config;
    QNetworkAccessManager *m_network = nullptr;
    QByteArray m_sessionId;
    QByteArray m_protocolVersion;
    QHash<QString, QPointer<QNetworkReply>> m_byId;
    QPointer<QNetworkReply> m_listen;
    bool m_closed = false;
};

/// A remote server over the older HTTP+SSE transport (MCP 2024-11-05): a GET event stream whose
/// first `endpoint` event names where to POST messages; every answer comes on the stream.
class McpSseTransport : public McpTransport
{
    Q_OBJECT

public:
    McpSseTransport(const McpServerConfig &config, QNetworkAccessManager *network, QObject *parent = nullptr);
    ~McpSseTransport() override;

    void open() override;
    void send(const JsonObject &message) override;
    void close() override;
    [[nodiscard]] QString kind() const override { return QStringLiteral("SSE"); }

private:
    void onStreamData();
    void onStreamFinished();

    McpServerConfig m_config;
    QNetworkAccessManager *m_network = nullptr;
    QPointer<QNetworkReply> m_stream;
    SseParser m_parser;
    QUrl m_endpoint;
    bool m_closed = false;
};

/// Parses one JSON-RPC message (object or batch array); an error names what was wrong.
[[nodiscard]] Result<JsonValue> parseMcpMessage(QByteArrayView bytes);

} // namespace weft
