// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `bash` tool: runs `bash -c command` in the session directory (or `workdir`) in its own
/// process group, stdout and stderr merged, stdin closed. `timeout` in ms (default 2 min, at most
/// 10 min) kills the group and says so in the output; an abort kills it too and fails the call.
/// Output beyond 2000 lines or 30,000 characters is cut, the whole output being kept in
/// `<dataDir>/tool-output/` with a pointer in the output. Progress (output so far) at most every
/// 100 ms. Metadata {output, exit, description}.
///
/// Before it runs, the command line is analysed (ShellSyntax) and permission asked for what it
/// would do, as OpenCode does: "external_directory" for the folders outside the project that its
/// file commands (cd, rm, cp, mv, mkdir, touch, chmod, chown, cat and a few more) and its
/// redirections name, then "bash" for every simple command in it.
class BashTool : public Tool
{
public:
    /// What the tool asks before running a command line.
    struct Permissions {
        /// "bash": each simple command by its text (OpenCode's pattern) and by its normalized
        /// form (quotes removed, `/bin/rm` as `rm`, prefix assignments dropped); "always"
        /// approves those exactly, and a command's arity prefix (`git checkout *`) where OpenCode's
        /// table gives it more than one word. No patterns: nothing to ask (`cd src`, `A=1`).
        PermissionAsk command;
        /// "external_directory": `<folder>/*` for each folder outside the project; none: no ask.
        PermissionAsk outside;
    };
    /// The permissions @p command asks for when run in @p workdir (absolute).
    [[nodiscard]] static Permissions permissions(const ToolContext &context, const QString &command, const QString &workdir);

    static constexpr qint64 DefaultTimeoutMs = 120000;
    static constexpr qint64 MaxTimeoutMs = 600000;
    /// Metadata `output` is cut at this many characters.
    static constexpr qsizetype MaxMetadataLength = 30000;

    BashTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
