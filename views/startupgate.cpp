// SPDX-License-Identifier: GPL-3.0-or-later
#include "startupgate.h"

#include <QTimer>

#include <utility>

namespace weft
{

StartupGate::StartupGate(QObject *parent)
    : QObject(parent)
{
    QTimer::singleShot(MaxWaitMs, this, &StartupGate::open);
}

void StartupGate::open()
{
    if (std::exchange(m_open, true))
        return;
    Q_EMIT opened();
}

void StartupGate::run(StartupGate *gate, QObject *context, std::function<void()> work)
{
    if (!gate || gate->isOpen())
        work();
    else
        connect(gate, &StartupGate::opened, context, std::move(work), Qt::SingleShotConnection);
}

} // namespace weft
