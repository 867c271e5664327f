// SPDX-License-Identifier: GPL-3.0-or-later
// OpencodeDbStore: OpenCode's SQLite database read as a Store, for schemas of several ages, from
// real OpenCode 1.18.34 data and from the OpenCode 1.1.53 JSON fixture stored the way the
// database era stores it; damaged and foreign files; read-only; one connection per thread.

#include "core/identifier.h"
#include "opencodedb/opencodedatadir.h"
#include "opencodedb/opencodedbstore.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "testdata.h"
#include "testdb.h"

#include <algorithm>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QtConcurrent>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::SchemaAge;
using weft::test::TestDb;

namespace
{

/// Transfer::writeExport()'s bytes: the export streamed as the store reads the session.
QByteArray streamedExport(const SessionService &service, const QString &sessionID)
{
    QByteArray bytes;
    const Result<void> written
        = Transfer::writeExport(service, sessionID, [&bytes](QByteArrayView piece) { bytes += piece; });
    return written ? bytes : QByteArray();
}

const QString RealMain = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
const QString RealChild = u"ses_dfe96a43cffe7HThRjtKf69Ueb"_s;
const QString RealNamed = u"ses_dfe96a380ffecLH5wa8iKO3NO1"_s;
const QString RealReverted = u"ses_dfe96a293ffeZQHb2ZSZ3Box6A"_s;
const QString RealArchived = u"ses_dfe969983ffeN7w175CppvGh5P"_s;

// tests/data/opencode-1.18.34-v2: two sessions prompted through OpenCode's V2 API (session_message
// rows) and one through the V1 API (message and part rows).
const QString V2Version = u"1.18.34-v2"_s;
const QString V2First = u"ses_df0431b42ffeZqQaYkbOt5XlpE"_s;
const QString V2Second = u"ses_df04312d7ffeIe2H1b3Bdy1vNA"_s;
const QString V2Plain = u"ses_df0430dc6ffeL2v2skaHNaGpFk"_s;
const QString DoneText = u"Done. The tool finished; here is what happened in short."_s;

/// A message and its parts in one line: `user: text=...` or
/// `assistant tool-calls: step-start | tool write error | step-finish tool-calls`.
QString summary(const MessageWithParts &m)
{
    QStringList parts;
    for (const Part &p : m.parts) {
        const JsonObject o = p.json();
        if (p.typeName() == u"text")
            parts.append(u"text="_s + p.text());
        else if (p.typeName() == u"tool")
            parts.append(u"tool %1 %2"_s.arg(p.tool(), o.object(u"state").string(u"status")));
        else if (p.typeName() == u"step-finish")
            parts.append(u"step-finish "_s + p.reason());
        else
            parts.append(p.typeName());
    }
    const QString role = m.info.isUser() ? u"user"_s : u"assistant "_s + m.info.finish();
    return role + u": "_s + parts.join(u" | "_s);
}

JsonValue readJsonFile(const QString &path)
{
    std::optional<JsonValue> v = parseJson(weft::test::readFile(path));
    return v ? *v : JsonValue();
}

/// A copy of the real OpenCode 1.18.34 data dir in @p dir (tests never open tests/data
/// itself: SQLite would leave -shm files there).
QString copyRealFixture(const QTemporaryDir &dir, const QString &version = u"1.18.34"_s)
{
    const QString target = dir.filePath(u"opencode"_s);
    QDir().mkpath(target);
    QFile::copy(weft::test::realFixtureDir(version) + u"/opencode.db"_s, target + u"/opencode.db"_s);
    QFile(target + u"/opencode.db"_s).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    weft::test::copyTree(weft::test::realFixtureDir(version) + u"/storage"_s, target + u"/storage"_s);
    return target;
}

/// The store of a copy of the real 1.18.34 fixture in @p dir; null when it does not open.
std::shared_ptr<OpencodeDbStore> openRealFixture(const QTemporaryDir &dir)
{
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir) + u"/opencode.db"_s);
    return opened ? opened.value() : nullptr;
}

QByteArray fileHash(const QString &path)
{
    return QCryptographicHash::hash(weft::test::readFile(path), QCryptographicHash::Sha256);
}

/// A checkpointed database of the 1.1.53 fixture sessions (no -wal beside it).
QString makeFixtureDb(const QString &file, SchemaAge age = SchemaAge::V1_15_13)
{
    TestDb db(file, age);
    if (!db.isOk() || !db.loadStorage(weft::test::fixtureDir() + u"/storage"_s))
        return db.error();
    db.exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s);
    return {};
}

int weftConnections()
{
    int n = 0;
    for (const QString &name : QSqlDatabase::connectionNames())
        n += name.startsWith(u"weft-sqlite-") ? 1 : 0;
    return n;
}

/// The database's own read of a session's newest page (one read of the IDs, the page mapped
/// once) gives what Store's general one gives (IDs, then messagesByID() and withParts()), for
/// every page size; with @p all (the whole session, when no row is damaged) also its tail.
void compareNewestPages(OpencodeDbStore &store, const QString &sessionID, const QList<MessageWithParts> &all = {})
{
    const qsizetype total = store.messageIDs(sessionID).size();
    for (qsizetype count = 0; count <= total + 1; ++count) {
        const NewestMessages page = store.newestMessages(sessionID, count);
        const NewestMessages general = store.Store::newestMessages(sessionID, count);
        QCOMPARE(page.olderIDs, general.olderIDs);
        QVERIFY(page.olderListed);
        QCOMPARE(page.messages.size(), general.messages.size());
        for (qsizetype i = 0; i < page.messages.size(); ++i)
            QCOMPARE(page.messages.at(i).toJson(), general.messages.at(i).toJson());
        if (all.isEmpty())
            continue;
        const QList<MessageWithParts> tail = all.mid(std::max<qsizetype>(0, all.size() - count));
        QCOMPARE(page.messages.size(), tail.size());
        for (qsizetype i = 0; i < tail.size(); ++i)
            QCOMPARE(page.messages.at(i).toJson(), tail.at(i).toJson());
        QCOMPARE(page.olderIDs.size(), all.size() - tail.size());
    }
}

} // namespace

class TestOpencodeDbStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void openErrors_data();
    void openErrors();
    void newerCompatibleSchemaOpens();
    void schemaAges_data();
    void schemaAges();
    void roundTripOfJsonFixture_data();
    void roundTripOfJsonFixture();
    void realFixtureExport_data();
    void realFixtureExport();
    void realFixtureDetails();
    void earlyReleaseDetails();
    void keyOrder();
    void readOnly();
    void connectionPerThread();
    void messagesByIdFewAndMany();
    void damagedRowsReported();
    void streamedInOrder();
    void streamFailingHalfWay();
    void permissionV2Converted();
    void sessionStamps();
    void newestListedSessions();
    void sessionDiffFromStorage();
    void dataDirDetection_data();
    void dataDirDetection();
    void v2SessionsRead_data();
    void v2SessionsRead();
    void v2DetailsMapped();
    void v2BesideV1Rows();
    void v2UnknownContentKept();
    void v2DamagedDataReported();
    void sessionV2Preferred();
    void sessionV2MigratedReadsV2Rows();
    void sessionV2ChangeStamps();
    void eventLogRebuildsSession();
    void previewDatabase();
    void previewRebuiltFromEvents();
    void sessionV2WithoutLegacyTables();
};

void TestOpencodeDbStore::initTestCase()
{
    QVERIFY2(QSqlDatabase::isDriverAvailable(u"QSQLITE"_s), "Qt's SQLite driver is needed");
    QVERIFY(QFile::exists(weft::test::realFixtureDir() + u"/opencode.db"_s));
    QVERIFY(!weft::test::schemaSql().isEmpty());
}

enum class Damage { Missing, Empty, Text, RandomBytes, HeaderThenRandom, Truncated, OverwrittenEnd, NoTables, NoSessionTable, MissingColumn, NewerMissingColumn, Locked };

void TestOpencodeDbStore::openErrors_data()
{
    QTest::addColumn<int>("damage");
    QTest::addColumn<QStringList>("expected"); // any of these in the message
    QTest::addRow("missing file") << int(Damage::Missing) << QStringList{u"no such file"_s};
    QTest::addRow("empty file") << int(Damage::Empty) << QStringList{u"empty"_s};
    QTest::addRow("text file") << int(Damage::Text) << QStringList{u"not an SQLite database"_s};
    QTest::addRow("random bytes") << int(Damage::RandomBytes) << QStringList{u"not an SQLite database"_s};
    QTest::addRow("header, then random bytes") << int(Damage::HeaderThenRandom) << QStringList{u"damaged"_s, u"not an SQLite database"_s};
    QTest::addRow("truncated to half") << int(Damage::Truncated) << QStringList{u"truncated"_s};
    QTest::addRow("last pages overwritten") << int(Damage::OverwrittenEnd) << QStringList{u"damaged"_s};
    QTest::addRow("SQLite without tables") << int(Damage::NoTables) << QStringList{u"empty SQLite database"_s};
    QTest::addRow("SQLite of another program") << int(Damage::NoSessionTable) << QStringList{u"not an OpenCode database"_s};
    QTest::addRow("unknown schema") << int(Damage::MissingColumn) << QStringList{u"unknown OpenCode database schema: no message.data"_s};
    QTest::addRow("newer unknown schema") << int(Damage::NewerMissingColumn) << QStringList{u"newer OpenCode (migration 29990101000000_future)"_s};
    QTest::addRow("locked by a writer") << int(Damage::Locked) << QStringList{u"locked"_s};
}

