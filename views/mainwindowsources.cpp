// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: OpenCode's sessions as a second source in the sidebar (read-only, live), copying
// them into Weft, search across every session (Ctrl+Shift+F) and find in the open session (Ctrl+F).

#include "mainwindow.h"

#include "composer.h"
#include "core/logging.h"
#include "findbar.h"
#include "noticebar.h"
#include "app/opencodesource.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "searchpanel.h"
#include "session/datadir.h"
#include "session/sessionservice.h"
#include "sessionsidebar.h"
#include "style.h"
#include "timelineview.h"
#include "userquestions.h"

#include <QAction>
#include <QBoxLayout>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
const QString SettingsGroup = u"OpenCodeSource"_s;
const QString OfferKey = u"opencodeOffer"_s;
} // namespace

void MainWindow::createSourceActions()
{
    connect(action(u"searchAll"_s), &QAction::triggered, this, &MainWindow::showSearchPanel);
    connect(action(u"showOpencode"_s), &QAction::triggered, this, [this](bool checked) { setOpencodeShown(checked); });
    connect(action(u"chooseOpencodeDir"_s), &QAction::triggered, this, &MainWindow::chooseOpencodeDir);
    connect(m_composer, &Composer::importRequested, this, &MainWindow::importSession);
    createServerActions();
}

void MainWindow::setupSources()
{
    if (auto *layout = qobject_cast<QBoxLayout *>(m_timelineView->parentWidget()->layout()))
        layout->insertWidget(layout->indexOf(m_timelineView) + 1, m_findBar);

    // The search index (beside Weft's own data) and OpenCode's source are the controller's; the
    // sidebar shows the source.
    m_controller->openSources();
    setupServers();
    connect(opencodeSource(), &OpencodeSource::ready, this, &MainWindow::onOpencodeReady);
    connect(opencodeSource(), &OpencodeSource::aboutToClose, this, &MainWindow::onOpencodeClosing);

    QSettings settings;
    settings.beginGroup(SettingsGroup);
    const QString dir = settings.value(u"path"_s, DataDir::opencodePath()).toString();
    // A Weft started on OpenCode's folder itself shows it already.
    const bool isPrimary = QDir(dir).canonicalPath() == QDir(m_dataDir).canonicalPath() || m_service->isReadOnly();
    if (isPrimary)
        return;
    if (settings.contains(u"show"_s)) {
        if (settings.value(u"show"_s).toBool())
            setOpencodeShown(true, dir);
    } else if (OpencodeSource::looksLikeDataDir(dir)) {
        offerOpencode(dir);
    }
}

void MainWindow::shutdownSources()
{
    // The panel's query and the index's worker use the services: they end first.
    delete m_searchPanel.data();
    if (OpencodeSource *opencode = opencodeSource())
        disconnect(opencode, nullptr, this, nullptr);
    m_controller->closeSources();
}

void MainWindow::offerOpencode(const QString &dir)
{
    QString shown = QDir::toNativeSeparators(dir);
    const QString home = QDir::toNativeSeparators(QDir::homePath());
    if (shown.startsWith(home + QDir::separator()))
        shown = u"~"_s + shown.mid(home.size());
    const auto answer = [this, dir](bool show) {
        m_notices->removeNotice(OfferKey);
        QSettings settings;
        settings.beginGroup(SettingsGroup);
        settings.setValue(u"show"_s, show);
        if (show)
            setOpencodeShown(true, dir);
    };
    m_notices->showNotice(
        OfferKey, NoticeBar::Kind::Question,
        tr("OpenCode's sessions are in %1. Show them in the sidebar beside Weft's? They stay OpenCode's: Weft reads "
           "them live and never changes them.")
            .arg(shown),
        {{tr("&Show OpenCode Sessions"), u"network-server"_s, u"showOpencode"_s, [answer] { answer(true); }},
         {tr("&Not Now"), QString(), u"notNow"_s, [answer] { answer(false); }}},
        true);
}

bool MainWindow::setOpencodeShown(bool shown, const QString &dataDir)
{
    QSettings settings;
    settings.beginGroup(SettingsGroup);
    const QString dir = !dataDir.isEmpty() ? dataDir : settings.value(u"path"_s, DataDir::opencodePath()).toString();
    m_notices->removeNotice(OfferKey);
    if (!shown) {
        settings.setValue(u"show"_s, false);
        opencodeSource()->close();
        action(u"showOpencode"_s)->setChecked(false);
        return true;
    }
    const Result<void> opened = opencodeSource()->open(dir);
    if (!opened) {
        action(u"showOpencode"_s)->setChecked(false);
        QMessageBox::warning(this, tr("OpenCode Sessions"),
                             tr("OpenCode's sessions in %1 cannot be shown:\n%2")
                                 .arg(QDir::toNativeSeparators(dir), opened.error().message));
        return false;
    }
    settings.setValue(u"show"_s, true);
    settings.setValue(u"path"_s, opencodeSource()->dataDir());
    action(u"showOpencode"_s)->setChecked(true);
    if (!opencodeSource()->warning().isEmpty())
        statusBar()->showMessage(opencodeSource()->warning(), 10000);
    return true;
}

