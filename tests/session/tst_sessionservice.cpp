// SPDX-License-Identifier: GPL-3.0-or-later
// Session operations (model/session/sessionservice.h, transfer.h, sampledata.h) with OpenCode's
// semantics, checked against what real OpenCode 1.1.53 wrote.

#include "core/identifier.h"
#include "core/json.h"
#include "processor/revert.h"
#include "core/git.h"
#include "session/sampledata.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "store/jsonstore.h"
#include "testdata.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::FixtureDataDir;

namespace
{
const QString ProjectID = u"6c8748ef28d89c4c344a1dd08dfcf985db02b468"_s;
const QString Directory = u"/home/dev/src/demo"_s;
const QString Main = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString ForkAt3rd = u"ses_dff0577d4ffeyEniRVGIu2rzSP"_s;
const QString ForkFull = u"ses_dff0575f4ffevnacwZ5rX969u2"_s;
const QString Reverted = u"ses_dff05751fffexgWr6MRybGFAXU"_s;
const QString Child = u"ses_dff057405ffesKzX5TtUsbqkQ3"_s;
const QString FirstRun = u"ses_dff05d03effeSyJOWoDVIYjVxr"_s;
const QString MainTitle = u"Scripted session please create the fi"_s;
const QString MainThirdUser = u"msg_200fa80b3001AJYH04E0DKrTiZ"_s;
const QStringList AllSessions{Main, ForkAt3rd, ForkFull, Reverted, Child, FirstRun};

JsonValue parse(const QByteArray &bytes)
{
    std::optional<JsonValue> v = parseJson(bytes);
    return v ? *v : JsonValue();
}

QString exportPath(const QString &sessionID)
{
    return weft::test::fixtureDir() + u"/export/"_s + sessionID + u".json"_s;
}

/// A data dir with its store and service.
struct Fixture {
    explicit Fixture(bool withFixtureData = true)
    {
        if (withFixtureData) {
            data = std::make_unique<FixtureDataDir>();
            path = data->path();
        } else {
            empty = std::make_unique<QTemporaryDir>();
            path = empty->path();
        }
        store = std::make_shared<JsonStore>(path);
        initialized = store->initialize().ok();
        service = std::make_unique<SessionService>(store);
    }
    QString storage() const { return path + u"/storage"_s; }

    std::unique_ptr<FixtureDataDir> data;
    std::unique_ptr<QTemporaryDir> empty;
    QString path;
    std::shared_ptr<JsonStore> store;
    std::unique_ptr<SessionService> service;
    bool initialized = false;
};

QStringList idsOf(const QList<Session> &sessions)
{
    QStringList ids;
    for (const Session &s : sessions)
        ids.append(s.id());
    return ids;
}

/// A message or part without the fields a copy changes.
JsonObject withoutIds(JsonObject o)
{
    for (QStringView key : {u"id", u"sessionID", u"messageID", u"parentID"})
        o.remove(key);
    return o;
}

/// Checks that @p copy has the messages of @p original (content equal except IDs), with new
/// IDs, its own session ID and assistant parentIDs pointing at the copied user messages.
void compareCopy(const QList<MessageWithParts> &original, const QList<MessageWithParts> &copy, const QString &copyID)
{
    QCOMPARE(copy.size(), original.size());
    QHash<QString, QString> idMap;
    QSet<QString> newIds;
    for (qsizetype i = 0; i < copy.size(); ++i) {
        const Message &o = original.at(i).info;
        const Message &c = copy.at(i).info;
        QVERIFY(c.id() != o.id());
        QVERIFY(Identifier::isValid(c.id(), Identifier::Kind::Message));
        QCOMPARE(c.sessionID(), copyID);
        QVERIFY2(withoutIds(c.json()) == withoutIds(o.json()), qPrintable(c.id()));
        QCOMPARE(c.json().keys(), o.json().keys());
        idMap.insert(o.id(), c.id());
        newIds.insert(c.id());
        if (o.isAssistant()) {
            QVERIFY(idMap.contains(o.parentID()));
            QCOMPARE(c.parentID(), idMap.value(o.parentID()));
        }
        const QList<Part> &op = original.at(i).parts;
        const QList<Part> &cp = copy.at(i).parts;
        QCOMPARE(cp.size(), op.size());
        for (qsizetype j = 0; j < cp.size(); ++j) {
            QVERIFY(cp.at(j).id() != op.at(j).id());
            QVERIFY(Identifier::isValid(cp.at(j).id(), Identifier::Kind::Part));
            QCOMPARE(cp.at(j).messageID(), c.id());
            QCOMPARE(cp.at(j).sessionID(), copyID);
            QVERIFY2(withoutIds(cp.at(j).json()) == withoutIds(op.at(j).json()), qPrintable(cp.at(j).id()));
            QCOMPARE(cp.at(j).json().keys(), op.at(j).json().keys());
            newIds.insert(cp.at(j).id());
        }
    }
    qsizetype parts = 0;
    for (const MessageWithParts &m : copy)
        parts += m.parts.size();
    QCOMPARE(newIds.size(), copy.size() + parts);
}

/// Every file and folder under @p root whose path or content mentions @p text.
QStringList mentions(const QString &root, const QString &text)
{
    QStringList found;
    const QByteArray needle = text.toUtf8();
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains(text) || (it.fileInfo().isFile() && weft::test::readFile(path).contains(needle)))
            found.append(path);
    }
    return found;
}
} // namespace

class TestSessionService : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void list();
    void children();
    void get();
    void createDefaults_data();
    void createDefaults();
    void createIdentifiesProject();
    void createRefusesHostileParent();
    void renameTouchArchive();
    void updateKeepsUnknownFields();
    void updateRefusesDamagedSession();

    void forkedTitle_data();
    void forkedTitle();
    void forkAll();
    void forkAtThirdUserMessage();
    void forkOfFork();
    void forkDoesNotCopyRevertOrDiff();
    void forkRefusesUnknownMessage();
    void forkThatFailsLeavesNothing();
    void forkWritesFilesAsOpenCode();

    void removeCascades();
    void removeLeavesOthersUntouched();
    void removeRefusesUnknownAndHostile();

    void announcesChanges();
    void signalsFromWorkerThread();
    void problemSignal();

    void exportMatchesOpenCode_data();
    void exportMatchesOpenCode();
    void exportRefuses();
    void importIntoEmptyStore_data();
    void importIntoEmptyStore();
    void importAgainGetsNewIds();
    void importRefusesInvalid_data();
    void importRefusesInvalid();
    void importDropsWideningPermissions();
    void importReusingAnotherSessionsIds_data();
    void importReusingAnotherSessionsIds();
    void importedDirectoryNeedsAcceptance();
    void importedRevertRefusesForeignSnapshots();

    void sampleData();
};

void TestSessionService::list()
{
    Fixture f;
    QVERIFY(f.initialized);
    // Newest time.updated first.
    QCOMPARE(idsOf(f.service->list()), (QStringList{Child, Reverted, Main, ForkFull, ForkAt3rd, FirstRun}));
    // Roots only: what `opencode session list --format json` printed.
    const JsonArray expected = parse(weft::test::readFile(weft::test::fixtureDir() + u"/session-list.json"_s)).toArray();
    const QList<Session> roots = f.service->listRoots();
    QCOMPARE(roots.size(), expected.size());
    for (qsizetype i = 0; i < roots.size(); ++i) {
        const JsonObject e = expected.at(i).toObject();
        QCOMPARE(roots.at(i).id(), e.string(u"id"));
        QCOMPARE(roots.at(i).title(), e.string(u"title"));
        QCOMPARE(roots.at(i).updated(), e.integer(u"updated"));
        QCOMPARE(roots.at(i).created(), e.integer(u"created"));
        QCOMPARE(roots.at(i).projectID(), e.string(u"projectId"));
        QCOMPARE(roots.at(i).directory(), e.string(u"directory"));
    }
}

void TestSessionService::children()
{
    Fixture f;
    QCOMPARE(idsOf(f.service->children(Reverted)), QStringList{Child});
    QVERIFY(f.service->children(Main).isEmpty());
    QVERIFY(f.service->children(Child).isEmpty());
    QVERIFY(f.service->children(u"../../etc"_s).isEmpty());
}

