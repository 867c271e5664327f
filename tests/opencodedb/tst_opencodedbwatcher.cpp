// SPDX-License-Identifier: GPL-3.0-or-later
// OpencodeDbWatcher: following an OpenCode database while a writer thread appends to it the way
// OpenCode does (WAL mode, its own connection, one short transaction per change).

#include "opencodedb/opencodedbstore.h"
#include "opencodedb/opencodedbwatcher.h"
#include "session/sessionservice.h"
#include "testdata.h"
#include "testdb.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::TestDb;

namespace
{

const QString SessionID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;

JsonObject sessionJson(const QString &id, const QString &title, qint64 now)
{
    return JsonObject{{u"id"_s, id},
                      {u"slug"_s, u"live-test"_s},
                      {u"version"_s, u"1.18.34"_s},
                      {u"projectID"_s, u"global"_s},
                      {u"directory"_s, u"/home/dev/src/demo"_s},
                      {u"title"_s, title},
                      {u"time"_s, JsonObject{{u"created"_s, now}, {u"updated"_s, now}}}};
}

JsonObject messageJson(const QString &id, const QString &sessionID, qint64 now)
{
    return JsonObject{{u"id"_s, id},
                      {u"sessionID"_s, sessionID},
                      {u"role"_s, u"user"_s},
                      {u"time"_s, JsonObject{{u"created"_s, now}}},
                      {u"agent"_s, u"build"_s},
                      {u"model"_s, JsonObject{{u"providerID"_s, u"fake"_s}, {u"modelID"_s, u"m1"_s}}}};
}

JsonObject textPart(const QString &id, const QString &sessionID, const QString &messageID, const QString &text, qint64 start)
{
    return JsonObject{{u"id"_s, id},
                      {u"sessionID"_s, sessionID},
                      {u"messageID"_s, messageID},
                      {u"type"_s, u"text"_s},
                      {u"text"_s, text},
                      {u"time"_s, JsonObject{{u"start"_s, start}}}};
}

QString messageId(int i)
{
    return u"msg_20%1AAAAAAAAAAAAAA"_s.arg(i, 10, 16, QChar(u'0'));
}

/// The ID of a V2 row (`session_message`), in OpenCode's format.
QString v2MessageId(int i)
{
    return u"msg_30fbce8%1001ULyKl3c0vZPkc1"_s.arg(i, 2, 16, QChar(u'0'));
}

JsonObject v2UserData(const QString &text, qint64 now)
{
    return JsonObject{{u"time"_s, JsonObject{{u"created"_s, now}}}, {u"text"_s, text}};
}

JsonObject v2AssistantData(const QString &text, qint64 now)
{
    return JsonObject{
        {u"time"_s, JsonObject{{u"created"_s, now}}},
        {u"agent"_s, u"build"_s},
        {u"model"_s, JsonObject{{u"id"_s, u"m1"_s}, {u"providerID"_s, u"fake"_s}}},
        {u"content"_s, JsonArray{JsonObject{{u"type"_s, u"text"_s}, {u"id"_s, u"text-0"_s}, {u"text"_s, text}}}}};
}

QString partId(int m, int p)
{
    return u"prt_20%1%2AAAAAAAAAAAAAA"_s.arg(m, 6, 16, QChar(u'0')).arg(p, 4, 16, QChar(u'0'));
}

/// Writes like OpenCode streaming a reply: a session, then messages, each with text parts
/// whose text grows in many small committed updates.
class Writer : public QThread
{
public:
    Writer(const QString &file, const QElapsedTimer &clock, int messages, int parts, int updates)
        : m_file(file), m_clock(clock), m_messages(messages), m_parts(parts), m_updates(updates)
    {
    }

