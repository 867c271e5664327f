// SPDX-License-Identifier: GPL-3.0-or-later
#include "interrupt.h"

#include <QSocketNotifier>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace weft::Cli
{

namespace
{
int s_pipe[2] = {-1, -1};
volatile std::sig_atomic_t s_count = 0;
struct sigaction s_oldInt;
struct sigaction s_oldTerm;

extern "C" void onSignal(int)
{
    if (s_count != 0)
        _exit(Interrupt::ExitCode);
    s_count = 1;
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(s_pipe[1], &byte, 1);
}
} // namespace

Interrupt::Interrupt(QObject *parent)
    : QObject(parent)
{
    if (::pipe2(s_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    s_count = 0;
    m_notifier = new QSocketNotifier(s_pipe[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] {
        char buffer[16];
        while (::read(s_pipe[0], buffer, sizeof buffer) > 0) {
        }
        if (m_interrupted)
            return;
        m_interrupted = true;
        Q_EMIT interrupted();
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &s_oldInt);
    sigaction(SIGTERM, &action, &s_oldTerm);
}

Interrupt::~Interrupt()
{
    if (!m_notifier)
        return;
    sigaction(SIGINT, &s_oldInt, nullptr);
    sigaction(SIGTERM, &s_oldTerm, nullptr);
    delete m_notifier;
    ::close(s_pipe[0]);
    ::close(s_pipe[1]);
    s_pipe[0] = s_pipe[1] = -1;
}

} // namespace weft::Cli
