// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `glob` tool: files matching a glob (`**`, `*`, `?`, `[...]`, `{a,b}`; a pattern without
/// '/' matches names at any depth), newest first by modification time, at most 100.
class GlobTool : public Tool
{
public:
    static constexpr int Limit = 100;

    GlobTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
