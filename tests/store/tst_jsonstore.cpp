// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON file store (model/store/jsonstorage.h, jsonstore.h) against real OpenCode 1.1.53 data:
// reading, lossless writing, ordering, damaged and hostile data, concurrency, migrations.

#include "core/identifier.h"
#include "core/project.h"
#include "core/json.h"
#include "store/jsonstorage.h"
#include "store/jsonstore.h"
#include "testdata.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::FixtureDataDir;

namespace
{
const QString ProjectID = u"6c8748ef28d89c4c344a1dd08dfcf985db02b468"_s;
const QString MainSession = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString FirstRunSession = u"ses_dff05d03effeSyJOWoDVIYjVxr"_s;
const QString MainAssistant = u"msg_200fa7f0a001Upg1DpdQjTFybp"_s; // step-start, 2 tools, step-finish
const QString MainToolPart = u"prt_200fa7f540017y0A6NuCPo6Wme"_s;
constexpr qint64 WrapInstant = qint64(26) << 36; // 2026-08-14T11:19:55.136Z

/// Messages per fixture session (README.md: main, fork_at_3rd_user, fork_full, reverted, child,
/// the first `opencode run` session; the deleted session left only its session_diff).
const QMap<QString, int> FixtureMessageCounts{
    {MainSession, 30},
    {u"ses_dff0577d4ffeyEniRVGIu2rzSP"_s, 9},
    {u"ses_dff0575f4ffevnacwZ5rX969u2"_s, 26},
    {u"ses_dff05751fffexgWr6MRybGFAXU"_s, 5},
    {u"ses_dff057405ffesKzX5TtUsbqkQ3"_s, 3},
    {FirstRunSession, 3},
};
constexpr int FixtureMessages = 76;
constexpr int FixtureParts = 178;
constexpr int FixtureJsonFiles = 267;

JsonValue parse(const QByteArray &bytes)
{
    std::optional<JsonValue> v = parseJson(bytes);
    return v ? *v : JsonValue();
}

/// Reads everything a window would: sessions, their messages and parts, diffs.
struct LoadCounts {
    int sessions = 0;
    int messages = 0;
    int parts = 0;
    int diffs = 0;
};

LoadCounts loadEverything(JsonStore &store)
{
    LoadCounts counts;
    (void)store.projects();
    const QList<Session> sessions = store.sessions();
    counts.sessions = int(sessions.size());
    for (const QString &id : FixtureMessageCounts.keys()) {
        const QList<MessageWithParts> messages = store.messagesWithParts(id);
        counts.messages += int(messages.size());
        for (const MessageWithParts &m : messages)
            counts.parts += int(m.parts.size());
        counts.diffs += int(store.sessionDiff(id).size());
    }
    return counts;
}

QString problemsText(const Store &store)
{
    QStringList lines;
    for (const StoreProblem &p : store.problems())
        lines.append(p.location + u": "_s + p.reason);
    return lines.join(u'\n');
}

QStringList storageKeysOf(const QString &root)
{
    QStringList keys;
    QDirIterator it(root, {u"*.json"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QString rel = QDir(root).relativeFilePath(it.next());
        rel.chop(5);
        keys.append(rel);
    }
    keys.sort();
    return keys;
}
} // namespace

class TestJsonStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsFixture();
    void orderMatchesOpenCodeExport_data();
    void orderMatchesOpenCodeExport();
    void readsDoNotModify();
    void rawRoundTrip();
    void typedRoundTrip();
    void messageOrderAcrossWraparound();

    void damaged_data();
    void damaged();
    void damagedFileNotOverwrittenByUpdate();
    void hostileKeys_data();
    void hostileKeys();
    void hostileIdsInStore();

    void concurrentPartWriters();
    void readerNeverSeesHalfWrittenFile_data();
    void readerNeverSeesHalfWrittenFile();
    void concurrentUpdatesLoseNothing();
    void failedWriteLeavesNoTemporaryFile();
    void createWritesInPlace();
    void newFilesFlushWhileWritten();
    void newestMessagesByID();
    void parallelReadsReportEveryDamagedFile();

    void migrationNewStore();
    void migrationExisting_data();
    void migrationExisting();
    void migrationMissingInUsedStore();
    void migrationSessionDiffs();
    void migrationOldProjectLayout();
};

void TestJsonStore::createWritesInPlace()
{
    QTemporaryDir tmp;
    JsonStorage storage(tmp.path());
    const JsonStorage::Key key{u"part"_s, u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s, u"prt_200fa7ecb002AAAAAAAAAAAAAA"_s};
    const JsonObject first{{u"id"_s, u"prt_200fa7ecb002AAAAAAAAAAAAAA"_s}, {u"text"_s, u"ある"_s}};
    // A new file in a new folder: exactly what write() would have written, and nothing else.
    QVERIFY(storage.create(key, JsonStorage::serialize(first)).ok());
    const QString folder = tmp.path() + u"/part/msg_200fa7ecb001c3Nb1NHK3TNUPw"_s;
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden), QStringList{u"prt_200fa7ecb002AAAAAAAAAAAAAA.json"_s});
    QCOMPARE(weft::test::readFile(storage.path(key).value()), JsonStorage::serialize(first));
    // An existing file is replaced whole (through a temporary and a rename), not appended to.
    const JsonObject second{{u"id"_s, u"prt_200fa7ecb002AAAAAAAAAAAAAA"_s}};
    QVERIFY(storage.create(key, JsonStorage::serialize(second)).ok());
    QCOMPARE(storage.read(key).value(), JsonValue(second));
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden).size(), 1);
    // Hostile keys never become paths.
    QVERIFY(!storage.create({u"part"_s, u".."_s, u"x"_s}, "{}").ok());
    QVERIFY(!storage.create({u"part"_s, u"../../etc"_s, u"passwd"_s}, "{}").ok());
    QVERIFY(!QFileInfo::exists(tmp.path() + u"/x.json"_s));
    // A folder that cannot be made: a clear error, no file.
    QFile blocker(tmp.path() + u"/blocked"_s);
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const Result<void> r = storage.create({u"blocked"_s, u"a"_s, u"b"_s}, "{}");
    QVERIFY(!r.ok());
    QVERIFY(r.error().toString().contains(u"blocked"_s));
    // Folders made ahead of their files; an existing one is fine, a hostile one refused.
    QVERIFY(storage.makeFolder({u"part"_s, u"msg_new"_s}).ok());
    QVERIFY(storage.makeFolder({u"part"_s, u"msg_new"_s}).ok());
    QVERIFY(QFileInfo(tmp.path() + u"/part/msg_new"_s).isDir());
    QVERIFY(!storage.makeFolder({u"part"_s, u"../../escape"_s}).ok());
    QVERIFY(!QFileInfo::exists(tmp.path() + u"/../escape"_s));
}

