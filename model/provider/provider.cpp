// SPDX-License-Identifier: GPL-3.0-or-later
#include "provider.h"

#include "core/logging.h"
#include "core/network.h"

#include <QLocale>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QTimeZone>

#include <chrono>
#include <cmath>
#include <utility>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

constexpr qsizetype MaxErrorBody = 1024 * 1024;

QString statusText(int status)
{
    switch (status) {
    case 400:
        return u"Bad Request"_s;
    case 401:
        return u"Unauthorized"_s;
    case 403:
        return u"Forbidden"_s;
    case 404:
        return u"Not Found"_s;
    case 408:
        return u"Request Timeout"_s;
    case 409:
        return u"Conflict"_s;
    case 413:
        return u"Payload Too Large"_s;
    case 422:
        return u"Unprocessable Entity"_s;
    case 429:
        return u"Too Many Requests"_s;
    case 500:
        return u"Internal Server Error"_s;
    case 502:
        return u"Bad Gateway"_s;
    case 503:
        return u"Service Unavailable"_s;
    case 504:
        return u"Gateway Timeout"_s;
    case 529:
        return u"Overloaded"_s;
    default:
        return u"HTTP error %1"_s.arg(status);
    }
}

bool isRetryableStatus(int status)
{
    // The AI SDK's APICallError default: 408, 409, 429 and every 5xx.
    return status == 408 || status == 409 || status == 429 || status >= 500;
}

/// Status codes for Anthropic's error types and OpenAI's error codes met inside a stream.
int statusForErrorType(const QString &type)
{
    static const QList<std::pair<QStringView, int>> table = {
        {u"invalid_request_error", 400}, {u"authentication_error", 401},
        {u"invalid_api_key", 401},       {u"permission_error", 403},
        {u"not_found_error", 404},       {u"request_too_large", 413},
        {u"rate_limit_error", 429},      {u"rate_limit_exceeded", 429},
        {u"insufficient_quota", 429},    {u"api_error", 500},
        {u"server_error", 500},          {u"internal_server_error", 500},
        {u"service_unavailable", 503},   {u"timeout_error", 504},
        {u"overloaded_error", 529},
    };
    for (const auto &[name, status] : table) {
        if (type == name)
            return status;
    }
    return 0;
}

} // namespace

Provider::Provider(ProviderSettings settings, QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_network(network ? network : new QNetworkAccessManager(this))
{
}

Provider::~Provider()
{
    dropReply();
}

void Provider::start(const LlmRequest &request)
{
    dropReply();
    ++m_generation;
    m_dispatchGeneration = m_generation;
    m_state = State::Running;
    m_status = 0;
    m_started = false;
    m_eventStream = true;
    m_errorBody.clear();
    m_sse.reset();
    beginStream();

    if (!m_network) {
        fail(MessageError::unknown(u"No network access manager for provider %1"_s.arg(m_settings.providerID)));
        return;
    }

    QNetworkRequest req(endpoint());
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader(QByteArrayLiteral("Accept"), QByteArrayLiteral("text/event-stream"));
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    req.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
#ifdef WEFT_VERSION
    req.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("weft/" WEFT_VERSION));
#endif
    if (m_settings.timeoutMs > 0)
        req.setTransferTimeout(std::chrono::milliseconds(m_settings.timeoutMs));
    prepareRequest(req);
    for (const JsonObject *extra : std::initializer_list<const JsonObject *>{&m_settings.headers, &request.headers}) {
        for (qsizetype i = 0; i < extra->size(); ++i) {
            if (extra->valueAt(i).isString())
                req.setRawHeader(extra->keyAt(i).toUtf8(), extra->valueAt(i).toString().toUtf8());
        }
    }

    const QByteArray body = requestBody(request);
    qCDebug(lcProvider) << "POST" << req.url().toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery) << "model"
                        << request.modelID << "messages" << request.messages.size() << "tools" << request.tools.size()
                        << "body bytes" << body.size();

    // The key and the configured headers go to the baseURL's origin only (Network::send).
    m_reply = Network::send(m_network, req, "POST", body);
    m_reply->setParent(this);
    const quint64 generation = m_generation;
    // A redirect followed (within the origin) is not the answer: its status and body are forgotten.
    connect(m_reply, &QNetworkReply::redirected, this, [this, generation] {
        if (generation != m_generation)
            return;
        m_status = 0;
        m_errorBody.clear();
    });
    connect(m_reply, &QNetworkReply::metaDataChanged, this, [this, generation] { onMetaDataChanged(generation); });
    connect(m_reply, &QNetworkReply::readyRead, this, [this, generation] { onReadyRead(generation); });
    connect(m_reply, &QNetworkReply::finished, this, [this, generation] { onFinished(generation); });
}

