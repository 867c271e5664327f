// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventrecorder.h"
#include "fakellmserver.h"
#include "testdata.h"

#include "provider/config.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{

QString catalogueFile()
{
    return QStringLiteral(WEFT_SOURCE_DIR "/resources/models.json");
}

ModelCatalogue catalogue()
{
    Result<ModelCatalogue> c = ModelCatalogue::load(catalogueFile());
    if (!c)
        qFatal("%s", qPrintable(c.error().toString()));
    return std::move(c).value();
}

QProcessEnvironment env(std::initializer_list<std::pair<QString, QString>> vars)
{
    QProcessEnvironment e;
    for (const auto &[k, v] : vars)
        e.insert(k, v);
    return e;
}

Config parseOrFail(const QByteArray &text, const QProcessEnvironment &e = {})
{
    Result<Config> c = Config::parse(text, u"/tmp/weft.json"_s, e);
    if (!c)
        qFatal("%s", qPrintable(c.error().toString()));
    return std::move(c).value();
}

// moc misreads raw string literals that hold "//" or quotes: the texts here are plain literals.
QByteArray fullConfigText()
{
    return "{\n"
           "  \"$schema\": \"https://opencode.ai/config.json\",\n"
           "  // the main model\n"
           "  \"model\": \"anthropic/claude-sonnet-4-5\",\n"
           "  \"small_model\": \"anthropic/claude-haiku-4-5\", /* cheap */\n"
           "  \"provider\": {\n"
           "    \"anthropic\": {\n"
           "      \"options\": { \"apiKey\": \"{env:MY_ANTHROPIC}\" },\n"
           "    },\n"
           "    \"local\": {\n"
           "      \"npm\": \"@ai-sdk/openai-compatible\",\n"
           "      \"name\": \"My llama.cpp\",\n"
           "      \"options\": { \"baseURL\": \"http://127.0.0.1:8080/v1\", \"timeout\": 600000, \"headers\": { "
           "\"X-A\": \"b\" } },\n"
           "      \"models\": {\n"
           "        \"qwen\": {\n"
           "          \"id\": \"qwen2.5-coder-32b\",\n"
           "          \"limit\": { \"context\": 32768, \"output\": 8192 },\n"
           "          \"cost\": { \"input\": 0.1, \"output\": 0.2, \"cache_read\": 0.01, \"cache_write\": 0.02,\n"
           "                    \"context_over_200k\": { \"input\": 0.3, \"output\": 0.4 } },\n"
           "        },\n"
           "      },\n"
           "    },\n"
           "  },\n"
           "  \"permission\": { \"edit\": \"ask\", \"bash\": { \"git push\": \"deny\", \"*\": \"allow\" } },\n"
           "  \"compaction\": { \"auto\": false, \"prune\": true },\n"
           "  \"agent\": { \"build\": { \"model\": \"local/qwen\" } },\n"
           "}"_ba;
}

QByteArray npmConfigText(const QString &npm)
{
    return "{\"provider\": {\"p\": {\"npm\": \"" + npm.toUtf8()
        + "\", \"options\": {\"baseURL\": \"http://127.0.0.1:9/v1\"}}}}";
}

QByteArray configuredText()
{
    return "{\"model\": \"x/y\", \"small_model\": \"x/z\", \"provider\": {\"x\": {\"options\": {\"baseURL\": "
           "\"http://h\"}}}}";
}

QByteArray endToEndText(const QUrl &baseUrl)
{
    return "{\"provider\": {\"anthropic\": {\"options\": {\"baseURL\": \"" + baseUrl.toString().toUtf8()
        + "\", \"apiKey\": \"{env:K}\"}}}}";
}

QByteArray commentMarkersText()
{
    return "{\"model\": \"http://a/*b*/,}\"}";
}

QByteArray apiKeysText()
{
    return "{\"provider\": {\n"
           "            \"openai\": {\"options\": {\"apiKey\": \"sk-config\"}},\n"
           "            \"custom\": {\"npm\": \"@ai-sdk/openai-compatible\", \"env\": [\"CUSTOM_KEY\"], \"options\": "
           "{\"baseURL\": \"http://c/v1\"}}\n"
           "        }}"_ba;
}

