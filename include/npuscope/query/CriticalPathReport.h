// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CriticalPath.h"
#include "npuscope/query/WhatIf.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace npuscope::query {

// `npuscope-cli critical-path` ("npuscope.critical_path/1") and `npuscope-cli whatif` ("npuscope.whatif/1"): times
// in ms, starts in µs on the rank's own clock, ranks global (docs/metrics.md). Any thread.
class CriticalPathReport {
public:
    static constexpr size_t kOperators = 20; // operators listed per step, by serial time

    static nlohmann::ordered_json criticalPathJson(
        const DependencyGraph& graph, const std::vector<CriticalPathStep>& steps);
    static std::string criticalPathText(const DependencyGraph& graph, const std::vector<CriticalPathStep>& steps);
    static nlohmann::ordered_json whatIfJson(const DependencyGraph& graph, const WhatIfResult& result);
    static std::string whatIfText(const DependencyGraph& graph, const WhatIfResult& result);
};

} // namespace npuscope::query
