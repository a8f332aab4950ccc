// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench lazy`: the cluster heatmaps' figures without the big per-rank files. On a generated cluster (or
// --path): the memory peaks right after a warm-cache summary open (memory_peak, folded at summary time) against the
// same query over every rank's memory_record rows (their Memory group imported first); and the FLOPs kernel totals
// per rank (Loader::loadKernelTotals) cold and from the parse cache against importing every rank's kernel table
// (the Kernels group), each followed by the same FlopsQuery::perRank.

#include "BenchCases.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/FlopsQuery.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace npuscope::bench {

std::unique_ptr<model::Database> openSummary(const io::LoadPlan& plan, const load::ParseCache& cache)
{
    load::LoadOptions options;
    options.loadTimelines = false;
    options.cache = &cache;
    return load::Loader::load(plan, options);
}

int lazyAggregates(const std::vector<std::string>& args)
{
    int ranks = 1024;
    std::string work = defaultWorkDir();
    std::string path;
    if (!parseArgs(args, { { "--ranks", &ranks, 1 } }, { { "--work", &work }, { "--path", &path } }))
        return 2;
    if (path.empty()) {
        testgen::GeneratorOptions g;
        g.outDir = (fs::path(work) / ("lazy" + std::to_string(ranks))).string();
        g.ranks = ranks;
        g.traceMb = 0.01;
        g.tp = std::min(8, ranks);
        g.pp = std::max(1, std::min(4, ranks / g.tp));
        g.memoryHeavyRank = ranks > 1 ? 1 : 0;
        g.flopsLightRank = ranks > 2 ? 2 : 0;
        if (!generateOnce(g, "lazy"))
            return 1;
        path = g.outDir;
    }
    const fs::path cacheDir = fs::path(work) / "lazy-cache";
    std::error_code ec;
    fs::remove_all(cacheDir, ec); // cold first
    fs::create_directories(cacheDir, ec);
    const load::ParseCache cache({ cacheDir.string(), 64ull << 30 });
    const auto plan = io::Detector::detect({ path });
    print("lazy.ranks", static_cast<double>(plan.ranks.size()), "ranks");

    std::unique_ptr<model::Database> db;
    print("lazy.summary_open_cold_s", secondsOf([&] { db = openSummary(plan, cache); }), "s");
    if (!db)
        return 1;
    // The heatmap's case: the summary opened from the cache, then its peaks.
    print("lazy.summary_open_warm_s", secondsOf([&] { db = openSummary(plan, cache); }), "s");
    std::vector<query::RankMemoryPeak> peaks;
    print("lazy.memory_peaks_after_open_s", secondsOf([&] { peaks = query::MemoryQuery::peaks(*db); }), "s");
    // Baseline: the same figures from the full rows, which needs every rank's Memory group (warm: cold parse
    // first, then a second model importing them from the cache).
    const auto importMemory = [&](model::Database& m) {
        for (const auto& r : plan.ranks)
            load::Loader::loadDeferred(m, r.rank, io::kMemoryGroup, {}, nullptr, &cache);
    };
    print("lazy.memory_group_import_cold_s", secondsOf([&] { importMemory(*db); }), "s");
    auto rowsDb = openSummary(plan, cache);
    print("lazy.memory_group_import_warm_s", secondsOf([&] { importMemory(*rowsDb); }), "s");
    std::vector<query::RankMemoryPeak> fromRows;
    print("lazy.memory_peaks_from_rows_query_s", secondsOf([&] {
        fromRows = query::MemoryQuery::peaks(*rowsDb, std::nullopt, query::MemoryQuery::Source::Records);
    }),
        "s");
    bool same = peaks.size() == fromRows.size();
    for (size_t i = 0; same && i < peaks.size(); ++i)
        same = peaks[i].peakReservedMb == fromRows[i].peakReservedMb && peaks[i].peakTimeNs == fromRows[i].peakTimeNs;
    print("lazy.memory_peaks_equal", same ? 1 : 0, "bool");

    // FLOPs: kernel totals per rank, cold (without and with storing the cache entries) then warm, against the kernel
    // table of every rank (without and with the cache too).
    const auto totals = [&](model::Database& m, const load::ParseCache* through) {
        for (const auto& r : plan.ranks)
            load::Loader::loadKernelTotals(m, r.rank, {}, nullptr, through);
    };
    auto plainDb = openSummary(plan, cache);
    const double plain = secondsOf([&] { totals(*plainDb, nullptr); });
    print("lazy.kernel_totals_cold_nocache_s", plain, "s");
    print("lazy.kernel_totals_cold_nocache_per_rank_ms", 1e3 * plain / static_cast<double>(plan.ranks.size()), "ms");
    auto totalsDb = openSummary(plan, cache);
    const double cold = secondsOf([&] { totals(*totalsDb, &cache); });
    print("lazy.kernel_totals_cold_s", cold, "s");
    print("lazy.kernel_totals_cold_per_rank_ms", 1e3 * cold / static_cast<double>(plan.ranks.size()), "ms");
    auto warmDb = openSummary(plan, cache);
    const double warm = secondsOf([&] { totals(*warmDb, &cache); });
    print("lazy.kernel_totals_warm_s", warm, "s");
    query::FlopsSummary fromTotals;
    print("lazy.flops_query_totals_s", secondsOf([&] { fromTotals = query::FlopsQuery::perRank(*warmDb); }), "s");
    auto kernelDb = openSummary(plan, cache);
    const double full = secondsOf([&] {
        for (const auto& r : plan.ranks)
            load::Loader::loadDeferred(*kernelDb, r.rank, io::kKernelsGroup);
    });
    print("lazy.kernel_import_baseline_nocache_s", full, "s");
    auto cachedKernelDb = openSummary(plan, cache);
    print("lazy.kernel_import_baseline_cold_cache_s", secondsOf([&] {
        for (const auto& r : plan.ranks)
            load::Loader::loadDeferred(*cachedKernelDb, r.rank, io::kKernelsGroup, {}, nullptr, &cache);
    }),
        "s");
    query::FlopsSummary fromKernels;
    print("lazy.flops_query_kernels_s", secondsOf([&] { fromKernels = query::FlopsQuery::perRank(*kernelDb); }), "s");
    bool flopsSame = fromTotals.ranks.size() == fromKernels.ranks.size();
    for (size_t i = 0; flopsSame && i < fromTotals.ranks.size(); ++i)
        flopsSame = fromTotals.ranks[i].flops == fromKernels.ranks[i].flops
            && fromTotals.ranks[i].computeNs == fromKernels.ranks[i].computeNs;
    print("lazy.flops_equal", flopsSame ? 1 : 0, "bool");
    print("lazy.kernel_totals_cold_nocache_vs_import", full > 0 ? plain / full : 0, "ratio");
    print("lazy.kernel_totals_warm_vs_import", full > 0 ? warm / full : 0, "ratio");
    print("lazy.peak_rss_mb", peakRssMb(), "MB");
    return 0;
}

} // namespace npuscope::bench
