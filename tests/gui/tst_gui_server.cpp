// SPDX-License-Identifier: GPL-3.0-or-later
// An OpenCode server as a source of the main window, against a loopback server that answers
// with what the real OpenCode 1.18.34 answered (tests/data/opencode-1.18.34-server): the
// sidebar's source with its state, a session's timeline, a prompt sent there, its permission
// question answered there, Stop, fork from the timeline and Compact there, and a refused
// connection. And the window over a slow link: a proxy that holds every answer for 300 ms, while
// the GUI thread's longest turn is measured.

#include "app/serversource.h"
#include "changespane.h"
#include "composer.h"
#include "qt/diffmodel.h"
#include "questiondialog.h"
#include "fakeopencodeserver.h"
#include "guitest.h"
#include "sourcespresenter.h"
#include "scriptedquestions.h"
#include "mainwindow.h"
#include "processor/setup.h"
#include "runfixture.h"
#include "noticebar.h"
#include "qt/sessionsmodel.h"
#include "qt/sessiontreemodel.h"
#include "qt/timelinemodel.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "testdata.h"
#include "timelineview.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QDir>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QLineEdit>
#include <QFileInfo>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

#include <deque>

using namespace Qt::StringLiterals;
using namespace weft;
using weft::test::FakeOpencodeServer;
using weft::test::recordedEvents;
using weft::test::recordedExchange;

namespace
{
QString v1Session()
{
    return recordedExchange(u"create V1 session"_s).responseBody.toObject().string(u"id");
}

/// The requests to @p path (no query) the server received.
QList<test::FakeRequest> requestsTo(const FakeOpencodeServer &server, const QByteArray &method, const QString &path)
{
    QList<test::FakeRequest> found;
    for (const test::FakeRequest &r : server.requests()) {
        if (r.method == method && QString::fromUtf8(QByteArray::fromPercentEncoding(r.path)).section(u'?', 0, 0) == path)
            found.append(r);
    }
    return found;
}
/// One connection through DelayingProxy: the client's bytes go to the server at once, the
/// server's come back @p delayMs after they arrived (in order), and so does its close.
class DelayedPipe : public QObject
{
    Q_OBJECT

public:
    DelayedPipe(QTcpSocket *client, quint16 upstreamPort, int delayMs, QObject *parent)
        : QObject(parent)
        , m_client(client)
        , m_delayMs(delayMs)
    {
        m_client->setParent(this);
        m_upstream.setParent(this);
        m_release.setSingleShot(true);
        m_release.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_release, &QTimer::timeout, this, &DelayedPipe::release);
        QObject::connect(m_client, &QTcpSocket::readyRead, this, [this] { m_upstream.write(m_client->readAll()); });
        QObject::connect(m_client, &QTcpSocket::disconnected, this, [this] {
            m_upstream.abort();
            deleteLater();
        });
        QObject::connect(&m_upstream, &QTcpSocket::readyRead, this, [this] { hold(m_upstream.readAll(), false); });
        QObject::connect(&m_upstream, &QTcpSocket::disconnected, this, [this] { hold({}, true); });
        m_upstream.connectToHost(QHostAddress::LocalHost, upstreamPort);
        m_upstream.write(m_client->readAll());
    }
    ~DelayedPipe() override
    {
        // The sockets signal as they close, when the members they would touch are gone.
        m_upstream.disconnect(this);
        m_client->disconnect(this);
    }

private:
    struct Held {
        qint64 due = 0;
        QByteArray bytes;
        bool close = false;
    };

    void hold(const QByteArray &bytes, bool close)
    {
        m_held.push_back({m_clock.elapsed() + m_delayMs, bytes, close});
        if (!m_release.isActive())
            m_release.start(int(std::max<qint64>(0, m_held.front().due - m_clock.elapsed())));
    }

    void release()
    {
        while (!m_held.empty() && m_held.front().due <= m_clock.elapsed()) {
            const Held held = m_held.front();
            m_held.pop_front();
            if (held.close) {
                m_client->disconnectFromHost();
                return;
            }
            m_client->write(held.bytes);
        }
        if (!m_held.empty())
            m_release.start(int(std::max<qint64>(0, m_held.front().due - m_clock.elapsed())));
    }

