// SPDX-License-Identifier: GPL-3.0-or-later
// The compaction mode of a run (CompactionRun), and SessionRun's use of it: a manual compaction,
// an automatic one, the prune at the end of a run.
#include "compactionrun.h"
#include "sessionrun.h"

#include "session/sessionstore.h"
#include "core/identifier.h"
#include "core/logging.h"
#include "core/tr.h"
#include "session/modelmessages.h"
#include "session/sessionservice.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace weft
{

void SessionRun::pruneAfterRun()
{
    // OpenCode prunes at the end of every loop (SessionCompaction.prune), unless disabled.
    if (!m_settings.prune)
        return;
    Result<Compaction::PrunePlan> pruned = Compaction::prune(*m_service, m_session.id(), m_settings);
    if (!pruned)
        qCWarning(lcProcessor).noquote() << "prune failed:" << pruned.error().toString();
    else if (pruned->applied)
        qCInfo(lcProcessor).noquote() << "pruned" << pruned->parts.size() << "tool outputs," << pruned->pruned
                                      << "tokens";
}

Result<ResolvedModel> resolveCompactionModel(const ProcessorConfig &config, const Compaction::Settings &settings,
                                             SessionService &service, const QString &sessionID,
                                             const QString &requested)
{
    if (!requested.isEmpty())
        return config.resolveModel(requested);
    if (!settings.model.isEmpty())
        return config.resolveModel(settings.model);
    if (const std::optional<Agent> agent = config.agents.find(u"compaction"_s); agent && !agent->model.isEmpty())
        return config.resolveModel(agent->model);
    // OpenCode: the model of the last user message.
    const QList<Message> messages = storeOf(service)->messages(sessionID);
    for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
        if (it->isUser() && !it->modelProviderID().isEmpty()) {
            if (Result<ResolvedModel> model = config.resolveModel(it->modelProviderID() + u'/' + it->modelModelID()))
                return model;
            break;
        }
    }
    return config.resolveModel({});
}

CompactionRun::CompactionRun(Host host)
    : m_host(std::move(host))
{
}

void CompactionRun::run(const CompactOptions &options, std::function<void(const Compacted &)> done)
{
    const QString sid = m_host.session.id();
    m_host.started(options.automatic);
    qCInfo(lcProcessor).noquote() << (options.automatic ? "automatic" : "manual") << "compaction of" << sid;

    const Result<ResolvedModel> model = resolveCompactionModel(m_host.config, m_host.settings, *m_host.service, sid, options.model);
    if (!model)
        return done(fail(
            MessageError::unknown(ProcessorTr::tr("cannot compact: %1").arg(model.error().toString())), true));
    const Compaction::Strategy strategy = options.strategy.value_or(m_host.settings.strategy);

    // Prune first, so that the summary request itself fits.
    const QList<Compaction::PruneCandidate> pruned = pruneBeforeSummary();
    if (m_host.aborted()) {
        unprune(pruned);
        return done(fail(MessageError::aborted(u"The operation was aborted."_s), false));
    }

    const QList<MessageWithParts> history = m_host.service->messages(sid);
    const Compaction::SummaryPlan plan = Compaction::planSummary(history, strategy);
    if (plan.summarized().isEmpty()) {
        unprune(pruned);
        return done(fail(
            MessageError::unknown(history.isEmpty()
                                      ? ProcessorTr::tr("Nothing to compact: the session has no messages")
                                      : ProcessorTr::tr("Nothing to summarise: the history is too short to keep a "
                                                        "tail (no user message to split at)")),
            true));
    }
    const qint64 before = Compaction::contextEstimate(history, m_host.settings.estimator);

    const MessageWithParts marker = writeMarker(history, model.value(), options.automatic, plan.tailStartID);
    Message summary
        = Message::makeAssistant(Identifier::ascending(Identifier::Kind::Message), sid, now(), marker.info.id(),
                                 model->providerID, model->modelID, u"compaction"_s, m_host.session.directory(), m_host.worktree);
    summary.json().insertAfter(u"path", u"summary"_s, true);
    m_host.writeMessage(summary);

    QList<MessageWithParts> summarised;
    for (const qsizetype i : plan.summarized())
        summarised.append(history.at(i));
    summarised.append(marker);
    const bool automatic = options.automatic;
    m_host.runStep(summary, summaryStep(model.value(), strategy, summarised),
            [this, sid, marker, pruned, strategy, before, automatic, done = std::move(done)](StepResult result,
                                                                                             const Message &summary) {
                // A compaction that did not complete leaves the session as it was.
                auto restore = [&] { rollback(summary.id(), marker.info.id(), pruned); };
                if (m_host.aborted()) {
                    restore();
                    return done(fail(MessageError::aborted(u"The operation was aborted."_s), false));
                }
                if (result == StepResult::Failed || summary.hasError()) {
                    const MessageError error = m_host.stepError().isNull() ? summary.error() : m_host.stepError();
                    restore();
                    return done(fail(error, false)); // runStep announced the error
                }
                if (strategy == Compaction::Strategy::SummaryTail) {
                    // Gemini CLI refuses a compression that inflates the history.
                    const qint64 after = Compaction::contextEstimate(m_host.service->messages(sid), m_host.settings.estimator);
                    if (after >= before) {
                        restore();
                        return done(fail(
                            MessageError::unknown(
                                ProcessorTr::tr("Compaction refused: the summary and the kept messages (~%1 tokens) "
                                                "are not smaller than the history they would replace (~%2 tokens); "
                                                "the history was kept as it was")
                                    .arg(after)
                                    .arg(before)),
                            true));
                    }
                }
                done(complete(marker.info, automatic));
            });
}

