// SPDX-License-Identifier: GPL-3.0-or-later
// OpenCode's identifiers (model/core/identifier.h): format, monotonic order, the exact algorithm,
// timestamps across the 2026-08-14 wraparound and key-component safety.

#include "core/identifier.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QThread>

#include <memory>

using namespace Qt::StringLiterals;
namespace Identifier = weft::Identifier;
using Kind = weft::Identifier::Kind;

namespace
{
constexpr qint64 WrapPeriod = qint64(1) << 36;        // ms: 2^48 / 0x1000
constexpr qint64 WrapInstant = 26 * WrapPeriod;        // 1786706395136 = 2026-08-14T11:19:55.136Z
constexpr qint64 FixtureUserMessageTime = 1795312746187; // msg_200fa7ecb001c3Nb1NHK3TNUPw

/// The first ID of the millisecond @p ms (the per-millisecond counter restarts when the
/// millisecond changes, so making an ID in another millisecond first resets it).
QString firstIdOf(Kind kind, bool descending, qint64 ms)
{
    (void)Identifier::create(kind, descending, ms + 7);
    return Identifier::create(kind, descending, ms);
}

QString hexOf(const QString &id)
{
    return id.mid(id.indexOf(u'_') + 1, 12);
}
} // namespace

class TestIdentifier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void prefixes_data();
    void prefixes();
    void format_data();
    void format();
    void ascendingMonotonic();
    void descendingDecreasing();
    void uniqueAcrossThreads();
    void randomPartsFromThePool();
    void counterWithinMillisecond();
    void openCodeAlgorithm_data();
    void openCodeAlgorithm();
    void fixtureSessionIds_data();
    void fixtureSessionIds();
    void timestamp_data();
    void timestamp();
    void idOrderBreaksAtWraparound();
    void timestampNear_data();
    void timestampNear();
    void safeKeyComponent_data();
    void safeKeyComponent();
    void validForKind_data();
    void validForKind();
};

void TestIdentifier::prefixes_data()
{
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("prefix");
    QTest::addRow("session") << Kind::Session << u"ses"_s;
    QTest::addRow("message") << Kind::Message << u"msg"_s;
    QTest::addRow("part") << Kind::Part << u"prt"_s;
    QTest::addRow("permission") << Kind::Permission << u"per"_s;
    QTest::addRow("question") << Kind::Question << u"que"_s;
    QTest::addRow("user") << Kind::User << u"usr"_s;
    QTest::addRow("pty") << Kind::Pty << u"pty"_s;
    QTest::addRow("tool") << Kind::Tool << u"tool"_s;
}

void TestIdentifier::prefixes()
{
    QFETCH(Kind, kind);
    QFETCH(QString, prefix);
    QCOMPARE(Identifier::prefix(kind), prefix);
    QVERIFY(Identifier::ascending(kind).startsWith(prefix + u'_'));
    QVERIFY(Identifier::descending(kind).startsWith(prefix + u'_'));
}

void TestIdentifier::format_data()
{
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<bool>("descending");
    for (Kind kind : {Kind::Session, Kind::Message, Kind::Part, Kind::Tool}) {
        QTest::addRow("%s ascending", qPrintable(Identifier::prefix(kind))) << kind << false;
        QTest::addRow("%s descending", qPrintable(Identifier::prefix(kind))) << kind << true;
    }
}

void TestIdentifier::format()
{
    QFETCH(Kind, kind);
    QFETCH(bool, descending);
    const QRegularExpression re(u"^"_s + Identifier::prefix(kind) + u"_[0-9a-f]{12}[0-9A-Za-z]{14}$"_s);
    QSet<QString> randomParts;
    for (int i = 0; i < 200; ++i) {
        const QString id = descending ? Identifier::descending(kind) : Identifier::ascending(kind);
        QVERIFY2(re.match(id).hasMatch(), qPrintable(id));
        QCOMPARE(id.size(), Identifier::prefix(kind).size() + 1 + 26);
        QVERIFY(Identifier::isValid(id, kind));
        randomParts.insert(id.right(14));
    }
    // The 14 base62 characters are random: 200 IDs do not share them.
    QCOMPARE(randomParts.size(), 200);
}

