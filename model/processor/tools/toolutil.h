// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the built-in tools: input validation, path resolution with the
// external-directory permission, binary detection, output truncation, file walking.

#include "core/result.h"
#include "processor/tool.h"

#include <QDateTime>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace weft::ToolUtil
{

/// Reads a tool's input object field by field. The first problem found is kept and reported in
/// OpenCode's words ("The read tool was called with invalid arguments: ...").
class InputReader
{
public:
    InputReader(const QString &tool, const JsonObject &input);

    /// A required string; empty strings are refused unless @p allowEmpty.
    QString requiredString(const QString &key, bool allowEmpty = false);
    std::optional<QString> optionalString(const QString &key);
    /// An optional whole number within [min, max]; numeric strings are accepted (OpenCode coerces).
    std::optional<qint64> optionalInteger(const QString &key, qint64 min, qint64 max);
    bool optionalBool(const QString &key, bool fallback);
    std::optional<QStringList> optionalStringList(const QString &key);
    /// A required array of objects; a string holding the JSON of one is accepted too (some models
    /// send arrays that way).
    std::optional<QList<JsonObject>> requiredObjectArray(const QString &key);
    /// Records a problem found by the tool's own checks (the first one wins).
    void reject(const QString &message) { fail(message); }

    [[nodiscard]] bool ok() const { return m_error.isEmpty(); }
    [[nodiscard]] QString error() const { return m_error; }
    [[nodiscard]] ToolResult failure() const;

private:
    void fail(const QString &message);
    QString m_tool;
    JsonObject m_input;
    QString m_error;
};

/// A path given to a tool, resolved against the session directory.
struct ResolvedPath {
    QString absolute; ///< cleaned absolute path (symlinks not resolved)
    QString relative; ///< relative to the worktree (or the directory outside git), OpenCode's permission pattern
    bool external = false; ///< outside both the directory and the worktree (lexically or through symlinks)
    QString real;          ///< where it really is: the canonical path when a symlink leads out, else absolute
};

/// The folder paths are relative to: the worktree, or the directory when there is no worktree
/// (OpenCode's "global" project has worktree "/").
[[nodiscard]] QString baseDirectory(const ToolContext &context);
[[nodiscard]] ResolvedPath resolvePath(const ToolContext &context, const QString &path);
/// True when @p path is @p root or inside it (both cleaned absolute paths).
[[nodiscard]] bool isInside(const QString &root, const QString &path);
/// The canonical form of @p path: symlinks resolved for the part that exists.
[[nodiscard]] QString canonicalize(const QString &path);

/// For an external path, asks "external_directory" with OpenCode's pattern `<folder>/*` (the
/// folder itself for a directory, else the file's folder). Returns a failure when refused.
[[nodiscard]] std::optional<ToolResult> checkExternal(ToolContext &context, const ResolvedPath &path, bool directory);
/// Asks @p ask; returns a failure the model can read when refused.
[[nodiscard]] std::optional<ToolResult> requirePermission(ToolContext &context, const PermissionAsk &ask);
/// Asks @p permission for @p patterns ("always" approves them exactly).
[[nodiscard]] std::optional<ToolResult> requirePermission(ToolContext &context, const QString &permission,
                                                          const QStringList &patterns, const JsonObject &metadata = {});
/// The `<folder>/*` glob external_directory is asked with, for a folder outside the project.
[[nodiscard]] QString folderGlob(const QString &folder);

/// OpenCode's binary check: known binary extensions, NUL bytes or over 30% control characters in
/// the first 4 KiB.
[[nodiscard]] bool isBinaryFile(const QString &path);
[[nodiscard]] bool looksBinary(QByteArrayView sample);

[[nodiscard]] bool wasRead(const ToolContext &context, const QString &absolutePath);
[[nodiscard]] QDateTime lastRead(const ToolContext &context, const QString &absolutePath);
void markRead(const ToolContext &context, const QString &absolutePath);
/// OpenCode's FileTime.assert: a failure when the session has not read @p absolutePath ("You
/// must read the file ... before overwriting it"), or when the file was modified after that read
/// ("File ... has been modified since it was last read. ... Please read the file again before
/// modifying it.").
[[nodiscard]] std::optional<ToolResult> checkReadAndUnchanged(const ToolContext &context, const QString &absolutePath);

/// Writes @p data to the user's file @p path whole or not at all (write, edit, multiedit,
/// apply_patch): into a new file next to it that replaces it only once complete (QSaveFile), so a
/// full disk or a crash leaves the old contents as they were, never a file cut in the middle. The
/// file keeps its permissions; through a symbolic link the link's target is written and the link
/// stays a link. Missing folders are made. The error names the file and the reason ("No space
/// left on device").
Result<void> writeFileWhole(const QString &path, QByteArrayView data);

/// A text file's content for the edit tools (edit, apply_patch): its UTF-8 byte-order mark stays
/// where it is and out of the matching and the diff.
struct TextFile {
    QString text; ///< without the byte-order mark
    bool bom = false; ///< whether the file starts with one
};
[[nodiscard]] TextFile decodeTextFile(const QByteArray &bytes);
/// writeFileWhole() of @p file's text, with its byte-order mark when it had one.
Result<void> writeTextFile(const QString &path, const TextFile &file);

/// Caps of tool output (OpenCode's Truncate): lines and characters.
inline constexpr int MaxOutputLines = 2000;
inline constexpr qsizetype MaxOutputChars = 30000;

/// Saves @p data as a new file `<dataDir>/tool-output/tool_<id>`; returns its path or empty.
QString saveToolOutput(const QString &dataDir, QByteArrayView data);
/// Creates an empty output file for streaming; returns its path or empty. Starts the folder's
/// retention (pruneToolOutput()) on a worker thread now and then (ToolOutputPruneIntervalMs).
QString createToolOutputFile(const QString &dataDir);

/// Retention of `<dataDir>/tool-output/`: OpenCode deletes saved tool output after 7 days; Weft
/// does too, and keeps the folder under ToolOutputMaxBytes by deleting the oldest files first.
inline constexpr qint64 ToolOutputMaxAgeDays = 7;
inline constexpr qint64 ToolOutputMaxBytes = 500LL * 1024 * 1024;
/// A file written to in the last hour is never deleted, whatever the folder's size: a running
/// tool (in this process or another) may still be writing it (bash runs at most 10 minutes).
inline constexpr qint64 ToolOutputInUseMs = 60LL * 60 * 1000;
/// How often a process looks at the folder when it creates output files.
inline constexpr qint64 ToolOutputPruneIntervalMs = 10LL * 60 * 1000;

/// Deletes the files of `<dataDir>/tool-output/` older than ToolOutputMaxAgeDays, then the
/// oldest (by modification time) until the folder holds at most @p maxBytes, never a file
/// modified within ToolOutputInUseMs of @p now. Returns how many files it deleted.
int pruneToolOutput(const QString &dataDir, qint64 maxBytes = ToolOutputMaxBytes,
                    const QDateTime &now = QDateTime::currentDateTimeUtc());

struct Truncated {
    QString text;
    bool truncated = false;
    QString outputPath; ///< where the full output was saved (when truncated)
};
/// OpenCode's Truncate.output (head direction): when @p text has more than @p maxLines lines or
/// @p maxChars characters, keeps the head, saves the whole text under `<dataDir>/tool-output/`
/// (unless @p savedPath already holds it) and appends "...N lines truncated..." with a pointer to
/// the file.
[[nodiscard]] Truncated truncateOutput(const QString &text, const QString &dataDir, int maxLines = MaxOutputLines,
                                       qsizetype maxChars = MaxOutputChars, const QString &savedPath = {},
                                       qint64 totalLines = -1, qint64 totalChars = -1);

/// A glob as ripgrep/gitignore understand it: `**` any folders, `*` and `?` within a name,
/// `[...]` classes, `{a,b}` alternatives. A pattern without '/' matches the file name at any
/// depth; otherwise the path relative to the search folder.
class GlobMatcher
{
public:
    explicit GlobMatcher(const QString &pattern);
    [[nodiscard]] bool isValid() const { return m_regex.isValid(); }
    [[nodiscard]] bool matches(const QString &relativePath) const;
    [[nodiscard]] static QString toRegex(const QString &glob);

private:
    QRegularExpression m_regex;
    bool m_nameOnly = false;
};

/// Folders every search skips.
[[nodiscard]] const QSet<QString> &vcsFolders();
/// The list tool's ignore list (OpenCode's IGNORE_PATTERNS).
[[nodiscard]] const QSet<QString> &listIgnoredFolders();

struct WalkOptions {
    QSet<QString> skipFolders;
    /// Optional: returns true for a folder (relative path) to skip.
    std::function<bool(const QString &relative)> skipFolder;
    qsizetype maxEntries = 200000; ///< stop after visiting this many entries
    const ToolContext *context = nullptr; ///< for abort checks
};
/// Visits the files under @p root (depth first, names sorted); @p visit gets the absolute path,
/// the path relative to @p root and the file info, and returns false to stop. Folder symlinks are
/// not followed. Returns false when stopped early (by @p visit, the entry cap or an abort).
bool walkFiles(const QString &root, const WalkOptions &options,
               const std::function<bool(const QString &absolute, const QString &relative, const QFileInfo &info)> &visit);

/// JSON Schema helpers.
[[nodiscard]] JsonObject schemaObject(const JsonObject &properties, const QStringList &required);
[[nodiscard]] JsonObject schemaString(const QString &description);
[[nodiscard]] JsonObject schemaNumber(const QString &description);
[[nodiscard]] JsonObject schemaBoolean(const QString &description);
[[nodiscard]] JsonObject schemaStringArray(const QString &description);

} // namespace weft::ToolUtil
