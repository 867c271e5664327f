// SPDX-License-Identifier: GPL-3.0-or-later
#include "worktreepresenter.h"

#include "composer.h"
#include "core/async.h"
#include "mainwindow.h"
#include "newsessiondialog.h"
#include "app/serversource.h"
#include "qt/sessionsmodel.h"
#include "startupgate.h"
#include "style.h"
#include "userquestions.h"
#include "worktreedialogs.h"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUrl>

#include <utility>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QString defaultKey()
{
    return u"NewSession/inWorktree"_s;
}

QString projectKey(const QString &projectID, const QString &what)
{
    return u"NewSession/projects/%1/%2"_s.arg(projectID, what);
}

/// The menu of the menu bar that holds @p action.
QMenu *menuOf(QAction *action)
{
    if (!action)
        return nullptr;
    for (QObject *o : action->associatedObjects()) {
        if (auto *menu = qobject_cast<QMenu *>(o); menu && qobject_cast<QMenuBar *>(menu->parentWidget()))
            return menu;
    }
    return nullptr;
}

QString nameOf(const Worktree &worktree)
{
    return worktree.branch.isEmpty() ? QFileInfo(worktree.path).fileName() : worktree.branch;
}
} // namespace

WorktreePresenter::WorktreePresenter(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_controller(window->controller())
{
    createActions();
    connect(window, &MainWindow::currentSessionChanged, this, &WorktreePresenter::onCurrentSessionChanged);
    connect(m_controller, &SessionController::forked, this, &WorktreePresenter::onForked);
    connect(m_controller, &SessionController::busyChanged, this, [this](const QString &sessionID) {
        if (sessionID == m_currentID)
            updateActions();
    });
    SessionsModel *sessions = window->sessionsModel();
    connect(sessions, &SessionsModel::loaded, this, [this] { refreshBranches(); });
    connect(sessions, &QAbstractItemModel::rowsInserted, this, [this] { refreshBranches(); });
    connect(sessions, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &, const QModelIndex &, const QList<int> &roles) {
                if (roles.isEmpty() || roles.contains(SessionsModel::DirectoryRole))
                    refreshBranches();
            });
    onCurrentSessionChanged(window->currentSessionID());
    refreshBranches();
}

WorktreePresenter::~WorktreePresenter() = default;

NewSessionDialog *WorktreePresenter::newSessionDialog() const
{
    return m_newSession;
}

ApplyWorktreeDialog *WorktreePresenter::applyDialog() const
{
    return m_apply;
}

CommitWorktreeDialog *WorktreePresenter::commitDialog() const
{
    return m_commit;
}

void WorktreePresenter::createActions()
{
    const auto make = [this](const QString &name, const QString &text, const QString &icon,
                             const QKeySequence &shortcut, void (WorktreePresenter::*slot)()) {
        auto *action = new QAction(text, this);
        action->setObjectName(name);
        if (!icon.isEmpty())
            action->setIcon(Style::icon(icon));
        if (!shortcut.isEmpty())
            action->setShortcut(shortcut);
        connect(action, &QAction::triggered, this, slot);
        m_actions.insert(name, action);
        m_window->addAction(action);
        return action;
    };
    QAction *newSession = make(u"newSessionInWorktree"_s, tr("New Session (&Folder, Worktree)…"), u"document-new"_s,
                               QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), &WorktreePresenter::newSession);
    newSession->setToolTip(tr("A new session in a folder you choose, or in a new git worktree"));
    make(u"worktreeApply"_s, tr("&Apply to Main Checkout…"), u"vcs-merge"_s, {}, &WorktreePresenter::showApply);
    make(u"worktreeCommit"_s, tr("&Commit…"), u"vcs-commit"_s, {}, &WorktreePresenter::showCommit);
    make(u"worktreeTerminal"_s, tr("Open in &Terminal"), u"utilities-terminal"_s, {},
         &WorktreePresenter::openInTerminal);
    make(u"worktreeFileManager"_s, tr("Open in &File Manager"), u"system-file-manager"_s, {},
         &WorktreePresenter::openInFileManager);
    make(u"worktreeRemove"_s, tr("&Remove Worktree…"), u"edit-delete"_s, {}, &WorktreePresenter::removeCurrent);

    if (QMenu *file = menuOf(m_window->action(u"newSession"_s))) {
        const QList<QAction *> actions = file->actions();
        const qsizetype at = actions.indexOf(m_window->action(u"newSession"_s));
        file->insertAction(actions.value(at + 1), newSession);
    }
    m_menu = new QMenu(tr("&Worktree"), m_window);
    m_menu->setObjectName(u"worktreeMenu"_s);
    m_menu->addAction(action(u"worktreeApply"_s));
    m_menu->addAction(action(u"worktreeCommit"_s));
    m_menu->addSeparator();
    m_menu->addAction(action(u"worktreeTerminal"_s));
    m_menu->addAction(action(u"worktreeFileManager"_s));
    m_menu->addSeparator();
    m_menu->addAction(action(u"worktreeRemove"_s));
    m_menu->setToolTipsVisible(true);
    if (QMenu *session = menuOf(m_window->action(u"forkSession"_s))) {
        session->addSeparator();
        session->addMenu(m_menu);
    }
    updateActions();
}

