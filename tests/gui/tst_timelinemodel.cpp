// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineModel: one row per message, loaded off the GUI thread newest first, paged backwards,
// changed row by row by live updates (the service's signals and files another process writes).

#include "core/identifier.h"
#include "guitest.h"
#include "qt/timelinemodel.h"
#include "session/sampledata.h"
#include "session/sessionservice.h"
#include "session/sessionstore.h"
#include "store/jsonstore.h"
#include "testdata.h"

#include <QAbstractItemModelTester>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString CompactionUser = u"msg_200fa8a36001tQWWF8DxBmA8py"_s;
const QString Summary = u"msg_200fa8a3d0012js3ZHCB7qs7Co"_s;
const QString LastUser = u"msg_200fa8a79001521Zy53EibRhjH"_s;

std::shared_ptr<SessionService> openFixture(test::FixtureDataDir &dir)
{
    return std::make_shared<SessionService>(std::make_shared<JsonStore>(dir.path()));
}

/// A store that, like a server paging its answer, gives the newest messages without listing the
/// others (NewestMessages::olderListed false).
class PagedStore : public JsonStore
{
public:
    using JsonStore::JsonStore;
    NewestMessages newestMessages(const QString &sessionID, qsizetype count) override
    {
        ++calls;
        NewestMessages page;
        page.messages = messagesWithParts(sessionID);
        page.messages.remove(0, std::max<qsizetype>(0, page.messages.size() - count));
        page.olderListed = false;
        return page;
    }
    int calls = 0;
};

/// A store that holds the read of the rest (every message read after the first page) until
/// release(): the first page is shown before the rest comes in, whatever the timing.
class HeldRestStore : public JsonStore
{
public:
    using JsonStore::JsonStore;
    NewestMessages newestMessages(const QString &sessionID, qsizetype count) override
    {
        NewestMessages page = JsonStore::newestMessages(sessionID, count);
        m_pageRead = true;
        return page;
    }
    QList<Message> messagesByID(const QString &sessionID, const QStringList &messageIDs) override
    {
        // (Not held for ever: a test that fails before release() still ends.)
        if (m_pageRead && m_gate.tryAcquire(1, 20000))
            m_gate.release();
        return JsonStore::messagesByID(sessionID, messageIDs);
    }
    void release() { m_gate.release(); }

private:
    std::atomic_bool m_pageRead = false;
    QSemaphore m_gate;
};

bool load(TimelineModel &model, const QString &sessionID)
{
    QSignalSpy loaded(&model, &TimelineModel::loaded);
    model.setSessionID(sessionID);
    return loaded.wait(5000);
}

QList<ToolStatus> statuses(const QModelIndex &index)
{
    return index.data(TimelineModel::ToolStatusesRole).value<QList<ToolStatus>>();
}

Part toolPart(const QString &id, const QString &sessionID, const QString &messageID, const ToolState &state)
{
    Part p = Part::make(id, sessionID, messageID, PartType::Tool);
    p.json().insert(u"callID"_s, u"call_1"_s);
    p.json().insert(u"tool"_s, u"bash"_s);
    p.setState(state);
    return p;
}
} // namespace

class TestTimelineModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::checkGuiThreadReads(); }
    void fixtureSession();
    void forkPoints();
    void sampleToolStates();
    void liveToolStates();
    void pagesOlderMessages();
    void compactionAmongOlderMessages();
    void newestPageFirstThenTheRest();
    void olderMessagesNotListed();
    void streamGrowsOneRow();
    void otherProcessWrites();
    void switchingSessionsResets();
};

