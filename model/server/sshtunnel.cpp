// SPDX-License-Identifier: GPL-3.0-or-later
#include "sshtunnel.h"

#include "core/logging.h"
#include "core/tr.h"
#include "servicefile.h"

#include <QCoreApplication>
#include <QDir>
#include <QHostAddress>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr auto Marker = "WEFT-REMOTE "_L1;

bool hasControl(const QString &text)
{
    return std::any_of(text.cbegin(), text.cend(), [](QChar c) { return c.category() == QChar::Other_Control; });
}

/// A host name, an ssh config alias, or an IPv4 address: letters, digits, '.', '-', '_',
/// not starting with '-' (ssh would read it as an option) or '.'.
bool isHostName(const QString &host)
{
    static const QRegularExpression re(u"^[A-Za-z0-9_][A-Za-z0-9._-]*$"_s);
    return re.match(host).hasMatch();
}

bool isUserName(const QString &user)
{
    static const QRegularExpression re(u"^[A-Za-z0-9_][A-Za-z0-9._-]*$"_s);
    return re.match(user).hasMatch();
}

/// The remote shell reads the path inside single quotes: no quote, backslash, '!' (csh) or
/// control character.
bool isSafePath(const QString &path)
{
    return !hasControl(path) && !path.contains(u'\'') && !path.contains(u'\\') && !path.contains(u'!');
}

QString lastLine(const QStringList &lines)
{
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        const QString line = it->trimmed();
        if (!line.isEmpty())
            return line;
    }
    return {};
}
} // namespace

// ---- SshTarget

bool SshTarget::isSshAddress(const QString &text)
{
    return text.trimmed().startsWith(u"ssh://"_s, Qt::CaseInsensitive);
}

Result<SshTarget> SshTarget::parse(const QString &text)
{
    const QString trimmed = text.trimmed();
    const auto bad = [&](const QString &why) {
        return Error{ServerTr::tr("\"%1\" is not an ssh:// address: %2").arg(trimmed, why), {}};
    };
    if (!isSshAddress(trimmed))
        return bad(ServerTr::tr("it does not start with ssh://"));
    if (hasControl(trimmed))
        return bad(ServerTr::tr("it has control characters"));
    // Spaces may be in the folder's name, not in [user@]host[:port].
    if (trimmed.mid(6).section(u'/', 0, 0).contains(u' '))
        return bad(ServerTr::tr("it has a space before the folder"));
    const QUrl url(trimmed, QUrl::TolerantMode);
    if (!url.isValid())
        return bad(url.errorString());
    if (!url.password().isEmpty())
        return bad(ServerTr::tr("a password does not go in the address (ssh uses your keys and agent)"));
    if (url.hasQuery() || url.hasFragment())
        return bad(ServerTr::tr("an ssh:// address has no query or fragment"));
    SshTarget target;
    target.user = url.userName();
    target.host = url.host();
    if (target.host.isEmpty())
        return bad(ServerTr::tr("no host"));
    // An IPv6 address comes without its brackets; anything else must be a plain host name.
    const bool ipv6 = target.host.contains(u':');
    if (ipv6 ? QHostAddress(target.host).protocol() != QAbstractSocket::IPv6Protocol : !isHostName(target.host))
        return bad(ServerTr::tr("\"%1\" is not a host name").arg(target.host));
    if (!target.user.isEmpty() && !isUserName(target.user))
        return bad(ServerTr::tr("\"%1\" is not a user name").arg(target.user));
    target.port = url.port(0);
    if (target.port < 0 || target.port > 65535)
        return bad(u"the port is not a number from 1 to 65535"_s);
    QString path = url.path(QUrl::FullyDecoded);
    while (path.size() > 1 && path.endsWith(u'/'))
        path.chop(1);
    if (path == u"/" || path == u"/~")
        path.clear();
    else if (path.startsWith(u"/~/"))
        path = path.mid(1);
    if (!isSafePath(path))
        return bad(u"the folder has a quote, a backslash, '!' or a control character"_s);
    target.path = path;
    return target;
}

QUrl SshTarget::url() const
{
    QUrl url;
    url.setScheme(u"ssh"_s);
    url.setUserName(user);
    url.setHost(host);
    if (port > 0)
        url.setPort(port);
    if (!path.isEmpty())
        url.setPath(path.startsWith(u'/') ? path : u'/' + path, QUrl::DecodedMode);
    return url;
}