    struct Commit {
        QString text;
        qint64 at;
    };
    QMutex mutex;
    QHash<QString, QList<Commit>> commits; // part ID -> each committed text
    QStringList messageIDs;
    QString error;

protected:
    void run() override
    {
        TestDb db(m_file, weft::test::SchemaAge::V1_15_13, false);
        auto fail = [&] {
            QMutexLocker locker(&mutex);
            error = db.error();
        };
        auto now = [] { return QDateTime::currentMSecsSinceEpoch(); };
        db.begin();
        if (!db.insertSession(sessionJson(SessionID, u"live"_s, now())) || !db.commit())
            return fail();
        for (int m = 0; m < m_messages; ++m) {
            const QString mid = messageId(m + 1);
            db.begin();
            if (!db.insertMessage(messageJson(mid, SessionID, now()), now()) || !db.commit())
                return fail();
            {
                QMutexLocker locker(&mutex);
                messageIDs.append(mid);
            }
            for (int p = 0; p < m_parts; ++p) {
                const QString pid = partId(m + 1, p + 1);
                QString text;
                for (int u = 0; u <= m_updates; ++u) {
                    if (u > 0)
                        text += u"word%1 "_s.arg(u);
                    db.begin();
                    if (!db.insertPart(textPart(pid, SessionID, mid, text, now()), now()) || !db.commit())
                        return fail();
                    {
                        QMutexLocker locker(&mutex);
                        commits[pid].append({text, m_clock.elapsed()});
                    }
                    QThread::msleep(2 + (u % 5));
                }
            }
        }
    }

private:
    QString m_file;
    QElapsedTimer m_clock;
    int m_messages, m_parts, m_updates;
};

qint64 percentile(QList<qint64> values, double p)
{
    if (values.isEmpty())
        return -1;
    std::sort(values.begin(), values.end());
    return values.at(qMin<qsizetype>(values.size() - 1, qsizetype(p * double(values.size()))));
}

const QString ExistingID = u"ses_dff05751fffexgWr6MRybGFAXU"_s;

struct Fixture {
    QTemporaryDir dir;
    QString file;
    std::unique_ptr<TestDb> db;
    std::shared_ptr<OpencodeDbStore> store;
    int barriers = 0;

    bool setUp()
    {
        file = dir.filePath(u"opencode.db"_s);
        db = std::make_unique<TestDb>(file);
        if (!db->isOk())
            return false;
        const qint64 now = QDateTime::currentMSecsSinceEpoch() - 60000;
        db->insertSession(sessionJson(u"ses_dff05751fffexgWr6MRybGFAXU"_s, u"existing"_s, now));
        db->insertMessage(messageJson(messageId(900), u"ses_dff05751fffexgWr6MRybGFAXU"_s, now), now);
        db->insertPart(textPart(partId(900, 1), u"ses_dff05751fffexgWr6MRybGFAXU"_s, messageId(900), u"old"_s, now), now);
        auto opened = OpencodeDbStore::open(file);
        if (!opened)
            return false;
        store = opened.value();
        return true;
    }
};

/// The text of the barrier part (barrier()).
bool isBarrier(const Part &part)
{
    return part.id() == partId(900, 1) && part.text().startsWith(u"barrier "_s);
}

/// Waits, with no sleep, until @p service has announced all that was committed to @p f's
/// database before: a full read is asked for, then one more change committed (the existing
/// session's part, its text "barrier <n>"). The watcher reads one read after another and
/// announces in that order, so once the barrier is announced, every read before it has been.
bool barrier(Fixture &f, SessionService &service)
{
    auto *watcher = qobject_cast<OpencodeDbWatcher *>(service.watcher());
    if (!watcher)
        return false;
    bool seen = false;
    const QString text = u"barrier %1"_s.arg(++f.barriers);
    const QMetaObject::Connection c
        = QObject::connect(&service, &SessionService::partUpdated, &service,
                           [&](const Part &p) { seen |= isBarrier(p) && p.text() == text; });
    watcher->rescan();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const bool ok = f.db->insertPart(textPart(partId(900, 1), ExistingID, messageId(900), text, now), now)
        && QTest::qWaitFor([&] { return seen; }, 5000);
    QObject::disconnect(c);
    return ok;
}

/// Starts following @p f's database and rescans it: nothing of what it held at the start may
/// be reported, and a full scan must have run.
void expectNothingReported(Fixture &f)
{
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    watcher.setFullScanInterval(50);
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QList<StoreChange> reported;
    QObject::connect(&watcher, &OpencodeDbWatcher::changed, &watcher,
                     [&](const QList<StoreChange> &changes) { reported += changes; });
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    QVERIFY(barrier(f, service)); // a full scan, then the barrier
    // Only the barrier.
    QCOMPARE(reported.size(), 1);
    QCOMPARE(reported.first().kind, StoreChange::Kind::PartUpdated);
    QVERIFY(isBarrier(reported.first().part));
    QVERIFY(watcher.stats().fullScans >= 1);
}

} // namespace

class TestOpencodeDbWatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void followsAWriterThread();
    void nothingReportedForExistingRows();
    void sessionLifecycle();
    void lateCommitWithAnOlderStamp();
    void oldRowFoundByFullScan();
    void deletedMessageReloadsSession();
    void followsAcrossWalRecreation();
    void storeMakesTheWatcher();
    void followsV2Rows();
    void nothingReportedForExistingV2Rows();
    void deletedV2RowReloadsSession();
    void followsSessionV2();
};

void TestOpencodeDbWatcher::followsAWriterThread()
{
    Fixture f;
    QVERIFY(f.setUp());
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QElapsedTimer clock;
    clock.start();
    struct Arrival {
        QString text;
        QString delta;
        qint64 at;
    };
    QHash<QString, QList<Arrival>> arrivals;
    QSet<QString> messages;
    QStringList problems;
    int sessionsCreated = 0;
    connect(&service, &SessionService::partUpdated, this, [&](const Part &p, const QString &delta) {
        arrivals[p.id()].append({p.text(), delta, clock.elapsed()});
    });
    connect(&service, &SessionService::messageUpdated, this, [&](const Message &m) { messages.insert(m.id()); });
    connect(&service, &SessionService::sessionCreated, this, [&](const Session &s) { sessionsCreated += s.id() == SessionID; });
    connect(&service, &SessionService::problemFound, this, [&](const QString &where, const QString &why) { problems.append(where + u": "_s + why); });
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));

    const int messageCount = 4, partCount = 3, updates = 25;
    Writer writer(f.file, clock, messageCount, partCount, updates);
    // The GUI keeps reading while OpenCode writes: no reader may ever be refused.
    QTimer reader;
    int reads = 0;
    connect(&reader, &QTimer::timeout, this, [&] {
        (void)f.store->messagesWithParts(SessionID);
        ++reads;
    });
    reader.start(15);
    writer.start();
    // Waiting with the event loop running: the signals arrive while the writer writes.
    QTRY_VERIFY_WITH_TIMEOUT(writer.isFinished(), 60000);
    reader.stop();
    QVERIFY2(writer.error.isEmpty(), qPrintable(writer.error));

    // Every part reaches its final text.
    QTRY_VERIFY_WITH_TIMEOUT(
        std::all_of(writer.commits.keyBegin(), writer.commits.keyEnd(),
                    [&](const QString &id) { return !arrivals.value(id).isEmpty() && arrivals.value(id).last().text == writer.commits.value(id).last().text; }),
        5000);
    QVERIFY(barrier(f, service)); // anything late would show up as a duplicate now
    arrivals.remove(partId(900, 1));
    QCOMPARE(arrivals.size(), messageCount * partCount);
    QCOMPARE(sessionsCreated, 1);
    QCOMPARE(messages, QSet<QString>(writer.messageIDs.cbegin(), writer.messageIDs.cend()));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; ")));
    QVERIFY(f.store->problems().isEmpty());
    QVERIFY(reads > 10);

    QList<qint64> latencies;
    qsizetype reported = 0, committed = 0;
    for (auto it = arrivals.constBegin(); it != arrivals.constEnd(); ++it) {
        const QList<Writer::Commit> commits = writer.commits.value(it.key());
        committed += commits.size();
        QSet<QString> seen;
        QString previous;
        for (qsizetype i = 0; i < it.value().size(); ++i) {
            const Arrival &a = it.value().at(i);
            QVERIFY2(!seen.contains(a.text), "the same state reported twice");
            seen.insert(a.text);
            // Deltas rebuild the text from the first report on.
            if (i > 0) {
                QVERIFY(a.text.startsWith(previous));
                QCOMPARE(previous + a.delta, a.text);
            }
            previous = a.text;
            const auto commit = std::find_if(commits.cbegin(), commits.cend(), [&](const Writer::Commit &c) { return c.text == a.text; });
            QVERIFY2(commit != commits.cend(), "a reported state was never written");
            latencies.append(a.at - commit->at);
        }
        reported += it.value().size();
    }
    // Every commit counts: the time until a report showed it (coalesced commits are shown by the
    // report of a later state, whose text contains theirs).
    QList<qint64> visible;
    for (auto it = writer.commits.constBegin(); it != writer.commits.constEnd(); ++it) {
        const QList<Arrival> reports = arrivals.value(it.key());
        for (const Writer::Commit &c : it.value()) {
            const auto shown = std::find_if(reports.cbegin(), reports.cend(),
                                            [&](const Arrival &a) { return a.at >= c.at && a.text.startsWith(c.text); });
            QVERIFY2(shown != reports.cend(), "a commit never became visible");
            visible.append(shown->at - c.at);
        }
    }
    const auto stats = watcher.stats();
    qInfo().noquote() << u"follower: %1 commits, %2 part states reported (bursts coalesced), %3 reads (%4 full scans, %5 skipped wake-ups)"_s
                             .arg(committed).arg(reported).arg(stats.polls).arg(stats.fullScans).arg(stats.skipped);
    qInfo().noquote() << u"latency of reported states, commit -> signal (ms): median %1, p95 %2, max %3; last read %4 us"_s
                             .arg(percentile(latencies, 0.5)).arg(percentile(latencies, 0.95)).arg(percentile(latencies, 1.0)).arg(stats.lastPollUs);
    qInfo().noquote() << u"latency of every commit until shown (ms): median %1, p95 %2, max %3"_s
                             .arg(percentile(visible, 0.5)).arg(percentile(visible, 0.95)).arg(percentile(visible, 1.0));
    QVERIFY(percentile(visible, 0.5) < 250);
    QVERIFY2(percentile(visible, 0.95) < 500, "a committed change shows within 500 ms");
}