void Provider::abort()
{
    if (m_state != State::Running) {
        dropReply();
        return;
    }
    qCDebug(lcProvider) << "abort" << m_settings.providerID;
    m_state = State::Failed;
    ++m_generation;
    dropReply();
    Q_EMIT failed(MessageError::aborted(u"The operation was aborted."_s), std::nullopt);
}

void Provider::dropReply()
{
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    disconnect(reply, nullptr, this, nullptr);
    if (reply->isRunning())
        reply->abort();
    reply->deleteLater();
}

bool Provider::emitEvent(const LlmEvent &e)
{
    if (!active())
        return false;
    Q_EMIT event(e);
    return active();
}

void Provider::complete()
{
    if (!active())
        return;
    qCDebug(lcProvider) << "finished" << m_settings.providerID;
    m_state = State::Finished;
    Q_EMIT finished();
}

void Provider::fail(const MessageError &error, std::optional<qint64> retryAfterMs)
{
    if (!active())
        return;
    qCDebug(lcProvider) << "failed" << m_settings.providerID << error.name()
                        << Logging::redact(error.message().left(300));
    m_state = State::Failed;
    dropReply();
    Q_EMIT failed(error, retryAfterMs);
}

QUrl Provider::endpointUnder(QStringView defaultBase, QStringView path) const
{
    QString base = m_settings.baseURL.toString();
    if (base.isEmpty())
        base = defaultBase.toString();
    while (base.endsWith(u'/'))
        base.chop(1);
    return QUrl(base + path);
}

void Provider::setBearerAuthorization(QNetworkRequest &request) const
{
    if (!m_settings.apiKey.isEmpty())
        request.setRawHeader(QByteArrayLiteral("Authorization"), "Bearer " + m_settings.apiKey.toUtf8());
}

void Provider::setToolInput(LlmEvent &call, const QString &raw)
{
    call.rawInput = raw;
    const QByteArray json = raw.trimmed().toUtf8();
    if (json.isEmpty()) {
        call.input = JsonObject{};
        return;
    }
    JsonParseError error;
    const std::optional<JsonValue> input = parseJson(json, &error);
    if (input && input->isObject())
        call.input = input->toObject();
    else
        call.inputError = input ? u"The tool input is not a JSON object"_s
                                : u"The tool input is not valid JSON: %1"_s.arg(error.toString());
}

QString Provider::snippet(QByteArrayView data, qsizetype max)
{
    QString s = QString::fromUtf8(data.first(std::min(data.size(), max))).simplified();
    if (data.size() > max)
        s += u"…"_s;
    return s;
}

JsonObject Provider::responseHeaders() const
{
    JsonObject headers;
    if (!m_reply)
        return headers;
    for (const auto &[name, value] : m_reply->rawHeaderPairs()) {
        const QString key = QString::fromLatin1(name).toLower();
        const QString v = QString::fromUtf8(value);
        if (headers.contains(key))
            headers.insert(key, QString(headers.string(key) + u", "_s + v));
        else
            headers.insert(key, v);
    }
    return headers;
}

