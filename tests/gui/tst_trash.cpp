// SPDX-License-Identifier: GPL-3.0-or-later
// Deleting a session from the window as a user does (issue 17, "Delete is undoable"): Delete in
// the sidebar moves it to the trash without a question, Undo in the notice and Ctrl+Z bring it
// back, the trash dialog restores, deletes for good and empties.

#include "composer.h"
#include "guitest.h"
#include "scriptedquestions.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "qt/sessionsmodel.h"
#include "session/sessionservice.h"
#include "sessionsidebar.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "trashdialog.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString HandNamed = u"ses_dff05751fffexgWr6MRybGFAXU"_s; // "Hand-named session"
const QString Child = u"ses_dff057405ffesKzX5TtUsbqkQ3"_s;     // its subagent session
} // namespace

class TestTrash : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void deleteThenUndoInTheNotice();
    void ctrlZUndoesOutsideTextFields();
    void trashDialogRestores();
    void trashDialogDeletesAndEmpties();

private:
    MainWindow *makeWindow();
    /// Selects @p sessionID in the sidebar, gives the sidebar the focus and presses Delete.
    void deleteFromSidebar(const QString &sessionID);
    [[nodiscard]] QStringList trashEntries() const;
    [[nodiscard]] QMap<QString, QByteArray> storage() const { return test::snapshotTree(m_data->storage()); }

    QTemporaryDir m_settings;
    std::unique_ptr<test::FixtureDataDir> m_data;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<MainWindow> m_window;
    QStringList m_asked; // what the window asked before deleting
};

void TestTrash::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
}

void TestTrash::init()
{
    m_data = std::make_unique<test::FixtureDataDir>();
    m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
    m_asked.clear();
}

void TestTrash::cleanup()
{
    m_window.reset();
    m_service.reset();
    m_data.reset();
}

MainWindow *TestTrash::makeWindow()
{
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    m_window->setUserQuestions(test::scriptedQuestions([this](const Confirmation &c) {
        m_asked.append(c.text);
        return true;
    }));
    if (!test::showAndOpen(*m_window, HandNamed, QSize(1300, 820)))
        return nullptr;
    m_window->activateWindow();
    return m_window.get();
}

void TestTrash::deleteFromSidebar(const QString &sessionID)
{
    QVERIFY(m_window->openSession(sessionID));
    QTreeView *tree = m_window->sidebar()->view();
    tree->setFocus();
    QCOMPARE(m_window->sidebar()->currentSessionID(), sessionID);
    QTest::keyClick(tree, Qt::Key_Delete);
}

QStringList TestTrash::trashEntries() const
{
    return QDir(m_data->path() + u"/weft-trash"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
}

void TestTrash::deleteThenUndoInTheNotice()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    const QMap<QString, QByteArray> before = storage();
    QVERIFY(w->action(u"deleteSession"_s)->isEnabled());
    QCOMPARE(w->action(u"deleteSession"_s)->text(), u"&Delete"_s); // no dialog follows

    deleteFromSidebar(HandNamed);
    QVERIFY(m_asked.isEmpty());
    // Gone from the sidebar and the store, with its subagent session.
    QTRY_VERIFY(!test::ownRead([&] { return m_service->get(HandNamed); }));
    QVERIFY(!test::ownRead([&] { return m_service->get(Child); }));
    QTRY_VERIFY(!w->sessionsModel()->indexForId(HandNamed).isValid());
    QTRY_VERIFY(!w->currentSessionID().isEmpty() && w->currentSessionID() != HandNamed);
    // Its files are in the trash, outside storage/.
    const QStringList entries = trashEntries();
    QCOMPARE(entries.size(), 1);
    QVERIFY(entries.first().endsWith(HandNamed));
    const QString trashed = m_data->path() + u"/weft-trash/"_s + entries.first() + u"/storage"_s;
    QVERIFY(QDir(trashed + u"/message/"_s + HandNamed).count() > 2);
    QVERIFY(QDir(trashed + u"/message/"_s + Child).count() > 2);
    QVERIFY(!QFileInfo::exists(m_data->storage() + u"/message/"_s + HandNamed));

    // The notice says what went and offers Undo; Edit › Undo Delete can do it too.
    NoticeBar *notices = w->noticeBar();
    QVERIFY(notices->hasNotice(u"trash"_s));
    QVERIFY(notices->noticeText(u"trash"_s).contains(u"Deleted “Hand-named session”"_s));
    QVERIFY(notices->noticeText(u"trash"_s).contains(u"1 subagent session"_s));
    QVERIFY(w->action(u"undoDelete"_s)->isEnabled());
    QPushButton *undo = notices->button(u"trash"_s, u"undoDelete"_s);
    QVERIFY(undo);
    QTRY_VERIFY(undo->isVisible());
    QTest::mouseClick(undo, Qt::LeftButton);

    QTRY_VERIFY(w->sessionsModel()->indexForId(HandNamed).isValid());
    QVERIFY(test::ownRead([&] { return m_service->get(Child); }));
    QVERIFY(storage() == before); // every byte back where it was
    QVERIFY(trashEntries().isEmpty());
    QVERIFY(!notices->hasNotice(u"trash"_s));
    QVERIFY(!w->action(u"undoDelete"_s)->isEnabled());
    QTRY_COMPARE(w->currentSessionID(), HandNamed);
    QVERIFY(m_asked.isEmpty());
}

