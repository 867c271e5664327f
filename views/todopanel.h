// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QFrame>
#include <QPointer>

class QLabel;
class QToolButton;

namespace weft
{

class SessionService;

/// The todo list of the session shown (what the todowrite tool wrote), below the timeline: a
/// header with the progress that folds the list away, and one line per item with its status.
/// Hidden while the session has no todo list. Follows SessionService::todosChanged.
class TodoPanel : public QFrame
{
    Q_OBJECT

public:
    explicit TodoPanel(QWidget *parent = nullptr);

    /// Shows the list of @p sessionID of @p service (none when null or empty).
    void setSession(SessionService *service, const QString &sessionID);
    [[nodiscard]] const QList<Todo> &todos() const { return m_todos; }
    /// The header line ("Todo · 2 of 5 done").
    [[nodiscard]] QString headerText() const;
    /// The list as shown, one line per item (for tests and accessibility).
    [[nodiscard]] QString listText() const;

private:
    void showTodos(const QList<Todo> &todos);
    void updateFolded();

    QPointer<SessionService> m_service;
    QString m_sessionID;
    QList<Todo> m_todos;
    QMetaObject::Connection m_connection;
    QToolButton *m_header = nullptr;
    QLabel *m_list = nullptr;
    bool m_folded = false;
};

} // namespace weft