    QTcpSocket *m_client;
    QTcpSocket m_upstream;
    int m_delayMs;
    std::deque<Held> m_held;
    QTimer m_release;
    QElapsedTimer m_clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
};

/// A loopback TCP proxy in front of a server on @p upstreamPort that holds every byte the server
/// sends back (each answer, each event of a stream) for @p delayMs: a slow link. A thread that
/// waited for an answer through it would wait at least that long.
class DelayingProxy : public QObject
{
    Q_OBJECT

public:
    DelayingProxy(quint16 upstreamPort, int delayMs)
        : m_upstreamPort(upstreamPort)
        , m_delayMs(delayMs)
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_server.nextPendingConnection())
                new DelayedPipe(client, m_upstreamPort, m_delayMs, this);
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    [[nodiscard]] QUrl url() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(m_server.serverPort())); }

private:
    QTcpServer m_server;
    quint16 m_upstreamPort;
    int m_delayMs;
};

/// The longest time the GUI thread's event loop went without a turn, from start() on: a 5 ms
/// timer notes how long after the previous one each of its timeouts came.
class FrameProbe : public QObject
{
    Q_OBJECT

public:
    FrameProbe()
    {
        m_tick.setInterval(5);
        m_tick.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_tick, &QTimer::timeout, this, [this] { m_longest = std::max(m_longest, m_since.restart()); });
    }
    void start()
    {
        m_longest = 0;
        m_since.start();
        m_tick.start();
    }
    /// In milliseconds, since start() or the last take(); starts over.
    [[nodiscard]] qint64 take()
    {
        const qint64 longest = std::max(m_longest, m_since.elapsed());
        m_longest = 0;
        return longest;
    }

private:
    QTimer m_tick;
    QElapsedTimer m_since;
    qint64 m_longest = 0;
};

} // namespace

class TestGuiServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void showsTheServerAsASource();
    void showsTheLocalServiceWithoutBeingAsked();
    void promptPermissionAndStopGoToTheServer();
    void forkAndCompactThere();
    void refusedAndDroppedConnections();
    void questionsAreAnsweredThere();
    void questionDialog();
    void keepsPaintingOverASlowLink();
    void composerOffersAnOpenCode2ServersModels();
    void disconnectedWhileItsSessionLoads();

private:
    MainWindow *makeWindow();
    /// Connects the window to the fake server (or @p url, in front of it) and waits for its
    /// sessions.
    ServerSource *connect(MainWindow *w, const QUrl &url = {}, int timeoutMs = 5000);

    QTemporaryDir m_settings;
    std::unique_ptr<test::FixtureDataDir> m_data;
    std::unique_ptr<FakeOpencodeServer> m_server;
    std::shared_ptr<SessionService> m_service;
    std::unique_ptr<MainWindow> m_window;
};

void TestGuiServer::initTestCase()
{
    QVERIFY(test::initGuiTestCase(m_settings));
    QVERIFY(!v1Session().isEmpty());
}

void TestGuiServer::init()
{
    QSettings().clear();
    QSettings().setValue(u"OpenCodeSource/show"_s, false);
    m_data = std::make_unique<test::FixtureDataDir>();
    m_service = std::make_shared<SessionService>(std::make_shared<JsonStore>(m_data->path()));
    m_server = std::make_unique<FakeOpencodeServer>();
    QVERIFY(m_server->listen());
    m_server->routeAllRecorded();
    m_server->route("GET", u"/experimental/session"_s, 200, recordedExchange(u"session list"_s).responseBody);
}

void TestGuiServer::cleanup()
{
    m_window.reset();
    m_service.reset();
    m_server.reset();
    m_data.reset();
}

MainWindow *TestGuiServer::makeWindow()
{
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path()));
    m_window->resize(1300, 820);
    m_window->setUserQuestions(test::scriptedQuestions([](const Confirmation &) { return true; }));
    m_window->show();
    if (!QTest::qWaitForWindowExposed(m_window.get()))
        return nullptr;
    return m_window.get();
}