void TestJsonStore::newFilesFlushWhileWritten()
{
    QTemporaryDir tmp;
    JsonStorage storage(tmp.path());
    {
        // Under one step written: nothing flushed before finish().
        JsonStorage::NewFiles files(storage);
        QVERIFY(files.create({u"part"_s, u"msg_a"_s, u"prt_small"_s}, "{}").ok());
        QVERIFY(files.finish().ok());
        QCOMPARE(files.earlyFlushes(), 0);
    }
    // A step written: the batch flushes while the next files are made, and finish() the rest.
    JsonStorage::NewFiles files(storage);
    const QByteArray big(JsonStorage::NewFiles::FlushStepBytes / 2, 'x');
    QVERIFY(files.create({u"part"_s, u"msg_b"_s, u"prt_1"_s}, big).ok());
    QVERIFY(files.create({u"part"_s, u"msg_b"_s, u"prt_2"_s}, big).ok());
    QTRY_COMPARE(files.earlyFlushes(), 1);
    QVERIFY(files.create({u"part"_s, u"msg_b"_s, u"prt_3"_s}, "{}").ok());
    QVERIFY(files.finish().ok());
    QCOMPARE(files.earlyFlushes(), 1);
    for (const char *name : {"prt_1", "prt_2"})
        QCOMPARE(QFileInfo(tmp.path() + u"/part/msg_b/"_s + QLatin1String(name) + u".json"_s).size(), big.size());
    // A hostile key is refused by the batch as by create().
    JsonStorage::NewFiles more(storage);
    QVERIFY(!more.create({u"part"_s, u"../../etc"_s, u"passwd"_s}, "{}").ok());
    QVERIFY(more.finish().ok());

    // A storage folder that cannot be opened: the batch says so when it is finished.
    JsonStorage missing(tmp.path() + u"/missing"_s);
    JsonStorage::NewFiles lost(missing);
    const Result<void> r = lost.finish();
    QVERIFY(!r.ok());
    QVERIFY(r.error().toString().contains(u"missing"_s));
}

void TestJsonStore::newestMessagesByID()
{
    FixtureDataDir dir;
    JsonStore store(dir.path());
    QVERIFY(store.initialize().ok());
    // The listing names every message file without reading any: a damaged one is listed too.
    const QString damagedID = u"msg_200fa7f0a001Upg1DpdQjTFybp"_s;
    const QString damagedPath = dir.storage() + u"/message/"_s + MainSession + u'/' + damagedID + u".json"_s;
    {
        QFile f(damagedPath);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"id\": \"msg_");
    }
    QStringList ids = store.messageIDs(MainSession);
    QCOMPARE(ids.size(), 30);
    QVERIFY(ids.contains(damagedID));
    QVERIFY(store.problems().isEmpty());
    QVERIFY(store.messageIDs(u"../../etc"_s).isEmpty());

    // Reading a chosen few: in session order, the damaged one reported and skipped, an unsafe
    // or unknown ID skipped quietly.
    ids.removeOne(damagedID);
    std::sort(ids.begin(), ids.end());
    QStringList chosen = ids.mid(0, 4) + QStringList{damagedID, u"../../etc/passwd"_s, u"msg_nothere"_s};
    std::reverse(chosen.begin(), chosen.end());
    const QList<Message> read = store.messagesByID(MainSession, chosen);
    QCOMPARE(read.size(), 4);
    for (qsizetype i = 1; i < read.size(); ++i)
        QVERIFY(messageLessThan(read.at(i - 1), read.at(i)));
    QCOMPARE(store.problems().size(), 1);
    QCOMPARE(store.problems().first().location, damagedPath);

    // Their parts, in the same order as the infos.
    const QList<MessageWithParts> withParts = store.withParts(MainSession, read);
    QCOMPARE(withParts.size(), read.size());
    for (qsizetype i = 0; i < read.size(); ++i) {
        QCOMPARE(withParts.at(i).info.id(), read.at(i).id());
        QCOMPARE(withParts.at(i).parts, store.parts(MainSession, read.at(i).id()));
    }
}

void TestJsonStore::parallelReadsReportEveryDamagedFile()
{
    // A session of 400 messages with 3 parts each, read on every core: the same messages, in
    // the same order, as reading them one by one; each damaged file reported exactly once.
    QTemporaryDir tmp;
    JsonStore store(tmp.path());
    QVERIFY(store.initialize().ok());
    const QString sessionID = u"ses_dff058141ffeXJnTNzT8vnXcKa"_s;
    const qint64 t0 = 1760000000000;
    QList<MessageWithParts> written;
    for (int i = 0; i < 400; ++i) {
        JsonObject info{{u"id"_s, Identifier::create(Identifier::Kind::Message, false, t0 + i)},
                        {u"sessionID"_s, sessionID},
                        {u"role"_s, u"user"_s},
                        {u"time"_s, JsonObject{{u"created"_s, t0 + i}}},
                        {u"agent"_s, u"build"_s},
                        {u"model"_s, JsonObject{{u"providerID"_s, u"p"_s}, {u"modelID"_s, u"m"_s}}}};
        MessageWithParts m{Message(info), {}};
        for (int p = 0; p < 3; ++p) {
            m.parts.append(Part(JsonObject{{u"id"_s, Identifier::create(Identifier::Kind::Part, false, t0 + i)},
                                           {u"sessionID"_s, sessionID},
                                           {u"messageID"_s, m.info.id()},
                                           {u"type"_s, u"text"_s},
                                           {u"text"_s, u"メッセージ %1.%2"_s.arg(i).arg(p)}}));
        }
        written.append(m);
    }
    QVERIFY(store.writeMessages(written).ok());
    QStringList damaged;
    for (int i : {3, 150, 151, 399}) {
        const QString path = tmp.path() + u"/storage/part/"_s + written.at(i).info.id() + u'/' + written.at(i).parts.at(1).id() + u".json"_s;
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray(64, '\0'));
        damaged.append(path);
    }
    const QList<MessageWithParts> read = store.messagesWithParts(sessionID);
    QCOMPARE(read.size(), 400);
    for (int i = 0; i < 400; ++i) {
        QCOMPARE(read.at(i).info, written.at(i).info);
        const bool hasDamagedPart = i == 3 || i == 150 || i == 151 || i == 399;
        QCOMPARE(read.at(i).parts.size(), qsizetype(hasDamagedPart ? 2 : 3));
    }
    QStringList reported;
    for (const StoreProblem &p : store.problems())
        reported.append(p.location);
    reported.sort();
    damaged.sort();
    QCOMPARE(reported, damaged);
    // Read again: the problems are not reported twice.
    QCOMPARE(store.messagesWithParts(sessionID).size(), 400);
    QCOMPARE(store.problems().size(), damaged.size());
}

