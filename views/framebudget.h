// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

namespace weft
{

/// What a view's frames leave of each frame period for work done in idle time.
///
/// A frame starts with the work that leads to it (a scroll, a placing of rows) or with its paint,
/// and ends when it is painted. Idle work runs in slices, and a slice runs in a frame's period only
/// when the period has room for all it may take (a slice stops after the item that ran over its
/// time), so that a frame and the idle work after it are done before the next frame's input is
/// due. Else it waits for the next period. Times are milliseconds of one monotonic clock.
class FrameBudget
{
public:
    static constexpr qint64 PeriodMs = 16; ///< a frame at 60 Hz

    /// Work towards a frame starts at @p now; nothing changes while a frame is on its way.
    void beginFrame(qint64 now)
    {
        if (!m_onItsWay)
            m_start = now;
        m_onItsWay = true;
    }
    /// The frame was painted.
    void endFrame()
    {
        m_onItsWay = false;
        m_yielded = false;
    }

    /// How long a slice of idle work that may take up to @p longestMs waits at @p now: 0 to run it
    /// now. While a frame is on its way in its period, 1 ms (after the paint). After a frame that
    /// leaves no room for the slice, it waits once: for the next period, or 1 ms after a frame
    /// that ran over its period (input that came during the frame goes first).
    [[nodiscard]] qint64 idleDelay(qint64 now, qint64 longestMs)
    {
        if (m_start < 0)
            return 0;
        const qint64 since = now - m_start;
        if (m_onItsWay)
            return since < PeriodMs ? 1 : 0; // a paint that never comes holds nothing up
        if (since + longestMs <= PeriodMs || m_yielded)
            return 0;
        m_yielded = true;
        return since < PeriodMs ? PeriodMs - since : 1;
    }

private:
    qint64 m_start = -1;
    bool m_onItsWay = false;
    bool m_yielded = false; // idle work waited once since the frame
};

} // namespace weft
