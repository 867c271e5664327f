// SPDX-License-Identifier: GPL-3.0-or-later
#include "sseparser.h"

using namespace Qt::StringLiterals;

namespace weft
{

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> out;
    if (failed())
        return out;
    if (!m_started) {
        // A UTF-8 BOM may start the stream; it can itself arrive split.
        static constexpr char bom[] = "\xEF\xBB\xBF";
        while (!bytes.isEmpty() && m_line.size() < 3) {
            if (bytes.front() != bom[m_line.size()]) {
                break;
            }
            m_line.append(bytes.front());
            bytes = bytes.sliced(1);
        }
        if (m_line.size() == 3) {
            m_line.clear();
            m_started = true;
        } else if (!bytes.isEmpty()) {
            // Not a BOM: what was held back is ordinary line content.
            m_started = true;
        } else {
            return out;
        }
    }

    qsizetype pos = 0;
    const qsizetype n = bytes.size();
    while (pos < n && !failed()) {
        if (m_skipLf) {
            m_skipLf = false;
            if (bytes[pos] == '\n') {
                ++pos;
                continue;
            }
        }
        // Find the next line break.
        qsizetype end = pos;
        while (end < n && bytes[end] != '\n' && bytes[end] != '\r')
            ++end;
        if (m_line.size() + (end - pos) > MaxEventBytes) {
            overflow();
            break;
        }
        if (end == n) {
            m_line.append(bytes.sliced(pos));
            break;
        }
        if (m_line.isEmpty()) {
            processLine(bytes.sliced(pos, end - pos), out);
        } else {
            m_line.append(bytes.sliced(pos, end - pos));
            processLine(m_line, out);
            m_line.clear();
        }
        if (bytes[end] == '\r')
            m_skipLf = true;
        pos = end + 1;
    }
    return out;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        // Dispatch.
        if (m_hasData) {
            SseEvent e;
            e.event = m_event;
            e.data = m_data;
            e.id = m_lastId;
            out.append(std::move(e));
        }
        m_data.clear();
        m_event.clear();
        m_hasData = false;
        return;
    }
    if (line.front() == ':') {
        ++m_comments;
        return;
    }
    QByteArrayView field = line;
    QByteArrayView value;
    const qsizetype colon = line.indexOf(':');
    if (colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (!value.isEmpty() && value.front() == ' ')
            value = value.sliced(1);
    }
    if (field == "data") {
        if (m_data.size() + value.size() + 1 > MaxEventBytes) {
            overflow();
            return;
        }
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastId = value.toByteArray();
    } else if (field == "retry") {
        bool ok = false;
        const qint64 ms = value.toLongLong(&ok);
        if (ok && ms >= 0)
            m_retry = ms;
    }
    // Other fields are ignored, as the standard says.
}

void SseParser::overflow()
{
    // Frees what the line and the event held: nothing more is read from this stream.
    m_line = {};
    m_data = {};
    m_event = {};
    m_hasData = false;
    m_error = u"an event stream line or event is longer than %1 MiB"_s.arg(MaxEventBytes / (1024 * 1024));
}

bool SseParser::finish()
{
    const bool dropped = hasPending();
    m_line.clear();
    m_data.clear();
    m_event.clear();
    m_hasData = false;
    m_skipLf = false;
    return dropped;
}

void SseParser::reset()
{
    *this = SseParser();
}

} // namespace weft
