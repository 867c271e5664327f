// SPDX-License-Identifier: GPL-3.0-or-later
#include "bashtool.h"

#include "core/logging.h"
#include "processor/permission.h"
#include "shellsyntax.h"
#include "toolutil.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QDir>
#include <QSet>
#include <QStandardPaths>
#include <QStringDecoder>

#include <algorithm>
#include <limits>
#include <utility>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace weft
{

QString BashTool::name() const
{
    return u"bash"_s;
}

QString BashTool::description() const
{
    return u"Executes a bash command (each call runs in a fresh `bash -c`, nothing persists between calls) with an "
           u"optional timeout.\n\n"
           u"Usage:\n"
           u"- The command runs in the project directory unless workdir is given; use workdir instead of `cd <dir> && ...`.\n"
           u"- Quote file paths that contain spaces with double quotes.\n"
           u"- timeout is in milliseconds: default 120000 (2 minutes), at most 600000 (10 minutes).\n"
           u"- Give a clear, concise description of what the command does in 5-10 words.\n"
           u"- Output longer than 2000 lines or 30000 characters is truncated; the full output is saved to a file whose "
           u"path is given, to search with grep or read with offset/limit.\n"
           u"- Avoid find, grep, cat, head, tail, sed, awk and ls for files: use the glob, grep, read, edit and list tools.\n"
           u"- Chain dependent commands with '&&'; use ';' only when later commands should run even if earlier ones fail.\n"
           u"- Stdin is closed: interactive commands get end-of-file."_s;
}

JsonObject BashTool::parameters() const
{
    using namespace ToolUtil;
    return schemaObject(
        JsonObject{{u"command"_s, schemaString(u"The command to execute"_s)},
                   {u"timeout"_s, schemaNumber(u"Optional timeout in milliseconds"_s)},
                   {u"workdir"_s, schemaString(u"The working directory to run the command in (defaults to the project directory)"_s)},
                   {u"description"_s,
                    schemaString(u"Clear, concise description of what this command does in 5-10 words. Examples:\n"
                                 u"Input: ls\nOutput: Lists files in current directory\n\n"
                                 u"Input: git status\nOutput: Shows working tree status\n\n"
                                 u"Input: npm install\nOutput: Installs package dependencies"_s)}},
        {u"command"_s, u"description"_s});
}

namespace
{

/// The running command's output: kept in memory up to SpillBytes, then streamed to a file under
/// <dataDir>/tool-output with only the head kept in memory.
class OutputCollector
{
public:
    static constexpr qsizetype SpillBytes = 1024 * 1024;
    static constexpr qsizetype HeadChars = 2 * ToolUtil::MaxOutputChars + 1024;

    explicit OutputCollector(QString dataDir) : m_dataDir(std::move(dataDir)) { }

    void append(const QByteArray &bytes)
    {
        if (bytes.isEmpty())
            return;
        m_changed = true;
        const QString text = m_decoder.decode(bytes);
        m_totalChars += text.size();
        m_totalLines += text.count(u'\n');
        if (m_file.isOpen()) {
            m_file.write(bytes);
            if (m_head.size() < HeadChars)
                m_head += QStringView(text).first(std::min<qsizetype>(text.size(), HeadChars - m_head.size()));
            return;
        }
        m_raw += bytes;
        m_head += text;
        if (m_raw.size() > SpillBytes)
            spill();
    }

    /// Text so far for progress and metadata (the head when spilled).
    [[nodiscard]] const QString &head() const { return m_head; }
    [[nodiscard]] bool spilled() const { return m_file.isOpen() || !m_filePath.isEmpty(); }
    [[nodiscard]] qint64 totalChars() const { return m_totalChars; }
    [[nodiscard]] qint64 totalLines() const { return m_totalLines + 1; }
    [[nodiscard]] QString filePath() const { return m_filePath; }
    bool takeChanged() { return std::exchange(m_changed, false); }

    void finish()
    {
        if (m_file.isOpen())
            m_file.close();
    }

private:
    void spill()
    {
        m_filePath = ToolUtil::createToolOutputFile(m_dataDir);
        if (m_filePath.isEmpty())
            return; // keep going in memory
        m_file.setFileName(m_filePath);
        if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            m_filePath.clear();
            return;
        }
        m_file.write(m_raw);
        m_raw.clear();
        if (m_head.size() > HeadChars)
            m_head.truncate(HeadChars);
    }

    QString m_dataDir;
    QStringDecoder m_decoder{QStringDecoder::Utf8};
    QByteArray m_raw;
    QString m_head;
    QFile m_file;
    QString m_filePath;
    qint64 m_totalChars = 0;
    qint64 m_totalLines = 0;
    bool m_changed = false;
};

QString capForMetadata(const QString &text)
{
    if (text.size() <= BashTool::MaxMetadataLength)
        return text;
    return text.left(BashTool::MaxMetadataLength) + u"\n\n..."_s;
}

#ifdef Q_OS_UNIX
void signalGroup(qint64 pid, int sig)
{
    if (pid > 0)
        ::kill(-pid_t(pid), sig);
}
#endif

/// Stops the command and everything it started: SIGTERM to the process group, SIGKILL after
/// 200 ms.
void killTree(QProcess &process, qint64 pid)
{
#ifdef Q_OS_UNIX
    signalGroup(pid, SIGTERM);
    if (!process.waitForFinished(200)) {
        signalGroup(pid, SIGKILL);
        process.kill();
        process.waitForFinished(2000);
    } else {
        signalGroup(pid, SIGKILL); // children that ignored SIGTERM
    }
#else
    Q_UNUSED(pid)
    process.kill();
    process.waitForFinished(2000);
#endif
}

QString shellProgram()
{
    const QString bash = QStandardPaths::findExecutable(u"bash"_s);
    if (!bash.isEmpty())
        return bash;
    return QFileInfo::exists(u"/bin/bash"_s) ? u"/bin/bash"_s : u"/bin/sh"_s;
}

/// Commands whose arguments name files or folders (OpenCode's list, and more of the kind).
const QSet<QString> &fileCommands()
{
    static const QSet<QString> names{u"cd"_s,    u"pushd"_s, u"rm"_s,       u"rmdir"_s,  u"cp"_s,   u"mv"_s,
                                     u"mkdir"_s, u"touch"_s, u"chmod"_s,    u"chown"_s,  u"chgrp"_s, u"cat"_s,
                                     u"ln"_s,    u"tee"_s,   u"truncate"_s, u"unlink"_s, u"shred"_s, u"install"_s,
                                     u"dd"_s};
    return names;
}

/// Device files every command may use without asking for /dev.
bool isHarmlessDevice(const QString &path)
{
    static const QSet<QString> devices{u"/dev/null"_s,   u"/dev/stdin"_s, u"/dev/stdout"_s, u"/dev/stderr"_s,
                                       u"/dev/tty"_s,    u"/dev/zero"_s,  u"/dev/random"_s, u"/dev/urandom"_s};
    return devices.contains(path) || path.startsWith(u"/dev/fd/");
}

/// The path arguments of a file command: not its options, not chmod's mode or chown's owner;
/// `--opt=PATH` and dd's `if=`/`of=` give their values.
QList<ShellSyntax::Word> pathArguments(const ShellSyntax::Command &command)
{
    const QString name = command.name();
    QList<ShellSyntax::Word> paths;
    bool optionsEnd = false;
    bool skipFirst = name == u"chmod" || name == u"chown" || name == u"chgrp";
    for (qsizetype i = 1; i < command.words.size(); ++i) {
        const ShellSyntax::Word &w = command.words.at(i);
        if (!optionsEnd && w.text == u"--") {
            optionsEnd = true;
            continue;
        }
        if (!optionsEnd && (w.text.startsWith(u'-') || (name == u"chmod" && w.text.startsWith(u'+')))) {
            const qsizetype equals = w.text.indexOf(u'=');
            if (w.text.startsWith(u"--") && equals > 0)
                paths.append({w.text.mid(equals + 1), w.known});
            continue;
        }
        if (name == u"dd") {
            if (w.text.startsWith(u"if=") || w.text.startsWith(u"of="))
                paths.append({w.text.mid(3), w.known});
            continue;
        }
        if (std::exchange(skipFirst, false))
            continue;
        paths.append(w);
    }
    return paths;
}

} // namespace

