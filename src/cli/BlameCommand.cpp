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
    options.report(report).step(step);
    if (const auto status = options.parse(args))
        return *status;
    using npuscope::query::BlameAnalysis;
    using npuscope::query::CollectivesReport;
    return npuscope::cli::loadAndPrint(
        "blame", report, npuscope::io::kNoGroup,
        [&](npuscope::model::Database& db) { return CollectivesReport::blameJson(BlameAnalysis::run(db), step); },
        [&](npuscope::model::Database& db) { return CollectivesReport::blameText(BlameAnalysis::run(db), step); });
}

const bool kRegistered = npuscope::cli::registerCommand({ "blame", kUsage, &run, 100 });

} // namespace
