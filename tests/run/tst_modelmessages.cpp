// SPDX-License-Identifier: GPL-3.0-or-later
#include "testdata.h"

#include "session/modelmessages.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QTest>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{
MessageWithParts user(const QString &id, const QList<Part> &parts)
{
    return {Message::makeUser(id, u"ses_x"_s, 1, u"build"_s, u"p"_s, u"m"_s), parts};
}
MessageWithParts assistant(const QString &id, const QString &parent, const QList<Part> &parts, bool summary = false,
                           const QString &finish = u"stop"_s)
{
    Message m = Message::makeAssistant(id, u"ses_x"_s, 2, parent, u"p"_s, u"m"_s, u"build"_s, u"/"_s, u"/"_s);
    if (summary)
        m.json().insert(u"summary"_s, true);
    m.setFinish(finish);
    return {m, parts};
}
Part text(const QString &id, const QString &t)
{
    return Part::makeText(id, u"ses_x"_s, u"msg_x"_s, t);
}
Part tool(const QString &id, const ToolState &state)
{
    Part p = Part::make(id, u"ses_x"_s, u"msg_x"_s, PartType::Tool);
    p.json().insert(u"callID"_s, QString(u"call_"_s + id));
    p.json().insert(u"tool"_s, u"bash"_s);
    p.setState(state);
    return p;
}
Part compaction(const QString &id)
{
    Part p = Part::make(id, u"ses_x"_s, u"msg_x"_s, PartType::Compaction);
    p.json().insert(u"auto"_s, false);
    return p;
}
} // namespace

class TestModelMessages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void conversion()
    {
        ToolState done = ToolState::completed({}, u"full output"_s, u"t"_s, {}, 1, 2);
        ToolState pruned = done;
        pruned.setCompacted(3);
        const QList<MessageWithParts> history{
            user(u"msg_1"_s, {text(u"prt_1"_s, u"hello"_s)}),
            assistant(u"msg_2"_s, u"msg_1"_s,
                      {text(u"prt_2"_s, u"hi"_s), tool(u"prt_3"_s, done), tool(u"prt_4"_s, pruned),
                       tool(u"prt_5"_s, ToolState::error({}, u"failed!"_s, 1, 2)), tool(u"prt_6"_s, ToolState::running({}, 1))}),
        };
        const QList<LlmMessage> out = ModelMessages::toModelMessages(history);
        QCOMPARE(out.size(), 3);
        QCOMPARE(out.at(0).role, LlmMessage::Role::User);
        QCOMPARE(out.at(0).text(), u"hello"_s);
        QCOMPARE(out.at(1).role, LlmMessage::Role::Assistant);
        QCOMPARE(out.at(1).parts.size(), 5); // text + 4 calls
        QCOMPARE(out.at(2).role, LlmMessage::Role::Tool);
        const QList<LlmPart> results = out.at(2).parts;
        QCOMPARE(results.size(), 4);
        QCOMPARE(results.at(0).text, u"full output"_s);
        QCOMPARE(results.at(1).text, ModelMessages::ClearedToolOutput.toString());
        QCOMPARE(results.at(2).text, u"failed!"_s);
        QVERIFY(results.at(2).isError);
        QCOMPARE(results.at(3).text, ModelMessages::InterruptedTool.toString());
    }

    void erroredAssistantSkippedUnlessAbortedWithContent()
    {
        MessageWithParts failed = assistant(u"msg_2"_s, u"msg_1"_s, {text(u"prt_2"_s, u"partial"_s)});
        failed.info.setError(MessageError::api(u"x"_s, 500, true));
        MessageWithParts aborted = assistant(u"msg_3"_s, u"msg_1"_s, {text(u"prt_3"_s, u"kept"_s)});
        aborted.info.setError(MessageError::aborted(u"stop"_s));
        const QList<LlmMessage> out =
            ModelMessages::toModelMessages({user(u"msg_1"_s, {text(u"prt_1"_s, u"q"_s)}), failed, aborted});
        QCOMPARE(out.size(), 2);
        QCOMPARE(out.at(1).text(), u"kept"_s);
    }

    void filterCompacted_data()
    {
        QTest::addColumn<bool>("finished");
        QTest::addColumn<int>("expected");
        QTest::addRow("completed compaction") << true << 3;
        QTest::addRow("summary still streaming") << false << 5;
    }

    void filterCompacted()
    {
        QFETCH(bool, finished);
        QFETCH(int, expected);
        const QList<MessageWithParts> history{
            user(u"msg_1"_s, {text(u"prt_1"_s, u"old"_s)}),
            assistant(u"msg_2"_s, u"msg_1"_s, {text(u"prt_2"_s, u"old answer"_s)}),
            user(u"msg_3"_s, {compaction(u"prt_3"_s)}),
            assistant(u"msg_4"_s, u"msg_3"_s, {text(u"prt_4"_s, u"summary"_s)}, true, finished ? u"stop"_s : QString()),
            user(u"msg_5"_s, {text(u"prt_5"_s, u"new"_s)}),
        };
        const QList<MessageWithParts> kept = ModelMessages::filterCompacted(history);
        QCOMPARE(kept.size(), expected);
        if (finished) {
            QCOMPARE(kept.first().info.id(), u"msg_3"_s);
            const QList<LlmMessage> out = ModelMessages::toModelMessages(kept);
            QCOMPARE(out.first().text(), ModelMessages::CompactionQuestion.toString());
        }
    }

    void severalCompactionsKeepTheLast()
    {
        const QList<MessageWithParts> history{
            user(u"msg_1"_s, {compaction(u"prt_1"_s)}),
            assistant(u"msg_2"_s, u"msg_1"_s, {text(u"prt_2"_s, u"s1"_s)}, true),
            user(u"msg_3"_s, {text(u"prt_3"_s, u"q"_s)}),
            user(u"msg_4"_s, {compaction(u"prt_4"_s)}),
            assistant(u"msg_5"_s, u"msg_4"_s, {text(u"prt_5"_s, u"s2"_s)}, true),
        };
        QCOMPARE(ModelMessages::compactionStart(history), 3);
    }

    void fixtureConversation()
    {
        // The fixture's main session has a manual compaction followed by more turns.
        test::FixtureDataDir dir;
        auto store = std::make_shared<JsonStore>(dir.path());
        SessionService service(store);
        const QList<MessageWithParts> all = service.messages(u"ses_dff058141ffeXJnTNzT8vnXcKt"_s);
        const qsizetype start = ModelMessages::compactionStart(all);
        QVERIFY(start > 0);
        bool hasCompaction = false;
        for (const Part &p : all.at(start).parts)
            hasCompaction = hasCompaction || p.type() == PartType::Compaction;
        QVERIFY(hasCompaction);
        QVERIFY(ModelMessages::toModelMessages(all.mid(start)).size() >= 2);
    }
};

QTEST_GUILESS_MAIN(TestModelMessages)
#include "tst_modelmessages.moc"