void TestTimelineModel::fixtureSession()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, MainID));
    QCOMPARE(model.rowCount(), 30);
    QCOMPARE(model.totalMessageCount(), 30);
    QVERIFY(!model.canLoadOlder());

    const QModelIndex first = model.index(0, 0);
    QCOMPARE(first.data(TimelineModel::AuthorRole).value<Message::Role>(), Message::Role::User);
    QCOMPARE(first.data(TimelineModel::AgentRole).toString(), u"build"_s);
    QCOMPARE(first.data(TimelineModel::ModelRole).toString(), u"fake/m1"_s);
    QVERIFY(!first.data(TimelineModel::TextRole).toString().isEmpty());

    // The first reply: two failed writes.
    const QModelIndex reply = model.indexForId(u"msg_200fa7f0a001Upg1DpdQjTFybp"_s);
    QCOMPARE(reply.row(), 1);
    QCOMPARE(statuses(reply), (QList<ToolStatus>{ToolStatus::Error, ToolStatus::Error}));
    QCOMPARE(reply.data(TimelineModel::TokensRole).value<Tokens>().input, 1500);
    QCOMPARE(reply.data(TimelineModel::FinishRole).toString(), u"tool-calls"_s);
    QCOMPARE(reply.data(TimelineModel::RunningRole).toBool(), false);
    const auto types = reply.data(TimelineModel::PartTypesRole).value<QList<PartType>>();
    QCOMPARE(types, (QList<PartType>{PartType::StepStart, PartType::Tool, PartType::Tool, PartType::StepFinish}));
    QCOMPARE(statuses(model.indexForId(u"msg_200fa80bc001XL5vut0Jqlbu27"_s)), QList<ToolStatus>{ToolStatus::Completed});

    // The manual compaction: a marker, the summary set apart, everything before out of context.
    const QModelIndex marker = model.indexForId(CompactionUser);
    QCOMPARE(marker.data(TimelineModel::CompactionRole).value<TimelineModel::CompactionKind>(),
             TimelineModel::CompactionKind::Manual);
    QVERIFY(marker.data(TimelineModel::InContextRole).toBool());
    const QModelIndex summary = model.indexForId(Summary);
    QVERIFY(summary.data(TimelineModel::IsSummaryRole).toBool());
    QCOMPARE(summary.data(TimelineModel::AgentRole).toString(), u"compaction"_s);
    QVERIFY(summary.data(TimelineModel::InContextRole).toBool());
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex idx = model.index(row, 0);
        QCOMPARE(idx.data(TimelineModel::InContextRole).toBool(), row >= marker.row());
        if (idx != marker)
            QCOMPARE(idx.data(TimelineModel::CompactionRole).value<TimelineModel::CompactionKind>(),
                     TimelineModel::CompactionKind::None);
    }
    // Context: the last reply's tokens; no reply is running.
    const auto lastTokens = model.index(29, 0).data(TimelineModel::TokensRole).value<Tokens>();
    QCOMPARE(model.contextTokens(), lastTokens.total());
    QVERIFY(!model.isRunning());
    QCOMPARE(model.lastModel(), u"fake/m1"_s);
    QVERIFY(model.index(29, 0)
                .data(TimelineModel::MarkdownRole)
                .toString()
                .contains(model.index(29, 0).data(TimelineModel::TextRole).toString()));
}

void TestTimelineModel::forkPoints()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    TimelineModel model(service.get());
    QVERIFY(load(model, MainID));
    // A user message: everything before it.
    QCOMPARE(model.forkPoint(model.indexForId(LastUser)), LastUser);
    // An assistant message: up to and including it (the next message's ID).
    QCOMPARE(model.forkPoint(model.index(1, 0)), model.index(2, 0).data(TimelineModel::IdRole).toString());
    // The last message: the whole session.
    QCOMPARE(model.forkPoint(model.index(29, 0)), QString());
}

