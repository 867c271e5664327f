// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `multiedit` tool (OpenCode's name and schema): several edits of one file in one call,
/// `{filePath, edits: [{oldString, newString, replaceAll}]}`, applied in order, each to the
/// result of the previous one, as the edit tool would. All or nothing: when one edit fails the
/// file is left as it was and the error names the edit. Metadata: `diff` and `filediff` of the
/// whole change, and `results` with each edit's `diff` and counts.
class MultiEditTool : public Tool
{
public:
    MultiEditTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
