// SPDX-License-Identifier: GPL-3.0-or-later
// weft::parallelFor and weft::ParallelMap (model/core/parallel.h): every index (item) once, on
// more than one thread when the pool has room, and never a deadlock when it has none (called from
// a pool thread, or with every pool thread busy). ParallelMap keeps the order of its items and
// maps them while the producer still adds more.

#include "core/parallel.h"

#include <QMutex>
#include <QSet>
#include <QTest>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <vector>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
/// Every thread of the global pool blocked until this goes away.
class BlockedPool
{
public:
    BlockedPool()
    {
        for (int i = 0; i < QThreadPool::globalInstance()->maxThreadCount(); ++i)
            m_blockers.append(QtConcurrent::run([this] { m_release.acquire(); }));
    }
    ~BlockedPool()
    {
        m_release.release(int(m_blockers.size()));
        for (QFuture<void> &f : m_blockers)
            f.waitForFinished();
    }
    /// True once every pool thread runs a blocker (within five seconds).
    bool waitUntilFull()
    {
        QThreadPool *pool = QThreadPool::globalInstance();
        return QTest::qWaitFor([pool] { return pool->activeThreadCount() == pool->maxThreadCount(); }, 5000);
    }

private:
    QSemaphore m_release;
    QList<QFuture<void>> m_blockers;
};
} // namespace

class TestParallel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyIndexOnce_data();
    void everyIndexOnce();
    void usesSeveralThreads();
    void busyPoolRunsOnCaller();
    void nestedInPoolThread();
    void mapKeepsOrder_data();
    void mapKeepsOrder();
    void mapWhileProducing();
    void mapWithBusyPool();
    void mapDroppedUnfinished();
    void producerMapsWhenBehind();
    void takenInOrderAsMapped();
};

void TestParallel::everyIndexOnce_data()
{
    QTest::addColumn<int>("count");
    for (int n : {0, 1, 2, 3, 17, 10000})
        QTest::addRow("%d", n) << n;
}

void TestParallel::everyIndexOnce()
{
    QFETCH(int, count);
    std::vector<std::atomic<int>> hits(static_cast<size_t>(count));
    parallelFor(count, [&](qsizetype i) { hits[size_t(i)].fetch_add(1); });
    for (int i = 0; i < count; ++i)
        QCOMPARE(hits[size_t(i)].load(), 1);
}

void TestParallel::usesSeveralThreads()
{
    if (QThread::idealThreadCount() < 2 || QThreadPool::globalInstance()->maxThreadCount() < 2)
        QSKIP("one core: parallelFor runs on the calling thread only");
    QThreadPool::globalInstance()->waitForDone();
    // Each index waits until a second thread has joined in (or a generous deadline passes), so
    // the test does not depend on how fast helpers start.
    QMutex mutex;
    QSet<QThread *> threads;
    std::atomic<int> seen{0};
    parallelFor(64, [&](qsizetype) {
        {
            QMutexLocker locker(&mutex);
            threads.insert(QThread::currentThread());
            seen = int(threads.size());
        }
        QDeadlineTimer deadline(5000);
        while (seen.load() < 2 && !deadline.hasExpired())
            QThread::usleep(100);
    });
    QVERIFY(threads.size() >= 2);
    QVERIFY(threads.contains(QThread::currentThread()));
}

void TestParallel::busyPoolRunsOnCaller()
{
    // Every pool thread blocked: the caller does all the work and returns.
    BlockedPool blocked;
    QVERIFY(blocked.waitUntilFull());
    QSet<QThread *> threads;
    int sum = 0;
    parallelFor(1000, [&](qsizetype i) {
        threads.insert(QThread::currentThread()); // only the caller runs: no lock needed
        sum += int(i);
    });
    QCOMPARE(sum, 999 * 1000 / 2);
    QCOMPARE(threads, QSet<QThread *>{QThread::currentThread()});
}

void TestParallel::nestedInPoolThread()
{
    // From inside pool threads, with nested calls on both levels: everything finishes.
    std::atomic<int> total{0};
    QList<QFuture<void>> outer;
    for (int t = 0; t < 4; ++t) {
        outer.append(QtConcurrent::run([&total] {
            parallelFor(8, [&total](qsizetype) { parallelFor(50, [&total](qsizetype) { ++total; }); });
        }));
    }
    for (QFuture<void> &f : outer)
        f.waitForFinished();
    QCOMPARE(total.load(), 4 * 8 * 50);
}

void TestParallel::mapKeepsOrder_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("batch");
    for (int n : {0, 1, 7, 255, 256, 257, 10000})
        QTest::addRow("%d items", n) << n << 256;
    QTest::addRow("batches of 1") << 100 << 1;
}

void TestParallel::mapKeepsOrder()
{
    QFETCH(int, count);
    QFETCH(int, batch);
    std::atomic<int> calls{0};
    ParallelMap<QByteArray, QString> map(
        [&calls](QByteArray &item) {
            ++calls;
            return QString::fromLatin1(std::exchange(item, QByteArray()));
        },
        batch);
    for (int i = 0; i < count; ++i)
        map.add(QByteArray::number(i));
    const QList<QString> out = map.finish();
    QCOMPARE(out.size(), count);
    QCOMPARE(calls.load(), count);
    for (int i = 0; i < count; ++i)
        QCOMPARE(out.at(i), QString::number(i));
    // Used again after finish(): a fresh start.
    map.add("again");
    QCOMPARE(map.finish(), QList<QString>{u"again"_s});
}

