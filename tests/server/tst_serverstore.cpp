// SPDX-License-Identifier: GPL-3.0-or-later
// The OpenCode server backend (model/server) against a loopback server that answers with what
// the real OpenCode 1.18.34 answered (tests/data/opencode-1.18.34-server).

#include "fakellmserver.h"
#include "fakeopencodeserver.h"
#include "testdata.h"

#include "opencodedb/sessionmessagev2.h"
#include "server/servereventwatcher.h"
#include "server/serverstore.h"
#include "session/sessionservice.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <QTcpServer>
#include <QTest>
#include <QUrlQuery>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::FakeOpencodeServer;
using weft::test::recordedEvents;
using weft::test::RecordedExchange;
using weft::test::recordedExchange;

namespace
{

QString v1Session()
{
    return recordedExchange(u"create V1 session"_s).responseBody.toObject().string(u"id");
}

QString v2Session()
{
    return recordedExchange(u"create V2 session"_s).responseBody.toObject().object(u"data").string(u"id");
}

/// The recorded V1 messages (`[{info, parts}]`) of exchange @p name, as Weft's types.
QList<MessageWithParts> recordedMessages(const QString &name)
{
    QList<MessageWithParts> result;
    for (const JsonValue &v : recordedExchange(name).responseBody.toArray()) {
        MessageWithParts m{Message(v.toObject().object(u"info")), {}};
        for (const JsonValue &p : v.toObject().value(u"parts").toArray())
            m.parts.append(Part(p.toObject()));
        result.append(m);
    }
    return result;
}

/// The result of @p future, the test's event loop (the fake server's) running meanwhile.
template<typename T> T await(QFuture<T> future)
{
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, 20000))
        qFatal("no answer within 20 s");
    return future.result();
}

/// @p read on a worker thread, where the store's reads wait for the server's answer.
template<typename Read> auto offThread(Read read) -> decltype(read())
{
    return await(QtConcurrent::run(read));
}

std::shared_ptr<ServerStore> connectTo(const FakeOpencodeServer &server, const QString &password = u"secret"_s)
{
    Result<std::shared_ptr<ServerStore>> store = await(ServerStore::connect(ServerClient(server.url(), password)));
    if (!store)
        qWarning("%s", qPrintable(store.error().toString()));
    return store ? store.value() : nullptr;
}

} // namespace

class TestServerStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void probe();
    void probeErrors();
    void redirectElsewhereKeepsThePassword_data();
    void redirectElsewhereKeepsThePassword();
    void redirectWithinTheServerIsFollowed();
    void parseUrl();
    void readsV1Sessions();
    void readsV2Sessions();
    void readsTheNewestPageFirst();
    void readsAreGivenUpOnQuit();
    void readsEveryPageOfSessions();
    void readErrorsAreReported();
    void operationsSendWhatOpencodeExpects();
    void compactTakesTheSessionsModel();
    void writesAreRefused();
    void watcherFollowsRecordedStream();
    void watcherReconnectsAndCatchesUp();
    void watcherReportsPermissions();
    void v2SessionsTakeV2Routes();
    void watcherFollowsV2Sessions();
};

void TestServerStore::initTestCase()
{
    registerMetaTypes();
    QVERIFY2(!v1Session().isEmpty() && !v2Session().isEmpty(), "the recorded exchanges are missing");
}

void TestServerStore::probe()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    QCOMPARE(store->info().version, u"1.18.34"_s);
    QVERIFY(store->info().hasV2);
    QVERIFY(store->location().contains(u"1.18.34"_s));
    QVERIFY(store->has(StoreCapability::RunsOnServer));
    QVERIFY(store->has(StoreCapability::Live));
    QVERIFY(store->isReadOnly());
    // Every request carried the credentials of user "opencode".
    for (const test::FakeRequest &r : server.requests())
        QCOMPARE(r.header("authorization"), ServerClient::basicAuth(u"secret"_s));
}