void TestSessionService::get()
{
    Fixture f;
    const std::optional<Session> child = f.service->get(Child);
    QVERIFY(child.has_value());
    QCOMPARE(child->title(), u"child of hand-named"_s);
    QCOMPARE(child->parentID(), Reverted);
    QVERIFY(!f.service->get(u"ses_dff057371ffebq2g9ljs5K7M48"_s).has_value()); // deleted by OpenCode
    QVERIFY(!f.service->get(u"../../etc"_s).has_value());
    QVERIFY(!f.service->get(QString()).has_value());
    QCOMPARE(f.service->messages(Main).size(), 30);
    QVERIFY(f.service->messages(u"../x"_s).isEmpty());
}

void TestSessionService::createDefaults_data()
{
    QTest::addColumn<QString>("parentID");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QStringList>("keys");
    const QStringList rootKeys{u"id"_s, u"slug"_s, u"version"_s, u"projectID"_s, u"directory"_s, u"title"_s, u"time"_s};
    QStringList childKeys = rootKeys;
    childKeys.insert(5, u"parentID"_s);
    // 1795312800000 ms = 2026-11-22T02:00:00.000Z
    QTest::addRow("root") << QString() << u"New session - 2026-11-22T02:00:00.000Z"_s << rootKeys;
    QTest::addRow("child") << Main << u"Child session - 2026-11-22T02:00:00.000Z"_s << childKeys;
}

void TestSessionService::createDefaults()
{
    QFETCH(QString, parentID);
    QFETCH(QString, title);
    QFETCH(QStringList, keys);
    Fixture f;
    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    QSignalSpy updated(f.service.get(), &SessionService::sessionUpdated);
    SessionService::CreateOptions options;
    options.directory = Directory;
    options.projectID = ProjectID;
    options.parentID = parentID;
    options.now = 1795312800000;
    const Result<Session> r = f.service->create(options);
    QVERIFY(r.ok());
    const Session s = r.value();

    QCOMPARE(s.title(), title);
    QVERIFY(Session::isDefaultTitle(s.title()));
    QCOMPARE(s.json().keys(), keys);
    QCOMPARE(s.parentID(), parentID);
    QCOMPARE(s.projectID(), ProjectID);
    QCOMPARE(s.directory(), Directory);
    QCOMPARE(s.version(), SessionService::version());
    QCOMPARE(s.created(), qint64(1795312800000));
    QCOMPARE(s.updated(), qint64(1795312800000));
    QCOMPARE(s.time().keys(), (QStringList{u"created"_s, u"updated"_s}));
    QVERIFY(QRegularExpression(u"^[a-z]+-[a-z]+$"_s).match(s.slug()).hasMatch());
    // A descending session ID of the creation time: newer sessions sort first by ID.
    QVERIFY(Identifier::isValid(s.id(), Identifier::Kind::Session));
    QCOMPARE(Identifier::timestampNear(s.id(), options.now, true), options.now);
    QVERIFY(s.id() < Main);

    // On disk exactly as OpenCode writes it, where OpenCode looks for it.
    const QString file = f.storage() + u"/session/"_s + ProjectID + u'/' + s.id() + u".json"_s;
    QCOMPARE(weft::test::readFile(file), toJson(s.json(), 2));
    QCOMPARE(parse(weft::test::readFile(file)).toObject().keys(), keys);
    QCOMPARE(created.size(), 1);
    QCOMPARE(created.first().first().value<Session>().id(), s.id());
    QCOMPARE(updated.size(), 1);
    QCOMPARE(idsOf(f.service->list()).first(), s.id()); // newest
    if (!parentID.isEmpty())
        QVERIFY(idsOf(f.service->children(parentID)).contains(s.id()));
}

void TestSessionService::createIdentifiesProject()
{
    // The fixture's repository (project/demo.bundle) identifies as the fixture's project ID: its
    // root commit. Outside git the project is "global".
    if (QStandardPaths::findExecutable(u"git"_s).isEmpty())
        QSKIP("git is not installed");
    QTemporaryDir tmp;
    const QString clone = tmp.path() + u"/demo"_s;
    QProcess git;
    git.start(u"git"_s, {u"clone"_s, u"-q"_s, weft::test::fixtureDir() + u"/project/demo.bundle"_s, clone});
    QVERIFY(git.waitForFinished(60000));
    QCOMPARE(git.exitCode(), 0);

    Fixture f;
    SessionService::CreateOptions options;
    options.directory = clone;
    const Result<Session> inRepo = f.service->create(options);
    QVERIFY(inRepo.ok());
    QCOMPARE(inRepo->projectID(), ProjectID);
    // The existing project record is updated in place, its other fields kept.
    const JsonObject project = parse(weft::test::readFile(f.storage() + u"/project/"_s + ProjectID + u".json"_s)).toObject();
    QCOMPARE(project.keys(), (QStringList{u"id"_s, u"worktree"_s, u"vcs"_s, u"sandboxes"_s, u"time"_s}));
    QCOMPARE(project.string(u"worktree"), Directory);
    QCOMPARE(project.object(u"time").integer(u"created"), qint64(1795312725332));
    QCOMPARE(project.object(u"time").integer(u"updated"), inRepo->created());

    options.directory = tmp.path();
    const Result<Session> outside = f.service->create(options);
    QVERIFY(outside.ok());
    QCOMPARE(outside->projectID(), u"global"_s);
    QVERIFY(QFileInfo::exists(f.storage() + u"/session/global/"_s + outside->id() + u".json"_s));
    const JsonObject global = parse(weft::test::readFile(f.storage() + u"/project/global.json"_s)).toObject();
    QCOMPARE(global.string(u"id"), u"global"_s);
    QCOMPARE(global.string(u"worktree"), u"/"_s);
}

void TestSessionService::createRefusesHostileParent()
{
    Fixture f;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(f.path);
    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    for (const QString &bad : {u"../../x"_s, u"ses_../x"_s, u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s}) {
        SessionService::CreateOptions options;
        options.directory = Directory;
        options.projectID = ProjectID;
        options.parentID = bad;
        QVERIFY(!f.service->create(options).ok());
    }
    SessionService::CreateOptions options;
    options.directory = Directory;
    options.projectID = u"../../x"_s;
    QVERIFY(!f.service->create(options).ok());
    QCOMPARE(created.size(), 0);
    QVERIFY(weft::test::snapshotTree(f.path) == before);
}

void TestSessionService::renameTouchArchive()
{
    Fixture f;
    QSignalSpy updated(f.service.get(), &SessionService::sessionUpdated);
    const Session original = *f.service->get(Reverted);
    const QString file = f.store->sessionFile(Reverted);
    QVERIFY(file.endsWith(u"/session/"_s + ProjectID + u'/' + Reverted + u".json"_s));

    qint64 before = QDateTime::currentMSecsSinceEpoch();
    Result<Session> r = f.service->rename(Reverted, u"  A new name  "_s);
    qint64 after = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(r.ok());
    QCOMPARE(r->title(), u"A new name"_s);
    QVERIFY(r->updated() >= before && r->updated() <= after);
    QCOMPARE(r->created(), original.created());
    QCOMPARE(r->json().keys(), original.json().keys());
    QCOMPARE(f.service->get(Reverted)->title(), u"A new name"_s);
    QCOMPARE(weft::test::readFile(file), toJson(r->json(), 2));
    QCOMPARE(updated.size(), 1);
    QCOMPARE(updated.last().first().value<Session>().title(), u"A new name"_s);

    QVERIFY(!f.service->rename(Reverted, u"   "_s).ok());
    QCOMPARE(f.service->get(Reverted)->title(), u"A new name"_s);
    QCOMPARE(updated.size(), 1);

    before = QDateTime::currentMSecsSinceEpoch();
    r = f.service->setArchived(Reverted, true);
    after = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(r.ok());
    QVERIFY(r->isArchived());
    QVERIFY(r->archived() >= before && r->archived() <= after);
    QCOMPARE(f.service->get(Reverted)->time().keys(), (QStringList{u"created"_s, u"updated"_s, u"archived"_s}));

    r = f.service->setArchived(Reverted, false);
    QVERIFY(r.ok());
    QVERIFY(!r->isArchived());
    QCOMPARE(f.service->get(Reverted)->time().keys(), (QStringList{u"created"_s, u"updated"_s}));

    const qint64 lastUpdate = f.service->get(Reverted)->updated();
    // The clock moves past it (milliseconds): the touch below cannot give the same time.
    QTRY_VERIFY(QDateTime::currentMSecsSinceEpoch() > lastUpdate);
    r = f.service->touch(Reverted);
    QVERIFY(r.ok());
    QVERIFY(r->updated() > lastUpdate);
    QCOMPARE(updated.size(), 4);

    // Everything but title and time is as OpenCode left it.
    JsonObject now = f.service->get(Reverted)->json();
    JsonObject was = original.json();
    for (JsonObject *o : {&now, &was}) {
        o->remove(u"title");
        o->remove(u"time");
    }
    QVERIFY(now == was);
    QCOMPARE(now.object(u"revert").string(u"snapshot"), u"c586d6e1e398c26e223490028f0046ba3cea867b"_s);

    QVERIFY(!f.service->touch(u"ses_doesnotexist00000000000000"_s).ok());
    QVERIFY(!f.service->rename(u"../../etc"_s, u"x"_s).ok());
}

