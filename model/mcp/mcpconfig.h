// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The config's `mcp` object, in OpenCode's format:
//   "mcp": { "<name>": { "type": "local", "command": ["prog", "arg"], "environment": {...},
//                        "enabled": true, "timeout": 5000 }
//          | { "type": "remote", "url": "https://...", "headers": {...}, "enabled": ..., "timeout": ... } }

#include "core/json.h"
#include "core/mcpserver.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace weft
{

/// One MCP server as configured.
struct McpServerConfig
{
    using Type = McpServerType;

    QString name;
    Type type = Type::Local;
    QStringList command; ///< local: the program and its arguments
    QList<std::pair<QString, QString>> environment; ///< local: added to the process environment
    QString url; ///< remote
    QList<std::pair<QByteArray, QByteArray>> headers; ///< remote: sent with every request
    bool enabled = true;
    /// The config's `timeout` in milliseconds, when given.
    std::optional<qint64> timeoutMs;
    /// Why the entry cannot be used (wrong shape); empty when it is fine. Such a server is listed
    /// as failed with this error instead of being dropped silently.
    QString error;
    /// The entry as written (to tell whether a new config changed it).
    JsonObject json;

    /// How long tools/list may take: the config's timeout, else 5 s (OpenCode's default).
    [[nodiscard]] qint64 listTimeoutMs() const { return timeoutMs.value_or(5000); }
    /// How long initialize, tools/call and the other requests may take: the config's timeout,
    /// else 60 s (the MCP SDK's default request timeout).
    [[nodiscard]] qint64 requestTimeoutMs() const { return timeoutMs.value_or(60000); }

    [[nodiscard]] static QString typeName(Type type) { return type == Type::Local ? QStringLiteral("local") : QStringLiteral("remote"); }
};

/// Parses the config's `mcp` object, in its order. Entries of the wrong shape come back with
/// `error` set (and are never started).
[[nodiscard]] QList<McpServerConfig> parseMcpConfig(const JsonObject &mcp);

/// OpenCode's name sanitising for tool keys: every character outside [a-zA-Z0-9_-] becomes '_'.
[[nodiscard]] QString mcpSanitize(const QString &name);

/// The name the model sees for tool @p tool of server @p server: "<server>_<tool>", sanitised.
[[nodiscard]] QString mcpToolKey(const QString &server, const QString &tool);

} // namespace weft