BashTool::Permissions BashTool::permissions(const ToolContext &context, const QString &command, const QString &workdir)
{
    using namespace ToolUtil;
    const ShellSyntax::Analysis analysis = ShellSyntax::analyze(command);
    Permissions result;
    result.command.permission = u"bash"_s;
    result.outside.permission = u"external_directory"_s;
    result.command.unresolved = !analysis.complete;

    // The folder each part of the line runs in: `cd` changes it for what follows.
    QList<std::pair<qsizetype, std::optional<QString>>> folders{{-1, QDir::cleanPath(workdir)}};
    std::optional<QString> folder = QDir::cleanPath(workdir);
    const auto folderAt = [&](qsizetype position) {
        std::optional<QString> at;
        for (const auto &[from, dir] : std::as_const(folders)) {
            if (from <= position)
                at = dir;
        }
        return at;
    };
    const auto checkPath = [&](const ShellSyntax::Word &path, const std::optional<QString> &base, bool folderItself) {
        if (!path.known || path.text.isEmpty())
            return;
        if (!base && !QDir::isAbsolutePath(path.text)) {
            result.outside.unresolved = true; // relative to a folder only known when it runs
            return;
        }
        const QString absolute = QDir::cleanPath(QDir(base.value_or(u"/"_s)).absoluteFilePath(path.text));
        if (isHarmlessDevice(absolute))
            return;
        const ResolvedPath resolved = resolvePath(context, absolute);
        if (!resolved.external)
            return;
        const QString dir = folderItself || QFileInfo(resolved.real).isDir() ? resolved.real
                                                                              : QFileInfo(resolved.real).absolutePath();
        const QString glob = folderGlob(dir);
        if (!result.outside.patterns.contains(glob))
            result.outside.patterns.append(glob);
        if (!Permission::hasWildcards(dir) && !result.outside.always.contains(glob))
            result.outside.always.append(glob);
    };
    const auto addPattern = [&](QStringList &list, const QString &pattern) {
        if (!pattern.isEmpty() && !list.contains(pattern))
            list.append(pattern);
    };

    for (const ShellSyntax::Command &c : analysis.commands) {
        if (!c.hasKnownName()) {
            result.command.unresolved = true;
            addPattern(result.command.patterns, c.text);
            continue;
        }
        const QString name = c.name();
        const bool fileCommand = fileCommands().contains(name);
        const QList<ShellSyntax::Word> args = fileCommand ? pathArguments(c) : QList<ShellSyntax::Word>();
        if (fileCommand) {
            for (const ShellSyntax::Word &path : args)
                checkPath(path, folder, name == u"cd" || name == u"pushd" || name == u"mkdir");
        }
        if (name == u"cd" || name == u"pushd" || name == u"popd") {
            // OpenCode asks nothing for changing folders; where it goes was checked above.
            if (name == u"popd" || (!args.isEmpty() && (!args.constFirst().known || args.constFirst().text == u"-")))
                folder.reset();
            else if (folder || (!args.isEmpty() && QDir::isAbsolutePath(args.constFirst().text)))
                folder = QDir::cleanPath(args.isEmpty() ? QDir::homePath()
                                                        : QDir(folder.value_or(u"/"_s)).absoluteFilePath(args.constFirst().text));
            folders.append({c.position, folder});
            continue;
        }
        addPattern(result.command.patterns, c.text);
        addPattern(result.command.patterns, c.normalized());
        // "Always" may also approve the command's arity prefix (`git checkout *`), where that is
        // more than its name: `rm *` would approve every rm.
        QStringList values;
        for (const ShellSyntax::Word &w : c.words)
            values.append(values.isEmpty() ? name : w.text);
        const qsizetype prefix = ShellSyntax::arity(values);
        const bool plain = std::all_of(c.words.cbegin(), c.words.cbegin() + prefix, [](const ShellSyntax::Word &w) {
            return w.known && !w.text.isEmpty() && !Permission::hasWildcards(w.text);
        });
        if (prefix >= 2 && plain)
            addPattern(result.command.always, values.first(prefix).join(u' ') + u" *"_s);
    }
    for (const ShellSyntax::Redirect &r : analysis.redirects)
        checkPath(r.target, folderAt(r.position), false);

    if (!analysis.complete)
        addPattern(result.command.patterns, command.trimmed());
    if (result.outside.unresolved && result.outside.patterns.isEmpty())
        result.outside.patterns.append(u"*"_s);
    const JsonObject metadata{{u"command"_s, command}};
    result.command.metadata = metadata;
    result.outside.metadata = metadata;
    if (!analysis.complete)
        result.command.metadata.insert(u"unresolved"_s, analysis.problem);
    return result;
}