void TestIdentifier::ascendingMonotonic()
{
    constexpr int Count = 100000;
    QString previous = Identifier::ascending(Kind::Message);
    qint64 previousField = Identifier::timeField(previous);
    for (int i = 1; i < Count; ++i) {
        const QString id = Identifier::ascending(Kind::Message);
        const qint64 field = Identifier::timeField(id);
        if (!(id > previous) || field <= previousField)
            QFAIL(qPrintable(u"ID %1 does not sort after %2 (iteration %3)"_s.arg(id, previous).arg(i)));
        previous = id;
        previousField = field;
    }
}

void TestIdentifier::descendingDecreasing()
{
    constexpr int Count = 100000;
    QString previous = Identifier::descending(Kind::Session);
    for (int i = 1; i < Count; ++i) {
        const QString id = Identifier::descending(Kind::Session);
        if (!(id < previous))
            QFAIL(qPrintable(u"ID %1 does not sort before %2 (iteration %3)"_s.arg(id, previous).arg(i)));
        previous = id;
    }
}

void TestIdentifier::randomPartsFromThePool()
{
    // The random parts come from a pool of the system generator's bytes, 14 bytes an ID: across
    // several refills of the pool (292 IDs each) every random part is new and base62.
    QSet<QString> randomParts;
    QList<int> seen(62);
    static const QString base62 = u"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"_s;
    for (int i = 0; i < 2000; ++i) {
        const QString id = Identifier::ascending(Kind::Message);
        const QString random = id.right(14);
        QCOMPARE(id.size(), 4 + 12 + 14);
        for (const QChar c : random) {
            const qsizetype at = base62.indexOf(c);
            QVERIFY2(at >= 0, qPrintable(id));
            ++seen[at];
        }
        randomParts.insert(random);
    }
    QCOMPARE(randomParts.size(), 2000);
    // 28,000 characters: every one of the 62 shows up (a stuck pool would repeat a few).
    QVERIFY(!seen.contains(0));
}

void TestIdentifier::uniqueAcrossThreads()
{
    // Thread-safe: four threads making IDs at once never get the same time field, and each
    // thread's IDs ascend. (A clock read outside the lock made this fail about every other run;
    // five rounds catch such a race reliably.)
    constexpr int Threads = 4;
    constexpr int PerThread = 20000;
    for (int round = 0; round < 5; ++round) {
        QList<QList<qint64>> fields(Threads);
        std::vector<std::unique_ptr<QThread>> threads;
        for (int t = 0; t < Threads; ++t) {
            threads.emplace_back(QThread::create([&fields, t] {
                QList<qint64> &mine = fields[t];
                mine.reserve(PerThread);
                for (int i = 0; i < PerThread; ++i)
                    mine.append(Identifier::timeField(Identifier::ascending(Kind::Part)));
            }));
            threads.back()->start();
        }
        for (auto &thread : threads)
            QVERIFY(thread->wait(60000));
        QSet<qint64> all;
        for (const QList<qint64> &mine : fields) {
            QCOMPARE(mine.size(), PerThread);
            for (qsizetype i = 1; i < mine.size(); ++i) {
                if (mine.at(i) <= mine.at(i - 1))
                    QFAIL(qPrintable(u"round %1: a thread's IDs do not ascend at %2: %3 after %4"_s.arg(round).arg(i)
                                         .arg(mine.at(i), 0, 16).arg(mine.at(i - 1), 0, 16)));
            }
            for (qint64 f : mine)
                all.insert(f);
        }
        QCOMPARE(all.size(), Threads * PerThread);
    }
}

