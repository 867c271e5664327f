// SPDX-License-Identifier: GPL-3.0-or-later
// The `weft` command line (app/cli.cpp), run as a real process against a copy of the OpenCode
// 1.1.53 fixture.

#include "core/json.h"
#include "testdata.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using weft::JsonArray;
using weft::JsonObject;
using weft::JsonValue;
using weft::test::FixtureDataDir;

namespace
{
const QString Main = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString Reverted = u"ses_dff05751fffexgWr6MRybGFAXU"_s;
const QString Child = u"ses_dff057405ffesKzX5TtUsbqkQ3"_s;
const QString FirstRun = u"ses_dff05d03effeSyJOWoDVIYjVxr"_s;
const QString MainThirdUser = u"msg_200fa80b3001AJYH04E0DKrTiZ"_s;
const QString ProjectID = u"6c8748ef28d89c4c344a1dd08dfcf985db02b468"_s;
const QStringList AllSessions{Main, u"ses_dff0577d4ffeyEniRVGIu2rzSP"_s, u"ses_dff0575f4ffevnacwZ5rX969u2"_s, Reverted, Child, FirstRun};

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

JsonValue parse(const QByteArray &bytes)
{
    std::optional<JsonValue> v = weft::parseJson(bytes);
    return v ? *v : JsonValue();
}

QString fixture(const QString &name)
{
    return weft::test::fixtureDir() + u'/' + name;
}

QStringList mentions(const QString &root, const QString &text)
{
    QStringList found;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains(text) || (it.fileInfo().isFile() && weft::test::readFile(path).contains(text.toUtf8())))
            found.append(path);
    }
    return found;
}
} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void listJson();
    void listTable();
    void listAllProjects();
    void exportMatchesOpenCode_data();
    void exportMatchesOpenCode();
    void fork();
    void forkAtMessage();
    void deleteCascades();
    void trashCommands();
    void errors_data();
    void errors();
    void importRefusesNonExport_data();
    void importRefusesNonExport();
    void importExportRoundTrip_data();
    void importExportRoundTrip();
    void importTwiceGetsNewIds();
    void importedSessionNeedsAcceptedDirectory();
    void help_data();
    void help();
    void damagedStore();
    void commandLoadsNoGuiLibrary();
    void windowWithoutCommand();
    void cleanupTestCase();

private:
    QProcessEnvironment environment() const;
    Run weft(const QStringList &args);
    Run weft(const QString &dataDir, const QStringList &args) { return weft(QStringList{u"--data-dir"_s, dataDir} + args); }

    QString m_binary;
    QTemporaryDir m_home;
};

void TestCli::initTestCase()
{
    m_binary = QStringLiteral(WEFT_BINARY_DIR "/bin/weft");
    QVERIFY2(QFileInfo(m_binary).isExecutable(), qPrintable(m_binary));
    QVERIFY(m_home.isValid());
    for (const char *dir : {"home", "data", "config", "cache", "state", "runtime"})
        QVERIFY(QDir().mkpath(m_home.path() + u'/' + QLatin1StringView(dir)));
    QFile::setPermissions(m_home.path() + u"/runtime"_s, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

void TestCli::cleanupTestCase()
{
    // No command wrote to the default data dir or anywhere else in the home folder.
    QCOMPARE(weft::test::entriesUnder(m_home.path() + u"/data"_s), QStringList());
    QCOMPARE(weft::test::entriesUnder(m_home.path() + u"/home"_s), QStringList());
}

/// A home of the test's own, and no display at all: a command must not need one.
QProcessEnvironment TestCli::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"HOME"_s, m_home.path() + u"/home"_s);
    env.insert(u"XDG_DATA_HOME"_s, m_home.path() + u"/data"_s);
    env.insert(u"XDG_CONFIG_HOME"_s, m_home.path() + u"/config"_s);
    env.insert(u"XDG_CACHE_HOME"_s, m_home.path() + u"/cache"_s);
    env.insert(u"XDG_STATE_HOME"_s, m_home.path() + u"/state"_s);
    env.insert(u"XDG_RUNTIME_DIR"_s, m_home.path() + u"/runtime"_s);
    env.insert(u"LC_ALL"_s, u"C.UTF-8"_s);
    env.remove(u"WEFT_DATA_DIR"_s);
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    env.remove(u"QT_QPA_PLATFORM"_s);
    return env;
}

