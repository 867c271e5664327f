// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>
#include <QString>

Q_DECLARE_LOGGING_CATEGORY(lcStore)
Q_DECLARE_LOGGING_CATEGORY(lcSession)
Q_DECLARE_LOGGING_CATEGORY(lcProcessor)
Q_DECLARE_LOGGING_CATEGORY(lcProvider)
Q_DECLARE_LOGGING_CATEGORY(lcUi)

namespace weft::Logging
{

/// Starts a log file for this run under `<dataDir>/log/`, named by date and time as OpenCode
/// names its logs (`2026-01-19T132027.log`), and keeps the newest @p keep files. Messages of
/// every category at info level and above go there (debug too with WEFT_DEBUG=1); stderr keeps
/// warnings. Returns the log file path, or empty when the folder cannot be written.
QString start(const QString &dataDir, int keep = 10);

/// The current log file, or empty.
QString currentFile();

/// Replaces anything that looks like an API key or bearer token in @p text with "***".
QString redact(const QString &text);

} // namespace weft::Logging
