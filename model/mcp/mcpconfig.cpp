// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpconfig.h"

#include "core/tr.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace weft
{

static McpServerConfig parseEntry(const QString &name, const JsonValue &value)
{
    McpServerConfig server;
    server.name = name;
    const auto invalid = [&server](const QString &why) {
        server.error = McpTr::tr("invalid configuration: %1").arg(why);
        return server;
    };
    if (!value.isObject())
        return invalid(McpTr::tr("mcp.%1 must be an object").arg(name));
    const JsonObject o = value.toObject();
    server.json = o;
    if (o.contains(u"enabled")) {
        if (!o.value(u"enabled").isBool())
            return invalid(McpTr::tr("mcp.%1.enabled must be true or false").arg(name));
        server.enabled = o.boolean(u"enabled");
    }
    if (o.contains(u"timeout")) {
        const JsonValue t = o.value(u"timeout");
        const double ms = t.toDouble(-1);
        if (!t.isNumber() || ms <= 0 || ms != double(qint64(ms)))
            return invalid(McpTr::tr("mcp.%1.timeout must be a positive whole number of milliseconds").arg(name));
        server.timeoutMs = qint64(ms);
    }
    const QString type = o.string(u"type");
    if (type == u"local") {
        server.type = McpServerConfig::Type::Local;
        const JsonArray command = o.array(u"command");
        for (const JsonValue &arg : command) {
            if (!arg.isString())
                return invalid(McpTr::tr("mcp.%1.command must be an array of strings").arg(name));
            server.command.append(arg.toString());
        }
        if (server.command.isEmpty() || server.command.constFirst().isEmpty())
            return invalid(McpTr::tr("mcp.%1.command must name the program to start").arg(name));
        const JsonObject env = o.object(u"environment");
        for (qsizetype i = 0; i < env.size(); ++i) {
            if (!env.valueAt(i).isString())
                return invalid(McpTr::tr("mcp.%1.environment.%2 must be a string").arg(name, env.keyAt(i)));
            server.environment.append({env.keyAt(i), env.valueAt(i).toString()});
        }
    } else if (type == u"remote") {
        server.type = McpServerConfig::Type::Remote;
        server.url = o.string(u"url");
        const QUrl url(server.url, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https") || url.host().isEmpty())
            return invalid(McpTr::tr("mcp.%1.url must be an http or https URL").arg(name));
        const JsonObject headers = o.object(u"headers");
        for (qsizetype i = 0; i < headers.size(); ++i) {
            const QString value = headers.valueAt(i).toString();
            if (!headers.valueAt(i).isString() || value.contains(u'\n') || value.contains(u'\r'))
                return invalid(McpTr::tr("mcp.%1.headers.%2 must be a single-line string").arg(name, headers.keyAt(i)));
            server.headers.append({headers.keyAt(i).toUtf8(), value.toUtf8()});
        }
    } else {
        return invalid(McpTr::tr("mcp.%1.type must be \"local\" or \"remote\"").arg(name));
    }
    return server;
}

QList<McpServerConfig> parseMcpConfig(const JsonObject &mcp)
{
    QList<McpServerConfig> servers;
    for (qsizetype i = 0; i < mcp.size(); ++i)
        servers.append(parseEntry(mcp.keyAt(i), mcp.valueAt(i)));
    return servers;
}

QString mcpSanitize(const QString &name)
{
    QString out = name;
    for (QChar &c : out) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'_'
            || u == u'-';
        if (!ok)
            c = u'_';
    }
    return out;
}

QString mcpToolKey(const QString &server, const QString &tool)
{
    return mcpSanitize(server) + u'_' + mcpSanitize(tool);
}

} // namespace weft
