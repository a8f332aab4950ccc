// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/ClusterSummaryWriter.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/Rows.h"

#include <cstdint>
#include <functional>
#include <string>

namespace npuscope::model {

// What group resolution reads of one comm_link row with a group hash.
struct GroupLinkRow {
    std::string groupHash;
    int64_t rankId = 0; // the rank that wrote the link
    OptInt localSrc, localDst;
    bool resolved = false; // src and dst (global ranks) are both set
};

// The model rows group resolution (load::PostLoad) reads besides parallel_group
// (ParallelGroupTable::forEach): the hashes communication rows name and the groups msprof-analyze lists.
// Each calls fn once per row, one row in memory at a time. Any thread that holds db.
// The largest comm_op, comm_link_op and comm_link_row ids at some moment (0 when none): the rows a writer adds after
// it are those with larger ids, which CommGroupSources can be limited to (row id ranges, never a scan).
struct CommRowsAfter {
    int64_t commOp = 0;
    int64_t linkOp = 0;
    int64_t linkRow = 0;
};

class CommGroupSources {
public:
    using After = CommRowsAfter;
    static After lastIds(Database& db);

    // Every distinct comm_op.group_hash that is not NULL (no defined order), of ops after after.commOp.
    static void forEachOpGroupHash(Database& db, const std::function<void(const std::string&)>& fn, After after = {});
    // Every distinct group hash of the links (comm_link ops with at least one link, after after.linkOp; no defined
    // order).
    static void forEachLinkGroupHash(Database& db, const std::function<void(const std::string&)>& fn, After after = {});
    // Every comm_link row (after after.linkRow) with a group hash that is a self-link (local src = local dst)
    // or lacks a global src or dst, in row order: what group resolution reads of the links (the rest, millions on a
    // large all-to-all cluster, stays in SQL).
    static void forEachSelfOrUnresolvedLink(
        Database& db, const std::function<void(const GroupLinkRow&)>& fn, After after = {});
    // Every cluster_comm_group row with a group hash, in row order (ranks parsed, ascending).
    static void forEachListedGroup(Database& db, const std::function<void(const ClusterCommGroupRow&)>& fn);
};

} // namespace npuscope::model