void WorktreePresenter::setUserQuestions(std::shared_ptr<UserQuestions> questions)
{
    m_questions = std::move(questions);
}

UserQuestions &WorktreePresenter::questions()
{
    if (!m_questions)
        m_questions = std::make_shared<DialogQuestions>(m_window);
    return *m_questions;
}

void WorktreePresenter::showStatus(const QString &text)
{
    m_window->statusBar()->showMessage(text, 8000);
}

// ---- the current session's worktree

void WorktreePresenter::onCurrentSessionChanged(const QString &sessionID)
{
    m_currentID = sessionID;
    m_current.reset();
    updateActions();
    m_serverWhy.clear();
    if (sessionID.isEmpty() || !m_controller
        || (!m_window->currentSource().isEmpty() && !m_controller->serverOf(sessionID)))
        return;
    // `git worktree list`: after the window's first frame.
    StartupGate::run(m_window->startupGate(), this, [this, sessionID] {
        if (sessionID != m_currentID || !m_controller)
            return;
        whenFinished(m_controller->worktreeOf(sessionID), this, [this, sessionID](const Result<Worktree> &held) {
            if (sessionID != m_currentID)
                return;
            if (held)
                m_current = held.value();
            else if (m_controller->serverOf(sessionID))
                m_serverWhy = held.error().message;
            updateActions();
            Q_EMIT currentWorktreeChanged();
        });
    });
}

void WorktreePresenter::updateActions()
{
    const bool server = m_controller && !m_currentID.isEmpty() && m_controller->serverOf(m_currentID);
    const bool other = !m_window->currentSource().isEmpty() && !server; // OpenCode's folder, read only
    const bool busy = m_controller && m_controller->isBusy(m_currentID);
    const bool held = m_current.has_value();
    // A server's worktree lives on the server: only the server's own route (remove) works on it.
    const QString onServer = tr("Not available on this server: its files are the server's");
    const QString why = other ? tr("Not available for OpenCode's sessions: copy the session into Weft first")
        : server && !held     ? (m_serverWhy.isEmpty() ? tr("Not available on this server")
                                                   : m_serverWhy.left(1).toUpper() + m_serverWhy.mid(1))
        : held                ? QString()
                              : tr("The session does not work in a worktree "
                                   "(File › New Session (Folder, Worktree)… makes one)");
    for (const QString &name : {u"worktreeApply"_s, u"worktreeCommit"_s, u"worktreeTerminal"_s,
                                u"worktreeFileManager"_s, u"worktreeRemove"_s}) {
        QAction *a = action(name);
        const bool changes = name == u"worktreeCommit" || name == u"worktreeRemove";
        const bool local = name != u"worktreeRemove"; // what needs the worktree's files here
        a->setEnabled(held && !(changes && busy) && !(server && local));
        a->setToolTip(!why.isEmpty()    ? why
                          : server && local ? onServer
                          : changes && busy ? tr("Not while the session runs")
                                            : a->text().remove(u'&'));
    }
    m_menu->setTitle(held ? tr("&Worktree (%1)").arg(nameOf(*m_current)) : tr("&Worktree"));
    m_menu->menuAction()->setToolTip(why);
}

// ---- branches in the sidebar

