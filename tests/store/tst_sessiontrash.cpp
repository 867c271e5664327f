// SPDX-License-Identifier: GPL-3.0-or-later
// The trash of deleted sessions (model/store/sessiontrash.h, SessionService::moveToTrash and
// restoreFromTrash): byte-identical restores, children along, refusals, hostile entries,
// rollback of a failed move and the 30-day purge, on copies of what OpenCode 1.1.53 wrote.
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "store/sessiontrash.h"
#include "testdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::writeFile;

namespace
{
const QString Main = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString Reverted = u"ses_dff05751fffexgWr6MRybGFAXU"_s; // "Hand-named session", with a child
const QString Child = u"ses_dff057405ffesKzX5TtUsbqkQ3"_s;
constexpr qint64 Day = 24LL * 60 * 60 * 1000;
constexpr qint64 Now = 1'760'000'000'000; // a fixed "now" for the injected clock

struct Fixture {
    Fixture()
    {
        store = std::make_shared<JsonStore>(data.path());
        initialized = store->initialize().ok();
        service = std::make_unique<SessionService>(store);
        store->trash()->setClock([this] { return clock; });
    }
    [[nodiscard]] QString storage() const { return data.storage(); }
    [[nodiscard]] QString trashRoot() const { return data.path() + u"/weft-trash"_s; }
    [[nodiscard]] QMap<QString, QByteArray> files() const { return test::snapshotTree(storage()); }

    test::FixtureDataDir data;
    std::shared_ptr<JsonStore> store;
    std::unique_ptr<SessionService> service;
    qint64 clock = Now;
    bool initialized = false;
};

/// The files of @p tree whose path names one of @p ids (sessions, or messages of theirs).
QStringList filesOf(const QMap<QString, QByteArray> &tree, const QStringList &ids)
{
    QStringList out;
    for (const QString &path : tree.keys()) {
        for (const QString &id : ids) {
            if (path.contains(id)) {
                out.append(path);
                break;
            }
        }
    }
    return out;
}

/// The message IDs of @p sessionID in the fixture.
QStringList messagesOf(const QString &storage, const QString &sessionID)
{
    QStringList ids;
    for (const QString &f : QDir(storage + u"/message/"_s + sessionID).entryList(QDir::Files))
        ids.append(f.chopped(5));
    return ids;
}

} // namespace

class TestSessionTrash : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void moveAndRestoreAreByteIdentical();
    void restoreRefusesASessionThatExistsAgain();
    void hostileEntries();
    void symlinkedEntryIsRemovedNotFollowed();
    void failedMoveRollsBack();
    void failedRestoreRollsBack();
    void purgeAfterThirtyDays();
    void deleteAndEmpty();
    void readOnlyStoreHasNoTrash();
    void futuresWorkOffTheCallingThread();
};