Run TestCli::weft(const QStringList &args)
{
    QProcess process;
    process.setProcessEnvironment(environment());
    process.setWorkingDirectory(m_home.path());
    process.start(m_binary, args);
    Run run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

void TestCli::listJson()
{
    FixtureDataDir dir;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());
    const Run run = weft(dir.path(), {u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, weft::test::readFile(fixture(u"session-list.json"_s)));
    QCOMPARE(run.err, QByteArray());
    // `--data-dir=DIR` and `--format=json` say the same.
    const Run again = weft({u"--data-dir="_s + dir.path(), u"session"_s, u"list"_s, u"--format=json"_s});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(again.out, run.out);
    QVERIFY(weft::test::snapshotTree(dir.path()) == before);
}

void TestCli::listTable()
{
    FixtureDataDir dir;
    const Run run = weft(dir.path(), {u"session"_s, u"list"_s});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    const QString text = QString::fromUtf8(run.out);
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2 + 5); // header, rule, five root sessions
    QVERIFY(lines.first().contains(u"Session ID"_s));
    QVERIFY(lines.first().contains(u"Title"_s));
    const JsonArray roots = parse(weft::test::readFile(fixture(u"session-list.json"_s))).toArray();
    for (qsizetype i = 0; i < roots.size(); ++i) {
        const JsonObject s = roots.at(i).toObject();
        // Newest first, one line each, with ID and title.
        QVERIFY2(lines.at(2 + i).startsWith(s.string(u"id")), qPrintable(lines.at(2 + i)));
        QVERIFY2(lines.at(2 + i).contains(s.string(u"title")), qPrintable(lines.at(2 + i)));
    }
    QVERIFY(!text.contains(u"child of hand-named"_s)); // children are not listed
    QCOMPARE(weft(dir.path(), {u"session"_s, u"list"_s, u"--format"_s, u"table"_s}).out, run.out);
}

