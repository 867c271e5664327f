// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpmanager.h"


#include "core/logging.h"
#include "core/tr.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QThread>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

/// A request waited for on another thread.
struct McpWaiter
{
    QMutex mutex;
    QWaitCondition done;
    std::optional<Result<JsonValue>> result;
    qint64 id = -1;
    bool cancelled = false;

    void finish(Result<JsonValue> r)
    {
        QMutexLocker lock(&mutex);
        if (!result)
            result = std::move(r);
        done.wakeAll();
    }
};

/// Lives on the MCP thread and owns the clients.
class McpWorker : public QObject
{
    Q_OBJECT

public:
    explicit McpWorker(std::shared_ptr<McpRegistry> registry)
        : m_registry(std::move(registry))
    {
    }

    void configure(const QList<McpServerConfig> &servers)
    {
        QHash<QString, McpServerConfig> next;
        for (const McpServerConfig &server : servers)
            next.insert(server.name, server);
        // Stop what is gone or changed.
        for (auto it = m_configs.begin(); it != m_configs.end();) {
            const auto found = next.constFind(it.key());
            if (found == next.cend() || found->json != it->json || found->error != it->error) {
                stop(it.key());
                it = m_configs.erase(it);
            } else {
                ++it;
            }
        }
        {
            QMutexLocker lock(&m_registry->m_mutex);
            QList<McpServerStatus> statuses;
            for (const McpServerConfig &server : servers) {
                McpServerStatus status;
                for (const McpServerStatus &old : std::as_const(m_registry->m_servers)) {
                    if (old.name == server.name && m_configs.contains(server.name))
                        status = old;
                }
                status.name = server.name;
                status.type = server.type;
                status.target = server.type == McpServerConfig::Type::Local ? server.command.join(u' ') : server.url;
                statuses.append(status);
            }
            m_registry->m_servers = statuses;
            m_registry->m_changed.wakeAll();
        }
        for (const McpServerConfig &server : servers) {
            if (m_configs.contains(server.name))
                continue;
            m_configs.insert(server.name, server);
            if (!server.error.isEmpty()) {
                setFailed(server.name, server.error);
            } else if (!server.enabled) {
                m_registry->update(server.name, [](McpServerStatus &s) { s.state = McpServerStatus::State::Disabled; });
                Q_EMIT serverChanged(server.name);
            } else {
                start(server.name);
            }
        }
    }

    /// configure() with the servers already configured kept, in their order, and @p servers
    /// added or put in their place.
    void include(const QList<McpServerConfig> &servers)
    {
        QList<McpServerConfig> merged;
        QStringList names;
        {
            QMutexLocker lock(&m_registry->m_mutex);
            for (const McpServerStatus &status : std::as_const(m_registry->m_servers))
                names.append(status.name);
        }
        for (const QString &name : std::as_const(names)) {
            const auto replacement = std::find_if(servers.cbegin(), servers.cend(),
                                                  [&](const McpServerConfig &s) { return s.name == name; });
            merged.append(replacement != servers.cend() ? *replacement : m_configs.value(name));
        }
        for (const McpServerConfig &server : servers) {
            if (!names.contains(server.name))
                merged.append(server);
        }
        configure(merged);
    }

