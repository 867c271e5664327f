// SPDX-License-Identifier: GPL-3.0-or-later
// Anthropic Messages with streaming: POST {baseURL}/messages.
#include "provider.h"

#include "attachmentencoding.h"
#include "core/logging.h"

#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

JsonObject contentBlock(const LlmPart &part)
{
    switch (part.type) {
    case LlmPart::Type::Text:
        if (part.text.isEmpty())
            return {};
        return JsonObject{{u"type"_s, u"text"_s}, {u"text"_s, part.text}};
    case LlmPart::Type::Reasoning: {
        // Thinking goes back only with its signature (or as redacted data); the API refuses it otherwise.
        const JsonObject meta = part.providerMetadata.object(u"anthropic");
        if (!meta.string(u"redactedData").isEmpty())
            return JsonObject{{u"type"_s, u"redacted_thinking"_s}, {u"data"_s, meta.string(u"redactedData")}};
        if (meta.string(u"signature").isEmpty())
            return {};
        return JsonObject{
            {u"type"_s, u"thinking"_s}, {u"thinking"_s, part.text}, {u"signature"_s, meta.string(u"signature")}};
    }
    case LlmPart::Type::File:
        return AttachmentEncoding::anthropicBlock(part);
    case LlmPart::Type::ToolCall:
        return JsonObject{{u"type"_s, u"tool_use"_s},
                          {u"id"_s, part.toolCallID},
                          {u"name"_s, part.toolName},
                          {u"input"_s, part.input}};
    case LlmPart::Type::ToolResult: {
        JsonObject block{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, part.toolCallID}, {u"content"_s, part.text}};
        if (part.isError)
            block.insert(u"is_error"_s, true);
        return block;
    }
    }
    return {};
}

const JsonObject &ephemeral()
{
    static const JsonObject value{{u"type"_s, u"ephemeral"_s}};
    return value;
}

} // namespace

AnthropicProvider::AnthropicProvider(ProviderSettings settings, QNetworkAccessManager *network, QObject *parent)
    : Provider(std::move(settings), network, parent)
{
}

AnthropicProvider::~AnthropicProvider() = default;

QUrl AnthropicProvider::endpoint() const
{
    return endpointUnder(u"https://api.anthropic.com/v1", u"/messages");
}

void AnthropicProvider::prepareRequest(QNetworkRequest &request) const
{
    if (!settings().apiKey.isEmpty())
        request.setRawHeader(QByteArrayLiteral("x-api-key"), settings().apiKey.toUtf8());
    request.setRawHeader(QByteArrayLiteral("anthropic-version"), QByteArray(ApiVersion.data(), ApiVersion.size()));
    // OpenCode's loader for the "anthropic" provider asks for these betas (config headers win).
    if (settings().providerID == u"anthropic")
        request.setRawHeader(QByteArrayLiteral("anthropic-beta"), QByteArray(Betas.data(), Betas.size()));
}

JsonObject AnthropicProvider::thinkingParameter(const JsonObject &modelOptions)
{
    const JsonValue value = modelOptions.value(u"thinking");
    if (!value.isObject())
        return {};
    const JsonObject thinking = value.toObject();
    JsonObject out;
    for (qsizetype i = 0; i < thinking.size(); ++i) {
        const QString key = thinking.keyAt(i);
        if (key == u"budgetTokens" || key == u"budget_tokens")
            continue;
        out.insert(key, thinking.valueAt(i));
    }
    if (out.string(u"type") == u"enabled") {
        const JsonValue budget = thinking.value(u"budgetTokens").isNumber() ? thinking.value(u"budgetTokens")
                                                                           : thinking.value(u"budget_tokens");
        out.insert(u"budget_tokens"_s, budget.isNumber() && budget.toInteger() > 0 ? budget.toInteger()
                                                                                   : MinThinkingBudget);
    }
    return out;
}

