// SPDX-License-Identifier: GPL-3.0-or-later
#include "store.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/parallel.h"
#include "core/tr.h"
#include "storereads.h"
#include "storewatcher.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <atomic>

namespace weft
{

namespace
{
constexpr int PolicyUndecided = -1;
std::atomic<int> g_readPolicy{PolicyUndecided};
thread_local int t_allowedHere = 0; // the AllowHere guards alive on this thread

StoreReads::OnGuiThread policyOfEnvironment()
{
    using enum StoreReads::OnGuiThread;
    const QByteArray value = qgetenv("WEFT_STORE_READ_CHECK");
    if (value == "off")
        return Allow;
    if (value == "report")
        return Report;
    if (value == "fatal")
        return Abort;
#ifdef NDEBUG
    return Allow;
#else
    return Report;
#endif
}
} // namespace

StoreReads::OnGuiThread StoreReads::policy()
{
    int policy = g_readPolicy.load(std::memory_order_relaxed);
    if (policy == PolicyUndecided) {
        // Two threads may both read the environment; they find the same.
        policy = int(policyOfEnvironment());
        g_readPolicy.store(policy, std::memory_order_relaxed);
    }
    return OnGuiThread(policy);
}

void StoreReads::setPolicy(OnGuiThread policy)
{
    g_readPolicy.store(int(policy), std::memory_order_relaxed);
}

bool StoreReads::onGuiThread()
{
    const QCoreApplication *app = QCoreApplication::instance();
    return app && QThread::currentThread() == app->thread() && app->inherits("QGuiApplication");
}

void StoreReads::check(const char *read)
{
    const OnGuiThread what = policy();
    if (what == OnGuiThread::Allow || t_allowedHere > 0 || !onGuiThread())
        return;
    if (what == OnGuiThread::Abort)
        qFatal("a store read (%s) on the GUI thread: read it off the GUI thread", read);
    qCCritical(lcStore, "a store read (%s) on the GUI thread: read it off the GUI thread", read);
}

StoreReads::AllowHere::AllowHere()
{
    ++t_allowedHere;
}

StoreReads::AllowHere::~AllowHere()
{
    --t_allowedHere;
}

Store::~Store() = default;

StoreWatcher::~StoreWatcher() = default;

Result<QHash<QString, qint64>> Store::changeStamps(const QList<Session> &sessions)
{
    StoreReads::check("changeStamps");
    QHash<QString, qint64> stamps;
    stamps.reserve(sessions.size());
    for (const Session &s : sessions)
        stamps.insert(s.id(), s.updated());
    return stamps;
}

QList<MessageWithParts> Store::messagesWithParts(const QString &sessionID)
{
    StoreReads::check("messagesWithParts");
    return withParts(sessionID, messages(sessionID));
}

void Store::mapMessages(const QString &sessionID, const MessageMapper &map, const std::function<void(QByteArray &&)> &take)
{
    StoreReads::check("mapMessages");
    ParallelMap<MessageWithParts, QByteArray> mapper([&map](MessageWithParts &m) { return map(std::move(m)); },
                                                     MapMessagesBatch);
    for (MessageWithParts &m : messagesWithParts(sessionID)) {
        mapper.add(std::move(m));
        mapper.takeMapped(take);
    }
    for (QByteArray &bytes : mapper.finish())
        take(std::move(bytes));
}

QSet<QString> Store::takenIDs(const QSet<QString> &messageIDs, const QSet<QString> &partIDs)
{
    StoreReads::check("takenIDs");
    QSet<QString> taken;
    if (messageIDs.isEmpty() && partIDs.isEmpty())
        return taken;
    for (const Session &session : sessions()) {
        for (const MessageWithParts &m : messagesWithParts(session.id())) {
            if (messageIDs.contains(m.info.id()))
                taken.insert(m.info.id());
            for (const Part &p : m.parts) {
                if (partIDs.contains(p.id()))
                    taken.insert(p.id());
            }
        }
    }
    return taken;
}

QStringList Store::messageIDs(const QString &sessionID)
{
    StoreReads::check("messageIDs");
    QStringList ids;
    for (const Message &m : messages(sessionID))
        ids.append(m.id());
    return ids;
}

QList<Message> Store::messagesByID(const QString &sessionID, const QStringList &messageIDs)
{
    StoreReads::check("messagesByID");
    // Many IDs (the older messages of a long session): one read of all, filtered, rather than a
    // query per message.
    if (messageIDs.size() > 64) {
        const QSet<QString> wanted(messageIDs.cbegin(), messageIDs.cend());
        QList<Message> all = messages(sessionID);
        all.removeIf([&](const Message &m) { return !wanted.contains(m.id()); });
        return all;
    }
    QList<Message> result;
    result.reserve(messageIDs.size());
    for (const QString &id : messageIDs) {
        if (std::optional<Message> m = message(sessionID, id))
            result.append(std::move(*m));
    }
    std::stable_sort(result.begin(), result.end(), messageLessThan);
    return result;
}

QList<MessageWithParts> Store::withParts(const QString &sessionID, const QList<Message> &infos)
{
    StoreReads::check("withParts");
    QList<MessageWithParts> result;
    result.reserve(infos.size());
    for (const Message &info : infos)
        result.append({info, parts(sessionID, info.id())});
    return result;
}

std::pair<QStringList, QStringList> Store::splitNewest(const QStringList &ids, qsizetype count)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QList<std::pair<qint64, QString>> keyed;
    keyed.reserve(ids.size());
    for (const QString &id : ids)
        keyed.append({Identifier::timestampNear(id, now), id});
    std::sort(keyed.begin(), keyed.end());
    const qsizetype split = std::max<qsizetype>(0, keyed.size() - count);
    std::pair<QStringList, QStringList> result;
    result.first.reserve(keyed.size() - split);
    result.second.reserve(split);
    for (qsizetype i = 0; i < keyed.size(); ++i)
        (i < split ? result.second : result.first).append(keyed.at(i).second);
    return result;
}

