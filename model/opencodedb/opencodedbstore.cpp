// SPDX-License-Identifier: GPL-3.0-or-later
#include "opencodedbstore.h"

#include "core/tr.h"
#include "opencodedbwatcher.h"
#include "sessioneventlog.h"
#include "sessionmessagev2.h"

#include "core/identifier.h"
#include "core/logging.h"
#include "core/parallel.h"
#include "core/sqlitehandle.h"
#include "store/jsonstorage.h"
#include "store/storereads.h"
#include "threadconnections.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QThread>
#include <QtEndian>

#include <algorithm>
#include <memory>
#include <cstring>
#include <numeric>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

// SQLite result codes (primary), as QSQLITE reports them in QSqlError::nativeErrorCode().
constexpr int SqliteBusy = 5;
constexpr int SqliteLocked = 6;
constexpr int SqliteIoErr = 10;
constexpr int SqliteCorrupt = 11;
constexpr int SqliteCantOpen = 14;
constexpr int SqliteNotADb = 26;

// Set by failed() so that read() can tell a busy database (worth another attempt) and a
// connection that lost its files (worth a new connection) from other failures.
enum class Failure { Other, Busy, Io };
thread_local Failure t_lastFailure = Failure::Other;

bool isBusy(const QSqlError &error)
{
    const int primary = error.nativeErrorCode().toInt() & 0xff;
    return primary == SqliteBusy || primary == SqliteLocked || error.databaseText().contains(u"locked");
}

const QStringList &knownSessionColumns()
{
    static const QStringList columns{
        u"id"_s, u"project_id"_s, u"workspace_id"_s, u"parent_id"_s, u"slug"_s, u"directory"_s, u"path"_s,
        u"title"_s, u"version"_s, u"share_url"_s, u"summary_additions"_s, u"summary_deletions"_s,
        u"summary_files"_s, u"summary_diffs"_s, u"metadata"_s, u"cost"_s, u"tokens_input"_s,
        u"tokens_output"_s, u"tokens_reasoning"_s, u"tokens_cache_read"_s, u"tokens_cache_write"_s,
        u"revert"_s, u"permission"_s, u"agent"_s, u"model"_s, u"time_created"_s, u"time_updated"_s,
        u"time_compacting"_s, u"time_archived"_s,
    };
    return columns;
}

struct Required {
    QString table;
    QStringList columns;
};

const QList<Required> &requiredColumns()
{
    static const QList<Required> required{
        {u"session"_s, {u"id"_s, u"project_id"_s, u"directory"_s, u"title"_s, u"version"_s, u"time_created"_s, u"time_updated"_s}},
        {u"message"_s, {u"id"_s, u"session_id"_s, u"time_created"_s, u"time_updated"_s, u"data"_s}},
        {u"part"_s, {u"id"_s, u"message_id"_s, u"session_id"_s, u"time_updated"_s, u"data"_s}},
    };
    return required;
}

QVariant column(const QSqlQuery &query, const OpencodeDbStore::Columns &columns, const QString &name)
{
    const int i = columns.indexOf(name);
    return i < 0 ? QVariant() : query.value(i);
}

/// The UTF-8 text of a JSON column: as stored when it was selected as a BLOB (`CAST(data AS
/// BLOB)`), converted back from QSQLITE's UTF-16 when it was selected as text.
QByteArray utf8Of(const QVariant &value)
{
    return value.typeId() == QMetaType::QByteArray ? value.toByteArray() : value.toString().toUtf8();
}

/// A message or part row as read, before its JSON is parsed (the session's ID is the one asked
/// for, a part's message the one its row was read for: neither is kept for every row).
struct RawRow {
    QString id;
    QByteArray data;
};

// The selects of the message and part mappers: `data` as its stored UTF-8 bytes (see utf8Of).
const QString MessageSelect = u"SELECT id, session_id, CAST(data AS BLOB) AS data FROM message"_s;
const QString PartSelect = u"SELECT id, message_id, session_id, CAST(data AS BLOB) AS data FROM part"_s;

/// Runs @p sql on @p query (forward only) with @p bindings for its placeholders and calls @p row
/// on every result row. False when the statement or a step failed: query.lastError() says why.
bool runRows(QSqlQuery &query, const QString &sql, const QVariantList &bindings,
             const std::function<void(const QSqlQuery &)> &row)
{
    query.setForwardOnly(true);
    if (!query.prepare(sql))
        return false;
    for (const QVariant &value : bindings)
        query.addBindValue(value);
    if (!query.exec())
        return false;
    while (query.next()) {
        if (row)
            row(query);
    }
    return !query.lastError().isValid();
}

bool present(const QVariant &v)
{
    return v.isValid() && !v.isNull();
}

} // namespace

// ---------------------------------------------------------------------------------------------

bool OpencodeDbSchema::has(QStringView table, const QString &column) const
{
    if (table == u"session")
        return session.contains(column);
    if (table == u"session_v2")
        return sessionV2.contains(column);
    if (table == u"message")
        return message.contains(column);
    if (table == u"part")
        return part.contains(column);
    if (table == u"project")
        return project.contains(column);
    return false;
}

QString OpencodeDbSchema::age() const
{
    if (session.contains(u"metadata"_s))
        return u"1.15.13"_s;
    if (session.contains(u"cost"_s))
        return u"1.14.49"_s;
    if (session.contains(u"path"_s))
        return u"1.14.29"_s;
    if (session.contains(u"workspace_id"_s))
        return u"1.2.16"_s;
    return u"1.2"_s;
}

bool OpencodeDbSchema::isNewerThanKnown() const
{
    return !latestMigration.isEmpty() && latestMigration > OpencodeDbStore::KnownLatestMigration;
}

JsonValue permissionRulesV1(const JsonValue &rules)
{
    if (!rules.isArray())
        return rules;
    JsonArray result;
    for (const JsonValue &rule : rules.toArray()) {
        const JsonObject o = rule.toObject();
        if (rule.isObject() && !o.contains(u"permission") && o.contains(u"resource") && o.contains(u"effect")) {
            result.append(JsonObject{{u"permission"_s, o.value(u"action")},
                                     {u"pattern"_s, o.value(u"resource")},
                                     {u"action"_s, o.value(u"effect")}});
        } else {
            result.append(rule);
        }
    }
    return result;
}

// ---------------------------------------------------------------------------------------------

OpencodeDbStore::Columns::Columns(const QSqlRecord &record)
{
    for (int i = 0; i < record.count(); ++i) {
        const QString name = record.fieldName(i);
        m_names.append(name);
        if (!m_index.contains(name))
            m_index.insert(name, i);
    }
}

namespace
{
/// An OpenCode 2.0.x database made by 2.x alone may have no legacy V1 tables (`session`,
/// `message`, `part`; OpenCode's V1→V2 migration looks for `session` to know whether it has V1
/// data): the connection gets empty ones of its own, as TEMP tables (writable on a read-only
/// connection, never in the file, found before the file's by unqualified names), so that every
/// read of V1 rows reads none instead of failing.
void addEmptyLegacyTables(QSqlQuery &query)
{
    QSet<QString> tables;
    runRows(query, u"SELECT name FROM sqlite_master WHERE type = 'table'"_s, {},
            [&](const QSqlQuery &q) { tables.insert(q.value(0).toString()); });
    if (!tables.contains(u"session_v2"_s))
        return;
    const QList<std::pair<QString, QString>> legacy{
        {u"session"_s, u"CREATE TEMP TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, "
                       u"slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, "
                       u"time_created integer NOT NULL, time_updated integer NOT NULL)"_s},
        {u"message"_s, u"CREATE TEMP TABLE message (id text PRIMARY KEY, session_id text NOT NULL, "
                       u"time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)"_s},
        {u"part"_s, u"CREATE TEMP TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, "
                    u"time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)"_s},
    };
    for (const auto &[name, sql] : legacy) {
        if (!tables.contains(name))
            runRows(query, sql, {}, {});
    }
}
} // namespace

// ---------------------------------------------------------------------------------------------

OpencodeDbStore::OpencodeDbStore(const QString &file, const Options &options)
    : m_file(file)
    , m_options(options)
    , m_connections(std::make_unique<ThreadConnections>(
          file, u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=%1"_s.arg(options.busyTimeoutMs), [](QSqlDatabase &db) -> Result<void> {
              QSqlQuery pragma(db);
              addEmptyLegacyTables(pragma);
              // Belt and braces: the connection refuses writes even if a statement tried one.
              runRows(pragma, u"PRAGMA query_only = 1"_s, {}, {});
              return {};
          }))
{
}

OpencodeDbStore::~OpencodeDbStore() = default;

QString OpencodeDbStore::dataDir() const
{
    return QFileInfo(m_file).absolutePath();
}

Result<QSqlDatabase> OpencodeDbStore::connection()
{
    return m_connections->get();
}

void OpencodeDbStore::closeThreadConnection()
{
    m_connections->closeCurrent();
}

