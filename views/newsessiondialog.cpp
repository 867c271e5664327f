// SPDX-License-Identifier: GPL-3.0-or-later
#include "newsessiondialog.h"

#include "app/sessionworktree.h"
#include "core/async.h"
#include "style.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

NewSessionDialog::NewSessionDialog(SessionController *controller, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
{
    setWindowTitle(tr("New Session"));
    setObjectName(u"newSessionDialog"_s);

    m_directory = new QLineEdit(this);
    m_directory->setObjectName(u"directory"_s);
    auto *browse = new QPushButton(tr("&Browse…"), this);
    browse->setObjectName(u"browseDirectory"_s);
    browse->setAutoDefault(false);
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_directory, 1);
    folderRow->addWidget(browse);

    m_inWorktree = new QCheckBox(tr("In a new git &worktree"), this);
    m_inWorktree->setObjectName(u"inWorktree"_s);
    m_inWorktree->setToolTip(tr("The session works on a branch of its own in a copy of the repository, "
                                "and its work comes back when you apply it (Session › Worktree)."));
    m_name = new QLineEdit(this);
    m_name->setObjectName(u"worktreeName"_s);
    m_name->setText(suggestedName());
    m_branch = new QLabel(this);
    m_branch->setObjectName(u"worktreeBranch"_s);
    m_branch->setForegroundRole(QPalette::PlaceholderText);
    m_parent = new QLineEdit(this);
    m_parent->setObjectName(u"worktreeParent"_s);
    m_parentBrowse = new QPushButton(tr("B&rowse…"), this);
    m_parentBrowse->setObjectName(u"browseParent"_s);
    m_parentBrowse->setAutoDefault(false);
    auto *parentRow = new QHBoxLayout;
    parentRow->addWidget(m_parent, 1);
    parentRow->addWidget(m_parentBrowse);
    m_runSetup = new QCheckBox(this);
    m_runSetup->setObjectName(u"runSetup"_s);
    m_hint = new QLabel(this);
    m_hint->setObjectName(u"hint"_s);
    m_hint->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Folder:"), folderRow);
    form->addRow(QString(), m_inWorktree);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(QString(), m_branch);
    form->addRow(tr("&Put it in:"), parentRow);
    form->addRow(QString(), m_runSetup);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Create"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(u"create"_s);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_hint);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    setMinimumWidth(520);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        chooseFolder(m_directory, tr("Folder of the New Session"));
        readRepository();
    });
    connect(m_parentBrowse, &QPushButton::clicked, this,
            [this] { chooseFolder(m_parent, tr("Folder for Worktrees")); });
    connect(m_directory, &QLineEdit::editingFinished, this, [this] {
        if (!m_repository || QDir::cleanPath(m_directory->text()) != m_directory->property("read").toString())
            readRepository();
    });
    connect(m_inWorktree, &QCheckBox::toggled, this, [this](bool checked) {
        m_wantWorktree = checked;
        validate();
    });
    connect(m_name, &QLineEdit::textChanged, this, &NewSessionDialog::validate);
    validate();
}

QString NewSessionDialog::suggestedName()
{
    return u"session-"_s + QDateTime::currentDateTime().toString(u"MMdd-HHmm"_s);
}

void NewSessionDialog::setDirectory(const QString &directory, const QString &projectID)
{
    m_projectID = projectID;
    m_directory->setText(QDir::toNativeSeparators(directory));
    readRepository();
}

void NewSessionDialog::setInWorktree(bool inWorktree)
{
    m_wantWorktree = inWorktree;
    m_inWorktree->setChecked(inWorktree && m_repository);
    validate();
}

void NewSessionDialog::setWorktreeParent(const QString &parent)
{
    m_parent->setText(QDir::toNativeSeparators(parent));
}

void NewSessionDialog::setWorktreeName(const QString &name)
{
    m_name->setText(name);
}

bool NewSessionDialog::inWorktree() const
{
    return m_repository && m_inWorktree->isChecked();
}

QString NewSessionDialog::worktreeParent() const
{
    const QString parent = QDir::cleanPath(QDir::fromNativeSeparators(m_parent->text().trimmed()));
    return m_repository && parent == m_repository->defaultParent ? QString() : (parent == u"." ? QString() : parent);
}