void TestOpencodeDbStore::openErrors()
{
    QFETCH(int, damage);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    auto writeFile = [&](const QByteArray &bytes) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
    };
    auto random = [](qsizetype n) {
        QByteArray b(n, Qt::Uninitialized);
        for (char &c : b)
            c = char(QRandomGenerator::global()->bounded(256));
        return b;
    };
    std::unique_ptr<TestDb> holder;
    switch (Damage(damage)) {
    case Damage::Missing:
        break;
    case Damage::Empty:
        writeFile({});
        break;
    case Damage::Text:
        writeFile("this is not a database\n");
        break;
    case Damage::RandomBytes:
        writeFile(random(64 * 1024));
        break;
    case Damage::HeaderThenRandom: {
        QCOMPARE(makeFixtureDb(file), QString());
        const QByteArray real = weft::test::readFile(file);
        writeFile(real.left(100) + random(real.size() - 100));
        break;
    }
    case Damage::Truncated: {
        QCOMPARE(makeFixtureDb(file), QString());
        const QByteArray real = weft::test::readFile(file);
        writeFile(real.left(real.size() / 2));
        break;
    }
    case Damage::OverwrittenEnd: {
        QCOMPARE(makeFixtureDb(file), QString());
        QByteArray real = weft::test::readFile(file);
        // The part table's newest rows live in the last pages.
        const QByteArray noise = random(16 * 4096);
        real.replace(real.size() - noise.size(), noise.size(), noise);
        writeFile(real);
        break;
    }
    case Damage::NoTables: {
        TestDb db(file, SchemaAge::V1_15_13, false);
        QVERIFY(db.exec(u"PRAGMA user_version = 7"_s));
        break;
    }
    case Damage::NoSessionTable: {
        TestDb db(file, SchemaAge::V1_15_13, false);
        QVERIFY(db.exec(u"CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)"_s));
        break;
    }
    case Damage::MissingColumn:
    case Damage::NewerMissingColumn: {
        TestDb db(file);
        QVERIFY(db.isOk());
        QVERIFY(db.exec(u"ALTER TABLE message DROP COLUMN data"_s));
        if (Damage(damage) == Damage::NewerMissingColumn)
            QVERIFY(db.exec(u"INSERT INTO migration(id, time_completed) VALUES('29990101000000_future', 2)"_s));
        break;
    }
    case Damage::Locked: {
        QCOMPARE(makeFixtureDb(file), QString());
        holder = std::make_unique<TestDb>(file, SchemaAge::V1_15_13, false);
        QVERIFY(holder->exec(u"PRAGMA locking_mode = EXCLUSIVE"_s));
        QVERIFY(holder->begin());
        QVERIFY(holder->exec(u"UPDATE session SET title = title || '!'"_s));
        break;
    }
    }
    const QByteArray before = QFile::exists(file) ? fileHash(file) : QByteArray();
    OpencodeDbStore::Options options;
    options.busyTimeoutMs = 100;
    options.attempts = 2;
    const Result<std::shared_ptr<OpencodeDbStore>> store = OpencodeDbStore::open(file, options);
    QVERIFY(!store);
    const QString message = store.error().toString();
    QVERIFY2(std::any_of(expected.cbegin(), expected.cend(), [&](const QString &e) { return message.contains(e); }), qPrintable(message));
    QVERIFY2(message.contains(file), "the message names the file");
    if (holder)
        holder->exec(u"ROLLBACK"_s);
    if (!before.isEmpty())
        QCOMPARE(fileHash(file), before); // never written, not even a damaged file
}

void TestOpencodeDbStore::newerCompatibleSchemaOpens()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    {
        TestDb db(file);
        QVERIFY(db.loadStorage(weft::test::fixtureDir() + u"/storage"_s));
        QVERIFY(db.exec(u"ALTER TABLE session ADD COLUMN future_column TEXT"_s));
        QVERIFY(db.exec(u"INSERT INTO migration(id, time_completed) VALUES('29990101000000_future', 2)"_s));
    }
    const auto store = OpencodeDbStore::open(file);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    QVERIFY(store.value()->schema().isNewerThanKnown());
    QCOMPARE(store.value()->schema().latestMigration, u"29990101000000_future"_s);
    QCOMPARE(store.value()->sessions().size(), 6);
}

void TestOpencodeDbStore::schemaAges_data()
{
    QTest::addColumn<int>("age");
    QTest::addColumn<QStringList>("presentKeys");
    QTest::addColumn<QStringList>("absentKeys");
    const QStringList always{u"id"_s, u"slug"_s, u"version"_s, u"projectID"_s, u"directory"_s, u"parentID"_s, u"title"_s,
                             u"time"_s, u"summary"_s, u"share"_s, u"permission"_s, u"revert"_s, u"agent"_s, u"model"_s};
    QTest::addRow("1.2") << int(SchemaAge::V1_2) << always
                         << QStringList{u"workspaceID"_s, u"path"_s, u"cost"_s, u"tokens"_s, u"metadata"_s};
    QTest::addRow("1.2.16") << int(SchemaAge::V1_2_16) << (always + QStringList{u"workspaceID"_s})
                            << QStringList{u"path"_s, u"cost"_s, u"tokens"_s, u"metadata"_s};
    QTest::addRow("1.14.29") << int(SchemaAge::V1_14_29) << (always + QStringList{u"workspaceID"_s, u"path"_s})
                             << QStringList{u"cost"_s, u"tokens"_s, u"metadata"_s};
    QTest::addRow("1.14.49") << int(SchemaAge::V1_14_49) << (always + QStringList{u"workspaceID"_s, u"path"_s, u"cost"_s, u"tokens"_s})
                             << QStringList{u"metadata"_s};
    QTest::addRow("1.15.13") << int(SchemaAge::V1_15_13)
                             << (always + QStringList{u"workspaceID"_s, u"path"_s, u"cost"_s, u"tokens"_s, u"metadata"_s}) << QStringList{};
}

void TestOpencodeDbStore::schemaAges()
{
    QFETCH(int, age);
    QFETCH(QStringList, presentKeys);
    QFETCH(QStringList, absentKeys);
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    {
        TestDb db(file, SchemaAge(age));
        QVERIFY2(db.isOk(), qPrintable(db.error()));
        const std::optional<JsonValue> s = parseJson(
            "{\"id\":\"ses_dff058141ffeXJnTNzT8vnXcKt\",\"slug\":\"brave-moon\",\"version\":\"1.18.34\",\"projectID\":\"p1\","
            "\"directory\":\"/home/dev/src/demo\",\"parentID\":\"ses_dff05751fffexgWr6MRybGFAXU\",\"title\":\"All columns\","
            "\"time\":{\"created\":1795312725000,\"updated\":1795312726000,\"compacting\":1795312725500,\"archived\":1795312727000},"
            "\"summary\":{\"additions\":3,\"deletions\":1,\"files\":2,\"diffs\":[{\"file\":\"a.txt\",\"patch\":\"@@\",\"additions\":3,\"deletions\":1,\"status\":\"modified\"}]},"
            "\"share\":{\"url\":\"https://opncd.ai/s/abc\"},"
            "\"permission\":[{\"permission\":\"bash\",\"pattern\":\"*\",\"action\":\"ask\"}],"
            "\"revert\":{\"messageID\":\"msg_200fa8b51001xlwvpgQcolOMni\",\"snapshot\":\"abc\"},"
            "\"workspaceID\":\"wrk_1\",\"path\":\"src\",\"agent\":\"build\",\"model\":{\"id\":\"m1\",\"providerID\":\"fake\"},"
            "\"cost\":0.25,\"tokens\":{\"input\":10,\"output\":20,\"reasoning\":3,\"cache\":{\"read\":4,\"write\":5}},"
            "\"metadata\":{\"label\":\"x\"}}");
        QVERIFY(s);
        QVERIFY2(db.insertSession(s->toObject()), qPrintable(db.error()));
    }
    const auto store = OpencodeDbStore::open(file);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    QCOMPARE(store.value()->schema().age(), weft::test::ageName(SchemaAge(age)));
    const QList<Session> sessions = store.value()->sessions();
    QCOMPARE(sessions.size(), 1);
    const Session session = sessions.first();
    for (const QString &key : std::as_const(presentKeys))
        QVERIFY2(session.json().contains(key), qPrintable(key));
    for (const QString &key : std::as_const(absentKeys))
        QVERIFY2(!session.json().contains(key), qPrintable(key));
    QCOMPARE(session.parentID(), u"ses_dff05751fffexgWr6MRybGFAXU"_s);
    QCOMPARE(session.compacting(), 1795312725500);
    QCOMPARE(session.archived(), 1795312727000);
    QCOMPARE(session.additions(), 3);
    QCOMPARE(session.shareUrl(), u"https://opncd.ai/s/abc"_s);
    QCOMPARE(session.permission().size(), 1);
    QCOMPARE(session.revert().string(u"snapshot"), u"abc"_s);
    QCOMPARE(session.json().object(u"summary").array(u"diffs").size(), 1);
    if (session.json().contains(u"tokens")) {
        QCOMPARE(session.json().number(u"cost"), 0.25);
        QCOMPARE(session.json().object(u"tokens").object(u"cache").integer(u"write"), 5);
    }
}

