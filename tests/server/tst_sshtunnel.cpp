// SPDX-License-Identifier: GPL-3.0-or-later
// `--server ssh://...` end to end: a real sshd on a loopback port (throwaway host and client
// keys in a temporary folder), the real ssh client, and on the "remote" side a stand-in
// `opencode` (fake_opencode_serve) that answers with what OpenCode 1.18.34 answered.
//
// sshd listens on three ports whose sessions see different remote machines (Match LocalPort):
//   ok       `opencode` on the PATH
//   missing  no `opencode` anywhere
//   broken   an `opencode` that exits at once with an error
//   real     the real `opencode` of $WEFT_OPENCODE_BIN (OpenCode 1.18.34 from npm), when given

#include "fakeopencodeserver.h"
#include "testdata.h"
#include "weftrun.h"

#include "app/serversource.h"
#include "qt/sessionsmodel.h"

#include "server/serverclient.h"
#include "server/serverstore.h"
#include "server/sshtunnel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::writeFile;
using weft::test::WeftRun;

namespace
{

int freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

bool processExists(qint64 pid)
{
    if (pid <= 0)
        return false;
    if (::kill(pid_t(pid), 0) == 0) {
        // A zombie is gone for every purpose that matters here.
        QFile status(u"/proc/%1/stat"_s.arg(pid));
        if (status.open(QIODevice::ReadOnly)) {
            const QByteArray stat = status.readAll();
            const qsizetype close = stat.lastIndexOf(')');
            return close < 0 || stat.mid(close + 2, 1) != "Z";
        }
        return true;
    }
    return errno != ESRCH;
}

bool portAccepts(int port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, quint16(port));
    return socket.waitForConnected(2000);
}

QString run(const QString &program, const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return u"%1 failed: %2"_s.arg(program, QString::fromLocal8Bit(p.readAll()).trimmed());
    return {};
}

/// stderr is one line "weft: error: ..." containing @p what.
bool oneErrorLine(const WeftRun &run, const QString &what)
{
    const QString err = QString::fromUtf8(run.err);
    return run.exitCode != 0 && err.startsWith(u"weft: error: "_s) && err.count(u'\n') == 1 && err.contains(what);
}

} // namespace

class TestSshTunnel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void parse_data();
    void parse();
    void remoteScriptIsOneSafeLine();
    void startListStop();
    void failures();
    void cliSessionList();
    void cliErrors();
    void killedWeftStopsTheRemoteServer();
    void remoteService();
    void serverSource();
    void realOpencode();

private:
    [[nodiscard]] SshTarget target(int port, const QString &path = {}) const
    {
        SshTarget t;
        t.user = u"root"_s;
        t.host = u"127.0.0.1"_s;
        t.port = port;
        t.path = path;
        return t;
    }
    [[nodiscard]] QList<qint64> fakePids() const
    {
        QList<qint64> pids;
        QFile file(m_dir.path() + u"/ok/bin/pids"_s);
        if (file.open(QIODevice::ReadOnly)) {
            for (const QByteArray &line : file.readAll().split('\n'))
                if (!line.trimmed().isEmpty())
                    pids.append(line.trimmed().toLongLong());
        }
        return pids;
    }
    [[nodiscard]] bool waitGone(qint64 pid, int ms = 5000) const
    {
        return QTest::qWaitFor([pid] { return !processExists(pid); }, ms);
    }
    /// Starts @p tunnel and waits for ready() or failed() (the error then).
    [[nodiscard]] static Result<void> startAndWait(SshTunnel &tunnel, const SshTarget &target)
    {
        QSignalSpy failed(&tunnel, &SshTunnel::failed);
        tunnel.start(target);
        if (!QTest::qWaitFor([&] { return tunnel.state() != SshTunnel::State::Starting; }, 120000))
            return Error{u"neither ready nor failed within 120 s"_s, {}};
        if (tunnel.state() == SshTunnel::State::Ready)
            return {};
        return Error{failed.isEmpty() ? u"not ready"_s : failed.constFirst().at(0).toString(), {}};
    }

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_ok = 0;
    int m_missing = 0;
    int m_broken = 0;
    int m_real = 0;
    QString m_project;
    test::WeftRunner m_weft;
};