void WorktreePresenter::refreshBranches(bool all)
{
    if (!m_controller)
        return;
    if (all)
        m_branchesAsked.clear();
    // A `git worktree list` for each folder: after the window's first frame.
    if (StartupGate *gate = m_window->startupGate(); gate && !gate->isOpen()) {
        if (!std::exchange(m_branchesWaiting, true))
            StartupGate::run(gate, this, [this] {
                m_branchesWaiting = false;
                refreshBranches();
            });
        return;
    }
    // The reading under way looks for folders not asked about yet once it has ended.
    if (m_branchesPending)
        return;
    SessionsModel *sessions = m_window->sessionsModel();
    QStringList directories;
    for (const Session &s : sessions->sessions()) {
        const QString directory = s.directory();
        if (!directory.isEmpty() && !m_branchesAsked.contains(directory) && !directories.contains(directory))
            directories.append(directory);
    }
    if (directories.isEmpty())
        return;
    for (const QString &d : std::as_const(directories))
        m_branchesAsked.insert(d);
    m_branchesPending = true;
    const QPointer<SessionsModel> model(sessions);
    whenFinished(m_controller->worktreeBranches(directories), this,
                 [this, model, directories](const QHash<QString, QString> &branches) {
                     m_branchesPending = false;
                     if (model) {
                         QHash<QString, QString> all;
                         for (const QString &d : directories)
                             all.insert(d, branches.value(d));
                         model->setBranches(all);
                     }
                     refreshBranches();
                 });
}

// ---- New Session

bool WorktreePresenter::defaultInWorktree()
{
    return QSettings().value(defaultKey(), false).toBool();
}

void WorktreePresenter::setDefaultInWorktree(bool inWorktree)
{
    QSettings().setValue(defaultKey(), inWorktree);
}

bool WorktreePresenter::projectInWorktree(const QString &projectID)
{
    return QSettings().value(projectKey(projectID, u"inWorktree"_s), defaultInWorktree()).toBool();
}

void WorktreePresenter::newSession()
{
    if (m_newSession) {
        m_newSession->raise();
        m_newSession->activateWindow();
        return;
    }
    const QString sessionID = m_window->currentSessionID();
    if (ServerSource *server = m_controller ? m_controller->serverOf(sessionID) : nullptr) {
        newServerSession(server, sessionID);
        return;
    }
    const std::optional<Session> current
        = m_window->currentSource().isEmpty() ? m_window->sessionsModel()->session(sessionID) : std::nullopt;
    // In the current session's folder (a new worktree of a worktree's repository starts from the
    // main checkout's HEAD, beside the main checkout: Worktrees::create()).
    const QString projectID = current ? current->projectID() : QString();
    m_newSession = new NewSessionDialog(m_controller, m_window);
    m_newSession->setAttribute(Qt::WA_DeleteOnClose);
    m_newSession->setDirectory(current ? current->directory() : QDir::homePath(), projectID);
    m_newSession->setInWorktree(projectInWorktree(projectID));
    m_newSession->setWorktreeParent(QSettings().value(projectKey(projectID, u"parent"_s)).toString());
    connect(m_newSession, &QDialog::accepted, this, [this, projectID, dialog = m_newSession] {
        QSettings settings;
        if (dialog->isRepository()) {
            settings.setValue(projectKey(projectID, u"inWorktree"_s), dialog->inWorktree());
            if (dialog->inWorktree())
                settings.setValue(projectKey(projectID, u"parent"_s), dialog->worktreeParent());
        }
        create(dialog->request());
    });
    m_newSession->open();
}

void WorktreePresenter::newServerSession(ServerSource *server, const QString &sessionID)
{
    // The server makes the worktree (OpenCode 1.18's /experimental/worktree, its project's start
    // command run there) in a folder of its own: only its name is asked.
    auto *ask = new QInputDialog(m_window);
    ask->setObjectName(u"serverWorktreeDialog"_s);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("New Session in a Server Worktree"));
    ask->setLabelText(tr("The server makes a new worktree of this session's project and starts a session there.\n"
                         "Name of the worktree (empty: the server names it):"));
    const QPointer<ServerSource> source(server);
    connect(ask, &QInputDialog::textValueSelected, this, [this, server = source, sessionID](const QString &text) {
        const QString name = text.trimmed();
        const QString why = name.isEmpty() ? QString() : Worktrees::whyInvalidName(name);
        if (!why.isEmpty() || !server) {
            questions().warn(tr("New Session"), why.isEmpty() ? tr("The server is not connected any more.") : why);
            return;
        }
        showStatus(tr("The server makes the worktree…"));
        whenFinished(server->createInWorktree(sessionID, name), this, [this, server](const Result<Session> &created) {
            if (!created) {
                showStatus(QString());
                questions().warn(tr("New Session"),
                                 tr("The session could not be created:\n%1").arg(created.error().toString()));
                Q_EMIT createFailed(created.error().toString());
                return;
            }
            if (!server)
                return;
            showStatus(tr("New session in %1").arg(created->directory()));
            // In the list before the server's event about it comes.
            server->sessions()->refreshSession(created.value());
            m_window->openSession(created->id(), server->key());
            Q_EMIT sessionCreated(created->id());
        });
    });
    ask->open();
}

