// SPDX-License-Identifier: GPL-3.0-or-later
#include "serverapiv2.h"

#include "core/tr.h"

#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// How long compaction and `wait` may take.
constexpr int LongMs = 10 * 60 * 1000;

QString idSegment(const QString &id)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(id));
}

Result<void> doneOf(const Result<JsonValue> &answer)
{
    if (!answer)
        return answer.error();
    return {};
}

} // namespace

ServerApiV2::ServerApiV2(const ServerClient &client, const QString &version)
    : m_client(client)
    , m_version(version)
{
}

QString ServerApiV2::path(const QString &sessionID, const QString &tail)
{
    return u"/api/session/"_s + idSegment(sessionID) + tail;
}

QUrlQuery ServerApiV2::locationQuery(const QString &directory)
{
    QUrlQuery query;
    if (!directory.isEmpty())
        query.addQueryItem(u"location[directory]"_s, idSegment(directory));
    return query;
}

Result<JsonValue> ServerApiV2::post(const QString &route, const JsonValue &body, int timeoutMs) const
{
    return ServerClient::wait(m_client.post(route, body, {}, timeoutMs));
}

Result<JsonValue> ServerApiV2::data(const QString &route, const QUrlQuery &query) const
{
    const Result<JsonValue> answer = ServerClient::wait(m_client.get(route, query));
    if (!answer)
        return answer.error();
    return answer->toObject().value(u"data");
}

Result<JsonArray> ServerApiV2::readPages(const ServerClient &client, const QString &route, const QUrlQuery &query)
{
    // `{data: [...], cursor: {previous, next}}`; the next page's cursor also comes as
    // `x-next-cursor` from some releases. A page that adds nothing new is the end.
    JsonArray items;
    QSet<QString> seen;
    QString cursor;
    for (int page = 0; page < 10000; ++page) {
        QUrlQuery q = query;
        if (!cursor.isEmpty())
            q.addQueryItem(u"cursor"_s, cursor);
        const Result<ServerPage> answer = ServerClient::wait(client.getPage(route, q));
        if (!answer)
            return answer.error();
        const JsonObject o = answer->value.toObject();
        bool added = false;
        for (const JsonValue &item : o.value(u"data").toArray()) {
            const QString id = item.toObject().string(u"id");
            if (id.isEmpty() || seen.contains(id))
                continue;
            seen.insert(id);
            items.append(item);
            added = true;
        }
        QString next = o.object(u"cursor").string(u"next");
        if (next.isEmpty())
            next = QString::fromLatin1(answer->nextCursor);
        if (!added || next.isEmpty() || next == cursor)
            break;
        cursor = next;
    }
    return items;
}

Result<Session> ServerApiV2::sessionToV1(const JsonValue &info, const QString &version)
{
    JsonObject o = info.toObject();
    if (!o.contains(u"directory"))
        o.insert(u"directory"_s, o.object(u"location").string(u"directory"));
    if (!o.contains(u"version"))
        o.insert(u"version"_s, version);
    if (!o.contains(u"title"))
        o.insert(u"title"_s, Session::defaultTitle(o.contains(u"parentID"), o.object(u"time").integer(u"created")));
    return Session::fromJson(o);
}

Result<JsonArray> ServerApiV2::sessionItems() const
{
    return readPages(m_client, u"/api/session"_s, QUrlQuery{{u"limit"_s, u"200"_s}});
}

Result<Session> ServerApiV2::session(const QString &sessionID) const
{
    const Result<JsonValue> info = data(path(sessionID));
    if (!info)
        return info.error();
    return sessionToV1(*info, m_version);
}

Result<JsonArray> ServerApiV2::messageItems(const QString &sessionID) const
{
    Result<JsonArray> items = readPages(m_client, path(sessionID, u"/message"_s), QUrlQuery{{u"limit"_s, u"200"_s}});
    if (!items)
        return items;
    // Newest first: reversed.
    JsonArray oldestFirst;
    for (qsizetype i = items->size() - 1; i >= 0; --i)
        oldestFirst.append(items->at(i));
    return oldestFirst;
}

Result<QList<Project>> ServerApiV2::projects() const
{
    const Result<JsonValue> answer = ServerClient::wait(m_client.get(u"/api/project"_s));
    if (!answer)
        return answer.error();
    const JsonValue list = answer->isArray() ? *answer : answer->toObject().value(u"data");
    QList<Project> result;
    for (const JsonValue &v : list.toArray()) {
        JsonObject o = v.toObject();
        if (!o.contains(u"worktree"))
            o.insert(u"worktree"_s, o.string(u"canonical", o.string(u"directory")));
        result.append(Project(o));
    }
    return result;
}

