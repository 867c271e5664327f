// SPDX-License-Identifier: GPL-3.0-or-later
// The diff documents (model/diff) without widgets: DiffDocument's rows from both FileDiff forms
// (before/after contents and patch text, including a real OpenCode 1.18.34 summary diff), side by
// side rows, changed words, hunks, reverse application, and DiffModel, the item model over them,
// with its off-thread builds.

#include "diff/diffdocument.h"
#include "diff/textdiff.h"
#include "difffixtures.h"
#include "qt/diffmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

class TestDiffDocument : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsFromContents();
    void rowsFromPatch();
    void realOpencodePatch();
    void bothFormsAgree_data();
    void bothFormsAgree();
    void sideBySideRows();
    void changedWords();
    void hunksShared();
    void reverseAppliesThePatch();
    void model();
    void modelBuildsOffThread();
    void modelDropsStaleBuilds();
};

// ---- DiffDocument

void TestDiffDocument::rowsFromContents()
{
    const DiffDocument doc = DiffDocument::fromFileDiff(cppDiff());
    QCOMPARE(doc.form(), DiffDocument::Form::Contents);
    QCOMPARE(doc.path(), u"src/counter.cpp"_s);
    QCOMPARE(doc.status(), u"modified"_s);
    QCOMPARE(rowsText(doc), CppUnified);
    QCOMPARE(doc.hunks().size(), 3);
    QCOMPARE(doc.additions(), 3);
    QCOMPARE(doc.deletions(), 2);
    // Line numbers: the removed line only on the old side, the added ones only on the new.
    const QStringList numbers = rowNumbers(doc);
    QCOMPARE(numbers.at(0), u"-/-"_s);
    QCOMPARE(numbers.at(1), u"3/3"_s);
    QCOMPARE(numbers.at(4), u"6/-"_s);
    QCOMPARE(numbers.at(5), u"7/6"_s);
    QCOMPARE(numbers.at(12), u"37/-"_s);
    QCOMPARE(numbers.at(13), u"-/36"_s);
    QCOMPARE(numbers.at(14), u"-/37"_s);
    QCOMPARE(numbers.last(), u"-/71"_s);
    QVERIFY(!doc.oldMissingNewline());
    QVERIFY(!doc.newMissingNewline());
}

void TestDiffDocument::rowsFromPatch()
{
    const DiffDocument doc = DiffDocument::fromFileDiff(pyPatchDiff());
    QCOMPARE(doc.form(), DiffDocument::Form::Patch);
    QCOMPARE(doc.path(), u"tools/report.py"_s);
    QCOMPARE(doc.status(), u"modified"_s);
    QCOMPARE(rowsText(doc), PyUnified);
    QCOMPARE(doc.hunks().size(), 2);
    QCOMPARE(doc.hunkHeader(1), u"@@ -14,8 +14,9 @@"_s);
    QCOMPARE(doc.additions(), 4);
    QCOMPARE(doc.deletions(), 3);
    QVERIFY(doc.oldMissingNewline());
    QVERIFY(!doc.newMissingNewline());
    // Line numbers come from the hunk headers, not from the position in the patch.
    const QStringList numbers = rowNumbers(doc);
    QCOMPARE(numbers.at(1), u"2/2"_s);
    QCOMPARE(numbers.at(4), u"5/-"_s);
    QCOMPARE(numbers.at(5), u"-/5"_s);
    QCOMPARE(numbers.at(10), u"14/14"_s);
    QCOMPARE(numbers.last(), u"-/22"_s);
}

void TestDiffDocument::realOpencodePatch()
{
    QTemporaryDir dir;
    const FileDiff diff = realPatchDiff(dir);
    QVERIFY(!diff.isNull());
    QVERIFY(diff.hasPatch());
    QVERIFY(!diff.hasContents());
    const DiffDocument doc = DiffDocument::fromFileDiff(diff);
    QCOMPARE(doc.form(), DiffDocument::Form::Patch);
    QCOMPARE(doc.path(), u"notes.md"_s);
    QCOMPARE(doc.status(), u"added"_s);
    QVERIFY(doc.isAdded());
    QCOMPARE(rowsText(doc), (QStringList{u"@@ -0,0 +1,2 @@"_s, u"+# 笔记"_s, u"+数据库测试 note: weft fixture"_s}));
    QCOMPARE(rowNumbers(doc), (QStringList{u"-/-"_s, u"-/1"_s, u"-/2"_s}));
    QCOMPARE(doc.revertAction(), DiffDocument::RevertAction::Delete);
}