QString SshTarget::displayHost() const
{
    return user.isEmpty() ? host : user + u'@' + host;
}

// ---- SshTunnel

SshTunnel::SshTunnel(QObject *parent)
    : QObject(parent)
{
    if (const QString config = qEnvironmentVariable("WEFT_SSH_CONFIG"); !config.isEmpty())
        m_sshOptions = {u"-F"_s, config};
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        fail(u"%1 did not start an OpenCode server within %2 s"_s.arg(m_target.displayHost()).arg(m_timeoutMs / 1000));
    });
}

SshTunnel::~SshTunnel()
{
    stop();
}

QString SshTunnel::remoteScript()
{
    // One line (csh cannot take a newline inside quotes), no ' \ or ! (see remoteScript()'s
    // promise). $1 is the project folder. The server's stdin is /dev/null so that only the
    // script reads the session's stdin; its end (the tunnel stopped, Weft or the connection
    // gone) stops the server, its children first (npm's `opencode` is a launcher).
    static const QString script = QStringList{
        u"d=$1;"_s,
        u"PATH=$PATH:$HOME/.opencode/bin:$HOME/.local/bin:$HOME/.bun/bin:$HOME/.npm-global/bin:/usr/local/bin; export PATH;"_s,
        u"oc=$(command -v opencode) || { echo \"WEFT-REMOTE error no-opencode\"; exit 3; };"_s,
        u"case $d in \"\"|\"~\") d=$HOME;; \"~/\"*) d=$HOME/${d#\"~/\"};; esac;"_s,
        u"cd \"$d\" 2>/dev/null || { echo \"WEFT-REMOTE error no-folder\"; exit 4; };"_s,
        // OpenCode's background service first: its file (mode, owner, content as hex) goes to
        // Weft, which checks it and answers "attach PID" (attached while that process runs) or
        // "start"; attached, the script only waits for the end of its input.
        u"sf=${XDG_STATE_HOME:-$HOME/.local/state}/opencode/service.json;"_s,
        u"if [ -f \"$sf\" ]; then"_s,
        u"sm=$(ls -ln \"$sf\" | cut -c1-10); so=$(ls -ln \"$sf\" | tr -s \" \" | cut -d\" \" -f3);"_s,
        u"echo \"WEFT-REMOTE service $sm $so $(id -u) $(od -An -tx1 -v -N 65536 \"$sf\" | tr -dc 0-9a-f)\";"_s,
        u"read -r sa sp || sa=start;"_s,
        u"if [ \"$sa\" = attach ] && kill -0 \"$sp\" 2>/dev/null; then echo \"WEFT-REMOTE attached\"; cat >/dev/null; echo \"WEFT-REMOTE stopped\"; exit 0; fi;"_s,
        u"[ \"$sa\" = attach ] && echo \"WEFT-REMOTE service-gone\";"_s,
        u"fi;"_s,
        u"t=$(mktemp -d \"${TMPDIR:-/tmp}/weft-remote.XXXXXX\") || { echo \"WEFT-REMOTE error no-temp\"; exit 5; };"_s,
        u"pw=$(od -An -tx1 -N24 /dev/urandom | tr -dc 0-9a-f);"_s,
        u"[ ${#pw} -ge 32 ] || { echo \"WEFT-REMOTE error no-random\"; rm -rf \"$t\"; exit 5; };"_s,
        u"OPENCODE_SERVER_PASSWORD=$pw \"$oc\" serve --hostname 127.0.0.1 --port 0 </dev/null >\"$t/log\" 2>&1 &"_s,
        // Its PID: the one background job (what $! says, without a '!' for csh to expand).
        u"jobs -p >\"$t/pid\"; pid=$(head -n 1 \"$t/pid\" | tr -dc 0-9);"_s,
        u"[ -n \"$pid\" ] || { echo \"WEFT-REMOTE error no-pid\"; rm -rf \"$t\"; exit 5; };"_s,
        u"weft_stop() { pkill -TERM -P $pid 2>/dev/null; kill -TERM $pid 2>/dev/null; n=0;"_s,
        u"while kill -0 $pid 2>/dev/null && [ $n -lt 60 ]; do sleep 0.05 2>/dev/null || sleep 1; n=$((n+1)); done;"_s,
        u"pkill -KILL -P $pid 2>/dev/null; kill -KILL $pid 2>/dev/null; rm -rf \"$t\"; };"_s,
        u"trap \"weft_stop; exit 1\" HUP INT TERM;"_s,
        u"port=; n=0;"_s,
        u"while [ -z \"$port\" ]; do"_s,
        u"kill -0 $pid 2>/dev/null || { echo \"WEFT-REMOTE error exited\"; tail -n 3 \"$t/log\" | sed \"s/^/WEFT-REMOTE log /\"; rm -rf \"$t\"; exit 6; };"_s,
        u"[ $n -lt 600 ] || { echo \"WEFT-REMOTE error timeout\"; weft_stop; exit 7; };"_s,
        u"line=$(grep \"listening on\" \"$t/log\" | head -n 1);"_s,
        u"if [ -n \"$line\" ]; then port=${line##*:}; port=$(printf %s \"$port\" | tr -dc 0-9);"_s,
        u"else sleep 0.1 2>/dev/null || sleep 1; n=$((n+1)); fi;"_s,
        u"done;"_s,
        u"echo \"WEFT-REMOTE ready $port $pw $pid\";"_s,
        u"cat >/dev/null;"_s,
        u"weft_stop; echo \"WEFT-REMOTE stopped\""_s,
    }.join(u' ');
    return script;
}

