// SPDX-License-Identifier: Apache-2.0
// npuscope-cli strategy: the parallel strategy graph of each pipeline stage (text, or npuscope.strategy/1).
#include "CliSupport.h"

#include "npuscope/query/StrategyReport.h"

namespace {

constexpr const char* kUsage = R"(  strategy [--json] [--no-cache] PATH...
      The parallel strategy graph of each pipeline stage of a MindSpore job (parallel_strategy_{rank}.json): its
      ranks, the rank whose graph is read, node and edge counts, counts by operator type, the special operators
      (sharded by a strategy, redistribution, gradient aggregation) and the Send→Receive pairs joining the stages.
      --json prints the npuscope.strategy/1 document (docs/metrics.md, "Parallel strategy graph").
)";

int run(const std::vector<std::string>& args)
{
    return npuscope::cli::runReport<npuscope::query::StrategyReport>("strategy", args);
}

const bool kRegistered = npuscope::cli::registerCommand({ "strategy", kUsage, &run, 56 });

} // namespace
