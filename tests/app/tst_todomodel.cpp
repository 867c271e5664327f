// SPDX-License-Identifier: GPL-3.0-or-later
// TodoModel: a session's todo list read off the GUI thread, followed live (also from another
// thread), and a read for a session shown before dropped.

#include "qt/todomodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Qt::StringLiterals;
using namespace weft;

class TestTodoModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        auto store = std::make_shared<JsonStore>(m_dir.path());
        QVERIFY(store->initialize());
        m_service = std::make_shared<SessionService>(store);
        SessionService::CreateOptions options;
        options.directory = m_dir.path();
        const Result<Session> first = m_service->create(options);
        const Result<Session> second = m_service->create(options);
        QVERIFY(first && second);
        m_first = first->id();
        m_second = second->id();
        QVERIFY(m_service->setTodos(m_first, {Todo::make(u"Read"_s, u"completed"_s, u"high"_s, u"1"_s),
                                              Todo::make(u"Fix"_s, u"in_progress"_s, u"high"_s, u"2"_s)}));
    }

    void cleanup() { m_service.reset(); }

    void readsOffTheGuiThreadThenFollows()
    {
        TodoModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&model, &TodoModel::loaded);
        model.setSession(m_service.get(), m_first);
        QCOMPARE(model.rowCount(), 0); // never read inside the call
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.completed(), 1);
        QCOMPARE(model.index(1).data(TodoModel::StatusRole).toString(), u"in_progress"_s);
        QCOMPARE(model.index(0).data().toString(), u"Read"_s);
        QCOMPARE(model.index(0).data(TodoModel::TodoRole).value<Todo>().content(), u"Read"_s);

        // The processor writes from its worker thread: queued here.
        std::unique_ptr<QThread> worker(QThread::create([this] {
            (void)m_service->setTodos(m_first, {Todo::make(u"Only"_s, u"pending"_s, u"low"_s, u"1"_s)});
        }));
        worker->start();
        QVERIFY(worker->wait(10000));
        QTRY_COMPARE(model.rowCount(), 1);
        QCOMPARE(model.completed(), 0);
        // Another session's list does not show here.
        QVERIFY(m_service->setTodos(m_second, {Todo::make(u"Other"_s, u"pending"_s, u"low"_s, u"1"_s)}));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0).data().toString(), u"Only"_s);
    }

    void aSessionShownBeforeIsDropped()
    {
        QVERIFY(m_service->setTodos(m_second, {Todo::make(u"Other"_s, u"pending"_s, u"low"_s, u"1"_s)}));
        TodoModel model;
        QSignalSpy loaded(&model, &TodoModel::loaded);
        model.setSession(m_service.get(), m_first);
        model.setSession(m_service.get(), m_second);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.sessionID(), m_second);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0).data().toString(), u"Other"_s);
        // Nothing shown: empty at once.
        model.setSession(nullptr, {});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(loaded.size(), 1); // the first session's read was dropped
    }

private:
    QTemporaryDir m_dir;
    std::shared_ptr<SessionService> m_service;
    QString m_first;
    QString m_second;
};

QTEST_GUILESS_MAIN(TestTodoModel)
#include "tst_todomodel.moc"
