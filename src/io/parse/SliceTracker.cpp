// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/SliceTracker.h"

namespace npuscope::io {

void SliceTracker::reset()
{
    m_open.clear();
    m_count = 0;
    m_outOfOrder = 0;
}

SliceTracker::Placement SliceTracker::place(int64_t ts, int64_t dur)
{
    if (m_count > 0 && before(ts, dur, m_lastTs, m_lastDur))
        ++m_outOfOrder;
    m_lastTs = ts;
    m_lastDur = dur;
    // Only the innermost open slices are closed: a slice that ended under one still open (a partial
    // overlap) keeps its row taken until that one ends, so rows never hold two overlapping slices.
    while (!m_open.empty() && m_open.back().end <= ts)
        m_open.pop_back();
    Placement p;
    p.depth = static_cast<int64_t>(m_open.size());
    p.parent = m_open.empty() ? -1 : m_open.back().index;
    m_open.push_back({ ts + dur, m_count++ });
    return p;
}

} // namespace npuscope::io