CompactionRun::Compacted CompactionRun::fail(const MessageError &error, bool report)
{
    if (report)
        m_host.service->reportError(m_host.session.id(), error);
    m_host.finished(false, error);
    return Error{error.message(), {}};
}

QList<Compaction::PruneCandidate> CompactionRun::pruneBeforeSummary()
{
    if (!m_host.settings.prune)
        return {};
    const Result<Compaction::PrunePlan> plan = Compaction::prune(*m_host.service, m_host.session.id(), m_host.settings);
    if (!plan) {
        qCWarning(lcProcessor).noquote() << "prune failed:" << plan.error().toString();
        return {};
    }
    return plan->applied ? plan->parts : QList<Compaction::PruneCandidate>();
}

void CompactionRun::unprune(const QList<Compaction::PruneCandidate> &pruned)
{
    if (auto r = Compaction::unprune(*m_host.service, m_host.session.id(), pruned); !r)
        qCWarning(lcProcessor).noquote() << "cannot undo the prune:" << r.error().toString();
}

MessageWithParts CompactionRun::writeMarker(const QList<MessageWithParts> &history, const ResolvedModel &model,
                                                   bool automatic, const QString &tailStartID)
{
    const QString sid = m_host.session.id();
    // The marker carries the agent and model of the last prompt, as OpenCode's create() does.
    QString agent = u"build"_s, providerID = model.providerID, modelID = model.modelID;
    for (auto it = history.crbegin(); it != history.crend(); ++it) {
        if (it->info.isUser() && !it->info.modelProviderID().isEmpty()) {
            agent = it->info.agent().isEmpty() ? agent : it->info.agent();
            providerID = it->info.modelProviderID();
            modelID = it->info.modelModelID();
            break;
        }
    }
    const Message marker
        = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), sid, now(), agent, providerID, modelID);
    m_host.writeMessage(marker);
    Part part = Part::make(Identifier::ascending(Identifier::Kind::Part), sid, marker.id(), PartType::Compaction);
    part.json().insert(u"auto"_s, automatic);
    if (!tailStartID.isEmpty())
        part.json().insert(u"tail_start_id"_s, tailStartID);
    m_host.writePart(part);
    (void)m_host.service->update(
        sid, [&](Session &s) { s.setTimeField(u"compacting"_s, now()); }, false);
    return MessageWithParts{marker, {part}};
}

StepSpec CompactionRun::summaryStep(const ResolvedModel &model, Compaction::Strategy strategy,
                                             const QList<MessageWithParts> &summarised) const
{
    // The request: the summary prompt, the history to summarise with the marker's question, and
    // the request to summarise; no tools.
    const std::optional<Agent> compactionAgent = m_host.config.agents.find(u"compaction"_s);
    QString system = m_host.settings.prompt;
    if (system.isEmpty()) {
        if (strategy == Compaction::Strategy::SummaryTail)
            system = AgentRegistry::promptResource(u"summary-tail"_s);
        else
            system = compactionAgent ? compactionAgent->prompt : AgentRegistry::promptResource(u"compaction"_s);
    }
    StepSpec spec;
    spec.model = model;
    spec.tools = false;
    if (compactionAgent) {
        spec.temperature = compactionAgent->temperature;
        spec.topP = compactionAgent->topP;
    }
    spec.messages.append(LlmMessage::system(system));
    spec.messages += ModelMessages::toModelMessages(summarised);
    spec.messages.append(LlmMessage::user(strategy == Compaction::Strategy::SummaryTail
                                              ? Compaction::SnapshotRequest.toString()
                                              : AgentRegistry::promptResource(u"compaction-request"_s).trimmed()));
    return spec;
}