NewSessionRequest NewSessionDialog::request() const
{
    NewSessionRequest r;
    r.directory = QDir::cleanPath(QDir::fromNativeSeparators(m_directory->text().trimmed()));
    // Another folder than the one given may be another project: identified from the folder then.
    if (r.directory == m_directory->property("given").toString())
        r.projectID = m_projectID;
    if (inWorktree()) {
        Worktrees::CreateOptions options;
        options.name = m_name->text().trimmed();
        options.parent = worktreeParent();
        r.worktree = options;
        r.runSetup = m_runSetup->isEnabled() && m_runSetup->isChecked();
    }
    return r;
}

void NewSessionDialog::chooseFolder(QLineEdit *edit, const QString &title)
{
    const QString chosen = QFileDialog::getExistingDirectory(this, title, QDir::fromNativeSeparators(edit->text()));
    if (!chosen.isEmpty())
        edit->setText(QDir::toNativeSeparators(chosen));
}

void NewSessionDialog::readRepository()
{
    const QString directory = QDir::cleanPath(QDir::fromNativeSeparators(m_directory->text().trimmed()));
    if (m_directory->property("given").isNull())
        m_directory->setProperty("given", directory);
    m_directory->setProperty("read", directory);
    m_repository.reset();
    const int generation = ++m_generation;
    m_reading = m_controller && !directory.isEmpty();
    validate();
    if (!m_reading)
        return;
    whenFinished(m_controller->worktreeRepository(directory), this,
                 [this, generation](const Result<SessionController::WorktreeRepository> &read) {
                     if (generation != m_generation)
                         return;
                     m_reading = false;
                     if (read) {
                         m_repository = read.value();
                         m_inWorktree->setChecked(m_wantWorktree);
                         m_parent->setPlaceholderText(QDir::toNativeSeparators(m_repository->defaultParent));
                         if (m_parent->text().isEmpty())
                             m_parent->setText(QDir::toNativeSeparators(m_repository->defaultParent));
                     }
                     validate();
                     Q_EMIT repositoryRead();
                 });
}

void NewSessionDialog::validate()
{
    const bool reading = m_reading;
    const bool repository = m_repository.has_value();
    m_inWorktree->setEnabled(repository);
    const bool worktree = repository && m_inWorktree->isChecked();
    for (QWidget *w : {static_cast<QWidget *>(m_name), static_cast<QWidget *>(m_parent),
                       static_cast<QWidget *>(m_parentBrowse), static_cast<QWidget *>(m_branch)})
        w->setEnabled(worktree);
    const QString script = repository ? m_repository->setupScript : QString();
    const QString scriptName = SessionWorktree::setupScriptName();
    m_runSetup->setText(script.isEmpty() ? tr("Run the setup script (the repository has no %1)").arg(scriptName)
                                         : tr("Run the &setup script %1 there").arg(scriptName));
    m_runSetup->setEnabled(worktree && !script.isEmpty());
    if (!script.isEmpty() && !m_runSetup->property("set").toBool()) {
        m_runSetup->setChecked(true);
        m_runSetup->setProperty("set", true);
    }
    const QString name = m_name->text().trimmed();
    const QString why = worktree ? Worktrees::whyInvalidName(name) : QString();
    m_branch->setText(tr("On a new branch: %1").arg(u"weft/"_s + (name.isEmpty() ? u"…"_s : name)));
    QString hint;
    if (!why.isEmpty())
        hint = why;
    else if (!reading && !repository && !m_directory->text().trimmed().isEmpty())
        hint = tr("The folder is in no git repository: the session works in the folder itself.");
    else if (reading)
        hint = tr("Looking for the folder's git repository…");
    m_hint->setText(hint);
    QPalette hintPalette = palette();
    hintPalette.setColor(QPalette::WindowText, why.isEmpty() ? Style::dimText(palette()) : Style::negative(palette()));
    m_hint->setPalette(hintPalette);
    const bool folder = !m_directory->text().trimmed().isEmpty();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(folder && why.isEmpty() && !reading);
}

} // namespace weft