QStringList SshTunnel::baseArguments() const
{
    QStringList args = m_sshOptions;
    args << u"-o"_s << u"ControlPath=%1/control"_s.arg(m_controlDir->path())
         << u"-o"_s << u"ControlPersist=no"_s
         << u"-o"_s << u"BatchMode=yes"_s
         << u"-o"_s << u"ExitOnForwardFailure=yes"_s
         << u"-o"_s << u"ConnectTimeout=20"_s
         << u"-o"_s << u"ServerAliveInterval=15"_s
         << u"-o"_s << u"ServerAliveCountMax=3"_s
         << u"-o"_s << u"LogLevel=ERROR"_s;
    if (m_target.port > 0)
        args << u"-p"_s << QString::number(m_target.port);
    if (!m_target.user.isEmpty())
        args << u"-l"_s << m_target.user;
    return args;
}

void SshTunnel::start(const SshTarget &target)
{
    stop();
    m_target = target;
    m_state = State::Starting;
    m_stdout.clear();
    m_stderrLines.clear();
    m_remoteError.clear();
    m_remoteLog.clear();
    m_password.clear();
    m_localPort = m_remotePort = 0;
    m_remotePid = 0;
    m_forwardAttempts = 0;
    m_setupMs = 0;
    m_service.reset();
    m_serviceProblem.clear();
    m_clock.start();

    // The control socket lives in a folder of this tunnel's own, readable only by the user
    // (QTemporaryDir makes it 0700): a second Weft connecting to the same host has its own
    // master and its own server, and one's end never cuts the other's.
    QString base = qEnvironmentVariable("XDG_RUNTIME_DIR");
    // A socket path has room for about 100 bytes (ssh adds a random suffix while binding).
    if (base.isEmpty() || base.size() > 60)
        base = QDir::tempPath();
    m_controlDir = std::make_unique<QTemporaryDir>(base + u"/weft-ssh-XXXXXX"_s);
    if (!m_controlDir->isValid()) {
        fail(u"cannot make a folder for the ssh control socket in %1"_s.arg(base));
        return;
    }

    // The remote login shell (any: sh, bash, zsh, fish, csh) runs `sh -c '...' weft-remote 'PATH'`.
    const QString remote = u"sh -c '%1' weft-remote '%2'"_s.arg(remoteScript(), m_target.path);
    QStringList args = baseArguments();
    // The master of the control connection: its own session is the script; no terminal, none of
    // the user's RemoteCommand.
    args << u"-o"_s << u"ControlMaster=yes"_s << u"-o"_s << u"RemoteCommand=none"_s << u"-T"_s
         << u"--"_s << m_target.host << remote;

    auto *master = new QProcess(this);
    m_master = master;
    master->setProcessChannelMode(QProcess::SeparateChannels);
    connect(master, &QProcess::readyReadStandardOutput, this, &SshTunnel::onMasterOutput);
    connect(master, &QProcess::readyReadStandardError, this, [this, master] { readStderr(master); });
    connect(master, &QProcess::finished, this, &SshTunnel::onMasterFinished);
    connect(master, &QProcess::errorOccurred, this, [this, master](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && m_master == master)
            fail(u"cannot run ssh (%1): the OpenSSH client is needed for ssh:// servers"_s.arg(master->errorString()));
    });
    qCDebug(lcSession).noquote() << "ssh" << m_target.displayHost() << "starting opencode serve in"
                                 << (m_target.path.isEmpty() ? u"~"_s : m_target.path);
    m_timeout.start(m_timeoutMs);
    master->start(m_program, args);
}

