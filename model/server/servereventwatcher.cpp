// SPDX-License-Identifier: GPL-3.0-or-later
#include "servereventwatcher.h"
#include "serverapiv2.h"
#include "serverstore.h"

#include "core/logging.h"
#include "core/network.h"
#include "opencodedb/sessionmessagev2.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// OpenCode sends a heartbeat at least every 10 s; a stream silent for this long is dead.
constexpr int IdleMs = 45000;
constexpr int MaxBackoffMs = 5000;
/// How often a streaming V2 session is read again.
constexpr int V2RereadMs = 250;
} // namespace

ServerEventWatcher::ServerEventWatcher(std::shared_ptr<ServerStore> store, QObject *parent)
    : StoreWatcher(parent)
    , m_store(std::move(store))
    , m_manager(new QNetworkAccessManager(this))
{
    m_reconnect.setSingleShot(true);
    connect(&m_reconnect, &QTimer::timeout, this, &ServerEventWatcher::connectStream);
    m_v2Reread.setSingleShot(true);
    m_v2Reread.setInterval(V2RereadMs);
    connect(&m_v2Reread, &QTimer::timeout, this, [this] {
        QList<StoreChange> changes;
        for (const QString &sessionID : std::as_const(m_v2Changed)) {
            m_store->forget(sessionID);
            StoreChange change;
            change.kind = StoreChange::Kind::SessionChanged;
            change.sessionID = sessionID;
            changes.append(change);
        }
        m_v2Changed.clear();
        if (!changes.isEmpty())
            Q_EMIT changed(changes);
    });
    m_idle.setSingleShot(true);
    m_idle.setInterval(IdleMs);
    connect(&m_idle, &QTimer::timeout, this, [this] {
        qCInfo(lcStore) << "the event stream of" << m_store->client().displayName() << "went silent; reconnecting";
        if (m_reply)
            m_reply->abort();
    });
}

ServerEventWatcher::~ServerEventWatcher()
{
    stop();
}

void ServerEventWatcher::start()
{
    if (m_running)
        return;
    m_running = true;
    m_hadConnection = false;
    m_backoffMs = 500;
    connectStream();
}

void ServerEventWatcher::stop()
{
    m_running = false;
    m_reconnect.stop();
    m_idle.stop();
    if (m_reply) {
        QNetworkReply *reply = m_reply;
        m_reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
    m_parts.clear();
    m_apiMessages.clear();
    setState(State::Disconnected);
}

void ServerEventWatcher::follow(const QString &sessionID, const QStringList &recentMessageIDs)
{
    Q_UNUSED(recentMessageIDs)
    // The stream carries every session; the followed one is read again after a reconnection.
    m_followed = sessionID;
}

void ServerEventWatcher::setState(State state, const QString &detail)
{
    if (m_state == state && detail.isEmpty())
        return;
    m_state = state;
    Q_EMIT stateChanged(state, detail);
}

void ServerEventWatcher::connectStream()
{
    if (!m_running)
        return;
    setState(m_hadConnection ? State::Reconnecting : State::Connecting);
    QNetworkRequest request = m_store->client().request(m_store->info().v2Only() ? u"/api/event"_s : u"/global/event"_s);
    request.setRawHeader("Accept", "text/event-stream");
    request.setTransferTimeout(0); // the stream stays open; m_idle watches it
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    m_parser.reset();
    m_reply = Network::send(m_manager, request, "GET");
    connect(m_reply, &QNetworkReply::readyRead, this, &ServerEventWatcher::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &ServerEventWatcher::onFinished);
    m_idle.start();
}

void ServerEventWatcher::onReadyRead()
{
    if (!m_reply)
        return;
    m_idle.start();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200)
        return; // the error is reported when the reply finishes
    const QByteArray bytes = m_reply->readAll();
    for (const SseEvent &sse : m_parser.feed(bytes)) {
        const std::optional<JsonValue> parsed = parseJson(sse.data);
        if (!parsed || !parsed->isObject()) {
            qCWarning(lcStore) << "an event of" << m_store->client().displayName() << "is not JSON:" << sse.data.left(200);
            continue;
        }
        handle(parsed->toObject());
        if (!m_reply)
            return;
    }
    if (m_parser.failed())
        m_reply->abort(); // onFinished() says why and reconnects
}

