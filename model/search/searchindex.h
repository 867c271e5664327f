// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/searchhit.h"
#include "core/types.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QSet>
#include <QSqlDatabase>
#include <QThread>
#include <QWaitCondition>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace weft
{

class SessionService;
class Store;
class ThreadConnections;

/// A full-text index (SQLite FTS5) of every session of every source, kept beside Weft's data
/// (`<weft data dir>/search.db`): message text, reasoning, tool names, inputs, outputs and
/// errors, file names and paths, subtask prompts, message errors, session titles. Chinese,
/// Japanese and Korean text is findable by any substring of two or more characters (and by
/// single characters), see SearchTokenizer.
///
/// The index keeps no copy of the text (a contentless FTS5 table, SQLite 3.43 or newer): the
/// snippets of the hits a search returns are made from the text in the hit's store (addSource()
/// and addStore() say where a source's store is), with the same tokenizer and query. A
/// document is keyed by integers (a source table, a session table) plus its message and part.
///
/// Sources are SessionServices: addSource() brings the index up to date with the source in the
/// background (sessions whose stamp changed are read again, removed ones dropped) and then
/// follows every change the service announces, coalesced and written on the index's own thread.
/// What other processes write reaches the index the same way (SessionService::startWatching()),
/// so live OpenCode sessions are indexed as they stream.
///
/// The synchronous methods (sync, search, ...) may be called from any thread (each thread gets
/// its own connection); a search takes a few milliseconds plus reading its hits' text from
/// their stores, so the window searches off the GUI thread.
///
/// The index is a guest on the user's machine: its thread runs at idle CPU and I/O priority
/// (nice 19, ionice idle on Linux), the background sync waits while pause() reasons are set
/// (a run streams, the user types), it commits in batches of sessions with their stamps (a
/// killed process loses one batch at most, the next start goes on from there), queries see
/// what is indexed so far, tool outputs are indexed capped and once per session, and Limits
/// narrow what is indexed.
class SearchIndex : public QObject
{
    Q_OBJECT

public:
    explicit SearchIndex(QObject *parent = nullptr);
    ~SearchIndex() override;

    /// `<weftDataDir>/search.db`.
    [[nodiscard]] static QString defaultFile(const QString &weftDataDir);
    /// The key of a store's documents in the index: its location (folder or database file).
    [[nodiscard]] static QString sourceKey(const Store &store);

    /// Opens (or creates) the index file. An index of an older layout or made with another
    /// tokenizer is deleted and made again, empty; sync() fills it again. Fails when the
    /// system's SQLite is older than 3.43 (contentless FTS5 tables that can delete rows).
    Result<void> open(const QString &file);
    /// The oldest SQLite the index works with.
    static constexpr int MinimumSqlite = 3043000;
    /// The layout of the index's tables, kept in the index (an index of another is made again).
    static constexpr int SchemaVersion = 3;
    [[nodiscard]] bool isOpen() const { return m_connections != nullptr; }
    [[nodiscard]] QString file() const { return m_file; }
    /// The FTS5 tokenizer in use: "weft" (CJK bigrams), or "trigram" where this build cannot
    /// register Weft's own tokenizer.
    [[nodiscard]] QString tokenizer() const { return m_tokenizer; }

    /// What is indexed (Settings › Search): the next sync drops what the limits exclude.
    using Limits = SearchLimits;
    void setLimits(const Limits &limits);
    [[nodiscard]] Limits limits() const;

    // ---- being a guest

    /// The background sync waits before it lists a source's sessions and before its next batch
    /// while any reason is set (live changes announced meanwhile are written when it goes on). Reasons are names, each set or not ("typing",
    /// "run <session>"): resume() clears the name pause() set.
    void pause(const QString &reason);
    void resume(const QString &reason);
    [[nodiscard]] bool isPaused() const;
    /// Whether the background sync is waiting for resume() right now (for tests).
    [[nodiscard]] bool isWaiting() const { return m_waiting.load(); }
    /// The Linux thread ID of the index's thread (0 before open() or elsewhere), for tests.
    [[nodiscard]] qint64 threadId() const { return m_threadId.load(); }

    /// Sessions done of all in the background sync so far (both 0 before it starts).
    struct Progress {
        int done = 0;
        int total = 0;
    };
    [[nodiscard]] Progress progressNow() const { return {m_done.load(), m_total.load()}; }

    // ---- following sources (background)

    /// Brings the index up to date with @p service's store in the background, then follows
    /// the service's signals. @p source defaults to sourceKey(store).
    void addSource(SessionService *service, const QString &source = {});
    void removeSource(SessionService *service);
    /// Where the snippets of @p source's hits are read from (addSource() does it for a service's
    /// store); hits of a source without a store have no snippet. @p source defaults to
    /// sourceKey(store).
    void addStore(const std::shared_ptr<Store> &store, const QString &source = {});
    /// Empties the index and reads every followed source again, in the background.
    void rebuild();
    /// Brings the index up to date with every followed source again, in the background (after
    /// setLimits()).
    void refresh();
    /// Waits until the background work queued so far (including pending coalesced changes) is
    /// written. For tests and the command line; returns false on timeout.
    bool waitForIdle(int timeoutMs = 30000);

    // ---- synchronous

    struct SyncStats {
        int sessions = 0;  ///< sessions in the source
        int indexed = 0;   ///< sessions read again
        int removed = 0;   ///< sessions dropped from the index
        qint64 documents = 0;
        bool stopped = false; ///< @p progress said stop: the batches written so far are kept
    };
    /// Brings the index up to date with @p store: sessions whose stamp changed (for OpenCode's
    /// database the newest time_updated of the session's rows, for a JSON store the session's
    /// time.updated and its message folder's time) are read again, sessions that are gone are
    /// dropped. With @p rebuild every session is read again. Sessions are written in batches,
    /// each with its stamps in one transaction; @p progress is called before each batch with
    /// the sessions done and to do, and after the last, and stops the sync when it returns false.
    Result<SyncStats> sync(Store &store, const QString &source = {}, bool rebuild = false,
                           const std::function<bool(int, int)> &progress = {});
    /// How far the index is with @p store: sessions up to date of the sessions the limits admit.
    struct Status {
        int sessions = 0;
        int indexed = 0;
        qint64 documents = 0;
        qint64 bytes = 0; ///< the index file and its write-ahead log
    };
    [[nodiscard]] Result<Status> status(Store &store, const QString &source = {});
    /// Replaces the documents of one session.
    Result<void> indexSession(const QString &source, const Session &session, const QList<MessageWithParts> &messages, qint64 stamp = 0);
    Result<void> removeSession(const QString &source, const QString &sessionID);
    /// Removes every document of @p source (every source when empty).
    Result<void> clear(const QString &source = {});
    /// Merges the index's b-trees (faster queries after many changes) and checkpoints the
    /// write-ahead log into the file. Takes a while on a big index; run it after a rebuild.
    Result<void> optimize();

    /// Searches. @p query is what a user types: words (all must match), "quoted phrases",
    /// word* prefixes, -word exclusions and OR. An empty query finds nothing. Reads the text
    /// of the hits returned from their stores for the snippets: call it off the GUI thread.
    [[nodiscard]] Result<QList<SearchHit>> search(const QString &query, const SearchOptions &options = {});
    /// Every hit in one session, in timeline order (for next/previous in the session view).
    [[nodiscard]] Result<QList<SearchHit>> searchSession(const QString &query, const QString &source, const QString &sessionID);
    /// Number of indexed documents (of @p source, or all).
    [[nodiscard]] qint64 documentCount(const QString &source = {});

    /// The documents a message and its parts contribute (text capped at 64 KiB per document;
    /// of a tool output its first ToolOutputHead and last ToolOutputTail characters).
    /// @p seenOutputs (hashes of tool outputs already indexed in the session) makes an output
    /// seen before count once; @p toolOutputs false leaves outputs out.
    [[nodiscard]] static QList<SearchDocument> documents(const Message &message, const QList<Part> &parts,
                                                         QSet<size_t> *seenOutputs = nullptr, bool toolOutputs = true);
    [[nodiscard]] static std::optional<SearchDocument> document(const Part &part, qint64 time,
                                                                QSet<size_t> *seenOutputs = nullptr, bool toolOutputs = true);
    /// What of a tool output is indexed: its start (the command's first lines, a file's head)
    /// and its end (a test run's summary, the error); the middle of a long output is left out.
    static constexpr qsizetype ToolOutputHead = 1024;
    static constexpr qsizetype ToolOutputTail = 512;
    /// The FTS5 expression for a user's query, or empty when it has no words.
    [[nodiscard]] static QString ftsQuery(const QString &query);
    /// The index keeps no positions (`detail=none`): a term of several tokens (a "quoted
    /// phrase", a CJK word of three or more characters, a-hyphenated-word) is asked of it as an
    /// AND of its tokens (@p split gives a term's tokens), an exclusion of several tokens not
    /// at all; @p inexact is set when so, and the candidates are checked against their text.
    [[nodiscard]] static QString ftsQuery(const QString &query, const std::function<QStringList(const QString &)> &split,
                                          bool *inexact);
    /// The rank order ranks the newest RankWindow matches (by document row: the last indexed
    /// first) by bm25, then the next RankWindow, and so on: FTS5 scores a window, not every match.
    static constexpr int RankWindow = 1000;

Q_SIGNALS:
    /// Background work wrote changes (sync of a source, coalesced live changes).
    void updated();
    /// Progress of a background sync or rebuild: sessions done of total.
    void progress(int done, int total);
    void problemFound(const QString &location, const QString &reason);

private:
    class Worker;
    friend class Worker;
    struct Plan {
        QList<Session> sessions; ///< admitted by the limits
        QHash<QString, qint64> stamps;
        QList<Session> todo;
        QStringList gone;
        bool limitsChanged = false;
    };
    Result<Plan> plan(QSqlDatabase &db, Store &store, const QString &source, bool rebuild);
    /// The worker's progress: records it, and waits while paused; false when the index closes.
    bool backgroundProgress(int done, int total);
    /// Waits while paused; false when the index closes or a source's removal interrupts.
    bool waitWhilePaused();
    bool isClosing() const;
    Result<QSqlDatabase> connection();
    /// Whether the open file is an index of another layout or tokenizer.
    bool isStale(QSqlDatabase &db) const;
    Result<void> createSchema(QSqlDatabase &db);
    Result<void> writeSession(QSqlDatabase &db, const QString &source, const Session &session,
                              const QList<MessageWithParts> &messages, qint64 stamp, bool toolOutputs);
    /// The row of @p source in the source table (-1 when it has none and @p create is false).
    Result<qint64> sourceRow(QSqlDatabase &db, const QString &source, bool create);
    /// The row of a session in the session table (-1 when it has none and @p create is false).
    Result<qint64> sessionRow(QSqlDatabase &db, const QString &source, const QString &sessionID, bool create);
    /// Removes a session's documents, and with @p row its row too.
    Result<void> deleteSessionDocs(QSqlDatabase &db, const QString &source, const QString &sessionID, bool row = false);
    /// Fills the snippets and highlights of @p hits from the text in their stores.
    /// Returns, for each hit, whether its text matched @p expression (a hit without text counts as matched).
    QList<bool> makeSnippets(QSqlDatabase &db, const QString &expression, const QString &query, QList<SearchHit> &hits);
    Result<void> upsertDocument(QSqlDatabase &db, const QString &source, const QString &sessionID,
                                const SearchDocument &doc, const QString &title = {});
    Result<void> removeDocument(QSqlDatabase &db, const QString &source, const QString &sessionID,
                                const QString &messageID, const QString &partID);

    QString m_file;
    QString m_tokenizer;
    std::unique_ptr<ThreadConnections> m_connections;
    QThread m_thread;
    Worker *m_worker = nullptr;

    mutable QMutex m_mutex; // guards the members below
    QHash<QString, std::shared_ptr<Store>> m_stores;
    QHash<QString, qint64> m_sourceRows;
    QWaitCondition m_wake;
    QSet<QString> m_pauses;
    bool m_closing = false;
    int m_interrupts = 0; // removeSource() calls waiting for the worker
    Limits m_limits;
    std::atomic<bool> m_waiting = false;
    std::atomic<qint64> m_threadId = 0;
    std::atomic<int> m_done = 0;
    std::atomic<int> m_total = 0;
};

/// Next and previous over the hits in one session (Ctrl+F in the timeline), wrapping around.
class SearchNavigator
{
public:
    SearchNavigator() = default;
    explicit SearchNavigator(QList<SearchHit> hits) : m_hits(std::move(hits)) { }

    [[nodiscard]] int count() const { return int(m_hits.size()); }
    /// The current hit's position, -1 before the first next()/previous()/seek().
    [[nodiscard]] int index() const { return m_index; }
    [[nodiscard]] const QList<SearchHit> &hits() const { return m_hits; }
    [[nodiscard]] const SearchHit *current() const;
    const SearchHit *next();
    const SearchHit *previous();
    /// Moves to the first hit in or after @p messageID (by timeline order of the hits), for
    /// "find from here"; @p messageTime orders messages not among the hits.
    const SearchHit *seek(const QString &messageID, qint64 messageTime);

private:
    QList<SearchHit> m_hits;
    int m_index = -1;
};

} // namespace weft
