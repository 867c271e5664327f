// SPDX-License-Identifier: GPL-3.0-or-later
// The sidebar's models: SessionsModel (flat) and SessionTreeModel (grouped), on fixture data and
// under live changes.

#include "guitest.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "session/sessionservice.h"
#include "sessionsidebar.h"
#include "store/jsonstore.h"
#include "testdata.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLineEdit>
#include <QScrollBar>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QThread>
#include <QTreeView>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
const QString ForkAt3rd = u"ses_dff0577d4ffeyEniRVGIu2rzSP"_s;
const QString ForkFull = u"ses_dff0575f4ffevnacwZ5rX969u2"_s;
const QString HandNamed = u"ses_dff05751fffexgWr6MRybGFAXU"_s;
const QString Child = u"ses_dff057405ffesKzX5TtUsbqkQ3"_s;
const QString FirstRun = u"ses_dff05d03effeSyJOWoDVIYjVxr"_s;

/// The fixture's sessions were written on 2026-11-21 (UTC); groups are computed against a fixed
/// day so that the test does not depend on when it runs.
const QDate FixtureDay(2026, 11, 21);

std::shared_ptr<SessionService> openFixture(test::FixtureDataDir &dir)
{
    auto store = std::make_shared<JsonStore>(dir.path());
    return std::make_shared<SessionService>(store);
}

/// A store that reads a list in two steps as a database does: a page of the newest root
/// families, then everything; it counts what each step is asked, and the second step returns
/// what it read only when the test lets it (so that changes can come between the steps).
class TwoStepStore : public JsonStore
{
public:
    using JsonStore::JsonStore;

    std::optional<QList<Session>> newestListedSessions(int roots) override
    {
        askedRoots = roots;
        QList<Session> all = JsonStore::listedSessions();
        std::stable_sort(all.begin(), all.end(), sessionNewerThan);
        // One root family here (the fixture is small): the newest root and its descendants.
        QSet<QString> family;
        for (const Session &s : std::as_const(all)) {
            if (s.parentID().isEmpty()) {
                family.insert(s.id());
                break;
            }
        }
        for (qsizetype before = -1; before != family.size();) {
            before = family.size();
            for (const Session &s : std::as_const(all)) {
                if (family.contains(s.parentID()))
                    family.insert(s.id());
            }
        }
        QList<Session> page;
        for (const Session &s : std::as_const(all)) {
            if (family.contains(s.id()))
                page.append(s);
        }
        pageRows = int(page.size());
        return page;
    }
    QList<Session> listedSessions() override
    {
        const QList<Session> read = JsonStore::listedSessions();
        ++fullReads;
        gate.acquire();
        return read;
    }

    std::atomic<int> askedRoots = 0;
    std::atomic<int> pageRows = 0;
    std::atomic<int> fullReads = 0;
    QSemaphore gate;
};

QStringList childIds(const SessionTreeModel &tree, const QModelIndex &parent)
{
    QStringList ids;
    for (int r = 0; r < tree.rowCount(parent); ++r)
        ids.append(tree.sessionID(tree.index(r, 0, parent)));
    return ids;
}
} // namespace

class TestSessionModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::checkGuiThreadReads(); }
    void flatModelOnFixture();
    void treeGroupsAndNests();
    void liveRenameIsPreciseAndNoReset();
    void archiveMovesIntoArchivedGroup();
    void createAndDeleteAreIncremental();
    void listComesNewestFirstThenTheRest();
    void treeShowsPagesOfRoots();
    void updatesFromAnotherThread();
    void groupsByDate_data();
    void groupsByDate();
    void sidebarFilterAndKeyboard();
    void sidebarShowsMoreAsItsEndComesIntoView();
};

