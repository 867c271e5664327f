// SPDX-License-Identifier: GPL-3.0-or-later
#include "opencodedbwatcher.h"

#include "core/logging.h"
#include "opencodedbstore.h"
#include "session/sessionservice.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// How far back in time_updated a read looks beyond the newest value it has seen: OpenCode
/// stamps a row before its transaction commits, and two OpenCode processes can commit out of
/// order, so a row may appear with a stamp older than one already seen.
constexpr qint64 OverlapMs = 5000;
/// How many of the newest rows (by rowid) a quick read looks at for updates: the rows a running
/// session changes are the ones it inserted last.
constexpr qint64 MessageTail = 256;
constexpr qint64 PartTail = 2048;
} // namespace

/// Reads the database on its own thread (with its own connection) and hands the changes back.
class OpencodeDbWatcher::Worker : public QObject
{
public:
    Worker(std::shared_ptr<OpencodeDbStore> store, OpencodeDbWatcher *watcher)
        : m_store(std::move(store))
        , m_watcher(watcher)
    {
    }

    void prime();
    void poll(bool forceFull);
    void setFullScanInterval(int ms) { m_minFullInterval = ms; }

    mutable QMutex statsMutex;
    Stats stats;

private:
    struct Seen {
        qint64 updated = 0;
        size_t hash = 0;
        QString text; // text and reasoning parts: the text last reported, for deltas
    };
    struct Table {
        QString name;
        qint64 tail = 0;
        qint64 maxRowid = 0;
        QHash<QString, Seen> seen;
    };

    Result<qint64> dataVersion();
    Result<void> readChanges(QSqlDatabase &db, bool full, QList<StoreChange> &changes);
    Result<void> readRows(QSqlDatabase &db, Table &table, bool full, QList<StoreChange> &changes);
    Result<void> readCounts(QSqlDatabase &db, QList<StoreChange> &changes);
    Result<void> readV2Rows(QSqlDatabase &db, bool full, QList<StoreChange> &changes);
    /// Reports what changed in the mapped @p message since it was last reported (all of it for a
    /// message not known), and remembers it.
    void reportV2(const MessageWithParts &message, QList<StoreChange> &changes);
    void prune();
    void send(const QList<StoreChange> &changes);
    [[nodiscard]] qint64 fullInterval() const;
    void scheduleFullScan();

    std::shared_ptr<OpencodeDbStore> m_store;
    OpencodeDbWatcher *m_watcher;
    Table m_sessionTable{u"session"_s, 0, 0, {}};
    Table m_messageTable{u"message"_s, MessageTail, 0, {}};
    Table m_partTable{u"part"_s, PartTail, 0, {}};
    /// OpenCode's V2 conversation rows (`session_message`), when the database has them: each row
    /// is one V1 message with its parts, remembered by what was last reported of them.
    Table m_v2Table{u"session_message"_s, MessageTail, 0, {}};
    struct V2State
    {
        size_t message = 0;
        QHash<QString, Seen> parts;
    };
    QHash<QString, V2State> m_v2States;
    QHash<QString, qint64> m_v2Counts;
    /// A session as last seen: enough to tell a change from a row back inside the time window,
    /// not the session itself (a database of 30,000 sessions would keep them all twice).
    struct Known {
        qint64 updated = 0;
        size_t hash = 0; // of its JSON; 0 until it was read (prime() reads only the times)
    };
    QHash<QString, Known> m_sessions;
    QList<Table *> m_tables; // the tables of this database that the watcher reads
    QHash<QString, qint64> m_messageCounts; // per session, for deletions (full scans)
    QHash<QString, qint64> m_partCounts;
    bool m_haveCounts = false;
    qint64 m_watermark = 0;
    qint64 m_dataVersion = -1;
    bool m_changedSinceFull = false;
    QElapsedTimer m_sinceFull;
    qint64 m_lastFullMs = 0;
    int m_minFullInterval = 2000;
    QTimer *m_fullTimer = nullptr;
};

