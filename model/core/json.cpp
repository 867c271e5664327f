// SPDX-License-Identifier: GPL-3.0-or-later
#include "json.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringDecoder>
#include <QVarLengthArray>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifdef WEFT_HAVE_SIMDJSON
#include <simdjson.h>
static_assert(weft::JsonPadding >= qsizetype(simdjson::SIMDJSON_PADDING));
#endif

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{
const JsonValue s_undefined;

/// UTF-8 to a string that keeps a leading U+FEFF: QString::fromUtf8() drops it as a byte order
/// mark, but inside a JSON string it is an ordinary character (JSON.parse keeps it).
QString utf8String(QByteArrayView bytes)
{
    if (bytes.size() >= 3 && bytes[0] == '\xEF' && bytes[1] == '\xBB' && bytes[2] == '\xBF') {
        QStringDecoder decoder(QStringDecoder::Utf8,
                               QStringDecoder::Flag::Stateless | QStringDecoder::Flag::ConvertInitialBom);
        return decoder.decode(bytes);
    }
    return QString::fromUtf8(bytes);
}
}

// ---------------------------------------------------------------------------------------------
// JsonArray

class JsonArray::Data : public QSharedData
{
public:
    QList<JsonValue> items;
};

JsonArray::JsonArray() = default;
JsonArray::JsonArray(std::initializer_list<JsonValue> values)
    : d(new Data)
{
    d->items = QList<JsonValue>(values);
}
JsonArray::JsonArray(const JsonArray &) = default;
JsonArray::JsonArray(JsonArray &&) noexcept = default;
JsonArray &JsonArray::operator=(const JsonArray &) = default;
JsonArray &JsonArray::operator=(JsonArray &&) noexcept = default;
JsonArray::~JsonArray() = default;

qsizetype JsonArray::size() const
{
    return d ? d->items.size() : 0;
}

const JsonValue &JsonArray::at(qsizetype i) const
{
    if (!d || i < 0 || i >= d->items.size())
        return s_undefined;
    return d->items.at(i);
}

JsonValue &JsonArray::operator[](qsizetype i)
{
    Q_ASSERT(d && i >= 0 && i < d->items.size());
    return d->items[i];
}

void JsonArray::append(const JsonValue &value)
{
    if (!d)
        d = new Data;
    d->items.append(value);
}

void JsonArray::append(JsonValue &&value)
{
    if (!d)
        d = new Data;
    d->items.append(std::move(value));
}

void JsonArray::removeAt(qsizetype i)
{
    if (d && i >= 0 && i < d->items.size())
        d->items.removeAt(i);
}

void JsonArray::reserve(qsizetype n)
{
    if (!d)
        d = new Data;
    d->items.reserve(n);
}

const JsonValue *JsonArray::begin() const
{
    return d ? d->items.constData() : nullptr;
}

const JsonValue *JsonArray::end() const
{
    return d ? d->items.constData() + d->items.size() : nullptr;
}

