// SPDX-License-Identifier: GPL-3.0-or-later
// Search across every session (the search panel, Ctrl+Shift+F) and find in the open session
// (the find bar, Ctrl+F) in the main window, over Weft's store and OpenCode's database.

#include "findbar.h"
#include "guitest.h"
#include "indexingguest.h"
#include "settingsdialog.h"
#include "sourcespresenter.h"
#include "mainwindow.h"
#include "app/opencodesource.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"
#include "search/searchindex.h"
#include "searchpanel.h"
#include "session/sessionservice.h"
#include "session/sessionstore.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "startupgate.h"
#include "testdb.h"
#include "timelinedelegate.h"
#include "timelineview.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListView>
#include <QSettings>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;
using namespace weft;

namespace
{
const QString MainID = u"ses_dfe96b40effeGv1tOAoEakEuif"_s;
const QString ChineseReply = u"prt_201695b08001Y6ISHYTAu0qA8G"_s;
} // namespace

class TestGuiSearch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void resultsModelIsConsistent();
    void searchPanelFindsAndOpens();
    void findNextPrevious();
    void findInOlderPages();
    void indexingIsAGuest();
    void indexWaitsForTheFirstFrame();
    void screenshots();

private:
    MainWindow *makeWindow();
    bool waitForIndex(MainWindow *w);
    QList<SearchHit> searchFor(SearchPanel *panel, const QString &query);

    QTemporaryDir m_settings;
    std::unique_ptr<test::FixtureDataDir> m_data;
    std::unique_ptr<QTemporaryDir> m_home;
    QString m_opencodeDir;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<MainWindow> m_window;
};

void TestGuiSearch::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
}

void TestGuiSearch::init()
{
    QSettings().clear();
    m_data = std::make_unique<test::FixtureDataDir>();
    m_home = std::make_unique<QTemporaryDir>();
    qputenv("XDG_DATA_HOME", m_home->path().toLocal8Bit());
    m_opencodeDir = m_home->filePath(u"opencode"_s);
    const QString from = test::realFixtureDir(u"1.18.34"_s);
    QVERIFY(QDir().mkpath(m_opencodeDir));
    QVERIFY(QFile::copy(from + u"/opencode.db"_s, m_opencodeDir + u"/opencode.db"_s));
    QVERIFY(test::copyTree(from + u"/storage"_s, m_opencodeDir + u"/storage"_s));
    QSettings().setValue(u"OpenCodeSource/show"_s, true);
    QSettings().setValue(u"OpenCodeSource/path"_s, m_opencodeDir);
    m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
}

void TestGuiSearch::cleanup()
{
    m_window.reset();
    m_service.reset();
    m_data.reset();
    m_home.reset();
}

MainWindow *TestGuiSearch::makeWindow()
{
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    m_window->resize(1300, 820);
    m_window->show();
    if (!QTest::qWaitForWindowExposed(m_window.get()))
        return nullptr;
    return m_window.get();
}

bool TestGuiSearch::waitForIndex(MainWindow *w)
{
    OpencodeSource *source = w->opencodeSource();
    if (!source->isReady()) {
        QSignalSpy ready(source, &OpencodeSource::ready);
        if (!ready.wait(5000))
            return false;
    }
    if (!source->sessions()->isLoaded()) {
        QSignalSpy loaded(source->sessions(), &SessionsModel::loaded);
        if (!loaded.wait(5000))
            return false;
    }
    if (!w->sessionsModel()->isLoaded()) {
        QSignalSpy loaded(w->sessionsModel(), &SessionsModel::loaded);
        if (!loaded.wait(5000))
            return false;
    }
    // The index waits for the window's first painted frame (IndexingGuest, StartupGate).
    if (!QTest::qWaitFor([w] { return w->startupGate()->isOpen(); }, 20000))
        return false;
    return w->searchIndex()->isOpen() && w->searchIndex()->waitForIdle(20000);
}

void TestGuiSearch::indexWaitsForTheFirstFrame()
{
    // Made, not shown: the index is open, but its sync waits, before listing the sessions too.
    // No events run until it is shown (the gate's longest wait is a timer).
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    MainWindow *w = m_window.get();
    QVERIFY(!w->startupGate()->isOpen());
    SearchIndex *index = w->searchIndex();
    QVERIFY(index && index->isOpen());
    QVERIFY(index->isPaused());
    QDeadlineTimer deadline(20000);
    while (!index->isWaiting() && !deadline.hasExpired())
        QThread::msleep(5);
    QVERIFY(index->isWaiting());
    QCOMPARE(index->progressNow().total, 0);

    // Shown: the first painted frame opens the gate, and the index catches up.
    w->resize(1300, 820);
    w->show();
    QTRY_VERIFY_WITH_TIMEOUT(w->startupGate()->isOpen(), 20000);
    QVERIFY(!index->isPaused());
    QVERIFY(waitForIndex(w));
    QVERIFY(index->progressNow().total > 0);
}

