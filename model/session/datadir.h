// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace weft
{

class SessionService;
class Store;

/// A data dir: an OpenCode-style folder holding `storage/` (JSON, read-write), or the data dir
/// of OpenCode 1.2 and later holding `opencode.db` (SQLite, read-only).
///
/// When a folder holds an OpenCode database, the database is what is opened: it holds the
/// current sessions, and a `storage/` beside it is what OpenCode left of the JSON era (OpenCode
/// imported it into the database once). Only when the database cannot be read (locked,
/// damaged, an unknown schema) is `storage/` used instead, with Opened::warning saying why.
namespace DataDir
{

/// Weft's own data dir: `$XDG_DATA_HOME/weft` (normally ~/.local/share/weft). WEFT_DATA_DIR
/// overrides it.
[[nodiscard]] QString defaultPath();

/// OpenCode's data dir: `$XDG_DATA_HOME/opencode`.
[[nodiscard]] QString opencodePath();

struct Opened {
    std::shared_ptr<Store> store;
    QString path;
    bool created = false; ///< the data dir was new (nothing in it before)
    QString database;     ///< the OpenCode database the store reads, when it is one
    QString warning;      ///< why a database in the folder was not used (the JSON store was)
};

/// Opens the data dir at @p path, creating it when @p create is true. A folder that holds an
/// OpenCode database is opened read-only and never written to (nothing is created in it).
[[nodiscard]] Result<Opened> open(const QString &path, bool create = true);

/// The OpenCode databases in @p dir: `opencode.db` first, then `opencode-<channel>.db` (the
/// databases of other release channels) by name. Empty when there is none.
[[nodiscard]] QStringList databasesIn(const QString &dir);

/// Opens the OpenCode database @p file (read-only; see OpencodeDbStore::open for the errors).
[[nodiscard]] Result<std::shared_ptr<Store>> openDatabase(const QString &file);

} // namespace DataDir
} // namespace weft
