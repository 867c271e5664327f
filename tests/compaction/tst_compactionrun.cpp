// SPDX-License-Identifier: GPL-3.0-or-later
// Compactions through the processor against the loopback LLM server: manual and automatic,
// the settings and environment switches in every path, summary-tail and its refusal, undo,
// preview, abort, and a compaction of the OpenCode 1.1.53 fixture.

#include "fakellmserver.h"
#include "sessionbuilder.h"
#include "testdata.h"

#include "processor/agent.h"
#include "processor/processor.h"
#include "session/modelmessages.h"
#include "session/sessionservice.h"
#include "session/transfer.h"
#include "store/jsonstore.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace
{
const QString FixtureMain = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString FixtureSummary = u"msg_200fa8a3d0012js3ZHCB7qs7Co"_s;
const QString FixtureMarker = u"msg_200fa8a36001tQWWF8DxBmA8py"_s;

QByteArray textReply(const QString &text, qint64 prompt = 1000, qint64 completion = 50)
{
    OpenAiStream s;
    s.role().text(text).finish(u"stop"_s).usage(prompt, completion).done();
    return s.bytes();
}

/// The text of a chat completions message (string content or text parts).
QString contentText(const JsonObject &message)
{
    const JsonValue &content = message.value(u"content");
    if (content.isString())
        return content.toString();
    QString text;
    for (const JsonValue &part : content.toArray())
        text += part.toObject().string(u"text");
    return text;
}

QStringList roles(const JsonArray &messages)
{
    QStringList list;
    for (const JsonValue &m : messages)
        list.append(m.toObject().string(u"role"));
    return list;
}

QByteArray messagesJson(const QList<MessageWithParts> &messages)
{
    JsonArray array;
    for (const MessageWithParts &m : messages)
        array.append(m.toJson());
    return toJson(array, 0);
}

bool hasPart(const MessageWithParts &m, PartType type)
{
    for (const Part &p : m.parts) {
        if (p.type() == type)
            return true;
    }
    return false;
}
} // namespace

class TestCompactionRun : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_data;
    std::unique_ptr<QTemporaryDir> m_project;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<FakeLlmServer> m_server;
    ProcessorConfig m_config;
    qint64 m_contextLimit = 200000;
    qint64 m_outputLimit = 8000;

    void useStore(const QString &dir)
    {
        m_service.reset();
        auto store = std::make_shared<JsonStore>(dir);
        QVERIFY(store->initialize().ok());
        m_service = std::make_shared<SessionService>(store);
        m_config.dataDir = dir;
    }

    std::unique_ptr<Processor> makeProcessor() { return std::make_unique<Processor>(m_service, m_config); }

    QString runPrompt(Processor &processor, const QString &text, const QString &sessionID = {}, bool *ok = nullptr)
    {
        QSignalSpy finished(&processor, &Processor::finished);
        PromptRequest request;
        request.sessionID = sessionID;
        request.directory = m_project->path();
        request.text = text;
        const Result<QString> started = processor.prompt(request);
        if (!started) {
            qWarning() << started.error().toString();
            return {};
        }
        if (!finished.wait(30000) && finished.isEmpty())
            return {};
        if (ok)
            *ok = finished.first().at(1).toBool();
        return started.value();
    }

    /// Runs compact() to the end; returns whether it succeeded (and the error).
    bool runCompact(Processor &processor, const QString &sessionID, const CompactOptions &options = {}, MessageError *error = nullptr)
    {
        QSignalSpy finished(&processor, &Processor::finished);
        const Result<QString> started = processor.compact(sessionID, options);
        if (!started) {
            qWarning() << started.error().toString();
            return false;
        }
        if (!finished.wait(30000) && finished.isEmpty())
            return false;
        if (error)
            *error = finished.first().at(2).value<MessageError>();
        return finished.first().at(1).toBool();
    }

    /// A session with three turns: the first answer carries 30,000 + 40,000 tokens of tool
    /// output (prunable), the later turns small.
    QString bigSession()
    {
        SessionService::CreateOptions options;
        options.directory = m_project->path();
        const Result<Session> session = m_service->create(options);
        if (!session)
            return {};
        SessionBuilder b(session->id());
        b.user(u"read the logs"_s);
        b.assistant(u"reading"_s, u"tool-calls"_s);
        m_oldOutput = b.tool(30000);
        b.tool(40000);
        b.user(u"and now?"_s);
        b.assistant(u"fine"_s);
        b.user(u"summarise"_s);
        b.assistant(u"done"_s);
        if (!b.write(*m_service))
            return {};
        return session->id();
    }
    QString m_oldOutput;

    /// Five small turns (100 characters each side).
    QString smallSession(int turns = 5)
    {
        SessionService::CreateOptions options;
        options.directory = m_project->path();
        const Result<Session> session = m_service->create(options);
        if (!session)
            return {};
        SessionBuilder b(session->id());
        for (int i = 0; i < turns; ++i) {
            b.user(QString(100, QChar(u'a' + i)));
            b.assistant(QString(100, QChar(u'A' + i)));
        }
        if (!b.write(*m_service))
            return {};
        return session->id();
    }

    bool isPruned(const QString &sessionID, const QString &partID)
    {
        for (const MessageWithParts &m : m_service->messages(sessionID)) {
            for (const Part &p : m.parts) {
                if (p.id() == partID)
                    return p.state().isCompacted();
            }
        }
        return false;
    }

