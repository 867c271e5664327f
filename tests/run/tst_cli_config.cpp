// SPDX-License-Identifier: GPL-3.0-or-later
// `weft run` with the configuration as OpenCode users have it: no --config, the provider in the
// global ~/.config/opencode/opencode.json, the key in OpenCode's auth.json, the project's
// opencode.jsonc and .opencode/ folder, AGENTS.md files and a markdown command.
#include "fakellmserver.h"

#include "core/json.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

class TestCliConfig : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QTemporaryDir m_project;
    FakeLlmServer m_server;
    QString m_sub;

    struct Output {
        int code = -1;
        QByteArray out;
        QByteArray err;
    };

    static void write(const QString &path, const QByteArray &content)
    {
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
    }

    Output weft(const QStringList &args, const QString &cwd)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_DATA_HOME"_s, m_home.path() + u"/data"_s);
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.path() + u"/config"_s);
        for (const QString &var : env.keys()) {
            if (var.endsWith(u"_API_KEY"_s) || var.startsWith(u"OPENCODE_"_s))
                env.remove(var);
        }
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(cwd);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(QStringLiteral(WEFT_BINARY_DIR "/bin/weft"), args);
        if (!finished.wait(60000))
            process.kill();
        return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
    }

    static QByteArray text(const QString &answer)
    {
        OpenAiStream s;
        s.role().text(answer);
        return s.finish(u"stop"_s).usage(900, 20).done().bytes();
    }

    /// The system prompt and the last user text of a chat completions request.
    static std::pair<QString, QString> promptOf(const FakeRequest &request)
    {
        QString system;
        QString user;
        for (const JsonValue &m : request.json.array(u"messages")) {
            const JsonObject message = m.toObject();
            const JsonValue content = message.value(u"content");
            QString text = content.isString() ? content.toString() : QString();
            if (content.isArray()) {
                for (const JsonValue &c : content.toArray())
                    text += c.toObject().string(u"text");
            }
            if (message.string(u"role") == u"system")
                system += text;
            else if (message.string(u"role") == u"user")
                user = text;
        }
        return {system, user};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_server.listen());
        QProcess git;
        git.setWorkingDirectory(m_project.path());
        git.start(u"sh"_s, {u"-c"_s, u"git init -q && git -c user.email=t@e -c user.name=t commit -q --allow-empty -m root"_s});
        QVERIFY(git.waitForFinished(20000));
        QCOMPARE(git.exitCode(), 0);
        m_sub = m_project.path() + u"/packages/app"_s;
        QVERIFY(QDir().mkpath(m_sub));

        // OpenCode's global config names the provider; the key is in OpenCode's auth.json.
        const JsonObject global{
            {u"$schema"_s, u"https://opencode.ai/config.json"_s},
            {u"model"_s, u"fake/gpt-test"_s},
            {u"small_model"_s, u"fake/gpt-test"_s},
            {u"provider"_s,
             JsonObject{{u"fake"_s, JsonObject{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                                               {u"options"_s, JsonObject{{u"baseURL"_s, m_server.baseUrl().toString()}}},
                                               {u"models"_s, JsonObject{{u"gpt-test"_s, JsonObject{}}}}}}}},
        };
        write(m_home.path() + u"/config/opencode/opencode.json"_s, toJson(global, 2));
        write(m_home.path() + u"/data/opencode/auth.json"_s, "{\"fake\":{\"type\":\"api\",\"key\":\"sk-from-auth-json\"}}");
        write(m_home.path() + u"/config/opencode/AGENTS.md"_s, "Global rule: be brief.");
        // The project's files.
        write(m_project.path() + u"/opencode.jsonc"_s, "// project\n{ \"instructions\": [\"docs/*.md\"], }\n");
        write(m_project.path() + u"/docs/style.md"_s, "Style rule: tabs.");
        write(m_project.path() + u"/AGENTS.md"_s, "Project rule: run the tests.");
        write(m_sub + u"/AGENTS.md"_s, "Package rule: no globals.");
        write(m_project.path() + u"/.opencode/agent/reviewer.md"_s,
              "---\ndescription: Reviews changes\nmode: primary\n---\nYou are the reviewer agent.\n");
        write(m_project.path() + u"/.opencode/command/greet.md"_s,
              "---\ndescription: Greets someone\nagent: reviewer\n---\nSay hello to $1 in !`printf %s shell-out`.\n");
    }

    void runUsesOpenCodeConfiguration()
    {
        const qsizetype before = m_server.requests().size();
        m_server.enqueue(FakeReply::sse(text(u"Hello."_s)));
        m_server.enqueue(FakeReply::sse(text(u"Title"_s)));
        const Output run = weft({u"run"_s, u"--command"_s, u"greet"_s, u"Alice"_s, u"the"_s, u"garden"_s}, m_sub);
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(run.out.contains("Hello."), run.out.constData());

        const FakeRequest &request = m_server.requests().at(before);
        QCOMPARE(request.header("authorization"), QByteArray("Bearer sk-from-auth-json"));
        const auto [system, user] = promptOf(request);
        // The command's agent and template, with the arguments and the shell output filled in.
        QVERIFY2(system.startsWith(u"You are the reviewer agent."_s), qPrintable(system));
        QCOMPARE(user, u"Say hello to Alice the garden in shell-out."_s);
        // The instruction files in OpenCode's order: the project's AGENTS.md files nearest first,
        // the global one, then the config's instructions.
        const QString project = m_project.path();
        const QStringList expected{u"Instructions from: "_s + m_sub + u"/AGENTS.md\nPackage rule: no globals."_s,
                                   u"Instructions from: "_s + project + u"/AGENTS.md\nProject rule: run the tests."_s,
                                   u"Instructions from: "_s + m_home.path() + u"/config/opencode/AGENTS.md\nGlobal rule: be brief."_s,
                                   u"Instructions from: "_s + project + u"/docs/style.md\nStyle rule: tabs."_s};
        qsizetype at = 0;
        for (const QString &piece : expected) {
            const qsizetype found = system.indexOf(piece, at);
            QVERIFY2(found >= 0, qPrintable(u"missing or out of order: "_s + piece + u"\n---\n"_s + system));
            at = found + piece.size();
        }
    }

    void editsApplyToTheNextRun()
    {
        // The configuration is read for each run: a new AGENTS.md line is seen at once.
        write(m_project.path() + u"/AGENTS.md"_s, "Project rule: changed.");
        const qsizetype before = m_server.requests().size();
        m_server.enqueue(FakeReply::sse(text(u"Ok."_s)));
        m_server.enqueue(FakeReply::sse(text(u"Title"_s)));
        const Output run = weft({u"run"_s, u"--agent"_s, u"reviewer"_s, u"hi"_s}, m_project.path());
        QVERIFY2(run.code == 0, run.err.constData());
        const auto [system, user] = promptOf(m_server.requests().at(before));
        QVERIFY2(system.contains(u"Project rule: changed."_s), qPrintable(system));
        QVERIFY(!system.contains(u"Package rule"_s)); // not read from the project root
        QCOMPARE(user, u"hi"_s);
    }

    void errorsAreClear()
    {
        const Output unknown = weft({u"run"_s, u"--command"_s, u"nope"_s}, m_project.path());
        QVERIFY(unknown.code != 0);
        QVERIFY2(unknown.err.contains("no command \"nope\"; available: greet"), unknown.err.constData());

        // A damaged project file names itself and its line; nothing is sent.
        const qsizetype before = m_server.requests().size();
        write(m_sub + u"/opencode.json"_s, "{\n  \"model\": oops\n}\n");
        const Output damaged = weft({u"run"_s, u"hello"_s}, m_sub);
        QVERIFY(damaged.code != 0);
        QVERIFY2(damaged.err.contains((m_sub + u"/opencode.json:2"_s).toUtf8()), damaged.err.constData());
        QCOMPARE(m_server.requests().size(), before);
        QFile::remove(m_sub + u"/opencode.json"_s);
    }
};

QTEST_GUILESS_MAIN(TestCliConfig)
#include "tst_cli_config.moc"
