// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "changespane.h"
#include "composer.h"
#include "contextmeter.h"
#include "core/logging.h"
#include "problemsdialog.h"
#include "qt/async.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/sessionwatcher.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "sessionheader.h"
#include "sessionsidebar.h"
#include "store/jsonstore.h"
#include "style.h"
#include "timelineview.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace weft
{

MainWindow::MainWindow(std::shared_ptr<SessionService> service, const QString &dataDir, QWidget *parent)
    : QMainWindow(parent)
    , m_service(std::move(service))
    , m_dataDir(dataDir)
    , m_sessions(new SessionsModel(m_service.get(), this))
    , m_tree(new SessionTreeModel(m_sessions, this))
    , m_timeline(new TimelineModel(m_service.get(), this))
{
    setObjectName(u"mainWindow"_s);
    setWindowIcon(QIcon::fromTheme(u"dev.weft.Weft"_s, Style::bundledIcon(u"weft-session"_s)));

    m_sidebar = new SessionSidebar(m_tree, this);
    m_header = new SessionHeader(this);
    m_timelineView = new TimelineView(this);
    m_timelineView->setTimelineModel(m_timeline);
    m_composer = new Composer(this);
    m_composer->setReadOnly(m_service->isReadOnly());
    m_changes = new ChangesPane(m_service.get(), this);

    auto *timelineBox = new QWidget(this);
    auto *timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    timelineLayout->addWidget(m_header);
    timelineLayout->addWidget(m_timelineView, 1);

    m_centerSplitter = new QSplitter(Qt::Vertical, this);
    m_centerSplitter->setObjectName(u"centerSplitter"_s);
    m_centerSplitter->setChildrenCollapsible(false);
    m_centerSplitter->addWidget(timelineBox);
    m_centerSplitter->addWidget(m_composer);
    m_centerSplitter->setStretchFactor(0, 1);
    m_centerSplitter->setStretchFactor(1, 0);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(u"mainSplitter"_s);
    m_splitter->addWidget(m_sidebar);
    m_splitter->addWidget(m_centerSplitter);
    m_splitter->addWidget(m_changes);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 0);
    m_splitter->setCollapsible(1, false);
    setCentralWidget(m_splitter);

    createActions();
    createMenus();

    m_dataDirLabel = new QLabel(this);
    m_dataDirLabel->setObjectName(u"dataDirLabel"_s);
    m_dataDirLabel->setText(tr("Data: %1").arg(QDir::toNativeSeparators(dataDir)));
    m_dataDirLabel->setToolTip(tr("Sessions are read from and written to %1").arg(QDir::toNativeSeparators(dataDir)));
    m_dataDirLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(m_dataDirLabel, 1);
    m_problemsButton = new QToolButton(this);
    m_problemsButton->setObjectName(u"problemsButton"_s);
    m_problemsButton->setAutoRaise(true);
    m_problemsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_problemsButton->setIcon(Style::icon(u"dialog-warning"_s));
    m_problemsButton->setToolTip(tr("Damaged files that were skipped; click for the list"));
    connect(m_problemsButton, &QToolButton::clicked, this, &MainWindow::showProblems);
    statusBar()->addPermanentWidget(m_problemsButton);
    connect(m_service.get(), &SessionService::problemFound, this, &MainWindow::updateProblems);
    connect(m_sessions, &SessionsModel::loaded, this, &MainWindow::updateProblems);
    updateProblems();

    connect(m_sidebar, &SessionSidebar::currentSessionChanged, this, &MainWindow::showSession);
    connect(m_timelineView, &TimelineView::forkRequested, this, &MainWindow::forkSession);
    connect(m_sessions, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &tl, const QModelIndex &br) {
        const QModelIndex current = m_sessions->indexForId(m_current);
        if (current.isValid() && current.row() >= tl.row() && current.row() <= br.row()) {
            updateHeader();
            updateActions();
        }
    });
    connect(m_sessions, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (!m_current.isEmpty() && !m_sessions->indexForId(m_current).isValid())
            showSession(m_sidebar->currentSessionID());
    });
    connect(m_timeline, &TimelineModel::statsChanged, this, &MainWindow::updateHeader);
    connect(m_timeline, &TimelineModel::runningChanged, m_composer, &Composer::setRunning);
    connect(m_timeline, &TimelineModel::runningChanged, this, &MainWindow::updateActions);
    connect(m_timeline, &TimelineModel::loaded, this, [this] {
        m_composer->setCurrentModel(m_timeline->lastModel());
        m_composer->setCurrentAgent(m_timeline->lastAgent());
        updateHeader();
    });
    if (SessionWatcher *watcher = m_timeline->watcher())
        connect(watcher, &SessionWatcher::sessionInfoChanged, m_sessions, &SessionsModel::refreshSession);

    // Sending, stopping and compacting are wired by the session runner; until then, say so.
    connect(m_composer, &Composer::sendRequested, this, [this] { notAvailableYet(tr("Sending prompts")); });
    connect(m_composer, &Composer::stopRequested, this, [this] { notAvailableYet(tr("Stopping replies")); });
    connect(m_composer, &Composer::compactRequested, this, [this] { notAvailableYet(tr("Compaction")); });

    readSettings();
    updateHeader();
    updateActions();

    // Open the most recent session once the list is in.
    connect(
        m_sessions, &SessionsModel::loaded, this,
        [this] {
            if (!m_current.isEmpty())
                return;
            for (const Session &s : m_sessions->sessions()) {
                if (!s.isArchived() && s.parentID().isEmpty()) {
                    openSession(s.id());
                    break;
                }
            }
        },
        Qt::SingleShotConnection);
}

