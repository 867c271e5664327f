// SPDX-License-Identifier: GPL-3.0-or-later
// OpenAI's Responses API with streaming: POST {baseURL}/responses.
#include "provider.h"

#include "core/logging.h"

#include <QNetworkRequest>

#include <utility>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

/// The AI SDK's option names and where they go in the request body.
struct OptionName
{
    QStringView sdk;
    QStringView api;
};
constexpr OptionName TopLevelOptions[] = {
    {u"store", u"store"},
    {u"include", u"include"},
    {u"promptCacheKey", u"prompt_cache_key"},
    {u"parallelToolCalls", u"parallel_tool_calls"},
    {u"user", u"user"},
    {u"serviceTier", u"service_tier"},
    {u"instructions", u"instructions"},
    {u"previousResponseId", u"previous_response_id"},
    {u"metadata", u"metadata"},
    {u"safetyIdentifier", u"safety_identifier"},
    {u"maxToolCalls", u"max_tool_calls"},
    {u"truncation", u"truncation"},
};

bool isSdkSpelling(QStringView key)
{
    for (QChar c : key) {
        if (c.isUpper())
            return true;
    }
    return false;
}

/// {"openai": {"itemId": ..., "reasoningEncryptedContent": ...}}, the AI SDK's reasoning metadata.
JsonObject reasoningMetadata(const QString &itemID, const JsonValue &encrypted)
{
    return JsonObject{{u"openai"_s,
                       JsonObject{{u"itemId"_s, itemID},
                                  {u"reasoningEncryptedContent"_s, encrypted.isString() ? encrypted : JsonValue(nullptr)}}}};
}

JsonObject userContent(const LlmPart &part)
{
    if (part.type == LlmPart::Type::Text)
        return JsonObject{{u"type"_s, u"input_text"_s}, {u"text"_s, part.text}};
    if (part.type == LlmPart::Type::File) {
        if (part.mime.startsWith(u"image/"))
            return JsonObject{{u"type"_s, u"input_image"_s}, {u"image_url"_s, part.url}};
        if (part.mime == u"application/pdf")
            return JsonObject{{u"type"_s, u"input_file"_s},
                              {u"filename"_s, part.filename.isEmpty() ? u"file.pdf"_s : part.filename},
                              {u"file_data"_s, part.url}};
    }
    return {};
}

JsonObject functionCallOutput(const LlmPart &part)
{
    return JsonObject{{u"type"_s, u"function_call_output"_s}, {u"call_id"_s, part.toolCallID}, {u"output"_s, part.text}};
}

/// The input items of one message.
void appendInput(JsonArray &input, const LlmMessage &m, const QString &systemRole)
{
    switch (m.role) {
    case LlmMessage::Role::System:
        if (!m.text().isEmpty())
            input.append(JsonObject{{u"role"_s, systemRole}, {u"content"_s, m.text()}});
        return;
    case LlmMessage::Role::User: {
        JsonArray content;
        for (const LlmPart &p : m.parts) {
            if (p.type == LlmPart::Type::ToolResult) {
                input.append(functionCallOutput(p));
                continue;
            }
            const JsonObject item = userContent(p);
            if (!item.isEmpty())
                content.append(item);
        }
        if (!content.isEmpty())
            input.append(JsonObject{{u"role"_s, u"user"_s}, {u"content"_s, content}});
        return;
    }
    case LlmMessage::Role::Assistant:
        for (const LlmPart &p : m.parts) {
            switch (p.type) {
            case LlmPart::Type::Text:
                if (!p.text.isEmpty())
                    input.append(JsonObject{
                        {u"role"_s, u"assistant"_s},
                        {u"content"_s, JsonArray{JsonObject{{u"type"_s, u"output_text"_s}, {u"text"_s, p.text}}}}});
                break;
            case LlmPart::Type::ToolCall:
                input.append(JsonObject{{u"type"_s, u"function_call"_s},
                                        {u"call_id"_s, p.toolCallID},
                                        {u"name"_s, p.toolName},
                                        {u"arguments"_s, QString::fromUtf8(toJson(p.input, 0))}});
                break;
            case LlmPart::Type::Reasoning: {
                // Stateless (store: false): reasoning goes back as its encrypted content, without
                // the item ID the server did not keep. Reasoning of other providers cannot.
                const JsonObject meta = p.providerMetadata.object(u"openai");
                const QString encrypted = meta.string(u"reasoningEncryptedContent");
                if (encrypted.isEmpty())
                    break;
                JsonArray summary;
                if (!p.text.isEmpty())
                    summary.append(JsonObject{{u"type"_s, u"summary_text"_s}, {u"text"_s, p.text}});
                // One item per reasoning item: the summary parts of one item follow each other.
                if (!input.isEmpty()) {
                    JsonObject &last = input[input.size() - 1].objectRef();
                    if (last.string(u"type") == u"reasoning" && last.string(u"encrypted_content") == encrypted) {
                        JsonArray merged = last.array(u"summary");
                        for (const JsonValue &s : std::as_const(summary))
                            merged.append(s);
                        last.insert(u"summary"_s, merged);
                        break;
                    }
                }
                input.append(JsonObject{
                    {u"type"_s, u"reasoning"_s}, {u"encrypted_content"_s, encrypted}, {u"summary"_s, summary}});
                break;
            }
            case LlmPart::Type::File:
            case LlmPart::Type::ToolResult:
                break;
            }
        }
        return;
    case LlmMessage::Role::Tool:
        for (const LlmPart &p : m.parts) {
            if (p.type == LlmPart::Type::ToolResult)
                input.append(functionCallOutput(p));
        }
        return;
    }
}

