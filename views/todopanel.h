// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QFrame>

class QLabel;
class QToolButton;

namespace weft
{

class SessionService;
class TodoModel;

/// The todo list of the session shown (what the todowrite tool wrote), below the timeline: a
/// header with the progress that folds the list away, and one line per item with its status.
/// Hidden while the session has no todo list. Shows a TodoModel, which reads and follows it.
class TodoPanel : public QFrame
{
    Q_OBJECT

public:
    explicit TodoPanel(QWidget *parent = nullptr);

    /// Shows the list of @p sessionID of @p service (none when null or empty), once read.
    void setSession(SessionService *service, const QString &sessionID);
    [[nodiscard]] const QList<Todo> &todos() const;
    [[nodiscard]] TodoModel *model() const { return m_model; }
    /// The header line ("Todo · 2 of 5 done").
    [[nodiscard]] QString headerText() const;
    /// The list as shown, one line per item (for tests and accessibility).
    [[nodiscard]] QString listText() const;

private:
    void showTodos();
    void updateFolded();

    TodoModel *m_model;
    QToolButton *m_header = nullptr;
    QLabel *m_list = nullptr;
    bool m_folded = false;
};

} // namespace weft
