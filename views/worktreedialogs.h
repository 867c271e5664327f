// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/sessioncontroller.h"

#include <QDialog>
#include <QPointer>

class QButtonGroup;
class QDialogButtonBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QStackedWidget;

namespace weft
{

/// Session › Worktree › Apply to Main Checkout…: how the worktree's work comes into the main
/// checkout (merge its branch, rebase it, or apply everything as uncommitted changes), what will
/// come (its commits, the files it changed), then the outcome: applied, or the files in conflict,
/// listed, with what was left (Merge and Rebase change nothing then; Diff leaves conflict markers).
/// Reads and applies off the GUI thread.
class ApplyWorktreeDialog : public QDialog
{
    Q_OBJECT

public:
    ApplyWorktreeDialog(SessionController *controller, const Worktree &worktree, QWidget *parent = nullptr);

    [[nodiscard]] ApplyMode mode() const;
    void setMode(ApplyMode mode);
    /// What will come, once read (loaded()).
    [[nodiscard]] QListWidget *commitList() const { return m_commits; }
    [[nodiscard]] QListWidget *fileList() const { return m_files; }
    /// The files in conflict after an apply that met some.
    [[nodiscard]] QListWidget *conflictList() const { return m_conflicts; }
    [[nodiscard]] QString outcomeText() const;
    [[nodiscard]] bool isApplying() const { return m_applying; }
    /// Starts the apply (what the Apply button does).
    void apply();

Q_SIGNALS:
    /// What will come was read (or could not be).
    void loaded();
    /// An apply ended: @p ok with the files in @p conflicts (none: clean), or not done (@p error).
    void applied(bool ok, const QStringList &conflicts, const QString &error);

private:
    void showChanges(const SessionController::WorktreeChanges &changes);
    void updateMode();
    void showOutcome(const Result<ApplyResult> &result);

    QPointer<SessionController> m_controller;
    Worktree m_worktree;
    std::optional<SessionController::WorktreeChanges> m_changes;
    bool m_applying = false;
    bool m_done = false; // applied (cleanly, or as a diff with conflict markers): nothing more to do
    QLabel *m_intro;
    QButtonGroup *m_modes;
    QRadioButton *m_merge;
    QRadioButton *m_rebase;
    QRadioButton *m_diff;
    QLabel *m_modeNote;
    QListWidget *m_commits;
    QListWidget *m_files;
    QLabel *m_commitsLabel;
    QLabel *m_filesLabel;
    QLabel *m_outcome;
    QLabel *m_conflictsLabel;
    QListWidget *m_conflicts;
    QDialogButtonBox *m_buttons;
    QPushButton *m_apply;
};

/// Session › Worktree › Commit…: a message the session's model proposes for what the worktree
/// holds (editable, or written by hand meanwhile), then everything it holds committed with it.
class CommitWorktreeDialog : public QDialog
{
    Q_OBJECT

public:
    CommitWorktreeDialog(SessionController *controller, const QString &sessionID, const Worktree &worktree,
                         QWidget *parent = nullptr);

    [[nodiscard]] QPlainTextEdit *messageEdit() const { return m_message; }
    [[nodiscard]] QString statusText() const;
    /// Commits with the message shown (what the Commit button does).
    void commit();

Q_SIGNALS:
    /// The model's proposal arrived (and was put in, unless the user had typed).
    void proposed(bool ok);
    /// The commit was made: its hash.
    void committed(const QString &hash);

private:
    void updateButtons();

    QPointer<SessionController> m_controller;
    Worktree m_worktree;
    bool m_typed = false;
    bool m_committing = false;
    QLabel *m_intro;
    QPlainTextEdit *m_message;
    QLabel *m_status;
    QDialogButtonBox *m_buttons;
    QPushButton *m_commit;
};

} // namespace weft