void TestSshTunnel::initTestCase()
{
    const QString sshd = u"/usr/sbin/sshd"_s;
    if (!QFileInfo(sshd).isExecutable())
        QSKIP("no /usr/sbin/sshd (the openssh-server package; packaging/dev.sh installs it in the build root)");
    if (QStandardPaths::findExecutable(u"ssh"_s).isEmpty() || QStandardPaths::findExecutable(u"ssh-keygen"_s).isEmpty())
        QSKIP("no ssh or ssh-keygen on PATH (the openssh-client package)");
    if (::geteuid() != 0)
        QSKIP("sshd logs a user in only when it runs as root (privilege separation); this test runs as root in the build root");
    QVERIFY(m_dir.isValid());
    const QString d = m_dir.path();
    // sshd refuses to start without its privilege separation folder.
    if (!QDir(u"/run/sshd"_s).exists() && !QDir().mkpath(u"/run/sshd"_s))
        QSKIP("cannot make /run/sshd, which sshd needs");

    // Throwaway keys: the server's host key, the client's key (authorized for root).
    const QString hostKey = d + u"/host_key"_s, clientKey = d + u"/client_key"_s;
    QString failure = run(u"ssh-keygen"_s, {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-f"_s, hostKey});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    failure = run(u"ssh-keygen"_s, {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-f"_s, clientKey});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(QFile::copy(clientKey + u".pub"_s, d + u"/authorized_keys"_s));

    // The three "remote machines": a home each, and a bin folder on the PATH.
    const QString fake = QStringLiteral(WEFT_BINARY_DIR "/tests/fake_opencode_serve");
    QVERIFY2(QFileInfo(fake).isExecutable(), qPrintable(fake));
    for (const char *machine : {"ok", "missing", "broken", "real"}) {
        QVERIFY(QDir().mkpath(d + u'/' + QLatin1StringView(machine) + u"/home"_s));
        QVERIFY(QDir().mkpath(d + u'/' + QLatin1StringView(machine) + u"/bin"_s));
    }
    QVERIFY(QFile::link(fake, d + u"/ok/bin/opencode"_s));
    QVERIFY(QFile::link(fake, d + u"/broken/bin/opencode"_s));
    QVERIFY(writeFile(d + u"/broken/bin/fail"_s, "Error: this build of opencode is broken\n"));
    if (const QString real = qEnvironmentVariable("WEFT_OPENCODE_BIN"); QFileInfo(real).isExecutable())
        QVERIFY(QFile::link(real, d + u"/real/bin/opencode"_s));
    m_project = d + u"/ok/home/project"_s;
    QVERIFY(QDir().mkpath(m_project));

    m_ok = freePort();
    m_missing = freePort();
    m_broken = freePort();
    m_real = freePort();
    const QSet<int> ports{m_ok, m_missing, m_broken, m_real};
    QVERIFY(ports.size() == 4 && !ports.contains(0));
    const auto machineEnv = [&](const char *machine) {
        const QString m = d + u'/' + QLatin1StringView(machine);
        return u"SetEnv HOME=%1/home PATH=%1/bin:/usr/bin:/bin\n"_s.arg(m);
    };
    const QString sshdConfig = u"ListenAddress 127.0.0.1\n"
                               u"Port %1\nPort %2\nPort %3\nPort %6\n"
                               u"HostKey %4\n"
                               u"AuthorizedKeysFile %5/authorized_keys\n"
                               u"PidFile %5/sshd.pid\n"
                               u"StrictModes no\n"
                               u"UsePAM no\n"
                               u"PermitRootLogin yes\n"
                               u"PasswordAuthentication no\n"
                               u"KbdInteractiveAuthentication no\n"
                               u"AllowTcpForwarding yes\n"
                               u"PrintMotd no\n"
                               u"Subsystem sftp internal-sftp\n"_s.arg(m_ok)
                                   .arg(m_missing)
                                   .arg(m_broken)
                                   .arg(hostKey, d)
                                   .arg(m_real)
        + u"Match LocalPort %1\n"_s.arg(m_ok) + machineEnv("ok") + u"Match LocalPort %1\n"_s.arg(m_missing)
        + machineEnv("missing") + u"Match LocalPort %1\n"_s.arg(m_broken) + machineEnv("broken")
        + u"Match LocalPort %1\n"_s.arg(m_real) + machineEnv("real");
    QVERIFY(writeFile(d + u"/sshd_config"_s, sshdConfig.toUtf8()));
    failure = run(sshd, {u"-t"_s, u"-f"_s, d + u"/sshd_config"_s});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));

    // The client's own config: that key, a known_hosts of its own, no questions.
    const QString sshConfig = u"Host *\n"
                              u"  IdentityFile %1\n"
                              u"  IdentitiesOnly yes\n"
                              u"  UserKnownHostsFile %2/known_hosts\n"
                              u"  StrictHostKeyChecking no\n"_s.arg(clientKey, d);
    QVERIFY(writeFile(d + u"/ssh_config"_s, sshConfig.toUtf8()));
    qputenv("WEFT_SSH_CONFIG", (d + u"/ssh_config"_s).toLocal8Bit());

    m_sshd.setProcessChannelMode(QProcess::MergedChannels);
    m_sshd.start(sshd, {u"-D"_s, u"-e"_s, u"-f"_s, d + u"/sshd_config"_s});
    QVERIFY2(m_sshd.waitForStarted(), qPrintable(m_sshd.errorString()));
    (void)QTest::qWaitFor([this] { return portAccepts(m_ok) || m_sshd.state() != QProcess::Running; }, 10000);
    QVERIFY2(m_sshd.state() == QProcess::Running, m_sshd.readAll().constData());
    QVERIFY2(portAccepts(m_ok), "sshd does not listen");
    // Plain ssh first: where sshd cannot log anybody in (a user namespace without setgroups, a
    // seccomp sandbox that refuses it), that is this machine's, not Weft's.
    QProcess probe;
    probe.setProcessChannelMode(QProcess::MergedChannels);
    probe.start(u"ssh"_s, {u"-F"_s, d + u"/ssh_config"_s, u"-o"_s, u"BatchMode=yes"_s, u"-p"_s, QString::number(m_ok),
                           u"root@127.0.0.1"_s, u"true"_s});
    QVERIFY(probe.waitForFinished(30000));
    if (probe.exitCode() != 0) {
        const QByteArray sshdLog = m_sshd.readAll().trimmed();
        const QByteArray why = QByteArray(probe.readAll().trimmed() + " / sshd: " + sshdLog.mid(sshdLog.lastIndexOf('\n') + 1)).simplified();
        QSKIP(qPrintable(u"sshd runs here but cannot log in: "_s + QString::fromLocal8Bit(why)));
    }
}

