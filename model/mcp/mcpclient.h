// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One MCP session: JSON-RPC 2.0 over a transport, the handshake (initialize, then
// notifications/initialized), the server's tools, prompts and resources (paginated lists,
// refreshed on list_changed), requests with timeouts, and the answers a client owes the server (ping).

#include "mcpconfig.h"
#include "mcptransport.h"

#include "core/json.h"
#include "core/mcpserver.h"
#include "core/result.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>

class QNetworkAccessManager;
class QTimer;

namespace weft
{

/// A tool a server offers (tools/list).
struct McpToolInfo
{
    QString server;
    QString name;
    QString title;
    QString description;
    JsonObject inputSchema;
    /// The name the model sees ("server_tool", sanitised as OpenCode does).
    [[nodiscard]] QString key() const { return mcpToolKey(server, name); }
};

/// A prompt a server offers (prompts/list).
struct McpPromptInfo
{
    QString server;
    QString name;
    QString description;
    QStringList arguments;
    QStringList requiredArguments;
};

/// What a server offers, as last listed.
struct McpLists
{
    QList<McpToolInfo> tools;
    QList<McpPromptInfo> prompts;
    QList<McpResourceInfo> resources;
};

/// The protocol version Weft asks for: the latest of the MCP SDK that OpenCode 1.18 uses (1.29).
inline constexpr QStringView McpProtocolVersion = u"2025-11-25";
/// The versions Weft accepts from a server, newest first.
[[nodiscard]] const QStringList &mcpSupportedProtocolVersions();

/// One session with one server. Lives on one thread (the MCP thread); every callback and signal
/// comes there.
class McpClient : public QObject
{
    Q_OBJECT

public:
    using Callback = std::function<void(Result<JsonValue>)>;

    /// @p network is used for remote servers (it must live on the same thread).
    McpClient(McpServerConfig config, QNetworkAccessManager *network, QObject *parent = nullptr);
    ~McpClient() override;

    /// Connects, shakes hands, lists the tools (and prompts when offered); ready() or failed()
    /// follows. A remote server is tried over streamable HTTP first, then over HTTP+SSE, as
    /// OpenCode does.
    void start();

    /// Sends request @p method and calls @p callback exactly once: with the result, the server's
    /// error, a timeout after @p timeoutMs, or the failure that ends the session. Returns the ID.
    qint64 request(const QString &method, const JsonObject &params, qint64 timeoutMs, Callback callback);
    /// Gives up on request @p id: its callback gets @p reason and the server is told
    /// (notifications/cancelled).
    void cancel(qint64 id, const QString &reason);
    void notify(const QString &method, const JsonObject &params = {});

    [[nodiscard]] const McpServerConfig &config() const { return m_config; }
    [[nodiscard]] bool isReady() const { return m_ready; }
    [[nodiscard]] const McpLists &lists() const { return m_lists; }
    [[nodiscard]] QString transportKind() const { return m_transport ? m_transport->kind() : QString(); }
    [[nodiscard]] QString protocolVersion() const { return m_protocolVersion; }
    [[nodiscard]] JsonObject serverInfo() const { return m_serverInfo; }
    [[nodiscard]] QString instructions() const { return m_instructions; }
    /// Milliseconds from start() to the end of the handshake (initialize answered).
    [[nodiscard]] qint64 handshakeMs() const { return m_handshakeMs; }

Q_SIGNALS:
    /// The handshake and the first tools/list succeeded.
    void ready();
    /// The session is over (could not start, handshake failed, the server died); every pending
    /// request was answered with @p error.
    void failed(const QString &error);
    /// tools/list, prompts/list or resources/list gave a new list (after a list_changed
    /// notification).
    void listsChanged();
    /// A stderr line or a protocol oddity, for the log.
    void notice(const QString &text);

private:
    struct Pending {
        Callback callback;
        QTimer *timer = nullptr;
        QString method;
    };
    void useTransport(McpTransport *transport);
    void onOpened();
    void onReceived(const JsonValue &message);
    void onMessage(const JsonObject &message);
    void onTransportFailed(const QString &error);
    void finishRequest(qint64 id, Result<JsonValue> result);
    void fail(const QString &error);
    void listAll(const QString &method, const QString &field, qint64 timeoutMs,
                 std::function<void(Result<JsonArray>)> done, JsonArray sofar = {}, const QString &cursor = {},
                 int pages = 0);
    void refreshTools(std::function<void(Result<void>)> done);
    /// Lists `<kind>/list` ("prompts", "resources") when the server offers that capability and
    /// hands the items to @p take; a list that cannot be had is a notice (@p failure, "%1" the
    /// reason) and keeps the one before. @p done follows in every case.
    void listOffered(const QString &kind, const QString &failure, std::function<void(const JsonArray &)> take,
                     std::function<void()> done);
    void refreshPrompts(std::function<void()> done);
    void refreshResources(std::function<void()> done);

    McpServerConfig m_config;
    QNetworkAccessManager *m_network = nullptr;
    McpTransport *m_transport = nullptr;
    bool m_triedSse = false;
    QString m_streamableError;
    qint64 m_nextId = 0;
    QHash<qint64, Pending> m_pending;
    bool m_ready = false;
    bool m_failed = false;
    QElapsedTimer m_clock;
    qint64 m_handshakeMs = -1;
    QString m_protocolVersion;
    JsonObject m_serverInfo;
    JsonObject m_capabilities;
    QString m_instructions;
    McpLists m_lists;
};

} // namespace weft
