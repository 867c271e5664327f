// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSemaphore>
#include <QThread>
#include <QThreadPool>

#include <atomic>
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

} // namespace weft
