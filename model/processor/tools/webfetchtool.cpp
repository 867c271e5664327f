// SPDX-License-Identifier: GPL-3.0-or-later
#include "webfetchtool.h"

#include "htmlconvert.h"
#include "toolutil.h"

#include "core/logging.h"

#include <QDeadlineTimer>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSet>
#include <QStringDecoder>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <cmath>
#include <future>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// What the Accept header asks for, by format (OpenCode's preferences).
QByteArray acceptFor(const QString &format)
{
    if (format == u"markdown")
        return "text/markdown;q=1.0, text/x-markdown;q=0.9, text/plain;q=0.8, text/html;q=0.7, */*;q=0.1";
    if (format == u"text")
        return "text/plain;q=1.0, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1";
    return "text/html;q=1.0, application/xhtml+xml;q=0.9, text/plain;q=0.8, text/markdown;q=0.7, */*;q=0.1";
}

/// A browser's User-Agent: many sites refuse or degrade answers to unknown clients.
constexpr auto BrowserAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/143.0.0.0 Safari/537.36";

struct Fetched {
    enum class Outcome { Done, TooLarge, TimedOut, Aborted, NetworkError };
    Outcome outcome = Outcome::Done;
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    QByteArray contentType;
    QByteArray body;
    QByteArray cfMitigated;
    /// A redirect's Location (relative or not), when the answer is one.
    QByteArray location;
    QUrl finalUrl;
};

bool isRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/// Starts one GET on the calling thread (its event loop runs it): the size cap, the overall
/// timeout and the session's abort all stop it; @p done gets the answer from that event loop. A
/// redirect is not followed: it is the answer (execute() checks where it leads before going there).
void startFetch(const QUrl &url, const QByteArray &accept, const QByteArray &userAgent, int timeoutMs,
                const std::shared_ptr<std::atomic_bool> &abortFlag, std::function<void(const Fetched &)> done)
{
    // The manager, the reply and the timers go together once the answer is handed on.
    auto *manager = new QNetworkAccessManager;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setRawHeader("User-Agent", userAgent);
    request.setRawHeader("Accept", accept);
    request.setRawHeader("Accept-Language", "en-US,en;q=0.9");

    auto result = std::make_shared<Fetched>();
    QNetworkReply *reply = manager->get(request);
    const auto stop = [result, reply](Fetched::Outcome outcome) {
        if (result->outcome == Fetched::Outcome::Done)
            result->outcome = outcome;
        reply->abort();
    };
    QObject::connect(reply, &QNetworkReply::metaDataChanged, manager, [reply, stop] {
        const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (!isRedirect(status) && length.isValid() && length.toLongLong() > WebFetchTool::MaxResponseBytes)
            stop(Fetched::Outcome::TooLarge);
    });
    QObject::connect(reply, &QNetworkReply::readyRead, manager, [reply, result, stop] {
        result->body += reply->readAll();
        if (result->body.size() > WebFetchTool::MaxResponseBytes)
            stop(Fetched::Outcome::TooLarge);
    });
    auto *timeout = new QTimer(manager);
    timeout->setSingleShot(true);
    QObject::connect(timeout, &QTimer::timeout, manager, [stop] { stop(Fetched::Outcome::TimedOut); });
    timeout->start(timeoutMs);
    auto *abortPoll = new QTimer(manager);
    QObject::connect(abortPoll, &QTimer::timeout, manager, [abortFlag, stop] {
        if (abortFlag && abortFlag->load())
            stop(Fetched::Outcome::Aborted);
    });
    abortPoll->start(50);
    QObject::connect(reply, &QNetworkReply::finished, manager, [manager, reply, result, url, done = std::move(done)] {
        if (result->outcome == Fetched::Outcome::Done) {
            result->body += reply->readAll();
            if (result->body.size() > WebFetchTool::MaxResponseBytes)
                result->outcome = Fetched::Outcome::TooLarge;
        }
        result->status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result->error = reply->error();
        result->errorString = reply->errorString();
        result->contentType = reply->rawHeader("Content-Type");
        result->cfMitigated = reply->rawHeader("cf-mitigated");
        if (isRedirect(result->status))
            result->location = reply->rawHeader("Location");
        result->finalUrl = url;
        if (result->outcome == Fetched::Outcome::Done && result->status == 0 && result->error != QNetworkReply::NoError)
            result->outcome = Fetched::Outcome::NetworkError;
        manager->deleteLater();
        done(*result);
    });
    if (abortFlag && abortFlag->load())
        stop(Fetched::Outcome::Aborted);
}

