// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace weft
{

/// OpenCode's background service (`opencode serve --service`, OpenCode 2): the registration it
/// writes to $XDG_STATE_HOME/opencode/service.json (other channels: service-CHANNEL.json), mode
/// 0600, `{id, version, url, pid, password}`, removed again when it stops cleanly. Clients attach
/// to it instead of starting a server of their own.
///
/// A file is trusted only when it is the user's own and nobody else may read or write it, its
/// JSON holds an http:// URL on a loopback address with a port, and its PID runs: anything else
/// is an error that says why (and never contains the password).
struct ServiceFile {
    QString path;
    QString channel; ///< empty: the default one (service.json)
    QString id;
    QString version;
    QUrl url; ///< http://127.0.0.1:PORT (or [::1], localhost)
    qint64 pid = 0;
    QString password; ///< the server's; never logged or shown

    /// $XDG_STATE_HOME/opencode, or ~/.local/state/opencode.
    [[nodiscard]] static QString directory();
    /// The file of @p channel in directory(): service.json (empty channel) or service-CHANNEL.json.
    [[nodiscard]] static QString pathFor(const QString &channel = {});
    /// The channel a `--server` address names: "service" (the default one) or "service:CHANNEL";
    /// nothing for any other address.
    [[nodiscard]] static std::optional<QString> channelOf(const QString &address);

    /// Reads and checks the file at @p path (its mode, owner, JSON, URL and PID).
    [[nodiscard]] static Result<ServiceFile> read(const QString &path);
    /// Checks a registration's JSON (what read() does after the file's own checks; an ssh://
    /// target's remote file comes this way): the fields, and a loopback http:// URL.
    [[nodiscard]] static Result<ServiceFile> parse(const QByteArray &json, const QString &where);
    /// The services running here: every service*.json of directory() that read() accepts, the
    /// default channel first. What is wrong with the others is added to @p problems (a file of
    /// a service that is not running is not a problem, only stale).
    [[nodiscard]] static QList<ServiceFile> findLocal(QStringList *problems = nullptr);
};

} // namespace weft
