// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/advice/Finding.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace npuscope::query::advice {

// `npuscope-cli advise`: the findings as the "npuscope.advice/1" document (docs/metrics.md, "npuscope.advice/1") or
// as text, one block per finding. Pure functions; any thread.
class AdviceReport {
public:
    static constexpr const char* kSchema = "npuscope.advice/1";
    static nlohmann::ordered_json json(const std::vector<Finding>& findings);
    static std::string text(const std::vector<Finding>& findings);
};

} // namespace npuscope::query::advice
