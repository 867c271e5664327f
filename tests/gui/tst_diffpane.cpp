// SPDX-License-Identifier: GPL-3.0-or-later
// The diff pane (issue 6): DiffView in the unified and side-by-side layouts (row backgrounds,
// changed words, highlighting chosen by file name, hunk navigation, synchronised scrolling, the
// remembered layout, the large-file guard on a 50,000-line file), and ChangesPane (session and
// turn scopes, opened from a user message's "N files changed" line; revert of one file and of a
// whole turn, with their confirmations; diffs built off the GUI thread, a newer selection
// superseding an older one). The documents themselves are tested without widgets in
// tests/diff/tst_diffdocument.cpp.

#include "app/sessioncontroller.h"
#include "changespane.h"
#include "difffixtures.h"
#include "diffview.h"
#include "fakellmserver.h"
#include "guitest.h"
#include "scriptedquestions.h"
#include "mainwindow.h"
#include "opencodedb/opencodedbstore.h"
#include "diff/textdiff.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "qt/diffmodel.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QWheelEvent>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

namespace
{

// ---- fixtures

/// A long file with a change every @p every lines, for scrolling.
FileDiff longDiff(int lines, int every, const QString &path = u"long/scroll.txt"_s)
{
    QString before, after;
    for (int i = 0; i < lines; ++i) {
        const QString line = u"line %1 of the long file, with some text to fill it"_s.arg(i);
        before += line + u'\n';
        after += (i % every == every / 2 ? line + u" (changed)"_s : line) + u'\n';
    }
    // One very long line, for the horizontal extent.
    before += QString(300, u'x') + u'\n';
    after += QString(300, u'y') + u'\n';
    return FileDiff::fromContents(path, before, after, lines / every + 1, lines / every + 1);
}

// ---- pixels

QImage grabArea(DiffTextArea *area)
{
    return area->viewport()->grab().toImage();
}

QRgb pixel(const QImage &image, int x, int y)
{
    return image.pixel(x, y) & 0xffffff;
}

/// Pixels of exactly @p color inside @p rect.
int countColor(const QImage &image, const QRect &rect, const QColor &color)
{
    int n = 0;
    const QRect r = rect.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y) {
        for (int x = r.left(); x <= r.right(); ++x)
            n += pixel(image, x, y) == (color.rgb() & 0xffffff) ? 1 : 0;
    }
    return n;
}

/// Pixels of a strong colour (a syntax highlighting colour, not grey text) inside @p rect.
int countSaturated(const QImage &image, const QRect &rect)
{
    int n = 0;
    const QRect r = rect.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y) {
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c = QColor::fromRgb(image.pixel(x, y));
            n += c.hsvSaturation() > 128 && c.value() < 235 ? 1 : 0;
        }
    }
    return n;
}

/// The rectangle of characters [from, to) of row @p row of @p area.
QRect charsRect(const DiffTextArea *area, int row, int from, int to)
{
    const QRectF first = area->characterRect(row, from);
    const QRectF last = area->characterRect(row, to - 1);
    return QRectF(first.topLeft(), QPointF(last.right(), first.bottom())).toAlignedRect().adjusted(1, 0, -1, 0);
}

// ---- a session run by the processor (real snapshots, patch parts, summaries)

QByteArray textReply(const QString &text)
{
    OpenAiStream s;
    s.role().text(text).finish(u"stop"_s).usage(1000, 20).done();
    return s.bytes();
}

QByteArray toolReply(const QString &callID, const QString &tool, const JsonObject &input)
{
    OpenAiStream s;
    s.role().text(u"Let me do that."_s);
    const QString args = QString::fromUtf8(toJson(input, 0));
    s.toolCallStart(0, callID, tool, args.left(5));
    s.toolCallArguments(0, args.mid(5));
    s.finish(u"tool_calls"_s).usage(1200, 30).done();
    return s.bytes();
}

bool git(const QString &dir, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(u"git"_s, QStringList{u"-c"_s, u"user.email=t@example.org"_s, u"-c"_s, u"user.name=t"_s} + args);
    return p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

const QString NotesText = u"# Notes\n\nThe report prints a sum and a count now.\n"_s;
const QString ExtraText = u"one more file\n"_s;
const QString FirstPrompt = u"Make the report print a sum and a count"_s;

} // namespace

class TestDiffPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    // DiffView
    void colours_data();
    void colours();
    void highlightingByFileName_data();
    void highlightingByFileName();
    void highlightingPainted();
    void hunkNavigation_data();
    void hunkNavigation();
    void scrollSync();
    void modeKeepsTheLine();
    void narrowHeader();
    void modeRemembered();
    void largeFile_data();
    void largeFile();
    void largeFileDoesNotStall();

    // ChangesPane
    void paneRevertsOneFile_data();
    void paneRevertsOneFile();
    void hunkNavigationCrossesFiles();
    void followsTheSessionDiff();
    void computingThenRows();
    void newerRequestSupersedes();
    void destroyedWhileBuilding();
    void turnScopeAndRevert();
    void screenshotSideBySide();

private:
    /// A session in m_service whose session_diff is @p diffs, in directory @p directory.
    QString sessionWithDiff(const QString &directory, const QList<FileDiff> &diffs);
    /// Runs two turns against the loopback LLM server in a git project: the first rewrites
    /// tools/report.py (PyBefore to PyAfter) and adds notes.md, the second adds extra.txt.
    /// Returns the session ID; m_project holds the project.
    QString runAgentSession();
    std::unique_ptr<MainWindow> makeWindow(const QString &sessionID);
    bool waitLoaded(ChangesPane *pane, const std::function<void()> &action);
    /// Waits until the selected file's diff, built off the GUI thread, is shown.
    static bool waitShown(ChangesPane *pane);
    /// A pane on a session whose diff is {cppDiff(), pyPatchDiff(), a 50,000-line change}, loaded.
    std::unique_ptr<ChangesPane> paneWithBigFile();

    QTemporaryDir m_settings;
    std::unique_ptr<QTemporaryDir> m_data;
    std::unique_ptr<QTemporaryDir> m_project;
    std::shared_ptr<SessionService> m_service;
};

void TestDiffPane::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
    QVERIFY(QDir().mkpath(QStringLiteral(WEFT_BINARY_DIR "/screenshots")));
}

void TestDiffPane::init()
{
    test::useStyle(test::lightPalette());
    QSettings().clear();
    m_data = std::make_unique<QTemporaryDir>();
    m_project = std::make_unique<QTemporaryDir>();
    QVERIFY(m_data->isValid() && m_project->isValid());
    auto store = std::make_shared<JsonStore>(m_data->path());
    QVERIFY(store->initialize().ok());
    m_service = std::make_shared<SessionService>(store);
}

QString TestDiffPane::sessionWithDiff(const QString &directory, const QList<FileDiff> &diffs)
{
    SessionService::CreateOptions options;
    options.directory = directory;
    options.title = u"Diff fixture"_s;
    const Result<Session> created = test::ownRead([&] { return m_service->create(options); });
    if (!created)
        return {};
    if (!test::ownRead([&] { return m_service->setDiff(created->id(), diffs); }))
        return {};
    return created->id();
}

bool TestDiffPane::waitLoaded(ChangesPane *pane, const std::function<void()> &action)
{
    QSignalSpy loaded(pane, &ChangesPane::loaded);
    action();
    return !loaded.isEmpty() || loaded.wait(10000);
}

bool TestDiffPane::waitShown(ChangesPane *pane)
{
    return QTest::qWaitFor([pane] { return !pane->isComputing(); }, 30000) && !pane->diffView()->isComputing();
}

