// SPDX-License-Identifier: GPL-3.0-or-later
// The compaction algorithms without a model: token estimates, settings and environment
// switches, isOverflow, prune at each boundary, filterCompacted with tails and several
// compactions, the summary-tail split, the preview and undo.

#include "sessionbuilder.h"
#include "testdata.h"

#include "compaction/compaction.h"
#include "session/modelmessages.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(weft::Compaction::Estimator)

namespace
{
using Env = QHash<QString, QString>;

Result<Compaction::Settings> settingsFrom(const JsonObject &config, const Env &env = {})
{
    return Compaction::Settings::fromConfig(config, [env](const char *name) { return env.value(QString::fromLatin1(name)); });
}

Compaction::Settings defaults()
{
    return settingsFrom({}).value();
}

JsonObject parseObject(const QByteArray &text)
{
    const std::optional<JsonValue> v = parseJson(text);
    return v ? v->toObject() : JsonObject();
}

/// Three user turns; the first answer carries the tool outputs given (oldest first), the two
/// newer turns are protected. Returns the part IDs of the outputs in order.
QStringList oldTurnWithOutputs(SessionBuilder &b, const QList<qint64> &tokens, const QString &tool = u"bash"_s)
{
    QStringList ids;
    b.user(u"first"_s);
    b.assistant(u"reading"_s, u"tool-calls"_s);
    for (const qint64 t : tokens)
        ids.append(b.tool(t, tool));
    b.user(u"second"_s);
    b.assistant(u"ok"_s);
    b.tool(100000); // in a protected turn: never counted
    b.user(u"third"_s);
    b.assistant(u"ok"_s);
    return ids;
}
} // namespace

