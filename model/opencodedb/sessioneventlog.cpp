// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessioneventlog.h"

#include "core/json.h"

#include <QHash>

#include <functional>

using namespace Qt::StringLiterals;

namespace weft::SessionEventLog
{

QString baseName(const QString &storedType)
{
    QString name = storedType;
    const qsizetype dot = name.lastIndexOf(u'.');
    if (dot > 0) {
        bool number = false;
        (void)QStringView(name).mid(dot + 1).toInt(&number);
        if (number)
            name.truncate(dot);
    }
    if (name.startsWith(u"session.next."))
        name = u"session."_s + name.mid(13);
    if (name == u"session.prompt.admitted")
        name = u"session.input.admitted"_s;
    return name;
}

namespace
{

/// An assistant row being rebuilt: its data, with the index of each tool call in its content.
struct Assistant
{
    qsizetype row = -1;
    JsonObject data;
    JsonArray content;
    QHash<QString, qsizetype> tools;
    QHash<QString, QString> toolNames;
};

} // namespace

QList<SessionMessageV2::Row> rebuildRows(const QString &sessionID, const QList<Event> &events)
{
    QList<SessionMessageV2::Row> rows;
    QHash<QString, Assistant> assistants;
    QHash<QString, QString> pendingNames; // tool names announced before the step's row exists
    const auto flush = [&rows](const Assistant &a) {
        JsonObject data = a.data;
        data.insert(u"content"_s, a.content);
        rows[a.row].data = toJson(data, 0);
    };
    for (const Event &event : events) {
        const QString name = baseName(event.type);
        if (!name.startsWith(u"session."))
            continue;
        const std::optional<JsonObject> parsed = SessionMessageV2::parseData(event.data);
        if (!parsed)
            continue;
        const JsonObject &d = *parsed;
        Event e = event;
        if (e.created == 0)
            e.created = d.integer(u"timestamp");
        if (name == u"session.input.admitted") {
            const JsonObject input = d.object(u"input");
            if (input.string(u"type", u"user"_s) != u"user")
                continue;
            JsonObject data{{u"time"_s, JsonObject{{u"created"_s, e.created}}}};
            const JsonObject inputData = input.contains(u"data") ? input.object(u"data") : input;
            data.insert(u"text"_s, inputData.string(u"text", d.object(u"prompt").string(u"text")));
            const QString id = d.string(u"inputID", d.string(u"messageID"));
            if (id.isEmpty())
                continue;
            rows.append({id, sessionID, u"user"_s, e.seq, e.created, toJson(data, 0)});
            continue;
        }
        const QString messageID = d.string(u"assistantMessageID", d.string(u"messageID"));
        if (messageID.isEmpty())
            continue;
        if (name == u"session.step.started") {
            Assistant a;
            a.row = rows.size();
            a.data = JsonObject{{u"time"_s, JsonObject{{u"created"_s, e.created}}},
                                {u"agent"_s, d.string(u"agent")},
                                {u"model"_s, d.object(u"model")}};
            if (const QString snapshot = d.string(u"snapshot"); !snapshot.isEmpty())
                a.data.insert(u"snapshot"_s, JsonObject{{u"start"_s, snapshot}});
            rows.append({messageID, sessionID, u"assistant"_s, e.seq, e.created, {}});
            assistants.insert(messageID, a);
            flush(a);
            continue;
        }
        const auto it = assistants.find(messageID);
        if (it == assistants.end()) {
            if (name == u"session.tool.input.started")
                pendingNames.insert(d.string(u"callID"), d.string(u"name"));
            continue;
        }
        Assistant &a = *it;
        const QString callID = d.string(u"callID");
        const auto tool = [&]() -> qsizetype {
            if (const auto t = a.tools.constFind(callID); t != a.tools.constEnd())
                return *t;
            const QString toolName = a.toolNames.value(callID, pendingNames.value(callID, d.string(u"name", d.string(u"tool"))));
            a.content.append(JsonObject{{u"type"_s, u"tool"_s}, {u"id"_s, callID}, {u"name"_s, toolName},
                                        {u"state"_s, JsonObject{{u"status"_s, u"pending"_s}, {u"input"_s, JsonObject{}}}}});
            a.tools.insert(callID, a.content.size() - 1);
            return a.content.size() - 1;
        };
        const auto setState = [&](qsizetype i, const std::function<void(JsonObject &)> &change) {
            JsonObject item = a.content.at(i).toObject();
            JsonObject state = item.object(u"state");
            change(state);
            item.insert(u"state"_s, state);
            a.content[i] = item;
        };
        if (name == u"session.text.ended" || name == u"session.reasoning.ended") {
            a.content.append(JsonObject{{u"type"_s, name == u"session.text.ended" ? u"text"_s : u"reasoning"_s},
                                        {u"text"_s, d.string(u"text")}});
        } else if (name == u"session.tool.input.started") {
            a.toolNames.insert(callID, d.string(u"name"));
            (void)tool();
        } else if (name == u"session.tool.called") {
            setState(tool(), [&](JsonObject &s) {
                s.insert(u"status"_s, u"running"_s);
                s.insert(u"input"_s, d.object(u"input"));
            });
        } else if (name == u"session.tool.success") {
            setState(tool(), [&](JsonObject &s) {
                s.insert(u"status"_s, u"completed"_s);
                s.insert(u"content"_s, d.array(u"content"));
                if (d.value(u"structured").isObject())
                    s.insert(u"structured"_s, d.object(u"structured"));
            });
        } else if (name == u"session.tool.failed") {
            setState(tool(), [&](JsonObject &s) {
                s.insert(u"status"_s, u"error"_s);
                s.insert(u"error"_s, d.value(u"error"));
            });
        } else if (name == u"session.step.ended" || name == u"session.step.failed") {
            JsonObject time = a.data.object(u"time");
            time.insert(u"completed"_s, e.created);
            a.data.insert(u"time"_s, time);
            for (const auto key : {u"finish", u"cost", u"tokens"}) {
                if (d.contains(key))
                    a.data.insert(QStringView(key).toString(), d.value(key));
            }
            if (name == u"session.step.failed" && d.contains(u"error"))
                a.data.insert(u"error"_s, d.value(u"error"));
            if (const QString snapshot = d.string(u"snapshot"); !snapshot.isEmpty()) {
                JsonObject snapshots = a.data.object(u"snapshot");
                snapshots.insert(u"end"_s, snapshot);
                if (const JsonArray files = d.array(u"files"); !files.isEmpty())
                    snapshots.insert(u"files"_s, files);
                a.data.insert(u"snapshot"_s, snapshots);
            }
        } else {
            continue;
        }
        flush(a);
    }
    return rows;
}

} // namespace weft::SessionEventLog