void TestOpencodeDbWatcher::nothingReportedForExistingRows()
{
    Fixture f;
    QVERIFY(f.setUp());
    // Rows written just before the start are inside the overlap window: still not reported.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"fresh"_s, now)));
    QVERIFY(f.db->insertMessage(messageJson(messageId(1), SessionID, now), now));
    QVERIFY(f.db->insertPart(textPart(partId(1, 1), SessionID, messageId(1), u"hello"_s, now), now));
    expectNothingReported(f);
}

void TestOpencodeDbWatcher::sessionLifecycle()
{
    Fixture f;
    QVERIFY(f.setUp());
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QSignalSpy created(&service, &SessionService::sessionCreated);
    QSignalSpy updated(&service, &SessionService::sessionUpdated);
    QSignalSpy deleted(&service, &SessionService::sessionDeleted);
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"first title"_s, now)));
    QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 3000);
    QCOMPARE(created.at(0).at(0).value<Session>().title(), u"first title"_s);
    QVERIFY(f.db->exec(u"UPDATE session SET title = 'renamed', time_updated = ? WHERE id = ?"_s, {now + 5, SessionID}));
    QTRY_COMPARE_WITH_TIMEOUT(updated.count(), 1, 3000);
    QCOMPARE(updated.at(0).at(0).value<Session>().title(), u"renamed"_s);
    QVERIFY(f.db->exec(u"DELETE FROM session WHERE id = ?"_s, {SessionID}));
    QTRY_COMPARE_WITH_TIMEOUT(deleted.count(), 1, 3000);
    QCOMPARE(deleted.at(0).at(0).value<Session>().id(), SessionID);
    QVERIFY(barrier(f, service));
    QCOMPARE(created.count(), 1);
    QCOMPARE(updated.count(), 1);
}

