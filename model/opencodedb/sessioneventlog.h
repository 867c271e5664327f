// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sessionmessagev2.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace weft::SessionEventLog
{

/// One row of OpenCode 2's `event` table (the session's aggregate): its stored `type` carries a
/// version suffix ("session.step.ended.1", "session.tool.success.2").
struct Event
{
    qint64 seq = 0;
    /// `created`, in ms (0 when the column is absent).
    qint64 created = 0;
    QString type;
    /// The event's JSON, as UTF-8.
    QByteArray data;
};

/// The event name without its version suffix: "session.tool.success.2" → "session.tool.success".
/// OpenCode 1.18's names (`session.next.*`) are given the 2.x name they became.
[[nodiscard]] QString baseName(const QString &storedType);

/// The `session_message` rows that OpenCode 2 would have written for the session whose events
/// these are (in `seq` order), rebuilt from them: a user row per admitted prompt, an assistant row
/// per step with its text, reasoning and tool calls (input, output or error), finish, usage and
/// snapshots. For a session whose rows are missing; events that add nothing to the conversation
/// (execution, instructions, renames) are skipped.
[[nodiscard]] QList<SessionMessageV2::Row> rebuildRows(const QString &sessionID, const QList<Event> &events);

} // namespace weft::SessionEventLog
