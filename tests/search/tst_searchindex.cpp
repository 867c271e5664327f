// SPDX-License-Identifier: GPL-3.0-or-later
// SearchIndex: what is indexed, ranking and snippets (Japanese and Chinese too), bringing the
// index up to date with JSON stores and OpenCode databases, and following live changes.

#include "core/identifier.h"
#include "opencodedb/opencodedatadir.h"
#include "opencodedb/opencodedbstore.h"
#include "search/searchindex.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "testdata.h"
#include "testdb.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString RealMain = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
const QString RealFork = u"ses_dfe96a47cffebQrgOF1KmVIxb2"_s;
const QString RealNamed = u"ses_dfe96a380ffecLH5wa8iKO3NO1"_s;
const QString RealCompacted = u"ses_dfe96a08fffeGZT3V7zWQHJK7B"_s;

Session makeSession(const QString &title, qint64 created = 1795312725000)
{
    return Session(JsonObject{{u"id"_s, Identifier::descending(Identifier::Kind::Session)},
                              {u"slug"_s, u"test"_s},
                              {u"version"_s, u"1.1.53"_s},
                              {u"projectID"_s, u"global"_s},
                              {u"directory"_s, u"/home/dev"_s},
                              {u"title"_s, title},
                              {u"time"_s, JsonObject{{u"created"_s, created}, {u"updated"_s, created}}}});
}

/// A session with one user message per text, in order.
QList<MessageWithParts> messagesOf(const Session &session, const QStringList &texts)
{
    QList<MessageWithParts> result;
    qint64 t = session.created();
    for (const QString &text : texts) {
        const Message m = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), session.id(), ++t, u"build"_s, u"p"_s, u"m"_s);
        result.append({m, {Part::makeText(Identifier::ascending(Identifier::Kind::Part), session.id(), m.id(), text)}});
    }
    return result;
}

/// Writes @p session and @p messages into @p store (the index reads snippets from there).
void writeInto(Store &store, const Session &session, const QList<MessageWithParts> &messages)
{
    QVERIFY(store.writeSession(session));
    for (const MessageWithParts &m : messages) {
        QVERIFY(store.writeMessage(m.info));
        for (const Part &p : m.parts)
            QVERIFY(store.writePart(p));
    }
}

QStringList highlighted(const SearchHit &hit)
{
    QStringList out;
    for (const auto &[start, length] : hit.highlights)
        out.append(hit.snippet.mid(start, length));
    return out;
}

QString copyRealFixture(const QTemporaryDir &dir)
{
    const QString target = dir.filePath(u"opencode"_s);
    QDir().mkpath(target);
    QFile::copy(weft::test::realFixtureDir() + u"/opencode.db"_s, target + u"/opencode.db"_s);
    QFile(target + u"/opencode.db"_s).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return target;
}

QSet<QString> sessionsOf(const QList<SearchHit> &hits)
{
    QSet<QString> ids;
    for (const SearchHit &h : hits)
        ids.insert(h.sessionID);
    return ids;
}

constexpr qint64 Day = 24 * 3600 * 1000;

/// An OpenCode database of @p count sessions, session i updated i days ago, in /home/dev/alpha
/// (even i) or /home/dev/beta (odd i), each with a user message "word<i> common <folder>" and a
/// bash call whose output is "outputword".
QString manySessions(const QTemporaryDir &dir, int count)
{
    const QString file = dir.filePath(u"opencode/opencode.db"_s);
    QDir().mkpath(dir.filePath(u"opencode"_s));
    weft::test::TestDb db(file);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    db.begin();
    db.insertProject(JsonObject{{u"id"_s, u"global"_s}, {u"worktree"_s, u"/"_s}, {u"time"_s, JsonObject{{u"created"_s, now}, {u"updated"_s, now}}}});
    for (int i = 0; i < count; ++i) {
        const qint64 t = now - i * Day;
        Session session = makeSession(u"Session %1"_s.arg(i), t);
        const QString folder = i % 2 == 0 ? u"alpha"_s : u"beta"_s;
        session.json().insert(u"directory"_s, u"/home/dev/"_s + folder);
        db.insertSession(session.json());
        const Message m = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), session.id(), t, u"build"_s, u"p"_s, u"m"_s);
        db.insertMessage(m.json());
        const Part text = Part::makeText(Identifier::ascending(Identifier::Kind::Part), session.id(), m.id(),
                                         u"word%1 common %2"_s.arg(i).arg(folder));
        db.insertPart(text.json(), t);
        Part tool = Part::make(Identifier::ascending(Identifier::Kind::Part), session.id(), m.id(), PartType::Tool);
        tool.json().insert(u"tool"_s, u"bash"_s);
        tool.json().insert(u"callID"_s, u"call_%1"_s.arg(i));
        tool.setState(ToolState::completed(JsonObject{{u"command"_s, u"ls"_s}}, u"outputword"_s, u"ls"_s, {}, t, t));
        db.insertPart(tool.json(), t);
    }
    db.commit();
    return file;
}

int hitsOf(SearchIndex &index, const QString &query)
{
    SearchOptions options;
    options.limit = -1;
    const auto hits = index.search(query, options);
    return hits ? int(hits->size()) : -1;
}

QSet<QString> kindsOf(const QList<SearchHit> &hits)
{
    QSet<QString> kinds;
    for (const SearchHit &h : hits)
        kinds.insert(h.kind);
    return kinds;
}
} // namespace

class TestSearchIndex : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void documents_data();
    void documents();
    void longOutputsAreCapped();
    void ftsQuery_data();
    void ftsQuery();
    void oddQueriesDoNotFail_data();
    void oddQueriesDoNotFail();
    void ranking();
    void snippets_data();
    void snippets();
    void termsAreCheckedAgainstTheText_data();
    void termsAreCheckedAgainstTheText();
    void pagesAreFullWhenCandidatesFail();
    void syncJsonStore();
    void syncOpencodeDatabase_data();
    void syncOpencodeDatabase();
    void timelineOrderInOneSession();
    void followsSessionService();
    void followsOpencodeDatabase();
    void rebuild();
    void sourcesAreKeptApart();
    void reopenKeepsOrEmpties();
    void olderLayoutIsMadeAgain();
    void outputsAreCappedAndCountedOnce();
    void runsAsAGuest();
    void pausesWhileBusy();
    void answersWhileSyncingAndResumesAfterRestart();
    void limits();
};

