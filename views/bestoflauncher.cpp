// SPDX-License-Identifier: GPL-3.0-or-later
#include "bestoflauncher.h"

#include "bestofdialog.h"
#include "bestofview.h"
#include "boardview.h"
#include "composer.h"
#include "core/async.h"
#include "mainwindow.h"
#include "qt/sessionsmodel.h"
#include "session/sessionservice.h"

#include <QAction>
#include <QCryptographicHash>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString settingsKey(const QString &repository)
{
    return u"bestOf/testCommand-"_s
        + QString::fromLatin1(QCryptographicHash::hash(repository.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
}
} // namespace

BestOfLauncher::BestOfLauncher(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_action(window->action(u"runOnSeveralModels"_s))
{
    connect(m_window, &MainWindow::currentSessionChanged, this, &BestOfLauncher::update);
    connect(m_action, &QAction::triggered, this, &BestOfLauncher::open);
    update();
}

BestOfDialog *BestOfLauncher::dialog() const
{
    return m_dialog;
}

QList<BestOfView *> BestOfLauncher::views() const
{
    QList<BestOfView *> out;
    for (const QPointer<BestOfView> &view : m_views) {
        if (view)
            out.append(view);
    }
    return out;
}

QString BestOfLauncher::savedTestCommand(const QString &repository)
{
    return QSettings().value(settingsKey(repository)).toString();
}

void BestOfLauncher::update()
{
    const int generation = ++m_generation;
    m_repository.clear();
    m_action->setEnabled(false);
    const QString sessionID = m_window->currentSessionID();
    const std::optional<Session> session
        = sessionID.isEmpty() ? std::nullopt : m_window->sessionsModel()->session(sessionID);
    if (!session || !m_window->currentSource().isEmpty() || m_window->service()->isReadOnly()) {
        m_action->setToolTip(tr("Open a session of Weft's own, in a git repository, to run its prompt on several models"));
        return;
    }
    m_directory = session->directory();
    m_projectID = session->projectID();
    m_action->setToolTip(tr("Looking for the session's git repository…"));
    whenFinished(BestOfRun::repositoryOf(m_directory), this, [this, generation](const Result<QString> &repository) {
        if (generation != m_generation)
            return;
        if (!repository) {
            m_action->setToolTip(tr("The session's folder is not in a git repository: each run needs a worktree"));
            return;
        }
        m_repository = repository.value();
        m_action->setToolTip(tr("Send a prompt to several models, each in a worktree of its own, and keep the best"));
        m_action->setEnabled(true);
    });
}

void BestOfLauncher::open()
{
    if (m_repository.isEmpty())
        return;
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    SessionController *controller = m_window->controller();
    Composer *composer = m_window->composer();
    m_dialog = new BestOfDialog(m_window);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog->setPrompt(composer->text());
    m_dialog->setAgents(controller->agents(), composer->currentAgent());
    m_dialog->setModels(controller->availableModels(), composer->currentModel());
    m_dialog->setTestCommand(savedTestCommand(m_repository));
    connect(m_dialog, &QDialog::accepted, this, &BestOfLauncher::start);
    m_dialog->open();
}

void BestOfLauncher::start()
{
    BestOfRun::Request request = m_dialog->request();
    request.directory = m_directory;
    request.projectID = m_projectID;
    QSettings().setValue(settingsKey(m_repository), request.testCommand);
    auto *group = new BestOfRun(m_window->controller(), request);
    auto *view = new BestOfView(group, m_window->board(), m_window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    connect(view, &BestOfView::openSessionRequested, m_window, [this](const QString &sessionID) {
        m_window->openSession(sessionID);
        m_window->activateWindow();
    });
    m_views.append(view);
    group->start();
    view->show();
}

} // namespace weft