ServerSource *TestGuiServer::connect(MainWindow *w, const QUrl &url, int timeoutMs)
{
    ServerSource *source = w->sources()->connectServer((url.isEmpty() ? m_server->url() : url).toString(), u"secret"_s, true);
    if (!source)
        return nullptr;
    if (!source->isReady()) {
        QSignalSpy ready(source, &ServerSource::ready);
        if (!ready.wait(timeoutMs))
            return nullptr;
    }
    if (!source->sessions()->isLoaded()) {
        QSignalSpy loaded(source->sessions(), &SessionsModel::loaded);
        if (!loaded.wait(timeoutMs))
            return nullptr;
    }
    return source;
}

void TestGuiServer::showsTheServerAsASource()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    ServerSource *source = connect(w);
    QVERIFY(source);
    QCOMPARE(source->version(), u"1.18.34"_s);
    QCOMPARE(source->state(), ServerSource::State::Connected);
    SessionTreeModel *tree = w->sessionTreeModel();
    const QModelIndex row = tree->indexForSource(source->key());
    QVERIFY(row.isValid());
    QVERIFY2(row.data().toString().startsWith(u"OpenCode server · 127.0.0.1:"_s), qPrintable(row.data().toString()));
    QVERIFY2(row.data().toString().endsWith(u"1.18.34"_s), qPrintable(row.data().toString()));
    QVERIFY(tree->indexForSession(v1Session(), source->key()).isValid());

    // Remembered for the next start, the password in a settings file only the user can read.
    QSettings settings;
    QCOMPARE(settings.value(u"OpenCodeServers/1/password"_s).toString(), u"secret"_s);
    QCOMPARE(QFileInfo(settings.fileName()).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());

    // Its session opens in the timeline with every message the server has.
    QVERIFY(test::openAndLoad(*w, v1Session(), source->key()));
    QCOMPARE(w->currentSource(), source->key());
    QCOMPARE(w->timelineModel()->rowCount(), int(recordedExchange(u"messages"_s).responseBody.toArray().size()));
    QVERIFY(!w->composer()->editor()->isReadOnly());
    QVERIFY(w->action(u"forkSession"_s)->isEnabled());
    QVERIFY(w->action(u"compact"_s)->isEnabled());
    QVERIFY(w->action(u"deleteSession"_s)->isEnabled());
    QVERIFY(!w->action(u"renameSession"_s)->isEnabled());
    QVERIFY(w->action(u"disconnectServer"_s)->isEnabled());
    // A turn's changes, as the server recorded them on its user message, in the changes pane.
    const JsonObject firstUser = recordedExchange(u"messages"_s).responseBody.toArray().at(0).toObject().object(u"info"_s);
    QCOMPARE(firstUser.string(u"role"_s), u"user"_s);
    w->changesPane()->showTurn(firstUser.string(u"id"_s));
    QTRY_COMPARE(w->changesPane()->model()->rowCount(), 1);
    QCOMPARE(w->changesPane()->model()->index(0).data().toString(), u"hello.txt"_s);

    // A new window connects it again.
    const QString key = source->key();
    m_window.reset();
    MainWindow *again = makeWindow();
    QVERIFY(again);
    QTRY_VERIFY(again->sessionTreeModel()->indexForSession(v1Session(), key).isValid());
    QCOMPARE(again->sessionTreeModel()->rowCount(), 2);

    // Disconnected: gone from the sidebar and not connected at the next start.
    again->sources()->disconnectServer(key);
    QTRY_COMPARE(again->sessionTreeModel()->rowCount(), 1);
    QCOMPARE(QSettings().value(u"OpenCodeServers/1/connected"_s).toBool(), false);
}

