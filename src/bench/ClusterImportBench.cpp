// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench imported-open` and `npuscope-bench slim`: the cluster transfer commands of docs/cluster.md.
// imported-open: a folder of per-rank files written by `npuscope-cli import` (load::RankImport) in one process, which
// joins the whole folder, opened without any parse cache (the first open reads the joined model), then the same rank
// files without the joined model (merged at each open), against the warm parse-cache reopen of the same raw cluster,
// all timed in this run.
// slim: the bytes `npuscope-cli slim --keep summary` copies of a generated cluster with large traces.

#include "BenchCases.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/load/ProfileSlim.h"
#include "npuscope/load/RankImport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace npuscope::bench {

namespace {

// Generates a cluster into work/name unless the generator already wrote it there; "" on failure (said on stderr).
std::string generated(const std::string& work, const std::string& name, int ranks, double traceMb)
{
    testgen::GeneratorOptions g;
    g.outDir = (fs::path(work) / name).string();
    g.ranks = ranks;
    g.traceMb = traceMb;
    g.tp = std::min(8, ranks);
    g.pp = std::max(1, std::min(4, ranks / g.tp));
    return generateOnce(g, "") ? g.outDir : std::string();
}

// Median seconds of n summary opens of paths (cache: nullptr = none); rank count in ranksOut, the last open's stages
// in report, the first open's seconds in first.
double medianOpen(const std::vector<std::string>& paths, const load::ParseCache* cache, int n, int64_t& ranksOut,
    load::LoadReport* report = nullptr, double* first = nullptr)
{
    std::vector<double> times;
    for (int i = 0; i < n; ++i) {
        const auto t0 = Clock::now();
        const auto plan = io::Detector::detect(paths);
        load::LoadOptions options;
        options.loadTimelines = false;
        options.cache = cache;
        load::LoadReport stages;
        options.report = &stages;
        auto db = load::Loader::load(plan, options);
        times.push_back(secondsSince(t0));
        if (first && i == 0)
            *first = times.back();
        ranksOut = db ? db->rankCount() : -1;
        if (report)
            *report = stages;
    }
    return percentile(times, 0.5);
}

std::vector<std::string> rankFolders(const std::string& cluster)
{
    std::vector<std::string> dirs;
    for (const auto& e : fs::directory_iterator(cluster)) {
        if (e.is_directory())
            dirs.push_back(e.path().string());
    }
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

} // namespace

int importedOpen(const std::vector<std::string>& args)
{
    int ranks = 1024;
    int repeat = 3;
    std::string work = defaultWorkDir();
    std::string path;
    if (!parseArgs(args, { { "--ranks", &ranks, 1 }, { "--repeat", &repeat, 1 } },
            { { "--work", &work }, { "--path", &path } }))
        return 2;
    if (path.empty())
        path = generated(work, "imported-open" + std::to_string(ranks), ranks, 0.01);
    if (path.empty())
        return 1;
    const fs::path cacheDir = fs::path(work) / "imported-open-cache";
    const fs::path importDir = fs::path(work) / "imported-open-ranks";
    std::error_code ec;
    fs::remove_all(cacheDir, ec);
    fs::remove_all(importDir, ec);
    const load::ParseCache cache(load::ParseCache::Options { cacheDir.string(), 64ull << 30 });

    int64_t rawRanks = 0;
    const double cold = medianOpen({ path }, &cache, 1, rawRanks); // fills the cache
    const double warm = medianOpen({ path }, &cache, repeat, rawRanks);

    // The import as `npuscope-cli import RANKDIR... --out DIR` does it in one process: the rank files, then the join
    // of the whole folder (RankImport::joinIfWhole).
    const auto t0 = Clock::now();
    const auto result = load::RankImport::importRanks(rankFolders(path), importDir.string());
    const double importSeconds = secondsSince(t0);
    for (const auto& e : result.errors)
        std::fprintf(stderr, "npuscope-bench imported-open: %s\n", e.c_str());
    uint64_t importedBytes = 0;
    for (const auto& w : result.written)
        importedBytes += w.bytes;
    const auto j0 = Clock::now();
    const auto joinError = load::RankImport::joinIfWhole(importDir.string(), result).value_or("not joined");
    const double joinSeconds = secondsSince(j0);
    if (!joinError.empty())
        std::fprintf(stderr, "npuscope-bench imported-open: join: %s\n", joinError.c_str());

    // The folder's first opens (no parse cache): the joined model.
    int64_t joinedRanks = 0;
    double joinedFirst = 0;
    const double joined = medianOpen({ importDir.string() }, nullptr, repeat, joinedRanks, nullptr, &joinedFirst);

    // The same rank files without the joined model (imported side by side by many processes, no `import --join`):
    // each open merges them.
    fs::remove(importDir / load::RankImport::kJoinedName, ec);
    int64_t importedRanks = 0;
    load::LoadReport stages;
    const auto d0 = Clock::now();
    io::Detector::detect({ importDir.string() });
    const double detectSeconds = secondsSince(d0);
    double importedFirst = 0;
    const double imported = medianOpen({ importDir.string() }, nullptr, repeat, importedRanks, &stages, &importedFirst);
    fs::remove_all(cacheDir, ec);
    fs::create_directories(cacheDir, ec);
    medianOpen({ importDir.string() }, &cache, 1, importedRanks);
    const double importedWarm = medianOpen({ importDir.string() }, &cache, repeat, importedRanks);

    print("imported_open.ranks", static_cast<double>(importedRanks), "ranks");
    print("imported_open.raw_ranks", static_cast<double>(rawRanks), "ranks");
    print("imported_open.raw_cold_s", cold, "s");
    print("imported_open.raw_warm_cache_s", warm, "s");
    print("imported_open.import_s", importSeconds, "s");
    print("imported_open.import_mb", static_cast<double>(importedBytes) / 1e6, "MB");
    print("imported_open.join_s", joinSeconds, "s");
    print("imported_open.first_open_s", joinedFirst, "s");
    print("imported_open.first_open_ratio", warm > 0 ? joinedFirst / warm : 0, "x warm cache");
    print("imported_open.joined_s", joined, "s");
    print("imported_open.joined_ratio", warm > 0 ? joined / warm : 0, "x warm cache");
    print("imported_open.merged_s", imported, "s");
    print("imported_open.merged_first_s", importedFirst, "s");
    print("imported_open.merged_ratio", warm > 0 ? imported / warm : 0, "x warm cache");
    print("imported_open.merged_first_ratio", warm > 0 ? importedFirst / warm : 0, "x warm cache");
    print("imported_open.merged_detect_s", detectSeconds, "s");
    print("imported_open.merged_merge_files_s", stages.parseSeconds, "s");
    print("imported_open.merged_post_load_s", stages.postLoadSeconds, "s");
    print("imported_open.merged_index_s", stages.indexSeconds, "s");
    print("imported_open.merged_warm_cache_s", importedWarm, "s");
    print("rss.peak_mb", peakRssMb(), "MB");
    return importedRanks == rawRanks && joinedRanks == rawRanks && result.errors.empty() && joinError.empty() ? 0 : 1;
}

int slimRatio(const std::vector<std::string>& args)
{
    int ranks = 256;
    double traceMb = 2;
    std::string work = defaultWorkDir();
    if (!parseArgs(args, { { "--ranks", &ranks, 1 } }, { { "--work", &work } }, { { "--trace-mb", &traceMb, 0.0 } }))
        return 2;
    const std::string source = generated(work, "slim" + std::to_string(ranks), ranks, traceMb);
    if (source.empty())
        return 1;
    const fs::path destination = fs::path(work) / ("slim" + std::to_string(ranks) + "-summary");
    std::error_code ec;
    fs::remove_all(destination, ec);
    load::ProfileSlim::Options options;
    options.source = source;
    options.destination = destination.string();
    options.keep = load::ProfileSlim::Keep::Summary;
    const auto t0 = Clock::now();
    const auto result = load::ProfileSlim::run(options);
    const double seconds = secondsSince(t0);
    if (!result.error.empty()) {
        std::fprintf(stderr, "npuscope-bench slim: %s\n", result.error.c_str());
        return 1;
    }
    print("slim.ranks", ranks, "ranks");
    print("slim.source_mb", static_cast<double>(result.sourceBytes) / 1e6, "MB");
    print("slim.summary_mb", static_cast<double>(result.copiedBytes) / 1e6, "MB");
    print("slim.ratio", static_cast<double>(result.copiedBytes) / static_cast<double>(result.sourceBytes), "x input");
    print("slim.files", static_cast<double>(result.copiedFiles), "files");
    print("slim.source_files", static_cast<double>(result.sourceFiles), "files");
    print("slim.s", seconds, "s");
    fs::remove_all(destination, ec);
    return 0;
}

} // namespace npuscope::bench
