// SPDX-License-Identifier: GPL-3.0-or-later
#include "serversource.h"

#include "core/async.h"
#include "core/logging.h"
#include "core/tr.h"
#include "qt/sessionsmodel.h"
#include "server/serverclient.h"
#include "server/servereventwatcher.h"
#include "server/serverstore.h"
#include "server/sshtunnel.h"
#include "session/sessionservice.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString replyName(PermissionReply reply)
{
    switch (reply) {
    case PermissionReply::Once:
        return u"once"_s;
    case PermissionReply::Always:
        return u"always"_s;
    case PermissionReply::Reject:
        break;
    }
    return u"reject"_s;
}

PermissionRequest permissionOf(const JsonObject &asked)
{
    PermissionRequest request;
    request.id = asked.string(u"id");
    request.sessionID = asked.string(u"sessionID");
    request.messageID = asked.object(u"tool").string(u"messageID");
    request.callID = asked.object(u"tool").string(u"callID");
    request.permission = asked.string(u"permission");
    for (const JsonValue &v : asked.value(u"patterns").toArray())
        request.patterns.append(v.toString());
    request.metadata = asked.object(u"metadata");
    return request;
}
} // namespace

ServerSource::ServerSource(QObject *parent)
    : QObject(parent)
    , m_client(std::make_unique<ServerClient>())
    , m_target(std::make_unique<SshTarget>())
{
}

ServerSource::~ServerSource()
{
    // Work off the GUI thread that still holds the store (a list being read) gives up its
    // requests now, rather than wait for a server nobody asks any more (and hold up the exit).
    if (m_store)
        m_store->client().close();
    m_client->close();
    close();
}

SessionsModel *ServerSource::sessions() const
{
    return m_sessions;
}

bool ServerSource::isReady() const
{
    return !m_sessions.isNull();
}

QString ServerSource::keyFor(const QUrl &url)
{
    // An ssh:// target keeps its user: another user on the same host is another server.
    if (url.scheme() == u"ssh")
        return u"opencode-server:"_s + url.toString(QUrl::RemovePassword | QUrl::StripTrailingSlash);
    return u"opencode-server:"_s + url.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash);
}

QUrl ServerSource::url() const
{
    return m_client->baseUrl();
}

SshTunnel *ServerSource::tunnel() const
{
    return m_tunnel.data();
}

QString ServerSource::serviceProblem() const
{
    return m_tunnel ? m_tunnel->serviceProblem() : QString();
}

QString ServerSource::version() const
{
    return m_store ? m_store->info().version : QString();
}

bool ServerSource::takesDelivery() const
{
    return m_store && m_store->info().v2Only();
}

QString ServerSource::label() const
{
    const QUrl url = m_client->baseUrl();
    QString where = url.port() > 0 ? u"%1:%2"_s.arg(url.host()).arg(url.port()) : url.host();
    // "me@devbox:~/app", as scp would write it.
    if (url.scheme() == u"ssh")
        where = m_target->displayHost() + (m_target->path.isEmpty() ? QString() : u':' + m_target->path);
    // The sidebar adds the version of the newest session.
    // OpenCode's service with its version (OpenCode 2's sessions carry none for the sidebar).
    const bool service = m_localService || (m_tunnel && m_tunnel->attachedToService());
    const QString name = !service              ? tr("OpenCode server · %1").arg(where)
        : version().isEmpty() ? tr("OpenCode service · %1").arg(where)
                              : tr("OpenCode service %1 · %2").arg(version(), where);
    switch (m_state) {
    case State::Connecting:
        return tr("%1 (connecting…)").arg(name);
    case State::Reconnecting:
        return tr("%1 (reconnecting…)").arg(name);
    case State::Failed:
        return tr("%1 (not connected)").arg(name);
    case State::Disconnected:
    case State::Connected:
        break;
    }
    return name;
}

bool ServerSource::holds(const QString &sessionID) const
{
    return m_sessions && !sessionID.isEmpty() && m_sessions->session(sessionID).has_value();
}

void ServerSource::setState(State state, const QString &detail)
{
    if (m_state == state && m_detail == detail)
        return;
    m_state = state;
    m_detail = detail;
    Q_EMIT stateChanged(state);
}

