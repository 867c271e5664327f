// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Credentials stay with their origin. Every HTTP request that carries credentials (an OpenCode
// server's password, a provider's API key and the `headers` of its config, an MCP server's
// `headers`) is sent through Network::send(). Its redirects are followed only within the origin
// (scheme, host and port) of the URL the request was made for; a redirect to another origin, or
// from https to http, is refused before anything is sent there: the reply is aborted and
// Network::refusal() says why, naming both origins.
//
// Refusing rather than following without the credentials: an API endpoint answers a request
// without them with a 401 that hides the cause, and a server that moved is better named in the
// config than followed silently. Qt's own policies do not do this: NoLessSafeRedirectPolicy (the
// default) sends every header of the request, Authorization included, to wherever it is sent.

#include <QByteArray>
#include <QNetworkRequest>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace weft::Network
{

/// Sends @p request with @p verb ("GET", "POST", "DELETE", ...) and @p body through @p manager,
/// with its redirects held to the origin of the request's URL (see above).
[[nodiscard]] QNetworkReply *send(QNetworkAccessManager *manager, QNetworkRequest request, const QByteArray &verb,
                                  const QByteArray &body = {});

/// Why a redirect of @p reply (a reply of send()) was refused, naming both origins; empty when
/// none was. A refused reply finishes with QNetworkReply::OperationCanceledError: callers check
/// this first, so that the refusal is reported rather than taken for the user's cancel.
[[nodiscard]] QString refusal(const QNetworkReply *reply);

/// refusal() when there is one, else the reply's errorString().
[[nodiscard]] QString errorString(const QNetworkReply *reply);

/// Scheme, host and port are the same (a missing port is the scheme's default).
[[nodiscard]] bool sameOrigin(const QUrl &a, const QUrl &b);

/// "scheme://host:port", for messages.
[[nodiscard]] QString origin(const QUrl &url);

} // namespace weft::Network
