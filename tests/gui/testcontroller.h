// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The GUI tests' composition root: the controller a test's MainWindow is given, made as
// app/window.cpp makes the window's.

#include "app/sessioncontroller.h"
#include "processor/setup.h"
#include "provider/config.h"
#include "session/sessionservice.h"

#include <memory>
#include <optional>

namespace weft::test
{

/// A SessionController over @p service and @p dataDir, its processor made from @p setup (an
/// empty config without one).
inline std::unique_ptr<SessionController> makeController(std::shared_ptr<SessionService> service,
                                                         const QString &dataDir,
                                                         std::optional<ProcessorSetup> setup = std::nullopt)
{
    return std::make_unique<SessionController>(
        std::move(service), dataDir, setup ? std::move(*setup) : makeProcessorSetup(Config(), dataDir).value());
}

} // namespace weft::test
