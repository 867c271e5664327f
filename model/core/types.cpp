// SPDX-License-Identifier: GPL-3.0-or-later
#include "types.h"

#include "tr.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// Collects validation issues with JSON paths such as `$.state.time.start`.
class Validator
{
public:
    explicit Validator(QList<ValidationIssue> &issues) : m_issues(issues) { }

    void add(const QString &path, const QString &message) { m_issues.append({path, message}); }

    bool expect(const JsonValue &v, JsonValue::Type type, const QString &path, bool optional = false)
    {
        if (v.isUndefined()) {
            if (!optional)
                add(path, CoreTr::tr("missing (expected %1)").arg(JsonValue::typeName(type)));
            return false;
        }
        if (v.type() != type) {
            add(path,
                CoreTr::tr("expected %1, found %2").arg(JsonValue::typeName(type), JsonValue::typeName(v.type())));
            return false;
        }
        return true;
    }

    /// expect() for the member @p key of @p o. Its path ("base.key") is built only for an
    /// issue: building it for every member checked was a third of Session::validate() (19 M of
    /// its 53 M instructions in `session list` of 5,000 sessions).
    bool member(const JsonObject &o, const QString &base, const QString &key, JsonValue::Type type, bool optional)
    {
        const JsonValue &v = o.value(key);
        if (v.type() == type)
            return true;
        return expect(v, type, base + u'.' + key, optional);
    }
    bool string(const JsonObject &o, const QString &base, const QString &key, bool optional = false)
    {
        return member(o, base, key, JsonValue::Type::String, optional);
    }
    bool number(const JsonObject &o, const QString &base, const QString &key, bool optional = false)
    {
        return member(o, base, key, JsonValue::Type::Number, optional);
    }
    bool boolean(const JsonObject &o, const QString &base, const QString &key, bool optional = false)
    {
        return member(o, base, key, JsonValue::Type::Bool, optional);
    }
    bool object(const JsonObject &o, const QString &base, const QString &key, bool optional = false)
    {
        return member(o, base, key, JsonValue::Type::Object, optional);
    }
    bool array(const JsonObject &o, const QString &base, const QString &key, bool optional = false)
    {
        return member(o, base, key, JsonValue::Type::Array, optional);
    }

    void id(const JsonObject &o, const QString &base, const QString &key, const QString &prefix, bool optional = false)
    {
        if (!string(o, base, key, optional))
            return;
        const QString value = o.string(key);
        if (!value.startsWith(prefix + u'_'))
            add(base + u'.' + key, CoreTr::tr("\"%1\" does not start with \"%2_\"").arg(value.left(60), prefix));
    }

    void tokens(const JsonObject &o, const QString &base, const QString &key, bool optional = false)
    {
        if (!object(o, base, key, optional))
            return;
        const JsonObject t = o.object(key);
        const QString p = base + u'.' + key;
        for (const QString &k : {u"input"_s, u"output"_s, u"reasoning"_s})
            number(t, p, k);
        if (object(t, p, u"cache"_s)) {
            number(t.object(u"cache"), p + u".cache"_s, u"read"_s);
            number(t.object(u"cache"), p + u".cache"_s, u"write"_s);
        }
    }

    void error(const JsonObject &o, const QString &base, const QString &key, bool optional)
    {
        if (!object(o, base, key, optional))
            return;
        const JsonObject e = o.object(key);
        string(e, base + u'.' + key, u"name"_s);
    }

private:
    QList<ValidationIssue> &m_issues;
};

bool fileDiffIssues(Validator &v, const JsonValue &value, const QString &path)
{
    if (!v.expect(value, JsonValue::Type::Object, path))
        return false;
    const JsonObject o = value.toObject();
    const bool oldForm = o.contains(u"before") || o.contains(u"after");
    v.string(o, path, u"file"_s, !oldForm);
    if (oldForm) {
        v.string(o, path, u"before"_s);
        v.string(o, path, u"after"_s);
    } else {
        v.string(o, path, u"patch"_s, true);
        v.string(o, path, u"status"_s, true);
    }
    v.number(o, path, u"additions"_s);
    v.number(o, path, u"deletions"_s);
    return true;
}

template<typename T>
Result<T> fromJsonChecked(const JsonValue &value, const QList<ValidationIssue> &issues)
{
    if (!issues.isEmpty()) {
        QStringList lines;
        for (const ValidationIssue &issue : issues)
            lines.append(issue.toString());
        return Error{lines.join(u"; "_s), {}};
    }
    return T(value.toObject());
}

} // namespace

