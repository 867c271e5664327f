// SPDX-License-Identifier: GPL-3.0-or-later
#include "worktreedialogs.h"

#include "core/async.h"
#include "style.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
QLabel *dimLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, Style::dimText(p));
    label->setPalette(p);
    return label;
}

QString branchOf(const Worktree &worktree)
{
    return worktree.branch.isEmpty() ? QFileInfo(worktree.path).fileName() : worktree.branch;
}
} // namespace

// ---- ApplyWorktreeDialog ------------------------------------------------------------------------

ApplyWorktreeDialog::ApplyWorktreeDialog(SessionController *controller, const Worktree &worktree, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_worktree(worktree)
{
    setObjectName(u"applyWorktreeDialog"_s);
    setWindowTitle(tr("Apply to Main Checkout"));
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_intro->setTextFormat(Qt::PlainText);
    m_intro->setText(tr("Reading what %1 holds…").arg(branchOf(worktree)));

    auto *how = new QGroupBox(tr("How"), this);
    m_merge = new QRadioButton(tr("&Merge its branch (a merge commit; uncommitted changes stay behind)"), how);
    m_merge->setObjectName(u"modeMerge"_s);
    m_rebase = new QRadioButton(tr("&Rebase its branch onto the main checkout's, then fast-forward"), how);
    m_rebase->setObjectName(u"modeRebase"_s);
    m_diff = new QRadioButton(tr("Apply everything as &uncommitted changes (committed or not)"), how);
    m_diff->setObjectName(u"modeDiff"_s);
    m_modes = new QButtonGroup(this);
    m_modes->addButton(m_merge, int(ApplyMode::Merge));
    m_modes->addButton(m_rebase, int(ApplyMode::Rebase));
    m_modes->addButton(m_diff, int(ApplyMode::Diff));
    m_merge->setChecked(true);
    m_modeNote = dimLabel(how);
    m_modeNote->setObjectName(u"modeNote"_s);
    auto *howLayout = new QVBoxLayout(how);
    howLayout->addWidget(m_merge);
    howLayout->addWidget(m_rebase);
    howLayout->addWidget(m_diff);
    howLayout->addWidget(m_modeNote);

    m_commitsLabel = new QLabel(tr("Commits"), this);
    m_commits = new QListWidget(this);
    m_commits->setObjectName(u"commits"_s);
    m_filesLabel = new QLabel(tr("Files"), this);
    m_files = new QListWidget(this);
    m_files->setObjectName(u"files"_s);
    auto *commitsColumn = new QVBoxLayout;
    commitsColumn->addWidget(m_commitsLabel);
    commitsColumn->addWidget(m_commits);
    auto *filesColumn = new QVBoxLayout;
    filesColumn->addWidget(m_filesLabel);
    filesColumn->addWidget(m_files);
    auto *lists = new QHBoxLayout;
    lists->addLayout(commitsColumn, 1);
    lists->addLayout(filesColumn, 1);

    m_outcome = new QLabel(this);
    m_outcome->setObjectName(u"outcome"_s);
    m_outcome->setWordWrap(true);
    m_outcome->setTextFormat(Qt::PlainText);
    m_outcome->hide();
    m_conflictsLabel = new QLabel(tr("Files in conflict"), this);
    m_conflictsLabel->hide();
    m_conflicts = new QListWidget(this);
    m_conflicts->setObjectName(u"conflicts"_s);
    m_conflicts->setMaximumHeight(100);
    m_conflicts->setIconSize(QSize(16, 16));
    m_conflicts->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_apply = m_buttons->addButton(tr("&Apply"), QDialogButtonBox::AcceptRole);
    m_apply->setObjectName(u"apply"_s);
    m_apply->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(how);
    layout->addLayout(lists, 1);
    layout->addWidget(m_outcome);
    layout->addWidget(m_conflictsLabel);
    layout->addWidget(m_conflicts);
    layout->addWidget(m_buttons);
    resize(720, 520);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &ApplyWorktreeDialog::apply);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_modes, &QButtonGroup::idToggled, this, [this](int, bool checked) {
        if (checked)
            updateMode();
    });
    if (!m_controller)
        return;
    whenFinished(m_controller->worktreeChanges(worktree), this,
                 [this](const Result<SessionController::WorktreeChanges> &changes) {
                     if (changes) {
                         showChanges(changes.value());
                     } else {
                         m_intro->setText(tr("What %1 holds cannot be read: %2")
                                              .arg(branchOf(m_worktree), changes.error().toString()));
                     }
                     Q_EMIT loaded();
                 });
}

ApplyMode ApplyWorktreeDialog::mode() const
{
    return ApplyMode(m_modes->checkedId());
}

