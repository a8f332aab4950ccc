// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/TimelineQuery.h"
#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace npuscope::query {

namespace {

constexpr int64_t kNoSortIndex = std::numeric_limits<int32_t>::max();

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Sum of the parts of the children of [s, e) at the next depth that fall inside [lo, hi).
int64_t childrenClipped(const SliceLevel* children, int64_t s, int64_t e, int64_t lo, int64_t hi)
{
    if (!children || lo >= hi)
        return 0;
    int64_t sum = 0;
    auto it = std::lower_bound(children->start.begin(), children->start.end(), s);
    for (auto i = static_cast<size_t>(it - children->start.begin()); i < children->size(); ++i) {
        const int64_t cs = children->start[i];
        if (cs >= e)
            break;
        const int64_t ce = children->end[i];
        if (ce > e)
            continue; // not nested in this slice
        const int64_t a = std::max(cs, lo);
        const int64_t b = std::min(ce, hi);
        if (b > a)
            sum += b - a;
    }
    return sum;
}

} // namespace

std::vector<TimelineRankInfo> TimelineQuery::ranks(model::Database& db)
{
    std::vector<TimelineRankInfo> out;
    // Timeline file kinds: trace_view.json, old MindSpore timeline display json, CANN PROF timeline json, a db export,
    // a Kineto trace (imported whole at summary time).
    auto st = db.prepare("SELECT r.rank_id,"
                         " (SELECT count(*) FROM rank_file f WHERE f.rank_id = r.rank_id AND f.kind IN"
                         "  ('trace_view', 'ms_timeline_display', 'cann_timeline', 'profiler_db_timeline',"
                         "   'kineto_trace')),"
                         " (SELECT count(*) FROM rank_file f WHERE f.rank_id = r.rank_id AND f.kind IN"
                         "  ('trace_view', 'ms_timeline_display', 'cann_timeline', 'profiler_db_timeline',"
                         "   'kineto_trace') AND f.status = 'loaded')"
                         " FROM rank r ORDER BY r.rank_id");
    while (st.step())
        out.push_back({ st.int64(0), st.int64(1) > 0, st.int64(2) > 0 });
    return out;
}