void ServerEventWatcher::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    m_reply = nullptr;
    m_idle.stop();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    QString detail;
    if (m_parser.failed())
        detail = u"the server's event stream was refused: "_s + m_parser.errorString();
    else if (status == 401 || status == 403)
        detail = u"the server refused the password"_s;
    else if (status >= 400)
        detail = u"the event stream failed (HTTP %1)"_s.arg(status);
    else if (reply->error() != QNetworkReply::NoError)
        detail = Network::errorString(reply); // a refused redirect is a 3xx aborted here
    else
        detail = u"the server closed the event stream"_s;
    reply->deleteLater();
    if (!m_running)
        return;
    qCInfo(lcStore).noquote() << m_store->client().displayName() << detail << "- reconnecting in" << m_backoffMs << "ms";
    setState(State::Reconnecting, detail);
    m_reconnect.start(m_backoffMs);
    m_backoffMs = std::min(m_backoffMs * 2, MaxBackoffMs);
}

void ServerEventWatcher::streamConnected()
{
    const bool again = m_hadConnection;
    m_hadConnection = true;
    m_backoffMs = 500;
    setState(State::Connected);
    if (!again) {
        Q_EMIT started();
        return;
    }
    if (m_store->info().v2Only())
        reconcileApi();
    if (!m_followed.isEmpty()) {
        // What happened while the stream was down: read the open session again.
        m_store->forget(m_followed);
        m_parts.clear();
        StoreChange change;
        change.kind = StoreChange::Kind::SessionChanged;
        change.sessionID = m_followed;
        Q_EMIT changed({change});
    }
}