void ApplyWorktreeDialog::setMode(ApplyMode mode)
{
    m_modes->button(int(mode))->setChecked(true);
}

QString ApplyWorktreeDialog::outcomeText() const
{
    return m_outcome->isVisible() ? m_outcome->text() : QString();
}

void ApplyWorktreeDialog::showChanges(const SessionController::WorktreeChanges &changes)
{
    m_changes = changes;
    m_intro->setText(changes.mainBranch.isEmpty()
                         ? tr("Bring the work of %1 (%2) into the main checkout %3.")
                               .arg(branchOf(m_worktree), m_worktree.path, changes.mainPath)
                         : tr("Bring the work of %1 (%2) into the main checkout %3, on %4.")
                               .arg(branchOf(m_worktree), m_worktree.path, changes.mainPath, changes.mainBranch));
    m_commits->clear();
    for (const WorktreeCommit &c : changes.commits) {
        auto *item = new QListWidgetItem(c.hash.left(8) + u"  "_s + c.subject, m_commits);
        item->setToolTip(c.hash);
    }
    m_files->clear();
    for (const FileDiff &f : changes.files) {
        const QString status = f.status() == u"added" ? u"A"_s : f.status() == u"deleted" ? u"D"_s : u"M"_s;
        const QString line = u"%1  %2   +%3 \u2212%4"_s.arg(status, f.file()).arg(f.additions()).arg(f.deletions());
        auto *item = new QListWidgetItem(line, m_files);
        item->setData(Qt::UserRole, f.file());
        if (changes.uncommitted.contains(f.file()))
            item->setToolTip(tr("Not committed in the worktree"));
    }
    m_apply->setEnabled(true);
    updateMode();
}

void ApplyWorktreeDialog::updateMode()
{
    if (!m_changes)
        return;
    const ApplyMode current = mode();
    const bool branchModes = !m_changes->mainDirty && !m_worktree.branch.isEmpty();
    const bool open = !m_applying && !m_done;
    m_merge->setEnabled(open && branchModes);
    m_rebase->setEnabled(open && branchModes);
    m_diff->setEnabled(open);
    QStringList notes;
    if (m_changes->mainDirty)
        notes << tr("The main checkout has uncommitted changes: merging and rebasing need it clean (commit or stash "
                    "them first).");
    const qsizetype uncommitted = m_changes->uncommitted.size();
    if (current != ApplyMode::Diff && uncommitted > 0)
        notes << Style::plural(tr("%n file(s) changed in the worktree are not committed: merging or rebasing "
                                  "leaves them behind (commit them first, or apply as uncommitted changes).",
                                  nullptr, int(uncommitted)),
                               uncommitted);
    if (current != ApplyMode::Diff && m_changes->commits.isEmpty())
        notes << tr("Its branch has no commits since it was made: there is nothing to merge.");
    m_modeNote->setText(notes.join(u'\n'));
    m_modeNote->setVisible(!notes.isEmpty());
    const qsizetype commits = m_changes->commits.size();
    m_commitsLabel->setText(current == ApplyMode::Diff
                                ? tr("Commits (%1, their changes come as uncommitted ones)").arg(commits)
                                : tr("Commits (%1)").arg(commits));
    m_filesLabel->setText(tr("Files (%1)").arg(m_changes->files.size()));
    const bool possible = current == ApplyMode::Diff ? !m_changes->files.isEmpty()
                                                     : branchModes && !m_changes->commits.isEmpty();
    m_apply->setEnabled(possible && !m_applying && !m_done);
}

void ApplyWorktreeDialog::apply()
{
    if (!m_controller || m_applying || !m_apply->isEnabled())
        return;
    m_applying = true;
    updateMode();
    m_outcome->setText(tr("Applying…"));
    m_outcome->setPalette(palette());
    m_outcome->show();
    const ApplyMode applying = mode();
    whenFinished(m_controller->applyWorktree(m_worktree, applying), this, [this](const Result<ApplyResult> &result) {
        m_applying = false;
        showOutcome(result);
        Q_EMIT applied(result.ok(), result ? result->conflicts : QStringList(),
                       result ? QString() : result.error().toString());
    });
}

