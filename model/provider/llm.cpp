// SPDX-License-Identifier: GPL-3.0-or-later
#include "llm.h"

using namespace Qt::StringLiterals;

namespace weft
{

LlmPart LlmPart::makeText(const QString &text)
{
    LlmPart p;
    p.type = Type::Text;
    p.text = text;
    return p;
}

LlmPart LlmPart::makeReasoning(const QString &text, const JsonObject &providerMetadata)
{
    LlmPart p;
    p.type = Type::Reasoning;
    p.text = text;
    p.providerMetadata = providerMetadata;
    return p;
}

LlmPart LlmPart::makeFile(const QString &mime, const QString &url, const QString &filename)
{
    LlmPart p;
    p.type = Type::File;
    p.mime = mime;
    p.url = url;
    p.filename = filename;
    return p;
}

LlmPart LlmPart::makeToolCall(const QString &callID, const QString &name, const JsonObject &input)
{
    LlmPart p;
    p.type = Type::ToolCall;
    p.toolCallID = callID;
    p.toolName = name;
    p.input = input;
    return p;
}

LlmPart LlmPart::makeToolResult(const QString &callID, const QString &name, const QString &output, bool isError)
{
    LlmPart p;
    p.type = Type::ToolResult;
    p.toolCallID = callID;
    p.toolName = name;
    p.text = output;
    p.isError = isError;
    return p;
}

LlmMessage LlmMessage::system(const QString &text)
{
    return make(Role::System, {LlmPart::makeText(text)});
}

LlmMessage LlmMessage::user(const QString &text)
{
    return make(Role::User, {LlmPart::makeText(text)});
}

LlmMessage LlmMessage::assistant(const QString &text)
{
    return make(Role::Assistant, {LlmPart::makeText(text)});
}

LlmMessage LlmMessage::make(Role role, const QList<LlmPart> &parts)
{
    LlmMessage m;
    m.role = role;
    m.parts = parts;
    return m;
}

QString LlmMessage::text() const
{
    QString out;
    for (const LlmPart &p : parts) {
        if (p.type != LlmPart::Type::Text)
            continue;
        if (!out.isEmpty())
            out += u'\n';
        out += p.text;
    }
    return out;
}

QString LlmEvent::typeName(Type type)
{
    switch (type) {
    case Type::Start:
        return u"start"_s;
    case Type::TextStart:
        return u"text-start"_s;
    case Type::TextDelta:
        return u"text-delta"_s;
    case Type::TextEnd:
        return u"text-end"_s;
    case Type::ReasoningStart:
        return u"reasoning-start"_s;
    case Type::ReasoningDelta:
        return u"reasoning-delta"_s;
    case Type::ReasoningEnd:
        return u"reasoning-end"_s;
    case Type::ToolInputStart:
        return u"tool-input-start"_s;
    case Type::ToolInputDelta:
        return u"tool-input-delta"_s;
    case Type::ToolInputEnd:
        return u"tool-input-end"_s;
    case Type::ToolCall:
        return u"tool-call"_s;
    case Type::FinishStep:
        return u"finish-step"_s;
    case Type::Error:
        return u"error"_s;
    }
    return {};
}

LlmEvent LlmEvent::make(Type type, const QString &id, const QString &text)
{
    LlmEvent e;
    e.type = type;
    e.id = id;
    e.text = text;
    return e;
}

namespace FinishReason
{

QString fromOpenAi(QStringView reason)
{
    if (reason == u"stop")
        return Stop.toString();
    if (reason == u"length")
        return Length.toString();
    if (reason == u"content_filter")
        return ContentFilter.toString();
    if (reason == u"tool_calls" || reason == u"function_call")
        return ToolCalls.toString();
    return Unknown.toString();
}

QString fromAnthropic(QStringView reason)
{
    if (reason == u"end_turn" || reason == u"stop_sequence" || reason == u"pause_turn")
        return Stop.toString();
    if (reason == u"tool_use")
        return ToolCalls.toString();
    if (reason == u"max_tokens" || reason == u"model_context_window_exceeded")
        return Length.toString();
    if (reason == u"refusal")
        return ContentFilter.toString();
    return Unknown.toString();
}

} // namespace FinishReason

} // namespace weft
