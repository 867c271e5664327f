// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"
#include "core/toolnames.h"
#include "importeddirectory.h"

#include "app/mcpservers.h"
#include "app/serversource.h"

#include "appearance.h"
#include "attentioninbox.h"
#include "changespane.h"
#include "compactiondialog.h"
#include "composer.h"
#include "contextmeter.h"
#include "core/logging.h"
#include "errorwording.h"
#include "findbar.h"
#include "noticebar.h"
#include "queuedprompts.h"
#include "problemsdialog.h"
#include "shortcutsdialog.h"
#include "sourcespresenter.h"
#include "core/async.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "sessionheader.h"
#include "sessionsidebar.h"
#include "settingsdialog.h"
#include "style.h"
#include "timelineview.h"
#include "todopanel.h"
#include "userquestions.h"
#include "windowactions.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QtConcurrent>
#include <QMimeData>
#include <QDropEvent>
#include <QDragEnterEvent>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

MainWindow::MainWindow(std::unique_ptr<SessionController> controller, QWidget *parent)
    : QMainWindow(parent)
    , m_service(controller->sharedService())
    , m_dataDir(controller->dataDir())
    , m_controller(std::move(controller))
    , m_sessions(new SessionsModel(m_service.get(), this))
    , m_tree(new SessionTreeModel(m_sessions, this))
    , m_timeline(new TimelineModel(m_service.get(), this))
{
    setObjectName(u"mainWindow"_s);
    setWindowIcon(Appearance::applicationIcon());
    setAcceptDrops(true); // export files dropped anywhere but on the composer are imported

    m_sidebar = new SessionSidebar(m_tree, this);
    m_header = new SessionHeader(this);
    m_timelineView = new TimelineView(this);
    m_timelineView->setTimelineModel(m_timeline);
    m_composer = new Composer(this);
    m_composer->setReadOnly(m_service->isReadOnly());
    m_composer->setHistorySource([this] {
        // The session's prompts as the timeline holds them (its newest pages), oldest first.
        QStringList prompts;
        for (int row = 0; row < m_timeline->rowCount(); ++row) {
            const QModelIndex index = m_timeline->index(row, 0);
            if (index.data(TimelineModel::AuthorRole).value<Message::Role>() != Message::Role::User)
                continue;
            const QString text = index.data(TimelineModel::TextRole).toString();
            if (!text.isEmpty() && (prompts.isEmpty() || prompts.constLast() != text))
                prompts.append(text);
        }
        return prompts;
    });
    m_changes = new ChangesPane(m_service.get(), this);
    m_changes->setController(m_controller.get());
    m_changes->setTimelineModel(m_timeline);
    m_notices = new NoticeBar(this);

    auto *timelineBox = new QWidget(this);
    auto *timelineLayout = new QVBoxLayout(timelineBox);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    timelineLayout->addWidget(m_header);
    timelineLayout->addWidget(m_timelineView, 1);
    m_todos = new TodoPanel(this);
    timelineLayout->addWidget(m_todos);
    timelineLayout->addWidget(m_notices);
    m_queued = new QueuedPromptsView(m_controller.get(), this);
    timelineLayout->addWidget(m_queued);

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

    m_dataDirLabel = new QLabel(this);
    m_dataDirLabel->setObjectName(u"dataDirLabel"_s);
    m_dataDirLabel->setText(tr("Data: %1").arg(QDir::toNativeSeparators(m_dataDir)));
    m_dataDirLabel->setToolTip(tr("Sessions are read from and written to %1").arg(QDir::toNativeSeparators(m_dataDir)));
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

    connect(m_sidebar, &SessionSidebar::currentSessionChanged, this,
            [this](const QString &sessionID) { showSession(sessionID, m_sidebar->currentSource()); });
    connect(m_timelineView, &TimelineView::forkRequested, this, &MainWindow::forkSession);
    connect(m_timelineView, &TimelineView::turnChangesRequested, this,
            [this](const QString &, const QString &messageID) {
                action(u"showChanges"_s)->setChecked(true);
                m_changes->showTurn(messageID);
            });
    connect(m_sessions, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &tl, const QModelIndex &br) {
        const QModelIndex current = m_currentSource.isEmpty() ? m_sessions->indexForId(m_current) : QModelIndex();
        if (current.isValid() && current.row() >= tl.row() && current.row() <= br.row()) {
            updateHeader();
            updateActions();
        }
    });
    connect(m_sessions, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (!m_current.isEmpty() && m_currentSource.isEmpty() && !m_sessions->indexForId(m_current).isValid())
            showSession(m_sidebar->currentSessionID(), m_sidebar->currentSource());
    });
    connect(m_timeline, &TimelineModel::statsChanged, this, &MainWindow::updateHeader);
    connect(m_timeline, &TimelineModel::runningChanged, this, &MainWindow::updateActions);
    connect(m_timeline, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateSessionNotices);
    connect(m_timeline, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateSessionNotices);
    connect(m_timeline, &TimelineModel::loaded, this, [this] {
        m_composer->setCurrentModel(m_timeline->lastModel());
        m_composer->setCurrentAgent(m_timeline->lastAgent());
        updateHeader();
    });

    // Running sessions: the composer asks, the controller does.
    m_controller->setSessionLookup([this](const QString &id) { return m_sessions->session(id); });
    // Renaming in the sidebar goes through the controller, as every operation on a session.
    m_sessions->setRenamer([this](const QString &id, const QString &title) {
        return m_controller->rename(id, title);
    });
    connectController();
    m_attention = new AttentionInbox(this);
    applyProcessor();
    connect(m_composer, &Composer::sendRequested, this, &MainWindow::sendPrompt);
    connect(m_composer, &Composer::stopRequested, m_controller.get(), &SessionController::stop);
    connect(m_composer, &Composer::compactRequested, this, &MainWindow::showCompaction);
    connect(m_composer, &Composer::modelChanged, this, &MainWindow::updateContextMeter);

    readSettings();
    setupSources();
    setupMcpNotices();
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

