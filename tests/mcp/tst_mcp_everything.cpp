// SPDX-License-Identifier: GPL-3.0-or-later
// The MCP client against the reference server, @modelcontextprotocol/server-everything from npm,
// over stdio, streamable HTTP and the older HTTP+SSE transport. tests/compat/mcp-everything.sh
// installs the pinned version and runs this test with WEFT_MCP_EVERYTHING set to its
// dist/index.js; without it the test is skipped.

#include "mcp/mcpmanager.h"
#include "processor/tools/mcptool.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace Qt::StringLiterals;

class TestMcpEverything : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void stdio();
    void streamableHttp();
    void legacySse();

private:
    /// Starts `node index.js MODE` with PORT set; returns the port once it listens.
    quint16 startHttp(QProcess &process, const QString &mode);
    void exercise(McpManager &manager, const QString &name, bool checkEnvironment);
    /// server-everything started in @p mode ("streamableHttp", "sse") at @p path, over @p transport.
    void overHttp(const QString &mode, const QString &path, const QString &transport);

    QString m_node;
    QString m_script;
    QTemporaryDir m_dir;
};

void TestMcpEverything::initTestCase()
{
    m_script = qEnvironmentVariable("WEFT_MCP_EVERYTHING");
    if (m_script.isEmpty())
        QSKIP("WEFT_MCP_EVERYTHING is not set: run tests/compat/mcp-everything.sh to test against server-everything");
    QVERIFY2(QFile::exists(m_script), qPrintable(m_script));
    m_node = QStandardPaths::findExecutable(u"node"_s);
    if (m_node.isEmpty())
        m_node = QStandardPaths::findExecutable(u"nodejs"_s);
    QVERIFY2(!m_node.isEmpty(), "Node.js is needed to run server-everything");
}

quint16 TestMcpEverything::startHttp(QProcess &process, const QString &mode)
{
    quint16 port = 0;
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return 0;
        port = probe.serverPort();
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PORT"_s, QString::number(port));
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(m_node, {m_script, mode});
    QByteArray output;
    QElapsedTimer clock;
    clock.start();
    while (!output.contains("port") && process.state() != QProcess::NotRunning && clock.elapsed() < 30000) {
        process.waitForReadyRead(1000);
        output += process.readAll();
    }
    if (!output.contains("port")) {
        qWarning("server-everything %s did not start: %s", qPrintable(mode), output.constData());
        return 0;
    }
    return port;
}