void TestJsonStore::readsFixture()
{
    FixtureDataDir dir;
    QVERIFY(dir.isValid());
    JsonStore store(dir.path());
    QVERIFY(store.initialize().ok());

    const QList<Project> projects = store.projects();
    QCOMPARE(projects.size(), 1);
    QCOMPARE(projects.first().id(), ProjectID);
    QCOMPARE(projects.first().worktree(), u"/home/dev/src/demo"_s);

    const QList<Session> sessions = store.sessions();
    QSet<QString> ids;
    for (const Session &s : sessions) {
        ids.insert(s.id());
        QCOMPARE(s.projectID(), ProjectID);
        QVERIFY(Session::validate(s.json()).isEmpty());
    }
    QCOMPARE(ids, QSet<QString>(FixtureMessageCounts.keyBegin(), FixtureMessageCounts.keyEnd()));
    QCOMPARE(store.session(u"ses_dff057405ffesKzX5TtUsbqkQ3"_s)->parentID(), u"ses_dff05751fffexgWr6MRybGFAXU"_s);
    QCOMPARE(store.session(u"ses_dff05751fffexgWr6MRybGFAXU"_s)->revert().string(u"messageID"), u"msg_200fa8b51001xlwvpgQcolOMni"_s);
    QVERIFY(!store.session(u"ses_dff057371ffebq2g9ljs5K7M48"_s).has_value()); // the deleted one

    int messages = 0, parts = 0;
    for (auto it = FixtureMessageCounts.cbegin(); it != FixtureMessageCounts.cend(); ++it) {
        const QList<MessageWithParts> list = store.messagesWithParts(it.key());
        QCOMPARE(int(list.size()), it.value());
        QString lastUser;
        for (const MessageWithParts &m : list) {
            QCOMPARE(m.info.sessionID(), it.key());
            if (m.info.isUser()) {
                lastUser = m.info.id();
            } else {
                // Every assistant message answers the user message before it.
                QCOMPARE(m.info.parentID(), lastUser);
                QVERIFY(m.info.tokens().total() >= 0);
            }
            QVERIFY(!m.parts.isEmpty());
            for (const Part &p : m.parts) {
                QCOMPARE(p.messageID(), m.info.id());
                QCOMPARE(p.sessionID(), it.key());
            }
            parts += int(m.parts.size());
        }
        messages += int(list.size());
        QVERIFY(store.sessionDiff(it.key()).isEmpty()); // OpenCode wrote `[]` for all of them
    }
    QCOMPARE(messages, FixtureMessages);
    QCOMPARE(parts, FixtureParts);

    // The compaction of the main session: a compaction part, then a summary message.
    const QList<MessageWithParts> main = store.messagesWithParts(MainSession);
    QCOMPARE(main.at(26).parts.first().type(), PartType::Compaction);
    QVERIFY(main.at(27).info.isSummary());
    // The tool part of the second message, with its state.
    const std::optional<Message> assistant = store.message(MainSession, MainAssistant);
    QVERIFY(assistant && assistant->isAssistant());
    const QList<Part> toolParts = store.parts(MainSession, MainAssistant);
    QCOMPARE(toolParts.size(), 4);
    QCOMPARE(toolParts.at(1).id(), MainToolPart);
    QCOMPARE(toolParts.at(1).type(), PartType::Tool);
    QVERIFY(toolParts.at(1).state().status() != ToolStatus::Unknown);

    QVERIFY2(store.problems().isEmpty(), qPrintable(problemsText(store)));
}

void TestJsonStore::orderMatchesOpenCodeExport_data()
{
    QTest::addColumn<QString>("sessionID");
    for (const QString &id : FixtureMessageCounts.keys())
        QTest::addRow("%s", qPrintable(id)) << id;
}

void TestJsonStore::orderMatchesOpenCodeExport()
{
    // Messages and parts come out in the order `opencode export` printed them.
    QFETCH(QString, sessionID);
    FixtureDataDir dir;
    JsonStore store(dir.path());
    const JsonValue exported = parse(weft::test::readFile(weft::test::fixtureDir() + u"/export/"_s + sessionID + u".json"_s));
    const JsonArray expected = exported.toObject().array(u"messages");
    const QList<MessageWithParts> actual = store.messagesWithParts(sessionID);
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i) {
        const JsonObject m = expected.at(i).toObject();
        QCOMPARE(actual.at(i).info.id(), m.object(u"info").string(u"id"));
        QVERIFY(actual.at(i).info.json() == m.object(u"info"));
        const JsonArray parts = m.array(u"parts");
        QCOMPARE(actual.at(i).parts.size(), parts.size());
        for (qsizetype j = 0; j < parts.size(); ++j) {
            QCOMPARE(actual.at(i).parts.at(j).id(), parts.at(j).toObject().string(u"id"));
            QVERIFY(actual.at(i).parts.at(j).json() == parts.at(j).toObject());
        }
    }
}

void TestJsonStore::readsDoNotModify()
{
    FixtureDataDir dir;
    const QStringList entriesBefore = weft::test::entriesUnder(dir.path());
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());
    {
        JsonStore store(dir.path());
        QVERIFY(store.initialize().ok());
        const LoadCounts counts = loadEverything(store);
        QCOMPARE(counts.sessions, 6);
        QCOMPARE(counts.messages, FixtureMessages);
        QCOMPARE(counts.parts, FixtureParts);
    }
    QCOMPARE(weft::test::entriesUnder(dir.path()), entriesBefore);
    QVERIFY(weft::test::snapshotTree(dir.path()) == before);
    // And the copy is the fixture itself.
    QVERIFY(weft::test::snapshotTree(dir.storage()) == weft::test::snapshotTree(weft::test::fixtureDir() + u"/storage"_s));
}

void TestJsonStore::rawRoundTrip()
{
    // Every fixture file, read through JsonStorage and written back (in place, and into an
    // empty storage), has the same bytes: the layout OpenCode 1.1 writes.
    FixtureDataDir dir;
    QTemporaryDir other;
    JsonStorage storage(dir.storage());
    JsonStorage fresh(other.path());
    const QMap<QString, QByteArray> original = weft::test::snapshotTree(dir.storage());
    const QStringList keys = storageKeysOf(dir.storage());
    QCOMPARE(keys.size(), FixtureJsonFiles);
    for (const QString &key : keys) {
        const Result<JsonValue> value = storage.read(key.split(u'/'));
        QVERIFY2(value.ok(), qPrintable(key));
        QVERIFY(storage.write(key.split(u'/'), value.value()).ok());
        QVERIFY(fresh.write(key.split(u'/'), value.value()).ok());
        const QByteArray expected = original.value(key + u".json"_s);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(weft::test::readFile(dir.storage() + u'/' + key + u".json"_s), expected);
        QCOMPARE(weft::test::readFile(other.path() + u'/' + key + u".json"_s), expected);
        QCOMPARE(storage.readRaw(key.split(u'/')).value(), expected);
    }
    QVERIFY(weft::test::snapshotTree(dir.storage()) == original);
    // list() finds exactly those keys.
    QStringList listed;
    for (const QString &folder : {u"project"_s, u"session"_s, u"message"_s, u"part"_s, u"session_diff"_s}) {
        for (const JsonStorage::Key &k : storage.list({folder}))
            listed.append(k.join(u'/'));
    }
    listed.sort();
    QCOMPARE(listed, keys);
}

void TestJsonStore::typedRoundTrip()
{
    // Read as Session/Message/Part/FileDiff/Project values and written through JsonStore into a
    // new data dir: every file comes out byte for byte as OpenCode wrote it (unknown fields and
    // key order kept), the `migration` file included.
    FixtureDataDir dir;
    QTemporaryDir other;
    JsonStore source(dir.path());
    JsonStore target(other.path());
    QVERIFY(target.initialize().ok());
    for (const Project &p : source.projects())
        QVERIFY(target.writeProject(p).ok());
    for (const Session &s : source.sessions()) {
        QVERIFY(target.writeSession(s).ok());
        for (const MessageWithParts &m : source.messagesWithParts(s.id())) {
            QVERIFY(target.writeMessage(m.info).ok());
            for (const Part &p : m.parts)
                QVERIFY(target.writePart(p).ok());
        }
    }
    for (const QString &file : QDir(dir.storage() + u"/session_diff"_s).entryList(QDir::Files)) {
        const QString id = file.chopped(5);
        QVERIFY(target.writeSessionDiff(id, source.sessionDiff(id)).ok());
    }
    const QMap<QString, QByteArray> expected = weft::test::snapshotTree(dir.storage());
    const QMap<QString, QByteArray> actual = weft::test::snapshotTree(other.path() + u"/storage"_s);
    QCOMPARE(actual.keys(), expected.keys());
    for (auto it = expected.cbegin(); it != expected.cend(); ++it)
        QVERIFY2(actual.value(it.key()) == it.value(), qPrintable(it.key()));
    QVERIFY(source.problems().isEmpty());
}

