// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommQuery.h"

#include "npuscope/core/HandOff.h"
#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <cstdint>
#include <deque>
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
        model::readRow(st, o.id, o.rank, o.step, o.kind, o.opKey, o.opName, o.opType, o.groupHash, o.isTotal, o.startNs,
            o.elapseNs, o.transitNs, o.waitNs, o.syncNs, o.idleNs, o.waitRatio, o.syncRatio);
        out.push_back(std::move(o));
    }
    return out;
}

namespace {

// One link as forEachLink holds it: its own columns, its op (an index into the sorted ops) and its transport (an
// interned text, nullptr for NULL); NULLs as bits.
struct LinkRow {
    enum Null : uint16_t {
        LocalSrc = 1,
        LocalDst = 2,
        Src = 4,
        Dst = 8,
        Size = 16,
        Time = 32,
        Bandwidth = 64,
        Name = 128
    };
    uint32_t op = 0;
    uint16_t nulls = 0;
    const std::string* transport = nullptr; // NULL: nullptr
    int64_t localSrc = 0, localDst = 0, src = 0, dst = 0, timeNs = 0, nameId = 0;
    double sizeMb = 0, bandwidthGbps = 0;

    std::optional<int64_t> get(int64_t v, Null bit) const { return nulls & bit ? std::nullopt : std::optional(v); }
    std::optional<double> get(double v, Null bit) const { return nulls & bit ? std::nullopt : std::optional(v); }
};

std::optional<std::string> owned(const std::optional<std::string_view>& v)
{
    return v ? std::optional<std::string>(std::string(*v)) : std::nullopt;
}

} // namespace

Link LinkRef::toLink() const
{
    Link l;
    l.reportedBy = reportedBy;
    l.step = step;
    l.kind = std::string(kind);
    l.matrixOp = std::string(matrixOp);
    l.opType = owned(opType);
    l.slot = owned(slot);
    l.groupHash = owned(groupHash);
    l.localSrc = localSrc;
    l.localDst = localDst;
    l.src = src;
    l.dst = dst;
    l.transport = owned(transport);
    l.sizeMb = sizeMb;
    l.timeNs = timeNs;
    l.bandwidthGbps = bandwidthGbps;
    l.opName = owned(opName);
    return l;
}

namespace {

bool nullsFirst(const std::optional<int64_t>& a, const std::optional<int64_t>& b)
{
    return a.has_value() != b.has_value() ? !a.has_value() : (a && *a < *b);
}

// The comm_link view's join written out for forEachLink. The ops (76,800 on a 1,024-rank cluster) are read in table
// order and sorted here as ORDER BY step, group_hash, matrix_op, id would (NULLs first, text by bytes as SQLite's
// BINARY collation), their texts interned, so an op's columns are read once (a join read them again for each link).
// Then block by block of equal (step, group_hash, matrix_op), each op's links are read by its row id range (the way
// into comm_link_row, which has no index on op_id) and the block is sorted by (src, dst, rank_id), NULLs first, ties
// in row order (SQLite's sorter for that part of the ORDER BY was 0.28 of the query's 0.36 s: its records carried
// every column). The interned op names are read once instead of a join per link. Reading all links in table order
// first instead of seeking each op's range saved 0.03 of 0.25 s and held every link.
class LinkWalk {
public:
    LinkWalk(model::Database& db, const CommFilter& filter)
        : m_rows(db.prepare("SELECT op_id, local_src, local_dst, src, dst, transport, size_mb, time_ns, "
                            "bandwidth_gbps, op_name_id FROM comm_link_row WHERE id BETWEEN ?1 AND ?2"))
    {
        readNames(db);
        readOps(db, filter);
        sortOps();
    }

    size_t opCount() const { return m_ops.size(); }
    // Whether ops a and b (indexes into the sorted ops) are in one block of equal (step, group_hash, matrix_op).
    bool sameBlock(size_t a, size_t b) const
    {
        return m_ops[a].step == m_ops[b].step && m_ops[a].group == m_ops[b].group
            && m_ops[a].matrixOp == m_ops[b].matrixOp;
    }
    // Appends op i's links to block.
    void read(size_t i, std::vector<LinkRow>& block);
    // Sorts each block of rows, visits its links in that order and empties rows. The texts, ops and names are not
    // changed any more once the reading is done (with LinkVisit::OtherThread this runs on the other thread).
    void visitBlocks(std::vector<LinkRow>& rows, const std::function<void(const LinkRef&)>& visit);

private:
    struct Op {
        int64_t id = 0, rank = 0;
        std::optional<int64_t> step;
        uint32_t kind = 0, matrixOp = 0, opType = 0, slot = 0, group = 0;
        int64_t firstRow = 0, lastRow = 0;
    };

