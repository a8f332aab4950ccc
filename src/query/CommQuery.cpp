// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommQuery.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <utility>

namespace npuscope::query {

namespace {

// Appends the WHERE clause for filter; binds are numbered ?1 step, ?2 group, ?3 rank.
std::string whereFor(const CommFilter& f, const char* totalColumn)
{
    std::string w = " WHERE 1=1";
    if (f.step)
        w += " AND step = ?1";
    if (f.groupHash)
        w += " AND group_hash = ?2";
    if (f.rank)
        w += " AND rank_id = ?3";
    if (!f.includeTotals && totalColumn)
        w += std::string(" AND ") + totalColumn;
    return w;
}

void bindFilter(model::Statement& st, const CommFilter& f)
{
    if (f.step)
        st.bind(1, *f.step);
    if (f.groupHash)
        st.bind(2, *f.groupHash);
    if (f.rank)
        st.bind(3, *f.rank);
}

} // namespace

std::vector<CommOp> CommQuery::ops(model::Database& db, const CommFilter& filter)
{
    auto st = db.prepare("SELECT id, rank_id, step, kind, op_key, op_name, op_type, group_hash, is_total, start_ns, "
                         "elapse_ns, transit_ns, wait_ns, sync_ns, idle_ns, wait_ratio, sync_ratio FROM comm_op"
        + whereFor(filter, "is_total = 0") + " ORDER BY rank_id, step, kind, is_total, start_ns, op_key");
    bindFilter(st, filter);
    std::vector<CommOp> out;
    while (st.step()) {
        CommOp o;
        o.id = st.int64(0);
        o.rank = st.int64(1);
        o.step = st.optInt(2);
        o.kind = st.text(3);
        o.opKey = st.text(4);
        o.opName = st.text(5);
        o.opType = st.optText(6);
        o.groupHash = st.optText(7);
        o.isTotal = st.int64(8) != 0;
        o.startNs = st.optInt(9);
        o.elapseNs = st.optInt(10);
        o.transitNs = st.optInt(11);
        o.waitNs = st.optInt(12);
        o.syncNs = st.optInt(13);
        o.idleNs = st.optInt(14);
        o.waitRatio = st.optReal(15);
        o.syncRatio = st.optReal(16);
        out.push_back(std::move(o));
    }
    return out;
}

void CommQuery::forEachLink(
    model::Database& db, const CommFilter& filter, const std::function<void(const Link&)>& visit)
{
    // The comm_link view's join written out, ops first (CROSS JOIN keeps that order): the ops come in the order of
    // idx_comm_link_step (step, group_hash, matrix_op), so only the links of one such block are held at a time (a
    // 1,024-rank cluster has 282,624); +op_id keeps the row id range as the way into comm_link_row. Each block is
    // sorted here by (src, dst, rank_id), NULLs first as SQLite orders them, ties in row order: SQLite's sorter for
    // that part of the ORDER BY was 0.28 of the query's 0.36 s (its records carried every column). The interned op
    // names are read once instead of a join per link. The column names are those of the view, unambiguous here.
    std::unordered_map<int64_t, std::string> names;
    {
        auto n = db.prepare("SELECT id, value FROM comm_link_name");
        while (n.step())
            names.emplace(n.int64(0), n.text(1));
    }
    auto st = db.prepare("SELECT rank_id, step, kind, matrix_op, op_type, slot, group_hash, local_src, local_dst, src, "
                         "dst, transport, size_mb, time_ns, bandwidth_gbps, op_name_id FROM comm_link_op o "
                         "CROSS JOIN comm_link_row r ON r.id BETWEEN o.first_row AND o.last_row AND +r.op_id = o.id"
        + whereFor(filter, "(slot IS NULL OR slot <> 'total') AND matrix_op <> 'Total Op Info'")
        + " ORDER BY step, group_hash, matrix_op");
    bindFilter(st, filter);
    // Links of the current block; the objects are reused (their strings keep their buffers).
    std::vector<Link> block;
    std::vector<uint32_t> order;
    size_t used = 0;
    const auto nullsFirst = [](const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
        return a.has_value() != b.has_value() ? !a.has_value() : (a && *a < *b);
    };
    const auto flush = [&] {
        order.resize(used);
        for (uint32_t i = 0; i < used; ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
            const Link& a = block[x];
            const Link& b = block[y];
            if (a.src != b.src)
                return nullsFirst(a.src, b.src);
            if (a.dst != b.dst)
                return nullsFirst(a.dst, b.dst);
            return a.reportedBy < b.reportedBy;
        });
        for (const uint32_t i : order)
            visit(block[i]);
        used = 0;
    };
    while (st.step()) {
        if (used == block.size())
            block.emplace_back();
        Link& l = block[used];
        l.reportedBy = st.int64(0);
        l.step = st.optInt(1);
        st.readText(2, l.kind);
        st.readText(3, l.matrixOp);
        st.readText(4, l.opType);
        st.readText(5, l.slot);
        st.readText(6, l.groupHash);
        l.localSrc = st.optInt(7);
        l.localDst = st.optInt(8);
        l.src = st.optInt(9);
        l.dst = st.optInt(10);
        st.readText(11, l.transport);
        l.sizeMb = st.optReal(12);
        l.timeNs = st.optInt(13);
        l.bandwidthGbps = st.optReal(14);
        const auto name = st.optInt(15);
        const auto it = name ? names.find(*name) : names.end();
        if (it == names.end())
            l.opName.reset();
        else
            l.opName = it->second;
        // A new (step, group_hash, matrix_op) block: the previous one is complete; the new row becomes the first.
        const Link& first = block[0];
        if (used > 0 && (first.step != l.step || first.groupHash != l.groupHash || first.matrixOp != l.matrixOp)) {
            const size_t complete = used;
            flush();
            std::swap(block[0], block[complete]);
        }
        ++used;
    }
    flush();
}