void TestJsonStore::messageOrderAcrossWraparound()
{
    QTemporaryDir tmp;
    JsonStore store(tmp.path());
    QVERIFY(store.initialize().ok());
    const QString sessionID = Identifier::create(Identifier::Kind::Session, true, WrapInstant - 10);
    auto message = [&](qint64 idTime, qint64 created) {
        const QString id = Identifier::create(Identifier::Kind::Message, false, idTime);
        Message m = Message::makeUser(id, sessionID, created, u"build"_s, u"p"_s, u"m"_s);
        [&] { QVERIFY(store.writeMessage(m).ok()); }();
        return id;
    };
    // Made just before the wrap, then after it: the later IDs sort first as strings.
    const QString a = message(WrapInstant - 2, WrapInstant - 2);
    const QString b = message(WrapInstant + 3, WrapInstant + 3);
    const QString c = message(WrapInstant + 3, WrapInstant + 3); // same millisecond: ID decides
    const QString d = message(WrapInstant + 900, WrapInstant + 900);
    QVERIFY(b < a && c < a && d < a);
    QVERIFY(b < c);

    QList<Message> messages = store.messages(sessionID);
    QStringList order;
    for (const Message &m : messages)
        order.append(m.id());
    QCOMPARE(order, (QStringList{a, b, c, d}));
    // The file listing (ID order) alone would be wrong.
    QStringList byFile;
    for (const JsonStorage::Key &k : store.storage().list({u"message"_s, sessionID}))
        byFile.append(k.last());
    QCOMPARE(byFile, (QStringList{b, c, d, a}));

    // messageLessThan: time.created first, then ID.
    std::sort(messages.begin(), messages.end(), [](const Message &x, const Message &y) { return x.id() < y.id(); });
    std::sort(messages.begin(), messages.end(), messageLessThan);
    QCOMPARE(messages.first().id(), a);
    QCOMPARE(messages.last().id(), d);
    QVERIFY(store.problems().isEmpty());
}

void TestJsonStore::damaged_data()
{
    QTest::addColumn<QString>("file");      // relative to storage/
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("reason");    // part of the problem's reason
    QTest::addColumn<int>("sessions");
    QTest::addColumn<int>("messages");
    QTest::addColumn<int>("parts");

    const QString session = u"session/"_s + ProjectID + u'/' + FirstRunSession + u".json"_s;
    const QString message = u"message/"_s + MainSession + u'/' + MainAssistant + u".json"_s;
    const QString part = u"part/"_s + MainAssistant + u'/' + MainToolPart + u".json"_s;
    const QString diff = u"session_diff/"_s + MainSession + u".json"_s;
    // Messages are counted per fixture session ID, so a damaged session file does not hide
    // them; a damaged message hides its 4 parts.
    const int M = FixtureMessages, P = FixtureParts;

    QTest::addRow("session: empty") << session << u"empty"_s << u"the file is empty"_s << 5 << M << P;
    QTest::addRow("session: truncated") << session << u"truncate"_s << u"not valid JSON"_s << 5 << M << P;
    QTest::addRow("session: all NUL") << session << u"nul"_s << u"only NUL bytes"_s << 5 << M << P;
    QTest::addRow("session: NUL tail") << session << u"nul-tail"_s << u"not valid JSON"_s << 5 << M << P;
    QTest::addRow("session: not JSON") << session << u"text"_s << u"not valid JSON"_s << 5 << M << P;
    QTest::addRow("session: an array") << session << u"array"_s << u"expected object, found array"_s << 5 << M << P;
    QTest::addRow("session: no time") << session << u"remove:time"_s << u"$.time: missing"_s << 5 << M << P;
    QTest::addRow("session: title a number") << session << u"number:title"_s << u"$.title: expected string, found number"_s << 5 << M << P;
    QTest::addRow("session: id of another file") << session << u"string:id=ses_dff0000000000000000000000000"_s
                                                 << u"does not match the session ID"_s << 5 << M << P;
    QTest::addRow("message: truncated") << message << u"truncate"_s << u"not valid JSON"_s << 6 << M - 1 << P - 4;
    QTest::addRow("message: all NUL") << message << u"nul"_s << u"only NUL bytes"_s << 6 << M - 1 << P - 4;
    QTest::addRow("message: no tokens") << message << u"remove:tokens"_s << u"$.tokens: missing"_s << 6 << M - 1 << P - 4;
    QTest::addRow("message: bad role") << message << u"string:role=robot"_s << u"expected \"user\" or \"assistant\""_s << 6 << M - 1 << P - 4;
    QTest::addRow("message: wrong session") << message << u"string:sessionID=ses_dff05d03effeSyJOWoDVIYjVxr"_s
                                            << u"does not match its file"_s << 6 << M - 1 << P - 4;
    QTest::addRow("part: empty") << part << u"empty"_s << u"the file is empty"_s << 6 << M << P - 1;
    QTest::addRow("part: all NUL") << part << u"nul"_s << u"only NUL bytes"_s << 6 << M << P - 1;
    QTest::addRow("part: status bogus") << part << u"status:bogus"_s << u"expected pending, running, completed or error, found \"bogus\""_s << 6 << M << P - 1;
    QTest::addRow("part: not an object") << part << u"text:42"_s << u"expected object, found number"_s << 6 << M << P - 1;
    QTest::addRow("session diff: an object") << diff << u"text:{}"_s << u"expected an array of file diffs"_s << 6 << M << P;
    QTest::addRow("session diff: NUL") << diff << u"nul"_s << u"only NUL bytes"_s << 6 << M << P;
}

void TestJsonStore::damaged()
{
    QFETCH(QString, file);
    QFETCH(QString, mode);
    QFETCH(QString, reason);
    QFETCH(int, sessions);
    QFETCH(int, messages);
    QFETCH(int, parts);

    FixtureDataDir dir;
    const QString path = QDir::cleanPath(dir.storage() + u'/' + file);
    const QByteArray original = weft::test::readFile(path);
    QVERIFY(!original.isEmpty());

    QByteArray damaged;
    if (mode == u"empty") {
        damaged = QByteArray();
    } else if (mode == u"truncate") {
        damaged = original.left(original.size() / 2);
    } else if (mode == u"nul") {
        damaged = QByteArray(original.size(), '\0');
    } else if (mode == u"nul-tail") {
        damaged = original.left(original.size() / 3) + QByteArray(4096, '\0');
    } else if (mode == u"text") {
        damaged = "this is not JSON at all\n"_ba;
    } else if (mode.startsWith(u"text:")) {
        damaged = mode.mid(5).toUtf8();
    } else if (mode == u"array") {
        damaged = "[\n  \"ses_dff05d03effeSyJOWoDVIYjVxr\"\n]"_ba;
    } else {
        JsonObject o = parse(original).toObject();
        const QString field = mode.section(u':', 1).section(u'=', 0, 0);
        if (mode.startsWith(u"remove:")) {
            QVERIFY(o.contains(field));
            o.remove(field);
        } else if (mode.startsWith(u"number:")) {
            o.insert(field, 42);
        } else if (mode.startsWith(u"string:")) {
            o.insert(field, mode.section(u'=', 1));
        } else if (mode.startsWith(u"status:")) {
            JsonObject state = o.object(u"state");
            state.insert(u"status"_s, mode.section(u':', 1));
            o.insert(u"state"_s, state);
        } else {
            QFAIL("unknown mode");
        }
        damaged = toJson(o, 2);
    }
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(damaged);
    }

    JsonStore store(dir.path());
    QList<StoreProblem> reported;
    store.setProblemHandler([&](const StoreProblem &p) { reported.append(p); });
    QVERIFY(store.initialize().ok());
    // One warning on the log, naming the file.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"^skipping damaged data: "_s + QRegularExpression::escape(path) + u" - "_s));
    const LoadCounts counts = loadEverything(store);
    QCOMPARE(counts.sessions, sessions);
    QCOMPARE(counts.messages, messages);
    QCOMPARE(counts.parts, parts);

    // Reported once (a second load adds nothing), naming the file and the reason.
    (void)loadEverything(store);
    const QList<StoreProblem> problems = store.problems();
    QVERIFY2(problems.size() == 1, qPrintable(problemsText(store)));
    QCOMPARE(problems.first().location, path);
    QVERIFY2(problems.first().reason.contains(reason), qPrintable(problems.first().reason));
    QCOMPARE(reported.size(), 1);
    QVERIFY(reported.first() == problems.first());

    // Everything else loads as before, and the damaged file is left exactly as it was.
    QCOMPARE(weft::test::readFile(path), damaged);
    QCOMPARE(QFileInfo(path).size(), qint64(damaged.size()));
}