void TestTrash::ctrlZUndoesOutsideTextFields()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    const QMap<QString, QByteArray> before = storage();
    QCOMPARE(w->action(u"undoDelete"_s)->shortcut(), QKeySequence(QKeySequence::Undo));

    // In the composer, Ctrl+Z undoes typing and brings back no session.
    deleteFromSidebar(HandNamed);
    QTRY_VERIFY(!test::ownRead([&] { return m_service->get(HandNamed); }));
    QTRY_VERIFY(!w->currentSessionID().isEmpty() && w->currentSessionID() != HandNamed);
    w->composer()->editor()->setFocus();
    QTRY_VERIFY(w->composer()->editor()->hasFocus());
    QTest::keyClicks(w->composer()->editor(), u"xy"_s);
    QCOMPARE(w->composer()->text(), u"xy"_s);
    QTest::keySequence(w->composer()->editor(), QKeySequence::Undo);
    QVERIFY(w->composer()->text() != u"xy"_s);
    QVERIFY(!test::ownRead([&] { return m_service->get(HandNamed); }));

    // In the sidebar, Ctrl+Z is Edit › Undo Delete.
    w->sidebar()->view()->setFocus();
    QTest::keySequence(w->sidebar()->view(), QKeySequence::Undo);
    QTRY_VERIFY(test::ownRead([&] { return m_service->get(HandNamed); }).has_value());
    QTRY_VERIFY(w->sessionsModel()->indexForId(HandNamed).isValid());
    QVERIFY(storage() == before);
    // Nothing left to undo: a second Ctrl+Z does nothing.
    QVERIFY(!w->action(u"undoDelete"_s)->isEnabled());
    QTest::keySequence(w->sidebar()->view(), QKeySequence::Undo);
    QVERIFY(storage() == before);
}

