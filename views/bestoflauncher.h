// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QAction;

namespace weft
{

class BestOfDialog;
class BestOfView;
class MainWindow;

/// Session › Run on Several Models…: enabled for a session of Weft's own store in a git
/// repository (asked off the GUI thread when the session changes; the tool tip says why not),
/// it asks with a BestOfDialog (the composer's prompt, agent and model; the test command last
/// used in that repository) and shows the group it starts in a BestOfView.
class BestOfLauncher : public QObject
{
    Q_OBJECT

public:
    /// Takes @p window's "runOnSeveralModels" action.
    explicit BestOfLauncher(MainWindow *window);

    [[nodiscard]] QAction *action() const { return m_action; }
    /// The dialog while it is open.
    [[nodiscard]] BestOfDialog *dialog() const;
    /// The groups' windows, oldest first.
    [[nodiscard]] QList<BestOfView *> views() const;

    /// The test command last used in the repository whose main checkout is @p repository.
    [[nodiscard]] static QString savedTestCommand(const QString &repository);

private:
    void update();
    void open();
    void start();

    MainWindow *m_window;
    QAction *m_action;
    QPointer<BestOfDialog> m_dialog;
    QList<QPointer<BestOfView>> m_views;
    /// The open session's repository (its main checkout), empty when it is in none.
    QString m_repository;
    QString m_directory;
    QString m_projectID;
    int m_generation = 0;
};

} // namespace weft
