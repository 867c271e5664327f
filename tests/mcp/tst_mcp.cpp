// SPDX-License-Identifier: GPL-3.0-or-later
// The MCP client against fake servers: the stdio test server (fakemcpstdio) and a loopback
// streamable-HTTP server, with handshakes, tool lists, calls, errors, dying, silent and hostile
// servers; and a run of the agent loop that calls an MCP tool.

#include "fakellmserver.h"
#include "fakemcpserver.h"
#include "runfixture.h"

#include "app/promptattachments.h"
#include "core/network.h"
#include "mcp/mcpconfig.h"
#include "mcp/mcpmanager.h"
#include "processor/tools/mcptool.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "session/sessionservice.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{

JsonObject local(const QStringList &args = {}, const JsonObject &more = {})
{
    return fakeMcpLocal(QString::fromUtf8(FAKE_MCP_STDIO), args, more);
}

JsonObject remote(const QString &url, const JsonObject &more = {})
{
    JsonObject o{{u"type"_s, u"remote"_s}, {u"url"_s, url}};
    for (qsizetype i = 0; i < more.size(); ++i)
        o.insert(more.keyAt(i), more.valueAt(i));
    return o;
}

/// A tool context whose permission questions are answered with @p decision.
struct Context {
    QTemporaryDir dir;
    ToolContext context;
    QStringList asked;
    explicit Context(PermissionDecision decision = PermissionDecision::Allow)
    {
        context.sessionID = u"ses_test"_s;
        context.directory = dir.path();
        context.worktree = dir.path();
        context.dataDir = dir.path();
        context.abortFlag = std::make_shared<std::atomic_bool>(false);
        context.ask = [this, decision](const PermissionAsk &a) {
            asked.append(a.permission + u' ' + a.patterns.join(u','));
            return decision;
        };
    }
};

std::shared_ptr<McpTool> findTool(McpManager &manager, const QString &key)
{
    for (const McpToolInfo &info : manager.registry()->tools()) {
        if (info.key() == key)
            return std::make_shared<McpTool>(manager.registry(), info);
    }
    return {};
}

/// Calls tool @p key on the calling thread (the test's), as a run's worker thread would.
ToolResult call(McpManager &manager, const QString &key, const JsonObject &input, Context &ctx)
{
    std::shared_ptr<McpTool> tool = findTool(manager, key);
    if (!tool)
        return ToolResult::failure(u"no tool "_s + key);
    // The MCP thread does the work; this thread only waits, as a run's worker does.
    return tool->execute(ctx.context, input);
}

} // namespace

class TestMcp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void config();
    void sanitize();
    void stdioHandshakeAndTools();
    void stdioPagination();
    void stdioCalls();
    void permissionDeniedCallsNothing();
    void stdioServerDiesMidCall();
    void stdioCallTimesOut();
    void abortStopsWaiting();
    void hostileOutput();
    void handshakeNeverAnswered();
    void serverExitsAtStart();
    void missingProgram();
    void unsupportedProtocol();
    void toolsListChanged();
    void disabledAndReconfigured();
    void httpHandshakeAndCalls_data();
    void httpHandshakeAndCalls();
    void httpServerDropsConnection();
    void httpLegacySseFallback();
    void httpUnreachable();
    void httpRedirectElsewhereKeepsTheHeaders();
    void runCallsMcpTool();
    void projectServersAreAdded();
    void promptRunsAsCommand();
    void resourcesAreAttached();
};

void TestMcp::config()
{
    const JsonObject mcp{
        {u"files"_s, JsonObject{{u"type"_s, u"local"_s},
                                {u"command"_s, JsonArray{u"npx"_s, u"-y"_s, u"server"_s}},
                                {u"environment"_s, JsonObject{{u"TOKEN"_s, u"x"_s}}},
                                {u"timeout"_s, 1500}}},
        {u"web"_s, JsonObject{{u"type"_s, u"remote"_s},
                              {u"url"_s, u"https://example.com/mcp"_s},
                              {u"headers"_s, JsonObject{{u"Authorization"_s, u"Bearer t"_s}}},
                              {u"enabled"_s, false}}},
        {u"notype"_s, JsonObject{{u"command"_s, JsonArray{u"x"_s}}}},
        {u"nocommand"_s, JsonObject{{u"type"_s, u"local"_s}, {u"command"_s, JsonArray()}}},
        {u"badurl"_s, JsonObject{{u"type"_s, u"remote"_s}, {u"url"_s, u"file:///etc/passwd"_s}}},
        {u"badheader"_s, JsonObject{{u"type"_s, u"remote"_s},
                                    {u"url"_s, u"http://h/"_s},
                                    {u"headers"_s, JsonObject{{u"X"_s, u"a\r\nInjected: 1"_s}}}}},
        {u"badtimeout"_s, JsonObject{{u"type"_s, u"local"_s}, {u"command"_s, JsonArray{u"x"_s}}, {u"timeout"_s, -5}}},
        {u"notobject"_s, u"oops"_s},
    };
    const QList<McpServerConfig> servers = parseMcpConfig(mcp);
    QCOMPARE(servers.size(), 8);
    QCOMPARE(servers.at(0).name, u"files"_s);
    QVERIFY(servers.at(0).error.isEmpty());
    QCOMPARE(servers.at(0).command, (QStringList{u"npx"_s, u"-y"_s, u"server"_s}));
    QCOMPARE(servers.at(0).environment.size(), 1);
    QCOMPARE(servers.at(0).listTimeoutMs(), qint64(1500));
    QCOMPARE(servers.at(0).requestTimeoutMs(), qint64(1500));
    QVERIFY(servers.at(1).error.isEmpty());
    QCOMPARE(servers.at(1).type, McpServerConfig::Type::Remote);
    QVERIFY(!servers.at(1).enabled);
    QCOMPARE(servers.at(1).headers.constFirst().second, QByteArray("Bearer t"));
    QCOMPARE(servers.at(1).listTimeoutMs(), qint64(5000));
    QCOMPARE(servers.at(1).requestTimeoutMs(), qint64(60000));
    for (int i = 2; i < 8; ++i)
        QVERIFY2(servers.at(i).error.startsWith(u"invalid configuration: "_s), qPrintable(servers.at(i).name));
    QVERIFY(servers.at(2).error.contains(u"type"_s));
    QVERIFY(servers.at(4).error.contains(u"url"_s));
    QVERIFY(servers.at(5).error.contains(u"headers.X"_s));
}

