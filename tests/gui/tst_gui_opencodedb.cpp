// SPDX-License-Identifier: GPL-3.0-or-later
// OpenCode's database as a source of the main window: the sidebar's source row with its version,
// a database session's timeline against OpenCode's export, live appends from a writer, the
// read-only composer and fork offering the copy into Weft, the first-start offer.

#include "composer.h"
#include "guitest.h"
#include "sourcespresenter.h"
#include "scriptedquestions.h"
#include "mainwindow.h"
#include "noticebar.h"
#include "app/opencodesource.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "sessionsidebar.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "testdb.h"
#include "timelineview.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDateTime>
#include <QAccessible>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
const QString HandNamed = u"ses_dfe96a380ffecLH5wa8iKO3NO1"_s;

JsonValue readJsonFile(const QString &path)
{
    return parseJson(test::readFile(path)).value_or(JsonValue());
}

/// An OpenCode data dir copied from the real 1.18.34 fixture.
bool makeOpencodeDir(const QString &dir)
{
    const QString from = test::realFixtureDir(u"1.18.34"_s);
    return QDir().mkpath(dir) && QFile::copy(from + u"/opencode.db"_s, dir + u"/opencode.db"_s)
        && test::copyTree(from + u"/storage"_s, dir + u"/storage"_s);
}

QStringList topLevelLabels(const QAbstractItemModel *model)
{
    QStringList labels;
    for (int r = 0; r < model->rowCount(); ++r)
        labels.append(model->index(r, 0).data().toString());
    return labels;
}

int sessionsBelow(const QAbstractItemModel *model, const QModelIndex &parent)
{
    int n = 0;
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex i = model->index(r, 0, parent);
        if (i.data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>()
            == SessionTreeModel::NodeKind::Session)
            ++n;
        n += sessionsBelow(model, i);
    }
    return n;
}
} // namespace

class TestGuiOpencodeDb : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void showsTheDatabaseAsASource();
    void timelineMatchesTheExport();
    void liveAppendWithoutReset();
    void composerAndForkOfferTheCopy();
    void firstStartOffer_data();
    void firstStartOffer();
    void screenshot();
    void openCode2Database();

private:
    MainWindow *makeWindow();
    bool waitForSource(MainWindow *w);

    QTemporaryDir m_settings;
    std::unique_ptr<test::FixtureDataDir> m_data;
    std::unique_ptr<QTemporaryDir> m_home;
    QString m_opencodeDir;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<MainWindow> m_window;
};

void TestGuiOpencodeDb::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
}

void TestGuiOpencodeDb::init()
{
    QSettings().clear();
    m_data = std::make_unique<test::FixtureDataDir>();
    m_home = std::make_unique<QTemporaryDir>();
    // No offer from the user's real ~/.local/share/opencode: XDG_DATA_HOME points here.
    qputenv("XDG_DATA_HOME", m_home->path().toLocal8Bit());
    m_opencodeDir = m_home->filePath(u"opencode"_s);
    QVERIFY(makeOpencodeDir(m_opencodeDir));
    m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
}

void TestGuiOpencodeDb::cleanup()
{
    m_window.reset();
    m_service.reset();
    m_data.reset();
    m_home.reset();
}

MainWindow *TestGuiOpencodeDb::makeWindow()
{
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    m_window->resize(1300, 820);
    m_window->show();
    if (!QTest::qWaitForWindowExposed(m_window.get()))
        return nullptr;
    return m_window.get();
}

bool TestGuiOpencodeDb::waitForSource(MainWindow *w)
{
    OpencodeSource *source = w->opencodeSource();
    if (!source->isReady()) {
        QSignalSpy ready(source, &OpencodeSource::ready);
        if (!ready.wait(5000))
            return false;
    }
    SessionsModel *model = source->sessions();
    if (!model->isLoaded()) {
        QSignalSpy loaded(model, &SessionsModel::loaded);
        if (!loaded.wait(5000))
            return false;
    }
    return true;
}

