// SPDX-License-Identifier: GPL-3.0-or-later
// OpenCode 2's server (only `/api` routes) through model/server, against a loopback server that
// answers with what the V2 preview answered and streamed (tests/data/opencode-v2-preview-server).

#include "fakeopencodeserver.h"

#include "app/serversource.h"
#include "qt/sessionsmodel.h"
#include "server/serverapiv2.h"
#include "server/servereventwatcher.h"
#include "server/serverstore.h"
#include "session/sessionservice.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <QUrlQuery>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::FakeOpencodeServer;
using weft::test::recordedApiAnswer;
using weft::test::recordedApiEvents;

namespace
{

/// The recorded sessions: a `write` call; `edit` then `shell`; `read` then a plain answer.
const QString WriteSession = u"ses_ddcdb783cffeX7KYY6OJl6gO0h"_s;
const QString ShellSession = u"ses_ddcdb745affekya26AGAW2oUML"_s;
const QString Directory = u"/home/dev/src/demo4"_s;

template<typename T> T await(QFuture<T> future)
{
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, 20000))
        qFatal("no answer within 20 s");
    return future.result();
}

template<typename Read> auto offThread(Read read) -> decltype(read())
{
    return await(QtConcurrent::run(read));
}

std::shared_ptr<ServerStore> connectTo(const FakeOpencodeServer &server)
{
    Result<std::shared_ptr<ServerStore>> store = await(ServerStore::connect(ServerClient(server.url(), u"secret"_s)));
    if (!store)
        qWarning("%s", qPrintable(store.error().toString()));
    return store ? store.value() : nullptr;
}

/// A V2-only server in the state the recording ended in.
std::unique_ptr<FakeOpencodeServer> recordedServer()
{
    auto server = std::make_unique<FakeOpencodeServer>();
    server->setV2Only();
    server->routeAllRecordedV2();
    if (!server->listen())
        return nullptr;
    return server;
}

/// The last request to @p method @p path.
test::FakeRequest lastRequest(const FakeOpencodeServer &server, const QByteArray &method, const QString &path)
{
    test::FakeRequest found;
    for (const test::FakeRequest &r : server.requests()) {
        const QByteArray target = r.path.left(r.path.indexOf('?') < 0 ? r.path.size() : r.path.indexOf('?'));
        if (r.method == method && QString::fromUtf8(QByteArray::fromPercentEncoding(target)) == path)
            found = r;
    }
    return found;
}

} // namespace

class TestServerV2 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void probe_data();
    void probe();
    void probeErrors();
    void readsSessionsAndHistory();
    void operationsTakeTheApiRoutes();
    void formsAsQuestions();
    void watcherReplaysTheRecordedStream();
    void watcherMapsPermissionsQuestionsAndForms();
    void watcherLogsUnknownEventsOnce();
    void watcherReconcilesAfterAReconnection();
    void sourceAnswersFormsAndQueues();
};

void TestServerV2::initTestCase()
{
    registerMetaTypes();
    QVERIFY2(recordedApiAnswer(u"/api/health"_s).isObject(), "the recorded V2 answers are missing");
    QVERIFY2(recordedApiEvents().size() > 100, "the recorded V2 event stream is missing");
}

void TestServerV2::probe_data()
{
    QTest::addColumn<QByteArray>("v1Health"); // empty: 404
    QTest::addColumn<QByteArray>("info");     // `/api/info`; empty: 404
    QTest::addColumn<QString>("version");     // empty: not an OpenCode server
    QTest::addColumn<int>("protocol");
    // The V2 preview: `/api/health` alone; V1 paths 404.
    QTest::addRow("preview") << QByteArray() << QByteArray() << u"0.0.0-v2beta-db9e942"_s
                             << int(ServerProtocol::V2Only);
    // A 2.0.x release: `/api/info`, and its web UI's HTML on every V1 path (status 200).
    QTest::addRow("2.0.x with web UI") << QByteArray("<!doctype html><html></html>")
                                       << QByteArray(R"({"version":"2.0.12","pid":42})") << u"2.0.12"_s
                                       << int(ServerProtocol::V2Only);
    // OpenCode 1.18: both.
    QTest::addRow("1.18") << QByteArray(R"({"healthy":true,"version":"1.18.34"})") << QByteArray()
                          << u"1.18.34"_s << int(ServerProtocol::V1WithV2);
}

