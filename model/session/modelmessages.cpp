// SPDX-License-Identifier: GPL-3.0-or-later
#include "modelmessages.h"

#include <QHash>
#include <QSet>

using namespace Qt::StringLiterals;

namespace weft::ModelMessages
{

CompactionPoint lastCompaction(const QList<MessageWithParts> &messages)
{
    // Walk back from the newest message: a summary that finished without an error marks its user
    // message as a completed compaction; reaching that user message ends the walk.
    QHash<QString, qsizetype> completed; // marker ID -> index of its (newest) finished summary
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const MessageWithParts &m = messages.at(i);
        if (m.info.isUser()) {
            const auto it = completed.constFind(m.info.id());
            if (it == completed.constEnd())
                continue;
            for (const Part &p : m.parts) {
                if (p.type() != PartType::Compaction)
                    continue;
                CompactionPoint point;
                point.marker = i;
                point.summary = it.value();
                const QString tail = p.json().string(u"tail_start_id");
                if (!tail.isEmpty()) {
                    for (qsizetype j = i - 1; j >= 0; --j) {
                        if (messages.at(j).info.id() == tail) {
                            point.tailStart = j;
                            break;
                        }
                    }
                }
                return point;
            }
            continue;
        }
        if (m.info.isSummary() && !m.info.finish().isEmpty() && !m.info.hasError() && !completed.contains(m.info.parentID()))
            completed.insert(m.info.parentID(), i);
    }
    return {};
}

QList<qsizetype> compactedIndices(const QList<MessageWithParts> &messages)
{
    QList<qsizetype> indices;
    const CompactionPoint point = lastCompaction(messages);
    if (!point.isValid()) {
        indices.reserve(messages.size());
        for (qsizetype i = 0; i < messages.size(); ++i)
            indices.append(i);
        return indices;
    }
    if (point.tailStart < 0 || point.summary < point.marker) {
        for (qsizetype i = point.marker; i < messages.size(); ++i)
            indices.append(i);
        return indices;
    }
    for (qsizetype i = point.marker; i <= point.summary; ++i)
        indices.append(i);
    for (qsizetype i = point.tailStart; i < point.marker; ++i)
        indices.append(i);
    for (qsizetype i = point.summary + 1; i < messages.size(); ++i)
        indices.append(i);
    return indices;
}

qsizetype compactionStart(const QList<MessageWithParts> &messages)
{
    const CompactionPoint point = lastCompaction(messages);
    return point.isValid() ? point.marker : 0;
}

QList<MessageWithParts> filterCompacted(const QList<MessageWithParts> &messages)
{
    const CompactionPoint point = lastCompaction(messages);
    if (!point.isValid())
        return messages;
    if (point.tailStart < 0 || point.summary < point.marker)
        return messages.mid(point.marker);
    QList<MessageWithParts> result;
    result.reserve(messages.size() - point.tailStart);
    for (const qsizetype i : compactedIndices(messages))
        result.append(messages.at(i));
    return result;
}

bool hasContent(const MessageWithParts &m)
{
    for (const Part &p : m.parts) {
        switch (p.type()) {
        case PartType::Text:
        case PartType::Reasoning:
            if (!p.text().isEmpty())
                return true;
            break;
        case PartType::Tool:
            return true;
        default:
            break;
        }
    }
    return false;
}

QList<LlmMessage> toModelMessages(const QList<MessageWithParts> &messages)
{
    QList<LlmMessage> result;
    for (const MessageWithParts &m : messages) {
        if (m.parts.isEmpty())
            continue;
        if (m.info.isUser()) {
            QList<LlmPart> parts;
            for (const Part &p : m.parts) {
                switch (p.type()) {
                case PartType::Text:
                    if (!p.isIgnored())
                        parts.append(LlmPart::makeText(p.text()));
                    break;
                case PartType::File:
                    // An MCP resource's contents went in as synthetic text; its URI is the
                    // server's, which no provider can fetch.
                    if (p.mime() != u"text/plain" && p.mime() != u"application/x-directory"
                        && p.json().object(u"source").string(u"type") != u"resource")
                        parts.append(LlmPart::makeFile(p.mime(), p.url(), p.filename()));
                    break;
                case PartType::Compaction:
                    parts.append(LlmPart::makeText(CompactionQuestion.toString()));
                    break;
                case PartType::Subtask:
                    parts.append(LlmPart::makeText(SubtaskNote.toString()));
                    break;
                default:
                    break;
                }
            }
            if (!parts.isEmpty())
                result.append(LlmMessage::make(LlmMessage::Role::User, parts));
            continue;
        }

        // Assistant
        if (m.info.hasError()) {
            const bool abortedWithContent = m.info.error().kind() == MessageError::Kind::Aborted && hasContent(m);
            if (!abortedWithContent)
                continue;
        }
        QList<LlmPart> assistantParts;
        QList<LlmPart> toolResults;
        for (const Part &p : m.parts) {
            switch (p.type()) {
            case PartType::Text:
                if (!p.text().isEmpty())
                    assistantParts.append(LlmPart::makeText(p.text()));
                break;
            case PartType::Reasoning:
                // Reasoning without text still matters when it carries provider data: Anthropic's
                // redacted thinking, OpenAI's encrypted reasoning.
                if (!p.text().isEmpty() || !p.json().object(u"metadata").isEmpty())
                    assistantParts.append(LlmPart::makeReasoning(p.text(), p.json().object(u"metadata")));
                break;
            case PartType::Tool: {
                const ToolState state = p.state();
                assistantParts.append(LlmPart::makeToolCall(p.callID(), p.tool(), state.input()));
                switch (state.status()) {
                case ToolStatus::Completed:
                    toolResults.append(LlmPart::makeToolResult(p.callID(), p.tool(),
                                                               state.isCompacted() ? ClearedToolOutput.toString() : state.output()));
                    break;
                case ToolStatus::Error:
                    toolResults.append(LlmPart::makeToolResult(p.callID(), p.tool(), state.errorText(), true));
                    break;
                default:
                    toolResults.append(LlmPart::makeToolResult(p.callID(), p.tool(), InterruptedTool.toString(), true));
                    break;
                }
                break;
            }
            default:
                break;
            }
        }
        if (assistantParts.isEmpty())
            continue;
        result.append(LlmMessage::make(LlmMessage::Role::Assistant, assistantParts));
        if (!toolResults.isEmpty())
            result.append(LlmMessage::make(LlmMessage::Role::Tool, toolResults));
    }
    return result;
}

} // namespace weft::ModelMessages