QString OpencodeDbStore::describe(const QSqlError &error)
{
    const int primary = error.nativeErrorCode().toInt() & 0xff;
    const QString text = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    if (isBusy(error))
        return u"the database is locked by another program (OpenCode may be writing to it); try again in a moment"_s;
    if (primary == SqliteNotADb || text.contains(u"not a database"))
        return u"not an SQLite database (or an encrypted one)"_s;
    if (primary == SqliteCorrupt || text.contains(u"malformed"))
        return u"the database is damaged (%1)"_s.arg(text);
    if (primary == SqliteCantOpen)
        return u"cannot open the database file (%1)"_s.arg(text);
    if (primary == SqliteIoErr)
        return u"cannot read the database file (%1)"_s.arg(text);
    return text;
}

Error OpencodeDbStore::failed(const QSqlQuery &query) const
{
    return failed(query.lastError());
}

Error OpencodeDbStore::failed(const QSqlError &error) const
{
    const int primary = error.nativeErrorCode().toInt() & 0xff;
    if (isBusy(error))
        t_lastFailure = Failure::Busy;
    else if (primary == SqliteIoErr || primary == SqliteCantOpen || error.databaseText().contains(u"I/O error"))
        t_lastFailure = Failure::Io;
    else
        t_lastFailure = Failure::Other;
    return Error{describe(error), m_file};
}

Result<void> OpencodeDbStore::forEachRow(QSqlDatabase &db, const QString &sql, const QVariantList &bindings,
                                         const std::function<void(const QSqlQuery &row)> &row) const
{
    QSqlQuery query(db);
    if (!runRows(query, sql, bindings, row))
        return failed(query);
    return {};
}

Result<void> OpencodeDbStore::forEachRawRow(QSqlDatabase &db, const QString &sql, const QStringList &bindings,
                                            const std::function<void(const RawColumns &row)> &row) const
{
    RawColumns columns;
#ifdef WEFT_HAVE_SQLITE3_API
    if (sqlite3 *connection = sqliteHandleOf(db)) {
        const auto error = [&] {
            return failed(QSqlError(u"Unable to fetch row"_s, QString::fromUtf8(sqlite3_errmsg(connection)),
                                    QSqlError::StatementError, QString::number(sqlite3_extended_errcode(connection))));
        };
        sqlite3_stmt *statement = nullptr;
        const QByteArray text = sql.toUtf8();
        if (sqlite3_prepare_v2(connection, text.constData(), int(text.size()), &statement, nullptr) != SQLITE_OK)
            return error();
        const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> finalize(statement, sqlite3_finalize);
        for (int i = 0; i < bindings.size(); ++i) {
            const QByteArray value = bindings.at(i).toUtf8();
            if (sqlite3_bind_text(statement, i + 1, value.constData(), int(value.size()), SQLITE_TRANSIENT) != SQLITE_OK)
                return error();
        }
        const int count = std::min(sqlite3_column_count(statement), RawColumns::Max);
        int step = SQLITE_ROW;
        while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
            for (int i = 0; i < count; ++i) {
                // A text value's UTF-8 as it is stored (blob before bytes: SQLite's rule).
                const auto *bytes = static_cast<const char *>(sqlite3_column_blob(statement, i));
                columns.at[i] = QByteArrayView(bytes, sqlite3_column_bytes(statement, i));
            }
            row(columns);
        }
        if (step != SQLITE_DONE)
            return error();
        return {};
    }
#endif
    QVariantList values(bindings.cbegin(), bindings.cend());
    std::array<QByteArray, RawColumns::Max> held;
    int count = -1;
    return forEachRow(db, sql, values, [&](const QSqlQuery &query) {
        if (count < 0)
            count = std::min(query.record().count(), RawColumns::Max);
        for (int i = 0; i < count; ++i) {
            held[i] = utf8Of(query.value(i));
            columns.at[i] = held[i];
        }
        row(columns);
    });
}

namespace
{
/// True while the application closes down: its destructor waits for the thread pool, and a read
/// that starts then finds Qt SQL's connections gone with the application object.
bool quitting()
{
    return !QCoreApplication::instance() || QCoreApplication::closingDown();
}
} // namespace

void OpencodeDbStore::reportReadFailure(const Result<void> &r)
{
    // A read given up because Weft quits says nothing about the data.
    if (!r && !quitting())
        reportProblem(m_file, r.error().message);
}

Result<void> OpencodeDbStore::read(const std::function<Result<void>(QSqlDatabase &db)> &reader)
{
    if (quitting())
        return Error{OpencodeDbTr::tr("Weft is quitting"), m_file};
    Error last{u"the database could not be read"_s, m_file};
    for (int attempt = 0; attempt < qMax(1, m_options.attempts); ++attempt) {
        t_lastFailure = Failure::Other;
        std::optional<Result<void>> result;
        {
            // Scoped: the connection is closed below only when no handle to it is left.
            Result<QSqlDatabase> connected = connection();
            if (!connected)
                return connected.error();
            QSqlDatabase db = connected.value();
            if (!db.transaction()) {
                const QSqlError error = db.lastError();
                last = Error{describe(error), m_file};
                if (!isBusy(error))
                    return last;
                continue;
            }
            result = reader(db);
            // A read transaction: ending it releases the snapshot, so OpenCode can checkpoint.
            if (!db.commit())
                db.rollback();
        }
        if (*result)
            return *result;
        last = result->error();
        if (t_lastFailure == Failure::Io) {
            // The files changed under the connection (replaced, or its -wal deleted): a new
            // connection opens what is there now.
            qCInfo(lcStore) << "database files changed, reconnecting:" << m_file;
            m_connections->closeCurrent();
            continue;
        }
        if (t_lastFailure != Failure::Busy)
            return last;
        qCInfo(lcStore) << "database busy, retrying:" << m_file;
    }
    return last;
}

Result<std::shared_ptr<OpencodeDbStore>> OpencodeDbStore::open(const QString &databaseFile)
{
    return open(databaseFile, Options{});
}

Result<std::shared_ptr<OpencodeDbStore>> OpencodeDbStore::open(const QString &databaseFile, const Options &options)
{
    const QString file = QDir::cleanPath(QDir::current().absoluteFilePath(databaseFile));
    const QFileInfo info(file);
    if (!info.exists())
        return Error{OpencodeDbTr::tr("no such file"), file};
    if (!info.isFile())
        return Error{OpencodeDbTr::tr("not a file"), file};
    QFile raw(file);
    if (!raw.open(QIODevice::ReadOnly))
        return Error{OpencodeDbTr::tr("cannot read: %1").arg(raw.errorString()), file};
    const QByteArray header = raw.read(100);
    raw.close();
    if (header.isEmpty())
        return Error{OpencodeDbTr::tr("the database file is empty (0 bytes)"), file};
    if (!header.startsWith(QByteArrayView("SQLite format 3\0", 16)))
        return Error{OpencodeDbTr::tr("not an SQLite database"), file};
    if (header.size() < 100)
        return Error{
            OpencodeDbTr::tr("the database file is truncated (%1 bytes, not even a header)").arg(header.size()), file};
    // The header's page count is valid when its version-valid-for field equals the change
    // counter. With a non-empty -wal the main file may legitimately lag behind; SQLite's own
    // reads then tell damage apart.
    const auto *bytes = reinterpret_cast<const uchar *>(header.constData());
    qint64 pageSize = qFromBigEndian<quint16>(bytes + 16);
    if (pageSize == 1)
        pageSize = 65536;
    const qint64 pageCount = qFromBigEndian<quint32>(bytes + 28);
    const bool countValid = qFromBigEndian<quint32>(bytes + 24) == qFromBigEndian<quint32>(bytes + 92);
    const qint64 walSize = QFileInfo(file + u"-wal"_s).size();
    if (countValid && pageCount > 0 && walSize <= 0 && info.size() < pageSize * pageCount)
        return Error{OpencodeDbTr::tr("the database file is truncated (%1 of %2 bytes): it is damaged")
                         .arg(info.size())
                         .arg(pageSize * pageCount),
                     file};

    auto store = std::shared_ptr<OpencodeDbStore>(new OpencodeDbStore(file, options));
    if (Result<void> inspected = store->inspect(); !inspected)
        return inspected.error();
    return store;
}

