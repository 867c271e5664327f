// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpclient.h"

#include "core/logging.h"
#include "core/tr.h"

#include <QCoreApplication>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace weft
{

const QStringList &mcpSupportedProtocolVersions()
{
    static const QStringList versions{McpProtocolVersion.toString(), u"2025-06-18"_s, u"2025-03-26"_s,
                                      u"2024-11-05"_s, u"2024-10-07"_s};
    return versions;
}

/// "MCP error -32602: Invalid params" as the MCP SDK words a JSON-RPC error.
static QString rpcErrorText(const JsonObject &error)
{
    const QString message = error.string(u"message", u"unknown error"_s);
    if (!error.value(u"code").isNumber())
        return message;
    return u"MCP error %1: %2"_s.arg(error.integer(u"code")).arg(message);
}

McpClient::McpClient(McpServerConfig config, QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_network(network)
{
}

McpClient::~McpClient()
{
    // Every caller still waiting hears why (exactly once).
    m_failed = true;
    const auto pending = std::exchange(m_pending, {});
    for (const Pending &p : pending) {
        delete p.timer;
        p.callback(Error{u"the connection to the MCP server was closed"_s});
    }
    if (m_transport)
        m_transport->close();
}

void McpClient::start()
{
    m_clock.start();
    if (m_config.type == McpServerConfig::Type::Local)
        useTransport(new McpStdioTransport(m_config, this));
    else
        useTransport(new McpHttpTransport(m_config, m_network, this));
}

void McpClient::useTransport(McpTransport *transport)
{
    if (m_transport) {
        m_transport->disconnect(this);
        m_transport->close();
        m_transport->deleteLater();
    }
    m_transport = transport;
    connect(transport, &McpTransport::opened, this, &McpClient::onOpened);
    connect(transport, &McpTransport::received, this, &McpClient::onReceived);
    connect(transport, &McpTransport::failed, this, &McpClient::onTransportFailed);
    connect(transport, &McpTransport::notice, this, &McpClient::notice);
    connect(transport, &McpTransport::requestFailed, this, [this](const JsonValue &id, const QString &error) {
        if (id.isNumber())
            finishRequest(qint64(id.toDouble()), Error{error});
    });
    transport->open();
}

void McpClient::onOpened()
{
    const QString version = QCoreApplication::applicationVersion();
    const JsonObject params{{u"protocolVersion"_s, McpProtocolVersion.toString()},
                            {u"capabilities"_s, JsonObject()},
                            {u"clientInfo"_s, JsonObject{{u"name"_s, u"weft"_s},
                                                         {u"version"_s, version.isEmpty() ? u"0"_s : version}}}};
    McpTransport *transport = m_transport;
    request(u"initialize"_s, params, m_config.requestTimeoutMs(), [this, transport](Result<JsonValue> result) {
        if (m_failed || transport != m_transport)
            return;
        if (!result) {
            onTransportFailed(result.error().message);
            return;
        }
        const JsonObject answer = result->toObject();
        m_protocolVersion = answer.string(u"protocolVersion");
        if (!mcpSupportedProtocolVersions().contains(m_protocolVersion)) {
            fail(McpTr::tr("the server speaks MCP protocol version \"%1\", which Weft does not support")
                     .arg(m_protocolVersion));
            return;
        }
        m_serverInfo = answer.object(u"serverInfo");
        m_capabilities = answer.object(u"capabilities");
        m_instructions = answer.string(u"instructions");
        m_handshakeMs = m_clock.elapsed();
        m_transport->initialized(m_protocolVersion);
        notify(u"notifications/initialized"_s);
        refreshTools([this](Result<void> listed) {
            if (m_failed)
                return;
            if (!listed) {
                fail(McpTr::tr("failed to get tools: %1").arg(listed.error().message));
                return;
            }
            refreshPrompts([this] {
                refreshResources([this] {
                    if (m_failed)
                        return;
                    m_ready = true;
                    Q_EMIT ready();
                });
            });
        });
    });
}

void McpClient::onTransportFailed(const QString &error)
{
    if (m_failed)
        return;
    // A remote server that fails before the handshake is tried with the older HTTP+SSE
    // transport, as OpenCode does.
    const bool handshaking = m_handshakeMs < 0;
    if (handshaking && m_config.type == McpServerConfig::Type::Remote && !m_triedSse) {
        m_triedSse = true;
        m_streamableError = error;
        const auto pending = std::exchange(m_pending, {});
        for (const Pending &p : pending)
            delete p.timer;
        useTransport(new McpSseTransport(m_config, m_network, this));
        return;
    }
    if (m_triedSse && handshaking)
        fail(McpTr::tr("streamable HTTP: %1; SSE: %2").arg(m_streamableError, error));
    else
        fail(error);
}

qint64 McpClient::request(const QString &method, const JsonObject &params, qint64 timeoutMs, Callback callback)
{
    const qint64 id = ++m_nextId;
    if (m_failed || !m_transport) {
        QMetaObject::invokeMethod(this, [callback] { callback(Error{u"the MCP server is not connected"_s}); },
                                  Qt::QueuedConnection);
        return id;
    }
    Pending pending;
    pending.callback = std::move(callback);
    pending.method = method;
    pending.timer = new QTimer(this);
    pending.timer->setSingleShot(true);
    pending.timer->setTimerType(Qt::PreciseTimer); // a timeout never comes early
    connect(pending.timer, &QTimer::timeout, this, [this, id, method, timeoutMs] {
        cancel(id, u"the server did not answer %1 within %2 ms"_s.arg(method).arg(timeoutMs));
    });
    pending.timer->start(std::chrono::milliseconds(timeoutMs));
    m_pending.insert(id, std::move(pending));
    JsonObject message{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"method"_s, method}};
    if (!params.isEmpty())
        message.insert(u"params"_s, params);
    m_transport->send(message);
    return id;
}

void McpClient::cancel(qint64 id, const QString &reason)
{
    if (!m_pending.contains(id))
        return;
    const bool initialize = m_pending.value(id).method == u"initialize";
    finishRequest(id, Error{reason});
    // The spec: initialize is never cancelled.
    if (!initialize)
        notify(u"notifications/cancelled"_s, JsonObject{{u"requestId"_s, id}, {u"reason"_s, reason}});
    if (m_transport)
        m_transport->cancel(JsonValue(id));
}

void McpClient::notify(const QString &method, const JsonObject &params)
{
    if (!m_transport || m_failed)
        return;
    JsonObject message{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, method}};
    if (!params.isEmpty())
        message.insert(u"params"_s, params);
    m_transport->send(message);
}

