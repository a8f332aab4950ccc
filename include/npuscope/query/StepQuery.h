// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/model/StepColumns.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// The step breakdown columns (model/StepColumns.h, where each is defined once): the step_trace_time.csv columns in
// file order, then the four of the old MindSpore / MindInsight step_trace_raw_{id}_detail_time.csv (iteration
// trace; see docs/metrics.md). A source that does not write a column leaves it nullopt: new-generation files have no
// Total .. Tail, old ones none of Overlapped, Communication, Free, Preparing (Computing .. Bubble only from an
// ascend_cluster_analyse file).
using model::StepColumn;
using model::kStepColumnCount;

// True for the columns only the old-generation iteration trace has (Total, IterationInterval, FpBp, Tail).
bool isIterationTraceColumn(StepColumn c);

// Header text as in step_trace_time.csv ("Communication(Not Overlapped)", ...).
const char* stepColumnTitle(StepColumn c);
// Summary JSON key ("communication_not_overlapped_us", ..., "total_us", "iteration_interval_us", "fp_bp_us",
// "tail_us").
const char* stepColumnJsonKey(StepColumn c);

// One rank's breakdown for one step (or the mean over its steps). Values in ns; nullopt when the
// file does not have the column (e.g. Preparing in 2023 builds).
struct StepBreakdown {
    int64_t rank = 0;
    std::optional<int64_t> device;
    std::optional<int64_t> step; // nullopt: empty Step cell, or an average over steps
    int stepCount = 1; // rows averaged into this one
    std::array<std::optional<int64_t>, kStepColumnCount> values {};

    std::optional<int64_t> value(StepColumn c) const { return values[static_cast<size_t>(c)]; }
    // Step wall time = Computing + Communication(Not Overlapped) + Free + Preparing (missing terms count 0); for an
    // old-generation row without those columns, its iteration trace Total.
    std::optional<int64_t> wallTime() const;
};

// The pie/bar split of a step. New generation (step_trace_time.csv): computing (not overlapped), overlapped,
// communication (not overlapped), free and preparing, adding up to wallTime(). Old generation (a row with any of
// iteration_interval, fp_and_bp, tail): iteration interval, fp+bp and tail, adding up to the iteration trace's
// total; the new-generation parts are then 0 and not part of that generation (iterationTrace = true).
struct StepSplit {
    int64_t computingNotOverlapped = 0; // Computing − Overlapped
    int64_t overlapped = 0; // Overlapped
    int64_t communicationNotOverlapped = 0;
    int64_t free = 0;
    int64_t preparing = 0;
    bool hasPreparing = true; // false when the files have no Preparing column (2023 builds)
    bool iterationTrace = false; // true: the old-generation split below, the parts above are not in the files
    int64_t iterationInterval = 0;
    int64_t fpBp = 0;
    int64_t tail = 0;
    // Old generation with an ascend_cluster_analyse_*.csv: its computation and communication_alone times (the
    // Computing and Communication(Not Overlapped) columns). Shown beside the split, not part of it.
    std::optional<int64_t> analyseComputation {};
    std::optional<int64_t> analyseCommunicationAlone {};
    int64_t total() const
    {
        return computingNotOverlapped + overlapped + communicationNotOverlapped + free + preparing + iterationInterval
            + fpBp + tail;
    }
};
StepSplit splitOf(const StepBreakdown& b);

// One msprof-analyze pipeline stage row (cluster_stage_step): per step and stage, the maximum of each step_trace_time
// column over the stage's ranks, as written; or the mean of those rows over the steps. Only Computing .. Preparing
// can be set (the iteration trace columns stay nullopt). Values in ns.
struct StageBreakdown {
    int64_t stage = 0; // 0-based, the stages' rank sets ordered by lowest rank
    std::vector<int64_t> ranks; // the stage's global ranks, ascending (empty for msprof-analyze's "()" stage)
    std::optional<int64_t> step; // nullopt: empty Step cell, or a mean over steps
    int stepCount = 1; // rows averaged into this one
    std::array<std::optional<int64_t>, kStepColumnCount> values {};

    std::optional<int64_t> value(StepColumn c) const { return values[static_cast<size_t>(c)]; }
};

// Queries over step_trace. Callable from any thread holding the database lock.
class StepQuery {
public:
    // Distinct step numbers present, ascending (NULL steps are not listed).
    static std::vector<int64_t> steps(model::Database& db);
    // Every (rank, step) row, ordered by rank then step. With step set, only that step.
    static std::vector<StepBreakdown> breakdown(model::Database& db, std::optional<int64_t> step = std::nullopt);
    // One row per rank: the mean of each column over that rank's steps (step = nullopt). skipFirst leaves out each
    // rank's lowest step when the rank has more than one (the warm-up step: graph compilation, first allocation).
    static std::vector<StepBreakdown> averaged(model::Database& db, bool skipFirst = false);
    // Pipeline stage rows (msprof-analyze cluster_step_trace_time Type "stage"), ordered by step then stage; with
    // step set, only that step. Empty when the input has none.
    static std::vector<StageBreakdown> stages(model::Database& db, std::optional<int64_t> step = std::nullopt);
    // One row per stage: the mean of each column over its steps (step = nullopt), like averaged().
    static std::vector<StageBreakdown> averagedStages(model::Database& db, bool skipFirst = false);
    // The rows of breakdown(db) that averaged(db, skipFirst = true) averages: each rank's lowest step is left out when
    // the rank has more than one step. Pure; any thread.
    static std::vector<StepBreakdown> withoutFirstStep(std::vector<StepBreakdown> rows);
    // The "slowest rank" of every view (docs/metrics.md, MetricDefinitions "Slowest rank"): the rank whose step wall
    // time summed over the given rows is largest (the lowest rank on a tie; rows without a step number are left out);
    // nullopt when no row has a wall time.
    // Pass breakdown(db) for the whole run, breakdown(db, step) for one step.
    static std::optional<int64_t> slowestRank(const std::vector<StepBreakdown>& rows);
};

// min / max / mean / median of one column over ranks, and which rank holds min and max.
struct ColumnStats {
    int count = 0;
    std::optional<double> min, max, mean;
    // The middle value (the mean of the two middle values for an even count): the reference of the tables' colours.
    std::optional<double> median;
    std::optional<int64_t> minRank, maxRank;
    // (max − min) / mean; nullopt when mean is 0 or there is no value.
    std::optional<double> spread;
};

// Pure function over rows (one per rank): stats per StepColumn.
std::array<ColumnStats, kStepColumnCount> clusterStats(const std::vector<StepBreakdown>& rows);
// The same statistics of StepBreakdown::wallTime() over the rows (the Cluster steps "Step wall time" column).
ColumnStats wallTimeStats(const std::vector<StepBreakdown>& rows);

} // namespace npuscope::query
