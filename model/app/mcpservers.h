// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/mcpserver.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <optional>

namespace weft
{

class McpManager;

/// The MCP servers of the process (McpManager) as the window shows them: their states, live,
/// and a reconnect (a new session, which also tests the server's configuration).
class McpServers : public QObject
{
    Q_OBJECT

public:
    /// The servers of the process (McpManager::instance()).
    explicit McpServers(QObject *parent = nullptr);
    /// The servers of @p manager (the tests' own).
    explicit McpServers(McpManager *manager, QObject *parent = nullptr);

    [[nodiscard]] QList<McpServerStatus> servers() const;
    [[nodiscard]] std::optional<McpServerStatus> server(const QString &name) const;
    /// Stops server @p name and starts it again, even when the config disables it (OpenCode's
    /// connect). False when no such server is configured.
    bool reconnect(const QString &name);

Q_SIGNALS:
    /// A server's state, tools, prompts or log changed.
    void serverChanged(const QString &name);
    /// A server failed (could not start, timed out, died).
    void serverFailed(const QString &name, const QString &error);

private:
    QPointer<McpManager> m_manager;
};

} // namespace weft