void TestSearchIndex::documents_data()
{
    QTest::addColumn<QByteArray>("part");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("contains");
    // JSON with ' for ", to keep the table readable.
    const QByteArray ids = "'id':'prt_200fa7fcc002SWWB8daGMkkVNe','sessionID':'ses_dff058141ffeXJnTNzT8vnXcKt','messageID':'msg_200fa7fcc001NaVRZuu17qcTE4'";
    auto part = [&](const QByteArray &rest) { return QByteArray("{" + ids + "," + rest + "}").replace('\'', '"'); };
    QTest::addRow("text") << part("'type':'text','text':'hello there'") << u"text"_s << QStringList{u"hello there"_s};
    QTest::addRow("reasoning") << part("'type':'reasoning','text':'let me think','time':{'start':1}") << u"reasoning"_s << QStringList{u"let me think"_s};
    QTest::addRow("completed tool") << part("'type':'tool','callID':'c','tool':'bash','state':{'status':'completed','input':{'command':'ls -la','description':'List files'},'output':'total 24','title':'List files','metadata':{},'time':{'start':1,'end':2}}")
                                    << u"tool"_s << QStringList{u"bash"_s, u"ls -la"_s, u"List files"_s, u"total 24"_s};
    QTest::addRow("failed tool") << part("'type':'tool','callID':'c','tool':'read','state':{'status':'error','input':{'filePath':'/src/missing.txt'},'error':'File not found: /src/missing.txt','time':{'start':1,'end':2}}")
                                 << u"tool"_s << QStringList{u"read"_s, u"/src/missing.txt"_s, u"File not found"_s};
    QTest::addRow("file") << part("'type':'file','mime':'text/plain','filename':'notes.md','url':'file:///home/dev/notes.md'")
                          << u"file"_s << QStringList{u"notes.md"_s, u"/home/dev/notes.md"_s};
    QTest::addRow("patch") << part("'type':'patch','hash':'abc','files':['/home/dev/a.cpp','/home/dev/b.h']")
                           << u"patch"_s << QStringList{u"/home/dev/a.cpp"_s, u"/home/dev/b.h"_s};
    QTest::addRow("subtask") << part("'type':'subtask','prompt':'find the bug','description':'Investigate','agent':'general'")
                             << u"subtask"_s << QStringList{u"find the bug"_s, u"Investigate"_s};
    QTest::addRow("retry") << part("'type':'retry','attempt':2,'error':{'name':'APIError','data':{'message':'rate limited','isRetryable':true}},'time':{'created':1}")
                           << u"retry"_s << QStringList{u"rate limited"_s};
    QTest::addRow("step-start: nothing") << part("'type':'step-start','snapshot':'abc'") << QString() << QStringList{};
    QTest::addRow("empty text: nothing") << part("'type':'text','text':''") << QString() << QStringList{};
}

void TestSearchIndex::documents()
{
    QFETCH(QByteArray, part);
    QFETCH(QString, kind);
    QFETCH(QStringList, contains);
    const std::optional<JsonValue> json = parseJson(part);
    QVERIFY(json);
    QVERIFY(Part::validate(*json).isEmpty());
    const std::optional<SearchDocument> doc = SearchIndex::document(Part(json->toObject()), 42);
    QCOMPARE(doc.has_value(), !kind.isEmpty());
    if (!doc)
        return;
    QCOMPARE(doc->kind, kind);
    QCOMPARE(doc->time, 42);
    QCOMPARE(doc->partID, u"prt_200fa7fcc002SWWB8daGMkkVNe"_s);
    for (const QString &c : std::as_const(contains))
        QVERIFY2(doc->text.contains(c), qPrintable(c));
}

void TestSearchIndex::longOutputsAreCapped()
{
    QString output;
    for (int i = 0; i < 20000; ++i)
        output += u"line %1\n"_s.arg(i);
    Part p = Part::make(u"prt_200fa7fcc002SWWB8daGMkkVNe"_s, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s, u"msg_200fa7fcc001NaVRZuu17qcTE4"_s, PartType::Tool);
    p.json().insert(u"tool"_s, u"bash"_s);
    p.setState(ToolState::completed(JsonObject{{u"command"_s, u"seq 20000"_s}}, output, u"many lines"_s, {}, 1, 2));
    const std::optional<SearchDocument> doc = SearchIndex::document(p, 0);
    QVERIFY(doc);
    QVERIFY(doc->text.size() <= 64 * 1024 + 8);
    QVERIFY(doc->text.contains(u"line 0\n"));
    QVERIFY(doc->text.contains(u"line 19999\n")); // the end is kept too
    // A message's error is a document of its own.
    Message m = Message::makeAssistant(u"msg_200fa7fcc001NaVRZuu17qcTE4"_s, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s, 5,
                                       u"msg_200fa7f88001XM8hYBSImS8m9U"_s, u"p"_s, u"m"_s, u"build"_s, u"/"_s, u"/"_s);
    m.setError(MessageError::api(u"Service overloaded"_s, 529, true));
    const QList<SearchDocument> docs = SearchIndex::documents(m, {p});
    QCOMPARE(docs.size(), 2);
    QCOMPARE(docs.first().kind, u"error"_s);
    QVERIFY(docs.first().text.contains(u"Service overloaded"));
    QVERIFY(docs.first().partID.isEmpty());
}

void TestSearchIndex::ftsQuery_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("expression");
    QTest::addRow("words") << u"quick fox"_s << u"\"quick\" \"fox\""_s;
    QTest::addRow("phrase") << u"\"quick fox\" jumps"_s << u"\"quick fox\" \"jumps\""_s;
    QTest::addRow("prefix") << u"data*"_s << u"\"data\"*"_s;
    QTest::addRow("exclusion") << u"fox -dog"_s << u"(\"fox\") NOT \"dog\""_s;
    QTest::addRow("OR") << u"fox OR dog cat"_s << u"(\"fox\" OR \"dog\") AND \"cat\""_s;
    QTest::addRow("quotes inside a word") << u"say\"hi"_s << u"\"say\" \"hi\""_s;
    QTest::addRow("FTS5 syntax is text") << u"title:foo AND NEAR(x)"_s << u"\"title:foo\" \"AND\" \"NEAR(x)\""_s;
    QTest::addRow("punctuation only") << u"-- ** ::"_s << QString();
    QTest::addRow("empty") << u"   "_s << QString();
    QTest::addRow("only exclusions") << u"-dog"_s << QString();
    QTest::addRow("CJK") << u"全文検索"_s << u"\"全文検索\""_s;
}