void ServerSource::connectTo(const ServerClient &client)
{
    if (client.baseUrl().scheme() == u"ssh") {
        const Result<SshTarget> target = SshTarget::parse(client.baseUrl().toString());
        if (target) {
            connectTo(target.value());
            return;
        }
        close();
        *m_client = client;
        setState(State::Failed, target.error().message);
        Q_EMIT failed(Operation::Connect, {}, target.error().message);
        return;
    }
    close();
    *m_client = client;
    connectStore(client);
}

void ServerSource::connectTo(const SshTarget &target)
{
    close();
    *m_target = target;
    *m_client = ServerClient(target.url(), {});
    m_tunnelUp.invalidate();
    setState(State::Connecting);
    m_tunnel = new SshTunnel(this);
    const int generation = m_generation;
    connect(m_tunnel, &SshTunnel::ready, this, [this, generation](const QUrl &url, const QString &password) {
        if (generation != m_generation)
            return;
        m_tunnelUp.start();
        connectStore(ServerClient(url, password));
    });
    connect(m_tunnel, &SshTunnel::failed, this, [this, generation](const QString &error) {
        if (generation != m_generation)
            return;
        setState(State::Failed, error);
        Q_EMIT failed(Operation::Connect, {}, error);
    });
    connect(m_tunnel, &SshTunnel::dropped, this, &ServerSource::onTunnelDropped);
    m_tunnel->start(target);
}

void ServerSource::onTunnelDropped(const QString &error)
{
    // The remote server stopped with the connection (its script saw the session end). A tunnel
    // that had been up for a while is set up again; one that drops at once is a failure.
    const bool again = m_tunnelUp.isValid() && m_tunnelUp.elapsed() > 30000;
    const SshTarget target = *m_target;
    close();
    if (!again) {
        setState(State::Failed, error);
        Q_EMIT failed(Operation::Connect, {}, error);
        return;
    }
    setState(State::Reconnecting, error);
    const int generation = m_generation;
    QTimer::singleShot(2000, this, [this, generation, target] {
        if (generation == m_generation)
            connectTo(target);
    });
}

void ServerSource::connectStore(const ServerClient &client)
{
    setState(State::Connecting);
    const int generation = m_generation;
    whenFinished(ServerStore::connect(client), this,
                 [this, generation](const Result<std::shared_ptr<ServerStore>> &store) {
                     if (generation != m_generation)
                         return;
                     if (!store) {
                         qCInfo(lcSession).noquote() << "cannot connect to" << m_client->displayName() << ":"
                                                     << store.error().message;
                         stopTunnel();
                         setState(State::Failed, store.error().message);
                         Q_EMIT failed(Operation::Connect, {}, store.error().message);
                         return;
                     }
                     onConnected(store.value());
                 });
}

void ServerSource::onConnected(const std::shared_ptr<ServerStore> &store)
{
    m_store = store;
    m_service = std::make_shared<SessionService>(store);
    m_watcher = new ServerEventWatcher(store);
    connect(m_watcher, &ServerEventWatcher::stateChanged, this,
            [this](ServerEventWatcher::State state, const QString &detail) {
                if (state == ServerEventWatcher::State::Connected)
                    setState(State::Connected);
                else if (state == ServerEventWatcher::State::Reconnecting)
                    setState(State::Reconnecting, detail);
            });
    connect(m_watcher, &ServerEventWatcher::sessionStatus, this, &ServerSource::onStatus);
    connect(m_watcher, &ServerEventWatcher::sessionError, this,
            [this](const QString &sessionID, const MessageError &error) { m_errors.insert(sessionID, error); });
    connect(m_watcher, &ServerEventWatcher::permissionAsked, this, [this](const JsonObject &asked) {
        const PermissionRequest request = permissionOf(asked);
        if (request.id.isEmpty() || m_permissions.contains(request.id))
            return;
        m_permissions.insert(request.id, request);
        if (asked.value(u"v2").toBool())
            m_v2Permissions.insert(request.id);
        Q_EMIT permissionRequested(request);
    });
    connect(m_watcher, &ServerEventWatcher::permissionReplied, this, [this](const QString &, const QString &requestID) {
        const auto it = m_permissions.find(requestID);
        if (it == m_permissions.end())
            return;
        const PermissionRequest request = *it;
        m_permissions.erase(it);
        Q_EMIT permissionClosed(request);
    });
    connect(m_watcher, &ServerEventWatcher::questionAsked, this, [this](const JsonObject &request) {
        const QString id = request.string(u"id");
        if (id.isEmpty() || m_questions.contains(id))
            return;
        m_questions.insert(id, request);
        Q_EMIT questionAsked(request);
    });
    connect(m_watcher, &ServerEventWatcher::questionClosed, this, [this](const QString &sessionID, const QString &requestID) {
        if (m_questions.remove(requestID) > 0)
            Q_EMIT questionClosed(sessionID, requestID);
    });
    const int generation = m_generation;
    connect(m_service.get(), &SessionService::watchingStarted, this, [this, generation] {
        if (generation != m_generation || m_sessions)
            return;
        m_sessions = new SessionsModel(m_service.get(), this);
        setState(State::Connected);
        qCInfo(lcSession).noquote() << "showing the sessions of OpenCode" << version() << "at" << m_client->displayName();
        Q_EMIT ready();
    });
    m_service->startWatching(m_watcher);
}

