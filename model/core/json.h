// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QSharedDataPointer>
#include <QString>
#include <QStringBuilder>
#include <QStringList>

#include <functional>
#include <initializer_list>
#include <optional>
#include <utility>
#include <variant>

class QJsonValue;

namespace weft
{

class JsonValue;
class JsonObject;

/// An ordered JSON array with implicit sharing.
class JsonArray
{
public:
    JsonArray();
    JsonArray(std::initializer_list<JsonValue> values);
    JsonArray(const JsonArray &);
    JsonArray(JsonArray &&) noexcept;
    JsonArray &operator=(const JsonArray &);
    JsonArray &operator=(JsonArray &&) noexcept;
    ~JsonArray();

    [[nodiscard]] qsizetype size() const;
    [[nodiscard]] bool isEmpty() const { return size() == 0; }
    [[nodiscard]] const JsonValue &at(qsizetype i) const;
    JsonValue &operator[](qsizetype i);
    void append(const JsonValue &value);
    void append(JsonValue &&value);
    void removeAt(qsizetype i);
    void reserve(qsizetype n);

    [[nodiscard]] const JsonValue *begin() const;
    [[nodiscard]] const JsonValue *end() const;

    bool operator==(const JsonArray &other) const;

private:
    friend class JsonParser;
    class Data;
    QSharedDataPointer<Data> d;
};

/// A JSON object that keeps its keys in the order they were read or inserted.
///
/// Qt's QJsonObject sorts its keys; OpenCode files are written in the order OpenCode built the
/// object, so Weft needs the order to write a file back byte for byte. Objects in this data are
/// small (tens of keys), so lookup is a linear scan over contiguous keys.
class JsonObject
{
public:
    JsonObject();
    JsonObject(std::initializer_list<std::pair<QString, JsonValue>> members);
    JsonObject(const JsonObject &);
    JsonObject(JsonObject &&) noexcept;
    JsonObject &operator=(const JsonObject &);
    JsonObject &operator=(JsonObject &&) noexcept;
    ~JsonObject();

    [[nodiscard]] qsizetype size() const;
    [[nodiscard]] bool isEmpty() const { return size() == 0; }
    [[nodiscard]] bool contains(QStringView key) const { return indexOf(key) >= 0; }
    [[nodiscard]] qsizetype indexOf(QStringView key) const;
    [[nodiscard]] const QString &keyAt(qsizetype i) const;
    [[nodiscard]] const JsonValue &valueAt(qsizetype i) const;
    [[nodiscard]] QStringList keys() const;

    /// The value of @p key, or an undefined value when the key is absent.
    [[nodiscard]] const JsonValue &value(QStringView key) const;
    [[nodiscard]] const JsonValue &operator[](QStringView key) const { return value(key); }

    // Typed accessors with a default when the key is absent or of another type.
    [[nodiscard]] QString string(QStringView key, const QString &fallback = {}) const;
    /// The string of @p key without decoding it (JsonValue::toStringView()).
    [[nodiscard]] QAnyStringView stringView(QStringView key) const;
    [[nodiscard]] double number(QStringView key, double fallback = 0) const;
    [[nodiscard]] qint64 integer(QStringView key, qint64 fallback = 0) const;
    [[nodiscard]] bool boolean(QStringView key, bool fallback = false) const;
    [[nodiscard]] JsonObject object(QStringView key) const;
    [[nodiscard]] JsonArray array(QStringView key) const;

    /// Replaces the value in place when @p key exists (keeping its position), appends otherwise.
    void insert(const QString &key, const JsonValue &value);
    /// Inserts @p key after @p afterKey (or appends when @p afterKey is absent); replaces in place
    /// when @p key exists.
    void insertAfter(QStringView afterKey, const QString &key, const JsonValue &value);
    void remove(QStringView key);
    /// Reference to the value of @p key for in-place changes; inserts null when absent.
    JsonValue &ref(const QString &key);

