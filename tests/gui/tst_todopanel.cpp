// SPDX-License-Identifier: GPL-3.0-or-later
// The todo list below the timeline: hidden without a list, follows the todowrite tool's writes
// (announced from another thread), switches with the session, folds away.

#include "guitest.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "todopanel.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace weft;

class TestTodoPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::checkGuiThreadReads(); }
    void followsTheSession()
    {
        QTemporaryDir dir;
        auto store = std::make_shared<JsonStore>(dir.path());
        QVERIFY(store->initialize());
        auto service = std::make_shared<SessionService>(store);
        SessionService::CreateOptions options;
        options.directory = dir.path();
        const Result<Session> first = test::ownRead([&] { return service->create(options); });
        const Result<Session> second = test::ownRead([&] { return service->create(options); });
        QVERIFY(first && second);
        QVERIFY(service->setTodos(second->id(), {Todo::make(u"Other"_s, u"pending"_s, u"low"_s, u"1"_s)}));

        TodoPanel panel;
        panel.show();
        panel.setSession(service.get(), first->id());
        QVERIFY(panel.isHidden());

        // The processor writes from its worker thread.
        bool written = false;
        std::unique_ptr<QThread> worker(QThread::create([&] {
            written = bool(service->setTodos(first->id(), {Todo::make(u"Read <the> code"_s, u"completed"_s, u"high"_s, u"1"_s),
                                                           Todo::make(u"Fix it"_s, u"in_progress"_s, u"high"_s, u"2"_s),
                                                           Todo::make(u"Old idea"_s, u"cancelled"_s, u"low"_s, u"3"_s),
                                                           Todo::make(u"Test it"_s, u"pending"_s, u"medium"_s, u"4"_s)}));
        }));
        worker->start();
        QVERIFY(worker->wait(10000));
        QVERIFY(written);
        QTRY_VERIFY(panel.isVisible());
        QCOMPARE(panel.todos().size(), 4);
        QCOMPARE(panel.headerText(), u"Todo · 1 of 4 done"_s);
        QCOMPARE(panel.listText(), u"☑ Read <the> code\n▶ Fix it\n☒ Old idea\n☐ Test it"_s);
        auto *list = panel.findChild<QLabel *>(u"todoList"_s);
        QVERIFY(list->text().contains(u"Read &lt;the&gt; code"_s));
        QVERIFY(list->text().contains(u"<b>▶ Fix it</b>"_s));

        // A write to another session does not show here.
        QVERIFY(service->setTodos(second->id(), {}));
        QCoreApplication::sendPostedEvents(); // anything queued for the panel is delivered
        QCOMPARE(panel.todos().size(), 4);

        // Folding hides the list, not the header.
        auto *header = panel.findChild<QToolButton *>(u"todoHeader"_s);
        header->click();
        QVERIFY(!list->isVisible());
        header->click();
        QVERIFY(list->isVisible());

        // Another session: its own list; an empty list hides the panel.
        panel.setSession(service.get(), second->id());
        QVERIFY(panel.isHidden());
        panel.setSession(service.get(), first->id());
        QTRY_VERIFY(panel.isVisible()); // read off the GUI thread
        QVERIFY(service->setTodos(first->id(), {}));
        QTRY_VERIFY(panel.isHidden());
        panel.setSession(nullptr, {});
        QVERIFY(panel.todos().isEmpty());
    }
};

QTEST_MAIN(TestTodoPanel)
#include "tst_todopanel.moc"
