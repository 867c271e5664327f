// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The compaction mode of a run (OpenCode's SessionCompaction.process): prune, the compaction
// marker, the summary streamed as a step of the run, and the rollback of one that did not
// complete. Used by SessionRun for a manual compaction (Processor::compact) and an automatic one.

#include "compaction/compaction.h"
#include "processor.h"
#include "step.h"

#include <functional>
#include <memory>
#include <optional>

namespace weft
{

class SessionService;

class CompactionRun
{
public:
    /// What a compaction needs from its run.
    struct Host {
        std::shared_ptr<SessionService> service;
        Session session;
        QString worktree;
        ProcessorConfig config;
        Compaction::Settings settings;
        /// Streams the summary as a step of the run.
        std::function<void(const Message &summary, const StepSpec &spec, StepDone done)> runStep;
        /// Stores a part or a message (a failed write stops the run).
        std::function<void(const Part &part)> writePart;
        std::function<void(const Message &message)> writeMessage;
        std::function<bool()> aborted;
        /// The error the last step failed with (null: none).
        std::function<MessageError()> stepError;
        /// The diffs of the turn of a user message (after a compaction that completed).
        std::function<void(const QString &userMessageID)> summarizeTurn;
        /// The compaction begins (deltas flushed, compactionStarted), and how it ended.
        std::function<void(bool automatic)> started;
        std::function<void(bool ok, const MessageError &error)> finished;
    };
    /// The synthetic continue message of an automatic compaction (nullopt for a manual one), or
    /// the error after the session was restored.
    using Compacted = Result<std::optional<Message>>;

    explicit CompactionRun(Host host);

    /// Prunes, then streams a summary (see Processor::compact); @p done follows once it has
    /// completed or the session was restored.
    void run(const CompactOptions &options, std::function<void(const Compacted &)> done);

private:
    Compacted fail(const MessageError &error, bool report);
    /// Prune before a summary; returns what it cleared (to restore on failure).
    QList<Compaction::PruneCandidate> pruneBeforeSummary();
    void unprune(const QList<Compaction::PruneCandidate> &pruned);
    /// The user message with the `compaction` part; sets `time.compacting` on the session.
    MessageWithParts writeMarker(const QList<MessageWithParts> &history, const ResolvedModel &model, bool automatic,
                                 const QString &tailStartID);
    [[nodiscard]] StepSpec summaryStep(const ResolvedModel &model, Compaction::Strategy strategy,
                                       const QList<MessageWithParts> &summarised) const;
    void clearCompacting();
    void rollback(const QString &summaryID, const QString &markerID, const QList<Compaction::PruneCandidate> &pruned);
    /// Ends a compaction that succeeded; returns the synthetic continue message of an automatic one.
    std::optional<Message> complete(const Message &marker, bool automatic);

    Host m_host;
};

/// The model a compaction of @p sessionID uses: @p requested, else `compaction.model`, else the
/// compaction agent's model, else the model of the session's last user message, else the default.
[[nodiscard]] Result<ResolvedModel> resolveCompactionModel(const ProcessorConfig &config,
                                                           const Compaction::Settings &settings,
                                                           SessionService &service, const QString &sessionID,
                                                           const QString &requested);

} // namespace weft
