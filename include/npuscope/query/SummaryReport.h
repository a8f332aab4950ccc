// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <nlohmann/json.hpp>

#include <string>

namespace npuscope::query {

// The "npuscope.summary/1" document (stable contract: fields are added, never renamed).
// Absent values are null, never 0; step values are µs; link src/dst are global ranks.
class SummaryReport {
public:
    static nlohmann::ordered_json json(model::Database& db);
    // Human-readable tables: ranks, steps, cluster statistics, groups, slowest links, issues.
    static std::string text(model::Database& db);
};

} // namespace npuscope::query
