// SPDX-License-Identifier: GPL-3.0-or-later
// The ssh tunnel's ready line ("WEFT-REMOTE ready PORT PASSWORD PID") carries the remote
// server's password: when Weft cannot understand it, the error and the log name what was wrong
// without it. A stand-in `ssh` prints the line; no sshd is needed.
#include "server/sshtunnel.h"

#include <QFile>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
QStringList s_messages;

void capture(QtMsgType, const QMessageLogContext &, const QString &message)
{
    s_messages.append(message);
}
} // namespace

class TestSshReadyLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unreadableReadyLineIsRedacted_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("shown");
        QTest::addRow("bad pid") << u"ready 4096 Pa55-word_XYZ-123 notapid"_s << u"ready 4096 *** ***"_s;
        QTest::addRow("bad port") << u"ready port Pa55-word_XYZ-123 4242"_s << u"ready *** *** 4242"_s;
        QTest::addRow("extra word") << u"ready 4096 Pa55-word_XYZ-123 4242 more"_s << u"ready 4096 *** 4242 ***"_s;
        QTest::addRow("missing pid") << u"ready 4096 Pa55-word_XYZ-123"_s << u"ready 4096 ***"_s;
    }

    void unreadableReadyLineIsRedacted()
    {
        QFETCH(QString, line);
        QFETCH(QString, shown);
        QTemporaryDir dir;
        const QString ssh = dir.path() + u"/ssh"_s;
        QFile script(ssh);
        QVERIFY(script.open(QIODevice::WriteOnly));
        // The master prints the line, then waits for its stdin to close (as the remote script
        // does); `ssh -O ...` control commands end at once.
        script.write("#!/bin/sh\ncase \" $* \" in *\" -O \"*) exit 0;; esac\necho 'WEFT-REMOTE " + line.toUtf8()
                     + "'\nread _ || true\n");
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));

        s_messages.clear();
        const QString rules = qEnvironmentVariable("QT_LOGGING_RULES");
        QLoggingCategory::setFilterRules(u"weft.*=true"_s);
        const QtMessageHandler previous = qInstallMessageHandler(capture);
        QString error;
        {
            SshTunnel tunnel;
            tunnel.setSshProgram(ssh);
            tunnel.setSshOptions({});
            QSignalSpy failed(&tunnel, &SshTunnel::failed);
            const Result<SshTarget> target = SshTarget::parse(u"ssh://user@example.invalid/project"_s);
            QVERIFY(target);
            tunnel.start(*target);
            QVERIFY(failed.wait(20000));
            error = failed.first().first().toString();
        }
        qInstallMessageHandler(previous);
        QLoggingCategory::setFilterRules(rules);

        QVERIFY2(error.contains(u"does not understand"_s), qPrintable(error));
        QVERIFY2(error.endsWith(shown), qPrintable(error));
        QVERIFY2(!error.contains(u"Pa55"_s), qPrintable(error));
        QVERIFY(!s_messages.isEmpty());
        for (const QString &message : std::as_const(s_messages))
            QVERIFY2(!message.contains(u"Pa55"_s), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestSshReadyLine)
#include "tst_sshreadyline.moc"