/// A 50,000-line file with a change every 250 lines (largeFile()'s "contents, 200 changes").
static FileDiff bigDiff()
{
    constexpr int Lines = 50000;
    QString before, after;
    for (int i = 0; i < Lines; ++i) {
        const QString line = u"int generated%1(int x) { return x * %1 + \"abc\"[x % 3]; }"_s.arg(i);
        before += line + u'\n';
        after += (i % 250 == 100 ? u"int generated%1(int x) { return x * %1 - 7; }"_s.arg(i) : line) + u'\n';
    }
    return FileDiff::fromContents(u"big/generated.cpp"_s, before, after, Lines / 250, Lines / 250);
}

std::unique_ptr<ChangesPane> TestDiffPane::paneWithBigFile()
{
    const QString sid = sessionWithDiff(m_project->path(), {cppDiff(), pyPatchDiff(), bigDiff()});
    if (sid.isEmpty())
        return {};
    auto pane = std::make_unique<ChangesPane>(m_service.get());
    pane->resize(1000, 800);
    pane->show();
    if (!QTest::qWaitForWindowExposed(pane.get()) || !waitLoaded(pane.get(), [&] { pane->setSessionID(sid); })
        || !waitShown(pane.get()))
        return {};
    return pane;
}

// ---- DiffView

void TestDiffPane::colours_data()
{
    QTest::addColumn<bool>("sideBySide");
    QTest::addColumn<bool>("patch");
    QTest::addColumn<bool>("dark");
    QTest::addRow("unified, contents") << false << false << false;
    QTest::addRow("side by side, contents") << true << false << false;
    QTest::addRow("unified, patch") << false << true << false;
    QTest::addRow("side by side, patch") << true << true << false;
    QTest::addRow("unified, contents, dark") << false << false << true;
    QTest::addRow("side by side, patch, dark") << true << true << true;
}

void TestDiffPane::colours()
{
    QFETCH(bool, sideBySide);
    QFETCH(bool, patch);
    QFETCH(bool, dark);
    test::useStyle(dark ? test::darkPalette() : test::lightPalette());
    // The C++ change in either form: the patch form is what OpenCode 1.4+ would store for it.
    const FileDiff diff = patch ? FileDiff(JsonObject{{u"file"_s, u"src/counter.cpp"_s},
                                                      {u"patch"_s, TextDiff::unified(u"src/counter.cpp"_s, cppBefore(), cppAfter())},
                                                      {u"additions"_s, 3},
                                                      {u"deletions"_s, 2}})
                                : cppDiff();
    auto doc = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(diff));
    QCOMPARE(doc->form(), patch ? DiffDocument::Form::Patch : DiffDocument::Form::Contents);
    DiffView view;
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setMode(sideBySide ? DiffView::Mode::SideBySide : DiffView::Mode::Unified);
    view.setDocument(doc);
    test::deliverPosted(); // the layout shows the new page
    QVERIFY(!view.isShowingLargeFileNotice());
    QCOMPARE(view.activeArea(), sideBySide ? view.rightArea() : view.unifiedArea());
    QVERIFY(view.activeArea()->isVisible());
    QCOMPARE(view.activeArea()->rowCount(), sideBySide ? 22 : 23);
    QCOMPARE(view.findChild<QLabel *>(u"diffHunkPosition"_s)->text(), u"1 of 3"_s);
    QVERIFY(view.findChild<QLabel *>(u"diffStats"_s)->text().contains(u"+3"_s));

    const DiffColors colors = DiffColors::fromPalette(view.palette());
    const QColor base = view.palette().color(QPalette::Base);
    // The colours follow the palette: tinted backgrounds, darker than the base in a dark theme.
    QCOMPARE(base, dark ? test::darkPalette().color(QPalette::Base) : test::lightPalette().color(QPalette::Base));
    QVERIFY(colors.added.greenF() > colors.added.redF());
    QVERIFY(colors.removed.redF() > colors.removed.greenF());
    QCOMPARE(colors.added.lightness() < 128, dark);
    const int oldPrintf = findRow(*doc, DiffDocument::RowKind::Removed, u"hello"_s);
    const int newPrintf = findRow(*doc, DiffDocument::RowKind::Added, u"goodbye"_s);
    const int puts = findRow(*doc, DiffDocument::RowKind::Added, u"puts"_s);
    const int context = findRow(*doc, DiffDocument::RowKind::Context, u"return 0"_s);
    DiffTextArea *removedArea = sideBySide ? view.leftArea() : view.unifiedArea();
    DiffTextArea *addedArea = sideBySide ? view.rightArea() : view.unifiedArea();
    const auto areaRow = [&](int docRow) { return sideBySide ? doc->sideRowOf(docRow) : docRow; };
    const QImage removedImage = grabArea(removedArea);
    const QImage addedImage = removedArea == addedArea ? removedImage : grabArea(addedArea);

    const auto background = [](const QImage &image, const DiffTextArea *area, int row) {
        const QRect r = area->rowRect(row);
        return pixel(image, r.right() - 3, r.center().y());
    };
    // Row backgrounds: removed, added, context, hunk header.
    QCOMPARE(background(removedImage, removedArea, areaRow(oldPrintf)), colors.removed.rgb() & 0xffffff);
    QCOMPARE(background(addedImage, addedArea, areaRow(newPrintf)), colors.added.rgb() & 0xffffff);
    QCOMPARE(background(addedImage, addedArea, areaRow(puts)), colors.added.rgb() & 0xffffff);
    QCOMPARE(background(addedImage, addedArea, areaRow(context)), base.rgb() & 0xffffff);
    QCOMPARE(background(addedImage, addedArea, areaRow(doc->hunks().at(1).row)), colors.hunk.rgb() & 0xffffff);
    // Their gutters.
    QCOMPARE(pixel(removedImage, 2, removedArea->rowRect(areaRow(oldPrintf)).center().y()),
             colors.removedGutter.rgb() & 0xffffff);
    QCOMPARE(pixel(addedImage, 2, addedArea->rowRect(areaRow(newPrintf)).center().y()), colors.addedGutter.rgb() & 0xffffff);

    // Changed words: "hello" and "goodbye" are marked, "printf" is not.
    QVERIFY(countColor(removedImage, charsRect(removedArea, areaRow(oldPrintf), 17, 22), colors.removedWord) > 20);
    QCOMPARE(countColor(removedImage, charsRect(removedArea, areaRow(oldPrintf), 9, 15), colors.removedWord), 0);
    QVERIFY(countColor(addedImage, charsRect(addedArea, areaRow(newPrintf), 17, 24), colors.addedWord) > 20);
    QCOMPARE(countColor(addedImage, charsRect(addedArea, areaRow(newPrintf), 9, 15), colors.addedWord), 0);
    QVERIFY(countColor(addedImage, charsRect(addedArea, areaRow(newPrintf), 9, 15), colors.added) > 20);
    // The unpaired added line has no word marks at all.
    const QRect putsRect = addedArea->rowRect(areaRow(puts)).adjusted(addedArea->textLeft(), 0, 0, 0);
    QCOMPARE(countColor(addedImage, putsRect, colors.addedWord), 0);

    if (sideBySide) {
        // The old side faces the added line with a hatched filler, and the new side the removed
        // line of the first hunk.
        const QRect filler = view.leftArea()->rowRect(doc->sideRowOf(puts)).adjusted(view.leftArea()->textLeft(), 0, 0, 0);
        QVERIFY(countColor(removedImage, filler, colors.filler) > 10);
        QCOMPARE(countColor(removedImage, filler, colors.added), 0);
        const int removed = findRow(*doc, DiffDocument::RowKind::Removed, u"value3"_s);
        const QRect other = view.rightArea()->rowRect(doc->sideRowOf(removed)).adjusted(view.rightArea()->textLeft(), 0, 0, 0);
        QVERIFY(countColor(addedImage, other, colors.filler) > 10);
        QCOMPARE(countColor(addedImage, other, colors.removed), 0);
        // Each side shows its own line of a changed pair.
        QCOMPARE(view.leftArea()->documentRow(doc->sideRowOf(oldPrintf)), oldPrintf);
        QCOMPARE(view.rightArea()->documentRow(doc->sideRowOf(oldPrintf)), newPrintf);
    }
}

