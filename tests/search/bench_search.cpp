// SPDX-License-Identifier: GPL-3.0-or-later
// Search benchmark (not a CTest test): indexes 5,000 sessions with 300,000 parts of generated
// text (English-like words, Japanese and Chinese phrases, tool calls with outputs), then times
// queries. Prints numbers only, among them the index's size over the text it covers and the CPU
// time it took to build (getrusage).
//
//   bench_search [SESSIONS [PARTS_PER_SESSION [INDEX_FILE]]]
//   bench_search --store DATA_DIR [INDEX_FILE]   (index a generated store or opencode.db as the
//       window does, then time queries whose snippets are read from the store)

#include "core/identifier.h"
#include "opencodedb/opencodedatadir.h"
#include "search/searchindex.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <memory>

#include <sys/resource.h>
#include <time.h>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{

void print(const QString &line)
{
    std::printf("%s\n", line.toUtf8().constData());
    std::fflush(stdout);
}

class Text
{
public:
    explicit Text(quint32 seed)
        : m_random(seed)
    {
        const QStringList common{u"the"_s, u"build"_s, u"failed"_s, u"test"_s, u"file"_s, u"function"_s, u"error"_s,
                                 u"configuration"_s, u"memory"_s, u"leak"_s, u"serializer"_s, u"parser"_s, u"thread"_s,
                                 u"widget"_s, u"model"_s, u"session"_s, u"compaction"_s, u"database"_s, u"query"_s};
        m_words = common;
        static const char16_t consonants[] = u"bcdfghjklmnpqrstvwxz";
        static const char16_t vowels[] = u"aeiouy";
        while (m_words.size() < 20000) {
            QString w;
            const int syllables = 1 + int(m_random.bounded(4));
            for (int s = 0; s < syllables; ++s) {
                w += QChar(consonants[m_random.bounded(20)]);
                w += QChar(vowels[m_random.bounded(6)]);
            }
            m_words.append(w);
        }
        m_cjk = QStringList{u"全文検索のテストです"_s, u"数据库已经准备好了"_s, u"ファイルを保存しました"_s,
                            u"编译失败，请检查配置"_s, u"メモリリークを修正"_s, u"搜索结果按相关性排序"_s};
    }

    /// A word, the first ones far more often than the rest (roughly Zipf).
    QString word()
    {
        const double r = m_random.generateDouble();
        return m_words.at(qMin<qsizetype>(m_words.size() - 1, qsizetype(double(m_words.size()) * r * r * r)));
    }

    QString sentence(int words)
    {
        QStringList out;
        for (int i = 0; i < words; ++i)
            out.append(word());
        if (m_random.bounded(10) == 0)
            out.append(m_cjk.at(m_random.bounded(int(m_cjk.size()))));
        return out.join(u' ') + u'.';
    }

    int bounded(int n) { return int(m_random.bounded(n)); }
    /// A word of the long tail: in a few dozen documents.
    QString rareWord() const { return m_words.at(2000); }

private:
    QRandomGenerator m_random;
    QStringList m_words;
    QStringList m_cjk;
};

/// CPU seconds (user and system) the process has used so far, all threads.
double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// UTF-8 bytes of the text a session's index documents cover: titles, message text and
/// reasoning, tool inputs, outputs and errors (whole, before capping).
qint64 sourceBytes(const QList<MessageWithParts> &messages)
{
    qint64 bytes = 0;
    for (const MessageWithParts &m : messages) {
        for (const Part &p : m.parts) {
            bytes += p.text().toUtf8().size();
            if (p.type() == PartType::Tool) {
                const ToolState state = p.state();
                bytes += state.output().toUtf8().size() + state.errorText().toUtf8().size() + toJson(state.input(), 0).size();
            }
        }
    }
    return bytes;
}

void printSizes(qint64 indexBytes, qint64 textBytes)
{
    std::printf("text_bytes: %lld\nindex_bytes: %lld\nindex_ratio: %.3f\n", static_cast<long long>(textBytes),
                static_cast<long long>(indexBytes), textBytes > 0 ? double(indexBytes) / double(textBytes) : 0.0);
}

qint64 median(QList<qint64> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? -1 : values.at(values.size() / 2);
}

/// CPU time of the calling thread, in microseconds: on a loaded machine a query's wall time
/// is mostly the time it waited for a core.
qint64 threadCpuUs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