ToolResult BashTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString command = in.requiredString(u"command"_s);
    const auto timeoutInput = in.optionalInteger(u"timeout"_s, 1, std::numeric_limits<qint32>::max());
    const QString description = in.optionalString(u"description"_s).value_or(QString());
    const QString workdirInput = in.optionalString(u"workdir"_s).value_or(QString());
    if (!in.ok())
        return in.failure();
    const qint64 timeout = std::min(timeoutInput.value_or(DefaultTimeoutMs), MaxTimeoutMs);
    const QString title = description.isEmpty() ? command.left(80) : description;

    const ResolvedPath workdir = resolvePath(context, workdirInput.isEmpty() ? u"."_s : workdirInput);
    if (!workdirInput.isEmpty()) {
        if (auto refused = checkExternal(context, workdir, true))
            return *refused;
    }
    if (!QFileInfo(workdir.absolute).isDir())
        return ToolResult::failure(u"The working directory %1 does not exist or is not a directory"_s.arg(workdir.absolute));

    Permissions asks = permissions(context, command, workdir.absolute);
    if (!asks.outside.patterns.isEmpty()) {
        asks.outside.metadata.insert(u"description"_s, description);
        if (auto refused = requirePermission(context, asks.outside)) {
            refused->error = u"Permission denied: the command works outside the project directory (%1) and that was "
                             u"refused. Work inside the project, or ask the user to allow it."_s
                                 .arg(asks.outside.patterns.join(u", "_s));
            return *refused;
        }
    }
    if (!asks.command.patterns.isEmpty() || asks.command.unresolved) {
        asks.command.metadata.insert(u"description"_s, description);
        if (asks.command.patterns.isEmpty())
            asks.command.patterns.append(command);
        if (auto refused = requirePermission(context, asks.command))
            return *refused;
    }
    if (context.isAborted())
        return ToolResult::failure(u"User aborted the command"_s);

    QProcess process;
    process.setProgram(shellProgram());
    process.setArguments({u"-c"_s, command});
    process.setWorkingDirectory(workdir.absolute);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
