// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLocale>
#include <QStringList>

class QCoreApplication;

namespace weft::I18n
{

/// Installs Weft's translation for \a locale (embedded under :/i18n) and Qt's own (qtbase, from
/// QLibraryInfo::TranslationsPath) into \a app, replacing the ones an earlier call installed. For
/// an English locale, or one Weft has no translation for, nothing of Weft's is installed.
/// Returns the translation files loaded, for the log and the tests.
QStringList installTranslations(QCoreApplication &app, const QLocale &locale);

/// @p text without its accelerator marker: "&File" -> "File", and the Chinese and Japanese form
/// "ファイル(&F)" -> "ファイル" ("&&" stays a literal "&").
QString removeAccelerator(const QString &text);

/// The languages Weft ships a translation for ("ja", "zh_CN"), from the embedded files.
QStringList availableLanguages();

} // namespace weft::I18n