void TestSessionService::updateKeepsUnknownFields()
{
    // A field from a newer OpenCode survives a change, in its place.
    Fixture f;
    const QString file = f.store->sessionFile(Main);
    JsonObject json = parse(weft::test::readFile(file)).toObject();
    json.insertAfter(u"title", u"workspaceID"_s, u"wrk_123"_s);
    json.insert(u"futureField"_s, JsonObject{{u"nested"_s, JsonArray{JsonValue(1), JsonValue(u"two"_s)}}});
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(toJson(json, 2));
    }
    QVERIFY(f.service->rename(Main, u"Renamed"_s).ok());
    const JsonObject after = parse(weft::test::readFile(file)).toObject();
    QCOMPARE(after.keys(), json.keys());
    QCOMPARE(after.string(u"workspaceID"), u"wrk_123"_s);
    QVERIFY(after.value(u"futureField") == json.value(u"futureField"));
}

void TestSessionService::updateRefusesDamagedSession()
{
    Fixture f;
    const QString file = f.store->sessionFile(FirstRun);
    const QByteArray nul(512, '\0');
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(nul);
    }
    QVERIFY(!f.service->rename(FirstRun, u"x"_s).ok());
    QVERIFY(!f.service->touch(FirstRun).ok());
    QVERIFY(!f.service->fork(FirstRun).ok());
    QCOMPARE(weft::test::readFile(file), nul);
    QCOMPARE(f.service->list().size(), 5);
}

void TestSessionService::forkedTitle_data()
{
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("expected");
    QTest::addRow("plain") << MainTitle << MainTitle + u" (fork #1)"_s;
    QTest::addRow("fork #1") << MainTitle + u" (fork #1)"_s << MainTitle + u" (fork #2)"_s;
    QTest::addRow("fork #9") << u"a (fork #9)"_s << u"a (fork #10)"_s;
    QTest::addRow("fork #41") << u"a (fork #41)"_s << u"a (fork #42)"_s;
    QTest::addRow("only the suffix") << u"(fork #1)"_s << u"(fork #1) (fork #1)"_s;
    QTest::addRow("not at the end") << u"a (fork #1) b"_s << u"a (fork #1) b (fork #1)"_s;
    QTest::addRow("not a number") << u"a (fork #x)"_s << u"a (fork #x) (fork #1)"_s;
}

void TestSessionService::forkedTitle()
{
    QFETCH(QString, title);
    QFETCH(QString, expected);
    QCOMPARE(SessionService::forkedTitle(title), expected);
}

void TestSessionService::forkAll()
{
    Fixture f;
    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    const Result<Session> r = f.service->fork(Main);
    QVERIFY(r.ok());
    const Session fork = r.value();
    QCOMPARE(fork.title(), MainTitle + u" (fork #1)"_s);
    QVERIFY(fork.parentID().isEmpty());
    QCOMPARE(fork.directory(), Directory);
    QCOMPARE(fork.projectID(), ProjectID);
    QVERIFY(fork.id() != Main);
    QCOMPARE(created.size(), 1);

    const QList<MessageWithParts> original = f.service->messages(Main);
    const QList<MessageWithParts> copy = f.service->messages(fork.id());
    QCOMPARE(copy.size(), 30);
    compareCopy(original, copy, fork.id());
    // New IDs ascend in message order, so ID order and time order agree in the copy.
    for (qsizetype i = 1; i < copy.size(); ++i)
        QVERIFY(copy.at(i - 1).info.id() < copy.at(i).info.id());

    // OpenCode's own full fork (fork_full, made before the compaction turn) holds the same
    // first 26 messages: same content, same shape.
    const QList<MessageWithParts> openCode = f.service->messages(ForkFull);
    QCOMPARE(openCode.size(), 26);
    compareCopy(openCode, copy.mid(0, 26), fork.id());

    // The original is untouched.
    QVERIFY(weft::test::snapshotTree(f.storage() + u"/message/"_s + Main)
            == weft::test::snapshotTree(weft::test::fixtureDir() + u"/storage/message/"_s + Main));
}

void TestSessionService::forkAtThirdUserMessage()
{
    Fixture f;
    const Result<Session> r = f.service->fork(Main, MainThirdUser);
    QVERIFY(r.ok());
    QCOMPARE(r->title(), MainTitle + u" (fork #1)"_s);
    const QList<MessageWithParts> copy = f.service->messages(r->id());

    // OpenCode's fork at the third user message (fork_at_3rd_user) copied the messages before
    // it; the ones after were prompted in the fork later.
    QList<MessageWithParts> openCode = f.service->messages(ForkAt3rd);
    const qint64 forkCreated = f.service->get(ForkAt3rd)->created();
    openCode.removeIf([&](const MessageWithParts &m) { return m.info.created() >= forkCreated; });
    QCOMPARE(openCode.size(), 6);
    QCOMPARE(copy.size(), openCode.size());
    compareCopy(openCode, copy, r->id());
    compareCopy(f.service->messages(Main).mid(0, 6), copy, r->id());
    // The cut message itself is not copied.
    for (const MessageWithParts &m : copy)
        QVERIFY(m.info.created() < f.store->message(Main, MainThirdUser)->created());
    // Forking at the first message gives an empty session.
    const Result<Session> empty = f.service->fork(Main, f.service->messages(Main).first().info.id());
    QVERIFY(empty.ok());
    QVERIFY(f.service->messages(empty->id()).isEmpty());
}

void TestSessionService::forkOfFork()
{
    Fixture f;
    const Result<Session> first = f.service->fork(Main);
    QVERIFY(first.ok());
    const Result<Session> second = f.service->fork(first->id());
    QVERIFY(second.ok());
    QCOMPARE(second->title(), MainTitle + u" (fork #2)"_s);
    compareCopy(f.service->messages(first->id()), f.service->messages(second->id()), second->id());
    // OpenCode's fork of the fixture fork continues its numbering too.
    const Result<Session> third = f.service->fork(ForkFull);
    QVERIFY(third.ok());
    QCOMPARE(third->title(), MainTitle + u" (fork #2)"_s);
}