Result<qint64> OpencodeDbWatcher::Worker::dataVersion()
{
    qint64 version = -1;
    Result<void> r = m_store->read([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        if (!q.exec(u"PRAGMA data_version"_s) || !q.next())
            return m_store->failed(q);
        version = q.value(0).toLongLong();
        return {};
    });
    if (!r)
        return r.error();
    return version;
}

void OpencodeDbWatcher::Worker::prime()
{
    if (!m_fullTimer) {
        m_fullTimer = new QTimer(this);
        m_fullTimer->setSingleShot(true);
        QObject::connect(m_fullTimer, &QTimer::timeout, this, [this] { poll(true); });
    }
    m_tables = {&m_sessionTable, &m_messageTable, &m_partTable};
    if (m_store->hasV2())
        m_tables.append(&m_v2Table);
    if (Result<qint64> v = dataVersion())
        m_dataVersion = v.value();
    // Of each session its time only: those inside the time window below are read in full once
    // the newest stamp is known (a database of 30,000 sessions is not read whole for a few).
    const Result<void> listed = m_store->read([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (!q.exec(u"SELECT id, time_updated FROM "_s + m_store->sessionSource()))
            return m_store->failed(q);
        while (q.next()) {
            const qint64 updated = q.value(1).toLongLong();
            m_sessions.insert(q.value(0).toString(), Known{updated, 0});
            m_watermark = qMax(m_watermark, updated);
        }
        return {};
    });
    if (!listed)
        send({StoreChange{.kind = StoreChange::Kind::Problem, .text = listed.error().message, .location = m_store->databaseFile()}});
    // What is there now is known: remember every row inside the overlap window below the newest
    // stamp, so that later reads (which look that far back) do not report them. A first guess
    // of the newest stamp comes cheaply from the sessions and the newest rows; one scan of the
    // big tables (on this thread, once) then finds the rows of the window.
    Result<void> r = m_store->read([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        for (Table *table : std::as_const(m_tables)) {
            const QString from = table == &m_sessionTable ? m_store->sessionSource() : table->name;
            if (!q.exec(u"SELECT max(%1) FROM %2"_s.arg(table == &m_sessionTable ? u"weft_rowid"_s : u"rowid"_s, from))
                || !q.next())
                return m_store->failed(q);
            table->maxRowid = q.value(0).toLongLong();
        }
        for (Table *table : std::as_const(m_tables)) {
            if (table == &m_sessionTable)
                continue;
            if (!q.exec(u"SELECT max(time_updated) FROM (SELECT time_updated FROM %1 ORDER BY rowid DESC LIMIT %2)"_s.arg(table->name).arg(table->tail)) || !q.next())
                return m_store->failed(q);
            m_watermark = qMax(m_watermark, q.value(0).toLongLong());
        }
        const qint64 guess = m_watermark;
        for (Table *table : {&m_messageTable, &m_partTable}) {
            const bool parts = table == &m_partTable;
            q.prepare(u"SELECT id, time_updated, data%1 FROM %2 WHERE time_updated >= ?"_s.arg(
                parts ? u", session_id, message_id"_s : u", session_id"_s, table->name));
            q.addBindValue(guess - OverlapMs);
            if (!q.exec())
                return m_store->failed(q);
            while (q.next()) {
                const qint64 updated = q.value(1).toLongLong();
                const QString data = q.value(2).toString();
                Seen seen{updated, qHash(data), {}};
                if (parts) {
                    if (std::optional<Part> p = m_store->partFromRow(q); p && (p->type() == PartType::Text || p->type() == PartType::Reasoning))
                        seen.text = p->text();
                }
                table->seen.insert(q.value(0).toString(), seen);
                m_watermark = qMax(m_watermark, updated);
            }
            if (q.lastError().isValid())
                return m_store->failed(q);
        }
        if (m_store->hasV2()) {
            q.prepare(u"SELECT id, time_updated, data FROM session_message WHERE time_updated >= ?"_s);
            q.addBindValue(guess - OverlapMs);
            if (!q.exec())
                return m_store->failed(q);
            QStringList ids;
            while (q.next()) {
                const qint64 updated = q.value(1).toLongLong();
                ids.append(q.value(0).toString());
                m_v2Table.seen.insert(ids.last(), Seen{updated, qHash(q.value(2).toString()), {}});
                m_watermark = qMax(m_watermark, updated);
            }
            if (q.lastError().isValid())
                return m_store->failed(q);
            // Their V1 form as known, so that a later change reports only the parts it changed.
            QList<MessageWithParts> mapped;
            if (Result<void> mr = m_store->readV2Rows(db, ids, mapped); !mr)
                return mr;
            QList<StoreChange> ignored;
            for (const MessageWithParts &m : std::as_const(mapped))
                reportV2(m, ignored);
        }
        return {};
    });
    if (!r) {
        send({StoreChange{.kind = StoreChange::Kind::Problem, .text = r.error().message, .location = m_store->databaseFile()}});
    }
    for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it) {
        if (it->updated < m_watermark - OverlapMs)
            continue;
        if (const std::optional<Session> s = m_store->session(it.key()))
            it->hash = qHash(toJson(s->json(), 0));
        m_sessionTable.seen.insert(it.key(), Seen{it->updated, it->hash, {}});
    }
    prune();
    m_sinceFull.start();
    m_changedSinceFull = true; // the first full scan takes the per-session counts
    scheduleFullScan();
}