Result<void> OpencodeDbStore::inspect()
{
    OpencodeDbSchema schema;
    bool hasV2 = false;
    QString migrationPhase;
    Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        const Result<void> tables
            = forEachRow(db,
                         u"SELECT name FROM sqlite_master WHERE type = 'table' UNION "
                         u"SELECT name FROM sqlite_temp_master WHERE type = 'table' ORDER BY name"_s,
                         {},
                         [&](const QSqlQuery &q) { schema.tables.append(q.value(0).toString()); });
        if (!tables)
            return tables;
        if (!schema.tables.contains(u"session"_s)) {
            if (schema.tables.isEmpty())
                return Error{OpencodeDbTr::tr("an empty SQLite database: no OpenCode tables in it"), m_file};
            return Error{OpencodeDbTr::tr("not an OpenCode database: it has no session table"), m_file};
        }
        for (const QString &table : {u"session"_s, u"session_v2"_s, u"message"_s, u"part"_s, u"project"_s, u"event"_s}) {
            QSet<QString> columns;
            if (schema.tables.contains(table)) {
                const Result<void> info
                    = forEachRow(db, u"PRAGMA table_info(\"%1\")"_s.arg(table), {},
                                 [&](const QSqlQuery &q) { columns.insert(q.value(1).toString()); });
                if (!info)
                    return info;
            }
            if (table == u"session")
                schema.session = columns;
            else if (table == u"session_v2")
                schema.sessionV2 = columns;
            else if (table == u"event")
                schema.event = columns;
            else if (table == u"message")
                schema.message = columns;
            else if (table == u"part")
                schema.part = columns;
            else
                schema.project = columns;
        }
        // OpenCode's V2 conversation rows (1.18 and later): read when the columns are there.
        hasV2 = false;
        if (schema.tables.contains(u"session_message"_s)) {
            QSet<QString> columns;
            const Result<void> info = forEachRow(db, u"PRAGMA table_info(\"session_message\")"_s, {},
                                                 [&](const QSqlQuery &q) { columns.insert(q.value(1).toString()); });
            if (!info)
                return info;
            hasV2 = true;
            for (const QString &c : {u"id"_s, u"session_id"_s, u"type"_s, u"seq"_s, u"time_created"_s, u"time_updated"_s, u"data"_s})
                hasV2 = hasV2 && columns.contains(c);
        }
        // OpenCode 2's V1→V2 migration marker. Optional, as the migration table below.
        if (schema.tables.contains(u"kv"_s)) {
            QSqlQuery kv(db);
            runRows(kv, u"SELECT value FROM kv WHERE key = 'migration.v1-v2'"_s, {}, [&](const QSqlQuery &q) {
                if (const std::optional<JsonValue> v = parseJson(q.value(0).toString().toUtf8()))
                    migrationPhase = v->toObject().string(u"phase");
            });
        }
        // OpenCode's own migration table (1.3 and later), or drizzle's before it (1.2). Optional:
        // a failure here leaves the migration unknown (and is no failed() error).
        const auto latest = [&](const QSqlQuery &q) { schema.latestMigration = q.value(0).toString(); };
        QSqlQuery migration(db);
        if (schema.tables.contains(u"migration"_s))
            runRows(migration, u"SELECT id FROM migration ORDER BY id DESC LIMIT 1"_s, {}, latest);
        else if (schema.tables.contains(u"__drizzle_migrations"_s))
            runRows(migration, u"SELECT name FROM __drizzle_migrations ORDER BY created_at DESC, id DESC LIMIT 1"_s, {},
                    latest);
        QStringList missing;
        for (const Required &required : requiredColumns()) {
            if (!schema.tables.contains(required.table)) {
                missing.append(u"table %1"_s.arg(required.table));
                continue;
            }
            for (const QString &c : required.columns) {
                if (!schema.has(required.table, c))
                    missing.append(required.table + u'.' + c);
            }
        }
        if (!missing.isEmpty()) {
            const QString newer = schema.isNewerThanKnown()
                ? OpencodeDbTr::tr("; it was written by a newer OpenCode (migration %1) than Weft knows")
                      .arg(schema.latestMigration)
                : QString();
            return Error{
                OpencodeDbTr::tr("unknown OpenCode database schema: no %1%2").arg(missing.join(u", "_s), newer),
                m_file};
        }
        // Touch both ends of the big tables: a truncated or overwritten file fails here rather
        // than in the middle of a session list.
        for (const QString &sql : {u"SELECT count(*) FROM session"_s,
                                   u"SELECT id, data FROM message ORDER BY rowid DESC LIMIT 1"_s,
                                   u"SELECT id, data FROM part ORDER BY rowid DESC LIMIT 1"_s,
                                   u"SELECT id FROM part ORDER BY rowid LIMIT 1"_s}) {
            if (const Result<void> touched = forEachRow(db, sql, {}, {}); !touched)
                return touched;
        }
        return {};
    });
    if (!r)
        return r;
    m_schema = schema;
    m_hasV2 = hasV2;
    m_v1MigrationPhase = migrationPhase;
    QStringList select;
    if (m_schema.sessionV2.contains(u"id"_s)) {
        // OpenCode 2.0.x: `session_v2` first, then the legacy rows it has no copy of. A column
        // only one of the tables has is null in the other's rows.
        QStringList v2;
        QStringList v1;
        for (const QString &c : knownSessionColumns()) {
            if (!m_schema.sessionV2.contains(c) && !m_schema.session.contains(c))
                continue;
            select.append(c);
            v2.append(m_schema.sessionV2.contains(c) ? c : u"NULL AS "_s + c);
            v1.append(m_schema.session.contains(c) ? c : u"NULL AS "_s + c);
        }
        m_sessionSource = u"(SELECT rowid AS weft_rowid, 0 AS weft_not_migrated, %1 FROM session_v2 UNION ALL "
                          u"SELECT rowid, 1, %2 FROM session WHERE id NOT IN (SELECT id FROM session_v2))"_s
                              .arg(v2.join(u", "_s), v1.join(u", "_s));
        select.append(u"weft_not_migrated"_s);
    } else {
        for (const QString &c : knownSessionColumns()) {
            if (m_schema.session.contains(c))
                select.append(c);
        }
        m_sessionSource = u"(SELECT rowid AS weft_rowid, * FROM session)"_s;
    }
    m_sessionColumns = select.join(u", "_s);
    if (m_schema.isNewerThanKnown())
        qCInfo(lcStore) << "OpenCode database from a newer release (migration" << m_schema.latestMigration
                        << "); reading the columns Weft knows:" << m_file;
    return {};
}

// ---------------------------------------------------------------------------------------------

std::optional<JsonValue> OpencodeDbStore::jsonColumn(const QSqlQuery &query, int columnIndex, const QString &location,
                                                     const QString &columnName)
{
    const QVariant v = query.value(columnIndex);
    if (!present(v))
        return std::nullopt;
    JsonParseError error;
    std::optional<JsonValue> parsed = parseJson(utf8Of(v), &error);
    if (!parsed)
        reportProblem(location,
                      OpencodeDbTr::tr("not valid JSON in column %1: %2")
                          .arg(columnName.isEmpty() ? query.record().fieldName(columnIndex) : columnName, error.toString()));
    return parsed;
}

std::optional<Session> OpencodeDbStore::sessionFromRow(const QSqlQuery &query)
{
    return sessionFromRow(query, Columns(query.record()));
}

std::optional<Session> OpencodeDbStore::sessionFromRow(const QSqlQuery &query, const Columns &columns)
{
    auto value = [&](const QString &name) { return column(query, columns, name); };
    const QString id = value(u"id"_s).toString();
    const QString location = m_file + u"#session/"_s + id;
    auto json = [&](const QString &name) -> std::optional<JsonValue> {
        const int i = columns.indexOf(name);
        if (i < 0)
            return std::nullopt;
        std::optional<JsonValue> v = jsonColumn(query, i, location, name);
        if (v && v->isNull())
            return std::nullopt;
        return v;
    };
    // The keys of the file era first, in OpenCode 1.1's order; then what the database era added.
    JsonObject o;
    o.insert(u"id"_s, id);
    if (const QVariant slug = value(u"slug"_s); present(slug))
        o.insert(u"slug"_s, slug.toString());
    o.insert(u"version"_s, value(u"version"_s).toString());
    o.insert(u"projectID"_s, value(u"project_id"_s).toString());
    o.insert(u"directory"_s, value(u"directory"_s).toString());
    if (const QVariant parent = value(u"parent_id"_s); present(parent) && !parent.toString().isEmpty())
        o.insert(u"parentID"_s, parent.toString());
    o.insert(u"title"_s, value(u"title"_s).toString());
    JsonObject time{{u"created"_s, value(u"time_created"_s).toLongLong()}, {u"updated"_s, value(u"time_updated"_s).toLongLong()}};
    if (const QVariant v = value(u"time_compacting"_s); present(v))
        time.insert(u"compacting"_s, v.toLongLong());
    if (const QVariant v = value(u"time_archived"_s); present(v))
        time.insert(u"archived"_s, v.toLongLong());
    o.insert(u"time"_s, time);
    const QVariant additions = value(u"summary_additions"_s);
    const QVariant deletions = value(u"summary_deletions"_s);
    const QVariant files = value(u"summary_files"_s);
    if (present(additions) || present(deletions) || present(files)) {
        JsonObject summary{{u"additions"_s, additions.toLongLong()}, {u"deletions"_s, deletions.toLongLong()}, {u"files"_s, files.toLongLong()}};
        if (std::optional<JsonValue> diffs = json(u"summary_diffs"_s))
            summary.insert(u"diffs"_s, *diffs);
        o.insert(u"summary"_s, summary);
    }
    if (const QString url = value(u"share_url"_s).toString(); !url.isEmpty())
        o.insert(u"share"_s, JsonObject{{u"url"_s, url}});
    if (std::optional<JsonValue> permission = json(u"permission"_s))
        o.insert(u"permission"_s, permissionRulesV1(*permission));
    if (std::optional<JsonValue> revert = json(u"revert"_s))
        o.insert(u"revert"_s, *revert);
    if (const QVariant v = value(u"workspace_id"_s); present(v))
        o.insert(u"workspaceID"_s, v.toString());
    if (const QVariant v = value(u"path"_s); present(v))
        o.insert(u"path"_s, v.toString());
    if (const QVariant v = value(u"agent"_s); present(v))
        o.insert(u"agent"_s, v.toString());
    if (std::optional<JsonValue> model = json(u"model"_s))
        o.insert(u"model"_s, *model);
    if (const QVariant cost = value(u"cost"_s); cost.isValid())
        o.insert(u"cost"_s, cost.toDouble());
    if (columns.indexOf(u"tokens_input"_s) >= 0) {
        o.insert(u"tokens"_s, JsonObject{{u"input"_s, value(u"tokens_input"_s).toLongLong()},
                                         {u"output"_s, value(u"tokens_output"_s).toLongLong()},
                                         {u"reasoning"_s, value(u"tokens_reasoning"_s).toLongLong()},
                                         {u"cache"_s, JsonObject{{u"read"_s, value(u"tokens_cache_read"_s).toLongLong()},
                                                                 {u"write"_s, value(u"tokens_cache_write"_s).toLongLong()}}}});
    }
    if (std::optional<JsonValue> metadata = json(u"metadata"_s))
        o.insert(u"metadata"_s, *metadata);
    if (value(u"weft_not_migrated"_s).toInt() == 1)
        o.insert(Session::NotMigratedKey.toString(), true);

    const QList<ValidationIssue> issues = Session::validate(o);
    if (!issues.isEmpty()) {
        reportProblem(location, OpencodeDbTr::tr("unexpected shape: %1").arg(issues.first().toString()));
        return std::nullopt;
    }
    return Session(o);
}

