// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's estimated row heights (issue 18): rows the view has not shown get a height
// estimated without layout; the rows on screen are always laid out exactly, the others in idle
// time, and neither moves what the user is reading.
#include "framebudget.h"
#include "guitest.h"
#include "markdownrenderer.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QElapsedTimer>
#include <QPaintEvent>
#include <QStandardItemModel>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
constexpr int Messages = 160;
constexpr qint64 Start = 1795312700000;

QString idOf(const char *prefix, int n)
{
    return QString::fromLatin1(prefix) + u"_3%1AAAAAAAAAAAAAA"_s.arg(n, 11, 10, QChar(u'0'));
}

/// Replies whose height an estimate from their length gets wrong: lists, code, short lines.
QString replyText(int n)
{
    QString text = u"Reply %1 looks at the parser.\n\n"_s.arg(n);
    for (int i = 0; i < n % 7; ++i)
        text += u"- item %1 of a list\n"_s.arg(i);
    if (n % 3 == 0)
        text += u"\n```cpp\nint x = %1;\nreturn x;\n```\n"_s.arg(n);
    if (n % 5 == 0)
        text += u"\n"_s + QString(400, u'w').replace(u"wwwww"_s, u"word "_s);
    return text;
}
} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void rowsOnScreenAreExact();
    void olderPageIsEstimatedAndKeepsPlace();
    void everyRowIsMeasuredInIdleTime();
    void revertFilterOnlyWhilePending();
    void scrollBarRepaintsItsHandle();
    void removedRowsStopTheMeasuring();
    void rowMeasuredOffScreenIsPlacedWhenShown();
    void placingKeepsTheRowBeingRead();
    void idleTimeIsWhatFramesLeave_data();
    void idleTimeIsWhatFramesLeave();
    void warmUpPaysAheadInPieces();
    void fenceLanguagesAsTheRendererSeesThem();
    void writtenReplyKeepsItsPieces();

private:
    /// The rows that intersect the viewport.
    QList<QModelIndex> visibleRows() const;
    /// Row @p index is placed with the height of its exact layout.
    bool placedExactly(const QModelIndex &index) const;

    QTemporaryDir m_settings;
    std::unique_ptr<QTemporaryDir> m_data;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<TimelineModel> m_model;
    std::unique_ptr<TimelineView> m_view;
    QString m_session;
};

void TestTimelineView::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
}

void TestTimelineView::init()
{
    m_data = std::make_unique<QTemporaryDir>();
    m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
    SessionService::CreateOptions options;
    options.directory = m_data->path();
    options.title = u"Estimated heights"_s;
    options.now = Start;
    const auto created = test::ownRead([&] { return m_service->create(options); });
    QVERIFY(created);
    m_session = created->id();
    for (int n = 0; n < Messages; n += 2) {
        const QString user = idOf("msg", n);
        QVERIFY(m_service->updateMessage(Message::makeUser(user, m_session, Start + n * 1000, u"build"_s, u"fake"_s, u"m1"_s)));
        QVERIFY(m_service->updatePart(Part::makeText(idOf("prt", n), m_session, user, u"Question %1?"_s.arg(n))));
        const QString reply = idOf("msg", n + 1);
        Message assistant = Message::makeAssistant(reply, m_session, Start + n * 1000 + 500, user, u"fake"_s, u"m1"_s,
                                                   u"build"_s, m_data->path(), m_data->path());
        assistant.setCompleted(Start + n * 1000 + 900);
        QVERIFY(m_service->updateMessage(assistant));
        QVERIFY(m_service->updatePart(Part::makeText(idOf("prt", n + 1), m_session, reply, replyText(n + 1))));
    }

    m_model = std::make_unique<TimelineModel>(m_service.get());
    m_model->setPageSize(40);
    m_view = std::make_unique<TimelineView>();
    m_view->setTimelineModel(m_model.get());
    m_view->resize(700, 500);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    QSignalSpy loaded(m_model.get(), &TimelineModel::loaded);
    m_model->setSessionID(m_session);
    QVERIFY(loaded.wait(5000));
    QCOMPARE(m_view->model()->rowCount(), 40);
}