// ---------------------------------------------------------------------------------------------

Tokens Tokens::fromJson(const JsonObject &o)
{
    Tokens t;
    t.input = o.integer(u"input");
    t.output = o.integer(u"output");
    t.reasoning = o.integer(u"reasoning");
    const JsonObject cache = o.object(u"cache");
    t.cacheRead = cache.integer(u"read");
    t.cacheWrite = cache.integer(u"write");
    return t;
}

void Tokens::writeTo(JsonObject &o) const
{
    o.insert(u"input"_s, input);
    o.insert(u"output"_s, output);
    o.insert(u"reasoning"_s, reasoning);
    JsonObject cache = o.object(u"cache");
    cache.insert(u"read"_s, cacheRead);
    cache.insert(u"write"_s, cacheWrite);
    o.insert(u"cache"_s, cache);
}

JsonObject Tokens::toJson() const
{
    JsonObject o;
    writeTo(o);
    return o;
}

Tokens &Tokens::operator+=(const Tokens &o)
{
    input += o.input;
    output += o.output;
    reasoning += o.reasoning;
    cacheRead += o.cacheRead;
    cacheWrite += o.cacheWrite;
    return *this;
}

std::optional<PermissionRule> PermissionRule::fromJson(const JsonObject &o)
{
    const QString action = o.string(u"action");
    PermissionRule rule;
    rule.permission = o.string(u"permission");
    rule.pattern = o.string(u"pattern", u"*"_s);
    if (action == u"allow")
        rule.action = Action::Allow;
    else if (action == u"deny")
        rule.action = Action::Deny;
    else if (action == u"ask")
        rule.action = Action::Ask;
    else
        return std::nullopt;
    if (rule.permission.isEmpty())
        return std::nullopt;
    return rule;
}

JsonObject PermissionRule::toJson() const
{
    return JsonObject{{u"permission"_s, permission}, {u"pattern"_s, pattern}, {u"action"_s, actionName(action)}};
}

QString PermissionRule::actionName(Action action)
{
    switch (action) {
    case Action::Allow:
        return u"allow"_s;
    case Action::Ask:
        return u"ask"_s;
    case Action::Deny:
        return u"deny"_s;
    }
    return {};
}

// ---------------------------------------------------------------------------------------------

FileDiff FileDiff::fromContents(const QString &file, const QString &before, const QString &after, qint64 additions,
                                qint64 deletions)
{
    return FileDiff(JsonObject{{u"file"_s, file},
                               {u"before"_s, before},
                               {u"after"_s, after},
                               {u"additions"_s, additions},
                               {u"deletions"_s, deletions}});
}

QList<ValidationIssue> FileDiff::validate(const JsonValue &value, const QString &path)
{
    QList<ValidationIssue> issues;
    Validator v(issues);
    fileDiffIssues(v, value, path);
    return issues;
}

// ---------------------------------------------------------------------------------------------

Todo Todo::make(const QString &content, const QString &status, const QString &priority, const QString &id)
{
    JsonObject o{{u"content"_s, content}, {u"status"_s, status}, {u"priority"_s, priority}};
    if (!id.isEmpty())
        o.insert(u"id"_s, id);
    return Todo(std::move(o));
}

QList<ValidationIssue> Todo::validate(const JsonValue &value, const QString &path)
{
    QList<ValidationIssue> issues;
    Validator v(issues);
    if (v.expect(value, JsonValue::Type::Object, path)) {
        const JsonObject o = value.toObject();
        v.string(o, path, u"content"_s);
        v.string(o, path, u"status"_s);
        v.string(o, path, u"priority"_s);
        v.string(o, path, u"id"_s, true);
    }
    return issues;
}

// ---------------------------------------------------------------------------------------------

MessageError::Kind MessageError::kind() const
{
    const QString n = name();
    if (n == u"ProviderAuthError")
        return Kind::ProviderAuth;
    if (n == u"UnknownError")
        return Kind::Unknown;
    if (n == u"MessageOutputLengthError")
        return Kind::OutputLength;
    if (n == u"MessageAbortedError")
        return Kind::Aborted;
    if (n == u"APIError")
        return Kind::Api;
    if (n == u"ContextOverflowError")
        return Kind::ContextOverflow;
    if (n == u"StructuredOutputError")
        return Kind::StructuredOutput;
    if (n == u"ContentFilterError")
        return Kind::ContentFilter;
    return Kind::Other;
}

