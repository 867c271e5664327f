// SPDX-License-Identifier: GPL-3.0-or-later
#include "clicommand.h"

#include "core/types.h"
#include "session/datadir.h"
#include "store/store.h"

#include <QDir>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace weft::Cli
{

void out(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void outLine(const QString &text)
{
    out(text.toUtf8() + '\n');
}

void err(const QString &line)
{
    const QByteArray bytes = line.toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
}

int fail(const QString &message, int code)
{
    err(u"weft: error: "_s + message);
    return code;
}

void reportProblems(const Store &store)
{
    const QList<StoreProblem> problems = store.problems();
    for (const StoreProblem &p : problems)
        err(u"weft: warning: skipped "_s + p.location + u": "_s + p.reason);
}

void printRetry(const QString &, int attempt, qint64 delayMs, const MessageError &error)
{
    const QByteArray line = "weft: retry " + QByteArray::number(attempt) + " in " + QByteArray::number(delayMs)
        + " ms: " + error.message().toUtf8() + '\n';
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
}

void RunOutput::partUpdated(const Part &part, const QString &delta)
{
    if (part.sessionID() != m_sessionID)
        return;
    if (part.type() == PartType::Text && !delta.isEmpty()) {
        out(delta.toUtf8());
        m_lineOpen = !delta.endsWith(u'\n');
        m_printed[part.id()] += delta.size();
    } else if (part.type() == PartType::Tool) {
        const ToolState state = part.state();
        if ((state.status() != ToolStatus::Completed && state.status() != ToolStatus::Error) || m_reportedTools.contains(part.id()))
            return;
        m_reportedTools.insert(part.id());
        if (m_lineOpen)
            out("\n");
        m_lineOpen = false;
        const QString detail = state.status() == ToolStatus::Completed ? state.title() : state.errorText().section(u'\n', 0, 0);
        outLine(u"%1 %2: %3"_s.arg(state.status() == ToolStatus::Completed ? u"✓"_s : u"✗"_s, part.tool(), detail));
    }
}

void RunOutput::catchUp(const Part &part)
{
    if (part.type() != PartType::Text) {
        partUpdated(part, {});
        return;
    }
    const QString text = part.text();
    const qsizetype printed = m_printed.value(part.id());
    if (printed < text.size() && part.sessionID() == m_sessionID)
        partUpdated(part, text.mid(printed));
}

void RunOutput::finish()
{
    if (m_lineOpen)
        out("\n");
    m_lineOpen = false;
}

QString dataDirPath(const GlobalOptions &options)
{
    return options.dataDir.isEmpty() ? DataDir::defaultPath() : options.dataDir;
}

QString absoluteDataDir(const GlobalOptions &options)
{
    return options.dataDir.isEmpty() ? DataDir::defaultPath() : QDir(options.dataDir).absolutePath();
}

std::optional<int> invalidId(const QString &id, Identifier::Kind kind)
{
    const QString why = Identifier::whyInvalid(id, kind);
    if (why.isEmpty())
        return std::nullopt;
    QString what;
    switch (kind) {
    case Identifier::Kind::Session:
        what = u"session"_s;
        break;
    case Identifier::Kind::Message:
        what = u"message"_s;
        break;
    case Identifier::Kind::Part:
        what = u"part"_s;
        break;
    default:
        what = Identifier::prefix(kind);
        break;
    }
    return fail(u"invalid %1 ID: "_s.arg(what) + why, 2);
}

Command::Command(const QString &name, const QString &description, const QString &syntax, HelpOption help)
    : m_name(name)
    , m_syntax(syntax)
    , m_help(help)
{
    m_parser.setApplicationDescription(description);
    if (m_help == HelpOption::First)
        m_parser.addHelpOption();
}

std::optional<int> Command::parse(const QStringList &args)
{
    if (m_help == HelpOption::Last)
        m_parser.addHelpOption();
    QStringList full = args;
    full.prepend(u"weft "_s + m_name);
    if (!m_parser.parse(full))
        return usageError(m_parser.errorText());
    if (m_parser.isSet(u"help"_s)) {
        QString text = m_parser.helpText();
        // QCommandLineParser prints the program name only; show the whole command.
        text.replace(0, text.indexOf(u'\n'), u"Usage: weft [--data-dir DIR] "_s + m_name + u" [options] "_s + m_syntax);
        out(text.toUtf8());
        return 0;
    }
    return std::nullopt;
}

int Command::usageError(const QString &message) const
{
    return fail(message + u" (see: weft "_s + m_name + u" --help)"_s, 2);
}

std::optional<int> Command::expectOne(const QString &what) const
{
    if (m_parser.positionalArguments().size() == 1)
        return std::nullopt;
    return usageError(m_name + u" takes one "_s + what);
}

std::optional<int> Command::expectId(const QString &what, Identifier::Kind kind, QString &id) const
{
    if (const auto bad = expectOne(what))
        return bad;
    id = positional().first();
    return invalidId(id, kind);
}

} // namespace weft::Cli
