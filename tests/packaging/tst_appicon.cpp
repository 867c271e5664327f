// SPDX-License-Identifier: GPL-3.0-or-later
// The application icon: the committed PNGs are the SVG sources rendered at each hicolor size
// (16 and 22 from their pixel-aligned sources, the larger ones from the scalable icon), and the
// icon the window uses carries them all.
//
// WEFT_REGENERATE_ICONS=1 writes the PNGs from the sources instead of comparing.

#include "appearance.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTest>

using namespace Qt::StringLiterals;

namespace
{
const QString IconDir = QStringLiteral(WEFT_SOURCE_DIR "/resources/icons/app");

QString sourceFor(int size)
{
    if (size == 16 || size == 22)
        return IconDir + u"/dev.weft.Weft-%1.svg"_s.arg(size);
    return IconDir + u"/dev.weft.Weft.svg"_s;
}

QString pngFor(int size)
{
    return IconDir + u"/png/dev.weft.Weft-%1.png"_s.arg(size);
}

QImage render(const QString &svg, int size)
{
    QSvgRenderer renderer(svg);
    if (!renderer.isValid())
        return {};
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    painter.end();
    return image.convertToFormat(QImage::Format_ARGB32);
}

/// Mean absolute difference per channel (0-255).
double difference(const QImage &a, const QImage &b)
{
    double sum = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            sum += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q))
                + std::abs(qAlpha(p) - qAlpha(q));
        }
    }
    return sum / (4.0 * a.width() * a.height());
}
} // namespace

class TestAppIcon : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void png_data();
    void png();
    void windowIcon();
};

void TestAppIcon::png_data()
{
    QTest::addColumn<int>("size");
    for (int size : weft::Appearance::applicationIconSizes())
        QTest::addRow("%d", size) << size;
}

void TestAppIcon::png()
{
    QFETCH(int, size);
    const QImage rendered = render(sourceFor(size), size);
    QVERIFY2(!rendered.isNull(), qPrintable(sourceFor(size)));
    if (qEnvironmentVariableIntValue("WEFT_REGENERATE_ICONS") > 0) {
        QVERIFY(QDir().mkpath(QFileInfo(pngFor(size)).absolutePath()));
        QVERIFY(rendered.save(pngFor(size)));
    }

    const QImage committed = QImage(pngFor(size)).convertToFormat(QImage::Format_ARGB32);
    QVERIFY2(!committed.isNull(), qPrintable(pngFor(size)));
    QCOMPARE(committed.size(), QSize(size, size));
    // Transparent corners (the tile is rounded), an opaque middle.
    QCOMPARE(qAlpha(committed.pixel(0, 0)), 0);
    QCOMPARE(qAlpha(committed.pixel(size - 1, 0)), 0);
    QCOMPARE(qAlpha(committed.pixel(size / 2, size / 2)), 255);
    // Stale PNGs fail: regenerate with WEFT_REGENERATE_ICONS=1 after changing a source.
    const double diff = difference(committed, rendered);
    QVERIFY2(diff < 1.0, qPrintable(u"%1 differs from its source by %2; run with WEFT_REGENERATE_ICONS=1"_s
                                        .arg(pngFor(size))
                                        .arg(diff)));
}

void TestAppIcon::windowIcon()
{
    const QIcon icon = weft::Appearance::applicationIcon();
    QVERIFY(!icon.isNull());
    // The bundled icon has every size, and draws a tile at each.
    for (int size : weft::Appearance::applicationIconSizes()) {
        const QImage image = icon.pixmap(QSize(size, size), 1.0).toImage().convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(image.size(), QSize(size, size));
        QCOMPARE(qAlpha(image.pixel(size / 2, size / 2)), 255);
    }
}

QTEST_MAIN(TestAppIcon)
#include "tst_appicon.moc"
