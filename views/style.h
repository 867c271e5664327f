// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QFont>
#include <QIcon>
#include <QPalette>
#include <QString>

class QPainter;

namespace weft::Style
{

/// True when the palette is a dark one (window darker than its text).
[[nodiscard]] bool isDark(const QPalette &palette);
/// @p a blended towards @p b by @p amount (0: a, 1: b).
[[nodiscard]] QColor mix(const QColor &a, const QColor &b, qreal amount);
/// Semantic colours in the spirit of KColorScheme's foreground roles, readable on the palette's
/// base colour in light and dark themes.
[[nodiscard]] QColor positive(const QPalette &palette);
[[nodiscard]] QColor negative(const QPalette &palette);
[[nodiscard]] QColor neutral(const QPalette &palette);
[[nodiscard]] QColor active(const QPalette &palette);
/// Text that matters less (times, sizes): the placeholder colour, or text blended into base.
[[nodiscard]] QColor dimText(const QPalette &palette);

/// The font of small print (badges, notices, captions, a search result's details): @p font a size
/// smaller.
[[nodiscard]] QFont smallFont(const QFont &font);

/// An icon from the desktop's theme, or Weft's bundled fallback (resources/icons/<name>.svg)
/// drawn in the palette's colours.
[[nodiscard]] QIcon icon(const QString &name);
/// Weft's bundled icon @p name even when the theme has one.
[[nodiscard]] QIcon bundledIcon(const QString &name);

/// A count text from tr("%n file(s)", nullptr, n) as English shows it when no translation is
/// loaded: "1 file", "3 files". A loaded translation (with its own plural forms) passes through.
[[nodiscard]] QString plural(const QString &translated, qint64 n);

/// "12.3k", "1.2M": a compact token count.
[[nodiscard]] QString compactNumber(qint64 value);
/// "$0.0143" or "$1.23": a cost in US dollars.
[[nodiscard]] QString formatCost(double usd);
/// "just now", "5 min ago", "3 h ago", "yesterday", "Mon", "12 Mar": when @p ms was, relative
/// to now.
[[nodiscard]] QString relativeTime(qint64 ms);

/// A rounded badge ("pill") in @p color: a faint fill, a border, @p text centred (may be empty).
void drawPill(QPainter *p, const QRectF &rect, const QString &text, const QColor &color, const QFont &font);
/// A busy spinner: a faint ring and an arc at @p phase (degrees), for what runs.
void drawSpinner(QPainter *p, const QPointF &center, qreal radius, int phase, const QColor &color);

} // namespace weft::Style