    bool operator==(const JsonObject &other) const;

private:
    friend class JsonParser;
    class Data;
    QSharedDataPointer<Data> d;
};

/// A JSON value: undefined (absent), null, bool, number, string, array or object.
///
/// A string is held in one of two forms, which only memory and speed tell apart: UTF-16 (a
/// QString, as Qt works with it) or, for a long string read from JSON text that is mostly ASCII,
/// the UTF-8 bytes it was read as. Tool outputs, file contents and diffs are most of a session's
/// bytes and nearly all ASCII: as UTF-16 they took twice their size on disk in every session
/// held in memory. toString() decodes such a string for each call (it is not kept), so code
/// that reads a long string often keeps its own copy; writing it (toJson()) needs no decoding.
class JsonValue
{
public:
    enum class Type : quint8 { Undefined, Null, Bool, Number, String, Array, Object };

    JsonValue() = default;
    JsonValue(std::nullptr_t) : m_value(nullptr) { }
    JsonValue(bool b) : m_value(b) { }
    JsonValue(int n) : m_value(double(n)) { }
    JsonValue(qint64 n) : m_value(double(n)) { }
    JsonValue(double n) : m_value(n) { }
    JsonValue(const QString &s) : m_value(s) { }
    JsonValue(QString &&s) : m_value(std::move(s)) { }
    template<typename A, typename B>
    JsonValue(const QStringBuilder<A, B> &builder) : JsonValue(QString(builder)) { }
    JsonValue(const char *) = delete; // use u"..."_s
    JsonValue(const JsonArray &a);
    JsonValue(const JsonObject &o);

    [[nodiscard]] Type type() const { return TypeOf[m_value.index()]; }
    [[nodiscard]] bool isUndefined() const { return type() == Type::Undefined; }
    [[nodiscard]] bool isNull() const { return type() == Type::Null; }
    [[nodiscard]] bool isBool() const { return type() == Type::Bool; }
    [[nodiscard]] bool isNumber() const { return type() == Type::Number; }
    [[nodiscard]] bool isString() const { return type() == Type::String; }
    [[nodiscard]] bool isArray() const { return type() == Type::Array; }
    [[nodiscard]] bool isObject() const { return type() == Type::Object; }

    [[nodiscard]] bool toBool(bool fallback = false) const
    {
        const bool *b = std::get_if<bool>(&m_value);
        return b ? *b : fallback;
    }
    [[nodiscard]] double toDouble(double fallback = 0) const
    {
        const double *n = std::get_if<double>(&m_value);
        return n ? *n : fallback;
    }
    [[nodiscard]] qint64 toInteger(qint64 fallback = 0) const;
    /// The string (decoded anew each call when it is held as UTF-8); @p fallback for other types.
    [[nodiscard]] QString toString(const QString &fallback = {}) const
    {
        if (const QString *s = std::get_if<QString>(&m_value))
            return *s;
        return std::holds_alternative<Utf8>(m_value) ? decodedUtf8() : fallback;
    }
    /// The string as it is held, UTF-16 or UTF-8, without decoding it (valid while this value, or
    /// a copy of it, is left unchanged); an empty view for other types.
    [[nodiscard]] QAnyStringView toStringView() const
    {
        if (const QString *s = std::get_if<QString>(&m_value))
            return *s;
        if (const Utf8 *u = std::get_if<Utf8>(&m_value))
            return QUtf8StringView(u->bytes);
        return {};
    }
    [[nodiscard]] JsonArray toArray() const;
    [[nodiscard]] JsonObject toObject() const;
    /// Mutable access for in-place edits of nested containers; the value must hold that type.
    JsonObject &objectRef();
    JsonArray &arrayRef();

    /// Name of the type as used in error messages ("string", "object", ...).
    [[nodiscard]] static QString typeName(Type type);

    /// Same type and value; a string equals the same string in the other form.
    bool operator==(const JsonValue &other) const;

    [[nodiscard]] QJsonValue toQJsonValue() const;
    [[nodiscard]] static JsonValue fromQJsonValue(const QJsonValue &value);

private:
    friend class JsonParser;
    friend class JsonWriter;
    /// A string held as its UTF-8 bytes (valid UTF-8, no escapes).
    struct Utf8
    {
        QByteArray bytes;
        bool operator==(const Utf8 &) const = default;
    };
    [[nodiscard]] QString decodedUtf8() const;

