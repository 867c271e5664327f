// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"
#include "core/toolnames.h"
#include "importeddirectory.h"

#include "app/mcpservers.h"
#include "app/serversource.h"

#include "appearance.h"
#include "attentioninbox.h"
#include "bestoflauncher.h"
#include "boardview.h"
#include "changespane.h"
#include "compactiondialog.h"
#include "composer.h"
#include "contextmeter.h"
#include "core/logging.h"
#include "errorwording.h"
#include "findbar.h"
#include "noticebar.h"
#include "panearea.h"
#include "queuedprompts.h"
#include "problemsdialog.h"
#include "shortcutsdialog.h"
#include "sourcespresenter.h"
#include "startupgate.h"
#include "core/async.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "sessionpane.h"
#include "sessionsidebar.h"
#include "settingsdialog.h"
#include "style.h"
#include "timelineview.h"
#include "userquestions.h"
#include "windowactions.h"
#include "worktreepresenter.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMouseEvent>
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

#include <utility>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// Until it goes: watches every paint of the application for the one @p isFirstFrame names, and
/// opens @p gate once that frame is flushed (the next turn of the event loop).
class FirstFrameWatch : public QObject
{
public:
    FirstFrameWatch(StartupGate *gate, std::function<bool(QObject *)> isFirstFrame)
        : QObject(gate)
        , m_gate(gate)
        , m_isFirstFrame(std::move(isFirstFrame))
    {
        qApp->installEventFilter(this);
        connect(gate, &StartupGate::opened, this, &QObject::deleteLater);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && m_isFirstFrame(watched))
            QTimer::singleShot(0, m_gate, &StartupGate::open);
        return false;
    }

private:
    StartupGate *m_gate;
    std::function<bool(QObject *)> m_isFirstFrame;
};
} // namespace