void ServerSource::close()
{
    ++m_generation;
    if (m_service) {
        Q_EMIT aboutToClose();
        m_service->stopWatching();
    }
    delete m_sessions.data();
    const QList<PermissionRequest> pending = m_permissions.values();
    m_permissions.clear();
    m_v2Permissions.clear();
    const QList<JsonObject> questions = m_questions.values();
    m_questions.clear();
    for (const JsonObject &q : questions)
        Q_EMIT questionClosed(q.string(u"sessionID"), q.string(u"id"));
    for (const PermissionRequest &request : pending)
        Q_EMIT permissionClosed(request);
    const QSet<QString> busy = m_busy;
    m_busy.clear();
    for (const QString &sessionID : busy)
        Q_EMIT busyChanged(sessionID, false);
    m_service.reset();
    m_store.reset();
    stopTunnel();
    if (m_state != State::Disconnected)
        setState(State::Disconnected);
}

void ServerSource::stopTunnel()
{
    // The remote server it started stops with it (a few seconds at most, mostly far less).
    // Not deleted at once: this may run inside one of its signals.
    if (SshTunnel *tunnel = m_tunnel) {
        m_tunnel = nullptr;
        tunnel->disconnect(this);
        tunnel->stop();
        tunnel->deleteLater();
    }
}

void ServerSource::onStatus(const QString &sessionID, const QString &status)
{
    const bool busy = status != u"idle";
    if (busy == m_busy.contains(sessionID))
        return;
    if (busy) {
        m_busy.insert(sessionID);
        m_errors.remove(sessionID);
        Q_EMIT busyChanged(sessionID, true);
        return;
    }
    m_busy.remove(sessionID);
    // The questions of a run that ended cannot be answered any more.
    for (auto it = m_questions.begin(); it != m_questions.end();) {
        if (it->string(u"sessionID") == sessionID) {
            const QString id = it.key();
            it = m_questions.erase(it);
            Q_EMIT questionClosed(sessionID, id);
        } else {
            ++it;
        }
    }
    for (auto it = m_permissions.begin(); it != m_permissions.end();) {
        if (it->sessionID == sessionID) {
            const PermissionRequest request = *it;
            it = m_permissions.erase(it);
            Q_EMIT permissionClosed(request);
        } else {
            ++it;
        }
    }
    const MessageError error = m_errors.take(sessionID);
    Q_EMIT busyChanged(sessionID, false);
    Q_EMIT runFinished(sessionID, error.isNull(), error);
}

template<typename T, typename Work, typename Done>
void ServerSource::request(Work work, Done done)
{
    if (!m_store)
        return;
    const int generation = m_generation;
    std::shared_ptr<ServerStore> store = m_store;
    whenFinished(QtConcurrent::run([store, work]() -> T { return work(*store); }), this,
                 [this, generation, done](const T &result) {
                     if (generation == m_generation)
                         done(result);
                 });
}

void ServerSource::prompt(const QString &sessionID, const QString &text, const QString &agent, const QString &model,
                          PromptDelivery delivery)
{
    request<Result<void>>([=](ServerStore &s) { return s.prompt(sessionID, text, agent, model, {}, delivery); },
                          [this, sessionID](const Result<void> &r) {
                              if (!r)
                                  Q_EMIT failed(Operation::Prompt, sessionID, r.error().message);
                          });
}

