// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Files, folders and images attached to a prompt, and the parts they become in the user
// message, as OpenCode's SessionPrompt makes them (createUserMessage): a text file is read with
// the read tool (a synthetic "Called the Read tool with the following input: ..." text, the
// tool's output as synthetic text, then the file part), a folder is listed with the list tool,
// an image or a PDF is stored as a file part with a data: URL, an MCP server's resource is read
// from the server (synthetic "Reading MCP resource: ..." text, its text contents, then the file
// part with the resource's URI).

#include "core/json.h"
#include "core/prompt.h"
#include "core/types.h"

#include <QList>

#include <memory>

namespace weft
{

struct ToolContext;
class McpRegistry;

namespace Attachments
{

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