void TestTimelineView::cleanup()
{
    m_view.reset();
    m_model.reset();
    m_service.reset();
    m_data.reset();
}

QList<QModelIndex> TestTimelineView::visibleRows() const
{
    QList<QModelIndex> rows;
    for (int row = 0; row < m_view->model()->rowCount(); ++row) {
        const QModelIndex index = m_view->model()->index(row, 0);
        if (m_view->visualRect(index).intersects(m_view->viewport()->rect()))
            rows.append(index);
    }
    return rows;
}

bool TestTimelineView::placedExactly(const QModelIndex &index) const
{
    TimelineDelegate *delegate = m_view->timelineDelegate();
    // measure() lays the row out and says whether its height differs from the one stored. The
    // row is placed with that height when the next row starts there (visualRect() has the
    // row's current height, whatever it was placed with).
    const QModelIndex next = index.siblingAtRow(index.row() + 1);
    const int placed = next.isValid() ? m_view->visualRect(next).top() - m_view->visualRect(index).top()
                                      : m_view->visualRect(index).height();
    return !delegate->isEstimated(index) && !delegate->measure(index)
        && placed == delegate->sizeHint({}, index).height();
}

void TestTimelineView::rowsOnScreenAreExact()
{
    // Right after the first page came in: the view is at the end, and what it shows is exact.
    QVERIFY(m_view->isPinnedToBottom());
    const QList<QModelIndex> shown = visibleRows();
    QVERIFY(shown.size() >= 2);
    for (const QModelIndex &index : shown)
        QVERIFY2(placedExactly(index), qPrintable(u"row %1"_s.arg(index.row())));
    QCOMPARE(shown.last().row(), m_view->model()->rowCount() - 1);
    // Scrolled to the middle, at once (no event processed): exact there too.
    m_view->verticalScrollBar()->setValue(m_view->verticalScrollBar()->maximum() / 2);
    for (const QModelIndex &index : visibleRows())
        QVERIFY2(placedExactly(index), qPrintable(u"row %1"_s.arg(index.row())));
}

void TestTimelineView::olderPageIsEstimatedAndKeepsPlace()
{
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    // Reading a row in the middle of the loaded ones.
    QScrollBar *bar = m_view->verticalScrollBar();
    const QModelIndex reading = m_view->model()->index(20, 0);
    m_view->scrollTo(reading, QAbstractItemView::PositionAtTop);
    QVERIFY(!m_view->isPinnedToBottom());
    const QString readingID = reading.data(TimelineModel::IdRole).toString();
    const int top = m_view->visualRect(reading).top();

    // The older page arrives: its rows are estimated, not laid out, at the moment they are in.
    bool estimatedOnArrival = false;
    connect(m_model.get(), &TimelineModel::olderLoaded, this, [&] {
        estimatedOnArrival = m_view->timelineDelegate()->isEstimated(m_view->model()->index(0, 0));
    });
    QSignalSpy older(m_model.get(), &TimelineModel::olderLoaded);
    m_model->loadOlder();
    QVERIFY(older.wait(5000));
    QCOMPARE(m_view->model()->rowCount(), 80);
    QVERIFY(estimatedOnArrival);
    const auto rowOf = [&] { return m_view->model()->index(m_model->indexForId(readingID).row(), 0); };
    QCOMPARE(m_view->visualRect(rowOf()).top(), top);

    // Measured in idle time: the row read stays where it was, every pixel.
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    QCOMPARE(m_view->visualRect(rowOf()).top(), top);
    QVERIFY(bar->value() > 0);
}

