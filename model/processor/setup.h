// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processor.h"
#include "provider/config.h"

#include <memory>

namespace weft
{

/// The processor's configuration made from Weft's config file (OpenCode's format) and the
/// built-in model catalogue.
struct ProcessorSetup {
    std::shared_ptr<const ProviderFactory> factory;
    ProcessorConfig config;
};

/// Loads @p configFile (empty: $XDG_CONFIG_HOME/weft/weft.json; a missing default file is an
/// empty config) and prepares the processor for @p dataDir.
[[nodiscard]] Result<ProcessorSetup> loadProcessorSetup(const QString &configFile, const QString &dataDir);

/// The same from an already loaded config.
[[nodiscard]] Result<ProcessorSetup> makeProcessorSetup(const Config &config, const QString &dataDir);

} // namespace weft