class TestCompaction : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void estimate_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Compaction::Estimator>("estimator");
        QTest::addColumn<qint64>("expected");
        using E = Compaction::Estimator;
        QTest::addRow("empty") << QString() << E::OpenCode << qint64(0);
        QTest::addRow("3 chars: ceil") << u"abc"_s << E::OpenCode << qint64(1);
        QTest::addRow("4 chars") << u"abcd"_s << E::OpenCode << qint64(1);
        QTest::addRow("5 chars") << u"abcde"_s << E::OpenCode << qint64(2);
        QTest::addRow("japanese: chars/4") << u"日本語のテキスト"_s << E::OpenCode << qint64(2);
        QTest::addRow("gemini ascii") << u"abcdefgh"_s << E::Gemini << qint64(2);
        QTest::addRow("gemini 7 ascii: floor") << u"abcdefg"_s << E::Gemini << qint64(1);
        QTest::addRow("gemini japanese: 8 x 1.3") << u"日本語のテキスト"_s << E::Gemini << qint64(10);
        QTest::addRow("gemini surrogate pair is one character") << u"😀😀😀😀"_s << E::Gemini << qint64(5);
        QTest::addRow("opencode surrogate pair is two units") << u"😀😀😀😀"_s << E::OpenCode << qint64(2);
        QTest::addRow("auto: ascii as opencode") << u"abcde"_s << E::Auto << qint64(2);
        QTest::addRow("auto: cjk as gemini") << u"日本語のテキスト"_s << E::Auto << qint64(10);
        // Long mixed text: UTF-8 is counted 16 bytes a step, code points across the steps' edges.
        const QString mixed = u"ab日本😀é"_s.repeated(37);
        QTest::addRow("long mixed, opencode") << mixed << E::OpenCode << qint64((mixed.size() + 3) / 4);
        QTest::addRow("long mixed, gemini") << mixed << E::Gemini << qint64((2 * 37 * 25 + 4 * 37 * 130) / 100);
    }

    void estimate()
    {
        QFETCH(QString, text);
        QFETCH(Compaction::Estimator, estimator);
        QFETCH(qint64, expected);
        QCOMPARE(Compaction::estimateTokens(text, estimator), expected);
        // The same text as UTF-8 (a long string read from a file is held so): the same count,
        // without decoding it for OpenCode's estimate.
        const QByteArray utf8 = text.toUtf8();
        QCOMPARE(Compaction::estimateTokens(QUtf8StringView(utf8), estimator), expected);
        QCOMPARE(Compaction::utf16Length(QUtf8StringView(utf8)), qint64(text.size()));
        // A part's text read from JSON, long enough to be held as UTF-8.
        const QString padded = QString(400, u'x') + text;
        const std::optional<JsonValue> read = parseJson(toJson(JsonObject{{u"type"_s, u"text"_s}, {u"text"_s, padded}}, 0));
        QVERIFY(read);
        const Part part(read->toObject());
        QVERIFY(part.textView().visit([](auto view) { return std::is_same_v<decltype(view), QUtf8StringView>; }));
        QCOMPARE(Compaction::estimateTokens(part.textView(), estimator), Compaction::estimateTokens(padded, estimator));
        QCOMPARE(Compaction::utf16Length(part.textView()), qint64(padded.size()));
    }

    void settings_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("autoEnv");
        QTest::addColumn<QString>("pruneEnv");
        QTest::addColumn<bool>("autoOn");
        QTest::addColumn<bool>("pruneOn");
        QTest::addColumn<QString>("autoBy");
        QTest::addColumn<QString>("pruneBy");
        QTest::addRow("defaults") << "{}"_ba << QString() << QString() << true << true << QString() << QString();
        QTest::addRow("config auto false") << "{\"auto\": false}"_ba << QString() << QString() << false << true
                                           << u"compaction.auto"_s << QString();
        QTest::addRow("config prune false") << "{\"prune\": false}"_ba << QString() << QString() << true << false << QString()
                                            << u"compaction.prune"_s;
        QTest::addRow("config true") << "{\"auto\": true, \"prune\": true}"_ba << QString() << QString() << true << true
                                     << QString() << QString();
        QTest::addRow("env 1") << "{}"_ba << u"1"_s << u"1"_s << false << false << u"OPENCODE_DISABLE_AUTOCOMPACT"_s
                               << u"OPENCODE_DISABLE_PRUNE"_s;
        QTest::addRow("env true") << "{}"_ba << u"true"_s << QString() << false << true << u"OPENCODE_DISABLE_AUTOCOMPACT"_s
                                  << QString();
        QTest::addRow("env yes") << "{}"_ba << QString() << u"yes"_s << true << false << QString() << u"OPENCODE_DISABLE_PRUNE"_s;
        QTest::addRow("env 0") << "{}"_ba << u"0"_s << u"0"_s << true << true << QString() << QString();
        QTest::addRow("env false") << "{}"_ba << u"false"_s << u"FALSE"_s << true << true << QString() << QString();
        QTest::addRow("env empty") << "{}"_ba << u""_s << u" "_s << true << true << QString() << QString();
        QTest::addRow("env beats config true") << "{\"auto\": true}"_ba << u"1"_s << QString() << false << true
                                               << u"OPENCODE_DISABLE_AUTOCOMPACT"_s << QString();
    }

    void settings()
    {
        QFETCH(QByteArray, config);
        QFETCH(QString, autoEnv);
        QFETCH(QString, pruneEnv);
        QFETCH(bool, autoOn);
        QFETCH(bool, pruneOn);
        QFETCH(QString, autoBy);
        QFETCH(QString, pruneBy);
        Env env;
        if (!autoEnv.isNull())
            env.insert(u"OPENCODE_DISABLE_AUTOCOMPACT"_s, autoEnv);
        if (!pruneEnv.isNull())
            env.insert(u"OPENCODE_DISABLE_PRUNE"_s, pruneEnv);
        const Result<Compaction::Settings> s = settingsFrom(parseObject(config), env);
        QVERIFY(s.ok());
        QCOMPARE(s->autoCompact, autoOn);
        QCOMPARE(s->prune, pruneOn);
        QCOMPARE(s->autoDisabledBy, autoBy);
        QCOMPARE(s->pruneDisabledBy, pruneBy);
        // A disabled auto compaction never reports an overflow, however large the usage.
        Tokens huge;
        huge.input = 10'000'000;
        QCOMPARE(Compaction::isOverflow(huge, 200000, 8000, s.value()), autoOn);
    }

    void settingsValues_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("error");
        QTest::addRow("strategy") << "{\"strategy\": \"summary-tail\", \"estimator\": \"gemini\", \"prompt\": \"P\", \"model\": \"a/b\", \"reserved\": 1000}"_ba
                                  << QString();
        QTest::addRow("unknown strategy") << "{\"strategy\": \"tail\"}"_ba << u"compaction.strategy"_s;
        QTest::addRow("unknown estimator") << "{\"estimator\": \"words\"}"_ba << u"compaction.estimator"_s;
        QTest::addRow("auto not bool") << "{\"auto\": \"no\"}"_ba << u"compaction.auto"_s;
        QTest::addRow("prune not bool") << "{\"prune\": 0}"_ba << u"compaction.prune"_s;
        QTest::addRow("reserved negative") << "{\"reserved\": -1}"_ba << u"compaction.reserved"_s;
    }

    void settingsValues()
    {
        QFETCH(QByteArray, config);
        QFETCH(QString, error);
        const Result<Compaction::Settings> s = settingsFrom(parseObject(config));
        QCOMPARE(s.ok(), error.isEmpty());
        if (!error.isEmpty()) {
            QCOMPARE(s.error().where, error);
            return;
        }
        QCOMPARE(s->strategy, Compaction::Strategy::SummaryTail);
        QCOMPARE(s->estimator, Compaction::Estimator::Gemini);
        QCOMPARE(s->prompt, u"P"_s);
        QCOMPARE(s->model, u"a/b"_s);
        QCOMPARE(s->reserved.value_or(0), 1000);
    }

    void overflow_data()
    {
        QTest::addColumn<qint64>("context");
        QTest::addColumn<qint64>("output");
        QTest::addColumn<qint64>("input");
        QTest::addColumn<qint64>("cacheRead");
        QTest::addColumn<qint64>("outputTokens");
        QTest::addColumn<bool>("expected");
        // usable = 200000 - min(8000, 32000) = 192000
        QTest::addRow("at the limit") << qint64(200000) << qint64(8000) << qint64(190000) << qint64(0) << qint64(2000) << false;
        QTest::addRow("one over") << qint64(200000) << qint64(8000) << qint64(190000) << qint64(0) << qint64(2001) << true;
        QTest::addRow("cache.read counts") << qint64(200000) << qint64(8000) << qint64(100000) << qint64(90000) << qint64(2001)
                                           << true;
        // output limit above 32000: 200000 - 32000 = 168000
        QTest::addRow("big output limit at") << qint64(200000) << qint64(64000) << qint64(168000) << qint64(0) << qint64(0) << false;
        QTest::addRow("big output limit over") << qint64(200000) << qint64(64000) << qint64(168001) << qint64(0) << qint64(0) << true;
        // output limit unknown (0): 32000 reserved
        QTest::addRow("output 0 at") << qint64(200000) << qint64(0) << qint64(168000) << qint64(0) << qint64(0) << false;
        QTest::addRow("output 0 over") << qint64(200000) << qint64(0) << qint64(168001) << qint64(0) << qint64(0) << true;
        // context unknown: never
        QTest::addRow("context 0") << qint64(0) << qint64(8000) << qint64(10'000'000) << qint64(0) << qint64(0) << false;
    }

    void overflow()
    {
        QFETCH(qint64, context);
        QFETCH(qint64, output);
        QFETCH(qint64, input);
        QFETCH(qint64, cacheRead);
        QFETCH(qint64, outputTokens);
        QFETCH(bool, expected);
        Tokens t;
        t.input = input;
        t.cacheRead = cacheRead;
        t.output = outputTokens;
        t.cacheWrite = 50000; // not counted, as in OpenCode 1.1
        t.reasoning = 50000;
        QCOMPARE(Compaction::isOverflow(t, context, output, defaults()), expected);
        Compaction::Settings off = defaults();
        off.autoCompact = false;
        QVERIFY(!Compaction::isOverflow(t, context, output, off));
    }

    void overflowReserved()
    {
        Compaction::Settings s = defaults();
        s.reserved = 10000;
        Tokens t;
        t.input = 190000;
        QVERIFY(!Compaction::isOverflow(t, 200000, 8000, s));
        t.input = 190001;
        QVERIFY(Compaction::isOverflow(t, 200000, 8000, s));
    }

    void pruneBoundaries_data()
    {
        QTest::addColumn<QList<qint64>>("outputs");      // oldest first, in the oldest turn
        QTest::addColumn<QList<int>>("expectedPruned");  // indices into outputs
        QTest::addColumn<bool>("applies");
        // The newest output is walked first: it is protected while the running total is at most
        // 40,000; the one that crosses the line is pruned itself.
        QTest::addRow("protected 39,999") << QList<qint64>{25000, 39999} << QList<int>{0} << true;
        QTest::addRow("protected 40,000") << QList<qint64>{25000, 40000} << QList<int>{0} << true;
        QTest::addRow("protected 40,001") << QList<qint64>{25000, 40001} << QList<int>{1, 0} << true;
        // Only more than 20,000 prunable tokens change anything.
        QTest::addRow("prunable 19,999") << QList<qint64>{19999, 40000} << QList<int>{0} << false;
        QTest::addRow("prunable 20,000") << QList<qint64>{20000, 40000} << QList<int>{0} << false;
        QTest::addRow("prunable 20,001") << QList<qint64>{20001, 40000} << QList<int>{0} << true;
        QTest::addRow("prunable spread") << QList<qint64>{10001, 10000, 40000} << QList<int>{1, 0} << true;
        QTest::addRow("nothing beyond") << QList<qint64>{10000, 30000} << QList<int>{} << false;
    }

    void pruneBoundaries()
    {
        QFETCH(QList<qint64>, outputs);
        QFETCH(QList<int>, expectedPruned);
        QFETCH(bool, applies);
        SessionBuilder b;
        const QStringList ids = oldTurnWithOutputs(b, outputs);
        const Compaction::PrunePlan plan = Compaction::planPrune(b.messages());
        QStringList expected;
        qint64 tokens = 0;
        for (const int i : expectedPruned) {
            expected.append(ids.at(i));
            tokens += outputs.at(i);
        }
        QStringList got;
        for (const Compaction::PruneCandidate &c : plan.parts)
            got.append(c.partID);
        QCOMPARE(got, expected);
        QCOMPARE(plan.pruned, tokens);
        qint64 total = 0;
        for (const qint64 t : outputs)
            total += t;
        QCOMPARE(plan.total, total);
        QCOMPARE(plan.willApply(), applies);
    }

    void pruneStops_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("expectedCount");
        QTest::addRow("protected tool skill") << u"skill"_s << 1;
        QTest::addRow("earlier summary") << u"summary"_s << 0;
        QTest::addRow("earlier pruned part") << u"pruned"_s << 0;
        QTest::addRow("pruned part in the same message") << u"pruned-same"_s << 0;
        QTest::addRow("two user turns only") << u"two-turns"_s << 0;
        QTest::addRow("one user turn") << u"one-turn"_s << 0;
        QTest::addRow("three user turns") << u"three-turns"_s << 1;
        QTest::addRow("errors and running tools are not counted") << u"not-completed"_s << 0;
    }

    void pruneStops()
    {
        QFETCH(QString, scenario);
        QFETCH(int, expectedCount);
        SessionBuilder b;
        if (scenario == u"skill") {
            b.user();
            b.assistant();
            const QString bash = b.tool(25000);
            b.tool(90000, u"skill"_s); // newer than the bash output: would be pruned and push it over
            b.user();
            b.assistant();
            b.tool(40000);
            b.user();
            b.user();
            const Compaction::PrunePlan plan = Compaction::planPrune(b.messages());
            QCOMPARE(plan.parts.size(), qsizetype(expectedCount));
            QCOMPARE(plan.parts.first().partID, bash);
            QCOMPARE(plan.total, 65000);
            return;
        }
        if (scenario == u"summary") {
            b.user();
            b.assistant();
            b.tool(90000); // before the summary: never looked at
            b.marker();
            b.summary();
            b.user();
            b.assistant();
            b.tool(40000);
            b.user();
            b.user();
        } else if (scenario == u"pruned" || scenario == u"pruned-same") {
            b.user();
            b.assistant();
            b.tool(90000); // older than an already pruned output: the walk stops before it
            if (scenario == u"pruned") {
                b.user();
                b.assistant();
            }
            b.tool(100, u"bash"_s, ToolStatus::Completed, 1700000000000);
            b.user();
            b.assistant();
            b.tool(40000);
            b.user();
            b.user();
        } else if (scenario == u"two-turns") {
            b.user();
            b.assistant();
            b.tool(25000);
            b.tool(40000);
            b.user();
            b.assistant();
        } else if (scenario == u"one-turn") {
            b.user();
            b.assistant();
            b.tool(25000);
            b.tool(40000);
        } else if (scenario == u"three-turns") {
            b.user();
            b.assistant();
            b.tool(25000);
            b.tool(40000);
            b.user();
            b.user();
        } else if (scenario == u"not-completed") {
            b.user();
            b.assistant();
            b.tool(90000, u"bash"_s, ToolStatus::Error);
            b.tool(90000, u"bash"_s, ToolStatus::Running);
            b.user();
            b.user();
        }
        const Compaction::PrunePlan plan = Compaction::planPrune(b.messages());
        QCOMPARE(plan.parts.size(), qsizetype(expectedCount));
        QCOMPARE(plan.willApply(), expectedCount > 0);
    }

    void pruneThroughTheService()
    {
        QTemporaryDir dir;
        auto store = std::make_shared<JsonStore>(dir.path());
        QVERIFY(store->initialize().ok());
        SessionService service(store);
        SessionService::CreateOptions options;
        options.directory = dir.path();
        const Result<Session> session = service.create(options);
        QVERIFY(session.ok());
        SessionBuilder b(session->id());
        const QStringList ids = oldTurnWithOutputs(b, {30000, 40000});
        QVERIFY(b.write(service));
        const QMap<QString, QByteArray> before = snapshotTree(dir.path());

        // Disabled: the plan, no change.
        Compaction::Settings off = defaults();
        off.prune = false;
        off.pruneDisabledBy = u"compaction.prune"_s;
        Result<Compaction::PrunePlan> plan = Compaction::prune(service, session->id(), off);
        QVERIFY(plan.ok());
        QVERIFY(!plan->enabled);
        QVERIFY(!plan->applied);
        QCOMPARE(plan->parts.size(), 1);
        QCOMPARE(snapshotTree(dir.path()), before);
        // Dry run: no change.
        plan = Compaction::prune(service, session->id(), defaults(), true);
        QVERIFY(plan.ok() && plan->willApply() && !plan->applied);
        QCOMPARE(snapshotTree(dir.path()), before);

        QList<QString> updated;
        connect(&service, &SessionService::partUpdated, this, [&](const Part &p) { updated.append(p.id()); });
        plan = Compaction::prune(service, session->id(), defaults(), false, 1234);
        QVERIFY(plan.ok());
        QVERIFY(plan->applied);
        QCOMPARE(updated, QList<QString>{ids.first()});
        for (const MessageWithParts &m : service.messages(session->id())) {
            for (const Part &p : m.parts) {
                if (p.type() == PartType::Tool)
                    QCOMPARE(p.state().compacted(), p.id() == ids.first() ? 1234 : 0);
            }
        }
        // Once pruned, the walk stops there: a second prune finds nothing new.
        plan = Compaction::prune(service, session->id(), defaults());
        QVERIFY(plan.ok());
        QVERIFY(!plan->applied);
        QCOMPARE(plan->parts.size(), 0);
        // The model sees the marker instead of the output.
        const QList<LlmMessage> model = ModelMessages::toModelMessages(service.messages(session->id()));
        bool cleared = false;
        for (const LlmMessage &m : model) {
            for (const LlmPart &p : m.parts)
                cleared = cleared || p.text == ModelMessages::ClearedToolOutput;
        }
        QVERIFY(cleared);

        // unprune brings the output back, byte for byte.
        QVERIFY(Compaction::unprune(service, session->id(), {Compaction::PruneCandidate{ids.first(), {}, {}, 0}}).ok());
        QCOMPARE(snapshotTree(dir.path()), before);
    }

    void filterCompactedTail()
    {
        SessionBuilder b;
        const QString u1 = b.user(), a1 = b.assistant();
        const QString u2 = b.user(), a2 = b.assistant();
        const QString m1 = b.marker(true, u2);
        const QString s1 = b.summary();
        const QString c1 = b.syntheticUser(u"Continue"_s);
        const QString a3 = b.assistant();
        QCOMPARE(messageIds(ModelMessages::filterCompacted(b.messages())), (QStringList{m1, s1, u2, a2, c1, a3}));
        QCOMPARE(ModelMessages::compactionStart(b.messages()), 4);
        const ModelMessages::CompactionPoint point = ModelMessages::lastCompaction(b.messages());
        QCOMPARE(point.marker, 4);
        QCOMPARE(point.summary, 5);
        QCOMPARE(point.tailStart, 2);

        // A second compaction keeping a tail from after the first summary.
        const QString u4 = b.user(), a4 = b.assistant();
        const QString m2 = b.marker(false, u4);
        const QString s2 = b.summary();
        const QString u5 = b.user();
        QCOMPARE(messageIds(ModelMessages::filterCompacted(b.messages())), (QStringList{m2, s2, u4, a4, u5}));

        // A third one without a tail: from its marker on.
        const QString m3 = b.marker();
        const QString s3 = b.summary();
        QCOMPARE(messageIds(ModelMessages::filterCompacted(b.messages())), (QStringList{m3, s3}));

        // A fourth that has not finished, and one that failed: the third still counts.
        b.marker(false, u5);
        b.summary(u"half"_s, QString());
        b.marker();
        const QString failed = b.summary(u"x"_s);
        b.messages().last().info.setError(MessageError::api(u"boom"_s, 500, false));
        QCOMPARE(ModelMessages::filterCompacted(b.messages()).first().info.id(), m3);
        Q_UNUSED(u1)
        Q_UNUSED(a1)
        Q_UNUSED(failed)
    }

    void filterCompactedBadTail_data()
    {
        QTest::addColumn<QString>("tail");
        QTest::addRow("unknown id") << u"msg_doesnotexist0000000000000"_s;
        QTest::addRow("after the marker") << u"after"_s;
        QTest::addRow("empty") << QString();
    }

    void filterCompactedBadTail()
    {
        QFETCH(QString, tail);
        SessionBuilder b;
        b.user();
        b.assistant();
        const QString m = b.marker(false, tail == u"after" ? QString() : tail);
        const QString s = b.summary();
        const QString u = b.user();
        if (tail == u"after")
            b.messages()[2].parts.first().json().insert(u"tail_start_id"_s, u);
        QCOMPARE(messageIds(ModelMessages::filterCompacted(b.messages())), (QStringList{m, s, u}));
    }

    void splitPoint_data()
    {
        QTest::addColumn<QString>("layout"); // U/A = 100 chars each, S = subtask-only user, M = marker, T = assistant awaiting tools
        QTest::addColumn<int>("firstCandidate");
        QTest::addColumn<int>("expected");
        QTest::addRow("70 percent of 10") << u"UAUAUAUAUA"_s << 0 << 8;
        QTest::addRow("only user messages split") << u"UAAAAAAUAA"_s << 0 << 7;
        QTest::addRow("subtask-only user is no split point: all") << u"UAUAUAUASA"_s << 0 << 10;
        QTest::addRow("no point after target, tools pending: last point") << u"UAUAUAUAST"_s << 0 << 6;
        QTest::addRow("marker is no split point") << u"UAUAUAUAMA"_s << 0 << 10;
        QTest::addRow("late user message") << u"UAUAUAUAAU"_s << 0 << 9;
        QTest::addRow("first candidate restricts") << u"UAUAUAUAUA"_s << 9 << 10;
        QTest::addRow("single user message: nothing") << u"U"_s << 0 << 0;
        QTest::addRow("empty") << QString() << 0 << 0;
    }

    void splitPoint()
    {
        QFETCH(QString, layout);
        QFETCH(int, firstCandidate);
        QFETCH(int, expected);
        SessionBuilder b;
        const QString hundred(100, u'y');
        for (const QChar c : layout) {
            switch (c.unicode()) {
            case u'U':
                b.user(hundred);
                break;
            case u'A':
                b.assistant(hundred);
                break;
            case u'T':
                b.assistant(hundred, u"tool-calls"_s);
                break;
            case u'S':
                b.subtaskUser();
                break;
            case u'M':
                b.marker();
                break;
            }
        }
        QCOMPARE(Compaction::findSplitPoint(b.messages(), 0.7, firstCandidate), qsizetype(expected));
    }

    void splitCountsToolOutput()
    {
        // Characters are what the model reads: a big tool output moves the split forward.
        SessionBuilder b;
        b.user(u"q"_s);
        b.assistant(u"a"_s);
        b.tool(1000); // 4000 characters
        const QString second = b.user(u"q"_s);
        b.assistant(u"a"_s);
        b.user(u"q"_s);
        b.assistant(u"a"_s);
        QCOMPARE(b.messages().at(Compaction::findSplitPoint(b.messages())).info.id(), second);
        const Compaction::SummaryPlan plan = Compaction::planSummary(b.messages(), Compaction::Strategy::SummaryTail);
        QCOMPARE(plan.tailStartID, second);
        QCOMPARE(plan.summarized().size(), 2);
        QCOMPARE(plan.kept().size(), 4);
    }

    void planSummaryAfterTailCompaction()
    {
        // A second summary-tail compaction splits only after the first summary.
        SessionBuilder b;
        b.user(QString(1000, u'a'));
        b.assistant();
        const QString u2 = b.user(QString(100, u'b'));
        b.assistant();
        b.marker(false, u2);
        b.summary(QString(5000, u's'));
        const QString u3 = b.user(QString(100, u'c'));
        b.assistant(QString(100, u'd'));
        const Compaction::SummaryPlan plan = Compaction::planSummary(b.messages(), Compaction::Strategy::SummaryTail);
        // window: marker, summary, u2, a2, u3, a3 -- the 70% line falls inside the summary; the
        // first allowed split point is u3.
        QCOMPARE(plan.window.size(), 6);
        QCOMPARE(plan.tailStartID, u3);
        QCOMPARE(plan.split, 4);
        const Compaction::SummaryPlan whole = Compaction::planSummary(b.messages(), Compaction::Strategy::Summary);
        QCOMPARE(whole.summarized().size(), 6);
        QVERIFY(whole.tailStartID.isEmpty());
    }

    void preview()
    {
        SessionBuilder b;
        oldTurnWithOutputs(b, {30000, 40000});
        Tokens usage;
        usage.input = 150000;
        usage.cacheRead = 20000;
        usage.output = 1000;
        b.messages().last().info.setTokens(usage);
        const Compaction::ModelLimits model{u"fake/gpt-test"_s, 200000, 8000};
        const Compaction::Preview pv = Compaction::makePreview(b.sessionID(), b.messages(), defaults(), Compaction::Strategy::Summary, model);
        QCOMPARE(pv.summarized, messageIds(b.messages()));
        QVERIFY(pv.kept.isEmpty());
        QCOMPARE(pv.tokensBefore, 171000);
        QCOMPARE(pv.beforeSource, u"usage"_s);
        QCOMPARE(pv.prune.parts.size(), 1);
        QVERIFY(pv.prune.willApply());
        QCOMPARE(pv.prune.savings(), 30000 - 9); // the cleared marker is 33 characters: 9 tokens
        // The summarised tokens are counted after the prune.
        QVERIFY(pv.summarizedTokens < pv.estimatedBefore - 29000);
        QCOMPARE(pv.summarySource, u"heuristic"_s);
        QCOMPARE(pv.summaryTokens, 4096);
        QCOMPARE(pv.usable, 192000);
        QVERIFY(!pv.overflow);
        QCOMPARE(pv.tokensAfter, pv.overhead + 6 + 4096);
        QVERIFY(pv.canCompact());

        const JsonObject json = pv.toJson();
        QCOMPARE(json.string(u"strategy"), u"summary"_s);
        QCOMPARE(json.string(u"model"), u"fake/gpt-test"_s);
        QCOMPARE(json.object(u"summarize").integer(u"count"), b.messages().size());
        QCOMPARE(json.object(u"prune").array(u"parts").size(), 1);
        QCOMPARE(json.object(u"tokens").integer(u"before"), 171000);
        QCOMPARE(json.object(u"tokens").integer(u"after"), pv.tokensAfter);

        // Earlier summaries size the next one.
        SessionBuilder c;
        c.user();
        c.assistant();
        c.marker();
        c.summary(u"s"_s, u"stop"_s, 900);
        c.user();
        c.assistant();
        c.marker();
        c.summary(u"s"_s, u"stop"_s, 1100);
        c.user(QString(40000, u'q'));
        const Compaction::Preview again = Compaction::makePreview(c.sessionID(), c.messages(), defaults(), Compaction::Strategy::Summary, model);
        QCOMPARE(again.summaryTokens, 1000);
        QCOMPARE(again.summarySource, u"previous-summaries"_s);
        QCOMPARE(again.beforeSource, u"estimate"_s);
    }

    void previewSummaryTail()
    {
        SessionBuilder b;
        for (int i = 0; i < 5; ++i) {
            b.user(QString(100, u'u'));
            b.assistant(QString(100, u'a'));
        }
        const Compaction::Preview pv = Compaction::makePreview(b.sessionID(), b.messages(), defaults(),
                                                               Compaction::Strategy::SummaryTail, {});
        QCOMPARE(pv.summarized.size(), 8);
        QCOMPARE(pv.kept.size(), 2);
        QCOMPARE(pv.tailStartID, b.messages().at(8).info.id());
        QCOMPARE(pv.keptTokens, 50);
        QVERIFY(pv.model.ref.isEmpty());

        SessionBuilder one;
        one.user(u"only"_s);
        const Compaction::Preview none = Compaction::makePreview(one.sessionID(), one.messages(), defaults(),
                                                                 Compaction::Strategy::SummaryTail, {});
        QVERIFY(!none.canCompact());
        QVERIFY(none.problem.contains(u"nothing to summarise"));
        QVERIFY(!Compaction::makePreview(one.sessionID(), {}, defaults(), Compaction::Strategy::Summary, {}).canCompact());
    }

    void undoPlan_data()
    {
        QTest::addColumn<QString>("after"); // what follows the marker
        QTest::addColumn<int>("removed");
        QTest::addColumn<QString>("error");
        QTest::addRow("manual") << u"S"_s << 2 << QString();
        QTest::addRow("automatic with continue") << u"SC"_s << 3 << QString();
        QTest::addRow("failed summary") << u"F"_s << 2 << QString();
        QTest::addRow("agent continued") << u"SCA"_s << 0 << u"the agent continued"_s;
        QTest::addRow("later prompt") << u"SU"_s << 0 << u"a prompt was sent"_s;
        QTest::addRow("still streaming") << u"R"_s << 0 << u"still running"_s;
        QTest::addRow("no compaction") << u"-"_s << 0 << u"no compaction"_s;
    }

    void undoPlan()
    {
        QFETCH(QString, after);
        QFETCH(int, removed);
        QFETCH(QString, error);
        SessionBuilder b;
        b.user();
        b.assistant();
        if (after != u"-")
            b.marker(after.contains(u'C'));
        for (const QChar c : after) {
            switch (c.unicode()) {
            case u'S':
                b.summary();
                break;
            case u'F':
                b.summary();
                b.messages().last().info.setError(MessageError::api(u"x"_s, 500, false));
                break;
            case u'R':
                b.summary(u"half"_s, QString());
                break;
            case u'C':
                b.syntheticUser(Compaction::ContinueText.toString());
                break;
            case u'A':
                b.assistant();
                break;
            case u'U':
                b.user();
                break;
            }
        }
        const Result<Compaction::UndoPlan> plan = Compaction::planUndo(b.messages());
        QCOMPARE(plan.ok(), error.isEmpty());
        if (!plan) {
            QVERIFY2(plan.error().message.contains(error), qPrintable(plan.error().message));
            return;
        }
        QCOMPARE(plan->removed.size(), qsizetype(removed));
        QCOMPARE(plan->removed, messageIds(b.messages()).mid(2));
    }
};

QTEST_GUILESS_MAIN(TestCompaction)
#include "tst_compaction.moc"
