// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every command of the command line shares: writing to stdout and stderr, errors with their
// exit codes, and the parsing of a command's options and arguments (with --help).

#include "cli.h"
#include "core/identifier.h"

#include <QByteArray>
#include <QCommandLineParser>
#include <QHash>
#include <QSet>
#include <QString>

#include <optional>

namespace weft
{
class MessageError;
class Part;
class Store;
}

namespace weft::Cli
{

/// Writes @p bytes to stdout and flushes.
void out(const QByteArray &bytes);
/// Writes @p text and a newline to stdout.
void outLine(const QString &text);
/// Writes @p line and a newline to stderr.
void err(const QString &line);
/// Prints "weft: error: MESSAGE" to stderr; returns @p code (2: a usage error).
int fail(const QString &message, int code = 1);
/// Prints a warning for each file or row @p store skipped.
void reportProblems(const Store &store);

/// The data dir of the options: --data-dir as given, or Weft's default.
[[nodiscard]] QString dataDirPath(const GlobalOptions &options);
/// The data dir of the options as an absolute path.
[[nodiscard]] QString absoluteDataDir(const GlobalOptions &options);

/// A usage error (exit code 2) when @p id is no valid ID of @p kind: "invalid session ID: why".
[[nodiscard]] std::optional<int> invalidId(const QString &id, Identifier::Kind kind);

/// A retry of the provider, on stderr: "weft: retry 2 in 1500 ms: Overloaded".
void printRetry(const QString &sessionID, int attempt, qint64 delayMs, const MessageError &error);

/// What `weft run` prints of a run as it streams: the text of the session's answer, and a line
/// for each tool call when it ends ("✓ write: hello.txt", "✗ bash: exit 1").
class RunOutput
{
public:
    /// The session whose parts are printed (others are ignored).
    void setSession(const QString &sessionID) { m_sessionID = sessionID; }
    void partUpdated(const Part &part, const QString &delta);
    /// Prints what the stream did not bring of @p part in its final state: text the stream
    /// lost (a server's events can start late), a tool call's line.
    void catchUp(const Part &part);
    /// Ends an open line.
    void finish();

private:
    QString m_sessionID;
    bool m_lineOpen = false;
    QSet<QString> m_reportedTools;
    /// Characters of each text part printed so far.
    QHash<QString, qsizetype> m_printed;
};

/// One command ("session list", "search"): declares its options and arguments, parses them,
/// prints --help, and reports usage errors with exit code 2 and a pointer to --help.
class Command
{
public:
    /// Where --help lists -h, --help among the options: first, or (`weft search`) last.
    enum class HelpOption { First, Last };

    /// @p name is the command as typed after `weft`; @p syntax its arguments in the usage line
    /// ("SESSION_ID", "QUERY...").
    Command(const QString &name, const QString &description, const QString &syntax = {},
            HelpOption help = HelpOption::First);

    void addOption(const QCommandLineOption &option) { m_parser.addOption(option); }
    void addPositional(const QString &name, const QString &description, const QString &syntax = {})
    {
        m_parser.addPositionalArgument(name, description, syntax);
    }

    /// Parses @p args (the words after the command's name). Returns the exit code when the
    /// command is done: 0 after printing --help, 2 after a usage error; nothing to go on.
    [[nodiscard]] std::optional<int> parse(const QStringList &args);

    [[nodiscard]] QString name() const { return m_name; }
    [[nodiscard]] bool isSet(const QString &option) const { return m_parser.isSet(option); }
    [[nodiscard]] QString value(const QString &option) const { return m_parser.value(option); }
    /// Every value of a repeatable option, in the order given.
    [[nodiscard]] QStringList values(const QString &option) const { return m_parser.values(option); }
    [[nodiscard]] QStringList positional() const { return m_parser.positionalArguments(); }

    /// Prints "weft: error: MESSAGE (see: weft NAME --help)"; returns 2.
    int usageError(const QString &message) const;
    /// A usage error "NAME takes one WHAT" unless there is exactly one positional argument.
    [[nodiscard]] std::optional<int> expectOne(const QString &what) const;
    /// expectOne(), and the argument a valid ID of @p kind (invalidId()): stored in @p id, or the
    /// usage error's exit code.
    [[nodiscard]] std::optional<int> expectId(const QString &what, Identifier::Kind kind, QString &id) const;

private:
    QString m_name;
    QString m_syntax;
    HelpOption m_help;
    QCommandLineParser m_parser;
};

} // namespace weft::Cli
