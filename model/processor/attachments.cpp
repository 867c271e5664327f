// SPDX-License-Identifier: GPL-3.0-or-later
#include "attachments.h"

#include "core/identifier.h"
#include "core/json.h"
#include "core/tr.h"
#include "mcp/mcpmanager.h"
#include "processor/tool.h"
#include "provider/attachmentencoding.h"
#include "tools/listtool.h"
#include "tools/readtool.h"
#include "tools/toolutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QMimeDatabase>
#include <QRegularExpression>
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

/// The attachment's kind and MIME type by content (and name), or an error for what cannot go.
Result<PromptAttachment> describeFile(const QString &absolute, const QFileInfo &info)
{
    PromptAttachment a;
    a.path = absolute;
    a.filename = info.fileName();
    a.size = info.size();
    const QMimeType type = QMimeDatabase().mimeTypeForFile(info);
    const QString name = type.name();
    const bool image = imageMimeTypes().contains(name);
    if (image || name == u"application/pdf") {
        const qint64 limit = image ? MaxImageBytes : MaxPdfBytes;
        if (a.size > limit)
            return Error{ProcessorTr::tr("the %1 is too large to attach (%2; at most %3)")
                             .arg(image ? ProcessorTr::tr("image") : u"PDF"_s, sizeText(a.size), sizeText(limit)),
                         absolute};
        a.kind = image ? PromptAttachment::Kind::Image : PromptAttachment::Kind::Pdf;
        a.mime = name;
        return a;
    }
    if (ToolUtil::isBinaryFile(absolute))
        return Error{ProcessorTr::tr(
                         "cannot attach a binary file (%1): only text files, PNG, JPEG, GIF and WebP images, PDFs and "
                         "folders can be attached")
                         .arg(type.comment().isEmpty() ? name : type.comment()),
                     absolute};
    a.kind = PromptAttachment::Kind::Text;
    a.mime = u"text/plain"_s;
    return a;
}

/// Where @p path leads once symlinks are resolved, as far as it exists.
QString realPath(const QString &path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? path : canonical;
}

Part syntheticText(const QString &sessionID, const QString &messageID, const QString &text)
{
    return Part::makeText(Identifier::ascending(Identifier::Kind::Part), sessionID, messageID, text, true);
}

/// The image type the first bytes of @p bytes announce (PNG, JPEG, GIF, WebP), empty for others.
QString imageTypeOf(QByteArrayView bytes)
{
    if (bytes.startsWith("\x89PNG\r\n\x1a\n"))
        return u"image/png"_s;
    if (bytes.startsWith("\xff\xd8\xff"))
        return u"image/jpeg"_s;
    if (bytes.startsWith("GIF87a") || bytes.startsWith("GIF89a"))
        return u"image/gif"_s;
    if (bytes.size() >= 12 && bytes.startsWith("RIFF") && bytes.sliced(8, 4) == "WEBP")
        return u"image/webp"_s;
    return {};
}

QString toolInput(const QString &key, const QString &value)
{
    return QString::fromUtf8(toJson(JsonObject{{key, value}}, 0));
}

} // namespace

const QStringList &imageMimeTypes()
{
    static const QStringList types{u"image/png"_s, u"image/jpeg"_s, u"image/gif"_s, u"image/webp"_s};
    return types;
}

Result<PromptAttachment> fromPath(const QString &path, const QString &baseDir)
{
    if (path.isEmpty())
        return Error{ProcessorTr::tr("an empty path cannot be attached"), {}};
    if (path.contains(QChar(0)) || path.contains(u'\n'))
        return Error{ProcessorTr::tr("the path holds a NUL byte or a line break"), path};
    const QString absolute = QDir::cleanPath(QDir(baseDir).absoluteFilePath(path));
    const QFileInfo info(absolute);
    if (!info.exists())
        return Error{ProcessorTr::tr("no such file or folder"), absolute};
    if (info.isDir()) {
        if (!info.isReadable() || !info.isExecutable())
            return Error{ProcessorTr::tr("cannot read the folder: permission denied"), absolute};
        PromptAttachment a;
        a.kind = PromptAttachment::Kind::Directory;
        a.path = absolute;
        a.mime = u"application/x-directory"_s;
        a.filename = info.fileName().isEmpty() ? absolute : info.fileName();
        return a;
    }
    if (!info.isFile())
        return Error{ProcessorTr::tr("not a regular file or folder (a device, pipe or socket cannot be attached)"),
                     absolute};
    QFile file(absolute);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ProcessorTr::tr("cannot read the file: %1").arg(file.errorString()), absolute};
    file.close();
    return describeFile(absolute, info);
}