void TestSshTunnel::cleanupTestCase()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(5000))
            m_sshd.kill();
        m_sshd.waitForFinished(2000);
    }
    // Every fake server started is gone.
    for (qint64 pid : fakePids())
        QVERIFY2(!processExists(pid), qPrintable(u"pid %1 still runs"_s.arg(pid)));
}

void TestSshTunnel::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical"); // empty: an error
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("path");

    QTest::newRow("host") << u"ssh://devbox"_s << u"ssh://devbox"_s << QString() << u"devbox"_s << 0 << QString();
    QTest::newRow("full") << u"ssh://me@dev.example.com:2222/srv/project/"_s << u"ssh://me@dev.example.com:2222/srv/project"_s
                          << u"me"_s << u"dev.example.com"_s << 2222 << u"/srv/project"_s;
    QTest::newRow("home") << u"ssh://me@box/~/work/app"_s << u"ssh://me@box/~/work/app"_s << u"me"_s << u"box"_s << 0
                          << u"~/work/app"_s;
    QTest::newRow("root path") << u"ssh://box/"_s << u"ssh://box"_s << QString() << u"box"_s << 0 << QString();
    QTest::newRow("ipv6") << u"ssh://[::1]:22/x"_s << u"ssh://[::1]:22/x"_s << QString() << u"::1"_s << 22 << u"/x"_s;
    QTest::newRow("space in folder") << u"ssh://box/my project"_s << u"ssh://box/my project"_s << QString() << u"box"_s
                                     << 0 << u"/my project"_s;
    // Hostile or odd: never an ssh option, never a shell word.
    const QString none;
    QTest::newRow("option host") << u"ssh://-oProxyCommand=x"_s << none << none << none << 0 << none;
    QTest::newRow("option host with user") << u"ssh://u@-oProxyCommand=touch%20x/"_s << none << none << none << 0 << none;
    QTest::newRow("option user") << u"ssh://-oProxyCommand=x@host"_s << none << none << none << 0 << none;
    QTest::newRow("space") << u"ssh://host -oProxyCommand=x"_s << none << none << none << 0 << none;
    QTest::newRow("password") << u"ssh://me:secret@host"_s << none << none << none << 0 << none;
    QTest::newRow("quote in folder") << u"ssh://host/a'b"_s << none << none << none << 0 << none;
    QTest::newRow("backslash in folder") << u"ssh://host/a%5Cb"_s << none << none << none << 0 << none;
    QTest::newRow("newline in folder") << u"ssh://host/a%0Ab"_s << none << none << none << 0 << none;
    QTest::newRow("query") << u"ssh://host/x?y=1"_s << none << none << none << 0 << none;
    QTest::newRow("no host") << u"ssh:///x"_s << none << none << none << 0 << none;
    QTest::newRow("http") << u"http://host"_s << none << none << none << 0 << none;
    QTest::newRow("bad port") << u"ssh://host:99999"_s << none << none << none << 0 << none;
}

