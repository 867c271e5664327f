// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"
#include "session/datadir.h"

/// Opening a data dir whatever it holds: Weft's JSON store, or the SQLite database of OpenCode
/// 1.2 and later (read-only). DataDir (model/session) finds the layout; this opens it.
namespace weft::OpencodeDataDir
{

/// Opens the data dir at @p path, creating it when @p create is true. A folder that holds an
/// OpenCode database is opened read-only and never written to (nothing is created in it).
///
/// When a folder holds an OpenCode database, the database is what is opened: it holds the
/// current sessions, and a `storage/` beside it is what OpenCode left of the JSON era (OpenCode
/// imported it into the database once). Only when the database cannot be read (locked,
/// damaged, an unknown schema) is `storage/` used instead, with Opened::warning saying why.
[[nodiscard]] Result<DataDir::Opened> open(const QString &path, bool create = true);

} // namespace weft::OpencodeDataDir
