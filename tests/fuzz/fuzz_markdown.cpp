// SPDX-License-Identifier: GPL-3.0-or-later
// The Markdown renderer of the timeline (Markdown::render: Qt's Markdown reader, then code
// blocks highlighted by KSyntaxHighlighting and inline code tinted), laid out and painted as the
// timeline delegate does. The input is a message's text.

#include "fuzzcommon.h"

#include "markdownrenderer.h"

#include <QApplication>
#include <QFontDatabase>
#include <QImage>
#include <QPainter>
#include <QTextDocument>

using namespace weft;

// The application is never destroyed (fuzzcommon.h): what fontconfig and Qt's font database
// keep until then is no leak of the renderer's.
extern "C" const char *__lsan_default_suppressions()
{
    return "leak:libfontconfig.so\nleak:libQt6Gui.so\n";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    fuzz::ensureApp<QApplication>();
    // Messages are usually a few kilobytes; larger inputs only slow the fuzzer.
    if (size > 32768)
        return 0;
    static const QFont font = QFontDatabase::systemFont(QFontDatabase::GeneralFont);
    const QPalette palette = QApplication::palette();

    QTextDocument document;
    Markdown::render(&document, fuzz::text(data, size), font, palette);
    document.setTextWidth(480);
    (void)document.size();
    QImage image(160, 120, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    Markdown::paintCodeBackgrounds(&painter, &document, QPointF(0, 0), palette);
    document.drawContents(&painter, QRectF(0, 0, 160, 120));
    return 0;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    // The application, the fonts and the syntax definitions (seconds under ASan),
    // once, before libFuzzer's per-input timeout applies.
    static const char warm[] = "# T\n\n`x` **y**\n\n```cpp\nint x;\n```\n";
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(warm), sizeof warm - 1);
    return 0;
}