void TestSessionModels::flatModelOnFixture()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel model(service.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&model, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));
    QCOMPARE(model.rowCount(), 6);

    const QModelIndex main = model.indexForId(MainID);
    QVERIFY(main.isValid());
    QCOMPARE(main.data(SessionsModel::TitleRole).toString(), u"Scripted session please create the fi"_s);
    QCOMPARE(main.data(SessionsModel::IsForkRole).toBool(), false);
    QCOMPARE(main.data(SessionsModel::ProjectNameRole).toString(), u"demo"_s);
    QCOMPARE(main.data(SessionsModel::DirectoryRole).toString(), u"/home/dev/src/demo"_s);
    QCOMPARE(main.data(SessionsModel::DepthRole).toInt(), 0);

    const QModelIndex fork = model.indexForId(ForkFull);
    QCOMPARE(fork.data(SessionsModel::IsForkRole).toBool(), true);
    QCOMPARE(fork.data(SessionsModel::ForkNumberRole).toInt(), 1);
    QCOMPARE(fork.data(SessionsModel::ForkBaseTitleRole).toString(), u"Scripted session please create the fi"_s);

    const QModelIndex child = model.indexForId(Child);
    QCOMPARE(child.data(SessionsModel::ParentIDRole).toString(), HandNamed);
    QCOMPARE(child.data(SessionsModel::DepthRole).toInt(), 1);
    QCOMPARE(child.data(SessionsModel::ArchivedRole).toBool(), false);
    QCOMPARE(child.data(SessionsModel::RunningRole).toBool(), false);
    QCOMPARE(child.data(SessionsModel::CreatedRole).toLongLong(), 1795312749562);
}

void TestSessionModels::treeGroupsAndNests()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    tree.setCurrentDate(FixtureDay);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));

    // One project, "demo", with one date group holding the roots.
    QCOMPARE(tree.rowCount(), 1);
    const QModelIndex project = tree.index(0, 0);
    QCOMPARE(project.data(Qt::DisplayRole).toString(), u"demo"_s);
    QCOMPARE(project.data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>(),
             SessionTreeModel::NodeKind::Project);
    QCOMPARE(tree.rowCount(project), 1);
    const QModelIndex today = tree.index(0, 0, project);
    QCOMPARE(today.data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>(),
             SessionTreeModel::NodeKind::Group);
    QCOMPARE(today.data(Qt::DisplayRole).toString(), u"Today"_s);
    QVERIFY(!(tree.flags(today) & Qt::ItemIsSelectable));

    // Roots newest first (by the newest activity in their family); forks under the session they
    // were forked from, the child (parentID) under its parent.
    QCOMPARE(childIds(tree, today), (QStringList{HandNamed, MainID, FirstRun}));
    const QModelIndex main = tree.indexForSession(MainID);
    QCOMPARE(childIds(tree, main), (QStringList{ForkAt3rd, ForkFull}));
    QCOMPARE(main.data(SessionTreeModel::ChildCountRole).toInt(), 2);
    QCOMPARE(childIds(tree, tree.indexForSession(HandNamed)), QStringList{Child});
    QCOMPARE(tree.indexForSession(Child).parent(), tree.indexForSession(HandNamed));
    // Session rows answer the flat model's roles.
    QCOMPARE(main.data(SessionsModel::IdRole).toString(), MainID);
    QCOMPARE(main.data(SessionTreeModel::FilterTextRole).toString(), u"Scripted session please create the fi"_s);
    QVERIFY(tree.flags(main) & Qt::ItemIsSelectable);
    QVERIFY(tree.flags(main) & Qt::ItemIsEditable);
}

void TestSessionModels::liveRenameIsPreciseAndNoReset()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    QAbstractItemModelTester flatTester(&flat, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester treeTester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    tree.setCurrentDate(FixtureDay);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));

    QSignalSpy flatChanged(&flat, &QAbstractItemModel::dataChanged);
    QSignalSpy treeReset(&tree, &QAbstractItemModel::modelReset);
    QSignalSpy treeRemoved(&tree, &QAbstractItemModel::rowsRemoved);
    const QPersistentModelIndex child = tree.indexForSession(Child);
    // A rename through the tree (the sidebar's inline editor) goes to the renamer (a window's
    // controller), which renames off the GUI thread; the row follows the service's announcement.
    QVERIFY(!tree.setData(child, u"Renamed child"_s, Qt::EditRole)); // no renamer: refused
    flat.setRenamer([service](const QString &id, const QString &title) {
        return QtConcurrent::run([service, id, title] { return service->rename(id, title); });
    });
    QVERIFY(tree.setData(child, u"Renamed child"_s, Qt::EditRole));
    QTRY_COMPARE(flatChanged.size(), 1);
    const auto roles = flatChanged.first().at(2).value<QList<int>>();
    QVERIFY(roles.contains(SessionsModel::TitleRole));
    QVERIFY(roles.contains(Qt::DisplayRole));
    QVERIFY(!roles.contains(SessionsModel::DirectoryRole));
    QVERIFY(!roles.contains(SessionsModel::AdditionsRole));
    QCOMPARE(flatChanged.first().at(0).toModelIndex(), flat.indexForId(Child));
    QCOMPARE(treeReset.size(), 0);
    QCOMPARE(treeRemoved.size(), 0);
    QVERIFY(child.isValid());
    QCOMPARE(child.data(Qt::DisplayRole).toString(), u"Renamed child"_s);
    QCOMPARE(test::ownRead([&] { return service->get(Child); })->title(), u"Renamed child"_s);
}

