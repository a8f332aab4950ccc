// SPDX-License-Identifier: Apache-2.0
// npuscope-cli collectives: every communication op matched across its ranks (query::CollectiveInstances), by the
// wait it cost, with the root of its delay (query::BlameAnalysis).
#include "CliSupport.h"

#include "npuscope/query/BlameAnalysis.h"
#include "npuscope/query/CollectivesReport.h"

#include <iostream>
#include <limits>

namespace {


constexpr const char* kUsage = R"(  collectives [--json] [--step N] [--group G] [--top K] [--no-cache] PATH...
      Every communication op matched across the ranks of its group (same step, op name and group; a send with
      its receive), by wait cost: members with start, elapse, transit, wait, sync, the last arriver, the spread
      of the starts after the per-host clock offsets (estimated from collectives' common ends, listed), the wait
      the last arrival cost, and the root blame finds for it. --group takes a hash or a group name; --top K keeps
      the K most costly. --json prints the npuscope.collectives/1 document (times ms, starts us).
)";

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    npuscope::query::CollectivesFilter filter;
    npuscope::cli::Options options("collectives");
    options.report(report)
        .step([&](long long n) { filter.step = n; })
        .integer("--top", 1, std::numeric_limits<int>::max(), "a positive integer",
            [&](long long n) { filter.top = static_cast<size_t>(n); })
        .text("--group", [&](const std::string& g) { filter.group = g; });
    if (const auto status = options.parse(args))
        return *status;
    using npuscope::query::BlameAnalysis;
    using npuscope::query::CollectivesReport;
    return npuscope::cli::loadAndPrint(
        "collectives", report, npuscope::io::kNoGroup,
        [&](npuscope::model::Database& db) {
            return CollectivesReport::collectivesJson(db, BlameAnalysis::run(db), filter);
        },
        [&](npuscope::model::Database& db) {
            return CollectivesReport::collectivesText(db, BlameAnalysis::run(db), filter);
        });
}

const bool kRegistered = npuscope::cli::registerCommand({ "collectives", kUsage, &run, 100 });

} // namespace
