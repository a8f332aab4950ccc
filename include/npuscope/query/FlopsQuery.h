// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace npuscope::query {

// One rank's floating-point work over the selected step(s) (docs/metrics.md, "FLOPs").
struct RankFlops {
    int64_t rank = 0;
    int64_t kernels = 0; // kernels with a FLOPs count
    double flops = 0; // Σ kernel.flops
    int64_t computeNs = 0; // Σ dur of those kernels
    double flopsPerSecond() const { return computeNs > 0 ? flops / (static_cast<double>(computeNs) * 1e-9) : 0.0; }
    double relative = 0; // flops ÷ the busiest rank's flops (1 for the busiest; 0 when no rank has any)
};

struct FlopsSummary {
    // False when no loaded kernel carries FLOPs: the run did not record them (aic_metrics other than
    // ArithmeticUtilization), which views must say instead of drawing zeros.
    bool recorded = false;
    std::vector<RankFlops> ranks; // every rank with loaded kernels, in rank order
};

// FLOPs from the kernel table (kernel_details.csv / op_summary / db exports, imported with a rank's detail files), or
// for a rank whose kernel table is not imported, from its kernel_total rows (load::Loader::loadKernelTotals).
// Caller holds the database lock (or owns the database).
class FlopsQuery {
public:
    // step: one step, or every step when nullopt.
    static FlopsSummary perRank(model::Database& db, std::optional<int64_t> step = std::nullopt);
    // The profiler setting that records FLOPs, for the message a view shows when recorded is false.
    static constexpr const char* kHowToRecord
        = "FLOPs are recorded only with aic_metrics=ArithmeticUtilization (torch_npu experimental_config "
          "aic_metrics=AiCMetrics.ArithmeticUtilization, or msprof --aic-metrics=ArithmeticUtilization)";
};

} // namespace npuscope::query
