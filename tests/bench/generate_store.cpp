// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a benchmark store in OpenCode 1.1's JSON layout, deterministically from a seed:
//
//   generate_store --shape S|L|XL --out DIR [--seed N] [--sessions N] [--messages N]
//                  [--turn N] [--forks F] [--children F] [--output-min BYTES] [--output-max BYTES]
//   generate_store --db-from STORE --out DIR [--v2]
//   generate_store --db [--all-v2] --shape S|L|XL --out DIR [--seed N] [--sessions N] ...
//
// DIR receives `home/.local/share/opencode/` (the data dir: point HOME at DIR/home for a real
// OpenCode 1.1), `home/src/bench-project/` (a git repository whose root commit is the project ID
// of every session, so OpenCode finds the sessions from inside it) and `store.json` (what was
// written: counts, sizes, the project ID and the largest session's ID).
//
// Shapes: S = 5,000 sessions x 10 messages (two turns of a user message and four assistant
// steps; a tenth forks, a tenth child sessions; tool outputs of 0.2-4 KB); L = 1
// session x 3,000 messages (a user message then five assistant steps per turn, some 12,000 parts,
// a quarter of them tool calls with outputs of 1-20 KB); XL = 1 session x 20,000 messages. Text
// is English-like prose with Japanese and Chinese sentences, Markdown and code blocks.
//
// The values are built with Weft's own types and written with JsonStorage::serialize (OpenCode's
// JSON.stringify(v, null, 2) layout), without fsync: the store is a benchmark fixture.
//
// --db-from writes the database era's store of a generated one: DIR/home/.local/share/opencode/
// opencode.db in OpenCode 1.18.34's schema, with STORE's projects, sessions, messages and parts
// inserted as OpenCode's JSON-to-SQLite migration does (tests/opencodedb's TestDb). With --v2 it
// also holds a copy of STORE's largest session as a V2 session (`session_message` rows, as
// OpenCode 1.18 writes for sessions prompted through its V2 API): a user row per user message, an
// assistant row per assistant message with its texts, reasoning and tool calls as `content`.
// The sessions keep naming STORE's project directory.
//
// --db writes that database directly from the generated values, without the JSON files (the
// heavy stores of 30,000 sessions: millions of files otherwise): the same rows as --db-from of
// the same arguments (tests/bench/check-generate-db.py), inserted in the order they were made, as
// OpenCode inserts them. With --all-v2 every session is a V2 session (`session_message` rows
// instead of `message` and `part` rows). In its store.json "files" counts the rows, "bytes" is 0.

#include "core/json.h"
#include "core/project.h"
#include "core/types.h"
#include "store/jsonstorage.h"
#include "store/jsonstore.h"

#include "testdb.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace weft;

bool writeV2Rows(test::TestDb &db, const QString &sessionID, const QList<MessageWithParts> &messages, QStringView idTail);

