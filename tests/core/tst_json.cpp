// SPDX-License-Identifier: GPL-3.0-or-later
// The ordered JSON value, parser and JSON.stringify-exact serialiser (model/core/json.h).

#include "core/json.h"
#include "testdata.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace Qt::StringLiterals;
using weft::JsonArray;
using weft::JsonObject;
using weft::JsonParseError;
using weft::JsonValue;

namespace
{
/// A string of UTF-16 code units, for lone surrogates that no string literal can hold.
QString units(std::initializer_list<char16_t> codeUnits)
{
    QString s;
    for (char16_t c : codeUnits)
        s.append(QChar(c));
    return s;
}

/// Every fixture file: relative name -> (absolute path, whether OpenCode ended it with "\n").
struct FixtureFile {
    QString name;
    QString path;
    bool trailingNewline;
};

QList<FixtureFile> fixtureFiles()
{
    QList<FixtureFile> files;
    const QString root = weft::test::fixtureDir();
    QDirIterator storage(root + u"/storage"_s, QDir::Files, QDirIterator::Subdirectories);
    while (storage.hasNext()) {
        const QString path = storage.next();
        files.append({QDir(root).relativeFilePath(path), path, false});
    }
    QDirIterator exports(root + u"/export"_s, {u"*.json"_s}, QDir::Files);
    while (exports.hasNext()) {
        const QString path = exports.next();
        files.append({QDir(root).relativeFilePath(path), path, true});
    }
    files.append({u"session-list.json"_s, root + u"/session-list.json"_s, true});
    std::sort(files.begin(), files.end(), [](const FixtureFile &a, const FixtureFile &b) { return a.name < b.name; });
    return files;
}
} // namespace

class TestJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fixtureFileCount();
    void fixtureRoundTrip_data();
    void fixtureRoundTrip();

    void jsNumbers_data();
    void jsNumbers();
    void parsedNumbers_data();
    void parsedNumbers();

    void escaping_data();
    void escaping();
    void unescaping_data();
    void unescaping();

    void layout_data();
    void layout();
    void keyOrderPreserved();
    void insertInPlace();
    void duplicateKeysLastWins();
    void undefinedMembersSkipped();
    void equalityIgnoresKeyOrder();

    void damaged_data();
    void damaged();
    void deepNesting_data();
    void deepNesting();
    void nestingWithinLimit();
    void hugeNumbers_data();
    void hugeNumbers();
    void byteOrderMark();
    void bothParsersAgree_data();
    void bothParsersAgree();
    void bothParsersAgreeOnFixture();
    void streamWriterLayout();
    void escapesAtEveryPosition();
    void deepIndentation();
    void longStrings_data();
    void longStrings();
    void repeatedLongStrings();
};

void TestJson::fixtureFileCount()
{
    // 268 files in storage/ (267 JSON + the `migration` file), 6 exports, the session list.
    const QList<FixtureFile> files = fixtureFiles();
    QCOMPARE(files.size(), 275);
    qsizetype exports = 0;
    for (const FixtureFile &f : files)
        exports += f.trailingNewline ? 1 : 0;
    QCOMPARE(exports, 7);
}

void TestJson::fixtureRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("trailingNewline");
    for (const FixtureFile &f : fixtureFiles())
        QTest::addRow("%s", qPrintable(f.name)) << f.path << f.trailingNewline;
}

void TestJson::fixtureRoundTrip()
{
    QFETCH(QString, path);
    QFETCH(bool, trailingNewline);
    const QByteArray bytes = weft::test::readFile(path);
    QVERIFY(!bytes.isEmpty());

    JsonParseError error;
    const std::optional<JsonValue> value = weft::parseJson(bytes, &error);
    QVERIFY2(value.has_value(), qPrintable(error.toString()));

    // Written back exactly as OpenCode's JSON.stringify(value, null, 2) wrote it.
    QByteArray written = weft::toJson(*value, 2);
    if (trailingNewline)
        written += '\n';
    QCOMPARE(written, bytes);

    // The same values as an independent parser reads (guards against a parser and serialiser
    // that agree with each other but not with JSON).
    QJsonParseError qtError;
    const QJsonDocument qt = QJsonDocument::fromJson(bytes, &qtError);
    if (qtError.error == QJsonParseError::NoError) {
        const QJsonValue expected = qt.isArray() ? QJsonValue(qt.array()) : QJsonValue(qt.object());
        QCOMPARE(value->toQJsonValue(), expected);
    } else {
        // QJsonDocument reads only objects and arrays: the plain-number `migration` file.
        QCOMPARE(value->type(), JsonValue::Type::Number);
        QCOMPARE(value->toDouble(), bytes.trimmed().toDouble());
    }
}