/// The AI SDK's finish reason for a Responses result.
QString finishReason(const QString &incompleteReason, bool hasFunctionCall)
{
    if (incompleteReason.isEmpty())
        return hasFunctionCall ? FinishReason::ToolCalls.toString() : FinishReason::Stop.toString();
    if (incompleteReason == u"max_output_tokens")
        return FinishReason::Length.toString();
    if (incompleteReason == u"content_filter")
        return FinishReason::ContentFilter.toString();
    return hasFunctionCall ? FinishReason::ToolCalls.toString() : FinishReason::Unknown.toString();
}

} // namespace

OpenAiResponsesProvider::OpenAiResponsesProvider(ProviderSettings settings, QNetworkAccessManager *network,
                                                 QObject *parent)
    : Provider(std::move(settings), network, parent)
{
}

OpenAiResponsesProvider::~OpenAiResponsesProvider() = default;

bool OpenAiResponsesProvider::isReasoningModel(QStringView modelID)
{
    // The AI SDK's rule (after a provider prefix such as "openai/"): o-series, gpt-5 and codex,
    // except the chat variants of gpt-5.
    const qsizetype slash = modelID.lastIndexOf(u'/');
    const QStringView id = slash >= 0 ? modelID.sliced(slash + 1) : modelID;
    if (id.startsWith(u"gpt-5") && id.contains(u"-chat"))
        return false;
    return id.startsWith(u"o1") || id.startsWith(u"o3") || id.startsWith(u"o4") || id.startsWith(u"gpt-5")
        || id.startsWith(u"codex");
}

QUrl OpenAiResponsesProvider::endpoint() const
{
    return endpointUnder(u"https://api.openai.com/v1", u"/responses");
}

void OpenAiResponsesProvider::prepareRequest(QNetworkRequest &request) const
{
    setBearerAuthorization(request);
}

