// SPDX-License-Identifier: GPL-3.0-or-later
// TrashModel: the trash listed off the GUI thread and followed row by row after a move to the
// trash, a restore, a deletion and the purge; its operations off the GUI thread.

#include "qt/trashmodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "store/sessiontrash.h"
#include "testdata.h"

#include <QAbstractItemModelTester>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <memory>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString Main = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString HandNamed = u"ses_dff05751fffexgWr6MRybGFAXU"_s; // with a subagent session
constexpr qint64 Day = 24LL * 60 * 60 * 1000;
constexpr qint64 Now = 1'760'000'000'000;
} // namespace

class TestTrashModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_data = std::make_unique<test::FixtureDataDir>();
        auto store = std::make_shared<JsonStore>(m_data->path());
        QVERIFY(store->initialize());
        store->trash()->setClock([this] { return m_clock; });
        m_service = std::make_shared<SessionService>(store);
        m_clock = Now;
    }

    void cleanup()
    {
        m_service.reset();
        m_data.reset();
    }

    void listsOffTheGuiThreadThenFollowsRowByRow()
    {
        TrashModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&model, &TrashModel::loaded);
        model.setService(m_service);
        QCOMPARE(model.rowCount(), 0); // never read inside the call
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(TrashModel::ColumnCount));

        const QString directory = m_service->get(HandNamed)->directory();
        const Result<TrashEntry> handNamed = m_service->moveToTrash(HandNamed);
        QVERIFY(handNamed);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex row = model.index(0, TrashModel::TitleColumn);
        QCOMPARE(row.data(TrashModel::EntryIDRole).toString(), handNamed->id);
        QCOMPARE(row.data(TrashModel::SessionIDRole).toString(), HandNamed);
        QCOMPARE(row.data(TrashModel::TitleRole).toString(), u"Hand-named session"_s);
        QCOMPARE(row.data().toString(), u"Hand-named session"_s);
        QCOMPARE(row.data(TrashModel::DirectoryRole).toString(), directory);
        QCOMPARE(model.index(0, TrashModel::DirectoryColumn).data().toString(), directory);
        QCOMPARE(row.data(TrashModel::DeletedRole).toLongLong(), Now);
        QCOMPARE(model.index(0, TrashModel::DeletedColumn).data().toLongLong(), Now);
        QCOMPARE(row.data(TrashModel::ChildrenRole).toInt(), 1);
        QCOMPARE(row.data(TrashModel::FilesRole).toInt(), handNamed->files);
        QVERIFY(row.data(TrashModel::FilesRole).toInt() > 0);
        QVERIFY(row.data(TrashModel::ProblemRole).toString().isEmpty());
        QCOMPARE(row.data(TrashModel::EntryRole).value<TrashEntry>().id, handNamed->id);
        QCOMPARE(model.indexOf(handNamed->id, TrashModel::DeletedColumn), model.index(0, TrashModel::DeletedColumn));
        QVERIFY(!model.indexOf(u"nothing"_s).isValid());

        // Newest first: the later deletion is inserted above, the row there stays (and a view's
        // selection with it).
        const QPersistentModelIndex kept(row);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        m_clock = Now + 1000;
        const Result<TrashEntry> main = m_service->moveToTrash(Main);
        QVERIFY(main);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 0).data(TrashModel::EntryIDRole).toString(), main->id);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted.first().at(1).toInt(), 0);
        QCOMPARE(reset.size(), 0);
        QVERIFY(kept.isValid());
        QCOMPARE(kept.row(), 1);
        QCOMPARE(kept.data(TrashModel::EntryIDRole).toString(), handNamed->id);
    }

    void restoresDeletesAndPurgesOffTheGuiThread()
    {
        const Result<TrashEntry> handNamed = m_service->moveToTrash(HandNamed);
        m_clock = Now + Day;
        const Result<TrashEntry> main = m_service->moveToTrash(Main);
        QVERIFY(handNamed && main);
        TrashModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&model, &TrashModel::loaded);
        model.setService(m_service);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 2);

        // Restore: the session is back, its row leaves, the other stays.
        const QPersistentModelIndex mainRow = model.indexOf(main->id);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QFuture<Result<Session>> restored = model.restore(handNamed->id);
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY(restored.isFinished()); // the listing may come first: the restore announces it
        QVERIFY(restored.result());
        QCOMPARE(restored.result()->id(), HandNamed);
        QVERIFY(m_service->get(HandNamed));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().at(1).toInt(), 1);
        QVERIFY(mainRow.isValid());
        QCOMPARE(mainRow.row(), 0);

        // What cannot be restored says why.
        QFuture<Result<Session>> again = model.restore(handNamed->id);
        again.waitForFinished();
        QVERIFY(!again.result());

        // Delete for good, then the purge and Empty Trash.
        QVERIFY(m_service->moveToTrash(HandNamed));
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 2);
        const QString newest = model.index(0, 0).data(TrashModel::EntryIDRole).toString();
        QVERIFY(newest != main->id);
        QFuture<Result<void>> deleted = model.remove(main->id);
        QVERIFY(loaded.wait(5000));
        QVERIFY(deleted.result());
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data(TrashModel::EntryIDRole).toString(), newest);

        QCOMPARE(m_service->purgeTrash(Now + 100 * Day), 1);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 0);

        SessionService::CreateOptions options;
        options.directory = m_data->path();
        const Result<Session> created = m_service->create(options);
        QVERIFY(created);
        QVERIFY(m_service->moveToTrash(created->id()));
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 1);
        QFuture<Result<void>> emptied = model.empty();
        QVERIFY(loaded.wait(5000));
        QVERIFY(emptied.result());
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!m_service->get(created->id()));
    }

    void noServiceEmptiesAtOnce()
    {
        QVERIFY(m_service->moveToTrash(HandNamed));
        TrashModel model;
        QSignalSpy loaded(&model, &TrashModel::loaded);
        model.setService(m_service);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(model.rowCount(), 1);
        // A listing read for the service set before is dropped.
        QVERIFY(m_service->moveToTrash(Main)); // starts a listing
        model.setService(nullptr);
        QCOMPARE(model.rowCount(), 0);
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::sendPostedEvents();
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(model.rowCount(), 0);
        // Operations without a service fail, they do not crash.
        QFuture<Result<void>> emptied = model.empty();
        emptied.waitForFinished();
        QVERIFY(!emptied.result());
    }

private:
    std::unique_ptr<test::FixtureDataDir> m_data;
    std::shared_ptr<SessionService> m_service;
    qint64 m_clock = Now;
};

QTEST_GUILESS_MAIN(TestTrashModel)
#include "tst_trashmodel.moc"