void MainWindow::setupMcpNotices()
{
    // An MCP server that fails is a notice with a way to try again; it goes once the server works.
    auto *mcp = new McpServers(this);
    const auto showFailure = [this, mcp](const QString &name, const QString &error) {
        m_notices->showNotice(
            u"mcp-"_s + name, NoticeBar::Kind::Warning, tr("The MCP server “%1” is not available: %2").arg(name, error),
            {{tr("&Reconnect"), u"view-refresh"_s, u"mcpReconnect"_s, [mcp, name] { mcp->reconnect(name); }},
             {tr("MCP &Settings…"), u"configure"_s, u"mcpSettings"_s,
              [this] {
                  auto *dialog = new SettingsDialog(m_controller->configPath(), this);
                  dialog->setAttribute(Qt::WA_DeleteOnClose);
                  dialog->setCurrentPage(SettingsDialog::Page::McpServers);
                  dialog->open();
              }}},
            true);
    };
    connect(mcp, &McpServers::serverFailed, this, showFailure);
    // A server that connects (or whose prompts change) brings commands for the composer.
    connect(mcp, &McpServers::serverChanged, this, &MainWindow::updateProjectChoices);
    connect(mcp, &McpServers::serverChanged, this, [this, mcp](const QString &name) {
        const auto status = mcp->server(name);
        if (!status || status->state != McpServerStatus::State::Failed)
            m_notices->removeNotice(u"mcp-"_s + name);
    });
    // Servers that failed before the window was there.
    for (const McpServerStatus &status : mcp->servers()) {
        if (status.state == McpServerStatus::State::Failed)
            showFailure(status.name, status.error);
    }
}

MainWindow::~MainWindow()
{
    writeSettings();
    shutdownSources();
    delete m_attention; // no notifications about the runs stopped below
    m_attention = nullptr;
    // The controller waits for its work off the GUI thread, then stops the runs and waits for them.
    disconnect(m_controller.get(), nullptr, this, nullptr);
    m_controller.reset();
}

ContextMeter *MainWindow::contextMeter() const
{
    return m_header->meter();
}

void MainWindow::createActions()
{
    m_actions = new WindowActions(this);
    // The find bar sits under the timeline; its actions are the window's.
    m_findBar = new FindBar(m_timelineView, this);
    m_actions->add(u"findNext"_s, m_findBar->findNextAction());
    m_actions->add(u"findPrevious"_s, m_findBar->findPreviousAction());
    addAction(m_findBar->findNextAction());
    addAction(m_findBar->findPreviousAction());
    m_actions->createMenus(this, {m_timelineView->copyTextAction(), m_timelineView->copyMarkdownAction(),
                                  m_timelineView->selectAllTextAction()});

    // What each action does.
    const auto on = [this](const QString &name, auto slot) { connect(action(name), &QAction::triggered, this, slot); };
    on(u"newSession"_s, &MainWindow::newSession);
    on(u"forkSession"_s, [this] {
        if (!m_current.isEmpty())
            forkSession(m_current, {});
    });
    on(u"renameSession"_s, &MainWindow::renameSession);
    on(u"archiveSession"_s, &MainWindow::toggleArchived);
    m_sidebar->view()->addAction(action(u"deleteSession"_s));
    on(u"deleteSession"_s, &MainWindow::deleteSession);
    on(u"exportSession"_s, &MainWindow::exportCurrent);
    on(u"importSession"_s, &MainWindow::chooseImportFiles);
    on(u"revealDataFile"_s, &MainWindow::revealDataFile);
    on(u"find"_s, [this] {
        if (!m_current.isEmpty())
            m_findBar->activate();
    });
    on(u"filterSessions"_s, [this] {
        m_sidebar->show();
        m_sidebar->focusFilter();
    });
    action(u"compact"_s)->setToolTip(m_composer->compactButton()->toolTip());
    on(u"compact"_s, [this] {
        if (!m_sources->offerImportInstead(m_current, tr("compact it")))
            m_composer->compact();
    });
    on(u"undoCompaction"_s, &MainWindow::undoCompaction);
    connect(action(u"stop"_s), &QAction::triggered, m_composer, &Composer::stop);
    connect(action(u"jumpToLatest"_s), &QAction::triggered, m_timelineView, &TimelineView::jumpToBottom);
    connect(action(u"showSidebar"_s), &QAction::toggled, m_sidebar, &QWidget::setVisible);
    connect(action(u"showChanges"_s), &QAction::toggled, m_changes, &QWidget::setVisible);
    on(u"quit"_s, &QWidget::close);
    on(u"configure"_s, &MainWindow::showSettings);
    on(u"keyboardShortcuts"_s, &MainWindow::showShortcuts);
    on(u"about"_s, &MainWindow::about);
    connect(action(u"aboutQt"_s), &QAction::triggered, qApp, &QApplication::aboutQt);

    createSourceActions();
    createTrashActions();
    m_sidebar->setContextActions(m_actions->sessionContextActions());
}

QAction *MainWindow::action(const QString &name) const
{
    return m_actions->action(name);
}

bool MainWindow::openSession(const QString &sessionID, const QString &source)
{
    if (!m_sidebar->selectSession(sessionID, source))
        return false;
    showSession(sessionID, source);
    return true;
}

