// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpserverspage.h"

#include "app/mcpservers.h"
#include "style.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
enum Column { NameColumn, TypeColumn, StateColumn, ToolsColumn, DetailsColumn, ActionColumn, ColumnCount };
}

McpServersPage::McpServersPage(McpServers *servers, QWidget *parent)
    : QWidget(parent)
    , m_servers(servers)
{
    setObjectName(u"mcpServersPage"_s);
    auto *intro = new QLabel(tr("MCP servers from the \"mcp\" key of the configuration. Their tools are offered to the "
                                "agent as <i>server_tool</i>."),
                             this);
    intro->setWordWrap(true);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(u"mcpServers"_s);
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Server"), tr("Type"), tr("State"), tr("Tools"), tr("Details"), QString()});
    m_tree->header()->setSectionResizeMode(DetailsColumn, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_empty = new QLabel(tr("No MCP servers are configured."), this);
    m_empty->setObjectName(u"mcpEmpty"_s);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(intro);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_empty);
    if (m_servers)
        connect(m_servers, &McpServers::serverChanged, this, &McpServersPage::reload);
    reload();
}

QPushButton *McpServersPage::connectButton(const QString &name) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_tree->topLevelItem(i);
        if (item->text(NameColumn) == name)
            return qobject_cast<QPushButton *>(m_tree->itemWidget(item, ActionColumn));
    }
    return nullptr;
}

void McpServersPage::reload()
{
    const QList<McpServerStatus> servers = m_servers ? m_servers->servers() : QList<McpServerStatus>();
    m_tree->clear();
    m_empty->setVisible(servers.isEmpty());
    m_tree->setVisible(!servers.isEmpty());
    for (const McpServerStatus &s : servers) {
        auto *item = new QTreeWidgetItem(m_tree);
        item->setText(NameColumn, s.name);
        item->setText(TypeColumn, s.type == McpServerType::Local ? tr("local") : tr("remote"));
        QString state;
        QString icon;
        switch (s.state) {
        case McpServerStatus::State::Connected:
            state = tr("connected");
            icon = u"emblem-ok-symbolic"_s;
            break;
        case McpServerStatus::State::Connecting:
            state = tr("connecting");
            icon = u"view-refresh"_s;
            break;
        case McpServerStatus::State::Failed:
            state = tr("failed");
            icon = u"dialog-error"_s;
            break;
        case McpServerStatus::State::Disabled:
            state = tr("disabled");
            break;
        }
        item->setText(StateColumn, state);
        if (!icon.isEmpty())
            item->setIcon(StateColumn, Style::icon(icon));
        if (s.state == McpServerStatus::State::Connected)
            item->setText(ToolsColumn, QString::number(s.toolCount));
        QString details = s.target;
        if (s.state == McpServerStatus::State::Failed)
            details = s.error;
        else if (s.state == McpServerStatus::State::Connected)
            details = tr("%1 over %2, connected in %3 ms").arg(s.serverName.isEmpty() ? s.target : s.serverName, s.transport).arg(s.connectMs);
        item->setText(DetailsColumn, details);
        QString tip = s.target;
        if (!s.error.isEmpty())
            tip += u"\n\n"_s + s.error;
        if (!s.log.isEmpty())
            tip += u"\n\n"_s + s.log.mid(qMax(0, int(s.log.size()) - 10)).join(u'\n');
        for (int c = 0; c < ColumnCount; ++c)
            item->setToolTip(c, tip);
        auto *button = new QPushButton(s.state == McpServerStatus::State::Connected ? tr("Reconnect") : tr("Connect"), m_tree);
        button->setObjectName(u"mcpConnect-"_s + s.name);
        button->setEnabled(s.state != McpServerStatus::State::Connecting);
        button->setToolTip(tr("Start a new session with this server (a test of its configuration)"));
        connect(button, &QPushButton::clicked, this, [this, name = s.name] {
            if (m_servers)
                m_servers->reconnect(name);
        });
        m_tree->setItemWidget(item, ActionColumn, button);
    }
    for (int c = 0; c < DetailsColumn; ++c)
        m_tree->resizeColumnToContents(c);
}

} // namespace weft
