// SPDX-License-Identifier: GPL-3.0-or-later
#include "searchindex.h"
#include "core/toolnames.h"

#include "session/sessionstore.h"
#include "store/store.h"
#include "core/tr.h"
#include "opencodedb/threadconnections.h"
#include "searchtokenizer.h"
#include "session/sessionservice.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSemaphore>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <limits>
#include <array>
#include <utility>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

Q_LOGGING_CATEGORY(lcSearch, "weft.search")

/// What a document is, by its code in the doc table.
const std::array<QString, 10> Kinds{u"title"_s, u"text"_s,  u"reasoning"_s, u"tool"_s,  u"file"_s,
                                    u"patch"_s, u"subtask"_s, u"agent"_s,    u"retry"_s, u"error"_s};

int kindCode(const QString &kind)
{
    const auto it = std::find(Kinds.cbegin(), Kinds.cend(), kind);
    return it == Kinds.cend() ? 1 : int(it - Kinds.cbegin());
}

QString kindName(int code)
{
    return code >= 0 && code < int(Kinds.size()) ? Kinds.at(code) : Kinds.at(1);
}

/// A snippet where the text in the store no longer has the match (changed since it was indexed).
constexpr qsizetype PlainSnippet = 160;
/// Text per document: a tool output of 20,000 lines is not read that far by anyone searching.
constexpr qsizetype MaxText = 64 * 1024;
constexpr qsizetype MaxHead = 48 * 1024;
/// How long live changes are collected before they are written (a streaming reply changes a
/// part many times a second).
constexpr int FlushDelayMs = 300;
constexpr QChar MarkOpen = QChar(0x02);
constexpr QChar MarkClose = QChar(0x03);

Error sqlError(const QSqlQuery &query, const QString &file)
{
    const QSqlError e = query.lastError();
    return Error{e.databaseText().isEmpty() ? e.text() : e.databaseText(), file};
}

/// QSQLITE binds a null QString as NULL; the index's text columns are NOT NULL.
QString notNull(const QString &s)
{
    return s.isNull() ? u""_s : s;
}

/// Lowers the calling thread's CPU and I/O priority as far as it goes (Linux: nice 19 and the
/// idle I/O class, both per thread); returns the thread's ID.
qint64 becomeGuest()
{
#ifdef Q_OS_LINUX
    const pid_t tid = pid_t(syscall(SYS_gettid));
    if (setpriority(PRIO_PROCESS, id_t(tid), 19) != 0)
        qCInfo(lcSearch) << "cannot lower the index thread's CPU priority";
    // linux/ioprio.h: IOPRIO_WHO_PROCESS 1, IOPRIO_CLASS_IDLE 3, the class in bits 13 and up.
    constexpr int WhoProcess = 1;
    constexpr int ClassIdle = 3;
    constexpr int ClassShift = 13;
    if (syscall(SYS_ioprio_set, WhoProcess, tid, ClassIdle << ClassShift) != 0)
        qCInfo(lcSearch) << "cannot lower the index thread's I/O priority";
    return tid;
#else
    return 0;
#endif
}

/// The start and end of a long tool output: what a search for an error or a file name finds.
QString cappedOutput(const QString &output)
{
    if (output.size() <= SearchIndex::ToolOutputHead + SearchIndex::ToolOutputTail)
        return output;
    return output.left(SearchIndex::ToolOutputHead) + u"\n…\n"_s + output.right(SearchIndex::ToolOutputTail);
}

QString capped(const QString &text)
{
    if (text.size() <= MaxText)
        return text;
    return text.left(MaxHead) + u"\n…\n"_s + text.right(MaxText - MaxHead);
}

void collectStrings(const JsonValue &value, QStringList &out)
{
    if (value.isString()) {
        if (!value.toString().isEmpty())
            out.append(value.toString());
    } else if (value.isObject()) {
        const JsonObject o = value.toObject();
        for (qsizetype i = 0; i < o.size(); ++i)
            collectStrings(o.valueAt(i), out);
    } else if (value.isArray()) {
        for (const JsonValue &v : value.toArray())
            collectStrings(v, out);
    }
}

bool hasWordCharacter(QStringView text)
{
    for (const QChar c : text) {
        if (c.isLetterOrNumber() || c.isSurrogate())
            return true;
    }
    return false;
}

bool isCjkChar(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 0x3040 && u <= 0x30FF) || (u >= 0x3400 && u <= 0x9FFF) || (u >= 0xAC00 && u <= 0xD7AF)
        || (u >= 0xF900 && u <= 0xFAFF) || c.isSurrogate();
}

/// The words of a user's query (quotes and operators removed), for trimming highlights.
QStringList queryWords(const QString &query)
{
    QStringList words;
    QString current;
    for (const QChar c : query) {
        if (c.isSpace() || c == u'"') {
            if (!current.isEmpty())
                words.append(current);
            current.clear();
        } else {
            current.append(c);
        }
    }
    if (!current.isEmpty())
        words.append(current);
    for (QString &w : words) {
        if (w.startsWith(u'-'))
            w.remove(0, 1);
        if (w.endsWith(u'*'))
            w.chop(1);
        w = w.toCaseFolded();
    }
    words.removeAll(QString());
    words.removeAll(u"or"_s);
    return words;
}