MainWindow::MainWindow(std::unique_ptr<SessionController> controller, QWidget *parent)
    : QMainWindow(parent)
    , m_service(controller->sharedService())
    , m_dataDir(controller->dataDir())
    , m_controller(std::move(controller))
    , m_sessions(new SessionsModel(m_service.get(), this))
    , m_tree(new SessionTreeModel(m_sessions, this))
{
    setObjectName(u"mainWindow"_s);
    setWindowIcon(Appearance::applicationIcon());
    setAcceptDrops(true); // export files dropped anywhere but on the composer are imported

    // Made before the panes: their git work waits for it.
    m_startupGate = new StartupGate(this);
    new FirstFrameWatch(m_startupGate, [this](QObject *painted) {
        const SessionPane *pane = currentPane();
        return pane && painted == pane->timelineView()->viewport() && !pane->timelineModel()->sessionID().isEmpty()
            && !pane->timelineModel()->isLoading();
    });
    m_sidebar = new SessionSidebar(m_tree, this);
    m_notices = new NoticeBar(this);
    m_panes = new PaneArea([this] { return makePane(); }, this);

    auto *center = new QWidget(this);
    auto *centerLayout = new QVBoxLayout(center);
    centerLayout->setContentsMargins(0, 0, 0, 0);
    centerLayout->setSpacing(0);
    centerLayout->addWidget(m_panes, 1);
    centerLayout->addWidget(m_notices);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(u"mainSplitter"_s);
    m_splitter->addWidget(m_sidebar);
    m_splitter->addWidget(center);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
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

    // The sidebar's current row is shown in the focused pane; a middle click or a Ctrl+click
    // opens a row in a new tab (eventFilter()).
    connect(m_sidebar->view()->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        const QString id = m_sidebar->currentSessionID();
        if (id.isEmpty())
            return;
        // A tab that shows it already is focused.
        if (SessionPane *shown = m_panes->paneShowing(id, m_sidebar->currentSource()))
            m_panes->setCurrentPane(shown, false);
        else
            showSession(id, m_sidebar->currentSource());
    });
    m_sidebar->view()->viewport()->installEventFilter(this);
    connect(m_panes, &PaneArea::currentPaneChanged, this, &MainWindow::onCurrentPaneChanged);
    connect(m_sessions, &QAbstractItemModel::rowsRemoved, this, [this] {
        // A session deleted elsewhere: its tabs close; the focused one shows the sidebar's choice.
        for (SessionPane *pane : m_panes->panes()) {
            if (pane->sessionID().isEmpty() || !pane->source().isEmpty() || m_sessions->indexForId(pane->sessionID()).isValid())
                continue;
            if (pane == currentPane())
                showSession(m_sidebar->currentSessionID(), m_sidebar->currentSource());
            else
                m_panes->closePane(pane);
        }
    });

    // Running sessions: the composer asks, the controller does.
    m_controller->setSessionLookup([this](const QString &id) { return m_sessions->session(id); });
    // Renaming in the sidebar goes through the controller, as every operation on a session.
    m_sessions->setRenamer([this](const QString &id, const QString &title) {
        return m_controller->rename(id, title);
    });
    connectController();
    m_attention = new AttentionInbox(this);
    m_board = new Board(this);
    new BestOfLauncher(this); // Session › Run on Several Models…
    m_worktrees = new WorktreePresenter(this);

    readSettings();
    setupSources();
    setupMcpNotices();
    onCurrentPaneChanged();

    // Once the list is in: the tabs of the last time (those whose session is still there), else
    // the most recent session. A session opened before (`weft --session ID`: its first page
    // loads while the list does) stays if the list has it, now selected in the sidebar.
    const auto start = [this] {
            const QString shown = currentSessionID();
            const QString atStart = std::exchange(m_openedAtStart, QString());
            if (!shown.isEmpty() && shown != atStart)
                return;
            if (!shown.isEmpty()) {
                if (m_sessions->session(shown)) {
                    onCurrentPaneChanged(); // the sidebar selects it
                    return;
                }
                showSession({}); // not in the store: the start goes on as without it
            }
            const QVariantMap layout = QSettings().value(u"MainWindow/panes"_s).toMap();
            const auto exists = [this](const QString &id, const QString &source) {
                const SessionsModel *sessions = m_tree->sessionsModel(source);
                return sessions && sessions->session(id).has_value();
            };
            if (m_panes->restoreLayout(layout, exists)) {
                onCurrentPaneChanged();
                return;
            }
            for (const Session &s : m_sessions->sessions()) {
                if (!s.isArchived() && s.parentID().isEmpty()) {
                    openSession(s.id());
                    break;
                }
            }
    };
    // The newest sessions are enough to open the newest one; the tabs of the last time, or a
    // session shown at start that is not among them, wait for all.
    connect(
        m_sessions, &SessionsModel::newestLoaded, this,
        [this, start] {
            const QString shown = currentSessionID();
            if (!m_sessions->isLoaded()
                && ((!shown.isEmpty() && !m_sessions->session(shown)) || !QSettings().value(u"MainWindow/panes"_s).toMap().isEmpty()))
                connect(m_sessions, &SessionsModel::loaded, this, start, Qt::SingleShotConnection);
            else
                start();
        },
        Qt::SingleShotConnection);
    // No session to show at start: no frame to wait for.
    connect(
        m_sessions, &SessionsModel::loaded, m_startupGate,
        [this] {
            if (currentSessionID().isEmpty())
                m_startupGate->open();
        },
        Qt::SingleShotConnection);
}

SessionPane *MainWindow::makePane()
{
    auto *pane = new SessionPane(m_controller.get(), m_tree, m_startupGate);
    pane->splitter()->restoreState(m_paneSplitterState);
    pane->centerSplitter()->restoreState(m_centerSplitterState);
    if (m_questions)
        pane->changesPane()->setUserQuestions(m_questions);
    Composer *composer = pane->composer();
    connect(composer, &Composer::sendRequested, this,
            [this, pane](const QString &sessionID, const QString &text, const QString &agent, const QString &model,
                         const QList<PromptAttachment> &attachments, PromptDelivery delivery) {
                sendPrompt(pane, sessionID, text, agent, model, attachments, delivery);
            });
    connect(composer, &Composer::compactRequested, this, &MainWindow::showCompaction);
    connect(composer, &Composer::importRequested, this, [this](const QString &sessionID) { m_sources->importSession(sessionID); });
    connect(pane->timelineView(), &TimelineView::forkRequested, this, &MainWindow::forkSession);
    connect(pane, &SessionPane::stateChanged, this, [this, pane] {
        if (pane == currentPane()) {
            updateHeader();
            updateActions();
        }
    });
    const auto notices = [this, pane] {
        if (pane == currentPane())
            updateSessionNotices();
    };
    connect(pane, &SessionPane::rowsChanged, this, notices);
    connect(pane, &SessionPane::projectErrorChanged, this, notices);
    return pane;
}