void TestDiffDocument::bothFormsAgree_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addRow("cpp") << u"src/counter.cpp"_s << cppBefore() << cppAfter();
    QTest::addRow("python, no newline at the end") << u"tools/report.py"_s << PyBefore << PyAfter;
    QTest::addRow("added file") << u"new.txt"_s << QString() << u"a\nb\n"_s;
    QTest::addRow("deleted file") << u"old.txt"_s << u"a\nb\nc\n"_s << QString();
}

void TestDiffDocument::bothFormsAgree()
{
    // The contents form diffed by Weft and the patch form OpenCode writes for the same change
    // show the same rows with the same line numbers.
    QFETCH(QString, path);
    QFETCH(QString, before);
    QFETCH(QString, after);
    const DiffDocument contents = DiffDocument::fromContents(path, before, after);
    const DiffDocument patch = DiffDocument::fromPatch(path, TextDiff::unified(path, before, after));
    QCOMPARE(rowsText(patch), rowsText(contents));
    QCOMPARE(rowNumbers(patch), rowNumbers(contents));
    QCOMPARE(patch.status(), contents.status());
    QCOMPARE(patch.additions(), contents.additions());
    QCOMPARE(patch.deletions(), contents.deletions());
    QCOMPARE(patch.sideRows().size(), contents.sideRows().size());
    if (path == u"tools/report.py")
        QCOMPARE(rowsText(patch), PyUnified);
    // And reverting either gives the text before back.
    QCOMPARE(contents.reverse(after).value(), before);
    QCOMPARE(patch.reverse(after).value(), before);
}

void TestDiffDocument::sideBySideRows()
{
    const DiffDocument doc = DiffDocument::fromFileDiff(cppDiff());
    const auto &side = doc.sideRows();
    // 23 unified rows; the changed printf line pairs a removed and an added row: 22 side rows.
    QCOMPARE(doc.rows().size(), 23);
    QCOMPARE(side.size(), 22);
    // Hunk headers on both sides.
    for (const DiffDocument::Hunk &h : doc.hunks()) {
        QCOMPARE(side.at(h.sideRow).left, h.row);
        QCOMPARE(side.at(h.sideRow).right, h.row);
    }
    // The removed line faces a filler.
    const int removed = findRow(doc, DiffDocument::RowKind::Removed, u"value3"_s);
    QCOMPARE(side.at(doc.sideRowOf(removed)).left, removed);
    QCOMPARE(side.at(doc.sideRowOf(removed)).right, -1);
    // The changed line faces its new version; the added line after it faces a filler.
    const int oldPrintf = findRow(doc, DiffDocument::RowKind::Removed, u"hello"_s);
    const int newPrintf = findRow(doc, DiffDocument::RowKind::Added, u"goodbye"_s);
    const int puts = findRow(doc, DiffDocument::RowKind::Added, u"puts"_s);
    QCOMPARE(doc.rows().at(oldPrintf).partner, newPrintf);
    QCOMPARE(doc.rows().at(newPrintf).partner, oldPrintf);
    QCOMPARE(doc.rows().at(puts).partner, -1);
    QCOMPARE(doc.sideRowOf(oldPrintf), doc.sideRowOf(newPrintf));
    QCOMPARE(side.at(doc.sideRowOf(puts)).left, -1);
    QCOMPARE(doc.rowOfSide(doc.sideRowOf(puts)), puts);
    // Every unified row is on exactly one side row.
    for (int r = 0; r < doc.rows().size(); ++r) {
        const int s = doc.sideRowOf(r);
        QVERIFY(s >= 0);
        QVERIFY(side.at(s).left == r || side.at(s).right == r);
    }
}

