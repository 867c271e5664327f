// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view searches
// through SessionController (search hits are core's values). Must fail to compile.
#include "search/searchindex.h"

int weftLayerProbe()
{
    return 0;
}
