// SPDX-License-Identifier: GPL-3.0-or-later
#include "trashdialog.h"

#include "noticebar.h"
#include "session/sessionservice.h"
#include "style.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
constexpr int EntryRole = Qt::UserRole + 1;
}

TrashDialog::TrashDialog(SessionService *service, std::function<bool(const QString &, const QString &)> confirm,
                         QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_confirm(std::move(confirm))
{
    setObjectName(u"trashDialog"_s);
    setWindowTitle(tr("Trash"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Deleted sessions stay here for 30 days, then they are deleted for good."), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(u"trashList"_s);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Session"), tr("Folder"), tr("Deleted")});
    m_list->setAccessibleName(tr("Deleted sessions"));
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(1, QHeaderView::Interactive);
    m_list->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(false);
    layout->addWidget(m_list, 1);

    // Errors in the dialog itself, not in a second modal box over it.
    m_notices = new NoticeBar(this);
    layout->addWidget(m_notices);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_restore = buttons->addButton(tr("&Restore"), QDialogButtonBox::ActionRole);
    m_restore->setObjectName(u"restore"_s);
    m_restore->setIcon(Style::icon(u"edit-undo"_s));
    m_delete = buttons->addButton(tr("&Delete Permanently"), QDialogButtonBox::ActionRole);
    m_delete->setObjectName(u"deletePermanently"_s);
    m_delete->setIcon(Style::icon(u"edit-delete"_s));
    m_empty = buttons->addButton(tr("&Empty Trash"), QDialogButtonBox::ActionRole);
    m_empty->setObjectName(u"emptyTrash"_s);
    m_empty->setIcon(Style::icon(u"trash-empty"_s));
    // Enter restores: the safe action, never the one that deletes.
    m_restore->setDefault(true);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_restore, &QPushButton::clicked, this, &TrashDialog::restoreCurrent);
    connect(m_delete, &QPushButton::clicked, this, &TrashDialog::deleteCurrent);
    connect(m_empty, &QPushButton::clicked, this, &TrashDialog::emptyTrash);
    connect(m_list, &QTreeWidget::itemActivated, this, &TrashDialog::restoreCurrent);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &TrashDialog::updateButtons);
    connect(m_service, &SessionService::trashChanged, this, &TrashDialog::reload);
    resize(640, 380);
    reload();
}

TrashDialog::~TrashDialog() = default;

QString TrashDialog::currentEntry() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    return item ? item->data(0, EntryRole).toString() : QString();
}

bool TrashDialog::selectEntry(const QString &entryID)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->data(0, EntryRole).toString() == entryID) {
            m_list->setCurrentItem(m_list->topLevelItem(i));
            return true;
        }
    }
    return false;
}

void TrashDialog::reload()
{
    const QString current = currentEntry();
    m_list->clear();
    const QLocale locale;
    for (const TrashEntry &e : m_service->trashEntries()) {
        QString title = e.title.isEmpty() ? tr("(untitled)") : e.title;
        if (!e.children.isEmpty())
            title += u"  "_s
                + Style::plural(tr("(+%n subagent session(s))", nullptr, int(e.children.size())), e.children.size());
        auto *item = new QTreeWidgetItem(m_list, {title, e.directory, Style::relativeTime(e.deleted)});
        item->setData(0, EntryRole, e.id);
        const QString when = e.deleted > 0
            ? locale.toString(QDateTime::fromMSecsSinceEpoch(e.deleted), QLocale::LongFormat)
            : QString();
        item->setToolTip(2, when);
        item->setToolTip(1, e.directory);
        if (!e.problem.isEmpty()) {
            item->setToolTip(0, tr("This entry cannot be restored: %1").arg(e.problem));
            item->setIcon(0, Style::icon(u"dialog-warning"_s));
        }
    }
    if (!selectEntry(current) && m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    updateButtons();
}

void TrashDialog::updateButtons()
{
    const bool have = !currentEntry().isEmpty();
    m_restore->setEnabled(have);
    m_delete->setEnabled(have);
    m_empty->setEnabled(m_list->topLevelItemCount() > 0);
}

void TrashDialog::showError(const QString &text)
{
    m_notices->showNotice(u"error"_s, NoticeBar::Kind::Error, text, {}, true);
}

void TrashDialog::restoreCurrent()
{
    const QString entry = currentEntry();
    if (entry.isEmpty())
        return;
    m_notices->removeNotice(u"error"_s);
    const Result<Session> session = m_service->restoreFromTrash(entry);
    if (!session) {
        showError(tr("The session could not be restored:\n%1").arg(session.error().toString()));
        return;
    }
    Q_EMIT restored(session->id());
}

void TrashDialog::deleteCurrent()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    const QString entry = currentEntry();
    if (m_confirm && !m_confirm(tr("Delete Permanently"),
                                tr("Delete “%1” for good?\n\nThis cannot be undone.").arg(item->text(0))))
        return;
    m_notices->removeNotice(u"error"_s);
    if (const Result<void> r = m_service->deleteFromTrash(entry); !r)
        showError(tr("The session could not be deleted:\n%1").arg(r.error().toString()));
}

void TrashDialog::emptyTrash()
{
    const int count = m_list->topLevelItemCount();
    if (count == 0)
        return;
    if (m_confirm
        && !m_confirm(tr("Empty Trash"),
                      Style::plural(tr("Delete the %n session(s) in the trash for good?", nullptr, count), count)
                          + u"\n\n"_s + tr("This cannot be undone.")))
        return;
    m_notices->removeNotice(u"error"_s);
    if (const Result<void> r = m_service->emptyTrash(); !r)
        showError(tr("The trash could not be emptied:\n%1").arg(r.error().toString()));
}

} // namespace weft
