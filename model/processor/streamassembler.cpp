// SPDX-License-Identifier: GPL-3.0-or-later
#include "streamassembler.h"

#include "core/identifier.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace weft
{

StreamAssembler::StreamAssembler(QString sessionID, QString messageID, Sink sink, std::function<qint64()> clock)
    : m_sessionID(std::move(sessionID))
    , m_messageID(std::move(messageID))
    , m_sink(std::move(sink))
    , m_clock(std::move(clock))
{
}

qint64 StreamAssembler::now() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

Part StreamAssembler::newPart(PartType type) const
{
    return Part::make(Identifier::ascending(Identifier::Kind::Part), m_sessionID, m_messageID, type);
}

Part StreamAssembler::startStep(const QString &snapshot)
{
    Part part = newPart(PartType::StepStart);
    if (!snapshot.isEmpty())
        part.json().insert(u"snapshot"_s, snapshot);
    m_sink.write(part);
    return part;
}

StepUsage StreamAssembler::finishStep(const ModelCost &cost, const QString &snapshot)
{
    const StepUsage usage = getUsage(cost, m_usage, m_metadata);
    Part part = newPart(PartType::StepFinish);
    part.json().insert(u"reason"_s, finishReason());
    if (!snapshot.isEmpty())
        part.json().insert(u"snapshot"_s, snapshot);
    part.json().insert(u"cost"_s, usage.costValue());
    part.json().insert(u"tokens"_s, usage.tokens.toJson());
    m_sink.write(part);
    return usage;
}

QString StreamAssembler::finishReason() const
{
    return m_finishReason.isEmpty() ? u"unknown"_s : m_finishReason;
}

QList<Part> StreamAssembler::toolParts() const
{
    QList<Part> parts;
    parts.reserve(m_toolOrder.size());
    for (const QString &callID : m_toolOrder)
        parts.append(m_toolParts.value(callID));
    return parts;
}

void StreamAssembler::handle(const LlmEvent &event)
{
    switch (event.type) {
    case LlmEvent::Type::TextStart:
    case LlmEvent::Type::ReasoningStart:
        startStreaming(event, event.type == LlmEvent::Type::TextStart);
        break;
    case LlmEvent::Type::TextDelta:
    case LlmEvent::Type::ReasoningDelta:
        appendDelta(event, event.type == LlmEvent::Type::TextDelta);
        break;
    case LlmEvent::Type::TextEnd:
    case LlmEvent::Type::ReasoningEnd:
        endStreaming(event, event.type == LlmEvent::Type::TextEnd);
        break;
    case LlmEvent::Type::ToolInputStart: {
        Part part = newPart(PartType::Tool);
        part.json().insert(u"callID"_s, event.id);
        part.json().insert(u"tool"_s, event.toolName);
        part.setState(ToolState::pending(JsonObject{}, u""_s));
        m_toolParts.insert(event.id, part);
        m_toolOrder.append(event.id);
        m_sink.write(part);
        break;
    }
    case LlmEvent::Type::ToolInputDelta:
        appendToolInput(event);
        break;
    case LlmEvent::Type::ToolCall:
        callTool(event);
        break;
    case LlmEvent::Type::FinishStep:
        m_finishReason = event.finishReason;
        m_usage = event.usage;
        m_metadata = event.providerMetadata;
        break;
    case LlmEvent::Type::Error:
        m_error = event.error;
        break;
    case LlmEvent::Type::ToolInputEnd:
    case LlmEvent::Type::Start:
        break;
    }
}

Part &StreamAssembler::streamPart(const QString &key, PartType type)
{
    auto it = m_streamParts.find(key);
    if (it == m_streamParts.end()) {
        Part part = newPart(type);
        part.json().insert(u"text"_s, u""_s);
        part.json().insert(u"time"_s, JsonObject{{u"start"_s, now()}});
        it = m_streamParts.insert(key, part);
        m_streamOrder.append(key);
    }
    return it.value();
}

static QString streamKey(const LlmEvent &event, bool text)
{
    return (text ? u"text:"_s : u"reasoning:"_s) + event.id;
}

void StreamAssembler::startStreaming(const LlmEvent &event, bool text)
{
    Part &part = streamPart(streamKey(event, text), text ? PartType::Text : PartType::Reasoning);
    if (!event.providerMetadata.isEmpty())
        part.json().insert(u"metadata"_s, event.providerMetadata);
    m_sink.write(part);
}

void StreamAssembler::appendDelta(const LlmEvent &event, bool text)
{
    Part &part = streamPart(streamKey(event, text), text ? PartType::Text : PartType::Reasoning);
    part.setText(part.text() + event.text);
    m_sink.stream(part, event.text);
}

void StreamAssembler::endStreaming(const LlmEvent &event, bool text)
{
    Part &part = streamPart(streamKey(event, text), text ? PartType::Text : PartType::Reasoning);
    m_sink.flush();
    if (text) {
        // OpenCode trims the end of a finished text part.
        QString trimmed = part.text();
        while (!trimmed.isEmpty() && trimmed.back().isSpace())
            trimmed.chop(1);
        part.setText(trimmed);
        m_lastText = trimmed;
    }
    if (!event.providerMetadata.isEmpty())
        part.json().insert(u"metadata"_s, event.providerMetadata);
    part.setTimeField(u"end"_s, now());
    m_sink.write(part);
}

void StreamAssembler::appendToolInput(const LlmEvent &event)
{
    auto it = m_toolParts.find(event.id);
    if (it == m_toolParts.end())
        return;
    ToolState state = it->state();
    state.json().insert(u"raw"_s, state.raw() + event.text);
    it->setState(state);
    m_sink.stream(*it, {});
}

Part &StreamAssembler::toolPart(const QString &callID, const QString &toolName)
{
    auto it = m_toolParts.find(callID);
    if (it == m_toolParts.end()) {
        Part part = newPart(PartType::Tool);
        part.json().insert(u"callID"_s, callID);
        part.json().insert(u"tool"_s, toolName);
        it = m_toolParts.insert(callID, part);
        m_toolOrder.append(callID);
    }
    return it.value();
}

void StreamAssembler::callTool(const LlmEvent &event)
{
    Part &part = toolPart(event.id, event.toolName);
    ToolState state = ToolState::pending(event.input, event.rawInput);
    if (!event.inputError.isEmpty())
        state.json().insert(u"inputError"_s, event.inputError);
    part.setState(state);
    m_sink.write(part);
}

void StreamAssembler::closeStreaming()
{
    m_sink.flush();
    for (const QString &key : std::as_const(m_streamOrder)) {
        Part &part = m_streamParts[key];
        if (part.json().object(u"time").contains(u"end"))
            continue;
        part.setTimeField(u"end"_s, now());
        m_sink.write(part);
    }
}

} // namespace weft