void TestIdentifier::counterWithinMillisecond()
{
    const qint64 ms = 1795312746187;
    const QString a = firstIdOf(Kind::Message, false, ms);
    const QString b = Identifier::create(Kind::Message, false, ms);
    const QString c = Identifier::create(Kind::Message, false, ms);
    QCOMPARE(hexOf(a), u"200fa7ecb001"_s);
    QCOMPARE(hexOf(b), u"200fa7ecb002"_s);
    QCOMPARE(hexOf(c), u"200fa7ecb003"_s);
    // The next millisecond starts its counter at 1 again, above everything of the last one.
    const QString d = Identifier::create(Kind::Message, false, ms + 1);
    QCOMPARE(hexOf(d), u"200fa7ecc001"_s);
    QVERIFY(a < b && b < c && c < d);
    // Descending IDs share the counter and invert the field.
    const QString e = Identifier::create(Kind::Session, true, ms + 1);
    QCOMPARE(hexOf(e), u"dff058133ffd"_s); // ~(ms+1)*0x1000+2
}

void TestIdentifier::openCodeAlgorithm_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<bool>("descending");
    QTest::addColumn<QString>("hex");

    // Worked by hand: hex = low 48 bits of ms * 0x1000 + 1 (the first ID of that millisecond),
    // bitwise NOT for descending. 1795312746187 * 0x1000 = 0x1A200FA7ECB000.
    QTest::addRow("fixture user message") << qint64(1795312746187) << false << u"200fa7ecb001"_s;
    QTest::addRow("fixture user message, descending") << qint64(1795312746187) << true << u"dff058134ffe"_s;
    QTest::addRow("fixture main session") << qint64(1795312746174) << true << u"dff058141ffe"_s;
    QTest::addRow("fixture fork session") << qint64(1795312748587) << true << u"dff0577d4ffe"_s;
    QTest::addRow("fixture first session") << qint64(1795312725953) << true << u"dff05d03effe"_s;
    // 1700000000000 * 0x1000 = 0x18BCFE56800000: the low 48 bits are bcfe56800000.
    QTest::addRow("2023-11-14") << qint64(1700000000000) << false << u"bcfe56800001"_s;
    QTest::addRow("2023-11-14, descending") << qint64(1700000000000) << true << u"4301a97ffffe"_s;
    QTest::addRow("epoch") << qint64(0) << false << u"000000000001"_s;
    QTest::addRow("last ms before the wrap") << WrapInstant - 1 << false << u"fffffffff001"_s;
    QTest::addRow("the wrap") << WrapInstant << false << u"000000000001"_s;
    QTest::addRow("the wrap, descending") << WrapInstant << true << u"fffffffffffe"_s;
}

void TestIdentifier::openCodeAlgorithm()
{
    QFETCH(qint64, ms);
    QFETCH(bool, descending);
    QFETCH(QString, hex);
    const QString id = firstIdOf(Kind::Message, descending, ms);
    QCOMPARE(hexOf(id), hex);
    QCOMPARE(Identifier::timeField(id, descending), (ms * 0x1000 + 1) & ((qint64(1) << 48) - 1));
}

void TestIdentifier::fixtureSessionIds_data()
{
    // Every fixture session ID decodes to its own time.created (OpenCode made each as the
    // first descending ID of that millisecond).
    QTest::addColumn<QString>("id");
    QTest::addColumn<qint64>("created");
    QTest::addRow("main") << u"ses_dff058141ffeXJnTNzT8vnXcKt"_s << qint64(1795312746174);
    QTest::addRow("fork_at_3rd_user") << u"ses_dff0577d4ffeyEniRVGIu2rzSP"_s << qint64(1795312748587);
    QTest::addRow("fork_full") << u"ses_dff0575f4ffevnacwZ5rX969u2"_s << qint64(1795312749067);
    QTest::addRow("reverted") << u"ses_dff05751fffexgWr6MRybGFAXU"_s << qint64(1795312749280);
    QTest::addRow("child") << u"ses_dff057405ffesKzX5TtUsbqkQ3"_s << qint64(1795312749562);
    QTest::addRow("first run") << u"ses_dff05d03effeSyJOWoDVIYjVxr"_s << qint64(1795312725953);
}

void TestIdentifier::fixtureSessionIds()
{
    QFETCH(QString, id);
    QFETCH(qint64, created);
    QCOMPARE(Identifier::timestampNear(id, created + 3600 * 1000, true), created);
    QCOMPARE(hexOf(firstIdOf(Kind::Session, true, created)), hexOf(id));
}

