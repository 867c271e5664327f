// SPDX-License-Identifier: GPL-3.0-or-later
// Processor stream benchmark: a 5,000-delta reply through the whole loop (provider, parts written
// to the store, coalesced signals) to a receiver on the main thread, which measures how many
// deltas per second arrive and the longest time its event loop was blocked. The loopback server
// runs in a thread of its own, as a provider is another machine: writing a 7 MB reply at once
// must not count as a stall of Weft's receiver.
//
// Prints one JSON object: {"deltas":..., "deltas_per_s":..., "max_stall_ms":..., "signals":...}
#include "fakellmserver.h"

#include "processor/processor.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int deltas = argc > 1 ? QByteArray(argv[1]).toInt() : 5000;

    QTemporaryDir data, project;
    auto store = std::make_shared<JsonStore>(data.path());
    if (!store->initialize())
        return 1;
    auto service = std::make_shared<SessionService>(store);
    FakeLlmServerThread server;
    OpenAiStream stream;
    stream.role();
    for (int i = 0; i < deltas; ++i)
        stream.text(u"tok%1 "_s.arg(i % 100));
    stream.finish(u"stop"_s).usage(1000, deltas).done();
    // Paced like a model: about 25 deltas per TCP write, a write every 2 ms (some 12,500/s).
    const bool paced = !(argc > 2 && QByteArray(argv[2]) == "burst");
    FakeReply reply = FakeReply::sse(stream.bytes());
    if (paced)
        reply.chunked(stream.bytes().size() / qMax(1, deltas / 25), 2);
    const QUrl base = server.start(reply);
    if (base.isEmpty())
        return 1;

    ProcessorConfig config;
    config.dataDir = data.path();
    config.generateTitles = false;
    config.snapshots = ProcessorConfig::Snapshots::Never;
    config.resolveModel = [base](const QString &) -> Result<ResolvedModel> {
        ResolvedModel m;
        m.providerID = u"fake"_s;
        m.modelID = u"gpt-test"_s;
        m.settings.providerID = u"fake"_s;
        m.settings.baseURL = base;
        return m;
    };
    Processor processor(service, config);

    // The "GUI thread": count what arrives, and watch the event loop's responsiveness.
    qint64 received = 0, signalCount = 0, requestMs = -1, lastMs = 0, maxStall = 0;
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0;
    QTimer ticker;
    ticker.setInterval(1);
    QObject::connect(&ticker, &QTimer::timeout, &app, [&] {
        const qint64 now = clock.elapsed();
        maxStall = qMax(maxStall, now - lastTick);
        lastTick = now;
    });
    QObject::connect(service.get(), &SessionService::partUpdated, &app, [&](const Part &part, const QString &delta) {
        if (part.type() != PartType::Text || delta.isEmpty())
            return;
        lastMs = clock.elapsed();
        received += delta.count(u' ');
        ++signalCount;
    });
    QObject::connect(server.server(), &FakeLlmServer::requestReceived, &app, [&] { requestMs = clock.elapsed(); });
    QObject::connect(&processor, &Processor::finished, &app, [&] { QCoreApplication::quit(); });
    PromptRequest request;
    request.directory = project.path();
    request.text = u"stream"_s;
    if (!processor.prompt(request))
        return 1;
    lastTick = clock.elapsed();
    ticker.start();
    QCoreApplication::exec();
    // From the request reaching the server to the last delta reaching this thread.
    const double seconds = qMax<qint64>(1, lastMs - requestMs) / 1000.0;
    std::printf("{\"mode\": \"%s\", \"deltas\": %lld, \"seconds\": %.3f, \"deltas_per_s\": %.0f, \"max_stall_ms\": %lld, "
                "\"signals\": %lld}\n",
                paced ? "paced" : "burst", received, seconds, received / seconds, maxStall, signalCount);
    return received == deltas ? 0 : 2;
}