void TestSearchIndex::ftsQuery()
{
    QFETCH(QString, query);
    QFETCH(QString, expression);
    QCOMPARE(SearchIndex::ftsQuery(query), expression);
}

void TestSearchIndex::oddQueriesDoNotFail_data()
{
    QTest::addColumn<QString>("query");
    for (const QString &q : {u"\"unbalanced"_s, u"AND OR NOT"_s, u"*"_s, u"-"_s, u"a-b-c"_s, u"c++"_s, u"std::vector<int>"_s,
                             u"\"\""_s, u"(x"_s, u"NEAR"_s, u"^start"_s, u"ü"_s, u"😀"_s})
        QTest::addRow("%s", qPrintable(q)) << q;
}

void TestSearchIndex::oddQueriesDoNotFail()
{
    QFETCH(QString, query);
    QTemporaryDir dir;
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    const Session s = makeSession(u"odd"_s);
    QVERIFY(index.indexSession(u"test"_s, s, messagesOf(s, {u"a-b-c c++ std::vector<int> ü 😀 NEAR start"_s})));
    const Result<QList<SearchHit>> hits = index.search(query);
    QVERIFY2(hits, qPrintable(hits ? QString() : hits.error().toString()));
}

void TestSearchIndex::ranking()
{
    QTemporaryDir dir;
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    QCOMPARE(index.tokenizer(), u"weft"_s);
    const Session titled = makeSession(u"Tokenizer rewrite"_s);
    const Session dense = makeSession(u"Notes"_s);
    const Session sparse = makeSession(u"Other"_s);
    QString filler;
    for (int i = 0; i < 200; ++i)
        filler += u"lorem ipsum dolor sit amet "_s;
    QVERIFY(index.indexSession(u"test"_s, titled, messagesOf(titled, {u"nothing to see"_s})));
    QVERIFY(index.indexSession(u"test"_s, dense, messagesOf(dense, {u"tokenizer tokenizer: the tokenizer splits words"_s})));
    QVERIFY(index.indexSession(u"test"_s, sparse, messagesOf(sparse, {filler + u"tokenizer "_s + filler})));
    const Result<QList<SearchHit>> hits = index.search(u"tokenizer"_s);
    QVERIFY(hits);
    QCOMPARE(hits->size(), 3);
    // Titles weigh most, then dense short texts, then a mention in a long text.
    QCOMPARE(hits->at(0).sessionID, titled.id());
    QCOMPARE(hits->at(0).kind, u"title"_s);
    QVERIFY(hits->at(0).messageID.isEmpty());
    QCOMPARE(hits->at(1).sessionID, dense.id());
    QCOMPARE(hits->at(2).sessionID, sparse.id());
    QVERIFY(hits->at(0).rank <= hits->at(1).rank && hits->at(1).rank <= hits->at(2).rank);
    QCOMPARE(hits->at(1).sessionTitle, u"Notes"_s);
    QVERIFY(!hits->at(1).partID.isEmpty());
    // Paging.
    SearchOptions page;
    page.limit = 1;
    page.offset = 1;
    QCOMPARE(index.search(u"tokenizer"_s, page)->first().sessionID, dense.id());
}

void TestSearchIndex::snippets_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("query");
    QTest::addColumn<QStringList>("highlights");
    // Checked against the text: terms of several tokens (the index keeps no positions).
    QTest::addColumn<bool>("checked");
    QTest::addRow("English") << u"The quick brown fox jumps over the lazy dog"_s << u"lazy"_s << QStringList{u"lazy"_s} << false;
    QTest::addRow("case kept") << u"Qt 6 と SQLite で実装します"_s << u"sqlite"_s << QStringList{u"SQLite"_s} << false;
    QTest::addRow("phrase") << u"The quick brown fox jumps"_s << u"\"brown fox\""_s << QStringList{u"brown fox"_s} << true;
    QTest::addRow("two words") << u"The quick brown fox jumps"_s << u"fox quick"_s << QStringList{u"quick"_s, u"fox"_s} << false;
    QTest::addRow("Japanese two characters") << u"全文検索のテストです。"_s << u"検索"_s << QStringList{u"検索"_s} << false;
    QTest::addRow("Japanese one character") << u"全文検索のテストです。"_s << u"検"_s << QStringList{u"検"_s} << false;
    QTest::addRow("Japanese katakana") << u"全文検索のテストです。"_s << u"テスト"_s << QStringList{u"テスト"_s} << true;
    QTest::addRow("Chinese three characters") << u"中文回复：数据库已经准备好了。"_s << u"数据库"_s << QStringList{u"数据库"_s} << true;
    QTest::addRow("Chinese whole run") << u"中文回复：数据库已经准备好了。"_s << u"已经准备好了"_s << QStringList{u"已经准备好了"_s} << true;
}

