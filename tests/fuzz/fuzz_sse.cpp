// SPDX-License-Identifier: GPL-3.0-or-later
// The text/event-stream parser: the same events whether the bytes come at once or split
// anywhere (the first byte of the input picks the split sizes).

#include "fuzzcommon.h"

#include "provider/sseparser.h"

#include <cstdlib>

using namespace weft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const unsigned step = data[0];
    const QByteArrayView stream = fuzz::bytes(data + 1, size - 1);

    SseParser whole;
    const QList<SseEvent> all = whole.feed(stream);
    const bool wholeDropped = whole.finish();

    SseParser split;
    QList<SseEvent> pieces;
    qsizetype at = 0;
    unsigned n = 0;
    while (at < stream.size()) {
        // Chunks of 1 to 16 bytes in a pattern the first byte chooses.
        const qsizetype length = std::min<qsizetype>(1 + ((step >> (n % 4)) + n) % 16, stream.size() - at);
        ++n;
        pieces += split.feed(stream.sliced(at, length));
        at += length;
    }
    const bool splitDropped = split.finish();

    if (all != pieces || wholeDropped != splitDropped || whole.comments() != split.comments()
        || whole.retry() != split.retry()) {
        std::fprintf(stderr, "fuzz_sse: split feeding gives other events than one feed\n");
        std::abort();
    }
    split.reset();
    if (split.hasPending() || !split.feed({}).isEmpty())
        std::abort();
    return 0;
}
