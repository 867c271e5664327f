// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The commands of the OpenCode database and search side of the command line: `search` and
// `import --from-db`. The dispatch and the shared options live in cli.cpp.

#include "cli.h"

#include <QStringList>

namespace weft::Cli
{

/// `weft [--data-dir DIR] search QUERY... [--format json|text] [--session ID] [--limit N]
/// [--rebuild] [--index FILE]`: brings the search index of DIR's sessions up to date, then
/// prints the matches, best first.
int searchCommand(const GlobalOptions &options, const QStringList &args);

/// `weft [--data-dir WEFT_DIR] import --from-db OPENCODE_DATA_DIR [SESSION_ID...]`: copies
/// sessions (all when none is named) with their child sessions from an OpenCode database into
/// Weft's store, printing the ID of each copy.
int importFromDb(const GlobalOptions &options, const QString &databaseDir, const QStringList &sessionIDs);

} // namespace weft::Cli
