// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `weft mcp list`: the MCP servers of the config and their state (OpenCode's `opencode mcp list`).

#include "cli.h"

#include <QStringList>

namespace weft::Cli
{

/// `weft [--config FILE] mcp list [--format json|text]`: connects to every enabled server of the
/// config's `mcp` object (waiting for each as a run would), then prints one line per server with
/// its state, transport and tool count, or why it failed. Exits 1 when a server failed.
int mcpCommand(const GlobalOptions &options, const QStringList &args);

} // namespace weft::Cli
