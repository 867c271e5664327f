// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: the sources presenter (OpenCode's folder, OpenCode servers, search) wired to the
// window, and what the window does with the open session's source.

#include "mainwindow.h"

#include "app/serversource.h"
#include "composer.h"
#include "findbar.h"
#include "indexingguest.h"
#include "panearea.h"
#include "sessionpane.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "session/sessionservice.h"
#include "sessionsidebar.h"
#include "sourcespresenter.h"
#include "timelineview.h"

#include <QAction>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace weft
{

void MainWindow::createSourceActions()
{
    // First the guest: the index, which the sources open, waits for the first frame.
    new IndexingGuest(m_controller.get(), m_sidebar->filterEdit(), m_startupGate, this);
    m_sources = new SourcesPresenter(this, m_controller.get(), m_tree, m_notices,
                                     [this]() -> UserQuestions & { return questions(); });
    connect(action(u"searchAll"_s), &QAction::triggered, m_sources, &SourcesPresenter::showSearchPanel);
    connect(action(u"showOpencode"_s), &QAction::triggered, m_sources,
            [this](bool checked) { m_sources->setOpencodeShown(checked); });
    connect(action(u"chooseOpencodeDir"_s), &QAction::triggered, m_sources, &SourcesPresenter::chooseOpencodeDir);
    connect(action(u"connectServer"_s), &QAction::triggered, m_sources, &SourcesPresenter::showConnectServer);
    connect(action(u"disconnectServer"_s), &QAction::triggered, this, [this] {
        const QString key = !m_sidebar->currentSource().isEmpty() ? m_sidebar->currentSource() : currentSource();
        if (ServerSource *server = m_controller->server(key))
            m_sources->disconnectServer(server->key());
    });
    connect(m_sources, &SourcesPresenter::opencodeShownChanged, action(u"showOpencode"_s), &QAction::setChecked);
    connect(m_sources, &SourcesPresenter::currentChanged, this, [this] {
        currentPane()->updateHeader();
        updateHeader();
        updateActions();
    });
    connect(m_sources, &SourcesPresenter::sourceClosing, this, [this](const QString &key) {
        // The tabs of a source that goes close (the last one is emptied).
        for (SessionPane *pane : m_panes->panes()) {
            if (pane->source() == key)
                m_panes->closePane(pane);
        }
    });
    connect(m_sources, &SourcesPresenter::searchHitActivated, this, [this](const SearchHit &hit) {
        if (openSearchHit(hit))
            m_sources->hideSearchPanel();
    });
}

void MainWindow::setupSources()
{
    m_sources->setup(m_dataDir, m_service->isReadOnly());
}

void MainWindow::shutdownSources()
{
    m_sources->shutdown();
}

std::optional<Session> MainWindow::currentSessionInfo() const
{
    return currentPane()->sessionInfo();
}

ServerSource *MainWindow::currentServer() const
{
    return currentPane()->server();
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
        timelineView()->revealPart(messageID, partID);
    return true;
}

} // namespace weft
