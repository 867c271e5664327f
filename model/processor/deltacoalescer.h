// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QObject>

#include <functional>

class QTimer;

namespace weft
{

/// The streaming deltas of a run's parts, coalesced before they are announced: a provider sends
/// a token at a time and a tool its output line by line, while a view needs at most one update
/// per frame. Each part's deltas wait (concatenated, with the part's latest state) until the
/// interval has passed since the first of them, or until flush(); a burst that keeps the owner's
/// thread from its event loop is announced from the writer at least once per interval.
///
/// Thread-safe: add() and drop() may come from any thread (a tool's progress); the timer runs on
/// the thread the coalescer lives on. Announcements are made under the lock, so that a later
/// state of a part is never overtaken by an older one.
class DeltaCoalescer : public QObject
{
    Q_OBJECT

public:
    using Announce = std::function<void(const Part &part, const QString &delta)>;
    explicit DeltaCoalescer(Announce announce, int intervalMs = 16, QObject *parent = nullptr);

    /// @p delta was appended to @p part (its state after it).
    void add(const Part &part, const QString &delta);
    /// @p partID was written in full: a delta still waiting for it is superseded.
    void drop(const QString &partID);
    /// Announces what waits, now (before a question to the user, at the end of a stream).
    void flush();

private:
    /// Starts the interval (on the coalescer's thread), or announces when a burst outlasted it.
    void schedule();

    Announce m_announce;
    int m_intervalMs;
    mutable QMutex m_mutex;
    QHash<QString, QString> m_delta; ///< part id -> delta not announced yet
    QHash<QString, Part> m_part;     ///< part id -> its latest state
    QTimer *m_timer;
    QElapsedTimer m_sinceFirst;
};

} // namespace weft
