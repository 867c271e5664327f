// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// OpenCode's commands: prompt templates from the config's `command` key and from markdown files
// in `.opencode/command/` (front matter: description, agent, model, subtask), run as `/name args`
// in the composer and as `weft run --command name args`.

#include "core/result.h"
#include "mcp/mcpclient.h"
#include "provider/config.h"

#include <QList>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace weft
{

struct PromptCommand {
    QString name;
    QString description;
    QString agent;  ///< empty: the prompt's agent
    QString model;  ///< "provider/model"; empty: the agent's or the prompt's
    QString body;   ///< the template: $ARGUMENTS, $1..$n, !`shell command`
    std::optional<bool> subtask;
    /// For an MCP server's prompt: the server, the prompt's own name and its arguments. Its
    /// template is asked for when it runs (McpRegistry::promptText), with the arguments as
    /// `$1`..`$n` in their order, as OpenCode does.
    QString mcpServer;
    QString mcpPrompt;
    QStringList mcpArguments;

    /// The commands of @p config, sorted by name. Entries that are not objects with a string
    /// `template` are errors naming the command.
    [[nodiscard]] static Result<QList<PromptCommand>> fromConfig(const Config &config);
    /// The commands of MCP prompts: named "server:prompt" (each part sanitised as OpenCode does),
    /// in the servers' order.
    [[nodiscard]] static QList<PromptCommand> fromMcpPrompts(const QList<McpPromptInfo> &prompts);
    [[nodiscard]] static std::optional<PromptCommand> find(const QList<PromptCommand> &commands, const QString &name);

    /// The arguments as OpenCode splits them: words, "double" or 'single' quoted strings (quotes
    /// removed), and `[Image N]` as one token.
    [[nodiscard]] static QStringList splitArguments(const QString &arguments);

    /// The template with the arguments filled in, as OpenCode does: `$N` is the N-th argument (the
    /// highest one used takes the rest), `$ARGUMENTS` all of them as typed; when the template uses
    /// neither, the arguments are appended after a blank line. Shell substitutions stay.
    [[nodiscard]] QString fill(const QString &arguments) const;

    /// The `!`command`` substitutions of @p text replaced by the commands' output, run by
    /// `$SHELL -c` (else /bin/sh) in @p directory, at most @p timeoutMs each; a failure puts the
    /// error in place of the output. Stops early when @p abort is set.
    [[nodiscard]] static QString runShellSubstitutions(const QString &text, const QString &directory,
                                                       const std::shared_ptr<std::atomic_bool> &abort = {},
                                                       int timeoutMs = 60000);
};

} // namespace weft