void TestGuiServer::showsTheLocalServiceWithoutBeingAsked()
{
    // `opencode serve --service` registered in $XDG_STATE_HOME/opencode/service.json (this
    // process's PID runs): the window shows it at its start, connected with the file's password.
    const QString dir = qEnvironmentVariable("XDG_STATE_HOME") + u"/opencode"_s;
    QVERIFY(QDir().mkpath(dir));
    QFile file(dir + u"/service.json"_s);
    const auto remove = qScopeGuard([&file] { file.remove(); });
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(u"{\"id\":\"x\",\"version\":\"2.0.9\",\"url\":\"%1\",\"pid\":%2,\"password\":\"secret\"}"_s
                   .arg(m_server->url().toString())
                   .arg(QCoreApplication::applicationPid())
                   .toUtf8());
    file.close();
    QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));

    MainWindow *w = makeWindow();
    QVERIFY(w);
    const QString key = ServerSource::keyFor(m_server->url());
    SessionTreeModel *tree = w->sessionTreeModel();
    QTRY_VERIFY(tree->indexForSession(v1Session(), key).isValid());
    const QString label = tree->indexForSource(key).data().toString();
    QVERIFY2(label.startsWith(u"OpenCode service 1.18.34 · 127.0.0.1:%1"_s.arg(m_server->url().port())), qPrintable(label));
    // Found again at each start, never remembered (nor its password).
    QSettings settings;
    QCOMPARE(settings.value(u"OpenCodeServers/size"_s, 0).toInt(), 0);
    QFile stored(settings.fileName());
    QVERIFY(!stored.open(QIODevice::ReadOnly) || !stored.readAll().contains("secret"));
}

void TestGuiServer::promptPermissionAndStopGoToTheServer()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    ServerSource *source = connect(w);
    QVERIFY(source);
    QVERIFY(test::openAndLoad(*w, v1Session(), source->key()));

    // The server answers the prompt as the real one did: its recorded event stream, up to the
    // permission question.
    const QList<QByteArray> frames = recordedEvents(u"events-global-permission.sse"_s).mid(1);
    qsizetype asked = -1;
    for (qsizetype i = 0; i < frames.size() && asked < 0; ++i) {
        if (frames.at(i).contains("\"type\":\"permission.asked\""))
            asked = i;
    }
    QVERIFY(asked > 0);
    m_server->route("POST", u"/session/"_s + v1Session() + u"/prompt_async"_s, [this, frames, asked](const test::FakeRequest &) {
        QTimer::singleShot(10, m_server.get(), [this, frames, asked] {
            for (const QByteArray &frame : frames.mid(0, asked + 1))
                m_server->pushFrame(frame);
        });
        return FakeOpencodeServer::Reply{204, {}};
    });
    m_server->routeRecorded(u"reply to permission"_s);
    m_server->routeRecorded(u"abort an idle session"_s);

    w->composer()->editor()->setPlainText(u"RUN_BASH: say hi"_s);
    QTest::mouseClick(w->composer()->sendButton(), Qt::LeftButton);
    QTRY_COMPARE(requestsTo(*m_server, "POST", u"/session/"_s + v1Session() + u"/prompt_async"_s).size(), 1);
    const test::FakeRequest prompt = requestsTo(*m_server, "POST", u"/session/"_s + v1Session() + u"/prompt_async"_s).first();
    QCOMPARE(prompt.json.value(u"parts"_s).toArray().at(0).toObject().string(u"text"), u"RUN_BASH: say hi"_s);
    QVERIFY(w->composer()->editor()->toPlainText().isEmpty());

    // Running there: Stop is offered; the question shows with its buttons.
    QTRY_VERIFY(w->action(u"stop"_s)->isEnabled());
    QTRY_VERIFY(source->isBusy(v1Session()));
    QTRY_VERIFY(!source->pendingPermissions().isEmpty());
    const QString requestID = source->pendingPermissions().first().id;
    QPushButton *allow = nullptr;
    QTRY_VERIFY((allow = w->noticeBar()->button(u"permission-"_s + requestID, u"allowOnce"_s)) != nullptr);
    QTest::mouseClick(allow, Qt::LeftButton);
    QTRY_COMPARE(requestsTo(*m_server, "POST", u"/permission/"_s + requestID + u"/reply"_s).size(), 1);
    QCOMPARE(requestsTo(*m_server, "POST", u"/permission/"_s + requestID + u"/reply"_s).first().json,
             (JsonObject{{u"reply"_s, u"once"_s}}));

    // Stop aborts there.
    w->action(u"stop"_s)->trigger();
    QTRY_COMPARE(requestsTo(*m_server, "POST", u"/session/"_s + v1Session() + u"/abort"_s).size(), 1);

    // The rest of the recorded stream: the command ran, the run ended.
    for (const QByteArray &frame : frames.mid(asked + 1))
        m_server->pushFrame(frame);
    QTRY_VERIFY(!source->isBusy(v1Session()));
    QTRY_VERIFY(!w->action(u"stop"_s)->isEnabled());
    QTRY_VERIFY(!w->noticeBar()->button(u"permission-"_s + requestID, u"allowOnce"_s));
    // The answer's parts arrived live in the timeline.
    QTRY_VERIFY(w->timelineModel()->rowCount() > int(recordedExchange(u"messages"_s).responseBody.toArray().size()));
}

