// SPDX-License-Identifier: GPL-3.0-or-later
#include "threadconnections.h"

#include "core/tr.h"

#include <QAtomicInteger>
#include <QHash>
#include <QMutex>
#include <QSet>
#include <QSqlError>
#include <QThread>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QAtomicInteger<quint64> s_serial;
}

/// Shared with the QThread::finished handlers through a weak pointer, so that a thread that
/// ends after this object is gone finds nothing to close.
struct ThreadConnections::State {
    struct Entry {
        QString name;
        Qt::HANDLE threadId = nullptr;
    };
    QMutex mutex;
    QHash<QThread *, Entry> byThread;
    QSet<QThread *> hooked;
    quint64 serial = 0;
    bool closed = false;

    void drop(QThread *thread)
    {
        QString name;
        {
            QMutexLocker locker(&mutex);
            auto it = byThread.find(thread);
            if (it == byThread.end())
                return;
            name = it->name;
            byThread.erase(it);
        }
        QSqlDatabase::removeDatabase(name);
    }
};

ThreadConnections::ThreadConnections(const QString &file, const QString &connectOptions,
                                     std::function<Result<void>(QSqlDatabase &)> setUp)
    : m_file(file)
    , m_options(connectOptions)
    , m_setUp(std::move(setUp))
    , m_state(std::make_shared<State>())
{
    m_state->serial = ++s_serial;
}

ThreadConnections::~ThreadConnections()
{
    closeAll();
}

void ThreadConnections::closeAll()
{
    QStringList names;
    {
        QMutexLocker locker(&m_state->mutex);
        m_state->closed = true;
        for (const State::Entry &e : std::as_const(m_state->byThread))
            names.append(e.name);
        m_state->byThread.clear();
    }
    for (const QString &name : std::as_const(names))
        QSqlDatabase::removeDatabase(name);
}

void ThreadConnections::closeCurrent()
{
    m_state->drop(QThread::currentThread());
}

Result<QSqlDatabase> ThreadConnections::get()
{
    QThread *thread = QThread::currentThread();
    const Qt::HANDLE threadId = QThread::currentThreadId();
    QString stale;
    {
        QMutexLocker locker(&m_state->mutex);
        if (m_state->closed)
            return Error{OpencodeDbTr::tr("the database was closed"), m_file};
        auto it = m_state->byThread.find(thread);
        if (it != m_state->byThread.end()) {
            if (it->threadId == threadId) {
                const QString name = it->name;
                locker.unlock();
                QSqlDatabase db = QSqlDatabase::database(name, false);
                if (db.isOpen())
                    return db;
                return Error{OpencodeDbTr::tr("the database connection was lost"), m_file};
            }
            // A thread that ended without a finished() signal (an adopted thread) left its
            // connection behind, and a new thread got the same QThread address.
            stale = it->name;
            m_state->byThread.erase(it);
        }
    }
    if (!stale.isEmpty())
        QSqlDatabase::removeDatabase(stale);

    const QString name = u"weft-sqlite-%1-%2"_s.arg(m_state->serial).arg(quintptr(threadId), 0, 16);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(m_file);
        db.setConnectOptions(m_options);
        Error failure;
        bool failed = false;
        if (!db.open()) {
            failed = true;
            failure = Error{db.lastError().databaseText().isEmpty() ? db.lastError().text() : db.lastError().databaseText(), m_file};
        } else if (m_setUp) {
            if (Result<void> r = m_setUp(db); !r) {
                failed = true;
                failure = r.error();
            }
        }
        if (failed) {
            db.close();
            db = QSqlDatabase();
            QSqlDatabase::removeDatabase(name);
            return failure;
        }
    }
    bool hook = false;
    {
        QMutexLocker locker(&m_state->mutex);
        m_state->byThread.insert(thread, {name, threadId});
        if (!m_state->hooked.contains(thread)) {
            m_state->hooked.insert(thread);
            hook = true;
        }
    }
    if (hook) {
        std::weak_ptr<State> weak = m_state;
        QObject::connect(thread, &QThread::finished, thread, [weak, thread] {
            if (auto state = weak.lock()) {
                state->drop(thread);
                QMutexLocker locker(&state->mutex);
                state->hooked.remove(thread);
            }
        }, Qt::DirectConnection);
    }
    return QSqlDatabase::database(name, false);
}

} // namespace weft