void TestGuiOpencodeDb::showsTheDatabaseAsASource()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QTRY_VERIFY(w->sessionsModel()->isLoaded());
    SessionTreeModel *tree = w->sessionTreeModel();
    QAbstractItemModelTester tester(tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(w->sidebar()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int weftSessions = sessionsBelow(tree, {});
    QVERIFY(weftSessions > 0);
    QSignalSpy resets(tree, &QAbstractItemModel::modelReset);

    QVERIFY(w->sources()->setOpencodeShown(true, m_opencodeDir));
    QVERIFY(waitForSource(w));
    // Two sources: Weft's own projects moved under "Weft", OpenCode's with the version of its
    // newest session.
    const QString key = w->opencodeSource()->key();
    QCOMPARE(key, QDir(m_opencodeDir).filePath(u"opencode.db"_s));
    QTRY_COMPARE(tree->rowCount(), 2);
    const QStringList labels = topLevelLabels(tree);
    QCOMPARE(labels.at(0), u"Weft"_s);
    QVERIFY2(labels.at(1).startsWith(u"OpenCode ("_s), qPrintable(labels.at(1)));
    QVERIFY2(labels.at(1).endsWith(u" \u2014 1.18.34"_s), qPrintable(labels.at(1)));
    const QModelIndex dbRow = tree->indexForSource(key);
    QCOMPARE(dbRow.row(), 1);
    QCOMPARE(dbRow.data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>(),
             SessionTreeModel::NodeKind::Source);
    QVERIFY(dbRow.data(Qt::ToolTipRole).toString().contains(u"1.18.34"_s));
    // The seven sessions of the database (the eighth was deleted in OpenCode), and Weft's all still there.
    QCOMPARE(sessionsBelow(tree, dbRow), 7);
    QCOMPARE(sessionsBelow(tree, tree->index(0, 0)), weftSessions);
    QCOMPARE(resets.size(), 0);

    // The same session row knows its source; OpenCode's are not renamable here.
    const QModelIndex main = tree->indexForSession(MainID, key);
    QVERIFY(main.isValid());
    QCOMPARE(tree->sourceOf(main), key);
    QCOMPARE(main.data(SessionsModel::VersionRole).toString(), u"1.18.34"_s);
    QVERIFY(!(tree->flags(main) & Qt::ItemIsEditable));
    // The list keeps what it shows of a session, not its token counts (Store::listedSessions()).
    const std::optional<Session> listed = w->opencodeSource()->sessions()->session(MainID);
    QVERIFY(listed && !listed->title().isEmpty() && listed->created() > 0);
    QVERIFY(!listed->json().contains(u"tokens"));
    QVERIFY(!listed->json().contains(u"cost"));
    QVERIFY(!tree->indexForSession(MainID).isValid());

    // Selecting it shows it, from the database.
    QVERIFY(w->sidebar()->selectSession(MainID, key));
    QTRY_COMPARE(w->currentSessionID(), MainID);
    QCOMPARE(w->currentSource(), key);
    QCOMPARE(w->timelineModel()->service(), w->opencodeSource()->service());
    QTRY_VERIFY(w->timelineModel()->rowCount() > 0);

    // Hidden again: back to one source, remembered.
    QVERIFY(w->sources()->setOpencodeShown(false));
    QTRY_COMPARE(sessionsBelow(tree, {}), weftSessions);
    QVERIFY(tree->index(0, 0).data(SessionTreeModel::NodeKindRole).value<SessionTreeModel::NodeKind>()
            != SessionTreeModel::NodeKind::Source);
    QCOMPARE(QSettings().value(u"OpenCodeSource/show"_s).toBool(), false);
    QCOMPARE(resets.size(), 0);
    QVERIFY(w->currentSource().isEmpty());
}

void TestGuiOpencodeDb::timelineMatchesTheExport()
{
    QSettings().setValue(u"OpenCodeSource/show"_s, true);
    QSettings().setValue(u"OpenCodeSource/path"_s, m_opencodeDir);
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForSource(w));
    QVERIFY(w->action(u"showOpencode"_s)->isChecked());
    const QString key = w->opencodeSource()->key();
    const QStringList exports
        = QDir(test::realFixtureDir(u"1.18.34"_s) + u"/export"_s).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    QCOMPARE(exports.size(), 7);
    for (const QString &name : exports) {
        const QString id = name.chopped(5);
        QVERIFY2(test::openAndLoad(*w, id, key), qPrintable(id));
        TimelineModel *timeline = w->timelineModel();
        QCOMPARE(timeline->sessionID(), id);
        // Everything loaded (the fixture's sessions are shorter than a page).
        QVERIFY(!timeline->canLoadOlder());
        JsonArray messages;
        for (int r = 0; r < timeline->rowCount(); ++r) {
            const QModelIndex i = timeline->index(r);
            JsonArray parts;
            for (const Part &p : i.data(TimelineModel::PartsRole).value<QList<Part>>())
                parts.append(p.json());
            messages.append(JsonObject{{u"info"_s, i.data(TimelineModel::MessageRole).value<Message>().json()},
                                       {u"parts"_s, parts}});
        }
        const JsonValue expected
            = readJsonFile(test::realFixtureDir(u"1.18.34"_s) + u"/export/"_s + name).toObject().value(u"messages");
        const QString difference = test::firstDifference(JsonValue(messages), expected);
        QVERIFY2(difference.isEmpty(), qPrintable(id + u": "_s + difference));
        // The header and the export are OpenCode's session.
        QVERIFY(w->windowTitle().startsWith(w->opencodeSource()->sessions()->session(id)->title()));
        QTemporaryDir out;
        const Result<void> exported = test::awaitResult(w->exportSession(id, out.filePath(u"e.json"_s)));
        QVERIFY2(exported, qPrintable(exported ? QString() : exported.error().toString()));
        const QString exportDifference = test::firstDifference(
            readJsonFile(out.filePath(u"e.json"_s)).toObject().value(u"messages"), expected);
        QVERIFY2(exportDifference.isEmpty(), qPrintable(id + u": "_s + exportDifference));
    }
}

