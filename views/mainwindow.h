// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/sessioncontroller.h"
#include "shortcutsdialog.h"

#include <QSet>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>

#include <memory>

class QLabel;
class QMenu;
class QMimeData;
class QSplitter;
class QToolButton;

namespace weft
{

class AttentionInbox;
class Board;
class ChangesPane;
class CompactionDialog;
class Composer;
class ContextMeter;
class NoticeBar;
class QueuedPromptsView;
class TrashDialog;
class SessionService;
class SessionSidebar;
class SessionTreeModel;
class SessionsModel;
class TimelineModel;
class TimelineView;
class UserQuestions;
class WindowActions;
class WorktreePresenter;
class FindBar;
class OpencodeSource;
class PaneArea;
class ServerSource;
class SessionPane;
class SearchIndex;
class SearchPanel;
class SourcesPresenter;
class StartupGate;
struct SearchHit;

/// Weft's main window: the session sidebar beside the pane area (PaneArea: tabs of sessions in
/// groups side by side, each a SessionPane with its timeline, composer and changes pane), the
/// notice strip under them; menus, a toolbar and a status bar with the data dir and the problems
/// the store found. The layout, the open tabs and the splitters' sizes persist.
///
/// The window acts on the focused pane (currentPane()): its actions, its title and the sidebar's
/// selection follow it, and the accessors of the pane's parts (timelineView(), composer(), ...)
/// give that pane's. The other panes go on by themselves: a run streams into its pane, its
/// permission questions show in the notice strip naming the session.
///
/// The window runs sessions through the SessionController it is given (the composition root,
/// app/window.cpp, makes it from the config): the composer's prompts, Stop, the compaction
/// dialog, the permission questions of `ask` rules (in the notice strip under the timeline),
/// undo of a compaction and of a revert. The window keeps the layout and wires its parts:
/// WindowActions (the actions and menus), SourcesPresenter (OpenCode's folder, servers, search),
/// ErrorWording (what failures say), UserQuestions (what the user is asked); the controller does
/// the work.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    /// Shows and runs the sessions of @p controller (its service and data dir).
    explicit MainWindow(std::unique_ptr<SessionController> controller, QWidget *parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] SessionService *service() const { return m_service.get(); }
    [[nodiscard]] SessionsModel *sessionsModel() const { return m_sessions; }
    [[nodiscard]] SessionTreeModel *sessionTreeModel() const { return m_tree; }
    /// The focused pane's timeline.
    [[nodiscard]] TimelineModel *timelineModel() const;
    [[nodiscard]] SessionSidebar *sidebar() const { return m_sidebar; }
    /// What waits for the first painted frame of the start (StartupGate): it opens after the
    /// frame that painted the focused pane's session, when the list is in and no session is to be
    /// shown, or after StartupGate::MaxWaitMs.
    [[nodiscard]] StartupGate *startupGate() const { return m_startupGate; }
    [[nodiscard]] TimelineView *timelineView() const;
    [[nodiscard]] Composer *composer() const;
    [[nodiscard]] ContextMeter *contextMeter() const;
    [[nodiscard]] ChangesPane *changesPane() const;
    /// The tab groups and panes; currentPane() is the focused one.
    [[nodiscard]] PaneArea *paneArea() const { return m_panes; }
    [[nodiscard]] SessionPane *currentPane() const;
    /// What runs, compacts, forks, imports and searches the sessions.
    [[nodiscard]] SessionController *controller() const { return m_controller.get(); }
    /// What waits on the user across sessions: the sidebar's count, its list, desktop notifications.
    [[nodiscard]] AttentionInbox *attentionInbox() const { return m_attention; }
    /// Every running or waiting session as a tile (View › Show Board).
    [[nodiscard]] Board *board() const { return m_board; }
    /// What permission @p permission ("bash", "edit", ...) lets the agent do, as "to ..." ends.
    [[nodiscard]] static QString permissionWhat(const QString &permission);
    /// Sessions in git worktrees: New Session in one, Session › Worktree, a fork's worktree.
    [[nodiscard]] WorktreePresenter *worktrees() const { return m_worktrees; }
    /// The strip of notices under the panes: the window's (servers, imports, the trash), the
    /// permission questions of every session (naming it when it is not the focused pane's), and
    /// the focused pane's errors and undo offers.
    [[nodiscard]] NoticeBar *noticeBar() const { return m_notices; }
    /// The prompts queued for the focused pane's session, above its composer.
    [[nodiscard]] QueuedPromptsView *queuedPrompts() const;
    /// The open compaction dialog, if any.
    [[nodiscard]] CompactionDialog *compactionDialog() const;
    /// Whether the current session's last compaction can be undone now (what
    /// SessionController::canUndoCompaction() answers, from the loaded rows).
    [[nodiscard]] bool canUndoCompaction() const;
    /// Sidebar | pane area.
    [[nodiscard]] QSplitter *splitter() const { return m_splitter; }
    /// The focused pane's timeline over its composer.
    [[nodiscard]] QSplitter *centerSplitter() const;
    /// The window's actions by object name: "newSession", "forkSession", "renameSession",
    /// "archiveSession", "deleteSession", "exportSession", "revealDataFile", "find", "compact",
    /// "stop", "quit", ...
    [[nodiscard]] QAction *action(const QString &name) const;

