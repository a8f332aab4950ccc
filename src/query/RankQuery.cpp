// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/RankQuery.h"

#include <map>

namespace npuscope::query {

std::vector<RankInfo> RankQuery::ranks(model::Database& db)
{
    std::vector<RankInfo> out;
    std::map<int64_t, size_t> index;
    auto st = db.prepare("SELECT rank_id, device_id, path, rank_source, host, framework, profiler_level, version, "
                         "cann_version, world_size FROM rank ORDER BY rank_id");
    while (st.step()) {
        RankInfo r;
        r.rank = st.int64(0);
        r.device = st.optInt(1);
        r.path = st.text(2);
        r.rankSource = st.text(3);
        r.host = st.optText(4);
        r.framework = st.optText(5);
        r.profilerLevel = st.optText(6);
        r.version = st.optText(7);
        r.cannVersion = st.optText(8);
        r.worldSize = st.optInt(9);
        index[r.rank] = out.size();
        out.push_back(std::move(r));
    }
    auto files = db.prepare("SELECT rank_id, kind, path, status FROM rank_file ORDER BY rank_id, rowid");
    while (files.step()) {
        if (auto it = index.find(files.int64(0)); it != index.end())
            out[it->second].files.push_back({ files.text(1), files.text(2), files.text(3) });
    }
    return out;
}

int64_t RankQuery::rankCount(model::Database& db) { return db.scalarInt("SELECT COUNT(*) FROM rank").value_or(0); }

std::vector<ParseIssue> IssueQuery::issues(model::Database& db)
{
    std::vector<ParseIssue> out;
    auto st = db.prepare("SELECT id, severity, rank_id, file, line, message FROM parse_issue ORDER BY id");
    while (st.step())
        out.push_back({ st.int64(0), st.text(1), st.optInt(2), st.optText(3), st.optInt(4), st.text(5) });
    return out;
}

int64_t IssueQuery::problemCount(model::Database& db)
{
    return db.scalarInt("SELECT COUNT(*) FROM parse_issue WHERE severity IN ('warning', 'error')").value_or(0);
}

} // namespace npuscope::query
