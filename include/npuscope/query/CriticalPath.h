// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/DependencyGraph.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace npuscope::query {

// What a stretch of the critical path is (docs/metrics.md, "Critical path").
enum class PathKind : uint8_t {
    Compute, // a kernel (or, on a rank whose kernels are not known, its time between communication ops)
    Communication, // a communication op: the last arriver's own wait, then the transfer and its idle
    Host, // the device waiting for the host between two tasks (dispatch)
    Idle, // before the step's first task (Preparing: data loading, the host starting the step)
};
const char* pathKindName(PathKind kind); // compute | communication | host | idle

struct PathSegment {
    int64_t rank = 0;
    size_t lane = 0; // index into the step's lanes
    int32_t task = -1; // the task it belongs to (−1: idle before the first task)
    PathKind kind = PathKind::Compute;
    int32_t op = -1; // DependencyGraph::strings: the task's name; −1 for host and idle
    int32_t instance = -1; // communication: index into DependencyGraph::set.instances
    int64_t start = 0, end = 0; // aligned ns
    int64_t writtenStart = 0; // start on the rank's own clock (as the timeline shows it)
    int64_t durNs() const { return end - start; }
};

struct PathShare {
    int64_t computeNs = 0, communicationNs = 0, hostNs = 0, idleNs = 0;
    int64_t totalNs() const { return computeNs + communicationNs + hostNs + idleNs; }
    void add(PathKind kind, int64_t ns);
};

// An operator's time in a step over every rank: serial = the part of its tasks no other task of the rank overlapped,
// parallel = the rest (serial + parallel = duration).
struct OperatorTime {
    int32_t name = -1; // DependencyGraph::strings
    DepKind kind = DepKind::Compute;
    int64_t count = 0, durNs = 0, serialNs = 0, parallelNs = 0;
};

// A stay of the path on one rank: consecutive segments of that rank.
struct PathVisit {
    int64_t rank = 0;
    size_t firstSegment = 0, segmentCount = 0; // into the path's segments
    int64_t start = 0, end = 0; // aligned ns
    int64_t writtenStart = 0, writtenEnd = 0; // on the rank's own clock
    PathShare share;
    int32_t longestOp = -1; // DependencyGraph::strings: its longest compute or communication segment's op
    int64_t longestNs = 0;
};

struct CriticalPathStep {
    int64_t step = 0;
    int64_t slowestRank = 0; // the rank with the longest step (wall time), where the path ends
    int64_t stepNs = 0; // its step time: its step start (first task − Preparing) to its last task's end
    int64_t lengthNs = 0; // Σ segment durations
    std::vector<PathSegment> segments; // in time order
    PathShare share;
    std::vector<std::pair<int64_t, PathShare>> ranks; // per rank on the path, ascending rank
    std::vector<std::pair<std::pair<int64_t, int64_t>, int64_t>> links; // (src, dst) of p2p segments -> ns on path
    std::vector<OperatorTime> operators; // by serial time, largest first
    std::vector<OperatorTime> topCommunication; // the 3 communication operators with the most serial time
};

class CriticalPath {
public:
    static constexpr size_t kTopCommunication = 3;

    // The path through the step's graph with the given times, from the end of the slowest lane back to a step start:
    // at each communication op the path moves to the member its moment of moving waited for (the last arriver of a
    // collective, the send of a receive), else to the task the current one followed. In time order.
    static std::vector<PathSegment> walk(const DepStep& step, const StepTiming& timing);

    // The path with its shares and the step's operator times.
    static CriticalPathStep analyse(const DependencyGraph& graph, const DepStep& step, const StepTiming& timing);

    // Every step of the graph (or one), measured times.
    static std::vector<CriticalPathStep> run(const DependencyGraph& graph, std::optional<int64_t> step = {});

    // The path's stays on one rank, in time order.
    static std::vector<PathVisit> visits(const std::vector<PathSegment>& segments);

    // The comm_op ids of the path's communication segments (ascending, distinct).
    static std::vector<int64_t> commOps(const DependencyGraph& graph, const std::vector<PathSegment>& segments);

    // Serial and parallel time of every operator of the step (measured times), by serial time.
    static std::vector<OperatorTime> operatorTimes(const DepStep& step);
};

} // namespace npuscope::query
