// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view shows a
// compaction's preview as SessionController gives it (app/compactionpreview.h) and edits its
// settings through the config file (app/configfile.h). Must fail to compile.
#include "compaction/compaction.h"

int weftLayerProbe()
{
    return 0;
}
