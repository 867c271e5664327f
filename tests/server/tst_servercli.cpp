// SPDX-License-Identifier: GPL-3.0-or-later
// `weft --server URL ...` against a loopback server that answers with what the real OpenCode
// 1.18.34 answered (tests/data/opencode-1.18.34-server).

#include "fakeopencodeserver.h"
#include "weftrun.h"

#include "core/json.h"

#include <QTcpServer>
#include <QTemporaryFile>
#include <QTest>

#include <csignal>
#include <QTimer>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::FakeOpencodeServer;
using weft::test::recordedApiAnswer;
using weft::test::recordedApiEvents;
using weft::test::recordedEvents;
using weft::test::RecordedExchange;
using weft::test::recordedExchange;
using weft::test::WeftRun;

namespace
{

QString v1Session()
{
    return recordedExchange(u"create V1 session"_s).responseBody.toObject().string(u"id");
}

JsonValue parse(const QByteArray &bytes)
{
    const std::optional<JsonValue> v = parseJson(bytes);
    return v ? *v : JsonValue();
}

QProcessEnvironment password(const QString &value = u"secret"_s)
{
    QProcessEnvironment env;
    env.insert(u"OPENCODE_SERVER_PASSWORD"_s, value);
    env.insert(u"WEFT_SERVER_SUBSCRIBE_MS"_s, u"0"_s);
    return env;
}

/// stderr is one line "weft: error: ..." containing @p what.
bool oneErrorLine(const WeftRun &run, const QString &what)
{
    const QString err = QString::fromUtf8(run.err);
    return run.exitCode != 0 && err.startsWith(u"weft: error: "_s) && err.count(u'\n') == 1 && err.contains(what);
}

} // namespace

class TestServerCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void listAndExport();
    void connectionErrors();
    void passwordFile();
    void forkRevertUnrevertDelete();
    void compact();
    void runStreamsTheAnswer();
    void runFails();
    void runInterrupted();
    void localOnlyCommandsRefused();
    // Against OpenCode 2 (only `/api` routes), recorded from its V2 preview.
    void v2ListAndExport();
    void v2Run_data();
    void v2Run();
    void v2ForkCompactRevertDelete();

private:
    std::unique_ptr<FakeOpencodeServer> m_server;
    test::WeftRunner m_weft;

    WeftRun weft(const QStringList &args, const QProcessEnvironment &env = password())
    {
        return m_weft.run(QStringList{u"--server"_s, m_server->url().toString()} + args, env);
    }
};

void TestServerCli::init()
{
    m_server = std::make_unique<FakeOpencodeServer>();
    QVERIFY(m_server->listen());
    m_server->routeAllRecorded();
    m_server->route("GET", u"/experimental/session"_s, 200, recordedExchange(u"session list"_s).responseBody);
}

void TestServerCli::cleanup()
{
    m_server.reset();
}

void TestServerCli::listAndExport()
{
    const WeftRun list = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QVERIFY2(list.exitCode == 0, list.err.constData());
    const JsonArray sessions = parse(list.out).toArray();
    QCOMPARE(sessions.size(), 1);
    QCOMPARE(sessions.at(0).toObject().string(u"id"), v1Session());
    QCOMPARE(sessions.at(0).toObject().string(u"title"), u"Recorded V1"_s);

    const WeftRun exported = weft({u"export"_s, v1Session()});
    QVERIFY2(exported.exitCode == 0, exported.err.constData());
    const JsonObject document = parse(exported.out).toObject();
    QCOMPARE(document.object(u"info").string(u"id"), v1Session());
    // The messages and parts exactly as the server has them: OpenCode's export shape.
    QCOMPARE(document.value(u"messages"), recordedExchange(u"messages"_s).responseBody);

    // A session the server does not know.
    m_server->route("GET", u"/session/ses_0000000000000000000000unkn"_s, 404, recordedExchange(u"unknown session"_s).responseBody);
    const WeftRun missing = weft({u"export"_s, u"ses_0000000000000000000000unkn"_s});
    QVERIFY2(oneErrorLine(missing, u"ses_0000000000000000000000unkn"_s), missing.err.constData());
    QVERIFY(missing.out.isEmpty());
    // A server that fails while the messages are read: an error, not an empty export.
    m_server->route("GET", u"/session/"_s + v1Session() + u"/message"_s, 500, JsonObject{{u"error"_s, u"disk gone"_s}});
    const WeftRun broken = weft({u"export"_s, v1Session()});
    QVERIFY2(oneErrorLine(broken, u"disk gone"_s), broken.err.constData());
}