/// Splits FTS5's marked snippet into text and highlight ranges. A highlight of CJK text that
/// is one character longer than a one-character query word (FTS5 highlights the position's
/// bigram) is trimmed to the word.
void parseSnippet(const QString &marked, const QStringList &words, SearchHit &hit)
{
    hit.snippet.clear();
    hit.highlights.clear();
    int start = -1;
    for (const QChar c : marked) {
        if (c == MarkOpen) {
            start = int(hit.snippet.size());
        } else if (c == MarkClose) {
            if (start >= 0) {
                int length = int(hit.snippet.size()) - start;
                const QString region = hit.snippet.mid(start, length);
                if (length > 1 && std::all_of(region.cbegin(), region.cend(), isCjkChar)) {
                    int best = 0;
                    for (const QString &w : words) {
                        if (w.size() < length && region.startsWith(w) && w.size() > best)
                            best = int(w.size());
                    }
                    if (best > 0 && !words.contains(region))
                        length = best;
                }
                hit.highlights.append({start, length});
            }
            start = -1;
        } else {
            hit.snippet.append(c);
        }
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------

const SearchHit *SearchNavigator::current() const
{
    return m_index >= 0 && m_index < m_hits.size() ? &m_hits.at(m_index) : nullptr;
}

const SearchHit *SearchNavigator::next()
{
    if (m_hits.isEmpty())
        return nullptr;
    m_index = (m_index + 1) % int(m_hits.size());
    return current();
}

const SearchHit *SearchNavigator::previous()
{
    if (m_hits.isEmpty())
        return nullptr;
    m_index = m_index <= 0 ? int(m_hits.size()) - 1 : m_index - 1;
    return current();
}

const SearchHit *SearchNavigator::seek(const QString &messageID, qint64 messageTime)
{
    if (m_hits.isEmpty())
        return nullptr;
    for (int i = 0; i < m_hits.size(); ++i) {
        const SearchHit &h = m_hits.at(i);
        if (h.messageID == messageID || (!h.messageID.isEmpty() && (h.time > messageTime || (h.time == messageTime && h.messageID > messageID)))) {
            m_index = i;
            return current();
        }
    }
    m_index = 0; // nothing after: wrap to the first
    return current();
}

// ---------------------------------------------------------------------------------------------

/// Follows the sources' signals on the index's thread and writes coalesced changes.
class SearchIndex::Worker : public QObject
{
public:
    explicit Worker(SearchIndex *index)
        : m_index(index)
    {
    }

    void addSource(SessionService *service, const QString &key);
    void removeSource(SessionService *service, bool alive);
    void syncSource(SessionService *service, bool rebuild);
    void rebuildAll();
    void syncAll(bool rebuild);
    void flush();

private:
    struct Removal {
        QString source, sessionID, messageID, partID;
    };
    QString keyOf(SessionService *service) const { return m_sources.value(service); }
    void schedule();
    qint64 messageTime(SessionService *service, const QString &sessionID, const QString &messageID);

    SearchIndex *m_index;
    QHash<SessionService *, QString> m_sources;
    // Pending changes, keyed so that a part streamed 100 times is written once.
    QHash<QString, std::pair<SessionService *, Part>> m_parts;
    QHash<QString, std::pair<SessionService *, Message>> m_messages;
    QHash<QString, std::pair<SessionService *, Session>> m_sessions;
    QList<Removal> m_removals;
    QSet<std::pair<SessionService *, QString>> m_reindex;
    QHash<QString, qint64> m_messageTimes;
    QTimer *m_timer = nullptr;
};

void SearchIndex::Worker::schedule()
{
    if (!m_timer) {
        m_timer = new QTimer(this);
        m_timer->setSingleShot(true);
        m_timer->setInterval(FlushDelayMs);
        QObject::connect(m_timer, &QTimer::timeout, this, [this] { flush(); });
    }
    if (!m_timer->isActive())
        m_timer->start();
}

void SearchIndex::Worker::addSource(SessionService *service, const QString &key)
{
    if (m_sources.contains(service))
        return;
    m_sources.insert(service, key);
    // Connected before the sync, so that nothing announced during it is lost; the changes are
    // queued behind the sync on this thread.
    QObject::connect(service, &SessionService::sessionCreated, this, [this, service](const Session &s) {
        m_sessions.insert(s.id(), {service, s});
        schedule();
    });
    QObject::connect(service, &SessionService::sessionUpdated, this, [this, service](const Session &s) {
        m_sessions.insert(s.id(), {service, s});
        schedule();
    });
    QObject::connect(service, &SessionService::sessionDeleted, this, [this, service](const Session &s) {
        m_sessions.remove(s.id());
        m_removals.append({keyOf(service), s.id(), {}, {}});
        schedule();
    });
    QObject::connect(service, &SessionService::messageUpdated, this, [this, service](const Message &m) {
        m_messageTimes.insert(m.id(), m.created());
        m_messages.insert(m.id(), {service, m});
        schedule();
    });
    QObject::connect(service, &SessionService::messageRemoved, this, [this, service](const QString &sid, const QString &mid) {
        m_messages.remove(mid);
        m_parts.removeIf([&](const QHash<QString, std::pair<SessionService *, Part>>::iterator &it) { return it->second.messageID() == mid; });
        m_removals.append({keyOf(service), sid, mid, {}});
        schedule();
    });
    QObject::connect(service, &SessionService::partUpdated, this, [this, service](const Part &p, const QString &) {
        m_parts.insert(p.id(), {service, p});
        schedule();
    });
    QObject::connect(service, &SessionService::partRemoved, this, [this, service](const QString &sid, const QString &mid, const QString &pid) {
        m_parts.remove(pid);
        m_removals.append({keyOf(service), sid, mid, pid});
        schedule();
    });
    QObject::connect(service, &SessionService::sessionChangedExternally, this, [this, service](const QString &sid) {
        m_reindex.insert({service, sid});
        schedule();
    });
    QObject::connect(service, &QObject::destroyed, this, [this, service] { removeSource(service, false); });
    syncSource(service, false);
}

void SearchIndex::Worker::removeSource(SessionService *service, bool alive)
{
    if (alive)
        flush();
    {
        QMutexLocker locker(&m_index->m_mutex);
        m_index->m_stores.remove(keyOf(service));
    }
    m_sources.remove(service);
    m_parts.removeIf([service](const QHash<QString, std::pair<SessionService *, Part>>::iterator &it) { return it->first == service; });
    m_messages.removeIf([service](const QHash<QString, std::pair<SessionService *, Message>>::iterator &it) { return it->first == service; });
    m_sessions.removeIf([service](const QHash<QString, std::pair<SessionService *, Session>>::iterator &it) { return it->first == service; });
    m_reindex.removeIf([service](const std::pair<SessionService *, QString> &p) { return p.first == service; });
    // A destroyed service has dropped its connections already (and must not be touched).
    if (alive)
        QObject::disconnect(service, nullptr, this, nullptr);
}

void SearchIndex::Worker::syncSource(SessionService *service, bool rebuild)
{
    const QString key = keyOf(service);
    SearchIndex *index = m_index;
    // Listing a source's sessions and their stamps is the sync's heaviest read (30,000 sessions
    // of a database): a pause (the window's start) holds it too.
    if (!index->waitWhilePaused()) {
        if (!index->isClosing()) {
            // Interrupted by a source's removal: the sync follows it, if this source stays.
            QMetaObject::invokeMethod(this, [this, service, rebuild] {
                if (m_sources.contains(service))
                    syncSource(service, rebuild);
            }, Qt::QueuedConnection);
        }
        return;
    }
    Result<SyncStats> r = m_index->sync(*storeOf(*service), key, rebuild, [index](int done, int total) {
        QMetaObject::invokeMethod(index, [index, done, total] { Q_EMIT index->progress(done, total); }, Qt::QueuedConnection);
        return index->backgroundProgress(done, total);
    });
    if (!r) {
        const Error e = r.error();
        QMetaObject::invokeMethod(index, [index, e] { Q_EMIT index->problemFound(e.where, e.message); }, Qt::QueuedConnection);
        return;
    }
    qCInfo(lcSearch) << "indexed" << key << ":" << r->indexed << "of" << r->sessions << "sessions read again," << r->removed << "removed"
                     << (r->stopped ? "(stopped)" : "");
    if (r->stopped && !m_index->isClosing()) {
        // Stopped for a source's removal: the rest follows it (the batches written are kept).
        QMetaObject::invokeMethod(this, [this, service] {
            if (m_sources.contains(service))
                syncSource(service, false);
        }, Qt::QueuedConnection);
    }
    QMetaObject::invokeMethod(index, [index] { Q_EMIT index->updated(); }, Qt::QueuedConnection);
}

void SearchIndex::Worker::rebuildAll()
{
    flush();
    if (Result<void> r = m_index->clear(); !r)
        qCWarning(lcSearch) << "could not clear the index:" << r.error().toString();
    syncAll(true);
}

void SearchIndex::Worker::syncAll(bool rebuild)
{
    flush();
    const QList<SessionService *> services = m_sources.keys();
    for (SessionService *service : services)
        syncSource(service, rebuild);
}

qint64 SearchIndex::Worker::messageTime(SessionService *service, const QString &sessionID, const QString &messageID)
{
    if (auto it = m_messageTimes.constFind(messageID); it != m_messageTimes.constEnd())
        return it.value();
    if (m_messageTimes.size() > 20000)
        m_messageTimes.clear();
    const std::optional<Message> m = storeOf(*service)->message(sessionID, messageID);
    const qint64 t = m ? m->created() : 0;
    m_messageTimes.insert(messageID, t);
    return t;
}

void SearchIndex::Worker::flush()
{
    if (m_timer)
        m_timer->stop();
    if (m_parts.isEmpty() && m_messages.isEmpty() && m_sessions.isEmpty() && m_removals.isEmpty() && m_reindex.isEmpty())
        return;
    const auto parts = std::exchange(m_parts, {});
    const auto messages = std::exchange(m_messages, {});
    const auto sessions = std::exchange(m_sessions, {});
    const auto removals = std::exchange(m_removals, {});
    const auto reindex = std::exchange(m_reindex, {});

    // Sessions read again in full: read before the write transaction.
    struct Full {
        QString source;
        Session session;
        QList<MessageWithParts> messages;
    };
    QList<Full> full;
    for (const auto &[service, sessionID] : reindex) {
        if (!m_sources.contains(service))
            continue;
        if (std::optional<Session> s = storeOf(*service)->session(sessionID))
            full.append({keyOf(service), *s, storeOf(*service)->messagesWithParts(sessionID)});
    }
    Result<QSqlDatabase> db = m_index->connection();
    if (!db)
        return;
    const bool toolOutputs = m_index->limits().toolOutputs;
    QSqlDatabase connection = db.value();
    connection.transaction();
    Result<void> result;
    for (const Removal &r : removals) {
        if (r.messageID.isEmpty())
            result = m_index->deleteSessionDocs(connection, r.source, r.sessionID, true);
        else
            result = m_index->removeDocument(connection, r.source, r.sessionID, r.messageID, r.partID);
        if (!result)
            break;
    }
    for (const Full &f : std::as_const(full)) {
        if (!result)
            break;
        result = m_index->writeSession(connection, f.source, f.session, f.messages, 0, toolOutputs);
    }
    for (auto it = sessions.constBegin(); result && it != sessions.constEnd(); ++it) {
        const auto &[service, session] = it.value();
        if (!m_sources.contains(service))
            continue;
        const Result<qint64> source = m_index->sourceRow(connection, keyOf(service), true);
        if (!source) {
            result = source.error();
            break;
        }
        QSqlQuery q(connection);
        // Keep the stamp: the next sync reads the session again anyway if it changed.
        q.prepare(u"INSERT INTO session(source, sid, title, stamp) VALUES(?, ?, ?, 0) "
                  u"ON CONFLICT(source, sid) DO UPDATE SET title = excluded.title"_s);
        q.addBindValue(source.value());
        q.addBindValue(notNull(session.id()));
        q.addBindValue(notNull(session.title()));
        if (!q.exec()) {
            result = sqlError(q, m_index->m_file);
            break;
        }
        result = m_index->upsertDocument(connection, keyOf(service), session.id(),
                                         SearchDocument{{}, {}, u"title"_s, {}, session.created()}, session.title());
    }
    for (auto it = messages.constBegin(); result && it != messages.constEnd(); ++it) {
        const auto &[service, message] = it.value();
        if (!m_sources.contains(service))
            continue;
        const QList<SearchDocument> docs = documents(message, {});
        if (docs.isEmpty())
            result = m_index->removeDocument(connection, keyOf(service), message.sessionID(), message.id(), {});
        for (const SearchDocument &d : docs) {
            if (!(result = m_index->upsertDocument(connection, keyOf(service), message.sessionID(), d)))
                break;
        }
    }
    for (auto it = parts.constBegin(); result && it != parts.constEnd(); ++it) {
        const auto &[service, part] = it.value();
        if (!m_sources.contains(service))
            continue;
        const qint64 time = messageTime(service, part.sessionID(), part.messageID());
        if (std::optional<SearchDocument> d = document(part, time, nullptr, toolOutputs))
            result = m_index->upsertDocument(connection, keyOf(service), part.sessionID(), *d);
        else
            result = m_index->removeDocument(connection, keyOf(service), part.sessionID(), part.messageID(), part.id());
    }
    if (!result) {
        connection.rollback();
        qCWarning(lcSearch).noquote() << "could not update the index:" << result.error().toString();
        const Error e = result.error();
        SearchIndex *index = m_index;
        QMetaObject::invokeMethod(index, [index, e] { Q_EMIT index->problemFound(e.where, e.message); }, Qt::QueuedConnection);
        return;
    }
    connection.commit();
    SearchIndex *index = m_index;
    QMetaObject::invokeMethod(index, [index] { Q_EMIT index->updated(); }, Qt::QueuedConnection);
}

// ---------------------------------------------------------------------------------------------

SearchIndex::SearchIndex(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<SearchHit>();
    registerMetaTypes();
    m_thread.setObjectName(u"weft-search"_s);
}

SearchIndex::~SearchIndex()
{
    {
        // A paused sync stops before its next batch.
        QMutexLocker locker(&m_mutex);
        m_closing = true;
        m_wake.wakeAll();
    }
    if (m_worker) {
        Worker *worker = m_worker;
        QMetaObject::invokeMethod(worker, [worker] {
            worker->flush();
            delete worker;
        }, Qt::BlockingQueuedConnection);
        m_worker = nullptr;
    }
    m_thread.quit();
    m_thread.wait();
    m_connections.reset();
}

QString SearchIndex::defaultFile(const QString &weftDataDir)
{
    return QDir(weftDataDir).filePath(u"search.db"_s);
}

QString SearchIndex::sourceKey(const Store &store)
{
    return store.location();
}

Result<QSqlDatabase> SearchIndex::connection()
{
    if (!m_connections)
        return Error{SearchTr::tr("the search index is not open"), m_file};
    return m_connections->get();
}

Result<void> SearchIndex::open(const QString &file)
{
    m_file = QDir::cleanPath(QDir::current().absoluteFilePath(file));
    {
        QMutexLocker locker(&m_mutex);
        m_sourceRows.clear();
    }
    if (!QDir().mkpath(QFileInfo(m_file).absolutePath()))
        return Error{SearchTr::tr("cannot create the folder of the search index"), m_file};
    const bool ownTokenizer = SearchTokenizer::isAvailable();
    m_tokenizer = ownTokenizer ? QString::fromLatin1(SearchTokenizer::Name) : u"trigram"_s;
    const QString tokenize = m_tokenizer == u"weft" ? u"weft remove_diacritics 2"_s : m_tokenizer;
    auto connect = [&] {
        m_connections = std::make_unique<ThreadConnections>(m_file, u"QSQLITE_BUSY_TIMEOUT=10000"_s, [ownTokenizer, tokenize](QSqlDatabase &db) -> Result<void> {
            if (ownTokenizer) {
                if (Result<void> r = SearchTokenizer::registerOn(db); !r)
                    return r;
            }
            QSqlQuery q(db);
            q.exec(u"PRAGMA journal_mode = WAL"_s);
            q.exec(u"PRAGMA synchronous = NORMAL"_s);
            // A sync's big transactions grow the write-ahead log; it shrinks again after a checkpoint.
            q.exec(u"PRAGMA journal_size_limit = 4194304"_s);
            // Snippets: the hits' text from their stores goes through a small FTS5 table of the
            // connection's own, with the index's tokenizer, so that they look as FTS5 makes them.
            q.exec(u"PRAGMA temp_store = MEMORY"_s);
            if (!q.exec(u"CREATE VIRTUAL TABLE IF NOT EXISTS temp.snip USING fts5(title, body, tokenize = '%1')"_s.arg(tokenize)))
                return sqlError(q, db.databaseName());
            return {};
        });
        return connection();
    };
    Result<QSqlDatabase> db = connect();
    if (!db) {
        m_connections.reset();
        return Error{SearchTr::tr("cannot open the search index: %1").arg(db.error().message), m_file};
    }
    {
        QSqlQuery q(db.value());
        const QString version = q.exec(u"SELECT sqlite_version()"_s) && q.next() ? q.value(0).toString() : QString();
        const QStringList v = version.split(u'.');
        const int number = v.size() >= 2 ? v.at(0).toInt() * 1000000 + v.at(1).toInt() * 1000 + v.value(2).toInt() : 0;
        if (number < MinimumSqlite) {
            m_connections.reset();
            return Error{SearchTr::tr("the search index needs SQLite 3.43 or newer; this system has %1").arg(version), m_file};
        }
    }
    if (isStale(db.value())) {
        // An index of an older layout (or another tokenizer) is deleted, not converted: the
        // next sync makes it again, and a Weft of the old layout still running keeps writing
        // into the file it opened, never into this one.
        qCInfo(lcSearch) << "search index of another layout or tokenizer - making it again:" << m_file;
        m_connections->closeAll();
        m_connections.reset();
        for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s, u"-journal"_s}) {
            if (QFile::exists(m_file + suffix) && !QFile::remove(m_file + suffix))
                return Error{SearchTr::tr("cannot create the search index: %1").arg(m_file + suffix), m_file};
        }
        db = connect();
        if (!db) {
            m_connections.reset();
            return Error{SearchTr::tr("cannot open the search index: %1").arg(db.error().message), m_file};
        }
    }
    if (Result<void> r = createSchema(db.value()); !r) {
        m_connections.reset();
        return r;
    }
    if (!m_worker) {
        m_worker = new Worker(this);
        m_worker->moveToThread(&m_thread);
        m_thread.start(QThread::IdlePriority);
        QMetaObject::invokeMethod(m_worker, [this] { m_threadId = becomeGuest(); }, Qt::BlockingQueuedConnection);
    }
    return {};
}

