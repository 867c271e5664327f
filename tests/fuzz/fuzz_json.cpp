// SPDX-License-Identifier: GPL-3.0-or-later
// Weft's JSON reader: parseJson() (simdjson first where the build has it, then Weft's own
// parser), parseJsonPadded() and parseJsonOwn() must take and refuse the same inputs and give
// equal values; whatever they take must serialise and read back to the same text.

#include "fuzzcommon.h"

#include "core/json.h"

#include <cstdlib>
#include <cstring>

using namespace weft;

namespace
{
[[noreturn]] void disagree(const char *what)
{
    std::fprintf(stderr, "fuzz_json: %s\n", what);
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input = fuzz::bytes(data, size);
    JsonParseError ownError, fastError;
    const std::optional<JsonValue> own = parseJsonOwn(input, &ownError);
    const std::optional<JsonValue> fast = parseJson(input, &fastError);
    // parseJsonPadded() may read JsonPadding bytes past the data.
    QByteArray padded(input.size() + JsonPadding, '}');
    if (!input.isEmpty())
        std::memcpy(padded.data(), input.data(), input.size());
    const std::optional<JsonValue> fastPadded = parseJsonPadded(QByteArrayView(padded.constData(), input.size()));

    if (own.has_value() != fast.has_value())
        disagree(own ? "parseJson refuses what parseJsonOwn takes" : "parseJson takes what parseJsonOwn refuses");
    if (own.has_value() != fastPadded.has_value())
        disagree("parseJsonPadded and parseJsonOwn disagree on validity");
    if (!own) {
        if (ownError.message.isEmpty() || fastError.message.isEmpty())
            disagree("a refused document without an error message");
        if (ownError.offset < 0 || ownError.offset > input.size() || ownError.line < 1 || ownError.column < 1)
            disagree("an error position outside the document");
        return 0;
    }
    if (!(*own == *fast) || !(*own == *fastPadded))
        disagree("the parsers read different values");

    // Serialising is a fixed point after one round (Infinity becomes null, lone surrogates
    // their replacement, as in JavaScript).
    for (int indent : {0, 2}) {
        const QByteArray once = toJson(*own, indent);
        const std::optional<JsonValue> back = parseJsonOwn(once);
        if (!back)
            disagree("toJson() wrote text the parser refuses");
        if (toJson(*back, indent) != once)
            disagree("toJson(parse(toJson(v))) != toJson(v)");
        // Written through the streaming writer (each top-level item or member as a value
        // serialized at its level): the same bytes.
        QByteArray pieces;
        JsonStreamWriter json(indent, [&pieces](QByteArrayView piece) { pieces.append(piece); });
        if (own->isArray()) {
            json.beginArray();
            for (const JsonValue &item : own->toArray())
                json.serializedValue(toJson(item, indent, json.level()));
            json.end();
        } else if (own->isObject()) {
            const JsonObject object = own->toObject();
            json.beginObject();
            for (qsizetype i = 0; i < object.size(); ++i) {
                json.key(object.keyAt(i));
                json.value(object.valueAt(i));
            }
            json.end();
        } else {
            json.value(*own);
        }
        if (pieces != once)
            disagree("JsonStreamWriter and toJson() differ");
    }
    return 0;
}