void TestOpencodeDbStore::roundTripOfJsonFixture_data()
{
    QTest::addColumn<int>("age");
    for (SchemaAge age : {SchemaAge::V1_2, SchemaAge::V1_2_16, SchemaAge::V1_14_29, SchemaAge::V1_14_49, SchemaAge::V1_15_13})
        QTest::addRow("%s", qPrintable(weft::test::ageName(age))) << int(age);
}

void TestOpencodeDbStore::roundTripOfJsonFixture()
{
    // The OpenCode 1.1.53 sessions, stored the way the database era stores them, export exactly
    // as OpenCode 1.1.53 exported them (key order aside). From 1.14.49 on, the database adds the
    // session's cost and token columns to Session.Info; they are zero here.
    QFETCH(int, age);
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    QCOMPARE(makeFixtureDb(file, SchemaAge(age)), QString());
    const auto store = OpencodeDbStore::open(file);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    SessionService service(store.value());
    const QStringList exports = QDir(weft::test::fixtureDir() + u"/export"_s).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    QCOMPARE(exports.size(), 6);
    for (const QString &name : exports) {
        const QString id = name.chopped(5);
        Result<JsonObject> document = Transfer::exportSession(service, id);
        QVERIFY2(document, qPrintable(id));
        JsonObject info = document.value().object(u"info");
        if (SchemaAge(age) >= SchemaAge::V1_14_49) {
            QCOMPARE(info.number(u"cost", -1), 0.0);
            QCOMPARE(info.object(u"tokens").integer(u"input", -1), 0);
            info.remove(u"cost");
            info.remove(u"tokens");
        }
        document.value().insert(u"info"_s, info);
        const JsonValue expected = readJsonFile(weft::test::fixtureDir() + u"/export/"_s + name);
        const QString difference = weft::test::firstDifference(document.value(), expected);
        QVERIFY2(difference.isEmpty(), qPrintable(id + u": "_s + difference));
        QVERIFY(streamedExport(service, id) == Transfer::formatExport(Transfer::exportSession(service, id).value()));
    }
    QVERIFY(store.value()->problems().isEmpty());
}

void TestOpencodeDbStore::realFixtureExport_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("sessionID");
    for (const QString &version : weft::test::realFixtureVersions()) {
        const QStringList exports = QDir(weft::test::realFixtureDir(version) + u"/export"_s).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
        for (const QString &name : exports)
            QTest::addRow("%s %s", qPrintable(version), qPrintable(name.chopped(5))) << version << name.chopped(5);
    }
}

void TestOpencodeDbStore::realFixtureExport()
{
    // What `opencode export` of OpenCode 1.18.34 (and 1.2.27) printed for its own database.
    QFETCH(QString, version);
    QFETCH(QString, sessionID);
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir, version);
    const auto store = OpencodeDbStore::open(dataDir + u"/opencode.db"_s);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    SessionService service(store.value());
    const Result<JsonObject> document = Transfer::exportSession(service, sessionID);
    QVERIFY(document);
    const JsonValue expected = readJsonFile(weft::test::realFixtureDir(version) + u"/export/"_s + sessionID + u".json"_s);
    const QString difference = weft::test::firstDifference(document.value(), expected);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY(Transfer::validateExport(document.value()).isEmpty());
    // Streamed while the rows are read: the same bytes.
    QVERIFY(streamedExport(service, sessionID) == Transfer::formatExport(document.value()));
    QCOMPARE(store.value()->session(sessionID)->version(), version); // the release that wrote it
    QVERIFY(store.value()->problems().isEmpty());
}

void TestOpencodeDbStore::realFixtureDetails()
{
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir);
    const auto opened = OpencodeDbStore::open(dataDir + u"/opencode.db"_s);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();
    QCOMPARE(store.schema().age(), u"1.15.13"_s);
    QCOMPARE(store.schema().latestMigration, QString(OpencodeDbStore::KnownLatestMigration));
    QVERIFY(!store.schema().isNewerThanKnown());
    QCOMPARE(store.dataDir(), dataDir);
    const QList<Session> sessions = store.sessions();
    QCOMPARE(sessions.size(), 7);
    for (const Session &s : sessions)
        QCOMPARE(s.version(), u"1.18.34"_s); // the OpenCode release that wrote it
    const std::optional<Session> child = store.session(RealChild);
    QVERIFY(child);
    QCOMPARE(child->parentID(), RealMain);
    QCOMPARE(store.session(RealNamed)->json().object(u"metadata").string(u"label"), u"fixture"_s);
    QVERIFY(store.session(RealReverted)->hasRevert());
    QVERIFY(store.session(RealArchived)->isArchived());
    QVERIFY(!store.session(u"ses_dfe969a55ffebhf8oSreNUdi4K"_s)); // deleted by OpenCode
    const QList<Project> projects = store.projects();
    QCOMPARE(projects.size(), 1);
    QCOMPARE(projects.first().vcs(), u"git"_s);
    QCOMPARE(projects.first().id(), sessions.first().projectID());

    const QList<MessageWithParts> main = store.messagesWithParts(RealMain);
    QCOMPARE(main.size(), 13);
    QList<Message> infos = store.messages(RealMain);
    QCOMPARE(infos.size(), main.size());
    qsizetype parts = 0;
    QStringList kinds;
    for (qsizetype i = 0; i < main.size(); ++i) {
        QCOMPARE(main.at(i).info.id(), infos.at(i).id());
        const QList<Part> separate = store.parts(RealMain, main.at(i).info.id());
        QCOMPARE(separate.size(), main.at(i).parts.size());
        for (qsizetype j = 0; j < separate.size(); ++j)
            QCOMPARE(separate.at(j).json(), main.at(i).parts.at(j).json());
        parts += separate.size();
        for (const Part &p : main.at(i).parts)
            kinds.append(p.type() == PartType::Tool ? p.tool() + u':' + toolStatusName(p.state().status()) : p.typeName());
        if (i > 0)
            QVERIFY(!messageLessThan(main.at(i).info, main.at(i - 1).info));
    }
    QVERIFY(kinds.contains(u"write:completed"_s));
    QVERIFY(kinds.contains(u"bash:completed"_s));
    QVERIFY(kinds.contains(u"read:error"_s));
    QVERIFY(kinds.contains(u"reasoning"_s));
    QVERIFY(kinds.contains(u"patch"_s));
    const std::optional<Message> first = store.message(RealMain, main.first().info.id());
    QVERIFY(first);
    QCOMPARE(first->json(), main.first().info.json());
    QVERIFY(!store.message(RealChild, main.first().info.id())); // a message of another session
    QVERIFY(parts > 20);
}

void TestOpencodeDbStore::earlyReleaseDetails()
{
    // OpenCode 1.2.27: drizzle's migration table, workspace_id but none of the later columns.
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir, u"1.2.27"_s);
    const auto opened = OpencodeDbStore::open(dataDir + u"/opencode.db"_s);
    QVERIFY(opened);
    QCOMPARE(opened.value()->schema().age(), u"1.2.16"_s);
    QCOMPARE(opened.value()->schema().latestMigration, u"20260312043431_session_message_cursor"_s);
    QVERIFY(!opened.value()->schema().session.contains(u"cost"_s));
    const QList<Session> sessions = opened.value()->sessions();
    QCOMPARE(sessions.size(), 7);
    for (const Session &s : sessions) {
        QVERIFY(!s.json().contains(u"cost"));
        QVERIFY(!s.json().contains(u"path"));
    }
    QCOMPARE(opened.value()->messagesWithParts(u"ses_dfe7ef1c2ffekfLCsGZVIAQpRG"_s).size(), 13);
    QVERIFY(opened.value()->problems().isEmpty());
}

void TestOpencodeDbStore::keyOrder()
{
    QTemporaryDir dir;
    const std::shared_ptr<OpencodeDbStore> store = openRealFixture(dir);
    QVERIFY(store);
    const Session session = *store->session(RealChild);
    QCOMPARE(session.json().keys().mid(0, 7),
             (QStringList{u"id"_s, u"slug"_s, u"version"_s, u"projectID"_s, u"directory"_s, u"parentID"_s, u"title"_s}));
    const QList<MessageWithParts> messages = store->messagesWithParts(RealMain);
    for (const MessageWithParts &m : messages) {
        QCOMPARE(m.info.json().keys().mid(0, 2), (QStringList{u"id"_s, u"sessionID"_s}));
        for (const Part &p : m.parts)
            QCOMPARE(p.json().keys().mid(0, 3), (QStringList{u"id"_s, u"sessionID"_s, u"messageID"_s}));
    }
    // After the IDs, the stored keys keep the order OpenCode wrote them in.
    const Message assistant = messages.at(1).info;
    QCOMPARE(assistant.json().keyAt(2), u"parentID"_s);
    QCOMPARE(assistant.json().keyAt(3), u"role"_s);
}

