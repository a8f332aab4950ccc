// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace npuscope::query {

// Where a rank's FLOPs come from (docs/metrics.md, "FLOPs").
enum class FlopsSource {
    Kernels, // Σ kernel.flops: the *_fops PMU columns of kernel_details.csv / op_summary / a db export
    MindSporeSummary, // MindSpore's flops_summary_N.json (rank_info flops_summary.*): one figure per run
};

// One rank's floating-point work over the selected step(s) (docs/metrics.md, "FLOPs").
struct RankFlops {
    int64_t rank = 0;
    FlopsSource source = FlopsSource::Kernels;
    int64_t kernels = 0; // kernels with a FLOPs count (0 for MindSporeSummary)
    // floating-point operations: Σ kernel.flops, or flops_summary FLOPs × 10^6, or (a summary without FLOPs, as newer
    // MindSpore writes it) (cube_FLOPs + vec_FLOPs) × 10^6
    double flops = 0;
    int64_t computeNs = 0; // Σ dur of those kernels (0 for MindSporeSummary: the file has no time)
    // flops_summary only: its FLOPS (the mean over the run's distinct AI Core ops of each op's FLOPs ÷ its mean
    // duration, converted from GFLOPS to FLOP/s) and FLOPS_Utilization (the mean over those ops of that rate ÷ the
    // device's peak, in percent).
    // A summary without FLOPS gives cube_FLOPS + vec_FLOPS here (its parts below).
    std::optional<double> reportedFlopsPerSecond;
    std::optional<double> utilizationPercent;
    // The newer summary's parts, as written (× 10^6 FLOPs, × 10^9 FLOP/s), each kept whether or not the file also
    // has the total: the cube unit's (matrix) and the vector unit's share. nullopt when the file has no such key.
    std::optional<double> cubeFlops, vecFlops;
    std::optional<double> cubeFlopsPerSecond, vecFlopsPerSecond;
    // FLOP/s: flops ÷ computeNs for kernels, the reported figure for flops_summary, 0 when neither is known.
    double flopsPerSecond() const
    {
        return computeNs > 0 ? flops / (static_cast<double>(computeNs) * 1e-9) : reportedFlopsPerSecond.value_or(0.0);
    }
    double relative = 0; // flops ÷ the busiest rank's flops (1 for the busiest; 0 when no rank has any)
    double relativePerSecond = 0; // flopsPerSecond() ÷ the fastest rank's (1 for the fastest; 0 when none)
};

struct FlopsSummary {
    // False when no loaded kernel carries FLOPs and no flops_summary was imported: the run did not record them
    // (aic_metrics other than ArithmeticUtilization), which views must say instead of drawing zeros.
    bool recorded = false;
    // True when some rank's figures come from flops_summary_N.json: they cover the whole run whatever step was asked.
    bool wholeRunOnly = false;
    std::vector<RankFlops> ranks; // every rank with loaded kernels or a flops_summary, in rank order
};

// FLOPs from the kernel table (kernel_details.csv / op_summary / db exports, imported with a rank's detail files), or
// for a rank whose kernel table is not imported from its kernel_total rows (load::Loader::loadKernelTotals), else,
// per rank, from the old MindSpore flops_summary_N.json. Caller holds the database lock (or owns the database).
class FlopsQuery {
public:
    // step: one step, or every step when nullopt (flops_summary figures are per run and ignore it).
    static FlopsSummary perRank(model::Database& db, std::optional<int64_t> step = std::nullopt);
    // The profiler setting that records FLOPs, for the message a view shows when recorded is false.
    // The GUI shows it translated (context "FlopsQuery").
    static const char* const kHowToRecord;
};

} // namespace npuscope::query
