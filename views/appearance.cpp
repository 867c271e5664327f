// SPDX-License-Identifier: GPL-3.0-or-later
#include "appearance.h"

#include "timelineview.h"

#include <QApplication>
#include <QSettings>
#include <QStyleHints>

using namespace Qt::StringLiterals;

namespace weft::Appearance
{

namespace
{
// What apply() last did, so that going back to "System" undoes exactly what was forced.
bool s_paletteForced = false;
std::optional<QFont> s_timelineFont;

void setColors(QPalette &p, const QColor &window, const QColor &windowText, const QColor &base,
               const QColor &alternateBase, const QColor &button, const QColor &disabledText)
{
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, windowText);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternateBase);
    p.setColor(QPalette::Text, windowText);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, windowText);
    p.setColor(QPalette::BrightText, windowText);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    p.setColor(QPalette::HighlightedText, QColor(0xfc, 0xfc, 0xfc));
    p.setColor(QPalette::ToolTipBase, button);
    p.setColor(QPalette::ToolTipText, windowText);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, disabledText);
}
} // namespace

QString applicationId()
{
    return u"dev.weft.Weft"_s;
}

QList<int> applicationIconSizes()
{
    return {16, 22, 32, 48, 64, 128, 256, 512};
}

QIcon applicationIcon()
{
    static const QIcon bundled = [] {
        QIcon icon;
        for (int size : applicationIconSizes())
            icon.addFile(u":/weft/appicon/png/dev.weft.Weft-%1.png"_s.arg(size), QSize(size, size));
        return icon;
    }();
    return QIcon::fromTheme(applicationId(), bundled);
}

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return u"light"_s;
    case Theme::Dark:
        return u"dark"_s;
    case Theme::System:
        break;
    }
    return u"system"_s;
}

std::optional<Theme> themeFromName(QStringView name)
{
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark}) {
        if (name == themeName(t))
            return t;
    }
    return std::nullopt;
}

Settings Settings::load()
{
    QSettings settings;
    Settings s;
    s.theme = themeFromName(settings.value(u"Appearance/theme"_s).toString()).value_or(Theme::System);
    const QString font = settings.value(u"Appearance/timelineFont"_s).toString();
    QFont f;
    if (!font.isEmpty() && f.fromString(font))
        s.timelineFont = f;
    return s;
}

void Settings::save() const
{
    QSettings settings;
    settings.setValue(u"Appearance/theme"_s, themeName(theme));
    if (timelineFont)
        settings.setValue(u"Appearance/timelineFont"_s, timelineFont->toString());
    else
        settings.remove(u"Appearance/timelineFont"_s);
}

QPalette lightPalette()
{
    QPalette p;
    setColors(p, QColor(0xef, 0xf0, 0xf1), QColor(0x23, 0x26, 0x29), QColor(0xff, 0xff, 0xff), QColor(0xf7, 0xf7, 0xf7),
              QColor(0xfc, 0xfc, 0xfc), QColor(0xa0, 0xa4, 0xa8));
    p.setColor(QPalette::Link, QColor(0x29, 0x80, 0xb9));
    p.setColor(QPalette::LinkVisited, QColor(0x9b, 0x59, 0xb6));
    p.setColor(QPalette::PlaceholderText, QColor(0x70, 0x7d, 0x8a));
    p.setColor(QPalette::Light, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Midlight, QColor(0xf7, 0xf7, 0xf7));
    p.setColor(QPalette::Mid, QColor(0xc0, 0xc4, 0xc8));
    p.setColor(QPalette::Dark, QColor(0x88, 0x8e, 0x93));
    p.setColor(QPalette::Shadow, QColor(0x47, 0x4d, 0x54));
    return p;
}

QPalette darkPalette()
{
    QPalette p;
    setColors(p, QColor(0x20, 0x23, 0x26), QColor(0xfc, 0xfc, 0xfc), QColor(0x14, 0x16, 0x18), QColor(0x1d, 0x1f, 0x22),
              QColor(0x29, 0x2c, 0x30), QColor(0x6e, 0x73, 0x78));
    p.setColor(QPalette::Link, QColor(0x1d, 0x99, 0xf3));
    p.setColor(QPalette::LinkVisited, QColor(0x9b, 0x59, 0xb6));
    p.setColor(QPalette::PlaceholderText, QColor(0xa1, 0xa9, 0xb1));
    p.setColor(QPalette::Light, QColor(0x40, 0x45, 0x4b));
    p.setColor(QPalette::Midlight, QColor(0x33, 0x37, 0x3c));
    p.setColor(QPalette::Mid, QColor(0x1b, 0x1d, 0x20));
    p.setColor(QPalette::Dark, QColor(0x10, 0x11, 0x13));
    p.setColor(QPalette::Shadow, QColor(0x0a, 0x0b, 0x0c));
    return p;
}

void apply(const Settings &settings)
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    // Platforms that can switch (portals, Windows, macOS) also switch their own decorations.
    Qt::ColorScheme scheme = Qt::ColorScheme::Unknown;
    if (settings.theme == Theme::Light)
        scheme = Qt::ColorScheme::Light;
    else if (settings.theme == Theme::Dark)
        scheme = Qt::ColorScheme::Dark;
    QGuiApplication::styleHints()->setColorScheme(scheme);
#endif
    // The palette is set explicitly as well: most platforms ignore the request above, and an
    // application palette is what every widget style honours.
    if (settings.theme == Theme::Light) {
        QApplication::setPalette(lightPalette());
        s_paletteForced = true;
    } else if (settings.theme == Theme::Dark) {
        QApplication::setPalette(darkPalette());
        s_paletteForced = true;
    } else if (s_paletteForced) {
        // An empty palette resolves nothing: the platform's palette comes back, and follows the
        // desktop's changes again.
        QApplication::setPalette(QPalette());
        s_paletteForced = false;
    }

    s_timelineFont = settings.timelineFont;
    const QList<QWidget *> widgets = QApplication::allWidgets();
    for (QWidget *widget : widgets) {
        if (auto *timeline = qobject_cast<TimelineView *>(widget))
            timeline->setFont(settings.timelineFont.value_or(QFont()));
    }
}

std::optional<QFont> currentTimelineFont()
{
    return s_timelineFont;
}

} // namespace weft::Appearance