void TestGuiServer::forkAndCompactThere()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    ServerSource *source = connect(w);
    QVERIFY(source);
    QVERIFY(test::openAndLoad(*w, v1Session(), source->key()));
    m_server->routeRecorded(u"fork whole session"_s);
    m_server->routeRecorded(u"summarize"_s);
    const QString forkID = recordedExchange(u"fork whole session"_s).responseBody.toObject().string(u"id");

    // Fork from the timeline's context menu, at the last message: the server forks.
    TimelineView *view = w->timelineView();
    const int last = w->timelineModel()->rowCount() - 1;
    std::unique_ptr<QMenu> menu(view->createContextMenu(view->model()->index(last, 0), w));
    auto *fork = menu->findChild<QAction *>(u"forkFromHere"_s);
    QVERIFY(fork);
    QSignalSpy forked(w, &MainWindow::forked);
    fork->trigger();
    QVERIFY(forked.wait(5000));
    const QList<test::FakeRequest> forks = requestsTo(*m_server, "POST", u"/session/"_s + v1Session() + u"/fork"_s);
    QCOMPARE(forks.size(), 1);
    // From the last message on: the whole session, as OpenCode forks without a messageID.
    QVERIFY(!forks.first().json.contains(u"messageID"_s));
    // The fork is the server's, open in the same source.
    QCOMPARE(forked.first().at(0).toString(), forkID);
    QCOMPARE(w->currentSessionID(), forkID);
    QCOMPARE(w->currentSource(), source->key());

    // Compact there (the confirmation says yes).
    QVERIFY(test::openAndLoad(*w, v1Session(), source->key()));
    QTRY_VERIFY(w->action(u"compact"_s)->isEnabled());
    w->action(u"compact"_s)->trigger();
    QTRY_COMPARE(requestsTo(*m_server, "POST", u"/session/"_s + v1Session() + u"/summarize"_s).size(), 1);
    QCOMPARE(requestsTo(*m_server, "POST", u"/session/"_s + v1Session() + u"/summarize"_s).first().json,
             recordedExchange(u"summarize"_s).requestBody.toObject());
}

void TestGuiServer::refusedAndDroppedConnections()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    ServerSource *refused = w->sources()->connectServer(m_server->url().toString(), u"wrong"_s, false);
    QVERIFY(refused);
    QTRY_COMPARE(refused->state(), ServerSource::State::Failed);
    QTRY_VERIFY(w->noticeBar()->noticeText(u"serverConnect"_s).contains(u"refused the password"_s));
    // Not remembered: no password was to be.
    QVERIFY(QSettings().value(u"OpenCodeServers/1/password"_s).toString().isEmpty());

    ServerSource *source = connect(w);
    QVERIFY(source);
    QCOMPARE(source, refused); // the same server, connected again
    const QString key = source->key();
    m_server->dropEventStreams();
    QTRY_VERIFY(w->sessionTreeModel()->indexForSource(key).data().toString().contains(u"reconnecting"_s));
    QTRY_COMPARE(source->state(), ServerSource::State::Connected);
    QTRY_VERIFY(!w->sessionTreeModel()->indexForSource(key).data().toString().contains(u"reconnecting"_s));
}