void TestSessionTrash::moveAndRestoreAreByteIdentical()
{
    Fixture f;
    QVERIFY(f.initialized);
    QVERIFY(f.service->has(StoreCapability::Trash));
    const QMap<QString, QByteArray> before = f.files();
    const QStringList ids = QStringList{Reverted, Child} + messagesOf(f.storage(), Reverted) + messagesOf(f.storage(), Child);
    const QStringList owned = filesOf(before, ids);
    QVERIFY(owned.size() > 10);

    QSignalSpy deleted(f.service.get(), &SessionService::sessionDeleted);
    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    QSignalSpy changed(f.service.get(), &SessionService::trashChanged);
    const Result<TrashEntry> entry = f.service->moveToTrash(Reverted);
    QVERIFY2(entry.ok(), qPrintable(entry.ok() ? QString() : entry.error().toString()));
    QCOMPARE(entry->id, QString::number(Now) + u'-' + Reverted);
    QCOMPARE(entry->title, u"Hand-named session"_s);
    QCOMPARE(entry->children, QStringList{Child});
    QCOMPARE(qsizetype(entry->files), owned.size());
    // Children first, as a permanent delete announces them.
    QCOMPARE(deleted.size(), 2);
    QCOMPARE(deleted.at(0).first().value<Session>().id(), Child);
    QCOMPARE(deleted.at(1).first().value<Session>().id(), Reverted);
    QCOMPARE(changed.size(), 1);

    // Gone from the store, every other file untouched, the same bytes in the trash.
    QVERIFY(!f.service->get(Reverted));
    QVERIFY(!f.service->get(Child));
    const QMap<QString, QByteArray> during = f.files();
    QVERIFY(filesOf(during, ids).isEmpty());
    QMap<QString, QByteArray> others = before;
    for (const QString &path : owned)
        others.remove(path);
    QVERIFY(during == others);
    QVERIFY(!QFileInfo::exists(f.storage() + u"/message/"_s + Reverted)); // no empty folders left
    const QString entryDir = f.trashRoot() + u'/' + entry->id;
    const QMap<QString, QByteArray> trashed = test::snapshotTree(entryDir + u"/storage"_s);
    QCOMPARE(trashed.keys(), owned);
    for (const QString &path : owned)
        QCOMPARE(trashed.value(path), before.value(path));
    QVERIFY(QFileInfo::exists(entryDir + u"/manifest.json"_s));

    const QList<TrashEntry> entries = f.service->trashEntries();
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries.first().directory, entry->directory);
    QCOMPARE(entries.first().deleted, Now);
    QVERIFY(entries.first().problem.isEmpty());

    const Result<Session> restored = f.service->restoreFromTrash(entry->id);
    QVERIFY2(restored.ok(), qPrintable(restored.ok() ? QString() : restored.error().toString()));
    QCOMPARE(restored->id(), Reverted);
    QCOMPARE(created.size(), 2);
    QCOMPARE(created.at(0).first().value<Session>().id(), Reverted);
    QVERIFY(f.files() == before);
    QVERIFY(f.service->trashEntries().isEmpty());
    QVERIFY(!QFileInfo::exists(entryDir));
    QCOMPARE(f.service->messages(Reverted).size(), messagesOf(f.storage(), Reverted).size());
    QCOMPARE(f.service->children(Reverted).size(), 1);
}

void TestSessionTrash::restoreRefusesASessionThatExistsAgain()
{
    Fixture f;
    const Result<TrashEntry> entry = f.service->moveToTrash(Reverted);
    QVERIFY(entry.ok());
    // A session with the child's ID comes back (say, another OpenCode wrote it).
    const QString projectDir = f.storage() + u"/session/"_s + f.service->get(Main)->projectID();
    const QString entryDir = f.trashRoot() + u'/' + entry->id;
    const QByteArray childInfo = test::readFile(entryDir + u"/storage/session/"_s
                                                + f.service->get(Main)->projectID() + u'/' + Child + u".json"_s);
    QVERIFY(!childInfo.isEmpty());
    QVERIFY(writeFile(projectDir + u'/' + Child + u".json"_s, childInfo));
    const QMap<QString, QByteArray> storeBefore = f.files();
    const QMap<QString, QByteArray> trashBefore = test::snapshotTree(entryDir);

    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    const Result<Session> restored = f.service->restoreFromTrash(entry->id);
    QVERIFY(!restored.ok());
    QVERIFY2(restored.error().toString().contains(u"exists again"_s), qPrintable(restored.error().toString()));
    QVERIFY(restored.error().toString().contains(Child));
    QCOMPARE(created.size(), 0);
    QVERIFY(f.files() == storeBefore);
    QVERIFY(test::snapshotTree(entryDir) == trashBefore);

    // An unknown or hostile entry name is refused too.
    for (const QString &id : {u"nope"_s, u".."_s, u"../storage"_s, u""_s, u"."_s})
        QVERIFY(!f.service->restoreFromTrash(id).ok());
    QVERIFY(f.files() == storeBefore);
}

