// SPDX-License-Identifier: Apache-2.0
#include "CommSqlOracle.h"

#include "npuscope/query/CommQuery.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace npuscope::test {

using namespace npuscope::query;

namespace {

// Binds: ?1 step, ?2 group, ?3 op name, ?5 rank.
struct Binder {
    std::string where = " WHERE 1=1";
    std::vector<std::pair<int, std::string>> texts;
    std::vector<std::pair<int, int64_t>> ints;
    void add(const char* clause, int index, const std::optional<int64_t>& v)
    {
        if (!v)
            return;
        where += clause;
        ints.emplace_back(index, *v);
    }
    void add(const char* clause, int index, const std::optional<std::string>& v)
    {
        if (!v)
            return;
        where += clause;
        texts.emplace_back(index, *v);
    }
    void bind(model::Statement& st) const
    {
        for (const auto& [i, v] : ints)
            st.bind(i, v);
        for (const auto& [i, v] : texts)
            st.bind(i, v);
    }
};

Binder opBinder(const CommSelection& sel, bool withOpName)
{
    Binder b;
    b.add(" AND step = ?1", 1, sel.step);
    b.add(" AND group_hash = ?2", 2, sel.groupHash);
    if (withOpName)
        b.add(" AND op_name = ?3", 3, sel.opName);
    return b;
}

std::optional<double> bandwidth(double sizeMb, int64_t timeNs)
{
    if (timeNs <= 0)
        return std::nullopt;
    return sizeMb / (static_cast<double>(timeNs) / 1.0e6);
}

// Op types ascending, each with its slots ascending (the test sorts the production slot lists the same way).
MatrixOpChoices typeChoices(const std::map<std::string, std::set<std::string>>& types)
{
    MatrixOpChoices out;
    for (const auto& [type, slots] : types) {
        out.opTypes.push_back(type);
        out.typeSlots.emplace_back(slots.begin(), slots.end());
    }
    return out;
}

MatrixOpChoices opChoices(
    model::Database& db, const CommSelection& sel, const std::map<std::string, std::set<std::string>>& types)
{
    MatrixOpChoices out = typeChoices(types);
    Binder ob = opBinder(sel, false);
    auto ops = db.prepare("SELECT DISTINCT op_name FROM comm_op" + ob.where + " AND is_total = 0 ORDER BY op_name");
    ob.bind(ops);
    while (ops.step())
        out.opNames.push_back(ops.text(0));
    return out;
}

} // namespace

MatrixOpChoices CommSqlOracle::matrixOps(model::Database& db, const CommSelection& sel)
{
    Binder b = opBinder(sel, false);
    auto st = db.prepare("SELECT DISTINCT COALESCE(op_type, matrix_op), COALESCE(slot, 'total') FROM comm_link"
        + b.where + " AND matrix_op <> 'Total Op Info'");
    b.bind(st);
    std::map<std::string, std::set<std::string>> types;
    while (st.step())
        types[st.text(0)].insert(st.text(1));
    return opChoices(db, sel, types);
}

