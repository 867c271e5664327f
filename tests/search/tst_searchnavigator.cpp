// SPDX-License-Identifier: GPL-3.0-or-later
// SearchNavigator: next and previous over the hits of one session, wrapping around, and
// "find from here".

#include "search/searchindex.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
/// Hits at messages m1..mN with times 10, 20, ...; "t" is the session title (no message).
QList<SearchHit> hits(const QStringList &messages)
{
    QList<SearchHit> result;
    for (const QString &m : messages) {
        SearchHit h;
        if (m != u"t") {
            h.messageID = m;
            h.time = m.mid(1).toLongLong() * 10;
        }
        h.kind = m == u"t" ? u"title"_s : u"text"_s;
        result.append(h);
    }
    return result;
}
} // namespace

class TestSearchNavigator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void steps_data();
    void steps();
    void empty();
};

void TestSearchNavigator::steps_data()
{
    QTest::addColumn<QStringList>("messages");
    QTest::addColumn<QStringList>("operations"); // n(ext), p(revious), s:<message>:<time>
    QTest::addColumn<QList<int>>("indexes");     // after each operation
    QTest::addRow("forward wraps") << QStringList{u"m1"_s, u"m2"_s, u"m3"_s} << QStringList{u"n"_s, u"n"_s, u"n"_s, u"n"_s}
                                   << QList<int>{0, 1, 2, 0};
    QTest::addRow("backward from the start wraps to the end") << QStringList{u"m1"_s, u"m2"_s, u"m3"_s} << QStringList{u"p"_s, u"p"_s, u"n"_s}
                                                              << QList<int>{2, 1, 2};
    QTest::addRow("seek a message with a hit") << QStringList{u"t"_s, u"m1"_s, u"m3"_s, u"m5"_s} << QStringList{u"s:m3:30"_s, u"n"_s}
                                               << QList<int>{2, 3};
    QTest::addRow("seek a message without a hit") << QStringList{u"t"_s, u"m1"_s, u"m3"_s, u"m5"_s} << QStringList{u"s:m4:40"_s, u"p"_s}
                                                  << QList<int>{3, 2};
    QTest::addRow("seek past the last hit wraps") << QStringList{u"m1"_s, u"m3"_s} << QStringList{u"s:m9:90"_s} << QList<int>{0};
    QTest::addRow("one hit") << QStringList{u"m1"_s} << QStringList{u"n"_s, u"n"_s, u"p"_s} << QList<int>{0, 0, 0};
}

void TestSearchNavigator::steps()
{
    QFETCH(QStringList, messages);
    QFETCH(QStringList, operations);
    QFETCH(QList<int>, indexes);
    SearchNavigator navigator(hits(messages));
    QCOMPARE(navigator.count(), messages.size());
    QCOMPARE(navigator.index(), -1);
    QVERIFY(!navigator.current());
    for (qsizetype i = 0; i < operations.size(); ++i) {
        const QString op = operations.at(i);
        const SearchHit *hit = nullptr;
        if (op == u"n") {
            hit = navigator.next();
        } else if (op == u"p") {
            hit = navigator.previous();
        } else {
            const QStringList parts = op.split(u':');
            hit = navigator.seek(parts.at(1), parts.at(2).toLongLong());
        }
        QVERIFY(hit);
        QCOMPARE(navigator.index(), indexes.at(i));
        QCOMPARE(hit, navigator.current());
        QCOMPARE(hit, &navigator.hits().at(indexes.at(i)));
    }
}

void TestSearchNavigator::empty()
{
    SearchNavigator navigator;
    QCOMPARE(navigator.count(), 0);
    QVERIFY(!navigator.next());
    QVERIFY(!navigator.previous());
    QVERIFY(!navigator.seek(u"msg"_s, 1));
    QVERIFY(!navigator.current());
}

QTEST_GUILESS_MAIN(TestSearchNavigator)
#include "tst_searchnavigator.moc"
