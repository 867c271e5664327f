// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include <QString>
#include <QUrl>

namespace weft
{

class ServerSource;
class SessionController;

/// An OpenCode server's address as the user gives it (File › Connect to OpenCode Server…, the
/// remembered servers): http://HOST:PORT, or an ssh:// target ([user@]host[:port][/project]) on
/// which Weft starts the server itself through ssh, with no password. What the window needs of the
/// server layer's addresses (ServerClient, SshTarget) without including its headers.
struct ServerAddress {
    QUrl url; ///< normalised: the address the source is known by, and what is remembered
    bool ssh = false;
    QString sshHost; ///< an ssh:// target's host as the user reads it (empty for http)

    /// Whether @p text is meant as an ssh:// target (parse() then reads it as one).
    [[nodiscard]] static bool isSsh(const QString &text);
    /// Reads @p text as an http address or an ssh:// target, or says why it is neither.
    [[nodiscard]] static Result<ServerAddress> parse(const QString &text);
};

/// Connects @p controller to the server at @p address (SessionController::addServer()); an
/// ssh:// target takes no @p password.
ServerSource *addServer(SessionController &controller, const ServerAddress &address, const QString &password);

} // namespace weft