std::vector<RankDuration> CommSqlOracle::durations(model::Database& db, const CommSelection& sel)
{
    std::vector<RankDuration> out;
    std::map<int64_t, size_t> index;
    Binder b = opBinder(sel, true);
    auto st = db.prepare("SELECT rank_id, COUNT(*), SUM(COALESCE(elapse_ns, 0)), SUM(COALESCE(transit_ns, 0)), "
                         "SUM(COALESCE(wait_ns, 0)), SUM(COALESCE(sync_ns, 0)), SUM(COALESCE(idle_ns, 0)), "
                         "COUNT(transit_ns), COUNT(wait_ns), COUNT(sync_ns), COUNT(idle_ns), "
                         // Wait Ratio = ΣWait / (ΣWait + ΣTransit), Sync Ratio likewise, where both figures exist.
                         "CASE WHEN COUNT(wait_ns) > 0 AND COUNT(transit_ns) > 0 AND SUM(COALESCE(wait_ns, 0)) + "
                         "SUM(COALESCE(transit_ns, 0)) > 0 THEN CAST(SUM(COALESCE(wait_ns, 0)) AS REAL) / "
                         "(SUM(COALESCE(wait_ns, 0)) + SUM(COALESCE(transit_ns, 0))) END, "
                         "CASE WHEN COUNT(sync_ns) > 0 AND COUNT(transit_ns) > 0 AND SUM(COALESCE(sync_ns, 0)) + "
                         "SUM(COALESCE(transit_ns, 0)) > 0 THEN CAST(SUM(COALESCE(sync_ns, 0)) AS REAL) / "
                         "(SUM(COALESCE(sync_ns, 0)) + SUM(COALESCE(transit_ns, 0))) END FROM comm_op"
        + b.where + " AND is_total = 0 GROUP BY rank_id ORDER BY rank_id");
    b.bind(st);
    while (st.step()) {
        RankDuration d;
        d.rank = st.int64(0);
        d.opCount = st.int64(1);
        d.elapseNs = st.int64(2);
        d.transitNs = st.int64(3);
        d.waitNs = st.int64(4);
        d.syncNs = st.int64(5);
        d.idleNs = st.int64(6);
        d.hasTransit = st.int64(7) > 0;
        d.hasWait = st.int64(8) > 0;
        d.hasSync = st.int64(9) > 0;
        d.hasIdle = st.int64(10) > 0;
        d.waitRatio = st.optReal(11);
        d.syncRatio = st.optReal(12);
        index[d.rank] = out.size();
        out.push_back(d);
    }
    Binder bb;
    bb.add(" AND o.step = ?1", 1, sel.step);
    bb.add(" AND o.group_hash = ?2", 2, sel.groupHash);
    bb.add(" AND o.op_name = ?3", 3, sel.opName);
    // Summed here in comm_bandwidth.id order rather than by SQL SUM(), whose order of floating-point
    // additions is up to the query plan: the in-memory path (CommOpIndex) then gives the same bits.
    auto bw = db.prepare("SELECT o.rank_id, b.transport, COALESCE(b.size_mb, 0), COALESCE(b.transit_ns, 0) "
                         "FROM comm_bandwidth b JOIN comm_op o ON o.id = b.comm_op_id"
        + bb.where + " AND o.is_total = 0 AND b.transport IN ('SDMA', 'RDMA') ORDER BY b.id");
    bb.bind(bw);
    std::set<std::pair<size_t, bool>> seen; // (row, is SDMA)
    while (bw.step()) {
        auto it = index.find(bw.int64(0));
        if (it == index.end())
            continue;
        RankDuration& d = out[it->second];
        const bool sdma = bw.text(1) == "SDMA";
        if (sdma) {
            d.sdmaSizeMb += bw.real(2);
            d.sdmaTimeNs += bw.int64(3);
        } else {
            d.rdmaSizeMb += bw.real(2);
            d.rdmaTimeNs += bw.int64(3);
        }
        seen.emplace(it->second, sdma);
    }
    for (const auto& [row, sdma] : seen) {
        RankDuration& d = out[row];
        if (sdma)
            d.sdmaBandwidthGbps = bandwidth(d.sdmaSizeMb, d.sdmaTimeNs);
        else
            d.rdmaBandwidthGbps = bandwidth(d.rdmaSizeMb, d.rdmaTimeNs);
    }
    return out;
}

