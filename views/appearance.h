// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Weft's look: the colour theme (the system's, or forced light or dark), the timeline font, and
// the application icon. Stored with QSettings under "Appearance/", applied to the running
// application without a restart.

#include <QFont>
#include <QIcon>
#include <QList>
#include <QPalette>
#include <QString>

#include <optional>

namespace weft::Appearance
{

/// The reverse-DNS application ID: desktop file, metainfo and icon name.
[[nodiscard]] QString applicationId();
/// The sizes of the bundled PNG icons (hicolor sizes).
[[nodiscard]] QList<int> applicationIconSizes();
/// The icon theme's "dev.weft.Weft", else the bundled icon in every size.
[[nodiscard]] QIcon applicationIcon();

enum class Theme {
    System, ///< the desktop's palette, following its light/dark changes
    Light,
    Dark,
};
[[nodiscard]] QString themeName(Theme theme);
[[nodiscard]] std::optional<Theme> themeFromName(QStringView name);

struct Settings {
    Theme theme = Theme::System;
    /// The timeline's font; nullopt: the application font.
    std::optional<QFont> timelineFont;

    /// Reads the settings (QSettings "Appearance/theme", "Appearance/timelineFont").
    [[nodiscard]] static Settings load();
    void save() const;
    bool operator==(const Settings &) const = default;
};

/// Breeze's light and dark palettes, used when a theme is forced.
[[nodiscard]] QPalette lightPalette();
[[nodiscard]] QPalette darkPalette();

/// Applies @p settings to the running application: the palette (and, with Qt 6.8, the colour
/// scheme the platform is asked for) and the font of every timeline view.
void apply(const Settings &settings);
/// The font apply() gives timeline views; nullopt for the application font.
[[nodiscard]] std::optional<QFont> currentTimelineFont();

} // namespace weft::Appearance