void TestTimelineView::revertFilterOnlyWhilePending()
{
    // The view shows the timeline model itself (no proxy to map 20,000 rows through at every
    // placing), which offers Qt's fetchMore() nothing: a view at the end would otherwise load
    // the whole history page by page.
    QCOMPARE(m_view->model(), m_model.get());
    QVERIFY(m_model->canLoadOlder());
    QVERIFY(!m_model->canFetchMore({}));
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    QScrollBar *bar = m_view->verticalScrollBar();
    const QModelIndex reading = m_view->model()->index(10, 0);
    m_view->scrollTo(reading, QAbstractItemView::PositionAtTop);
    QVERIFY(!m_view->isPinnedToBottom());
    const QString readingID = reading.data(TimelineModel::IdRole).toString();
    // A revert hides the last rows: the row read has the same row in the filter as in the model.
    const auto rowOf = [&] { return m_view->model()->index(m_model->indexForId(readingID).row(), 0); };
    const int top = m_view->visualRect(rowOf()).top();

    // A revert at the 31st loaded message: the filter comes between, the row read stays put.
    const QString revertAt = m_model->index(30).data(TimelineModel::IdRole).toString();
    m_view->setRevert(revertAt);
    QVERIFY(m_view->model() != m_model.get());
    QCOMPARE(m_view->revertMessageID(), revertAt);
    QCOMPARE(m_view->model()->rowCount(), 30);
    QCOMPARE(m_view->hiddenMessageCount(), 10);
    QCOMPARE(m_view->visualRect(rowOf()).top(), top);
    QVERIFY(!m_view->model()->canFetchMore({}));
    // Scrolled to the end of what is shown: it follows the end, whatever comes below.
    m_view->scrollTo(m_view->model()->index(29, 0), QAbstractItemView::PositionAtTop);
    QVERIFY(m_view->isPinnedToBottom());

    // Unrevert: the model itself again, every row back, the end still in view.
    m_view->setRevert({});
    QCOMPARE(m_view->model(), m_model.get());
    QCOMPARE(m_view->model()->rowCount(), 40);
    QCOMPARE(m_view->hiddenMessageCount(), 0);
    QVERIFY(m_view->isPinnedToBottom());
    QCOMPARE(bar->value(), bar->maximum());
    QVERIFY(m_view->visualRect(m_model->index(39)).intersects(m_view->viewport()->rect()));

    // A revert at a part keeps its message, cut: the filter again. Then a revert at the row
    // read hides it and what follows: the row above it ends what is shown, in view.
    m_view->setRevert(revertAt, u"prt_cut"_s);
    QCOMPARE(m_view->model()->rowCount(), 31);
    QVERIFY(m_view->model() != m_model.get());
    m_view->scrollTo(m_view->model()->index(20, 0), QAbstractItemView::PositionAtTop);
    const QString aboveID = m_view->model()->index(19, 0).data(TimelineModel::IdRole).toString();
    m_view->setRevert(m_view->model()->index(20, 0).data(TimelineModel::IdRole).toString());
    QCOMPARE(m_view->model()->rowCount(), 20);
    QCOMPARE(m_view->model()->index(19, 0).data(TimelineModel::IdRole).toString(), aboveID);
    QVERIFY(m_view->visualRect(m_view->model()->index(19, 0)).intersects(m_view->viewport()->rect()));
    QCOMPARE(bar->value(), bar->maximum());
}