void TestSessionService::forkThatFailsLeavesNothing()
{
    // A store whose batch write fails half-way (a full disk, say), after writing real files.
    class FailingStore : public JsonStore
    {
    public:
        using JsonStore::JsonStore;
        Result<void> writeMessages(const QList<MessageWithParts> &messages) override
        {
            if (auto r = JsonStore::writeMessages(messages.mid(0, messages.size() / 2)); !r)
                return r;
            return Error{u"No space left on device"_s, u"storage/part"_s};
        }
    };
    FixtureDataDir data;
    auto store = std::make_shared<FailingStore>(data.path());
    QVERIFY(store->initialize().ok());
    SessionService service(store);
    const QString storage = data.path() + u"/storage"_s;
    const QStringList before = idsOf(service.list());
    const auto tree = [&] { return weft::test::snapshotTree(storage); };
    const auto treeBefore = tree();

    QSignalSpy created(&service, &SessionService::sessionCreated);
    QSignalSpy messageUpdated(&service, &SessionService::messageUpdated);
    const Result<Session> r = service.fork(Main);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().message, u"No space left on device"_s);
    // No session was announced or listed, and nothing of the half-written copy is left.
    QCOMPARE(created.size(), 0);
    QCOMPARE(messageUpdated.size(), 0);
    QCOMPARE(idsOf(service.list()), before);
    QVERIFY(tree() == treeBefore);
}

void TestSessionService::forkWritesFilesAsOpenCode()
{
    // The copies are created in place on several threads: each file must still be exactly what
    // OpenCode would write (JSON.stringify(value, null, 2)), complete, with no temporary left.
    Fixture f;
    const Result<Session> r = f.service->fork(Main);
    QVERIFY(r.ok());
    const QList<MessageWithParts> copy = f.service->messages(r->id());
    QCOMPARE(copy.size(), 30);
    int files = 0;
    for (const MessageWithParts &m : copy) {
        const QString messageFile = f.storage() + u"/message/"_s + r->id() + u'/' + m.info.id() + u".json"_s;
        QFile file(messageFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), JsonStorage::serialize(m.info.json()));
        ++files;
        for (const Part &p : m.parts) {
            QFile partFile(f.storage() + u"/part/"_s + m.info.id() + u'/' + p.id() + u".json"_s);
            QVERIFY(partFile.open(QIODevice::ReadOnly));
            QCOMPARE(partFile.readAll(), JsonStorage::serialize(p.json()));
            ++files;
        }
        QCOMPARE(QDir(f.storage() + u"/part/"_s + m.info.id()).entryList(QDir::Files | QDir::Hidden).size(), m.parts.size());
    }
    QVERIFY(files > 60);
    QCOMPARE(QDir(f.storage() + u"/message/"_s + r->id()).entryList(QDir::Files | QDir::Hidden).size(), 30);
}

void TestSessionService::forkDoesNotCopyRevertOrDiff()
{
    Fixture f;
    QVERIFY(f.service->setDiff(Reverted, {FileDiff::fromContents(u"/a"_s, u"x"_s, u"y"_s, 1, 1)}).ok());
    const Result<Session> r = f.service->fork(Reverted);
    QVERIFY(r.ok());
    QVERIFY(!r->hasRevert());
    QVERIFY(!r->hasSummary());
    QVERIFY(!f.service->get(r->id())->hasRevert());
    QVERIFY(f.service->diff(r->id()).isEmpty());
    QVERIFY(!QFileInfo::exists(f.storage() + u"/session_diff/"_s + r->id() + u".json"_s));
    // Reverted messages are still stored, and a fork copies them all (as OpenCode does).
    QCOMPARE(f.service->messages(r->id()).size(), 5);
    // The child stays with its parent.
    QVERIFY(f.service->children(r->id()).isEmpty());
}

void TestSessionService::forkRefusesUnknownMessage()
{
    Fixture f;
    const QStringList entries = weft::test::entriesUnder(f.path);
    QVERIFY(!f.service->fork(Main, u"msg_200fa8bfb001UoftnChDaZmuoA"_s).ok()); // a message of another session
    QVERIFY(!f.service->fork(Main, u"../../x"_s).ok());
    QVERIFY(!f.service->fork(u"ses_doesnotexist00000000000000"_s).ok());
    QVERIFY(!f.service->fork(u"../../etc"_s).ok());
    QCOMPARE(weft::test::entriesUnder(f.path), entries);
}

void TestSessionService::removeCascades()
{
    Fixture f;
    // Give both sessions everything a session can own.
    for (const QString &id : {Reverted, Child}) {
        for (const QString &kind : {u"share"_s, u"session_share"_s, u"todo"_s})
            QVERIFY(f.store->storage().write({kind, id}, JsonObject{{u"id"_s, id}}).ok());
        QVERIFY(f.service->setDiff(id, {FileDiff::fromContents(u"/f"_s, u"a"_s, u"b"_s, 1, 1)}).ok());
    }
    QStringList messageIds;
    for (const QString &id : {Reverted, Child}) {
        for (const MessageWithParts &m : f.service->messages(id))
            messageIds.append(m.info.id());
    }
    QCOMPARE(messageIds.size(), 8);

    QSignalSpy deleted(f.service.get(), &SessionService::sessionDeleted);
    QVERIFY(f.service->remove(Reverted).ok());

    // Children first, then the session.
    QCOMPARE(deleted.size(), 2);
    QCOMPARE(deleted.at(0).first().value<Session>().id(), Child);
    QCOMPARE(deleted.at(1).first().value<Session>().id(), Reverted);

    // No file or folder of either session is left, by name or by content.
    for (const QString &id : {Reverted, Child})
        QVERIFY2(mentions(f.storage(), id).isEmpty(), qPrintable(mentions(f.storage(), id).join(u'\n')));
    for (const QString &id : messageIds)
        QVERIFY2(mentions(f.storage(), id).isEmpty(), qPrintable(id));
    QVERIFY(!f.service->get(Reverted).has_value());
    QVERIFY(!f.service->get(Child).has_value());
    QCOMPARE(f.service->list().size(), 4);
}

void TestSessionService::removeLeavesOthersUntouched()
{
    Fixture f;
    QVERIFY(f.service->remove(Main).ok());
    // OpenCode forgets the session_diff; Weft removes it.
    QVERIFY(!QFileInfo::exists(f.storage() + u"/session_diff/"_s + Main + u".json"_s));
    QVERIFY(mentions(f.storage(), Main).isEmpty());
    // Every other file is byte for byte the fixture's.
    const QMap<QString, QByteArray> now = weft::test::snapshotTree(f.storage());
    QMap<QString, QByteArray> expected = weft::test::snapshotTree(weft::test::fixtureDir() + u"/storage"_s);
    QStringList mainMessages;
    for (const QString &file : QDir(weft::test::fixtureDir() + u"/storage/message/"_s + Main).entryList(QDir::Files))
        mainMessages.append(file.chopped(5));
    QCOMPARE(mainMessages.size(), 30);
    for (const QString &key : expected.keys()) {
        bool ofMain = key.contains(Main);
        for (const QString &m : mainMessages)
            ofMain |= key.startsWith(u"part/"_s + m + u'/');
        if (ofMain)
            expected.remove(key);
    }
    QCOMPARE(now.keys(), expected.keys());
    QVERIFY(now == expected);
    QCOMPARE(f.service->list().size(), 5);
}

void TestSessionService::removeRefusesUnknownAndHostile()
{
    Fixture f;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(f.path);
    QSignalSpy deleted(f.service.get(), &SessionService::sessionDeleted);
    QVERIFY(!f.service->remove(u"ses_doesnotexist00000000000000"_s).ok());
    QVERIFY(!f.service->remove(u"../../etc"_s).ok());
    QVERIFY(!f.service->remove(u"ses_../../storage"_s).ok());
    QVERIFY(!f.service->remove(QString()).ok());
    QCOMPARE(deleted.size(), 0);
    QVERIFY(weft::test::snapshotTree(f.path) == before);
}

