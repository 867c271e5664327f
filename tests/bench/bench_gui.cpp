// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks of Weft's real main window on a generated store (tests/bench/generate_store), on
// the platform QT_QPA_PLATFORM names (offscreen, or xcb under Xvfb). Each mode is one measurement
// in a fresh process and prints one JSON object; the runner (tests/bench/run-benchmarks.py)
// repeats it and takes the median.
//
//   bench_gui gui-open DATA SESSION [--all]   open to the first painted frame, RSS; --all also
//                                             scrolls to the top until every message is loaded
//   bench_gui gui-open-db OPENCODE_DATA SESSION WEFT_DATA
//                                             the same for a session of OpenCode's opencode.db in
//                                             OPENCODE_DATA, a source of the window on WEFT_DATA
//   bench_gui gui-open-server URL SESSION WEFT_DATA
//                                             the same for a session of `opencode serve` at URL
//                                             (password: OPENCODE_SERVER_PASSWORD)
//   bench_gui gui-scroll DATA SESSION         scroll from the top to the bottom, time every frame
//   bench_gui gui-idle DATA SESSION SECS      count timer events while the window sits idle
//   bench_gui gui-tabs DATA SESSION N         RSS with the session open in one tab, then in N
//                                             tabs (the others hidden); then switching tabs:
//                                             from the switch to the end of the frame that
//                                             painted the tab's timeline
//   bench_gui gui-type DATA SESSION [--stream] type into the composer: key press to the end of
//                                             the frame that painted it; --stream while a reply
//                                             streams into the open session (the real processor
//                                             against a loopback server paced like a model)

#include "bench_common.h"
#include "composer.h"
#include "fakellmserver.h"
#include "session/sessionstore.h"
#include "processor/processor.h"

#include "../gui/guitest.h"

#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"

#include "app/opencodesource.h"
#include "app/serversource.h"
#include "mainwindow.h"
#include "panearea.h"
#include "sessionpane.h"
#include "sourcespresenter.h"
#include "timelineview.h"

#include <QApplication>
#include <QKeyEvent>
#include <QPlainTextEdit>
#include <QMap>
#include <QSet>
#include <QScopeGuard>
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
    /// The end of the first frame after viewport painted (-1: none yet), for the tab switches.
    qint64 viewportFrameNs = -1;
    bool viewportPainted = false;
    std::function<bool()> rowsShown; ///< true once the session's rows are in the model
    qint64 firstFrameNs = -1;
    qint64 lastFrameEndNs = -1; ///< when the last frame was flushed
    bool paintedRows = false;
    QList<double> frames;
    QList<double> paints;
    bool countTimers = false;
    QObject *ignoreTimer = nullptr;
    QMap<QString, qint64> timers;

    /// While set, how long the GUI thread took for each event it dispatched from the event loop
    /// (sent events inside it count towards it): the longest is the longest stall.
    bool timeEvents = false;
    QList<double> events;

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (!timeEvents || m_depth > 0) {
            ++m_depth;
            const bool result = dispatch(receiver, event);
            --m_depth;
            return result;
        }
        ++m_depth;
        const qint64 start = s_clock.nsecsElapsed();
        const bool result = dispatch(receiver, event);
        events.append(msSince(start));
        --m_depth;
        return result;
    }

private:
    int m_depth = 0;

    bool dispatch(QObject *receiver, QEvent *event)
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
            lastFrameEndNs = s_clock.nsecsElapsed();
            if (viewportPainted && viewportFrameNs < 0)
                viewportFrameNs = lastFrameEndNs;
            if (paintedRows && firstFrameNs < 0)
                firstFrameNs = s_clock.nsecsElapsed();
            return result;
        }
        if (type == QEvent::Paint && receiver == viewport) {
            const qint64 start = s_clock.nsecsElapsed();
            const bool result = QApplication::notify(receiver, event);
            paints.append(msSince(start));
            viewportPainted = true;
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
    qint64 heapAtOpen = 0;
    qint64 loadedNs = -1; ///< the timeline's first page was in
};

