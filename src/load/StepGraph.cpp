// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/StepGraph.h"

#include "npuscope/load/Loader.h"
#include "npuscope/query/RankQuery.h"

namespace npuscope::load {

query::DependencyGraph loadDependencyGraph(
    model::Database& db, std::optional<int64_t> step, const ParseCache* cache, bool* imported)
{
    std::vector<int64_t> ranks;
    {
        auto guard = db.lock();
        ranks = query::RankQuery::rankIds(db);
    }
    const bool arrived = Loader::loadStepKernels(db, ranks, step, {}, nullptr, cache);
    if (imported)
        *imported = arrived;
    return query::DependencyGraphBuilder::build(db, step);
}

} // namespace npuscope::load