QFuture<ServerSource::PromptChoices> ServerSource::promptChoices(const QString &directory) const
{
    if (!takesDelivery())
        return QtFuture::makeReadyValueFuture(PromptChoices());
    return QtConcurrent::run([store = m_store, directory] {
        PromptChoices choices;
        // The agents a prompt may name: primary ones (or "all"), not hidden (sub-agents and
        // OpenCode's own, such as title and summary, are not).
        if (const Result<JsonArray> agents = store->agents(directory)) {
            for (const JsonValue &v : *agents) {
                const JsonObject agent = v.toObject();
                const QString mode = agent.string(u"mode");
                if (!agent.boolean(u"hidden") && (mode.isEmpty() || mode == u"primary" || mode == u"all"))
                    choices.agents.append(agent.string(u"id"));
            }
        }
        if (const Result<JsonArray> models = store->models(directory)) {
            for (const JsonValue &v : *models) {
                const JsonObject m = v.toObject();
                choices.models.append(m.string(u"providerID") + u'/' + m.string(u"id"));
            }
        }
        if (const Result<QString> model = store->defaultModel(directory))
            choices.defaultModel = *model;
        return choices;
    });
}

QFuture<Result<Session>> ServerSource::rename(const QString &sessionID, const QString &title)
{
    if (!m_store)
        return QtFuture::makeReadyValueFuture(Result<Session>(Error{ServerTr::tr("the OpenCode server is not connected"), {}}));
    const QString trimmed = title.trimmed();
    if (trimmed.isEmpty())
        return QtFuture::makeReadyValueFuture(Result<Session>(Error{SessionTr::tr("a session title cannot be empty"), {}}));
    return QtConcurrent::run([store = m_store, sessionID, trimmed] { return store->rename(sessionID, trimmed); });
}

QFuture<Result<Worktree>> ServerSource::worktreeOf(const QString &sessionID) const
{
    if (!m_store)
        return QtFuture::makeReadyValueFuture(Result<Worktree>(Error{ServerTr::tr("the OpenCode server is not connected"), {}}));
    return QtConcurrent::run([store = m_store, sessionID]() -> Result<Worktree> {
        const QString folder = store->folderOf(sessionID);
        const Result<QStringList> worktrees = store->worktrees(sessionID);
        if (!worktrees)
            return worktrees.error();
        if (folder.isEmpty() || !worktrees->contains(folder))
            return Error{ServerTr::tr("the session does not work in a worktree of the server"), sessionID};
        Worktree worktree;
        worktree.path = folder;
        return worktree;
    });
}

QFuture<Result<Session>> ServerSource::createInWorktree(const QString &sessionID, const QString &name) const
{
    if (!m_store)
        return QtFuture::makeReadyValueFuture(Result<Session>(Error{ServerTr::tr("the OpenCode server is not connected"), {}}));
    return QtConcurrent::run([store = m_store, sessionID, name]() -> Result<Session> {
        const Result<JsonObject> made = store->createWorktree(sessionID, name);
        if (!made)
            return made.error();
        return store->create(made->string(u"directory"));
    });
}

QFuture<Result<void>> ServerSource::removeWorktree(const QString &sessionID, const QString &worktree) const
{
    if (!m_store)
        return QtFuture::makeReadyValueFuture(Result<void>(Error{ServerTr::tr("the OpenCode server is not connected"), {}}));
    return QtConcurrent::run([store = m_store, sessionID, worktree] { return store->removeWorktree(sessionID, worktree); });
}

void ServerSource::stop(const QString &sessionID)
{
    request<Result<void>>([=](ServerStore &s) { return s.abort(sessionID); },
                          [this, sessionID](const Result<void> &r) {
                              if (!r)
                                  Q_EMIT failed(Operation::Stop, sessionID, r.error().message);
                          });
}

void ServerSource::fork(const QString &sessionID, const QString &messageID)
{
    request<Result<Session>>([=](ServerStore &s) { return s.fork(sessionID, messageID); },
                             [this, sessionID](const Result<Session> &r) {
                                 if (!r) {
                                     Q_EMIT failed(Operation::Fork, sessionID, r.error().message);
                                     return;
                                 }
                                 // The event of the new session may come later: the list has it now.
                                 if (m_sessions)
                                     m_sessions->refreshSession(r.value());
                                 Q_EMIT forked(sessionID, r.value());
                             });
}

