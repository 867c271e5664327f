// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What is known of an MCP server, as values: how it is reached, its state (what the settings
// page and the window's notices show) and the resources it offers (what an @mention in the
// composer attaches). The servers themselves live in model/mcp.

#include <QList>
#include <QString>
#include <QStringList>

namespace weft
{

/// How an MCP server is reached: a process started here (stdio) or a URL.
enum class McpServerType { Local, Remote };

/// What is known about one configured server.
struct McpServerStatus
{
    enum class State { Disabled, Connecting, Connected, Failed };

    QString name;
    McpServerType type = McpServerType::Local;
    State state = State::Disabled;
    QString error; ///< why it failed
    QString target; ///< the command line or the URL
    QString transport; ///< "stdio", "streamable HTTP", "SSE" once connected
    QString serverName; ///< the server's own name and version (serverInfo)
    QString serverVersion;
    QString protocolVersion;
    int toolCount = 0;
    int promptCount = 0;
    int resourceCount = 0;
    qint64 handshakeMs = -1; ///< start to initialize answered
    qint64 connectMs = -1; ///< start to tools listed
    QStringList log; ///< the last lines of stderr and notices (at most 50)

    /// OpenCode's names: "connected", "connecting", "failed", "disabled".
    [[nodiscard]] static QString stateName(State state);
};

/// A resource a server offers (resources/list): what an @mention in the composer attaches.
struct McpResourceInfo
{
    QString server;
    QString name;
    QString uri;
    QString description;
    QString mimeType;
    bool operator==(const McpResourceInfo &) const = default;
};

} // namespace weft