void TestTimelineModel::sampleToolStates()
{
    QTemporaryDir dir;
    auto store = std::make_shared<JsonStore>(dir.path());
    QVERIFY(store->initialize());
    auto service = std::make_shared<SessionService>(store);
    const Result<QString> sample = test::ownRead([&] { return SampleData::create(*service, u"/home/dev/hello"_s); });
    QVERIFY(sample);
    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, sample.value()));

    QList<ToolStatus> all;
    QModelIndex interrupted;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex idx = model.index(row, 0);
        all += statuses(idx);
        if (statuses(idx).contains(ToolStatus::Running))
            interrupted = idx;
    }
    QVERIFY(all.contains(ToolStatus::Completed));
    QVERIFY(all.contains(ToolStatus::Error));
    QVERIFY(all.contains(ToolStatus::Running));
    QVERIFY(all.contains(ToolStatus::Pending));
    // The turn whose tools were left running and pending ended with an error: not running.
    QCOMPARE(statuses(interrupted), (QList<ToolStatus>{ToolStatus::Running, ToolStatus::Pending}));
    QVERIFY(!interrupted.data(TimelineModel::RunningRole).toBool());
    QCOMPARE(interrupted.data(TimelineModel::ErrorRole).value<MessageError>().kind(), MessageError::Kind::Aborted);
    QVERIFY(!interrupted.data(TimelineModel::ErrorTextRole).toString().isEmpty());
    const auto types = interrupted.data(TimelineModel::PartTypesRole).value<QList<PartType>>();
    QCOMPARE(types.first(), PartType::Retry);
    QVERIFY(!model.isRunning());
    QVERIFY(model.totalCost() > 0.04);
}

void TestTimelineModel::liveToolStates()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, MainID));

    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy running(&model, &TimelineModel::runningChanged);
    Message reply
        = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), MainID, 1795312760000, LastUser,
                                 u"fake"_s, u"m1"_s, u"build"_s, u"/home/dev/src/demo"_s, u"/home/dev/src/demo"_s);
    QVERIFY(test::ownRead([&] { return service->updateMessage(reply); }));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(model.rowCount(), 31);
    const QPersistentModelIndex row = model.index(30, 0);
    QVERIFY(row.data(TimelineModel::RunningRole).toBool());
    QVERIFY(model.isRunning());
    QCOMPARE(running.size(), 1);

    const QString partID = Identifier::ascending(Identifier::Kind::Part);
    const JsonObject input{{u"command"_s, u"ls"_s}};
    const QList<std::pair<ToolState, ToolStatus>> steps{
        {ToolState::pending(input, u"{\"command\": \"ls\"}"_s), ToolStatus::Pending},
        {ToolState::running(input, 1795312760100), ToolStatus::Running},
        {ToolState::completed(input, u"a\nb\n"_s, u"ls"_s, {}, 1795312760100, 1795312760200), ToolStatus::Completed},
        {ToolState::error(input, u"boom"_s, 1795312760100, 1795312760300), ToolStatus::Error},
    };
    for (const auto &[state, status] : steps) {
        changed.clear();
        QVERIFY(test::ownRead([&] { return service->updatePart(toolPart(partID, MainID, reply.id(), state)); }));
        QCOMPARE(statuses(row), QList<ToolStatus>{status});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex(), QModelIndex(row));
        QCOMPARE(changed.first().at(1).toModelIndex(), QModelIndex(row));
        const auto roles = changed.first().at(2).value<QList<int>>();
        QVERIFY(roles.contains(TimelineModel::ToolStatusesRole));
        QVERIFY(roles.contains(TimelineModel::PartsRole));
        QVERIFY(roles.contains(TimelineModel::RevisionRole));
        QVERIFY(!roles.contains(TimelineModel::InContextRole));
    }
    reply.setCompleted(1795312761000);
    QVERIFY(test::ownRead([&] { return service->updateMessage(reply); }));
    QVERIFY(!row.data(TimelineModel::RunningRole).toBool());
    QVERIFY(!model.isRunning());
    QCOMPARE(running.size(), 2);
    QCOMPARE(inserted.size(), 1);
}