NewestMessages Store::newestMessages(const QString &sessionID, qsizetype count)
{
    StoreReads::check("newestMessages");
    auto [newest, older] = splitNewest(messageIDs(sessionID), count);
    NewestMessages result;
    result.olderIDs = std::move(older);
    result.messages = withParts(sessionID, messagesByID(sessionID, newest));
    return result;
}

Result<void> Store::writeMessages(const QList<MessageWithParts> &messages)
{
    for (const MessageWithParts &m : messages) {
        if (auto r = writeMessage(m.info); !r)
            return r;
        for (const Part &p : m.parts) {
            if (auto r = writePart(p); !r)
                return r;
        }
    }
    return {};
}

Result<void> Store::writeTodos(const QString &sessionID, const QList<Todo> &todos)
{
    Q_UNUSED(sessionID)
    Q_UNUSED(todos)
    return Error{StoreTr::tr("this store keeps no todo lists"), location()};
}

QList<StoreProblem> Store::problems() const
{
    QMutexLocker locker(&m_problemsMutex);
    return m_problems;
}

void Store::setProblemHandler(std::function<void(const StoreProblem &)> handler)
{
    QMutexLocker locker(&m_problemsMutex);
    m_problemHandler = std::move(handler);
}

void Store::reportProblem(const QString &location, const QString &reason)
{
    std::function<void(const StoreProblem &)> handler;
    const StoreProblem problem{location, reason};
    {
        QMutexLocker locker(&m_problemsMutex);
        for (const StoreProblem &p : std::as_const(m_problems)) {
            if (p == problem)
                return;
        }
        m_problems.append(problem);
        handler = m_problemHandler;
    }
    qCWarning(lcStore).noquote() << "skipping damaged data:" << location << "-" << reason;
    if (handler)
        handler(problem);
}

void Store::clearProblem(const QString &location)
{
    QMutexLocker locker(&m_problemsMutex);
    m_problems.removeIf([&](const StoreProblem &p) { return p.location == location; });
}

} // namespace weft