QList<SearchHit> TestGuiSearch::searchFor(SearchPanel *panel, const QString &query)
{
    QSignalSpy ready(panel, &SearchPanel::resultsReady);
    // As the user types: the panel waits for a pause, then queries off the GUI thread.
    panel->queryEdit()->setText(query);
    if (!ready.wait(5000))
        return {};
    QList<SearchHit> hits;
    for (const SearchResult &r : panel->resultsModel()->results())
        hits.append(r.hit);
    return hits;
}

void TestGuiSearch::resultsModelIsConsistent()
{
    // The model on its own, through empty, filled, refilled and emptied again.
    SearchResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    SearchResult a;
    a.hit.sessionID = MainID;
    a.hit.sessionTitle = u"全文検索"_s;
    a.hit.snippet = u"the snippet"_s;
    a.hit.kind = u"text"_s;
    a.role = Message::Role::User;
    a.sourceLabel = u"Weft"_s;
    SearchResult b = a;
    b.hit.kind = u"title"_s;
    b.role.reset();
    model.setResults({a, b});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0).data(SearchResultsModel::TitleRole).toString(), a.hit.sessionTitle);
    QCOMPARE(model.index(1).data(SearchResultsModel::SourceLabelRole).toString(), u"Weft"_s);
    QCOMPARE(model.rowCount(model.index(0)), 0); // a list: no children
    model.setResults({b});
    QCOMPARE(model.rowCount(), 1);
    model.setResults({});
    QCOMPARE(model.rowCount(), 0);
}