void ServerEventWatcher::handle(const JsonObject &envelope)
{
    if (m_store->info().v2Only()) {
        handleApi(envelope);
        return;
    }
    // `/global/event` wraps each event as {directory, payload}; `/event` sends it bare.
    const JsonObject event = envelope.value(u"payload").isObject() ? envelope.object(u"payload") : envelope;
    const QString type = event.string(u"type");
    const JsonObject p = event.object(u"properties");
    ++m_events;

    if (type == u"server.connected") {
        streamConnected();
        return;
    }
    if (type == u"server.heartbeat")
        return;
    Q_EMIT eventReceived(type, p);

    QList<StoreChange> changes;
    auto sessionChange = [&](StoreChange::Kind kind) {
        Result<Session> session = Session::fromJson(p.value(u"info"));
        if (!session)
            return;
        StoreChange change;
        change.kind = kind;
        change.sessionID = session->id();
        change.session = std::move(session.value());
        changes.append(change);
    };
    if (type == u"session.created") {
        sessionChange(StoreChange::Kind::SessionCreated);
    } else if (type == u"session.updated") {
        sessionChange(StoreChange::Kind::SessionUpdated);
    } else if (type == u"session.deleted") {
        sessionChange(StoreChange::Kind::SessionDeleted);
    } else if (type == u"message.updated") {
        Result<Message> message = Message::fromJson(p.value(u"info"));
        if (message) {
            m_store->forget(message->sessionID());
            StoreChange change;
            change.kind = StoreChange::Kind::MessageUpdated;
            change.sessionID = message->sessionID();
            change.messageID = message->id();
            change.message = std::move(message.value());
            changes.append(change);
        }
    } else if (type == u"message.removed") {
        m_store->forget(p.string(u"sessionID"));
        StoreChange change;
        change.kind = StoreChange::Kind::MessageRemoved;
        change.sessionID = p.string(u"sessionID");
        change.messageID = p.string(u"messageID");
        changes.append(change);
    } else if (type == u"message.part.updated") {
        Result<Part> part = Part::fromJson(p.value(u"part"));
        if (part) {
            m_store->forget(part->sessionID());
            m_parts.insert(part->id(), part.value());
            StoreChange change;
            change.kind = StoreChange::Kind::PartUpdated;
            change.sessionID = part->sessionID();
            change.messageID = part->messageID();
            change.partID = part->id();
            change.part = std::move(part.value());
            changes.append(change);
        }
    } else if (type == u"message.part.delta") {
        const auto it = m_parts.find(p.string(u"partID"));
        const QString field = p.string(u"field");
        if (it != m_parts.end() && !field.isEmpty()) {
            const QString delta = p.string(u"delta");
            it->json().insert(field, it->json().string(field) + delta);
            m_store->forget(it->sessionID());
            StoreChange change;
            change.kind = StoreChange::Kind::PartUpdated;
            change.sessionID = it->sessionID();
            change.messageID = it->messageID();
            change.partID = it->id();
            change.part = *it;
            if (field == u"text")
                change.text = delta;
            changes.append(change);
        }
    } else if (type == u"message.part.removed") {
        m_parts.remove(p.string(u"partID"));
        m_store->forget(p.string(u"sessionID"));
        StoreChange change;
        change.kind = StoreChange::Kind::PartRemoved;
        change.sessionID = p.string(u"sessionID");
        change.messageID = p.string(u"messageID");
        change.partID = p.string(u"partID");
        changes.append(change);
    } else if (type == u"session.compacted") {
        m_store->forget(p.string(u"sessionID"));
        StoreChange change;
        change.kind = StoreChange::Kind::SessionChanged;
        change.sessionID = p.string(u"sessionID");
        changes.append(change);
    } else if (type == u"session.status") {
        const JsonValue status = p.value(u"status");
        const QString name = status.isObject() ? status.toObject().string(u"type") : status.toString();
        Q_EMIT sessionStatus(p.string(u"sessionID"), name);
        if (name == u"retry") {
            // {type: "retry", attempt, message, next: the time of the next attempt}
            const JsonObject retry = status.toObject();
            const qint64 next = retry.integer(u"next");
            const qint64 delay = next > 0 ? std::max<qint64>(0, next - QDateTime::currentMSecsSinceEpoch()) : 0;
            Q_EMIT sessionRetry(p.string(u"sessionID"), int(retry.integer(u"attempt")), delay,
                                MessageError::unknown(retry.string(u"message")));
        }
        if (name == u"idle")
            m_parts.clear();
    } else if (type == u"session.idle") {
        Q_EMIT sessionStatus(p.string(u"sessionID"), u"idle"_s);
    } else if (type == u"session.error") {
        Q_EMIT sessionError(p.string(u"sessionID"), MessageError(p.object(u"error")));
    } else if (type == u"permission.asked") {
        Q_EMIT permissionAsked(p);
    } else if (type == u"permission.replied") {
        Q_EMIT permissionReplied(p.string(u"sessionID"), p.string(u"requestID"));
    } else if (type == u"question.asked" || type == u"question.v2.asked") {
        JsonObject request = p;
        if (type == u"question.v2.asked")
            request.insert(u"v2"_s, true);
        Q_EMIT questionAsked(request);
    } else if (type == u"question.replied" || type == u"question.rejected" || type == u"question.v2.replied"
               || type == u"question.v2.rejected") {
        Q_EMIT questionClosed(p.string(u"sessionID"), p.string(u"requestID"));
    } else if (type == u"permission.v2.asked") {
        // {id, sessionID, action, resources, save, source: {messageID, callID}}: V1's shape.
        JsonObject request = p;
        request.insert(u"permission"_s, p.value(u"action"));
        request.insert(u"patterns"_s, p.value(u"resources"));
        request.insert(u"tool"_s, p.object(u"source"));
        request.insert(u"v2"_s, true);
        Q_EMIT permissionAsked(request);
    } else if (type == u"permission.v2.replied") {
        Q_EMIT permissionReplied(p.string(u"sessionID"), p.string(u"requestID"));
    } else if (type.startsWith(u"session.next.")) {
        handleV2(type, p);
    }
    if (!changes.isEmpty())
        Q_EMIT changed(changes);
}

