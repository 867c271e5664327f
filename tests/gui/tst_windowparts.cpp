// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of the main window, each without the window: the wording of prompt and operation
// errors (ErrorWording).

#include "errorwording.h"

#include "core/types.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

Q_DECLARE_METATYPE(weft::SessionController::PromptResult::Status)
Q_DECLARE_METATYPE(weft::SessionController::Operation)

class TestWindowParts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void promptNotSent_data();
    void promptNotSent();
    void operationFailed_data();
    void operationFailed();
    void runAndCompactionFailures();
    void interruptedRuns();
};

void TestWindowParts::promptNotSent_data()
{
    using Status = SessionController::PromptResult::Status;
    QTest::addColumn<Status>("status");
    // What the text must name (separated by |); empty: no text (the prompt was sent).
    QTest::addColumn<QString>("names");
    QTest::addRow("sent") << Status::Sent << QString();
    QTest::addRow("not runnable") << Status::NotRunnable << u"read-only|Import it into Weft"_s;
    QTest::addRow("no model") << Status::NoModel << u"No model is configured|/cfg/opencode.json|--config FILE"_s;
    QTest::addRow("unknown model") << Status::UnknownModel
                                   << u"The model acme/big cannot be used: no such provider|/cfg/opencode.json"_s;
    QTest::addRow("no API key") << Status::NoApiKey
                                << u"The provider anthropic of the model anthropic/claude has no API key|Set ANTHROPIC_API_KEY or "
                                   u"WEFT_KEY|/cfg/opencode.json"_s;
    QTest::addRow("failed") << Status::Failed << u"The prompt could not be sent: no such provider"_s;
}

void TestWindowParts::promptNotSent()
{
    QFETCH(SessionController::PromptResult::Status, status);
    QFETCH(QString, names);
    SessionController::PromptResult result;
    result.status = status;
    result.error = u"no such provider"_s;
    result.providerID = u"anthropic"_s;
    result.model = u"anthropic/claude"_s;
    result.env = {u"ANTHROPIC_API_KEY"_s, u"WEFT_KEY"_s};
    const QString text = ErrorWording::promptNotSent(result, u"acme/big"_s, u"/cfg/opencode.json"_s);
    if (names.isEmpty()) {
        QVERIFY2(text.isEmpty(), qPrintable(text));
        return;
    }
    for (const QString &name : names.split(u'|'))
        QVERIFY2(text.contains(name), qPrintable(text + u" lacks "_s + name));
}

void TestWindowParts::operationFailed_data()
{
    using Operation = SessionController::Operation;
    QTest::addColumn<Operation>("operation");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("text");
    QTest::addRow("fork") << Operation::Fork << u"Fork"_s << u"The session could not be forked:\ndisk full"_s;
    QTest::addRow("import") << Operation::Import << u"Copy into Weft"_s
                            << u"The session could not be copied into Weft:\ndisk full"_s;
    QTest::addRow("undo compaction") << Operation::UndoCompaction << u"Undo Compaction"_s
                                     << u"The compaction could not be undone:\ndisk full"_s;
    // The changes pane that asked for a revert says why it failed.
    QTest::addRow("revert") << Operation::Revert << QString() << QString();
    QTest::addRow("unrevert") << Operation::Unrevert << u"Unrevert"_s
                              << u"The reverted messages could not be brought back:\ndisk full"_s;
    // Notices: no title.
    QTest::addRow("connect") << Operation::Connect << QString()
                             << u"Weft cannot connect to the OpenCode server: disk full"_s;
    QTest::addRow("server request") << Operation::ServerRequest << QString()
                                    << u"The OpenCode server refused: disk full"_s;
}

void TestWindowParts::operationFailed()
{
    QFETCH(SessionController::Operation, operation);
    QFETCH(QString, title);
    QFETCH(QString, text);
    const ErrorWording::Text failure = ErrorWording::operationFailed(operation, u"disk full"_s);
    QCOMPARE(failure.title, title);
    QCOMPARE(failure.text, text);
}

void TestWindowParts::runAndCompactionFailures()
{
    QCOMPARE(ErrorWording::runFailed(MessageError()), u"The run failed."_s);
    QCOMPARE(ErrorWording::runFailed(MessageError::unknown(u"overloaded"_s)), u"The run failed: overloaded"_s);
    QCOMPARE(ErrorWording::compactionRunFailed(MessageError()), u"The compaction ended without a summary."_s);
    QCOMPARE(ErrorWording::compactionRunFailed(MessageError::api(u"boom"_s, 500, false)),
             u"The compaction failed: boom"_s);
    QCOMPARE(ErrorWording::compactionFailed(MessageError::aborted(u"stopped"_s)),
             u"The compaction was cancelled; the session is as it was."_s);
    QCOMPARE(ErrorWording::compactionFailed(MessageError::api(u"boom"_s, 500, false)),
             u"The compaction failed; the session is as it was: boom"_s);
}

void TestWindowParts::interruptedRuns()
{
    QCOMPARE(ErrorWording::interruptedRuns(1),
             u"Closed 1 interrupted run whose process ended before finishing; what was written is kept."_s);
    QCOMPARE(ErrorWording::interruptedRuns(3),
             u"Closed 3 interrupted runs whose process ended before finishing; what was written is kept."_s);
}

QTEST_MAIN(TestWindowParts)
#include "tst_windowparts.moc"