void TestSessionModels::archiveMovesIntoArchivedGroup()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    tree.setCurrentDate(FixtureDay);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));

    QSignalSpy reset(&tree, &QAbstractItemModel::modelReset);
    QSignalSpy moved(&tree, &QAbstractItemModel::rowsMoved);
    QPersistentModelIndex main = tree.indexForSession(MainID);
    QPersistentModelIndex fork = tree.indexForSession(ForkFull);
    QVERIFY(test::ownRead([&] { return service->setArchived(MainID, true); }));
    // Archiving touches time.updated: the family moves into "Archived" (a move, so that the
    // view's selection and expansion follow), its forks with it.
    QCOMPARE(reset.size(), 0);
    QVERIFY(moved.size() >= 1);
    QVERIFY(main.isValid());
    QVERIFY(fork.isValid());
    const QModelIndex group = main.parent();
    QCOMPARE(group.data(SessionTreeModel::DateGroupRole).value<SessionTreeModel::DateGroup>(),
             SessionTreeModel::DateGroup::Archived);
    QCOMPARE(group.data(Qt::DisplayRole).toString(), u"Archived"_s);
    QCOMPARE(fork.parent(), QModelIndex(main));
    QCOMPARE(main.data(SessionsModel::ArchivedRole).toBool(), true);
    // The archive is the project's last group.
    const QModelIndex project = group.parent();
    QCOMPARE(group.row(), tree.rowCount(project) - 1);

    QVERIFY(test::ownRead([&] { return service->setArchived(MainID, false); }));
    QVERIFY(main.isValid());
    QCOMPARE(main.parent().data(SessionTreeModel::DateGroupRole).value<SessionTreeModel::DateGroup>(),
             SessionTreeModel::DateGroup::Today);
    // The empty "Archived" group is gone.
    QCOMPARE(tree.rowCount(main.parent().parent()), 1);
}

void TestSessionModels::createAndDeleteAreIncremental()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));
    QSignalSpy reset(&tree, &QAbstractItemModel::modelReset);

    const Result<Session> forked = test::ownRead([&] { return service->fork(MainID, {}); });
    QVERIFY(forked);
    QCOMPARE(flat.rowCount(), 7);
    // "X (fork #1)" of "X (fork #1)" is "X (fork #2)": nested under the newest "(fork #1)".
    const Result<Session> second = test::ownRead([&] { return service->fork(forked->id(), {}); });
    QVERIFY(second);
    QCOMPARE(second->title(), u"Scripted session please create the fi (fork #2)"_s);
    QCOMPARE(tree.indexForSession(second->id()).parent(), tree.indexForSession(forked->id()));

    QVERIFY(test::ownRead([&] { return service->remove(forked->id()); }));
    QCOMPARE(flat.rowCount(), 7);
    // Its fork lost its origin: it moves under the newest remaining "(fork #1)".
    const QModelIndex orphan = tree.indexForSession(second->id());
    QVERIFY(orphan.isValid());
    QCOMPARE(orphan.parent(), tree.indexForSession(ForkFull));
    QVERIFY(test::ownRead([&] { return service->remove(HandNamed); })); // with its child
    QCOMPARE(flat.rowCount(), 5);
    QVERIFY(!tree.indexForSession(Child).isValid());
    QCOMPARE(reset.size(), 0);
}