void TestServerCli::connectionErrors()
{
    const WeftRun wrong = weft({u"session"_s, u"list"_s}, password(u"nope"_s));
    QVERIFY2(oneErrorLine(wrong, u"refused the password"_s), wrong.err.constData());
    QVERIFY(wrong.out.isEmpty());
    const WeftRun none = weft({u"session"_s, u"list"_s}, QProcessEnvironment());
    QVERIFY2(oneErrorLine(none, u"OPENCODE_SERVER_PASSWORD"_s), none.err.constData());

    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const QString closedUrl = u"http://127.0.0.1:%1"_s.arg(closed.serverPort());
    closed.close();
    const WeftRun unreachable = m_weft.run({u"--server"_s, closedUrl, u"session"_s, u"list"_s}, password());
    QVERIFY2(oneErrorLine(unreachable, u"cannot reach the OpenCode server"_s), unreachable.err.constData());

    FakeOpencodeServer future(QString{});
    QVERIFY(future.listen());
    future.route("GET", u"/global/health"_s, 200, JsonObject{{u"healthy"_s, true}, {u"version"_s, u"7.0.0"_s}});
    const WeftRun unknown = m_weft.run({u"--server"_s, future.url().toString(), u"session"_s, u"list"_s}, password());
    QVERIFY2(oneErrorLine(unknown, u"7.0.0"_s), unknown.err.constData());

    const WeftRun badUrl = m_weft.run({u"--server"_s, u"ftp://x"_s, u"session"_s, u"list"_s}, password());
    QVERIFY2(oneErrorLine(badUrl, u"ftp://x"_s), badUrl.err.constData());
    const WeftRun both = m_weft.run({u"--server"_s, closedUrl, u"--data-dir"_s, u"/tmp"_s, u"session"_s, u"list"_s});
    QCOMPARE(both.exitCode, 2);
}

void TestServerCli::passwordFile()
{
    QTemporaryFile file;
    QVERIFY(file.open());
    file.write("secret\n");
    file.close();
    const WeftRun list = weft({u"--password-file"_s, file.fileName(), u"session"_s, u"list"_s}, password(u"wrong"_s));
    QVERIFY2(list.exitCode == 0, list.err.constData());
    QVERIFY(list.out.contains("Recorded V1"));
    const WeftRun missing = weft({u"--password-file"_s, file.fileName() + u".none"_s, u"session"_s, u"list"_s});
    QVERIFY2(oneErrorLine(missing, u"password file"_s), missing.err.constData());
}

void TestServerCli::forkRevertUnrevertDelete()
{
    for (const QString &name : {u"fork before the 2nd user message"_s, u"revert to the 2nd user message"_s, u"unrevert"_s,
                                u"delete the fork"_s})
        m_server->routeRecorded(name);
    const RecordedExchange forkExchange = recordedExchange(u"fork before the 2nd user message"_s);
    const QString messageID = forkExchange.requestBody.toObject().string(u"messageID");

    const WeftRun forked = weft({u"session"_s, u"fork"_s, v1Session(), u"--message"_s, messageID});
    QVERIFY2(forked.exitCode == 0, forked.err.constData());
    QCOMPARE(forked.out.trimmed(), forkExchange.responseBody.toObject().string(u"id").toUtf8());
    QCOMPARE(m_server->requests().last().json, forkExchange.requestBody.toObject());

    const WeftRun reverted = weft({u"session"_s, u"revert"_s, v1Session(), messageID});
    QVERIFY2(reverted.exitCode == 0, reverted.err.constData());
    QVERIFY(reverted.out.contains(messageID.toUtf8()));
    const WeftRun unreverted = weft({u"session"_s, u"unrevert"_s, v1Session()});
    QVERIFY2(unreverted.exitCode == 0, unreverted.err.constData());
    QCOMPARE(m_server->count("POST", u"/session/"_s + v1Session() + u"/unrevert"_s), 1);

    const QString forkID = recordedExchange(u"delete the fork"_s).path.section(u'/', 2, 2);
    const WeftRun deleted = weft({u"session"_s, u"delete"_s, forkID});
    QVERIFY2(deleted.exitCode == 0, deleted.err.constData());
    QCOMPARE(m_server->count("DELETE", u"/session/"_s + forkID), 1);
    m_server->route("DELETE", u"/session/"_s + forkID, 404, recordedExchange(u"get the deleted fork"_s).responseBody);
    const WeftRun again = weft({u"session"_s, u"delete"_s, forkID});
    QVERIFY2(oneErrorLine(again, u"HTTP 404"_s), again.err.constData());
}

