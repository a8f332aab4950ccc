// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/RankTimeline.h"

#include <algorithm>
#include <limits>

namespace npuscope::query {

void SliceLevel::push(int64_t s, int64_t e, int64_t name, int64_t sliceId)
{
    start.push_back(s);
    end.push_back(e);
    maxEnd.push_back(maxEnd.empty() ? e : std::max(maxEnd.back(), e));
    nameId.push_back(name);
    id.push_back(sliceId);
}

std::pair<size_t, size_t> SliceLevel::visible(int64_t begin, int64_t endNs) const
{
    const auto first = std::lower_bound(maxEnd.begin(), maxEnd.end(), begin);
    const auto last = std::lower_bound(start.begin(), start.end(), endNs);
    const auto f = static_cast<size_t>(first - maxEnd.begin());
    const auto l = static_cast<size_t>(last - start.begin());
    return { f, std::max(f, l) };
}

size_t SliceTrack::sliceCount() const
{
    size_t n = 0;
    for (const SliceLevel& level : levels)
        n += level.size();
    return n;
}

const std::string& RankTimeline::nameOf(int64_t nameId) const
{
    static const std::string kUnknown = "?";
    const auto it = names.find(nameId);
    return it == names.end() ? kUnknown : it->second;
}

size_t RankTimeline::sliceCount() const
{
    size_t n = 0;
    for (const SliceTrack& t : tracks)
        n += t.sliceCount();
    return n;
}

std::optional<SliceRef> RankTimeline::find(int64_t sliceId) const
{
    const auto it = sliceById.find(sliceId);
    if (it == sliceById.end())
        return std::nullopt;
    return it->second;
}

std::optional<SliceRef> RankTimeline::parentOf(const SliceRef& ref) const
{
    if (!ref.valid() || ref.depth <= 0)
        return std::nullopt;
    const SliceTrack& track = tracks[static_cast<size_t>(ref.track)];
    const SliceLevel& level = track.levels[static_cast<size_t>(ref.depth)];
    const int64_t s = level.start[ref.index];
    const int64_t e = level.end[ref.index];
    const SliceLevel& up = track.levels[static_cast<size_t>(ref.depth - 1)];
    // Last slice one level up that starts at or before s; it encloses s when properly nested.
    auto it = std::upper_bound(up.start.begin(), up.start.end(), s);
    while (it != up.start.begin()) {
        --it;
        const auto i = static_cast<size_t>(it - up.start.begin());
        if (up.end[i] >= e)
            return SliceRef { ref.track, ref.depth - 1, i };
        if (up.maxEnd[i] < s)
            break;
    }
    return std::nullopt;
}

std::vector<int> RankTimeline::flowsOf(int64_t sliceId) const
{
    std::vector<int> out;
    const auto range = flowsBySlice.equal_range(sliceId);
    for (auto it = range.first; it != range.second; ++it)
        out.push_back(it->second);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void RankTimeline::finish()
{
    begin = std::numeric_limits<int64_t>::max();
    end = std::numeric_limits<int64_t>::min();
    sliceById.clear();
    for (size_t t = 0; t < tracks.size(); ++t) {
        SliceTrack& track = tracks[t];
        for (size_t d = 0; d < track.levels.size(); ++d) {
            SliceLevel& level = track.levels[d];
            if (level.size() == 0)
                continue;
            level.maxEnd.resize(level.size());
            int64_t running = std::numeric_limits<int64_t>::min();
            for (size_t i = 0; i < level.size(); ++i) {
                running = std::max(running, level.end[i]);
                level.maxEnd[i] = running;
                if (level.id[i] != 0)
                    sliceById.emplace(level.id[i], SliceRef { static_cast<int>(t), static_cast<int>(d), i });
            }
            begin = std::min(begin, level.start.front());
            end = std::max(end, running);
        }
    }
    for (CounterTrack& c : counters) {
        if (c.ts.empty())
            continue;
        begin = std::min(begin, c.ts.front());
        end = std::max(end, c.ts.back());
        const auto [lo, hi] = std::minmax_element(c.value.begin(), c.value.end());
        c.minValue = *lo;
        c.maxValue = *hi;
    }
    if (begin > end)
        begin = end = 0;
    flowsBySlice.clear();
    for (size_t i = 0; i < flows.size(); ++i) {
        if (flows[i].srcSlice)
            flowsBySlice.emplace(*flows[i].srcSlice, static_cast<int>(i));
        if (flows[i].dstSlice)
            flowsBySlice.emplace(*flows[i].dstSlice, static_cast<int>(i));
    }
}

} // namespace npuscope::query