qint64 OpencodeDbWatcher::Worker::fullInterval() const
{
    // A full scan of a big database costs; never spend more than a tenth of the time on it.
    return qMax<qint64>(m_minFullInterval, m_lastFullMs * 10);
}

void OpencodeDbWatcher::Worker::scheduleFullScan()
{
    if (!m_changedSinceFull || !m_fullTimer)
        return;
    const qint64 remaining = qMax<qint64>(0, fullInterval() - m_sinceFull.elapsed());
    if (!m_fullTimer->isActive() || m_fullTimer->remainingTime() > remaining)
        m_fullTimer->start(int(remaining));
}

void OpencodeDbWatcher::Worker::poll(bool forceFull)
{
    m_watcher->m_queued.storeRelease(0);
    const bool full = forceFull || (m_changedSinceFull && m_sinceFull.elapsed() >= fullInterval());
    QElapsedTimer timer;
    timer.start();
    const Result<qint64> version = dataVersion();
    if (!version) {
        send({StoreChange{.kind = StoreChange::Kind::Problem, .text = version.error().message, .location = m_store->databaseFile()}});
        return;
    }
    if (version.value() == m_dataVersion && !full) {
        QMutexLocker locker(&statsMutex);
        ++stats.skipped;
        return;
    }
    QList<StoreChange> changes;
    // Work on copies: a read that fails half-way (busy, damaged) leaves the state as it was, so
    // the next read finds the same rows again.
    const Table sessionTable = m_sessionTable, messageTable = m_messageTable, partTable = m_partTable,
                v2Table = m_v2Table;
    const QHash<QString, V2State> v2States = m_v2States;
    const QHash<QString, Known> sessions = m_sessions;
    const qint64 watermark = m_watermark;
    Result<void> r = m_store->read([&](QSqlDatabase &db) { return readChanges(db, full, changes); });
    if (!r) {
        m_sessionTable = sessionTable;
        m_messageTable = messageTable;
        m_partTable = partTable;
        m_v2Table = v2Table;
        m_v2States = v2States;
        m_sessions = sessions;
        m_watermark = watermark;
        send({StoreChange{.kind = StoreChange::Kind::Problem, .text = r.error().message, .location = m_store->databaseFile()}});
        scheduleFullScan();
        return;
    }
    m_dataVersion = version.value();
    prune();
    const qint64 us = timer.nsecsElapsed() / 1000;
    {
        QMutexLocker locker(&statsMutex);
        ++stats.polls;
        stats.lastPollUs = us;
        if (full) {
            ++stats.fullScans;
            stats.lastFullScanUs = us;
        }
    }
    if (full) {
        m_lastFullMs = us / 1000;
        m_sinceFull.restart();
        m_changedSinceFull = false;
        if (m_fullTimer)
            m_fullTimer->stop();
    } else {
        m_changedSinceFull = true;
        scheduleFullScan();
    }
    if (!changes.isEmpty())
        send(changes);
}

