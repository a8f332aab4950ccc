// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/load/ParseCache.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/DependencyGraph.h"

#include <cstdint>
#include <optional>

namespace npuscope::load {

// The dependency graph (query::DependencyGraph) of step (every step: nullopt) of every loaded rank, as the critical
// path, what-if and the Critical path view read it: first each rank's kernel rows of the step whose kernel files are
// not imported (Loader::loadStepKernels, through cache when given), then DependencyGraphBuilder::build. imported, when
// given, says whether kernel rows arrived (their parse issues with them). Any thread except one holding db.lock().
query::DependencyGraph loadDependencyGraph(
    model::Database& db, std::optional<int64_t> step, const ParseCache* cache, bool* imported = nullptr);

} // namespace npuscope::load