SessionPane *MainWindow::currentPane() const
{
    return m_panes->currentPane();
}

void MainWindow::onCurrentPaneChanged()
{
    SessionPane *pane = currentPane();
    if (!pane || !m_sources)
        return;
    const QString sessionID = pane->sessionID();
    const QString source = pane->source();
    const bool changed = sessionID != m_shownSession || source != m_shownSource;
    m_shownSession = sessionID;
    m_shownSource = source;
    m_sources->setCurrent(sessionID, source);
    if (changed) {
        // An error of sending belongs to the session it was sent to.
        m_notices->removeNotice(u"sendError"_s);
        m_notices->removeNotice(u"runError"_s);
    }
    // The sidebar shows the focused pane's session (none: no row, so that a click opens one).
    if (sessionID.isEmpty())
        m_sidebar->view()->selectionModel()->clearCurrentIndex();
    else if (m_sidebar->currentSessionID() != sessionID || m_sidebar->currentSource() != source)
        m_sidebar->selectSession(sessionID, source);
    updateHeader();
    updateActions();
    if (changed)
        Q_EMIT currentSessionChanged(sessionID);
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
    connect(mcp, &McpServers::serverChanged, this, [this] {
        for (SessionPane *pane : m_panes->panes())
            pane->updateProjectChoices();
    });
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
    delete m_board; // it follows the inbox and the runs stopped below
    m_board = nullptr;
    delete m_attention; // no notifications about the runs stopped below
    m_attention = nullptr;
    // The controller waits for its work off the GUI thread, then stops the runs and waits for them.
    disconnect(m_controller.get(), nullptr, this, nullptr);
    m_controller.reset();
}

// ---- the focused pane's parts

TimelineModel *MainWindow::timelineModel() const
{
    return currentPane()->timelineModel();
}

TimelineView *MainWindow::timelineView() const
{
    return currentPane()->timelineView();
}

Composer *MainWindow::composer() const
{
    return currentPane()->composer();
}

ContextMeter *MainWindow::contextMeter() const
{
    return currentPane()->contextMeter();
}

ChangesPane *MainWindow::changesPane() const
{
    return currentPane()->changesPane();
}

QueuedPromptsView *MainWindow::queuedPrompts() const
{
    return currentPane()->queuedPrompts();
}

FindBar *MainWindow::findBar() const
{
    return currentPane()->findBar();
}

QSplitter *MainWindow::centerSplitter() const
{
    return currentPane()->centerSplitter();
}

QString MainWindow::currentSessionID() const
{
    return currentPane()->sessionID();
}

QString MainWindow::currentSource() const
{
    return currentPane()->source();
}

SessionPane *MainWindow::paneFor(const QString &sessionID) const
{
    if (currentPane()->sessionID() == sessionID)
        return currentPane();
    for (SessionPane *pane : m_panes->panes()) {
        if (pane->sessionID() == sessionID)
            return pane;
    }
    return nullptr;
}

QList<SessionPane *> MainWindow::panesWithin(const QString &sessionID) const
{
    QList<SessionPane *> within;
    for (SessionPane *pane : m_panes->panes()) {
        if (!pane->sessionID().isEmpty() && m_controller->isWithin(sessionID, pane->sessionID()))
            within.append(pane);
    }
    return within;
}

