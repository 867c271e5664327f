// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks of Weft's models and session operations on a generated store
// (tests/bench/generate_store). Each mode is one measurement in a fresh process and prints one
// JSON object; the runner (tests/bench/run-benchmarks.py) repeats it and takes the median.
//
//   bench_model model-open DATA SESSION   read the whole session, sessions and timeline models filled
//   bench_model fork DATA SESSION [--keep] SessionService::fork of all messages, then the file
//                                          system's floor for the same files; the fork is removed
//                                          after (timed) unless --keep
//   bench_model compaction DATA SESSION   prune (dry run) and compaction previews on the loaded messages

#include "bench_common.h"

#include "session/sessionstore.h"
#include "compaction/compaction.h"
#include "core/parallel.h"
#include "qt/sessionsmodel.h"
#include "qt/timelinemodel.h"

#include <QDir>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::bench;

namespace
{

int modelOpen(const QString &dataDir, const QString &sessionID)
{
    const qint64 start = s_clock.nsecsElapsed();
    auto service = openService(dataDir);
    if (!service)
        return 1;
    SessionsModel sessions(service.get());
    TimelineModel timeline(service.get());
    timeline.setPageSize(1 << 30); // every message as a row
    bool timelineLoaded = false;
    double timelineMs = 0, sessionsMs = 0;
    QObject::connect(&timeline, &TimelineModel::loaded, &timeline, [&] {
        timelineLoaded = true;
        timelineMs = msSince(start);
    });
    QObject::connect(&sessions, &SessionsModel::loaded, &sessions, [&] { sessionsMs = msSince(start); });
    timeline.setSessionID(sessionID);
    if (!waitFor([&] { return timelineLoaded && sessions.isLoaded(); }, 120000))
        return 3;
    const double totalMs = msSince(start);
    // The plain store read, for comparison (warm now).
    const qint64 readStart = s_clock.nsecsElapsed();
    const QList<MessageWithParts> messages = service->messages(sessionID);
    const double readMs = msSince(readStart);
    qint64 parts = 0;
    for (const MessageWithParts &m : messages)
        parts += m.parts.size();
    printJson({{u"ms"_s, totalMs},
               {u"timeline_ms"_s, timelineMs},
               {u"sessions_ms"_s, sessionsMs},
               {u"rows"_s, qint64(timeline.rowCount())},
               {u"messages"_s, qint64(messages.size())},
               {u"parts"_s, parts},
               {u"second_read_ms"_s, readMs},
               {u"rss_kib"_s, rssKiB()}});
    return timeline.rowCount() == messages.size() ? 0 : 2;
}

/// What the file system alone asks for a fork's files: in the same folders a fork writes to
/// (`part/<message>/` and `message/<session>/` of @p storage), one new folder per message and one
/// empty file per message and part, created on every core as the fork does, with one syncfs: the
/// floor of a fork on this disk. The files stay (removing them would slow down every file created
/// in the next minutes: ext4 skips recently freed inodes); the runner removes the whole copy.
double createFloorMs(const QString &storage, const QList<qsizetype> &partsPerMessage)
{
    const QByteArray root = QFile::encodeName(storage);
    const QByteArray messageDir = root + "/message/ses_benchfloor";
    ::mkdir(messageDir.constData(), 0755);
    const qint64 start = s_clock.nsecsElapsed();
    parallelFor(partsPerMessage.size(), [&](qsizetype i) {
        const QByteArray name = "msg_benchfloor" + QByteArray::number(i);
        const QByteArray dir = root + "/part/" + name;
        ::mkdir(dir.constData(), 0755);
        const auto create = [](const QByteArray &file) {
            const int fd = ::open(file.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (fd >= 0)
                ::close(fd);
        };
        for (qsizetype p = 0; p < partsPerMessage.at(i); ++p)
            create(dir + "/prt_benchfloor" + QByteArray::number(p) + ".json");
        create(messageDir + '/' + name + ".json");
    });
    const int rootFd = ::open(root.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ::syncfs(rootFd);
    ::close(rootFd);
    return msSince(start);
}

int fork(const QString &dataDir, const QString &sessionID, bool remove)
{
    auto service = openService(dataDir);
    if (!service)
        return 1;
    QList<qsizetype> partsPerMessage;
    qint64 files = 0;
    for (const MessageWithParts &m : service->messages(sessionID)) {
        partsPerMessage.append(m.parts.size());
        files += 1 + m.parts.size();
    }
    const qint64 start = s_clock.nsecsElapsed();
    const Result<Session> forked = service->fork(sessionID);
    const double ms = msSince(start);
    if (!forked) {
        std::fprintf(stderr, "fork failed: %s\n", qPrintable(forked.error().toString()));
        return 1;
    }
    const qsizetype messages = storeOf(*service)->messages(forked->id()).size();
    // Nothing is removed before the floor is measured (see createFloorMs()).
    const double floorMs = createFloorMs(dataDir + u"/storage"_s, partsPerMessage);
    JsonObject out{{u"ms"_s, ms}, {u"messages"_s, qint64(messages)}, {u"files"_s, files}, {u"create_floor_ms"_s, floorMs}};
    if (remove) {
        const qint64 removeStart = s_clock.nsecsElapsed();
        if (!service->remove(forked->id()))
            return 1;
        out.insert(u"remove_ms"_s, msSince(removeStart));
    }
    printJson(out);
    return 0;
}

template<typename F>
double medianMs(int runs, F &&f)
{
    QList<double> times;
    for (int i = 0; i < runs; ++i) {
        const qint64 start = s_clock.nsecsElapsed();
        f();
        times.append(msSince(start));
    }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}

int compaction(const QString &dataDir, const QString &sessionID)
{
    auto service = openService(dataDir);
    if (!service)
        return 1;
    QList<MessageWithParts> messages;
    const double loadMs = medianMs(1, [&] { messages = service->messages(sessionID); });
    const Compaction::Settings settings = Compaction::Settings::fromConfig({}).value();
    const Compaction::ModelLimits model{u"anthropic/claude-sonnet-4-5"_s, 200000, 64000};
    Compaction::PrunePlan plan;
    const double pruneMs = medianMs(9, [&] { plan = Compaction::planPrune(messages, settings.estimator); });
    Compaction::Preview preview;
    const double previewMs = medianMs(9, [&] {
        preview = Compaction::makePreview(sessionID, messages, settings, Compaction::Strategy::Summary, model);
    });
    const double tailMs = medianMs(9, [&] {
        preview = Compaction::makePreview(sessionID, messages, settings, Compaction::Strategy::SummaryTail, model);
    });
    const double pruneStoreMs = medianMs(3, [&] { (void)Compaction::prune(*service, sessionID, settings, true); });
    printJson({{u"load_ms"_s, loadMs},
               {u"prune_ms"_s, pruneMs},
               {u"preview_ms"_s, previewMs},
               {u"preview_tail_ms"_s, tailMs},
               {u"prune_with_load_ms"_s, pruneStoreMs},
               {u"prune_candidates"_s, qint64(plan.parts.size())},
               {u"messages"_s, qint64(messages.size())}});
    return 0;
}

int usage()
{
    std::fprintf(stderr, "usage: bench_model model-open|fork|compaction DATA SESSION\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    s_clock.start();
    if (argc < 4)
        return usage();
    QCoreApplication app(argc, argv);
    const QByteArray mode = argv[1];
    const QString dataDir = QString::fromLocal8Bit(argv[2]);
    const QString sessionID = QString::fromLocal8Bit(argv[3]);
    if (mode == "model-open")
        return modelOpen(dataDir, sessionID);
    if (mode == "fork")
        return fork(dataDir, sessionID, !(argc > 4 && QByteArray(argv[4]) == "--keep"));
    if (mode == "compaction")
        return compaction(dataDir, sessionID);
    return usage();
}