void TestSessionModels::listComesNewestFirstThenTheRest()
{
    test::FixtureDataDir dir;
    auto store = std::make_shared<TwoStepStore>(dir.path());
    QSemaphoreReleaser releaseAtEnd(store->gate, 1); // a failed check must not leave a pool thread waiting
    auto service = std::make_shared<SessionService>(store);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy newest(&flat, &SessionsModel::newestLoaded);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QSignalSpy reset(&tree, &QAbstractItemModel::modelReset);

    // The first step: a page of the newest families only, asked of the store as such.
    QVERIFY(newest.wait(10000));
    QCOMPARE(store->askedRoots.load(), 200);
    QVERIFY(store->pageRows.load() > 0);
    QCOMPARE(flat.rowCount(), store->pageRows.load());
    QVERIFY(flat.rowCount() < 6);
    QVERIFY(!flat.isLoaded());
    QVERIFY(flat.session(HandNamed) || flat.session(MainID) || flat.session(FirstRun));
    QStringList rest;
    for (const QString &id : {MainID, ForkAt3rd, ForkFull, HandNamed, Child, FirstRun}) {
        if (!flat.session(id))
            rest.append(id);
    }
    QVERIFY(rest.size() >= 2);

    // The rest is read (and held back); meanwhile one of its sessions is renamed and another removed.
    QTRY_COMPARE_WITH_TIMEOUT(store->fullReads.load(), 1, 20000);
    QCOMPARE(loaded.size(), 0);
    const QString renamed = rest.first();
    const QString removed = rest.last();
    QVERIFY(test::ownRead([&] { return service->rename(renamed, u"Renamed between the steps"_s); }));
    QVERIFY(test::ownRead([&] { return service->remove(removed); }));
    QTRY_COMPARE_WITH_TIMEOUT(flat.session(renamed).value_or(Session()).title(), u"Renamed between the steps"_s, 20000);

    // The second step: the rest joins without a reset and does not undo those changes.
    store->gate.release();
    QVERIFY(loaded.wait(20000));
    QVERIFY(flat.isLoaded());
    QCOMPARE(store->fullReads.load(), 1);
    QVERIFY(!flat.session(removed));
    QCOMPARE(flat.session(renamed)->title(), u"Renamed between the steps"_s);
    QCOMPARE(flat.rowCount(), removed == HandNamed ? 4 : 5); // HandNamed goes with its child
    for (const QString &id : {MainID, ForkAt3rd, ForkFull, FirstRun}) {
        if (id != removed)
            QVERIFY2(flat.session(id), qPrintable(id));
    }
    QCOMPARE(reset.size(), 0);

    // The filter finds a session of the second step.
    const QString older = rest.at(1) == removed ? rest.first() : rest.at(1);
    tree.setFilterText(flat.session(older)->title());
    QVERIFY(tree.indexForSession(older).isValid());
}

void TestSessionModels::treeShowsPagesOfRoots()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    tree.setCurrentDate(FixtureDay);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));
    const QPersistentModelIndex project = tree.indexForSession(MainID).parent().parent();
    QCOMPARE(project.data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>(),
             SessionTreeModel::NodeKind::Project);
    const auto rootsShown = [&] {
        QStringList ids;
        for (int g = 0; g < tree.rowCount(project); ++g)
            ids += childIds(tree, tree.index(g, 0, project));
        return ids;
    };
    const QStringList all = rootsShown();
    QVERIFY(all.size() >= 3);
    QVERIFY(!tree.hasMore(project));

    // A page of one family: the newest; the others come one page at a time, from the project
    // row or a group row.
    QSignalSpy reset(&tree, &QAbstractItemModel::modelReset);
    tree.setPageSize(1);
    QCOMPARE(rootsShown(), all.mid(0, 1));
    QVERIFY(tree.hasMore(project));
    QVERIFY(tree.hasMore(tree.index(0, 0, project)));
    QVERIFY(!tree.hasMore(tree.indexForSession(all.first())));
    tree.showMore(tree.index(0, 0, project));
    QCOMPARE(rootsShown(), all.mid(0, 2));
    while (tree.hasMore(project))
        tree.showMore(project);
    QCOMPARE(rootsShown(), all);
    QCOMPARE(reset.size(), 0);

    // The filter looks at every session, shown or not, and pages over the families that match.
    tree.setPageSize(1);
    const QString oldest = all.last();
    QVERIFY(!tree.indexForSession(oldest).isValid());
    tree.setFilterText(flat.session(oldest)->title().toUpper());
    QVERIFY(tree.indexForSession(oldest).isValid());
    tree.setFilterText(QString());
    QCOMPARE(rootsShown(), all.mid(0, 1));
    // A session nested in a family beyond the pages: revealing it brings in its family (the sidebar selects so).
    QString hidden;
    for (const Session &s : flat.sessions()) {
        if (!tree.indexForSession(s.id()).isValid() && !all.contains(s.id()))
            hidden = s.id();
    }
    QVERIFY(!hidden.isEmpty());
    const QModelIndex revealed = tree.revealSession(hidden);
    QVERIFY(revealed.isValid());
    QCOMPARE(revealed.parent().data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>(),
             SessionTreeModel::NodeKind::Session);
    QCOMPARE(rootsShown().size(), 2);
    QVERIFY(!tree.revealSession(u"ses_doesnotexist"_s).isValid());

    // A new session is the newest: it is shown on the first page, live.
    SessionService::CreateOptions options;
    options.directory = flat.session(MainID)->directory();
    options.projectID = flat.session(MainID)->projectID();
    const Result<Session> created = test::ownRead([&] { return service->create(options); });
    QVERIFY(created);
    QTRY_VERIFY(tree.indexForSession(created->id()).isValid());
    QCOMPARE(reset.size(), 0);
}