private Q_SLOTS:
    void init()
    {
        qunsetenv("OPENCODE_DISABLE_AUTOCOMPACT");
        qunsetenv("OPENCODE_DISABLE_PRUNE");
        m_data = std::make_unique<QTemporaryDir>();
        m_project = std::make_unique<QTemporaryDir>();
        m_config = ProcessorConfig();
        useStore(m_data->path());
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_config.generateTitles = false;
        m_config.snapshots = ProcessorConfig::Snapshots::Never;
        m_config.retryInitialMs = 5;
        m_config.retryMaxMs = 50;
        m_config.maxRetries = 2;
        m_contextLimit = 200000;
        m_outputLimit = 8000;
        const QUrl base = m_server->baseUrl();
        m_config.resolveModel = [this, base](const QString &ref) -> Result<ResolvedModel> {
            if (!ref.isEmpty() && ref != u"fake/gpt-test" && ref != u"fake/small")
                return Error{u"unknown model "_s + ref, {}};
            ResolvedModel m;
            m.providerID = u"fake"_s;
            m.modelID = ref == u"fake/small" ? u"small"_s : u"gpt-test"_s;
            m.settings.providerID = u"fake"_s;
            m.settings.protocol = ProviderProtocol::OpenAiCompatible;
            m.settings.baseURL = base;
            m.settings.apiKey = u"sk-test"_s;
            m.contextLimit = m_contextLimit;
            m.outputLimit = m_outputLimit;
            return m;
        };
    }

    void cleanup()
    {
        qunsetenv("OPENCODE_DISABLE_AUTOCOMPACT");
        qunsetenv("OPENCODE_DISABLE_PRUNE");
        m_service.reset();
        m_server.reset();
    }

    void manualCompaction()
    {
        auto processor = makeProcessor();
        m_server->enqueue(FakeReply::sse(textReply(u"Hello there."_s)));
        const QString id = runPrompt(*processor, u"hello"_s);
        QVERIFY(!id.isEmpty());

        QSignalSpy started(processor.get(), &Processor::compactionStarted);
        QSignalSpy done(processor.get(), &Processor::compactionFinished);
        QSignalSpy compacted(m_service.get(), &SessionService::sessionCompacted);
        bool sawCompacting = false;
        connect(m_service.get(), &SessionService::sessionUpdated, this,
                [&](const Session &s) { sawCompacting = sawCompacting || s.compacting() > 0; });
        m_server->enqueue(FakeReply::sse(textReply(u"## Summary\nWe said hello."_s, 1200, 25)));
        QVERIFY(runCompact(*processor, id));

        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().at(1).toBool(), false);
        QCOMPARE(done.size(), 1);
        QCOMPARE(done.first().at(1).toBool(), true);
        QCOMPARE(compacted.size(), 1);
        QVERIFY(sawCompacting);
        QVERIFY(!m_service->get(id)->time().contains(u"compacting"));

        const QList<MessageWithParts> messages = m_service->messages(id);
        QCOMPARE(messages.size(), 4);
        const MessageWithParts &marker = messages.at(2);
        QVERIFY(marker.info.isUser());
        QCOMPARE(marker.parts.size(), 1);
        QCOMPARE(marker.parts.first().json().keys(), (QStringList{u"id"_s, u"sessionID"_s, u"messageID"_s, u"type"_s, u"auto"_s}));
        QCOMPARE(marker.parts.first().isAuto(), false);
        QCOMPARE(marker.info.modelProviderID(), u"fake"_s);
        const MessageWithParts &summary = messages.at(3);
        QVERIFY(summary.info.isSummary());
        QCOMPARE(summary.info.parentID(), marker.info.id());
        QCOMPARE(summary.info.mode(), u"compaction"_s);
        QCOMPARE(summary.info.agent(), u"compaction"_s);
        QCOMPARE(summary.info.finish(), u"stop"_s);
        QCOMPARE(summary.info.tokens().output, 25);
        QCOMPARE(summary.info.json().keys(),
                 (QStringList{u"id"_s, u"sessionID"_s, u"role"_s, u"time"_s, u"parentID"_s, u"modelID"_s, u"providerID"_s,
                              u"mode"_s, u"agent"_s, u"path"_s, u"summary"_s, u"cost"_s, u"tokens"_s, u"finish"_s}));
        QString text;
        for (const Part &p : summary.parts) {
            if (p.type() == PartType::Text)
                text = p.text();
        }
        QCOMPARE(text, u"## Summary\nWe said hello."_s);

        // The summary request: the compaction prompt, the history, the question and the
        // request; no tools.
        QCOMPARE(m_server->requests().size(), 2);
        const JsonObject request = m_server->requests().at(1).json;
        QVERIFY(request.array(u"tools").isEmpty());
        const JsonArray sent = request.array(u"messages");
        QCOMPARE(roles(sent), (QStringList{u"system"_s, u"user"_s, u"assistant"_s, u"user"_s, u"user"_s}));
        QCOMPARE(contentText(sent.at(0).toObject()), AgentRegistry::promptResource(u"compaction"_s));
        QCOMPARE(contentText(sent.at(1).toObject()), u"hello"_s);
        QCOMPARE(contentText(sent.at(3).toObject()), ModelMessages::CompactionQuestion.toString());
        QCOMPARE(contentText(sent.at(4).toObject()), AgentRegistry::promptResource(u"compaction-request"_s).trimmed());

        // The next prompt continues from the summary only.
        m_server->enqueue(FakeReply::sse(textReply(u"Sure."_s)));
        QCOMPARE(runPrompt(*processor, u"next"_s, id), id);
        const JsonArray next = m_server->requests().at(2).json.array(u"messages");
        QCOMPARE(roles(next), (QStringList{u"system"_s, u"user"_s, u"assistant"_s, u"user"_s}));
        QCOMPARE(contentText(next.at(1).toObject()), ModelMessages::CompactionQuestion.toString());
        QCOMPARE(contentText(next.at(2).toObject()), u"## Summary\nWe said hello."_s);
        QCOMPARE(contentText(next.at(3).toObject()), u"next"_s);
    }

    void compactionOptions()
    {
        m_config.compaction = JsonObject{{u"prompt"_s, u"CUSTOM SUMMARY PROMPT"_s}, {u"model"_s, u"fake/small"_s}};
        const QString id = smallSession(2);
        auto processor = makeProcessor();
        m_server->enqueue(FakeReply::sse(textReply(u"short"_s)));
        QVERIFY(runCompact(*processor, id));
        const JsonObject request = m_server->requests().first().json;
        QCOMPARE(request.string(u"model"), u"small"_s);
        QCOMPARE(contentText(request.array(u"messages").at(0).toObject()), u"CUSTOM SUMMARY PROMPT"_s);
        QCOMPARE(m_service->messages(id).last().info.modelID(), u"small"_s);

        // An explicit model wins over the config's.
        m_server->enqueue(FakeReply::sse(textReply(u"short again"_s)));
        CompactOptions options;
        options.model = u"fake/gpt-test"_s;
        QVERIFY(runCompact(*processor, id, options));
        QCOMPARE(m_server->requests().at(1).json.string(u"model"), u"gpt-test"_s);

        // Refusals before any run.
        QVERIFY(!processor->compact(u"ses_doesnotexist000000000000"_s).ok());
        options.model = u"nope/none"_s;
        MessageError error;
        QVERIFY(!runCompact(*processor, id, options, &error));
        QVERIFY(error.message().contains(u"unknown model"));
        m_config.compaction = JsonObject{{u"strategy"_s, u"bogus"_s}};
        auto invalid = makeProcessor();
        const Result<QString> refused = invalid->compact(id);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().where, u"compaction.strategy"_s);
    }

    void autoContinue()
    {
        // usable = 10000 - 1000 = 9000; the first step reports 9,500 tokens.
        m_contextLimit = 10000;
        m_outputLimit = 1000;
        const QString id = bigSession();
        QVERIFY(!id.isEmpty());
        auto processor = makeProcessor();
        QSignalSpy started(processor.get(), &Processor::compactionStarted);
        m_server->enqueue(FakeReply::sse(textReply(u"First answer."_s, 9450, 51)));
        m_server->enqueue(FakeReply::sse(textReply(u"## Summary of it all"_s, 9000, 40)));
        m_server->enqueue(FakeReply::sse(textReply(u"Nothing left to do."_s, 500, 10)));
        bool ok = false;
        QCOMPARE(runPrompt(*processor, u"go on"_s, id, &ok), id);
        QVERIFY(ok);
        QCOMPARE(m_server->requests().size(), 3);
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().at(1).toBool(), true);

        // Pruned before the summary was asked for: the request carries the cleared marker.
        QVERIFY(isPruned(id, m_oldOutput));
        const QByteArray summaryRequest = m_server->requests().at(1).body;
        QVERIFY(summaryRequest.contains("[Old tool result content cleared]"));
        QVERIFY(m_server->requests().at(1).json.array(u"tools").isEmpty());

        const QList<MessageWithParts> messages = m_service->messages(id);
        QCOMPARE(messages.size(), 12);
        const MessageWithParts &prompt = messages.at(6);
        QCOMPARE(prompt.parts.first().text(), u"go on"_s);
        QCOMPARE(messages.at(7).info.parentID(), prompt.info.id());
        const MessageWithParts &marker = messages.at(8);
        QVERIFY(hasPart(marker, PartType::Compaction));
        QCOMPARE(marker.parts.first().isAuto(), true);
        QVERIFY(messages.at(9).info.isSummary());
        const MessageWithParts &continued = messages.at(10);
        QVERIFY(continued.info.isUser());
        QVERIFY(continued.parts.first().isSynthetic());
        QCOMPARE(continued.parts.first().text(), Compaction::ContinueText.toString());
        const MessageWithParts &last = messages.at(11);
        QCOMPARE(last.info.parentID(), continued.info.id());
        QCOMPARE(last.info.finish(), u"stop"_s);

        // The step after the compaction sees the summary and the continue text only.
        const JsonArray next = m_server->requests().at(2).json.array(u"messages");
        QCOMPARE(roles(next), (QStringList{u"system"_s, u"user"_s, u"assistant"_s, u"user"_s}));
        QCOMPARE(contentText(next.at(2).toObject()), u"## Summary of it all"_s);
        QCOMPARE(contentText(next.at(3).toObject()), Compaction::ContinueText.toString());
    }

    void settingsInEveryPath_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QByteArray>("envName");
        QTest::addColumn<QByteArray>("envValue");
        QTest::addColumn<bool>("compacts");
        QTest::addColumn<bool>("prunes");
        QTest::addRow("defaults") << "{}"_ba << QByteArray() << QByteArray() << true << true;
        QTest::addRow("config auto false") << "{\"auto\": false}"_ba << QByteArray() << QByteArray() << false << true;
        QTest::addRow("env autocompact 1") << "{}"_ba << "OPENCODE_DISABLE_AUTOCOMPACT"_ba << "1"_ba << false << true;
        QTest::addRow("env autocompact true") << "{\"auto\": true}"_ba << "OPENCODE_DISABLE_AUTOCOMPACT"_ba << "true"_ba << false << true;
        QTest::addRow("env autocompact 0") << "{}"_ba << "OPENCODE_DISABLE_AUTOCOMPACT"_ba << "0"_ba << true << true;
        QTest::addRow("config prune false") << "{\"prune\": false}"_ba << QByteArray() << QByteArray() << true << false;
        QTest::addRow("env prune 1") << "{}"_ba << "OPENCODE_DISABLE_PRUNE"_ba << "1"_ba << true << false;
        QTest::addRow("both off") << "{\"auto\": false, \"prune\": false}"_ba << QByteArray() << QByteArray() << false << false;
    }

    void settingsInEveryPath()
    {
        // The in-loop overflow path, the prune before a summary and the prune after a run.
        QFETCH(QByteArray, config);
        QFETCH(QByteArray, envName);
        QFETCH(QByteArray, envValue);
        QFETCH(bool, compacts);
        QFETCH(bool, prunes);
        m_config.compaction = parseJson(config)->toObject();
        if (!envName.isEmpty())
            qputenv(envName.constData(), envValue);
        m_contextLimit = 10000;
        m_outputLimit = 1000;
        const QString id = bigSession();
        auto processor = makeProcessor();
        QSignalSpy started(processor.get(), &Processor::compactionStarted);
        m_server->enqueue(FakeReply::sse(textReply(u"Over the limit."_s, 9500, 50)));
        if (compacts) {
            m_server->enqueue(FakeReply::sse(textReply(u"## Summary"_s, 9000, 40)));
            m_server->enqueue(FakeReply::sse(textReply(u"Done."_s, 500, 10)));
        }
        bool ok = false;
        QCOMPARE(runPrompt(*processor, u"go on"_s, id, &ok), id);
        QVERIFY(ok);
        QCOMPARE(m_server->requests().size(), compacts ? 3 : 1);
        QCOMPARE(started.size(), compacts ? 1 : 0);
        bool marker = false;
        for (const MessageWithParts &m : m_service->messages(id))
            marker = marker || hasPart(m, PartType::Compaction);
        QCOMPARE(marker, compacts);
        // Pruned before the summary (compacts) or at the end of the run (OpenCode's prune).
        QCOMPARE(isPruned(id, m_oldOutput), prunes);
        if (compacts)
            QCOMPARE(m_server->requests().at(1).body.contains("[Old tool result content cleared]"), prunes);
        // A preview reports the same settings.
        const Result<Compaction::Preview> preview = processor->previewCompaction(id);
        QVERIFY(preview.ok());
        QCOMPARE(preview->settings.autoCompact, compacts);
        QCOMPARE(preview->settings.prune, prunes);
        // Nor does an explicit prune ignore the switch.
        const Result<Compaction::PrunePlan> plan = processor->prune(id);
        QVERIFY(plan.ok());
        QCOMPARE(plan->enabled, prunes);
    }

    void contextOverflowError_data()
    {
        QTest::addColumn<bool>("autoOn");
        QTest::addRow("auto on: compact and retry") << true;
        QTest::addRow("auto off: the error stands") << false;
    }

    void contextOverflowError()
    {
        QFETCH(bool, autoOn);
        if (!autoOn)
            m_config.compaction = JsonObject{{u"auto"_s, false}};
        const QString id = smallSession(3);
        auto processor = makeProcessor();
        m_server->enqueue(FakeReply::json(400, "{\"error\": {\"message\": \"prompt is too long: 250000 tokens > 200000 maximum\"}}"));
        if (autoOn) {
            m_server->enqueue(FakeReply::sse(textReply(u"## Summary"_s)));
            m_server->enqueue(FakeReply::sse(textReply(u"Fits now."_s)));
        }
        QSignalSpy finished(processor.get(), &Processor::finished);
        bool ok = false;
        QCOMPARE(runPrompt(*processor, u"more"_s, id, &ok), id);
        QCOMPARE(ok, autoOn);
        QCOMPARE(m_server->requests().size(), autoOn ? 3 : 1);
        if (!autoOn) {
            QCOMPARE(finished.first().at(2).value<MessageError>().name(), u"ContextOverflowError"_s);
            for (const MessageWithParts &m : m_service->messages(id))
                QVERIFY(!hasPart(m, PartType::Compaction));
        } else {
            QCOMPARE(m_service->messages(id).last().info.finish(), u"stop"_s);
        }
    }

    void summaryTail()
    {
        const QString id = smallSession(5);
        const QList<MessageWithParts> before = m_service->messages(id);
        auto processor = makeProcessor();
        m_server->enqueue(FakeReply::sse(textReply(u"<state_snapshot>short</state_snapshot>"_s)));
        CompactOptions options;
        options.strategy = Compaction::Strategy::SummaryTail;
        QVERIFY(runCompact(*processor, id, options));
        const QList<MessageWithParts> messages = m_service->messages(id);
        QCOMPARE(messages.size(), 12);
        const Part marker = messages.at(10).parts.first();
        QCOMPARE(marker.type(), PartType::Compaction);
        QCOMPARE(marker.json().keys(), (QStringList{u"id"_s, u"sessionID"_s, u"messageID"_s, u"type"_s, u"auto"_s, u"tail_start_id"_s}));
        QCOMPARE(marker.json().string(u"tail_start_id"), before.at(8).info.id());

        // Gemini's prompt and request; only the older messages were sent.
        const JsonArray sent = m_server->requests().first().json.array(u"messages");
        QCOMPARE(contentText(sent.at(0).toObject()), AgentRegistry::promptResource(u"summary-tail"_s));
        QCOMPARE(contentText(sent.at(sent.size() - 1).toObject()), Compaction::SnapshotRequest.toString());
        QCOMPARE(sent.size(), 1 + 8 + 1 + 1);

        // The context now: the question, the snapshot, the kept tail.
        QCOMPARE(messageIds(ModelMessages::filterCompacted(messages)),
                 (QStringList{messages.at(10).info.id(), messages.at(11).info.id(), before.at(8).info.id(), before.at(9).info.id()}));
        m_server->enqueue(FakeReply::sse(textReply(u"ok"_s)));
        QCOMPARE(runPrompt(*processor, u"next"_s, id), id);
        const JsonArray next = m_server->requests().at(1).json.array(u"messages");
        QCOMPARE(roles(next), (QStringList{u"system"_s, u"user"_s, u"assistant"_s, u"user"_s, u"assistant"_s, u"user"_s}));
        QCOMPARE(contentText(next.at(3).toObject()), QString(100, u'e'));
    }

    void summaryTailInflatedIsRefused()
    {
        const QString id = smallSession(5);
        const QMap<QString, QByteArray> before = snapshotTree(m_data->path() + u"/storage"_s);
        auto processor = makeProcessor();
        QSignalSpy errors(m_service.get(), &SessionService::sessionError);
        QSignalSpy done(processor.get(), &Processor::compactionFinished);
        m_server->enqueue(FakeReply::sse(textReply(QString(20000, u's'))));
        CompactOptions options;
        options.strategy = Compaction::Strategy::SummaryTail;
        MessageError error;
        QVERIFY(!runCompact(*processor, id, options, &error));
        QVERIFY2(error.message().startsWith(u"Compaction refused"), qPrintable(error.message()));
        QCOMPARE(errors.size(), 1);
        QCOMPARE(done.size(), 1);
        QCOMPARE(done.first().at(1).toBool(), false);
        // The history is as it was, to the byte.
        QCOMPARE(snapshotTree(m_data->path() + u"/storage"_s), before);
    }

    void summaryTailTooShort()
    {
        const QString id = smallSession(1);
        const QMap<QString, QByteArray> before = snapshotTree(m_data->path() + u"/storage"_s);
        auto processor = makeProcessor();
        CompactOptions options;
        options.strategy = Compaction::Strategy::SummaryTail;
        // One turn that ends with an answer: everything may be summarised, nothing is kept.
        m_server->enqueue(FakeReply::sse(textReply(u"s"_s)));
        QVERIFY(runCompact(*processor, id, options));
        QVERIFY(!m_service->messages(id).at(2).parts.first().json().contains(u"tail_start_id"));
        // A session that is only a question cannot be split: nothing is sent.
        SessionService::CreateOptions create;
        create.directory = m_project->path();
        const Result<Session> lone = m_service->create(create);
        SessionBuilder b(lone->id());
        b.user(u"just a question"_s);
        QVERIFY(b.write(*m_service));
        MessageError error;
        QVERIFY(!runCompact(*processor, lone->id(), options, &error));
        QVERIFY(error.message().contains(u"Nothing to summarise"));
        QCOMPARE(m_server->requests().size(), 1);
        Q_UNUSED(before)
    }

    void undo()
    {
        auto processor = makeProcessor();
        m_server->enqueue(FakeReply::sse(textReply(u"Hi."_s)));
        const QString id = runPrompt(*processor, u"hello"_s);
        const QByteArray before = messagesJson(m_service->messages(id));
        m_server->enqueue(FakeReply::sse(textReply(u"## Summary"_s)));
        QVERIFY(runCompact(*processor, id));
        QCOMPARE(m_service->messages(id).size(), 4);
        QVERIFY(processor->canUndoCompaction(id).ok());
        QSignalSpy removed(m_service.get(), &SessionService::messageRemoved);
        const Result<Compaction::UndoPlan> undone = processor->undoCompaction(id);
        QVERIFY(undone.ok());
        QCOMPARE(undone->removed.size(), 2);
        QCOMPARE(removed.size(), 2);
        QCOMPARE(messagesJson(m_service->messages(id)), before);

        // Compact again, then send a prompt: too late to undo.
        m_server->enqueue(FakeReply::sse(textReply(u"## Summary"_s)));
        QVERIFY(runCompact(*processor, id));
        m_server->enqueue(FakeReply::sse(textReply(u"Later."_s)));
        runPrompt(*processor, u"later"_s, id);
        const Result<Compaction::UndoPlan> refused = processor->undoCompaction(id);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.contains(u"a prompt was sent after the compaction"));
        QCOMPARE(m_service->messages(id).size(), 6);
    }

    void undoAutomatic()
    {
        // An automatic compaction continues with the agent at once: its answer makes undo too late.
        m_contextLimit = 10000;
        m_outputLimit = 1000;
        const QString id = smallSession(2);
        auto processor = makeProcessor();
        m_server->enqueue(FakeReply::sse(textReply(u"big"_s, 9500, 50)));
        m_server->enqueue(FakeReply::sse(textReply(u"## Summary"_s)));
        m_server->enqueue(FakeReply::sse(textReply(u"done"_s)));
        runPrompt(*processor, u"go"_s, id);
        const Result<Compaction::UndoPlan> refused = processor->undoCompaction(id);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.contains(u"the agent continued"));
    }

    void previewChangesNothing()
    {
        FixtureDataDir fixture;
        useStore(fixture.path());
        const QMap<QString, QByteArray> before = snapshotTree(fixture.path());
        auto processor = makeProcessor();
        for (const Compaction::Strategy strategy : {Compaction::Strategy::Summary, Compaction::Strategy::SummaryTail}) {
            CompactOptions options;
            options.strategy = strategy;
            const Result<Compaction::Preview> preview = processor->previewCompaction(FixtureMain, options);
            QVERIFY(preview.ok());
            const JsonObject json = preview->toJson();
            QCOMPARE(json.string(u"model"), u"fake/gpt-test"_s);
            // The fixture was compacted once: the window starts at its marker.
            const JsonArray summarised = json.object(u"summarize").array(u"messages");
            QVERIFY(!summarised.isEmpty());
            QCOMPARE(summarised.at(0).toString(), FixtureMarker);
            QCOMPARE(json.object(u"tokens").string(u"beforeSource"), u"usage"_s);
            QVERIFY(json.object(u"tokens").integer(u"after") < json.object(u"tokens").integer(u"before"));
        }
        QVERIFY(processor->prune(FixtureMain, true).ok());
        QVERIFY(processor->canUndoCompaction(FixtureMain).ok() == false); // later prompts exist
        QVERIFY(!processor->previewCompaction(u"ses_doesnotexist000000000000"_s).ok());
        QCOMPARE(snapshotTree(fixture.path()), before);
        QCOMPARE(m_server->requests().size(), 0);
    }

    void abortDuringCompaction()
    {
        auto processor = makeProcessor();
        m_server->enqueue(FakeReply::sse(textReply(u"Hi."_s)));
        const QString id = runPrompt(*processor, u"hello"_s);
        const QMap<QString, QByteArray> before = snapshotTree(m_data->path() + u"/storage"_s);
        FakeReply hanging = FakeReply::sse(OpenAiStream().role().text(u"## Summ"_s).bytes());
        hanging.hang = true;
        m_server->enqueue(hanging);
        QSignalSpy finished(processor.get(), &Processor::finished);
        QSignalSpy done(processor.get(), &Processor::compactionFinished);
        QVERIFY(processor->compact(id).ok());
        QVERIFY(processor->isBusy(id));
        QVERIFY(!processor->compact(id).ok()); // busy
        QTRY_VERIFY_WITH_TIMEOUT(m_service->messages(id).size() == 4 && m_service->messages(id).at(3).parts.size() >= 2, 10000);
        QVERIFY(m_service->get(id)->compacting() > 0);
        processor->abort(id);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QCOMPARE(finished.first().at(2).value<MessageError>().name(), u"MessageAbortedError"_s);
        QCOMPARE(done.size(), 1);
        QVERIFY(!processor->isBusy(id));
        // The session is as it was.
        QCOMPARE(snapshotTree(m_data->path() + u"/storage"_s), before);
    }

    void fixtureCompactionExport()
    {
        FixtureDataDir fixture;
        useStore(fixture.path());
        auto processor = makeProcessor();
        const QList<MessageWithParts> original = m_service->messages(FixtureMain);
        m_server->enqueue(FakeReply::sse(textReply(u"## Summary\nAll of it."_s, 3000, 30)));
        QVERIFY(runCompact(*processor, FixtureMain));

        const Result<JsonObject> exported = Transfer::exportSession(*m_service, FixtureMain);
        QVERIFY(exported.ok());
        QVERIFY(Transfer::validateExport(exported.value()).isEmpty());
        const JsonArray messages = exported->array(u"messages");
        QCOMPARE(messages.size(), original.size() + 2);
        const JsonObject marker = messages.at(messages.size() - 2).toObject();
        const JsonObject summary = messages.at(messages.size() - 1).toObject();

        // The same field names, in the same order, as OpenCode 1.1.53 wrote for its compaction.
        JsonObject fixtureMarker, fixtureSummary;
        for (const MessageWithParts &m : original) {
            if (m.info.id() == FixtureMarker)
                fixtureMarker = m.toJson();
            if (m.info.id() == FixtureSummary)
                fixtureSummary = m.toJson();
        }
        QVERIFY(!fixtureSummary.isEmpty());
        QCOMPARE(summary.object(u"info").keys(), fixtureSummary.object(u"info").keys());
        QCOMPARE(summary.object(u"info").value(u"summary").toBool(), true);
        QCOMPARE(summary.object(u"info").string(u"mode"), u"compaction"_s);
        QStringList markerKeys = fixtureMarker.object(u"info").keys();
        markerKeys.removeAll(u"summary"_s); // the turn's diffs: only with snapshots
        QCOMPARE(marker.object(u"info").keys(), markerKeys);
        const JsonObject part = marker.array(u"parts").at(0).toObject();
        QCOMPARE(part.keys(), fixtureMarker.array(u"parts").at(0).toObject().keys());
        QCOMPARE(part.string(u"type"), u"compaction"_s);
        QStringList partTypes;
        for (const JsonValue &p : summary.array(u"parts"))
            partTypes.append(p.toObject().string(u"type"));
        QCOMPARE(partTypes, (QStringList{u"step-start"_s, u"text"_s, u"step-finish"_s}));

        // And the session's context is the new summary.
        QCOMPARE(ModelMessages::compactionStart(m_service->messages(FixtureMain)), original.size());
    }
};

QTEST_GUILESS_MAIN(TestCompactionRun)
#include "tst_compactionrun.moc"
