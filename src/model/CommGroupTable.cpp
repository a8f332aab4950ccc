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
    // comm_link is a view: the link rows take the global ranks of their op's group.
    db.exec("UPDATE comm_link_row SET "
            "src = (SELECT g.global_rank FROM comm_link_op o JOIN comm_group_rank g ON g.group_hash = o.group_hash "
            "       AND g.local_rank = comm_link_row.local_src WHERE o.id = comm_link_row.op_id), "
            "dst = (SELECT g.global_rank FROM comm_link_op o JOIN comm_group_rank g ON g.group_hash = o.group_hash "
            "       AND g.local_rank = comm_link_row.local_dst WHERE o.id = comm_link_row.op_id) "
            "WHERE (src IS NULL OR dst IS NULL) "
            "AND op_id IN (SELECT id FROM comm_link_op WHERE group_hash IS NOT NULL)");
}

} // namespace npuscope::model
