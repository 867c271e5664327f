// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "serverclient.h"

#include "core/prompt.h"

#include "core/types.h"

#include <QList>
#include <QString>

namespace weft
{

/// The route shapes of OpenCode 2's `/api` (a V2-only server, ServerProtocol::V2Only), in
/// Weft's types: what ServerStore asks such a server. Sessions come as `{data: Session.Info}`
/// and are mapped to the V1 sessions Weft's models read (sessionToV1()); lists page by the
/// body's `cursor.next` (or an `x-next-cursor` header).
///
/// Directory-scoped routes take `?location[directory]=` (locationQuery()); sessions' own
/// routes need none (the server knows each session's folder).
///
/// Every method waits for the server's answer (ServerClient::wait()): worker threads and the
/// command line only, as ServerStore's.
class ServerApiV2
{
public:
    ServerApiV2(const ServerClient &client, const QString &version);


    /// Every session's `Session.Info` (sessionToV1() makes each a session).
    [[nodiscard]] Result<JsonArray> sessionItems() const;
    [[nodiscard]] Result<Session> session(const QString &sessionID) const;
    /// The session's `Session.Message.Info` items, oldest first (the route pages newest first).
    [[nodiscard]] Result<JsonArray> messageItems(const QString &sessionID) const;
    [[nodiscard]] Result<QList<Project>> projects() const;
    /// The folder the server runs in (`GET /api/location`).
    [[nodiscard]] Result<QString> defaultDirectory() const;

    [[nodiscard]] Result<Session> create(const QString &directory, const QString &title) const;
    /// @p agent and @p model ("provider/model") are selected for the session first when given.
    [[nodiscard]] Result<void> prompt(const QString &sessionID, const QString &text, const QString &agent,
                                      const QString &model, const QString &messageID, PromptDelivery delivery) const;
    /// Blocks until the session's run ends (`POST /wait`).
    [[nodiscard]] Result<void> wait(const QString &sessionID) const;
    [[nodiscard]] Result<void> interrupt(const QString &sessionID) const;
    /// A copy of the session up to @p messageID (excluded), or whole when it is empty.
    [[nodiscard]] Result<Session> fork(const QString &sessionID, const QString &messageID) const;
    /// Compacts the session (the server's model) and waits until the summary is written.
    [[nodiscard]] Result<void> compact(const QString &sessionID) const;
    /// Stages a revert to @p messageID (its files restored; committed by the next prompt).
    [[nodiscard]] Result<Session> revert(const QString &sessionID, const QString &messageID) const;
    /// Clears a staged revert.
    [[nodiscard]] Result<Session> unrevert(const QString &sessionID) const;
    [[nodiscard]] Result<void> remove(const QString &sessionID) const;
    [[nodiscard]] Result<void> rename(const QString &sessionID, const QString &title) const;
    /// Replies to a form: @p answer is `{key: value}` (Form.Answer).
    [[nodiscard]] Result<void> replyForm(const QString &sessionID, const QString &formID, const JsonObject &answer) const;
    [[nodiscard]] Result<void> cancelForm(const QString &sessionID, const QString &formID) const;

    /// The agents (`{id, name, description, ...}`) and models (`{id, providerID, name, ...}`)
    /// for the composer, and the default model, in @p directory (the server's own when empty:
    /// a project's config may add agents and models).
    [[nodiscard]] Result<JsonArray> agents(const QString &directory) const;
    [[nodiscard]] Result<JsonArray> models(const QString &directory) const;
    [[nodiscard]] Result<JsonObject> defaultModel(const QString &directory) const;

    /// `Session.Info` as a V1 session: `location.directory` as `directory`, the server's version,
    /// a default title when it has none yet.
    [[nodiscard]] static Result<Session> sessionToV1(const JsonValue &info, const QString &version);
    /// `?location[directory]=` @p directory.
    [[nodiscard]] static QUrlQuery locationQuery(const QString &directory);
    /// A V2 form (`Form.Info`) as the question request of OpenCode's `question` tool (the
    /// question UI's shape, ServerEventWatcher::questionAsked()): one question per field, with
    /// `form: true` and the form under `formInfo`.
    [[nodiscard]] static JsonObject formAsQuestion(const JsonObject &form);
    /// The labels chosen for each question of formAsQuestion() as the form's answer.
    [[nodiscard]] static JsonObject formAnswer(const JsonObject &form, const QList<QStringList> &answers);
    [[nodiscard]] static QString path(const QString &sessionID, const QString &tail = {});
    /// Every item of the paged route @p route (`{data: [...], cursor: {previous, next}}`, the
    /// next page's cursor in the body or in `x-next-cursor`), in the route's order.
    [[nodiscard]] static Result<JsonArray> readPages(const ServerClient &client, const QString &route,
                                                     const QUrlQuery &query);

private:
    [[nodiscard]] Result<JsonValue> post(const QString &route, const JsonValue &body, int timeoutMs = -1) const;
    /// The `data` of a GET.
    [[nodiscard]] Result<JsonValue> data(const QString &route, const QUrlQuery &query = {}) const;

    ServerClient m_client;
    QString m_version;
};

} // namespace weft