void TestGuiSearch::searchPanelFindsAndOpens()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForIndex(w));
    const QString dbKey = w->opencodeSource()->key();
    const QString weftKey = SearchIndex::sourceKey(*storeOf(*m_service));
    QCOMPARE(SearchIndex::defaultFile(m_data->path()), w->searchIndex()->file());

    // Ctrl+Shift+F opens the panel with the focus in the field.
    w->activateWindow();
    QTest::keySequence(w, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    SearchPanel *panel = w->sources()->searchPanel();
    // Every reset and row the searches below cause is checked for consistency.
    QAbstractItemModelTester tester(panel->resultsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY(panel->isVisible());
    QTRY_VERIFY(panel->queryEdit()->hasFocus());

    // Japanese: the main session of OpenCode's database, its title, its messages.
    QList<SearchHit> hits = searchFor(panel, u"全文検索"_s);
    QVERIFY(!hits.isEmpty());
    QVERIFY(std::any_of(hits.begin(), hits.end(), [&](const SearchHit &h) {
        return h.source == dbKey && h.sessionID == MainID && h.kind == u"text";
    }));
    for (const SearchHit &h : std::as_const(hits)) {
        QVERIFY(!h.highlights.isEmpty());
        QCOMPARE(h.snippet.mid(h.highlights.first().first, h.highlights.first().second), u"全文検索"_s);
    }
    // The rows say where: the source, who wrote it.
    const QModelIndex first = panel->resultsModel()->index(0);
    QVERIFY(first.data(SearchResultsModel::SourceLabelRole).toString().startsWith(u"OpenCode"_s));
    QVERIFY(!first.data(SearchResultsModel::DetailRole).toString().isEmpty());

    // Chinese, in a message that is not loaded: one message per page.
    hits = searchFor(panel, u"数据库已经准备好了"_s);
    QVERIFY(!hits.isEmpty());
    int row = -1;
    for (int i = 0; i < hits.size(); ++i) {
        if (hits.at(i).partID == ChineseReply)
            row = i;
    }
    QVERIFY2(row >= 0, "the Chinese reply is among the results");
    const SearchHit chinese = hits.at(row);
    QCOMPARE(panel->resultsModel()->results().at(row).role, std::optional(Message::Role::Assistant));
    QVERIFY(panel->resultsModel()->index(row).data(SearchResultsModel::DetailRole).toString().startsWith(u"Assistant"_s));

    // Opening it: the session, scrolled to the part (older pages loaded to get there).
    QVERIFY(test::openAndLoad(*w, u"ses_dfe96a380ffecLH5wa8iKO3NO1"_s, dbKey)); // another session first
    w->timelineModel()->setPageSize(1);
    QSignalSpy revealed(w->timelineView(), &TimelineView::partRevealed);
    panel->resultsView()->setCurrentIndex(panel->resultsModel()->index(row));
    QTest::keyClick(panel->queryEdit(), Qt::Key_Return);
    QVERIFY(revealed.wait(5000));
    QCOMPARE(revealed.last().at(0).toString(), chinese.messageID);
    QCOMPARE(revealed.last().at(1).toString(), ChineseReply);
    QCOMPARE(w->currentSessionID(), MainID);
    QCOMPARE(w->currentSource(), dbKey);
    QVERIFY(!panel->isVisible());
    const QModelIndex current = w->timelineView()->currentIndex();
    QCOMPARE(current.data(TimelineModel::IdRole).toString(), chinese.messageID);
    QVERIFY(w->timelineView()->viewport()->rect().intersects(w->timelineView()->visualRect(current)));
    w->timelineModel()->setPageSize(60);

    // English, across both sources; a result of Weft's own opens in Weft's source.
    w->action(u"searchAll"_s)->trigger();
    QTRY_VERIFY(panel->isVisible());
    hits = searchFor(panel, u"scripted"_s);
    QVERIFY(std::any_of(hits.begin(), hits.end(), [&](const SearchHit &h) { return h.source == dbKey; }));
    QVERIFY(std::any_of(hits.begin(), hits.end(), [&](const SearchHit &h) { return h.source == weftKey; }));
    hits = searchFor(panel, u"hello"_s);
    QVERIFY(!hits.isEmpty());
    int weftRow = -1;
    for (int i = 0; i < hits.size() && weftRow < 0; ++i) {
        if (hits.at(i).source == weftKey && !hits.at(i).partID.isEmpty())
            weftRow = i;
    }
    if (weftRow < 0) {
        hits = searchFor(panel, u"scripted"_s);
        for (int i = 0; i < hits.size() && weftRow < 0; ++i) {
            if (hits.at(i).source == weftKey)
                weftRow = i;
        }
    }
    QVERIFY(weftRow >= 0);
    const SearchHit weftHit = hits.at(weftRow);
    panel->resultsView()->setCurrentIndex(panel->resultsModel()->index(weftRow));
    panel->activateCurrent();
    QTRY_COMPARE(w->currentSessionID(), weftHit.sessionID);
    QVERIFY(w->currentSource().isEmpty());

    // Nothing found is said so.
    QVERIFY(searchFor(panel, u"zzzqqqnotthere"_s).isEmpty());
}

void TestGuiSearch::findNextPrevious()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForIndex(w));
    QVERIFY(test::openAndLoad(*w, MainID, w->opencodeSource()->key()));
    FindBar *bar = w->findBar();
    QVERIFY(!bar->isVisible());

    // Ctrl+F: the bar under the timeline, the focus in its field.
    w->activateWindow();
    w->timelineView()->setFocus();
    QTest::keySequence(w, QKeySequence::Find);
    QTRY_VERIFY(bar->isVisible());
    QTRY_VERIFY(bar->edit()->hasFocus());

    QSignalSpy searched(bar, &FindBar::searched);
    QSignalSpy revealed(w->timelineView(), &TimelineView::partRevealed);
    QTest::keyClicks(bar->edit(), u"tool SAID"_s);
    QVERIFY(searched.wait(5000));
    // "Done. The tool said: …" three times, case aside.
    QCOMPARE(bar->matchCount(), 3);
    QTRY_VERIFY(bar->currentIndex() >= 0);
    const auto check = [&](int index) {
        const FindBar::Match &m = bar->matches().at(index);
        if (bar->currentIndex() != index)
            return false;
        if (bar->statusText() != u"%1 of 3"_s.arg(index + 1))
            return false;
        if (w->timelineView()->timelineDelegate()->findPart() != m.partID)
            return false;
        return w->timelineView()->currentIndex().data(TimelineModel::IdRole).toString() == m.messageID;
    };
    const int start = bar->currentIndex();
    QTRY_VERIFY(check(start));
    QCOMPARE(w->timelineView()->timelineDelegate()->findHighlight(), u"tool SAID"_s);

    // Enter: next; Shift+Enter: previous; F3 and Shift+F3 the same; both wrap around.
    QTest::keyClick(bar->edit(), Qt::Key_Return);
    QTRY_VERIFY(check((start + 1) % 3));
    QTest::keyClick(bar->edit(), Qt::Key_Return, Qt::ShiftModifier);
    QTRY_VERIFY(check(start));
    QTest::keyClick(bar->edit(), Qt::Key_F3);
    QTRY_VERIFY(check((start + 1) % 3));
    QTest::keyClick(bar->edit(), Qt::Key_F3);
    QTRY_VERIFY(check((start + 2) % 3));
    QTest::keyClick(bar->edit(), Qt::Key_F3);
    QTRY_VERIFY(check(start));
    QTest::keyClick(bar->edit(), Qt::Key_F3, Qt::ShiftModifier);
    QTRY_VERIFY(check((start + 2) % 3));
    QVERIFY(revealed.size() >= 6);
    // The matches are in timeline order.
    for (int i = 1; i < 3; ++i)
        QVERIFY(bar->matches().at(i - 1).time <= bar->matches().at(i).time);

    // Japanese and Chinese text, and nothing.
    bar->edit()->setText(u"全文検索"_s);
    QTRY_VERIFY(!bar->isSearching());
    QVERIFY2(bar->matchCount() >= 2, qPrintable(bar->statusText()));
    bar->edit()->setText(u"中文回复"_s);
    QTRY_VERIFY(!bar->isSearching());
    QVERIFY2(bar->matchCount() >= 2, qPrintable(bar->statusText()));
    bar->edit()->setText(u"zzzqqq"_s);
    QTRY_VERIFY(!bar->isSearching());
    QCOMPARE(bar->matchCount(), 0);
    QCOMPARE(bar->statusText(), u"No matches"_s);

    // Escape closes the bar and clears the highlight.
    QTest::keyClick(bar->edit(), Qt::Key_Escape);
    QVERIFY(!bar->isVisible());
    QVERIFY(w->timelineView()->timelineDelegate()->findHighlight().isEmpty());
}

