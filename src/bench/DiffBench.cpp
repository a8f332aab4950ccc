// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench diff`: issue 20's target, `npuscope-cli diff --json` of two 1,024-rank TP 8 x PP 4 clusters within 2x
// the time and memory of `summary --json` of one of them, both measured in the same run as child processes: cold (each
// through its own empty parse cache, which it fills), warm (again, reading it) and with --no-cache.

#include "BenchCases.h"

#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace npuscope::bench {

int diffRuns(const std::vector<std::string>& args)
{
    int ranks = 1024;
    std::string work = defaultWorkDir();
    std::string cli = cliExe();
    if (!parseArgs(args, { { "--ranks", &ranks, 32 } }, { { "--work", &work }, { "--cli", &cli } }))
        return 2;
    std::vector<std::string> paths;
    for (const std::optional<int> slow : { std::optional<int>(), std::optional<int>(5) }) {
        testgen::GeneratorOptions g;
        g.outDir = (fs::path(work) / ("diff" + std::to_string(ranks) + (slow ? "-slow5" : ""))).string();
        g.ranks = ranks / 32 * 32;
        g.pp = 4;
        g.tp = 8;
        g.traceMb = 0;
        g.slowRank = slow;
        if (!generateOnce(g, "diff"))
            return 1;
        paths.push_back(g.outDir);
    }
    const std::string out = (fs::path(work) / "diff.out").string();
    const std::vector<std::string> summary { cli, "summary", "--json", paths[1] };
    const std::vector<std::string> diff { cli, "diff", "--json", paths[0], paths[1] };
    auto with = [](std::vector<std::string> argv, const char* extra) {
        argv.insert(argv.begin() + 2, extra);
        return argv;
    };
    // Cold: each command through its own empty parse cache ($XDG_CACHE_HOME), which it fills, as a first open does.
    // Warm: the same commands again, each reading the cache it filled. No cache: --no-cache (parse, nothing stored).
    const fs::path cacheRoot = fs::path(work) / "diff-cache";
    std::error_code ec;
    fs::remove_all(cacheRoot, ec);
    auto useCache = [&cacheRoot](const char* name) {
        const std::string dir = (cacheRoot / name).string();
        fs::create_directories(dir);
        ::setenv("XDG_CACHE_HOME", dir.c_str(), 1);
    };
    struct Pair {
        const char* name;
        ChildRun summary, diff;
    };
    std::vector<Pair> pairs;
    {
        Pair cold { "cold", {}, {} };
        useCache("summary");
        cold.summary = runMeasured(summary, out);
        useCache("diff");
        cold.diff = runMeasured(diff, out);
        Pair warm { "warm", {}, {} };
        useCache("summary");
        warm.summary = runMeasured(summary, out);
        useCache("diff");
        warm.diff = runMeasured(diff, out);
        Pair none { "no_cache", runMeasured(with(summary, "--no-cache"), out),
            runMeasured(with(diff, "--no-cache"), out) };
        pairs = { cold, warm, none };
    }
    fs::remove(out, ec);
    fs::remove_all(cacheRoot, ec);
    print("diff.ranks", static_cast<double>(ranks / 32 * 32), "ranks");
    bool ok = true;
    for (const auto& p : pairs) {
        if (!p.summary.ok || !p.diff.ok) {
            std::fprintf(stderr, "npuscope-bench diff: %s failed (%s) on %s\n", cli.c_str(), p.name, work.c_str());
            ok = false;
            continue;
        }
        const std::string n = p.name;
        print("diff." + n + ".summary_s", p.summary.seconds, "s");
        print("diff." + n + ".diff_s", p.diff.seconds, "s");
        print("diff." + n + ".time_ratio", p.diff.seconds / std::max(1e-9, p.summary.seconds), "x summary");
        print("rss.diff." + n + ".summary_mb", p.summary.peakRssMb, "MB");
        print("rss.diff." + n + ".diff_mb", p.diff.peakRssMb, "MB");
        print("rss.diff." + n + ".ratio", p.diff.peakRssMb / std::max(1e-9, p.summary.peakRssMb), "x summary");
    }
    if (!ok)
        return 1;
    return 0;
}

} // namespace npuscope::bench