void TestSessionService::announcesChanges()
{
    Fixture f;
    SessionService &s = *f.service;
    QSignalSpy created(&s, &SessionService::sessionCreated);
    QSignalSpy updated(&s, &SessionService::sessionUpdated);
    QSignalSpy deleted(&s, &SessionService::sessionDeleted);
    QSignalSpy messageUpdated(&s, &SessionService::messageUpdated);
    QSignalSpy messageRemoved(&s, &SessionService::messageRemoved);
    QSignalSpy partUpdated(&s, &SessionService::partUpdated);
    QSignalSpy partRemoved(&s, &SessionService::partRemoved);
    QSignalSpy diffChanged(&s, &SessionService::sessionDiffChanged);
    QSignalSpy error(&s, &SessionService::sessionError);

    SessionService::CreateOptions options;
    options.directory = Directory;
    options.projectID = ProjectID;
    const Session session = s.create(options).value();
    QCOMPARE(created.size(), 1);
    QCOMPARE(updated.size(), 1);

    const QString messageID = Identifier::ascending(Identifier::Kind::Message);
    const Message message = Message::makeUser(messageID, session.id(), 1795312800000, u"build"_s, u"p"_s, u"m"_s);
    QVERIFY(s.updateMessage(message).ok());
    QCOMPARE(messageUpdated.size(), 1);
    QCOMPARE(messageUpdated.first().first().value<Message>().id(), messageID);

    Part part = Part::makeText(Identifier::ascending(Identifier::Kind::Part), session.id(), messageID, u"Hel"_s);
    QVERIFY(s.updatePart(part).ok());
    part.setText(u"Hello"_s);
    QVERIFY(s.updatePart(part, u"lo"_s).ok());
    QCOMPARE(partUpdated.size(), 2);
    QCOMPARE(partUpdated.at(0).at(1).toString(), QString());
    QCOMPARE(partUpdated.at(1).at(0).value<Part>().text(), u"Hello"_s);
    QCOMPARE(partUpdated.at(1).at(1).toString(), u"lo"_s);
    QCOMPARE(s.messages(session.id()).first().parts.first().text(), u"Hello"_s);

    const QList<FileDiff> diffs{FileDiff::fromContents(u"/x"_s, u"a\n"_s, u"b\n"_s, 1, 1)};
    QVERIFY(s.setDiff(session.id(), diffs).ok());
    QCOMPARE(diffChanged.size(), 1);
    QCOMPARE(diffChanged.first().at(0).toString(), session.id());
    QCOMPARE(diffChanged.first().at(1).value<QList<FileDiff>>().first().file(), u"/x"_s);
    QCOMPARE(s.diff(session.id()).size(), 1);

    s.reportError(session.id(), MessageError::api(u"Overloaded"_s, 529, true));
    QCOMPARE(error.size(), 1);
    QCOMPARE(error.first().at(1).value<MessageError>().statusCode(), 529);

    QVERIFY(s.removePart(session.id(), messageID, part.id()).ok());
    QCOMPARE(partRemoved.size(), 1);
    QCOMPARE(partRemoved.first().at(2).toString(), part.id());
    QVERIFY(s.removeMessage(session.id(), messageID).ok());
    QCOMPARE(messageRemoved.size(), 1);
    QCOMPARE(messageRemoved.first().at(1).toString(), messageID);
    QVERIFY(s.messages(session.id()).isEmpty());

    QVERIFY(s.remove(session.id()).ok());
    QCOMPARE(deleted.size(), 1);
    QCOMPARE(deleted.first().first().value<Session>().id(), session.id());

    // Failed changes announce nothing.
    QVERIFY(!s.updatePart(Part::makeText(u"prt_../x"_s, session.id(), messageID, u"x"_s)).ok());
    QVERIFY(!s.updateMessage(Message::makeUser(u"../x"_s, session.id(), 1, u"b"_s, u"p"_s, u"m"_s)).ok());
    QCOMPARE(partUpdated.size(), 2);
    QCOMPARE(messageUpdated.size(), 1);
}

void TestSessionService::signalsFromWorkerThread()
{
    // A processor on a worker thread changes a session; a model on the main thread receives
    // every change, queued, in order, on its own thread.
    Fixture f;
    SessionService &s = *f.service;
    SessionService::CreateOptions options;
    options.directory = Directory;
    options.projectID = ProjectID;
    const Session session = s.create(options).value();
    const QString messageID = Identifier::ascending(Identifier::Kind::Message);

    QObject receiver;
    QStringList deltas;
    QStringList events;
    bool wrongThread = false;
    QThread *mainThread = QThread::currentThread();
    connect(&s, &SessionService::partUpdated, &receiver, [&](const Part &part, const QString &delta) {
        wrongThread |= QThread::currentThread() != mainThread;
        deltas.append(delta);
        events.append(u"part "_s + part.text());
    });
    connect(&s, &SessionService::messageUpdated, &receiver, [&](const Message &m) {
        wrongThread |= QThread::currentThread() != mainThread;
        events.append(u"message "_s + m.id());
    });
    connect(&s, &SessionService::sessionUpdated, &receiver, [&](const Session &updated) {
        wrongThread |= QThread::currentThread() != mainThread;
        events.append(u"session "_s + updated.title());
    });

    constexpr int Deltas = 100;
    std::unique_ptr<QThread> worker(QThread::create([&] {
        (void)s.updateMessage(Message::makeUser(messageID, session.id(), 1795312800000, u"build"_s, u"p"_s, u"m"_s));
        Part part = Part::makeText(Identifier::ascending(Identifier::Kind::Part), session.id(), messageID, QString());
        QString text;
        for (int i = 0; i < Deltas; ++i) {
            const QString delta = QString::number(i) + u' ';
            text += delta;
            part.setText(text);
            (void)s.updatePart(part, delta);
        }
        (void)s.rename(session.id(), u"Done"_s);
    }));
    worker->start();
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), Deltas + 2, 30000);
    QVERIFY(worker->wait(10000));
    QVERIFY(!wrongThread);

    QCOMPARE(events.first(), u"message "_s + messageID);
    QCOMPARE(events.last(), u"session Done"_s);
    QCOMPARE(deltas.size(), Deltas);
    QString text;
    for (int i = 0; i < Deltas; ++i) {
        QCOMPARE(deltas.at(i), QString::number(i) + u' ');
        text += deltas.at(i);
        QCOMPARE(events.at(i + 1), u"part "_s + text);
    }
    QCOMPARE(s.messages(session.id()).first().parts.first().text(), text);
}

void TestSessionService::problemSignal()
{
    Fixture f;
    const QString file = f.storage() + u"/part/msg_200fa7f0a001Upg1DpdQjTFybp/prt_200fa7f540017y0A6NuCPo6Wme.json"_s;
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write("{\"id\": \"prt_200fa7f540017y0A6NuCPo6Wme\", \"trunc");
    }
    QSignalSpy problem(f.service.get(), &SessionService::problemFound);
    const QList<MessageWithParts> messages = f.service->messages(Main);
    QCOMPARE(messages.size(), 30);
    QCOMPARE(messages.at(1).parts.size(), 3);
    QCOMPARE(problem.size(), 1);
    QCOMPARE(problem.first().at(0).toString(), file);
    QVERIFY(problem.first().at(1).toString().contains(u"not valid JSON"_s));
    // Export still works, without the damaged part, and the file stays as it was.
    const Result<JsonObject> exported = Transfer::exportSession(*f.service, Main);
    QVERIFY(exported.ok());
    QCOMPARE(weft::test::readFile(file), "{\"id\": \"prt_200fa7f540017y0A6NuCPo6Wme\", \"trunc"_ba);
}

void TestSessionService::exportMatchesOpenCode_data()
{
    QTest::addColumn<QString>("sessionID");
    for (const QString &id : AllSessions)
        QTest::addRow("%s", qPrintable(id)) << id;
}

void TestSessionService::exportMatchesOpenCode()
{
    QFETCH(QString, sessionID);
    Fixture f;
    const Result<JsonObject> document = Transfer::exportSession(*f.service, sessionID);
    QVERIFY(document.ok());
    const QByteArray expected = weft::test::readFile(exportPath(sessionID));
    QVERIFY(!expected.isEmpty());
    QCOMPARE(Transfer::formatExport(document.value()), expected);
    QVERIFY(Transfer::validateExport(document.value()).isEmpty());
}

void TestSessionService::exportRefuses()
{
    Fixture f;
    Result<JsonObject> r = Transfer::exportSession(*f.service, u"ses_doesnotexist00000000000000"_s);
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.contains(u"Session not found"_s));
    r = Transfer::exportSession(*f.service, u"../../etc"_s);
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.contains(u"path separator"_s));
    r = Transfer::exportSession(*f.service, u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s);
    QVERIFY(!r.ok());
}

