// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/store.h"

#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QVariantList>

#include <array>
#include <functional>
#include <memory>

class QSqlError;
class QSqlQuery;
class QSqlRecord;

namespace weft
{

namespace SessionMessageV2
{
struct Row;
}

class ThreadConnections;

/// What an OpenCode database holds: the columns found in its tables and the newest migration
/// applied. OpenCode added columns over time (workspace_id 1.2.16, path 1.14.29, cost/tokens
/// 1.14.49, metadata 1.15.13); Weft reads what exists, by name.
struct OpencodeDbSchema {
    QSet<QString> session;
    /// The columns of OpenCode 2.0.x's `session_v2` (empty without that table).
    QSet<QString> sessionV2;
    /// The columns of OpenCode's event log (`event`, 1.18 and later).
    QSet<QString> event;
    QSet<QString> message;
    QSet<QString> part;
    QSet<QString> project;
    QStringList tables;
    /// The newest migration applied (`<timestamp>_<name>`, from the `migration` table, or from
    /// drizzle's `__drizzle_migrations` in OpenCode 1.2), empty when none.
    QString latestMigration;

    [[nodiscard]] bool has(QStringView table, const QString &column) const;
    /// The oldest OpenCode release whose schema has every optional column found: "1.2",
    /// "1.2.16", "1.14.29", "1.14.49" or "1.15.13".
    [[nodiscard]] QString age() const;
    /// True when the newest migration is newer than the newest one Weft was checked against
    /// (OpenCode 1.18.34). Such a database still opens when its tables have what Weft reads.
    [[nodiscard]] bool isNewerThanKnown() const;
};

/// The SQLite database of OpenCode 1.2 and later (`<data>/opencode.db`, WAL mode), read-only.
///
/// Never writes and never holds a lock: every connection is opened with SQLITE_OPEN_READONLY
/// and `query_only`, reads run in short read transactions, a busy database is waited for
/// (busy timeout) and retried. Connections are per thread (a QSqlDatabase belongs to the thread
/// that opened it): each thread that reads gets its own, closed when that thread finishes or
/// when the store is destroyed.
///
/// Rows map back to OpenCode's JSON: the session row's flattened columns become Session.Info;
/// `message.data` and `part.data` plus the ID columns give the message and part JSON of the file
/// era (`id`, `sessionID`, `messageID` first, then the stored keys in their order). A row that
/// cannot be read is reported as a problem (location `<db>#<table>/<id>`) and skipped.
///
/// Sessions prompted through OpenCode's V2 API (1.18 and later) keep their conversation as
/// `session_message` rows instead: every message read covers those rows too, each mapped to the
/// V1 message and parts OpenCode writes for a V1 prompt (SessionMessageV2::toV1).
class OpencodeDbStore : public Store
{
public:
    struct Options {
        /// How long a read waits for a lock that OpenCode holds (SQLITE_BUSY), per attempt.
        int busyTimeoutMs = 1000;
        /// Read attempts when the database stays busy.
        int attempts = 3;
    };

    /// Opens @p databaseFile after checking that it is an OpenCode database Weft can read. A file
    /// that is empty, not SQLite, damaged, truncated, locked or of an unknown schema gives an
    /// error saying which.
    [[nodiscard]] static Result<std::shared_ptr<OpencodeDbStore>> open(const QString &databaseFile, const Options &options);
    [[nodiscard]] static Result<std::shared_ptr<OpencodeDbStore>> open(const QString &databaseFile);
    ~OpencodeDbStore() override;

    /// A root session as `weft session list` prints it: its columns' UTF-8 as stored.
    struct ListedSession {
        QByteArray id;
        QByteArray title;
        QByteArray projectID;
        QByteArray directory;
        qint64 created = 0;
        qint64 updated = 0;
        bool notMigrated = false;
    };
    /// The root sessions of sessions() in SessionService::listRoots()'s order (newest first),
    /// read for a listing: only the columns it prints, as bytes, without a Session value each.
    /// A row sessions() would check further (a JSON column, an unexpected ID) is read as
    /// sessions() reads it, so the same rows are left out and the same problems reported. Empty
    /// when the read failed (reported as sessions() reports it).
    [[nodiscard]] QList<ListedSession> rootListing();

    /// The database file.
    [[nodiscard]] QString databaseFile() const { return m_file; }
    /// The OpenCode data dir that holds the database.
    [[nodiscard]] QString dataDir() const;
    [[nodiscard]] const OpencodeDbSchema &schema() const { return m_schema; }