void TestSshTunnel::parse()
{
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    const Result<SshTarget> target = SshTarget::parse(text);
    if (canonical.isEmpty()) {
        QVERIFY2(!target, qPrintable(target ? target->toString() : QString()));
        QVERIFY(target.error().message.contains(u"is not an ssh:// address"_s));
        QVERIFY(!target.error().message.contains(u'\n'));
        return;
    }
    QVERIFY2(target, qPrintable(target ? QString() : target.error().message));
    QTEST(target->user, "user");
    QTEST(target->host, "host");
    QTEST(target->port, "port");
    QTEST(target->path, "path");
    QCOMPARE(target->toString(), canonical);
    // The canonical address reads back as the same target.
    const Result<SshTarget> again = SshTarget::parse(target->toString());
    QVERIFY(again);
    QVERIFY(again.value() == target.value());
}

void TestSshTunnel::remoteScriptIsOneSafeLine()
{
    const QString script = SshTunnel::remoteScript();
    QVERIFY(!script.contains(u'\n'));
    QVERIFY(!script.contains(u'\''));
    QVERIFY(!script.contains(u'\\'));
    QVERIFY(!script.contains(u'!'));
    // A POSIX sh reads it (dash is Debian's sh).
    const QString check = run(u"sh"_s, {u"-n"_s, u"-c"_s, script});
    QVERIFY2(check.isEmpty(), qPrintable(check));
}

void TestSshTunnel::startListStop()
{
    SshTunnel tunnel;
    QSignalSpy ready(&tunnel, &SshTunnel::ready);
    const Result<void> started = startAndWait(tunnel, target(m_ok, m_project));
    QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
    QCOMPARE(ready.size(), 1);
    QCOMPARE(tunnel.state(), SshTunnel::State::Ready);
    qInfo("tunnel ready after %lld ms (ssh login, remote start, forward)", tunnel.setupMs());
    const QUrl url = tunnel.localUrl();
    QCOMPARE(url.host(), u"127.0.0.1"_s);
    QVERIFY(url.port() > 0 && url.port() != tunnel.remotePort());
    QVERIFY(tunnel.password().size() >= 32);

    // The remote server: the stand-in, in the project folder, known by its PID.
    const qint64 pid = tunnel.remotePid();
    QVERIFY(processExists(pid));
    QVERIFY(fakePids().contains(pid));
    QCOMPARE(QFileInfo(u"/proc/%1/cwd"_s.arg(pid)).canonicalFilePath(), QFileInfo(m_project).canonicalFilePath());
    // Only on loopback there.
    QVERIFY(portAccepts(tunnel.remotePort()));

    // Through the forwarded port, with the password made there.
    const Result<std::shared_ptr<ServerStore>> store = ServerClient::wait(ServerStore::connect(ServerClient(url, tunnel.password())));
    QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
    QCOMPARE(store.value()->info().version, u"1.18.34"_s);
    const Result<QList<Session>> sessions = store.value()->readSessions();
    QVERIFY2(sessions, qPrintable(sessions ? QString() : sessions.error().message));
    QVERIFY(std::any_of(sessions->cbegin(), sessions->cend(), [](const Session &s) { return s.title() == u"Recorded V1"; }));
    // And not without it.
    const Result<ServerInfo> wrong = ServerClient::wait(ServerClient(url, u"wrong"_s).probe());
    QVERIFY(!wrong);

    tunnel.stop();
    QCOMPARE(tunnel.state(), SshTunnel::State::Stopped);
    QVERIFY2(waitGone(pid, 2000), "the remote server still runs after stop()");
    QTRY_VERIFY(!portAccepts(url.port()));
    QTRY_VERIFY(!portAccepts(tunnel.remotePort()));
}

