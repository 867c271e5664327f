// SPDX-License-Identifier: GPL-3.0-or-later
// weft-window: the window, started by `weft` without a command (app/main.cpp).
#include "cli.h"

#include "app/sessioncontroller.h"
#include "appearance.h"
#include "core/logging.h"
#include "i18n.h"
#include "mainwindow.h"
#include "opencodedb/opencodedatadir.h"
#include "processor/setup.h"
#include "session/datadir.h"
#include "session/sampledata.h"
#include "session/sessionservice.h"
#include "startupgate.h"
#include "store/sessionlock.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "timelineview.h"

#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace
{

/// CLOCK_BOOTTIME in ns: the clock of /proc/self/stat's start time, shared with the process that
/// started this one (also across the build root's namespaces).
qint64 bootNs()
{
    timespec ts{};
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// WEFT_STARTUP_PROBE=1 (the benchmark runner's gui-start-* figures): the moments of the start,
/// then, once a frame has painted the focused timeline with its session's rows, one JSON line on
/// stderr (CLOCK_BOOTTIME ns of each moment, this process's start, RSS) and the window quits.
/// Unset, it records nothing and watches no event.
class StartupProbe : public QObject
{
public:
    static StartupProbe *instance()
    {
        static StartupProbe *probe = qEnvironmentVariableIsSet("WEFT_STARTUP_PROBE") ? new StartupProbe : nullptr;
        return probe;
    }
    /// Records the moment @p name (when the probe is on).
    static void mark(const char *name)
    {
        if (StartupProbe *probe = instance())
            probe->m_marks.emplace_back(name, bootNs());
    }
    /// Watches @p window's frames for the first that shows a session's rows.
    void watch(weft::MainWindow *window)
    {
        m_window = window;
        qApp->installEventFilter(this);
        // The steps between: the sidebar's list in, the first page of the session it opens in.
        connect(window->sessionsModel(), &weft::SessionsModel::loaded, this, [] { mark("sessions_loaded"); },
                Qt::SingleShotConnection);
        connect(window->timelineModel(), &weft::TimelineModel::loaded, this, [] { mark("timeline_loaded"); },
                Qt::SingleShotConnection);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Paint || m_painted || !m_window || !m_window->currentPane())
            return false;
        const weft::TimelineModel *timeline = m_window->timelineModel();
        if (watched != m_window->timelineView()->viewport() || timeline->sessionID().isEmpty() || timeline->isLoading()
            || timeline->rowCount() == 0)
            return false;
        m_painted = true;
        // After this paint the frame is flushed; the next turn of the event loop is after it.
        QTimer::singleShot(0, this, [this, session = timeline->sessionID(), rows = timeline->rowCount()] {
            report(session, rows);
        });
        return false;
    }

private:
    void report(const QString &session, int rows)
    {
        mark("first_paint");
        qApp->removeEventFilter(this);
        std::stable_sort(m_marks.begin(), m_marks.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
        std::string json = "{\"session\": \"" + session.toStdString() + "\", \"rows\": " + std::to_string(rows)
            + ", \"rss_kib\": " + std::to_string(rssKiB()) + ", \"process_start_ns\": " + std::to_string(processStartNs())
            + ", \"marks\": {";
        for (size_t i = 0; i < m_marks.size(); ++i)
            json += (i ? ", \"" : "\"") + std::string(m_marks[i].first) + "\": " + std::to_string(m_marks[i].second);
        json += "}}\n";
        std::fputs(json.c_str(), stderr);
        std::fflush(stderr);
        QCoreApplication::quit();
    }
    /// This process's start (/proc/self/stat, in clock ticks since boot) in CLOCK_BOOTTIME ns.
    static qint64 processStartNs()
    {
        std::ifstream stat("/proc/self/stat");
        std::string line;
        std::getline(stat, line);
        // The fields after the command (which may hold spaces) in parentheses; starttime is the 22nd.
        std::string rest = line.substr(line.rfind(')') + 2);
        size_t at = 0;
        for (int field = 3; field < 22; ++field)
            at = rest.find(' ', at) + 1;
        return qint64(std::strtoll(rest.c_str() + at, nullptr, 10)) * (1000000000 / sysconf(_SC_CLK_TCK));
    }
    static long long rssKiB()
    {
        std::ifstream status("/proc/self/status");
        for (std::string line; std::getline(status, line);) {
            if (line.rfind("VmRSS:", 0) == 0)
                return std::strtoll(line.c_str() + 6, nullptr, 10);
        }
        return -1;
    }

    weft::MainWindow *m_window = nullptr;
    bool m_painted = false;
    std::vector<std::pair<const char *, qint64>> m_marks;
};

} // namespace

int main(int argc, char **argv)
{
    StartupProbe::mark("main");
    const weft::Cli::GlobalOptions options = weft::Cli::parseGlobal(argc, argv);

    // Started by hand with a command, it runs the command as `weft` does.
    if (weft::Cli::isCommand(options))
        return weft::Cli::runProcess(argc, argv, options);

    QApplication app(argc, argv);
    StartupProbe::mark("qapplication");
    weft::SessionLock::setProcessCommand(u"the Weft window"_s);
    weft::Cli::setApplicationIdentity();
    // Weft's and Qt's translations for the system's languages (the command line stays English).
    weft::I18n::installTranslations(app, QLocale::system());
    QApplication::setApplicationDisplayName(u"Weft"_s);
    // The reverse-DNS ID of packaging/dev.weft.Weft.desktop, its metainfo and its icon.
    QApplication::setDesktopFileName(weft::Appearance::applicationId());
    QApplication::setWindowIcon(weft::Appearance::applicationIcon());
    StartupProbe::mark("translations_icon");

    const QString path = options.dataDir.isEmpty() ? weft::DataDir::defaultPath() : options.dataDir;
    weft::Result<weft::DataDir::Opened> opened = weft::OpencodeDataDir::open(path, true);
    if (!opened) {
        QMessageBox::critical(nullptr, QObject::tr("Weft"),
                              QObject::tr("Weft cannot open its data folder:\n%1").arg(opened.error().toString()));
        return 1;
    }
    weft::Logging::start(opened->path);
    StartupProbe::mark("data_dir");
    auto service = std::make_shared<weft::SessionService>(opened->store);
    if (opened->created && options.dataDir.isEmpty()) {
        // First start of Weft's own data dir: sample sessions so that a new user sees something real.
        const auto samples = weft::SampleData::create(*service, QDir::homePath());
        if (!samples)
            qCWarning(lcSession) << "could not write the sample sessions:" << samples.error().toString();
    }
    // The config of the agent loop, as `weft run` reads it: --config FILE, else
    // $XDG_CONFIG_HOME/weft/weft.json. A broken config is reported; the window still opens.
    weft::Result<weft::ProcessorSetup> setup = weft::loadProcessorSetup(options.configFile, opened->path);
    if (!setup) {
        QMessageBox::warning(nullptr, QObject::tr("Weft"),
                             QObject::tr("Weft cannot use its configuration, so prompts cannot be sent until it is "
                                         "fixed:\n%1")
                                 .arg(setup.error().toString()));
        setup = weft::makeProcessorSetup(weft::Config(), opened->path);
    }
    StartupProbe::mark("config");
    // The composition root: the controller over the service and the processor, given to the window.
    weft::MainWindow window(std::make_unique<weft::SessionController>(service, opened->path, std::move(setup).value()));
    // `weft --session ID`: its first page is read while the sidebar's list is (MainWindow).
    if (!options.session.isEmpty())
        window.openAtStart(options.session);
    // Sessions deleted more than 30 days ago leave the trash for good, off the GUI thread (an
    // old entry may hold thousands of files), once the first frame is painted.
    weft::StartupGate::run(window.startupGate(), &window,
                           [service] { QThreadPool::globalInstance()->start([service] { service->purgeTrash(); }); });
    StartupProbe::mark("main_window");
    // Colours and the timeline font chosen in the settings dialog.
    weft::Appearance::apply(weft::Appearance::Settings::load());
    StartupProbe::mark("appearance");
    window.show();
    StartupProbe::mark("shown");
    if (StartupProbe *probe = StartupProbe::instance())
        probe->watch(&window);
    return app.exec();
}
