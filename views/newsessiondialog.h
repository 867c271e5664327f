// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/sessioncontroller.h"

#include <QDialog>
#include <QPointer>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace weft
{

/// Session › New Session…: the folder the session works in, and whether it works in a new git
/// worktree of that folder's repository instead: its name (checked as Worktrees checks it; its
/// branch is weft/NAME), the folder that receives it (beside the repository unless changed), and
/// whether the repository's setup script runs there. What the repository offers is read off the
/// GUI thread when the folder changes; a folder in no repository leaves the plain session.
class NewSessionDialog : public QDialog
{
    Q_OBJECT

public:
    NewSessionDialog(SessionController *controller, QWidget *parent = nullptr);

    /// Sets the folder (and reads its repository) and the project the session belongs to.
    void setDirectory(const QString &directory, const QString &projectID = {});
    /// Whether "in a new worktree" starts checked (once the folder is known to be in a repository).
    void setInWorktree(bool inWorktree);
    /// The folder that receives worktrees; empty: beside the repository.
    void setWorktreeParent(const QString &parent);
    void setWorktreeName(const QString &name);

    [[nodiscard]] bool inWorktree() const;
    /// The parent folder as the user left it (empty: the default).
    [[nodiscard]] QString worktreeParent() const;
    /// What the dialog asks for.
    [[nodiscard]] NewSessionRequest request() const;
    /// Whether the folder's repository was read (repositoryRead() said so).
    [[nodiscard]] bool isRepository() const { return m_repository.has_value(); }

    /// A name for a new worktree: "session-MMDD-HHMM" from the time now.
    [[nodiscard]] static QString suggestedName();

Q_SIGNALS:
    /// The folder's repository was read (or found missing).
    void repositoryRead();

private:
    void readRepository();
    void validate();
    void chooseFolder(QLineEdit *edit, const QString &title);

    QPointer<SessionController> m_controller;
    QString m_projectID;
    std::optional<SessionController::WorktreeRepository> m_repository;
    bool m_wantWorktree = false;
    bool m_reading = false; // the folder's repository is being read
    int m_generation = 0;
    QLineEdit *m_directory;
    QCheckBox *m_inWorktree;
    QLineEdit *m_name;
    QLabel *m_branch;
    QLineEdit *m_parent;
    QPushButton *m_parentBrowse;
    QCheckBox *m_runSetup;
    QLabel *m_hint;
    QDialogButtonBox *m_buttons;
};

} // namespace weft
