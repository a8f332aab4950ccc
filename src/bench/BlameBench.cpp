// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench blame`: on a generated PP 4 x TP 8 cluster (or --path), the time to a blame answer from a warm parse
// cache (summary load + query::BlameAnalysis) against the summary load alone, measured in the same run. Issue 19's
// target: blame within 2 s more than summary on 1,024 ranks.

#include "BenchCases.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/BlameAnalysis.h"
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

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

} // namespace

int blameCluster(const std::vector<std::string>& args)
{
    int ranks = 1024;
    std::string work = (fs::temp_directory_path() / "npuscope-bench").string();
    std::string path;
    if (!parseArgs(args, { { "--ranks", &ranks, 32 } }, { { "--work", &work }, { "--path", &path } }))
        return 2;
    if (path.empty()) {
        auto g = pipelineCluster(work, "blame", ranks);
        g.clockSkewUs = 500;
        if (!generateOnce(g, "blame"))
            return 1;
        path = g.outDir;
    }
    const load::ParseCache cache({ (fs::path(work) / "blame-cache").string(), 64ull << 30 });
    const auto plan = warmPlan(path, cache, "blame"); // both timed opens below are warm
    if (!plan)
        return 1;
    auto t0 = Clock::now();
    auto db = openSummary(*plan, cache);
    const double summary = since(t0);
    t0 = Clock::now();
    db = openSummary(*plan, cache);
    const auto loaded = Clock::now();
    const auto result = query::BlameAnalysis::run(*db);
    const double analysis = since(loaded);
    const double cluster = since(t0);
    print("blame.ranks", static_cast<double>(plan->ranks.size()), "ranks");
    print("blame.instances", static_cast<double>(result.set.instances.size()), "instances");
    print("blame.summary_s", summary, "s");
    print("blame.analysis_s", analysis, "s");
    print("blame.cluster_s", cluster, "s");
    print("blame.extra_s", cluster - summary, "s");
    print("blame.peak_rss", peakRssMb(), "MB");
    return 0;
}

} // namespace npuscope::bench