void TestServerStore::probeErrors()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();

    Result<ServerInfo> wrong = await(ServerClient(server.url(), u"wrong"_s).probe());
    QVERIFY(!wrong);
    QVERIFY2(wrong.error().message.contains(u"refused the password"_s), qPrintable(wrong.error().toString()));
    Result<ServerInfo> none = await(ServerClient(server.url(), QString()).probe());
    QVERIFY(!none);
    QVERIFY2(none.error().message.contains(u"OPENCODE_SERVER_PASSWORD"_s), qPrintable(none.error().toString()));

    // A closed port.
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const QUrl closedUrl(u"http://127.0.0.1:%1"_s.arg(closed.serverPort()));
    closed.close();
    Result<ServerInfo> unreachable = await(ServerClient(closedUrl, u"secret"_s).probe());
    QVERIFY(!unreachable);
    QVERIFY2(unreachable.error().message.startsWith(u"cannot reach the OpenCode server"_s), qPrintable(unreachable.error().toString()));
    QCOMPARE(unreachable.error().where, closedUrl.toString());

    // An HTTP server that is no OpenCode server, and an OpenCode of an unknown version.
    FakeOpencodeServer other(QString{});
    QVERIFY(other.listen());
    Result<ServerInfo> notOpencode = await(ServerClient(other.url(), QString()).probe());
    QVERIFY(!notOpencode);
    QVERIFY2(notOpencode.error().message.contains(u"not an OpenCode server"_s), qPrintable(notOpencode.error().toString()));
    other.route("GET", u"/global/health"_s, 200, JsonObject{{u"healthy"_s, true}, {u"version"_s, u"3.0.1"_s}});
    Result<ServerInfo> future = await(ServerClient(other.url(), QString()).probe());
    QVERIFY(!future);
    QVERIFY2(future.error().message.contains(u"3.0.1"_s), qPrintable(future.error().toString()));
    other.route("GET", u"/global/health"_s, 200, JsonValue(u"<html>"_s));
    QVERIFY(!await(ServerClient(other.url(), QString()).probe()));
}

void TestServerStore::redirectElsewhereKeepsThePassword_data()
{
    QTest::addColumn<QByteArray>("verb");
    QTest::addColumn<int>("status");
    QTest::newRow("GET 302") << QByteArray("GET") << 302;
    QTest::newRow("GET 307") << QByteArray("GET") << 307;
    QTest::newRow("POST 307") << QByteArray("POST") << 307;
    QTest::newRow("POST 308") << QByteArray("POST") << 308;
}

void TestServerStore::redirectElsewhereKeepsThePassword()
{
    // A server (or whatever answers at its address) that sends Weft to another host:port: the
    // password is not sent there, and the caller is told why.
    QFETCH(QByteArray, verb);
    QFETCH(int, status);
    test::FakeLlmServer first;
    QVERIFY(first.listen());
    FakeOpencodeServer second;
    QVERIFY(second.listen());
    second.routeAllRecorded();
    test::FakeReply moved;
    moved.status = status;
    moved.framing = test::FakeReply::Framing::ContentLength;
    moved.withHeader("Location", (second.url().toString() + u"/global/health"_s).toUtf8());
    first.enqueue(moved);

    const ServerClient client(first.baseUrl(QString()), u"secret"_s);
    const Result<JsonValue> r = verb == "GET" ? await(client.get(u"/global/health"_s))
                                              : await(client.post(u"/session"_s, JsonObject{}));
    QVERIFY(!r);
    QVERIFY2(r.error().message.contains(u"redirected to %1, another origin"_s.arg(second.url().toString())),
             qPrintable(r.error().toString()));
    QCOMPARE(first.requests().size(), 1);
    QCOMPARE(first.requests().at(0).header("authorization"), ServerClient::basicAuth(u"secret"_s));
    QCOMPARE(second.requests().size(), 0);
}

void TestServerStore::redirectWithinTheServerIsFollowed()
{
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    test::FakeReply moved;
    moved.status = 307;
    moved.framing = test::FakeReply::Framing::ContentLength;
    moved.withHeader("Location", "/oc/global/health");
    server.enqueue(moved);
    server.enqueue(test::FakeReply::json(200, R"({"healthy": true, "version": "1.18.34"})"));
    const ServerClient client(server.baseUrl(QString()), u"secret"_s);
    const Result<JsonValue> r = await(client.get(u"/global/health"_s));
    QVERIFY2(r, r ? "" : qPrintable(r.error().toString()));
    QCOMPARE(r->toObject().string(u"version"_s), u"1.18.34"_s);
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.requests().at(1).path, QByteArray("/oc/global/health"));
    QCOMPARE(server.requests().at(1).header("authorization"), ServerClient::basicAuth(u"secret"_s));
}

