// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// The `webfetch` tool: fetches an http(s) URL and returns its content as Markdown (HTML
/// converted), plain text or as it is. At most 5 MB, a timeout of 30 s by default and 120 s at
/// most, at most 10 redirects (none from https to http).
///
/// What it may reach is the `webfetch` permission's to say; by default (as in OpenCode) it is
/// allowed everywhere, loopback and private addresses included: Weft has no built-in address
/// policy. Rules match the URL as it will be reached, not as it was written (permissionPatterns():
/// host in lower case without a trailing dot, IPv4 in any numeric form and IPv4-mapped IPv6 as a
/// dotted quad, no user info, no default port, no fragment, `..` resolved), and every redirect's
/// target is checked the same way before it is requested. To keep it off hosts, deny them, e.g.
/// `"permission": {"webfetch": {"*": "allow", "http://127.0.0.1*": "deny", "http://[::1]*": "deny",
/// "http://192.168.*": "deny"}}`; localhost, *.localhost and 0.0.0.0 also match as 127.0.0.1.
class WebFetchTool : public Tool
{
public:
    static constexpr qint64 MaxResponseBytes = 5 * 1024 * 1024;
    static constexpr int DefaultTimeoutSeconds = 30;
    static constexpr int MaxTimeoutSeconds = 120;
    static constexpr int MaxRedirects = 10;

    /// @p url as it is requested: lower-case host without trailing dots, IPv4-mapped IPv6 as
    /// IPv4 (QUrl already writes IPv4's numeric forms as a dotted quad), no default port, no
    /// fragment, `.` and `..` segments resolved, "/" for an empty path.
    [[nodiscard]] static QUrl normalizedUrl(const QUrl &url);
    /// The texts the `webfetch` rules are matched against for @p url: normalizedUrl() without
    /// user info, then the same URL with 127.0.0.1 (and ::1) for a host that names this machine
    /// (localhost, *.localhost, 0.0.0.0, ::). A rule that denies any of them denies the fetch.
    [[nodiscard]] static QStringList permissionPatterns(const QUrl &url);

    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;
};

} // namespace weft
