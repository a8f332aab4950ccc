// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/advice/Finding.h"

#include <optional>
#include <vector>

namespace npuscope::query::advice {

struct AdviceOptions {
    // The device memory (MB, 2^20 B): memory_peak only runs with it (no profile records it).
    std::optional<double> capacityMb;
    // Leave each rank's first step out of the step figures when it has more than one (warm-up).
    bool skipFirstStep = true;
    // The chip's peak (TFLOP/s, 10^12) for model FLOPs utilisation; without it the rule reports the achieved rate
    // at info severity (no profile records the chip model).
    std::optional<double> peakTflops;
};

// Runs every advice rule (docs/metrics.md, "Advice rules") over the loaded model, reading the existing queries
// (StepQuery, CommAnalysisQuery, CommOpIndex, ParallelLayoutQuery, OperatorQuery, FlopsQuery, MemoryQuery, and the
// timelines of the ranks whose timeline is imported); rules whose data is not loaded (no communication, no kernels,
// no timeline, no capacity) give nothing. Caller holds the database lock
// or owns the database; any thread.
class AdviceQuery {
public:
    // Findings sorted by sortFindings.
    static std::vector<Finding> run(model::Database& db, const AdviceOptions& options = {});
    // Critical first, then warning, then info (for a finding with an impact, its severity follows from the share of
    // the step it explains); within a severity by impact descending (findings without an impact estimate last), then
    // rule id, then value descending (for slow_link, whose value is a bandwidth, ascending), then the first rank.
    static void sortFindings(std::vector<Finding>& findings);
    // The finding to lead with (a status bar, the Overview): the first of sorted findings that has an impact, else
    // the first; nullptr for none. Points into findings.
    static const Finding* topFinding(const std::vector<Finding>& findings);
};

} // namespace npuscope::query::advice
