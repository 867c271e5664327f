// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

#include <memory>

namespace weft
{

class SessionService;

/// Weft's main window: session sidebar | timeline and composer | diff pane.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(std::shared_ptr<SessionService> service, const QString &dataDir, QWidget *parent = nullptr);
    ~MainWindow() override;

private:
    std::shared_ptr<SessionService> m_service;
    QString m_dataDir;
};

} // namespace weft