void TestJsonStore::damagedFileNotOverwrittenByUpdate()
{
    FixtureDataDir dir;
    JsonStorage storage(dir.storage());
    const JsonStorage::Key key{u"session"_s, ProjectID, FirstRunSession};
    const QString path = storage.path(key).value();
    const QByteArray nul(700, '\0');
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(nul);
    }
    bool editorCalled = false;
    const Result<JsonValue> r = storage.update(key, [&](JsonValue &) { editorCalled = true; });
    QVERIFY(!r.ok());
    QVERIFY(!editorCalled);
    QCOMPARE(r.error().where, path);
    QVERIFY(r.error().message.contains(u"NUL"_s));
    QCOMPARE(weft::test::readFile(path), nul);
    const Result<JsonValue> read = storage.read(key);
    QVERIFY(!read.ok());
    QVERIFY(read.error().toString().startsWith(path));
}

void TestJsonStore::hostileKeys_data()
{
    QTest::addColumn<QStringList>("key");
    QTest::addRow("empty key") << QStringList();
    QTest::addRow("empty component") << QStringList{u"session"_s, QString()};
    QTest::addRow("traversal in one component") << QStringList{u"../../canary"_s};
    QTest::addRow("traversal as components") << QStringList{u".."_s, u".."_s, u"canary"_s};
    QTest::addRow("dot") << QStringList{u"session"_s, u"."_s, u"x"_s};
    QTest::addRow("root") << QStringList{u"/"_s};
    QTest::addRow("absolute") << QStringList{u"/etc/passwd"_s};
    QTest::addRow("slash inside") << QStringList{u"session"_s, u"a/b"_s};
    QTest::addRow("backslash") << QStringList{u"session"_s, u"..\\..\\canary"_s};
    QTest::addRow("NUL") << QStringList{u"part"_s, u"msg_x"_s + QChar(0) + u"/../../canary"_s};
    QTest::addRow("newline") << QStringList{u"session"_s, u"ses_a\nb"_s};
    QTest::addRow("300 bytes") << QStringList{u"session"_s, QString(300, u'a')};
}

void TestJsonStore::hostileKeys()
{
    QFETCH(QStringList, key);
    QTemporaryDir base;
    const QString root = base.path() + u"/data/storage"_s;
    QVERIFY(QDir().mkpath(root));
    {
        QFile canary(base.path() + u"/canary.json"_s);
        QVERIFY(canary.open(QIODevice::WriteOnly));
        canary.write("{\"secret\": true}");
    }
    const QStringList entriesBefore = weft::test::entriesUnder(base.path());
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(base.path());

    JsonStorage storage(root);
    const Result<QString> path = storage.path(key);
    QVERIFY(!path.ok());
    QVERIFY2(path.error().message.contains(u"unsafe storage key"_s) || path.error().message.contains(u"empty storage key"_s),
             qPrintable(path.error().message));
    QVERIFY(!path.error().message.contains(QChar(0)));

    QVERIFY(!storage.read(key).ok());
    QVERIFY(!storage.readRaw(key).ok());
    QVERIFY(!storage.write(key, JsonObject{{u"x"_s, 1}}).ok());
    QVERIFY(!storage.writeRaw(key, "{}"_ba).ok());
    bool edited = false;
    QVERIFY(!storage.update(key, [&](JsonValue &) { edited = true; }).ok());
    QVERIFY(!edited);
    QVERIFY(!storage.remove(key).ok());
    QVERIFY(!storage.exists(key));
    if (!key.isEmpty()) {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"refusing to list unsafe key"_s));
        QVERIFY(storage.list(key).isEmpty());
        QVERIFY(storage.listFolders(key).isEmpty());
    }

    QCOMPARE(weft::test::entriesUnder(base.path()), entriesBefore);
    QVERIFY(weft::test::snapshotTree(base.path()) == before);
}

void TestJsonStore::hostileIdsInStore()
{
    QTemporaryDir base;
    const QString dataDir = base.path() + u"/data"_s;
    JsonStore store(dataDir);
    QVERIFY(store.initialize().ok());
    const QStringList entriesBefore = weft::test::entriesUnder(base.path());

    const QString goodSession = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
    const QString goodMessage = u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s;
    const QString goodPart = u"prt_200fa7ecb002AAAAAAAAAAAAAA"_s;
    const QStringList hostile{u"../../x"_s, u"ses_../../x"_s, u"msg_../../x"_s, u"prt_/x"_s, u"/"_s, u".."_s, QString(),
                              u"ses_x"_s + QChar(0) + u"y"_s};

    for (const QString &bad : hostile) {
        JsonObject s{{u"id"_s, bad}, {u"projectID"_s, u"global"_s}, {u"directory"_s, u"/"_s}, {u"title"_s, u"t"_s},
                     {u"version"_s, u"1"_s}, {u"time"_s, JsonObject{{u"created"_s, 1}, {u"updated"_s, 1}}}};
        QVERIFY(!store.writeSession(Session(s)).ok());
        s.insert(u"id"_s, goodSession);
        s.insert(u"projectID"_s, bad);
        QVERIFY2(!store.writeSession(Session(s)).ok(), qPrintable(bad));

        QVERIFY(!store.writeMessage(Message::makeUser(bad, goodSession, 1, u"a"_s, u"p"_s, u"m"_s)).ok());
        QVERIFY(!store.writeMessage(Message::makeUser(goodMessage, bad, 1, u"a"_s, u"p"_s, u"m"_s)).ok());
        QVERIFY(!store.writePart(Part::makeText(bad, goodSession, goodMessage, u"t"_s)).ok());
        QVERIFY(!store.writePart(Part::makeText(goodPart, goodSession, bad, u"t"_s)).ok());
        QVERIFY(!store.writeSessionDiff(bad, {}).ok());
        QVERIFY(!store.removeSession(Session(JsonObject{{u"id"_s, bad}, {u"projectID"_s, u"global"_s}})).ok());
        QVERIFY(!store.removeMessage(goodSession, bad).ok());
        QVERIFY(!store.removeMessage(bad, goodMessage).ok());
        QVERIFY(!store.removePart(goodSession, goodMessage, bad).ok());
        QVERIFY(!store.removePart(goodSession, bad, goodPart).ok());

        QVERIFY(!store.session(bad).has_value());
        QVERIFY(store.messages(bad).isEmpty());
        QVERIFY(store.parts(goodSession, bad).isEmpty());
        QVERIFY(store.sessionDiff(bad).isEmpty());
        QVERIFY(!store.message(bad, goodMessage).has_value());
        QVERIFY(!store.message(goodSession, bad).has_value());
    }
    // A hostile ID is refused, not mistaken for damaged data on disk.
    QVERIFY2(store.problems().isEmpty(), qPrintable(problemsText(store)));
    // The error says why, in words.
    const Result<void> r = store.writeMessage(Message::makeUser(u"msg_../../x"_s, goodSession, 1, u"a"_s, u"p"_s, u"m"_s));
    QVERIFY(r.error().message.contains(u"path separator"_s));

    QCOMPARE(weft::test::entriesUnder(base.path()), entriesBefore);
}

