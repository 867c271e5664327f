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
/// A V2-only server (OpenCode 2) streams `GET /api/event` instead: `{type, data, durable}`
/// events of a session's pieces (`session.step.*`, `session.text.*`, `session.tool.*`, ...).
/// The watcher builds each assistant message from them as its history will hold it, and maps
/// it as ServerStore reads it (SessionMessageV2), so that a part streamed and the same part read
/// later have one ID; it announces the parts that changed (text with its delta). Runs
/// (`session.execution.*`), retries, permissions, questions and forms (as questions:
/// ServerApiV2::formAsQuestion()) come as the signals below. An event of a name it does not know
/// is logged once per name (and still reported by eventReceived()).
///
/// When the stream drops, the watcher reconnects (after 0.5 s, then up to 5 s apart) and has the
/// followed session read again, so that nothing streamed meanwhile is lost or shown twice. The
/// V2 stream keeps nothing across a reconnection: the watcher then asks which sessions still run
/// (`/api/session/active`) and reports the others idle.
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
    /// multiple, custom}], tool: {messageID, callID}}`; with `v2: true` from a V2 session. A V2
    /// form (`form.created`) comes in the same shape with `form: true`
    /// (ServerApiV2::formAsQuestion()).
    void questionAsked(const weft::JsonObject &request);
    /// `question.replied` or `question.rejected` (`form.replied`, `form.cancelled`).
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
    /// An event of a V2-only server's `/api/event`.
    void handleApi(const JsonObject &event);
    /// What the V2 stream missed while it was down: which sessions still run.
    void reconcileApi();
    /// The assistant message @p messageID of @p sessionID as built so far, mapped to V1: the
    /// changes of its info (when @p withInfo) and of each part that differs from what was
    /// announced; @p delta is the text appended to the part of @p deltaIndex.
    void announceApiMessage(const QString &messageID, bool withInfo, QList<StoreChange> &changes,
                            qsizetype deltaIndex = -1, const QString &delta = {});
    /// Has @p sessionID's messages read again soon.
    void rereadSoon(const QString &sessionID);
    /// Reads @p sessionID's metadata (off this thread) and announces it (SessionUpdated).
    void refreshSession(const QString &sessionID);
    /// `server.connected`: the first time started(), after a reconnection the followed
    /// session read again.
    void streamConnected();

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

    /// An assistant message of a V2-only server being streamed: its history item (`data` of a
    /// `Session.Message.Info`) as built from the events, and what was announced of it.
    struct ApiMessage {
        QString sessionID;
        JsonObject data;
        QString parentID;
        QString directory;
        /// Index in `content` of each text, reasoning ("t0", "r0" by ordinal) and tool (call ID).
        QHash<QString, qsizetype> content;
        QHash<QString, Part> announced;
        JsonObject announcedInfo;
    };
    QHash<QString, ApiMessage> m_apiMessages;
    /// Each session's prompts admitted and not yet promoted (inputID: `{type, data}`), and its
    /// newest user message (what its next assistant message answers).
    QHash<QString, JsonObject> m_apiInputs;
    QHash<QString, QString> m_apiLastUser;
    /// Sessions running (execution started, not ended).
    QSet<QString> m_apiRunning;
    QSet<QString> m_unknownLogged;
};

} // namespace weft