void TestCli::listAllProjects()
{
    // Unlike `opencode session list` (the project of the current directory), Weft lists the
    // root sessions of every project in the data dir.
    FixtureDataDir dir;
    JsonObject other = parse(weft::test::readFile(dir.storage() + u"/session/"_s + ProjectID + u'/' + FirstRun + u".json"_s)).toObject();
    const QString otherID = u"ses_dfe000000ffeAAAAAAAAAAAAAA"_s;
    other.insert(u"id"_s, otherID);
    other.insert(u"projectID"_s, u"global"_s);
    other.insert(u"directory"_s, u"/home/dev/elsewhere"_s);
    JsonObject time = other.object(u"time");
    time.insert(u"updated"_s, qint64(1795312800000));
    other.insert(u"time"_s, time);
    QVERIFY(QDir().mkpath(dir.storage() + u"/session/global"_s));
    {
        QFile f(dir.storage() + u"/session/global/"_s + otherID + u".json"_s);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(weft::toJson(other, 2));
    }
    const Run run = weft(dir.path(), {u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(run.exitCode, 0);
    const JsonArray list = parse(run.out).toArray();
    QCOMPARE(list.size(), 6);
    QCOMPARE(list.at(0).toObject().string(u"id"), otherID);
    QCOMPARE(list.at(0).toObject().string(u"projectId"), u"global"_s);
    QCOMPARE(list.at(0).toObject().string(u"directory"), u"/home/dev/elsewhere"_s);
    QCOMPARE(list.at(1).toObject().string(u"id"), Reverted);
    QCOMPARE(list.at(0).toObject().keys(),
             (QStringList{u"id"_s, u"title"_s, u"updated"_s, u"created"_s, u"projectId"_s, u"directory"_s}));
}

void TestCli::exportMatchesOpenCode_data()
{
    QTest::addColumn<QString>("sessionID");
    for (const QString &id : AllSessions)
        QTest::addRow("%s", qPrintable(id)) << id;
}

void TestCli::exportMatchesOpenCode()
{
    QFETCH(QString, sessionID);
    FixtureDataDir dir;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());
    const Run run = weft(dir.path(), {u"export"_s, sessionID});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    QCOMPARE(run.out, weft::test::readFile(fixture(u"export/"_s + sessionID + u".json"_s)));
    QVERIFY(weft::test::snapshotTree(dir.path()) == before);
}

void TestCli::fork()
{
    FixtureDataDir dir;
    const Run run = weft(dir.path(), {u"session"_s, u"fork"_s, Main});
    QCOMPARE(run.exitCode, 0);
    const QRegularExpression idLine(u"^(ses_[0-9a-f]{12}[0-9A-Za-z]{14})\n$"_s);
    const QRegularExpressionMatch match = idLine.match(QString::fromUtf8(run.out));
    QVERIFY2(match.hasMatch(), run.out.constData());
    const QString forkID = match.captured(1);
    QVERIFY(!run.err.contains("error"));

    // It lists (newest first: it was updated last) and exports.
    const JsonArray list = parse(weft(dir.path(), {u"session"_s, u"list"_s, u"--format"_s, u"json"_s}).out).toArray();
    QCOMPARE(list.size(), 6);
    QCOMPARE(list.at(0).toObject().string(u"id"), forkID);
    QCOMPARE(list.at(0).toObject().string(u"title"), u"Scripted session please create the fi (fork #1)"_s);
    QCOMPARE(list.at(0).toObject().string(u"projectId"), ProjectID);
    const Run exported = weft(dir.path(), {u"export"_s, forkID});
    QCOMPARE(exported.exitCode, 0);
    const JsonObject doc = parse(exported.out).toObject();
    QCOMPARE(doc.object(u"info").string(u"id"), forkID);
    QVERIFY(!doc.object(u"info").contains(u"parentID"));
    const JsonArray messages = doc.array(u"messages");
    QCOMPARE(messages.size(), 30);
    for (const JsonValue &m : messages)
        QCOMPARE(m.toObject().object(u"info").string(u"sessionID"), forkID);
    QCOMPARE(QFileInfo::exists(dir.storage() + u"/session/"_s + ProjectID + u'/' + forkID + u".json"_s), true);

    // A fork of the fork counts on.
    const Run second = weft(dir.path(), {u"session"_s, u"fork"_s, forkID});
    QCOMPARE(second.exitCode, 0);
    const QString secondID = QString::fromUtf8(second.out).trimmed();
    const JsonObject secondDoc = parse(weft(dir.path(), {u"export"_s, secondID}).out).toObject();
    QCOMPARE(secondDoc.object(u"info").string(u"title"), u"Scripted session please create the fi (fork #2)"_s);
}

void TestCli::forkAtMessage()
{
    FixtureDataDir dir;
    for (const QStringList &form : {QStringList{u"--message"_s, MainThirdUser}, QStringList{u"--message="_s + MainThirdUser}}) {
        const Run run = weft(dir.path(), QStringList{u"session"_s, u"fork"_s, Main} + form);
        QCOMPARE(run.exitCode, 0);
        const QString forkID = QString::fromUtf8(run.out).trimmed();
        QVERIFY(forkID.startsWith(u"ses_"_s));
        const JsonObject doc = parse(weft(dir.path(), {u"export"_s, forkID}).out).toObject();
        const JsonArray messages = doc.array(u"messages");
        // The messages before the third user message: two turns of user + 2 assistant replies.
        QCOMPARE(messages.size(), 6);
        QCOMPARE(messages.at(0).toObject().object(u"info").string(u"role"), u"user"_s);
        QCOMPARE(messages.at(1).toObject().object(u"info").string(u"parentID"),
                 messages.at(0).toObject().object(u"info").string(u"id"));
    }
}

void TestCli::deleteCascades()
{
    FixtureDataDir dir;
    const Run run = weft(dir.path(), {u"session"_s, u"delete"_s, Reverted});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray());
    // The session and its child are gone, with every file that held them.
    QVERIFY2(mentions(dir.storage(), Reverted).isEmpty(), qPrintable(mentions(dir.storage(), Reverted).join(u'\n')));
    QVERIFY(mentions(dir.storage(), Child).isEmpty());
    const JsonArray list = parse(weft(dir.path(), {u"session"_s, u"list"_s, u"--format"_s, u"json"_s}).out).toArray();
    QCOMPARE(list.size(), 4);
    for (const JsonValue &s : list)
        QVERIFY(s.toObject().string(u"id") != Reverted);
    const Run exported = weft(dir.path(), {u"export"_s, Child});
    QCOMPARE(exported.exitCode, 1);
    QVERIFY(exported.err.contains("Session not found"));
    // Deleting it again fails.
    const Run again = weft(dir.path(), {u"session"_s, u"delete"_s, Reverted});
    QVERIFY(again.exitCode != 0);
    QVERIFY(again.err.contains("no session"));
}

