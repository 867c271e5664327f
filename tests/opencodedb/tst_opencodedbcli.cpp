// SPDX-License-Identifier: GPL-3.0-or-later
// The `weft` command line on an OpenCode data dir of the SQLite era (a copy of real OpenCode
// 1.18.34 data): session list, export, import --from-db, and what happens with damaged data.

#include "core/json.h"
#include "core/types.h"
#include "opencodedb/opencodedbstore.h"
#include "session/sessionservice.h"
#include "testdata.h"
#include "testdb.h"
#include "weftrun.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using weft::JsonArray;
using weft::JsonObject;
using weft::JsonValue;
using weft::test::WeftRun;

namespace
{
const QString Main = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
const QString Child = u"ses_dfe96a43cffe7HThRjtKf69Ueb"_s;

JsonValue parse(const QByteArray &bytes)
{
    std::optional<JsonValue> v = weft::parseJson(bytes);
    return v ? *v : JsonValue();
}

QString copyRealFixture(const QTemporaryDir &dir, const QString &version = u"1.18.34"_s)
{
    const QString target = dir.filePath(u"opencode"_s);
    QDir().mkpath(target);
    QFile::copy(weft::test::realFixtureDir(version) + u"/opencode.db"_s, target + u"/opencode.db"_s);
    QFile(target + u"/opencode.db"_s).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    weft::test::copyTree(weft::test::realFixtureDir(version) + u"/storage"_s, target + u"/storage"_s);
    return target;
}

QByteArray hashOf(const QString &path)
{
    return QCryptographicHash::hash(weft::test::readFile(path), QCryptographicHash::Sha256);
}
} // namespace

class TestOpencodeDbCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void exportMatchesOpenCode_data();
    void exportMatchesOpenCode();
    void exportOfV2Session();
    void sessionListMatchesOpenCode_data();
    void sessionListMatchesOpenCode();
    void sessionListOfEveryKindOfRow();
    void importFromDbThenFork();
    void importOneSession();
    void importErrors_data();
    void importErrors();
    void damagedDatabaseBesideJsonSessions();
    void damagedDatabaseAlone();
    void writesAreRefused();
    void helpListsTheCommands();
    void notMigratedListedAndImported();

private:
    weft::test::WeftRunner m_weft;
};

void TestOpencodeDbCli::initTestCase()
{
    QVERIFY2(QFileInfo(m_weft.binary()).isExecutable(), qPrintable(m_weft.binary()));
}

void TestOpencodeDbCli::exportMatchesOpenCode_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("sessionID");
    for (const QString &version : weft::test::realFixtureVersions()) {
        for (const QString &name : QDir(weft::test::realFixtureDir(version) + u"/export"_s).entryList({u"*.json"_s}, QDir::Files, QDir::Name))
            QTest::addRow("%s %s", qPrintable(version), qPrintable(name.chopped(5))) << version << name.chopped(5);
    }
}

void TestOpencodeDbCli::exportMatchesOpenCode()
{
    QFETCH(QString, version);
    QFETCH(QString, sessionID);
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir, version);
    const WeftRun r = m_weft.run({u"--data-dir"_s, data, u"export"_s, sessionID});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.err.isEmpty());
    const JsonValue expected = parse(weft::test::readFile(weft::test::realFixtureDir(version) + u"/export/"_s + sessionID + u".json"_s));
    const QString difference = weft::test::firstDifference(parse(r.out), expected);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TestOpencodeDbCli::exportOfV2Session()
{
    // A session prompted through OpenCode's V2 API (session_message rows) exports its messages
    // with parts in the V1 shape (OpenCode 1.18.34's own export prints "messages": []).
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir, u"1.18.34-v2"_s);
    const QString sessionID = u"ses_df0431b42ffeZqQaYkbOt5XlpE"_s;
    const WeftRun r = m_weft.run({u"--data-dir"_s, data, u"export"_s, sessionID});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const JsonObject exported = parse(r.out).toObject();
    QCOMPARE(exported.object(u"info").string(u"id"), sessionID);
    const JsonArray messages = exported.array(u"messages");
    QCOMPARE(messages.size(), 9);
    QStringList roles;
    QStringList partTypes;
    for (const JsonValue &m : messages) {
        const JsonObject info = m.toObject().object(u"info");
        QCOMPARE(info.keys().mid(0, 3), (QStringList{u"id"_s, u"sessionID"_s, u"role"_s}));
        QCOMPARE(info.string(u"sessionID"), sessionID);
        roles.append(info.string(u"role"));
        QStringList types;
        for (const JsonValue &p : m.toObject().array(u"parts")) {
            const JsonObject part = p.toObject();
            QCOMPARE(part.keys().mid(0, 4), (QStringList{u"id"_s, u"sessionID"_s, u"messageID"_s, u"type"_s}));
            QCOMPARE(part.string(u"messageID"), info.string(u"id"));
            QVERIFY(part.string(u"id").startsWith(u"prt_"_s));
            types.append(part.string(u"type"));
        }
        partTypes.append(types.join(u','));
    }
    QCOMPARE(roles, (QStringList{u"user"_s, u"assistant"_s, u"assistant"_s, u"user"_s, u"assistant"_s, u"assistant"_s,
                                 u"user"_s, u"assistant"_s, u"assistant"_s}));
    QCOMPARE(partTypes.at(0), u"text"_s);
    QCOMPARE(partTypes.at(1), u"step-start,tool,tool,step-finish"_s);
    QCOMPARE(partTypes.at(2), u"step-start,text,step-finish"_s);
    const JsonObject bash = messages.at(7).toObject().array(u"parts").at(1).toObject();
    QCOMPARE(bash.string(u"tool"), u"bash"_s);
    QCOMPARE(bash.string(u"callID"), u"call_0011"_s);
    QCOMPARE(bash.object(u"state").string(u"status"), u"completed"_s);
    QVERIFY(bash.object(u"state").string(u"output").contains(u"Command exited with code 2."_s));
    const JsonObject assistant = messages.at(1).toObject().object(u"info");
    QCOMPARE(assistant.string(u"parentID"), messages.at(0).toObject().object(u"info").string(u"id"));
    QCOMPARE(assistant.object(u"tokens").integer(u"input"), qint64(1500));
}

