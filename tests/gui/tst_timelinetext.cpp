// SPDX-License-Identifier: GPL-3.0-or-later
// Selecting and copying the text of the painted timeline (issue 17), driven with the mouse and
// the keyboard as a user would: drag across paragraphs, code and messages, Ctrl+C, double and
// triple clicks, Shift+click, dragging past the edge, a code block's copy button, links, Escape.
#include "guitest.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QClipboard>
#include <QMenu>
#include <QMimeData>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString Question = u"msg_300000000001AAAAAAAAAAAAAA"_s;
const QString Answer = u"msg_300000000002AAAAAAAAAAAAAA"_s;
const QString QuestionText = u"Please explain how the parser reads a fenced block."_s;
const QString AnswerText = u"The parser reads line by line.\n\n"
                           "It keeps the fence and its language:\n\n"
                           "```cpp\nint fence = 3;\nreturn fence;\n```\n\n"
                           "See https://spec.commonmark.org/0.31.2/ for the rules."_s;
const QString CodeText = u"int fence = 3;\nreturn fence;"_s;
} // namespace

class TestTimelineText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void dragSelectsAcrossMessages();
    void doubleAndTripleClick();
    void shiftClickExtends();
    void selectAllAndEscape();
    void dragPastTheEdgeScrolls();
    void copyButtonOnCodeBlocks();
    void contextMenuCopies();
    void linksStillOpen();

private:
    /// Where the text of part @p partID of message @p messageID is (viewport coordinates).
    QRect textRect(const QString &messageID, const QString &partID) const;
    QModelIndex row(const QString &messageID) const;
    /// The viewport point of character @p pos of the one text block of @p messageID.
    QPoint pointOf(const QString &messageID, int pos) const;

    QTemporaryDir m_settings;
    std::unique_ptr<QTemporaryDir> m_data;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<TimelineModel> m_model;
    std::unique_ptr<TimelineView> m_view;
    QString m_questionPart;
    QString m_answerPart;
};

void TestTimelineText::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
}

void TestTimelineText::init()
{
    m_data = std::make_unique<QTemporaryDir>();
    m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
    SessionService::CreateOptions options;
    options.directory = m_data->path();
    options.title = u"Parser questions"_s;
    options.now = 1795312700000;
    const auto created = test::ownRead([&] { return m_service->create(options); });
    QVERIFY(created);
    const QString Session = created->id();
    Message user = Message::makeUser(Question, Session, 1795312700000, u"build"_s, u"fake"_s, u"m1"_s);
    QVERIFY(m_service->updateMessage(user));
    m_questionPart = u"prt_300000000001AAAAAAAAAAAAAA"_s;
    QVERIFY(m_service->updatePart(Part::makeText(m_questionPart, Session, Question, QuestionText)));
    Message reply = Message::makeAssistant(Answer, Session, 1795312710000, Question, u"fake"_s, u"m1"_s, u"build"_s,
                                           m_data->path(), m_data->path());
    reply.setCompleted(1795312720000);
    QVERIFY(m_service->updateMessage(reply));
    m_answerPart = u"prt_300000000002AAAAAAAAAAAAAA"_s;
    QVERIFY(m_service->updatePart(Part::makeText(m_answerPart, Session, Answer, AnswerText)));

    m_model = std::make_unique<TimelineModel>(m_service.get());
    m_view = std::make_unique<TimelineView>();
    m_view->setTimelineModel(m_model.get());
    m_view->resize(760, 700);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    QSignalSpy loaded(m_model.get(), &TimelineModel::loaded);
    m_model->setSessionID(Session);
    QVERIFY(loaded.wait(5000));
    QCOMPARE(m_view->model()->rowCount(), 2);
    m_view->scrollToTop();
    QApplication::clipboard()->clear();
}

void TestTimelineText::cleanup()
{
    m_view.reset();
    m_model.reset();
    m_service.reset();
    m_data.reset();
}

