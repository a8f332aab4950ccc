// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/CommGroupSources.h"
#include "npuscope/model/ReadRow.h"

namespace npuscope::model {

CommGroupSources::After CommGroupSources::lastIds(Database& db)
{
    auto st = db.prepare(
        "SELECT (SELECT COALESCE(MAX(id), 0) FROM comm_op), "
        "(SELECT COALESCE(MAX(id), 0) FROM comm_link_op), (SELECT COALESCE(MAX(id), 0) FROM comm_link_row)");
    After after;
    if (st.step()) {
        readRow(st, after.commOp, after.linkOp, after.linkRow);
    }
    return after;
}

void CommGroupSources::forEachOpGroupHash(Database& db, const std::function<void(const std::string&)>& fn, After after)
{
    auto st = db.prepare("SELECT DISTINCT group_hash FROM comm_op WHERE group_hash IS NOT NULL AND id > ?1");
    st.bind(1, after.commOp);
    while (st.step())
        fn(st.text(0));
}

void CommGroupSources::forEachLinkGroupHash(
    Database& db, const std::function<void(const std::string&)>& fn, After after)
{
    auto st = db.prepare("SELECT DISTINCT group_hash FROM comm_link_op WHERE group_hash IS NOT NULL "
                         "AND first_row IS NOT NULL AND id > ?1");
    st.bind(1, after.linkOp);
    while (st.step())
        fn(st.text(0));
}

void CommGroupSources::forEachSelfOrUnresolvedLink(
    Database& db, const std::function<void(const GroupLinkRow&)>& fn, After after)
{
    auto st = db.prepare("SELECT group_hash, rank_id, local_src, local_dst, src IS NOT NULL AND dst IS NOT NULL "
                         "FROM comm_link WHERE group_hash IS NOT NULL AND link_seq > ?1 "
                         "AND (src IS NULL OR dst IS NULL OR local_src = local_dst) ORDER BY link_op, link_seq");
    st.bind(1, after.linkRow);
    GroupLinkRow row;
    while (st.step()) {
        readRow(st, row.groupHash, row.rankId, row.localSrc, row.localDst, row.resolved);
        fn(row);
    }
}

void CommGroupSources::forEachListedGroup(Database& db, const std::function<void(const ClusterCommGroupRow&)>& fn)
{
    auto st = db.prepare("SELECT kind, group_hash, raw_name, name, ranks, source FROM cluster_comm_group "
                         "WHERE group_hash IS NOT NULL ORDER BY rowid");
    ClusterCommGroupRow row;
    while (st.step()) {
        readRow(st, row.kind, row.groupHash, row.rawName, row.name);
        row.ranks = ClusterSummaryWriter::parseRanks(st.text(4));
        row.source = st.text(5);
        fn(row);
    }
}

} // namespace npuscope::model