Result<void> OpencodeDbWatcher::Worker::readChanges(QSqlDatabase &db, bool full, QList<StoreChange> &changes)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // Sessions: a small table, always read in full for its IDs (deletions) and for the rows that
    // are new or changed.
    // In an OpenCode 2.0.x database the rows of two tables, whose rowids overlap: a new row
    // there is found by its time_updated (a new row's is new), an old one by its rowid.
    q.prepare(u"SELECT weft_rowid, time_updated AS weft_updated, %1 FROM %2 WHERE weft_rowid > ? OR time_updated >= ?"_s.arg(
        m_store->sessionColumns(), m_store->sessionSource()));
    q.addBindValue(m_sessionTable.maxRowid);
    q.addBindValue(m_watermark - OverlapMs);
    if (!q.exec())
        return m_store->failed(q);
    struct Row {
        qint64 updated;
        qint64 rowid;
        Session session;
    };
    QList<Row> sessionRows;
    while (q.next()) {
        std::optional<Session> s = m_store->sessionFromRow(q);
        if (!s)
            continue;
        sessionRows.append({q.value(1).toLongLong(), q.value(0).toLongLong(), *s});
    }
    if (q.lastError().isValid())
        return m_store->failed(q);
    std::stable_sort(sessionRows.begin(), sessionRows.end(),
                     [](const Row &a, const Row &b) { return a.updated != b.updated ? a.updated < b.updated : a.rowid < b.rowid; });
    QSet<QString> ids;
    if (!q.exec(u"SELECT id, weft_rowid FROM "_s + m_store->sessionSource()))
        return m_store->failed(q);
    qint64 maxSessionRowid = m_sessionTable.maxRowid;
    while (q.next()) {
        ids.insert(q.value(0).toString());
        maxSessionRowid = qMax(maxSessionRowid, q.value(1).toLongLong());
    }
    for (const Row &row : std::as_const(sessionRows)) {
        const QString id = row.session.id();
        const size_t hash = qHash(toJson(row.session.json(), 0));
        const auto seen = m_sessionTable.seen.constFind(id);
        const bool known = m_sessions.contains(id);
        if (seen != m_sessionTable.seen.constEnd() && seen->hash == hash && seen->updated == row.updated)
            continue;
        if (known && seen == m_sessionTable.seen.constEnd() && m_sessions.value(id).hash == hash)
            continue; // unchanged, only back inside the time window
        m_sessionTable.seen.insert(id, Seen{row.updated, hash, {}});
        m_sessions.insert(id, Known{row.updated, hash});
        m_watermark = qMax(m_watermark, row.updated);
        changes.append(StoreChange{.kind = known ? StoreChange::Kind::SessionUpdated : StoreChange::Kind::SessionCreated, .session = row.session});
    }
    m_sessionTable.maxRowid = maxSessionRowid;
    for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        if (!ids.contains(it.key())) {
            // What the row was is gone with it: the notice names the session.
            changes.append(StoreChange{.kind = StoreChange::Kind::SessionDeleted, .session = Session(JsonObject{{u"id"_s, it.key()}})});
            m_sessionTable.seen.remove(it.key());
            m_messageCounts.remove(it.key());
            m_partCounts.remove(it.key());
            m_v2Counts.remove(it.key());
            it = m_sessions.erase(it);
        } else {
            ++it;
        }
    }

    if (Result<void> r = readRows(db, m_messageTable, full, changes); !r)
        return r;
    if (Result<void> r = readRows(db, m_partTable, full, changes); !r)
        return r;
    if (m_store->hasV2()) {
        if (Result<void> r = readV2Rows(db, full, changes); !r)
            return r;
    }
    if (full) {
        if (Result<void> r = readCounts(db, changes); !r)
            return r;
    }
    return {};
}