    /// The session of the focused pane.
    [[nodiscard]] QString currentSessionID() const;
    /// The source of the open session: empty for Weft's own, OpenCodeSource::key() for OpenCode's.
    [[nodiscard]] QString currentSource() const;
    /// Shows @p sessionID of @p source in the focused pane (a tab that shows it already is
    /// focused instead) and selects it in the sidebar.
    bool openSession(const QString &sessionID, const QString &source = {});
    /// Shows @p sessionID of Weft's own store in the focused pane before the session list is in
    /// (`weft --session ID`): its first page loads while the list does. Once the list is in, the
    /// sidebar selects it; a session the store does not have gives way to the tabs of the last
    /// time or the newest session, as a start without it.
    void openAtStart(const QString &sessionID);
    /// Shows @p sessionID of @p source in a new tab of the focused group, focused.
    bool openSessionInNewTab(const QString &sessionID, const QString &source = {});

    // ---- the trash of Weft's own sessions (mainwindowtrash.cpp)
    /// Shows the trash dialog (made on first use).
    TrashDialog *showTrash();
    /// The trash dialog, if it was made.
    [[nodiscard]] TrashDialog *trashDialog() const;
    /// Restores the session deleted last (the notice's Undo, Edit › Undo Delete); false when
    /// there is none or it cannot be restored (the notice says why).
    bool undoDelete();

    // ---- OpenCode's sessions, servers, search (SourcesPresenter, wired in mainwindowsources.cpp)
    /// OpenCode's folder and servers as sources, copying into Weft, the search panel.
    [[nodiscard]] SourcesPresenter *sources() const { return m_sources; }
    [[nodiscard]] OpencodeSource *opencodeSource() const
    {
        return m_controller ? m_controller->opencodeSource() : nullptr;
    }
    [[nodiscard]] SearchIndex *searchIndex() const { return m_controller ? m_controller->searchIndex() : nullptr; }
    [[nodiscard]] FindBar *findBar() const;
    /// Opens the session of a search result, scrolled to its part.
    bool openSearchHit(const SearchHit &hit);
    /// Opens @p sessionID of @p source scrolled to @p partID of @p messageID.
    bool openSessionAt(const QString &source, const QString &sessionID, const QString &messageID,
                       const QString &partID = {});
    /// Forks @p sessionID before @p messageID (see SessionService::fork) off the GUI thread, then
    /// opens the new session with @p prompt in the composer (a user message forked from).
    void forkSession(const QString &sessionID, const QString &messageID, const QString &prompt = {});
    /// Imports OpenCode export files (File › Import…, or files dropped on the window) off the GUI
    /// thread, then opens the last one imported; a file that cannot be imported gets a notice
    /// saying why, and the others still go.
    void importFiles(const QStringList &paths);
    /// Help › Keyboard Shortcuts (non-modal, one at a time).
    void showShortcuts();
    [[nodiscard]] ShortcutsDialog *shortcutsDialog() const { return m_shortcuts; }
    /// Writes the export document of @p sessionID (`opencode export`) to @p path off the GUI
    /// thread.
    [[nodiscard]] QFuture<Result<void>> exportSession(const QString &sessionID, const QString &path);
    /// The number of problems shown in the status bar.
    [[nodiscard]] int problemCount() const { return m_problemCount; }
    /// Who answers what the window and its panes ask (confirmations, copying an OpenCode session
    /// into Weft, a server agent's questions): dialogs over the window unless given (tests).
    void setUserQuestions(std::shared_ptr<UserQuestions> questions);

Q_SIGNALS:
    void currentSessionChanged(const QString &sessionID);
    /// A fork finished and the new session is open.
    void forked(const QString &newSessionID);
    /// A session of OpenCode's source was copied into Weft and the copy is open.
    void imported(const QString &newSessionID);
    /// An import of importFiles() finished: the sessions made, and the files refused.
    void importsFinished(const QStringList &sessionIDs, const QStringList &failedFiles);

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    /// The actions (WindowActions), the menus, and what each action does.
    void createActions();
    /// The actions of the tabs and groups (PaneArea) in the View menu.
    void createPaneActions(QMenu *view);
    /// A pane for the pane area, wired to the window.
    SessionPane *makePane();
    /// Shows @p sessionID in the focused pane.
    void showSession(const QString &sessionID, const QString &source = {});
    /// The focused pane changed, or the session it shows: the title, the sidebar, the actions.
    void onCurrentPaneChanged();
    /// The pane showing @p sessionID (the focused one first), or null.
    [[nodiscard]] SessionPane *paneFor(const QString &sessionID) const;
    /// Every pane showing @p sessionID or a subagent session of it.
    [[nodiscard]] QList<SessionPane *> panesWithin(const QString &sessionID) const;
    // OpenCode's sessions, search, find (mainwindowsources.cpp)
    /// The sources presenter, its actions and what the window does when it says something changed.
    void createSourceActions();
    void setupSources();
    void shutdownSources();
    /// The server source of the open session, or null.
    [[nodiscard]] ServerSource *currentServer() const;
    [[nodiscard]] std::optional<Session> currentSessionInfo() const;
    void updateHeader();
    void updateActions();
    void updateProblems();
    void showProblems();
    void newSession();
    void renameSession();
    void toggleArchived();
    void deleteSession();
    void createTrashActions();
    /// Moves @p session with its subagent sessions to the trash and offers Undo.
    void moveToTrash(const Session &session);
    /// Restores a trash entry and opens its session; false (with a notice) when it cannot.
    bool restoreFromTrash(const QString &entryID);
    /// Forgets the last deletion once its entry left the trash another way.
    void onTrashChanged();
    void exportCurrent();
    void chooseImportFiles();
    /// The export files among @p data's URLs (local files named *.json).
    [[nodiscard]] static QStringList importableFiles(const QMimeData *data);
    void revealDataFile();
    void about();
    void showSettings();
    /// Notices of MCP servers that fail (McpServers::serverFailed), with Reconnect.
    void setupMcpNotices();
    // running sessions
    void connectController();
    [[nodiscard]] bool isRunnable(const QString &sessionID) const;
    void sendPrompt(SessionPane *pane, const QString &sessionID, const QString &text, const QString &agent,
                    const QString &model, const QList<weft::PromptAttachment> &attachments,
                    weft::PromptDelivery delivery);
    void showSendError(const QString &text);
    void onBusyChanged(const QString &sessionID, bool busy);
    void showInterruptedRuns(int runs, const QStringList &sessions);
    void onRunFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    void showCompaction(const QString &sessionID);
    void startCompaction();
    void onCompactionStarted(const QString &sessionID, bool automatic);
    void onCompactionFinished(const QString &sessionID, bool ok, const weft::MessageError &error);
    void undoCompaction();
    void onPermissionRequested(const weft::PermissionRequest &request);
    void onPermissionClosed(const weft::PermissionRequest &request);
    void onForked(const weft::Session &session);
    void onImported(const weft::Session &session);
    void onFailed(weft::SessionController::Operation operation, const QString &error);
    void unrevert();
    void updateSessionNotices();
    [[nodiscard]] UserQuestions &questions();
    /// Whether to go ahead with deleting what @p text says (a "Delete" button).
    bool confirm(const QString &title, const QString &text);
    void readSettings();
    void writeSettings();

