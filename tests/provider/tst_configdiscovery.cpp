// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration as OpenCode finds it: YAML front matter, the layers and their precedence,
// markdown agents and commands, instructions, commands' templates, auth.json.
#include "processor/instructions.h"
#include "processor/promptcommand.h"
#include "processor/setup.h"
#include "provider/configdiscovery.h"
#include "provider/frontmatter.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{

void write(const QString &path, const QByteArray &content)
{
    QVERIFY(QDir().mkpath(QFileInfo(path).path()));
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    f.write(content);
}

} // namespace

class TestConfigDiscovery : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_home;
    QString m_project; // worktree
    QString m_sub;     // a folder inside it
    QProcessEnvironment m_env;

    ConfigDiscovery::Search search(const QString &directory) const
    {
        ConfigDiscovery::Search s;
        s.directory = directory;
        s.worktree = m_project;
        s.env = m_env;
        return s;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(QDir(m_tmp.path()).removeRecursively());
        QVERIFY(QDir().mkpath(m_tmp.path()));
        m_home = m_tmp.path() + u"/home"_s;
        m_project = m_home + u"/work/project"_s;
        m_sub = m_project + u"/packages/app"_s;
        QVERIFY(QDir().mkpath(m_sub));
        m_env = QProcessEnvironment();
        m_env.insert(u"HOME"_s, m_home);
        m_env.insert(u"XDG_CONFIG_HOME"_s, m_home + u"/.config"_s);
        m_env.insert(u"XDG_DATA_HOME"_s, m_home + u"/.local/share"_s);
    }

    // ---- front matter

    void frontMatter_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("content");
        QTest::newRow("none") << u"Just text\n"_s << QByteArray("{}") << u"Just text\n"_s;
        QTest::newRow("scalars") << u"---\ndescription: Reviews code\nmode: subagent\ntemperature: 0.1\nsteps: 5\nhidden: true\nmodel: anthropic/claude-sonnet-4\n---\nBody\n"_s
                                 << QByteArray("{\"description\":\"Reviews code\",\"mode\":\"subagent\",\"temperature\":0.1,\"steps\":5,\"hidden\":true,\"model\":\"anthropic/claude-sonnet-4\"}")
                                 << u"Body\n"_s;
        QTest::newRow("nested maps") << u"---\ntools:\n  write: false\n  bash: false\npermission:\n  bash:\n    \"git *\": allow\n    \"*\": ask\n  edit: deny\n---\n"_s
                                     << QByteArray("{\"tools\":{\"write\":false,\"bash\":false},\"permission\":{\"bash\":{\"git *\":\"allow\",\"*\":\"ask\"},\"edit\":\"deny\"}}")
                                     << QString();
        QTest::newRow("colon in a plain value") << u"---\ndescription: Fix: the build, then test\n---\nx"_s
                                                << QByteArray("{\"description\":\"Fix: the build, then test\"}") << u"x"_s;
        QTest::newRow("quotes and comments") << u"---\n# a comment\na: \"x: y # not a comment\"\nb: 'it''s' # a comment\nc: plain # trailing\n---\n"_s
                                             << QByteArray("{\"a\":\"x: y # not a comment\",\"b\":\"it's\",\"c\":\"plain\"}") << QString();
        QTest::newRow("sequences") << u"---\nlist:\n  - one\n  - 2\nflow: [a, \"b c\", 3]\nmap: {x: 1, y: two}\nitems:\n- name: a\n  v: 1\n- name: b\n---\n"_s
                                   << QByteArray("{\"list\":[\"one\",2],\"flow\":[\"a\",\"b c\",3],\"map\":{\"x\":1,\"y\":\"two\"},\"items\":[{\"name\":\"a\",\"v\":1},{\"name\":\"b\"}]}")
                                   << QString();
        QTest::newRow("block scalars") << u"---\nlit: |\n  line one\n  line two\nfold: >-\n  folded\n  text\nnext: null\n---\n"_s
                                       << QByteArray("{\"lit\":\"line one\\nline two\\n\",\"fold\":\"folded text\",\"next\":null}") << QString();
        QTest::newRow("crlf") << u"---\r\ndescription: Windows\r\n---\r\nBody\r\n"_s
                              << QByteArray("{\"description\":\"Windows\"}") << u"Body\r\n"_s;
    }

    void frontMatter()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, json);
        QFETCH(QString, content);
        const Result<FrontMatterDocument> doc = parseFrontMatter(text);
        QVERIFY2(doc, doc ? "" : qPrintable(doc.error().toString()));
        QCOMPARE(toJson(doc->data, 0), json);
        QCOMPARE(doc->content, content);
    }

    void frontMatterErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::newRow("unclosed") << u"---\na: b\nbody"_s << u"line 1"_s;
        QTest::newRow("bad indentation") << u"---\na: b\n    c: d\n---\n"_s << u"line 3"_s;
        QTest::newRow("not a mapping") << u"---\na: b\njust words\n---\n"_s << u"line 3"_s;
        QTest::newRow("unterminated quote") << u"---\na: \"open\n---\n"_s << u"line 2"_s;
        QTest::newRow("unterminated flow") << u"---\na: [1, 2\n---\n"_s << u"line 2"_s;
    }

    void frontMatterErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, where);
        const Result<FrontMatterDocument> doc = parseFrontMatter(text);
        QVERIFY(!doc);
        QCOMPARE(doc.error().where, where);
    }

    // ---- layers

    void upwards()
    {
        QCOMPARE(ConfigDiscovery::upwards(m_sub, m_project), (QStringList{m_sub, m_project + u"/packages"_s, m_project}));
        QCOMPARE(ConfigDiscovery::upwards(m_project, m_project), QStringList{m_project});
        // A stop that is not above: up to the root.
        const QStringList toRoot = ConfigDiscovery::upwards(m_sub, u"/nonexistent/elsewhere"_s);
        QCOMPARE(toRoot.last(), u"/"_s);
    }

    void precedence()
    {
        const QString global = m_home + u"/.config/opencode"_s;
        write(global + u"/config.json"_s, "{\"model\":\"a/from-config-json\",\"username\":\"g\"}");
        write(global + u"/opencode.json"_s, "{\"model\":\"a/from-global\",\"instructions\":[\"global.md\"],\"share\":\"manual\"}");
        write(m_project + u"/opencode.jsonc"_s, "// project root\n{\"model\":\"a/root-jsonc\",\"small_model\":\"a/small\",}\n");
        write(m_project + u"/opencode.json"_s, "{\"model\":\"a/root-json\",\"instructions\":[\"root.md\",\"global.md\"]}");
        write(m_sub + u"/opencode.json"_s, "{\"model\":\"a/sub-json\",\"agent\":{\"build\":{\"temperature\":0.3}}}");
        write(m_project + u"/.opencode/opencode.json"_s, "{\"agent\":{\"build\":{\"top_p\":0.9}},\"share\":\"disabled\"}");
        const QString weft = m_home + u"/.config/weft/weft.json"_s;
        write(weft, "{\"model\":\"a/weft\",\"provider\":{\"a\":{\"options\":{\"baseURL\":\"http://127.0.0.1:9\"}}}}");

        Result<Config> config = ConfigDiscovery::load(search(m_sub));
        QVERIFY2(config, config ? "" : qPrintable(config.error().toString()));
        QCOMPARE(config->model(), u"a/weft"_s); // Weft's file is last
        QCOMPARE(config->smallModel(), u"a/small"_s);
        QCOMPARE(config->json().string(u"username"), u"g"_s);
        QCOMPARE(config->json().string(u"share"), u"disabled"_s); // .opencode/ after project files
        // Objects merge key by key; `instructions` lists add up without duplicates.
        QCOMPARE(toJson(config->agent().object(u"build"), 0), QByteArray("{\"temperature\":0.3,\"top_p\":0.9}"));
        QCOMPARE(config->instructions(), (QStringList{u"global.md"_s, u"root.md"_s}));
        QCOMPARE(config->sources(),
                 (QStringList{global + u"/config.json"_s, global + u"/opencode.json"_s, m_project + u"/opencode.jsonc"_s,
                              m_project + u"/opencode.json"_s, m_sub + u"/opencode.json"_s,
                              m_project + u"/.opencode/opencode.json"_s, weft}));
        QCOMPARE(config->path(), weft);

        // Without Weft's file the nearest project file wins.
        QFile::remove(weft);
        config = ConfigDiscovery::load(search(m_sub));
        QVERIFY(config);
        QCOMPARE(config->model(), u"a/sub-json"_s);
        // From the project root, the sub-folder's file is not seen.
        config = ConfigDiscovery::load(search(m_project));
        QVERIFY(config);
        QCOMPARE(config->model(), u"a/root-json"_s);
    }

    void environment()
    {
        write(m_project + u"/opencode.json"_s, "{\"model\":\"a/project\"}");
        write(m_tmp.path() + u"/custom.json"_s, "{\"model\":\"a/custom\",\"small_model\":\"a/custom-small\"}");
        m_env.insert(u"OPENCODE_CONFIG"_s, m_tmp.path() + u"/custom.json"_s);
        Result<Config> config = ConfigDiscovery::load(search(m_project));
        QVERIFY(config);
        QCOMPARE(config->model(), u"a/project"_s); // the project overrides OPENCODE_CONFIG
        QCOMPARE(config->smallModel(), u"a/custom-small"_s);

        m_env.insert(u"OPENCODE_CONFIG_CONTENT"_s, u"{\"model\":\"a/content\"}"_s);
        config = ConfigDiscovery::load(search(m_project));
        QCOMPARE(config->model(), u"a/content"_s);

        m_env.insert(u"OPENCODE_DISABLE_PROJECT_CONFIG"_s, u"1"_s);
        m_env.remove(u"OPENCODE_CONFIG_CONTENT"_s);
        config = ConfigDiscovery::load(search(m_project));
        QCOMPARE(config->model(), u"a/custom"_s);

        m_env.insert(u"OPENCODE_PERMISSION"_s, u"{\"bash\":\"deny\"}"_s);
        config = ConfigDiscovery::load(search(m_project));
        QCOMPARE(toJson(config->permission(), 0), QByteArray("{\"bash\":\"deny\"}"));
        m_env.insert(u"OPENCODE_PERMISSION"_s, u"not json"_s);
        QVERIFY(!ConfigDiscovery::load(search(m_project)));
    }

    void legacyKeys()
    {
        write(m_project + u"/opencode.json"_s,
              "{\"tools\":{\"bash\":false,\"write\":false,\"webfetch\":true},\"permission\":{\"bash\":\"ask\"},\"mode\":{\"review\":{\"prompt\":\"Review.\"}}}");
        Result<Config> config = ConfigDiscovery::load(search(m_project));
        QVERIFY(config);
        // The explicit permission wins over the legacy tools map.
        QCOMPARE(toJson(config->permission(), 0), QByteArray("{\"bash\":\"ask\",\"edit\":\"deny\",\"webfetch\":\"allow\"}"));
        QCOMPARE(config->agent().object(u"review").string(u"mode"), u"primary"_s);
        QCOMPARE(config->agent().object(u"review").string(u"prompt"), u"Review."_s);
    }

    void markdownAgentsAndCommands()
    {
        write(m_project + u"/.opencode/agent/reviewer.md"_s,
              "---\ndescription: Reviews changes\nmode: subagent\ntools:\n  write: false\n---\n\nYou review code.\n\n");
        write(m_project + u"/.opencode/agents/nested/deep.md"_s, "---\ndescription: Deep\n---\nDeep prompt");
        write(m_project + u"/.opencode/agent/notes.md"_s, "No front matter: not an agent.");
        write(m_project + u"/.opencode/command/greet.md"_s,
              "---\ndescription: Greets\nagent: plan\nmodel: a/b\n---\nSay hello to $1.\n");
        write(m_home + u"/.config/opencode/command/global-cmd.md"_s, "---\ndescription: From home\n---\nGlobal $ARGUMENTS");
        write(m_home + u"/.config/opencode/mode/focus.md"_s, "---\ntemperature: 0.2\n---\nFocus.");
        // A sub-folder's .opencode wins over the project root's.
        write(m_sub + u"/.opencode/command/greet.md"_s, "---\ndescription: Nearer\n---\nHi $1 from below.");

        Result<Config> config = ConfigDiscovery::load(search(m_sub));
        QVERIFY2(config, config ? "" : qPrintable(config.error().toString()));
        const JsonObject agents = config->agent();
        QCOMPARE(agents.object(u"reviewer").string(u"prompt"), u"You review code."_s);
        QCOMPARE(agents.object(u"reviewer").string(u"mode"), u"subagent"_s);
        QCOMPARE(agents.object(u"nested/deep").string(u"prompt"), u"Deep prompt"_s);
        QVERIFY(!agents.contains(u"notes"));
        QCOMPARE(agents.object(u"focus").string(u"mode"), u"primary"_s);

        const JsonObject commands = config->commands();
        // .opencode folders are visited nearest first, so the root's file comes last and wins,
        // as in OpenCode's Config.state.
        QCOMPARE(commands.object(u"greet").string(u"template"), u"Say hello to $1."_s);
        QCOMPARE(commands.object(u"greet").string(u"description"), u"Greets"_s);
        QCOMPARE(commands.object(u"global-cmd").string(u"template"), u"Global $ARGUMENTS"_s);
        QCOMPARE(config->directories(),
                 (QStringList{m_home + u"/.config/opencode"_s, m_sub + u"/.opencode"_s, m_project + u"/.opencode"_s}));

        // The processor gets them as agents and commands.
        ProcessorConfig pc;
        QVERIFY(applyConfig(pc, config.value(), m_sub, m_project));
        QVERIFY(pc.agents.find(u"reviewer"_s));
        QVERIFY(!pc.agents.find(u"reviewer"_s)->isPrimary());
        QVERIFY(!pc.agents.find(u"reviewer"_s)->toolEnabled(u"write"_s));
        const std::optional<PromptCommand> greet = PromptCommand::find(pc.commands, u"greet"_s);
        QVERIFY(greet);
        QCOMPARE(greet->agent, u"plan"_s);
        QCOMPARE(greet->model, u"a/b"_s);
    }

    void damagedFilesAreNamed()
    {
        write(m_project + u"/opencode.json"_s, "{\n  \"model\": \"a/b\",\n  oops\n}\n");
        Result<Config> config = ConfigDiscovery::load(search(m_project));
        QVERIFY(!config);
        QVERIFY2(config.error().where.startsWith(m_project + u"/opencode.json:3"_s), qPrintable(config.error().toString()));

        write(m_project + u"/opencode.json"_s, "{}");
        write(m_project + u"/.opencode/agent/bad.md"_s, "---\ndescription: \"open\n---\nx");
        config = ConfigDiscovery::load(search(m_project));
        QVERIFY(!config);
        QVERIFY2(config.error().where.startsWith(m_project + u"/.opencode/agent/bad.md"_s), qPrintable(config.error().toString()));

        QFile::remove(m_project + u"/.opencode/agent/bad.md"_s);
        ConfigDiscovery::Search s = search(m_project);
        s.weftFile = m_tmp.path() + u"/missing.json"_s;
        config = ConfigDiscovery::load(s);
        QVERIFY(!config);
        QCOMPARE(config.error().where, s.weftFile);
    }

    // ---- instructions

    void instructions()
    {
        write(m_project + u"/AGENTS.md"_s, "root agents");
        write(m_sub + u"/AGENTS.md"_s, "sub agents");
        write(m_project + u"/AGENTS.local.md"_s, "local agents");
        write(m_project + u"/CLAUDE.md"_s, "claude (not read: AGENTS.md was found)");
        write(m_home + u"/.config/opencode/AGENTS.md"_s, "global agents");
        write(m_home + u"/.claude/CLAUDE.md"_s, "claude global (not read: the opencode group was found)");
        write(m_project + u"/docs/style.md"_s, "style rules");
        write(m_project + u"/docs/api.md"_s, "api rules");
        write(m_project + u"/docs/deep/inner.md"_s, "too deep for docs/*.md");
        write(m_home + u"/rules/home.md"_s, "home rules");
        write(m_project + u"/empty.md"_s, "");
        write(m_project + u"/opencode.json"_s,
              "{\"instructions\":[\"docs/*.md\",\"~/rules/*.md\",\"empty.md\",\"AGENTS.md\",\"https://example.invalid/rules.md\"]}");
        Result<Config> config = ConfigDiscovery::load(search(m_sub));
        QVERIFY(config);
        const QList<Instruction> list = Instructions::load(config.value(), m_sub, m_project, m_env);
        QStringList sources;
        for (const Instruction &i : list)
            sources.append(i.source);
        QCOMPARE(sources, (QStringList{m_sub + u"/AGENTS.md"_s, m_project + u"/AGENTS.md"_s, m_project + u"/AGENTS.local.md"_s,
                                       m_home + u"/.config/opencode/AGENTS.md"_s, m_project + u"/docs/api.md"_s,
                                       m_project + u"/docs/style.md"_s, m_home + u"/rules/home.md"_s}));
        QCOMPARE(list.first().render(), u"Instructions from: "_s + m_sub + u"/AGENTS.md\nsub agents"_s);
        QCOMPARE(Instructions::urls(config.value()), QStringList{u"https://example.invalid/rules.md"_s});

        // CLAUDE.md when there is no AGENTS.md, unless Claude Code files are turned off.
        QFile::remove(m_project + u"/AGENTS.md"_s);
        QFile::remove(m_sub + u"/AGENTS.md"_s);
        QFile::remove(m_project + u"/AGENTS.local.md"_s);
        QFile::remove(m_home + u"/.config/opencode/AGENTS.md"_s);
        QStringList paths = Instructions::paths(Config(), m_sub, m_project, m_env);
        QCOMPARE(paths, (QStringList{m_project + u"/CLAUDE.md"_s, m_home + u"/.claude/CLAUDE.md"_s}));
        m_env.insert(u"OPENCODE_DISABLE_CLAUDE_CODE"_s, u"1"_s);
        QCOMPARE(Instructions::paths(Config(), m_sub, m_project, m_env), QStringList());
    }

    void instructionsFromAbsoluteGlobAndHugeFile()
    {
        write(m_tmp.path() + u"/abs/one.md"_s, "one");
        write(m_tmp.path() + u"/abs/two.txt"_s, "two");
        write(m_project + u"/huge.md"_s, QByteArray(Instructions::MaxFileBytes + 1, 'x'));
        Result<Config> config = Config::parse(
            toJson(JsonObject{{u"instructions"_s, JsonArray{m_tmp.path() + u"/abs/*.md"_s, u"huge.md"_s}}}, 0), u"t.json"_s, m_env);
        QVERIFY(config);
        QCOMPARE(Instructions::paths(config.value(), m_project, m_project, m_env),
                 (QStringList{m_tmp.path() + u"/abs/one.md"_s, m_project + u"/huge.md"_s}));
        const QList<Instruction> loaded = Instructions::load(config.value(), m_project, m_project, m_env);
        QCOMPARE(loaded.size(), 1); // the huge file is left out
        QCOMPARE(loaded.first().text, u"one"_s);
    }

    // ---- commands

    void fill_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ARGUMENTS") << u"Fix $ARGUMENTS now"_s << u"issue 12 \"quoted\""_s << u"Fix issue 12 \"quoted\" now"_s;
        QTest::newRow("positional, last takes the rest") << u"$1 then $2"_s << u"a b c d"_s << u"a then b c d"_s;
        QTest::newRow("quoted argument") << u"<$1> <$2>"_s << u"\"two words\" 'x y'"_s << u"<two words> <x y>"_s;
        QTest::newRow("missing argument") << u"[$1][$2]"_s << u"only"_s << u"[only][]"_s;
        QTest::newRow("appended when unused") << u"Review the diff."_s << u"focus on tests"_s << u"Review the diff.\n\nfocus on tests"_s;
        QTest::newRow("nothing to append") << u"Review."_s << u"  "_s << u"Review."_s;
        QTest::newRow("image token") << u"$1|$2"_s << u"[Image 1] rest"_s << u"[Image 1]|rest"_s;
    }

    void fill()
    {
        QFETCH(QString, body);
        QFETCH(QString, arguments);
        QFETCH(QString, expected);
        PromptCommand c;
        c.body = body;
        QCOMPARE(c.fill(arguments), expected);
    }

    void shellSubstitution()
    {
        const QString out = PromptCommand::runShellSubstitutions(u"Branch: !`pwd` and !`printf ok; exit 3`."_s, m_project);
        QCOMPARE(out, u"Branch: %1\n and ok."_s.arg(m_project));
        QCOMPARE(PromptCommand::runShellSubstitutions(u"no shell here"_s, m_project), u"no shell here"_s);
        // A command that runs too long is stopped and said so.
        const QString slow = PromptCommand::runShellSubstitutions(u"!`sleep 30`"_s, m_project, {}, 300);
        QVERIFY2(slow.startsWith(u"Error executing command: stopped"_s), qPrintable(slow));
    }

    void commandErrors()
    {
        Result<Config> config = Config::parse("{\"command\":{\"x\":{\"description\":\"no template\"}}}", u"t.json"_s, m_env);
        QVERIFY(config);
        const Result<QList<PromptCommand>> commands = PromptCommand::fromConfig(config.value());
        QVERIFY(!commands);
        QCOMPARE(commands.error().where, u"command.x"_s);
    }

    // ---- auth.json

    void authJson()
    {
        write(m_home + u"/.local/share/opencode/auth.json"_s,
              "{\"anthropic\":{\"type\":\"api\",\"key\":\"sk-ant-stored\"},\"openai\":{\"type\":\"oauth\",\"refresh\":\"r\",\"access\":\"a\",\"expires\":1}}");
        QCOMPARE(ProviderFactory::authKeys(m_env), (QHash<QString, QString>{{u"anthropic"_s, u"sk-ant-stored"_s}}));
        m_env.insert(u"ANTHROPIC_API_KEY"_s, u"sk-ant-env"_s);
        ProviderFactory factory(Config(), ModelCatalogue::builtin(), m_env);
        Result<ProviderInfo> info = factory.providerInfo(u"anthropic"_s);
        QVERIFY(info);
        QCOMPARE(info->apiKey, u"sk-ant-stored"_s); // auth.json before the environment
        QCOMPARE(info->apiKeySource, u"auth.json"_s);
        // The config's key comes first.
        Result<Config> config = Config::parse("{\"provider\":{\"anthropic\":{\"options\":{\"apiKey\":\"sk-ant-config\"}}}}", u"t.json"_s, m_env);
        QVERIFY(config);
        info = ProviderFactory(config.value(), ModelCatalogue::builtin(), m_env).providerInfo(u"anthropic"_s);
        QCOMPARE(info->apiKeySource, u"config"_s);
        // A damaged file gives no keys and no failure.
        write(m_home + u"/.local/share/opencode/auth.json"_s, "{ damaged");
        QVERIFY(ProviderFactory::authKeys(m_env).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestConfigDiscovery)
#include "tst_configdiscovery.moc"