Result<void> OpencodeDbWatcher::Worker::readRows(QSqlDatabase &db, Table &table, bool full, QList<StoreChange> &changes)
{
    const bool parts = &table == &m_partTable;
    const QString columns = parts ? u"rowid, id, time_updated, data, session_id, message_id"_s : u"rowid, id, time_updated, data, session_id"_s;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // Quick read: the rowid range of the newest rows (an index seek), new ones and the ones whose
    // stamp is recent. Full read: every row with a recent stamp (a table scan), for updates of
    // older rows.
    if (full) {
        q.prepare(u"SELECT %1 FROM %2 WHERE rowid > ? OR time_updated >= ?"_s.arg(columns, table.name));
        q.addBindValue(table.maxRowid);
        q.addBindValue(m_watermark - OverlapMs);
    } else {
        q.prepare(u"SELECT %1 FROM %2 WHERE rowid > ? AND (rowid > ? OR time_updated >= ?)"_s.arg(columns, table.name));
        q.addBindValue(table.maxRowid - table.tail);
        q.addBindValue(table.maxRowid);
        q.addBindValue(m_watermark - OverlapMs);
    }
    if (!q.exec())
        return m_store->failed(q);
    struct Row {
        qint64 rowid;
        qint64 updated;
        QString id;
        size_t hash;
        std::optional<Message> message;
        std::optional<Part> part;
    };
    QList<Row> rows;
    qint64 maxRowid = table.maxRowid;
    while (q.next()) {
        Row row{q.value(0).toLongLong(), q.value(2).toLongLong(), q.value(1).toString(), 0, {}, {}};
        maxRowid = qMax(maxRowid, row.rowid);
        const QString data = q.value(3).toString();
        row.hash = qHash(data);
        const auto seen = table.seen.constFind(row.id);
        if (seen != table.seen.constEnd() && seen->updated == row.updated && seen->hash == row.hash)
            continue;
        if (parts)
            row.part = m_store->partFromRow(q);
        else
            row.message = m_store->messageFromRow(q);
        if (!row.part && !row.message) {
            // Reported by the store; remembered so that it is not reported on every read.
            table.seen.insert(row.id, Seen{row.updated, row.hash, {}});
            continue;
        }
        rows.append(std::move(row));
    }
    if (q.lastError().isValid())
        return m_store->failed(q);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row &a, const Row &b) { return a.updated != b.updated ? a.updated < b.updated : a.rowid < b.rowid; });
    for (Row &row : rows) {
        Seen next{row.updated, row.hash, {}};
        m_watermark = qMax(m_watermark, row.updated);
        if (row.message) {
            changes.append(StoreChange{.kind = StoreChange::Kind::MessageUpdated, .message = *row.message});
        } else {
            QString delta;
            if (row.part->type() == PartType::Text || row.part->type() == PartType::Reasoning) {
                next.text = row.part->text();
                const auto seen = table.seen.constFind(row.id);
                if (seen != table.seen.constEnd() && next.text.size() > seen->text.size() && next.text.startsWith(seen->text))
                    delta = next.text.mid(seen->text.size());
            }
            changes.append(StoreChange{.kind = StoreChange::Kind::PartUpdated, .part = *row.part, .text = delta});
        }
        table.seen.insert(row.id, next);
    }
    table.maxRowid = maxRowid;
    return {};
}