void McpClient::finishRequest(qint64 id, Result<JsonValue> result)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    const Pending pending = std::move(*it);
    m_pending.erase(it);
    delete pending.timer;
    pending.callback(std::move(result));
}

void McpClient::onReceived(const JsonValue &message)
{
    if (message.isArray()) {
        for (const JsonValue &item : message.toArray()) {
            if (item.isObject())
                onMessage(item.toObject());
        }
        return;
    }
    onMessage(message.toObject());
}

void McpClient::onMessage(const JsonObject &message)
{
    const JsonValue id = message.value(u"id");
    if (message.value(u"method").isString()) {
        const QString method = message.string(u"method");
        if (!id.isUndefined()) {
            // A request from the server. Weft offers no client capabilities (sampling, roots,
            // elicitation), so only ping is answered with a result.
            JsonObject answer{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}};
            if (method == u"ping")
                answer.insert(u"result"_s, JsonObject());
            else
                answer.insert(u"error"_s, JsonObject{{u"code"_s, -32601}, {u"message"_s, u"Method not found"_s}});
            if (m_transport && !m_failed)
                m_transport->send(answer);
            return;
        }
        if (method == u"notifications/tools/list_changed" && m_ready) {
            refreshTools([this](Result<void> listed) {
                if (!listed)
                    Q_EMIT notice(McpTr::tr("could not list the tools again: %1").arg(listed.error().message));
                else
                    Q_EMIT listsChanged();
            });
        } else if (method == u"notifications/prompts/list_changed" && m_ready) {
            refreshPrompts([this] { Q_EMIT listsChanged(); });
        } else if (method == u"notifications/resources/list_changed" && m_ready) {
            refreshResources([this] { Q_EMIT listsChanged(); });
        } else if (method == u"notifications/message") {
            const JsonObject params = message.object(u"params");
            const JsonValue data = params.value(u"data");
            Q_EMIT notice(params.string(u"level", u"info"_s) + u": "_s
                          + (data.isString() ? data.toString() : QString::fromUtf8(toJson(data, 0))));
        }
        return;
    }
    if (id.isNumber() || id.isString()) {
        bool ok = id.isNumber();
        const qint64 key = id.isNumber() ? qint64(id.toDouble()) : id.toString().toLongLong(&ok);
        if (!ok || !m_pending.contains(key)) {
            Q_EMIT notice(McpTr::tr("ignored an answer to a request Weft did not send (id %1)")
                              .arg(QString::fromUtf8(toJson(id, 0))));
            return;
        }
        if (message.value(u"error").isObject())
            finishRequest(key, Error{rpcErrorText(message.object(u"error"))});
        else if (message.contains(u"result"))
            finishRequest(key, message.value(u"result"));
        else
            finishRequest(key, Error{u"the server answered without a result or an error"_s});
        return;
    }
    Q_EMIT notice(McpTr::tr("ignored a message that is neither a request, a notification nor an answer"));
}

