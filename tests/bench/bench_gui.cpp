// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks of Weft's real main window on a generated store (tests/bench/generate_store), on
// the platform QT_QPA_PLATFORM names (offscreen, or xcb under Xvfb). Each mode is one measurement
// in a fresh process and prints one JSON object; the runner (tests/bench/run-benchmarks.py)
// repeats it and takes the median.
//
//   bench_gui gui-open DATA SESSION [--all]   open to the first painted frame, RSS; --all also
//                                             scrolls to the top until every message is loaded
//   bench_gui gui-scroll DATA SESSION         scroll from the top to the bottom, time every frame
//   bench_gui gui-idle DATA SESSION SECS      count timer events while the window sits idle

#include "bench_common.h"

#include "../gui/guitest.h"

#include "qt/timelinemodel.h"

#include "mainwindow.h"
#include "timelineview.h"

#include <QApplication>
#include <QMap>
#include <QScrollBar>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::bench;

namespace
{

/// Times every frame (an UpdateRequest of a window: paint of the dirty widgets and flush), the
/// timeline viewport's paints, and counts timer events by receiver.
class BenchApplication : public QApplication
{
public:
    using QApplication::QApplication;

    QWidget *viewport = nullptr;
    std::function<bool()> rowsShown; ///< true once the session's rows are in the model
    qint64 firstFrameNs = -1;
    bool paintedRows = false;
    QList<double> frames;
    QList<double> paints;
    bool countTimers = false;
    QObject *ignoreTimer = nullptr;
    QMap<QString, qint64> timers;