/// One GET, run by the event loop of @p context's eventLoop thread while this (the tool's)
/// thread waits for its answer.
Fetched fetch(const QUrl &url, const QByteArray &accept, const QByteArray &userAgent, int timeoutMs,
              const ToolContext &context)
{
    Q_ASSERT(context.eventLoop && context.eventLoop->thread() != QThread::currentThread());
    auto answer = std::make_shared<std::promise<Fetched>>();
    std::future<Fetched> fetched = answer->get_future();
    QMetaObject::invokeMethod(
        context.eventLoop,
        [=, abortFlag = context.abortFlag] {
            startFetch(url, accept, userAgent, timeoutMs, abortFlag,
                       [answer](const Fetched &result) { answer->set_value(result); });
        },
        Qt::QueuedConnection);
    return fetched.get();
}

/// The body as text, in the charset the Content-Type names (UTF-8 when none or unknown).
QString decodeBody(const QByteArray &body, const QByteArray &contentType)
{
    QByteArray charset;
    for (const QByteArray &param : contentType.split(';')) {
        const QByteArray p = param.trimmed();
        if (p.toLower().startsWith("charset="))
            charset = p.mid(8).trimmed().replace('"', "").replace('\'', "");
    }
    if (!charset.isEmpty()) {
        QStringDecoder decoder(charset.constData());
        if (decoder.isValid())
            return decoder.decode(body);
    }
    QStringDecoder utf8(QStringDecoder::Utf8);
    return utf8.decode(body);
}

/// The scheme's port when the URL names none.
int defaultPort(const QUrl &url)
{
    return url.scheme() == u"https" ? 443 : 80;
}

} // namespace

QUrl WebFetchTool::normalizedUrl(const QUrl &url)
{
    // QUrl has already lowered the scheme and the host, decoded a percent-encoded host (when it
    // parsed tolerantly) and turned IPv4 in any numeric form (2130706433, 0x7f000001, 0177.0.0.1,
    // 127.1) into a dotted quad.
    QUrl n = url.adjusted(QUrl::RemoveFragment | QUrl::NormalizePathSegments);
    QString host = n.host();
    while (host.endsWith(u'.'))
        host.chop(1); // "localhost." is localhost, "127.0.0.1." is 127.0.0.1
    if (const QHostAddress address(host); address.protocol() == QAbstractSocket::IPv6Protocol) {
        bool mapped = false;
        const quint32 ipv4 = address.toIPv4Address(&mapped); // ::ffff:127.0.0.1 is 127.0.0.1
        if (mapped)
            host = QHostAddress(ipv4).toString();
    }
    if (host != n.host())
        n.setHost(host); // parsed again: "2130706433." is also 127.0.0.1
    if (n.port() == defaultPort(n))
        n.setPort(-1);
    if (n.path().isEmpty())
        n.setPath(u"/"_s);
    return n;
}

QStringList WebFetchTool::permissionPatterns(const QUrl &url)
{
    const QUrl n = normalizedUrl(url);
    QStringList patterns{n.toString(QUrl::RemoveUserInfo)};
    // Names and addresses that reach this machine are matched as its loopback address too, so
    // that a rule for http://127.0.0.1* also holds for http://localhost/ and http://0.0.0.0/.
    const QString host = n.host();
    QStringList aliases;
    if (host == u"localhost" || host.endsWith(u".localhost"))
        aliases = {u"127.0.0.1"_s, u"::1"_s};
    else if (host == u"0.0.0.0")
        aliases = {u"127.0.0.1"_s};
    else if (host == u"::")
        aliases = {u"::1"_s};
    for (const QString &alias : std::as_const(aliases)) {
        QUrl a = n;
        a.setHost(alias);
        patterns.append(a.toString(QUrl::RemoveUserInfo));
    }
    return patterns;
}

QString WebFetchTool::name() const
{
    return u"webfetch"_s;
}

