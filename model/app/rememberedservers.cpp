// SPDX-License-Identifier: GPL-3.0-or-later
#include "rememberedservers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace weft::RememberedServers
{

namespace
{
const QString Group = u"OpenCodeServers"_s;

Error systemError(const QString &what, const QString &path)
{
    return Error{what + u": "_s + QString::fromLocal8Bit(std::strerror(errno)), path};
}
} // namespace

QList<Entry> read(QSettings &settings)
{
    QList<Entry> servers;
    const int count = settings.beginReadArray(Group);
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        servers.append({settings.value(u"url"_s).toString(), settings.value(u"password"_s).toString(),
                        settings.value(u"connected"_s).toBool()});
    }
    settings.endArray();
    return servers;
}

Result<void> makePrivate(const QString &fileName)
{
    const QString folder = QFileInfo(fileName).absolutePath();
    const QByteArray nativeFolder = QFile::encodeName(folder);
    if (!QFileInfo::exists(folder)) {
        // Its parents as usual (~/.config), the folder itself 0700 from the start.
        if (!QDir().mkpath(QFileInfo(folder).absolutePath()))
            return Error{u"cannot create the folder"_s, QFileInfo(folder).absolutePath()};
        if (::mkdir(nativeFolder.constData(), 0700) != 0 && errno != EEXIST)
            return systemError(u"cannot create the settings folder"_s, folder);
    }
    if (::chmod(nativeFolder.constData(), 0700) != 0)
        return systemError(u"cannot make the settings folder private"_s, folder);
    const int fd = ::open(QFile::encodeName(fileName).constData(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return systemError(u"cannot open the settings file"_s, fileName);
    const bool tightened = ::fchmod(fd, 0600) == 0;
    ::close(fd);
    if (!tightened)
        return systemError(u"cannot make the settings file private"_s, fileName);
    return {};
}

Result<void> write(QSettings &settings, const QList<Entry> &servers)
{
    // Only a settings file on disk has a mode to set.
    if (settings.fileName().startsWith(u'/')) {
        if (Result<void> made = makePrivate(settings.fileName()); !made)
            return made;
    }
    settings.beginWriteArray(Group, int(servers.size()));
    for (int i = 0; i < servers.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(u"url"_s, servers.at(i).url);
        if (servers.at(i).password.isEmpty())
            settings.remove(u"password"_s);
        else
            settings.setValue(u"password"_s, servers.at(i).password);
        settings.setValue(u"connected"_s, servers.at(i).connected);
    }
    settings.endArray();
    settings.sync();
    if (settings.status() != QSettings::NoError)
        return Error{u"cannot save the settings"_s, settings.fileName()};
    return {};
}

} // namespace weft::RememberedServers