    bool notify(QObject *receiver, QEvent *event) override
    {
        const QEvent::Type type = event->type();
        if (type == QEvent::Timer && countTimers && receiver != ignoreTimer) {
            QString name = QString::fromLatin1(receiver->metaObject()->className());
            if (!receiver->objectName().isEmpty())
                name += u'#' + receiver->objectName();
            if (receiver->parent())
                name += u" in "_s + QString::fromLatin1(receiver->parent()->metaObject()->className());
            ++timers[name];
        }
        if (type == QEvent::UpdateRequest) {
            const qint64 start = s_clock.nsecsElapsed();
            const bool result = QApplication::notify(receiver, event);
            frames.append(msSince(start));
            if (paintedRows && firstFrameNs < 0)
                firstFrameNs = s_clock.nsecsElapsed();
            return result;
        }
        if (type == QEvent::Paint && receiver == viewport) {
            const qint64 start = s_clock.nsecsElapsed();
            const bool result = QApplication::notify(receiver, event);
            paints.append(msSince(start));
            if (rowsShown && rowsShown())
                paintedRows = true;
            return result;
        }
        return QApplication::notify(receiver, event);
    }
};

struct Window {
    std::shared_ptr<SessionService> service;
    std::unique_ptr<MainWindow> window;
    qint64 openNs = -1;  ///< the timeline started to load the session (its model reset)
    qint64 rssAtOpen = 0;
    qint64 loadedNs = -1; ///< the timeline's first page was in
};

/// Builds the main window on @p dataDir, shows it, and waits for the first frame that shows
/// rows of @p sessionID (MainWindow opens the newest root session by itself).
std::unique_ptr<Window> openWindow(BenchApplication &app, const QString &dataDir, const QString &sessionID)
{
    auto w = std::make_unique<Window>();
    w->service = openService(dataDir);
    if (!w->service)
        return {};
    w->window = std::make_unique<MainWindow>(w->service, dataDir);
    MainWindow *window = w->window.get();
    TimelineModel *timeline = window->timelineModel();
    Window *raw = w.get();
    QObject::connect(timeline, &QAbstractItemModel::modelAboutToBeReset, window, [raw, timeline, sessionID] {
        if (raw->openNs < 0 && timeline->sessionID() != sessionID) {
            raw->openNs = s_clock.nsecsElapsed();
            raw->rssAtOpen = rssKiB();
        }
    });
    QObject::connect(timeline, &TimelineModel::loaded, window, [raw, timeline, sessionID] {
        if (raw->loadedNs < 0 && timeline->sessionID() == sessionID)
            raw->loadedNs = s_clock.nsecsElapsed();
    });
    app.viewport = window->timelineView()->viewport();
    app.rowsShown = [raw, timeline] { return raw->loadedNs >= 0 && timeline->rowCount() > 0; };
    window->resize(1280, 800);
    window->show();
    if (!waitFor([&] { return app.firstFrameNs >= 0; }, 120000)) {
        std::fprintf(stderr, "no frame with the session's rows within 120 s (current: %s)\n",
                     qPrintable(window->currentSessionID()));
        return {};
    }
    if (window->currentSessionID() != sessionID) {
        std::fprintf(stderr, "the window opened %s, not %s\n", qPrintable(window->currentSessionID()), qPrintable(sessionID));
        return {};
    }
    return w;
}

/// Scrolls up until every message is loaded. Returns the step times.
QList<double> scrollToTop(MainWindow *window)
{
    TimelineModel *timeline = window->timelineModel();
    QScrollBar *bar = window->timelineView()->verticalScrollBar();
    QList<double> steps;
    QElapsedTimer guard;
    guard.start();
    while (guard.elapsed() < 300000) {
        const qint64 start = s_clock.nsecsElapsed();
        bar->setValue(0);
        QCoreApplication::processEvents();
        steps.append(msSince(start));
        // Not canFetchMore(): it is false also while the page the view asked for is loading.
        if (timeline->rowCount() >= timeline->totalMessageCount() && bar->value() == 0)
            break;
        const int rows = timeline->rowCount();
        if (timeline->canFetchMore({}))
            timeline->fetchMore({});
        // The next page loads on a worker thread; wait for it.
        waitFor([&] { return timeline->rowCount() != rows || timeline->rowCount() >= timeline->totalMessageCount(); }, 10000);
    }
    return steps;
}

int guiOpen(BenchApplication &app, const QString &dataDir, const QString &sessionID, bool all)
{
    const qint64 rssStart = rssKiB();
    std::unique_ptr<Window> w = openWindow(app, dataDir, sessionID);
    if (!w)
        return 1;
    MainWindow *window = w->window.get();
    TimelineView *view = window->timelineView();
    QScrollBar *bar = view->verticalScrollBar();
    const int rows = window->timelineModel()->rowCount();
    const QModelIndex last = view->model()->index(rows - 1, 0);
    const bool newestVisible = view->viewport()->rect().intersects(view->visualRect(last));
    const qint64 rssFirstFrame = rssKiB();
    JsonObject out{{u"ms"_s, double(app.firstFrameNs - w->openNs) / 1e6},
                   {u"startup_ms"_s, double(app.firstFrameNs) / 1e6},
                   {u"load_ms"_s, double(w->loadedNs - w->openNs) / 1e6},
                   {u"rows"_s, qint64(rows)},
                   {u"total_messages"_s, qint64(window->timelineModel()->totalMessageCount())},
                   {u"newest_visible"_s, newestVisible},
                   {u"at_bottom"_s, bar->value() >= bar->maximum() - 2},
                   {u"rss_start_kib"_s, rssStart},
                   {u"rss_open_kib"_s, w->rssAtOpen},
                   {u"rss_first_frame_kib"_s, rssFirstFrame}};
    if (all) {
        const qint64 start = s_clock.nsecsElapsed();
        const QList<double> steps = scrollToTop(window);
        out.insert(u"load_all_ms"_s, msSince(start));
        out.insert(u"rows_all"_s, qint64(window->timelineModel()->rowCount()));
        out.insert(u"rss_all_kib"_s, rssKiB());
        out.insert(u"fetch_frames"_s, frameStats(steps));
    }
    printJson(out);
    return 0;
}

int guiScroll(BenchApplication &app, const QString &dataDir, const QString &sessionID)
{
    std::unique_ptr<Window> w = openWindow(app, dataDir, sessionID);
    if (!w)
        return 1;
    MainWindow *window = w->window.get();
    QScrollBar *bar = window->timelineView()->verticalScrollBar();
    const QList<double> upSteps = scrollToTop(window);
    // Let the layout settle, then scroll down a page at a time (all-new content in every frame),
    // then by wheel notches over the first part of the session.
    QCoreApplication::processEvents();
    QList<double> pageSteps, wheelSteps;
    app.frames.clear();
    app.paints.clear();
    bar->setValue(0);
    QCoreApplication::processEvents();
    const int page = qMax(1, bar->pageStep());
    while (bar->value() < bar->maximum()) {
        const qint64 start = s_clock.nsecsElapsed();
        bar->setValue(bar->value() + page);
        QCoreApplication::processEvents();
        pageSteps.append(msSince(start));
    }
    const QList<double> pageFrames = app.frames, pagePaints = app.paints;
    app.frames.clear();
    const int notch = 3 * bar->singleStep();
    bar->setValue(0);
    QCoreApplication::processEvents();
    for (int i = 0; i < 2000 && bar->value() < bar->maximum(); ++i) {
        const qint64 start = s_clock.nsecsElapsed();
        bar->setValue(bar->value() + notch);
        QCoreApplication::processEvents();
        wheelSteps.append(msSince(start));
    }
    printJson({{u"rows"_s, qint64(window->timelineModel()->rowCount())},
               {u"height_px"_s, qint64(bar->maximum() + bar->pageStep())},
               {u"page_px"_s, qint64(page)},
               {u"page_steps"_s, frameStats(pageSteps)},
               {u"page_frames"_s, frameStats(pageFrames)},
               {u"page_viewport_paints"_s, frameStats(pagePaints)},
               {u"wheel_px"_s, qint64(notch)},
               {u"wheel_steps"_s, frameStats(wheelSteps)},
               {u"fetch_steps"_s, frameStats(upSteps)}});
    return 0;
}

int guiIdle(BenchApplication &app, const QString &dataDir, const QString &sessionID, int seconds)
{
    std::unique_ptr<Window> w = openWindow(app, dataDir, sessionID);
    if (!w)
        return 1;
    // Let everything started by the opening settle (deferred loads, a last repaint).
    QTimer settle;
    settle.setSingleShot(true);
    QEventLoop loop;
    QObject::connect(&settle, &QTimer::timeout, &loop, &QEventLoop::quit);
    settle.start(1000);
    loop.exec();
    app.frames.clear();
    app.timers.clear();
    app.ignoreTimer = &settle;
    app.countTimers = true;
    // A marker for the strace log of the runner: the idle window starts now...
    (void)::access("/weft-bench-idle-start", F_OK);
    settle.start(seconds * 1000);
    loop.exec();
    (void)::access("/weft-bench-idle-end", F_OK);
    app.countTimers = false;
    JsonObject timers;
    qint64 total = 0;
    for (auto it = app.timers.cbegin(); it != app.timers.cend(); ++it) {
        timers.insert(it.key(), it.value());
        total += it.value();
    }
    printJson({{u"seconds"_s, seconds},
               {u"timer_events"_s, total},
               {u"timers"_s, timers},
               {u"frames"_s, qint64(app.frames.size())},
               {u"animating"_s, w->window->timelineView()->isAnimating()}});
    return 0;
}

int usage()
{
    std::fprintf(stderr, "usage: bench_gui gui-open|gui-scroll|gui-idle DATA SESSION [...]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    s_clock.start();
    if (argc < 4)
        return usage();
    const QByteArray mode = argv[1];
    BenchApplication app(argc, argv);
    QTemporaryDir settings;
    test::isolateSettings(settings);
    test::useStyle(test::lightPalette());
    const QString dataDir = QString::fromLocal8Bit(argv[2]);
    const QString sessionID = QString::fromLocal8Bit(argv[3]);
    if (mode == "gui-open")
        return guiOpen(app, dataDir, sessionID, argc > 4 && QByteArray(argv[4]) == "--all");
    if (mode == "gui-scroll")
        return guiScroll(app, dataDir, sessionID);
    if (mode == "gui-idle")
        return guiIdle(app, dataDir, sessionID, argc > 4 ? QByteArray(argv[4]).toInt() : 10);
    return usage();
}
