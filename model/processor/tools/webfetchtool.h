// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `webfetch` tool: fetches an http(s) URL and returns its content as Markdown (HTML
/// converted), plain text or as it is. At most 5 MB, a timeout of 30 s by default and 120 s at
/// most, at most 10 redirects (none from https to http). Asks the `webfetch` permission with
/// the URL.
class WebFetchTool : public Tool
{
public:
    static constexpr qint64 MaxResponseBytes = 5 * 1024 * 1024;
    static constexpr int DefaultTimeoutSeconds = 30;
    static constexpr int MaxTimeoutSeconds = 120;
    static constexpr int MaxRedirects = 10;

    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
