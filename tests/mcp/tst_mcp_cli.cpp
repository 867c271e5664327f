// SPDX-License-Identifier: GPL-3.0-or-later
// `weft mcp list` through the weft binary, against the stdio test server.

#include "fakemcpserver.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{
JsonObject local(const QStringList &args = {}, const JsonObject &more = {})
{
    return fakeMcpLocal(QString::fromUtf8(FAKE_MCP_STDIO), args, more);
}
} // namespace

class TestMcpCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void list();
};

void TestMcpCli::list()
{
    QTemporaryDir dir;
    const QString config = dir.filePath(u"weft.json"_s);
    const auto write = [&config](const JsonObject &mcp) {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(toJson(JsonObject{{u"mcp"_s, mcp}}));
    };
    const auto weft = [&config](const QStringList &args, QByteArray &out) {
        QProcess process;
        process.start(QStringLiteral(WEFT_BINARY_DIR "/bin/weft"), QStringList{u"--config"_s, config, u"mcp"_s} + args);
        process.waitForFinished(60000);
        out = process.readAllStandardOutput();
        return process.exitCode();
    };
    write({{u"fake"_s, local()}, {u"off"_s, local({}, {{u"enabled"_s, false}})}});
    QByteArray out;
    QCOMPARE(weft({u"list"_s}, out), 0);
    QVERIFY2(out.contains("✓ fake  connected  11 tools, stdio"), out.constData());
    QVERIFY2(out.contains("○ off   disabled"), out.constData());
    QCOMPARE(weft({u"list"_s, u"--format"_s, u"json"_s}, out), 0);
    const std::optional<JsonValue> list = parseJson(out);
    QVERIFY(list && list->isArray());
    QCOMPARE(list->toArray().at(0).toObject().string(u"status"_s), u"connected"_s);
    QCOMPARE(list->toArray().at(0).toObject().integer(u"tools"_s), 11);
    QCOMPARE(list->toArray().at(1).toObject().string(u"status"_s), u"disabled"_s);

    // A failing server: its reason, and exit code 1.
    write({{u"broken"_s, local({u"--exit-at-start"_s})}});
    QCOMPARE(weft({u"list"_s}, out), 1);
    QVERIFY2(out.contains("✗ broken  failed") && out.contains("FAKE_TOKEN is not set"), out.constData());
    QCOMPARE(weft({u"nope"_s}, out), 2);
}

QTEST_GUILESS_MAIN(TestMcpCli)
#include "tst_mcp_cli.moc"
