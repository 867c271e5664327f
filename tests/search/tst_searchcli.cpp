// SPDX-License-Identifier: GPL-3.0-or-later
// `weft search`: headless search of a Weft data dir and of an OpenCode database data dir.

#include "core/json.h"
#include "testdata.h"
#include "testdb.h"
#include "weftrun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using weft::JsonArray;
using weft::JsonObject;
using weft::JsonValue;
using weft::test::WeftRun;

namespace
{
const QString Main = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
const QString Fork = u"ses_dfe96a47cffebQrgOF1KmVIxb2"_s;

JsonArray parseArray(const QByteArray &bytes)
{
    std::optional<JsonValue> v = weft::parseJson(bytes);
    return v ? v->toArray() : JsonArray();
}

QString copyRealFixture(const QTemporaryDir &dir)
{
    const QString target = dir.filePath(u"opencode"_s);
    QDir().mkpath(target);
    QFile::copy(weft::test::realFixtureDir() + u"/opencode.db"_s, target + u"/opencode.db"_s);
    QFile(target + u"/opencode.db"_s).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return target;
}
} // namespace

class TestSearchCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void jsonOnOpencodeDatabase_data();
    void jsonOnOpencodeDatabase();
    void textOutput();
    void oneSessionInTimelineOrder();
    void weftDataDirAndRebuild();
    void status();
    void errors_data();
    void errors();

private:
    weft::test::WeftRunner m_weft;
};

void TestSearchCli::initTestCase()
{
    QVERIFY2(QFileInfo(m_weft.binary()).isExecutable(), qPrintable(m_weft.binary()));
}

void TestSearchCli::jsonOnOpencodeDatabase_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("session");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("highlight");
    QTest::addRow("Japanese") << u"検索"_s << Main << u"text"_s << u"検索"_s;
    QTest::addRow("Chinese") << u"数据库"_s << Main << u"text"_s << u"数据库"_s;
    QTest::addRow("tool output") << u"hello-from-bash"_s << Main << u"tool"_s << u"hello-from-bash"_s;
    QTest::addRow("title") << u"手动命名"_s << u"ses_dfe96a380ffecLH5wa8iKO3NO1"_s << u"title"_s << u"手动命名"_s;
}

void TestSearchCli::jsonOnOpencodeDatabase()
{
    QFETCH(QString, query);
    QFETCH(QString, session);
    QFETCH(QString, kind);
    QFETCH(QString, highlight);
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir);
    const QStringList before = weft::test::entriesUnder(data);
    const WeftRun r = m_weft.run({u"--data-dir"_s, data, u"search"_s, query, u"--format"_s, u"json"_s, u"--limit"_s, u"0"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const JsonArray hits = parseArray(r.out);
    QVERIFY(!hits.isEmpty());
    bool found = false;
    for (const JsonValue &v : hits) {
        const JsonObject h = v.toObject();
        QVERIFY(h.contains(u"messageID") && h.contains(u"partID") && h.contains(u"sessionTitle") && h.contains(u"rank"));
        const JsonArray range = h.array(u"highlights").at(0).toArray();
        const QString marked = h.string(u"snippet").mid(range.at(0).toInteger(), range.at(1).toInteger());
        QCOMPARE(marked.toCaseFolded(), highlight.toCaseFolded());
        if (h.string(u"sessionID") == session && h.string(u"kind") == kind)
            found = true;
    }
    QVERIFY(found);
    // The index lives in Weft's data dir, never in OpenCode's.
    QVERIFY(QFile::exists(m_weft.defaultDataDir() + u"/search.db"_s));
    QStringList after = weft::test::entriesUnder(data);
    after.removeIf([](const QString &e) { return e.endsWith(u"-shm") || e.endsWith(u"-wal"); });
    QCOMPARE(after, before);
}

void TestSearchCli::textOutput()
{
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir);
    const WeftRun r = m_weft.run({u"--data-dir"_s, data, u"search"_s, u"数据库"_s});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(u"«数据库»"), r.out.constData()); // not a terminal: plain markers
    QVERIFY(out.contains(Main));
    QVERIFY(out.contains(u"Scripted: 全文検索のテストですQt 6 と SQLite"));
    const WeftRun none = m_weft.run({u"--data-dir"_s, data, u"search"_s, u"nothing-matches-this"_s});
    QCOMPARE(none.exitCode, 0);
    QCOMPARE(none.out, QByteArray("No matches.\n"));
    const WeftRun noneJson = m_weft.run({u"--data-dir"_s, data, u"search"_s, u"nothing-matches-this"_s, u"--format"_s, u"json"_s});
    QCOMPARE(noneJson.out, QByteArray("[]\n"));
}