void TestServerV2::probe()
{
    QFETCH(QByteArray, v1Health);
    QFETCH(QByteArray, info);
    QFETCH(QString, version);
    QFETCH(int, protocol);
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    if (!v1Health.isEmpty())
        server->route("GET", u"/global/health"_s, [v1Health](const test::FakeRequest &) {
            return FakeOpencodeServer::Reply{200, v1Health};
        });
    if (!info.isEmpty())
        server->route("GET", u"/api/info"_s, [info](const test::FakeRequest &) { return FakeOpencodeServer::Reply{200, info}; });
    const Result<ServerInfo> probed = await(ServerClient(server->url(), u"secret"_s).probe());
    QVERIFY2(probed, qPrintable(probed ? QString() : probed.error().toString()));
    QCOMPARE(probed->version, version);
    QCOMPARE(int(probed->protocol), protocol);
    QVERIFY(probed->hasV2);
}

void TestServerV2::probeErrors()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    // A web server that answers every path with HTML is no OpenCode server.
    FakeOpencodeServer web(QString{});
    QVERIFY(web.listen());
    for (const QString &path : {u"/global/health"_s, u"/api/health"_s, u"/api/info"_s})
        web.route("GET", path, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{200, "<html></html>"}; });
    const Result<ServerInfo> notOpencode = await(ServerClient(web.url(), QString()).probe());
    QVERIFY(!notOpencode);
    QVERIFY2(notOpencode.error().message.contains(u"not an OpenCode server"_s), qPrintable(notOpencode.error().toString()));
    // A password refused says so (not "not an OpenCode server").
    const Result<ServerInfo> refused = await(ServerClient(server->url(), u"wrong"_s).probe());
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(u"refused the password"_s), qPrintable(refused.error().toString()));
    // A major version Weft does not know.
    server->route("GET", u"/api/info"_s, 200, JsonObject{{u"version"_s, u"3.0.0"_s}});
    const Result<ServerInfo> future = await(ServerClient(server->url(), u"secret"_s).probe());
    QVERIFY(!future);
    QVERIFY2(future.error().message.contains(u"3.0.0"_s), qPrintable(future.error().toString()));
}

void TestServerV2::readsSessionsAndHistory()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const std::shared_ptr<ServerStore> store = connectTo(*server);
    QVERIFY(store);
    QVERIFY(store->info().v2Only());

    const Result<QList<Session>> sessions = offThread([&] { return store->readSessions(); });
    QVERIFY2(sessions, qPrintable(sessions ? QString() : sessions.error().toString()));
    QCOMPARE(sessions->size(), 3);
    for (const Session &s : *sessions) {
        QCOMPARE(s.directory(), Directory);
        QCOMPARE(s.version(), u"0.0.0-v2beta-db9e942"_s);
        QVERIFY(s.title().startsWith(u"Scripted session"_s));
    }
    // The list pages by the body's cursor: the second page brings nothing new and ends it.
    QCOMPARE(server->count("GET", u"/api/session"_s), 2);
    const test::FakeRequest list = lastRequest(*server, "GET", u"/api/session"_s);
    QVERIFY2(list.path.contains("cursor="), list.path.constData());

    const Result<QList<MessageWithParts>> history = offThread([&] { return store->readMessages(ShellSession); });
    QVERIFY2(history, qPrintable(history ? QString() : history.error().toString()));
    // Two prompts and their answers, oldest first, each answer after its prompt.
    QCOMPARE(history->size(), 6);
    QVERIFY(history->first().info.isUser());
    QStringList tools;
    for (const MessageWithParts &m : *history) {
        QCOMPARE(m.info.sessionID(), ShellSession);
        if (m.info.isAssistant())
            QCOMPARE(m.info.providerID(), u"fake"_s);
        for (const Part &p : m.parts) {
            if (p.type() == PartType::Tool)
                tools.append(p.json().string(u"tool"));
        }
    }
    QCOMPARE(tools, (QStringList{u"edit"_s, u"shell"_s}));
    // No V1 route was asked after the probe.
    for (const test::FakeRequest &r : server->requests())
        QVERIFY2(r.path.startsWith("/api/") || r.path == "/global/health", r.path.constData());

    // A long session's newest page first: the route's `limit` newest, in time order.
    const JsonArray recorded = recordedApiAnswer(u"/api/session/"_s + ShellSession + u"/message?limit=100"_s).toObject().array(u"data");
    server->route("GET", u"/api/session/"_s + ShellSession + u"/message"_s, [recorded](const test::FakeRequest &r) {
        const QUrlQuery query(QString::fromUtf8(r.path.mid(r.path.indexOf('?') + 1)));
        JsonArray page;
        for (qsizetype i = 0; i < recorded.size() && i < query.queryItemValue(u"limit"_s).toInt(); ++i)
            page.append(recorded.at(i));
        return FakeOpencodeServer::Reply{200, toJson(JsonObject{{u"data"_s, page}}, 0)};
    });
    store->forget(ShellSession); // read whole above
    const NewestMessages newest = offThread([&] { return store->newestMessages(ShellSession, 2); });
    QVERIFY(!newest.olderListed);
    QCOMPARE(newest.messages.size(), 2);
    QCOMPARE(newest.messages.at(0).info.id(), recorded.at(1).toObject().string(u"id"));
    QCOMPARE(newest.messages.at(1).info.id(), recorded.at(0).toObject().string(u"id"));
    QVERIFY(lastRequest(*server, "GET", u"/api/session/"_s + ShellSession + u"/message"_s).path.endsWith("limit=2"));

    const Result<Session> one = offThread([&] { return store->readSession(WriteSession); });
    QVERIFY(one);
    QCOMPARE(one->id(), WriteSession);
    QCOMPARE(one->title(), u"Scripted session Please create the fi"_s);
}