void MainWindow::showSession(const QString &sessionID, const QString &source)
{
    m_queued->setSessionID(sessionID);
    if (sessionID == m_current && source == m_currentSource)
        return;
    m_current = sessionID;
    m_currentSource = sessionID.isEmpty() ? QString() : source;
    m_sources->setCurrent(m_current, m_currentSource);
    // An error of sending belongs to the session it was sent to.
    m_notices->removeNotice(u"sendError"_s);
    m_notices->removeNotice(u"runError"_s);
    m_timeline->setSession(m_controller->serviceFor(m_currentSource), sessionID);
    m_todos->setSession(m_controller->serviceFor(m_currentSource), sessionID);
    m_composer->setSessionID(sessionID);
    // Files are attached from the project of a session of Weft's own store: as listed, or read
    // off the GUI thread while the list is still loading.
    const std::optional<Session> shown = sessionID.isEmpty() || !m_currentSource.isEmpty()
        ? std::nullopt
        : m_sessions->session(sessionID);
    m_composer->setProjectDirectory(shown ? shown->directory() : QString());
    if (!shown && !sessionID.isEmpty() && m_currentSource.isEmpty()) {
        whenFinished(QtConcurrent::run([service = m_controller->sharedService(), sessionID] { return service->get(sessionID); }),
                     this, [this, sessionID](const std::optional<Session> &session) {
                         if (session && sessionID == m_current && m_currentSource.isEmpty())
                             m_composer->setProjectDirectory(session->directory());
                     });
    }
    updateProjectChoices();
    updateSourceState();
    m_composer->setRunning(m_controller && m_controller->isBusy(sessionID));
    // The changes pane reads Weft's store or a server's; OpenCode's folder's sessions show their
    // diff once copied.
    const bool withChanges = m_currentSource.isEmpty() || currentServer();
    m_changes->setService(m_controller->serviceFor(m_currentSource));
    m_changes->setSessionID(withChanges ? sessionID : QString());
    updateHeader();
    updateActions();
    Q_EMIT currentSessionChanged(sessionID);
}

void MainWindow::updateHeader()
{
    const std::optional<Session> s = currentSessionInfo();
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
    updateContextMeter();
}

void MainWindow::updateActions()
{
    const std::optional<Session> s = currentSessionInfo();
    // OpenCode's folder is read-only here; a server's sessions run there.
    const ServerSource *server = currentServer();
    WindowActions::State state;
    state.session = s.has_value();
    state.archived = s && s->isArchived();
    state.writable = !m_service->isReadOnly() && m_currentSource.isEmpty();
    state.importable = !m_service->isReadOnly() && !m_currentSource.isEmpty() && !server;
    state.server = server != nullptr;
    state.runsHere = state.writable || (server && server->state() == ServerSource::State::Connected);
    state.busy = m_controller && m_controller->isBusy(m_current);
    state.runnable = state.session && state.runsHere && !state.busy && isRunnable(m_current);
    state.readOnly = m_service->isReadOnly();
    state.trash = m_service->has(StoreCapability::Trash);
    state.sessionFiles = m_service->has(StoreCapability::SessionFiles);
    m_actions->update(state);
    updateSessionNotices();
}

void MainWindow::updateProblems()
{
    m_problemCount = int(m_controller->problems().size());
    m_problemsButton->setVisible(m_problemCount > 0);
    m_problemsButton->setText(Style::plural(tr("%n problem(s)", nullptr, m_problemCount), m_problemCount));
}

void MainWindow::showProblems()
{
    ProblemsDialog dialog(m_controller->problems(), this);
    dialog.exec();
}

void MainWindow::newSession()
{
    SessionService::CreateOptions options;
    const std::optional<Session> current = currentSessionInfo();
    options.directory = current ? current->directory() : QDir::homePath();
    if (current)
        options.projectID = current->projectID();
    // Created off the GUI thread (it reads the store's projects); the list has the session before
    // the result comes (sessionCreated is queued first).
    whenFinished(QtConcurrent::run([service = m_service, options] { return service->create(options); }), this,
                 [this](const Result<Session> &created) {
                     if (!created) {
                         QMessageBox::warning(
                             this, tr("New Session"),
                             tr("The session could not be created:\n%1").arg(created.error().toString()));
                         return;
                     }
                     openSession(created->id());
                     m_composer->editor()->setFocus();
                 });
}

void MainWindow::forkSession(const QString &sessionID, const QString &messageID, const QString &prompt)
{
    if (sessionID.isEmpty() || m_sources->offerImportInstead(sessionID, tr("fork it")))
        return;
    m_forkPrompt = prompt;
    statusBar()->showMessage(tr("Forking…"));
    m_controller->fork(sessionID, messageID);
}

void MainWindow::onForked(const Session &session)
{
    // A server's fork is the server's session.
    const QString source = m_controller->sourceOf(session.id());
    if (source.isEmpty())
        m_sessions->refreshSession(session.id());
    openSession(session.id(), source);
    if (const QString prompt = std::exchange(m_forkPrompt, {}); !prompt.isEmpty()) {
        // The message forked from, ready to be edited and sent again.
        m_composer->setText(prompt);
        m_composer->editor()->setFocus();
    }
    statusBar()->showMessage(tr("Forked into “%1”").arg(session.title()), 5000);
    Q_EMIT forked(session.id());
}

void MainWindow::onFailed(SessionController::Operation operation, const QString &error)
{
    const ErrorWording::Text failure = ErrorWording::operationFailed(operation, error);
    switch (operation) {
    case SessionController::Operation::Fork:
    case SessionController::Operation::Import:
        statusBar()->clearMessage();
        QMessageBox::warning(this, failure.title, failure.text);
        break;
    case SessionController::Operation::UndoCompaction:
        QMessageBox::warning(this, failure.title, failure.text);
        updateActions();
        break;
    case SessionController::Operation::Revert:
        break;
    case SessionController::Operation::Unrevert:
        QMessageBox::warning(this, failure.title, failure.text);
        break;
    case SessionController::Operation::Connect:
        statusBar()->clearMessage();
        m_notices->showNotice(u"serverConnect"_s, NoticeBar::Kind::Error, failure.text,
                              {{tr("&Connect…"), u"network-connect"_s, u"connect"_s, [this] { m_sources->showConnectServer(); }}},
                              true);
        break;
    case SessionController::Operation::ServerRequest:
        statusBar()->clearMessage();
        showSendError(failure.text);
        updateActions();
        break;
    }
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
    whenFinished(m_controller->setArchived(s->id(), !s->isArchived()), this, [this](const Result<Session> &r) {
        if (!r)
            QMessageBox::warning(this, tr("Archive"), r.error().toString());
        else
            m_sidebar->selectSession(r->id());
    });
}