void TestGuiOpencodeDb::liveAppendWithoutReset()
{
    QSettings().setValue(u"OpenCodeSource/show"_s, true);
    QSettings().setValue(u"OpenCodeSource/path"_s, m_opencodeDir);
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForSource(w));
    const QString key = w->opencodeSource()->key();
    QVERIFY(test::openAndLoad(*w, MainID, key));
    TimelineModel *timeline = w->timelineModel();
    QAbstractItemModelTester tester(timeline, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester viewTester(w->timelineView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(timeline, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(timeline, &QAbstractItemModel::rowsInserted);
    const int rows = timeline->rowCount();
    const QModelIndex last = timeline->index(rows - 1);
    const QString lastMessage = last.data(TimelineModel::IdRole).toString();
    const int partsBefore = int(last.data(TimelineModel::PartsRole).value<QList<Part>>().size());

    // A writer with its own connection appends a part to the last message, then streams its text,
    // then starts a new message: the way OpenCode commits a reply.
    test::TestDb db(QDir(m_opencodeDir).filePath(u"opencode.db"_s), test::SchemaAge::V1_15_13, false);
    QVERIFY2(db.isOk(), qPrintable(db.error()));
    const QString partID = u"prt_ffff00000001LiveAppendPart1"_s;
    const auto part = [&](const QString &text) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        return JsonObject{{u"id"_s, partID},
                          {u"sessionID"_s, MainID},
                          {u"messageID"_s, lastMessage},
                          {u"type"_s, u"text"_s},
                          {u"text"_s, text},
                          {u"time"_s, JsonObject{{u"start"_s, now}}}};
    };
    const auto partText = [&]() -> QString {
        const QModelIndex i = timeline->indexForId(lastMessage);
        for (const Part &p : i.data(TimelineModel::PartsRole).value<QList<Part>>()) {
            if (p.id() == partID)
                return p.text();
        }
        return {};
    };
    QElapsedTimer clock;
    clock.start();
    QVERIFY(db.insertPart(part(u"Live from OpenCode"_s), QDateTime::currentMSecsSinceEpoch()));
    QTRY_COMPARE_WITH_TIMEOUT(partText(), u"Live from OpenCode"_s, 5000);
    const qint64 firstLatency = clock.elapsed();
    clock.restart();
    QVERIFY(db.insertPart(part(u"Live from OpenCode, streaming"_s), QDateTime::currentMSecsSinceEpoch()));
    QTRY_COMPARE_WITH_TIMEOUT(partText(), u"Live from OpenCode, streaming"_s, 5000);
    const qint64 streamLatency = clock.elapsed();
    qInfo("a committed part showed in the open timeline after %lld ms, a text update after %lld ms", firstLatency,
          streamLatency);
    QVERIFY2(firstLatency < 1500 && streamLatency < 1500, "OpenCode's commits should show within 500 ms");
    QCOMPARE(int(timeline->indexForId(lastMessage).data(TimelineModel::PartsRole).value<QList<Part>>().size()),
             partsBefore + 1);
    QCOMPARE(timeline->rowCount(), rows);

    // A new message is a new row at the end.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QString messageID = u"msg_ffff00000001LiveAppendMsg1"_s;
    QVERIFY(db.insertMessage(JsonObject{{u"id"_s, messageID},
                                        {u"sessionID"_s, MainID},
                                        {u"role"_s, u"user"_s},
                                        {u"time"_s, JsonObject{{u"created"_s, now}}},
                                        {u"agent"_s, u"build"_s},
                                        {u"model"_s, JsonObject{{u"providerID"_s, u"fake"_s}, {u"modelID"_s, u"m1"_s}}}},
                             now));
    QTRY_COMPARE_WITH_TIMEOUT(timeline->rowCount(), rows + 1, 5000);
    QCOMPARE(timeline->index(rows).data(TimelineModel::IdRole).toString(), messageID);
    QCOMPARE(resets.size(), 0);
    QVERIFY(inserted.size() >= 1);
    db.close();
}

void TestGuiOpencodeDb::composerAndForkOfferTheCopy()
{
    QSettings().setValue(u"OpenCodeSource/show"_s, true);
    QSettings().setValue(u"OpenCodeSource/path"_s, m_opencodeDir);
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForSource(w));
    const QString key = w->opencodeSource()->key();
    const auto before = test::snapshotTree(m_opencodeDir);
    QVERIFY(test::openAndLoad(*w, HandNamed, key));

    // The composer takes no prompt; it offers the copy.
    Composer *composer = w->composer();
    QVERIFY(composer->editor()->isReadOnly());
    QVERIFY(composer->importButton()->isVisible());
    QVERIFY(!composer->sendButton()->isVisible());
    QVERIFY(!w->action(u"renameSession"_s)->isEnabled());
    QVERIFY(!w->action(u"deleteSession"_s)->isEnabled());
    QVERIFY(w->action(u"forkSession"_s)->isEnabled());

    QSignalSpy imported(w, &MainWindow::imported);
    QSignalSpy forked(w, &MainWindow::forked);
    QTest::mouseClick(composer->importButton(), Qt::LeftButton);
    QVERIFY(imported.wait(10000));
    const QString copy = imported.first().at(0).toString();
    // The copy opens in Weft's source, writable.
    QCOMPARE(w->currentSessionID(), copy);
    QVERIFY(w->currentSource().isEmpty());
    QCOMPARE(w->timelineModel()->service(), w->service());
    QCOMPARE(test::ownRead([&] { return m_service->get(copy); })->title(), u"Hand-named セッション 手动命名"_s);
    QVERIFY(!composer->editor()->isReadOnly());
    QVERIFY(!composer->importButton()->isVisible());
    QVERIFY(w->action(u"renameSession"_s)->isEnabled());
    QTRY_VERIFY(w->timelineModel()->rowCount() > 0);

    // Fork on a database session asks first; "no" leaves everything as it is.
    QVERIFY(test::openAndLoad(*w, MainID, key));
    QStringList asked;
    bool answer = false;
    w->setUserQuestions(test::scriptedQuestions([&](const Confirmation &c) {
        asked.append(c.text);
        return c.title == u"Copy into Weft"_s && answer;
    }));
    w->action(u"forkSession"_s)->trigger();
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(u"fork it"_s), qPrintable(asked.first()));
    QVERIFY(test::settle(*w));
    QCOMPARE(imported.size(), 1);
    QCOMPARE(w->currentSource(), key);
    // "Yes" copies it (no fork is written anywhere) and opens the copy.
    answer = true;
    const int weftSessions = int(test::ownRead([&] { return m_service->list(); }).size());
    Q_EMIT w->timelineView()->forkRequested(MainID, QString(), QString());
    QVERIFY(imported.wait(10000));
    QCOMPARE(asked.size(), 2);
    QCOMPARE(forked.size(), 0);
    const QString mainCopy = imported.last().at(0).toString();
    QCOMPARE(w->currentSessionID(), mainCopy);
    QVERIFY(w->currentSource().isEmpty());
    // The main session with its child.
    QCOMPARE(int(test::ownRead([&] { return m_service->list(); }).size()), weftSessions + 2);
    QCOMPARE(test::ownRead([&] { return m_service->messages(mainCopy); }).size(), 13);
    // Compact on a database session offers the copy too.
    QVERIFY(test::openAndLoad(*w, MainID, key));
    answer = false;
    QVERIFY(w->action(u"compact"_s)->isEnabled());
    w->action(u"compact"_s)->trigger();
    QCOMPARE(asked.size(), 3);
    QVERIFY(asked.last().contains(u"compact it"_s));

    // OpenCode's data was never written.
    QCOMPARE(test::snapshotTree(m_opencodeDir), before);
}