void MainWindow::chooseOpencodeDir()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("OpenCode's Data Folder"),
                                                          opencodeSource()->isOpen() ? opencodeSource()->dataDir()
                                                                                     : DataDir::opencodePath());
    if (!dir.isEmpty())
        setOpencodeShown(true, dir);
}

void MainWindow::onOpencodeReady()
{
    SessionsModel *model = opencodeSource()->sessions();
    const QString key = opencodeSource()->key();
    m_tree->addSource(key, model, opencodeSource()->label());
    followSourceModel(key, model);
    connect(opencodeSource()->service(), &SessionService::problemFound, this,
            [this](const QString &location, const QString &reason) {
                statusBar()->showMessage(tr("OpenCode's data: %1 (%2)").arg(reason, location), 8000);
            });
}

void MainWindow::followSourceModel(const QString &key, SessionsModel *model)
{
    // The open session's header follows the source's changes (a title, a summary, a revert).
    connect(model, &QAbstractItemModel::dataChanged, this, [this, key, model](const QModelIndex &tl, const QModelIndex &br) {
        if (m_currentSource != key)
            return;
        const QModelIndex current = model->indexForId(m_current);
        if (current.isValid() && current.row() >= tl.row() && current.row() <= br.row()) {
            updateHeader();
            updateActions();
        }
    });
}

void MainWindow::onOpencodeClosing()
{
    const QString key = opencodeSource()->key();
    if (!m_currentSource.isEmpty())
        showSession(QString());
    m_tree->removeSource(key);
    if (SessionsModel *model = opencodeSource()->sessions())
        disconnect(model, nullptr, this, nullptr);
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

bool MainWindow::offerImportInstead(const QString &sessionID, const QString &what)
{
    // Weft's own sessions and a server's are acted on where they are.
    if (m_currentSource.isEmpty() || sessionID.isEmpty() || sessionID != m_current || currentServer())
        return false;
    if (m_service->isReadOnly())
        return true;
    const std::optional<Session> s = currentSessionInfo();
    const QString title = s ? s->title() : sessionID;
    const QString text = tr("“%1” is one of OpenCode's sessions: Weft shows it but never writes to OpenCode's data. "
                            "To %2, copy it into Weft's own sessions first; the copy opens in the Weft list.")
                             .arg(title, what);
    if (questions().confirm({tr("Copy into Weft"), text, tr("&Copy into Weft"), QString(), false, true}))
        importSession(sessionID);
    return true;
}

void MainWindow::importSession(const QString &sessionID)
{
    if (!opencodeSource() || !opencodeSource()->service() || m_service->isReadOnly() || sessionID.isEmpty())
        return;
    statusBar()->showMessage(tr("Copying into Weft…"));
    m_controller->importSession(sessionID);
}

void MainWindow::onImported(const Session &copy)
{
    m_sessions->refreshSession(copy.id());
    openSession(copy.id(), QString());
    statusBar()->showMessage(tr("Copied “%1” into Weft").arg(copy.title()), 5000);
    Q_EMIT imported(copy.id());
}

SearchPanel *MainWindow::searchPanel()
{
    if (!m_searchPanel) {
        m_searchPanel = new SearchPanel(m_controller.get(), this);
        connect(m_searchPanel, &SearchPanel::hitActivated, this, [this](const SearchHit &hit) {
            if (openSearchHit(hit))
                m_searchPanel->hide();
        });
    }
    // What each source is called in the results, and who wrote each message (read off the GUI
    // thread, from the stores, which are thread-safe).
    QHash<QString, QString> labels;
    labels.insert(m_controller->primarySourceKey(), m_tree->primaryLabel());
    if (opencodeSource() && opencodeSource()->service())
        labels.insert(opencodeSource()->key(), opencodeSource()->label());
    m_searchPanel->setSourceLabels(labels);
    m_searchPanel->setRoleResolver(m_controller->roleResolver());
    return m_searchPanel;
}

void MainWindow::showSearchPanel()
{
    SearchPanel *panel = searchPanel();
    panel->show();
    panel->raise();
    panel->activateWindow();
}

bool MainWindow::openSearchHit(const SearchHit &hit)
{
    QString source;
    if (hit.source != m_controller->primarySourceKey()) {
        if (!opencodeSource() || hit.source != opencodeSource()->key())
            return false;
        source = hit.source;
    }
    return openSessionAt(source, hit.sessionID, hit.messageID, hit.partID);
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
