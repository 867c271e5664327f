// SPDX-License-Identifier: GPL-3.0-or-later
#include "datadir.h"

#include "core/tr.h"
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

Result<Layout> detect(const QString &path, bool create)
{
    const QString absolute = QDir::cleanPath(QDir::current().absoluteFilePath(path));
    const QFileInfo info(absolute);
    if (info.isFile() && absolute.endsWith(u".db"))
        return Layout{info.absolutePath(), absolute, true};
    if (info.exists() && !info.isDir())
        return Error{SessionTr::tr("not a folder"), absolute};
    if (!info.exists() && !create)
        return Error{SessionTr::tr("no such folder"), absolute};
    return Layout{absolute, databasesIn(absolute).value(0), false};
}

Result<Opened> openJson(const QString &path, const QString &warning)
{
    const bool existed = QFileInfo::exists(path + u"/storage"_s);
    if (!QDir().mkpath(path))
        return Error{SessionTr::tr("cannot create the data dir"), path};
    auto store = std::make_shared<JsonStore>(path);
    if (auto r = store->initialize(); !r)
        return r.error();
    return Opened{store, path, !existed, {}, warning};
}

QStringList databasesIn(const QString &dir)
{
    QStringList result;
    const QDir folder(dir);
    if (!folder.exists())
        return result;
    if (QFileInfo(folder.filePath(u"opencode.db"_s)).isFile())
        result.append(folder.filePath(u"opencode.db"_s));
    QStringList channels = folder.entryList({u"opencode-*.db"_s}, QDir::Files, QDir::Name);
    for (const QString &name : std::as_const(channels))
        result.append(folder.filePath(name));
    return result;
}

} // namespace weft::DataDir