void TestCli::trashCommands()
{
    FixtureDataDir dir;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.storage());
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"list"_s}).out, QByteArray("The trash is empty.\n"));
    // `session delete` moves to the trash and says how to restore.
    const Run deleted = weft(dir.path(), {u"session"_s, u"delete"_s, Reverted});
    QCOMPARE(deleted.exitCode, 0);
    QVERIFY(deleted.err.contains("weft trash restore"));
    const JsonArray list = parse(weft(dir.path(), {u"trash"_s, u"list"_s, u"--format"_s, u"json"_s}).out).toArray();
    QCOMPARE(list.size(), 1);
    const JsonObject entry = list.at(0).toObject();
    QCOMPARE(entry.string(u"sessionID"), Reverted);
    QCOMPARE(entry.string(u"title"), u"Hand-named session"_s);
    QCOMPARE(entry.array(u"children").size(), 1);
    QVERIFY(weft(dir.path(), {u"trash"_s, u"list"_s}).out.contains("Hand-named session (+1 child sessions)"));
    // Restored by the session's ID, byte for byte.
    const Run restored = weft(dir.path(), {u"trash"_s, u"restore"_s, Reverted});
    QCOMPARE(restored.exitCode, 0);
    QCOMPARE(restored.out, (Reverted + u'\n').toUtf8());
    QVERIFY(weft::test::snapshotTree(dir.storage()) == before);
    // A second restore finds nothing.
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"restore"_s, Reverted}).exitCode, 1);
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"restore"_s, u"../storage"_s}).exitCode, 1);
    // delete by entry, empty, and --permanently skips the trash.
    QCOMPARE(weft(dir.path(), {u"session"_s, u"delete"_s, Reverted}).exitCode, 0);
    const QString id = parse(weft(dir.path(), {u"trash"_s, u"list"_s, u"--format"_s, u"json"_s}).out)
                           .toArray().at(0).toObject().string(u"entry");
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"delete"_s, id}).exitCode, 0);
    QCOMPARE(weft(dir.path(), {u"session"_s, u"delete"_s, Main}).exitCode, 0);
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"empty"_s}).exitCode, 0);
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"list"_s}).out, QByteArray("The trash is empty.\n"));
    QCOMPARE(weft(dir.path(), {u"session"_s, u"delete"_s, u"--permanently"_s, FirstRun}).exitCode, 0);
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"list"_s}).out, QByteArray("The trash is empty.\n"));
    QVERIFY(mentions(dir.storage(), FirstRun).isEmpty());
    QCOMPARE(weft(dir.path(), {u"trash"_s, u"bogus"_s}).exitCode, 2);
}