QByteArray AnthropicProvider::requestBody(const LlmRequest &request) const
{
    JsonArray system;
    struct Turn
    {
        QString role;
        JsonArray content;
    };
    QList<Turn> turns;
    for (const LlmMessage &m : request.messages) {
        if (m.role == LlmMessage::Role::System) {
            const QString text = m.text();
            if (text.isEmpty())
                continue;
            JsonObject block{{u"type"_s, u"text"_s}, {u"text"_s, text}};
            // OpenCode caches the first two system messages.
            if (system.size() < 2)
                block.insert(u"cache_control"_s, ephemeral());
            system.append(block);
            continue;
        }
        const QString role = m.role == LlmMessage::Role::Assistant ? u"assistant"_s : u"user"_s;
        JsonArray content;
        for (const LlmPart &p : m.parts) {
            const JsonObject block = contentBlock(p);
            if (!block.isEmpty())
                content.append(block);
        }
        if (content.isEmpty())
            continue;
        // The API wants alternating turns: tool results and user text share one user turn.
        if (!turns.isEmpty() && turns.last().role == role) {
            for (const JsonValue &v : content)
                turns.last().content.append(v);
        } else {
            turns.append(Turn{role, content});
        }
    }
    // A final assistant turn must not end with white space.
    if (!turns.isEmpty() && turns.last().role == u"assistant") {
        JsonArray &content = turns.last().content;
        JsonObject &last = content[content.size() - 1].objectRef();
        if (last.string(u"type") == u"text") {
            QString text = last.string(u"text");
            while (!text.isEmpty() && text.back().isSpace())
                text.chop(1);
            last.insert(u"text"_s, text);
        }
    }
    // OpenCode caches the last two messages.
    for (qsizetype i = std::max<qsizetype>(0, turns.size() - 2); i < turns.size(); ++i) {
        JsonArray &content = turns[i].content;
        content[content.size() - 1].objectRef().insert(u"cache_control"_s, ephemeral());
    }

    JsonArray messages;
    for (const Turn &t : std::as_const(turns))
        messages.append(JsonObject{{u"role"_s, t.role}, {u"content"_s, t.content}});

    // Extended thinking, as the AI SDK sends it: the budget comes on top of the text's tokens,
    // and the sampling parameters go (the API refuses them with thinking).
    const JsonObject thinking = thinkingParameter(request.providerOptions);
    const bool thinkingEnabled = thinking.string(u"type") == u"enabled";
    qint64 maxTokens = request.maxOutputTokens > 0 ? request.maxOutputTokens : DefaultMaxTokens;
    if (thinkingEnabled)
        maxTokens += thinking.integer(u"budget_tokens");
    JsonObject body{{u"model"_s, request.modelID}, {u"max_tokens"_s, maxTokens}};
    if (!thinking.isEmpty())
        body.insert(u"thinking"_s, thinking);
    if (!system.isEmpty())
        body.insert(u"system"_s, system);
    body.insert(u"messages"_s, messages);
    if (!request.tools.isEmpty() && request.toolChoice != u"none") {
        JsonArray tools;
        for (const LlmToolDefinition &t : request.tools) {
            tools.append(JsonObject{{u"name"_s, t.name},
                                    {u"description"_s, t.description},
                                    {u"input_schema"_s,
                                     t.parameters.isEmpty()
                                         ? JsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, JsonObject{}}}
                                         : t.parameters}});
        }
        body.insert(u"tools"_s, tools);
        if (request.toolChoice == u"auto")
            body.insert(u"tool_choice"_s, JsonObject{{u"type"_s, u"auto"_s}});
        else if (request.toolChoice == u"required")
            body.insert(u"tool_choice"_s, JsonObject{{u"type"_s, u"any"_s}});
        else if (!request.toolChoice.isEmpty())
            body.insert(u"tool_choice"_s, JsonObject{{u"type"_s, u"tool"_s}, {u"name"_s, request.toolChoice}});
    }
    if (request.temperature && !thinkingEnabled)
        body.insert(u"temperature"_s, *request.temperature);
    if (request.topP && !thinkingEnabled)
        body.insert(u"top_p"_s, *request.topP);
    body.insert(u"stream"_s, true);
    for (qsizetype i = 0; i < request.providerOptions.size(); ++i) {
        if (request.providerOptions.keyAt(i) != u"thinking")
            body.insert(request.providerOptions.keyAt(i), request.providerOptions.valueAt(i));
    }
    return toJson(body, 0);
}

