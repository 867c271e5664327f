// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/types.h"

#include <QStringList>

#include <functional>

namespace weft
{

class SessionService;
class Store;

/// Copies sessions of another store (normally OpenCode's database) into Weft's own store, so
/// that they can be forked, compacted and continued there.
namespace DbImport
{

struct Imported {
    QString sourceID;      ///< the session's ID in the source store
    Session session;       ///< the copy in the target store (empty when it failed)
    bool idsChanged = false; ///< the IDs were taken in the target store: the copy has new ones
    QString error;         ///< why this session was not copied
    QList<PermissionRule> droppedPermissions; ///< see Transfer::ImportResult
};

/// Copies @p sessionIDs (every session when empty) and all their child sessions from @p source
/// into @p target, through Transfer::importSession: IDs are kept where they are free, and
/// renewed for the whole session where they collide. Parents are copied before their children,
/// and a child whose parent got a new ID points to the new ID. The projects of the copied
/// sessions are written when the target does not have them. An unknown session ID is an error
/// before anything is written; a session that fails is reported in its entry and the others are
/// still copied. @p progress is called with (done, total) after each session.
[[nodiscard]] Result<QList<Imported>> importSessions(Store &source, SessionService &target, const QStringList &sessionIDs,
                                                     const std::function<void(int, int)> &progress = {});

} // namespace DbImport
} // namespace weft