void TestSessionTrash::hostileEntries()
{
    Fixture f;
    QTemporaryDir outside;
    const QMap<QString, QByteArray> storeBefore = f.files();
    const QString projectID = f.service->get(Main)->projectID();
    const auto makeEntry = [&](const QString &name, const QStringList &files, const QString &sessionID) {
        QJsonArray list;
        for (const QString &file : files)
            list.append(file);
        const QJsonObject manifest{{u"weftTrash"_s, 1},
                                   {u"sessionID"_s, sessionID},
                                   {u"title"_s, u"hostile"_s},
                                   {u"deleted"_s, Now},
                                   {u"sessions"_s, QJsonArray{QJsonObject{{u"id"_s, sessionID}}}},
                                   {u"files"_s, list}};
        QVERIFY(writeFile(f.trashRoot() + u'/' + name + u"/manifest.json"_s, QJsonDocument(manifest).toJson()));
        for (const QString &file : files) {
            if (!file.contains(u".."_s)) // the manifest names it; nothing in the entry is it
                QVERIFY(writeFile(f.trashRoot() + u'/' + name + u"/storage/"_s + file, "{}"));
        }
    };
    const QString newID = u"ses_0000000000001hostileAAAAAA"_s;
    // 1. `..` in a listed file: would land outside storage/.
    makeEntry(u"1-dots"_s, {u"session/"_s + projectID + u'/' + newID + u".json"_s, u"todo/../../../escaped.json"_s},
              newID);
    // 2. A file of another kind than a session's (the migration file, a project).
    makeEntry(u"2-project"_s, {u"project/"_s + projectID + u".json"_s}, newID);
    // 3. A file of a session the entry does not hold: would overwrite Main's.
    makeEntry(u"3-foreign"_s, {u"session_diff/"_s + Main + u".json"_s}, newID);
    // 4. A listed file that is a symbolic link to a file outside.
    QVERIFY(writeFile(outside.path() + u"/secret.json"_s, "{\"secret\":true}"));
    makeEntry(u"4-link"_s, {u"session/"_s + projectID + u'/' + newID + u".json"_s}, newID);
    const QString linked = f.trashRoot() + u"/4-link/storage/session/"_s + projectID + u'/' + newID + u".json"_s;
    QVERIFY(QFile::remove(linked));
    QVERIFY(QFile::link(outside.path() + u"/secret.json"_s, linked));
    // 5. A folder on the way that is a symbolic link to a folder outside.
    makeEntry(u"5-folderlink"_s, {u"todo/"_s + newID + u".json"_s}, newID);
    QVERIFY(writeFile(outside.path() + u"/todo/"_s + newID + u".json"_s, "[]"));
    QVERIFY(QDir(f.trashRoot() + u"/5-folderlink/storage/todo"_s).removeRecursively());
    QVERIFY(QFile::link(outside.path() + u"/todo"_s, f.trashRoot() + u"/5-folderlink/storage/todo"_s));
    // 6. A damaged manifest.
    QVERIFY(writeFile(f.trashRoot() + u"/6-damaged/manifest.json"_s, "{\"files\": ["));

    const QMap<QString, QByteArray> outsideBefore = test::snapshotTree(outside.path());
    const QList<TrashEntry> entries = f.service->trashEntries();
    QCOMPARE(entries.size(), 6);
    for (const QString &id : {u"1-dots"_s, u"2-project"_s, u"3-foreign"_s, u"4-link"_s, u"5-folderlink"_s, u"6-damaged"_s}) {
        const Result<Session> r = f.service->restoreFromTrash(id);
        QVERIFY2(!r.ok(), qPrintable(id));
        QVERIFY(!r.error().toString().isEmpty());
        QVERIFY2(f.files() == storeBefore, qPrintable(id));
        QVERIFY(!f.service->get(newID));
    }
    // Damaged entries are listed with their problem, so that they can be deleted.
    for (const TrashEntry &e : entries) {
        if (e.id == u"4-link" || e.id == u"5-folderlink")
            continue; // their manifests are fine; their files are not
        QVERIFY2(!e.problem.isEmpty(), qPrintable(e.id));
    }
    QVERIFY(!QFileInfo::exists(f.data.path() + u"/escaped.json"_s));
    QVERIFY(f.service->emptyTrash().ok());
    QVERIFY(f.service->trashEntries().isEmpty());
    // Emptying removed the links, not what they point to.
    QVERIFY(test::snapshotTree(outside.path()) == outsideBefore);
    QVERIFY(f.files() == storeBefore);
}

void TestSessionTrash::symlinkedEntryIsRemovedNotFollowed()
{
    Fixture f;
    QTemporaryDir outside;
    QVERIFY(writeFile(outside.path() + u"/manifest.json"_s, "{}"));
    QVERIFY(writeFile(outside.path() + u"/keep.txt"_s, "keep"));
    QVERIFY(QDir().mkpath(f.trashRoot()));
    QVERIFY(QFile::link(outside.path(), f.trashRoot() + u"/1700000000000-ses_link"_s));
    const QList<TrashEntry> entries = f.service->trashEntries();
    QCOMPARE(entries.size(), 1);
    QVERIFY(!entries.first().problem.isEmpty());
    QVERIFY(!f.service->restoreFromTrash(entries.first().id).ok());
    // Old enough to be purged: the link goes, the folder it points to stays.
    QCOMPARE(f.service->purgeTrash(Now), 1);
    QVERIFY(!QFileInfo(f.trashRoot() + u"/1700000000000-ses_link"_s).isSymLink());
    QCOMPARE(test::readFile(outside.path() + u"/keep.txt"_s), QByteArray("keep"));
}