namespace
{

/// SplitMix64: the same sequence on every platform and compiler (std:: distributions are not).
class Rng
{
public:
    explicit Rng(quint64 seed)
        : m_state(seed)
    {
    }
    quint64 next()
    {
        quint64 z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    int bounded(int n) { return n <= 1 ? 0 : int(next() % quint64(n)); }
    int range(int lo, int hi) { return lo + bounded(hi - lo + 1); }
    double real() { return double(next() >> 11) / double(quint64(1) << 53); }
    bool chance(double p) { return real() < p; }
    template<typename T>
    const T &pick(const QList<T> &list) { return list.at(bounded(int(list.size()))); }

private:
    quint64 m_state;
};

/// OpenCode's identifiers, `<prefix>_<12 hex><14 base62>`, with the random tail from the seed.
class Ids
{
public:
    explicit Ids(Rng &rng)
        : m_rng(rng)
    {
    }
    QString make(const char *prefix, bool descending, qint64 ms)
    {
        if (ms != m_lastMs) {
            m_lastMs = ms;
            m_counter = 0;
        }
        ++m_counter;
        quint64 now = quint64(ms) * 0x1000 + m_counter;
        if (descending)
            now = ~now;
        now &= (quint64(1) << 48) - 1;
        static const char chars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        QString id = QLatin1StringView(prefix) + u'_' + u"%1"_s.arg(now, 12, 16, QLatin1Char('0'));
        for (int i = 0; i < 14; ++i)
            id += QLatin1Char(chars[(m_rng.next() & 0xff) % 62]);
        return id;
    }

private:
    Rng &m_rng;
    qint64 m_lastMs = -1;
    quint64 m_counter = 0;
};

/// Realistic-looking text: prose about code, Japanese and Chinese sentences, Markdown, code.
class Text
{
public:
    explicit Text(Rng &rng)
        : m_rng(rng)
    {
        m_words = u"the a build test file function error configuration memory leak serializer parser thread widget "
                  u"model session compaction database query cache index timeline delegate signal slot store "
                  u"message part tool output stream provider token request response handler layout paint "
                  u"scroll view sidebar fork export import project directory commit branch merge rebase "
                  u"snapshot revert diff patch review refactor rename extract inline variable constant type "
                  u"template struct class method member pointer reference value vector list map hash set "
                  u"queue mutex lock atomic worker pool task future promise callback event loop timer socket "
                  u"server client header body status code retry backoff limit quota cost price usage input "
                  u"is was are were be has have had do does did will would can could should may might must "
                  u"and or but if then else when while for with without from into onto over under between "
                  u"check fix add remove update change move copy read write open close start stop run call "
                  u"return throw catch handle parse format print log trace debug warn fail pass skip"_s.split(u' ');
        m_japanese = {u"この関数はスレッドセーフではありません。"_s,
                      u"ビルドが失敗したので、設定ファイルを確認してください。"_s,
                      u"メモリリークの原因はキャッシュの解放漏れでした。"_s,
                      u"テストを追加して、境界条件を確認しました。"_s,
                      u"セッションの一覧を新しい順に並べ替えます。"_s,
                      u"このコミットでパーサーの性能が二倍になりました。"_s,
                      u"エラーメッセージをもっと分かりやすくしましょう。"_s,
                      u"全文検索のインデックスを再構築しています。"_s};
        m_chinese = {u"这个函数在多线程环境下不安全。"_s,
                     u"编译失败了，请检查配置文件。"_s,
                     u"内存泄漏的原因是缓存没有释放。"_s,
                     u"我添加了测试来验证边界条件。"_s,
                     u"会话列表按更新时间从新到旧排序。"_s,
                     u"这次提交让解析器的速度提高了一倍。"_s,
                     u"请把错误信息写得更清楚一些。"_s,
                     u"正在重建全文搜索的索引。"_s};
        m_files = {u"src/main.cpp"_s, u"src/parser.cpp"_s, u"src/parser.h"_s, u"src/store/cache.cpp"_s,
                   u"src/store/cache.h"_s, u"src/ui/timeline.cpp"_s, u"src/ui/sidebar.cpp"_s, u"src/net/client.cpp"_s,
                   u"tests/test_parser.cpp"_s, u"tests/test_cache.cpp"_s, u"CMakeLists.txt"_s, u"README.md"_s,
                   u"docs/design.md"_s, u"scripts/build.sh"_s, u"src/util/strings.cpp"_s, u"src/util/json.cpp"_s};
        m_code = {u"    for (const auto &item : items) {"_s, u"        if (!item.isValid())"_s,
                  u"            continue;"_s, u"        result.append(transform(item));"_s, u"    }"_s,
                  u"    return result;"_s, u"}"_s, u""_s, u"static QString escape(QStringView text)"_s, u"{"_s,
                  u"    QMutexLocker locker(&m_mutex);"_s, u"    auto it = m_cache.constFind(key);"_s,
                  u"    if (it != m_cache.constEnd())"_s, u"        return it.value();"_s,
                  u"    const qint64 elapsed = timer.nsecsElapsed() / 1000;"_s,
                  u"    qCDebug(lcStore) << \"loaded\" << count << \"files in\" << elapsed << \"us\";"_s,
                  u"    // 注意: キャッシュはスレッドごとに持つ"_s, u"    m_index.insert(id, row);"_s,
                  u"def parse(line: str) -> dict:"_s, u"    return json.loads(line)"_s};
    }

    QString word() { return m_rng.pick(m_words); }
    QString file() { return m_rng.pick(m_files); }
    QString codeLine() { return m_rng.pick(m_code); }

    QString sentence(int minWords = 6, int maxWords = 18)
    {
        const int r = m_rng.bounded(10);
        if (r == 0)
            return m_rng.pick(m_japanese);
        if (r == 1)
            return m_rng.pick(m_chinese);
        QString s;
        const int n = m_rng.range(minWords, maxWords);
        for (int i = 0; i < n; ++i) {
            if (i)
                s += u' ';
            s += word();
        }
        if (m_rng.chance(0.2))
            s += u" in `"_s + file() + u'`';
        s[0] = s[0].toUpper();
        return s + u'.';
    }

    QString paragraph(int sentences)
    {
        QString p;
        for (int i = 0; i < sentences; ++i) {
            if (i)
                p += u' ';
            p += sentence();
        }
        return p;
    }

    QString codeBlock(int lines)
    {
        QString c = u"```cpp\n"_s;
        for (int i = 0; i < lines; ++i)
            c += codeLine() + u'\n';
        return c + u"```"_s;
    }

    /// An answer in Markdown: paragraphs, a list, now and then a code block.
    QString answer()
    {
        QString a = paragraph(m_rng.range(2, 4));
        if (m_rng.chance(0.5)) {
            a += u"\n\n"_s;
            const int items = m_rng.range(2, 5);
            for (int i = 0; i < items; ++i)
                a += u"- "_s + sentence(4, 10) + u'\n';
        }
        if (m_rng.chance(0.4))
            a += u"\n"_s + codeBlock(m_rng.range(4, 14)) + u"\n"_s;
        a += u"\n"_s + paragraph(m_rng.range(1, 2));
        return a;
    }

