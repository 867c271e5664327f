// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `edit` tool: exact string replacement in a file the session has read. Refuses when
/// oldString is missing from the file, found several times without replaceAll, or equal to
/// newString. An empty oldString creates the file (or fills an empty one) with newString.
/// Metadata: `diff` (unified) and `filediff` {file, before, after, additions, deletions}.
class EditTool : public Tool
{
public:
    EditTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