QModelIndex TestTimelineText::row(const QString &messageID) const
{
    return m_view->model()->index(m_model->indexForId(messageID).row(), 0);
}

QRect TestTimelineText::textRect(const QString &messageID, const QString &partID) const
{
    const QModelIndex index = row(messageID);
    return m_view->timelineDelegate()->partRect(index, partID).translated(m_view->visualRect(index).topLeft());
}

QPoint TestTimelineText::pointOf(const QString &messageID, int pos) const
{
    // The character's place, found by walking the block until the text point there is pos.
    const QModelIndex index = row(messageID);
    const QRect rect = textRect(messageID, messageID == Question ? m_questionPart : m_answerPart);
    const QPoint origin = m_view->visualRect(index).topLeft();
    for (int y = rect.top() + 2; y < rect.bottom(); y += 3) {
        for (int x = rect.left(); x < rect.right(); ++x) {
            const auto point = m_view->timelineDelegate()->textPointAt(index, QPoint(x, y) - origin);
            if (point.pos == pos)
                return {x, y};
        }
    }
    return {};
}

void TestTimelineText::dragSelectsAcrossMessages()
{
    QWidget *viewport = m_view->viewport();
    // From the start of the question to the word "fence" in the answer's code block.
    const QPoint from = pointOf(Question, 0);
    const QRect answer = textRect(Answer, m_answerPart);
    QVERIFY(!from.isNull());
    QVERIFY(answer.isValid());
    // The first line of the code: found by moving down the answer until the selection holds "int".
    QTest::mousePress(viewport, Qt::LeftButton, {}, from);
    QVERIFY(!m_view->timelineDelegate()->hasTextSelection());
    QString selected;
    for (int y = answer.top(); y < answer.bottom() && !selected.contains(u"int fence"_s); y += 2) {
        QTest::mouseMove(viewport, QPoint(answer.left() + 120, y));
        selected = m_view->timelineDelegate()->selectedText();
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, QPoint(answer.left() + 120, answer.top()));
    QVERIFY2(selected.startsWith(QuestionText + u"\n\nThe parser reads line by line.\nIt keeps the fence"_s),
             qPrintable(selected));
    QVERIFY(selected.contains(u"int fence"_s));
    QVERIFY(!selected.contains(u"return"_s));
    QVERIFY(m_view->timelineDelegate()->hasTextSelection());
    // Ctrl+C puts exactly that on the clipboard, as plain text and HTML.
    m_view->setFocus();
    QTest::keyClick(m_view.get(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), m_view->timelineDelegate()->selectedText());
    QVERIFY(QApplication::clipboard()->mimeData()->hasHtml());
    QVERIFY(QApplication::clipboard()->mimeData()->html().contains(u"Please explain"_s));
    // The selection is painted: the highlight colour is in the question's text.
    const QRect q = textRect(Question, m_questionPart);
    const auto highlighted = [&] {
        const QImage shot = viewport->grab().toImage();
        const QColor highlight = m_view->palette().color(QPalette::Highlight);
        int count = 0;
        for (int x = q.left(); x < q.right(); ++x)
            count += QColor(shot.pixel(x, q.center().y())) == highlight ? 1 : 0;
        return count;
    };
    // (Between the glyphs, which are drawn in the highlighted-text colour.)
    QVERIFY2(highlighted() > 60, qPrintable(QString::number(highlighted())));
    // A plain click elsewhere drops it; nothing selected, Ctrl+C copies the current message.
    QTest::mouseClick(viewport, Qt::LeftButton, {}, pointOf(Question, 3));
    QVERIFY(!m_view->timelineDelegate()->hasTextSelection());
    QCOMPARE(highlighted(), 0);
    QTest::keyClick(m_view.get(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), QuestionText);
}

