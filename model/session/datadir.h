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
/// This namespace finds the layout of a data dir (detect()) and opens its JSON store
/// (openJson()); it does not read databases. OpencodeDataDir::open() (model/opencodedb) opens a
/// data dir whatever it holds: the OpenCode database when there is one, else the JSON store.
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

/// What a data dir holds, found without opening anything.
struct Layout
{
    QString path; ///< the folder, absolute
    QString database; ///< the OpenCode database to read; empty when there is none
    bool databaseFile = false; ///< the path given was the database file itself, not a folder
};

/// The layout of the data dir at @p path: a `.db` file is the database of its folder; a folder
/// has the first of databasesIn(), if any. Fails when @p path is no folder, or is missing and
/// @p create is false.
[[nodiscard]] Result<Layout> detect(const QString &path, bool create = true);

/// Opens (creating when needed) the JSON store of the folder @p path (absolute); @p warning is
/// passed on to Opened::warning.
[[nodiscard]] Result<Opened> openJson(const QString &path, const QString &warning = {});

/// The OpenCode databases in @p dir: `opencode.db` first, then `opencode-<channel>.db` (the
/// databases of other release channels) by name. Empty when there is none.
[[nodiscard]] QStringList databasesIn(const QString &dir);

} // namespace DataDir
} // namespace weft