void TestOpencodeDbWatcher::lateCommitWithAnOlderStamp()
{
    // A second OpenCode process commits a row stamped before rows already seen.
    Fixture f;
    QVERIFY(f.setUp());
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QSignalSpy parts(&service, &SessionService::partUpdated);
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"s"_s, now)));
    QVERIFY(f.db->insertMessage(messageJson(messageId(1), SessionID, now), now));
    QVERIFY(f.db->insertPart(textPart(partId(1, 1), SessionID, messageId(1), u"newer"_s, now), now));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 1, 3000);
    // An update of an existing row, stamped 3 s in the past, committed now.
    QVERIFY(f.db->insertPart(textPart(partId(900, 1), u"ses_dff05751fffexgWr6MRybGFAXU"_s, messageId(900), u"old, updated late"_s, now - 3000), now - 3000));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 2, 3000);
    QCOMPARE(parts.at(1).at(0).value<Part>().text(), u"old, updated late"_s);
}

void TestOpencodeDbWatcher::oldRowFoundByFullScan()
{
    // An update of a row far behind the newest ones (a compaction marking an old tool output):
    // the quick reads do not look there; the full scan does.
    Fixture f;
    QVERIFY(f.setUp());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->begin());
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"s"_s, now - 60000)));
    QVERIFY(f.db->insertMessage(messageJson(messageId(1), SessionID, now - 60000), now - 60000));
    for (int p = 0; p < 2500; ++p)
        QVERIFY(f.db->insertPart(textPart(partId(1, p + 1), SessionID, messageId(1), u"part %1"_s.arg(p), now - 60000), now - 60000));
    QVERIFY(f.db->commit());
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    watcher.setFullScanInterval(300);
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QSignalSpy parts(&service, &SessionService::partUpdated);
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    QVERIFY(f.db->insertPart(textPart(partId(1, 1), SessionID, messageId(1), u"part 0, compacted"_s, now), QDateTime::currentMSecsSinceEpoch()));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 1, 3000);
    QCOMPARE(parts.at(0).at(0).value<Part>().id(), partId(1, 1));
    QVERIFY(watcher.stats().fullScans >= 1);
    // Later full scans do not report it again: only the barrier follows.
    QVERIFY(barrier(f, service));
    QCOMPARE(parts.count(), 2);
    QVERIFY(isBarrier(parts.at(1).at(0).value<Part>()));
}

void TestOpencodeDbWatcher::deletedMessageReloadsSession()
{
    Fixture f;
    QVERIFY(f.setUp());
    const qint64 now = QDateTime::currentMSecsSinceEpoch() - 30000;
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"s"_s, now)));
    for (int m = 1; m <= 3; ++m) {
        QVERIFY(f.db->insertMessage(messageJson(messageId(m), SessionID, now + m), now + m));
        QVERIFY(f.db->insertPart(textPart(partId(m, 1), SessionID, messageId(m), u"t"_s, now + m), now + m));
    }
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    watcher.setFullScanInterval(100);
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QSignalSpy changed(&service, &SessionService::sessionChangedExternally);
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    const qint64 scans = watcher.stats().fullScans;
    watcher.rescan(); // takes the per-session counts
    QTRY_VERIFY(watcher.stats().fullScans > scans);
    // A revert's cleanup: the messages after the cut are deleted.
    QVERIFY(f.db->exec(u"DELETE FROM part WHERE message_id = ?"_s, {messageId(3)}));
    QVERIFY(f.db->exec(u"DELETE FROM message WHERE id = ?"_s, {messageId(3)}));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 3000);
    QCOMPARE(changed.at(0).at(0).toString(), SessionID);
}

