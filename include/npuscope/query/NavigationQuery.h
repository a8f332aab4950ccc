// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npuscope::query {

// What the GUI's command palette can go to in a loaded model: its ranks, its steps and its operator types.
struct NavigationTargets {
    std::vector<int64_t> ranks; // ascending
    std::vector<int64_t> steps; // ascending
    // Operator types, costliest first: op_statistic's OP Type summed over ranks (read at summary time, so no kernel
    // table is imported for the palette). At most kMaxOperators.
    std::vector<std::string> operatorTypes;
    static constexpr size_t kMaxOperators = 2000;
};

class NavigationQuery {
public:
    // The caller holds the database lock.
    static NavigationTargets targets(model::Database& db);
};

} // namespace npuscope::query