    void readNames(model::Database& db);
    void readOps(model::Database& db, const CommFilter& filter);
    void sortOps();
    uint32_t intern(model::Statement& st, int col);
    const std::string* transportOf(model::Statement& st, int col);
    std::optional<std::string_view> text(uint32_t id) const
    {
        return id == 0 ? std::optional<std::string_view>() : std::optional<std::string_view>(m_texts[id]);
    }
    void fill(LinkRef& l, const LinkRow& r) const;

    std::unordered_map<int64_t, std::string> m_names;
    // Interned texts of ops; 0 is NULL.
    std::vector<std::string> m_texts = std::vector<std::string>(1);
    std::unordered_map<std::string, uint32_t> m_textIds;
    // Transports are a handful of texts (LOCAL, HCCS, SDMA, RDMA, PCIE, SIO) on every link: each distinct one kept
    // once, found by a short search. A deque, as the links point to its elements while it grows (with
    // LinkVisit::OtherThread the links already handed over are read on the other thread).
    std::deque<std::string> m_transports;
    std::string m_scratch;
    std::vector<Op> m_ops;
    std::vector<uint32_t> m_order;
    model::Statement m_rows;
};

void LinkWalk::readNames(model::Database& db)
{
    auto n = db.prepare("SELECT id, value FROM comm_link_name");
    while (n.step())
        m_names.emplace(n.int64(0), n.text(1));
}

uint32_t LinkWalk::intern(model::Statement& st, int col)
{
    if (st.isNull(col))
        return 0;
    st.readText(col, m_scratch);
    const auto [it, added] = m_textIds.emplace(m_scratch, static_cast<uint32_t>(m_texts.size()));
    if (added)
        m_texts.push_back(m_scratch);
    return it->second;
}

const std::string* LinkWalk::transportOf(model::Statement& st, int col)
{
    if (st.isNull(col))
        return nullptr;
    st.readText(col, m_scratch);
    for (const auto& t : m_transports) {
        if (t == m_scratch)
            return &t;
    }
    return &m_transports.emplace_back(m_scratch);
}

void LinkWalk::readOps(model::Database& db, const CommFilter& filter)
{
    auto st = db.prepare("SELECT id, rank_id, step, kind, matrix_op, op_type, slot, group_hash, first_row, last_row "
                         "FROM comm_link_op"
        + whereFor(filter, "(slot IS NULL OR slot <> 'total') AND matrix_op <> 'Total Op Info'"));
    bindFilter(st, filter);
    while (st.step()) {
        // An op without links (no range, or one the other way round) reads nothing.
        if (st.isNull(8) || st.isNull(9) || st.int64(8) > st.int64(9))
            continue;
        Op o;
        o.id = st.int64(0);
        o.rank = st.int64(1);
        o.step = st.optInt(2);
        o.kind = intern(st, 3);
        o.matrixOp = intern(st, 4);
        o.opType = intern(st, 5);
        o.slot = intern(st, 6);
        o.group = intern(st, 7);
        o.firstRow = st.int64(8);
        o.lastRow = st.int64(9);
        m_ops.push_back(o);
    }
}

void LinkWalk::sortOps()
{
    // Each interned text's place in byte order (NULL, id 0, first).
    std::vector<uint32_t> textRank(m_texts.size(), 0);
    std::vector<uint32_t> byText(m_texts.size() - 1);
    for (uint32_t i = 0; i < byText.size(); ++i)
        byText[i] = i + 1;
    std::sort(byText.begin(), byText.end(), [&](uint32_t a, uint32_t b) { return m_texts[a] < m_texts[b]; });
    for (uint32_t i = 0; i < byText.size(); ++i)
        textRank[byText[i]] = i + 1;
    std::sort(m_ops.begin(), m_ops.end(), [&](const Op& a, const Op& b) {
        if (a.step != b.step)
            return nullsFirst(a.step, b.step);
        if (a.group != b.group)
            return textRank[a.group] < textRank[b.group];
        if (a.matrixOp != b.matrixOp)
            return textRank[a.matrixOp] < textRank[b.matrixOp];
        return a.id < b.id;
    });
}

void LinkWalk::read(size_t i, std::vector<LinkRow>& block)
{
    const Op& o = m_ops[i];
    m_rows.reset();
    m_rows.bind(1, o.firstRow);
    m_rows.bind(2, o.lastRow);
    while (m_rows.step()) {
        if (m_rows.int64(0) != o.id)
            continue;
        LinkRow& r = block.emplace_back();
        r.op = static_cast<uint32_t>(i);
        const auto integer = [&](int col, int64_t& out, LinkRow::Null bit) {
            if (m_rows.isNull(col))
                r.nulls |= bit;
            else
                out = m_rows.int64(col);
        };
        const auto real = [&](int col, double& out, LinkRow::Null bit) {
            if (m_rows.isNull(col))
                r.nulls |= bit;
            else
                out = m_rows.real(col);
        };
        integer(1, r.localSrc, LinkRow::LocalSrc);
        integer(2, r.localDst, LinkRow::LocalDst);
        integer(3, r.src, LinkRow::Src);
        integer(4, r.dst, LinkRow::Dst);
        r.transport = transportOf(m_rows, 5);
        real(6, r.sizeMb, LinkRow::Size);
        integer(7, r.timeNs, LinkRow::Time);
        real(8, r.bandwidthGbps, LinkRow::Bandwidth);
        integer(9, r.nameId, LinkRow::Name);
    }
}

void LinkWalk::fill(LinkRef& l, const LinkRow& r) const
{
    const Op& o = m_ops[r.op];
    l.reportedBy = o.rank;
    l.step = o.step;
    l.kind = m_texts[o.kind];
    l.matrixOp = m_texts[o.matrixOp];
    l.opType = text(o.opType);
    l.slot = text(o.slot);
    l.groupHash = text(o.group);
    l.localSrc = r.get(r.localSrc, LinkRow::LocalSrc);
    l.localDst = r.get(r.localDst, LinkRow::LocalDst);
    l.src = r.get(r.src, LinkRow::Src);
    l.dst = r.get(r.dst, LinkRow::Dst);
    l.transport = r.transport ? std::optional<std::string_view>(*r.transport) : std::nullopt;
    l.sizeMb = r.get(r.sizeMb, LinkRow::Size);
    l.timeNs = r.get(r.timeNs, LinkRow::Time);
    l.bandwidthGbps = r.get(r.bandwidthGbps, LinkRow::Bandwidth);
    const auto it = r.nulls & LinkRow::Name ? m_names.end() : m_names.find(r.nameId);
    l.opName = it == m_names.end() ? std::nullopt : std::optional<std::string_view>(it->second);
}

void LinkWalk::visitBlocks(std::vector<LinkRow>& rows, const std::function<void(const LinkRef&)>& visit)
{
    LinkRef l;
    for (size_t start = 0; start < rows.size();) {
        size_t end = start + 1;
        while (end < rows.size() && sameBlock(rows[start].op, rows[end].op))
            ++end;
        m_order.resize(end - start);
        for (uint32_t i = 0; i < m_order.size(); ++i)
            m_order[i] = static_cast<uint32_t>(start + i);
        std::stable_sort(m_order.begin(), m_order.end(), [&](uint32_t x, uint32_t y) {
            const LinkRow& a = rows[x];
            const LinkRow& b = rows[y];
            const auto as = a.get(a.src, LinkRow::Src), bs = b.get(b.src, LinkRow::Src);
            if (as != bs)
                return nullsFirst(as, bs);
            const auto ad = a.get(a.dst, LinkRow::Dst), bd = b.get(b.dst, LinkRow::Dst);
            if (ad != bd)
                return nullsFirst(ad, bd);
            return m_ops[a.op].rank < m_ops[b.op].rank;
        });
        for (const uint32_t i : m_order) {
            fill(l, rows[i]);
            visit(l);
        }
        start = end;
    }
    rows.clear();
}

} // namespace