void TestTimelineModel::compactionAmongOlderMessages()
{
    // The compaction is older than the first page: found among the older messages when they are
    // listed (not walked at all when none of them is a summary), the rows paged in before its
    // marker are out of context, and the cost is the whole session's at every step.
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    // A cost on the oldest reply, which is not on the first page.
    for (Message m : test::ownRead([&] { return storeOf(*service)->messages(MainID); })) {
        if (m.isAssistant()) {
            m.setCost(0.25);
            QVERIFY(storeOf(*service)->writeMessage(m).ok());
            break;
        }
    }
    double sessionCost = 0;
    for (const Message &m : test::ownRead([&] { return storeOf(*service)->messages(MainID); }))
        sessionCost += m.cost();
    QVERIFY(sessionCost >= 0.25);
    TimelineModel model(service.get());
    model.setPageSize(2);
    QVERIFY(load(model, MainID));
    QTRY_COMPARE(model.totalMessageCount(), 30);
    QVERIFY(!model.indexForId(Summary).isValid());
    QVERIFY(!model.indexForId(CompactionUser).isValid());
    for (int row = 0; row < model.rowCount(); ++row)
        QVERIFY(model.index(row, 0).data(TimelineModel::InContextRole).toBool());
    QTRY_VERIFY(qFuzzyCompare(model.totalCost(), sessionCost)); // once the older messages are read
    QSignalSpy older(&model, &TimelineModel::olderLoaded);
    while (model.rowCount() < 30) {
        QTRY_VERIFY(model.canLoadOlder());
        model.loadOlder();
        QVERIFY(older.wait(5000));
        QVERIFY(qFuzzyCompare(model.totalCost(), sessionCost));
    }
    const int marker = model.indexForId(CompactionUser).row();
    QVERIFY(marker > 0);
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.index(row, 0).data(TimelineModel::InContextRole).toBool(), row >= marker);
    // A live change of a row recomputes both from the rows alone now.
    Message last = model.index(29, 0).data(TimelineModel::MessageRole).value<Message>();
    QVERIFY(test::ownRead([&] { return service->updateMessage(last); }));
    QVERIFY(qFuzzyCompare(model.totalCost(), sessionCost));
    QCOMPARE(model.index(marker, 0).data(TimelineModel::InContextRole).toBool(), true);
    QCOMPARE(model.index(marker - 1, 0).data(TimelineModel::InContextRole).toBool(), false);
}

void TestTimelineModel::pagesOlderMessages()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    {
        // Under QAbstractItemModelTester (which fetches more itself now and then): the pages
        // arrive one after the other until the whole session is in, with inserts only.
        TimelineModel tested(service.get());
        QAbstractItemModelTester tester(&tested, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&tested, &QAbstractItemModel::modelReset);
        tested.setPageSize(7);
        QVERIFY(load(tested, MainID));
        QSignalSpy olderPage(&tested, &TimelineModel::olderLoaded);
        while (tested.rowCount() < 30) {
            if (tested.canLoadOlder())
                tested.loadOlder();
            QVERIFY(olderPage.wait(5000));
        }
        QCOMPARE(reset.size(), 1); // setSessionID's
        QCOMPARE(tested.index(0, 0).data(TimelineModel::IdRole).toString(), u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s);
    }

    TimelineModel model(service.get());
    model.setPageSize(12);
    QVERIFY(load(model, MainID));
    // The newest page first.
    QCOMPARE(model.rowCount(), 12);
    QCOMPARE(model.totalMessageCount(), 30);
    QCOMPARE(model.index(11, 0).data(TimelineModel::IdRole).toString(), u"msg_200fa8a7c001YvrEszDPy9z9cg"_s);
    QVERIFY(model.canLoadOlder());
    const QPersistentModelIndex marker = model.indexForId(CompactionUser);
    QVERIFY(marker.isValid());
    const int markerRow = marker.row();

    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy older(&model, &TimelineModel::olderLoaded);
    model.loadOlder();
    QVERIFY(!model.canLoadOlder()); // one fetch at a time
    QVERIFY(older.wait(5000));
    QCOMPARE(model.rowCount(), 24);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 0);
    QCOMPARE(inserted.first().at(2).toInt(), 11);
    QCOMPARE(marker.row(), markerRow + 12);
    QVERIFY(model.canLoadOlder());
    model.loadOlder();
    QVERIFY(older.wait(5000));
    QCOMPARE(model.rowCount(), 30);
    QVERIFY(!model.canLoadOlder());
    QCOMPARE(reset.size(), 0);
    // Prepended rows are in order and know they are out of context.
    for (int row = 1; row < model.rowCount(); ++row)
        QVERIFY(model.index(row - 1, 0).data(TimelineModel::CreatedRole).toLongLong()
                <= model.index(row, 0).data(TimelineModel::CreatedRole).toLongLong());
    for (int row = 0; row < marker.row(); ++row)
        QVERIFY(!model.index(row, 0).data(TimelineModel::InContextRole).toBool());
    QCOMPARE(model.index(0, 0).data(TimelineModel::IdRole).toString(), u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s);
}

