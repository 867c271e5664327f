// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the benchmark executables bench_model and bench_gui.
#pragma once

#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

#include <malloc.h>

namespace weft::bench
{

using namespace Qt::StringLiterals;

/// Started first thing in main().
inline QElapsedTimer s_clock;

inline double msSince(qint64 startNs)
{
    return double(s_clock.nsecsElapsed() - startNs) / 1e6;
}

/// Resident set size of this process in KiB.
inline qint64 rssKiB()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

/// The heap in use (malloc's allocated bytes, every arena and mmapped chunk), in KiB: with
/// rssKiB() it tells what the process holds from what malloc keeps without using it. -1 where
/// the C library does not say (mallinfo2 is glibc's).
inline qint64 heapKiB()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 info = mallinfo2();
    return qint64((info.uordblks + info.hblkhd) / 1024);
#else
    return -1;
#endif
}

inline void printJson(const JsonObject &o)
{
    std::printf("%s\n", toJson(o, 0).constData());
    std::fflush(stdout);
}

/// Runs the event loop until @p done (checked after every batch of events) or the timeout.
/// Sleeps while there is nothing to do: a busy wait would take a core from the threads measured.
inline bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    QTimer wake; // a wake-up now and then, for conditions that change without an event
    wake.start(50);
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

inline JsonObject frameStats(QList<double> frames)
{
    std::sort(frames.begin(), frames.end());
    auto at = [&](double q) { return frames.isEmpty() ? 0.0 : frames.at(qMin(frames.size() - 1, qsizetype(q * double(frames.size())))); };
    const qint64 over = std::count_if(frames.cbegin(), frames.cend(), [](double f) { return f > 16.0; });
    return JsonObject{{u"frames"_s, qint64(frames.size())}, {u"median_ms"_s, at(0.5)}, {u"p95_ms"_s, at(0.95)},
                      {u"p99_ms"_s, at(0.99)},          {u"max_ms"_s, frames.isEmpty() ? 0.0 : frames.last()},
                      {u"over_16ms"_s, over}};
}

inline std::shared_ptr<SessionService> openService(const QString &dataDir)
{
    auto store = std::make_shared<JsonStore>(dataDir);
    if (!store->initialize())
        return {};
    return std::make_shared<SessionService>(store);
}

} // namespace weft::bench
