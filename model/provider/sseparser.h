// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>

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
class SseParser
{
public:
    /// Parses @p bytes and returns the events they complete.
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

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);

    QByteArray m_line;
    QByteArray m_data;
    QByteArray m_event;
    QByteArray m_lastId;
    bool m_hasData = false;
    bool m_skipLf = false;
    bool m_started = false;
    int m_comments = 0;
    qint64 m_retry = -1;
};

} // namespace weft