bool SearchIndex::isStale(QSqlDatabase &db) const
{
    QSqlQuery q(db);
    if (!q.exec(u"SELECT count(*) FROM sqlite_schema"_s) || !q.next() || q.value(0).toInt() == 0)
        return false; // a new file
    QString version, tokenizer;
    if (q.exec(u"SELECT key, value FROM meta WHERE key IN ('schema', 'tokenizer')"_s)) {
        while (q.next())
            (q.value(0).toString() == u"schema" ? version : tokenizer) = q.value(1).toString();
    }
    return version != QString::number(SchemaVersion) || tokenizer != m_tokenizer;
}

void SearchIndex::setLimits(const Limits &limits)
{
    QMutexLocker locker(&m_mutex);
    m_limits = limits;
}

SearchIndex::Limits SearchIndex::limits() const
{
    QMutexLocker locker(&m_mutex);
    return m_limits;
}

void SearchIndex::pause(const QString &reason)
{
    QMutexLocker locker(&m_mutex);
    m_pauses.insert(reason);
}

void SearchIndex::resume(const QString &reason)
{
    QMutexLocker locker(&m_mutex);
    if (m_pauses.remove(reason) && m_pauses.isEmpty())
        m_wake.wakeAll();
}

bool SearchIndex::isPaused() const
{
    QMutexLocker locker(&m_mutex);
    return !m_pauses.isEmpty();
}