void TestServerStore::parseUrl()
{
    QCOMPARE(ServerClient::parseUrl(u"127.0.0.1:4096"_s).value(), QUrl(u"http://127.0.0.1:4096"_s));
    QCOMPARE(ServerClient::parseUrl(u" https://dev.example:8443/ "_s).value(), QUrl(u"https://dev.example:8443/"_s));
    QVERIFY(!ServerClient::parseUrl(QString()));
    QVERIFY(!ServerClient::parseUrl(u"ftp://host"_s));
    QVERIFY(!ServerClient::parseUrl(u"http://host:1/?x=1"_s));
    QVERIFY(!ServerClient::parseUrl(u"http://"_s));
    // The root path is the server's, with or without a slash.
    QCOMPARE(ServerClient(QUrl(u"http://h:1/"_s), {}).request(u"/session"_s).url(), QUrl(u"http://h:1/session"_s));
    QCOMPARE(ServerClient(QUrl(u"http://h:1/oc/"_s), {}).request(u"/session"_s).url(), QUrl(u"http://h:1/oc/session"_s));
}

void TestServerStore::readsV1Sessions()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    server.route("GET", u"/experimental/session"_s, 200, recordedExchange(u"session list"_s).responseBody);
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);

    const QList<Session> sessions = offThread([&] { return store->sessions(); });
    QCOMPARE(sessions.size(), 1);
    QCOMPARE(sessions.first().id(), v1Session());
    QCOMPARE(sessions.first().title(), u"Recorded V1"_s);
    QVERIFY(store->problems().isEmpty());

    // The messages as the server sent them, every field kept.
    const QList<MessageWithParts> expected = recordedMessages(u"messages"_s);
    QVERIFY(expected.size() >= 3);
    const QList<MessageWithParts> messages = offThread([&] { return store->messagesWithParts(v1Session()); });
    QCOMPARE(messages.size(), expected.size());
    for (qsizetype i = 0; i < messages.size(); ++i) {
        QCOMPARE(messages.at(i).info.json(), expected.at(i).info.json());
        QCOMPARE(messages.at(i).parts.size(), expected.at(i).parts.size());
        for (qsizetype j = 0; j < messages.at(i).parts.size(); ++j)
            QCOMPARE(messages.at(i).parts.at(j).json(), expected.at(i).parts.at(j).json());
    }
    bool toolCompleted = false;
    for (const MessageWithParts &m : messages) {
        for (const Part &p : m.parts)
            toolCompleted |= p.type() == PartType::Tool && p.tool() == u"write" && p.state().status() == ToolStatus::Completed;
    }
    QVERIFY(toolCompleted);

    // A view's reads of one session (IDs, some messages, their parts) cost one request.
    const int before = server.count("GET", u"/session/"_s + v1Session() + u"/message"_s);
    const QStringList ids = offThread([&] { return store->messageIDs(v1Session()); });
    const QList<Message> infos = offThread([&] { return store->messagesByID(v1Session(), ids.mid(0, 2)); });
    const QList<MessageWithParts> withParts = offThread([&] { return store->withParts(v1Session(), infos); });
    QCOMPARE(withParts.size(), 2);
    QCOMPARE(server.count("GET", u"/session/"_s + v1Session() + u"/message"_s), before);
    // Until the session changes.
    store->forget(v1Session());
    QCOMPARE(offThread([&] { return store->messages(v1Session()); }).size(), expected.size());
    QCOMPARE(server.count("GET", u"/session/"_s + v1Session() + u"/message"_s), before + 1);
}

