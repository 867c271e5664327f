// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor/tool.h"

namespace weft
{

/// One replacement of the edit tools.
struct TextEdit {
    QString oldString; ///< empty: newString becomes the whole file
    QString newString;
    bool replaceAll = false;
};

/// The work of the edit and multiedit tools, as OpenCode's edit tool does it: the session must
/// have read the file and it must not have changed on disk since; @p edits are applied in order
/// to the file's text (oldString found by TextReplace's chain of replacers, with the file's line
/// endings and byte-order mark kept), the "edit" permission is asked once with the whole diff,
/// and the file is written only when every edit succeeded. @p multi names the failing edit in
/// errors and adds per-edit `results` to the metadata.
[[nodiscard]] ToolResult applyFileEdits(ToolContext &context, const QString &filePath, const QList<TextEdit> &edits,
                                        bool multi);

/// The diff the edit tools report: of the texts with LF line endings, common indentation trimmed.
[[nodiscard]] QString reportedEditDiff(const QString &file, const QString &before, const QString &after);

/// The `edit` tool: replaces oldString by newString in a file the session has read. oldString
/// is found as OpenCode finds it (exactly, else with trimmed lines, block anchors, normalised
/// whitespace or indentation, unescaped, ...: see textreplace.h); refused when it is found
/// nowhere, only at several places without replaceAll, or equals newString. An empty oldString
/// creates the file (or replaces its whole content) with newString. Metadata: `diff` (unified,
/// common indentation trimmed) and `filediff` {file, before, after, additions, deletions}.
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