void TestSearchIndex::snippets()
{
    QFETCH(QString, text);
    QFETCH(QString, query);
    QFETCH(QStringList, highlights);
    QFETCH(bool, checked);
    QTemporaryDir dir;
    // The index keeps no text: snippets are made from the store's.
    auto opened = OpencodeDataDir::open(dir.filePath(u"weft"_s), true);
    QVERIFY(opened);
    Store &store = *opened->store;
    const QString source = SearchIndex::sourceKey(store);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    index.addStore(opened->store);
    const Session s = makeSession(u"untitled"_s);
    const QList<MessageWithParts> messages = messagesOf(s, {text});
    writeInto(store, s, messages);
    QVERIFY(index.indexSession(source, s, messages));
    const Result<QList<SearchHit>> hits = index.search(query);
    QVERIFY(hits);
    QCOMPARE(hits->size(), 1);
    QCOMPARE(hits->first().snippet, text);
    QCOMPARE(highlighted(hits->first()), highlights);
    QCOMPARE(hits->first().markedSnippet(u"["_s, u"]"_s).count(u'['), highlights.size());

    // In a long text the snippet is a window around the match.
    QString longText;
    for (int i = 0; i < 100; ++i)
        longText += u"filler%1 "_s.arg(i);
    const Session l = makeSession(u"long"_s);
    const QList<MessageWithParts> longMessages = messagesOf(l, {longText + text});
    writeInto(store, l, longMessages);
    QVERIFY(index.indexSession(source, l, longMessages));
    SearchOptions options;
    options.sessionID = l.id();
    const Result<QList<SearchHit>> windowed = index.search(query, options);
    QVERIFY(windowed);
    QCOMPARE(windowed->size(), 1);
    QVERIFY(windowed->first().snippet.startsWith(u"…"));
    QVERIFY(windowed->first().snippet.size() < longText.size());
    QCOMPARE(highlighted(windowed->first()), highlights);

    // A text changed in the store since it was indexed: its start, without highlights; a hit
    // that is checked against its text is no hit any more.
    Part changed = longMessages.first().parts.first();
    changed.setText(u"rewritten meanwhile "_s + longText);
    QVERIFY(store.writePart(changed));
    const Result<QList<SearchHit>> stale = index.search(query, options);
    QVERIFY(stale);
    if (checked) {
        QVERIFY(stale->isEmpty());
    } else {
        QCOMPARE(stale->size(), 1);
        QVERIFY(stale->first().snippet.startsWith(u"rewritten meanwhile filler0"));
        QVERIFY(stale->first().highlights.isEmpty());
    }
    // A source whose store the index does not know: the hit, without a snippet.
    const Session unknown = makeSession(u"elsewhere"_s);
    QVERIFY(index.indexSession(u"no store"_s, unknown, messagesOf(unknown, {text})));
    SearchOptions other;
    other.source = u"no store"_s;
    const Result<QList<SearchHit>> bare = index.search(query, other);
    QVERIFY(bare);
    QCOMPARE(bare->size(), 1);
    QVERIFY(bare->first().snippet.isEmpty());
}

void TestSearchIndex::termsAreCheckedAgainstTheText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("query");
    QTest::addColumn<bool>("hit");
    QTest::addRow("phrase, adjacent") << u"The quick brown fox jumps"_s << u"\"brown fox\""_s << true;
    QTest::addRow("phrase, apart") << u"The brown quick fox jumps"_s << u"\"brown fox\""_s << false;
    QTest::addRow("phrase, other order") << u"The fox brown jumps"_s << u"\"brown fox\""_s << false;
    QTest::addRow("hyphenated, adjacent") << u"see hand-named notes"_s << u"hand-named"_s << true;
    QTest::addRow("hyphenated, apart") << u"named by hand"_s << u"hand-named"_s << false;
    QTest::addRow("CJK word, adjacent") << u"中文回复：数据库已经准备好了。"_s << u"数据库"_s << true;
    QTest::addRow("CJK word, its bigrams apart") << u"数据很好，证据库也是。"_s << u"数据库"_s << false;
    QTest::addRow("excluded word, apart") << u"brown cat dog jumps"_s << u"jumps -brown-dog"_s << true;
    QTest::addRow("excluded word, present") << u"the brown-dog jumps"_s << u"jumps -brown-dog"_s << false;
    QTest::addRow("excluded CJK word, its bigrams apart") << u"数据很好，证据库也是。"_s << u"也是 -数据库"_s << true;
    QTest::addRow("excluded CJK word, present") << u"数据库也是。"_s << u"也是 -数据库"_s << false;
    QTest::addRow("phrase or word") << u"The brown quick fox jumps"_s << u"\"brown fox\" OR quick"_s << true;
}

void TestSearchIndex::termsAreCheckedAgainstTheText()
{
    QFETCH(QString, text);
    QFETCH(QString, query);
    QFETCH(bool, hit);
    // The index keeps no positions: a term of several tokens is asked as an AND of them and
    // checked against the store's text, in a search of every session and of one session.
    QTemporaryDir dir;
    auto opened = OpencodeDataDir::open(dir.filePath(u"weft"_s), true);
    QVERIFY(opened);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    index.addStore(opened->store);
    const Session s = makeSession(u"untitled"_s);
    const QList<MessageWithParts> messages = messagesOf(s, {text});
    writeInto(*opened->store, s, messages);
    QVERIFY(index.indexSession(SearchIndex::sourceKey(*opened->store), s, messages));
    const Result<QList<SearchHit>> all = index.search(query);
    QVERIFY(all);
    QCOMPARE(all->size(), hit ? 1 : 0);
    const Result<QList<SearchHit>> one = index.searchSession(query, SearchIndex::sourceKey(*opened->store), s.id());
    QVERIFY(one);
    QCOMPARE(one->size(), hit ? 1 : 0);
    if (hit)
        QVERIFY(!all->first().snippet.isEmpty());
}

void TestSearchIndex::pagesAreFullWhenCandidatesFail()
{
    // More candidates than a rank window, most of them failing the check (the words apart,
    // and shorter: ranked before the true hits), the true ones spread over both windows.
    QTemporaryDir dir;
    auto opened = OpencodeDataDir::open(dir.filePath(u"weft"_s), true);
    QVERIFY(opened);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    index.addStore(opened->store);
    QStringList texts;
    QSet<int> trueOnes;
    for (int i = 0; i < SearchIndex::RankWindow + 200; ++i) {
        if (i % 40 == 7) {
            trueOnes.insert(i);
            texts.append(u"number %1 has alpha beta together in it"_s.arg(i));
        } else {
            texts.append(u"beta alpha %1"_s.arg(i));
        }
    }
    const Session s = makeSession(u"untitled"_s);
    const QList<MessageWithParts> messages = messagesOf(s, texts);
    writeInto(*opened->store, s, messages);
    QVERIFY(index.indexSession(SearchIndex::sourceKey(*opened->store), s, messages));
    QSet<QString> seen;
    const int pageSize = 10;
    for (int offset = 0;; offset += pageSize) {
        SearchOptions page;
        page.limit = pageSize;
        page.offset = offset;
        const Result<QList<SearchHit>> hits = index.search(u"\"alpha beta\""_s, page);
        QVERIFY(hits);
        for (const SearchHit &hit : hits.value()) {
            QVERIFY(hit.snippet.contains(u"alpha beta"_s));
            QVERIFY(!seen.contains(hit.partID));
            seen.insert(hit.partID);
        }
        if (hits->size() < pageSize) {
            QCOMPARE(offset + hits->size(), trueOnes.size()); // only the last page is short
            break;
        }
    }
    QCOMPARE(seen.size(), trueOnes.size());
    SearchOptions every;
    every.limit = -1;
    QCOMPARE(index.search(u"\"alpha beta\""_s, every)->size(), trueOnes.size());
}