void TestServerCli::compact()
{
    m_server->routeRecorded(u"summarize"_s);
    const WeftRun compacted = weft({u"session"_s, u"compact"_s, v1Session()});
    QVERIFY2(compacted.exitCode == 0, compacted.err.constData());
    QCOMPARE(m_server->requests().last().json, recordedExchange(u"summarize"_s).requestBody.toObject());
    const WeftRun preview = weft({u"session"_s, u"compact"_s, v1Session(), u"--preview"_s});
    QCOMPARE(preview.exitCode, 2);
}

void TestServerCli::runStreamsTheAnswer()
{
    // The server answers the prompt as the real one did: its recorded event stream.
    const QList<QByteArray> frames = recordedEvents(u"events-global-v1-prompt.sse"_s).mid(1);
    QVERIFY(frames.size() > 50);
    m_server->route("POST", u"/session/"_s + v1Session() + u"/prompt_async"_s, [this, frames](const test::FakeRequest &) {
        QTimer::singleShot(10, m_server.get(), [this, frames] {
            for (const QByteArray &frame : frames)
                m_server->pushFrame(frame);
        });
        return FakeOpencodeServer::Reply{204, {}};
    });
    const WeftRun run = weft({u"run"_s, u"--session"_s, v1Session(), u"WRITE_HELLO:"_s, u"please"_s});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.contains(u"Writing the file."_s), run.out.constData());
    QVERIFY2(out.contains(u"✓ write: "_s), run.out.constData());
    QVERIFY2(out.contains(u"Done: the file exists."_s), run.out.constData());
    QCOMPARE(out.count(u"Done: the file exists."_s), 1);
    const test::FakeRequest prompt = [&] {
        for (const test::FakeRequest &r : m_server->requests()) {
            if (r.path.contains("/prompt_async"))
                return r;
        }
        return test::FakeRequest();
    }();
    QCOMPARE(prompt.json.value(u"parts"_s).toArray().at(0).toObject().string(u"text"), u"WRITE_HELLO: please"_s);
    QVERIFY(prompt.json.string(u"messageID"_s).startsWith(u"msg_"_s));
}

void TestServerCli::runFails()
{
    // The model fails: the server records the error on the answer and goes idle.
    JsonArray messages = recordedExchange(u"messages"_s).responseBody.toArray();
    JsonObject last = messages.at(messages.size() - 1).toObject();
    JsonObject info = last.object(u"info");
    info.insert(u"error"_s, JsonObject{{u"name"_s, u"APIError"_s}, {u"data"_s, JsonObject{{u"message"_s, u"Overloaded"_s}}}});
    last.insert(u"info"_s, info);
    messages[messages.size() - 1] = last;
    m_server->route("GET", u"/session/"_s + v1Session() + u"/message"_s, 200, messages);
    m_server->route("POST", u"/session/"_s + v1Session() + u"/prompt_async"_s, [this](const test::FakeRequest &) {
        QTimer::singleShot(10, m_server.get(), [this] {
            m_server->pushEvent(u"session.status"_s, JsonObject{{u"sessionID"_s, v1Session()}, {u"status"_s, JsonObject{{u"type"_s, u"busy"_s}}}});
            m_server->pushEvent(u"session.error"_s, JsonObject{{u"sessionID"_s, v1Session()},
                                                             {u"error"_s, JsonObject{{u"name"_s, u"APIError"_s}, {u"data"_s, JsonObject{{u"message"_s, u"Overloaded"_s}}}}}});
            m_server->pushEvent(u"session.idle"_s, JsonObject{{u"sessionID"_s, v1Session()}});
        });
        return FakeOpencodeServer::Reply{204, {}};
    });
    const WeftRun run = weft({u"run"_s, u"--session"_s, v1Session(), u"hello"_s});
    QVERIFY2(oneErrorLine(run, u"Overloaded"_s), run.err.constData());

    // A session that does not exist.
    m_server->route("GET", u"/session/ses_0000000000000000000000unkn"_s, 404, recordedExchange(u"unknown session"_s).responseBody);
    const WeftRun unknown = weft({u"run"_s, u"--session"_s, u"ses_0000000000000000000000unkn"_s, u"hello"_s});
    QVERIFY2(oneErrorLine(unknown, u"HTTP 404"_s), unknown.err.constData());
}

