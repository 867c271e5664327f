// SPDX-License-Identifier: GPL-3.0-or-later
#include "git.h"

#include <QProcess>
#include <QProcessEnvironment>

using namespace Qt::StringLiterals;

namespace weft
{

QString Git::Output::errorText() const
{
    const QString text = QString::fromUtf8(err).trimmed();
    return text.isEmpty() ? u"git exited with code %1"_s.arg(code) : text;
}

QString Git::Output::line() const
{
    return QString::fromUtf8(out).trimmed();
}

Git::Output Git::run(const QStringList &arguments, const Options &options)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QStringList keys = env.keys();
    for (const QString &key : keys) {
        if (key.startsWith(u"GIT_"))
            env.remove(key);
    }
    env.insert(u"GIT_TERMINAL_PROMPT"_s, u"0"_s);
    env.insert(u"LC_ALL"_s, u"C"_s);
    for (auto it = options.environment.cbegin(); it != options.environment.cend(); ++it)
        env.insert(it.key(), it.value());

    QProcess process;
    process.setProcessEnvironment(env);
    if (!options.workingDirectory.isEmpty())
        process.setWorkingDirectory(options.workingDirectory);
    process.start(u"git"_s, arguments);
    Output output;
    if (!process.waitForStarted(10000)) {
        output.err = process.errorString().toUtf8();
        return output;
    }
    if (!options.input.isEmpty())
        process.write(options.input);
    process.closeWriteChannel();
    if (!process.waitForFinished(options.timeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        output.err = "git timed out";
        output.timedOut = true;
        return output;
    }
    output.out = process.readAllStandardOutput();
    output.err = process.readAllStandardError();
    output.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return output;
}

bool Git::available()
{
    static const bool available = run({u"--version"_s}, {.timeoutMs = 10000}).ok();
    return available;
}

} // namespace weft