void AnthropicProvider::beginStream()
{
    m_blocks.clear();
    m_rawUsage = {};
    m_usage = {};
    m_stopReason.clear();
    m_hasCacheCreation = false;
    m_sawMessageStart = false;
}

void AnthropicProvider::handleEvent(const SseEvent &event)
{
    JsonParseError parseError;
    const std::optional<JsonValue> json = parseJson(event.data, &parseError);
    if (!json || !json->isObject()) {
        fail(MessageError::unknown(u"Malformed event from %1: %2 in: %3"_s.arg(
            settings().providerID, json ? u"not a JSON object"_s : parseError.toString(), snippet(event.data))));
        return;
    }
    const JsonObject data = json->toObject();
    QByteArray type = data.string(u"type").toUtf8();
    if (type.isEmpty())
        type = event.event;
    handleMessage(type, data, event.data);
}

void AnthropicProvider::readUsage(const JsonObject &usage)
{
    for (qsizetype i = 0; i < usage.size(); ++i)
        m_rawUsage.insert(usage.keyAt(i), usage.valueAt(i));
    if (usage.value(u"input_tokens").isNumber())
        m_usage.inputTokens = usage.integer(u"input_tokens");
    if (usage.value(u"output_tokens").isNumber())
        m_usage.outputTokens = usage.integer(u"output_tokens");
    if (usage.value(u"cache_read_input_tokens").isNumber())
        m_usage.cachedInputTokens = usage.integer(u"cache_read_input_tokens");
    if (usage.value(u"cache_creation_input_tokens").isNumber()) {
        m_usage.cacheWriteTokens = usage.integer(u"cache_creation_input_tokens");
        m_hasCacheCreation = true;
    }
}