void ServerEventWatcher::handleV2(const QString &type, const JsonObject &p)
{
    const QString sessionID = p.string(u"sessionID");
    if (sessionID.isEmpty())
        return;
    m_store->markV2(sessionID);
    // V2 has no idle event: a step that ends without asking for tools ends the run.
    if (type == u"session.next.step.started" || type == u"session.next.prompted") {
        Q_EMIT sessionStatus(sessionID, u"busy"_s);
    } else if (type == u"session.next.step.failed") {
        const JsonObject error = p.object(u"error");
        Q_EMIT sessionError(sessionID, MessageError::unknown(error.string(u"message", error.string(u"type"))));
        Q_EMIT sessionStatus(sessionID, u"idle"_s);
    } else if (type == u"session.next.step.ended" && p.string(u"finish") != u"tool-calls") {
        Q_EMIT sessionStatus(sessionID, u"idle"_s);
    }
    m_v2Changed.insert(sessionID);
    if (!m_v2Reread.isActive())
        m_v2Reread.start();
}

namespace
{

/// The events of a V2-only server that carry nothing for sessions' content or runs: the
/// server's catalogues and plugins, and session events whose effect comes by others.
bool isApiEventWithoutEffect(QStringView type)
{
    static const QSet<QString> names{
        u"server.heartbeat"_s,
        u"plugin.added"_s,
        u"plugin.updated"_s,
        u"catalog.updated"_s,
        u"agent.updated"_s,
        u"command.updated"_s,
        u"skill.updated"_s,
        u"reference.updated"_s,
        u"integration.updated"_s,
        u"websearch.updated"_s,
        u"filesystem.changed"_s,
        u"shell.created"_s,
        u"shell.exited"_s,
        // the text of the prompt comes with session.input.promoted; its ID is Weft's own
        u"session.input.admitted"_s,
        u"session.instructions.updated"_s,
        u"session.agent.selected"_s,
        u"session.model.selected"_s,
        // the whole input again (the deltas built it)
        u"session.tool.input.ended"_s,
        // its summary is a message of the history (read when it ends); the session's execution
        // events say it runs
        u"session.compaction.admitted"_s,
        u"session.compaction.started"_s,
        u"session.compaction.delta"_s,
    };
    return names.contains(type.toString());
}

/// A V2 `Session.StructuredError` (`{type, message}`) as a V1 error.
MessageError apiError(const JsonValue &error)
{
    if (error.isString())
        return MessageError::unknown(error.toString());
    const JsonObject o = error.toObject();
    return MessageError::unknown(o.string(u"message", o.string(u"type")));
}

} // namespace