void SshTunnel::readStderr(QProcess *process)
{
    const QStringList lines = QString::fromLocal8Bit(process->readAllStandardError()).split(u'\n');
    for (const QString &line : lines) {
        const QString l = line.trimmed();
        if (l.isEmpty())
            continue;
        qCDebug(lcSession).noquote() << "ssh:" << l;
        m_stderrLines.append(l);
    }
    while (m_stderrLines.size() > 20)
        m_stderrLines.removeFirst();
}

/// A ready line ("ready PORT PASSWORD PID") fit for a log or an error: every word after "ready"
/// that is not a number (the password, or whatever stands where it should) becomes "***".
static QString redactedReadyLine(const QStringList &words)
{
    QStringList shown;
    for (qsizetype i = 0; i < words.size(); ++i) {
        bool number = false;
        (void)words.at(i).toLongLong(&number);
        shown.append(i == 0 || number ? words.at(i) : u"***"_s);
    }
    return shown.join(u' ');
}

void SshTunnel::onMasterOutput()
{
    if (!m_master)
        return;
    m_stdout += m_master->readAllStandardOutput();
    qsizetype newline;
    while ((newline = m_stdout.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_stdout.left(newline)).trimmed();
        m_stdout.remove(0, newline + 1);
        // What the user's shell prints on its own (a .bashrc's echo) is not ours.
        if (!line.startsWith(Marker))
            continue;
        const QStringList words = line.mid(Marker.size()).split(u' ', Qt::SkipEmptyParts);
        if (words.isEmpty())
            continue;
        if (words.first() == u"service" && m_state == State::Starting) {
            onRemoteService(words);
        } else if (words.first() == u"attached" && m_state == State::Starting && m_service) {
            m_remotePort = m_service->url.port();
            m_password = m_service->password;
            m_remotePid = m_service->pid;
            qCDebug(lcSession).noquote() << "attached to OpenCode's service on" << m_target.displayHost() << "port"
                                         << m_remotePort << "pid" << m_remotePid << "after" << m_clock.elapsed() << "ms";
            forward();
        } else if (words.first() == u"service-gone") {
            m_serviceProblem = u"its OpenCode service is not running (a stale service.json)"_s;
            m_service.reset();
            qCInfo(lcSession).noquote() << m_target.displayHost() << ":" << m_serviceProblem << "; starting opencode serve";
        } else if (words.first() == u"error" && words.size() > 1) {
            m_remoteError = words.at(1);
        } else if (words.first() == u"log") {
            m_remoteLog.append(line.mid(Marker.size() + 4).trimmed());
        } else if (words.first() == u"ready" && m_state == State::Starting) {
            bool portOk = false, pidOk = false;
            if (words.size() == 4) {
                m_remotePort = words.at(1).toInt(&portOk);
                m_password = words.at(2);
                m_remotePid = words.at(3).toLongLong(&pidOk);
            }
            if (!portOk || !pidOk || m_remotePort <= 0 || m_remotePort > 65535 || m_password.isEmpty()) {
                m_password.clear();
                // The line carries the server's password: never shown or logged whole.
                fail(u"%1 answered something Weft does not understand: %2"_s.arg(m_target.displayHost(),
                                                                                   redactedReadyLine(words)));
                return;
            }
            qCDebug(lcSession).noquote() << "opencode serve runs on" << m_target.displayHost() << "port" << m_remotePort
                                         << "pid" << m_remotePid << "after" << m_clock.elapsed() << "ms";
            forward();
        }
    }
}

