// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/model/Rows.h"
#include "npuscope/model/TableInsert.h"

#include <cstdint>
#include <string>

namespace npuscope::model {

// A communication group as resolved after import (resources/schema.sql comm_group).
struct CommGroupRow {
    std::string groupHash; // decimal double hash, as written after '@'
    OptText rawName, name;
    std::string ranksSource; // how the members were derived: metadata, self_link, ... (schema.sql)
};

// One member of a group: local rank inside the group -> global rank (comm_group_rank).
struct CommGroupRankRow {
    std::string groupHash;
    int64_t localRank = 0, globalRank = 0;
};

// comm_group / comm_group_rank, written once per load by group resolution (load::PostLoad) on the main
// model, and the comm_link global ranks filled from them. Holds prepared statements on db; one thread at a time.
class CommGroupTable {
public:
    explicit CommGroupTable(Database& db);

    // Replaces the row of r.groupHash if there is one.
    void add(const CommGroupRow& r);
    void addMember(const CommGroupRankRow& r);

    // Indexes the members by (group_hash, local_rank): fillLinkRanks looks them up per link.
    static void indexMembers(Database& db);
    // Sets comm_link.src / dst of every link with a group hash and a missing src or dst to the global rank
    // of its local_src / local_dst (NULL when the group has no such member). Call after indexMembers.
    static void fillLinkRanks(Database& db);

private:
    TableInsert<4> m_group;
    TableInsert<3> m_member;
};

} // namespace npuscope::model