void ServerEventWatcher::handleApi(const JsonObject &event)
{
    // {id, created, type, durable: {aggregateID, seq, version}, location: {directory}, data}
    const QString type = event.string(u"type");
    const JsonObject d = event.object(u"data");
    const qint64 at = event.integer(u"created", QDateTime::currentMSecsSinceEpoch());
    ++m_events;
    if (type == u"server.connected") {
        streamConnected();
        return;
    }
    Q_EMIT eventReceived(type, d);
    const QString sessionID = d.string(u"sessionID");
    const QString messageID = d.string(u"assistantMessageID");
    QList<StoreChange> changes;

    // The assistant message an event of its content belongs to (null when its start was missed:
    // the session is read again instead).
    auto message = [&]() -> ApiMessage * {
        const auto it = m_apiMessages.find(messageID);
        if (it == m_apiMessages.end()) {
            rereadSoon(sessionID);
            return nullptr;
        }
        return &*it;
    };
    auto contentItem = [&](ApiMessage *m, const QString &key) -> std::optional<qsizetype> {
        const auto it = m->content.constFind(key);
        if (it == m->content.cend())
            return std::nullopt;
        return *it;
    };
    auto updateItem = [&](ApiMessage *m, qsizetype index, const std::function<void(JsonObject &)> &edit) {
        JsonArray content = m->data.array(u"content");
        JsonObject item = content.at(index).toObject();
        edit(item);
        JsonArray updated;
        for (qsizetype i = 0; i < content.size(); ++i)
            updated.append(i == index ? JsonValue(item) : content.at(i));
        m->data.insert(u"content"_s, updated);
    };
    auto appendItem = [&](ApiMessage *m, const QString &key, const JsonObject &item) {
        JsonArray content = m->data.array(u"content");
        m->content.insert(key, content.size());
        content.append(item);
        m->data.insert(u"content"_s, content);
    };
    // Text and reasoning: started, delta, ended.
    auto streamedText = [&](const QString &kind) {
        ApiMessage *m = message();
        if (!m)
            return;
        const QString key = kind.left(1) + QString::number(d.integer(u"ordinal"));
        const QString phase = type.section(u'.', 2);
        std::optional<qsizetype> index = contentItem(m, key);
        if (!index) {
            JsonObject item{{u"type"_s, kind}, {u"text"_s, QString()}};
            if (kind == u"reasoning")
                item.insert(u"time"_s, JsonObject{{u"created"_s, at}});
            appendItem(m, key, item);
            index = contentItem(m, key);
        }
        QString delta;
        if (phase == u"delta") {
            delta = d.string(u"delta");
            updateItem(m, *index, [&](JsonObject &item) { item.insert(u"text"_s, item.string(u"text") + delta); });
        } else if (phase == u"ended") {
            updateItem(m, *index, [&](JsonObject &item) {
                item.insert(u"text"_s, d.string(u"text", item.string(u"text")));
                if (kind == u"reasoning")
                    item.insert(u"time"_s, JsonObject{{u"created"_s, item.object(u"time").integer(u"created", at)},
                                                      {u"completed"_s, at}});
            });
        }
        // Part 0 is the step's start: content item i is part i + 1.
        announceApiMessage(messageID, false, changes, *index + 1, delta);
    };
    auto tool = [&](const std::function<void(JsonObject &)> &edit) {
        ApiMessage *m = message();
        if (!m)
            return;
        const QString key = u"c:"_s + d.string(u"callID");
        std::optional<qsizetype> index = contentItem(m, key);
        if (!index) {
            appendItem(m, key,
                       JsonObject{{u"type"_s, u"tool"_s},
                                  {u"id"_s, d.string(u"callID")},
                                  {u"name"_s, d.string(u"name")},
                                  {u"state"_s, JsonObject{{u"status"_s, u"pending"_s}, {u"input"_s, QString()}}},
                                  {u"time"_s, JsonObject{{u"created"_s, at}}}});
            index = contentItem(m, key);
        }
        updateItem(m, *index, edit);
        announceApiMessage(messageID, false, changes);
    };
    auto setToolState = [&](JsonObject &item, JsonObject state, const QString &timeField) {
        const JsonObject old = item.object(u"state");
        if (!state.contains(u"input"))
            state.insert(u"input"_s, old.value(u"input"));
        item.insert(u"state"_s, state);
        JsonObject time = item.object(u"time");
        time.insert(timeField, at);
        item.insert(u"time"_s, time);
    };
    // A user message of the history from a promoted input.
    auto announceUser = [&](const QString &inputID, const JsonObject &input, const JsonObject &answer) {
        JsonObject data = input.object(u"data");
        data.insert(u"time"_s, JsonObject{{u"created"_s, at}});
        const QString rowType = input.string(u"type", u"user"_s);
        SessionMessageV2::Row row{inputID, sessionID, rowType, 0, at, toJson(data, 0)};
        SessionMessageV2::Context context;
        context.answer = answer;
        QString why;
        const std::optional<MessageWithParts> user = SessionMessageV2::toV1(row, context, &why);
        if (!user)
            return false;
        StoreChange change;
        change.kind = StoreChange::Kind::MessageUpdated;
        change.sessionID = sessionID;
        change.messageID = inputID;
        change.message = user->info;
        changes.append(change);
        for (const Part &part : user->parts) {
            StoreChange p;
            p.kind = StoreChange::Kind::PartUpdated;
            p.sessionID = sessionID;
            p.messageID = inputID;
            p.partID = part.id();
            p.part = part;
            changes.append(p);
        }
        return true;
    };

    if (type == u"session.created" || type == u"session.updated" || type == u"session.deleted") {
        const StoreChange::Kind kind = type == u"session.created" ? StoreChange::Kind::SessionCreated
            : type == u"session.updated"                          ? StoreChange::Kind::SessionUpdated
                                                                  : StoreChange::Kind::SessionDeleted;
        StoreChange change;
        change.kind = kind;
        change.sessionID = sessionID;
        if (Result<Session> session = ServerApiV2::sessionToV1(d.value(u"info"), m_store->info().version)) {
            change.session = std::move(session.value());
            change.sessionID = change.session.id();
        } else if (kind != StoreChange::Kind::SessionDeleted) {
            refreshSession(sessionID);
            return;
        } else {
            change.session = Session(JsonObject{{u"id"_s, sessionID}});
        }
        if (kind == StoreChange::Kind::SessionDeleted)
            m_store->forget(sessionID);
        changes.append(change);
    } else if (type == u"session.renamed" || type == u"session.usage.updated" || type == u"session.moved"
               || type == u"session.forked") {
        refreshSession(sessionID);
    } else if (type == u"session.revert.staged" || type == u"session.revert.cleared"
               || type == u"session.revert.committed") {
        refreshSession(sessionID);
        rereadSoon(sessionID);
    } else if (type == u"session.input.promoted") {
        // The prompt is part of the conversation now.
        const QString inputID = d.string(u"inputID");
        const auto input = m_apiInputs.constFind(inputID);
        m_apiLastUser.insert(sessionID, inputID);
        if (input != m_apiInputs.cend()) {
            if (announceUser(inputID, *input, {}))
                m_apiInputs.remove(inputID);
        } else {
            rereadSoon(sessionID);
        }
    } else if (type == u"session.execution.started") {
        m_apiRunning.insert(sessionID);
        Q_EMIT sessionStatus(sessionID, u"busy"_s);
    } else if (type == u"session.execution.succeeded" || type == u"session.execution.failed"
               || type == u"session.execution.interrupted") {
        if (type == u"session.execution.failed")
            Q_EMIT sessionError(sessionID, apiError(d.value(u"error")));
        m_apiRunning.remove(sessionID);
        // The session's messages are whole now.
        m_apiMessages.removeIf([&](const auto &it) { return it.value().sessionID == sessionID; });
        Q_EMIT sessionStatus(sessionID, u"idle"_s);
    } else if (type == u"session.step.started") {
        ApiMessage m;
        m.sessionID = sessionID;
        m.parentID = m_apiLastUser.value(sessionID);
        m.directory = event.object(u"location").string(u"directory");
        m.data = JsonObject{{u"time"_s, JsonObject{{u"created"_s, at}}},
                            {u"agent"_s, d.string(u"agent")},
                            {u"model"_s, d.object(u"model")},
                            {u"content"_s, JsonArray()},
                            {u"snapshot"_s, JsonObject{{u"start"_s, d.string(u"snapshot")}}}};
        m_apiMessages.insert(messageID, m);
        // A prompt not announced for want of its agent and model: now they are known.
        for (auto it = m_apiInputs.begin(); it != m_apiInputs.end();) {
            if (it.value().string(u"sessionID") == sessionID && it.key() == m.parentID
                && announceUser(it.key(), it.value(),
                                JsonObject{{u"agent"_s, d.string(u"agent")}, {u"model"_s, d.object(u"model")}}))
                it = m_apiInputs.erase(it);
            else
                ++it;
        }
        announceApiMessage(messageID, true, changes);
        if (!m_apiRunning.contains(sessionID)) {
            m_apiRunning.insert(sessionID);
            Q_EMIT sessionStatus(sessionID, u"busy"_s);
        }
    } else if (type == u"session.step.ended" || type == u"session.step.failed") {
        if (ApiMessage *m = message()) {
            JsonObject time = m->data.object(u"time");
            time.insert(u"completed"_s, at);
            m->data.insert(u"time"_s, time);
            m->data.insert(u"finish"_s, type == u"session.step.failed" ? u"error"_s : d.string(u"finish", u"stop"_s));
            m->data.insert(u"cost"_s, d.value(u"cost"));
            m->data.insert(u"tokens"_s, d.value(u"tokens"));
            JsonObject snapshot = m->data.object(u"snapshot");
            snapshot.insert(u"end"_s, d.string(u"snapshot"));
            snapshot.insert(u"files"_s, d.array(u"files"));
            m->data.insert(u"snapshot"_s, snapshot);
            if (type == u"session.step.failed")
                m->data.insert(u"error"_s, d.value(u"error"));
            announceApiMessage(messageID, true, changes);
        }
    } else if (type.startsWith(u"session.text.")) {
        streamedText(u"text"_s);
    } else if (type.startsWith(u"session.reasoning.")) {
        streamedText(u"reasoning"_s);
    } else if (type == u"session.tool.input.started") {
        tool([&](JsonObject &) { });
    } else if (type == u"session.tool.input.delta") {
        tool([&](JsonObject &item) {
            JsonObject state = item.object(u"state");
            state.insert(u"input"_s, state.string(u"input") + d.string(u"delta"));
            item.insert(u"state"_s, state);
        });
    } else if (type == u"session.tool.called") {
        tool([&](JsonObject &item) {
            setToolState(item, JsonObject{{u"status"_s, u"running"_s}, {u"input"_s, d.value(u"input")}}, u"ran"_s);
            item.insert(u"executed"_s, d.value(u"executed"));
        });
    } else if (type == u"session.tool.progress") {
        tool([&](JsonObject &item) {
            JsonObject state = item.object(u"state");
            state.insert(u"structured"_s, d.value(u"metadata"));
            item.insert(u"state"_s, state);
        });
    } else if (type == u"session.tool.success") {
        tool([&](JsonObject &item) {
            setToolState(item,
                     JsonObject{{u"status"_s, u"completed"_s},
                                {u"content"_s, d.value(u"content")},
                                {u"metadata"_s, d.value(u"metadata")},
                                {u"structured"_s, d.value(u"metadata")}},
                     u"completed"_s);
        });
    } else if (type == u"session.tool.failed") {
        tool([&](JsonObject &item) {
            setToolState(item,
                     JsonObject{{u"status"_s, u"error"_s},
                                {u"error"_s, d.value(u"error")},
                                {u"content"_s, d.value(u"content")},
                                {u"structured"_s, d.value(u"metadata")}},
                     u"completed"_s);
        });
    } else if (type == u"session.retry.scheduled") {
        const qint64 next = d.integer(u"at");
        const qint64 delay = next > 0 ? std::max<qint64>(0, next - QDateTime::currentMSecsSinceEpoch()) : 0;
        Q_EMIT sessionRetry(sessionID, int(d.integer(u"attempt")), delay, apiError(d.value(u"error")));
    } else if (type == u"session.compaction.ended" || type == u"session.compaction.failed") {
        if (type == u"session.compaction.failed")
            Q_EMIT sessionError(sessionID, apiError(d.value(u"error")));
        m_store->forget(sessionID);
        StoreChange change;
        change.kind = StoreChange::Kind::SessionChanged;
        change.sessionID = sessionID;
        changes.append(change);
    } else if (type == u"session.synthetic" || type == u"session.skill.activated" || type == u"session.shell.started"
               || type == u"session.shell.ended") {
        // Messages of the history whose shape the events do not give whole.
        rereadSoon(sessionID);
    } else if (type == u"permission.asked") {
        // {id, sessionID, action, resources, save, metadata, source: {type, messageID, callID}}:
        // V1's shape, answered through `/api`.
        JsonObject request = d;
        request.insert(u"permission"_s, d.value(u"action"));
        request.insert(u"patterns"_s, d.value(u"resources"));
        request.insert(u"tool"_s, d.object(u"source"));
        request.insert(u"v2"_s, true);
        Q_EMIT permissionAsked(request);
    } else if (type == u"permission.replied") {
        Q_EMIT permissionReplied(sessionID, d.string(u"requestID"));
    } else if (type == u"question.asked") {
        JsonObject request = d;
        request.insert(u"v2"_s, true);
        Q_EMIT questionAsked(request);
    } else if (type == u"question.replied" || type == u"question.rejected") {
        Q_EMIT questionClosed(sessionID, d.string(u"requestID"));
    } else if (type == u"form.created") {
        Q_EMIT questionAsked(ServerApiV2::formAsQuestion(d.object(u"form")));
    } else if (type == u"form.replied" || type == u"form.cancelled") {
        Q_EMIT questionClosed(sessionID, d.string(u"id"));
    } else if (!isApiEventWithoutEffect(type) && !m_unknownLogged.contains(type)) {
        m_unknownLogged.insert(type);
        qCInfo(lcStore).noquote() << m_store->client().displayName() << "sent an event Weft does not know:" << type;
    }
    if (type == u"session.input.admitted") {
        JsonObject input = d.object(u"input");
        input.insert(u"sessionID"_s, sessionID);
        m_apiInputs.insert(d.string(u"inputID"), input);
    }
    if (!changes.isEmpty())
        Q_EMIT changed(changes);
}