bool SearchIndex::isClosing() const
{
    QMutexLocker locker(&m_mutex);
    return m_closing;
}

bool SearchIndex::backgroundProgress(int done, int total)
{
    m_done = done;
    m_total = total;
    if (done < total)
        return waitWhilePaused();
    QMutexLocker locker(&m_mutex);
    return !m_closing && m_interrupts == 0;
}

bool SearchIndex::waitWhilePaused()
{
    QMutexLocker locker(&m_mutex);
    while (!m_pauses.isEmpty() && !m_closing && m_interrupts == 0) {
        m_waiting = true;
        m_wake.wait(&m_mutex);
    }
    m_waiting = false;
    return !m_closing && m_interrupts == 0;
}

Result<void> SearchIndex::createSchema(QSqlDatabase &db)
{
    QSqlQuery q(db);
    if (q.exec(u"SELECT 1 FROM meta WHERE key = 'schema'"_s) && q.next())
        return {};
    q.finish();
    if (!db.transaction())
        return Error{db.lastError().text(), m_file};
    const QString tokenize = m_tokenizer == u"weft" ? u"weft remove_diacritics 2"_s : m_tokenizer;
    // Sources and sessions once each; a document is its session's row, its message and part
    // (to open it and to read its text for a snippet), its kind and time. FTS5 keeps no copy
    // of the text (content=''), and deletes rows itself (contentless_delete, SQLite 3.43).
    // No positions (detail=none: 0.3 of the text instead of 0.5): "quoted phrases" and CJK
    // words of more than two characters (phrases of bigrams) are asked as an AND of their
    // tokens and checked against the text (search()). The trigram fallback keeps positions.
    const QStringList statements{
        u"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"_s,
        u"CREATE TABLE IF NOT EXISTS source(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)"_s,
        u"CREATE TABLE IF NOT EXISTS session(id INTEGER PRIMARY KEY, source INTEGER NOT NULL, sid TEXT NOT NULL, "
        u"title TEXT NOT NULL DEFAULT '', stamp INTEGER NOT NULL DEFAULT 0, UNIQUE(source, sid))"_s,
        u"CREATE TABLE IF NOT EXISTS doc(id INTEGER PRIMARY KEY, session INTEGER NOT NULL, message TEXT NOT NULL, part TEXT NOT NULL, "
        u"kind INTEGER NOT NULL, time INTEGER NOT NULL)"_s,
        u"CREATE INDEX IF NOT EXISTS doc_session ON doc(session)"_s,
        u"CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tokenize = '%1', content = '', contentless_delete = 1%2)"_s.arg(
            tokenize, m_tokenizer == u"weft" ? u", detail = none"_s : QString()),
        u"INSERT INTO fts(fts, rank) VALUES('rank', '%1')"_s.arg(m_tokenizer == u"weft" ? u"weft_rank()"_s : u"bm25(4.0, 1.0)"_s),
    };
    for (const QString &sql : statements) {
        if (!q.exec(sql)) {
            const Error e = sqlError(q, m_file);
            db.rollback();
            return Error{SearchTr::tr("cannot create the search index: %1").arg(e.message), m_file};
        }
    }
    q.prepare(u"INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)"_s);
    for (const auto &[k, v] : {std::pair{u"schema"_s, QString::number(SchemaVersion)}, std::pair{u"tokenizer"_s, m_tokenizer}}) {
        q.addBindValue(k);
        q.addBindValue(v);
        q.exec();
    }
    if (!db.commit())
        return Error{db.lastError().text(), m_file};
    return {};
}

// ---------------------------------------------------------------------------------------------

std::optional<SearchDocument> SearchIndex::document(const Part &part, qint64 time, QSet<size_t> *seenOutputs, bool toolOutputs)
{
    SearchDocument d{part.messageID(), part.id(), {}, {}, time};
    QStringList texts;
    switch (part.type()) {
    case PartType::Text:
        d.kind = u"text"_s;
        texts << part.text();
        break;
    case PartType::Reasoning:
        d.kind = u"reasoning"_s;
        texts << part.text();
        break;
    case PartType::Tool: {
        d.kind = u"tool"_s;
        const ToolState state = part.state();
        // Found by either release's name: "bash" finds a 2.x shell call, "shell" a 1.x one.
        texts << part.tool() << ToolNames::displayName(part.tool()) << state.title();
        collectStrings(state.input(), texts);
        if (state.status() == ToolStatus::Error) {
            texts << state.errorText();
        } else if (toolOutputs) {
            // The same output (a file read twice, a test run repeated) counts once per session.
            const QString output = state.output();
            const size_t hash = qHash(output);
            if (!seenOutputs || !seenOutputs->contains(hash))
                texts << cappedOutput(output);
            if (seenOutputs && !output.isEmpty())
                seenOutputs->insert(hash);
        }
        break;
    }
    case PartType::File: {
        d.kind = u"file"_s;
        texts << part.filename();
        if (part.url().startsWith(u"file:"))
            texts << QUrl(part.url()).toLocalFile();
        collectStrings(part.json().object(u"source").value(u"path"), texts);
        break;
    }
    case PartType::Patch:
        d.kind = u"patch"_s;
        texts << part.files();
        break;
    case PartType::Subtask:
        d.kind = u"subtask"_s;
        texts << part.description() << part.prompt() << part.agent();
        break;
    case PartType::Agent:
        d.kind = u"agent"_s;
        texts << part.name();
        break;
    case PartType::Retry:
        d.kind = u"retry"_s;
        texts << part.retryError().message();
        break;
    default:
        return std::nullopt;
    }
    texts.removeAll(QString());
    d.text = capped(texts.join(u'\n'));
    if (d.text.trimmed().isEmpty())
        return std::nullopt;
    return d;
}

QList<SearchDocument> SearchIndex::documents(const Message &message, const QList<Part> &parts, QSet<size_t> *seenOutputs,
                                             bool toolOutputs)
{
    QList<SearchDocument> result;
    if (message.isAssistant() && message.hasError()) {
        const MessageError error = message.error();
        const QString text = error.message().isEmpty() ? error.name() : error.name() + u": "_s + error.message();
        result.append(SearchDocument{message.id(), {}, u"error"_s, capped(text), message.created()});
    }
    for (const Part &p : parts) {
        if (std::optional<SearchDocument> d = document(p, message.created(), seenOutputs, toolOutputs))
            result.append(*d);
    }
    return result;
}

QString SearchIndex::ftsQuery(const QString &query)
{
    return ftsQuery(query, {}, nullptr);
}