void TestServerStore::readsV2Sessions()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    server.routeRecorded(u"V2 messages after bash"_s);
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);

    // V1's route has nothing for a V2 session; V2's has it all, mapped as the database's rows are.
    const QList<MessageWithParts> messages = offThread([&] { return store->messagesWithParts(v2Session()); });
    QVERIFY(store->problems().isEmpty());
    const std::optional<JsonValue> rows = parseJson(test::readFile(QStringLiteral(WEFT_TEST_DATA) + u"/opencode-1.18.34-server/session_message.json"_s));
    QVERIFY(rows);
    QList<SessionMessageV2::Row> dbRows;
    for (const JsonValue &v : rows->toArray()) {
        const JsonObject o = v.toObject();
        if (o.string(u"session_id") != v2Session())
            continue;
        dbRows.append({o.string(u"id"), o.string(u"session_id"), o.string(u"type"), o.integer(u"seq"),
                       o.integer(u"time_created"), toJson(o.value(u"data"), 0)});
    }
    QVERIFY(dbRows.size() >= 4);
    const Session session = offThread([&] { return store->session(v2Session()); }).value();
    const JsonObject path{{u"cwd"_s, session.directory()}, {u"root"_s, session.directory()}};
    const QList<MessageWithParts> fromRows = SessionMessageV2::sessionToV1(dbRows, path, {});
    QCOMPARE(messages.size(), fromRows.size());
    for (qsizetype i = 0; i < messages.size(); ++i) {
        QCOMPARE(messages.at(i).info.json(), fromRows.at(i).info.json());
        QCOMPARE(messages.at(i).parts.size(), fromRows.at(i).parts.size());
    }
    QCOMPARE(messages.first().info.role(), Message::Role::User);
    QCOMPARE(messages.last().info.role(), Message::Role::Assistant);
}

void TestServerStore::readsTheNewestPageFirst()
{
    // A session's first page is the V1 route's newest messages (`?limit=`), not the whole
    // session (32 MB for L): OpenCode 1.18.34 answered `limit=1` with the newest message, in a
    // list, and a cursor to the older ones. The others are read after it, whole.
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const QList<MessageWithParts> all = recordedMessages(u"messages"_s);
    QVERIFY(all.size() >= 3);
    const JsonArray limitOne = recordedExchange(u"messages, limit 1"_s).responseBody.toArray();
    QCOMPARE(limitOne.size(), 1);
    QCOMPARE(limitOne.at(0).toObject().object(u"info").string(u"id"), all.last().info.id());
    const JsonArray body = recordedExchange(u"messages"_s).responseBody.toArray();
    const QString route = u"/session/"_s + v1Session() + u"/message"_s;
    server.route("GET", route, [body](const weft::test::FakeRequest &request) {
        const QUrlQuery query(QUrl(QString::fromUtf8(request.path)).query());
        const qsizetype limit = query.hasQueryItem(u"limit"_s) ? query.queryItemValue(u"limit"_s).toLongLong() : body.size();
        JsonArray page;
        for (qsizetype i = std::max<qsizetype>(0, body.size() - limit); i < body.size(); ++i)
            page.append(body.at(i));
        FakeOpencodeServer::Reply reply{200, toJson(page, 0)};
        if (limit < body.size())
            reply.headers.append(std::pair<QByteArray, QByteArray>("x-next-cursor", "eyJpZCI6Im1zZyJ9"));
        return reply;
    });
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);

    const int before = server.count("GET", route);
    const NewestMessages page = offThread([&] { return store->newestMessages(v1Session(), 2); });
    QCOMPARE(page.messages.size(), 2);
    for (qsizetype i = 0; i < 2; ++i)
        QCOMPARE(page.messages.at(i).toJson(), all.at(all.size() - 2 + i).toJson());
    QVERIFY(!page.olderListed);
    QVERIFY(page.olderIDs.isEmpty());
    QCOMPARE(server.count("GET", route), before + 1);
    QCOMPARE(QUrlQuery(QUrl(QString::fromUtf8(server.requests().last().path)).query()).queryItemValue(u"limit"_s), u"2"_s);
    QVERIFY(store->problems().isEmpty());

    // A session shorter than a page: all of it, nothing older.
    const NewestMessages whole = offThread([&] { return store->newestMessages(v1Session(), 100); });
    QCOMPARE(whole.messages.size(), all.size());
    QVERIFY(whole.olderListed);
    QVERIFY(whole.olderIDs.isEmpty());

    // A session read already, or one with V2 messages: from the whole read, its older IDs listed.
    server.routeRecorded(u"V2 messages after bash"_s);
    const QList<MessageWithParts> v2 = offThread([&] { return store->messagesWithParts(v2Session()); });
    QVERIFY(v2.size() >= 3);
    const NewestMessages v2Page = offThread([&] { return store->newestMessages(v2Session(), 2); });
    QCOMPARE(v2Page.messages.size(), 2);
    QCOMPARE(v2Page.messages.last().toJson(), v2.last().toJson());
    QVERIFY(v2Page.olderListed);
    QCOMPARE(v2Page.olderIDs.size(), v2.size() - 2);
}