void TestSessionService::importIntoEmptyStore_data()
{
    exportMatchesOpenCode_data();
}

void TestSessionService::importIntoEmptyStore()
{
    // Import of every OpenCode export into an empty store keeps the IDs, writes the files
    // OpenCode wrote, and exports again to the same bytes.
    QFETCH(QString, sessionID);
    Fixture f(false);
    QVERIFY(f.initialized);
    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    const Result<Transfer::ImportResult> r = Transfer::importFile(*f.service, exportPath(sessionID));
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
    QVERIFY(!r->idsChanged);
    QCOMPARE(r->session.id(), sessionID);
    QCOMPARE(created.size(), 1);

    const Result<JsonObject> again = Transfer::exportSession(*f.service, sessionID);
    QVERIFY(again.ok());
    const QByteArray original = weft::test::readFile(exportPath(sessionID));
    QVERIFY(again.value() == parse(original).toObject());
    QCOMPARE(Transfer::formatExport(again.value()), original);

    // Each file is byte for byte the one OpenCode wrote.
    const QString fixture = weft::test::fixtureDir() + u"/storage/"_s;
    const QMap<QString, QByteArray> written = weft::test::snapshotTree(f.storage());
    qsizetype compared = 0;
    for (auto it = written.cbegin(); it != written.cend(); ++it) {
        if (it.key() == u"migration")
            continue;
        QVERIFY2(it.value() == weft::test::readFile(fixture + it.key()), qPrintable(it.key()));
        ++compared;
    }
    qsizetype expectedFiles = 1;
    for (const JsonValue &m : parse(original).toObject().array(u"messages"))
        expectedFiles += 1 + m.toObject().array(u"parts").size();
    QCOMPARE(compared, expectedFiles);
}

void TestSessionService::importAgainGetsNewIds()
{
    Fixture f;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(f.storage());
    const Result<Transfer::ImportResult> r = Transfer::importFile(*f.service, exportPath(Main));
    QVERIFY(r.ok());
    QVERIFY(r->idsChanged);
    const QString copyID = r->session.id();
    QVERIFY(copyID != Main);
    QVERIFY(Identifier::isValid(copyID, Identifier::Kind::Session));
    QCOMPARE(r->session.title(), MainTitle);

    // The original is untouched: every file that was there has its bytes.
    const QMap<QString, QByteArray> after = weft::test::snapshotTree(f.storage());
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        QVERIFY2(after.value(it.key()) == it.value(), qPrintable(it.key()));
    QCOMPARE(f.service->list().size(), 7);

    compareCopy(f.service->messages(Main), f.service->messages(copyID), copyID);
    JsonObject copyInfo = f.service->get(copyID)->json();
    JsonObject originalInfo = f.service->get(Main)->json();
    QCOMPARE(copyInfo.keys(), originalInfo.keys());
    copyInfo.remove(u"id");
    originalInfo.remove(u"id");
    QVERIFY(copyInfo == originalInfo);

    // A third import gets yet other IDs.
    const Result<Transfer::ImportResult> third = Transfer::importFile(*f.service, exportPath(Main));
    QVERIFY(third.ok());
    QVERIFY(third->session.id() != copyID && third->session.id() != Main);
    QCOMPARE(f.service->list().size(), 8);
}

void TestSessionService::importRefusesInvalid_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("reason");
    QTest::addRow("not JSON") << u"bytes:hello"_s << u"not valid JSON"_s;
    QTest::addRow("empty file") << u"bytes:"_s << u"empty"_s;
    QTest::addRow("NUL bytes") << u"nul"_s << u"not valid JSON"_s;
    QTest::addRow("truncated") << u"truncate"_s << u"not valid JSON"_s;
    QTest::addRow("an array") << u"bytes:[]"_s << u"expected an object"_s;
    QTest::addRow("the session list") << u"session-list"_s << u"expected an object"_s;
    QTest::addRow("an empty object") << u"bytes:{}"_s << u"$.info"_s;
    QTest::addRow("info not a session") << u"info-number"_s << u"$.info: expected object"_s;
    QTest::addRow("messages not an array") << u"messages-object"_s << u"$.messages: expected an array"_s;
    QTest::addRow("message of another session") << u"message-session"_s << u"$.messages[0].info.sessionID: belongs to another session"_s;
    QTest::addRow("part of another session") << u"part-session"_s << u"$.messages[1].parts[0].sessionID: belongs to another session"_s;
    QTest::addRow("part of another message") << u"part-message"_s << u"$.messages[1].parts[0].messageID: does not match"_s;
    QTest::addRow("bogus tool status") << u"tool-status"_s << u"found \"bogus\""_s;
    QTest::addRow("bad role") << u"role"_s << u"expected \"user\" or \"assistant\""_s;
    QTest::addRow("duplicate message") << u"duplicate"_s << u"duplicate message ID"_s;
    QTest::addRow("hostile session ID") << u"session-id:../../x"_s << u"$.info.id"_s;
    QTest::addRow("hostile prefixed session ID") << u"session-id:ses_../../x"_s << u"$.info.id"_s;
    QTest::addRow("hostile message ID") << u"message-id:msg_../../../x"_s << u"$.messages[0].info.id"_s;
    QTest::addRow("hostile part ID") << u"part-id:prt_../../../x"_s << u"$.messages[1].parts[2].id"_s;
    QTest::addRow("hostile project ID") << u"project-id:../../x"_s << u"$.info.projectID"_s;
}

