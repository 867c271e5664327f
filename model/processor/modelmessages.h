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

/// OpenCode's MessageV2.filterCompacted: the messages from the last *completed* compaction on
/// (the user message with the compaction part whose summary answer has finished), in order.
/// Without a completed compaction, all messages.
[[nodiscard]] QList<MessageWithParts> filterCompacted(const QList<MessageWithParts> &messages);

/// The index in @p messages where filterCompacted() starts (0 without a completed compaction).
[[nodiscard]] qsizetype compactionStart(const QList<MessageWithParts> &messages);

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
