// SPDX-License-Identifier: GPL-3.0-or-later
#include "storeinfo.h"

#include "tr.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>

using namespace Qt::StringLiterals;

namespace weft
{

bool RunHolder::isThisProcess() const
{
    return pid == QCoreApplication::applicationPid() && host == QSysInfo::machineHostName();
}

QString RunHolder::describe() const
{
    const QString what = command.isEmpty() ? StoreTr::tr("another Weft process") : command;
    const QString started = since > 0 ? QDateTime::fromMSecsSinceEpoch(since).toString(u"yyyy-MM-dd HH:mm:ss"_s) : QString();
    const bool elsewhere = !host.isEmpty() && host != QSysInfo::machineHostName();
    //: %1 what runs it ("weft run"), %2 its process ID, %3 its host, %4 since when
    if (pid <= 0)
        return StoreTr::tr("%1 (an unknown process)").arg(what);
    if (elsewhere)
        return started.isEmpty() ? StoreTr::tr("%1 (process %2 on %3)").arg(what).arg(pid).arg(host)
                                 : StoreTr::tr("%1 (process %2 on %3, since %4)").arg(what).arg(pid).arg(host, started);
    return started.isEmpty() ? StoreTr::tr("%1 (process %2)").arg(what).arg(pid)
                             : StoreTr::tr("%1 (process %2, since %3)").arg(what).arg(pid).arg(started);
}

} // namespace weft