QByteArray OpenAiResponsesProvider::requestBody(const LlmRequest &request) const
{
    const bool reasoningModel = isReasoningModel(request.modelID);
    const JsonObject &options = request.providerOptions;

    JsonArray input;
    const QString systemRole = reasoningModel ? u"developer"_s : u"system"_s;
    for (const LlmMessage &m : request.messages)
        appendInput(input, m, systemRole);

    JsonObject body{{u"model"_s, request.modelID}, {u"input"_s, input}};
    if (request.maxOutputTokens > 0)
        body.insert(u"max_output_tokens"_s, request.maxOutputTokens);
    // Reasoning models refuse sampling parameters (the AI SDK drops them with a warning).
    if (request.temperature && !reasoningModel)
        body.insert(u"temperature"_s, *request.temperature);
    if (request.topP && !reasoningModel)
        body.insert(u"top_p"_s, *request.topP);

    // OpenCode's defaults for OpenAI (ProviderTransform.options): nothing stored on OpenAI's side,
    // and medium effort for the GPT-5 models that take one.
    body.insert(u"store"_s, false);
    JsonObject reasoning;
    const QString &id = request.modelID;
    if (request.small && id.contains(u"gpt-5"))
        reasoning.insert(u"effort"_s, id.contains(u"5.") ? u"low"_s : u"minimal"_s); // smallOptions
    else if (id.contains(u"gpt-5") && !id.contains(u"gpt-5-chat") && !id.contains(u"codex")
             && !id.contains(u"gpt-5-pro"))
        reasoning.insert(u"effort"_s, u"medium"_s);
    // The options as written win: the API's `reasoning` and `text` objects, then the AI SDK's keys.
    const JsonObject apiReasoning = options.object(u"reasoning");
    for (qsizetype i = 0; i < apiReasoning.size(); ++i)
        reasoning.insert(apiReasoning.keyAt(i), apiReasoning.valueAt(i));
    JsonObject text = options.object(u"text");

    for (qsizetype i = 0; i < options.size(); ++i) {
        const QString key = options.keyAt(i);
        const JsonValue value = options.valueAt(i);
        if (key == u"reasoningEffort")
            reasoning.insert(u"effort"_s, value);
        else if (key == u"reasoningSummary")
            reasoning.insert(u"summary"_s, value);
        else if (key == u"textVerbosity")
            text.insert(u"verbosity"_s, value);
        else if (key == u"reasoning" || key == u"text")
            continue; // merged above
        else if (!isSdkSpelling(key))
            body.insert(key, value); // the API's own spelling, as written
        else {
            bool known = false;
            for (const OptionName &name : TopLevelOptions) {
                if (key == name.sdk) {
                    body.insert(name.api.toString(), value);
                    known = true;
                }
            }
            if (!known)
                qCDebug(lcProvider) << "ignoring model option" << key << "for the Responses API";
        }
    }
    if (reasoningModel && !reasoning.isEmpty())
        body.insert(u"reasoning"_s, reasoning);
    if (!text.isEmpty())
        body.insert(u"text"_s, text);
    // Without storage, a reasoning model's reasoning can only continue in the next step from its
    // encrypted content.
    if (reasoningModel && body.value(u"store") == JsonValue(false)) {
        JsonArray include = body.array(u"include");
        const QString encrypted = u"reasoning.encrypted_content"_s;
        bool present = false;
        for (const JsonValue &v : std::as_const(include))
            present = present || (v.isString() && v.toString() == encrypted);
        if (!present)
            include.append(JsonValue(encrypted));
        body.insert(u"include"_s, include);
    }

    if (!request.tools.isEmpty()) {
        JsonArray tools;
        for (const LlmToolDefinition &t : request.tools) {
            tools.append(JsonObject{
                {u"type"_s, u"function"_s},
                {u"name"_s, t.name},
                {u"description"_s, t.description},
                {u"parameters"_s,
                 t.parameters.isEmpty() ? JsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, JsonObject{}}}
                                        : t.parameters},
                {u"strict"_s, false}});
        }
        body.insert(u"tools"_s, tools);
        if (request.toolChoice == u"auto" || request.toolChoice == u"none" || request.toolChoice == u"required")
            body.insert(u"tool_choice"_s, request.toolChoice);
        else if (!request.toolChoice.isEmpty())
            body.insert(u"tool_choice"_s, JsonObject{{u"type"_s, u"function"_s}, {u"name"_s, request.toolChoice}});
    }
    body.insert(u"stream"_s, true);
    return toJson(body, 0);
}

void OpenAiResponsesProvider::beginStream()
{
    m_items.clear();
    m_responseID.clear();
    m_hasFunctionCall = false;
    m_done = false;
}