RankTimelinePtr TimelineQuery::loadRank(model::Database& db, int64_t rank)
{
    auto tl = std::make_shared<RankTimeline>();
    tl->rank = rank;

    std::map<int64_t, TimelineProcess> processes;
    {
        auto st = db.prepare("SELECT pid, name, label, sort_index FROM process WHERE rank_id = ?1");
        st.bind(1, rank);
        while (st.step()) {
            TimelineProcess p;
            p.pid = st.int64(0);
            p.name = st.optText(1).value_or("Process " + std::to_string(p.pid));
            p.label = st.optText(2).value_or("");
            p.sortIndex = st.optInt(3).value_or(kNoSortIndex);
            processes.emplace(p.pid, std::move(p));
        }
    }
    auto processOf = [&](int64_t pid) -> TimelineProcess& {
        auto it = processes.find(pid);
        if (it == processes.end()) {
            TimelineProcess p;
            p.pid = pid;
            p.name = "Process " + std::to_string(pid);
            p.sortIndex = kNoSortIndex;
            it = processes.emplace(pid, std::move(p)).first;
        }
        return it->second;
    };

    std::map<std::pair<int64_t, int64_t>, SliceTrack> threads;
    {
        auto st = db.prepare("SELECT pid, tid, name, sort_index FROM thread WHERE rank_id = ?1");
        st.bind(1, rank);
        while (st.step()) {
            SliceTrack t;
            t.pid = st.int64(0);
            t.tid = st.int64(1);
            t.name = st.optText(2).value_or("Thread " + std::to_string(t.tid));
            t.sortIndex = st.optInt(3).value_or(kNoSortIndex);
            threads.emplace(std::pair { t.pid, t.tid }, std::move(t));
        }
    }
    {
        auto st = db.prepare("SELECT id, pid, tid, ts, dur, depth, name_id FROM slice WHERE rank_id = ?1"
                             " ORDER BY pid, tid, depth, ts, id");
        st.bind(1, rank);
        SliceTrack* current = nullptr;
        int64_t curPid = 0, curTid = 0;
        while (st.step()) {
            const int64_t pid = st.int64(1), tid = st.int64(2);
            if (!current || pid != curPid || tid != curTid) {
                auto it = threads.find({ pid, tid });
                if (it == threads.end()) {
                    SliceTrack t;
                    t.pid = pid;
                    t.tid = tid;
                    t.name = "Thread " + std::to_string(tid);
                    t.sortIndex = kNoSortIndex;
                    it = threads.emplace(std::pair { pid, tid }, std::move(t)).first;
                }
                current = &it->second;
                curPid = pid;
                curTid = tid;
            }
            const auto depth = static_cast<size_t>(std::max<int64_t>(0, st.int64(5)));
            if (current->levels.size() <= depth)
                current->levels.resize(depth + 1);
            const int64_t ts = st.int64(3);
            current->levels[depth].push(ts, ts + std::max<int64_t>(0, st.int64(4)), st.int64(6), st.int64(0));
        }
    }
    {
        auto st = db.prepare("SELECT DISTINCT s.name_id, n.value FROM slice s JOIN string n ON n.id = s.name_id"
                             " WHERE s.rank_id = ?1");
        st.bind(1, rank);
        while (st.step())
            tl->names.emplace(st.int64(0), st.text(1));
    }
    {
        auto st = db.prepare("SELECT c.pid, n.value, c.series, c.ts, c.value FROM counter c"
                             " JOIN string n ON n.id = c.name_id WHERE c.rank_id = ?1"
                             " ORDER BY c.pid, n.value, c.series, c.ts");
        st.bind(1, rank);
        while (st.step()) {
            const int64_t pid = st.int64(0);
            std::string name = st.text(1);
            std::string series = st.text(2);
            if (tl->counters.empty() || tl->counters.back().pid != pid || tl->counters.back().name != name
                || tl->counters.back().series != series) {
                CounterTrack c;
                c.pid = pid;
                c.name = std::move(name);
                c.series = std::move(series);
                tl->counters.push_back(std::move(c));
            }
            tl->counters.back().ts.push_back(st.int64(3));
            tl->counters.back().value.push_back(st.optReal(4).value_or(0.0));
        }
    }
    {
        auto st = db.prepare("SELECT cat, name, src_pid, src_tid, src_ts, dst_pid, dst_tid, dst_ts, src_slice_id,"
                             " dst_slice_id FROM flow WHERE rank_id = ?1 ORDER BY cat, src_ts, dst_ts");
        st.bind(1, rank);
        while (st.step()) {
            FlowRecord f;
            f.cat = st.text(0);
            f.name = st.optText(1).value_or("");
            f.hasSrc = !st.isNull(4);
            f.srcPid = st.optInt(2).value_or(0);
            f.srcTid = st.optInt(3).value_or(0);
            f.srcTs = st.optInt(4).value_or(0);
            f.hasDst = !st.isNull(7);
            f.dstPid = st.optInt(5).value_or(0);
            f.dstTid = st.optInt(6).value_or(0);
            f.dstTs = st.optInt(7).value_or(0);
            f.srcSlice = st.optInt(8);
            f.dstSlice = st.optInt(9);
            tl->flows.push_back(std::move(f));
        }
    }

    // Tracks ordered by thread sort index within processes ordered by process sort index.
    std::vector<SliceTrack> sortedThreads;
    for (auto& [key, t] : threads) {
        if (t.sliceCount() > 0)
            sortedThreads.push_back(std::move(t));
    }
    std::stable_sort(sortedThreads.begin(), sortedThreads.end(), [](const SliceTrack& a, const SliceTrack& b) {
        return std::tie(a.pid, a.sortIndex, a.tid) < std::tie(b.pid, b.sortIndex, b.tid);
    });
    for (auto& t : sortedThreads) {
        processOf(t.pid).tracks.push_back(static_cast<int>(tl->tracks.size()));
        tl->tracks.push_back(std::move(t));
    }
    for (size_t i = 0; i < tl->counters.size(); ++i)
        processOf(tl->counters[i].pid).counters.push_back(static_cast<int>(i));
    for (auto& [pid, p] : processes) {
        if (!p.tracks.empty() || !p.counters.empty())
            tl->processes.push_back(std::move(p));
    }
    std::stable_sort(
        tl->processes.begin(), tl->processes.end(), [](const TimelineProcess& a, const TimelineProcess& b) {
            return std::tie(a.sortIndex, a.pid) < std::tie(b.sortIndex, b.pid);
        });
    tl->finish();
    return tl;
}

std::optional<SliceDetails> TimelineQuery::details(model::Database& db, int64_t sliceId)
{
    const auto st = model::firstRow(db,
        "SELECT s.id, n.value, c.value, s.ts, s.dur FROM slice s JOIN string n ON n.id = s.name_id LEFT JOIN string c "
        "ON c.id = s.cat_id WHERE s.id = ?1",
        sliceId);
    if (!st)
        return std::nullopt;
    SliceDetails d;
    model::readRow(*st, d.id, d.name, d.category, d.ts, d.dur); // a slice without a category: ""
    return d;
}

