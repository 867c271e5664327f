// SPDX-License-Identifier: GPL-3.0-or-later
// The compaction mode of a run (CompactionRun) with the summary's step played by the test: what a
// completed compaction leaves (marker, summary, the continue message of an automatic one), and
// that a failed or aborted summary, or nothing to summarise, leaves the session as it was.

#include "sessionbuilder.h"

#include "core/identifier.h"
#include "processor/compactionrun.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

class TestCompactionMode : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_data;
    std::shared_ptr<SessionService> m_service;
    QString m_sessionID;
    /// How the summary's step ends (the test plays the model).
    StepResult m_stepResult = StepResult::Stop;
    bool m_aborted = false;
    QList<StepSpec> m_steps;
    QList<std::pair<bool, MessageError>> m_finished;
    int m_started = 0;

    CompactionRun::Host host()
    {
        CompactionRun::Host host;
        host.service = m_service;
        host.session = *m_service->get(m_sessionID);
        host.worktree = m_data->path();
        host.config.resolveModel = [](const QString &) -> Result<ResolvedModel> {
            ResolvedModel model;
            model.providerID = u"fake"_s;
            model.modelID = u"gpt-test"_s;
            return model;
        };
        host.settings = Compaction::Settings::fromConfig({}).value();
        host.runStep = [this](const Message &summary, const StepSpec &spec, StepDone done) {
            m_steps.append(spec);
            Message written = summary;
            if (m_stepResult != StepResult::Failed) {
                (void)m_service->updatePart(Part::makeText(Identifier::ascending(Identifier::Kind::Part), m_sessionID,
                                                           summary.id(), u"The summary."_s));
                written.setFinish(u"stop"_s);
            } else {
                written.setError(MessageError::unknown(u"the provider failed"_s));
            }
            (void)m_service->updateMessage(written);
            done(m_stepResult, written);
        };
        host.writePart = [this](const Part &part) { (void)m_service->updatePart(part); };
        host.writeMessage = [this](const Message &message) { (void)m_service->updateMessage(message); };
        host.aborted = [this] { return m_aborted; };
        host.stepError = [] { return MessageError(); };
        host.summarizeTurn = [](const QString &) {};
        host.started = [this](bool) { ++m_started; };
        host.finished = [this](bool ok, const MessageError &error) { m_finished.append({ok, error}); };
        return host;
    }

    /// Runs a compaction to its end (the test's step ends at once).
    CompactionRun::Compacted compact(bool automatic)
    {
        CompactionRun run(host());
        std::optional<CompactionRun::Compacted> compacted;
        run.run(CompactOptions{automatic, {}, {}}, [&](const CompactionRun::Compacted &c) { compacted = c; });
        if (!compacted)
            return Error{u"did not end"_s, {}};
        return *compacted;
    }

    QStringList messageIDs() const
    {
        QStringList ids;
        for (const MessageWithParts &m : m_service->messages(m_sessionID))
            ids.append(m.info.id());
        return ids;
    }

private Q_SLOTS:
    void init()
    {
        m_data = std::make_unique<QTemporaryDir>();
        auto store = std::make_shared<JsonStore>(m_data->path());
        QVERIFY(store->initialize().ok());
        m_service = std::make_shared<SessionService>(store);
        SessionService::CreateOptions options;
        options.directory = m_data->path();
        const Result<Session> session = m_service->create(options);
        QVERIFY(session.ok());
        m_sessionID = session->id();
        SessionBuilder b(m_sessionID);
        for (int i = 0; i < 3; ++i) {
            b.user(u"question %1"_s.arg(i));
            b.assistant(u"answer %1"_s.arg(i));
        }
        QVERIFY(b.write(*m_service));
        m_stepResult = StepResult::Stop;
        m_aborted = false;
        m_steps.clear();
        m_finished.clear();
        m_started = 0;
    }

    void automaticCompactionContinues()
    {
        const QStringList before = messageIDs();
        const CompactionRun::Compacted compacted = compact(true);
        QVERIFY(compacted.ok());
        QVERIFY(compacted.value().has_value()); // the synthetic continue message
        QCOMPARE(m_started, 1);
        QCOMPARE(m_finished.size(), 1);
        QVERIFY(m_finished.first().first);
        // The summary step offers no tools and asks for a summary.
        QCOMPARE(m_steps.size(), 1);
        QVERIFY(!m_steps.first().tools);
        const QList<MessageWithParts> after = m_service->messages(m_sessionID);
        QCOMPARE(after.size(), before.size() + 3); // marker, summary, continue
        QCOMPARE(after.at(before.size()).parts.first().type(), PartType::Compaction);
        QVERIFY(after.at(before.size() + 1).info.json().boolean(u"summary"));
        QCOMPARE(after.last().info.id(), compacted.value()->id());
        QVERIFY(!m_service->get(m_sessionID)->json().object(u"time"_s).contains(u"compacting"));
    }

    void manualCompactionEndsThere()
    {
        const CompactionRun::Compacted compacted = compact(false);
        QVERIFY(compacted.ok());
        QVERIFY(!compacted.value().has_value());
    }

    void failedSummaryRestoresTheSession()
    {
        const QStringList before = messageIDs();
        m_stepResult = StepResult::Failed;
        QVERIFY(!compact(true).ok());
        QCOMPARE(messageIDs(), before);
        QCOMPARE(m_finished.size(), 1);
        QVERIFY(!m_finished.first().first);
        QCOMPARE(m_finished.first().second.message(), u"the provider failed"_s);
        QVERIFY(!m_service->get(m_sessionID)->json().object(u"time"_s).contains(u"compacting"));
    }

    void abortedSummaryRestoresTheSession()
    {
        const QStringList before = messageIDs();
        // Stopped while the summary streamed.
        const auto step = [this](const Message &summary, const StepSpec &, StepDone done) {
            m_aborted = true;
            done(StepResult::Stop, summary);
        };
        CompactionRun::Host h = host();
        h.runStep = step;
        CompactionRun run(std::move(h));
        std::optional<CompactionRun::Compacted> compacted;
        run.run(CompactOptions{true, {}, {}}, [&](const CompactionRun::Compacted &c) { compacted = c; });
        QVERIFY(compacted && !compacted->ok());
        QCOMPARE(messageIDs(), before);
        QCOMPARE(m_finished.first().second.name(), u"MessageAbortedError"_s);
    }

    void nothingToSummariseIsAnError()
    {
        SessionService::CreateOptions options;
        options.directory = m_data->path();
        m_sessionID = m_service->create(options)->id();
        QVERIFY(!compact(false).ok());
        QVERIFY(m_steps.isEmpty());
        QCOMPARE(m_finished.size(), 1);
        QVERIFY(!m_finished.first().first);
    }
};

QTEST_GUILESS_MAIN(TestCompactionMode)
#include "tst_compactionmode.moc"
