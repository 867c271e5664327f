// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QSocketNotifier;

namespace weft::Cli
{

/// Ctrl+C (SIGINT) and SIGTERM while a command runs, as a Qt signal on the main thread: the
/// handler only writes a byte to a pipe that a QSocketNotifier reads (the pattern of Qt's
/// "Calling Qt Functions From Unix Signal Handlers"). The first one is delivered, so that the
/// command can stop its run cleanly; a second one ends the process at once with exit code 130.
/// One at a time; the previous handlers come back when it goes.
class Interrupt : public QObject
{
    Q_OBJECT

public:
    explicit Interrupt(QObject *parent = nullptr);
    ~Interrupt() override;

    [[nodiscard]] bool wasInterrupted() const { return m_interrupted; }

    /// The exit code of an interrupted command (128 + SIGINT, as shells report it).
    static constexpr int ExitCode = 130;

Q_SIGNALS:
    void interrupted();

private:
    QSocketNotifier *m_notifier = nullptr;
    bool m_interrupted = false;
};

} // namespace weft::Cli
