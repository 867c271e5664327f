// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `read` tool: a text file's lines numbered as OpenCode 1.1 shows them (`00001| text` inside
/// `<file>...</file>`), from a 0-based line `offset`, at most `limit` lines (2000), lines cut at
/// 2000 characters, output capped at 50 KiB with a note how to read on. Refuses folders, binary
/// files and anything but regular files; marks the file as read (edit and write require that).
class ReadTool : public Tool
{
public:
    static constexpr int DefaultLimit = 2000;
    static constexpr int MaxLineLength = 2000;
    static constexpr qsizetype MaxBytes = 50 * 1024;

    ReadTool() = default;
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
