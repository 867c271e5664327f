// SPDX-License-Identifier: GPL-3.0-or-later
#include "deltacoalescer.h"

#include <QThread>
#include <QTimer>

namespace weft
{

DeltaCoalescer::DeltaCoalescer(Announce announce, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_announce(std::move(announce))
    , m_intervalMs(intervalMs)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(m_intervalMs);
    connect(m_timer, &QTimer::timeout, this, &DeltaCoalescer::flush);
}

void DeltaCoalescer::add(const Part &part, const QString &delta)
{
    {
        QMutexLocker locker(&m_mutex);
        m_delta[part.id()] += delta;
        m_part.insert(part.id(), part);
    }
    if (QThread::currentThread() != thread()) {
        // From another thread (a tool's progress): the coalescer's thread announces it.
        QMetaObject::invokeMethod(this, &DeltaCoalescer::schedule, Qt::QueuedConnection);
        return;
    }
    schedule();
}

void DeltaCoalescer::drop(const QString &partID)
{
    QMutexLocker locker(&m_mutex);
    m_delta.remove(partID);
    m_part.remove(partID);
}

void DeltaCoalescer::schedule()
{
    if (!m_timer->isActive()) {
        m_timer->start();
        m_sinceFirst.start();
    } else if (m_sinceFirst.elapsed() >= m_intervalMs) {
        // A burst keeps this thread from reaching its event loop: announce from here.
        flush();
    }
}

void DeltaCoalescer::flush()
{
    if (QThread::currentThread() == thread())
        m_timer->stop();
    QMutexLocker locker(&m_mutex);
    for (auto it = m_part.cbegin(); it != m_part.cend(); ++it)
        m_announce(it.value(), m_delta.value(it.key()));
    m_part.clear();
    m_delta.clear();
}

} // namespace weft