void TestDiffPane::highlightingByFileName_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("definition");
    QTest::addRow("C++") << u"src/counter.cpp"_s << u"C++"_s;
    QTest::addRow("C header") << u"include/x.h"_s << u"C++"_s;
    QTest::addRow("Python") << u"tools/report.py"_s << u"Python"_s;
    QTest::addRow("Markdown") << u"notes.md"_s << u"Markdown"_s;
    QTest::addRow("CMake") << u"CMakeLists.txt"_s << u"CMake"_s;
    QTest::addRow("JSON") << u"package.json"_s << u"JSON"_s;
    QTest::addRow("no known language") << u"data.zzunknown"_s << QString();
}

void TestDiffPane::highlightingByFileName()
{
    QFETCH(QString, path);
    QFETCH(QString, definition);
    DiffView view;
    view.setDocument(std::make_shared<const DiffDocument>(DiffDocument::fromContents(path, u"a\n"_s, u"b\n"_s)));
    QCOMPARE(view.definitionName(), definition);
    view.setDocument(nullptr);
    QCOMPARE(view.definitionName(), QString());
}

void TestDiffPane::highlightingPainted()
{
    // In a C++ file the string literal is coloured, the variable name next to it is not.
    auto doc = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(cppDiff()));
    const int row = findRow(*doc, DiffDocument::RowKind::Context, u"\"world\""_s);
    QVERIFY(row >= 0);
    for (const bool sideBySide : {false, true}) {
        DiffView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setMode(sideBySide ? DiffView::Mode::SideBySide : DiffView::Mode::Unified);
        view.setDocument(doc);
        test::deliverPosted(); // the layout shows the new page
        QCOMPARE(view.definitionName(), u"C++"_s);
        DiffTextArea *area = view.activeArea();
        const int areaRow = sideBySide ? doc->sideRowOf(row) : row;
        const QImage image = grabArea(area);
        // `    const char *name = "world";`: name at 16..19, "world" at 23..29.
        QVERIFY2(countSaturated(image, charsRect(area, areaRow, 23, 30)) > 10, sideBySide ? "side by side" : "unified");
        QCOMPARE(countSaturated(image, charsRect(area, areaRow, 16, 20)), 0);
        // A file of no known language is drawn in the text colour only.
        view.setDocument(std::make_shared<const DiffDocument>(
            DiffDocument::fromContents(u"x.zzunknown"_s, cppBefore(), cppAfter())));
        const QImage plain = grabArea(view.activeArea());
        QCOMPARE(countSaturated(plain, charsRect(view.activeArea(), areaRow, 23, 30)), 0);
    }
}

void TestDiffPane::hunkNavigation_data()
{
    QTest::addColumn<bool>("sideBySide");
    QTest::addRow("unified") << false;
    QTest::addRow("side by side") << true;
}

void TestDiffPane::hunkNavigation()
{
    QFETCH(bool, sideBySide);
    auto doc = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(longDiff(400, 40)));
    // A change every 40 lines, and the long last line: 11 hunks.
    QCOMPARE(doc->hunks().size(), 11);
    DiffView view;
    view.resize(800, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setMode(sideBySide ? DiffView::Mode::SideBySide : DiffView::Mode::Unified);
    view.setDocument(doc);
    test::deliverPosted(); // the layout shows the new page
    QLabel *position = view.findChild<QLabel *>(u"diffHunkPosition"_s);
    QCOMPARE(view.currentHunk(), 0);
    QCOMPARE(position->text(), u"1 of 11"_s);
    QSignalSpy changed(&view, &DiffView::currentHunkChanged);
    QSignalSpy exhausted(&view, &DiffView::hunkNavigationExhausted);
    DiffTextArea *area = view.activeArea();
    const int visibleRows = area->viewport()->height() / area->rowHeight();
    const auto hunkVisible = [&](int hunk) {
        const DiffDocument::Hunk &h = doc->hunks().at(hunk);
        const int row = sideBySide ? h.sideRow : h.row;
        return row >= area->topRow() && row < area->topRow() + visibleRows;
    };
    for (int h = 1; h < 11; ++h) {
        view.nextHunkAction()->trigger();
        QCOMPARE(view.currentHunk(), h);
        QVERIFY2(hunkVisible(h), qPrintable(u"hunk %1"_s.arg(h)));
        QCOMPARE(position->text(), u"%1 of 11"_s.arg(h + 1));
        if (sideBySide)
            QCOMPARE(view.leftArea()->topRow(), view.rightArea()->topRow());
    }
    QCOMPARE(changed.size(), 10);
    // At the last one: no further hunk in this file.
    QVERIFY(!view.nextHunk());
    view.nextHunkAction()->trigger();
    QCOMPARE(exhausted.size(), 1);
    QCOMPARE(exhausted.first().first().toBool(), true);
    QCOMPARE(view.currentHunk(), 10);
    // Back.
    view.previousHunkAction()->trigger();
    QCOMPARE(view.currentHunk(), 9);
    QVERIFY(hunkVisible(9));
    view.goToHunk(0);
    QCOMPARE(view.currentHunk(), 0);
    QCOMPARE(area->topRow(), 0);
    QVERIFY(!view.previousHunk());
    view.previousHunkAction()->trigger();
    QCOMPARE(exhausted.size(), 2);
    QCOMPARE(exhausted.last().first().toBool(), false);
    // The current hunk follows scrolling by hand.
    const DiffDocument::Hunk &fifth = doc->hunks().at(4);
    area->setTopRow((sideBySide ? fifth.sideRow : fifth.row) + 2);
    QCOMPARE(view.currentHunk(), 4);
    QCOMPARE(position->text(), u"5 of 11"_s);
    view.nextHunkAction()->trigger();
    QCOMPARE(view.currentHunk(), 5);
    // Keyboard: Ctrl+Down in the diff goes to the next change.
    view.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&view));
    area->setFocus();
    QTest::keyClick(area, Qt::Key_Down, Qt::ControlModifier);
    QCOMPARE(view.currentHunk(), 6);
    QTest::keyClick(area, Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(view.currentHunk(), 5);
}

void TestDiffPane::scrollSync()
{
    auto doc = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(longDiff(600, 30)));
    DiffView view;
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setMode(DiffView::Mode::SideBySide);
    view.setDocument(doc);
    test::deliverPosted(); // the layout shows the new page
    DiffTextArea *left = view.leftArea();
    DiffTextArea *right = view.rightArea();
    QVERIFY(left->isVisible() && right->isVisible());
    QCOMPARE(left->rowCount(), right->rowCount());
    QVERIFY(right->verticalScrollBar()->maximum() > 100);
    QCOMPARE(left->verticalScrollBar()->maximum(), right->verticalScrollBar()->maximum());

    // Vertically, both ways.
    right->verticalScrollBar()->setValue(120);
    QCOMPARE(left->topRow(), 120);
    left->verticalScrollBar()->setValue(57);
    QCOMPARE(right->topRow(), 57);
    // The wheel over the old side (which has no scroll bar of its own) scrolls both.
    const QPoint at = left->viewport()->rect().center();
    QWheelEvent wheel(at, left->viewport()->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(left->viewport(), &wheel);
    QVERIFY(left->topRow() > 57);
    QCOMPARE(right->topRow(), left->topRow());
    // Both show the same rows: the side rows of one unified row.
    QCOMPARE(doc->sideRowOf(doc->rowOfSide(right->topRow())), right->topRow());

    // Horizontally, both ways (the last line is 300 characters long).
    QVERIFY(right->horizontalScrollBar()->maximum() > 0);
    QCOMPARE(left->horizontalScrollBar()->maximum(), right->horizontalScrollBar()->maximum());
    right->horizontalScrollBar()->setValue(200);
    QCOMPARE(left->horizontalScrollBar()->value(), 200);
    left->horizontalScrollBar()->setValue(40);
    QCOMPARE(right->horizontalScrollBar()->value(), 40);

    // Both sides paint the same rows at the same heights.
    QCOMPARE(left->rowRect(right->topRow() + 3).top(), right->rowRect(right->topRow() + 3).top());
    QCOMPARE(left->rowHeight(), right->rowHeight());
    // A new document starts both at the top.
    view.setDocument(std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(longDiff(500, 25))));
    QCOMPARE(left->topRow(), 0);
    QCOMPARE(right->topRow(), 0);
    QCOMPARE(left->horizontalScrollBar()->value(), 0);
}

