// SPDX-License-Identifier: GPL-3.0-or-later
#include "fakellmserver.h"

#include "processor/processor.h"
#include "processor/revert.h"
#include "processor/setup.h"
#include "provider/config.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{

QByteArray textReply(const QStringList &pieces, qint64 prompt = 1000, qint64 completion = 50, qint64 cached = 0)
{
    OpenAiStream s;
    s.role();
    for (const QString &p : pieces)
        s.text(p);
    s.finish(u"stop"_s).usage(prompt, completion, cached).done();
    return s.bytes();
}

QByteArray toolReply(const QString &callID, const QString &tool, const JsonObject &input, qint64 prompt = 1200)
{
    OpenAiStream s;
    s.role().text(u"Let me do that."_s);
    const QString args = QString::fromUtf8(toJson(input, 0));
    s.toolCallStart(0, callID, tool, args.left(5));
    s.toolCallArguments(0, args.mid(5));
    s.finish(u"tool_calls"_s).usage(prompt, 30).done();
    return s.bytes();
}

void git(const QString &dir, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(u"git"_s, args);
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 0);
}

} // namespace

class TestProcessor : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_data;
    std::unique_ptr<QTemporaryDir> m_project;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<FakeLlmServer> m_server;
    ProcessorConfig m_config;

    std::unique_ptr<Processor> makeProcessor()
    {
        return std::make_unique<Processor>(m_service, m_config);
    }

    /// Runs a prompt to the end; returns the session ID.
    QString runPrompt(Processor &processor, const QString &text, const QString &sessionID = {}, bool expectOk = true)
    {
        QSignalSpy finished(&processor, &Processor::finished);
        PromptRequest request;
        request.sessionID = sessionID;
        request.directory = m_project->path();
        request.text = text;
        Result<QString> started = processor.prompt(request);
        if (!started) {
            qWarning() << started.error().toString();
            return {};
        }
        if (!finished.wait(30000) && finished.isEmpty())
            return {};
        if (finished.first().at(1).toBool() != expectOk)
            qWarning() << "unexpected result" << finished.first().at(1) << finished.first().at(2).value<MessageError>().message();
        return started.value();
    }