void TestOpencodeDbWatcher::followsAcrossWalRecreation()
{
    // OpenCode quits and starts again: its connection closes (with a checkpoint that truncates
    // the -wal) and a new one writes. Should the -wal disappear under the reader (it cannot
    // while Weft's connection is open, but a copy or a restore can replace the files), the
    // reader reconnects. The watcher keeps following in every case.
    Fixture f;
    QVERIFY(f.setUp());
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QSignalSpy parts(&service, &SessionService::partUpdated);
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"s"_s, now)));
    QVERIFY(f.db->insertMessage(messageJson(messageId(1), SessionID, now), now));
    QVERIFY(f.db->insertPart(textPart(partId(1, 1), SessionID, messageId(1), u"before"_s, now), now));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 1, 3000);
    QVERIFY(f.db->exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s));
    f.db.reset(); // OpenCode quits
    // The watcher reads while it is gone.
    const auto reads = [&watcher] { return watcher.stats().polls + watcher.stats().skipped; };
    const qint64 before = reads();
    watcher.pollNow();
    QTRY_VERIFY(reads() > before);
    f.db = std::make_unique<TestDb>(f.file, weft::test::SchemaAge::V1_15_13, false); // and starts again
    const qint64 later = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertPart(textPart(partId(1, 2), SessionID, messageId(1), u"after restart"_s, later), later));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 2, 3000);
    QCOMPARE(parts.at(1).at(0).value<Part>().text(), u"after restart"_s);

    // The files replaced under the reader: checkpointed, closed, the -wal and -shm removed.
    QVERIFY(f.db->exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s));
    f.db.reset();
    QFile::remove(f.file + u"-wal"_s);
    QFile::remove(f.file + u"-shm"_s);
    f.db = std::make_unique<TestDb>(f.file, weft::test::SchemaAge::V1_15_13, false);
    const qint64 latest = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertPart(textPart(partId(1, 3), SessionID, messageId(1), u"after replacement"_s, latest), latest));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 3, 5000);
    QCOMPARE(parts.at(2).at(0).value<Part>().text(), u"after replacement"_s);
}

void TestOpencodeDbWatcher::storeMakesTheWatcher()
{
    Fixture f;
    QVERIFY(f.setUp());
    SessionService service(f.store);
    QVERIFY(service.has(StoreCapability::Live));
    QSignalSpy started(&service, &SessionService::watchingStarted);
    QSignalSpy created(&service, &SessionService::sessionCreated);
    QSignalSpy messages(&service, &SessionService::messageUpdated);
    QSignalSpy parts(&service, &SessionService::partUpdated);
    service.startWatching();
    QVERIFY(qobject_cast<OpencodeDbWatcher *>(service.watcher()));
    QVERIFY(started.wait(5000));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"s"_s, now)));
    QVERIFY(f.db->insertMessage(messageJson(messageId(1), SessionID, now), now));
    QVERIFY(f.db->insertPart(textPart(partId(1, 1), SessionID, messageId(1), u"Hello"_s, now), now));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 1, 3000);
    QVERIFY(f.db->insertPart(textPart(partId(1, 1), SessionID, messageId(1), u"Hello, world"_s, now), now + 1));
    QTRY_COMPARE_WITH_TIMEOUT(parts.count(), 2, 3000);
    QCOMPARE(created.count(), 1);
    QCOMPARE(messages.count(), 1);
    QCOMPARE(parts.at(1).at(0).value<Part>().text(), u"Hello, world"_s);
    QCOMPARE(parts.at(1).at(1).toString(), u", world"_s);
    // What the service lists now is what the watcher announced; stopping ends the announcements.
    QCOMPARE(service.messages(SessionID).first().parts.first().text(), u"Hello, world"_s);
    service.stopWatching();
    QVERIFY(!service.watcher());
    QVERIFY(f.db->insertPart(textPart(partId(1, 2), SessionID, messageId(1), u"unseen"_s, now), now + 2));
    QCoreApplication::sendPostedEvents(); // whatever was on its way
    QCOMPARE(parts.count(), 2);
}

