// SPDX-License-Identifier: GPL-3.0-or-later
#include "identifier.h"

#include "tr.h"

#include <QDateTime>
#include <QMutex>
#include <QRandomGenerator>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace weft::Identifier
{

namespace
{
constexpr quint64 TimeMask = (quint64(1) << 48) - 1;
constexpr qint64 WrapPeriodMs = qint64(1) << 36; // 2^48 / 0x1000
constexpr int HexLength = 12;
constexpr int RandomLength = 14;

QMutex s_mutex;
qint64 s_lastTimestamp = 0;
quint64 s_counter = 0;
quint64 s_lastFromClock = 0; // the time and counter of the last ID made from the clock

/// The random bytes of IDs, taken from the system generator 4 KiB at a time: with a request per
/// ID, a fork of 3,000 messages (17,777 IDs) asked the kernel 17,777 times. Under s_mutex.
void takeRandomBytes(quint8 (&bytes)[RandomLength])
{
    static quint32 pool[1024];
    static qsizetype used = sizeof pool; // bytes of pool handed out
    if (used + RandomLength > qsizetype(sizeof pool)) {
        QRandomGenerator::system()->fillRange(pool);
        used = 0;
    }
    std::memcpy(bytes, reinterpret_cast<const quint8 *>(pool) + used, RandomLength);
    used += RandomLength;
}
} // namespace

QString prefix(Kind kind)
{
    switch (kind) {
    case Kind::Session:
        return u"ses"_s;
    case Kind::Message:
        return u"msg"_s;
    case Kind::Part:
        return u"prt"_s;
    case Kind::Permission:
        return u"per"_s;
    case Kind::Question:
        return u"que"_s;
    case Kind::User:
        return u"usr"_s;
    case Kind::Pty:
        return u"pty"_s;
    case Kind::Tool:
        return u"tool"_s;
    }
    return {};
}

namespace
{
/// @p fixedMs null: the current time, read under the lock, so that two threads cannot reset
/// each other's per-millisecond counter with a stale clock reading (which gave duplicate IDs).
/// The ID is written into one string, its one allocation: a fork makes thousands.
QString make(Kind kind, bool descending, const qint64 *fixedMs)
{
    quint64 now;
    quint8 random[RandomLength];
    {
        QMutexLocker lock(&s_mutex);
        if (fixedMs) {
            // OpenCode's algorithm, as it is: the counter starts again whenever the time differs.
            if (*fixedMs != s_lastTimestamp) {
                s_lastTimestamp = *fixedMs;
                s_counter = 0;
            }
            ++s_counter;
            now = quint64(*fixedMs) * 0x1000 + s_counter;
        } else {
            // The same IDs while the clock moves on and a millisecond holds fewer than 4,096 of
            // them. Weft makes them faster than that (a fork), and the counter then runs into the
            // next millisecond; the IDs stay in order when the clock gets there (or goes back).
            const quint64 first = quint64(QDateTime::currentMSecsSinceEpoch()) * 0x1000 + 1;
            now = std::max(first, s_lastFromClock + 1);
            s_lastFromClock = now;
        }
        takeRandomBytes(random);
    }
    if (descending)
        now = ~now;
    now &= TimeMask;
    static const char hexDigits[] = "0123456789abcdef";
    static const char base62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const QString head = prefix(kind);
    QString id(head.size() + 1 + HexLength + RandomLength, Qt::Uninitialized);
    QChar *out = id.data();
    out = std::copy(head.cbegin(), head.cend(), out);
    *out++ = u'_';
    for (int i = HexLength - 1; i >= 0; --i)
        *out++ = QLatin1Char(hexDigits[(now >> (4 * i)) & 0xF]);
    // OpenCode maps each random byte with `% 62`; the same mapping keeps the same distribution.
    for (const quint8 byte : random)
        *out++ = QLatin1Char(base62[byte % 62]);
    return id;
}
} // namespace

QString create(Kind kind, bool descending, qint64 timestampMs)
{
    return make(kind, descending, &timestampMs);
}

QString ascending(Kind kind)
{
    return make(kind, false, nullptr);
}

QString descending(Kind kind)
{
    return make(kind, true, nullptr);
}

qint64 timeField(QStringView id, bool descending)
{
    const qsizetype underscore = id.indexOf(u'_');
    if (underscore < 0 || id.size() < underscore + 1 + HexLength)
        return -1;
    bool ok = false;
    quint64 value = id.mid(underscore + 1, HexLength).toULongLong(&ok, 16);
    if (!ok)
        return -1;
    if (descending)
        value = ~value & TimeMask;
    return qint64(value);
}

qint64 timestamp(QStringView id)
{
    const qint64 field = timeField(id, false);
    return field < 0 ? -1 : field / 0x1000;
}

qint64 timestampNear(QStringView id, qint64 referenceMs, bool descending)
{
    const qint64 field = timeField(id, descending);
    if (field < 0)
        return -1;
    const qint64 low = field / 0x1000; // the time modulo 2^36
    const qint64 base = referenceMs - (referenceMs % WrapPeriodMs);
    qint64 best = base + low;
    for (qint64 candidate : {base - WrapPeriodMs + low, base + WrapPeriodMs + low}) {
        if (qAbs(candidate - referenceMs) < qAbs(best - referenceMs))
            best = candidate;
    }
    return best;
}

bool isSafeKeyComponent(QStringView id)
{
    if (id.isEmpty() || id == u"." || id == u"..")
        return false;
    // A name of at most 255 bytes; no UTF-16 code unit takes more than 3 bytes in UTF-8.
    if (id.size() > 85 && id.toUtf8().size() > 255)
        return false;
    for (QChar c : id) {
        if (c == u'/' || c == u'\\' || c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    }
    return true;
}

QString whyInvalid(QStringView id, Kind kind)
{
    const QString expected = prefix(kind) + u'_';
    if (id.isEmpty())
        return CoreTr::tr("the ID is empty");
    if (id.contains(QChar(0)))
        return CoreTr::tr("the ID contains a NUL byte");
    if (id == u"." || id == u".." || id.contains(u'/') || id.contains(u'\\'))
        return CoreTr::tr("the ID \"%1\" contains a path separator or is a relative path").arg(id);
    if (!isSafeKeyComponent(id))
        return CoreTr::tr("the ID contains control characters or is too long");
    if (!id.startsWith(expected))
        return CoreTr::tr("the ID \"%1\" does not start with \"%2\"").arg(id, expected);
    return {};
}

bool isValid(QStringView id, Kind kind)
{
    return whyInvalid(id, kind).isEmpty();
}

} // namespace weft::Identifier
