// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/FlopsQuery.h"

#include <algorithm>

namespace npuscope::query {

FlopsSummary FlopsQuery::perRank(model::Database& db, std::optional<int64_t> step)
{
    FlopsSummary out;
    // A rank's kernel table when imported, else its kernel_total rows (Loader::loadKernelTotals; the loader drops
    // them when the kernel table arrives, so no rank is counted twice). Same sums either way.
    auto st = db.prepare(
        "SELECT rank_id, SUM(n), TOTAL(f), TOTAL(d) FROM ("
        "SELECT rank_id, COUNT(flops) AS n, TOTAL(flops) AS f, TOTAL(CASE WHEN flops IS NOT NULL THEN dur END) AS d "
        "FROM kernel WHERE ?1 IS NULL OR step = ?1 GROUP BY rank_id "
        "UNION ALL SELECT rank_id, SUM(flops_kernels), TOTAL(flops), TOTAL(flops_dur_ns) "
        "FROM kernel_total WHERE ?1 IS NULL OR step = ?1 GROUP BY rank_id) GROUP BY rank_id ORDER BY rank_id");
    if (step)
        st.bind(1, *step);
    double busiest = 0;
    while (st.step()) {
        RankFlops r;
        r.rank = st.int64(0);
        r.kernels = st.int64(1);
        r.flops = st.real(2);
        r.computeNs = static_cast<int64_t>(st.real(3));
        out.recorded = out.recorded || r.kernels > 0;
        busiest = std::max(busiest, r.flops);
        out.ranks.push_back(r);
    }
    for (auto& r : out.ranks)
        r.relative = busiest > 0 ? r.flops / busiest : 0.0;
    return out;
}

} // namespace npuscope::query
