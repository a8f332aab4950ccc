// SPDX-License-Identifier: Apache-2.0
// npuscope-cli ops: operator (kernel) figures per rank and key, or two ranks compared (text, or npuscope.ops/1).
#include "CliSupport.h"

#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/OperatorReport.h"
#include "npuscope/query/RankQuery.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>

namespace {

constexpr const char* kUsage = R"(  ops [--json] [--rank R] [--compare R2] [--group-by type|name|shape] [--no-cache] PATH...
      Operator (kernel) figures from kernel_details.csv / op_summary / the db exports' kernel tables (of the
      per-rank deferred files only the kernel files are imported, not the timelines or memory rows): per rank and key over all loaded steps the count, total, mean, min,
      max and summed wait time (µs), keyed by op type (default), op name, or op name and input shapes; one
      rank with --rank. --compare R2 (needs --rank R) matches R's keys with R2's and adds R2's total and the
      difference R2 − R, sorted by difference descending (the slower card's extra time on top). --json
      prints the npuscope.ops/1 document. The parse cache is used as by summary (--no-cache: not).
)";

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    npuscope::query::OperatorSelection sel;
    constexpr long long kMin = std::numeric_limits<int32_t>::min(), kMax = std::numeric_limits<int32_t>::max();
    npuscope::cli::Options options("ops");
    options.report(report)
        .integer("--rank", kMin, kMax, "a rank", [&](long long n) { sel.rank = n; })
        .integer("--compare", kMin, kMax, "a rank", [&](long long n) { sel.compareRank = n; })
        .value("--group-by", "type, name or shape", sel.groupBy, npuscope::query::groupByFromName);
    if (const auto status = options.parse(args))
        return *status;
    if (sel.compareRank && !sel.rank)
        return options.error("--compare needs --rank (the baseline rank)");
    // Kernel rows live in the deferred per-rank files: import their Kernels group only (no timeline, no memory).
    auto db = npuscope::cli::loadRanks("ops", report, npuscope::io::kKernelsGroup);
    if (!db)
        return 1;
    const auto loaded = npuscope::query::RankQuery::ranks(*db);
    for (const auto& rank : { sel.rank, sel.compareRank }) {
        if (rank && std::none_of(loaded.begin(), loaded.end(), [&](const auto& r) { return r.rank == *rank; }))
            return options.error("rank " + std::to_string(*rank) + " is not loaded");
    }
    if (npuscope::query::OperatorQuery::forDatabase(*db)->size() == 0)
        std::cerr << "npuscope-cli ops: the loaded data has no kernel rows (kernel_details.csv, op_summary or a db "
                     "export's kernel tables)\n";
    npuscope::cli::printReport(
        report, [&] { return npuscope::query::OperatorReport::json(*db, sel); },
        [&] { return npuscope::query::OperatorReport::text(*db, sel); });
    return 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "ops", kUsage, &run, 60 });

} // namespace
