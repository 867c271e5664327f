// SPDX-License-Identifier: GPL-3.0-or-later
#include "serverclient.h"

#include "core/network.h"
#include "core/tr.h"

#include "core/logging.h"

#include <QCoreApplication>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPromise>
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

/// What answerOf() needs to know of a request for its errors.
struct Sent {
    QByteArray verb;
    QString path;
    QString where;
    bool withPassword = false;
    int timeoutMs = 0;
};

/// The answer of the finished @p reply, or the error a user can act on.
Result<ServerPage> answerOf(QNetworkReply *reply, const Sent &sent)
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = reply->isOpen() ? reply->readAll() : QByteArray();
    if (const QString refused = Network::refusal(reply); !refused.isEmpty())
        return Error{refused, sent.where};
    if (status == 0) {
        switch (reply->error()) {
        case QNetworkReply::OperationCanceledError:
        case QNetworkReply::TimeoutError:
            return Error{ServerTr::tr("the OpenCode server did not answer %1 %2 within %3 s")
                             .arg(QString::fromLatin1(sent.verb), sent.path)
                             .arg(sent.timeoutMs / 1000),
                         sent.where};
        default:
            return Error{ServerTr::tr("cannot reach the OpenCode server: %1").arg(reply->errorString()), sent.where};
        }
    }
    if (status == 401 || status == 403)
        return Error{!sent.withPassword ? ServerTr::tr(
                         "the OpenCode server asks for a password (OPENCODE_SERVER_PASSWORD or --password-file)")
                                        : ServerTr::tr("the OpenCode server refused the password"),
                     sent.where};
    if (status >= 400) {
        const QString message = errorMessageOf(bytes);
        //: Keep "(HTTP %3)" as it is: health() looks for "(HTTP 404)" in this message.
        return Error{ServerTr::tr("%1 %2 failed (HTTP %3)%4")
                         .arg(QString::fromLatin1(sent.verb), sent.path)
                         .arg(status)
                         .arg(message.isEmpty() ? QString() : u": "_s + message),
                     sent.where};
    }
    ServerPage page;
    page.nextCursor = reply->rawHeader("x-next-cursor");
    if (bytes.trimmed().isEmpty())
        return page;
    JsonParseError error;
    std::optional<JsonValue> parsed = parseJson(bytes, &error);
    if (!parsed)
        return Error{ServerTr::tr("%1 %2 answered something that is not JSON (is this an OpenCode server?)")
                         .arg(QString::fromLatin1(sent.verb), sent.path),
                     sent.where};
    page.value = std::move(*parsed);
    return page;
}

Result<JsonValue> valueOf(const Result<ServerPage> &page)
{
    if (!page)
        return page.error();
    return page->value;
}

} // namespace

/// The QNetworkAccessManager of a client and its copies, on a thread of its own: started with
/// the first request, stopped (its requests given up) when the last copy goes.
class ServerClient::Channel
{
public:
    Channel() = default;
    Q_DISABLE_COPY_MOVE(Channel)
    ~Channel();

    [[nodiscard]] QNetworkAccessManager *manager();
    /// close(): every request in progress aborted, later ones refused.
    void close();
    [[nodiscard]] bool isClosed() const { return m_closed.loadAcquire(); }

private:
    QAtomicInt m_closed = 0;
    QMutex m_mutex;
    QThread *m_thread = nullptr;
    QNetworkAccessManager *m_manager = nullptr;
};

QNetworkAccessManager *ServerClient::Channel::manager()
{
    QMutexLocker locker(&m_mutex);
    if (!m_thread) {
        m_thread = new QThread;
        m_thread->setObjectName(u"weft-server"_s);
        m_manager = new QNetworkAccessManager;
        m_manager->moveToThread(m_thread);
        // Its replies go with it; a request still waiting for its answer is given up.
        QObject::connect(m_thread, &QThread::finished, m_manager, &QObject::deleteLater);
        if (const QCoreApplication *app = QCoreApplication::instance())
            m_thread->moveToThread(app->thread());
        m_thread->start();
    }
    return m_manager;
}

