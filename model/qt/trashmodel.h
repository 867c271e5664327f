// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "core/types.h"
#include "core/storeinfo.h"

#include <QAbstractTableModel>
#include <QFuture>

#include <memory>

namespace weft
{

class SessionService;

/// The trash of Weft's own sessions (SessionService::trashEntriesLater()), newest first: read off
/// the GUI thread when the service is set and again after each SessionService::trashChanged, then
/// applied row by row (an entry that stays keeps its row, and the view its selection). Restoring
/// and deleting are the service's futures too. What the trash dialog shows.
class TrashModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        TitleColumn, ///< the session's title
        DirectoryColumn, ///< its project's folder
        DeletedColumn, ///< when it was deleted
        ColumnCount,
    };
    Q_ENUM(Column)

    enum Roles {
        EntryIDRole = Qt::UserRole + 1, ///< the trash entry's ID: what restore() and remove() take
        SessionIDRole, ///< the session the user deleted
        TitleRole, ///< its title as stored (may be empty)
        DirectoryRole, ///< its project's folder
        DeletedRole, ///< when it was deleted, ms since the epoch (qint64)
        ChildrenRole, ///< how many subagent sessions were deleted with it (int)
        FilesRole, ///< how many files the entry holds (int)
        ProblemRole, ///< why it cannot be restored, empty when it can
        EntryRole, ///< weft::TrashEntry
    };
    Q_ENUM(Roles)

    explicit TrashModel(QObject *parent = nullptr);

    /// Follows the trash of @p service (none when null or without StoreCapability::Trash): the
    /// rows empty at once, the entries follow (loaded()). The service's work off the GUI thread
    /// holds it while it runs; the model itself does not keep it alive.
    void setService(const std::shared_ptr<SessionService> &service);
    [[nodiscard]] const QList<TrashEntry> &entries() const { return m_entries; }
    /// The row of @p entryID in @p column, or invalid.
    [[nodiscard]] QModelIndex indexOf(const QString &entryID, int column = TitleColumn) const;

    /// Moves the sessions of @p entryID back (SessionService::restoreFromTrashLater()); the rows
    /// follow trashChanged.
    [[nodiscard]] QFuture<Result<Session>> restore(const QString &entryID) const;
    /// Deletes @p entryID for good (SessionService::deleteFromTrashLater()).
    [[nodiscard]] QFuture<Result<void>> remove(const QString &entryID) const;
    /// Deletes every entry for good (SessionService::emptyTrashLater()).
    [[nodiscard]] QFuture<Result<void>> empty() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    /// A listing was read and applied (after setService() and after each change of the trash).
    void loaded();

private:
    void reload();
    void apply(const QList<TrashEntry> &entries);

    std::weak_ptr<SessionService> m_service;
    QList<TrashEntry> m_entries;
    QMetaObject::Connection m_connection;
    int m_generation = 0; // a listing older than the latest read is dropped
};

} // namespace weft

Q_DECLARE_METATYPE(weft::TrashEntry)