void TestCli::errors_data()
{
    QTest::addColumn<QStringList>("args");     // "DATA" is replaced by the data dir
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");     // part of stderr

    const QString D = u"DATA"_s;
    QTest::addRow("unknown command") << QStringList{u"--data-dir"_s, D, u"frobnicate"_s} << 2 << u"unknown command \"frobnicate\""_s;
    QTest::addRow("unknown session command") << QStringList{u"--data-dir"_s, D, u"session"_s, u"frobnicate"_s} << 2 << u"unknown session command"_s;
    QTest::addRow("missing session command") << QStringList{u"--data-dir"_s, D, u"session"_s} << 2 << u"Usage: weft"_s;
    QTest::addRow("unknown global option") << QStringList{u"--data-dir"_s, D, u"--bogus"_s, u"session"_s, u"list"_s} << 2 << u"unknown option \"--bogus\""_s;
    QTest::addRow("unknown command option") << QStringList{u"--data-dir"_s, D, u"session"_s, u"list"_s, u"--frob"_s} << 2 << u"frob"_s;
    QTest::addRow("data dir without value") << QStringList{u"--data-dir"_s} << 2 << u"--data-dir needs a value"_s;
    // The window's --session (the session it shows at start) is no command's.
    QTest::addRow("window's session before a command")
        << QStringList{u"--data-dir"_s, D, u"--session"_s, u"ses_x"_s, u"session"_s, u"list"_s} << 2
        << u"--session before a command is the window's"_s;
    QTest::addRow("missing data dir") << QStringList{u"--data-dir"_s, D + u"/does/not/exist"_s, u"session"_s, u"list"_s} << 1 << u"no such folder"_s;
    QTest::addRow("unknown format") << QStringList{u"--data-dir"_s, D, u"session"_s, u"list"_s, u"--format"_s, u"xml"_s} << 2 << u"unknown format \"xml\""_s;
    QTest::addRow("export without ID") << QStringList{u"--data-dir"_s, D, u"export"_s} << 2 << u"export takes one SESSION_ID"_s;
    QTest::addRow("export with two IDs") << QStringList{u"--data-dir"_s, D, u"export"_s, Main, Child} << 2 << u"export takes one SESSION_ID"_s;
    QTest::addRow("export of an unknown session") << QStringList{u"--data-dir"_s, D, u"export"_s, u"ses_doesnotexist00000000000000"_s} << 1 << u"Session not found"_s;
    QTest::addRow("export of ../../etc") << QStringList{u"--data-dir"_s, D, u"export"_s, u"../../etc"_s} << 2 << u"invalid session ID"_s;
    QTest::addRow("export of a message ID") << QStringList{u"--data-dir"_s, D, u"export"_s, MainThirdUser} << 2 << u"does not start with \"ses_\""_s;
    QTest::addRow("fork of ../../etc") << QStringList{u"--data-dir"_s, D, u"session"_s, u"fork"_s, u"../../etc"_s} << 2 << u"invalid session ID"_s;
    QTest::addRow("fork of an unknown session") << QStringList{u"--data-dir"_s, D, u"session"_s, u"fork"_s, u"ses_doesnotexist00000000000000"_s} << 1 << u"no session"_s;
    QTest::addRow("fork at ../../x") << QStringList{u"--data-dir"_s, D, u"session"_s, u"fork"_s, Main, u"--message"_s, u"../../x"_s} << 2 << u"invalid message ID"_s;
    QTest::addRow("fork at a message of another session")
        << QStringList{u"--data-dir"_s, D, u"session"_s, u"fork"_s, Main, u"--message"_s, u"msg_200fa8bfb001UoftnChDaZmuoA"_s} << 1 << u"has no message"_s;
    QTest::addRow("fork without ID") << QStringList{u"--data-dir"_s, D, u"session"_s, u"fork"_s} << 2 << u"session fork takes one SESSION_ID"_s;
    QTest::addRow("delete of ../../etc") << QStringList{u"--data-dir"_s, D, u"session"_s, u"delete"_s, u"../../etc"_s} << 2 << u"invalid session ID"_s;
    QTest::addRow("delete of ses_../../storage") << QStringList{u"--data-dir"_s, D, u"session"_s, u"delete"_s, u"ses_../../storage"_s} << 2 << u"path separator"_s;
    QTest::addRow("delete of an empty ID") << QStringList{u"--data-dir"_s, D, u"session"_s, u"delete"_s, QString()} << 2 << u"invalid session ID"_s;
    QTest::addRow("delete of an unknown session") << QStringList{u"--data-dir"_s, D, u"session"_s, u"delete"_s, u"ses_doesnotexist00000000000000"_s} << 1 << u"no session"_s;
    QTest::addRow("import of a missing file") << QStringList{u"--data-dir"_s, D, u"import"_s, D + u"/nothing-here.json"_s} << 1 << u"nothing imported"_s;
    QTest::addRow("import without a file") << QStringList{u"--data-dir"_s, D, u"import"_s} << 2 << u"import takes one FILE"_s;
}

void TestCli::errors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    FixtureDataDir dir;
    for (QString &a : args)
        a.replace(u"DATA"_s, dir.path());
    const QStringList entries = weft::test::entriesUnder(dir.path());
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());

    const Run run = weft(args);
    QCOMPARE(run.exitCode, exitCode);
    QCOMPARE(run.out, QByteArray()); // nothing on stdout: a script reading it gets nothing
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    QVERIFY2(run.err.startsWith("weft: error: ") || run.err.startsWith("Usage: weft"), run.err.constData());
    // Nothing written.
    QCOMPARE(weft::test::entriesUnder(dir.path()), entries);
    QVERIFY(weft::test::snapshotTree(dir.path()) == before);
}

