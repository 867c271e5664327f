// SPDX-License-Identifier: GPL-3.0-or-later
// OpenAI chat completions with streaming: POST {baseURL}/chat/completions.
#include "provider.h"

#include "attachmentencoding.h"
#include "core/logging.h"

#include <QNetworkRequest>

#include <utility>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

JsonObject userContentPart(const LlmPart &part)
{
    if (part.type == LlmPart::Type::Text)
        return JsonObject{{u"type"_s, u"text"_s}, {u"text"_s, part.text}};
    if (part.type == LlmPart::Type::File)
        return AttachmentEncoding::openAiChatPart(part);
    return {};
}

} // namespace

OpenAiCompatibleProvider::OpenAiCompatibleProvider(ProviderSettings settings, QNetworkAccessManager *network,
                                                   QObject *parent)
    : Provider(std::move(settings), network, parent)
{
}

OpenAiCompatibleProvider::~OpenAiCompatibleProvider() = default;

QUrl OpenAiCompatibleProvider::endpoint() const
{
    return endpointUnder(u"https://api.openai.com/v1", u"/chat/completions");
}

void OpenAiCompatibleProvider::prepareRequest(QNetworkRequest &request) const
{
    setBearerAuthorization(request);
}

QByteArray OpenAiCompatibleProvider::requestBody(const LlmRequest &request) const
{
    JsonArray messages;
    for (const LlmMessage &m : request.messages) {
        switch (m.role) {
        case LlmMessage::Role::System:
            messages.append(JsonObject{{u"role"_s, u"system"_s}, {u"content"_s, m.text()}});
            break;
        case LlmMessage::Role::User: {
            bool onlyText = true;
            for (const LlmPart &p : m.parts)
                onlyText = onlyText && p.type == LlmPart::Type::Text;
            if (onlyText && m.parts.size() == 1) {
                messages.append(JsonObject{{u"role"_s, u"user"_s}, {u"content"_s, m.parts.front().text}});
                break;
            }
            JsonArray content;
            for (const LlmPart &p : m.parts) {
                if (p.type == LlmPart::Type::ToolResult) {
                    messages.append(
                        JsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, p.toolCallID}, {u"content"_s, p.text}});
                    continue;
                }
                const JsonObject part = userContentPart(p);
                if (!part.isEmpty())
                    content.append(part);
            }
            if (!content.isEmpty())
                messages.append(JsonObject{{u"role"_s, u"user"_s}, {u"content"_s, content}});
            break;
        }
        case LlmMessage::Role::Assistant: {
            QString text;
            QString reasoning;
            JsonArray toolCalls;
            for (const LlmPart &p : m.parts) {
                if (p.type == LlmPart::Type::Text)
                    text += p.text;
                else if (p.type == LlmPart::Type::Reasoning)
                    reasoning += p.text;
                else if (p.type == LlmPart::Type::ToolCall)
                    toolCalls.append(JsonObject{{u"id"_s, p.toolCallID},
                                                {u"type"_s, u"function"_s},
                                                {u"function"_s,
                                                 JsonObject{{u"name"_s, p.toolName},
                                                            {u"arguments"_s, QString::fromUtf8(toJson(p.input, 0))}}}});
            }
            JsonObject msg{{u"role"_s, u"assistant"_s}, {u"content"_s, text}};
            if (!request.interleavedReasoningField.isEmpty() && !reasoning.isEmpty())
                msg.insert(request.interleavedReasoningField, reasoning);
            if (!toolCalls.isEmpty())
                msg.insert(u"tool_calls"_s, toolCalls);
            messages.append(msg);
            break;
        }
        case LlmMessage::Role::Tool:
            for (const LlmPart &p : m.parts) {
                if (p.type == LlmPart::Type::ToolResult)
                    messages.append(
                        JsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, p.toolCallID}, {u"content"_s, p.text}});
            }
            break;
        }
    }

    JsonObject body{{u"model"_s, request.modelID}, {u"messages"_s, messages}};
    if (request.maxOutputTokens > 0) {
        // OpenAI's own API wants max_completion_tokens (reasoning models reject max_tokens).
        const bool openai = settings().npm == u"@ai-sdk/openai";
        body.insert(openai ? u"max_completion_tokens"_s : u"max_tokens"_s, request.maxOutputTokens);
    }
    if (request.temperature)
        body.insert(u"temperature"_s, *request.temperature);
    if (request.topP)
        body.insert(u"top_p"_s, *request.topP);
    if (!request.tools.isEmpty()) {
        JsonArray tools;
        for (const LlmToolDefinition &t : request.tools) {
            JsonObject function{{u"name"_s, t.name}, {u"description"_s, t.description}};
            function.insert(u"parameters"_s,
                            t.parameters.isEmpty()
                                ? JsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, JsonObject{}}}
                                : t.parameters);
            tools.append(JsonObject{{u"type"_s, u"function"_s}, {u"function"_s, function}});
        }
        body.insert(u"tools"_s, tools);
        if (request.toolChoice == u"auto" || request.toolChoice == u"none" || request.toolChoice == u"required")
            body.insert(u"tool_choice"_s, request.toolChoice);
        else if (!request.toolChoice.isEmpty())
            body.insert(
                u"tool_choice"_s,
                JsonObject{{u"type"_s, u"function"_s}, {u"function"_s, JsonObject{{u"name"_s, request.toolChoice}}}});
    }
    body.insert(u"stream"_s, true);
    body.insert(u"stream_options"_s, JsonObject{{u"include_usage"_s, true}});
    for (qsizetype i = 0; i < request.providerOptions.size(); ++i)
        body.insert(request.providerOptions.keyAt(i), request.providerOptions.valueAt(i));
    return toJson(body, 0);
}