bool JsonArray::operator==(const JsonArray &other) const
{
    if (d == other.d)
        return true;
    if (size() != other.size())
        return false;
    for (qsizetype i = 0; i < size(); ++i) {
        if (!(at(i) == other.at(i)))
            return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// JsonObject

class JsonObject::Data : public QSharedData
{
public:
    // The keys and values in one list: one allocation per object (a session of 3,000 messages
    // holds 45,000 objects), not two.
    struct Member
    {
        QString key;
        JsonValue value;
    };
    QList<Member> members;
};

JsonObject::JsonObject() = default;
JsonObject::JsonObject(std::initializer_list<std::pair<QString, JsonValue>> members)
    : d(new Data)
{
    // Room for every member at once instead of growing the list step by step: half the
    // instructions (`session list` builds 4,520 such objects: 20 M -> 10.5 M).
    d->members.reserve(qsizetype(members.size()));
    for (const auto &[key, value] : members)
        insert(key, value);
}
JsonObject::JsonObject(const JsonObject &) = default;
JsonObject::JsonObject(JsonObject &&) noexcept = default;
JsonObject &JsonObject::operator=(const JsonObject &) = default;
JsonObject &JsonObject::operator=(JsonObject &&) noexcept = default;
JsonObject::~JsonObject() = default;

qsizetype JsonObject::size() const
{
    return d ? d->members.size() : 0;
}

qsizetype JsonObject::indexOf(QStringView key) const
{
    if (!d)
        return -1;
    const qsizetype n = d->members.size();
    const Data::Member *members = d->members.constData();
    for (qsizetype i = 0; i < n; ++i) {
        if (members[i].key == key)
            return i;
    }
    return -1;
}

const QString &JsonObject::keyAt(qsizetype i) const
{
    return d->members.at(i).key;
}

const JsonValue &JsonObject::valueAt(qsizetype i) const
{
    return d->members.at(i).value;
}

QStringList JsonObject::keys() const
{
    QStringList keys;
    if (d) {
        keys.reserve(d->members.size());
        for (const Data::Member &member : std::as_const(d->members))
            keys.append(member.key);
    }
    return keys;
}

const JsonValue &JsonObject::value(QStringView key) const
{
    const qsizetype i = indexOf(key);
    return i < 0 ? s_undefined : d->members.at(i).value;
}

QString JsonObject::string(QStringView key, const QString &fallback) const
{
    return value(key).toString(fallback);
}

QAnyStringView JsonObject::stringView(QStringView key) const
{
    return value(key).toStringView();
}

double JsonObject::number(QStringView key, double fallback) const
{
    return value(key).toDouble(fallback);
}

qint64 JsonObject::integer(QStringView key, qint64 fallback) const
{
    return value(key).toInteger(fallback);
}

bool JsonObject::boolean(QStringView key, bool fallback) const
{
    return value(key).toBool(fallback);
}

JsonObject JsonObject::object(QStringView key) const
{
    return value(key).toObject();
}

JsonArray JsonObject::array(QStringView key) const
{
    return value(key).toArray();
}

void JsonObject::insert(const QString &key, const JsonValue &value)
{
    if (value.isUndefined()) {
        remove(key);
        return;
    }
    const qsizetype i = indexOf(key);
    if (!d)
        d = new Data;
    if (i >= 0)
        d->members[i].value = value;
    else
        d->members.append({key, value});
}

void JsonObject::insertAfter(QStringView afterKey, const QString &key, const JsonValue &value)
{
    if (value.isUndefined()) {
        remove(key);
        return;
    }
    if (contains(key)) {
        insert(key, value);
        return;
    }
    const qsizetype after = indexOf(afterKey);
    if (after < 0) {
        insert(key, value);
        return;
    }
    d->members.insert(after + 1, {key, value});
}

void JsonObject::remove(QStringView key)
{
    const qsizetype i = indexOf(key);
    if (i < 0)
        return;
    d->members.removeAt(i);
}

JsonValue &JsonObject::ref(const QString &key)
{
    qsizetype i = indexOf(key);
    if (i < 0) {
        insert(key, JsonValue(nullptr));
        i = d->members.size() - 1;
    }
    return d->members[i].value;
}

bool JsonObject::operator==(const JsonObject &other) const
{
    if (d == other.d)
        return true;
    if (size() != other.size())
        return false;
    // Key order does not take part in equality, as in JavaScript's deep-equal helpers.
    for (qsizetype i = 0; i < size(); ++i) {
        const qsizetype j = other.indexOf(d->members.at(i).key);
        if (j < 0 || !(d->members.at(i).value == other.d->members.at(j).value))
            return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// JsonValue

JsonValue::JsonValue(const JsonArray &a)
    : m_value(a)
{
}

JsonValue::JsonValue(const JsonObject &o)
    : m_value(o)
{
}

qint64 JsonValue::toInteger(qint64 fallback) const
{
    const double *n = std::get_if<double>(&m_value);
    if (!n || !std::isfinite(*n))
        return fallback;
    if (*n >= 9.2e18 || *n <= -9.2e18)
        return fallback;
    return qint64(*n);
}

QString JsonValue::decodedUtf8() const
{
    return utf8String(std::get<Utf8>(m_value).bytes);
}

JsonArray JsonValue::toArray() const
{
    const JsonArray *a = std::get_if<JsonArray>(&m_value);
    return a ? *a : JsonArray();
}

JsonObject JsonValue::toObject() const
{
    const JsonObject *o = std::get_if<JsonObject>(&m_value);
    return o ? *o : JsonObject();
}

JsonObject &JsonValue::objectRef()
{
    Q_ASSERT(isObject());
    return std::get<JsonObject>(m_value);
}

JsonArray &JsonValue::arrayRef()
{
    Q_ASSERT(isArray());
    return std::get<JsonArray>(m_value);
}

QString JsonValue::typeName(Type type)
{
    switch (type) {
    case Type::Undefined:
        return u"nothing"_s;
    case Type::Null:
        return u"null"_s;
    case Type::Bool:
        return u"boolean"_s;
    case Type::Number:
        return u"number"_s;
    case Type::String:
        return u"string"_s;
    case Type::Array:
        return u"array"_s;
    case Type::Object:
        return u"object"_s;
    }
    return {};
}

bool JsonValue::operator==(const JsonValue &other) const
{
    if (type() != other.type())
        return false;
    if (m_value.index() != other.m_value.index()) // one string as UTF-16, the other as UTF-8
        return toString() == other.toString();
    return m_value == other.m_value;
}

QJsonValue JsonValue::toQJsonValue() const
{
    switch (type()) {
    case Type::Undefined:
        return QJsonValue(QJsonValue::Undefined);
    case Type::Null:
        return QJsonValue(QJsonValue::Null);
    case Type::Bool:
        return QJsonValue(toBool());
    case Type::Number:
        return QJsonValue(toDouble());
    case Type::String:
        return QJsonValue(toString());
    case Type::Array: {
        QJsonArray a;
        for (const JsonValue &v : std::get<JsonArray>(m_value))
            a.append(v.toQJsonValue());
        return a;
    }
    case Type::Object: {
        const JsonObject &object = std::get<JsonObject>(m_value);
        QJsonObject o;
        for (qsizetype i = 0; i < object.size(); ++i)
            o.insert(object.keyAt(i), object.valueAt(i).toQJsonValue());
        return o;
    }
    }
    return {};
}

JsonValue JsonValue::fromQJsonValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return JsonValue(nullptr);
    case QJsonValue::Bool:
        return JsonValue(value.toBool());
    case QJsonValue::Double:
        return JsonValue(value.toDouble());
    case QJsonValue::String:
        return JsonValue(value.toString());
    case QJsonValue::Array: {
        JsonArray a;
        const QJsonArray qa = value.toArray();
        a.reserve(qa.size());
        for (const QJsonValue &v : qa)
            a.append(fromQJsonValue(v));
        return a;
    }
    case QJsonValue::Object: {
        JsonObject o;
        const QJsonObject qo = value.toObject();
        for (auto it = qo.begin(); it != qo.end(); ++it)
            o.insert(it.key(), fromQJsonValue(it.value()));
        return o;
    }
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

QString JsonParseError::toString() const
{
    return u"line %1, column %2: %3"_s.arg(line).arg(column).arg(message);
}

// ---------------------------------------------------------------------------------------------
// Parser

class JsonParser
{
public:
    JsonParser(QByteArrayView data)
        : m_begin(data.data())
        , m_p(data.data())
        , m_end(data.data() + data.size())
    {
    }

    std::optional<JsonValue> parseDocument(JsonParseError *error)
    {
        // A UTF-8 byte order mark is tolerated, as JavaScript's readers strip it too.
        if (m_end - m_p >= 3 && std::memcmp(m_p, "\xEF\xBB\xBF", 3) == 0)
            m_p += 3;
        JsonValue value;
        skipSpace();
        if (parseValue(value, 0)) {
            skipSpace();
            if (m_p == m_end)
                return value;
            fail(u"unexpected data after the JSON value"_s);
        }
        if (error) {
            error->message = m_error;
            error->offset = m_errorAt - m_begin;
            error->line = 1;
            error->column = 1;
            for (const char *c = m_begin; c < m_errorAt; ++c) {
                if (*c == '\n') {
                    ++error->line;
                    error->column = 1;
                } else if ((static_cast<unsigned char>(*c) & 0xC0) != 0x80) {
                    ++error->column;
                }
            }
        }
        return std::nullopt;
    }

private:
    static constexpr int MaxDepth = 512;

    bool fail(const QString &message)
    {
        if (m_error.isEmpty()) {
            m_error = message;
            m_errorAt = m_p;
        }
        return false;
    }

    void skipSpace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    bool literal(const char *word, qsizetype length)
    {
        if (m_end - m_p < length || std::memcmp(m_p, word, size_t(length)) != 0)
            return fail(u"invalid literal"_s);
        m_p += length;
        return true;
    }

    bool parseValue(JsonValue &out, int depth)
    {
        if (m_p >= m_end)
            return fail(m_p == m_begin ? u"empty document"_s : u"unexpected end of data"_s);
        switch (*m_p) {
        case '{':
            return parseObject(out, depth + 1);
        case '[':
            return parseArray(out, depth + 1);
        case '"': {
            QString string;
            if (!parseString(string))
                return false;
            out.m_value = std::move(string);
            return true;
        }
        case 't':
            out = JsonValue(true);
            return literal("true", 4);
        case 'f':
            out = JsonValue(false);
            return literal("false", 5);
        case 'n':
            out = JsonValue(nullptr);
            return literal("null", 4);
        default:
            if (*m_p == '-' || (*m_p >= '0' && *m_p <= '9'))
                return parseNumber(out);
            if (*m_p == '\0')
                return fail(u"NUL byte where a value was expected"_s);
            return fail(u"unexpected character '%1'"_s.arg(QChar::fromLatin1(*m_p)));
        }
    }

    bool parseNumber(JsonValue &out)
    {
        const char *start = m_p;
        if (*m_p == '-')
            ++m_p;
        if (m_p >= m_end)
            return fail(u"invalid number"_s);
        if (*m_p == '0') {
            ++m_p;
        } else if (*m_p >= '1' && *m_p <= '9') {
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
        } else {
            return fail(u"invalid number"_s);
        }
        if (m_p < m_end && *m_p == '.') {
            ++m_p;
            if (m_p >= m_end || *m_p < '0' || *m_p > '9')
                return fail(u"invalid number"_s);
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            ++m_p;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (m_p >= m_end || *m_p < '0' || *m_p > '9')
                return fail(u"invalid number"_s);
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
        }
        double value = 0;
        const auto result = std::from_chars(start, m_p, value);
        if (result.ec == std::errc::result_out_of_range) {
            // JavaScript turns overflow into Infinity and underflow into 0; strtod does the same.
            value = std::strtod(QByteArray(start, m_p - start).constData(), nullptr);
        } else if (result.ec != std::errc()) {
            return fail(u"invalid number"_s);
        }
        out = JsonValue(value);
        return true;
    }

    static int hexValue(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

    bool parseString(QString &out)
    {
        ++m_p; // opening quote
        const char *start = m_p;
        // Fast path: no escapes; the whole run converts in one call.
        while (m_p < m_end) {
            const unsigned char c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                out = utf8String(QByteArrayView(start, m_p - start));
                ++m_p;
                return true;
            }
            if (c == '\\')
                break;
            if (c < 0x20)
                return fail(c == 0 ? u"NUL byte inside a string"_s : u"control character inside a string"_s);
            ++m_p;
        }
        if (m_p >= m_end)
            return fail(u"unterminated string"_s);

        // With escapes: unescape into one buffer sized for the whole string (its UTF-16 form has
        // at most as many code units as it has bytes), converting each run between escapes with
        // one decoder call. Appending run by run cost a temporary string and a reallocation for
        // every line of a tool output.
        // The buffer ends where the loop below stops at the latest: the closing quote, a control
        // character or the end of the input (the last two fail there, as before).
        const char *close = m_p;
        while (close < m_end && *close != '"' && static_cast<unsigned char>(*close) >= 0x20) {
            if (*close != '\\')
                ++close;
            else if (m_end - close < 2)
                close = m_end;
            else
                close += 2;
        }
        // ConvertInitialBom: a stateless decoder takes every call for the start of a text and
        // would drop a U+FEFF that begins a run (after an escape, or at the string's start).
        QStringDecoder decoder(QStringDecoder::Utf8,
                               QStringDecoder::Flag::Stateless | QStringDecoder::Flag::ConvertInitialBom);
        QString result(decoder.requiredSpace(close - start), Qt::Uninitialized);
        QChar *const begin = result.data();
        QChar *dst = decoder.appendToBuffer(begin, QByteArrayView(start, m_p - start));
        while (m_p < m_end) {
            const char *run = m_p;
            while (m_p < m_end && *m_p != '"' && *m_p != '\\' && static_cast<unsigned char>(*m_p) >= 0x20)
                ++m_p;
            if (m_p > run)
                dst = decoder.appendToBuffer(dst, QByteArrayView(run, m_p - run));
            if (m_p >= m_end)
                break;
            const char c = *m_p;
            if (c == '"') {
                ++m_p;
                result.truncate(dst - begin);
                out = std::move(result);
                return true;
            }
            if (c != '\\')
                return fail(c == 0 ? u"NUL byte inside a string"_s : u"control character inside a string"_s);
            ++m_p;
            if (m_p >= m_end)
                break;
            switch (*m_p) {
            case '"':
                *dst++ = u'"';
                break;
            case '\\':
                *dst++ = u'\\';
                break;
            case '/':
                *dst++ = u'/';
                break;
            case 'b':
                *dst++ = u'\b';
                break;
            case 'f':
                *dst++ = u'\f';
                break;
            case 'n':
                *dst++ = u'\n';
                break;
            case 'r':
                *dst++ = u'\r';
                break;
            case 't':
                *dst++ = u'\t';
                break;
            case 'u': {
                if (m_end - m_p < 5)
                    return fail(u"truncated \\u escape"_s);
                int code = 0;
                for (int i = 1; i <= 4; ++i) {
                    const int h = hexValue(m_p[i]);
                    if (h < 0)
                        return fail(u"invalid \\u escape"_s);
                    code = code * 16 + h;
                }
                // Lone surrogates are kept as they are: JavaScript strings can hold them.
                *dst++ = QChar(char16_t(code));
                m_p += 4;
                break;
            }
            default:
                return fail(u"invalid escape sequence"_s);
            }
            ++m_p;
        }
        return fail(u"unterminated string"_s);
    }

    bool parseArray(JsonValue &out, int depth)
    {
        if (depth > MaxDepth)
            return fail(u"nesting deeper than %1 levels"_s.arg(MaxDepth));
        ++m_p;
        JsonArray array;
        skipSpace();
        if (m_p < m_end && *m_p == ']') {
            ++m_p;
            out.m_value = std::move(array);
            return true;
        }
        array.d = new JsonArray::Data;
        QList<JsonValue> &items = array.d->items;
        while (true) {
            skipSpace();
            if (!parseValue(items.emplace_back(), depth))
                return false;
            skipSpace();
            if (m_p >= m_end)
                return fail(u"unterminated array"_s);
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == ']') {
                ++m_p;
                out.m_value = std::move(array);
                return true;
            }
            return fail(u"expected ',' or ']' in array"_s);
        }
    }

    /// An object key. The same few dozen names ("id", "type", "time", "sessionID", ...) make up
    /// nearly every key of OpenCode's files: a small per-thread table hands out one shared QString
    /// per name instead of a new allocation per key.
    bool parseKey(QString &out)
    {
        const char *start = m_p + 1;
        const char *q = start;
        while (q < m_end && q - start <= MaxInternedKey && *q != '"' && *q != '\\' && static_cast<unsigned char>(*q) >= 0x20)
            ++q;
        if (q >= m_end || *q != '"' || q - start > MaxInternedKey)
            return parseString(out);
        out = internedKey(QByteArrayView(start, q - start));
        m_p = q + 1;
        return true;
    }

    static constexpr qsizetype MaxInternedKey = 32;

    /// Where the value of member @p key goes. Duplicate keys: the last value wins, in the first
    /// one's place, as in JSON.parse (the slot is emptied for it).
    static JsonValue &memberSlot(QList<JsonObject::Data::Member> &members, QString &&key)
    {
        for (JsonObject::Data::Member &member : members) {
            if (member.key == key)
                return member.value = JsonValue();
        }
        return members.emplace_back(JsonObject::Data::Member{std::move(key), JsonValue()}).value;
    }

    /// The shared string of a key of at most MaxInternedKey bytes of UTF-8 (without escapes).
    static const QString &internedKey(QByteArrayView bytes)
    {
        struct KeySlot {
            qsizetype length = -1;
            char bytes[MaxInternedKey];
            QString value;
        };
        constexpr size_t Slots = 512;
        thread_local KeySlot table[Slots];
        quint32 h = 2166136261u; // FNV-1a
        for (char c : bytes)
            h = (h ^ quint8(c)) * 16777619u;
        KeySlot &slot = table[h % Slots];
        if (slot.length != bytes.size() || std::memcmp(slot.bytes, bytes.data(), size_t(bytes.size())) != 0) {
            slot.value = utf8String(bytes);
            slot.length = bytes.size();
            std::memcpy(slot.bytes, bytes.data(), size_t(bytes.size()));
        }
        return slot.value;
    }

    /// From this many bytes of UTF-8 on, a string may be held as UTF-8 (see JsonValue).
    static constexpr qsizetype LongString = 256;

    /// The value of a long string read as valid UTF-8 @p bytes: kept as UTF-8 while that is the
    /// smaller form, that is while fewer than half of its bytes continue a multi-byte character
    /// (ASCII text with some accents, arrows or box drawing), as UTF-16 otherwise (CJK text).
    static JsonValue longString(QByteArrayView bytes)
    {
        qsizetype continuation = 0;
        for (const char c : bytes)
            continuation += (quint8(c) & 0xC0) == 0x80;
        JsonValue value;
        if (continuation * 2 < bytes.size())
            value.m_value = JsonValue::Utf8{bytes.toByteArray()};
        else
            value.m_value = utf8String(bytes);
        return value;
    }

#ifdef WEFT_HAVE_SIMDJSON
public:
    /// Parses with simdjson and builds the same ordered values as the parser above. Gives nullopt
    /// for whatever simdjson does not take (including documents deeper than MaxDepth, lone
    /// surrogates, numbers beyond 64 bits, invalid UTF-8): the parser above then decides, with
    /// JavaScript's semantics and its error messages. @p padded: JsonPadding readable bytes
    /// follow the data.
    static std::optional<JsonValue> parseWithSimdjson(QByteArrayView data, bool padded)
    {
        // A parser keeps the buffers of the largest document it has read, for the life of its
        // thread (the GUI thread's for good): larger documents, rare in OpenCode's data, go to
        // Weft's own parser, which needs no such buffers.
        constexpr qsizetype MaxSimdjsonDocument = 4 << 20;
        if (data.isEmpty() || data.size() > MaxSimdjsonDocument)
            return std::nullopt;
        thread_local std::unique_ptr<simdjson::dom::parser> parser = [] {
            auto p = std::make_unique<simdjson::dom::parser>();
            if (p->allocate(64 * 1024, MaxDepth) != simdjson::SUCCESS)
                p.reset();
            return p;
        }();
        if (!parser)
            return std::nullopt;
        simdjson::dom::element root;
        if (parser->parse(reinterpret_cast<const uint8_t *>(data.data()), size_t(data.size()), !padded).get(root) != simdjson::SUCCESS)
            return std::nullopt;
        JsonValue value;
        LongStrings longStrings;
        fromSimdjson(root, value, longStrings);
        return value;
    }

private:
    /// The long strings of one document so far, each with its value. An equal one later in the
    /// document shares that value's bytes: OpenCode's bash tool writes its output twice (as
    /// state.output and as state.metadata.output). A few per document are compared at most.
    using LongStrings = QVarLengthArray<std::pair<std::string_view, JsonValue>, 4>;
    static constexpr qsizetype MaxSharedStrings = 8;

    static void fromSimdjson(simdjson::dom::element e, JsonValue &out, LongStrings &longStrings)
    {
        switch (e.type()) {
        case simdjson::dom::element_type::OBJECT: {
            const simdjson::dom::object members(e);
            JsonObject object;
            if (members.size() > 0) {
                object.d = new JsonObject::Data;
                QList<JsonObject::Data::Member> &fields = object.d->members;
                fields.reserve(qsizetype(members.size()));
                for (const simdjson::dom::key_value_pair member : members) {
                    const QByteArrayView bytes(member.key.data(), qsizetype(member.key.size()));
                    QString key = bytes.size() <= MaxInternedKey ? internedKey(bytes) : utf8String(bytes);
                    fromSimdjson(member.value, memberSlot(fields, std::move(key)), longStrings);
                }
            }
            out.m_value = std::move(object);
            return;
        }
        case simdjson::dom::element_type::ARRAY: {
            const simdjson::dom::array items(e);
            JsonArray array;
            if (items.size() > 0) {
                array.d = new JsonArray::Data;
                array.d->items.reserve(qsizetype(items.size()));
                for (const simdjson::dom::element item : items)
                    fromSimdjson(item, array.d->items.emplace_back(), longStrings);
            }
            out.m_value = std::move(array);
            return;
        }
        case simdjson::dom::element_type::STRING: {
            const std::string_view s(e);
            const QByteArrayView bytes(s.data(), qsizetype(s.size()));
            if (bytes.size() < LongString) {
                out.m_value = utf8String(bytes);
                return;
            }
            for (const auto &[seen, value] : longStrings) {
                if (seen == s) {
                    out = value;
                    return;
                }
            }
            out = longString(bytes);
            if (longStrings.size() < MaxSharedStrings)
                longStrings.append({s, out});
            return;
        }
        case simdjson::dom::element_type::INT64:
            out = JsonValue(double(int64_t(e)));
            return;
        case simdjson::dom::element_type::UINT64:
            out = JsonValue(double(uint64_t(e)));
            return;
        case simdjson::dom::element_type::DOUBLE:
            out = JsonValue(double(e));
            return;
        case simdjson::dom::element_type::BOOL:
            out = JsonValue(bool(e));
            return;
        case simdjson::dom::element_type::NULL_VALUE:
            out = JsonValue(nullptr);
            return;
        }
    }
#endif

    bool parseObject(JsonValue &out, int depth)
    {
        if (depth > MaxDepth)
            return fail(u"nesting deeper than %1 levels"_s.arg(MaxDepth));
        ++m_p;
        JsonObject object;
        skipSpace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            out.m_value = std::move(object);
            return true;
        }
        object.d = new JsonObject::Data;
        QList<JsonObject::Data::Member> &members = object.d->members;
        while (true) {
            skipSpace();
            if (m_p >= m_end)
                return fail(u"unterminated object"_s);
            if (*m_p != '"')
                return fail(u"expected a quoted key in object"_s);
            QString key;
            if (!parseKey(key))
                return false;
            skipSpace();
            if (m_p >= m_end || *m_p != ':')
                return fail(u"expected ':' after key \"%1\""_s.arg(key));
            ++m_p;
            skipSpace();
            if (!parseValue(memberSlot(members, std::move(key)), depth))
                return false;
            skipSpace();
            if (m_p >= m_end)
                return fail(u"unterminated object"_s);
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == '}') {
                ++m_p;
                out.m_value = std::move(object);
                return true;
            }
            return fail(u"expected ',' or '}' in object"_s);
        }
    }

    const char *m_begin;
    const char *m_p;
    const char *m_end;
    QString m_error;
    const char *m_errorAt = nullptr;
};

namespace
{
std::optional<JsonValue> parseFast(QByteArrayView data, JsonParseError *error, bool padded)
{
#ifdef WEFT_HAVE_SIMDJSON
    if (std::optional<JsonValue> value = JsonParser::parseWithSimdjson(data, padded))
        return value;
#else
    Q_UNUSED(padded)
#endif
    return parseJsonOwn(data, error);
}
} // namespace

std::optional<JsonValue> parseJsonOwn(QByteArrayView data, JsonParseError *error)
{
    JsonParser parser(data);
    return parser.parseDocument(error);
}

std::optional<JsonValue> parseJson(QByteArrayView data, JsonParseError *error)
{
    return parseFast(data, error, false);
}

std::optional<JsonValue> parseJsonPadded(QByteArrayView data, JsonParseError *error)
{
    return parseFast(data, error, true);
}

// ---------------------------------------------------------------------------------------------
// Serialiser

QByteArray formatJsNumber(double value)
{
    if (std::isnan(value) || std::isinf(value))
        return QByteArrayLiteral("null"); // what JSON.stringify writes
    if (value == 0)
        return QByteArrayLiteral("0"); // also for -0
    char buf[64];
    // Shortest round-trip digits in scientific form: d[.ddd]e±x.
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    const char *p = buf;
    QByteArray out;
    if (*p == '-') {
        out += '-';
        ++p;
    }
    QByteArray digits;
    while (p < r.ptr && *p != 'e') {
        if (*p != '.')
            digits += *p;
        ++p;
    }
    int exponent = 0;
    std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), r.ptr, exponent);
    const int k = int(digits.size());
    const int n = exponent + 1;
    if (k <= n && n <= 21) {
        out += digits;
        out += QByteArray(n - k, '0');
    } else if (0 < n && n <= 21) {
        out += digits.left(n);
        out += '.';
        out += digits.mid(n);
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out += QByteArray(-n, '0');
        out += digits;
    } else {
        out += digits.at(0);
        if (k > 1) {
            out += '.';
            out += digits.mid(1);
        }
        out += 'e';
        out += (n - 1) >= 0 ? '+' : '-';
        out += QByteArray::number(std::abs(n - 1));
    }
    return out;
}