/// Runs each query 7 times as the search panel asks it (the first page of 50 hits, with their
/// snippets) and prints the medians, wall and CPU.
void timeQueries(SearchIndex &index, const QStringList &queries, const QString &label = u"query"_s)
{
    QList<qint64> all, allCpu;
    for (const QString &q : queries) {
        QList<qint64> runs, cpuRuns;
        qsizetype found = 0;
        for (int i = 0; i < 7; ++i) {
            QElapsedTimer t;
            t.start();
            const qint64 cpu = threadCpuUs();
            const Result<QList<SearchHit>> hits = index.search(q);
            cpuRuns.append(threadCpuUs() - cpu);
            runs.append(t.nsecsElapsed() / 1000);
            found = hits ? hits->size() : -1;
        }
        all += runs;
        allCpu += cpuRuns;
        print(u"%1_us %2 (%3 hits): %4"_s.arg(label, q).arg(found).arg(median(runs)));
        print(u"%1_cpu_us %2: %3"_s.arg(label, q).arg(median(cpuRuns)));
    }
    print(u"median_%1_ms: %2"_s.arg(label).arg(double(median(all)) / 1000.0, 0, 'f', 2));
    print(u"median_%1_cpu_ms: %2"_s.arg(label).arg(double(median(allCpu)) / 1000.0, 0, 'f', 2));
}

/// Where the bytes of the index file went: its tables and indexes (SQLite's dbstat).
void printBytesByTable(const QString &file)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"dbstat"_s);
        db.setDatabaseName(file);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY"_s);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(u"SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"_s)) {
                while (q.next())
                    print(u"bytes %1: %2"_s.arg(q.value(0).toString()).arg(q.value(1).toLongLong()));
            }
        }
    }
    QSqlDatabase::removeDatabase(u"dbstat"_s);
}

