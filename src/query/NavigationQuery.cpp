// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/NavigationQuery.h"

#include "npuscope/query/StepQuery.h"

#include <set>

namespace npuscope::query {

NavigationTargets NavigationQuery::targets(model::Database& db)
{
    NavigationTargets out;
    {
        auto st = db.prepare("SELECT rank_id FROM rank ORDER BY rank_id");
        while (st.step())
            out.ranks.push_back(st.int64(0));
    }
    out.steps = StepQuery::steps(db);
    std::set<std::string> seen;
    auto add = [&](std::string name) {
        if (out.operatorTypes.size() < NavigationTargets::kMaxOperators && !name.empty() && seen.insert(name).second)
            out.operatorTypes.push_back(std::move(name));
    };
    {
        auto st = db.prepare("SELECT op_type FROM op_statistic GROUP BY op_type ORDER BY SUM(total_ns) DESC, op_type");
        while (st.step())
            add(st.text(0));
    }
    return out;
}

} // namespace npuscope::query
