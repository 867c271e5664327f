// SPDX-License-Identifier: GPL-3.0-or-later
#include "trashdialog.h"

#include "core/async.h"
#include "noticebar.h"
#include "qt/trashmodel.h"
#include "style.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
/// The trash's rows in words: a title with its subagent sessions, the folder, how long ago.
class TrashRows : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid())
            return {};
        const auto column = TrashModel::Column(index.column());
        switch (role) {
        case Qt::DisplayRole:
            if (column == TrashModel::TitleColumn)
                return title(index);
            if (column == TrashModel::DeletedColumn)
                return Style::relativeTime(index.data(TrashModel::DeletedRole).toLongLong());
            return QIdentityProxyModel::data(index, role);
        case Qt::ToolTipRole:
            if (column == TrashModel::DirectoryColumn)
                return index.data(TrashModel::DirectoryRole);
            if (column == TrashModel::DeletedColumn) {
                const qint64 deleted = index.data(TrashModel::DeletedRole).toLongLong();
                return deleted > 0 ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(deleted), QLocale::LongFormat)
                                   : QString();
            }
            if (const QString problem = index.data(TrashModel::ProblemRole).toString(); !problem.isEmpty())
                return TrashDialog::tr("This entry cannot be restored: %1").arg(problem);
            return {};
        case Qt::DecorationRole:
            if (column == TrashModel::TitleColumn && !index.data(TrashModel::ProblemRole).toString().isEmpty())
                return Style::icon(u"dialog-warning"_s);
            return {};
        default:
            return QIdentityProxyModel::data(index, role);
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return QIdentityProxyModel::headerData(section, orientation, role);
        switch (TrashModel::Column(section)) {
        case TrashModel::TitleColumn:
            return TrashDialog::tr("Session");
        case TrashModel::DirectoryColumn:
            return TrashDialog::tr("Folder");
        case TrashModel::DeletedColumn:
            return TrashDialog::tr("Deleted");
        default:
            return {};
        }
    }

private:
    static QString title(const QModelIndex &index)
    {
        const QString stored = index.data(TrashModel::TitleRole).toString();
        QString title = stored.isEmpty() ? TrashDialog::tr("(untitled)") : stored;
        if (const int children = index.data(TrashModel::ChildrenRole).toInt(); children > 0)
            title += u"  "_s + Style::plural(TrashDialog::tr("(+%n subagent session(s))", nullptr, children), children);
        return title;
    }
};

/// A folder elided in the middle: its start and the project's name at its end stay visible.
class MiddleElided : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideMiddle;
    }
};
} // namespace

TrashDialog::TrashDialog(const std::shared_ptr<SessionService> &service,
                         std::function<bool(const QString &, const QString &)> confirm, QWidget *parent)
    : QDialog(parent)
    , m_confirm(std::move(confirm))
    , m_model(new TrashModel(this))
{
    setObjectName(u"trashDialog"_s);
    setWindowTitle(tr("Trash"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Deleted sessions stay here for 30 days, then they are deleted for good."), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_list = new QTreeView(this);
    m_list->setObjectName(u"trashList"_s);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAllColumnsShowFocus(true);
    auto *rows = new TrashRows(this);
    rows->setSourceModel(m_model);
    m_list->setModel(rows);
    m_list->setItemDelegateForColumn(TrashModel::DirectoryColumn, new MiddleElided(m_list));
    m_list->setAccessibleName(tr("Deleted sessions"));
    m_list->header()->setSectionResizeMode(TrashModel::TitleColumn, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(TrashModel::DirectoryColumn, QHeaderView::Interactive);
    m_list->header()->setSectionResizeMode(TrashModel::DeletedColumn, QHeaderView::ResizeToContents);
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
    connect(m_list, &QTreeView::activated, this, &TrashDialog::restoreCurrent);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &TrashDialog::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &TrashDialog::updateButtons);
    connect(m_model, &TrashModel::loaded, this, &TrashDialog::selectFirstUnlessCurrent);
    resize(640, 380);
    m_model->setService(service);
    updateButtons();
}

TrashDialog::~TrashDialog() = default;

QString TrashDialog::currentEntry() const
{
    return m_list->currentIndex().data(TrashModel::EntryIDRole).toString();
}

bool TrashDialog::selectEntry(const QString &entryID)
{
    const QModelIndex index = m_model->indexOf(entryID);
    if (!index.isValid())
        return false;
    m_list->setCurrentIndex(m_list->model()->index(index.row(), 0));
    return true;
}

void TrashDialog::selectFirstUnlessCurrent()
{
    if (!m_list->currentIndex().isValid() && m_model->rowCount() > 0)
        m_list->setCurrentIndex(m_list->model()->index(0, 0));
    updateButtons();
}

void TrashDialog::updateButtons()
{
    const bool have = !m_busy && !currentEntry().isEmpty();
    m_restore->setEnabled(have);
    m_delete->setEnabled(have);
    m_empty->setEnabled(!m_busy && m_model->rowCount() > 0);
}

void TrashDialog::setBusy(bool busy)
{
    m_busy = busy;
    updateButtons();
}

void TrashDialog::showError(const QString &text)
{
    m_notices->showNotice(u"error"_s, NoticeBar::Kind::Error, text, {}, true);
}

void TrashDialog::restoreCurrent()
{
    const QString entry = currentEntry();
    if (entry.isEmpty() || m_busy)
        return;
    m_notices->removeNotice(u"error"_s);
    setBusy(true);
    whenFinished(m_model->restore(entry), this, [this](const Result<Session> &session) {
        setBusy(false);
        if (!session) {
            showError(tr("The session could not be restored:\n%1").arg(session.error().toString()));
            return;
        }
        Q_EMIT restored(session->id());
    });
}

void TrashDialog::deleteCurrent()
{
    const QString entry = currentEntry();
    if (entry.isEmpty() || m_busy)
        return;
    const QString title = m_list->currentIndex().siblingAtColumn(TrashModel::TitleColumn).data().toString();
    if (m_confirm && !m_confirm(tr("Delete Permanently"), tr("Delete “%1” for good?\n\nThis cannot be undone.").arg(title)))
        return;
    m_notices->removeNotice(u"error"_s);
    setBusy(true);
    whenFinished(m_model->remove(entry), this, [this](const Result<void> &r) {
        setBusy(false);
        if (!r)
            showError(tr("The session could not be deleted:\n%1").arg(r.error().toString()));
    });
}

void TrashDialog::emptyTrash()
{
    const int count = m_model->rowCount();
    if (count == 0 || m_busy)
        return;
    if (m_confirm
        && !m_confirm(tr("Empty Trash"),
                      Style::plural(tr("Delete the %n session(s) in the trash for good?", nullptr, count), count)
                          + u"\n\n"_s + tr("This cannot be undone.")))
        return;
    m_notices->removeNotice(u"error"_s);
    setBusy(true);
    whenFinished(m_model->empty(), this, [this](const Result<void> &r) {
        setBusy(false);
        if (!r)
            showError(tr("The trash could not be emptied:\n%1").arg(r.error().toString()));
    });
}

} // namespace weft