void TestServerV2::operationsTakeTheApiRoutes()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const JsonValue info = recordedApiAnswer(u"/api/session/"_s + WriteSession);
    const QString base = u"/api/session/"_s + WriteSession;
    for (const QString &tail : {u"/prompt"_s, u"/interrupt"_s, u"/compact"_s, u"/wait"_s, u"/revert/stage"_s,
                                u"/revert/clear"_s, u"/rename"_s, u"/agent"_s, u"/model"_s,
                                u"/permission/per_1/reply"_s, u"/question/que_1/reply"_s,
                                u"/question/que_1/reject"_s, u"/form/frm_1/reply"_s, u"/form/frm_1/cancel"_s})
        server->route("POST", base + tail, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    server->route("POST", base + u"/fork"_s, 200, info);
    server->route("POST", u"/api/session"_s, 200, info);
    server->route("DELETE", base, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    const std::shared_ptr<ServerStore> store = connectTo(*server);
    QVERIFY(store);

    auto body = [&](const QByteArray &method, const QString &tail) { return lastRequest(*server, method, base + tail).json; };
    QVERIFY(offThread([&] { return store->create(Directory).ok(); }));
    QCOMPARE(lastRequest(*server, "POST", u"/api/session"_s).json,
             (JsonObject{{u"location"_s, JsonObject{{u"directory"_s, Directory}}}}));

    QVERIFY(offThread([&] {
        return store->prompt(WriteSession, u"hi"_s, u"plan"_s, u"fake/m1"_s, u"msg_0123456789abABCDEFGHIJKLMN"_s,
                             PromptDelivery::Queue).ok();
    }));
    QCOMPARE(body("POST", u"/prompt"_s),
             (JsonObject{{u"text"_s, u"hi"_s}, {u"id"_s, u"msg_0123456789abABCDEFGHIJKLMN"_s}, {u"delivery"_s, u"queue"_s}}));
    QCOMPARE(body("POST", u"/agent"_s), (JsonObject{{u"agent"_s, u"plan"_s}}));
    QCOMPARE(body("POST", u"/model"_s),
             (JsonObject{{u"model"_s, JsonObject{{u"id"_s, u"m1"_s}, {u"providerID"_s, u"fake"_s}}}}));
    QVERIFY(offThread([&] { return store->prompt(WriteSession, u"now"_s, {}, {}, {}, PromptDelivery::Steer).ok(); }));
    QCOMPARE(body("POST", u"/prompt"_s).string(u"delivery"_s), u"steer"_s);

    QVERIFY(offThread([&] { return store->abort(WriteSession).ok(); }));
    QCOMPARE(server->count("POST", base + u"/interrupt"_s), 1);

    const Result<Session> forked = offThread([&] { return store->fork(WriteSession, u"msg_2232488e8001V2OLWwvZFRlcvK"_s); });
    QVERIFY(forked);
    QCOMPARE(body("POST", u"/fork"_s),
             (JsonObject{{u"boundary"_s,
                          JsonObject{{u"type"_s, u"before"_s}, {u"messageID"_s, u"msg_2232488e8001V2OLWwvZFRlcvK"_s}}}}));
    QVERIFY(offThread([&] { return store->fork(WriteSession).ok(); }));
    QCOMPARE(body("POST", u"/fork"_s), (JsonObject{{u"boundary"_s, JsonObject{{u"type"_s, u"through"_s}}}}));

    // Compaction is admitted, then waited for.
    QVERIFY(offThread([&] { return store->compact(WriteSession).ok(); }));
    QCOMPARE(server->count("POST", base + u"/compact"_s), 1);
    QCOMPARE(server->count("POST", base + u"/wait"_s), 1);

    QVERIFY(offThread([&] { return store->revert(WriteSession, u"msg_2232488e8001V2OLWwvZFRlcvK"_s).ok(); }));
    QCOMPARE(body("POST", u"/revert/stage"_s), (JsonObject{{u"messageID"_s, u"msg_2232488e8001V2OLWwvZFRlcvK"_s}}));
    QVERIFY(offThread([&] { return store->unrevert(WriteSession).ok(); }));
    QCOMPARE(server->count("POST", base + u"/revert/clear"_s), 1);
    QVERIFY(offThread([&] { return store->rename(WriteSession, u"Renamed"_s).ok(); }));
    QCOMPARE(body("POST", u"/rename"_s), (JsonObject{{u"title"_s, u"Renamed"_s}}));

    QVERIFY(offThread([&] { return store->replyPermission(WriteSession, u"per_1"_s, u"always"_s).ok(); }));
    QCOMPARE(body("POST", u"/permission/per_1/reply"_s), (JsonObject{{u"reply"_s, u"always"_s}}));
    QVERIFY(offThread([&] { return store->replyQuestion(WriteSession, u"que_1"_s, {{u"Yes"_s}}).ok(); }));
    QCOMPARE(body("POST", u"/question/que_1/reply"_s), (JsonObject{{u"answers"_s, JsonArray{JsonArray{u"Yes"_s}}}}));
    QVERIFY(offThread([&] { return store->rejectQuestion(WriteSession, u"que_1"_s).ok(); }));
    QCOMPARE(server->count("POST", base + u"/question/que_1/reject"_s), 1);

    QVERIFY(offThread([&] { return store->remove(WriteSession).ok(); }));
    QCOMPARE(server->count("DELETE", base), 1);

    // The composer's agents and models.
    const Result<JsonArray> agents = offThread([&] { return store->agents(); });
    QVERIFY(agents && !agents->isEmpty());
    QCOMPARE(agents->at(0).toObject().string(u"id"), u"build"_s);
    const Result<JsonArray> models = offThread([&] { return store->models(); });
    QVERIFY(models && !models->isEmpty());
    QCOMPARE(models->at(0).toObject().string(u"providerID"), u"fake"_s);
    QCOMPARE(offThread([&] { return store->defaultModel().value(); }), u"fake/m1"_s);
    // A server with no model configured answers `data: null`.
    server->route("GET", u"/api/model/default"_s, 200, JsonObject{{u"data"_s, nullptr}});
    QCOMPARE(offThread([&] { return store->defaultModel().value(); }), QString());
    const Result<QString> directory = offThread([&] { return store->defaultDirectory(); });
    QVERIFY(directory);
    QCOMPARE(*directory, Directory);
    // Every request carried the credentials of user "opencode".
    for (const test::FakeRequest &r : server->requests())
        QCOMPARE(r.header("authorization"), ServerClient::basicAuth(u"secret"_s));
}

void TestServerV2::formsAsQuestions()
{
    const JsonObject form{
        {u"id"_s, u"frm_1"_s},
        {u"sessionID"_s, WriteSession},
        {u"title"_s, u"Setup"_s},
        {u"fields"_s,
         JsonArray{JsonObject{{u"key"_s, u"lang"_s},
                              {u"type"_s, u"string"_s},
                              {u"title"_s, u"Language"_s},
                              {u"options"_s, JsonArray{JsonObject{{u"value"_s, u"py"_s}, {u"label"_s, u"Python"_s}},
                                                       JsonObject{{u"value"_s, u"rs"_s}, {u"label"_s, u"Rust"_s}}}}},
                   JsonObject{{u"key"_s, u"tools"_s},
                              {u"type"_s, u"multiselect"_s},
                              {u"options"_s, JsonArray{JsonObject{{u"value"_s, u"a"_s}, {u"label"_s, u"A"_s}},
                                                       JsonObject{{u"value"_s, u"b"_s}, {u"label"_s, u"B"_s}}}}},
                   JsonObject{{u"key"_s, u"ok"_s}, {u"type"_s, u"boolean"_s}, {u"title"_s, u"Go on?"_s}},
                   JsonObject{{u"key"_s, u"name"_s}, {u"type"_s, u"string"_s}}}}};
    const JsonObject question = ServerApiV2::formAsQuestion(form);
    QCOMPARE(question.string(u"id"), u"frm_1"_s);
    QCOMPARE(question.string(u"sessionID"), WriteSession);
    QVERIFY(question.value(u"form").toBool());
    const JsonArray questions = question.array(u"questions");
    QCOMPARE(questions.size(), 4);
    QCOMPARE(questions.at(0).toObject().string(u"question"), u"Language"_s);
    QCOMPARE(questions.at(0).toObject().array(u"options").at(1).toObject().string(u"label"), u"Rust"_s);
    QVERIFY(!questions.at(0).toObject().value(u"custom").toBool());
    QVERIFY(questions.at(1).toObject().value(u"multiple").toBool());
    QCOMPARE(questions.at(2).toObject().array(u"options").size(), 2); // yes, no
    QVERIFY(questions.at(3).toObject().value(u"custom").toBool()); // free text

    const JsonObject answer = ServerApiV2::formAnswer(form, {{u"Rust"_s}, {u"A"_s, u"B"_s}, {u"yes"_s}, {u"weft"_s}});
    QCOMPARE(answer,
             (JsonObject{{u"lang"_s, u"rs"_s},
                         {u"tools"_s, JsonArray{u"a"_s, u"b"_s}},
                         {u"ok"_s, true},
                         {u"name"_s, u"weft"_s}}));

    // Answered and cancelled through the session's form routes.
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const QString base = u"/api/session/"_s + WriteSession + u"/form/frm_1"_s;
    server->route("POST", base + u"/reply"_s, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    server->route("POST", base + u"/cancel"_s, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    const std::shared_ptr<ServerStore> store = connectTo(*server);
    QVERIFY(store);
    QVERIFY(offThread([&] { return store->replyForm(question, {{u"Python"_s}, {}, {u"no"_s}}).ok(); }));
    QCOMPARE(lastRequest(*server, "POST", base + u"/reply"_s).json,
             (JsonObject{{u"answer"_s, JsonObject{{u"lang"_s, u"py"_s}, {u"tools"_s, JsonArray()}, {u"ok"_s, false}}}}));
    QVERIFY(offThread([&] { return store->cancelForm(question).ok(); }));
    QCOMPARE(server->count("POST", base + u"/cancel"_s), 1);
}

void TestServerV2::watcherReplaysTheRecordedStream()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const std::shared_ptr<ServerStore> store = connectTo(*server);
    QVERIFY(store);
    SessionService service(store);
    auto *watcher = new ServerEventWatcher(store);
    QSignalSpy started(&service, &SessionService::watchingStarted);
    QSignalSpy status(watcher, &ServerEventWatcher::sessionStatus);
    QSignalSpy created(&service, &SessionService::sessionCreated);
    QHash<QString, QString> texts; // part ID -> text grown from deltas
    QHash<QString, Part> parts;
    QHash<QString, Message> messages;
    connect(&service, &SessionService::partUpdated, this, [&](const Part &part, const QString &delta) {
        parts.insert(part.id(), part);
        if (!delta.isEmpty())
            texts[part.id()] += delta;
    });
    connect(&service, &SessionService::messageUpdated, this, [&](const Message &m) { messages.insert(m.id(), m); });
    service.startWatching(watcher);
    QTRY_COMPARE(started.size(), 1);
    QCOMPARE(watcher->state(), ServerEventWatcher::State::Connected);

    const QList<QByteArray> frames = recordedApiEvents();
    for (const QByteArray &frame : frames.mid(1)) // the recorded server.connected is the fake's own
        server->pushFrame(frame);
    // Five prompts, five runs: busy, then idle.
    QTRY_COMPARE(std::count_if(status.cbegin(), status.cend(), [](const QList<QVariant> &s) { return s.at(1) == u"idle"_s; }), 5);
    QCOMPARE(status.first().at(1).toString(), u"busy"_s);
    QCOMPARE(created.size(), 3);
    QCOMPARE(created.first().at(0).value<Session>().directory(), Directory);

    // What streamed is what the history holds afterwards: the same messages and parts (one ID
    // each), in their final state.
    for (const QString &sessionID : {WriteSession, ShellSession}) {
        const Result<QList<MessageWithParts>> history = offThread([&] { return store->readMessages(sessionID); });
        QVERIFY(history);
        QVERIFY(history->size() >= 2);
        for (const MessageWithParts &m : *history) {
            QVERIFY2(messages.contains(m.info.id()), qPrintable(m.info.id()));
            QCOMPARE(messages.value(m.info.id()).role(), m.info.role());
            QCOMPARE(messages.value(m.info.id()).finish(), m.info.finish());
            for (const Part &p : m.parts) {
                QVERIFY2(parts.contains(p.id()), qPrintable(p.id() + u' ' + p.json().string(u"type")));
                const Part streamed = parts.value(p.id());
                QCOMPARE(streamed.type(), p.type());
                QCOMPARE(streamed.text(), p.text());
                QCOMPARE(streamed.json().string(u"tool"), p.json().string(u"tool"));
                QCOMPARE(streamed.json().object(u"state").string(u"status"), p.json().object(u"state").string(u"status"));
                QCOMPARE(streamed.json().object(u"state").string(u"output"), p.json().object(u"state").string(u"output"));
                QCOMPARE(streamed.json().object(u"state").object(u"input"), p.json().object(u"state").object(u"input"));
            }
        }
    }
    // The streamed text arrived as deltas that add up to it.
    QVERIFY(!texts.isEmpty());
    for (auto it = texts.cbegin(); it != texts.cend(); ++it)
        QCOMPARE(it.value(), parts.value(it.key()).text());
    QVERIFY(watcher->eventCount() >= frames.size() - 1);
}

void TestServerV2::watcherMapsPermissionsQuestionsAndForms()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const std::shared_ptr<ServerStore> store = connectTo(*server);
    QVERIFY(store);
    ServerEventWatcher watcher(store);
    QSignalSpy started(&watcher, &StoreWatcher::started);
    QSignalSpy permission(&watcher, &ServerEventWatcher::permissionAsked);
    QSignalSpy permissionReplied(&watcher, &ServerEventWatcher::permissionReplied);
    QSignalSpy question(&watcher, &ServerEventWatcher::questionAsked);
    QSignalSpy closed(&watcher, &ServerEventWatcher::questionClosed);
    QSignalSpy error(&watcher, &ServerEventWatcher::sessionError);
    QSignalSpy retry(&watcher, &ServerEventWatcher::sessionRetry);
    watcher.start();
    QTRY_COMPARE(started.size(), 1);

    server->pushApiEvent(u"permission.asked"_s,
                         JsonObject{{u"id"_s, u"per_1"_s},
                                    {u"sessionID"_s, WriteSession},
                                    {u"action"_s, u"shell"_s},
                                    {u"resources"_s, JsonArray{u"rm -rf build"_s}},
                                    {u"source"_s, JsonObject{{u"type"_s, u"tool"_s}, {u"messageID"_s, u"msg_1"_s},
                                                             {u"callID"_s, u"call_1"_s}}}});
    QTRY_COMPARE(permission.size(), 1);
    const JsonObject asked = permission.first().at(0).value<JsonObject>();
    QCOMPARE(asked.string(u"permission"), u"shell"_s);
    QCOMPARE(asked.array(u"patterns"), JsonArray{u"rm -rf build"_s});
    QCOMPARE(asked.object(u"tool").string(u"callID"), u"call_1"_s);
    QVERIFY(asked.value(u"v2").toBool());
    server->pushApiEvent(u"permission.replied"_s,
                         JsonObject{{u"sessionID"_s, WriteSession}, {u"requestID"_s, u"per_1"_s}, {u"reply"_s, u"once"_s}});
    QTRY_COMPARE(permissionReplied.size(), 1);

    server->pushApiEvent(u"question.asked"_s,
                         JsonObject{{u"id"_s, u"que_1"_s},
                                    {u"sessionID"_s, WriteSession},
                                    {u"questions"_s, JsonArray{JsonObject{{u"question"_s, u"Which?"_s},
                                                                          {u"header"_s, u"Pick"_s},
                                                                          {u"options"_s, JsonArray()}}}}});
    server->pushApiEvent(u"form.created"_s,
                         JsonObject{{u"form"_s, JsonObject{{u"id"_s, u"frm_1"_s},
                                                           {u"sessionID"_s, WriteSession},
                                                           {u"title"_s, u"Setup"_s},
                                                           {u"fields"_s, JsonArray{JsonObject{{u"key"_s, u"name"_s},
                                                                                              {u"type"_s, u"string"_s}}}}}}});
    QTRY_COMPARE(question.size(), 2);
    QCOMPARE(question.at(0).at(0).value<JsonObject>().string(u"id"), u"que_1"_s);
    QVERIFY(question.at(0).at(0).value<JsonObject>().value(u"v2").toBool());
    QCOMPARE(question.at(1).at(0).value<JsonObject>().string(u"id"), u"frm_1"_s);
    QVERIFY(question.at(1).at(0).value<JsonObject>().value(u"form").toBool());
    server->pushApiEvent(u"question.rejected"_s, JsonObject{{u"sessionID"_s, WriteSession}, {u"requestID"_s, u"que_1"_s}});
    server->pushApiEvent(u"form.cancelled"_s, JsonObject{{u"sessionID"_s, WriteSession}, {u"id"_s, u"frm_1"_s}});
    QTRY_COMPARE(closed.size(), 2);
    QCOMPARE(closed.at(0).at(1).toString(), u"que_1"_s);
    QCOMPARE(closed.at(1).at(1).toString(), u"frm_1"_s);

    // A retry, and a run that fails.
    server->pushApiEvent(u"session.retry.scheduled"_s,
                         JsonObject{{u"sessionID"_s, WriteSession},
                                    {u"assistantMessageID"_s, u"msg_1"_s},
                                    {u"attempt"_s, 2},
                                    {u"at"_s, QDateTime::currentMSecsSinceEpoch() + 60000},
                                    {u"error"_s, JsonObject{{u"type"_s, u"api"_s}, {u"message"_s, u"Overloaded"_s}}}});
    QTRY_COMPARE(retry.size(), 1);
    QCOMPARE(retry.first().at(1).toInt(), 2);
    QVERIFY(retry.first().at(2).toLongLong() > 50000);
    QCOMPARE(retry.first().at(3).value<MessageError>().message(), u"Overloaded"_s);
    server->pushApiEvent(u"session.execution.failed"_s,
                         JsonObject{{u"sessionID"_s, WriteSession},
                                    {u"error"_s, JsonObject{{u"type"_s, u"api"_s}, {u"message"_s, u"No credit"_s}}}});
    QTRY_COMPARE(error.size(), 1);
    QCOMPARE(error.first().at(1).value<MessageError>().message(), u"No credit"_s);
}

void TestServerV2::watcherLogsUnknownEventsOnce()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const std::shared_ptr<ServerStore> store = connectTo(*server);
    QVERIFY(store);
    ServerEventWatcher watcher(store);
    QSignalSpy started(&watcher, &StoreWatcher::started);
    QSignalSpy received(&watcher, &ServerEventWatcher::eventReceived);
    watcher.start();
    QTRY_COMPARE(started.size(), 1);
    // Once, however often it comes; the known ones without effect (plugins) are not logged.
    static QStringList logged;
    logged.clear();
    const QtMessageHandler previous = qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &text) {
        if (text.contains(u"does not know"_s))
            logged.append(text);
    });
    server->pushApiEvent(u"session.future.thing"_s, JsonObject{{u"sessionID"_s, WriteSession}});
    server->pushApiEvent(u"session.future.thing"_s, JsonObject{{u"sessionID"_s, WriteSession}});
    server->pushApiEvent(u"plugin.added"_s, JsonObject{{u"id"_s, u"x"_s}});
    server->pushApiEvent(u"session.other.thing"_s, JsonObject{{u"sessionID"_s, WriteSession}});
    const bool all = QTest::qWaitFor([&] { return received.size() == 4; }, 5000);
    qInstallMessageHandler(previous);
    QVERIFY(all);
    QCOMPARE(logged.size(), 2);
    QVERIFY(logged.at(0).endsWith(u"session.future.thing"_s));
    QVERIFY(logged.at(1).endsWith(u"session.other.thing"_s));
}

