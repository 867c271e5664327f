// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "app/sessioncontroller.h"
#include "startupgate.h"

#include <QPointer>
#include <QSet>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QButtonGroup;
class QLabel;
class QListView;
class QSplitter;
class QToolButton;

namespace weft
{

class DiffDocument;
class DiffModel;
class DiffView;
class SessionService;
class TimelineModel;
class UserQuestions;

/// The right-hand pane: what the agent changed on disk. The files of the open session's
/// session_diff, or of one turn (a user message's summary.diffs), with the diff of the selected
/// file below (DiffView); a toggle between the two scopes; revert of one file or of a whole turn,
/// each after a confirmation that names the files it changes.
class ChangesPane : public QWidget
{
    Q_OBJECT

public:
    /// Worktree: everything the session's git worktree changed since its base commit (Worktrees::diff()).
    enum class Scope { Session, Turn, Worktree };

    explicit ChangesPane(SessionService *service, QWidget *parent = nullptr);
    ~ChangesPane() override;

    /// The controller that reverts (a file, a turn) and unreverts: without one the pane only
    /// shows.
    void setController(SessionController *controller);
    /// The worktree of a session is asked for once @p gate opens (the window's first frame;
    /// none: at once).
    void setStartupGate(StartupGate *gate) { m_gate = gate; }
    /// The timeline of the session shown: a turn that is one of its rows takes its diffs and
    /// prompt from there instead of reading them again.
    void setTimelineModel(TimelineModel *model) { m_timeline = model; }
    /// The service of the sessions shown next (Weft's, or an OpenCode server's).
    void setService(SessionService *service);
    /// Reads the session's diff off the GUI thread and lists it (the session scope).
    void setSessionID(const QString &sessionID);
    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    /// Shows the changes of the turn of user message @p messageID (the turn scope).
    void showTurn(const QString &messageID);
    [[nodiscard]] QString turnMessageID() const { return m_turnID; }
    [[nodiscard]] Scope scope() const { return m_scope; }
    /// The worktree the session works in, once the controller said (the Worktree scope is offered then).
    [[nodiscard]] std::optional<Worktree> worktree() const { return m_worktree; }
    /// Switches between the whole session, the turn shown last and the session's worktree.
    void setScope(Scope scope);

    [[nodiscard]] DiffModel *model() const { return m_model; }
    [[nodiscard]] DiffView *diffView() const { return m_view; }
    [[nodiscard]] QListView *list() const { return m_list; }
    /// The row of the file shown, or -1.
    [[nodiscard]] int currentFile() const;
    /// Selects file @p row; its diff is built off the GUI thread unless built before (the view
    /// shows "computing" meanwhile, fileShown() follows).
    void selectFile(int row);
    /// Whether the diff of the selected file is still being built.
    [[nodiscard]] bool isComputing() const { return m_pendingRow >= 0; }
    /// Files whose size guard was lifted by "Show anyway" (by path).
    [[nodiscard]] bool isForcedShown(const QString &path) const { return m_forceShown.contains(path); }

    /// Puts the selected file back as it was before (after a confirmation).
    void revertFile();
    /// Reverts the turn shown (OpenCode's revert: the files, and the turn with the messages after it
    /// hidden until the next prompt), after a confirmation.
    void revertTurn();
    /// Brings back what the session's pending revert undid.
    void unrevert();

    /// Who confirms a revert (the window's; dialogs over the pane when none is given).
    void setUserQuestions(std::shared_ptr<UserQuestions> questions);
    /// The last message shown in the pane's banner (a revert's result or why it was refused).
    [[nodiscard]] QString bannerText() const;

    [[nodiscard]] QAction *revertFileAction() const { return m_revertFile; }
    [[nodiscard]] QAction *revertTurnAction() const { return m_revertTurn; }
    [[nodiscard]] QAction *unrevertAction() const { return m_unrevert; }

    QSize sizeHint() const override;

Q_SIGNALS:
    /// The files of the current scope are listed.
    void loaded();
    /// Whether the session shown works in a worktree is known (worktree()).
    void worktreeKnown();
    /// The diff of the selected file is shown, after it was built off the GUI thread.
    void fileShown();
    /// A revert (of a file or a turn) or an unrevert finished; @p message says what happened.
    void revertFinished(bool ok, const QString &message);

private:
    struct Loaded;
    void load();
    void showLoaded(const Loaded &loaded);
    void showDiffs(const QList<FileDiff> &diffs);
    void showFile(int row);
    void documentReady(int row);
    void moveToFile(int row, bool forward);
    void updateSummary();
    void updateActions();
    void showBanner(const QString &text, bool ok);
    void ensureRoom();
    bool confirm(const QString &title, const QString &text, const QString &button);
    UserQuestions &questions();
    /// Files (relative to the session's directory) of @p messages a revert from @p messageID on
    /// restores.
    [[nodiscard]] QStringList filesRevertedFrom(const QList<MessageWithParts> &messages, const QString &messageID) const;
    void confirmRevertFile(const std::shared_ptr<const DiffDocument> &doc, const QString &directory, const QString &path);
    void confirmRevertTurn(const RevertPlan &plan, const QList<MessageWithParts> &messages);
    void confirmUnrevert(const QList<MessageWithParts> &messages);
    /// Ends the revert under way: the banner and revertFinished().
    void finishRevert(bool ok, const QString &message);
    [[nodiscard]] QString relativePath(const QString &path) const;

    void connectService();

    SessionService *m_service;
    TimelineModel *m_timeline = nullptr; // owned by the window, which outlives the pane
    QPointer<SessionController> m_controller;
    QPointer<StartupGate> m_gate;
    QString m_sessionID;
    std::optional<Session> m_session;
    QString m_turnID;
    QString m_turnPrompt;
    Scope m_scope = Scope::Session;
    DiffModel *m_model;
    DiffView *m_view;
    QListView *m_list;
    QSplitter *m_splitter;
    QLabel *m_summary;
    QLabel *m_empty;
    QLabel *m_banner;
    QToolButton *m_sessionButton;
    QToolButton *m_turnButton;
    QToolButton *m_worktreeButton;
    std::optional<Worktree> m_worktree;
    QButtonGroup *m_scopeGroup;
    QToolButton *m_revertButton;
    QAction *m_revertFile;
    QAction *m_revertTurn;
    QAction *m_unrevert;
    QAction *m_nextFile;
    QAction *m_previousFile;
    QSet<QString> m_forceShown;
    std::shared_ptr<UserQuestions> m_questions;
    int m_generation = 0;
    /// The file whose diff is being built to be shown (-1: none): a build finishing for another
    /// file (an older selection) is not shown.
    int m_pendingRow = -1;
    /// The hunk to go to once that diff is shown (next / previous file), or none.
    std::optional<int> m_pendingHunk;
    /// What the pane waits for: the reads before a confirmation, or the revert itself.
    enum class Reverting { None, File, Turn, Unrevert };
    Reverting m_reverting = Reverting::None;
    QString m_revertingSession;
    qsizetype m_revertingFiles = 0; // files a turn's revert restores or deletes
};

} // namespace weft