void TestTimelineView::scrollBarRepaintsItsHandle()
{
    // A step of the scroll bar repaints where its handle was and is, not the whole groove (which
    // Qt fills on its thread pool); what is on screen is the bar as a whole repaint draws it.
    QScrollBar *bar = m_view->verticalScrollBar();
    QVERIFY(bar->maximum() > 10 * bar->singleStep());
    QRegion painted;
    struct Spy : QObject {
        QRegion *painted;
        bool eventFilter(QObject *, QEvent *event) override
        {
            if (event->type() == QEvent::Paint)
                *painted += static_cast<QPaintEvent *>(event)->region();
            return false;
        }
    } spy;
    spy.painted = &painted;
    bar->installEventFilter(&spy);
    // Every row measured (no placing changes the range), half-way (no older page comes in).
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    bar->setValue(bar->maximum() / 2);
    for (int step = 0; step < 5; ++step) {
        bar->repaint(); // what was pending before the step
        painted = QRegion();
        bar->setValue(bar->value() + bar->singleStep());
        QTRY_VERIFY(!painted.isEmpty());
        QVERIFY2(painted.boundingRect().height() < bar->height() / 2,
                 qPrintable(u"repainted %1 of %2 pixels"_s.arg(painted.boundingRect().height()).arg(bar->height())));
    }
    const auto shownAsWhole = [&] {
        const QImage shown = m_view->window()->screen()->grabWindow(m_view->window()->winId()).toImage();
        const QRect barRect(bar->mapTo(m_view->window(), QPoint(0, 0)), bar->size());
        const qreal ratio = shown.devicePixelRatio();
        const QImage shownBar = shown.copy(QRect(barRect.topLeft() * ratio, barRect.size() * ratio))
                                    .convertToFormat(QImage::Format_RGB32);
        return shownBar == bar->grab().toImage().convertToFormat(QImage::Format_RGB32);
    };
    QVERIFY(shownAsWhole());
    // Jumps to an end and steps off it (arrows may enable or disable): what is on screen is
    // still the bar as a whole repaint draws it.
    for (const int value : {bar->maximum(), bar->maximum() - bar->singleStep(), bar->minimum(), bar->singleStep()}) {
        bar->repaint();
        painted = QRegion();
        bar->setValue(value);
        QTRY_VERIFY(!painted.isEmpty());
        QVERIFY2(shownAsWhole(), qPrintable(u"at %1"_s.arg(value)));
    }
}

void TestTimelineView::everyRowIsMeasuredInIdleTime()
{
    QSignalSpy older(m_model.get(), &TimelineModel::olderLoaded);
    while (m_model->canLoadOlder()) {
        m_model->loadOlder();
        QVERIFY(older.wait(5000));
    }
    QCOMPARE(m_view->model()->rowCount(), Messages);
    // The view at the end lays the new rows out later (a delayed layout): now.
    QVERIFY(m_view->visualRect(m_view->model()->index(0, 0)).isValid());
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    QTRY_VERIFY(!m_view->hasPendingMeasurements());
    // Every row is placed with its exact height, one after the other.
    int y = m_view->visualRect(m_view->model()->index(0, 0)).top();
    for (int row = 0; row < Messages; ++row) {
        const QModelIndex index = m_view->model()->index(row, 0);
        QVERIFY2(placedExactly(index), qPrintable(u"row %1"_s.arg(row)));
        QCOMPARE(m_view->visualRect(index).top(), y);
        y += m_view->visualRect(index).height();
    }
}

void TestTimelineView::removedRowsStopTheMeasuring()
{
    // Estimates of rows that went away before they were measured are forgotten: nothing keeps
    // running in idle time.
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    m_view->scrollTo(m_view->model()->index(20, 0), QAbstractItemView::PositionAtTop);
    // The oldest message of the page goes away the moment the page is in, before idle time.
    bool estimated = false;
    bool removed = false;
    connect(m_model.get(), &TimelineModel::olderLoaded, this, [&] {
        const QModelIndex first = m_view->model()->index(0, 0);
        estimated = m_view->timelineDelegate()->isEstimated(first);
        removed = bool(m_service->removeMessage(m_session, first.data(TimelineModel::IdRole).toString()));
    });
    QSignalSpy older(m_model.get(), &TimelineModel::olderLoaded);
    m_model->loadOlder();
    QVERIFY(older.wait(5000));
    QVERIFY(estimated);
    QVERIFY(removed);
    QTRY_COMPARE(m_view->model()->rowCount(), 79);
    QTRY_VERIFY(!m_view->hasPendingMeasurements());
    QVERIFY(!m_view->timelineDelegate()->hasEstimates());
}

