// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/result.h"
#include "core/types.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace weft
{

/// An agent: a system prompt, a model, permissions and tools, as configuration rather than code
/// paths. OpenCode ships `build`, `plan`, `general` and the hidden `compaction` and `title`.
struct Agent {
    enum class Mode { Primary, Subagent, All };

    QString name;
    QString description;
    Mode mode = Mode::All;
    bool hidden = false;
    bool builtIn = false;
    QString prompt;       ///< system prompt of the agent
    QString model;        ///< "provider/model" override, empty = the session's model
    std::optional<double> temperature;
    std::optional<double> topP;
    QList<PermissionRule> permission; ///< evaluated after the config's rules, before the session's
    JsonObject tools;     ///< {"toolname": false} disables a tool; keys may be wildcards ("server_*")
    /// The config's `steps` (or `maxSteps`): the last of them has no tools and must sum up in
    /// text (OpenCode's max-steps reminder). 0 = no limit.
    int maxSteps = 0;

    [[nodiscard]] bool toolEnabled(const QString &tool) const;
    [[nodiscard]] bool isPrimary() const { return mode != Mode::Subagent; }
    [[nodiscard]] bool isSubagent() const { return mode != Mode::Primary; }
};

/// The agents of a configuration: the built-in ones changed and extended by `agent.<name>`
/// entries of the config (`prompt`, `model`, `temperature`, `top_p`, `permission`, `tools`,
/// `mode`, `description`, `disable`, `steps` or `maxSteps`).
class AgentRegistry
{
public:
    AgentRegistry();
    /// Applies the config's `agent` object; errors name the agent and field.
    Result<void> applyConfig(const JsonObject &agentConfig, const std::function<QList<PermissionRule>(const JsonValue &)> &parsePermission);

    [[nodiscard]] std::optional<Agent> find(const QString &name) const;
    [[nodiscard]] QList<Agent> all() const { return m_agents; }
    /// Agents a user can pick in the composer (primary, not hidden).
    [[nodiscard]] QList<Agent> primary() const;
    /// Agents the task tool can run.
    [[nodiscard]] QList<Agent> subagents() const;

    /// The built-in prompt resource `:/weft/prompts/<name>.txt`.
    [[nodiscard]] static QString promptResource(const QString &name);

private:
    QList<Agent> m_agents;
};

} // namespace weft