Result<void> OpencodeDbWatcher::Worker::readCounts(QSqlDatabase &db, QList<StoreChange> &changes)
{
    // Deleted messages and parts leave no stamp behind: a session whose count went down is
    // reported for a reload. The counts come from the session indexes (no table scan).
    QSet<QString> shrunk;
    QList<std::pair<QString, QHash<QString, qint64> *>> tables{{u"message"_s, &m_messageCounts},
                                                               {u"part"_s, &m_partCounts}};
    if (m_store->hasV2())
        tables.append({u"session_message"_s, &m_v2Counts});
    for (auto [table, counts] : std::as_const(tables)) {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (!q.exec(u"SELECT session_id, count(*) FROM %1 GROUP BY session_id"_s.arg(table)))
            return m_store->failed(q);
        QHash<QString, qint64> now;
        while (q.next())
            now.insert(q.value(0).toString(), q.value(1).toLongLong());
        if (m_haveCounts) {
            for (auto it = counts->constBegin(); it != counts->constEnd(); ++it) {
                if (now.value(it.key()) < it.value() && m_sessions.contains(it.key()))
                    shrunk.insert(it.key());
            }
        }
        *counts = now;
    }
    m_haveCounts = true;
    QStringList sorted(shrunk.begin(), shrunk.end());
    sorted.sort();
    for (const QString &id : std::as_const(sorted))
        changes.append(StoreChange{.kind = StoreChange::Kind::SessionChanged, .sessionID = id});
    return {};
}

Result<void> OpencodeDbWatcher::Worker::readV2Rows(QSqlDatabase &db, bool full, QList<StoreChange> &changes)
{
    Table &table = m_v2Table;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // The same reads as for the V1 tables: the newest rows by rowid on a quick read, every row
    // with a recent stamp on a full one.
    if (full) {
        q.prepare(u"SELECT rowid, id, time_updated, data FROM session_message WHERE rowid > ? OR time_updated >= ?"_s);
        q.addBindValue(table.maxRowid);
        q.addBindValue(m_watermark - OverlapMs);
    } else {
        q.prepare(
            u"SELECT rowid, id, time_updated, data FROM session_message WHERE rowid > ? AND (rowid > ? OR time_updated >= ?)"_s);
        q.addBindValue(table.maxRowid - table.tail);
        q.addBindValue(table.maxRowid);
        q.addBindValue(m_watermark - OverlapMs);
    }
    if (!q.exec())
        return m_store->failed(q);
    struct Row
    {
        qint64 rowid;
        qint64 updated;
        QString id;
        size_t hash;
    };
    QList<Row> rows;
    qint64 maxRowid = table.maxRowid;
    while (q.next()) {
        Row row{q.value(0).toLongLong(), q.value(2).toLongLong(), q.value(1).toString(), qHash(q.value(3).toString())};
        maxRowid = qMax(maxRowid, row.rowid);
        const auto seen = table.seen.constFind(row.id);
        if (seen != table.seen.constEnd() && seen->updated == row.updated && seen->hash == row.hash)
            continue;
        rows.append(std::move(row));
    }
    if (q.lastError().isValid())
        return m_store->failed(q);
    if (rows.isEmpty()) {
        table.maxRowid = maxRowid;
        return {};
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return a.updated != b.updated ? a.updated < b.updated : a.rowid < b.rowid;
    });
    // The store maps them (a row's V1 form depends on its neighbours), in this read transaction.
    QStringList ids;
    for (const Row &row : std::as_const(rows))
        ids.append(row.id);
    QList<MessageWithParts> mapped;
    if (Result<void> r = m_store->readV2Rows(db, ids, mapped); !r)
        return r;
    QHash<QString, qsizetype> index;
    for (qsizetype i = 0; i < mapped.size(); ++i)
        index.insert(mapped.at(i).info.id(), i);
    // A user row takes the agent and model of the assistant row that answers it: when that row
    // arrives, the user message it answers changes too.
    QStringList parents;
    for (const Row &row : std::as_const(rows)) {
        table.seen.insert(row.id, Seen{row.updated, row.hash, {}});
        m_watermark = qMax(m_watermark, row.updated);
        const auto i = index.constFind(row.id);
        if (i == index.constEnd())
            continue; // no message (an agent switch), or reported by the store
        const MessageWithParts &m = mapped.at(*i);
        const QString parent = m.info.parentID();
        if (m.info.isAssistant() && !m_v2States.contains(row.id) && !parent.isEmpty() && parent != row.id
            && m_v2States.contains(parent) && !ids.contains(parent) && !parents.contains(parent))
            parents.append(parent);
        reportV2(m, changes);
    }
    if (!parents.isEmpty()) {
        QList<MessageWithParts> users;
        if (Result<void> r = m_store->readV2Rows(db, parents, users); !r)
            return r;
        for (const MessageWithParts &m : std::as_const(users))
            reportV2(m, changes);
    }
    table.maxRowid = maxRowid;
    return {};
}