QString MessageError::kindName(Kind kind)
{
    switch (kind) {
    case Kind::ProviderAuth:
        return u"ProviderAuthError"_s;
    case Kind::Unknown:
        return u"UnknownError"_s;
    case Kind::OutputLength:
        return u"MessageOutputLengthError"_s;
    case Kind::Aborted:
        return u"MessageAbortedError"_s;
    case Kind::Api:
        return u"APIError"_s;
    case Kind::ContextOverflow:
        return u"ContextOverflowError"_s;
    case Kind::StructuredOutput:
        return u"StructuredOutputError"_s;
    case Kind::ContentFilter:
        return u"ContentFilterError"_s;
    case Kind::Other:
        break;
    }
    return u"UnknownError"_s;
}

QString MessageError::message() const
{
    const JsonObject d = data();
    QString m = d.string(u"message");
    if (m.isEmpty() && kind() == Kind::OutputLength)
        m = u"The model reached its output limit"_s;
    if (m.isEmpty())
        m = name();
    return m;
}

bool MessageError::isRetryable() const
{
    return kind() == Kind::Api && data().boolean(u"isRetryable");
}

MessageError MessageError::providerAuth(const QString &providerID, const QString &message)
{
    return MessageError(JsonObject{{u"name"_s, u"ProviderAuthError"_s},
                                   {u"data"_s, JsonObject{{u"providerID"_s, providerID}, {u"message"_s, message}}}});
}

MessageError MessageError::unknown(const QString &message)
{
    return MessageError(
        JsonObject{{u"name"_s, u"UnknownError"_s}, {u"data"_s, JsonObject{{u"message"_s, message}}}});
}

MessageError MessageError::outputLength()
{
    return MessageError(JsonObject{{u"name"_s, u"MessageOutputLengthError"_s}, {u"data"_s, JsonObject{}}});
}

MessageError MessageError::aborted(const QString &message)
{
    return MessageError(
        JsonObject{{u"name"_s, u"MessageAbortedError"_s}, {u"data"_s, JsonObject{{u"message"_s, message}}}});
}

MessageError MessageError::api(const QString &message, int statusCode, bool retryable, const JsonObject &responseHeaders,
                               const QString &responseBody)
{
    JsonObject d{{u"message"_s, message}};
    if (statusCode > 0)
        d.insert(u"statusCode"_s, statusCode);
    d.insert(u"isRetryable"_s, retryable);
    if (!responseHeaders.isEmpty())
        d.insert(u"responseHeaders"_s, responseHeaders);
    if (!responseBody.isEmpty())
        d.insert(u"responseBody"_s, responseBody);
    return MessageError(JsonObject{{u"name"_s, u"APIError"_s}, {u"data"_s, d}});
}

MessageError MessageError::contextOverflow(const QString &message)
{
    return MessageError(
        JsonObject{{u"name"_s, u"ContextOverflowError"_s}, {u"data"_s, JsonObject{{u"message"_s, message}}}});
}

// ---------------------------------------------------------------------------------------------

void Project::setUpdated(qint64 ms)
{
    JsonObject t = m_json.object(u"time");
    t.insert(u"updated"_s, ms);
    m_json.insert(u"time"_s, t);
}

Project Project::make(const QString &id, const QString &worktree, const QString &vcs, qint64 now)
{
    JsonObject o{{u"id"_s, id}, {u"worktree"_s, worktree}};
    if (!vcs.isEmpty())
        o.insert(u"vcs"_s, vcs);
    o.insert(u"sandboxes"_s, JsonArray());
    o.insert(u"time"_s, JsonObject{{u"created"_s, now}, {u"updated"_s, now}});
    return Project(o);
}

QList<ValidationIssue> Project::validate(const JsonValue &value, const QString &path)
{
    QList<ValidationIssue> issues;
    Validator v(issues);
    if (!v.expect(value, JsonValue::Type::Object, path))
        return issues;
    const JsonObject o = value.toObject();
    v.string(o, path, u"id"_s);
    v.string(o, path, u"worktree"_s);
    if (v.object(o, path, u"time"_s, true))
        v.number(o.object(u"time"), path + u".time"_s, u"created"_s);
    return issues;
}

// ---------------------------------------------------------------------------------------------