void CompactionRun::clearCompacting()
{
    (void)m_host.service->update(
        m_host.session.id(), [](Session &s) { s.removeTimeField(u"compacting"); }, false);
}

void CompactionRun::rollback(const QString &summaryID, const QString &markerID,
                                    const QList<Compaction::PruneCandidate> &pruned)
{
    if (auto r = m_host.service->removeMessage(m_host.session.id(), summaryID); !r)
        qCWarning(lcProcessor).noquote() << "cannot remove the summary:" << r.error().toString();
    if (auto r = m_host.service->removeMessage(m_host.session.id(), markerID); !r)
        qCWarning(lcProcessor).noquote() << "cannot remove the compaction message:" << r.error().toString();
    unprune(pruned);
    clearCompacting();
}

std::optional<Message> CompactionRun::complete(const Message &marker, bool automatic)
{
    const QString sid = m_host.session.id();
    m_host.summarizeTurn(marker.id());
    clearCompacting();
    std::optional<Message> continued;
    if (automatic) {
        Message next = Message::makeUser(Identifier::ascending(Identifier::Kind::Message), sid, now(), marker.agent(),
                                         marker.modelProviderID(), marker.modelModelID());
        m_host.writeMessage(next);
        m_host.writePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), sid, next.id(),
                                 Compaction::ContinueText.toString(), true));
        continued = next;
    }
    m_host.service->announceCompacted(sid);
    m_host.finished(true, MessageError());
    return continued;
}

void SessionRun::compactNow(const CompactOptions &options, std::function<void(const Compacted &)> done)
{
    CompactionRun::Host host;
    host.service = m_service;
    host.session = m_session;
    host.worktree = m_worktree;
    host.config = m_config;
    host.settings = m_settings;
    host.runStep = [this](const Message &summary, const StepSpec &spec, StepDone done) {
        runStep(summary, spec, std::move(done));
    };
    host.writePart = [this](const Part &part) { writePart(part); };
    host.writeMessage = [this](const Message &message) { (void)stored(m_service->updateMessage(message)); };
    host.aborted = [this] { return aborted(); };
    host.stepError = [this] { return m_lastError; };
    host.summarizeTurn = [this](const QString &userMessageID) { summarize(userMessageID, false); };
    host.started = [this](bool automatic) {
        flushDeltas();
        Q_EMIT compactionStarted(m_session.id(), automatic);
    };
    host.finished = [this](bool ok, const MessageError &error) {
        if (!ok)
            m_lastError = error;
        Q_EMIT compactionFinished(m_session.id(), ok, error);
    };
    m_compaction = std::make_unique<CompactionRun>(std::move(host));
    m_compaction->run(options, std::move(done));
}

void SessionRun::runCompactionOnly()
{
    (void)prepareWorkspace();
    compactNow(m_compactOptions, [this](const Compacted &compacted) {
        if (!compacted)
            return endCompactionOnly(false);
        if (!compacted.value())
            return endCompactionOnly(true);
        // An automatic compaction lets the agent continue from the synthetic message.
        const Message next = *compacted.value();
        m_request.agent = next.agent();
        m_request.model = next.modelProviderID() + u'/' + next.modelModelID();
        fetchInstructions([this, next] {
            if (Result<void> prepared = prepare(); !prepared) {
                m_lastError = MessageError::unknown(prepared.error().toString());
                m_service->reportError(m_session.id(), m_lastError);
                return endCompactionOnly(false);
            }
            m_userMessageID = next.id();
            runLoop(next, [this](bool ok) {
                pruneAfterRun();
                endCompactionOnly(ok);
            });
        });
    });
}

void SessionRun::endCompactionOnly(bool ok)
{
    const QString sid = m_session.id();
    if (ok)
        summarize(QString(), true);
    for (const QString &turn : std::as_const(m_turns))
        summarize(turn, false);
    if (!m_userMessageID.isEmpty())
        summarize(m_userMessageID, false);
    if (leftUnfinished()) {
        ok = false;
        m_lastError = storageFailure();
    }
    if (ok)
        (void)m_service->touch(sid);
    finish(ok);
}

} // namespace weft