void WorktreePresenter::create(const NewSessionRequest &request)
{
    if (request.worktree)
        showStatus(request.runSetup
                       ? tr("Making the worktree %1 and running its setup script…").arg(request.worktree->name)
                       : tr("Making the worktree %1…").arg(request.worktree->name));
    whenFinished(m_controller->createSession(request), this, [this](const Result<Session> &created) {
        if (!created) {
            showStatus(QString());
            questions().warn(tr("New Session"),
                             tr("The session could not be created:\n%1").arg(created.error().toString()));
            Q_EMIT createFailed(created.error().toString());
            return;
        }
        showStatus(tr("New session in %1").arg(QDir::toNativeSeparators(created->directory())));
        m_window->openSession(created->id());
        m_window->composer()->editor()->setFocus();
        refreshBranches();
        Q_EMIT sessionCreated(created->id());
    });
}

// ---- Session › Worktree

void WorktreePresenter::showApply()
{
    if (!m_current)
        return;
    if (m_apply) {
        m_apply->raise();
        return;
    }
    m_apply = new ApplyWorktreeDialog(m_controller, *m_current, m_window);
    m_apply->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_apply, &ApplyWorktreeDialog::applied, this, [this](bool ok, const QStringList &conflicts) {
        if (ok && conflicts.isEmpty())
            showStatus(tr("Applied to the main checkout"));
    });
    m_apply->open();
}

void WorktreePresenter::showCommit()
{
    if (!m_current)
        return;
    if (m_commit) {
        m_commit->raise();
        return;
    }
    m_commit = new CommitWorktreeDialog(m_controller, m_currentID, *m_current, m_window);
    m_commit->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_commit, &CommitWorktreeDialog::committed, this, [this, worktree = *m_current](const QString &hash) {
        showStatus(tr("Committed %1 on %2").arg(hash.left(8), nameOf(worktree)));
    });
    m_commit->open();
}

void WorktreePresenter::removeCurrent()
{
    if (!m_current)
        return;
    const Worktree worktree = *m_current;
    const QString sessionID = m_currentID;
    if (ServerSource *server = m_controller->serverOf(sessionID)) {
        Confirmation ask;
        ask.title = tr("Remove Worktree");
        ask.button = tr("&Remove");
        ask.icon = u"edit-delete"_s;
        ask.text
            = tr("Remove the server's worktree %1? The server deletes its folder and its branch.").arg(worktree.path);
        if (!questions().confirm(ask)) {
            Q_EMIT removeFinished(false, tr("Not removed"));
            return;
        }
        const QFuture<Result<void>> removing = server->removeWorktree(sessionID, worktree.path);
        whenFinished(removing, this, [this, worktree, sessionID](const Result<void> &removed) {
            if (!removed) {
                questions().warn(tr("Remove Worktree"), removed.error().toString());
                Q_EMIT removeFinished(false, removed.error().toString());
                return;
            }
            showStatus(tr("Removed the worktree %1").arg(worktree.path));
            if (sessionID == m_currentID)
                m_current.reset();
            updateActions();
            Q_EMIT removeFinished(true, {});
        });
        return;
    }
    // What would be lost is read first: the confirmation says it.
    whenFinished(m_controller->worktreeChanges(worktree), this,
                 [this, worktree, sessionID](const Result<SessionController::WorktreeChanges> &changes) {
                     const qsizetype uncommitted = changes ? changes->uncommitted.size() : 0;
                     Confirmation ask;
                     ask.title = tr("Remove Worktree");
                     ask.button = tr("&Remove");
                     ask.icon = u"edit-delete"_s;
                     const QString branch = worktree.branch.isEmpty() ? QString() : worktree.branch;
                     ask.text = uncommitted > 0
                         ? Style::plural(tr("%1 has %n uncommitted change(s), which are lost when it is removed. "
                                            "Remove it anyway?",
                                            nullptr, int(uncommitted)),
                                         uncommitted)
                               .arg(QDir::toNativeSeparators(worktree.path))
                         : tr("Remove the worktree %1? Its folder is deleted.")
                               .arg(QDir::toNativeSeparators(worktree.path));
                     if (!branch.isEmpty())
                         ask.text += u' ' + tr("Its branch %1 stays, with its commits.").arg(branch);
                     if (!questions().confirm(ask)) {
                         Q_EMIT removeFinished(false, tr("Not removed"));
                         return;
                     }
                     whenFinished(m_controller->removeWorktree(worktree, uncommitted > 0), this,
                                  [this, worktree, sessionID](const Result<void> &removed) {
                                      if (!removed) {
                                          questions().warn(tr("Remove Worktree"), removed.error().toString());
                                          Q_EMIT removeFinished(false, removed.error().toString());
                                          return;
                                      }
                                      showStatus(tr("Removed the worktree %1")
                                                     .arg(QDir::toNativeSeparators(worktree.path)));
                                      if (sessionID == m_currentID)
                                          m_current.reset();
                                      refreshBranches(true);
                                      updateActions();
                                      Q_EMIT removeFinished(true, {});
                                  });
                 });
}