void TestJsonStore::concurrentPartWriters()
{
    // Four threads write 500 different parts each of one message (each part twice: a draft,
    // then its final text) while a reader lists the message's parts: nothing is lost, every
    // file is valid, the reader never meets a damaged file.
    constexpr int Threads = 4;
    constexpr int PartsPerThread = 500;
    QTemporaryDir tmp;
    JsonStore store(tmp.path());
    QVERIFY(store.initialize().ok());
    const QString sessionID = Identifier::descending(Identifier::Kind::Session);
    const QString messageID = Identifier::ascending(Identifier::Kind::Message);

    std::atomic<int> failures{0};
    std::atomic<bool> writing{true};
    std::atomic<int> readerPasses{0};
    std::vector<std::unique_ptr<QThread>> threads;
    for (int t = 0; t < Threads; ++t) {
        threads.emplace_back(QThread::create([&, t] {
            for (int i = 0; i < PartsPerThread; ++i) {
                Part part = Part::makeText(Identifier::ascending(Identifier::Kind::Part), sessionID, messageID,
                                           u"draft %1 %2"_s.arg(t).arg(i));
                if (!store.writePart(part).ok())
                    ++failures;
                part.setText(u"final %1 %2 "_s.arg(t).arg(i) + QString(200, u'x'));
                if (!store.writePart(part).ok())
                    ++failures;
            }
        }));
    }
    std::unique_ptr<QThread> reader(QThread::create([&] {
        while (writing.load()) {
            (void)store.parts(sessionID, messageID);
            ++readerPasses;
        }
    }));
    reader->start();
    for (auto &thread : threads)
        thread->start();
    for (auto &thread : threads)
        QVERIFY(thread->wait(120000));
    writing = false;
    QVERIFY(reader->wait(60000));

    QCOMPARE(failures.load(), 0);
    QVERIFY(readerPasses.load() > 0);
    QVERIFY2(store.problems().isEmpty(), qPrintable(problemsText(store)));

    const QList<Part> parts = store.parts(sessionID, messageID);
    QCOMPARE(parts.size(), Threads * PartsPerThread);
    QSet<QString> texts;
    for (const Part &p : parts) {
        QVERIFY2(p.text().startsWith(u"final "_s), qPrintable(p.text()));
        texts.insert(p.text());
    }
    QCOMPARE(texts.size(), Threads * PartsPerThread);
    for (int t = 0; t < Threads; ++t) {
        for (int i = 0; i < PartsPerThread; i += 97)
            QVERIFY(texts.contains(u"final %1 %2 "_s.arg(t).arg(i) + QString(200, u'x')));
    }
    // Atomic writes leave no temporary files behind.
    const QStringList files = QDir(tmp.path() + u"/storage/part/"_s + messageID).entryList(QDir::Files | QDir::Hidden);
    QCOMPARE(files.size(), Threads * PartsPerThread);
    for (const QString &f : files)
        QVERIFY2(f.startsWith(u"prt_"_s) && f.endsWith(u".json"_s), qPrintable(f));
}

void TestJsonStore::readerNeverSeesHalfWrittenFile_data()
{
    QTest::addColumn<JsonStorage::Sync>("sync");
    QTest::addRow("durable") << JsonStorage::Sync::Durable;
    QTest::addRow("streaming") << JsonStorage::Sync::Streaming;
}

void TestJsonStore::readerNeverSeesHalfWrittenFile()
{
    QFETCH(JsonStorage::Sync, sync);
    // One thread rewrites a large part 500 times; two readers read it at the same time, one
    // through JsonStorage and one with plain QFile (no lock: only the atomic rename protects
    // it). Every read is a complete, valid file of one version.
    constexpr int Rewrites = 500;
    QTemporaryDir tmp;
    JsonStorage storage(tmp.path());
    const JsonStorage::Key key{u"part"_s, u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s, u"prt_200fa7ecb002AAAAAAAAAAAAAA"_s};
    const QString path = storage.path(key).value();
    const int textSize = 256 * 1024;
    auto document = [&](int version) {
        return JsonObject{{u"version"_s, version}, {u"text"_s, QString(textSize, QChar(u'a' + version % 26))}};
    };
    QVERIFY(storage.write(key, document(0)).ok());

    std::atomic<bool> writing{true};
    std::atomic<int> bad{0};
    std::atomic<int> reads{0};
    auto check = [&](const QByteArray &bytes) {
        const std::optional<JsonValue> v = parseJson(bytes);
        if (!v) {
            ++bad;
            return;
        }
        const JsonObject o = v->toObject();
        const int version = int(o.integer(u"version", -1));
        if (version < 0 || o.string(u"text") != QString(textSize, QChar(u'a' + version % 26)))
            ++bad;
        ++reads;
    };
    std::unique_ptr<QThread> writer(QThread::create([&] {
        for (int v = 1; v <= Rewrites; ++v) {
            if (!storage.write(key, document(v), sync).ok())
                ++bad;
        }
        writing = false;
    }));
    std::unique_ptr<QThread> lockedReader(QThread::create([&] {
        while (writing.load()) {
            const Result<QByteArray> bytes = storage.readRaw(key);
            if (!bytes.ok())
                ++bad;
            else
                check(bytes.value());
        }
    }));
    std::unique_ptr<QThread> rawReader(QThread::create([&] {
        while (writing.load()) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                ++bad; // the file never disappears: rename replaces it in one step
                continue;
            }
            check(f.readAll());
        }
    }));
    lockedReader->start();
    rawReader->start();
    writer->start();
    QVERIFY(writer->wait(120000));
    QVERIFY(lockedReader->wait(60000));
    QVERIFY(rawReader->wait(60000));
    QCOMPARE(bad.load(), 0);
    QVERIFY(reads.load() > 0);
    QCOMPARE(storage.read(key).value().toObject().integer(u"version"), Rewrites);
    QCOMPARE(QDir(QFileInfo(path).path()).entryList(QDir::Files | QDir::Hidden), QStringList{QFileInfo(path).fileName()});
}

void TestJsonStore::concurrentUpdatesLoseNothing()
{
    // update() is a read-modify-write under the key's write lock: 4 threads x 250 increments.
    constexpr int Threads = 4;
    constexpr int Increments = 250;
    QTemporaryDir tmp;
    JsonStorage storage(tmp.path());
    const JsonStorage::Key key{u"todo"_s, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s};
    QVERIFY(storage.write(key, JsonObject{{u"count"_s, 0}}).ok());
    std::atomic<int> failures{0};
    std::vector<std::unique_ptr<QThread>> threads;
    for (int t = 0; t < Threads; ++t) {
        threads.emplace_back(QThread::create([&] {
            for (int i = 0; i < Increments; ++i) {
                const Result<JsonValue> r = storage.update(key, [](JsonValue &v) {
                    JsonObject &o = v.objectRef();
                    o.insert(u"count"_s, o.integer(u"count") + 1);
                });
                if (!r.ok())
                    ++failures;
            }
        }));
        threads.back()->start();
    }
    for (auto &thread : threads)
        QVERIFY(thread->wait(120000));
    QCOMPARE(failures.load(), 0);
    QCOMPARE(storage.read(key).value().toObject().integer(u"count"), Threads * Increments);
}

