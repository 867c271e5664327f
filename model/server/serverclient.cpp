// SPDX-License-Identifier: GPL-3.0-or-later
#include "serverclient.h"

#include "core/network.h"
#include "core/tr.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QThread>
#include <QVersionNumber>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// The message OpenCode's error bodies carry: `{"name": ..., "data": {"message": ...}}`,
/// `{"error": ...}` or `{"message": ...}`.
QString errorMessageOf(const QByteArray &body)
{
    const std::optional<JsonValue> parsed = parseJson(body);
    if (!parsed || !parsed->isObject())
        return QString::fromUtf8(body.left(200)).trimmed();
    const JsonObject o = parsed->toObject();
    const QString fromData = o.object(u"data").string(u"message");
    if (!fromData.isEmpty())
        return fromData;
    if (o.value(u"error").isString())
        return o.string(u"error");
    if (o.value(u"error").isArray()) {
        const JsonArray issues = o.value(u"error").toArray();
        if (!issues.isEmpty() && issues.at(0).isObject())
            return issues.at(0).toObject().string(u"message");
    }
    if (!o.string(u"message").isEmpty())
        return o.string(u"message");
    return o.string(u"name");
}

} // namespace

ServerClient::ServerClient(const QUrl &baseUrl, const QString &password)
    : m_baseUrl(baseUrl)
    , m_authorization(password.isEmpty() ? QByteArray() : basicAuth(password))
{
    // Paths are appended to the root: "http://h:1/" and "http://h:1" are the same server.
    QString path = m_baseUrl.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    m_baseUrl.setPath(path);
}

QString ServerClient::displayName() const
{
    return m_baseUrl.toString(QUrl::RemoveUserInfo);
}

QByteArray ServerClient::basicAuth(const QString &password)
{
    return "Basic " + (u"opencode:"_s + password).toUtf8().toBase64();
}

Result<QUrl> ServerClient::parseUrl(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return Error{ServerTr::tr("no OpenCode server given"), {}};
    QUrl url = QUrl::fromUserInput(trimmed.contains(u"://") ? trimmed : u"http://"_s + trimmed);
    if (!url.isValid() || url.host().isEmpty())
        return Error{ServerTr::tr("\"%1\" is not a server address (http://HOST:PORT)").arg(trimmed), {}};
    if (url.scheme() != u"http" && url.scheme() != u"https")
        return Error{
            ServerTr::tr("\"%1\": an OpenCode server is reached over http:// or https:// (or ssh://)").arg(trimmed),
            {}};
    if (!url.query().isEmpty() || !url.fragment().isEmpty())
        return Error{ServerTr::tr("\"%1\": a server address has no query or fragment").arg(trimmed), {}};
    return url;
}

bool ServerClient::isKnownVersion(const QString &version)
{
    const QVersionNumber number = QVersionNumber::fromString(version);
    return number.majorVersion() == 1;
}

QNetworkRequest ServerClient::request(const QString &path, const QUrlQuery &query) const
{
    QUrl url = m_baseUrl;
    url.setPath(m_baseUrl.path() + path);
    if (!query.isEmpty())
        url.setQuery(query);
    QNetworkRequest request(url);
    if (!m_authorization.isEmpty())
        request.setRawHeader("Authorization", m_authorization);
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(m_timeoutMs);
    return request;
}

