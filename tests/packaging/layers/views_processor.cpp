// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view runs
// prompts, reverts and compactions through SessionController (a prompt's values are core's). Must
// fail to compile.
#include "processor/processor.h"

int weftLayerProbe()
{
    return 0;
}
