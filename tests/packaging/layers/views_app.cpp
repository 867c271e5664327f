// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled with the views' include roots and flags (tests/packaging/layers.cmake): a view may use
// the controller, the sources, the session service and the item models, whose headers show no
// backend layer. Must compile, so that the probes that must not are known to fail for the right
// reason.
#include "app/bestofrun.h"
#include "app/compactionpreview.h"
#include "app/configfile.h"
#include "app/mcpservers.h"
#include "app/opencodesource.h"
#include "app/projectfiles.h"
#include "app/promptattachments.h"
#include "app/rememberedservers.h"
#include "app/serveraddress.h"
#include "app/serversource.h"
#include "app/sessioncontroller.h"
#include "app/sessionworktree.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"

int weftLayerProbe()
{
    return 0;
}
