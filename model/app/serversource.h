// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/permissionrequest.h"
#include "core/prompt.h"
#include "core/result.h"
#include "core/types.h"
#include "worktree/worktrees.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QUrl>

#include <memory>

namespace weft
{

class ServerClient;
class ServerEventWatcher;
class ServerStore;
class SshTunnel;
struct SshTarget;
class SessionService;
class SessionsModel;

/// An OpenCode server (`opencode serve`) shown beside Weft's store: its sessions, live from its
/// event stream, and run there. Prompts, Stop, fork, compaction, revert and the answers to its
/// permission questions are requests to the server, sent off the GUI thread; what the server then
/// records arrives through the event stream like any change of a store.
///
/// connectTo() probes the server off the GUI thread, then follows its event stream; ready() says
/// when the sessions model is there. The connection's state (connecting, connected, reconnecting,
/// failed) is stateChanged(). Lives on the GUI thread.
class ServerSource : public QObject
{
    Q_OBJECT

public:
    enum class State { Disconnected, Connecting, Connected, Reconnecting, Failed };
    Q_ENUM(State)

    explicit ServerSource(QObject *parent = nullptr);
    ~ServerSource() override;

    /// Connects to @p client's server (closing what was open). A client whose address is an
    /// ssh:// target (ServerClient(SshTarget::url(), {})) connects as connectTo(SshTarget).
    void connectTo(const ServerClient &client);
    /// Starts `opencode serve` on @p target over ssh (SshTunnel), then connects to it through
    /// the forwarded port. The source's key and address stay the ssh:// address (no password
    /// is kept: each start makes its own); the tunnel lives as long as the connection. A tunnel
    /// that drops after 30 s or more is set up again (a new server there), else the source fails.
    void connectTo(const SshTarget &target);
    void close();

    [[nodiscard]] State state() const { return m_state; }
    /// Why the source failed or reconnects, or empty.
    [[nodiscard]] QString stateDetail() const { return m_detail; }
    /// The source's key: "opencode-server:" and the server's address.
    [[nodiscard]] QString key() const { return keyFor(url()); }
    [[nodiscard]] static QString keyFor(const QUrl &url);
    /// The server's address: http://HOST:PORT, or the ssh:// target.
    [[nodiscard]] QUrl url() const;
    /// For an ssh:// target: the tunnel (null otherwise, and until connectTo()).
    [[nodiscard]] SshTunnel *tunnel() const;
    /// The server's OpenCode version, once connected.
    [[nodiscard]] QString version() const;
    /// The server takes a prompt's delivery (steer or queue into a running session): OpenCode 2.
    [[nodiscard]] bool takesDelivery() const;
    /// "OpenCode server · 127.0.0.1:4096" ("OpenCode service 2.0.9 · ..." for OpenCode's
    /// background service, here or attached to over ssh), with the state when not connected.
    [[nodiscard]] QString label() const;
    [[nodiscard]] bool isReady() const;
    /// For an ssh:// target: why the remote OpenCode service was not attached to (its file
    /// refused or stale: a server was started instead), or empty.
    [[nodiscard]] QString serviceProblem() const;
    /// Whether this is OpenCode's background service on this machine (LocalServices).
    void setService(bool service) { m_localService = service; }

    [[nodiscard]] SessionService *service() const { return m_service.get(); }
    [[nodiscard]] std::shared_ptr<SessionService> sharedService() const { return m_service; }
    [[nodiscard]] SessionsModel *sessions() const;
    /// Whether @p sessionID is one of this server's sessions.
    [[nodiscard]] bool holds(const QString &sessionID) const;