void TestServerStore::readsAreGivenUpOnQuit()
{
    // A read (a long session's older messages, waited for on a worker thread) is given up when
    // the application is about to quit: its destructor waits for the thread pool, and would wait
    // for ever for an answer that does not come while it closes down.
    QTcpServer silent; // accepts, never answers
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    const ServerClient client(QUrl(u"http://127.0.0.1:%1"_s.arg(silent.serverPort())), u"secret"_s);
    QFuture<Result<JsonValue>> read = client.get(u"/session/ses_x/message"_s);
    QVERIFY(QTest::qWaitFor([&] { return silent.hasPendingConnections(); }, 10000));
    QVERIFY(!read.isFinished());
    QTimer::singleShot(0, qApp, &QCoreApplication::quit);
    qApp->exec(); // returns after aboutToQuit
    QVERIFY(QTest::qWaitFor([&] { return read.isFinished(); }, 10000));
    QVERIFY(!read.result());
}

void TestServerStore::readsEveryPageOfSessions()
{
    // OpenCode pages the session list (100 a page, `x-next-cursor`); 250 sessions in 3 pages.
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const JsonObject recorded = recordedExchange(u"session list"_s).responseBody.toArray().at(0).toObject();
    server.route("GET", u"/experimental/session"_s, [recorded](const test::FakeRequest &request) {
        const QUrlQuery query(QString::fromUtf8(request.path).section(u'?', 1));
        const int page = query.queryItemValue(u"cursor"_s).toInt();
        const bool archived = query.queryItemValue(u"archived"_s) == u"true";
        JsonArray sessions;
        for (int i = page * 100; i < std::min(250, (page + 1) * 100); ++i) {
            JsonObject s = recorded;
            s.insert(u"id"_s, u"ses_%1ffe0000000000000000000"_s.arg(i, 3, 10, QChar(u'0')));
            sessions.append(s);
        }
        FakeOpencodeServer::Reply reply{200, toJson(archived ? JsonArray() : sessions, 0)};
        if (!archived && page < 2)
            reply.headers.append({"x-next-cursor", QByteArray::number(page + 1)});
        return reply;
    });
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    const Result<QList<Session>> sessions = offThread([&] { return store->readSessions(); });
    QVERIFY(sessions);
    QCOMPARE(sessions->size(), 250);
    QCOMPARE(server.count("GET", u"/experimental/session"_s), 4); // 3 pages, then the archived ones
}

void TestServerStore::readErrorsAreReported()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    const QString unknown = u"ses_0000000000000000000000unkn"_s;
    server.route("GET", u"/session/"_s + unknown, 404, recordedExchange(u"unknown session"_s).responseBody);
    const Result<Session> missing = offThread([&] { return store->readSession(unknown); });
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.contains(u"HTTP 404"_s) && missing.error().message.contains(unknown),
             qPrintable(missing.error().toString()));
    // A damaged message is left out and reported; the rest is read.
    JsonArray messages = recordedExchange(u"messages"_s).responseBody.toArray();
    messages.append(JsonObject{{u"info"_s, JsonObject{{u"id"_s, u"../../etc"_s}}}, {u"parts"_s, JsonArray()}});
    server.route("GET", u"/session/"_s + v1Session() + u"/message"_s, 200, messages);
    QCOMPARE(offThread([&] { return store->messages(v1Session()); }).size(), messages.size() - 1);
    QCOMPARE(store->problems().size(), 1);
    // A server that went away: an error, not an empty session.
    store->forget(v1Session());
    server.route("GET", u"/session/"_s + v1Session() + u"/message"_s, 500, JsonObject{{u"error"_s, u"boom"_s}});
    const Result<QList<MessageWithParts>> failed = offThread([&] { return store->readMessages(v1Session()); });
    QVERIFY(!failed);
    QVERIFY2(failed.error().message.contains(u"HTTP 500"_s) && failed.error().message.contains(u"boom"_s),
             qPrintable(failed.error().toString()));
}

