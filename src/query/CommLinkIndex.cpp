// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommLinkIndex.h"

#include <algorithm>

namespace npuscope::query {

std::shared_ptr<const CommLinkIndex> CommLinkIndex::build(model::Database& db)
{
    auto index = std::make_shared<CommLinkIndex>();
    auto intern = [&](const std::optional<std::string>& s) -> int32_t {
        if (!s)
            return -1;
        auto [it, inserted] = index->m_ids.emplace(*s, static_cast<int32_t>(index->m_strings.size()));
        if (inserted)
            index->m_strings.push_back(*s);
        return it->second;
    };
    index->m_localGroups = CommQuery::localRankGroups(db);
    // A group with unknown global ranks keeps its rows with the local ranks as written (docs/metrics.md).
    auto st
        = db.prepare(std::string("SELECT rank_id, step, matrix_op, op_type, slot, group_hash, src, dst, transport, "
                                 "size_mb, time_ns, bandwidth_gbps, op_name, local_src, local_dst, lg.g IS NOT NULL "
                                 "FROM comm_link LEFT JOIN (")
            + CommQuery::localRankGroupsSql() + ") lg ON lg.g = COALESCE(comm_link.group_hash, '')");
    while (st.step()) {
        const bool local = st.int64(15) != 0;
        const int srcCol = local ? 13 : 6, dstCol = local ? 14 : 7;
        if (st.isNull(srcCol) || st.isNull(dstCol))
            continue;
        Row r;
        r.local = local;
        r.reportedBy = static_cast<int32_t>(st.int64(0));
        r.hasStep = !st.isNull(1);
        r.step = r.hasStep ? st.int64(1) : 0;
        r.matrixOp = intern(st.optText(2));
        r.opType = intern(st.optText(3));
        r.slot = intern(st.optText(4));
        r.group = intern(st.optText(5));
        r.src = static_cast<int32_t>(st.int64(srcCol));
        r.dst = static_cast<int32_t>(st.int64(dstCol));
        r.transport = intern(st.optText(8));
        r.sizeMb = st.optReal(9).value_or(0.0);
        r.timeNs = st.optInt(10).value_or(0);
        r.bandwidthGbps = st.optReal(11).value_or(0.0);
        r.opName = intern(st.optText(12));
        index->m_rows.push_back(r);
    }
    // Rows without a step sort first and are only returned for "every step".
    std::stable_sort(index->m_rows.begin(), index->m_rows.end(), [](const Row& a, const Row& b) {
        return std::make_pair(a.hasStep, a.step) < std::make_pair(b.hasStep, b.step);
    });
    for (size_t i = 0; i < index->m_rows.size();) {
        size_t j = i;
        while (j < index->m_rows.size() && index->m_rows[j].hasStep == index->m_rows[i].hasStep
            && index->m_rows[j].step == index->m_rows[i].step)
            ++j;
        if (index->m_rows[i].hasStep)
            index->m_steps.push_back({ index->m_rows[i].step, { i, j } });
        i = j;
    }
    std::unordered_map<std::string, size_t> groupIndex;
    auto groups = db.prepare("SELECT group_hash, name FROM comm_group ORDER BY group_hash");
    while (groups.step()) {
        Group g;
        g.hash = groups.text(0);
        g.name = groups.optText(1);
        groupIndex.emplace(g.hash, index->m_groups.size());
        index->m_groups.push_back(std::move(g));
    }
    auto members = db.prepare("SELECT group_hash, global_rank FROM comm_group_rank ORDER BY group_hash, local_rank");
    while (members.step()) {
        if (auto it = groupIndex.find(members.text(0)); it != groupIndex.end())
            index->m_groups[it->second].ranks.push_back(members.int64(1));
    }
    return index;
}

std::shared_ptr<const CommLinkIndex> CommLinkIndex::forDatabase(model::Database& db)
{
    return db.cached<CommLinkIndex>([](model::Database& d) { return build(d); });
}

std::pair<const CommLinkIndex::Row*, const CommLinkIndex::Row*> CommLinkIndex::rows(std::optional<int64_t> step) const
{
    const Row* base = m_rows.data();
    if (!step)
        return { base, base + m_rows.size() };
    for (const auto& [s, range] : m_steps) {
        if (s == *step)
            return { base + range.first, base + range.second };
    }
    return { base, base };
}

int32_t CommLinkIndex::id(const std::string& s) const
{
    auto it = m_ids.find(s);
    return it == m_ids.end() ? -1 : it->second;
}

} // namespace npuscope::query