    bool start(const QString &name)
    {
        if (!m_configs.contains(name))
            return false;
        McpServerConfig config = m_configs.value(name);
        if (!config.error.isEmpty()) {
            setFailed(name, config.error);
            return true;
        }
        stop(name);
        if (!m_network)
            m_network = new QNetworkAccessManager(this);
        auto *client = new McpClient(config, m_network, this);
        m_clients.insert(name, client);
        m_registry->update(name, [](McpServerStatus &s) {
            s.state = McpServerStatus::State::Connecting;
            s.error.clear();
            s.toolCount = s.promptCount = s.resourceCount = 0;
            s.handshakeMs = s.connectMs = -1;
        });
        Q_EMIT serverChanged(name);
        QElapsedTimer clock;
        clock.start();
        connect(client, &McpClient::ready, this, [this, name, client, clock] {
            publishLists(name, client);
            const JsonObject info = client->serverInfo();
            m_registry->update(name, [&](McpServerStatus &s) {
                s.state = McpServerStatus::State::Connected;
                s.transport = client->transportKind();
                s.serverName = info.string(u"name");
                s.serverVersion = info.string(u"version");
                s.protocolVersion = client->protocolVersion();
                s.handshakeMs = client->handshakeMs();
                s.connectMs = clock.elapsed();
            });
            qCInfo(lcProcessor).noquote() << "MCP server" << name << "connected over" << client->transportKind()
                                          << "in" << clock.elapsed() << "ms";
            Q_EMIT serverChanged(name);
        });
        connect(client, &McpClient::listsChanged, this, [this, name, client] {
            publishLists(name, client);
            Q_EMIT serverChanged(name);
        });
        connect(client, &McpClient::notice, this, [this, name](const QString &text) {
            m_registry->update(name, [&](McpServerStatus &s) {
                s.log.append(text);
                if (s.log.size() > 50)
                    s.log.removeFirst();
            });
        });
        connect(client, &McpClient::failed, this, [this, name, client](const QString &error) {
            if (m_clients.value(name) == client) {
                m_clients.remove(name);
                client->deleteLater();
            }
            setFailed(name, error);
        });
        client->start();
        return true;
    }

    void stop(const QString &name)
    {
        if (McpClient *client = m_clients.take(name)) {
            client->disconnect(this);
            delete client;
        }
        QMutexLocker lock(&m_registry->m_mutex);
        m_registry->m_lists.remove(name);
    }

    void stopAll()
    {
        const QStringList names = m_clients.keys();
        for (const QString &name : names)
            stop(name);
    }

    void dispatch(const QString &server, const QString &method, const JsonObject &params, qint64 timeoutMs,
                  const std::shared_ptr<McpWaiter> &waiter)
    {
        McpClient *client = m_clients.value(server);
        if (!client || !client->isReady()) {
            waiter->finish(Error{u"the MCP server \"%1\" is not connected"_s.arg(server)});
            return;
        }
        {
            QMutexLocker lock(&waiter->mutex);
            if (waiter->cancelled) {
                waiter->result = Error{u"cancelled"_s};
                waiter->done.wakeAll();
                return;
            }
        }
        const qint64 timeout = timeoutMs > 0 ? timeoutMs : client->config().requestTimeoutMs();
        const qint64 id = client->request(method, params, timeout, [waiter](Result<JsonValue> r) { waiter->finish(std::move(r)); });
        QMutexLocker lock(&waiter->mutex);
        waiter->id = id;
    }

    void cancel(const QString &server, qint64 id, const QString &reason)
    {
        if (McpClient *client = m_clients.value(server))
            client->cancel(id, reason);
    }

Q_SIGNALS:
    void serverChanged(const QString &name);
    void serverFailed(const QString &name, const QString &error);

private:
    void setFailed(const QString &name, const QString &error)
    {
        {
            QMutexLocker lock(&m_registry->m_mutex);
            m_registry->m_lists.remove(name);
        }
        m_registry->update(name, [&](McpServerStatus &s) {
            s.state = McpServerStatus::State::Failed;
            s.error = error;
            s.toolCount = s.promptCount = s.resourceCount = 0;
        });
        qCWarning(lcProcessor).noquote() << "MCP server" << name << "failed:" << error;
        Q_EMIT serverChanged(name);
        Q_EMIT serverFailed(name, error);
    }

    void publishLists(const QString &name, McpClient *client)
    {
        const McpLists lists = client->lists();
        {
            QMutexLocker lock(&m_registry->m_mutex);
            m_registry->m_lists.insert(name, lists);
        }
        m_registry->update(name, [&](McpServerStatus &s) {
            s.toolCount = int(lists.tools.size());
            s.promptCount = int(lists.prompts.size());
            s.resourceCount = int(lists.resources.size());
        });
    }

    std::shared_ptr<McpRegistry> m_registry;
    QNetworkAccessManager *m_network = nullptr;
    QHash<QString, McpServerConfig> m_configs;
    QHash<QString, McpClient *> m_clients;
};