void TestSshTunnel::failures()
{
    QElapsedTimer timer;
    // Nobody listens on the port: ssh's own line.
    {
        const int closed = freePort();
        SshTunnel tunnel;
        timer.start();
        const Result<void> r = startAndWait(tunnel, target(closed));
        QVERIFY(!r);
        QVERIFY2(r.error().message.startsWith(u"ssh root@127.0.0.1: connect to host 127.0.0.1 port %1: Connection refused"_s.arg(closed)),
                 qPrintable(r.error().message));
        QVERIFY(!r.error().message.contains(u'\n'));
        QVERIFY(timer.elapsed() < 10000);
        QCOMPARE(tunnel.state(), SshTunnel::State::Failed);
    }
    // A key the server does not know.
    {
        SshTunnel tunnel;
        tunnel.setSshOptions({u"-F"_s, u"/dev/null"_s, u"-o"_s, u"UserKnownHostsFile=%1/known_hosts"_s.arg(m_dir.path()),
                              u"-o"_s, u"StrictHostKeyChecking=no"_s, u"-o"_s, u"IdentitiesOnly=yes"_s, u"-o"_s,
                              u"IdentityFile=/nonexistent"_s});
        const Result<void> r = startAndWait(tunnel, target(m_ok));
        QVERIFY(!r);
        QVERIFY2(r.error().message.startsWith(u"ssh root@127.0.0.1: Permission denied (publickey)"_s), qPrintable(r.error().message));
    }
    // No opencode on the remote machine.
    {
        SshTunnel tunnel;
        const Result<void> r = startAndWait(tunnel, target(m_missing));
        QVERIFY(!r);
        QCOMPARE(r.error().message, u"opencode is not installed on root@127.0.0.1 (not on its PATH, nor in ~/.opencode/bin or ~/.local/bin)"_s);
    }
    // An opencode that does not start: its own last line.
    {
        SshTunnel tunnel;
        const Result<void> r = startAndWait(tunnel, target(m_broken));
        QVERIFY(!r);
        QCOMPARE(r.error().message, u"opencode serve exited on root@127.0.0.1: Error: this build of opencode is broken"_s);
    }
    // A project folder that is not there.
    {
        SshTunnel tunnel;
        const Result<void> r = startAndWait(tunnel, target(m_ok, u"/nonexistent/project"_s));
        QVERIFY(!r);
        QCOMPARE(r.error().message, u"root@127.0.0.1 has no folder /nonexistent/project"_s);
    }
    // No ssh at all.
    {
        SshTunnel tunnel;
        tunnel.setSshProgram(u"/nonexistent/ssh"_s);
        const Result<void> r = startAndWait(tunnel, target(m_ok));
        QVERIFY(!r);
        QVERIFY2(r.error().message.startsWith(u"cannot run ssh"_s), qPrintable(r.error().message));
    }
    // A remote that never answers: the timeout.
    {
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        SshTunnel tunnel;
        tunnel.setTimeout(1500);
        timer.start();
        const Result<void> r = startAndWait(tunnel, target(silent.serverPort()));
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(u"did not start an OpenCode server within"_s), qPrintable(r.error().message));
        QVERIFY(timer.elapsed() < 6000);
    }
}

void TestSshTunnel::cliSessionList()
{
    QProcessEnvironment env;
    env.insert(u"WEFT_SSH_CONFIG"_s, m_dir.path() + u"/ssh_config"_s);
    const QList<qint64> before = fakePids();
    const QString address = u"ssh://root@127.0.0.1:%1%2"_s.arg(m_ok).arg(m_project);
    const WeftRun list = m_weft.run({u"--server"_s, address, u"session"_s, u"list"_s}, env);
    QVERIFY2(list.exitCode == 0, list.err.constData());
    QVERIFY2(list.out.contains("Recorded V1"), list.out.constData());
    const WeftRun json = m_weft.run({u"--server"_s, address, u"session"_s, u"list"_s, u"--format"_s, u"json"_s}, env);
    QVERIFY2(json.exitCode == 0, json.err.constData());
    QVERIFY(json.out.contains("\"title\": \"Recorded V1\"") || json.out.contains("\"title\":\"Recorded V1\""));
    // Each run started its own server there and stopped it when it ended.
    const QList<qint64> after = fakePids();
    QCOMPARE(after.size(), before.size() + 2);
    for (qint64 pid : after)
        QVERIFY2(waitGone(pid, 3000), qPrintable(u"pid %1 still runs"_s.arg(pid)));
}

