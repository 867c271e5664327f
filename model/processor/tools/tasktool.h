// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `task` tool: runs a sub-agent (`subagent_type`) on `prompt` in a child session through
/// ToolContext::runSubagent and returns its final text in `<task_result>...</task_result>`.
class TaskTool : public Tool
{
public:
    TaskTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
