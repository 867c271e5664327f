// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/sessioncontroller.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>

#include <memory>
#include <optional>

class QAction;
class QMenu;

namespace weft
{

class ApplyWorktreeDialog;
class CommitWorktreeDialog;
class MainWindow;
class NewSessionDialog;
class ServerSource;
class UserQuestions;

/// The window's git worktrees of sessions: New Session in a worktree (File, Ctrl+Shift+N), the
/// branch of each session in one (the sidebar's rows), Session › Worktree (apply to the main
/// checkout, commit with a message the model proposes, open in a terminal or the file manager,
/// remove), and a fork that gets a worktree of its own. Everything git does goes through the
/// controller, off the GUI thread. An OpenCode server's session: the server's own worktree (OpenCode
/// 1.18's `/experimental/worktree`) can be removed there; what needs its files here is disabled,
/// and the menu says why (as it does for a server without worktrees).
class WorktreePresenter : public QObject
{
    Q_OBJECT

public:
    /// Adds its actions to @p window's File and Session menus and follows its current session.
    explicit WorktreePresenter(MainWindow *window);
    ~WorktreePresenter() override;

    /// "newSessionInWorktree", "worktreeApply", "worktreeCommit", "worktreeTerminal",
    /// "worktreeFileManager", "worktreeRemove".
    [[nodiscard]] QAction *action(const QString &name) const { return m_actions.value(name); }
    [[nodiscard]] QMenu *menu() const { return m_menu; }
    /// The worktree of the session shown, once known (currentWorktreeChanged()).
    [[nodiscard]] std::optional<Worktree> currentWorktree() const { return m_current; }

    /// Shows the New Session dialog for the current session's folder, "in a new worktree"
    /// checked as the project last had it (else as Settings say). From a server's session: the
    /// name of a worktree the server makes, and a session there.
    void newSession();
    [[nodiscard]] NewSessionDialog *newSessionDialog() const;
    void showApply();
    [[nodiscard]] ApplyWorktreeDialog *applyDialog() const;
    void showCommit();
    [[nodiscard]] CommitWorktreeDialog *commitDialog() const;
    /// Removes the current worktree after a confirmation (one that says what is lost when it
    /// has uncommitted changes).
    void removeCurrent();
    void openInTerminal();
    void openInFileManager();

    /// Who confirms (a remove, a fork's worktree): dialogs over the window unless given (tests).
    void setUserQuestions(std::shared_ptr<UserQuestions> questions);

    /// The terminal program to open @p directory in, and its arguments: $TERMINAL, else the
    /// first of x-terminal-emulator, konsole, gnome-terminal, xfce4-terminal, kitty, alacritty,
    /// xterm found on PATH (with its own way of naming the folder). Empty when none is.
    struct Command {
        QString program;
        QStringList arguments;
    };
    [[nodiscard]] static std::optional<Command> terminalCommand(const QString &directory);

    /// Whether new sessions start "in a new worktree" by default (Settings), and for a project
    /// (its last choice; the default when it made none).
    [[nodiscard]] static bool defaultInWorktree();
    static void setDefaultInWorktree(bool inWorktree);
    [[nodiscard]] static bool projectInWorktree(const QString &projectID);

Q_SIGNALS:
    /// What the current session's worktree is became known (currentWorktree()).
    void currentWorktreeChanged();
    /// A session made by New Session is open.
    void sessionCreated(const QString &sessionID);
    /// Creating a session failed: @p error says why.
    void createFailed(const QString &error);
    /// A fork got a worktree of its own (or failed to: @p ok false, @p message why).
    void forkWorktreeFinished(bool ok, const QString &message);
    /// The current worktree was removed (or not: @p ok false, @p message why).
    void removeFinished(bool ok, const QString &message);

private:
    void createActions();
    void onCurrentSessionChanged(const QString &sessionID);
    void updateActions();
    /// Reads the branches of the sessions' folders not asked about yet (@p all: every folder again).
    void refreshBranches(bool all = false);
    void onForked(const QString &sessionID, const Session &fork);
    void create(const NewSessionRequest &request);
    /// New Session from a server's session: a worktree the server makes (its name asked).
    void newServerSession(ServerSource *server, const QString &sessionID);
    void showStatus(const QString &text);
    UserQuestions &questions();

    MainWindow *m_window;
    QPointer<SessionController> m_controller;
    QHash<QString, QAction *> m_actions;
    QMenu *m_menu = nullptr;
    QString m_currentID;
    std::optional<Worktree> m_current;
    QString m_serverWhy; // why the current server session has no worktree
    QSet<QString> m_branchesAsked; // folders whose branch was read
    bool m_branchesPending = false;
    /// refreshBranches() waits for the window's first frame (MainWindow::startupGate()).
    bool m_branchesWaiting = false;
    QPointer<NewSessionDialog> m_newSession;
    QPointer<ApplyWorktreeDialog> m_apply;
    QPointer<CommitWorktreeDialog> m_commit;
    std::shared_ptr<UserQuestions> m_questions;
};

} // namespace weft
