// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Markdown files with YAML front matter, as OpenCode reads its markdown agents and commands
// (`.opencode/agent/*.md`, `.opencode/command/*.md`): a `---` fenced YAML block, then the body.

#include "core/json.h"
#include "core/result.h"

#include <QString>

namespace weft
{

struct FrontMatterDocument {
    /// The front matter as JSON; empty when the file has none.
    JsonObject data;
    bool hasFrontMatter = false;
    /// The text after the front matter, as written.
    QString content;
};

/// Splits and parses @p text. The YAML is the subset front matter uses: block mappings and
/// sequences by indentation, flow sequences and mappings (`[a, b]`, `{a: b}`), plain, single- and
/// double-quoted scalars, `|` and `>` block scalars, booleans, numbers, null and comments. A
/// plain value may contain `: ` (OpenCode's fallback accepts `description: Fix: the build` too).
/// Errors give the line (1-based, in the whole file).
[[nodiscard]] Result<FrontMatterDocument> parseFrontMatter(const QString &text);

/// The YAML subset above on its own (a mapping at the top level).
[[nodiscard]] Result<JsonObject> parseYamlMapping(const QString &yaml, int firstLine = 1);

} // namespace weft
