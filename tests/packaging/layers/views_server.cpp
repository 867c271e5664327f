// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view reaches
// an OpenCode server through ServerSource and SessionController only. Must fail to compile.
#include "server/serverclient.h"

int weftLayerProbe()
{
    return 0;
}