void TestIdentifier::timestamp_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<qint64>("expected");
    // OpenCode's Identifier.timestamp(): the field divided by 0x1000, i.e. modulo 2^36 ms.
    QTest::addRow("fixture message") << u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s << FixtureUserMessageTime % WrapPeriod;
    QTest::addRow("fixture message value") << u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s << qint64(8606351051);
    QTest::addRow("2023") << u"msg_bcfe56800001AAAAAAAAAAAAAA"_s << qint64(1700000000000) % WrapPeriod;
    QTest::addRow("last counter of a ms") << u"prt_bcfe56800fffAAAAAAAAAAAAAA"_s << qint64(1700000000000) % WrapPeriod;
    QTest::addRow("long prefix") << u"tool_000000001001AAAAAAAAAAAAAA"_s << qint64(1);
    QTest::addRow("no underscore") << u"msg200fa7ecb001"_s << qint64(-1);
    QTest::addRow("too short") << u"msg_200fa7"_s << qint64(-1);
    QTest::addRow("not hex") << u"msg_200fa7ecbxyzAAAA"_s << qint64(-1);
    QTest::addRow("empty") << QString() << qint64(-1);
}

void TestIdentifier::timestamp()
{
    QFETCH(QString, id);
    QFETCH(qint64, expected);
    QCOMPARE(Identifier::timestamp(id), expected);
}

void TestIdentifier::idOrderBreaksAtWraparound()
{
    // The reason Weft orders by time.created: an ID made after the wrap sorts before one made
    // just before it.
    const QString before = firstIdOf(Kind::Message, false, WrapInstant - 1);
    const QString after = firstIdOf(Kind::Message, false, WrapInstant);
    QVERIFY(after < before);
    QVERIFY(Identifier::timestampNear(after, WrapInstant) > Identifier::timestampNear(before, WrapInstant));
}

void TestIdentifier::timestampNear_data()
{
    QTest::addColumn<qint64>("made");
    QTest::addColumn<qint64>("reference");
    QTest::addColumn<bool>("descending");

    QTest::addRow("fixture, exact reference") << FixtureUserMessageTime << FixtureUserMessageTime << false;
    QTest::addRow("fixture, an hour later") << FixtureUserMessageTime << FixtureUserMessageTime + 3600000 << false;
    QTest::addRow("before the wrap, read before") << WrapInstant - 1 << WrapInstant - 1 << false;
    QTest::addRow("before the wrap, read after") << WrapInstant - 1 << WrapInstant + 86400000 << false;
    QTest::addRow("at the wrap, read before") << WrapInstant << WrapInstant - 5000 << false;
    QTest::addRow("after the wrap, read before") << WrapInstant + 5000 << WrapInstant - 5000 << false;
    QTest::addRow("after the wrap, read a year later") << WrapInstant + 5000 << WrapInstant + 365LL * 86400000 << false;
    QTest::addRow("descending across the wrap") << WrapInstant + 10 << WrapInstant - 10 << true;
    QTest::addRow("descending before the wrap") << WrapInstant - 10 << WrapInstant + 10 << true;
    QTest::addRow("a third of a period away") << qint64(1700000000000) << qint64(1700000000000) + WrapPeriod / 3 << false;
    QTest::addRow("previous wrap") << 25 * WrapPeriod + 3 << 25 * WrapPeriod - 1000 << false;
}

void TestIdentifier::timestampNear()
{
    QFETCH(qint64, made);
    QFETCH(qint64, reference);
    QFETCH(bool, descending);
    const QString id = firstIdOf(Kind::Message, descending, made);
    QCOMPARE(Identifier::timestampNear(id, reference, descending), made);
    QCOMPARE(Identifier::timestampNear(u"garbage"_s, reference), qint64(-1));
}

