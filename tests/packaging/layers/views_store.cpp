// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view reads
// and changes sessions through SessionService and SessionController, never through a store. Must
// fail to compile.
#include "store/store.h"

int weftLayerProbe()
{
    return 0;
}
