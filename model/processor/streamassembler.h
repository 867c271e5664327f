// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "provider/llm.h"
#include "provider/usage.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace weft
{

/// Turns one step's provider stream into the parts of an assistant message, as OpenCode's
/// SessionProcessor does: text and reasoning parts grow with their deltas (the end of a finished
/// text part is trimmed), tool calls become `tool` parts in the pending state (their raw input
/// streamed), and the step is framed by a `step-start` part and a `step-finish` part with the
/// finish reason, tokens and cost (getUsage). The provider's error, finish reason, usage and
/// metadata are kept for the caller.
///
/// The assembler does no I/O of its own: parts go to the Sink, which stores and announces them.
/// One assembler serves one attempt of one step.
class StreamAssembler
{
public:
    /// Where the parts go.
    struct Sink
    {
        /// A part in full (new, or changed in more than its text).
        std::function<void(const Part &part)> write;
        /// A part that grew by @p delta (empty for a tool's streamed input or progress).
        std::function<void(const Part &part, const QString &delta)> stream;
        /// Announce what stream() coalesced so far (before a part ends).
        std::function<void()> flush;
    };

    /// Parts of message @p messageID in session @p sessionID; @p clock gives the times (the
    /// current time when empty).
    StreamAssembler(QString sessionID, QString messageID, Sink sink, std::function<qint64()> clock = {});

    /// Writes the `step-start` part, with @p snapshot when not empty, and returns it.
    Part startStep(const QString &snapshot);
    /// Applies one event of the provider's stream.
    void handle(const LlmEvent &event);
    /// Writes the `step-finish` part (reason, @p snapshot when not empty, cost and tokens of the
    /// step's usage at @p cost) and returns the usage.
    StepUsage finishStep(const ModelCost &cost, const QString &snapshot);
    /// Ends the text and reasoning parts that have not ended (an aborted stream).
    void closeStreaming();

    /// The tool parts in the order the model called them, as last written.
    [[nodiscard]] QList<Part> toolParts() const;
    [[nodiscard]] bool hasToolCalls() const { return !m_toolOrder.isEmpty(); }
    /// The finish reason of the step; "unknown" when the stream sent none.
    [[nodiscard]] QString finishReason() const;
    [[nodiscard]] const LlmUsage &usage() const { return m_usage; }
    [[nodiscard]] const JsonObject &metadata() const { return m_metadata; }
    /// An error the stream reported as an event (null when none).
    [[nodiscard]] const MessageError &error() const { return m_error; }
    /// The trimmed text of the last text part that ended; nullopt when none ended.
    [[nodiscard]] const std::optional<QString> &lastText() const { return m_lastText; }

private:
    Part &streamPart(const QString &key, PartType type);
    Part newPart(PartType type) const;
    Part &toolPart(const QString &callID, const QString &toolName);
    void startStreaming(const LlmEvent &event, bool text);
    void appendDelta(const LlmEvent &event, bool text);
    void endStreaming(const LlmEvent &event, bool text);
    void appendToolInput(const LlmEvent &event);
    void callTool(const LlmEvent &event);
    [[nodiscard]] qint64 now() const;

    QString m_sessionID;
    QString m_messageID;
    Sink m_sink;
    std::function<qint64()> m_clock;

    QHash<QString, Part> m_streamParts; ///< "text:<id>" / "reasoning:<id>" -> part
    QStringList m_streamOrder;
    QHash<QString, Part> m_toolParts; ///< call ID -> part
    QStringList m_toolOrder;
    QString m_finishReason;
    LlmUsage m_usage;
    JsonObject m_metadata;
    MessageError m_error;
    std::optional<QString> m_lastText;
};

} // namespace weft
