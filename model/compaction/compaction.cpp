// SPDX-License-Identifier: GPL-3.0-or-later
#include "compaction.h"

#include "core/tr.h"
#include "session/modelmessages.h"
#include "session/sessionservice.h"

#include <QDateTime>
#include <QHash>
#include <QtAlgorithms>

#include <algorithm>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace Qt::StringLiterals;

namespace weft::Compaction
{

const QStringList &protectedTools()
{
    static const QStringList tools{u"skill"_s};
    return tools;
}

QString estimatorName(Estimator estimator)
{
    switch (estimator) {
    case Estimator::OpenCode:
        return u"opencode"_s;
    case Estimator::Gemini:
        return u"gemini"_s;
    case Estimator::Auto:
        return u"auto"_s;
    }
    return {};
}

std::optional<Estimator> estimatorFromName(QStringView name)
{
    if (name == u"opencode" || name == u"chars")
        return Estimator::OpenCode;
    if (name == u"gemini")
        return Estimator::Gemini;
    if (name == u"auto")
        return Estimator::Auto;
    return std::nullopt;
}

QString strategyName(Strategy strategy)
{
    return strategy == Strategy::SummaryTail ? u"summary-tail"_s : u"summary"_s;
}

std::optional<Strategy> strategyFromName(QStringView name)
{
    if (name == u"summary")
        return Strategy::Summary;
    if (name == u"summary-tail")
        return Strategy::SummaryTail;
    return std::nullopt;
}

namespace
{
qint64 openCodeEstimate(QAnyStringView text)
{
    return (utf16Length(text) + 3) / 4;
}

qint64 geminiEstimate(QStringView text)
{
    // Per code point (a surrogate pair is one character, as JavaScript's for-of iterates), in
    // hundredths to stay exact: 25 per ASCII character, 130 per other character.
    const qsizetype n = text.size();
    const char16_t *data = text.utf16();
    qint64 nonAscii = 0;
    for (qsizetype i = 0; i < n; ++i)
        nonAscii += data[i] > 127 ? 1 : 0; // branch-free: vectorised
    qint64 pairs = 0;
    if (nonAscii > 0) {
        for (qsizetype i = 0; i + 1 < n; ++i) {
            if (QChar::isHighSurrogate(data[i]) && QChar::isLowSurrogate(data[i + 1])) {
                ++pairs;
                ++i;
            }
        }
    }
    const qint64 ascii = n - nonAscii;
    return (ascii * 25 + (nonAscii - pairs) * 130) / 100;
}

/// A unit for every code point (every byte that does not continue one), two for those of four
/// bytes (a surrogate pair).
qint64 utf16LengthOfUtf8(QUtf8StringView utf8)
{
    const char *p = utf8.data();
    const char *const end = p + utf8.size();
    qint64 units = 0;
#if defined(__SSE2__)
    // 16 bytes a step (a tool's output is megabytes): the bytes that continue a code point are
    // those below 0xC0 and from 0x80 (signed: below -64), those that start four from 0xF0
    // (signed: -16 to -1).
    const __m128i continues = _mm_set1_epi8(-64);
    const __m128i startsFourAbove = _mm_set1_epi8(-17);
    const __m128i zero = _mm_setzero_si128();
    for (; end - p >= 16; p += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        if (_mm_movemask_epi8(bytes) == 0) {
            units += 16; // plain ASCII, most of a tool's output: a unit each
            continue;
        }
        const int continuation = _mm_movemask_epi8(_mm_cmplt_epi8(bytes, continues));
        const int four = _mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(bytes, startsFourAbove), _mm_cmplt_epi8(bytes, zero)));
        units += 16 - qPopulationCount(quint32(continuation)) + qPopulationCount(quint32(four));
    }
#endif
    for (; p < end; ++p) {
        const auto byte = uchar(*p);
        units += (byte & 0xC0) != 0x80 ? 1 : 0;
        units += byte >= 0xF0 ? 1 : 0;
    }
    return units;
}
} // namespace

