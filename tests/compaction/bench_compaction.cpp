// SPDX-License-Identifier: GPL-3.0-or-later
// Times prune (dry run) and the compaction preview on a 3,000-message session with 1,500 tool
// outputs in a temporary store. Prints the numbers; the target is under 30 ms for either (on
// messages already loaded; the store's load time is printed separately).

#include "sessionbuilder.h"

#include "compaction/compaction.h"
#include "session/sessionservice.h"
#include "store/jsonstore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{
template<typename F>
double medianMs(int runs, F &&f)
{
    QList<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        f();
        times.append(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    auto store = std::make_shared<JsonStore>(dir.path());
    if (!store->initialize()) {
        std::fprintf(stderr, "cannot create the store\n");
        return 1;
    }
    SessionService service(store);
    SessionService::CreateOptions options;
    options.directory = dir.path();
    const Result<Session> session = service.create(options);
    if (!session)
        return 1;

    // 1,500 turns: a user question and an answer with one tool call of 100 to 2,000 tokens.
    test::SessionBuilder b(session->id());
    for (int i = 0; i < 1500; ++i) {
        b.user(u"Step %1: look at the next file, please."_s.arg(i));
        Tokens tokens;
        tokens.input = 1000 + i * 100;
        tokens.output = 200;
        b.assistant(u"Reading file %1."_s.arg(i), u"tool-calls"_s, tokens);
        b.tool(100 + (i * 37) % 1900, i % 50 == 0 ? u"skill"_s : u"read"_s);
    }
    QElapsedTimer write;
    write.start();
    if (!b.write(service))
        return 1;
    const double writeMs = double(write.elapsed());

    QList<MessageWithParts> messages;
    const double loadMs = medianMs(3, [&] { messages = service.messages(session->id()); });
    const Compaction::Settings settings = Compaction::Settings::fromConfig({}).value();
    const Compaction::ModelLimits model{u"fake/model"_s, 200000, 32000};

    Compaction::PrunePlan plan;
    const double pruneMs = medianMs(9, [&] { plan = Compaction::planPrune(messages, settings.estimator); });
    Compaction::Preview preview;
    const double previewMs = medianMs(9, [&] {
        preview = Compaction::makePreview(session->id(), messages, settings, Compaction::Strategy::Summary, model);
    });
    const double tailMs = medianMs(9, [&] {
        preview = Compaction::makePreview(session->id(), messages, settings, Compaction::Strategy::SummaryTail, model);
    });
    const qsizetype kept = preview.kept.size();
    Compaction::Settings gemini = settings;
    gemini.estimator = Compaction::Estimator::Gemini;
    const double geminiMs = medianMs(9, [&] {
        preview = Compaction::makePreview(session->id(), messages, gemini, Compaction::Strategy::Summary, model);
    });
    const double pruneStoreMs = medianMs(3, [&] { (void)Compaction::prune(service, session->id(), settings, true); });

    std::printf("session: %lld messages, %lld tool outputs (written in %.0f ms)\n", qlonglong(messages.size()), 1500LL, writeMs);
    std::printf("load from the store:                 %8.2f ms\n", loadMs);
    std::printf("prune, dry run (planPrune):          %8.2f ms  (%lld candidates, %lld tokens)\n", pruneMs,
                qlonglong(plan.parts.size()), qlonglong(plan.pruned));
    std::printf("preview, summary:                    %8.2f ms\n", previewMs);
    std::printf("preview, summary-tail:               %8.2f ms  (%lld kept)\n", tailMs, qlonglong(kept));
    std::printf("preview, summary, gemini estimator:  %8.2f ms\n", geminiMs);
    std::printf("prune dry run with the store load:   %8.2f ms\n", pruneStoreMs);
    std::printf("target: under 30 ms for prune and preview: %s\n", pruneMs < 30 && previewMs < 30 && tailMs < 30 ? "met" : "MISSED");
    return 0;
}