void TestOpencodeDbStore::readOnly()
{
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir);
    const QString file = dataDir + u"/opencode.db"_s;
    const QByteArray before = fileHash(file);
    const QStringList entriesBefore = QDir(dataDir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    {
        const auto store = OpencodeDbStore::open(file);
        QVERIFY(store);
        SessionService service(store.value());
        QVERIFY(service.isReadOnly());
        for (const Session &s : service.list())
            QVERIFY(!service.messages(s.id()).isEmpty());
        const Session session = *service.get(RealMain);
        const Message message = store.value()->messages(RealMain).first();
        const Part part = store.value()->parts(RealMain, message.id()).first();
        Store &s = *store.value();
        const std::vector<Result<void>> writes{s.writeSession(session),
                                               s.writeMessage(message),
                                               s.writePart(part),
                                               s.writePartStreaming(part, u"delta"_s),
                                               s.writeProject(s.projects().first()),
                                               s.writeSessionDiff(RealMain, {}),
                                               s.removeSession(session),
                                               s.removeMessage(RealMain, message.id()),
                                               s.removePart(RealMain, message.id(), part.id())};
        for (const Result<void> &w : writes) {
            QVERIFY(!w);
            QVERIFY2(w.error().message.contains(u"read-only"), qPrintable(w.error().message));
            QVERIFY(w.error().message.contains(u"weft import --from-db"));
        }
        QVERIFY(!service.fork(RealMain));
        QVERIFY(!service.remove(RealMain));
        QVERIFY(!service.rename(RealMain, u"x"_s));
    }
    QCOMPARE(fileHash(file), before);
    // SQLite's shared-memory files come and go; nothing else appears.
    QStringList entriesAfter = QDir(dataDir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    entriesAfter.removeAll(u"opencode.db-shm"_s);
    entriesAfter.removeAll(u"opencode.db-wal"_s);
    QCOMPARE(entriesAfter, entriesBefore);
}

void TestOpencodeDbStore::messagesByIdFewAndMany()
{
    // What the timeline asks a database for: the IDs, then the newest few by ID (a query each),
    // then the many others (one read of all, filtered). Unknown IDs are skipped either way.
    QTemporaryDir dir;
    const std::shared_ptr<OpencodeDbStore> opened = openRealFixture(dir);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened;
    const QList<Message> all = store.messages(RealMain);
    QVERIFY(all.size() >= 4);
    QStringList ids = store.messageIDs(RealMain);
    QCOMPARE(ids.size(), all.size());
    std::reverse(ids.begin(), ids.end());
    const QList<Message> few = store.messagesByID(RealMain, ids.mid(0, 3) + QStringList{u"msg_unknown"_s});
    QCOMPARE(few.size(), 3);
    for (qsizetype i = 1; i < few.size(); ++i)
        QVERIFY(messageLessThan(few.at(i - 1), few.at(i)));
    QStringList many = ids;
    for (int i = 0; i < 70; ++i)
        many.append(u"msg_unknown%1"_s.arg(i));
    QCOMPARE(store.messagesByID(RealMain, many), all);
}

void TestOpencodeDbStore::connectionPerThread()
{
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir);
    const int baseline = weftConnections();
    {
        const auto opened = OpencodeDbStore::open(dataDir + u"/opencode.db"_s);
        QVERIFY(opened);
        std::shared_ptr<OpencodeDbStore> store = opened.value();
        const QList<MessageWithParts> expected = store->messagesWithParts(RealMain);
        {
            QThreadPool pool;
            pool.setMaxThreadCount(4);
            QList<QFuture<qsizetype>> futures;
            for (int i = 0; i < 16; ++i) {
                futures.append(QtConcurrent::run(&pool, [store, i] {
                    qsizetype n = 0;
                    for (int k = 0; k < 5; ++k) {
                        n += store->sessions().size();
                        n += store->messagesWithParts(i % 2 ? RealMain : RealChild).size();
                    }
                    return n;
                }));
            }
            const QList<MessageWithParts> child = store->messagesWithParts(RealChild);
            for (int i = 0; i < futures.size(); ++i)
                QCOMPARE(futures[i].result(), qsizetype(5 * (7 + (i % 2 ? expected.size() : child.size()))));
            QVERIFY(weftConnections() > baseline + 1); // one per thread that read
        }
        // The pool's threads have ended: their connections are closed.
        QCOMPARE(weftConnections(), baseline + 1);
        QCOMPARE(store->messagesWithParts(RealMain).size(), expected.size());
        QVERIFY(store->problems().isEmpty());
    }
    QCOMPARE(weftConnections(), baseline);
}

void TestOpencodeDbStore::damagedRowsReported()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    {
        TestDb db(file);
        QVERIFY(db.loadStorage(weft::test::fixtureDir() + u"/storage"_s));
        QVERIFY(db.exec(u"UPDATE message SET data = '{\"role\": \"user\", ' WHERE id = 'msg_200fa80b3001AJYH04E0DKrTiZ'"_s));
        QVERIFY(db.exec(u"UPDATE part SET data = '[1, 2]' WHERE id = 'prt_200fa7fcc002SWWB8daGMkkVNe'"_s));
        QVERIFY(db.exec(u"UPDATE session SET permission = 'not json' WHERE id = 'ses_dff0577d4ffeyEniRVGIu2rzSP'"_s));
    }
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    const QList<Message> messages = store.value()->messages(u"ses_dff058141ffeXJnTNzT8vnXcKt"_s);
    QVERIFY(!messages.isEmpty());
    for (const Message &m : messages)
        QVERIFY(m.id() != u"msg_200fa80b3001AJYH04E0DKrTiZ");
    (void)store.value()->parts(u"ses_dff058141ffeXJnTNzT8vnXcKt"_s, u"msg_200fa7fcc001NaVRZuu17qcTE4"_s);
    QCOMPARE(store.value()->sessions().size(), 6); // a bad JSON column does not lose the session
    QStringList locations;
    for (const StoreProblem &p : store.value()->problems())
        locations.append(p.location);
    QVERIFY2(locations.contains(file + u"#message/msg_200fa80b3001AJYH04E0DKrTiZ"_s), qPrintable(locations.join(u", ")));
    QVERIFY(locations.contains(file + u"#part/prt_200fa7fcc002SWWB8daGMkkVNe"_s));
    QVERIFY(locations.contains(file + u"#session/ses_dff0577d4ffeyEniRVGIu2rzSP"_s));
}

void TestOpencodeDbStore::streamedInOrder()
{
    // mapMessages() hands each message on once the part rows, which come in the order of the
    // message rows' time_created column, have gone past it; messages go out in the order of the
    // creation time in their JSON. Here the column runs backwards, so every message completes
    // in the reverse of the order it goes out in; one message row is damaged.
    const QString session = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
    const QString damaged = u"msg_200fa80b3001AJYH04E0DKrTiZ"_s;
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    {
        TestDb db(file);
        QVERIFY(db.loadStorage(weft::test::fixtureDir() + u"/storage"_s));
        QVERIFY(db.exec(u"UPDATE message SET time_created = 9000000000000 - time_created"_s));
        QVERIFY(db.exec(u"UPDATE message SET data = '{\"role\": ' WHERE id = '%1'"_s.arg(damaged)));
    }
    const auto opened = OpencodeDbStore::open(file);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();
    SessionService service(opened.value());

    QList<QByteArray> taken;
    store.mapMessages(
        session, [](MessageWithParts &&m) { return m.info.id().toUtf8() + ' ' + QByteArray::number(m.parts.size()); },
        [&taken](QByteArray &&bytes) { taken.append(bytes); });
    const QList<Message> infos = store.messages(session);
    QVERIFY(infos.size() > 3);
    QCOMPARE(taken.size(), infos.size());
    qsizetype parts = 0;
    for (qsizetype i = 0; i < infos.size(); ++i) {
        QVERIFY(infos.at(i).id() != damaged);
        if (i > 0)
            QVERIFY(!messageLessThan(infos.at(i), infos.at(i - 1)));
        const qsizetype count = store.parts(session, infos.at(i).id()).size();
        QCOMPARE(taken.at(i), infos.at(i).id().toUtf8() + ' ' + QByteArray::number(count));
        parts += count;
    }
    QVERIFY(parts > 10);
    QVERIFY(streamedExport(service, session) == Transfer::formatExport(Transfer::exportSession(service, session).value()));
    bool reported = false;
    for (const StoreProblem &p : store.problems())
        reported = reported || p.location == file + u"#message/"_s + damaged;
    QVERIFY(reported);
}

void TestOpencodeDbStore::streamFailingHalfWay()
{
    // The file is damaged after it was opened, where the part rows are: the read (SQLite's C
    // API where Weft has it) stops with the error, reported as the database's problem in words,
    // and hands no message on twice.
    const QString session = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    QCOMPARE(makeFixtureDb(file), QString());
    const auto opened = OpencodeDbStore::open(file);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();
    const qsizetype whole = store.messages(session).size();
    QVERIFY(whole > 3);
    store.closeThreadConnection();
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        // The part table's rows and its indexes live in the last pages.
        bytes.replace(bytes.size() - 16 * 4096, 16 * 4096, QByteArray(16 * 4096, '\xa5'));
        QVERIFY(f.seek(0));
        QCOMPARE(f.write(bytes), bytes.size());
    }
    QStringList taken;
    store.mapMessages(
        session, [](MessageWithParts &&m) { return m.info.id().toUtf8(); },
        [&taken](QByteArray &&id) { taken.append(QString::fromUtf8(id)); });
    QVERIFY(taken.size() < whole);
    QCOMPARE(QSet<QString>(taken.cbegin(), taken.cend()).size(), taken.size());
    QStringList problems;
    for (const StoreProblem &p : store.problems())
        problems.append(p.reason);
    QVERIFY2(problems.join(u' ').contains(u"damaged"_s), qPrintable(problems.join(u" | "_s)));
}

