// SPDX-License-Identifier: GPL-3.0-or-later
// The system prompt: the family chosen per model as OpenCode chooses it, the environment block,
// the instructions, the agent's prompt replacing the family prompt, and the prompt a real run
// sends to the provider.
#include "runfixture.h"

#include "processor/agent.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "processor/systemprompt.h"
#include "provider/config.h"
#include "session/sessionservice.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(weft::SystemPrompt::Family)

namespace
{

SystemPrompt::Environment sampleEnvironment()
{
    SystemPrompt::Environment e;
    e.providerID = u"anthropic"_s;
    e.apiModelID = u"claude-sonnet-4-5"_s;
    e.directory = u"/home/ann/src/weft/model"_s;
    e.worktree = u"/home/ann/src/weft"_s;
    e.gitRepository = true;
    e.platform = u"linux"_s;
    e.today = QDate(2026, 11, 6);
    return e;
}

} // namespace

class TestSystemPrompt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        clearProviderKeys();
    }

    void familyTable_data()
    {
        QTest::addColumn<QString>("providerID");
        QTest::addColumn<QString>("modelID");
        QTest::addColumn<QString>("npm");
        QTest::addColumn<SystemPrompt::Family>("family");
        using F = SystemPrompt::Family;
        const QString openai = u"@ai-sdk/openai"_s;
        const QString compatible = u"@ai-sdk/openai-compatible"_s;
        const QString anthropic = u"@ai-sdk/anthropic"_s;
        QTest::addRow("claude-sonnet-4-5") << u"anthropic"_s << u"claude-sonnet-4-5"_s << anthropic << F::Anthropic;
        QTest::addRow("claude via openrouter")
            << u"openrouter"_s << u"anthropic/claude-opus-4.1"_s << compatible << F::Anthropic;
        QTest::addRow("gpt-4o") << u"openai"_s << u"gpt-4o"_s << openai << F::Beast;
        QTest::addRow("gpt-4.1-mini") << u"openai"_s << u"gpt-4.1-mini"_s << openai << F::Beast;
        QTest::addRow("o3") << u"openai"_s << u"o3"_s << openai << F::Beast;
        QTest::addRow("o1-preview") << u"openai"_s << u"o1-preview"_s << openai << F::Beast;
        QTest::addRow("gpt-5") << u"openai"_s << u"gpt-5"_s << openai << F::Gpt;
        QTest::addRow("gpt-5.1 compatible") << u"local"_s << u"gpt-5.1"_s << compatible << F::Gpt;
        QTest::addRow("gpt-oss") << u"groq"_s << u"openai/gpt-oss-120b"_s << compatible << F::Gpt;
        QTest::addRow("gpt-5-codex") << u"openai"_s << u"gpt-5-codex"_s << openai << F::Codex;
        QTest::addRow("gpt-5.1-codex-mini") << u"openai"_s << u"gpt-5.1-codex-mini"_s << openai << F::Codex;
        QTest::addRow("gemini-2.5-pro") << u"google"_s << u"gemini-2.5-pro"_s << u"@ai-sdk/google"_s << F::Gemini;
        QTest::addRow("gemini without dash") << u"local"_s << u"gemini"_s << compatible << F::Default;
        QTest::addRow("trinity") << u"arcee"_s << u"Trinity-Large"_s << compatible << F::Trinity;
        QTest::addRow("kimi-k2") << u"groq"_s << u"moonshotai/kimi-k2-instruct"_s << compatible << F::Kimi;
        QTest::addRow("moonshot provider") << u"moonshotai"_s << u"k2-turbo"_s << compatible << F::Kimi;
        QTest::addRow("qwen3-coder") << u"local"_s << u"qwen3-coder"_s << compatible << F::Default;
        QTest::addRow("deepseek-chat") << u"deepseek"_s << u"deepseek-chat"_s << compatible << F::Default;
        QTest::addRow("glm-4.6") << u"zai"_s << u"glm-4.6"_s << compatible << F::Default;
        QTest::addRow("empty") << QString() << QString() << QString() << F::Default;
    }

    void familyTable()
    {
        QFETCH(QString, providerID);
        QFETCH(QString, modelID);
        QFETCH(QString, npm);
        QFETCH(SystemPrompt::Family, family);
        const SystemPrompt::ModelIdentity model{providerID, modelID, npm};
        QCOMPARE(SystemPrompt::family(model), family);
        // Every family has a text of substance, and the families' texts differ.
        const QStringList prompts = SystemPrompt::familyPrompts(model);
        QVERIFY(!prompts.isEmpty());
        QVERIFY2(prompts.front().size() > 800, qPrintable(SystemPrompt::familyName(family)));
        QVERIFY(prompts.front().contains(u"Weft"_s));
    }

    void familyTextsAreDistinct()
    {
        using F = SystemPrompt::Family;
        QSet<QString> texts;
        for (F f : {F::Anthropic, F::Beast, F::Codex, F::Gpt, F::Gemini, F::Kimi, F::Trinity, F::Default}) {
            const QString text = AgentRegistry::promptResource(u"family-"_s + SystemPrompt::familyName(f));
            QVERIFY2(!text.isEmpty(), qPrintable(SystemPrompt::familyName(f)));
            texts.insert(text);
        }
        QCOMPARE(texts.size(), 8);
    }

    void gptChannelsOnlyOverOpenAisOwnApi()
    {
        const QStringList own = SystemPrompt::familyPrompts({u"openai"_s, u"gpt-5"_s, u"@ai-sdk/openai"_s});
        QCOMPARE(own.size(), 2);
        QCOMPARE(own.at(1), AgentRegistry::promptResource(u"family-gpt-channels"_s));
        const QStringList compatible
            = SystemPrompt::familyPrompts({u"local"_s, u"gpt-5"_s, u"@ai-sdk/openai-compatible"_s});
        QCOMPARE(compatible.size(), 1);
        QCOMPARE(compatible.front(), own.front());
        // The other families never get it.
        QCOMPARE(SystemPrompt::familyPrompts({u"openai"_s, u"gpt-5-codex"_s, u"@ai-sdk/openai"_s}).size(), 1);
    }

    void environmentBlock()
    {
        const QString block = SystemPrompt::environmentBlock(sampleEnvironment());
        const QString expected = u"You are powered by the model named claude-sonnet-4-5. The exact model ID is "
                                 u"anthropic/claude-sonnet-4-5\n"
                                 u"Here is some useful information about the environment you are running in:\n"
                                 u"<env>\n"
                                 u"  Working directory: /home/ann/src/weft/model\n"
                                 u"  Workspace root folder: /home/ann/src/weft\n"
                                 u"  Is directory a git repo: yes\n"
                                 u"  Platform: linux\n"
                                 u"  Today's date: Fri Nov 06 2026\n"
                                 u"</env>"_s;
        QCOMPARE(block, expected);

        SystemPrompt::Environment outside = sampleEnvironment();
        outside.gitRepository = false;
        QVERIFY(SystemPrompt::environmentBlock(outside).contains(u"  Is directory a git repo: no\n"_s));
    }

    void environmentDateIsEnglishInAnyLocale()
    {
        const QLocale saved;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        const QString block = SystemPrompt::environmentBlock(sampleEnvironment());
        QLocale::setDefault(saved);
        QVERIFY2(block.contains(u"Today's date: Fri Nov 06 2026"_s), qPrintable(block));
    }

    void currentEnvironment()
    {
        const SystemPrompt::Environment e
            = SystemPrompt::Environment::current(u"p"_s, u"m"_s, u"/tmp/x"_s, QString(), false);
        QCOMPARE(e.worktree, u"/tmp/x"_s); // no repository: the directory is the root
        QCOMPARE(e.today, QDate::currentDate());
#if defined(Q_OS_LINUX)
        QCOMPARE(e.platform, u"linux"_s);
#endif
    }

    void instructionsRendering()
    {
        QCOMPARE((Instruction{u"/p/AGENTS.md"_s, u"Use tabs.\nRun make check."_s}.render()),
                 u"Instructions from: /p/AGENTS.md\nUse tabs.\nRun make check."_s);
        QCOMPARE((Instruction{u"https://example.com/rules.md"_s, u"Be kind."_s}.render()),
                 u"Instructions from: https://example.com/rules.md\nBe kind."_s);
    }

    void composeOrder()
    {
        SystemPrompt::Input input;
        input.model = {u"anthropic"_s, u"claude-sonnet-4-5"_s, u"@ai-sdk/anthropic"_s};
        input.environment = sampleEnvironment();
        input.instructions = {{u"/p/AGENTS.md"_s, u"First."_s}, {u"/home/ann/.config/weft/AGENTS.md"_s, u"Second."_s}};
        const QString family = AgentRegistry::promptResource(u"family-anthropic"_s);
        const QString env = SystemPrompt::environmentBlock(input.environment);
        QCOMPARE(SystemPrompt::compose(input),
                 family + u'\n' + env + u"\nInstructions from: /p/AGENTS.md\nFirst.\n"_s
                     + u"Instructions from: /home/ann/.config/weft/AGENTS.md\nSecond."_s);

        // The agent's own prompt replaces the family prompt (and only it).
        input.agentPrompt = u"You review code and change nothing."_s;
        const QString withAgent = SystemPrompt::compose(input);
        QVERIFY(withAgent.startsWith(u"You review code and change nothing.\n"_s + env));
        QVERIFY(!withAgent.contains(family));
        QVERIFY(withAgent.endsWith(u"Second."_s));

        // A blank agent prompt is no prompt.
        input.agentPrompt = u"  \n"_s;
        QVERIFY(SystemPrompt::compose(input).startsWith(family));

        // No instructions: family and environment only.
        input.instructions.clear();
        QCOMPARE(SystemPrompt::compose(input), family + u'\n' + env);
    }

    void builtInAgentsUseTheFamilyPrompt()
    {
        const AgentRegistry registry;
        for (const QString &name : {u"build"_s, u"plan"_s, u"general"_s})
            QVERIFY2(registry.find(name)->prompt.isEmpty(), qPrintable(name));
        // The internal agents keep theirs.
        QVERIFY(!registry.find(u"title"_s)->prompt.isEmpty());
        QVERIFY(!registry.find(u"compaction"_s)->prompt.isEmpty());
    }

    /// What a real run sends: the family prompt of the configured model, the environment of the
    /// session and the project's AGENTS.md; an agent with a prompt of its own replaces the family.
    void runSendsTheComposedPrompt()
    {
        RunFixture fx;
        QVERIFY(fx.setUp());
        const QString project = fx.project->path();
        {
            QFile agents(project + u"/AGENTS.md"_s);
            QVERIFY(agents.open(QIODevice::WriteOnly));
            agents.write("Always answer in haiku.\n");
        }
        const JsonObject reviewer{{u"prompt"_s, u"You are a strict reviewer."_s}};
        const QString configPath = fx.writeConfig({{u"agent"_s, JsonObject{{u"review"_s, reviewer}}}});
        QVERIFY(!configPath.isEmpty());
        const Result<ProcessorSetup> setup = loadProcessorSetup(configPath, fx.data->path());
        QVERIFY2(setup, qPrintable(setup ? QString() : setup.error().toString()));
        ProcessorConfig config = setup->config;
        config.generateTitles = false;
        Processor processor(fx.service, config);

        auto run = [&](const QString &agent) -> QString {
            fx.server->enqueue(FakeReply::sse(textReply({u"ok"_s})));
            QSignalSpy finished(&processor, &Processor::finished);
            PromptRequest request;
            request.sessionID = fx.sessionID;
            request.text = u"hello"_s;
            request.agent = agent;
            if (!processor.prompt(request))
                return {};
            if (!finished.wait(30000) && finished.isEmpty())
                return {};
            const JsonArray messages = fx.server->requests().last().json.array(u"messages");
            const JsonObject system = messages.at(0).toObject();
            return system.string(u"role") == u"system" ? system.string(u"content") : QString();
        };

        const QString sent = run({});
        const QString family = SystemPrompt::familyPrompts({u"fake"_s, u"gpt-test"_s, u"@ai-sdk/openai-compatible"_s}).join(u'\n');
        QVERIFY(sent.startsWith(family + u"\nYou are powered by the model named gpt-test. The exact model ID is "
                                         u"fake/gpt-test\n"_s));
        QVERIFY2(sent.contains(u"  Working directory: "_s + project + u'\n'), qPrintable(sent));
        QVERIFY(sent.contains(u"  Workspace root folder: "_s + project + u'\n'));
        QVERIFY(sent.contains(u"  Is directory a git repo: no\n"_s)); // the fixture's folder is no repository
        QVERIFY(sent.endsWith(u"Instructions from: "_s + project + u"/AGENTS.md\nAlways answer in haiku.\n"_s));

        const QString reviewed = run(u"review"_s);
        QVERIFY2(reviewed.startsWith(u"You are a strict reviewer.\nYou are powered by"_s), qPrintable(reviewed));
        QVERIFY(!reviewed.contains(family));
        QVERIFY(reviewed.contains(u"Always answer in haiku."_s));
        fx.tearDown();
    }
};

QTEST_GUILESS_MAIN(TestSystemPrompt)
#include "tst_systemprompt.moc"