void TestGuiServer::questionsAreAnsweredThere()
{
    MainWindow *w = makeWindow();
    QVERIFY(w);
    ServerSource *source = connect(w);
    QVERIFY(source);
    QVERIFY(test::openAndLoad(*w, v1Session(), source->key()));
    for (const QString &id : {u"que_1"_s, u"que_2"_s})
        m_server->route("POST", u"/question/"_s + id + u"/reply"_s, 200, true);
    m_server->route("POST", u"/question/que_3/reject"_s, 200, true);
    auto option = [](const QString &label) { return JsonObject{{u"label"_s, label}, {u"description"_s, u"the file "_s + label}}; };
    auto ask = [&](const QString &id, const JsonArray &questions) {
        m_server->pushEvent(u"question.asked"_s,
                            JsonObject{{u"id"_s, id}, {u"sessionID"_s, v1Session()}, {u"questions"_s, questions}},
                            u"/home/dev/src/demo"_s);
    };
    const JsonObject which{{u"question"_s, u"Which file?"_s}, {u"header"_s, u"File"_s},
                           {u"options"_s, JsonArray{option(u"a.txt"_s), option(u"b.txt"_s)}}, {u"custom"_s, false}};

    // One question with a few choices: a button each, answered there.
    ask(u"que_1"_s, JsonArray{which});
    QPushButton *b = nullptr;
    QTRY_VERIFY((b = w->noticeBar()->button(u"question-que_1"_s, u"option1"_s)) != nullptr);
    QCOMPARE(b->text(), u"b.txt"_s);
    QVERIFY(w->noticeBar()->noticeText(u"question-que_1"_s).contains(u"Which file?"_s));
    QTest::mouseClick(b, Qt::LeftButton);
    QTRY_COMPARE(requestsTo(*m_server, "POST", u"/question/que_1/reply"_s).size(), 1);
    QCOMPARE(requestsTo(*m_server, "POST", u"/question/que_1/reply"_s).first().json,
             (JsonObject{{u"answers"_s, JsonArray{JsonArray{u"b.txt"_s}}}}));
    m_server->pushEvent(u"question.replied"_s, JsonObject{{u"sessionID"_s, v1Session()}, {u"requestID"_s, u"que_1"_s}});
    QTRY_VERIFY(w->noticeBar()->noticeText(u"question-que_1"_s).isEmpty());

    // Several questions: the dialog (here its stand-in) answers each.
    JsonObject several = which;
    several.insert(u"multiple"_s, true);
    ask(u"que_2"_s, JsonArray{which, several});
    w->setUserQuestions(test::scriptedQuestions(
        [](const Confirmation &) { return true; },
        [](const JsonObject &request) -> std::optional<QList<QStringList>> {
            if (request.value(u"questions"_s).toArray().size() != 2)
                return std::nullopt;
            return QList<QStringList>{{u"a.txt"_s}, {u"a.txt"_s, u"b.txt"_s}};
        }));
    QTRY_VERIFY((b = w->noticeBar()->button(u"question-que_2"_s, u"answer"_s)) != nullptr);
    QTest::mouseClick(b, Qt::LeftButton);
    QTRY_COMPARE(requestsTo(*m_server, "POST", u"/question/que_2/reply"_s).size(), 1);
    QCOMPARE(requestsTo(*m_server, "POST", u"/question/que_2/reply"_s).first().json,
             (JsonObject{{u"answers"_s, JsonArray{JsonArray{u"a.txt"_s}, JsonArray{u"a.txt"_s, u"b.txt"_s}}}}));

    // Declined: the server is told, the notice goes.
    ask(u"que_3"_s, JsonArray{which});
    QTRY_VERIFY((b = w->noticeBar()->button(u"question-que_3"_s, u"decline"_s)) != nullptr);
    QTest::mouseClick(b, Qt::LeftButton);
    QTRY_COMPARE(requestsTo(*m_server, "POST", u"/question/que_3/reject"_s).size(), 1);
    QTRY_VERIFY(w->noticeBar()->noticeText(u"question-que_3"_s).isEmpty());
}