private Q_SLOTS:
    void init()
    {
        m_data = std::make_unique<QTemporaryDir>();
        m_project = std::make_unique<QTemporaryDir>();
        auto store = std::make_shared<JsonStore>(m_data->path());
        QVERIFY(store->initialize().ok());
        m_service = std::make_shared<SessionService>(store);
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_config = ProcessorConfig();
        m_config.dataDir = m_data->path();
        m_config.generateTitles = false;
        m_config.retryInitialMs = 5;
        m_config.retryMaxMs = 50;
        m_config.maxRetries = 3;
        const QUrl base = m_server->baseUrl();
        m_config.resolveModel = [base](const QString &ref) -> Result<ResolvedModel> {
            if (!ref.isEmpty() && ref != u"fake/gpt-test" && ref != u"fake/small")
                return Error{u"unknown model "_s + ref, {}};
            ResolvedModel m;
            m.providerID = u"fake"_s;
            m.modelID = ref == u"fake/small" ? u"small"_s : u"gpt-test"_s;
            m.settings.providerID = u"fake"_s;
            m.settings.protocol = ProviderProtocol::OpenAiCompatible;
            m.settings.baseURL = base;
            m.settings.apiKey = u"sk-test-key-123456"_s;
            m.contextLimit = 200000;
            m.outputLimit = 8000;
            m.cost.base = {3.0, 15.0, 0.3, 3.75};
            return m;
        };
    }

    void cleanup()
    {
        m_service.reset();
        m_server.reset();
    }

    void textReplyIsRecorded()
    {
        m_server->enqueue(FakeReply::sse(textReply({u"Hello"_s, u", "_s, u"world!  \n"_s})).chunked(7, 2));
        auto processor = makeProcessor();
        QList<QString> deltas;
        connect(m_service.get(), &SessionService::partUpdated, this, [&](const Part &p, const QString &delta) {
            QVERIFY(QThread::currentThread() == thread());
            if (p.type() == PartType::Text && !delta.isEmpty())
                deltas.append(delta);
        });
        const QString id = runPrompt(*processor, u"Say hello"_s);
        QVERIFY(!id.isEmpty());
        const QList<MessageWithParts> messages = m_service->messages(id);
        QCOMPARE(messages.size(), 2);
        QVERIFY(messages.at(0).info.isUser());
        QCOMPARE(messages.at(0).parts.first().text(), u"Say hello"_s);
        const MessageWithParts &a = messages.at(1);
        QVERIFY(a.info.isAssistant());
        QCOMPARE(a.info.parentID(), messages.at(0).info.id());
        QCOMPARE(a.info.finish(), u"stop"_s);
        QVERIFY(a.info.isCompleted());
        QStringList types;
        for (const Part &p : a.parts)
            types.append(p.typeName());
        QCOMPARE(types, (QStringList{u"step-start"_s, u"text"_s, u"step-finish"_s}));
        QCOMPARE(a.parts.at(1).text(), u"Hello, world!"_s); // trailing space trimmed at text-end
        QVERIFY(a.parts.at(1).timeField(u"end") > 0);
        // The deltas reached this (GUI) thread in order and add up to the streamed text.
        QCOMPARE(deltas.join(QString()).trimmed(), u"Hello, world!"_s);
        // Tokens and cost: 1000 input at $3/M + 50 output at $15/M = 0.003 + 0.00075.
        QCOMPARE(a.info.tokens().input, 1000);
        QCOMPARE(a.info.tokens().output, 50);
        QCOMPARE(a.info.cost(), 0.00375);
        QCOMPARE(a.parts.at(2).cost(), 0.00375);
        QCOMPARE(a.parts.at(2).reason(), u"stop"_s);
        // The request carried the system prompt, the user text and the tools.
        const FakeRequest &req = m_server->requests().first();
        QCOMPARE(req.json.string(u"model"), u"gpt-test"_s);
        const JsonArray sent = req.json.array(u"messages");
        QCOMPARE(sent.at(0).toObject().string(u"role"), u"system"_s);
        QCOMPARE(sent.at(1).toObject().string(u"role"), u"user"_s);
        QVERIFY(req.json.array(u"tools").size() >= 7);
        QCOMPARE(req.header("authorization"), QByteArray("Bearer sk-test-key-123456"));
    }

    void cachedTokensAndCost()
    {
        // OpenAI reports cached tokens inside prompt_tokens: input = 300000 - 100000, cache.read
        // = 100000, over the 200K tier when the model has one.
        m_config.resolveModel = [base = m_server->baseUrl(), inner = m_config.resolveModel](const QString &ref) {
            Result<ResolvedModel> m = inner(ref);
            ResolvedModel model = m.value();
            model.cost.over200K = CostRates{6.0, 22.5, 0.6, 7.5};
            return Result<ResolvedModel>(model);
        };
        m_server->enqueue(FakeReply::sse(textReply({u"ok"_s}, 300000, 1000, 100000)));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"big"_s);
        const Message a = m_service->messages(id).at(1).info;
        QCOMPARE(a.tokens().input, 200000);
        QCOMPARE(a.tokens().cacheRead, 100000);
        // 200000*6 + 1000*22.5 + 100000*0.6 per million = 1.2 + 0.0225 + 0.06 = 1.2825
        QCOMPARE(qRound64(a.cost() * 10000), 12825);
    }

    void toolLoopWritesFilesAndDiffs()
    {
        git(m_project->path(), {u"init"_s, u"-q"_s});
        git(m_project->path(), {u"-c"_s, u"user.email=t@e"_s, u"-c"_s, u"user.name=t"_s, u"commit"_s, u"-q"_s, u"--allow-empty"_s, u"-m"_s, u"root"_s});
        const QString file = m_project->path() + u"/notes.txt"_s;
        m_server->enqueue(FakeReply::sse(toolReply(u"call_1"_s, u"write"_s, JsonObject{{u"filePath"_s, file}, {u"content"_s, u"one\ntwo\n"_s}})).chunked(11, 1));
        m_server->enqueue(FakeReply::sse(textReply({u"Wrote notes.txt."_s})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"Write notes"_s);
        QVERIFY(!id.isEmpty());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("one\ntwo\n"));

        const QList<MessageWithParts> messages = m_service->messages(id);
        QCOMPARE(messages.size(), 3); // user, assistant (tool-calls), assistant (stop)
        QCOMPARE(messages.at(1).info.finish(), u"tool-calls"_s);
        QCOMPARE(messages.at(2).info.finish(), u"stop"_s);
        Part tool;
        bool patch = false;
        for (const Part &p : messages.at(1).parts) {
            if (p.type() == PartType::Tool)
                tool = p;
            if (p.type() == PartType::Patch) {
                patch = true;
                QVERIFY(p.files().join(u',').contains(u"notes.txt"_s));
            }
        }
        QCOMPARE(tool.state().status(), ToolStatus::Completed);
        QCOMPARE(tool.callID(), u"call_1"_s);
        QVERIFY(patch);
        // The second request carried the tool call and its result.
        const JsonArray sent = m_server->requests().at(1).json.array(u"messages");
        bool sawResult = false;
        for (const JsonValue &m : sent)
            sawResult = sawResult || m.toObject().string(u"role") == u"tool";
        QVERIFY(sawResult);
        // session_diff and the summaries.
        const QList<FileDiff> diffs = m_service->diff(id);
        QCOMPARE(diffs.size(), 1);
        QVERIFY(diffs.first().file().endsWith(u"notes.txt"_s));
        QCOMPARE(diffs.first().after(), u"one\ntwo\n"_s);
        QCOMPARE(diffs.first().additions(), 2);
        const Session s = *m_service->get(id);
        QCOMPARE(s.additions(), 2);
        QCOMPARE(s.filesChanged(), 1);
        QCOMPARE(m_service->messages(id).at(0).info.summaryDiffs().size(), 1);

        // Revert the turn: the file goes, the messages are hidden; unrevert brings it back.
        Result<Session> reverted = Revert::revert(*m_service, m_data->path(), id, messages.at(1).info.id());
        QVERIFY2(reverted.ok(), qPrintable(reverted ? QString() : reverted.error().toString()));
        QVERIFY(!QFile::exists(file));
        QCOMPARE(reverted->revert().string(u"messageID"), messages.at(0).info.id());
        QCOMPARE(Revert::visibleMessages(*reverted, m_service->messages(id)).size(), 0);
        QVERIFY(Revert::unrevert(*m_service, m_data->path(), id).ok());
        QVERIFY(QFile::exists(file));
        QVERIFY(!m_service->get(id)->hasRevert());

        // Revert again, then a new prompt commits it: the hidden messages are deleted.
        QVERIFY(Revert::revert(*m_service, m_data->path(), id, messages.at(1).info.id()).ok());
        m_server->enqueue(FakeReply::sse(textReply({u"Fresh start."_s})));
        QCOMPARE(runPrompt(*processor, u"Start over"_s, id), id);
        const QList<MessageWithParts> after = m_service->messages(id);
        QCOMPARE(after.size(), 2);
        QCOMPARE(after.at(0).parts.first().text(), u"Start over"_s);
        QVERIFY(!m_service->get(id)->hasRevert());
    }

    void editsFileReadInEarlierTurn()
    {
        const QString file = m_project->path() + u"/code.txt"_s;
        auto put = [&](const QByteArray &bytes) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bytes);
            f.close();
        };
        auto content = [&] {
            QFile f(file);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        auto toolPart = [&](const QString &id, const QString &callID) {
            for (const MessageWithParts &m : m_service->messages(id)) {
                for (const Part &p : m.parts) {
                    if (p.type() == PartType::Tool && p.callID() == callID)
                        return p;
                }
            }
            return Part();
        };
        put("alpha\n    beta\ngamma\n");
        QFile stamp(file);
        QVERIFY(stamp.open(QIODevice::ReadWrite));
        QVERIFY(stamp.setFileTime(QDateTime::currentDateTime().addSecs(-60), QFileDevice::FileModificationTime));
        stamp.close();

        // Turn 1 reads the file.
        m_server->enqueue(FakeReply::sse(toolReply(u"call_r"_s, u"read"_s, JsonObject{{u"filePath"_s, file}})));
        m_server->enqueue(FakeReply::sse(textReply({u"Read it."_s})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"read code.txt"_s);
        QVERIFY(!id.isEmpty());

        // Turn 2 edits it, quoting the lines without their indentation.
        m_server->enqueue(FakeReply::sse(toolReply(u"call_e1"_s, u"edit"_s,
                                                   JsonObject{{u"filePath"_s, file}, {u"oldString"_s, u"alpha\nbeta\ngamma"_s},
                                                              {u"newString"_s, u"alpha\n    BETA\ngamma"_s}})));
        m_server->enqueue(FakeReply::sse(textReply({u"Edited."_s})));
        QCOMPARE(runPrompt(*processor, u"uppercase beta"_s, id), id);
        const Part edit1 = toolPart(id, u"call_e1"_s);
        QCOMPARE(edit1.state().status(), ToolStatus::Completed);
        QCOMPARE(content(), QByteArray("alpha\n    BETA\ngamma\n"));

        // Turn 3 from another processor (another `weft run --continue`): the reads in the
        // session's history count.
        auto second = makeProcessor();
        m_server->enqueue(FakeReply::sse(toolReply(u"call_e2"_s, u"multiedit"_s,
                                                   JsonObject{{u"filePath"_s, file},
                                                              {u"edits"_s, JsonArray{JsonObject{{u"oldString"_s, u"alpha"_s}, {u"newString"_s, u"ALPHA"_s}},
                                                                                    JsonObject{{u"oldString"_s, u"gamma"_s}, {u"newString"_s, u"GAMMA"_s}}}}})));
        m_server->enqueue(FakeReply::sse(textReply({u"Edited again."_s})));
        QCOMPARE(runPrompt(*second, u"uppercase the rest"_s, id), id);
        const Part edit2 = toolPart(id, u"call_e2"_s);
        QVERIFY2(edit2.state().status() == ToolStatus::Completed, qPrintable(edit2.state().json().string(u"error")));
        QCOMPARE(content(), QByteArray("ALPHA\n    BETA\nGAMMA\n"));

        // Someone changes the file on disk: the next edit is refused until it is read again.
        put("ALPHA\n    BETA\nGAMMA\nDELTA\n");
        QVERIFY(stamp.open(QIODevice::ReadWrite));
        QVERIFY(stamp.setFileTime(QDateTime::currentDateTime().addSecs(5), QFileDevice::FileModificationTime));
        stamp.close();
        m_server->enqueue(FakeReply::sse(toolReply(u"call_e3"_s, u"edit"_s,
                                                   JsonObject{{u"filePath"_s, file}, {u"oldString"_s, u"DELTA"_s}, {u"newString"_s, u"delta"_s}})));
        m_server->enqueue(FakeReply::sse(textReply({u"It changed."_s})));
        QCOMPARE(runPrompt(*second, u"lowercase delta"_s, id), id);
        const Part edit3 = toolPart(id, u"call_e3"_s);
        QCOMPARE(edit3.state().status(), ToolStatus::Error);
        const QString error = edit3.state().json().string(u"error");
        QVERIFY2(error.contains(u"has been modified since it was last read"_s), qPrintable(error));
        QVERIFY(error.contains(u"Please read the file again before modifying it."_s));
        QCOMPARE(content(), QByteArray("ALPHA\n    BETA\nGAMMA\nDELTA\n"));
    }

    void todoAndWebfetchThroughTheLoop()
    {
        // The model plans with todowrite, fetches a page (from the same loopback server), reads
        // its todos back, and answers.
        const JsonArray todos{JsonObject{{u"content"_s, u"Fetch the page"_s}, {u"status"_s, u"in_progress"_s},
                                         {u"priority"_s, u"high"_s}, {u"id"_s, u"1"_s}},
                              JsonObject{{u"content"_s, u"Summarise"_s}, {u"status"_s, u"pending"_s},
                                         {u"priority"_s, u"medium"_s}, {u"id"_s, u"2"_s}}};
        m_server->enqueue(FakeReply::sse(toolReply(u"call_t"_s, u"todowrite"_s, JsonObject{{u"todos"_s, todos}})));
        const QString page = m_server->baseUrl(u"/page.html"_s).toString();
        m_server->enqueue(FakeReply::sse(toolReply(u"call_w"_s, u"webfetch"_s, JsonObject{{u"url"_s, page}})));
        FakeReply html;
        html.body = "<html><body><h1>Release notes</h1><ul><li>Faster</li></ul></body></html>";
        html.framing = FakeReply::Framing::ContentLength;
        html.withHeader("Content-Type", "text/html");
        m_server->enqueue(html);
        m_server->enqueue(FakeReply::sse(toolReply(u"call_r"_s, u"todoread"_s, JsonObject{})));
        m_server->enqueue(FakeReply::sse(textReply({u"It is faster."_s})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"What changed?"_s);
        QVERIFY(!id.isEmpty());

        QStringList offered;
        for (const JsonValue &t : m_server->requests().at(0).json.array(u"tools"))
            offered.append(t.toObject().object(u"function").string(u"name"));
        QVERIFY2(offered.contains(u"todowrite"_s) && offered.contains(u"todoread"_s) && offered.contains(u"webfetch"_s),
                 qPrintable(offered.join(u',')));
        QCOMPARE(m_server->requests().at(2).path, QByteArray("/page.html"));

        QHash<QString, Part> tools;
        for (const MessageWithParts &m : m_service->messages(id)) {
            for (const Part &p : m.parts) {
                if (p.type() == PartType::Tool)
                    tools.insert(p.tool(), p);
            }
        }
        QCOMPARE(tools.value(u"todowrite"_s).state().status(), ToolStatus::Completed);
        QCOMPARE(tools.value(u"todowrite"_s).state().title(), u"2 todos"_s);
        QCOMPARE(tools.value(u"webfetch"_s).state().status(), ToolStatus::Completed);
        QCOMPARE(tools.value(u"webfetch"_s).state().output(), u"# Release notes\n\n- Faster"_s);
        QCOMPARE(tools.value(u"todoread"_s).state().output(), tools.value(u"todowrite"_s).state().output());
        const QList<Todo> stored = m_service->todos(id);
        QCOMPARE(stored.size(), 2);
        QCOMPARE(stored.at(0).status(), u"in_progress"_s);
        QVERIFY(QFile::exists(m_data->path() + u"/storage/todo/"_s + id + u".json"_s));
    }

    void retriesHonourRetryAfter()
    {
        m_server->enqueue(FakeReply::json(429, "{\"error\":{\"message\":\"Rate limited\"}}").withHeader("retry-after-ms", "20"));
        m_server->enqueue(FakeReply::json(503, "{\"error\":{\"message\":\"Overloaded\"}}"));
        FakeReply dropped = FakeReply::sse(textReply({u"partial "_s, u"text that never ends"_s}));
        dropped.dropAfter = 60;
        m_server->enqueue(dropped);
        m_server->enqueue(FakeReply::sse(textReply({u"Finally."_s})));
        auto processor = makeProcessor();
        QSignalSpy retrying(processor.get(), &Processor::retrying);
        const QString id = runPrompt(*processor, u"try"_s);
        QCOMPARE(retrying.size(), 3);
        QCOMPARE(retrying.at(0).at(2).toLongLong(), 20); // retry-after-ms honoured
        const MessageWithParts a = m_service->messages(id).at(1);
        QList<int> attempts;
        for (const Part &p : a.parts) {
            if (p.type() == PartType::Retry) {
                attempts.append(p.attempt());
                QCOMPARE(p.retryError().name(), u"APIError"_s);
            }
        }
        QCOMPARE(attempts, (QList<int>{1, 2, 3}));
        QCOMPARE(a.info.finish(), u"stop"_s);
        QVERIFY(!a.info.hasError());
        QCOMPARE(m_server->requests().size(), 4);
    }

    void givesUpAfterMaxRetries()
    {
        for (int i = 0; i < 4; ++i)
            m_server->enqueue(FakeReply::json(500, "{\"error\":{\"message\":\"boom\"}}"));
        auto processor = makeProcessor();
        QSignalSpy errors(m_service.get(), &SessionService::sessionError);
        const QString id = runPrompt(*processor, u"fail"_s, {}, false);
        QCOMPARE(m_server->requests().size(), 4); // first try + 3 retries
        const Message a = m_service->messages(id).at(1).info;
        QVERIFY(a.hasError());
        QCOMPARE(a.error().name(), u"APIError"_s);
        QCOMPARE(a.error().statusCode(), 500);
        QVERIFY(a.isCompleted());
        QCOMPARE(errors.size(), 1);
    }

    void authErrorIsNotRetried()
    {
        m_server->enqueue(FakeReply::json(401, "{\"error\":{\"message\":\"bad key\"}}"));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"auth"_s, {}, false);
        QCOMPARE(m_server->requests().size(), 1);
        QCOMPARE(m_service->messages(id).at(1).info.error().name(), u"ProviderAuthError"_s);
    }

    void steerIsAnsweredAtTheNextStep()
    {
        // A message steered into a run that would have ended after its first step: written after
        // that step, and answered by one more.
        m_server->enqueue(FakeReply::sse(textReply({u"First answer."_s})));
        m_server->enqueue(FakeReply::sse(textReply({u"Tests added too."_s})));
        auto processor = makeProcessor();
        QVERIFY(!processor->steer(u"ses_dff058141ffeXJnTNzT8vnXcKz"_s, u"nothing runs"_s));
        QSignalSpy finished(processor.get(), &Processor::finished);
        QSignalSpy late(processor.get(), &Processor::steersNotDelivered);
        PromptRequest request;
        request.directory = m_project->path();
        request.text = u"Fix the parser"_s;
        const Result<QString> id = processor->prompt(request);
        QVERIFY(id.ok());
        QVERIFY(!processor->steer(id.value(), u"   "_s)); // nothing to say
        bool steered = false;
        // The loopback server answers on this thread: the first request is seen here while the
        // run waits for its answer.
        connect(m_server.get(), &FakeLlmServer::requestReceived, this, [&] {
            if (m_server->requests().size() == 1)
                steered = processor->steer(id.value(), u"And add a test for it."_s);
        });
        QVERIFY(finished.wait(30000));
        QVERIFY(steered);
        QCOMPARE(finished.first().at(1).toBool(), true);
        QVERIFY(late.isEmpty());
        QCOMPARE(m_server->requests().size(), 2);
        const QList<MessageWithParts> messages = m_service->messages(id.value());
        QCOMPARE(messages.size(), 4);
        QCOMPARE(messages.at(1).parts.at(1).text(), u"First answer."_s);
        QVERIFY(messages.at(2).info.isUser());
        QCOMPARE(messages.at(2).parts.first().text(), u"And add a test for it."_s);
        QCOMPARE(messages.at(3).info.parentID(), messages.at(2).info.id());
        QCOMPARE(messages.at(3).parts.at(1).text(), u"Tests added too."_s);
        // The second step saw the first answer, then the steered message.
        const JsonArray sent = m_server->requests().at(1).json.array(u"messages");
        const JsonValue lastSent = sent.at(sent.size() - 1);
        QCOMPARE(lastSent.toObject().string(u"role"), u"user"_s);
        QVERIFY(toJson(lastSent, 0).contains("And add a test for it."));
        QCOMPARE(sent.at(sent.size() - 2).toObject().string(u"role"), u"assistant"_s);
        QVERIFY(!processor->steer(id.value(), u"too late"_s)); // idle again
    }

    void steerTooLateComesBack()
    {
        // The step fails and the loop ends: the steered message is handed back, not written.
        m_server->enqueue(FakeReply::json(401, "{\"error\":{\"message\":\"bad key\"}}"));
        auto processor = makeProcessor();
        QSignalSpy finished(processor.get(), &Processor::finished);
        QSignalSpy late(processor.get(), &Processor::steersNotDelivered);
        PromptRequest request;
        request.directory = m_project->path();
        request.text = u"auth"_s;
        const Result<QString> id = processor->prompt(request);
        QVERIFY(id.ok());
        connect(m_server.get(), &FakeLlmServer::requestReceived, this,
                [&] { QVERIFY(processor->steer(id.value(), u"Fix it."_s)); });
        QVERIFY(finished.wait(30000));
        QCOMPARE(late.size(), 1);
        QCOMPARE(late.first().at(0).toString(), id.value());
        QCOMPARE(late.first().at(1).toStringList(), QStringList{u"Fix it."_s});
        QCOMPARE(m_service->messages(id.value()).size(), 2);
    }

    void abortMidStream()
    {
        FakeReply hanging = FakeReply::sse(OpenAiStream().role().text(u"Thinking about it"_s).bytes());
        hanging.hang = true;
        m_server->enqueue(hanging);
        auto processor = makeProcessor();
        QSignalSpy finished(processor.get(), &Processor::finished);
        PromptRequest request;
        request.directory = m_project->path();
        request.text = u"long"_s;
        const Result<QString> id = processor->prompt(request);
        QVERIFY(id.ok());
        // Wait until the text started streaming, then stop.
        QTRY_VERIFY_WITH_TIMEOUT(m_service->messages(id.value()).size() == 2
                                     && m_service->messages(id.value()).at(1).parts.size() >= 2,
                                 10000);
        QVERIFY(processor->isBusy(id.value()));
        processor->abort(id.value());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QVERIFY(!processor->isBusy(id.value()));
        const MessageWithParts a = m_service->messages(id.value()).at(1);
        QCOMPARE(a.info.error().name(), u"MessageAbortedError"_s);
        QVERIFY(a.info.isCompleted());
        for (const Part &p : a.parts) {
            if (p.type() == PartType::Text) {
                QCOMPARE(p.text(), u"Thinking about it"_s);
                QVERIFY(p.timeField(u"end") > 0);
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(m_server->clientAborts() >= 1, 5000);
    }

    void abortDuringRetryWait()
    {
        // The retry's delay is a timer of the run's state machine: Stop ends it at once.
        m_server->enqueue(FakeReply::json(503, "{\"error\":{\"message\":\"Overloaded\"}}")
                              .withHeader("retry-after-ms", "600000"));
        auto processor = makeProcessor();
        QSignalSpy retrying(processor.get(), &Processor::retrying);
        QSignalSpy finished(processor.get(), &Processor::finished);
        PromptRequest request;
        request.directory = m_project->path();
        request.text = u"wait"_s;
        const Result<QString> id = processor->prompt(request);
        QVERIFY(id.ok());
        QVERIFY(retrying.wait(10000));
        QCOMPARE(retrying.first().at(2).toLongLong(), 600000);
        processor->abort(id.value());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QCOMPARE(m_server->requests().size(), 1);
        const Message a = m_service->messages(id.value()).at(1).info;
        QCOMPARE(a.error().name(), u"MessageAbortedError"_s);
        QVERIFY(a.isCompleted());
    }

    void destroyedWhileStreaming()
    {
        // The processor goes while a reply is in flight: the run is stopped, ends on its thread,
        // and its provider and network manager go in order (ASan builds check the order).
        FakeReply hanging = FakeReply::sse(OpenAiStream().role().text(u"Half"_s).bytes());
        hanging.hang = true;
        m_server->enqueue(hanging);
        auto processor = makeProcessor();
        PromptRequest request;
        request.directory = m_project->path();
        request.text = u"long"_s;
        const Result<QString> id = processor->prompt(request);
        QVERIFY(id.ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_service->messages(id.value()).size() == 2
                                     && m_service->messages(id.value()).at(1).parts.size() >= 2,
                                 10000);
        processor.reset();
        const Message a = m_service->messages(id.value()).at(1).info;
        QCOMPARE(a.error().name(), u"MessageAbortedError"_s);
        QVERIFY(a.isCompleted());
    }

    void instructionUrlsAreFetchedBeforeTheFirstStep()
    {
        FakeLlmServer rules;
        QVERIFY(rules.listen());
        FakeReply page;
        page.body = "Always answer in haiku.";
        page.framing = FakeReply::Framing::ContentLength;
        page.withHeader("Content-Type", "text/markdown");
        rules.enqueue(page);
        m_config.instructionUrls = {rules.baseUrl(u"/rules.md"_s).toString()};
        m_server->enqueue(FakeReply::sse(textReply({u"Leaves fall."_s})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"hello"_s);
        QVERIFY(!id.isEmpty());
        QCOMPARE(rules.requests().size(), 1);
        QCOMPARE(m_server->requests().size(), 1);
        QVERIFY(QString::fromUtf8(m_server->requests().first().body).contains(u"Always answer in haiku."_s));
    }

    void abortReachesSubagent()
    {
        // The parent calls the task tool; the sub-agent's model starts to answer and stalls.
        m_server->enqueue(FakeReply::sse(toolReply(u"call_task"_s, u"task"_s,
                                                   JsonObject{{u"description"_s, u"Look around"_s},
                                                              {u"prompt"_s, u"look around"_s},
                                                              {u"subagent_type"_s, u"general"_s}})));
        FakeReply stalled = FakeReply::sse(OpenAiStream().role().text(u"Looking"_s).bytes());
        stalled.hang = true;
        m_server->enqueue(stalled);
        auto processor = makeProcessor();
        QSignalSpy finished(processor.get(), &Processor::finished);
        PromptRequest request;
        request.directory = m_project->path();
        request.text = u"delegate"_s;
        const Result<QString> id = processor->prompt(request);
        QVERIFY(id.ok());
        // The child session exists and streams.
        auto child = [&]() -> QString {
            for (const Session &s : m_service->children(id.value()))
                return s.id();
            return {};
        };
        QTRY_VERIFY_WITH_TIMEOUT(!child().isEmpty() && m_service->messages(child()).size() == 2
                                     && m_service->messages(child()).at(1).parts.size() >= 2,
                                 10000);
        QElapsedTimer timer;
        timer.start();
        processor->abort(id.value());
        QVERIFY(finished.wait(10000));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        // Both the sub-agent's answer and the parent's are closed as aborted.
        const MessageWithParts sub = m_service->messages(child()).at(1);
        QCOMPARE(sub.info.error().name(), u"MessageAbortedError"_s);
        QVERIFY(sub.info.isCompleted());
        const MessageWithParts parent = m_service->messages(id.value()).at(1);
        QVERIFY(parent.info.isCompleted());
        for (const Part &p : parent.parts) {
            if (p.type() == PartType::Tool)
                QCOMPARE(p.state().status(), ToolStatus::Error);
        }
        QVERIFY(!processor->isBusy(id.value()));
    }

    void abortRunningTool()
    {
        m_server->enqueue(FakeReply::sse(toolReply(u"call_sleep"_s, u"bash"_s, JsonObject{{u"command"_s, u"sleep 30"_s}, {u"description"_s, u"Wait"_s}})));
        auto processor = makeProcessor();
        QSignalSpy finished(processor.get(), &Processor::finished);
        PromptRequest request;
        request.directory = m_project->path();
        request.text = u"sleep"_s;
        const Result<QString> id = processor->prompt(request);
        QVERIFY(id.ok());
        auto toolRunning = [&] {
            const QList<MessageWithParts> ms = m_service->messages(id.value());
            for (const MessageWithParts &m : ms) {
                for (const Part &p : m.parts) {
                    if (p.type() == PartType::Tool && p.state().status() == ToolStatus::Running)
                        return true;
                }
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(toolRunning(), 10000);
        QElapsedTimer timer;
        timer.start();
        processor->abort(id.value());
        QVERIFY(finished.wait(10000));
        QVERIFY(timer.elapsed() < 5000);
        const MessageWithParts a = m_service->messages(id.value()).at(1);
        QCOMPARE(a.info.error().name(), u"MessageAbortedError"_s);
        for (const Part &p : a.parts) {
            if (p.type() == PartType::Tool)
                QCOMPARE(p.state().status(), ToolStatus::Error);
        }
    }

    void snapshotPolicy_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<bool>("git");
        QTest::addColumn<bool>("snapshot");
        // No `snapshot` key: only a git repository is snapshot (never a home folder).
        QTest::addRow("default, no git") << QByteArray("{}") << false << false;
        QTest::addRow("default, git") << QByteArray("{}") << true << true;
        QTest::addRow("snapshot: false") << QByteArray(R"({"snapshot": false})") << true << false;
        QTest::addRow("snapshot: true, no git") << QByteArray(R"({"snapshot": true})") << false << true;
    }

    void snapshotPolicy()
    {
        QFETCH(QByteArray, config);
        QFETCH(bool, git);
        QFETCH(bool, snapshot);
        // What the config says, as the window and `weft run` read it.
        const Result<Config> parsed = Config::parse(config, u"weft.json"_s);
        QVERIFY(parsed);
        const Result<ProcessorSetup> setup = makeProcessorSetup(parsed.value(), m_data->path());
        QVERIFY(setup);
        m_config.snapshots = setup->config.snapshots;
        if (git) {
            QProcess g;
            g.setWorkingDirectory(m_project->path());
            g.start(u"sh"_s, {u"-c"_s, u"git init -q && git -c user.email=t@e -c user.name=t commit -q --allow-empty -m root"_s});
            QVERIFY(g.waitForFinished(20000));
            QCOMPARE(g.exitCode(), 0);
        }
        const QString file = m_project->path() + u"/s.txt"_s;
        m_server->enqueue(FakeReply::sse(toolReply(u"call_s"_s, u"write"_s, JsonObject{{u"filePath"_s, file}, {u"content"_s, u"x\n"_s}})));
        m_server->enqueue(FakeReply::sse(textReply({u"Written."_s})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"write s.txt"_s);
        QVERIFY(QFile::exists(file));
        // A snapshot shows as the steps' `snapshot` and a shadow repository in the data dir.
        bool stepSnapshot = false;
        for (const MessageWithParts &m : m_service->messages(id)) {
            for (const Part &p : m.parts)
                stepSnapshot |= p.type() == PartType::StepStart && !p.json().string(u"snapshot"_s).isEmpty();
        }
        QCOMPARE(stepSnapshot, snapshot);
        QCOMPARE(QDir(m_data->path() + u"/snapshot"_s).exists(), snapshot);
    }

    void doomLoopStops_data()
    {
        QTest::addColumn<int>("policy");
        QTest::addRow("headless") << int(ProcessorConfig::AskPolicy::Deny);
        // --auto-approve approves what tools ask, not a model that repeats itself.
        QTest::addRow("auto-approve") << int(ProcessorConfig::AskPolicy::Allow);
    }

    void doomLoopStops()
    {
        QFETCH(int, policy);
        m_config.askPolicy = ProcessorConfig::AskPolicy(policy);
        const QString file = m_project->path() + u"/a.txt"_s;
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x\n");
        f.close();
        for (int i = 0; i < 4; ++i)
            m_server->enqueue(FakeReply::sse(toolReply(u"call_%1"_s.arg(i), u"read"_s, JsonObject{{u"filePath"_s, file}})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"loop"_s, {}, false);
        QCOMPARE(m_server->requests().size(), 3);
        const QList<MessageWithParts> messages = m_service->messages(id);
        const MessageWithParts last = messages.last();
        QVERIFY(last.info.hasError());
        QVERIFY(last.info.error().message().contains(u"Doom loop"_s));
    }

    void permissionDeniedHeadless()
    {
        m_config.permission = {PermissionRule{u"bash"_s, u"*"_s, PermissionRule::Action::Ask}};
        m_server->enqueue(FakeReply::sse(toolReply(u"call_b"_s, u"bash"_s, JsonObject{{u"command"_s, u"echo hi"_s}, {u"description"_s, u"Say hi"_s}})));
        m_server->enqueue(FakeReply::sse(textReply({u"I was not allowed."_s})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"run echo"_s);
        Part tool;
        const QList<MessageWithParts> denied = m_service->messages(id);
        for (const Part &p : denied.at(1).parts) {
            if (p.type() == PartType::Tool)
                tool = p;
        }
        QCOMPARE(tool.state().status(), ToolStatus::Error);
        // The model saw the refusal as the tool's result.
        const JsonArray sent = m_server->requests().at(1).json.array(u"messages");
        QVERIFY(QString::fromUtf8(toJson(sent, 0)).contains(u"permission"_s, Qt::CaseInsensitive));

        // Interactive: the question reaches the receiver, "once" lets the tool run.
        m_config.askPolicy = ProcessorConfig::AskPolicy::Interactive;
        auto interactive = makeProcessor();
        connect(interactive.get(), &Processor::permissionRequested, this, [&](const PermissionRequest &request) {
            QCOMPARE(request.permission, u"bash"_s);
            QCOMPARE(request.patterns, QStringList{u"echo hi"_s});
            interactive->answerPermission(request.id, PermissionReply::Once);
        });
        m_server->enqueue(FakeReply::sse(toolReply(u"call_c"_s, u"bash"_s, JsonObject{{u"command"_s, u"echo hi"_s}, {u"description"_s, u"Say hi"_s}})));
        m_server->enqueue(FakeReply::sse(textReply({u"Done."_s})));
        const QString id2 = runPrompt(*interactive, u"run echo again"_s);
        const QList<MessageWithParts> allowed = m_service->messages(id2);
        for (const Part &p : allowed.at(1).parts) {
            if (p.type() == PartType::Tool) {
                QCOMPARE(p.state().status(), ToolStatus::Completed);
                QVERIFY(p.state().output().contains(u"hi"_s));
            }
        }
    }

    void titleGeneration()
    {
        m_config.generateTitles = true;
        m_config.smallModel = u"fake/small"_s;
        m_server->enqueue(FakeReply::sse(textReply({u"Answer."_s})));
        m_server->enqueue(FakeReply::sse(textReply({u"\"Fix the flaky login test.\"\nextra line"_s})));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"The login test fails one time in ten, please fix it"_s);
        QCOMPARE(m_server->requests().size(), 2);
        QCOMPARE(m_server->requests().at(1).json.string(u"model"), u"small"_s);
        QCOMPARE(m_service->get(id)->title(), u"Fix the flaky login test"_s);
        QCOMPARE(cleanTitle(u"<think>hmm</think>\n  ログインテストを直す。 "_s), u"ログインテストを直す"_s);
        QCOMPARE(cleanTitle(QString(80, u'x')).size(), 50);
    }

    void titleFailureKeepsDefault()
    {
        m_config.generateTitles = true;
        m_server->enqueue(FakeReply::sse(textReply({u"Answer."_s})));
        m_server->enqueue(FakeReply::json(400, "{\"error\":{\"message\":\"no\"}}"));
        auto processor = makeProcessor();
        const QString id = runPrompt(*processor, u"hello"_s);
        QVERIFY(Session::isDefaultTitle(m_service->get(id)->title()));
    }

    void retryDelays()
    {
        QCOMPARE(retryDelay(1, std::nullopt, 2000, 30000), 2000);
        QCOMPARE(retryDelay(2, std::nullopt, 2000, 30000), 4000);
        QCOMPARE(retryDelay(5, std::nullopt, 2000, 30000), 30000);
        QCOMPARE(retryDelay(3, 1234, 2000, 30000), 1234);
    }
};

QTEST_GUILESS_MAIN(TestProcessor)
#include "tst_processor.moc"