void TestGuiSearch::findInOlderPages()
{
    // The timeline holds the newest messages of a 30-message session: the find bar takes those
    // from it, reads the others through the service, and finds in all of them without loading
    // them as rows.
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForIndex(w));
    const QString longSession = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
    w->timelineModel()->setPageSize(1);
    QVERIFY(test::openAndLoad(*w, longSession, {}));
    QCOMPARE(w->timelineModel()->totalMessageCount(), 30);
    FindBar *bar = w->findBar();
    QSignalSpy searched(bar, &FindBar::searched);
    // The rows the timeline held when the matches came in (the view loads a few pages itself, to
    // fill its height).
    QSet<QString> heldWhenFound;
    bool found = false;
    connect(bar, &FindBar::searched, this, [&] {
        if (std::exchange(found, true))
            return;
        for (int row = 0; row < w->timelineModel()->rowCount(); ++row)
            heldWhenFound.insert(w->timelineModel()->index(row).data(TimelineModel::IdRole).toString());
    });
    bar->activate();
    bar->edit()->setText(u"please create the files"_s); // the first prompt, the oldest message
    QVERIFY(searched.wait(10000));
    QCOMPARE(bar->matchCount(), 1);
    QVERIFY2(heldWhenFound.size() < 30, qPrintable(QString::number(heldWhenFound.size())));
    const QString matched = bar->matches().first().messageID;
    QVERIFY(!heldWhenFound.contains(matched));
    // Going to the match loads the timeline through its message.
    QTRY_VERIFY(bar->currentIndex() == 0);
    QTRY_VERIFY(w->timelineModel()->indexForId(matched).isValid());
    w->timelineModel()->setPageSize(60);
}

