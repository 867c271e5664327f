// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/types.h"
#include "snapshot.h"

namespace weft
{

class DiffDocument;
class SessionService;

/// OpenCode's SessionRevert: undo the file changes of a session from a message (or a part) on,
/// hide the messages after it, and bring everything back until the next prompt commits it.
namespace Revert
{

/// Restores the project's files to their state before @p messageID (or before @p partID of it)
/// from the shadow-git snapshots of the later steps, and records `revert{messageID, partID?,
/// snapshot, diff}` on the session. Reverting a whole assistant message reverts its user turn.
/// The messages stay in the store, hidden, until cleanup(). Refused where plan() refuses.
Result<Session> revert(SessionService &service, const QString &dataDir, const QString &sessionID,
                       const QString &messageID, const QString &partID = {});

/// What revert() would do to the files (those written back, those deleted), or why it would
/// refuse: an imported session whose directory is not confirmed
/// (SessionService::checkDirectoryConfirmed()), or Snapshot::planRevert()'s reasons. What a
/// window's confirmation lists.
Result<Snapshot::RevertPlan> plan(SessionService &service, const QString &dataDir, const QString &sessionID,
                                  const QString &messageID, const QString &partID = {});

/// Puts the files back as they were before revert() and clears the session's revert state.
Result<Session> unrevert(SessionService &service, const QString &dataDir, const QString &sessionID);

/// Commits a pending revert: deletes the hidden messages (and parts) and clears the revert
/// state. Called when the next prompt is sent.
Result<void> cleanup(SessionService &service, const QString &sessionID);

/// The messages a view shows for a session with a pending revert: those before the cut.
[[nodiscard]] QList<MessageWithParts> visibleMessages(const Session &session, const QList<MessageWithParts> &messages);

} // namespace Revert

/// Putting one file of a diff back as it was, safely (the changes pane's "Revert File"; the
/// document comes from model/diff).
namespace FileRevert
{

/// The absolute path of @p file (a path from a diff: relative to @p base, the project's work
/// tree, or absolute), refused unless it lies inside @p directory (the session's directory)
/// once `..` and symbolic links are resolved.
[[nodiscard]] Result<QString> resolve(const QString &base, const QString &directory, const QString &file);

/// Puts the file at @p absolutePath back to the "before" side of @p document: writes the old
/// contents (the patch form is applied backwards to the current file), or deletes the file when
/// it did not exist before.
Result<void> revert(const DiffDocument &document, const QString &absolutePath);

} // namespace FileRevert

} // namespace weft
