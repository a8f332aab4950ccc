// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace npuscope::query {

// One nesting depth of one thread track: slices sorted by start. At one depth slices do not
// overlap, so ends ascend too; maxEnd is the running maximum of end (a monotone key for binary
// search that stays correct even if the input has overlapping slices at one depth).
struct SliceLevel {
    std::vector<int64_t> start; // ns
    std::vector<int64_t> end; // ns (start + dur)
    std::vector<int64_t> maxEnd; // running max of end
    std::vector<int64_t> nameId; // string.id
    std::vector<int64_t> id; // slice.id (0 for generated data)

    size_t size() const { return start.size(); }
    void push(int64_t s, int64_t e, int64_t name, int64_t sliceId);
    // Index range [first, last) of slices with end >= begin and start < end (the view window).
    std::pair<size_t, size_t> visible(int64_t begin, int64_t endNs) const;
};

// A (pid, tid) track of X slices, one SliceLevel per depth.
struct SliceTrack {
    int64_t pid = 0;
    int64_t tid = 0;
    std::string name; // thread_name, else "Thread <tid>"
    int64_t sortIndex = 0;
    std::vector<SliceLevel> levels;
    size_t sliceCount() const;
};

// One counter series (pid, event name, args key), sorted by ts.
struct CounterTrack {
    int64_t pid = 0;
    std::string name; // event name, e.g. "HBM 0/Read"
    std::string series; // args key, e.g. "Read(MB/s)" (the unit is usually in it)
    std::vector<int64_t> ts;
    std::vector<double> value;
    double minValue = 0;
    double maxValue = 0;
};

struct TimelineProcess {
    int64_t pid = 0;
    std::string name; // process_name, else "Process <pid>"
    std::string label;
    int64_t sortIndex = 0;
    std::vector<int> tracks; // indexes into RankTimeline::tracks, ordered by thread sort index
    std::vector<int> counters; // indexes into RankTimeline::counters, ordered by name
};

// One flow arrow (an s -> f pair of the flow table).
struct FlowRecord {
    std::string cat;
    std::string name;
    std::optional<int64_t> srcSlice, dstSlice; // slice.id of the bound ends
    int64_t srcPid = 0, srcTid = 0, srcTs = 0;
    int64_t dstPid = 0, dstTid = 0, dstTs = 0;
    bool hasSrc = false, hasDst = false;
};

// Where a slice lives in a RankTimeline.
struct SliceRef {
    int track = -1;
    int depth = -1;
    size_t index = 0;
    bool valid() const { return track >= 0; }
    bool operator==(const SliceRef&) const = default;
};

// Everything the timeline draws for one rank, loaded once from the model (TimelineQuery::loadRank)
// or generated (benchmarks). Immutable after loading: shared read-only between the GUI and workers.
struct RankTimeline {
    int64_t rank = 0;
    std::vector<TimelineProcess> processes; // ordered by process sort index
    std::vector<SliceTrack> tracks;
    std::vector<CounterTrack> counters;
    std::vector<FlowRecord> flows;
    std::unordered_map<int64_t, std::string> names; // string.id -> text for slice names
    std::unordered_map<int64_t, SliceRef> sliceById; // slice.id -> position
    std::unordered_multimap<int64_t, int> flowsBySlice; // slice.id -> index into flows
    int64_t begin = 0, end = 0; // extent of slices and counters (ns)

    const std::string& nameOf(int64_t nameId) const;
    size_t sliceCount() const;
    // Finds a slice by its id (only for models loaded from the database).
    std::optional<SliceRef> find(int64_t sliceId) const;
    // The enclosing slice one depth up, if any.
    std::optional<SliceRef> parentOf(const SliceRef& ref) const;
    // Flows with one end on the slice (indexes into flows).
    std::vector<int> flowsOf(int64_t sliceId) const;
    // Builds maxEnd, begin/end, sliceById and flowsBySlice; call once after filling the arrays.
    void finish();
};

using RankTimelinePtr = std::shared_ptr<const RankTimeline>;

} // namespace npuscope::query
