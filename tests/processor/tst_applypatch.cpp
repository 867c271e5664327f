// SPDX-License-Identifier: GPL-3.0-or-later
// The apply_patch tool (model/processor/tools/applypatchtool.*): OpenCode's patch format, its
// four-pass line matching, and the tool checking every hunk before it writes anything.
#include "processor/tools/applypatchtool.h"
#include "testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

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

} // namespace

class TestApplyPatch : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_project;
    QString m_outside;
    QList<std::pair<QString, QStringList>> m_asks;
    PermissionDecision m_answer = PermissionDecision::Allow;

    ToolContext context()
    {
        ToolContext c;
        c.sessionID = u"ses_test"_s;
        c.directory = m_project;
        c.worktree = m_project;
        c.dataDir = m_root.path() + u"/data"_s;
        c.abortFlag = std::make_shared<std::atomic_bool>(false);
        c.ask = [this](const PermissionAsk &a) {
            const QString &permission = a.permission;
            const QStringList &patterns = a.patterns;
            m_asks.append({permission, patterns});
            return m_answer;
        };
        c.lastRead = [](const QString &) { return QDateTime(); };
        c.markRead = [](const QString &) {};
        return c;
    }

    ToolResult run(const QString &patch)
    {
        ToolContext c = context();
        return ApplyPatchTool().execute(c, JsonObject{{u"patchText"_s, patch}});
    }