bool Provider::checkStatus()
{
    if (m_status != 0 || !m_reply)
        return active();
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid())
        return active();
    m_status = status.toInt();
    qCDebug(lcProvider) << "HTTP" << m_status << m_settings.providerID;
    if (m_status >= 200 && m_status < 300) {
        const QByteArray type = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().toLower();
        m_eventStream = type.isEmpty() || type.contains("event-stream") || !type.contains("json");
        if (m_eventStream && !m_started) {
            m_started = true;
            return emitEvent(LlmEvent::make(LlmEvent::Type::Start));
        }
    }
    return active();
}

void Provider::onMetaDataChanged(quint64 generation)
{
    if (generation != m_generation || m_state != State::Running)
        return;
    m_dispatchGeneration = generation;
    checkStatus();
}

void Provider::onReadyRead(quint64 generation)
{
    if (generation != m_generation || m_state != State::Running || !m_reply)
        return;
    m_dispatchGeneration = generation;
    if (!checkStatus())
        return;
    if (!m_reply->isOpen())
        return;
    const QByteArray data = m_reply->readAll();
    if (m_status >= 300 || !m_eventStream) {
        if (m_errorBody.size() < MaxErrorBody)
            m_errorBody.append(data.first(std::min(data.size(), MaxErrorBody - m_errorBody.size())));
        return;
    }
    dispatch(data);
}

bool Provider::dispatch(QByteArrayView data)
{
    const QList<SseEvent> events = m_sse.feed(data);
    for (const SseEvent &e : events) {
        handleEvent(e);
        if (!active())
            return false;
    }
    if (m_sse.failed()) {
        // A server that never ends a line or an event: refused, not buffered (and not retried).
        fail(MessageError::api(u"The event stream from %1 was refused: %2"_s.arg(m_settings.providerID, m_sse.errorString()),
                               0, false));
        return false;
    }
    return active();
}

void Provider::endStream()
{
    const bool cutInsideAnEvent = m_sse.finish();
    if (cutInsideAnEvent) {
        // Even after a finish reason: what was cut off may have been more of the answer.
        qCDebug(lcProvider) << "stream ended inside an event";
        fail(MessageError::api(u"The connection closed in the middle of an event"_s, 0, true));
        return;
    }
    handleEndOfStream();
    // A subclass that neither completed nor failed: the stream ended too early.
    if (active())
        fail(MessageError::api(u"The connection closed before the response was complete"_s, 0, true));
}

void Provider::onFinished(quint64 generation)
{
    if (generation != m_generation || !m_reply)
        return;
    if (m_state != State::Running) {
        // A reply that went on after the stream's end (e.g. after [DONE]).
        dropReply();
        return;
    }
    onReadyRead(generation);
    if (!active()) {
        // Ended by the last data (e.g. "[DONE]"), unless a slot started another call meanwhile.
        if (generation == m_generation)
            dropReply();
        return;
    }
    if (const QString refused = Network::refusal(m_reply); !refused.isEmpty()) {
        fail(MessageError::api(refused, 0, false));
        return;
    }

    const QNetworkReply::NetworkError error = m_reply->error();
    const JsonObject headers = responseHeaders();
    if (m_status >= 400) {
        fail(errorFromResponse(m_settings.providerID, m_status, headers, m_errorBody), retryAfterMs(headers));
        return;
    }
    if (error != QNetworkReply::NoError) {
        QString message;
        if (error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError)
            message = u"The provider sent nothing for %1 s"_s.arg(m_settings.timeoutMs / 1000.0);
        else if (m_started && error == QNetworkReply::RemoteHostClosedError)
            message = u"The connection closed before the response was complete"_s;
        else
            message = m_reply->errorString();
        qCDebug(lcProvider) << "network error" << error << message;
        fail(MessageError::api(message, 0, true, headers), retryAfterMs(headers));
        return;
    }
    if (m_status < 200 || m_status >= 300) {
        fail(MessageError::api(u"Unexpected HTTP status %1"_s.arg(m_status), m_status, false, headers,
                               QString::fromUtf8(m_errorBody)));
        return;
    }
    if (!m_eventStream) {
        const QByteArray start = m_errorBody.trimmed().left(6);
        if (start.startsWith("data:") || start.startsWith("event:") || start.startsWith(':')) {
            // An event stream labelled as JSON.
            m_eventStream = true;
            if (!m_started) {
                m_started = true;
                if (!emitEvent(LlmEvent::make(LlmEvent::Type::Start)))
                    return;
            }
            if (dispatch(std::exchange(m_errorBody, {})))
                endStream();
            return;
        }
        // A JSON answer where an event stream was asked for: usually an error object.
        const std::optional<JsonValue> json = parseJson(m_errorBody);
        if (json && json->isObject() && json->toObject().contains(u"error")) {
            const JsonValue err = json->toObject().value(u"error");
            const JsonObject errorObject = err.isObject() ? err.toObject() : JsonObject{{u"message"_s, err.toString()}};
            fail(errorFromStreamError(m_settings.providerID, errorObject, m_errorBody));
            return;
        }
        fail(MessageError::unknown(
            u"Expected an event stream from %1 but got JSON: %2"_s.arg(m_settings.providerID, snippet(m_errorBody))));
        return;
    }
    endStream();
}