QList<PermissionRule> Session::permission() const
{
    QList<PermissionRule> rules;
    for (const JsonValue &v : m_json.array(u"permission")) {
        if (auto rule = PermissionRule::fromJson(v.toObject()))
            rules.append(*rule);
    }
    return rules;
}

void Session::setParentID(const QString &id)
{
    if (id.isEmpty())
        m_json.remove(u"parentID");
    else
        m_json.insertAfter(u"directory", u"parentID"_s, id);
}

void Session::setTimeField(const QString &field, qint64 ms)
{
    JsonObject t = m_json.object(u"time");
    t.insert(field, ms);
    m_json.insert(u"time"_s, t);
}

void Session::removeTimeField(QStringView field)
{
    JsonObject t = m_json.object(u"time");
    t.remove(field);
    m_json.insert(u"time"_s, t);
}

void Session::setSummary(qint64 additions, qint64 deletions, qint64 files)
{
    JsonObject s = m_json.object(u"summary");
    s.insert(u"additions"_s, additions);
    s.insert(u"deletions"_s, deletions);
    s.insert(u"files"_s, files);
    m_json.insert(u"summary"_s, s);
}

void Session::setRevert(const JsonObject &revert)
{
    m_json.insert(u"revert"_s, revert);
}

QList<ValidationIssue> Session::validate(const JsonValue &value, const QString &path)
{
    QList<ValidationIssue> issues;
    Validator v(issues);
    if (!v.expect(value, JsonValue::Type::Object, path))
        return issues;
    const JsonObject o = value.toObject();
    v.id(o, path, u"id"_s, u"ses"_s);
    v.string(o, path, u"slug"_s, true);
    v.string(o, path, u"projectID"_s);
    v.string(o, path, u"directory"_s);
    v.id(o, path, u"parentID"_s, u"ses"_s, true);
    v.string(o, path, u"title"_s);
    v.string(o, path, u"version"_s);
    if (v.object(o, path, u"time"_s)) {
        const JsonObject t = o.object(u"time");
        const QString tp = path + u".time"_s;
        v.number(t, tp, u"created"_s);
        v.number(t, tp, u"updated"_s);
        v.number(t, tp, u"compacting"_s, true);
        v.number(t, tp, u"archived"_s, true);
    }
    if (v.object(o, path, u"summary"_s, true)) {
        const JsonObject s = o.object(u"summary");
        const QString sp = path + u".summary"_s;
        v.number(s, sp, u"additions"_s);
        v.number(s, sp, u"deletions"_s);
        v.number(s, sp, u"files"_s);
        if (v.array(s, sp, u"diffs"_s, true)) {
            const JsonArray diffs = s.array(u"diffs");
            for (qsizetype i = 0; i < diffs.size(); ++i)
                fileDiffIssues(v, diffs.at(i), sp + u".diffs[%1]"_s.arg(i));
        }
    }
    if (v.object(o, path, u"share"_s, true))
        v.string(o.object(u"share"), path + u".share"_s, u"url"_s);
    if (v.array(o, path, u"permission"_s, true)) {
        const JsonArray rules = o.array(u"permission");
        for (qsizetype i = 0; i < rules.size(); ++i) {
            const QString rp = path + u".permission[%1]"_s.arg(i);
            if (!v.expect(rules.at(i), JsonValue::Type::Object, rp))
                continue;
            const JsonObject r = rules.at(i).toObject();
            v.string(r, rp, u"permission"_s);
            v.string(r, rp, u"pattern"_s);
            if (v.string(r, rp, u"action"_s)) {
                const QString a = r.string(u"action");
                if (a != u"allow" && a != u"ask" && a != u"deny")
                    v.add(rp + u".action"_s, CoreTr::tr("expected allow, ask or deny, found \"%1\"").arg(a));
            }
        }
    }
    if (v.object(o, path, u"revert"_s, true))
        v.string(o.object(u"revert"), path + u".revert"_s, u"messageID"_s);
    return issues;
}

Result<Session> Session::fromJson(const JsonValue &value)
{
    return fromJsonChecked<Session>(value, validate(value));
}

QString Session::defaultTitle(bool child, qint64 ms)
{
    return (child ? u"Child session - "_s : u"New session - "_s)
        + QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
}

bool Session::isDefaultTitle(const QString &title)
{
    static const QRegularExpression re(
        u"^(New session - |Child session - )\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$"_s);
    return re.match(title).hasMatch();
}

