// SPDX-License-Identifier: GPL-3.0-or-later
#include "attachments.h"

#include "core/identifier.h"
#include "core/json.h"
#include "core/tr.h"
#include "mcp/mcpmanager.h"
#include "processor/tool.h"
#include "tools/listtool.h"
#include "tools/readtool.h"
#include "tools/toolutil.h"

#include <QFile>
#include <QLocale>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace weft::Attachments
{

namespace
{

QString sizeText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

Part syntheticText(const QString &sessionID, const QString &messageID, const QString &text)
{
    return Part::makeText(Identifier::ascending(Identifier::Kind::Part), sessionID, messageID, text, true);
}

QString toolInput(const QString &key, const QString &value)
{
    return QString::fromUtf8(toJson(JsonObject{{key, value}}, 0));
}

} // namespace

JsonObject source(const PromptAttachment &a)
{
    if (a.mention.isEmpty() || a.mentionStart < 0)
        return {};
    const JsonObject text{{u"value"_s, a.mention},
                          {u"start"_s, qint64(a.mentionStart)},
                          {u"end"_s, qint64(a.mentionStart + a.mention.size())}};
    if (a.kind == PromptAttachment::Kind::McpResource)
        return JsonObject{{u"type"_s, u"resource"_s}, {u"text"_s, text}, {u"clientName"_s, a.mcpServer}, {u"uri"_s, a.uri}};
    return JsonObject{{u"text"_s, text}, {u"type"_s, u"file"_s}, {u"path"_s, a.filename}};
}

namespace
{

/// OpenCode's parts for an MCP resource (SessionPrompt's resolveUserPart): what it is, its
/// contents as synthetic text (a binary content named by its type), then the file part.
QList<Part> resourceParts(const PromptAttachment &a, const ToolContext &context, const QString &sessionID,
                          const QString &messageID, const std::shared_ptr<McpRegistry> &mcp)
{
    QList<Part> parts;
    parts.append(syntheticText(sessionID, messageID, u"Reading MCP resource: %1 (%2)"_s.arg(a.filename, a.uri)));
    const Result<JsonArray> contents
        = mcp ? mcp->readResource(a.mcpServer, a.uri, [&context] { return context.isAborted(); })
              : Result<JsonArray>(Error{McpTr::tr("the MCP server \"%1\" is not connected").arg(a.mcpServer)});
    if (!contents) {
        parts.append(syntheticText(sessionID, messageID,
                                   u"Failed to read MCP resource %1: %2"_s.arg(a.filename, contents.error().message)));
        return parts;
    }
    for (const JsonValue &item : contents.value()) {
        const JsonObject c = item.toObject();
        if (!c.string(u"text").isEmpty())
            parts.append(syntheticText(sessionID, messageID, c.string(u"text")));
        else if (!c.string(u"blob").isEmpty())
            parts.append(syntheticText(sessionID, messageID,
                                       u"[Binary content: %1]"_s.arg(c.string(u"mimeType", a.mime))));
    }
    parts.append(Part::makeFile(Identifier::ascending(Identifier::Kind::Part), sessionID, messageID, a.mime, a.filename,
                                a.uri, source(a)));
    return parts;
}

} // namespace

QList<Part> toParts(const PromptAttachment &a, ToolContext &context, const QString &sessionID, const QString &messageID,
                    const std::shared_ptr<McpRegistry> &mcp)
{
    if (a.kind == PromptAttachment::Kind::McpResource)
        return resourceParts(a, context, sessionID, messageID, mcp);
    QList<Part> parts;
    auto filePart = [&](const QString &url) {
        return Part::makeFile(Identifier::ascending(Identifier::Kind::Part), sessionID, messageID, a.mime, a.filename,
                              url, source(a));
    };
    if (a.path.isEmpty()) {
        // Pasted data: the part as it is.
        parts.append(filePart(a.dataUrl));
        return parts;
    }
    const QString fileUrl = QString::fromUtf8(QUrl::fromLocalFile(a.path).toEncoded());
    // The user chose the file: the tools ask no permission for it (OpenCode's bypassCwdCheck).
    ToolContext ctx = context;
    ctx.ask = [](const PermissionAsk &) { return PermissionDecision::Allow; };
    switch (a.kind) {
    case PromptAttachment::Kind::Text: {
        parts.append(syntheticText(sessionID, messageID, u"Called the Read tool with the following input: "_s
                                                             + toolInput(u"filePath"_s, a.path)));
        ReadTool read;
        const ToolResult result = read.execute(ctx, JsonObject{{u"filePath"_s, a.path}});
        if (!result.ok) {
            parts.append(syntheticText(sessionID, messageID,
                                       u"Read tool failed to read %1 with the following error: %2"_s.arg(a.path, result.error)));
            return parts;
        }
        parts.append(syntheticText(sessionID, messageID, result.output));
        parts.append(filePart(fileUrl));
        return parts;
    }
    case PromptAttachment::Kind::Directory: {
        ListTool list;
        const ToolResult result = list.execute(ctx, JsonObject{{u"path"_s, a.path}});
        parts.append(syntheticText(sessionID, messageID, u"Called the list tool with the following input: "_s
                                                             + toolInput(u"path"_s, a.path)));
        parts.append(syntheticText(sessionID, messageID, result.ok ? result.output : result.error));
        parts.append(filePart(fileUrl));
        return parts;
    }
    case PromptAttachment::Kind::Image:
    case PromptAttachment::Kind::Pdf: {
        parts.append(syntheticText(sessionID, messageID, u"Called the Read tool with the following input: "_s
                                                             + toolInput(u"filePath"_s, a.path)));
        QFile file(a.path);
        const qint64 limit
            = a.kind == PromptAttachment::Kind::Image ? PromptAttachment::MaxImageBytes : PromptAttachment::MaxPdfBytes;
        if (!file.open(QIODevice::ReadOnly) || file.size() > limit) {
            const QString why = file.isOpen() ? u"the file grew beyond %1"_s.arg(sizeText(limit)) : file.errorString();
            parts.append(syntheticText(sessionID, messageID,
                                       u"Read tool failed to read %1 with the following error: %2"_s.arg(a.path, why)));
            return parts;
        }
        const QByteArray bytes = file.read(limit + 1);
        ToolUtil::markRead(ctx, a.path);
        parts.append(filePart(u"data:"_s + a.mime + u";base64,"_s + QString::fromLatin1(bytes.toBase64())));
        return parts;
    }
    case PromptAttachment::Kind::McpResource:
        break;
    }
    return parts;
}

} // namespace weft::Attachments