namespace
{
/// `{<ids...>, ...data}`: the ID columns first, then the stored keys in their order (a stored
/// key named like an ID column is replaced by the column, as OpenCode's spread does).
std::optional<JsonObject> withIds(const QList<std::pair<QString, QString>> &ids, const QByteArray &data, QString *why)
{
    JsonParseError error;
    std::optional<JsonValue> parsed
        = data.capacity() - data.size() >= JsonPadding ? parseJsonPadded(data, &error) : parseJson(data, &error);
    if (!parsed) {
        *why = OpencodeDbTr::tr("not valid JSON in column data: %1").arg(error.toString());
        return std::nullopt;
    }
    if (!parsed->isObject()) {
        *why = OpencodeDbTr::tr("column data does not hold a JSON object");
        return std::nullopt;
    }
    JsonObject o;
    for (const auto &[key, value] : ids)
        o.insert(key, value);
    const JsonObject stored = parsed->toObject();
    for (qsizetype i = 0; i < stored.size(); ++i) {
        const QString &key = stored.keyAt(i);
        if (o.contains(key))
            continue;
        o.insert(key, stored.valueAt(i));
    }
    return o;
}
} // namespace

std::optional<Message> OpencodeDbStore::messageFromRow(const QSqlQuery &query)
{
    return messageFromRow(query, Columns(query.record()));
}

std::optional<Message> OpencodeDbStore::messageFromRow(const QSqlQuery &query, const Columns &columns)
{
    return messageFromValues(column(query, columns, u"id"_s).toString(), column(query, columns, u"session_id"_s).toString(),
                             utf8Of(column(query, columns, u"data"_s)));
}

std::optional<Message> OpencodeDbStore::messageFromValues(const QString &id, const QString &sessionID, const QByteArray &data)
{
    const QString location = m_file + u"#message/"_s + id;
    QString why;
    std::optional<JsonObject> o = withIds({{u"id"_s, id}, {u"sessionID"_s, sessionID}}, data, &why);
    if (!o) {
        reportProblem(location, why);
        return std::nullopt;
    }
    const QList<ValidationIssue> issues = Message::validate(*o);
    if (!issues.isEmpty()) {
        reportProblem(location, OpencodeDbTr::tr("unexpected shape: %1").arg(issues.first().toString()));
        return std::nullopt;
    }
    return Message(*o);
}

std::optional<Part> OpencodeDbStore::partFromRow(const QSqlQuery &query)
{
    return partFromRow(query, Columns(query.record()));
}

std::optional<Part> OpencodeDbStore::partFromRow(const QSqlQuery &query, const Columns &columns)
{
    return partFromValues(column(query, columns, u"id"_s).toString(), column(query, columns, u"session_id"_s).toString(),
                          column(query, columns, u"message_id"_s).toString(), utf8Of(column(query, columns, u"data"_s)));
}

std::optional<Part> OpencodeDbStore::partFromValues(const QString &id, const QString &sessionID, const QString &messageID,
                                                    const QByteArray &data)
{
    const QString location = m_file + u"#part/"_s + id;
    QString why;
    std::optional<JsonObject> o = withIds({{u"id"_s, id}, {u"sessionID"_s, sessionID}, {u"messageID"_s, messageID}}, data, &why);
    if (!o) {
        reportProblem(location, why);
        return std::nullopt;
    }
    const QList<ValidationIssue> issues = Part::validate(*o);
    if (!issues.isEmpty()) {
        reportProblem(location, OpencodeDbTr::tr("unexpected shape: %1").arg(issues.first().toString()));
        return std::nullopt;
    }
    return Part(*o);
}

// ---------------------------------------------------------------------------------------------

namespace
{
const QString V2Columns = u"id, session_id, type, seq, time_created, CAST(data AS BLOB) AS data"_s;
// Bound values per statement of an `id IN (...)` read (SQLite allows 32,766).
constexpr qsizetype V2IdsPerRead = 500;

SessionMessageV2::Row v2Row(const QSqlQuery &q)
{
    return {q.value(0).toString(),   q.value(1).toString(),   q.value(2).toString(),
            q.value(3).toLongLong(), q.value(4).toLongLong(), utf8Of(q.value(5))};
}

/// `?, ?, ...`: @p n placeholders.
QString placeholders(qsizetype n)
{
    QString s;
    s.reserve(n * 3);
    for (qsizetype i = 0; i < n; ++i)
        s += i ? u", ?"_s : u"?"_s;
    return s;
}

} // namespace

Result<void> OpencodeDbStore::readV2Path(QSqlDatabase &db, const QString &sessionID, JsonObject &path)
{
    // What a V1 assistant message records as `path`: where it ran and the project's root.
    path = {};
    const QString table = hasSessionV2() ? u"session_v2"_s : u"session"_s;
    const bool withProject = m_schema.tables.contains(u"project"_s) && m_schema.has(table, u"project_id"_s);
    const QString sql = withProject ? u"SELECT s.directory, p.worktree FROM %1 s LEFT JOIN project p "
                                      u"ON p.id = s.project_id WHERE s.id = ?"_s.arg(table)
                                    : u"SELECT directory, directory FROM %1 WHERE id = ?"_s.arg(table);
    return forEachRow(db, sql, {sessionID}, [&](const QSqlQuery &q) {
        const QString cwd = q.value(0).toString();
        const QString root = q.value(1).isNull() ? cwd : q.value(1).toString();
        if (!cwd.isEmpty())
            path = JsonObject{{u"cwd"_s, cwd}, {u"root"_s, root}};
    });
}

Result<void> OpencodeDbStore::readV2Keys(QSqlDatabase &db, const QString &sessionID, QList<SessionMessageV2::Row> &rows)
{
    // Two scans of OpenCode's indexes, (session_id, type, seq) and (session_id, time_created, id),
    // each of which holds its columns: a scan of the rows themselves would read every row's page
    // for its ID and type (3,000 rows of L: 30 ms against 4).
    rows.clear();
    QHash<qint64, qsizetype> byRowid;
    Result<void> r = forEachRow(db, u"SELECT rowid, type, seq FROM session_message WHERE session_id = ?"_s, {sessionID},
                                [&](const QSqlQuery &q) {
                                    byRowid.insert(q.value(0).toLongLong(), rows.size());
                                    rows.append({{}, sessionID, q.value(1).toString(), q.value(2).toLongLong(), 0, {}});
                                });
    if (!r)
        return r;
    r = forEachRow(db, u"SELECT rowid, id FROM session_message WHERE session_id = ?"_s, {sessionID}, [&](const QSqlQuery &q) {
        if (const auto i = byRowid.constFind(q.value(0).toLongLong()); i != byRowid.constEnd())
            rows[*i].id = q.value(1).toString();
    });
    if (!r)
        return r;
    // A row written between the two scans (they are in one read transaction, so none is).
    rows.removeIf([](const SessionMessageV2::Row &row) { return row.id.isEmpty(); });
    std::sort(rows.begin(), rows.end(), [](const SessionMessageV2::Row &a, const SessionMessageV2::Row &b) { return a.seq < b.seq; });
    if (rows.isEmpty())
        return readEventRows(db, sessionID, rows);
    return {};
}