void TestGuiOpencodeDb::firstStartOffer_data()
{
    QTest::addColumn<bool>("dirExists");
    QTest::addColumn<bool>("accept");
    QTest::newRow("no OpenCode dir") << false << false;
    QTest::newRow("accepted") << true << true;
    QTest::newRow("declined") << true << false;
}

void TestGuiOpencodeDb::firstStartOffer()
{
    QFETCH(bool, dirExists);
    QFETCH(bool, accept);
    if (!dirExists)
        QVERIFY(QDir(m_opencodeDir).removeRecursively());
    MainWindow *w = makeWindow();
    QVERIFY(w);
    NoticeBar *notices = w->noticeBar();
    QCOMPARE(notices->hasNotice(u"opencodeOffer"_s), dirExists);
    QVERIFY(!w->opencodeSource()->isOpen());
    if (!dirExists) {
        QVERIFY(!QSettings().contains(u"OpenCodeSource/show"_s));
        return;
    }
    QVERIFY(notices->noticeText(u"opencodeOffer"_s).contains(u"opencode"_s));
    QPushButton *button = notices->button(u"opencodeOffer"_s, accept ? u"showOpencode"_s : u"notNow"_s);
    QVERIFY(button);
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY(!notices->hasNotice(u"opencodeOffer"_s));
    QCOMPARE(QSettings().value(u"OpenCodeSource/show"_s).toBool(), accept);
    if (accept) {
        QVERIFY(waitForSource(w));
        QTRY_COMPARE(w->sessionTreeModel()->rowCount(), 2);
    } else {
        QVERIFY(!w->opencodeSource()->isOpen());
    }

    // The next start remembers the answer and does not ask again.
    m_window.reset();
    w = makeWindow();
    QVERIFY(w);
    QVERIFY(!w->noticeBar()->hasNotice(u"opencodeOffer"_s));
    QCOMPARE(w->opencodeSource()->isOpen(), accept);
    QCOMPARE(w->action(u"showOpencode"_s)->isChecked(), accept);
    if (accept)
        QVERIFY(waitForSource(w));
}

