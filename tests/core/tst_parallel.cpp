// SPDX-License-Identifier: GPL-3.0-or-later
// weft::parallelFor (model/core/parallel.h): every index once, on more than one thread when the
// pool has room, and never a deadlock when it has none (called from a pool thread, or with every
// pool thread busy).

#include "core/parallel.h"

#include <QMutex>
#include <QSet>
#include <QTest>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <vector>

using namespace weft;

class TestParallel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyIndexOnce_data();
    void everyIndexOnce();
    void usesSeveralThreads();
    void busyPoolRunsOnCaller();
    void nestedInPoolThread();
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
    QThreadPool *pool = QThreadPool::globalInstance();
    QSemaphore release;
    QList<QFuture<void>> blockers;
    for (int i = 0; i < pool->maxThreadCount(); ++i)
        blockers.append(QtConcurrent::run([&release] { release.acquire(); }));
    QTRY_COMPARE(pool->activeThreadCount(), pool->maxThreadCount());
    QSet<QThread *> threads;
    int sum = 0;
    parallelFor(1000, [&](qsizetype i) {
        threads.insert(QThread::currentThread()); // only the caller runs: no lock needed
        sum += int(i);
    });
    QCOMPARE(sum, 999 * 1000 / 2);
    QCOMPARE(threads, QSet<QThread *>{QThread::currentThread()});
    release.release(int(blockers.size()));
    for (QFuture<void> &f : blockers)
        f.waitForFinished();
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

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
