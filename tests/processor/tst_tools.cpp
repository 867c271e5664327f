// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/json.h"
#include "processor/filetime.h"
#include "processor/tool.h"
#include "processor/tools/bashtool.h"
#include "processor/tools/readtool.h"
#include "diff/textdiff.h"
#include "processor/tools/toolutil.h"
#include "testdata.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QTest>

#include <atomic>
#include <memory>
#include <thread>
#include <tuple>

#include <csignal>
#include <sys/stat.h>
#include <sys/types.h>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::writeFile;

namespace
{

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void setMTime(const QString &path, qint64 secondsAgo)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite))
        qFatal("cannot open %s", qPrintable(path));
    f.setFileTime(QDateTime::currentDateTime().addSecs(-secondsAgo), QFileDevice::FileModificationTime);
}

struct AskCall {
    QString permission;
    QStringList patterns;
    JsonObject metadata;
};

/// A project folder, a folder outside it, a data dir and a ToolContext that records what the
/// tools ask.
struct Harness {
    QTemporaryDir root;
    QString project;
    QString outside;
    QString data;
    /// What the session has read, and when (ToolContext::lastRead).
    QHash<QString, QDateTime> readFiles;
    QList<AskCall> asks;
    std::function<PermissionDecision(const QString &, const QStringList &)> policy = [](const QString &, const QStringList &) {
        return PermissionDecision::Allow;
    };
    QList<std::pair<QString, JsonObject>> progress;
    std::shared_ptr<std::atomic_bool> abortFlag = std::make_shared<std::atomic_bool>(false);
    std::function<Result<QString>(const QString &, const QString &, const QString &)> subagent;
    bool withAsk = true;

    Harness()
    {
        project = QDir::cleanPath(root.path() + u"/project"_s);
        outside = QDir::cleanPath(root.path() + u"/outside"_s);
        data = QDir::cleanPath(root.path() + u"/data"_s);
        QDir().mkpath(project);
        QDir().mkpath(outside);
        QDir().mkpath(data);
    }

    ToolContext context()
    {
        ToolContext c;
        c.sessionID = u"ses_test"_s;
        c.messageID = u"msg_test"_s;
        c.callID = u"call_1"_s;
        c.agent = u"build"_s;
        c.directory = project;
        c.worktree = project;
        c.dataDir = data;
        c.abortFlag = abortFlag;
        if (withAsk) {
            c.ask = [this](const PermissionAsk &a) {
                asks.append({a.permission, a.patterns, a.metadata});
                return policy(a.permission, a.patterns);
            };
        }
        c.runSubagent = subagent;
        c.progress = [this](const QString &title, const JsonObject &metadata) { progress.append({title, metadata}); };
        c.lastRead = [this](const QString &path) { return readFiles.value(path); };
        c.markRead = [this](const QString &path) { readFiles.insert(path, QDateTime::currentDateTimeUtc()); };
        return c;
    }

    std::shared_ptr<Tool> tool(const QString &name) const
    {
        for (const auto &t : builtinTools()) {
            if (t->name() == name)
                return t;
        }
        qFatal("no tool %s", qPrintable(name));
        return nullptr;
    }

    ToolResult run(const QString &name, const JsonObject &input)
    {
        ToolContext c = context();
        return tool(name)->execute(c, input);
    }

    QString p(const QString &rel) const { return project + u'/' + rel; }

    [[nodiscard]] QStringList askedPermissions() const
    {
        QStringList out;
        for (const AskCall &a : asks)
            out.append(a.permission);
        return out;
    }
    [[nodiscard]] const AskCall *findAsk(const QString &permission) const
    {
        for (const AskCall &a : asks) {
            if (a.permission == permission)
                return &a;
        }
        return nullptr;
    }
};

/// Alive and not a zombie waiting for its reaper.
bool processAlive(pid_t pid)
{
    if (::kill(pid, 0) != 0)
        return false;
    const QByteArray stat = readFile(u"/proc/%1/stat"_s.arg(pid));
    const qsizetype close = stat.lastIndexOf(')');
    return close < 0 || close + 2 >= stat.size() || stat.at(close + 2) != 'Z';
}

JsonObject input(std::initializer_list<std::pair<QString, JsonValue>> members)
{
    return JsonObject(members);
}

} // namespace