void TestOpencodeDbCli::sessionListMatchesOpenCode_data()
{
    QTest::addColumn<QString>("version");
    for (const QString &version : weft::test::realFixtureVersions())
        QTest::addRow("%s", qPrintable(version)) << version;
}

void TestOpencodeDbCli::sessionListMatchesOpenCode()
{
    QFETCH(QString, version);
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir, version);
    const WeftRun r = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const JsonValue expected = parse(weft::test::readFile(weft::test::realFixtureDir(version) + u"/session-list.json"_s));
    QCOMPARE(parse(r.out), expected); // same values, same order
    const WeftRun table = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s});
    QCOMPARE(table.exitCode, 0);
    QVERIFY(table.out.contains("Hand-named セッション 手动命名"));
}

void TestOpencodeDbCli::sessionListOfEveryKindOfRow()
{
    // `session list` reads only the printed columns of OpenCode's rows, as bytes (issue 37: the
    // 30,000 sessions of a heavy database). What it prints stays what listing whole sessions
    // printed (built here as `session list` built it before): OpenCode's layout byte for byte,
    // every kind of title, the same order, the same rows left out and their problems reported.
    QTemporaryDir dir;
    const QString data = dir.filePath(u"opencode"_s);
    QDir().mkpath(data);
    const QString longTitle = u"Ein sehr langer Titel – ü, 日本語 und 😀 Emoji, der über sechzig Zeichen hinausgeht und weiter"_s;
    {
        weft::test::TestDb db(data + u"/opencode.db"_s);
        QVERIFY2(db.isOk(), qPrintable(db.error()));
        QVERIFY(db.insertProject(JsonObject{{u"id"_s, u"prj"_s}, {u"worktree"_s, u"/src/p"_s},
                                            {u"time"_s, JsonObject{{u"created"_s, 1}, {u"updated"_s, 1}}}}));
        const auto session = [&](const QString &id, const QString &title, qint64 updated, const QString &parent = {}) {
            JsonObject o{{u"id"_s, id},     {u"slug"_s, u"s"_s},        {u"version"_s, u"1.18.34"_s},
                         {u"projectID"_s, u"prj"_s}, {u"directory"_s, u"/src/p \"quoted\""_s}, {u"title"_s, title},
                         {u"time"_s, JsonObject{{u"created"_s, updated - 5000}, {u"updated"_s, updated}}}};
            if (!parent.isEmpty())
                o.insert(u"parentID"_s, parent);
            return db.insertSession(o);
        };
        QVERIFY(session(u"ses_a0000000000000000000000001"_s, u"Quotes \" and \\ backslash, tab\t, line\n, bell\u0007"_s, 1767600000000));
        QVERIFY(session(u"ses_a0000000000000000000000002"_s, longTitle, 1767700000000));
        QVERIFY(session(u"ses_a0000000000000000000000003"_s, u"Same time as 4"_s, 1767800000000));
        QVERIFY(session(u"ses_a0000000000000000000000000"_s, u"Same time as 3, smaller ID"_s, 1767800000000));
        QVERIFY(session(u"ses_a0000000000000000000000005"_s, u"A child"_s, 1767900000000, u"ses_a0000000000000000000000001"_s));
        QVERIFY(session(u"ses_a0000000000000000000000006"_s, u"Permission rules"_s, 1767650000000));
        QVERIFY(db.exec(u"UPDATE session SET permission = ? WHERE id = 'ses_a0000000000000000000000006'"_s,
                        {u"[{\"permission\":\"bash\",\"pattern\":\"*\",\"action\":\"ask\"}]"_s}));
        QVERIFY(session(u"ses_a0000000000000000000000007"_s, u"A revert that is no object"_s, 1767660000000));
        QVERIFY(db.exec(u"UPDATE session SET revert = '5' WHERE id = 'ses_a0000000000000000000000007'"_s));
        QVERIFY(session(u"ses_a0000000000000000000000008"_s, u"A child with damaged JSON"_s, 1767670000000,
                        u"ses_a0000000000000000000000001"_s));
        QVERIFY(db.exec(u"UPDATE session SET model = '{not json' WHERE id = 'ses_a0000000000000000000000008'"_s));
        QVERIFY(session(u"bad_a0000000000000000000000009"_s, u"Not a session ID"_s, 1767680000000));
        QVERIFY(session(u"ses_a0000000000000000000000010"_s, u"Empty parent"_s, 1767690000000));
        QVERIFY(db.exec(u"UPDATE session SET parent_id = '' WHERE id = 'ses_a0000000000000000000000010'"_s));
    }
    // What `session list` printed when it listed whole sessions.
    QByteArray expectedJson;
    QString expectedTable;
    {
        auto store = weft::OpencodeDbStore::open(data + u"/opencode.db"_s);
        QVERIFY(store);
        const QList<weft::Session> sessions = weft::SessionService(store.value()).listRoots();
        QCOMPARE(sessions.size(), 6);
        JsonArray array;
        qsizetype titleWidth = 5;
        for (const weft::Session &s : sessions) {
            array.append(JsonObject{{u"id"_s, s.id()}, {u"title"_s, s.title()}, {u"updated"_s, s.updated()},
                                    {u"created"_s, s.created()}, {u"projectId"_s, s.projectID()}, {u"directory"_s, s.directory()}});
            titleWidth = qMax(titleWidth, qMin<qsizetype>(s.title().size(), 60));
        }
        expectedJson = weft::toJson(array, 2) + '\n';
        expectedTable = u"Session ID"_s.leftJustified(30) + u"  "_s + u"Title"_s.leftJustified(titleWidth) + u"  Updated\n"_s
            + QString(30 + 2 + titleWidth + 2 + 16, u'─') + u'\n';
        for (const weft::Session &s : sessions) {
            const QString title = s.title().size() > 60 ? s.title().left(59) + u'…' : s.title();
            expectedTable += s.id().leftJustified(30) + u"  "_s + title.leftJustified(titleWidth) + u"  "_s
                + QDateTime::fromMSecsSinceEpoch(s.updated()).toString(u"yyyy-MM-dd HH:mm"_s) + u'\n';
        }
    }
    const WeftRun json = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(json.exitCode, 0);
    QCOMPARE(json.out, expectedJson);
    for (const char *problem : {"ses_a0000000000000000000000007", "ses_a0000000000000000000000008", "bad_a0000000000000000000000009"})
        QVERIFY2(json.err.contains(problem), json.err.constData());
    const WeftRun table = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s});
    QCOMPARE(table.exitCode, 0);
    QCOMPARE(QString::fromUtf8(table.out), expectedTable);
    QVERIFY(table.out.contains((longTitle.left(59) + u'…').toUtf8()));
}

