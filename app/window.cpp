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
#include "store/sessionlock.h"

#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QThreadPool>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    const weft::Cli::GlobalOptions options = weft::Cli::parseGlobal(argc, argv);

    // Started by hand with a command, it runs the command as `weft` does.
    if (weft::Cli::isCommand(options))
        return weft::Cli::runProcess(argc, argv, options);

    QApplication app(argc, argv);
    weft::SessionLock::setProcessCommand(u"the Weft window"_s);
    weft::Cli::setApplicationIdentity();
    // Weft's and Qt's translations for the system's languages (the command line stays English).
    weft::I18n::installTranslations(app, QLocale::system());
    QApplication::setApplicationDisplayName(u"Weft"_s);
    // The reverse-DNS ID of packaging/dev.weft.Weft.desktop, its metainfo and its icon.
    QApplication::setDesktopFileName(weft::Appearance::applicationId());
    QApplication::setWindowIcon(weft::Appearance::applicationIcon());

    const QString path = options.dataDir.isEmpty() ? weft::DataDir::defaultPath() : options.dataDir;
    weft::Result<weft::DataDir::Opened> opened = weft::OpencodeDataDir::open(path, true);
    if (!opened) {
        QMessageBox::critical(nullptr, QObject::tr("Weft"),
                              QObject::tr("Weft cannot open its data folder:\n%1").arg(opened.error().toString()));
        return 1;
    }
    weft::Logging::start(opened->path);
    auto service = std::make_shared<weft::SessionService>(opened->store);
    // Sessions deleted more than 30 days ago leave the trash for good, off the GUI thread: an
    // old entry may hold thousands of files.
    QThreadPool::globalInstance()->start([service] { service->purgeTrash(); });
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
    // The composition root: the controller over the service and the processor, given to the window.
    weft::MainWindow window(std::make_unique<weft::SessionController>(service, opened->path, std::move(setup).value()));
    // Colours and the timeline font chosen in the settings dialog.
    weft::Appearance::apply(weft::Appearance::Settings::load());
    window.show();
    return app.exec();
}