void TestTimelineText::doubleAndTripleClick()
{
    QWidget *viewport = m_view->viewport();
    // "explain" starts at 7.
    const QPoint word = pointOf(Question, 9);
    QVERIFY(!word.isNull());
    QTest::mouseDClick(viewport, Qt::LeftButton, {}, word);
    QCOMPARE(m_view->timelineDelegate()->selectedText(), u"explain"_s);
    // A third press right after: the whole paragraph.
    QTest::mousePress(viewport, Qt::LeftButton, {}, word);
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, word);
    QCOMPARE(m_view->timelineDelegate()->selectedText(), QuestionText);
}

void TestTimelineText::shiftClickExtends()
{
    QWidget *viewport = m_view->viewport();
    QTest::mouseClick(viewport, Qt::LeftButton, {}, pointOf(Question, 7));
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::ShiftModifier, pointOf(Question, 14));
    QCOMPARE(m_view->timelineDelegate()->selectedText(), u"explain"_s);
    // Backwards from the anchor.
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::ShiftModifier, pointOf(Question, 0));
    QCOMPARE(m_view->timelineDelegate()->selectedText(), u"Please "_s);
}

void TestTimelineText::selectAllAndEscape()
{
    m_view->setFocus();
    QTest::keyClick(m_view.get(), Qt::Key_A, Qt::ControlModifier);
    const QString all = m_view->timelineDelegate()->selectedText();
    QVERIFY2(all.startsWith(QuestionText + u"\n\n"_s), qPrintable(all));
    QVERIFY(all.contains(CodeText));
    QVERIFY(all.endsWith(u"for the rules."_s));
    QTest::keyClick(m_view.get(), Qt::Key_Escape);
    QVERIFY(!m_view->timelineDelegate()->hasTextSelection());
}

void TestTimelineText::dragPastTheEdgeScrolls()
{
    // A short window: the answer is below the fold. Dragging below the bottom edge scrolls and
    // selects down to the end of the last message.
    m_view->resize(760, 140);
    m_view->scrollToTop();
    QTRY_VERIFY(m_view->verticalScrollBar()->maximum() > 0);
    m_view->scrollToTop();
    QCOMPARE(m_view->verticalScrollBar()->value(), 0);
    QWidget *viewport = m_view->viewport();
    QTest::mousePress(viewport, Qt::LeftButton, {}, pointOf(Question, 0));
    QTest::mouseMove(viewport, QPoint(200, viewport->height() + 80));
    QTRY_COMPARE(m_view->verticalScrollBar()->value(), m_view->verticalScrollBar()->maximum());
    QTRY_VERIFY(m_view->timelineDelegate()->selectedText().endsWith(u"for the rules."_s));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, QPoint(200, viewport->height() - 1));
    QVERIFY(m_view->timelineDelegate()->selectedText().startsWith(QuestionText));
}

void TestTimelineText::copyButtonOnCodeBlocks()
{
    QWidget *viewport = m_view->viewport();
    const QModelIndex index = row(Answer);
    const QRect rect = m_view->visualRect(index);
    // The code block: the first point whose hit is in a code group.
    QPoint inCode;
    QPoint button;
    for (int y = rect.top(); y < rect.bottom() && button.isNull(); y += 2) {
        for (int x = rect.left(); x < rect.right() && button.isNull(); x += 4) {
            const auto hit = m_view->timelineDelegate()->hitTest(index, QPoint(x, y) - rect.topLeft());
            if (hit.codeGroup == 1 && inCode.isNull())
                inCode = {x, y};
            if (hit.kind == TimelineDelegate::Hit::Kind::CopyCode)
                button = {x + 4, y + 4};
        }
    }
    QVERIFY(!inCode.isNull());
    QVERIFY(!button.isNull());
    // Hidden until the mouse is over the block: hovering shows it (the painted pixels change).
    const QImage before = viewport->grab().toImage();
    QTest::mouseMove(viewport, inCode);
    QTRY_VERIFY(viewport->grab().toImage() != before);
    QSignalSpy copied(m_view->timelineDelegate(), &TimelineDelegate::codeCopied);
    QTest::mouseMove(viewport, button);
    QTest::mouseClick(viewport, Qt::LeftButton, {}, button);
    QCOMPARE(copied.size(), 1);
    QCOMPARE(QApplication::clipboard()->text(), CodeText);
    // A click on the button neither selects text nor expands anything.
    QVERIFY(!m_view->timelineDelegate()->hasTextSelection());
}

