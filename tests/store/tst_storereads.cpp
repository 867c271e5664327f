// SPDX-License-Identifier: GPL-3.0-or-later
// StoreReads (model/store/storereads.h): a store read on a window's GUI thread is reported, one
// on a worker thread is not, and without a QGuiApplication (the command line) nothing is. Built
// twice: with a QGuiApplication (tst_storereads) and without (tst_storereads_headless).

#include "store/jsonstore.h"
#include "store/sessiontrash.h"
#include "store/storereads.h"
#include "testdata.h"

#include <QRegularExpression>
#include <QTest>
#include <QThread>

#include <memory>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
QStringList g_reported;
QtMessageHandler g_previous = nullptr;

void collect(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    if (text.contains(u"on the GUI thread"_s))
        g_reported.append(text);
    g_previous(type, context, text);
}
} // namespace

class TestStoreReads : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_data.isValid());
        m_store = std::make_shared<JsonStore>(m_data.path());
        QVERIFY(m_store->initialize());
        StoreReads::setPolicy(StoreReads::OnGuiThread::Report);
        g_reported.clear();
        g_previous = qInstallMessageHandler(collect);
    }

    void cleanup()
    {
        qInstallMessageHandler(g_previous);
        m_store.reset();
    }

    void reportedOnTheGuiThreadOnly()
    {
#ifdef WEFT_HEADLESS
        // The command line: no window, nothing to keep painting.
        QVERIFY(!StoreReads::onGuiThread());
        QVERIFY(!m_store->sessions().isEmpty());
        QVERIFY(m_store->trash()->entries().isEmpty());
        QVERIFY(g_reported.isEmpty());
#else
        QVERIFY(StoreReads::onGuiThread());
        QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(u"a store read \\(sessions\\) on the GUI thread"_s));
        QVERIFY(!m_store->sessions().isEmpty());
        QCOMPARE(g_reported.size(), 1);
        QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(u"a store read \\(trash entries\\) on the GUI thread"_s));
        QVERIFY(m_store->trash()->entries().isEmpty());
        QCOMPARE(g_reported.size(), 2);
#endif
        // Off the GUI thread, as a window reads. A thread of its own: QFuture::result() runs a
        // task that has not started yet on the waiting thread, which here is the GUI thread.
        bool onWorker = true;
        qsizetype sessions = 0;
        std::unique_ptr<QThread> worker(QThread::create([&onWorker, &sessions, store = m_store] {
            onWorker = StoreReads::onGuiThread();
            sessions = store->sessions().size();
        }));
        worker->start();
        QVERIFY(worker->wait(30000));
        QVERIFY(!onWorker);
        QVERIFY(sessions > 0);
        QCOMPARE(g_reported.size(), StoreReads::onGuiThread() ? 2 : 0);
    }

    void allowedHereWhileTheGuardLives()
    {
        {
            const StoreReads::AllowHere allowed;
            QVERIFY(!m_store->sessions().isEmpty());
            {
                const StoreReads::AllowHere nested;
                QVERIFY(m_store->session(m_store->sessions().first().id()));
            }
            QVERIFY(m_store->trash()->entries().isEmpty());
        }
        QVERIFY(g_reported.isEmpty());
#ifndef WEFT_HEADLESS
        // Once it is gone, a read there is reported again.
        QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(u"a store read \\(sessions\\) on the GUI thread"_s));
        QVERIFY(!m_store->sessions().isEmpty());
        QCOMPARE(g_reported.size(), 1);
#endif
    }

    void offWhenAllowed()
    {
        StoreReads::setPolicy(StoreReads::OnGuiThread::Allow);
        QCOMPARE(StoreReads::policy(), StoreReads::OnGuiThread::Allow);
        QVERIFY(!m_store->sessions().isEmpty());
        QVERIFY(g_reported.isEmpty());
    }

private:
    test::FixtureDataDir m_data;
    std::shared_ptr<JsonStore> m_store;
};

#ifdef WEFT_HEADLESS
QTEST_GUILESS_MAIN(TestStoreReads)
#else
QTEST_MAIN(TestStoreReads)
#endif
#include "tst_storereads.moc"
