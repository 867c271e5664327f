// SPDX-License-Identifier: GPL-3.0-or-later
#include "opencodedatadir.h"

#include "core/logging.h"
#include "core/tr.h"
#include "opencodedbstore.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace weft::OpencodeDataDir
{

Result<DataDir::Opened> open(const QString &path, bool create)
{
    const Result<DataDir::Layout> layout = DataDir::detect(path, create);
    if (!layout)
        return layout.error();
    if (layout->database.isEmpty())
        return DataDir::openJson(layout->path);
    const Result<std::shared_ptr<OpencodeDbStore>> db = OpencodeDbStore::open(layout->database);
    if (db)
        return DataDir::Opened{db.value(), layout->path, false, layout->database, {}};
    // A database Weft cannot read does not hide the JSON sessions beside it (unless the
    // database file itself was asked for).
    if (layout->databaseFile || !QFileInfo::exists(layout->path + u"/storage"_s))
        return Error{OpencodeDbTr::tr("cannot read OpenCode's database: %1").arg(db.error().message), layout->database};
    const QString warning
        = u"cannot read OpenCode's database %1 (%2); showing the JSON sessions of %3/storage instead"_s.arg(
            layout->database, db.error().message, layout->path);
    qCWarning(lcStore).noquote() << warning;
    return DataDir::openJson(layout->path, warning);
}

} // namespace weft::OpencodeDataDir
