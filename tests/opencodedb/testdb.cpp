// SPDX-License-Identifier: GPL-3.0-or-later
#include "testdb.h"

#include <QAtomicInteger>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft::test
{

namespace
{
QAtomicInteger<int> s_serial;

std::optional<JsonObject> readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    std::optional<JsonValue> v = parseJson(f.readAll());
    if (!v || !v->isObject())
        return std::nullopt;
    return v->toObject();
}

QVariant jsonText(const JsonValue &v)
{
    if (v.isUndefined() || v.isNull())
        return QVariant(QMetaType::fromType<QString>());
    return QString::fromUtf8(toJson(v, 0));
}

QVariant nullable(const JsonValue &v)
{
    if (v.isUndefined() || v.isNull())
        return QVariant(QMetaType::fromType<QString>());
    if (v.isNumber())
        return v.toInteger();
    return v.toString();
}

/// The JSON minus the keys that became columns.
QString dataWithout(const JsonObject &o, const QStringList &keys)
{
    JsonObject data;
    for (qsizetype i = 0; i < o.size(); ++i) {
        if (!keys.contains(o.keyAt(i)))
            data.insert(o.keyAt(i), o.valueAt(i));
    }
    return QString::fromUtf8(toJson(data, 0));
}
} // namespace

QString ageName(SchemaAge age)
{
    switch (age) {
    case SchemaAge::V1_2:
        return u"1.2"_s;
    case SchemaAge::V1_2_16:
        return u"1.2.16"_s;
    case SchemaAge::V1_14_29:
        return u"1.14.29"_s;
    case SchemaAge::V1_14_49:
        return u"1.14.49"_s;
    case SchemaAge::V1_15_13:
        return u"1.15.13"_s;
    }
    return {};
}

QStringList missingSessionColumns(SchemaAge age)
{
    QStringList missing;
    if (age < SchemaAge::V1_15_13)
        missing << u"metadata"_s;
    if (age < SchemaAge::V1_14_49)
        missing << u"cost"_s << u"tokens_input"_s << u"tokens_output"_s << u"tokens_reasoning"_s << u"tokens_cache_read"_s
                << u"tokens_cache_write"_s;
    if (age < SchemaAge::V1_14_29)
        missing << u"path"_s;
    if (age < SchemaAge::V1_2_16)
        missing << u"workspace_id"_s;
    return missing;
}

QString schemaSql(SchemaAge age)
{
    QFile f(QStringLiteral(WEFT_TEST_DATA "/opencode-schema/opencode-1.18.34-schema.sql"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString sql = QString::fromUtf8(f.readAll());
    const QStringList missing = missingSessionColumns(age);
    // Drop the column lines of the session table, and the index on a dropped column.
    const qsizetype start = sql.indexOf(u"CREATE TABLE `session` ("_s);
    const qsizetype end = sql.indexOf(u");"_s, start);
    QString table = sql.mid(start, end - start);
    for (const QString &c : missing)
        table.remove(QRegularExpression(u"\\n\\s*`%1`[^\\n]*"_s.arg(c)));
    sql.replace(start, end - start, table);
    if (missing.contains(u"workspace_id"_s))
        sql.remove(QRegularExpression(u"CREATE INDEX `session_workspace_idx`[^;]*;"_s));
    return sql;
}

QString realFixtureDir(const QString &version)
{
    return QStringLiteral(WEFT_TEST_DATA "/opencode-") + version;
}

QStringList realFixtureVersions()
{
    return {u"1.18.34"_s, u"1.2.27"_s};
}

TestDb::TestDb(const QString &file, SchemaAge age, bool create)
    : m_name(u"weft-testdb-%1"_s.arg(++s_serial))
{
    if (create)
        QFile::remove(file);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_name);
        db.setDatabaseName(file);
        db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=5000"_s);
        if (!db.open()) {
            m_error = db.lastError().text();
            return;
        }
    }
    // OpenCode's pragmas (bun:sqlite, drizzle): WAL, NORMAL sync, a busy timeout.
    exec(u"PRAGMA journal_mode = WAL"_s);
    exec(u"PRAGMA synchronous = NORMAL"_s);
    if (create) {
        const QString schema = schemaSql(age);
        if (schema.isEmpty()) {
            m_error = u"cannot read the schema file"_s;
            return;
        }
        begin();
        for (const QString &statement : schema.split(u';')) {
            QString s = statement;
            s.remove(QRegularExpression(u"--[^\\n]*"_s));
            if (s.trimmed().isEmpty())
                continue;
            if (!exec(s))
                return;
        }
        exec(u"INSERT INTO migration(id, time_completed) VALUES('20260622202450_simplify_session_input', 1)"_s);
        commit();
    }
    QSqlQuery q(db());
    q.exec(u"PRAGMA table_info(session)"_s);
    while (q.next())
        m_sessionColumns.append(q.value(1).toString());
}