Result<QString> ServerApiV2::defaultDirectory() const
{
    const Result<JsonValue> answer = ServerClient::wait(m_client.get(u"/api/location"_s));
    if (!answer)
        return answer.error();
    return answer->toObject().string(u"directory");
}


Result<Session> ServerApiV2::create(const QString &directory, const QString &title) const
{
    JsonObject body;
    if (!directory.isEmpty())
        body.insert(u"location"_s, JsonObject{{u"directory"_s, directory}});
    const Result<JsonValue> answer = post(u"/api/session"_s, body);
    if (!answer)
        return answer.error();
    Result<Session> session = sessionToV1(answer->toObject().value(u"data"), m_version);
    if (session && !title.isEmpty()) {
        if (const Result<void> renamed = rename(session->id(), title); !renamed)
            return renamed.error();
        session.value().setTitle(title);
    }
    return session;
}

Result<void> ServerApiV2::prompt(const QString &sessionID, const QString &text, const QString &agent,
                                 const QString &model, const QString &messageID, PromptDelivery delivery) const
{
    if (!agent.isEmpty()) {
        if (const Result<void> r = doneOf(post(path(sessionID, u"/agent"_s), JsonObject{{u"agent"_s, agent}})); !r)
            return r;
    }
    if (!model.isEmpty()) {
        const qsizetype slash = model.indexOf(u'/');
        if (slash <= 0 || slash == model.size() - 1)
            return Error{ServerTr::tr("a model is named PROVIDER/MODEL, not \"%1\"").arg(model), {}};
        const JsonObject ref{{u"id"_s, model.mid(slash + 1)}, {u"providerID"_s, model.left(slash)}};
        if (const Result<void> r = doneOf(post(path(sessionID, u"/model"_s), JsonObject{{u"model"_s, ref}})); !r)
            return r;
    }
    JsonObject body{{u"text"_s, text}};
    if (!messageID.isEmpty())
        body.insert(u"id"_s, messageID);
    if (delivery != PromptDelivery::Default)
        body.insert(u"delivery"_s, delivery == PromptDelivery::Queue ? u"queue"_s : u"steer"_s);
    return doneOf(post(path(sessionID, u"/prompt"_s), body));
}

Result<void> ServerApiV2::wait(const QString &sessionID) const
{
    return doneOf(post(path(sessionID, u"/wait"_s), JsonObject(), LongMs));
}

Result<void> ServerApiV2::interrupt(const QString &sessionID) const
{
    return doneOf(post(path(sessionID, u"/interrupt"_s), JsonObject()));
}

Result<Session> ServerApiV2::fork(const QString &sessionID, const QString &messageID) const
{
    const JsonObject boundary = messageID.isEmpty()
        ? JsonObject{{u"type"_s, u"through"_s}}
        : JsonObject{{u"type"_s, u"before"_s}, {u"messageID"_s, messageID}};
    const Result<JsonValue> answer = post(path(sessionID, u"/fork"_s), JsonObject{{u"boundary"_s, boundary}});
    if (!answer)
        return answer.error();
    return sessionToV1(answer->toObject().value(u"data"), m_version);
}

Result<void> ServerApiV2::compact(const QString &sessionID) const
{
    // Admitted at once; the summary is written by the session's run.
    if (const Result<void> r = doneOf(post(path(sessionID, u"/compact"_s), JsonObject())); !r)
        return r;
    return wait(sessionID);
}

Result<Session> ServerApiV2::revert(const QString &sessionID, const QString &messageID) const
{
    if (const Result<void> r = doneOf(post(path(sessionID, u"/revert/stage"_s), JsonObject{{u"messageID"_s, messageID}}));
        !r)
        return r.error();
    return session(sessionID);
}

Result<Session> ServerApiV2::unrevert(const QString &sessionID) const
{
    if (const Result<void> r = doneOf(post(path(sessionID, u"/revert/clear"_s), JsonObject())); !r)
        return r.error();
    return session(sessionID);
}


Result<void> ServerApiV2::remove(const QString &sessionID) const
{
    return doneOf(ServerClient::wait(m_client.remove(path(sessionID))));
}