// ---- McpRegistry

void McpRegistry::update(const QString &name, const std::function<void(McpServerStatus &)> &change)
{
    QMutexLocker lock(&m_mutex);
    for (McpServerStatus &s : m_servers) {
        if (s.name == name)
            change(s);
    }
    m_changed.wakeAll();
}

QList<McpServerStatus> McpRegistry::servers() const
{
    QMutexLocker lock(&m_mutex);
    return m_servers;
}

std::optional<McpServerStatus> McpRegistry::server(const QString &name) const
{
    QMutexLocker lock(&m_mutex);
    for (const McpServerStatus &s : m_servers) {
        if (s.name == name)
            return s;
    }
    return std::nullopt;
}

QList<McpLists> McpRegistry::connectedLists(const std::optional<QStringList> &only) const
{
    QMutexLocker lock(&m_mutex);
    QList<McpLists> lists;
    for (const McpServerStatus &s : m_servers) {
        if (s.state == McpServerStatus::State::Connected && (!only || only->contains(s.name)))
            lists.append(m_lists.value(s.name));
    }
    return lists;
}

QList<McpToolInfo> McpRegistry::tools(const std::optional<QStringList> &only) const
{
    QList<McpToolInfo> list;
    QHash<QString, qsizetype> byKey;
    for (const McpLists &lists : connectedLists(only)) {
        for (const McpToolInfo &tool : lists.tools) {
            const QString key = tool.key();
            if (const auto it = byKey.constFind(key); it != byKey.cend()) {
                list[*it] = tool;
                continue;
            }
            byKey.insert(key, list.size());
            list.append(tool);
        }
    }
    return list;
}

QList<McpPromptInfo> McpRegistry::prompts(const std::optional<QStringList> &only) const
{
    QList<McpPromptInfo> list;
    for (const McpLists &lists : connectedLists(only))
        list += lists.prompts;
    return list;
}

QList<McpResourceInfo> McpRegistry::resources(const std::optional<QStringList> &only) const
{
    QList<McpResourceInfo> list;
    for (const McpLists &lists : connectedLists(only))
        list += lists.resources;
    return list;
}

Result<JsonArray> McpRegistry::readResource(const QString &server, const QString &uri, const std::function<bool()> &aborted)
{
    const Result<JsonValue> answer = request(server, u"resources/read"_s, JsonObject{{u"uri"_s, uri}}, 0, aborted);
    if (!answer)
        return Error{McpTr::tr("the MCP server \"%1\" could not give its resource %2: %3")
                         .arg(server, uri, answer.error().message)};
    const JsonValue contents = answer->toObject().value(u"contents");
    // The SDK takes a single content as well as a list.
    if (contents.isObject())
        return JsonArray{contents};
    if (!contents.isArray())
        return Error{McpTr::tr("the MCP server \"%1\" answered without contents for its resource %2").arg(server, uri)};
    return contents.toArray();
}

Result<QString> McpRegistry::promptText(const QString &server, const QString &prompt, const JsonObject &arguments,
                                        const std::function<bool()> &aborted)
{
    JsonObject params;
    params.insert(u"name"_s, prompt);
    params.insert(u"arguments"_s, arguments);
    const Result<JsonValue> answer = request(server, u"prompts/get"_s, params, 0, aborted);
    if (!answer)
        return Error{McpTr::tr("the MCP server \"%1\" could not give its prompt \"%2\": %3")
                         .arg(server, prompt, answer.error().message)};
    QStringList texts;
    for (const JsonValue &message : answer->toObject().array(u"messages")) {
        const JsonObject content = message.toObject().object(u"content");
        // OpenCode keeps text contents and makes every other kind an empty line.
        texts.append(content.string(u"type") == u"text" ? content.string(u"text") : QString());
    }
    return texts.join(u'\n');
}

bool McpRegistry::waitUntilSettled(int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    QMutexLocker lock(&m_mutex);
    for (;;) {
        const bool connecting = std::any_of(m_servers.cbegin(), m_servers.cend(), [](const McpServerStatus &s) {
            return s.state == McpServerStatus::State::Connecting;
        });
        if (!connecting || m_closed)
            return !connecting;
        if (!m_changed.wait(&m_mutex, deadline))
            return false;
    }
}