/// Indexes a whole data dir as the window's background sync does, then prints its figures.
int indexStore(const QString &dataDir, const QString &indexFile)
{
    Result<DataDir::Opened> opened = OpencodeDataDir::open(dataDir, false);
    if (!opened) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().toString()));
        return 1;
    }
    QTemporaryDir dir;
    const QString file = indexFile.isEmpty() ? dir.filePath(u"search.db"_s) : indexFile;
    auto index = std::make_unique<SearchIndex>();
    if (Result<void> r = index->open(file); !r) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
        return 1;
    }
    Store &store = *opened->store;
    index->addStore(opened->store);
    QElapsedTimer timer;
    timer.start();
    const double cpu = cpuSeconds();
    const Result<SearchIndex::SyncStats> stats = index->sync(store, {}, false, [](int done, int total) {
        if (done % 640 == 0)
            std::fprintf(stderr, "indexed %d of %d sessions\n", done, total);
        return true;
    });
    if (!stats) {
        std::fprintf(stderr, "%s\n", qPrintable(stats.error().toString()));
        return 1;
    }
    const double cpuUsed = cpuSeconds() - cpu;
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    // Queries as the search panel asks them: snippets read from the store.
    const QStringList queries{u"error"_s, u"memory leak"_s, u"\"build failed\""_s, u"serial*"_s, u"timeline delegate"_s,
                              u"rebase -merge"_s, u"検索"_s, u"数据库"_s};
    timeQueries(*index, queries);
    {
        // The index's part alone: the same queries on an index that knows no store (no snippets).
        SearchIndex bare;
        if (bare.open(file))
            timeQueries(bare, queries, u"index_query"_s);
    }
    // Its size at rest: closed, the write-ahead log checkpointed into the file.
    index.reset();
    const qint64 size = QFileInfo(file).size() + QFileInfo(file + u"-wal"_s).size();
    printBytesByTable(file);
    qint64 text = 0;
    for (const Session &s : store.sessions())
        text += s.title().toUtf8().size() + sourceBytes(store.messagesWithParts(s.id()));
    print(u"sessions: %1"_s.arg(stats->sessions));
    print(u"documents: %1"_s.arg(stats->documents));
    print(u"index_seconds: %1"_s.arg(seconds, 0, 'f', 1));
    print(u"index_cpu_seconds: %1"_s.arg(cpuUsed, 0, 'f', 1));
    print(u"sessions_per_s: %1"_s.arg(double(stats->sessions) / seconds, 0, 'f', 0));
    printSizes(size, text);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() > 2 && args.at(1) == u"--store")
        return indexStore(args.at(2), args.value(3));
    const int sessions = args.size() > 1 ? args.at(1).toInt() : 5000;
    const int partsPerSession = args.size() > 2 ? args.at(2).toInt() : 60;
    QTemporaryDir dir;
    const QString file = args.size() > 3 ? args.at(3) : dir.filePath(u"search.db"_s);

    SearchIndex index;
    if (Result<void> r = index.open(file); !r) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
        return 1;
    }
    Text text(42);
    qint64 parts = 0, characters = 0, textBytes = 0;
    QElapsedTimer timer;
    timer.start();
    qint64 generating = 0;
    double indexCpu = 0;
    const qint64 start = 1795312725000;
    for (int s = 0; s < sessions; ++s) {
        QElapsedTimer gen;
        gen.start();
        const qint64 created = start + qint64(s) * 60000;
        const Session session(JsonObject{{u"id"_s, Identifier::create(Identifier::Kind::Session, true, created)},
                                         {u"slug"_s, u"bench"_s},
                                         {u"version"_s, u"1.18.34"_s},
                                         {u"projectID"_s, u"global"_s},
                                         {u"directory"_s, u"/home/dev/src/demo"_s},
                                         {u"title"_s, text.sentence(4)},
                                         {u"time"_s, JsonObject{{u"created"_s, created}, {u"updated"_s, created}}}});
        QList<MessageWithParts> messages;
        qint64 t = created;
        for (int p = 0; p < partsPerSession;) {
            ++t;
            const Message user = Message::makeUser(Identifier::create(Identifier::Kind::Message, false, t), session.id(), t,
                                                   u"build"_s, u"p"_s, u"m"_s);
            MessageWithParts u{user, {Part::makeText(Identifier::create(Identifier::Kind::Part, false, t), session.id(), user.id(), text.sentence(12))}};
            ++p;
            ++t;
            const Message assistant = Message::makeAssistant(Identifier::create(Identifier::Kind::Message, false, t), session.id(), t,
                                                             user.id(), u"p"_s, u"m"_s, u"build"_s, u"/"_s, u"/"_s);
            MessageWithParts a{assistant, {}};
            for (int k = 0; k < 4 && p < partsPerSession; ++k, ++p) {
                const QString id = Identifier::create(Identifier::Kind::Part, false, ++t);
                if (k == 1) {
                    Part tool = Part::make(id, session.id(), assistant.id(), PartType::Tool);
                    tool.json().insert(u"tool"_s, u"bash"_s);
                    QString output;
                    for (int line = 0; line < 8; ++line)
                        output += text.sentence(8) + u'\n';
                    tool.setState(ToolState::completed(JsonObject{{u"command"_s, u"make "_s + text.word()}}, output, text.sentence(3), {}, t, t + 1));
                    a.parts.append(tool);
                } else {
                    Part part = Part::makeText(id, session.id(), assistant.id(), text.sentence(30 + text.bounded(30)));
                    if (k == 0)
                        part.json().insert(u"type"_s, u"reasoning"_s);
                    a.parts.append(part);
                }
            }
            messages.append(u);
            messages.append(a);
        }
        for (const MessageWithParts &m : std::as_const(messages)) {
            parts += m.parts.size();
            for (const Part &p : m.parts)
                characters += p.text().size() + p.state().output().size();
        }
        textBytes += session.title().toUtf8().size() + sourceBytes(messages);
        generating += gen.nsecsElapsed();
        const double cpu = cpuSeconds();
        const Result<void> r = index.indexSession(u"bench"_s, session, messages);
        indexCpu += cpuSeconds() - cpu;
        if (!r) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
            return 1;
        }
        if ((s + 1) % 500 == 0)
            std::fprintf(stderr, "indexed %d sessions\n", s + 1);
    }
    const qint64 indexMs = (timer.nsecsElapsed() - generating) / 1000000;
    QElapsedTimer optimizeTimer;
    optimizeTimer.start();
    if (Result<void> r = index.optimize(); !r)
        std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
    const qint64 optimizeMs = optimizeTimer.elapsed();

    const qint64 size = QFileInfo(file).size() + QFileInfo(file + u"-wal"_s).size();
    print(u"sessions: %1"_s.arg(sessions));
    print(u"parts: %1"_s.arg(parts));
    print(u"documents: %1"_s.arg(index.documentCount()));
    print(u"text_mb: %1"_s.arg(double(characters) / 1e6, 0, 'f', 1));
    print(u"index_seconds: %1"_s.arg(double(indexMs) / 1000.0, 0, 'f', 1));
    print(u"index_cpu_seconds: %1"_s.arg(indexCpu, 0, 'f', 1));
    print(u"optimize_seconds: %1"_s.arg(double(optimizeMs) / 1000.0, 0, 'f', 1));
    print(u"index_mb: %1"_s.arg(double(size) / 1048576.0, 0, 'f', 1));
    printSizes(size, textBytes);

    const QStringList queries{text.rareWord(), u"memory leak"_s, u"\"build failed\""_s, u"serial*"_s, u"検索"_s,
                              u"数据库"_s, u"configuration"_s, u"compaction parser thread"_s};
    timeQueries(index, queries);
    // Next/previous within one session (timeline order).
    {
        const Result<QList<SearchHit>> any = index.search(u"memory"_s);
        if (any && !any->isEmpty()) {
            QList<qint64> runs;
            for (int i = 0; i < 11; ++i) {
                QElapsedTimer t;
                t.start();
                (void)index.searchSession(u"memory"_s, u"bench"_s, any->first().sessionID);
                runs.append(t.nsecsElapsed() / 1000);
            }
            print(u"session_query_us: %1"_s.arg(median(runs)));
        }
    }
    return 0;
}