void TestServerStore::operationsSendWhatOpencodeExpects()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    for (const QString &name : {u"fork before the 2nd user message"_s, u"revert to the 2nd user message"_s, u"unrevert"_s,
                                u"delete the fork"_s, u"V1 prompt_async (bash tool asks)"_s, u"abort an idle session"_s,
                                u"reply to permission"_s})
        server.routeRecorded(name);
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    const QString id = v1Session();
    const QString directory = u"directory=/home/dev/src/demo"_s;
    auto last = [&] { return server.requests().last(); };
    auto lastQuery = [&] { return QString::fromUtf8(QByteArray::fromPercentEncoding(last().path)).section(u'?', 1); };

    const RecordedExchange forkExchange = recordedExchange(u"fork before the 2nd user message"_s);
    const QString messageID = forkExchange.requestBody.toObject().string(u"messageID");
    const Result<Session> forked = offThread([&] { return store->fork(id, messageID); });
    QVERIFY2(forked, qPrintable(forked ? QString() : forked.error().toString()));
    QCOMPARE(forked->id(), forkExchange.responseBody.toObject().string(u"id"));
    QCOMPARE(last().json, forkExchange.requestBody.toObject());
    QCOMPARE(lastQuery(), directory);

    const Result<Session> reverted = offThread([&] { return store->revert(id, messageID); });
    QVERIFY(reverted);
    QVERIFY(reverted->hasRevert());
    QCOMPARE(last().json, (JsonObject{{u"messageID"_s, messageID}}));
    const Result<Session> unreverted = offThread([&] { return store->unrevert(id); });
    QVERIFY(unreverted);
    QVERIFY(!unreverted->hasRevert());

    QVERIFY(offThread([&] { return store->prompt(id, u"RUN_BASH please"_s, u"build"_s, u"fake/m1"_s); }));
    QCOMPARE(last().json.value(u"parts"_s).toArray().at(0).toObject().string(u"text"), u"RUN_BASH please"_s);
    QCOMPARE(last().json.object(u"model"_s), (JsonObject{{u"providerID"_s, u"fake"_s}, {u"modelID"_s, u"m1"_s}}));
    QCOMPARE(last().json.string(u"agent"_s), u"build"_s);
    QCOMPARE(lastQuery(), directory);
    QVERIFY(!offThread([&] { return store->prompt(id, u"x"_s, {}, u"no-slash"_s); }));

    QVERIFY(offThread([&] { return store->abort(id); }));
    const RecordedExchange reply = recordedExchange(u"reply to permission"_s);
    QVERIFY(offThread([&] { return store->replyPermission(id, reply.path.section(u'/', 2, 2), u"once"_s); }));
    QCOMPARE(last().json, reply.requestBody.toObject());

    const QString forkID = recordedExchange(u"delete the fork"_s).path.section(u'/', 2, 2);
    QVERIFY(offThread([&] { return store->remove(forkID); }));
    QCOMPARE(last().method, QByteArray("DELETE"));
    // Removing through the Store interface (SessionService::remove) is the same request.
    server.route("GET", u"/session/"_s + forkID, 404, recordedExchange(u"get the deleted fork"_s).responseBody);
    const Result<Session> gone = offThread([&] { return store->readSession(forkID); });
    QVERIFY(!gone);
}

void TestServerStore::compactTakesTheSessionsModel()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    server.routeRecorded(u"summarize"_s);
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    QVERIFY(offThread([&] { return store->compact(v1Session()); }));
    QCOMPARE(server.requests().last().json, recordedExchange(u"summarize"_s).requestBody.toObject());
    QVERIFY(offThread([&] { return store->compact(v1Session(), u"other/big"_s); }));
    QCOMPARE(server.requests().last().json.string(u"modelID"_s), u"big"_s);
    server.route("POST", u"/session/"_s + v1Session() + u"/summarize"_s, 400,
                 JsonObject{{u"name"_s, u"BadRequest"_s}, {u"data"_s, JsonObject{{u"message"_s, u"no such model"_s}}}});
    const Result<void> failed = offThread([&] { return store->compact(v1Session(), u"x/y"_s); });
    QVERIFY(!failed);
    QVERIFY2(failed.error().message.contains(u"no such model"_s), qPrintable(failed.error().toString()));
}

