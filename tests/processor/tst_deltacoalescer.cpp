// SPDX-License-Identifier: GPL-3.0-or-later
// The run's delta coalescing: deltas of a part wait and go out together, a full write supersedes
// them, flush() announces at once, a burst is announced within the interval, and deltas from
// another thread are announced from the coalescer's thread.

#include "processor/deltacoalescer.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <thread>

using namespace Qt::StringLiterals;
using namespace weft;

class TestDeltaCoalescer : public QObject
{
    Q_OBJECT

    struct Announced {
        Part part;
        QString delta;
        QThread *thread = nullptr;
    };
    QList<Announced> m_announced;
    std::unique_ptr<DeltaCoalescer> m_deltas;

    static Part text(const QString &id, const QString &text)
    {
        return Part::makeText(id, u"ses_1"_s, u"msg_1"_s, text);
    }

private Q_SLOTS:
    void init()
    {
        m_announced.clear();
        m_deltas = std::make_unique<DeltaCoalescer>(
            [this](const Part &part, const QString &delta) {
                m_announced.append({part, delta, QThread::currentThread()});
            },
            16);
    }

    void deltasOfAPartGoOutTogether()
    {
        m_deltas->add(text(u"prt_1"_s, u"a"_s), u"a"_s);
        m_deltas->add(text(u"prt_1"_s, u"ab"_s), u"b"_s);
        m_deltas->add(text(u"prt_2"_s, u"x"_s), u"x"_s);
        QVERIFY(m_announced.isEmpty());
        QTRY_COMPARE(m_announced.size(), 2);
        for (const Announced &a : std::as_const(m_announced)) {
            if (a.part.id() == u"prt_1") {
                QCOMPARE(a.delta, u"ab"_s);
                QCOMPARE(a.part.text(), u"ab"_s); // the latest state
            } else {
                QCOMPARE(a.delta, u"x"_s);
            }
        }
    }

    void aFullWriteSupersedesItsDeltas()
    {
        m_deltas->add(text(u"prt_1"_s, u"a"_s), u"a"_s);
        m_deltas->add(text(u"prt_2"_s, u"x"_s), u"x"_s);
        m_deltas->drop(u"prt_1"_s);
        m_deltas->flush();
        QCOMPARE(m_announced.size(), 1);
        QCOMPARE(m_announced.first().part.id(), u"prt_2"_s);
    }

    void flushAnnouncesAtOnceAndOnlyOnce()
    {
        m_deltas->add(text(u"prt_1"_s, u"a"_s), u"a"_s);
        m_deltas->flush();
        QCOMPARE(m_announced.size(), 1);
        // The next delta goes out alone: the first was not announced again.
        m_deltas->add(text(u"prt_2"_s, u"x"_s), u"x"_s);
        QTRY_COMPARE(m_announced.size(), 2);
        QCOMPARE(m_announced.at(1).part.id(), u"prt_2"_s);
    }

    void aBurstIsAnnouncedWithinTheInterval()
    {
        // Deltas without a return to the event loop (a fast stream): the writer announces once
        // the interval has passed since the first delta.
        QElapsedTimer clock;
        clock.start();
        int n = 0;
        while (m_announced.isEmpty() && clock.elapsed() < 1000) {
            ++n;
            m_deltas->add(text(u"prt_1"_s, QString(n, u'a')), u"a"_s);
        }
        QVERIFY(!m_announced.isEmpty());
        QVERIFY(clock.elapsed() >= 16);
        QCOMPARE(m_announced.first().delta.size(), n);
    }

    void deltasFromAnotherThreadAreAnnouncedHere()
    {
        std::thread tool([this] { m_deltas->add(text(u"prt_1"_s, u"out"_s), u"out"_s); });
        tool.join();
        QTRY_COMPARE(m_announced.size(), 1);
        QCOMPARE(m_announced.first().thread, QThread::currentThread());
        QCOMPARE(m_announced.first().delta, u"out"_s);
    }
};

QTEST_GUILESS_MAIN(TestDeltaCoalescer)
#include "tst_deltacoalescer.moc"
