// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QAbstractListModel>
#include <QPointer>

namespace weft
{

class SessionService;

/// The todo list of one session (what the todowrite tool wrote), in order: read off the GUI
/// thread when the session is set, then followed live (SessionService::todosChanged, queued from
/// the processor's thread). What a todo panel shows.
class TodoModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        StatusRole = Qt::UserRole + 1, ///< "pending", "in_progress", "completed" or "cancelled"
        ContentRole,
        TodoRole, ///< weft::Todo
    };
    Q_ENUM(Roles)

    explicit TodoModel(QObject *parent = nullptr);

    /// Follows the list of @p sessionID of @p service (none when null or empty): the rows empty
    /// at once, the session's list follows (loaded()).
    void setSession(SessionService *service, const QString &sessionID);
    [[nodiscard]] QString sessionID() const { return m_sessionID; }
    [[nodiscard]] const QList<Todo> &todos() const { return m_todos; }
    /// How many items are completed.
    [[nodiscard]] qsizetype completed() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    /// The list of the session set last was read (unless a change announced meanwhile came first).
    void loaded();

private:
    void setTodos(const QList<Todo> &todos);

    QPointer<SessionService> m_service;
    QString m_sessionID;
    QList<Todo> m_todos;
    QMetaObject::Connection m_connection;
    int m_generation = 0; // a read for an earlier session is dropped
};

} // namespace weft
