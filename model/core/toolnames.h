// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"

#include <QString>
#include <QStringView>

/// What a tool call is, whatever OpenCode release named it: OpenCode 2 renamed `bash` to
/// `shell`, `task` to `subagent`, `apply_patch` to `patch`, and its `read`, `write` and `edit`
/// take `path` where 1.x took `filePath` (its V1→V2 migration renames them the same way). The
/// one place that knows these aliases: the timeline, the changes, the search and the permission
/// prompts ask here instead of comparing names.
namespace weft::ToolNames
{

enum class Kind {
    Other, ///< any other tool (grep, glob, webfetch, an MCP tool, ...): shown by its own name
    Shell, ///< `bash` (1.x), `shell` (2.x): a command and its output
    Subagent, ///< `task` (1.x), `subagent` (2.x): a child session
    Read, ///< `read`: a file read
    Write, ///< `write`: a file written
    Edit, ///< `edit`, `multiedit`: a file changed in place
    Patch, ///< `apply_patch` (1.x), `patch` (2.x): a patch of one or more files
};

/// The kind of the tool (or permission) named @p name.
[[nodiscard]] Kind kind(QStringView name);

/// The name a person reads for the tool: "Shell", "Subagent", "Read", ... for the tools above
/// (translated), and @p name capitalized for the others.
[[nodiscard]] QString displayName(QStringView name);

/// The file a tool call is about: its input's `path` (2.x) or `filePath` (1.x); empty when none.
[[nodiscard]] QString filePath(const JsonObject &input);

/// The command of a shell call (`command`), empty for other tools.
[[nodiscard]] QString command(QStringView name, const JsonObject &input);

} // namespace weft::ToolNames
