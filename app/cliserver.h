// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The command line against an OpenCode server (`weft --server URL ...`).

#include "cli.h"
#include "core/result.h"
#include "server/serverstore.h"
#include "server/sshtunnel.h"

#include <QStringList>

#include <memory>

namespace weft
{
class ServerStore;
class SessionService;
class SshTunnel;
}

namespace weft::Cli
{

/// A connected --server: the store, and for an ssh:// server the tunnel that must outlive it.
struct ServerConnection {
    /// Declared first, so that it goes last: it stops the remote server.
    std::unique_ptr<SshTunnel> tunnel;
    std::shared_ptr<ServerStore> store;
};

/// Connects to --server: an http(s):// server with the password of --password-file or
/// $OPENCODE_SERVER_PASSWORD (else $OPENCODE_PASSWORD), or an ssh:// target, where `opencode serve` is started for the
/// command (and stopped when the connection goes).
[[nodiscard]] Result<ServerConnection> connectServer(const GlobalOptions &options);

/// What `weft --server URL run` sends.
struct ServerRunRequest {
    QString sessionID; ///< empty: a new session
    QString directory; ///< for a new session: the project folder on the server (empty: the server's)
    QString text;
    QString agent;
    QString model;
    bool autoApprove = false;
    /// For a session that runs: steer or queue (OpenCode 2).
    PromptDelivery delivery = PromptDelivery::Default;
};

/// Sends a prompt to the server and prints the answer as it streams, as `weft run` does locally;
/// returns the exit code (non-zero when the run fails). On OpenCode 2 the run is over when the
/// prompt was taken into the conversation (`session.input.promoted`; a queued one waits for the
/// run before it) and the session is idle again.
int serverRun(const std::shared_ptr<ServerStore> &server, const std::shared_ptr<SessionService> &service,
              const ServerRunRequest &request);

} // namespace weft::Cli