Result<void> OpencodeDbStore::readEventRows(QSqlDatabase &db, const QString &sessionID, QList<SessionMessageV2::Row> &rows)
{
    for (const auto c : {u"aggregate_id", u"seq", u"type", u"data"}) {
        if (!m_schema.event.contains(QStringView(c).toString()))
            return {};
    }
    // Only a session that ran steps has a conversation to rebuild: a V1 session's events (1.18
    // logs every message and part update) are not read. One probe of the (aggregate_id, type)
    // index.
    bool steps = false;
    const Result<void> probe = forEachRow(
        db,
        u"SELECT 1 FROM event WHERE aggregate_id = ? AND (type LIKE 'session.step.started.%' "
        u"OR type LIKE 'session.next.step.started.%') LIMIT 1"_s,
        {sessionID}, [&](const QSqlQuery &) { steps = true; });
    if (!probe || !steps)
        return probe;
    // `created` came with OpenCode 2 (1.18's events carry a `timestamp` in their data instead).
    const QString created = m_schema.event.contains(u"created"_s) ? u"created"_s : u"0"_s;
    QList<SessionEventLog::Event> events;
    const Result<void> r = forEachRow(db, u"SELECT seq, %1, type, CAST(data AS BLOB) FROM event WHERE aggregate_id = ? ORDER BY seq"_s.arg(created),
                                      {sessionID}, [&](const QSqlQuery &q) {
                                          events.append({q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(),
                                                         utf8Of(q.value(3))});
                                      });
    if (!r)
        return r;
    rows = SessionEventLog::rebuildRows(sessionID, events);
    if (!rows.isEmpty())
        qCInfo(lcStore) << "session" << sessionID << "has no session_message rows: rebuilt" << rows.size()
                        << "from its" << events.size() << "events";
    return {};
}

Result<void> OpencodeDbStore::readV2Session(QSqlDatabase &db, const QString &sessionID, QList<MessageWithParts> &out,
                                            const QSet<QString> *only)
{
    if (!m_hasV2 || (only && only->isEmpty()))
        return {};
    // Every row of the session, in order: a row's V1 form depends on its neighbours. With @p only,
    // their keys, and after them the data of the rows mapped and of the rows they need.
    QList<SessionMessageV2::Row> rows;
    if (only) {
        if (const Result<void> r = readV2Keys(db, sessionID, rows); !r)
            return r;
        return readV2Selection(db, sessionID, rows, *only, out);
    }
    const Result<void> r
        = forEachRow(db, u"SELECT %1 FROM session_message WHERE session_id = ? ORDER BY seq"_s.arg(V2Columns), {sessionID},
                     [&](const QSqlQuery &q) { rows.append(v2Row(q)); });
    if (!r)
        return r;
    if (rows.isEmpty()) {
        if (const Result<void> rebuilt = readEventRows(db, sessionID, rows); !rebuilt)
            return rebuilt;
    }
    return mapV2(db, sessionID, rows, nullptr, out);
}

Result<void> OpencodeDbStore::readV2Selection(QSqlDatabase &db, const QString &sessionID, QList<SessionMessageV2::Row> &keys,
                                              const QSet<QString> &only, QList<MessageWithParts> &out)
{
    const QList<qsizetype> rowsNeeded = SessionMessageV2::rowsNeeded(keys, only);
    if (rowsNeeded.isEmpty())
        return {};
    QHash<QString, qsizetype> at;
    QList<qsizetype> needed;
    for (const qsizetype i : rowsNeeded) {
        if (keys.at(i).data.isEmpty()) { // rows rebuilt from the event log come with their data
            at.insert(keys.at(i).id, i);
            needed.append(i);
        }
    }
    for (qsizetype from = 0; from < needed.size(); from += V2IdsPerRead) {
        const qsizetype n = std::min(V2IdsPerRead, needed.size() - from);
        QVariantList ids;
        ids.reserve(n);
        for (qsizetype k = from; k < from + n; ++k)
            ids.append(keys.at(needed.at(k)).id);
        const Result<void> r = forEachRow(
            db, u"SELECT id, time_created, CAST(data AS BLOB) FROM session_message WHERE id IN (%1)"_s.arg(placeholders(n)),
            ids, [&](const QSqlQuery &q) {
                if (const auto i = at.constFind(q.value(0).toString()); i != at.constEnd()) {
                    keys[*i].timeCreated = q.value(1).toLongLong();
                    keys[*i].data = utf8Of(q.value(2));
                }
            });
        if (!r)
            return r;
    }
    return mapV2(db, sessionID, keys, &only, out);
}

Result<void> OpencodeDbStore::mapV2(QSqlDatabase &db, const QString &sessionID, const QList<SessionMessageV2::Row> &rows,
                                    const QSet<QString> *only, QList<MessageWithParts> &out)
{
    JsonObject path;
    if (const Result<void> r = readV2Path(db, sessionID, path); !r)
        return r;
    out.append(SessionMessageV2::sessionToV1(
        rows, path,
        [&](const SessionMessageV2::Row &row, const QString &why) {
            reportProblem(m_file + u"#session_message/"_s + row.id, why);
        },
        only));
    return {};
}

Result<void> OpencodeDbStore::readV2Infos(QSqlDatabase &db, const QString &sessionID, QList<Message> &out,
                                          const QSet<QString> *only)
{
    QList<MessageWithParts> mapped;
    const Result<void> r = readV2Session(db, sessionID, mapped, only);
    for (MessageWithParts &m : mapped)
        out.append(std::move(m.info));
    return r;
}

Result<void> OpencodeDbStore::readV2Rows(QSqlDatabase &db, const QStringList &ids, QList<MessageWithParts> &out)
{
    if (!m_hasV2 || ids.isEmpty())
        return {};
    // The rows by session: each session's rows are mapped together, in one read of its order.
    QHash<QString, QSet<QString>> bySession;
    QStringList sessions;
    for (qsizetype from = 0; from < ids.size(); from += V2IdsPerRead) {
        const qsizetype n = std::min(V2IdsPerRead, ids.size() - from);
        const QVariantList bound(ids.cbegin() + from, ids.cbegin() + from + n);
        const Result<void> r = forEachRow(
            db, u"SELECT id, session_id FROM session_message WHERE id IN (%1)"_s.arg(placeholders(n)), bound,
            [&](const QSqlQuery &q) {
                const QString session = q.value(1).toString();
                auto it = bySession.find(session);
                if (it == bySession.end()) {
                    it = bySession.insert(session, {});
                    sessions.append(session);
                }
                it->insert(q.value(0).toString());
            });
        if (!r)
            return r;
    }
    QList<MessageWithParts> mapped;
    for (const QString &session : std::as_const(sessions)) {
        if (const Result<void> r = readV2Session(db, session, mapped, &bySession[session]); !r)
            return r;
    }
    // In the order of @p ids.
    QHash<QString, qsizetype> at; // index + 1: take() gives 0 for an ID not (or no longer) there
    for (qsizetype i = 0; i < mapped.size(); ++i)
        at.insert(mapped.at(i).info.id(), i + 1);
    for (const QString &id : ids) {
        if (const qsizetype i = at.take(id) - 1; i >= 0)
            out.append(std::move(mapped[i]));
    }
    return {};
}

// ---------------------------------------------------------------------------------------------

QList<Project> OpencodeDbStore::projects()
{
    StoreReads::check("projects");
    QList<Project> result;
    if (!m_schema.tables.contains(u"project"_s))
        return result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        return forEachRow(db, u"SELECT * FROM project"_s, {}, [&](const QSqlQuery &q) {
            const Columns record(q.record());
            auto value = [&](const QString &name) { return column(q, record, name); };
            const QString id = value(u"id"_s).toString();
            const QString location = m_file + u"#project/"_s + id;
            JsonObject o{{u"id"_s, id}, {u"worktree"_s, value(u"worktree"_s).toString()}};
            if (const QVariant vcs = value(u"vcs"_s); present(vcs))
                o.insert(u"vcs"_s, vcs.toString());
            JsonValue sandboxes = JsonArray();
            if (const int i = record.indexOf(u"sandboxes"_s); i >= 0) {
                if (std::optional<JsonValue> v = jsonColumn(q, i, location, u"sandboxes"_s); v && v->isArray())
                    sandboxes = *v;
            }
            o.insert(u"sandboxes"_s, sandboxes);
            JsonObject time{{u"created"_s, value(u"time_created"_s).toLongLong()}, {u"updated"_s, value(u"time_updated"_s).toLongLong()}};
            if (const QVariant v = value(u"time_initialized"_s); present(v))
                time.insert(u"initialized"_s, v.toLongLong());
            o.insert(u"time"_s, time);
            if (const QVariant v = value(u"name"_s); present(v))
                o.insert(u"name"_s, v.toString());
            JsonObject icon;
            if (const QVariant v = value(u"icon_url"_s); present(v))
                icon.insert(u"url"_s, v.toString());
            if (const QVariant v = value(u"icon_url_override"_s); present(v))
                icon.insert(u"override"_s, v.toString());
            if (const QVariant v = value(u"icon_color"_s); present(v))
                icon.insert(u"color"_s, v.toString());
            if (!icon.isEmpty())
                o.insert(u"icon"_s, icon);
            if (const int i = record.indexOf(u"commands"_s); i >= 0) {
                if (std::optional<JsonValue> v = jsonColumn(q, i, location, u"commands"_s); v && !v->isNull())
                    o.insert(u"commands"_s, *v);
            }
            if (const QList<ValidationIssue> issues = Project::validate(o); !issues.isEmpty()) {
                reportProblem(location, OpencodeDbTr::tr("unexpected shape: %1").arg(issues.first().toString()));
                return;
            }
            result.append(Project(o));
        });
    });
    reportReadFailure(r);
    return result;
}

