// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace npuscope::io {

// Nesting of the slices of one track (one thread of one process): the depth and parent of each slice, by
// the one rule every timeline importer uses (docs/loading.md, "Slice nesting"). Times are int64 ns.
//
// The rule is the slice tracker of Perfetto's trace_processor for well-nested input:
//  - Order: slices are placed by start; at equal starts the longer one first (it becomes the parent of
//    the shorter); equal start and duration keep input order. sort() puts spans in this order.
//  - A slice covers [ts, ts + dur): a slice that starts where another ends is its sibling, not its child.
//    A zero-duration slice ends where it starts, so it never has children, not even another
//    zero-duration slice at the same time (that one is its sibling).
//  - The parent of a slice is the innermost slice still open at its start; depth = number of open
//    slices (0 = outermost). Open slices close from the innermost out: a slice stays open while a slice
//    placed inside it has not ended.
//  - Partial overlap: a slice that starts inside an open slice and ends after it is placed inside it
//    anyway (its child, one row deeper). Perfetto drops such a slice (stat
//    slice_drop_overlapping_complete_event); npuscope keeps it, so nothing is lost, and two slices at
//    the same depth of a track still never overlap in time (what the timeline draws per row).
//
// One tracker handles one track at a time: reset(), then place() each slice in sort() order.
// Not thread-safe; use one tracker per thread.
class SliceTracker {
public:
    struct Placement {
        int64_t depth = 0; // 0 = outermost
        int32_t parent = -1; // index (place() calls since reset()) of the enclosing slice, -1 for none
    };

    // Sorts [first, last) into placement order (stable). The elements need int64 members ts and dur.
    template <class It> static void sort(It first, It last)
    {
        std::stable_sort(first, last, [](const auto& a, const auto& b) { return before(a.ts, a.dur, b.ts, b.dur); });
    }
    // True when a slice (ts1, dur1) is placed before a slice (ts2, dur2).
    static bool before(int64_t ts1, int64_t dur1, int64_t ts2, int64_t dur2)
    {
        return ts1 != ts2 ? ts1 < ts2 : dur1 > dur2;
    }

    // Starts a new track.
    void reset();
    // The next slice of the track, in sort() order. dur >= 0.
    Placement place(int64_t ts, int64_t dur);
    // Slices placed since reset() that came out of sort() order (placed anyway, by the same rule).
    uint64_t outOfOrder() const { return m_outOfOrder; }

private:
    struct Open {
        int64_t end;
        int32_t index;
    };
    std::vector<Open> m_open; // innermost last
    int32_t m_count = 0;
    int64_t m_lastTs = 0, m_lastDur = 0;
    uint64_t m_outOfOrder = 0;
};

} // namespace npuscope::io