UserQuestions &MainWindow::questions()
{
    if (!m_questions)
        setUserQuestions(std::make_shared<DialogQuestions>(this));
    return *m_questions;
}

void MainWindow::setUserQuestions(std::shared_ptr<UserQuestions> questions)
{
    m_questions = std::move(questions);
    m_changes->setUserQuestions(m_questions);
}

bool MainWindow::confirm(const QString &title, const QString &text)
{
    return questions().confirm({title, text, tr("&Delete"), u"edit-delete"_s});
}

void MainWindow::deleteSession()
{
    if (ServerSource *server = currentServer()) {
        const std::optional<Session> s = currentSessionInfo();
        if (s && confirm(tr("Delete Session"),
                         tr("Delete the session “%1” on the OpenCode server %2, with its messages and subagent "
                            "sessions?\n\nThis cannot be undone.")
                             .arg(s->title(), server->url().toString())))
            (void)m_controller->remove(s->id()); // a refusal comes as failed(ServerRequest)
        return;
    }
    if (!m_sidebar->currentSource().isEmpty() || !m_currentSource.isEmpty())
        return; // OpenCode's sessions are OpenCode's to delete
    const QString id = m_sidebar->currentSessionID().isEmpty() ? m_current : m_sidebar->currentSessionID();
    const std::optional<Session> s = m_sessions->session(id);
    if (!s)
        return;
    // No question before a session goes to the trash: Undo brings it back at once (and for 30
    // days the trash does), and a question asked before every delete is soon answered without
    // reading. Only what cannot be undone (a server's session, Empty Trash) is confirmed.
    if (m_service->has(StoreCapability::Trash))
        return moveToTrash(*s);
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
    whenFinished(m_controller->remove(id), this, [this, title = s->title()](const Result<void> &r) {
        if (!r)
            QMessageBox::warning(this, tr("Delete Session"),
                                 tr("The session could not be deleted:\n%1").arg(r.error().toString()));
        else
            statusBar()->showMessage(tr("Deleted “%1”").arg(title), 5000);
    });
}

QFuture<Result<void>> MainWindow::exportSession(const QString &sessionID, const QString &path)
{
    // A session of OpenCode's source exports from OpenCode's data, as `opencode export` does.
    return m_controller->exportSession(sessionID, path, sessionID == m_current ? m_currentSource : QString());
}

void MainWindow::exportCurrent()
{
    const std::optional<Session> s = currentSessionInfo();
    if (!s)
        return;
    QString name = s->title();
    name.replace(QRegularExpression(u"[/\\\\:*?\"<>|]"_s), u"-"_s);
    const QString suggested = QDir::home().filePath(name.left(80) + u".json"_s);
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Export Session"), suggested, tr("OpenCode export (*.json)"));
    if (path.isEmpty())
        return;
    statusBar()->showMessage(tr("Exporting to %1…").arg(QDir::toNativeSeparators(path)));
    whenFinished(exportSession(s->id(), path), this, [this, path](const Result<void> &written) {
        statusBar()->clearMessage();
        if (!written)
            QMessageBox::warning(this, tr("Export Session"),
                                 tr("The session could not be exported:\n%1").arg(written.error().toString()));
        else
            statusBar()->showMessage(tr("Exported to %1").arg(QDir::toNativeSeparators(path)), 5000);
    });
}

void MainWindow::chooseImportFiles()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Import Sessions"), QDir::homePath(),
                                                            tr("OpenCode export (*.json);;All files (*)"));
    if (!paths.isEmpty())
        importFiles(paths);
}

void MainWindow::importFiles(const QStringList &paths)
{
    if (m_service->isReadOnly()) {
        m_notices->showNotice(u"import"_s, NoticeBar::Kind::Error,
                              tr("Sessions cannot be imported into a read-only store."));
        return;
    }
    statusBar()->showMessage(tr("Importing %n file(s)…", nullptr, int(paths.size())));
    struct Outcome {
        QString path;
        Result<Transfer::ImportResult> result;
    };
    const QFuture<QList<Outcome>> done = QtConcurrent::run([service = m_service, paths] {
        QList<Outcome> outcomes;
        for (const QString &path : paths)
            outcomes.append({path, Transfer::importFile(*service, path)});
        return outcomes;
    });
    whenFinished(done, this, [this](const QList<Outcome> &outcomes) {
        QStringList imported;
        QStringList failed;
        QStringList reasons;
        QStringList dropped;
        for (const Outcome &o : outcomes) {
            if (o.result) {
                imported.append(o.result->session.id());
                m_sessions->refreshSession(o.result->session.id());
                if (!o.result->droppedPermissions.isEmpty())
                    dropped.append(tr("%1: %2").arg(QFileInfo(o.path).fileName(),
                                                    Transfer::describeDropped(o.result->droppedPermissions)));
            } else {
                failed.append(o.path);
                reasons.append(tr("%1: %2").arg(QFileInfo(o.path).fileName(), o.result.error().message));
            }
        }
        if (failed.isEmpty())
            m_notices->removeNotice(u"import"_s);
        else
            m_notices->showNotice(u"import"_s, NoticeBar::Kind::Error,
                                  tr("%n file(s) could not be imported: %1", nullptr, int(failed.size()))
                                      .arg(reasons.join(u"; "_s)),
                                  {}, true);
        // What an imported file asked to be allowed is never granted silently.
        if (dropped.isEmpty())
            m_notices->removeNotice(u"importPermissions"_s);
        else
            m_notices->showNotice(u"importPermissions"_s, NoticeBar::Kind::Information,
                                  tr("Imported sessions keep only permission rules that deny: %1").arg(dropped.join(u"; "_s)),
                                  {}, true);
        if (!imported.isEmpty()) {
            openSession(imported.constLast());
            statusBar()->showMessage(tr("Imported %n session(s)", nullptr, int(imported.size())), 5000);
        } else {
            statusBar()->clearMessage();
        }
        Q_EMIT importsFinished(imported, failed);
    });
}