void TestMcpEverything::exercise(McpManager &manager, const QString &name, bool checkEnvironment)
{
    QVERIFY(manager.waitForStartup(60000));
    const auto status = manager.server(name);
    QVERIFY(status);
    QVERIFY2(status->state == McpServerStatus::State::Connected, qPrintable(status->error));
    QCOMPARE(status->serverName.isEmpty(), false);
    QVERIFY(status->toolCount >= 10);
    QVERIFY(status->promptCount >= 1);
    qInfo("%s (%s, server %s %s, protocol %s): handshake %lld ms, connected with %d tools in %lld ms",
          qPrintable(name), qPrintable(status->transport), qPrintable(status->serverName),
          qPrintable(status->serverVersion), qPrintable(status->protocolVersion), status->handshakeMs,
          status->toolCount, status->connectMs);

    QHash<QString, std::shared_ptr<McpTool>> tools;
    for (const McpToolInfo &info : manager.registry()->tools())
        tools.insert(info.key(), std::make_shared<McpTool>(manager.registry(), info));
    const QString prefix = name + u'_';
    QVERIFY(tools.contains(prefix + u"echo"_s));
    QVERIFY(tools.contains(prefix + u"get-sum"_s));
    QCOMPARE(tools.value(prefix + u"get-sum"_s)->parameters().object(u"properties"_s).object(u"a"_s).string(u"type"_s),
             u"number"_s);

    ToolContext context;
    context.dataDir = m_dir.path();
    context.abortFlag = std::make_shared<std::atomic_bool>(false);
    context.ask = [](const PermissionAsk &) { return PermissionDecision::Allow; };

    ToolResult r = tools.value(prefix + u"echo"_s)->execute(context, {{u"message"_s, u"hello from Weft"_s}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.output, u"Echo: hello from Weft"_s);
    r = tools.value(prefix + u"get-sum"_s)->execute(context, {{u"a"_s, 2}, {u"b"_s, 3}});
    QCOMPARE(r.output, u"The sum of 2 and 3 is 5."_s);
    r = tools.value(prefix + u"get-tiny-image"_s)->execute(context, {});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.attachments.size(), 1);
    QVERIFY(r.attachments.at(0).toObject().string(u"url"_s).startsWith(u"data:image/png;base64,"_s));
    QVERIFY(r.output.contains(u"MCP logo"_s));
    // The server validates its input: a wrong argument is the tool's error, in the server's words.
    r = tools.value(prefix + u"get-sum"_s)->execute(context, {{u"a"_s, u"two"_s}});
    QVERIFY(!r.ok);
    QVERIFY(!r.error.isEmpty());
    if (checkEnvironment) {
        r = tools.value(prefix + u"get-env"_s)->execute(context, {});
        QVERIFY2(r.output.contains(u"WEFT_MCP_PROBE"_s), qPrintable(r.output.left(300)));
    }

    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 20; ++i)
        QVERIFY(tools.value(prefix + u"echo"_s)->execute(context, {{u"message"_s, u"x"_s}}).ok);
    qInfo("%s: %.2f ms per tools/call (20 calls)", qPrintable(name), double(clock.nsecsElapsed()) / 1e6 / 20);

    // A long operation stopped by its timeout, after which the server still answers.
    const Result<JsonValue> slow = manager.registry()->request(
        name, u"tools/call"_s,
        {{u"name"_s, u"trigger-long-running-operation"_s}, {u"arguments"_s, JsonObject{{u"duration"_s, 30}, {u"steps"_s, 3}}}},
        500);
    QVERIFY(!slow);
    QVERIFY2(slow.error().message.contains(u"within 500 ms"_s), qPrintable(slow.error().message));
    QVERIFY(tools.value(prefix + u"echo"_s)->execute(context, {{u"message"_s, u"after"_s}}).ok);
}

void TestMcpEverything::stdio()
{
    McpManager manager;
    manager.configure({{u"everything"_s, JsonObject{{u"type"_s, u"local"_s},
                                                     {u"command"_s, JsonArray{m_node, m_script, u"stdio"_s}},
                                                     {u"environment"_s, JsonObject{{u"WEFT_MCP_PROBE"_s, u"42"_s}}}}}});
    exercise(manager, u"everything"_s, true);
}

void TestMcpEverything::overHttp(const QString &mode, const QString &path, const QString &transport)
{
    QProcess server;
    const quint16 port = startHttp(server, mode);
    QVERIFY(port);
    McpManager manager;
    manager.configure({{mode, JsonObject{{u"type"_s, u"remote"_s}, {u"url"_s, u"http://127.0.0.1:%1%2"_s.arg(port).arg(path)}}}});
    exercise(manager, mode, false);
    QCOMPARE(manager.server(mode)->transport, transport);
    server.terminate();
    server.waitForFinished(5000);
}

void TestMcpEverything::streamableHttp()
{
    overHttp(u"streamableHttp"_s, u"/mcp"_s, u"streamable HTTP"_s);
}

void TestMcpEverything::legacySse()
{
    // Streamable HTTP is tried first and refused; OpenCode's fallback finds the older transport.
    overHttp(u"sse"_s, u"/sse"_s, u"SSE"_s);
}

QTEST_GUILESS_MAIN(TestMcpEverything)
#include "tst_mcp_everything.moc"
