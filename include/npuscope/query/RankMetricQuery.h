// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <map>
#include <optional>

namespace npuscope::query {

// A per-rank figure to colour a rank by. Times in ns, ratios in [0, 1].
enum class RankMetric {
    StepTime, // StepBreakdown::wallTime()
    Computing, // Computing
    CommNotOverlapped, // Communication(Not Overlapped)
    Free, // Free
    WaitRatio, // RankDuration::waitRatio (communication.json, all groups)
    PeakMemoryRatio, // RankMemoryPeak::ratio (peak reserved ÷ capacity)
};
constexpr int kRankMetricCount = 6;

const char* rankMetricTitle(RankMetric m); // "Step time", "Computing", ...
bool rankMetricIsRatio(RankMetric m); // WaitRatio, PeakMemoryRatio

// Reads the figure the existing queries compute (StepQuery, CommAnalysisQuery::durations, MemoryQuery::peaks); no
// figure is recomputed here. Callable from any thread holding the database lock.
class RankMetricQuery {
public:
    // rank -> value for the ranks that have the figure. step set: that step; else the mean over steps (times,
    // skipFirst as StepQuery::averaged) or the sums over steps (wait ratio). Peak memory has no step; capacityMb is
    // the device memory it is divided by.
    static std::map<int64_t, double> values(
        model::Database& db, RankMetric metric, std::optional<int64_t> step, bool skipFirst, double capacityMb);
};

} // namespace npuscope::query
