// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "provider/llm.h"

namespace weft
{

/// What a compaction leaves of a conversation, and how stored messages become model input.
namespace ModelMessages
{

/// The text a pruned tool output is replaced with.
inline constexpr QStringView ClearedToolOutput = u"[Old tool result content cleared]";
/// The result of a tool call that never finished (pending or running when the turn ended).
inline constexpr QStringView InterruptedTool = u"[Tool execution was interrupted]";
/// What a compaction request stands for in the conversation.
inline constexpr QStringView CompactionQuestion = u"What did we do so far?";
/// What a user-run subtask stands for.
inline constexpr QStringView SubtaskNote = u"The following tool was executed by the user";

/// Where the last *completed* compaction sits in a list of stored messages: the user message with
/// the `compaction` part (the marker) whose `summary: true` answer has finished without an error.
struct CompactionPoint {
    qsizetype marker = -1;    ///< index of the user message with the compaction part; -1: none
    qsizetype summary = -1;   ///< index of its finished summary answer
    /// Index of the compaction part's `tail_start_id` (the summary-tail strategy: the messages
    /// from there up to the marker were kept verbatim); -1 when absent, unknown or not before the
    /// marker.
    qsizetype tailStart = -1;
    [[nodiscard]] bool isValid() const { return marker >= 0; }
};

/// The last completed compaction of @p messages (stored order).
[[nodiscard]] CompactionPoint lastCompaction(const QList<MessageWithParts> &messages);

/// The indices into @p messages that filterCompacted() returns, in the order it returns them.
[[nodiscard]] QList<qsizetype> compactedIndices(const QList<MessageWithParts> &messages);

/// OpenCode's MessageV2.filterCompacted: the messages from the last *completed* compaction on
/// (the user message with the compaction part whose summary answer has finished without an
/// error), in order. Without a completed compaction, all messages.
///
/// When the compaction part has a `tail_start_id` (newer OpenCode; Weft's summary-tail strategy),
/// the kept tail follows the summary: [marker .. summary], then the messages from the tail start
/// up to the marker, then what came after the summary.
[[nodiscard]] QList<MessageWithParts> filterCompacted(const QList<MessageWithParts> &messages);

/// The index in @p messages of the marker where filterCompacted() starts (0 without a completed
/// compaction). With a kept tail, the tail's messages before it are in the context too.
[[nodiscard]] qsizetype compactionStart(const QList<MessageWithParts> &messages);

/// Whether @p message has what a model reads: text or reasoning that is not empty, or a tool call.
/// An aborted assistant message with content still goes to the model.
[[nodiscard]] bool hasContent(const MessageWithParts &message);

/// OpenCode's MessageV2.toModelMessage: stored messages as model input.
/// - user text (not ignored) and files (except text/plain and directories); a compaction part
///   asks "What did we do so far?"; a subtask part notes that the user ran a tool;
/// - assistant text, reasoning, and tool calls with their results: completed -> output (or the
///   cleared marker when pruned), error -> the error, pending/running -> interrupted;
/// - an assistant message with an error is skipped, unless it was aborted after it produced
///   content.
[[nodiscard]] QList<LlmMessage> toModelMessages(const QList<MessageWithParts> &messages);

} // namespace ModelMessages
} // namespace weft