void TestMcp::sanitize()
{
    QCOMPARE(mcpToolKey(u"my server"_s, u"read.file/now"_s), u"my_server_read_file_now"_s);
    QCOMPARE(mcpToolKey(u"gh"_s, u"create-issue"_s), u"gh_create-issue"_s);
    QCOMPARE(mcpSanitize(u"日本"_s), u"__"_s);
}

void TestMcp::stdioHandshakeAndTools()
{
    McpManager manager;
    QSignalSpy changed(&manager, &McpManager::serverChanged);
    manager.configure({{u"fake"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    const auto status = manager.server(u"fake"_s);
    QVERIFY(status);
    QCOMPARE(McpServerStatus::stateName(status->state), u"connected"_s);
    QCOMPARE(status->transport, u"stdio"_s);
    QCOMPARE(status->serverName, u"fake-mcp"_s);
    QCOMPARE(status->serverVersion, u"1.2.3"_s);
    QCOMPARE(status->protocolVersion, McpProtocolVersion.toString());
    QCOMPARE(status->toolCount, 11);
    QCOMPARE(status->promptCount, 2);
    QVERIFY(status->handshakeMs >= 0 && status->connectMs >= status->handshakeMs);
    QVERIFY(status->log.join(u'\n').contains(u"fake-mcp: ready"_s)); // stderr is kept
    qInfo("stdio: handshake %lld ms, connected with tools in %lld ms", status->handshakeMs, status->connectMs);
    QTRY_VERIFY(changed.size() >= 2);

    const QList<McpToolInfo> tools = manager.registry()->tools();
    QStringList keys;
    for (const McpToolInfo &t : tools)
        keys.append(t.key());
    QVERIFY(keys.contains(u"fake_echo"_s));
    QVERIFY(keys.contains(u"fake_my_tool_name"_s));
    const auto echo = findTool(manager, u"fake_echo"_s);
    QCOMPARE(echo->description(), u"Echoes the text"_s);
    QCOMPARE(echo->parameters().value(u"additionalProperties"_s), JsonValue(false));
    QCOMPARE(echo->parameters().object(u"properties"_s).object(u"text"_s).string(u"type"_s), u"string"_s);
    // A tool without a schema still gets an object schema.
    const auto odd = findTool(manager, u"fake_my_tool_name"_s);
    QCOMPARE(odd->parameters().string(u"type"_s), u"object"_s);
    QVERIFY(odd->parameters().value(u"properties"_s).isObject());
    QCOMPARE(manager.registry()->prompts().constFirst().requiredArguments, QStringList{u"name"_s});

    // The runs get the same tools, of the servers their config names.
    QCOMPARE(McpTool::agentTools(manager.registry(), {u"fake"_s}).size(), 11);
    QVERIFY(McpTool::agentTools(manager.registry(), {u"other"_s}).isEmpty());
}

void TestMcp::stdioPagination()
{
    McpManager manager;
    manager.configure({{u"paged"_s, local({u"--page-size"_s, u"2"_s})}});
    QVERIFY(manager.waitForStartup(20000));
    QCOMPARE(manager.server(u"paged"_s)->toolCount, 11);
}

void TestMcp::stdioCalls()
{
    McpManager manager;
    manager.configure({{u"fake"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    Context ctx;
    ToolResult r = call(manager, u"fake_echo"_s, {{u"text"_s, u"hi"_s}}, ctx);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.output, u"echo: hi"_s);
    QCOMPARE(ctx.asked, QStringList{u"fake_echo *"_s}); // OpenCode's permission: the tool's key, pattern *

    r = call(manager, u"fake_add"_s, {{u"a"_s, 2}, {u"b"_s, 3}}, ctx);
    QCOMPARE(r.output, u"5"_s);

    r = call(manager, u"fake_image"_s, {}, ctx);
    QVERIFY(r.ok);
    QCOMPARE(r.output, u"an image"_s);
    QCOMPARE(r.attachments.size(), 1);
    QCOMPARE(r.attachments.at(0).toObject().string(u"url"_s), u"data:image/png;base64,iVBORw0KGgo="_s);
    QCOMPARE(r.attachments.at(0).toObject().string(u"mime"_s), u"image/png"_s);

    r = call(manager, u"fake_resource"_s, {}, ctx);
    QCOMPARE(r.output, u"resource text"_s);
    QCOMPARE(r.attachments.size(), 1);
    QCOMPARE(r.attachments.at(0).toObject().string(u"filename"_s), u"file:///data.bin"_s);
    QCOMPARE(r.attachments.at(0).toObject().string(u"mime"_s), u"application/octet-stream"_s);

    r = call(manager, u"fake_fail"_s, {}, ctx);
    QVERIFY(!r.ok);
    QCOMPARE(r.error, u"something broke"_s);

    r = call(manager, u"fake_big"_s, {}, ctx);
    QVERIFY(r.ok);
    QCOMPARE(r.metadata.value(u"truncated"_s), JsonValue(true));
    QVERIFY(QFile::exists(r.metadata.string(u"outputPath"_s)));
    QVERIFY(r.output.contains(u"truncated"_s));

    r = call(manager, u"fake_my_tool_name"_s, {}, ctx);
    QCOMPARE(r.output, u"sanitised"_s);

    // A protocol-level error (unknown tool) is a tool failure with the server's words.
    Result<JsonValue> raw = manager.registry()->request(u"fake"_s, u"tools/call"_s, {{u"name"_s, u"nope"_s}});
    QVERIFY(!raw);
    QCOMPARE(raw.error().message, u"MCP error -32602: Unknown tool: nope"_s);
    // A server that is not configured.
    raw = manager.registry()->request(u"other"_s, u"ping"_s, {});
    QVERIFY(!raw);
    QVERIFY(raw.error().message.contains(u"not connected"_s));

    // Latency of a call, through the MCP thread and back.
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 50; ++i)
        QVERIFY(call(manager, u"fake_echo"_s, {{u"text"_s, u"x"_s}}, ctx).ok);
    qInfo("stdio: %.2f ms per tools/call (50 calls)", double(clock.nsecsElapsed()) / 1e6 / 50);
}

void TestMcp::permissionDeniedCallsNothing()
{
    McpManager manager;
    manager.configure({{u"fake"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    Context ctx(PermissionDecision::Deny);
    const ToolResult r = call(manager, u"fake_echo"_s, {{u"text"_s, u"hi"_s}}, ctx);
    QVERIFY(!r.ok);
    QVERIFY(r.error.contains(u"fake_echo"_s));
    // The server never saw a call: the next one is the first it answers.
    Context allowed;
    QVERIFY(call(manager, u"fake_echo"_s, {{u"text"_s, u"a"_s}}, allowed).ok);
}

void TestMcp::stdioServerDiesMidCall()
{
    McpManager manager;
    QSignalSpy failed(&manager, &McpManager::serverFailed);
    manager.configure({{u"fake"_s, local()}, {u"other"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    Context ctx;
    const ToolResult r = call(manager, u"fake_die"_s, {}, ctx);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"exited with code 3"_s), qPrintable(r.error));
    QVERIFY2(r.error.contains(u"dying on purpose"_s), qPrintable(r.error));
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), u"fake"_s);
    QCOMPARE(manager.server(u"fake"_s)->state, McpServerStatus::State::Failed);
    QVERIFY(manager.server(u"fake"_s)->error.contains(u"dying on purpose"_s));
    // Its tools are gone; the other server keeps working.
    QVERIFY(!findTool(manager, u"fake_echo"_s));
    QVERIFY(call(manager, u"other_echo"_s, {{u"text"_s, u"still here"_s}}, ctx).ok);
    // And it can be reconnected.
    QVERIFY(manager.reconnect(u"fake"_s));
    QVERIFY(!manager.reconnect(u"unknown"_s));
    QVERIFY(manager.waitForStartup(20000));
    QCOMPARE(manager.server(u"fake"_s)->state, McpServerStatus::State::Connected);
    QCOMPARE(call(manager, u"fake_echo"_s, {{u"text"_s, u"back"_s}}, ctx).output, u"echo: back"_s);
}

void TestMcp::stdioCallTimesOut()
{
    McpManager manager;
    manager.configure({{u"fake"_s, local({}, {{u"timeout"_s, 1500}})}});
    QVERIFY(manager.waitForStartup(20000));
    Context ctx;
    QElapsedTimer clock;
    clock.start();
    const ToolResult r = call(manager, u"fake_hang"_s, {}, ctx);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"did not answer tools/call within 1500 ms"_s), qPrintable(r.error));
    QVERIFY(clock.elapsed() >= 1500);
    // The server was told, and one slow call does not end the session.
    QTRY_VERIFY(manager.server(u"fake"_s)->log.join(u'\n').contains(u"cancelled request"_s));
    QCOMPARE(manager.server(u"fake"_s)->state, McpServerStatus::State::Connected);
    QVERIFY(call(manager, u"fake_echo"_s, {{u"text"_s, u"x"_s}}, ctx).ok);
}

void TestMcp::abortStopsWaiting()
{
    McpManager manager;
    manager.configure({{u"fake"_s, local()}}); // 60 s call timeout
    QVERIFY(manager.waitForStartup(20000));
    Context ctx;
    std::shared_ptr<McpTool> tool = findTool(manager, u"fake_hang"_s);
    QVERIFY(tool);
    std::atomic_bool done = false;
    ToolResult result;
    std::thread worker([&] {
        result = tool->execute(ctx.context, {});
        done = true;
    });
    // Wait until the server has the call, then abort as Stop does.
    QTRY_VERIFY(manager.server(u"fake"_s)->log.join(u'\n').contains(u"call hang"_s));
    ctx.context.abortFlag->store(true);
    QTRY_VERIFY_WITH_TIMEOUT(done.load(), 5000);
    worker.join();
    QVERIFY(!result.ok);
    QCOMPARE(result.error, u"Tool execution aborted"_s);
    QTRY_VERIFY(manager.server(u"fake"_s)->log.join(u'\n').contains(u"cancelled request"_s));
    QCOMPARE(manager.server(u"fake"_s)->state, McpServerStatus::State::Connected);
}

void TestMcp::hostileOutput()
{
    McpManager manager;
    manager.configure({{u"fake"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    Context ctx;
    const ToolResult r = call(manager, u"fake_hostile"_s, {}, ctx);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.output, u"survived"_s);
    const QString log = manager.server(u"fake"_s)->log.join(u'\n');
    QVERIFY2(log.contains(u"ignored a line on stdout that is not a JSON-RPC message"_s), qPrintable(log));
    QVERIFY(log.contains(u"did not send (id 987654)"_s));
    QCOMPARE(manager.server(u"fake"_s)->state, McpServerStatus::State::Connected);
    QVERIFY(call(manager, u"fake_echo"_s, {{u"text"_s, u"after"_s}}, ctx).ok);
}

void TestMcp::handshakeNeverAnswered()
{
    McpManager manager;
    QSignalSpy failed(&manager, &McpManager::serverFailed);
    manager.configure({{u"silent"_s, local({u"--no-initialize"_s}, {{u"timeout"_s, 300}})}, {u"fake"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    const auto silent = manager.server(u"silent"_s);
    QCOMPARE(silent->state, McpServerStatus::State::Failed);
    QVERIFY2(silent->error.contains(u"did not answer initialize within 300 ms"_s), qPrintable(silent->error));
    QCOMPARE(manager.server(u"fake"_s)->state, McpServerStatus::State::Connected);
    QTRY_COMPARE(failed.size(), 1);
}

void TestMcp::serverExitsAtStart()
{
    McpManager manager;
    manager.configure({{u"broken"_s, local({u"--exit-at-start"_s})}});
    QVERIFY(manager.waitForStartup(20000));
    const auto s = manager.server(u"broken"_s);
    QCOMPARE(s->state, McpServerStatus::State::Failed);
    QVERIFY2(s->error.contains(u"exited with code 2"_s), qPrintable(s->error));
    QVERIFY2(s->error.contains(u"FAKE_TOKEN is not set"_s), qPrintable(s->error));
}

void TestMcp::missingProgram()
{
    McpManager manager;
    manager.configure({{u"ghost"_s, JsonObject{{u"type"_s, u"local"_s},
                                                {u"command"_s, JsonArray{u"/nonexistent/weft-mcp-server"_s}}}}});
    QVERIFY(manager.waitForStartup(20000));
    const auto s = manager.server(u"ghost"_s);
    QCOMPARE(s->state, McpServerStatus::State::Failed);
    QVERIFY2(s->error.startsWith(u"could not start \"/nonexistent/weft-mcp-server\""_s), qPrintable(s->error));
}

void TestMcp::unsupportedProtocol()
{
    McpManager manager;
    manager.configure({{u"future"_s, local({u"--protocol"_s, u"2099-01-01"_s})}});
    QVERIFY(manager.waitForStartup(20000));
    const auto s = manager.server(u"future"_s);
    QCOMPARE(s->state, McpServerStatus::State::Failed);
    QVERIFY(s->error.contains(u"\"2099-01-01\""_s));
}

void TestMcp::toolsListChanged()
{
    McpManager manager;
    manager.configure({{u"fake"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    QVERIFY(!findTool(manager, u"fake_late"_s));
    Context ctx;
    QCOMPARE(call(manager, u"fake_notify"_s, {}, ctx).output, u"notified"_s);
    QTRY_VERIFY(findTool(manager, u"fake_late"_s));
    QCOMPARE(manager.server(u"fake"_s)->toolCount, 12);
}

void TestMcp::disabledAndReconfigured()
{
    McpManager manager;
    manager.configure({{u"off"_s, local({}, {{u"enabled"_s, false}})}, {u"bad"_s, JsonObject{{u"type"_s, u"x"_s}}}});
    QVERIFY(manager.waitForStartup(20000));
    QCOMPARE(manager.server(u"off"_s)->state, McpServerStatus::State::Disabled);
    QCOMPARE(manager.server(u"bad"_s)->state, McpServerStatus::State::Failed);
    QVERIFY(manager.registry()->tools().isEmpty());
    // OpenCode's connect: a disabled server can be started by hand.
    QVERIFY(manager.reconnect(u"off"_s));
    QVERIFY(manager.waitForStartup(20000));
    QCOMPARE(manager.server(u"off"_s)->state, McpServerStatus::State::Connected);

    // A new config: unchanged servers keep running, removed ones stop, new ones start.
    manager.configure({{u"a"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    Context ctx;
    QVERIFY(call(manager, u"a_echo"_s, {{u"text"_s, u"x"_s}}, ctx).ok);
    const qint64 connected = manager.server(u"a"_s)->connectMs;
    manager.configure({{u"a"_s, local()}, {u"b"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    QCOMPARE(manager.servers().size(), 2);
    QCOMPARE(manager.server(u"a"_s)->connectMs, connected);
    QVERIFY(call(manager, u"a_echo"_s, {{u"text"_s, u"x"_s}}, ctx).ok);
    manager.configure({});
    QVERIFY(manager.servers().isEmpty());
    QVERIFY(manager.registry()->tools().isEmpty());
}

void TestMcp::httpHandshakeAndCalls_data()
{
    QTest::addColumn<bool>("sse");
    QTest::newRow("json") << false;
    QTest::newRow("sse") << true;
}

void TestMcp::httpHandshakeAndCalls()
{
    QFETCH(bool, sse);
    FakeMcpHttpServer::Options options;
    options.sse = sse;
    options.logic.pageSize = 4;
    FakeMcpHttpServer server(options);
    QVERIFY(server.listen());
    McpManager manager;
    manager.configure({{u"web"_s, remote(server.url(), {{u"headers"_s, JsonObject{{u"Authorization"_s, u"Bearer abc"_s}}},
                                                        {u"timeout"_s, 1500}})}});
    QVERIFY(manager.waitForStartup(20000));
    const auto status = manager.server(u"web"_s);
    QCOMPARE(status->state, McpServerStatus::State::Connected);
    QCOMPARE(status->transport, u"streamable HTTP"_s);
    QCOMPARE(status->toolCount, 11);
    qInfo("HTTP (%s): handshake %lld ms, connected with tools in %lld ms", sse ? "SSE" : "JSON", status->handshakeMs,
          status->connectMs);

    Context ctx;
    ToolResult r = call(manager, u"web_echo"_s, {{u"text"_s, u"over http"_s}}, ctx);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.output, u"echo: over http"_s);
    r = call(manager, u"web_fail"_s, {}, ctx);
    QCOMPARE(r.error, u"something broke"_s);
    r = call(manager, u"web_hang"_s, {}, ctx);
    QVERIFY2(r.error.contains(u"within 1500 ms"_s), qPrintable(r.error));
    if (sse) {
        r = call(manager, u"web_hostile"_s, {}, ctx);
        QCOMPARE(r.output, u"survived"_s);
        QCOMPARE(call(manager, u"web_notify"_s, {}, ctx).output, u"notified"_s);
        QTRY_VERIFY(findTool(manager, u"web_late"_s));
    }
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 50; ++i)
        QVERIFY(call(manager, u"web_echo"_s, {{u"text"_s, u"x"_s}}, ctx).ok);
    qInfo("HTTP (%s): %.2f ms per tools/call (50 calls)", sse ? "SSE" : "JSON", double(clock.nsecsElapsed()) / 1e6 / 50);

    // What went over the wire: the config's headers, Accept, the session and protocol version.
    const QList<FakeRequest> &requests = server.requests();
    QVERIFY(requests.size() >= 5);
    const FakeRequest &init = requests.constFirst();
    QCOMPARE(init.method, QByteArray("POST"));
    QCOMPARE(init.json.string(u"method"_s), u"initialize"_s);
    QCOMPARE(init.json.object(u"params"_s).string(u"protocolVersion"_s), McpProtocolVersion.toString());
    QCOMPARE(init.header("authorization"), QByteArray("Bearer abc"));
    QCOMPARE(init.header("accept"), QByteArray("application/json, text/event-stream"));
    QVERIFY(!init.hasHeader("mcp-session-id"));
    const FakeRequest &later = requests.constLast();
    QCOMPARE(later.header("mcp-session-id"), QByteArray("fake-session-1"));
    QCOMPARE(later.header("mcp-protocol-version"), McpProtocolVersion.toLatin1());
    QCOMPARE(later.header("authorization"), QByteArray("Bearer abc"));
    QVERIFY(server.methods().contains(u"notifications/initialized"_s));
    bool listened = false;
    for (const FakeRequest &req : requests)
        listened = listened || (req.method == "GET" && req.header("accept") == "text/event-stream");
    QVERIFY(listened); // the GET stream for the server's notifications was tried (405 here)
}

void TestMcp::httpServerDropsConnection()
{
    FakeMcpHttpServer server;
    QVERIFY(server.listen());
    McpManager manager;
    manager.configure({{u"web"_s, remote(server.url())}});
    QVERIFY(manager.waitForStartup(20000));
    Context ctx;
    const ToolResult r = call(manager, u"web_die"_s, {}, ctx);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.startsWith(u"MCP server \"web\": "_s), qPrintable(r.error));
    // A dropped request is that call's failure; the server may still answer others.
    QVERIFY(call(manager, u"web_echo"_s, {{u"text"_s, u"x"_s}}, ctx).ok);
}

void TestMcp::httpLegacySseFallback()
{
    FakeMcpHttpServer::Options options;
    options.legacySse = true;
    FakeMcpHttpServer server(options);
    QVERIFY(server.listen());
    McpManager manager;
    manager.configure({{u"old"_s, remote(server.url())}});
    QVERIFY(manager.waitForStartup(20000));
    const auto status = manager.server(u"old"_s);
    QVERIFY2(status->state == McpServerStatus::State::Connected, qPrintable(status->error));
    QCOMPARE(status->transport, u"SSE"_s);
    Context ctx;
    QCOMPARE(call(manager, u"old_echo"_s, {{u"text"_s, u"legacy"_s}}, ctx).output, u"echo: legacy"_s);
}

void TestMcp::httpUnreachable()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    McpManager manager;
    manager.configure({{u"gone"_s, remote(u"http://127.0.0.1:%1/mcp"_s.arg(port))}});
    QVERIFY(manager.waitForStartup(20000));
    const auto status = manager.server(u"gone"_s);
    QCOMPARE(status->state, McpServerStatus::State::Failed);
    QVERIFY2(status->error.startsWith(u"streamable HTTP: "_s) && status->error.contains(u"; SSE: "_s),
             qPrintable(status->error));
}

void TestMcp::httpRedirectElsewhereKeepsTheHeaders()
{
    // An MCP URL that redirects to another host:port: the config's headers (a bearer token here)
    // are not sent there, by either transport, and the server fails with the reason.
    FakeMcpHttpServer elsewhere;
    QVERIFY(elsewhere.listen());
    FakeLlmServer redirector;
    QVERIFY(redirector.listen());
    for (const int status : {307, 302}) { // the streamable HTTP POST, then the SSE GET
        FakeReply moved;
        moved.status = status;
        moved.framing = FakeReply::Framing::ContentLength;
        moved.withHeader("Location", elsewhere.url().toUtf8());
        redirector.enqueue(moved);
    }
    McpManager manager;
    manager.configure({{u"web"_s, remote(redirector.baseUrl(u"/mcp"_s).toString(),
                                         {{u"headers"_s, JsonObject{{u"Authorization"_s, u"Bearer abc"_s}}}})}});
    // The redirector answers on this thread: wait with its events running.
    QTRY_VERIFY_WITH_TIMEOUT(manager.server(u"web"_s)->state != McpServerStatus::State::Connecting, 20000);
    const auto status = manager.server(u"web"_s);
    QCOMPARE(status->state, McpServerStatus::State::Failed);
    const QString refusal = u"http://127.0.0.1:%1 redirected to %2, another origin"_s.arg(redirector.port())
                                .arg(Network::origin(QUrl(elsewhere.url())));
    QVERIFY2(status->error.startsWith(u"streamable HTTP: "_s + refusal), qPrintable(status->error));
    QVERIFY2(status->error.contains(u"; SSE: "_s + refusal), qPrintable(status->error));
    QCOMPARE(redirector.requests().size(), 2);
    for (const FakeRequest &r : redirector.requests())
        QCOMPARE(r.header("authorization"), QByteArray("Bearer abc"));
    QCOMPARE(elsewhere.requests().size(), 0);
}

void TestMcp::runCallsMcpTool()
{
    clearProviderKeys();
    RunFixture fixture;
    QVERIFY(fixture.setUp());
    const QString file = fixture.writeConfig({{u"mcp"_s, JsonObject{{u"fake"_s, local()}}}});
    Result<ProcessorSetup> setup = loadProcessorSetup(file, fixture.data->path());
    QVERIFY2(setup, qPrintable(setup ? QString() : setup.error().toString()));
    QVERIFY(setup->config.mcpServers);
    QVERIFY(McpManager::exists());

    OpenAiStream call;
    call.role().toolCallStart(0, u"call_1"_s, u"fake_echo"_s, u"{\"text\":\"from the model\"}"_s);
    call.finish(u"tool_calls"_s).usage(100, 10).done();
    fixture.server->enqueue(FakeReply::sse(call.bytes()));
    fixture.server->enqueue(FakeReply::sse(textReply({u"Done."_s})));
    ProcessorConfig config = setup->config;
    config.generateTitles = false; // one request per step, in order
    Processor processor(fixture.service, config);
    QSignalSpy finished(&processor, &Processor::finished);
    QVERIFY(processor.prompt(PromptRequest{fixture.sessionID, {}, u"Use the echo tool"_s, {}, {}}));
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).value<MessageError>().message()));

    // The model was offered the MCP tool with the server's schema.
    const JsonArray offered = fixture.server->requests().constFirst().json.array(u"tools"_s);
    bool found = false;
    for (const JsonValue &t : offered) {
        const JsonObject fn = t.toObject().object(u"function"_s);
        if (fn.string(u"name"_s) == u"fake_echo"_s) {
            found = true;
            QCOMPARE(fn.string(u"description"_s), u"Echoes the text"_s);
            QCOMPARE(fn.object(u"parameters"_s).object(u"properties"_s).object(u"text"_s).string(u"type"_s), u"string"_s);
        }
    }
    QVERIFY(found);
    const Part part = firstToolPart(fixture.service->messages(fixture.sessionID));
    QCOMPARE(part.tool(), u"fake_echo"_s);
    QCOMPARE(part.state().status(), ToolStatus::Completed);
    QCOMPARE(part.state().output(), u"echo: from the model"_s);

    // A config that turns the server's tools off by wildcard keeps them from the model: in
    // `permission` and in an agent's `tools`.
    const QList<JsonObject> offs{
        {{u"permission"_s, JsonObject{{u"fake_*"_s, u"deny"_s}}}},
        {{u"agent"_s, JsonObject{{u"build"_s, JsonObject{{u"tools"_s, JsonObject{{u"fake_*"_s, false}}}}}}}}};
    for (JsonObject off : offs) {
        off.insert(u"mcp"_s, JsonObject{{u"fake"_s, local()}});
        Result<ProcessorSetup> denied = loadProcessorSetup(fixture.writeConfig(off), fixture.data->path());
        QVERIFY(denied);
        fixture.server->enqueue(FakeReply::sse(textReply({u"Nothing to call."_s})));
        ProcessorConfig deniedConfig = denied->config;
        deniedConfig.generateTitles = false;
        Processor second(fixture.service, deniedConfig);
        QSignalSpy secondFinished(&second, &Processor::finished);
        QVERIFY(second.prompt(PromptRequest{fixture.sessionID, {}, u"Again"_s, {}, {}}));
        QVERIFY(secondFinished.wait(30000));
        const JsonArray tools = fixture.server->requests().constLast().json.array(u"tools"_s);
        QVERIFY(!tools.isEmpty()); // the built-in ones are still there
        for (const JsonValue &t : tools)
            QVERIFY(!t.toObject().object(u"function"_s).string(u"name"_s).startsWith(u"fake_"_s));
    }
    fixture.tearDown();
}

void TestMcp::projectServersAreAdded()
{
    McpManager manager;
    QSignalSpy changed(&manager, &McpManager::serverChanged);
    const auto changes = [&changed] {
        QStringList names;
        for (const QList<QVariant> &signal : std::as_const(changed))
            names.append(signal.at(0).toString());
        return names;
    };
    manager.configure({{u"a"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    // (The signals come queued from the MCP thread: connecting, then connected.)
    QTRY_COMPARE(changes(), (QStringList{u"a"_s, u"a"_s}));
    const qint64 connected = manager.server(u"a"_s)->connectMs;
    // A project's servers join the running ones; those it does not name keep running, untouched
    // (another project's session may be calling them).
    manager.include({{u"b"_s, local()}});
    QVERIFY(manager.waitForStartup(20000));
    QTRY_COMPARE(changes(), (QStringList{u"a"_s, u"a"_s, u"b"_s, u"b"_s}));
    QCOMPARE(manager.servers().size(), 2);
    QCOMPARE(manager.server(u"b"_s)->state, McpServerStatus::State::Connected);
    QCOMPARE(manager.server(u"a"_s)->connectMs, connected);
    // Each run gets the tools of the servers its own config names.
    QCOMPARE(McpTool::agentTools(manager.registry(), {u"b"_s}).size(), 11);
    QCOMPARE(McpTool::agentTools(manager.registry(), {u"a"_s, u"b"_s}).size(), 22);
    // The same servers again change nothing; a project that configures "a" differently restarts it.
    manager.include({{u"b"_s, local()}});
    manager.include({{u"a"_s, local({}, {{u"timeout"_s, 9000}})}});
    QVERIFY(manager.waitForStartup(20000));
    QTRY_COMPARE(changes(), (QStringList{u"a"_s, u"a"_s, u"b"_s, u"b"_s, u"a"_s, u"a"_s}));
    QCOMPARE(manager.servers().size(), 2);
    QCOMPARE(manager.server(u"a"_s)->state, McpServerStatus::State::Connected);
    QCOMPARE(manager.server(u"b"_s)->state, McpServerStatus::State::Connected);
}

void TestMcp::promptRunsAsCommand()
{
    clearProviderKeys();
    RunFixture fixture;
    QVERIFY(fixture.setUp());
    const QString file = fixture.writeConfig({{u"mcp"_s, JsonObject{{u"my server"_s, local()}}}});
    Result<ProcessorSetup> setup = loadProcessorSetup(file, fixture.data->path());
    QVERIFY2(setup, qPrintable(setup ? QString() : setup.error().toString()));
    QVERIFY(McpManager::instance()->waitForStartup(20000));
    // OpenCode's names: "server:prompt", each sanitised.
    QStringList names;
    for (const PromptCommand &c : setup->config.availableCommands())
        names.append(c.name);
    QCOMPARE(names, (QStringList{u"my_server:greet"_s, u"my_server:broken_one"_s}));
    const PromptCommand greet = *PromptCommand::find(setup->config.availableCommands(), u"my_server:greet"_s);
    QCOMPARE(greet.description, u"Greets someone"_s);
    QCOMPARE(greet.mcpArguments, (QStringList{u"name"_s, u"mood"_s}));

    // "/server:prompt args" in the composer: the server's prompt, with the arguments filled in
    // as OpenCode fills them ($1, and the last one takes the rest), becomes the user's message.
    fixture.server->enqueue(FakeReply::sse(textReply({u"Hello, Ada!"_s})));
    ProcessorConfig config = setup->config;
    config.generateTitles = false;
    Processor processor(fixture.service, config);
    QSignalSpy finished(&processor, &Processor::finished);
    PromptRequest request{fixture.sessionID, {}, u"/my_server:greet Ada \"very glad\" indeed"_s, {}, {}};
    request.slashCommands = true;
    QVERIFY(processor.prompt(request));
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).value<MessageError>().message()));
    QCOMPARE(fixture.server->requests().size(), 1);
    const QString sent = QString::fromUtf8(fixture.server->requests().constFirst().body);
    QVERIFY2(sent.contains(u"Say hello to Ada, very glad indeed.\\n\\nGladly."_s), qPrintable(sent));
    QVERIFY(!sent.contains(u"/my_server:greet"_s));

    // A prompt the server cannot give fails the run with the server's reason; the model is not asked.
    request.text = u"/my_server:broken_one"_s;
    QVERIFY(processor.prompt(request));
    QVERIFY(finished.wait(30000));
    QVERIFY(!finished.at(1).at(1).toBool());
    const QString why = finished.at(1).at(2).value<MessageError>().message();
    QVERIFY2(why.contains(u"could not give its prompt \"broken one\""_s) && why.contains(u"Prompt not available"_s),
             qPrintable(why));
    QCOMPARE(fixture.server->requests().size(), 1);

    // An unknown command is plain text when typed, and an error naming the commands when asked for.
    request.text = u"/my_server:nothing"_s;
    request.command = u"my_server:nothing"_s;
    const Result<QString> refused = processor.prompt(request);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(u"available: my_server:greet, my_server:broken_one"_s),
             qPrintable(refused.error().message));
    fixture.tearDown();
}

void TestMcp::resourcesAreAttached()
{
    clearProviderKeys();
    RunFixture fixture;
    QVERIFY(fixture.setUp());
    const QString file = fixture.writeConfig({{u"mcp"_s, JsonObject{{u"memo"_s, local()}}}});
    Result<ProcessorSetup> setup = loadProcessorSetup(file, fixture.data->path());
    QVERIFY2(setup, qPrintable(setup ? QString() : setup.error().toString()));
    QVERIFY(McpManager::instance()->waitForStartup(20000));
    const QList<McpResourceInfo> resources = setup->config.availableResources();
    QCOMPARE(resources.size(), 3);
    QCOMPARE(resources.at(0), (McpResourceInfo{u"memo"_s, u"notes"_s, u"memo://notes"_s, u"The team's notes"_s,
                                               u"text/markdown"_s}));
    QCOMPARE(McpManager::instance()->server(u"memo"_s)->resourceCount, 3);

    // "@notes @logo @gone": each is read from the server as OpenCode reads it.
    fixture.server->enqueue(FakeReply::sse(textReply({u"Read them."_s})));
    ProcessorConfig config = setup->config;
    config.generateTitles = false;
    Processor processor(fixture.service, config);
    QSignalSpy finished(&processor, &Processor::finished);
    const QString text = u"Summarise @notes and @logo, and @gone"_s;
    PromptRequest request{fixture.sessionID, {}, text, {}, {}};
    for (const McpResourceInfo &r : resources)
        request.attachments.append(PromptAttachments::fromMcpResource(r, text.indexOf(u'@' + r.name)));
    QVERIFY(processor.prompt(request));
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).value<MessageError>().message()));

    const QList<MessageWithParts> messages = fixture.service->messages(fixture.sessionID);
    const MessageWithParts &user = messages.constFirst();
    QStringList synthetic;
    QList<Part> files;
    for (const Part &p : user.parts) {
        if (p.type() == PartType::Text && p.isSynthetic())
            synthetic.append(p.text());
        else if (p.type() == PartType::File)
            files.append(p);
    }
    QCOMPARE(synthetic, (QStringList{u"Reading MCP resource: notes (memo://notes)"_s, u"# Notes\nShip on Friday."_s,
                                     u"Reading MCP resource: logo (memo://logo.png)"_s, u"[Binary content: image/png]"_s,
                                     u"Reading MCP resource: gone (memo://gone)"_s,
                                     u"Failed to read MCP resource gone: the MCP server \"memo\" could not give its "
                                     u"resource memo://gone: MCP error -32002: Resource not found: memo://gone"_s}));
    // The file parts as OpenCode stores them; an unreadable resource has none.
    QCOMPARE(files.size(), 2);
    QCOMPARE(files.at(0).json(), (JsonObject{{u"id"_s, files.at(0).id()},
                                             {u"sessionID"_s, fixture.sessionID},
                                             {u"messageID"_s, user.info.id()},
                                             {u"type"_s, u"file"_s},
                                             {u"mime"_s, u"text/markdown"_s},
                                             {u"filename"_s, u"notes"_s},
                                             {u"url"_s, u"memo://notes"_s},
                                             {u"source"_s, JsonObject{{u"type"_s, u"resource"_s},
                                                                      {u"text"_s, JsonObject{{u"value"_s, u"@notes"_s},
                                                                                             {u"start"_s, 10},
                                                                                             {u"end"_s, 16}}},
                                                                      {u"clientName"_s, u"memo"_s},
                                                                      {u"uri"_s, u"memo://notes"_s}}}}));
    QCOMPARE(files.at(1).mime(), u"image/png"_s);

    // The model gets the contents as text, and no URI it could not fetch.
    const QString sent = QString::fromUtf8(fixture.server->requests().constFirst().body);
    QVERIFY2(sent.contains(u"# Notes\\nShip on Friday."_s), qPrintable(sent));
    QVERIFY(sent.contains(u"[Binary content: image/png]"_s));
    QVERIFY(!sent.contains(u"image_url"_s));
    QVERIFY(!sent.contains(u"\"url\":\"memo:"_s));
    fixture.tearDown();
}

QTEST_GUILESS_MAIN(TestMcp)
#include "tst_mcp.moc"
