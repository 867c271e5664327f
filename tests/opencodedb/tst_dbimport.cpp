// SPDX-License-Identifier: GPL-3.0-or-later
// DbImport: sessions of OpenCode's database copied into Weft's JSON store, where they can be
// forked, compacted and continued.

#include "opencodedb/dbimport.h"
#include "opencodedb/opencodedatadir.h"
#include "opencodedb/opencodedbstore.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "testdata.h"
#include "testdb.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString Main = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
const QString Fork = u"ses_dfe96a47cffebQrgOF1KmVIxb2"_s;
const QString Child = u"ses_dfe96a43cffe7HThRjtKf69Ueb"_s;
const QString Named = u"ses_dfe96a380ffecLH5wa8iKO3NO1"_s;

struct Fixture {
    QTemporaryDir dir;
    std::shared_ptr<OpencodeDbStore> source;
    std::shared_ptr<Store> target;
    std::unique_ptr<SessionService> service;

    /// @p version: the real fixture to copy ("1.18.34", or "1.18.34-v2" with V2 sessions).
    bool setUp(const QString &version = u"1.18.34"_s)
    {
        const QString db = dir.filePath(u"opencode/opencode.db"_s);
        QDir().mkpath(dir.filePath(u"opencode"_s));
        if (!QFile::copy(weft::test::realFixtureDir(version) + u"/opencode.db"_s, db))
            return false;
        QFile(db).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        auto opened = OpencodeDbStore::open(db);
        if (!opened)
            return false;
        source = opened.value();
        auto weft = OpencodeDataDir::open(dir.filePath(u"weft"_s), true);
        if (!weft)
            return false;
        target = weft->store;
        service = std::make_unique<SessionService>(target);
        return true;
    }
};

QStringList sourceIDs(const QList<DbImport::Imported> &imported)
{
    QStringList ids;
    for (const DbImport::Imported &i : imported)
        ids.append(i.sourceID);
    return ids;
}
} // namespace

class TestDbImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void importEverything();
    void importOneWithItsChildren();
    void collidingIDsAreRenewed();
    void forkAndContinueAnImportedSession();
    void unknownSessionIsRefused();
    void readOnlyTargetIsRefused();
    void importV2Sessions();
};

void TestDbImport::importEverything()
{
    Fixture f;
    QVERIFY(f.setUp());
    QSignalSpy created(f.service.get(), &SessionService::sessionCreated);
    QList<std::pair<int, int>> progress;
    const auto imported = DbImport::importSessions(*f.source, *f.service, {}, [&](int done, int total) { progress.append({done, total}); });
    QVERIFY(imported);
    QCOMPARE(imported->size(), 7);
    QCOMPARE(created.count(), 7);
    QCOMPARE(progress.last(), (std::pair<int, int>{7, 7}));
    // Parents before children.
    QVERIFY(sourceIDs(imported.value()).indexOf(Main) < sourceIDs(imported.value()).indexOf(Child));
    SessionService source(f.source);
    for (const DbImport::Imported &i : imported.value()) {
        QVERIFY2(i.error.isEmpty(), qPrintable(i.error));
        QVERIFY(!i.idsChanged);
        QCOMPARE(i.session.id(), i.sourceID);
        // The copy exports exactly as the original.
        const auto original = Transfer::exportSession(source, i.sourceID);
        const auto copy = Transfer::exportSession(*f.service, i.session.id());
        QVERIFY(original && copy);
        QCOMPARE(copy.value(), original.value());
    }
    QCOMPARE(f.target->projects().size(), 1);
    QCOMPARE(f.service->get(Child)->parentID(), Main);
    QCOMPARE(f.service->get(Named)->json().object(u"metadata").string(u"label"), u"fixture"_s);
    QVERIFY(f.target->problems().isEmpty());
}

void TestDbImport::importOneWithItsChildren()
{
    Fixture f;
    QVERIFY(f.setUp());
    const auto imported = DbImport::importSessions(*f.source, *f.service, {Main});
    QVERIFY(imported);
    QCOMPARE(sourceIDs(imported.value()), (QStringList{Main, Child}));
    QCOMPARE(f.service->list().size(), 2);
    QCOMPARE(f.service->children(Main).size(), 1);
}

