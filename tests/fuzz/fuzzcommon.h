// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared helpers of the fuzz targets: the application object, a temporary folder for the
// process, splitting one input into several fields.

#include <QByteArray>
#include <QByteArrayView>
#include <QCoreApplication>
#include <QList>
#include <QLoggingCategory>
#include <QTemporaryDir>

#include <cstdint>

namespace weft::fuzz
{

/// Creates the application object once (kept for the life of the process, never destroyed:
/// its destructor would run after Qt's own statics). @p App is QCoreApplication or a subclass.
template<typename App = QCoreApplication>
inline void ensureApp()
{
    if (QCoreApplication::instance())
        return;
    static int argc = 1;
    static char name[] = "weft-fuzz";
    static char *argv[] = {name, nullptr};
    // Warnings about bad input are expected by the thousand: they would only slow the run.
    QLoggingCategory::setFilterRules(QStringLiteral("*.debug=false\n*.warning=false\n*.info=false"));
    new App(argc, argv);
}

/// A temporary folder for the whole process, removed at exit.
inline QString tempDir()
{
    static QTemporaryDir dir;
    return dir.path();
}

/// The input as text (invalid UTF-8 becomes replacement characters, as the app reads files).
inline QString text(const uint8_t *data, size_t size)
{
    return QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
}

inline QByteArrayView bytes(const uint8_t *data, size_t size)
{
    return QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(size));
}

/// Splits the input at a separator line ("\n~~~\n"), so that one input can hold several
/// documents (a file and a patch, a row's columns...). Seeds are written with the same
/// separator, so the fuzzer keeps and recombines it.
inline QList<QByteArray> fields(const uint8_t *data, size_t size, qsizetype max = 8)
{
    QList<QByteArray> out;
    QByteArrayView rest = bytes(data, size);
    static constexpr QByteArrayView Separator("\n~~~\n");
    while (out.size() < max - 1) {
        const qsizetype at = rest.indexOf(Separator);
        if (at < 0)
            break;
        out.append(rest.first(at).toByteArray());
        rest = rest.sliced(at + Separator.size());
    }
    out.append(rest.toByteArray());
    return out;
}

} // namespace weft::fuzz
