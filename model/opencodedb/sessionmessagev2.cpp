// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionmessagev2.h"

#include "core/parallel.h"
#include "core/tr.h"

#include <QCryptographicHash>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft::SessionMessageV2
{

namespace
{

constexpr char Base62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

bool isHex(QStringView s)
{
    for (const QChar c : s) {
        if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f')))
            return false;
    }
    return true;
}

/// The error of a V2 message or tool (`{type, message}`) in the V1 shape (`{name, data}`).
JsonObject errorV1(const JsonValue &error)
{
    const JsonObject e = error.toObject();
    const QString type = e.string(u"type");
    QString name = e.string(u"name");
    if (name.isEmpty())
        name = (type.isEmpty() || type == u"unknown") ? u"UnknownError"_s : type;
    JsonObject data;
    if (error.isString())
        data.insert(u"message"_s, error.toString());
    for (qsizetype i = 0; i < e.size(); ++i) {
        if (e.keyAt(i) != u"type" && e.keyAt(i) != u"name")
            data.insert(e.keyAt(i), e.valueAt(i));
    }
    return JsonObject{{u"name"_s, name}, {u"data"_s, data}};
}

/// The text of a tool's result content (`[{type: "text", text}, {type: "file", ...}]`).
QString contentText(const JsonArray &content)
{
    QStringList texts;
    for (const JsonValue &item : content) {
        const JsonObject o = item.toObject();
        if (o.string(u"type") == u"text")
            texts.append(o.string(u"text"));
        else if (o.string(u"type") == u"file")
            texts.append(u"[file %1]"_s.arg(o.string(u"name", o.string(u"uri"))));
    }
    return texts.join(u'\n');
}

JsonObject toolStateV1(const JsonObject &item, qint64 messageCreated)
{
    const JsonObject state = item.object(u"state");
    const JsonObject time = item.object(u"time");
    const qint64 start = time.integer(u"ran", time.integer(u"created", messageCreated));
    const qint64 end = time.integer(u"completed", start);
    const QString status = state.string(u"status");
    JsonObject input = state.object(u"input");
    const JsonObject structured = state.object(u"structured");
    JsonObject s{{u"status"_s, status}};
    if (status == u"pending") {
        // V2 keeps the raw, not yet parsed arguments as a string.
        s.insert(u"input"_s, JsonObject());
        if (state.value(u"input").isString())
            s.insert(u"raw"_s, state.string(u"input"));
        return s;
    }
    s.insert(u"input"_s, input);
    const QString title = structured.string(u"title", input.string(u"description"));
    if (status == u"running") {
        if (!title.isEmpty())
            s.insert(u"title"_s, title);
        if (!structured.isEmpty())
            s.insert(u"metadata"_s, structured);
        s.insert(u"time"_s, JsonObject{{u"start"_s, start}});
        return s;
    }
    if (status == u"completed") {
        s.insert(u"output"_s, contentText(state.array(u"content")));
        s.insert(u"title"_s, title);
        s.insert(u"metadata"_s, structured);
        JsonObject t{{u"start"_s, start}, {u"end"_s, end}};
        if (time.contains(u"pruned"))
            t.insert(u"compacted"_s, time.integer(u"pruned"));
        s.insert(u"time"_s, t);
        return s;
    }
    // "error", and any state this OpenCode did not have: shown as a failed call.
    QString error = state.object(u"error").string(u"message");
    if (error.isEmpty() && state.value(u"error").isString())
        error = state.string(u"error");
    if (error.isEmpty())
        error = state.object(u"result").string(u"value");
    if (status != u"error") {
        s.insert(u"status"_s, u"error"_s);
        if (error.isEmpty())
            error = u"unknown tool state \"%1\""_s.arg(status);
    }
    s.insert(u"error"_s, error);
    if (!structured.isEmpty())
        s.insert(u"metadata"_s, structured);
    s.insert(u"time"_s, JsonObject{{u"start"_s, start}, {u"end"_s, end}});
    return s;
}

class PartList
{
public:
    explicit PartList(const Row &row)
        : m_row(row)
    {
    }
    /// Appends a part of @p type with the IDs first, then @p fields.
    void add(const QString &type, const JsonObject &fields)
    {
        JsonObject o{{u"id"_s, partID(m_row.id, int(m_parts.size()))},
                     {u"sessionID"_s, m_row.sessionID},
                     {u"messageID"_s, m_row.id},
                     {u"type"_s, type}};
        for (qsizetype i = 0; i < fields.size(); ++i) {
            if (!o.contains(fields.keyAt(i)))
                o.insert(fields.keyAt(i), fields.valueAt(i));
        }
        m_parts.append(o);
    }
    QList<JsonObject> m_parts;

private:
    const Row &m_row;
};

void addAssistantContent(PartList &parts, const JsonArray &content, qint64 created, qint64 completed)
{
    for (const JsonValue &value : content) {
        const JsonObject item = value.toObject();
        const QString type = item.string(u"type");
        if (type == u"text") {
            parts.add(u"text"_s, JsonObject{{u"text"_s, item.string(u"text")}});
        } else if (type == u"reasoning") {
            const JsonObject time = item.object(u"time");
            JsonObject fields{{u"text"_s, item.string(u"text")}};
            if (item.contains(u"providerMetadata"))
                fields.insert(u"metadata"_s, item.value(u"providerMetadata"));
            JsonObject t{{u"start"_s, time.integer(u"created", created)}};
            if (time.contains(u"completed") || completed > 0)
                t.insert(u"end"_s, time.integer(u"completed", completed));
            fields.insert(u"time"_s, t);
            parts.add(u"reasoning"_s, fields);
        } else if (type == u"tool") {
            JsonObject fields{{u"callID"_s, item.string(u"id")},
                              {u"tool"_s, item.string(u"name")},
                              {u"state"_s, toolStateV1(item, created)}};
            const JsonObject provider = item.object(u"provider");
            if (provider.contains(u"metadata"))
                fields.insert(u"metadata"_s, provider.value(u"metadata"));
            parts.add(u"tool"_s, fields);
        } else {
            // A content type of a newer OpenCode: kept as a part of its own type (Weft keeps
            // unknown part types as they are).
            JsonObject fields;
            for (qsizetype i = 0; i < item.size(); ++i) {
                if (item.keyAt(i) != u"id" && item.keyAt(i) != u"type")
                    fields.insert(item.keyAt(i), item.valueAt(i));
            }
            if (item.contains(u"id"))
                fields.insert(u"v2ID"_s, item.value(u"id"));
            parts.add(type.isEmpty() ? u"unknown"_s : type, fields);
        }
    }
}

JsonObject tokensV1(const JsonObject &tokens)
{
    const JsonObject cache = tokens.object(u"cache");
    return JsonObject{
        {u"input"_s, tokens.number(u"input")},
        {u"output"_s, tokens.number(u"output")},
        {u"reasoning"_s, tokens.number(u"reasoning")},
        {u"cache"_s, JsonObject{{u"read"_s, cache.number(u"read")}, {u"write"_s, cache.number(u"write")}}}};
}

} // namespace

QString partID(const QString &messageID, int index)
{
    QString body;
    if (messageID.size() >= 30 && messageID.startsWith(u"msg_") && isHex(QStringView(messageID).mid(4, 12))) {
        body = messageID.mid(4, 22);
    } else {
        // Not an ID of OpenCode's own form: a stable stand-in of the same length.
        body = QString::fromLatin1(
            QCryptographicHash::hash(messageID.toUtf8(), QCryptographicHash::Sha1).toHex().left(22));
    }
    QString digits(4, u'0');
    int n = qBound(0, index, 62 * 62 * 62 * 62 - 1);
    for (int i = 3; i >= 0; --i) {
        digits[i] = QLatin1Char(Base62[n % 62]);
        n /= 62;
    }
    return u"prt_"_s + body + digits;
}

bool becomesMessage(QStringView type)
{
    return type != u"agent-switched" && type != u"model-switched";
}

std::optional<JsonObject> parseData(const QByteArray &data)
{
    std::optional<JsonValue> parsed = parseJson(data);
    if (!parsed || !parsed->isObject())
        return std::nullopt;
    return parsed->toObject();
}

namespace
{

/// The data of @p row as an object, or null with @p why set.
std::optional<JsonObject> parseRow(const Row &row, QString *why)
{
    JsonParseError error;
    std::optional<JsonValue> parsed = parseJson(row.data, &error);
    if (!parsed) {
        *why = OpencodeDbTr::tr("not valid JSON in column data: %1").arg(error.toString());
        return std::nullopt;
    }
    if (!parsed->isObject()) {
        *why = OpencodeDbTr::tr("column data does not hold a JSON object");
        return std::nullopt;
    }
    return parsed->toObject();
}

JsonObject answerOfData(const JsonObject &o)
{
    JsonObject answer;
    if (o.contains(u"agent"))
        answer.insert(u"agent"_s, o.value(u"agent"));
    if (o.value(u"model").isObject())
        answer.insert(u"model"_s, o.value(u"model"));
    return answer;
}

std::optional<MessageWithParts> toV1Parsed(const Row &row, const JsonObject &data, const Context &context, QString *why);

} // namespace

std::optional<MessageWithParts> toV1(const Row &row, const Context &context, QString *why)
{
    why->clear();
    if (!becomesMessage(row.type))
        return std::nullopt;
    const std::optional<JsonObject> data = parseRow(row, why);
    if (!data)
        return std::nullopt;
    return toV1Parsed(row, *data, context, why);
}

namespace
{

std::optional<MessageWithParts> toV1Parsed(const Row &row, const JsonObject &data, const Context &context, QString *why)
{
    const JsonObject time = data.object(u"time");
    const qint64 created = time.integer(u"created", row.timeCreated);
    PartList parts(row);
    JsonObject m{{u"id"_s, row.id}, {u"sessionID"_s, row.sessionID}};

    if (row.type == u"assistant") {
        const qint64 completed = time.integer(u"completed", 0);
        const JsonObject model = data.object(u"model");
        const QString agent = data.string(u"agent");
        const JsonObject snapshot = data.object(u"snapshot");
        m.insert(u"role"_s, u"assistant"_s);
        JsonObject t{{u"created"_s, created}};
        if (completed > 0)
            t.insert(u"completed"_s, completed);
        m.insert(u"time"_s, t);
        m.insert(u"parentID"_s, context.parentID.isEmpty() ? row.id : context.parentID);
        m.insert(u"modelID"_s, model.string(u"id", model.string(u"modelID")));
        m.insert(u"providerID"_s, model.string(u"providerID"));
        if (!agent.isEmpty()) {
            m.insert(u"mode"_s, agent);
            m.insert(u"agent"_s, agent);
        }
        if (!context.path.isEmpty())
            m.insert(u"path"_s, context.path);
        m.insert(u"cost"_s, data.number(u"cost"));
        m.insert(u"tokens"_s, tokensV1(data.object(u"tokens")));
        if (data.contains(u"finish"))
            m.insert(u"finish"_s, data.string(u"finish"));
        if (data.value(u"error").isObject() || data.value(u"error").isString())
            m.insert(u"error"_s, errorV1(data.value(u"error")));

        JsonObject start;
        if (snapshot.contains(u"start"))
            start.insert(u"snapshot"_s, snapshot.string(u"start"));
        parts.add(u"step-start"_s, start);
        addAssistantContent(parts, data.array(u"content"), created, completed);
        if (data.contains(u"finish") || completed > 0) {
            JsonObject finish{{u"reason"_s, data.string(u"finish", u"stop"_s)}};
            if (snapshot.contains(u"end"))
                finish.insert(u"snapshot"_s, snapshot.string(u"end"));
            finish.insert(u"cost"_s, data.number(u"cost"));
            finish.insert(u"tokens"_s, tokensV1(data.object(u"tokens")));
            parts.add(u"step-finish"_s, finish);
        }
        if (const JsonArray files = snapshot.array(u"files"); !files.isEmpty() && snapshot.contains(u"start"))
            parts.add(u"patch"_s, JsonObject{{u"hash"_s, snapshot.string(u"start")}, {u"files"_s, files}});
    } else {
        // user, and the V2 kinds that V1 kept as user turns: synthetic and system texts, shell
        // commands, compactions.
        m.insert(u"role"_s, u"user"_s);
        m.insert(u"time"_s, JsonObject{{u"created"_s, created}});
        const QString agent = context.answer.string(u"agent");
        const JsonObject model = context.answer.object(u"model");
        if (!agent.isEmpty())
            m.insert(u"agent"_s, agent);
        if (!model.isEmpty())
            m.insert(u"model"_s,
                     JsonObject{{u"providerID"_s, model.string(u"providerID")},
                                {u"modelID"_s, model.string(u"id", model.string(u"modelID"))}});
        if (row.type == u"user") {
            parts.add(u"text"_s, JsonObject{{u"text"_s, data.string(u"text")}});
            for (const JsonValue &f : data.array(u"files")) {
                const JsonObject file = f.toObject();
                JsonObject fields{{u"mime"_s, file.string(u"mime", u"application/octet-stream"_s)},
                                  {u"url"_s, file.string(u"uri", file.string(u"url"))}};
                if (const QString name = file.string(u"name", file.string(u"filename")); !name.isEmpty())
                    fields.insert(u"filename"_s, name);
                parts.add(u"file"_s, fields);
            }
            for (const JsonValue &a : data.array(u"agents")) {
                const QString name = a.toObject().string(u"name");
                if (!name.isEmpty())
                    parts.add(u"agent"_s, JsonObject{{u"name"_s, name}});
            }
        } else if (row.type == u"compaction") {
            parts.add(u"compaction"_s, JsonObject{{u"auto"_s, data.string(u"reason") == u"auto"}});
            if (const QString summary = data.string(u"summary"); !summary.isEmpty())
                parts.add(u"text"_s, JsonObject{{u"text"_s, summary}, {u"synthetic"_s, true}});
        } else if (row.type == u"shell") {
            const QString text = u"$ %1\n%2"_s.arg(data.string(u"command"), data.string(u"output"));
            parts.add(u"text"_s, JsonObject{{u"text"_s, text}, {u"synthetic"_s, true}});
        } else {
            // synthetic, system, or a kind of a newer OpenCode: its text, marked synthetic.
            parts.add(u"text"_s, JsonObject{{u"text"_s, data.string(u"text")}, {u"synthetic"_s, true}});
        }
    }

    const QList<ValidationIssue> issues = Message::validate(m);
    if (!issues.isEmpty()) {
        *why = OpencodeDbTr::tr("unexpected shape: %1").arg(issues.first().toString());
        return std::nullopt;
    }
    MessageWithParts result{Message(m), {}};
    for (const JsonObject &p : parts.m_parts) {
        if (Part::validate(p).isEmpty())
            result.parts.append(Part(p));
    }
    return result;
}

} // namespace

bool isUser(QStringView type)
{
    return type != u"assistant" && becomesMessage(type);
}

JsonObject answerOf(const QByteArray &data)
{
    const std::optional<JsonObject> o = parseData(data);
    return o ? answerOfData(*o) : JsonObject();
}

namespace
{
/// For each of @p rows (in `seq` order), the index of the first assistant row after it, or -1.
QList<qsizetype> nextAssistantRows(const QList<Row> &rows)
{
    QList<qsizetype> next(rows.size(), -1);
    for (qsizetype i = rows.size() - 1, after = -1; i >= 0; --i) {
        next[i] = after;
        if (rows.at(i).type == u"assistant")
            after = i;
    }
    return next;
}
} // namespace

QList<qsizetype> rowsNeeded(const QList<Row> &rows, const QSet<QString> &only)
{
    QList<qsizetype> needed;
    // The assistant row after each row, and the user row before it.
    const QList<qsizetype> nextAssistants = nextAssistantRows(rows);
    qsizetype lastUser = -1;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row &row = rows.at(i);
        if (only.contains(row.id) && becomesMessage(row.type)) {
            needed.append(i);
            if (isUser(row.type) && nextAssistants.at(i) >= 0)
                needed.append(nextAssistants.at(i));
            else if (row.type == u"assistant" && lastUser >= 0)
                needed.append(lastUser);
        }
        if (isUser(row.type))
            lastUser = i;
    }
    std::sort(needed.begin(), needed.end());
    needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
    return needed;
}