void TestOpencodeDbStore::permissionV2Converted()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    {
        TestDb db(file);
        QVERIFY(db.loadStorage(weft::test::fixtureDir() + u"/storage"_s));
        QVERIFY(db.exec(u"UPDATE session SET permission = '[{\"action\":\"bash\",\"resource\":\"git *\",\"effect\":\"allow\"}]'"_s));
    }
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    const QList<PermissionRule> rules = store.value()->session(u"ses_dff058141ffeXJnTNzT8vnXcKt"_s)->permission();
    QCOMPARE(rules.size(), 1);
    QCOMPARE(rules.first().permission, u"bash"_s);
    QCOMPARE(rules.first().pattern, u"git *"_s);
    QCOMPARE(rules.first().action, PermissionRule::Action::Allow);
}

void TestOpencodeDbStore::sessionStamps()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    TestDb db(file);
    QVERIFY(db.loadStorage(weft::test::fixtureDir() + u"/storage"_s));
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    const auto before = store.value()->changeStamps({});
    QVERIFY(before);
    QCOMPARE(before->size(), 6);
    QVERIFY(db.exec(u"UPDATE part SET time_updated = 1900000000000 WHERE id = 'prt_200fa7fcc002SWWB8daGMkkVNe'"_s));
    const auto after = store.value()->changeStamps({});
    QVERIFY(after);
    for (auto it = before->constBegin(); it != before->constEnd(); ++it) {
        if (it.key() == u"ses_dff058141ffeXJnTNzT8vnXcKt")
            QCOMPARE(after->value(it.key()), 1900000000000);
        else
            QCOMPARE(after->value(it.key()), it.value());
    }
}

// The first step of a list: the newest roots with all their descendants, the rows as
// listedSessions() reads them; the rest of the sessions stay unread.
void TestOpencodeDbStore::newestListedSessions()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    TestDb db(file);
    QVERIFY(db.loadStorage(weft::test::fixtureDir() + u"/storage"_s));
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    QHash<QString, Session> listed;
    QList<Session> roots;
    for (const Session &s : store.value()->listedSessions()) {
        listed.insert(s.id(), s);
        if (s.parentID().isEmpty())
            roots.append(s);
    }
    std::sort(roots.begin(), roots.end(), [](const Session &a, const Session &b) {
        return a.updated() != b.updated() ? a.updated() > b.updated() : a.id() < b.id();
    });
    QCOMPARE(listed.size(), 6);
    QVERIFY(roots.size() < listed.size()); // the fixture has a child
    for (int n = 1; n <= roots.size() + 1; ++n) {
        QSet<QString> expected;
        for (const Session &r : roots.mid(0, n))
            expected.insert(r.id());
        for (qsizetype before = -1; before != expected.size();) {
            before = expected.size();
            for (const Session &s : std::as_const(listed)) {
                if (expected.contains(s.parentID()))
                    expected.insert(s.id());
            }
        }
        const std::optional<QList<Session>> page = store.value()->newestListedSessions(n);
        QVERIFY(page);
        QSet<QString> got;
        for (const Session &s : *page) {
            got.insert(s.id());
            QCOMPARE(s, listed.value(s.id()));
        }
        QCOMPARE(page->size(), got.size());
        QCOMPARE(got, expected);
    }
}

void TestOpencodeDbStore::sessionDiffFromStorage()
{
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir);
    const QString diff = u"[{\"file\":\"notes.md\",\"patch\":\"@@ -0,0 +1 @@\\n+x\\n\",\"additions\":1,\"deletions\":0,\"status\":\"added\"}]"_s;
    QFile f(dataDir + u"/storage/session_diff/"_s + RealMain + u".json"_s);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(diff.toUtf8());
    f.close();
    const auto store = OpencodeDbStore::open(dataDir + u"/opencode.db"_s);
    QVERIFY(store);
    const QList<FileDiff> diffs = store.value()->sessionDiff(RealMain);
    QCOMPARE(diffs.size(), 1);
    QCOMPARE(diffs.first().file(), u"notes.md"_s);
    QVERIFY(store.value()->sessionDiff(RealReverted).isEmpty()); // OpenCode's own file: []
    QVERIFY(store.value()->sessionDiff(RealChild).isEmpty());    // no file
    QVERIFY(store.value()->problems().isEmpty());
}

void TestOpencodeDbStore::dataDirDetection_data()
{
    QTest::addColumn<QStringList>("databases"); // file names; "bad:" prefix: not SQLite
    QTest::addColumn<bool>("withStorage");
    QTest::addColumn<bool>("openFile");
    QTest::addColumn<QString>("expectedDatabase"); // empty: the JSON store; "error": open fails
    QTest::addRow("opencode.db") << QStringList{u"opencode.db"_s} << false << false << u"opencode.db"_s;
    QTest::addRow("channel database") << QStringList{u"opencode-beta.db"_s} << false << false << u"opencode-beta.db"_s;
    QTest::addRow("opencode.db before channels") << QStringList{u"opencode-beta.db"_s, u"opencode.db"_s} << false << false << u"opencode.db"_s;
    QTest::addRow("database beside old storage") << QStringList{u"opencode.db"_s} << true << false << u"opencode.db"_s;
    QTest::addRow("damaged database, storage used") << QStringList{u"bad:opencode.db"_s} << true << false << QString();
    QTest::addRow("damaged database alone") << QStringList{u"bad:opencode.db"_s} << false << false << u"error"_s;
    QTest::addRow("the database file itself") << QStringList{u"opencode.db"_s} << false << true << u"opencode.db"_s;
    QTest::addRow("JSON only") << QStringList{} << true << false << QString();
}

void TestOpencodeDbStore::dataDirDetection()
{
    QFETCH(QStringList, databases);
    QFETCH(bool, withStorage);
    QFETCH(bool, openFile);
    QFETCH(QString, expectedDatabase);
    QTemporaryDir dir;
    const QString dataDir = dir.filePath(u"data"_s);
    QDir().mkpath(dataDir);
    for (const QString &entry : std::as_const(databases)) {
        if (entry.startsWith(u"bad:")) {
            QFile f(dataDir + u'/' + entry.mid(4));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("garbage, not SQLite");
        } else {
            QCOMPARE(makeFixtureDb(dataDir + u'/' + entry), QString());
        }
    }
    if (withStorage)
        QVERIFY(weft::test::copyTree(weft::test::fixtureDir() + u"/storage"_s, dataDir + u"/storage"_s));
    const QStringList before = weft::test::entriesUnder(dataDir);
    const QString target = openFile ? dataDir + u"/opencode.db"_s : dataDir;
    const Result<DataDir::Opened> opened = OpencodeDataDir::open(target, false);
    if (expectedDatabase == u"error") {
        QVERIFY(!opened);
        QVERIFY2(opened.error().toString().contains(u"not an SQLite database"), qPrintable(opened.error().toString()));
        return;
    }
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
    QCOMPARE(opened->path, dataDir);
    if (expectedDatabase.isEmpty()) {
        QVERIFY(opened->database.isEmpty());
        QVERIFY(!opened->store->isReadOnly());
        QCOMPARE(opened->warning.isEmpty(), databases.isEmpty());
        if (!databases.isEmpty())
            QVERIFY(opened->warning.contains(u"not an SQLite database"));
        QCOMPARE(opened->store->sessions().size(), 6);
        return;
    }
    QCOMPARE(opened->database, dataDir + u'/' + expectedDatabase);
    QVERIFY(opened->store->isReadOnly());
    QCOMPARE(opened->store->location(), dataDir + u'/' + expectedDatabase);
    QCOMPARE(opened->store->sessions().size(), 6);
    QVERIFY(!QFileInfo::exists(dataDir + u"/storage/migration"_s) || withStorage); // nothing created in OpenCode's folder
    QStringList after = weft::test::entriesUnder(dataDir);
    after.removeIf([](const QString &e) { return e.endsWith(u"-shm") || e.endsWith(u"-wal"); });
    QCOMPARE(after, before);
}

void TestOpencodeDbStore::v2SessionsRead_data()
{
    QTest::addColumn<QString>("sessionID");
    QTest::addColumn<QStringList>("expected");
    const QString toolStep = u"assistant tool-calls: step-start | tool %1 | step-finish tool-calls"_s;
    const QString done = u"assistant stop: step-start | text=%1 | step-finish stop"_s.arg(DoneText);
    QTest::addRow("first") << V2First
                           << QStringList{u"user: text=please create the files"_s,
                                          u"assistant tool-calls: step-start | tool write error | tool write error | step-finish tool-calls"_s,
                                          done,
                                          u"user: text=please edit hello"_s,
                                          toolStep.arg(u"edit error"_s),
                                          done,
                                          u"user: text=please run it"_s,
                                          toolStep.arg(u"bash completed"_s),
                                          done};
    QTest::addRow("second") << V2Second
                            << QStringList{u"user: text=read the file hello.py"_s,
                                           toolStep.arg(u"read error"_s),
                                           done,
                                           u"user: text=fail to read"_s,
                                           toolStep.arg(u"read error"_s),
                                           done,
                                           u"user: text=日本語のメッセージ: 要約してください? no, just answer"_s,
                                           u"assistant stop: step-start | text=%1 | step-finish stop"_s.arg(
                                               u"Sure. "_s + u"Here is a reply in plain text. "_s.repeated(5))};
}