#ifdef Q_OS_UNIX
    // Its own session and process group, so that a timeout or an abort stops everything it started.
    process.setChildProcessModifier([] { ::setsid(); });
#endif
    process.start();
    if (!process.waitForStarted(10000)) {
        return ToolResult::failure(u"Cannot run the command: %1"_s.arg(process.errorString()),
                                   JsonObject{{u"output"_s, QString()}, {u"exit"_s, nullptr}, {u"description"_s, description}});
    }
    const qint64 pid = process.processId();

    OutputCollector output(context.dataDir);
    QElapsedTimer clock;
    clock.start();
    qint64 lastProgress = -1000;
    bool timedOut = false;
    bool aborted = false;

    const auto reportProgress = [&](bool force) {
        if (!context.progress)
            return;
        const qint64 now = clock.elapsed();
        if (!force && now - lastProgress < 100)
            return;
        if (!output.takeChanged() && !force)
            return;
        lastProgress = now;
        context.progress(title, JsonObject{{u"output"_s, capForMetadata(output.head())}, {u"description"_s, description}});
    };

    while (process.state() != QProcess::NotRunning) {
        const qint64 left = timeout - clock.elapsed();
        process.waitForReadyRead(int(std::clamp<qint64>(left, 1, 50)));
        output.append(process.readAll());
        reportProgress(false);
        if (context.isAborted()) {
            aborted = true;
            break;
        }
        if (clock.elapsed() >= timeout) {
            timedOut = true;
            break;
        }
    }
    if (aborted || timedOut)
        killTree(process, pid);
    else
        process.waitForFinished(1000);
    output.append(process.readAll());
    output.finish();
    reportProgress(true);

    const bool exited = !aborted && !timedOut && process.exitStatus() == QProcess::NormalExit;
    const JsonValue exitCode = exited ? JsonValue(process.exitCode()) : JsonValue(nullptr);

    QStringList notes;
    if (timedOut)
        notes.append(u"bash tool terminated command after exceeding timeout %1 ms"_s.arg(timeout));
    if (aborted)
        notes.append(u"User aborted the command"_s);

    const Truncated truncated = truncateOutput(output.head(), context.dataDir, MaxOutputLines, MaxOutputChars,
                                               output.spilled() ? output.filePath() : QString(),
                                               output.spilled() ? output.totalLines() : -1,
                                               output.spilled() ? output.totalChars() : -1);
    QString text = truncated.text;
    if (!notes.isEmpty())
        text += u"\n\n<bash_metadata>\n"_s + notes.join(u'\n') + u"\n</bash_metadata>"_s;

    JsonObject metadata{{u"output"_s, capForMetadata(output.head() + (notes.isEmpty() ? QString() : u"\n\n"_s + notes.join(u'\n')))},
                        {u"exit"_s, exitCode},
                        {u"description"_s, description}};
    if (truncated.truncated) {
        metadata.insert(u"truncated"_s, true);
        metadata.insert(u"outputPath"_s, truncated.outputPath);
    }
    qCDebug(lcProcessor) << "bash" << command.left(200) << "exit" << process.exitCode() << "timeout" << timedOut << "aborted" << aborted;
    if (aborted)
        return ToolResult::failure(text.trimmed(), metadata);
    return ToolResult::success(title, text, metadata);
}

} // namespace weft