void TestCli::importRefusesNonExport_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    QTest::addRow("the session list") << weft::test::readFile(fixture(u"session-list.json"_s)) << u"not a valid session export"_s;
    QTest::addRow("a session file") << weft::test::readFile(fixture(u"storage/session/"_s + ProjectID + u'/' + Main + u".json"_s))
                                    << u"not a valid session export"_s;
    QTest::addRow("plain text") << "hello\n"_ba << u"not valid JSON"_s;
    QTest::addRow("empty") << QByteArray() << u"the file is empty"_s;
    QTest::addRow("NUL bytes") << QByteArray(1024, '\0') << u"not valid JSON"_s;
    QTest::addRow("truncated export") << weft::test::readFile(fixture(u"export/"_s + Child + u".json"_s)).left(900) << u"not valid JSON"_s;
}

void TestCli::importRefusesNonExport()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    const QString file = tmp.path() + u"/input.json"_s;
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    // Into the fixture store and into a new, empty data dir: nothing is written to either.
    FixtureDataDir dir;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());
    Run run = weft(dir.path(), {u"import"_s, file});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.out, QByteArray());
    QVERIFY2(run.err.contains("nothing imported"), run.err.constData());
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    QVERIFY2(run.err.contains(file.toUtf8()), run.err.constData());
    QVERIFY(weft::test::snapshotTree(dir.path()) == before);

    const QString fresh = tmp.path() + u"/fresh"_s;
    run = weft(fresh, {u"import"_s, file});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.out, QByteArray());
    // At most the empty layout of a new data dir: no session, message or part.
    for (const QString &entry : weft::test::entriesUnder(fresh))
        QVERIFY2(entry == u"storage"_s || entry == u"storage/migration"_s, qPrintable(entry));
}

void TestCli::importExportRoundTrip_data()
{
    exportMatchesOpenCode_data();
}

void TestCli::importExportRoundTrip()
{
    // `weft import` of an `opencode export` file into an empty data dir keeps the IDs; `weft
    // export` then prints the file again, byte for byte.
    QFETCH(QString, sessionID);
    QTemporaryDir tmp;
    const QString data = tmp.path() + u"/data"_s;
    const QString file = fixture(u"export/"_s + sessionID + u".json"_s);
    const Run imported = weft(data, {u"import"_s, file});
    QCOMPARE(imported.exitCode, 0);
    QCOMPARE(imported.out, QByteArray(sessionID.toUtf8() + '\n'));
    const Run exported = weft(data, {u"export"_s, sessionID});
    QCOMPARE(exported.exitCode, 0);
    QCOMPARE(exported.out, weft::test::readFile(file));
    // The files are the ones OpenCode wrote.
    const QString session = u"session/"_s + ProjectID + u'/' + sessionID + u".json"_s;
    QCOMPARE(weft::test::readFile(data + u"/storage/"_s + session), weft::test::readFile(fixture(u"storage/"_s + session)));
    QCOMPARE(weft::test::readFile(data + u"/storage/migration"_s), "2"_ba);
}

void TestCli::importTwiceGetsNewIds()
{
    FixtureDataDir dir;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());
    const Run run = weft(dir.path(), {u"import"_s, fixture(u"export/"_s + Main + u".json"_s)});
    QCOMPARE(run.exitCode, 0);
    const QString newID = QString::fromUtf8(run.out).trimmed();
    QVERIFY(newID.startsWith(u"ses_"_s));
    QVERIFY(newID != Main);
    QVERIFY(run.err.contains("new IDs"));
    const QMap<QString, QByteArray> after = weft::test::snapshotTree(dir.path());
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        QVERIFY2(after.value(it.key()) == it.value(), qPrintable(it.key()));
    const JsonObject doc = parse(weft(dir.path(), {u"export"_s, newID}).out).toObject();
    QCOMPARE(doc.array(u"messages").size(), 30);
    QCOMPARE(doc.object(u"info").string(u"title"), u"Scripted session please create the fi"_s);
}

