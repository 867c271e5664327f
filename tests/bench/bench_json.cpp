// SPDX-License-Identifier: GPL-3.0-or-later
// JSON parsers on the files of a generated store (tests/bench/generate_store): what choosing a
// parser would change. Every file is read into memory first; then each parser parses all of
// them, 5 times, in one thread; the median run is reported in MB/s.
//
//   bench_json DATA
//
// - weft: weft::parseJson, what the store uses: simdjson first where Weft is built with it, its
//   values turned into Weft's ordered, lossless ones; Weft's own parser for the rest.
// - weft_own: weft::parseJsonOwn, Weft's own parser alone.
// - qt: QJsonDocument::fromJson. Fast, but its objects sort their keys, so a file written back
//   would not be OpenCode's any more: a reference, not a candidate.
// - simdjson: simdjson's DOM parser alone (only when built with simdjson), and simdjson with its
//   DOM turned into Weft's ordered values, which is what using it in the store would cost.

#include "bench_common.h"

#include "core/json.h"

#include <QDirIterator>
#include <QJsonDocument>

#include <vector>

#ifdef WEFT_HAVE_SIMDJSON
#include <simdjson.h>
#endif

using namespace Qt::StringLiterals;
using namespace weft;
using namespace weft::bench;

namespace
{

#ifdef WEFT_HAVE_SIMDJSON
JsonValue fromSimdjson(simdjson::dom::element e)
{
    switch (e.type()) {
    case simdjson::dom::element_type::OBJECT: {
        JsonObject o;
        for (simdjson::dom::key_value_pair member : simdjson::dom::object(e)) {
            const std::string_view key = member.key;
            o.insert(QString::fromUtf8(key.data(), qsizetype(key.size())), fromSimdjson(member.value));
        }
        return o;
    }
    case simdjson::dom::element_type::ARRAY: {
        JsonArray a;
        for (simdjson::dom::element item : simdjson::dom::array(e))
            a.append(fromSimdjson(item));
        return a;
    }
    case simdjson::dom::element_type::STRING: {
        const std::string_view s = std::string_view(e);
        return QString::fromUtf8(s.data(), qsizetype(s.size()));
    }
    case simdjson::dom::element_type::INT64:
        return double(int64_t(e));
    case simdjson::dom::element_type::UINT64:
        return double(uint64_t(e));
    case simdjson::dom::element_type::DOUBLE:
        return double(e);
    case simdjson::dom::element_type::BOOL:
        return bool(e);
    case simdjson::dom::element_type::NULL_VALUE:
        return nullptr;
    }
    return {};
}
#endif

template<typename F>
JsonObject measure(const QList<QByteArray> &files, qint64 bytes, F &&parseAll)
{
    QList<double> runs;
    qint64 failures = 0;
    for (int i = 0; i < 5; ++i) {
        const qint64 start = s_clock.nsecsElapsed();
        failures = parseAll(files);
        runs.append(msSince(start));
    }
    std::sort(runs.begin(), runs.end());
    const double median = runs.at(runs.size() / 2);
    return JsonObject{{u"ms"_s, median},
                      {u"min_ms"_s, runs.first()},
                      {u"max_ms"_s, runs.last()},
                      {u"mb_per_s"_s, double(bytes) / 1e6 / (median / 1000.0)},
                      {u"failures"_s, failures}};
}

} // namespace

int main(int argc, char **argv)
{
    s_clock.start();
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_json DATA\n");
        return 2;
    }
    QCoreApplication app(argc, argv);
    QList<QByteArray> files;
    qint64 bytes = 0;
    QDirIterator it(QString::fromLocal8Bit(argv[1]) + u"/storage"_s, {u"*.json"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly)) {
            files.append(f.readAll());
            bytes += files.last().size();
        }
    }
    JsonObject out{{u"files"_s, qint64(files.size())}, {u"bytes"_s, bytes}};

    out.insert(u"weft"_s, measure(files, bytes, [](const QList<QByteArray> &all) {
        qint64 failed = 0;
        for (const QByteArray &f : all)
            failed += parseJson(f) ? 0 : 1;
        return failed;
    }));
    out.insert(u"weft_own"_s, measure(files, bytes, [](const QList<QByteArray> &all) {
        qint64 failed = 0;
        for (const QByteArray &f : all)
            failed += parseJsonOwn(f) ? 0 : 1;
        return failed;
    }));
    out.insert(u"qt"_s, measure(files, bytes, [](const QList<QByteArray> &all) {
        qint64 failed = 0;
        for (const QByteArray &f : all) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(f, &error);
            failed += error.error == QJsonParseError::NoError ? 0 : 1;
        }
        return failed;
    }));
#ifdef WEFT_HAVE_SIMDJSON
    // simdjson wants SIMDJSON_PADDING readable bytes after the document.
    std::vector<simdjson::padded_string> padded;
    for (const QByteArray &f : std::as_const(files))
        padded.emplace_back(f.constData(), size_t(f.size()));
    simdjson::dom::parser parser;
    out.insert(u"simdjson_dom"_s, measure(files, bytes, [&](const QList<QByteArray> &) {
        qint64 failed = 0;
        for (const simdjson::padded_string &f : padded) {
            simdjson::dom::element doc;
            failed += parser.parse(f).get(doc) == simdjson::SUCCESS ? 0 : 1;
        }
        return failed;
    }));
    out.insert(u"simdjson_to_weft"_s, measure(files, bytes, [&](const QList<QByteArray> &) {
        qint64 failed = 0;
        for (const simdjson::padded_string &f : padded) {
            simdjson::dom::element doc;
            if (parser.parse(f).get(doc) != simdjson::SUCCESS) {
                ++failed;
                continue;
            }
            const JsonValue v = fromSimdjson(doc);
            failed += v.isUndefined() ? 1 : 0;
        }
        return failed;
    }));
    // Lossless: simdjson's values written back must be the very bytes of each file.
    qint64 differing = 0;
    for (qsizetype i = 0; i < files.size(); ++i) {
        simdjson::dom::element doc;
        if (parser.parse(padded.at(size_t(i))).get(doc) != simdjson::SUCCESS || toJson(fromSimdjson(doc), 2) != files.at(i))
            ++differing;
    }
    out.insert(u"simdjson_round_trip_differing"_s, differing);
#else
    out.insert(u"simdjson_dom"_s, nullptr);
#endif
    // Writing back: JSON.stringify(value, null, 2) of every file's values.
    QList<JsonValue> values;
    for (const QByteArray &f : std::as_const(files))
        values.append(parseJson(f).value_or(JsonValue()));
    out.insert(u"serialize"_s, measure(files, bytes, [&](const QList<QByteArray> &) {
        qint64 written = 0;
        for (const JsonValue &v : std::as_const(values))
            written += toJson(v, 2).size();
        return written == bytes ? 0 : 1;
    }));
    qint64 weftDiffering = 0, ownDiffering = 0;
    for (const QByteArray &f : std::as_const(files)) {
        const std::optional<JsonValue> v = parseJson(f);
        if (!v || toJson(*v, 2) != f)
            ++weftDiffering;
        const std::optional<JsonValue> own = parseJsonOwn(f);
        if (!own || toJson(*own, 2) != f)
            ++ownDiffering;
    }
    out.insert(u"weft_round_trip_differing"_s, weftDiffering);
    out.insert(u"weft_own_round_trip_differing"_s, ownDiffering);
    printJson(out);
    return 0;
}