void OpencodeDbWatcher::Worker::reportV2(const MessageWithParts &message, QList<StoreChange> &changes)
{
    const QString id = message.info.id();
    const auto known = m_v2States.constFind(id);
    V2State next;
    next.message = qHash(toJson(message.info.json(), 0));
    if (known == m_v2States.constEnd() || known->message != next.message)
        changes.append(StoreChange{.kind = StoreChange::Kind::MessageUpdated, .message = message.info});
    for (const Part &part : message.parts) {
        Seen seen{0, qHash(toJson(part.json(), 0)), {}};
        const bool isText = part.type() == PartType::Text || part.type() == PartType::Reasoning;
        if (isText)
            seen.text = part.text();
        std::optional<Seen> before;
        if (known != m_v2States.constEnd()) {
            if (const auto it = known->parts.constFind(part.id()); it != known->parts.constEnd())
                before = *it;
        }
        next.parts.insert(part.id(), seen);
        if (before && before->hash == seen.hash)
            continue;
        QString delta;
        if (isText && before && seen.text.size() > before->text.size() && seen.text.startsWith(before->text))
            delta = seen.text.mid(before->text.size());
        changes.append(StoreChange{.kind = StoreChange::Kind::PartUpdated, .part = part, .text = delta});
    }
    // Parts that the row no longer has (V2 content replaced).
    if (known != m_v2States.constEnd()) {
        QStringList gone;
        for (auto it = known->parts.constBegin(); it != known->parts.constEnd(); ++it) {
            if (!next.parts.contains(it.key()))
                gone.append(it.key());
        }
        gone.sort();
        for (const QString &partID : std::as_const(gone))
            changes.append(StoreChange{.kind = StoreChange::Kind::PartRemoved,
                                       .sessionID = message.info.sessionID(),
                                       .messageID = id,
                                       .partID = partID});
    }
    m_v2States.insert(id, next);
}

void OpencodeDbWatcher::Worker::prune()
{
    const qint64 limit = m_watermark - OverlapMs;
    for (Table *table : std::as_const(m_tables))
        table->seen.removeIf([limit](const QHash<QString, Seen>::iterator &it) { return it->updated < limit; });
    // A V2 row that left the time window is reported in full when it changes again, as the
    // rows of the other tables are.
    m_v2States.removeIf(
        [this](const QHash<QString, V2State>::iterator &it) { return !m_v2Table.seen.contains(it.key()); });
}

void OpencodeDbWatcher::Worker::send(const QList<StoreChange> &changes)
{
    OpencodeDbWatcher *watcher = m_watcher;
    QMetaObject::invokeMethod(watcher, [watcher, changes] { watcher->deliver(changes); }, Qt::QueuedConnection);
}

// ---------------------------------------------------------------------------------------------

OpencodeDbWatcher::OpencodeDbWatcher(std::shared_ptr<OpencodeDbStore> store, QObject *parent)
    : StoreWatcher(parent)
    , m_store(std::move(store))
{
    registerMetaTypes();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(50);
    connect(&m_debounce, &QTimer::timeout, this, [this] { requestPoll(false); });
    m_fallback.setInterval(1000);
    connect(&m_fallback, &QTimer::timeout, this, [this] { requestPoll(false); });
    connect(&m_fs, &QFileSystemWatcher::fileChanged, this, &OpencodeDbWatcher::onFileEvent);
    connect(&m_fs, &QFileSystemWatcher::directoryChanged, this, &OpencodeDbWatcher::onFileEvent);
    m_thread.setObjectName(u"weft-opencodedb-watcher"_s);
}