void TestTimelineText::contextMenuCopies()
{
    const QPoint word = pointOf(Question, 9);
    QTest::mouseDClick(m_view->viewport(), Qt::LeftButton, {}, word);
    QVERIFY(m_view->timelineDelegate()->hasTextSelection());
    // With a selection, the menu copies it and, separately, the message under the mouse.
    std::unique_ptr<QMenu> menu(m_view->createContextMenu(row(Answer), nullptr, textRect(Answer, m_answerPart).center()));
    QAction *message = menu->findChild<QAction *>(u"copyMessageText"_s);
    QVERIFY(message);
    message->trigger();
    QCOMPARE(QApplication::clipboard()->text(), row(Answer).data(TimelineModel::TextRole).toString());
    m_view->copyTextAction()->trigger();
    QCOMPARE(QApplication::clipboard()->text(), u"explain"_s);
    // On a code block, "Copy Code Block".
    const QModelIndex index = row(Answer);
    const QRect rect = m_view->visualRect(index);
    QPoint inCode;
    for (int y = rect.top(); y < rect.bottom() && inCode.isNull(); y += 2) {
        if (m_view->timelineDelegate()->hitTest(index, QPoint(rect.left() + 80, y) - rect.topLeft()).codeGroup == 1)
            inCode = {rect.left() + 80, y};
    }
    QVERIFY(!inCode.isNull());
    menu.reset(m_view->createContextMenu(index, nullptr, inCode));
    QAction *code = menu->findChild<QAction *>(u"copyCodeBlock"_s);
    QVERIFY(code);
    code->trigger();
    QCOMPARE(QApplication::clipboard()->text(), CodeText);
    // Elsewhere in the message there is no such item.
    menu.reset(m_view->createContextMenu(index, nullptr, pointOf(Answer, 2)));
    QVERIFY(!menu->findChild<QAction *>(u"copyCodeBlock"_s));
}

void TestTimelineText::linksStillOpen()
{
    const QModelIndex index = row(Answer);
    const QRect rect = m_view->visualRect(index);
    QPoint link;
    for (int y = rect.top(); y < rect.bottom() && link.isNull(); y += 2) {
        for (int x = rect.left(); x < rect.right() && link.isNull(); x += 3) {
            if (m_view->timelineDelegate()->hitTest(index, QPoint(x, y) - rect.topLeft()).kind
                == TimelineDelegate::Hit::Kind::Link)
                link = {x, y};
        }
    }
    QVERIFY(!link.isNull());
    QSignalSpy activated(m_view->timelineDelegate(), &TimelineDelegate::linkActivated);
    // The view opens http links with the desktop; the test watches the delegate's signal only.
    disconnect(m_view->timelineDelegate(), &TimelineDelegate::linkActivated, m_view.get(), nullptr);
    QTest::mouseClick(m_view->viewport(), Qt::LeftButton, {}, link);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.first().first().toString(), u"https://spec.commonmark.org/0.31.2/"_s);
    // A drag that starts in the text and ends on the link selects; it does not open the link.
    QTest::mousePress(m_view->viewport(), Qt::LeftButton, {}, pointOf(Answer, 0));
    QTest::mouseMove(m_view->viewport(), link);
    QTest::mouseRelease(m_view->viewport(), Qt::LeftButton, {}, link);
    QCOMPARE(activated.size(), 1);
    QVERIFY(m_view->timelineDelegate()->hasTextSelection());
}

QTEST_MAIN(TestTimelineText)
#include "tst_timelinetext.moc"
