// SPDX-License-Identifier: GPL-3.0-or-later
// The diff parsers and builders of the changes pane: DiffDocument::fromPatch (unified patch text
// from a session's metadata), fromContents (before and after, Myers' diff), the word diff, the
// row and side-by-side mappings, and reverse(). The input is "patch\n~~~\nbefore\n~~~\nafter".

#include "fuzzcommon.h"

#include "diff/diffdocument.h"
#include "diff/textdiff.h"

#include <cstdlib>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{
void walk(const DiffDocument &doc)
{
    for (int row = 0; row < doc.rows().size(); ++row) {
        (void)doc.text(row);
        // The pane asks for the word diff of the rows it shows (each may take up to 50 ms).
        if (row < 64)
            (void)doc.words(row);
        const int side = doc.sideRowOf(row);
        if (side >= 0)
            (void)doc.rowOfSide(side);
    }
    for (int hunk = 0; hunk < doc.hunks().size(); ++hunk)
        (void)doc.hunkHeader(hunk);
    (void)doc.maxLineLength();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // Myers' diff is quadratic in the worst case: long inputs only make the fuzzer slow.
    if (size > 16384)
        return 0;
    const QList<QByteArray> fields = fuzz::fields(data, size, 3);
    const QString patch = QString::fromUtf8(fields.value(0));
    const QString before = QString::fromUtf8(fields.value(1));
    const QString after = QString::fromUtf8(fields.value(2));

    const DiffDocument parsed = DiffDocument::fromPatch(u"a.txt"_s, patch);
    walk(parsed);
    (void)parsed.reverse(after);

    const DiffDocument built = DiffDocument::fromContents(u"a.txt"_s, before, after);
    walk(built);
    // The contents form reverses its own "after" to its "before", always.
    const Result<QString> reversed = built.reverse(after);
    if (!reversed || *reversed != before) {
        std::fprintf(stderr, "fuzz_diff: reverse(after) is not before\n");
        std::abort();
    }
    // The unified patch of two texts reads back with the counts TextDiff gives.
    const QString unified = TextDiff::unified(u"a.txt"_s, before, after);
    const DiffDocument back = DiffDocument::fromPatch(u"a.txt"_s, unified);
    walk(back);
    const TextDiff::Counts counts = TextDiff::count(before, after);
    if (back.additions() != counts.additions || back.deletions() != counts.deletions) {
        std::fprintf(stderr, "fuzz_diff: the unified patch reads back with other counts (+%lld -%lld, not +%lld -%lld)\n",
                     qlonglong(back.additions()), qlonglong(back.deletions()), qlonglong(counts.additions),
                     qlonglong(counts.deletions));
        std::abort();
    }
    return 0;
}
