// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `todowrite` tool: replaces the session's todo list (OpenCode's `todo/<sessionID>`) with
/// the list the model gives, items `{content, status, priority, id}`. Output is the list as
/// JSON, the title "N todos" with N the items not completed, the metadata `{todos}`.
class TodoWriteTool : public Tool
{
public:
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

/// The `todoread` tool: the session's todo list, as todowrite returns it.
class TodoReadTool : public Tool
{
public:
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