QStringList MainWindow::importableFiles(const QMimeData *data)
{
    QStringList files;
    if (!data || !data->hasUrls())
        return files;
    for (const QUrl &url : data->urls()) {
        if (!url.isLocalFile() || !url.toLocalFile().endsWith(u".json"_s, Qt::CaseInsensitive))
            return {}; // anything else dropped is not an import
        files.append(url.toLocalFile());
    }
    return files;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!m_service->isReadOnly() && !importableFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        QMainWindow::dragEnterEvent(event);
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList files = importableFiles(event->mimeData());
    if (files.isEmpty() || m_service->isReadOnly()) {
        QMainWindow::dropEvent(event);
        return;
    }
    event->acceptProposedAction();
    importFiles(files);
}

void MainWindow::revealDataFile()
{
    if (m_current.isEmpty() || !m_currentSource.isEmpty())
        return;
    const QString file = m_service->sessionFile(m_current);
    if (file.isEmpty())
        return;
    QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absolutePath()));
}

void MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_controller->configPath(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SettingsDialog::appearanceChanged, this,
            [this] { m_composer->setDefaultDelivery(Composer::savedDefaultDelivery()); });
    connect(dialog, &SettingsDialog::searchLimitsChanged, m_controller.get(), &SessionController::setSearchLimits);
    dialog->open();
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

void MainWindow::readSettings()
{
    QSettings settings;
    settings.beginGroup(u"MainWindow"_s);
    if (!restoreGeometry(settings.value(u"geometry"_s).toByteArray()))
        resize(1280, 820);
    restoreState(settings.value(u"state"_s).toByteArray());
    if (!m_splitter->restoreState(settings.value(u"splitter"_s).toByteArray()))
        m_splitter->setSizes({280, 640, 360}); // the changes pane: room for a diff
    if (!m_centerSplitter->restoreState(settings.value(u"centerSplitter"_s).toByteArray()))
        m_centerSplitter->setSizes({640, 120});
    action(u"showSidebar"_s)->setChecked(!m_sidebar->isHidden());
    action(u"showChanges"_s)->setChecked(!m_changes->isHidden());
    settings.endGroup();
    // What Enter does while the agent replies: queue the prompt (default) or steer it in.
    m_composer->setDefaultDelivery(Composer::savedDefaultDelivery());
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
    // Runs of this window stop with it (a server's go on there): ask first.
    const QStringList running = m_controller->runningHere();
    if (!running.isEmpty()) {
        QMessageBox box(QMessageBox::Question, tr("Quit Weft"),
                        tr("%n session(s) are still running here. Quitting stops them; what they wrote so far is kept.",
                           nullptr, int(running.size())),
                        QMessageBox::NoButton, this);
        box.setObjectName(u"quitWhileRunning"_s);
        QPushButton *stop = box.addButton(tr("Stop and Quit"), QMessageBox::DestructiveRole);
        stop->setObjectName(u"stopAndQuit"_s);
        QPushButton *keep = box.addButton(tr("Keep Window Open"), QMessageBox::RejectRole);
        keep->setObjectName(u"keepOpen"_s);
        box.setDefaultButton(keep);
        box.exec();
        if (box.clickedButton() != stop) {
            event->ignore();
            return;
        }
        m_controller->stopRunsHere();
    }
    writeSettings();
    QMainWindow::closeEvent(event);
}

// ---- running sessions

void MainWindow::connectController()
{
    SessionController *c = m_controller.get();
    connect(c, &SessionController::processorChanged, this, &MainWindow::applyProcessor);
    connect(c, &SessionController::busyChanged, this, &MainWindow::onBusyChanged);
    connect(c, &SessionController::runningElsewhereChanged, this, [this](const QString &sessionID, bool running) {
        m_sessions->setRunning(sessionID, running || m_controller->isBusy(sessionID));
        if (sessionID == m_current) {
            updateSourceState();
            updateActions();
        }
    });
    connect(c, &SessionController::interruptedRunsClosed, this, &MainWindow::showInterruptedRuns);
    for (const QString &sessionID : c->sessionsRunningElsewhere())
        m_sessions->setRunning(sessionID, true);
    const InterruptedRuns recovery = m_service->recovery();
    showInterruptedRuns(recovery.runs, recovery.sessions);
    connect(c, &SessionController::runFinished, this, &MainWindow::onRunFinished);
    connect(c, &SessionController::permissionRequested, this, &MainWindow::onPermissionRequested);
    connect(c, &SessionController::permissionClosed, this, &MainWindow::onPermissionClosed);
    connect(c, &SessionController::compactionStarted, this, &MainWindow::onCompactionStarted);
    connect(c, &SessionController::compactionFinished, this, &MainWindow::onCompactionFinished);
    connect(c, &SessionController::compactionSummaryChanged, this,
            [this](const QString &sessionID, const QString &text) {
                // The summary of the compaction the dialog follows.
                if (m_compactionDialog && m_compactionDialog->stage() == CompactionDialog::Stage::Running
                    && m_compactionDialog->sessionID() == sessionID)
                    m_compactionDialog->setSummaryText(text);
            });
    connect(c, &SessionController::compactionUndone, this, [this] {
        statusBar()->showMessage(tr("The compaction was undone: the model reads the whole conversation again."), 8000);
        updateActions();
    });
    connect(c, &SessionController::retrying, this,
            [this](const QString &sessionID, int attempt, qint64 delayMs, const MessageError &error) {
                if (sessionID == m_current)
                    statusBar()->showMessage(tr("%1 Retrying in %2 s (attempt %3)…")
                                                 .arg(error.message())
                                                 .arg(double(delayMs) / 1000.0, 0, 'f', 1)
                                                 .arg(attempt),
                                             int(delayMs) + 2000);
            });
    connect(c, &SessionController::forked, this, [this](const QString &, const Session &s) { onForked(s); });
    connect(c, &SessionController::imported, this, [this](const QString &, const Session &s) { onImported(s); });
    connect(c, &SessionController::revertChanged, this, [this](const Session &s) {
        m_unreverting.remove(s.id());
        m_sessions->refreshSession(s.id());
    });
    connect(c, &SessionController::failed, this,
            [this](SessionController::Operation operation, const QString &sessionID, const QString &error) {
                // A revert or an unrevert the changes pane asked for: the pane says it.
                const bool asked = operation != SessionController::Operation::Unrevert || m_unreverting.remove(sessionID);
                if (operation != SessionController::Operation::Revert && asked)
                    onFailed(operation, error);
            });
}

