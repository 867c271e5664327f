// SPDX-License-Identifier: GPL-3.0-or-later
// `weft import` (Transfer::importFile): the input is the export file. A session it imports must
// export again as a valid document (Transfer::exportSession, validateExport). Every input gets a
// fresh JSON store in the process's temporary folder, removed after it.

#include "fuzzcommon.h"

#include "session/sessionservice.h"
#include "session/transfer.h"
#include "store/jsonstore.h"

#include <QDir>
#include <QFile>

#include <cstdlib>

using namespace weft;
using namespace Qt::StringLiterals;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::ensureApp();
    const QString dir = fuzz::tempDir() + u"/store"_s;
    const QString file = fuzz::tempDir() + u"/export.json"_s;
    {
        QFile out(file);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        out.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    QDir().mkpath(dir);
    {
        auto store = std::make_shared<JsonStore>(dir);
        if (!store->initialize())
            std::abort();
        SessionService service(store);
        const Result<Transfer::ImportResult> imported = Transfer::importFile(service, file);
        if (imported) {
            const Result<JsonObject> exported = Transfer::exportSession(service, imported->session.id());
            if (!exported) {
                std::fprintf(stderr, "fuzz_import: an imported session does not export: %s\n",
                             qPrintable(exported.error().message));
                std::abort();
            }
            const std::optional<JsonValue> again = parseJson(Transfer::formatExport(*exported));
            const QList<ValidationIssue> issues = again ? Transfer::validateExport(*again) : QList<ValidationIssue>();
            if (!again || !issues.isEmpty()) {
                std::fprintf(stderr, "fuzz_import: the export of an imported session is not valid: %s\n",
                             issues.isEmpty() ? "unreadable" : qPrintable(issues.first().toString()));
                std::abort();
            }
        }
    }
    QDir(dir).removeRecursively();
    return 0;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    // The application and the temporary folder,
    // once, before libFuzzer's per-input timeout applies.
    static const char warm[] = "{}";
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(warm), sizeof warm - 1);
    return 0;
}
