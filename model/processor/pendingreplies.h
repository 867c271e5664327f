// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QSet>
#include <QString>
#include <QWaitCondition>

#include <functional>
#include <optional>

namespace weft
{

/// Questions a run's worker thread asks and another thread (the GUI, the command line) answers:
/// the asking thread blocks in wait() until answer() or until its abort condition holds. Used for
/// permission questions (PermissionGate) and the question tool's questions. Thread-safe.
template<typename Reply>
class PendingReplies
{
public:
    /// Makes @p id a question waiting for its reply (before it is announced, so that an answer
    /// that comes at once is not lost).
    void open(const QString &id)
    {
        QMutexLocker locker(&m_mutex);
        m_open.insert(id);
    }

    /// Gives @p reply to question @p id; false when no one waits for it (answered already, or
    /// its run ended).
    bool answer(const QString &id, Reply reply)
    {
        QMutexLocker locker(&m_mutex);
        const bool waiting = m_open.contains(id) && !m_replies.contains(id);
        if (waiting)
            m_replies.insert(id, std::move(reply));
        m_changed.wakeAll();
        return waiting;
    }

    [[nodiscard]] bool isOpen(const QString &id) const
    {
        QMutexLocker locker(&m_mutex);
        return m_open.contains(id);
    }

    /// Wakes the waiting threads so that they check their abort condition.
    void wake()
    {
        QMutexLocker locker(&m_mutex);
        m_changed.wakeAll();
    }

    /// Blocks until question @p id (open()ed before) has its reply, or until @p aborted returns
    /// true (checked at least every 200 ms and after wake()): nullopt. The question is closed
    /// either way.
    std::optional<Reply> wait(const QString &id, const std::function<bool()> &aborted)
    {
        QMutexLocker locker(&m_mutex);
        while (!m_replies.contains(id) && !(aborted && aborted()))
            m_changed.wait(&m_mutex, 200);
        m_open.remove(id);
        if (!m_replies.contains(id))
            return std::nullopt;
        return std::make_optional<Reply>(m_replies.take(id));
    }

private:
    mutable QMutex m_mutex;
    QWaitCondition m_changed;
    QSet<QString> m_open;            ///< questions waiting for their reply
    QHash<QString, Reply> m_replies; ///< replies not taken yet by their question
};

} // namespace weft