    QString location() const override { return m_file; }
    StoreCapabilities capabilities() const override { return StoreCapability::Live | StoreCapability::Importable; }
    QList<Project> projects() override;
    QList<Session> sessions() override;
    QList<Session> listedSessions() override;
    std::optional<QList<Session>> newestListedSessions(int roots) override;
    std::optional<Session> session(const QString &sessionID) override;
    QList<Message> messages(const QString &sessionID) override;
    /// The `message` rows' IDs without their data (a V1 session's), and a V2 session's.
    QStringList messageIDs(const QString &sessionID) override;
    QList<Message> messagesByID(const QString &sessionID, const QStringList &messageIDs) override;
    QList<MessageWithParts> withParts(const QString &sessionID, const QList<Message> &infos) override;
    NewestMessages newestMessages(const QString &sessionID, qsizetype count) override;
    QList<Part> parts(const QString &sessionID, const QString &messageID) override;
    std::optional<Message> message(const QString &sessionID, const QString &messageID) override;
    /// `<data>/storage/session_diff/<id>.json`, which OpenCode keeps as a file in the SQLite era.
    QList<FileDiff> sessionDiff(const QString &sessionID) override;
    /// Messages and parts in one read transaction, through streamMessages().
    QList<MessageWithParts> messagesWithParts(const QString &sessionID) override;
    /// Each message mapped as soon as its part rows are read, and taken while later ones are
    /// still being read (streamMessages()).
    void mapMessages(const QString &sessionID, const MessageMapper &map,
                     const std::function<void(QByteArray &&bytes)> &take) override;

    /// Every write fails: OpenCode's database belongs to OpenCode. Sessions are copied into
    /// Weft's own store to be changed (DbImport).
    Result<void> writeProject(const Project &project) override;
    Result<void> writeSession(const Session &session) override;
    Result<void> writeMessage(const Message &message) override;
    Result<void> writePart(const Part &part) override;
    Result<void> writeSessionDiff(const QString &sessionID, const QList<FileDiff> &diffs) override;
    Result<void> removeSession(const Session &session) override;
    Result<void> removeMessage(const QString &sessionID, const QString &messageID) override;
    Result<void> removePart(const QString &sessionID, const QString &messageID, const QString &partID) override;

    /// For each session, the newest `time_updated` of the session row, its messages and its
    /// parts (every session of the database, whatever @p sessions holds).
    Result<QHash<QString, qint64>> changeStamps(const QList<Session> &sessions) override;
    /// An OpencodeDbWatcher: follows every commit to the database.
    StoreWatcher *createWatcher(QObject *parent) override;

    // ---- for the follower (OpencodeDbWatcher) and tests

    /// Runs @p reader with this thread's connection inside one read transaction. Retries when the
    /// database is busy; a failure is returned with a message for the user.
    Result<void> read(const std::function<Result<void>(QSqlDatabase &db)> &reader);
    /// The session columns to select from sessionSource(), by the names this database has.
    [[nodiscard]] QString sessionColumns() const { return m_sessionColumns; }
    /// Where sessions are selected from (`SELECT ... FROM <this>`): the `session` table, or in an
    /// OpenCode 2.0.x database (`session_v2`), the `session_v2` rows and then the legacy
    /// `session` rows whose ID is not in `session_v2` (the V1 sessions that OpenCode's one-time
    /// V1→V2 migration skipped), with `weft_not_migrated` 1 on those. Either way with the row's
    /// `weft_rowid` (unique only within its table) and the columns of sessionColumns().
    [[nodiscard]] QString sessionSource() const { return m_sessionSource; }
    /// True for an OpenCode 2.0.x database: sessions live in `session_v2`.
    [[nodiscard]] bool hasSessionV2() const { return !m_schema.sessionV2.isEmpty(); }
    /// OpenCode 2's one-time V1→V2 migration state (`kv` key `migration.v1-v2`, `{phase,
    /// cursor}`): its phase ("completed", "sessions"), empty when it has not run or the database
    /// has no `kv`.
    [[nodiscard]] QString v1MigrationPhase() const { return m_v1MigrationPhase; }
    /// Where each column of a query's result is, by name (-1: absent). Found once per statement:
    /// QSqlRecord::indexOf compares names without case, and looking every column up that way on
    /// every row cost more than mapping the row.
    class Columns
    {
    public:
        Columns() = default;
        explicit Columns(const QSqlRecord &record);
        [[nodiscard]] int indexOf(const QString &name) const { return m_index.value(name, -1); }
        [[nodiscard]] QString nameAt(int i) const { return m_names.value(i); }