void TestServerCli::runInterrupted()
{
    // The server starts the run and keeps it going; Ctrl+C aborts it there and exits 130.
    m_server->routeRecorded(u"abort an idle session"_s);
    QProcess *running = nullptr;
    m_server->route("POST", u"/session/"_s + v1Session() + u"/prompt_async"_s, [this, &running](const test::FakeRequest &) {
        QTimer::singleShot(10, m_server.get(), [this, &running] {
            m_server->pushEvent(u"session.status"_s, JsonObject{{u"sessionID"_s, v1Session()}, {u"status"_s, JsonObject{{u"type"_s, u"busy"_s}}}});
            QTimer::singleShot(300, m_server.get(), [&running] {
                if (running)
                    ::kill(pid_t(running->processId()), SIGINT);
            });
        });
        return FakeOpencodeServer::Reply{204, {}};
    });
    const WeftRun run = m_weft.run({u"--server"_s, m_server->url().toString(), u"run"_s, u"--session"_s, v1Session(), u"go"_s},
                                   password(), [&running](QProcess &process) { running = &process; });
    QCOMPARE(run.exitCode, 130);
    QVERIFY2(run.err.contains("weft: interrupted"), run.err.constData());
    QCOMPARE(m_server->count("POST", u"/session/"_s + v1Session() + u"/abort"_s), 1);
}

void TestServerCli::localOnlyCommandsRefused()
{
    for (const QStringList &args : {QStringList{u"import"_s, u"x.json"_s}, QStringList{u"search"_s, u"x"_s},
                                    QStringList{u"session"_s, u"prune"_s, v1Session()}}) {
        const WeftRun run = weft(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("not with --server"), run.err.constData());
    }
}

namespace
{

const QString V2WriteSession = u"ses_ddcdb783cffeX7KYY6OJl6gO0h"_s;
const QString V2ShellSession = u"ses_ddcdb745affekya26AGAW2oUML"_s;
/// The recorded prompt of V2WriteSession ("Please create the files").
const QByteArray V2RecordedInput = "msg_2232488d4001QzWT0pMlA8YN5C";

std::unique_ptr<FakeOpencodeServer> v2Server()
{
    auto server = std::make_unique<FakeOpencodeServer>();
    server->setV2Only();
    server->routeAllRecordedV2();
    if (!server->listen())
        return nullptr;
    return server;
}

} // namespace

void TestServerCli::v2ListAndExport()
{
    m_server = v2Server();
    QVERIFY(m_server);
    const WeftRun list = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
    QVERIFY2(list.exitCode == 0, list.err.constData());
    const JsonArray sessions = parse(list.out).toArray();
    QCOMPARE(sessions.size(), 3);
    QStringList ids;
    for (const JsonValue &v : sessions)
        ids.append(v.toObject().string(u"id"));
    QVERIFY(ids.contains(V2WriteSession) && ids.contains(V2ShellSession));
    // OpenCode 2's own variable for the password.
    QProcessEnvironment v2Password;
    v2Password.insert(u"OPENCODE_PASSWORD"_s, u"secret"_s);
    const WeftRun withV2Variable = weft({u"session"_s, u"list"_s}, v2Password);
    QVERIFY2(withV2Variable.exitCode == 0, withV2Variable.err.constData());
    // The text list too, as on OpenCode 1.x.
    const WeftRun text = weft({u"session"_s, u"list"_s});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    QVERIFY(text.out.contains(V2ShellSession.toUtf8()));

    const WeftRun exported = weft({u"export"_s, V2ShellSession});
    QVERIFY2(exported.exitCode == 0, exported.err.constData());
    const JsonObject document = parse(exported.out).toObject();
    QCOMPARE(document.object(u"info").string(u"id"), V2ShellSession);
    QCOMPARE(document.object(u"info").string(u"directory"), u"/home/dev/src/demo4"_s);
    // OpenCode's export shape: [{info, parts}], the server's history mapped to V1 messages.
    const JsonArray messages = document.array(u"messages");
    QCOMPARE(messages.size(), 6);
    QCOMPARE(messages.at(0).toObject().object(u"info").string(u"role"), u"user"_s);
    QVERIFY(exported.out.contains("\"tool\": \"shell\""));
    QVERIFY(exported.out.contains("python3 hello.py"));
    // A session the server does not know.
    m_server->route("GET", u"/api/session/ses_0000000000000000000000unkn"_s, 404,
                    JsonObject{{u"name"_s, u"NotFoundError"_s}, {u"data"_s, JsonObject{{u"message"_s, u"Session not found"_s}}}});
    const WeftRun missing = weft({u"export"_s, u"ses_0000000000000000000000unkn"_s});
    QVERIFY2(oneErrorLine(missing, u"ses_0000000000000000000000unkn"_s), missing.err.constData());
    // No V1 route was asked after the probe.
    for (const test::FakeRequest &r : m_server->requests())
        QVERIFY2(r.path.startsWith("/api/") || r.path == "/global/health", r.path.constData());
}

