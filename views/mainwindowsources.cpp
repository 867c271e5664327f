// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: the sources presenter (OpenCode's folder, OpenCode servers, search) wired to the
// window, and what the window does with the open session's source.

#include "mainwindow.h"

#include "app/serversource.h"
#include "composer.h"
#include "findbar.h"
#include "indexingguest.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "session/sessionservice.h"
#include "sessionsidebar.h"
#include "sourcespresenter.h"
#include "timelineview.h"

#include <QAction>
#include <QBoxLayout>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace weft
{

void MainWindow::createSourceActions()
{
    m_sources = new SourcesPresenter(this, m_controller.get(), m_tree, m_notices,
                                     [this]() -> UserQuestions & { return questions(); });
    connect(action(u"searchAll"_s), &QAction::triggered, m_sources, &SourcesPresenter::showSearchPanel);
    new IndexingGuest(m_controller.get(), m_sidebar->filterEdit(), this);
    connect(action(u"showOpencode"_s), &QAction::triggered, m_sources,
            [this](bool checked) { m_sources->setOpencodeShown(checked); });
    connect(action(u"chooseOpencodeDir"_s), &QAction::triggered, m_sources, &SourcesPresenter::chooseOpencodeDir);
    connect(action(u"connectServer"_s), &QAction::triggered, m_sources, &SourcesPresenter::showConnectServer);
    connect(action(u"disconnectServer"_s), &QAction::triggered, this, [this] {
        const QString key = !m_sidebar->currentSource().isEmpty() ? m_sidebar->currentSource() : m_currentSource;
        if (ServerSource *server = m_controller->server(key))
            m_sources->disconnectServer(server->key());
    });
    connect(m_composer, &Composer::importRequested, m_sources, &SourcesPresenter::importSession);
    connect(m_sources, &SourcesPresenter::opencodeShownChanged, action(u"showOpencode"_s), &QAction::setChecked);
    connect(m_sources, &SourcesPresenter::currentChanged, this, [this] {
        updateHeader();
        updateActions();
    });
    connect(m_sources, &SourcesPresenter::sourceClosing, this, [this](const QString &key) {
        if (m_currentSource == key)
            showSession(QString());
    });
    connect(m_sources, &SourcesPresenter::searchHitActivated, this, [this](const SearchHit &hit) {
        if (openSearchHit(hit))
            m_sources->hideSearchPanel();
    });
}

void MainWindow::setupSources()
{
    if (auto *layout = qobject_cast<QBoxLayout *>(m_timelineView->parentWidget()->layout()))
        layout->insertWidget(layout->indexOf(m_timelineView) + 1, m_findBar);
    m_sources->setup(m_dataDir, m_service->isReadOnly());
}

void MainWindow::shutdownSources()
{
    m_sources->shutdown();
}

SessionsModel *MainWindow::sessionsFor(const QString &source) const
{
    if (source.isEmpty())
        return m_sessions;
    return m_tree->sessionsModel(source);
}

std::optional<Session> MainWindow::currentSessionInfo() const
{
    if (m_current.isEmpty())
        return std::nullopt;
    const SessionsModel *model = sessionsFor(m_currentSource);
    return model ? model->session(m_current) : std::nullopt;
}

void MainWindow::updateSourceState()
{
    // A server's sessions run there; OpenCode's folder is read-only (copy into Weft to go on).
    const bool server = currentServer() != nullptr;
    const bool foreign = !m_currentSource.isEmpty() && !server;
    // A session of Weft's store that another process runs is followed live, not prompted here.
    const std::optional<RunHolder> elsewhere
        = m_currentSource.isEmpty() && m_controller ? m_controller->runningElsewhere(m_current) : std::nullopt;
    if (elsewhere)
        m_composer->setReadOnly(true, tr("This session is being run by %1. It follows live here; fork it to work "
                                         "on it meanwhile.")
                                          .arg(elsewhere->describe()));
    else
        m_composer->setReadOnly(server ? false : (m_service->isReadOnly() || foreign));
    m_composer->setImportAvailable(foreign && !m_service->isReadOnly());
}

ServerSource *MainWindow::currentServer() const
{
    return m_currentSource.isEmpty() ? nullptr : m_controller->server(m_currentSource);
}

void MainWindow::onImported(const Session &copy)
{
    m_sessions->refreshSession(copy.id());
    openSession(copy.id(), QString());
    statusBar()->showMessage(tr("Copied “%1” into Weft").arg(copy.title()), 5000);
    Q_EMIT imported(copy.id());
}

bool MainWindow::openSearchHit(const SearchHit &hit)
{
    const std::optional<QString> source = m_sources->sourceOf(hit);
    return source && openSessionAt(*source, hit.sessionID, hit.messageID, hit.partID);
}

bool MainWindow::openSessionAt(const QString &source, const QString &sessionID, const QString &messageID,
                               const QString &partID)
{
    if (!openSession(sessionID, source))
        return false;
    if (!messageID.isEmpty())
        m_timelineView->revealPart(messageID, partID);
    return true;
}

} // namespace weft