void CommQuery::forEachLink(
    model::Database& db, const CommFilter& filter, const std::function<void(const LinkRef&)>& visit, LinkVisit where)
{
    LinkWalk walk(db, filter);
    if (where == LinkVisit::CallerThread) {
        std::vector<LinkRow> block;
        for (size_t i = 0; i < walk.opCount(); ++i) {
            if (!block.empty() && !walk.sameBlock(block.back().op, i))
                walk.visitBlocks(block, visit);
            walk.read(i, block);
        }
        walk.visitBlocks(block, visit);
        return;
    }
    // Two batches of whole blocks (at least kBatchLinks links each, or one block): one read here while the other is
    // visited; a batch per block cost more in thread hand-overs than it saved (a tp group's block is ~30 links). A
    // visit that threw stops the reading; finish() rethrows its exception.
    constexpr size_t kBatchLinks = 8192;
    HandOff<std::vector<LinkRow>> handOff(2, [&](std::vector<LinkRow>& rows) { walk.visitBlocks(rows, visit); });
    try {
        for (size_t i = 0; i < walk.opCount(); ++i) {
            const auto& batch = handOff.slot();
            if (batch.size() >= kBatchLinks && !walk.sameBlock(batch.back().op, i))
                handOff.hand();
            walk.read(i, handOff.slot());
        }
        handOff.hand();
    } catch (const HandOff<std::vector<LinkRow>>::Stopped&) {
    }
    handOff.finish();
}