    /// About @p bytes of UTF-8 output of @p tool.
    QString toolOutput(const QString &tool, const QString &path, int bytes)
    {
        QString out;
        qsizetype size = 0;
        int line = 1;
        if (tool == u"read")
            out = u"<file>\n"_s;
        while (size < bytes) {
            QString l;
            if (tool == u"read") {
                l = u"%1| "_s.arg(line, 5, 10, QLatin1Char('0')) + (m_rng.chance(0.8) ? codeLine() : u"    // "_s + sentence(4, 10));
            } else if (tool == u"grep") {
                l = path + u":"_s + QString::number(m_rng.range(1, 900)) + u": "_s + codeLine().trimmed();
            } else if (tool == u"glob" || tool == u"list") {
                l = u"/home/dev/src/bench-project/"_s + word() + u'/' + word() + u'_' + QString::number(line) + u".cpp"_s;
            } else {
                const int r = m_rng.bounded(6);
                if (r == 0)
                    l = u"[%1%] Building CXX object src/CMakeFiles/app.dir/%2.o"_s.arg(m_rng.range(1, 99), 3).arg(file());
                else if (r == 1)
                    l = u"PASS   : TestParser::case%1() "_s.arg(line) + sentence(3, 6);
                else if (r == 2)
                    l = file() + u":"_s + QString::number(m_rng.range(1, 900)) + u":12: warning: unused variable ‘"_s + word() + u"’ [-Wunused-variable]"_s;
                else
                    l = sentence(5, 14);
            }
            out += l + u'\n';
            size += l.toUtf8().size() + 1;
            ++line;
        }
        if (tool == u"read")
            out += u"\n(End of file - total %1 lines)\n</file>"_s.arg(line - 1);
        return out;
    }

private:
    Rng &m_rng;
    QStringList m_words;
    QList<QString> m_japanese;
    QList<QString> m_chinese;
    QList<QString> m_files;
    QList<QString> m_code;
};

struct Shape {
    QString name;
    int sessions = 1;
    int messages = 3000;
    int turn = 5; ///< assistant messages per user message
    double forks = 0;
    double children = 0;
    int outputMin = 1024;
    int outputMax = 20480;
};

struct Counts {
    qint64 sessions = 0, roots = 0, messages = 0, parts = 0, toolParts = 0, files = 0, bytes = 0;
};

class Generator
{
public:
    Generator(const Shape &shape, quint64 seed, const QString &dataDir, const QString &projectDir, const QString &projectID)
        : m_shape(shape)
        , m_rng(seed)
        , m_ids(m_rng)
        , m_text(m_rng)
        , m_storage(dataDir + u"/storage"_s)
        , m_projectDir(projectDir)
        , m_projectID(projectID)
    {
    }

    /// Writes the rows into @p db (OpenCode 1.18.34's schema) instead of the JSON files: the
    /// rows --db-from would make of them, in the order they were generated (OpenCode's own
    /// order). With @p allV2 every session's messages are `session_message` rows instead.
    void setDatabase(test::TestDb *db, bool allV2)
    {
        m_db = db;
        m_allV2 = allV2;
    }

    bool write(const JsonStorage::Key &key, const JsonValue &value)
    {
        if (m_db)
            return insert(key, value.toObject());
        const QString path = m_storage.path(key).value();
        const QString dir = path.section(u'/', 0, -2);
        if (!m_dirs.contains(dir)) {
            QDir().mkpath(dir);
            m_dirs.insert(dir);
        }
        QFile file(path);
        const QByteArray bytes = JsonStorage::serialize(value);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size()) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
            return false;
        }
        ++m_counts.files;
        m_counts.bytes += bytes.size();
        return true;
    }

    bool run(qint64 start)
    {
        // Sessions in creation order; every tenth-or-so a fork or a child of an earlier one.
        QList<QPair<QString, QString>> roots; // id, title
        qint64 t = start;
        const qint64 spacing = m_shape.sessions > 1 ? 47 * 60 * 1000 : 0;
        for (int s = 0; s < m_shape.sessions; ++s) {
            QString parentID, title;
            const double r = m_rng.real();
            if (!roots.isEmpty() && r < m_shape.children) {
                parentID = m_rng.pick(roots).first;
                title = m_text.sentence(2, 4).chopped(1) + u" (@general subagent)"_s;
            } else if (!roots.isEmpty() && r < m_shape.children + m_shape.forks) {
                title = m_rng.pick(roots).second + u" (fork #1)"_s;
            } else {
                title = m_text.sentence(3, 7).chopped(1);
                if (title.size() > 50)
                    title = title.left(50);
            }
            const QString id = session(t, parentID, title);
            if (id.isEmpty())
                return false;
            if (parentID.isEmpty()) {
                roots.append({id, title});
                ++m_counts.roots;
            }
            t += spacing + m_rng.bounded(600000);
        }
        return write({u"project"_s, m_projectID},
                     Project::make(m_projectID, m_projectDir, u"git"_s, start).json());
    }

    bool insert(const JsonStorage::Key &key, const JsonObject &value)
    {
        ++m_counts.files;
        const QString &kind = key.first();
        if (kind == u"project")
            return m_db->insertProject(value);
        if (kind == u"message") {
            if (m_allV2) {
                m_pending.append({Message(value), {}});
                return true;
            }
            return m_db->insertMigratedMessage(value);
        }
        if (kind == u"part") {
            if (m_allV2) {
                m_pendingParts.append(Part(value));
                return true;
            }
            return m_db->insertMigratedPart(value);
        }
        // A session comes after its messages: its V2 rows, and a commit now and then.
        if (!m_db->insertSession(value))
            return false;
        if (m_allV2) {
            QHash<QString, qsizetype> index;
            for (qsizetype i = 0; i < m_pending.size(); ++i)
                index.insert(m_pending.at(i).info.id(), i);
            for (const Part &part : std::as_const(m_pendingParts))
                m_pending[index.value(part.messageID())].parts.append(part);
            const bool written = writeV2Rows(*m_db, value.string(u"id"), m_pending, {});
            m_pending.clear();
            m_pendingParts.clear();
            if (!written)
                return false;
        }
        if (++m_sessionsInTransaction == 200) {
            m_sessionsInTransaction = 0;
            return m_db->commit() && m_db->begin();
        }
        return true;
    }

