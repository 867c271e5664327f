// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "serverapiv2.h"
#include "serverclient.h"
#include "store/store.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QSet>

#include <memory>

namespace weft
{

/// The sessions of an OpenCode server (`opencode serve`), read through its routes.
///
/// A V2-only server (OpenCode 2, ServerProtocol::V2Only) is spoken to through its `/api`
/// routes for everything (ServerApiV2, the one place that knows their shapes); its sessions'
/// messages are mapped as below. On OpenCode 1.x, reads use the V1 routes (`/experimental/session`, `/session/{id}`, `/session/{id}/message`),
/// which answer in the shapes of OpenCode's JSON files; a session prompted through the V2 routes
/// has no V1 messages and is read from `/api/session/{id}/message` instead, mapped to V1 messages
/// as the database backend maps `session_message` rows (SessionMessageV2). Unknown fields are
/// kept.
///
/// The server runs its sessions itself (StoreCapability::RunsOnServer): Weft never writes them
/// through the Store write methods, which fail; prompts, abort, fork, compaction, revert, delete
/// and permission answers are requests to the server (the methods below), and what the server
/// then records comes back through its event stream (createWatcher(): a ServerEventWatcher).
///
/// The reads of the Store interface and the operations below wait for the server's answer
/// (ServerClient::wait(), no event loop): call them on worker threads (SessionService's reads,
/// ServerSource's operations run there) or from the command line, never on the GUI thread.
///
/// A session's messages are read once per 3 seconds at most: a view that asks for a session's
/// message IDs, then some messages, then their parts, reads it once. The event stream's watcher
/// forgets the copy when the session changes (forget()).
class ServerStore : public Store
{
public:
    /// Probes the server (ServerClient::probe()) and makes its store.
    [[nodiscard]] static QFuture<Result<std::shared_ptr<ServerStore>>> connect(const ServerClient &client);

    ServerStore(const ServerClient &client, const ServerInfo &info);
    ~ServerStore() override;

    [[nodiscard]] const ServerClient &client() const { return m_client; }
    [[nodiscard]] const ServerInfo &info() const { return m_info; }

    [[nodiscard]] QString location() const override;
    [[nodiscard]] StoreCapabilities capabilities() const override;
    [[nodiscard]] StoreWatcher *createWatcher(QObject *parent) override;

    [[nodiscard]] QList<Project> projects() override;
    [[nodiscard]] QList<Session> sessions() override;
    [[nodiscard]] std::optional<Session> session(const QString &sessionID) override;
    [[nodiscard]] QList<Message> messages(const QString &sessionID) override;
    [[nodiscard]] QList<Part> parts(const QString &sessionID, const QString &messageID) override;
    [[nodiscard]] std::optional<Message> message(const QString &sessionID, const QString &messageID) override;
    [[nodiscard]] QList<FileDiff> sessionDiff(const QString &sessionID) override;
    [[nodiscard]] QList<MessageWithParts> messagesWithParts(const QString &sessionID) override;
    [[nodiscard]] QList<MessageWithParts> withParts(const QString &sessionID, const QList<Message> &infos) override;
    [[nodiscard]] NewestMessages newestMessages(const QString &sessionID, qsizetype count) override;

    Result<void> writeProject(const Project &project) override;
    Result<void> writeSession(const Session &session) override;
    Result<void> writeMessage(const Message &message) override;
    Result<void> writePart(const Part &part) override;
    Result<void> writeSessionDiff(const QString &sessionID, const QList<FileDiff> &diffs) override;
    Result<void> removeSession(const Session &session) override;
    Result<void> removeMessage(const QString &sessionID, const QString &messageID) override;
    Result<void> removePart(const QString &sessionID, const QString &messageID, const QString &partID) override;

    /// The session's messages as read, with an error instead of an empty list when the server
    /// could not be read (what `weft export` must not confuse with an empty session).
    [[nodiscard]] Result<QList<MessageWithParts>> readMessages(const QString &sessionID);
    /// The session, or the server's error ("not found" included).
    [[nodiscard]] Result<Session> readSession(const QString &sessionID);
    /// Every session, or the server's error.
    [[nodiscard]] Result<QList<Session>> readSessions();

    // What the server does with its sessions.

