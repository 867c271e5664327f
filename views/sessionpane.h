// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QWidget>

#include <optional>

class QSplitter;

namespace weft
{

class ChangesPane;
class Composer;
class ContextMeter;
class FindBar;
class QueuedPromptsView;
class ServerSource;
class SessionController;
class SessionHeader;
class SessionTreeModel;
class SessionsModel;
class StartupGate;
class TimelineModel;
class TimelineView;
class TodoPanel;

/// One open session in the window: its header (title, folder, context meter), its timeline with
/// the find bar and the todo list, the prompts queued for it, the composer, and its changes pane
/// beside them (shown or not, per pane). A pane shows one session at a time and can switch to
/// another (setSession()); the window has one or more of them (PaneArea) and acts on the focused
/// one.
///
/// What the pane keeps true by itself: the composer's choices (agents, models, commands of the
/// session's project), whether it may prompt (read-only sources, runs held by another process),
/// the header and the context meter, the revert shown in the timeline. What needs the window
/// (sending, compacting, forking, notices) it hands over through the composer's and the
/// timeline's signals.
///
/// Hidden (a background tab), it lets go of what it can lay out again when shown: the
/// timeline's laid-out text. Its rows stay, and a run of its session keeps streaming into them.
class SessionPane : public QWidget
{
    Q_OBJECT

public:
    /// A pane on @p controller's sessions; @p tree holds the sessions of every source (the
    /// sidebar's), for the session's title and folder as listed. The project's choices, the
    /// composer's file list and the worktree wait for @p gate (none: they start at once).
    SessionPane(SessionController *controller, SessionTreeModel *tree, StartupGate *gate = nullptr,
                QWidget *parent = nullptr);
    ~SessionPane() override;

    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    /// The source of the session shown: empty for Weft's own, SessionTreeModel::sourceOf's key else.
    [[nodiscard]] QString source() const { return m_source; }
    /// Shows @p sessionID of @p source (empty: no session).
    void setSession(const QString &sessionID, const QString &source = {});
    /// The session shown, as the sidebar lists it.
    [[nodiscard]] std::optional<Session> sessionInfo() const;
    /// The tab's text: the session's title, or "No Session".
    [[nodiscard]] QString title() const;
    /// The server of the session shown, or null (Weft's own session or OpenCode's folder's).
    [[nodiscard]] ServerSource *server() const;
    /// Whether prompts and compactions may run the session shown from here.
    [[nodiscard]] bool isRunnable() const;
    /// Whether the session's last compaction can be undone now (from the loaded rows).
    [[nodiscard]] bool canUndoCompaction() const;
    /// What the project's configuration says is wrong with it (prompts cannot go), or empty.
    [[nodiscard]] QString projectError() const { return m_projectError; }

    [[nodiscard]] TimelineModel *timelineModel() const { return m_timeline; }
    [[nodiscard]] TimelineView *timelineView() const { return m_timelineView; }
    [[nodiscard]] Composer *composer() const { return m_composer; }
    [[nodiscard]] ChangesPane *changesPane() const { return m_changes; }
    [[nodiscard]] FindBar *findBar() const { return m_findBar; }
    [[nodiscard]] QueuedPromptsView *queuedPrompts() const { return m_queued; }
    [[nodiscard]] ContextMeter *contextMeter() const;
    /// Timeline | changes pane.
    [[nodiscard]] QSplitter *splitter() const { return m_splitter; }
    /// Timeline over the composer.
    [[nodiscard]] QSplitter *centerSplitter() const { return m_centerSplitter; }

    /// Shows or hides the changes pane beside the timeline.
    void setChangesShown(bool shown);
    [[nodiscard]] bool changesShown() const { return m_changesShown; }
    /// Marks the pane as the one the window acts on (an accent line over it).
    void setActive(bool active);
    [[nodiscard]] bool isActive() const { return m_active; }

    /// The agents and models of the processor, then the project's choices (updateProjectChoices()).
    void applyProcessor();
    /// Whether the composer may send, as the session's source and its runs allow now.
    void updateSourceState();
    /// The agents, models and commands of the session's project in the composer (off the GUI thread).
    void updateProjectChoices();
    /// The header's title and details, and the context meter.
    void updateHeader();
    void updateContextMeter();
    /// The composer's Send or Stop, as the controller runs the session.
    void updateRunning();
    /// The revert of the session, as listed, in the timeline (its messages hidden).
    void updateRevert();

Q_SIGNALS:
    /// Another session is shown (or none).
    void sessionChanged();
    /// The title or what the window's actions follow changed (loaded, renamed, running).
    void stateChanged();
    /// The rows changed in a way the window's notices follow (compaction, revert).
    void rowsChanged();
    /// The project's configuration error changed (projectError()).
    void projectErrorChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    [[nodiscard]] SessionsModel *sessionsFor(const QString &source) const;

    SessionController *m_controller;
    SessionTreeModel *m_tree;
    StartupGate *m_gate;
    /// updateProjectChoices() waits for the gate.
    bool m_choicesWaiting = false;
    /// updateContextMeter()'s limit waits for the gate.
    bool m_meterWaiting = false;
    QString m_sessionID;
    QString m_source;
    QString m_projectError;
    bool m_active = false;
    /// Whether the changes pane shows (asked, whether or not the pane is on screen now).
    bool m_changesShown = true;
    /// The composer lists an OpenCode 2 server's models (Weft's come back for other sessions).
    bool m_serverModelsShown = false;
    TimelineModel *m_timeline;
    SessionHeader *m_header;
    TimelineView *m_timelineView;
    FindBar *m_findBar;
    TodoPanel *m_todos;
    QueuedPromptsView *m_queued;
    Composer *m_composer;
    ChangesPane *m_changes;
    QSplitter *m_centerSplitter;
    QSplitter *m_splitter;
};

} // namespace weft
