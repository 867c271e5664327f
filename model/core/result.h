// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace weft
{

/// An error a user can read: what went wrong, and where when known (a file, a JSON path).
struct Error {
    QString message;
    QString where;
    [[nodiscard]] QString toString() const { return where.isEmpty() ? message : where + QStringLiteral(": ") + message; }
};

/// A value or an Error, for operations that can fail in ways the caller must report.
template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_data(std::move(value)) { }
    Result(Error error) : m_data(std::move(error)) { }

    [[nodiscard]] bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    [[nodiscard]] const T &value() const & { return std::get<0>(m_data); }
    [[nodiscard]] T &value() & { return std::get<0>(m_data); }
    [[nodiscard]] T &&value() && { return std::get<0>(std::move(m_data)); }
    const T *operator->() const { return &value(); }
    const T &operator*() const & { return value(); }
    [[nodiscard]] const Error &error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

/// Success or an Error.
template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) { }
    [[nodiscard]] bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    [[nodiscard]] const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace weft