std::vector<AreaStat> TimelineQuery::areaStats(
    const std::vector<TrackSelection>& tracks, int64_t t0Display, int64_t t1Display)
{
    std::unordered_map<int64_t, AreaStat> byName;
    std::unordered_map<int64_t, const RankTimeline*> nameSource;
    for (const TrackSelection& sel : tracks) {
        if (!sel.rank || sel.track < 0 || static_cast<size_t>(sel.track) >= sel.rank->tracks.size())
            continue;
        const SliceTrack& track = sel.rank->tracks[static_cast<size_t>(sel.track)];
        // The range is in display time; the arrays are in the rank's own time.
        const int64_t t0 = t0Display - sel.offsetNs, t1 = t1Display - sel.offsetNs;
        for (size_t d = 0; d < track.levels.size(); ++d) {
            const SliceLevel& level = track.levels[d];
            const SliceLevel* children = d + 1 < track.levels.size() ? &track.levels[d + 1] : nullptr;
            // Intersecting [t0, t1): start < t1 and end > t0.
            auto first = static_cast<size_t>(
                std::upper_bound(level.maxEnd.begin(), level.maxEnd.end(), t0) - level.maxEnd.begin());
            for (size_t i = first; i < level.size() && level.start[i] < t1; ++i) {
                const int64_t s = level.start[i], e = level.end[i];
                if (e <= t0)
                    continue;
                const int64_t lo = std::max(s, t0), hi = std::min(e, t1);
                const int64_t wall = hi - lo;
                const int64_t self = wall - childrenClipped(children, s, e, lo, hi);
                auto [it, inserted] = byName.try_emplace(level.nameId[i]);
                AreaStat& a = it->second;
                if (inserted) {
                    a.nameId = level.nameId[i];
                    a.minWall = wall;
                    a.maxWall = wall;
                    nameSource.emplace(a.nameId, sel.rank.get());
                }
                ++a.count;
                a.totalWall += wall;
                a.totalSelf += self;
                a.minWall = std::min(a.minWall, wall);
                a.maxWall = std::max(a.maxWall, wall);
            }
        }
    }
    std::vector<AreaStat> out;
    out.reserve(byName.size());
    for (auto& [id, a] : byName) {
        a.name = nameSource[id]->nameOf(id);
        out.push_back(std::move(a));
    }
    std::sort(out.begin(), out.end(), [](const AreaStat& a, const AreaStat& b) {
        return a.totalWall != b.totalWall ? a.totalWall > b.totalWall : a.name < b.name;
    });
    return out;
}

std::vector<SearchHit> TimelineQuery::search(
    const std::vector<RankTimelinePtr>& ranks, const std::string& needle, bool caseSensitive, size_t limit)
{
    std::vector<SearchHit> out;
    if (needle.empty())
        return out;
    const std::string n = caseSensitive ? needle : lower(needle);
    for (const RankTimelinePtr& r : ranks) {
        if (!r)
            continue;
        std::unordered_set<int64_t> matching;
        for (const auto& [id, text] : r->names) {
            if ((caseSensitive ? text : lower(text)).find(n) != std::string::npos)
                matching.insert(id);
        }
        if (matching.empty())
            continue;
        for (size_t t = 0; t < r->tracks.size(); ++t) {
            const SliceTrack& track = r->tracks[t];
            for (size_t d = 0; d < track.levels.size(); ++d) {
                const SliceLevel& level = track.levels[d];
                for (size_t i = 0; i < level.size(); ++i) {
                    if (matching.count(level.nameId[i]))
                        out.push_back({ r->rank, SliceRef { static_cast<int>(t), static_cast<int>(d), i },
                            level.start[i], level.end[i] });
                }
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const SearchHit& a, const SearchHit& b) {
        return std::tie(a.start, a.rank, a.ref.track, a.ref.depth)
            < std::tie(b.start, b.rank, b.ref.track, b.ref.depth);
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

std::optional<std::pair<int64_t, int64_t>> TimelineQuery::spanOfName(
    const std::vector<RankTimelinePtr>& ranks, const std::string& name)
{
    std::optional<std::pair<int64_t, int64_t>> span;
    for (const RankTimelinePtr& r : ranks) {
        if (!r)
            continue;
        for (const auto& [id, text] : r->names) {
            if (text != name)
                continue;
            for (const SliceTrack& track : r->tracks) {
                for (const SliceLevel& level : track.levels) {
                    for (size_t i = 0; i < level.size(); ++i) {
                        if (level.nameId[i] != id)
                            continue;
                        if (!span)
                            span = std::pair { level.start[i], level.end[i] };
                        span->first = std::min(span->first, level.start[i]);
                        span->second = std::max(span->second, level.end[i]);
                    }
                }
            }
        }
    }
    return span;
}

std::vector<std::optional<int64_t>> TimelineQuery::alignOffsets(
    const std::vector<RankTimelinePtr>& ranks, const std::string& name, int64_t referenceOffset)
{
    std::vector<std::optional<int64_t>> out(ranks.size());
    std::optional<int64_t> target; // display time every rank's slice starts at
    for (size_t i = 0; i < ranks.size(); ++i) {
        const auto span = spanOfName({ ranks[i] }, name);
        if (!span)
            continue;
        if (!target)
            target = span->first + referenceOffset;
        out[i] = *target - span->first;
    }
    return out;
}

} // namespace npuscope::query