QByteArray fileSubstitutionText()
{
    return "{\n"
           "  // \"model\": \"{file:missing.txt}\",\n"
           "  \"provider\": {\n"
           "    \"a\": { \"options\": { \"baseURL\": \"http://x\", \"apiKey\": \"{file:./key.txt}\" } },\n"
           "    \"b\": { \"options\": { \"baseURL\": \"http://y\", \"apiKey\": \"{file:~/keys/k}\" } }\n"
           "  }\n"
           "}"_ba;
}

} // namespace

class TestProviderConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fullOpenCodeConfig()
    {
        const QByteArray text = fullConfigText();
        const Config config = parseOrFail(text, env({{u"MY_ANTHROPIC"_s, u"sk-ant-from-env"_s}}));
        QCOMPARE(config.model(), u"anthropic/claude-sonnet-4-5"_s);
        QCOMPARE(config.smallModel(), u"anthropic/claude-haiku-4-5"_s);
        QCOMPARE(config.compaction().value(u"auto"), JsonValue(false));
        QCOMPARE(config.compaction().value(u"prune"), JsonValue(true));
        QCOMPARE(config.permission().toObject().string(u"edit"), u"ask"_s);
        QCOMPARE(config.agent().object(u"build").string(u"model"), u"local/qwen"_s);
        QCOMPARE(config.provider(u"anthropic").object(u"options").string(u"apiKey"), u"sk-ant-from-env"_s);

        const ProviderFactory factory(config, catalogue(), QProcessEnvironment());
        const Result<ProviderInfo> anthropic = factory.providerInfo(u"anthropic"_s);
        QVERIFY(anthropic);
        QCOMPARE(anthropic->protocol, ProviderProtocol::Anthropic);
        QCOMPARE(anthropic->apiKey, u"sk-ant-from-env"_s);
        QCOMPARE(anthropic->apiKeySource, u"config"_s);
        QCOMPARE(anthropic->baseURL, u"https://api.anthropic.com/v1"_s);

        const Result<ProviderInfo> local = factory.providerInfo(u"local"_s);
        QVERIFY(local);
        QCOMPARE(local->protocol, ProviderProtocol::OpenAiCompatible);
        QCOMPARE(local->name, u"My llama.cpp"_s);
        QCOMPARE(local->baseURL, u"http://127.0.0.1:8080/v1"_s);
        QCOMPARE(local->timeoutMs, 600000);
        QCOMPARE(local->headers.string(u"X-A"), u"b"_s);
        QVERIFY(local->apiKey.isEmpty());

        const Result<ModelInfo> qwen = factory.modelInfo(u"local/qwen"_s);
        QVERIFY(qwen);
        QCOMPARE(qwen->source, ModelInfo::Source::Config);
        QCOMPARE(qwen->apiModelID, u"qwen2.5-coder-32b"_s);
        QCOMPARE(qwen->limit.context, 32768);
        QCOMPARE(qwen->limit.output, 8192);
        QCOMPARE(qwen->maxOutputTokens(), 8192);
        QCOMPARE(qwen->cost.base, (CostRates{0.1, 0.2, 0.01, 0.02}));
        QVERIFY(qwen->cost.over200K);
        QCOMPARE(*qwen->cost.over200K, (CostRates{0.3, 0.4, 0, 0}));
    }

    void envSubstitution()
    {
        const Config config = parseOrFail("{\"model\": \"{env:WEFT_MODEL}\", \"small_model\": \"{env:UNSET_VAR}x\"}"_ba,
                                          env({{u"WEFT_MODEL"_s, u"openai/gpt-5"_s}}));
        QCOMPARE(config.model(), u"openai/gpt-5"_s);
        QCOMPARE(config.smallModel(), u"x"_s); // unset variables become empty, as in OpenCode
    }

    void fileSubstitution()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir.filePath(u"key.txt"_s), "  sk-\"quoted\"\nsecond line \n"));
        QVERIFY(QDir(dir.path()).mkpath(u"home/keys"_s));
        QVERIFY(writeFile(dir.filePath(u"home/keys/k"_s), "home-key"));
        const QByteArray text = fileSubstitutionText();
        QVERIFY(writeFile(dir.filePath(u"weft.json"_s), text));
        const Result<Config> config
            = Config::load(dir.filePath(u"weft.json"_s), env({{u"HOME"_s, dir.filePath(u"home"_s)}}));
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        QCOMPARE(config->provider(u"a").object(u"options").string(u"apiKey"), u"sk-\"quoted\"\nsecond line"_s);
        QCOMPARE(config->provider(u"b").object(u"options").string(u"apiKey"), u"home-key"_s);

        // A missing file outside a comment is an error naming the file and line.
        QVERIFY(writeFile(dir.filePath(u"bad.json"_s),
                          "{\n  \"model\": \"x/y\",\n  \"small_model\": \"{file:nope.txt}\"\n}"));
        const Result<Config> bad = Config::load(dir.filePath(u"bad.json"_s), QProcessEnvironment());
        QVERIFY(!bad);
        QCOMPARE(bad.error().where, dir.filePath(u"bad.json"_s) + u":3"_s);
        QVERIFY(bad.error().message.contains(u"bad file reference"_s));
        QVERIFY(bad.error().message.contains(u"nope.txt"_s));

        // Devices, pipes and folders would be read forever or make no sense; a huge file is not
        // a key. Each is refused at once, naming the reference.
        QVERIFY(::mkfifo(QFile::encodeName(dir.filePath(u"fifo"_s)).constData(), 0600) == 0);
        QVERIFY(QDir(dir.path()).mkpath(u"folder"_s));
        QFile huge(dir.filePath(u"huge.txt"_s));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(9 * 1024 * 1024));
        huge.close();
        const QList<std::pair<QString, QString>> refused{
            {u"/dev/zero"_s, u"is not a regular file"_s},
            {u"fifo"_s, u"is not a regular file"_s},
            {u"folder"_s, u"is not a regular file"_s},
            {u"huge.txt"_s, u"is larger than 8 MiB"_s},
        };
        for (const auto &[reference, why] : refused) {
            QVERIFY(writeFile(dir.filePath(u"special.json"_s),
                              "{\n  \"model\": \"{file:" + reference.toUtf8() + "}\"\n}"));
            const Result<Config> special = Config::load(dir.filePath(u"special.json"_s), QProcessEnvironment());
            QVERIFY2(!special, qPrintable(reference));
            QCOMPARE(special.error().where, dir.filePath(u"special.json"_s) + u":2"_s);
            QVERIFY2(special.error().message.contains(why), qPrintable(special.error().message));
        }
    }

    void jsonc_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("model");
        QTest::addRow("line comments") << "// top\n{\"model\": \"a/b\" // after\n}"_ba << u"a/b"_s;
        QTest::addRow("block comments") << "/* a\n b */{/**/\"model\"/* x */: \"a/b\"}"_ba << u"a/b"_s;
        QTest::addRow("trailing commas") << "{\"model\": \"a/b\", \"agent\": {\"x\": [1, 2,],},}"_ba << u"a/b"_s;
        QTest::addRow("comment markers in strings") << commentMarkersText() << u"http://a/*b*/,}"_s;
        QTest::addRow("escaped quote in string")
            << "{\"model\": \"a\\\"// not a comment\"}"_ba << u"a\"// not a comment"_s;
        QTest::addRow("crlf and bom") << "\xEF\xBB\xBF{\r\n  \"model\": \"a/b\", // c\r\n}\r\n"_ba << u"a/b"_s;
        QTest::addRow("empty") << "  // nothing\n"_ba << QString();
    }

    void jsonc()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, model);
        QCOMPARE(parseOrFail(text).model(), model);
    }

    void errorsWithLines_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("messagePart");
        QTest::addRow("syntax") << "{\n  // comment\n  \"model\": \"a/b\"\n  \"small_model\": \"c/d\"\n}"_ba << 4
                                << u"invalid JSON"_s;
        QTest::addRow("block comment keeps lines")
            << "{\n/* one\ntwo */\n  \"model\": tru\n}"_ba << 4 << u"invalid JSON"_s;
        QTest::addRow("not an object") << "[1, 2]"_ba << 1 << u"must be a JSON object"_s;
        QTest::addRow("options not an object")
            << "{\n  \"provider\": {\n    \"x\": {\n      \"options\": \"nope\"\n    }\n  }\n}"_ba << 4
            << u"$.provider.x.options: expected object, found string"_s;
        QTest::addRow("negative limit")
            << "{\"provider\": {\"x\": {\"models\": {\n\"m\": {\n\"limit\": {\n\"context\": -1}}}}}}"_ba << 4
            << u"$.provider.x.models.m.limit.context"_s;
        QTest::addRow("model not a string") << "{\n\n\"model\": 5}"_ba << 3 << u"$.model: expected string"_s;
    }

    void errorsWithLines()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, messagePart);
        const Result<Config> c = Config::parse(text, u"/etc/weft.json"_s, QProcessEnvironment());
        QVERIFY(!c);
        QVERIFY2(c.error().message.contains(messagePart), qPrintable(c.error().toString()));
        QVERIFY2(c.error().where.startsWith(u"/etc/weft.json:%1"_s.arg(line)), qPrintable(c.error().toString()));
    }

    void protocolFromNpm_data()
    {
        QTest::addColumn<QString>("npm");
        QTest::addColumn<ProviderProtocol>("protocol");
        QTest::addColumn<QString>("maxTokensField");
        QTest::addRow("anthropic") << u"@ai-sdk/anthropic"_s << ProviderProtocol::Anthropic << u"max_tokens"_s;
        QTest::addRow("openai") << u"@ai-sdk/openai"_s << ProviderProtocol::OpenAiCompatible
                                << u"max_completion_tokens"_s;
        QTest::addRow("openai-compatible")
            << u"@ai-sdk/openai-compatible"_s << ProviderProtocol::OpenAiCompatible << u"max_tokens"_s;
        QTest::addRow("anything else") << u"@openrouter/ai-sdk-provider"_s << ProviderProtocol::OpenAiCompatible
                                       << u"max_tokens"_s;
    }

    void protocolFromNpm()
    {
        QFETCH(QString, npm);
        QFETCH(ProviderProtocol, protocol);
        QFETCH(QString, maxTokensField);
        const QByteArray text = npmConfigText(npm);
        const ProviderFactory factory(parseOrFail(text), ModelCatalogue(), QProcessEnvironment());
        QCOMPARE(ProviderFactory::protocolForNpm(npm), protocol);
        const Result<Provider *> created = factory.create(u"p/some-model"_s);
        QVERIFY(created);
        std::unique_ptr<Provider> provider(created.value());
        QCOMPARE(provider->settings().protocol, protocol);
        QCOMPARE(qobject_cast<AnthropicProvider *>(provider.get()) != nullptr, protocol == ProviderProtocol::Anthropic);
        LlmRequest r;
        r.modelID = u"m"_s;
        r.maxOutputTokens = 100;
        const JsonObject body = parseJson(provider->requestBody(r))->toObject();
        QCOMPARE(body.integer(maxTokensField), 100);
    }

    void apiKeys()
    {
        const QByteArray text = apiKeysText();
        const QProcessEnvironment e = env({{u"OPENAI_API_KEY"_s, u"sk-env-openai"_s},
                                           {u"ANTHROPIC_API_KEY"_s, u"sk-env-anthropic"_s},
                                           {u"GEMINI_API_KEY"_s, u"gm-key"_s},
                                           {u"CUSTOM_KEY"_s, u"custom-key"_s},
                                           {u"OPENROUTER_API_KEY"_s, u"or-key"_s}});
        const ProviderFactory factory(parseOrFail(text), catalogue(), e);
        QCOMPARE(factory.providerInfo(u"openai"_s)->apiKey, u"sk-config"_s); // config wins
        QCOMPARE(factory.providerInfo(u"anthropic"_s)->apiKey, u"sk-env-anthropic"_s);
        QCOMPARE(factory.providerInfo(u"anthropic"_s)->apiKeySource, u"env:ANTHROPIC_API_KEY"_s);
        QCOMPARE(factory.providerInfo(u"google"_s)->apiKey, u"gm-key"_s); // second variable of the list
        QCOMPARE(factory.providerInfo(u"custom"_s)->apiKey, u"custom-key"_s);
        QCOMPARE(factory.providerInfo(u"openrouter"_s)->apiKey, u"or-key"_s);
        QCOMPARE(factory.providerInfo(u"openrouter"_s)->baseURL, u"https://openrouter.ai/api/v1"_s);
        QVERIFY(factory.providerInfo(u"ollama"_s)->apiKey.isEmpty());

        // Without a catalogue, the built-in list of variables still finds keys.
        const ProviderFactory bare(Config(), ModelCatalogue(), e);
        QVERIFY(!bare.providerInfo(u"openrouter"_s)); // unknown without catalogue or config
        QCOMPARE(ProviderFactory::knownEnvVars(u"openrouter"), QStringList{u"OPENROUTER_API_KEY"_s});
    }

    void modelResolution()
    {
        const QByteArray text = "{\"provider\": {\n"
                                "            \"anthropic\": {\"models\": {\"claude-sonnet-4-5\": {\"limit\": "
                                "{\"output\": 16000}}, \"my-alias\": {\"id\": \"claude-opus-4-5\"}}},\n"
                                "            \"openai\": {\"models\": {\"gpt-4o\": {\"cost\": {\"input\": 1}}}}\n"
                                "        }}"_ba;
        const ProviderFactory factory(parseOrFail(text), catalogue(), QProcessEnvironment());

        // Config over catalogue, field by field.
        const Result<ModelInfo> sonnet = factory.modelInfo(u"anthropic/claude-sonnet-4-5"_s);
        QVERIFY(sonnet);
        QCOMPARE(sonnet->source, ModelInfo::Source::Config);
        QCOMPARE(sonnet->limit.output, 16000);
        QCOMPARE(sonnet->limit.context, 200000);
        QCOMPARE(sonnet->cost.base, (CostRates{3, 15, 0.3, 3.75}));
        QCOMPARE(sonnet->cost.over200K, std::optional<CostRates>(CostRates{6, 22.5, 0.6, 7.5}));
        QVERIFY(sonnet->reasoning);
        QCOMPARE(sonnet->maxOutputTokens(), 16000);

        const Result<ModelInfo> gpt4o = factory.modelInfo(u"openai/gpt-4o"_s);
        QCOMPARE(gpt4o->cost.base, (CostRates{1, 10, 1.25, 0}));

        // Catalogue only.
        const Result<ModelInfo> haiku = factory.modelInfo(u"anthropic/claude-haiku-4-5"_s);
        QCOMPARE(haiku->source, ModelInfo::Source::Catalogue);
        QCOMPARE(haiku->cost.base, (CostRates{1, 5, 0.1, 1.25}));
        QCOMPARE(haiku->limit.output, 64000);
        QCOMPARE(haiku->maxOutputTokens(), 32000); // OpenCode's OUTPUT_TOKEN_MAX
        QCOMPARE(haiku->apiModelID, u"claude-haiku-4-5"_s);

        // Alias with an API ID.
        QCOMPARE(factory.modelInfo(u"anthropic/my-alias"_s)->apiModelID, u"claude-opus-4-5"_s);

        // Defaults: a local model nobody describes is free with unknown limits.
        const Result<ModelInfo> local = factory.modelInfo(u"ollama/qwen3:8b"_s);
        QVERIFY(local);
        QCOMPARE(local->source, ModelInfo::Source::Default);
        QCOMPARE(local->cost, ModelCost{});
        QCOMPARE(local->limit.context, 0);
        QCOMPARE(local->maxOutputTokens(), 32000);

        // Model IDs may contain slashes.
        const Result<ModelInfo> routed = factory.modelInfo(u"openrouter/anthropic/claude-sonnet-4.5"_s);
        QVERIFY(routed);
        QCOMPARE(routed->providerID, u"openrouter"_s);
        QCOMPARE(routed->modelID, u"anthropic/claude-sonnet-4.5"_s);

        QVERIFY(!factory.modelInfo(u"nosuch/model"_s));
        QVERIFY(factory.modelInfo(u"nosuch/model"_s).error().message.contains(u"unknown provider"_s));
        QVERIFY(!factory.modelInfo(u"no-slash"_s));
    }

    void builtinCatalogue_data()
    {
        QTest::addColumn<QString>("ref");
        QTest::addColumn<CostRates>("rates");
        QTest::addColumn<qint64>("context");
        QTest::addColumn<bool>("over200K");
        QTest::addRow("gpt-4o") << u"openai/gpt-4o"_s << CostRates{2.5, 10, 1.25, 0} << qint64(128000) << false;
        QTest::addRow("gpt-4.1") << u"openai/gpt-4.1"_s << CostRates{2, 8, 0.5, 0} << qint64(1047576) << false;
        QTest::addRow("o3") << u"openai/o3"_s << CostRates{2, 8, 0.5, 0} << qint64(200000) << false;
        QTest::addRow("o4-mini") << u"openai/o4-mini"_s << CostRates{1.1, 4.4, 0.275, 0} << qint64(200000) << false;
        QTest::addRow("gpt-5") << u"openai/gpt-5"_s << CostRates{1.25, 10, 0.125, 0} << qint64(400000) << false;
        QTest::addRow("gpt-5-mini") << u"openai/gpt-5-mini"_s << CostRates{0.25, 2, 0.025, 0} << qint64(400000)
                                    << false;
        QTest::addRow("sonnet 4.5") << u"anthropic/claude-sonnet-4-5"_s << CostRates{3, 15, 0.3, 3.75} << qint64(200000)
                                    << true;
        QTest::addRow("sonnet 4") << u"anthropic/claude-sonnet-4-20250514"_s << CostRates{3, 15, 0.3, 3.75}
                                  << qint64(200000) << true;
        QTest::addRow("opus 4.1") << u"anthropic/claude-opus-4-1"_s << CostRates{15, 75, 1.5, 18.75} << qint64(200000)
                                  << false;
        QTest::addRow("haiku 4.5") << u"anthropic/claude-haiku-4-5"_s << CostRates{1, 5, 0.1, 1.25} << qint64(200000)
                                   << false;
        QTest::addRow("sonnet 3.7") << u"anthropic/claude-3-7-sonnet-20250219"_s << CostRates{3, 15, 0.3, 3.75}
                                    << qint64(200000) << false;
        QTest::addRow("haiku 3.5") << u"anthropic/claude-3-5-haiku-20241022"_s << CostRates{0.8, 4, 0.08, 1}
                                   << qint64(200000) << false;
        QTest::addRow("deepseek chat") << u"deepseek/deepseek-chat"_s << CostRates{0.28, 0.42, 0.028, 0}
                                       << qint64(128000) << false;
        QTest::addRow("deepseek reasoner")
            << u"deepseek/deepseek-reasoner"_s << CostRates{0.28, 0.42, 0.028, 0} << qint64(128000) << false;
        QTest::addRow("gemini 2.5 pro") << u"google/gemini-2.5-pro"_s << CostRates{1.25, 10, 0.125, 0}
                                        << qint64(1048576) << true;
    }

    void builtinCatalogue()
    {
        QFETCH(QString, ref);
        QFETCH(CostRates, rates);
        QFETCH(qint64, context);
        QFETCH(bool, over200K);
        const ProviderFactory factory(Config(), catalogue(), QProcessEnvironment());
        const Result<ModelInfo> info = factory.modelInfo(ref);
        QVERIFY2(info, qPrintable(info ? QString() : info.error().toString()));
        QCOMPARE(info->source, ModelInfo::Source::Catalogue);
        QCOMPARE(info->cost.base, rates);
        QCOMPARE(info->limit.context, context);
        QVERIFY(info->limit.output > 0);
        QCOMPARE(info->cost.over200K.has_value(), over200K);
        QVERIFY(factory.providerInfo(info->providerID));
    }

    void localProviders()
    {
        const ProviderFactory factory(Config(), catalogue(), QProcessEnvironment());
        for (const QString &id : {u"ollama"_s, u"lmstudio"_s, u"llama.cpp"_s}) {
            const Result<ProviderInfo> info = factory.providerInfo(id);
            QVERIFY2(info, qPrintable(id));
            QCOMPARE(info->protocol, ProviderProtocol::OpenAiCompatible);
            QVERIFY(info->baseURL.startsWith(u"http://127.0.0.1:"_s));
            QCOMPARE(factory.modelInfo(id, u"any-model"_s)->cost, ModelCost{});
        }
    }

    void defaultAndSmallModels()
    {
        const ProviderFactory withKey(Config(), catalogue(), env({{u"ANTHROPIC_API_KEY"_s, u"k"_s}}));
        QCOMPARE(withKey.defaultModel(), u"anthropic/claude-sonnet-4-5"_s);
        QCOMPARE(withKey.smallModel(u"anthropic/claude-sonnet-4-5"_s), u"anthropic/claude-haiku-4-5"_s);
        const ProviderFactory openai(Config(), catalogue(), env({{u"OPENAI_API_KEY"_s, u"k"_s}}));
        QCOMPARE(openai.defaultModel(), u"openai/gpt-5"_s);
        QCOMPARE(openai.smallModel(u"openai/gpt-5"_s), u"openai/gpt-5-nano"_s);
        QCOMPARE(openai.smallModel(u"ollama/llama3"_s), u"ollama/llama3"_s);
        const ProviderFactory none(Config(), catalogue(), QProcessEnvironment());
        QCOMPARE(none.defaultModel(), QString());

        const ProviderFactory configured(parseOrFail(configuredText()), catalogue(), QProcessEnvironment());
        QCOMPARE(configured.defaultModel(), u"x/y"_s);
        QCOMPARE(configured.smallModel(u"x/y"_s), u"x/z"_s);
    }

    void disabledProviders()
    {
        const ProviderFactory factory(parseOrFail("{\"disabled_providers\": [\"openai\"]}"), catalogue(),
                                      QProcessEnvironment());
        QVERIFY(!factory.providerInfo(u"openai"_s));
        QVERIFY(!factory.providerIDs().contains(u"openai"_s));
        QVERIFY(factory.providerIDs().contains(u"anthropic"_s));
    }

    void loadPaths()
    {
        QTemporaryDir dir;
        const QProcessEnvironment e = env({{u"XDG_CONFIG_HOME"_s, dir.path()}, {u"HOME"_s, u"/nonexistent"_s}});
        QCOMPARE(Config::defaultPath(e), dir.path() + u"/weft/weft.json"_s);
        QCOMPARE(Config::defaultPath(env({{u"HOME"_s, u"/home/u"_s}})), u"/home/u/.config/weft/weft.json"_s);

        // No default file: an empty config.
        const Result<Config> empty = Config::load({}, e);
        QVERIFY(empty);
        QVERIFY(empty->json().isEmpty());

        // An explicit file that does not exist is an error.
        QVERIFY(!Config::load(dir.filePath(u"missing.json"_s), e));

        QVERIFY(QDir(dir.path()).mkpath(u"weft"_s));
        QVERIFY(writeFile(dir.path() + u"/weft/weft.json"_s, "{\"model\": \"openai/gpt-4o\"}"));
        const Result<Config> loaded = Config::load({}, e);
        QVERIFY(loaded);
        QCOMPARE(loaded->model(), u"openai/gpt-4o"_s);
        QCOMPARE(loaded->path(), dir.path() + u"/weft/weft.json"_s);
    }

    void catalogueErrors()
    {
        QVERIFY(!ModelCatalogue::load(u"/nonexistent/models.json"_s));
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(u"m.json"_s), "{\n\"x\": }"));
        const Result<ModelCatalogue> bad = ModelCatalogue::load(dir.filePath(u"m.json"_s));
        QVERIFY(!bad);
        QVERIFY(bad.error().where.endsWith(u":2:6"_s));
        QCOMPARE(ModelCatalogue::resourcePath(), u":/weft/models.json"_s);
    }

    void endToEndThroughConfig()
    {
        // A config pointing at the loopback server: the factory's provider streams from it.
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FakeReply::sse(AnthropicStream()
                                          .messageStart(10)
                                          .text(0, {u"Hi!"_s})
                                          .messageDelta(u"end_turn"_s, 2)
                                          .messageStop()
                                          .bytes()));
        const QByteArray text = endToEndText(server.baseUrl(u"/v1"_s));
        const ProviderFactory factory(parseOrFail(text, env({{u"K"_s, u"sk-e2e"_s}})), catalogue(),
                                      QProcessEnvironment());
        const Result<ModelInfo> model = factory.modelInfo(u"anthropic/claude-sonnet-4-5"_s);
        QVERIFY(model);
        const Result<Provider *> created = factory.create(model->ref());
        QVERIFY(created);
        std::unique_ptr<Provider> provider(created.value());
        EventRecorder rec(provider.get());
        LlmRequest request;
        request.providerID = model->providerID;
        request.modelID = model->apiModelID;
        request.maxOutputTokens = model->maxOutputTokens();
        request.messages = {LlmMessage::user(u"hello"_s)};
        provider->start(request);
        QVERIFY(rec.wait());
        QVERIFY(rec.finished);
        QCOMPARE(rec.joined(LlmEvent::Type::TextDelta), u"Hi!"_s);
        QCOMPARE(server.requests().front().header("x-api-key"), "sk-e2e"_ba);
        QCOMPARE(server.requests().front().json.integer(u"max_tokens"), 32000);
        const StepUsage usage = getUsage(model->cost, rec.events.last().usage, rec.events.last().providerMetadata);
        QCOMPARE(usage.cost.toString(), u"0.00006"_s); // 10 x 3 + 2 x 15 micro-dollars
    }
};

QTEST_GUILESS_MAIN(TestProviderConfig)
#include "tst_provider_config.moc"
