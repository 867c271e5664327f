// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSemaphore>
#include <QThread>
#include <QThreadPool>

#include <QList>
#include <QMutex>

#include <atomic>
#include <functional>
#include <memory>

namespace weft
{

/// Runs @p body(i) for every i in [0, @p count): on the calling thread and on as many idle threads
/// of the global thread pool as there are cores, each taking the next index as it finishes one.
/// Returns when every call has returned.
///
/// The calling thread always takes part and helpers are only asked for, never waited for to
/// start (QThreadPool::tryStart), so this never deadlocks, not even when it is called from a
/// pool thread while the pool is busy: then the caller simply does all the work itself.
/// @p body must be safe to call from several threads at once for different indices.
template<typename Body>
void parallelFor(qsizetype count, Body &&body)
{
    if (count <= 0)
        return;
    QThreadPool *pool = QThreadPool::globalInstance();
    const int wanted = int(std::min<qsizetype>(count, QThread::idealThreadCount())) - 1;
    if (wanted <= 0) {
        for (qsizetype i = 0; i < count; ++i)
            body(i);
        return;
    }
    struct Shared {
        std::atomic<qsizetype> next{0};
        QSemaphore done;
    };
    auto shared = std::make_shared<Shared>();
    const auto work = [shared, count, &body] {
        for (qsizetype i = shared->next.fetch_add(1, std::memory_order_relaxed); i < count;
             i = shared->next.fetch_add(1, std::memory_order_relaxed))
            body(i);
    };
    int helpers = 0;
    for (int h = 0; h < wanted; ++h) {
        if (!pool->tryStart([work, shared] {
                work();
                shared->done.release();
            }))
            break;
        ++helpers;
    }
    work();
    // The helpers hold a reference to body: wait for every one of them before it goes away.
    shared->done.acquire(helpers);
}

/// Maps items while they are still being made: a producer (a loop reading rows) add()s them, and
/// every @p batchSize of them are mapped on the global thread pool while the producer goes on, by
/// at most one thread fewer than there are cores: the producer keeps a core of its own, as it is
/// what the mapping waits for, unless the mapping falls behind (then it maps a batch itself).
/// takeMapped() hands results over as they are ready, for a producer that writes them out.
/// finish() maps what is left on the calling thread and every idle pool thread, waits for every
/// batch and returns the results in the order of add().
///
/// Like parallelFor(), it only asks for pool threads (QThreadPool::tryStart), so it never
/// deadlocks: with a busy pool, finish() maps everything itself. add() and finish() belong to the
/// producer's thread; @p map must be safe to call from several threads at once for different
/// items (it may take an item's contents: the item is dropped after it).
template<typename In, typename Out>
class ParallelMap
{
public:
    using Map = std::function<Out(In &item)>;

    explicit ParallelMap(Map map, qsizetype batchSize = 256)
        : m_shared(std::make_shared<Shared>(std::move(map)))
        , m_batchSize(std::max<qsizetype>(1, batchSize))
    {
    }
    ParallelMap(const ParallelMap &) = delete;
    ParallelMap &operator=(const ParallelMap &) = delete;
    /// Waits for the batches still being mapped (@p map may refer to the caller's state).
    ~ParallelMap() { m_shared->done.acquire(m_started); }

    void add(In item)
    {
        if (!m_current) {
            m_current = std::make_shared<Batch>();
            m_current->in.reserve(m_batchSize);
        }
        m_current->in.append(std::move(item));
        if (m_current->in.size() >= m_batchSize)
            submit(QThread::idealThreadCount() - 1);
    }

    /// Hands the results mapped so far to @p take, in the order of add(), and forgets them:
    /// those of the batches before the first one not mapped yet. Does not wait; a producer that
    /// writes results out as it goes calls it after add().
    template<typename Take>
    void takeMapped(Take &&take)
    {
        qsizetype ready = 0;
        {
            QMutexLocker locker(&m_shared->mutex);
            while (ready < m_batches.size() && m_batches.at(ready)->mapped)
                ++ready;
        }
        for (qsizetype i = 0; i < ready; ++i) {
            const std::shared_ptr<Batch> batch = m_batches.takeFirst();
            m_count -= batch->out.size();
            for (Out &item : batch->out)
                take(std::move(item));
        }
    }