void TestSearchIndex::syncJsonStore()
{
    QTemporaryDir dir;
    weft::test::FixtureDataDir data;
    auto opened = OpencodeDataDir::open(data.path(), false);
    QVERIFY(opened);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    Result<SearchIndex::SyncStats> first = index.sync(*opened->store);
    QVERIFY(first);
    QCOMPARE(first->sessions, 6);
    QCOMPARE(first->indexed, 6);
    QVERIFY(first->documents > 50);
    SearchOptions options;
    options.source = SearchIndex::sourceKey(*opened->store);
    // A tool output (bash), a file name, a title, a compaction summary.
    const auto hello = index.search(u"hello.py"_s, options);
    QVERIFY(hello && !hello->isEmpty());
    QVERIFY(kindsOf(hello.value()).contains(u"tool"_s));
    QCOMPARE(index.search(u"\"Hand-named session\""_s, options)->first().kind, u"title"_s);
    QVERIFY(!index.search(u"summary created notes.md"_s, options)->isEmpty());

    Result<SearchIndex::SyncStats> second = index.sync(*opened->store);
    QVERIFY(second);
    QCOMPARE(second->indexed, 0); // nothing changed
    SessionService service(opened->store);
    QVERIFY(service.remove(u"ses_dff05751fffexgWr6MRybGFAXU"_s)); // with its child
    Result<SearchIndex::SyncStats> third = index.sync(*opened->store);
    QVERIFY(third);
    QCOMPARE(third->removed, 2);
    QVERIFY(index.search(u"\"Hand-named session\""_s, options)->isEmpty());
    QCOMPARE(index.documentCount(options.source), third->documents);
}

void TestSearchIndex::syncOpencodeDatabase_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QStringList>("sessions");
    QTest::addColumn<QString>("kind");
    QTest::addRow("Japanese text") << u"検索"_s << QStringList{RealMain, RealFork} << u"text"_s;
    QTest::addRow("Chinese text and tool input") << u"数据库"_s << QStringList{RealMain, RealFork} << u"tool"_s;
    QTest::addRow("bash output") << u"hello-from-bash"_s << QStringList{RealMain} << u"tool"_s;
    QTest::addRow("tool error") << u"\"File not found\""_s << QStringList{RealMain} << u"tool"_s;
    QTest::addRow("reasoning") << u"用户想要"_s << QStringList{RealMain} << u"reasoning"_s;
    QTest::addRow("title") << u"手动命名"_s << QStringList{RealNamed} << u"title"_s;
    QTest::addRow("file path of a patch") << u"notes.md"_s << QStringList{RealMain, RealFork} << u"patch"_s;
    QTest::addRow("compaction summary") << u"要約"_s << QStringList{RealCompacted} << u"text"_s;
}

void TestSearchIndex::syncOpencodeDatabase()
{
    QFETCH(QString, query);
    QFETCH(QStringList, sessions);
    QFETCH(QString, kind);
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir);
    const auto store = OpencodeDbStore::open(data + u"/opencode.db"_s);
    QVERIFY(store);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"weft/search.db"_s)));
    index.addStore(store.value());
    const Result<SearchIndex::SyncStats> stats = index.sync(*store.value());
    QVERIFY(stats);
    QCOMPARE(stats->indexed, 7);
    const Result<QList<SearchHit>> hits = index.search(query, {SearchIndex::sourceKey(*store.value()), {}, 100, 0, SearchOptions::Order::Rank});
    QVERIFY(hits);
    QVERIFY2(!hits->isEmpty(), qPrintable(query));
    const QSet<QString> found = sessionsOf(hits.value());
    for (const QString &s : std::as_const(sessions))
        QVERIFY2(found.contains(s), qPrintable(s));
    QVERIFY2(kindsOf(hits.value()).contains(kind), qPrintable(QStringList(kindsOf(hits.value()).values()).join(u',')));
    for (const SearchHit &h : hits.value())
        QVERIFY(!h.highlights.isEmpty());
    QCOMPARE(index.sync(*store.value())->indexed, 0); // stamps unchanged
}

void TestSearchIndex::timelineOrderInOneSession()
{
    QTemporaryDir dir;
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    const Session s = makeSession(u"alpha session"_s);
    const QList<MessageWithParts> messages = messagesOf(s, {u"alpha one"_s, u"nothing"_s, u"alpha alpha alpha two"_s, u"alpha three"_s});
    QVERIFY(index.indexSession(u"test"_s, s, messages));
    const Session other = makeSession(u"other"_s);
    QVERIFY(index.indexSession(u"test"_s, other, messagesOf(other, {u"alpha elsewhere"_s})));
    const Result<QList<SearchHit>> hits = index.searchSession(u"alpha"_s, u"test"_s, s.id());
    QVERIFY(hits);
    QCOMPARE(hits->size(), 4); // the title, then three messages in their order (not by rank)
    QCOMPARE(hits->at(0).kind, u"title"_s);
    QCOMPARE(hits->at(1).messageID, messages.at(0).info.id());
    QCOMPARE(hits->at(2).messageID, messages.at(2).info.id());
    QCOMPARE(hits->at(3).messageID, messages.at(3).info.id());
    SearchNavigator navigator(hits.value());
    QCOMPARE(navigator.next()->kind, u"title"_s);
    QCOMPARE(navigator.seek(messages.at(1).info.id(), messages.at(1).info.created())->messageID, messages.at(2).info.id());
    QCOMPARE(navigator.next()->messageID, messages.at(3).info.id());
}