void TestOpencodeDbWatcher::followsV2Rows()
{
    // A session prompted through OpenCode's V2 API: a user row, then an assistant row whose
    // text grows in three commits, arrive as the V1 message and parts every read maps them to.
    Fixture f;
    QVERIFY(f.setUp());
    QVERIFY(f.store->hasV2());
    SessionService service(f.store);
    QSignalSpy started(&service, &SessionService::watchingStarted);
    QList<Message> messages;
    struct Arrival
    {
        QString text;
        QString delta;
    };
    QList<Arrival> texts;
    QStringList problems;
    connect(&service, &SessionService::messageUpdated, this, [&](const Message &m) { messages.append(m); });
    connect(&service, &SessionService::partUpdated, this, [&](const Part &p, const QString &delta) {
        if (p.type() == PartType::Text && p.messageID() == v2MessageId(2))
            texts.append({p.text(), delta});
    });
    connect(&service, &SessionService::problemFound, this,
            [&](const QString &where, const QString &why) { problems.append(where + u": "_s + why); });
    service.startWatching();
    QVERIFY(started.wait(5000));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"v2"_s, now)));
    QVERIFY(f.db->insertSessionMessage(v2MessageId(1), SessionID, u"user"_s, 1, v2UserData(u"say hello"_s, now), now));
    QTRY_COMPARE_WITH_TIMEOUT(messages.size(), 1, 5000);
    QCOMPARE(messages.at(0).id(), v2MessageId(1));
    QVERIFY(messages.at(0).isUser());

    const QStringList states{u"Hello"_s, u"Hello, world"_s, u"Hello, world!"_s};
    for (qsizetype i = 0; i < states.size(); ++i) {
        QVERIFY(f.db->insertSessionMessage(v2MessageId(2), SessionID, u"assistant"_s, 2,
                                           v2AssistantData(states.at(i), now + 1), now + 1, now + 2 + i));
        QTRY_COMPARE_WITH_TIMEOUT(texts.size(), i + 1, 5000);
    }
    QVERIFY(barrier(f, service)); // anything late would show up as a duplicate now
    QCOMPARE(texts.size(), 3);
    QCOMPARE(texts.at(0).text, u"Hello"_s);
    QCOMPARE(texts.at(1).text, u"Hello, world"_s);
    QCOMPARE(texts.at(1).delta, u", world"_s);
    QCOMPARE(texts.at(2).text, u"Hello, world!"_s);
    QCOMPARE(texts.at(2).delta, u"!"_s);
    // The assistant message once (its V1 form does not change while the text grows), and the
    // user message again with the agent of the answer.
    const auto count = [&](const QString &id) {
        return std::count_if(messages.cbegin(), messages.cend(), [&](const Message &m) { return m.id() == id; });
    };
    QCOMPARE(count(v2MessageId(2)), 1);
    QCOMPARE(count(v2MessageId(1)), 2);
    QCOMPARE(messages.last().id(), v2MessageId(1));
    QCOMPARE(messages.last().json().string(u"agent"), u"build"_s);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; ")));

    // What the service lists is what the watcher announced.
    const QList<MessageWithParts> listed = service.messages(SessionID);
    QCOMPARE(listed.size(), 2);
    const auto text = std::find_if(listed.last().parts.cbegin(), listed.last().parts.cend(),
                                   [](const Part &p) { return p.type() == PartType::Text; });
    QVERIFY(text != listed.last().parts.cend());
    QCOMPARE(text->text(), u"Hello, world!"_s);
}

void TestOpencodeDbWatcher::nothingReportedForExistingV2Rows()
{
    Fixture f;
    QVERIFY(f.setUp());
    // V2 rows written just before the start are inside the overlap window: still not reported.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"fresh"_s, now)));
    QVERIFY(f.db->insertSessionMessage(v2MessageId(1), SessionID, u"user"_s, 1, v2UserData(u"hi"_s, now), now));
    QVERIFY(f.db->insertSessionMessage(v2MessageId(2), SessionID, u"assistant"_s, 2, v2AssistantData(u"hello"_s, now),
                                       now));
    expectNothingReported(f);
}

