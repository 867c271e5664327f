// SPDX-License-Identifier: GPL-3.0-or-later
#include "setup.h"

#include "core/tr.h"
#include "permission.h"

#include "core/project.h"
#include "mcp/mcpmanager.h"
#include "provider/configdiscovery.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace weft
{

Result<std::shared_ptr<const ProviderFactory>> applyConfig(ProcessorConfig &pc, const Config &config,
                                                           const QString &directory, const QString &worktree)
{
    auto factory = std::make_shared<const ProviderFactory>(config);

    Result<PermissionRuleset> permission = config.permission().isUndefined() ? Result<PermissionRuleset>(PermissionRuleset())
                                                                              : Permission::parseConfig(config.permission());
    if (!permission)
        return Error{permission.error().message, config.path() + u": permission"_s};
    pc.permission = permission.value();

    pc.agents = AgentRegistry();
    Result<void> agents = pc.agents.applyConfig(config.agent(), [](const JsonValue &v) { return Permission::fromConfig(v); });
    if (!agents)
        return Error{agents.error().message, config.path() + u": "_s + agents.error().where};

    Result<QList<PromptCommand>> commands = PromptCommand::fromConfig(config);
    if (!commands)
        return Error{commands.error().message, config.path() + u": "_s + commands.error().where};
    pc.commands = commands.value();

    pc.compaction = config.compaction();
    // OpenCode's `snapshot`: false turns snapshots off; true asks for them outside git too.
    const JsonValue snapshot = config.json().value(u"snapshot");
    if (!snapshot.isBool())
        pc.snapshots = ProcessorConfig::Snapshots::InGitRepositories;
    else
        pc.snapshots = snapshot.toBool() ? ProcessorConfig::Snapshots::Always : ProcessorConfig::Snapshots::Never;

    pc.instructions = directory.isEmpty() ? QList<Instruction>() : Instructions::load(config, directory, worktree);
    pc.instructionUrls = Instructions::urls(config);

    pc.resolveModel = [factory](const QString &ref) -> Result<ResolvedModel> {
        QString wanted = ref;
        if (wanted.isEmpty())
            wanted = factory->defaultModel();
        if (wanted.isEmpty())
            return Error{
                ProcessorTr::tr(
                    "no model configured: set \"model\" in %1, give --model PROVIDER/MODEL, or export an API key "
                    "such as ANTHROPIC_API_KEY or OPENAI_API_KEY")
                    .arg(Config::defaultPath()),
                {}};
        Result<ModelInfo> info = factory->modelInfo(wanted);
        if (!info)
            return info.error();
        Result<ProviderInfo> provider = factory->providerInfo(info->providerID);
        if (!provider)
            return provider.error();
        ResolvedModel model;
        model.providerID = info->providerID;
        model.modelID = info->modelID;
        model.apiModelID = info->apiModelID;
        model.settings = provider->settings();
        model.contextLimit = info->limit.context;
        model.outputLimit = info->limit.output;
        model.cost = info->cost;
        model.providerOptions = info->options;
        model.inputModalities = info->inputModalities();
        return model;
    };
    pc.mcp = config.json().object(u"mcp");
    pc.mcpServers.reset();
    const QString main = factory->defaultModel();
    pc.smallModel = config.smallModel().isEmpty() && !main.isEmpty() ? factory->smallModel(main) : config.smallModel();
    return std::shared_ptr<const ProviderFactory>(factory);
}

void useMcpServers(ProcessorConfig &processorConfig, McpUse use)
{
    if (processorConfig.mcp.isEmpty() && !McpManager::exists())
        return;
    McpManager *manager = McpManager::instance();
    if (use == McpUse::Replace)
        manager->configure(processorConfig.mcp);
    else if (!processorConfig.mcp.isEmpty())
        manager->include(processorConfig.mcp);
    processorConfig.mcpServers = manager->registry();
}

Result<ProcessorSetup> makeProcessorSetup(const Config &config, const QString &dataDir)
{
    ProcessorSetup setup;
    setup.config.dataDir = dataDir;
    Result<std::shared_ptr<const ProviderFactory>> factory = applyConfig(setup.config, config, {}, {});
    if (!factory)
        return factory.error();
    setup.factory = factory.value();
    useMcpServers(setup.config, McpUse::Replace);
    return setup;
}

Result<ProcessorSetup> loadProcessorSetup(const QString &configFile, const QString &dataDir, const QString &directory)
{
    const QString dir = directory.isEmpty() ? QDir::currentPath() : directory;
    const auto discover = [configFile](const QString &dir) {
        ConfigDiscovery::Search search;
        search.directory = dir;
        search.worktree = identifyProject(dir).worktree;
        search.weftFile = configFile;
        return std::pair{ConfigDiscovery::load(search), search.worktree};
    };
    auto [config, worktree] = discover(dir);
    if (!config)
        return config.error();
    ProcessorSetup setup;
    setup.config.dataDir = dataDir;
    Result<std::shared_ptr<const ProviderFactory>> factory = applyConfig(setup.config, config.value(), dir, worktree);
    if (!factory)
        return factory.error();
    setup.factory = factory.value();
    useMcpServers(setup.config, McpUse::Replace);
    setup.config.loadProject = [discover](ProcessorConfig &pc, const QString &directory) -> Result<void> {
        auto [config, worktree] = discover(directory);
        if (!config)
            return config.error();
        if (Result<std::shared_ptr<const ProviderFactory>> r = applyConfig(pc, config.value(), directory, worktree); !r)
            return r.error();
        return {};
    };
    return setup;
}

} // namespace weft