void TestDiffDocument::changedWords()
{
    const DiffDocument doc = DiffDocument::fromFileDiff(cppDiff());
    const int oldPrintf = findRow(doc, DiffDocument::RowKind::Removed, u"hello"_s);
    const int newPrintf = findRow(doc, DiffDocument::RowKind::Added, u"goodbye"_s);
    // `    std::printf("` is 17 characters: the changed word follows.
    QCOMPARE(doc.words(oldPrintf), (QList<DiffDocument::WordRange>{{17, 5}}));
    QCOMPARE(doc.words(newPrintf), (QList<DiffDocument::WordRange>{{17, 7}}));
    // Unpaired lines get no word marks.
    QVERIFY(doc.words(findRow(doc, DiffDocument::RowKind::Added, u"puts"_s)).isEmpty());
    QVERIFY(doc.words(findRow(doc, DiffDocument::RowKind::Removed, u"value3"_s)).isEmpty());
    // Lines with nothing in common are replaced as a whole, not marked word by word.
    QList<DiffDocument::WordRange> a, b;
    DiffDocument::changedWords(u"completely different"_s, u"x = y + 1;"_s, a, b);
    QVERIFY(a.isEmpty() && b.isEmpty());
    DiffDocument::changedWords(u"int count = 1;"_s, u"int count = 2;"_s, a, b);
    QCOMPARE(a, (QList<DiffDocument::WordRange>{{12, 1}}));
    QCOMPARE(b, (QList<DiffDocument::WordRange>{{12, 1}}));
}

void TestDiffDocument::reverseAppliesThePatch()
{
    const DiffDocument doc = DiffDocument::fromFileDiff(pyPatchDiff());
    const Result<QString> before = doc.reverse(PyAfter);
    QVERIFY(before);
    QCOMPARE(before.value(), PyBefore);
    // A file edited since no longer matches: refused, not garbled.
    QString edited = PyAfter;
    edited.replace(u"count:"_s, u"n:"_s);
    QVERIFY(!doc.reverse(edited));
}

void TestDiffDocument::model()
{
    QTemporaryDir dir;
    const FileDiff real = realPatchDiff(dir);
    QVERIFY(!real.isNull());
    DiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setDiffs({cppDiff(), pyPatchDiff(), real});
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, 0).data(Qt::DisplayRole).toString(), u"counter.cpp"_s);
    QCOMPARE(model.index(0, 0).data(DiffModel::DirectoryRole).toString(), u"src"_s);
    QCOMPARE(model.index(0, 0).data(DiffModel::PathRole).toString(), u"src/counter.cpp"_s);
    QCOMPARE(model.index(0, 0).data(DiffModel::AdditionsRole).toLongLong(), 3);
    QCOMPARE(model.index(0, 0).data(DiffModel::DeletionsRole).toLongLong(), 2);
    QCOMPARE(model.index(0, 0).data(DiffModel::StatusRole).toString(), u"modified"_s);
    QCOMPARE(model.index(0, 0).data(DiffModel::LineCountRole).toLongLong(), 71);
    QCOMPARE(model.index(1, 0).data(DiffModel::FileNameRole).toString(), u"report.py"_s);
    QCOMPARE(model.index(1, 0).data(DiffModel::DirectoryRole).toString(), u"tools"_s);
    QCOMPARE(model.index(2, 0).data(DiffModel::DirectoryRole).toString(), QString());
    QCOMPARE(model.index(2, 0).data(DiffModel::StatusRole).toString(), u"added"_s);
    QCOMPARE(model.index(2, 0).data(DiffModel::AdditionsRole).toLongLong(), 2);
    QCOMPARE(model.totalAdditions(), 9);
    QCOMPARE(model.totalDeletions(), 5);
    QCOMPARE(model.rowOfPath(u"tools/report.py"_s), 1);
    QCOMPARE(model.rowOfPath(u"nope"_s), -1);
    QVERIFY(model.roleNames().contains(DiffModel::AdditionsRole));
    // Documents are built once and kept.
    const auto doc = model.document(1);
    QVERIFY(doc);
    QCOMPARE(model.document(1).get(), doc.get());
    QVERIFY(!model.document(3));
    model.setDiffs({});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(reset.size(), 2);
}