TestDb::~TestDb()
{
    close();
}

QSqlDatabase TestDb::db() const
{
    return QSqlDatabase::database(m_name, false);
}

void TestDb::close()
{
    if (m_name.isEmpty())
        return;
    {
        QSqlDatabase d = db();
        if (d.isOpen())
            d.close();
    }
    QSqlDatabase::removeDatabase(m_name);
    m_name.clear();
}

bool TestDb::exec(const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(db());
    if (!q.prepare(sql)) {
        m_error = q.lastError().text() + u" in: "_s + sql.left(200);
        return false;
    }
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec()) {
        m_error = q.lastError().text() + u" in: "_s + sql.left(200);
        return false;
    }
    return true;
}

QVariant TestDb::value(const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(db());
    q.prepare(sql);
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec() || !q.next())
        return {};
    return q.value(0);
}

bool TestDb::insertProject(const JsonObject &p)
{
    const JsonObject time = p.object(u"time");
    return exec(u"INSERT OR REPLACE INTO project(id, worktree, vcs, name, time_created, time_updated, sandboxes) VALUES(?, ?, ?, ?, ?, ?, ?)"_s,
                {p.string(u"id"), p.string(u"worktree"), nullable(p.value(u"vcs")), nullable(p.value(u"name")),
                 time.integer(u"created"), time.integer(u"updated"),
                 QString::fromUtf8(toJson(p.contains(u"sandboxes") ? p.value(u"sandboxes") : JsonValue(JsonArray()), 0))});
}

bool TestDb::insertSession(const JsonObject &s)
{
    const JsonObject time = s.object(u"time");
    const JsonObject summary = s.object(u"summary");
    QStringList columns{u"id"_s, u"project_id"_s, u"parent_id"_s, u"slug"_s, u"directory"_s, u"title"_s, u"version"_s,
                        u"share_url"_s, u"summary_additions"_s, u"summary_deletions"_s, u"summary_files"_s, u"summary_diffs"_s,
                        u"revert"_s, u"permission"_s, u"time_created"_s, u"time_updated"_s, u"time_compacting"_s, u"time_archived"_s};
    QVariantList values{s.string(u"id"), s.string(u"projectID"), nullable(s.value(u"parentID")), s.string(u"slug"),
                        s.string(u"directory"), s.string(u"title"), s.string(u"version"),
                        nullable(s.object(u"share").value(u"url")), nullable(summary.value(u"additions")),
                        nullable(summary.value(u"deletions")), nullable(summary.value(u"files")), jsonText(summary.value(u"diffs")),
                        jsonText(s.value(u"revert")), jsonText(s.value(u"permission")), time.integer(u"created"),
                        time.integer(u"updated"), nullable(time.value(u"compacting")), nullable(time.value(u"archived"))};
    // The columns of later releases, when the test database has them and the JSON has values.
    const QList<std::pair<QString, QVariant>> later{
        {u"workspace_id"_s, nullable(s.value(u"workspaceID"))}, {u"path"_s, nullable(s.value(u"path"))},
        {u"agent"_s, nullable(s.value(u"agent"))}, {u"model"_s, jsonText(s.value(u"model"))},
        {u"metadata"_s, jsonText(s.value(u"metadata"))}};
    for (const auto &[column, value] : later) {
        if (m_sessionColumns.contains(column) && !value.isNull()) {
            columns.append(column);
            values.append(value);
        }
    }
    if (m_sessionColumns.contains(u"cost"_s) && s.contains(u"cost")) {
        const JsonObject tokens = s.object(u"tokens");
        columns << u"cost"_s << u"tokens_input"_s << u"tokens_output"_s << u"tokens_reasoning"_s << u"tokens_cache_read"_s
                << u"tokens_cache_write"_s;
        values << s.number(u"cost") << tokens.integer(u"input") << tokens.integer(u"output") << tokens.integer(u"reasoning")
               << tokens.object(u"cache").integer(u"read") << tokens.object(u"cache").integer(u"write");
    }
    QStringList marks(columns.size(), u"?"_s);
    return exec(u"INSERT INTO session(%1) VALUES(%2)"_s.arg(columns.join(u", "_s), marks.join(u", "_s)), values);
}

bool TestDb::insertMessage(const JsonObject &m, qint64 updated)
{
    const qint64 created = m.object(u"time").integer(u"created");
    return exec(u"INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES(?, ?, ?, ?, ?) "
                u"ON CONFLICT(id) DO UPDATE SET data = excluded.data, time_updated = excluded.time_updated"_s,
                {m.string(u"id"), m.string(u"sessionID"), created, updated > 0 ? updated : created,
                 dataWithout(m, {u"id"_s, u"sessionID"_s})});
}