void SshTunnel::onRemoteService(const QStringList &words)
{
    // "service MODE OWNER UID HEX": the remote service.json and who may read it there.
    const QString where = m_target.displayHost() + u":~/.local/state/opencode/service.json"_s;
    Result<ServiceFile> service = Error{u"a service line Weft does not understand"_s, where};
    if (words.size() == 5) {
        // `ls -ln` of the file itself: a symlink's mode starts with "l".
        if (!words.at(1).startsWith(u'-'))
            service = Error{u"OpenCode's service file is not a regular file"_s, where};
        else if (words.at(2) != words.at(3))
            service = Error{u"OpenCode's service file belongs to another user: it is not used"_s, where};
        else if (words.at(1).mid(4) != u"------"_s)
            service = Error{u"OpenCode's service file may be read or changed by others (%1): it is not used"_s.arg(words.at(1)),
                            where};
        else
            service = ServiceFile::parse(QByteArray::fromHex(words.at(4).toLatin1()), where);
    }
    if (!service) {
        m_serviceProblem = service.error().toString();
        qCInfo(lcSession).noquote() << m_serviceProblem << "; starting opencode serve";
        m_master->write("start\n");
        return;
    }
    m_service = std::make_unique<ServiceFile>(service.value());
    m_master->write("attach " + QByteArray::number(m_service->pid) + '\n');
}

bool SshTunnel::attachedToService() const
{
    return m_state == State::Ready && m_service != nullptr;
}

QString SshTunnel::serviceVersion() const
{
    return attachedToService() ? m_service->version : QString();
}

void SshTunnel::forward()
{
    // A free local port, then the forward through the control connection. Another program may
    // take the port in between: then another one.
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0)) {
        fail(u"no free local port to forward to %1: %2"_s.arg(m_target.displayHost(), probe.errorString()));
        return;
    }
    m_localPort = probe.serverPort();
    probe.close();
    ++m_forwardAttempts;

    QStringList args = baseArguments();
    args << u"-O"_s << u"forward"_s << u"-L"_s
         << u"127.0.0.1:%1:127.0.0.1:%2"_s.arg(m_localPort).arg(m_remotePort) << u"--"_s << m_target.host;
    auto *process = new QProcess(this);
    process->setProcessChannelMode(QProcess::SeparateChannels);
    const QPointer<QProcess> master = m_master;
    connect(process, &QProcess::finished, this, [this, process, master](int code, QProcess::ExitStatus status) {
        process->deleteLater();
        if (m_state != State::Starting || m_master != master)
            return;
        readStderr(process);
        if (status != QProcess::NormalExit || code != 0) {
            if (m_forwardAttempts < 3) {
                forward();
                return;
            }
            fail(u"cannot forward a local port to %1: %2"_s
                     .arg(m_target.displayHost(), lastLine(m_stderrLines).isEmpty() ? u"ssh -O forward failed"_s
                                                                                     : lastLine(m_stderrLines)));
            return;
        }
        m_timeout.stop();
        m_state = State::Ready;
        m_setupMs = m_clock.elapsed();
        qCInfo(lcSession).noquote() << "OpenCode on" << m_target.toString() << "is forwarded to" << localUrl().toString()
                                    << "(" << m_setupMs << "ms )";
        Q_EMIT ready(localUrl(), m_password);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            process->deleteLater();
            fail(u"cannot run ssh: %1"_s.arg(process->errorString()));
        }
    });
    process->start(m_program, args);
}

QString SshTunnel::sshFailure(const QString &fallback) const
{
    QString line = lastLine(m_stderrLines);
    if (line.isEmpty())
        return fallback;
    // "ssh: connect to host ...", "user@host: Permission denied ...": said once, in front.
    for (const QString &prefix : QStringList{u"ssh: "_s, m_target.displayHost() + u": "_s, m_target.host + u": "_s}) {
        if (line.startsWith(prefix))
            line = line.mid(prefix.size());
    }
    QString message = u"ssh %1: %2"_s.arg(m_target.displayHost(), line);
    if (line.contains(u"Host key verification failed"_s))
        message += u" (connect once with ssh %1 to check and accept its host key)"_s.arg(m_target.host);
    else if (line.contains(u"Permission denied"_s))
        message += u" (Weft logs in without asking: with a key, or one your ssh agent has)"_s;
    return message;
}