void TestTimelineView::rowMeasuredOffScreenIsPlacedWhenShown()
{
    // Idle time measures rows off screen without placing the rows again after every slice (each
    // placing asks every row its size): a row measured so is placed when it comes into view.
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    QScrollBar *bar = m_view->verticalScrollBar();
    bar->setValue(bar->maximum() / 2);
    QVERIFY(!m_view->isPinnedToBottom());
    // The moment the older page is in, before idle time: its rows are placed with their
    // estimates (replies with lists and code, which estimates get wrong). Measured as idle time
    // measures them, they are placed with their heights once they are shown, at once.
    bool estimated = true;
    bool measured = false;
    QList<int> misplaced;
    connect(m_model.get(), &TimelineModel::olderLoaded, this, [&](int count) {
        for (int row = 0; row < count; ++row) {
            const QModelIndex index = m_view->model()->index(row, 0);
            estimated &= m_view->timelineDelegate()->isEstimated(index);
            measured |= m_view->timelineDelegate()->measure(index);
        }
        bar->setValue(0);
        for (const QModelIndex &index : visibleRows()) {
            if (!placedExactly(index))
                misplaced.append(index.row());
        }
    });
    QSignalSpy older(m_model.get(), &TimelineModel::olderLoaded);
    m_model->loadOlder();
    QVERIFY(older.wait(5000));
    QVERIFY(estimated);
    QVERIFY(measured); // some estimates were not the rows' heights
    QCOMPARE(misplaced, QList<int>());
}

void TestTimelineView::placingKeepsTheRowBeingRead()
{
    // Rows above the one being read have heights they were not placed with (idle time measures
    // them without placing), and a reply below grows: the placing this asks for puts those rows
    // at their heights and keeps the row being read where it is on screen.
    QTRY_VERIFY(!m_view->timelineDelegate()->hasEstimates());
    QScrollBar *bar = m_view->verticalScrollBar();
    bar->setValue(bar->maximum() / 2);
    QVERIFY(!m_view->isPinnedToBottom());
    // Measured the moment they arrive, before an idle slice can (which would find the same:
    // heights measured and not placed, but measure() would then say nothing changed).
    int count = 0;
    bool measured = false;
    connect(m_model.get(), &TimelineModel::olderLoaded, this, [&](int loaded) {
        count = loaded;
        for (int row = 0; row < count; ++row)
            measured |= m_view->timelineDelegate()->measure(m_view->model()->index(row, 0));
    });
    QSignalSpy older(m_model.get(), &TimelineModel::olderLoaded);
    m_model->loadOlder();
    QVERIFY(older.wait(5000));
    QVERIFY(measured); // some estimates were not the rows' heights

    const QPoint top(m_view->viewport()->width() / 2, 0);
    const QPersistentModelIndex reading = m_view->indexAt(top);
    QVERIFY(reading.row() >= count);
    const int readingTop = m_view->visualRect(reading).top();
    const QPersistentModelIndex last = m_view->model()->index(m_view->model()->rowCount() - 1, 0);
    const int lastHeight = m_view->visualRect(last).height();
    const QString reply = idOf("msg", Messages - 1);
    QVERIFY(m_service->updatePart(Part::makeText(idOf("prt", Messages - 1), m_session, reply,
                                                 replyText(Messages - 1) + u"\n\nOne more paragraph."_s)));
    QTRY_VERIFY(m_view->visualRect(last).height() > lastHeight); // placed again
    QCOMPARE(m_view->indexAt(top), QModelIndex(reading));
    QCOMPARE(m_view->visualRect(reading).top(), readingTop);
    QVERIFY(!m_view->isPinnedToBottom());
}

