// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view follows
// the MCP servers through McpServers (app/mcpservers.h; their states are core's values). Must fail
// to compile.
#include "mcp/mcpmanager.h"

int weftLayerProbe()
{
    return 0;
}