void TestOpencodeDbCli::importFromDbThenFork()
{
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir);
    const QByteArray before = hashOf(data + u"/opencode.db"_s);
    const QString weftDir = dir.filePath(u"weft"_s);
    const WeftRun r = m_weft.run({u"--data-dir"_s, weftDir, u"import"_s, u"--from-db"_s, data});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QStringList ids = QString::fromUtf8(r.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(ids.size(), 7);
    QVERIFY(ids.contains(Main));
    QCOMPARE(hashOf(data + u"/opencode.db"_s), before);
    // The copy exports as OpenCode exported the original.
    const WeftRun exported = m_weft.run({u"--data-dir"_s, weftDir, u"export"_s, Main});
    QCOMPARE(exported.exitCode, 0);
    const JsonValue expected = parse(weft::test::readFile(weft::test::realFixtureDir() + u"/export/"_s + Main + u".json"_s));
    QCOMPARE(weft::test::firstDifference(parse(exported.out), expected), QString());
    // And it can be forked in Weft.
    const WeftRun fork = m_weft.run({u"--data-dir"_s, weftDir, u"session"_s, u"fork"_s, Main});
    QVERIFY2(fork.exitCode == 0, fork.err.constData());
    const QString forkID = QString::fromUtf8(fork.out).trimmed();
    const WeftRun forked = m_weft.run({u"--data-dir"_s, weftDir, u"export"_s, forkID});
    QCOMPARE(forked.exitCode, 0);
    QCOMPARE(parse(forked.out).toObject().array(u"messages").size(), expected.toObject().array(u"messages").size());
    // Importing again copies with new IDs, and says so.
    const WeftRun again = m_weft.run({u"--data-dir"_s, weftDir, u"import"_s, u"--from-db"_s, data, Main});
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(QString::fromUtf8(again.out).split(u'\n', Qt::SkipEmptyParts).size(), 2); // with its child
    QVERIFY(again.err.contains("was copied as"));
}