void TestSshTunnel::cliErrors()
{
    QProcessEnvironment env;
    env.insert(u"WEFT_SSH_CONFIG"_s, m_dir.path() + u"/ssh_config"_s);
    const WeftRun missing = m_weft.run({u"--server"_s, u"ssh://root@127.0.0.1:%1"_s.arg(m_missing), u"session"_s, u"list"_s}, env);
    QVERIFY2(oneErrorLine(missing, u"opencode is not installed on root@127.0.0.1"_s), missing.err.constData());
    QVERIFY(missing.out.isEmpty());
    const WeftRun refused = m_weft.run({u"--server"_s, u"ssh://root@127.0.0.1:%1"_s.arg(freePort()), u"session"_s, u"list"_s}, env);
    QVERIFY2(oneErrorLine(refused, u"Connection refused"_s), refused.err.constData());
    // Never an ssh option: refused before ssh runs.
    const WeftRun hostile = m_weft.run({u"--server"_s, u"ssh://-oProxyCommand=touch${IFS}/tmp/weft-pwned"_s, u"session"_s, u"list"_s}, env);
    QVERIFY2(oneErrorLine(hostile, u"is not an ssh:// address"_s), hostile.err.constData());
    QVERIFY(!QFile::exists(u"/tmp/weft-pwned"_s));
    // A password file has nothing to do with an ssh:// server.
    const WeftRun password = m_weft.run({u"--server"_s, u"ssh://root@127.0.0.1:%1"_s.arg(m_ok), u"--password-file"_s,
                                         u"/dev/null"_s, u"session"_s, u"list"_s},
                                        env);
    QVERIFY2(oneErrorLine(password, u"--password-file"_s), password.err.constData());
}

void TestSshTunnel::killedWeftStopsTheRemoteServer()
{
    // `weft run` waits for the answer (the stand-in takes the prompt and never streams an
    // answer); weft is killed meanwhile:
    // its ssh sees its stdin end, and the remote script stops the server.
    const QList<qint64> before = fakePids();
    QProcess weft;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"WEFT_SSH_CONFIG"_s, m_dir.path() + u"/ssh_config"_s);
    env.insert(u"HOME"_s, m_weft.home() + u"/home"_s);
    env.insert(u"XDG_DATA_HOME"_s, m_weft.home() + u"/data"_s);
    env.insert(u"XDG_CONFIG_HOME"_s, m_weft.home() + u"/config"_s);
    // Where its control socket's folder stays behind (a killed weft cannot remove it).
    QVERIFY(QDir().mkpath(m_dir.path() + u"/tmp"_s));
    env.insert(u"TMPDIR"_s, m_dir.path() + u"/tmp"_s);
    env.remove(u"XDG_RUNTIME_DIR"_s);
    weft.setProcessEnvironment(env);
    weft.start(m_weft.binary(), {u"--server"_s, u"ssh://root@127.0.0.1:%1"_s.arg(m_ok), u"run"_s, u"--session"_s,
                         test::recordedExchange(u"create V1 session"_s).responseBody.toObject().string(u"id"), u"hello"_s});
    QVERIFY(weft.waitForStarted());
    (void)QTest::qWaitFor([&] { return fakePids().size() != before.size() || weft.state() != QProcess::Running; }, 20000);
    QCOMPARE(fakePids().size(), before.size() + 1);
    const qint64 pid = fakePids().constLast();
    QVERIFY(processExists(pid));
    QVERIFY2(weft.state() == QProcess::Running, weft.readAllStandardError().constData());
    weft.kill();
    QVERIFY(weft.waitForFinished(5000));
    QVERIFY2(waitGone(pid, 10000), "the remote server outlived a killed weft");
}

/// An HTTP GET of @p path through @p port with basic auth @p password: the status line.
static QByteArray httpStatus(int port, const QString &path, const QString &password)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, quint16(port));
    if (!socket.waitForConnected(5000))
        return {};
    socket.write("GET " + path.toUtf8() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Basic "
                 + (u"opencode:"_s + password).toUtf8().toBase64() + "\r\n\r\n");
    QByteArray answer;
    // The server may be this very process: the event loop runs meanwhile.
    (void)QTest::qWaitFor([&] {
        answer += socket.readAll();
        return answer.contains("\r\n") || socket.state() == QAbstractSocket::UnconnectedState;
    }, 10000);
    return answer.left(answer.indexOf("\r\n"));
}

