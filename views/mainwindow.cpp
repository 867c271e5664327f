// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "session/sessionservice.h"

#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace weft
{

MainWindow::MainWindow(std::shared_ptr<SessionService> service, const QString &dataDir, QWidget *parent)
    : QMainWindow(parent)
    , m_service(std::move(service))
    , m_dataDir(dataDir)
{
    auto *list = new QListWidget(this);
    for (const Session &s : m_service->list())
        list->addItem(s.title());
    setCentralWidget(list);
    statusBar()->showMessage(dataDir);
    resize(1200, 800);
}

MainWindow::~MainWindow() = default;

} // namespace weft