void TestGuiOpencodeDb::screenshot()
{
    QSettings().setValue(u"OpenCodeSource/show"_s, true);
    QSettings().setValue(u"OpenCodeSource/path"_s, m_opencodeDir);
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForSource(w));
    QVERIFY(test::openAndLoad(*w, MainID, w->opencodeSource()->key()));
    w->sidebar()->view()->collapse(w->sidebar()->proxy()->mapFromSource(w->sessionTreeModel()->index(0, 0)));
    QVERIFY(test::settle(*w));
    QVERIFY(QDir().mkpath(QStringLiteral(WEFT_BINARY_DIR "/screenshots")));
    QVERIFY(w->grab().save(QStringLiteral(WEFT_BINARY_DIR "/screenshots/opencode-source.png")));
}

void TestGuiOpencodeDb::openCode2Database()
{
    // An OpenCode 2.0.x database (tests/data/opencode-2.0-sessionv2): the V1 session its
    // migration skipped is marked in the sidebar, and 2.x tools read as what they are.
    const QString dir = m_home->filePath(u"opencode2"_s);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(QFile::copy(test::realFixtureDir(u"2.0-sessionv2"_s) + u"/opencode.db"_s, dir + u"/opencode.db"_s));
    QFile(dir + u"/opencode.db"_s).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QTRY_VERIFY(w->sessionsModel()->isLoaded());
    QVERIFY(w->sources()->setOpencodeShown(true, dir));
    QVERIFY(waitForSource(w));
    const QString key = w->opencodeSource()->key();
    SessionTreeModel *tree = w->sessionTreeModel();
    QTRY_VERIFY(tree->indexForSession(u"ses_3000000000000skippedV1CCCC"_s, key).isValid());
    const QModelIndex skipped = tree->indexForSession(u"ses_3000000000000skippedV1CCCC"_s, key);
    QVERIFY(skipped.data(SessionsModel::NotMigratedRole).toBool());
    QVERIFY2(skipped.data(Qt::ToolTipRole).toString().contains(u"Not migrated"_s), qPrintable(skipped.data(Qt::ToolTipRole).toString()));
    const QString native = u"ses_2000000000000nativeV2BBBBB"_s;
    const QModelIndex nativeRow = tree->indexForSession(native, key);
    QVERIFY(nativeRow.isValid());
    QVERIFY(!nativeRow.data(SessionsModel::NotMigratedRole).toBool());
    QVERIFY(!nativeRow.data(Qt::ToolTipRole).toString().contains(u"Not migrated"_s));
    // The 2.x session's shell call reads as a shell command (the accessible text of its row).
    QVERIFY(w->sidebar()->selectSession(native, key));
    QTRY_COMPARE(w->currentSessionID(), native);
    TimelineView *view = w->timelineView();
    QTRY_VERIFY(view->model()->rowCount() >= 2);
    QAccessibleInterface *list = QAccessible::queryAccessibleInterface(view);
    QVERIFY(list);
    QStringList rows;
    for (int i = 0; i < list->childCount(); ++i)
        rows.append(list->child(i)->text(QAccessible::Name));
    const QString all = rows.join(u'\n');
    QVERIFY2(all.contains(u"Tool Shell (make test): Completed"_s), qPrintable(all));
    QVERIFY2(all.contains(u"Tool Read (src/main.c): Completed"_s), qPrintable(all));
    QVERIFY2(all.contains(u"Tool Subagent (Review the change): Completed"_s), qPrintable(all));
}

QTEST_MAIN(TestGuiOpencodeDb)
#include "tst_gui_opencodedb.moc"
