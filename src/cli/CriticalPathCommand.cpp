// SPDX-License-Identifier: Apache-2.0
// npuscope-cli critical-path: per step, the chain of tasks across ranks that decided the step time
// (query::CriticalPath on query::DependencyGraph).
#include "CliSupport.h"

#include "npuscope/query/CriticalPathReport.h"

namespace {

constexpr const char* kUsage = R"(  critical-path [--json] [--step N] [--no-cache] PATH...
      Per step, the critical path from the step's start to its end on the slowest rank, through every rank's
      kernels and communication ops: at a collective the path moves to the member that arrived last, at a receive to
      its send. Segments are compute, communication, host (the device waiting for the host) or idle (before the
      first task); shares per rank and per link, each operator's serial and parallel time and the communication ops
      with the most serial time (docs/metrics.md). --json prints the npuscope.critical_path/1 document.
)";

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    std::optional<int64_t> step;
    if (const auto status = npuscope::cli::Options("critical-path").report(report).step(step).parse(args))
        return *status;
    using npuscope::query::CriticalPath, npuscope::query::CriticalPathReport;
    return npuscope::cli::printGraphReport(
        "critical-path", report, step,
        [&](const auto& graph) { return CriticalPathReport::criticalPathJson(graph, CriticalPath::run(graph, step)); },
        [&](const auto& graph) { return CriticalPathReport::criticalPathText(graph, CriticalPath::run(graph, step)); });
}

const bool kRegistered = npuscope::cli::registerCommand({ "critical-path", kUsage, &run, 101 });

} // namespace