    // The alternatives in Type's order, the string twice (UTF-16, UTF-8): 32 bytes in all.
    using Storage = std::variant<std::monostate, std::nullptr_t, bool, double, QString, Utf8, JsonArray, JsonObject>;
    static constexpr Type TypeOf[] = {Type::Undefined, Type::Null,  Type::Bool,  Type::Number,
                                      Type::String,    Type::String, Type::Array, Type::Object};
    Storage m_value;
};

struct JsonParseError {
    QString message;
    qsizetype offset = 0;
    int line = 0;
    int column = 0;
    [[nodiscard]] QString toString() const;
};

/// Parses RFC 8259 JSON, keeping object key order. Returns nullopt and fills @p error on failure.
///
/// Where Weft is built with simdjson, simdjson parses first (about twice as fast, measured by
/// tests/bench/bench_json) and its values are turned into the same ordered values; whatever it
/// does not take goes to Weft's own parser, which gives JavaScript's results and the errors.
[[nodiscard]] std::optional<JsonValue> parseJson(QByteArrayView data, JsonParseError *error = nullptr);

/// Weft's own parser alone, without simdjson (what tests compare parseJson() with).
[[nodiscard]] std::optional<JsonValue> parseJsonOwn(QByteArrayView data, JsonParseError *error = nullptr);

/// Readable bytes parseJsonPadded() may read after the data (their values do not matter).
inline constexpr qsizetype JsonPadding = 64;
/// parseJson() for data followed by JsonPadding readable bytes: saves simdjson a copy.
[[nodiscard]] std::optional<JsonValue> parseJsonPadded(QByteArrayView data, JsonParseError *error = nullptr);

/// Serialises like JavaScript's JSON.stringify(value, null, indent): same escaping, same number
/// formatting, same layout. With indent 0 the output is compact. Undefined members are skipped.
/// @p level is the depth the value sits at in a larger document (its nested lines are indented
/// as there): what JsonStreamWriter::serializedValue() takes.
[[nodiscard]] QByteArray toJson(const JsonValue &value, int indent = 2, int level = 0);

/// Writes one JSON document piece by piece to a sink, laid out byte for byte as toJson() lays out
/// the whole: for documents too large to build first, such as the export of a long session,
/// written while its messages are still being read.
///
///     JsonStreamWriter json(2, write);
///     json.beginObject();
///     json.key(u"info");
///     json.value(info);
///     json.key(u"messages");
///     json.beginArray();
///     json.serializedValue(bytesMadeOnAnotherThread); // toJson(message, 2, json.level())
///     json.end();
///     json.end();
class JsonStreamWriter
{
public:
    using Write = std::function<void(QByteArrayView)>;
    JsonStreamWriter(int indent, Write write);

    void beginObject();
    void beginArray();
    /// Closes the innermost object or array.
    void end();
    /// The key of the object's next member; its value follows.
    void key(QStringView key);
    /// A value, serialized here. Not undefined: toJson() would leave its member out.
    void value(const JsonValue &value);
    /// A value already serialized, with toJson(value, indent, level()): on other threads, in
    /// parallel, by a writer that only puts the pieces in order.
    void serializedValue(QByteArrayView json);
    /// The depth of the next value: the level to serialize it at.
    [[nodiscard]] int level() const { return int(m_open.size()); }

private:
    /// Before a value: the comma and line break an array item takes (a member's came with its key).
    void beforeValue();
    /// The comma and line break before the innermost container's next item or member.
    void separate(QByteArray &out);
    /// Hands @p piece to the sink, unless it is empty.
    void put(QByteArrayView piece);
    void begin(bool object);

    struct Open {
        bool object;
        bool empty = true;
        bool afterKey = false;
    };
    int m_indent;
    Write m_write;
    QList<Open> m_open;
};

/// Appends the string @p utf8 as a JSON string literal, escaped as toJson() escapes strings
/// (invalid UTF-8 is decoded as QString::fromUtf8() decodes it first): for output written from
/// stored bytes without a JsonValue in between.
void appendJsonString(QByteArray &out, QByteArrayView utf8);

/// Formats a number exactly as JavaScript's Number.prototype.toString() does.
[[nodiscard]] QByteArray formatJsNumber(double value);

} // namespace weft