// ---------------------------------------------------------------------------------------------

QString Message::modelProviderID() const
{
    return m_json.object(u"model").string(u"providerID");
}

QString Message::modelModelID() const
{
    return m_json.object(u"model").string(u"modelID");
}

QList<FileDiff> Message::summaryDiffs() const
{
    QList<FileDiff> diffs;
    const JsonValue summary = m_json.value(u"summary");
    if (!summary.isObject())
        return diffs;
    for (const JsonValue &d : summary.toObject().array(u"diffs"))
        diffs.append(FileDiff(d.toObject()));
    return diffs;
}

void Message::setCompleted(qint64 ms)
{
    JsonObject t = m_json.object(u"time");
    t.insert(u"completed"_s, ms);
    m_json.insert(u"time"_s, t);
}

void Message::setTokens(const Tokens &tokens)
{
    JsonObject t = m_json.object(u"tokens");
    tokens.writeTo(t);
    m_json.insert(u"tokens"_s, t);
}

void Message::setFinish(const QString &finish)
{
    if (finish.isEmpty())
        m_json.remove(u"finish");
    else
        m_json.insert(u"finish"_s, finish);
}

void Message::setError(const MessageError &error)
{
    if (error.isNull())
        m_json.remove(u"error");
    else
        m_json.insertAfter(u"time", u"error"_s, error.json());
}

void Message::setSummaryDiffs(const QList<FileDiff> &diffs)
{
    JsonArray array;
    for (const FileDiff &d : diffs)
        array.append(d.json());
    JsonObject summary = m_json.object(u"summary");
    summary.insert(u"diffs"_s, array);
    m_json.insert(u"summary"_s, summary);
}

Message Message::makeUser(const QString &id, const QString &sessionID, qint64 created, const QString &agent,
                          const QString &providerID, const QString &modelID)
{
    return Message(JsonObject{{u"id"_s, id},
                              {u"sessionID"_s, sessionID},
                              {u"role"_s, u"user"_s},
                              {u"time"_s, JsonObject{{u"created"_s, created}}},
                              {u"agent"_s, agent},
                              {u"model"_s, JsonObject{{u"providerID"_s, providerID}, {u"modelID"_s, modelID}}}});
}

Message Message::makeAssistant(const QString &id, const QString &sessionID, qint64 created, const QString &parentID,
                               const QString &providerID, const QString &modelID, const QString &agent,
                               const QString &cwd, const QString &root)
{
    return Message(JsonObject{{u"id"_s, id},
                              {u"sessionID"_s, sessionID},
                              {u"role"_s, u"assistant"_s},
                              {u"time"_s, JsonObject{{u"created"_s, created}}},
                              {u"parentID"_s, parentID},
                              {u"modelID"_s, modelID},
                              {u"providerID"_s, providerID},
                              {u"mode"_s, agent},
                              {u"agent"_s, agent},
                              {u"path"_s, JsonObject{{u"cwd"_s, cwd}, {u"root"_s, root}}},
                              {u"cost"_s, 0},
                              {u"tokens"_s, Tokens().toJson()}});
}

QList<ValidationIssue> Message::validate(const JsonValue &value, const QString &path)
{
    QList<ValidationIssue> issues;
    Validator v(issues);
    if (!v.expect(value, JsonValue::Type::Object, path))
        return issues;
    const JsonObject o = value.toObject();
    v.id(o, path, u"id"_s, u"msg"_s);
    v.id(o, path, u"sessionID"_s, u"ses"_s);
    if (v.object(o, path, u"time"_s)) {
        v.number(o.object(u"time"), path + u".time"_s, u"created"_s);
        v.number(o.object(u"time"), path + u".time"_s, u"completed"_s, true);
    }
    if (!v.string(o, path, u"role"_s))
        return issues;
    const QString role = o.string(u"role");
    if (role == u"user") {
        v.string(o, path, u"agent"_s, true);
        if (v.object(o, path, u"model"_s, true)) {
            v.string(o.object(u"model"), path + u".model"_s, u"providerID"_s);
            v.string(o.object(u"model"), path + u".model"_s, u"modelID"_s);
        }
        if (v.object(o, path, u"summary"_s, true) && v.array(o.object(u"summary"), path + u".summary"_s, u"diffs"_s, true)) {
            const JsonArray diffs = o.object(u"summary").array(u"diffs");
            for (qsizetype i = 0; i < diffs.size(); ++i)
                fileDiffIssues(v, diffs.at(i), path + u".summary.diffs[%1]"_s.arg(i));
        }
    } else if (role == u"assistant") {
        v.id(o, path, u"parentID"_s, u"msg"_s);
        v.string(o, path, u"modelID"_s);
        v.string(o, path, u"providerID"_s);
        v.string(o, path, u"mode"_s, true);
        v.string(o, path, u"agent"_s, true);
        v.number(o, path, u"cost"_s);
        v.tokens(o, path, u"tokens"_s);
        v.boolean(o, path, u"summary"_s, true);
        v.string(o, path, u"finish"_s, true);
        v.error(o, path, u"error"_s, true);
        if (v.object(o, path, u"path"_s, true)) {
            v.string(o.object(u"path"), path + u".path"_s, u"cwd"_s);
            v.string(o.object(u"path"), path + u".path"_s, u"root"_s);
        }
    } else {
        v.add(path + u".role"_s, CoreTr::tr("expected \"user\" or \"assistant\", found \"%1\"").arg(role));
    }
    return issues;
}