void TestCli::importedSessionNeedsAcceptedDirectory()
{
    // `weft import` says which directory the file claims; revert refuses it until `weft session
    // accept` (or --accept-directory), and the help says how.
    QTemporaryDir tmp;
    const QString data = tmp.path() + u"/data"_s;
    const Run imported = weft(data, {u"import"_s, fixture(u"export/"_s + Main + u".json"_s)});
    QCOMPARE(imported.exitCode, 0);
    const QByteArray directory = parse(weft::test::readFile(fixture(u"export/"_s + Main + u".json"_s)))
                                     .toObject()
                                     .object(u"info")
                                     .string(u"directory")
                                     .toUtf8();
    QVERIFY2(imported.err.contains(QByteArray("claims the directory " + directory)), imported.err.constData());
    QVERIFY2(imported.err.contains(QByteArray("weft session accept " + Main.toUtf8())), imported.err.constData());

    const Run refused = weft(data, {u"session"_s, u"unrevert"_s, Main});
    QCOMPARE(refused.exitCode, 0); // nothing pending: nothing to refuse
    const Run revert = weft(data, {u"session"_s, u"revert"_s, Main, MainThirdUser});
    QCOMPARE(revert.exitCode, 1);
    QVERIFY2(revert.err.contains("have not confirmed") && revert.err.contains(directory), revert.err.constData());
    QVERIFY(revert.err.contains("--accept-directory"));

    const Run accepted = weft(data, {u"session"_s, u"accept"_s, Main});
    QCOMPARE(accepted.exitCode, 0);
    QVERIFY2(accepted.out.contains(QByteArray("Accepted " + directory)), accepted.out.constData());
    const Run again = weft(data, {u"session"_s, u"revert"_s, Main, MainThirdUser});
    QVERIFY2(!again.err.contains("have not confirmed"), again.err.constData());

    QVERIFY(weft({u"session"_s, u"--help"_s}).out.contains("accept SESSION_ID"));
    QVERIFY(weft({u"run"_s, u"--help"_s}).out.contains("--accept-directory"));
}

void TestCli::help_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("usage");
    const QString top = u"Usage: weft [--data-dir DIR | --server URL [--password-file FILE]] [--session ID | COMMAND ...]"_s;
    QTest::addRow("--help") << QStringList{u"--help"_s} << top;
    QTest::addRow("-h") << QStringList{u"-h"_s} << top;
    QTest::addRow("help") << QStringList{u"help"_s} << top;
    QTest::addRow("session --help") << QStringList{u"session"_s, u"--help"_s} << u"Usage: weft [--data-dir DIR] session COMMAND"_s;
    QTest::addRow("session help") << QStringList{u"session"_s, u"help"_s} << u"Usage: weft [--data-dir DIR] session COMMAND"_s;
    QTest::addRow("help session") << QStringList{u"help"_s, u"session"_s} << u"Usage: weft [--data-dir DIR] session COMMAND"_s;
    QTest::addRow("session list --help") << QStringList{u"session"_s, u"list"_s, u"--help"_s} << u"Usage: weft [--data-dir DIR] session list"_s;
    QTest::addRow("session fork --help") << QStringList{u"session"_s, u"fork"_s, u"--help"_s} << u"Usage: weft [--data-dir DIR] session fork [options] SESSION_ID"_s;
    QTest::addRow("session fork -h") << QStringList{u"session"_s, u"fork"_s, u"-h"_s} << u"--message"_s;
    QTest::addRow("session delete --help") << QStringList{u"session"_s, u"delete"_s, u"--help"_s} << u"Usage: weft [--data-dir DIR] session delete [options] SESSION_ID"_s;
    QTest::addRow("export --help") << QStringList{u"export"_s, u"--help"_s} << u"Usage: weft [--data-dir DIR] export [options] SESSION_ID"_s;
    QTest::addRow("--help export") << QStringList{u"--help"_s, u"export"_s} << u"Usage: weft [--data-dir DIR] export [options] SESSION_ID"_s;
    QTest::addRow("import --help") << QStringList{u"import"_s, u"--help"_s} << u"Usage: weft [--data-dir DIR] import [options] FILE"_s;
    QTest::addRow("--version") << QStringList{u"--version"_s} << u"weft 0."_s;
}

