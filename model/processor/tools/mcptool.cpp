// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcptool.h"

#include "mcp/mcpmanager.h"

#include "processor/tools/toolutil.h"

using namespace Qt::StringLiterals;

namespace weft
{

McpTool::McpTool(std::shared_ptr<McpRegistry> registry, McpToolInfo info)
    : m_registry(std::move(registry))
    , m_info(std::move(info))
{
}

JsonObject McpTool::parameters() const
{
    JsonObject schema = m_info.inputSchema;
    schema.insert(u"type"_s, u"object"_s);
    if (!schema.value(u"properties").isObject())
        schema.insert(u"properties"_s, JsonObject());
    schema.insert(u"additionalProperties"_s, false);
    return schema;
}

ToolResult McpTool::execute(ToolContext &context, const JsonObject &input)
{
    if (auto refused = ToolUtil::requirePermission(context, name(), {u"*"_s}))
        return *refused;
    const JsonObject params{{u"name"_s, m_info.name}, {u"arguments"_s, input}};
    Result<JsonValue> answer
        = m_registry->request(m_info.server, u"tools/call"_s, params, 0, [&context] { return context.isAborted(); });
    if (!answer) {
        if (context.isAborted())
            return ToolResult::failure(u"Tool execution aborted"_s);
        return ToolResult::failure(u"MCP server \"%1\": %2"_s.arg(m_info.server, answer.error().message));
    }
    if (!answer->isObject())
        return ToolResult::failure(u"MCP server \"%1\" answered tools/call without a result object"_s.arg(m_info.server));
    return convertResult(answer->toObject(), context.dataDir);
}

ToolResult McpTool::convertResult(const JsonObject &result, const QString &dataDir)
{
    QStringList texts;
    JsonArray attachments;
    const auto attach = [&attachments](const QString &mime, const QString &base64, const QString &filename) {
        JsonObject file{{u"type"_s, u"file"_s}, {u"mime"_s, mime}, {u"url"_s, u"data:"_s + mime + u";base64,"_s + base64}};
        if (!filename.isEmpty())
            file.insert(u"filename"_s, filename);
        attachments.append(file);
    };
    for (const JsonValue &item : result.array(u"content")) {
        const JsonObject content = item.toObject();
        const QString type = content.string(u"type");
        if (type == u"text") {
            texts.append(content.string(u"text"));
        } else if (type == u"image") {
            attach(content.string(u"mimeType"), content.string(u"data"), {});
        } else if (type == u"resource") {
            const JsonObject resource = content.object(u"resource");
            if (resource.value(u"text").isString() && !resource.string(u"text").isEmpty())
                texts.append(resource.string(u"text"));
            if (resource.value(u"blob").isString() && !resource.string(u"blob").isEmpty())
                attach(resource.string(u"mimeType", u"application/octet-stream"_s), resource.string(u"blob"),
                       resource.string(u"uri"));
        }
    }
    const QString text = texts.join(u"\n\n"_s);
    if (result.boolean(u"isError"))
        return ToolResult::failure(text.isEmpty() ? u"The MCP tool reported an error without a message"_s : text);
    const ToolUtil::Truncated truncated = ToolUtil::truncateOutput(text, dataDir);
    JsonObject metadata{{u"truncated"_s, truncated.truncated}};
    if (truncated.truncated)
        metadata.insert(u"outputPath"_s, truncated.outputPath);
    ToolResult tool = ToolResult::success(QString(), truncated.text, metadata);
    tool.attachments = attachments;
    return tool;
}

QList<std::shared_ptr<Tool>> McpTool::agentTools(const std::shared_ptr<McpRegistry> &registry, const QStringList &servers)
{
    registry->waitUntilSettled(120000);
    QList<std::shared_ptr<Tool>> tools;
    for (const McpToolInfo &info : registry->tools(servers))
        tools.append(std::make_shared<McpTool>(registry, info));
    return tools;
}

} // namespace weft