void ServerSource::compact(const QString &sessionID, const QString &model)
{
    request<Result<void>>([=](ServerStore &s) { return s.compact(sessionID, model); },
                          [this, sessionID](const Result<void> &r) {
                              MessageError error;
                              if (!r)
                                  error = MessageError::unknown(r.error().message);
                              Q_EMIT compactionFinished(sessionID, r.ok(), error);
                          });
}

void ServerSource::revert(const QString &sessionID, const QString &messageID, const QString &partID)
{
    request<Result<Session>>([=](ServerStore &s) { return s.revert(sessionID, messageID, partID); },
                             [this, sessionID](const Result<Session> &r) {
                                 if (!r) {
                                     Q_EMIT failed(Operation::Revert, sessionID, r.error().message);
                                     return;
                                 }
                                 if (m_sessions)
                                     m_sessions->refreshSession(r.value());
                                 Q_EMIT reverted(r.value());
                             });
}

void ServerSource::unrevert(const QString &sessionID)
{
    request<Result<Session>>([=](ServerStore &s) { return s.unrevert(sessionID); },
                             [this, sessionID](const Result<Session> &r) {
                                 if (!r) {
                                     Q_EMIT failed(Operation::Unrevert, sessionID, r.error().message);
                                     return;
                                 }
                                 if (m_sessions)
                                     m_sessions->refreshSession(r.value());
                                 Q_EMIT reverted(r.value());
                             });
}

void ServerSource::remove(const QString &sessionID)
{
    request<Result<void>>([=](ServerStore &s) { return s.remove(sessionID); },
                          [this, sessionID](const Result<void> &r) {
                              if (!r)
                                  Q_EMIT failed(Operation::Delete, sessionID, r.error().message);
                          });
}

bool ServerSource::answerPermission(const QString &requestID, PermissionReply reply)
{
    const auto it = m_permissions.constFind(requestID);
    if (it == m_permissions.cend())
        return false;
    const PermissionRequest request = *it;
    const bool v2 = m_v2Permissions.contains(requestID);
    this->request<Result<void>>(
        [request, reply, v2](ServerStore &s) {
            return s.replyPermission(request.sessionID, request.id, replyName(reply), v2);
        },
        [this, request](const Result<void> &r) {
            if (!r)
                Q_EMIT failed(Operation::Permission, request.sessionID, r.error().message);
            // permission.replied closes it; a question the server forgot closes too.
            if (!r && m_permissions.remove(request.id) > 0)
                Q_EMIT permissionClosed(request);
        });
    return true;
}

bool ServerSource::answerQuestion(const QString &requestID, const QList<QStringList> &answers)
{
    const auto it = m_questions.constFind(requestID);
    if (it == m_questions.cend())
        return false;
    const QString sessionID = it->string(u"sessionID");
    const bool v2 = it->value(u"v2").toBool();
    const JsonObject asked = *it;
    request<Result<void>>(
        [=](ServerStore &s) {
            return asked.value(u"form").toBool() ? s.replyForm(asked, answers)
                                                 : s.replyQuestion(sessionID, requestID, answers, v2);
        },
                          [this, sessionID, requestID](const Result<void> &r) {
                              if (r)
                                  return; // question.replied closes it
                              Q_EMIT failed(Operation::Question, sessionID, r.error().message);
                              if (m_questions.remove(requestID) > 0)
                                  Q_EMIT questionClosed(sessionID, requestID);
                          });
    return true;
}

bool ServerSource::rejectQuestion(const QString &requestID)
{
    const auto it = m_questions.constFind(requestID);
    if (it == m_questions.cend())
        return false;
    const QString sessionID = it->string(u"sessionID");
    const bool v2 = it->value(u"v2").toBool();
    const JsonObject asked = *it;
    request<Result<void>>(
        [=](ServerStore &s) {
            return asked.value(u"form").toBool() ? s.cancelForm(asked) : s.rejectQuestion(sessionID, requestID, v2);
        },
                          [this, sessionID, requestID](const Result<void> &r) {
                              if (!r)
                                  Q_EMIT failed(Operation::Question, sessionID, r.error().message);
                              if (m_questions.remove(requestID) > 0)
                                  Q_EMIT questionClosed(sessionID, requestID);
                          });
    return true;
}

} // namespace weft
