// SPDX-License-Identifier: GPL-3.0-or-later
#include "trashmodel.h"

#include "core/async.h"
#include "core/tr.h"
#include "session/sessionservice.h"

#include <memory>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
Error gone()
{
    return Error{SessionTr::tr("the trash is closed"), {}};
}
} // namespace

TrashModel::TrashModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TrashModel::setService(const std::shared_ptr<SessionService> &service)
{
    disconnect(m_connection);
    ++m_generation;
    m_service = service;
    apply({});
    if (!service)
        return;
    // Changes come from whichever thread made them (the pool, for this model's own operations).
    m_connection = connect(service.get(), &SessionService::trashChanged, this, &TrashModel::reload);
    reload();
}

void TrashModel::reload()
{
    const int generation = ++m_generation;
    // A burst of changes (empty the trash) reads more than once; only the latest read is applied.
    const std::shared_ptr<SessionService> service = m_service.lock();
    if (!service)
        return;
    whenFinished(service->trashEntriesLater(), this, [this, generation](const QList<TrashEntry> &entries) {
        if (generation != m_generation)
            return;
        apply(entries);
        Q_EMIT loaded();
    });
}

void TrashModel::apply(const QList<TrashEntry> &entries)
{
    // Both lists are newest first, and an entry's place follows from its ID (the time is in it):
    // rows that left go, the others stay where they are, new ones are inserted between them.
    QSet<QString> wanted;
    for (const TrashEntry &e : entries)
        wanted.insert(e.id);
    for (int row = int(m_entries.size()) - 1; row >= 0; --row) {
        if (wanted.contains(m_entries.at(row).id))
            continue;
        beginRemoveRows({}, row, row);
        m_entries.removeAt(row);
        endRemoveRows();
    }
    for (int row = 0; row < int(entries.size()); ++row) {
        const TrashEntry &e = entries.at(row);
        if (row < int(m_entries.size()) && m_entries.at(row).id == e.id) {
            if (m_entries.at(row) != e) {
                m_entries[row] = e;
                Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
            }
            continue;
        }
        beginInsertRows({}, row, row);
        m_entries.insert(row, e);
        endInsertRows();
    }
}

QModelIndex TrashModel::indexOf(const QString &entryID, int column) const
{
    for (int row = 0; row < int(m_entries.size()); ++row) {
        if (m_entries.at(row).id == entryID)
            return index(row, column);
    }
    return {};
}

QFuture<Result<Session>> TrashModel::restore(const QString &entryID) const
{
    const std::shared_ptr<SessionService> service = m_service.lock();
    return service ? service->restoreFromTrashLater(entryID) : QtFuture::makeReadyValueFuture(Result<Session>(gone()));
}

QFuture<Result<void>> TrashModel::remove(const QString &entryID) const
{
    const std::shared_ptr<SessionService> service = m_service.lock();
    return service ? service->deleteFromTrashLater(entryID) : QtFuture::makeReadyValueFuture(Result<void>(gone()));
}

QFuture<Result<void>> TrashModel::empty() const
{
    const std::shared_ptr<SessionService> service = m_service.lock();
    return service ? service->emptyTrashLater() : QtFuture::makeReadyValueFuture(Result<void>(gone()));
}

int TrashModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int TrashModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TrashModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TrashEntry &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TitleColumn:
            return e.title;
        case DirectoryColumn:
            return e.directory;
        case DeletedColumn:
            return e.deleted;
        default:
            return {};
        }
    case EntryIDRole:
        return e.id;
    case SessionIDRole:
        return e.sessionID;
    case TitleRole:
        return e.title;
    case DirectoryRole:
        return e.directory;
    case DeletedRole:
        return e.deleted;
    case ChildrenRole:
        return int(e.children.size());
    case FilesRole:
        return e.files;
    case ProblemRole:
        return e.problem;
    case EntryRole:
        return QVariant::fromValue(e);
    default:
        return {};
    }
}

QHash<int, QByteArray> TrashModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(EntryIDRole, "entryID");
    names.insert(SessionIDRole, "sessionID");
    names.insert(TitleRole, "title");
    names.insert(DirectoryRole, "directory");
    names.insert(DeletedRole, "deleted");
    names.insert(ChildrenRole, "children");
    names.insert(FilesRole, "files");
    names.insert(ProblemRole, "problem");
    names.insert(EntryRole, "entry");
    return names;
}

} // namespace weft
