// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Compaction of a session's context, as OpenCode does it (session/compaction.ts: isOverflow,
// prune, process; message-v2.ts: filterCompacted), with Gemini CLI's "summarise the older 70%,
// keep the newest 30%" as an option, a preview that changes nothing, and undo.
//
// Everything here works on stored messages (MessageWithParts) and the SessionService; the
// streaming of a summary lives in the Processor (Processor::compact and the agent loop).

#include "core/json.h"
#include "core/result.h"
#include "core/types.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace weft
{

class SessionService;

namespace Compaction
{

/// OpenCode's constants (session/compaction.ts, session/prompt.ts).
inline constexpr qint64 PruneMinimum = 20000;
inline constexpr qint64 PruneProtect = 40000;
inline constexpr qint64 OutputTokenMax = 32000;
/// Gemini CLI's COMPRESSION_PRESERVE_THRESHOLD: the newest 30% of the history is kept.
inline constexpr double PreserveFraction = 0.3;
/// Tools whose output prune never clears (OpenCode's PRUNE_PROTECTED_TOOLS).
[[nodiscard]] const QStringList &protectedTools();

/// The synthetic user text an automatic compaction adds before the loop continues.
inline constexpr QStringView ContinueText =
    u"Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.";
/// Gemini CLI's request after the history to summarise (the summary-tail strategy).
inline constexpr QStringView SnapshotRequest = u"First, reason in your scratchpad. Then, generate the <state_snapshot>.";

/// How tokens are estimated from text.
enum class Estimator {
    OpenCode, ///< OpenCode's Token.estimate: ceil(UTF-16 length / 4). The default.
    Gemini,   ///< Gemini CLI's: 0.25 per ASCII code point, 1.3 per other code point, floored.
    Auto,     ///< the larger of the two: OpenCode's on ASCII text, Gemini's on CJK text.
};

enum class Strategy {
    Summary,     ///< OpenCode: summarise the whole context, continue from the summary.
    SummaryTail, ///< Gemini CLI: summarise the older 70%, keep the newest 30% verbatim.
};

[[nodiscard]] QString estimatorName(Estimator estimator);
[[nodiscard]] std::optional<Estimator> estimatorFromName(QStringView name);
[[nodiscard]] QString strategyName(Strategy strategy);
[[nodiscard]] std::optional<Strategy> strategyFromName(QStringView name);

/// The estimated tokens of @p text (UTF-16, Latin-1 or UTF-8: the same count for the same text;
/// a long string read from a file is held as UTF-8, and is not decoded for OpenCode's estimate).
[[nodiscard]] qint64 estimateTokens(QAnyStringView text, Estimator estimator = Estimator::OpenCode);
/// The length of @p text in UTF-16 code units (JavaScript's `length`), without decoding it.
[[nodiscard]] qint64 utf16Length(QAnyStringView text);

/// The config's `compaction` object and the environment, resolved.
struct Settings {
    bool autoCompact = true;      ///< `compaction.auto` and OPENCODE_DISABLE_AUTOCOMPACT
    bool prune = true;            ///< `compaction.prune` and OPENCODE_DISABLE_PRUNE
    Strategy strategy = Strategy::Summary;   ///< `compaction.strategy`: "summary" | "summary-tail"
    Estimator estimator = Estimator::OpenCode; ///< `compaction.estimator`: "opencode" | "gemini" | "auto"
    QString prompt;               ///< `compaction.prompt`: replaces the summary system prompt when set
    QString model;                ///< `compaction.model`: "provider/model" for summaries
    /// `compaction.reserved` (newer OpenCode): tokens kept free for the answer; replaces
    /// min(output limit, 32000) in isOverflow when set.
    std::optional<qint64> reserved;
    /// Why auto compaction / pruning is off: "config" or the environment variable's name; empty
    /// when on.
    QString autoDisabledBy;
    QString pruneDisabledBy;

    /// Reads @p compaction (the config's object) and the environment variables. Unknown keys are
    /// ignored; a value of the wrong type or an unknown strategy/estimator is an error.
    [[nodiscard]] static Result<Settings> fromConfig(const JsonObject &compaction);
    /// The same with an environment lookup of your own (tests).
    [[nodiscard]] static Result<Settings> fromConfig(const JsonObject &compaction,
                                                     const std::function<QString(const char *)> &env);
    /// True for a set environment switch: any non-empty value other than "0" or "false".
    [[nodiscard]] static bool envSwitch(const QString &value);

    [[nodiscard]] JsonObject toJson() const;
};

/// The tokens that count for overflow: input + cache.read + output.
[[nodiscard]] qint64 overflowCount(const Tokens &tokens);
/// The usable context: context - min(output limit, 32000), or 32000 when the output limit is 0
/// (or context - reserved when `compaction.reserved` is set). 0 when the context is unknown.
[[nodiscard]] qint64 usableContext(qint64 contextLimit, qint64 outputLimit, const Settings &settings);
/// OpenCode's SessionCompaction.isOverflow: input + cache.read + output > usable context. False
/// when the context limit is 0 (unknown) or automatic compaction is off (config or environment).
[[nodiscard]] bool isOverflow(const Tokens &tokens, qint64 contextLimit, qint64 outputLimit, const Settings &settings);

// ---- sizes of stored messages as the model sees them (ModelMessages::toModelMessages)

/// Estimated tokens of one message as model input: user text (not ignored), files (at most
/// 1,600 tokens each), the compaction question, subtask notes; assistant text, reasoning, tool
/// calls (name + compact JSON input) and results (the cleared marker for pruned outputs and for
/// the part IDs in @p pruned). An assistant message toModelMessages() skips counts 0.
[[nodiscard]] qint64 messageTokens(const MessageWithParts &message, Estimator estimator,
                                   const QSet<QString> *pruned = nullptr);
/// The characters of the same content: the measure of the summary-tail split.
[[nodiscard]] qint64 messageChars(const MessageWithParts &message);

// ---- prune

struct PruneCandidate {
    QString partID;
    QString messageID;
    QString tool;
    qint64 tokens = 0; ///< estimated tokens of the output
};

/// What prune found, and whether it changed the session.
struct PrunePlan {
    QString sessionID;
    bool enabled = true;  ///< false when `compaction.prune` or OPENCODE_DISABLE_PRUNE turned it off
    QString disabledBy;
    Estimator estimator = Estimator::OpenCode;
    qint64 total = 0;     ///< tokens of the completed tool outputs walked over
    qint64 pruned = 0;    ///< tokens of the outputs beyond PRUNE_PROTECT (the candidates)
    QList<PruneCandidate> parts; ///< newest first, as the walk found them
    bool applied = false; ///< the parts were marked (state.time.compacted)
    qint64 compactedAt = 0;

    /// Prune changes the session only when it is enabled and more than PRUNE_MINIMUM tokens
    /// would be cleared.
    [[nodiscard]] bool willApply() const { return enabled && pruned > PruneMinimum; }
    /// Tokens the model no longer reads once applied (outputs minus their cleared markers).
    [[nodiscard]] qint64 savings() const;
    [[nodiscard]] QSet<QString> partIDs() const;
    [[nodiscard]] JsonObject toJson() const;
};

/// OpenCode's prune walk over @p messages (stored order), without changing anything: from the
/// newest message back, skipping until two user turns were counted, stopping at a summary
/// message or at an already pruned output; the outputs of completed tool calls (except `skill`)
/// are summed, and those beyond PRUNE_PROTECT become candidates.
[[nodiscard]] PrunePlan planPrune(const QList<MessageWithParts> &messages, Estimator estimator = Estimator::OpenCode);

/// Plans and, unless @p dryRun or the plan does not apply, marks the candidates' outputs as
/// compacted (state.time.compacted = @p now, or the current time) through
/// SessionService::updatePart. With prune disabled, returns the plan with enabled = false and
/// changes nothing.
[[nodiscard]] Result<PrunePlan> prune(SessionService &service, const QString &sessionID, const Settings &settings,
                                      bool dryRun = false, qint64 now = 0);

/// Clears state.time.compacted again on the given parts (a refused compaction).
Result<void> unprune(SessionService &service, const QString &sessionID, const QList<PruneCandidate> &parts);

// ---- what a summary covers

/// Gemini CLI's findCompressSplitPoint over stored messages: the index before which the history
/// is summarised. Scanning from the oldest message with a running character count, a valid split
/// point is a user message that is not a tool result (isSplitCandidate) at index >=
/// @p firstCandidate; the first one reached once the count before it is at least @p fraction of
/// all characters is returned. Without one: everything (messages.size()) when the last message
/// is a finished assistant answer without tool calls, else the last valid split point (0 when
/// there is none: nothing is summarised).
[[nodiscard]] qsizetype findSplitPoint(const QList<MessageWithParts> &messages, double fraction = 1.0 - PreserveFraction,
                                       qsizetype firstCandidate = 0);
/// A user message that may start the kept tail: not a compaction marker, and not one that only
/// carries tool output (subtask parts, which stand for a tool the user ran).
[[nodiscard]] bool isSplitCandidate(const MessageWithParts &message);

/// Which messages a compaction would summarise and which it would keep.
struct SummaryPlan {
    Strategy strategy = Strategy::Summary;
    QList<qsizetype> window;     ///< filterCompacted()'s indices into the stored messages, in its order
    qsizetype split = 0;         ///< position in window: window[0, split) is summarised, the rest kept
    QString tailStartID;         ///< the first kept message (summary-tail), empty when nothing is kept
    [[nodiscard]] QList<qsizetype> summarized() const { return window.mid(0, split); }
    [[nodiscard]] QList<qsizetype> kept() const { return window.mid(split); }
};
[[nodiscard]] SummaryPlan planSummary(const QList<MessageWithParts> &messages, Strategy strategy);

// ---- preview

/// The model a compaction would use, with its limits.
struct ModelLimits {
    QString ref;          ///< "provider/model"
    qint64 context = 0;
    qint64 output = 0;
};

/// What a compaction would do, computed without changing anything.
struct Preview {
    QString sessionID;
    Strategy strategy = Strategy::Summary;
    Settings settings;
    ModelLimits model;

    QStringList summarized;     ///< message IDs the summary replaces
    qint64 summarizedTokens = 0; ///< their estimate as the summary request sends them (after prune)
    QStringList kept;           ///< message IDs kept verbatim (summary-tail)
    qint64 keptTokens = 0;
    QString tailStartID;
    PrunePlan prune;            ///< what the prune before the summary would clear

    qint64 tokensBefore = 0;    ///< the context now
    QString beforeSource;       ///< "usage" (the last answer's input + cache.read + output) or "estimate"
    qint64 estimatedBefore = 0; ///< the estimate of the messages in the context now
    qint64 overhead = 0;        ///< system prompt and tools: usage minus the messages' estimate (0 without usage)
    qint64 summaryTokens = 0;   ///< the expected size of the summary
    QString summarySource;      ///< "previous-summaries" (their mean output tokens) or "heuristic"
    qint64 tokensAfter = 0;     ///< overhead + question + summary + kept tail (after prune)
    qint64 usable = 0;          ///< usable context of the model (0: unknown)
    bool overflow = false;      ///< the last answer's usage overflows (with automatic compaction on)
    QString problem;            ///< why a compaction would fail ("nothing to summarise"), empty otherwise

    [[nodiscard]] bool canCompact() const { return problem.isEmpty(); }
    [[nodiscard]] JsonObject toJson() const;
};

/// The preview of compacting @p messages (stored order) with @p strategy and @p model.
/// Summary size: the mean output tokens of the session's earlier summaries when it has any,
/// else a tenth of the summarised tokens, clamped to [256, 4096], never more than the summarised
/// tokens nor the output the model may produce (min(output limit, 32000)).
[[nodiscard]] Preview makePreview(const QString &sessionID, const QList<MessageWithParts> &messages, const Settings &settings,
                                  Strategy strategy, const ModelLimits &model);

/// The estimate of the context filterCompacted() leaves of @p messages.
[[nodiscard]] qint64 contextEstimate(const QList<MessageWithParts> &messages, Estimator estimator);

// ---- undo

/// The messages an undo removes: the last compaction's marker, its summary and the synthetic
/// "Continue..." message of an automatic compaction.
struct UndoPlan {
    QString markerID;
    QStringList removed; ///< message IDs, marker first
};
/// Refuses (with the reason) when the session has no compaction, when its summary has not
/// finished, or when anything else was added after the compaction (a prompt, the agent's answer).
[[nodiscard]] Result<UndoPlan> planUndo(const QList<MessageWithParts> &messages);
/// Removes the messages of planUndo(); the rest of the session is left as it is.
[[nodiscard]] Result<UndoPlan> undo(SessionService &service, const QString &sessionID);

} // namespace Compaction
} // namespace weft