class TestTools : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtinToolList()
    {
        const auto tools = builtinTools();
        QStringList names;
        for (const auto &t : tools) {
            names.append(t->name());
            QVERIFY2(!t->description().isEmpty(), qPrintable(t->name()));
            const JsonObject schema = t->parameters();
            QCOMPARE(schema.string(u"type"), u"object"_s);
            const JsonObject properties = schema.object(u"properties");
            QVERIFY(!properties.isEmpty() || t->name() == u"todoread");
            for (const JsonValue &required : schema.array(u"required"))
                QVERIFY2(properties.contains(required.toString()), qPrintable(t->name() + u' ' + required.toString()));
        }
        names.sort();
        QCOMPARE(names, (QStringList{u"apply_patch"_s, u"bash"_s, u"edit"_s, u"glob"_s, u"grep"_s, u"list"_s, u"multiedit"_s,
                                     u"question"_s, u"read"_s, u"task"_s, u"todoread"_s, u"todowrite"_s,
                                     u"webfetch"_s, u"write"_s}));
    }

    // ---------------------------------------------------------------------------------------
    // Input validation: every tool refuses missing and wrong-typed fields with a readable error.

    void invalidInput_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("read-missing") << u"read"_s << u"{}"_s << u"filePath"_s;
        QTest::newRow("read-number-path") << u"read"_s << u"{\"filePath\": 5}"_s << u"must be a string"_s;
        QTest::newRow("read-empty-path") << u"read"_s << u"{\"filePath\": \"\"}"_s << u"must not be empty"_s;
        QTest::newRow("read-offset-text") << u"read"_s << u"{\"filePath\": \"a\", \"offset\": \"abc\"}"_s << u"offset"_s;
        QTest::newRow("read-offset-negative") << u"read"_s << u"{\"filePath\": \"a\", \"offset\": -1}"_s << u"offset"_s;
        QTest::newRow("read-offset-fraction") << u"read"_s << u"{\"filePath\": \"a\", \"offset\": 1.5}"_s << u"whole number"_s;
        QTest::newRow("read-limit-zero") << u"read"_s << u"{\"filePath\": \"a\", \"limit\": 0}"_s << u"limit"_s;
        QTest::newRow("read-limit-object") << u"read"_s << u"{\"filePath\": \"a\", \"limit\": {}}"_s << u"limit"_s;
        QTest::newRow("write-missing-content") << u"write"_s << u"{\"filePath\": \"a\"}"_s << u"content"_s;
        QTest::newRow("write-content-number") << u"write"_s << u"{\"filePath\": \"a\", \"content\": 1}"_s << u"content"_s;
        QTest::newRow("write-path-null") << u"write"_s << u"{\"filePath\": null, \"content\": \"x\"}"_s << u"filePath"_s;
        QTest::newRow("edit-missing-old") << u"edit"_s << u"{\"filePath\": \"a\", \"newString\": \"b\"}"_s << u"oldString"_s;
        QTest::newRow("edit-missing-new") << u"edit"_s << u"{\"filePath\": \"a\", \"oldString\": \"b\"}"_s << u"newString"_s;
        QTest::newRow("edit-replaceall-type") << u"edit"_s
                                              << u"{\"filePath\": \"a\", \"oldString\": \"a\", \"newString\": \"b\", \"replaceAll\": 3}"_s
                                              << u"replaceAll"_s;
        QTest::newRow("edit-old-array") << u"edit"_s << u"{\"filePath\": \"a\", \"oldString\": [], \"newString\": \"b\"}"_s << u"oldString"_s;
        QTest::newRow("list-ignore-string") << u"list"_s << u"{\"ignore\": \"*.txt\"}"_s << u"ignore"_s;
        QTest::newRow("list-ignore-numbers") << u"list"_s << u"{\"ignore\": [1]}"_s << u"ignore[0]"_s;
        QTest::newRow("list-path-bool") << u"list"_s << u"{\"path\": true}"_s << u"path"_s;
        QTest::newRow("glob-missing") << u"glob"_s << u"{}"_s << u"pattern"_s;
        QTest::newRow("glob-path-number") << u"glob"_s << u"{\"pattern\": \"*\", \"path\": 3}"_s << u"path"_s;
        QTest::newRow("grep-missing") << u"grep"_s << u"{\"path\": \".\"}"_s << u"pattern"_s;
        QTest::newRow("grep-include-number") << u"grep"_s << u"{\"pattern\": \"x\", \"include\": 5}"_s << u"include"_s;
        QTest::newRow("bash-missing") << u"bash"_s << u"{\"description\": \"x\"}"_s << u"command"_s;
        QTest::newRow("bash-command-number") << u"bash"_s << u"{\"command\": 1}"_s << u"command"_s;
        QTest::newRow("bash-timeout-text") << u"bash"_s << u"{\"command\": \"true\", \"timeout\": \"soon\"}"_s << u"timeout"_s;
        QTest::newRow("bash-timeout-negative") << u"bash"_s << u"{\"command\": \"true\", \"timeout\": -5}"_s << u"timeout"_s;
        QTest::newRow("bash-workdir-number") << u"bash"_s << u"{\"command\": \"true\", \"workdir\": 2}"_s << u"workdir"_s;
        QTest::newRow("task-missing-prompt") << u"task"_s << u"{\"description\": \"d\", \"subagent_type\": \"general\"}"_s << u"prompt"_s;
        QTest::newRow("task-agent-number") << u"task"_s << u"{\"description\": \"d\", \"prompt\": \"p\", \"subagent_type\": 1}"_s
                                           << u"subagent_type"_s;
    }
    void invalidInput()
    {
        QFETCH(QString, tool);
        QFETCH(QString, json);
        QFETCH(QString, mentions);
        Harness h;
        auto parsed = parseJson(json.toUtf8());
        QVERIFY(parsed && parsed->isObject());
        const ToolResult r = h.run(tool, parsed->toObject());
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"invalid arguments"_s), qPrintable(r.error));
        QVERIFY2(r.error.contains(mentions), qPrintable(r.error));
        QVERIFY2(h.asks.isEmpty(), "no permission is asked for invalid input");
    }

    // ---------------------------------------------------------------------------------------
    // read

    void readFileNumbered()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"src/a.txt"_s), "alpha\nbeta\r\ngamma\n"));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"src/a.txt"_s)}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"<file>\n00001| alpha\n00002| beta\n00003| gamma\n\n(End of file - total 3 lines)\n</file>"_s);
        QCOMPARE(r.title, u"src/a.txt"_s);
        QCOMPARE(r.metadata.boolean(u"truncated"), false);
        QCOMPARE(r.metadata.string(u"preview"), u"alpha\nbeta\ngamma"_s);
        QVERIFY(h.readFiles.contains(h.p(u"src/a.txt"_s)));
        QCOMPARE(h.askedPermissions(), QStringList{u"read"_s});
        QCOMPARE(h.asks.first().patterns, QStringList{h.p(u"src/a.txt"_s)});
    }

    void readRelativeAndNoTrailingNewline()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"b.txt"_s), "one\ntwo"));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, u"b.txt"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"<file>\n00001| one\n00002| two\n\n(End of file - total 2 lines)\n</file>"_s);
        QVERIFY(h.readFiles.contains(h.p(u"b.txt"_s)));
    }

    void readEmptyFile()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"empty.txt"_s), ""));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"empty.txt"_s)}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.output.contains(u"(End of file - total 0 lines)"_s));
    }

    void readOffsetLimit()
    {
        Harness h;
        QByteArray data;
        for (int i = 1; i <= 10; ++i)
            data += "line " + QByteArray::number(i) + '\n';
        QVERIFY(writeFile(h.p(u"ten.txt"_s), data));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"ten.txt"_s)}, {u"offset"_s, 2}, {u"limit"_s, 3}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"<file>\n00003| line 3\n00004| line 4\n00005| line 5\n\n"
                           u"(File has more lines. Use 'offset' parameter to read beyond line 5)\n</file>"_s);
        QCOMPARE(r.metadata.boolean(u"truncated"), true);
        // Numeric strings are accepted, as OpenCode coerces them.
        const ToolResult last = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"ten.txt"_s)}, {u"offset"_s, u"8"_s}}));
        QVERIFY2(last.ok, qPrintable(last.error));
        QCOMPARE(last.output, u"<file>\n00009| line 9\n00010| line 10\n\n(End of file - total 10 lines)\n</file>"_s);
    }

    void readOffsetBeyondEnd()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"short.txt"_s), "a\nb\n"));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"short.txt"_s)}, {u"offset"_s, 5}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"beyond the end"_s), qPrintable(r.error));
    }

    void readLongLineAndByteCap()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"long.txt"_s), QByteArray(5000, 'x') + "\nshort\n"));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"long.txt"_s)}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.output.contains(u"00001| "_s + QString(ReadTool::MaxLineLength, u'x') + u"...\n00002| short"_s));

        QByteArray big;
        for (int i = 0; i < 3000; ++i)
            big += QByteArray(99, 'a' + char(i % 26)) + '\n';
        QVERIFY(writeFile(h.p(u"big.txt"_s), big));
        const ToolResult capped = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"big.txt"_s)}}));
        QVERIFY2(capped.ok, qPrintable(capped.error));
        QVERIFY2(capped.output.contains(u"(Output truncated at 51200 bytes. Use 'offset' parameter to read beyond line 512)"_s),
                 qPrintable(capped.output.right(200)));
        QVERIFY(capped.output.toUtf8().size() < 60 * 1024);
        QCOMPARE(capped.metadata.boolean(u"truncated"), true);

        // More lines than the default limit.
        QByteArray many;
        for (int i = 0; i < 2500; ++i)
            many += "l\n";
        QVERIFY(writeFile(h.p(u"many.txt"_s), many));
        const ToolResult limited = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"many.txt"_s)}}));
        QVERIFY(limited.output.contains(u"02000| l\n\n(File has more lines. Use 'offset' parameter to read beyond line 2000)"_s));
    }

    void readFailures_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("not-found") << u"missing.txt"_s << u"File not found"_s;
        QTest::newRow("suggestion") << u"config"_s << u"Did you mean one of these?"_s;
        QTest::newRow("directory") << u"src"_s << u"directory"_s;
        QTest::newRow("binary-nul") << u"image.raw"_s << u"Cannot read binary file"_s;
        QTest::newRow("binary-extension") << u"archive.zip"_s << u"Cannot read binary file"_s;
        QTest::newRow("binary-control-chars") << u"control.txt"_s << u"Cannot read binary file"_s;
    }
    void readFailures()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        Harness h;
        QVERIFY(writeFile(h.p(u"config.json"_s), "{}"));
        QVERIFY(writeFile(h.p(u"src/x.cpp"_s), "int x;"));
        QVERIFY(writeFile(h.p(u"image.raw"_s), QByteArray("abc\0def", 7)));
        QVERIFY(writeFile(h.p(u"archive.zip"_s), "PK text-looking"));
        QVERIFY(writeFile(h.p(u"control.txt"_s), QByteArray(100, '\x01')));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, path}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(message), qPrintable(r.error));
        if (path == u"config")
            QVERIFY(r.error.contains(h.p(u"config.json"_s)));
        QVERIFY(h.readFiles.isEmpty());
    }

    void readFifoRefused()
    {
        Harness h;
        QVERIFY(::mkfifo(QFile::encodeName(h.p(u"pipe"_s)).constData(), 0600) == 0);
        QElapsedTimer t;
        t.start();
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"pipe"_s)}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"Not a regular file"_s), qPrintable(r.error));
        QVERIFY(t.elapsed() < 2000);
    }

    void readDenied()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u".env"_s), "SECRET=1\n"));
        h.policy = [](const QString &permission, const QStringList &) {
            return permission == u"read" ? PermissionDecision::Deny : PermissionDecision::Allow;
        };
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u".env"_s)}}));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(u"Permission denied"_s));
        QVERIFY(!r.error.contains(u"SECRET"_s));
        QVERIFY(h.readFiles.isEmpty());
    }

    void noPermissionHandlerRefuses()
    {
        Harness h;
        h.withAsk = false;
        QVERIFY(writeFile(h.p(u"a.txt"_s), "a"));
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, h.p(u"a.txt"_s)}}));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(u"Permission denied"_s));
    }

    // ---------------------------------------------------------------------------------------
    // write

    void writeNewFile()
    {
        Harness h;
        const ToolResult r = h.run(u"write"_s, input({{u"filePath"_s, u"sub/dir/new.txt"_s}, {u"content"_s, u"hello\nworld\n"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"Wrote file successfully."_s);
        QCOMPARE(r.title, u"sub/dir/new.txt"_s);
        QCOMPARE(readFile(h.p(u"sub/dir/new.txt"_s)), QByteArray("hello\nworld\n"));
        QCOMPARE(r.metadata.boolean(u"exists", true), false);
        QCOMPARE(r.metadata.object(u"filediff").integer(u"additions"), 2);
        QCOMPARE(h.askedPermissions(), QStringList{u"edit"_s});
        QCOMPARE(h.asks.first().patterns, QStringList{u"sub/dir/new.txt"_s});
        QVERIFY(h.asks.first().metadata.string(u"diff").contains(u"+hello"_s));
        QVERIFY(h.readFiles.contains(h.p(u"sub/dir/new.txt"_s)));
        // An empty file is fine too.
        const ToolResult empty = h.run(u"write"_s, input({{u"filePath"_s, u"empty.txt"_s}, {u"content"_s, QString()}}));
        QVERIFY2(empty.ok, qPrintable(empty.error));
        QVERIFY(QFileInfo::exists(h.p(u"empty.txt"_s)));
    }

    void writeOverwriteRequiresRead()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"a.txt"_s), "old\n"));
        const ToolResult refused = h.run(u"write"_s, input({{u"filePath"_s, h.p(u"a.txt"_s)}, {u"content"_s, u"new\n"_s}}));
        QVERIFY(!refused.ok);
        QVERIFY2(refused.error.contains(u"You must read the file"_s), qPrintable(refused.error));
        QCOMPARE(readFile(h.p(u"a.txt"_s)), QByteArray("old\n"));

        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"a.txt"_s)}})).ok);
        const ToolResult r = h.run(u"write"_s, input({{u"filePath"_s, h.p(u"a.txt"_s)}, {u"content"_s, u"new\n"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readFile(h.p(u"a.txt"_s)), QByteArray("new\n"));
        QCOMPARE(r.metadata.boolean(u"exists"), true);
        const QString diff = r.metadata.string(u"diff");
        QVERIFY2(diff.contains(u"-old\n+new\n"_s), qPrintable(diff));
    }

    void writeFailures()
    {
        Harness h;
        QDir().mkpath(h.p(u"folder"_s));
        const ToolResult dir = h.run(u"write"_s, input({{u"filePath"_s, h.p(u"folder"_s)}, {u"content"_s, u"x"_s}}));
        QVERIFY(!dir.ok);
        QVERIFY(dir.error.contains(u"directory"_s));

        h.policy = [](const QString &permission, const QStringList &) {
            return permission == u"edit" ? PermissionDecision::Deny : PermissionDecision::Allow;
        };
        const ToolResult denied = h.run(u"write"_s, input({{u"filePath"_s, u"nope.txt"_s}, {u"content"_s, u"x"_s}}));
        QVERIFY(!denied.ok);
        QVERIFY(denied.error.contains(u"Permission denied"_s));
        QVERIFY(!QFileInfo::exists(h.p(u"nope.txt"_s)));
    }

    void writeAndEditKeepModeAndSymlink_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addRow("write") << u"write"_s;
        QTest::addRow("edit") << u"edit"_s;
        QTest::addRow("multiedit") << u"multiedit"_s;
        QTest::addRow("apply_patch") << u"apply_patch"_s;
    }

    void writeAndEditKeepModeAndSymlink()
    {
        // The new contents replace the file whole (a new file renamed over it): the file keeps
        // its permissions, and a symbolic link stays a link whose target gets the new text.
        QFETCH(QString, tool);
        Harness h;
        const auto change = [&](const QString &file) {
            QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, file}})).ok);
            ToolResult r;
            if (tool == u"write")
                r = h.run(tool, input({{u"filePath"_s, file}, {u"content"_s, u"new\n"_s}}));
            else if (tool == u"edit")
                r = h.run(tool, input({{u"filePath"_s, file}, {u"oldString"_s, u"old"_s}, {u"newString"_s, u"new"_s}}));
            else if (tool == u"multiedit")
                r = h.run(tool, input({{u"filePath"_s, file},
                                       {u"edits"_s, JsonArray{JsonObject{{u"oldString"_s, u"old"_s}, {u"newString"_s, u"new"_s}}}}}));
            else
                r = h.run(tool, input({{u"patchText"_s, u"*** Begin Patch\n*** Update File: %1\n@@\n-old\n+new\n*** End Patch"_s.arg(file)}}));
            QVERIFY2(r.ok, qPrintable(r.error));
        };

        const QString script = h.p(u"run.sh"_s);
        QVERIFY(writeFile(script, "old\n"));
        QVERIFY(QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                                                   | QFile::ExeGroup));
        change(script);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(readFile(script), QByteArray("new\n"));
        struct stat st{};
        QCOMPARE(::stat(QFile::encodeName(script).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0750));

        // A link in the project to a file elsewhere in it (as dotfile managers make them).
        QDir().mkpath(h.p(u"real"_s));
        const QString target = h.p(u"real/config.txt"_s);
        QVERIFY(writeFile(target, "old\n"));
        QVERIFY(QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner));
        const QString link = h.p(u"config.txt"_s);
        QVERIFY(QFile::link(u"real/config.txt"_s, link));
        change(link);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(QFileInfo(link).symLinkTarget(), target);
        QCOMPARE(readFile(target), QByteArray("new\n"));
        QCOMPARE(::stat(QFile::encodeName(target).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0600));
        // No temporary file left behind.
        QCOMPARE(QDir(h.p(u"real"_s)).entryList(QDir::Files | QDir::Hidden), QStringList{u"config.txt"_s});
        QCOMPARE(QDir(h.project).entryList(QDir::Files | QDir::Hidden | QDir::System),
                 (QStringList{u"config.txt"_s, u"run.sh"_s}));
    }

    // ---------------------------------------------------------------------------------------
    // edit

    void editReplaces()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"code.cpp"_s), "int main()\n{\n    return 1;\n}\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"code.cpp"_s)}})).ok);
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"code.cpp"_s)},
                                                     {u"oldString"_s, u"return 1;"_s},
                                                     {u"newString"_s, u"return 0;\n    // done"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"Edit applied successfully."_s);
        QCOMPARE(readFile(h.p(u"code.cpp"_s)), QByteArray("int main()\n{\n    return 0;\n    // done\n}\n"));
        const JsonObject filediff = r.metadata.object(u"filediff");
        QCOMPARE(filediff.integer(u"additions"), 2);
        QCOMPARE(filediff.integer(u"deletions"), 1);
        QCOMPARE(filediff.string(u"before"), u"int main()\n{\n    return 1;\n}\n"_s);
        const QString diff = r.metadata.string(u"diff");
        QVERIFY2(diff.contains(u"@@ -1,4 +1,5 @@\n int main()\n {\n-    return 1;\n+    return 0;\n+    // done\n }\n"_s),
                 qPrintable(diff));
        QCOMPARE(h.findAsk(u"edit"_s)->patterns, QStringList{u"code.cpp"_s});
    }

    void editFailures_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("oldString");
        QTest::addColumn<QString>("newString");
        QTest::addColumn<bool>("read");
        QTest::addColumn<QString>("message");
        QTest::newRow("not-found") << u"abc\n"_s << u"xyz"_s << u"q"_s << true << u"Could not find oldString in the file"_s;
        QTest::newRow("ambiguous") << u"x = 1\nx = 1\n"_s << u"x = 1"_s << u"x = 2"_s << true << u"multiple matches"_s;
        QTest::newRow("same") << u"abc\n"_s << u"abc"_s << u"abc"_s << true << u"identical"_s;
        QTest::newRow("not-read-first") << u"abc\n"_s << u"abc"_s << u"abd"_s << false << u"You must read the file"_s;
        QTest::newRow("overwrite-unread-with-empty-old") << u"abc\n"_s << QString() << u"new"_s << false << u"You must read the file"_s;
    }
    void editFailures()
    {
        QFETCH(QString, content);
        QFETCH(QString, oldString);
        QFETCH(QString, newString);
        QFETCH(bool, read);
        QFETCH(QString, message);
        Harness h;
        QVERIFY(writeFile(h.p(u"f.txt"_s), content.toUtf8()));
        if (read)
            QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}})).ok);
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}, {u"oldString"_s, oldString}, {u"newString"_s, newString}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(message), qPrintable(r.error));
        QCOMPARE(readFile(h.p(u"f.txt"_s)), content.toUtf8());
    }

    void editReplaceAllAndCreate()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"f.txt"_s), "x = 1\ny = x\nx = 1\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}})).ok);
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}, {u"oldString"_s, u"x = 1"_s},
                                                     {u"newString"_s, u"x = 2"_s}, {u"replaceAll"_s, true}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readFile(h.p(u"f.txt"_s)), QByteArray("x = 2\ny = x\nx = 2\n"));

        // A missing file with a non-empty oldString fails; an empty oldString creates it.
        const ToolResult missing = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"new/f.txt"_s)}, {u"oldString"_s, u"a"_s}, {u"newString"_s, u"b"_s}}));
        QVERIFY(!missing.ok);
        QVERIFY(missing.error.contains(u"not found"_s));
        const ToolResult created = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"new/f.txt"_s)}, {u"oldString"_s, QString()}, {u"newString"_s, u"fresh\n"_s}}));
        QVERIFY2(created.ok, qPrintable(created.error));
        QCOMPARE(readFile(h.p(u"new/f.txt"_s)), QByteArray("fresh\n"));
    }

    void editCrlfFile()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"win.txt"_s), "one\r\ntwo\r\nthree\r\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"win.txt"_s)}})).ok);
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"win.txt"_s)}, {u"oldString"_s, u"one\ntwo"_s}, {u"newString"_s, u"1\n2"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readFile(h.p(u"win.txt"_s)), QByteArray("1\r\n2\r\nthree\r\n"));
    }

    void editDeniedAndDirectory()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"f.txt"_s), "abc"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}})).ok);
        h.policy = [](const QString &permission, const QStringList &) {
            return permission == u"edit" ? PermissionDecision::Deny : PermissionDecision::Allow;
        };
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}, {u"oldString"_s, u"abc"_s}, {u"newString"_s, u"x"_s}}));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(u"Permission denied"_s));
        QCOMPARE(readFile(h.p(u"f.txt"_s)), QByteArray("abc"));
        const ToolResult dir = h.run(u"edit"_s, input({{u"filePath"_s, h.project}, {u"oldString"_s, u"a"_s}, {u"newString"_s, u"b"_s}}));
        QVERIFY(!dir.ok);
        QVERIFY(dir.error.contains(u"directory"_s));
    }

    // ---------------------------------------------------------------------------------------
    // edit: OpenCode's matching, refusals, diffs (the replacers themselves: tst_textreplace)

    void editFindsFuzzyMatch()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"code.js"_s), "function f() {\n    if (ready) {\n        go();\n    }\n}\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"code.js"_s)}})).ok);
        // The model quotes the block without its indentation: LineTrimmedReplacer finds it.
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"code.js"_s)},
                                                     {u"oldString"_s, u"if (ready) {\ngo();\n}"_s},
                                                     {u"newString"_s, u"    if (ready) {\n        go(1);\n    }"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readFile(h.p(u"code.js"_s)), QByteArray("function f() {\n    if (ready) {\n        go(1);\n    }\n}\n"));
        const QString diff = r.metadata.string(u"diff");
        QVERIFY2(diff.contains(u"-        go();\n+        go(1);\n"_s), qPrintable(diff));
        const JsonObject filediff = r.metadata.object(u"filediff");
        QCOMPARE(filediff.string(u"file"), h.p(u"code.js"_s));
        QCOMPARE(filediff.integer(u"additions"), 1);
        QCOMPARE(filediff.integer(u"deletions"), 1);
        // The permission was asked with the same diff.
        QCOMPARE(h.findAsk(u"edit"_s)->metadata.string(u"diff"), diff);
    }

    void editTrimsCommonIndentationInDiff()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"deep.py"_s), "        a = 1\n        b = 2\n        c = 3\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"deep.py"_s)}})).ok);
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"deep.py"_s)}, {u"oldString"_s, u"b = 2"_s},
                                                     {u"newString"_s, u"b = 20"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        const QString diff = r.metadata.string(u"diff");
        QVERIFY2(diff.contains(u" a = 1\n-b = 2\n+b = 20\n c = 3"_s), qPrintable(diff)); // OpenCode's trimDiff
        QCOMPARE(readFile(h.p(u"deep.py"_s)), QByteArray("        a = 1\n        b = 20\n        c = 3\n"));
    }

    void editRefusesAmbiguousMatch()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"f.txt"_s), "  x = 1\ny\n  x = 1\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}})).ok);
        // Found (trimmed) on two lines: refused with OpenCode's message, the file untouched.
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"f.txt"_s)}, {u"oldString"_s, u"x = 1 "_s},
                                                     {u"newString"_s, u"x = 2"_s}}));
        QVERIFY(!r.ok);
        QCOMPARE(r.error, u"Found multiple matches for oldString. Provide more surrounding context to make the match unique."_s);
        QCOMPARE(readFile(h.p(u"f.txt"_s)), QByteArray("  x = 1\ny\n  x = 1\n"));
        QVERIFY(h.findAsk(u"edit"_s) == nullptr);
    }

    void editRefusesFileChangedSinceRead()
    {
        Harness h;
        const QString file = h.p(u"f.txt"_s);
        QVERIFY(writeFile(file, "one\n"));
        setMTime(file, 60);
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, file}})).ok);
        // Another program changes the file after the read.
        QVERIFY(writeFile(file, "one\ntwo\n"));
        setMTime(file, -5);
        for (const QString &tool : {u"edit"_s, u"write"_s}) {
            JsonObject in{{u"filePath"_s, file}};
            if (tool == u"edit") {
                in.insert(u"oldString"_s, u"one"_s);
                in.insert(u"newString"_s, u"1"_s);
            } else {
                in.insert(u"content"_s, u"1\n"_s);
            }
            const ToolResult r = h.run(tool, in);
            QVERIFY2(!r.ok, qPrintable(tool));
            QVERIFY2(r.error.startsWith(u"File %1 has been modified since it was last read.\nLast modification: "_s.arg(file)),
                     qPrintable(r.error));
            QVERIFY(r.error.contains(u"\nLast read: "_s));
            QVERIFY(r.error.endsWith(u"\n\nPlease read the file again before modifying it."_s));
            QCOMPARE(readFile(file), QByteArray("one\ntwo\n"));
        }
        // Read again: the edit goes through.
        setMTime(file, 60);
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, file}})).ok);
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, file}, {u"oldString"_s, u"two"_s}, {u"newString"_s, u"2"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readFile(file), QByteArray("one\n2\n"));
        // The tool's own write counts as a read: a second edit needs no new read.
        const ToolResult again = h.run(u"edit"_s, input({{u"filePath"_s, file}, {u"oldString"_s, u"one"_s}, {u"newString"_s, u"1"_s}}));
        QVERIFY2(again.ok, qPrintable(again.error));
        QCOMPARE(readFile(file), QByteArray("1\n2\n"));
    }

    void editFileReadInEarlierTurn()
    {
        // The read times live with the session (FileTimes), not with one run: two contexts of
        // the same session, as two turns make them, share them.
        FileTimes times;
        Harness h;
        const QString file = h.p(u"f.txt"_s);
        QVERIFY(writeFile(file, "old\n"));
        setMTime(file, 60);
        auto contextFor = [&](const QString &session) {
            ToolContext c = h.context();
            c.sessionID = session;
            c.lastRead = [&times, session](const QString &path) { return times.lastRead(session, path); };
            c.markRead = [&times, session](const QString &path) { times.markRead(session, path); };
            return c;
        };
        {
            ToolContext turn1 = contextFor(u"ses_a"_s);
            QVERIFY(h.tool(u"read"_s)->execute(turn1, input({{u"filePath"_s, file}})).ok);
        }
        ToolContext turn2 = contextFor(u"ses_a"_s);
        const ToolResult r = h.tool(u"edit"_s)->execute(turn2, input({{u"filePath"_s, file}, {u"oldString"_s, u"old"_s}, {u"newString"_s, u"new"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        // Another session has not read it.
        ToolContext other = contextFor(u"ses_b"_s);
        const ToolResult refused = h.tool(u"edit"_s)->execute(other, input({{u"filePath"_s, file}, {u"oldString"_s, u"new"_s}, {u"newString"_s, u"x"_s}}));
        QVERIFY(!refused.ok);
        QVERIFY2(refused.error.contains(u"You must read the file"_s), qPrintable(refused.error));
    }

    void fileTimesFromHistory()
    {
        // Completed read/edit/write/multiedit calls count as reads at the time they ended;
        // pending or failed calls and other tools do not.
        auto toolPart = [](const QString &tool, const ToolState &state) {
            Part p = Part::make(u"prt_1"_s, u"ses_1"_s, u"msg_1"_s, PartType::Tool);
            JsonObject json = p.json();
            json.insert(u"tool"_s, tool);
            json.insert(u"callID"_s, u"call_1"_s);
            p = Part(json);
            p.setState(state);
            return p;
        };
        MessageWithParts m;
        const JsonObject readRel{{u"filePath"_s, u"src/a.txt"_s}};
        m.parts.append(toolPart(u"read"_s, ToolState::completed(readRel, u"..."_s, u"a"_s, {}, 1000, 2000)));
        m.parts.append(toolPart(u"read"_s, ToolState::completed(readRel, u"..."_s, u"a"_s, {}, 5000, 6000)));
        const JsonObject editAbs{{u"filePath"_s, u"/elsewhere/b.txt"_s}};
        m.parts.append(toolPart(u"edit"_s, ToolState::completed(editAbs, u"ok"_s, u"b"_s, {}, 3000, 4000)));
        const JsonObject failed{{u"filePath"_s, u"/p/c.txt"_s}};
        m.parts.append(toolPart(u"edit"_s, ToolState::error(failed, u"nope"_s, 3000, 4000)));
        const JsonObject grep{{u"filePath"_s, u"/p/d.txt"_s}};
        m.parts.append(toolPart(u"grep"_s, ToolState::completed(grep, u"ok"_s, u"d"_s, {}, 3000, 4000)));
        const QHash<QString, QDateTime> reads = FileTimes::readsInHistory({m}, u"/p"_s);
        QCOMPARE(reads.size(), 2);
        QCOMPARE(reads.value(u"/p/src/a.txt"_s).toMSecsSinceEpoch(), 6000);
        QCOMPARE(reads.value(u"/elsewhere/b.txt"_s).toMSecsSinceEpoch(), 4000);

        FileTimes times;
        times.markRead(u"s"_s, u"/p/x"_s, QDateTime::fromMSecsSinceEpoch(9000, QTimeZone::UTC));
        times.seed(u"s"_s, u"/p/x"_s, QDateTime::fromMSecsSinceEpoch(7000, QTimeZone::UTC)); // older: ignored
        QCOMPARE(times.lastRead(u"s"_s, u"/p/x"_s).toMSecsSinceEpoch(), 9000);
        times.seed(u"s"_s, u"/p/y"_s, QDateTime::fromMSecsSinceEpoch(7000, QTimeZone::UTC));
        QCOMPARE(times.lastRead(u"s"_s, u"/p/y"_s).toMSecsSinceEpoch(), 7000);
        QVERIFY(!times.lastRead(u"other"_s, u"/p/x"_s).isValid());
        times.clearSession(u"s"_s);
        QVERIFY(!times.lastRead(u"s"_s, u"/p/x"_s).isValid());
    }

    // OpenCode's test/tool/edit.test.ts, "line endings": the file's line endings win over the
    // model's, for every mix.
    void editLineEndings_data()
    {
        QTest::addColumn<bool>("crlfFile");
        QTest::addColumn<QString>("oldString");
        QTest::addColumn<QString>("newString");
        QTest::addColumn<bool>("all");
        QTest::addColumn<QString>("content"); // with LF; converted to the file's endings
        QTest::addColumn<QString>("expected");
        const QString old = u"alpha\nbeta\ngamma"_s;
        const QString next = u"alpha\nbeta-updated\ngamma"_s;
        const QString alt = u"alpha\nbeta\nomega"_s;
        auto crlf = [](QString s) { return s.replace(u"\n"_s, u"\r\n"_s); };
        QTest::newRow("LF with LF multi-line strings") << false << old << next << false << old + u"\n" << next + u"\n";
        QTest::newRow("CRLF with CRLF multi-line strings") << true << crlf(old) << crlf(next) << false << old + u"\n" << next + u"\n";
        QTest::newRow("LF when old/new use CRLF") << false << crlf(old) << crlf(next) << false << old + u"\n" << next + u"\n";
        QTest::newRow("CRLF when old/new use LF") << true << old << next << false << old + u"\n" << next + u"\n";
        QTest::newRow("LF when newString uses CRLF") << false << old << crlf(next) << false << old + u"\n" << next + u"\n";
        QTest::newRow("CRLF when newString uses LF") << true << crlf(old) << next << false << old + u"\n" << next + u"\n";
        QTest::newRow("LF with mixed old/new line endings") << false << u"alpha\nbeta\r\ngamma"_s << u"alpha\r\nbeta\nomega"_s
                                                            << false << old + u"\n" << alt + u"\n";
        QTest::newRow("CRLF with mixed old/new line endings") << true << u"alpha\r\nbeta\ngamma"_s << u"alpha\nbeta\r\nomega"_s
                                                              << false << old + u"\n" << alt + u"\n";
        QTest::newRow("replaceAll preserves LF for multi-line blocks")
            << false << u"alpha\nbeta"_s << u"alpha\nbeta-updated"_s << true << u"alpha\nbeta\nalpha\nbeta\n"_s
            << u"alpha\nbeta-updated\nalpha\nbeta-updated\n"_s;
        QTest::newRow("replaceAll preserves CRLF for multi-line blocks")
            << true << crlf(u"alpha\nbeta"_s) << crlf(u"alpha\nbeta-updated"_s) << true << u"alpha\nbeta\nalpha\nbeta\n"_s
            << u"alpha\nbeta-updated\nalpha\nbeta-updated\n"_s;
    }
    void editLineEndings()
    {
        QFETCH(bool, crlfFile);
        QFETCH(QString, oldString);
        QFETCH(QString, newString);
        QFETCH(bool, all);
        QFETCH(QString, content);
        QFETCH(QString, expected);
        auto ending = [crlfFile](QString s) { return crlfFile ? s.replace(u"\n"_s, u"\r\n"_s) : s; };
        Harness h;
        QVERIFY(writeFile(h.p(u"test.txt"_s), ending(content).toUtf8()));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"test.txt"_s)}})).ok);
        const ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"test.txt"_s)}, {u"oldString"_s, oldString},
                                                     {u"newString"_s, newString}, {u"replaceAll"_s, all}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(QString::fromUtf8(readFile(h.p(u"test.txt"_s))), ending(expected));
        QVERIFY(!r.metadata.string(u"diff").contains(u'\r')); // the diff is of LF texts
    }

    // OpenCode's test/tool/edit.test.ts: "replaces the first visible line in BOM files",
    // "preserves BOM when oldString is empty on existing files", "tracks file diff statistics",
    // "handles multiline replacements", "throws error when file does not exist".
    void editByteOrderMarkAndStatistics()
    {
        Harness h;
        const QByteArray bom("\xEF\xBB\xBF");
        QVERIFY(writeFile(h.p(u"existing.cs"_s), bom + "using System;\nclass Test {}\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"existing.cs"_s)}})).ok);
        ToolResult r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"existing.cs"_s)}, {u"oldString"_s, u"using System;"_s},
                                               {u"newString"_s, u"using Up;"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QString diff = r.metadata.string(u"diff");
        QVERIFY2(diff.contains(u"-using System;"_s) && diff.contains(u"+using Up;"_s), qPrintable(diff));
        QVERIFY(!diff.contains(QChar(0xFEFF)));
        QCOMPARE(readFile(h.p(u"existing.cs"_s)), bom + "using Up;\nclass Test {}\n");

        QVERIFY(writeFile(h.p(u"other.cs"_s), bom + "using System;\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"other.cs"_s)}})).ok);
        r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"other.cs"_s)}, {u"oldString"_s, QString()}, {u"newString"_s, u"using Up;\n"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        diff = r.metadata.string(u"diff");
        QVERIFY2(diff.contains(u"-using System;"_s) && diff.contains(u"+using Up;"_s), qPrintable(diff));
        QCOMPARE(readFile(h.p(u"other.cs"_s)), bom + "using Up;\n");

        QVERIFY(writeFile(h.p(u"file.txt"_s), "line1\nline2\nline3"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, h.p(u"file.txt"_s)}})).ok);
        r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"file.txt"_s)}, {u"oldString"_s, u"line2"_s}, {u"newString"_s, u"new line a\nnew line b"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readFile(h.p(u"file.txt"_s)), QByteArray("line1\nnew line a\nnew line b\nline3"));
        QCOMPARE(r.metadata.object(u"filediff").string(u"file"), h.p(u"file.txt"_s));
        QVERIFY(r.metadata.object(u"filediff").integer(u"additions") > 0);

        r = h.run(u"edit"_s, input({{u"filePath"_s, h.p(u"nonexistent.txt"_s)}, {u"oldString"_s, u"old"_s}, {u"newString"_s, u"new"_s}}));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(u"not found"_s));
    }

    // ---------------------------------------------------------------------------------------
    // multiedit

    void multiEditAppliesInOrder()
    {
        Harness h;
        const QString file = h.p(u"m.txt"_s);
        QVERIFY(writeFile(file, "alpha\nbeta\ngamma\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, file}})).ok);
        const JsonArray edits{JsonObject{{u"filePath"_s, file}, {u"oldString"_s, u"alpha"_s}, {u"newString"_s, u"ALPHA"_s}},
                              // the second edit sees the first one's result
                              JsonObject{{u"oldString"_s, u"ALPHA\nbeta"_s}, {u"newString"_s, u"A\nB"_s}},
                              JsonObject{{u"oldString"_s, u"a"_s}, {u"newString"_s, u"4"_s}, {u"replaceAll"_s, true}}};
        const ToolResult r = h.run(u"multiedit"_s, input({{u"filePath"_s, file}, {u"edits"_s, edits}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"Edit applied successfully."_s);
        QCOMPARE(r.title, u"m.txt"_s);
        QCOMPARE(readFile(file), QByteArray("A\nB\ng4mm4\n"));
        QCOMPARE(r.metadata.array(u"results").size(), 3);
        QVERIFY(r.metadata.string(u"diff").contains(u"+g4mm4"_s));
        QCOMPARE(r.metadata.object(u"filediff").string(u"after"), u"A\nB\ng4mm4\n"_s);
        // One question for the whole change.
        QCOMPARE(h.askedPermissions().count(u"edit"_s), 1);
    }

    void multiEditIsAllOrNothing_data()
    {
        QTest::addColumn<QString>("second");
        QTest::addColumn<QString>("message");
        QTest::newRow("not-found") << u"zeta"_s << u"Edit 2 of 3 failed: Could not find oldString in the file."_s;
        QTest::newRow("ambiguous") << u"a"_s << u"Edit 2 of 3 failed: Found multiple matches for oldString."_s;
    }
    void multiEditIsAllOrNothing()
    {
        QFETCH(QString, second);
        QFETCH(QString, message);
        Harness h;
        const QString file = h.p(u"m.txt"_s);
        QVERIFY(writeFile(file, "alpha\nbeta\ngamma\n"));
        QVERIFY(h.run(u"read"_s, input({{u"filePath"_s, file}})).ok);
        const JsonArray edits{JsonObject{{u"oldString"_s, u"alpha"_s}, {u"newString"_s, u"ALPHA"_s}},
                              JsonObject{{u"oldString"_s, second}, {u"newString"_s, u"x"_s}},
                              JsonObject{{u"oldString"_s, u"gamma"_s}, {u"newString"_s, u"GAMMA"_s}}};
        const ToolResult r = h.run(u"multiedit"_s, input({{u"filePath"_s, file}, {u"edits"_s, edits}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.startsWith(message), qPrintable(r.error));
        QVERIFY(r.error.endsWith(u"No edit was applied; the file is unchanged."_s));
        QCOMPARE(readFile(file), QByteArray("alpha\nbeta\ngamma\n"));
        QVERIFY(h.asks.isEmpty() || h.findAsk(u"edit"_s) == nullptr);
    }

    void multiEditInputAndNewFile()
    {
        Harness h;
        ToolResult r = h.run(u"multiedit"_s, input({{u"filePath"_s, h.p(u"n.txt"_s)}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"\"edits\" is required"_s), qPrintable(r.error));
        r = h.run(u"multiedit"_s, input({{u"filePath"_s, h.p(u"n.txt"_s)}, {u"edits"_s, JsonArray{JsonObject{{u"oldString"_s, u"a"_s}}}}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"edits[0]"_s) && r.error.contains(u"newString"_s), qPrintable(r.error));
        r = h.run(u"multiedit"_s, input({{u"filePath"_s, h.p(u"n.txt"_s)}, {u"edits"_s, JsonArray{}}}));
        QVERIFY(!r.ok);
        // An empty oldString first creates the file; later edits apply to its content.
        const JsonArray edits{JsonObject{{u"oldString"_s, QString()}, {u"newString"_s, u"one\ntwo\n"_s}},
                              JsonObject{{u"oldString"_s, u"two"_s}, {u"newString"_s, u"2"_s}}};
        r = h.run(u"multiedit"_s, input({{u"filePath"_s, h.p(u"new/n.txt"_s)}, {u"edits"_s, edits}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readFile(h.p(u"new/n.txt"_s)), QByteArray("one\n2\n"));
        // A file not read first is refused, as by edit.
        QVERIFY(writeFile(h.p(u"unread.txt"_s), "abc\n"));
        r = h.run(u"multiedit"_s, input({{u"filePath"_s, h.p(u"unread.txt"_s)},
                                         {u"edits"_s, JsonArray{JsonObject{{u"oldString"_s, u"abc"_s}, {u"newString"_s, u"x"_s}}}}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"You must read the file"_s), qPrintable(r.error));
    }

    // ---------------------------------------------------------------------------------------
    // list

    void listTree()
    {
        Harness h;
        for (const QString &f : {u"a.txt"_s, u"src/main.cpp"_s, u"src/lib/util.h"_s, u"node_modules/x/index.js"_s,
                                 u".git/config"_s, u"build/out.o"_s, u"docs/readme.md"_s})
            QVERIFY(writeFile(h.p(f), "x"));
        const ToolResult r = h.run(u"list"_s, input({}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, h.project + u"/\n  docs/\n    readme.md\n  src/\n    lib/\n      util.h\n    main.cpp\n  a.txt\n"_s);
        QCOMPARE(r.metadata.integer(u"count"), 4);
        QCOMPARE(r.metadata.boolean(u"truncated"), false);
        QCOMPARE(h.askedPermissions(), QStringList{u"list"_s});

        const ToolResult ignored = h.run(u"list"_s, input({{u"path"_s, h.project}, {u"ignore"_s, JsonArray{u"*.txt"_s, u"docs/"_s}}}));
        QVERIFY2(ignored.ok, qPrintable(ignored.error));
        QCOMPARE(ignored.output, h.project + u"/\n  src/\n    lib/\n      util.h\n    main.cpp\n"_s);

        const ToolResult sub = h.run(u"list"_s, input({{u"path"_s, u"src"_s}}));
        QVERIFY2(sub.ok, qPrintable(sub.error));
        QCOMPARE(sub.output, h.p(u"src"_s) + u"/\n  lib/\n    util.h\n  main.cpp\n"_s);
        QCOMPARE(sub.title, u"src"_s);
    }

    void listCapAndFailures()
    {
        Harness h;
        for (int i = 0; i < 150; ++i)
            QVERIFY(writeFile(h.p(u"many/f%1.txt"_s.arg(QString::number(i).rightJustified(3, u'0'))), "x"));
        const ToolResult r = h.run(u"list"_s, input({}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.metadata.integer(u"count"), 100);
        QCOMPARE(r.metadata.boolean(u"truncated"), true);
        QVERIFY(r.output.contains(u"f099.txt"_s));
        QVERIFY(!r.output.contains(u"f100.txt"_s));
        QVERIFY(r.output.contains(u"Showing the first 100 files"_s));

        const ToolResult missing = h.run(u"list"_s, input({{u"path"_s, u"nope"_s}}));
        QVERIFY(!missing.ok);
        QVERIFY(missing.error.contains(u"not found"_s));
        const ToolResult file = h.run(u"list"_s, input({{u"path"_s, u"many/f001.txt"_s}}));
        QVERIFY(!file.ok);
        QVERIFY(file.error.contains(u"Not a directory"_s));
    }

    // ---------------------------------------------------------------------------------------
    // glob

    void globPatterns_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("expected"); // newest first
        QTest::newRow("double-star") << u"**/*.cpp"_s << QString() << QStringList{u"src/lib/b.cpp"_s, u"src/a.cpp"_s, u"top.cpp"_s};
        QTest::newRow("name-any-depth") << u"*.cpp"_s << QString() << QStringList{u"src/lib/b.cpp"_s, u"src/a.cpp"_s, u"top.cpp"_s};
        QTest::newRow("one-level") << u"src/*.cpp"_s << QString() << QStringList{u"src/a.cpp"_s};
        QTest::newRow("braces") << u"**/*.{h,md}"_s << QString() << QStringList{u"src/lib/b.h"_s, u"README.md"_s};
        QTest::newRow("question-class") << u"src/?.[ch]pp"_s << QString() << QStringList{u"src/a.cpp"_s};
        QTest::newRow("with-path") << u"*.cpp"_s << u"src/lib"_s << QStringList{u"src/lib/b.cpp"_s};
        QTest::newRow("name-prefix") << u"top.*"_s << QString() << QStringList{u"top.cpp"_s};
        QTest::newRow("none") << u"*.rs"_s << QString() << QStringList{};
    }
    void globPatterns()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, path);
        QFETCH(QStringList, expected);
        Harness h;
        const QList<std::pair<QString, int>> files{{u"top.cpp"_s, 300}, {u"src/a.cpp"_s, 200}, {u"src/lib/b.cpp"_s, 100},
                                                    {u"src/lib/b.h"_s, 50},  {u"README.md"_s, 400},  {u".git/x.cpp"_s, 10},
                                                    {u"node_modules/m/y.cpp"_s, 10}};
        for (const auto &[f, age] : files) {
            QVERIFY(writeFile(h.p(f), "x"));
            setMTime(h.p(f), age);
        }
        JsonObject in{{u"pattern"_s, pattern}};
        if (!path.isEmpty())
            in.insert(u"path"_s, path);
        const ToolResult r = h.run(u"glob"_s, in);
        QVERIFY2(r.ok, qPrintable(r.error));
        if (expected.isEmpty()) {
            QCOMPARE(r.output, u"No files found"_s);
        } else {
            QStringList absolute;
            for (const QString &e : expected)
                absolute.append(h.p(e));
            QCOMPARE(r.output, absolute.join(u'\n'));
        }
        QCOMPARE(r.metadata.integer(u"count"), expected.size());
        QCOMPARE(h.findAsk(u"glob"_s)->patterns, QStringList{pattern});
    }

    void globCapAndAbsolute()
    {
        Harness h;
        for (int i = 0; i < 120; ++i)
            QVERIFY(writeFile(h.p(u"d/f%1.txt"_s.arg(i)), "x"));
        const ToolResult r = h.run(u"glob"_s, input({{u"pattern"_s, u"**/*.txt"_s}}));
        QVERIFY(r.ok);
        QCOMPARE(r.metadata.integer(u"count"), 100);
        QCOMPARE(r.metadata.boolean(u"truncated"), true);
        QCOMPARE(r.output.count(u'\n'), 99 + 2);
        QVERIFY(r.output.endsWith(u"(Results are truncated. Consider using a more specific path or pattern.)"_s));

        const ToolResult absolute = h.run(u"glob"_s, input({{u"pattern"_s, h.p(u"d/f7.txt"_s)}}));
        QVERIFY2(absolute.ok, qPrintable(absolute.error));
        QCOMPARE(absolute.output, h.p(u"d/f7.txt"_s));
        const ToolResult absoluteGlob = h.run(u"glob"_s, input({{u"pattern"_s, h.p(u"d/f11?.txt"_s)}}));
        QVERIFY(absoluteGlob.ok);
        QCOMPARE(absoluteGlob.metadata.integer(u"count"), 10);

        const ToolResult missing = h.run(u"glob"_s, input({{u"pattern"_s, u"*"_s}, {u"path"_s, u"nope"_s}}));
        QVERIFY(!missing.ok);
    }

    void globMatcher_data()
    {
        QTest::addColumn<QString>("glob");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("expected");
        QTest::newRow("star-name") << u"*.ts"_s << u"a/b/c.ts"_s << true;
        QTest::newRow("star-no-slash") << u"src/*.ts"_s << u"src/a/b.ts"_s << false;
        QTest::newRow("globstar-zero-dirs") << u"src/**/*.ts"_s << u"src/b.ts"_s << true;
        QTest::newRow("globstar-dirs") << u"src/**/*.ts"_s << u"src/x/y/b.ts"_s << true;
        QTest::newRow("globstar-end") << u"docs/**"_s << u"docs/a/b.md"_s << true;
        QTest::newRow("class-negated") << u"file[!0-9].txt"_s << u"filea.txt"_s << true;
        QTest::newRow("class-negated-miss") << u"file[!0-9].txt"_s << u"file1.txt"_s << false;
        QTest::newRow("braces") << u"*.{js,jsx}"_s << u"a/b.jsx"_s << true;
        QTest::newRow("dot-literal") << u"*.ts"_s << u"a/bxts"_s << false;
        QTest::newRow("escaped-star") << u"a\\*b"_s << u"a*b"_s << true;
        QTest::newRow("escaped-star-miss") << u"a\\*b"_s << u"axb"_s << false;
        QTest::newRow("regex-chars-literal") << u"(x)+.txt"_s << u"(x)+.txt"_s << true;
    }
    void globMatcher()
    {
        QFETCH(QString, glob);
        QFETCH(QString, path);
        QFETCH(bool, expected);
        const ToolUtil::GlobMatcher m(glob);
        QVERIFY(m.isValid());
        QCOMPARE(m.matches(path), expected);
    }

    // ---------------------------------------------------------------------------------------
    // grep

    void grepFindsGrouped()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"a.cpp"_s), "int a;\n// TODO: fix a\nint b; // TODO later\n"));
        QVERIFY(writeFile(h.p(u"src/b.h"_s), "#pragma once\n// TODO header\n"));
        QVERIFY(writeFile(h.p(u"bin.dat"_s), QByteArray("TODO\0binary", 11)));
        QVERIFY(writeFile(h.p(u".git/TODO"_s), "TODO in git"));
        setMTime(h.p(u"a.cpp"_s), 100);
        setMTime(h.p(u"src/b.h"_s), 10);
        const ToolResult r = h.run(u"grep"_s, input({{u"pattern"_s, u"TODO\\b"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"Found 3 matches\n%1:\n  Line 2: // TODO header\n\n%2:\n  Line 2: // TODO: fix a\n  Line 3: int b; // TODO later"_s
                               .arg(h.p(u"src/b.h"_s), h.p(u"a.cpp"_s)));
        QCOMPARE(r.title, u"TODO\\b"_s);
        QCOMPARE(r.metadata.integer(u"matches"), 3);
        QCOMPARE(h.findAsk(u"grep"_s)->patterns, QStringList{u"TODO\\b"_s});

        const ToolResult included = h.run(u"grep"_s, input({{u"pattern"_s, u"TODO"_s}, {u"include"_s, u"*.h"_s}}));
        QVERIFY(included.ok);
        QCOMPARE(included.metadata.integer(u"matches"), 1);

        const ToolResult oneFile = h.run(u"grep"_s, input({{u"pattern"_s, u"^int"_s}, {u"path"_s, u"a.cpp"_s}}));
        QVERIFY2(oneFile.ok, qPrintable(oneFile.error));
        QCOMPARE(oneFile.metadata.integer(u"matches"), 2);

        const ToolResult none = h.run(u"grep"_s, input({{u"pattern"_s, u"nothing-like-this"_s}}));
        QVERIFY(none.ok);
        QCOMPARE(none.output, u"No files found"_s);
    }

    void grepDoesNotFollowSymlinksOut()
    {
        Harness h;
        QVERIFY(writeFile(h.outside + u"/secret.txt"_s, "password=hunter2\n"));
        QVERIFY(writeFile(h.p(u"inside.txt"_s), "password=inside\n"));
        QVERIFY(QFile::link(h.outside + u"/secret.txt"_s, h.p(u"leak.txt"_s)));
        QVERIFY(QFile::link(h.p(u"inside.txt"_s), h.p(u"alias.txt"_s)));
        const ToolResult r = h.run(u"grep"_s, input({{u"pattern"_s, u"password"_s}}));
        QVERIFY(r.ok);
        QVERIFY(!r.output.contains(u"hunter2"_s));
        QVERIFY(r.output.contains(u"password=inside"_s));
        QCOMPARE(r.metadata.integer(u"matches"), 2); // inside.txt and its alias
    }

    void grepCapAndErrors()
    {
        Harness h;
        QByteArray many;
        for (int i = 0; i < 150; ++i)
            many += "match " + QByteArray::number(i) + '\n';
        QVERIFY(writeFile(h.p(u"many.txt"_s), many));
        const ToolResult r = h.run(u"grep"_s, input({{u"pattern"_s, u"match"_s}}));
        QVERIFY(r.ok);
        QCOMPARE(r.metadata.integer(u"matches"), 100);
        QCOMPARE(r.metadata.boolean(u"truncated"), true);
        QVERIFY(r.output.contains(u"Results are truncated"_s));
        QVERIFY(r.output.contains(u"Line 100: match 99"_s));
        QVERIFY(!r.output.contains(u"Line 101:"_s));

        const ToolResult bad = h.run(u"grep"_s, input({{u"pattern"_s, u"(unclosed"_s}}));
        QVERIFY(!bad.ok);
        QVERIFY2(bad.error.contains(u"Invalid regular expression"_s), qPrintable(bad.error));
        const ToolResult missing = h.run(u"grep"_s, input({{u"pattern"_s, u"x"_s}, {u"path"_s, u"nope"_s}}));
        QVERIFY(!missing.ok);
        QVERIFY(missing.error.contains(u"not found"_s));
    }

    // ---------------------------------------------------------------------------------------
    // bash

    void bashRuns()
    {
        Harness h;
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"echo hello; echo oops >&2; pwd"_s}, {u"description"_s, u"Say hello"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"hello\noops\n"_s + h.project + u'\n');
        QCOMPARE(r.title, u"Say hello"_s);
        QCOMPARE(r.metadata.integer(u"exit", -1), 0);
        QCOMPARE(r.metadata.string(u"description"), u"Say hello"_s);
        QCOMPARE(r.metadata.string(u"output"), r.output);
        // Each command by its text (with its redirections, as OpenCode asks) and by its words.
        QCOMPARE(h.findAsk(u"bash"_s)->patterns, (QStringList{u"echo hello"_s, u"echo oops >&2"_s, u"echo oops"_s, u"pwd"_s}));
        QCOMPARE(h.findAsk(u"bash"_s)->metadata.string(u"command"), u"echo hello; echo oops >&2; pwd"_s);
    }

    void bashExitCodeWorkdirStdin()
    {
        Harness h;
        QDir().mkpath(h.p(u"sub"_s));
        const ToolResult failed = h.run(u"bash"_s, input({{u"command"_s, u"echo partial; exit 3"_s}}));
        QVERIFY2(failed.ok, "a non-zero exit is a result, not a tool error");
        QCOMPARE(failed.metadata.integer(u"exit"), 3);
        QCOMPARE(failed.output, u"partial\n"_s);

        const ToolResult wd = h.run(u"bash"_s, input({{u"command"_s, u"pwd"_s}, {u"workdir"_s, u"sub"_s}}));
        QVERIFY(wd.ok);
        QCOMPARE(wd.output.trimmed(), h.p(u"sub"_s));

        QElapsedTimer t;
        t.start();
        const ToolResult stdinClosed = h.run(u"bash"_s, input({{u"command"_s, u"cat; echo done"_s}, {u"timeout"_s, 5000}}));
        QVERIFY(stdinClosed.ok);
        QCOMPARE(stdinClosed.output, u"done\n"_s);
        QVERIFY(t.elapsed() < 4000);

        const ToolResult badWorkdir = h.run(u"bash"_s, input({{u"command"_s, u"pwd"_s}, {u"workdir"_s, u"nope"_s}}));
        QVERIFY(!badWorkdir.ok);
        QVERIFY(badWorkdir.error.contains(u"working directory"_s));
    }

    void bashTimeoutKillsGroup()
    {
        Harness h;
        const QString pidFile = h.p(u"child.pid"_s);
        QElapsedTimer t;
        t.start();
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"echo started; sleep 30 & echo $! > child.pid; wait; echo never"_s},
                                                     {u"timeout"_s, 500}}));
        const qint64 elapsed = t.elapsed();
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY2(elapsed < 5000, qPrintable(QString::number(elapsed)));
        QVERIFY(r.output.startsWith(u"started\n"_s));
        QVERIFY(!r.output.contains(u"never"_s));
        QVERIFY2(r.output.contains(u"<bash_metadata>\nbash tool terminated command after exceeding timeout 500 ms\n</bash_metadata>"_s),
                 qPrintable(r.output));
        QVERIFY(r.metadata.value(u"exit").isNull());
        // The background child in the same process group was killed too.
        const pid_t child = pid_t(readFile(pidFile).trimmed().toLongLong());
        QVERIFY(child > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(child), 3000);
    }

    void bashTimeoutIsCapped()
    {
        Harness h;
        // An absurd timeout is clamped to the maximum rather than refused.
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"echo ok"_s}, {u"timeout"_s, 99999999}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"ok\n"_s);
        QCOMPARE(BashTool::MaxTimeoutMs, 600000);
        QCOMPARE(BashTool::DefaultTimeoutMs, 120000);
    }

    void bashAbortAndProgress()
    {
        Harness h;
        std::thread aborter([flag = h.abortFlag] {
            std::this_thread::sleep_for(std::chrono::milliseconds(700));
            flag->store(true);
        });
        QElapsedTimer t;
        t.start();
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"echo first; sleep 0.3; echo second; sleep 30; echo never"_s},
                                                     {u"description"_s, u"Slow"_s}}));
        aborter.join();
        QVERIFY2(t.elapsed() < 5000, "abort stops the command at once");
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(u"User aborted the command"_s), qPrintable(r.error));
        QVERIFY(r.error.contains(u"first\nsecond"_s));
        QVERIFY(!r.error.contains(u"never"_s));
        QCOMPARE(r.metadata.string(u"description"), u"Slow"_s);
        QVERIFY(r.metadata.value(u"exit").isNull());
        // Progress arrived with the output so far, first "first" alone.
        QVERIFY(h.progress.size() >= 2);
        QCOMPARE(h.progress.first().first, u"Slow"_s);
        QCOMPARE(h.progress.first().second.string(u"output"), u"first\n"_s);
        QVERIFY(h.progress.last().second.string(u"output").contains(u"second"_s));
        QVERIFY2(h.progress.size() <= 12, "progress is rate limited");

        // Already aborted: nothing runs.
        const ToolResult before = h.run(u"bash"_s, input({{u"command"_s, u"touch ran.txt"_s}}));
        QVERIFY(!before.ok);
        QVERIFY(!QFileInfo::exists(h.p(u"ran.txt"_s)));
    }

    void bashOutputCapLines()
    {
        Harness h;
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"seq 1 5000"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.output.startsWith(u"1\n2\n3\n"_s));
        QVERIFY(r.output.contains(u"\n2000\n\n...3001 lines truncated...\n\n"_s));
        QVERIFY(!r.output.contains(u"\n2001\n"_s));
        const qsizetype at = r.output.indexOf(u"Full output saved to: "_s);
        QVERIFY(at > 0);
        const QString path = r.output.mid(at + 22).section(u'\n', 0, 0);
        QVERIFY2(path.startsWith(h.data + u"/tool-output/tool_"_s), qPrintable(path));
        QByteArray expected;
        for (int i = 1; i <= 5000; ++i)
            expected += QByteArray::number(i) + '\n';
        QCOMPARE(readFile(path), expected);
        QCOMPARE(r.metadata.string(u"outputPath"), path);
        QCOMPARE(r.metadata.integer(u"exit"), 0);
    }

    void bashOutputCapChars()
    {
        Harness h;
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"head -c 100000 /dev/zero | tr '\\0' a"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.output.startsWith(QString(ToolUtil::MaxOutputChars, u'a') + u"\n\n...70000 characters truncated..."_s));
        QCOMPARE(r.metadata.string(u"output").size(), BashTool::MaxMetadataLength + 5);
    }

    void bashHugeOutputStreamsToFile()
    {
        Harness h;
        // About 2.3 MB: beyond what is kept in memory.
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"seq 1 350000"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.output.contains(u"...348001 lines truncated..."_s));
        const QString path = r.metadata.string(u"outputPath");
        QVERIFY(!path.isEmpty());
        const QByteArray saved = readFile(path);
        QCOMPARE(saved.count('\n'), 350000);
        QVERIFY(saved.startsWith("1\n2\n"));
        QVERIFY(saved.endsWith("\n349999\n350000\n"));
    }

    void bashPermission()
    {
        Harness h;
        h.policy = [](const QString &permission, const QStringList &patterns) {
            if (permission == u"bash" && std::any_of(patterns.cbegin(), patterns.cend(), [](const QString &p) { return p.startsWith(u"rm "); }))
                return PermissionDecision::Deny;
            return PermissionDecision::Allow;
        };
        QVERIFY(writeFile(h.p(u"keep.txt"_s), "x"));
        const ToolResult r = h.run(u"bash"_s, input({{u"command"_s, u"git status && rm keep.txt"_s}}));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(u"Permission denied"_s));
        QVERIFY(QFileInfo::exists(h.p(u"keep.txt"_s)));
        QCOMPARE(h.findAsk(u"bash"_s)->patterns, (QStringList{u"git status"_s, u"rm keep.txt"_s}));
    }

    // ---------------------------------------------------------------------------------------
    // task

    void taskRunsSubagent()
    {
        Harness h;
        QString gotAgent, gotDescription, gotPrompt;
        h.subagent = [&](const QString &agent, const QString &description, const QString &prompt) -> Result<QString> {
            gotAgent = agent;
            gotDescription = description;
            gotPrompt = prompt;
            return u"Found 3 callers."_s;
        };
        const ToolResult r = h.run(u"task"_s, input({{u"description"_s, u"Find callers"_s}, {u"prompt"_s, u"Find all callers of f()"_s},
                                                     {u"subagent_type"_s, u"general"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"<task_result>\nFound 3 callers.\n</task_result>"_s);
        QCOMPARE(r.title, u"Find callers"_s);
        QCOMPARE(gotAgent, u"general"_s);
        QCOMPARE(gotDescription, u"Find callers"_s);
        QCOMPARE(gotPrompt, u"Find all callers of f()"_s);
        QCOMPARE(h.findAsk(u"task"_s)->patterns, QStringList{u"general"_s});
    }

    void taskFailures()
    {
        Harness h;
        const JsonObject in{{u"description"_s, u"d"_s}, {u"prompt"_s, u"p"_s}, {u"subagent_type"_s, u"general"_s}};
        const ToolResult unavailable = h.run(u"task"_s, in);
        QVERIFY(!unavailable.ok);
        QVERIFY(unavailable.error.contains(u"not available"_s));

        h.subagent = [](const QString &, const QString &, const QString &) -> Result<QString> {
            return Error{u"unknown agent \"nope\""_s, {}};
        };
        const ToolResult failed = h.run(u"task"_s, in);
        QVERIFY(!failed.ok);
        QVERIFY(failed.error.contains(u"unknown agent"_s));

        h.policy = [](const QString &, const QStringList &) { return PermissionDecision::Deny; };
        const ToolResult denied = h.run(u"task"_s, in);
        QVERIFY(!denied.ok);
        QVERIFY(denied.error.contains(u"Permission denied"_s));
    }

    // ---------------------------------------------------------------------------------------
    // Paths outside the project need external_directory.

    void externalDirectory_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("pathKey");
        QTest::addColumn<QString>("target"); // relative to the project; resolved in the outside folder
        QTest::addColumn<bool>("directory");
        QTest::newRow("read") << u"read"_s << u"filePath"_s << u"../outside/secret.txt"_s << false;
        QTest::newRow("write") << u"write"_s << u"filePath"_s << u"../outside/new.txt"_s << false;
        QTest::newRow("edit") << u"edit"_s << u"filePath"_s << u"../outside/secret.txt"_s << false;
        QTest::newRow("list") << u"list"_s << u"path"_s << u"../outside"_s << true;
        QTest::newRow("glob") << u"glob"_s << u"path"_s << u"../outside"_s << true;
        QTest::newRow("grep") << u"grep"_s << u"path"_s << u"../outside"_s << true;
        QTest::newRow("bash-workdir") << u"bash"_s << u"workdir"_s << u"../outside"_s << true;
        QTest::newRow("hostile-dotdot") << u"read"_s << u"filePath"_s << u"sub/../../outside/./secret.txt"_s << false;
        QTest::newRow("symlink-escape") << u"read"_s << u"filePath"_s << u"link/secret.txt"_s << false;
    }
    void externalDirectory()
    {
        QFETCH(QString, tool);
        QFETCH(QString, pathKey);
        QFETCH(QString, target);
        QFETCH(bool, directory);
        for (const bool allow : {false, true}) {
            Harness h;
            QVERIFY(writeFile(h.outside + u"/secret.txt"_s, "secret text\n"));
            QVERIFY(QFile::link(h.outside, h.p(u"link"_s)));
            const QString absolute = QDir::cleanPath(h.project + u'/' + target);
            h.readFiles.insert(h.outside + u"/secret.txt"_s, QDateTime::currentDateTimeUtc());
            h.readFiles.insert(absolute, QDateTime::currentDateTimeUtc());
            h.policy = [allow](const QString &permission, const QStringList &) {
                return permission == u"external_directory" && !allow ? PermissionDecision::Deny : PermissionDecision::Allow;
            };
            JsonObject in{{pathKey, target}};
            if (tool == u"write")
                in.insert(u"content"_s, u"x"_s);
            if (tool == u"edit") {
                in.insert(u"oldString"_s, u"secret"_s);
                in.insert(u"newString"_s, u"public"_s);
            }
            if (tool == u"glob" || tool == u"grep")
                in.insert(u"pattern"_s, u"*"_s);
            if (tool == u"grep")
                in.insert(u"pattern"_s, u"secret"_s);
            if (tool == u"bash")
                in.insert(u"command"_s, u"cat secret.txt"_s);
            const ToolResult r = h.run(tool, in);
            const AskCall *ask = h.findAsk(u"external_directory"_s);
            QVERIFY2(ask, "external_directory was asked");
            const QString folder = target.startsWith(u"link"_s) ? QFileInfo(h.outside).canonicalFilePath()
                                 : directory                    ? absolute
                                                                : QFileInfo(absolute).absolutePath();
            QCOMPARE(ask->patterns, QStringList{folder + u"/*"_s});
            if (!allow) {
                QVERIFY(!r.ok);
                QVERIFY2(r.error.contains(u"outside the project"_s), qPrintable(r.error));
                QVERIFY(!r.error.contains(u"secret text"_s));
                QCOMPARE(readFile(h.outside + u"/secret.txt"_s), QByteArray("secret text\n"));
                QVERIFY(!QFileInfo::exists(h.outside + u"/new.txt"_s));
                QCOMPARE(h.asks.size(), 1); // nothing else was asked or done
            } else {
                QVERIFY2(r.ok, qPrintable(tool + u": "_s + r.error));
            }
        }
    }

    void hostileSystemPath()
    {
        Harness h;
        h.policy = [](const QString &permission, const QStringList &) {
            return permission == u"external_directory" ? PermissionDecision::Deny : PermissionDecision::Allow;
        };
        const ToolResult r = h.run(u"read"_s, input({{u"filePath"_s, u"../../../../../../../../etc/passwd"_s}}));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(u"Permission denied"_s));
        QVERIFY(!r.error.contains(u"root:"_s));
        QCOMPARE(h.findAsk(u"external_directory"_s)->patterns, QStringList{u"/etc/*"_s});
        QCOMPARE(h.findAsk(u"external_directory"_s)->metadata.string(u"filepath"), u"/etc/passwd"_s);
        const ToolResult absolute = h.run(u"write"_s, input({{u"filePath"_s, u"/etc/weft-should-not-exist"_s}, {u"content"_s, u"x"_s}}));
        QVERIFY(!absolute.ok);
        QVERIFY(!QFileInfo::exists(u"/etc/weft-should-not-exist"_s));
    }

    void worktreeIsNotExternal()
    {
        Harness h;
        QVERIFY(writeFile(h.p(u"README.md"_s), "root readme\n"));
        QDir().mkpath(h.p(u"sub"_s));
        ToolContext c = h.context();
        c.directory = h.p(u"sub"_s); // the session runs in a subfolder of the worktree
        const ToolResult r = h.tool(u"read"_s)->execute(c, input({{u"filePath"_s, u"../README.md"_s}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.title, u"README.md"_s);
        QVERIFY(!h.findAsk(u"external_directory"_s));
    }

    // ---------------------------------------------------------------------------------------
    // Unified diffs and counts

    void textDiff_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("hunks");
        QTest::addColumn<qint64>("additions");
        QTest::addColumn<qint64>("deletions");
        QTest::newRow("identical") << u"a\nb\n"_s << u"a\nb\n"_s << QString() << qint64(0) << qint64(0);
        QTest::newRow("change") << u"a\nb\nc\n"_s << u"a\nB\nc\n"_s << u"@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"_s << qint64(1) << qint64(1);
        QTest::newRow("create") << QString() << u"x\ny\n"_s << u"@@ -0,0 +1,2 @@\n+x\n+y\n"_s << qint64(2) << qint64(0);
        QTest::newRow("delete-all") << u"x\n"_s << QString() << u"@@ -1,1 +0,0 @@\n-x\n"_s << qint64(0) << qint64(1);
        QTest::newRow("no-newline") << u"a\nb"_s << u"a\nc"_s
                                    << u"@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"_s
                                    << qint64(1) << qint64(1);
        QTest::newRow("newline-added") << u"a"_s << u"a\n"_s << u"@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+a\n"_s
                                       << qint64(1) << qint64(1);
        QString longBefore;
        QString longAfter;
        for (int i = 1; i <= 20; ++i) {
            longBefore += u"l%1\n"_s.arg(i);
            longAfter += (i == 2 || i == 18) ? u"L%1\n"_s.arg(i) : u"l%1\n"_s.arg(i);
        }
        QTest::newRow("two-hunks") << longBefore << longAfter
                                   << u"@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n@@ -15,6 +15,6 @@\n l15\n l16\n l17\n-l18\n+L18\n l19\n l20\n"_s
                                   << qint64(2) << qint64(2);
    }
    void textDiff()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QString, hunks);
        QFETCH(qint64, additions);
        QFETCH(qint64, deletions);
        const QString header = u"Index: f.txt\n===================================================================\n--- f.txt\n+++ f.txt\n"_s;
        QCOMPARE(TextDiff::unified(u"f.txt"_s, before, after), header + hunks);
        QCOMPARE(TextDiff::count(before, after), (TextDiff::Counts{additions, deletions}));
    }

    void textDiffLarge()
    {
        // Many scattered changes in a long file: still exact counts, and fast.
        QString before;
        QString after;
        for (int i = 0; i < 20000; ++i) {
            before += u"line %1\n"_s.arg(i);
            if (i % 10 == 0)
                after += u"changed %1\n"_s.arg(i);
            else if (i % 10 != 5)
                after += u"line %1\n"_s.arg(i);
        }
        QElapsedTimer t;
        t.start();
        const TextDiff::Counts c = TextDiff::count(before, after);
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(c.deletions, 4000); // 2000 changed + 2000 removed
        QCOMPARE(c.additions, 2000);
    }

    void truncateOutputDirect()
    {
        QTemporaryDir dir;
        const QString small = u"a\nb"_s;
        const ToolUtil::Truncated same = ToolUtil::truncateOutput(small, dir.path());
        QCOMPARE(same.text, small);
        QVERIFY(!same.truncated);
        const ToolUtil::Truncated cut = ToolUtil::truncateOutput(u"1\n2\n3\n4\n5"_s, dir.path(), 2, 1000);
        QVERIFY(cut.truncated);
        QVERIFY(cut.text.startsWith(u"1\n2\n\n...3 lines truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: "_s));
        QCOMPARE(readFile(cut.outputPath), QByteArray("1\n2\n3\n4\n5"));
        // Without a data dir the output is still cut, with an honest note.
        const ToolUtil::Truncated unsaved = ToolUtil::truncateOutput(u"1\n2\n3"_s, QString(), 1, 1000);
        QVERIFY(unsaved.truncated);
        QVERIFY(unsaved.outputPath.isEmpty());
        QVERIFY(unsaved.text.contains(u"could not be saved"_s));
    }

    void toolOutputRetention()
    {
        // Files older than 7 days go; then the oldest until the folder is under the cap; a file
        // written in the last hour (a running tool's) stays whatever the size.
        Harness h;
        const QString dir = h.data + u"/tool-output/"_s;
        QVERIFY(QDir().mkpath(dir));
        const qint64 day = 24 * 3600;
        const QList<std::tuple<QString, qint64, qsizetype>> files{
            {u"tool_old1"_s, 8 * day, 1024},          {u"tool_old2"_s, 30 * day, 1024},
            {u"tool_d5"_s, 5 * day, 100 * 1024},      {u"tool_d4"_s, 4 * day, 100 * 1024},
            {u"tool_d3"_s, 3 * day, 100 * 1024},      {u"tool_d2"_s, 2 * day, 100 * 1024},
            {u"tool_writing"_s, 60, 300 * 1024},
        };
        for (const auto &[name, age, size] : files) {
            QVERIFY(writeFile(dir + name, QByteArray(size, 'o')));
            setMTime(dir + name, age);
        }
        const auto left = [&] { return QDir(dir).entryList(QDir::Files, QDir::Name); };

        // 700 KB of recent files against a 550 KB cap: the two oldest recent ones go too.
        QCOMPARE(ToolUtil::pruneToolOutput(h.data, 550 * 1024), 4);
        QCOMPARE(left(), (QStringList{u"tool_d2"_s, u"tool_d3"_s, u"tool_writing"_s}));
        // Within the cap and the age: nothing.
        QCOMPARE(ToolUtil::pruneToolOutput(h.data, 550 * 1024), 0);
        // A cap nothing fits under: everything but the file in use.
        QCOMPARE(ToolUtil::pruneToolOutput(h.data, 0), 2);
        QCOMPARE(left(), QStringList{u"tool_writing"_s});
        QVERIFY(ToolUtil::ToolOutputMaxAgeDays == 7 && ToolUtil::ToolOutputMaxBytes == 500LL * 1024 * 1024);
    }

    void toolOutputRetentionRunsWhenAFileIsMade()
    {
        // Making an output file starts the retention on a worker thread: the week-old file goes,
        // the new one stays.
        Harness h;
        const QString old = h.data + u"/tool-output/tool_lastmonth"_s;
        QVERIFY(writeFile(old, "stale"));
        setMTime(old, 31 * 24 * 3600);
        const QString made = ToolUtil::createToolOutputFile(h.data);
        QVERIFY(!made.isEmpty());
        QTRY_VERIFY(!QFile::exists(old));
        QVERIFY(QFile::exists(made));
    }
};

QTEST_GUILESS_MAIN(TestTools)
#include "tst_tools.moc"
