// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Test databases in OpenCode's SQLite schema (tests/data/opencode-schema, copied from the
// schema of a real OpenCode 1.18.34 database), written the way OpenCode writes them: WAL mode,
// one connection, short transactions.

#include "core/json.h"

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QVariantList>

namespace weft::test
{

/// The OpenCode release whose schema a test database has: later releases added session
/// columns (workspace_id 1.2.16, path 1.14.29, cost and tokens 1.14.49, metadata 1.15.13).
enum class SchemaAge { V1_2, V1_2_16, V1_14_29, V1_14_49, V1_15_13 };

[[nodiscard]] QString ageName(SchemaAge age);
/// The session columns that a database of @p age does not have.
[[nodiscard]] QStringList missingSessionColumns(SchemaAge age);
/// The 1.18.34 schema without the columns of releases after @p age.
[[nodiscard]] QString schemaSql(SchemaAge age = SchemaAge::V1_15_13);

/// Real OpenCode data of the SQLite era (tests/data/opencode-<version>): "1.18.34" (the
/// current schema) or "1.2.27" (an early one: no path, cost, tokens, agent, model, metadata).
[[nodiscard]] QString realFixtureDir(const QString &version = QStringLiteral("1.18.34"));
/// The versions of realFixtureDir().
[[nodiscard]] QStringList realFixtureVersions();

/// A writer of a test database, with its own connection in the thread that made it.
class TestDb
{
public:
    /// Creates @p file from the schema (unless @p create is false: then it opens @p file).
    explicit TestDb(const QString &file, SchemaAge age = SchemaAge::V1_15_13, bool create = true);
    ~TestDb();
    TestDb(const TestDb &) = delete;
    TestDb &operator=(const TestDb &) = delete;

    [[nodiscard]] bool isOk() const { return m_error.isEmpty(); }
    [[nodiscard]] QString error() const { return m_error; }
    [[nodiscard]] QSqlDatabase db() const;

    /// Runs @p sql with @p binds; false (and error()) on failure.
    bool exec(const QString &sql, const QVariantList &binds = {});
    /// Runs @p sql and returns the first column of the first row.
    QVariant value(const QString &sql, const QVariantList &binds = {});
    bool begin() { return exec(QStringLiteral("BEGIN IMMEDIATE")); }
    bool commit() { return exec(QStringLiteral("COMMIT")); }

    /// Rows from the JSON of the file era, as OpenCode's JSON-to-SQLite migration stored them.
    bool insertProject(const JsonObject &project);
    bool insertSession(const JsonObject &session);
    bool insertMessage(const JsonObject &message, qint64 updated = 0);
    bool insertPart(const JsonObject &part, qint64 updated = 0);
    /// A message or part of the file era stamped as OpenCode's migration stamps it: a message
    /// with its completion (its last write) or creation time, a part with its end or start time.
    bool insertMigratedMessage(const JsonObject &message);
    bool insertMigratedPart(const JsonObject &part);
    /// A row of OpenCode's V2 `session_message` table (1.18 and later): @p data is the row's
    /// JSON (`time`, `text`, `content`, `agent`, `model`, ...). Inserted, or its type, data and
    /// time_updated updated when the row exists, as OpenCode does while an answer streams.
    bool insertSessionMessage(const QString &id, const QString &sessionID, const QString &type, qint64 seq,
                              const JsonObject &data, qint64 created, qint64 updated = 0);
    /// Every project, session, message and part of a JSON `storage/` folder.
    bool loadStorage(const QString &storageDir);

    void close();

private:
    QString m_name;
    QString m_error;
    QStringList m_sessionColumns;
};

/// A JSON value with every object's keys sorted, for key-order-insensitive comparisons.
[[nodiscard]] JsonValue sortedKeys(const JsonValue &value);
/// The first difference between two JSON values ("" when equal), key order aside.
[[nodiscard]] QString firstDifference(const JsonValue &a, const JsonValue &b, const QString &path = QStringLiteral("$"));

} // namespace weft::test
