// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/PostLoad.h"

#include "npuscope/core/GroupHash.h"
#include "npuscope/model/ClusterSummaryWriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace npuscope::model {

namespace {

struct GroupInfo {
    std::optional<std::string> rawName, name;
    std::string source = "unknown";
    std::map<int64_t, int64_t> localToGlobal;
};

// ranks_source of a group taken from msprof-analyze's group list (cluster_comm_group.source).
bool isGroupListSource(const std::string& source)
{
    return source == "communication_group.json" || source == "cluster_analysis.db";
}

} // namespace

void PostLoad::resolveGroups(Database& db, ModelWriter& writer)
{
    std::map<std::string, GroupInfo> groups;
    {
        auto st = db.prepare("SELECT group_hash FROM comm_op WHERE group_hash IS NOT NULL "
                             "UNION SELECT group_hash FROM comm_link WHERE group_hash IS NOT NULL");
        while (st.step())
            groups[st.text(0)];
    }

    // profiler_metadata.json parallel_group_info: the raw id hashes to the '@' number.
    {
        auto st = db.prepare("SELECT rank_id, substr(key, 21), value FROM rank_info "
                             "WHERE key LIKE 'parallel_group_info.%'");
        while (st.step()) {
            const std::string raw = st.text(1);
            const auto j = nlohmann::json::parse(st.text(2), nullptr, false);
            if (j.is_discarded() || !j.contains("global_ranks") || !j["global_ranks"].is_array())
                continue;
            std::vector<int64_t> ranks;
            for (const auto& r : j["global_ranks"]) {
                if (r.is_number_integer())
                    ranks.push_back(r.get<int64_t>());
            }
            std::sort(ranks.begin(), ranks.end());
            auto& g = groups[groupDoubleHashText(raw)];
            g.rawName = raw;
            if (j.contains("group_name") && j["group_name"].is_string())
                g.name = j["group_name"].get<std::string>();
            g.source = "metadata";
            g.localToGlobal.clear();
            for (size_t i = 0; i < ranks.size(); ++i)
                g.localToGlobal[static_cast<int64_t>(i)] = ranks[i];
        }
    }

    // msprof-analyze communication_group.json (or cluster_analysis.db CommunicationGroup) with hashes: the group's
    // pg_name, raw id and members (sorted rank_set, local i = i-th rank, as for metadata). Metadata wins if both exist.
    {
        auto st = db.prepare("SELECT group_hash, raw_name, name, ranks, source FROM cluster_comm_group "
                             "WHERE group_hash IS NOT NULL ORDER BY rowid");
        while (st.step()) {
            auto& g = groups[st.text(0)];
            if (g.source == "metadata" || isGroupListSource(g.source))
                continue;
            g.rawName = st.optText(1);
            g.name = st.optText(2);
            g.source = st.text(4);
            g.localToGlobal.clear();
            const auto ranks = ClusterSummaryWriter::parseRanks(st.text(3));
            for (size_t i = 0; i < ranks.size(); ++i)
                g.localToGlobal[static_cast<int64_t>(i)] = ranks[i];
        }
    }

    // Self-links: the rank that wrote "k-k" is local rank k of that group.
    std::map<std::string, std::set<int64_t>> localsSeen;
    {
        // Only self-links and links still without global ranks matter here.
        auto st = db.prepare("SELECT DISTINCT group_hash, rank_id, local_src, local_dst FROM comm_link "
                             "WHERE group_hash IS NOT NULL AND (local_src = local_dst OR src IS NULL OR dst IS NULL)");
        while (st.step()) {
            const std::string hash = st.text(0);
            const int64_t rank = st.int64(1);
            const auto src = st.optInt(2);
            const auto dst = st.optInt(3);
            if (src)
                localsSeen[hash].insert(*src);
            if (dst)
                localsSeen[hash].insert(*dst);
            auto& g = groups[hash];
            if (g.source == "metadata" || isGroupListSource(g.source) || !src || !dst || *src != *dst)
                continue;
            auto [it, inserted] = g.localToGlobal.emplace(*src, rank);
            if (!inserted && it->second != rank) {
                writer.addIssue({ Severity::Warning, rank, std::nullopt, std::nullopt,
                    "group " + hash + ": local rank " + std::to_string(*src) + " claimed by ranks "
                        + std::to_string(it->second) + " and " + std::to_string(rank) + "; keeping the first" });
                continue;
            }
            g.source = "self_link";
        }
    }
    for (auto& [hash, g] : groups) {
        if (g.source != "self_link")
            continue;
        const bool identity = std::all_of(
            g.localToGlobal.begin(), g.localToGlobal.end(), [](const auto& kv) { return kv.first == kv.second; });
        const auto& seen = localsSeen[hash];
        const bool complete = std::all_of(seen.begin(), seen.end(), [&](int64_t l) { return g.localToGlobal.count(l); });
        if (complete)
            continue;
        // Identity is only assumed when at least two loaded ranks confirm it: a single rank at local 0
        // says nothing about where the group's other members sit (e.g. pp = [0, 8]).
        if (identity && g.localToGlobal.size() >= 2) {
            const size_t known = g.localToGlobal.size();
            for (int64_t l : seen)
                g.localToGlobal.emplace(l, l);
            g.source = "self_link_identity";
            writer.addIssue({ Severity::Info, std::nullopt, std::nullopt, std::nullopt,
                "group " + hash + ": no profiler_metadata.json membership; the loaded ranks' self-links map local "
                    "ranks to equal global ranks, so the other " + std::to_string(g.localToGlobal.size() - known)
                    + " local ranks of its links are assumed global as well" });
        } else {
            writer.addIssue({ Severity::Warning, std::nullopt, std::nullopt, std::nullopt,
                "group " + hash + ": global ranks unknown for some local ranks (no profiler_metadata.json and no "
                                  "self-link from those ranks); their links have no global src/dst" });
        }
    }

    for (const auto& [hash, g] : groups) {
        auto ins = db.prepare("INSERT OR REPLACE INTO comm_group(group_hash, raw_name, name, ranks_source) "
                              "VALUES (?1, ?2, ?3, ?4)");
        ins.bind(1, hash).bind(2, g.rawName).bind(3, g.name).bind(4, g.source).run();
        auto member = db.prepare("INSERT INTO comm_group_rank(group_hash, local_rank, global_rank) VALUES (?1,?2,?3)");
        for (const auto& [local, global] : g.localToGlobal)
            member.bind(1, hash).bind(2, local).bind(3, global).run();
    }
    // The update below looks members up per link: index them first (links x members otherwise).
    db.exec("CREATE INDEX IF NOT EXISTS idx_comm_group_rank ON comm_group_rank(group_hash, local_rank)");
    db.exec("UPDATE comm_link SET "
            "src = (SELECT global_rank FROM comm_group_rank g WHERE g.group_hash = comm_link.group_hash "
            "       AND g.local_rank = comm_link.local_src), "
            "dst = (SELECT global_rank FROM comm_group_rank g WHERE g.group_hash = comm_link.group_hash "
            "       AND g.local_rank = comm_link.local_dst) "
            "WHERE group_hash IS NOT NULL AND (src IS NULL OR dst IS NULL)");
}

void PostLoad::fillDevices(Database& db)
{
    db.exec("UPDATE rank SET device_id = COALESCE("
            "(SELECT device_id FROM step_trace s WHERE s.rank_id = rank.rank_id AND device_id IS NOT NULL LIMIT 1),"
            "(SELECT CAST(substr(device, 5) AS INTEGER) FROM npu_module_mem m WHERE m.rank_id = rank.rank_id "
            "  AND device LIKE 'NPU:%' LIMIT 1),"
            "(SELECT CAST(substr(device, 5) AS INTEGER) FROM memory_record m WHERE m.rank_id = rank.rank_id "
            "  AND device LIKE 'NPU:%' LIMIT 1)) WHERE device_id IS NULL");
}

} // namespace npuscope::model
