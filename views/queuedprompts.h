// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace weft
{

class SessionController;

/// The prompts queued for the session shown (SessionController::queuedPrompts()), above the
/// composer: each editable in place, moved up or down and removed before it goes; hidden when
/// none waits. When the session's last run did not end well the queue waits, and "Send Next"
/// sends the first.
class QueuedPromptsView : public QWidget
{
    Q_OBJECT

public:
    explicit QueuedPromptsView(SessionController *controller, QWidget *parent = nullptr);

    void setSessionID(const QString &sessionID);
    /// The editors of the queued prompts, the next first (for tests).
    [[nodiscard]] QList<QWidget *> rows() const { return m_rows; }
    [[nodiscard]] QPushButton *sendNextButton() const { return m_sendNext; }
    [[nodiscard]] QString headline() const;

private:
    void rebuild();

    QPointer<SessionController> m_controller;
    QString m_sessionID;
    QLabel *m_headline;
    QPushButton *m_sendNext;
    QVBoxLayout *m_list;
    QList<QWidget *> m_rows;
};

} // namespace weft
