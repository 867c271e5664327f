// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `grep` tool: lines matching a regular expression in text files under a path (optionally
/// only files matching the `include` glob), grouped by file, files newest first, at most 100
/// matches. Skips binary files, VCS folders and node_modules.
class GrepTool : public Tool
{
public:
    static constexpr int Limit = 100;

    GrepTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
