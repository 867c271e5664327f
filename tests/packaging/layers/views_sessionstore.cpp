// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): the store
// behind a SessionService (storeOf()) is for the layers below the views. Must fail to compile, on
// the store's header.
#include "session/sessionstore.h"

int weftLayerProbe()
{
    return 0;
}