Result<Message> Message::fromJson(const JsonValue &value)
{
    return fromJsonChecked<Message>(value, validate(value));
}

// ---------------------------------------------------------------------------------------------

namespace
{
struct PartTypeName {
    PartType type;
    const char16_t *name;
};
constexpr PartTypeName s_partTypes[] = {
    {PartType::Text, u"text"},
    {PartType::Reasoning, u"reasoning"},
    {PartType::File, u"file"},
    {PartType::Tool, u"tool"},
    {PartType::StepStart, u"step-start"},
    {PartType::StepFinish, u"step-finish"},
    {PartType::Snapshot, u"snapshot"},
    {PartType::Patch, u"patch"},
    {PartType::Agent, u"agent"},
    {PartType::Compaction, u"compaction"},
    {PartType::Subtask, u"subtask"},
    {PartType::Retry, u"retry"},
};
} // namespace

QString partTypeName(PartType type)
{
    for (const auto &t : s_partTypes) {
        if (t.type == type)
            return QString::fromUtf16(t.name);
    }
    return u"unknown"_s;
}

PartType partTypeFromName(QStringView name)
{
    for (const auto &t : s_partTypes) {
        if (name == QStringView(t.name))
            return t.type;
    }
    return PartType::Unknown;
}

QString toolStatusName(ToolStatus status)
{
    switch (status) {
    case ToolStatus::Pending:
        return u"pending"_s;
    case ToolStatus::Running:
        return u"running"_s;
    case ToolStatus::Completed:
        return u"completed"_s;
    case ToolStatus::Error:
        return u"error"_s;
    case ToolStatus::Unknown:
        break;
    }
    return u"unknown"_s;
}

ToolStatus toolStatusFromName(QStringView name)
{
    if (name == u"pending")
        return ToolStatus::Pending;
    if (name == u"running")
        return ToolStatus::Running;
    if (name == u"completed")
        return ToolStatus::Completed;
    if (name == u"error")
        return ToolStatus::Error;
    return ToolStatus::Unknown;
}

void ToolState::setCompacted(qint64 ms)
{
    JsonObject t = m_json.object(u"time");
    t.insert(u"compacted"_s, ms);
    m_json.insert(u"time"_s, t);
}

ToolState ToolState::pending(const JsonObject &input, const QString &raw)
{
    return ToolState(JsonObject{{u"status"_s, u"pending"_s}, {u"input"_s, input}, {u"raw"_s, raw}});
}

ToolState ToolState::running(const JsonObject &input, qint64 start, const QString &title, const JsonObject &metadata)
{
    JsonObject o{{u"status"_s, u"running"_s}, {u"input"_s, input}};
    if (!title.isEmpty())
        o.insert(u"title"_s, title);
    if (!metadata.isEmpty())
        o.insert(u"metadata"_s, metadata);
    o.insert(u"time"_s, JsonObject{{u"start"_s, start}});
    return ToolState(o);
}

ToolState ToolState::completed(const JsonObject &input, const QString &output, const QString &title,
                               const JsonObject &metadata, qint64 start, qint64 end)
{
    return ToolState(JsonObject{{u"status"_s, u"completed"_s},
                                {u"input"_s, input},
                                {u"output"_s, output},
                                {u"title"_s, title},
                                {u"metadata"_s, metadata},
                                {u"time"_s, JsonObject{{u"start"_s, start}, {u"end"_s, end}}}});
}

