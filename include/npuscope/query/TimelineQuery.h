// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/RankTimeline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// A rank of the model and whether its timeline file (trace_view.json, an old MindSpore timeline display json or a
// CANN PROF timeline json) has been imported.
struct TimelineRankInfo {
    int64_t rank = 0;
    bool hasTimelineFile = false; // a rank_file row of one of those kinds exists
    bool loaded = false; // its status is "loaded"
};

// One row of the area statistics: slices of one name intersecting [t0, t1) on the chosen tracks.
// Durations are clipped to the range (ns). Self = wall minus the clipped wall of direct children.
struct AreaStat {
    int64_t nameId = 0;
    std::string name;
    int64_t count = 0;
    int64_t totalWall = 0;
    int64_t totalSelf = 0;
    int64_t minWall = 0;
    int64_t maxWall = 0;
    double average() const { return count ? static_cast<double>(totalWall) / static_cast<double>(count) : 0.0; }
};

// A track of a loaded rank, as chosen for area statistics.
struct TrackSelection {
    RankTimelinePtr rank;
    int track = 0; // index into rank->tracks
    int64_t offsetNs = 0; // the rank's display offset: display time = data time + offsetNs
};

struct SearchHit {
    int64_t rank = 0;
    SliceRef ref;
    int64_t start = 0;
    int64_t end = 0;
};

// Everything the details panel shows that is not in the in-memory arrays.
struct SliceDetails {
    int64_t id = 0;
    std::string name;
    std::string category; // empty when absent
    int64_t ts = 0;
    int64_t dur = 0;
    // Filled by load::SourceDetails::slice (args may live in the input file); details() leaves them empty.
    std::string argsJson; // args object as JSON text, empty when absent or unavailable
    std::string argsError; // why args exist but cannot be shown (see load::SliceArgs::error), else empty
};

// Timeline data access. The database functions need the caller to hold db.lock() (or to own the
// database); they run on a worker thread, never in paint. The others work on the immutable
// in-memory arrays and may run on any thread.
class TimelineQuery {
public:
    static std::vector<TimelineRankInfo> ranks(model::Database& db);
    // Reads one rank's processes, threads, slices, counters and flows into sorted arrays.
    static RankTimelinePtr loadRank(model::Database& db, int64_t rank);
    static std::optional<SliceDetails> details(model::Database& db, int64_t sliceId);

    // Area statistics over the display-time range [t0, t1) (each track's offset applied) and the given tracks, sorted
    // by total wall (descending).
    static std::vector<AreaStat> areaStats(const std::vector<TrackSelection>& tracks, int64_t t0, int64_t t1);
    // Slices whose name contains needle, over all given ranks, ordered by start (at most limit).
    static std::vector<SearchHit> search(const std::vector<RankTimelinePtr>& ranks, const std::string& needle,
        bool caseSensitive, size_t limit = 100000);
    // [begin, end) of the slices named exactly `name` on the given ranks (e.g. "ProfilerStep#3").
    static std::optional<std::pair<int64_t, int64_t>> spanOfName(
        const std::vector<RankTimelinePtr>& ranks, const std::string& name);
    // Offsets (ns, display = data + offset) that make the first slice named `name` (e.g.
    // "ProfilerStep#3") start at the same display time on every rank: the first rank that has it
    // gets `referenceOffset`, the others follow it. nullopt for ranks without such a slice.
    static std::vector<std::optional<int64_t>> alignOffsets(
        const std::vector<RankTimelinePtr>& ranks, const std::string& name, int64_t referenceOffset = 0);
};

} // namespace npuscope::query