QString SearchIndex::ftsQuery(const QString &query, const std::function<QStringList(const QString &)> &split, bool *inexact)
{
    struct Term {
        QString text;
        bool quoted = false;
    };
    QList<Term> raw;
    QString current;
    bool inQuote = false, quoted = false;
    auto push = [&] {
        if (!current.isEmpty() || quoted)
            raw.append({current, quoted});
        current.clear();
        quoted = false;
    };
    for (const QChar c : query) {
        if (c == u'"') {
            if (inQuote) {
                inQuote = false;
                push();
            } else {
                push();
                inQuote = true;
                quoted = true;
            }
        } else if (c.isSpace() && !inQuote) {
            push();
        } else {
            current.append(c);
        }
    }
    push();

    auto phrase = [](const QString &text, bool prefix) {
        QString result;
        result.reserve(text.size() + 3);
        result.append(u'"');
        for (const QChar c : text) {
            result.append(c);
            if (c == u'"')
                result.append(c);
        }
        result.append(u'"');
        if (prefix)
            result.append(u'*');
        return result;
    };
    QStringList groups;      // AND-ed groups of OR-ed phrases
    QStringList exclusions;
    bool orNext = false;
    for (const Term &t : std::as_const(raw)) {
        if (!t.quoted && t.text == u"OR") {
            orNext = !groups.isEmpty();
            continue;
        }
        QString text = t.text;
        bool negative = false, prefix = false;
        if (!t.quoted && text.size() > 1 && text.startsWith(u'-')) {
            negative = true;
            text.remove(0, 1);
        }
        if (!t.quoted && text.size() > 1 && text.endsWith(u'*')) {
            prefix = true;
            text.chop(1);
        }
        if (!hasWordCharacter(text))
            continue;
        QString p = phrase(text, prefix);
        if (split) {
            QStringList tokens = split(text);
            tokens.removeIf([](const QString &token) { return token.startsWith(u'+'); }); // colocated
            if (tokens.size() > 1) {
                if (inexact)
                    *inexact = true;
                if (negative)
                    continue; // excluded by the check against the text
                QStringList each;
                for (qsizetype i = 0; i < tokens.size(); ++i)
                    each.append(phrase(tokens.at(i), prefix && i == tokens.size() - 1));
                p = u"("_s + each.join(u' ') + u")"_s;
            }
        }
        if (negative) {
            exclusions.append(p);
        } else if (orNext && !groups.isEmpty()) {
            groups.last() += u" OR "_s + p;
        } else {
            groups.append(p);
        }
        orNext = false;
    }
    if (groups.isEmpty())
        return {};
    QStringList parts;
    for (const QString &g : std::as_const(groups))
        parts.append(g.contains(u" OR "_s) ? u"("_s + g + u")"_s : g);
    // FTS5 ANDs phrases side by side, but not a phrase and a group in parentheses.
    const bool bracketed = std::any_of(parts.cbegin(), parts.cend(), [](const QString &part) { return part.startsWith(u'('); });
    QString expression = parts.join(bracketed ? u" AND "_s : u" "_s);
    if (!exclusions.isEmpty())
        expression = u"("_s + expression + u") NOT "_s + exclusions.join(u" NOT "_s);
    return expression;
}

// ---------------------------------------------------------------------------------------------

Result<qint64> SearchIndex::sourceRow(QSqlDatabase &db, const QString &source, bool create)
{
    {
        QMutexLocker locker(&m_mutex);
        if (auto it = m_sourceRows.constFind(source); it != m_sourceRows.constEnd())
            return it.value();
    }
    QSqlQuery q(db);
    q.prepare(u"SELECT id FROM source WHERE key = ?"_s);
    q.addBindValue(notNull(source));
    if (!q.exec())
        return sqlError(q, m_file);
    if (q.next()) {
        // Only rows that exist are remembered (an insert may yet be rolled back); rows are
        // never removed while the file is open.
        const qint64 id = q.value(0).toLongLong();
        QMutexLocker locker(&m_mutex);
        m_sourceRows.insert(source, id);
        return id;
    }
    if (!create)
        return qint64(-1);
    q.prepare(u"INSERT INTO source(key) VALUES(?)"_s);
    q.addBindValue(notNull(source));
    if (!q.exec())
        return sqlError(q, m_file);
    return q.lastInsertId().toLongLong();
}

Result<qint64> SearchIndex::sessionRow(QSqlDatabase &db, const QString &source, const QString &sessionID, bool create)
{
    const Result<qint64> sourceID = sourceRow(db, source, create);
    if (!sourceID || sourceID.value() < 0)
        return sourceID;
    QSqlQuery q(db);
    q.prepare(create ? u"INSERT INTO session(source, sid) VALUES(?, ?) ON CONFLICT(source, sid) DO UPDATE SET sid = sid RETURNING id"_s
                     : u"SELECT id FROM session WHERE source = ? AND sid = ?"_s);
    q.addBindValue(sourceID.value());
    q.addBindValue(notNull(sessionID));
    if (!q.exec())
        return sqlError(q, m_file);
    return q.next() ? q.value(0).toLongLong() : qint64(-1);
}

Result<void> SearchIndex::deleteSessionDocs(QSqlDatabase &db, const QString &source, const QString &sessionID, bool row)
{
    const Result<qint64> session = sessionRow(db, source, sessionID, false);
    if (!session)
        return session.error();
    if (session.value() < 0)
        return {};
    QSqlQuery q(db);
    QStringList statements{u"DELETE FROM fts WHERE rowid IN (SELECT id FROM doc WHERE session = ?)"_s, u"DELETE FROM doc WHERE session = ?"_s};
    if (row)
        statements.append(u"DELETE FROM session WHERE id = ?"_s);
    for (const QString &sql : std::as_const(statements)) {
        q.prepare(sql);
        q.addBindValue(session.value());
        if (!q.exec())
            return sqlError(q, m_file);
    }
    return {};
}

Result<void> SearchIndex::removeDocument(QSqlDatabase &db, const QString &source, const QString &sessionID,
                                         const QString &messageID, const QString &partID)
{
    const Result<qint64> session = sessionRow(db, source, sessionID, false);
    if (!session)
        return session.error();
    if (session.value() < 0)
        return {};
    QSqlQuery q(db);
    // A message ID without a part ID removes the message's documents (its error and its parts).
    const QString where = partID.isEmpty() ? u"session = ? AND message = ?"_s : u"session = ? AND message = ? AND part = ?"_s;
    for (const QString &sql : {u"DELETE FROM fts WHERE rowid IN (SELECT id FROM doc WHERE %1)"_s.arg(where), u"DELETE FROM doc WHERE %1"_s.arg(where)}) {
        q.prepare(sql);
        q.addBindValue(session.value());
        q.addBindValue(notNull(messageID));
        if (!partID.isEmpty())
            q.addBindValue(partID);
        if (!q.exec())
            return sqlError(q, m_file);
    }
    return {};
}

Result<void> SearchIndex::upsertDocument(QSqlDatabase &db, const QString &source, const QString &sessionID,
                                         const SearchDocument &doc, const QString &title)
{
    const Result<qint64> session = sessionRow(db, source, sessionID, true);
    if (!session)
        return session.error();
    QSqlQuery q(db);
    q.prepare(u"SELECT id FROM doc WHERE session = ? AND message = ? AND part = ?"_s);
    q.addBindValue(session.value());
    q.addBindValue(notNull(doc.messageID));
    q.addBindValue(notNull(doc.partID));
    if (!q.exec())
        return sqlError(q, m_file);
    qint64 id = -1;
    if (q.next())
        id = q.value(0).toLongLong();
    q.finish();
    if (id >= 0) {
        q.prepare(u"DELETE FROM fts WHERE rowid = ?"_s);
        q.addBindValue(id);
        if (!q.exec())
            return sqlError(q, m_file);
        if (doc.text.isEmpty() && title.isEmpty()) {
            q.prepare(u"DELETE FROM doc WHERE id = ?"_s);
            q.addBindValue(id);
            return q.exec() ? Result<void>() : Result<void>(sqlError(q, m_file));
        }
        q.prepare(u"UPDATE doc SET kind = ?, time = ? WHERE id = ?"_s);
        q.addBindValue(kindCode(doc.kind));
        q.addBindValue(doc.time);
        q.addBindValue(id);
        if (!q.exec())
            return sqlError(q, m_file);
    } else {
        if (doc.text.isEmpty() && title.isEmpty())
            return {};
        q.prepare(u"INSERT INTO doc(session, message, part, kind, time) VALUES(?, ?, ?, ?, ?)"_s);
        q.addBindValue(session.value());
        q.addBindValue(notNull(doc.messageID));
        q.addBindValue(notNull(doc.partID));
        q.addBindValue(kindCode(doc.kind));
        q.addBindValue(doc.time);
        if (!q.exec())
            return sqlError(q, m_file);
        id = q.lastInsertId().toLongLong();
    }
    q.prepare(u"INSERT INTO fts(rowid, title, body) VALUES(?, ?, ?)"_s);
    q.addBindValue(id);
    q.addBindValue(notNull(title));
    q.addBindValue(notNull(doc.text));
    if (!q.exec())
        return sqlError(q, m_file);
    return {};
}