void TestJsonStore::failedWriteLeavesNoTemporaryFile()
{
    QTemporaryDir tmp;
    JsonStorage storage(tmp.path());
    const JsonStorage::Key key{u"part"_s, u"msg_1"_s, u"prt_1"_s};
    // The target is a folder: the write cannot replace it (root cannot either).
    const QString path = storage.path(key).value();
    QVERIFY(QDir().mkpath(path));
    const Result<void> r = storage.write(key, JsonObject{{u"x"_s, 1}});
    QVERIFY(!r.ok());
    QCOMPARE(r.error().where, path);
    QVERIFY(QFileInfo(path).isDir());
    QCOMPARE(QDir(tmp.path() + u"/part/msg_1"_s).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{u"prt_1.json"_s});
    // The streaming write (rename without fsync) cleans up after itself the same way.
    const Result<void> streaming = storage.write(key, JsonObject{{u"x"_s, 1}}, JsonStorage::Sync::Streaming);
    QVERIFY(!streaming.ok());
    QCOMPARE(streaming.error().where, path);
    QCOMPARE(QDir(tmp.path() + u"/part/msg_1"_s).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{u"prt_1.json"_s});

    // A write that succeeds replaces the old file whole, keeps nothing else around.
    const JsonStorage::Key ok{u"part"_s, u"msg_1"_s, u"prt_2"_s};
    QVERIFY(storage.write(ok, JsonObject{{u"v"_s, 1}}).ok());
    QVERIFY(storage.write(ok, JsonObject{{u"v"_s, 2}}).ok());
    QCOMPARE(weft::test::readFile(storage.path(ok).value()), "{\n  \"v\": 2\n}"_ba);
    QCOMPARE(QDir(tmp.path() + u"/part/msg_1"_s).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             (QStringList{u"prt_1.json"_s, u"prt_2.json"_s}));
}

void TestJsonStore::migrationNewStore()
{
    QTemporaryDir tmp;
    const QString dataDir = tmp.path() + u"/new"_s;
    JsonStore store(dataDir);
    QVERIFY(store.initialize().ok());
    QCOMPARE(weft::test::readFile(dataDir + u"/storage/migration"_s), "2"_ba);
    QCOMPARE(weft::test::entriesUnder(dataDir), (QStringList{u"storage"_s, u"storage/migration"_s}));
    // Opening again changes nothing.
    QVERIFY(JsonStore(dataDir).initialize().ok());
    QCOMPARE(weft::test::readFile(dataDir + u"/storage/migration"_s), "2"_ba);

    // storage/ that is a file is refused.
    const QString broken = tmp.path() + u"/broken"_s;
    QVERIFY(QDir().mkpath(broken));
    {
        QFile f(broken + u"/storage"_s);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a folder");
    }
    const Result<void> r = JsonStore(broken).initialize();
    QVERIFY(!r.ok());
    QVERIFY(r.error().toString().contains(u"storage"_s));
    QCOMPARE(weft::test::readFile(broken + u"/storage"_s), "not a folder"_ba);
}

void TestJsonStore::migrationExisting_data()
{
    QTest::addColumn<QByteArray>("migration");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("error");
    QTest::addRow("OpenCode 1.1 (2)") << "2"_ba << true << QString();
    QTest::addRow("with a newline") << "2\n"_ba << true << QString();
    QTest::addRow("older (1)") << "1"_ba << true << QString();
    QTest::addRow("newer (3)") << "3"_ba << false << u"migrated to version 3 by a newer OpenCode"_s;
    QTest::addRow("much newer (17)") << "17"_ba << false << u"version 17"_s;
    QTest::addRow("not a number") << "abc"_ba << false << u"does not hold a number"_s;
    QTest::addRow("empty") << QByteArray() << false << u"does not hold a number"_s;
}

void TestJsonStore::migrationExisting()
{
    QFETCH(QByteArray, migration);
    QFETCH(bool, accepted);
    QFETCH(QString, error);
    FixtureDataDir dir;
    const QString path = dir.storage() + u"/migration"_s;
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(migration);
    }
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());
    JsonStore store(dir.path());
    const Result<void> r = store.initialize();
    QCOMPARE(r.ok(), accepted);
    if (!accepted) {
        QVERIFY2(r.error().message.contains(error), qPrintable(r.error().message));
        QCOMPARE(r.error().where, path);
    }
    QMap<QString, QByteArray> after = weft::test::snapshotTree(dir.path());
    if (migration == "1") {
        // The missing migration ran (the fixture sessions have no diffs to move) and is recorded.
        QCOMPARE(after.value(u"storage/migration"_s), "2"_ba);
        after.insert(u"storage/migration"_s, migration);
    }
    // Nothing else is rewritten, and a refused file not at all.
    QVERIFY(after == before);
}

void TestJsonStore::migrationMissingInUsedStore()
{
    // A storage folder with data but no migration file: OpenCode 1.1 runs both migrations on
    // it, and so does Weft; a 1.1 layout has nothing to move, so only the stamp is new.
    FixtureDataDir dir;
    QVERIFY(QFile::remove(dir.storage() + u"/migration"_s));
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(dir.path());
    JsonStore store(dir.path());
    QVERIFY(store.initialize().ok());
    QCOMPARE(weft::test::readFile(dir.storage() + u"/migration"_s), "2"_ba);
    QMap<QString, QByteArray> after = weft::test::snapshotTree(dir.path());
    after.remove(u"storage/migration"_s);
    QVERIFY(after == before);
    QCOMPARE(store.sessions().size(), 6);
}

namespace
{
void writeBytes(const QString &path, const QByteArray &bytes)
{
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}
} // namespace

