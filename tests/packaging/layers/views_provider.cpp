// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view edits
// Weft's config file through ConfigFile (app/configfile.h), never the providers' configuration.
// Must fail to compile.
#include "provider/config.h"

int weftLayerProbe()
{
    return 0;
}