Result<void> SearchIndex::writeSession(QSqlDatabase &db, const QString &source, const Session &session,
                                       const QList<MessageWithParts> &messages, qint64 stamp, bool toolOutputs)
{
    if (Result<void> r = deleteSessionDocs(db, source, session.id()); !r)
        return r;
    const Result<qint64> sourceID = sourceRow(db, source, true);
    if (!sourceID)
        return sourceID.error();
    QSqlQuery s(db);
    s.prepare(u"INSERT INTO session(source, sid, title, stamp) VALUES(?, ?, ?, ?) "
              u"ON CONFLICT(source, sid) DO UPDATE SET title = excluded.title, stamp = excluded.stamp RETURNING id"_s);
    s.addBindValue(sourceID.value());
    s.addBindValue(notNull(session.id()));
    s.addBindValue(notNull(session.title()));
    s.addBindValue(stamp);
    if (!s.exec() || !s.next())
        return sqlError(s, m_file);
    const qint64 sessionRowID = s.value(0).toLongLong();
    s.finish();
    QSqlQuery doc(db);
    doc.prepare(u"INSERT INTO doc(session, message, part, kind, time) VALUES(?, ?, ?, ?, ?)"_s);
    QSqlQuery fts(db);
    fts.prepare(u"INSERT INTO fts(rowid, title, body) VALUES(?, ?, ?)"_s);
    auto insert = [&](const SearchDocument &d, const QString &title) -> Result<void> {
        doc.bindValue(0, sessionRowID);
        doc.bindValue(1, notNull(d.messageID));
        doc.bindValue(2, notNull(d.partID));
        doc.bindValue(3, kindCode(d.kind));
        doc.bindValue(4, d.time);
        if (!doc.exec())
            return sqlError(doc, m_file);
        fts.bindValue(0, doc.lastInsertId());
        fts.bindValue(1, notNull(title));
        fts.bindValue(2, notNull(d.text));
        if (!fts.exec())
            return sqlError(fts, m_file);
        return {};
    };
    if (!session.title().isEmpty()) {
        if (Result<void> r = insert(SearchDocument{{}, {}, u"title"_s, {}, session.created()}, session.title()); !r)
            return r;
    }
    QSet<size_t> seenOutputs;
    for (const MessageWithParts &m : messages) {
        for (const SearchDocument &d : documents(m.info, m.parts, &seenOutputs, toolOutputs)) {
            if (Result<void> r = insert(d, {}); !r)
                return r;
        }
    }
    return {};
}

Result<void> SearchIndex::indexSession(const QString &source, const Session &session, const QList<MessageWithParts> &messages, qint64 stamp)
{
    Result<QSqlDatabase> db = connection();
    if (!db)
        return db.error();
    QSqlDatabase c = db.value();
    if (!c.transaction())
        return Error{c.lastError().text(), m_file};
    Result<void> r = writeSession(c, source, session, messages, stamp, limits().toolOutputs);
    if (!r) {
        c.rollback();
        return r;
    }
    if (!c.commit())
        return Error{c.lastError().text(), m_file};
    return {};
}

Result<void> SearchIndex::removeSession(const QString &source, const QString &sessionID)
{
    Result<QSqlDatabase> db = connection();
    if (!db)
        return db.error();
    QSqlDatabase c = db.value();
    c.transaction();
    Result<void> r = deleteSessionDocs(c, source, sessionID, true);
    if (!r) {
        c.rollback();
        return r;
    }
    c.commit();
    return {};
}

Result<void> SearchIndex::clear(const QString &source)
{
    Result<QSqlDatabase> db = connection();
    if (!db)
        return db.error();
    QSqlDatabase c = db.value();
    c.transaction();
    QSqlQuery q(c);
    bool ok = true;
    if (source.isEmpty()) {
        ok = q.exec(u"INSERT INTO fts(fts) VALUES('delete-all')"_s) && q.exec(u"DELETE FROM doc"_s) && q.exec(u"DELETE FROM session"_s);
    } else {
        const Result<qint64> sourceID = sourceRow(c, source, false);
        if (!sourceID) {
            c.rollback();
            return sourceID.error();
        }
        for (const QString &sql : {u"DELETE FROM fts WHERE rowid IN (SELECT d.id FROM session s JOIN doc d ON d.session = s.id WHERE s.source = ?)"_s,
                                   u"DELETE FROM doc WHERE session IN (SELECT id FROM session WHERE source = ?)"_s,
                                   u"DELETE FROM session WHERE source = ?"_s}) {
            q.prepare(sql);
            q.addBindValue(sourceID.value());
            ok = ok && q.exec();
        }
    }
    if (!ok) {
        const Error e = sqlError(q, m_file);
        c.rollback();
        return e;
    }
    c.commit();
    return {};
}

Result<void> SearchIndex::optimize()
{
    Result<QSqlDatabase> db = connection();
    if (!db)
        return db.error();
    QSqlQuery q(db.value());
    if (!q.exec(u"INSERT INTO fts(fts) VALUES('optimize')"_s))
        return sqlError(q, m_file);
    if (!q.exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s))
        return sqlError(q, m_file);
    return {};
}

Result<SearchIndex::Plan> SearchIndex::plan(QSqlDatabase &c, Store &store, const QString &source, bool rebuild)
{
    const Limits limits = this->limits();
    Plan plan;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const Session &s : store.sessions()) {
        if (limits.admits(s, now))
            plan.sessions.append(s);
    }
    Result<QHash<QString, qint64>> changeStamps = store.changeStamps(plan.sessions);
    if (!changeStamps)
        return changeStamps.error();
    plan.stamps = changeStamps.value();
    for (const Session &s : std::as_const(plan.sessions)) {
        if (!plan.stamps.contains(s.id()))
            plan.stamps.insert(s.id(), s.updated());
    }

    QSqlQuery q(c);
    q.prepare(u"SELECT value FROM meta WHERE key = ?"_s);
    q.addBindValue(QString(u"limits:"_s + source));
    if (!q.exec())
        return sqlError(q, m_file);
    // An index from before the limits was made with the default ones.
    const QString fingerprint = q.next() ? q.value(0).toString() : Limits().fingerprint();
    q.finish();
    plan.limitsChanged = fingerprint != limits.fingerprint();

    QHash<QString, qint64> indexed;
    const Result<qint64> sourceID = sourceRow(c, source, false);
    if (!sourceID)
        return sourceID.error();
    q.prepare(u"SELECT sid, stamp FROM session WHERE source = ?"_s);
    q.addBindValue(sourceID.value());
    if (!q.exec())
        return sqlError(q, m_file);
    while (q.next())
        indexed.insert(q.value(0).toString(), q.value(1).toLongLong());
    QSet<QString> present;
    for (const Session &s : std::as_const(plan.sessions)) {
        present.insert(s.id());
        const auto it = indexed.constFind(s.id());
        const qint64 stamp = plan.stamps.value(s.id());
        if (rebuild || plan.limitsChanged || it == indexed.constEnd() || it.value() != stamp || stamp == 0)
            plan.todo.append(s);
    }
    for (auto it = indexed.constBegin(); it != indexed.constEnd(); ++it) {
        if (!present.contains(it.key()))
            plan.gone.append(it.key());
    }
    return plan;
}

Result<SearchIndex::Status> SearchIndex::status(Store &store, const QString &sourceArg)
{
    const QString source = sourceArg.isEmpty() ? sourceKey(store) : sourceArg;
    Result<QSqlDatabase> db = connection();
    if (!db)
        return db.error();
    QSqlDatabase c = db.value();
    Result<Plan> p = plan(c, store, source, false);
    if (!p)
        return p.error();
    Status status;
    status.sessions = int(p->sessions.size());
    status.indexed = int(p->sessions.size() - p->todo.size());
    status.documents = documentCount(source);
    status.bytes = QFileInfo(m_file).size() + QFileInfo(m_file + u"-wal"_s).size();
    return status;
}