void TestSearchCli::oneSessionInTimelineOrder()
{
    QTemporaryDir dir;
    const QString data = copyRealFixture(dir);
    const WeftRun r = m_weft.run({u"--data-dir"_s, data, u"search"_s, u"Done"_s, u"--session"_s, Main, u"--format"_s, u"json"_s, u"--limit"_s, u"0"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const JsonArray hits = parseArray(r.out);
    QCOMPARE(hits.size(), 3); // the three "Done. The tool said: ..." replies
    qint64 previous = 0;
    for (const JsonValue &v : hits) {
        QCOMPARE(v.toObject().string(u"sessionID"), Main);
        QVERIFY(v.toObject().integer(u"time") >= previous);
        previous = v.toObject().integer(u"time");
    }
}

void TestSearchCli::weftDataDirAndRebuild()
{
    weft::test::FixtureDataDir data;
    const WeftRun rebuild = m_weft.run({u"--data-dir"_s, data.path(), u"search"_s, u"--rebuild"_s});
    QVERIFY2(rebuild.exitCode == 0, rebuild.err.constData());
    QVERIFY(rebuild.err.contains("indexed 6 sessions"));
    QVERIFY(rebuild.out.isEmpty());
    QVERIFY(QFile::exists(data.path() + u"/search.db"_s)); // beside Weft's own data
    const WeftRun r = m_weft.run({u"--data-dir"_s, data.path(), u"search"_s, u"hello.py"_s, u"--format"_s, u"json"_s, u"--limit"_s, u"2"_s});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(parseArray(r.out).size(), 2);
    // A session removed since is gone from the next search.
    const WeftRun del = m_weft.run({u"--data-dir"_s, data.path(), u"session"_s, u"delete"_s, u"ses_dff05751fffexgWr6MRybGFAXU"_s});
    QCOMPARE(del.exitCode, 0);
    const WeftRun after = m_weft.run({u"--data-dir"_s, data.path(), u"search"_s, u"\"Hand-named session\""_s, u"--format"_s, u"json"_s});
    QCOMPARE(after.exitCode, 0);
    QCOMPARE(parseArray(after.out).size(), 0);
}

void TestSearchCli::status()
{
    weft::test::FixtureDataDir data;
    const WeftRun before = m_weft.run({u"--data-dir"_s, data.path(), u"search"_s, u"--status"_s});
    QVERIFY2(before.exitCode == 0, before.err.constData());
    QVERIFY2(before.out.startsWith("Indexed 0 of 6 sessions (0 documents"), before.out.constData());
    QVERIFY(m_weft.run({u"--data-dir"_s, data.path(), u"search"_s, u"--rebuild"_s}).exitCode == 0);
    const WeftRun after = m_weft.run({u"--data-dir"_s, data.path(), u"search"_s, u"--status"_s, u"--format"_s, u"json"_s});
    QCOMPARE(after.exitCode, 0);
    const JsonObject o = weft::parseJson(after.out)->toObject();
    QCOMPARE(o.integer(u"indexed"), 6);
    QCOMPARE(o.integer(u"sessions"), 6);
    QVERIFY(o.integer(u"documents") > 50);
    QVERIFY(o.integer(u"bytes") > 0);
    QCOMPARE(o.value(u"enabled").toBool(), true);
}

void TestSearchCli::errors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::addRow("no query") << QStringList{u"search"_s} << 2 << u"search needs a QUERY"_s;
    QTest::addRow("no words") << QStringList{u"search"_s, u"--"_s, u"-- **"_s} << 2 << u"the query has no words"_s;
    QTest::addRow("bad format") << QStringList{u"search"_s, u"x"_s, u"--format"_s, u"xml"_s} << 2 << u"unknown format"_s;
    QTest::addRow("bad limit") << QStringList{u"search"_s, u"x"_s, u"--limit"_s, u"many"_s} << 2 << u"--limit takes a number"_s;
    QTest::addRow("bad session") << QStringList{u"search"_s, u"x"_s, u"--session"_s, u"../etc"_s} << 2 << u"invalid session ID"_s;
}

void TestSearchCli::errors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    weft::test::FixtureDataDir data;
    const WeftRun r = m_weft.run(QStringList{u"--data-dir"_s, data.path()} + args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestSearchCli)
#include "tst_searchcli.moc"
