// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `list` tool: the files under a folder as an indented tree (OpenCode's ls), skipping
/// dependency, build and VCS folders and the `ignore` globs; at most 100 files.
class ListTool : public Tool
{
public:
    static constexpr int Limit = 100;

    ListTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
