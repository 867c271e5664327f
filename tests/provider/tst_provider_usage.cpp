// SPDX-License-Identifier: GPL-3.0-or-later
#include "provider/usage.h"

#include <QTest>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{

ModelCost rates(double input, double output, double cacheRead = 0, double cacheWrite = 0,
                std::optional<CostRates> over = std::nullopt)
{
    return ModelCost{CostRates{input, output, cacheRead, cacheWrite}, over};
}

LlmUsage usage(qint64 input, qint64 output, qint64 cached = 0, qint64 reasoning = 0, qint64 cacheWrite = 0)
{
    LlmUsage u;
    u.inputTokens = input;
    u.outputTokens = output;
    u.cachedInputTokens = cached;
    u.reasoningTokens = reasoning;
    u.cacheWriteTokens = cacheWrite;
    return u;
}

JsonObject anthropicMeta(const JsonValue &cacheCreation)
{
    return JsonObject{
        {u"anthropic"_s, JsonObject{{u"usage"_s, JsonObject{}}, {u"cacheCreationInputTokens"_s, cacheCreation}}}};
}

const ModelCost sonnet = rates(3, 15, 0.3, 3.75, CostRates{6, 22.5, 0.6, 7.5});
const ModelCost gpt4o = rates(2.5, 10, 1.25);
const ModelCost gpt4oMini = rates(0.15, 0.6, 0.075);
const ModelCost o3 = rates(2, 8, 0.5);
const ModelCost geminiPro = rates(1.25, 10, 0.125, 0, CostRates{2.5, 15, 0.25, 0});

} // namespace