    /// The folder the server runs in when no session says otherwise (`GET /path`).
    [[nodiscard]] Result<QString> defaultDirectory();
    /// A new session in @p directory (the server's own when empty).
    Result<Session> create(const QString &directory, const QString &title = {});
    /// Sends @p text as a prompt; the server answers asynchronously (follow the event stream).
    /// @p model is "provider/model" or empty for the session's or server's default;
    /// @p messageID the user message's ID (the server makes one when empty). @p delivery, for a
    /// session that is running: steer it (the prompt joins the running turn) or queue the
    /// prompt after the run (OpenCode 2 only; an error on OpenCode 1.x).
    Result<void> prompt(const QString &sessionID, const QString &text, const QString &agent = {},
                        const QString &model = {}, const QString &messageID = {},
                        PromptDelivery delivery = PromptDelivery::Default);
    /// Renames the session; its new state as the server has it.
    Result<Session> rename(const QString &sessionID, const QString &title);
    /// The agents and models the server offers for a prompt (OpenCode 2's `/api/agent` and
    /// `/api/model`, each `{id, name, ...}`; a model has `providerID`) in @p directory (the
    /// server's own when empty); empty on OpenCode 1.x.
    [[nodiscard]] Result<JsonArray> agents(const QString &directory = {});
    [[nodiscard]] Result<JsonArray> models(const QString &directory = {});
    /// The model a prompt takes when it names none ("provider/model"; empty on OpenCode 1.x).
    [[nodiscard]] Result<QString> defaultModel(const QString &directory = {});
    /// Stops the session's run.
    Result<void> abort(const QString &sessionID);
    Result<Session> fork(const QString &sessionID, const QString &messageID = {});
    /// Compacts the session with @p model ("provider/model"; the last used one when empty).
    /// Blocks until the summary is written (up to 10 minutes).
    Result<void> compact(const QString &sessionID, const QString &model = {});
    Result<Session> revert(const QString &sessionID, const QString &messageID, const QString &partID = {});
    Result<Session> unrevert(const QString &sessionID);
    Result<void> remove(const QString &sessionID);
    /// Answers a permission question: "once", "always" or "reject"; @p v2 for a question of a
    /// V2 session (`permission.v2.asked`).
    Result<void> replyPermission(const QString &sessionID, const QString &requestID, const QString &reply,
                                 bool v2 = false);

    /// Answers a question of OpenCode's `question` tool: for each question, the labels chosen
    /// (or the user's own text); @p v2 for a question of a V2 session.
    Result<void> replyQuestion(const QString &sessionID, const QString &requestID, const QList<QStringList> &answers,
                               bool v2 = false);
    /// Declines to answer it (the tool call fails and the agent goes on).
    Result<void> rejectQuestion(const QString &sessionID, const QString &requestID, bool v2 = false);
    /// Answers or cancels a form of OpenCode 2 (`form.created`, shown as a question:
    /// ServerApiV2::formAsQuestion()): @p form is the request as questionAsked() carried it.
    Result<void> replyForm(const JsonObject &form, const QList<QStringList> &answers);
    Result<void> cancelForm(const JsonObject &form);

    // OpenCode 1.18's worktrees (`/experimental/worktree`); an OpenCode 2 server, or a 1.x one
    // without the routes, has none: an error that says so.
    /// The folders of the server's worktrees of the project of @p sessionID.
    [[nodiscard]] Result<QStringList> worktrees(const QString &sessionID);
    /// The folder @p sessionID works in.
    [[nodiscard]] QString folderOf(const QString &sessionID) { return directoryOf(sessionID); }
    /// Makes a worktree of @p sessionID's project named @p name (the server names it when empty)
    /// and runs the project's start command there: `{name, branch, directory}`.
    Result<JsonObject> createWorktree(const QString &sessionID, const QString &name);
    /// Removes the server's worktree at @p worktree, of @p sessionID's project (the server
    /// deletes its branch too).
    Result<void> removeWorktree(const QString &sessionID, const QString &worktree);

    /// Forgets the copy of @p sessionID's messages (it changed on the server).
    void forget(const QString &sessionID);
    /// Notes that @p sessionID is a V2 session (prompted through `/api`): its prompts, Stop and
    /// permission answers take the V2 routes. Learnt from its messages and from V2 events.
    void markV2(const QString &sessionID);
    [[nodiscard]] bool isV2(const QString &sessionID);

private:
    /// The requests, waited for.
    [[nodiscard]] Result<JsonValue> get(const QString &path, const QUrlQuery &query = {}) const;
    [[nodiscard]] Result<JsonValue> post(const QString &path, const JsonValue &body, const QUrlQuery &query = {},
                                         int timeoutMs = -1) const;
    [[nodiscard]] Result<JsonValue> del(const QString &path, const QUrlQuery &query = {}, const JsonValue &body = {}) const;
    /// A worktree route's error in words: "not available on this server" for a missing route.
    [[nodiscard]] static Error worktreeError(const Error &error);
    [[nodiscard]] Result<QList<MessageWithParts>> readV2Messages(const QString &sessionID);
    /// The items of `/api/session/{id}/message` (any order) as V1 messages, in time order.
    [[nodiscard]] QList<MessageWithParts> v2Messages(const QString &sessionID, const JsonArray &items);
    /// The messages of an answer of the V1 route `/session/{id}/message` (problems reported).
    [[nodiscard]] QList<MessageWithParts> v1Messages(const QString &sessionID, const JsonValue &answer);
    /// `directory=` of @p sessionID, so that the server's instance of the session's project runs it.
    [[nodiscard]] QUrlQuery instanceOf(const QString &sessionID);
    /// The folder of @p sessionID: as learnt from the server's answers, else read.
    [[nodiscard]] QString directoryOf(const QString &sessionID);
    [[nodiscard]] static Result<void> readOnly();

    ServerClient m_client;
    ServerInfo m_info;
    /// The `/api` routes of a V2-only server; null for OpenCode 1.x.
    std::optional<ServerApiV2> m_api;

    struct Cached {
        QList<MessageWithParts> messages;
        QElapsedTimer age;
    };
    QMutex m_mutex;
    QHash<QString, Cached> m_cache;
    QHash<QString, QString> m_directories;
    QSet<QString> m_v2Sessions;
};

} // namespace weft