// ---------------------------------------------------------------------------------------------

QString Provider::errorMessageFromBody(const QByteArray &body)
{
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return {};
    if (const std::optional<JsonValue> json = parseJson(trimmed); json && json->isObject()) {
        const JsonObject o = json->toObject();
        const JsonValue error = o.value(u"error");
        if (error.isObject()) {
            const QString m = error.toObject().string(u"message");
            if (!m.isEmpty())
                return m;
        } else if (error.isString() && !error.toString().isEmpty()) {
            return error.toString();
        }
        for (QStringView key : {u"message", u"detail", u"error_description"}) {
            const QString m = o.string(key);
            if (!m.isEmpty())
                return m;
        }
        return snippet(trimmed, 500);
    }
    if (trimmed.startsWith('<'))
        return {}; // an HTML error page says nothing useful in one line
    return snippet(trimmed, 500);
}

bool Provider::isContextOverflowMessage(const QString &message)
{
    // OpenCode's ProviderError overflow patterns.
    static const QRegularExpression patterns(
        uR"(prompt is too long|input is too long for requested model|exceeds the context window|)"
        uR"(input token count.*exceeds the maximum|maximum prompt length is \d+|reduce the length of the messages|)"
        uR"(maximum context length is \d+ tokens|exceeds the limit of \d+|exceeds the available context size|)"
        uR"(greater than the context length|context window exceeds limit|exceeded model token limit|)"
        uR"(context[_ ]length[_ ]exceeded)"_s,
        QRegularExpression::CaseInsensitiveOption);
    return patterns.match(message).hasMatch();
}

MessageError Provider::errorFromResponse(const QString &providerID, int status, const JsonObject &headers,
                                         const QByteArray &body)
{
    QString message = errorMessageFromBody(body);
    if (message.isEmpty())
        message = statusText(status);
    const QString bodyText = QString::fromUtf8(body);
    if (status == 401 || status == 403)
        return MessageError::providerAuth(providerID, message);
    if (status != 429 && (isContextOverflowMessage(message) || isContextOverflowMessage(bodyText))) {
        MessageError e = MessageError::contextOverflow(message);
        e.json().ref(u"data"_s).objectRef().insert(u"responseBody"_s, bodyText);
        return e;
    }
    return MessageError::api(message, status, isRetryableStatus(status), headers, bodyText);
}

