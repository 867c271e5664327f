// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/types.h"

#include <QSet>
#include <QString>

#include <functional>
#include <optional>

namespace weft::SessionMessageV2
{

/// One row of OpenCode's `session_message` table (sessions prompted through the V2 API, OpenCode
/// 1.18 and later): `type` is "user", "assistant" or another kind of V2 message.
struct Row
{
    QString id;
    QString sessionID;
    QString type;
    qint64 seq = 0;
    qint64 timeCreated = 0;
    /// The row's JSON, as UTF-8 (as SQLite stores it).
    QByteArray data;
};

/// What a row needs from its neighbours to become a V1 message.
struct Context
{
    /// The user message an assistant message answers (its `parentID`): the nearest preceding
    /// user row. Empty when there is none; the message's own ID is used then.
    QString parentID;
    /// For a user row: the agent and model of the assistant row that follows it (V2 user rows
    /// store neither), as `{agent, model: {id, providerID}}` of that row's data; empty when none.
    JsonObject answer;
    /// For an assistant row: its `path` (`{cwd, root}`, which V1 requires): the session's
    /// directory and its project's worktree; empty when unknown.
    JsonObject path;
};

/// The deterministic ID of the @p index-th part of message @p messageID: `prt_` and 26
/// characters (the message ID's 12 hex digits and 10 of its random characters, then the index
/// in 4 base-62 digits), so that a message's parts ascend in content order.
[[nodiscard]] QString partID(const QString &messageID, int index);

/// True for the row types that become a message (user, assistant, synthetic, system, shell,
/// compaction); agent and model switches do not.
[[nodiscard]] bool becomesMessage(QStringView type);

/// Maps @p row to the V1 message and parts OpenCode writes for a V1 prompt. Null (with @p why
/// set) when the data column is not a JSON object or the result is not a valid message; null
/// with @p why empty for a row that is no message.
[[nodiscard]] std::optional<MessageWithParts> toV1(const Row &row, const Context &context, QString *why);

/// True for the row types that become a user message (every message type but "assistant").
[[nodiscard]] bool isUser(QStringView type);

/// The agent and model of an assistant row's data, for the user message it answers
/// (Context::answer).
[[nodiscard]] JsonObject answerOf(const QByteArray &data);

/// Maps the rows of one session, in `seq` order, to its V1 messages: each user row takes the
/// agent and model of the assistant row that follows it, each assistant row answers the nearest
/// preceding user row, and every assistant message gets @p path. A row that cannot be mapped is
/// passed to @p problem with the reason and left out.
///
/// With @p only, just the rows of those IDs are mapped: @p rows are still all of the session's,
/// in `seq` order, but only those rows and the assistant row after each of their user rows need
/// their data (rowsNeeded()); the others may have none.
[[nodiscard]] QList<MessageWithParts> sessionToV1(const QList<Row> &rows, const JsonObject &path,
                                                  const std::function<void(const Row &, const QString &)> &problem,
                                                  const QSet<QString> *only = nullptr);

/// The indexes in @p rows (a session's, in `seq` order) of the rows whose data sessionToV1()
/// reads to map the rows of @p only: those rows, the assistant row after each of their user rows
/// and the user row before each of their assistant rows.
[[nodiscard]] QList<qsizetype> rowsNeeded(const QList<Row> &rows, const QSet<QString> &only);

/// The parsed data of @p row, or null when it is not a JSON object.
[[nodiscard]] std::optional<JsonObject> parseData(const QByteArray &data);

} // namespace weft::SessionMessageV2
