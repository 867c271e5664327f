// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view must not
// reach OpenCode's database behind the controller. Must fail to compile.
#include "opencodedb/opencodedbstore.h"

int weftLayerProbe()
{
    return 0;
}