    std::shared_ptr<SessionService> m_service;
    QString m_dataDir;
    std::unique_ptr<SessionController> m_controller;
    NoticeBar *m_notices = nullptr;
    AttentionInbox *m_attention = nullptr;
    Board *m_board = nullptr;
    WorktreePresenter *m_worktrees = nullptr;
    QPointer<CompactionDialog> m_compactionDialog;
    /// The session the window's title, sidebar and notices were last updated for.
    QString m_shownSession;
    QString m_shownSource;
    /// The session of openAtStart(), until the session list is in.
    QString m_openedAtStart;
    SourcesPresenter *m_sources = nullptr;
    SessionsModel *m_sessions;
    SessionTreeModel *m_tree;
    SessionSidebar *m_sidebar = nullptr;
    StartupGate *m_startupGate = nullptr;
    PaneArea *m_panes = nullptr;
    /// The text of the user message a fork under way was made from: the fork's composer gets it.
    QString m_forkPrompt;
    QSet<QString> m_unreverting; // sessions whose unrevert the window (not the changes pane) asked for
    QPointer<ShortcutsDialog> m_shortcuts;
    QPointer<TrashDialog> m_trashDialog;
    /// The trash entry of the last deletion, while Undo can bring it back.
    QString m_lastTrashed;
    QSplitter *m_splitter = nullptr;
    /// The focused pane's splitters when the settings were read or written: new panes take them.
    QByteArray m_paneSplitterState;
    QByteArray m_centerSplitterState;
    /// Writes the settings once the panes' layout stopped changing.
    QTimer m_layoutSave;
    QLabel *m_dataDirLabel = nullptr;
    QToolButton *m_problemsButton = nullptr;
    WindowActions *m_actions = nullptr;
    std::shared_ptr<UserQuestions> m_questions;
    int m_problemCount = 0;
    bool m_settingsRead = false;
};

} // namespace weft