void ApplyWorktreeDialog::showOutcome(const Result<ApplyResult> &result)
{
    const ApplyMode applied = mode();
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("&Close"));
    QPalette p = m_outcome->palette();
    if (!result) {
        m_outcome->setText(tr("Not applied: %1").arg(result.error().toString()));
        p.setColor(QPalette::WindowText, Style::negative(palette()));
        // It may be retried (another mode, after committing in the main checkout).
        m_outcome->setPalette(p);
        m_outcome->show();
        updateMode();
        return;
    }
    m_conflicts->clear();
    // Done, unless a merge or rebase met conflicts and changed nothing: another way may be tried.
    m_done = result->clean() || applied == ApplyMode::Diff;
    if (result->clean()) {
        const QString branch = branchOf(m_worktree);
        m_outcome->setText(applied == ApplyMode::Diff
                               ? tr("Applied: the main checkout has the changes of %1, not committed.").arg(branch)
                               : tr("Applied: the main checkout has the work of %1.").arg(branch));
        p.setColor(QPalette::WindowText, Style::positive(palette()));
        m_conflicts->hide();
        m_conflictsLabel->hide();
    } else {
        const int n = int(result->conflicts.size());
        const QString text = applied == ApplyMode::Diff
            ? tr("Applied with conflicts in %n file(s): they hold conflict markers in the main checkout; resolve them "
                 "there.",
                 nullptr, n)
            : tr("Not applied: %n file(s) conflict. Nothing was changed: the main checkout and the worktree are as "
                 "they were. Resolve it in the worktree, or apply as uncommitted changes.",
                 nullptr, n);
        m_outcome->setText(Style::plural(text, n));
        p.setColor(QPalette::WindowText, Style::negative(palette()));
        for (const QString &file : result->conflicts)
            new QListWidgetItem(Style::icon(u"dialog-warning"_s), file, m_conflicts);
        m_conflictsLabel->setText(tr("Files in conflict (%1)").arg(n));
        m_conflictsLabel->show();
        m_conflicts->show();
    }
    m_outcome->setPalette(p);
    m_outcome->show();
    updateMode();
}

// ---- CommitWorktreeDialog -----------------------------------------------------------------------

CommitWorktreeDialog::CommitWorktreeDialog(SessionController *controller, const QString &sessionID,
                                           const Worktree &worktree, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_worktree(worktree)
{
    setObjectName(u"commitWorktreeDialog"_s);
    setWindowTitle(tr("Commit in Worktree"));
    m_intro = new QLabel(tr("Commit everything %1 holds, new files too, on %2.")
                             .arg(worktree.path, branchOf(worktree)),
                         this);
    m_intro->setWordWrap(true);
    m_intro->setTextFormat(Qt::PlainText);
    m_message = new QPlainTextEdit(this);
    m_message->setObjectName(u"message"_s);
    m_message->setPlaceholderText(tr("The commit message"));
    m_message->setTabChangesFocus(true);
    m_status = dimLabel(this);
    m_status->setObjectName(u"status"_s);
    m_status->setText(tr("The session's model is writing a message…"));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_commit = m_buttons->addButton(tr("&Commit"), QDialogButtonBox::AcceptRole);
    m_commit->setObjectName(u"commit"_s);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(m_message, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    resize(560, 320);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &CommitWorktreeDialog::commit);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_message, &QPlainTextEdit::textChanged, this, [this] {
        if (m_message->hasFocus())
            m_typed = true;
        updateButtons();
    });
    updateButtons();
    if (!m_controller)
        return;
    const QFuture<Result<QString>> proposing = m_controller->proposeCommitMessage(sessionID, worktree);
    whenFinished(proposing, this, [this](const Result<QString> &proposal) {
        if (proposal && !m_typed) {
            m_message->setPlainText(proposal.value());
            m_status->setText(tr("Proposed by the session's model: edit it as you like."));
        } else if (proposal) {
            m_status->setText(tr("The model's proposal was not put in: you had started writing."));
        } else {
            m_status->setText(tr("No message was proposed: %1").arg(proposal.error().toString()));
        }
        Q_EMIT proposed(proposal.ok());
    });
}

QString CommitWorktreeDialog::statusText() const
{
    return m_status->text();
}

void CommitWorktreeDialog::updateButtons()
{
    m_commit->setEnabled(!m_committing && !m_message->toPlainText().trimmed().isEmpty());
}

void CommitWorktreeDialog::commit()
{
    if (!m_controller || m_committing || m_message->toPlainText().trimmed().isEmpty())
        return;
    m_committing = true;
    updateButtons();
    m_status->setText(tr("Committing…"));
    whenFinished(m_controller->commitWorktree(m_worktree, m_message->toPlainText()), this,
                 [this](const Result<QString> &hash) {
                     m_committing = false;
                     if (!hash) {
                         m_status->setText(tr("Not committed: %1").arg(hash.error().toString()));
                         updateButtons();
                         return;
                     }
                     Q_EMIT committed(hash.value());
                     accept();
                 });
}

} // namespace weft
