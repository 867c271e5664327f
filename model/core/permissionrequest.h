// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A tool's question to the user and the answers to it, as values: what the processor's
// PermissionGate and an OpenCode server ask (processor/permission.h decides them), what the
// controller, the attention inbox and the window pass around and show.

#include "core/json.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace weft
{

/// One question of a tool to the user: may it do this?
struct PermissionRequest
{
    QString id;
    QString sessionID;
    QString messageID;
    QString callID;
    QString permission; ///< "edit", "bash", "external_directory", "doom_loop", ...
    QStringList patterns; ///< "always" approves each of them exactly
    JsonObject metadata;
    QStringList always;      ///< wildcard patterns "always" approves as well (see PermissionAsk)
    bool unresolved = false; ///< see PermissionAsk::unresolved
};

enum class PermissionReply { Once, Always, Reject };

} // namespace weft

Q_DECLARE_METATYPE(weft::PermissionRequest)
