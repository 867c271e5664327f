// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the user may attach to a prompt, checked where it is attached (the composer, `weft run
// --file`): files and folders of the project, pasted images, @mentions, MCP servers' resources.
// What a run makes of them is the processor's (Attachments::toParts).

#include "core/mcpserver.h"
#include "core/prompt.h"
#include "core/result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace weft::PromptAttachments
{

/// The image types every provider reads.
[[nodiscard]] const QStringList &imageMimeTypes();

/// Checks @p path (relative to @p baseDir) and describes it: a regular file that is text, a PNG,
/// JPEG, GIF or WebP image, or a PDF, or a folder. Refused with a clear message: an empty path or
/// one with a NUL, a path that does not exist, a device, pipe or socket, a file that cannot be
/// read, a binary file of another type, an image or PDF over its limit
/// (PromptAttachment::MaxImageBytes, MaxPdfBytes).
[[nodiscard]] Result<PromptAttachment> fromPath(const QString &path, const QString &baseDir);
/// A pasted image: a base64 `data:image/...` URL of a type of imageMimeTypes(), at most
/// PromptAttachment::MaxImageBytes once decoded, that decodes as that image.
[[nodiscard]] Result<PromptAttachment> fromDataUrl(const QString &dataUrl, const QString &filename);

/// An MCP server's resource, mentioned as "@name" at @p mentionStart (OpenCode's composer
/// inserts the resource's name).
[[nodiscard]] PromptAttachment fromMcpResource(const McpResourceInfo &resource, qsizetype mentionStart);

/// The @mentions of @p text that name a file or folder inside @p projectDir ("@src/main.cpp",
/// "@docs/"): each as an attachment with its mention and position. A mention that names nothing,
/// or leads out of the project (`@../x`, `@/etc/passwd`, a symlink out), stays plain text: text
/// pasted into a prompt must not send private files along.
[[nodiscard]] QList<PromptAttachment> mentions(const QString &text, const QString &projectDir);

} // namespace weft::PromptAttachments