Result<PromptAttachment> fromDataUrl(const QString &dataUrl, const QString &filename)
{
    const AttachmentEncoding::DataUrl data = AttachmentEncoding::parseDataUrl(dataUrl);
    if (!data.valid || !data.base64)
        return Error{ProcessorTr::tr("not a base64 data: URL"), filename};
    if (!imageMimeTypes().contains(data.mediaType))
        return Error{ProcessorTr::tr("only PNG, JPEG, GIF and WebP images can be pasted (this is %1)")
                         .arg(data.mediaType.isEmpty() ? ProcessorTr::tr("of no type") : data.mediaType),
                     filename};
    // Checked before decoding: base64 grows by a third.
    if (data.data.size() / 4 * 3 > MaxImageBytes + 3)
        return Error{ProcessorTr::tr("the image is too large to attach (at most %1)").arg(sizeText(MaxImageBytes)),
                     filename};
    const auto decoded = QByteArray::fromBase64Encoding(data.data.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.isEmpty())
        return Error{ProcessorTr::tr("the pasted image is empty or damaged"), filename};
    if (imageTypeOf(decoded.decoded) != data.mediaType)
        return Error{ProcessorTr::tr("the pasted data is not a %1 image").arg(data.mediaType), filename};
    PromptAttachment a;
    a.kind = PromptAttachment::Kind::Image;
    a.dataUrl = dataUrl;
    a.mime = data.mediaType;
    a.filename = filename;
    a.size = decoded.decoded.size();
    return a;
}

QList<PromptAttachment> mentions(const QString &text, const QString &projectDir)
{
    QList<PromptAttachment> found;
    if (projectDir.isEmpty())
        return found;
    const QString root = realPath(QDir::cleanPath(projectDir));
    // "@" at the start or after white space, then a path; trailing punctuation is prose.
    static const QRegularExpression pattern(uR"((?:^|(?<=\s))@([^\s@`]+))"_s);
    QStringList seen;
    for (auto it = pattern.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString name = m.captured(1);
        while (!name.isEmpty() && u".,;:!?)]}\"'"_s.contains(name.back()))
            name.chop(1);
        if (name.isEmpty() || seen.contains(name) || QDir::isAbsolutePath(name) || name.startsWith(u'~'))
            continue;
        const QString absolute = QDir::cleanPath(root + u'/' + name);
        if (!ToolUtil::isInside(root, absolute) || !ToolUtil::isInside(root, realPath(absolute)))
            continue;
        const Result<PromptAttachment> a = fromPath(absolute, root);
        if (!a)
            continue;
        seen.append(name);
        PromptAttachment mention = a.value();
        mention.filename = name;
        mention.mention = u'@' + name;
        mention.mentionStart = m.capturedStart(0);
        found.append(mention);
    }
    return found;
}

PromptAttachment fromMcpResource(const McpResourceInfo &resource, qsizetype mentionStart)
{
    PromptAttachment a;
    a.kind = PromptAttachment::Kind::McpResource;
    a.mcpServer = resource.server;
    a.uri = resource.uri;
    a.filename = resource.name;
    // OpenCode's composer takes text for a resource that names no type.
    a.mime = resource.mimeType.isEmpty() ? u"text/plain"_s : resource.mimeType;
    a.mention = u'@' + resource.name;
    a.mentionStart = mentionStart;
    return a;
}

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
        const qint64 limit = a.kind == PromptAttachment::Kind::Image ? MaxImageBytes : MaxPdfBytes;
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