void TestGuiServer::questionDialog()
{
    const JsonObject request{
        {u"questions"_s,
         JsonArray{JsonObject{{u"question"_s, u"Which?"_s}, {u"header"_s, u"One"_s},
                              {u"options"_s, JsonArray{JsonObject{{u"label"_s, u"x"_s}, {u"description"_s, u"ex"_s}},
                                                       JsonObject{{u"label"_s, u"y"_s}, {u"description"_s, u"why"_s}}}}},
                   JsonObject{{u"question"_s, u"Which ones?"_s}, {u"header"_s, u"Many"_s}, {u"multiple"_s, true},
                              {u"options"_s, JsonArray{JsonObject{{u"label"_s, u"p"_s}, {u"description"_s, QString()}},
                                                       JsonObject{{u"label"_s, u"q"_s}, {u"description"_s, QString()}}}}}}}};
    QuestionDialog dialog(request);
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled()); // nothing chosen yet
    dialog.findChild<QGroupBox *>(u"question0"_s)->findChild<QAbstractButton *>(u"option1"_s)->setChecked(true);
    QVERIFY(!ok->isEnabled());
    auto *many = dialog.findChild<QGroupBox *>(u"question1"_s);
    QVERIFY(qobject_cast<QCheckBox *>(many->findChild<QAbstractButton *>(u"option0"_s)));
    many->findChild<QAbstractButton *>(u"option0"_s)->setChecked(true);
    many->findChild<QLineEdit *>(u"custom"_s)->setText(u"  mine  "_s);
    QVERIFY(ok->isEnabled());
    QCOMPARE(dialog.answers(), (QList<QStringList>{{u"y"_s}, {u"p"_s, u"mine"_s}}));
}