namespace
{

// Writes @p s as a JSON string literal, UTF-16 straight to UTF-8 in the output buffer, with
// JSON.stringify's escapes: the short ones, \u00XX for other control characters and \uXXXX for
// lone surrogates (well-formed JSON.stringify, ES2019).
void appendEscaped(QByteArray &out, QStringView s, QLatin1StringView suffix = {})
{
    static const char hex[] = "0123456789abcdef";
    const qsizetype start = out.size();
    // At most 6 bytes per UTF-16 code unit (a \uXXXX escape), the quotes and the suffix (an
    // object key's ": ", written here rather than appended after: a call less per member).
    out.resize(start + s.size() * 6 + 2 + suffix.size());
    char *dst = out.data() + start;
    *dst++ = '"';
    const char16_t *p = s.utf16();
    const char16_t *const end = p + s.size();
    // Runs of plain ASCII that needs no escape (most of a session's text and code) are copied
    // several code units a time: one unit at a time this loop was a fifth of an export's
    // instructions. SSE2 (every x86-64) takes eight units a step; elsewhere 64-bit lane
    // arithmetic takes four.
    while (p < end) {
#if defined(__SSE2__)
        while (end - p >= 8) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
            // Signed: units from 0x8000 are negative, so "below 0x20" catches them too.
            const __m128i special = _mm_or_si128(
                _mm_or_si128(_mm_cmplt_epi16(v, _mm_set1_epi16(0x20)), _mm_cmpgt_epi16(v, _mm_set1_epi16(0x7F))),
                _mm_or_si128(_mm_cmpeq_epi16(v, _mm_set1_epi16('"')), _mm_cmpeq_epi16(v, _mm_set1_epi16('\\'))));
            // The units before the first special one are copied too (the buffer has room for
            // all eight): an escape every line (code, tool output) otherwise sent the up to seven
            // units before it one at a time.
            _mm_storel_epi64(reinterpret_cast<__m128i *>(dst), _mm_packus_epi16(v, v));
            if (const int mask = _mm_movemask_epi8(special); mask != 0) {
                const int plain = std::countr_zero(unsigned(mask)) / 2;
                dst += plain;
                p += plain;
                break;
            }
            dst += 8;
            p += 8;
        }
#else
        constexpr quint64 Ones = 0x0001000100010001ULL;
        constexpr quint64 Highs = 0x8000800080008000ULL;
        const auto hasZeroLane = [](quint64 v) { return (v - Ones) & ~v & Highs; };
        while (end - p >= 4) {
            quint64 w;
            std::memcpy(&w, p, sizeof w);
            // Not ASCII, a control character (below 0x20), a quote or a backslash: one at a time.
            if ((w & 0xFF80FF80FF80FF80ULL) || ((w - Ones * 0x20) & Highs) || hasZeroLane(w ^ (Ones * '"'))
                || hasZeroLane(w ^ (Ones * '\\')))
                break;
            dst[0] = char(w);
            dst[1] = char(w >> 16);
            dst[2] = char(w >> 32);
            dst[3] = char(w >> 48);
            dst += 4;
            p += 4;
        }
#endif
        if (p == end)
            break;
        const char16_t c = *p++;
        if (c < 0x80) {
            if (c >= 0x20 && c != u'"' && c != u'\\') {
                *dst++ = char(c);
                continue;
            }
            *dst++ = '\\';
            switch (c) {
            case u'"':
                *dst++ = '"';
                break;
            case u'\\':
                *dst++ = '\\';
                break;
            case u'\b':
                *dst++ = 'b';
                break;
            case u'\f':
                *dst++ = 'f';
                break;
            case u'\n':
                *dst++ = 'n';
                break;
            case u'\r':
                *dst++ = 'r';
                break;
            case u'\t':
                *dst++ = 't';
                break;
            default:
                *dst++ = 'u';
                *dst++ = '0';
                *dst++ = '0';
                *dst++ = hex[(c >> 4) & 0xF];
                *dst++ = hex[c & 0xF];
            }
        } else if (c < 0x800) {
            *dst++ = char(0xC0 | (c >> 6));
            *dst++ = char(0x80 | (c & 0x3F));
        } else if (QChar::isHighSurrogate(c) && p < end && QChar::isLowSurrogate(*p)) {
            const char32_t u = QChar::surrogateToUcs4(c, *p++);
            *dst++ = char(0xF0 | (u >> 18));
            *dst++ = char(0x80 | ((u >> 12) & 0x3F));
            *dst++ = char(0x80 | ((u >> 6) & 0x3F));
            *dst++ = char(0x80 | (u & 0x3F));
        } else if (QChar::isSurrogate(c)) {
            // A lone surrogate (high without its low half, or low without its high half).
            const char u[6] = {'\\', 'u', hex[(c >> 12) & 0xF], hex[(c >> 8) & 0xF], hex[(c >> 4) & 0xF], hex[c & 0xF]};
            std::memcpy(dst, u, sizeof u);
            dst += sizeof u;
        } else {
            *dst++ = char(0xE0 | (c >> 12));
            *dst++ = char(0x80 | ((c >> 6) & 0x3F));
            *dst++ = char(0x80 | (c & 0x3F));
        }
    }
    *dst++ = '"';
    if (!suffix.isEmpty()) {
        std::memcpy(dst, suffix.data(), size_t(suffix.size()));
        dst += suffix.size();
    }
    out.truncate(dst - out.constData());
}