void ServerEventWatcher::announceApiMessage(const QString &messageID, bool withInfo, QList<StoreChange> &changes,
                                            qsizetype deltaIndex, const QString &delta)
{
    const auto it = m_apiMessages.find(messageID);
    if (it == m_apiMessages.end())
        return;
    ApiMessage &m = *it;
    const SessionMessageV2::Row row{messageID, m.sessionID, u"assistant"_s, 0,
                                    m.data.object(u"time").integer(u"created"), toJson(m.data, 0)};
    SessionMessageV2::Context context;
    context.parentID = m.parentID;
    if (!m.directory.isEmpty())
        context.path = JsonObject{{u"cwd"_s, m.directory}, {u"root"_s, m.directory}};
    QString why;
    const std::optional<MessageWithParts> built = SessionMessageV2::toV1(row, context, &why);
    if (!built) {
        qCDebug(lcStore) << "a streamed V2 message cannot be mapped:" << messageID << why;
        rereadSoon(m.sessionID);
        return;
    }
    m_store->forget(m.sessionID);
    if (withInfo && built->info.json() != m.announcedInfo) {
        m.announcedInfo = built->info.json();
        StoreChange change;
        change.kind = StoreChange::Kind::MessageUpdated;
        change.sessionID = m.sessionID;
        change.messageID = messageID;
        change.message = built->info;
        changes.append(change);
    }
    const QString deltaPart = deltaIndex >= 0 ? SessionMessageV2::partID(messageID, int(deltaIndex)) : QString();
    for (const Part &part : built->parts) {
        const auto old = m.announced.constFind(part.id());
        if (old != m.announced.cend() && old->json() == part.json())
            continue;
        m.announced.insert(part.id(), part);
        StoreChange change;
        change.kind = StoreChange::Kind::PartUpdated;
        change.sessionID = m.sessionID;
        change.messageID = messageID;
        change.partID = part.id();
        change.part = part;
        if (part.id() == deltaPart)
            change.text = delta;
        changes.append(change);
    }
}

