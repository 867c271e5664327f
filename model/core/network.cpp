// SPDX-License-Identifier: GPL-3.0-or-later
#include "network.h"

#include "core/tr.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>

using namespace Qt::StringLiterals;

namespace weft::Network
{

namespace
{

/// The reply property that holds refusal()'s message.
constexpr char RefusalProperty[] = "weftRedirectRefusal";

int defaultPort(const QString &scheme)
{
    if (scheme == u"https" || scheme == u"wss")
        return 443;
    if (scheme == u"http" || scheme == u"ws")
        return 80;
    return -1;
}

} // namespace

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    const QString scheme = a.scheme().toLower();
    return scheme == b.scheme().toLower() && a.host().compare(b.host(), Qt::CaseInsensitive) == 0
        && a.port(defaultPort(scheme)) == b.port(defaultPort(scheme));
}

QString origin(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    QUrl o;
    o.setScheme(scheme);
    o.setHost(url.host());
    o.setPort(url.port(defaultPort(scheme)));
    return o.toString();
}

QNetworkReply *send(QNetworkAccessManager *manager, QNetworkRequest request, const QByteArray &verb,
                    const QByteArray &body)
{
    // Qt asks through QNetworkReply::redirected() before each redirect and sends nothing more
    // until redirectAllowed(); abort() instead ends the reply.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::UserVerifiedRedirectPolicy);
    const QUrl from = request.url();
    QNetworkReply *reply = nullptr;
    if (verb == "GET")
        reply = manager->get(request);
    else if (verb == "POST")
        reply = manager->post(request, body);
    else
        reply = manager->sendCustomRequest(request, verb, body);
    QObject::connect(reply, &QNetworkReply::redirected, reply, [reply, from](const QUrl &to) {
        // Another scheme is another origin: https to http is refused with the rest.
        if (sameOrigin(from, to)) {
            Q_EMIT reply->redirectAllowed();
            return;
        }
        const QString message
            = CoreTr::tr("%1 redirected to %2, another origin: Weft does not send credentials there (give that "
                         "address instead if you trust it)")
                  .arg(origin(from), origin(to));
        reply->setProperty(RefusalProperty, message);
        reply->abort();
    });
    return reply;
}

QString refusal(const QNetworkReply *reply)
{
    return reply ? reply->property(RefusalProperty).toString() : QString();
}

QString errorString(const QNetworkReply *reply)
{
    const QString refused = refusal(reply);
    return refused.isEmpty() ? reply->errorString() : refused;
}

} // namespace weft::Network