void TestJson::jsNumbers_data()
{
    QTest::addColumn<double>("number");
    QTest::addColumn<QByteArray>("expected"); // what JavaScript's String(number) / JSON.stringify gives

    QTest::addRow("0") << 0.0 << "0"_ba;
    QTest::addRow("-0") << -0.0 << "0"_ba;
    QTest::addRow("1") << 1.0 << "1"_ba;
    QTest::addRow("100") << 100.0 << "100"_ba;
    QTest::addRow("-1.5") << -1.5 << "-1.5"_ba;
    QTest::addRow("0.5") << 0.5 << "0.5"_ba;
    QTest::addRow("0.1") << 0.1 << "0.1"_ba;
    QTest::addRow("123.456") << 123.456 << "123.456"_ba;
    QTest::addRow("-123.456") << -123.456 << "-123.456"_ba;
    QTest::addRow("0.1+0.2") << (0.1 + 0.2) << "0.30000000000000004"_ba;
    QTest::addRow("1/3") << (1.0 / 3.0) << "0.3333333333333333"_ba;
    QTest::addRow("4.35*100") << (4.35 * 100) << "434.99999999999994"_ba;
    QTest::addRow("timestamp") << 1795312749560.0 << "1795312749560"_ba;
    QTest::addRow("cost") << 0.01434 << "0.01434"_ba;
    QTest::addRow("2^53") << 9007199254740992.0 << "9007199254740992"_ba;
    QTest::addRow("2^53+2") << 9007199254740994.0 << "9007199254740994"_ba;
    QTest::addRow("2^64-ish") << 12345678901234567890.0 << "12345678901234567000"_ba;
    QTest::addRow("1e20") << 1e20 << "100000000000000000000"_ba;
    QTest::addRow("just below 1e21") << 999999999999999868928.0 << "999999999999999900000"_ba;
    QTest::addRow("1e21") << 1e21 << "1e+21"_ba;
    QTest::addRow("1.2345678901234567e21") << 1.2345678901234567e21 << "1.2345678901234568e+21"_ba;
    QTest::addRow("1e100") << 1e100 << "1e+100"_ba;
    QTest::addRow("max") << std::numeric_limits<double>::max() << "1.7976931348623157e+308"_ba;
    QTest::addRow("0.000001") << 0.000001 << "0.000001"_ba;
    QTest::addRow("0.00001234") << 0.00001234 << "0.00001234"_ba;
    QTest::addRow("1e-7") << 1e-7 << "1e-7"_ba;
    QTest::addRow("-1e-7") << -1e-7 << "-1e-7"_ba;
    QTest::addRow("1.5e-7") << 1.5e-7 << "1.5e-7"_ba;
    QTest::addRow("123e-20") << 123e-20 << "1.23e-18"_ba;
    QTest::addRow("5e-324") << 5e-324 << "5e-324"_ba;
    QTest::addRow("min normal") << std::numeric_limits<double>::min() << "2.2250738585072014e-308"_ba;
    QTest::addRow("NaN") << std::numeric_limits<double>::quiet_NaN() << "null"_ba;
    QTest::addRow("Infinity") << std::numeric_limits<double>::infinity() << "null"_ba;
    QTest::addRow("-Infinity") << -std::numeric_limits<double>::infinity() << "null"_ba;
}

void TestJson::jsNumbers()
{
    QFETCH(double, number);
    QFETCH(QByteArray, expected);
    QCOMPARE(weft::toJson(JsonValue(number), 2), expected);
    QCOMPARE(weft::toJson(JsonArray{JsonValue(number)}, 0), "["_ba + expected + "]"_ba);
    if (expected != "null") {
        // formatJsNumber gives the shortest text that reads back as the same double.
        QCOMPARE(weft::formatJsNumber(number), expected);
        const std::optional<JsonValue> back = weft::parseJson(expected);
        QVERIFY(back.has_value());
        QVERIFY(back->toDouble() == number); // exact, not fuzzy
    }
}

void TestJson::parsedNumbers_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("expected"); // JSON.stringify(JSON.parse(text))

    QTest::addRow("integer") << "42"_ba << "42"_ba;
    QTest::addRow("negative zero") << "-0"_ba << "0"_ba;
    QTest::addRow("trailing zeros") << "1.50"_ba << "1.5"_ba;
    QTest::addRow("integral float") << "100.0"_ba << "100"_ba;
    QTest::addRow("capital E") << "1E21"_ba << "1e+21"_ba;
    QTest::addRow("explicit plus") << "1e+2"_ba << "100"_ba;
    QTest::addRow("small exponent") << "15e-8"_ba << "1.5e-7"_ba;
    QTest::addRow("0.0000001") << "0.0000001"_ba << "1e-7"_ba;
    QTest::addRow("long fraction") << "0.30000000000000004"_ba << "0.30000000000000004"_ba;
    QTest::addRow("beyond precision") << "3.141592653589793238462643383279"_ba << "3.141592653589793"_ba;
    QTest::addRow("big integer") << "12345678901234567890"_ba << "12345678901234567000"_ba;
    QTest::addRow("overflow") << "1e400"_ba << "null"_ba;
    QTest::addRow("negative overflow") << "-1e400"_ba << "null"_ba;
    QTest::addRow("underflow") << "1e-400"_ba << "0"_ba;
    QTest::addRow("denormal") << "4.9406564584124654e-324"_ba << "5e-324"_ba;
}

void TestJson::parsedNumbers()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, expected);
    JsonParseError error;
    const std::optional<JsonValue> value = weft::parseJson(text, &error);
    QVERIFY2(value.has_value(), qPrintable(error.toString()));
    QCOMPARE(value->type(), JsonValue::Type::Number);
    QCOMPARE(weft::toJson(*value, 2), expected);
}

