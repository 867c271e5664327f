// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace weft
{

/// One dispatched server-sent event.
struct SseEvent
{
    QByteArray event; ///< the "event:" field; empty means "message"
    QByteArray data; ///< the "data:" lines joined with '\n'
    QByteArray id; ///< the last event ID seen
    bool operator==(const SseEvent &) const = default;
};

/// An incremental parser for text/event-stream (the WHATWG HTML "event stream" rules).
///
/// Bytes may arrive split at any position, including inside a UTF-8 sequence or between the
/// '\r' and '\n' of a line break. Lines end with "\r\n", "\n" or "\r"; lines starting with ':'
/// are comments; several "data:" lines join with '\n'; a blank line dispatches the event; an event
/// without data is not dispatched; a leading UTF-8 BOM is skipped. Data stay bytes (UTF-8), so a
/// JSON parser can read them without a copy through QString.
///
/// A line or an event longer than MaxEventBytes fails the stream (failed()): the parser drops
/// what it holds and reads nothing more, so a server that never ends a line cannot make it buffer
/// without end. Provider, MCP and OpenCode server streams all read through this parser.
class SseParser
{
public:
    /// The most one line, or one event's data, may hold (16 MiB). The one limit of every event
    /// stream Weft reads.
    static constexpr qsizetype MaxEventBytes = 16 * 1024 * 1024;

    /// Parses @p bytes and returns the events they complete. Once the stream has failed (a line
    /// or an event over MaxEventBytes), returns the events completed before that and then nothing.
    [[nodiscard]] QList<SseEvent> feed(QByteArrayView bytes);
    /// Ends the stream: an event not yet ended by a blank line is dropped (as the standard says).
    /// Returns true when such incomplete data was dropped.
    bool finish();
    /// Forgets everything (for a new stream).
    void reset();

    /// Number of comment lines seen (": ping" keep-alives).
    [[nodiscard]] int comments() const { return m_comments; }
    /// The "retry:" value last seen, or -1.
    [[nodiscard]] qint64 retry() const { return m_retry; }
    /// True when some bytes are buffered (an incomplete line or event).
    [[nodiscard]] bool hasPending() const { return !m_line.isEmpty() || m_hasData || !m_event.isEmpty(); }
    /// True once a line or an event went over MaxEventBytes; the stream must be given up.
    [[nodiscard]] bool failed() const { return !m_error.isEmpty(); }
    /// Why the stream failed ("an event stream line or event is longer than 16 MiB"), or empty.
    [[nodiscard]] QString errorString() const { return m_error; }

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);
    void overflow();

    QByteArray m_line;
    QByteArray m_data;
    QByteArray m_event;
    QByteArray m_lastId;
    QString m_error;
    bool m_hasData = false;
    bool m_skipLf = false;
    bool m_started = false;
    int m_comments = 0;
    qint64 m_retry = -1;
};

} // namespace weft