qint64 utf16Length(QAnyStringView text)
{
    return text.visit([](auto view) -> qint64 {
        if constexpr (std::is_same_v<decltype(view), QUtf8StringView>)
            return utf16LengthOfUtf8(view);
        else
            return view.size(); // UTF-16 units, or Latin-1 characters: one unit each
    });
}

qint64 estimateTokens(QAnyStringView text, Estimator estimator)
{
    // Gemini's estimate counts code points by kind, on UTF-16 (the rare estimator decodes).
    const auto gemini = [&text] {
        return text.visit([](auto view) {
            if constexpr (std::is_same_v<decltype(view), QStringView>)
                return geminiEstimate(view);
            else
                return geminiEstimate(view.toString());
        });
    };
    switch (estimator) {
    case Estimator::OpenCode:
        return openCodeEstimate(text);
    case Estimator::Gemini:
        return gemini();
    case Estimator::Auto:
        return std::max(openCodeEstimate(text), gemini());
    }
    return openCodeEstimate(text);
}

// ---------------------------------------------------------------------------------------------
// Settings

bool Settings::envSwitch(const QString &value)
{
    const QString v = value.trimmed();
    return !v.isEmpty() && v != u"0" && v.compare(u"false", Qt::CaseInsensitive) != 0;
}

Result<Settings> Settings::fromConfig(const JsonObject &compaction)
{
    return fromConfig(compaction, [](const char *name) { return qEnvironmentVariable(name); });
}

Result<Settings> Settings::fromConfig(const JsonObject &compaction, const std::function<QString(const char *)> &env)
{
    Settings s;
    auto where = [](const QString &key) { return u"compaction."_s + key; };
    auto boolean = [&](const QString &key, bool &target) -> Result<void> {
        const JsonValue &v = compaction.value(key);
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isBool())
            return Error{CompactionTr::tr("must be true or false"), where(key)};
        target = v.toBool();
        return {};
    };
    auto string = [&](const QString &key, QString &target) -> Result<void> {
        const JsonValue &v = compaction.value(key);
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isString())
            return Error{CompactionTr::tr("must be a string"), where(key)};
        target = v.toString();
        return {};
    };
    if (auto r = boolean(u"auto"_s, s.autoCompact); !r)
        return r.error();
    if (auto r = boolean(u"prune"_s, s.prune); !r)
        return r.error();
    QString strategy, estimator;
    if (auto r = string(u"strategy"_s, strategy); !r)
        return r.error();
    if (!strategy.isEmpty()) {
        const std::optional<Strategy> parsed = strategyFromName(strategy);
        if (!parsed)
            return Error{CompactionTr::tr("unknown strategy \"%1\" (summary or summary-tail)").arg(strategy),
                         where(u"strategy"_s)};
        s.strategy = *parsed;
    }
    if (auto r = string(u"estimator"_s, estimator); !r)
        return r.error();
    if (!estimator.isEmpty()) {
        const std::optional<Estimator> parsed = estimatorFromName(estimator);
        if (!parsed)
            return Error{CompactionTr::tr("unknown estimator \"%1\" (opencode, gemini or auto)").arg(estimator),
                         where(u"estimator"_s)};
        s.estimator = *parsed;
    }
    if (auto r = string(u"prompt"_s, s.prompt); !r)
        return r.error();
    if (auto r = string(u"model"_s, s.model); !r)
        return r.error();
    const JsonValue &reserved = compaction.value(u"reserved");
    if (!reserved.isUndefined() && !reserved.isNull()) {
        if (!reserved.isNumber() || reserved.toDouble() < 0)
            return Error{CompactionTr::tr("must be a number of tokens"), where(u"reserved"_s)};
        s.reserved = reserved.toInteger();
    }

    if (!s.autoCompact)
        s.autoDisabledBy = u"compaction.auto"_s;
    else if (envSwitch(env("OPENCODE_DISABLE_AUTOCOMPACT"))) {
        s.autoCompact = false;
        s.autoDisabledBy = u"OPENCODE_DISABLE_AUTOCOMPACT"_s;
    }
    if (!s.prune)
        s.pruneDisabledBy = u"compaction.prune"_s;
    else if (envSwitch(env("OPENCODE_DISABLE_PRUNE"))) {
        s.prune = false;
        s.pruneDisabledBy = u"OPENCODE_DISABLE_PRUNE"_s;
    }
    return s;
}