void TestGuiSearch::indexingIsAGuest()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForIndex(w));
    auto *filter = w->findChild<QLineEdit *>(u"sidebarFilter"_s);
    auto *guest = w->findChild<IndexingGuest *>();
    QVERIFY(filter && guest);
    // The index's progress in the sidebar's filter field, the plain text when it is done.
    QTRY_COMPARE_WITH_TIMEOUT(filter->placeholderText(), IndexingGuest::placeholder(1, 1), 20000);
    Q_EMIT w->controller()->searchProgress(12, 30);
    QCOMPARE(filter->placeholderText(), IndexingGuest::placeholder(12, 30));
    QVERIFY(filter->placeholderText().contains(u"12"));
    QVERIFY(filter->placeholderText().contains(u"30"));
    Q_EMIT w->controller()->searchProgress(30, 30);
    QCOMPARE(filter->placeholderText(), u"Filter sessions…"_s);

    // Typing pauses the background sync until the typing stops.
    QVERIFY(!w->searchIndex()->isPaused());
    filter->setFocus();
    QTest::keyClick(filter, Qt::Key_Z);
    QVERIFY(guest->isTyping());
    QVERIFY(w->searchIndex()->isPaused());
    guest->typingStopped();
    QVERIFY(!w->searchIndex()->isPaused());
    filter->clear();

    // Settings › Search: off closes the index (the file stays), on opens it with the limits.
    const QString file = w->searchIndex()->file();
    auto openSearchSettings = [w]() -> SettingsDialog * {
        w->action(u"configure"_s)->trigger();
        auto *dialog = w->findChild<SettingsDialog *>();
        if (!dialog || !QTest::qWaitForWindowExposed(dialog))
            return nullptr;
        dialog->setCurrentPage(SettingsDialog::Page::Search);
        return dialog;
    };
    SettingsDialog *dialog = openSearchSettings();
    QVERIFY(dialog);
    auto *enabled = dialog->findChild<QCheckBox *>(u"searchEnabled"_s);
    auto *outputs = dialog->findChild<QCheckBox *>(u"searchToolOutputs"_s);
    QVERIFY(enabled && enabled->isVisible() && enabled->isChecked() && outputs->isChecked());
    QTest::mouseClick(enabled, Qt::LeftButton, {}, QPoint(8, enabled->height() / 2));
    QVERIFY(!enabled->isChecked());
    QVERIFY(!outputs->isEnabled());
    QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!w->controller()->canSearch());
    QVERIFY(w->searchIndex() == nullptr);
    QVERIFY(QFile::exists(file));
    QCOMPARE(QSettings().value(u"search/enabled"_s).toBool(), false);
    SearchPanel *panel = w->sources()->searchPanel();
    panel->show();
    QVERIFY(searchFor(panel, u"hello"_s).isEmpty());
    QCOMPARE(panel->findChild<QLabel *>(u"searchStatus"_s)->text(), u"Indexing is off: turn it on in Settings › Search."_s);
    panel->hide();
    QTRY_VERIFY(!w->findChild<SettingsDialog *>());

    dialog = openSearchSettings();
    QVERIFY(dialog);
    enabled = dialog->findChild<QCheckBox *>(u"searchEnabled"_s);
    outputs = dialog->findChild<QCheckBox *>(u"searchToolOutputs"_s);
    QTest::mouseClick(enabled, Qt::LeftButton, {}, QPoint(8, enabled->height() / 2));
    QTest::mouseClick(outputs, Qt::LeftButton, {}, QPoint(8, outputs->height() / 2));
    QVERIFY(enabled->isChecked() && !outputs->isChecked());
    QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(w->controller()->canSearch());
    QCOMPARE(w->searchIndex()->limits().toolOutputs, false);
    QVERIFY(w->searchIndex()->waitForIdle(20000));
    QVERIFY(w->searchIndex()->documentCount() > 0);
}

void TestGuiSearch::screenshots()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    QVERIFY(waitForIndex(w));
    QVERIFY(QDir().mkpath(QStringLiteral(WEFT_BINARY_DIR "/screenshots")));
    SearchPanel *panel = w->sources()->searchPanel();
    panel->resize(760, 600);
    panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(panel));
    QVERIFY(!searchFor(panel, u"数据库"_s).isEmpty());
    QVERIFY(test::settle(*w));
    QVERIFY(panel->grab().save(QStringLiteral(WEFT_BINARY_DIR "/screenshots/search-panel.png")));
    panel->hide();

    QVERIFY(test::openAndLoad(*w, MainID, w->opencodeSource()->key()));
    w->action(u"find"_s)->trigger();
    QSignalSpy searched(w->findBar(), &FindBar::searched);
    w->findBar()->edit()->setText(u"tool said"_s);
    QVERIFY(searched.wait(5000));
    QTest::keyClick(w->findBar()->edit(), Qt::Key_Return);
    QVERIFY(test::settle(*w));
    QVERIFY(w->grab().save(QStringLiteral(WEFT_BINARY_DIR "/screenshots/find-bar.png")));

    // The index's progress in the sidebar's filter field, and Settings › Search.
    Q_EMIT w->controller()->searchProgress(1234, 3000);
    auto *sidebar = w->findChild<QWidget *>(u"sidebar"_s);
    QVERIFY(sidebar);
    QVERIFY(sidebar->grab().save(QStringLiteral(WEFT_BINARY_DIR "/screenshots/sidebar-indexing.png")));
    SettingsDialog settings({}, w);
    settings.setCurrentPage(SettingsDialog::Page::Search);
    settings.resize(760, 520);
    settings.show();
    QVERIFY(QTest::qWaitForWindowExposed(&settings));
    QVERIFY(settings.grab().save(QStringLiteral(WEFT_BINARY_DIR "/screenshots/settings-search.png")));
}

QTEST_MAIN(TestGuiSearch)
#include "tst_gui_search.moc"