bool AnthropicProvider::handleMessage(const QByteArray &type, const JsonObject &data, const QByteArray &raw)
{
    if (type == "ping")
        return true;

    if (type == "error") {
        const JsonValue error = data.value(u"error");
        fail(errorFromStreamError(settings().providerID,
                                  error.isObject() ? error.toObject() : JsonObject{{u"message"_s, error.toString()}},
                                  raw));
        return false;
    }

    if (type == "message_start") {
        m_sawMessageStart = true;
        readUsage(data.object(u"message").object(u"usage"));
        return true;
    }

    if (type == "content_block_start") {
        const qint64 index = data.integer(u"index");
        const JsonObject content = data.object(u"content_block");
        const QString blockType = content.string(u"type");
        Block block;
        block.id = QString::number(index);
        if (blockType == u"text") {
            block.kind = Block::Kind::Text;
            m_blocks.insert(index, block);
            if (!emitEvent(LlmEvent::make(LlmEvent::Type::TextStart, block.id)))
                return false;
            if (!content.string(u"text").isEmpty())
                return emitEvent(LlmEvent::make(LlmEvent::Type::TextDelta, block.id, content.string(u"text")));
            return true;
        }
        if (blockType == u"thinking" || blockType == u"redacted_thinking") {
            block.kind = Block::Kind::Reasoning;
            block.signature = content.string(u"signature");
            if (blockType == u"redacted_thinking")
                block.metadata = JsonObject{{u"anthropic"_s, JsonObject{{u"redactedData"_s, content.string(u"data")}}}};
            m_blocks.insert(index, block);
            LlmEvent e = LlmEvent::make(LlmEvent::Type::ReasoningStart, block.id);
            e.providerMetadata = block.metadata;
            if (!emitEvent(e))
                return false;
            if (!content.string(u"thinking").isEmpty())
                return emitEvent(LlmEvent::make(LlmEvent::Type::ReasoningDelta, block.id, content.string(u"thinking")));
            return true;
        }
        if (blockType == u"tool_use") {
            block.kind = Block::Kind::ToolUse;
            block.id = content.string(u"id");
            block.name = content.string(u"name");
            // The input arrives as input_json_delta pieces; a complete input in the start block
            // is kept for servers that send no pieces.
            const JsonObject input = content.object(u"input");
            if (!input.isEmpty())
                block.metadata = input;
            m_blocks.insert(index, block);
            LlmEvent e = LlmEvent::make(LlmEvent::Type::ToolInputStart, block.id);
            e.toolName = block.name;
            return emitEvent(e);
        }
        m_blocks.insert(index, block); // server tools and future block types: ignored
        return true;
    }

    if (type == "content_block_delta") {
        const qint64 index = data.integer(u"index");
        auto it = m_blocks.find(index);
        if (it == m_blocks.end())
            return true;
        const JsonObject delta = data.object(u"delta");
        const QString deltaType = delta.string(u"type");
        if (deltaType == u"text_delta" && it->kind == Block::Kind::Text) {
            const QString text = delta.string(u"text");
            return text.isEmpty() || emitEvent(LlmEvent::make(LlmEvent::Type::TextDelta, it->id, text));
        }
        if (deltaType == u"thinking_delta" && it->kind == Block::Kind::Reasoning) {
            const QString text = delta.string(u"thinking");
            return text.isEmpty() || emitEvent(LlmEvent::make(LlmEvent::Type::ReasoningDelta, it->id, text));
        }
        if (deltaType == u"signature_delta" && it->kind == Block::Kind::Reasoning) {
            it->signature += delta.string(u"signature");
            return true;
        }
        if (deltaType == u"input_json_delta" && it->kind == Block::Kind::ToolUse) {
            const QString piece = delta.string(u"partial_json");
            if (piece.isEmpty())
                return true;
            it->json += piece;
            return emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputDelta, it->id, piece));
        }
        return true;
    }

    if (type == "content_block_stop") {
        const qint64 index = data.integer(u"index");
        const auto it = m_blocks.constFind(index);
        if (it == m_blocks.cend())
            return true;
        const Block block = *it;
        m_blocks.erase(it);
        switch (block.kind) {
        case Block::Kind::Text:
            return emitEvent(LlmEvent::make(LlmEvent::Type::TextEnd, block.id));
        case Block::Kind::Reasoning: {
            LlmEvent e = LlmEvent::make(LlmEvent::Type::ReasoningEnd, block.id);
            e.providerMetadata = block.metadata;
            if (!block.signature.isEmpty())
                e.providerMetadata = JsonObject{{u"anthropic"_s, JsonObject{{u"signature"_s, block.signature}}}};
            return emitEvent(e);
        }
        case Block::Kind::ToolUse: {
            if (!emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputEnd, block.id)))
                return false;
            LlmEvent e = LlmEvent::make(LlmEvent::Type::ToolCall, block.id);
            e.toolName = block.name;
            setToolInput(e, block.json.isEmpty() ? QString::fromUtf8(toJson(block.metadata, 0)) : block.json);
            return emitEvent(e);
        }
        case Block::Kind::Other:
            return true;
        }
        return true;
    }

    if (type == "message_delta") {
        const QString stop = data.object(u"delta").string(u"stop_reason");
        if (!stop.isEmpty())
            m_stopReason = stop;
        readUsage(data.object(u"usage"));
        return true;
    }

    if (type == "message_stop") {
        LlmEvent e = LlmEvent::make(LlmEvent::Type::FinishStep);
        e.finishReason
            = m_stopReason.isEmpty() ? FinishReason::Unknown.toString() : FinishReason::fromAnthropic(m_stopReason);
        e.usage = m_usage;
        e.usage.totalTokens = m_usage.inputTokens + m_usage.outputTokens;
        JsonObject anthropic{{u"usage"_s, m_rawUsage}};
        anthropic.insert(u"cacheCreationInputTokens"_s,
                         m_hasCacheCreation ? JsonValue(m_usage.cacheWriteTokens) : JsonValue(nullptr));
        e.providerMetadata = JsonObject{{u"anthropic"_s, anthropic}};
        if (!emitEvent(e))
            return false;
        complete();
        return false;
    }

    qCDebug(lcProvider) << "ignoring Anthropic event" << type;
    return true;
}

void AnthropicProvider::handleEndOfStream()
{
    // message_stop completes the call; a body that ends before it was cut off.
    fail(MessageError::api(u"The connection closed before the response was complete"_s, 0, true));
}

} // namespace weft