void TestJson::escaping_data()
{
    QTest::addColumn<QString>("string");
    QTest::addColumn<QByteArray>("expected"); // JSON.stringify(string)

    QTest::addRow("plain") << u"plain text"_s << "\"plain text\""_ba;
    QTest::addRow("empty") << QString() << "\"\""_ba;
    QTest::addRow("quote and backslash") << u"a\"b\\c"_s << "\"a\\\"b\\\\c\""_ba;
    QTest::addRow("short escapes") << u"\b\f\n\r\t"_s << "\"\\b\\f\\n\\r\\t\""_ba;
    QTest::addRow("NUL") << units({u'a', 0, u'b'}) << "\"a\\u0000b\""_ba;
    QTest::addRow("U+0001") << units({0x01}) << "\"\\u0001\""_ba;
    QTest::addRow("vertical tab") << units({0x0b}) << "\"\\u000b\""_ba;
    QTest::addRow("escape") << units({0x1b}) << "\"\\u001b\""_ba;
    QTest::addRow("U+001F") << units({0x1f}) << "\"\\u001f\""_ba;
    QTest::addRow("space and DEL unescaped") << units({0x20, 0x7f}) << "\" \x7f\""_ba;
    QTest::addRow("slash unescaped") << u"a/b</script>"_s << "\"a/b</script>\""_ba;
    QTest::addRow("line separators unescaped") << units({0x2028, 0x2029}) << "\"\xe2\x80\xa8\xe2\x80\xa9\""_ba;
    QTest::addRow("latin") << u"café"_s << "\"caf\xc3\xa9\""_ba;
    QTest::addRow("japanese") << u"日本語のテキスト"_s << "\"日本語のテキスト\""_ba;
    QTest::addRow("chinese") << u"简体中文"_s << "\"简体中文\""_ba;
    QTest::addRow("emoji") << u"ok 😀"_s << "\"ok \xf0\x9f\x98\x80\""_ba;
    QTest::addRow("lone high surrogate") << units({u'x', 0xd800, u'y'}) << "\"x\\ud800y\""_ba;
    QTest::addRow("lone low surrogate") << units({0xdc00}) << "\"\\udc00\""_ba;
    QTest::addRow("high surrogate at end") << units({u'a', 0xd83d}) << "\"a\\ud83d\""_ba;
    QTest::addRow("reversed pair") << units({0xde00, 0xd83d}) << "\"\\ude00\\ud83d\""_ba;
    QTest::addRow("pair after lone high") << units({0xd800, 0xd83d, 0xde00}) << "\"\\ud800\xf0\x9f\x98\x80\""_ba;
}

void TestJson::escaping()
{
    QFETCH(QString, string);
    QFETCH(QByteArray, expected);
    QCOMPARE(weft::toJson(JsonValue(string), 2), expected);
    // Keys are escaped the same way.
    QCOMPARE(weft::toJson(JsonObject{{string, 1}}, 0), "{"_ba + expected + ":1}"_ba);
    // And the text reads back as the same UTF-16 string, lone surrogates included.
    const std::optional<JsonValue> back = weft::parseJson(expected);
    QVERIFY(back.has_value());
    QCOMPARE(back->toString(), string);
}

void TestJson::unescaping_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");

    QTest::addRow("latin escape") << "\"\\u00e9\""_ba << u"é"_s;
    QTest::addRow("upper-case hex") << "\"\\u00E9\\u00C9\""_ba << u"éÉ"_s;
    QTest::addRow("escaped pair") << "\"\\ud83d\\ude00\""_ba << u"😀"_s;
    QTest::addRow("lone surrogate kept") << "\"\\uD800\""_ba << units({0xd800});
    QTest::addRow("escaped NUL") << "\"\\u0000\""_ba << units({0});
    QTest::addRow("solidus") << "\"\\/\""_ba << u"/"_s;
    QTest::addRow("all short escapes") << "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""_ba << u"\"\\/\b\f\n\r\t"_s;
    QTest::addRow("raw utf-8") << "\"日本語 中文 😀\""_ba << u"日本語 中文 😀"_s;
    QTest::addRow("escape after raw text") << "\"日本\\n語\""_ba << u"日本\n語"_s;
}

void TestJson::unescaping()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    const std::optional<JsonValue> value = weft::parseJson(json);
    QVERIFY(value.has_value());
    QCOMPARE(value->type(), JsonValue::Type::String);
    QCOMPARE(value->toString(), expected);
}

void TestJson::layout_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("indent");
    QTest::addColumn<QByteArray>("expected"); // JSON.stringify(JSON.parse(json), null, indent)

    QTest::addRow("empty containers") << "{\"a\":{},\"b\":[]}"_ba << 2 << "{\n  \"a\": {},\n  \"b\": []\n}"_ba;
    QTest::addRow("nested") << "{\"a\":[1,{\"b\":null}],\"c\":true}"_ba << 2
                            << "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": true\n}"_ba;
    QTest::addRow("compact") << "{ \"a\" : [ 1 , false ] , \"b\" : \"x\" }"_ba << 0 << "{\"a\":[1,false],\"b\":\"x\"}"_ba;
    QTest::addRow("top-level array") << "[ \"x\" ]"_ba << 2 << "[\n  \"x\"\n]"_ba;
    QTest::addRow("indent 4") << "{\"a\":[1]}"_ba << 4 << "{\n    \"a\": [\n        1\n    ]\n}"_ba;
    QTest::addRow("scalars") << "  null "_ba << 2 << "null"_ba;
}

