// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `write` tool: writes a whole file, creating missing folders. Overwriting an existing file
/// requires that the session read it first (OpenCode's rule). Asks "edit" for the path relative
/// to the worktree, with a unified diff in the metadata.
class WriteTool : public Tool
{
public:
    WriteTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