void TestSessionService::importRefusesInvalid()
{
    // Anything that is not a valid export is refused with a reason, and nothing is written.
    QFETCH(QString, mode);
    QFETCH(QString, reason);
    const QByteArray source = weft::test::readFile(exportPath(Child));
    JsonObject doc = parse(source).toObject();
    JsonArray messages = doc.array(u"messages");
    auto messageInfo = [&](qsizetype i) { return messages.at(i).toObject().object(u"info"); };
    auto setMessage = [&](qsizetype i, const JsonObject &info, const JsonArray &parts) {
        messages[i] = JsonObject{{u"info"_s, info}, {u"parts"_s, parts}};
    };
    auto partsOf = [&](qsizetype i) { return messages.at(i).toObject().array(u"parts"); };

    QByteArray bytes;
    if (mode.startsWith(u"bytes:")) {
        bytes = mode.mid(6).toUtf8();
    } else if (mode == u"nul") {
        bytes = QByteArray(200, '\0');
    } else if (mode == u"truncate") {
        bytes = source.left(source.size() / 2);
    } else if (mode == u"session-list") {
        bytes = weft::test::readFile(weft::test::fixtureDir() + u"/session-list.json"_s);
    } else {
        if (mode == u"info-number") {
            doc.insert(u"info"_s, 42);
        } else if (mode == u"messages-object") {
            doc.insert(u"messages"_s, JsonObject());
        } else if (mode == u"message-session") {
            JsonObject info = messageInfo(0);
            info.insert(u"sessionID"_s, Main);
            setMessage(0, info, partsOf(0));
        } else if (mode == u"part-session" || mode == u"part-message" || mode == u"tool-status") {
            JsonArray parts = partsOf(1);
            JsonObject p = parts.at(mode == u"tool-status" ? 1 : 0).toObject();
            if (mode == u"part-session")
                p.insert(u"sessionID"_s, Main);
            else if (mode == u"part-message")
                p.insert(u"messageID"_s, messageInfo(0).string(u"id"));
            else {
                QCOMPARE(p.string(u"type"), u"tool"_s);
                JsonObject state = p.object(u"state");
                state.insert(u"status"_s, u"bogus"_s);
                p.insert(u"state"_s, state);
            }
            parts[mode == u"tool-status" ? 1 : 0] = p;
            setMessage(1, messageInfo(1), parts);
        } else if (mode == u"role") {
            JsonObject info = messageInfo(2);
            info.insert(u"role"_s, u"system"_s);
            setMessage(2, info, partsOf(2));
        } else if (mode == u"duplicate") {
            messages.append(messages.at(2));
        } else if (mode.startsWith(u"session-id:")) {
            // Consistent everywhere, so that only the ID itself is wrong.
            const QString id = mode.section(u':', 1);
            JsonObject info = doc.object(u"info");
            info.insert(u"id"_s, id);
            doc.insert(u"info"_s, info);
            for (qsizetype i = 0; i < messages.size(); ++i) {
                JsonObject m = messageInfo(i);
                m.insert(u"sessionID"_s, id);
                JsonArray parts = partsOf(i);
                for (qsizetype j = 0; j < parts.size(); ++j) {
                    JsonObject p = parts.at(j).toObject();
                    p.insert(u"sessionID"_s, id);
                    parts[j] = p;
                }
                setMessage(i, m, parts);
            }
        } else if (mode.startsWith(u"message-id:")) {
            const QString id = mode.section(u':', 1);
            const QString old = messageInfo(0).string(u"id");
            JsonObject m = messageInfo(0);
            m.insert(u"id"_s, id);
            JsonArray parts = partsOf(0);
            for (qsizetype j = 0; j < parts.size(); ++j) {
                JsonObject p = parts.at(j).toObject();
                p.insert(u"messageID"_s, id);
                parts[j] = p;
            }
            setMessage(0, m, parts);
            for (qsizetype i = 1; i < messages.size(); ++i) {
                JsonObject a = messageInfo(i);
                if (a.string(u"parentID") == old)
                    a.insert(u"parentID"_s, id);
                setMessage(i, a, partsOf(i));
            }
        } else if (mode.startsWith(u"part-id:")) {
            JsonArray parts = partsOf(1);
            JsonObject p = parts.at(2).toObject();
            p.insert(u"id"_s, mode.section(u':', 1));
            parts[2] = p;
            setMessage(1, messageInfo(1), parts);
        } else if (mode.startsWith(u"project-id:")) {
            JsonObject info = doc.object(u"info");
            info.insert(u"projectID"_s, mode.section(u':', 1));
            doc.insert(u"info"_s, info);
        } else {
            QFAIL("unknown mode");
        }
        if (!doc.value(u"messages").isObject())
            doc.insert(u"messages"_s, messages);
        bytes = Transfer::formatExport(doc);
    }

    QTemporaryDir base;
    const QString file = base.path() + u"/input.json"_s;
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
    }
    const QString dataDir = base.path() + u"/data"_s;
    auto store = std::make_shared<JsonStore>(dataDir);
    QVERIFY(store->initialize().ok());
    SessionService service(store);
    const QStringList entries = weft::test::entriesUnder(base.path());
    QSignalSpy created(&service, &SessionService::sessionCreated);

    const Result<Transfer::ImportResult> r = Transfer::importFile(service, file);
    QVERIFY(!r.ok());
    QCOMPARE(weft::test::entriesUnder(base.path()), entries);
    QCOMPARE(created.size(), 0);
    QCOMPARE(r.error().where, file);
    QVERIFY2(r.error().message.contains(reason), qPrintable(r.error().message));
    QVERIFY(service.list().isEmpty());
    // The same document as a value is refused the same way.
    if (const std::optional<JsonValue> value = parseJson(bytes))
        QVERIFY(!Transfer::importSession(service, *value).ok());
    QCOMPARE(weft::test::entriesUnder(base.path()), entries);
}

void TestSessionService::importDropsWideningPermissions()
{
    // A file's permission rules come after the user's config and win over it: only those that
    // deny may come in; what was dropped is reported.
    Fixture f(false);
    JsonObject doc = parse(weft::test::readFile(exportPath(Main))).toObject();
    JsonObject info = doc.object(u"info");
    const JsonObject deny{{u"permission"_s, u"question"_s}, {u"pattern"_s, u"*"_s}, {u"action"_s, u"deny"_s}};
    info.insert(u"permission"_s,
                JsonArray{JsonObject{{u"permission"_s, u"*"_s}, {u"pattern"_s, u"*"_s}, {u"action"_s, u"allow"_s}},
                          deny,
                          JsonObject{{u"permission"_s, u"external_directory"_s}, {u"pattern"_s, u"/home/*"_s}, {u"action"_s, u"ask"_s}}});
    doc.insert(u"info"_s, info);
    const Result<Transfer::ImportResult> r = Transfer::importSession(*f.service, doc);
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
    QCOMPARE(r->droppedPermissions.size(), 2);
    QCOMPARE(r->droppedPermissions.at(0).permission, u"*"_s);
    QCOMPARE(r->droppedPermissions.at(1).permission, u"external_directory"_s);
    const QString said = Transfer::describeDropped(r->droppedPermissions);
    QVERIFY2(said.contains(u"permission rules dropped (2)"_s) && said.contains(u"* * allow"_s)
                 && said.contains(u"external_directory /home/* ask"_s),
             qPrintable(said));
    // What a run merges after the config: the deny rule alone, stored that way.
    const QList<PermissionRule> kept = f.service->get(r->session.id())->permission();
    QCOMPARE(kept.size(), 1);
    QCOMPARE(kept.first().permission, u"question"_s);
    QCOMPARE(kept.first().action, PermissionRule::Action::Deny);
    QCOMPARE(f.service->get(r->session.id())->json().array(u"permission"_s), (JsonArray{deny}));
    const auto note = f.service->importNote(r->session.id());
    QVERIFY(note.has_value());
    QCOMPARE(note->dropped.size(), 2);
}

void TestSessionService::importReusingAnotherSessionsIds_data()
{
    QTest::addColumn<bool>("reuseMessages");
    QTest::addColumn<bool>("reuseParts");
    QTest::newRow("message and part IDs") << true << true;
    QTest::newRow("message IDs") << true << false;
    QTest::newRow("part IDs") << false << true;
}

void TestSessionService::importReusingAnotherSessionsIds()
{
    // A file that names another session's message or part IDs under a session ID of its own
    // must not write into that session's files, nor take them along when it is deleted.
    QFETCH(bool, reuseMessages);
    QFETCH(bool, reuseParts);
    Fixture f;
    const QMap<QString, QByteArray> before = weft::test::snapshotTree(f.storage());
    const QString hostileID = Identifier::descending(Identifier::Kind::Session);
    JsonObject doc = parse(weft::test::readFile(exportPath(Main))).toObject();
    JsonObject info = doc.object(u"info");
    info.insert(u"id"_s, hostileID);
    info.insert(u"title"_s, u"hostile"_s);
    doc.insert(u"info"_s, info);
    JsonArray messages;
    for (const JsonValue &mv : doc.array(u"messages")) {
        JsonObject m = mv.toObject();
        JsonObject mi = m.object(u"info");
        const QString messageID = reuseMessages ? mi.string(u"id") : Identifier::ascending(Identifier::Kind::Message);
        mi.insert(u"id"_s, messageID);
        mi.insert(u"sessionID"_s, hostileID);
        m.insert(u"info"_s, mi);
        JsonArray parts;
        for (const JsonValue &pv : m.array(u"parts")) {
            JsonObject p = pv.toObject();
            if (!reuseParts)
                p.insert(u"id"_s, Identifier::ascending(Identifier::Kind::Part));
            p.insert(u"sessionID"_s, hostileID);
            p.insert(u"messageID"_s, messageID);
            p.insert(u"text"_s, u"overwritten"_s);
            parts.append(p);
        }
        m.insert(u"parts"_s, parts);
        messages.append(m);
    }
    doc.insert(u"messages"_s, messages);

    const Result<Transfer::ImportResult> r = Transfer::importSession(*f.service, doc);
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
    QVERIFY(r->idsChanged);
    const QString copyID = r->session.id();
    const auto unchanged = [&] {
        const QMap<QString, QByteArray> after = weft::test::snapshotTree(f.storage());
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            if (after.value(it.key()) != it.value())
                return it.key();
        }
        return QString();
    };
    QCOMPARE(unchanged(), QString());
    QSet<QString> originalIDs;
    for (const MessageWithParts &m : f.service->messages(Main)) {
        originalIDs.insert(m.info.id());
        for (const Part &p : m.parts)
            originalIDs.insert(p.id());
    }
    for (const MessageWithParts &m : f.service->messages(copyID)) {
        QVERIFY(!originalIDs.contains(m.info.id()));
        for (const Part &p : m.parts)
            QVERIFY(!originalIDs.contains(p.id()));
    }

    // Deleting the import (to the trash, and for good) leaves the other session intact.
    QVERIFY(f.service->moveToTrash(copyID).ok());
    QCOMPARE(unchanged(), QString());
    QVERIFY(f.service->emptyTrash().ok());
    QCOMPARE(unchanged(), QString());
}