    private:
        QHash<QString, int> m_index;
        QStringList m_names;
    };
    /// Maps the current row of a query over sessionColumns() (plus any other columns).
    [[nodiscard]] std::optional<Session> sessionFromRow(const QSqlQuery &query);
    /// The sessions of the rows @p sql selects; none when the read failed (it is reported).
    [[nodiscard]] std::optional<QList<Session>> sessionsOf(const QString &sql, const QVariantList &bound = {});
    [[nodiscard]] std::optional<Session> sessionFromRow(const QSqlQuery &query, const Columns &columns);
    /// Maps a row with the columns `id, session_id, data` (in any position, by name). `data` may
    /// be selected as text or, cheaper, as `CAST(data AS BLOB) AS data` (its UTF-8 bytes as
    /// stored, without QSQLITE's conversion to UTF-16 and back).
    [[nodiscard]] std::optional<Message> messageFromRow(const QSqlQuery &query);
    [[nodiscard]] std::optional<Message> messageFromRow(const QSqlQuery &query, const Columns &columns);
    /// Maps a row with the columns `id, message_id, session_id, data` (`data` as for messages).
    [[nodiscard]] std::optional<Part> partFromRow(const QSqlQuery &query);
    [[nodiscard]] std::optional<Part> partFromRow(const QSqlQuery &query, const Columns &columns);
    /// The user-readable text of a failed query (locked, damaged, ...).
    [[nodiscard]] static QString describe(const QSqlError &error);
    /// The error of a failed query inside read(), for the reader to return: read() retries a
    /// busy database and reconnects when the files changed under the connection.
    [[nodiscard]] Error failed(const QSqlQuery &query) const;
    [[nodiscard]] Error failed(const QSqlError &error) const;
    /// Inside read(): runs @p sql with @p bindings (in order, for its `?` placeholders) and calls
    /// @p row on every result row. A statement or a step that fails is failed()'s error.
    Result<void> forEachRow(QSqlDatabase &db, const QString &sql, const QVariantList &bindings,
                            const std::function<void(const QSqlQuery &row)> &row) const;
    /// A result row of forEachRawRow(): its columns' bytes, valid until the next row.
    struct RawColumns {
        static constexpr int Max = 10;
        std::array<QByteArrayView, Max> at;
    };
    /// forEachRow() for the reads of whole sessions, with each column's bytes as SQLite holds
    /// them (text as UTF-8) and no more than RawColumns::Max columns. Where Weft is built with
    /// SQLite's C API (the library Qt's driver uses), it steps the statement on Qt's connection
    /// itself: Qt SQL makes a QVariant of every value, which took two thirds of a row's time.
    Result<void> forEachRawRow(QSqlDatabase &db, const QString &sql, const QStringList &bindings,
                               const std::function<void(const RawColumns &row)> &row) const;
    /// True when the database has OpenCode's V2 `session_message` table (with the columns Weft
    /// reads).
    [[nodiscard]] bool hasV2() const { return m_hasV2; }
    /// Inside read(): the `session_message` rows @p ids as V1 messages with parts, each mapped
    /// with its context from the neighbouring rows of its session (as every read maps them), in
    /// the order of @p ids. Rows that are gone or become no message are left out.
    Result<void> readV2Rows(QSqlDatabase &db, const QStringList &ids, QList<MessageWithParts> &out);
    /// Closes the connection of the calling thread (it is reopened on the next read).
    void closeThreadConnection();

