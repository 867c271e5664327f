// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Diffs shared by the diff tests (tests/diff: the documents; tests/gui: the view and the pane):
// a C++ change in the contents form, a Python change in OpenCode's patch form, the real
// OpenCode 1.18.34 summary diff, and how a document's rows read.

#include "core/types.h"
#include "diff/diffdocument.h"
#include "opencodedb/opencodedbstore.h"

#include <QFile>
#include <QStringList>
#include <QTemporaryDir>

namespace weft::test
{

using namespace Qt::StringLiterals;

/// A C++ file with three separate changes: a removed line, a changed line followed by an added
/// one, and a line added at the end.
inline QStringList cppBeforeLines()
{
    QStringList lines{u"#include <cstdio>"_s, QString()};
    for (int i = 0; i < 30; ++i)
        lines.append(u"static int value%1 = %1;"_s.arg(i));
    lines << QString() << u"int main()"_s << u"{"_s << u"    const char *name = \"world\";"_s
          << u"    std::printf(\"hello %s\\n\", name);"_s << u"    return 0;"_s << u"}"_s << QString();
    for (int i = 0; i < 30; ++i)
        lines.append(u"static int other%1 = %1;"_s.arg(i));
    return lines;
}

inline QString cppBefore()
{
    return cppBeforeLines().join(u'\n') + u'\n';
}

inline QString cppAfter()
{
    QStringList lines = cppBeforeLines();
    lines[36] = u"    std::printf(\"goodbye %s\\n\", name);"_s;
    lines.insert(37, u"    std::puts(\"done\");"_s);
    lines.removeAt(5);
    lines.append(u"static int extra = 99;"_s);
    return lines.join(u'\n') + u'\n';
}

/// `diff -u before.cpp after.cpp` (GNU diffutils), without the two header lines.
inline const QStringList CppUnified{
    u"@@ -3,7 +3,6 @@"_s,
    u" static int value0 = 0;"_s,
    u" static int value1 = 1;"_s,
    u" static int value2 = 2;"_s,
    u"-static int value3 = 3;"_s,
    u" static int value4 = 4;"_s,
    u" static int value5 = 5;"_s,
    u" static int value6 = 6;"_s,
    u"@@ -34,7 +33,8 @@"_s,
    u" int main()"_s,
    u" {"_s,
    u"     const char *name = \"world\";"_s,
    u"-    std::printf(\"hello %s\\n\", name);"_s,
    u"+    std::printf(\"goodbye %s\\n\", name);"_s,
    u"+    std::puts(\"done\");"_s,
    u"     return 0;"_s,
    u" }"_s,
    u" "_s,
    u"@@ -68,3 +68,4 @@"_s,
    u" static int other27 = 27;"_s,
    u" static int other28 = 28;"_s,
    u" static int other29 = 29;"_s,
    u"+static int extra = 99;"_s,
};

/// A Python file before (no newline at its end) and after a change.
inline const QString PyBefore = u"import sys\n\n\ndef parse(args):\n    return [int(a) for a in args]\n\n\n"
                                u"def total(values):\n    result = 0\n    for v in values:\n        result += v\n"
                                u"    return result\n\n\ndef main():\n    values = parse(sys.argv[1:])\n"
                                u"    print(\"total:\", total(values))\n\n\nif __name__ == \"__main__\":\n    main()"_s;
inline const QString PyAfter = u"import sys\n\n\ndef parse(args):\n    return [float(a) for a in args]\n\n\n"
                               u"def total(values):\n    result = 0\n    for v in values:\n        result += v\n"
                               u"    return result\n\n\ndef main():\n    values = parse(sys.argv[1:])\n"
                               u"    print(\"sum:\", total(values))\n    print(\"count:\", len(values))\n\n\n"
                               u"if __name__ == \"__main__\":\n    sys.exit(main())\n"_s;
/// What OpenCode 1.4+ stores for it (jsdiff's createTwoFilesPatch; hunks as `diff -u` prints
/// them, with the "\ No newline at end of file" marker).
inline const QString PyPatch = u"Index: tools/report.py\n"
                               u"===================================================================\n"
                               u"--- tools/report.py\t\n+++ tools/report.py\t\n"
                               u"@@ -2,7 +2,7 @@\n \n \n def parse(args):\n-    return [int(a) for a in args]\n"
                               u"+    return [float(a) for a in args]\n \n \n def total(values):\n"
                               u"@@ -14,8 +14,9 @@\n \n def main():\n     values = parse(sys.argv[1:])\n"
                               u"-    print(\"total:\", total(values))\n+    print(\"sum:\", total(values))\n"
                               u"+    print(\"count:\", len(values))\n \n \n if __name__ == \"__main__\":\n"
                               u"-    main()\n\\ No newline at end of file\n+    sys.exit(main())\n"_s;
inline const QStringList PyUnified{
    u"@@ -2,7 +2,7 @@"_s,
    u" "_s,
    u" "_s,
    u" def parse(args):"_s,
    u"-    return [int(a) for a in args]"_s,
    u"+    return [float(a) for a in args]"_s,
    u" "_s,
    u" "_s,
    u" def total(values):"_s,
    u"@@ -14,8 +14,9 @@"_s,
    u" "_s,
    u" def main():"_s,
    u"     values = parse(sys.argv[1:])"_s,
    u"-    print(\"total:\", total(values))"_s,
    u"+    print(\"sum:\", total(values))"_s,
    u"+    print(\"count:\", len(values))"_s,
    u" "_s,
    u" "_s,
    u" if __name__ == \"__main__\":"_s,
    u"-    main()"_s,
    u"+    sys.exit(main())"_s,
};

inline const QString RealSession = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
inline const QString RealUserMessage = u"msg_2016954d9001m3qCvFEFlSRI7u"_s;

inline FileDiff cppDiff()
{
    return FileDiff::fromContents(u"src/counter.cpp"_s, cppBefore(), cppAfter(), 3, 2);
}

inline FileDiff pyPatchDiff()
{
    return FileDiff(JsonObject{{u"file"_s, u"tools/report.py"_s},
                               {u"patch"_s, PyPatch},
                               {u"additions"_s, 4},
                               {u"deletions"_s, 3},
                               {u"status"_s, u"modified"_s}});
}

/// The summary diff of a user message of the real OpenCode 1.18.34 fixture: a patch-form
/// FileDiff of an added file, read through Weft's reader of OpenCode's database.
inline FileDiff realPatchDiff(const QTemporaryDir &dir)
{
    const QString db = dir.filePath(u"opencode.db"_s);
    if (!QFile::exists(db) && !QFile::copy(QStringLiteral(WEFT_TEST_DATA "/opencode-1.18.34/opencode.db"), db))
        return {};
    const auto store = OpencodeDbStore::open(db);
    if (!store)
        return {};
    const std::optional<Message> message = store.value()->message(RealSession, RealUserMessage);
    if (!message || message->summaryDiffs().size() != 1)
        return {};
    return message->summaryDiffs().first();
}

/// The unified rows of @p doc as `diff -u` prints them.
inline QStringList rowsText(const DiffDocument &doc)
{
    QStringList out;
    for (int r = 0; r < doc.rows().size(); ++r) {
        switch (doc.rows().at(r).kind) {
        case DiffDocument::RowKind::Hunk:
            out.append(doc.text(r));
            break;
        case DiffDocument::RowKind::Context:
            out.append(u' ' + doc.text(r));
            break;
        case DiffDocument::RowKind::Removed:
            out.append(u'-' + doc.text(r));
            break;
        case DiffDocument::RowKind::Added:
            out.append(u'+' + doc.text(r));
            break;
        }
    }
    return out;
}

/// Line numbers of each row: "old/new" ("-" for none).
inline QStringList rowNumbers(const DiffDocument &doc)
{
    QStringList out;
    for (const DiffDocument::Row &r : doc.rows()) {
        out.append((r.oldLine >= 0 ? QString::number(doc.oldNumber(r.oldLine)) : u"-"_s) + u'/'
                   + (r.newLine >= 0 ? QString::number(doc.newNumber(r.newLine)) : u"-"_s));
    }
    return out;
}

/// The first row of @p kind whose text contains @p needle.
inline int findRow(const DiffDocument &doc, DiffDocument::RowKind kind, const QString &needle)
{
    for (int r = 0; r < doc.rows().size(); ++r) {
        if (doc.rows().at(r).kind == kind && doc.text(r).contains(needle))
            return r;
    }
    return -1;
}

} // namespace weft::test
