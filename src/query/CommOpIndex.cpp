// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommOpIndex.h"

#include "StepBuckets.h"

#include <algorithm>
#include <tuple>

namespace npuscope::query {

namespace {

struct IdRange {
    int64_t min = 0, max = -1;
    size_t count = 0;
};

// SELECT MIN(id), MAX(id), COUNT(*) ...: what DenseIdMap and a reserve() need.
IdRange idRange(model::Database& db, const char* sql)
{
    IdRange r;
    auto st = db.prepare(sql);
    if (st.step() && !st.isNull(0)) {
        r.min = st.int64(0);
        r.max = st.int64(1);
        r.count = static_cast<size_t>(st.int64(2));
    }
    return r;
}

// Lays out rows grouped by an owner index (an op, a bandwidth row), keeping their order within an owner: a counting
// sort. setRange(owner, begin, end) receives each owner's [begin, end).
template <typename Rows, typename Out, typename OwnerOf, typename Value, typename SetRange>
void layOutByOwner(const Rows& rows, size_t owners, Out& out, OwnerOf ownerOf, Value value, SetRange setRange)
{
    using Row = typename Rows::value_type;
    std::vector<uint32_t> next(owners + 1, 0);
    for (const Row& r : rows)
        ++next[ownerOf(r) + 1];
    for (size_t i = 1; i <= owners; ++i)
        next[i] += next[i - 1];
    for (size_t i = 0; i < owners; ++i)
        setRange(i, next[i], next[i + 1]);
    out.resize(rows.size());
    for (const Row& r : rows)
        out[next[ownerOf(r)]++] = value(r);
}

} // namespace

// Reads comm_op, comm_bandwidth and comm_packet once each, without a string per row (interned from the statement's
// own text) and without hash maps or sorts over the rows (ids are dense, rows are laid out by counting): 0.45 s
// became about 0.15 s on a 1,024-rank cluster of 132,096 ops, where the SQL scan alone takes 0.04 s.
std::shared_ptr<const CommOpIndex> CommOpIndex::build(model::Database& db)
{
    auto index = std::make_shared<CommOpIndex>();
    auto& ops = index->m_ops;
    const auto opIds = idRange(db, "SELECT MIN(id), MAX(id), COUNT(*) FROM comm_op WHERE is_total = 0");
    ops.reserve(opIds.count);
    auto st = db.prepare("SELECT id, rank_id, step, op_name, group_hash, start_ns, elapse_ns, transit_ns, wait_ns, "
                         "sync_ns, idle_ns FROM comm_op WHERE is_total = 0 ORDER BY id");
    while (st.step()) {
        Op o;
        o.id = st.int64(0);
        o.rank = static_cast<int32_t>(st.int64(1));
        o.hasStep = !st.isNull(2);
        o.step = o.hasStep ? st.int64(2) : 0;
        o.name = index->m_strings.intern(st.textView(3).value_or(std::string_view()));
        o.group = index->m_strings.intern(st.textView(4));
        o.hasStart = !st.isNull(5);
        o.startNs = o.hasStart ? st.int64(5) : 0;
        o.elapseNs = st.optInt(6).value_or(0);
        o.transitNs = st.optInt(7).value_or(0);
        o.waitNs = st.optInt(8).value_or(0);
        o.syncNs = st.optInt(9).value_or(0);
        o.idleNs = st.optInt(10).value_or(0);
        o.present = static_cast<uint8_t>((st.isNull(7) ? 0 : kHasTransit) | (st.isNull(8) ? 0 : kHasWait)
            | (st.isNull(9) ? 0 : kHasSync) | (st.isNull(10) ? 0 : kHasIdle));
        ops.push_back(o);
    }
    // Read in id order, so grouping by step keeps each step's ops by id; rows without a step come first and are only
    // returned for "every op".
    index->m_steps = bucketBySteps(
        ops, [](const Op& o) { return o.hasStep; }, [](const Op& o) { return o.step; });

    // Bandwidth rows of each op, laid out in op order, each op's rows by ascending id.
    DenseIdMap opOf(opIds.min, opIds.max, ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        opOf.add(ops[i].id, i);
    opOf.seal();
    struct RawBandwidth {
        size_t op;
        Bandwidth bw;
    };
    core::HugeVector<RawBandwidth> raw;
    raw.reserve(idRange(db, "SELECT MIN(id), MAX(id), COUNT(*) FROM comm_bandwidth").count);
    int64_t minBw = 0, maxBw = -1;
    auto bw
        = db.prepare("SELECT id, comm_op_id, transport, size_mb, transit_ns, large_packet_ratio FROM comm_bandwidth "
                     "ORDER BY id");
    while (bw.step()) {
        const size_t op = opOf.find(bw.int64(1));
        if (op == DenseIdMap::npos)
            continue; // a Total Op Info row
        Bandwidth b;
        b.id = bw.int64(0);
        b.transport = index->m_strings.intern(bw.textView(2).value_or(std::string_view()));
        b.sizeMb = bw.optReal(3).value_or(0.0);
        b.transitNs = bw.optInt(4).value_or(0);
        b.largePacketRatio = bw.optReal(5);
        minBw = raw.empty() ? b.id : std::min(minBw, b.id);
        maxBw = raw.empty() ? b.id : std::max(maxBw, b.id);
        raw.push_back({ op, b });
    }
    layOutByOwner(
        raw, ops.size(), index->m_bandwidths, [](const RawBandwidth& r) { return r.op; },
        [](const RawBandwidth& r) { return r.bw; },
        [&ops](size_t op, uint32_t begin, uint32_t end) {
            ops[op].bwBegin = begin;
            ops[op].bwEnd = end;
        });
    raw = {};

    auto& bandwidths = index->m_bandwidths;
    DenseIdMap bwOf(minBw, maxBw, bandwidths.size());
    for (size_t i = 0; i < bandwidths.size(); ++i)
        bwOf.add(bandwidths[i].id, i);
    bwOf.seal();
    core::HugeVector<std::pair<size_t, Packet>> packets;
    packets.reserve(idRange(db, "SELECT 0, 0, COUNT(*) FROM comm_packet").count);
    auto pk = db.prepare("SELECT comm_bandwidth_id, package_mb, count, total_ns FROM comm_packet");
    while (pk.step()) {
        const size_t b = bwOf.find(pk.int64(0));
        if (b == DenseIdMap::npos)
            continue;
        packets.push_back({ b, Packet { pk.real(1), pk.optInt(2).value_or(0), pk.optInt(3).value_or(0) } });
    }
    layOutByOwner(
        packets, bandwidths.size(), index->m_packets, [](const auto& p) { return p.first; },
        [](const auto& p) { return p.second; },
        [&bandwidths](size_t b, uint32_t begin, uint32_t end) {
            bandwidths[b].packetBegin = begin;
            bandwidths[b].packetEnd = end;
        });
    return index;
}

const std::vector<std::string>& CommOpIndex::tables()
{
    static const std::vector<std::string> kTables { "comm_op", "comm_bandwidth", "comm_packet" };
    return kTables;
}

std::shared_ptr<const CommOpIndex> CommOpIndex::forDatabase(model::Database& db)
{
    return db.cachedFor<CommOpIndex>(tables(), [](model::Database& d) { return build(d); });
}

std::span<const CommOpIndex::Op> CommOpIndex::ops(std::optional<int64_t> step) const
{
    if (!step)
        return { m_ops.data(), m_ops.size() };
    for (const auto& [s, range] : m_steps) {
        if (s == *step)
            return { m_ops.data() + range.first, m_ops.data() + range.second };
    }
    return {};
}

int32_t CommOpIndex::id(const std::string& s) const { return m_strings.id(s); }

} // namespace npuscope::query
