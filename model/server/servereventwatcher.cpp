// SPDX-License-Identifier: GPL-3.0-or-later
#include "servereventwatcher.h"
#include "serverstore.h"

#include "core/logging.h"
#include "core/network.h"

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
    QNetworkRequest request = m_store->client().request(u"/global/event"_s);
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

void ServerEventWatcher::handle(const JsonObject &envelope)
{
    // `/global/event` wraps each event as {directory, payload}; `/event` sends it bare.
    const JsonObject event = envelope.value(u"payload").isObject() ? envelope.object(u"payload") : envelope;
    const QString type = event.string(u"type");
    const JsonObject p = event.object(u"properties");
    ++m_events;

    if (type == u"server.connected") {
        const bool again = m_hadConnection;
        m_hadConnection = true;
        m_backoffMs = 500;
        setState(State::Connected);
        if (!again) {
            Q_EMIT started();
        } else if (!m_followed.isEmpty()) {
            // What happened while the stream was down: read the open session again.
            m_store->forget(m_followed);
            m_parts.clear();
            StoreChange change;
            change.kind = StoreChange::Kind::SessionChanged;
            change.sessionID = m_followed;
            Q_EMIT changed({change});
        }
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

} // namespace weft
