// SPDX-License-Identifier: GPL-3.0-or-later
#include "style.h"

#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QIconEngine>
#include <QLocale>
#include <QPainter>
#include <QPixmapCache>
#include <QSvgRenderer>

using namespace Qt::StringLiterals;

namespace weft::Style
{

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < palette.color(QPalette::WindowText).lightnessF();
}

QColor mix(const QColor &a, const QColor &b, qreal amount)
{
    const qreal r = a.redF() + (b.redF() - a.redF()) * amount;
    const qreal g = a.greenF() + (b.greenF() - a.greenF()) * amount;
    const qreal bl = a.blueF() + (b.blueF() - a.blueF()) * amount;
    const qreal al = a.alphaF() + (b.alphaF() - a.alphaF()) * amount;
    return QColor::fromRgbF(float(r), float(g), float(bl), float(al));
}

// Breeze's positive, negative, neutral and active colours, lightened on dark backgrounds where
// the light-theme values lose contrast.
QColor positive(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x3d, 0xd4, 0x7f) : QColor(0x1e, 0x8c, 0x4d);
}

QColor negative(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xf0, 0x6b, 0x7c) : QColor(0xc0, 0x2f, 0x42);
}

QColor neutral(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xf6, 0x9d, 0x3e) : QColor(0xb8, 0x57, 0x00);
}

QColor active(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x4c, 0xb4, 0xf5) : QColor(0x1d, 0x72, 0xb8);
}

QColor dimText(const QPalette &palette)
{
    return mix(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.42);
}

namespace
{
/// Renders a bundled SVG with "currentColor" replaced by the palette colour of the icon mode,
/// as KIconLoader colours Breeze's monochrome icons.
class TintedSvgEngine : public QIconEngine
{
public:
    explicit TintedSvgEngine(const QString &path)
        : m_path(path)
    {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            m_svg = file.readAll();
    }

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        painter->drawPixmap(rect, scaledPixmap(rect.size(), mode, state, dpr));
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }

    QPixmap scaledPixmap(const QSize &size, QIcon::Mode mode, QIcon::State, qreal scale) override
    {
        const QColor color = colorFor(mode);
        const QSize pixels = size * scale;
        const QString key
            = u"weft-icon:%1:%2x%3:%4"_s.arg(m_path).arg(pixels.width()).arg(pixels.height()).arg(color.rgba());
        QPixmap pm;
        if (QPixmapCache::find(key, &pm))
            return pm;
        QByteArray svg = m_svg;
        svg.replace("currentColor", color.name().toLatin1());
        QSvgRenderer renderer(svg);
        pm = QPixmap(pixels);
        pm.fill(Qt::transparent);
        {
            QPainter p(&pm);
            renderer.render(&p, QRectF(QPointF(0, 0), QSizeF(pixels)));
        }
        pm.setDevicePixelRatio(scale);
        QPixmapCache::insert(key, pm);
        return pm;
    }

    QSize actualSize(const QSize &size, QIcon::Mode, QIcon::State) override { return size; }
    QIconEngine *clone() const override { return new TintedSvgEngine(*this); }
    QString key() const override { return u"weft-tinted-svg"_s; }
    bool isNull() override { return m_svg.isEmpty(); }

private:
    static QColor colorFor(QIcon::Mode mode)
    {
        const QPalette palette = QApplication::palette();
        switch (mode) {
        case QIcon::Disabled:
            return palette.color(QPalette::Disabled, QPalette::WindowText);
        case QIcon::Selected:
            return palette.color(QPalette::HighlightedText);
        default:
            return palette.color(QPalette::WindowText);
        }
    }

    QString m_path;
    QByteArray m_svg;
};
} // namespace

QIcon bundledIcon(const QString &name)
{
    return QIcon(new TintedSvgEngine(u":/icons/"_s + name + u".svg"_s));
}

QIcon icon(const QString &name)
{
    if (QIcon::hasThemeIcon(name))
        return QIcon::fromTheme(name);
    return bundledIcon(name);
}

QString plural(const QString &translated, qint64 n)
{
    QString text = translated;
    text.replace(u"(s)"_s, n == 1 ? QString() : u"s"_s);
    return text;
}

QString compactNumber(qint64 value)
{
    const QLocale locale;
    if (value < 1000)
        return locale.toString(value);
    if (value < 1000000)
        return locale.toString(double(value) / 1000.0, 'f', value < 10000 ? 1 : 0) + u'k';
    return locale.toString(double(value) / 1000000.0, 'f', 1) + u'M';
}

QString formatCost(double usd)
{
    const QLocale locale;
    if (usd <= 0)
        return u"$0"_s;
    return u"$"_s + locale.toString(usd, 'f', usd < 1 ? 4 : 2);
}

QString relativeTime(qint64 ms)
{
    if (ms <= 0)
        return {};
    const QDateTime then = QDateTime::fromMSecsSinceEpoch(ms);
    const QDateTime now = QDateTime::currentDateTime();
    const qint64 seconds = then.secsTo(now);
    if (seconds < 60)
        return QApplication::translate("weft::Style", "just now");
    // The count is computed first: lupdate 6.8 hangs on a division inside translate()'s arguments.
    if (seconds < 3600) {
        const int minutes = int(seconds / 60);
        return QApplication::translate("weft::Style", "%n min ago", nullptr, minutes);
    }
    const qint64 days = then.date().daysTo(now.date());
    if (days == 0) {
        const int hours = int(seconds / 3600);
        return QApplication::translate("weft::Style", "%n h ago", nullptr, hours);
    }
    if (days == 1)
        return QApplication::translate("weft::Style", "yesterday");
    const QLocale locale;
    if (days < 7) {
        // The full name: the short one is a single character in Japanese and Chinese (日, 日).
        return locale.dayName(then.date().dayOfWeek(), QLocale::LongFormat);
    }
    if (then.date().year() == now.date().year()) {
        // Day and month without the year, in the order the language writes them.
        switch (locale.language()) {
        case QLocale::Japanese:
        case QLocale::Chinese:
            return locale.toString(then.date(), u"M月d日"_s);
        case QLocale::Korean:
            return locale.toString(then.date(), u"M월 d일"_s);
        default:
            return locale.toString(then.date(), u"d MMM"_s);
        }
    }
    return locale.toString(then.date(), QLocale::ShortFormat);
}

QFont smallFont(const QFont &font)
{
    QFont f = font;
    f.setPointSizeF(font.pointSizeF() * 0.88);
    return f;
}

void drawSpinner(QPainter *p, const QPointF &center, qreal radius, int phase, const QColor &color)
{
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    QColor faint = color;
    faint.setAlphaF(0.25f);
    p->setPen(QPen(faint, 1.6));
    p->drawEllipse(center, radius, radius);
    p->setPen(QPen(color, 1.6, Qt::SolidLine, Qt::RoundCap));
    p->drawArc(QRectF(center.x() - radius, center.y() - radius, 2 * radius, 2 * radius), -phase * 16, 100 * 16);
    p->restore();
}

void drawPill(QPainter *p, const QRectF &rect, const QString &text, const QColor &color, const QFont &font)
{
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    QColor bg = color;
    bg.setAlphaF(0.14f);
    QColor border = color;
    border.setAlphaF(0.45f);
    p->setPen(QPen(border, 1));
    p->setBrush(bg);
    p->drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), rect.height() / 2, rect.height() / 2);
    p->setFont(font);
    p->setPen(color);
    p->drawText(rect, Qt::AlignCenter, text);
    p->restore();
}

} // namespace weft::Style