void TestSearchIndex::followsSessionService()
{
    QTemporaryDir dir;
    auto opened = OpencodeDataDir::open(dir.filePath(u"weft"_s), true);
    QVERIFY(opened);
    SessionService service(opened->store);
    SearchIndex index;
    QVERIFY(index.open(SearchIndex::defaultFile(opened->path)));
    QSignalSpy updated(&index, &SearchIndex::updated);
    index.addSource(&service);
    QVERIFY(index.waitForIdle());
    const QString source = SearchIndex::sourceKey(*opened->store);
    auto count = [&](const QString &q) {
        SearchOptions o;
        o.source = source;
        const auto hits = index.search(q, o);
        return hits ? hits->size() : -1;
    };

    SessionService::CreateOptions create;
    create.directory = dir.path();
    create.title = u"Live 検索 session"_s;
    const Result<Session> session = service.create(create);
    QVERIFY(session);
    const Message message = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), session->id(),
                                              QDateTime::currentMSecsSinceEpoch(), u"build"_s, u"p"_s, u"m"_s);
    QVERIFY(service.updateMessage(message));
    Part part = Part::makeText(Identifier::ascending(Identifier::Kind::Part), session->id(), message.id(), u"stream"_s);
    QVERIFY(service.updatePart(part));
    for (const QString &more : {u"ing text"_s, u" about zephyr"_s}) {
        part.setText(part.text() + more);
        QVERIFY(service.updatePart(part, more));
    }
    QVERIFY(index.waitForIdle());
    QCOMPARE(count(u"検索"_s), 1);
    QCOMPARE(count(u"zephyr"_s), 1);
    QCOMPARE(count(u"streaming"_s), 1);
    QTRY_VERIFY(updated.count() >= 1);

    part.setText(u"rewritten completely"_s);
    QVERIFY(service.updatePart(part));
    QVERIFY(index.waitForIdle());
    QCOMPARE(count(u"zephyr"_s), 0);
    QCOMPARE(count(u"rewritten"_s), 1);
    QVERIFY(service.removePart(session->id(), message.id(), part.id()));
    QVERIFY(index.waitForIdle());
    QCOMPARE(count(u"rewritten"_s), 0);
    QVERIFY(service.rename(session->id(), u"Renamed zebra"_s));
    QVERIFY(index.waitForIdle());
    QCOMPARE(count(u"検索"_s), 0);
    QCOMPARE(count(u"zebra"_s), 1);
    QVERIFY(service.remove(session->id()));
    QVERIFY(index.waitForIdle());
    QCOMPARE(count(u"zebra"_s), 0);
    QCOMPARE(index.documentCount(source), 0);
}

void TestSearchIndex::followsOpencodeDatabase()
{
    // OpenCode writes; the service announces what its watcher finds; the index follows it.
    QTemporaryDir dir;
    const QString file = dir.filePath(u"opencode/opencode.db"_s);
    QDir().mkpath(dir.filePath(u"opencode"_s));
    weft::test::TestDb db(file);
    QVERIFY(db.loadStorage(weft::test::fixtureDir() + u"/storage"_s));
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    SessionService service(store.value());
    QSignalSpy started(&service, &SessionService::watchingStarted);
    service.startWatching();
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"weft/search.db"_s)));
    index.addSource(&service);
    QVERIFY(index.waitForIdle());
    QVERIFY(started.wait(5000));
    QCOMPARE(index.search(u"hello.py"_s)->isEmpty(), false);
    QVERIFY(index.search(u"quetzalcoatl"_s)->isEmpty());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const Part part = Part::makeText(u"prt_300000000001AAAAAAAAAAAAAA"_s, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s,
                                     u"msg_200fa80b3001AJYH04E0DKrTiZ"_s, u"a new word: quetzalcoatl 羽蛇神"_s);
    QVERIFY(db.insertPart(part.json(), now));
    QTRY_VERIFY_WITH_TIMEOUT(index.waitForIdle() && !index.search(u"quetzalcoatl"_s)->isEmpty(), 5000);
    const SearchHit hit = index.search(u"羽蛇"_s)->first();
    QCOMPARE(hit.sessionID, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s);
    QCOMPARE(hit.partID, part.id());
    QCOMPARE(hit.source, store.value()->location());
}

void TestSearchIndex::rebuild()
{
    QTemporaryDir dir;
    weft::test::FixtureDataDir data;
    auto opened = OpencodeDataDir::open(data.path(), false);
    QVERIFY(opened);
    SessionService service(opened->store);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    index.addSource(&service);
    QVERIFY(index.waitForIdle());
    const qint64 documents = index.documentCount();
    const QList<SearchHit> before = index.search(u"hello"_s, {{}, {}, 500, 0, SearchOptions::Order::Rank}).value();
    QSignalSpy progress(&index, &SearchIndex::progress);
    index.rebuild();
    QVERIFY(index.waitForIdle());
    QCOMPARE(index.documentCount(), documents);
    const QList<SearchHit> after = index.search(u"hello"_s, {{}, {}, 500, 0, SearchOptions::Order::Rank}).value();
    QCOMPARE(after.size(), before.size());
    QTRY_VERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(0).toInt(), 6);
}

void TestSearchIndex::sourcesAreKeptApart()
{
    QTemporaryDir dir;
    weft::test::FixtureDataDir a, b;
    auto storeA = OpencodeDataDir::open(a.path(), false);
    auto storeB = OpencodeDataDir::open(b.path(), false);
    QVERIFY(storeA && storeB);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    QVERIFY(index.sync(*storeA->store));
    QVERIFY(index.sync(*storeB->store));
    const auto all = index.search(u"\"Hand-named session\""_s);
    QVERIFY(all);
    QCOMPARE(all->size(), 2); // the same session in two sources
    QVERIFY(all->at(0).source != all->at(1).source);
    SearchOptions onlyB;
    onlyB.source = SearchIndex::sourceKey(*storeB->store);
    const auto fromB = index.search(u"\"Hand-named session\""_s, onlyB);
    QCOMPARE(fromB->size(), 1);
    QCOMPARE(fromB->first().source, onlyB.source);
    QVERIFY(index.clear(onlyB.source));
    QCOMPARE(index.search(u"\"Hand-named session\""_s)->size(), 1);
}

void TestSearchIndex::reopenKeepsOrEmpties()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"search.db"_s);
    qint64 documents = 0;
    {
        SearchIndex index;
        QVERIFY(index.open(file));
        const Session s = makeSession(u"persisted"_s);
        QVERIFY(index.indexSession(u"test"_s, s, messagesOf(s, {u"kept across restarts"_s})));
        documents = index.documentCount();
        QCOMPARE(documents, 2);
    }
    {
        SearchIndex index;
        QVERIFY(index.open(file));
        QCOMPARE(index.documentCount(), documents);
        QCOMPARE(index.search(u"restarts"_s)->size(), 1);
    }
    {
        // An index made with another tokenizer (another build) is emptied, not misread.
        QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"raw"_s);
        raw.setDatabaseName(file);
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec(u"UPDATE meta SET value = 'trigram' WHERE key = 'tokenizer'"_s));
        raw.close();
    }
    QSqlDatabase::removeDatabase(u"raw"_s);
    SearchIndex index;
    QVERIFY(index.open(file));
    QCOMPARE(index.documentCount(), 0);
    QVERIFY(index.search(u"restarts"_s)->isEmpty());
}

