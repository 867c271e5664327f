// SPDX-License-Identifier: GPL-3.0-or-later
#include "datadir.h"

#include "store/jsonstore.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace weft::DataDir
{

namespace
{
QString xdgDataHome()
{
    const QString env = qEnvironmentVariable("XDG_DATA_HOME");
    if (!env.isEmpty() && QDir::isAbsolutePath(env))
        return env;
    return QDir::homePath() + u"/.local/share"_s;
}
} // namespace

QString defaultPath()
{
    const QString env = qEnvironmentVariable("WEFT_DATA_DIR");
    if (!env.isEmpty())
        return QDir::cleanPath(QDir::current().absoluteFilePath(env));
    return xdgDataHome() + u"/weft"_s;
}

QString opencodePath()
{
    return xdgDataHome() + u"/opencode"_s;
}

Result<Opened> open(const QString &path, bool create)
{
    const QString absolute = QDir::cleanPath(QDir::current().absoluteFilePath(path));
    const QFileInfo info(absolute);
    if (info.exists() && !info.isDir())
        return Error{u"not a folder"_s, absolute};
    if (!info.exists() && !create)
        return Error{u"no such folder"_s, absolute};
    const bool existed = QFileInfo::exists(absolute + u"/storage"_s);
    if (!QDir().mkpath(absolute))
        return Error{u"cannot create the data dir"_s, absolute};
    auto store = std::make_shared<JsonStore>(absolute);
    if (auto r = store->initialize(); !r)
        return r.error();
    return Opened{store, absolute, !existed};
}

} // namespace weft::DataDir