void TestJson::layout()
{
    QFETCH(QByteArray, json);
    QFETCH(int, indent);
    QFETCH(QByteArray, expected);
    const std::optional<JsonValue> value = weft::parseJson(json);
    QVERIFY(value.has_value());
    QCOMPARE(weft::toJson(*value, indent), expected);
}

void TestJson::keyOrderPreserved()
{
    const QByteArray json = "{\"zeta\":1,\"alpha\":2,\"mid\":{\"z\":1,\"a\":2},\"beta\":3}"_ba;
    const std::optional<JsonValue> value = weft::parseJson(json);
    QVERIFY(value.has_value());
    const JsonObject o = value->toObject();
    QCOMPARE(o.keys(), (QStringList{u"zeta"_s, u"alpha"_s, u"mid"_s, u"beta"_s}));
    QCOMPARE(o.object(u"mid").keys(), (QStringList{u"z"_s, u"a"_s}));
    QCOMPARE(weft::toJson(*value, 0), json);
    // QJsonObject would have sorted them: the reason this class exists.
    QVERIFY(QJsonDocument::fromJson(json).toJson(QJsonDocument::Compact) != json);
}

void TestJson::insertInPlace()
{
    JsonObject o{{u"id"_s, u"a"_s}, {u"title"_s, u"old"_s}, {u"time"_s, 1}};
    o.insert(u"title"_s, u"new"_s); // existing key: same position
    QCOMPARE(o.keys(), (QStringList{u"id"_s, u"title"_s, u"time"_s}));
    QCOMPARE(o.string(u"title"), u"new"_s);
    o.insert(u"extra"_s, true); // new key: appended
    QCOMPARE(o.keys(), (QStringList{u"id"_s, u"title"_s, u"time"_s, u"extra"_s}));
    o.insertAfter(u"id", u"slug"_s, u"s"_s);
    QCOMPARE(o.keys(), (QStringList{u"id"_s, u"slug"_s, u"title"_s, u"time"_s, u"extra"_s}));
    o.insertAfter(u"missing", u"tail"_s, 1);
    QCOMPARE(o.keys().last(), u"tail"_s);
    o.insertAfter(u"time", u"id"_s, u"b"_s); // existing: replaced in place, not moved
    QCOMPARE(o.keys().first(), u"id"_s);
    QCOMPARE(o.string(u"id"), u"b"_s);
    o.insert(u"slug"_s, JsonValue()); // undefined removes
    QVERIFY(!o.contains(u"slug"));
    o.ref(u"time"_s) = JsonValue(2);
    QCOMPARE(o.integer(u"time"), 2);
    QCOMPARE(weft::toJson(o, 0), "{\"id\":\"b\",\"title\":\"new\",\"time\":2,\"extra\":true,\"tail\":1}"_ba);

    // Implicit sharing: a copy does not see later changes.
    const JsonObject copy = o;
    o.insert(u"title"_s, u"changed"_s);
    QCOMPARE(copy.string(u"title"), u"new"_s);
}

void TestJson::duplicateKeysLastWins()
{
    // JSON.parse('{"a":1,"b":2,"a":3}') is {a: 3, b: 2}: the value of the last, the position of the first.
    const std::optional<JsonValue> value = weft::parseJson("{\"a\":1,\"b\":2,\"a\":3}"_ba);
    QVERIFY(value.has_value());
    QCOMPARE(weft::toJson(*value, 0), "{\"a\":3,\"b\":2}"_ba);
}

void TestJson::undefinedMembersSkipped()
{
    JsonObject o;
    o.insert(u"a"_s, 1);
    JsonArray array{JsonValue(1), JsonValue(), JsonValue(nullptr)};
    o.insert(u"list"_s, array);
    // JSON.stringify skips undefined members and writes undefined array items as null.
    QCOMPARE(weft::toJson(o, 0), "{\"a\":1,\"list\":[1,null,null]}"_ba);
}

void TestJson::equalityIgnoresKeyOrder()
{
    const std::optional<JsonValue> a = weft::parseJson("{\"x\":1,\"y\":[1,2]}"_ba);
    const std::optional<JsonValue> b = weft::parseJson("{\"y\":[1,2],\"x\":1}"_ba);
    const std::optional<JsonValue> c = weft::parseJson("{\"y\":[2,1],\"x\":1}"_ba);
    QVERIFY(a && b && c);
    QVERIFY(*a == *b);
    QVERIFY(!(*a == *c));
    QVERIFY(!(JsonValue(1) == JsonValue(u"1"_s)));
    QVERIFY(!(JsonValue(nullptr) == JsonValue()));
}

