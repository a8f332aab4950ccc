// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench advise`: on a generated PP 4 x TP 8 cluster (or --path), the cost of the advice after a summary
// open, cold (a fresh model each time, as after an open in the window, where Advice is the longest query) and by
// part: the two communication indexes, the link table and the rules on warm indexes. The fastest of --repeat runs
// of each; the summary open (warm parse cache) of the same run for scale.

#include "BenchCases.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace npuscope::bench {

int adviseCluster(const std::vector<std::string>& args)
{
    int ranks = 1024;
    int repeat = 3;
    std::string work = defaultWorkDir();
    std::string path;
    if (!parseArgs(args, { { "--ranks", &ranks, 32 }, { "--repeat", &repeat, 1 } },
            { { "--work", &work }, { "--path", &path } }))
        return 2;
    auto g = pipelineCluster(work, "advise", ranks);
    g.slowLink = std::pair(3, 11);
    const auto warm = warmCluster(path, g, work, "advise"); // every timed open below is warm
    if (!warm)
        return 1;
    const load::ParseCache& cache = *warm->cache;
    const io::LoadPlan& plan = warm->plan;
    constexpr double kNone = std::numeric_limits<double>::infinity();
    double open = kNone, cold = kNone, opIndex = kNone, linkIndex = kNone, linkTable = kNone, rules = kNone;
    size_t findings = 0, links = 0;
    for (int i = 0; i < repeat; ++i) {
        std::unique_ptr<model::Database> db;
        open = std::min(open, secondsOf([&] { db = openSummary(plan, cache); }));
        cold = std::min(cold, secondsOf([&] { findings = query::advice::AdviceQuery::run(*db, {}).size(); }));
        db = openSummary(plan, cache);
        opIndex = std::min(opIndex, secondsOf([&] { query::CommOpIndex::forDatabase(*db); }));
        linkIndex = std::min(linkIndex, secondsOf([&] { query::CommLinkIndex::forDatabase(*db); }));
        linkTable
            = std::min(linkTable, secondsOf([&] { links = query::CommAnalysisQuery::linkTable(*db, {}).size(); }));
        rules = std::min(rules, secondsOf([&] { query::advice::AdviceQuery::run(*db, {}); }));
    }
    print("advise.ranks", static_cast<double>(plan.ranks.size()), "ranks");
    print("advise.findings", static_cast<double>(findings), "findings");
    print("advise.links", static_cast<double>(links), "rows");
    print("advise.summary_open_s", open, "s");
    print("advise.cold_s", cold, "s");
    print("advise.op_index_s", opIndex, "s");
    print("advise.link_index_s", linkIndex, "s");
    print("advise.link_table_s", linkTable, "s");
    print("advise.rules_warm_s", rules, "s");
    print("advise.cold_over_open", open > 0 ? cold / open : 0, "x");
    print("advise.peak_rss", peakRssMb(), "MB");
    return 0;
}

} // namespace npuscope::bench