/// Builds the main window on @p dataDir and shows it, timing the opening of @p sessionID: when
/// the timeline starts to load it (unless the caller set openNs already), when its first page
/// is in, and (BenchApplication) the first frame that paints its rows.
std::unique_ptr<Window> showWindow(BenchApplication &app, const QString &dataDir, const QString &sessionID)
{
    auto w = std::make_unique<Window>();
    w->service = openService(dataDir);
    if (!w->service)
        return {};
    w->window = std::make_unique<MainWindow>(test::makeController(w->service, dataDir));
    MainWindow *window = w->window.get();
    TimelineModel *timeline = window->timelineModel();
    Window *raw = w.get();
    QObject::connect(timeline, &QAbstractItemModel::modelAboutToBeReset, window, [raw, timeline, sessionID] {
        if (raw->openNs < 0 && timeline->sessionID() != sessionID) {
            raw->openNs = s_clock.nsecsElapsed();
            raw->rssAtOpen = rssKiB();
            raw->heapAtOpen = heapKiB();
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
    return w;
}

/// Waits for the first frame that shows rows of @p sessionID in @p w.
bool waitForFirstFrame(BenchApplication &app, const Window &w, const QString &sessionID)
{
    MainWindow *window = w.window.get();
    if (!waitFor([&] { return app.firstFrameNs >= 0; }, 120000)) {
        std::fprintf(stderr, "no frame with the session's rows within 120 s (current: %s)\n",
                     qPrintable(window->currentSessionID()));
        return false;
    }
    if (window->currentSessionID() != sessionID) {
        std::fprintf(stderr, "the window opened %s, not %s\n", qPrintable(window->currentSessionID()), qPrintable(sessionID));
        return false;
    }
    return true;
}

/// Builds the main window on @p dataDir, shows it, and waits for the first frame that shows
/// rows of @p sessionID (MainWindow opens the newest root session by itself).
std::unique_ptr<Window> openWindow(BenchApplication &app, const QString &dataDir, const QString &sessionID)
{
    std::unique_ptr<Window> w = showWindow(app, dataDir, sessionID);
    if (!w || !waitForFirstFrame(app, *w, sessionID))
        return {};
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
        // Not canLoadOlder(): it is false also while the page the view asked for is loading.
        if (timeline->rowCount() >= timeline->totalMessageCount() && bar->value() == 0)
            break;
        const int rows = timeline->rowCount();
        if (timeline->canLoadOlder())
            timeline->loadOlder();
        // The next page loads on a worker thread; wait for it.
        waitFor([&] { return timeline->rowCount() != rows || timeline->rowCount() >= timeline->totalMessageCount(); }, 10000);
    }
    return steps;
}

/// Prints what guiOpen() measured of the session open in @p w; @p all also scrolls to the top
/// until every message is loaded.
void printOpen(BenchApplication &app, const Window &w, qint64 rssStart, bool all)
{
    MainWindow *window = w.window.get();
    TimelineView *view = window->timelineView();
    QScrollBar *bar = view->verticalScrollBar();
    const int rows = window->timelineModel()->rowCount();
    const QModelIndex last = view->model()->index(rows - 1, 0);
    const bool newestVisible = view->viewport()->rect().intersects(view->visualRect(last));
    const qint64 rssFirstFrame = rssKiB();
    JsonObject out{{u"ms"_s, double(app.firstFrameNs - w.openNs) / 1e6},
                   {u"startup_ms"_s, double(app.firstFrameNs) / 1e6},
                   {u"load_ms"_s, double(w.loadedNs - w.openNs) / 1e6},
                   {u"rows"_s, qint64(rows)},
                   {u"total_messages"_s, qint64(window->timelineModel()->totalMessageCount())},
                   {u"newest_visible"_s, newestVisible},
                   {u"at_bottom"_s, bar->value() >= bar->maximum() - 2},
                   {u"rss_start_kib"_s, rssStart},
                   {u"rss_open_kib"_s, w.rssAtOpen},
                   {u"rss_first_frame_kib"_s, rssFirstFrame},
                   {u"heap_open_kib"_s, w.heapAtOpen},
                   {u"heap_first_frame_kib"_s, heapKiB()}};
    if (all) {
        const qint64 start = s_clock.nsecsElapsed();
        const QList<double> steps = scrollToTop(window);
        out.insert(u"load_all_ms"_s, msSince(start));
        out.insert(u"rows_all"_s, qint64(window->timelineModel()->rowCount()));
        out.insert(u"rss_all_kib"_s, rssKiB());
        out.insert(u"heap_all_kib"_s, heapKiB());
        out.insert(u"fetch_frames"_s, frameStats(steps));
    }
    printJson(out);
}

int guiOpen(BenchApplication &app, const QString &dataDir, const QString &sessionID, bool all)
{
    const qint64 rssStart = rssKiB();
    std::unique_ptr<Window> w = openWindow(app, dataDir, sessionID);
    if (!w)
        return 1;
    printOpen(app, *w, rssStart, all);
    return 0;
}

/// Opens @p sessionID of another source than Weft's own store, as the sidebar does: OpenCode's
/// database in folder @p address (gui-open-db), or the OpenCode server at URL @p address
/// (gui-open-server; its password in OPENCODE_SERVER_PASSWORD, as for `weft --server`). The
/// window runs on Weft's store in @p weftData (an empty one: beside it is the search index,
/// which indexes the source as it opens unless an earlier run did); the time is from
/// openSession() to the first frame with the session's rows, once the source has listed its
/// sessions.
int guiOpenSource(BenchApplication &app, bool server, const QString &address, const QString &sessionID,
                  const QString &weftData)
{
    const qint64 rssStart = rssKiB();
    std::unique_ptr<Window> w = showWindow(app, weftData, sessionID);
    if (!w)
        return 1;
    MainWindow *window = w->window.get();
    QString key;
    SessionsModel *sessions = nullptr;
    if (server) {
        const QString password = qEnvironmentVariable("OPENCODE_SERVER_PASSWORD");
        ServerSource *source = window->sources()->connectServer(address, password, false);
        if (!source || !waitFor([source] { return source->isReady(); }, 60000)) {
            std::fprintf(stderr, "could not connect to %s\n", qPrintable(address));
            return 1;
        }
        key = source->key();
        sessions = source->sessions();
    } else {
        OpencodeSource *source = window->opencodeSource();
        if (!window->sources()->setOpencodeShown(true, address) || !waitFor([source] { return source->isReady(); }, 60000)) {
            std::fprintf(stderr, "could not open OpenCode's database in %s\n", qPrintable(address));
            return 1;
        }
        key = source->key();
        sessions = source->sessions();
    }
    if (!waitFor([sessions] { return sessions->isLoaded(); }, 60000)) {
        std::fprintf(stderr, "the source listed no sessions within 60 s\n");
        return 1;
    }
    w->openNs = s_clock.nsecsElapsed();
    w->rssAtOpen = rssKiB();
    if (!window->openSession(sessionID, key)) {
        std::fprintf(stderr, "the window could not open %s of %s\n", qPrintable(sessionID), qPrintable(key));
        return 1;
    }
    if (!waitForFirstFrame(app, *w, sessionID))
        return 1;
    printOpen(app, *w, rssStart, false);
    // Quit as the application does (aboutToQuit gives up the reads still running: a server
    // session's older messages).
    QTimer::singleShot(0, &app, &QCoreApplication::quit);
    app.exec();
    return 0;
}

int guiScroll(BenchApplication &app, const QString &dataDir, const QString &sessionID)
{
    std::unique_ptr<Window> w = openWindow(app, dataDir, sessionID);
    if (!w)
        return 1;
    MainWindow *window = w->window.get();
    QScrollBar *bar = window->timelineView()->verticalScrollBar();
    const qint64 upStart = s_clock.nsecsElapsed();
    // Every event on the way up is timed too: a page comes in (and is laid out) in an event
    // of its own, between the steps.
    app.events.clear();
    app.timeEvents = true;
    const QList<double> upSteps = scrollToTop(window);
    app.timeEvents = false;
    const QList<double> upEvents = app.events;
    const double loadAllMs = msSince(upStart);
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
               {u"fetch_steps"_s, frameStats(upSteps)},
               {u"fetch_events"_s, frameStats(upEvents)},
               {u"load_all_ms"_s, loadAllMs}});
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

/// A reply streamed into @p sessionID by the real processor from a loopback server paced like a
/// model (some 12,500 deltas/s in TCP writes every 2 ms), long enough to outlast the typing.
/// The server runs in a thread of its own, as a provider is another machine.
struct Stream
{
    test::FakeLlmServerThread server;
    std::unique_ptr<Processor> processor;
    qint64 deltas = 0;

    bool start(const std::shared_ptr<SessionService> &service, const QString &dataDir, const QString &sessionID,
               const QString &directory)
    {
        // Written like a model writes: paragraphs of some 60 words, a code block every fifth.
        test::OpenAiStream stream;
        stream.role();
        for (int i = 0; i < 60000; ++i) {
            if (i % 300 == 240)
                stream.text(u"\n\n```cpp\n"_s);
            if (i % 300 > 240)
                stream.text(u"int value%1 = %2;\n"_s.arg(i % 100).arg(i));
            else
                stream.text(u"word%1 "_s.arg(i % 100));
            if (i % 60 == 59)
                stream.text(i % 300 > 240 ? u"```\n\n"_s : u"\n\n"_s);
        }
        stream.finish(u"stop"_s).usage(1000, 60000).done();
        test::FakeReply reply = test::FakeReply::sse(stream.bytes());
        reply.chunked(stream.bytes().size() / (60000 / 25), 2);
        const QUrl base = server.start(reply);
        if (base.isEmpty())
            return false;
        ProcessorConfig config;
        config.dataDir = dataDir;
        config.generateTitles = false;
        config.snapshots = ProcessorConfig::Snapshots::Never;
        // The benchmark store stays as it is: no pruning of its tool outputs, no compaction.
        config.compaction = JsonObject{{u"auto"_s, false}, {u"prune"_s, false}};
        config.resolveModel = [base](const QString &) -> Result<ResolvedModel> {
            ResolvedModel m;
            m.providerID = u"fake"_s;
            m.modelID = u"gpt-test"_s;
            m.settings.providerID = u"fake"_s;
            m.settings.baseURL = base;
            return m;
        };
        processor = std::make_unique<Processor>(service, config);
        QObject::connect(service.get(), &SessionService::partUpdated, processor.get(),
                         [this](const Part &part, const QString &delta) {
                             if (part.type() == PartType::Text && !delta.isEmpty())
                                 ++deltas;
                         });
        PromptRequest request;
        request.sessionID = sessionID;
        request.directory = directory;
        request.text = u"stream"_s;
        return bool(processor->prompt(request));
    }
};

int guiType(BenchApplication &app, const QString &dataDir, const QString &sessionID, bool streaming)
{
    std::unique_ptr<Window> w = openWindow(app, dataDir, sessionID);
    if (!w)
        return 1;
    MainWindow *window = w->window.get();
    Stream stream;
    QSet<QString> before; // the session's messages: what the stream adds is removed at the end
    // However the run ends once the stream started, the benchmark store is left as it was: a
    // failed run that kept its reply (229 KB of text) made every later run on L paint it.
    const auto restore = qScopeGuard([&] {
        if (!stream.processor)
            return;
        stream.processor->abort(sessionID);
        waitFor([&] { return !stream.processor->isBusy(sessionID); }, 20000);
        for (const Message &m : storeOf(*w->service)->messages(sessionID)) {
            if (!before.contains(m.id()))
                (void)w->service->removeMessage(sessionID, m.id());
        }
    });
    if (streaming) {
        for (const Message &m : storeOf(*w->service)->messages(sessionID))
            before.insert(m.id());
        const auto session = w->service->get(sessionID);
        if (!session || !stream.start(w->service, dataDir, sessionID, session->directory())) {
            std::fprintf(stderr, "the stream did not start\n");
            return 1;
        }
        // Typing starts once the reply streams into the window.
        if (!waitFor([&] { return stream.deltas > 200; }, 20000)) {
            std::fprintf(stderr, "no deltas arrived\n");
            return 1;
        }
    } else {
        waitFor([] { return false; }, 500); // let the opening settle
    }
    QPlainTextEdit *editor = window->composer()->editor();
    window->activateWindow();
    editor->setFocus();
    // A user clicks into the composer before typing: that frame (the sidebar repaints when it
    // loses focus, some 3 ms) is the click's, not the first key's.
    const qint64 focused = s_clock.nsecsElapsed();
    waitFor([&] { return app.lastFrameEndNs > focused; }, 1000);
    waitFor([] { return false; }, 50);
    const QString text = u"the quick brown fox jumps over the lazy dog "_s;
    const int keys = 300;
    QList<double> latencies;
    for (int i = 0; i < keys; ++i) {
        const QString c = text.mid(i % text.size(), 1);
        const qint64 start = s_clock.nsecsElapsed();
        QKeyEvent press(QEvent::KeyPress, c == u" " ? Qt::Key_Space : Qt::Key_A, Qt::NoModifier, c);
        QCoreApplication::sendEvent(editor, &press);
        QKeyEvent release(QEvent::KeyRelease, c == u" " ? Qt::Key_Space : Qt::Key_A, Qt::NoModifier, c);
        QCoreApplication::sendEvent(editor, &release);
        // The frame that paints the character: the first one flushed after the press.
        if (!waitFor([&] { return app.lastFrameEndNs > start; }, 5000)) {
            std::fprintf(stderr, "no frame after key %d\n", i);
            return 1;
        }
        latencies.append(double(app.lastFrameEndNs - start) / 1e6);
        // Keys a few frames apart, as a fast typist's are (some 15 a second would be 66 ms).
        waitFor([] { return false; }, 8);
    }
    if (editor->toPlainText().size() != keys) {
        std::fprintf(stderr, "typed %d characters, the composer holds %lld\n", keys,
                     qint64(editor->toPlainText().size()));
        return 1;
    }
    printJson({{u"keys"_s, qint64(keys)},
               {u"rows"_s, qint64(window->timelineModel()->rowCount())},
               {u"streaming"_s, streaming},
               {u"deltas_during"_s, stream.deltas},
               {u"latency"_s, frameStats(latencies)}});
    return 0;
}

/// Waits until the viewport watchPaint() named paints and the frame with it ends; the time from
/// @p start, in ms.
std::optional<double> untilPainted(BenchApplication &app, qint64 start)
{
    if (!waitFor([&] { return app.viewportFrameNs >= 0; }, 60000))
        return std::nullopt;
    return double(app.viewportFrameNs - start) / 1e6;
}

/// Resets what untilPainted() waits for, to @p viewport's next paint.
void watchPaint(BenchApplication &app, QWidget *viewport)
{
    app.viewport = viewport;
    app.viewportPainted = false;
    app.viewportFrameNs = -1;
}

/// Issue 36: ten timelines of an L-sized session open in tabs cost what one does plus what the
/// hidden ones keep (their rows, not their laid-out text); switching to a tab paints it within
/// a frame. The same session in every tab: each tab has its own timeline model and rows.
int guiTabs(BenchApplication &app, const QString &dataDir, const QString &sessionID, int tabs)
{
    std::unique_ptr<Window> w = openWindow(app, dataDir, sessionID);
    if (!w)
        return 1;
    MainWindow *window = w->window.get();
    PaneArea *area = window->paneArea();
    // What one tab holds once its first page is in and painted, the idle work after it done.
    const auto settleDown = [] {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 1500)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    };
    settleDown();
    const qint64 rssOne = rssKiB();
    const qint64 heapOne = heapKiB();
    QList<double> opens;
    for (int i = 1; i < tabs; ++i) {
        const qint64 start = s_clock.nsecsElapsed();
        if (!window->openSessionInNewTab(sessionID)) {
            std::fprintf(stderr, "could not open tab %d\n", i + 1);
            return 1;
        }
        SessionPane *pane = area->currentPane();
        watchPaint(app, pane->timelineView()->viewport());
        if (!waitFor([pane] { return !pane->timelineModel()->isLoading() && pane->timelineModel()->rowCount() > 0; },
                     60000)) {
            std::fprintf(stderr, "tab %d did not load\n", i + 1);
            return 1;
        }
        app.viewportPainted = false;
        app.viewportFrameNs = -1;
        if (!untilPainted(app, start))
            return 1;
        opens.append(msSince(start));
    }
    settleDown();
    const qint64 rssAll = rssKiB();
    const qint64 heapAll = heapKiB();

    // Switching: to each tab in turn, several rounds, the time to its painted frame.
    const QList<SessionPane *> panes = area->panes();
    QList<double> switches;
    QList<double> calls;
    QList<double> paintsOf;
    for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < panes.size(); ++i) {
            SessionPane *pane = panes.at((i + 1) % panes.size());
            if (pane == area->currentPane())
                continue;
            // Between switches the window is idle, as between a user's key presses.
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            watchPaint(app, pane->timelineView()->viewport());
            const qint64 start = s_clock.nsecsElapsed();
            area->setCurrentPane(pane);
            calls.append(msSince(start));
            const qsizetype before = app.frames.size();
            const std::optional<double> ms = untilPainted(app, start);
            if (app.frames.size() > before)
                paintsOf.append(app.frames.last());
            if (!ms) {
                std::fprintf(stderr, "a switched-to tab never painted\n");
                return 1;
            }
            switches.append(*ms);
        }
    }
    printJson({{u"tabs"_s, qint64(tabs)},
               // The first tab's first frame, as gui-open measures it: how busy the machine was.
               {u"first_frame_ms"_s, double(app.firstFrameNs - w->openNs) / 1e6},
               {u"rows_per_tab"_s, qint64(window->timelineModel()->rowCount())},
               {u"rss_one_kib"_s, rssOne},
               {u"rss_all_kib"_s, rssAll},
               {u"heap_one_kib"_s, heapOne},
               {u"heap_all_kib"_s, heapAll},
               {u"open_tab"_s, frameStats(opens)},
               {u"switch"_s, frameStats(switches)},
               // Of a switch: the call (the tab shown, the window following it), and its frame.
               {u"switch_call"_s, frameStats(calls)},
               {u"switch_frame"_s, frameStats(paintsOf)}});
    return 0;
}

int usage()
{
    std::fprintf(stderr, "usage: bench_gui gui-open|gui-open-db|gui-open-server|gui-scroll|gui-idle|gui-type|gui-tabs DATA SESSION [...]\n");
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
    if (mode == "gui-open-db" || mode == "gui-open-server")
        return argc > 4 ? guiOpenSource(app, mode == "gui-open-server", dataDir, sessionID,
                                        QString::fromLocal8Bit(argv[4]))
                        : usage();
    if (mode == "gui-scroll")
        return guiScroll(app, dataDir, sessionID);
    if (mode == "gui-type")
        return guiType(app, dataDir, sessionID, argc > 4 && QByteArray(argv[4]) == "--stream");
    if (mode == "gui-idle")
        return guiIdle(app, dataDir, sessionID, argc > 4 ? QByteArray(argv[4]).toInt() : 10);
    if (mode == "gui-tabs")
        return guiTabs(app, dataDir, sessionID, argc > 4 ? std::max(2, QByteArray(argv[4]).toInt()) : 10);
    return usage();
}
