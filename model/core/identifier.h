// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace weft::Identifier
{

/// The ID kinds OpenCode uses and their prefixes.
enum class Kind { Session, Message, Part, Permission, Question, User, Pty, Tool };

[[nodiscard]] QString prefix(Kind kind);

/// A new ID exactly as OpenCode makes it: `<prefix>_<12 hex><14 base62>`, where the hex is the low
/// 48 bits of `milliseconds * 0x1000 + counter` (bitwise NOT for descending IDs). Monotonic
/// within the process; thread-safe.
[[nodiscard]] QString ascending(Kind kind);
[[nodiscard]] QString descending(Kind kind);
[[nodiscard]] QString create(Kind kind, bool descending, qint64 timestampMs);

/// The 48-bit time field of an ID (already un-inverted when @p descending), or -1 when the ID
/// has no such field.
[[nodiscard]] qint64 timeField(QStringView id, bool descending = false);

/// The creation time in milliseconds encoded in an ascending ID, as OpenCode's
/// Identifier.timestamp() computes it (modulo 2^36 ms: the field wrapped on 2026-08-14).
[[nodiscard]] qint64 timestamp(QStringView id);

/// Like timestamp(), but resolves the wraparound by choosing the time nearest @p referenceMs.
[[nodiscard]] qint64 timestampNear(QStringView id, qint64 referenceMs, bool descending = false);

/// True when @p id can be used as one component of a storage key: not empty, not "." or "..",
/// no '/', '\\', NUL or control characters, at most 255 bytes.
[[nodiscard]] bool isSafeKeyComponent(QStringView id);

/// True when @p id is a safe key component that starts with the prefix of @p kind.
[[nodiscard]] bool isValid(QStringView id, Kind kind);

/// A readable reason why @p id is not valid for @p kind, or an empty string when it is.
[[nodiscard]] QString whyInvalid(QStringView id, Kind kind);

} // namespace weft::Identifier
