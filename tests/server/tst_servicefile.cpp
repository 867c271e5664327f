// SPDX-License-Identifier: GPL-3.0-or-later
// OpenCode's background service file (service.json): what is trusted and what is refused.

#include "server/servicefile.h"
#include "testdata.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::writeFile;

namespace
{
const QString Password = u"pIV2-very-secret-password-0123456789abcdefg"_s;

QByteArray entry(const QString &url, qint64 pid, const QString &password = Password)
{
    return u"{\"id\":\"67024128-ce2c-4867-ad08-3b05842f820a\",\"version\":\"0.0.0-v2beta-db9e942\",\"url\":\"%1\","
           "\"pid\":%2,\"password\":\"%3\"}"_s.arg(url)
        .arg(pid)
        .arg(password)
        .toUtf8();
}

/// The PID of a process that ran and is gone.
qint64 deadPid()
{
    QProcess p;
    p.start(u"true"_s, {});
    p.waitForFinished();
    return p.processId() > 0 ? p.processId() : 999999999;
}

constexpr auto Private = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
} // namespace

class TestServiceFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_STATE_HOME", m_dir.path().toLocal8Bit());
        QDir(m_dir.path() + u"/opencode"_s).removeRecursively();
        QVERIFY(QDir().mkpath(m_dir.path() + u"/opencode"_s));
    }

    void paths()
    {
        QCOMPARE(ServiceFile::directory(), m_dir.path() + u"/opencode"_s);
        QCOMPARE(ServiceFile::pathFor(), m_dir.path() + u"/opencode/service.json"_s);
        QCOMPARE(ServiceFile::pathFor(u"beta"_s), m_dir.path() + u"/opencode/service-beta.json"_s);
        // A relative XDG_STATE_HOME is ignored (the XDG rule).
        qputenv("XDG_STATE_HOME", "relative/state");
        QCOMPARE(ServiceFile::directory(), QDir::homePath() + u"/.local/state/opencode"_s);
    }

    void channelOf_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<bool>("isService");
        QTest::addColumn<QString>("channel");
        QTest::addRow("default") << u"service"_s << true << QString();
        QTest::addRow("channel") << u"service:beta"_s << true << u"beta"_s;
        QTest::addRow("http") << u"http://127.0.0.1:4096"_s << false << QString();
        QTest::addRow("host named service with a port") << u"service:4096x/"_s << false << QString();
        QTest::addRow("path in channel") << u"service:../x"_s << false << QString();
        QTest::addRow("empty channel") << u"service:"_s << false << QString();
    }

    void channelOf()
    {
        QFETCH(QString, address);
        QFETCH(bool, isService);
        QFETCH(QString, channel);
        const std::optional<QString> got = ServiceFile::channelOf(address);
        QCOMPARE(got.has_value(), isService);
        if (got)
            QCOMPARE(*got, channel);
    }

    void readAccepts()
    {
        const QString path = ServiceFile::pathFor();
        QVERIFY(writeFile(path, entry(u"http://127.0.0.1:49374"_s, ::getpid()), Private));
        const Result<ServiceFile> service = ServiceFile::read(path);
        QVERIFY2(service, qPrintable(service ? QString() : service.error().toString()));
        QCOMPARE(service->url, QUrl(u"http://127.0.0.1:49374"_s));
        QCOMPARE(service->password, Password);
        QCOMPARE(service->pid, qint64(::getpid()));
        QCOMPARE(service->version, u"0.0.0-v2beta-db9e942"_s);
        QCOMPARE(service->channel, QString());
        QCOMPARE(service->path, path);
        // IPv6 loopback and localhost are this machine too.
        for (const QString &url : {u"http://[::1]:4096/"_s, u"http://localhost:4096"_s}) {
            QVERIFY(writeFile(path, entry(url, ::getpid()), Private));
            QVERIFY2(ServiceFile::read(path), qPrintable(url));
        }
    }

    void readRefuses_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("mode"); // octal permissions
        QTest::addColumn<QString>("why");
        const qint64 me = ::getpid();
        QTest::addRow("stale pid") << entry(u"http://127.0.0.1:4096"_s, deadPid()) << 0600 << u"not running"_s;
        QTest::addRow("readable by others") << entry(u"http://127.0.0.1:4096"_s, me) << 0644 << u"mode 644"_s;
        QTest::addRow("writable by the group") << entry(u"http://127.0.0.1:4096"_s, me) << 0620 << u"mode 620"_s;
        QTest::addRow("other host") << entry(u"http://example.com:4096"_s, me) << 0600 << u"not an http://"_s;
        QTest::addRow("LAN address") << entry(u"http://192.168.1.20:4096"_s, me) << 0600 << u"not an http://"_s;
        QTest::addRow("file URL") << entry(u"file:///etc/passwd"_s, me) << 0600 << u"not an http://"_s;
        QTest::addRow("https") << entry(u"https://127.0.0.1:4096"_s, me) << 0600 << u"not an http://"_s;
        QTest::addRow("no port") << entry(u"http://127.0.0.1"_s, me) << 0600 << u"not an http://"_s;
        QTest::addRow("user info") << entry(u"http://evil@127.0.0.1:4096"_s, me) << 0600 << u"not an http://"_s;
        QTest::addRow("damaged JSON") << QByteArray("{\"url\": \"http://127.0.0.1:4096\", \"pid\": ") << 0600
                                      << u"not valid JSON"_s;
        QTest::addRow("an array") << QByteArray("[]") << 0600 << u"not valid JSON"_s;
        QTest::addRow("no password") << entry(u"http://127.0.0.1:4096"_s, me, QString()) << 0600 << u"lacks"_s;
        QTest::addRow("pid as text") << entry(u"http://127.0.0.1:4096"_s, me).replace("\"pid\":", "\"pid\":\"x\",\"_\":")
                                     << 0600 << u"lacks"_s;
    }

    void readRefuses()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, mode);
        QFETCH(QString, why);
        const QString path = ServiceFile::pathFor();
        QVERIFY(writeFile(path, json, QFileDevice::Permissions()));
        QVERIFY(::chmod(QFile::encodeName(path).constData(), mode_t(mode)) == 0);
        const Result<ServiceFile> service = ServiceFile::read(path);
        QVERIFY(!service);
        const QString error = service.error().toString();
        QVERIFY2(error.contains(why), qPrintable(error));
        QVERIFY2(!error.contains(Password), qPrintable(error));
        QVERIFY(!error.contains(u'\n'));
    }

    void readRefusesNonFiles()
    {
        const QString path = ServiceFile::pathFor();
        QVERIFY(!ServiceFile::read(path));
        QVERIFY(ServiceFile::read(path).error().message.contains(u"no OpenCode service runs"_s));
        // A symlink (to a file that would pass) is not followed.
        const QString real = m_dir.path() + u"/real.json"_s;
        QVERIFY(writeFile(real, entry(u"http://127.0.0.1:4096"_s, ::getpid()), Private));
        QVERIFY(QFile::link(real, path));
        QVERIFY(ServiceFile::read(path).error().message.contains(u"not a regular file"_s));
    }

    void findLocal()
    {
        const qint64 me = ::getpid();
        QVERIFY(writeFile(ServiceFile::pathFor(u"zeta"_s), entry(u"http://127.0.0.1:5002"_s, me), Private));
        QVERIFY(writeFile(ServiceFile::pathFor(), entry(u"http://127.0.0.1:5001"_s, me), Private));
        QVERIFY(writeFile(ServiceFile::pathFor(u"beta"_s), entry(u"http://127.0.0.1:5003"_s, me),
                          Private | QFileDevice::ReadOther));
        QVERIFY(writeFile(ServiceFile::pathFor(u"old"_s), entry(u"http://127.0.0.1:5004"_s, deadPid()), Private));
        QStringList problems;
        const QList<ServiceFile> services = ServiceFile::findLocal(&problems);
        QCOMPARE(services.size(), 2);
        QCOMPARE(services.at(0).channel, QString()); // the default first
        QCOMPARE(services.at(0).url.port(), 5001);
        QCOMPARE(services.at(1).channel, u"zeta"_s);
        // The one others may read is a problem; the stale one is not.
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(u"service-beta.json"_s), qPrintable(problems.first()));
        QVERIFY(!problems.first().contains(Password));
    }

    void findLocalWithoutFolder()
    {
        QVERIFY(QDir(m_dir.path() + u"/opencode"_s).removeRecursively());
        QStringList problems;
        QVERIFY(ServiceFile::findLocal(&problems).isEmpty());
        QVERIFY(problems.isEmpty());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestServiceFile)
#include "tst_servicefile.moc"
