// SPDX-License-Identifier: GPL-3.0-or-later
// A session another process runs, in the window (issue 16): shown as running, followed live,
// not prompted here; when that process dies without finishing, the window closes its run and
// says so. The other process is real: flock(1) holding the session's lock file.
#include "guitest.h"
#include "testdata.h"

#include "composer.h"
#include "noticebar.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"
#include "store/sessionlock.h"

#include <QFileSystemWatcher>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSysInfo>
#include <QTextEdit>
#include <QTimer>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{
const QString MainID = u"ses_dff058141ffeXJnTNzT8vnXcKt"_s;
}

class TestGuiElsewhere : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(test::initGuiTestCase(m_settings));
    }

    void followedThenClosedWhenItDies()
    {
        test::FixtureDataDir data;
        // The session's last reply is unfinished, as a live run's is.
        QString messageID;
        {
            JsonStore store(data.path());
            QVERIFY(store.initialize());
            const Message last = test::ownRead([&] { return store.messages(MainID); }).constLast();
            QVERIFY(last.isAssistant());
            messageID = last.id();
            JsonObject json = last.json();
            JsonObject time = json.object(u"time"_s);
            time.remove(u"completed"_s);
            json.insert(u"time"_s, time);
            json.remove(u"error"_s);
            QVERIFY(store.writeMessage(Message(json)));
        }
        // Another process holds the session's lock, named in the file as Weft writes it.
        const QString lockFile = SessionLock::path(data.path(), MainID);
        QVERIFY(QDir().mkpath(SessionLock::folder(data.path())));
        QFile file(lockFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(toJson(JsonObject{{u"pid"_s, 4242}, {u"host"_s, QSysInfo::machineHostName()},
                                     {u"command"_s, u"weft run"_s}, {u"since"_s, qint64(1764000000000)}},
                          0));
        file.close();
        QProcess holder;
        // --no-fork: flock(1) becomes `sleep`, so that killing it releases the lock.
        holder.start(u"flock"_s, {u"--exclusive"_s, u"--no-fork"_s, lockFile, u"sleep"_s, u"120"_s});
        QVERIFY2(holder.waitForStarted(), "flock(1) of util-linux is needed");
        QTRY_VERIFY(SessionLock::holder(data.path(), MainID).has_value());

        auto store = std::make_shared<JsonStore>(data.path());
        QVERIFY(store->initialize());
        QCOMPARE(store->recovery().runs, 0); // a live run is never touched
        QCOMPARE(store->recovery().live, 1);
        auto service = std::make_shared<SessionService>(store);
        MainWindow window(test::makeController(service, data.path()));
        QVERIFY(test::showAndOpen(window, MainID));

        // While a session runs elsewhere the window looks at its lock every second (a holder
        // that dies leaves the file): a timer of the controller's runs.
        const auto activeTimers = [&window] {
            int active = 0;
            for (const QTimer *timer : window.controller()->findChildren<QTimer *>())
                active += timer->isActive() ? 1 : 0;
            return active;
        };
        QTRY_VERIFY(activeTimers() > 0);

        // Shown as running; the composer says by whom and takes no prompt.
        const QModelIndex row = window.sessionsModel()->indexForId(MainID);
        QTRY_VERIFY(row.data(SessionsModel::RunningRole).toBool());
        Composer *composer = window.composer();
        QTRY_VERIFY(composer->editor()->isReadOnly());
        QVERIFY2(composer->editor()->placeholderText().contains(u"weft run (process 4242"_s),
                 qPrintable(composer->editor()->placeholderText()));
        auto *notices = window.findChild<NoticeBar *>();
        QVERIFY(!notices->hasNotice(u"interruptedRuns"_s));

        // Another run follows in the same second, under the same lock file (same session, same
        // set of locks): the window follows the new holder.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(toJson(JsonObject{{u"pid"_s, 4343}, {u"host"_s, QSysInfo::machineHostName()},
                                     {u"command"_s, u"weft session compact"_s}, {u"since"_s, qint64(1764000060000)}},
                          0));
        file.close();
        QTRY_VERIFY2(composer->editor()->placeholderText().contains(u"weft session compact (process 4343"_s),
                     qPrintable(composer->editor()->placeholderText()));
        QVERIFY(composer->editor()->isReadOnly());

        // It dies without finishing: the window closes the run and says so.
        holder.kill();
        QVERIFY(holder.waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(notices->hasNotice(u"interruptedRuns"_s), 5000);
        QVERIFY2(notices->noticeText(u"interruptedRuns"_s).contains(u"1 interrupted run"_s),
                 qPrintable(notices->noticeText(u"interruptedRuns"_s)));
        QTRY_VERIFY(!window.sessionsModel()->indexForId(MainID).data(SessionsModel::RunningRole).toBool());
        QVERIFY(!composer->editor()->isReadOnly());
        const std::optional<Message> closed = test::ownRead([&] { return store->message(MainID, messageID); });
        QVERIFY(closed);
        QCOMPARE(closed->error().name(), u"MessageAbortedError"_s);
        QVERIFY(closed->completed() > 0);
        QVERIFY(!QFile::exists(lockFile));
        // Nothing runs elsewhere any more: the window stops looking (an idle window wakes up for
        // nothing). A new holder is still seen at once, as Weft takes a lock: the file made (or
        // left there), locked, then the holder's name written into it.
        QTRY_COMPARE(activeTimers(), 0);
        for (const bool left : {false, true}) {
            if (left) {
                QVERIFY(file.open(QIODevice::WriteOnly)); // a file left by an earlier holder
                file.close();
                // Seen by the window: it watches the file from now on (so what follows is a change
                // of a file it knows, not a new one in the folder).
                const auto *watcher = window.controller()->findChild<QFileSystemWatcher *>();
                QVERIFY(watcher);
                QTRY_VERIFY(watcher->files().contains(lockFile));
            }
            QProcess next;
            next.start(u"flock"_s, {u"--exclusive"_s, u"--no-fork"_s, lockFile, u"sleep"_s, u"120"_s});
            QVERIFY(next.waitForStarted());
            QTRY_VERIFY(SessionLock::holder(data.path(), MainID).has_value());
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(toJson(JsonObject{{u"pid"_s, 4444}, {u"host"_s, QSysInfo::machineHostName()},
                                         {u"command"_s, u"weft run"_s}, {u"since"_s, qint64(1764000120000)}},
                              0));
            file.close();
            QTRY_VERIFY(window.sessionsModel()->indexForId(MainID).data(SessionsModel::RunningRole).toBool());
            QVERIFY(activeTimers() > 0);
            next.kill();
            QVERIFY(next.waitForFinished(5000));
            QTRY_VERIFY_WITH_TIMEOUT(!window.sessionsModel()->indexForId(MainID).data(SessionsModel::RunningRole).toBool(), 5000);
            QTRY_COMPARE(activeTimers(), 0);
            // The window's recovery (off the GUI thread) looked at the session under its lock, and
            // removed the file when it was done: the next holder locks a file of its own.
            QTRY_VERIFY(!QFile::exists(lockFile));
        }
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestGuiElsewhere)
#include "tst_gui_elsewhere.moc"