std::vector<Link> CommQuery::links(model::Database& db, const CommFilter& filter)
{
    std::vector<Link> out;
    forEachLink(db, filter, [&out](const Link& l) { out.push_back(l); });
    return out;
}

std::vector<int64_t> CommQuery::steps(model::Database& db)
{
    std::vector<int64_t> out;
    auto st = db.prepare("SELECT step FROM step_trace WHERE step IS NOT NULL "
                         "UNION SELECT step FROM comm_op WHERE step IS NOT NULL ORDER BY 1");
    while (st.step())
        out.push_back(st.int64(0));
    return out;
}

const char* CommQuery::localRankGroupsSql()
{
    return "SELECT DISTINCT COALESCE(group_hash, '') AS g FROM comm_link WHERE (src IS NULL OR dst IS NULL) "
           "AND matrix_op <> 'Total Op Info'";
}

std::vector<std::string> CommQuery::localRankGroups(model::Database& db)
{
    std::vector<std::string> out;
    auto st = db.prepare(std::string(localRankGroupsSql()) + " ORDER BY g");
    while (st.step())
        out.push_back(st.text(0));
    return out;
}

namespace {

// CommQuery::groups of one model state (Database::cached: any row change drops it). The summary report, the CLI and
// several docks ask for the list; its op counts are one pass over comm_op (0.1 s on 138,240 ops).
struct GroupList {
    std::vector<Group> groups;
};

std::vector<Group> readGroups(model::Database& db)
{
    std::vector<Group> out;
    std::map<std::string, size_t> index;
    // The op counts in one GROUP BY over comm_op: a subquery per group needed an index on comm_op(group_hash), whose
    // build took as long as this pass (0.1-0.17 s of a 1,024-rank load) and paid off only through this query.
    auto st = db.prepare("SELECT g.group_hash, g.raw_name, g.name, g.ranks_source, COALESCE(c.n, 0) FROM comm_group g "
                         "LEFT JOIN (SELECT group_hash, COUNT(DISTINCT op_key) AS n FROM comm_op WHERE is_total = 0 "
                         "AND group_hash IS NOT NULL GROUP BY group_hash) c ON c.group_hash = g.group_hash "
                         "ORDER BY g.name IS NULL, g.name, g.group_hash");
    while (st.step()) {
        Group g;
        g.hash = st.text(0);
        g.rawName = st.optText(1);
        g.name = st.optText(2);
        g.ranksSource = st.text(3);
        g.opCount = st.int64(4);
        index[g.hash] = out.size();
        out.push_back(std::move(g));
    }
    auto members = db.prepare("SELECT group_hash, global_rank FROM comm_group_rank ORDER BY group_hash, local_rank");
    while (members.step()) {
        if (auto it = index.find(members.text(0)); it != index.end())
            out[it->second].ranks.push_back(members.int64(1));
    }
    return out;
}

} // namespace

std::vector<Group> CommQuery::groups(model::Database& db)
{
    return db.cached<GroupList>([](model::Database& d) {
        return std::make_shared<const GroupList>(GroupList { readGroups(d) });
    })->groups;
}

std::vector<Group> CommQuery::listedGroups(model::Database& db)
{
    std::vector<Group> out;
    auto st = db.prepare("SELECT kind, ranks, source FROM cluster_comm_group WHERE group_hash IS NULL ORDER BY rowid");
    while (st.step()) {
        Group g;
        g.kind = st.text(0);
        g.ranksSource = st.text(2);
        const std::string text = st.text(1);
        for (size_t start = 0; start < text.size();) {
            const size_t comma = std::min(text.find(',', start), text.size());
            if (comma > start)
                g.ranks.push_back(std::stoll(text.substr(start, comma - start)));
            start = comma + 1;
        }
        out.push_back(std::move(g));
    }
    if (out.empty())
        return out;
    // The kinds a hashed group is known under (from the group list or its ops / links).
    std::map<std::string, std::set<std::string>> kinds;
    auto kindSt = db.prepare("SELECT group_hash, kind FROM cluster_comm_group WHERE group_hash IS NOT NULL "
                             "UNION SELECT DISTINCT group_hash, kind FROM comm_op WHERE group_hash IS NOT NULL "
                             "UNION SELECT DISTINCT group_hash, kind FROM comm_link WHERE group_hash IS NOT NULL");
    while (kindSt.step())
        kinds[kindSt.text(0)].insert(kindSt.text(1));
    std::set<std::pair<std::string, std::vector<int64_t>>> known; // (kind or "", sorted ranks)
    for (const auto& g : groups(db)) {
        auto ranks = g.ranks;
        std::sort(ranks.begin(), ranks.end());
        const auto it = kinds.find(g.hash);
        if (it == kinds.end()) {
            known.emplace(std::string(), ranks);
            continue;
        }
        for (const auto& k : it->second)
            known.emplace(k, ranks);
    }
    std::erase_if(out, [&known](const Group& g) {
        return known.count({ *g.kind, g.ranks }) > 0 || known.count({ std::string(), g.ranks }) > 0;
    });
    return out;
}

} // namespace npuscope::query
