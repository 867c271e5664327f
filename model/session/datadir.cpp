// SPDX-License-Identifier: GPL-3.0-or-later
#include "datadir.h"

#include "core/logging.h"
#include "opencodedb/opencodedbstore.h"
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
    if (info.isFile() && absolute.endsWith(u".db")) {
        // The database file itself.
        Result<std::shared_ptr<Store>> db = openDatabase(absolute);
        if (!db)
            return Error{u"cannot read OpenCode's database: "_s + db.error().message, absolute};
        return Opened{db.value(), info.absolutePath(), false, absolute, {}};
    }
    if (info.exists() && !info.isDir())
        return Error{u"not a folder"_s, absolute};
    if (!info.exists() && !create)
        return Error{u"no such folder"_s, absolute};
    QString warning;
    if (const QStringList databases = databasesIn(absolute); !databases.isEmpty()) {
        Result<std::shared_ptr<Store>> db = openDatabase(databases.first());
        if (db)
            return Opened{db.value(), absolute, false, databases.first(), {}};
        // A database Weft cannot read does not hide the JSON sessions beside it.
        if (!QFileInfo::exists(absolute + u"/storage"_s))
            return Error{u"cannot read OpenCode's database: "_s + db.error().message, databases.first()};
        warning = u"cannot read OpenCode's database %1 (%2); showing the JSON sessions of %3/storage instead"_s.arg(
            databases.first(), db.error().message, absolute);
        qCWarning(lcStore).noquote() << warning;
    }
    const bool existed = QFileInfo::exists(absolute + u"/storage"_s);
    if (!QDir().mkpath(absolute))
        return Error{u"cannot create the data dir"_s, absolute};
    auto store = std::make_shared<JsonStore>(absolute);
    if (auto r = store->initialize(); !r)
        return r.error();
    return Opened{store, absolute, !existed, {}, warning};
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

Result<std::shared_ptr<Store>> openDatabase(const QString &file)
{
    Result<std::shared_ptr<OpencodeDbStore>> store = OpencodeDbStore::open(file);
    if (!store)
        return store.error();
    return std::shared_ptr<Store>(store.value());
}

} // namespace weft::DataDir