// Writes valid UTF-8 @p s as a JSON string literal with the same escapes as appendEscaped():
// only quotes, backslashes and control characters are escaped (UTF-8 has no lone surrogates),
// every other byte is copied.
void appendEscapedUtf8(QByteArray &out, QByteArrayView s)
{
    static const char hex[] = "0123456789abcdef";
    const qsizetype start = out.size();
    // At most 6 bytes per byte (a \u00XX escape), and the quotes.
    out.resize(start + s.size() * 6 + 2);
    char *dst = out.data() + start;
    *dst++ = '"';
    const char *p = s.data();
    const char *const end = p + s.size();
    while (p < end) {
#if defined(__SSE2__)
        // Sixteen bytes a step while none needs an escape.
        while (end - p >= 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
            // Unsigned "at most 0x1F": the minimum of the byte and 0x1F is the byte itself.
            const __m128i special = _mm_or_si128(
                _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v),
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
            _mm_storeu_si128(reinterpret_cast<__m128i *>(dst), v);
            // The bytes before the first special one are copied with the others (as above).
            if (const int mask = _mm_movemask_epi8(special); mask != 0) {
                const int plain = std::countr_zero(unsigned(mask));
                dst += plain;
                p += plain;
                break;
            }
            dst += 16;
            p += 16;
        }
        if (p == end)
            break;
#endif
        const auto c = quint8(*p++);
        if (c >= 0x20 && c != '"' && c != '\\') {
            *dst++ = char(c);
            continue;
        }
        *dst++ = '\\';
        switch (c) {
        case '"':
            *dst++ = '"';
            break;
        case '\\':
            *dst++ = '\\';
            break;
        case '\b':
            *dst++ = 'b';
            break;
        case '\f':
            *dst++ = 'f';
            break;
        case '\n':
            *dst++ = 'n';
            break;
        case '\r':
            *dst++ = 'r';
            break;
        case '\t':
            *dst++ = 't';
            break;
        default:
            *dst++ = 'u';
            *dst++ = '0';
            *dst++ = '0';
            *dst++ = hex[(c >> 4) & 0xF];
            *dst++ = hex[c & 0xF];
        }
    }
    *dst++ = '"';
    out.truncate(dst - out.constData());
}

