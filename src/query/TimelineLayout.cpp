// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/TimelineLayout.h"

#include <algorithm>
#include <cmath>

namespace npuscope::query {

void TimelineLayout::layout(const SliceLevel& level, const core::TimeAxis& axis, std::vector<LayoutBox>& out)
{
    const auto [first, last] = level.visible(axis.start(), axis.end());
    // Slices narrower than this many ns are folded; at least 1 ns so zero-length slices fold too.
    const auto foldNs = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(kFoldPx * axis.nsPerPx())));
    const auto maxEndBegin = level.maxEnd.begin();
    size_t i = first;
    while (i < last) {
        const int64_t s = level.start[i];
        const int64_t e = level.end[i];
        if (e - s >= foldNs) {
            out.push_back({ axis.toPx(s), axis.toPx(e), i, 1 });
            ++i;
            continue;
        }
        int64_t runEnd = e;
        size_t j = i + 1;
        while (j < last) {
            // Everything ending before runEnd + foldNs joins the run in one binary search.
            const auto k = static_cast<size_t>(std::lower_bound(maxEndBegin + static_cast<std::ptrdiff_t>(j),
                                                   maxEndBegin + static_cast<std::ptrdiff_t>(last), runEnd + foldNs)
                - maxEndBegin);
            if (k > j) {
                runEnd = std::max(runEnd, level.maxEnd[k - 1]);
                j = k;
                continue;
            }
            // The next slice ends further away: it joins only if it is narrow and close.
            if (level.end[j] - level.start[j] < foldNs && level.start[j] - runEnd < foldNs) {
                runEnd = std::max(runEnd, level.end[j]);
                ++j;
                continue;
            }
            break;
        }
        out.push_back({ axis.toPx(s), axis.toPx(runEnd), i, j - i });
        i = j;
    }
}

std::optional<LayoutBox> TimelineLayout::hitTest(
    const SliceLevel& level, const core::TimeAxis& axis, double px, double tolerancePx)
{
    thread_local std::vector<LayoutBox> boxes;
    boxes.clear();
    layout(level, axis, boxes);
    // Boxes are ordered by x0 and do not overlap: the candidate is the last box starting at or before px.
    const auto it = std::upper_bound(
        boxes.begin(), boxes.end(), px + tolerancePx, [](double x, const LayoutBox& b) { return x < b.x0; });
    if (it == boxes.begin())
        return std::nullopt;
    const LayoutBox& box = *(it - 1);
    // Sub-pixel boxes are drawn at least 1 px wide; hit them the same way.
    const double x1 = std::max(box.x1, box.x0 + 1.0);
    if (px >= box.x0 - tolerancePx && px <= x1 + tolerancePx)
        return box;
    return std::nullopt;
}

void TimelineLayout::counterPoints(
    const CounterTrack& counter, const core::TimeAxis& axis, std::vector<CounterPoint>& out)
{
    if (counter.ts.empty())
        return;
    // The sample in effect at the window start is the last one at or before it.
    auto first = std::upper_bound(counter.ts.begin(), counter.ts.end(), axis.start());
    if (first != counter.ts.begin())
        --first;
    const auto last = std::lower_bound(first, counter.ts.end(), axis.end());
    auto i = static_cast<size_t>(first - counter.ts.begin());
    const auto n = static_cast<size_t>(last - counter.ts.begin());
    long lastColumn = -1;
    for (; i < n; ++i) {
        const double x = std::max(-1.0, axis.toPx(counter.ts[i]));
        const long column = std::lround(std::floor(x));
        const double v = counter.value[i];
        if (column == lastColumn && !out.empty()) {
            out.back().value = std::max(out.back().value, v);
            continue;
        }
        out.push_back({ x, v });
        lastColumn = column;
    }
    // The last sample holds until the next one (or the window end).
    if (n < counter.ts.size() && !out.empty())
        out.push_back({ axis.toPx(counter.ts[n]), counter.value[n] });
}

} // namespace npuscope::query
