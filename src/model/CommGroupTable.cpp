// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/CommGroupTable.h"

namespace npuscope::model {

CommGroupTable::CommGroupTable(Database& db)
    : m_group(db, "comm_group", { "group_hash", "raw_name", "name", "ranks_source" }, {}, "INSERT OR REPLACE INTO")
    , m_member(db, "comm_group_rank", { "group_hash", "local_rank", "global_rank" })
{
}

void CommGroupTable::add(const CommGroupRow& r) { m_group.insert(r.groupHash, r.rawName, r.name, r.ranksSource); }

void CommGroupTable::addMember(const CommGroupRankRow& r) { m_member.insert(r.groupHash, r.localRank, r.globalRank); }

void CommGroupTable::indexMembers(Database& db)
{
    // Without it the link update costs links x members.
    db.exec("CREATE INDEX IF NOT EXISTS idx_comm_group_rank ON comm_group_rank(group_hash, local_rank)");
}

void CommGroupTable::fillLinkRanks(Database& db)
{
    db.exec("UPDATE comm_link SET "
            "src = (SELECT global_rank FROM comm_group_rank g WHERE g.group_hash = comm_link.group_hash "
            "       AND g.local_rank = comm_link.local_src), "
            "dst = (SELECT global_rank FROM comm_group_rank g WHERE g.group_hash = comm_link.group_hash "
            "       AND g.local_rank = comm_link.local_dst) "
            "WHERE group_hash IS NOT NULL AND (src IS NULL OR dst IS NULL)");
}

} // namespace npuscope::model