void TestSshTunnel::remoteService()
{
    // OpenCode's background service on the "remote" machine: a stand-in server in this process
    // on loopback, registered in that machine's ~/.local/state/opencode/service.json with this
    // process's PID (which runs).
    const QString password = u"service-password-0123456789abcdef"_s;
    test::FakeOpencodeServer service(password);
    service.routeAllRecorded();
    QVERIFY(service.listen());
    const QString dir = m_dir.path() + u"/ok/home/.local/state/opencode"_s;
    QVERIFY(QDir().mkpath(dir));
    const QString file = dir + u"/service.json"_s;
    const auto cleanup = qScopeGuard([&] { QFile::remove(file); });
    const auto registration = [&](qint64 pid, const QString &url) {
        return u"{\"id\":\"x\",\"version\":\"2.0.9\",\"url\":\"%1\",\"pid\":%2,\"password\":\"%3\"}"_s.arg(url)
            .arg(pid)
            .arg(password)
            .toUtf8();
    };
    constexpr auto Private = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

    // Attached: no server started there, the forward leads to the service, with its password.
    {
        QVERIFY(writeFile(file, registration(::getpid(), service.url().toString()), Private));
        const QList<qint64> before = fakePids();
        SshTunnel tunnel;
        const Result<void> started = startAndWait(tunnel, target(m_ok, m_project));
        QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
        QVERIFY(tunnel.attachedToService());
        QCOMPARE(tunnel.serviceVersion(), u"2.0.9"_s);
        QCOMPARE(tunnel.remotePid(), qint64(::getpid()));
        QCOMPARE(tunnel.remotePort(), service.url().port());
        QCOMPARE(tunnel.password(), password);
        QCOMPARE(fakePids(), before);
        QCOMPARE(httpStatus(tunnel.localUrl().port(), u"/global/health"_s, password), "HTTP/1.1 200 OK");
        QVERIFY(service.count("GET", u"/global/health"_s) >= 1);
        const QUrl local = tunnel.localUrl();
        tunnel.stop();
        QTRY_VERIFY(!portAccepts(local.port()));
        // The service is left running.
        QVERIFY(portAccepts(service.url().port()));
    }
    // Not used, and said why; a server of the tunnel's own is started as before.
    struct Case {
        const char *name;
        QByteArray json;
        QFileDevice::Permissions permissions;
        QString why;
    };
    const QList<Case> cases{
        {"readable by others", registration(::getpid(), service.url().toString()), Private | QFileDevice::ReadOther,
         u"may be read or changed by others"_s},
        {"another host", registration(::getpid(), u"http://192.0.2.7:4096"_s), Private, u"not an http:// address on this machine"_s},
        {"a file URL", registration(::getpid(), u"file:///etc/passwd"_s), Private, u"not an http:// address on this machine"_s},
        {"damaged", QByteArray("{\"url\": \"http://127.0.0.1:1\", "), Private, u"not valid JSON"_s},
        {"stale", registration(999999999, service.url().toString()), Private, u"stale"_s},
    };
    for (const Case &c : cases) {
        QVERIFY(writeFile(file, c.json, c.permissions));
        SshTunnel tunnel;
        const Result<void> started = startAndWait(tunnel, target(m_ok, m_project));
        QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
        QVERIFY2(!tunnel.attachedToService(), c.name);
        QVERIFY2(tunnel.serviceProblem().contains(c.why), qPrintable(u"%1: %2"_s.arg(QLatin1StringView(c.name), tunnel.serviceProblem())));
        QVERIFY2(!tunnel.serviceProblem().contains(password), c.name);
        QVERIFY2(fakePids().contains(tunnel.remotePid()), c.name);
        QVERIFY(tunnel.password() != password);
        const qint64 pid = tunnel.remotePid();
        tunnel.stop();
        QVERIFY2(waitGone(pid, 5000), c.name);
    }
    // The command line says why it did not attach, and goes on with a server of its own.
    QVERIFY(writeFile(file, registration(::getpid(), service.url().toString()), Private | QFileDevice::ReadGroup));
    QProcessEnvironment env;
    env.insert(u"WEFT_SSH_CONFIG"_s, m_dir.path() + u"/ssh_config"_s);
    const WeftRun list = m_weft.run({u"--server"_s, u"ssh://root@127.0.0.1:%1%2"_s.arg(m_ok).arg(m_project), u"session"_s, u"list"_s}, env);
    QVERIFY2(list.exitCode == 0, list.err.constData());
    QVERIFY2(list.out.contains("Recorded V1"), list.out.constData());
    const QByteArray note = list.err.left(list.err.indexOf('\n'));
    QVERIFY2(note.startsWith("weft: note: ") && note.contains("may be read or changed by others"), list.err.constData());
    QVERIFY(!list.err.contains(password.toUtf8()));
}