QTEST_MAIN(TestTimelineView)
void TestTimelineView::idleTimeIsWhatFramesLeave_data()
{
    // A frame: begun at these times (a scroll, a placing, a paint's start), then painted or not;
    // then idle work that may take 12 ms asks at these times, and waits this long.
    QTest::addColumn<QList<qint64>>("begins");
    QTest::addColumn<bool>("painted");
    QTest::addColumn<QList<qint64>>("asks");
    QTest::addColumn<QList<qint64>>("delays");

    using L = QList<qint64>;
    QTest::newRow("no frame yet") << L{} << false << L{0} << L{0};
    QTest::newRow("after a short frame") << L{100} << true << L{103} << L{0};
    // Room for 12 ms in the period: 16 - 12.
    QTest::newRow("after a 4 ms frame") << L{100} << true << L{104} << L{0};
    QTest::newRow("after a 5 ms frame") << L{100} << true << L{105, 116} << L{11, 0};
    QTest::newRow("after a 15 ms frame") << L{100} << true << L{115, 116} << L{1, 0};
    // A frame that took its whole period or more: once 1 ms, for the input that came meanwhile.
    QTest::newRow("after a 16 ms frame") << L{100} << true << L{116, 117, 118} << L{1, 0, 0};
    QTest::newRow("after a 30 ms frame") << L{100} << true << L{130, 130} << L{1, 0};
    // A scroll and the paint after it are one frame: the first begin counts.
    QTest::newRow("scroll, then paint") << L{100, 103} << true << L{106} << L{10};
    QTest::newRow("on its way") << L{100} << false << L{102, 115} << L{1, 1};
    // A scroll whose paint never comes (a hidden view) holds nothing up past its period.
    QTest::newRow("never painted") << L{100} << false << L{116} << L{0};
}

void TestTimelineView::idleTimeIsWhatFramesLeave()
{
    QFETCH(QList<qint64>, begins);
    QFETCH(bool, painted);
    QFETCH(QList<qint64>, asks);
    QFETCH(QList<qint64>, delays);
    FrameBudget frames;
    if (!begins.isEmpty()) {
        // A long frame before, and idle work after it: the frame measured starts afresh.
        frames.beginFrame(0);
        frames.endFrame();
        (void)frames.idleDelay(40, 12);
        (void)frames.idleDelay(41, 12);
    }
    for (const qint64 begin : begins)
        frames.beginFrame(begin);
    if (painted)
        frames.endFrame();
    for (qsizetype i = 0; i < asks.size(); ++i)
        QCOMPARE(frames.idleDelay(asks.at(i), 12), delays.at(i));
}

void TestTimelineView::warmUpPaysAheadInPieces()
{
    // Rows of a script and a language nothing else in this test process lays out: Georgian
    // text, a Python block.
    QStandardItemModel rows;
    const auto addRow = [&](const QString &text) {
        auto *item = new QStandardItem;
        item->setData(QVariant::fromValue(QList<Part>{Part::makeText(u"prt_1"_s, m_session, u"msg_1"_s, text)}),
                      TimelineModel::PartsRole);
        rows.appendRow(item);
        return rows.index(rows.rowCount() - 1, 0);
    };
    const QModelIndex latin = addRow(u"Only **Latin** text, and `code`."_s);
    const QModelIndex georgian = addRow(u"ქართული ტექსტი\n\n```python\nprint('x')\n```\n"_s);
    const QModelIndex python = addRow(u"```Python\npass\n```"_s);
    TimelineDelegate *delegate = m_view->timelineDelegate();
    QElapsedTimer slice;
    slice.start();
    // Nothing to warm: true whatever the time left.
    QVERIFY(delegate->warmUp(latin, slice, 0));
    // No time left: nothing is done.
    QVERIFY(!delegate->warmUp(georgian, slice, 0));
    // Time enough: everything, and the row can be measured in the same slice.
    QVERIFY(delegate->warmUp(georgian, slice, 60000));
    // Warm now, for this row and every other row of that script and language.
    QVERIFY(delegate->warmUp(georgian, slice, 0));
    QVERIFY(delegate->warmUp(python, slice, 0));
}

