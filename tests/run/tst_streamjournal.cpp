// SPDX-License-Identifier: GPL-3.0-or-later
// Streaming writes: the part file is rewritten now and then, deltas in between go to a journal
// that is replayed after a crash, so a crash loses at most the last delta.
#include "core/identifier.h"
#include "store/jsonstore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace Qt::StringLiterals;

class TestStreamJournal : public QObject
{
    Q_OBJECT

private:
    static Part textPart(const QString &text)
    {
        return Part::makeText(u"prt_200000000001aaaaaaaaaaaaaa"_s, u"ses_x"_s, u"msg_200000000001bbbbbbbbbbbbbb"_s, text);
    }
    static QString stored(const QString &dataDir)
    {
        QFile f(dataDir + u"/storage/part/msg_200000000001bbbbbbbbbbbbbb/prt_200000000001aaaaaaaaaaaaaa.json"_s);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return parseJson(f.readAll())->toObject().string(u"text");
    }
    static QString journal(const QString &dataDir)
    {
        return dataDir + u"/stream/msg_200000000001bbbbbbbbbbbbbb.prt_200000000001aaaaaaaaaaaaaa.jsonl"_s;
    }

private Q_SLOTS:
    void crashLosesNothingButTheCutRecord()
    {
        QTemporaryDir dir;
        QString text;
        {
            JsonStore store(dir.path());
            QVERIFY(store.initialize().ok());
            // 200 deltas in well under StreamRewriteMs: one full write, the rest journaled.
            for (int i = 0; i < 200; ++i) {
                const QString delta = u"w%1 "_s.arg(i);
                text += delta;
                QVERIFY(store.writePartStreaming(textPart(text), delta).ok());
            }
            // The process "crashes" here: no final write.
        }
        QVERIFY(stored(dir.path()).size() < text.size());
        QVERIFY(QFile::exists(journal(dir.path())));
        // A record cut in half by the crash is ignored, as are those already in the file.
        QFile j(journal(dir.path()));
        QVERIFY(j.open(QIODevice::Append));
        j.write("{\"at\": 3, \"delta\": \"dup\"}\n{\"at\": 99999, \"del");
        j.close();

        JsonStore reopened(dir.path());
        QVERIFY(reopened.initialize().ok());
        QCOMPARE(reopened.recoveredStreams(), 1);
        QCOMPARE(stored(dir.path()), text);
        QVERIFY(!QFile::exists(journal(dir.path())));
    }

    void finalWriteEndsTheStream()
    {
        QTemporaryDir dir;
        JsonStore store(dir.path());
        QVERIFY(store.initialize().ok());
        QString text;
        for (int i = 0; i < 20; ++i) {
            text += u"x"_s;
            QVERIFY(store.writePartStreaming(textPart(text), u"x"_s).ok());
        }
        QVERIFY(store.writePart(textPart(text + u" done"_s)).ok());
        QVERIFY(!QFile::exists(journal(dir.path())));
        QCOMPARE(stored(dir.path()), text + u" done"_s);
    }

    void rewritesAtLeastEveryInterval()
    {
        QTemporaryDir dir;
        JsonStore store(dir.path());
        QVERIFY(store.initialize().ok());
        QElapsedTimer clock;
        clock.start();
        QVERIFY(store.writePartStreaming(textPart(u"a"_s), u"a"_s).ok());
        QVERIFY(store.writePartStreaming(textPart(u"ab"_s), u"b"_s).ok());
        QCOMPARE(stored(dir.path()), u"a"_s);
        // Deltas go on arriving: one of them rewrites the part, and not before the interval.
        QString text = u"ab"_s;
        const auto writeNext = [&] {
            text += u"c"_s;
            return store.writePartStreaming(textPart(text), u"c"_s).ok() && stored(dir.path()) == text;
        };
        bool rewritten = false;
        QTRY_VERIFY_WITH_TIMEOUT(rewritten || (rewritten = writeNext()), 5000);
        QVERIFY(clock.elapsed() >= JsonStore::StreamRewriteMs);
        // The journal was emptied by the rewrite.
        QCOMPARE(QFileInfo(journal(dir.path())).size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestStreamJournal)
#include "tst_streamjournal.moc"
