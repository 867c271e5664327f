// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Files, folders and images attached to a prompt, and the parts they become in the user
// message, as OpenCode's SessionPrompt makes them (createUserMessage): a text file is read with
// the read tool (a synthetic "Called the Read tool with the following input: ..." text, the
// tool's output as synthetic text, then the file part), a folder is listed with the list tool,
// an image or a PDF is stored as a file part with a data: URL, an MCP server's resource is read
// from the server (synthetic "Reading MCP resource: ..." text, its text contents, then the file
// part with the resource's URI).

#include "core/result.h"
#include "core/types.h"

#include <QList>

#include <memory>
#include <QMetaType>
#include <QString>

namespace weft
{

struct ToolContext;
struct McpResourceInfo;
class McpRegistry;

/// One file, folder or pasted image attached to a prompt.
struct PromptAttachment
{
    enum class Kind { Text, Directory, Image, Pdf, McpResource };

    Kind kind = Kind::Text;
    QString path;     ///< absolute path of the file or folder; empty for pasted data
    QString dataUrl;  ///< pasted data ("data:image/png;base64,..."), when there is no path
    QString mime;     ///< "text/plain", "application/x-directory", "image/png", "application/pdf"
    QString filename; ///< the name stored in the part: a mention's path, else the file's name
                      ///< (a resource's name)
    /// An MCP resource: the server that offers it and its URI.
    QString mcpServer;
    QString uri;
    qint64 size = 0;  ///< bytes on disk (or decoded), 0 for a folder
    /// An @mention: "@path" as written in the prompt and where it starts (OpenCode's
    /// `source.text`); empty and -1 for a file attached otherwise.
    QString mention;
    qsizetype mentionStart = -1;

    [[nodiscard]] bool isImage() const { return kind == Kind::Image; }
    bool operator==(const PromptAttachment &) const = default;
};

namespace Attachments
{

/// The largest image and PDF that are attached: beyond that providers refuse the request
/// (OpenAI takes images up to 20 MB, Anthropic requests up to 32 MB).
inline constexpr qint64 MaxImageBytes = 20 * 1024 * 1024;
inline constexpr qint64 MaxPdfBytes = 32 * 1024 * 1024;

/// The image types every provider reads.
[[nodiscard]] const QStringList &imageMimeTypes();

/// Checks @p path (relative to @p baseDir) and describes it: a regular file that is text, a PNG,
/// JPEG, GIF or WebP image, or a PDF, or a folder. Refused with a clear message: an empty path or
/// one with a NUL, a path that does not exist, a device, pipe or socket, a file that cannot be
/// read, a binary file of another type, an image or PDF over its limit.
[[nodiscard]] Result<PromptAttachment> fromPath(const QString &path, const QString &baseDir);
/// A pasted image: a base64 `data:image/...` URL of a type of imageMimeTypes(), at most
/// MaxImageBytes once decoded, that decodes as that image.
[[nodiscard]] Result<PromptAttachment> fromDataUrl(const QString &dataUrl, const QString &filename);

/// An MCP server's resource, mentioned as "@name" at @p mentionStart (OpenCode's composer
/// inserts the resource's name).
[[nodiscard]] PromptAttachment fromMcpResource(const McpResourceInfo &resource, qsizetype mentionStart);

/// The @mentions of @p text that name a file or folder inside @p projectDir ("@src/main.cpp",
/// "@docs/"): each as an attachment with its mention and position. A mention that names nothing,
/// or leads out of the project (`@../x`, `@/etc/passwd`, a symlink out), stays plain text: text
/// pasted into a prompt must not send private files along.
[[nodiscard]] QList<PromptAttachment> mentions(const QString &text, const QString &projectDir);

/// The parts @p attachment becomes in user message @p messageID (IDs ascending, OpenCode's key
/// order): reads and lists with the read and list tools through @p context (no permission is
/// asked: the user chose the file). A file that cannot be read any more gives OpenCode's
/// "Read tool failed to read ..." synthetic text instead. An MCP resource is read from @p mcp;
/// one that cannot be read gives OpenCode's "Failed to read MCP resource ..." text.
[[nodiscard]] QList<Part> toParts(const PromptAttachment &attachment, ToolContext &context, const QString &sessionID,
                                  const QString &messageID, const std::shared_ptr<McpRegistry> &mcp = {});

/// OpenCode's `source` of a mention: `{text: {value, start, end}, type: "file", path}`, for an
/// MCP resource `{text, type: "resource", clientName, uri}`; empty for an attachment without a
/// mention.
[[nodiscard]] JsonObject source(const PromptAttachment &attachment);

} // namespace Attachments
} // namespace weft

Q_DECLARE_METATYPE(weft::PromptAttachment)
