// SPDX-License-Identifier: Apache-2.0
// npuscope-cli generate: a deterministic generated cluster (testgen::ClusterGenerator).
#include "CliSupport.h"

#include "npuscope/testgen/ClusterGenerator.h"

#include <iostream>
#include <limits>

namespace {

constexpr const char* kUsage = R"(  generate --out DIR --ranks N [--steps S] [--trace-mb M] [--pp P --tp T --dp D] [--microbatches B]
           [--slow-rank R] [--slow-link A-B] [--slow-host R] [--clock-skew-us U] [--memory-heavy-rank R] [--flops]
           [--flops-light-rank R] [--late-launch-rank R] [--seed X] [--analysis-db] [--all-to-all-groups]
           [--format torch_npu|mindspore|mindspore-legacy] [--strategy-nodes N] [--windows A-B[,C-D...]]
      Write a deterministic cluster, by default torch_npu-style (one rank{r}_{timestamp}_ascend_pt folder per
      rank, Level1 text export, trace_view.json of about M MB per rank; defaults S=3, M=1, pp=tp=1,
      dp=N/(pp*tp), X=1). --format mindspore writes the same cluster as MindSpore 2.x does
      (rank{r}_{timestamp}_ascend_ms folders: MindSpore's profiler_info, a "MindSpore" framework process and
      mindspore_to_npu flows in trace_view.json, minddata_pipeline_raw_{r}.csv); --format mindspore-legacy as
      the older MindSpore / MindInsight cluster_profiler job (hccl.json, host_ips_mapping.txt,
      cluster_profiler/<host>/profiler/ with each device's step_trace_raw, hccl_raw,
      ascend_cluster_analyse_pipeline-parallel, ascend_timeline_display + min_cycle_counter, flops,
      flops_summary, flops_scope, minddata, device_queue_profiling, memory_usage_summary and
      memory_usage_details files, steps numbered from 1). --windows writes each rank once per dynamic-profiler
      window, with that window's steps only (steps are numbered from 50), under rank{r}_start{A}_stop{B}/, as
      MindSpore's dynamic profiler does (torch_npu and mindspore forms). --strategy-nodes N (MindSpore forms) also
      writes each rank's parallel_strategy_{r}.json: its stage's graph of about N nodes (a transformer stack, forward
      and backward, sharded operators with in_strategy, tensor-parallel AllReduce, redistribution and gradient
      aggregation operators, Send/Receive between neighbouring stages). Every form
      is written from the same planned cluster, so one seed gives the same steps, step times and communication
      ops in each. Ranks are laid out Megatron-style (tp innermost, then dp, then pp). With P > 1 every step is
      a 1F1B pipeline schedule of B microbatches (default 2*P): stage s runs P-1-s warm-up forward passes, then
      one forward and one backward in turn, then the cool-down backward passes; each pass is a run of
      transformer-layer kernels (backward twice the forward) with tp all-reduces inside, hcom_send_ /
      hcom_receive_ ops carry activations and gradients between neighbouring stages (a receive waits for the
      neighbour's send, so the bubbles appear), then the dp gradient all-reduce, a pp-group gradient-norm
      all-reduce and the optimizer. --slow-rank makes rank R compute 30 % longer (in a pipeline its tp peers and
      the stages after it wait for it); --slow-link gives the link between global ranks A and B a tenth of its
      bandwidth; --slow-host makes rank R host-bound (40-120 us between the device tasks it launches instead of
      0.8-4 us); --clock-skew-us shifts each server's clock (8 ranks) by up to U us (server 0 unshifted).
      --memory-heavy-rank gives rank R 1.6 times the memory of the others. --flops writes kernel_details.csv
      with the FLOPs columns of an aic_metrics=ArithmeticUtilization run (aic/aiv_cube_fops,
      aic/aiv_vector_fops); --flops-light-rank (implies --flops) makes rank R do half the FLOPs in the same
      time. --late-launch-rank makes rank R's host launch every 40th kernel of a step (from the 5th) late: the
      device idles 2 ms before it while the launch runs. --analysis-db also writes each rank's analysis.db (the
      db export of the same step trace and communication data; loading takes those from it). The communication
      matrix links each all-reduce as HCCL does: a full mesh among the group's ranks on one server (8 devices),
      a ring across servers between the ranks at the same place on theirs; --all-to-all-groups links every rank
      of a group to every other instead (1,024-way matrices for stress tests). An existing non-empty DIR is only
      replaced if the generator wrote it.
)";