void TestTimelineModel::olderMessagesNotListed()
{
    // A store that does not list the older messages with the first page (a server's paged
    // answer): they are read after it, all of the session's but the rows shown, and paged in as
    // from any store; a search hit among them is found while they are read.
    test::FixtureDataDir dir;
    auto store = std::make_shared<PagedStore>(dir.path());
    auto service = std::make_shared<SessionService>(store);
    const QList<Message> all = test::ownRead([&] { return store->messages(MainID); });
    QCOMPARE(all.size(), 30);
    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPageSize(12);
    QVERIFY(load(model, MainID));
    QCOMPARE(store->calls, 1);
    QCOMPARE(model.rowCount(), 12);
    QCOMPARE(model.index(0, 0).data(TimelineModel::IdRole).toString(), all.at(18).id());
    QVERIFY(model.containsMessage(all.first().id())); // while the others are read: maybe
    QVERIFY(QTest::qWaitFor([&] { return model.totalMessageCount() == 30; }, 5000));
    QVERIFY(model.containsMessage(all.first().id()));
    QVERIFY(!model.containsMessage(u"msg_0000000000000000000000none"_s));
    // Pages are fetched until all are in (the model tester fetches too: a fetch may be under way).
    QVERIFY(QTest::qWaitFor(
        [&] {
            if (model.canLoadOlder())
                model.loadOlder();
            return model.rowCount() == 30;
        },
        10000));
    QVERIFY(!model.canLoadOlder());
    for (int row = 0; row < 30; ++row)
        QCOMPARE(model.index(row, 0).data(TimelineModel::IdRole).toString(), all.at(row).id());
}

void TestTimelineModel::newestPageFirstThenTheRest()
{
    // The first page is chosen by the creation time the message IDs carry, before any message
    // file is read. A message whose ID says "old" but whose time.created is the newest (IDs and
    // clocks can disagree) is found by the read of the other messages that follows, and becomes
    // a row where it belongs, by an insert.
    test::FixtureDataDir dir;
    auto held = std::make_shared<HeldRestStore>(dir.path());
    auto service = std::make_shared<SessionService>(held);
    const Message last = test::ownRead([&] { return storeOf(*service)->message(MainID, LastUser); }).value();
    Message odd = last;
    const qint64 oldTime = test::ownRead([&] { return storeOf(*service)->messages(MainID); }).first().created() - 60000;
    const QString oddID = Identifier::create(Identifier::Kind::Message, false, oldTime);
    odd.setId(oddID);
    JsonObject time = odd.json().object(u"time");
    time.insert(u"created"_s,
                test::ownRead([&] { return storeOf(*service)->messages(MainID); }).last().created() + 1000);
    odd.json().insert(u"time"_s, time);
    QVERIFY(storeOf(*service)->writeMessage(odd).ok());
    // A cost on the oldest reply, which is not on the first page.
    for (Message m : test::ownRead([&] { return storeOf(*service)->messages(MainID); })) {
        if (m.isAssistant()) {
            m.setCost(0.25);
            QVERIFY(storeOf(*service)->writeMessage(m).ok());
            break;
        }
    }

    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy stats(&model, &TimelineModel::statsChanged);
    model.setPageSize(12);
    QVERIFY(load(model, MainID));
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.rowCount(), 12);
    QCOMPARE(model.totalMessageCount(), 31); // the files listed
    QVERIFY(model.containsMessage(oddID));
    QVERIFY(!model.indexForId(oddID).isValid());
    // The rest comes in: the odd message is inserted as the last row, nothing is reset.
    held->release();
    // (The model tester may have fetched a page of older messages meanwhile.)
    QTRY_VERIFY(model.indexForId(oddID).isValid());
    QCOMPARE(model.indexForId(oddID).row(), model.rowCount() - 1);
    QCOMPARE(model.totalMessageCount(), 31);
    QCOMPARE(reset.size(), 1);
    QVERIFY(inserted.size() >= 2);
    QVERIFY(!stats.isEmpty());
    for (int row = 1; row < model.rowCount(); ++row) {
        const Message a = model.index(row - 1, 0).data(TimelineModel::MessageRole).value<Message>();
        const Message b = model.index(row, 0).data(TimelineModel::MessageRole).value<Message>();
        QVERIFY(messageLessThan(a, b));
    }
    // The cost is the whole session's, not the first page's.
    double cost = 0;
    for (const Message &m : test::ownRead([&] { return storeOf(*service)->messages(MainID); }))
        cost += m.cost();
    QVERIFY(cost >= 0.25);
    QVERIFY(qFuzzyCompare(model.totalCost(), cost));
    // Paging back brings the remaining 18, in order, with inserts at the top.
    while (model.canLoadOlder() || model.rowCount() < 31) {
        QSignalSpy older(&model, &TimelineModel::olderLoaded);
        if (model.canLoadOlder())
            model.loadOlder();
        QVERIFY(older.wait(5000));
    }
    QCOMPARE(model.rowCount(), 31);
    QCOMPARE(reset.size(), 1);
}