void TestJson::damaged_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    QTest::addRow("empty") << QByteArray() << 1 << 1 << u"empty document"_s;
    QTest::addRow("only whitespace") << "  \n  "_ba << 2 << 3 << u"unexpected end of data"_s;
    QTest::addRow("truncated object") << "{\"a\": 1,"_ba << 1 << 9 << u"unterminated object"_s;
    QTest::addRow("truncated string") << "{\"a\": \"abc"_ba << 1 << 11 << u"unterminated string"_s;
    QTest::addRow("truncated array") << "[1, 2"_ba << 1 << 6 << u"unterminated array"_s;
    QTest::addRow("truncated multi-line") << "{\n  \"a\": [\n    1,\n"_ba << 4 << 1 << u"unexpected end of data"_s;
    QTest::addRow("truncated after key") << "{\"a\""_ba << 1 << 5 << u"expected ':'"_s;
    QTest::addRow("all NUL") << QByteArray(64, '\0') << 1 << 1 << u"NUL byte"_s;
    QTest::addRow("NUL after data") << "{\"a\": 1}\0\0\0"_ba << 1 << 9 << u"unexpected data after the JSON value"_s;
    QTest::addRow("NUL in a string") << QByteArray("{\"a\": \"b\0c\"}", 12) << 1 << 9 << u"NUL byte inside a string"_s;
    QTest::addRow("trailing garbage") << "{\"a\": 1} x"_ba << 1 << 10 << u"unexpected data after the JSON value"_s;
    QTest::addRow("two documents") << "{}\n{}"_ba << 2 << 1 << u"unexpected data after the JSON value"_s;
    QTest::addRow("invalid escape") << "\"\\x41\""_ba << 1 << 3 << u"invalid escape sequence"_s;
    QTest::addRow("invalid unicode escape") << "\"\\u12G4\""_ba << 1 << 3 << u"invalid \\u escape"_s;
    QTest::addRow("truncated unicode escape") << "\"\\u12\""_ba << 1 << 3 << u"truncated \\u escape"_s;
    QTest::addRow("raw tab in a string") << "\"a\tb\""_ba << 1 << 3 << u"control character inside a string"_s;
    QTest::addRow("raw newline in a string") << "[\"a\nb\"]"_ba << 1 << 4 << u"control character inside a string"_s;
    QTest::addRow("bad literal") << "[tru]"_ba << 1 << 2 << u"invalid literal"_s;
    QTest::addRow("single quotes") << "{'a': 1}"_ba << 1 << 2 << u"expected a quoted key"_s;
    QTest::addRow("missing colon") << "{\"a\" 1}"_ba << 1 << 6 << u"expected ':' after key \"a\""_s;
    QTest::addRow("trailing comma") << "[1,]"_ba << 1 << 4 << u"unexpected character ']'"_s;
    QTest::addRow("missing comma") << "{\"a\":1 \"b\":2}"_ba << 1 << 8 << u"expected ',' or '}'"_s;
    QTest::addRow("leading zero") << "01"_ba << 1 << 2 << u"unexpected data after the JSON value"_s;
    QTest::addRow("lone minus") << "-"_ba << 1 << 2 << u"invalid number"_s;
    QTest::addRow("missing fraction") << "1."_ba << 1 << 3 << u"invalid number"_s;
    QTest::addRow("missing exponent") << "[1e]"_ba << 1 << 4 << u"invalid number"_s;
    QTest::addRow("leading dot") << ".5"_ba << 1 << 1 << u"unexpected character '.'"_s;
    QTest::addRow("plus sign") << "+1"_ba << 1 << 1 << u"unexpected character '+'"_s;
    QTest::addRow("NaN") << "NaN"_ba << 1 << 1 << u"unexpected character 'N'"_s;
    QTest::addRow("column counts characters")
        << "{\n  \"日本\": x\n}"_ba << 2 << 9 << u"unexpected character 'x'"_s;
    QTest::addRow("error on a later line")
        << "{\n  \"id\": \"ses_1\",\n  \"time\": {\n    \"created\": 17953,\n  }\n}"_ba << 5 << 3 << u"expected a quoted key"_s;
}

void TestJson::damaged()
{
    QFETCH(QByteArray, input);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);

    JsonParseError error;
    const std::optional<JsonValue> value = weft::parseJson(input, &error);
    QVERIFY(!value.has_value());
    QVERIFY2(error.message.contains(message), qPrintable(error.message));
    QCOMPARE(error.line, line);
    QCOMPARE(error.column, column);
    QVERIFY(error.offset >= 0 && error.offset <= input.size());
    QVERIFY(error.toString().contains(u"line %1, column %2"_s.arg(line).arg(column)));
    // Without an error object too.
    QVERIFY(!weft::parseJson(input).has_value());
}

void TestJson::deepNesting_data()
{
    QTest::addColumn<QByteArray>("input");
    constexpr int Levels = 100000;
    QTest::addRow("open arrays") << QByteArray(Levels, '[');
    QTest::addRow("balanced arrays") << QByteArray(Levels, '[') + QByteArray(Levels, ']');
    QByteArray objects;
    for (int i = 0; i < Levels; ++i)
        objects += "{\"a\":";
    QTest::addRow("open objects") << objects;
    QByteArray mixed;
    for (int i = 0; i < Levels / 2; ++i)
        mixed += "[{\"k\":";
    QTest::addRow("mixed") << mixed;
}

void TestJson::deepNesting()
{
    // 100,000 levels must not overflow the stack: the parser refuses with an error.
    QFETCH(QByteArray, input);
    JsonParseError error;
    const std::optional<JsonValue> value = weft::parseJson(input, &error);
    QVERIFY(!value.has_value());
    QVERIFY2(error.message.contains(u"nesting deeper than"_s), qPrintable(error.message));
    QCOMPARE(error.line, 1);
    QVERIFY(error.column > 1);
}

void TestJson::nestingWithinLimit()
{
    // Data as deep as anything OpenCode writes (tool inputs, metadata) parses and round-trips.
    constexpr int Levels = 500;
    const QByteArray json = QByteArray(Levels, '[') + QByteArray(Levels, ']');
    const std::optional<JsonValue> value = weft::parseJson(json);
    QVERIFY(value.has_value());
    QCOMPARE(weft::toJson(*value, 0), json);
    int depth = 0;
    for (JsonValue v = *value; v.isArray(); v = v.toArray().at(0))
        ++depth;
    QCOMPARE(depth, Levels);
}

