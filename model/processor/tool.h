// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/types.h"

#include <QDateTime>
#include <QString>

class QObject;

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace weft
{

/// What a permission check decided.
enum class PermissionDecision { Allow, Deny };

/// What a tool asks permission for (OpenCode's PermissionNext.ask input).
struct PermissionAsk {
    QString permission; ///< "edit", "bash", "external_directory", ...
    /// What is asked: file paths, commands, folder globs. An "always" answer approves each of
    /// them exactly as written, never as a wildcard (a command `rm *.o` approves that command,
    /// not every `rm` whose arguments end in `.o`).
    QStringList patterns;
    /// Wildcard patterns an "always" answer approves as well (OpenCode's `always`): a folder's
    /// `<dir>/*`, or a command's arity prefix such as `git checkout *`.
    QStringList always;
    /// Parts of the request could not be seen (a command line that does not parse, a command
    /// whose name is computed): a rule's "allow" then only holds where no rule for the
    /// permission denies or asks anything.
    bool unresolved = false;
    JsonObject metadata;
};

/// The environment a tool runs in. Tools run synchronously on a thread of their own (the calls
/// of one step run in parallel), so the functions here are thread-safe; long-running tools poll
/// isAborted() (or use waitAborted-style loops) so that abort stops them.
struct ToolContext {
    QString sessionID;
    QString messageID;
    QString callID;
    QString agent;
    QString directory;     ///< the session's working directory (the project)
    QString worktree;      ///< the project's root
    QString dataDir;       ///< Weft's data dir (tool output files go under <dataDir>/tool-output)
    std::shared_ptr<std::atomic_bool> abortFlag;
    /// An object of a thread that runs its event loop while the tool runs (the run's): a tool
    /// that talks to the network (webfetch) does its requests there and waits for the answer on
    /// its own thread, never in a nested event loop.
    QObject *eventLoop = nullptr;

    /// Asks for a permission ("edit", "bash", "external_directory", ...) with the patterns it
    /// concerns (file paths, commands). Returns Deny when a rule denies it or a user refuses.
    std::function<PermissionDecision(const PermissionAsk &ask)> ask;
    /// Runs a sub-agent in a child session (the task tool); returns its final text or an error.
    std::function<Result<QString>(const QString &agent, const QString &description, const QString &prompt)> runSubagent;
    /// Live metadata while running (e.g. bash output so far) for the part's running state.
    std::function<void(const QString &title, const JsonObject &metadata)> progress;
    /// When this session last read (or wrote) a file, null when never (OpenCode's FileTime: the
    /// edit tools refuse files not read first, or changed on disk since). Paths are cleaned
    /// absolute paths.
    std::function<QDateTime(const QString &path)> lastRead;
    std::function<void(const QString &path)> markRead;
    /// The session's todo list, and its replacement (the todoread and todowrite tools).
    std::function<QList<Todo>()> todos;
    std::function<Result<void>(const QList<Todo> &todos)> setTodos;
    /// Asks the user the question tool's questions (OpenCode's Question.Info objects) and waits:
    /// for each question the labels chosen or the user's own text; nullopt when the user dismissed
    /// them or the run was stopped. Unset where no one can answer.
    std::function<std::optional<QList<QStringList>>(const JsonArray &questions)> askQuestions;

    [[nodiscard]] bool isAborted() const { return abortFlag && abortFlag->load(); }
};

/// The outcome of a tool call: output for the model, a title for the UI, metadata.
struct ToolResult {
    bool ok = true;
    QString title;
    QString output;   ///< on success
    QString error;    ///< on failure: what the model sees as the tool error
    JsonObject metadata;
    /// Files the tool hands back besides its text (OpenCode's tool attachments: `{type: "file",
    /// mime, url, filename?}`, e.g. an MCP tool's images); the run adds their IDs.
    JsonArray attachments;

    [[nodiscard]] static ToolResult success(const QString &title, const QString &output, const JsonObject &metadata = {})
    {
        return {true, title, output, {}, metadata};
    }
    [[nodiscard]] static ToolResult failure(const QString &error, const JsonObject &metadata = {})
    {
        return {false, {}, {}, error, metadata};
    }
};

/// A tool the model can call. Implementations validate their input and report every failure
/// as a ToolResult::failure, never by crashing or throwing.
class Tool
{
public:
    virtual ~Tool() = default;
    [[nodiscard]] virtual QString name() const = 0;
    [[nodiscard]] virtual QString description() const = 0;
    /// JSON Schema of the input object.
    [[nodiscard]] virtual JsonObject parameters() const = 0;
    virtual ToolResult execute(ToolContext &context, const JsonObject &input) = 0;
};

/// The built-in tools: read, write, edit, multiedit, list, glob, grep, bash, task, webfetch,
/// todowrite, todoread, question, apply_patch.
[[nodiscard]] QList<std::shared_ptr<Tool>> builtinTools();

} // namespace weft