void ServerClient::Channel::close()
{
    m_closed.storeRelease(1);
    QMutexLocker locker(&m_mutex);
    if (!m_manager)
        return;
    // On the network thread: each reply's finished() then ends its future with an error.
    QMetaObject::invokeMethod(
        m_manager,
        [manager = m_manager] {
            for (QNetworkReply *reply : manager->findChildren<QNetworkReply *>())
                reply->abort();
        },
        Qt::QueuedConnection);
}

ServerClient::Channel::~Channel()
{
    if (!m_thread)
        return;
    if (QThread::currentThread() == m_thread) {
        // The last copy went with a continuation on the network thread itself: the thread
        // ends once that returns, and is deleted then.
        m_thread->quit();
        QObject::connect(m_thread, &QThread::finished, m_thread, &QObject::deleteLater, Qt::DirectConnection);
        return;
    }
    // The manager goes first, on its thread while that thread's event loop still runs: its
    // replies are aborted and its own HTTP thread is ended in order. (Deleted after the loop had
    // stopped, its HTTP thread could spin on a reply it could no longer hand over, and the wait
    // below never ended.)
    QMetaObject::invokeMethod(
        m_manager, [manager = m_manager] { delete manager; }, Qt::BlockingQueuedConnection);
    m_manager = nullptr;
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

ServerClient::ServerClient(const QUrl &baseUrl, const QString &password)
    : m_baseUrl(baseUrl)
    , m_authorization(password.isEmpty() ? QByteArray() : basicAuth(password))
    , m_channel(std::make_shared<Channel>())
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
    if (version.startsWith(u"0.0.0-v2"))
        return true; // OpenCode's V2 preview builds
    const QVersionNumber number = QVersionNumber::fromString(version);
    return number.majorVersion() == 1 || number.majorVersion() == 2;
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

QFuture<Result<ServerPage>> ServerClient::send(const QByteArray &verb, const QString &path, const QUrlQuery &query,
                                               const QByteArray &body, int timeoutMs) const
{
    if (!m_channel || !m_baseUrl.isValid() || m_baseUrl.host().isEmpty())
        return QtFuture::makeReadyValueFuture(Result<ServerPage>(Error{ServerTr::tr("no OpenCode server given"), {}}));
    // While the application closes down no answer is waited for; nor after the source closed.
    if (!QCoreApplication::instance() || QCoreApplication::closingDown())
        return QtFuture::makeReadyValueFuture(Result<ServerPage>(Error{ServerTr::tr("Weft is quitting"), displayName()}));
    if (m_channel->isClosed())
        return QtFuture::makeReadyValueFuture(Result<ServerPage>(givenUp()));
    QNetworkRequest req = request(path, query);
    if (timeoutMs > 0)
        req.setTransferTimeout(timeoutMs);
    if (!body.isNull())
        req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    const Sent sent{verb, path, displayName(), !m_authorization.isEmpty(), timeoutMs > 0 ? timeoutMs : m_timeoutMs};

    auto promise = std::make_shared<QPromise<Result<ServerPage>>>();
    QFuture<Result<ServerPage>> future = promise->future();
    promise->start();
    QNetworkAccessManager *manager = m_channel->manager();
    // On the network thread. The password goes to the server's own origin only (Network::send).
    QMetaObject::invokeMethod(
        manager,
        [manager, req, body, sent, promise, channel = std::weak_ptr<Channel>(m_channel)] {
            // Closed between the check above and now: nothing is sent.
            if (const std::shared_ptr<Channel> c = channel.lock(); !c || c->isClosed()) {
                promise->addResult(Result<ServerPage>(givenUp()));
                promise->finish();
                return;
            }
            QNetworkReply *reply = Network::send(manager, req, sent.verb, body);
            // A request in progress (a long session's older messages) must not hold up the exit.
            if (QCoreApplication *app = QCoreApplication::instance())
                QObject::connect(app, &QCoreApplication::aboutToQuit, reply, &QNetworkReply::abort);
            QObject::connect(reply, &QNetworkReply::finished, reply, [reply, sent, promise] {
                reply->deleteLater();
                promise->addResult(answerOf(reply, sent));
                promise->finish();
            });
        },
        Qt::QueuedConnection);
    return future;
}

void ServerClient::close() const
{
    if (m_channel)
        m_channel->close();
}

bool ServerClient::mayWait()
{
    const QCoreApplication *app = QCoreApplication::instance();
    if (app && QThread::currentThread() == app->thread() && app->inherits("QGuiApplication")) {
        qCWarning(lcStore) << "a read of an OpenCode server on the GUI thread is refused (it would block the window)";
        return false;
    }
    return true;
}

Error ServerClient::givenUp()
{
    return Error{ServerTr::tr("the request to the OpenCode server was given up"), {}};
}

QFuture<Result<JsonValue>> ServerClient::get(const QString &path, const QUrlQuery &query) const
{
    return send("GET", path, query, QByteArray(), -1).then(valueOf);
}

QFuture<Result<ServerPage>> ServerClient::getPage(const QString &path, const QUrlQuery &query) const
{
    return send("GET", path, query, QByteArray(), -1);
}

QFuture<Result<JsonValue>> ServerClient::post(const QString &path, const JsonValue &body, const QUrlQuery &query,
                                              int timeoutMs) const
{
    return send("POST", path, query, toJson(body, 0), timeoutMs).then(valueOf);
}

QFuture<Result<JsonValue>> ServerClient::patch(const QString &path, const JsonValue &body, const QUrlQuery &query) const
{
    return send("PATCH", path, query, toJson(body, 0), -1).then(valueOf);
}

QFuture<Result<JsonValue>> ServerClient::remove(const QString &path, const QUrlQuery &query, const JsonValue &body) const
{
    return send("DELETE", path, query, body.isNull() ? QByteArray() : toJson(body, 0), -1).then(valueOf);
}

QFuture<Result<ServerInfo>> ServerClient::probe() const
{
    // All at once (one round trip over a slow link): V1's health, the `/api` health of OpenCode
    // 1.18 and 2, and 2.0.x's `/api/info` ({version, pid}; the V2 preview has no such route).
    QList<QFuture<Result<JsonValue>>> asked{get(u"/global/health"_s), get(u"/api/health"_s), get(u"/api/info"_s)};
    const QString where = displayName();
    return QtFuture::whenAll(asked.begin(), asked.end())
        .then([where](const QList<QFuture<Result<JsonValue>>> &answers) -> Result<ServerInfo> {
            for (const QFuture<Result<JsonValue>> &answer : answers) {
                if (answer.isCanceled() || answer.resultCount() == 0)
                    return givenUp();
            }
            const Result<JsonValue> v1 = answers.at(0).result();
            const Result<JsonValue> v2 = answers.at(1).result();
            const Result<JsonValue> info = answers.at(2).result();
            // A V1 health is a JSON object with a version; OpenCode 2 answers V1 paths with 404,
            // or its web UI's HTML with status 200 (not JSON: an error here).
            const QString v1Version = v1 ? v1->toObject().string(u"version") : QString();
            const QString v2Version = info ? info->toObject().string(u"version")
                                           : (v2 ? v2->toObject().string(u"version") : QString());
            ServerInfo result;
            if (!v1Version.isEmpty()) {
                result.version = v1Version;
                result.hasV2 = v2.ok();
                result.protocol = result.hasV2 ? ServerProtocol::V1WithV2 : ServerProtocol::V1;
            } else if (!v2Version.isEmpty()) {
                result.version = v2Version;
                result.hasV2 = true;
                result.protocol = ServerProtocol::V2Only;
            } else {
                // The error a user can act on: a password refused or the server unreachable
                // says so on every route.
                for (const Result<JsonValue> *answer : {&v1, &v2}) {
                    if (!*answer && !answer->error().message.contains(u"(HTTP 404)")
                        && !answer->error().message.contains(u"not JSON"))
                        return answer->error();
                }
                if (v1)
                    return Error{ServerTr::tr("this is not an OpenCode server (/global/health has no version)"), where};
                return Error{ServerTr::tr("this is not an OpenCode server (it has neither /global/health nor /api/health)"),
                             where};
            }
            if (!isKnownVersion(result.version))
                return Error{
                    ServerTr::tr("OpenCode %1 is a version Weft does not know (it speaks to OpenCode 1.x and 2.x servers)")
                        .arg(result.version),
                    where};
            return result;
        });
}

} // namespace weft