void TestJson::hugeNumbers_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<double>("expected");
    const double inf = std::numeric_limits<double>::infinity();
    QTest::addRow("400 digits") << "1"_ba + QByteArray(400, '0') << inf;
    QTest::addRow("a million digits") << QByteArray(1000000, '9') << inf;
    QTest::addRow("negative million digits") << "-"_ba + QByteArray(1000000, '7') << -inf;
    QTest::addRow("long fraction") << "0."_ba + QByteArray(100000, '3') << (1.0 / 3.0);
    QTest::addRow("huge exponent") << "1e999999999999"_ba << inf;
    QTest::addRow("tiny exponent") << "1e-999999999999"_ba << 0.0;
}

void TestJson::hugeNumbers()
{
    // JSON.parse turns these into Infinity or 0 (and JSON.stringify writes Infinity as null);
    // what matters is no crash, no hang and a defined value.
    QFETCH(QByteArray, input);
    QFETCH(double, expected);
    JsonParseError error;
    const std::optional<JsonValue> value = weft::parseJson(input, &error);
    QVERIFY2(value.has_value(), qPrintable(error.toString()));
    QVERIFY(value->isNumber());
    QVERIFY2(value->toDouble() == expected, qPrintable(QString::number(value->toDouble())));
    if (std::isinf(expected))
        QCOMPARE(weft::toJson(*value, 2), "null"_ba);
}

void TestJson::byteOrderMark()
{
    const std::optional<JsonValue> value = weft::parseJson("\xEF\xBB\xBF{\"a\":1}"_ba);
    QVERIFY(value.has_value());
    QCOMPARE(value->toObject().integer(u"a"), 1);
}

void TestJson::bothParsersAgree_data()
{
    // weft::parseJson() lets simdjson parse first where Weft is built with it, and Weft's own parser
    // take whatever simdjson does not; both must give the same values (and the same bytes back)
    // as JavaScript's JSON.parse would, and refuse the same documents.
    QTest::addColumn<QByteArray>("input");
    QTest::addRow("object") << "{\"id\": \"ses_1\", \"time\": {\"created\": 1764000000000}}"_ba;
    QTest::addRow("duplicate keys") << "{\"a\": 1, \"b\": 2, \"a\": [3]}"_ba;
    QTest::addRow("long keys") << ("{\"" + QByteArray(40, 'k') + "\": 1, \"" + QByteArray(40, 'k') + "\": 2}");
    QTest::addRow("escapes") << "[\"a\\nb\\t\\u00e9\\u65e5\\ud83d\\ude00\\/\\\"\"]"_ba;
    QTest::addRow("NUL escape") << "\"a\\u0000b\""_ba;
    QTest::addRow("lone high surrogate") << "\"a\\ud800b\""_ba;
    QTest::addRow("lone low surrogate") << "\"\\udc00\""_ba;
    QTest::addRow("UTF-8 text") << "{\"text\": \"日本語と中文 ✓\"}"_ba;
    QTest::addRow("invalid UTF-8") << "\"a\xff\xfe" "b\""_ba;
    QTest::addRow("negative zero") << "[-0, -0.0, 0e5]"_ba;
    QTest::addRow("int64 edge") << "[9223372036854775807, -9223372036854775808, 9007199254740993]"_ba;
    QTest::addRow("uint64") << "[18446744073709551615]"_ba;
    QTest::addRow("beyond 64 bits") << "[123456789012345678901234567890]"_ba;
    QTest::addRow("huge exponent") << "[1e400, -1e400, 1e-400]"_ba;
    QTest::addRow("fractions") << "[0.1, 1.5e-7, 123.456e3, 5e-324]"_ba;
    QTest::addRow("byte order mark") << "\xEF\xBB\xBF{\"a\": 1}"_ba;
    QTest::addRow("empty containers") << "{\"a\": {}, \"b\": [], \"c\": [{}, []]}"_ba;
    QTest::addRow("literals") << "[true, false, null]"_ba;
    QTest::addRow("512 levels") << (QByteArray(512, '[') + QByteArray(512, ']'));
    QTest::addRow("513 levels") << (QByteArray(513, '[') + QByteArray(513, ']'));
    QTest::addRow("raw control character") << "\"a\x01b\""_ba;
    QTest::addRow("trailing comma") << "{\"a\": 1,}"_ba;
    QTest::addRow("two values") << "1 2"_ba;
    QTest::addRow("truncated") << "{\"a\": [1, 2"_ba;
}

void TestJson::bothParsersAgree()
{
    QFETCH(QByteArray, input);
    weft::JsonParseError ownError, error;
    const std::optional<weft::JsonValue> own = weft::parseJsonOwn(input, &ownError);
    const std::optional<weft::JsonValue> value = weft::parseJson(input, &error);
    QCOMPARE(value.has_value(), own.has_value());
    if (!own) {
        // Refused with the same message and position.
        QCOMPARE(error.message, ownError.message);
        QCOMPARE(error.offset, ownError.offset);
        return;
    }
    QCOMPARE(weft::toJson(*value, 2), weft::toJson(*own, 2));
    QVERIFY(*value == *own);
    // With the padding readFile() leaves behind the data, too.
    QByteArray padded = input;
    padded.reserve(input.size() + weft::JsonPadding);
    std::memset(padded.data() + padded.size(), 0, size_t(weft::JsonPadding));
    const std::optional<weft::JsonValue> fromPadded = weft::parseJsonPadded(QByteArrayView(padded.constData(), input.size()));
    QVERIFY(fromPadded.has_value());
    QCOMPARE(weft::toJson(*fromPadded, 2), weft::toJson(*own, 2));
}