    Counts counts() const { return m_counts; }
    QString largestSession() const { return m_largest; }

private:
    QString session(qint64 created, const QString &parentID, const QString &title)
    {
        const QString sessionID = m_ids.make("ses", true, created);
        qint64 t = created + 50;
        QString userID, lastUserText;
        int inTurn = 0;
        qint64 additions = 0, deletions = 0;
        for (int m = 0; m < m_shape.messages; ++m) {
            t += m_rng.range(200, 30000);
            const bool user = inTurn == 0;
            if (user) {
                userID = m_ids.make("msg", false, t);
                Message info = Message::makeUser(userID, sessionID, t, u"build"_s, u"anthropic"_s, u"claude-sonnet-4-5"_s);
                const QString text = m_rng.chance(0.5) ? m_text.sentence(8, 30) : m_text.paragraph(m_rng.range(2, 5));
                info.json().insertAfter(u"time", u"summary"_s,
                                        JsonObject{{u"title"_s, text.left(40)}, {u"diffs"_s, JsonArray()}});
                if (!write({u"message"_s, sessionID, userID}, info.json()))
                    return {};
                if (!writePart(Part::makeText(m_ids.make("prt", false, t + 1), sessionID, userID, text)))
                    return {};
                ++m_counts.messages;
                inTurn = 1;
                continue;
            }
            const bool last = inTurn == m_shape.turn || m == m_shape.messages - 1;
            inTurn = last ? 0 : inTurn + 1;
            const QString messageID = m_ids.make("msg", false, t);
            Message info = Message::makeAssistant(messageID, sessionID, t, userID, u"anthropic"_s, u"claude-sonnet-4-5"_s,
                                                  u"build"_s, m_projectDir, m_projectDir);
            qint64 pt = t + m_rng.range(300, 3000);
            const QString snapshot = QString::number(m_rng.next(), 16).rightJustified(16, u'0').repeated(3).left(40);
            Part start = Part::make(m_ids.make("prt", false, pt), sessionID, messageID, PartType::StepStart);
            start.json().insert(u"snapshot"_s, snapshot);
            if (!writePart(start))
                return {};
            if (m_rng.chance(0.45)) {
                pt += m_rng.range(10, 400);
                Part reasoning = Part::make(m_ids.make("prt", false, pt), sessionID, messageID, PartType::Reasoning);
                reasoning.json().insert(u"text"_s, m_text.paragraph(m_rng.range(1, 4)));
                reasoning.json().insert(u"time"_s, JsonObject{{u"start"_s, pt}, {u"end"_s, pt + m_rng.range(100, 3000)}});
                if (!writePart(reasoning))
                    return {};
            }
            if (last || m_rng.chance(0.6)) {
                pt += m_rng.range(10, 400);
                Part text = Part::makeText(m_ids.make("prt", false, pt), sessionID, messageID,
                                           last ? m_text.answer() : m_text.sentence(6, 20));
                text.json().insert(u"time"_s, JsonObject{{u"start"_s, pt}, {u"end"_s, pt + m_rng.range(100, 5000)}});
                if (!writePart(text))
                    return {};
            }
            if (!last) {
                const int tools = m_rng.chance(0.5) ? 2 : 1;
                for (int k = 0; k < tools; ++k) {
                    pt += m_rng.range(10, 400);
                    if (!writePart(tool(sessionID, messageID, pt)))
                        return {};
                }
                if (m_rng.chance(0.25)) {
                    Part patch = Part::make(m_ids.make("prt", false, ++pt), sessionID, messageID, PartType::Patch);
                    patch.json().insert(u"hash"_s, snapshot);
                    patch.json().insert(u"files"_s, JsonArray{m_projectDir + u'/' + m_text.file()});
                    additions += m_rng.range(1, 40);
                    deletions += m_rng.range(0, 20);
                    if (!writePart(patch))
                        return {};
                }
            }
            Tokens tokens;
            tokens.input = m_rng.range(2000, 150000);
            tokens.output = m_rng.range(20, 3000);
            tokens.reasoning = 0;
            tokens.cacheRead = m_rng.range(0, int(tokens.input));
            const double cost = double(m_rng.range(0, 50000)) / 1e6;
            const QString reason = last ? u"stop"_s : u"tool-calls"_s;
            Part finish = Part::make(m_ids.make("prt", false, ++pt), sessionID, messageID, PartType::StepFinish);
            finish.json().insert(u"reason"_s, reason);
            finish.json().insert(u"snapshot"_s, snapshot);
            finish.json().insert(u"cost"_s, cost);
            finish.json().insert(u"tokens"_s, tokens.toJson());
            if (!writePart(finish))
                return {};
            info.setCompleted(pt + 5);
            info.setCost(cost);
            info.setTokens(tokens);
            info.setFinish(reason);
            if (!write({u"message"_s, sessionID, messageID}, info.json()))
                return {};
            ++m_counts.messages;
            t = pt + 5;
        }
        JsonObject json{{u"id"_s, sessionID},
                        {u"slug"_s, m_text.word() + u'-' + m_text.word()},
                        {u"version"_s, u"1.1.53"_s},
                        {u"projectID"_s, m_projectID},
                        {u"directory"_s, m_projectDir}};
        if (!parentID.isEmpty())
            json.insert(u"parentID"_s, parentID);
        json.insert(u"title"_s, title);
        json.insert(u"time"_s, JsonObject{{u"created"_s, created}, {u"updated"_s, t}});
        json.insert(u"summary"_s, JsonObject{{u"additions"_s, additions}, {u"deletions"_s, deletions},
                                              {u"files"_s, qint64(additions ? m_rng.range(1, 9) : 0)}});
        if (!write({u"session"_s, m_projectID, sessionID}, json))
            return {};
        ++m_counts.sessions;
        if (m_shape.messages >= m_largestMessages) {
            m_largestMessages = m_shape.messages;
            m_largest = sessionID;
        }
        return sessionID;
    }