void TestSessionTrash::failedMoveRollsBack()
{
    Fixture f;
    const QMap<QString, QByteArray> before = f.files();
    // The 7th file fails to move, as a rename to a full or read-only file system would.
    int calls = 0;
    f.store->trash()->setMoveHook([&calls](const QString &) { return ++calls != 7; });
    QSignalSpy deleted(f.service.get(), &SessionService::sessionDeleted);
    const Result<TrashEntry> entry = f.service->moveToTrash(Reverted);
    QVERIFY(!entry.ok());
    QVERIFY2(entry.error().toString().contains(u"nothing was deleted"_s), qPrintable(entry.error().toString()));
    QCOMPARE(calls, 7);
    QCOMPARE(deleted.size(), 0);
    QVERIFY(f.files() == before);
    QVERIFY(f.service->get(Reverted));
    QVERIFY(f.service->get(Child));
    QVERIFY(f.service->trashEntries().isEmpty());
    QVERIFY(QDir(f.trashRoot()).isEmpty());

    // Without the failure it works.
    f.store->trash()->setMoveHook({});
    QVERIFY(f.service->moveToTrash(Reverted).ok());
}

void TestSessionTrash::failedRestoreRollsBack()
{
    Fixture f;
    const QMap<QString, QByteArray> before = f.files();
    const Result<TrashEntry> entry = f.service->moveToTrash(Reverted);
    QVERIFY(entry.ok());
    const QString entryDir = f.trashRoot() + u'/' + entry->id;
    const QMap<QString, QByteArray> storeTrashed = f.files();
    const QMap<QString, QByteArray> inTrash = test::snapshotTree(entryDir);
    int calls = 0;
    f.store->trash()->setMoveHook([&calls](const QString &) { return ++calls != 5; });
    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    const Result<Session> restored = f.service->restoreFromTrash(entry->id);
    QVERIFY(!restored.ok());
    QVERIFY2(restored.error().toString().contains(u"stays in the trash"_s), qPrintable(restored.error().toString()));
    QCOMPARE(created.size(), 0);
    QVERIFY(f.files() == storeTrashed);
    QVERIFY(test::snapshotTree(entryDir) == inTrash);

    f.store->trash()->setMoveHook({});
    QVERIFY(f.service->restoreFromTrash(entry->id).ok());
    QVERIFY(f.files() == before);
}

void TestSessionTrash::purgeAfterThirtyDays()
{
    Fixture f;
    f.clock = Now - 31 * Day;
    const Result<TrashEntry> old = f.service->moveToTrash(Reverted);
    QVERIFY(old.ok());
    f.clock = Now - 29 * Day;
    const Result<TrashEntry> recent = f.service->moveToTrash(Main);
    QVERIFY(recent.ok());
    // A damaged entry is purged by the time in its name; one without a time stays.
    QVERIFY(writeFile(f.trashRoot() + u'/' + QString::number(Now - 40 * Day) + u"-ses_damaged/manifest.json"_s, "["));
    QVERIFY(writeFile(f.trashRoot() + u"/no-time/manifest.json"_s, "["));
    QCOMPARE(f.service->trashEntries().size(), 4);
    // Newest first.
    QCOMPARE(f.service->trashEntries().first().id, recent->id);

    QSignalSpy changed(f.service.get(), &SessionService::trashChanged);
    QCOMPARE(f.service->purgeTrash(Now), 2);
    QCOMPARE(changed.size(), 1);
    QStringList left;
    for (const TrashEntry &e : f.service->trashEntries())
        left.append(e.id);
    left.sort();
    QCOMPARE(left, (QStringList{recent->id, u"no-time"_s}));
    QVERIFY(!QFileInfo::exists(f.trashRoot() + u'/' + old->id));
    // Nothing more to purge a day later; two days later the second one goes too.
    QCOMPARE(f.service->purgeTrash(Now + Day - 1), 0);
    QCOMPARE(f.service->purgeTrash(Now + 2 * Day), 1);
    // The purged sessions are not back in the store.
    QVERIFY(!f.service->get(Reverted));
    QVERIFY(!f.service->get(Main));
}