void TestJson::bothParsersAgreeOnFixture()
{
    // Every file OpenCode 1.1.53 wrote: the same values from both parsers, byte for byte.
    int files = 0;
    QDirIterator it(weft::test::fixtureDir(), {u"*.json"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QByteArray bytes = weft::test::readFile(it.next());
        const std::optional<weft::JsonValue> own = weft::parseJsonOwn(bytes);
        const std::optional<weft::JsonValue> value = weft::parseJson(bytes);
        QVERIFY2(own && value, qPrintable(it.filePath()));
        QVERIFY2(*own == *value, qPrintable(it.filePath()));
        QCOMPARE(weft::toJson(*value, 2), weft::toJson(*own, 2));
        ++files;
    }
    QVERIFY(files > 200);
}

namespace
{
/// Writes @p value through @p json as a streaming writer is used: objects and arrays opened and
/// closed piece by piece, every other item of an array serialized beforehand (as on another
/// thread) at json.level(), the rest through value().
void stream(weft::JsonStreamWriter &json, const JsonValue &value, int indent, bool serializeSome)
{
    if (value.isObject()) {
        const JsonObject object = value.toObject();
        json.beginObject();
        for (qsizetype i = 0; i < object.size(); ++i) {
            if (object.valueAt(i).isUndefined())
                continue;
            json.key(object.keyAt(i));
            stream(json, object.valueAt(i), indent, serializeSome);
        }
        json.end();
    } else if (value.isArray()) {
        const JsonArray array = value.toArray();
        json.beginArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (serializeSome && i % 2 == 1)
                json.serializedValue(weft::toJson(array.at(i), indent, json.level()));
            else
                stream(json, array.at(i), indent, serializeSome);
        }
        json.end();
    } else {
        json.value(value);
    }
}
} // namespace

void TestJson::streamWriterLayout()
{
    // JsonStreamWriter lays a document out byte for byte as toJson() does: empty and nested
    // objects and arrays, undefined members left out, compact and indented, values serialized
    // elsewhere at the writer's level.
    JsonArray items;
    for (int i = 0; i < 40; ++i) {
        JsonArray inner;
        for (int k = 0; k < i % 4; ++k)
            inner.append(i % 2 ? JsonValue(k * 1.25) : JsonValue(JsonObject{{u"k"_s, k}, {u"s"_s, u"\u00e9\n\"あ"_s}}));
        items.append(i % 7 == 0 ? JsonValue(JsonArray{}) : JsonValue(JsonObject{{u"i"_s, i}, {u"inner"_s, inner}, {u"empty"_s, JsonObject{}}, {u"gone"_s, JsonValue()}}));
    }
    const QList<JsonValue> documents{
        JsonObject{{u"info"_s, JsonObject{{u"id"_s, u"ses_1"_s}}}, {u"messages"_s, items}, {u"after"_s, true}},
        JsonObject{{u"info"_s, JsonObject{}}, {u"messages"_s, JsonArray{}}},
        items,
        JsonArray{},
        JsonObject{},
        JsonValue(u"text"_s),
        JsonValue(nullptr),
    };
    for (const JsonValue &document : documents) {
        for (const int indent : {0, 2, 4}) {
            for (const bool serializeSome : {false, true}) {
                QByteArray written;
                int pieces = 0;
                int emptyPieces = 0; // a sink need not take empty ones (fwrite of none is undefined)
                weft::JsonStreamWriter json(indent, [&](QByteArrayView piece) {
                    written += piece;
                    ++pieces;
                    emptyPieces += piece.isEmpty() ? 1 : 0;
                });
                stream(json, document, indent, serializeSome);
                QCOMPARE(json.level(), 0);
                QVERIFY2(written == weft::toJson(document, indent),
                         qPrintable(u"indent %1:\n%2\n---\n%3"_s.arg(indent).arg(QString::fromUtf8(written), QString::fromUtf8(weft::toJson(document, indent)))));
                QVERIFY(pieces >= 1);
                QCOMPARE(emptyPieces, 0);
            }
        }
    }
    // A value at a level: its nested lines indented as inside a document.
    QCOMPARE(weft::toJson(JsonObject{{u"a"_s, JsonArray{1}}}, 2, 2), "{\n      \"a\": [\n        1\n      ]\n    }"_ba);
}