void OpenAiResponsesProvider::handleEvent(const SseEvent &event)
{
    if (m_done)
        return;
    const QByteArray data = event.data.trimmed();
    if (data.isEmpty() || data == "[DONE]")
        return;
    JsonParseError parseError;
    const std::optional<JsonValue> json = parseJson(data, &parseError);
    if (!json || !json->isObject()) {
        fail(MessageError::unknown(u"Malformed event from %1: %2 in: %3"_s.arg(
            settings().providerID, json ? u"not a JSON object"_s : parseError.toString(), snippet(data))));
        return;
    }
    const JsonObject object = json->toObject();
    QString type = object.string(u"type");
    if (type.isEmpty())
        type = QString::fromUtf8(event.event);
    handleData(type, object, data);
}

bool OpenAiResponsesProvider::handleData(const QString &type, const JsonObject &data, const QByteArray &raw)
{
    if (type == u"response.created") {
        m_responseID = data.object(u"response").string(u"id");
        return true;
    }
    if (type == u"response.output_item.added")
        return itemAdded(data.object(u"item"));
    if (type == u"response.output_item.done")
        return itemDone(data.object(u"item"));

    if (type == u"response.output_text.delta") {
        const auto it = m_items.constFind(data.string(u"item_id"));
        const QString delta = data.string(u"delta");
        if (it == m_items.cend() || it->kind != Item::Kind::Message || delta.isEmpty())
            return true;
        return emitEvent(LlmEvent::make(LlmEvent::Type::TextDelta, it->id, delta));
    }
    if (type == u"response.function_call_arguments.delta") {
        const auto it = m_items.find(data.string(u"item_id"));
        const QString delta = data.string(u"delta");
        if (it == m_items.end() || it->kind != Item::Kind::FunctionCall || delta.isEmpty())
            return true;
        it->arguments += delta;
        return emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputDelta, it->callID, delta));
    }
    if (type == u"response.function_call_arguments.done") {
        const auto it = m_items.find(data.string(u"item_id"));
        if (it != m_items.end() && data.value(u"arguments").isString())
            it->arguments = data.string(u"arguments");
        return true;
    }
    if (type == u"response.reasoning_summary_part.added") {
        const auto it = m_items.find(data.string(u"item_id"));
        const qint64 index = data.integer(u"summary_index");
        if (it == m_items.end() || it->kind != Item::Kind::Reasoning || it->summaryParts.contains(index))
            return true;
        it->summaryParts.append(index);
        LlmEvent e = LlmEvent::make(LlmEvent::Type::ReasoningStart, it->id + u':' + QString::number(index));
        e.providerMetadata = reasoningMetadata(it->id, JsonValue(nullptr));
        return emitEvent(e);
    }
    if (type == u"response.reasoning_summary_text.delta") {
        const auto it = m_items.constFind(data.string(u"item_id"));
        const QString delta = data.string(u"delta");
        if (it == m_items.cend() || it->kind != Item::Kind::Reasoning || delta.isEmpty())
            return true;
        const QString id = it->id + u':' + QString::number(data.integer(u"summary_index"));
        return emitEvent(LlmEvent::make(LlmEvent::Type::ReasoningDelta, id, delta));
    }
    if (type == u"response.completed" || type == u"response.incomplete")
        return finish(data.object(u"response"));
    if (type == u"response.failed") {
        const JsonObject response = data.object(u"response");
        JsonObject error = response.object(u"error");
        if (error.isEmpty()) {
            const QString reason = response.object(u"incomplete_details").string(u"reason");
            error = JsonObject{{u"message"_s, reason.isEmpty() ? u"The response failed"_s : reason}};
        }
        fail(errorFromStreamError(settings().providerID, error, raw));
        return false;
    }
    if (type == u"error") {
        // {"type": "error", "code", "message", "param"}, or the error wrapped in "error".
        const JsonValue wrapped = data.value(u"error");
        fail(errorFromStreamError(settings().providerID, wrapped.isObject() ? wrapped.toObject() : data, raw));
        return false;
    }
    return true; // response.in_progress, content parts, *.done of texts, keep-alives...
}