std::vector<Link> CommQuery::links(model::Database& db, const CommFilter& filter)
{
    std::vector<Link> out;
    forEachLink(db, filter, [&out](const LinkRef& l) { out.push_back(l.toLink()); });
    return out;
}

namespace {

struct StepList {
    std::vector<int64_t> steps;
};

StepList readSteps(model::Database& db)
{
    StepList list;
    auto st = db.prepare("SELECT step FROM step_trace WHERE step IS NOT NULL "
                         "UNION SELECT step FROM comm_op WHERE step IS NOT NULL ORDER BY 1");
    while (st.step())
        list.steps.push_back(st.int64(0));
    return list;
}

} // namespace

std::vector<int64_t> CommQuery::steps(model::Database& db)
{
    // Per table, as groups(): both communication docks' selection bars ask for it after an open (a scan of comm_op,
    // 25 ms at 1,024 ranks).
    return db
        .cachedFor<StepList>({ "step_trace", "comm_op" },
            [](model::Database& d) { return std::make_shared<const StepList>(readSteps(d)); })
        ->steps;
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

// CommQuery::groups of one model state (Database::cachedFor: a row change in comm_group, comm_group_rank or comm_op
// drops it). The summary report, the CLI and several docks ask for the list; its op counts are one pass over comm_op
// (0.1 s on 138,240 ops).
struct GroupList {
    std::vector<Group> groups;
};

std::vector<Group> readGroups(model::Database& db)
{
    std::vector<Group> out;
    // The op counts in one GROUP BY over comm_op: a subquery per group needed an index on comm_op(group_hash), whose
    // build took as long as this pass (0.1-0.17 s of a 1,024-rank load) and paid off only through this query.
    auto st = db.prepare("SELECT g.group_hash, g.raw_name, g.name, g.ranks_source, COALESCE(c.n, 0) FROM comm_group g "
                         "LEFT JOIN (SELECT group_hash, COUNT(DISTINCT op_key) AS n FROM comm_op WHERE is_total = 0 "
                         "AND group_hash IS NOT NULL GROUP BY group_hash) c ON c.group_hash = g.group_hash "
                         "ORDER BY g.name IS NULL, g.name, g.group_hash");
    while (st.step()) {
        Group g;
        model::readRow(st, g.hash, g.rawName, g.name, g.ranksSource, g.opCount);
        out.push_back(std::move(g));
    }
    CommQuery::addMembers(db, out);
    return out;
}

} // namespace

void CommQuery::addMembers(model::Database& db, std::vector<Group>& groups)
{
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < groups.size(); ++i)
        index.emplace(groups[i].hash, i);
    auto members = db.prepare("SELECT group_hash, global_rank FROM comm_group_rank ORDER BY group_hash, local_rank");
    while (members.step()) {
        if (auto it = index.find(members.text(0)); it != index.end())
            groups[it->second].ranks.push_back(members.int64(1));
    }
}

std::vector<Group> CommQuery::groups(model::Database& db)
{
    // Per table: timelines and kernels imported later (Expand all ranks) keep the list; it was read again (0.1 s at
    // 1,024 ranks) by every communication view after each rank's import.
    return db
        .cachedFor<GroupList>({ "comm_group", "comm_group_rank", "comm_op" },
            [](model::Database& d) { return std::make_shared<const GroupList>(GroupList { readGroups(d) }); })
        ->groups;
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