std::vector<PacketDistribution> CommSqlOracle::packets(
    model::Database& db, const CommSelection& sel, std::optional<int64_t> rank)
{
    Binder b;
    b.add(" AND o.step = ?1", 1, sel.step);
    b.add(" AND o.group_hash = ?2", 2, sel.groupHash);
    b.add(" AND o.op_name = ?3", 3, sel.opName);
    b.add(" AND o.rank_id = ?5", 5, rank);
    // One pass over the selected ops' packets, by bandwidth row: bins per transport, and the
    // Large Packet Ratio weighted by each row's packet count.
    std::map<std::string, PacketDistribution> byTransport;
    std::map<std::string, std::map<double, PacketBin>> bins;
    std::map<std::string, std::pair<double, int64_t>> weighted; // Σ ratio × packets, Σ packets
    auto st = db.prepare("SELECT b.id, b.transport, b.large_packet_ratio, p.package_mb, COALESCE(p.count, 0), "
                         "COALESCE(p.total_ns, 0) FROM comm_op o JOIN comm_bandwidth b ON b.comm_op_id = o.id "
                         "JOIN comm_packet p ON p.comm_bandwidth_id = b.id"
        + b.where + " AND o.is_total = 0 ORDER BY b.id");
    b.bind(st);
    int64_t currentRow = -1;
    std::string transport;
    std::optional<double> lpr;
    int64_t rowPackets = 0;
    auto flush = [&] {
        if (currentRow >= 0 && lpr) {
            auto& [sum, n] = weighted[transport];
            sum += *lpr * static_cast<double>(rowPackets);
            n += rowPackets;
        }
    };
    while (st.step()) {
        if (st.int64(0) != currentRow) {
            flush();
            currentRow = st.int64(0);
            transport = st.text(1);
            lpr = st.optReal(2);
            rowPackets = 0;
        }
        PacketBin& bin = bins[transport][st.real(3)];
        bin.packageMb = st.real(3);
        bin.count += st.int64(4);
        bin.totalNs += st.int64(5);
        rowPackets += st.int64(4);
    }
    flush();
    for (auto& [t, byMb] : bins) {
        PacketDistribution& d = byTransport[t];
        d.transport = t;
        for (auto& [mb, bin] : byMb) {
            d.packets += bin.count;
            d.bins.push_back(bin);
        }
        if (auto it = weighted.find(t); it != weighted.end() && it->second.second > 0)
            d.largePacketRatio = it->second.first / static_cast<double>(it->second.second);
    }
    std::vector<PacketDistribution> out;
    for (auto& [t, d] : byTransport) {
        if (d.packets > 0)
            out.push_back(std::move(d));
    }
    return out;
}

OpStrip CommSqlOracle::opStrip(model::Database& db, const CommSelection& sel)
{
    OpStrip s;
    Binder b = opBinder(sel, false);
    auto st = db.prepare("SELECT rank_id, op_name, COALESCE(group_hash, ''), start_ns, COALESCE(elapse_ns, 0), "
                         "COALESCE(wait_ns, 0), COALESCE(transit_ns, 0) FROM comm_op"
        + b.where + " AND is_total = 0 AND start_ns IS NOT NULL ORDER BY rank_id, start_ns");
    b.bind(st);
    std::map<std::string, int64_t> firstStart;
    std::vector<std::string> opNames;
    bool first = true;
    while (st.step()) {
        OpSpan o;
        o.rank = st.int64(0);
        const std::string name = st.text(1);
        o.groupHash = st.text(2);
        o.startNs = st.int64(3);
        o.elapseNs = st.int64(4);
        o.waitNs = st.int64(5);
        o.transitNs = st.int64(6);
        auto [it, inserted] = firstStart.emplace(name, o.startNs);
        if (!inserted)
            it->second = std::min(it->second, o.startNs);
        if (s.ranks.empty() || s.ranks.back() != o.rank)
            s.ranks.push_back(o.rank);
        s.beginNs = first ? o.startNs : std::min(s.beginNs, o.startNs);
        s.endNs = first ? o.startNs + o.elapseNs : std::max(s.endNs, o.startNs + o.elapseNs);
        first = false;
        opNames.push_back(name);
        s.ops.push_back(std::move(o));
    }
    // Names in order of their first appearance on the cluster's clock.
    std::vector<std::pair<int64_t, std::string>> order;
    for (const auto& [n, t] : firstStart)
        order.emplace_back(t, n);
    std::sort(order.begin(), order.end());
    std::unordered_map<std::string, int> nameIndex;
    for (const auto& [t, n] : order) {
        nameIndex.emplace(n, static_cast<int>(s.names.size()));
        s.names.push_back(n);
    }
    for (size_t i = 0; i < s.ops.size(); ++i)
        s.ops[i].nameIndex = nameIndex[opNames[i]];
    return s;
}

