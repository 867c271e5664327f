// SPDX-License-Identifier: GPL-3.0-or-later
// Attachments in the window (issue 15): chips with a remove button, files refused with a clear
// message, images pasted from the clipboard, files dropped on the editor, @mentions completed
// from the project's files, and an attached image in the timeline as a thumbnail.

#include "composer.h"
#include "fakellmserver.h"
#include "guitest.h"
#include "mainwindow.h"
#include "processor/processor.h"
#include "processor/setup.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "runfixture.h"
#include "session/sessionservice.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QAbstractItemView>
#include <QClipboard>
#include <QCompleter>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::test;

class TestGuiAttachments : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settings;
    RunFixture m_run;
    std::unique_ptr<MainWindow> m_window;

    bool makeWindow()
    {
        // The fake model reads images (OpenCode's `modalities`).
        const JsonObject model{{u"limit"_s, JsonObject{{u"context"_s, 100000}, {u"output"_s, 4000}}},
                               {u"modalities"_s, JsonObject{{u"input"_s, JsonArray{u"text"_s, u"image"_s}}}}};
        const JsonObject fake{
            {u"npm"_s, u"@ai-sdk/openai-compatible"_s},
            {u"options"_s, JsonObject{{u"baseURL"_s, m_run.server->baseUrl().toString()}, {u"apiKey"_s, u"sk-test"_s}}},
            {u"models"_s, JsonObject{{u"gpt-test"_s, model}}}};
        const QString config = m_run.writeConfig({{u"provider"_s, JsonObject{{u"fake"_s, fake}}}});
        Result<ProcessorSetup> setup = loadProcessorSetup(config, m_run.data->path());
        if (!setup) {
            qWarning() << setup.error().toString();
            return false;
        }
        ProcessorSetup s = setup.value();
        s.config.generateTitles = false;
        s.config.snapshots = ProcessorConfig::Snapshots::Never;
        s.config.maxRetries = 0;
        m_window = std::make_unique<MainWindow>(test::makeController(m_run.service, m_run.data->path(), s));
        return showAndOpen(*m_window, m_run.sessionID, QSize(1100, 760));
    }

    QString projectFile(const QString &relative) const { return m_run.project->filePath(relative); }

    static QStringList chipTexts(Composer *composer)
    {
        QStringList texts;
        for (QWidget *chip : composer->findChildren<QWidget *>(u"attachmentChip"_s)) {
            for (QLabel *label : chip->findChildren<QLabel *>()) {
                if (!label->text().isEmpty())
                    texts.append(label->text());
            }
        }
        return texts;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(initGuiTestCase(m_settings));
        clearProviderKeys();
    }

    void init()
    {
        QVERIFY(m_run.setUp());
        QDir project(m_run.project->path());
        QVERIFY(project.mkpath(u"src/widgets"_s));
        for (const QString &name : {u"src/main.cpp"_s, u"src/mainwindow.cpp"_s, u"src/widgets/chip.cpp"_s, u"README.md"_s}) {
            QFile f(project.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("// " + name.toUtf8() + "\n");
        }
        QImage red(64, 48, QImage::Format_RGB32);
        red.fill(Qt::red);
        QVERIFY(red.save(project.filePath(u"red.png"_s)));
        QFile binary(project.filePath(u"blob.bin"_s));
        QVERIFY(binary.open(QIODevice::WriteOnly));
        binary.write(QByteArray(4096, '\0'));
    }

    void cleanup()
    {
        m_window.reset();
        m_run.tearDown();
    }

    void chipsRemoveAndRefusals()
    {
        QVERIFY(makeWindow());
        Composer *composer = m_window->composer();
        QCOMPARE(composer->projectDirectory(), m_run.project->path());
        QVERIFY(composer->addAttachment(u"src/main.cpp"_s));
        QVERIFY(composer->addAttachment(projectFile(u"red.png"_s)));
        QVERIFY(composer->addAttachment(u"src"_s));
        QCOMPARE(composer->attachments().size(), 3);
        const QStringList chips = chipTexts(composer);
        QCOMPARE(chips.size(), 3);
        QVERIFY2(chips.at(0).startsWith(u"main.cpp ("_s), qPrintable(chips.join(u", "_s)));
        QVERIFY(chips.at(1).startsWith(u"red.png ("_s));
        QCOMPARE(chips.at(2), u"src/"_s);
        QVERIFY(composer->findChild<QWidget *>(u"attachmentChips"_s)->isVisible());
        QVERIFY(composer->attachmentNotice().isEmpty());

        // What cannot go is refused at once, with the reason.
        QVERIFY(!composer->addAttachment(u"missing.txt"_s));
        QVERIFY2(composer->attachmentNotice().contains(u"no such file"_s), qPrintable(composer->attachmentNotice()));
        QVERIFY(!composer->addAttachment(u"blob.bin"_s));
        QVERIFY(composer->attachmentNotice().contains(u"binary"_s));
        QVERIFY(!composer->addAttachment(u"/dev/zero"_s));
        QVERIFY(composer->attachmentNotice().contains(u"device"_s));
        QVERIFY(!composer->addAttachment(u"src/main.cpp"_s));
        QVERIFY(composer->attachmentNotice().contains(u"already"_s));
        QCOMPARE(composer->attachments().size(), 3);

        // The remove button of the second chip.
        const QList<QToolButton *> removes = composer->findChildren<QToolButton *>(u"removeAttachment"_s);
        QCOMPARE(removes.size(), 3);
        QCOMPARE(removes.at(1)->accessibleName(), u"Remove red.png"_s);
        QTest::mouseClick(removes.at(1), Qt::LeftButton);
        QTRY_COMPARE(composer->attachments().size(), 2);
        QCOMPARE(composer->attachments().at(1).kind, PromptAttachment::Kind::Directory);
        QCOMPARE(chipTexts(composer).size(), 2);

        // Sending takes them along; clearText() (the receiver took the prompt) drops them.
        QSignalSpy send(composer, &Composer::sendRequested);
        composer->setText(u"look"_s);
        composer->send();
        QCOMPARE(send.size(), 1);
        const auto sent = send.first().at(4).value<QList<PromptAttachment>>();
        QCOMPARE(sent.size(), 2);
        composer->clearText();
        QVERIFY(composer->attachments().isEmpty());
        QVERIFY(!composer->findChild<QWidget *>(u"attachmentChips"_s)->isVisible());
    }

    void pasteImageAndDropFiles()
    {
        QVERIFY(makeWindow());
        Composer *composer = m_window->composer();
        QPlainTextEdit *editor = composer->editor();
        m_window->activateWindow();
        editor->setFocus();

        // A screenshot on the clipboard: a PNG attachment, no text.
        QImage shot(40, 30, QImage::Format_ARGB32);
        shot.fill(Qt::blue);
        QGuiApplication::clipboard()->setImage(shot);
        QTest::keyClick(editor, Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(composer->attachments().size(), 1);
        const PromptAttachment pasted = composer->attachments().first();
        QCOMPARE(pasted.mime, u"image/png"_s);
        QCOMPARE(pasted.filename, u"pasted-image.png"_s);
        QVERIFY(pasted.dataUrl.startsWith(u"data:image/png;base64,iVBOR"_s));
        QVERIFY(editor->toPlainText().isEmpty());
        // Text pastes as text.
        QGuiApplication::clipboard()->setText(u"plain words"_s);
        QTest::keyClick(editor, Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(editor->toPlainText(), u"plain words"_s);
        QCOMPARE(composer->attachments().size(), 1);

        // Files dropped on the editor: each one checked, the binary one refused.
        auto *mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(projectFile(u"README.md"_s)), QUrl::fromLocalFile(projectFile(u"blob.bin"_s))});
        QWidget *target = editor->viewport();
        const QPoint pos = target->rect().center();
        QDragEnterEvent enter(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &enter);
        QVERIFY(enter.isAccepted());
        QDragMoveEvent move(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &move);
        QDropEvent drop(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &drop);
        delete mime;
        QCOMPARE(composer->attachments().size(), 2);
        QCOMPARE(composer->attachments().at(1).filename, u"README.md"_s);
        QVERIFY(composer->attachmentNotice().contains(u"blob.bin"_s));
        QCOMPARE(editor->toPlainText(), u"plain words"_s);
    }

    void mentionCompletion()
    {
        QVERIFY(makeWindow());
        Composer *composer = m_window->composer();
        if (!composer->projectFilesReady()) {
            QSignalSpy loaded(composer, &Composer::projectFilesLoaded);
            QVERIFY(loaded.wait(10000));
        }
        QPlainTextEdit *editor = composer->editor();
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClicks(editor, u"see @mwin"_s);
        QAbstractItemView *popup = composer->completer()->popup();
        QTRY_VERIFY(popup->isVisible());
        // Fuzzy: "mwin" finds src/mainwindow.cpp first.
        QCOMPARE(popup->model()->index(0, 0).data().toString(), u"src/mainwindow.cpp"_s);
        QTest::keyClick(popup, Qt::Key_Return);
        QTRY_VERIFY(!popup->isVisible());
        QCOMPARE(composer->text(), u"see @src/mainwindow.cpp "_s);
        // Enter sends again once the list is closed, with the mention as an attachment.
        QSignalSpy send(composer, &Composer::sendRequested);
        QTest::keyClicks(editor, u"and @src/wid"_s);
        QTRY_VERIFY(popup->isVisible());
        QCOMPARE(popup->model()->index(0, 0).data().toString(), u"src/widgets/"_s);
        QTest::keyClick(popup, Qt::Key_Escape);
        QTRY_VERIFY(!popup->isVisible());
        QCOMPARE(send.size(), 0);
        QTest::keyClick(editor, Qt::Key_Return);
        QCOMPARE(send.size(), 1);
        const auto sent = send.first().at(4).value<QList<PromptAttachment>>();
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.first().mention, u"@src/mainwindow.cpp"_s);
        QCOMPARE(sent.first().mentionStart, 4);
    }

    void imageInTheTimeline()
    {
        QVERIFY(makeWindow());
        Composer *composer = m_window->composer();
        QVERIFY(composer->addAttachment(u"red.png"_s));
        m_run.server->enqueue(FakeReply::sse(textReply({u"A red rectangle."_s})));
        QSignalSpy finished(m_window->controller()->processor(), &Processor::finished);
        composer->setText(u"What colour is this?"_s);
        composer->send();
        QVERIFY(composer->attachments().isEmpty());
        QVERIFY(finished.wait(20000));
        QVERIFY(finished.first().at(1).toBool());
        // The request carried the image.
        const QByteArray body = m_run.server->requests().first().body;
        QVERIFY(body.contains("\"image_url\""));

        // The user message in the timeline: the file part is drawn with its thumbnail, the
        // synthetic "Called the Read tool" text is not.
        TimelineModel *model = m_window->timelineModel();
        QTRY_COMPARE(model->rowCount(), 2);
        const QModelIndex user = model->index(0, 0);
        const auto parts = user.data(TimelineModel::PartsRole).value<QList<Part>>();
        QString fileID;
        QString syntheticID;
        for (const Part &p : parts) {
            if (p.type() == PartType::File)
                fileID = p.id();
            else if (p.isSynthetic())
                syntheticID = p.id();
        }
        QVERIFY(!fileID.isEmpty());
        QVERIFY(!syntheticID.isEmpty());
        TimelineView *view = m_window->timelineView();
        auto *delegate = qobject_cast<TimelineDelegate *>(view->itemDelegate());
        QVERIFY(delegate);
        const QModelIndex viewIndex = view->model()->index(0, 0);
        const QRect fileRect = delegate->partRect(viewIndex, fileID);
        QVERIFY(!fileRect.isNull());
        QVERIFY2(fileRect.height() > 100, qPrintable(QString::number(fileRect.height())));
        QVERIFY(delegate->partRect(viewIndex, syntheticID).isNull());
        // Red pixels where the thumbnail is.
        view->scrollTo(viewIndex, QAbstractItemView::PositionAtTop);
        QTRY_VERIFY(view->visualRect(viewIndex).isValid());
        const QImage grab = view->viewport()->grab().toImage();
        const QRect row = view->visualRect(viewIndex);
        // The thumbnail box is the lowest 120 pixels of the part; the 64x48 picture at its top left.
        const QPoint inThumbnail = row.topLeft() + fileRect.topLeft() + QPoint(20, fileRect.height() - 120 + 20);
        const QColor pixel = grab.pixelColor(inThumbnail * grab.devicePixelRatio());
        QVERIFY2(pixel.red() > 200 && pixel.green() < 60 && pixel.blue() < 60, qPrintable(pixel.name()));
        if (const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR"); !dir.isEmpty())
            m_window->grab().save(QString::fromLocal8Bit(dir) + u"/attachments-timeline.png"_s);
    }
};

QTEST_MAIN(TestGuiAttachments)
#include "tst_attachments.moc"
