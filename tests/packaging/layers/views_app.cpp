// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view may use
// the controller. Must compile, so that the probes that must not are known to fail for the
// right reason.
#include "app/sessioncontroller.h"
#include "qt/sessionsmodel.h"
#include "session/sessionservice.h"

int weftLayerProbe()
{
    return 0;
}