void MainWindow::applyProcessor()
{
    const QStringList agents = m_controller->agents();
    if (!agents.isEmpty())
        m_composer->setAgents(agents);
    m_composer->setModels(m_controller->availableModels());
    m_composer->setCurrentModel(m_controller->defaultModel());
    updateProjectChoices();
}

void MainWindow::updateProjectChoices()
{
    const QString sessionID = m_current;
    // Weft's own sessions: the project's config; an OpenCode 2 server's: what the server offers.
    const bool asks = m_controller && (m_currentSource.isEmpty() || m_controller->server(m_currentSource));
    const QFuture<SessionController::ProjectChoices> choices
        = asks ? m_controller->projectChoices(sessionID) : QtFuture::makeReadyValueFuture(SessionController::ProjectChoices());
    whenFinished(choices, this, [this, sessionID](const SessionController::ProjectChoices &choices) {
        if (sessionID != m_current)
            return; // another session was opened meanwhile
        if (!choices.agents.isEmpty())
            m_composer->setAgents(choices.agents);
        // The model the session used last stays chosen when its rows came first (the timeline's
        // loaded() chose it); else the default of what is offered.
        const bool rowsLoaded = m_timeline->sessionID() == sessionID && !m_timeline->isLoading();
        const QString used = rowsLoaded ? m_timeline->lastModel() : QString();
        if (!choices.models.isEmpty()) {
            const QString fallback = choices.defaultModel.isEmpty() ? choices.models.first() : choices.defaultModel;
            m_composer->setModels(choices.models, used.isEmpty() ? fallback : used);
            m_serverModelsShown = true;
        } else if (std::exchange(m_serverModelsShown, false)) {
            m_composer->setModels(m_controller->availableModels(), used.isEmpty() ? m_controller->defaultModel() : used);
        }
        QList<Composer::CommandChoice> commands;
        for (const SessionController::ProjectChoices::Command &c : choices.commands) {
            // An MCP prompt's arguments are given in its order: say which.
            commands.append({c.name, c.mcpArguments.isEmpty()
                                         ? c.description
                                         : tr("%1 (arguments: %2)").arg(c.description, c.mcpArguments.join(u' '))
                                               .trimmed()});
        }
        m_composer->setCommands(commands);
        m_composer->setResources(choices.resources);
        if (choices.error.isEmpty())
            m_notices->removeNotice(u"projectConfig"_s);
        else
            m_notices->showNotice(u"projectConfig"_s, NoticeBar::Kind::Error,
                                  tr("This project's configuration cannot be used, so prompts cannot be sent here until "
                                     "it is fixed: %1")
                                      .arg(choices.error),
                                  {}, true);
    });
}

bool MainWindow::isRunnable(const QString &sessionID) const
{
    // Sessions of OpenCode's folder are shown, not run; a server's run there.
    return m_controller && m_controller->isRunnable(sessionID)
        && m_timeline->service() == m_controller->serviceFor(m_controller->sourceOf(sessionID));
}

void MainWindow::showSendError(const QString &text)
{
    m_notices->showNotice(u"sendError"_s, NoticeBar::Kind::Error, text, {}, true);
}

void MainWindow::sendPrompt(const QString &sessionID, const QString &text, const QString &agent, const QString &model,
                            const QList<PromptAttachment> &attachments, PromptDelivery delivery)
{
    m_notices->removeNotice(u"sendError"_s);
    m_notices->removeNotice(u"runError"_s);
    if (!isRunnable(sessionID)) {
        showSendError(ErrorWording::readOnlySession());
        return;
    }
    // An imported session's folder is the file's choice: the user sees it before the first run.
    // The session as the list holds it: not read again on the GUI thread. One the list does not
    // hold (a server's) was never imported here, which needs no read to tell.
    if (SessionService *service = m_controller->serviceFor(m_controller->sourceOf(sessionID)); service) {
        const std::optional<Session> session = m_sessions->session(sessionID);
        if (session ? !ImportedDirectory::ensureAccepted(questions(), *service, *session)
                    : !service->checkDirectoryConfirmed(sessionID)) {
            showSendError(ErrorWording::importedFolderRefused());
            return;
        }
    }
    // A model that cannot be reached is said here, with what to do, before anything is written.
    const SessionController::PromptResult sent
        = m_controller->prompt(sessionID, text, agent, model, attachments, delivery);
    if (!sent.ok()) {
        showSendError(ErrorWording::promptNotSent(sent, model, m_controller->configPath()));
        return;
    }
    m_composer->clearText();
    if (sent.status == SessionController::PromptResult::Status::Steered)
        statusBar()->showMessage(tr("Sent into the running reply: the agent reads it after its current step"), 5000);
    m_timelineView->jumpToBottom();
}

void MainWindow::showInterruptedRuns(int runs, const QStringList &sessions)
{
    if (runs <= 0)
        return;
    m_notices->showNotice(u"interruptedRuns"_s, NoticeBar::Kind::Information, ErrorWording::interruptedRuns(runs), {},
                          true);
    for (const QString &sessionID : sessions)
        m_sessions->setRunning(sessionID, m_controller->isBusy(sessionID));
}

void MainWindow::onBusyChanged(const QString &sessionID, bool busy)
{
    m_sessions->setRunning(sessionID, busy || m_controller->runningElsewhere(sessionID));
    if (sessionID == m_current) {
        m_composer->setRunning(busy);
        updateActions();
    }
}

