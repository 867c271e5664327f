// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// SQLite's C API on a connection of Qt's QSQLITE driver, which links the same libsqlite3: the
// search index's tokenizer and the streamed reads of OpenCode's database use it. Compiled only
// where CMake found SQLite's headers (WEFT_HAVE_SQLITE3_API); the callers fall back to Qt SQL.
#ifdef WEFT_HAVE_SQLITE3_API

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QVariant>

#include <sqlite3.h>

namespace weft
{

/// The sqlite3 connection under @p db, or null when @p db is not an open QSQLITE connection.
inline sqlite3 *sqliteHandleOf(const QSqlDatabase &db)
{
    if (!db.isOpen() || !db.driver())
        return nullptr;
    const QVariant v = db.driver()->handle();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(v.constData());
}

} // namespace weft

#endif