void TestServerCli::v2Run_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("reply"); // to the permission asked
    QTest::addRow("plain") << QStringList() << u"reject"_s;
    QTest::addRow("auto-approve") << QStringList{u"--auto-approve"_s} << u"once"_s;
    // A queued prompt: the run before it ends first, and the command waits for its own.
    QTest::addRow("queue") << QStringList{u"--queue"_s} << u"reject"_s;
}

void TestServerCli::v2Run()
{
    QFETCH(QStringList, options);
    QFETCH(QString, reply);
    m_server = v2Server();
    QVERIFY(m_server);
    const QString base = u"/api/session/"_s + V2WriteSession;
    // The recorded run of the session's first prompt, with the prompt's ID the command sends.
    QList<QByteArray> frames;
    for (const QByteArray &frame : recordedApiEvents()) {
        if (!frame.contains(V2WriteSession.toUtf8()) || frame.contains("\"session.created\""))
            continue;
        frames.append(frame);
        if (frame.contains("\"session.execution.succeeded\""))
            break;
    }
    QVERIFY(frames.size() > 10);
    const QByteArray history = toJson(recordedApiAnswer(base + u"/message?limit=100"_s), 0);
    QByteArray promptID;
    m_server->route("GET", base + u"/message"_s, [&](const test::FakeRequest &) {
        return FakeOpencodeServer::Reply{200, QByteArray(history).replace(V2RecordedInput, promptID)};
    });
    const bool queued = options.contains(u"--queue"_s);
    m_server->route("POST", base + u"/prompt"_s, [&](const test::FakeRequest &request) {
        promptID = request.json.string(u"id").toUtf8();
        QTimer::singleShot(10, m_server.get(), [&, queued] {
            if (queued) {
                m_server->pushApiEvent(u"session.execution.started"_s, JsonObject{{u"sessionID"_s, V2WriteSession}});
                m_server->pushApiEvent(u"session.execution.succeeded"_s, JsonObject{{u"sessionID"_s, V2WriteSession}});
            }
            m_server->pushApiEvent(u"permission.asked"_s,
                                   JsonObject{{u"id"_s, u"per_1"_s},
                                              {u"sessionID"_s, V2WriteSession},
                                              {u"action"_s, u"write"_s},
                                              {u"resources"_s, JsonArray{u"hello.py"_s}}});
            m_server->pushApiEvent(u"form.created"_s,
                                   JsonObject{{u"form"_s, JsonObject{{u"id"_s, u"frm_1"_s},
                                                                     {u"sessionID"_s, V2WriteSession},
                                                                     {u"title"_s, u"Name?"_s},
                                                                     {u"fields"_s, JsonArray{JsonObject{{u"key"_s, u"name"_s},
                                                                                                        {u"type"_s, u"string"_s},
                                                                                                        {u"title"_s, u"Name"_s}}}}}}});
            for (const QByteArray &frame : frames)
                m_server->pushFrame(QByteArray(frame).replace(V2RecordedInput, promptID));
        });
        return FakeOpencodeServer::Reply{200, toJson(JsonObject{{u"data"_s, JsonObject{{u"id"_s, QString::fromUtf8(promptID)}}}}, 0)};
    });
    for (const QString &tail : {u"/permission/per_1/reply"_s, u"/form/frm_1/cancel"_s})
        m_server->route("POST", base + tail, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });

    const WeftRun run = weft(QStringList{u"run"_s, u"--session"_s, V2WriteSession} + options + QStringList{u"Please create the files"_s});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.contains(u"✓ write"_s), run.out.constData());
    // Streamed once, and not printed again from the history read at the end.
    QCOMPARE(out.count(u"Done. The tool finished; here is what happened in short."_s), 1);
    const JsonObject prompt = [&] {
        for (const test::FakeRequest &r : m_server->requests()) {
            if (r.path.endsWith("/prompt"))
                return r.json;
        }
        return JsonObject();
    }();
    QCOMPARE(prompt.string(u"text"), u"Please create the files"_s);
    QVERIFY(prompt.string(u"id").startsWith(u"msg_"_s));
    QCOMPARE(prompt.string(u"delivery"), queued ? u"queue"_s : QString());
    QCOMPARE(m_server->requests().isEmpty(), false);
    QTRY_COMPARE(m_server->count("POST", base + u"/permission/per_1/reply"_s), 1);
    for (const test::FakeRequest &r : m_server->requests()) {
        if (r.path.endsWith("/permission/per_1/reply"))
            QCOMPARE(r.json, (JsonObject{{u"reply"_s, reply}}));
    }
    // The form is declined, as a question is (the command line has no one to ask).
    QCOMPARE(m_server->count("POST", base + u"/form/frm_1/cancel"_s), 1);
    QVERIFY2(run.err.contains("declined"), run.err.constData());
}

