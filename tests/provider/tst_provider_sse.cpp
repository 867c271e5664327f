// SPDX-License-Identifier: GPL-3.0-or-later
#include "provider/sseparser.h"

#include <QRandomGenerator>
#include <QTest>

using namespace weft;
using namespace Qt::StringLiterals;

using Events = QList<SseEvent>;

namespace
{
SseEvent ev(const QByteArray &data, const QByteArray &event = {}, const QByteArray &id = {})
{
    return SseEvent{event, data, id};
}

char *toString(const Events &events)
{
    QByteArray s;
    for (const SseEvent &e : events)
        s += '{' + e.event + '|' + e.data.toPercentEncoding(" {}:,\"[]") + '|' + e.id + '}';
    return qstrdup(s.constData());
}

bool sameEvents(const Events &a, const Events &b)
{
    if (a == b)
        return true;
    char *sa = toString(a);
    char *sb = toString(b);
    qWarning("actual:   %s\nexpected: %s", sa, sb);
    delete[] sa;
    delete[] sb;
    return false;
}
} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void feedWhole_data() { table(); }
    void feedWhole()
    {
        QFETCH(QByteArray, input);
        QFETCH(Events, expected);
        SseParser parser;
        Events out = parser.feed(input);
        parser.finish();
        QVERIFY(sameEvents(out, expected));
    }

    void feedByteByByte_data() { table(); }
    void feedByteByByte()
    {
        QFETCH(QByteArray, input);
        QFETCH(Events, expected);
        SseParser parser;
        Events out;
        for (qsizetype i = 0; i < input.size(); ++i)
            out += parser.feed(QByteArrayView(input).sliced(i, 1));
        parser.finish();
        QVERIFY(sameEvents(out, expected));
    }

    void feedSplitEverywhere_data() { table(); }
    void feedSplitEverywhere()
    {
        QFETCH(QByteArray, input);
        QFETCH(Events, expected);
        for (qsizetype cut = 0; cut <= input.size(); ++cut) {
            SseParser parser;
            Events out = parser.feed(QByteArrayView(input).first(cut));
            out += parser.feed(QByteArrayView(input).sliced(cut));
            parser.finish();
            if (!sameEvents(out, expected))
                QFAIL(qPrintable(u"wrong events with a cut at byte %1"_s.arg(cut)));
        }
    }

    void feedRandomChunks_data() { table(); }
    void feedRandomChunks()
    {
        QFETCH(QByteArray, input);
        QFETCH(Events, expected);
        QRandomGenerator random(4242);
        for (int round = 0; round < 50; ++round) {
            SseParser parser;
            Events out;
            qsizetype pos = 0;
            while (pos < input.size()) {
                const qsizetype n = std::min<qsizetype>(input.size() - pos, 1 + random.bounded(6));
                out += parser.feed(QByteArrayView(input).sliced(pos, n));
                pos += n;
            }
            parser.finish();
            QVERIFY(sameEvents(out, expected));
        }
    }

    void comments()
    {
        SseParser parser;
        const Events out = parser.feed(": keep-alive\n\n:another\r\ndata: x\n\n");
        QCOMPARE(parser.comments(), 2);
        QCOMPARE(out.size(), 1);
        QCOMPARE(out.front().data, "x"_ba);
    }

    void retryField()
    {
        SseParser parser;
        const Events out = parser.feed("retry: 3000\ndata: x\n\nretry: nonsense\n\n");
        QCOMPARE(out.size(), 1);
        QCOMPARE(parser.retry(), 3000);
    }

    void finishReportsDroppedData()
    {
        SseParser parser;
        QCOMPARE(parser.feed("data: complete\n\ndata: partial").size(), 1);
        QVERIFY(parser.hasPending());
        QVERIFY(parser.finish());
        QVERIFY(!parser.hasPending());
        QVERIFY(!parser.finish());
    }

    void lineOverTheLimitFailsTheStream()
    {
        // A "data:" line that never ends, fed in 64 KiB pieces: the parser gives up once the line
        // passes the limit and holds nothing more, however much follows.
        SseParser parser;
        QCOMPARE(parser.feed("data: before\n\ndata: ").size(), 1);
        const QByteArray piece(64 * 1024, 'x');
        qsizetype fed = 0;
        while (!parser.failed() && fed <= 2 * SseParser::MaxEventBytes) {
            QVERIFY(parser.feed(piece).isEmpty());
            fed += piece.size();
        }
        QVERIFY(parser.failed());
        QVERIFY(fed > SseParser::MaxEventBytes - piece.size() && fed <= SseParser::MaxEventBytes + piece.size());
        QVERIFY2(parser.errorString().contains(u"16 MiB"_s), qPrintable(parser.errorString()));
        QVERIFY(!parser.hasPending());
        // What comes after is not read, not even a whole event.
        QVERIFY(parser.feed("\n\ndata: after\n\n").isEmpty());
        QVERIFY(!parser.hasPending());
        parser.reset();
        QVERIFY(!parser.failed());
        QCOMPARE(parser.feed("data: again\n\n").size(), 1);
    }

    void lineOverTheLimitInOnePiece()
    {
        // The same line arriving whole (one large read), and ended: still refused.
        SseParser parser;
        QByteArray input = "data: ";
        input.append(SseParser::MaxEventBytes, 'y');
        input += "\n\ndata: after\n\n";
        QVERIFY(parser.feed(input).isEmpty());
        QVERIFY(parser.failed());
    }

    void eventOverTheLimitFailsTheStream()
    {
        // Many short "data:" lines that join into one event larger than the limit.
        SseParser parser;
        const QByteArray line = "data: " + QByteArray(1024 * 1024 - 8, 'z') + '\n';
        Events out;
        int lines = 0;
        while (!parser.failed() && lines < 40) {
            out += parser.feed(line);
            ++lines;
        }
        QVERIFY(parser.failed());
        QCOMPARE(lines, 17);
        QVERIFY(out.isEmpty());
        QVERIFY(!parser.hasPending());
        // Just under the limit is fine.
        SseParser fits;
        QByteArray input;
        for (int i = 0; i < 15; ++i)
            input += line;
        const Events one = fits.feed(QByteArray(input + '\n'));
        QVERIFY(!fits.failed());
        QCOMPARE(one.size(), 1);
    }

    void largeStream()
    {
        // 5,000 events in one buffer and again in 1,000-byte pieces: same result.
        QByteArray input;
        for (int i = 0; i < 5000; ++i)
            input += "data: {\"i\":" + QByteArray::number(i) + "}\r\n\r\n";
        SseParser whole;
        const Events a = whole.feed(input);
        QCOMPARE(a.size(), 5000);
        QCOMPARE(a.at(4999).data, "{\"i\":4999}"_ba);
        SseParser pieces;
        Events b;
        for (qsizetype pos = 0; pos < input.size(); pos += 1000)
            b += pieces.feed(QByteArrayView(input).sliced(pos, std::min<qsizetype>(1000, input.size() - pos)));
        QCOMPARE(b, a);
    }