void TestTimelineModel::streamGrowsOneRow()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, MainID));

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    const QString messageID = Identifier::ascending(Identifier::Kind::Message);
    const QString partID = Identifier::ascending(Identifier::Kind::Part);
    constexpr int Deltas = 150;
    QString expected;
    for (int i = 0; i < Deltas; ++i)
        expected += u"word%1 "_s.arg(i);

    // The processor's thread: a reply, then its text growing delta by delta.
    QThread *worker = QThread::create([service, messageID, partID] {
        Message reply = Message::makeAssistant(messageID, MainID, 1795312760000, LastUser, u"fake"_s, u"m1"_s,
                                               u"build"_s, u"/home/dev/src/demo"_s, u"/home/dev/src/demo"_s);
        (void)service->updateMessage(reply);
        Part part = Part::makeText(partID, MainID, messageID, QString());
        QString text;
        for (int i = 0; i < Deltas; ++i) {
            const QString delta = u"word%1 "_s.arg(i);
            text += delta;
            part.setText(text);
            (void)service->updatePart(part, delta);
        }
    });
    worker->start();
    QVERIFY(worker->wait(20000));
    delete worker;
    QTRY_COMPARE(model.index(model.rowCount() - 1, 0).data(TimelineModel::TextRole).toString(), expected);

    QCOMPARE(reset.size(), 0);
    QCOMPARE(removed.size(), 0);
    QCOMPARE(inserted.size(), 1); // the reply's row, once
    const int row = model.rowCount() - 1;
    QCOMPARE(row, 30);
    QVERIFY(!changed.isEmpty());
    for (const QList<QVariant> &args : std::as_const(changed)) {
        QCOMPARE(args.at(0).toModelIndex().row(), row);
        QCOMPARE(args.at(1).toModelIndex().row(), row);
        const auto roles = args.at(2).value<QList<int>>();
        QVERIFY(roles.contains(TimelineModel::PartsRole));
        QVERIFY(roles.contains(TimelineModel::TextRole));
        QVERIFY(!roles.contains(TimelineModel::IdRole));
        QVERIFY(!roles.contains(TimelineModel::InContextRole));
    }
    // The model coalesces nothing itself (the processor announces at most one delta per part and
    // frame): one change per announcement, and a text that grew changes only the text roles.
    QVERIFY2(changed.size() <= Deltas + 1, qPrintable(u"%1 dataChanged for %2 deltas"_s.arg(changed.size()).arg(Deltas)));
    const QList<int> textRoles{Qt::DisplayRole, TimelineModel::TextRole, TimelineModel::MarkdownRole,
                               TimelineModel::PartsRole, TimelineModel::RevisionRole};
    QCOMPARE(changed.last().at(2).value<QList<int>>(), textRoles);
}