void MainWindow::createActions()
{
    m_actions = new WindowActions(this);
    // Find Next and Previous, and the Edit menu's copy actions, act on the focused pane.
    const auto forward = [this](const QString &name, const QString &text, const QString &icon,
                                const QKeySequence &shortcut, Qt::ShortcutContext context,
                                std::function<QAction *(SessionPane *)> target) {
        auto *a = new QAction(icon.isEmpty() ? QIcon() : Style::icon(icon), text, this);
        a->setObjectName(name);
        a->setShortcut(shortcut);
        a->setShortcutContext(context);
        connect(a, &QAction::triggered, this, [this, target] { target(currentPane())->trigger(); });
        m_actions->add(name, a);
        return a;
    };
    addAction(forward(u"findNext"_s, tr("Find &Next"), u"go-down"_s, QKeySequence::FindNext, Qt::WindowShortcut,
                      [](SessionPane *p) { return p->findBar()->findNextAction(); }));
    addAction(forward(u"findPrevious"_s, tr("Find Pre&vious"), u"go-up"_s, QKeySequence::FindPrevious,
                      Qt::WindowShortcut, [](SessionPane *p) { return p->findBar()->findPreviousAction(); }));
    // The timeline's copy actions answer in the timeline (their shortcuts there); the menu's
    // copies show the shortcuts and act on the focused pane's.
    const QList<QAction *> copyActions{
        forward(u"copyText"_s, tr("&Copy Text"), u"edit-copy"_s, QKeySequence::Copy, Qt::WidgetWithChildrenShortcut,
                [](SessionPane *p) { return p->timelineView()->copyTextAction(); }),
        forward(u"copyMarkdown"_s, tr("Copy as &Markdown"), QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                Qt::WidgetWithChildrenShortcut, [](SessionPane *p) { return p->timelineView()->copyMarkdownAction(); }),
        forward(u"selectAllText"_s, tr("Select &All"), QString(), QKeySequence::SelectAll,
                Qt::WidgetWithChildrenShortcut, [](SessionPane *p) { return p->timelineView()->selectAllTextAction(); })};
    m_actions->createMenus(this, copyActions);

    // What each action does.
    const auto on = [this](const QString &name, auto slot) { connect(action(name), &QAction::triggered, this, slot); };
    on(u"newSession"_s, &MainWindow::newSession);
    on(u"forkSession"_s, [this] {
        if (!currentSessionID().isEmpty())
            forkSession(currentSessionID(), {});
    });
    on(u"renameSession"_s, &MainWindow::renameSession);
    on(u"archiveSession"_s, &MainWindow::toggleArchived);
    m_sidebar->view()->addAction(action(u"deleteSession"_s));
    on(u"deleteSession"_s, &MainWindow::deleteSession);
    on(u"exportSession"_s, &MainWindow::exportCurrent);
    on(u"importSession"_s, &MainWindow::chooseImportFiles);
    on(u"revealDataFile"_s, &MainWindow::revealDataFile);
    on(u"find"_s, [this] {
        if (!currentSessionID().isEmpty())
            findBar()->activate();
    });
    on(u"filterSessions"_s, [this] {
        m_sidebar->show();
        m_sidebar->focusFilter();
    });
    action(u"compact"_s)->setToolTip(composer()->compactButton()->toolTip());
    on(u"compact"_s, [this] {
        if (!m_sources->offerImportInstead(currentSessionID(), tr("compact it")))
            composer()->compact();
    });
    on(u"undoCompaction"_s, &MainWindow::undoCompaction);
    on(u"stop"_s, [this] { composer()->stop(); });
    on(u"jumpToLatest"_s, [this] { timelineView()->jumpToBottom(); });
    connect(action(u"showSidebar"_s), &QAction::toggled, m_sidebar, &QWidget::setVisible);
    connect(action(u"showChanges"_s), &QAction::toggled, this, [this](bool shown) { currentPane()->setChangesShown(shown); });
    on(u"quit"_s, &QWidget::close);
    on(u"configure"_s, &MainWindow::showSettings);
    on(u"keyboardShortcuts"_s, &MainWindow::showShortcuts);
    on(u"about"_s, &MainWindow::about);
    connect(action(u"aboutQt"_s), &QAction::triggered, qApp, &QApplication::aboutQt);

    // The View menu: after Show Changes, the tabs and groups.
    for (QAction *menu : menuBar()->actions()) {
        if (menu->menu() && menu->menu()->actions().contains(action(u"showChanges"_s))) {
            createPaneActions(menu->menu());
            break;
        }
    }
    createSourceActions();
    createTrashActions();
    m_sidebar->setContextActions(m_actions->sessionContextActions());
}