QList<MessageWithParts> sessionToV1(const QList<Row> &rows, const JsonObject &path,
                                    const std::function<void(const Row &, const QString &)> &problem,
                                    const QSet<QString> *only)
{
    const auto wanted = [&](const Row &row) { return becomesMessage(row.type) && (!only || only->contains(row.id)); };
    // Every row needed parsed once (an assistant row is read for its own message and for the
    // agent and model of the user row it answers). With @p only, the rows with their data.
    QList<std::optional<JsonObject>> data(rows.size());
    QStringList whys(rows.size());
    parallelFor(rows.size(), [&](qsizetype i) {
        const Row &row = rows.at(i);
        if (becomesMessage(row.type) && (!only || !row.data.isEmpty()))
            data[i] = parseRow(row, &whys[i]);
    });
    const QList<qsizetype> nextAssistants = nextAssistantRows(rows);
    QList<MessageWithParts> out;
    out.reserve(only ? only->size() : rows.size());
    // Each assistant row answers the nearest user row before it that is a message (a damaged
    // one is not); each user row takes the agent and model of the next assistant row. With
    // @p only, a user row whose data was not read is taken to be a message.
    QString lastUser;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row &row = rows.at(i);
        const bool isWanted = wanted(row);
        if (!isWanted && !(only && isUser(row.type) && !row.data.isEmpty())) {
            if (only && isUser(row.type))
                lastUser = row.id;
            continue;
        }
        Context context;
        context.path = path;
        context.parentID = lastUser;
        if (const qsizetype next = nextAssistants.at(i); isUser(row.type) && next >= 0 && data.at(next))
            context.answer = answerOfData(*data.at(next));
        QString why = whys.at(i);
        std::optional<MessageWithParts> m;
        if (data.at(i))
            m = toV1Parsed(row, *data.at(i), context, &why);
        if (m && isUser(row.type))
            lastUser = row.id;
        if (!isWanted)
            continue;
        if (m)
            out.append(std::move(*m));
        else if (!why.isEmpty() && problem)
            problem(row, why);
    }
    return out;
}

} // namespace weft::SessionMessageV2