void OpenAiCompatibleProvider::beginStream()
{
    m_toolCalls.clear();
    m_indexSlots.clear();
    m_finishReason.clear();
    m_usage = {};
    m_sawFinishReason = false;
    m_reasoningOpen = false;
    m_textOpen = false;
    m_textCount = 0;
    m_reasoningCount = 0;
    m_done = false;
}

void OpenAiCompatibleProvider::handleEvent(const SseEvent &event)
{
    if (m_done)
        return;
    const QByteArray data = event.data.trimmed();
    if (data == "[DONE]") {
        m_done = true;
        finishStep();
        return;
    }
    if (data.isEmpty())
        return;
    JsonParseError parseError;
    const std::optional<JsonValue> json = parseJson(data, &parseError);
    if (!json || !json->isObject()) {
        fail(MessageError::unknown(u"Malformed event from %1: %2 in: %3"_s.arg(
            settings().providerID, json ? u"not a JSON object"_s : parseError.toString(), snippet(data))));
        return;
    }
    const JsonObject chunk = json->toObject();
    const JsonValue error = chunk.value(u"error");
    if (event.event == "error" || (!error.isUndefined() && !error.isNull())) {
        JsonObject errorObject = error.isObject() ? error.toObject() : chunk;
        if (error.isString())
            errorObject = JsonObject{{u"message"_s, error.toString()}};
        fail(errorFromStreamError(settings().providerID, errorObject, data));
        return;
    }
    handleChunk(chunk);
}

bool OpenAiCompatibleProvider::handleChunk(const JsonObject &chunk)
{
    const JsonValue usage = chunk.value(u"usage");
    if (usage.isObject())
        m_usage = usage.toObject();

    const JsonArray choices = chunk.array(u"choices");
    if (choices.isEmpty())
        return true;
    const JsonObject choice = choices.at(0).toObject();
    const JsonValue finish = choice.value(u"finish_reason");
    if (finish.isString() && !finish.toString().isEmpty()) {
        m_finishReason = FinishReason::fromOpenAi(finish.toString());
        m_sawFinishReason = true;
    }
    const JsonObject delta = choice.object(u"delta");
    if (delta.isEmpty())
        return true;

    QString reasoning = delta.string(u"reasoning_content");
    if (reasoning.isEmpty())
        reasoning = delta.string(u"reasoning");
    if (!reasoning.isEmpty()) {
        if (!m_reasoningOpen) {
            m_reasoningOpen = true;
            if (!emitEvent(LlmEvent::make(LlmEvent::Type::ReasoningStart, u"reasoning-%1"_s.arg(m_reasoningCount))))
                return false;
        }
        if (!emitEvent(
                LlmEvent::make(LlmEvent::Type::ReasoningDelta, u"reasoning-%1"_s.arg(m_reasoningCount), reasoning)))
            return false;
    }

    const QString content = delta.string(u"content");
    if (!content.isEmpty()) {
        if (!endReasoning())
            return false;
        if (!m_textOpen) {
            m_textOpen = true;
            if (!emitEvent(LlmEvent::make(LlmEvent::Type::TextStart, u"txt-%1"_s.arg(m_textCount))))
                return false;
        }
        if (!emitEvent(LlmEvent::make(LlmEvent::Type::TextDelta, u"txt-%1"_s.arg(m_textCount), content)))
            return false;
    }

    const JsonArray toolCalls = delta.array(u"tool_calls");
    if (!toolCalls.isEmpty() && !endReasoning())
        return false;
    for (qsizetype i = 0; i < toolCalls.size(); ++i) {
        if (!handleToolCallDelta(toolCalls.at(i).toObject(), i))
            return false;
    }
    return true;
}