void ServerEventWatcher::rereadSoon(const QString &sessionID)
{
    if (sessionID.isEmpty())
        return;
    m_v2Changed.insert(sessionID);
    if (!m_v2Reread.isActive())
        m_v2Reread.start();
}

void ServerEventWatcher::refreshSession(const QString &sessionID)
{
    if (sessionID.isEmpty())
        return;
    const QString version = m_store->info().version;
    m_store->client().get(ServerApiV2::path(sessionID)).then(this, [this, version](const Result<JsonValue> &answer) {
        if (!answer || !m_running)
            return;
        Result<Session> session = ServerApiV2::sessionToV1(answer->toObject().value(u"data"), version);
        if (!session)
            return;
        StoreChange change;
        change.kind = StoreChange::Kind::SessionUpdated;
        change.sessionID = session->id();
        change.session = std::move(session.value());
        Q_EMIT changed({change});
    });
}

void ServerEventWatcher::reconcileApi()
{
    // Streamed messages may have missed pieces: they are read again (the followed session) or
    // when opened.
    m_apiMessages.clear();
    m_apiInputs.clear();
    m_store->client().get(u"/api/session/active"_s).then(this, [this](const Result<JsonValue> &answer) {
        if (!answer || !m_running)
            return;
        const QStringList active = answer->toObject().object(u"data").keys();
        const QSet<QString> running = m_apiRunning;
        for (const QString &sessionID : running) {
            if (active.contains(sessionID))
                continue;
            m_apiRunning.remove(sessionID);
            m_store->forget(sessionID);
            Q_EMIT changed({StoreChange{.kind = StoreChange::Kind::SessionChanged, .sessionID = sessionID}});
            Q_EMIT sessionStatus(sessionID, u"idle"_s);
        }
        for (const QString &sessionID : active) {
            if (!m_apiRunning.contains(sessionID)) {
                m_apiRunning.insert(sessionID);
                Q_EMIT sessionStatus(sessionID, u"busy"_s);
            }
        }
    });
}

} // namespace weft