void TestOpencodeDbStore::v2SessionsRead()
{
    // Every read covers the session_message rows, in seq order, as the V1 messages and parts
    // OpenCode writes for a V1 prompt; the single reads give what the session read gives.
    QFETCH(QString, sessionID);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir, V2Version) + u"/opencode.db"_s);
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
    OpencodeDbStore &store = *opened.value();

    const QList<MessageWithParts> all = store.messagesWithParts(sessionID);
    QStringList got;
    for (const MessageWithParts &m : all)
        got.append(summary(m));
    QCOMPARE(got, expected);

    // seq order is the order of the rows' IDs here (and of time.created).
    QStringList ids;
    for (const MessageWithParts &m : all)
        ids.append(m.info.id());
    QStringList sorted = ids;
    sorted.sort();
    QCOMPARE(ids, sorted);

    QList<Message> infos;
    for (const MessageWithParts &m : all)
        infos.append(m.info);
    QCOMPARE(store.messages(sessionID), infos);
    QStringList listed = store.messageIDs(sessionID);
    listed.sort();
    QCOMPARE(listed, sorted);
    QCOMPARE(store.messagesByID(sessionID, ids.mid(1, 2)), infos.mid(1, 2));
    const QList<MessageWithParts> withParts = store.withParts(sessionID, infos);
    QCOMPARE(withParts.size(), all.size());
    for (qsizetype i = 0; i < all.size(); ++i)
        QCOMPARE(withParts.at(i).toJson(), all.at(i).toJson());
    // The export streamed as the rows are read: V2 messages (mapped with their parts at the
    // start) between V1 ones.
    SessionService service(opened.value());
    const QByteArray streamed = streamedExport(service, sessionID);
    QVERIFY(streamed.count("\"messageID\"") > 0);
    QVERIFY(streamed == Transfer::formatExport(Transfer::exportSession(service, sessionID).value()));
    compareNewestPages(store, sessionID, all);
    if (QTest::currentTestFailed())
        return;

    QString lastUser;
    for (const MessageWithParts &m : all) {
        const std::optional<Message> single = store.message(sessionID, m.info.id());
        QVERIFY(single);
        QCOMPARE(single->json(), m.info.json());
        QCOMPARE(store.parts(sessionID, m.info.id()), m.parts);
        QVERIFY(Message::validate(m.info.json()).isEmpty());
        if (m.info.isUser()) {
            lastUser = m.info.id();
            QCOMPARE(m.info.agent(), u"build"_s);
            QCOMPARE(m.info.modelProviderID(), u"fake"_s);
            QCOMPARE(m.info.modelModelID(), u"m1"_s);
        } else {
            QCOMPARE(m.info.parentID(), lastUser);
            QCOMPARE(m.info.modelID(), u"m1"_s);
            QCOMPARE(m.info.providerID(), u"fake"_s);
            QCOMPARE(m.info.agent(), u"build"_s);
            QCOMPARE(m.info.mode(), u"build"_s);
            QVERIFY(m.info.isCompleted());
            const bool tools = m.info.finish() == u"tool-calls";
            QCOMPARE(m.info.tokens().input, qint64(tools ? 1500 : 1200));
            QCOMPARE(m.parts.last().tokens().input, m.info.tokens().input);
            QCOMPARE(m.parts.last().tokens().output, m.info.tokens().output);
            QCOMPARE(m.parts.first().snapshot(), u"5f4f5ac08e68c7009ac8eb195e11960f32897404"_s);
            QCOMPARE(m.parts.last().snapshot(), u"5f4f5ac08e68c7009ac8eb195e11960f32897404"_s);
        }
        // Part IDs: valid OpenCode part IDs, ascending in content order, derived from the
        // message ID (the same on every read).
        for (qsizetype i = 0; i < m.parts.size(); ++i) {
            const Part &p = m.parts.at(i);
            QVERIFY2(Identifier::isValid(p.id(), Identifier::Kind::Part), qPrintable(p.id()));
            QCOMPARE(p.id().size(), 30);
            QCOMPARE(p.id().mid(4, 12), m.info.id().mid(4, 12));
            QCOMPARE(p.messageID(), m.info.id());
            QCOMPARE(p.sessionID(), sessionID);
            QVERIFY(Part::validate(p.json()).isEmpty());
            if (i > 0)
                QVERIFY(m.parts.at(i - 1).id() < p.id());
        }
    }
    QVERIFY(store.problems().isEmpty());
}

void TestOpencodeDbStore::v2DetailsMapped()
{
    QTemporaryDir dir;
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir, V2Version) + u"/opencode.db"_s);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();

    // A failed tool call: its input, the error's message, the times it ran and completed.
    const QList<Part> write = store.parts(V2First, u"msg_20fbce8d4001CC3Bu1w4vGWv9P"_s);
    QCOMPARE(write.size(), 4);
    QCOMPARE(write.at(1).callID(), u"call_0008"_s);
    const JsonObject failed = write.at(1).json().object(u"state");
    QCOMPARE(failed.string(u"status"), u"error"_s);
    QCOMPARE(failed.object(u"input").string(u"filePath"), u"hello.py"_s);
    QCOMPARE(failed.object(u"input").string(u"content"), u"print('hello')\n"_s);
    QCOMPARE(failed.string(u"error"), u"Invalid tool input: Missing key\n  at [\"path\"]"_s);
    QCOMPARE(failed.object(u"time").integer(u"start"), qint64(1795560368359));
    QCOMPARE(failed.object(u"time").integer(u"end"), qint64(1795560368364));
    QCOMPARE(write.at(2).callID(), u"call_0009"_s);
    // OpenCode's V1 schema requires an assistant's path (`opencode import` refuses one without):
    // the session's directory and its project's worktree.
    const std::optional<Message> writer = store.message(V2First, u"msg_20fbce8d4001CC3Bu1w4vGWv9P"_s);
    QVERIFY(writer);
    QCOMPARE(writer->json().object(u"path").string(u"cwd"), u"/home/dev/src/demo"_s);
    QCOMPARE(writer->json().object(u"path").string(u"root"), u"/home/dev/src/demo"_s);
    QCOMPARE(store.messages(V2First).at(1).json().object(u"path"), writer->json().object(u"path"));

    // A completed call: the content's texts as output, the structured result as metadata.
    const QList<Part> bash = store.parts(V2First, u"msg_20fbcebc2001zCHcJ1A96qzDZW"_s);
    QCOMPARE(bash.size(), 3);
    QCOMPARE(bash.at(1).tool(), u"bash"_s);
    QCOMPARE(bash.at(1).callID(), u"call_0011"_s);
    const JsonObject completed = bash.at(1).json().object(u"state");
    QCOMPARE(completed.string(u"status"), u"completed"_s);
    QCOMPARE(completed.object(u"input").string(u"command"), u"python3 hello.py && ls -la"_s);
    QCOMPARE(completed.string(u"output"),
             u"/usr/bin/python3: can't open file '/home/dev/src/demo/hello.py': [Errno 2] No such file or directory\n\nCommand exited with code 2."_s);
    QCOMPARE(completed.string(u"title"), u"Run the script and list files"_s);
    QCOMPARE(completed.object(u"metadata").integer(u"exit"), qint64(2));
    QCOMPARE(completed.object(u"time").integer(u"start"), qint64(1795560369107));
    QCOMPARE(completed.object(u"time").integer(u"end"), qint64(1795560369226));

    const std::optional<Message> assistant = store.message(V2First, u"msg_20fbcebc2001zCHcJ1A96qzDZW"_s);
    QVERIFY(assistant);
    QCOMPARE(assistant->created(), qint64(1795560369090));
    QCOMPARE(assistant->completed(), qint64(1795560369271));
    QCOMPARE(assistant->parentID(), u"msg_20fbceb88001Kamyyo2xgiXjar"_s);
    QCOMPARE(assistant->tokens().output, qint64(40));
    QCOMPARE(assistant->cost(), 0.0);
    QVERIFY(!assistant->hasError());

    // Unknown IDs and a message of another session are not found.
    QVERIFY(!store.message(V2Second, u"msg_20fbcebc2001zCHcJ1A96qzDZW"_s));
    QVERIFY(!store.message(V2First, u"msg_unknown"_s));
    QVERIFY(store.parts(V2First, u"msg_unknown"_s).isEmpty());

    // The V1 session reads as before: its message and part rows, nothing else.
    const QList<MessageWithParts> plain = store.messagesWithParts(V2Plain);
    QStringList got;
    for (const MessageWithParts &m : plain)
        got.append(summary(m));
    QCOMPARE(got, (QStringList{u"user: text=please read the file hello.py"_s,
                               u"assistant tool-calls: step-start | tool read error | step-finish tool-calls"_s,
                               u"assistant stop: step-start | text=%1 | step-finish stop"_s.arg(DoneText)}));
    QCOMPARE(plain.at(1).parts.at(1).id(), u"prt_20fbcf62f001VgcQGnTh71QhgF"_s);
    QCOMPARE(plain.at(1).info.json().object(u"path").string(u"cwd"), u"/home/dev/src/demo"_s);
    QCOMPARE(plain.at(0).info.json().value(u"summary").toObject().array(u"diffs").size(), 0);
    QCOMPARE(store.parts(V2Plain, plain.at(2).info.id()), plain.at(2).parts);

    // The session's change stamp covers its session_message rows.
    const auto stamps = store.changeStamps(store.sessions());
    QVERIFY(stamps);
    QVERIFY(stamps->value(V2First) >= 1795560369351);
    QVERIFY(store.problems().isEmpty());
}