    /// The newest migration Weft was checked against.
    static constexpr QStringView KnownLatestMigration = u"20260622202450_simplify_session_input";

private:
    OpencodeDbStore(const QString &file, const Options &options);
    Result<QSqlDatabase> connection();
    Result<void> inspect();
    Result<void> notWritable() const;
    /// Records the failure of a read (r) as a problem of the database, unless the read was given
    /// up because the application closes down.
    void reportReadFailure(const Result<void> &r);
    /// The mappers of message and part rows, from the values of their columns (`data` as UTF-8).
    /// Safe to call from several threads at once.
    std::optional<Message> messageFromValues(const QString &id, const QString &sessionID, const QByteArray &data);
    std::optional<Part> partFromValues(const QString &id, const QString &sessionID, const QString &messageID,
                                       const QByteArray &data);
    /// Inside read(): the session's messages with their parts, in order, each made into an Out
    /// by @p map on the thread pool as soon as its last part row is read, and handed to @p take in
    /// order while later rows are still being read: what messagesWithParts() and mapMessages()
    /// are made of.
    template<typename Out>
    Result<void> streamMessages(QSqlDatabase &db, const QString &sessionID,
                                const std::function<Out(MessageWithParts &&)> &map, const std::function<void(Out &&)> &take);
    std::optional<JsonValue> jsonColumn(const QSqlQuery &query, int column, const QString &location,
                                        const QString &columnName = {});
    /// Inside read(): the session_message rows of @p sessionID in `seq` order, with their ID,
    /// type and seq alone (no data).
    Result<void> readV2Keys(QSqlDatabase &db, const QString &sessionID, QList<SessionMessageV2::Row> &rows);
    /// Inside read(): when @p sessionID has no `session_message` rows, the rows rebuilt from its
    /// events in OpenCode 2's `event` table (SessionEventLog), with their data; none without
    /// that table or such events.
    Result<void> readEventRows(QSqlDatabase &db, const QString &sessionID, QList<SessionMessageV2::Row> &rows);
    /// The `path` (`{cwd, root}`) of a V2 session's assistant messages.
    Result<void> readV2Path(QSqlDatabase &db, const QString &sessionID, JsonObject &path);
    /// Inside read(): the session_message rows of @p sessionID as V1 messages with parts, in
    /// `seq` order (appended to @p out); with @p only, just the rows of those IDs, and only their
    /// data (and their neighbours') is read. Does nothing without that table.
    Result<void> readV2Session(QSqlDatabase &db, const QString &sessionID, QList<MessageWithParts> &out,
                               const QSet<QString> *only = nullptr);
    /// readV2Session() with @p only, on the session's rows @p keys as readV2Keys() gives them (their
    /// data is read into them).
    Result<void> readV2Selection(QSqlDatabase &db, const QString &sessionID, QList<SessionMessageV2::Row> &keys,
                                 const QSet<QString> &only, QList<MessageWithParts> &out);
    /// Maps @p rows (a session's, in `seq` order; with @p only, just those IDs) as readV2Session()
    /// does, reporting the rows that cannot be mapped.
    Result<void> mapV2(QSqlDatabase &db, const QString &sessionID, const QList<SessionMessageV2::Row> &rows,
                       const QSet<QString> *only, QList<MessageWithParts> &out);
    /// Inside read(): the IDs of @p sessionID's messages, its V1 rows' first (the first
    /// @p v1Count), then those of its V2 rows that become a message; and the V2 rows' keys
    /// (readV2Keys()).
    Result<void> readMessageIDs(QSqlDatabase &db, const QString &sessionID, QStringList &ids, qsizetype &v1Count,
                                QList<SessionMessageV2::Row> &keys);
    /// Inside read(): the session ID to read @p sessionID's V1 `message` rows by: @p sessionID,
    /// or an ID no row has when they are the legacy copy of a migrated session (OpenCode 2 copied
    /// them into `session_v2` and `session_message`, whose rows are read instead).
    Result<QString> v1Key(QSqlDatabase &db, const QString &sessionID);
    /// Inside read(): the V1 message rows of @p ids in @p sessionID (appended to @p out, in the
    /// order of @p ids); the IDs of no such row are added to @p missing.
    Result<void> readV1Messages(QSqlDatabase &db, const QString &sessionID, const QStringList &ids, QList<Message> &out,
                                QSet<QString> *missing);
    /// Inside read(): the V1 part rows of @p message, appended to its parts.
    Result<void> readV1Parts(QSqlDatabase &db, MessageWithParts &message);
    /// readV2Session()'s messages without their parts (appended to @p out).
    Result<void> readV2Infos(QSqlDatabase &db, const QString &sessionID, QList<Message> &out,
                             const QSet<QString> *only = nullptr);

    QString m_file;
    Options m_options;
    OpencodeDbSchema m_schema;
    QString m_sessionColumns;
    QString m_sessionSource;
    QString m_v1MigrationPhase;
    /// The database has OpenCode's V2 `session_message` table (with the columns Weft reads).
    bool m_hasV2 = false;
    std::unique_ptr<ThreadConnections> m_connections;
};

/// Converts the session `permission` rules of OpenCode's V2 shape (`{action, resource, effect}`)
/// to the Session.Info shape (`{permission, pattern, action}`); rules already in that shape are
/// kept.
[[nodiscard]] JsonValue permissionRulesV1(const JsonValue &rules);

} // namespace weft
