// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/OperatorOccurrences.h"

#include <algorithm>
#include <tuple>

namespace npuscope::query {

OperatorOccurrences::Kernels OperatorOccurrences::kernels(
    model::Database& db, OperatorGroupBy by, const std::string& key, std::optional<int64_t> rank)
{
    // The same keys OperatorQuery::build makes: Type ("(no type)" for none), Name, or "Name [Input Shapes]" (the
    // Name alone for a kernel without shapes).
    std::string where;
    switch (by) {
    case OperatorGroupBy::Type:
        where = "(k.type_id IN (SELECT id FROM string WHERE value = ?1) OR (k.type_id IS NULL AND ?1 = '(no type)'))";
        break;
    case OperatorGroupBy::Name:
        where = "k.name_id IN (SELECT id FROM string WHERE value = ?1)";
        break;
    case OperatorGroupBy::Shape:
        where = "(CASE WHEN k.input_shapes IS NULL OR k.input_shapes = '' THEN s.value "
                "ELSE s.value || ' [' || k.input_shapes || ']' END) = ?1";
        break;
    }
    auto st = db.prepare("SELECT k.rank_id, k.name_id, k.ts FROM kernel k JOIN string s ON s.id = k.name_id WHERE "
        + where + " AND (?2 IS NULL OR k.rank_id = ?2)");
    st.bind(1, key).bind(2, rank);
    Kernels out;
    while (st.step()) {
        const int64_t r = st.int64(0);
        out.nameIds[r].insert(st.int64(1));
        out.starts[r].insert(st.int64(2));
        ++out.count;
    }
    return out;
}

std::vector<SearchHit> OperatorOccurrences::find(const Kernels& kernels, const std::vector<RankTimelinePtr>& ranks)
{
    std::vector<SearchHit> hits;
    for (const auto& tl : ranks) {
        if (!tl)
            continue;
        const auto names = kernels.nameIds.find(tl->rank);
        if (names == kernels.nameIds.end())
            continue;
        const auto& starts = kernels.starts.at(tl->rank);
        std::vector<SearchHit> byName;
        const size_t first = hits.size();
        for (int t = 0; t < static_cast<int>(tl->tracks.size()); ++t) {
            const auto& levels = tl->tracks[static_cast<size_t>(t)].levels;
            for (int d = 0; d < static_cast<int>(levels.size()); ++d) {
                const SliceLevel& level = levels[static_cast<size_t>(d)];
                for (size_t i = 0; i < level.size(); ++i) {
                    if (!names->second.count(level.nameId[i]))
                        continue;
                    SearchHit h { tl->rank, SliceRef { t, d, i }, level.start[i], level.end[i] };
                    if (starts.count(level.start[i]))
                        hits.push_back(h);
                    else
                        byName.push_back(h);
                }
            }
        }
        if (hits.size() == first)
            hits.insert(hits.end(), byName.begin(), byName.end());
        std::sort(hits.begin() + static_cast<std::ptrdiff_t>(first), hits.end(), [](const auto& a, const auto& b) {
            return std::tie(a.start, a.ref.track, a.ref.depth, a.ref.index)
                < std::tie(b.start, b.ref.track, b.ref.depth, b.ref.index);
        });
    }
    return hits;
}

} // namespace npuscope::query