void TestSshTunnel::serverSource()
{
    // What the window does with an ssh:// address: a source keyed by that address, that owns
    // its tunnel and shows the remote sessions.
    SshTarget t = target(m_ok, m_project);
    ServerSource source;
    QSignalSpy ready(&source, &ServerSource::ready);
    source.connectTo(ServerClient(t.url(), {}));
    QCOMPARE(source.state(), ServerSource::State::Connecting);
    QCOMPARE(source.key(), u"opencode-server:ssh://root@127.0.0.1:%1%2"_s.arg(m_ok).arg(m_project));
    QVERIFY2(ready.wait(20000), qPrintable(source.stateDetail()));
    QCOMPARE(source.state(), ServerSource::State::Connected);
    QCOMPARE(source.url(), t.url());
    QVERIFY2(source.label().contains(u"root@127.0.0.1:"_s + m_project), qPrintable(source.label()));
    QCOMPARE(source.version(), u"1.18.34"_s);
    const QString v1 = test::recordedExchange(u"create V1 session"_s).responseBody.toObject().string(u"id");
    QTRY_VERIFY_WITH_TIMEOUT(source.holds(v1), 10000);
    QVERIFY(source.tunnel());
    const qint64 pid = source.tunnel()->remotePid();
    QVERIFY(processExists(pid));
    source.close();
    QCOMPARE(source.state(), ServerSource::State::Disconnected);
    QVERIFY2(waitGone(pid, 2000), "the remote server still runs after close()");

    // A remote without opencode: the source fails with that line.
    QSignalSpy failed(&source, &ServerSource::failed);
    source.connectTo(target(m_missing));
    QVERIFY(failed.wait(20000));
    QCOMPARE(source.state(), ServerSource::State::Failed);
    QVERIFY2(source.stateDetail().startsWith(u"opencode is not installed on root@127.0.0.1"_s), qPrintable(source.stateDetail()));
    QCOMPARE(failed.constFirst().at(0).value<ServerSource::Operation>(), ServerSource::Operation::Connect);
}

void TestSshTunnel::realOpencode()
{
    if (!QFileInfo::exists(m_dir.path() + u"/real/bin/opencode"_s))
        QSKIP("WEFT_OPENCODE_BIN does not name an opencode binary (e.g. /var/cache/weft/opencode/1.18.34/package/bin/opencode)");
    const QString project = m_dir.path() + u"/real/home/project"_s;
    QVERIFY(QDir().mkpath(project));
    SshTunnel tunnel;
    const Result<void> started = startAndWait(tunnel, target(m_real, u"~/project"_s));
    QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
    qInfo("real opencode serve: tunnel ready after %lld ms", tunnel.setupMs());
    const qint64 pid = tunnel.remotePid();
    QVERIFY(processExists(pid));
    QCOMPARE(QFileInfo(u"/proc/%1/cwd"_s.arg(pid)).canonicalFilePath(), QFileInfo(project).canonicalFilePath());
    const Result<std::shared_ptr<ServerStore>> store = ServerClient::wait(ServerStore::connect(ServerClient(tunnel.localUrl(), tunnel.password())));
    QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
    QVERIFY(!store.value()->info().version.isEmpty());
    const Result<Session> created = store.value()->create(project, u"Over ssh"_s);
    QVERIFY2(created, qPrintable(created ? QString() : created.error().message));
    const Result<QList<Session>> sessions = store.value()->readSessions();
    QVERIFY2(sessions, qPrintable(sessions ? QString() : sessions.error().message));
    QVERIFY(std::any_of(sessions->cbegin(), sessions->cend(), [&](const Session &s) { return s.id() == created->id(); }));
    QVERIFY(!ServerClient::wait(ServerClient(tunnel.localUrl(), u"wrong"_s).probe()));
    QElapsedTimer timer;
    timer.start();
    tunnel.stop();
    qInfo("stopped in %lld ms", timer.elapsed());
    QVERIFY2(waitGone(pid, 2000), "the real opencode serve still runs after stop()");
}

QTEST_GUILESS_MAIN(TestSshTunnel)
#include "tst_sshtunnel.moc"