MessageError Provider::errorFromStreamError(const QString &providerID, const JsonObject &error, const QByteArray &raw)
{
    const QString type = error.string(u"type");
    const JsonValue codeValue = error.value(u"code");
    const QString code = codeValue.isString() ? codeValue.toString() : QString();
    QString message = error.string(u"message");
    if (message.isEmpty())
        message = !type.isEmpty() ? type : code;
    if (message.isEmpty())
        message = u"The provider reported an error"_s;

    int status = 0;
    if (codeValue.isNumber() && codeValue.toInteger() >= 100 && codeValue.toInteger() < 600)
        status = int(codeValue.toInteger());
    if (status == 0)
        status = statusForErrorType(type);
    if (status == 0)
        status = statusForErrorType(code);

    const QString rawText = QString::fromUtf8(raw);
    if (status == 401 || status == 403)
        return MessageError::providerAuth(providerID, message);
    if (status != 429 && (isContextOverflowMessage(message) || isContextOverflowMessage(code))) {
        MessageError e = MessageError::contextOverflow(message);
        e.json().ref(u"data"_s).objectRef().insert(u"responseBody"_s, rawText);
        return e;
    }
    return MessageError::api(message, status, status != 0 && isRetryableStatus(status), {}, rawText);
}

qint64 Provider::outputTokenLimit(const ProviderSettings &settings, const JsonObject &modelOptions, qint64 modelLimit)
{
    if (modelLimit <= 0)
        return 0;
    const qint64 standard = std::min(modelLimit, OutputTokenMax);
    if (settings.protocol != ProviderProtocol::Anthropic)
        return standard;
    const JsonObject thinking = AnthropicProvider::thinkingParameter(modelOptions);
    const qint64 budget = thinking.string(u"type") == u"enabled" ? thinking.integer(u"budget_tokens") : 0;
    if (budget <= 0 || budget + standard <= modelLimit)
        return standard;
    // The text gets what the budget leaves of the model's limit (at least a token: a budget as
    // large as the limit is the config's mistake, which the API then names).
    return std::max<qint64>(1, modelLimit - budget);
}

Provider *Provider::create(const ProviderSettings &settings, QNetworkAccessManager *network, QObject *parent)
{
    switch (settings.protocol) {
    case ProviderProtocol::Anthropic:
        return new AnthropicProvider(settings, network, parent);
    case ProviderProtocol::OpenAiResponses:
        return new OpenAiResponsesProvider(settings, network, parent);
    case ProviderProtocol::OpenAiCompatible:
        break;
    }
    return new OpenAiCompatibleProvider(settings, network, parent);
}

std::optional<qint64> Provider::retryAfterMs(const JsonObject &headers, const QDateTime &now)
{
    const QString ms = headers.string(u"retry-after-ms").trimmed();
    if (!ms.isEmpty()) {
        bool ok = false;
        const double value = ms.toDouble(&ok);
        if (ok && std::isfinite(value) && value >= 0)
            return qint64(std::ceil(value));
    }
    const QString after = headers.string(u"retry-after").trimmed();
    if (after.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double seconds = after.toDouble(&ok);
    if (ok && std::isfinite(seconds) && seconds >= 0)
        return qint64(std::ceil(seconds * 1000));

    // An HTTP date: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") or the obsolete forms.
    QDateTime date = QDateTime::fromString(after, Qt::RFC2822Date);
    if (!date.isValid()) {
        const QLocale c = QLocale::c();
        for (const QString &format : {u"dddd, dd-MMM-yy hh:mm:ss 'GMT'"_s, u"ddd MMM d hh:mm:ss yyyy"_s,
                                      u"ddd, dd MMM yyyy hh:mm:ss 'GMT'"_s}) {
            date = c.toDateTime(after.simplified(), format);
            if (date.isValid()) {
                date.setTimeZone(QTimeZone::UTC);
                if (date.date().year() < 1970)
                    date = date.addYears(100);
                break;
            }
        }
    }
    if (!date.isValid())
        return std::nullopt;
    const qint64 diff = now.msecsTo(date);
    if (diff > 0)
        return diff;
    return std::nullopt;
}

} // namespace weft
