// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSemaphore>
#include <QThread>
#include <QThreadPool>

#include <QList>

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
/// every @p batchSize of them go to an idle thread of the global thread pool to be mapped while
/// the producer goes on. finish() maps what no pool thread took, on the calling thread and the
/// pool (parallelFor()), waits for every batch and returns the results in the order of add().
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
            submit(true);
    }

    /// Every item added, mapped, in order. The mapper is empty after it.
    [[nodiscard]] QList<Out> finish()
    {
        if (m_current)
            submit(false); // mapped below, with the batches no pool thread took
        parallelFor(m_batches.size(), [this](qsizetype i) { m_batches.at(i)->run(m_shared->map); });
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
    struct Shared {
        explicit Shared(Map m)
            : map(std::move(m))
        {
        }
        Map map;
        QSemaphore done; // a release for each batch a pool thread was started for
    };
    struct Batch {
        QList<In> in;
        QList<Out> out;
        std::atomic<bool> claimed{false};
        /// Maps the batch unless another thread took it first.
        void run(const Map &map)
        {
            if (claimed.exchange(true, std::memory_order_acq_rel))
                return;
            out.reserve(in.size());
            for (In &item : in)
                out.append(map(item));
            in = QList<In>();
        }
    };

    void submit(bool start)
    {
        std::shared_ptr<Batch> batch = std::move(m_current);
        m_current.reset();
        m_count += batch->in.size();
        m_batches.append(batch);
        if (!start)
            return;
        std::shared_ptr<Shared> shared = m_shared;
        if (QThreadPool::globalInstance()->tryStart([batch, shared] {
                batch->run(shared->map);
                shared->done.release();
            }))
            ++m_started;
    }

    std::shared_ptr<Shared> m_shared;
    QList<std::shared_ptr<Batch>> m_batches;
    std::shared_ptr<Batch> m_current;
    qsizetype m_batchSize;
    qsizetype m_count = 0;
    int m_started = 0;
};

} // namespace weft
