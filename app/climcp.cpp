// SPDX-License-Identifier: GPL-3.0-or-later
#include "climcp.h"

#include "clicommand.h"

#include "mcp/mcpmanager.h"
#include "provider/config.h"

using namespace Qt::StringLiterals;

namespace weft::Cli
{

static JsonObject statusJson(const McpServerStatus &s)
{
    JsonObject o{{u"name"_s, s.name},
                 {u"type"_s, McpServerConfig::typeName(s.type)},
                 {u"status"_s, McpServerStatus::stateName(s.state)}};
    if (s.state == McpServerStatus::State::Failed)
        o.insert(u"error"_s, s.error);
    o.insert(u"target"_s, s.target);
    if (s.state == McpServerStatus::State::Connected) {
        o.insert(u"transport"_s, s.transport);
        o.insert(u"server"_s, JsonObject{{u"name"_s, s.serverName}, {u"version"_s, s.serverVersion}});
        o.insert(u"protocolVersion"_s, s.protocolVersion);
        o.insert(u"tools"_s, s.toolCount);
        o.insert(u"prompts"_s, s.promptCount);
        o.insert(u"resources"_s, s.resourceCount);
        o.insert(u"connectMs"_s, s.connectMs);
    }
    return o;
}

static int mcpList(const GlobalOptions &options, const QStringList &args)
{
    Command cmd(u"mcp list"_s, u"Connect to the MCP servers of the config and show their state."_s);
    cmd.addOption({u"format"_s, u"json or text (default)."_s, u"FORMAT"_s, u"text"_s});
    if (const auto done = cmd.parse(args))
        return *done;
    const QString format = cmd.value(u"format"_s);
    if (format != u"json" && format != u"text")
        return cmd.usageError(u"--format must be json or text"_s);
    if (!cmd.positional().isEmpty())
        return cmd.usageError(u"mcp list takes no arguments"_s);
    const Result<Config> config = Config::load(options.configFile);
    if (!config)
        return fail(config.error().toString());
    McpManager *manager = McpManager::instance();
    manager->configure(config->json().object(u"mcp"));
    manager->waitForStartup();
    const QList<McpServerStatus> servers = manager->servers();
    bool anyFailed = false;
    JsonArray list;
    for (const McpServerStatus &s : servers) {
        anyFailed = anyFailed || s.state == McpServerStatus::State::Failed;
        list.append(statusJson(s));
    }
    if (format == u"json") {
        out(toJson(list, 2) + '\n');
        return anyFailed ? 1 : 0;
    }
    if (servers.isEmpty()) {
        outLine(u"No MCP servers configured (the \"mcp\" key of %1)"_s.arg(
            config->path().isEmpty() ? Config::defaultPath() : config->path()));
        return 0;
    }
    qsizetype width = 0;
    for (const McpServerStatus &s : servers)
        width = qMax(width, s.name.size());
    for (const McpServerStatus &s : servers) {
        QString mark;
        QString detail;
        switch (s.state) {
        case McpServerStatus::State::Connected:
            mark = u"✓"_s;
            detail = u"%1 tool%2, %3"_s.arg(s.toolCount).arg(s.toolCount == 1 ? u""_s : u"s"_s).arg(s.transport);
            break;
        case McpServerStatus::State::Failed:
            mark = u"✗"_s;
            detail = s.error;
            break;
        case McpServerStatus::State::Disabled:
            mark = u"○"_s;
            break;
        case McpServerStatus::State::Connecting:
            mark = u"…"_s;
            detail = u"still connecting"_s;
            break;
        }
        outLine(u"%1 %2  %3  %4"_s.arg(mark, s.name.leftJustified(width), McpServerStatus::stateName(s.state).leftJustified(9), detail)
                    .trimmed());
        outLine(u"    "_s + s.target);
    }
    return anyFailed ? 1 : 0;
}

int mcpCommand(const GlobalOptions &options, const QStringList &args)
{
    const QString sub = args.value(0);
    if (sub == u"list" || sub == u"ls")
        return mcpList(options, args.mid(1));
    const QString usage = u"Usage: weft [--config FILE] mcp list [--format json|text]\n"_s;
    if (sub.isEmpty() || sub == u"--help" || sub == u"-h" || sub == u"help") {
        out(usage.toUtf8());
        return sub.isEmpty() ? 2 : 0;
    }
    return fail(u"unknown mcp command \"%1\"\n\n"_s.arg(sub) + usage, 2);
}

} // namespace weft::Cli
