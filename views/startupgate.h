// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <functional>

namespace weft
{

/// Work that waits for the window's first painted frame (issue 37): at start the first page of
/// the session shown has the machine to itself; what that frame does not need (the git processes
/// of the project's config, of the worktrees and of the composer's file list, the project's MCP
/// servers, the context meter's limit, purging the trash) starts once the gate opens. MainWindow owns one and opens it after
/// the frame that painted the focused pane's session, when the list is in and no session is to be
/// shown, or after MaxWaitMs at most (MainWindow::startupGate()).
class StartupGate : public QObject
{
    Q_OBJECT

public:
    /// The longest the gate stays shut after it is made: a window never shown, a page that fails.
    static constexpr int MaxWaitMs = 1000;

    explicit StartupGate(QObject *parent = nullptr);

    [[nodiscard]] bool isOpen() const { return m_open; }
    /// Opens the gate: the work that waits runs, in the order it was given; opened() once.
    void open();
    /// Runs @p work now when @p gate is null or open, else once it opens, unless @p context is
    /// gone by then.
    static void run(StartupGate *gate, QObject *context, std::function<void()> work);

Q_SIGNALS:
    void opened();

private:
    bool m_open = false;
};

} // namespace weft
