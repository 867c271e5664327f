// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs the real `weft` binary with a private home (XDG folders in a temporary dir).

#include <QByteArray>
#include <QDir>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

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

    WeftRun run(const QStringList &args) const
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
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(m_home.path());
        process.start(binary(), args);
        WeftRun result;
        if (!process.waitForFinished(120000)) {
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