namespace {

// Every comm_link row with the src / dst the views use (global ranks, or the local ones as written for a group
// whose global ranks are unknown), the op type (a 2023 real-op key is its own type) and NULLs read as "" / 0.
std::string linkRowsSql()
{
    return std::string("SELECT comm_link.link_op AS rid_op, comm_link.link_seq AS rid_seq, rank_id, step, matrix_op, slot, op_name, "
                       "COALESCE(bandwidth_gbps, 0) AS bw, CASE WHEN slot IS NULL THEN matrix_op ELSE "
                       "COALESCE(op_type, matrix_op) END AS type, COALESCE(group_hash, '') AS grp, CASE WHEN lg.g IS "
                       "NULL THEN src ELSE local_src END AS src, CASE WHEN lg.g IS NULL THEN dst ELSE local_dst END "
                       "AS dst, COALESCE(transport, '') AS transport, COALESCE(size_mb, 0) AS size, "
                       "COALESCE(time_ns, 0) AS time, lg.g IS NOT NULL AS is_local FROM comm_link LEFT JOIN (")
        + CommQuery::localRankGroupsSql() + ") lg ON lg.g = COALESCE(comm_link.group_hash, '')";
}

Binder linkBinder(const LinkFilter& f)
{
    Binder b;
    b.where = " WHERE src IS NOT NULL AND dst IS NOT NULL";
    b.add(" AND step = ?1", 1, f.step);
    b.add(" AND grp = ?2", 2, f.groupHash);
    b.add(" AND (CASE WHEN is_local THEN rank_id = ?5 ELSE (src = ?5 OR dst = ?5) END)", 5, f.rank);
    b.add(" AND src = ?6", 6, f.src);
    b.add(" AND dst = ?7", 7, f.dst);
    b.add(" AND transport = ?8", 8, f.transport);
    return b;
}

} // namespace