void TestServerStore::writesAreRefused()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    const int requests = int(server.requests().size());
    QVERIFY(!store->writeSession(Session()));
    QVERIFY(!store->writeMessage(Message()));
    QVERIFY(!store->writePart(Part()));
    QVERIFY(!store->removeMessage(v1Session(), u"msg_x"_s));
    QCOMPARE(server.requests().size(), requests);
    // SessionService refuses its own writes before asking the store.
    SessionService service(store);
    QVERIFY(!service.rename(v1Session(), u"x"_s));
}

void TestServerStore::watcherFollowsRecordedStream()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    SessionService service(store);
    auto *watcher = new ServerEventWatcher(store);
    QSignalSpy started(&service, &SessionService::watchingStarted);
    QSignalSpy status(watcher, &ServerEventWatcher::sessionStatus);
    QHash<QString, QString> texts; // part ID -> text grown from deltas
    QHash<QString, Part> parts;
    QStringList messages;
    connect(&service, &SessionService::partUpdated, this, [&](const Part &part, const QString &delta) {
        parts.insert(part.id(), part);
        if (!delta.isEmpty())
            texts[part.id()] += delta;
    });
    connect(&service, &SessionService::messageUpdated, this, [&](const Message &m) { messages.append(m.id()); });
    service.startWatching(watcher);
    QTRY_COMPARE(started.size(), 1);
    QCOMPARE(watcher->state(), ServerEventWatcher::State::Connected);

    const QList<QByteArray> frames = recordedEvents(u"events-global-v1-prompt.sse"_s);
    QVERIFY(frames.size() > 50);
    for (const QByteArray &frame : frames.mid(1)) // the recorded server.connected is the fake's own
        server.pushFrame(frame);
    QTRY_VERIFY(!status.isEmpty() && status.last().at(1).toString() == u"idle");

    // Every part and message the server recorded, in its final state, as V1 data.
    const QList<MessageWithParts> expected = recordedMessages(u"messages"_s);
    for (const MessageWithParts &m : expected) {
        QVERIFY2(messages.contains(m.info.id()), qPrintable(m.info.id()));
        for (const Part &p : m.parts) {
            QVERIFY2(parts.contains(p.id()), qPrintable(p.id()));
            QCOMPARE(parts.value(p.id()).json(), p.json());
        }
    }
    // The streamed text arrived as deltas that add up to it.
    bool sawDeltas = false;
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        QCOMPARE(it.value(), parts.value(it.key()).text());
        sawDeltas = true;
    }
    QVERIFY(sawDeltas);
    // Sync duplicates, plugins and heartbeats are not changes.
    QVERIFY(watcher->eventCount() >= frames.size() - 1);
}

void TestServerStore::watcherReconnectsAndCatchesUp()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    SessionService service(store);
    auto *watcher = new ServerEventWatcher(store);
    QSignalSpy opened(&server, &FakeOpencodeServer::eventStreamOpened);
    QSignalSpy external(&service, &SessionService::sessionChangedExternally);
    QSignalSpy states(watcher, &ServerEventWatcher::stateChanged);
    service.startWatching(watcher);
    service.followSession(v1Session());
    QTRY_COMPARE(opened.size(), 1);
    QTRY_COMPARE(watcher->state(), ServerEventWatcher::State::Connected);

    server.dropEventStreams();
    QTRY_COMPARE(watcher->state(), ServerEventWatcher::State::Reconnecting);
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 2, 5000);
    QTRY_COMPARE(watcher->state(), ServerEventWatcher::State::Connected);
    // The open session is read again: what streamed while the connection was down is not lost.
    QTRY_VERIFY(!external.isEmpty());
    QCOMPARE(external.last().at(0).toString(), v1Session());

    // Stopped: its stream is closed, and no reconnection follows: the watcher is gone, with its
    // reconnection timer and its network manager. The stream is not dropped by the server here: a
    // drop racing the watcher's own abort can make Qt's HTTP thread send the request once more
    // before it sees the abort (seen under ASan), which tests Qt, not the watcher.
    const QPointer<ServerEventWatcher> stopped = watcher;
    service.stopWatching();
    QVERIFY(stopped.isNull());
    QTRY_COMPARE(server.openEventStreams(), 0);
    QCOMPARE(opened.size(), 2);
}

