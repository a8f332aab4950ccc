// SPDX-License-Identifier: Apache-2.0
// npuscope-cli blame: per step, the ranks and links the cluster's waiting started from (query::BlameAnalysis).
#include "CliSupport.h"

#include "npuscope/query/BlameAnalysis.h"
#include "npuscope/query/CollectivesReport.h"

#include <iostream>
#include <limits>

namespace {


constexpr const char* kUsage = R"(  blame [--json] [--step N] [--no-cache] PATH...
      Per step, who held the cluster up: every delayed communication op is followed back through the ops its last
      arriver waited in to the rank (or link) where the delay began, with its cause (compute: longer computing
      than the ranks doing the same work; host: more device idle; link: transit far above the same size
      elsewhere; unknown), the wait it induced and its share of the step's, and the chain as evidence
      (docs/metrics.md). --json prints the npuscope.blame/1 document.
)";

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    std::optional<int64_t> step;
    npuscope::cli::Options options("blame");
    options.report(report).step([&](long long n) { step = n; });
    if (const auto status = options.parse(args))
        return *status;
    auto db = npuscope::cli::loadRanks("blame", report, npuscope::io::kNoGroup);
    if (!db)
        return 1;
    const auto blame = npuscope::query::BlameAnalysis::run(*db);
    npuscope::cli::printReport(
        report, [&] { return npuscope::query::CollectivesReport::blameJson(blame, step); },
        [&] { return npuscope::query::CollectivesReport::blameText(blame, step); });
    return std::cout ? 0 : 1;
}

const bool kRegistered = npuscope::cli::registerCommand({ "blame", kUsage, &run, 100 });

} // namespace
