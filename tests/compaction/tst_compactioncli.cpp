// SPDX-License-Identifier: GPL-3.0-or-later
// `weft session compact` and `weft session prune`, run as real processes against a copy of the
// OpenCode 1.1.53 fixture and the loopback LLM server.

#include "fakellmserver.h"
#include "sessionbuilder.h"
#include "testdata.h"

#include "core/json.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{
const QString Main = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

JsonObject parseObject(const QByteArray &bytes)
{
    const std::optional<JsonValue> v = parseJson(bytes);
    return v ? v->toObject() : JsonObject();
}
} // namespace

class TestCompactionCli : public QObject
{
    Q_OBJECT

private:
    QString m_binary;
    QTemporaryDir m_home;

    /// Runs weft, keeping this thread's event loop going (for the loopback server).
    Run weft(const QStringList &args, const QHash<QString, QString> &extraEnv = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_DATA_HOME"_s, m_home.path() + u"/data"_s);
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.path() + u"/config"_s);
        env.insert(u"XDG_STATE_HOME"_s, m_home.path() + u"/state"_s);
        env.insert(u"LC_ALL"_s, u"C.UTF-8"_s);
        env.remove(u"OPENCODE_DISABLE_AUTOCOMPACT"_s);
        env.remove(u"OPENCODE_DISABLE_PRUNE"_s);
        env.remove(u"DISPLAY"_s);
        env.remove(u"WAYLAND_DISPLAY"_s);
        for (auto it = extraEnv.cbegin(); it != extraEnv.cend(); ++it)
            env.insert(it.key(), it.value());
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(m_home.path());
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(m_binary, args);
        Run run;
        if (!process.waitForStarted(20000))
            return run;
        if (!finished.wait(60000)) {
            process.kill();
            process.waitForFinished();
            return run;
        }
        run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
        run.out = process.readAllStandardOutput();
        run.err = process.readAllStandardError();
        return run;
    }

    QString writeConfig(const QString &name, const QByteArray &text)
    {
        const QString path = m_home.path() + u'/' + name;
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return path;
    }

    QString fakeConfig(const FakeLlmServer &server, const QByteArray &compaction = "{}")
    {
        return writeConfig(u"weft-%1.json"_s.arg(server.port()),
                           "{\"model\": \"fake/m1\", \"compaction\": " + compaction
                               + ", \"provider\": {\"fake\": {\"npm\": \"@ai-sdk/openai-compatible\", \"options\": {\"baseURL\": \""
                               + server.baseUrl().toString().toUtf8()
                               + "\", \"apiKey\": \"sk-test\"}, \"models\": {\"m1\": {\"limit\": {\"context\": 100000, \"output\": 4000}}}}}}");
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_binary = QStringLiteral(WEFT_BINARY_DIR "/bin/weft");
        QVERIFY2(QFileInfo(m_binary).isExecutable(), qPrintable(m_binary));
        QVERIFY(m_home.isValid());
    }

    void previewChangesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addRow("compact --preview") << QStringList{u"session"_s, u"compact"_s, Main, u"--preview"_s};
        QTest::addRow("compact --preview summary-tail")
            << QStringList{u"session"_s, u"compact"_s, Main, u"--preview"_s, u"--strategy"_s, u"summary-tail"_s};
        QTest::addRow("prune --preview") << QStringList{u"session"_s, u"prune"_s, Main, u"--preview"_s};
    }

    void previewChangesNothing()
    {
        QFETCH(QStringList, args);
        FixtureDataDir fixture;
        const QMap<QString, QByteArray> before = snapshotTree(fixture.path());
        const Run run = weft(QStringList{u"--data-dir"_s, fixture.path()} + args);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const JsonObject json = parseObject(run.out);
        QVERIFY2(!json.isEmpty(), run.out.constData());
        QCOMPARE(json.string(u"sessionID"), Main);
        if (args.at(1) == u"compact") {
            QCOMPARE(json.string(u"strategy"), args.contains(u"summary-tail"_s) ? u"summary-tail"_s : u"summary"_s);
            QVERIFY(json.object(u"summarize").integer(u"count") > 0);
            QVERIFY(json.object(u"tokens").contains(u"after"));
            QVERIFY(json.contains(u"prune"));
        } else {
            QCOMPARE(json.integer(u"protect"), 40000);
            QCOMPARE(json.integer(u"minimum"), 20000);
            QCOMPARE(json.value(u"applied").toBool(), false);
        }
        QCOMPARE(snapshotTree(fixture.path()), before);
    }

    void prune()
    {
        QTemporaryDir data;
        QString id;
        QString old;
        {
            auto store = std::make_shared<JsonStore>(data.path());
            QVERIFY(store->initialize().ok());
            SessionService service(store);
            SessionService::CreateOptions options;
            options.directory = data.path();
            const Result<Session> session = service.create(options);
            QVERIFY(session.ok());
            id = session->id();
            SessionBuilder b(id);
            b.user();
            b.assistant();
            old = b.tool(30000);
            b.tool(40000);
            b.user();
            b.user();
            QVERIFY(b.write(service));
        }
        const QMap<QString, QByteArray> before = snapshotTree(data.path());
        // Disabled by the config or the environment: refused, nothing changes.
        const QString off = writeConfig(u"prune-off.json"_s, "{\"compaction\": {\"prune\": false}}");
        Run run = weft({u"--data-dir"_s, data.path(), u"--config"_s, off, u"session"_s, u"prune"_s, id});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("pruning is disabled by compaction.prune"), run.err.constData());
        run = weft({u"--data-dir"_s, data.path(), u"session"_s, u"prune"_s, id}, {{u"OPENCODE_DISABLE_PRUNE"_s, u"1"_s}});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("OPENCODE_DISABLE_PRUNE"), run.err.constData());
        QCOMPARE(snapshotTree(data.path()), before);

        run = weft({u"--data-dir"_s, data.path(), u"session"_s, u"prune"_s, id});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.startsWith("Pruned 1 tool outputs (~30000 tokens)"), run.out.constData());
        run = weft({u"--data-dir"_s, data.path(), u"session"_s, u"prune"_s, id});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("Nothing to prune"), run.out.constData());
        auto store = std::make_shared<JsonStore>(data.path());
        SessionService service(store);
        bool pruned = false;
        for (const MessageWithParts &m : service.messages(id)) {
            for (const Part &p : m.parts)
                pruned = pruned || (p.id() == old && p.state().isCompacted());
        }
        QVERIFY(pruned);
    }

    void compact()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        OpenAiStream reply;
        reply.role().text(u"## Summary\n"_s).text(u"Everything so far."_s).finish(u"stop"_s).usage(3000, 20).done();
        server.enqueue(FakeReply::sse(reply.bytes()));
        FixtureDataDir fixture;
        const QString config = fakeConfig(server);
        const Run run = weft({u"--data-dir"_s, fixture.path(), u"--config"_s, config, u"session"_s, u"compact"_s, Main});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QCOMPARE(run.out, QByteArray("## Summary\nEverything so far.\n"));
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(server.requests().first().json.string(u"model"), u"m1"_s);

        // The export shows the new compaction.
        const Run exported = weft({u"--data-dir"_s, fixture.path(), u"export"_s, Main});
        QCOMPARE(exported.exitCode, 0);
        const JsonArray messages = parseObject(exported.out).array(u"messages");
        const JsonObject summary = messages.at(messages.size() - 1).toObject().object(u"info");
        QCOMPARE(summary.value(u"summary").toBool(), true);
        QCOMPARE(summary.string(u"agent"), u"compaction"_s);
        QCOMPARE(messages.at(messages.size() - 2).toObject().array(u"parts").at(0).toObject().string(u"type"), u"compaction"_s);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("message");
        QTest::addRow("bad strategy") << QStringList{u"session"_s, u"compact"_s, Main, u"--strategy"_s, u"tail"_s} << 2
                                      << "unknown strategy"_ba;
        QTest::addRow("no session id") << QStringList{u"session"_s, u"compact"_s} << 2 << "one SESSION_ID"_ba;
        QTest::addRow("invalid id") << QStringList{u"session"_s, u"prune"_s, u"nope"_s} << 2 << "invalid session ID"_ba;
        QTest::addRow("unknown session") << QStringList{u"session"_s, u"compact"_s, u"ses_doesnotexist000000000000"_s, u"--preview"_s}
                                         << 1 << "no session"_ba;
        QTest::addRow("unknown model") << QStringList{u"session"_s, u"compact"_s, Main, u"--model"_s, u"nope/none"_s} << 1
                                       << "weft: error:"_ba;
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, message);
        FixtureDataDir fixture;
        const QString empty = writeConfig(u"empty.json"_s, "{}");
        const Run run = weft(QStringList{u"--data-dir"_s, fixture.path(), u"--config"_s, empty} + args);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void help()
    {
        Run run = weft({u"session"_s, u"--help"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("compact SESSION_ID [--model PROVIDER/MODEL] [--preview] [--strategy summary|summary-tail]"));
        QVERIFY(run.out.contains("prune SESSION_ID [--preview]"));
        run = weft({u"--help"_s});
        QVERIFY(run.out.contains("session compact SESSION_ID"));
        QVERIFY(run.out.contains("session prune SESSION_ID [--preview]"));
        run = weft({u"session"_s, u"compact"_s, u"--help"_s});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("Usage: weft [--data-dir DIR] session compact [options] SESSION_ID"));
        QVERIFY(run.out.contains("--strategy"));
        run = weft({u"session"_s, u"prune"_s, u"--help"_s});
        QVERIFY(run.out.startsWith("Usage: weft [--data-dir DIR] session prune [options] SESSION_ID"));
    }
};

QTEST_GUILESS_MAIN(TestCompactionCli)
#include "tst_compactioncli.moc"