OpencodeDbWatcher::~OpencodeDbWatcher()
{
    stop();
}

void OpencodeDbWatcher::setFullScanInterval(int ms)
{
    m_fullScanInterval = ms;
    if (m_worker) {
        Worker *worker = m_worker;
        QMetaObject::invokeMethod(worker, [worker, ms] { worker->setFullScanInterval(ms); }, Qt::QueuedConnection);
    }
}

void OpencodeDbWatcher::start()
{
    if (m_thread.isRunning())
        return;
    m_worker = new Worker(m_store, this);
    m_worker->setFullScanInterval(m_fullScanInterval);
    m_worker->moveToThread(&m_thread);
    m_thread.start();
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, this] {
        worker->prime();
        QMetaObject::invokeMethod(this, [this] { Q_EMIT started(); }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
    watchFiles();
}

void OpencodeDbWatcher::stop()
{
    m_debounce.stop();
    m_fallback.stop();
    if (!m_fs.files().isEmpty())
        m_fs.removePaths(m_fs.files());
    if (!m_fs.directories().isEmpty())
        m_fs.removePaths(m_fs.directories());
    if (m_worker && m_thread.isRunning()) {
        // The worker (and its timer) is deleted on its own thread, then the thread ends and
        // closes its database connection.
        Worker *worker = m_worker;
        QMetaObject::invokeMethod(worker, [worker] { delete worker; }, Qt::BlockingQueuedConnection);
    } else {
        delete m_worker;
    }
    m_worker = nullptr;
    if (m_thread.isRunning()) {
        m_thread.quit();
        m_thread.wait();
    }
}

void OpencodeDbWatcher::watchFiles()
{
    const QString db = m_store->databaseFile();
    const QStringList wanted{db, db + u"-wal"_s};
    const QStringList watched = m_fs.files();
    bool dbWatched = watched.contains(db);
    for (const QString &path : wanted) {
        if (!watched.contains(path) && QFileInfo::exists(path)) {
            const bool added = m_fs.addPath(path);
            if (path == db)
                dbWatched = added;
        }
    }
    const QString dir = QFileInfo(db).absolutePath();
    if (!m_fs.directories().contains(dir))
        m_fs.addPath(dir);
    // Without notifications (no inotify, a network file system) a cheap data_version check once
    // a second still finds every commit.
    if (!dbWatched && !m_fallback.isActive()) {
        qCInfo(lcStore) << "cannot watch" << db << "- checking it once a second instead";
        m_fallback.start();
    } else if (dbWatched) {
        m_fallback.stop();
    }
}

void OpencodeDbWatcher::onFileEvent(const QString &path)
{
    Q_UNUSED(path)
    // A file that was replaced or deleted drops out of the watch list: re-arm on every event.
    watchFiles();
    if (!m_debounce.isActive())
        m_debounce.start();
}

void OpencodeDbWatcher::requestPoll(bool full)
{
    if (!m_worker || !m_thread.isRunning())
        return;
    if (!full && !m_queued.testAndSetAcquire(0, 1))
        return; // a read is already queued: it will see this change too
    Worker *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, full] { worker->poll(full); }, Qt::QueuedConnection);
}

void OpencodeDbWatcher::pollNow()
{
    requestPoll(false);
}

void OpencodeDbWatcher::rescan()
{
    requestPoll(true);
}

OpencodeDbWatcher::Stats OpencodeDbWatcher::stats() const
{
    if (!m_worker)
        return {};
    QMutexLocker locker(&m_worker->statsMutex);
    return m_worker->stats;
}

void OpencodeDbWatcher::deliver(const QList<StoreChange> &changes)
{
    const auto found = std::count_if(changes.cbegin(), changes.cend(),
                                     [](const StoreChange &c) { return c.kind != StoreChange::Kind::Problem; });
    Q_EMIT changed(changes);
    if (found > 0)
        Q_EMIT changesRead(int(found));
}

} // namespace weft