void TestDiffPane::modeKeepsTheLine()
{
    auto doc = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(longDiff(600, 30)));
    DiffView view;
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setMode(DiffView::Mode::Unified);
    view.setDocument(doc);
    test::deliverPosted(); // the layout shows the new page
    const int row = doc->hunks().at(7).row + 3;
    view.unifiedArea()->setTopRow(row);
    QSignalSpy changed(&view, &DiffView::modeChanged);
    view.setMode(DiffView::Mode::SideBySide);
    test::deliverPosted(); // the layout shows the new page
    QCOMPARE(changed.size(), 1);
    QVERIFY(view.rightArea()->isVisible());
    QVERIFY(!view.unifiedArea()->isVisible());
    QCOMPARE(view.rightArea()->topRow(), doc->sideRowOf(row));
    QCOMPARE(view.leftArea()->topRow(), doc->sideRowOf(row));
    view.setMode(DiffView::Mode::Unified);
    QCOMPARE(view.unifiedArea()->topRow(), row);
    QVERIFY(view.unifiedArea()->isVisible());
}

void TestDiffPane::narrowHeader()
{
    // A narrow pane keeps the file's name whole in the header; the folders give way first,
    // then the hunk position.
    auto doc = std::make_shared<const DiffDocument>(
        DiffDocument::fromContents(u"src/some/deeply/nested/folder/counter.cpp"_s, cppBefore(), cppAfter()));
    DiffView view;
    view.resize(900, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setDocument(doc);
    test::deliverPosted();
    auto *path = view.findChild<QLabel *>(u"diffPath"_s);
    auto *position = view.findChild<QLabel *>(u"diffHunkPosition"_s);
    QCOMPARE(path->text(), doc->path());
    QVERIFY(position->isVisible());
    for (const int width : {420, 330, 290}) {
        view.resize(width, 300);
        test::deliverPosted();
        QVERIFY2(path->text().endsWith(u"/counter.cpp"_s) || path->text() == u"counter.cpp"_s,
                 qPrintable(u"%1: %2"_s.arg(width).arg(path->text())));
        QVERIFY2(path->fontMetrics().horizontalAdvance(path->text()) <= path->width(), qPrintable(path->text()));
        QCOMPARE(path->toolTip(), doc->path());
    }
    QVERIFY(!position->isVisible());
    view.resize(900, 300);
    test::deliverPosted();
    QCOMPARE(path->text(), doc->path());
    QVERIFY(position->isVisible());
}

void TestDiffPane::modeRemembered()
{
    auto doc = std::make_shared<const DiffDocument>(DiffDocument::fromFileDiff(cppDiff()));
    {
        DiffView view;
        QCOMPARE(view.mode(), DiffView::Mode::Unified);
        QCOMPARE(DiffView::savedMode(), DiffView::Mode::Unified);
        QVERIFY(view.unifiedAction()->isChecked());
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDocument(doc);
        // The user clicks the side-by-side button in the header.
        QToolButton *button = nullptr;
        for (QToolButton *b : view.findChildren<QToolButton *>()) {
            if (b->defaultAction() == view.sideBySideAction())
                button = b;
        }
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(view.mode(), DiffView::Mode::SideBySide);
        QVERIFY(view.rightArea()->isVisible());
    }
    QCOMPARE(QSettings().value(u"DiffView/mode"_s).toString(), u"sideBySide"_s);
    {
        // A new view (a restart: the settings are read again) starts side by side.
        QSettings().sync();
        DiffView view;
        QCOMPARE(view.mode(), DiffView::Mode::SideBySide);
        QVERIFY(view.sideBySideAction()->isChecked());
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDocument(doc);
        QVERIFY(view.leftArea()->isVisible());
        QVERIFY(!view.unifiedArea()->isVisible());
        view.unifiedAction()->trigger();
        QCOMPARE(view.mode(), DiffView::Mode::Unified);
    }
    DiffView again;
    QCOMPARE(again.mode(), DiffView::Mode::Unified);
}

void TestDiffPane::largeFile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addRow("contents, 200 changes") << u"changes"_s;
    QTest::addRow("contents, new file") << u"new"_s;
    QTest::addRow("patch, new file") << u"patch"_s;
}

