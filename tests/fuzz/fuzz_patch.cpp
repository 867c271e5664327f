// SPDX-License-Identifier: GPL-3.0-or-later
// The apply_patch tool's parser and matcher (ApplyPatch::parse, applyChunks): the input is
// "patch\n~~~\nfile", the file being what each Update hunk is applied to.

#include "fuzzcommon.h"

#include "processor/tools/applypatchtool.h"

using namespace weft;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // The matcher compares every chunk with every position: long inputs only slow the fuzzer.
    if (size > 16384)
        return 0;
    const QList<QByteArray> fields = fuzz::fields(data, size, 2);
    const QString patch = QString::fromUtf8(fields.value(0));
    const QString file = QString::fromUtf8(fields.value(1));
    const Result<QList<ApplyPatch::Hunk>> hunks = ApplyPatch::parse(patch);
    if (!hunks)
        return 0;
    for (const ApplyPatch::Hunk &hunk : *hunks) {
        if (hunk.type != ApplyPatch::Hunk::Type::Update)
            continue;
        (void)ApplyPatch::applyChunks(file, hunk.chunks, hunk.path);
    }
    return 0;
}
