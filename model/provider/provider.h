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
    OpenAiResponses, ///< POST {baseURL}/responses (OpenAI's own API, as OpenCode calls it)
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

    /// OpenCode's cap on the output tokens of a call (ProviderTransform.OUTPUT_TOKEN_MAX).
    static constexpr qint64 OutputTokenMax = 32000;
    /// The output tokens to ask for, as OpenCode's ProviderTransform.maxOutputTokens computes them:
    /// min(@p modelLimit, 32000); with Anthropic extended thinking (model options
    /// `thinking: {type: "enabled", budgetTokens: N}`) the text's share, so that text and thinking
    /// together stay within @p modelLimit (the provider then adds the budget, as the AI SDK does).
    /// 0 when @p modelLimit is unknown (0): the provider's default applies.
    [[nodiscard]] static qint64 outputTokenLimit(const ProviderSettings &settings, const JsonObject &modelOptions,
                                                 qint64 modelLimit);
    /// A new provider of @p settings' protocol (owned by @p parent).
    [[nodiscard]] static Provider *create(const ProviderSettings &settings, QNetworkAccessManager *network = nullptr,
                                          QObject *parent = nullptr);

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
    /// {baseURL}/@p path, with @p defaultBase when the settings give no base URL.
    [[nodiscard]] QUrl endpointUnder(QStringView defaultBase, QStringView path) const;
    /// Sets `Authorization: Bearer <key>` when there is a key (OpenAI's APIs).
    void setBearerAuthorization(QNetworkRequest &request) const;
    /// Sets @p call's rawInput to @p raw and its input from it: the JSON object, {} for nothing,
    /// or an inputError saying why @p raw is not a JSON object (the model then hears of it).
    static void setToolInput(LlmEvent &call, const QString &raw);
    /// A readable snippet of @p data for error messages.
    [[nodiscard]] static QString snippet(QByteArrayView data, qsizetype max = 200);

private:
    enum class State { Idle, Running, Finished, Failed };

    void onMetaDataChanged(quint64 generation);
    void onReadyRead(quint64 generation);
    void onFinished(quint64 generation);
    /// Parses @p data into events and handles them; fails the call when the stream goes over the
    /// parser's limit. Returns false when the call ended.
    bool dispatch(QByteArrayView data);
    /// The 2xx event stream ended: an event cut off in the middle, or a stream the subclass did
    /// not see finished, fails the call (retryable: the connection was cut).
    void endStream();
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

/// OpenAI's Responses API with streaming, which OpenCode uses for the "openai" provider (the AI
/// SDK's `sdk.responses(model)`): the conversation as `input` items (messages, function calls and
/// their outputs, encrypted reasoning), tools as functions, the model options in the AI SDK's
/// spelling (`reasoningEffort`, `reasoningSummary`, `textVerbosity`, `store`, `include`,
/// `promptCacheKey`...) or the API's own. Stateless, as OpenCode runs it: `store: false`, with
/// the reasoning of reasoning models carried from step to step as encrypted content.
class OpenAiResponsesProvider : public Provider
{
    Q_OBJECT

public:
    explicit OpenAiResponsesProvider(ProviderSettings settings, QNetworkAccessManager *network = nullptr,
                                     QObject *parent = nullptr);
    ~OpenAiResponsesProvider() override;

    [[nodiscard]] QUrl endpoint() const override;
    [[nodiscard]] QByteArray requestBody(const LlmRequest &request) const override;

    /// The models the AI SDK treats as reasoning models (o-series, gpt-5, codex): system text as
    /// the developer role, no temperature or top_p, `reasoning` options and encrypted reasoning.
    [[nodiscard]] static bool isReasoningModel(QStringView modelID);

protected:
    void beginStream() override;
    void prepareRequest(QNetworkRequest &request) const override;
    void handleEvent(const SseEvent &event) override;
    void handleEndOfStream() override;

private:
    struct Item
    {
        enum class Kind { Message, FunctionCall, Reasoning };
        Kind kind = Kind::Message;
        QString id;
        QString callID;
        QString name;
        QString arguments;
        QList<qint64> summaryParts; ///< reasoning: the summary parts started
    };
    bool handleData(const QString &type, const JsonObject &data, const QByteArray &raw);
    bool itemAdded(const JsonObject &item);
    bool itemDone(const JsonObject &item);
    bool finish(const JsonObject &response);

    QMap<QString, Item> m_items;
    QString m_responseID;
    bool m_hasFunctionCall = false;
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
    /// The anthropic-beta header OpenCode sends to the "anthropic" provider: thinking between
    /// tool calls, and tool input streamed without buffering.
    static constexpr QLatin1StringView Betas{"interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14"};
    /// max_tokens when the request gives none (the AI SDK's default).
    static constexpr qint64 DefaultMaxTokens = 4096;
    /// The budget when `thinking` is enabled without one (the API's minimum).
    static constexpr qint64 MinThinkingBudget = 1024;

    /// The API's `thinking` parameter for the model options' `thinking` (the AI SDK's spelling,
    /// `{type: "enabled", budgetTokens: N}`, or the API's own, `budget_tokens`); empty when the
    /// options have none.
    [[nodiscard]] static JsonObject thinkingParameter(const JsonObject &modelOptions);

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
