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
class BashTool : public Tool
{
public:
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
