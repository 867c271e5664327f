// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The OpenCode servers the window remembers for the next start (File › Connect to OpenCode
// Server…), with their passwords, in the application's settings file.

#include "core/result.h"

#include <QList>
#include <QString>

class QSettings;

namespace weft::RememberedServers
{

struct Entry {
    QString url;
    QString password; ///< empty when not remembered
    bool connected = false;
    bool operator==(const Entry &) const = default;
};

/// The servers stored in @p settings, most recent first.
[[nodiscard]] QList<Entry> read(QSettings &settings);

/// Stores @p servers in @p settings. The settings file holds passwords, so it is the user's
/// alone from the start: its folder is made 0700 and the file 0600 (an existing one is tightened)
/// before anything is written, whatever the umask; the settings' own rewrite (a new file renamed
/// over the old one) then keeps that mode, inside a folder nobody else can enter.
Result<void> write(QSettings &settings, const QList<Entry> &servers);

/// Makes @p fileName (and its folder) private as write() does: the folder 0700, the file
/// created (empty) or tightened to 0600.
Result<void> makePrivate(const QString &fileName);

} // namespace weft::RememberedServers