void TestServerStore::watcherReportsPermissions()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    ServerEventWatcher watcher(store);
    QSignalSpy started(&watcher, &StoreWatcher::started);
    QSignalSpy asked(&watcher, &ServerEventWatcher::permissionAsked);
    QSignalSpy replied(&watcher, &ServerEventWatcher::permissionReplied);
    watcher.start();
    QTRY_COMPARE(started.size(), 1);
    for (const QByteArray &frame : recordedEvents(u"events-global-permission.sse"_s).mid(1))
        server.pushFrame(frame);
    QTRY_COMPARE(asked.size(), 1);
    const JsonObject request = asked.first().at(0).value<JsonObject>();
    QCOMPARE(request.string(u"permission"_s), u"bash"_s);
    QCOMPARE(request.string(u"sessionID"_s), v1Session());
    QTRY_COMPARE(replied.size(), 1);
}

void TestServerStore::v2SessionsTakeV2Routes()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    server.routeRecorded(u"V2 messages after bash"_s);
    server.routeRecorded(u"V2 prompt (write tool, then text)"_s);
    server.routeRecorded(u"V2 reply to permission"_s);
    server.route("POST", u"/api/session/"_s + v2Session() + u"/interrupt"_s, 200, JsonObject{{u"data"_s, true}});
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    // Learnt from its messages: V1's route has none, V2's has them.
    QVERIFY(offThread([&] { return store->isV2(v2Session()); }));
    QVERIFY(!offThread([&] { return store->isV2(v1Session()); }));

    QVERIFY(offThread([&] { return store->prompt(v2Session(), u"WRITE_V2 again"_s, {}, {}, u"msg_21317943c0010HpxpdXP74vXvb"_s); }));
    const test::FakeRequest prompt = server.requests().last();
    QCOMPARE(QString::fromUtf8(prompt.path), u"/api/session/"_s + v2Session() + u"/prompt"_s);
    QCOMPARE(prompt.json, (JsonObject{{u"prompt"_s, JsonObject{{u"text"_s, u"WRITE_V2 again"_s}}},
                                      {u"id"_s, u"msg_21317943c0010HpxpdXP74vXvb"_s}}));
    QVERIFY(offThread([&] { return store->abort(v2Session()); }));
    QCOMPARE(QString::fromUtf8(server.requests().last().path), u"/api/session/"_s + v2Session() + u"/interrupt"_s);
    const RecordedExchange reply = recordedExchange(u"V2 reply to permission"_s);
    const QString requestID = reply.path.section(u'/', 5, 5);
    QVERIFY(requestID.startsWith(u"per_"_s));
    QVERIFY(offThread([&] { return store->replyPermission(v2Session(), requestID, u"once"_s, true); }));
    QCOMPARE(QString::fromUtf8(server.requests().last().path), reply.path);
    QCOMPARE(server.requests().last().json, reply.requestBody.toObject());
}

void TestServerStore::watcherFollowsV2Sessions()
{
    FakeOpencodeServer server;
    QVERIFY(server.listen());
    server.routeAllRecorded();
    const std::shared_ptr<ServerStore> store = connectTo(server);
    QVERIFY(store);
    SessionService service(store);
    auto *watcher = new ServerEventWatcher(store);
    QSignalSpy started(&service, &SessionService::watchingStarted);
    QSignalSpy status(watcher, &ServerEventWatcher::sessionStatus);
    QSignalSpy external(&service, &SessionService::sessionChangedExternally);
    service.startWatching(watcher);
    QTRY_COMPARE(started.size(), 1);
    for (const QByteArray &frame : recordedEvents(u"events-global-v2-prompt.sse"_s).mid(1))
        server.pushFrame(frame);
    // Busy while it steps, idle after the step that asked for no tool; the session is read again
    // (a few times a second at most, not once per delta).
    QTRY_VERIFY(!status.isEmpty() && status.last().at(1).toString() == u"idle");
    QCOMPARE(status.first().at(0).toString(), v2Session());
    QCOMPARE(status.first().at(1).toString(), u"busy"_s);
    QTRY_VERIFY(!external.isEmpty());
    QCOMPARE(external.last().at(0).toString(), v2Session());
    QVERIFY(external.size() <= 3);
    QVERIFY(offThread([&] { return store->isV2(v2Session()); }));
}

QTEST_GUILESS_MAIN(TestServerStore)
#include "tst_serverstore.moc"
