// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/result.h"

#include <QByteArray>
#include <QFuture>
#include <QNetworkRequest>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

#include <memory>

namespace weft
{

/// Which routes an OpenCode server has.
enum class ServerProtocol {
    /// The V1 routes alone (`/session`, `/global/event`; OpenCode 1.x before 1.18).
    V1,
    /// The V1 routes, and beside them the first `/api` routes of OpenCode 1.18 (V1 sessions,
    /// and V2 sessions prompted through `/api/session/{id}/prompt`).
    V1WithV2,
    /// The `/api` routes alone (OpenCode 2): every session operation and the event stream
    /// (`/api/event`) are V2's (ServerApiV2).
    V2Only,
};

/// What an OpenCode server said about itself when Weft connected.
struct ServerInfo {
    /// `version` of `GET /global/health` (V1) or `GET /api/health` / `GET /api/info` (V2), e.g.
    /// "1.18.34", "2.0.12" or "0.0.0-v2beta-db9e942".
    QString version;
    ServerProtocol protocol = ServerProtocol::V1;
    /// The server has the V2 routes (`/api/*`, OpenCode 1.18 and later).
    bool hasV2 = false;

    /// Everything goes through `/api` (OpenCode 2).
    [[nodiscard]] bool v2Only() const { return protocol == ServerProtocol::V2Only; }
};

/// A page of a paged answer: the value, and OpenCode's `x-next-cursor` (empty on the last page).
struct ServerPage {
    JsonValue value;
    QByteArray nextCursor;
};

/// The HTTP side of an OpenCode server (`opencode serve`): JSON requests with HTTP basic auth
/// (user `opencode`, the server's OPENCODE_SERVER_PASSWORD), and the errors a user can act on.
///
/// Every request returns at once with a QFuture of its answer; nothing blocks and no event loop
/// is nested. The requests of a client and of its copies go through one QNetworkAccessManager
/// on a thread of its own (started with the first request, stopped with the last copy): a
/// future may be waited for on any other thread without deadlock (ServerStore's reads do, on
/// worker threads), and its continuations without a context run on that network thread.
/// Thread-safe; cheap to copy.
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

    /// Gives up the requests of this client and of all its copies: those in progress end with an
    /// error at once, later ones too (their source was closed; work still holding a copy on a
    /// worker thread must not wait for a server nobody asks any more).
    void close() const;

    /// Checks that the server answers, takes the password and is an OpenCode version Weft knows,
    /// and which routes it has (V1 `GET /global/health`, V2 `GET /api/health` and 2.0.x's
    /// `GET /api/info`, asked at once): one clear error otherwise. A V1 route that answers
    /// something other than JSON (OpenCode 2 releases serve their web UI there, status 200) is no
    /// V1 route.
    [[nodiscard]] QFuture<Result<ServerInfo>> probe() const;

    [[nodiscard]] QFuture<Result<JsonValue>> get(const QString &path, const QUrlQuery &query = {}) const;
    /// GET @p path of a paged route, with its next cursor.
    [[nodiscard]] QFuture<Result<ServerPage>> getPage(const QString &path, const QUrlQuery &query = {}) const;
    [[nodiscard]] QFuture<Result<JsonValue>> post(const QString &path, const JsonValue &body,
                                                  const QUrlQuery &query = {}, int timeoutMs = -1) const;
    [[nodiscard]] QFuture<Result<JsonValue>> patch(const QString &path, const JsonValue &body,
                                                   const QUrlQuery &query = {}) const;
    /// DELETE @p path, with @p body when it is not null (OpenCode's worktree route takes one).
    [[nodiscard]] QFuture<Result<JsonValue>> remove(const QString &path, const QUrlQuery &query = {},
                                                    const JsonValue &body = {}) const;

    /// The result of @p future once it is there, blocking the calling thread meanwhile (no
    /// event loop runs): for worker threads and the command line. The GUI thread never blocks on
    /// the network: there it is an error at once (and a warning in the log), as is a future given
    /// up (its client gone while it ran).
    template<typename T> [[nodiscard]] static Result<T> wait(const QFuture<Result<T>> &future);

    /// A request for @p path with the credentials set (what the event stream opens itself): send
    /// it with Network::send(), which keeps them to the server's origin.
    [[nodiscard]] QNetworkRequest request(const QString &path, const QUrlQuery &query = {}) const;

    /// The server's root from what a user typed: "http://host:port", "https://...", or
    /// "host:port" (http). An error names what is wrong (ssh:// targets are SshTunnel's).
    [[nodiscard]] static Result<QUrl> parseUrl(const QString &text);

    /// The value of the Authorization header for @p password.
    [[nodiscard]] static QByteArray basicAuth(const QString &password);
    /// Versions of OpenCode whose server Weft speaks to: 1.x, 2.x and the V2 preview builds
    /// (`0.0.0-v2beta-*`).
    [[nodiscard]] static bool isKnownVersion(const QString &version);

private:
    class Channel;

    [[nodiscard]] QFuture<Result<ServerPage>> send(const QByteArray &verb, const QString &path,
                                                   const QUrlQuery &query, const QByteArray &body,
                                                   int timeoutMs) const;
    /// Whether this thread may wait for an answer (not the GUI thread; warns when not).
    [[nodiscard]] static bool mayWait();
    /// The error of a request given up.
    [[nodiscard]] static Error givenUp();

    QUrl m_baseUrl;
    QByteArray m_authorization;
    int m_timeoutMs = 30000;
    std::shared_ptr<Channel> m_channel;
};

template<typename T> Result<T> ServerClient::wait(const QFuture<Result<T>> &future)
{
    if (!mayWait())
        return givenUp();
    QFuture<Result<T>> f = future;
    f.waitForFinished();
    if (f.isCanceled() || f.resultCount() == 0)
        return givenUp();
    return f.result();
}

} // namespace weft
