// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MetricDefinitions.h"

#include <array>

namespace npuscope::query {

namespace {

// Copied from docs/metrics.md ("Step breakdown" table and the lines under it); MetricDefinitionsTest keeps them equal.
constexpr std::array kDefinitions {
    MetricDefinition {
        "Computing", "time the device runs compute kernels (AI Core, AI Vector, AI CPU, …) in the step" },
    MetricDefinition { "Communication(Not Overlapped)", "communication time not hidden by computing" },
    MetricDefinition { "Overlapped", "computing time that overlaps communication" },
    MetricDefinition {
        "Communication", "all communication time; `Communication = Communication(Not Overlapped) + Overlapped`" },
    MetricDefinition { "Free", "device idle time (neither computing nor communicating)" },
    MetricDefinition { "Stage", "step time without Bubble for pipeline stages" },
    MetricDefinition { "Bubble", "pipeline bubble: time spent waiting in PP receive ops" },
    MetricDefinition {
        "Communication(Not Overlapped and Exclude Receive)", "Communication(Not Overlapped) minus receive waiting" },
    MetricDefinition {
        "Preparing", "time from the step start to the first device task (absent before 2024 builds → NULL)" },
    MetricDefinition { "Step wall time", "Computing + Communication(Not Overlapped) + Free + Preparing" },
    MetricDefinition { "Slowest rank",
        "the rank with the largest step wall time summed over all its steps (in one step: that step's wall time)" },
};

} // namespace

std::span<const MetricDefinition> MetricDefinitions::all() { return kDefinitions; }

std::string_view MetricDefinitions::of(std::string_view name)
{
    for (const auto& d : kDefinitions) {
        if (d.name == name)
            return d.definition;
    }
    return {};
}

} // namespace npuscope::query