Result<SearchIndex::SyncStats> SearchIndex::sync(Store &store, const QString &sourceArg, bool rebuild,
                                                 const std::function<bool(int, int)> &progress)
{
    const QString source = sourceArg.isEmpty() ? sourceKey(store) : sourceArg;
    Result<QSqlDatabase> db = connection();
    if (!db)
        return db.error();
    QSqlDatabase c = db.value();
    Result<Plan> planned = plan(c, store, source, rebuild);
    if (!planned)
        return planned.error();
    const Plan &p = planned.value();
    const bool toolOutputs = limits().toolOutputs;
    SyncStats stats;
    stats.sessions = int(p.sessions.size());

    if (p.limitsChanged) {
        // Every session is read again; the stamps are forgotten first, so that a sync stopped
        // half-way goes on with the rest next time.
        c.transaction();
        QSqlQuery q(c);
        q.prepare(u"UPDATE session SET stamp = -1 WHERE source = (SELECT id FROM source WHERE key = ?)"_s);
        q.addBindValue(notNull(source));
        bool ok = q.exec();
        q.prepare(u"INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)"_s);
        q.addBindValue(QString(u"limits:"_s + source));
        q.addBindValue(limits().fingerprint());
        ok = ok && q.exec();
        if (!ok) {
            const Error e = sqlError(q, m_file);
            c.rollback();
            return e;
        }
        if (!c.commit())
            return Error{c.lastError().text(), m_file};
    }

    // Read a batch of sessions, then write it in one transaction with the sessions' stamps: the
    // store is never read while the index is locked for writing, and a process that is killed
    // loses one batch at most.
    constexpr qsizetype Batch = 64;
    const int total = int(p.todo.size());
    for (qsizetype start = 0; start < p.todo.size(); start += Batch) {
        if (progress && !progress(stats.indexed, total)) {
            stats.stopped = true;
            stats.documents = documentCount(source);
            return stats;
        }
        QList<std::pair<Session, QList<MessageWithParts>>> batch;
        for (qsizetype i = start; i < qMin(p.todo.size(), start + Batch); ++i)
            batch.append({p.todo.at(i), store.messagesWithParts(p.todo.at(i).id())});
        if (!c.transaction())
            return Error{c.lastError().text(), m_file};
        for (const auto &[session, messages] : std::as_const(batch)) {
            if (Result<void> r = writeSession(c, source, session, messages, p.stamps.value(session.id()), toolOutputs); !r) {
                c.rollback();
                return r.error();
            }
            ++stats.indexed;
        }
        if (!c.commit())
            return Error{c.lastError().text(), m_file};
    }
    if (!p.gone.isEmpty()) {
        c.transaction();
        for (const QString &id : std::as_const(p.gone)) {
            if (Result<void> r = deleteSessionDocs(c, source, id, true); !r) {
                c.rollback();
                return r.error();
            }
            ++stats.removed;
        }
        c.commit();
    }
    if (progress)
        progress(stats.indexed, total);
    stats.documents = documentCount(source);
    return stats;
}

qint64 SearchIndex::documentCount(const QString &source)
{
    Result<QSqlDatabase> db = connection();
    if (!db)
        return 0;
    QSqlQuery q(db.value());
    if (source.isEmpty()) {
        q.exec(u"SELECT count(*) FROM doc"_s);
    } else {
        q.prepare(u"SELECT count(*) FROM source src JOIN session s ON s.source = src.id JOIN doc d ON d.session = s.id WHERE src.key = ?"_s);
        q.addBindValue(notNull(source));
        q.exec();
    }
    return q.next() ? q.value(0).toLongLong() : 0;
}

