// SPDX-License-Identifier: GPL-3.0-or-later
// The bash tool's command analyser (ShellSyntax::analyze): a model writes the command lines, so
// any bytes may come. It must neither crash nor loop, and what it reports must hold together.

#include "fuzzcommon.h"

#include "processor/tools/shellsyntax.h"

#include <cstdlib>

using namespace weft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString line = fuzz::text(data, size);
    const ShellSyntax::Analysis analysis = ShellSyntax::analyze(line);
    for (const ShellSyntax::Command &command : analysis.commands) {
        // Every command has a name, and nesting stays within its bound.
        if (command.words.isEmpty() || command.nesting > ShellSyntax::MaxNesting)
            std::abort();
        (void)command.normalized();
        QStringList words;
        for (const ShellSyntax::Word &w : command.words)
            words.append(w.text);
        if (ShellSyntax::arity(words) > words.size())
            std::abort();
    }
    if (!analysis.complete && analysis.problem.isEmpty())
        std::abort();
    return 0;
}
