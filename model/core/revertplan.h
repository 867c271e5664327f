// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace weft
{

/// What reverting a session to before a turn does to the files (Snapshot::planRevert()): files
/// written back from a snapshot and files deleted (they did not exist in their patch's
/// snapshot), absolute paths.
struct RevertPlan {
    QStringList restore;
    QStringList remove;
};

} // namespace weft
