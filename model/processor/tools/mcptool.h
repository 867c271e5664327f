// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpclient.h"
#include "processor/tool.h"

#include <memory>

namespace weft
{

class McpRegistry;

/// An MCP server's tool as the model sees it: named "<server>_<tool>" (sanitised), described by
/// the server's JSON Schema (type "object", additionalProperties false, as OpenCode sends it).
/// execute() asks the permission named after the tool (pattern "*"), calls tools/call and waits
/// on the run's worker thread, polling the abort flag; the answer becomes the tool's output.
class McpTool : public Tool
{
public:
    McpTool(std::shared_ptr<McpRegistry> registry, McpToolInfo info);

    [[nodiscard]] QString name() const override { return m_info.key(); }
    [[nodiscard]] QString description() const override { return m_info.description; }
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;

    [[nodiscard]] const McpToolInfo &info() const { return m_info; }

    /// Turns a tools/call result into a tool result as OpenCode does: text parts (and the text of
    /// embedded resources) joined by blank lines and truncated like every tool's output; images
    /// and binary resources become file attachments (data: URLs); `isError` makes it a failure.
    [[nodiscard]] static ToolResult convertResult(const JsonObject &result, const QString &dataDir);

    /// The agent tools of the connected servers of @p registry named in @p servers, one per MCP
    /// tool, after waiting for the servers still connecting, as OpenCode's runs wait for them.
    [[nodiscard]] static QList<std::shared_ptr<Tool>> agentTools(const std::shared_ptr<McpRegistry> &registry,
                                                                 const QStringList &servers);

private:
    std::shared_ptr<McpRegistry> m_registry;
    McpToolInfo m_info;
};

} // namespace weft
