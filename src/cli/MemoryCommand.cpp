// SPDX-License-Identifier: Apache-2.0
// npuscope-cli memory: each rank's memory peak (text, or npuscope.memory/1).
#include "CliSupport.h"

#include "npuscope/query/MemoryReport.h"

#include <iostream>
#include <optional>

namespace {

constexpr const char* kUsage = R"(  memory [--json] [--capacity-gb G] [--no-cache] PATH...
      Each rank's memory peak from memory_record: peak reserved (the APP component, the whole process on the
      device, where recorded, else PTA+GE, else PTA), when and from which component, peak allocated (PTA+GE,
      else PTA), and with --capacity-gb (the device memory, e.g. 64; no profile records it) the share of it.
      --json prints the npuscope.memory/1 document (docs/metrics.md). The peaks are folded from memory_record
      while the summary loads (no memory_record row is imported). The parse cache is used as by summary.
)";

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    std::optional<double> capacityMb;
    npuscope::cli::Options options("memory");
    options.report(report).value("--capacity-gb", "a positive number", capacityMb, npuscope::cli::parseCapacityMb);
    if (const auto status = options.parse(args))
        return *status;
    // The peaks were folded from memory_record at summary load (memory_peak): no memory_record row is imported.
    auto db = npuscope::cli::loadRanks("memory", report, npuscope::io::kNoGroup);
    if (!db)
        return 1;
    npuscope::cli::printReport(
        report, [&] { return npuscope::query::MemoryReport::json(*db, capacityMb); },
        [&] { return npuscope::query::MemoryReport::text(*db, capacityMb); });
    return 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "memory", kUsage, &run, 50 });

} // namespace