JsonObject Settings::toJson() const
{
    JsonObject o{{u"auto"_s, autoCompact}, {u"prune"_s, prune}, {u"strategy"_s, strategyName(strategy)},
                 {u"estimator"_s, estimatorName(estimator)}};
    if (!autoDisabledBy.isEmpty())
        o.insert(u"autoDisabledBy"_s, autoDisabledBy);
    if (!pruneDisabledBy.isEmpty())
        o.insert(u"pruneDisabledBy"_s, pruneDisabledBy);
    if (!model.isEmpty())
        o.insert(u"model"_s, model);
    if (reserved)
        o.insert(u"reserved"_s, *reserved);
    o.insert(u"customPrompt"_s, !prompt.isEmpty());
    return o;
}

// ---------------------------------------------------------------------------------------------
// Overflow

qint64 overflowCount(const Tokens &tokens)
{
    return tokens.input + tokens.cacheRead + tokens.output;
}

qint64 usableContext(qint64 contextLimit, qint64 outputLimit, const Settings &settings)
{
    if (contextLimit <= 0)
        return 0;
    if (settings.reserved)
        return contextLimit - *settings.reserved;
    // Math.min(limit.output, OUTPUT_TOKEN_MAX) || OUTPUT_TOKEN_MAX
    const qint64 output = outputLimit > 0 ? std::min(outputLimit, OutputTokenMax) : OutputTokenMax;
    return contextLimit - output;
}

bool isOverflow(const Tokens &tokens, qint64 contextLimit, qint64 outputLimit, const Settings &settings)
{
    if (!settings.autoCompact)
        return false;
    if (contextLimit <= 0)
        return false;
    return overflowCount(tokens) > usableContext(contextLimit, outputLimit, settings);
}

// ---------------------------------------------------------------------------------------------
// Message sizes

namespace
{
constexpr qint64 FileTokenCap = 1600;

/// Calls @p visit(text, isFile, prunedByPlan) for each piece of text toModelMessages() sends of
/// @p m; prunedByPlan marks a completed output whose part is in @p pruned (still visited with its
/// text: the caller decides).
template<typename Visit>
void forEachModelText(const MessageWithParts &m, const QSet<QString> *pruned, Visit &&visit)
{
    if (m.parts.isEmpty())
        return;
    if (m.info.isUser()) {
        for (const Part &p : m.parts) {
            switch (p.type()) {
            case PartType::Text:
                if (!p.isIgnored())
                    visit(p.textView(), false, false);
                break;
            case PartType::File: {
                const QString mime = p.mime();
                if (mime != u"text/plain" && mime != u"application/x-directory")
                    visit(p.url(), true, false);
                break;
            }
            case PartType::Compaction:
                visit(ModelMessages::CompactionQuestion.toString(), false, false);
                break;
            case PartType::Subtask:
                visit(ModelMessages::SubtaskNote.toString(), false, false);
                break;
            default:
                break;
            }
        }
        return;
    }
    if (m.info.hasError() && !(m.info.error().kind() == MessageError::Kind::Aborted && ModelMessages::hasContent(m)))
        return;
    for (const Part &p : m.parts) {
        switch (p.type()) {
        case PartType::Text:
        case PartType::Reasoning:
            visit(p.textView(), false, false);
            break;
        case PartType::Tool: {
            const ToolState state = p.state();
            visit(p.tool(), false, false);
            const JsonObject input = state.input();
            if (!input.isEmpty())
                visit(QString::fromUtf8(toJson(input, 0)), false, false);
            switch (state.status()) {
            case ToolStatus::Completed:
                if (state.isCompacted())
                    visit(ModelMessages::ClearedToolOutput.toString(), false, false);
                else
                    visit(state.outputView(), false, pruned && pruned->contains(p.id()));
                break;
            case ToolStatus::Error:
                visit(state.errorText(), false, false);
                break;
            default:
                visit(ModelMessages::InterruptedTool.toString(), false, false);
                break;
            }
            break;
        }
        default:
            break;
        }
    }
}
/// One pass over a message: characters, tokens now, and tokens once the outputs in `pruned`
/// are cleared.
struct Measure {
    qint64 chars = 0;
    qint64 tokens = 0;
    qint64 afterPrune = 0;
};

Measure measure(const MessageWithParts &message, Estimator estimator, const QSet<QString> *pruned)
{
    Measure result;
    const qint64 cleared = estimateTokens(ModelMessages::ClearedToolOutput, estimator);
    forEachModelText(message, pruned, [&](QAnyStringView text, bool file, bool prunedByPlan) {
        qint64 t = estimateTokens(text, estimator);
        if (file)
            t = std::min(t, FileTokenCap);
        const qint64 length = utf16Length(text);
        result.chars += file ? std::min<qint64>(length, FileTokenCap * 4) : length;
        result.tokens += t;
        result.afterPrune += prunedByPlan ? cleared : t;
    });
    return result;
}
} // namespace

