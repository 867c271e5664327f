// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace weft
{

class McpServers;

/// The settings page of the MCP servers (the config's `mcp` key): each server with its type,
/// state, tool count and error or what it runs, updated live, and a Connect button per server
/// (Reconnect once connected: a new session, which also tests it).
class McpServersPage : public QWidget
{
    Q_OBJECT

public:
    explicit McpServersPage(McpServers *servers, QWidget *parent = nullptr);

    [[nodiscard]] QTreeWidget *tree() const { return m_tree; }
    /// The Connect button of server @p name, or nullptr.
    [[nodiscard]] QPushButton *connectButton(const QString &name) const;

private:
    void reload();

    QPointer<McpServers> m_servers;
    QTreeWidget *m_tree = nullptr;
    QLabel *m_empty = nullptr;
};

} // namespace weft
