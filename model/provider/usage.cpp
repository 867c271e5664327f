// SPDX-License-Identifier: GPL-3.0-or-later
#include "usage.h"

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace weft
{

namespace
{

__extension__ typedef __int128 Int128;

/// Far below the limits of Int128, so that one more x10 cannot overflow.
constexpr Int128 Int128Limit = Int128(1) << 120;

constexpr qint64 PicoPerUsd = 1000000000000LL; // 1e12

/// Divides with rounding half away from zero.
Int128 divRound(Int128 value, Int128 divisor)
{
    const bool negative = value < 0;
    const Int128 magnitude = negative ? -value : value;
    const Int128 q = (magnitude + divisor / 2) / divisor;
    return negative ? -q : q;
}

/// Parses a decimal number in JavaScript's Number.toString form ("0.075", "3", "1e-7",
/// "1.5e+21") and returns it times 10^scale, rounded half away from zero.
std::optional<Int128> parseScaled(QByteArrayView text, int scale)
{
    bool negative = false;
    qsizetype i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        ++i;
    }
    QByteArray digits;
    int fractionDigits = 0;
    bool inFraction = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            digits.append(c);
            if (inFraction)
                ++fractionDigits;
        } else if (c == '.' && !inFraction) {
            inFraction = true;
        } else {
            break;
        }
    }
    int exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        bool ok = false;
        exponent = text.sliced(i + 1).toInt(&ok);
        if (!ok)
            return std::nullopt;
    }
    if (digits.isEmpty())
        return std::nullopt;
    // value = digits * 10^(exponent - fractionDigits); scaled = digits * 10^(shift)
    const int shift = exponent - fractionDigits + scale;
    Int128 mantissa = 0;
    for (char c : std::as_const(digits)) {
        if (mantissa > (Int128Limit))
            return std::nullopt;
        mantissa = mantissa * 10 + (c - '0');
    }
    Int128 result = mantissa;
    if (shift >= 0) {
        for (int k = 0; k < shift; ++k) {
            if (result > Int128Limit)
                return std::nullopt;
            result *= 10;
        }
    } else {
        if (-shift > 38)
            return Int128(0);
        Int128 divisor = 1;
        for (int k = 0; k < -shift; ++k)
            divisor *= 10;
        result = divRound(result, divisor);
    }
    return negative ? -result : result;
}

/// A price in USD per million tokens as an integer of 1e-12 USD per million tokens.
Int128 scaledPrice(double usdPerMillion)
{
    if (!std::isfinite(usdPerMillion) || usdPerMillion == 0)
        return 0;
    return parseScaled(formatJsNumber(usdPerMillion), 12).value_or(0);
}

qint64 clampToInt64(Int128 v)
{
    if (v > std::numeric_limits<qint64>::max())
        return std::numeric_limits<qint64>::max();
    if (v < std::numeric_limits<qint64>::min())
        return std::numeric_limits<qint64>::min();
    return qint64(v);
}

/// True for a JavaScript-truthy value.
bool truthy(const JsonValue &v)
{
    switch (v.type()) {
    case JsonValue::Type::Undefined:
    case JsonValue::Type::Null:
        return false;
    case JsonValue::Type::Bool:
        return v.toBool();
    case JsonValue::Type::Number:
        return v.toDouble() != 0 && !std::isnan(v.toDouble());
    case JsonValue::Type::String:
        return !v.toString().isEmpty();
    case JsonValue::Type::Array:
    case JsonValue::Type::Object:
        return true;
    }
    return false;
}

} // namespace

Money Money::fromDouble(double usd)
{
    if (!std::isfinite(usd))
        return Money();
    return Money(clampToInt64(parseScaled(formatJsNumber(usd), 12).value_or(0)));
}

QString Money::toString() const
{
    const bool negative = m_pico < 0;
    const quint64 magnitude = negative ? quint64(0) - quint64(m_pico) : quint64(m_pico);
    const quint64 whole = magnitude / quint64(PicoPerUsd);
    const quint64 fraction = magnitude % quint64(PicoPerUsd);
    QString s = QString::number(whole);
    if (fraction != 0) {
        QString f = QString::number(fraction).rightJustified(12, u'0');
        while (f.endsWith(u'0'))
            f.chop(1);
        s += u'.' + f;
    }
    return negative ? u'-' + s : s;
}

double Money::toDouble() const
{
    // The exact decimal read by a correctly rounding parser: the nearest double, as Decimal.toNumber().
    return toString().toDouble();
}

qint64 Money::cents() const
{
    return clampToInt64(divRound(Int128(m_pico), Int128(PicoPerUsd / 100)));
}

Money costOf(const CostRates &rates, const Tokens &tokens)
{
    // Sum of tokens x (1e-12 USD per million tokens), then one division by 1e6: exact before the
    // final rounding to whole pico-dollars.
    Int128 sum = 0;
    sum += Int128(tokens.input) * scaledPrice(rates.input);
    sum += Int128(tokens.output) * scaledPrice(rates.output);
    sum += Int128(tokens.cacheRead) * scaledPrice(rates.cacheRead);
    sum += Int128(tokens.cacheWrite) * scaledPrice(rates.cacheWrite);
    sum += Int128(tokens.reasoning) * scaledPrice(rates.output); // reasoning is billed as output
    return Money::fromPico(clampToInt64(divRound(sum, 1000000)));
}

StepUsage getUsage(const ModelCost &cost, const LlmUsage &usage, const JsonObject &providerMetadata)
{
    const qint64 cachedInputTokens = usage.cachedInputTokens;
    const JsonValue anthropic = providerMetadata.value(u"anthropic");
    const JsonValue bedrock = providerMetadata.value(u"bedrock");
    const bool excludesCachedTokens = truthy(anthropic) || truthy(bedrock);
    const qint64 adjustedInputTokens = excludesCachedTokens ? usage.inputTokens : usage.inputTokens - cachedInputTokens;

    StepUsage result;
    result.tokens.input = adjustedInputTokens;
    result.tokens.output = usage.outputTokens;
    result.tokens.reasoning = usage.reasoningTokens;
    result.tokens.cacheRead = cachedInputTokens;
    // metadata.anthropic.cacheCreationInputTokens ?? metadata.bedrock.usage.cacheWriteInputTokens ?? 0
    const JsonValue creation
        = anthropic.isObject() ? anthropic.toObject().value(u"cacheCreationInputTokens") : JsonValue();
    const JsonValue bedrockWrite
        = bedrock.isObject() ? bedrock.toObject().object(u"usage").value(u"cacheWriteInputTokens") : JsonValue();
    if (creation.isNumber())
        result.tokens.cacheWrite = creation.toInteger();
    else if (bedrockWrite.isNumber())
        result.tokens.cacheWrite = bedrockWrite.toInteger();
    else
        result.tokens.cacheWrite = usage.cacheWriteTokens;

    const bool over = cost.over200K.has_value() && result.tokens.input + result.tokens.cacheRead > 200000;
    result.cost = costOf(over ? *cost.over200K : cost.base, result.tokens);
    return result;
}

} // namespace weft
