// SPDX-License-Identifier: GPL-3.0-or-later
// A full disk (issue 16). The data dir lives on a small tmpfs, mounted in a private mount
// namespace (unshare(1); as root, or in a user namespace otherwise) and filled up but for a few
// KB; then a streaming run, a fork, an import and a compaction each hit ENOSPC. Each must fail
// with a clear error, stop cleanly, leave every file whole and lose nothing already written.
#include "fakellmserver.h"
#include "runfixture.h"

#include "core/json.h"
#include "store/jsonstore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

class TestFullDisk : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_project;
    FakeLlmServer m_server;
    QString m_config;
    QStringList m_unshare; ///< how this machine makes a private mount namespace
    QString m_seed;        ///< a data dir with one finished session
    QString m_sessionID;

    struct Output {
        int code = -1;
        QByteArray out;
        QByteArray err;
    };

    [[nodiscard]] QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_DATA_HOME"_s, m_home.path() + u"/data"_s);
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.path() + u"/config"_s);
        env.insert(u"FAKE_API_KEY"_s, u"sk-fake"_s);
        env.insert(u"LC_ALL"_s, u"C.UTF-8"_s);
        env.remove(u"WEFT_DATA_DIR"_s);
        return env;
    }

    Output execute(const QString &program, const QStringList &args) const
    {
        QProcess process;
        process.setProcessEnvironment(environment());
        process.setWorkingDirectory(m_project.path());
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(program, args);
        // The loopback server lives on this thread: serve it while waiting.
        if (!process.waitForStarted(10000) || !finished.wait(120000))
            process.kill();
        return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
    }

    /// Runs `weft --data-dir D ARGS` with D a copy of the seed on a tmpfs that has about
    /// @p freeKB left; what D holds afterwards is copied to @p after.
    Output onFullDisk(int freeKB, const QStringList &args, const QString &after) const
    {
        const QString script = QStringLiteral(
            "set -e\n"
            "d=$(mktemp -d)\n"
            "mount -t tmpfs -o size=4m weft-full \"$d\"\n"
            "cp -a \"$SEED/.\" \"$d/\"\n"
            "# Fill it, then give back what the test wants free.\n"
            "dd if=/dev/zero of=\"$d/filler\" bs=4k 2>/dev/null || true\n"
            "truncate -s \"-${FREE}K\" \"$d/filler\"\n"
            "set +e\n"
            "\"$WEFT\" --config \"$CONFIG\" --data-dir \"$d\" \"$@\" >\"$AFTER.out\" 2>\"$AFTER.err\"\n"
            "echo $? >\"$AFTER.code\"\n"
            "rm -f \"$d/filler\"\n"
            "mkdir -p \"$AFTER\" && cp -a \"$d/.\" \"$AFTER/\"\n"
            "umount \"$d\" && rmdir \"$d\"\n");
        QProcess process;
        QProcessEnvironment env = environment();
        env.insert(u"SEED"_s, m_seed);
        env.insert(u"FREE"_s, QString::number(freeKB));
        env.insert(u"WEFT"_s, QStringLiteral(WEFT_BINARY_DIR "/bin/weft"));
        env.insert(u"CONFIG"_s, m_config);
        env.insert(u"AFTER"_s, after);
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(m_project.path());
        process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(m_unshare.constFirst(), m_unshare.mid(1) + QStringList{u"sh"_s, u"-c"_s, script, u"sh"_s} + args);
        if (!process.waitForStarted(10000) || !finished.wait(120000))
            process.kill();
        auto read = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        bool ok = false;
        const int code = read(after + u".code"_s).trimmed().toInt(&ok);
        return {ok ? code : -1, read(after + u".out"_s), read(after + u".err"_s)};
    }

    /// Every stored file of @p dataDir is whole JSON, and every message and part file of the
    /// seed is there with the same bytes (nothing already written was lost).
    static void checkWholeAndKept(const QString &seed, const QString &dataDir)
    {
        int files = 0;
        for (QDirIterator it(dataDir + u"/storage"_s, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            if (file.fileName().endsWith(u"/migration"_s))
                continue;
            QVERIFY2(parseJson(bytes).has_value(), qPrintable(file.fileName() + u" is not whole JSON"_s));
            ++files;
        }
        QVERIFY(files > 0);
        for (const QString &folder : {u"/storage/message"_s, u"/storage/part"_s}) {
            for (QDirIterator it(seed + folder, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
                const QString path = it.next();
                QFile before(path);
                QFile now(dataDir + path.mid(seed.size()));
                QVERIFY2(now.open(QIODevice::ReadOnly), qPrintable(u"lost: "_s + now.fileName()));
                QVERIFY(before.open(QIODevice::ReadOnly));
                QCOMPARE(now.readAll(), before.readAll());
            }
        }
    }

    [[nodiscard]] int sessionsIn(const QString &dataDir) const
    {
        JsonStore store(dataDir);
        return store.initialize() ? int(store.sessions().size()) : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // A private mount namespace: root may make one; others need a user namespace.
        // In a chroot (the build root), whose / is no mount point, root keeps the propagation of
        // the (private) namespace it runs in.
        for (const QStringList &candidate : {QStringList{u"unshare"_s, u"--mount"_s},
                                             QStringList{u"unshare"_s, u"--user"_s, u"--map-root-user"_s, u"--mount"_s},
                                             QStringList{u"unshare"_s, u"--mount"_s, u"--propagation"_s, u"unchanged"_s}}) {
            QProcess probe;
            probe.start(candidate.constFirst(), candidate.mid(1) + QStringList{u"sh"_s, u"-c"_s,
                                                                              u"d=$(mktemp -d) && mount -t tmpfs -o size=64k t \"$d\" && umount \"$d\" && rmdir \"$d\""_s});
            if (probe.waitForFinished(10000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0) {
                m_unshare = candidate;
                break;
            }
        }
        if (m_unshare.isEmpty())
            QSKIP("this machine cannot mount a tmpfs in a private mount namespace (neither as root nor in a user namespace)");
        QVERIFY(m_server.listen());
        QVERIFY(makeGitRepository(m_project.path()));
        m_config = m_home.path() + u"/weft.json"_s;
        QVERIFY(writeFakeProviderConfig(m_config, m_server.baseUrl(), {{u"snapshot"_s, false}}));

        // The seed: one finished session with a reply of about 60 KB.
        m_seed = m_home.path() + u"/seed"_s;
        OpenAiStream reply;
        reply.role();
        for (int i = 0; i < 600; ++i)
            reply.text(u"Paragraph %1 of a long and careful answer about the build. "_s.arg(i));
        m_server.enqueue(FakeReply::sse(reply.finish(u"stop"_s).usage(1000, 900).done().bytes()));
        m_server.enqueue(FakeReply::sse(OpenAiStream().role().text(u"Seed"_s).finish(u"stop"_s).done().bytes()));
        const Output seeded = execute(QStringLiteral(WEFT_BINARY_DIR "/bin/weft"),
                                      {u"--config"_s, m_config, u"--data-dir"_s, m_seed, u"run"_s, u"explain"_s});
        QVERIFY2(seeded.code == 0, seeded.err.constData());
        JsonStore store(m_seed);
        QVERIFY(store.initialize());
        QCOMPARE(store.sessions().size(), 1);
        m_sessionID = store.sessions().constFirst().id();
    }

    void streamingRunStops()
    {
        // About 2 MB of reply into 48 KB of room.
        OpenAiStream reply;
        reply.role();
        for (int i = 0; i < 20000; ++i)
            reply.text(u"More words that will not fit on this disk, number %1. "_s.arg(i));
        m_server.enqueue(FakeReply::sse(reply.finish(u"stop"_s).done().bytes()));
        const QString after = m_home.path() + u"/after-run"_s;
        const Output run = onFullDisk(48, {u"run"_s, u"--session"_s, m_sessionID, u"go"_s, u"on"_s}, after);
        QVERIFY2(run.code != 0, run.err.constData());
        QVERIFY2(run.err.contains("No space left on device"), run.err.constData());
        QVERIFY2(run.err.contains("the run was stopped"), run.err.constData());
        checkWholeAndKept(m_seed, after);
        // The next start (with room again) closes the run that could not be finished.
        JsonStore store(after);
        QVERIFY(store.initialize());
        const QList<Message> messages = store.messages(m_sessionID);
        QVERIFY(messages.size() > 2);
        QVERIFY(messages.constLast().isAssistant() && messages.constLast().hasError());
    }

    void writeAndEditKeepTheFile()
    {
        // The project lives on the nearly full tmpfs (the data dir does not): the model reads
        // notes.txt (64 KB), then writes 256 KB over it, then edits it to 256 KB. Both fail on
        // ENOSPC with a clear error, and notes.txt is still its original self, with no
        // temporary file left beside it.
        QByteArray original;
        for (int i = 0; original.size() < 64 * 1024; ++i)
            original += "Line " + QByteArray::number(i) + " of the notes that must survive a full disk.\n";
        const QString originalFile = m_home.path() + u"/notes-original.txt"_s;
        QFile f(originalFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(original);
        f.close();
        const QString big = QString(256 * 1024, u'w');
        const auto call = [](const QString &id, const QString &tool, const JsonObject &arguments) {
            return OpenAiStream()
                .role()
                .toolCallStart(0, id, tool, QString::fromUtf8(toJson(arguments, 0)))
                .finish(u"tool_calls"_s)
                .done()
                .bytes();
        };
        const qsizetype before = m_server.requests().size();
        m_server.clearReplies();
        m_server.enqueue(FakeReply::sse(call(u"call_r"_s, u"read"_s, {{u"filePath"_s, u"notes.txt"_s}})));
        m_server.enqueue(FakeReply::sse(call(u"call_w"_s, u"write"_s, {{u"filePath"_s, u"notes.txt"_s}, {u"content"_s, big}})));
        m_server.enqueue(FakeReply::sse(call(u"call_e"_s, u"edit"_s,
                                             {{u"filePath"_s, u"notes.txt"_s}, {u"oldString"_s, u"Line 7 of"_s}, {u"newString"_s, big}})));
        m_server.enqueue(FakeReply::sse(OpenAiStream().role().text(u"Gave up."_s).finish(u"stop"_s).done().bytes()));

        const QString script = QStringLiteral(
            "set -e\n"
            "d=$(mktemp -d)\n"
            "mount -t tmpfs -o size=1m weft-full \"$d\"\n"
            "mkdir \"$d/project\" && cp \"$ORIGINAL\" \"$d/project/notes.txt\"\n"
            "dd if=/dev/zero of=\"$d/filler\" bs=4k 2>/dev/null || true\n"
            "truncate -s -16K \"$d/filler\"\n"
            "set +e\n"
            "cd \"$d/project\"\n"
            "\"$WEFT\" --config \"$CONFIG\" --data-dir \"$DATA\" run edit the notes >\"$AFTER.out\" 2>\"$AFTER.err\"\n"
            "echo $? >\"$AFTER.code\"\n"
            "cp \"$d/project/notes.txt\" \"$AFTER.notes\"\n"
            "ls -A \"$d/project\" >\"$AFTER.ls\"\n"
            "cd / && umount \"$d\" && rmdir \"$d\"\n");
        const QString after = m_home.path() + u"/after-write"_s;
        QProcess process;
        QProcessEnvironment env = environment();
        env.insert(u"ORIGINAL"_s, originalFile);
        env.insert(u"WEFT"_s, QStringLiteral(WEFT_BINARY_DIR "/bin/weft"));
        env.insert(u"CONFIG"_s, m_config);
        env.insert(u"DATA"_s, m_home.path() + u"/data-write"_s);
        env.insert(u"AFTER"_s, after);
        process.setProcessEnvironment(env);
        process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(m_unshare.constFirst(), m_unshare.mid(1) + QStringList{u"sh"_s, u"-c"_s, script});
        if (!process.waitForStarted(10000) || !finished.wait(120000))
            process.kill();
        const auto read = [](const QString &path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        QVERIFY2(read(after + u".code"_s).trimmed() == "0", read(after + u".err"_s).constData());
        QCOMPARE(read(after + u".notes"_s), original);
        QCOMPARE(read(after + u".ls"_s), QByteArray("notes.txt\n"));
        // The model heard why each change failed.
        QCOMPARE(m_server.requests().size() - before, qsizetype(5)); // 4 steps and the title
        for (const qsizetype step : {before + 2, before + 3}) {
            const QByteArray body = m_server.requests().at(step).body;
            const qsizetype result = body.lastIndexOf("\"role\":\"tool\"");
            QVERIFY2(body.contains("Cannot write ") && body.contains("No space left on device"),
                     body.mid(result, 600).constData());
        }
    }

    void forkFailsWhole()
    {
        const QString after = m_home.path() + u"/after-fork"_s;
        const Output fork = onFullDisk(8, {u"session"_s, u"fork"_s, m_sessionID}, after);
        QVERIFY(fork.code != 0);
        QVERIFY2(fork.err.contains("No space left on device"), fork.err.constData());
        checkWholeAndKept(m_seed, after);
        QCOMPARE(sessionsIn(after), 1); // no half-copied session
    }

    void importFailsWhole()
    {
        const Output exported = execute(QStringLiteral(WEFT_BINARY_DIR "/bin/weft"),
                                        {u"--data-dir"_s, m_seed, u"export"_s, m_sessionID});
        QCOMPARE(exported.code, 0);
        const QString file = m_home.path() + u"/export.json"_s;
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(exported.out);
        f.close();
        const QString after = m_home.path() + u"/after-import"_s;
        const Output imported = onFullDisk(8, {u"import"_s, file}, after);
        QVERIFY(imported.code != 0);
        QVERIFY2(imported.err.contains("No space left on device"), imported.err.constData());
        checkWholeAndKept(m_seed, after);
        QCOMPARE(sessionsIn(after), 1);
    }

    void compactionFailsWhole()
    {
        OpenAiStream summary;
        summary.role();
        for (int i = 0; i < 3000; ++i)
            summary.text(u"Summary line %1 of what was done and what is next. "_s.arg(i));
        m_server.enqueue(FakeReply::sse(summary.finish(u"stop"_s).usage(2000, 800).done().bytes()));
        const QString after = m_home.path() + u"/after-compact"_s;
        const Output compacted = onFullDisk(16, {u"session"_s, u"compact"_s, m_sessionID}, after);
        QVERIFY(compacted.code != 0);
        QVERIFY2(compacted.err.contains("No space left on device"), compacted.err.constData());
        checkWholeAndKept(m_seed, after);
    }
};

QTEST_GUILESS_MAIN(TestFullDisk)
#include "tst_fulldisk.moc"