Result<JsonValue> McpRegistry::request(const QString &server, const QString &method, const JsonObject &params,
                                       qint64 timeoutMs, const std::function<bool()> &aborted)
{
    auto waiter = std::make_shared<McpWaiter>();
    McpWorker *worker = nullptr;
    {
        QMutexLocker lock(&m_mutex);
        if (m_closed || !m_worker)
            return Error{u"MCP servers are shut down"_s};
        worker = m_worker;
        Q_ASSERT(QThread::currentThread() != worker->thread());
        // Posted while the lock is held: the worker is deleted only after m_closed is set.
        QMetaObject::invokeMethod(
            worker, [worker, server, method, params, timeoutMs, waiter] { worker->dispatch(server, method, params, timeoutMs, waiter); },
            Qt::QueuedConnection);
    }
    QMutexLocker lock(&waiter->mutex);
    while (!waiter->result) {
        waiter->done.wait(&waiter->mutex, QDeadlineTimer(50));
        if (waiter->result)
            break;
        {
            QMutexLocker registryLock(&m_mutex);
            if (m_closed)
                return Error{u"MCP servers are shut down"_s};
        }
        if (aborted && aborted() && !waiter->cancelled) {
            waiter->cancelled = true;
            const qint64 id = waiter->id;
            if (id >= 0) {
                QMutexLocker registryLock(&m_mutex);
                if (!m_closed && m_worker)
                    QMetaObject::invokeMethod(
                        m_worker, [worker, server, id] { worker->cancel(server, id, u"aborted"_s); }, Qt::QueuedConnection);
            }
            return Error{u"aborted"_s};
        }
    }
    return *waiter->result;
}

// ---- McpManager

McpManager::McpManager(QObject *parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_worker(new McpWorker(m_registry))
{
    m_thread->setObjectName(u"mcp"_s);
    m_worker->moveToThread(m_thread);
    connect(m_worker, &McpWorker::serverChanged, this, &McpManager::serverChanged);
    connect(m_worker, &McpWorker::serverFailed, this, &McpManager::serverFailed);
    m_registry->m_worker = m_worker;
    m_thread->start();
}

McpManager::~McpManager()
{
    {
        QMutexLocker lock(&m_registry->m_mutex);
        m_registry->m_closed = true;
        m_registry->m_worker = nullptr;
        m_registry->m_changed.wakeAll();
    }
    // The clients end on their own thread (a child process is asked to exit); then the worker
    // comes back to this thread and goes once its thread has ended.
    QThread *here = QThread::currentThread();
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, here] {
            worker->stopAll();
            worker->moveToThread(here);
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
}

static QMutex s_instanceMutex;
static QPointer<McpManager> s_instance;

bool McpManager::exists()
{
    QMutexLocker lock(&s_instanceMutex);
    return !s_instance.isNull();
}

McpManager *McpManager::instance()
{
    QMutexLocker lock(&s_instanceMutex);
    QPointer<McpManager> &manager = s_instance;
    if (!manager) {
        // A child of the application object: ended with it, after the windows and the runs.
        QCoreApplication *app = QCoreApplication::instance();
        manager = new McpManager(app && app->thread() == QThread::currentThread() ? app : nullptr);
    }
    return manager;
}

void McpManager::configure(const JsonObject &mcp)
{
    const QList<McpServerConfig> servers = parseMcpConfig(mcp);
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, servers] { worker->configure(servers); },
                              Qt::BlockingQueuedConnection);
}

void McpManager::include(const JsonObject &mcp)
{
    const QList<McpServerConfig> servers = parseMcpConfig(mcp);
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, servers] { worker->include(servers); },
                              Qt::BlockingQueuedConnection);
}

bool McpManager::reconnect(const QString &name)
{
    bool found = false;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, name, &found] { found = worker->start(name); },
                              Qt::BlockingQueuedConnection);
    return found;
}

} // namespace weft

#include "mcpmanager.moc"