void TestDiffPane::largeFile()
{
    // A 50,000-line file: the pane shows a notice first; "Show Anyway" renders it, and it
    // scrolls and navigates without a pause. Times are printed, not asserted.
    QFETCH(QString, kind);
    const bool patch = kind == u"patch";
    const bool added = kind != u"changes";
    constexpr int Lines = 50000;
    const auto lineOf = [](int i) { return u"int generated%1(int x) { return x * %1 + \"abc\"[x % 3]; }"_s.arg(i); };
    FileDiff big;
    QString before, after;
    if (patch) {
        // A new file: one hunk adding every line (OpenCode's patch form).
        QString text = u"Index: big/generated.cpp\n===================================================================\n"
                       u"--- big/generated.cpp\t\n+++ big/generated.cpp\t\n@@ -0,0 +1,%1 @@\n"_s.arg(Lines);
        for (int i = 0; i < Lines; ++i)
            text += u'+' + lineOf(i) + u'\n';
        big = FileDiff(JsonObject{{u"file"_s, u"big/generated.cpp"_s},
                                  {u"patch"_s, text},
                                  {u"additions"_s, Lines},
                                  {u"deletions"_s, 0},
                                  {u"status"_s, u"added"_s}});
    } else {
        // A change every 250 lines (200 hunks), or a new file.
        for (int i = 0; i < Lines; ++i) {
            if (!added)
                before += lineOf(i) + u'\n';
            after += (!added && i % 250 == 100 ? u"int generated%1(int x) { return x * %1 - 7; }"_s.arg(i) : lineOf(i)) + u'\n';
        }
        big = FileDiff::fromContents(u"big/generated.cpp"_s, before, after, added ? Lines : Lines / 250,
                                     added ? 0 : Lines / 250);
    }
    QVERIFY(DiffView::isLarge(big));
    QVERIFY(!DiffView::isLarge(cppDiff()));
    QCOMPARE(DiffModel::lineCountOf(big), patch ? Lines + 5 : Lines);

    const QString sid = sessionWithDiff(m_project->path(), {cppDiff(), big});
    QVERIFY(!sid.isEmpty());
    ChangesPane pane(m_service.get());
    pane.resize(1000, 800);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(waitLoaded(&pane, [&] { pane.setSessionID(sid); }));
    QCOMPARE(pane.model()->rowCount(), 2);
    DiffView *view = pane.diffView();
    view->setMode(DiffView::Mode::SideBySide);

    pane.selectFile(1);
    QVERIFY(view->isShowingLargeFileNotice());
    QVERIFY(!view->document());
    const QString notice = view->findChild<QLabel *>(u"diffNoticeText"_s)->text();
    QVERIFY2(notice.contains(QLocale().toString(patch ? Lines + 5 : Lines)), qPrintable(notice));
    auto *showAnyway = view->findChild<QPushButton *>(u"diffShowAnyway"_s);
    QVERIFY(showAnyway && showAnyway->isVisible());

    // For comparison: building such a document the first time, outside the pane.
    QElapsedTimer timer;
    timer.start();
    {
        DiffModel cold;
        cold.setDiffs({big});
        QVERIFY(cold.document(0));
    }
    const qint64 coldBuild = timer.elapsed();

    // "Show Anyway": the document is built off the GUI thread ("computing" meanwhile), then set
    // and painted.
    timer.restart();
    QTest::mouseClick(showAnyway, Qt::LeftButton);
    QVERIFY(pane.isComputing());
    QVERIFY(view->isComputing());
    QVERIFY(!view->isShowingLargeFileNotice());
    QVERIFY(waitShown(&pane));
    const qint64 buildAndSet = timer.elapsed();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    view->leftArea()->viewport()->repaint();
    view->rightArea()->viewport()->repaint();
    const qint64 firstPaint = timer.elapsed();
    QVERIFY(!view->isShowingLargeFileNotice());
    QVERIFY(view->document());
    QVERIFY(pane.isForcedShown(u"big/generated.cpp"_s));
    QCOMPARE(view->document()->additions(), added ? Lines : Lines / 250);
    QCOMPARE(view->hunkCount(), added ? 1 : Lines / 250);
    // Side by side: each of the 200 hunks is a header, 3 + 3 lines of context and one pair.
    QCOMPARE(view->rightArea()->rowCount(), added ? Lines + 1 : 200 * 8);

    // Scrolling to the end and painting there (the highlighting has not got that far).
    timer.restart();
    view->rightArea()->setTopRow(view->rightArea()->verticalScrollBar()->maximum());
    view->leftArea()->viewport()->repaint();
    view->rightArea()->viewport()->repaint();
    const qint64 scrollEnd = timer.elapsed();
    QCOMPARE(view->leftArea()->topRow(), view->rightArea()->topRow());
    timer.restart();
    view->goToHunk(-1);
    view->rightArea()->viewport()->repaint();
    const qint64 lastHunk = timer.elapsed();
    timer.restart();
    view->setMode(DiffView::Mode::Unified);
    view->unifiedArea()->viewport()->repaint();
    const qint64 modeSwitch = timer.elapsed();

    // The event loop keeps turning while the highlighting goes on in slices.
    qint64 longestGap = 0;
    {
        QElapsedTimer gap;
        gap.start();
        QTimer tick;
        tick.setInterval(0);
        QEventLoop loop;
        int turns = 0;
        connect(&tick, &QTimer::timeout, &tick, [&] {
            longestGap = std::max(longestGap, gap.restart());
            if (++turns == 100)
                loop.quit();
        });
        tick.start();
        loop.exec(); // 100 turns of the event loop
    }
    // The same file again: its document is kept, so it shows at once.
    pane.selectFile(0);
    timer.restart();
    pane.selectFile(1);
    view->activeArea()->viewport()->repaint();
    const qint64 again = timer.elapsed();
    QVERIFY(!view->isShowingLargeFileNotice());

    qInfo("50,000-line file (%s): show anyway (build + setDocument) %lld ms, + first paint %lld ms; "
          "scroll to the end + paint %lld ms; last hunk %lld ms; switch to unified + paint %lld ms; "
          "longest event-loop gap while highlighting %lld ms; shown again %lld ms",
          qPrintable(kind), buildAndSet, firstPaint, scrollEnd, lastHunk, modeSwitch, longestGap, again);
    qInfo("  the document alone (DiffModel::document, first build): %lld ms (%lld unified rows)", coldBuild,
          qint64(view->document()->rows().size()));
}

void TestDiffPane::largeFileDoesNotStall()
{
    // While the 50,000-line diff is computed the window stays live: the event loop turns, the
    // view says so, and the rows come when the build is done.
    const std::unique_ptr<ChangesPane> pane = paneWithBigFile();
    QVERIFY(pane);
    DiffView *view = pane->diffView();
    pane->selectFile(2);
    QVERIFY(view->isShowingLargeFileNotice());
    QSignalSpy shown(pane.get(), &ChangesPane::fileShown);
    QElapsedTimer timer;
    timer.start();
    QTest::mouseClick(view->findChild<QPushButton *>(u"diffShowAnyway"_s), Qt::LeftButton);
    const qint64 click = timer.elapsed();
    QVERIFY(pane->isComputing());
    int ticksWhileComputing = 0;
    qint64 longestGap = 0;
    {
        QElapsedTimer gap;
        gap.start();
        QTimer tick;
        tick.setInterval(0);
        connect(&tick, &QTimer::timeout, &tick, [&] {
            longestGap = std::max(longestGap, gap.restart());
            if (pane->isComputing())
                ++ticksWhileComputing;
        });
        tick.start();
        QVERIFY(shown.wait(30000));
    }
    const qint64 built = timer.elapsed();
    QCOMPARE(shown.size(), 1);
    QVERIFY(ticksWhileComputing > 0);
    QVERIFY(view->document());
    QCOMPARE(view->document()->path(), u"big/generated.cpp"_s);
    QCOMPARE(view->hunkCount(), 200);
    qInfo("50,000-line diff off the GUI thread: click returned after %lld ms, shown after %lld ms; "
          "%d event-loop turns meanwhile, longest gap %lld ms",
          click, built, ticksWhileComputing, longestGap);
}

// ---- ChangesPane

void TestDiffPane::paneRevertsOneFile_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("onDisk");   // before the revert (the change's "after")
    QTest::addColumn<QString>("expected"); // after it; empty: the file is gone
    QTest::addColumn<QString>("says");
    QTest::addRow("contents form") << 0 << u"src/counter.cpp"_s << cppAfter() << cppBefore() << u"will get its contents"_s;
    QTest::addRow("patch form") << 1 << u"tools/report.py"_s << PyAfter << PyBefore << u"will get its contents"_s;
    QTest::addRow("patch form, added file (real OpenCode diff)")
        << 2 << u"notes.md"_s << u"# 笔记\n数据库测试 note: weft fixture\n"_s << QString() << u"it will be deleted"_s;
}