Result<void> ServerApiV2::rename(const QString &sessionID, const QString &title) const
{
    return doneOf(post(path(sessionID, u"/rename"_s), JsonObject{{u"title"_s, title}}));
}


Result<void> ServerApiV2::replyForm(const QString &sessionID, const QString &formID, const JsonObject &answer) const
{
    return doneOf(post(path(sessionID, u"/form/"_s + idSegment(formID) + u"/reply"_s), JsonObject{{u"answer"_s, answer}}));
}

Result<void> ServerApiV2::cancelForm(const QString &sessionID, const QString &formID) const
{
    return doneOf(post(path(sessionID, u"/form/"_s + idSegment(formID) + u"/cancel"_s), JsonObject()));
}

Result<JsonArray> ServerApiV2::agents(const QString &directory) const
{
    const Result<JsonValue> list = data(u"/api/agent"_s, locationQuery(directory));
    if (!list)
        return list.error();
    return list->toArray();
}

Result<JsonArray> ServerApiV2::models(const QString &directory) const
{
    const Result<JsonValue> list = data(u"/api/model"_s, locationQuery(directory));
    if (!list)
        return list.error();
    return list->toArray();
}

Result<JsonObject> ServerApiV2::defaultModel(const QString &directory) const
{
    const Result<JsonValue> model = data(u"/api/model/default"_s, locationQuery(directory));
    if (!model)
        return model.error();
    return model->toObject();
}

JsonObject ServerApiV2::formAsQuestion(const JsonObject &form)
{
    JsonArray questions;
    for (const JsonValue &v : form.array(u"fields")) {
        const JsonObject field = v.toObject();
        const QString type = field.string(u"type");
        JsonArray options;
        for (const JsonValue &ov : field.array(u"options")) {
            const JsonObject option = ov.toObject();
            options.append(JsonObject{{u"label"_s, option.string(u"label", option.string(u"value"))},
                                      {u"description"_s, option.string(u"description")}});
        }
        if (type == u"boolean" && options.isEmpty()) {
            options.append(JsonObject{{u"label"_s, u"yes"_s}, {u"description"_s, QString()}});
            options.append(JsonObject{{u"label"_s, u"no"_s}, {u"description"_s, QString()}});
        }
        const QString title = field.string(u"title", field.string(u"key"));
        const QString description = field.string(u"description");
        questions.append(JsonObject{
            {u"question"_s, description.isEmpty() ? title : title + u"\n"_s + description},
            {u"header"_s, title.left(30)},
            {u"options"_s, options},
            {u"multiple"_s, type == u"multiselect"},
            // Free text where the field takes it (a string, a number, or custom values).
            {u"custom"_s, options.isEmpty() || field.value(u"custom").toBool()},
        });
    }
    return JsonObject{{u"id"_s, form.string(u"id")},
                      {u"sessionID"_s, form.string(u"sessionID")},
                      {u"title"_s, form.string(u"title")},
                      {u"questions"_s, questions},
                      {u"form"_s, true},
                      {u"v2"_s, true},
                      {u"formInfo"_s, form}};
}

JsonObject ServerApiV2::formAnswer(const JsonObject &form, const QList<QStringList> &answers)
{
    JsonObject answer;
    const JsonArray fields = form.array(u"fields");
    for (qsizetype i = 0; i < fields.size() && i < answers.size(); ++i) {
        const JsonObject field = fields.at(i).toObject();
        const QString type = field.string(u"type");
        // A label chosen is its option's value; anything else is the user's own text.
        QStringList values;
        for (const QString &label : answers.at(i)) {
            QString value = label;
            for (const JsonValue &ov : field.array(u"options")) {
                if (ov.toObject().string(u"label") == label)
                    value = ov.toObject().string(u"value");
            }
            values.append(value);
        }
        const QString key = field.string(u"key");
        if (type == u"multiselect") {
            JsonArray list;
            for (const QString &v : std::as_const(values))
                list.append(v);
            answer.insert(key, list);
        } else if (values.isEmpty()) {
            continue;
        } else if (type == u"boolean") {
            answer.insert(key, values.first() == u"yes" || values.first() == u"true");
        } else if (type == u"number" || type == u"integer") {
            answer.insert(key, values.first().toDouble());
        } else {
            answer.insert(key, values.first());
        }
    }
    return answer;
}

} // namespace weft