void TestJson::escapesAtEveryPosition()
{
    // The writer copies the plain bytes before an escape in bulk (8 UTF-16 units, 16 UTF-8
    // bytes a step): an escape, or two, or a non-ASCII character at every place of a string,
    // written as UTF-16 and as UTF-8, gives JSON.stringify's text, built here one unit at a time.
    const auto expected = [](const QString &s) {
        QString out = u"\""_s;
        for (const QChar c : s) {
            if (c == u'"' || c == u'\\')
                out += u'\\' + c;
            else if (c == u'\n')
                out += u"\\n"_s;
            else if (c == u'\t')
                out += u"\\t"_s;
            else if (c.unicode() < 0x20)
                out += u"\\u%1"_s.arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
        return (out + u'"').toUtf8();
    };
    const QString plain = u"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP"_s;
    for (const QString &special : {u"\n"_s, u"\""_s, u"\\"_s, u"\x01"_s, u"\t\n"_s, u"é"_s, u"日"_s}) {
        for (qsizetype at = 0; at <= plain.size(); ++at) {
            const QString s = plain.left(at) + special + plain.mid(at);
            QCOMPARE(weft::toJson(JsonValue(s)), expected(s));
            // Held as UTF-8, as a long string read from JSON text is.
            const std::optional<JsonValue> read = weft::parseJson(weft::toJson(JsonObject{{u"s"_s, s.repeated(3)}}));
            QVERIFY(read.has_value());
            QCOMPARE(weft::toJson(read->toObject().value(u"s")), expected(s.repeated(3)));
        }
    }
}

void TestJson::deepIndentation()
{
    // Line breaks and their indentation come from one string of 64 spaces; deeper lines (and
    // the commas before them) are written another way, the same text.
    JsonValue value = JsonObject{{u"k"_s, 1}, {u"l"_s, 2}};
    QByteArray expected = "{\n  \"k\": 1,\n  \"l\": 2\n}";
    for (int depth = 1; depth <= 40; ++depth) {
        value = JsonArray{value, depth};
        QByteArray nested = "[\n" + QByteArray(2, ' ');
        nested += expected.replace("\n", "\n  ") + ",\n" + QByteArray(2, ' ') + QByteArray::number(depth) + "\n]";
        expected = nested;
        QCOMPARE(weft::toJson(value, 2), expected);
    }
    QCOMPARE(weft::toJson(value, 0).count('['), 40);
}

void TestJson::longStrings_data()
{
    // Long strings read from JSON text that are mostly ASCII are held as their UTF-8 bytes
    // (JsonValue): they must read back, compare and be written exactly as those held as UTF-16.
    QTest::addColumn<QString>("string");
    const QString ascii = u"[ 84%] Building CXX object src/app.dir/main.cpp.o "_s.repeated(8);
    QTest::addRow("ASCII") << ascii;
    QTest::addRow("ASCII with every escape") << ascii + units({0, 1, 0x1f, u'"', u'\\', u'\n', u'\t', 0x7f, u'/'}) + ascii;
    QString escapesOnEdges = ascii;
    for (const qsizetype at : {15, 16, 17, 31, 32, 33, 47})
        escapesOnEdges[at] = QChar(at % 2 ? u'"' : u'\n');
    QTest::addRow("escapes on 16-byte edges") << escapesOnEdges;
    QTest::addRow("ending in an escape") << ascii + u"\n"_s;
    QTest::addRow("some accents and arrows") << ascii + u"café → ✓ 😀 ─┼─"_s + ascii;
    QTest::addRow("CJK") << u"日本語のテキスト、简体中文。"_s.repeated(30);
    QTest::addRow("byte order mark first") << QChar(0xfeff) + ascii;
}

void TestJson::longStrings()
{
    QFETCH(QString, string);
    const JsonValue utf16(string);
    const QByteArray text = weft::toJson(JsonObject{{u"output"_s, string}}, 2);
    const std::optional<JsonValue> read = weft::parseJson(text);
    QVERIFY(read.has_value());
    const JsonValue value = read->toObject().value(u"output");
    QCOMPARE(value.type(), JsonValue::Type::String);
    QCOMPARE(value.toString(), string);
    QVERIFY(value == utf16);
    QVERIFY(utf16 == value);
    QCOMPARE(weft::toJson(value, 2), weft::toJson(utf16, 2));
    QCOMPARE(weft::toJson(*read, 2), text);
    QCOMPARE(weft::toJson(*read, 0), weft::toJson(JsonObject{{u"output"_s, string}}, 0));
    // Weft's own parser reads the same value.
    const std::optional<JsonValue> own = weft::parseJsonOwn(text);
    QVERIFY(own.has_value());
    QVERIFY(*own == *read);
    // As a member of a copied and changed object, too.
    JsonObject copy = read->toObject();
    copy.insert(u"title"_s, u"t"_s);
    QCOMPARE(copy.string(u"output"), string);
    QCOMPARE(weft::toJson(copy.value(u"output"), 2), weft::toJson(utf16, 2));
}

void TestJson::repeatedLongStrings()
{
    // OpenCode's bash tool writes its output twice (state.output and state.metadata.output):
    // within one document equal long strings share their bytes, and each reads back and is
    // written as itself.
    const QString output = u"line of output\n"_s.repeated(40);
    const JsonObject part{{u"state"_s,
                           JsonObject{{u"output"_s, output},
                                      {u"metadata"_s, JsonObject{{u"output"_s, output}, {u"other"_s, output + u'!'}}}}}};
    const QByteArray text = weft::toJson(part, 2);
    const std::optional<JsonValue> read = weft::parseJson(text);
    QVERIFY(read.has_value());
    const JsonObject state = read->toObject().object(u"state");
    QCOMPARE(state.string(u"output"), output);
    QCOMPARE(state.object(u"metadata").string(u"output"), output);
    QCOMPARE(state.object(u"metadata").string(u"other"), output + u'!');
    QCOMPARE(weft::toJson(*read, 2), text);
    QVERIFY(*read == JsonValue(part));
}

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
