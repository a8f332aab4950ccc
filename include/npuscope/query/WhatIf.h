// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CriticalPath.h"
#include "npuscope/query/DependencyGraph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npuscope::query {

// One change of a what-if replay (docs/metrics.md, "What-if").
struct WhatIfChange {
    enum class Kind {
        RankCompute, // rank=R:compute=F: rank R's compute durations × F
        Operator, // op=NAME:F: that operator (kernel Name or Type; a communication op's name or type: its transit) × F
        RankOperator, // rank=R:op=NAME:F: the same on rank R only
        LinkBandwidth, // link=A-B:bandwidth=F: the bandwidth between ranks A and B × F (their transit ÷ F)
        RankHostIdeal, // rank=R:host=ideal: rank R's gaps between tasks at most the cluster's median gap
    };
    Kind kind = Kind::RankCompute;
    std::string spec; // as given
    std::optional<int64_t> rank;
    std::string op;
    std::pair<int64_t, int64_t> link { -1, -1 };
    double factor = 1.0;

    // Parses one SPEC; nullopt with a message in error naming what is wrong.
    static std::optional<WhatIfChange> parse(const std::string& spec, std::string& error);
};

struct WhatIfRank {
    int64_t rank = 0;
    int64_t measuredNs = 0, predictedNs = 0; // step time (wall) of the rank
};

struct WhatIfStep {
    int64_t step = 0;
    int64_t measuredNs = 0, predictedNs = 0; // the step's time on its slowest rank, measured and replayed
    int64_t measuredRank = 0, predictedRank = 0; // those slowest ranks
    std::vector<WhatIfRank> ranks; // ascending rank
    CriticalPathStep path; // the replayed step's critical path (operators not filled)
    int64_t cycles = 0; // tasks replayed out of dependency order (DependencyGraphBuilder::replay)
    int64_t gainNs() const { return measuredNs - predictedNs; }
};

struct WhatIfResult {
    std::vector<WhatIfChange> changes;
    std::vector<int64_t> matched; // per change: the tasks (or lanes, for rank-wide changes) it changed, over all steps
    std::vector<WhatIfStep> steps;
};

class WhatIf {
public:
    // Replays every step (or one) of the graph with the changes applied together.
    static WhatIfResult run(
        const DependencyGraph& graph, const std::vector<WhatIfChange>& changes, std::optional<int64_t> step = {});
    // The replay inputs of one step; counts what each change touched into matched (sized like changes).
    static ReplayChanges changesFor(const DependencyGraph& graph, const DepStep& step,
        const std::vector<WhatIfChange>& changes, std::vector<int64_t>& matched);
};

} // namespace npuscope::query