void TestOpencodeDbCli::importOneSession()
{
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir);
    const QString weftDir = dir.filePath(u"weft"_s);
    // The database file itself works as well as its folder.
    const WeftRun r = m_weft.run({u"--data-dir"_s, weftDir, u"import"_s, u"--from-db"_s, data + u"/opencode.db"_s, Child});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(QString::fromUtf8(r.out).trimmed(), Child);
    // A child alone keeps its parentID (the parent can be copied later).
    const WeftRun exported = m_weft.run({u"--data-dir"_s, weftDir, u"export"_s, Child});
    QCOMPARE(exported.exitCode, 0);
    QCOMPARE(parse(exported.out).toObject().object(u"info").string(u"parentID"), Main);
    const WeftRun list = m_weft.run({u"--data-dir"_s, weftDir, u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(parse(list.out).toArray().size(), 0); // not a root session
}

void TestOpencodeDbCli::importErrors_data()
{
    QTest::addColumn<QString>("setup");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::addRow("no database in the folder") << u"empty"_s << QStringList{} << 1 << u"no OpenCode database (opencode.db) in"_s;
    QTest::addRow("not SQLite") << u"garbage"_s << QStringList{} << 1 << u"cannot read OpenCode's database"_s;
    QTest::addRow("no such folder") << u"missing"_s << QStringList{} << 1 << u"no such folder"_s;
    QTest::addRow("unknown session") << u"real"_s << QStringList{u"ses_0000000000000000000000000a"_s} << 1 << u"no session ses_0000000000000000000000000a"_s;
    QTest::addRow("invalid session ID") << u"real"_s << QStringList{u"../x"_s} << 2 << u"invalid session ID"_s;
    QTest::addRow("into the OpenCode folder") << u"same"_s << QStringList{} << 2 << u"--data-dir is the OpenCode data dir itself"_s;
}

void TestOpencodeDbCli::importErrors()
{
    QFETCH(QString, setup);
    QFETCH(QStringList, ids);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QString source = dir.filePath(u"opencode"_s);
    QString weftDir = dir.filePath(u"weft"_s);
    if (setup == u"empty") {
        QDir().mkpath(source);
    } else if (setup == u"garbage") {
        QDir().mkpath(source);
        QFile f(source + u"/opencode.db"_s);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a database at all");
    } else if (setup == u"missing") {
        source = dir.filePath(u"nowhere"_s);
    } else {
        source = copyRealFixture(dir);
        if (setup == u"same")
            weftDir = source;
    }
    const WeftRun r = m_weft.run(QStringList{u"--data-dir"_s, weftDir, u"import"_s, u"--from-db"_s, source} + ids);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QVERIFY(r.out.isEmpty());
    QVERIFY(!QFileInfo::exists(weftDir + u"/storage/session"_s));
}

void TestOpencodeDbCli::damagedDatabaseBesideJsonSessions()
{
    // A database Weft cannot read does not hide the sessions of the JSON era beside it.
    QTemporaryDir dir;
    const QString data = dir.filePath(u"opencode"_s);
    QVERIFY(weft::test::copyTree(weft::test::fixtureDir() + u"/storage"_s, data + u"/storage"_s));
    QFile f(data + u"/opencode.db"_s);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(4096, '\0'));
    f.close();
    const WeftRun r = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(parse(r.out).toArray().size(), 5);
    QVERIFY2(r.err.contains("cannot read OpenCode's database") && r.err.contains("not an SQLite database"), r.err.constData());
}