void TestSessionModels::updatesFromAnotherThread()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));

    // A worker (the processor) writes a reply in progress: the session shows as running.
    QThread *worker = QThread::create([service] {
        Message m = Message::makeAssistant(u"msg_300000000001AAAAAAAAAAAAAA"_s, MainID, 1795312750000,
                                           u"msg_200fa8a79001521Zy53EibRhjH"_s, u"fake"_s, u"m1"_s, u"build"_s,
                                           u"/home/dev/src/demo"_s, u"/home/dev/src/demo"_s);
        (void)service->updateMessage(m);
    });
    worker->start();
    QVERIFY(worker->wait(5000));
    delete worker;
    QTRY_VERIFY(flat.indexForId(MainID).data(SessionsModel::RunningRole).toBool());
    QVERIFY(tree.indexForSession(MainID).data(SessionsModel::RunningRole).toBool());

    Message done = Message::makeAssistant(u"msg_300000000001AAAAAAAAAAAAAA"_s, MainID, 1795312750000,
                                          u"msg_200fa8a79001521Zy53EibRhjH"_s, u"fake"_s, u"m1"_s, u"build"_s,
                                          u"/home/dev/src/demo"_s, u"/home/dev/src/demo"_s);
    done.setCompleted(1795312751000);
    QVERIFY(test::ownRead([&] { return service->updateMessage(done); }));
    QVERIFY(!flat.indexForId(MainID).data(SessionsModel::RunningRole).toBool());

    flat.setRunning(FirstRun, true);
    QVERIFY(flat.isRunning(FirstRun));
    flat.setRunning(FirstRun, false);
    QVERIFY(!flat.isRunning(FirstRun));
}

void TestSessionModels::groupsByDate_data()
{
    QTest::addColumn<int>("daysAgo");
    QTest::addColumn<SessionTreeModel::DateGroup>("group");
    QTest::addRow("today") << 0 << SessionTreeModel::DateGroup::Today;
    QTest::addRow("yesterday") << 1 << SessionTreeModel::DateGroup::Yesterday;
    QTest::addRow("three days") << 3 << SessionTreeModel::DateGroup::ThisWeek;
    QTest::addRow("six days") << 6 << SessionTreeModel::DateGroup::ThisWeek;
    QTest::addRow("a month") << 30 << SessionTreeModel::DateGroup::Older;
}

void TestSessionModels::groupsByDate()
{
    QFETCH(int, daysAgo);
    QFETCH(SessionTreeModel::DateGroup, group);
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    QVERIFY(loaded.wait(5000));
    const QDate sessionDay
        = QDateTime::fromMSecsSinceEpoch(test::ownRead([&] { return service->get(FirstRun); })->updated()).date();
    tree.setCurrentDate(sessionDay.addDays(daysAgo));
    QCOMPARE(tree.indexForSession(FirstRun)
                 .parent()
                 .data(SessionTreeModel::DateGroupRole)
                 .value<SessionTreeModel::DateGroup>(),
             group);
}

