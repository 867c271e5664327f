// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpservers.h"

#include "mcp/mcpmanager.h"

namespace weft
{

McpServers::McpServers(QObject *parent)
    : McpServers(McpManager::instance(), parent)
{
}

McpServers::McpServers(McpManager *manager, QObject *parent)
    : QObject(parent)
    , m_manager(manager)
{
    if (!m_manager)
        return;
    connect(m_manager, &McpManager::serverChanged, this, &McpServers::serverChanged);
    connect(m_manager, &McpManager::serverFailed, this, &McpServers::serverFailed);
}

QList<McpServerStatus> McpServers::servers() const
{
    return m_manager ? m_manager->servers() : QList<McpServerStatus>();
}

std::optional<McpServerStatus> McpServers::server(const QString &name) const
{
    return m_manager ? m_manager->server(name) : std::nullopt;
}

bool McpServers::reconnect(const QString &name)
{
    return m_manager && m_manager->reconnect(name);
}

} // namespace weft