void TestOpencodeDbCli::damagedDatabaseAlone()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(u"opencode"_s);
    QDir().mkpath(data);
    QFile f(data + u"/opencode.db"_s);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("SQLite format 3");
    f.close();
    for (const QStringList &args : {QStringList{u"session"_s, u"list"_s}, QStringList{u"export"_s, Main}, QStringList{u"search"_s, u"x"_s}}) {
        const WeftRun r = m_weft.run(QStringList{u"--data-dir"_s, data} + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot read OpenCode's database: not an SQLite database"), r.err.constData());
    }
    QCOMPARE(weft::test::entriesUnder(data), QStringList{u"opencode.db"_s});
}

void TestOpencodeDbCli::writesAreRefused()
{
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir);
    const QByteArray before = hashOf(data + u"/opencode.db"_s);
    for (const QStringList &args : {QStringList{u"session"_s, u"delete"_s, Main}, QStringList{u"session"_s, u"fork"_s, Main}}) {
        const WeftRun r = m_weft.run(QStringList{u"--data-dir"_s, data} + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("read-only"), r.err.constData());
    }
    QCOMPARE(hashOf(data + u"/opencode.db"_s), before);
    const WeftRun list = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(parse(list.out).toArray().size(), 6);
}

void TestOpencodeDbCli::helpListsTheCommands()
{
    const WeftRun r = m_weft.run({u"--help"_s});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("import --from-db OPENCODE_DATA_DIR [SESSION_ID...]"));
    QVERIFY(r.out.contains("search QUERY..."));
    const WeftRun import = m_weft.run({u"import"_s, u"--help"_s});
    QCOMPARE(import.exitCode, 0);
    QVERIFY(import.out.contains("--from-db <DIR>"));
}

void TestOpencodeDbCli::notMigratedListedAndImported()
{
    // An OpenCode 2.0.x database (tests/data/opencode-2.0-sessionv2): the V1 session that the
    // V1→V2 migration skipped is listed with a note, and imports into Weft without it.
    const QString skipped = u"ses_3000000000000skippedV1CCCC"_s;
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir, u"2.0-sessionv2"_s);
    const WeftRun table = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s});
    QVERIFY2(table.exitCode == 0, table.err.constData());
    const QList<QByteArray> lines = table.out.split('\n');
    QVERIFY(lines.first().endsWith("Note"));
    int notes = 0;
    for (const QByteArray &line : lines) {
        if (line.endsWith("not migrated")) {
            ++notes;
            QVERIFY(line.startsWith(skipped.toUtf8()));
        }
    }
    QCOMPARE(notes, 1);
    const WeftRun json = m_weft.run({u"--data-dir"_s, data, u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QCOMPARE(json.exitCode, 0);
    int marked = 0;
    for (const JsonValue &v : parse(json.out).toArray()) {
        if (v.toObject().boolean(u"notMigrated")) {
            ++marked;
            QCOMPARE(v.toObject().string(u"id"), skipped);
        }
    }
    QCOMPARE(marked, 1);
    // An export straight from the database is OpenCode's document: Weft's mark stays out.
    const WeftRun fromDb = m_weft.run({u"--data-dir"_s, data, u"export"_s, skipped});
    QVERIFY2(fromDb.exitCode == 0, fromDb.err.constData());
    QCOMPARE(parse(fromDb.out).toObject().object(u"info").string(u"id"), skipped);
    QVERIFY(!fromDb.out.contains("weftNotMigrated"));
    const QString weftDir = dir.filePath(u"weft"_s);
    const WeftRun imported = m_weft.run({u"--data-dir"_s, weftDir, u"import"_s, u"--from-db"_s, data, skipped});
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const WeftRun exported = m_weft.run({u"--data-dir"_s, weftDir, u"export"_s, skipped});
    QVERIFY2(exported.exitCode == 0, exported.err.constData());
    const JsonObject info = parse(exported.out).toObject().object(u"info");
    QCOMPARE(info.string(u"title"), u"Skipped by the migration"_s);
    QVERIFY(!info.contains(weft::Session::NotMigratedKey));
    QCOMPARE(parse(exported.out).toObject().array(u"messages").size(), 1);
    // Weft's own store lists it without the note.
    const WeftRun after = m_weft.run({u"--data-dir"_s, weftDir, u"session"_s, u"list"_s});
    QVERIFY(!after.out.contains("not migrated"));
}

QTEST_GUILESS_MAIN(TestOpencodeDbCli)
#include "tst_opencodedbcli.moc"