void TestSearchIndex::olderLayoutIsMadeAgain()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"search.db"_s);
    {
        // An index of Weft 0.x (schema 1): FTS5 kept the text, every document its source's path.
        QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"old"_s);
        raw.setDatabaseName(file);
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        for (const QString &sql : {u"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"_s,
                                   u"INSERT INTO meta VALUES('schema', '1'), ('tokenizer', 'weft')"_s,
                                   u"CREATE TABLE session(source TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL DEFAULT '', "
                                   u"directory TEXT NOT NULL DEFAULT '', created INTEGER NOT NULL DEFAULT 0, updated INTEGER NOT NULL DEFAULT 0, "
                                   u"stamp INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(source, id)) WITHOUT ROWID"_s,
                                   u"CREATE TABLE doc(id INTEGER PRIMARY KEY, source TEXT NOT NULL, session_id TEXT NOT NULL, "
                                   u"message_id TEXT NOT NULL, part_id TEXT NOT NULL, kind TEXT NOT NULL, time INTEGER NOT NULL)"_s,
                                   u"CREATE VIRTUAL TABLE fts USING fts5(title, body)"_s,
                                   u"INSERT INTO session VALUES('/old', 'ses_old', 'Old title', '/', 1, 1, 1)"_s,
                                   u"INSERT INTO doc VALUES(1, '/old', 'ses_old', 'msg_old', 'prt_old', 'text', 1)"_s,
                                   u"INSERT INTO fts(rowid, title, body) VALUES(1, '', 'oldword kept in the old layout')"_s})
            QVERIFY2(q.exec(sql), qPrintable(q.lastError().text()));
        raw.close();
    }
    QSqlDatabase::removeDatabase(u"old"_s);

    weft::test::FixtureDataDir data;
    auto opened = OpencodeDataDir::open(data.path(), false);
    QVERIFY(opened);
    {
        SearchIndex index;
        QVERIFY(index.open(file));
        // Made again, empty, in the new layout: nothing of the old one is read or mixed in.
        QCOMPARE(index.documentCount(), 0);
        QVERIFY(index.search(u"oldword"_s)->isEmpty());
        index.addStore(opened->store);
        const Result<SearchIndex::SyncStats> synced = index.sync(*opened->store);
        QVERIFY(synced);
        QCOMPARE(synced->indexed, 6);
        const auto hits = index.search(u"\"Hand-named session\""_s);
        QVERIFY(hits);
        QCOMPARE(hits->size(), 1);
        QCOMPARE(hits->first().snippet, u"Hand-named session"_s);
    }
    QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"new"_s);
    raw.setDatabaseName(file);
    QVERIFY(raw.open());
    {
        QSqlQuery q(raw);
        QVERIFY(q.exec(u"SELECT value FROM meta WHERE key = 'schema'"_s) && q.next());
        QCOMPARE(q.value(0).toInt(), SearchIndex::SchemaVersion);
        // No copy of the text (a contentless FTS5 table), no old tables left.
        QVERIFY(q.exec(u"SELECT group_concat(name) FROM sqlite_schema WHERE name IN ('fts_content', 'doc_key')"_s) && q.next());
        QVERIFY(q.value(0).isNull());
        QVERIFY(q.exec(u"SELECT count(*) FROM session WHERE sid = 'ses_old'"_s) && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(q.exec(u"SELECT count(*) FROM source"_s) && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
    }
    raw.close();
    raw = QSqlDatabase();
    QSqlDatabase::removeDatabase(u"new"_s);
}

void TestSearchIndex::outputsAreCappedAndCountedOnce()
{
    QString output = u"first line\n"_s;
    for (int i = 0; i < 5000; ++i)
        output += u"line %1\n"_s.arg(i);
    output += u"last line\n"_s;
    const Message m = Message::makeUser(u"msg_200fa7fcc001NaVRZuu17qcTE4"_s, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s, 5, u"build"_s, u"p"_s, u"m"_s);
    auto toolPart = [&](const QString &id, const QString &out) {
        Part p = Part::make(id, m.sessionID(), m.id(), PartType::Tool);
        p.json().insert(u"tool"_s, u"bash"_s);
        p.setState(ToolState::completed(JsonObject{{u"command"_s, u"make check"_s}}, out, u"checks"_s, {}, 1, 2));
        return p;
    };
    const QList<Part> parts{toolPart(u"prt_200fa7fcc002SWWB8daGMkkVN1"_s, output), toolPart(u"prt_200fa7fcc002SWWB8daGMkkVN2"_s, output),
                            toolPart(u"prt_200fa7fcc002SWWB8daGMkkVN3"_s, u"other"_s)};
    QSet<size_t> seen;
    const QList<SearchDocument> docs = SearchIndex::documents(m, parts, &seen);
    QCOMPARE(docs.size(), 3);
    // The first: the output's start and end, capped.
    QVERIFY(docs.at(0).text.contains(u"first line"));
    QVERIFY(docs.at(0).text.contains(u"last line"));
    QVERIFY(!docs.at(0).text.contains(u"line 2500\n"));
    QVERIFY(docs.at(0).text.size() < SearchIndex::ToolOutputHead + SearchIndex::ToolOutputTail + 200);
    // The same output again: the call (tool, input) without it.
    QVERIFY(docs.at(1).text.contains(u"make check"));
    QVERIFY(!docs.at(1).text.contains(u"first line"));
    QVERIFY(docs.at(2).text.contains(u"other"));
    // Without outputs: the call only.
    const QList<SearchDocument> without = SearchIndex::documents(m, parts, nullptr, false);
    QVERIFY(without.at(0).text.contains(u"make check"));
    QVERIFY(!without.at(0).text.contains(u"first line"));
    QVERIFY(!without.at(2).text.contains(u"other"));
}

void TestSearchIndex::runsAsAGuest()
{
#ifndef Q_OS_LINUX
    QSKIP("thread priorities are set on Linux");
#else
    QTemporaryDir dir;
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"search.db"_s)));
    const qint64 tid = index.threadId();
    QVERIFY(tid > 0);
    QVERIFY(tid != qint64(syscall(SYS_gettid)));
    QFile stat(u"/proc/self/task/%1/stat"_s.arg(tid));
    QVERIFY(stat.open(QIODevice::ReadOnly));
    const QByteArray line = stat.readAll();
    // After the command name in parentheses: state is field 3, nice field 19.
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    QCOMPARE(fields.value(19 - 3).toInt(), 19);
    QCOMPARE(getpriority(PRIO_PROCESS, id_t(tid)), 19);
    // The idle I/O class (3) in the bits above 13 of the thread's I/O priority.
    const long ioprio = syscall(SYS_ioprio_get, 1, tid);
    QCOMPARE(ioprio >> 13, 3);