void TestTrash::trashDialogRestores()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    const QMap<QString, QByteArray> before = storage();
    deleteFromSidebar(HandNamed);
    QTRY_VERIFY(!test::ownRead([&] { return m_service->get(HandNamed); }));

    // The Trash button under the sessions opens the dialog; the Session menu has it too.
    auto *button = w->sidebar()->findChild<QToolButton *>(u"showTrashButton"_s);
    QVERIFY(button);
    QVERIFY(button->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    TrashDialog *dialog = w->trashDialog();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    const QAbstractItemModel *rows = dialog->list()->model();
    QTRY_COMPARE(rows->rowCount(), 1); // listed off the GUI thread
    QVERIFY(rows->index(0, 0).data().toString().startsWith(u"Hand-named session"_s));
    QVERIFY(rows->index(0, 0).data().toString().contains(u"1 subagent session"_s));
    QCOMPARE(rows->index(0, 1).data().toString(), test::ownRead([&] { return m_service->get(MainID); })->directory());
    QCOMPARE(rows->index(0, 2).data().toString(), u"just now"_s);
    QCOMPARE(rows->headerData(0, Qt::Horizontal).toString(), u"Session"_s);
    QCOMPARE(dialog->list()->currentIndex().row(), 0); // the first row is current

    auto *restore = dialog->findChild<QPushButton *>(u"restore"_s);
    QVERIFY(restore && restore->isEnabled());
    QTest::mouseClick(restore, Qt::LeftButton);
    QTRY_VERIFY(w->sessionsModel()->indexForId(HandNamed).isValid());
    QVERIFY(storage() == before);
    QTRY_COMPARE(rows->rowCount(), 0);
    QVERIFY(!restore->isEnabled());
    QTRY_COMPARE(w->currentSessionID(), HandNamed);
    // The notice of the deletion went with it (once the trash is listed again, off the GUI
    // thread): there is nothing to undo.
    QTRY_VERIFY(!w->noticeBar()->hasNotice(u"trash"_s));
    QVERIFY(!w->action(u"undoDelete"_s)->isEnabled());
    QVERIFY(m_asked.isEmpty());
}

void TestTrash::trashDialogDeletesAndEmpties()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    const QString mainTitle = test::ownRead([&] { return m_service->get(MainID); })->title();
    QVERIFY(!mainTitle.isEmpty());
    deleteFromSidebar(HandNamed);
    QTRY_VERIFY(!w->sessionsModel()->indexForId(HandNamed).isValid());
    deleteFromSidebar(MainID);
    QTRY_VERIFY(!w->sessionsModel()->indexForId(MainID).isValid());
    QCOMPARE(trashEntries().size(), 2);

    // From the menu this time.
    QAction *showTrash = w->action(u"showTrash"_s);
    QVERIFY(showTrash->isVisible());
    bool inSessionMenu = false;
    for (QAction *menu : w->menuBar()->actions()) {
        if (menu->menu() && menu->menu()->actions().contains(showTrash))
            inSessionMenu = true;
    }
    QVERIFY(inSessionMenu);
    showTrash->trigger();
    TrashDialog *dialog = w->trashDialog();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    const QAbstractItemModel *rows = dialog->list()->model();
    QTRY_COMPARE(rows->rowCount(), 2); // listed off the GUI thread
    // Newest first: Main.
    QVERIFY(rows->index(0, 0).data().toString().startsWith(mainTitle));
    dialog->list()->setCurrentIndex(rows->index(1, 0));
    QVERIFY(dialog->list()->currentIndex().data().toString().startsWith(u"Hand-named session"_s));

    // Deleting for good asks first.
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"deletePermanently"_s), Qt::LeftButton);
    QCOMPARE(m_asked.size(), 1);
    QVERIFY(m_asked.first().contains(u"Hand-named session"_s));
    QTRY_COMPARE(rows->rowCount(), 1);
    QCOMPARE(trashEntries().size(), 1);
    QVERIFY(!test::ownRead([&] { return m_service->get(HandNamed); }));

    auto *empty = dialog->findChild<QPushButton *>(u"emptyTrash"_s);
    QVERIFY(empty->isEnabled());
    QTest::mouseClick(empty, Qt::LeftButton);
    QCOMPARE(m_asked.size(), 2);
    QTRY_COMPARE(rows->rowCount(), 0);
    QVERIFY(trashEntries().isEmpty());
    QVERIFY(!empty->isEnabled());
    QVERIFY(!test::ownRead([&] { return m_service->get(MainID); }));
    QVERIFY(!test::ownRead([&] { return m_service->get(HandNamed); }));
    // The last deletion is gone for good: nothing to undo.
    QTRY_VERIFY(!w->action(u"undoDelete"_s)->isEnabled());
    QVERIFY(!w->noticeBar()->hasNotice(u"trash"_s));
}

QTEST_MAIN(TestTrash)
#include "tst_trash.moc"