void TestOpencodeDbStore::v2BesideV1Rows()
{
    // A session with both kinds of rows lists both, by time.created then ID.
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir, V2Version);
    {
        TestDb db(dataDir + u"/opencode.db"_s, SchemaAge::V1_15_13, false);
        QVERIFY(db.exec(u"INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) "
                        u"VALUES ('msg_20fbcf60000100000000000000', ?, 'user', 1, 1795560371500, 1795560371500, ?)"_s,
                        {V2Plain, u"{\"time\":{\"created\":1795560371500},\"text\":\"a V2 prompt in between\"}"_s}));
    }
    const auto opened = OpencodeDbStore::open(dataDir + u"/opencode.db"_s);
    QVERIFY(opened);
    const QList<MessageWithParts> all = opened.value()->messagesWithParts(V2Plain);
    QCOMPARE(all.size(), 4);
    QCOMPARE(all.at(2).info.id(), u"msg_20fbcf60000100000000000000"_s);
    QCOMPARE(all.at(2).parts.size(), 1);
    QCOMPARE(all.at(2).parts.first().text(), u"a V2 prompt in between"_s);
    QCOMPARE(all.at(1).parts.size(), 3); // the V1 rows keep their parts
    QList<Message> infos;
    for (const MessageWithParts &m : all)
        infos.append(m.info);
    QCOMPARE(opened.value()->messages(V2Plain), infos);
    // The IDs alone (read without the messages' data) are those of both kinds of rows.
    QStringList ids = opened.value()->messageIDs(V2Plain);
    QStringList expected;
    for (const Message &m : std::as_const(infos))
        expected.append(m.id());
    ids.sort();
    expected.sort();
    QCOMPARE(ids, expected);
    // The newest page, of each size, takes each of its messages from the rows of its kind.
    compareNewestPages(*opened.value(), V2Plain, all);
    if (QTest::currentTestFailed())
        return;
    // Streamed, the V2 message goes out between the V1 ones.
    QList<QByteArray> taken;
    opened.value()->mapMessages(
        V2Plain, [](MessageWithParts &&m) { return m.toJson().isEmpty() ? QByteArray() : m.info.id().toUtf8(); },
        [&taken](QByteArray &&id) { taken.append(id); });
    QCOMPARE(taken.size(), expected.size());
    for (qsizetype i = 0; i < all.size(); ++i)
        QCOMPARE(QString::fromUtf8(taken.at(i)), all.at(i).info.id());
    QVERIFY(opened.value()->problems().isEmpty());
}

void TestOpencodeDbStore::v2UnknownContentKept()
{
    // Content of a newer OpenCode: an unknown item type is kept as a part of its own type, a
    // reasoning item becomes a reasoning part, an unknown tool state shows as a failed call, a
    // pending call keeps its raw input; an agent switch is no message.
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir, V2Version);
    const QString id = u"msg_20fbce952001KML6P48WLR3n9E"_s;
    {
        TestDb db(dataDir + u"/opencode.db"_s, SchemaAge::V1_15_13, false);
        const QString data = uR"({"time":{"created":1795560368466},"agent":"plan","model":{"id":"m2","providerID":"other"},
            "content":[{"type":"reasoning","id":"r0","text":"thinking","time":{"created":1795560368470,"completed":1795560368480}},
                       {"type":"hologram","id":"h0","shape":"cube"},
                       {"type":"tool","id":"c1","name":"grep","state":{"status":"teleporting","input":{}},"time":{"created":1795560368490}},
                       {"type":"tool","id":"c2","name":"glob","state":{"status":"pending","input":"{\"pat"},"time":{"created":1795560368491}},
                       {"type":"text","id":"t0","text":"partial"}],
            "error":{"type":"unknown","message":"the provider went away"}})"_s;
        QVERIFY(db.exec(u"UPDATE session_message SET data = ? WHERE id = ?"_s, {data, id}));
        QVERIFY(db.exec(u"INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) "
                        u"VALUES ('msg_20fbce96000100000000000000', ?, 'agent-switched', 14, 1795560368500, 1795560368500, ?)"_s,
                        {V2First, u"{\"time\":{\"created\":1795560368500},\"agent\":\"plan\"}"_s}));
    }
    const auto opened = OpencodeDbStore::open(dataDir + u"/opencode.db"_s);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();
    QCOMPARE(store.messages(V2First).size(), 9);
    const std::optional<Message> m = store.message(V2First, id);
    QVERIFY(m);
    QVERIFY(!m->isCompleted());
    QCOMPARE(m->agent(), u"plan"_s);
    QCOMPARE(m->modelID(), u"m2"_s);
    QVERIFY(m->hasError());
    QCOMPARE(m->json().object(u"error").string(u"name"), u"UnknownError"_s);
    QCOMPARE(m->json().object(u"error").object(u"data").string(u"message"), u"the provider went away"_s);
    const QList<Part> parts = store.parts(V2First, id);
    QStringList types;
    for (const Part &p : parts)
        types.append(p.typeName());
    // No step-finish: the message did not finish.
    QCOMPARE(types, (QStringList{u"step-start"_s, u"reasoning"_s, u"hologram"_s, u"tool"_s, u"tool"_s, u"text"_s}));
    QCOMPARE(parts.at(1).text(), u"thinking"_s);
    QCOMPARE(parts.at(1).timeField(u"start"), qint64(1795560368470));
    QCOMPARE(parts.at(1).timeField(u"end"), qint64(1795560368480));
    QCOMPARE(parts.at(2).json().string(u"shape"), u"cube"_s);
    QCOMPARE(parts.at(3).json().object(u"state").string(u"status"), u"error"_s);
    QVERIFY(parts.at(3).json().object(u"state").string(u"error").contains(u"teleporting"_s));
    QCOMPARE(parts.at(4).json().object(u"state").string(u"status"), u"pending"_s);
    QCOMPARE(parts.at(4).json().object(u"state").string(u"raw"), u"{\"pat"_s);
    QVERIFY(store.problems().isEmpty());
}

void TestOpencodeDbStore::v2DamagedDataReported()
{
    // A damaged data column is reported (as the V1 rows are) and that message skipped; the
    // others are read.
    QTemporaryDir dir;
    const QString dataDir = copyRealFixture(dir, V2Version);
    const QString file = dataDir + u"/opencode.db"_s;
    const QString broken = u"msg_20fbcea18001Td4HgzIU0Jk2j1"_s;
    const QString notObject = u"msg_20fbce9e4001U6rZZIcdnjjbVd"_s;
    {
        TestDb db(file, SchemaAge::V1_15_13, false);
        QVERIFY(db.exec(u"UPDATE session_message SET data = '{\"time\": ' WHERE id = ?"_s, {broken}));
        QVERIFY(db.exec(u"UPDATE session_message SET data = '[1, 2]' WHERE id = ?"_s, {notObject}));
    }
    const auto opened = OpencodeDbStore::open(file);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();
    const QList<MessageWithParts> all = store.messagesWithParts(V2First);
    QCOMPARE(all.size(), 7);
    for (const MessageWithParts &m : all) {
        QVERIFY(m.info.id() != broken && m.info.id() != notObject);
        // The assistant messages after the skipped prompt answer the prompt before it.
        QVERIFY(m.info.parentID() != notObject);
    }
    // The reads of a few messages (a page of the timeline, one message) read only their rows'
    // data and their neighbours', and map them as the session's read does, the damaged rows'
    // neighbours included.
    QStringList ids;
    for (const MessageWithParts &m : all)
        ids.append(m.info.id());
    for (qsizetype from = 0; from < all.size(); from += 3) {
        const QList<MessageWithParts> page = store.withParts(V2First, store.messagesByID(V2First, ids.mid(from, 3)));
        QCOMPARE(page.size(), std::min<qsizetype>(3, all.size() - from));
        for (qsizetype i = 0; i < page.size(); ++i)
            QCOMPARE(page.at(i).toJson(), all.at(from + i).toJson());
    }
    compareNewestPages(store, V2First);
    if (QTest::currentTestFailed())
        return;
    for (const MessageWithParts &m : all) {
        const std::optional<Message> single = store.message(V2First, m.info.id());
        QVERIFY(single);
        QCOMPARE(single->json(), m.info.json());
        QCOMPARE(store.parts(V2First, m.info.id()), m.parts);
    }
    // The IDs listed are the rows', the damaged ones too (they are left out when read).
    QCOMPARE(store.messageIDs(V2First).size(), 9);
    QVERIFY(!store.message(V2First, broken));
    QVERIFY(store.parts(V2First, broken).isEmpty());
    QCOMPARE(store.messages(V2First).size(), 7);
    QStringList locations;
    for (const StoreProblem &p : store.problems())
        locations.append(p.location);
    QVERIFY2(locations.contains(file + u"#session_message/"_s + broken), qPrintable(locations.join(u", ")));
    QVERIFY(locations.contains(file + u"#session_message/"_s + notObject));
}

namespace
{
// tests/data/opencode-2.0-sessionv2: an OpenCode 2.0.x database built from public facts (README).
const QString SessionV2Fixture = u"2.0-sessionv2"_s;
const QString Migrated = u"ses_1000000000000migratedAAAAA"_s;
const QString NativeV2 = u"ses_2000000000000nativeV2BBBBB"_s;
const QString Skipped = u"ses_3000000000000skippedV1CCCC"_s;
const QString EventsOnly = u"ses_4000000000000eventsOnlyDDD"_s;

/// The parts of @p messages as "role:type[:tool]" lines, for comparing conversations.
QStringList outline(const QList<MessageWithParts> &messages)
{
    QStringList lines;
    for (const MessageWithParts &m : messages) {
        for (const Part &p : m.parts) {
            QString line = (m.info.isUser() ? u"user:"_s : u"assistant:"_s) + p.typeName();
            if (p.type() == PartType::Tool)
                line += u':' + p.tool() + u':' + p.state().output();
            if (p.type() == PartType::Text)
                line += u':' + p.text();
            lines.append(line);
        }
    }
    return lines;
}
} // namespace

