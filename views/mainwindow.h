// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QMainWindow>

#include <functional>
#include <memory>

class QLabel;
class QSplitter;
class QToolButton;

namespace weft
{

class ChangesPane;
class Composer;
class ContextMeter;
class SessionHeader;
class SessionService;
class SessionSidebar;
class SessionTreeModel;
class SessionsModel;
class TimelineModel;
class TimelineView;

/// Weft's main window: session sidebar | timeline and composer | changes pane, in splitters
/// whose sizes persist; menus, a toolbar and a status bar with the data dir and the problems
/// the store found.
///
/// Prompts, stopping and compaction are requests the composer emits (Composer::sendRequested,
/// stopRequested, compactRequested); whoever runs sessions connects to them.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(std::shared_ptr<SessionService> service, const QString &dataDir, QWidget *parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] SessionService *service() const { return m_service.get(); }
    [[nodiscard]] SessionsModel *sessionsModel() const { return m_sessions; }
    [[nodiscard]] SessionTreeModel *sessionTreeModel() const { return m_tree; }
    [[nodiscard]] TimelineModel *timelineModel() const { return m_timeline; }
    [[nodiscard]] SessionSidebar *sidebar() const { return m_sidebar; }
    [[nodiscard]] TimelineView *timelineView() const { return m_timelineView; }
    [[nodiscard]] Composer *composer() const { return m_composer; }
    [[nodiscard]] ContextMeter *contextMeter() const;
    [[nodiscard]] ChangesPane *changesPane() const { return m_changes; }
    [[nodiscard]] QSplitter *splitter() const { return m_splitter; }
    [[nodiscard]] QSplitter *centerSplitter() const { return m_centerSplitter; }
    /// The window's actions by object name: "newSession", "forkSession", "renameSession",
    /// "archiveSession", "deleteSession", "exportSession", "revealDataFile", "find", "compact",
    /// "stop", "quit", ...
    [[nodiscard]] QAction *action(const QString &name) const { return m_actions.value(name); }

    [[nodiscard]] QString currentSessionID() const { return m_current; }
    /// Selects @p sessionID in the sidebar and shows it.
    bool openSession(const QString &sessionID);
    /// Forks @p sessionID before @p messageID (see SessionService::fork) off the GUI thread, then
    /// opens the new session.
    void forkSession(const QString &sessionID, const QString &messageID);
    /// Writes the export document of @p sessionID (`opencode export`) to @p path.
    bool exportSession(const QString &sessionID, const QString &path, QString *error = nullptr);
    /// The number of problems shown in the status bar.
    [[nodiscard]] int problemCount() const { return m_problemCount; }
    /// Replaces the confirmation dialogs (tests, scripted use): returns whether to go ahead.
    void setConfirmationHandler(std::function<bool(const QString &title, const QString &text)> handler);

Q_SIGNALS:
    void currentSessionChanged(const QString &sessionID);
    /// A fork finished and the new session is open.
    void forked(const QString &newSessionID);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    void showSession(const QString &sessionID);
    void updateHeader();
    void updateActions();
    void updateProblems();
    void showProblems();
    void newSession();
    void renameSession();
    void toggleArchived();
    void deleteSession();
    void exportCurrent();
    void revealDataFile();
    void about();
    void notAvailableYet(const QString &what);
    bool confirm(const QString &title, const QString &text);
    void readSettings();
    void writeSettings();
    QAction *makeAction(const QString &name, const QString &text, const QString &icon,
                        const QKeySequence &shortcut = {});

    std::shared_ptr<SessionService> m_service;
    QString m_dataDir;
    QString m_current;
    SessionsModel *m_sessions;
    SessionTreeModel *m_tree;
    TimelineModel *m_timeline;
    SessionSidebar *m_sidebar = nullptr;
    SessionHeader *m_header = nullptr;
    TimelineView *m_timelineView = nullptr;
    Composer *m_composer = nullptr;
    ChangesPane *m_changes = nullptr;
    QSplitter *m_splitter = nullptr;
    QSplitter *m_centerSplitter = nullptr;
    QLabel *m_dataDirLabel = nullptr;
    QToolButton *m_problemsButton = nullptr;
    QHash<QString, QAction *> m_actions;
    std::function<bool(const QString &, const QString &)> m_confirm;
    int m_problemCount = 0;
    bool m_settingsRead = false;
};

} // namespace weft
