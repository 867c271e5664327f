// SPDX-License-Identifier: GPL-3.0-or-later
#include "modelmessages.h"

#include <QSet>

using namespace Qt::StringLiterals;

namespace weft::ModelMessages
{

qsizetype compactionStart(const QList<MessageWithParts> &messages)
{
    // Walk back from the newest message: a finished summary marks its user message as a
    // completed compaction; reaching that user message ends the walk.
    QSet<QString> completed;
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const MessageWithParts &m = messages.at(i);
        if (m.info.isUser() && completed.contains(m.info.id())) {
            for (const Part &p : m.parts) {
                if (p.type() == PartType::Compaction)
                    return i;
            }
        }
        if (m.info.isAssistant() && m.info.isSummary() && !m.info.finish().isEmpty())
            completed.insert(m.info.parentID());
    }
    return 0;
}

QList<MessageWithParts> filterCompacted(const QList<MessageWithParts> &messages)
{
    return messages.mid(compactionStart(messages));
}

namespace
{
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
} // namespace

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
                    if (p.mime() != u"text/plain" && p.mime() != u"application/x-directory")
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
                if (!p.text().isEmpty())
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