std::optional<QList<Session>> OpencodeDbStore::sessionsOf(const QString &sql, const QVariantList &bound)
{
    QList<Session> result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        result.clear();
        std::optional<Columns> columns;
        return forEachRow(db, sql, bound, [&](const QSqlQuery &q) {
            if (!columns)
                columns.emplace(q.record());
            if (std::optional<Session> s = sessionFromRow(q, *columns))
                result.append(*s);
        });
    });
    reportReadFailure(r);
    if (!r)
        return std::nullopt;
    return result;
}

QList<Session> OpencodeDbStore::sessions()
{
    StoreReads::check("sessions");
    return sessionsOf(u"SELECT %1 FROM %2"_s.arg(m_sessionColumns, m_sessionSource)).value_or(QList<Session>());
}

QList<OpencodeDbStore::ListedSession> OpencodeDbStore::rootListing()
{
    StoreReads::check("rootListing");
    // Rows that sessions() maps no differently for a listing: a `ses_` ID and none of the JSON
    // columns that sessionFromRow() parses and Session::validate() checks. The others (rare in
    // OpenCode's rows) are mapped as sessions() maps them, children too: their problems are
    // reported as `session list` always reported them.
    QStringList jsonColumns;
    for (const QString &c : {u"summary_diffs"_s, u"permission"_s, u"revert"_s, u"model"_s, u"metadata"_s}) {
        if (m_schema.session.contains(c) || m_schema.sessionV2.contains(c))
            jsonColumns.append(c + u" IS NOT NULL"_s);
    }
    const QString checked = u"(substr(id, 1, 4) <> 'ses_'%1)"_s.arg(
        jsonColumns.isEmpty() ? QString() : u" OR "_s + jsonColumns.join(u" OR "_s));
    const bool v2 = hasSessionV2();
    const QString sql = u"SELECT id, title, time_updated, time_created, project_id, directory, "
                        u"parent_id IS NOT NULL AND parent_id <> '', %1, %2 FROM %3"_s.arg(
                            checked, v2 ? u"weft_not_migrated"_s : u"0"_s, v2 ? m_sessionSource : u"session"_s);
    QList<ListedSession> result;
    QStringList recheck;
    const auto integer = [](QByteArrayView bytes) {
        bool ok = false;
        const qint64 n = bytes.toLongLong(&ok);
        return ok ? n : qint64(bytes.toDouble());
    };
    Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        result.clear();
        recheck.clear();
        Result<void> rows = forEachRawRow(db, sql, {}, [&](const RawColumns &row) {
            if (row.at[7] == "1") {
                recheck.append(QString::fromUtf8(row.at[0]));
                return;
            }
            if (row.at[6] == "1")
                return;
            result.append({row.at[0].toByteArray(), row.at[1].toByteArray(), row.at[4].toByteArray(),
                           row.at[5].toByteArray(), integer(row.at[3]), integer(row.at[2]), row.at[8] == "1"});
        });
        if (!rows || recheck.isEmpty())
            return rows;
        // The rows to check, as sessions() reads them (in batches of bound IDs).
        std::optional<Columns> columns;
        for (qsizetype from = 0; from < recheck.size(); from += V2IdsPerRead) {
            const qsizetype n = std::min(V2IdsPerRead, recheck.size() - from);
            const QVariantList bound(recheck.cbegin() + from, recheck.cbegin() + from + n);
            rows = forEachRow(db, u"SELECT %1 FROM %2 WHERE id IN (%3)"_s.arg(m_sessionColumns, m_sessionSource, placeholders(n)),
                              bound, [&](const QSqlQuery &q) {
                                  if (!columns)
                                      columns.emplace(q.record());
                                  const std::optional<Session> s = sessionFromRow(q, *columns);
                                  if (!s || !s->parentID().isEmpty())
                                      return;
                                  result.append({s->id().toUtf8(), s->title().toUtf8(), s->projectID().toUtf8(),
                                                 s->directory().toUtf8(), s->created(), s->updated(), s->isNotMigrated()});
                              });
            if (!rows)
                return rows;
        }
        return {};
    });
    reportReadFailure(r);
    if (!r)
        return {};
    // SessionService's order: newest first, then by ID (unique: no stable sort needed).
    std::sort(result.begin(), result.end(), [](const ListedSession &a, const ListedSession &b) {
        return a.updated != b.updated ? a.updated > b.updated : a.id < b.id;
    });
    return result;
}

namespace
{
// The session columns a list keeps: sessionFromRow() leaves out what a row does not hold.
QString listedColumns(const QString &sessionColumns)
{
    static const QStringList unlisted{u"summary_diffs"_s, u"metadata"_s, u"cost"_s, u"tokens_input"_s, u"tokens_output"_s,
                                      u"tokens_reasoning"_s, u"tokens_cache_read"_s, u"tokens_cache_write"_s};
    QStringList listed = sessionColumns.split(u", "_s);
    listed.removeIf([](const QString &column) { return unlisted.contains(column); });
    return listed.join(u", "_s);
}
} // namespace

QList<Session> OpencodeDbStore::listedSessions()
{
    StoreReads::check("listedSessions");
    return sessionsOf(u"SELECT %1 FROM %2"_s.arg(listedColumns(m_sessionColumns), m_sessionSource)).value_or(QList<Session>());
}

std::optional<QList<Session>> OpencodeDbStore::newestListedSessions(int roots)
{
    StoreReads::check("newestListedSessions");
    // OpenCode 2's sessions come from a union of two tables: no index to page them by.
    if (hasSessionV2() || !m_schema.session.contains(u"parent_id"_s) || !m_schema.session.contains(u"time_updated"_s))
        return std::nullopt;
    // The roots through session_parent_idx (a root's parent_id is NULL, or empty as the CLI's
    // list allows), sorted by time in a temporary B-tree (OpenCode's schema has no index on
    // time_updated); then each generation of children through the same index; whole rows only
    // for those (EXPLAIN QUERY PLAN: no SCAN of session).
    const QString sql = u"WITH RECURSIVE family(id) AS ("
                        u"SELECT id FROM (SELECT id FROM session WHERE parent_id IS NULL OR parent_id = '' ORDER BY time_updated DESC, id LIMIT ?) "
                        u"UNION SELECT session.id FROM session JOIN family ON session.parent_id = family.id) "
                        u"SELECT %1 FROM session WHERE id IN family"_s.arg(listedColumns(m_sessionColumns));
    return sessionsOf(sql, {roots});
}

std::optional<Session> OpencodeDbStore::session(const QString &sessionID)
{
    StoreReads::check("session");
    std::optional<Session> result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        // id is the primary key: one row at most.
        return forEachRow(db, u"SELECT %1 FROM %2 WHERE id = ?"_s.arg(m_sessionColumns, m_sessionSource), {sessionID},
                          [&](const QSqlQuery &q) { result = sessionFromRow(q); });
    });
    reportReadFailure(r);
    return result;
}

QList<Message> OpencodeDbStore::messages(const QString &sessionID)
{
    StoreReads::check("messages");
    QList<Message> result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        result.clear();
        const Result<QString> key = v1Key(db, sessionID);
        if (!key)
            return key.error();
        std::optional<Columns> columns;
        const Result<void> v1 = forEachRow(
            db, MessageSelect + u" WHERE session_id = ? ORDER BY time_created, id"_s, {*key}, [&](const QSqlQuery &q) {
                if (!columns)
                    columns.emplace(q.record());
                if (std::optional<Message> m = messageFromRow(q, *columns))
                    result.append(*m);
            });
        if (!v1)
            return v1;
        return readV2Infos(db, sessionID, result);
    });
    reportReadFailure(r);
    std::stable_sort(result.begin(), result.end(), messageLessThan);
    return result;
}

Result<QString> OpencodeDbStore::v1Key(QSqlDatabase &db, const QString &sessionID)
{
    if (!hasSessionV2() || !m_hasV2)
        return sessionID;
    bool migrated = false;
    const Result<void> r = forEachRow(db,
                                      u"SELECT 1 FROM session_v2 WHERE id = ? AND EXISTS "
                                      u"(SELECT 1 FROM session_message WHERE session_id = ?)"_s,
                                      {sessionID, sessionID}, [&](const QSqlQuery &) { migrated = true; });
    if (!r)
        return r.error();
    return migrated ? QString() : sessionID;
}

Result<void> OpencodeDbStore::readMessageIDs(QSqlDatabase &db, const QString &sessionID, QStringList &ids,
                                             qsizetype &v1Count, QList<SessionMessageV2::Row> &keys)
{
    ids.clear();
    const Result<QString> key = v1Key(db, sessionID);
    if (!key)
        return key.error();
    const Result<void> v1 = forEachRow(db, u"SELECT id FROM message WHERE session_id = ?"_s, {*key},
                                       [&](const QSqlQuery &q) { ids.append(q.value(0).toString()); });
    v1Count = ids.size();
    if (!v1)
        return v1;
    // A V2 session's messages are its rows of the kinds that become one, by their IDs: no row's
    // data is read (a row that turns out damaged is left out when it is read).
    if (!m_hasV2)
        return {};
    const Result<void> r2 = readV2Keys(db, sessionID, keys);
    for (const SessionMessageV2::Row &row : std::as_const(keys)) {
        if (SessionMessageV2::becomesMessage(row.type))
            ids.append(row.id);
    }
    return r2;
}