class TestUsage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void getUsage_data()
    {
        QTest::addColumn<ModelCost>("cost");
        QTest::addColumn<LlmUsage>("usage");
        QTest::addColumn<JsonObject>("metadata");
        QTest::addColumn<Tokens>("tokens");
        QTest::addColumn<QString>("exact");
        QTest::addColumn<qint64>("cents");

        // OpenAI reports prompt_tokens including the cached ones: 10,000 - 8,000 = 2,000 input.
        // 2,000 x 2.5 + 500 x 10 + 8,000 x 1.25 = 5,000 + 5,000 + 10,000 micro-dollars.
        QTest::addRow("openai subtracts cached")
            << gpt4o << usage(10000, 500, 8000) << JsonObject{{u"openai"_s, JsonObject{}}}
            << Tokens{2000, 500, 0, 8000, 0} << u"0.02"_s << qint64(2);
        // Reasoning is billed at the output rate on top of output, as OpenCode does.
        // 5,000 x 2 + 3,000 x 8 + 2,000 x 8 = 10,000 + 24,000 + 16,000 micro-dollars.
        QTest::addRow("reasoning at output rate") << o3 << usage(5000, 3000, 0, 2000) << JsonObject{}
                                                  << Tokens{5000, 3000, 2000, 0, 0} << u"0.05"_s << qint64(5);
        // Anthropic reports input without cache: kept. 12x3 + 87x15 + 3000x0.3 + 500x3.75 = 36+1305+900+1875.
        QTest::addRow("anthropic keeps input, cache write from metadata")
            << sonnet << usage(12, 87, 3000, 0, 500) << anthropicMeta(JsonValue(qint64(500)))
            << Tokens{12, 87, 0, 3000, 500} << u"0.004116"_s << qint64(0);
        QTest::addRow("anthropic, null cache creation")
            << sonnet << usage(12, 87, 3000) << anthropicMeta(JsonValue(nullptr)) << Tokens{12, 87, 0, 3000, 0}
            << u"0.002241"_s << qint64(0);
        // A realistic cached step: 3x3 + 1500x15 + 45000x0.3 + 2000x3.75 = 9 + 22500 + 13500 + 7500.
        QTest::addRow("anthropic cached step")
            << sonnet << usage(3, 1500, 45000, 0, 2000) << anthropicMeta(JsonValue(qint64(2000)))
            << Tokens{3, 1500, 0, 45000, 2000} << u"0.043509"_s << qint64(4);
        QTest::addRow("bedrock keeps input, cache write from bedrock usage")
            << rates(3, 15, 0.3, 3.75) << usage(1000, 100, 200)
            << JsonObject{{u"bedrock"_s, JsonObject{{u"usage"_s, JsonObject{{u"cacheWriteInputTokens"_s, 400}}}}}}
            << Tokens{1000, 100, 0, 200, 400} << u"0.00606"_s << qint64(1);
        // Over 200K: 150,000 + 60,000 > 200,000 -> 150000x6 + 2000x22.5 + 60000x0.6 = 900000+45000+36000.
        QTest::addRow("over 200K tier") << sonnet << usage(150000, 2000, 60000) << anthropicMeta(JsonValue(nullptr))
                                        << Tokens{150000, 2000, 0, 60000, 0} << u"0.981"_s << qint64(98);
        // Exactly 200,000 is not over: 140000x3 + 2000x15 + 60000x0.3 = 420000+30000+18000.
        QTest::addRow("exactly 200K uses base")
            << sonnet << usage(140000, 2000, 60000) << anthropicMeta(JsonValue(nullptr))
            << Tokens{140000, 2000, 0, 60000, 0} << u"0.468"_s << qint64(47);
        QTest::addRow("over 200K without a tier uses base")
            << rates(3, 15, 0.3, 3.75) << usage(150000, 2000, 60000) << anthropicMeta(JsonValue(nullptr))
            << Tokens{150000, 2000, 0, 60000, 0} << u"0.498"_s << qint64(50);
        // The tier looks at the adjusted input: 250,000 - 100,000 = 150,000 (+100,000 read) > 200,000.
        // 150000x2.5 + 1000x15 + 100000x0.25 = 375000 + 15000 + 25000.
        QTest::addRow("over 200K, openai semantics") << geminiPro << usage(250000, 1000, 100000) << JsonObject{}
                                                     << Tokens{150000, 1000, 0, 100000, 0} << u"0.415"_s << qint64(42);
        // Prices with several decimals: 666,668 x 0.15 + 777,777 x 0.6 + 333,333 x 0.075
        // = 100000.2 + 466666.2 + 24999.975 = 591666.375 micro-dollars.
        QTest::addRow("exact decimals") << gpt4oMini << usage(1000001, 777777, 333333) << JsonObject{}
                                        << Tokens{666668, 777777, 0, 333333, 0} << u"0.591666375"_s << qint64(59);
        QTest::addRow("free local model") << ModelCost{} << usage(123456, 789, 1000) << JsonObject{}
                                          << Tokens{122456, 789, 0, 1000, 0} << u"0"_s << qint64(0);
        // One million output tokens at $75: exactly 75 dollars.
        QTest::addRow("dollars") << rates(15, 75, 1.5, 18.75) << usage(0, 1000000) << anthropicMeta(JsonValue(nullptr))
                                 << Tokens{0, 1000000, 0, 0, 0} << u"75"_s << qint64(7500);
    }

    void getUsage()
    {
        QFETCH(ModelCost, cost);
        QFETCH(LlmUsage, usage);
        QFETCH(JsonObject, metadata);
        QFETCH(Tokens, tokens);
        QFETCH(QString, exact);
        QFETCH(qint64, cents);

        const StepUsage result = weft::getUsage(cost, usage, metadata);
        QCOMPARE(result.tokens.input, tokens.input);
        QCOMPARE(result.tokens.output, tokens.output);
        QCOMPARE(result.tokens.reasoning, tokens.reasoning);
        QCOMPARE(result.tokens.cacheRead, tokens.cacheRead);
        QCOMPARE(result.tokens.cacheWrite, tokens.cacheWrite);
        QCOMPARE(result.cost.toString(), exact);
        QCOMPARE(result.cost.cents(), cents);
        // The double is the one nearest to the exact decimal (what Decimal.toNumber() gives).
        QCOMPARE(result.costValue(), exact.toDouble());
    }

    void exactSums()
    {
        // Ten steps of 0.1 dollars: exact, where adding doubles drifts.
        const Money step = costOf(CostRates{0, 100, 0, 0}, Tokens{0, 1000, 0, 0, 0});
        QCOMPARE(step.toString(), u"0.1"_s);
        Money total;
        double naive = 0;
        for (int i = 0; i < 10; ++i) {
            total += step;
            naive += step.toDouble();
        }
        QCOMPARE(total.toString(), u"1"_s);
        QCOMPARE(total.toDouble(), 1.0);
        QVERIFY(naive != 1.0); // 0.9999999999999999
        QCOMPARE(total.cents(), 100);

        // Many small Anthropic steps add up to the cent.
        Money session;
        for (int i = 0; i < 1000; ++i)
            session
                += weft::getUsage(sonnet, usage(3, 1500, 45000, 0, 2000), anthropicMeta(JsonValue(qint64(2000)))).cost;
        QCOMPARE(session.toString(), u"43.509"_s);
        QCOMPARE(session.cents(), 4351);
    }

    void money_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("exact");
        QTest::addColumn<qint64>("cents");
        QTest::addRow("zero") << 0.0 << u"0"_s << qint64(0);
        QTest::addRow("1.005 rounds up") << 1.005 << u"1.005"_s << qint64(101);
        QTest::addRow("0.0049") << 0.0049 << u"0.0049"_s << qint64(0);
        QTest::addRow("0.005") << 0.005 << u"0.005"_s << qint64(1);
        QTest::addRow("negative") << -0.125 << u"-0.125"_s << qint64(-13);
        QTest::addRow("pico") << 1e-12 << u"0.000000000001"_s << qint64(0);
        QTest::addRow("large") << 1234567.891 << u"1234567.891"_s << qint64(123456789);
    }

    void money()
    {
        QFETCH(double, value);
        QFETCH(QString, exact);
        QFETCH(qint64, cents);
        const Money m = Money::fromDouble(value);
        QCOMPARE(m.toString(), exact);
        QCOMPARE(m.cents(), cents);
        QCOMPARE(m.toDouble(), value);
    }

    void subPicoPricesRound()
    {
        // A price with more than twelve decimals per million tokens rounds to the pico-dollar.
        const Money m = costOf(CostRates{0.0000001234567, 0, 0, 0}, Tokens{3, 0, 0, 0, 0});
        QCOMPARE(m.pico(), 0); // 3 x 1.234567e-13 / 1e6 is far below one pico-dollar
        const Money big = costOf(CostRates{0.1234567, 0, 0, 0}, Tokens{1000000, 0, 0, 0, 0});
        QCOMPARE(big.toString(), u"0.1234567"_s);
    }
};

QTEST_GUILESS_MAIN(TestUsage)
#include "tst_provider_usage.moc"