    /// Every item added and not taken (takeMapped()), mapped, in order. The mapper is empty after it.
    [[nodiscard]] QList<Out> finish()
    {
        if (m_current)
            submit(0);
        // Every core now: this thread and as many pool threads as the other cores.
        int running = 0;
        {
            QMutexLocker locker(&m_shared->mutex);
            running = m_shared->workers++; // this thread joins in
        }
        for (int helpers = QThread::idealThreadCount() - 1 - running; helpers > 0 && startWorker();)
            --helpers;
        m_shared->work();
        m_shared->done.acquire(m_started);
        m_started = 0;
        QList<Out> out;
        out.reserve(m_count);
        for (const std::shared_ptr<Batch> &batch : std::as_const(m_batches)) {
            for (Out &item : batch->out)
                out.append(std::move(item));
        }
        m_batches.clear();
        m_count = 0;
        return out;
    }

private:
    /// Batches that may wait while the producer adds; with more, it maps one itself before it
    /// goes on (items waiting hold memory: a reader faster than the mapping would hold them all).
    static constexpr qsizetype MaxWaiting = 2;
    struct Batch {
        QList<In> in;
        QList<Out> out;
        bool mapped = false; // guarded by Shared::mutex
    };
    struct Shared {
        explicit Shared(Map m)
            : map(std::move(m))
        {
        }
        /// Maps the batches waiting, one after the other, until none is left.
        void work()
        {
            for (;;) {
                std::shared_ptr<Batch> batch;
                {
                    QMutexLocker locker(&mutex);
                    if (waiting.isEmpty()) {
                        --workers;
                        return;
                    }
                    batch = waiting.takeFirst();
                }
                mapBatch(*batch);
            }
        }
        /// The producer's share while it adds: the first batch waiting, when more than
        /// MaxWaiting wait.
        void mapOneIfBehind()
        {
            std::shared_ptr<Batch> batch;
            {
                QMutexLocker locker(&mutex);
                if (waiting.size() <= MaxWaiting)
                    return;
                batch = waiting.takeFirst();
            }
            mapBatch(*batch);
        }
        void mapBatch(Batch &batch)
        {
            batch.out.reserve(batch.in.size());
            for (In &item : batch.in)
                batch.out.append(map(item));
            batch.in = QList<In>();
            QMutexLocker locker(&mutex);
            batch.mapped = true;
        }
        Map map;
        QMutex mutex; // guards waiting, workers and each batch's mapped
        QList<std::shared_ptr<Batch>> waiting;
        int workers = 0; // threads in work(), the caller's included
        QSemaphore done; // a release for each pool thread started, when it leaves work()
    };

    /// Queues the current batch; starts a pool thread for it while fewer than @p maxWorkers map.
    void submit(int maxWorkers)
    {
        std::shared_ptr<Batch> batch = std::move(m_current);
        m_current.reset();
        m_count += batch->in.size();
        m_batches.append(batch);
        bool start = false;
        {
            QMutexLocker locker(&m_shared->mutex);
            m_shared->waiting.append(batch);
            start = m_shared->workers < maxWorkers;
        }
        if (start)
            startWorker();
        if (maxWorkers > 0)
            m_shared->mapOneIfBehind();
    }

    bool startWorker()
    {
        {
            QMutexLocker locker(&m_shared->mutex);
            ++m_shared->workers; // counted before it runs: work() takes it off when it leaves
        }
        std::shared_ptr<Shared> shared = m_shared;
        if (!QThreadPool::globalInstance()->tryStart([shared] {
                shared->work();
                shared->done.release();
            })) {
            QMutexLocker locker(&m_shared->mutex);
            --m_shared->workers;
            return false;
        }
        ++m_started;
        return true;
    }

    std::shared_ptr<Shared> m_shared;
    QList<std::shared_ptr<Batch>> m_batches; // in the order of add()
    std::shared_ptr<Batch> m_current;
    qsizetype m_batchSize;
    qsizetype m_count = 0;
    int m_started = 0;
};

} // namespace weft