void TestServerV2::watcherReconcilesAfterAReconnection()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const std::shared_ptr<ServerStore> store = connectTo(*server);
    QVERIFY(store);
    SessionService service(store);
    auto *watcher = new ServerEventWatcher(store);
    QSignalSpy opened(server.get(), &FakeOpencodeServer::eventStreamOpened);
    QSignalSpy status(watcher, &ServerEventWatcher::sessionStatus);
    QSignalSpy external(&service, &SessionService::sessionChangedExternally);
    service.startWatching(watcher);
    QTRY_COMPARE(opened.size(), 1);
    service.followSession(ShellSession, {});

    // Two sessions run; the stream drops; one of them ended meanwhile.
    server->pushApiEvent(u"session.execution.started"_s, JsonObject{{u"sessionID"_s, WriteSession}});
    server->pushApiEvent(u"session.execution.started"_s, JsonObject{{u"sessionID"_s, ShellSession}});
    QTRY_COMPARE(status.size(), 2);
    server->route("GET", u"/api/session/active"_s, 200,
                  JsonObject{{u"data"_s, JsonObject{{ShellSession, JsonObject{{u"type"_s, u"running"_s}}}}}});
    server->dropEventStreams();
    QTRY_COMPARE(opened.size(), 2);
    // The one that ended is idle (and read again); the followed one is read again.
    QTRY_COMPARE(status.size(), 3);
    QCOMPARE(status.last().at(0).toString(), WriteSession);
    QCOMPARE(status.last().at(1).toString(), u"idle"_s);
    QTRY_VERIFY(std::any_of(external.cbegin(), external.cend(), [](const QList<QVariant> &e) { return e.at(0) == ShellSession; }));
    QTRY_VERIFY(std::any_of(external.cbegin(), external.cend(), [](const QList<QVariant> &e) { return e.at(0) == WriteSession; }));
    QVERIFY(server->count("GET", u"/api/session/active"_s) >= 1);
}

