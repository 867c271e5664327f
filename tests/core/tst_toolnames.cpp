// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/toolnames.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

class TestToolNames : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void kinds_data();
    void kinds();
    void filePath();
    void command();
};

void TestToolNames::kinds_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("shown");
    // OpenCode 1.x's names and the 2.x names they became are the same kind, shown alike.
    QTest::addRow("bash") << u"bash"_s << int(ToolNames::Kind::Shell) << u"Shell"_s;
    QTest::addRow("shell") << u"shell"_s << int(ToolNames::Kind::Shell) << u"Shell"_s;
    QTest::addRow("task") << u"task"_s << int(ToolNames::Kind::Subagent) << u"Subagent"_s;
    QTest::addRow("subagent") << u"subagent"_s << int(ToolNames::Kind::Subagent) << u"Subagent"_s;
    QTest::addRow("apply_patch") << u"apply_patch"_s << int(ToolNames::Kind::Patch) << u"Patch"_s;
    QTest::addRow("patch") << u"patch"_s << int(ToolNames::Kind::Patch) << u"Patch"_s;
    QTest::addRow("read") << u"read"_s << int(ToolNames::Kind::Read) << u"Read"_s;
    QTest::addRow("write") << u"write"_s << int(ToolNames::Kind::Write) << u"Write"_s;
    QTest::addRow("edit") << u"edit"_s << int(ToolNames::Kind::Edit) << u"Edit"_s;
    QTest::addRow("multiedit") << u"multiedit"_s << int(ToolNames::Kind::Edit) << u"Edit"_s;
    QTest::addRow("other") << u"webfetch"_s << int(ToolNames::Kind::Other) << u"Webfetch"_s;
    QTest::addRow("mcp") << u"github_search"_s << int(ToolNames::Kind::Other) << u"Github_search"_s;
    QTest::addRow("empty") << QString() << int(ToolNames::Kind::Other) << QString();
}

void TestToolNames::kinds()
{
    QFETCH(QString, name);
    QFETCH(int, kind);
    QFETCH(QString, shown);
    QCOMPARE(int(ToolNames::kind(name)), kind);
    QCOMPARE(ToolNames::displayName(name), shown);
}

void TestToolNames::filePath()
{
    QCOMPARE(ToolNames::filePath(JsonObject{{u"path"_s, u"src/a.c"_s}}), u"src/a.c"_s); // 2.x
    QCOMPARE(ToolNames::filePath(JsonObject{{u"filePath"_s, u"/p/src/a.c"_s}}), u"/p/src/a.c"_s); // 1.x
    QCOMPARE(ToolNames::filePath(JsonObject{{u"command"_s, u"ls"_s}}), QString());
}

void TestToolNames::command()
{
    const JsonObject input{{u"command"_s, u"make test"_s}};
    QCOMPARE(ToolNames::command(u"shell", input), u"make test"_s);
    QCOMPARE(ToolNames::command(u"bash", input), u"make test"_s);
    QCOMPARE(ToolNames::command(u"task", input), QString()); // not a shell call
}

QTEST_GUILESS_MAIN(TestToolNames)
#include "tst_toolnames.moc"
