// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "llm.h"

#include "core/json.h"
#include "core/types.h"

#include <QString>

#include <optional>

namespace weft
{

/// Prices in USD per million tokens.
struct CostRates
{
    double input = 0;
    double output = 0;
    double cacheRead = 0;
    double cacheWrite = 0;
    bool operator==(const CostRates &) const = default;
};

/// A model's prices; over200K is the tier used when input + cache.read exceed 200,000 tokens
/// (models.dev `cost.context_over_200k`, OpenCode's `cost.experimentalOver200K`).
struct ModelCost
{
    CostRates base;
    std::optional<CostRates> over200K;
    bool operator==(const ModelCost &) const = default;
};

/// An exact amount of US dollars, in pico-dollars (1e-12 USD), for summing costs without
/// floating-point drift. Exact for prices with up to six decimals per million tokens.
class Money
{
public:
    Money() = default;
    [[nodiscard]] static Money fromPico(qint64 pico) { return Money(pico); }
    /// The nearest amount to @p usd (read through its shortest decimal form, as Decimal.js does).
    [[nodiscard]] static Money fromDouble(double usd);

    [[nodiscard]] qint64 pico() const { return m_pico; }
    /// The nearest double, as Decimal.toNumber() gives it.
    [[nodiscard]] double toDouble() const;
    /// The exact decimal, without trailing zeros ("0.0123").
    [[nodiscard]] QString toString() const;
    /// Rounded to whole cents (half away from zero).
    [[nodiscard]] qint64 cents() const;

    Money &operator+=(const Money &o)
    {
        m_pico += o.m_pico;
        return *this;
    }
    friend Money operator+(Money a, const Money &b) { return a += b; }
    bool operator==(const Money &) const = default;

private:
    explicit Money(qint64 pico)
        : m_pico(pico)
    {
    }
    qint64 m_pico = 0;
};

/// What getUsage returns: the tokens to store and the cost of the step.
struct StepUsage
{
    Tokens tokens;
    Money cost;
    [[nodiscard]] double costValue() const { return cost.toDouble(); }
};

/// OpenCode's Session.getUsage (1.1.x), in exact decimal arithmetic:
/// - input excludes cached tokens: kept as reported when the metadata has an "anthropic" or
///   "bedrock" key, else inputTokens - cachedInputTokens;
/// - cache.read = cachedInputTokens; cache.write = metadata.anthropic.cacheCreationInputTokens
///   (or metadata.bedrock.usage.cacheWriteInputTokens), else 0;
/// - reasoning tokens are billed at the output rate;
/// - the over-200K tier applies when the model has one and input + cache.read > 200,000.
[[nodiscard]] StepUsage getUsage(const ModelCost &cost, const LlmUsage &usage, const JsonObject &providerMetadata);

/// The cost of @p tokens at @p rates (per million tokens), exactly.
[[nodiscard]] Money costOf(const CostRates &rates, const Tokens &tokens);

} // namespace weft
