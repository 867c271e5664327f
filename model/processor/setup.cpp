// SPDX-License-Identifier: GPL-3.0-or-later
#include "setup.h"

#include "permission.h"

using namespace Qt::StringLiterals;

namespace weft
{

Result<ProcessorSetup> makeProcessorSetup(const Config &config, const QString &dataDir)
{
    ProcessorSetup setup;
    auto factory = std::make_shared<const ProviderFactory>(config);
    setup.factory = factory;
    ProcessorConfig &pc = setup.config;
    pc.dataDir = dataDir;

    Result<PermissionRuleset> permission = config.permission().isUndefined() ? Result<PermissionRuleset>(PermissionRuleset())
                                                                              : Permission::parseConfig(config.permission());
    if (!permission)
        return Error{permission.error().message, config.path() + u": permission"_s};
    pc.permission = permission.value();

    Result<void> agents = pc.agents.applyConfig(config.agent(), [](const JsonValue &v) { return Permission::fromConfig(v); });
    if (!agents)
        return Error{agents.error().message, config.path() + u": "_s + agents.error().where};

    pc.compaction = config.compaction();
    // OpenCode's `snapshot`: false turns snapshots off; true asks for them outside git too.
    const JsonValue snapshot = config.json().value(u"snapshot");
    if (!snapshot.isBool())
        pc.snapshots = ProcessorConfig::Snapshots::InGitRepositories;
    else
        pc.snapshots = snapshot.toBool() ? ProcessorConfig::Snapshots::Always : ProcessorConfig::Snapshots::Never;
    pc.resolveModel = [factory](const QString &ref) -> Result<ResolvedModel> {
        QString wanted = ref;
        if (wanted.isEmpty())
            wanted = factory->defaultModel();
        if (wanted.isEmpty())
            return Error{u"no model configured: set \"model\" in %1, give --model PROVIDER/MODEL, or export an API key "
                         u"such as ANTHROPIC_API_KEY or OPENAI_API_KEY"_s.arg(Config::defaultPath()),
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
    const QString main = factory->defaultModel();
    pc.smallModel = config.smallModel().isEmpty() && !main.isEmpty() ? factory->smallModel(main) : config.smallModel();
    return setup;
}

Result<ProcessorSetup> loadProcessorSetup(const QString &configFile, const QString &dataDir)
{
    Result<Config> config = Config::load(configFile);
    if (!config)
        return config.error();
    return makeProcessorSetup(config.value(), dataDir);
}

} // namespace weft