void McpClient::fail(const QString &error)
{
    if (m_failed)
        return;
    m_failed = true;
    m_ready = false;
    const auto pending = std::exchange(m_pending, {});
    for (const Pending &p : pending) {
        delete p.timer;
        p.callback(Error{error});
    }
    if (m_transport)
        m_transport->close();
    Q_EMIT failed(error);
}

void McpClient::listAll(const QString &method, const QString &field, qint64 timeoutMs,
                        std::function<void(Result<JsonArray>)> done, JsonArray sofar, const QString &cursor, int pages)
{
    JsonObject params;
    if (!cursor.isEmpty())
        params.insert(u"cursor"_s, cursor);
    request(method, params, timeoutMs,
            [this, method, field, timeoutMs, done = std::move(done), sofar = std::move(sofar), cursor,
             pages](Result<JsonValue> result) mutable {
                if (!result) {
                    done(result.error());
                    return;
                }
                const JsonObject page = result->toObject();
                if (!page.value(field).isArray()) {
                    done(Error{u"the answer to %1 has no %2 list"_s.arg(method, field)});
                    return;
                }
                for (const JsonValue &item : page.array(field))
                    sofar.append(item);
                const QString next = page.string(u"nextCursor");
                // A server that pages forever (or repeats a cursor) is cut off at 100 pages.
                if (next.isEmpty() || next == cursor || pages >= 99) {
                    done(std::move(sofar));
                    return;
                }
                listAll(method, field, timeoutMs, std::move(done), std::move(sofar), next, pages + 1);
            });
}

void McpClient::refreshTools(std::function<void(Result<void>)> done)
{
    listAll(u"tools/list"_s, u"tools"_s, m_config.listTimeoutMs(), [this, done](Result<JsonArray> listed) {
        if (!listed) {
            done(listed.error());
            return;
        }
        QList<McpToolInfo> tools;
        for (const JsonValue &item : listed.value()) {
            const JsonObject o = item.toObject();
            McpToolInfo tool;
            tool.server = m_config.name;
            tool.name = o.string(u"name");
            if (tool.name.isEmpty()) {
                Q_EMIT notice(McpTr::tr("ignored a tool without a name"));
                continue;
            }
            tool.title = o.string(u"title", o.object(u"annotations").string(u"title"));
            tool.description = o.string(u"description");
            tool.inputSchema = o.object(u"inputSchema");
            tools.append(tool);
        }
        m_lists.tools = tools;
        done({});
    });
}

void McpClient::listOffered(const QString &kind, const QString &failure, std::function<void(const JsonArray &)> take,
                            std::function<void()> done)
{
    if (!m_capabilities.contains(kind)) {
        done();
        return;
    }
    listAll(kind + u"/list"_s, kind, m_config.listTimeoutMs(),
            [this, failure, take = std::move(take), done = std::move(done)](Result<JsonArray> listed) {
                if (listed)
                    take(listed.value());
                else // As OpenCode: a server whose prompts or resources cannot be listed still serves its tools.
                    Q_EMIT notice(failure.arg(listed.error().message));
                done();
            });
}

void McpClient::refreshPrompts(std::function<void()> done)
{
    listOffered(u"prompts"_s, McpTr::tr("could not list the prompts: %1"), [this](const JsonArray &listed) {
        QList<McpPromptInfo> prompts;
        for (const JsonValue &item : listed) {
            const JsonObject o = item.toObject();
            McpPromptInfo prompt;
            prompt.server = m_config.name;
            prompt.name = o.string(u"name");
            prompt.description = o.string(u"description");
            for (const JsonValue &arg : o.array(u"arguments")) {
                const QString name = arg.toObject().string(u"name");
                prompt.arguments.append(name);
                if (arg.toObject().boolean(u"required"))
                    prompt.requiredArguments.append(name);
            }
            if (!prompt.name.isEmpty())
                prompts.append(prompt);
        }
        m_lists.prompts = prompts;
    }, std::move(done));
}

void McpClient::refreshResources(std::function<void()> done)
{
    listOffered(u"resources"_s, McpTr::tr("could not list the resources: %1"),
                [this](const JsonArray &listed) {
                    QList<McpResourceInfo> resources;
                    for (const JsonValue &item : listed) {
                        const JsonObject o = item.toObject();
                        McpResourceInfo resource;
                        resource.server = m_config.name;
                        resource.uri = o.string(u"uri");
                        resource.name = o.string(u"name", resource.uri);
                        resource.description = o.string(u"description");
                        resource.mimeType = o.string(u"mimeType");
                        if (!resource.uri.isEmpty())
                            resources.append(resource);
                    }
                    m_lists.resources = resources;
                },
                std::move(done));
}

} // namespace weft
