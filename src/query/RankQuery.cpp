// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/RankQuery.h"

#include "npuscope/core/HostIpsMapping.h"
#include "npuscope/model/ReadRow.h"

#include <filesystem>
#include <map>

namespace npuscope::query {

namespace {

// host_ips_mapping.txt next to a rank table: "host_ip mapping_id" per line (lines with < 2 tokens ignored, as
// MindInsight does) -> mapping id -> host IP.
std::map<std::string, std::string> readHostMapping(const std::string& rankTablePath)
{
    std::map<std::string, std::string> out;
    const auto pairs
        = core::readHostIpsMapping(std::filesystem::path(rankTablePath).parent_path() / "host_ips_mapping.txt");
    for (const auto& [ip, id] : pairs.value_or(std::vector<std::pair<std::string, std::string>>()))
        out.emplace(id, ip);
    return out;
}

void resolveHostIps(std::vector<RankInfo>& ranks)
{
    std::map<std::string, std::map<std::string, std::string>> byTable; // rank table path -> id -> ip
    for (auto& r : ranks) {
        if (!r.host)
            continue;
        for (const auto& f : r.files) {
            if (f.kind != "rank_table")
                continue;
            auto it = byTable.find(f.path);
            if (it == byTable.end())
                it = byTable.emplace(f.path, readHostMapping(f.path)).first;
            if (const auto ip = it->second.find(*r.host); ip != it->second.end()) {
                r.host = ip->second;
                break;
            }
        }
    }
}

} // namespace

std::vector<RankInfo> RankQuery::ranks(model::Database& db, HostDisplay hosts)
{
    std::vector<RankInfo> out;
    std::map<int64_t, size_t> index;
    auto st = db.prepare("SELECT rank_id, device_id, path, rank_source, host, framework, profiler_level, version, "
                         "cann_version, world_size FROM rank ORDER BY rank_id");
    while (st.step()) {
        RankInfo r;
        model::readRow(st, r.rank, r.device, r.path, r.rankSource, r.host, r.framework, r.profilerLevel, r.version,
            r.cannVersion, r.worldSize);
        index[r.rank] = out.size();
        out.push_back(std::move(r));
    }
    auto files = db.prepare("SELECT rank_id, kind, path, status FROM rank_file ORDER BY rank_id, rowid");
    while (files.step()) {
        if (auto it = index.find(files.int64(0)); it != index.end())
            out[it->second].files.push_back({ files.text(1), files.text(2), files.text(3) });
    }
    if (hosts == HostDisplay::RealIp)
        resolveHostIps(out);
    return out;
}

std::map<int64_t, std::string> RankQuery::hosts(model::Database& db, HostDisplay display)
{
    std::map<int64_t, std::string> out;
    for (const auto& r : ranks(db, display)) {
        if (r.host)
            out.emplace(r.rank, *r.host);
    }
    return out;
}

int64_t RankQuery::rankCount(model::Database& db) { return db.scalarInt("SELECT COUNT(*) FROM rank").value_or(0); }

std::vector<int64_t> RankQuery::rankIds(model::Database& db)
{
    return model::readInts(db, "SELECT rank_id FROM rank ORDER BY rank_id");
}

std::vector<ParseIssue> IssueQuery::issues(model::Database& db)
{
    std::vector<ParseIssue> out;
    // Ranks are parsed on several threads, so insertion order (id) across ranks varies run to run; within a rank it is
    // the order the files were read. Issues without a rank (the plan's) first, then by rank: the same input always
    // lists its issues in the same order.
    auto st = db.prepare("SELECT id, severity, rank_id, file, line, message, message_template FROM parse_issue "
                         "ORDER BY rank_id IS NOT NULL, rank_id, id");
    while (st.step())
        out.push_back(
            { st.int64(0), st.text(1), st.optInt(2), st.optText(3), st.optInt(4), st.text(5), st.optText(6) });
    return out;
}

std::vector<ParseIssue> IssueQuery::rankIssues(model::Database& db, int64_t rank)
{
    std::vector<ParseIssue> out;
    auto st = db.prepare("SELECT id, severity, rank_id, file, line, message, message_template FROM parse_issue "
                         "WHERE rank_id = ?1 ORDER BY id");
    st.bind(1, rank);
    while (st.step())
        out.push_back(
            { st.int64(0), st.text(1), st.optInt(2), st.optText(3), st.optInt(4), st.text(5), st.optText(6) });
    return out;
}

int64_t IssueQuery::problemCount(model::Database& db)
{
    return db.scalarInt("SELECT COUNT(*) FROM parse_issue WHERE severity IN ('warning', 'error')").value_or(0);
}

} // namespace npuscope::query