bool OpenAiResponsesProvider::itemAdded(const JsonObject &item)
{
    const QString type = item.string(u"type");
    Item state;
    state.id = item.string(u"id");
    if (type == u"message") {
        state.kind = Item::Kind::Message;
        m_items.insert(state.id, state);
        return emitEvent(LlmEvent::make(LlmEvent::Type::TextStart, state.id));
    }
    if (type == u"function_call") {
        state.kind = Item::Kind::FunctionCall;
        state.callID = item.string(u"call_id");
        if (state.callID.isEmpty())
            state.callID = state.id;
        state.name = item.string(u"name");
        state.arguments = item.string(u"arguments");
        m_items.insert(state.id, state);
        LlmEvent e = LlmEvent::make(LlmEvent::Type::ToolInputStart, state.callID);
        e.toolName = state.name;
        if (!emitEvent(e))
            return false;
        return state.arguments.isEmpty()
            || emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputDelta, state.callID, state.arguments));
    }
    if (type == u"reasoning") {
        state.kind = Item::Kind::Reasoning;
        state.summaryParts = {0};
        m_items.insert(state.id, state);
        LlmEvent e = LlmEvent::make(LlmEvent::Type::ReasoningStart, state.id + u":0"_s);
        e.providerMetadata = reasoningMetadata(state.id, item.value(u"encrypted_content"));
        return emitEvent(e);
    }
    qCDebug(lcProvider) << "ignoring Responses output item" << type;
    return true;
}

bool OpenAiResponsesProvider::itemDone(const JsonObject &item)
{
    const auto it = m_items.constFind(item.string(u"id"));
    if (it == m_items.cend())
        return true;
    const Item state = *it;
    m_items.erase(it);
    switch (state.kind) {
    case Item::Kind::Message:
        return emitEvent(LlmEvent::make(LlmEvent::Type::TextEnd, state.id));
    case Item::Kind::Reasoning:
        for (const qint64 index : state.summaryParts) {
            LlmEvent e = LlmEvent::make(LlmEvent::Type::ReasoningEnd, state.id + u':' + QString::number(index));
            e.providerMetadata = reasoningMetadata(state.id, item.value(u"encrypted_content"));
            if (!emitEvent(e))
                return false;
        }
        return true;
    case Item::Kind::FunctionCall: {
        m_hasFunctionCall = true;
        if (!emitEvent(LlmEvent::make(LlmEvent::Type::ToolInputEnd, state.callID)))
            return false;
        LlmEvent e = LlmEvent::make(LlmEvent::Type::ToolCall, state.callID);
        e.toolName = item.string(u"name").isEmpty() ? state.name : item.string(u"name");
        setToolInput(e, item.value(u"arguments").isString() ? item.string(u"arguments") : state.arguments);
        return emitEvent(e);
    }
    }
    return true;
}

bool OpenAiResponsesProvider::finish(const JsonObject &response)
{
    m_done = true;
    const JsonObject usage = response.object(u"usage");
    LlmEvent e = LlmEvent::make(LlmEvent::Type::FinishStep);
    e.finishReason = finishReason(response.object(u"incomplete_details").string(u"reason"), m_hasFunctionCall);
    LlmUsage &u = e.usage;
    u.inputTokens = usage.integer(u"input_tokens");
    u.outputTokens = usage.integer(u"output_tokens");
    u.cachedInputTokens = usage.object(u"input_tokens_details").integer(u"cached_tokens");
    u.reasoningTokens = usage.object(u"output_tokens_details").integer(u"reasoning_tokens");
    u.totalTokens = usage.integer(u"total_tokens", u.inputTokens + u.outputTokens);
    // Named "openai" as the AI SDK names it: getUsage then takes the input as including the
    // cached tokens, which is what the Responses API reports.
    JsonObject openai{{u"responseId"_s, m_responseID.isEmpty() ? response.string(u"id") : m_responseID}};
    if (!usage.isEmpty())
        openai.insert(u"usage"_s, usage);
    e.providerMetadata = JsonObject{{u"openai"_s, openai}};
    if (!emitEvent(e))
        return false;
    complete();
    return false;
}

void OpenAiResponsesProvider::handleEndOfStream()
{
    // response.completed completes the call; a body that ends before it was cut off.
    if (!m_done)
        fail(MessageError::api(u"The connection closed before the response was complete"_s, 0, true));
}

} // namespace weft