void TestTimelineModel::otherProcessWrites()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, MainID));
    // Showing a session of a live store follows it.
    QVERIFY(service->watcher());
    QSignalSpy announced(service.get(), &SessionService::partUpdated);

    // "Another process": its own store over the same folder, not through this service.
    JsonStore other(dir.path());
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const QModelIndex last = model.index(29, 0);
    QList<Part> parts = last.data(TimelineModel::PartsRole).value<QList<Part>>();
    Part text;
    for (const Part &p : parts) {
        if (p.type() == PartType::Text)
            text = p;
    }
    QVERIFY(!text.isNull());
    text.setText(text.text() + u" And one more sentence."_s);
    QVERIFY(other.writePart(text));
    QTRY_VERIFY_WITH_TIMEOUT(last.data(TimelineModel::TextRole).toString().endsWith(u"And one more sentence."_s), 5000);
    for (const QList<QVariant> &args : std::as_const(changed))
        QCOMPARE(args.at(0).toModelIndex().row(), 29);

    // A new message and its part.
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const Message user = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), MainID, 1795312770000,
                                           u"build"_s, u"fake"_s, u"m1"_s);
    QVERIFY(other.writeMessage(user));
    QVERIFY(other.writePart(
        Part::makeText(Identifier::ascending(Identifier::Kind::Part), MainID, user.id(), u"From OpenCode"_s)));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 31, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(model.index(30, 0).data(TimelineModel::TextRole).toString(), u"From OpenCode"_s, 5000);
    QCOMPARE(inserted.size(), 1);

    // Removed by the other process.
    QVERIFY(other.removeMessage(MainID, user.id()));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 30, 5000);
    QCOMPARE(reset.size(), 0);

    // Weft's own writes are announced once, by the service, and never come back from the files.
    announced.clear();
    text.setText(text.text() + u" Written by Weft."_s);
    QVERIFY(test::ownRead([&] { return service->updatePart(text); }));
    QVERIFY(test::ownRead([&] { return service->updateMessage(user); }));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 31, 5000);
    QVERIFY(test::ownRead([&] { return service->removeMessage(MainID, user.id()); }));
    QCOMPARE(announced.size(), 1);
    QSignalSpy messages(service.get(), &SessionService::messageUpdated);
    QSignalSpy removals(service.get(), &SessionService::messageRemoved);
    // Then the other process writes: once the watcher reports that, it has read past Weft's
    // own writes (it reads changes in the order they came).
    text.setText(text.text() + u" Then OpenCode's."_s);
    QVERIFY(other.writePart(text));
    QTRY_VERIFY_WITH_TIMEOUT(
        model.index(29, 0).data(TimelineModel::TextRole).toString().endsWith(u"Then OpenCode's."_s), 5000);
    QCOMPARE(announced.size(), 2);
    QCOMPARE(messages.size(), 0);
    QCOMPARE(removals.size(), 0);
    QCOMPARE(model.rowCount(), 30);
}

void TestTimelineModel::switchingSessionsResets()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    TimelineModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, MainID));
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QVERIFY(load(model, u"ses_dff057405ffesKzX5TtUsbqkQ3"_s));
    QCOMPARE(reset.size(), 1);
    QVERIFY(model.rowCount() > 0);
    // Changes to other sessions do not touch this one.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QVERIFY(service->updateMessage(Message::makeUser(Identifier::ascending(Identifier::Kind::Message), MainID,
                                                     1795312770000, u"build"_s, u"fake"_s, u"m1"_s)));
    QCOMPARE(changed.size(), 0);
    QCOMPARE(inserted.size(), 0);
    model.setSessionID({});
    QCOMPARE(model.rowCount(), 0);
}

// QTEST_MAIN: QAbstractItemModelTester looks at QtGui types (colours, fonts) in data().
QTEST_MAIN(TestTimelineModel)
#include "tst_timelinemodel.moc"