    bool writePart(const Part &part)
    {
        ++m_counts.parts;
        if (part.type() == PartType::Tool)
            ++m_counts.toolParts;
        return write({u"part"_s, part.messageID(), part.id()}, part.json());
    }

    Part tool(const QString &sessionID, const QString &messageID, qint64 &pt)
    {
        static const QList<QString> tools{u"read"_s, u"read"_s, u"read"_s, u"read"_s, u"grep"_s, u"grep"_s,
                                          u"bash"_s, u"bash"_s, u"glob"_s, u"list"_s};
        const QString name = m_rng.pick(tools);
        const QString file = m_text.file();
        // Output sizes skewed toward the small end, like real tool output: min + (max-min) * u^2.
        const double u = m_rng.real();
        const int bytes = m_shape.outputMin + int(double(m_shape.outputMax - m_shape.outputMin) * u * u);
        Part part = Part::make(m_ids.make("prt", false, pt), sessionID, messageID, PartType::Tool);
        part.json().insert(u"callID"_s, u"toolu_"_s + QString::number(m_rng.next(), 36).left(12));
        part.json().insert(u"tool"_s, name);
        JsonObject input, metadata;
        QString title;
        if (name == u"read") {
            input.insert(u"filePath"_s, m_projectDir + u'/' + file);
            title = file;
        } else if (name == u"grep") {
            input.insert(u"pattern"_s, m_text.word());
            input.insert(u"path"_s, m_projectDir);
            title = input.string(u"pattern");
        } else if (name == u"bash") {
            input.insert(u"command"_s, m_rng.chance(0.5) ? u"cmake --build build -j2"_s : u"ctest --test-dir build"_s);
            input.insert(u"description"_s, m_text.sentence(3, 6).chopped(1));
            title = input.string(u"description");
        } else {
            input.insert(u"pattern"_s, u"**/*.cpp"_s);
            input.insert(u"path"_s, m_projectDir);
            title = u"src"_s;
        }
        const qint64 startMs = pt;
        pt += m_rng.range(5, 4000);
        if (m_rng.chance(0.03)) {
            part.setState(ToolState::error(input, u"Error: "_s + m_text.sentence(5, 12), startMs, pt));
            return part;
        }
        const QString output = m_text.toolOutput(name, file, bytes);
        if (name == u"bash") {
            metadata.insert(u"output"_s, output);
            metadata.insert(u"exit"_s, 0);
            metadata.insert(u"description"_s, title);
            metadata.insert(u"truncated"_s, false);
        } else if (name == u"read") {
            metadata.insert(u"preview"_s, output.left(300));
            metadata.insert(u"truncated"_s, false);
        } else {
            metadata.insert(u"count"_s, qint64(output.count(u'\n')));
            metadata.insert(u"truncated"_s, false);
        }
        part.setState(ToolState::completed(input, output, title, metadata, startMs, pt));
        return part;
    }

    Shape m_shape;
    Rng m_rng;
    Ids m_ids;
    Text m_text;
    JsonStorage m_storage;
    QString m_projectDir;
    QString m_projectID;
    QSet<QString> m_dirs;
    test::TestDb *m_db = nullptr;
    bool m_allV2 = false;
    QList<MessageWithParts> m_pending; ///< with m_allV2: the session's messages so far
    QList<Part> m_pendingParts;
    int m_sessionsInTransaction = 0;
    Counts m_counts;
    QString m_largest;
    int m_largestMessages = 0;
};

bool runGit(const QString &dir, const QStringList &args)
{
    QProcess git;
    git.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Fixed names and dates: the same root commit (the project ID) on every run.
    env.insert(u"GIT_AUTHOR_NAME"_s, u"Weft Bench"_s);
    env.insert(u"GIT_AUTHOR_EMAIL"_s, u"bench@weft.invalid"_s);
    env.insert(u"GIT_COMMITTER_NAME"_s, u"Weft Bench"_s);
    env.insert(u"GIT_COMMITTER_EMAIL"_s, u"bench@weft.invalid"_s);
    env.insert(u"GIT_AUTHOR_DATE"_s, u"2026-01-05T08:00:00Z"_s);
    env.insert(u"GIT_COMMITTER_DATE"_s, u"2026-01-05T08:00:00Z"_s);
    git.setProcessEnvironment(env);
    git.start(u"git"_s, args);
    return git.waitForFinished(60000) && git.exitStatus() == QProcess::NormalExit && git.exitCode() == 0;
}

} // namespace