#endif
}

void TestSearchIndex::pausesWhileBusy()
{
    QTemporaryDir dir;
    const QString file = manySessions(dir, 150);
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    SessionService service(store.value());
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"weft/search.db"_s)));
    index.pause(u"typing"_s);
    QVERIFY(index.isPaused());
    index.addSource(&service);
    // The sync waits before it lists the sessions (the heaviest read of a large database).
    QTRY_VERIFY_WITH_TIMEOUT(index.isWaiting(), 20000);
    QCOMPARE(hitsOf(index, u"common"_s), 0);
    QCOMPARE(index.progressNow().done, 0);
    QCOMPARE(index.progressNow().total, 0);
    index.pause(u"run ses_1"_s);
    index.resume(u"typing"_s);
    QVERIFY(index.isPaused()); // a run still streams
    QVERIFY(index.isWaiting());
    QCOMPARE(hitsOf(index, u"common"_s), 0);
    index.resume(u"run ses_1"_s);
    QVERIFY(!index.isPaused());
    QVERIFY(index.waitForIdle());
    QCOMPARE(hitsOf(index, u"common"_s), 150);
    QCOMPARE(index.progressNow().done, 150);
    const auto status = index.status(*store.value());
    QVERIFY(status);
    QCOMPARE(status->indexed, 150);
    QCOMPARE(status->sessions, 150);

    // A source removed while its sync waits: the sync stops, the removal returns.
    SearchIndex second;
    QVERIFY(second.open(dir.filePath(u"second.db"_s)));
    second.pause(u"typing"_s);
    second.addSource(&service);
    QTRY_VERIFY_WITH_TIMEOUT(second.isWaiting(), 20000);
    second.removeSource(&service);
    QVERIFY(!second.isWaiting());
    QVERIFY(second.waitForIdle(20000));
    QVERIFY(second.isPaused());

    // An index that closes while paused stops at once.
    auto third = std::make_unique<SearchIndex>();
    QVERIFY(third->open(dir.filePath(u"third.db"_s)));
    third->pause(u"typing"_s);
    third->addSource(&service);
    QTRY_VERIFY_WITH_TIMEOUT(third->isWaiting(), 20000);
    third.reset();
}

void TestSearchIndex::answersWhileSyncingAndResumesAfterRestart()
{
    QTemporaryDir dir;
    const QString file = manySessions(dir, 150);
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    const QString indexFile = dir.filePath(u"weft/search.db"_s);
    {
        SearchIndex index;
        QVERIFY(index.open(indexFile));
        QList<int> found;
        // Stopped after the first batch, as a killed process would be.
        const auto stats = index.sync(*store.value(), {}, false, [&](int done, int total) {
            found.append(hitsOf(index, u"common"_s));
            return done == 0 && total == 150;
        });
        QVERIFY(stats);
        QVERIFY(stats->stopped);
        QCOMPARE(stats->indexed, 64);
        QCOMPARE(found, (QList<int>{0, 64})); // what is indexed so far is found
        const auto status = index.status(*store.value());
        QCOMPARE(status->indexed, 64);
        QCOMPARE(status->sessions, 150);
        QVERIFY(status->bytes > 0);
    }
    SearchIndex index;
    QVERIFY(index.open(indexFile));
    QCOMPARE(hitsOf(index, u"common"_s), 64);
    const auto stats = index.sync(*store.value());
    QVERIFY(stats);
    QCOMPARE(stats->indexed, 150 - 64); // goes on, does not start over
    QCOMPARE(hitsOf(index, u"common"_s), 150);
}

void TestSearchIndex::limits()
{
    QTemporaryDir dir;
    const QString file = manySessions(dir, 40);
    const auto store = OpencodeDbStore::open(file);
    QVERIFY(store);
    SearchIndex index;
    QVERIFY(index.open(dir.filePath(u"weft/search.db"_s)));
    SearchIndex::Limits limits;
    limits.projects = {u"/home/dev/alpha/"_s};
    index.setLimits(limits);
    auto stats = index.sync(*store.value());
    QVERIFY(stats);
    QCOMPARE(stats->sessions, 20);
    QCOMPARE(hitsOf(index, u"common alpha"_s), 20);
    QCOMPARE(hitsOf(index, u"common beta"_s), 0);

    limits = {};
    limits.excludedProjects = {u"/home/dev/alpha"_s};
    index.setLimits(limits);
    stats = index.sync(*store.value());
    QCOMPARE(stats->removed, 20);
    QCOMPARE(stats->indexed, 20);
    QCOMPARE(hitsOf(index, u"common alpha"_s), 0);
    QCOMPARE(hitsOf(index, u"common beta"_s), 20);
    QCOMPARE(hitsOf(index, u"outputword"_s), 20);

    limits = {};
    limits.maxAgeDays = 10; // sessions 0 to 9
    limits.toolOutputs = false;
    index.setLimits(limits);
    stats = index.sync(*store.value());
    QCOMPARE(stats->sessions, 10);
    QCOMPARE(stats->indexed, 10); // outputs off: every admitted session is read again
    QCOMPARE(hitsOf(index, u"common"_s), 10);
    QCOMPARE(hitsOf(index, u"word3"_s), 1);
    QCOMPARE(hitsOf(index, u"word12"_s), 0);
    QCOMPARE(hitsOf(index, u"outputword"_s), 0);
    QCOMPARE(index.sync(*store.value())->indexed, 0);
}

QTEST_GUILESS_MAIN(TestSearchIndex)
#include "tst_searchindex.moc"