void SshTunnel::onMasterFinished()
{
    auto *master = qobject_cast<QProcess *>(sender());
    if (!master || master != m_master)
        return;
    readStderr(master);
    onMasterOutput();
    const int code = master->exitStatus() == QProcess::NormalExit ? master->exitCode() : -1;
    const QString host = m_target.displayHost();
    if (m_state == State::Ready) {
        m_state = State::Failed;
        const QString why = sshFailure(u"the ssh connection to %1 closed"_s.arg(host));
        qCInfo(lcSession).noquote() << "the tunnel to" << m_target.toString() << "dropped:" << why;
        cleanUp();
        Q_EMIT dropped(why);
        return;
    }
    if (m_state != State::Starting)
        return;
    if (m_remoteError == u"no-opencode")
        fail(u"opencode is not installed on %1 (not on its PATH, nor in ~/.opencode/bin or ~/.local/bin)"_s.arg(host));
    else if (m_remoteError == u"no-folder")
        fail(u"%1 has no folder %2"_s.arg(host, m_target.path));
    else if (m_remoteError == u"exited")
        fail(u"opencode serve exited on %1: %2"_s
                 .arg(host, lastLine(m_remoteLog).isEmpty() ? u"it printed nothing"_s : lastLine(m_remoteLog)));
    else if (m_remoteError == u"timeout")
        fail(u"opencode serve on %1 did not listen within 60 s"_s.arg(host));
    else if (!m_remoteError.isEmpty())
        fail(u"%1 cannot start opencode serve (%2)"_s.arg(host, m_remoteError));
    else if (code == 255)
        fail(sshFailure(u"ssh to %1 failed"_s.arg(host)));
    else
        fail(sshFailure(u"the remote command on %1 ended (exit code %2) before OpenCode started"_s.arg(host).arg(code)));
}

void SshTunnel::fail(const QString &error)
{
    if (m_state != State::Starting)
        return;
    m_state = State::Failed;
    qCInfo(lcSession).noquote() << "cannot reach OpenCode on" << m_target.toString() << ":" << error;
    cleanUp();
    Q_EMIT failed(error);
}

void SshTunnel::stop()
{
    if (m_state == State::Starting || m_state == State::Ready)
        m_state = State::Stopped;
    cleanUp();
}

void SshTunnel::cleanUp()
{
    m_timeout.stop();
    QProcess *master = m_master;
    m_master = nullptr;
    const QStringList exitArguments = m_controlDir && m_controlDir->isValid()
        ? baseArguments() << u"-O"_s << u"exit"_s << u"--"_s << m_target.host
        : QStringList();
    const std::shared_ptr<QTemporaryDir> controlDir = std::move(m_controlDir);
    if (!master)
        return;
    master->disconnect(this);
    if (master->state() == QProcess::NotRunning) {
        // Not delete: this may run inside one of its signals.
        master->deleteLater();
        return;
    }
    // The end of the session's stdin stops the remote server; the script then ends, and with it
    // the master (and the forward). Nothing waits for that here: the master, on its own from now
    // on, goes when it ends, asked to end through its control socket if it takes long, then killed.
    // The application keeps it (not this tunnel, which may go first): whatever still runs when
    // the application ends is killed and freed with it.
    QObject *keeper = QCoreApplication::instance();
    master->setParent(keeper && keeper->thread() == master->thread() ? keeper : nullptr);
    connect(master, &QProcess::finished, master, &QObject::deleteLater);
    master->closeWriteChannel();
    const QString program = m_program;
    QTimer::singleShot(m_remotePid > 0 ? 5000 : 1000, master, [master, program, exitArguments, controlDir] {
        if (!exitArguments.isEmpty()) {
            auto *exit = new QProcess(master);
            exit->start(program, exitArguments);
        }
        QTimer::singleShot(3000, master, [master] { master->kill(); });
    });
}

QUrl SshTunnel::localUrl() const
{
    if (m_localPort <= 0)
        return {};
    return QUrl(u"http://127.0.0.1:%1"_s.arg(m_localPort));
}

} // namespace weft
