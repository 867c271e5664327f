// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

class QLineEdit;

namespace weft
{

class SessionController;
class StartupGate;

/// The search index as a guest of the window (issue 37): its background sync waits until the
/// window's first frame is painted (the StartupGate opens) and while the user types in any text
/// field (until TypingPauseMs after the last key), and the sidebar's filter field shows how far
/// it is ("Indexing 1,234/30,000…" while it is empty).
class IndexingGuest : public QObject
{
    Q_OBJECT

public:
    static constexpr int TypingPauseMs = 1500;

    /// Watches the application's key presses; shows the progress in @p filter's placeholder;
    /// holds the index until @p gate opens (none: at once).
    IndexingGuest(SessionController *controller, QLineEdit *filter, StartupGate *gate, QObject *parent = nullptr);

    /// The filter's placeholder for @p done sessions of @p total (the plain one when done).
    [[nodiscard]] static QString placeholder(int done, int total);
    /// Whether the user counts as typing (the index waits).
    [[nodiscard]] bool isTyping() const { return m_typing.isActive(); }
    /// The user stopped typing: the index goes on (the timer calls it; tests too).
    void typingStopped();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    SessionController *m_controller;
    QPointer<QLineEdit> m_filter;
    QTimer m_typing;
};

} // namespace weft
