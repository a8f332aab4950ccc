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

int blameCluster(const std::vector<std::string>& args)
{
    int status = 0;
    const auto warm = warmPipelineCase(args, "blame", [](testgen::GeneratorOptions& g) { g.clockSkewUs = 500; }, status);
    if (!warm)
        return status;
    const load::ParseCache& cache = *warm->cache;
    const io::LoadPlan& plan = warm->plan;
    auto t0 = Clock::now();
    auto db = openSummary(plan, cache);
    const double summary = secondsSince(t0);
    t0 = Clock::now();
    db = openSummary(plan, cache);
    const auto loaded = Clock::now();
    const auto result = query::BlameAnalysis::run(*db);
    const double analysis = secondsSince(loaded);
    const double cluster = secondsSince(t0);
    print("blame.ranks", static_cast<double>(plan.ranks.size()), "ranks");
    print("blame.instances", static_cast<double>(result.set.instances.size()), "instances");
    print("blame.summary_s", summary, "s");
    print("blame.analysis_s", analysis, "s");
    print("blame.cluster_s", cluster, "s");
    print("blame.extra_s", cluster - summary, "s");
    print("blame.peak_rss", peakRssMb(), "MB");
    return 0;
}

} // namespace npuscope::bench