bool OpenAiCompatibleProvider::handleToolCallDelta(const JsonObject &delta, qsizetype position)
{
    const qint64 index = delta.value(u"index").isNumber() ? delta.integer(u"index") : position;
    const QString id = delta.string(u"id");
    const JsonObject function = delta.object(u"function");
    const QString name = function.string(u"name");
    const JsonValue argumentsValue = function.value(u"arguments");
    QString arguments;
    if (argumentsValue.isString())
        arguments = argumentsValue.toString();
    else if (argumentsValue.isObject())
        arguments = QString::fromUtf8(toJson(argumentsValue, 0));

    qsizetype slot = m_indexSlots.value(index, -1);
    if (slot >= 0) {
        // Some servers (Ollama) send every call complete with index 0: a new ID after a complete
        // input starts another call.
        const ToolCallState &existing = m_toolCalls.at(slot);
        if (!id.isEmpty() && !existing.id.isEmpty() && id != existing.id
            && parseJson(existing.arguments.toUtf8()).has_value())
            slot = -1;
    }
    if (slot < 0) {
        ToolCallState state;
        state.id = id.isEmpty() ? u"call_%1"_s.arg(m_toolCalls.size()) : id;
        m_toolCalls.append(state);
        slot = m_toolCalls.size() - 1;
        m_indexSlots.insert(index, slot);
    }

    ToolCallState &state = m_toolCalls[slot];
    if (state.name.isEmpty() && !name.isEmpty())
        state.name = name;
    state.arguments += arguments;
    if (!state.started) {
        if (state.name.isEmpty())
            return true; // wait for the name
        state.started = true;
        LlmEvent start = LlmEvent::make(LlmEvent::Type::ToolInputStart, state.id);
        start.toolName = state.name;
        if (!emitEvent(start))
            return false;
        const QString soFar = m_toolCalls.at(slot).arguments;
        if (!soFar.isEmpty())
            return emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputDelta, m_toolCalls.at(slot).id, soFar));
        return true;
    }
    if (!arguments.isEmpty())
        return emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputDelta, state.id, arguments));
    return true;
}

bool OpenAiCompatibleProvider::endReasoning()
{
    if (!m_reasoningOpen)
        return true;
    m_reasoningOpen = false;
    const QString id = u"reasoning-%1"_s.arg(m_reasoningCount++);
    return emitEvent(LlmEvent::make(LlmEvent::Type::ReasoningEnd, id));
}

bool OpenAiCompatibleProvider::endText()
{
    if (!m_textOpen)
        return true;
    m_textOpen = false;
    const QString id = u"txt-%1"_s.arg(m_textCount++);
    return emitEvent(LlmEvent::make(LlmEvent::Type::TextEnd, id));
}

bool OpenAiCompatibleProvider::flushToolCalls()
{
    const QList<ToolCallState> calls = std::exchange(m_toolCalls, {});
    m_indexSlots.clear();
    for (const ToolCallState &call : calls) {
        if (call.name.isEmpty()) {
            fail(MessageError::unknown(
                u"%1 sent a tool call without a function name (call %2)"_s.arg(settings().providerID, call.id)));
            return false;
        }
        if (!call.started) {
            LlmEvent start = LlmEvent::make(LlmEvent::Type::ToolInputStart, call.id);
            start.toolName = call.name;
            if (!emitEvent(start))
                return false;
        }
        if (!emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputEnd, call.id)))
            return false;

        LlmEvent e = LlmEvent::make(LlmEvent::Type::ToolCall, call.id);
        e.toolName = call.name;
        setToolInput(e, call.arguments);
        if (!emitEvent(e))
            return false;
    }
    return true;
}

void OpenAiCompatibleProvider::finishStep()
{
    if (!endReasoning() || !endText() || !flushToolCalls())
        return;

    LlmEvent e = LlmEvent::make(LlmEvent::Type::FinishStep);
    e.finishReason = m_sawFinishReason ? m_finishReason : FinishReason::Unknown.toString();
    LlmUsage &u = e.usage;
    u.inputTokens = m_usage.integer(u"prompt_tokens");
    u.outputTokens = m_usage.integer(u"completion_tokens");
    u.reasoningTokens = m_usage.object(u"completion_tokens_details").integer(u"reasoning_tokens");
    const JsonObject promptDetails = m_usage.object(u"prompt_tokens_details");
    if (promptDetails.value(u"cached_tokens").isNumber())
        u.cachedInputTokens = promptDetails.integer(u"cached_tokens");
    else
        u.cachedInputTokens = m_usage.integer(u"prompt_cache_hit_tokens"); // DeepSeek
    u.totalTokens = m_usage.integer(u"total_tokens", u.inputTokens + u.outputTokens);

    // The AI SDK names the metadata after the provider; never "anthropic" or "bedrock" here, which
    // getUsage reads as "input excludes cached tokens".
    QString key = settings().npm == u"@ai-sdk/openai" ? u"openai"_s : settings().providerID;
    if (key.isEmpty() || key == u"anthropic" || key == u"bedrock")
        key = u"openaiCompatible"_s;
    if (!m_usage.isEmpty())
        e.providerMetadata.insert(key, JsonObject{{u"usage"_s, m_usage}});
    if (!emitEvent(e))
        return;
    complete();
}

void OpenAiCompatibleProvider::handleEndOfStream()
{
    // Servers that end the body without "data: [DONE]" still finished when a finish reason came.
    if (!m_done && m_sawFinishReason) {
        m_done = true;
        finishStep();
        return;
    }
    if (!m_done)
        fail(MessageError::api(u"The connection closed before the response was complete"_s, 0, true));
}

} // namespace weft