private:
    static void table()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<Events>("expected");

        QTest::addRow("lf") << "data: hello\n\n"_ba << Events{ev("hello")};
        QTest::addRow("crlf") << "data: a\r\n\r\ndata: b\r\n\r\n"_ba << Events{ev("a"), ev("b")};
        QTest::addRow("cr") << "data: a\r\rdata: b\r\r"_ba << Events{ev("a"), ev("b")};
        QTest::addRow("mixed line ends") << "data: a\r\ndata: b\n\r\ndata: c\r\r"_ba << Events{ev("a\nb"), ev("c")};
        QTest::addRow("multi-line data") << "data: line1\ndata: line2\ndata:\ndata: line4\n\n"_ba
                                         << Events{ev("line1\nline2\n\nline4")};
        QTest::addRow("comments") << ": ping\n\ndata: x\n: inside\ndata: y\n\n: trailing\n"_ba << Events{ev("x\ny")};
        QTest::addRow("event and id") << "event: message_start\nid: 7\ndata: {}\n\n"_ba
                                      << Events{ev("{}", "message_start", "7")};
        QTest::addRow("id persists, event resets")
            << "id: 1\nevent: a\ndata: x\n\ndata: y\n\n"_ba << Events{ev("x", "a", "1"), ev("y", {}, "1")};
        QTest::addRow("no space after colon") << "data:x\n\ndata:  two\n\n"_ba << Events{ev("x"), ev(" two")};
        QTest::addRow("field without colon") << "data\n\n"_ba << Events{ev("")};
        QTest::addRow("no data, no event") << "event: foo\n\ndata: x\n\n"_ba << Events{ev("x")};
        QTest::addRow("unknown field") << "foo: bar\ndata: x\n\n"_ba << Events{ev("x")};
        QTest::addRow("bom") << "\xEF\xBB\xBF"
                                "data: x\n\n"_ba
                             << Events{ev("x")};
        QTest::addRow("done") << "data: {\"a\":1}\n\ndata: [DONE]\n\n"_ba << Events{ev("{\"a\":1}"), ev("[DONE]")};
        QTest::addRow("utf-8") << "data: gr\xC3\xBC\xC3\x9F \xF0\x9F\x8C\x8D\n\n"_ba
                               << Events{ev("gr\xC3\xBC\xC3\x9F \xF0\x9F\x8C\x8D")};
        QTest::addRow("unterminated event dropped") << "data: x\n\ndata: y"_ba << Events{ev("x")};
        QTest::addRow("colon in value") << "data: {\"a\":\"b:c\"}\n\n"_ba << Events{ev("{\"a\":\"b:c\"}")};
        QTest::addRow("anthropic frames")
            << "event: ping\ndata: {\"type\": \"ping\"}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"_ba
            << Events{ev("{\"type\": \"ping\"}", "ping"), ev("{\"type\":\"message_stop\"}", "message_stop")};
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_provider_sse.moc"