void TestServerCli::v2ForkCompactRevertDelete()
{
    m_server = v2Server();
    QVERIFY(m_server);
    const QString base = u"/api/session/"_s + V2WriteSession;
    const JsonValue info = [] {
        for (const JsonValue &v : recordedApiAnswer(u"/api/session"_s).toObject().array(u"data")) {
            if (v.toObject().string(u"id") == V2ShellSession)
                return JsonValue(JsonObject{{u"data"_s, v}});
        }
        return JsonValue();
    }();
    m_server->route("POST", base + u"/fork"_s, 200, info);
    for (const QString &tail : {u"/compact"_s, u"/wait"_s, u"/revert/stage"_s, u"/revert/clear"_s})
        m_server->route("POST", base + tail, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    m_server->route("DELETE", base, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    const QString messageID = u"msg_2232488e8001V2OLWwvZFRlcvK"_s;

    const WeftRun forked = weft({u"session"_s, u"fork"_s, V2WriteSession, u"--message"_s, messageID});
    QVERIFY2(forked.exitCode == 0, forked.err.constData());
    QCOMPARE(forked.out.trimmed(), V2ShellSession.toUtf8());
    QCOMPARE(m_server->requests().last().json,
             (JsonObject{{u"boundary"_s, JsonObject{{u"type"_s, u"before"_s}, {u"messageID"_s, messageID}}}}));

    const WeftRun compacted = weft({u"session"_s, u"compact"_s, V2WriteSession});
    QVERIFY2(compacted.exitCode == 0, compacted.err.constData());
    QCOMPARE(m_server->count("POST", base + u"/compact"_s), 1);
    QCOMPARE(m_server->count("POST", base + u"/wait"_s), 1);

    const WeftRun reverted = weft({u"session"_s, u"revert"_s, V2WriteSession, messageID});
    QVERIFY2(reverted.exitCode == 0, reverted.err.constData());
    QCOMPARE(m_server->count("POST", base + u"/revert/stage"_s), 1);
    const WeftRun unreverted = weft({u"session"_s, u"unrevert"_s, V2WriteSession});
    QVERIFY2(unreverted.exitCode == 0, unreverted.err.constData());
    QCOMPARE(m_server->count("POST", base + u"/revert/clear"_s), 1);

    const WeftRun deleted = weft({u"session"_s, u"delete"_s, V2WriteSession});
    QVERIFY2(deleted.exitCode == 0, deleted.err.constData());
    QCOMPARE(m_server->count("DELETE", base), 1);

    // Steering and queueing go with a session.
    const WeftRun noSession = weft({u"run"_s, u"--queue"_s, u"hi"_s});
    QCOMPARE(noSession.exitCode, 2);
}

QTEST_GUILESS_MAIN(TestServerCli)
#include "tst_servercli.moc"