void appendNumber(QByteArray &out, double value)
{
    // Integers below 2^53 (timestamps, token counts, line numbers): their decimal digits are what
    // Number.prototype.toString() prints. Above, JavaScript prints the shortest round-trip
    // digits padded with zeros, which formatJsNumber() handles.
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0 && value != 0) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, qint64(value));
        out.append(buf, r.ptr - buf);
        return;
    }
    out += formatJsNumber(value);
}

void newline(QByteArray &out, int spaces, bool comma = false)
{
    // One append of the comma before it, the line break and its indentation (three appends were
    // 5% of an export's instructions: 270,000 lines in L's).
    static constexpr char Lines[] = ",\n                                                                ";
    if (spaces < qsizetype(sizeof Lines) - 2) {
        out.append(Lines + (comma ? 0 : 1), spaces + (comma ? 2 : 1));
        return;
    }
    if (comma)
        out += ',';
    out += '\n';
    out.append(spaces, ' ');
}

} // namespace

void appendJsonString(QByteArray &out, QByteArrayView utf8)
{
    if (QUtf8StringView(utf8).isValidUtf8())
        appendEscapedUtf8(out, utf8);
    else
        appendEscaped(out, QString::fromUtf8(utf8));
}

/// Writes values as JSON text (a friend of JsonValue: it writes a string in the form it holds).
class JsonWriter
{
public:
    static void serialize(QByteArray &out, const JsonValue &value, int indent, int level);
};