MainWindow::~MainWindow()
{
    writeSettings();
}

ContextMeter *MainWindow::contextMeter() const
{
    return m_header->meter();
}

QAction *MainWindow::makeAction(const QString &name, const QString &text, const QString &icon,
                                const QKeySequence &shortcut)
{
    auto *action = new QAction(text, this);
    action->setObjectName(name);
    if (!icon.isEmpty())
        action->setIcon(Style::icon(icon));
    if (!shortcut.isEmpty())
        action->setShortcut(shortcut);
    m_actions.insert(name, action);
    return action;
}

void MainWindow::createActions()
{
    QAction *a = makeAction(u"newSession"_s, tr("&New Session"), u"document-new"_s, QKeySequence::New);
    a->setToolTip(tr("Start a new session in the current session's folder"));
    a->setProperty("weftGlobal", true);
    connect(a, &QAction::triggered, this, &MainWindow::newSession);

    a = makeAction(u"forkSession"_s, tr("&Fork"), u"weft-fork"_s, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    a->setToolTip(tr("Copy the whole session into a new one, to try another direction"));
    connect(a, &QAction::triggered, this, [this] {
        if (!m_current.isEmpty())
            forkSession(m_current, {});
    });

    a = makeAction(u"renameSession"_s, tr("&Rename…"), u"edit-rename"_s, QKeySequence(Qt::Key_F2));
    a->setPriority(QAction::LowPriority);
    connect(a, &QAction::triggered, this, &MainWindow::renameSession);

    a = makeAction(u"archiveSession"_s, tr("&Archive"), u"archive-insert"_s);
    a->setPriority(QAction::LowPriority);
    connect(a, &QAction::triggered, this, &MainWindow::toggleArchived);

    a = makeAction(u"deleteSession"_s, tr("&Delete…"), u"edit-delete"_s, QKeySequence::Delete);
    a->setPriority(QAction::LowPriority);
    // Delete acts on the sidebar only: in the composer the key deletes text.
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_sidebar->view()->addAction(a);
    connect(a, &QAction::triggered, this, &MainWindow::deleteSession);

    a = makeAction(u"exportSession"_s, tr("&Export…"), u"document-export"_s,
                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    a->setPriority(QAction::LowPriority);
    a->setToolTip(tr("Save the session as an OpenCode export file"));
    connect(a, &QAction::triggered, this, &MainWindow::exportCurrent);

    a = makeAction(u"revealDataFile"_s, tr("Show Data &File"), u"document-open-folder"_s);
    a->setToolTip(tr("Open the folder that holds the session's file"));
    connect(a, &QAction::triggered, this, &MainWindow::revealDataFile);

    a = makeAction(u"find"_s, tr("&Find Session…"), u"edit-find"_s, QKeySequence::Find);
    a->setProperty("weftGlobal", true);
    connect(a, &QAction::triggered, this, [this] {
        m_sidebar->show();
        m_sidebar->focusFilter();
    });

    a = makeAction(u"compact"_s, tr("&Compact…"), u"weft-compact"_s);
    a->setToolTip(m_composer->compactButton()->toolTip());
    connect(a, &QAction::triggered, m_composer, &Composer::compact);

    a = makeAction(u"stop"_s, tr("&Stop"), u"process-stop"_s);
    connect(a, &QAction::triggered, m_composer, &Composer::stop);

    a = makeAction(u"jumpToLatest"_s, tr("&Jump to Latest"), u"go-bottom"_s, QKeySequence(Qt::CTRL | Qt::Key_End));
    connect(a, &QAction::triggered, m_timelineView, &TimelineView::jumpToBottom);

    a = makeAction(u"showSidebar"_s, tr("Show &Sidebar"), u"view-sidebar"_s, QKeySequence(Qt::Key_F9));
    a->setCheckable(true);
    a->setChecked(true);
    connect(a, &QAction::toggled, m_sidebar, &QWidget::setVisible);

    a = makeAction(u"showChanges"_s, tr("Show &Changes"), u"view-split-left-right"_s, QKeySequence(Qt::Key_F11));
    a->setCheckable(true);
    a->setChecked(true);
    connect(a, &QAction::toggled, m_changes, &QWidget::setVisible);

    a = makeAction(u"quit"_s, tr("&Quit"), u"application-exit"_s, QKeySequence::Quit);
    a->setMenuRole(QAction::QuitRole);
    connect(a, &QAction::triggered, this, &QWidget::close);

    a = makeAction(u"about"_s, tr("&About Weft"), u"help-about"_s);
    a->setMenuRole(QAction::AboutRole);
    connect(a, &QAction::triggered, this, &MainWindow::about);
    a = makeAction(u"aboutQt"_s, tr("About &Qt"), QString());
    a->setMenuRole(QAction::AboutQtRole);
    connect(a, &QAction::triggered, qApp, &QApplication::aboutQt);

    m_sidebar->setContextActions({action(u"newSession"_s), nullptr, action(u"renameSession"_s),
                                  action(u"forkSession"_s), action(u"archiveSession"_s), nullptr,
                                  action(u"exportSession"_s), action(u"revealDataFile"_s), nullptr,
                                  action(u"deleteSession"_s)});
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(action(u"newSession"_s));
    file->addSeparator();
    file->addAction(action(u"exportSession"_s));
    file->addAction(action(u"revealDataFile"_s));
    file->addSeparator();
    file->addAction(action(u"quit"_s));

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_timelineView->copyTextAction());
    edit->addAction(m_timelineView->copyMarkdownAction());
    edit->addSeparator();
    edit->addAction(action(u"find"_s));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(action(u"showSidebar"_s));
    view->addAction(action(u"showChanges"_s));
    view->addSeparator();
    view->addAction(action(u"jumpToLatest"_s));

    QMenu *session = menuBar()->addMenu(tr("&Session"));
    session->addAction(action(u"forkSession"_s));
    session->addAction(action(u"renameSession"_s));
    session->addAction(action(u"archiveSession"_s));
    session->addAction(action(u"deleteSession"_s));
    session->addSeparator();
    session->addAction(action(u"compact"_s));
    session->addAction(action(u"stop"_s));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(action(u"about"_s));
    help->addAction(action(u"aboutQt"_s));

    QToolBar *toolbar = addToolBar(tr("Main Toolbar"));
    toolbar->setObjectName(u"mainToolBar"_s);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->addAction(action(u"newSession"_s));
    toolbar->addAction(action(u"forkSession"_s));
    toolbar->addSeparator();
    toolbar->addAction(action(u"renameSession"_s));
    toolbar->addAction(action(u"archiveSession"_s));
    toolbar->addAction(action(u"deleteSession"_s));
    toolbar->addSeparator();
    toolbar->addAction(action(u"exportSession"_s));
    view->addSeparator();
    view->addAction(toolbar->toggleViewAction());
}

bool MainWindow::openSession(const QString &sessionID)
{
    if (!m_sidebar->selectSession(sessionID))
        return false;
    showSession(sessionID);
    return true;
}

void MainWindow::showSession(const QString &sessionID)
{
    if (sessionID == m_current)
        return;
    m_current = sessionID;
    m_timeline->setSessionID(sessionID);
    m_composer->setSessionID(sessionID);
    m_composer->setRunning(false);
    m_changes->setSessionID(sessionID);
    updateHeader();
    updateActions();
    Q_EMIT currentSessionChanged(sessionID);
}

void MainWindow::updateHeader()
{
    const std::optional<Session> s = m_current.isEmpty() ? std::nullopt : m_sessions->session(m_current);
    m_header->setVisible(s.has_value());
    if (!s) {
        setWindowTitle(QString());
        return;
    }
    setWindowTitle(s->title());
    m_header->setTitle(s->title());
    QStringList details;
    QString dir = QDir::toNativeSeparators(s->directory());
    const QString home = QDir::toNativeSeparators(QDir::homePath());
    if (dir.startsWith(home))
        dir = u"~"_s + dir.mid(home.size());
    if (!dir.isEmpty())
        details.append(dir);
    const int count = m_timeline->totalMessageCount();
    if (!m_timeline->isLoading())
        details.append(Style::plural(tr("%n message(s)", nullptr, count), count));
    if (s->additions() > 0 || s->deletions() > 0)
        details.append(Style::plural(
            tr("+%1 \u2212%2 in %n file(s)", nullptr, int(s->filesChanged())).arg(s->additions()).arg(s->deletions()),
            s->filesChanged()));
    if (s->isArchived())
        details.append(tr("archived"));
    m_header->setDetails(details.join(u"  ·  "_s));
    contextMeter()->setTokens(m_timeline->contextTokens());
    contextMeter()->setCost(m_timeline->totalCost());
}

void MainWindow::updateActions()
{
    const std::optional<Session> s = m_current.isEmpty() ? std::nullopt : m_sessions->session(m_current);
    const bool have = s.has_value();
    const bool writable = !m_service->isReadOnly();
    action(u"forkSession"_s)->setEnabled(have && writable);
    action(u"renameSession"_s)->setEnabled(have && writable);
    action(u"archiveSession"_s)->setEnabled(have && writable);
    action(u"deleteSession"_s)->setEnabled(have && writable);
    action(u"exportSession"_s)->setEnabled(have);
    action(u"revealDataFile"_s)->setEnabled(have && dynamic_cast<JsonStore *>(m_service->store()));
    action(u"newSession"_s)->setEnabled(writable);
    action(u"compact"_s)->setEnabled(have && writable && !m_timeline->isRunning());
    action(u"stop"_s)->setEnabled(have && m_timeline->isRunning());
    QAction *archive = action(u"archiveSession"_s);
    const bool archived = have && s->isArchived();
    archive->setText(archived ? tr("Un&archive") : tr("&Archive"));
    archive->setIcon(Style::icon(archived ? u"archive-extract"_s : u"archive-insert"_s));
    archive->setToolTip(archived ? tr("Move the session back to the list")
                                 : tr("Move the session to the Archived group"));
}

void MainWindow::updateProblems()
{
    m_problemCount = int(m_service->store()->problems().size());
    m_problemsButton->setVisible(m_problemCount > 0);
    m_problemsButton->setText(Style::plural(tr("%n problem(s)", nullptr, m_problemCount), m_problemCount));
}

void MainWindow::showProblems()
{
    ProblemsDialog dialog(m_service->store()->problems(), this);
    dialog.exec();
}

void MainWindow::newSession()
{
    SessionService::CreateOptions options;
    const std::optional<Session> current = m_current.isEmpty() ? std::nullopt : m_sessions->session(m_current);
    options.directory = current ? current->directory() : QDir::homePath();
    if (current)
        options.projectID = current->projectID();
    const Result<Session> created = m_service->create(options);
    if (!created) {
        QMessageBox::warning(this, tr("New Session"),
                             tr("The session could not be created:\n%1").arg(created.error().toString()));
        return;
    }
    openSession(created->id());
    m_composer->editor()->setFocus();
}

void MainWindow::forkSession(const QString &sessionID, const QString &messageID)
{
    if (sessionID.isEmpty())
        return;
    statusBar()->showMessage(tr("Forking…"));
    std::shared_ptr<SessionService> service = m_service;
    // Copying a long session is many small writes: off the GUI thread. The new session's signals
    // reach the models queued, before the continuation below runs.
    whenFinished(QtConcurrent::run([service, sessionID, messageID] { return service->fork(sessionID, messageID); }),
                 this, [this](const Result<Session> &result) {
                     if (!result) {
                         statusBar()->clearMessage();
                         QMessageBox::warning(
                             this, tr("Fork"),
                             tr("The session could not be forked:\n%1").arg(result.error().toString()));
                         return;
                     }
                     m_sessions->refreshSession(result->id());
                     openSession(result->id());
                     statusBar()->showMessage(tr("Forked into “%1”").arg(result->title()), 5000);
                     Q_EMIT forked(result->id());
                 });
}

void MainWindow::renameSession()
{
    if (m_current.isEmpty())
        return;
    m_sidebar->show();
    action(u"showSidebar"_s)->setChecked(true);
    m_sidebar->selectSession(m_current);
    m_sidebar->view()->setFocus();
    m_sidebar->renameCurrent();
}

void MainWindow::toggleArchived()
{
    const std::optional<Session> s = m_sessions->session(m_current);
    if (!s)
        return;
    const Result<Session> r = m_service->setArchived(s->id(), !s->isArchived());
    if (!r)
        QMessageBox::warning(this, tr("Archive"), r.error().toString());
    else
        m_sidebar->selectSession(s->id());
}

bool MainWindow::confirm(const QString &title, const QString &text)
{
    if (m_confirm)
        return m_confirm(title, text);
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Cancel, this);
    QPushButton *del = box.addButton(tr("&Delete"), QMessageBox::DestructiveRole);
    del->setIcon(Style::icon(u"edit-delete"_s));
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == del;
}