void TestDiffPane::paneRevertsOneFile()
{
    QFETCH(int, row);
    QFETCH(QString, file);
    QFETCH(QString, onDisk);
    QFETCH(QString, expected);
    QFETCH(QString, says);
    QTemporaryDir dbDir;
    const FileDiff real = test::ownRead([&] { return realPatchDiff(dbDir); });
    QVERIFY(!real.isNull());
    const QString dir = m_project->path();
    QVERIFY(writeFile(dir + u'/' + file, onDisk.toUtf8()));
    QVERIFY(writeFile(dir + u"/unrelated.txt"_s, "keep me\n"));
    const QString sid = sessionWithDiff(dir, {cppDiff(), pyPatchDiff(), real});
    QVERIFY(!sid.isEmpty());

    // The pane asks the controller to revert.
    const Result<ProcessorSetup> setup = makeProcessorSetup(Config(), m_data->path());
    QVERIFY(setup);
    SessionController controller(m_service, m_data->path(), setup.value());
    ChangesPane pane(m_service.get());
    pane.setController(&controller);
    pane.resize(900, 700);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(waitLoaded(&pane, [&] { pane.setSessionID(sid); }));
    QCOMPARE(pane.scope(), ChangesPane::Scope::Session);
    QCOMPARE(pane.model()->rowCount(), 3);
    QCOMPARE(pane.currentFile(), 0);
    // The user picks the file in the list.
    const QRect item = pane.list()->visualRect(pane.model()->index(row, 0));
    QTest::mouseClick(pane.list()->viewport(), Qt::LeftButton, {}, item.center());
    QCOMPARE(pane.currentFile(), row);
    QVERIFY(waitShown(&pane));
    QCOMPARE(pane.diffView()->document()->path(), file);
    QVERIFY(pane.revertFileAction()->isEnabled());
    QVERIFY(!pane.revertTurnAction()->isEnabled()); // no turn shown

    QString title, text;
    bool answer = false;
    int asked = 0;
    pane.setUserQuestions(test::scriptedQuestions([&](const Confirmation &c) {
        title = c.title;
        text = c.text;
        ++asked;
        return answer;
    }));
    QSignalSpy finished(&pane, &ChangesPane::revertFinished);
    // Cancelled: nothing changes.
    pane.revertFileAction()->trigger();
    QTRY_COMPARE(asked, 1); // once the file is located, off the GUI thread
    QCOMPARE(title, u"Revert File"_s);
    QVERIFY2(text.contains(u"“%1”"_s.arg(file)), qPrintable(text));
    QVERIFY2(text.contains(says), qPrintable(text));
    QVERIFY2(text.contains(QDir::toNativeSeparators(dir)), qPrintable(text));
    QVERIFY(!text.contains(u"unrelated"_s));
    QCOMPARE(readText(dir + u'/' + file), onDisk);
    QCOMPARE(finished.size(), 0);
    // Confirmed: the file is back as it was before (or gone when the change added it).
    answer = true;
    QTRY_VERIFY(pane.revertFileAction()->isEnabled());
    pane.revertFileAction()->trigger();
    QTRY_COMPARE(asked, 2);
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    if (expected.isEmpty())
        QVERIFY(!QFile::exists(dir + u'/' + file));
    else
        QCOMPARE(readText(dir + u'/' + file), expected);
    QCOMPARE(readText(dir + u"/unrelated.txt"_s), u"keep me\n"_s);
    QVERIFY2(pane.bannerText().contains(file), qPrintable(pane.bannerText()));

    // Reverting again does not garble the file: the change is no longer there to undo.
    if (!expected.isEmpty() && row == 1) {
        QVERIFY(pane.revertFileAction()->isEnabled());
        pane.revertFileAction()->trigger();
        QTRY_COMPARE(finished.size(), 2);
        QVERIFY(!finished.last().at(0).toBool());
        QCOMPARE(readText(dir + u'/' + file), expected);
    }
}