void JsonWriter::serialize(QByteArray &out, const JsonValue &value, int indent, int level)
{
    switch (value.type()) {
    case JsonValue::Type::Undefined:
    case JsonValue::Type::Null:
        out += "null";
        return;
    case JsonValue::Type::Bool:
        out += value.toBool() ? "true" : "false";
        return;
    case JsonValue::Type::Number:
        appendNumber(out, value.toDouble());
        return;
    case JsonValue::Type::String:
        if (const auto *utf8 = std::get_if<JsonValue::Utf8>(&value.m_value))
            appendEscapedUtf8(out, utf8->bytes);
        else
            appendEscaped(out, std::get<QString>(value.m_value));
        return;
    case JsonValue::Type::Array: {
        const JsonArray array = value.toArray();
        if (array.isEmpty()) {
            out += "[]";
            return;
        }
        out += '[';
        bool first = true;
        for (const JsonValue &item : array) {
            if (indent > 0)
                newline(out, (level + 1) * indent, !first);
            else if (!first)
                out += ',';
            first = false;
            // JSON.stringify writes undefined array items as null.
            serialize(out, item, indent, level + 1);
        }
        if (indent > 0)
            newline(out, level * indent);
        out += ']';
        return;
    }
    case JsonValue::Type::Object: {
        const JsonObject object = value.toObject();
        bool first = true;
        out += '{';
        for (qsizetype i = 0; i < object.size(); ++i) {
            const JsonValue &member = object.valueAt(i);
            if (member.isUndefined())
                continue;
            if (indent > 0)
                newline(out, (level + 1) * indent, !first);
            else if (!first)
                out += ',';
            first = false;
            appendEscaped(out, object.keyAt(i), indent > 0 ? ": "_L1 : ":"_L1);
            serialize(out, member, indent, level + 1);
        }
        if (!first && indent > 0)
            newline(out, level * indent);
        out += '}';
        return;
    }
    }
}

