// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// OpenCode's session data as value types. Each type keeps the JSON object it was read from, so
// that fields Weft does not know (newer OpenCode versions add some in every release) survive a
// read-modify-write unchanged, in their original order.

#include "json.h"
#include "result.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace weft
{

/// A problem found while validating a JSON value: the JSON path and what is wrong there.
struct ValidationIssue {
    QString path;
    QString message;
    [[nodiscard]] QString toString() const { return path + QStringLiteral(": ") + message; }
};

/// Base of the value types: holds the JSON object.
class JsonBacked
{
public:
    JsonBacked() = default;
    explicit JsonBacked(JsonObject json) : m_json(std::move(json)) { }
    [[nodiscard]] const JsonObject &json() const { return m_json; }
    JsonObject &json() { return m_json; }
    [[nodiscard]] bool isNull() const { return m_json.isEmpty(); }
    bool operator==(const JsonBacked &other) const { return m_json == other.m_json; }

protected:
    JsonObject m_json;
};

/// Token usage: `{input, output, reasoning, cache{read, write}}`.
struct Tokens {
    qint64 input = 0;
    qint64 output = 0;
    qint64 reasoning = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;

    [[nodiscard]] static Tokens fromJson(const JsonObject &o);
    /// Writes the fields into @p o, keeping other keys and their order.
    void writeTo(JsonObject &o) const;
    [[nodiscard]] JsonObject toJson() const;
    [[nodiscard]] qint64 total() const { return input + output + reasoning + cacheRead + cacheWrite; }
    Tokens &operator+=(const Tokens &o);
    bool operator==(const Tokens &) const = default;
};

/// One permission rule: `{permission, pattern, action}`.
struct PermissionRule {
    enum class Action { Allow, Ask, Deny };
    QString permission;
    QString pattern;
    Action action = Action::Ask;

    [[nodiscard]] static std::optional<PermissionRule> fromJson(const JsonObject &o);
    [[nodiscard]] JsonObject toJson() const;
    [[nodiscard]] static QString actionName(Action action);
};

/// A file changed in a session. Two forms exist: `{file, before, after, additions, deletions}`
/// (OpenCode up to 1.3) and `{file?, patch?, additions, deletions, status?}` (1.4 and later).
class FileDiff : public JsonBacked
{
public:
    using JsonBacked::JsonBacked;
    [[nodiscard]] QString file() const { return m_json.string(u"file"); }
    [[nodiscard]] bool hasContents() const { return m_json.contains(u"before") || m_json.contains(u"after"); }
    [[nodiscard]] QString before() const { return m_json.string(u"before"); }
    [[nodiscard]] QString after() const { return m_json.string(u"after"); }
    [[nodiscard]] bool hasPatch() const { return m_json.value(u"patch").isString(); }
    [[nodiscard]] QString patch() const { return m_json.string(u"patch"); }
    [[nodiscard]] QString status() const { return m_json.string(u"status"); }
    [[nodiscard]] qint64 additions() const { return m_json.integer(u"additions"); }
    [[nodiscard]] qint64 deletions() const { return m_json.integer(u"deletions"); }

    [[nodiscard]] static FileDiff fromContents(const QString &file, const QString &before, const QString &after,
                                               qint64 additions, qint64 deletions);
    [[nodiscard]] static QList<ValidationIssue> validate(const JsonValue &value, const QString &path = QStringLiteral("$"));
};

/// One item of a session's todo list (OpenCode's `todo/<sessionID>`, written by the todowrite
/// tool): `{content, status, priority, id}`. Status is pending, in_progress, completed or
/// cancelled and priority high, medium or low by convention; OpenCode accepts any string, and
/// so does Weft. Items of OpenCode 1.2+'s database have no id.
class Todo : public JsonBacked
{
public:
    using JsonBacked::JsonBacked;
    [[nodiscard]] QString content() const { return m_json.string(u"content"); }
    [[nodiscard]] QString status() const { return m_json.string(u"status"); }
    [[nodiscard]] QString priority() const { return m_json.string(u"priority"); }
    [[nodiscard]] QString id() const { return m_json.string(u"id"); }
    /// An item with OpenCode 1.1's keys in its order; no id when @p id is empty.
    [[nodiscard]] static Todo make(const QString &content, const QString &status, const QString &priority,
                                   const QString &id);
    /// Checks the shape: an object with string content, status and priority (and id when present).
    [[nodiscard]] static QList<ValidationIssue> validate(const JsonValue &value, const QString &path = QStringLiteral("$"));
};

/// A typed error of an assistant message or a session.error event: `{name, data}`.
class MessageError : public JsonBacked
{
public:
    enum class Kind {
        ProviderAuth,
        Unknown,
        OutputLength,
        Aborted,
        Api,
        ContextOverflow,
        StructuredOutput,
        ContentFilter,
        Other,
    };
    using JsonBacked::JsonBacked;

    [[nodiscard]] QString name() const { return m_json.string(u"name"); }
    [[nodiscard]] Kind kind() const;
    [[nodiscard]] JsonObject data() const { return m_json.object(u"data"); }
    [[nodiscard]] QString message() const;
    [[nodiscard]] bool isRetryable() const;
    [[nodiscard]] int statusCode() const { return int(data().integer(u"statusCode")); }

    [[nodiscard]] static MessageError providerAuth(const QString &providerID, const QString &message);
    [[nodiscard]] static MessageError unknown(const QString &message);
    [[nodiscard]] static MessageError outputLength();
    [[nodiscard]] static MessageError aborted(const QString &message);
    [[nodiscard]] static MessageError api(const QString &message, int statusCode, bool retryable,
                                          const JsonObject &responseHeaders = {}, const QString &responseBody = {});
    [[nodiscard]] static MessageError contextOverflow(const QString &message);
    [[nodiscard]] static QString kindName(Kind kind);
};

/// The `time` and other fields of a project: `{id, worktree, vcs, sandboxes, time}`.
class Project : public JsonBacked
{
public:
    using JsonBacked::JsonBacked;
    [[nodiscard]] QString id() const { return m_json.string(u"id"); }
    [[nodiscard]] QString worktree() const { return m_json.string(u"worktree"); }
    [[nodiscard]] QString vcs() const { return m_json.string(u"vcs"); }
    [[nodiscard]] QString name() const { return m_json.string(u"name"); }
    [[nodiscard]] qint64 created() const { return m_json.object(u"time").integer(u"created"); }
    [[nodiscard]] qint64 updated() const { return m_json.object(u"time").integer(u"updated"); }
    void setUpdated(qint64 ms);
    [[nodiscard]] static Project make(const QString &id, const QString &worktree, const QString &vcs, qint64 now);
    [[nodiscard]] static QList<ValidationIssue> validate(const JsonValue &value, const QString &path = QStringLiteral("$"));
};

/// Session.Info.
class Session : public JsonBacked
{
public:
    using JsonBacked::JsonBacked;

    [[nodiscard]] QString id() const { return m_json.string(u"id"); }
    [[nodiscard]] QString slug() const { return m_json.string(u"slug"); }
    [[nodiscard]] QString projectID() const { return m_json.string(u"projectID"); }
    [[nodiscard]] QString directory() const { return m_json.string(u"directory"); }
    [[nodiscard]] QString parentID() const { return m_json.string(u"parentID"); }
    [[nodiscard]] QString title() const { return m_json.string(u"title"); }
    [[nodiscard]] QString version() const { return m_json.string(u"version"); }
    [[nodiscard]] qint64 created() const { return time().integer(u"created"); }
    [[nodiscard]] qint64 updated() const { return time().integer(u"updated"); }
    [[nodiscard]] qint64 compacting() const { return time().integer(u"compacting"); }
    [[nodiscard]] qint64 archived() const { return time().integer(u"archived"); }
    [[nodiscard]] bool isArchived() const { return time().contains(u"archived"); }
    [[nodiscard]] JsonObject time() const { return m_json.object(u"time"); }
    [[nodiscard]] bool hasSummary() const { return m_json.contains(u"summary"); }
    [[nodiscard]] qint64 additions() const { return m_json.object(u"summary").integer(u"additions"); }
    [[nodiscard]] qint64 deletions() const { return m_json.object(u"summary").integer(u"deletions"); }
    [[nodiscard]] qint64 filesChanged() const { return m_json.object(u"summary").integer(u"files"); }
    [[nodiscard]] QString shareUrl() const { return m_json.object(u"share").string(u"url"); }
    [[nodiscard]] QList<PermissionRule> permission() const;
    [[nodiscard]] bool hasRevert() const { return m_json.value(u"revert").isObject(); }
    [[nodiscard]] JsonObject revert() const { return m_json.object(u"revert"); }
    /// A V1 session of an OpenCode 2 database that OpenCode's one-time V1→V2 migration skipped
    /// (in the legacy `session` table, not in `session_v2`): OpenCode 2 does not list it. Set by
    /// Weft's database store under the key NotMigratedKey, which is not OpenCode's (an import
    /// drops it).
    [[nodiscard]] bool isNotMigrated() const { return m_json.boolean(NotMigratedKey); }
    static constexpr QStringView NotMigratedKey = u"weftNotMigrated";

    void setTitle(const QString &title) { m_json.insert(QStringLiteral("title"), title); }
    void setDirectory(const QString &directory) { m_json.insert(QStringLiteral("directory"), directory); }
    void setParentID(const QString &id);
    void setTimeField(const QString &field, qint64 ms);
    void removeTimeField(QStringView field);
    void setUpdated(qint64 ms) { setTimeField(QStringLiteral("updated"), ms); }
    void setSummary(qint64 additions, qint64 deletions, qint64 files);
    void setRevert(const JsonObject &revert);
    void clearRevert() { m_json.remove(u"revert"); }

    [[nodiscard]] static QList<ValidationIssue> validate(const JsonValue &value, const QString &path = QStringLiteral("$"));
    [[nodiscard]] static Result<Session> fromJson(const JsonValue &value);

    static QString defaultTitle(bool child, qint64 ms);
    static bool isDefaultTitle(const QString &title);
};

/// A user or assistant message (MessageV2.Info).
class Message : public JsonBacked
{
public:
    enum class Role { User, Assistant };
    using JsonBacked::JsonBacked;

    [[nodiscard]] QString id() const { return m_json.string(u"id"); }
    [[nodiscard]] QString sessionID() const { return m_json.string(u"sessionID"); }
    [[nodiscard]] Role role() const { return m_json.string(u"role") == u"assistant" ? Role::Assistant : Role::User; }
    [[nodiscard]] bool isUser() const { return role() == Role::User; }
    [[nodiscard]] bool isAssistant() const { return role() == Role::Assistant; }
    [[nodiscard]] qint64 created() const { return m_json.object(u"time").integer(u"created"); }
    [[nodiscard]] qint64 completed() const { return m_json.object(u"time").integer(u"completed"); }
    [[nodiscard]] bool isCompleted() const { return m_json.object(u"time").contains(u"completed"); }
    [[nodiscard]] QString agent() const { return m_json.string(u"agent"); }

    // User
    [[nodiscard]] QString modelProviderID() const;
    [[nodiscard]] QString modelModelID() const;
    [[nodiscard]] QList<FileDiff> summaryDiffs() const;

    // Assistant
    [[nodiscard]] QString parentID() const { return m_json.string(u"parentID"); }
    [[nodiscard]] QString providerID() const { return m_json.string(u"providerID"); }
    [[nodiscard]] QString modelID() const { return m_json.string(u"modelID"); }
    [[nodiscard]] QString mode() const { return m_json.string(u"mode"); }
    [[nodiscard]] bool isSummary() const { return m_json.value(u"summary").toBool(); }
    [[nodiscard]] double cost() const { return m_json.number(u"cost"); }
    [[nodiscard]] Tokens tokens() const { return Tokens::fromJson(m_json.object(u"tokens")); }
    [[nodiscard]] QString finish() const { return m_json.string(u"finish"); }
    [[nodiscard]] bool hasError() const { return m_json.value(u"error").isObject(); }
    [[nodiscard]] MessageError error() const { return MessageError(m_json.object(u"error")); }

    void setId(const QString &id) { m_json.insert(QStringLiteral("id"), id); }
    void setSessionID(const QString &id) { m_json.insert(QStringLiteral("sessionID"), id); }
    void setParentID(const QString &id) { m_json.insert(QStringLiteral("parentID"), id); }
    void setCompleted(qint64 ms);
    void setCost(double cost) { m_json.insert(QStringLiteral("cost"), cost); }
    void setTokens(const Tokens &tokens);
    void setFinish(const QString &finish);
    void setError(const MessageError &error);
    void setSummaryDiffs(const QList<FileDiff> &diffs);

    /// A new user message in OpenCode's key order.
    [[nodiscard]] static Message makeUser(const QString &id, const QString &sessionID, qint64 created, const QString &agent,
                                          const QString &providerID, const QString &modelID);
    /// A new assistant message in OpenCode's key order.
    [[nodiscard]] static Message makeAssistant(const QString &id, const QString &sessionID, qint64 created,
                                               const QString &parentID, const QString &providerID,
                                               const QString &modelID, const QString &agent, const QString &cwd,
                                               const QString &root);

    [[nodiscard]] static QList<ValidationIssue> validate(const JsonValue &value, const QString &path = QStringLiteral("$"));
    [[nodiscard]] static Result<Message> fromJson(const JsonValue &value);
};

enum class PartType {
    Text,
    Reasoning,
    File,
    Tool,
    StepStart,
    StepFinish,
    Snapshot,
    Patch,
    Agent,
    Compaction,
    Subtask,
    Retry,
    Unknown, ///< a type from a newer OpenCode: kept and written back, shown as such
};

enum class ToolStatus { Pending, Running, Completed, Error, Unknown };

[[nodiscard]] QString partTypeName(PartType type);
[[nodiscard]] PartType partTypeFromName(QStringView name);
[[nodiscard]] QString toolStatusName(ToolStatus status);
[[nodiscard]] ToolStatus toolStatusFromName(QStringView name);

/// The state of a tool part: pending, running, completed or error.
class ToolState : public JsonBacked
{
public:
    using JsonBacked::JsonBacked;
    [[nodiscard]] ToolStatus status() const { return toolStatusFromName(m_json.string(u"status")); }
    [[nodiscard]] JsonObject input() const { return m_json.object(u"input"); }
    [[nodiscard]] QString raw() const { return m_json.string(u"raw"); }
    [[nodiscard]] QString title() const { return m_json.string(u"title"); }
    [[nodiscard]] QString output() const { return m_json.string(u"output"); }
    /// output() as it is held, without decoding it (valid while this state is).
    [[nodiscard]] QAnyStringView outputView() const { return m_json.stringView(u"output"); }
    [[nodiscard]] QString errorText() const { return m_json.string(u"error"); }
    [[nodiscard]] JsonObject metadata() const { return m_json.object(u"metadata"); }
    [[nodiscard]] qint64 started() const { return m_json.object(u"time").integer(u"start"); }
    [[nodiscard]] qint64 ended() const { return m_json.object(u"time").integer(u"end"); }
    [[nodiscard]] qint64 compacted() const { return m_json.object(u"time").integer(u"compacted"); }
    [[nodiscard]] bool isCompacted() const { return m_json.object(u"time").contains(u"compacted"); }
    void setCompacted(qint64 ms);

    [[nodiscard]] static ToolState pending(const JsonObject &input, const QString &raw);
    [[nodiscard]] static ToolState running(const JsonObject &input, qint64 start, const QString &title = {},
                                           const JsonObject &metadata = {});
    [[nodiscard]] static ToolState completed(const JsonObject &input, const QString &output, const QString &title,
                                             const JsonObject &metadata, qint64 start, qint64 end);
    [[nodiscard]] static ToolState error(const JsonObject &input, const QString &error, qint64 start, qint64 end,
                                         const JsonObject &metadata = {});
};

/// One part of a message (MessageV2.Part).
class Part : public JsonBacked
{
public:
    using JsonBacked::JsonBacked;

    [[nodiscard]] QString id() const { return m_json.string(u"id"); }
    [[nodiscard]] QString sessionID() const { return m_json.string(u"sessionID"); }
    [[nodiscard]] QString messageID() const { return m_json.string(u"messageID"); }
    [[nodiscard]] QString typeName() const { return m_json.string(u"type"); }
    [[nodiscard]] PartType type() const { return partTypeFromName(typeName()); }

    void setId(const QString &id) { m_json.insert(QStringLiteral("id"), id); }
    void setSessionID(const QString &id) { m_json.insert(QStringLiteral("sessionID"), id); }
    void setMessageID(const QString &id) { m_json.insert(QStringLiteral("messageID"), id); }

    // text, reasoning
    [[nodiscard]] QString text() const { return m_json.string(u"text"); }
    /// text() as it is held, without decoding it (valid while this part is).
    [[nodiscard]] QAnyStringView textView() const { return m_json.stringView(u"text"); }
    [[nodiscard]] bool isSynthetic() const { return m_json.boolean(u"synthetic"); }
    [[nodiscard]] bool isIgnored() const { return m_json.boolean(u"ignored"); }
    void setText(const QString &text) { m_json.insert(QStringLiteral("text"), text); }
    void setTimeField(const QString &field, qint64 ms);
    [[nodiscard]] qint64 timeField(QStringView field) const { return m_json.object(u"time").integer(field); }

    // tool
    [[nodiscard]] QString callID() const { return m_json.string(u"callID"); }
    [[nodiscard]] QString tool() const { return m_json.string(u"tool"); }
    [[nodiscard]] ToolState state() const { return ToolState(m_json.object(u"state")); }
    void setState(const ToolState &state) { m_json.insert(QStringLiteral("state"), state.json()); }

    // file
    [[nodiscard]] QString mime() const { return m_json.string(u"mime"); }
    [[nodiscard]] QString filename() const { return m_json.string(u"filename"); }
    [[nodiscard]] QString url() const { return m_json.string(u"url"); }
    /// The file's path from `source` (an @mention's file or symbol), empty without one.
    [[nodiscard]] QString sourcePath() const { return m_json.object(u"source").string(u"path"); }

    // step-start, step-finish, snapshot
    [[nodiscard]] QString snapshot() const { return m_json.string(u"snapshot"); }
    [[nodiscard]] QString reason() const { return m_json.string(u"reason"); }
    [[nodiscard]] double cost() const { return m_json.number(u"cost"); }
    [[nodiscard]] Tokens tokens() const { return Tokens::fromJson(m_json.object(u"tokens")); }

    // patch
    [[nodiscard]] QString hash() const { return m_json.string(u"hash"); }
    [[nodiscard]] QStringList files() const;

    // agent, subtask
    [[nodiscard]] QString name() const { return m_json.string(u"name"); }
    [[nodiscard]] QString prompt() const { return m_json.string(u"prompt"); }
    [[nodiscard]] QString description() const { return m_json.string(u"description"); }
    [[nodiscard]] QString agent() const { return m_json.string(u"agent"); }

    // compaction
    [[nodiscard]] bool isAuto() const { return m_json.boolean(u"auto"); }

    // retry
    [[nodiscard]] int attempt() const { return int(m_json.integer(u"attempt")); }
    [[nodiscard]] MessageError retryError() const { return MessageError(m_json.object(u"error")); }

    /// New parts in OpenCode's key order.
    [[nodiscard]] static Part make(const QString &id, const QString &sessionID, const QString &messageID, PartType type);
    [[nodiscard]] static Part makeText(const QString &id, const QString &sessionID, const QString &messageID,
                                       const QString &text, bool synthetic = false);
    /// A file part (MessageV2.FilePart): mime, filename (left out when empty), url (a file:// or
    /// data: URL) and @p source as given (`{text: {value, start, end}, type, path}`; left out
    /// when empty).
    [[nodiscard]] static Part makeFile(const QString &id, const QString &sessionID, const QString &messageID,
                                       const QString &mime, const QString &filename, const QString &url,
                                       const JsonObject &source = {});

    [[nodiscard]] static QList<ValidationIssue> validate(const JsonValue &value, const QString &path = QStringLiteral("$"));
    [[nodiscard]] static Result<Part> fromJson(const JsonValue &value);

    /// Closes this part if a run left it unfinished, as OpenCode closes an aborted reply's: a
    /// pending or running tool call becomes an error saying @p toolWhy, streaming text or
    /// reasoning gets its end time, all at @p now. True when it changed.
    bool closeUnfinished(const QString &toolWhy, qint64 now);
};

/// A message with its parts, as `opencode export` lists them.
struct MessageWithParts {
    Message info;
    QList<Part> parts;
    [[nodiscard]] JsonObject toJson() const;

    /// An assistant reply whose run has not finished it: no `time.completed`, no error.
    [[nodiscard]] bool isUnfinished() const;
    /// Closes an unfinished reply whose run will never finish it (its process died; it was
    /// copied while running), as OpenCode closes an aborted one: pending and running tool calls
    /// become errors saying @p toolWhy, streaming text and reasoning end, and the message gets
    /// `time.completed` and MessageAbortedError(@p why), all at @p now. Returns the parts it
    /// changed (in `parts` too).
    QList<Part> closeUnfinished(const QString &why, const QString &toolWhy, qint64 now);
};

/// Orders messages as Weft shows and exports them: by time.created, then by ID (IDs alone sort
/// wrongly across the 2026-08-14 wraparound of the ID time field).
[[nodiscard]] bool messageLessThan(const Message &a, const Message &b);
/// Orders parts within a message: by ID, which OpenCode makes ascending within a message.
[[nodiscard]] bool partLessThan(const Part &a, const Part &b);
/// Orders sessions newest first by time.updated, then by ID.
[[nodiscard]] bool sessionNewerThan(const Session &a, const Session &b);

/// A file (or row) that could not be read, and why. Damaged data is reported and skipped;
/// everything else still loads.
struct StoreProblem {
    QString location; ///< file path or database row
    QString reason;
    bool operator==(const StoreProblem &) const = default;
};

} // namespace weft

Q_DECLARE_METATYPE(weft::Session)
Q_DECLARE_METATYPE(weft::Message)
Q_DECLARE_METATYPE(weft::Part)
Q_DECLARE_METATYPE(weft::FileDiff)
Q_DECLARE_METATYPE(weft::Todo)
Q_DECLARE_METATYPE(weft::MessageError)
Q_DECLARE_METATYPE(weft::MessageWithParts)
