// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include <QString>

#include <memory>

namespace weft
{

class SessionService;
class Store;

/// A data dir: an OpenCode-style folder holding `storage/` (JSON, read-write).
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
};

/// Opens the data dir at @p path, creating it when @p create is true.
[[nodiscard]] Result<Opened> open(const QString &path, bool create = true);

} // namespace DataDir
} // namespace weft