void TestSessionService::importedDirectoryNeedsAcceptance()
{
    // The directory an imported file claims is used only once the user has accepted it; a fork
    // of such a session needs it too. Sessions made here need nothing.
    Fixture f(false);
    const Result<Transfer::ImportResult> r = Transfer::importFile(*f.service, exportPath(Main));
    QVERIFY(r.ok());
    const QString id = r->session.id();
    const auto note = f.service->importNote(id);
    QVERIFY(note.has_value());
    QVERIFY(!note->confirmed);
    QCOMPARE(note->directory, r->session.directory());
    const Result<void> refused = f.service->checkDirectoryConfirmed(id);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.contains(r->session.directory()), qPrintable(refused.error().message));
    QVERIFY2(refused.error().message.contains(u"weft session accept "_s + id), qPrintable(refused.error().message));
    // The note lives in Weft's own data, not in OpenCode's files.
    QVERIFY(QFileInfo::exists(f.path + u"/weft-imported/"_s + id + u".json"_s));
    QVERIFY(!f.service->get(id)->json().contains(u"imported"));

    const Result<Session> fork = f.service->fork(id);
    QVERIFY(fork.ok());
    QVERIFY(!f.service->checkDirectoryConfirmed(fork->id()).ok());

    QVERIFY(f.service->confirmImportedDirectory(id).ok());
    QVERIFY(f.service->checkDirectoryConfirmed(id).ok());
    QVERIFY(f.service->importNote(id)->confirmed);
    QVERIFY(!f.service->checkDirectoryConfirmed(fork->id()).ok()); // accepted one by one

    SessionService::CreateOptions options;
    options.directory = f.path;
    const Result<Session> own = f.service->create(options);
    QVERIFY(own.ok());
    QVERIFY(f.service->checkDirectoryConfirmed(own->id()).ok());
    QVERIFY(!f.service->importNote(own->id()).has_value());
}

void TestSessionService::importedRevertRefusesForeignSnapshots()
{
    // An imported session chooses its directory and its snapshot hashes (git's empty tree is
    // known to every repository): a revert must not delete what the file names.
    if (!Git::available())
        QSKIP("the git program is not available");
    Fixture f(false);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString notes = home.path() + u"/notes.txt"_s;
    const QString bashrc = home.path() + u"/.bashrc"_s;
    for (const QString &path : {notes, bashrc}) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("precious\n");
    }
    JsonObject doc = parse(weft::test::readFile(exportPath(Main))).toObject();
    JsonObject info = doc.object(u"info");
    info.insert(u"directory"_s, home.path());
    info.insert(u"projectID"_s, u"global"_s);
    doc.insert(u"info"_s, info);
    JsonArray messages = doc.array(u"messages");
    QVERIFY(messages.size() >= 2);
    const QString firstID = messages.at(0).toObject().object(u"info").string(u"id");
    JsonObject last = messages.at(messages.size() - 1).toObject();
    JsonArray parts = last.array(u"parts");
    parts.append(JsonObject{{u"id"_s, Identifier::ascending(Identifier::Kind::Part)},
                            {u"sessionID"_s, info.string(u"id")},
                            {u"messageID"_s, last.object(u"info").string(u"id")},
                            {u"type"_s, u"patch"_s},
                            {u"hash"_s, u"4b825dc642cb6eb9a060e54bf8d69288fbee4904"_s},
                            {u"files"_s, JsonArray{notes, bashrc}}});
    last.insert(u"parts"_s, parts);
    messages[messages.size() - 1] = last;
    doc.insert(u"messages"_s, messages);
    const Result<Transfer::ImportResult> r = Transfer::importSession(*f.service, doc);
    QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
    const QString id = r->session.id();

    // Not accepted yet: refused, and so is a plan of it.
    Result<Session> reverted = Revert::revert(*f.service, f.path, id, firstID);
    QVERIFY(!reverted.ok());
    QVERIFY2(reverted.error().message.contains(u"not confirmed"_s), qPrintable(reverted.error().message));
    QVERIFY(!Revert::plan(*f.service, f.path, id, firstID).ok());
    // Accepted: the snapshot is still not one this machine made.
    QVERIFY(f.service->confirmImportedDirectory(id).ok());
    reverted = Revert::revert(*f.service, f.path, id, firstID);
    QVERIFY(!reverted.ok());
    QVERIFY2(reverted.error().message.contains(u"not made by Weft on this machine"_s), qPrintable(reverted.error().message));
    QVERIFY(!f.service->get(id)->hasRevert());
    QCOMPARE(weft::test::readFile(notes), QByteArray("precious\n"));
    QCOMPARE(weft::test::readFile(bashrc), QByteArray("precious\n"));
}

void TestSessionService::sampleData()
{
    Fixture f(false);
    QTemporaryDir project;
    const Result<QString> r = SampleData::create(*f.service, project.path());
    QVERIFY(r.ok());
    const QString mainID = r.value();

    const QList<Session> sessions = f.service->list();
    QCOMPARE(sessions.size(), 3);
    const Session main = *f.service->get(mainID);
    QVERIFY(main.parentID().isEmpty());
    QCOMPARE(main.additions(), qint64(9));

    // Tool calls in all four states, a retry, a compaction and its summary.
    const QList<MessageWithParts> messages = f.service->messages(mainID);
    QSet<QString> states;
    QSet<QString> types;
    int summaries = 0;
    QString lastUser;
    for (const MessageWithParts &m : messages) {
        if (m.info.isUser())
            lastUser = m.info.id();
        else
            QCOMPARE(m.info.parentID(), lastUser);
        summaries += m.info.isSummary() ? 1 : 0;
        for (const Part &p : m.parts) {
            types.insert(p.typeName());
            if (p.type() == PartType::Tool)
                states.insert(toolStatusName(p.state().status()));
        }
    }
    QCOMPARE(states, (QSet<QString>{u"pending"_s, u"running"_s, u"completed"_s, u"error"_s}));
    for (PartType t : {PartType::Text, PartType::Reasoning, PartType::Tool, PartType::StepStart, PartType::StepFinish,
                       PartType::Patch, PartType::Compaction, PartType::Retry})
        QVERIFY2(types.contains(partTypeName(t)), qPrintable(partTypeName(t)));
    QCOMPARE(summaries, 1);
    QVERIFY(messages.last().info.isSummary());
    QCOMPARE(messages.last().info.mode(), u"compaction"_s);

    // A session diff.
    const QList<FileDiff> diff = f.service->diff(mainID);
    QCOMPARE(diff.size(), 1);
    QCOMPARE(diff.first().file(), project.path() + u"/hello.c"_s);
    QVERIFY(diff.first().hasContents());

    // A child and a fork.
    const QList<Session> children = f.service->children(mainID);
    QCOMPARE(children.size(), 1);
    QVERIFY(!f.service->messages(children.first().id()).isEmpty());
    const auto fork = std::find_if(sessions.begin(), sessions.end(), [&](const Session &s) { return s.title() == main.title() + u" (fork #1)"_s; });
    QVERIFY(fork != sessions.end());
    QVERIFY(fork->parentID().isEmpty());
    compareCopy(messages.mid(0, 3), f.service->messages(fork->id()), fork->id());

    // Everything written is valid data: it loads without problems and exports as valid.
    for (const Session &s : sessions) {
        const Result<JsonObject> exported = Transfer::exportSession(*f.service, s.id());
        QVERIFY(exported.ok());
        QVERIFY(Transfer::validateExport(exported.value()).isEmpty());
    }
    QVERIFY(f.store->problems().isEmpty());
}

QTEST_GUILESS_MAIN(TestSessionService)
#include "tst_sessionservice.moc"