void TestSessionTrash::deleteAndEmpty()
{
    Fixture f;
    const Result<TrashEntry> a = f.service->moveToTrash(Reverted);
    f.clock += 1000;
    const Result<TrashEntry> b = f.service->moveToTrash(Main);
    QVERIFY(a.ok() && b.ok());
    QVERIFY(f.service->deleteFromTrash(a->id).ok());
    QCOMPARE(f.service->trashEntries().size(), 1);
    QVERIFY(!f.service->restoreFromTrash(a->id).ok());
    QVERIFY(f.service->emptyTrash().ok());
    QVERIFY(f.service->trashEntries().isEmpty());
    QVERIFY(QDir(f.trashRoot()).isEmpty());
    QVERIFY(!f.service->get(Main));
    QCOMPARE(f.service->list().size(), 3);
    QVERIFY(!f.service->deleteFromTrash(u"../storage"_s).ok());
    QVERIFY(QFileInfo::exists(f.storage()));
}

void TestSessionTrash::readOnlyStoreHasNoTrash()
{
    // A store without the capability: the service says so and moves nothing.
    class ReadOnly : public JsonStore
    {
    public:
        using JsonStore::JsonStore;
        StoreCapabilities capabilities() const override { return StoreCapability::Live; }
    };
    test::FixtureDataDir data;
    SessionService service(std::make_shared<ReadOnly>(data.path()));
    QVERIFY(!service.has(StoreCapability::Trash));
    QVERIFY(!service.moveToTrash(Main).ok());
    QVERIFY(service.get(Main));
    QVERIFY(service.trashEntries().isEmpty());
    QCOMPARE(service.purgeTrash(), 0);
}

void TestSessionTrash::futuresWorkOffTheCallingThread()
{
    // What a window calls: the listing, restore, delete and empty on the pool, each holding the
    // service until it is done.
    test::FixtureDataDir data;
    auto service = std::make_shared<SessionService>(std::make_shared<JsonStore>(data.path()));
    const Result<TrashEntry> a = service->moveToTrash(Reverted);
    const Result<TrashEntry> b = service->moveToTrash(Main);
    QVERIFY(a.ok() && b.ok());
    std::atomic<QThread *> announcedOn = nullptr;
    connect(service.get(), &SessionService::trashChanged, service.get(),
            [&announcedOn] { announcedOn = QThread::currentThread(); }, Qt::DirectConnection);

    // (Waiting with result() could run a task not started yet on this thread.)
    QFuture<QList<TrashEntry>> listed = service->trashEntriesLater();
    QTRY_VERIFY(listed.isFinished());
    QVERIFY(listed.result() == service->trashEntries());
    QCOMPARE(listed.result().size(), 2);

    QFuture<Result<Session>> restored = service->restoreFromTrashLater(a->id);
    std::weak_ptr<SessionService> held = service;
    service.reset(); // the window closed meanwhile
    QTRY_VERIFY(restored.isFinished());
    QVERIFY(restored.result().ok());
    QCOMPARE(restored.result()->id(), Reverted);
    QVERIFY(announcedOn.load() && announcedOn.load() != QThread::currentThread());
    QTRY_VERIFY(held.expired()); // and lets it go when it is done

    service = std::make_shared<SessionService>(std::make_shared<JsonStore>(data.path()));
    QFuture<Result<void>> deleted = service->deleteFromTrashLater(b->id);
    QTRY_VERIFY(deleted.isFinished());
    QVERIFY(deleted.result().ok());
    QVERIFY(service->trashEntries().isEmpty());
    QVERIFY(service->moveToTrash(Reverted).ok());
    QFuture<Result<void>> emptied = service->emptyTrashLater();
    QTRY_VERIFY(emptied.isFinished());
    QVERIFY(emptied.result().ok());
    QVERIFY(service->trashEntries().isEmpty());

    // A service no std::shared_ptr owns cannot be held: refused, at once.
    SessionService unshared(std::make_shared<JsonStore>(data.path()));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"cannot work off the calling thread"_s));
    QFuture<Result<void>> refused = unshared.emptyTrashLater();
    QVERIFY(refused.isFinished());
    QVERIFY(!refused.result().ok());
}

QTEST_GUILESS_MAIN(TestSessionTrash)
#include "tst_sessiontrash.moc"
