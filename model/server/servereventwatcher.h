// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/types.h"
#include "provider/sseparser.h"
#include "store/storewatcher.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QPointer>
#include <QTimer>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace weft
{

class ServerStore;

/// Follows an OpenCode server through its event stream (`GET /global/event`, the events of
/// every project the server runs, as server-sent events) and reports what happens to its sessions
/// as StoreChanges: sessions, messages and parts as the server records them, streamed text as
/// deltas (`message.part.delta`). What has no StoreChange (a run's status, errors, permission
/// questions) has signals of its own.
///
/// When the stream drops, the watcher reconnects (after 0.5 s, then up to 5 s apart) and has the
/// followed session read again, so that nothing streamed meanwhile is lost or shown twice.
class ServerEventWatcher : public StoreWatcher
{
    Q_OBJECT

public:
    enum class State { Disconnected, Connecting, Connected, Reconnecting };
    Q_ENUM(State)

    explicit ServerEventWatcher(std::shared_ptr<ServerStore> store, QObject *parent = nullptr);
    ~ServerEventWatcher() override;

    void start() override;
    void stop() override;
    void follow(const QString &sessionID, const QStringList &recentMessageIDs) override;

    [[nodiscard]] State state() const { return m_state; }
    /// Events handled since start() (for tests and the status line).
    [[nodiscard]] int eventCount() const { return m_events; }

Q_SIGNALS:
    void stateChanged(weft::ServerEventWatcher::State state, const QString &detail);
    /// `session.status`: "busy", "retry" or "idle" (`session.idle` too).
    void sessionStatus(const QString &sessionID, const QString &status);
    /// `session.status` of type "retry": the server retries the model in @p delayMs.
    void sessionRetry(const QString &sessionID, int attempt, qint64 delayMs, const weft::MessageError &error);
    /// `session.error`: a run failed (the assistant message carries the error too).
    void sessionError(const QString &sessionID, const weft::MessageError &error);
    /// `permission.asked`: the request (`id`, `sessionID`, `permission`, `patterns`, `metadata`,
    /// `tool: {messageID, callID}`). A V2 session's `permission.v2.asked` comes in the same shape,
    /// with `v2: true`.
    void permissionAsked(const weft::JsonObject &request);
    void permissionReplied(const QString &sessionID, const QString &requestID);
    /// `question.asked` (or `question.v2.asked`): the request of OpenCode's `question` tool,
    /// `{id, sessionID, questions: [{question, header, options: [{label, description}],
    /// multiple, custom}], tool: {messageID, callID}}`.
    void questionAsked(const weft::JsonObject &request);
    /// `question.replied` or `question.rejected`.
    void questionClosed(const QString &sessionID, const QString &requestID);
    /// Any event, as sent: `type`, `properties` (and `directory` from the global stream).
    void eventReceived(const QString &type, const weft::JsonObject &properties);

private:
    void connectStream();
    void onReadyRead();
    void onFinished();
    void setState(State state, const QString &detail = {});
    void handle(const JsonObject &event);
    /// A V2 session's conversation event (`session.next.*`): its status, and a re-read of the
    /// session soon (V2 events carry pieces of content items, not V1 parts).
    void handleV2(const QString &type, const JsonObject &properties);

    std::shared_ptr<ServerStore> m_store;
    QNetworkAccessManager *m_manager = nullptr;
    QPointer<QNetworkReply> m_reply;
    SseParser m_parser;
    QTimer m_reconnect;
    QTimer m_idle;
    State m_state = State::Disconnected;
    bool m_running = false;
    bool m_hadConnection = false;
    int m_backoffMs = 500;
    int m_events = 0;
    QString m_followed;
    /// The parts streamed so far, by ID: what `message.part.delta` appends to.
    QHash<QString, Part> m_parts;
    /// V2 sessions that changed since the last re-read, read again when m_v2Reread fires.
    QSet<QString> m_v2Changed;
    QTimer m_v2Reread;
};

} // namespace weft
