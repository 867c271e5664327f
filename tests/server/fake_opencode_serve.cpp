// SPDX-License-Identifier: GPL-3.0-or-later
// A stand-in for `opencode serve` on the "remote" side of tst_sshtunnel: takes the arguments
// the real one takes (`serve --hostname H --port P`), prints its "listening on" line, and
// answers with the exchanges recorded from OpenCode 1.18.34 (FakeOpencodeServer), with the
// password of OPENCODE_SERVER_PASSWORD. The test links it as `opencode` in a folder that it puts
// on the remote PATH; next to that link:
//   fail    if present, printed to stderr, then the server exits with 1 (a broken install);
//   pids    each start appends its PID (so that the test can check that it was stopped).

#include "fakeopencodeserver.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    // argv[0] as the shell ran it: the link's folder, not the binary's.
    const QString dir = QFileInfo(QString::fromLocal8Bit(argv[0])).absolutePath();
    if (args.size() < 2 || args.at(1) != u"serve") {
        std::fputs("fake opencode: only `serve` is known\n", stderr);
        return 2;
    }
    if (QFile fail(dir + u"/fail"_s); fail.open(QIODevice::ReadOnly)) {
        std::fputs(fail.readAll().constData(), stderr);
        return 1;
    }
    if (QFile pids(dir + u"/pids"_s); pids.open(QIODevice::Append))
        pids.write(QByteArray::number(QCoreApplication::applicationPid()) + '\n');

    weft::test::FakeOpencodeServer server(qEnvironmentVariable("OPENCODE_SERVER_PASSWORD"));
    server.routeAllRecorded();
    // The list as `weft session list` reads it (as tst_servercli answers it).
    // A prompt to the recorded session is taken (its answer never streams: a run waits).
    server.routeRecorded(u"V1 prompt_async (bash tool asks)"_s);
    server.route("GET", u"/experimental/session"_s, 200, weft::test::recordedExchange(u"session list"_s).responseBody);
    if (!server.listen()) {
        std::fputs("fake opencode: cannot listen\n", stderr);
        return 1;
    }
    // As OpenCode 1.18.34 says it (--hostname 127.0.0.1 is what Weft asks for; --port 0 any).
    std::printf("opencode server listening on %s\n", server.url().toString().toUtf8().constData());
    std::fflush(stdout);
    return QCoreApplication::exec();
}