private Q_SLOTS:
    void init()
    {
        m_project = m_root.path() + u"/project"_s;
        m_outside = m_root.path() + u"/outside"_s;
        QDir(m_project).removeRecursively();
        QDir(m_outside).removeRecursively();
        QVERIFY(QDir().mkpath(m_project));
        QVERIFY(QDir().mkpath(m_outside));
        m_asks.clear();
        m_answer = PermissionDecision::Allow;
    }

    void parse()
    {
        const Result<QList<ApplyPatch::Hunk>> hunks = ApplyPatch::parse(
            u"cat <<'EOF'\n*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Delete File: old.txt\n"
            u"*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n-    return 1\n+    return 2\n@@\n x\n-y\n+z\n*** End of File\n"
            u"*** End Patch\nEOF"_s);
        QVERIFY(hunks);
        QCOMPARE(hunks->size(), 3);
        QCOMPARE(hunks->at(0).type, ApplyPatch::Hunk::Type::Add);
        QCOMPARE(hunks->at(0).contents, u"one\ntwo"_s);
        QCOMPARE(hunks->at(1).type, ApplyPatch::Hunk::Type::Delete);
        QCOMPARE(hunks->at(1).path, u"old.txt"_s);
        const ApplyPatch::Hunk &update = hunks->at(2);
        QCOMPARE(update.movePath, u"b.py"_s);
        QCOMPARE(update.chunks.size(), 2);
        QCOMPARE(update.chunks.at(0).context, u"def f():"_s);
        QCOMPARE(update.chunks.at(0).oldLines, QStringList{u"    return 1"_s});
        QCOMPARE(update.chunks.at(1).oldLines, (QStringList{u"x"_s, u"y"_s}));
        QCOMPARE(update.chunks.at(1).newLines, (QStringList{u"x"_s, u"z"_s}));
        QVERIFY(update.chunks.at(1).endOfFile);

        QVERIFY(!ApplyPatch::parse(u"*** Update File: a\n@@\n-x\n+y\n"_s));
        QVERIFY(!ApplyPatch::parse(u"*** End Patch\n*** Begin Patch"_s));
    }

    void seek_data()
    {
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<QStringList>("pattern");
        QTest::addColumn<bool>("eof");
        QTest::addColumn<int>("expected");
        const QStringList file{u"a"_s, u"  b  "_s, u"c \u2014 \u201Cquoted\u201D"_s, u"a"_s};
        QTest::newRow("exact") << file << QStringList{u"a"_s} << false << 0;
        QTest::newRow("end of file first") << file << QStringList{u"a"_s} << true << 3;
        QTest::newRow("trailing whitespace") << file << QStringList{u"  b"_s} << false << 1;
        QTest::newRow("surrounding whitespace") << file << QStringList{u"b"_s} << false << 1;
        QTest::newRow("unicode punctuation") << file << QStringList{u"c - \"quoted\""_s} << false << 2;
        QTest::newRow("not there") << file << QStringList{u"d"_s} << false << -1;
        QTest::newRow("empty pattern") << file << QStringList{} << false << -1;
    }

    void seek()
    {
        QFETCH(QStringList, lines);
        QFETCH(QStringList, pattern);
        QFETCH(bool, eof);
        QFETCH(int, expected);
        QCOMPARE(ApplyPatch::seek(lines, pattern, 0, eof), qsizetype(expected));
    }

    void applyChunks()
    {
        const QString original = u"def f():\n    return 1\n\ndef g():\n    return 1\n"_s;
        // The context line picks the second "return 1".
        Result<QString> out = ApplyPatch::applyChunks(original, {{{u"    return 1"_s}, {u"    return 2"_s}, u"def g():"_s, false}}, u"a.py"_s);
        QVERIFY(out);
        QCOMPARE(out.value(), u"def f():\n    return 1\n\ndef g():\n    return 2\n"_s);
        // A pure addition goes to the end; a trailing blank line the file lacks is forgiven.
        out = ApplyPatch::applyChunks(u"x\n"_s, {{{}, {u"y"_s}, {}, false}}, u"f"_s);
        QCOMPARE(out.value(), u"x\ny\n"_s);
        out = ApplyPatch::applyChunks(u"x\ny"_s, {{{u"y"_s, u""_s}, {u"z"_s, u""_s}, {}, false}}, u"f"_s);
        QCOMPARE(out.value(), u"x\nz\n"_s);
        // Errors say what was not found.
        out = ApplyPatch::applyChunks(original, {{{u"nope"_s}, {u"x"_s}, {}, false}}, u"a.py"_s);
        QVERIFY(!out);
        QVERIFY(out.error().message.startsWith(u"Failed to find expected lines in a.py:\nnope"_s));
        out = ApplyPatch::applyChunks(original, {{{u"    return 1"_s}, {u"x"_s}, u"def h():"_s, false}}, u"a.py"_s);
        QCOMPARE(out.error().message, u"Failed to find context 'def h():' in a.py"_s);
    }

    void addUpdateMoveDelete()
    {
        QVERIFY(writeFile(m_project + u"/a.py"_s, "def f():\n    return 1\n"));
        QVERIFY(writeFile(m_project + u"/old.txt"_s, "bye\n"));
        QVERIFY(writeFile(m_project + u"/crlf.txt"_s, "one\r\ntwo\r\n"));
        QVERIFY(writeFile(m_project + u"/bom.txt"_s, "\xEF\xBB\xBFkeep\n"));
        const ToolResult r = run(u"*** Begin Patch\n*** Add File: src/new.txt\n+hello\n*** Update File: a.py\n*** Move to: b.py\n"
                                 u"@@\n def f():\n-    return 1\n+    return 2\n*** Delete File: old.txt\n"
                                 u"*** Update File: crlf.txt\n@@\n-two\n+TWO\n*** Update File: bom.txt\n@@\n-keep\n+kept\n*** End Patch"_s);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.output, u"Success. Updated the following files:\nA src/new.txt\nM b.py\nD old.txt\nM crlf.txt\nM bom.txt"_s);
        QCOMPARE(readFile(m_project + u"/src/new.txt"_s), QByteArray("hello\n"));
        QCOMPARE(readFile(m_project + u"/b.py"_s), QByteArray("def f():\n    return 2\n"));
        QVERIFY(!QFile::exists(m_project + u"/a.py"_s));
        QVERIFY(!QFile::exists(m_project + u"/old.txt"_s));
        QCOMPARE(readFile(m_project + u"/crlf.txt"_s), QByteArray("one\r\nTWO\r\n"));
        QCOMPARE(readFile(m_project + u"/bom.txt"_s), QByteArray("\xEF\xBB\xBFkept\n"));
        // One question for all files, with the paths as patterns.
        QCOMPARE(m_asks.size(), 1);
        QCOMPARE(m_asks.first().first, u"edit"_s);
        QCOMPARE(m_asks.first().second, (QStringList{u"src/new.txt"_s, u"a.py"_s, u"old.txt"_s, u"crlf.txt"_s, u"bom.txt"_s}));
        const JsonArray files = r.metadata.array(u"files");
        QCOMPARE(files.size(), 5);
        QCOMPARE(files.at(1).toObject().string(u"type"), u"move"_s);
        QCOMPARE(files.at(1).toObject().integer(u"additions"), 1);
    }

    void nothingWrittenWhenOneHunkFails()
    {
        QVERIFY(writeFile(m_project + u"/a.txt"_s, "a\n"));
        const ToolResult r = run(u"*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch"_s);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.startsWith(u"apply_patch verification failed: Failed to read file to update: "_s), qPrintable(r.error));
        QCOMPARE(readFile(m_project + u"/a.txt"_s), QByteArray("a\n"));
        QVERIFY(m_asks.isEmpty());

        const ToolResult wrongLines = run(u"*** Begin Patch\n*** Update File: a.txt\n@@\n-zzz\n+A\n*** End Patch"_s);
        QVERIFY(wrongLines.error.contains(u"Failed to find expected lines"_s));
        QCOMPARE(run(u"*** Begin Patch\n*** End Patch"_s).error, u"patch rejected: empty patch"_s);
        QCOMPARE(run(u"no patch at all"_s).error, u"apply_patch verification failed: Invalid patch format: missing Begin/End markers"_s);
    }

    void refusedPermissionAndOutsidePaths()
    {
        QVERIFY(writeFile(m_project + u"/a.txt"_s, "a\n"));
        m_answer = PermissionDecision::Deny;
        const ToolResult denied = run(u"*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** End Patch"_s);
        QVERIFY(!denied.ok);
        QCOMPARE(readFile(m_project + u"/a.txt"_s), QByteArray("a\n"));
        // A path outside the project asks external_directory first; refused, nothing happens.
        const ToolResult outside = run(u"*** Begin Patch\n*** Add File: ../outside/x.txt\n+x\n*** End Patch"_s);
        QVERIFY(!outside.ok);
        QCOMPARE(m_asks.last().first, u"external_directory"_s);
        QVERIFY(!QFile::exists(m_outside + u"/x.txt"_s));
    }

    void preferredModels()
    {
        QVERIFY(ApplyPatchTool::preferredFor(u"gpt-5"_s));
        QVERIFY(ApplyPatchTool::preferredFor(u"gpt-5.1-codex"_s));
        QVERIFY(ApplyPatchTool::preferredFor(u"openai/gpt-5-mini"_s));
        QVERIFY(!ApplyPatchTool::preferredFor(u"gpt-test"_s));
        QVERIFY(!ApplyPatchTool::preferredFor(u"gpt-4.1"_s));
        QVERIFY(!ApplyPatchTool::preferredFor(u"gpt-oss-120b"_s));
        QVERIFY(!ApplyPatchTool::preferredFor(u"claude-sonnet-4-5"_s));
    }
};

QTEST_GUILESS_MAIN(TestApplyPatch)
#include "tst_applypatch.moc"