QStringList OpencodeDbStore::messageIDs(const QString &sessionID)
{
    StoreReads::check("messageIDs");
    // What a view asks first of a long session: the IDs alone, not the JSON of every message
    // (messages() parses it, which took most of opening L-db's 3,000 messages).
    QStringList result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        qsizetype v1Count = 0;
        QList<SessionMessageV2::Row> keys;
        return readMessageIDs(db, sessionID, result, v1Count, keys);
    });
    reportReadFailure(r);
    return result;
}

std::optional<Message> OpencodeDbStore::message(const QString &sessionID, const QString &messageID)
{
    StoreReads::check("message");
    std::optional<Message> result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        // id is the primary key: one row at most.
        const Result<QString> key = v1Key(db, sessionID);
        if (!key)
            return key.error();
        const Result<void> v1 = forEachRow(db, MessageSelect + u" WHERE id = ? AND session_id = ?"_s,
                                           {messageID, *key}, [&](const QSqlQuery &q) { result = messageFromRow(q); });
        if (!v1 || result)
            return v1;
        QList<Message> v2;
        const QSet<QString> only{messageID};
        const Result<void> r2 = readV2Infos(db, sessionID, v2, &only);
        if (!v2.isEmpty())
            result = std::move(v2.first());
        return r2;
    });
    reportReadFailure(r);
    return result;
}

QList<Part> OpencodeDbStore::parts(const QString &sessionID, const QString &messageID)
{
    StoreReads::check("parts");
    QList<Part> result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        result.clear();
        const Result<QString> key = v1Key(db, sessionID);
        if (!key)
            return key.error();
        const Result<void> v1 = forEachRow(
            db, PartSelect + u" WHERE message_id = ? AND session_id = ? ORDER BY id"_s, {messageID, *key}, [&](const QSqlQuery &q) {
                  if (std::optional<Part> p = partFromRow(q))
                      result.append(*p);
              });
        if (!v1 || !result.isEmpty())
            return v1;
        QList<MessageWithParts> v2;
        const QSet<QString> only{messageID};
        const Result<void> r2 = readV2Session(db, sessionID, v2, &only);
        if (!v2.isEmpty())
            result = std::move(v2.first().parts);
        return r2;
    });
    reportReadFailure(r);
    std::stable_sort(result.begin(), result.end(), partLessThan);
    return result;
}

Result<void> OpencodeDbStore::readV1Messages(QSqlDatabase &db, const QString &sessionID, const QStringList &ids,
                                             QList<Message> &out, QSet<QString> *missing)
{
    const Result<QString> key = v1Key(db, sessionID);
    if (!key)
        return key.error();
    for (const QString &id : ids) {
        const qsizetype before = out.size();
        const Result<void> r
            = forEachRow(db, MessageSelect + u" WHERE id = ? AND session_id = ?"_s, {id, *key}, [&](const QSqlQuery &q) {
                  if (std::optional<Message> m = messageFromRow(q))
                      out.append(std::move(*m));
              });
        if (!r)
            return r;
        if (missing && out.size() == before)
            missing->insert(id);
    }
    return {};
}

Result<void> OpencodeDbStore::readV1Parts(QSqlDatabase &db, MessageWithParts &message)
{
    return forEachRow(db, PartSelect + u" WHERE message_id = ? ORDER BY id"_s, {message.info.id()}, [&](const QSqlQuery &q) {
        if (std::optional<Part> p = partFromRow(q))
            message.parts.append(std::move(*p));
    });
}

QList<Message> OpencodeDbStore::messagesByID(const QString &sessionID, const QStringList &messageIDs)
{
    StoreReads::check("messagesByID");
    // Many (a long session's older messages): Store's one read of all. A page: the V1 rows by
    // their key, the V2 rows together, their session's order read once and not once per message.
    if (!m_hasV2 || messageIDs.size() > 64)
        return Store::messagesByID(sessionID, messageIDs);
    QList<Message> result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        result.clear();
        QSet<QString> v2;
        if (const Result<void> v1 = readV1Messages(db, sessionID, messageIDs, result, &v2); !v1)
            return v1;
        return readV2Infos(db, sessionID, result, &v2);
    });
    reportReadFailure(r);
    std::stable_sort(result.begin(), result.end(), messageLessThan);
    return result;
}

QList<MessageWithParts> OpencodeDbStore::withParts(const QString &sessionID, const QList<Message> &infos)
{
    StoreReads::check("withParts");
    if (!m_hasV2)
        return Store::withParts(sessionID, infos);
    // The V1 part rows message by message; the messages without any are V2 rows, mapped together.
    QList<MessageWithParts> result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        result.clear();
        result.reserve(infos.size());
        const Result<QString> key = v1Key(db, sessionID);
        if (!key)
            return key.error();
        QSet<QString> v2;
        for (const Message &info : infos) {
            result.append({info, {}});
            if (key->isEmpty()) {
                v2.insert(info.id());
                continue;
            }
            if (const Result<void> v1 = readV1Parts(db, result.last()); !v1)
                return v1;
            if (result.last().parts.isEmpty())
                v2.insert(info.id());
        }
        QList<MessageWithParts> mapped;
        const Result<void> r2 = readV2Session(db, sessionID, mapped, &v2);
        QHash<QString, QList<Part>> partsOf;
        for (MessageWithParts &m : mapped)
            partsOf.insert(m.info.id(), std::move(m.parts));
        for (MessageWithParts &m : result) {
            if (const auto it = partsOf.find(m.info.id()); it != partsOf.end())
                m.parts = std::move(*it);
        }
        return r2;
    });
    reportReadFailure(r);
    for (MessageWithParts &m : result)
        std::stable_sort(m.parts.begin(), m.parts.end(), partLessThan);
    return result;
}

NewestMessages OpencodeDbStore::newestMessages(const QString &sessionID, qsizetype count)
{
    StoreReads::check("newestMessages");
    if (!m_hasV2)
        return Store::newestMessages(sessionID, count);
    // One read: the IDs of the session's V1 rows and the keys of its V2 rows (which tell which
    // kind each of the page's messages is), then the page's V1 rows with their parts and its V2
    // rows mapped once, with theirs. Store's way asks for the V2 keys three times and maps the
    // page's V2 rows twice (messagesByID(), withParts()).
    NewestMessages result;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        result = {};
        QStringList ids;
        qsizetype v1Count = 0;
        QList<SessionMessageV2::Row> keys;
        if (const Result<void> listed = readMessageIDs(db, sessionID, ids, v1Count, keys); !listed)
            return listed;
        const QSet<QString> v1IDs(ids.cbegin(), ids.cbegin() + v1Count);
        auto [newest, older] = splitNewest(ids, count);
        result.olderIDs = std::move(older);
        QStringList v1Page;
        QSet<QString> v2Page;
        for (const QString &id : std::as_const(newest)) {
            if (v1IDs.contains(id))
                v1Page.append(id);
            else
                v2Page.insert(id);
        }
        QList<Message> infos;
        if (const Result<void> r2 = readV1Messages(db, sessionID, v1Page, infos, nullptr); !r2)
            return r2;
        for (Message &info : infos) {
            result.messages.append({std::move(info), {}});
            if (const Result<void> r2 = readV1Parts(db, result.messages.last()); !r2)
                return r2;
        }
        return v2Page.isEmpty() ? Result<void>() : readV2Selection(db, sessionID, keys, v2Page, result.messages);
    });
    reportReadFailure(r);
    std::stable_sort(result.messages.begin(), result.messages.end(),
                     [](const MessageWithParts &a, const MessageWithParts &b) { return messageLessThan(a.info, b.info); });
    for (MessageWithParts &m : result.messages)
        std::stable_sort(m.parts.begin(), m.parts.end(), partLessThan);
    return result;
}

namespace
{
/// A copy of a row's @p bytes with the parser's padding behind them (parseJsonPadded(), which
/// withIds() uses then): the parser's own padded copy of every row was 2% of an export's
/// instructions, and 35 MB more memory touched for L's.
QByteArray paddedCopy(QByteArrayView bytes)
{
    QByteArray copy;
    copy.reserve(bytes.size() + JsonPadding);
    copy.append(bytes);
    std::memset(copy.data() + copy.size(), 0, size_t(JsonPadding));
    return copy;
}

/// A message of streamMessages() while its part rows are read, until it is mapped.
struct PendingMessage {
    MessageWithParts message;
    QList<RawRow> parts;
};
} // namespace

