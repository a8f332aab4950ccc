// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include <array>
#include <optional>
#include <vector>

namespace npuscope::query {

// The cluster mean of per-rank step rows (docs/metrics.md "Cluster mean"): the two file generations split a step
// differently (step_trace_time.csv vs the old iteration trace), so the mean and the column statistics are taken
// over the ranks of the generation most rows have (the newer on a tie); the other generation's ranks are counted,
// not averaged in. The Overview pie, the Cluster steps table and `npuscope-cli summary` all use this.
struct ClusterMean {
    std::array<ColumnStats, kStepColumnCount> stats {}; // over the ranks in the mean
    ColumnStats wallTime; // StepBreakdown::wallTime() over the ranks in the mean
    std::optional<StepBreakdown> mean; // column means rounded to ns (stepCount = ranks); nullopt without rows
    std::optional<StepSplit> split; // splitOf(*mean)
    int ranks = 0; // rows in the mean
    int otherGenerationRanks = 0; // rows of the other generation, left out
    // Pure function over rows (one per rank, one step or each rank's mean over steps). Any thread.
    static ClusterMean of(const std::vector<StepBreakdown>& rows);
};

// (value − mean) / mean of a column, relative; nullopt without a value, with fewer than 2 ranks in the statistics or
// a mean <= 0. Any thread.
std::optional<double> deviationFromMean(std::optional<int64_t> value, const ColumnStats& stats);
// (value − median) / median, relative: what the tables colour by (docs/metrics.md "Colour of the per-rank tables");
// nullopt without a value, with fewer than 2 ranks in the statistics or a median <= 0. Any thread.
std::optional<double> deviationFromMedian(std::optional<int64_t> value, const ColumnStats& stats);

} // namespace npuscope::query
