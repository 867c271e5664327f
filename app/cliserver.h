// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The command line against an OpenCode server (`weft --server URL ...`).

#include "cli.h"
#include "core/result.h"

#include <QStringList>

#include <memory>

namespace weft
{
class ServerStore;
class SessionService;
}

namespace weft::Cli
{

/// Connects to --server, with the password of --password-file or $OPENCODE_SERVER_PASSWORD.
[[nodiscard]] Result<std::shared_ptr<ServerStore>> connectServer(const GlobalOptions &options);

/// What `weft --server URL run` sends.
struct ServerRunRequest {
    QString sessionID; ///< empty: a new session
    QString directory; ///< for a new session: the project folder on the server (empty: the server's)
    QString text;
    QString agent;
    QString model;
    bool autoApprove = false;
};

/// Sends a prompt to the server and prints the answer as it streams, as `weft run` does locally;
/// returns the exit code (non-zero when the run fails).
int serverRun(const std::shared_ptr<ServerStore> &server, const std::shared_ptr<SessionService> &service,
              const ServerRunRequest &request);

} // namespace weft::Cli