void TestCli::help()
{
    QFETCH(QStringList, args);
    QFETCH(QString, usage);
    const Run run = weft(args);
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(usage.toUtf8()), run.out.constData());
    QCOMPARE(run.err, QByteArray());
    // Help never opens or creates a data dir (checked again in cleanupTestCase).
    QCOMPARE(weft::test::entriesUnder(m_home.path() + u"/data"_s), QStringList());
}

void TestCli::commandLoadsNoGuiLibrary()
{
    // The window's libraries (Qt Gui, Widgets, KF6 and what they pull in) are weft-window's: a
    // command starts without loading them. LD_TRACE_LOADED_OBJECTS makes the dynamic linker list
    // what it would load (what ldd prints) instead of running the program.
    QProcess process;
    QProcessEnvironment env = environment();
    env.insert(u"LD_TRACE_LOADED_OBJECTS"_s, u"1"_s);
    process.setProcessEnvironment(env);
    process.start(m_binary, {u"--version"_s});
    QVERIFY(process.waitForFinished(60000));
    const QByteArray libraries = process.readAllStandardOutput();
    QVERIFY2(libraries.contains("libQt6Core.so"), libraries.constData());
    for (const char *gui : {"libQt6Gui.so", "libQt6Widgets.so", "libKF6SyntaxHighlighting.so", "libQt6DBus.so"})
        QVERIFY2(!libraries.contains(gui), gui);
}

void TestCli::windowWithoutCommand()
{
    // Without a command, weft becomes the window (weft-window, by execv: same process).
    QTemporaryDir dataDir;
    QVERIFY(dataDir.isValid());
    QProcess process;
    QProcessEnvironment env = environment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    process.setProcessEnvironment(env);
    process.start(m_binary, {u"--data-dir"_s, dataDir.path()});
    QVERIFY(process.waitForStarted());
    const QString exe = u"/proc/%1/exe"_s.arg(process.processId());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(exe).symLinkTarget().endsWith(u"/weft-window"), 30000);
    // The window opened the data dir it was given (its log is there), and keeps running.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(dataDir.path() + u"/log"_s), 30000);
    QCOMPARE(process.state(), QProcess::Running);
    process.terminate();
    QVERIFY(process.waitForFinished(30000));
}

void TestCli::damagedStore()
{
    // A session file full of NUL bytes (what a crash left for a real OpenCode user, who then saw
    // no sessions at all): the other sessions still list, a warning names the file.
    FixtureDataDir dir;
    const QString damaged = dir.storage() + u"/session/"_s + ProjectID + u'/' + FirstRun + u".json"_s;
    const QByteArray nul(1000, '\0');
    {
        QFile f(damaged);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(nul);
    }
    const Run run = weft(dir.path(), {u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(run.exitCode, 0);
    JsonArray expected = parse(weft::test::readFile(fixture(u"session-list.json"_s))).toArray();
    QCOMPARE(expected.at(4).toObject().string(u"id"), FirstRun);
    expected.removeAt(4);
    QCOMPARE(run.out, QByteArray(weft::toJson(expected, 2) + '\n'));
    const QByteArray warning = "weft: warning: skipped "_ba + damaged.toUtf8();
    QVERIFY2(run.err.contains(warning), run.err.constData());
    QVERIFY(run.err.contains("NUL"));
    QCOMPARE(weft::test::readFile(damaged), nul);

    // A damaged part: the session still exports, without it, and the warning names the part.
    const QString part = dir.storage() + u"/part/msg_200fa7f0a001Upg1DpdQjTFybp/prt_200fa7f540017y0A6NuCPo6Wme.json"_s;
    {
        QFile f(part);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"id\": \"prt_200fa7f540017y0A6NuCPo6Wme\", \"ty");
    }
    const Run exported = weft(dir.path(), {u"export"_s, Main});
    QCOMPARE(exported.exitCode, 0);
    QVERIFY2(exported.err.contains(part.toUtf8()), exported.err.constData());
    const JsonObject doc = parse(exported.out).toObject();
    QCOMPARE(doc.array(u"messages").size(), 30);
    QCOMPARE(doc.array(u"messages").at(1).toObject().array(u"parts").size(), 3);
    QCOMPARE(weft::test::readFile(part), "{\"id\": \"prt_200fa7f540017y0A6NuCPo6Wme\", \"ty"_ba);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
