// SPDX-License-Identifier: Apache-2.0
// npuscope-cli summary: every rank's summary (text, or the npuscope.summary/1 document).
#include "CliSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/query/SummaryReport.h"

#include <iostream>

namespace {

constexpr const char* kUsage = R"(  summary [--json] [--with-timeline] [--no-cache] [--show-host-ips] PATH...
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
)";

int run(const std::vector<std::string>& args)
{
    bool json = false, timeline = false, noCache = false, realIps = false;
    std::vector<std::string> paths;
    npuscope::cli::Options options("summary");
    options.flag("--json", json)
        .flag("--with-timeline", timeline)
        .flag("--no-cache", noCache)
        .flag("--show-host-ips", realIps)
        .paths(paths);
    if (const auto status = options.parse(args))
        return *status;
    const auto hosts = realIps ? npuscope::query::HostDisplay::RealIp : npuscope::query::HostDisplay::MappingId;
    const auto plan = npuscope::io::Detector::detect(paths);
    auto db = npuscope::cli::loadPlan(plan, timeline ? npuscope::io::kAllGroups : npuscope::io::kNoGroup, !noCache);
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

const bool kRegistered = npuscope::cli::registerCommand({ "summary", kUsage, &run, 10 });

} // namespace