void MainWindow::onRunFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    if (m_compactionDialog && m_compactionDialog->sessionID() == sessionID
        && m_compactionDialog->stage() == CompactionDialog::Stage::Running)
        m_compactionDialog->setFailed(ErrorWording::compactionRunFailed(error));
    if (ok || sessionID != m_current || error.kind() == MessageError::Kind::Aborted)
        return;
    // Errors of a reply show in the timeline; one that ended the run before any reply did not.
    const int rows = m_timeline->rowCount();
    const QModelIndex last = rows > 0 ? m_timeline->index(rows - 1) : QModelIndex();
    if (last.isValid() && last.data(TimelineModel::ErrorTextRole).toString() == error.message())
        return;
    m_notices->showNotice(u"runError"_s, NoticeBar::Kind::Error, ErrorWording::runFailed(error), {}, true);
}

// ---- compaction

CompactionDialog *MainWindow::compactionDialog() const
{
    return m_compactionDialog;
}

void MainWindow::showCompaction(const QString &sessionID)
{
    if (!isRunnable(sessionID) || m_controller->isBusy(sessionID))
        return;
    if (const ServerSource *server = currentServer()) {
        // The server compacts with its own model and settings: no preview to show.
        if (!questions().confirm(
                {tr("Compact Session"),
                 tr("Ask the OpenCode server %1 to summarise this session's context with the model the session "
                    "uses? Later prompts continue from the summary; the older messages stay.")
                     .arg(server->url().toString()),
                 tr("&Compact"), u"weft-compact"_s, false, true}))
            return;
        (void)m_controller->compact(sessionID);
        statusBar()->showMessage(tr("Compacting on the server…"));
        return;
    }
    if (m_compactionDialog) {
        m_compactionDialog->raise();
        m_compactionDialog->activateWindow();
        return;
    }
    auto *dialog = new CompactionDialog(sessionID, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_compactionDialog = dialog;
    connect(dialog, &CompactionDialog::compactRequested, this, &MainWindow::startCompaction);
    connect(dialog, &CompactionDialog::cancelRequested, this,
            [this, dialog] { m_controller->stop(dialog->sessionID()); });
    dialog->open();
    // The preview reads every message of the session: off the GUI thread.
    whenFinished(m_controller->previewCompaction(sessionID), dialog,
                 [dialog](const Result<CompactionPreview> &preview) { dialog->setPreview(preview); });
}

void MainWindow::startCompaction()
{
    CompactionDialog *dialog = m_compactionDialog;
    if (!dialog)
        return;
    const Result<QString> started = m_controller->compact(dialog->sessionID(), dialog->preview());
    if (!started) {
        dialog->setFailed(tr("The compaction could not start: %1").arg(started.error().toString()));
        return;
    }
    dialog->setRunning();
}

void MainWindow::onCompactionStarted(const QString &sessionID, bool automatic)
{
    if (automatic && sessionID == m_current)
        statusBar()->showMessage(tr("The context is full: compacting it before the agent goes on…"));
}

void MainWindow::onCompactionFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    CompactionDialog *dialog = m_compactionDialog;
    const bool followed
        = dialog && dialog->sessionID() == sessionID && dialog->stage() == CompactionDialog::Stage::Running;
    if (ok) {
        if (followed)
            dialog->accept();
        if (sessionID == m_current)
            statusBar()->showMessage(tr("Compacted: the next prompt continues from the summary."), 8000);
    } else {
        const QString text = ErrorWording::compactionFailed(error);
        if (followed)
            dialog->setFailed(text);
        else if (sessionID == m_current)
            statusBar()->showMessage(text, 8000);
    }
    updateActions();
}

bool MainWindow::canUndoCompaction() const
{
    if (!isRunnable(m_current) || m_timeline->isLoading())
        return false;
    // An undoable compaction is the end of the session: its marker, the summary and perhaps the
    // synthetic "Continue" message. Compaction::planUndo over the last rows answers as over all.
    QList<MessageWithParts> tail;
    const int rows = m_timeline->rowCount();
    for (int row = std::max(0, rows - 4); row < rows; ++row) {
        const QModelIndex index = m_timeline->index(row);
        tail.append({index.data(TimelineModel::MessageRole).value<Message>(),
                     index.data(TimelineModel::PartsRole).value<QList<Part>>()});
    }
    return m_controller->canUndoCompaction(m_current, tail);
}

void MainWindow::undoCompaction()
{
    if (!canUndoCompaction())
        return;
    action(u"undoCompaction"_s)->setEnabled(false);
    m_notices->removeNotice(u"compactionUndo"_s);
    m_controller->undoCompaction(m_current);
}

// ---- permissions

QString MainWindow::permissionWhat(const QString &permission)
{
    if (ToolNames::kind(permission) == ToolNames::Kind::Shell)
        return MainWindow::tr("run a command");
    if (permission == u"edit")
        return MainWindow::tr("change files");
    if (permission == u"read")
        return MainWindow::tr("read files");
    if (permission == u"external_directory")
        return MainWindow::tr("work outside the project folder");
    if (permission == u"doom_loop")
        return MainWindow::tr("repeat the same tool call once more");
    if (permission == u"webfetch")
        return MainWindow::tr("fetch a web page");
    if (ToolNames::kind(permission) == ToolNames::Kind::Subagent)
        return MainWindow::tr("start a subagent");
    return MainWindow::tr("use “%1”").arg(permission);
}