void MainWindow::setConfirmationHandler(std::function<bool(const QString &, const QString &)> handler)
{
    m_confirm = std::move(handler);
}

void MainWindow::deleteSession()
{
    const QString id = m_sidebar->currentSessionID().isEmpty() ? m_current : m_sidebar->currentSessionID();
    const std::optional<Session> s = m_sessions->session(id);
    if (!s)
        return;
    int children = 0;
    QStringList frontier{id};
    while (!frontier.isEmpty()) {
        const QString parent = frontier.takeFirst();
        for (const Session &c : m_sessions->sessions()) {
            if (c.parentID() == parent && c.id() != parent && children < 10000) {
                ++children;
                frontier.append(c.id());
            }
        }
    }
    QString text = tr("Delete the session “%1” with all its messages?").arg(s->title());
    if (children > 0)
        text
            += u' ' + Style::plural(tr("Its %n subagent session(s) will be deleted too.", nullptr, children), children);
    text += u"\n\n"_s + tr("This cannot be undone.");
    if (!confirm(tr("Delete Session"), text))
        return;
    const Result<void> r = m_service->remove(id);
    if (!r)
        QMessageBox::warning(this, tr("Delete Session"),
                             tr("The session could not be deleted:\n%1").arg(r.error().toString()));
    else
        statusBar()->showMessage(tr("Deleted “%1”").arg(s->title()), 5000);
}