/// The ID @p id with its last characters replaced by @p tail (same prefix, time and length).
QString renamed(const QString &id, QStringView tail)
{
    return id.left(id.size() - tail.size()) + tail;
}

/// The V2 `content` item of a V1 part (text, reasoning, tool); null for step parts.
std::optional<JsonObject> v2Content(const Part &part)
{
    const JsonObject &p = part.json();
    const QString type = p.string(u"type");
    if (type == u"text")
        return JsonObject{{u"type"_s, u"text"_s}, {u"id"_s, part.id()}, {u"text"_s, p.string(u"text")}};
    if (type == u"reasoning") {
        const JsonObject time = p.object(u"time");
        return JsonObject{{u"type"_s, u"reasoning"_s},
                          {u"id"_s, part.id()},
                          {u"text"_s, p.string(u"text")},
                          {u"time"_s, JsonObject{{u"created"_s, time.integer(u"start")}, {u"completed"_s, time.integer(u"end")}}}};
    }
    if (type != u"tool")
        return std::nullopt;
    const JsonObject state = p.object(u"state");
    const JsonObject time = state.object(u"time");
    JsonObject v2State{{u"status"_s, state.string(u"status")}, {u"input"_s, state.object(u"input")}};
    if (state.string(u"status") == u"error") {
        v2State.insert(u"content"_s, JsonArray());
        v2State.insert(u"structured"_s, JsonObject());
        v2State.insert(u"error"_s, JsonObject{{u"type"_s, u"unknown"_s}, {u"message"_s, state.string(u"error")}});
    } else {
        v2State.insert(u"content"_s, JsonArray{JsonObject{{u"type"_s, u"text"_s}, {u"text"_s, state.string(u"output")}}});
        JsonObject structured = state.object(u"metadata");
        if (state.contains(u"title"))
            structured.insert(u"title"_s, state.string(u"title"));
        v2State.insert(u"structured"_s, structured);
    }
    return JsonObject{{u"type"_s, u"tool"_s},
                      {u"id"_s, p.string(u"callID")},
                      {u"name"_s, p.string(u"tool")},
                      {u"provider"_s, JsonObject{{u"executed"_s, false}}},
                      {u"state"_s, v2State},
                      {u"time"_s, JsonObject{{u"created"_s, time.integer(u"start")},
                                             {u"ran"_s, time.integer(u"start")},
                                             {u"completed"_s, time.integer(u"end")}}}};
}

/// The `session_message` rows of @p messages as session @p sessionID's, their IDs ending in
/// @p idTail (unchanged when empty): a user row per user message, an assistant row per assistant
/// message with its texts, reasoning and tool calls as `content`.
bool writeV2Rows(test::TestDb &db, const QString &sessionID, const QList<MessageWithParts> &messages, QStringView idTail)
{
    qint64 seq = 0;
    for (const MessageWithParts &m : messages) {
        const JsonObject &v1 = m.info.json();
        const QString rowID = renamed(m.info.id(), idTail);
        JsonObject data{{u"time"_s, v1.object(u"time")}};
        if (m.info.isUser()) {
            QStringList texts;
            for (const Part &part : m.parts) {
                if (part.typeName() == u"text")
                    texts.append(part.json().string(u"text"));
            }
            data.insert(u"text"_s, texts.join(u"\n\n"_s));
        } else {
            data.insert(u"agent"_s, v1.string(u"agent", u"build"_s));
            data.insert(u"model"_s, JsonObject{{u"id"_s, m.info.modelID()}, {u"providerID"_s, m.info.providerID()}});
            JsonArray content;
            for (const Part &part : m.parts) {
                if (std::optional<JsonObject> item = v2Content(part))
                    content.append(*item);
            }
            data.insert(u"content"_s, content);
            if (v1.contains(u"finish"))
                data.insert(u"finish"_s, v1.value(u"finish"));
            data.insert(u"cost"_s, v1.value(u"cost"));
            data.insert(u"tokens"_s, v1.value(u"tokens"));
        }
        if (!db.insertSessionMessage(rowID, sessionID, m.info.isUser() ? u"user"_s : u"assistant"_s, ++seq, data,
                                     m.info.created(), m.info.isCompleted() ? m.info.completed() : m.info.created()))
            return false;
    }
    return true;
}

/// Writes @p session of @p source as a V2 session (session row plus `session_message` rows) under
/// new IDs. Returns the new session ID, or an empty string on failure.
QString writeV2Session(test::TestDb &db, JsonStore &source, const Session &session)
{
    JsonObject info = session.json();
    const QString id = renamed(session.id(), u"V2V2V2");
    info.insert(u"id"_s, id);
    info.insert(u"title"_s, session.title() + u" (V2)"_s);
    if (!db.insertSession(info) || !writeV2Rows(db, id, source.messagesWithParts(session.id()), u"V2V2"))
        return {};
    return id;
}