void MainWindow::createPaneActions(QMenu *view)
{
    const auto make = [this](const QString &name, const QString &text, const QString &icon,
                             const QList<QKeySequence> &shortcuts, auto slot) {
        auto *a = new QAction(icon.isEmpty() ? QIcon() : Style::icon(icon), text, this);
        a->setObjectName(name);
        a->setShortcuts(shortcuts);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        m_actions->add(name, a);
        return a;
    };
    QList<QAction *> actions{
        make(u"newTab"_s, tr("Open in New &Tab"), u"tab-new"_s, {QKeySequence(Qt::CTRL | Qt::Key_T)},
             [this] {
                 // The sidebar's session, else the focused pane's, in a tab of its own.
                 const QString id = m_sidebar->currentSessionID();
                 openSessionInNewTab(id.isEmpty() ? currentSessionID() : id,
                                     id.isEmpty() ? currentSource() : m_sidebar->currentSource());
             }),
        make(u"closeTab"_s, tr("&Close Tab"), u"tab-close"_s, {QKeySequence(Qt::CTRL | Qt::Key_W)},
             [this] { m_panes->closePane(currentPane()); }),
        make(u"splitRight"_s, tr("Split &Right"), u"view-split-left-right"_s,
             {QKeySequence(Qt::CTRL | Qt::Key_Backslash)}, [this] { m_panes->splitCurrent(Qt::Horizontal); }),
        make(u"splitDown"_s, tr("Split &Down"), u"view-split-top-bottom"_s,
             {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backslash)}, [this] { m_panes->splitCurrent(Qt::Vertical); }),
        make(u"moveTabToWindow"_s, tr("&Move Tab to New Window"), u"window-new"_s, {},
             [this] { m_panes->moveToNewWindow(currentPane()); }),
        make(u"nextTab"_s, tr("&Next Tab"), u"go-next"_s, {QKeySequence(Qt::CTRL | Qt::Key_Tab)},
             [this] { m_panes->cycleTab(1); }),
        make(u"previousTab"_s, tr("&Previous Tab"), u"go-previous"_s,
             {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab)},
             [this] { m_panes->cycleTab(-1); })};
    QAction *before = view->actions().value(2);
    view->insertSeparator(before);
    view->insertActions(before, actions);
    // Ctrl+1…9: the tabs of the focused group (the ninth: the last).
    for (int n = 0; n < 9; ++n) {
        auto *a = new QAction(this);
        a->setObjectName(u"goToTab%1"_s.arg(n + 1));
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + n)));
        connect(a, &QAction::triggered, this, [this, n] { m_panes->goToTab(n); });
        addAction(a);
    }
}

QAction *MainWindow::action(const QString &name) const
{
    return m_actions->action(name);
}

bool MainWindow::openSession(const QString &sessionID, const QString &source)
{
    // A tab that shows it already is focused; else the focused tab shows it.
    if (SessionPane *shown = m_panes->paneShowing(sessionID, source); shown && !sessionID.isEmpty()) {
        m_panes->setCurrentPane(shown, false); // the sidebar follows (onCurrentPaneChanged())
        return true;
    }
    if (!m_sidebar->selectSession(sessionID, source))
        return false;
    showSession(sessionID, source);
    return true;
}

void MainWindow::openAtStart(const QString &sessionID)
{
    m_openedAtStart = sessionID;
    showSession(sessionID);
}

bool MainWindow::openSessionInNewTab(const QString &sessionID, const QString &source)
{
    if (sessionID.isEmpty() || !m_tree->revealSession(sessionID, source).isValid())
        return false;
    // The new tab shows the changes pane as the focused one does.
    const bool changes = currentPane()->changesShown();
    SessionPane *pane = currentPane()->sessionID().isEmpty() ? currentPane() : m_panes->addTab();
    pane->setChangesShown(changes);
    pane->setSession(sessionID, source);
    m_panes->setCurrentPane(pane);
    updateActions();
    return true;
}