bool MainWindow::exportSession(const QString &sessionID, const QString &path, QString *error)
{
    const Result<JsonObject> document = Transfer::exportSession(*m_service, sessionID);
    if (!document) {
        if (error)
            *error = document.error().toString();
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(Transfer::formatExport(document.value())) < 0
        || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void MainWindow::exportCurrent()
{
    const std::optional<Session> s = m_sessions->session(m_current);
    if (!s)
        return;
    QString name = s->title();
    name.replace(QRegularExpression(u"[/\\\\:*?\"<>|]"_s), u"-"_s);
    const QString suggested = QDir::home().filePath(name.left(80) + u".json"_s);
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Export Session"), suggested, tr("OpenCode export (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportSession(s->id(), path, &error))
        QMessageBox::warning(this, tr("Export Session"), tr("The session could not be exported:\n%1").arg(error));
    else
        statusBar()->showMessage(tr("Exported to %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::revealDataFile()
{
    auto *store = dynamic_cast<JsonStore *>(m_service->store());
    if (!store || m_current.isEmpty())
        return;
    const QString file = store->sessionFile(m_current);
    if (file.isEmpty())
        return;
    QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absolutePath()));
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Weft"),
                       tr("<h3>Weft %1</h3>"
                          "<p>A desktop home for coding-agent sessions: read, continue, fork and compact them, "
                          "and review what they changed. Compatible with OpenCode's data.</p>"
                          "<p>Licensed under the GNU General Public License, version 3 or later.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::notAvailableYet(const QString &what)
{
    statusBar()->showMessage(tr("%1: not available yet.").arg(what), 4000);
}

void MainWindow::readSettings()
{
    QSettings settings;
    settings.beginGroup(u"MainWindow"_s);
    if (!restoreGeometry(settings.value(u"geometry"_s).toByteArray()))
        resize(1280, 820);
    restoreState(settings.value(u"state"_s).toByteArray());
    if (!m_splitter->restoreState(settings.value(u"splitter"_s).toByteArray()))
        m_splitter->setSizes({290, 760, 230});
    if (!m_centerSplitter->restoreState(settings.value(u"centerSplitter"_s).toByteArray()))
        m_centerSplitter->setSizes({640, 120});
    action(u"showSidebar"_s)->setChecked(!m_sidebar->isHidden());
    action(u"showChanges"_s)->setChecked(!m_changes->isHidden());
    settings.endGroup();
    m_settingsRead = true;
    connect(m_splitter, &QSplitter::splitterMoved, this, &MainWindow::writeSettings);
    connect(m_centerSplitter, &QSplitter::splitterMoved, this, &MainWindow::writeSettings);
}

void MainWindow::writeSettings()
{
    if (!m_settingsRead)
        return;
    QSettings settings;
    settings.beginGroup(u"MainWindow"_s);
    settings.setValue(u"geometry"_s, saveGeometry());
    settings.setValue(u"state"_s, saveState());
    settings.setValue(u"splitter"_s, m_splitter->saveState());
    settings.setValue(u"centerSplitter"_s, m_centerSplitter->saveState());
    settings.endGroup();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    writeSettings();
    QMainWindow::closeEvent(event);
}

} // namespace weft