void TestJsonStore::migrationSessionDiffs()
{
    // OpenCode before migration 2 kept a session's diffs in `summary.diffs`.
    QTemporaryDir tmp;
    const QString storage = tmp.path() + u"/storage"_s;
    writeBytes(storage + u"/migration"_s, "1");
    const JsonObject diff1{{u"file"_s, u"a.txt"_s}, {u"before"_s, u"x\n"_s}, {u"after"_s, u"y\nz\n"_s}, {u"additions"_s, 2}, {u"deletions"_s, 1}};
    const JsonObject diff2{{u"file"_s, u"b.txt"_s}, {u"before"_s, u""_s}, {u"after"_s, u"new\n"_s}, {u"additions"_s, 1}, {u"deletions"_s, 0}};
    const JsonObject session{{u"id"_s, u"ses_old"_s},
                             {u"version"_s, u"0.15.0"_s},
                             {u"projectID"_s, u"global"_s},
                             {u"directory"_s, u"/tmp"_s},
                             {u"title"_s, u"Old"_s},
                             {u"summary"_s, JsonObject{{u"diffs"_s, JsonArray{diff1, diff2}}}},
                             {u"time"_s, JsonObject{{u"created"_s, 1}, {u"updated"_s, 2}}}};
    writeBytes(storage + u"/session/global/ses_old.json"_s, JsonStorage::serialize(session));
    const QByteArray untouched = JsonStorage::serialize(JsonObject{{u"id"_s, u"ses_new"_s},
                                                                   {u"projectID"_s, u"global"_s},
                                                                   {u"summary"_s, JsonObject{{u"additions"_s, 0}, {u"deletions"_s, 0}}}});
    writeBytes(storage + u"/session/global/ses_new.json"_s, untouched);
    writeBytes(storage + u"/session/global/ses_bad.json"_s, "{\"id\": \"ses_bad\", \"summary\": {\"diffs\": [");

    JsonStore store(tmp.path());
    QVERIFY(store.initialize().ok());
    QCOMPARE(weft::test::readFile(storage + u"/migration"_s), "2"_ba);
    // The diffs moved to session_diff/, the summary kept its place among the keys.
    QCOMPARE(weft::test::readFile(storage + u"/session_diff/ses_old.json"_s), JsonStorage::serialize(JsonArray{diff1, diff2}));
    JsonObject migrated = session;
    migrated.insert(u"summary"_s, JsonObject{{u"additions"_s, 3}, {u"deletions"_s, 1}});
    QCOMPARE(weft::test::readFile(storage + u"/session/global/ses_old.json"_s), JsonStorage::serialize(migrated));
    QCOMPARE(store.sessionDiff(u"ses_old"_s).size(), 2);
    // A session without diffs is not rewritten; a damaged one is reported and left as it was.
    QCOMPARE(weft::test::readFile(storage + u"/session/global/ses_new.json"_s), untouched);
    QCOMPARE(weft::test::readFile(storage + u"/session/global/ses_bad.json"_s), "{\"id\": \"ses_bad\", \"summary\": {\"diffs\": ["_ba);
    bool reported = false;
    for (const StoreProblem &problem : store.problems())
        reported = reported || problem.location.endsWith(u"ses_bad.json"_s);
    QVERIFY(reported);
}

void TestJsonStore::migrationOldProjectLayout()
{
    // OpenCode's first layout kept sessions per project: <data>/project/<dir>/storage/session/.
    QTemporaryDir tmp;
    const QString data = tmp.path() + u"/data"_s;
    const QString worktree = tmp.path() + u"/repo"_s;
    QVERIFY(QDir().mkpath(worktree));
    const auto git = [&](const QStringList &args) {
        QProcess p;
        p.setWorkingDirectory(worktree);
        p.start(u"git"_s, QStringList{u"-c"_s, u"user.name=t"_s, u"-c"_s, u"user.email=t@t"_s} + args);
        return p.waitForFinished() && p.exitCode() == 0;
    };
    QVERIFY(git({u"init"_s, u"-q"_s}));
    QVERIFY(git({u"commit"_s, u"-q"_s, u"--allow-empty"_s, u"-m"_s, u"root"_s}));
    const ProjectIdentity identity = identifyProject(worktree);
    QVERIFY(identity.id.size() == 40);

    const QString legacy = data + u"/project/repo-old/storage/session"_s;
    const JsonObject session{{u"id"_s, u"ses_a"_s},
                             {u"version"_s, u"0.3.0"_s},
                             {u"projectID"_s, identity.id},
                             {u"directory"_s, worktree},
                             {u"title"_s, u"From 0.3"_s},
                             {u"time"_s, JsonObject{{u"created"_s, 1}, {u"updated"_s, 2}}}};
    const JsonObject message{{u"id"_s, u"msg_a"_s}, {u"role"_s, u"assistant"_s}, {u"path"_s, JsonObject{{u"cwd"_s, worktree}, {u"root"_s, worktree}}}};
    const JsonObject part{{u"id"_s, u"prt_a"_s}, {u"sessionID"_s, u"ses_a"_s}, {u"messageID"_s, u"msg_a"_s}, {u"type"_s, u"text"_s}, {u"text"_s, u"hi"_s}};
    writeBytes(legacy + u"/info/ses_a.json"_s, JsonStorage::serialize(session));
    writeBytes(legacy + u"/message/ses_a/msg_a.json"_s, JsonStorage::serialize(message));
    writeBytes(legacy + u"/part/ses_a/msg_a/prt_a.json"_s, JsonStorage::serialize(part));
    writeBytes(legacy + u"/part/ses_a/msg_a/prt_b.json"_s, QByteArray(3, char(0)));
    // The global project moves without a project file; a hostile ID inside a file goes nowhere.
    const QString global = data + u"/project/global/storage/session"_s;
    writeBytes(global + u"/info/ses_g.json"_s, JsonStorage::serialize(JsonObject{{u"id"_s, u"ses_g"_s}}));
    writeBytes(global + u"/info/ses_h.json"_s, JsonStorage::serialize(JsonObject{{u"id"_s, u"../../etc"_s}}));
    // A project whose worktree is gone stays where it is, as in OpenCode.
    const QString gone = data + u"/project/gone/storage/session"_s;
    writeBytes(gone + u"/info/ses_x.json"_s, JsonStorage::serialize(JsonObject{{u"id"_s, u"ses_x"_s}}));
    writeBytes(gone + u"/message/ses_x/msg_x.json"_s,
               JsonStorage::serialize(JsonObject{{u"id"_s, u"msg_x"_s}, {u"path"_s, JsonObject{{u"root"_s, tmp.path() + u"/nowhere"_s}}}}));

    JsonStore store(data);
    QVERIFY(store.initialize().ok());
    const QString storage = data + u"/storage"_s;
    QCOMPARE(weft::test::readFile(storage + u"/migration"_s), "2"_ba);
    QCOMPARE(weft::test::readFile(storage + u"/session/"_s + identity.id + u"/ses_a.json"_s), JsonStorage::serialize(session));
    QCOMPARE(weft::test::readFile(storage + u"/message/ses_a/msg_a.json"_s), JsonStorage::serialize(message));
    QCOMPARE(weft::test::readFile(storage + u"/part/msg_a/prt_a.json"_s), JsonStorage::serialize(part));
    QVERIFY(!QFileInfo::exists(storage + u"/part/msg_a/prt_b.json"_s));
    const JsonObject project = parseJson(weft::test::readFile(storage + u"/project/"_s + identity.id + u".json"_s))->toObject();
    QCOMPARE(project.string(u"worktree"_s), worktree);
    QCOMPARE(project.string(u"vcs"_s), u"git"_s);
    QVERIFY(QFileInfo::exists(storage + u"/session/global/ses_g.json"_s));
    QVERIFY(!QFileInfo::exists(storage + u"/project/global.json"_s));
    QVERIFY(!QFileInfo::exists(storage + u"/session/global/ses_h.json"_s));
    QVERIFY(!QFileInfo::exists(storage + u"/message/ses_x"_s));
    QVERIFY(QFileInfo::exists(gone + u"/info/ses_x.json"_s));
    // The old files stay; damaged and hostile ones are reported.
    QVERIFY(QFileInfo::exists(legacy + u"/info/ses_a.json"_s));
    QStringList problems;
    for (const StoreProblem &problem : store.problems())
        problems.append(problem.location + u": "_s + problem.reason);
    QVERIFY2(problems.filter(u"prt_b.json"_s).size() == 1, qPrintable(problems.join(u'\n')));
    QVERIFY2(problems.filter(u"ses_h.json"_s).size() == 1, qPrintable(problems.join(u'\n')));
    // And the store reads the migrated sessions.
    QVERIFY(store.session(u"ses_a"_s).has_value());
    QCOMPARE(store.parts(u"ses_a"_s, u"msg_a"_s).size(), 1);
}

QTEST_GUILESS_MAIN(TestJsonStore)
#include "tst_jsonstore.moc"
