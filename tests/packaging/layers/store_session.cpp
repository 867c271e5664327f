// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the store layer's include roots and flags (tests/packaging/layers.cmake): a lower
// layer must not include a higher one. Must fail to compile.
#include "session/sessionservice.h"

int weftLayerProbe()
{
    return 0;
}