qint64 messageTokens(const MessageWithParts &message, Estimator estimator, const QSet<QString> *pruned)
{
    return measure(message, estimator, pruned).afterPrune;
}

qint64 messageChars(const MessageWithParts &message)
{
    qint64 chars = 0;
    forEachModelText(message, nullptr, [&](QAnyStringView text, bool file, bool) {
        const qint64 length = utf16Length(text);
        chars += file ? std::min<qint64>(length, FileTokenCap * 4) : length;
    });
    return chars;
}

// ---------------------------------------------------------------------------------------------
// Prune

qint64 PrunePlan::savings() const
{
    if (!willApply())
        return 0;
    const qint64 marker = estimateTokens(ModelMessages::ClearedToolOutput, estimator);
    qint64 saved = 0;
    for (const PruneCandidate &c : parts)
        saved += std::max<qint64>(0, c.tokens - marker);
    return saved;
}

QSet<QString> PrunePlan::partIDs() const
{
    QSet<QString> ids;
    ids.reserve(parts.size());
    for (const PruneCandidate &c : parts)
        ids.insert(c.partID);
    return ids;
}

JsonObject PrunePlan::toJson() const
{
    JsonArray list;
    for (const PruneCandidate &c : parts)
        list.append(JsonObject{{u"id"_s, c.partID}, {u"messageID"_s, c.messageID}, {u"tool"_s, c.tool}, {u"tokens"_s, c.tokens}});
    JsonObject o{{u"sessionID"_s, sessionID}, {u"enabled"_s, enabled}};
    if (!disabledBy.isEmpty())
        o.insert(u"disabledBy"_s, disabledBy);
    o.insert(u"estimator"_s, estimatorName(estimator));
    o.insert(u"protect"_s, PruneProtect);
    o.insert(u"minimum"_s, PruneMinimum);
    o.insert(u"total"_s, total);
    o.insert(u"tokens"_s, pruned);
    o.insert(u"savings"_s, savings());
    o.insert(u"willPrune"_s, willApply());
    o.insert(u"applied"_s, applied);
    o.insert(u"count"_s, qint64(parts.size()));
    o.insert(u"parts"_s, list);
    return o;
}