void TestOpencodeDbStore::sessionV2Preferred()
{
    QTemporaryDir dir;
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir, SessionV2Fixture) + u"/opencode.db"_s);
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
    OpencodeDbStore &store = *opened.value();
    QVERIFY(store.hasSessionV2());
    QCOMPARE(store.v1MigrationPhase(), u"completed"_s);
    QVERIFY(!store.newestListedSessions(10)); // no index over both tables: the list loads in one step
    QHash<QString, Session> byID;
    for (const Session &s : store.sessions())
        byID.insert(s.id(), s);
    QCOMPARE(byID.size(), 4); // the migrated session once, from session_v2
    QCOMPARE(byID.value(Migrated).title(), u"Migrated"_s);
    QCOMPARE(byID.value(Migrated).version(), u"2.0.25"_s);
    QVERIFY(!byID.value(Migrated).isNotMigrated());
    QVERIFY(!byID.value(NativeV2).isNotMigrated());
    QVERIFY(byID.value(Skipped).isNotMigrated());
    QCOMPARE(byID.value(Skipped).version(), u"1.18.34"_s);
    // One session alone: the same copy.
    QCOMPARE(store.session(Migrated)->title(), u"Migrated"_s);
    QVERIFY(store.session(Skipped)->isNotMigrated());
    // The skipped session's V1 rows are read.
    QCOMPARE(outline(store.messagesWithParts(Skipped)), QStringList{u"user:text:Skipped by the migration (V1 rows)"_s});
    // A 2.x session's tools keep their 2.x names and inputs.
    const QList<MessageWithParts> v2 = store.messagesWithParts(NativeV2);
    QCOMPARE(v2.size(), 2);
    QStringList tools;
    for (const Part &p : v2.at(1).parts) {
        if (p.type() == PartType::Tool)
            tools.append(p.tool() + u' ' + p.state().input().string(u"path", p.state().input().string(u"command")));
    }
    QCOMPARE(tools, (QStringList{u"shell make test"_s, u"read src/main.c"_s, u"subagent "_s}));
    // Without session_v2 (a 1.18 database), nothing is marked.
    QTemporaryDir v1dir;
    const auto v1 = OpencodeDbStore::open(copyRealFixture(v1dir, V2Version) + u"/opencode.db"_s);
    QVERIFY(v1);
    QVERIFY(!v1.value()->hasSessionV2());
    QVERIFY(v1.value()->v1MigrationPhase().isEmpty());
    for (const Session &s : v1.value()->sessions())
        QVERIFY(!s.isNotMigrated());
}

void TestOpencodeDbStore::sessionV2MigratedReadsV2Rows()
{
    // A migrated session's conversation is its session_message copy, not the legacy V1 rows,
    // through every read.
    QTemporaryDir dir;
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir, SessionV2Fixture) + u"/opencode.db"_s);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();
    const QList<MessageWithParts> all = store.messagesWithParts(Migrated);
    QCOMPARE(outline(all), QStringList{u"user:text:Migrated (V2 rows)"_s});
    QCOMPARE(store.messageIDs(Migrated), QStringList{u"msg_1000000000001migratedUSRxx"_s});
    QCOMPARE(store.messages(Migrated).size(), 1);
    QVERIFY(!store.message(Migrated, u"msg_1000000000000migratedAAAAA"_s));
    QVERIFY(store.parts(Migrated, u"msg_1000000000000migratedAAAAA"_s).isEmpty());
    compareNewestPages(store, Migrated, all);
}

void TestOpencodeDbStore::sessionV2ChangeStamps()
{
    QTemporaryDir dir;
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir, SessionV2Fixture) + u"/opencode.db"_s);
    QVERIFY(opened);
    const auto stamps = opened.value()->changeStamps({});
    QVERIFY(stamps);
    QCOMPARE(stamps->size(), 4);
    QCOMPARE(stamps->value(Migrated), 1790000000900); // session_v2's row, not the legacy one
    QCOMPARE(stamps->value(Skipped), 1790000020500);
}

void TestOpencodeDbStore::eventLogRebuildsSession()
{
    QTemporaryDir dir;
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir, SessionV2Fixture) + u"/opencode.db"_s);
    QVERIFY(opened);
    OpencodeDbStore &store = *opened.value();
    const QList<MessageWithParts> all = store.messagesWithParts(EventsOnly);
    QCOMPARE(outline(all), (QStringList{u"user:text:list the files"_s, u"assistant:step-start"_s,
                                        u"assistant:tool:shell:Makefile\nsrc"_s, u"assistant:text:Two entries."_s,
                                        u"assistant:step-finish"_s}));
    QCOMPARE(all.at(1).info.json().object(u"tokens").integer(u"input"), 20);
    QCOMPARE(all.at(1).info.completed(), 1790000030080);
    QCOMPARE(all.at(1).parts.at(1).state().input().string(u"command"), u"ls"_s);
    QCOMPARE(store.messageIDs(EventsOnly), (QStringList{u"msg_4000000000001eventsOnUSRxx"_s, u"msg_4000000000002eventsOnASTxx"_s}));
    compareNewestPages(store, EventsOnly, all);
}

void TestOpencodeDbStore::previewDatabase()
{
    // The real preview's database: session metadata in a V2-shaped `session` table.
    QTemporaryDir dir;
    const auto opened = OpencodeDbStore::open(copyRealFixture(dir, u"v2-preview"_s) + u"/opencode.db"_s);
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
    OpencodeDbStore &store = *opened.value();
    QVERIFY(!store.hasSessionV2());
    const QList<Session> sessions = store.sessions();
    QCOMPARE(sessions.size(), 3);
    QStringList all;
    for (const Session &s : sessions) {
        QVERIFY(!s.isNotMigrated());
        QCOMPARE(s.version(), u"0.0.0-v2beta-db9e942"_s);
        all += outline(store.messagesWithParts(s.id()));
    }
    const QString joined = all.join(u'|');
    QVERIFY2(joined.contains(u"assistant:tool:shell:hello, world\nbye"_s), qPrintable(joined));
    QVERIFY2(joined.contains(u"assistant:tool:edit:Edited hello.py"_s), qPrintable(joined));
}

void TestOpencodeDbStore::previewRebuiltFromEvents()
{
    // Without its session_message rows (as when the rows are lost), each session of the preview
    // is rebuilt from its event log into the same conversation.
    QTemporaryDir dir;
    const QString file = copyRealFixture(dir, u"v2-preview"_s) + u"/opencode.db"_s;
    QHash<QString, QStringList> expected;
    {
        const auto opened = OpencodeDbStore::open(file);
        QVERIFY(opened);
        for (const Session &s : opened.value()->sessions())
            expected.insert(s.id(), outline(opened.value()->messagesWithParts(s.id())));
    }
    {
        TestDb db(file, SchemaAge::V1_15_13, false);
        QVERIFY(db.exec(u"DELETE FROM session_message"_s));
    }
    const auto opened = OpencodeDbStore::open(file);
    QVERIFY(opened);
    QCOMPARE(expected.size(), 3);
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        QVERIFY(!it.value().isEmpty());
        QCOMPARE(outline(opened.value()->messagesWithParts(it.key())), it.value());
    }
}

void TestOpencodeDbStore::sessionV2WithoutLegacyTables()
{
    // A database OpenCode 2.0.x made alone need not have the V1 tables: it opens, with the
    // session_v2 sessions, and the file is left as it was.
    QTemporaryDir dir;
    const QString file = copyRealFixture(dir, SessionV2Fixture) + u"/opencode.db"_s;
    {
        TestDb db(file, SchemaAge::V1_15_13, false);
        QVERIFY(db.exec(u"DROP TABLE part"_s));
        QVERIFY(db.exec(u"DROP TABLE message"_s));
        QVERIFY(db.exec(u"DROP TABLE session"_s));
        QVERIFY(db.exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s));
    }
    const QByteArray before = fileHash(file);
    const auto opened = OpencodeDbStore::open(file);
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
    OpencodeDbStore &store = *opened.value();
    QStringList ids;
    for (const Session &s : store.sessions()) {
        QVERIFY(!s.isNotMigrated());
        ids.append(s.id());
    }
    ids.sort();
    QCOMPARE(ids, (QStringList{Migrated, NativeV2, EventsOnly}));
    QCOMPARE(store.messagesWithParts(NativeV2).size(), 2);
    QCOMPARE(store.messagesWithParts(EventsOnly).size(), 2);
    QCOMPARE(store.messageIDs(Migrated).size(), 1);
    compareNewestPages(store, NativeV2, store.messagesWithParts(NativeV2));
    const auto stamps = store.changeStamps({});
    QVERIFY(stamps);
    QCOMPARE(stamps->size(), 3);
    store.closeThreadConnection();
    QCOMPARE(fileHash(file), before);
}

QTEST_GUILESS_MAIN(TestOpencodeDbStore)
#include "tst_opencodedbstore.moc"