void MainWindow::showSession(const QString &sessionID, const QString &source)
{
    // The pane says it changed (PaneArea::currentPaneChanged): onCurrentPaneChanged().
    currentPane()->setSession(sessionID, source);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    // A middle click or a Ctrl+click on a session in the sidebar opens it in a new tab.
    if (watched == m_sidebar->view()->viewport() && event->type() == QEvent::MouseButtonPress) {
        auto *press = static_cast<QMouseEvent *>(event);
        const bool newTab = press->button() == Qt::MiddleButton
            || (press->button() == Qt::LeftButton && (press->modifiers() & Qt::ControlModifier));
        const QModelIndex index = m_sidebar->view()->indexAt(press->position().toPoint());
        const QModelIndex row = m_sidebar->proxy()->mapToSource(index);
        const QString id = m_tree->sessionID(row);
        if (newTab && !id.isEmpty()) {
            openSessionInNewTab(id, m_tree->sourceOf(row));
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::updateHeader()
{
    const std::optional<Session> s = currentSessionInfo();
    setWindowTitle(s ? s->title() : QString());
}

void MainWindow::updateActions()
{
    const std::optional<Session> s = currentSessionInfo();
    // OpenCode's folder is read-only here; a server's sessions run there.
    const ServerSource *server = currentServer();
    WindowActions::State state;
    state.session = s.has_value();
    state.archived = s && s->isArchived();
    const QString current = currentSessionID();
    const bool foreign = !currentSource().isEmpty();
    state.writable = !m_service->isReadOnly() && !foreign;
    state.importable = !m_service->isReadOnly() && foreign && !server;
    state.server = server != nullptr;
    state.runsHere = state.writable || (server && server->state() == ServerSource::State::Connected);
    state.busy = m_controller && m_controller->isBusy(current);
    state.runnable = state.session && state.runsHere && !state.busy && isRunnable(current);
    state.readOnly = m_service->isReadOnly();
    state.trash = m_service->has(StoreCapability::Trash);
    state.sessionFiles = m_service->has(StoreCapability::SessionFiles);
    m_actions->update(state);
    const bool several = m_panes->panes().size() > 1;
    action(u"closeTab"_s)->setEnabled(several || !current.isEmpty());
    action(u"moveTabToWindow"_s)->setEnabled(several && !m_panes->windowOf(currentPane()));
    action(u"nextTab"_s)->setEnabled(several);
    action(u"previousTab"_s)->setEnabled(several);
    action(u"newTab"_s)->setEnabled(state.session || !m_sidebar->currentSessionID().isEmpty());
    // Show Changes says what the focused pane does.
    action(u"showChanges"_s)->setChecked(currentPane()->changesShown());
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
    whenFinished(m_controller->withService([options](SessionService &service) { return service.create(options); }), this,
                 [this](const Result<Session> &created) {
                     if (!created) {
                         QMessageBox::warning(
                             this, tr("New Session"),
                             tr("The session could not be created:\n%1").arg(created.error().toString()));
                         return;
                     }
                     openSession(created->id());
                     composer()->editor()->setFocus();
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
        composer()->setText(prompt);
        composer()->editor()->setFocus();
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
    if (currentSessionID().isEmpty())
        return;
    m_sidebar->show();
    action(u"showSidebar"_s)->setChecked(true);
    m_sidebar->selectSession(currentSessionID());
    m_sidebar->view()->setFocus();
    m_sidebar->renameCurrent();
}

void MainWindow::toggleArchived()
{
    const std::optional<Session> s = m_sessions->session(currentSessionID());
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
    for (SessionPane *pane : m_panes->panes())
        pane->changesPane()->setUserQuestions(m_questions);
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
    if (!m_sidebar->currentSource().isEmpty() || !currentSource().isEmpty())
        return; // OpenCode's sessions are OpenCode's to delete
    const QString id = m_sidebar->currentSessionID().isEmpty() ? currentSessionID() : m_sidebar->currentSessionID();
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
    const SessionPane *pane = paneFor(sessionID);
    return m_controller->exportSession(sessionID, path, pane ? pane->source() : QString());
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
    const QFuture<QList<Outcome>> done = m_controller->withService([paths](SessionService &service) {
        QList<Outcome> outcomes;
        for (const QString &path : paths)
            outcomes.append({path, Transfer::importFile(service, path)});
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
    if (currentSessionID().isEmpty() || !currentSource().isEmpty())
        return;
    const QString file = m_service->sessionFile(currentSessionID());
    if (file.isEmpty())
        return;
    QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(file).absolutePath()));
}

void MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_controller->configPath(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SettingsDialog::appearanceChanged, this,
            [this] {
                for (SessionPane *pane : m_panes->panes())
                    pane->composer()->setDefaultDelivery(Composer::savedDefaultDelivery());
            });
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
        m_splitter->setSizes({280, 1000});
    // Each pane's timeline | changes and timeline / composer: as the focused one had them.
    m_paneSplitterState = settings.value(u"paneSplitter"_s).toByteArray();
    m_centerSplitterState = settings.value(u"centerSplitter"_s).toByteArray();
    for (SessionPane *pane : m_panes->panes()) {
        pane->splitter()->restoreState(m_paneSplitterState);
        pane->centerSplitter()->restoreState(m_centerSplitterState);
    }
    action(u"showSidebar"_s)->setChecked(!m_sidebar->isHidden());
    action(u"showChanges"_s)->setChecked(currentPane()->changesShown());
    settings.endGroup();
    m_settingsRead = true;
    connect(m_splitter, &QSplitter::splitterMoved, this, &MainWindow::writeSettings);
    // The tabs and groups are written a moment after they change (a switch of tabs does not wait
    // for the settings file), and when the window goes.
    m_layoutSave.setSingleShot(true);
    m_layoutSave.setInterval(1000);
    connect(&m_layoutSave, &QTimer::timeout, this, &MainWindow::writeSettings);
    connect(m_panes, &PaneArea::layoutChanged, &m_layoutSave, qOverload<>(&QTimer::start));
}

void MainWindow::writeSettings()
{
    if (!m_settingsRead)
        return;
    m_layoutSave.stop();
    QSettings settings;
    settings.beginGroup(u"MainWindow"_s);
    settings.setValue(u"geometry"_s, saveGeometry());
    settings.setValue(u"state"_s, saveState());
    settings.setValue(u"splitter"_s, m_splitter->saveState());
    // A pane not laid out yet (a tab just made) has no sizes to keep.
    const auto laidOut = [](const QSplitter *splitter) {
        const QList<int> sizes = splitter->sizes();
        return std::any_of(sizes.cbegin(), sizes.cend(), [](int size) { return size > 0; });
    };
    if (laidOut(currentPane()->splitter()))
        m_paneSplitterState = currentPane()->splitter()->saveState();
    if (laidOut(currentPane()->centerSplitter()))
        m_centerSplitterState = currentPane()->centerSplitter()->saveState();
    settings.setValue(u"paneSplitter"_s, m_paneSplitterState);
    settings.setValue(u"centerSplitter"_s, m_centerSplitterState);
    settings.setValue(u"panes"_s, m_panes->saveLayout());
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
    connect(c, &SessionController::processorChanged, this, [this] {
        for (SessionPane *pane : m_panes->panes())
            pane->applyProcessor();
    });
    connect(c, &SessionController::busyChanged, this, &MainWindow::onBusyChanged);
    connect(c, &SessionController::runningElsewhereChanged, this, [this](const QString &sessionID, bool running) {
        m_sessions->setRunning(sessionID, running || m_controller->isBusy(sessionID));
        for (SessionPane *pane : m_panes->panes()) {
            if (pane->sessionID() == sessionID)
                pane->updateSourceState();
        }
        if (sessionID == currentSessionID())
            updateActions();
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
                if (sessionID == currentSessionID())
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

bool MainWindow::isRunnable(const QString &sessionID) const
{
    // Sessions of OpenCode's folder are shown, not run; a server's run there.
    const SessionPane *pane = paneFor(sessionID);
    return pane && pane->isRunnable();
}

void MainWindow::showSendError(const QString &text)
{
    m_notices->showNotice(u"sendError"_s, NoticeBar::Kind::Error, text, {}, true);
}

void MainWindow::sendPrompt(SessionPane *pane, const QString &sessionID, const QString &text, const QString &agent,
                            const QString &model, const QList<PromptAttachment> &attachments, PromptDelivery delivery)
{
    m_notices->removeNotice(u"sendError"_s);
    m_notices->removeNotice(u"runError"_s);
    if (pane->sessionID() != sessionID || !pane->isRunnable()) {
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
    pane->composer()->clearText();
    if (sent.status == SessionController::PromptResult::Status::Steered)
        statusBar()->showMessage(tr("Sent into the running reply: the agent reads it after its current step"), 5000);
    pane->timelineView()->jumpToBottom();
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
    for (SessionPane *pane : m_panes->panes()) {
        if (pane->sessionID() == sessionID)
            pane->updateRunning();
    }
    if (sessionID == currentSessionID())
        updateActions();
}

void MainWindow::onRunFinished(const QString &sessionID, bool ok, const MessageError &error)
{
    if (m_compactionDialog && m_compactionDialog->sessionID() == sessionID
        && m_compactionDialog->stage() == CompactionDialog::Stage::Running)
        m_compactionDialog->setFailed(ErrorWording::compactionRunFailed(error));
    if (ok || sessionID != currentSessionID() || error.kind() == MessageError::Kind::Aborted)
        return;
    // Errors of a reply show in the timeline; one that ended the run before any reply did not.
    const TimelineModel *timeline = timelineModel();
    const int rows = timeline->rowCount();
    const QModelIndex last = rows > 0 ? timeline->index(rows - 1) : QModelIndex();
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
    if (const ServerSource *server = m_controller->server(m_controller->sourceOf(sessionID))) {
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
    if (automatic && sessionID == currentSessionID())
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
        if (sessionID == currentSessionID())
            statusBar()->showMessage(tr("Compacted: the next prompt continues from the summary."), 8000);
    } else {
        const QString text = ErrorWording::compactionFailed(error);
        if (followed)
            dialog->setFailed(text);
        else if (sessionID == currentSessionID())
            statusBar()->showMessage(text, 8000);
    }
    updateActions();
}

bool MainWindow::canUndoCompaction() const
{
    return currentPane()->canUndoCompaction();
}

void MainWindow::undoCompaction()
{
    if (!canUndoCompaction())
        return;
    action(u"undoCompaction"_s)->setEnabled(false);
    m_notices->removeNotice(u"compactionUndo"_s);
    m_controller->undoCompaction(currentSessionID());
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
    if (!m_controller->isWithin(request.sessionID, currentSessionID())) {
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
    // Each pane of the session marks the tool call that waits.
    for (SessionPane *pane : panesWithin(request.sessionID)) {
        TimelineView *view = pane->timelineView();
        view->setAwaitingPermission(request.messageID, request.callID, true);
        if (view->isPinnedToBottom())
            view->jumpToBottom();
    }
    QApplication::alert(this);
}

void MainWindow::onPermissionClosed(const PermissionRequest &request)
{
    // Answered, or its run ended (or was stopped): the question can no longer be answered.
    m_notices->removeNotice(u"permission-"_s + request.id);
    for (SessionPane *pane : m_panes->panes())
        pane->timelineView()->setAwaitingPermission(request.messageID, request.callID, false);
}

// ---- revert, notices, context

void MainWindow::unrevert()
{
    const QString current = currentSessionID();
    if (isRunnable(current) && m_controller->unrevert(current))
        m_unreverting.insert(current);
}

void MainWindow::updateSessionNotices()
{
    if (!m_controller || !m_notices || !m_panes)
        return;
    // Undo of the last compaction, while possible.
    const bool undo = canUndoCompaction();
    if (QAction *a = action(u"undoCompaction"_s))
        a->setEnabled(undo);
    if (undo) {
        QString text = tr("The conversation was compacted; the next prompt continues from the summary.");
        if (const std::optional<SessionController::CompactionTokens> result
            = m_controller->compactionResult(currentSessionID())) {
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

    // A pending revert (the pane hides its messages) until the next prompt drops them.
    SessionPane *pane = currentPane();
    const std::optional<Session> s = pane->sessionID().isEmpty() || pane->timelineModel()->service() != m_service.get()
        ? std::nullopt
        : m_sessions->session(pane->sessionID());
    if (s && s->hasRevert()) {
        const int hidden = pane->timelineView()->hiddenMessageCount();
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
    if (const QString error = pane->projectError(); error.isEmpty())
        m_notices->removeNotice(u"projectConfig"_s);
    else
        m_notices->showNotice(u"projectConfig"_s, NoticeBar::Kind::Error,
                              tr("This project's configuration cannot be used, so prompts cannot be sent here until "
                                 "it is fixed: %1")
                                  .arg(error),
                              {}, true);
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