QString WebFetchTool::description() const
{
    return u"Fetches the content of a URL and returns it as Markdown (the default), plain text or HTML.\n\n"
           u"Usage:\n"
           u"- The URL must be a complete http:// or https:// URL.\n"
           u"- format: \"markdown\" (HTML pages are converted to Markdown), \"text\" (HTML without markup) or \"html\" "
           u"(the page as it is). Other content (plain text, JSON, ...) is returned as it is.\n"
           u"- Responses larger than 5 MB are refused. timeout is in seconds: 30 by default, at most 120.\n"
           u"- Long content is truncated; the full content is saved to a file whose path is given.\n"
           u"- The tool is read-only. If another tool offers better web access for the task, prefer it."_s;
}

JsonObject WebFetchTool::parameters() const
{
    using namespace ToolUtil;
    JsonObject format = schemaString(u"The format to return the content in (text, markdown, or html). Defaults to markdown."_s);
    format.insert(u"enum"_s, JsonArray{u"text"_s, u"markdown"_s, u"html"_s});
    format.insert(u"default"_s, u"markdown"_s);
    return schemaObject(JsonObject{{u"url"_s, schemaString(u"The URL to fetch content from"_s)},
                                   {u"format"_s, format},
                                   {u"timeout"_s, schemaNumber(u"Optional timeout in seconds (max 120)"_s)}},
                        {u"url"_s});
}