void TestOpencodeDbWatcher::deletedV2RowReloadsSession()
{
    Fixture f;
    QVERIFY(f.setUp());
    const qint64 now = QDateTime::currentMSecsSinceEpoch() - 30000;
    QVERIFY(f.db->insertSession(sessionJson(SessionID, u"s"_s, now)));
    for (int m = 1; m <= 4; ++m) {
        const bool user = m % 2 == 1;
        QVERIFY(f.db->insertSessionMessage(v2MessageId(m), SessionID, user ? u"user"_s : u"assistant"_s, m,
                                           user ? v2UserData(u"q"_s, now + m) : v2AssistantData(u"a"_s, now + m),
                                           now + m));
    }
    SessionService service(f.store);
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(f.store); // the service takes it over at start
    watcher.setFullScanInterval(100);
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QSignalSpy changed(&service, &SessionService::sessionChangedExternally);
    QSignalSpy messages(&service, &SessionService::messageUpdated);
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    const qint64 scans = watcher.stats().fullScans;
    watcher.rescan(); // takes the per-session counts
    QTRY_VERIFY(watcher.stats().fullScans > scans);
    // A revert's cleanup: the rows after the cut are deleted.
    QVERIFY(f.db->exec(u"DELETE FROM session_message WHERE id = ?"_s, {v2MessageId(4)}));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 5000);
    QCOMPARE(changed.at(0).at(0).toString(), SessionID);
    QCOMPARE(messages.count(), 0);
}

void TestOpencodeDbWatcher::followsSessionV2()
{
    // An OpenCode 2.0.x database (tests/data/opencode-2.0-sessionv2): new session_v2 rows, a V1
    // session written beside them (not migrated), then its copy in session_v2 (migrated).
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode.db"_s);
    QVERIFY(QFile::copy(weft::test::realFixtureDir(u"2.0-sessionv2"_s) + u"/opencode.db"_s, file));
    QFile(file).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    TestDb db(file, weft::test::SchemaAge::V1_15_13, false);
    QVERIFY(db.isOk());
    const auto opened = OpencodeDbStore::open(file);
    QVERIFY(opened);
    SessionService service(opened.value());
    OpencodeDbWatcher &watcher = *new OpencodeDbWatcher(opened.value()); // the service takes it over at start
    QSignalSpy started(&watcher, &OpencodeDbWatcher::started);
    QSignalSpy created(&service, &SessionService::sessionCreated);
    QSignalSpy updated(&service, &SessionService::sessionUpdated);
    service.startWatching(&watcher);
    QVERIFY(started.wait(5000));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QString v2 = u"ses_5000000000000newV2EEEEEEEE"_s;
    QVERIFY(db.exec(u"INSERT INTO session_v2 (id, project_id, slug, directory, title, version, time_created, time_updated) "
                    u"VALUES (?, 'prj_demo', 'new', '/home/dev/src/demo', 'new in V2', '2.0.25', ?, ?)"_s,
                    {v2, now, now}));
    QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 3000);
    QCOMPARE(created.at(0).at(0).value<Session>().id(), v2);
    QVERIFY(!created.at(0).at(0).value<Session>().isNotMigrated());
    QVERIFY(db.insertSession(sessionJson(SessionID, u"written by 1.18"_s, now + 10)));
    QTRY_COMPARE_WITH_TIMEOUT(created.count(), 2, 3000);
    QCOMPARE(created.at(1).at(0).value<Session>().id(), SessionID);
    QVERIFY(created.at(1).at(0).value<Session>().isNotMigrated());
    QVERIFY(db.exec(u"INSERT INTO session_v2 (id, project_id, slug, directory, title, version, time_created, time_updated) "
                    u"VALUES (?, 'prj_demo', 'late', '/home/dev/src/demo', 'migrated late', '2.0.25', ?, ?)"_s,
                    {SessionID, now + 10, now + 20}));
    QTRY_COMPARE_WITH_TIMEOUT(updated.count(), 1, 3000);
    QCOMPARE(updated.at(0).at(0).value<Session>().title(), u"migrated late"_s);
    QVERIFY(!updated.at(0).at(0).value<Session>().isNotMigrated());
    QCOMPARE(created.count(), 2);
}

QTEST_GUILESS_MAIN(TestOpencodeDbWatcher)
#include "tst_opencodedbwatcher.moc"
