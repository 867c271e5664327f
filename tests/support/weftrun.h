// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs the real `weft` binary with a private home (XDG folders in a temporary dir).

#include <QByteArray>
#include <QDir>
#include <QEventLoop>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>

namespace weft::test
{

struct WeftRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

class WeftRunner
{
public:
    WeftRunner()
    {
        for (const char *dir : {"home", "data", "config", "cache", "state"})
            QDir().mkpath(m_home.path() + u'/' + QLatin1StringView(dir));
    }

    [[nodiscard]] QString binary() const { return QStringLiteral(WEFT_BINARY_DIR "/bin/weft"); }
    [[nodiscard]] QString home() const { return m_home.path(); }
    /// Weft's default data dir for the runs (XDG_DATA_HOME/weft).
    [[nodiscard]] QString defaultDataDir() const { return m_home.path() + QStringLiteral("/data/weft"); }

    /// Runs weft with @p args and waits for it, serving this thread's events meanwhile (a
    /// loopback server of the test answers it); extra environment in @p env.
    /// @p started, when given, gets the process once it runs (to signal it, say).
    WeftRun run(const QStringList &args, const QProcessEnvironment &extra = {},
                const std::function<void(QProcess &)> &started = {}) const
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path() + QStringLiteral("/home"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path() + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path() + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_home.path() + QStringLiteral("/cache"));
        env.insert(QStringLiteral("XDG_STATE_HOME"), m_home.path() + QStringLiteral("/state"));
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        env.remove(QStringLiteral("WEFT_DATA_DIR"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("OPENCODE_SERVER_PASSWORD"));
        for (const QString &name : extra.keys())
            env.insert(name, extra.value(name));
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(m_home.path());
        QEventLoop loop;
        QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
        QObject::connect(&process, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        process.start(binary(), args);
        if (started && process.waitForStarted())
            started(process);
        WeftRun result;
        if (process.state() != QProcess::NotRunning)
            loop.exec();
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
        result.out = process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        return result;
    }

private:
    QTemporaryDir m_home;
};

} // namespace weft::test
