// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TimeAxis.h"
#include "npuscope/query/RankTimeline.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace npuscope::query {

// One drawn box of a slice level: a single slice (count == 1) or a fold of `count` consecutive
// slices [first, first + count) too narrow to draw one by one.
struct LayoutBox {
    double x0 = 0; // px, may be < 0 or > width for slices cut by the window edge
    double x1 = 0;
    size_t first = 0;
    size_t count = 1;
    bool folded() const { return count > 1; }
};

// One column of a counter chart: the largest value of the samples in effect over the column.
struct CounterPoint {
    double x = 0;
    double value = 0;
};

// Level of detail for the timeline: which boxes a frame draws. Cost is proportional to the number
// of pixels, not of slices: the visible range is found by binary search and runs of slices
// narrower than kFoldPx are skipped by binary search over the monotone maxEnd key (as Tracy does).
// Invariant: every slice intersecting the window is in exactly one box. Pure functions, any thread.
class TimelineLayout {
public:
    static constexpr double kFoldPx = 2.0;

    // Appends the boxes of the slices of level visible in axis [start, end) to out.
    static void layout(const SliceLevel& level, const core::TimeAxis& axis, std::vector<LayoutBox>& out);
    // The box under px (within tolerancePx), computed with the same layout as the paint.
    static std::optional<LayoutBox> hitTest(
        const SliceLevel& level, const core::TimeAxis& axis, double px, double tolerancePx = 1.0);
    // Step-function samples of a counter for the visible window, at most a few per pixel column.
    static void counterPoints(const CounterTrack& counter, const core::TimeAxis& axis, std::vector<CounterPoint>& out);
};

} // namespace npuscope::query