void TestParallel::mapWhileProducing()
{
    if (QThread::idealThreadCount() < 2 || QThreadPool::globalInstance()->maxThreadCount() < 2)
        QSKIP("one core: nothing to overlap with");
    QThreadPool::globalInstance()->waitForDone();
    // A full batch is mapped on a pool thread while the producer goes on: the producer sees it
    // done before it calls finish().
    std::atomic<int> mapped{0};
    QSet<QThread *> threads;
    QMutex mutex;
    ParallelMap<int, int> map(
        [&](int &item) {
            QMutexLocker locker(&mutex);
            threads.insert(QThread::currentThread());
            ++mapped;
            return item * 2;
        },
        4);
    for (int i = 0; i < 4; ++i)
        map.add(i);
    QTRY_COMPARE_WITH_TIMEOUT(mapped.load(), 4, 10000);
    map.add(4); // a batch not full: left to finish()
    QThreadPool::globalInstance()->waitForDone(); // anything handed to the pool has run
    QCOMPARE(mapped.load(), 4);
    QCOMPARE(map.finish(), (QList<int>{0, 2, 4, 6, 8}));
    QVERIFY(!threads.contains(QThread::currentThread()) || threads.size() >= 2);
}

void TestParallel::mapWithBusyPool()
{
    // Every pool thread blocked: finish() maps everything on the calling thread.
    BlockedPool blocked;
    QVERIFY(blocked.waitUntilFull());
    QSet<QThread *> threads;
    ParallelMap<int, int> map(
        [&threads](int &item) {
            threads.insert(QThread::currentThread()); // only the caller runs: no lock needed
            return item + 1;
        },
        8);
    for (int i = 0; i < 100; ++i)
        map.add(i);
    const QList<int> out = map.finish();
    QCOMPARE(out.size(), 100);
    QCOMPARE(out.last(), 100);
    QCOMPARE(threads, QSet<QThread *>{QThread::currentThread()});
}

void TestParallel::mapDroppedUnfinished()
{
    // Destroyed without finish() (a read that failed half-way): it waits for the batches being
    // mapped, which refer to this stack frame.
    std::atomic<int> mapped{0};
    {
        ParallelMap<int, int> map(
            [&mapped](int &item) {
                QThread::msleep(2);
                ++mapped;
                return item;
            },
            2);
        for (int i = 0; i < 40; ++i)
            map.add(i);
    }
    const int after = mapped.load();
    QThreadPool::globalInstance()->waitForDone(); // anything still in the pool has run
    QCOMPARE(mapped.load(), after); // nothing ran after the destructor returned
}

void TestParallel::producerMapsWhenBehind()
{
    // No pool thread free: batches wait, and once more than two do, each add() that fills a
    // batch maps the first one waiting on the producer's thread. takeMapped() hands out those
    // results in order; finish() maps and returns the rest.
    BlockedPool blocked;
    QVERIFY(blocked.waitUntilFull());
    ParallelMap<int, int> map([](int &item) { return item * 10; }, 4);
    QList<int> taken;
    const auto take = [&taken](int &&item) { taken.append(item); };
    for (int i = 0; i < 12; ++i)
        map.add(i);
    map.takeMapped(take);
    QCOMPARE(taken, (QList<int>{0, 10, 20, 30})); // three batches waited: the first was mapped
    for (int i = 12; i < 20; ++i)
        map.add(i);
    map.takeMapped(take);
    QCOMPARE(taken.size(), 12);
    QCOMPARE(taken.last(), 110);
    map.add(20);
    QCOMPARE(map.finish(), (QList<int>{120, 130, 140, 150, 160, 170, 180, 190, 200}));
    map.takeMapped(take); // nothing left
    QCOMPARE(taken.size(), 12);
}

void TestParallel::takenInOrderAsMapped()
{
    if (QThread::idealThreadCount() < 2 || QThreadPool::globalInstance()->maxThreadCount() < 2)
        QSKIP("one core: the producer maps everything in finish()");
    QThreadPool::globalInstance()->waitForDone();
    // The first batch is held on a pool thread: nothing is taken, not even results of later
    // batches, until it is mapped.
    QSemaphore gate;
    ParallelMap<int, int> map(
        [&gate](int &item) {
            if (item == 0)
                gate.acquire();
            return item + 100;
        },
        2);
    QList<int> taken;
    const auto take = [&taken](int &&item) { taken.append(item); };
    for (int i = 0; i < 4; ++i)
        map.add(i);
    map.takeMapped(take);
    QVERIFY(taken.isEmpty());
    gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(([&] {
                                  map.takeMapped(take);
                                  return taken.size();
                              }()),
                              4, 10000);
    QCOMPARE(taken, (QList<int>{100, 101, 102, 103}));
    map.add(4);
    QCOMPARE(map.finish(), QList<int>{104});
}

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