std::vector<LinkRow> CommSqlOracle::linkTable(model::Database& db, const LinkFilter& filter)
{
    const Binder b = linkBinder(filter);
    const std::string rows = "(" + linkRowsSql() + ")";
    const char* const perType = " AND (slot = 'total' OR slot IS NULL) AND matrix_op <> 'Total Op Info'";
    std::string mode = perType;
    {
        auto any = db.prepare("SELECT EXISTS (SELECT 1 FROM " + rows + b.where + perType + ")");
        b.bind(any);
        if (any.step() && any.int64(0) == 0)
            mode = " AND matrix_op = 'Total Op Info'";
    }
    // Sender's copy first (a run written by its sender keeps only those rows), then one row per op type and run.
    const std::string sql = "WITH sel AS (SELECT * FROM " + rows + b.where + mode
        + "), runs AS (SELECT *, MAX(rank_id = src) OVER (PARTITION BY step, grp, src, dst) AS sender_wrote FROM sel), "
          "senders AS (SELECT * FROM runs WHERE NOT sender_wrote OR rank_id = src), "
          "kept AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY step, grp, src, dst, type ORDER BY rid_op, rid_seq) AS n FROM "
          "senders), "
          "slowest AS (SELECT grp, type, src, dst, op_name, MIN(bw) FROM "
        + rows + b.where
        + " AND slot = 'bottom1' AND op_name IS NOT NULL GROUP BY grp, type, src, dst) "
          "SELECT k.grp, k.type, k.src, k.dst, CASE WHEN COUNT(DISTINCT k.transport) > 1 THEN 'mixed' ELSE "
          "MAX(k.transport) END, SUM(k.size), SUM(k.time), MAX(k.is_local), s.op_name FROM kept k LEFT JOIN slowest s "
          "ON s.grp = k.grp AND s.type = k.type AND s.src = k.src AND s.dst = k.dst WHERE k.n = 1 "
          "GROUP BY k.grp, k.type, k.src, k.dst";
    auto st = db.prepare(sql);
    b.bind(st);
    std::vector<LinkRow> out;
    while (st.step()) {
        LinkRow r;
        r.step = filter.step;
        r.groupHash = st.text(0).empty() ? std::nullopt : std::optional<std::string>(st.text(0));
        r.opType = st.text(1);
        r.src = st.int64(2);
        r.dst = st.int64(3);
        r.transport = st.text(4);
        r.sizeMb = st.real(5);
        r.timeNs = st.int64(6);
        r.localRanks = st.int64(7) != 0;
        r.slowestOp = st.optText(8).value_or("");
        r.bandwidthGbps = bandwidth(r.sizeMb, r.timeNs);
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

// The op a link names: its Op Name, or the key itself for a 2023 real-op key.
constexpr const char* kLinkOp = "COALESCE(op_name, CASE WHEN slot IS NULL THEN matrix_op ELSE '' END)";

// Off the diagonal and not LOCAL (a NULL transport, read as "", is not LOCAL).
constexpr const char* kOffDiagonal = "(src <> dst AND transport <> 'LOCAL')";

struct MemberGroup {
    std::optional<std::string> name;
    std::vector<int64_t> ranks; // global ranks in local-rank order
};

std::map<std::string, MemberGroup> memberGroups(model::Database& db)
{
    std::map<std::string, MemberGroup> out;
    auto st = db.prepare("SELECT g.group_hash, g.name, r.global_rank FROM comm_group g LEFT JOIN comm_group_rank r "
                         "ON r.group_hash = g.group_hash ORDER BY g.group_hash, r.local_rank");
    while (st.step()) {
        MemberGroup& g = out[st.text(0)];
        g.name = st.optText(1);
        if (auto rank = st.optInt(2))
            g.ranks.push_back(*rank);
    }
    return out;
}

// The group name whose groups (more than one rank, fewer than the axis) hold the most off-diagonal size of the
// cells; "" when none holds any. Ties go to the first name.
std::string busiestName(const CommMatrix& m, const std::map<std::string, MemberGroup>& groups, size_t axisSize)
{
    std::map<std::string, std::map<int64_t, std::string>> groupOfRank; // name -> rank -> first group holding it
    for (const auto& [hash, g] : groups) {
        if (g.name && g.ranks.size() > 1 && g.ranks.size() < axisSize) {
            for (int64_t r : g.ranks)
                groupOfRank[*g.name].emplace(r, hash);
        }
    }
    std::string best;
    double bestVolume = 0;
    for (const auto& [name, of] : groupOfRank) {
        double volume = 0;
        for (const MatrixCell& c : m.cells) {
            const auto src = of.find(c.src), dst = of.find(c.dst);
            if (c.src != c.dst && src != of.end() && dst != of.end() && src->second == dst->second)
                volume += c.sizeMb;
        }
        if (volume > bestVolume) {
            bestVolume = volume;
            best = name;
        }
    }
    return best;
}

void orderAxis(model::Database& db, CommMatrix& m, const CommSelection& sel, const std::string& orderBy)
{
    std::set<int64_t> present;
    for (const MatrixCell& c : m.cells) {
        present.insert(c.src);
        present.insert(c.dst);
    }
    auto appendUnplaced = [&] {
        for (int64_t r : present) {
            if (std::find(m.ranks.begin(), m.ranks.end(), r) == m.ranks.end())
                m.ranks.push_back(r);
        }
    };
    if (m.localGroup) {
        appendUnplaced();
        return;
    }
    const auto groups = memberGroups(db);
    if (sel.groupHash) {
        if (auto it = groups.find(*sel.groupHash); it != groups.end() && !it->second.ranks.empty()) {
            const std::string label = it->second.name.value_or(it->first);
            m.ranks = it->second.ranks;
            m.blocks.push_back({ 0, m.ranks.size(), label });
            m.orderedBy = label;
            appendUnplaced();
            return;
        }
    }
    m.orderedBy = orderBy == "auto" ? busiestName(m, groups, present.size()) : orderBy;
    std::vector<const std::vector<int64_t>*> blocks;
    for (const auto& [hash, g] : groups) {
        if (!m.orderedBy.empty() && g.name == m.orderedBy && !g.ranks.empty())
            blocks.push_back(&g.ranks);
    }
    std::sort(blocks.begin(), blocks.end(), [](const auto* a, const auto* b) {
        return *std::min_element(a->begin(), a->end()) < *std::min_element(b->begin(), b->end());
    });
    for (const auto* ranks : blocks) {
        const size_t begin = m.ranks.size();
        for (int64_t r : *ranks) {
            if (present.count(r) && std::find(m.ranks.begin(), m.ranks.end(), r) == m.ranks.end())
                m.ranks.push_back(r);
        }
        if (m.ranks.size() > begin)
            m.blocks.push_back({ begin, m.ranks.size(), m.orderedBy });
    }
    appendUnplaced();
}

} // namespace

CommMatrix CommSqlOracle::matrix(
    model::Database& db, const CommSelection& sel, const MatrixOp& op, const std::string& orderBy)
{
    const std::string rows = "(" + linkRowsSql() + ")";
    Binder b;
    b.where = " WHERE src IS NOT NULL AND dst IS NOT NULL";
    b.add(" AND step = ?1", 1, sel.step);
    b.add(" AND grp = ?2", 2, sel.groupHash);
    const bool totals = !sel.opName && (!op.opType || op.slot == "total");
    CommMatrix m;
    if (sel.opName) {
        b.add(" AND (op_name = ?3 OR (slot IS NULL AND matrix_op = ?3))", 3, sel.opName);
    } else {
        b.add(" AND type = ?3", 3, op.opType);
        if (!totals)
            b.add(" AND slot = ?4", 4, std::optional<std::string>(op.slot));
    }
    if (totals) {
        const std::string stepWhere = b.where;
        b.where += " AND (slot = 'total' OR slot IS NULL) AND COALESCE(matrix_op, '') <> 'Total Op Info'";
        if (!op.opType) {
            auto any = db.prepare("SELECT EXISTS (SELECT 1 FROM " + rows + b.where + ")");
            b.bind(any);
            m.totalOpInfo = any.step() && any.int64(0) == 0;
            if (m.totalOpInfo)
                b.where = stepWhere + " AND matrix_op = 'Total Op Info'";
        }
    }
    const std::string selected = "sel AS (SELECT *, " + std::string(kLinkOp)
        + " AS link_op, ROW_NUMBER() OVER (ORDER BY step IS NOT NULL, step, rid_op, rid_seq) AS pos FROM " + rows + b.where + ")";

    // Local-rank policy: one group's local ranks only when no off-diagonal link has global ranks.
    bool hasGlobal = false;
    std::vector<std::pair<std::string, double>> localVolume; // ascending group
    {
        auto st = db.prepare("WITH " + selected + " SELECT grp, is_local, SUM(CASE WHEN " + kOffDiagonal
            + " THEN size ELSE 0 END), MAX(" + kOffDiagonal + ") FROM sel GROUP BY is_local, grp ORDER BY grp");
        b.bind(st);
        while (st.step()) {
            if (st.int64(1) != 0)
                localVolume.emplace_back(st.text(0), st.real(2));
            else
                hasGlobal = hasGlobal || st.int64(3) != 0;
        }
    }
    if (!hasGlobal && !localVolume.empty()) {
        auto best = localVolume.begin();
        for (auto it = localVolume.begin(); it != localVolume.end(); ++it)
            best = it->second > best->second ? it : best;
        m.localGroup = best->first;
    }
    for (const auto& [group, volume] : localVolume) {
        if (group != m.localGroup)
            m.hiddenLocalGroups.push_back(group);
    }
    Binder kept = b;
    std::string policy = " WHERE NOT is_local";
    if (m.localGroup) {
        policy = " WHERE is_local AND grp = ?9";
        kept.texts.emplace_back(9, *m.localGroup);
    }

    // Every link the policy keeps, in the index's order, marked whether it is the one kept of its (step, group,
    // op type, src, dst): the sender's copy when the sender wrote one, else the first.
    const std::string dedupType = sel.opName ? "link_op" : "type";
    auto st = db.prepare("WITH " + selected
        + ", firsts AS (SELECT grp, MIN(pos) AS first FROM sel GROUP BY grp), kept AS (SELECT * FROM sel" + policy
        + "), runs AS (SELECT *, NOT MAX(rank_id = src) OVER (PARTITION BY step, grp, src, dst) OR rank_id = src AS "
          "sender FROM kept), "
          "once AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY step, grp, src, dst, sender, "
        + dedupType
        + " ORDER BY pos) AS n FROM runs) "
          "SELECT o.step IS NOT NULL, COALESCE(o.step, 0), f.first, o.src, o.dst, o.sender AND o.n = 1, o.transport, "
          "o.link_op, o.size, o.time FROM once o JOIN firsts f ON f.grp = o.grp ORDER BY o.pos");
    kept.bind(st);
    struct Link {
        std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t> run; // (has step, step, group's first row, src, dst)
        bool kept = false;
        std::string transport, opName;
        double sizeMb = 0;
        int64_t timeNs = 0;
    };
    std::vector<Link> links;
    while (st.step()) {
        links.push_back({ { st.int64(0), st.int64(1), st.int64(2), st.int64(3), st.int64(4) }, st.int64(5) != 0,
            st.text(6), totals ? std::string() : st.text(7), st.real(8), st.int64(9) });
    }
    // A cell sums its links run by run in std::sort's order of the runs (the index sorts its links the same way, and
    // the order of floating-point additions decides the last bits of a size).
    std::vector<size_t> order(links.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return links[x].run < links[y].run; });
    std::map<std::pair<int64_t, int64_t>, std::pair<MatrixCell, std::string>> cells; // cell, its first transport
    for (size_t i : order) {
        const Link& l = links[i];
        if (!l.kept)
            continue;
        auto& [c, firstTransport] = cells[{ std::get<3>(l.run), std::get<4>(l.run) }];
        if (c.links == 0) {
            c.src = std::get<3>(l.run);
            c.dst = std::get<4>(l.run);
            c.transport = firstTransport = l.transport;
            c.opName = l.opName;
        }
        if (l.transport != firstTransport)
            c.transport = "mixed";
        if (l.opName != c.opName)
            c.opName = "several ops";
        c.sizeMb += l.sizeMb;
        c.timeNs += l.timeNs;
        ++c.links;
    }
    for (auto& [key, cell] : cells)
        m.cells.push_back(std::move(cell.first));
    for (size_t i = 0; i < m.cells.size(); ++i) {
        const MatrixCell& c = m.cells[i];
        if (c.transport != "LOCAL" && c.src != c.dst && c.timeNs > 0
            && (!m.slowestCell || *c.bandwidthGbps() < *m.cells[*m.slowestCell].bandwidthGbps()))
            m.slowestCell = i;
    }
    orderAxis(db, m, sel, orderBy);
    return m;
}

} // namespace npuscope::test