Result<QList<SearchHit>> SearchIndex::search(const QString &query, const SearchOptions &options)
{
    QList<SearchHit> hits;
    const QString expression = ftsQuery(query);
    if (expression.isEmpty())
        return hits;
    Result<QSqlDatabase> db = connection();
    if (!db)
        return db.error();
    QSqlDatabase c = db.value();
    // Without positions in the index, terms of several tokens are asked as an AND of them and
    // the candidates checked against their text (the same text and tokenizer as the snippets).
    bool inexact = false;
    const QString candidates = m_tokenizer == u"weft"
        ? ftsQuery(query, [&c](const QString &text) { return SearchTokenizer::tokens(c, text, true); }, &inexact)
        : expression;
    qint64 sourceID = -1;
    if (!options.source.isEmpty()) {
        const Result<qint64> row = sourceRow(c, options.source, false);
        if (!row)
            return row.error();
        if (row.value() < 0)
            return hits; // nothing of it indexed yet
        sourceID = row.value();
    }
    const QString columns = u"src.key, s.sid, d.message, d.part, d.kind, d.time, s.title"_s;
    const QString sourceFilter = sourceID < 0 ? QString() : u"AND s.source = :source"_s;
    auto hitOf = [](const QSqlQuery &q) {
        SearchHit hit;
        hit.source = q.value(0).toString();
        hit.sessionID = q.value(1).toString();
        hit.messageID = q.value(2).toString();
        hit.partID = q.value(3).toString();
        hit.kind = kindName(q.value(4).toInt());
        hit.time = q.value(5).toLongLong();
        hit.sessionTitle = q.value(6).toString();
        return hit;
    };
    const qsizetype wanted = options.limit <= 0 ? -1 : options.limit;
    qsizetype skip = qMax(0, options.offset);
    // Takes the candidates in their order: skips the offset's true hits, keeps the page's.
    // Returns false when the page is full.
    auto take = [&](QList<SearchHit> batch) {
        const qsizetype chunk = qMax<qsizetype>(wanted < 0 ? 200 : wanted, 50);
        for (qsizetype from = 0; from < batch.size(); from += chunk) {
            QList<SearchHit> part = batch.mid(from, chunk);
            if (!inexact && skip >= part.size()) {
                skip -= part.size(); // exact candidates need no text to be skipped
                continue;
            }
            if (!inexact && skip > 0) {
                part.remove(0, skip);
                skip = 0;
            }
            if (!inexact && wanted >= 0)
                part.resize(qMin(part.size(), wanted - hits.size()));
            const QList<bool> matched = makeSnippets(c, expression, query, part);
            for (qsizetype i = 0; i < part.size(); ++i) {
                if (inexact && !matched.at(i))
                    continue;
                if (skip > 0) {
                    --skip;
                    continue;
                }
                hits.append(part.at(i));
                if (wanted >= 0 && hits.size() >= wanted)
                    return false;
            }
        }
        return true;
    };
    QSqlQuery q(c);
    q.setForwardOnly(true);
    if (!options.sessionID.isEmpty() || options.order == SearchOptions::Order::Timeline) {
        QString sql;
        if (!options.sessionID.isEmpty()) {
            // One session: walk its documents and test each against the query (a few hundred
            // probes) rather than every match in the index.
            sql = u"SELECT %1, fts.rank FROM session s CROSS JOIN doc d ON d.session = s.id CROSS JOIN fts ON fts.rowid = d.id "
                  u"JOIN source src ON src.id = s.source WHERE s.sid = :session %2 AND fts MATCH :query "_s.arg(columns, sourceFilter);
        } else {
            sql = u"SELECT %1, fts.rank FROM fts JOIN doc d ON d.id = fts.rowid JOIN session s ON s.id = d.session "
                  u"JOIN source src ON src.id = s.source WHERE fts MATCH :query %2 "_s.arg(columns, sourceFilter);
        }
        sql += options.order == SearchOptions::Order::Timeline ? u"ORDER BY d.time, d.message, d.part"_s : u"ORDER BY fts.rank"_s;
        if (!q.prepare(sql))
            return sqlError(q, m_file);
        q.bindValue(u":query"_s, candidates);
        if (sourceID >= 0)
            q.bindValue(u":source"_s, sourceID);
        if (!options.sessionID.isEmpty())
            q.bindValue(u":session"_s, options.sessionID);
        if (!q.exec())
            return Error{SearchTr::tr("cannot search for \"%1\": %2").arg(query, sqlError(q, m_file).message), m_file};
        QList<SearchHit> batch;
        while (q.next()) {
            batch.append(hitOf(q));
            batch.last().rank = q.value(7).toDouble();
        }
        if (q.lastError().isValid())
            return sqlError(q, m_file);
        q.finish();
        take(batch);
        return hits;
    }
    // Rank order: FTS5 scores the newest RankWindow matches (rowid order needs no scores), they
    // are taken best first, then the next window's.
    QSqlQuery doc(c);
    doc.setForwardOnly(true);
    if (!doc.prepare(u"SELECT %1 FROM doc d JOIN session s ON s.id = d.session JOIN source src ON src.id = s.source "
                     u"WHERE d.id = :id %2"_s.arg(columns, sourceFilter)))
        return sqlError(doc, m_file);
    if (!q.prepare(u"SELECT rowid, rank FROM fts WHERE fts MATCH :query AND rowid < :below ORDER BY rowid DESC LIMIT :window"_s))
        return sqlError(q, m_file);
    qint64 below = std::numeric_limits<qint64>::max();
    for (;;) {
        q.bindValue(u":query"_s, candidates);
        q.bindValue(u":below"_s, below);
        q.bindValue(u":window"_s, RankWindow);
        if (!q.exec())
            return Error{SearchTr::tr("cannot search for \"%1\": %2").arg(query, sqlError(q, m_file).message), m_file};
        QList<std::pair<double, qint64>> window;
        while (q.next())
            window.append({q.value(1).toDouble(), q.value(0).toLongLong()});
        if (q.lastError().isValid())
            return sqlError(q, m_file);
        q.finish();
        if (window.isEmpty())
            break;
        below = window.last().second;
        std::stable_sort(window.begin(), window.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        // The documents' rows are read a page at a time, as far as the page of hits needs them.
        bool full = false;
        const qsizetype chunk = qMax<qsizetype>(wanted < 0 ? 200 : wanted, 50);
        for (qsizetype from = 0; from < window.size() && !full; from += chunk) {
            QList<SearchHit> batch;
            for (qsizetype i = from; i < qMin(window.size(), from + chunk); ++i) {
                doc.bindValue(u":id"_s, window.at(i).second);
                if (sourceID >= 0)
                    doc.bindValue(u":source"_s, sourceID);
                if (doc.exec() && doc.next()) {
                    SearchHit hit = hitOf(doc);
                    hit.rank = window.at(i).first;
                    batch.append(hit);
                }
                doc.finish();
            }
            full = !take(batch);
        }
        if (full || window.size() < RankWindow)
            break;
    }
    return hits;
}

QList<bool> SearchIndex::makeSnippets(QSqlDatabase &db, const QString &expression, const QString &query, QList<SearchHit> &hits)
{
    QList<bool> matched(hits.size(), true);
    if (hits.isEmpty())
        return matched;
    QHash<QString, std::shared_ptr<Store>> stores;
    {
        QMutexLocker locker(&m_mutex);
        stores = m_stores;
    }
    const bool toolOutputs = limits().toolOutputs;
    // The text of each hit as it was indexed, read again from its store (a message's parts once).
    QHash<QString, QList<Part>> parts;
    QStringList texts;
    texts.reserve(hits.size());
    for (const SearchHit &hit : std::as_const(hits)) {
        QString text;
        const std::shared_ptr<Store> store = stores.value(hit.source);
        if (hit.kind == u"title") {
            text = hit.sessionTitle;
        } else if (!store) {
            // No store to read it from: the hit has no snippet.
        } else if (hit.partID.isEmpty()) {
            if (const std::optional<Message> m = store->message(hit.sessionID, hit.messageID)) {
                const QList<SearchDocument> docs = documents(*m, {});
                if (!docs.isEmpty())
                    text = docs.first().text;
            }
        } else {
            const QString key = hit.source + u'\n' + hit.sessionID + u'\n' + hit.messageID;
            auto it = parts.find(key);
            if (it == parts.end())
                it = parts.insert(key, store->parts(hit.sessionID, hit.messageID));
            for (const Part &p : std::as_const(it.value())) {
                if (p.id() == hit.partID) {
                    if (const std::optional<SearchDocument> d = document(p, hit.time, nullptr, toolOutputs))
                        text = d->text;
                    break;
                }
            }
        }
        texts.append(text);
    }
    // FTS5 makes the snippets, from a table of these texts, with the index's tokenizer and the
    // same query: they look as they did when the index kept the text.
    // In a savepoint that is rolled back: the table stays empty and nothing is written.
    QSqlQuery q(db);
    q.exec(u"SAVEPOINT snippets"_s);
    q.prepare(u"INSERT INTO temp.snip(rowid, title, body) VALUES(?, ?, ?)"_s);
    for (qsizetype i = 0; i < hits.size(); ++i) {
        if (texts.at(i).isEmpty())
            continue;
        const bool title = hits.at(i).kind == u"title";
        q.bindValue(0, i);
        q.bindValue(1, title ? texts.at(i) : u""_s);
        q.bindValue(2, title ? u""_s : texts.at(i));
        if (!q.exec())
            qCWarning(lcSearch).noquote() << "snippet:" << q.lastError().text();
    }
    const QStringList words = queryWords(query);
    QSet<qsizetype> made;
    q.prepare(u"SELECT rowid, snippet(snip, -1, char(2), char(3), '…', 24) FROM temp.snip WHERE snip MATCH ?"_s);
    q.addBindValue(expression);
    if (q.exec()) {
        while (q.next()) {
            const qsizetype i = q.value(0).toLongLong();
            if (i >= 0 && i < hits.size()) {
                parseSnippet(q.value(1).toString(), words, hits[i]);
                made.insert(i);
            }
        }
    } else {
        qCWarning(lcSearch).noquote() << "snippet:" << q.lastError().text();
    }
    q.finish();
    q.exec(u"ROLLBACK TO snippets"_s);
    q.exec(u"RELEASE snippets"_s);
    // A text that changed since it was indexed no longer matches: its start, unmarked.
    for (qsizetype i = 0; i < hits.size(); ++i) {
        if (!made.contains(i) && !texts.at(i).isEmpty()) {
            hits[i].snippet = texts.at(i).size() > PlainSnippet ? texts.at(i).left(PlainSnippet) + u'…' : texts.at(i);
            matched[i] = false;
        }
    }
    return matched;
}

Result<QList<SearchHit>> SearchIndex::searchSession(const QString &query, const QString &source, const QString &sessionID)
{
    SearchOptions options;
    options.source = source;
    options.sessionID = sessionID;
    options.limit = -1;
    options.order = SearchOptions::Order::Timeline;
    return search(query, options);
}

// ---------------------------------------------------------------------------------------------

void SearchIndex::addSource(SessionService *service, const QString &source)
{
    if (!m_worker || !service)
        return;
    const QString key = source.isEmpty() ? sourceKey(*storeOf(*service)) : source;
    addStore(storeOf(*service), key);
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, service, key] { worker->addSource(service, key); }, Qt::QueuedConnection);
}

void SearchIndex::addStore(const std::shared_ptr<Store> &store, const QString &source)
{
    if (!store)
        return;
    QMutexLocker locker(&m_mutex);
    m_stores.insert(source.isEmpty() ? sourceKey(*store) : source, store);
}

void SearchIndex::removeSource(SessionService *service)
{
    if (!m_worker)
        return;
    {
        // A paused sync would never get to the removal: it stops (and goes on afterwards).
        QMutexLocker locker(&m_mutex);
        ++m_interrupts;
        m_wake.wakeAll();
    }
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [this, worker, service] {
        worker->removeSource(service, true);
        QMutexLocker locker(&m_mutex);
        --m_interrupts;
    }, Qt::BlockingQueuedConnection);
}

void SearchIndex::refresh()
{
    if (!m_worker)
        return;
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker] { worker->syncAll(false); }, Qt::QueuedConnection);
}

void SearchIndex::rebuild()
{
    if (!m_worker)
        return;
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker] { worker->rebuildAll(); }, Qt::QueuedConnection);
}

bool SearchIndex::waitForIdle(int timeoutMs)
{
    if (!m_worker)
        return true;
    auto done = std::make_shared<QSemaphore>();
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, done] {
        worker->flush();
        done->release();
    }, Qt::QueuedConnection);
    return done->tryAcquire(1, timeoutMs);
}

} // namespace weft