/// Marks every migration of the real OpenCode 1.18.34 as applied in the new @p db (TestDb marks
/// only the newest), so that OpenCode opens the database as its own instead of migrating it again.
bool markMigrations(test::TestDb &db)
{
    const QString fixture = test::realFixtureDir() + u"/opencode.db"_s;
    return db.isOk() && db.exec(u"ATTACH DATABASE ? AS fixture"_s, {fixture})
        && db.exec(u"INSERT OR IGNORE INTO migration(id, time_completed) SELECT id, time_completed FROM fixture.migration"_s)
        && db.exec(u"DETACH DATABASE fixture"_s);
}

/// As OpenCode leaves a database after a checkpoint: everything in the main file.
void checkpoint(test::TestDb &db)
{
    db.exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s);
    db.close();
}

/// --db-from: the database era's copy of the generated store @p from, in @p out.
int writeDatabase(const QString &from, const QString &out, bool withV2)
{
    QFile metaFile(from + u"/store.json"_s);
    if (!metaFile.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(metaFile.fileName()));
        return 1;
    }
    const std::optional<JsonValue> parsedMeta = parseJson(metaFile.readAll());
    if (!parsedMeta || !parsedMeta->isObject())
        return 1;
    const JsonObject meta = parsedMeta->toObject();
    const QString sourceData = meta.string(u"dataDir");
    const QString home = out + u"/home"_s;
    const QString dataDir = home + u"/.local/share/opencode"_s;
    if (!QDir().mkpath(dataDir))
        return 1;
    QElapsedTimer timer;
    timer.start();
    QString v2Session;
    {
        test::TestDb db(dataDir + u"/opencode.db"_s);
        if (!markMigrations(db) || !db.loadStorage(sourceData + u"/storage"_s)) {
            std::fprintf(stderr, "writing the database failed: %s\n", qPrintable(db.error()));
            return 1;
        }
        if (withV2) {
            JsonStore source(sourceData);
            const std::optional<Session> largest = source.session(meta.string(u"largestSession"));
            if (!largest || !db.begin() || (v2Session = writeV2Session(db, source, *largest)).isEmpty() || !db.commit()) {
                std::fprintf(stderr, "writing the V2 session failed: %s\n", qPrintable(db.error()));
                return 1;
            }
        }
        checkpoint(db);
    }
    JsonObject summary = meta;
    summary.insert(u"shape"_s, meta.string(u"shape") + u"-db"_s);
    summary.insert(u"source"_s, from);
    summary.insert(u"home"_s, home);
    summary.insert(u"dataDir"_s, dataDir);
    summary.insert(u"database"_s, dataDir + u"/opencode.db"_s);
    summary.insert(u"databaseBytes"_s, QFileInfo(dataDir + u"/opencode.db"_s).size());
    if (!v2Session.isEmpty())
        summary.insert(u"v2Session"_s, v2Session);
    summary.insert(u"generateSeconds"_s, double(timer.elapsed()) / 1000.0);
    QFile file(out + u"/store.json"_s);
    if (!file.open(QIODevice::WriteOnly) || file.write(toJson(summary)) < 0)
        return 1;
    std::printf("%s\n", toJson(summary).constData());
    return 0;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Writes a benchmark store in OpenCode 1.1's JSON layout."_s);
    parser.addHelpOption();
    const QCommandLineOption shapeOption(u"shape"_s, u"S, L or XL"_s, u"shape"_s, u"L"_s);
    const QCommandLineOption outOption(u"out"_s, u"The folder to write"_s, u"dir"_s);
    const QCommandLineOption seedOption(u"seed"_s, u"Random seed"_s, u"n"_s, u"42"_s);
    const QCommandLineOption sessionsOption(u"sessions"_s, u"Sessions"_s, u"n"_s);
    const QCommandLineOption messagesOption(u"messages"_s, u"Messages per session"_s, u"n"_s);
    const QCommandLineOption turnOption(u"turn"_s, u"Assistant messages per user message"_s, u"n"_s);
    const QCommandLineOption forksOption(u"forks"_s, u"Share of sessions that are forks (0-1)"_s, u"f"_s);
    const QCommandLineOption childrenOption(u"children"_s, u"Share of sessions that are children (0-1)"_s, u"f"_s);
    const QCommandLineOption minOption(u"output-min"_s, u"Smallest tool output in bytes"_s, u"bytes"_s);
    const QCommandLineOption maxOption(u"output-max"_s, u"Largest tool output in bytes"_s, u"bytes"_s);
    const QCommandLineOption dbFromOption(u"db-from"_s, u"Write the opencode.db of this generated store"_s, u"store"_s);
    const QCommandLineOption v2Option(u"v2"_s, u"With --db-from: add the largest session as a V2 session"_s);
    const QCommandLineOption dbOption(u"db"_s, u"Write the opencode.db of the store directly, without its JSON files"_s);
    const QCommandLineOption allV2Option(u"all-v2"_s, u"With --db: every session as a V2 session"_s);
    parser.addOptions({shapeOption, outOption, seedOption, sessionsOption, messagesOption, turnOption, forksOption,
                       childrenOption, minOption, maxOption, dbFromOption, v2Option, dbOption, allV2Option});
    parser.process(app);
    if (!parser.isSet(outOption)) {
        std::fprintf(stderr, "--out is required\n");
        return 2;
    }
    if (parser.isSet(dbFromOption))
        return writeDatabase(QDir(parser.value(dbFromOption)).absolutePath(), QDir(parser.value(outOption)).absolutePath(),
                             parser.isSet(v2Option));

    Shape shape;
    shape.name = parser.value(shapeOption).toUpper();
    if (shape.name == u"S") {
        shape.sessions = 5000;
        shape.messages = 10;
        shape.turn = 4;
        shape.forks = 0.1;
        shape.children = 0.1;
        shape.outputMin = 200;
        shape.outputMax = 4096;
    } else if (shape.name == u"XL") {
        shape.messages = 20000;
    } else if (shape.name != u"L") {
        shape.name = u"custom"_s;
    }
    if (parser.isSet(sessionsOption))
        shape.sessions = parser.value(sessionsOption).toInt();
    if (parser.isSet(messagesOption))
        shape.messages = parser.value(messagesOption).toInt();
    if (parser.isSet(turnOption))
        shape.turn = qMax(1, parser.value(turnOption).toInt());
    if (parser.isSet(forksOption))
        shape.forks = parser.value(forksOption).toDouble();
    if (parser.isSet(childrenOption))
        shape.children = parser.value(childrenOption).toDouble();
    if (parser.isSet(minOption))
        shape.outputMin = parser.value(minOption).toInt();
    if (parser.isSet(maxOption))
        shape.outputMax = qMax(shape.outputMin, parser.value(maxOption).toInt());
    const quint64 seed = parser.value(seedOption).toULongLong();

    const QString out = QDir(parser.value(outOption)).absolutePath();
    if (QDir(out).exists() && !QDir(out).isEmpty()) {
        std::fprintf(stderr, "%s exists and is not empty\n", qPrintable(out));
        return 1;
    }
    const QString home = out + u"/home"_s;
    const QString dataDir = home + u"/.local/share/opencode"_s;
    const QString projectDir = home + u"/src/bench-project"_s;
    if (!QDir().mkpath(projectDir) || !QDir().mkpath(dataDir))
        return 1;

    // The project: a git repository with a fixed root commit, so the project ID is stable.
    {
        QFile readme(projectDir + u"/README.md"_s);
        if (!readme.open(QIODevice::WriteOnly))
            return 1;
        readme.write("# Bench project\n\nThe sessions of this Weft benchmark store belong to this repository.\n");
    }
    if (!runGit(projectDir, {u"init"_s, u"-q"_s, u"-b"_s, u"main"_s}) || !runGit(projectDir, {u"add"_s, u"README.md"_s})
        || !runGit(projectDir, {u"commit"_s, u"-q"_s, u"-m"_s, u"Initial commit"_s})) {
        std::fprintf(stderr, "git failed in %s\n", qPrintable(projectDir));
        return 1;
    }
    const ProjectIdentity project = identifyProject(projectDir);
    if (project.id == u"global") {
        std::fprintf(stderr, "the project was not identified as a git repository\n");
        return 1;
    }

    const bool toDatabase = parser.isSet(dbOption);
    const QString database = dataDir + u"/opencode.db"_s;
    std::optional<test::TestDb> db;
    if (toDatabase) {
        db.emplace(database);
        if (!markMigrations(*db) || !db->begin()) {
            std::fprintf(stderr, "writing the database failed: %s\n", qPrintable(db->error()));
            return 1;
        }
    } else if (!JsonStore(dataDir).initialize()) { // the `migration` file OpenCode 1.1 expects
        return 1;
    }

    QElapsedTimer timer;
    timer.start();
    Generator generator(shape, seed, dataDir, project.worktree, project.id);
    if (db)
        generator.setDatabase(&*db, parser.isSet(allV2Option));
    // 2026-01-05 08:00 UTC: before the 2026-08-14 wrap of the ID time field.
    if (!generator.run(1767600000000) || (db && !db->commit())) {
        if (db)
            std::fprintf(stderr, "writing the database failed: %s\n", qPrintable(db->error()));
        return 1;
    }
    if (db) {
        checkpoint(*db);
        db.reset();
    }
    const Counts c = generator.counts();

    JsonObject summary{{u"shape"_s, toDatabase ? shape.name + u"-db"_s : shape.name},
                             {u"seed"_s, qint64(seed)},
                             {u"sessions"_s, c.sessions},
                             {u"rootSessions"_s, c.roots},
                             {u"messagesPerSession"_s, shape.messages},
                             {u"messages"_s, c.messages},
                             {u"parts"_s, c.parts},
                             {u"toolParts"_s, c.toolParts},
                             {u"files"_s, c.files},
                             {u"bytes"_s, c.bytes},
                             {u"home"_s, home},
                             {u"dataDir"_s, dataDir},
                             {u"projectDir"_s, project.worktree},
                             {u"projectID"_s, project.id},
                             {u"largestSession"_s, generator.largestSession()},
                             {u"generateSeconds"_s, double(timer.elapsed()) / 1000.0}};
    if (toDatabase) {
        summary.insert(u"database"_s, database);
        summary.insert(u"databaseBytes"_s, QFileInfo(database).size());
        if (parser.isSet(allV2Option))
            summary.insert(u"allV2"_s, true);
    }
    QFile file(out + u"/store.json"_s);
    if (!file.open(QIODevice::WriteOnly) || file.write(toJson(summary)) < 0)
        return 1;
    std::printf("%s\n", toJson(summary).constData());
    return 0;
}