    // What the server does; each answer comes as a signal.
    [[nodiscard]] bool isBusy(const QString &sessionID) const { return m_busy.contains(sessionID); }
    [[nodiscard]] QStringList busySessions() const { return QStringList(m_busy.cbegin(), m_busy.cend()); }
    void prompt(const QString &sessionID, const QString &text, const QString &agent, const QString &model,
                PromptDelivery delivery = PromptDelivery::Default);
    /// What the server offers a prompt in @p directory (its own folder when empty).
    struct PromptChoices {
        QStringList agents;
        /// "provider/model"
        QStringList models;
        /// Empty when the server has none.
        QString defaultModel;
    };
    /// The agents and models the server offers in @p directory, read off the GUI thread (OpenCode
    /// 2 only: an OpenCode 1.x server gives none).
    [[nodiscard]] QFuture<PromptChoices> promptChoices(const QString &directory = {}) const;
    /// Renames the session on the server: its new state, or the server's error.
    [[nodiscard]] QFuture<Result<Session>> rename(const QString &sessionID, const QString &title);
    void stop(const QString &sessionID);
    /// The server's worktree (OpenCode 1.18's `/experimental/worktree`) that @p sessionID works in,
    /// read off the GUI thread (its path; the server does not say its branch or base); an error
    /// when it works in none, or the server has no worktrees (OpenCode 2, older 1.x).
    [[nodiscard]] QFuture<Result<Worktree>> worktreeOf(const QString &sessionID) const;
    /// A new session in a new worktree of @p sessionID's project on the server, named @p name
    /// (the server names it when empty; its project's start command runs there), off the GUI
    /// thread.
    [[nodiscard]] QFuture<Result<Session>> createInWorktree(const QString &sessionID, const QString &name) const;
    /// Removes the server's worktree @p worktree of @p sessionID's project (OpenCode deletes its
    /// branch too).
    [[nodiscard]] QFuture<Result<void>> removeWorktree(const QString &sessionID, const QString &worktree) const;
    void fork(const QString &sessionID, const QString &messageID);
    void compact(const QString &sessionID, const QString &model = {});
    void revert(const QString &sessionID, const QString &messageID, const QString &partID = {});
    void unrevert(const QString &sessionID);
    void remove(const QString &sessionID);
    [[nodiscard]] QList<PermissionRequest> pendingPermissions() const { return m_permissions.values(); }
    [[nodiscard]] bool hasPermission(const QString &requestID) const { return m_permissions.contains(requestID); }
    bool answerPermission(const QString &requestID, PermissionReply reply);
    /// The questions of OpenCode's `question` tool waiting for an answer (the server's shape,
    /// see ServerEventWatcher::questionAsked()).
    [[nodiscard]] QList<JsonObject> pendingQuestions() const { return m_questions.values(); }
    [[nodiscard]] bool hasQuestion(const QString &requestID) const { return m_questions.contains(requestID); }
    /// Answers question @p requestID: for each of its questions, the labels chosen. A form of
    /// OpenCode 2 (`form: true`) is answered as a form.
    bool answerQuestion(const QString &requestID, const QList<QStringList> &answers);
    /// Declines to answer question @p requestID.
    bool rejectQuestion(const QString &requestID);

    /// The operations that can fail (failed()).
    enum class Operation { Connect, Prompt, Stop, Fork, Compact, Revert, Unrevert, Delete, Permission, Question };
    Q_ENUM(Operation)

Q_SIGNALS:
    void stateChanged(weft::ServerSource::State state);
    /// The sessions model exists and the event stream is followed.
    void ready();
    void aboutToClose();
    void busyChanged(const QString &sessionID, bool busy);
    /// A run ended on the server (busy, then idle); @p error is the one it reported, if any.
    void runFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    void permissionRequested(const weft::PermissionRequest &request);
    void permissionClosed(const weft::PermissionRequest &request);
    void questionAsked(const weft::JsonObject &request);
    /// Answered (here or elsewhere), declined, or its run ended.
    void questionClosed(const QString &sessionID, const QString &requestID);
    void forked(const QString &sessionID, const weft::Session &session);
    void compactionFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    void reverted(const weft::Session &session);
    void failed(weft::ServerSource::Operation operation, const QString &sessionID, const QString &error);

private:
    void setState(State state, const QString &detail = {});
    /// Probes @p client off the GUI thread, then follows its event stream.
    void connectStore(const ServerClient &client);
    void onConnected(const std::shared_ptr<ServerStore> &store);
    void onTunnelDropped(const QString &error);
    void stopTunnel();
    void onStatus(const QString &sessionID, const QString &status);
    /// Runs @p work (a request to the server) off the GUI thread; @p done gets its result here.
    template<typename T, typename Work, typename Done>
    void request(Work work, Done done);

    // The server layer's types stay out of this header (the views include it): held by pointer.
    std::unique_ptr<ServerClient> m_client; ///< the address as the user gave it (for an ssh:// target: that)
    QPointer<SshTunnel> m_tunnel; ///< a child; stopped by close()
    std::unique_ptr<SshTarget> m_target;
    QElapsedTimer m_tunnelUp; ///< since the tunnel was last ready
    State m_state = State::Disconnected;
    QString m_detail;
    std::shared_ptr<ServerStore> m_store;
    std::shared_ptr<SessionService> m_service;
    QPointer<ServerEventWatcher> m_watcher;
    QPointer<SessionsModel> m_sessions;
    QSet<QString> m_busy;
    QHash<QString, MessageError> m_errors;
    QHash<QString, PermissionRequest> m_permissions;
    QSet<QString> m_v2Permissions; ///< questions of V2 sessions (answered through `/api`)
    QHash<QString, JsonObject> m_questions;
    int m_generation = 0;
    bool m_localService = false;
};

} // namespace weft