ToolState ToolState::error(const JsonObject &input, const QString &error, qint64 start, qint64 end,
                           const JsonObject &metadata)
{
    JsonObject o{{u"status"_s, u"error"_s}, {u"input"_s, input}, {u"error"_s, error}};
    if (!metadata.isEmpty())
        o.insert(u"metadata"_s, metadata);
    o.insert(u"time"_s, JsonObject{{u"start"_s, start}, {u"end"_s, end}});
    return ToolState(o);
}

QStringList Part::files() const
{
    QStringList list;
    for (const JsonValue &v : m_json.array(u"files"))
        list.append(v.toString());
    return list;
}

void Part::setTimeField(const QString &field, qint64 ms)
{
    JsonObject t = m_json.object(u"time");
    t.insert(field, ms);
    m_json.insert(u"time"_s, t);
}

Part Part::make(const QString &id, const QString &sessionID, const QString &messageID, PartType type)
{
    return Part(JsonObject{{u"id"_s, id}, {u"sessionID"_s, sessionID}, {u"messageID"_s, messageID}, {u"type"_s, partTypeName(type)}});
}

Part Part::makeText(const QString &id, const QString &sessionID, const QString &messageID, const QString &text,
                    bool synthetic)
{
    // OpenCode stores parts in its schema's key order: text, then synthetic.
    Part p = make(id, sessionID, messageID, PartType::Text);
    p.json().insert(u"text"_s, text);
    if (synthetic)
        p.json().insert(u"synthetic"_s, true);
    return p;
}

Part Part::makeFile(const QString &id, const QString &sessionID, const QString &messageID, const QString &mime,
                    const QString &filename, const QString &url, const JsonObject &source)
{
    Part p = make(id, sessionID, messageID, PartType::File);
    p.json().insert(u"mime"_s, mime);
    if (!filename.isEmpty())
        p.json().insert(u"filename"_s, filename);
    p.json().insert(u"url"_s, url);
    if (!source.isEmpty())
        p.json().insert(u"source"_s, source);
    return p;
}

