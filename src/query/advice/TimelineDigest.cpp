// SPDX-License-Identifier: Apache-2.0
#include "TimelineDigest.h"

#include "npuscope/query/TimelineQuery.h"

#include <algorithm>
#include <unordered_set>

namespace npuscope::query::advice {

namespace {

constexpr int64_t kStartToleranceNs = 1000;

std::vector<Span> unite(std::vector<Span> spans)
{
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
    std::vector<Span> out;
    for (const Span& s : spans) {
        if (!out.empty() && s.begin <= out.back().end)
            out.back().end = std::max(out.back().end, s.end);
        else
            out.push_back(s);
    }
    return out;
}

// The length of the union of spans.
int64_t coveredLength(std::vector<Span> spans)
{
    int64_t covered = 0;
    for (const Span& s : unite(std::move(spans)))
        covered += s.length();
    return covered;
}

TimelineTask taskAt(const RankTimeline& tl, const SliceRef& ref)
{
    const SliceLevel& level = tl.tracks[static_cast<size_t>(ref.track)].levels[static_cast<size_t>(ref.depth)];
    return { level.start[ref.index], level.end[ref.index], level.id[ref.index], tl.nameOf(level.nameId[ref.index]),
        ref.track };
}

} // namespace

std::vector<TimelineDigest> TimelineDigest::loadAll(model::Database& db)
{
    std::vector<TimelineDigest> out;
    for (const auto& info : TimelineQuery::ranks(db)) {
        if (!info.loaded)
            continue;
        TimelineDigest d;
        d.m_tl = TimelineQuery::loadRank(db, info.rank);
        if (!d.m_tl)
            continue;
        const RankTimeline& tl = *d.m_tl;
        std::vector<Span> overlapBusy;
        std::unordered_set<int64_t> stepNames;
        for (const auto& [id, name] : tl.names) {
            if (name.starts_with("ProfilerStep#"))
                stepNames.insert(id);
        }
        for (const SliceTrack& track : tl.tracks) {
            for (const SliceLevel& level : track.levels) {
                for (size_t i = 0; !stepNames.empty() && i < level.size(); ++i) {
                    if (stepNames.contains(level.nameId[i]))
                        d.m_stepStarts.push_back(level.start[i]);
                }
            }
        }
        std::sort(d.m_stepStarts.begin(), d.m_stepStarts.end());
        for (const auto& process : tl.processes) {
            const bool hardware = process.name == "Ascend Hardware";
            const bool hccl = process.name == "HCCL";
            const bool overlap = process.name == "Overlap Analysis";
            for (int t : process.tracks) {
                const SliceTrack& track = tl.tracks[static_cast<size_t>(t)];
                if (track.levels.empty())
                    continue;
                const bool hcclOps = hccl && track.name.find("Communication") != std::string::npos;
                const bool busyTrack = overlap && (track.name == "Computing" || track.name == "Communication");
                if (!hardware && !hcclOps && !busyTrack)
                    continue;
                const SliceLevel& level = track.levels.front();
                for (size_t i = 0; i < level.size(); ++i) {
                    if (busyTrack) {
                        overlapBusy.push_back({ level.start[i], level.end[i] });
                        continue;
                    }
                    (hardware ? d.m_deviceTasks : d.m_hcclOps)
                        .push_back({ level.start[i], level.end[i], level.id[i], tl.nameOf(level.nameId[i]), t });
                }
            }
        }
        const auto byStart = [](const TimelineTask& a, const TimelineTask& b) { return a.begin < b.begin; };
        std::sort(d.m_deviceTasks.begin(), d.m_deviceTasks.end(), byStart);
        std::sort(d.m_hcclOps.begin(), d.m_hcclOps.end(), byStart);
        d.m_busyFromOverlap = !overlapBusy.empty();
        if (!d.m_busyFromOverlap) {
            for (const auto* tasks : { &d.m_deviceTasks, &d.m_hcclOps }) {
                for (const auto& task : *tasks)
                    overlapBusy.push_back({ task.begin, task.end });
            }
        }
        d.m_busy = unite(std::move(overlapBusy));
        out.push_back(std::move(d));
    }
    return out;
}

bool TimelineDigest::holdsStepStart(int64_t from, int64_t to) const
{
    const auto it = std::upper_bound(m_stepStarts.begin(), m_stepStarts.end(), from);
    return it != m_stepStarts.end() && *it <= to;
}

const TimelineTask* TimelineDigest::taskStartingAt(int64_t t) const
{
    const TimelineTask* best = nullptr;
    for (const auto* tasks : { &m_deviceTasks, &m_hcclOps }) {
        const auto it = std::lower_bound(tasks->begin(), tasks->end(), t - kStartToleranceNs,
            [](const TimelineTask& task, int64_t v) { return task.begin < v; });
        if (it != tasks->end() && it->begin <= t + kStartToleranceNs && (!best || it->begin < best->begin))
            best = &*it;
    }
    return best;
}

const TimelineTask* TimelineDigest::taskEndingBefore(int64_t t) const
{
    const TimelineTask* best = nullptr;
    for (const auto* tasks : { &m_deviceTasks, &m_hcclOps }) {
        // Tasks of one stream do not overlap, so the latest-ending one started before t is among the last few.
        auto it = std::lower_bound(
            tasks->begin(), tasks->end(), t, [](const TimelineTask& task, int64_t v) { return task.begin < v; });
        for (int back = 0; back < 8 && it != tasks->begin(); ++back) {
            --it;
            if (it->end <= t && (!best || it->end > best->end))
                best = &*it;
        }
    }
    return best;
}

std::optional<TaskLaunch> TimelineDigest::launchOf(const TimelineTask& task) const
{
    if (task.id == 0)
        return std::nullopt;
    const RankTimeline& tl = *m_tl;
    std::optional<TaskLaunch> out;
    for (int f : tl.flowsOf(task.id)) {
        const FlowRecord& flow = tl.flows[static_cast<size_t>(f)];
        if (flow.dstSlice != task.id || (flow.cat != "HostToDevice" && flow.cat != "async_npu") || !flow.srcSlice)
            continue;
        const auto ref = tl.find(*flow.srcSlice);
        if (!ref)
            continue;
        const TimelineTask source = taskAt(tl, *ref);
        if (!out)
            out = TaskLaunch { source, std::nullopt };
        else if (source.end > out->event.end)
            out->event = source;
        if (flow.cat == "async_npu")
            out->hostOp = source;
    }
    return out;
}

int64_t TimelineDigest::hostCoverage(int track, int64_t from, int64_t to, int64_t gapEnd) const
{
    if (to <= from || track < 0)
        return 0;
    std::vector<Span> spans;
    for (const SliceLevel& level : m_tl->tracks[static_cast<size_t>(track)].levels) {
        const auto [first, last] = level.visible(from, to);
        for (size_t i = first; i < last; ++i) {
            if (level.start[i] <= from && level.end[i] >= gapEnd)
                continue;
            const int64_t a = std::max(from, level.start[i]);
            const int64_t b = std::min(to, level.end[i]);
            if (b > a)
                spans.push_back({ a, b });
        }
    }
    return coveredLength(std::move(spans));
}

int64_t TimelineDigest::busyWithin(int64_t from, int64_t to) const
{
    int64_t covered = 0;
    auto it = std::lower_bound(m_busy.begin(), m_busy.end(), from, [](const Span& s, int64_t v) { return s.end <= v; });
    for (; it != m_busy.end() && it->begin < to; ++it)
        covered += std::max<int64_t>(0, std::min(to, it->end) - std::max(from, it->begin));
    return covered;
}

Span TimelineDigest::longestIdleWithin(int64_t from, int64_t to) const
{
    Span best { from, from };
    auto it = std::lower_bound(m_busy.begin(), m_busy.end(), from, [](const Span& s, int64_t v) { return s.end <= v; });
    if (it == m_busy.end())
        return best;
    int64_t cursor = std::max(from, it->end);
    for (++it; cursor < to; ++it) {
        const int64_t next = it == m_busy.end() ? to : std::min(to, it->begin);
        if (next - cursor > best.length())
            best = { cursor, next };
        if (it == m_busy.end())
            break;
        cursor = std::max(cursor, it->end);
    }
    return best;
}

int64_t TimelineDigest::stepWorkStart(int64_t t) const
{
    const auto step = std::upper_bound(m_stepStarts.begin(), m_stepStarts.end(), t);
    const int64_t from = step == m_stepStarts.begin() ? m_tl->begin : *std::prev(step);
    const auto it
        = std::lower_bound(m_busy.begin(), m_busy.end(), from, [](const Span& s, int64_t v) { return s.end <= v; });
    return it == m_busy.end() ? t : std::min(t, std::max(from, it->begin));
}

int64_t TimelineDigest::deviceWorkWithin(int64_t from, int64_t to) const
{
    std::vector<Span> spans;
    for (const auto& task : m_deviceTasks) {
        if (task.begin >= to)
            break;
        const int64_t a = std::max(from, task.begin);
        const int64_t b = std::min(to, task.end);
        if (b > a)
            spans.push_back({ a, b });
    }
    return coveredLength(std::move(spans));
}

} // namespace npuscope::query::advice