void TestDbImport::collidingIDsAreRenewed()
{
    Fixture f;
    QVERIFY(f.setUp());
    QVERIFY(DbImport::importSessions(*f.source, *f.service, {Main}));
    const auto again = DbImport::importSessions(*f.source, *f.service, {Main});
    QVERIFY(again);
    QCOMPARE(again->size(), 2);
    const DbImport::Imported main = again->at(0), child = again->at(1);
    QVERIFY(main.idsChanged);
    QVERIFY(child.idsChanged);
    QVERIFY(main.session.id() != Main);
    QVERIFY(child.session.id() != Child);
    // The second child belongs to the second copy of its parent.
    QCOMPARE(f.service->get(child.session.id())->parentID(), main.session.id());
    QCOMPARE(f.service->list().size(), 4);
    const QList<MessageWithParts> first = f.service->messages(Main);
    const QList<MessageWithParts> second = f.service->messages(main.session.id());
    QCOMPARE(second.size(), first.size());
    for (qsizetype i = 0; i < first.size(); ++i) {
        QVERIFY(second.at(i).info.id() != first.at(i).info.id());
        QCOMPARE(second.at(i).info.sessionID(), main.session.id());
        if (second.at(i).info.isAssistant()) // parent IDs point into the copy
            QVERIFY(f.target->message(main.session.id(), second.at(i).info.parentID()).has_value());
        QCOMPARE(second.at(i).parts.size(), first.at(i).parts.size());
    }
}

void TestDbImport::forkAndContinueAnImportedSession()
{
    Fixture f;
    QVERIFY(f.setUp());
    QVERIFY(DbImport::importSessions(*f.source, *f.service, {Main}));
    const QList<MessageWithParts> messages = f.service->messages(Main);
    QCOMPARE(messages.size(), 13);
    const Result<Session> full = f.service->fork(Main);
    QVERIFY2(full, qPrintable(full ? QString() : full.error().toString()));
    QCOMPARE(f.service->messages(full->id()).size(), messages.size());
    QVERIFY(full->title().endsWith(u"(fork #1)"));
    // A fork at the third user message, as OpenCode's own fork in the fixture did.
    QStringList users;
    for (const MessageWithParts &m : messages) {
        if (m.info.isUser())
            users.append(m.info.id());
    }
    const Result<Session> partial = f.service->fork(Main, users.at(2));
    QVERIFY(partial);
    const QList<MessageWithParts> copied = f.service->messages(partial->id());
    const qsizetype third = std::find_if(messages.cbegin(), messages.cend(), [&](const MessageWithParts &m) { return m.info.id() == users.at(2); })
        - messages.cbegin();
    QCOMPARE(copied.size(), third); // the messages before it
    // OpenCode's fork of the same session at the same message has as many messages.
    SessionService source(f.source);
    QCOMPARE(copied.size(), source.messages(Fork).size());
    // And the copy can be changed further: renamed, archived, deleted.
    QVERIFY(f.service->rename(Main, u"continued in Weft"_s));
    QVERIFY(f.service->remove(partial->id()));
}

void TestDbImport::unknownSessionIsRefused()
{
    Fixture f;
    QVERIFY(f.setUp());
    const auto imported = DbImport::importSessions(*f.source, *f.service, {Main, u"ses_0000000000000000000000000a"_s});
    QVERIFY(!imported);
    QVERIFY(imported.error().message.contains(u"no session ses_0000000000000000000000000a"));
    QVERIFY(f.service->list().isEmpty()); // nothing written
}

void TestDbImport::readOnlyTargetIsRefused()
{
    Fixture f;
    QVERIFY(f.setUp());
    SessionService readOnly(f.source);
    const auto imported = DbImport::importSessions(*f.source, readOnly, {Main});
    QVERIFY(!imported);
    QVERIFY(imported.error().message.contains(u"read-only"));
}

void TestDbImport::importV2Sessions()
{
    // OpenCode 1.18's V2 sessions (session_message rows) are copied as the V1 messages and parts
    // they map to, beside the V1 session of the same database.
    Fixture f;
    QVERIFY(f.setUp(u"1.18.34-v2"_s));
    const auto imported = DbImport::importSessions(*f.source, *f.service, {});
    QVERIFY(imported);
    QCOMPARE(imported->size(), 3);
    SessionService source(f.source);
    int messages = 0;
    for (const DbImport::Imported &i : imported.value()) {
        QVERIFY2(i.error.isEmpty(), qPrintable(i.error));
        const auto original = Transfer::exportSession(source, i.sourceID);
        const auto copy = Transfer::exportSession(*f.service, i.session.id());
        QVERIFY(original && copy);
        QCOMPARE(copy.value(), original.value());
        messages += int(f.service->messages(i.session.id()).size());
    }
    for (const QString &v2 : {u"ses_df0431b42ffeZqQaYkbOt5XlpE"_s, u"ses_df04312d7ffeIe2H1b3Bdy1vNA"_s})
        QVERIFY(!f.service->messages(v2).isEmpty());
    QVERIFY(messages > 17);
    QVERIFY(f.target->problems().isEmpty());
}

QTEST_GUILESS_MAIN(TestDbImport)
#include "tst_dbimport.moc"