QList<ValidationIssue> Part::validate(const JsonValue &value, const QString &path)
{
    QList<ValidationIssue> issues;
    Validator v(issues);
    if (!v.expect(value, JsonValue::Type::Object, path))
        return issues;
    const JsonObject o = value.toObject();
    v.id(o, path, u"id"_s, u"prt"_s);
    v.id(o, path, u"sessionID"_s, u"ses"_s);
    v.id(o, path, u"messageID"_s, u"msg"_s);
    if (!v.string(o, path, u"type"_s))
        return issues;
    auto timeObject = [&](bool optional, bool needStart) {
        if (v.object(o, path, u"time"_s, optional) && needStart)
            v.number(o.object(u"time"), path + u".time"_s, u"start"_s);
    };
    switch (partTypeFromName(o.string(u"type"))) {
    case PartType::Text:
        v.string(o, path, u"text"_s);
        v.boolean(o, path, u"synthetic"_s, true);
        v.boolean(o, path, u"ignored"_s, true);
        timeObject(true, true);
        break;
    case PartType::Reasoning:
        v.string(o, path, u"text"_s);
        timeObject(false, true);
        break;
    case PartType::File:
        v.string(o, path, u"mime"_s);
        v.string(o, path, u"url"_s);
        v.string(o, path, u"filename"_s, true);
        v.object(o, path, u"source"_s, true);
        break;
    case PartType::Tool: {
        v.string(o, path, u"callID"_s);
        v.string(o, path, u"tool"_s);
        if (!v.object(o, path, u"state"_s))
            break;
        const JsonObject s = o.object(u"state");
        const QString sp = path + u".state"_s;
        if (!v.string(s, sp, u"status"_s))
            break;
        const ToolStatus status = toolStatusFromName(s.string(u"status"));
        v.object(s, sp, u"input"_s);
        switch (status) {
        case ToolStatus::Pending:
            v.string(s, sp, u"raw"_s, true);
            break;
        case ToolStatus::Running:
            if (v.object(s, sp, u"time"_s))
                v.number(s.object(u"time"), sp + u".time"_s, u"start"_s);
            break;
        case ToolStatus::Completed:
            v.string(s, sp, u"output"_s);
            v.string(s, sp, u"title"_s);
            v.object(s, sp, u"metadata"_s, true);
            if (v.object(s, sp, u"time"_s)) {
                v.number(s.object(u"time"), sp + u".time"_s, u"start"_s);
                v.number(s.object(u"time"), sp + u".time"_s, u"end"_s);
                v.number(s.object(u"time"), sp + u".time"_s, u"compacted"_s, true);
            }
            break;
        case ToolStatus::Error:
            v.string(s, sp, u"error"_s);
            if (v.object(s, sp, u"time"_s)) {
                v.number(s.object(u"time"), sp + u".time"_s, u"start"_s);
                v.number(s.object(u"time"), sp + u".time"_s, u"end"_s);
            }
            break;
        case ToolStatus::Unknown:
            v.add(sp + u".status"_s,
                  CoreTr::tr("expected pending, running, completed or error, found \"%1\"").arg(s.string(u"status")));
            break;
        }
        break;
    }
    case PartType::StepStart:
        v.string(o, path, u"snapshot"_s, true);
        break;
    case PartType::StepFinish:
        v.string(o, path, u"reason"_s);
        v.string(o, path, u"snapshot"_s, true);
        v.number(o, path, u"cost"_s);
        v.tokens(o, path, u"tokens"_s);
        break;
    case PartType::Snapshot:
        v.string(o, path, u"snapshot"_s);
        break;
    case PartType::Patch:
        v.string(o, path, u"hash"_s);
        if (v.array(o, path, u"files"_s)) {
            const JsonArray files = o.array(u"files");
            for (qsizetype i = 0; i < files.size(); ++i)
                v.expect(files.at(i), JsonValue::Type::String, path + u".files[%1]"_s.arg(i));
        }
        break;
    case PartType::Agent:
        v.string(o, path, u"name"_s);
        break;
    case PartType::Compaction:
        v.boolean(o, path, u"auto"_s);
        break;
    case PartType::Subtask:
        v.string(o, path, u"prompt"_s);
        v.string(o, path, u"description"_s);
        v.string(o, path, u"agent"_s);
        break;
    case PartType::Retry:
        v.number(o, path, u"attempt"_s);
        v.error(o, path, u"error"_s, false);
        if (v.object(o, path, u"time"_s))
            v.number(o.object(u"time"), path + u".time"_s, u"created"_s);
        break;
    case PartType::Unknown:
        // A part type from a newer OpenCode: kept as it is.
        break;
    }
    return issues;
}

Result<Part> Part::fromJson(const JsonValue &value)
{
    return fromJsonChecked<Part>(value, validate(value));
}

JsonObject MessageWithParts::toJson() const
{
    JsonArray partArray;
    partArray.reserve(parts.size());
    for (const Part &p : parts)
        partArray.append(p.json());
    return JsonObject{{u"info"_s, info.json()}, {u"parts"_s, partArray}};
}

bool messageLessThan(const Message &a, const Message &b)
{
    const qint64 ca = a.created(), cb = b.created();
    if (ca != cb)
        return ca < cb;
    return a.id() < b.id();
}

bool partLessThan(const Part &a, const Part &b)
{
    return a.id() < b.id();
}

bool sessionNewerThan(const Session &a, const Session &b)
{
    const qint64 ua = a.updated(), ub = b.updated();
    if (ua != ub)
        return ua > ub;
    return a.id() < b.id();
}

bool MessageWithParts::isUnfinished() const
{
    return info.isAssistant() && info.completed() <= 0 && !info.hasError();
}

bool Part::closeUnfinished(const QString &toolWhy, qint64 now)
{
    if (type() == PartType::Tool) {
        const ToolState current = state();
        if (current.status() != ToolStatus::Pending && current.status() != ToolStatus::Running)
            return false;
        setState(ToolState::error(current.input(), toolWhy, current.started() > 0 ? current.started() : now, now));
        return true;
    }
    if ((type() == PartType::Text || type() == PartType::Reasoning) && m_json.object(u"time").contains(u"start")
        && !m_json.object(u"time").contains(u"end")) {
        setTimeField(QStringLiteral("end"), now);
        return true;
    }
    return false;
}

QList<Part> MessageWithParts::closeUnfinished(const QString &why, const QString &toolWhy, qint64 now)
{
    QList<Part> changed;
    for (Part &part : parts) {
        if (part.closeUnfinished(toolWhy, now))
            changed.append(part);
    }
    info.setError(MessageError::aborted(why));
    info.setCompleted(now);
    return changed;
}

} // namespace weft