void TestTimelineView::fenceLanguagesAsTheRendererSeesThem()
{
    // The first word of each opening fence's info string, ``` and ~~~ alike, each once; a fence
    // line inside another block, or indented four spaces (code, not a fence), is not one.
    const QString text = u"Intro\n\n```cpp title=main.cpp\nint x;\n~~~ruby\n```\n\n"
                         u"~~~~ Rust\nfn f() {}\n~~~~\n\n    ```go\n\n```cpp\n```\n```\n```"_s;
    QCOMPARE(Markdown::fenceLanguages(text), (QStringList{u"cpp"_s, u"Rust"_s}));
}

void TestTimelineView::writtenReplyKeepsItsPieces()
{
    // A reply being written is laid out in pieces. When it ends it keeps them rather than being
    // rendered again as one document, which stalled the window for 500 ms at the end of a
    // 230 KB reply. Its code blocks are numbered through the whole part either way.
    const QString user = idOf("msg", Messages);
    const QString reply = idOf("msg", Messages + 1);
    const QString partID = idOf("prt", Messages + 1);
    const QString text = u"First paragraph.\n\n```cpp\nint a;\n```\n\nSecond paragraph.\n\n```cpp\nint b;\n```\n\nLast."_s;
    const qint64 at = Start + Messages * 1000;
    QVERIFY(m_service->updateMessage(Message::makeUser(user, m_session, at, u"build"_s, u"fake"_s, u"m1"_s)));
    QVERIFY(m_service->updatePart(Part::makeText(idOf("prt", Messages), m_session, user, u"Two blocks?"_s)));
    Message assistant = Message::makeAssistant(reply, m_session, at + 500, user, u"fake"_s, u"m1"_s, u"build"_s,
                                               m_data->path(), m_data->path());
    QVERIFY(m_service->updateMessage(assistant));
    QVERIFY(m_service->updatePart(Part::makeText(partID, m_session, reply, text)));
    QAbstractItemModel *rows = m_view->model();
    QTRY_COMPARE(rows->index(rows->rowCount() - 1, 0).data(TimelineModel::IdRole).toString(), reply);
    const QModelIndex row = rows->index(rows->rowCount() - 1, 0);
    QTRY_COMPARE(row.data(TimelineModel::TextRole).toString(), text);
    QVERIFY(row.data(TimelineModel::RunningRole).toBool());

    TimelineDelegate *delegate = m_view->timelineDelegate();
    // A point below everything is the end of the last text block: the count of blocks, less one.
    const auto lastBlock = [&] { return delegate->textPointAt(row, QPoint(60, 100000)).block; };
    const auto codeOf = [&](int group) { return delegate->codeBlockText(row, partID, group); };
    QVERIFY(!Markdown::pieceStarts(text).isEmpty());
    const int pieces = lastBlock();
    QCOMPARE(pieces, Markdown::pieceStarts(text).size());
    QCOMPARE(codeOf(1), u"int a;"_s);
    QCOMPARE(codeOf(2), u"int b;"_s);
    QCOMPARE(codeOf(3), QString());

    // Written: the same pieces, the same numbers.
    assistant.setCompleted(at + 900);
    QVERIFY(m_service->updateMessage(assistant));
    QTRY_VERIFY(!row.data(TimelineModel::RunningRole).toBool());
    QCOMPARE(lastBlock(), pieces);
    QCOMPARE(codeOf(1), u"int a;"_s);
    QCOMPARE(codeOf(2), u"int b;"_s);

    // Laid out anew (the font changed, another session was shown): one document.
    delegate->clearCaches();
    QCOMPARE(lastBlock(), 0);
    QCOMPARE(codeOf(1), u"int a;"_s);
    QCOMPARE(codeOf(2), u"int b;"_s);
}

#include "tst_timelineview.moc"
