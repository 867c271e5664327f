// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `weft --server service[:CHANNEL] ...`: the command line against OpenCode's background service.

#include "cliserver.h"

namespace weft::Cli
{

/// Connects to the OpenCode service of @p channel (empty: the default one) that this user runs,
/// found through its service file (ServiceFile) and reached with the password there, which is
/// never printed. An error says why there is none or why its file is not trusted.
[[nodiscard]] Result<ServerConnection> connectService(const QString &channel, const GlobalOptions &options);

} // namespace weft::Cli
