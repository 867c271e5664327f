// SPDX-License-Identifier: GPL-3.0-or-later
// `weft run`, `session revert` and `session unrevert` as a user runs them: the real binary,
// a config in OpenCode's format pointing at the loopback LLM server, a git project as cwd.
#include "fakellmserver.h"
#include "runfixture.h"

#include "core/json.h"
#include "store/sessionlock.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <QScopeGuard>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>
#include <functional>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

class TestCliRun : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_project;
    FakeLlmServer m_server;
    QString m_config;

    struct Output {
        int code = -1;
        QByteArray out;
        QByteArray err;
    };

    /// Runs weft with @p args; @p whileRunning is called once the loopback server has its
    /// first request (with the process), e.g. to interrupt it; @p beforeStart before it starts.
    Output weft(const QStringList &args, const std::function<void(QProcess &)> &whileRunning = {},
                const std::function<void(QProcess &)> &beforeStart = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_DATA_HOME"_s, m_home.path() + u"/data"_s);
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.path() + u"/config"_s);
        env.insert(u"FAKE_API_KEY"_s, u"sk-fake-secret-000111"_s);
        env.remove(u"OPENAI_API_KEY"_s);
        env.remove(u"ANTHROPIC_API_KEY"_s);
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(m_project.path());
        QSignalSpy finished(&process, &QProcess::finished);
        QMetaObject::Connection hook;
        if (whileRunning)
            hook = connect(&m_server, &FakeLlmServer::requestReceived, &process, [&process, &whileRunning, &hook] {
                disconnect(hook);
                whileRunning(process);
            });
        if (beforeStart)
            beforeStart(process);
        process.start(QStringLiteral(WEFT_BINARY_DIR "/bin/weft"), QStringList{u"--config"_s, m_config} + args);
        // The loopback server lives on this thread: keep its event loop running while we wait.
        if (!finished.wait(60000))
            process.kill();
        return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
    }

    static QByteArray text(const QStringList &pieces)
    {
        OpenAiStream s;
        s.role();
        for (const QString &p : pieces)
            s.text(p);
        return s.finish(u"stop"_s).usage(900, 20).done().bytes();
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
        m_config = m_home.path() + u"/weft.json"_s;
        const JsonObject config{
            {u"$schema"_s, u"https://opencode.ai/config.json"_s},
            {u"model"_s, u"fake/gpt-test"_s},
            {u"small_model"_s, u"fake/gpt-test"_s},
            {u"provider"_s,
             JsonObject{{u"fake"_s,
                         JsonObject{{u"npm"_s, u"@ai-sdk/openai-compatible"_s},
                                    {u"options"_s, JsonObject{{u"baseURL"_s, m_server.baseUrl().toString()},
                                                              {u"apiKey"_s, u"{env:FAKE_API_KEY}"_s}}},
                                    {u"models"_s, JsonObject{{u"gpt-test"_s, JsonObject{{u"limit"_s, JsonObject{{u"context"_s, 100000}, {u"output"_s, 4000}}},
                                                                                       {u"cost"_s, JsonObject{{u"input"_s, 3}, {u"output"_s, 15}}}}},
                                                             // reads images (OpenCode's `modalities`)
                                                             {u"gpt-vision"_s, JsonObject{{u"modalities"_s, JsonObject{{u"input"_s, JsonArray{u"text"_s, u"image"_s}}}}}}}}}}}},
        };
        QFile f(m_config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // OpenCode configs are JSONC: a comment must not bother the reader.
        f.write("// written by the test\n" + toJson(config, 2));
    }

    void runStreamsToolsAndText()
    {
        const QString file = m_project.path() + u"/hello.txt"_s;
        OpenAiStream tool;
        tool.role().text(u"Creating it."_s);
        const QByteArray args = toJson(JsonObject{{u"filePath"_s, file}, {u"content"_s, u"hi\n"_s}}, 0);
        tool.toolCallStart(0, u"call_w"_s, u"write"_s, QString::fromUtf8(args.left(4)));
        tool.toolCallArguments(0, QString::fromUtf8(args.mid(4)));
        tool.finish(u"tool_calls"_s).usage(800, 30).done();
        m_server.enqueue(FakeReply::sse(tool.bytes()).chunked(9, 2));
        m_server.enqueue(FakeReply::sse(text({u"All "_s, u"done."_s})).chunked(5, 2));
        m_server.enqueue(FakeReply::sse(text({u"Create hello"_s})));

        const Output run = weft({u"run"_s, u"please"_s, u"create"_s, u"hello.txt"_s});
        QVERIFY2(run.code == 0, run.err.constData());
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.contains(u"Creating it."_s), qPrintable(out));
        QVERIFY2(out.contains(u"✓ write: "_s), qPrintable(out));
        QVERIFY2(out.contains(u"All done."_s), qPrintable(out));
        QVERIFY(out.indexOf(u"✓ write"_s) < out.indexOf(u"All done."_s));
        QVERIFY(QFile::exists(file));
        // The key never appears in what Weft prints or logs.
        QVERIFY(!run.out.contains("sk-fake-secret") && !run.err.contains("sk-fake-secret"));
        const QByteArray sentBody = m_server.requests().first().body;
        QVERIFY(QString::fromUtf8(sentBody).contains(u"please create hello.txt"_s));
        // No one at a terminal (stdin is a pipe): the question tool is not offered.
        QVERIFY(sentBody.contains("\"write\"") && !sentBody.contains("\"question\""));

        // The session is the project's, with the generated title.
        const Output list = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
        QCOMPARE(list.code, 0);
        const JsonArray sessions = parseJson(list.out)->toArray();
        QCOMPARE(sessions.size(), 1);
        const JsonObject session = sessions.at(0).toObject();
        QCOMPARE(session.string(u"title"), u"Create hello"_s);
        QCOMPARE(session.string(u"directory"), m_project.path());
        QVERIFY(session.string(u"projectId") != u"global");
        const QString id = session.string(u"id");

        const Output exported = weft({u"export"_s, id});
        QCOMPARE(exported.code, 0);
        const JsonObject doc = parseJson(exported.out)->toObject();
        const JsonArray messages = doc.array(u"messages");
        QCOMPARE(messages.size(), 3);
        QCOMPARE(messages.at(1).toObject().object(u"info").string(u"finish"), u"tool-calls"_s);
        QStringList types;
        for (const JsonValue &p : messages.at(1).toObject().array(u"parts"))
            types.append(p.toObject().string(u"type"));
        QCOMPARE(types, (QStringList{u"step-start"_s, u"text"_s, u"tool"_s, u"step-finish"_s, u"patch"_s}));
        QCOMPARE(doc.object(u"info").object(u"summary").integer(u"files"), 1);

        // Revert the turn from the command line, then bring it back.
        const QString userID = messages.at(0).toObject().object(u"info").string(u"id");
        const Output reverted = weft({u"session"_s, u"revert"_s, id, userID});
        QVERIFY2(reverted.code == 0, reverted.err.constData());
        QVERIFY(!QFile::exists(file));
        const Output unreverted = weft({u"session"_s, u"unrevert"_s, id});
        QVERIFY2(unreverted.code == 0, unreverted.err.constData());
        QVERIFY(QFile::exists(file));
    }

    void runWithFiles()
    {
        QFile notes(m_project.path() + u"/notes.txt"_s);
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("alpha\nbeta\n");
        notes.close();
        const QByteArray png = QByteArray::fromBase64(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");
        QFile pic(m_project.path() + u"/pic.png"_s);
        QVERIFY(pic.open(QIODevice::WriteOnly));
        pic.write(png);
        pic.close();

        // A model that reads images: the text file as the read tool's output, the image as a data: URL.
        const qsizetype before = m_server.requests().size();
        m_server.enqueue(FakeReply::sse(text({u"A note and a dot."_s})));
        m_server.enqueue(FakeReply::sse(text({u"Files"_s})));
        const Output run = weft({u"run"_s, u"--model"_s, u"fake/gpt-vision"_s, u"-f"_s, u"notes.txt"_s, u"--file"_s,
                                 u"pic.png"_s, u"what"_s, u"are"_s, u"these?"_s});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY(run.out.contains("A note and a dot."));
        QVERIFY(!run.out.contains("alpha")); // the file's text is not printed
        const JsonObject body = m_server.requests().at(before).json;
        const QByteArray raw = m_server.requests().at(before).body;
        QVERIFY(raw.contains("00001| alpha"));
        QVERIFY(raw.contains("Called the Read tool with the following input"));
        const QString dataUrl = u"data:image/png;base64,"_s + QString::fromLatin1(png.toBase64());
        bool sawImage = false;
        for (const JsonValue &m : body.array(u"messages")) {
            for (const JsonValue &c : m.toObject().array(u"content"))
                sawImage = sawImage || c.toObject().object(u"image_url").string(u"url") == dataUrl;
        }
        QVERIFY2(sawImage, raw.left(2000).constData());

        // Stored as OpenCode stores them.
        const Output list = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
        const QString id = parseJson(list.out).value_or(JsonValue()).toArray().at(0).toObject().string(u"id"_s);
        const Output exported = weft({u"export"_s, id});
        QCOMPARE(exported.code, 0);
        const JsonArray parts = parseJson(exported.out)->toObject().array(u"messages").at(0).toObject().array(u"parts");
        QStringList types;
        for (const JsonValue &p : parts)
            types.append(p.toObject().string(u"type") + (p.toObject().boolean(u"synthetic") ? u"*"_s : QString()));
        QCOMPARE(types, (QStringList{u"text"_s, u"text*"_s, u"text*"_s, u"file"_s, u"text*"_s, u"file"_s}));
        QCOMPARE(parts.at(3).toObject().string(u"mime"), u"text/plain"_s);
        QCOMPARE(parts.at(3).toObject().string(u"filename"), u"notes.txt"_s);
        QCOMPARE(parts.at(5).toObject().string(u"url"), dataUrl);

        // The configured model reads no images: OpenCode's text goes instead of the picture.
        const qsizetype second = m_server.requests().size();
        m_server.enqueue(FakeReply::sse(text({u"I cannot see it."_s})));
        const Output blind = weft({u"run"_s, u"--session"_s, id, u"--model"_s, u"fake/gpt-test"_s, u"-f"_s, u"pic.png"_s, u"and"_s, u"now?"_s});
        QVERIFY2(blind.code == 0, blind.err.constData());
        const QByteArray blindBody = m_server.requests().at(second).body;
        QVERIFY(blindBody.contains("ERROR: Cannot read \\\"pic.png\\\" (this model does not support image input). Inform the user."));
        QVERIFY(!blindBody.contains("image_url"));

        // What cannot be attached stops the run before anything is sent or written.
        const qsizetype third = m_server.requests().size();
        const Output listed = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
        const qsizetype sessions = parseJson(listed.out).value_or(JsonValue()).toArray().size();
        for (const auto &[path, why] : {std::pair{u"missing.txt"_s, "no such file or folder"},
                                        std::pair{u"../../../../../no/such/dir/x"_s, "no such file or folder"},
                                        std::pair{u"/dev/zero"_s, "device, pipe or socket"}}) {
            const Output refused = weft({u"run"_s, u"--file"_s, path, u"hello"_s});
            QCOMPARE(refused.code, 1);
            QVERIFY2(refused.err.contains(QByteArray("cannot attach " + path.toUtf8())) && refused.err.contains(why), refused.err.constData());
        }
        QCOMPARE(m_server.requests().size(), third);
        const Output after = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
        QCOMPARE(parseJson(after.out).value_or(JsonValue()).toArray().size(), sessions);
        QVERIFY(QFile::remove(notes.fileName()) && QFile::remove(pic.fileName()));
    }

    void runFailsClearly()
    {
        m_server.enqueue(FakeReply::json(401, "{\"error\":{\"message\":\"invalid api key\"}}"));
        const Output run = weft({u"run"_s, u"hello"_s});
        QVERIFY(run.code != 0);
        QVERIFY2(run.err.contains("ProviderAuthError"), run.err.constData());
        QVERIFY2(run.err.contains("invalid api key"), run.err.constData());
    }

    void ctrlCStopsTheRun()
    {
        // The model starts to answer, then stalls; Ctrl+C stops the run as Stop does.
        OpenAiStream stalled;
        stalled.role().text(u"Thinking about it"_s);
        FakeReply reply = FakeReply::sse(stalled.bytes());
        reply.hang = true;
        m_server.enqueue(reply);
        // Once the first words are out.
        const Output run = weft({u"run"_s, u"take"_s, u"your"_s, u"time"_s}, [](QProcess &process) {
            connect(&process, &QProcess::readyReadStandardOutput, &process, [&process] {
                if (process.property("interrupted").toBool() || !process.peek(1 << 16).contains("Thinking about it"))
                    return;
                process.setProperty("interrupted", true);
                ::kill(pid_t(process.processId()), SIGINT);
            });
        });
        QCOMPARE(run.code, 130);
        QVERIFY2(run.err.contains("weft: interrupted"), run.err.constData());
        QVERIFY2(run.out.contains("Thinking about it"), QByteArray(run.out + "\n--\n" + run.err).constData());

        // What streamed is kept, and the answer is closed as OpenCode closes an aborted one.
        const Output list = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
        QCOMPARE(list.code, 0);
        const QString id = parseJson(list.out).value_or(JsonValue()).toArray().at(0).toObject().string(u"id"_s);
        const Output exported = weft({u"export"_s, id});
        QCOMPARE(exported.code, 0);
        const JsonArray messages = parseJson(exported.out).value_or(JsonValue()).toObject().value(u"messages"_s).toArray();
        QVERIFY(messages.size() >= 2);
        const JsonObject last = messages.at(messages.size() - 1).toObject();
        const JsonObject info = last.object(u"info"_s);
        QCOMPARE(info.string(u"role"_s), u"assistant"_s);
        QCOMPARE(info.object(u"error"_s).string(u"name"_s), u"MessageAbortedError"_s);
        QVERIFY(info.object(u"time"_s).contains(u"completed"_s));
        bool kept = false;
        for (const JsonValue &part : last.value(u"parts"_s).toArray())
            kept |= part.toObject().string(u"text"_s).contains(u"Thinking about it"_s);
        QVERIFY(kept);
    }

    void questionOnTerminal()
    {
        // stdin is a terminal: the agent's questions are asked there, options numbered.
        const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
        QVERIFY(master >= 0);
        const auto closeMaster = qScopeGuard([master] { ::close(master); });
        QVERIFY(::grantpt(master) == 0 && ::unlockpt(master) == 0);
        const QString terminal = QString::fromLocal8Bit(::ptsname(master));

        const JsonArray questions = storageQuestions();
        OpenAiStream ask;
        const QByteArray args = toJson(JsonObject{{u"questions"_s, questions}}, 0);
        ask.role().toolCallStart(0, u"call_q"_s, u"question"_s, QString::fromUtf8(args.left(10)));
        ask.toolCallArguments(0, QString::fromUtf8(args.mid(10)));
        ask.finish(u"tool_calls"_s).usage(800, 30).done();
        m_server.enqueue(FakeReply::sse(ask.bytes()));
        m_server.enqueue(FakeReply::sse(text({u"SQLite with search and sync."_s})));
        m_server.enqueue(FakeReply::sse(text({u"Storage"_s})));
        const qsizetype before = m_server.requests().size();

        // Answers typed as the questions appear: a number that is no option (asked again),
        // then an option; two of the several; words of one's own.
        QStringList typed;
        const Output run = weft(
            {u"run"_s, u"set"_s, u"up"_s, u"storage"_s},
            [&typed, master](QProcess &process) {
                connect(&process, &QProcess::readyReadStandardError, &process, [&typed, &process, master] {
                    const QByteArray err = process.readAllStandardError();
                    process.setProperty("stderr", QByteArray(process.property("stderr").toByteArray() + err));
                    const QByteArray all = process.property("stderr").toByteArray();
                    auto answer = [&](const char *prompt, const QByteArray &line) {
                        if (all.contains(prompt) && !typed.contains(QString::fromLatin1(prompt))) {
                            typed.append(QString::fromLatin1(prompt));
                            QVERIFY(::write(master, line.constData(), size_t(line.size())) == line.size());
                        }
                    };
                    answer("Which database?", "9\n2\n");
                    answer("Which features?", "1, 3\n");
                    answer("Anything else?", "keep it small\n");
                });
            },
            [&terminal](QProcess &process) { process.setStandardInputFile(terminal); });
        QVERIFY2(run.code == 0, run.err.constData());
        QCOMPARE(typed.size(), 3);
        QVERIFY(m_server.requests().at(before).body.contains("\"question\""));
        const QString shown = QString::fromUtf8(run.out);
        QVERIFY2(shown.contains(u"question"_s) && shown.contains(u"SQLite with search and sync."_s), qPrintable(shown));
        const QByteArray results = m_server.requests().at(before + 1).body;
        QVERIFY2(results.contains(R"(\"Which database?\"=\"SQLite\", \"Which features?\"=\"Search, Sync\", )"
                                  R"(\"Anything else?\"=\"keep it small\")"),
                 results.constData());
    }

    /// The sessions of `weft session list`, by ID.
    QStringList sessionIDs()
    {
        QStringList ids;
        const Output list = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
        for (const JsonValue &s : parseJson(list.out).value_or(JsonValue()).toArray())
            ids.append(s.toObject().string(u"id"));
        return ids;
    }

    /// The session @p run made: the one of @p after not in @p before.
    static QString newSession(const QStringList &before, const QStringList &after)
    {
        for (const QString &id : after) {
            if (!before.contains(id))
                return id;
        }
        return {};
    }

    /// The messages of @p sessionID, as `weft export` gives them.
    JsonArray exportedMessages(const QString &sessionID)
    {
        const Output exported = weft({u"export"_s, sessionID});
        return parseJson(exported.out).value_or(JsonValue()).toObject().array(u"messages");
    }

    void streamCutInsideAnEventIsRetried()
    {
        // The finish reason came, then the body ended in the middle of an event: not an answer.
        // The run retries (the connection was cut), and fails when every attempt is cut.
        qputenv("WEFT_RETRY_INITIAL_MS", "1");
        const auto unset = qScopeGuard([] { qunsetenv("WEFT_RETRY_INITIAL_MS"); });
        FakeReply cut = FakeReply::sse(OpenAiStream()
                                           .role()
                                           .text(u"Half"_s)
                                           .finish(u"stop"_s)
                                           .append("data: {\"choices\":[{\"delta\":{\"content\":\"the rest")
                                           .bytes());
        cut.framing = FakeReply::Framing::CloseDelimited;
        m_server.clearReplies();
        m_server.enqueue(cut);
        m_server.enqueue(FakeReply::sse(text({u"Whole answer."_s})));
        const Output retried = weft({u"run"_s, u"answer"_s, u"once"_s});
        QVERIFY2(retried.code == 0, retried.err.constData());
        QVERIFY2(retried.out.contains("Whole answer."), retried.out.constData());
        QVERIFY2(retried.err.contains("middle of an event"), retried.err.constData()); // the retry's notice

        const QStringList before = sessionIDs();
        m_server.clearReplies();
        for (int i = 0; i < 6; ++i) // the first attempt and five retries
            m_server.enqueue(cut);
        const Output failed = weft({u"run"_s, u"answer"_s, u"again"_s});
        QVERIFY2(failed.code != 0, failed.err.constData());
        QVERIFY2(failed.err.contains("middle of an event"), failed.err.constData());
        QCOMPARE(m_server.pendingReplies(), 0);
        const QString id = newSession(before, sessionIDs());
        QVERIFY(!id.isEmpty());
        const JsonArray messages = exportedMessages(id);
        QVERIFY(!messages.isEmpty());
        const JsonObject error = messages.at(messages.size() - 1).toObject().object(u"info").object(u"error");
        QVERIFY2(error.object(u"data").string(u"message").contains(u"middle of an event"_s), toJson(error, 0).constData());
    }

    void endlessLineFailsTheRun()
    {
        // One "data:" line of 17 MiB that never ends, the connection kept open: the run stops
        // with an error naming the limit (it does not wait for the line's end, nor retry), and
        // exits non-zero; the assistant message records the error.
        QByteArray body = OpenAiStream().role().text(u"Starting"_s).bytes();
        body += "data: {\"choices\":[{\"delta\":{\"content\":\"";
        body.append(17 * 1024 * 1024, 'a');
        FakeReply reply = FakeReply::sse(body).chunked(256 * 1024, 0);
        reply.hang = true;
        m_server.clearReplies();
        m_server.enqueue(reply);
        const QStringList before = sessionIDs();
        const Output run = weft({u"run"_s, u"endless"_s});
        QVERIFY2(run.code != 0 && run.code != -1, run.err.constData());
        QVERIFY2(run.err.contains("16 MiB"), run.err.constData());
        const QString id = newSession(before, sessionIDs());
        QVERIFY(!id.isEmpty());
        const JsonArray messages = exportedMessages(id);
        QVERIFY(!messages.isEmpty());
        const JsonObject error = messages.at(messages.size() - 1).toObject().object(u"info").object(u"error");
        QVERIFY2(error.object(u"data").string(u"message").contains(u"16 MiB"_s), toJson(error, 0).constData());
    }

    void revertUnrevertPruneTakeTheLock()
    {
        // A session that wrote a file.
        const QString file = m_project.path() + u"/locked.txt"_s;
        OpenAiStream tool;
        tool.role().toolCallStart(0, u"call_l"_s, u"write"_s,
                                  QString::fromUtf8(toJson(JsonObject{{u"filePath"_s, file}, {u"content"_s, u"kept\n"_s}}, 0)));
        tool.finish(u"tool_calls"_s).done();
        m_server.clearReplies();
        m_server.enqueue(FakeReply::sse(tool.bytes()));
        m_server.enqueue(FakeReply::sse(text({u"Written."_s})));
        const QStringList before = sessionIDs();
        const Output run = weft({u"run"_s, u"write"_s, u"locked.txt"_s});
        QVERIFY2(run.code == 0, run.err.constData());
        m_server.clearReplies();
        QVERIFY(QFile::exists(file));
        const QString id = newSession(before, sessionIDs());
        QVERIFY(!id.isEmpty());
        const JsonArray messages = exportedMessages(id);
        const QString userID = messages.at(0).toObject().object(u"info").string(u"id");

        // Held as a running `weft run` holds it (a flock of the session's lock file).
        const QString dataDir = m_home.path() + u"/data/weft"_s;
        Result<std::unique_ptr<SessionLock>> taken = SessionLock::acquire(dataDir, id, u"weft run"_s);
        QVERIFY2(taken, qPrintable(taken ? QString() : taken.error().toString()));
        std::unique_ptr<SessionLock> lock = std::move(taken).value();
        const auto refused = [&](const QStringList &args) {
            const Output out = weft(args);
            QVERIFY2(out.code != 0, out.out.constData());
            QVERIFY2(out.err.contains("is busy") || out.err.contains("is being run by"), out.err.constData());
        };
        refused({u"session"_s, u"revert"_s, id, userID});
        QVERIFY(QFile::exists(file)); // the revert did not delete it
        QVERIFY(exportedMessages(id) == messages);
        refused({u"session"_s, u"unrevert"_s, id});
        refused({u"session"_s, u"prune"_s, id});
        QVERIFY(exportedMessages(id) == messages);

        // Released, the same revert works.
        lock.reset();
        const Output reverted = weft({u"session"_s, u"revert"_s, id, userID});
        QVERIFY2(reverted.code == 0, reverted.err.constData());
        QVERIFY(!QFile::exists(file));
        const Output unreverted = weft({u"session"_s, u"unrevert"_s, id});
        QVERIFY2(unreverted.code == 0, unreverted.err.constData());
        QVERIFY(QFile::exists(file));
    }

    void runInWorktree()
    {
        // A new session in a worktree of its own: the model's relative path lands there, not in
        // the main checkout, until the worktree is applied.
        OpenAiStream tool;
        tool.role().toolCallStart(0, u"call_t"_s, u"write"_s,
                                  QString::fromUtf8(toJson(JsonObject{{u"filePath"_s, u"feature.txt"_s},
                                                                      {u"content"_s, u"from the worktree\n"_s}},
                                                           0)));
        tool.finish(u"tool_calls"_s).done();
        m_server.clearReplies();
        m_server.enqueue(FakeReply::sse(tool.bytes()));
        m_server.enqueue(FakeReply::sse(text({u"Written."_s})));
        m_server.enqueue(FakeReply::sse(text({u"Feature"_s})));
        const QString worktree = QFileInfo(m_project.path()).dir().filePath(QFileInfo(m_project.path()).fileName()
                                                                          + u".worktrees/feature"_s);
        const auto cleanUp = qScopeGuard([&] {
            if (QFileInfo::exists(worktree))
                QProcess::execute(u"git"_s, {u"-C"_s, m_project.path(), u"worktree"_s, u"remove"_s, u"--force"_s, worktree});
            QDir(QFileInfo(worktree).path()).removeRecursively();
        });
        const QStringList before = sessionIDs();
        const Output run = weft({u"run"_s, u"--worktree"_s, u"feature"_s, u"write"_s, u"feature.txt"_s});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(run.err.contains(QByteArray("made worktree " + worktree.toUtf8() + " (branch weft/feature")),
                 run.err.constData());
        QCOMPARE(QFile::exists(worktree + u"/feature.txt"_s), true);
        QVERIFY(!QFile::exists(m_project.path() + u"/feature.txt"_s));
        const QString id = newSession(before, sessionIDs());
        QVERIFY(!id.isEmpty());
        const Output list = weft({u"session"_s, u"list"_s, u"--format"_s, u"json"_s});
        bool found = false;
        for (const JsonValue &s : parseJson(list.out)->toArray()) {
            if (s.toObject().string(u"id") == id) {
                QCOMPARE(s.toObject().string(u"directory"), worktree);
                found = true;
            }
        }
        QVERIFY(found);

        // Listed with what it holds; a second run goes to the same one.
        Output worktrees = weft({u"worktree"_s, u"list"_s, u"--format"_s, u"json"_s});
        QVERIFY2(worktrees.code == 0, worktrees.err.constData());
        JsonArray all = parseJson(worktrees.out)->toArray();
        QCOMPARE(all.size(), 2);
        QVERIFY(all.at(0).toObject().boolean(u"main"));
        QCOMPARE(all.at(1).toObject().string(u"path"), worktree);
        QCOMPARE(all.at(1).toObject().string(u"branch"), u"weft/feature"_s);
        QCOMPARE(all.at(1).toObject().integer(u"uncommitted"), 1);
        m_server.enqueue(FakeReply::sse(text({u"Still here."_s})));
        m_server.enqueue(FakeReply::sse(text({u"Again"_s})));
        const Output again = weft({u"run"_s, u"--worktree"_s, u"feature"_s, u"anything"_s, u"else?"_s});
        QVERIFY2(again.code == 0, again.err.constData());
        QVERIFY2(again.err.contains(QByteArray("in worktree " + worktree.toUtf8())), again.err.constData());
        const Output table = weft({u"worktree"_s, u"list"_s});
        QVERIFY2(table.out.contains("feature") && table.out.contains("weft/feature") && table.out.contains("1 uncommitted"),
                 table.out.constData());
        m_server.clearReplies();

        // Not removed while it holds work; applied as changes; then removed.
        const Output refused = weft({u"worktree"_s, u"remove"_s, u"feature"_s});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("uncommitted") && refused.err.contains("--force"), refused.err.constData());
        QVERIFY(QFile::exists(worktree + u"/feature.txt"_s));
        const Output applied = weft({u"worktree"_s, u"apply"_s, u"feature"_s, u"--mode"_s, u"diff"_s});
        QVERIFY2(applied.code == 0, applied.err.constData());
        QFile copied(m_project.path() + u"/feature.txt"_s);
        QVERIFY(copied.open(QIODevice::ReadOnly));
        QCOMPARE(copied.readAll(), QByteArray("from the worktree\n"));
        const Output removed = weft({u"worktree"_s, u"remove"_s, u"feature"_s, u"--force"_s});
        QVERIFY2(removed.code == 0, removed.err.constData());
        QVERIFY(!QFileInfo::exists(worktree));
        worktrees = weft({u"worktree"_s, u"list"_s, u"--format"_s, u"json"_s});
        QCOMPARE(parseJson(worktrees.out)->toArray().size(), 1);
        QVERIFY(weft({u"worktree"_s, u"remove"_s, u"feature"_s}).err.contains("no worktree \"feature\""));
    }

    void runInWorktreeRunsTheSetupScript()
    {
        // The repository's .weft/worktree-setup runs in a new worktree (as the window's New
        // Session does), not with --no-setup, and its failure says so.
        QVERIFY(QDir().mkpath(m_project.path() + u"/.weft"_s));
        QFile script(m_project.path() + u"/.weft/worktree-setup"_s);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("echo \"$WEFT_MAIN_CHECKOUT\" > setup-ran\n");
        script.close();
        const QString parent = QFileInfo(m_project.path()).dir().filePath(QFileInfo(m_project.path()).fileName()
                                                                        + u".worktrees"_s);
        const auto cleanUp = qScopeGuard([&] {
            for (const QString &name : {u"with-setup"_s, u"no-setup"_s, u"failing"_s})
                QProcess::execute(u"git"_s, {u"-C"_s, m_project.path(), u"worktree"_s, u"remove"_s, u"--force"_s,
                                             parent + u'/' + name});
            QDir(parent).removeRecursively();
            QDir(m_project.path() + u"/.weft"_s).removeRecursively();
        });
        m_server.clearReplies();
        m_server.enqueue(FakeReply::sse(text({u"Done."_s})));
        m_server.enqueue(FakeReply::sse(text({u"Title"_s})));
        const Output with = weft({u"run"_s, u"--worktree"_s, u"with-setup"_s, u"hi"_s});
        QVERIFY2(with.code == 0, with.err.constData());
        QVERIFY2(with.err.contains("running the setup script .weft/worktree-setup"), with.err.constData());
        QFile ran(parent + u"/with-setup/setup-ran"_s);
        QVERIFY(ran.open(QIODevice::ReadOnly));
        QCOMPARE(ran.readAll().trimmed(), m_project.path().toUtf8());
        m_server.enqueue(FakeReply::sse(text({u"Done."_s})));
        m_server.enqueue(FakeReply::sse(text({u"Title"_s})));
        const Output without = weft({u"run"_s, u"--worktree"_s, u"no-setup"_s, u"--no-setup"_s, u"hi"_s});
        QVERIFY2(without.code == 0, without.err.constData());
        QVERIFY(QFileInfo::exists(parent + u"/no-setup"_s));
        QVERIFY(!QFileInfo::exists(parent + u"/no-setup/setup-ran"_s));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("echo 'no such tool' >&2\nexit 7\n");
        script.close();
        const Output failing = weft({u"run"_s, u"--worktree"_s, u"failing"_s, u"hi"_s});
        QCOMPARE(failing.code, 1);
        QVERIFY2(failing.err.contains("exit code 7") && failing.err.contains("no such tool"), failing.err.constData());
        m_server.clearReplies();
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addRow("no message") << QStringList{u"run"_s};
        QTest::addRow("hostile session") << QStringList{u"run"_s, u"--session"_s, u"../../etc"_s, u"hi"_s};
        QTest::addRow("unknown model") << QStringList{u"run"_s, u"--model"_s, u"nowhere/none"_s, u"hi"_s};
        QTest::addRow("revert hostile message") << QStringList{u"session"_s, u"revert"_s, u"ses_x"_s, u"../x"_s};
        QTest::addRow("hostile worktree") << QStringList{u"run"_s, u"--worktree"_s, u"../../etc"_s, u"hi"_s};
        QTest::addRow("worktree option") << QStringList{u"run"_s, u"--worktree"_s, u"--force"_s, u"hi"_s};
        QTest::addRow("worktree and session")
            << QStringList{u"run"_s, u"--worktree"_s, u"w"_s, u"--session"_s, u"ses_dff058141ffeXJnTNzT8vnXcKz"_s, u"hi"_s};
        QTest::addRow("worktree apply mode") << QStringList{u"worktree"_s, u"apply"_s, u"w"_s, u"--mode"_s, u"squash"_s};
        QTest::addRow("worktree unknown") << QStringList{u"worktree"_s, u"prune"_s};
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        const Output run = weft(args);
        QVERIFY(run.code != 0);
        QVERIFY(run.out.isEmpty());
        QVERIFY(run.err.startsWith("weft: error: "));
    }
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_cli_run.moc"