void TestServerV2::sourceAnswersFormsAndQueues()
{
    const std::unique_ptr<FakeOpencodeServer> server = recordedServer();
    QVERIFY(server);
    const QString base = u"/api/session/"_s + WriteSession;
    for (const QString &tail : {u"/prompt"_s, u"/form/frm_1/reply"_s, u"/form/frm_2/cancel"_s})
        server->route("POST", base + tail, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    ServerSource source;
    QSignalSpy ready(&source, &ServerSource::ready);
    source.connectTo(ServerClient(server->url(), u"secret"_s));
    QTRY_COMPARE(ready.size(), 1);
    QCOMPARE(source.version(), u"0.0.0-v2beta-db9e942"_s);
    QTRY_VERIFY(source.sessions()->rowCount() == 3);

    // A prompt queued behind the running turn.
    source.prompt(WriteSession, u"after this"_s, {}, {}, PromptDelivery::Queue);
    QTRY_COMPARE(server->count("POST", base + u"/prompt"_s), 1);
    QCOMPARE(lastRequest(*server, "POST", base + u"/prompt"_s).json,
             (JsonObject{{u"text"_s, u"after this"_s}, {u"delivery"_s, u"queue"_s}}));

    // Forms are shown as questions, and answered or declined as forms.
    QSignalSpy asked(&source, &ServerSource::questionAsked);
    QSignalSpy closed(&source, &ServerSource::questionClosed);
    for (const QString &id : {u"frm_1"_s, u"frm_2"_s})
        server->pushApiEvent(u"form.created"_s,
                             JsonObject{{u"form"_s, JsonObject{{u"id"_s, id},
                                                               {u"sessionID"_s, WriteSession},
                                                               {u"title"_s, u"Name?"_s},
                                                               {u"fields"_s, JsonArray{JsonObject{{u"key"_s, u"name"_s},
                                                                                                  {u"type"_s, u"string"_s}}}}}}});
    QTRY_COMPARE(asked.size(), 2);
    QVERIFY(source.hasQuestion(u"frm_1"_s));
    QVERIFY(source.answerQuestion(u"frm_1"_s, {{u"Weft"_s}}));
    QTRY_COMPARE(server->count("POST", base + u"/form/frm_1/reply"_s), 1);
    QCOMPARE(lastRequest(*server, "POST", base + u"/form/frm_1/reply"_s).json,
             (JsonObject{{u"answer"_s, JsonObject{{u"name"_s, u"Weft"_s}}}}));
    QVERIFY(source.rejectQuestion(u"frm_2"_s));
    QTRY_COMPARE(server->count("POST", base + u"/form/frm_2/cancel"_s), 1);
    QTRY_VERIFY(!source.hasQuestion(u"frm_2"_s));

    // Renamed there.
    server->route("POST", base + u"/rename"_s, [](const test::FakeRequest &) { return FakeOpencodeServer::Reply{204, {}}; });
    const Result<Session> renamed = await(source.rename(WriteSession, u"  New title "_s));
    QVERIFY2(renamed, qPrintable(renamed ? QString() : renamed.error().toString()));
    QCOMPARE(renamed->id(), WriteSession);
    QCOMPARE(lastRequest(*server, "POST", base + u"/rename"_s).json, (JsonObject{{u"title"_s, u"New title"_s}}));

    // The composer's choices, in the session's folder.
    QFuture<ServerSource::PromptChoices> read = source.promptChoices(Directory);
    QTRY_VERIFY(read.isFinished());
    const ServerSource::PromptChoices choices = read.result();
    QVERIFY(choices.agents.contains(u"build"_s));
    QCOMPARE(choices.models, QStringList{u"fake/m1"_s});
    QCOMPARE(choices.defaultModel, u"fake/m1"_s);
    QVERIFY(lastRequest(*server, "GET", u"/api/agent"_s).path.contains("location%5Bdirectory%5D=%2Fhome%2Fdev%2Fsrc%2Fdemo4")
            || lastRequest(*server, "GET", u"/api/agent"_s).path.contains("location[directory]=%2Fhome%2Fdev%2Fsrc%2Fdemo4"));
    source.close();
}

QTEST_GUILESS_MAIN(TestServerV2)
#include "tst_serverv2.moc"