QByteArray toJson(const JsonValue &value, int indent, int level)
{
    QByteArray out;
    JsonWriter::serialize(out, value, indent, level);
    return out;
}

JsonStreamWriter::JsonStreamWriter(int indent, Write write)
    : m_indent(indent)
    , m_write(std::move(write))
{
}

void JsonStreamWriter::separate(QByteArray &out)
{
    Open &open = m_open.last();
    if (!open.empty)
        out += ',';
    if (m_indent > 0)
        newline(out, level() * m_indent);
    open.empty = false;
}

void JsonStreamWriter::put(QByteArrayView piece)
{
    if (!piece.isEmpty())
        m_write(piece);
}

void JsonStreamWriter::beforeValue()
{
    if (m_open.isEmpty())
        return;
    Open &open = m_open.last();
    if (open.object) {
        Q_ASSERT(open.afterKey);
        open.afterKey = false;
        return;
    }
    QByteArray separator;
    separate(separator);
    put(separator);
}

void JsonStreamWriter::begin(bool object)
{
    beforeValue();
    put(object ? "{" : "[");
    m_open.append(Open{object});
}

void JsonStreamWriter::beginObject()
{
    begin(true);
}

void JsonStreamWriter::beginArray()
{
    begin(false);
}

void JsonStreamWriter::end()
{
    Q_ASSERT(!m_open.isEmpty());
    const Open open = m_open.takeLast();
    QByteArray close;
    if (!open.empty && m_indent > 0)
        newline(close, level() * m_indent);
    close += open.object ? '}' : ']';
    put(close);
}

void JsonStreamWriter::key(QStringView key)
{
    Q_ASSERT(!m_open.isEmpty() && m_open.last().object && !m_open.last().afterKey);
    QByteArray out;
    separate(out);
    appendEscaped(out, key);
    out += m_indent > 0 ? ": " : ":";
    m_open.last().afterKey = true;
    put(out);
}

void JsonStreamWriter::value(const JsonValue &value)
{
    Q_ASSERT(!value.isUndefined());
    beforeValue();
    put(toJson(value, m_indent, level()));
}

void JsonStreamWriter::serializedValue(QByteArrayView json)
{
    beforeValue();
    put(json);
}

} // namespace weft