void TestSessionModels::sidebarShowsMoreAsItsEndComesIntoView()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    tree.setCurrentDate(FixtureDay);
    tree.setPageSize(1);
    SessionSidebar sidebar(&tree);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    // Room for a row or two: the first page fills it, and its end is out of view.
    sidebar.resize(320, 110);
    sidebar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&sidebar));
    QVERIFY(flat.isLoaded() || loaded.wait(5000));
    const QPersistentModelIndex project = tree.indexForSession(MainID).isValid()
        ? tree.indexForSession(MainID).parent().parent()
        : tree.revealSession(MainID).parent().parent();
    QVERIFY(project.isValid());
    QTRY_VERIFY(sidebar.view()->verticalScrollBar()->maximum() > 0);
    QVERIFY(tree.hasMore(project));
    // Scrolling down the list, each end that comes into view brings the next page, to the last.
    QScrollBar *bar = sidebar.view()->verticalScrollBar();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            bar->setValue(bar->value() < bar->maximum() ? bar->value() + bar->pageStep() : 0);
            return !tree.hasMore(project);
        }(),
        20000);
    QVERIFY(tree.indexForSession(FirstRun).isValid());
}

void TestSessionModels::sidebarFilterAndKeyboard()
{
    test::FixtureDataDir dir;
    auto service = openFixture(dir);
    SessionsModel flat(service.get());
    SessionTreeModel tree(&flat);
    tree.setCurrentDate(FixtureDay);
    SessionSidebar sidebar(&tree);
    QAbstractItemModelTester tester(sidebar.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy loaded(&flat, &SessionsModel::loaded);
    sidebar.resize(320, 600);
    sidebar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&sidebar));
    QVERIFY(flat.isLoaded() || loaded.wait(5000));
    QSignalSpy current(&sidebar, &SessionSidebar::currentSessionChanged);

    // Keyboard: from the filter box, Down enters the list on the first session; Down walks on.
    sidebar.filterEdit()->setFocus();
    QTest::keyClick(sidebar.filterEdit(), Qt::Key_Down);
    QVERIFY(sidebar.view()->hasFocus());
    QCOMPARE(sidebar.currentSessionID(), HandNamed);
    QTest::keyClick(sidebar.view(), Qt::Key_Down);
    QCOMPARE(sidebar.currentSessionID(), Child);
    QTest::keyClick(sidebar.view(), Qt::Key_Down);
    QCOMPARE(sidebar.currentSessionID(), MainID);
    QCOMPARE(current.size(), 3);
    QCOMPARE(current.last().at(0).toString(), MainID);
    // Left collapses the family, Right opens it again.
    QTest::keyClick(sidebar.view(), Qt::Key_Left);
    QVERIFY(!sidebar.view()->isExpanded(sidebar.view()->currentIndex()));
    QTest::keyClick(sidebar.view(), Qt::Key_Right);
    QVERIFY(sidebar.view()->isExpanded(sidebar.view()->currentIndex()));
    QTest::keyClick(sidebar.view(), Qt::Key_End);
    QCOMPARE(sidebar.currentSessionID(), FirstRun);

    // The filter keeps matching sessions with their project and group above them.
    QTest::keyClicks(sidebar.filterEdit(), u"child"_s);
    QSortFilterProxyModel *proxy = sidebar.proxy();
    QCOMPARE(proxy->rowCount(), 1);
    const QModelIndex group = proxy->index(0, 0, proxy->index(0, 0));
    QCOMPARE(proxy->rowCount(group), 1); // Hand-named session, shown for its matching child
    const QModelIndex handNamed = proxy->index(0, 0, group);
    QCOMPARE(proxy->rowCount(handNamed), 1);
    QCOMPARE(proxy->index(0, 0, handNamed).data(SessionsModel::IdRole).toString(), Child);
    // Escape clears the filter.
    QTest::keyClick(sidebar.filterEdit(), Qt::Key_Escape);
    QVERIFY(sidebar.filterEdit()->text().isEmpty());
    QCOMPARE(proxy->rowCount(proxy->index(0, 0, proxy->index(0, 0))), 3);
}

QTEST_MAIN(TestSessionModels)
#include "tst_sessionmodels.moc"