int run(const std::vector<std::string>& args)
{
    npuscope::testgen::GeneratorOptions o;
    npuscope::cli::Options options("generate");
    // An integer option within [lo, hi], its error naming the range.
    auto number = [&]<typename Int>(const char* name, long long lo, long long hi, Int& out) {
        const std::string expects = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
        options.integer(name, lo, hi, expects.c_str(), [&out](long long n) { out = static_cast<Int>(n); });
    };
    options.text("--out", [&](const std::string& v) { o.outDir = v; });
    number("--ranks", -1000000, 1000000, o.ranks);
    number("--steps", -1000000, 1000000, o.steps);
    number("--pp", 1, 1000000, o.pp);
    number("--tp", 1, 1000000, o.tp);
    number("--dp", 1, 1000000, o.dp);
    number("--microbatches", 1, 10000, o.microbatches);
    number("--slow-rank", -1000000, 1000000, o.slowRank);
    number("--slow-host", -1000000, 1000000, o.slowHost);
    number("--clock-skew-us", 0, 1000000000, o.clockSkewUs);
    number("--memory-heavy-rank", -1000000, 1000000, o.memoryHeavyRank);
    number("--flops-light-rank", -1000000, 1000000, o.flopsLightRank);
    number("--late-launch-rank", -1000000, 1000000, o.lateLaunchRank);
    number("--strategy-nodes", 0, 10000000, o.strategyNodes);
    options
        .integer("--seed", 0, std::numeric_limits<long long>::max(), "a non-negative integer",
            [&](long long n) { o.seed = static_cast<uint64_t>(n); })
        .value("--trace-mb", "a number",
            [&](const std::string& v) {
                try {
                    size_t used = 0;
                    o.traceMb = std::stod(v, &used);
                    return used == v.size();
                } catch (const std::exception&) {
                    return false;
                }
            })
        .value("--slow-link", "A-B (two global ranks)",
            [&](const std::string& v) {
                const auto dash = v.find('-');
                long long x = 0, y = 0;
                if (dash == std::string::npos || !npuscope::cli::parseInt(v.substr(0, dash), 0, 1000000, x)
                    || !npuscope::cli::parseInt(v.substr(dash + 1), 0, 1000000, y))
                    return false;
                o.slowLink = std::make_pair(static_cast<int>(x), static_cast<int>(y));
                return true;
            })
        .value("--windows", "A-B[,C-D...] (step ranges)",
            [&](const std::string& v) {
                o.windows.clear();
                size_t at = 0;
                while (at <= v.size()) {
                    const auto comma = std::min(v.find(',', at), v.size());
                    const std::string part = v.substr(at, comma - at);
                    const auto dash = part.find('-');
                    long long x = 0, y = 0;
                    if (dash == std::string::npos || !npuscope::cli::parseInt(part.substr(0, dash), 0, 1000000, x)
                        || !npuscope::cli::parseInt(part.substr(dash + 1), 0, 1000000, y))
                        return false;
                    o.windows.emplace_back(static_cast<int>(x), static_cast<int>(y));
                    at = comma + 1;
                }
                return !o.windows.empty();
            })
        .value("--format", "torch_npu, mindspore or mindspore-legacy", o.format, npuscope::testgen::formatFromName)
        .flag("--analysis-db", o.analysisDb)
        .flag("--flops", o.flops)
        .flag("--all-to-all-groups", o.allToAllGroups);
    if (const auto status = options.parse(args))
        return *status;
    if (o.outDir.empty())
        return options.error("--out DIR is required");
    std::string error;
    if (!npuscope::testgen::ClusterGenerator::generate(o, error)) {
        std::cerr << "npuscope-cli generate: " << error << "\n";
        return 2;
    }
    return 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "generate", kUsage, &run, 30 });

} // namespace
