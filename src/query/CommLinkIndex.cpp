// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/model/ReadRow.h"

#include "StepBuckets.h"

#include <algorithm>
#include <array>
#include <climits>
#include <set>

namespace npuscope::query {

namespace {

// One comm_link_op row: what its links share. Its strings are ids of the ops' own table (every op row, read once),
// mapped to the index's table when a link first uses them, so the index holds only strings some link carries.
struct LinkOp {
    int64_t id = 0;
    int64_t firstRow = 0, lastRow = -1; // NULL bounds: no link joins the op (the comm_link view's BETWEEN)
    int64_t step = 0;
    int32_t rank = 0;
    int32_t matrixOp = -1, opType = -1, slot = -1, group = -1; // ids in the ops' table, -1 for NULL
    bool hasStep = false;
    bool total = false; // matrix_op = 'Total Op Info'
};

// Ids of the ops' table to ids of the index's, added to the index on first use. Ops hold a few distinct strings,
// so 76,800 op rows of a 1,024-rank cluster need no string of their own (they were 0.12 s of page faults).
class OpStrings {
public:
    int32_t local(std::optional<std::string_view> s) { return m_local.intern(s); }
    std::string_view text(int32_t id) const { return id < 0 ? std::string_view() : m_local.text(id); }
    int32_t indexId(int32_t id, StringTable& index)
    {
        if (id < 0)
            return -1;
        if (static_cast<size_t>(id) >= m_toIndex.size())
            m_toIndex.resize(m_local.size(), -2);
        auto& mapped = m_toIndex[static_cast<size_t>(id)];
        if (mapped == -2)
            mapped = index.intern(m_local.text(id));
        return mapped;
    }

private:
    StringTable m_local;
    std::vector<int32_t> m_toIndex; // -2: not in the index yet
};

constexpr int32_t kNullRank = INT32_MIN;

int32_t rankOrNull(const model::Statement& st, int col)
{
    return st.isNull(col) ? kNullRank : static_cast<int32_t>(st.int64(col));
}

using Row = CommLinkIndex::Row;

std::vector<LinkOp> readLinkOps(model::Database& db, OpStrings& opStrings)
{
    std::vector<LinkOp> ops;
    ops.reserve(static_cast<size_t>(db.scalarInt("SELECT COUNT(*) FROM comm_link_op").value_or(0)));
    auto opSt = db.prepare("SELECT id, first_row, last_row, rank_id, step, matrix_op, op_type, slot, group_hash "
                           "FROM comm_link_op ORDER BY id");
    while (opSt.step()) {
        LinkOp o;
        o.id = opSt.int64(0);
        if (!opSt.isNull(1) && !opSt.isNull(2)) {
            o.firstRow = opSt.int64(1);
            o.lastRow = opSt.int64(2);
        }
        o.rank = static_cast<int32_t>(opSt.int64(3));
        o.hasStep = !opSt.isNull(4);
        o.step = o.hasStep ? opSt.int64(4) : 0;
        const auto matrixOp = opSt.textView(5).value_or(std::string_view());
        o.total = matrixOp == "Total Op Info";
        o.matrixOp = opStrings.local(matrixOp);
        o.opType = opStrings.local(opSt.textView(6));
        o.slot = opStrings.local(opSt.textView(7));
        o.group = opStrings.local(opSt.textView(8));
        ops.push_back(o);
    }
    return ops;
}

// Op names by comm_link_name.id, interned in the index when a link first uses them.
class OpNames {
public:
    explicit OpNames(model::Database& db)
    {
        auto st = db.prepare("SELECT id, value FROM comm_link_name ORDER BY id");
        while (st.step())
            m_names.emplace_back(st.int64(0), st.text(1));
        m_ids.assign(m_names.size(), -2);
    }
    // The index's id of name nameId, -1 when there is no such name.
    int32_t id(int64_t nameId, StringTable& strings)
    {
        const auto name = std::lower_bound(m_names.begin(), m_names.end(), std::pair(nameId, std::string()),
            [](const auto& a, const auto& b) { return a.first < b.first; });
        if (name == m_names.end() || name->first != nameId)
            return -1;
        auto& id = m_ids[static_cast<size_t>(name - m_names.begin())];
        if (id == -2)
            id = strings.intern(name->second);
        return id;
    }

private:
    std::vector<std::pair<int64_t, std::string>> m_names;
    std::vector<int32_t> m_ids; // -2: not interned yet
};

// The link rows as the view gives them, with global ranks (kNullRank when unknown) and, aside, the local ranks and
// the groups holding group-local ranks (CommQuery::localRankGroupsSql, NULL and '' alike).
struct RawLinks {
    core::HugeVector<std::pair<int32_t, int32_t>> localRanks;
    std::set<std::string> localGroups;
};

RawLinks readLinkRows(model::Database& db, const std::vector<LinkOp>& ops, OpStrings& opStrings, StringTable& strings,
    core::HugeVector<Row>& rows)
{
    OpNames names(db);
    RawLinks raw;
    const auto n = static_cast<size_t>(db.scalarInt("SELECT COUNT(*) FROM comm_link_row").value_or(0));
    rows.reserve(n);
    raw.localRanks.reserve(n);
    size_t current = 0; // the op of the previous row: a file's links are consecutive
    size_t interned = SIZE_MAX; // the op whose index ids are in ids
    std::array<int32_t, 4> ids {};
    std::optional<std::string> lastTransport;
    int32_t lastTransportId = -1;
    auto rowSt = db.prepare("SELECT id, op_id, src, dst, local_src, local_dst, transport, size_mb, time_ns, "
                            "bandwidth_gbps, op_name_id FROM comm_link_row ORDER BY id");
    while (rowSt.step()) {
        const int64_t rowId = rowSt.int64(0);
        const int64_t opId = rowSt.int64(1);
        if (current >= ops.size() || ops[current].id != opId) {
            const auto it
                = std::lower_bound(ops.begin(), ops.end(), opId, [](const LinkOp& o, int64_t id) { return o.id < id; });
            if (it == ops.end() || it->id != opId)
                continue;
            current = static_cast<size_t>(it - ops.begin());
        }
        const LinkOp& op = ops[current];
        if (rowId < op.firstRow || rowId > op.lastRow)
            continue;
        if (current != interned) {
            // The op's first link (in the order matrix_op, op_type, slot, group, as the strings were added before).
            interned = current;
            ids = { opStrings.indexId(op.matrixOp, strings), opStrings.indexId(op.opType, strings),
                opStrings.indexId(op.slot, strings), opStrings.indexId(op.group, strings) };
        }
        Row row;
        row.reportedBy = op.rank;
        row.hasStep = op.hasStep;
        row.step = op.step;
        row.matrixOp = ids[0];
        row.opType = ids[1];
        row.slot = ids[2];
        row.group = ids[3];
        row.src = rankOrNull(rowSt, 2);
        row.dst = rankOrNull(rowSt, 3);
        // A handful of transports, in runs: the previous row's id when the text is the same.
        const auto transport = rowSt.textView(6);
        if (transport != lastTransport) {
            lastTransportId = strings.intern(transport);
            lastTransport = transport ? std::optional<std::string>(*transport) : std::nullopt;
        }
        row.transport = lastTransportId;
        row.sizeMb = rowSt.optReal(7).value_or(0.0);
        row.timeNs = rowSt.optInt(8).value_or(0);
        row.bandwidthGbps = rowSt.optReal(9).value_or(0.0);
        if (!rowSt.isNull(10))
            row.opName = names.id(rowSt.int64(10), strings);
        if ((row.src == kNullRank || row.dst == kNullRank) && !op.total)
            raw.localGroups.insert(std::string(opStrings.text(op.group)));
        rows.push_back(row);
        raw.localRanks.emplace_back(rankOrNull(rowSt, 4), rankOrNull(rowSt, 5));
    }
    return raw;
}

// A group with unknown global ranks keeps its rows with the local ranks as written (docs/metrics.md); a row whose
// chosen ranks are unknown is left out.
void chooseRanks(core::HugeVector<Row>& rows, const RawLinks& raw, const StringTable& strings)
{
    std::vector<char> localGroup(strings.size(), 0);
    const bool localNullGroup = raw.localGroups.count("") > 0;
    for (const auto& g : raw.localGroups) {
        if (const int32_t id = strings.id(g); id >= 0)
            localGroup[static_cast<size_t>(id)] = 1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        Row row = rows[i];
        row.local = !raw.localGroups.empty()
            && (row.group < 0 ? localNullGroup : localGroup[static_cast<size_t>(row.group)] != 0);
        if (row.local) {
            row.src = raw.localRanks[i].first;
            row.dst = raw.localRanks[i].second;
        }
        if (row.src == kNullRank || row.dst == kNullRank)
            continue;
        rows[kept++] = row;
    }
    rows.resize(kept);
}

std::vector<Group> readGroups(model::Database& db)
{
    std::vector<Group> out;
    auto groups = db.prepare("SELECT group_hash, name FROM comm_group ORDER BY group_hash");
    while (groups.step()) {
        Group g;
        model::readRow(groups, g.hash, g.name);
        out.push_back(std::move(g));
    }
    CommQuery::addMembers(db, out);
    return out;
}

} // namespace

// The comm_link view joins comm_link_row to its op and op name by the row id range; here the tables are read one by
// one (the ops and names once, the narrow link rows in id order, the order the view's plan scans them), joined in
// memory into the final rows (the array reserved once), and the groups holding group-local ranks found in the same
// pass: 0.48 s became about 0.13 s on a 1,024-rank cluster of 282,624 links.
std::shared_ptr<const CommLinkIndex> CommLinkIndex::build(model::Database& db)
{
    auto index = std::make_shared<CommLinkIndex>();
    OpStrings opStrings;
    const std::vector<LinkOp> ops = readLinkOps(db, opStrings);
    const RawLinks raw = readLinkRows(db, ops, opStrings, index->m_strings, index->m_rows);
    index->m_localGroups.assign(raw.localGroups.begin(), raw.localGroups.end());
    chooseRanks(index->m_rows, raw, index->m_strings);
    // Rows without a step sort first and are only returned for "every step".
    index->m_steps = bucketBySteps(
        index->m_rows, [](const Row& r) { return r.hasStep; }, [](const Row& r) { return r.step; });
    index->m_groups = readGroups(db);
    return index;
}

const std::vector<std::string>& CommLinkIndex::tables()
{
    static const std::vector<std::string> kTables { "comm_link_op", "comm_link_row", "comm_link_name", "comm_group", "comm_group_rank" };
    return kTables;
}

std::shared_ptr<const CommLinkIndex> CommLinkIndex::forDatabase(model::Database& db)
{
    return db.cachedFor<CommLinkIndex>(tables(), [](model::Database& d) { return build(d); });
}

std::pair<const CommLinkIndex::Row*, const CommLinkIndex::Row*> CommLinkIndex::rows(std::optional<int64_t> step) const
{
    const Row* base = m_rows.data();
    if (!step)
        return { base, base + m_rows.size() };
    for (const auto& [s, range] : m_steps) {
        if (s == *step)
            return { base + range.first, base + range.second };
    }
    return { base, base };
}

int32_t CommLinkIndex::id(const std::string& s) const { return m_strings.id(s); }

} // namespace npuscope::query
