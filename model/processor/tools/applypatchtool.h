// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "processor/tool.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace weft
{

/// The patch format of OpenCode's (and Codex's) apply_patch tool:
///
///     *** Begin Patch
///     *** Add File: path        (then "+line" lines)
///     *** Delete File: path
///     *** Update File: path
///     *** Move to: new/path     (optional)
///     @@ context line           (optional: the chunk starts after it)
///      kept line / -removed line / +added line
///     *** End of File           (optional: the chunk is at the end)
///     *** End Patch
namespace ApplyPatch
{

struct Chunk {
    QStringList oldLines;
    QStringList newLines;
    QString context;
    bool endOfFile = false;
};

struct Hunk {
    enum class Type { Add, Delete, Update };
    Type type = Type::Update;
    QString path;
    QString movePath;
    QString contents; ///< Add: the new file's text
    QList<Chunk> chunks;
};

/// Parses @p text (a `cat <<'EOF'` heredoc around it is accepted, as OpenCode does). Errors: no
/// Begin/End markers.
[[nodiscard]] Result<QList<Hunk>> parse(const QString &text);

/// Applies the chunks of an Update hunk to @p original (LF text): each chunk's old lines are
/// looked for from where the previous chunk ended (after its context line), exactly, then
/// ignoring trailing whitespace, then ignoring surrounding whitespace, then with Unicode quotes,
/// dashes and spaces made ASCII; a chunk marked end-of-file is tried at the end first. The
/// result ends with a newline. Errors name @p path and the lines not found.
[[nodiscard]] Result<QString> applyChunks(const QString &original, const QList<Chunk> &chunks, const QString &path);

/// Where @p pattern occurs in @p lines from @p start with OpenCode's four comparisons, or -1.
[[nodiscard]] qsizetype seek(const QStringList &lines, const QStringList &pattern, qsizetype start, bool endOfFile);

} // namespace ApplyPatch

/// The `apply_patch` tool OpenCode gives GPT models (except GPT-4) instead of edit and write:
/// adds, updates, moves and deletes files in one call. Every hunk is checked before anything is
/// written; the "edit" permission is asked once for all files with the whole diff. Output:
/// "Success. Updated the following files:" and an A/M/D line per file.
class ApplyPatchTool : public Tool
{
public:
    [[nodiscard]] QString name() const override;
    [[nodiscard]] QString description() const override;
    [[nodiscard]] JsonObject parameters() const override;
    ToolResult execute(ToolContext &context, const JsonObject &input) override;

    /// OpenCode's choice: apply_patch for GPT models ("gpt-" and a version) but not GPT-4 or
    /// gpt-oss.
    [[nodiscard]] static bool preferredFor(const QString &modelID);
};

} // namespace weft