bool TestDb::insertPart(const JsonObject &p, qint64 updated)
{
    const qint64 start = p.object(u"time").integer(u"start");
    return exec(u"INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES(?, ?, ?, ?, ?, ?) "
                u"ON CONFLICT(id) DO UPDATE SET data = excluded.data, time_updated = excluded.time_updated"_s,
                {p.string(u"id"), p.string(u"messageID"), p.string(u"sessionID"), start, updated > 0 ? updated : start,
                 dataWithout(p, {u"id"_s, u"sessionID"_s, u"messageID"_s})});
}

bool TestDb::insertSessionMessage(const QString &id, const QString &sessionID, const QString &type, qint64 seq,
                                  const JsonObject &data, qint64 created, qint64 updated)
{
    return exec(
        u"INSERT INTO session_message(id, session_id, type, seq, time_created, time_updated, data) VALUES(?, ?, ?, ?, "
        u"?, ?, ?) "
        u"ON CONFLICT(id) DO UPDATE SET type = excluded.type, data = excluded.data, time_updated = excluded.time_updated"_s,
        {id, sessionID, type, seq, created, updated > 0 ? updated : created, QString::fromUtf8(toJson(data, 0))});
}

bool TestDb::insertMigratedMessage(const JsonObject &message)
{
    const JsonObject time = message.object(u"time");
    return insertMessage(message, time.contains(u"completed") ? time.integer(u"completed") : time.integer(u"created"));
}

bool TestDb::insertMigratedPart(const JsonObject &part)
{
    const JsonObject time = part.object(u"time");
    const qint64 stamp = time.contains(u"end") ? time.integer(u"end") : time.integer(u"start");
    return insertPart(part, stamp == 0 ? 1 : stamp);
}

bool TestDb::loadStorage(const QString &storageDir)
{
    if (!begin())
        return false;
    auto files = [&](const QString &folder) {
        QStringList list;
        QDirIterator it(storageDir + u'/' + folder, {u"*.json"_s}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            list.append(it.next());
        list.sort();
        return list;
    };
    for (const QString &f : files(u"project"_s)) {
        if (auto o = readJson(f); !o || !insertProject(*o))
            return false;
    }
    for (const QString &f : files(u"session"_s)) {
        if (auto o = readJson(f); !o || !insertSession(*o))
            return false;
    }
    for (const QString &f : files(u"message"_s)) {
        if (auto o = readJson(f); !o || !insertMigratedMessage(*o))
            return false;
    }
    for (const QString &f : files(u"part"_s)) {
        if (auto o = readJson(f); !o || !insertMigratedPart(*o))
            return false;
    }
    return commit();
}

JsonValue sortedKeys(const JsonValue &value)
{
    if (value.isArray()) {
        JsonArray out;
        for (const JsonValue &v : value.toArray())
            out.append(sortedKeys(v));
        return out;
    }
    if (!value.isObject())
        return value;
    const JsonObject o = value.toObject();
    QStringList keys = o.keys();
    keys.sort();
    JsonObject out;
    for (const QString &k : std::as_const(keys))
        out.insert(k, sortedKeys(o.value(k)));
    return out;
}

QString firstDifference(const JsonValue &a, const JsonValue &b, const QString &path)
{
    if (a.type() != b.type())
        return path + u": "_s + JsonValue::typeName(a.type()) + u" vs "_s + JsonValue::typeName(b.type());
    if (a.isObject()) {
        const JsonObject x = a.toObject(), y = b.toObject();
        QStringList keys = x.keys();
        for (const QString &k : y.keys()) {
            if (!keys.contains(k))
                keys.append(k);
        }
        for (const QString &k : std::as_const(keys)) {
            if (!x.contains(k))
                return path + u"."_s + k + u": missing on the left"_s;
            if (!y.contains(k))
                return path + u"."_s + k + u": missing on the right"_s;
            if (QString d = firstDifference(x.value(k), y.value(k), path + u"."_s + k); !d.isEmpty())
                return d;
        }
        return {};
    }
    if (a.isArray()) {
        const JsonArray x = a.toArray(), y = b.toArray();
        if (x.size() != y.size())
            return path + u": %1 vs %2 items"_s.arg(x.size()).arg(y.size());
        for (qsizetype i = 0; i < x.size(); ++i) {
            if (QString d = firstDifference(x.at(i), y.at(i), path + u"[%1]"_s.arg(i)); !d.isEmpty())
                return d;
        }
        return {};
    }
    if (!(a == b))
        return path + u": "_s + QString::fromUtf8(toJson(a, 0)).left(80) + u" vs "_s + QString::fromUtf8(toJson(b, 0)).left(80);
    return {};
}

} // namespace weft::test
