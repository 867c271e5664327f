// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The store behind a SessionService, for the layers below the views that read it themselves off
// the GUI thread (the item models' pages, the search index, the processor, import and export).
// It needs the store layer's headers, so a view (which does not link it) cannot include it: the
// views read and change sessions through SessionService and SessionController only.

#include "session/sessionservice.h"
#include "store/store.h"

#include <memory>

namespace weft
{

/// The store @p service reads and writes (thread-safe, like the service).
[[nodiscard]] std::shared_ptr<Store> storeOf(const SessionService &service);

} // namespace weft
