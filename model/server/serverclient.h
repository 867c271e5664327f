// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/result.h"

#include <QByteArray>
#include <QNetworkRequest>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

namespace weft
{

/// What an OpenCode server said about itself when Weft connected.
struct ServerInfo {
    /// `version` of `GET /global/health`, e.g. "1.18.34".
    QString version;
    /// The server has the V2 routes (`/api/*`, OpenCode 1.18 and later).
    bool hasV2 = false;
};

/// The HTTP side of an OpenCode server (`opencode serve`): JSON requests with HTTP basic auth
/// (user `opencode`, the server's OPENCODE_SERVER_PASSWORD), and the errors a user can act on.
///
/// Requests block the calling thread until the answer is in (running a local event loop): call
/// them from worker threads, or from the command line. Thread-safe; cheap to copy.
class ServerClient
{
public:
    ServerClient() = default;
    /// @p baseUrl is the server's root (`http://127.0.0.1:4096`); an empty @p password sends no
    /// credentials (a server without OPENCODE_SERVER_PASSWORD).
    ServerClient(const QUrl &baseUrl, const QString &password);

    [[nodiscard]] QUrl baseUrl() const { return m_baseUrl; }
    /// The server as the user named it, for messages ("http://127.0.0.1:4096").
    [[nodiscard]] QString displayName() const;

    /// How long a request may go without a byte before it fails (default 30 s).
    void setTimeout(int ms) { m_timeoutMs = ms; }

    /// Checks that the server answers, takes the password and is an OpenCode version Weft knows:
    /// one clear error otherwise.
    [[nodiscard]] Result<ServerInfo> probe() const;

    /// GET @p path. A paged answer's next cursor (OpenCode's `x-next-cursor` header) goes to
    /// @p nextCursor when given (empty on the last page).
    [[nodiscard]] Result<JsonValue> get(const QString &path, const QUrlQuery &query = {},
                                        QByteArray *nextCursor = nullptr) const;
    [[nodiscard]] Result<JsonValue> post(const QString &path, const JsonValue &body, const QUrlQuery &query = {},
                                         int timeoutMs = -1) const;
    [[nodiscard]] Result<JsonValue> patch(const QString &path, const JsonValue &body, const QUrlQuery &query = {}) const;
    [[nodiscard]] Result<JsonValue> remove(const QString &path, const QUrlQuery &query = {}) const;

    /// A request for @p path with the credentials set (what the event stream opens itself): send
    /// it with Network::send(), which keeps them to the server's origin.
    [[nodiscard]] QNetworkRequest request(const QString &path, const QUrlQuery &query = {}) const;

    /// The server's root from what a user typed: "http://host:port", "https://...", or
    /// "host:port" (http). An error names what is wrong (ssh:// targets are SshTunnel's).
    [[nodiscard]] static Result<QUrl> parseUrl(const QString &text);

    /// The value of the Authorization header for @p password.
    [[nodiscard]] static QByteArray basicAuth(const QString &password);
    /// Versions of OpenCode whose server Weft speaks to: 1.x.
    [[nodiscard]] static bool isKnownVersion(const QString &version);

private:
    [[nodiscard]] Result<JsonValue> send(const QByteArray &verb, const QString &path, const QUrlQuery &query,
                                         const QByteArray &body, int timeoutMs, QByteArray *nextCursor = nullptr) const;

    QUrl m_baseUrl;
    QByteArray m_authorization;
    int m_timeoutMs = 30000;
};

} // namespace weft
