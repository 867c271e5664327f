// SPDX-License-Identifier: GPL-3.0-or-later
// SearchTokenizer: words for scripts with spaces, character bigrams (plus unigrams) for
// Chinese, Japanese and Korean, and what that finds in an FTS5 table.

#include "search/searchindex.h"
#include "search/searchtokenizer.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

class TestSearchTokenizer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void tokens_data();
    void tokens();
    void matching_data();
    void matching();
    void trigramMissesTwoCharacterWords();

private:
    QSqlDatabase m_db;
};

void TestSearchTokenizer::initTestCase()
{
    QVERIFY(SearchTokenizer::isAvailable());
    m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"tokenizer-test"_s);
    m_db.setDatabaseName(u":memory:"_s);
    QVERIFY(m_db.open());
    const Result<void> registered = SearchTokenizer::registerOn(m_db);
    QVERIFY2(registered, qPrintable(registered ? QString() : registered.error().toString()));
    QSqlQuery q(m_db);
    QVERIFY2(q.exec(u"CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'weft remove_diacritics 2')"_s), qPrintable(q.lastError().text()));
    const QStringList documents{
        u"全文検索のテストです"_s,     // 0 Japanese
        u"数据库测试"_s,               // 1 Chinese
        u"The database is ready"_s,    // 2 English
        u"テストケースを追加しました"_s, // 3 Katakana
        u"搜索引擎"_s,                 // 4 Chinese
        u"검색어 테스트"_s,            // 5 Korean
        u"Qt 6 と SQLite で実装します"_s, // 6 mixed
    };
    for (int i = 0; i < documents.size(); ++i) {
        q.prepare(u"INSERT INTO t(rowid, body) VALUES(?, ?)"_s);
        q.addBindValue(i);
        q.addBindValue(documents.at(i));
        QVERIFY(q.exec());
    }
}

void TestSearchTokenizer::cleanupTestCase()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(u"tokenizer-test"_s);
}

void TestSearchTokenizer::tokens_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("query");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("English") << u"Hello, World!"_s << false << QStringList{u"hello"_s, u"world"_s};
    QTest::addRow("code") << u"src/main.cpp:42"_s << false << QStringList{u"src"_s, u"main"_s, u"cpp"_s, u"42"_s};
    QTest::addRow("diacritics") << u"Café déjà"_s << false << QStringList{u"cafe"_s, u"deja"_s};
    QTest::addRow("Japanese document") << u"全文検索"_s << false
                                       << QStringList{u"全文"_s, u"+全"_s, u"文検"_s, u"+文"_s, u"検索"_s, u"+検"_s, u"索"_s};
    QTest::addRow("Japanese query") << u"全文検索"_s << true << QStringList{u"全文"_s, u"文検"_s, u"検索"_s};
    QTest::addRow("one character query") << u"索"_s << true << QStringList{u"索"_s};
    QTest::addRow("one character document") << u"索"_s << false << QStringList{u"索"_s};
    QTest::addRow("mixed document") << u"Qt6と数据"_s << false
                                    << QStringList{u"qt6"_s, u"と数"_s, u"+と"_s, u"数据"_s, u"+数"_s, u"据"_s};
    QTest::addRow("punctuation ends a run") << u"日本。中国"_s << false
                                            << QStringList{u"日本"_s, u"+日"_s, u"本"_s, u"中国"_s, u"+中"_s, u"国"_s};
    QTest::addRow("Katakana query") << u"テスト"_s << true << QStringList{u"テス"_s, u"スト"_s};
    QTest::addRow("long vowel mark") << u"サーバー"_s << true << QStringList{u"サー"_s, u"ーバ"_s, u"バー"_s};
    QTest::addRow("Korean query") << u"검색어"_s << true << QStringList{u"검색"_s, u"색어"_s};
    QTest::addRow("Chinese with a space") << u"数据 库"_s << true << QStringList{u"数据"_s, u"库"_s};
}

void TestSearchTokenizer::tokens()
{
    QFETCH(QString, text);
    QFETCH(bool, query);
    QFETCH(QStringList, expected);
    QCOMPARE(SearchTokenizer::tokens(m_db, text, query), expected);
}

void TestSearchTokenizer::matching_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QList<int>>("rows");
    QTest::addRow("two characters inside a Japanese run") << u"検索"_s << QList<int>{0};
    QTest::addRow("a whole run") << u"全文検索"_s << QList<int>{0};
    QTest::addRow("one kanji") << u"検"_s << QList<int>{0};
    QTest::addRow("katakana word, two documents") << u"テスト"_s << QList<int>{0, 3};
    QTest::addRow("Chinese two characters") << u"数据"_s << QList<int>{1};
    QTest::addRow("Chinese across words") << u"据库"_s << QList<int>{1};
    QTest::addRow("Chinese whole run") << u"数据库测试"_s << QList<int>{1};
    QTest::addRow("one hanzi") << u"库"_s << QList<int>{1};
    QTest::addRow("shared character") << u"索"_s << QList<int>{0, 4};
    QTest::addRow("Chinese 搜索") << u"搜索"_s << QList<int>{4};
    QTest::addRow("Korean") << u"검색"_s << QList<int>{5};
    QTest::addRow("not contiguous") << u"検索テスト"_s << QList<int>{};
    QTest::addRow("two words, different scripts") << u"検索 テスト"_s << QList<int>{0};
    QTest::addRow("English word") << u"database"_s << QList<int>{2};
    QTest::addRow("English prefix") << u"data*"_s << QList<int>{2};
    QTest::addRow("case-insensitive") << u"DATABASE Ready"_s << QList<int>{2};
    QTest::addRow("phrase") << u"\"is ready\""_s << QList<int>{2};
    QTest::addRow("exclusion") << u"テスト -ケース"_s << QList<int>{0};
    QTest::addRow("OR") << u"database OR 数据库"_s << QList<int>{1, 2};
    QTest::addRow("mixed script document") << u"SQLite 実装"_s << QList<int>{6};
}

void TestSearchTokenizer::matching()
{
    QFETCH(QString, query);
    QFETCH(QList<int>, rows);
    const QString expression = SearchIndex::ftsQuery(query);
    QVERIFY(!expression.isEmpty());
    QSqlQuery q(m_db);
    q.prepare(u"SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid"_s);
    q.addBindValue(expression);
    QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
    QList<int> found;
    while (q.next())
        found.append(q.value(0).toInt());
    QCOMPARE(found, rows);
}

void TestSearchTokenizer::trigramMissesTwoCharacterWords()
{
    // Why Weft has its own tokenizer: FTS5's trigram tokenizer finds no two-character word,
    // and unicode61 finds no word inside a CJK run.
    QSqlQuery q(m_db);
    QVERIFY(q.exec(u"CREATE VIRTUAL TABLE tri USING fts5(body, tokenize = 'trigram')"_s));
    QVERIFY(q.exec(u"CREATE VIRTUAL TABLE uni USING fts5(body)"_s));
    QVERIFY(q.exec(u"INSERT INTO tri VALUES('全文検索のテストです')"_s));
    QVERIFY(q.exec(u"INSERT INTO uni VALUES('全文検索のテストです')"_s));
    QVERIFY(q.exec(u"SELECT count(*) FROM tri WHERE tri MATCH '\"検索\"'"_s) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    QVERIFY(q.exec(u"SELECT count(*) FROM uni WHERE uni MATCH '\"検索\"'"_s) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    QVERIFY(q.exec(u"SELECT count(*) FROM t WHERE t MATCH '\"検索\"'"_s) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
}

QTEST_GUILESS_MAIN(TestSearchTokenizer)
#include "tst_searchtokenizer.moc"