PrunePlan planPrune(const QList<MessageWithParts> &messages, Estimator estimator)
{
    PrunePlan plan;
    plan.estimator = estimator;
    if (!messages.isEmpty())
        plan.sessionID = messages.first().info.sessionID();
    int turns = 0;
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const MessageWithParts &msg = messages.at(i);
        if (msg.info.isUser())
            ++turns;
        if (turns < 2)
            continue;
        if (msg.info.isAssistant() && msg.info.isSummary())
            break;
        bool stop = false;
        for (qsizetype j = msg.parts.size() - 1; j >= 0; --j) {
            const Part &part = msg.parts.at(j);
            if (part.type() != PartType::Tool)
                continue;
            const ToolState state = part.state();
            if (state.status() != ToolStatus::Completed)
                continue;
            if (protectedTools().contains(part.tool()))
                continue;
            if (state.isCompacted()) {
                stop = true; // OpenCode: `break loop` -- older outputs were pruned before
                break;
            }
            const qint64 estimate = estimateTokens(state.outputView(), estimator);
            plan.total += estimate;
            if (plan.total > PruneProtect) {
                plan.pruned += estimate;
                plan.parts.append({part.id(), msg.info.id(), part.tool(), estimate});
            }
        }
        if (stop)
            break;
    }
    return plan;
}