ToolResult WebFetchTool::execute(ToolContext &context, const JsonObject &input)
{
    using namespace ToolUtil;
    InputReader in(name(), input);
    const QString urlText = in.requiredString(u"url"_s).trimmed();
    const QString format = in.optionalString(u"format"_s).value_or(u"markdown"_s);
    if (in.ok() && format != u"markdown" && format != u"text" && format != u"html")
        in.reject(u"\"format\" must be one of \"text\", \"markdown\", \"html\", not \"%1\""_s.arg(format.left(40)));
    std::optional<double> timeoutSeconds;
    if (const JsonValue &t = input.value(u"timeout"); in.ok() && !t.isUndefined() && !t.isNull()) {
        bool ok = t.isNumber();
        double seconds = t.toDouble();
        if (t.isString())
            seconds = t.toString().trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds <= 0)
            in.reject(u"\"timeout\" must be a positive number of seconds"_s);
        else
            timeoutSeconds = seconds;
    }
    if (!in.ok())
        return in.failure();

    const QUrl url(urlText, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (scheme != u"http" && scheme != u"https")
        return ToolResult::failure(u"URL must start with http:// or https://"_s);
    if (!url.isValid() || url.host().isEmpty())
        return ToolResult::failure(u"Invalid URL: %1"_s.arg(urlText));

    // The rules see the URL as it is reached (normalizedUrl()), and every redirect's target
    // before it is requested: a URL that names a denied host in another form, or redirects to
    // one, is refused before anything is sent there.
    QSet<QString> permitted;
    const auto permit = [&](const QUrl &target, const JsonObject &metadata) -> std::optional<ToolResult> {
        const QStringList patterns = permissionPatterns(target);
        const QString key = patterns.join(u'\n');
        if (permitted.contains(key))
            return std::nullopt;
        if (auto refused = requirePermission(context, u"webfetch"_s, patterns, metadata))
            return refused;
        permitted.insert(key);
        return std::nullopt;
    };
    const QUrl target = normalizedUrl(url);
    JsonObject askMetadata{{u"url"_s, urlText}, {u"format"_s, format}};
    if (timeoutSeconds)
        askMetadata.insert(u"timeout"_s, *timeoutSeconds);
    if (auto refused = permit(target, askMetadata))
        return *refused;

    const double seconds = std::min<double>(timeoutSeconds.value_or(DefaultTimeoutSeconds), MaxTimeoutSeconds);
    const QDeadlineTimer deadline(std::lround(seconds * 1000));
    Fetched fetched;
    // Follows the redirects by hand, each target checked as the first one was.
    const auto follow = [&](const QByteArray &userAgent) -> std::optional<ToolResult> {
        QUrl current = target;
        for (int redirects = 0;; ++redirects) {
            fetched = fetch(current, acceptFor(format), userAgent, int(std::max<qint64>(1, deadline.remainingTime())),
                            context);
            if (fetched.outcome != Fetched::Outcome::Done || !isRedirect(fetched.status) || fetched.location.isEmpty())
                return std::nullopt;
            if (redirects == MaxRedirects)
                return ToolResult::failure(u"Too many redirects (more than %1)"_s.arg(MaxRedirects));
            const QUrl next = current.resolved(QUrl::fromEncoded(fetched.location));
            const QString nextScheme = next.scheme();
            if (!next.isValid() || next.host().isEmpty() || (nextScheme != u"http" && nextScheme != u"https"))
                return ToolResult::failure(u"Redirect to an invalid or non-http(s) URL refused: %1"_s.arg(
                    QString::fromUtf8(fetched.location.left(200))));
            if (current.scheme() == u"https" && nextScheme == u"http")
                return ToolResult::failure(u"Redirect from https to http refused"_s);
            const QUrl hop = normalizedUrl(next);
            if (auto refused = permit(hop, JsonObject{{u"url"_s, hop.toString(QUrl::RemoveUserInfo)},
                                                      {u"redirectedFrom"_s, current.toString(QUrl::RemoveUserInfo)},
                                                      {u"format"_s, format}})) {
                refused->error = u"Redirect from %1 to %2 refused: %3"_s.arg(current.toString(QUrl::RemoveUserInfo),
                                                                           hop.toString(QUrl::RemoveUserInfo),
                                                                           refused->error);
                return refused;
            }
            current = hop;
        }
    };
    if (auto failed = follow(BrowserAgent))
        return *failed;
    // Cloudflare's bot check answers a browser's User-Agent from another TLS stack with a
    // challenge; an honest User-Agent often passes (OpenCode retries the same way).
    if (fetched.outcome == Fetched::Outcome::Done && fetched.status == 403 && fetched.cfMitigated == "challenge") {
        if (auto failed = follow("weft"))
            return *failed;
    }
    qCDebug(lcProcessor) << "webfetch" << fetched.finalUrl.toString(QUrl::RemoveUserInfo) << "status" << fetched.status
                         << "bytes" << fetched.body.size() << "outcome" << int(fetched.outcome);

    switch (fetched.outcome) {
    case Fetched::Outcome::TooLarge:
        return ToolResult::failure(u"Response too large (exceeds 5MB limit)"_s);
    case Fetched::Outcome::TimedOut:
        return ToolResult::failure(u"Request timed out after %1 seconds"_s.arg(seconds));
    case Fetched::Outcome::Aborted:
        return ToolResult::failure(u"Aborted"_s);
    case Fetched::Outcome::NetworkError:
        return ToolResult::failure(u"Request failed: %1"_s.arg(fetched.errorString));
    case Fetched::Outcome::Done:
        break;
    }
    if (fetched.status < 200 || fetched.status >= 300)
        return ToolResult::failure(u"Request failed with status code: %1"_s.arg(fetched.status));

    const QString contentType = QString::fromLatin1(fetched.contentType);
    const QString mime = contentType.section(u';', 0, 0).trimmed().toLower();
    const QString title = u"%1 (%2)"_s.arg(urlText, contentType);
    if (mime.startsWith(u"image/") && mime != u"image/svg+xml" && mime != u"image/vnd.fastbidsheet")
        return ToolResult::success(title,
                                   u"The URL is an image (%1, %2 bytes). Images fetched from the web cannot be shown "
                                   u"to the model yet."_s.arg(mime).arg(fetched.body.size()));

    const QString content = decodeBody(fetched.body, fetched.contentType);
    const bool html = contentType.contains(u"text/html", Qt::CaseInsensitive);
    QString output = content;
    if (html && format == u"markdown")
        output = Html::toMarkdown(content, fetched.finalUrl.isValid() ? fetched.finalUrl : url);
    else if (html && format == u"text")
        output = Html::toText(content);

    const Truncated truncated = truncateOutput(output, context.dataDir);
    JsonObject metadata;
    if (truncated.truncated) {
        metadata.insert(u"truncated"_s, true);
        metadata.insert(u"outputPath"_s, truncated.outputPath);
    }
    return ToolResult::success(title, truncated.text, metadata);
}

} // namespace weft
