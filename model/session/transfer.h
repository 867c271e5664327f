// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/result.h"
#include "core/types.h"

namespace weft
{

class SessionService;

/// `opencode export` and `opencode import`: a session with its messages and parts as one JSON
/// document, `{info, messages: [{info, parts}]}`.
namespace Transfer
{

/// The export document of @p sessionID, messages in order, parts in order.
[[nodiscard]] Result<JsonObject> exportSession(const SessionService &service, const QString &sessionID);

/// The export document as `opencode export` prints it (2-space indent, trailing newline).
[[nodiscard]] QByteArray formatExport(const JsonObject &document);
/// What becomes of each message once writeExport() has serialized it, on the pool thread that
/// did: by default it is freed there.
using ExportedMessageSink = std::function<void(MessageWithParts &&message)>;

/// formatExport(exportSession()) written piece by piece to @p write while the session is read:
/// each message is serialized on the thread pool as soon as the store has read it, and the
/// export is never held whole (a 36 MB export, a few messages at a time). A process that ends
/// next (`weft export`) may take the messages with @p done instead of having them freed: freeing
/// 3,000 messages value by value took a fifth of such an export's time.
[[nodiscard]] Result<void> writeExport(const SessionService &service, const QString &sessionID,
                                       const std::function<void(QByteArrayView)> &write,
                                       const ExportedMessageSink &done = {});

/// Checks that @p document is a valid export: info is a Session, every message and part
/// validates and belongs to that session and message. Returns every issue with its JSON path.
[[nodiscard]] QList<ValidationIssue> validateExport(const JsonValue &document);

struct ImportResult {
    Session session;
    bool idsChanged = false; ///< some IDs were taken and were replaced by new ones
    /// The session's permission rules that were dropped: every `allow` and `ask` rule (they come
    /// after the user's config and would win over it); `deny` rules only narrow and stay.
    QList<PermissionRule> droppedPermissions;
};

/// A line for the user naming the permission rules an import dropped ("permission rules
/// dropped (2), as they would have granted ...: bash * allow, edit * ask"), or empty when none was.
[[nodiscard]] QString describeDropped(const QList<PermissionRule> &dropped);

/// Writes the session of an export document into @p service's store: the one place every import
/// (a file, OpenCode's database, a window's drop) goes through. An imported session is untrusted
/// input:
/// - IDs are kept where they are free anywhere in the store; where the session ID or any message
///   or part ID is taken (by any session), the session, its messages and parts get new IDs
///   (parent references remapped), so no file of another session is ever overwritten.
/// - Its permission rules that could widen the user's config (`allow`, `ask`) are dropped.
/// - It gets an unconfirmed SessionService::ImportNote: runs and reverts refuse its directory
///   until the user has accepted it.
/// An invalid document is refused before anything is written.
[[nodiscard]] Result<ImportResult> importSession(SessionService &service, const JsonValue &document);

/// Reads and imports an export file.
[[nodiscard]] Result<ImportResult> importFile(SessionService &service, const QString &path);

} // namespace Transfer
} // namespace weft