Result<PrunePlan> prune(SessionService &service, const QString &sessionID, const Settings &settings, bool dryRun, qint64 now)
{
    if (!service.get(sessionID))
        return Error{CompactionTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    const QList<MessageWithParts> messages = service.messages(sessionID);
    PrunePlan plan = planPrune(messages, settings.estimator);
    plan.sessionID = sessionID;
    plan.enabled = settings.prune;
    plan.disabledBy = settings.pruneDisabledBy;
    if (dryRun || !plan.willApply())
        return plan;
    if (service.isReadOnly())
        return Error{CompactionTr::tr("this session is in a read-only store; import it into Weft first"), {}};
    const qint64 stamp = now > 0 ? now : QDateTime::currentMSecsSinceEpoch();
    const QSet<QString> ids = plan.partIDs();
    for (const MessageWithParts &m : messages) {
        for (const Part &p : m.parts) {
            if (!ids.contains(p.id()))
                continue;
            Part changed = p;
            ToolState state = changed.state();
            state.setCompacted(stamp);
            changed.setState(state);
            if (auto r = service.updatePart(changed); !r)
                return r.error();
        }
    }
    plan.applied = true;
    plan.compactedAt = stamp;
    return plan;
}

Result<void> unprune(SessionService &service, const QString &sessionID, const QList<PruneCandidate> &parts)
{
    if (parts.isEmpty())
        return {};
    QSet<QString> ids;
    for (const PruneCandidate &c : parts)
        ids.insert(c.partID);
    const QList<MessageWithParts> messages = service.messages(sessionID);
    for (const MessageWithParts &m : messages) {
        for (const Part &p : m.parts) {
            if (!ids.contains(p.id()))
                continue;
            Part changed = p;
            ToolState state = changed.state();
            JsonObject time = state.json().object(u"time");
            time.remove(u"compacted");
            state.json().insert(u"time"_s, time);
            changed.setState(state);
            if (auto r = service.updatePart(changed); !r)
                return r.error();
        }
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Split point

bool isSplitCandidate(const MessageWithParts &message)
{
    if (!message.info.isUser())
        return false;
    bool content = false;
    for (const Part &p : message.parts) {
        if (p.type() == PartType::Compaction)
            return false;
        if (p.type() != PartType::Subtask)
            content = true;
    }
    return content;
}

namespace
{
bool finishedWithoutToolCalls(const MessageWithParts &m)
{
    if (!m.info.isAssistant() || m.info.finish().isEmpty() || m.info.finish() == u"tool-calls")
        return false;
    for (const Part &p : m.parts) {
        if (p.type() != PartType::Tool)
            continue;
        const ToolStatus status = p.state().status();
        if (status == ToolStatus::Pending || status == ToolStatus::Running)
            return false;
    }
    return true;
}
} // namespace

namespace
{
/// findSplitPoint over the messages at @p indices, with their character counts.
qsizetype splitPoint(const QList<MessageWithParts> &all, const QList<qsizetype> &indices, const QList<qint64> &counts,
                     double fraction, qsizetype firstCandidate)
{
    if (indices.isEmpty())
        return 0;
    qint64 total = 0;
    for (const qint64 c : counts)
        total += c;
    const double target = double(total) * fraction;
    qsizetype lastSplitPoint = 0; // always valid: summarise nothing
    qint64 cumulative = 0;
    for (qsizetype k = 0; k < indices.size(); ++k) {
        if (k >= firstCandidate && isSplitCandidate(all.at(indices.at(k)))) {
            if (double(cumulative) >= target)
                return k;
            lastSplitPoint = k;
        }
        cumulative += counts.at(k);
    }
    // No split point after the target: everything may go when the history ends with a finished
    // answer; otherwise summarise up to the last split point.
    if (finishedWithoutToolCalls(all.at(indices.last())))
        return indices.size();
    return lastSplitPoint;
}

SummaryPlan planSummaryWith(const QList<MessageWithParts> &messages, Strategy strategy, QList<qsizetype> window,
                            const std::function<QList<qint64>(const QList<qsizetype> &)> &chars)
{
    SummaryPlan plan;
    plan.strategy = strategy;
    plan.window = std::move(window);
    plan.split = plan.window.size();
    if (strategy != Strategy::SummaryTail)
        return plan;
    // The kept tail must be stored contiguously up to the new marker: split only after the last
    // compaction's summary (its marker, summary and kept tail are summarised again).
    const ModelMessages::CompactionPoint point = ModelMessages::lastCompaction(messages);
    qsizetype firstCandidate = 0;
    if (point.isValid()) {
        firstCandidate = plan.window.size();
        for (qsizetype k = 0; k < plan.window.size(); ++k) {
            if (plan.window.at(k) > point.summary) {
                firstCandidate = k;
                break;
            }
        }
    }
    plan.split = splitPoint(messages, plan.window, chars(plan.window), 1.0 - PreserveFraction, firstCandidate);
    if (plan.split < plan.window.size())
        plan.tailStartID = messages.at(plan.window.at(plan.split)).info.id();
    return plan;
}
} // namespace

qsizetype findSplitPoint(const QList<MessageWithParts> &messages, double fraction, qsizetype firstCandidate)
{
    QList<qsizetype> indices;
    QList<qint64> counts;
    indices.reserve(messages.size());
    counts.reserve(messages.size());
    for (qsizetype i = 0; i < messages.size(); ++i) {
        indices.append(i);
        counts.append(messageChars(messages.at(i)));
    }
    return splitPoint(messages, indices, counts, fraction, firstCandidate);
}

SummaryPlan planSummary(const QList<MessageWithParts> &messages, Strategy strategy)
{
    return planSummaryWith(messages, strategy, ModelMessages::compactedIndices(messages), [&](const QList<qsizetype> &window) {
        QList<qint64> counts;
        counts.reserve(window.size());
        for (const qsizetype i : window)
            counts.append(messageChars(messages.at(i)));
        return counts;
    });
}

qint64 contextEstimate(const QList<MessageWithParts> &messages, Estimator estimator)
{
    qint64 tokens = 0;
    for (const qsizetype i : ModelMessages::compactedIndices(messages))
        tokens += messageTokens(messages.at(i), estimator);
    return tokens;
}

// ---------------------------------------------------------------------------------------------
// Preview

JsonObject Preview::toJson() const
{
    auto ids = [](const QStringList &list) {
        JsonArray a;
        a.reserve(list.size());
        for (const QString &id : list)
            a.append(id);
        return a;
    };
    JsonObject o{{u"sessionID"_s, sessionID},
                 {u"strategy"_s, strategyName(strategy)},
                 {u"model"_s, model.ref},
                 {u"settings"_s, settings.toJson()},
                 {u"context"_s, JsonObject{{u"limit"_s, model.context}, {u"output"_s, model.output}, {u"usable"_s, usable},
                                           {u"overflow"_s, overflow}}}};
    o.insert(u"tokens"_s, JsonObject{{u"before"_s, tokensBefore},
                                     {u"beforeSource"_s, beforeSource},
                                     {u"estimatedBefore"_s, estimatedBefore},
                                     {u"overhead"_s, overhead},
                                     {u"pruneSavings"_s, prune.savings()},
                                     {u"summary"_s, summaryTokens},
                                     {u"summarySource"_s, summarySource},
                                     {u"after"_s, tokensAfter}});
    o.insert(u"summarize"_s, JsonObject{{u"count"_s, qint64(summarized.size())}, {u"tokens"_s, summarizedTokens},
                                        {u"messages"_s, ids(summarized)}});
    JsonObject keep{{u"count"_s, qint64(kept.size())}, {u"tokens"_s, keptTokens}};
    if (!tailStartID.isEmpty())
        keep.insert(u"tailStartID"_s, tailStartID);
    keep.insert(u"messages"_s, ids(kept));
    o.insert(u"keep"_s, keep);
    JsonObject pruneJson = prune.toJson();
    pruneJson.remove(u"sessionID");
    o.insert(u"prune"_s, pruneJson);
    o.insert(u"canCompact"_s, canCompact());
    if (!problem.isEmpty())
        o.insert(u"problem"_s, problem);
    return o;
}

Preview makePreview(const QString &sessionID, const QList<MessageWithParts> &messages, const Settings &settings,
                    Strategy strategy, const ModelLimits &model)
{
    Preview pv;
    pv.sessionID = sessionID;
    pv.strategy = strategy;
    pv.settings = settings;
    pv.model = model;
    const Estimator e = settings.estimator;

    pv.prune = planPrune(messages, e);
    pv.prune.sessionID = sessionID;
    pv.prune.enabled = settings.prune;
    pv.prune.disabledBy = settings.pruneDisabledBy;
    const QSet<QString> prunedIDs = pv.prune.willApply() ? pv.prune.partIDs() : QSet<QString>();

    // One pass over the context: characters (for the split), tokens now and after the prune.
    const QList<qsizetype> window = ModelMessages::compactedIndices(messages);
    QList<Measure> measures(messages.size());
    for (const qsizetype i : window)
        measures[i] = measure(messages.at(i), e, prunedIDs.isEmpty() ? nullptr : &prunedIDs);
    const SummaryPlan plan = planSummaryWith(messages, strategy, window, [&](const QList<qsizetype> &indices) {
        QList<qint64> counts;
        counts.reserve(indices.size());
        for (const qsizetype i : indices)
            counts.append(measures.at(i).chars);
        return counts;
    });
    pv.tailStartID = plan.tailStartID;
    for (qsizetype k = 0; k < plan.window.size(); ++k) {
        const qsizetype i = plan.window.at(k);
        const Measure &size = measures.at(i);
        pv.estimatedBefore += size.tokens;
        if (k < plan.split) {
            pv.summarized.append(messages.at(i).info.id());
            pv.summarizedTokens += size.afterPrune;
        } else {
            pv.kept.append(messages.at(i).info.id());
            pv.keptTokens += size.afterPrune;
        }
    }

    // Real usage wins: the last answer's input + cache.read + output, plus what came after it.
    pv.tokensBefore = pv.estimatedBefore;
    pv.beforeSource = u"estimate"_s;
    qint64 after = 0;
    for (qsizetype k = plan.window.size() - 1; k >= 0; --k) {
        const qsizetype i = plan.window.at(k);
        const Message &info = messages.at(i).info;
        if (info.isAssistant() && !info.isSummary() && overflowCount(info.tokens()) > 0) {
            pv.tokensBefore = overflowCount(info.tokens()) + after;
            pv.beforeSource = u"usage"_s;
            pv.overhead = std::max<qint64>(0, pv.tokensBefore - pv.estimatedBefore);
            pv.usable = usableContext(model.context, model.output, settings);
            pv.overflow = pv.usable > 0 && overflowCount(info.tokens()) > pv.usable;
            break;
        }
        after += measures.at(i).tokens;
    }
    pv.usable = usableContext(model.context, model.output, settings);

    // The summary's size: what earlier summaries of this session came to, else a tenth.
    qint64 previousSum = 0, previousCount = 0;
    for (const MessageWithParts &m : messages) {
        if (m.info.isAssistant() && m.info.isSummary() && !m.info.finish().isEmpty() && !m.info.hasError()
            && m.info.tokens().output > 0) {
            previousSum += m.info.tokens().output;
            ++previousCount;
        }
    }
    const qint64 outputCap = model.output > 0 ? std::min(model.output, OutputTokenMax) : OutputTokenMax;
    if (previousCount > 0) {
        pv.summaryTokens = std::min(outputCap, previousSum / previousCount);
        pv.summarySource = u"previous-summaries"_s;
    } else {
        pv.summaryTokens = std::clamp<qint64>(pv.summarizedTokens / 10, 256, 4096);
        pv.summaryTokens = std::min({pv.summaryTokens, pv.summarizedTokens, outputCap});
        pv.summarySource = u"heuristic"_s;
    }
    const qint64 question = estimateTokens(ModelMessages::CompactionQuestion, e);
    pv.tokensAfter = pv.overhead + question + pv.summaryTokens + pv.keptTokens;

    if (plan.window.isEmpty())
        pv.problem = u"the session has no messages to summarise"_s;
    else if (pv.summarized.isEmpty())
        pv.problem = u"nothing to summarise: the history is too short to keep a tail (no user message to split at)"_s;
    return pv;
}

// ---------------------------------------------------------------------------------------------
// Undo

namespace
{
bool hasCompactionPart(const MessageWithParts &m)
{
    for (const Part &p : m.parts) {
        if (p.type() == PartType::Compaction)
            return true;
    }
    return false;
}

bool onlySyntheticText(const MessageWithParts &m)
{
    if (m.parts.isEmpty())
        return false;
    for (const Part &p : m.parts) {
        if (p.type() != PartType::Text || !p.isSynthetic())
            return false;
    }
    return true;
}
} // namespace

Result<UndoPlan> planUndo(const QList<MessageWithParts> &messages)
{
    qsizetype marker = -1;
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        if (messages.at(i).info.isUser() && hasCompactionPart(messages.at(i))) {
            marker = i;
            break;
        }
    }
    if (marker < 0)
        return Error{CompactionTr::tr("the session has no compaction to undo"), {}};
    UndoPlan plan;
    plan.markerID = messages.at(marker).info.id();
    plan.removed.append(plan.markerID);
    bool summary = false;
    for (qsizetype i = marker + 1; i < messages.size(); ++i) {
        const MessageWithParts &m = messages.at(i);
        if (m.info.isAssistant() && m.info.isSummary() && m.info.parentID() == plan.markerID) {
            if (!m.info.isCompleted() && !m.info.hasError())
                return Error{CompactionTr::tr("the compaction is still running; stop it instead"), {}};
            summary = true;
            plan.removed.append(m.info.id());
            continue;
        }
        if (summary && m.info.isUser() && onlySyntheticText(m)) {
            plan.removed.append(m.info.id());
            continue;
        }
        if (m.info.isUser())
            return Error{
                CompactionTr::tr(
                    "a prompt was sent after the compaction (message %1); a compaction can only be undone until the "
                    "next prompt")
                    .arg(m.info.id()),
                {}};
        return Error{
            CompactionTr::tr(
                "the agent continued after the compaction (message %1); a compaction can only be undone until the "
                "next prompt")
                .arg(m.info.id()),
            {}};
    }
    return plan;
}

Result<UndoPlan> undo(SessionService &service, const QString &sessionID)
{
    if (!service.get(sessionID))
        return Error{CompactionTr::tr("no session with ID \"%1\"").arg(sessionID), {}};
    if (service.isReadOnly())
        return Error{CompactionTr::tr("this session is in a read-only store; import it into Weft first"), {}};
    Result<UndoPlan> plan = planUndo(service.messages(sessionID));
    if (!plan)
        return plan;
    // Newest first, so that an interrupted undo never leaves a summary without its marker.
    for (qsizetype i = plan->removed.size() - 1; i >= 0; --i) {
        if (auto r = service.removeMessage(sessionID, plan->removed.at(i)); !r)
            return r.error();
    }
    return plan;
}

} // namespace weft::Compaction
