// SPDX-License-Identifier: GPL-3.0-or-later
#include "promptcommand.h"

#include "core/tr.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

Result<QList<PromptCommand>> PromptCommand::fromConfig(const Config &config)
{
    QList<PromptCommand> out;
    const JsonObject commands = config.commands();
    for (qsizetype i = 0; i < commands.size(); ++i) {
        const QString name = commands.keyAt(i);
        const QString where = u"command.%1"_s.arg(name);
        if (!commands.valueAt(i).isObject())
            return Error{ProcessorTr::tr("expected an object"), where};
        const JsonObject o = commands.valueAt(i).toObject();
        if (!o.value(u"template").isString())
            return Error{ProcessorTr::tr("template must be a string"), where};
        PromptCommand c;
        c.name = name;
        c.body = o.string(u"template");
        c.description = o.string(u"description");
        c.agent = o.string(u"agent");
        c.model = o.string(u"model");
        if (!c.model.isEmpty() && !c.model.contains(u'/'))
            return Error{ProcessorTr::tr("model must be \"provider/model\", found \"%1\"").arg(c.model), where};
        if (o.value(u"subtask").isBool())
            c.subtask = o.boolean(u"subtask");
        out.append(c);
    }
    std::sort(out.begin(), out.end(), [](const PromptCommand &a, const PromptCommand &b) { return a.name < b.name; });
    return out;
}

QList<PromptCommand> PromptCommand::fromMcpPrompts(const QList<McpPromptInfo> &prompts)
{
    QList<PromptCommand> out;
    for (const McpPromptInfo &prompt : prompts) {
        PromptCommand c;
        c.name = mcpSanitize(prompt.server) + u':' + mcpSanitize(prompt.name);
        c.description = prompt.description;
        c.mcpServer = prompt.server;
        c.mcpPrompt = prompt.name;
        c.mcpArguments = prompt.arguments;
        out.append(c);
    }
    return out;
}

std::optional<PromptCommand> PromptCommand::find(const QList<PromptCommand> &commands, const QString &name)
{
    for (const PromptCommand &c : commands) {
        if (c.name == name)
            return c;
    }
    return std::nullopt;
}

QStringList PromptCommand::splitArguments(const QString &arguments)
{
    static const QRegularExpression token(uR"((?:\[Image\s+\d+\]|"[^"]*"|'[^']*'|[^\s"']+))"_s,
                                          QRegularExpression::CaseInsensitiveOption);
    QStringList out;
    for (auto it = token.globalMatch(arguments); it.hasNext();) {
        QString arg = it.next().captured(0);
        // OpenCode's /^["']|["']$/g: one quote off each end.
        if (arg.startsWith(u'"') || arg.startsWith(u'\''))
            arg.remove(0, 1);
        if (arg.endsWith(u'"') || arg.endsWith(u'\''))
            arg.chop(1);
        out.append(arg);
    }
    return out;
}

QString PromptCommand::fill(const QString &arguments) const
{
    static const QRegularExpression placeholder(uR"(\$(\d+))"_s);
    const QStringList args = splitArguments(arguments);
    int last = 0;
    bool any = false;
    for (auto it = placeholder.globalMatch(body); it.hasNext();) {
        last = std::max(last, it.next().captured(1).toInt());
        any = true;
    }
    QString out;
    qsizetype pos = 0;
    for (auto it = placeholder.globalMatch(body); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(body).mid(pos, m.capturedStart() - pos);
        pos = m.capturedEnd();
        const int position = m.captured(1).toInt();
        const int index = position - 1;
        if (index < 0 || index >= args.size())
            continue;
        out += position == last ? args.mid(index).join(u' ') : args.at(index);
    }
    out += QStringView(body).mid(pos);
    const bool usesArguments = body.contains(u"$ARGUMENTS");
    out.replace(u"$ARGUMENTS"_s, arguments);
    if (!any && !usesArguments && !arguments.trimmed().isEmpty())
        out += u"\n\n"_s + arguments;
    return out;
}

QString PromptCommand::runShellSubstitutions(const QString &text, const QString &directory,
                                             const std::shared_ptr<std::atomic_bool> &abort, int timeoutMs)
{
    static const QRegularExpression shell(uR"(!`([^`]+)`)"_s);
    if (!text.contains(shell))
        return text;
    QString program = QProcessEnvironment::systemEnvironment().value(u"SHELL"_s);
    if (program.isEmpty() || program.endsWith(u"/nologin") || program.endsWith(u"/false"))
        program = u"/bin/sh"_s;
    QString out;
    qsizetype pos = 0;
    for (auto it = shell.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(pos, m.capturedStart() - pos);
        pos = m.capturedEnd();
        if (abort && abort->load())
            continue;
        QProcess process;
        process.setWorkingDirectory(directory);
        process.setProcessChannelMode(QProcess::SeparateChannels);
        process.start(program, {u"-c"_s, m.captured(1)});
        if (!process.waitForStarted(10000)) {
            out += u"Error executing command: %1"_s.arg(process.errorString());
            continue;
        }
        process.closeWriteChannel();
        QElapsedTimer timer;
        timer.start();
        bool finished = false;
        while (!(finished = process.waitForFinished(100))) {
            if ((abort && abort->load()) || timer.elapsed() > timeoutMs || process.state() == QProcess::NotRunning)
                break;
        }
        if (!finished && process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(2000);
            out += u"Error executing command: stopped after %1 s"_s.arg(timer.elapsed() / 1000);
            continue;
        }
        out += QString::fromUtf8(process.readAllStandardOutput());
    }
    out += QStringView(text).mid(pos);
    return out;
}

} // namespace weft
