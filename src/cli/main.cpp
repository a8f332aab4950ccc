// SPDX-License-Identifier: Apache-2.0
// npuscope-cli: headless front end over the same core the GUI uses.

#include "CliSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/CommReport.h"
#include "npuscope/query/MemoryReport.h"
#include "npuscope/query/OperatorReport.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/SummaryReport.h"
#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/query/advice/AdviceReport.h"
#include "npuscope/query/advice/HtmlReport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using npuscope::cli::loadPlan;
using npuscope::cli::loadRanks;
using npuscope::cli::parseInt;
using npuscope::cli::usageError;

constexpr const char* kBuiltinUsage = R"(  summary [--json] [--with-timeline] [--no-cache] [--show-host-ips] PATH...
      Detect and import the profiler output under PATH (ASCEND_PROFILER_OUTPUT folders, *_ascend_pt /
      *_ascend_ms rank folders, or a folder holding many of them; also an msprof-analyze
      cluster_analysis_output folder, even one with only communication_group.json) and print ranks, step
      breakdown, pipeline stages (msprof-analyze stage rows), cluster statistics, communication groups (names
      from profiler_metadata.json or communication_group.json), slowest links and parse issues. --json prints
      the npuscope.summary/1 document. The per-rank detail files (trace_view.json, kernel_details.csv,
      memory_record.csv rows, operator_memory.csv) are only imported with --with-timeline. What was parsed is kept in the parse cache
      ($XDG_CACHE_HOME/npuscope/parse) and reused while the inputs are unchanged; --no-cache
      neither reads nor writes it. Hosts of a MindInsight cluster_profiler job are named by their
      host_ips_mapping.txt id; --show-host-ips prints the real host IPs instead.
  cache [--clear]
      Print the parse cache folder and its size; --clear removes every entry.
  generate --out DIR --ranks N [--steps S] [--trace-mb M] [--pp P --tp T --dp D] [--microbatches B]
           [--slow-rank R] [--slow-link A-B] [--slow-host R] [--clock-skew-us U] [--memory-heavy-rank R] [--flops]
           [--flops-light-rank R] [--late-launch-rank R] [--seed X] [--analysis-db] [--all-to-all-groups]
      Write a deterministic torch_npu-style cluster (one rank{r}_{timestamp}_ascend_pt folder per rank,
      Level1 text export, trace_view.json of about M MB per rank; defaults S=3, M=1, pp=tp=1, dp=N/(pp*tp),
      X=1). Ranks are laid out Megatron-style (tp innermost, then dp, then pp). With P > 1 every step is a
      1F1B pipeline schedule of B microbatches (default 2*P): stage s runs P-1-s warm-up forward passes, then
      one forward and one backward in turn, then the cool-down backward passes; each pass is a run of
      transformer-layer kernels (backward twice the forward) with tp all-reduces inside, hcom_send_ /
      hcom_receive_ ops carry activations and gradients between neighbouring stages (a receive waits for the
      neighbour's send, so the bubbles appear), then the dp gradient all-reduce, a pp-group gradient-norm
      all-reduce and the optimizer. --slow-rank makes rank R compute 30 % longer (in a pipeline its tp peers
      and the stages after it wait for it); --slow-link gives the link between global ranks
      A and B a tenth of its bandwidth; --slow-host makes rank R host-bound (40-120 us between the device tasks
      it launches instead of 0.8-4 us); --clock-skew-us shifts each server's clock (8 ranks) by up to U us
      (server 0 unshifted). --memory-heavy-rank gives rank R 1.6 times the memory of the others.
      --flops writes kernel_details.csv with the FLOPs columns of an aic_metrics=ArithmeticUtilization run
      (aic/aiv_cube_fops, aic/aiv_vector_fops); --flops-light-rank (implies --flops) makes rank R do half the
      FLOPs in the same time. --late-launch-rank makes rank R's host launch every 40th kernel of a step (from
      the 5th) late: the device idles 2 ms before it while the launch runs. --analysis-db also writes each
      rank's analysis.db (the db export of the same step trace and communication data; loading takes those
      from it). The communication matrix links each all-reduce as HCCL does: a full mesh among the group's ranks
      on one server (8 devices), a ring across servers between the ranks at the same place on theirs;
      --all-to-all-groups links every rank of a group to every other instead (1,024-way matrices for stress
      tests). An existing non-empty DIR is only replaced if the generator wrote it.
  comm [--json] [--step N] [--group G] PATH...
      Per-rank communication figures (Elapsed, Transit, Wait, Sync, Idle, Wait/Sync Ratio, SDMA/RDMA
      bandwidth = Σsize/Σtime over the ops) and the slowest links for one step (default all) and one group
      (hash or a unique name; default all). Links have global ranks, except in a group whose global ranks are
      unknown (e.g. one rank of it loaded alone): those keep the group-local ranks as written, printed "L3" and
      in JSON "ranks": "local" (with "local_rank_groups"); summary --json marks every link the same way.
      --json prints the npuscope.comm/1 document.
  memory [--json] [--capacity-gb G] [--no-cache] PATH...
      Each rank's memory peak from memory_record: peak reserved (the APP component, the whole process on the
      device, where recorded, else PTA+GE, else PTA), when and from which component, peak allocated (PTA+GE,
      else PTA), and with --capacity-gb (the device memory, e.g. 64; no profile records it) the share of it.
      --json prints the npuscope.memory/1 document (docs/metrics.md). The peaks are folded from memory_record
      while the summary loads (no memory_record row is imported). The parse cache is used as by summary.
  ops [--json] [--rank R] [--compare R2] [--group-by type|name|shape] [--no-cache] PATH...
      Operator (kernel) figures from kernel_details.csv / op_summary / the db exports' kernel tables (of the
      per-rank deferred files only the kernel files are imported, not the timelines or memory rows): per rank and key over all loaded steps the count, total, mean, min,
      max and summed wait time (µs), keyed by op type (default), op name, or op name and input shapes; one
      rank with --rank. --compare R2 (needs --rank R) matches R's keys with R2's and adds R2's total and the
      difference R2 − R, sorted by difference descending (the slower card's extra time on top). --json
      prints the npuscope.ops/1 document. The parse cache is used as by summary (--no-cache: not).
  advise [--json] [--html FILE] [--capacity-gb G] [--peak-tflops P] [--with-kernels] [--with-timeline]
         [--no-cache] PATH...
      Expert advice (docs/metrics.md, "Advice rules"): every rule with its threshold, the measured value, the
      ranks / links / ops / steps concerned, a suggestion and the view that shows the evidence; critical
      first. Rule ids: stage_imbalance, computation_dispersion, scheduling_dispersion, communication_dispersion
      (over comparable ranks = same pipeline stage and TP position), slow_rank, slow_link, wait_ratio,
      small_packets, rdma_retransmission, alignment, preparing, step_variance, bubble_share, flops_light,
      mfu (model FLOPs utilisation; needs --peak-tflops P, the chip's peak in TFLOP/s, else info), memory_peak
      (with --capacity-gb G), aicpu_long (with --with-kernels); with --with-timeline, for every rank:
      idle_gap (the longest device idle gaps and their cause: host launched late, long gap on the host side,
      other device work), collective_bound (host- or device-bound slow collectives), sdma_contention (SDMA
      below 14.4 GB/s while a MatMul runs) and dispatch_chain (aten op -> launch -> device task times).
      --with-kernels also imports every rank's kernel rows (as ops does), --with-timeline every rank's
      timeline (trace_view.json; both costly on large clusters). --json prints the npuscope.advice/1
      document. --html FILE also writes the self-contained HTML report (inline CSS and SVG, no script, no
      network: overview, every finding with its evidence, the input); stdout is unchanged. The parse cache is used as by summary.
)";

int summary(const std::vector<std::string>& args)
{
    bool json = false;
    bool timeline = false;
    bool useCache = true;
    auto hosts = npuscope::query::HostDisplay::MappingId;
    std::vector<std::string> paths;
    for (const auto& a : args) {
        if (a == "--json")
            json = true;
        else if (a == "--with-timeline")
            timeline = true;
        else if (a == "--no-cache")
            useCache = false;
        else if (a == "--show-host-ips")
            hosts = npuscope::query::HostDisplay::RealIp;
        else if (a.rfind("--", 0) == 0)
            return usageError("summary", "unknown option " + a);
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usageError("summary", "no PATH given");
    const auto plan = npuscope::io::Detector::detect(paths);
    auto db = loadPlan(plan, timeline ? npuscope::io::kAllGroups : npuscope::io::kNoGroup, useCache);
    if (!db) {
        std::cerr << "npuscope-cli: loading was cancelled\n";
        return 1;
    }
    if (json) {
        npuscope::query::SummaryReport::write(std::cout, *db, hosts);
        std::cout << "\n";
    } else
        std::cout << "Layout: " << plan.layoutName() << "\n" << npuscope::query::SummaryReport::text(*db, hosts);
    if (plan.ranks.empty()) {
        for (const auto& issue : plan.issues)
            std::cerr << "npuscope-cli: " << issue.path << ": " << issue.message << "\n";
        return 1;
    }
    return 0;
}

int comm(const std::vector<std::string>& args)
{
    bool json = false;
    std::optional<std::string> group;
    npuscope::query::CommSelection sel;
    std::vector<std::string> paths;
    auto usage = [](const std::string& message) { return usageError("comm", message); };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        long long n = 0;
        if (a == "--json")
            json = true;
        else if ((a == "--step" || a == "--group") && i + 1 >= args.size())
            return usage(a + " needs a value");
        else if (a == "--step") {
            if (!parseInt(args[++i], std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max(), n))
                return usage("--step expects an integer, got \"" + args[i] + "\"");
            sel.step = n;
        } else if (a == "--group")
            group = args[++i];
        else if (a.rfind("--", 0) == 0)
            return usage("unknown option " + a);
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usage("no PATH given");
    auto db = loadRanks("comm", paths, npuscope::io::kNoGroup, false);
    if (!db)
        return 1;
    if (group) {
        // A hash, or a group name that names exactly one group.
        std::vector<std::string> matches;
        for (const auto& g : npuscope::query::CommQuery::groups(*db)) {
            if (g.hash == *group)
                matches = { g.hash };
            else if (g.name && *g.name == *group && (matches.empty() || matches.front() != *group))
                matches.push_back(g.hash);
        }
        if (matches.size() != 1) {
            std::cerr << "npuscope-cli comm: --group " << *group
                      << (matches.empty() ? " matches no group" : " names several groups; give the hash") << "\n";
            return 2;
        }
        sel.groupHash = matches.front();
    }
    if (json) {
        npuscope::query::CommReport::write(std::cout, *db, sel);
        std::cout << "\n";
    } else
        std::cout << npuscope::query::CommReport::text(*db, sel);
    return 0;
}

// --capacity-gb G: the device memory in MB (2^20 B); nullopt when G is not a positive number.
std::optional<double> parseCapacityMb(const std::string& v)
{
    double gb = 0;
    size_t used = 0;
    try {
        gb = std::stod(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != v.size() || !(gb > 0))
        return std::nullopt;
    return gb * 1024.0;
}

int memory(const std::vector<std::string>& args)
{
    bool json = false;
    bool useCache = true;
    std::optional<double> capacityMb;
    std::vector<std::string> paths;
    auto usage = [](const std::string& message) { return usageError("memory", message); };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if (a == "--no-cache")
            useCache = false;
        else if (a == "--capacity-gb") {
            if (i + 1 >= args.size())
                return usage("--capacity-gb needs a value");
            capacityMb = parseCapacityMb(args[++i]);
            if (!capacityMb)
                return usage("--capacity-gb expects a positive number, got \"" + args[i] + "\"");
        } else if (a.rfind("--", 0) == 0)
            return usage("unknown option " + a);
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usage("no PATH given");
    // The peaks were folded from memory_record at summary load (memory_peak): no memory_record row is imported.
    auto db = loadRanks("memory", paths, npuscope::io::kNoGroup, useCache);
    if (!db)
        return 1;
    if (json)
        std::cout << npuscope::query::MemoryReport::json(*db, capacityMb).dump(2) << "\n";
    else
        std::cout << npuscope::query::MemoryReport::text(*db, capacityMb);
    return 0;
}

int ops(const std::vector<std::string>& args)
{
    bool json = false;
    bool useCache = true;
    npuscope::query::OperatorSelection sel;
    std::vector<std::string> paths;
    auto usage = [](const std::string& message) { return usageError("ops", message); };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        long long n = 0;
        if (a == "--json")
            json = true;
        else if (a == "--no-cache")
            useCache = false;
        else if ((a == "--rank" || a == "--compare" || a == "--group-by") && i + 1 >= args.size())
            return usage(a + " needs a value");
        else if (a == "--rank" || a == "--compare") {
            if (!parseInt(args[++i], std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), n))
                return usage(a + " expects a rank, got \"" + args[i] + "\"");
            (a == "--rank" ? sel.rank : sel.compareRank) = n;
        } else if (a == "--group-by") {
            const auto by = npuscope::query::groupByFromName(args[++i]);
            if (!by)
                return usage("--group-by expects type, name or shape, got \"" + args[i] + "\"");
            sel.groupBy = *by;
        } else if (a.rfind("--", 0) == 0)
            return usage("unknown option " + a);
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usage("no PATH given");
    if (sel.compareRank && !sel.rank)
        return usage("--compare needs --rank (the baseline rank)");
    // Kernel rows live in the deferred per-rank files: import their Kernels group only (no timeline, no memory).
    auto db = loadRanks("ops", paths, npuscope::io::kKernelsGroup, useCache);
    if (!db)
        return 1;
    const auto loaded = npuscope::query::RankQuery::ranks(*db);
    for (const auto& rank : { sel.rank, sel.compareRank }) {
        if (rank && std::none_of(loaded.begin(), loaded.end(), [&](const auto& r) { return r.rank == *rank; }))
            return usage("rank " + std::to_string(*rank) + " is not loaded");
    }
    if (npuscope::query::OperatorQuery::forDatabase(*db)->size() == 0)
        std::cerr << "npuscope-cli ops: the loaded data has no kernel rows (kernel_details.csv, op_summary or a db "
                     "export's kernel tables)\n";
    if (json)
        std::cout << npuscope::query::OperatorReport::json(*db, sel).dump(2) << "\n";
    else
        std::cout << npuscope::query::OperatorReport::text(*db, sel);
    return 0;
}

int advise(const std::vector<std::string>& args)
{
    bool json = false;
    bool useCache = true;
    bool kernels = false;
    bool timeline = false;
    std::string htmlPath;
    npuscope::query::advice::AdviceOptions options;
    std::vector<std::string> paths;
    auto usage = [](const std::string& message) { return usageError("advise", message); };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if (a == "--no-cache")
            useCache = false;
        else if (a == "--with-kernels")
            kernels = true;
        else if (a == "--with-timeline")
            timeline = true;
        else if (a == "--peak-tflops") {
            if (i + 1 >= args.size())
                return usage("--peak-tflops needs a value");
            char* end = nullptr;
            const double v = std::strtod(args[++i].c_str(), &end);
            if (end == args[i].c_str() || *end || !(v > 0) || !std::isfinite(v))
                return usage("--peak-tflops expects a positive number, got \"" + args[i] + "\"");
            options.peakTflops = v;
        } else if (a == "--html") {
            if (i + 1 >= args.size())
                return usage("--html needs a FILE");
            htmlPath = args[++i];
        } else if (a == "--capacity-gb") {
            if (i + 1 >= args.size())
                return usage("--capacity-gb needs a value");
            options.capacityMb = parseCapacityMb(args[++i]);
            if (!options.capacityMb)
                return usage("--capacity-gb expects a positive number, got \"" + args[i] + "\"");
        } else if (a.rfind("--", 0) == 0)
            return usage("unknown option " + a);
        else
            paths.push_back(a);
    }
    if (paths.empty())
        return usage("no PATH given");
    // Every rule but aicpu_long and the timeline rules reads what the summary load imports; the kernel rows (every
    // rank's kernel_details.csv) only with --with-kernels, the timelines only with --with-timeline.
    const npuscope::io::DeferredGroups groups = (kernels ? npuscope::io::kKernelsGroup : npuscope::io::kNoGroup)
        | (timeline ? npuscope::io::kTimelineGroup : npuscope::io::kNoGroup);
    auto db = loadRanks("advise", paths, groups, useCache);
    if (!db)
        return 1;
    const auto findings = npuscope::query::advice::AdviceQuery::run(*db, options);
    if (!htmlPath.empty()) {
        const std::string html = npuscope::query::advice::HtmlReport::build(
            *db, findings, { .paths = paths, .generatedAt = {}, .skipFirstStep = options.skipFirstStep });
        std::ofstream file(htmlPath, std::ios::binary);
        file << html;
        file.close();
        if (!file) {
            std::cerr << "npuscope-cli advise: cannot write " << htmlPath << "\n";
            return 1;
        }
    }
    if (json)
        std::cout << npuscope::query::advice::AdviceReport::json(findings).dump(2) << "\n";
    else
        std::cout << npuscope::query::advice::AdviceReport::text(findings);
    return 0;
}

int generate(const std::vector<std::string>& args)
{
    npuscope::testgen::GeneratorOptions o;
    auto fail = [](const std::string& message) {
        std::cerr << "npuscope-cli generate: " << message << "\n";
        return 2;
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--analysis-db") {
            o.analysisDb = true;
            continue;
        }
        if (a == "--flops") {
            o.flops = true;
            continue;
        }
        if (a == "--all-to-all-groups") {
            o.allToAllGroups = true;
            continue;
        }
        if (i + 1 >= args.size())
            return fail(a.rfind("--", 0) == 0 ? a + " needs a value" : "unexpected argument " + a);
        const std::string& v = args[++i];
        long long n = 0;
        auto number = [&](long long lo, long long hi) {
            if (!parseInt(v, lo, hi, n))
                throw std::invalid_argument(a + " expects an integer in " + std::to_string(lo) + ".."
                    + std::to_string(hi) + ", got \"" + v + "\"");
            return static_cast<int>(n);
        };
        try {
            if (a == "--out")
                o.outDir = v;
            else if (a == "--ranks")
                o.ranks = number(-1000000, 1000000);
            else if (a == "--steps")
                o.steps = number(-1000000, 1000000);
            else if (a == "--pp")
                o.pp = number(1, 1000000);
            else if (a == "--tp")
                o.tp = number(1, 1000000);
            else if (a == "--dp")
                o.dp = number(1, 1000000);
            else if (a == "--microbatches")
                o.microbatches = number(1, 10000);
            else if (a == "--slow-rank")
                o.slowRank = number(-1000000, 1000000);
            else if (a == "--slow-host")
                o.slowHost = number(-1000000, 1000000);
            else if (a == "--clock-skew-us")
                o.clockSkewUs = number(0, 1000000000);
            else if (a == "--memory-heavy-rank")
                o.memoryHeavyRank = number(-1000000, 1000000);
            else if (a == "--flops-light-rank")
                o.flopsLightRank = number(-1000000, 1000000);
            else if (a == "--late-launch-rank")
                o.lateLaunchRank = number(-1000000, 1000000);
            else if (a == "--seed") {
                if (!parseInt(v, 0, std::numeric_limits<long long>::max(), n))
                    return fail("--seed expects a non-negative integer, got \"" + v + "\"");
                o.seed = static_cast<uint64_t>(n);
            } else if (a == "--trace-mb") {
                size_t used = 0;
                o.traceMb = std::stod(v, &used);
                if (used != v.size())
                    return fail("--trace-mb expects a number, got \"" + v + "\"");
            } else if (a == "--slow-link") {
                const auto dash = v.find('-');
                long long x = 0;
                long long y = 0;
                if (dash == std::string::npos || !parseInt(v.substr(0, dash), 0, 1000000, x)
                    || !parseInt(v.substr(dash + 1), 0, 1000000, y))
                    return fail("--slow-link expects A-B (two global ranks), got \"" + v + "\"");
                o.slowLink = std::make_pair(static_cast<int>(x), static_cast<int>(y));
            } else
                return fail("unknown option " + a);
        } catch (const std::exception& e) {
            return fail(a == "--trace-mb" ? "--trace-mb expects a number, got \"" + v + "\"" : std::string(e.what()));
        }
    }
    if (o.outDir.empty())
        return fail("--out DIR is required");
    std::string error;
    if (!npuscope::testgen::ClusterGenerator::generate(o, error))
        return fail(error);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    spdlog::set_level(spdlog::level::warn);
    npuscope::cli::setBuiltinUsage(kBuiltinUsage);
    if (argc < 2) {
        std::cerr << npuscope::cli::usageText();
        return 2;
    }
    const std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    // "COMMAND --help" (or -h) anywhere prints the usage, for every command alike (generate answered "--help needs a
    // value").
    if (std::find(args.begin(), args.end(), "--help") != args.end()
        || std::find(args.begin(), args.end(), "-h") != args.end()) {
        std::cout << npuscope::cli::usageText();
        return 0;
    }
    try {
        if (command == "summary")
            return summary(args);
        if (command == "cache") {
            const npuscope::load::ParseCache cache;
            if (!args.empty() && args[0] == "--clear")
                std::cout << "removed " << cache.clear() << " bytes from " << cache.dir() << "\n";
            else
                std::cout << cache.dir() << " " << cache.sizeBytes() << " bytes\n";
            return 0;
        }
        if (command == "generate")
            return generate(args);
        if (command == "comm")
            return comm(args);
        if (command == "memory")
            return memory(args);
        if (command == "ops")
            return ops(args);
        if (command == "advise")
            return advise(args);
        if (command == "help" || command == "--help" || command == "-h") {
            std::cout << npuscope::cli::usageText();
            return 0;
        }
        for (const auto& c : npuscope::cli::registeredCommands())
            if (command == c.name)
                return c.run(args);
    } catch (const std::exception& e) {
        std::cerr << "npuscope-cli: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "npuscope-cli: unknown command " << command << "\n" << npuscope::cli::usageText();
    return 2;
}