void TestDiffPane::hunkNavigationCrossesFiles()
{
    const QString sid = sessionWithDiff(m_project->path(), {cppDiff(), pyPatchDiff()});
    QVERIFY(!sid.isEmpty());
    ChangesPane pane(m_service.get());
    pane.resize(900, 700);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(waitLoaded(&pane, [&] { pane.setSessionID(sid); }));
    DiffView *view = pane.diffView();
    QCOMPARE(pane.currentFile(), 0);
    QVERIFY(waitShown(&pane));
    QAction *next = view->nextHunkAction();
    next->trigger();
    next->trigger();
    QCOMPARE(view->currentHunk(), 2);
    // Past the last change of the first file: the first change of the next one (once its diff
    // is built).
    next->trigger();
    QCOMPARE(pane.currentFile(), 1);
    QVERIFY(waitShown(&pane));
    QCOMPARE(view->document()->path(), u"tools/report.py"_s);
    QCOMPARE(view->currentHunk(), 0);
    // And back: the last change of the file before.
    view->previousHunkAction()->trigger();
    QCOMPARE(pane.currentFile(), 0);
    QCOMPARE(view->currentHunk(), 2);
    // Whole files: Ctrl+PgDown / Ctrl+PgUp.
    auto *nextFile = pane.findChild<QAction *>(u"nextFile"_s);
    auto *previousFile = pane.findChild<QAction *>(u"previousFile"_s);
    QVERIFY(nextFile && previousFile);
    QCOMPARE(nextFile->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    nextFile->trigger();
    QCOMPARE(pane.currentFile(), 1);
    nextFile->trigger(); // no file after the last
    QCOMPARE(pane.currentFile(), 1);
    previousFile->trigger();
    QCOMPARE(pane.currentFile(), 0);
    QCOMPARE(view->document()->path(), u"src/counter.cpp"_s);
}

void TestDiffPane::followsTheSessionDiff()
{
    // A run changes the session's diff while the pane shows it: the list follows, and the file
    // shown stays selected.
    const QString sid = sessionWithDiff(m_project->path(), {cppDiff(), pyPatchDiff()});
    QVERIFY(!sid.isEmpty());
    ChangesPane pane(m_service.get());
    pane.resize(900, 700);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(waitLoaded(&pane, [&] { pane.setSessionID(sid); }));
    pane.selectFile(1);
    QVERIFY(waitShown(&pane));
    QCOMPARE(pane.diffView()->document()->path(), u"tools/report.py"_s);
    const QString summary = pane.findChild<QLabel *>(u"changesSummary"_s)->text();
    QVERIFY2(summary.contains(u"2 files"_s), qPrintable(summary));
    const FileDiff added = FileDiff::fromContents(u"docs/new.md"_s, QString(), u"# New\n"_s, 1, 0);
    QVERIFY(test::ownRead([&] { return m_service->setDiff(sid, {added, cppDiff(), pyPatchDiff()}); }));
    QTRY_COMPARE(pane.model()->rowCount(), 3);
    QCOMPARE(pane.currentFile(), 2);
    QVERIFY(waitShown(&pane));
    QCOMPARE(pane.diffView()->document()->path(), u"tools/report.py"_s);
    QVERIFY(pane.findChild<QLabel *>(u"changesSummary"_s)->text().contains(u"3 files"_s));
    // All changes gone: the pane says so.
    QVERIFY(test::ownRead([&] { return m_service->setDiff(sid, {}); }));
    QTRY_COMPARE(pane.model()->rowCount(), 0);
    QVERIFY(!pane.diffView()->document());
    QVERIFY(!pane.revertFileAction()->isEnabled());
}

void TestDiffPane::computingThenRows()
{
    // A file whose diff is not built yet: "computing" first, then its rows.
    const QString sid = sessionWithDiff(m_project->path(), {cppDiff(), pyPatchDiff()});
    QVERIFY(!sid.isEmpty());
    ChangesPane pane(m_service.get());
    pane.resize(900, 700);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(waitLoaded(&pane, [&] { pane.setSessionID(sid); }));
    QVERIFY(waitShown(&pane));
    DiffView *view = pane.diffView();
    QCOMPARE(view->document()->path(), u"src/counter.cpp"_s);
    QVERIFY(!pane.model()->cachedDocument(1));
    QSignalSpy shown(&pane, &ChangesPane::fileShown);
    pane.selectFile(1);
    QVERIFY(pane.isComputing());
    QVERIFY(view->isComputing());
    QVERIFY(!view->document());
    QCOMPARE(view->findChild<QLabel *>(u"diffPath"_s)->text(), u"tools/report.py"_s);
    QVERIFY(!view->isShowingLargeFileNotice());
    QVERIFY(shown.wait(10000));
    QVERIFY(!pane.isComputing());
    QVERIFY(!view->isComputing());
    QCOMPARE(view->document()->path(), u"tools/report.py"_s);
    QCOMPARE(rowsText(*view->document()), PyUnified);
    QCOMPARE(view->unifiedArea()->rowCount(), int(PyUnified.size()));
    QCOMPARE(view->currentHunk(), 0);
    // Built once: shown again at once.
    pane.selectFile(0);
    QVERIFY(!pane.isComputing());
    pane.selectFile(1);
    QVERIFY(!pane.isComputing());
    QCOMPARE(view->document()->path(), u"tools/report.py"_s);
    QCOMPARE(shown.size(), 1);
}

void TestDiffPane::newerRequestSupersedes()
{
    // The user asks for the big file, then for a small one before the big one is built: the
    // small one is shown, and the big one's result, when it comes, does not replace it.
    const std::unique_ptr<ChangesPane> pane = paneWithBigFile();
    QVERIFY(pane);
    DiffView *view = pane->diffView();
    QSignalSpy shown(pane.get(), &ChangesPane::fileShown);
    pane->selectFile(2);
    QTest::mouseClick(view->findChild<QPushButton *>(u"diffShowAnyway"_s), Qt::LeftButton);
    QVERIFY(pane->isComputing());
    pane->selectFile(1);
    QVERIFY(pane->isComputing());
    QVERIFY(shown.wait(10000));
    QCOMPARE(view->document()->path(), u"tools/report.py"_s);
    // The big file's build finishes later; it is kept for later but not shown.
    QTRY_VERIFY_WITH_TIMEOUT(pane->model()->cachedDocument(2), 30000);
    test::deliverPosted();
    QCOMPARE(shown.size(), 1);
    QCOMPARE(pane->currentFile(), 1);
    QCOMPARE(view->document()->path(), u"tools/report.py"_s);
    // Back to the big file: built already, shown at once.
    pane->selectFile(2);
    QVERIFY(!pane->isComputing());
    QCOMPARE(view->document()->path(), u"big/generated.cpp"_s);
}

void TestDiffPane::destroyedWhileBuilding()
{
    // Closing the pane (or the window) while a diff is built: no crash, no result delivered
    // to the dead pane.
    std::unique_ptr<ChangesPane> pane = paneWithBigFile();
    QVERIFY(pane);
    pane->selectFile(2);
    QTest::mouseClick(pane->diffView()->findChild<QPushButton *>(u"diffShowAnyway"_s), Qt::LeftButton);
    QVERIFY(pane->isComputing());
    QVERIFY(pane->model()->isBuilding(2));
    pane.reset();
    QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
    test::deliverPosted(); // the build's result, to no one
}

QString TestDiffPane::runAgentSession()
{
    const QString project = m_project->path();
    if (!writeFile(project + u"/tools/report.py"_s, PyBefore.toUtf8()) || !git(project, {u"init"_s, u"-q"_s})
        || !git(project, {u"add"_s, u"-A"_s}) || !git(project, {u"commit"_s, u"-q"_s, u"-m"_s, u"root"_s}))
        return {};
    FakeLlmServer server;
    if (!server.listen())
        return {};
    ProcessorConfig config;
    config.dataDir = m_data->path();
    config.generateTitles = false;
    config.snapshots = ProcessorConfig::Snapshots::Always;
    config.askPolicy = ProcessorConfig::AskPolicy::Allow;
    config.maxRetries = 0;
    const QUrl base = server.baseUrl();
    config.resolveModel = [base](const QString &) -> Result<ResolvedModel> {
        ResolvedModel m;
        m.providerID = u"fake"_s;
        m.modelID = u"gpt-test"_s;
        m.settings.providerID = u"fake"_s;
        m.settings.protocol = ProviderProtocol::OpenAiCompatible;
        m.settings.baseURL = base;
        m.settings.apiKey = u"sk-test"_s;
        m.contextLimit = 200000;
        m.outputLimit = 8000;
        return m;
    };
    const QString report = project + u"/tools/report.py"_s;
    server.enqueue(FakeReply::sse(toolReply(u"call_1"_s, u"read"_s, JsonObject{{u"filePath"_s, report}})));
    server.enqueue(FakeReply::sse(
        toolReply(u"call_2"_s, u"write"_s, JsonObject{{u"filePath"_s, report}, {u"content"_s, PyAfter}})));
    server.enqueue(FakeReply::sse(toolReply(u"call_3"_s, u"write"_s,
                                            JsonObject{{u"filePath"_s, project + u"/notes.md"_s}, {u"content"_s, NotesText}})));
    server.enqueue(FakeReply::sse(textReply(u"Done: the report prints a sum and a count."_s)));
    server.enqueue(FakeReply::sse(toolReply(u"call_4"_s, u"write"_s,
                                            JsonObject{{u"filePath"_s, project + u"/extra.txt"_s}, {u"content"_s, ExtraText}})));
    server.enqueue(FakeReply::sse(textReply(u"Added extra.txt."_s)));

    Processor processor(m_service, config);
    QString sessionID;
    for (const QString &text : {FirstPrompt, u"Add extra.txt"_s}) {
        QSignalSpy finished(&processor, &Processor::finished);
        PromptRequest request;
        request.sessionID = sessionID;
        request.directory = project;
        request.text = text;
        const Result<QString> started = test::ownRead([&] { return processor.prompt(request); });
        if (!started) {
            qWarning() << started.error().toString();
            return {};
        }
        if (finished.isEmpty() && !finished.wait(30000))
            return {};
        if (!finished.first().at(1).toBool()) {
            qWarning() << "run failed" << finished.first().at(2).value<MessageError>().message();
            return {};
        }
        sessionID = started.value();
    }
    return sessionID;
}

std::unique_ptr<MainWindow> TestDiffPane::makeWindow(const QString &sessionID)
{
    auto window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    window->resize(1440, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return {};
    if (!window->sessionsModel()->isLoaded()) {
        QSignalSpy loaded(window->sessionsModel(), &SessionsModel::loaded);
        if (!loaded.wait(5000))
            return {};
    }
    QSignalSpy timeline(window->timelineModel(), &TimelineModel::loaded);
    if (window->currentSessionID() != sessionID && !window->openSession(sessionID))
        return {};
    if (window->timelineModel()->isLoading() && !timeline.wait(5000))
        return {};
    // The changes pane reads the session's diff off the GUI thread.
    ChangesPane *pane = window->changesPane();
    if (!QTest::qWaitFor([&] { return pane->sessionID() == sessionID && pane->model()->rowCount() > 0; }, 5000))
        return {};
    return window;
}

void TestDiffPane::turnScopeAndRevert()
{
    const QString sid = runAgentSession();
    QVERIFY(!sid.isEmpty());
    const QString project = m_project->path();
    const QString report = project + u"/tools/report.py"_s;
    QCOMPARE(readText(report), PyAfter);
    const QList<MessageWithParts> messages = test::ownRead([&] { return m_service->messages(sid); });
    QString firstUser, secondUser;
    for (const MessageWithParts &m : messages) {
        if (m.info.isUser())
            (firstUser.isEmpty() ? firstUser : secondUser) = m.info.id();
    }
    QVERIFY(!secondUser.isEmpty());
    QCOMPARE(test::ownRead([&] { return m_service->diff(sid); }).size(), 3);

    auto window = makeWindow(sid);
    QVERIFY(window);
    ChangesPane *pane = window->changesPane();
    // Opened from the sidebar: the whole session.
    QCOMPARE(pane->sessionID(), sid);
    QCOMPARE(pane->scope(), ChangesPane::Scope::Session);
    QCOMPARE(pane->model()->rowCount(), 3);
    // A fresh window leaves the pane room for a diff, and its header names the file.
    QVERIFY2(pane->width() >= 340, qPrintable(QString::number(pane->width())));
    QVERIFY(waitShown(pane));
    const QString shownFile = pane->diffView()->document()->path();
    const QString header = pane->diffView()->findChild<QLabel *>(u"diffPath"_s)->text();
    QVERIFY2(header.endsWith(shownFile.section(u'/', -1)), qPrintable(header));
    auto *sessionButton = pane->findChild<QToolButton *>(u"scopeSession"_s);
    auto *turnButton = pane->findChild<QToolButton *>(u"scopeTurn"_s);
    QVERIFY(sessionButton->isChecked());
    QVERIFY(!turnButton->isEnabled());
    QVERIFY(!pane->revertTurnAction()->isEnabled());

    // The first user message says "2 files changed in this turn": a click opens that turn.
    TimelineView *view = window->timelineView();
    QAbstractItemModel *rows = view->model();
    QModelIndex userRow;
    for (int r = 0; r < rows->rowCount(); ++r) {
        if (rows->index(r, 0).data(TimelineModel::IdRole).toString() == firstUser)
            userRow = rows->index(r, 0);
    }
    QVERIFY(userRow.isValid());
    QCOMPARE(userRow.data(TimelineModel::ChangedFilesRole).toInt(), 2);
    view->scrollTo(userRow, QAbstractItemView::PositionAtTop);
    QVERIFY(test::settle(*window));
    const QRect line = view->timelineDelegate()->partRect(userRow, u"#changes"_s);
    QVERIFY(!line.isEmpty());
    const QPoint click = view->visualRect(userRow).topLeft() + line.center();
    QCOMPARE(view->timelineDelegate()->hitTest(userRow, line.center()).kind, TimelineDelegate::Hit::Kind::Changes);
    QVERIFY(waitLoaded(pane, [&] { QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, click); }));
    QCOMPARE(pane->scope(), ChangesPane::Scope::Turn);
    QCOMPARE(pane->turnMessageID(), firstUser);
    QVERIFY(turnButton->isChecked() && turnButton->isEnabled());
    QCOMPARE(pane->model()->rowCount(), 2);
    QStringList files{pane->model()->diff(0).file(), pane->model()->diff(1).file()};
    files.sort();
    QCOMPARE(files, (QStringList{u"notes.md"_s, u"tools/report.py"_s}));
    QVERIFY(pane->findChild<QLabel *>(u"changesSummary"_s)->text().contains(FirstPrompt));
    QTRY_VERIFY(pane->width() >= 450); // the pane made room for the diff
    QVERIFY(pane->revertTurnAction()->isEnabled());

    // The scope toggle: the whole session, and back to the turn.
    QVERIFY(waitLoaded(pane, [&] { QTest::mouseClick(sessionButton, Qt::LeftButton); }));
    QCOMPARE(pane->scope(), ChangesPane::Scope::Session);
    QCOMPARE(pane->model()->rowCount(), 3);
    QVERIFY(!pane->revertTurnAction()->isEnabled());
    QVERIFY(waitLoaded(pane, [&] { QTest::mouseClick(turnButton, Qt::LeftButton); }));
    QCOMPARE(pane->scope(), ChangesPane::Scope::Turn);
    QCOMPARE(pane->model()->rowCount(), 2);

    // Revert one file of the turn: report.py gets its old contents back (no final newline).
    QString title, text;
    QStringList asked;
    window->setUserQuestions(test::scriptedQuestions([&](const Confirmation &c) {
        title = c.title;
        text = c.text;
        asked.append(c.title);
        return true;
    }));
    pane->selectFile(pane->model()->rowOfPath(u"tools/report.py"_s));
    QVERIFY(waitShown(pane));
    QCOMPARE(pane->diffView()->document()->path(), u"tools/report.py"_s);
    QSignalSpy finished(pane, &ChangesPane::revertFinished);
    pane->revertFileAction()->trigger();
    QTRY_COMPARE(title, u"Revert File"_s);
    QVERIFY2(text.contains(u"“tools/report.py”"_s), qPrintable(text));
    QVERIFY(!text.contains(u"notes.md"_s));
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QCOMPARE(readText(report), PyBefore);
    QCOMPARE(readText(project + u"/notes.md"_s), NotesText); // the other file is untouched

    // Revert the whole turn: every file changed from it on goes back; the turn is hidden.
    QVERIFY(waitLoaded(pane, [&] { pane->showTurn(firstUser); }));
    QTRY_VERIFY(pane->revertTurnAction()->isEnabled());
    pane->revertTurnAction()->trigger();
    QTRY_COMPARE(title, u"Revert Turn"_s); // after the plan and the messages are read
    for (const QString &f : {u"tools/report.py"_s, u"notes.md"_s, u"extra.txt"_s})
        QVERIFY2(text.contains(f), qPrintable(text));
    QVERIFY2(text.contains(FirstPrompt), qPrintable(text));
    QVERIFY2(text.contains(QDir::toNativeSeparators(project)), qPrintable(text));
    QVERIFY(finished.size() == 2 || finished.wait(20000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    QCOMPARE(readText(report), PyBefore);
    QVERIFY(!QFile::exists(project + u"/notes.md"_s));
    QVERIFY(!QFile::exists(project + u"/extra.txt"_s));
    QVERIFY(test::ownRead([&] { return m_service->get(sid); })->hasRevert());
    QCOMPARE(test::ownRead([&] { return m_service->get(sid); })->revert().string(u"messageID"), firstUser);
    QTRY_VERIFY(pane->unrevertAction()->isEnabled());

    // And back again.
    pane->unrevertAction()->trigger();
    QTRY_COMPARE(title, u"Restore Reverted Changes"_s);
    QVERIFY(finished.size() == 3 || finished.wait(20000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    QCOMPARE(readText(project + u"/notes.md"_s), NotesText);
    QCOMPARE(readText(project + u"/extra.txt"_s), ExtraText);
    // report.py as it was when the turn was reverted: the single-file revert above stays.
    QCOMPARE(readText(report), PyBefore);
    QVERIFY(!test::ownRead([&] { return m_service->get(sid); })->hasRevert());
    QCOMPARE(asked, (QStringList{u"Revert File"_s, u"Revert Turn"_s, u"Restore Reverted Changes"_s}));
}

void TestDiffPane::screenshotSideBySide()
{
    // The window as a user sees it after clicking "2 files changed in this turn", side by side.
    const QString sid = runAgentSession();
    QVERIFY(!sid.isEmpty());
    QString firstUser;
    for (const MessageWithParts &m : test::ownRead([&] { return m_service->messages(sid); })) {
        if (m.info.isUser() && firstUser.isEmpty())
            firstUser = m.info.id();
    }
    auto window = makeWindow(sid);
    QVERIFY(window);
    // The changes pane sits in its session's pane, beside the timeline: the room it asks for
    // comes from the timeline only (not the sidebar), whose composer needs 684 px.
    window->resize(1500, 900);
    ChangesPane *pane = window->changesPane();
    pane->diffView()->setMode(DiffView::Mode::SideBySide);
    QVERIFY(waitLoaded(pane, [&] { Q_EMIT window->timelineView()->turnChangesRequested(sid, firstUser); }));
    pane->selectFile(pane->model()->rowOfPath(u"tools/report.py"_s));
    QVERIFY(waitShown(pane));
    test::deliverPosted();
    DiffView *view = pane->diffView();
    QVERIFY(view->leftArea()->isVisible());
    // Wide enough for two columns of code.
    QVERIFY2(view->leftArea()->width() >= 230, qPrintable(QString::number(view->leftArea()->width())));
    // The file's header is not elided.
    auto *path = view->findChild<QLabel *>(u"diffPath"_s);
    QCOMPARE(path->text(), u"tools/report.py"_s);
    const QString file = QStringLiteral(WEFT_BINARY_DIR "/screenshots/diffpane-sidebyside.png");
    const QPixmap shot = window->grab();
    QVERIFY(!shot.isNull());
    QVERIFY(shot.save(file));
    qInfo("wrote %s", qPrintable(file));
}

QTEST_MAIN(TestDiffPane)
#include "tst_diffpane.moc"