template<typename Out>
Result<void> OpencodeDbStore::streamMessages(QSqlDatabase &db, const QString &sessionID,
                                             const std::function<Out(MessageWithParts &&)> &map,
                                             const std::function<void(Out &&)> &take)
{
    // The message rows, mapped (JSON parsed, checked) on the pool's threads while more are read.
    // Each row's bytes are freed as soon as it is parsed: the values built next reuse that memory
    // instead of faulting in new pages (page faults are dear on a VM).
    ParallelMap<RawRow, std::optional<Message>> messageMap([this, &sessionID](RawRow &row) {
        std::optional<Message> m = messageFromValues(row.id, sessionID, row.data);
        row.data = QByteArray();
        return m;
    });
    const Result<QString> key = v1Key(db, sessionID);
    if (!key)
        return key.error();
    const Result<void> messages = forEachRawRow(
        db, u"SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id"_s, {*key},
        [&](const RawColumns &row) { messageMap.add({QString::fromUtf8(row.at[0]), paddedCopy(row.at[1])}); });
    QList<std::optional<Message>> infos = messageMap.finish();
    if (!messages)
        return messages;
    // The V1 messages in the order of that select, then the V2 ones with their parts.
    QList<PendingMessage> pending;
    QHash<QString, qsizetype> v1Index;
    for (std::optional<Message> &info : infos) {
        if (info) {
            v1Index.insert(info->id(), pending.size());
            pending.append(PendingMessage{{std::move(*info), {}}, {}});
        }
    }
    const qsizetype v1Count = pending.size();
    QList<MessageWithParts> v2;
    if (const Result<void> r = readV2Session(db, sessionID, v2); !r)
        return r;
    for (MessageWithParts &m : v2)
        pending.append(PendingMessage{std::move(m), {}});
    // The order they are handed on in: messages()'s, by the creation time in their JSON and ID.
    QList<qsizetype> order(pending.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&pending](qsizetype a, qsizetype b) {
        return messageLessThan(pending.at(a).message.info, pending.at(b).message.info);
    });

    ParallelMap<PendingMessage, Out> mapper(
        [this, &sessionID, &map](PendingMessage &p) {
            for (RawRow &row : p.parts) {
                if (std::optional<Part> part = partFromValues(row.id, sessionID, p.message.info.id(), row.data))
                    p.message.parts.append(std::move(*part));
                row.data = QByteArray();
            }
            p.parts = QList<RawRow>();
            std::stable_sort(p.message.parts.begin(), p.message.parts.end(), partLessThan);
            return map(std::move(p.message));
        },
        MapMessagesBatch);
    // A V1 message is complete once the part rows have gone past it: the select below returns
    // each message's rows together, messages in the order of the select above (the same ORDER BY
    // in the same transaction). V2 messages came with their parts.
    qsizetype passed = 0; // the V1 messages before it are complete
    const auto complete = [&passed, v1Count](qsizetype i) { return i < passed || i >= v1Count; };
    qsizetype next = 0; // in order: the first message not handed to the mapper
    bool taken = false;
    const auto handOn = [&] {
        while (next < order.size() && complete(order.at(next)))
            mapper.add(std::move(pending[order.at(next++)]));
        mapper.takeMapped([&](Out &&out) {
            taken = true;
            take(std::move(out));
        });
    };
    handOn();
    // Through the indexes on (session_id, time_created, id) and (message_id, id): the rows come
    // in order without a sort (an ORDER BY on part rows alone sorts them, with their data, in a
    // temporary B-tree). The unary + keeps SQLite off the part table's session index.
    QByteArray messageID; // of the rows before: the next ones are most likely of it too
    qsizetype at = -1; // its place in pending, -1 when it could not be read
    const Result<void> parts = v1Count == 0 ? Result<void>() : forEachRawRow(
        db,
        u"SELECT p.id, p.message_id, p.data FROM message m CROSS JOIN part p ON p.message_id = m.id "
        u"WHERE m.session_id = ? AND +p.session_id = ? ORDER BY m.time_created, m.id"_s,
        {*key, *key}, [&](const RawColumns &row) {
            if (row.at[1] != messageID) {
                messageID = row.at[1].toByteArray();
                at = v1Index.value(QString::fromUtf8(messageID), -1);
                if (at > passed) {
                    passed = at;
                    handOn();
                }
            }
            if (at < 0)
                return; // of a message row that could not be read
            Q_ASSERT(at >= passed); // each message's rows together, in order
            pending[at].parts.append(RawRow{QString::fromUtf8(row.at[0]), paddedCopy(row.at[2])});
        });
    if (!parts) {
        if (taken) // messages went out already: a read started again would hand them on twice
            t_lastFailure = Failure::Other;
        return parts;
    }
    passed = v1Count;
    handOn();
    for (Out &out : mapper.finish())
        take(std::move(out));
    return {};
}

QList<MessageWithParts> OpencodeDbStore::messagesWithParts(const QString &sessionID)
{
    StoreReads::check("messagesWithParts");
    QList<MessageWithParts> result;
    const Result<void> r = read([&](QSqlDatabase &db) {
        result.clear();
        return streamMessages<MessageWithParts>(
            db, sessionID, [](MessageWithParts &&m) { return std::move(m); },
            [&result](MessageWithParts &&m) { result.append(std::move(m)); });
    });
    reportReadFailure(r);
    return result;
}

void OpencodeDbStore::mapMessages(const QString &sessionID, const MessageMapper &map,
                                  const std::function<void(QByteArray &&)> &take)
{
    StoreReads::check("mapMessages");
    const Result<void> r
        = read([&](QSqlDatabase &db) { return streamMessages<QByteArray>(db, sessionID, map, take); });
    reportReadFailure(r);
}

QList<FileDiff> OpencodeDbStore::sessionDiff(const QString &sessionID)
{
    StoreReads::check("sessionDiff");
    QList<FileDiff> result;
    if (!Identifier::isSafeKeyComponent(sessionID))
        return result;
    const JsonStorage storage(dataDir() + u"/storage"_s);
    const Result<JsonValue> value = storage.read({u"session_diff"_s, sessionID});
    if (!value) {
        if (value.error().message != u"not found")
            reportProblem(value.error().where, value.error().message);
        return result;
    }
    const JsonArray array = value->toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (FileDiff::validate(array.at(i)).isEmpty())
            result.append(FileDiff(array.at(i).toObject()));
    }
    return result;
}

StoreWatcher *OpencodeDbStore::createWatcher(QObject *parent)
{
    return new OpencodeDbWatcher(std::static_pointer_cast<OpencodeDbStore>(shared_from_this()), parent);
}

Result<QHash<QString, qint64>> OpencodeDbStore::changeStamps(const QList<Session> &sessions)
{
    StoreReads::check("changeStamps");
    Q_UNUSED(sessions)
    QHash<QString, qint64> stamps;
    const Result<void> r = read([&](QSqlDatabase &db) -> Result<void> {
        stamps.clear();
        // NOT INDEXED: a plain table scan is far cheaper than walking the session index and
        // looking every row up for its time_updated.
        for (const QString &sql :
             {QString(u"SELECT id, time_updated FROM "_s + m_sessionSource),
              u"SELECT session_id, max(time_updated) FROM message NOT INDEXED GROUP BY session_id"_s,
              u"SELECT session_id, max(time_updated) FROM part NOT INDEXED GROUP BY session_id"_s}) {
            const bool sessionRows = sql.contains(u"FROM ("_s);
            const Result<void> rows = forEachRow(db, sql, {}, [&](const QSqlQuery &q) {
                const QString id = q.value(0).toString();
                const qint64 t = q.value(1).toLongLong();
                if (sessionRows)
                    stamps.insert(id, t);
                else if (auto it = stamps.find(id); it != stamps.end())
                    it.value() = qMax(it.value(), t);
            });
            if (!rows)
                return rows;
        }
        if (m_hasV2) {
            return forEachRow(db, u"SELECT session_id, max(time_updated) FROM session_message NOT INDEXED GROUP BY session_id"_s, {},
                              [&](const QSqlQuery &q) {
                                  if (auto it = stamps.find(q.value(0).toString()); it != stamps.end())
                                      it.value() = qMax(it.value(), q.value(1).toLongLong());
                              });
        }
        return {};
    });
    if (!r)
        return r.error();
    return stamps;
}

// ---------------------------------------------------------------------------------------------

Result<void> OpencodeDbStore::notWritable() const
{
    return Error{
        OpencodeDbTr::tr("OpenCode's database is read-only in Weft: copy the session into Weft's own store first "
                         "(weft import --from-db %1 SESSION_ID)")
            .arg(dataDir()),
        m_file};
}

Result<void> OpencodeDbStore::writeProject(const Project &)
{
    return notWritable();
}

Result<void> OpencodeDbStore::writeSession(const Session &)
{
    return notWritable();
}

Result<void> OpencodeDbStore::writeMessage(const Message &)
{
    return notWritable();
}

Result<void> OpencodeDbStore::writePart(const Part &)
{
    return notWritable();
}

Result<void> OpencodeDbStore::writeSessionDiff(const QString &, const QList<FileDiff> &)
{
    return notWritable();
}

Result<void> OpencodeDbStore::removeSession(const Session &)
{
    return notWritable();
}

Result<void> OpencodeDbStore::removeMessage(const QString &, const QString &)
{
    return notWritable();
}

Result<void> OpencodeDbStore::removePart(const QString &, const QString &, const QString &)
{
    return notWritable();
}

} // namespace weft
