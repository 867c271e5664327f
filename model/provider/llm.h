// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Provider-neutral request and stream types, after the AI SDK's ModelMessage and stream parts
// that OpenCode's processor consumes (seed 004, section 4.2).

#include "core/json.h"
#include "core/types.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace weft
{

/// One piece of an LlmMessage's content.
struct LlmPart
{
    enum class Type {
        Text, ///< text
        Reasoning, ///< text; providerMetadata may hold the Anthropic signature or redacted data
        File, ///< mime, url (a data: URL or an http(s) URL), filename
        ToolCall, ///< toolCallID, toolName, input
        ToolResult, ///< toolCallID, toolName, text = output or error text, isError
    };

    Type type = Type::Text;
    QString text;
    QString toolCallID;
    QString toolName;
    JsonObject input;
    bool isError = false;
    QString mime;
    QString url;
    QString filename;
    /// Provider data echoed back to the provider, e.g. {"anthropic": {"signature": "..."}}.
    JsonObject providerMetadata;

    [[nodiscard]] static LlmPart makeText(const QString &text);
    [[nodiscard]] static LlmPart makeReasoning(const QString &text, const JsonObject &providerMetadata = {});
    [[nodiscard]] static LlmPart makeFile(const QString &mime, const QString &url, const QString &filename = {});
    [[nodiscard]] static LlmPart makeToolCall(const QString &callID, const QString &name, const JsonObject &input);
    [[nodiscard]] static LlmPart makeToolResult(const QString &callID, const QString &name, const QString &output,
                                                bool isError = false);
    bool operator==(const LlmPart &) const = default;
};

/// One message of the conversation sent to the model.
///
/// The roles follow the AI SDK: System (text only), User (text and files), Assistant (text,
/// reasoning, tool calls) and Tool (tool results). OpenCode's toModelMessage makes an assistant
/// message followed by a tool message for each stored assistant message with tool parts; the
/// providers merge and reorder as their protocol needs (Anthropic: tool results in a user turn).
struct LlmMessage
{
    enum class Role { System, User, Assistant, Tool };

    Role role = Role::User;
    QList<LlmPart> parts;

    [[nodiscard]] static LlmMessage system(const QString &text);
    [[nodiscard]] static LlmMessage user(const QString &text);
    [[nodiscard]] static LlmMessage assistant(const QString &text);
    [[nodiscard]] static LlmMessage make(Role role, const QList<LlmPart> &parts);
    /// The text parts joined (system and simple user messages).
    [[nodiscard]] QString text() const;
    bool operator==(const LlmMessage &) const = default;
};

/// A tool the model may call: name, description and a JSON schema for its input.
struct LlmToolDefinition
{
    QString name;
    QString description;
    JsonObject parameters;
    bool operator==(const LlmToolDefinition &) const = default;
};

/// One streamed model call (one step of OpenCode's loop).
struct LlmRequest
{
    QString providerID;
    /// The model ID the API expects (ModelInfo::apiModelID).
    QString modelID;
    QList<LlmMessage> messages;
    QList<LlmToolDefinition> tools;
    /// Output token limit; 0 = the provider's default (Anthropic requires one: 4096 then).
    qint64 maxOutputTokens = 0;
    std::optional<double> temperature;
    std::optional<double> topP;
    /// "", "auto", "none", "required", or a tool name to force that tool.
    QString toolChoice;
    /// Members merged into the JSON body as is (e.g. {"thinking": {...}} or {"reasoning_effort": "high"}).
    JsonObject providerOptions;
    /// Extra HTTP headers for this call, over the provider's own.
    JsonObject headers;
    /// A small call (a title): providers use OpenCode's ProviderTransform.smallOptions, e.g. the
    /// least reasoning effort for GPT-5 models.
    bool small = false;
    /// OpenAI-compatible only: send assistant reasoning back in this field of the assistant message
    /// ("reasoning_content" for DeepSeek-style interleaved thinking); empty = reasoning is not sent.
    QString interleavedReasoningField;
};

/// Token counts as the AI SDK reports them (LanguageModelUsage), before getUsage adjusts them.
///
/// inputTokens is what the provider reports: OpenAI-compatible servers include cached tokens in it,
/// Anthropic does not. cacheWriteTokens mirrors providerMetadata.anthropic.cacheCreationInputTokens.
struct LlmUsage
{
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    qint64 reasoningTokens = 0;
    qint64 cachedInputTokens = 0;
    qint64 cacheWriteTokens = 0;
    qint64 totalTokens = 0;
    bool operator==(const LlmUsage &) const = default;
};

/// One item of a model's stream.
struct LlmEvent
{
    enum class Type {
        Start, ///< the response began (HTTP 2xx); one call is one step
        TextStart, ///< id
        TextDelta, ///< id, text
        TextEnd, ///< id
        ReasoningStart, ///< id, providerMetadata (Anthropic redacted thinking)
        ReasoningDelta, ///< id, text
        ReasoningEnd, ///< id, providerMetadata ({"anthropic": {"signature": ...}})
        ToolInputStart, ///< id (the call ID), toolName
        ToolInputDelta, ///< id, text (a piece of the JSON input)
        ToolInputEnd, ///< id
        ToolCall, ///< id, toolName, input, rawInput; inputError when rawInput is not a JSON object
        FinishStep, ///< finishReason, usage, providerMetadata
        Error, ///< error (not emitted by the network providers: they end with Provider::failed)
    };

    Type type = Type::Start;
    QString id;
    QString text;
    QString toolName;
    JsonObject input;
    QString rawInput;
    QString inputError;
    /// "stop", "tool-calls", "length", "content-filter", "error" or "unknown".
    QString finishReason;
    LlmUsage usage;
    /// Raw provider data: {"anthropic": {"usage": {...}, "cacheCreationInputTokens": N}} or
    /// {"<provider>": {"usage": {...}}}; getUsage looks for the "anthropic" and "bedrock" keys.
    JsonObject providerMetadata;
    MessageError error;

    [[nodiscard]] static QString typeName(Type type);
    [[nodiscard]] static LlmEvent make(Type type, const QString &id = {}, const QString &text = {});
};

/// The finish reasons of OpenCode's assistant messages.
namespace FinishReason
{
inline constexpr QStringView Stop = u"stop";
inline constexpr QStringView ToolCalls = u"tool-calls";
inline constexpr QStringView Length = u"length";
inline constexpr QStringView ContentFilter = u"content-filter";
inline constexpr QStringView Error = u"error";
inline constexpr QStringView Unknown = u"unknown";
/// Maps OpenAI's finish_reason (stop, length, content_filter, tool_calls, function_call).
[[nodiscard]] QString fromOpenAi(QStringView reason);
/// Maps Anthropic's stop_reason (end_turn, stop_sequence, pause_turn, tool_use, max_tokens, refusal).
[[nodiscard]] QString fromAnthropic(QStringView reason);
} // namespace FinishReason

} // namespace weft

Q_DECLARE_METATYPE(weft::LlmEvent)
Q_DECLARE_METATYPE(weft::LlmRequest)