void TestIdentifier::safeKeyComponent_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("safe");
    QTest::addColumn<QString>("why"); // part of whyInvalid(id, Session) for unsafe IDs

    QTest::addRow("fixture session") << u"ses_dff058141ffeXJnTNzT8vnXcKt"_s << true << QString();
    QTest::addRow("project hash") << u"6c8748ef28d89c4c344a1dd08dfcf985db02b468"_s << true << QString();
    QTest::addRow("three dots") << u"..."_s << true << QString();
    QTest::addRow("non-ASCII") << u"ses_日本語"_s << true << QString();
    QTest::addRow("empty") << QString() << false << u"empty"_s;
    QTest::addRow("dot") << u"."_s << false << u"path separator or is a relative path"_s;
    QTest::addRow("dot dot") << u".."_s << false << u"path separator or is a relative path"_s;
    QTest::addRow("traversal") << u"../../etc"_s << false << u"path separator"_s;
    QTest::addRow("prefixed traversal") << u"ses_../../etc"_s << false << u"path separator"_s;
    QTest::addRow("slash") << u"a/b"_s << false << u"path separator"_s;
    QTest::addRow("root") << u"/"_s << false << u"path separator"_s;
    QTest::addRow("absolute") << u"/etc/passwd"_s << false << u"path separator"_s;
    QTest::addRow("backslash") << u"a\\b"_s << false << u"path separator"_s;
    QTest::addRow("NUL") << u"ses_abc"_s + QChar(0) + u"def"_s << false << u"NUL"_s;
    QTest::addRow("only NUL") << QString(QChar(0)) << false << u"NUL"_s;
    QTest::addRow("newline") << u"ses_a\nb"_s << false << u"control characters"_s;
    QTest::addRow("tab") << u"ses_a\tb"_s << false << u"control characters"_s;
    QTest::addRow("escape") << u"ses_"_s + QChar(0x1b) << false << u"control characters"_s;
    QTest::addRow("DEL") << u"ses_"_s + QChar(0x7f) << false << u"control characters"_s;
    QTest::addRow("255 bytes") << u"ses_"_s + QString(251, u'a') << true << QString();
    QTest::addRow("256 bytes") << u"ses_"_s + QString(252, u'a') << false << u"too long"_s;
    QTest::addRow("300 bytes") << u"ses_"_s + QString(296, u'a') << false << u"too long"_s;
    QTest::addRow("130 characters, 256 bytes") << u"ses_"_s + QString(126, u'é') << false << u"too long"_s;
}

void TestIdentifier::safeKeyComponent()
{
    QFETCH(QString, id);
    QFETCH(bool, safe);
    QFETCH(QString, why);
    QCOMPARE(Identifier::isSafeKeyComponent(id), safe);
    const QString reason = Identifier::whyInvalid(id, Kind::Session);
    if (safe) {
        // Safe as a file name; valid as a session ID only with the prefix.
        QCOMPARE(reason.isEmpty(), id.startsWith(u"ses_"_s));
    } else {
        QVERIFY2(reason.contains(why), qPrintable(reason));
        QVERIFY(!Identifier::isValid(id, Kind::Session));
        // The reason is printable: no raw NUL or control characters reach a terminal.
        QVERIFY(!reason.contains(QChar(0)));
    }
}

void TestIdentifier::validForKind_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<bool>("valid");
    QTest::addRow("session") << u"ses_dff058141ffeXJnTNzT8vnXcKt"_s << Kind::Session << true;
    QTest::addRow("message as session") << u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s << Kind::Session << false;
    QTest::addRow("message") << u"msg_200fa7ecb001c3Nb1NHK3TNUPw"_s << Kind::Message << true;
    QTest::addRow("part") << u"prt_200fa7ecb002AAAAAAAAAAAAAA"_s << Kind::Part << true;
    QTest::addRow("prefix without underscore") << u"sesdff058141ffe"_s << Kind::Session << false;
    QTest::addRow("upper-case prefix") << u"SES_dff058141ffe"_s << Kind::Session << false;
}

void TestIdentifier::validForKind()
{
    QFETCH(QString, id);
    QFETCH(Kind, kind);
    QFETCH(bool, valid);
    QCOMPARE(Identifier::isValid(id, kind), valid);
    const QString why = Identifier::whyInvalid(id, kind);
    QCOMPARE(why.isEmpty(), valid);
    if (!valid)
        QVERIFY2(why.contains(u"does not start with \"%1_\""_s.arg(Identifier::prefix(kind))), qPrintable(why));
}

QTEST_GUILESS_MAIN(TestIdentifier)
#include "tst_identifier.moc"