void TestGuiServer::keepsPaintingOverASlowLink()
{
    // Every answer of the server, and every event of its stream, 300 ms late: a GUI thread that
    // waited for one would not turn for at least that long. Under AddressSanitizer the window's
    // own frames take several times as long (up to 285 ms seen opening the session), so the link
    // is slower there.
#if defined(__SANITIZE_ADDRESS__)
    constexpr int DelayMs = 1000;
#else
    constexpr int DelayMs = 300;
#endif
    DelayingProxy proxy(quint16(m_server->url().port()), DelayMs);
    QVERIFY(proxy.listen());
    const QList<QByteArray> frames = recordedEvents(u"events-global-permission.sse"_s).mid(1);
    m_server->route("POST", u"/session/"_s + v1Session() + u"/prompt_async"_s, [this, frames](const test::FakeRequest &) {
        QTimer::singleShot(10, m_server.get(), [this, frames] {
            for (const QByteArray &frame : frames)
                m_server->pushFrame(frame);
        });
        return FakeOpencodeServer::Reply{204, {}};
    });
    MainWindow *w = makeWindow();
    QVERIFY(w);
    FrameProbe probe;
    probe.start();
    qint64 longest = 0;
    auto phase = [&](const char *name) {
        const qint64 ms = probe.take();
        qInfo("longest frame while %s: %lld ms", name, ms);
        longest = std::max(longest, ms);
    };

    // The sessions open.
    ServerSource *source = connect(w, proxy.url(), 20000);
    QVERIFY(source);
    QSignalSpy loaded(w->timelineModel(), &TimelineModel::loaded);
    QVERIFY(w->openSession(v1Session(), source->key()));
    QVERIFY(!w->timelineModel()->isLoading() || loaded.wait(20000));
    QCOMPARE(w->timelineModel()->rowCount(), int(recordedExchange(u"messages"_s).responseBody.toArray().size()));
    phase("the sessions open");
    // A turn's diff loads.
    const JsonObject firstUser = recordedExchange(u"messages"_s).responseBody.toArray().at(0).toObject().object(u"info"_s);
    w->changesPane()->showTurn(firstUser.string(u"id"_s));
    QTRY_COMPARE_WITH_TIMEOUT(w->changesPane()->model()->rowCount(), 1, 20000);
    phase("a diff loads");
    // A prompt streams its answer, live in the timeline, until the run ends.
    const int rows = w->timelineModel()->rowCount();
    QSignalSpy finished(source, &ServerSource::runFinished);
    w->composer()->editor()->setPlainText(u"RUN_BASH: say hi"_s);
    QTest::mouseClick(w->composer()->sendButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(w->timelineModel()->rowCount() > rows, 20000);

    phase("a prompt streams");
    qInfo("longest frame over a link with %d ms answers: %lld ms", DelayMs, longest);
    QVERIFY2(longest < DelayMs, qPrintable(u"the GUI thread stood still for %1 ms"_s.arg(longest)));
}

void TestGuiServer::composerOffersAnOpenCode2ServersModels()
{
    // An OpenCode 2 server (the preview's recorded answers): its session's composer offers the
    // server's agents and models, in the session's folder; Weft's come back for Weft's sessions.
    m_server = std::make_unique<FakeOpencodeServer>();
    m_server->setV2Only();
    m_server->routeAllRecordedV2();
    QVERIFY(m_server->listen());
    // Weft's own models: a provider of its config.
    const QString config = m_data->path() + u"/weft.json"_s;
    QVERIFY(test::writeFakeProviderConfig(config, QUrl(u"http://127.0.0.1:9/v1"_s)));
    Result<ProcessorSetup> setup = loadProcessorSetup(config, m_data->path());
    QVERIFY2(setup, qPrintable(setup ? QString() : setup.error().toString()));
    m_window = std::make_unique<MainWindow>(test::makeController(m_service, m_data->path(), setup.value()));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    MainWindow *w = m_window.get();
    auto *models = w->composer()->findChild<QComboBox *>(u"modelCombo"_s);
    QVERIFY(models);
    const auto listed = [models] {
        QStringList items;
        for (int i = 0; i < models->count(); ++i)
            items.append(models->itemText(i));
        return items;
    };
    const QStringList weftModels = listed();
    QVERIFY(weftModels.contains(u"fake/gpt-test"_s));
    QVERIFY(!weftModels.contains(u"fake/m1"_s));
    ServerSource *source = connect(w);
    QVERIFY(source);
    QVERIFY(source->takesDelivery());
    const QString session = u"ses_ddcdb783cffeX7KYY6OJl6gO0h"_s;
    QVERIFY(test::openAndLoad(*w, session, source->key()));
    // The server's models only (Weft's would be listed beside the session's own model).
    QTRY_COMPARE_WITH_TIMEOUT(listed(), QStringList{u"fake/m1"_s}, 10000);
    QCOMPARE(w->composer()->currentModel(), u"fake/m1"_s);

    // A session of Weft's own: Weft's models, not the server's, with the model the session used
    // chosen (the fixture's session used fake/m1: it is listed beside Weft's, whichever of the
    // session's rows and Weft's models comes first).
    QVERIFY(test::openAndLoad(*w, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s)); // the fixture data dir's main session
    const auto sorted = [](QStringList list) {
        list.sort();
        return list;
    };
    QTRY_COMPARE_WITH_TIMEOUT(sorted(listed()), sorted(weftModels + QStringList{u"fake/m1"_s}), 10000);
    QCOMPARE(w->composer()->currentModel(), u"fake/m1"_s);
}

void TestGuiServer::disconnectedWhileItsSessionLoads()
{
    // The server goes while the timeline still waits for its session's first page: the window
    // shows no session of it, and the answers that come late reach nothing.
    MainWindow *w = makeWindow();
    QVERIFY(w);
    ServerSource *source = connect(w);
    QVERIFY(source);
    const QString key = source->key();
    QVERIFY(w->openSession(v1Session(), key));
    QVERIFY(w->timelineModel()->isLoading());
    w->sources()->disconnectServer(key);
    QTRY_VERIFY_WITH_TIMEOUT(!w->sessionTreeModel()->indexForSource(key).isValid(), 10000);
    QVERIFY(w->currentSource().isEmpty());
    // What the server still had to answer goes with it: the window goes on with Weft's sessions.
    QVERIFY(test::openAndLoad(*w, u"ses_dff058141ffeXJnTNzT8vnXcKt"_s));
    QVERIFY(w->timelineModel()->rowCount() > 0);
}

QTEST_MAIN(TestGuiServer)
#include "tst_gui_server.moc"
