// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm.h"
#include "sseparser.h"

#include <QByteArray>
#include <QDateTime>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace weft
{

/// The wire protocol of a provider.
enum class ProviderProtocol {
    OpenAiCompatible, ///< POST {baseURL}/chat/completions
    Anthropic, ///< POST {baseURL}/messages
};

/// Where and how to reach one provider (made by ProviderFactory from the config).
struct ProviderSettings
{
    QString providerID;
    ProviderProtocol protocol = ProviderProtocol::OpenAiCompatible;
    /// The AI SDK package named in the config ("@ai-sdk/openai", ...); informational, except that
    /// "@ai-sdk/openai" sends max_completion_tokens instead of max_tokens.
    QString npm;
    /// Up to and including the version path, e.g. https://api.openai.com/v1 (AI SDK semantics).
    QUrl baseURL;
    QString apiKey;
    /// Extra HTTP headers (config options.headers).
    JsonObject headers;
    /// Inactivity timeout of a streamed call in ms (config options.timeout); 0 disables it.
    qint64 timeoutMs = 300000;
};

/// A model provider: makes one streamed call at a time and reports it as LlmEvents.
///
/// After start(), the provider emits event() for each stream item and ends with exactly one of
/// finished() (after a FinishStep event) or failed(). abort() ends a running call at once with
/// failed(MessageAbortedError). Receivers may call abort() or start() from a slot connected to
/// these signals; they must not delete the provider there (use deleteLater()).
class Provider : public QObject
{
    Q_OBJECT

public:
    ~Provider() override;

    [[nodiscard]] const ProviderSettings &settings() const { return m_settings; }
    [[nodiscard]] QString providerID() const { return m_settings.providerID; }
    [[nodiscard]] bool isRunning() const { return m_state == State::Running; }

    /// Starts a streamed call. A call still running is dropped silently first.
    void start(const LlmRequest &request);
    /// Stops the running call; emits failed(MessageAbortedError) when one was running.
    void abort();

    /// The endpoint URL of a call.
    [[nodiscard]] virtual QUrl endpoint() const = 0;
    /// The JSON body of a call (compact), as sent.
    [[nodiscard]] virtual QByteArray requestBody(const LlmRequest &request) const = 0;

    /// The typed error for an HTTP error response (status >= 400): ProviderAuthError for 401/403,
    /// ContextOverflowError for context-length errors, APIError otherwise (retryable for 408, 409,
    /// 429 and 5xx), with the response headers (lower-case names) and body.
    [[nodiscard]] static MessageError errorFromResponse(const QString &providerID, int status,
                                                        const JsonObject &headers, const QByteArray &body);
    /// The delay asked for by `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP
    /// date), as OpenCode's SessionRetry reads them; nullopt when absent or unreadable.
    [[nodiscard]] static std::optional<qint64> retryAfterMs(const JsonObject &headers,
                                                            const QDateTime &now = QDateTime::currentDateTimeUtc());
    /// True when @p message is a provider's "context too long" error (OpenCode's overflow patterns).
    [[nodiscard]] static bool isContextOverflowMessage(const QString &message);
    /// The human message inside an error body: error.message, message, detail, or the body itself.
    [[nodiscard]] static QString errorMessageFromBody(const QByteArray &body);
    /// The typed error for an `error` object found inside a stream (OpenAI-style or Anthropic-style).
    [[nodiscard]] static MessageError errorFromStreamError(const QString &providerID, const JsonObject &error,
                                                           const QByteArray &raw);

Q_SIGNALS:
    void event(const weft::LlmEvent &event);
    void finished();
    void failed(const weft::MessageError &error, std::optional<qint64> retryAfterMs);

protected:
    explicit Provider(ProviderSettings settings, QNetworkAccessManager *network, QObject *parent);

    /// Resets the per-call state of a subclass.
    virtual void beginStream() = 0;
    /// Adds protocol headers (authentication, versions) to @p request.
    virtual void prepareRequest(QNetworkRequest &request) const = 0;
    /// Handles one server-sent event of a 2xx response.
    virtual void handleEvent(const SseEvent &event) = 0;
    /// The 2xx response body ended without a network error.
    virtual void handleEndOfStream() = 0;

    /// Emits @p e; returns false when the call ended meanwhile (abort or restart from a slot):
    /// the caller must return at once.
    bool emitEvent(const LlmEvent &e);
    /// Ends the call successfully.
    void complete();
    /// Ends the call with @p error.
    void fail(const MessageError &error, std::optional<qint64> retryAfterMs = std::nullopt);
    /// True while the call being handled is still running.
    [[nodiscard]] bool active() const { return m_state == State::Running && m_dispatchGeneration == m_generation; }
    /// A readable snippet of @p data for error messages.
    [[nodiscard]] static QString snippet(QByteArrayView data, qsizetype max = 200);

private:
    enum class State { Idle, Running, Finished, Failed };

    void onMetaDataChanged(quint64 generation);
    void onReadyRead(quint64 generation);
    void onFinished(quint64 generation);
    void dropReply();
    bool checkStatus();
    [[nodiscard]] JsonObject responseHeaders() const;

    ProviderSettings m_settings;
    QPointer<QNetworkAccessManager> m_network;
    QNetworkReply *m_reply = nullptr;
    SseParser m_sse;
    State m_state = State::Idle;
    quint64 m_generation = 0;
    quint64 m_dispatchGeneration = 0;
    int m_status = 0;
    bool m_started = false;
    bool m_eventStream = true;
    QByteArray m_errorBody;
};

/// OpenAI chat completions with streaming, also spoken by Ollama, llama.cpp, vLLM, LM Studio,
/// OpenRouter, DeepSeek, Groq and others.
class OpenAiCompatibleProvider : public Provider
{
    Q_OBJECT

public:
    explicit OpenAiCompatibleProvider(ProviderSettings settings, QNetworkAccessManager *network = nullptr,
                                      QObject *parent = nullptr);
    ~OpenAiCompatibleProvider() override;

    [[nodiscard]] QUrl endpoint() const override;
    [[nodiscard]] QByteArray requestBody(const LlmRequest &request) const override;

protected:
    void beginStream() override;
    void prepareRequest(QNetworkRequest &request) const override;
    void handleEvent(const SseEvent &event) override;
    void handleEndOfStream() override;

private:
    struct ToolCallState
    {
        QString id;
        QString name;
        QString arguments;
        bool started = false;
    };
    bool handleChunk(const JsonObject &chunk);
    bool handleToolCallDelta(const JsonObject &delta, qsizetype position);
    bool endReasoning();
    bool endText();
    bool flushToolCalls();
    void finishStep();

    QList<ToolCallState> m_toolCalls;
    QMap<qint64, qsizetype> m_indexSlots;
    QString m_finishReason;
    JsonObject m_usage;
    bool m_sawFinishReason = false;
    bool m_reasoningOpen = false;
    bool m_textOpen = false;
    int m_textCount = 0;
    int m_reasoningCount = 0;
    bool m_done = false;
};

/// Anthropic Messages with streaming.
class AnthropicProvider : public Provider
{
    Q_OBJECT

public:
    explicit AnthropicProvider(ProviderSettings settings, QNetworkAccessManager *network = nullptr,
                               QObject *parent = nullptr);
    ~AnthropicProvider() override;

    [[nodiscard]] QUrl endpoint() const override;
    [[nodiscard]] QByteArray requestBody(const LlmRequest &request) const override;

    /// The anthropic-version header value.
    static constexpr QLatin1StringView ApiVersion{"2023-06-01"};
    /// max_tokens when the request gives none (the AI SDK's default).
    static constexpr qint64 DefaultMaxTokens = 4096;

protected:
    void beginStream() override;
    void prepareRequest(QNetworkRequest &request) const override;
    void handleEvent(const SseEvent &event) override;
    void handleEndOfStream() override;

private:
    struct Block
    {
        enum class Kind { Text, Reasoning, ToolUse, Other };
        Kind kind = Kind::Other;
        QString id;
        QString name;
        QString json;
        QString signature;
        JsonObject metadata;
    };
    bool handleMessage(const QByteArray &type, const JsonObject &data, const QByteArray &raw);
    void readUsage(const JsonObject &usage);

    QMap<qint64, Block> m_blocks;
    JsonObject m_rawUsage;
    LlmUsage m_usage;
    QString m_stopReason;
    bool m_hasCacheCreation = false;
    bool m_sawMessageStart = false;
};

} // namespace weft