void MainWindow::onPermissionRequested(const PermissionRequest &request)
{
    // A command is shown as the model wrote it; the patterns name each of its commands twice
    // (as written and as run).
    QString what = request.patterns.join(u", "_s);
    if (ToolNames::kind(request.permission) == ToolNames::Kind::Shell && request.metadata.value(u"command").isString())
        what = request.metadata.string(u"command");
    if (what.size() > 500)
        what = what.left(500) + u'…';
    QString text = tr("The agent asks to %1: %2").arg(permissionWhat(request.permission), what);
    if (request.unresolved)
        text += u'\n' + tr("Weft cannot see every command this runs, so no rule could allow it.");
    if (!m_controller->isWithin(request.sessionID, m_current)) {
        const std::optional<Session> s = m_sessions->session(request.sessionID);
        text = tr("In “%1”: %2").arg(s ? s->title() : request.sessionID, text);
    } else {
        text += u'\n' + tr("The tool call marked “Needs approval” waits for your answer.");
    }
    const QString id = request.id;
    SessionController *c = m_controller.get();
    QWidget *notice = m_notices->showNotice(
        u"permission-"_s + id, NoticeBar::Kind::Question, text,
        {{tr("Allow &Once"), u"dialog-ok"_s, u"allowOnce"_s,
          [c, id] { c->answerPermission(id, PermissionReply::Once); }},
         {tr("Allow &Always"), QString(), u"allowAlways"_s,
          [c, id] { c->answerPermission(id, PermissionReply::Always); }},
         {tr("&Deny"), u"dialog-cancel"_s, u"deny"_s, [c, id] { c->answerPermission(id, PermissionReply::Reject); }}});
    if (QPushButton *always = m_notices->button(u"permission-"_s + id, u"allowAlways"_s))
        always->setToolTip(tr("Allow this and the same again until Weft quits, for this session: %1")
                               .arg((request.patterns + request.always).join(u", "_s).left(1000)));
    notice->setToolTip(QString::fromUtf8(toJson(request.metadata, 2)).left(2000));
    m_timelineView->setAwaitingPermission(request.messageID, request.callID, true);
    if (m_timelineView->isPinnedToBottom())
        m_timelineView->jumpToBottom();
    QApplication::alert(this);
}

void MainWindow::onPermissionClosed(const PermissionRequest &request)
{
    // Answered, or its run ended (or was stopped): the question can no longer be answered.
    m_notices->removeNotice(u"permission-"_s + request.id);
    m_timelineView->setAwaitingPermission(request.messageID, request.callID, false);
}

// ---- revert, notices, context

void MainWindow::unrevert()
{
    if (isRunnable(m_current) && m_controller->unrevert(m_current))
        m_unreverting.insert(m_current);
}

void MainWindow::updateSessionNotices()
{
    if (!m_controller || !m_notices)
        return;
    // Undo of the last compaction, while possible.
    const bool undo = canUndoCompaction();
    if (QAction *a = action(u"undoCompaction"_s))
        a->setEnabled(undo);
    if (undo) {
        QString text = tr("The conversation was compacted; the next prompt continues from the summary.");
        if (const std::optional<SessionController::CompactionTokens> result
            = m_controller->compactionResult(m_current)) {
            const QLocale locale;
            text
                = tr("The conversation was compacted (%1); the next prompt continues from the summary.")
                      .arg(tr("~%1 → ~%2 tokens").arg(locale.toString(result->before), locale.toString(result->after)));
        }
        if (m_notices->noticeText(u"compactionUndo"_s) != text)
            m_notices->showNotice(
                u"compactionUndo"_s, NoticeBar::Kind::Positive, text,
                {{tr("&Undo Compaction"), u"edit-undo"_s, u"undoCompaction"_s, [this] { undoCompaction(); }}});
    } else {
        m_notices->removeNotice(u"compactionUndo"_s);
    }

    // A pending revert: its messages are hidden until the next prompt drops them.
    const std::optional<Session> s = m_current.isEmpty() || m_timeline->service() != m_service.get()
        ? std::nullopt
        : m_sessions->session(m_current);
    const JsonObject revert = s && s->hasRevert() ? s->revert() : JsonObject();
    m_timelineView->setRevert(revert.string(u"messageID"), revert.string(u"partID"));
    if (s && s->hasRevert()) {
        const int hidden = m_timelineView->hiddenMessageCount();
        const QString text = Style::plural(tr("%n message(s) reverted: the files are back as they were before. The "
                                              "next prompt discards them for good.",
                                              nullptr, hidden),
                                           hidden);
        if (m_notices->noticeText(u"revert"_s) != text)
            m_notices->showNotice(u"revert"_s, NoticeBar::Kind::Information, text,
                                  {{tr("U&nrevert"), u"edit-redo"_s, u"unrevert"_s, [this] { unrevert(); }}});
    } else {
        m_notices->removeNotice(u"revert"_s);
    }
}

void MainWindow::updateContextMeter()
{
    ContextMeter *meter = contextMeter();
    meter->setTokens(m_timeline->contextTokens());
    meter->setCost(m_timeline->totalCost());
    if (!m_controller)
        return;
    // The limit of the model the next prompt uses, as the controller decides it for a prompt.
    PromptRequest request;
    request.sessionID = m_current;
    request.agent = m_composer->currentAgent();
    request.model = m_composer->currentModel();
    if (request.model.isEmpty())
        request.model = m_timeline->lastModel();
    // As listed: not read again on the GUI thread.
    if (!m_current.isEmpty() && m_currentSource.isEmpty())
        request.session = m_sessions->session(m_current);
    else if (!m_currentSource.isEmpty() && !currentServer())
        request.sessionID.clear(); // OpenCode's session, not run here: the model as for a new prompt
    const SessionController::PromptResult check = m_controller->checkPrompt(request);
    const qint64 limit = check.contextLimit;
    meter->setLimit(limit);
    // OpenCode's overflow: input + cache.read + output > context - min(output limit, 32000).
    meter->setThreshold(limit > 0 && check.compactAt > 0 ? double(check.compactAt) / double(limit) : 0.0);
}

void MainWindow::showShortcuts()
{
    if (!m_shortcuts) {
        m_shortcuts = new ShortcutsDialog(this, this);
        m_shortcuts->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_shortcuts->show();
    m_shortcuts->raise();
    m_shortcuts->activateWindow();
}

} // namespace weft
