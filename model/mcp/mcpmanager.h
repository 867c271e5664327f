// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The MCP servers of a process: started once from the config's `mcp` object (not per run), on a
// thread of their own, with a state per server that views follow, and their tools for the agent
// loop. A server that cannot start, times out or dies is reported and can be reconnected; the
// others keep working.

#include "mcpclient.h"
#include "mcpconfig.h"

#include "core/json.h"
#include "core/result.h"

#include <QMutex>
#include <QObject>
#include <QStringList>
#include <QWaitCondition>

#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace weft
{

class McpWorker;

/// The thread-safe face of the servers: their states, their tools, and requests that wait for
/// the answer. Shared by the manager, the tools it hands out and the processor's runs, so that it
/// outlives whichever goes first.
class McpRegistry
{
public:
    [[nodiscard]] QList<McpServerStatus> servers() const;
    [[nodiscard]] std::optional<McpServerStatus> server(const QString &name) const;
    /// The tools of the connected servers (of those named in @p only, when given), in config
    /// order. Keys are unique (a later tool whose sanitised name repeats an earlier one replaces
    /// it, as in OpenCode).
    [[nodiscard]] QList<McpToolInfo> tools(const std::optional<QStringList> &only = std::nullopt) const;
    [[nodiscard]] QList<McpPromptInfo> prompts(const std::optional<QStringList> &only = std::nullopt) const;
    [[nodiscard]] QList<McpResourceInfo> resources(const std::optional<QStringList> &only = std::nullopt) const;
    /// The text of prompt @p prompt of server @p server (prompts/get with @p arguments): the
    /// text contents of its messages joined by newlines, as OpenCode makes a command's template.
    [[nodiscard]] Result<QString> promptText(const QString &server, const QString &prompt, const JsonObject &arguments,
                                             const std::function<bool()> &aborted = {});
    /// Reads resource @p uri of server @p server (resources/read): its `contents`, each with
    /// `uri`, `mimeType` and `text` or `blob` (base64).
    [[nodiscard]] Result<JsonArray> readResource(const QString &server, const QString &uri,
                                                 const std::function<bool()> &aborted = {});
    /// Waits until no server is connecting, at most @p timeoutMs; true when none is.
    bool waitUntilSettled(int timeoutMs) const;

    /// Sends @p method to server @p server and waits for the answer, from any thread but the MCP
    /// thread. @p timeoutMs <= 0 takes the server's request timeout. Gives up when @p aborted
    /// says so (the server is told), the server fails or the manager closes.
    [[nodiscard]] Result<JsonValue> request(const QString &server, const QString &method, const JsonObject &params,
                                            qint64 timeoutMs = 0, const std::function<bool()> &aborted = {});

private:
    friend class McpManager;
    friend class McpWorker;
    void update(const QString &name, const std::function<void(McpServerStatus &)> &change);
    /// What the connected servers (those named in @p only, when given) offer, in config order.
    [[nodiscard]] QList<McpLists> connectedLists(const std::optional<QStringList> &only) const;

    mutable QMutex m_mutex;
    mutable QWaitCondition m_changed;
    QList<McpServerStatus> m_servers;
    QHash<QString, McpLists> m_lists; ///< of the connected servers
    McpWorker *m_worker = nullptr; ///< valid while !m_closed (guarded by m_mutex)
    bool m_closed = false;
};

/// Owns the MCP thread and the servers. Lives on the thread that made it (the GUI thread);
/// its signals arrive there.
class McpManager : public QObject
{
    Q_OBJECT

public:
    explicit McpManager(QObject *parent = nullptr);
    ~McpManager() override;

    /// The process-wide manager (made on first use, ended with the application).
    [[nodiscard]] static McpManager *instance();
    /// Whether instance() was made (and still lives).
    [[nodiscard]] static bool exists();

    /// Takes the config's `mcp` object: new servers start, removed ones stop, changed ones
    /// restart, unchanged ones keep running.
    void configure(const JsonObject &mcp);
    /// Adds the servers of a project's `mcp` object: new ones start and changed ones restart;
    /// servers it does not name keep running (another project's sessions may use them).
    void include(const JsonObject &mcp);
    /// Stops server @p name (when running) and starts it again, even when the config disables it
    /// (OpenCode's connect). False when no such server is configured.
    bool reconnect(const QString &name);

    [[nodiscard]] QList<McpServerStatus> servers() const { return m_registry->servers(); }
    [[nodiscard]] std::optional<McpServerStatus> server(const QString &name) const { return m_registry->server(name); }
    [[nodiscard]] std::shared_ptr<McpRegistry> registry() const { return m_registry; }
    /// Reads resource @p uri of server @p server (resources/read): its `contents`, each with
    /// `uri`, `mimeType` and `text` or `blob` (base64).
    [[nodiscard]] Result<JsonArray> readResource(const QString &server, const QString &uri,
                                                 const std::function<bool()> &aborted = {});
    /// Waits until no server is connecting (each gives up after its own timeouts), at most
    /// @p timeoutMs.
    bool waitForStartup(int timeoutMs = 120000) const { return m_registry->waitUntilSettled(timeoutMs); }

Q_SIGNALS:
    /// A server's state, tools or log changed.
    void serverChanged(const QString &name);
    /// A server failed (could not start, timed out, died): a notice for the user.
    void serverFailed(const QString &name, const QString &error);

private:
    std::shared_ptr<McpRegistry> m_registry = std::make_shared<McpRegistry>();
    QThread *m_thread = nullptr;
    McpWorker *m_worker = nullptr;
};

} // namespace weft
