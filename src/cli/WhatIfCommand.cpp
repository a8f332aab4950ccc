// SPDX-License-Identifier: Apache-2.0
// npuscope-cli whatif: each step replayed on its dependency graph with changed durations (query::WhatIf).
#include "CliSupport.h"

#include "npuscope/query/CriticalPathReport.h"

namespace {

constexpr const char* kUsage = R"(  whatif [--json] [--step N] [--change SPEC]... [--no-cache] PATH...
      Replays each step on its dependency graph (the critical path's) with the changes applied together and prints
      the predicted step time next to the measured one, per rank, with the new critical path. SPEC:
      rank=R:compute=F (rank R's compute durations x F), op=NAME:F (that kernel name or type, or communication op,
      on every rank; a communication op's transit x F), rank=R:op=NAME:F, link=A-B:bandwidth=F (the link's
      bandwidth x F), rank=R:host=ideal (rank R's gaps between tasks at most the median gap). No --change replays
      the measured steps (a self-check). --json prints the npuscope.whatif/1 document (docs/metrics.md).
)";

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    std::optional<int64_t> step;
    std::vector<std::string> specs;
    npuscope::cli::Options options("whatif");
    options.report(report).step(step);
    options.text("--change", [&](const std::string& spec) { specs.push_back(spec); }, "a SPEC");
    if (const auto status = options.parse(args))
        return *status;
    std::vector<npuscope::query::WhatIfChange> changes;
    for (const auto& spec : specs) {
        std::string error;
        auto change = npuscope::query::WhatIfChange::parse(spec, error);
        if (!change)
            return options.error(error);
        changes.push_back(std::move(*change));
    }
    using npuscope::query::CriticalPathReport;
    using npuscope::query::WhatIf;
    return npuscope::cli::printGraphReport(
        "whatif", report, step,
        [&](const auto& graph) { return CriticalPathReport::whatIfJson(graph, WhatIf::run(graph, changes, step)); },
        [&](const auto& graph) { return CriticalPathReport::whatIfText(graph, WhatIf::run(graph, changes, step)); });
}

const bool kRegistered = npuscope::cli::registerCommand({ "whatif", kUsage, &run, 102 });

} // namespace