std::optional<WorktreePresenter::Command> WorktreePresenter::terminalCommand(const QString &directory)
{
    // The user's choice first; a $TERMINAL with arguments is split as a command line (no shell).
    const QStringList chosen = QProcess::splitCommand(qEnvironmentVariable("TERMINAL"));
    if (!chosen.isEmpty() && !QStandardPaths::findExecutable(chosen.first()).isEmpty())
        return Command{chosen.first(), chosen.mid(1)};
    struct Known {
        QString program;
        QStringList arguments;
    };
    const QList<Known> known{
        {u"x-terminal-emulator"_s, {}},
        {u"konsole"_s, {u"--workdir"_s, directory}},
        {u"gnome-terminal"_s, {u"--working-directory="_s + directory}},
        {u"xfce4-terminal"_s, {u"--working-directory="_s + directory}},
        {u"kitty"_s, {u"--directory"_s, directory}},
        {u"alacritty"_s, {u"--working-directory"_s, directory}},
        {u"xterm"_s, {}},
    };
    for (const Known &k : known) {
        if (!QStandardPaths::findExecutable(k.program).isEmpty())
            return Command{k.program, k.arguments};
    }
    return std::nullopt;
}

void WorktreePresenter::openInTerminal()
{
    if (!m_current)
        return;
    const std::optional<Command> command = terminalCommand(m_current->path);
    // Every terminal also starts in the folder it is started from.
    if (!command || !QProcess::startDetached(command->program, command->arguments, m_current->path)) {
        questions().warn(tr("Open in Terminal"),
                         command ? tr("%1 could not be started.").arg(command->program)
                                 : tr("No terminal program was found: set TERMINAL to the one you use."));
    }
}

void WorktreePresenter::openInFileManager()
{
    if (m_current)
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_current->path));
}

// ---- a fork of a session in a worktree

void WorktreePresenter::onForked(const QString &sessionID, const Session &fork)
{
    if (!m_controller || m_controller->serverOf(sessionID))
        return;
    whenFinished(m_controller->worktreeOf(sessionID), this, [this, fork](const Result<Worktree> &held) {
        if (!held)
            return;
        Confirmation ask;
        ask.title = tr("Fork the Worktree Too?");
        ask.text = tr("The session works in the worktree %1 (%2). Give the fork a worktree of its own? It is made "
                      "from that worktree's last commit, with its uncommitted changes copied. Otherwise the fork "
                      "works in the same folder.")
                       .arg(QDir::toNativeSeparators(held->path), nameOf(held.value()));
        ask.button = tr("Fork &Worktree");
        ask.destructive = false;
        ask.goAheadByDefault = true;
        if (!questions().confirm(ask))
            return;
        // "NAME-fork-XXXXXX": the fork's own, from its session's ID.
        QString suffix = fork.id().right(6).toLower();
        suffix.removeIf([](QChar c) { return !c.isLetterOrNumber() || c.unicode() > 127; });
        Worktrees::CreateOptions options;
        options.name = QFileInfo(held->path).fileName().left(48) + u"-fork-"_s + suffix;
        options.parent = QFileInfo(held->path).path();
        showStatus(tr("Forking the worktree %1…").arg(nameOf(held.value())));
        const QFuture<Result<Session>> forking = m_controller->forkWorktree(fork.id(), held.value(), options);
        whenFinished(forking, this, [this](const Result<Session> &moved) {
            if (!moved) {
                questions().warn(tr("Fork the Worktree"), moved.error().toString());
                Q_EMIT forkWorktreeFinished(false, moved.error().toString());
                return;
            }
            showStatus(tr("The fork works in %1").arg(QDir::toNativeSeparators(moved->directory())));
            if (moved->id() == m_currentID)
                onCurrentSessionChanged(m_currentID);
            refreshBranches();
            Q_EMIT forkWorktreeFinished(true, moved->directory());
        });
    });
}

} // namespace weft
