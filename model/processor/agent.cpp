// SPDX-License-Identifier: GPL-3.0-or-later
#include "agent.h"

#include "core/tr.h"
#include "permission.h"

#include <QFile>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

bool Agent::toolEnabled(const QString &tool) const
{
    const JsonValue v = tools.value(tool);
    if (v.isBool())
        return v.toBool();
    // Wildcards, as OpenCode turns `tools` into permission rules: the last matching key wins
    // ("github_*": false turns off an MCP server's tools).
    for (qsizetype i = tools.size() - 1; i >= 0; --i) {
        if (tools.valueAt(i).isBool() && Permission::wildcardMatch(tool, tools.keyAt(i)))
            return tools.valueAt(i).toBool();
    }
    return true;
}

QString AgentRegistry::promptResource(const QString &name)
{
    QFile file(u":/weft/prompts/"_s + name + u".txt"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

AgentRegistry::AgentRegistry()
{
    // Permissions: the built-in rules of each agent live in Permission::builtinAgentRules();
    // Agent::permission holds only what the config adds. As in OpenCode, build, plan and general
    // have no prompt of their own: the model family's prompt (SystemPrompt) serves them, and plan
    // mode's rules arrive as a reminder with the user's message.
    Agent build;
    build.name = u"build"_s;
    build.description = u"The default agent: all tools, for doing the work."_s;
    build.mode = Agent::Mode::Primary;
    build.builtIn = true;

    Agent plan;
    plan.name = u"plan"_s;
    plan.description = u"Investigates and writes a plan; makes no changes."_s;
    plan.mode = Agent::Mode::Primary;
    plan.builtIn = true;

    Agent general;
    general.name = u"general"_s;
    general.description = u"General-purpose agent for researching questions and running multi-step tasks."_s;
    general.mode = Agent::Mode::Subagent;
    general.builtIn = true;
    general.tools = JsonObject{{u"task"_s, false}};

    Agent compaction;
    compaction.name = u"compaction"_s;
    compaction.mode = Agent::Mode::Primary;
    compaction.hidden = true;
    compaction.builtIn = true;
    compaction.prompt = promptResource(u"compaction"_s);
    compaction.tools = JsonObject{{u"*"_s, false}};

    Agent title;
    title.name = u"title"_s;
    title.mode = Agent::Mode::Primary;
    title.hidden = true;
    title.builtIn = true;
    title.prompt = promptResource(u"title"_s);
    title.tools = JsonObject{{u"*"_s, false}};
    title.temperature = 0.5;

    m_agents = {build, plan, general, compaction, title};
}

Result<void> AgentRegistry::applyConfig(const JsonObject &agentConfig,
                                        const std::function<QList<PermissionRule>(const JsonValue &)> &parsePermission)
{
    for (qsizetype i = 0; i < agentConfig.size(); ++i) {
        const QString name = agentConfig.keyAt(i);
        const JsonValue value = agentConfig.valueAt(i);
        const QString where = u"agent.%1"_s.arg(name);
        if (!value.isObject())
            return Error{ProcessorTr::tr("expected an object"), where};
        const JsonObject o = value.toObject();
        qsizetype index = -1;
        for (qsizetype j = 0; j < m_agents.size(); ++j) {
            if (m_agents.at(j).name == name)
                index = j;
        }
        if (o.boolean(u"disable")) {
            if (index >= 0)
                m_agents.removeAt(index);
            continue;
        }
        Agent agent;
        if (index >= 0) {
            agent = m_agents.at(index);
        } else {
            agent.name = name;
            agent.mode = Agent::Mode::All;
        }
        if (o.contains(u"prompt")) {
            if (!o.value(u"prompt").isString())
                return Error{ProcessorTr::tr("prompt must be a string"), where};
            agent.prompt = o.string(u"prompt");
        }
        if (o.contains(u"description"))
            agent.description = o.string(u"description");
        if (o.contains(u"model")) {
            const QString model = o.string(u"model");
            if (!model.contains(u'/'))
                return Error{ProcessorTr::tr("model must be \"provider/model\", found \"%1\"").arg(model), where};
            agent.model = model;
        }
        if (o.value(u"temperature").isNumber())
            agent.temperature = o.number(u"temperature");
        if (o.value(u"top_p").isNumber())
            agent.topP = o.number(u"top_p");
        // `steps`, or the older `maxSteps` OpenCode still reads (`steps ?? maxSteps`).
        for (const QString &key : {u"steps"_s, u"maxSteps"_s}) {
            if (o.value(key).isNumber()) {
                agent.maxSteps = int(std::clamp(o.integer(key), qint64(0), qint64(1000000)));
                break;
            }
        }
        if (o.contains(u"mode")) {
            const QString mode = o.string(u"mode");
            if (mode == u"primary")
                agent.mode = Agent::Mode::Primary;
            else if (mode == u"subagent")
                agent.mode = Agent::Mode::Subagent;
            else if (mode == u"all")
                agent.mode = Agent::Mode::All;
            else
                return Error{ProcessorTr::tr("mode must be primary, subagent or all, found \"%1\"").arg(mode), where};
        }
        if (o.value(u"tools").isObject()) {
            const JsonObject tools = o.object(u"tools");
            for (qsizetype t = 0; t < tools.size(); ++t)
                agent.tools.insert(tools.keyAt(t), tools.valueAt(t));
        }
        if (o.contains(u"permission") && parsePermission)
            agent.permission += parsePermission(o.value(u"permission"));
        if (index >= 0)
            m_agents[index] = agent;
        else
            m_agents.append(agent);
    }
    return {};
}

std::optional<Agent> AgentRegistry::find(const QString &name) const
{
    for (const Agent &a : m_agents) {
        if (a.name == name)
            return a;
    }
    return std::nullopt;
}

QList<Agent> AgentRegistry::primary() const
{
    QList<Agent> list;
    for (const Agent &a : m_agents) {
        if (a.isPrimary() && !a.hidden)
            list.append(a);
    }
    return list;
}

QList<Agent> AgentRegistry::subagents() const
{
    QList<Agent> list;
    for (const Agent &a : m_agents) {
        if (a.isSubagent() && !a.hidden)
            list.append(a);
    }
    return list;
}

} // namespace weft
