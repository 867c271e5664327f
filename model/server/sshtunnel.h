// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// OpenCode on another machine over SSH (`--server ssh://[user@]host[:port][/path]`): the system
// `ssh` (the user's own config, keys and agent) starts `opencode serve` there on a loopback port
// with a random password, a local loopback port is forwarded to it, and everything started is
// stopped again when the tunnel stops.

#include "core/result.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <memory>

class QProcess;
class QTemporaryDir;

namespace weft
{

struct ServiceFile;

/// Where `ssh` goes: ssh://[user@]host[:port][/path/to/project].
struct SshTarget {
    QString user; ///< empty: ssh's own default (config, then the local user)
    QString host; ///< a host name, an ssh config alias or an IP address (never starts with '-')
    int port = 0; ///< 0: ssh's own default
    /// The project folder on the remote machine, where `opencode serve` runs: absolute, or
    /// "~/..." (from "/~/..." in the address) relative to the remote home; empty: the home.
    QString path;

    /// Reads an ssh:// address; anything odd (a host or user that ssh could take for an option,
    /// a password, a query) is an error that says what is wrong.
    [[nodiscard]] static Result<SshTarget> parse(const QString &text);
    /// Whether @p text is meant as an ssh:// address (it may still not parse).
    [[nodiscard]] static bool isSshAddress(const QString &text);

    /// The canonical address, "ssh://user@host:port/path".
    [[nodiscard]] QUrl url() const;
    [[nodiscard]] QString toString() const { return url().toString(); }
    /// "user@host" or "host", for messages.
    [[nodiscard]] QString displayHost() const;

    bool operator==(const SshTarget &) const = default;
};

/// One remote `opencode serve` reached through one SSH control connection: OpenCode's background
/// service there when one runs (its service.json, checked as ServiceFile does), else one started
/// for the tunnel.
///
/// start() runs `ssh` as a control master whose own session is a small POSIX sh script: it
/// finds `opencode` (PATH, ~/.opencode/bin, ~/.local/bin, ~/.bun/bin, ~/.npm-global/bin) and goes
/// to the project folder. If a service.json is there, it hands it (mode, owner, content) to Weft,
/// which checks it and answers "attach PID" or "start" on the script's stdin; attached (that PID
/// runs), the script reports it and waits for its stdin to close, leaving the service alone.
/// Otherwise it makes a random password from /dev/urandom, starts `opencode serve --hostname
/// 127.0.0.1 --port 0` in the project folder, waits until it listens, reports its port, password
/// and PID on one line, and then waits for its stdin to close: when the tunnel stops (or Weft
/// dies, or the connection drops) the script stops that server again. The local port is forwarded
/// through the same control connection (`ssh -O forward`). Nothing is stored on either side; the
/// remote script keeps its log in a private mktemp folder that it removes.
///
/// ready() or failed() says how start() ended; dropped() says that the connection went away
/// afterwards. Lives on the thread that made it (the GUI thread, or the command line's).
class SshTunnel : public QObject
{
    Q_OBJECT

public:
    enum class State { Idle, Starting, Ready, Failed, Stopped };
    Q_ENUM(State)

    explicit SshTunnel(QObject *parent = nullptr);
    /// Stops what was started (stop()).
    ~SshTunnel() override;

    /// Options given to every `ssh` before Weft's own, e.g. {"-F", "file"}; by default
    /// {"-F", $WEFT_SSH_CONFIG} when that is set (what the tests use), else none.
    void setSshOptions(const QStringList &options) { m_sshOptions = options; }
    /// The `ssh` program (default: "ssh" on PATH).
    void setSshProgram(const QString &program) { m_program = program; }
    /// How long start() may take until ready (default 60 s).
    void setTimeout(int ms) { m_timeoutMs = ms; }

    /// Connects to @p target and starts the server there; ready() or failed() follows.
    void start(const SshTarget &target);
    /// Stops the remote server, closes the forward and the control connection, without waiting
    /// for them: they end within a few seconds (the remote server first). Nothing is signalled.
    void stop();


    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] SshTarget target() const { return m_target; }
    /// Once ready: the forwarded server, "http://127.0.0.1:LOCALPORT".
    [[nodiscard]] QUrl localUrl() const;
    /// Once ready: the server's password (made on the remote side for this run only).
    [[nodiscard]] QString password() const { return m_password; }
    /// Once ready: the PID of the remote `opencode serve`, and its port there.
    [[nodiscard]] qint64 remotePid() const { return m_remotePid; }
    [[nodiscard]] int remotePort() const { return m_remotePort; }
    /// Once ready: whether the tunnel leads to the remote OpenCode service (which it leaves
    /// running when it stops) rather than to a server it started.
    [[nodiscard]] bool attachedToService() const;
    /// The remote service's OpenCode version, when attached to it.
    [[nodiscard]] QString serviceVersion() const;
    /// Why a remote service file was not used (refused or stale), or empty.
    [[nodiscard]] QString serviceProblem() const { return m_serviceProblem; }
    /// Once ready: how long start() took, in milliseconds.
    [[nodiscard]] qint64 setupMs() const { return m_setupMs; }

    /// The script the remote shell runs (`sh -c SCRIPT weft-remote PATH`): one line, with no
    /// character that a login shell (sh, bash, zsh, fish, csh) treats specially inside single
    /// quotes.
    [[nodiscard]] static QString remoteScript();

Q_SIGNALS:
    void ready(const QUrl &localUrl, const QString &password);
    /// start() failed; @p error is one line a user can act on.
    void failed(const QString &error);
    /// The connection ended after ready() (the network, the remote server, or ssh went away).
    void dropped(const QString &error);

private:
    [[nodiscard]] QStringList baseArguments() const;
    void onMasterOutput();
    void onMasterFinished();
    void onRemoteService(const QStringList &words);
    void forward();
    void fail(const QString &error);
    [[nodiscard]] QString sshFailure(const QString &fallback) const;
    void readStderr(QProcess *process);
    void cleanUp();

    SshTarget m_target;
    QStringList m_sshOptions;
    QString m_program = QStringLiteral("ssh");
    int m_timeoutMs = 60000;
    State m_state = State::Idle;
    std::unique_ptr<QTemporaryDir> m_controlDir;
    QPointer<QProcess> m_master;
    QByteArray m_stdout;
    QStringList m_stderrLines;
    QString m_remoteError; ///< "no-opencode", ... from the script
    QStringList m_remoteLog;
    QTimer m_timeout;
    QElapsedTimer m_clock;
    int m_localPort = 0;
    int m_remotePort = 0;
    qint64 m_remotePid = 0;
    QString m_password;
    int m_forwardAttempts = 0;
    qint64 m_setupMs = 0;
    std::unique_ptr<ServiceFile> m_service; ///< the remote service's file, once checked
    QString m_serviceProblem;
};

} // namespace weft
