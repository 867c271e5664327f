// SPDX-License-Identifier: GPL-3.0-or-later
#include "todomodel.h"

#include "session/sessionstore.h"
#include "core/async.h"
#include "core/identifier.h"
#include "session/sessionservice.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace weft
{

TodoModel::TodoModel(QObject *parent) : QAbstractListModel(parent)
{
}

void TodoModel::setSession(SessionService *service, const QString &sessionID)
{
    disconnect(m_connection);
    const int generation = ++m_generation;
    m_service = service;
    m_sessionID = sessionID;
    setTodos({});
    if (!service || sessionID.isEmpty())
        return;
    // The processor announces changes from its worker thread: queued to this one. A change that
    // arrives before the read below wins over it (the read is older).
    m_connection = connect(service, &SessionService::todosChanged, this, [this](const QString &id, const QList<Todo> &todos) {
        if (id != m_sessionID)
            return;
        ++m_generation;
        setTodos(todos);
    });
    // The store goes with the read: it stays alive until the read is done.
    whenFinished(QtConcurrent::run([store = storeOf(*service), sessionID] {
                     return Identifier::isSafeKeyComponent(sessionID) ? store->todos(sessionID) : QList<Todo>();
                 }),
                 this, [this, generation](const QList<Todo> &todos) {
                     if (generation != m_generation)
                         return;
                     setTodos(todos);
                     Q_EMIT loaded();
                 });
}

void TodoModel::setTodos(const QList<Todo> &todos)
{
    beginResetModel();
    m_todos = todos;
    endResetModel();
}

qsizetype TodoModel::completed() const
{
    return std::count_if(m_todos.cbegin(), m_todos.cend(), [](const Todo &t) { return t.status() == u"completed"; });
}

int TodoModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_todos.size());
}

QVariant TodoModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Todo &todo = m_todos.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case ContentRole:
        return todo.content();
    case StatusRole:
        return todo.status();
    case TodoRole:
        return QVariant::fromValue(todo);
    default:
        return {};
    }
}

QHash<int, QByteArray> TodoModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(StatusRole, "status");
    names.insert(ContentRole, "content");
    names.insert(TodoRole, "todo");
    return names;
}

} // namespace weft
