// SPDX-License-Identifier: Apache-2.0
// npuscope-cli pipeline: each rank's MindSpore data pipeline (text, or npuscope.pipeline/1).
#include "CliSupport.h"

#include "npuscope/query/PipelineReport.h"

namespace {

constexpr const char* kUsage = R"(  pipeline [--json] [--no-cache] PATH...
      Each rank's MindSpore data pipeline (minddata_pipeline_raw / pipeline_profiling,
      minddata_cpu_utilization, device_queue_profiling): the dataset operators from the sources to the device
      queue with their workers, output queue capacity and usage, CPU use per operator and for the process, how
      often the device queue was empty, and the bottleneck operator with the rule that found it (or why there is
      none). --json prints the npuscope.pipeline/1 document (docs/metrics.md, "Data pipeline").
)";

int run(const std::vector<std::string>& args)
{
    return npuscope::cli::runReport<npuscope::query::PipelineReport>("pipeline", args);
}

const bool kRegistered = npuscope::cli::registerCommand({ "pipeline", kUsage, &run, 55 });

} // namespace