void TestDiffDocument::hunksShared()
{
    // The tools' unified patches and the documents group changes into the same hunks (one
    // implementation, TextDiff::hunks).
    const QString path = u"src/counter.cpp"_s;
    const DiffDocument doc = DiffDocument::fromContents(path, cppBefore(), cppAfter());
    QStringList headers;
    for (const QString &line : TextDiff::unified(path, cppBefore(), cppAfter()).split(u'\n')) {
        if (line.startsWith(u"@@"))
            headers.append(line);
    }
    QCOMPARE(headers.size(), doc.hunks().size());
    for (int h = 0; h < doc.hunks().size(); ++h)
        QCOMPARE(doc.hunkHeader(h), headers.at(h));
    // Context decides what joins: lines 2 and 6 changed, 3 lines apart.
    using Op = TextDiff::Edit::Op;
    QList<TextDiff::Edit> edits;
    for (qsizetype i = 0; i < 9; ++i)
        edits.append(i == 2 || i == 6 ? TextDiff::Edit{Op::Delete, i, -1} : TextDiff::Edit{Op::Equal, i, i});
    QCOMPARE(TextDiff::hunks(edits, 1).size(), 2);
    const QList<TextDiff::Hunk> joined = TextDiff::hunks(edits, 2);
    QCOMPARE(joined.size(), 1);
    QCOMPARE(joined.first().begin, 0);
    QCOMPARE(joined.first().end, 9);
    QCOMPARE(joined.first().oldStart, 1);
    QCOMPARE(joined.first().oldCount, 9);
    QCOMPARE(joined.first().newCount, 7);
    QVERIFY(TextDiff::hunks({TextDiff::Edit{Op::Equal, 0, 0}}, 3).isEmpty());
    // The line diff of the documents and the tools' diff agree on what changed.
    const TextDiff::Counts counts = TextDiff::count(cppBefore(), cppAfter());
    QCOMPARE(doc.additions(), counts.additions);
    QCOMPARE(doc.deletions(), counts.deletions);
}

void TestDiffDocument::modelBuildsOffThread()
{
    DiffModel model;
    model.setDiffs({cppDiff(), pyPatchDiff()});
    QSignalSpy ready(&model, &DiffModel::documentReady);
    model.requestDocument(1);
    // Asynchronous: nothing yet, the result comes through the event loop.
    QVERIFY(model.isBuilding(1));
    QVERIFY(!model.cachedDocument(1));
    QCOMPARE(ready.size(), 0);
    model.requestDocument(1); // one build per file at a time
    QVERIFY(ready.wait(10000));
    QCOMPARE(ready.size(), 1);
    QCOMPARE(ready.first().at(0).toInt(), 1);
    QVERIFY(!model.isBuilding(1));
    const auto doc = model.cachedDocument(1);
    QVERIFY(doc);
    QCOMPARE(rowsText(*doc), PyUnified);
    QCOMPARE(model.document(1).get(), doc.get());
    QVERIFY(!model.cachedDocument(0));
    // Built already: ready again (through the event loop), the same document.
    model.requestDocument(1);
    QCOMPARE(ready.size(), 1);
    QVERIFY(ready.wait(10000));
    QCOMPARE(model.cachedDocument(1).get(), doc.get());
    // Out of range: nothing.
    model.requestDocument(5);
    QVERIFY(!model.isBuilding(5));
}

void TestDiffDocument::modelDropsStaleBuilds()
{
    // A build for files replaced since (a newer session diff) is dropped: it would belong to
    // another row.
    DiffModel model;
    model.setDiffs({cppDiff(), pyPatchDiff()});
    QSignalSpy ready(&model, &DiffModel::documentReady);
    model.requestDocument(0);
    model.setDiffs({pyPatchDiff()});
    QVERIFY(!model.isBuilding(0));
    QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
    QCoreApplication::sendPostedEvents(); // the stale build's result is delivered (and dropped)
    QCOMPARE(ready.size(), 0);
    QVERIFY(!model.cachedDocument(0));
    // A request for the new files works.
    model.requestDocument(0);
    QVERIFY(ready.wait(10000));
    QCOMPARE(model.cachedDocument(0)->path(), u"tools/report.py"_s);
}

QTEST_GUILESS_MAIN(TestDiffDocument)
#include "tst_diffdocument.moc"
