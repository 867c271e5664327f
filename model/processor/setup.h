// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor.h"
#include "provider/config.h"

#include <memory>

namespace weft
{

/// The processor's configuration made from OpenCode's configuration files and Weft's own, and
/// the built-in model catalogue.
struct ProcessorSetup {
    std::shared_ptr<const ProviderFactory> factory;
    ProcessorConfig config;
};

/// Discovers the configuration of @p directory as OpenCode finds it (ConfigDiscovery: the global
/// and project opencode.json(c) files, .opencode folders, markdown agents and commands), with
/// @p configFile (empty: $XDG_CONFIG_HOME/weft/weft.json; a missing default file is no layer) last,
/// and prepares the processor for @p dataDir. The processor discovers it again for the directory
/// of each run (ProcessorConfig::loadProject), so a project's files apply to its sessions and
/// edits apply from the next prompt.
[[nodiscard]] Result<ProcessorSetup> loadProcessorSetup(const QString &configFile, const QString &dataDir,
                                                        const QString &directory = {});

/// The same from an already loaded config, without discovery (the config applies everywhere).
[[nodiscard]] Result<ProcessorSetup> makeProcessorSetup(const Config &config, const QString &dataDir);

/// How useMcpServers() treats the servers already running.
enum class McpUse {
    Replace, ///< the process's configuration: servers it does not name stop
    Include, ///< a project's: servers it does not name keep running for other sessions
};
/// Starts the MCP servers that @p processorConfig names (its `mcp` object) in the process's
/// McpManager, unless they run, and gives its runs their tools and prompts (`mcpServers`). The
/// servers live once per process, not per run. Call on the main thread.
void useMcpServers(ProcessorConfig &processorConfig, McpUse use);

/// Sets what @p config decides in @p processorConfig for sessions in @p directory (in the project
/// at @p worktree): models, permission rules, agents, compaction, snapshots, instructions,
/// commands and the MCP servers it names (not started: see useMcpServers()). The run-time
/// settings (data dir, ask policy, retries, titles) stay as they are.
[[nodiscard]] Result<std::shared_ptr<const ProviderFactory>> applyConfig(ProcessorConfig &processorConfig,
                                                                        const Config &config,
                                                                        const QString &directory,
                                                                        const QString &worktree);

} // namespace weft