Result<JsonValue> ServerClient::send(const QByteArray &verb, const QString &path, const QUrlQuery &query,
                                     const QByteArray &body, int timeoutMs, QByteArray *nextCursor) const
{
    if (!m_baseUrl.isValid() || m_baseUrl.host().isEmpty())
        return Error{ServerTr::tr("no OpenCode server given"), {}};
    // While the application closes down (its destructor waits for the thread pool) no answer
    // would arrive: a read then is given up at once.
    if (!QCoreApplication::instance() || QCoreApplication::closingDown())
        return Error{ServerTr::tr("Weft is quitting"), displayName()};
    QNetworkRequest req = request(path, query);
    if (timeoutMs > 0)
        req.setTransferTimeout(timeoutMs);
    if (!body.isNull())
        req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    // A manager per request, gone with it: nothing of it outlives the call (a manager kept per
    // thread would be destroyed after the application, leaving its HTTP thread's work undone).
    // The password goes to the server's own origin only (Network::send).
    QNetworkAccessManager manager;
    const std::unique_ptr<QNetworkReply> reply(Network::send(&manager, req, verb, body));
    QEventLoop loop;
    QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
    // Nor must a read in progress off the GUI thread (a long session's older messages) hold up
    // the exit: it is given up when the application is about to quit.
    if (QCoreApplication *app = QCoreApplication::instance(); app && QThread::currentThread() != app->thread())
        QObject::connect(app, &QCoreApplication::aboutToQuit, reply.get(), &QNetworkReply::abort);
    if (!reply->isFinished())
        loop.exec(QEventLoop::ExcludeUserInputEvents);

    const QString where = displayName();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = reply->readAll();
    if (nextCursor)
        *nextCursor = reply->rawHeader("x-next-cursor");
    if (const QString refused = Network::refusal(reply.get()); !refused.isEmpty())
        return Error{refused, where};
    if (status == 0) {
        switch (reply->error()) {
        case QNetworkReply::OperationCanceledError:
        case QNetworkReply::TimeoutError:
            return Error{ServerTr::tr("the OpenCode server did not answer %1 %2 within %3 s")
                             .arg(QString::fromLatin1(verb), path)
                             .arg((timeoutMs > 0 ? timeoutMs : m_timeoutMs) / 1000),
                         where};
        default:
            return Error{ServerTr::tr("cannot reach the OpenCode server: %1").arg(reply->errorString()), where};
        }
    }
    if (status == 401 || status == 403)
        return Error{m_authorization.isEmpty() ? ServerTr::tr(
                         "the OpenCode server asks for a password (OPENCODE_SERVER_PASSWORD or --password-file)")
                                               : ServerTr::tr("the OpenCode server refused the password"),
                     where};
    if (status >= 400) {
        const QString message = errorMessageOf(bytes);
        //: Keep "(HTTP %3)" as it is: health() looks for "(HTTP 404)" in this message.
        return Error{ServerTr::tr("%1 %2 failed (HTTP %3)%4")
                         .arg(QString::fromLatin1(verb), path)
                         .arg(status)
                         .arg(message.isEmpty() ? QString() : u": "_s + message),
                     where};
    }
    if (bytes.trimmed().isEmpty())
        return JsonValue();
    JsonParseError error;
    std::optional<JsonValue> parsed = parseJson(bytes, &error);
    if (!parsed)
        return Error{ServerTr::tr("%1 %2 answered something that is not JSON (is this an OpenCode server?)")
                         .arg(QString::fromLatin1(verb), path),
                     where};
    return std::move(*parsed);
}

Result<JsonValue> ServerClient::get(const QString &path, const QUrlQuery &query, QByteArray *nextCursor) const
{
    return send("GET", path, query, QByteArray(), -1, nextCursor);
}

Result<JsonValue> ServerClient::post(const QString &path, const JsonValue &body, const QUrlQuery &query, int timeoutMs) const
{
    return send("POST", path, query, toJson(body, 0), timeoutMs);
}

Result<JsonValue> ServerClient::patch(const QString &path, const JsonValue &body, const QUrlQuery &query) const
{
    return send("PATCH", path, query, toJson(body, 0), -1);
}

Result<JsonValue> ServerClient::remove(const QString &path, const QUrlQuery &query) const
{
    return send("DELETE", path, query, QByteArray(), -1);
}

Result<ServerInfo> ServerClient::probe() const
{
    Result<JsonValue> health = get(u"/global/health"_s);
    if (!health) {
        if (health.error().message.contains(u"(HTTP 404)"))
            return Error{ServerTr::tr("this is not an OpenCode server (it has no /global/health)"), displayName()};
        return health.error();
    }
    const JsonObject o = health->toObject();
    const QString version = o.string(u"version");
    if (version.isEmpty())
        return Error{ServerTr::tr("this is not an OpenCode server (/global/health has no version)"), displayName()};
    if (!isKnownVersion(version))
        return Error{ServerTr::tr("OpenCode %1 is a version Weft does not know (it speaks to OpenCode 1.x servers)")
                         .arg(version),
                     displayName()};
    ServerInfo info;
    info.version = version;
    // The V2 routes arrived in 1.18; a server that has them answers /api/health.
    info.hasV2 = get(u"/api/health"_s).ok();
    return info;
}

} // namespace weft
