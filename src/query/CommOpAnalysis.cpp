// SPDX-License-Identifier: Apache-2.0
// CommAnalysisQuery's per-rank figures from the op index (CommOpIndex): the op names of a selection, the durations
// and ratios per rank, the packet distributions and the op strip; and the two whole-database queries that need no
// index (noCommReason, timeOverview). The link figures (matrix, link table, matrix op choices) are in
// CommAnalysisQuery.cpp.
#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StepQuery.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>

namespace npuscope::query {

namespace {
std::optional<double> ratio(int64_t part, int64_t other)
{
    if (part + other <= 0)
        return std::nullopt;
    return static_cast<double>(part) / static_cast<double>(part + other);
}

// Wait Ratio and Sync Ratio (docs/metrics.md), only where the files give both of their figures.
void setRatios(RankDuration& d)
{
    d.waitRatio = d.hasWait && d.hasTransit ? ratio(d.waitNs, d.transitNs) : std::nullopt;
    d.syncRatio = d.hasSync && d.hasTransit ? ratio(d.syncNs, d.transitNs) : std::nullopt;
}

// The comm_op rows a selection keeps, as the SQL WHERE step = ?1 AND group_hash = ?2 AND op_name = ?3
// (each only when set) AND is_total = 0 keeps them; the index holds no total rows.
class OpFilter {
public:
    OpFilter(const CommOpIndex& index, const CommSelection& sel, bool withOpName)
        : m_group(sel.groupHash ? index.id(*sel.groupHash) : kAny)
        , m_name(withOpName && sel.opName ? index.id(*sel.opName) : kAny)
    {
        // A value no row holds matches nothing.
        m_none = m_group == -1 || m_name == -1;
        if (!m_none)
            m_ops = index.ops(sel.step);
    }
    std::span<const CommOpIndex::Op> ops() const { return m_ops; }
    bool keeps(const CommOpIndex::Op& o) const
    {
        return (m_group == kAny || o.group == m_group) && (m_name == kAny || o.name == m_name);
    }

private:
    static constexpr int32_t kAny = -2;
    int32_t m_group, m_name;
    bool m_none = false;
    std::span<const CommOpIndex::Op> m_ops;
};

} // namespace

std::vector<std::string> CommAnalysisQuery::opNames(const CommOpIndex& index, const CommSelection& sel)
{
    const OpFilter filter(index, sel, false);
    std::vector<int32_t> ids;
    for (const auto& o : filter.ops()) {
        if (filter.keeps(o))
            ids.push_back(o.name);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::vector<std::string> out;
    out.reserve(ids.size());
    for (int32_t id : ids)
        out.push_back(index.text(id));
    // ORDER BY op_name: SQLite's BINARY collation compares bytes, as std::string does.
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<RankDuration> CommAnalysisQuery::durations(const CommOpIndex& index, const CommSelection& sel)
{
    const OpFilter filter(index, sel, true);
    const int32_t sdma = index.id("SDMA"), rdma = index.id("RDMA");
    std::map<int64_t, RankDuration> byRank;
    std::map<int64_t, std::pair<bool, bool>> seen; // rank -> (SDMA rows, RDMA rows)
    std::vector<std::pair<int64_t, const CommOpIndex::Bandwidth*>> rows; // (rank, row)
    for (const auto& o : filter.ops()) {
        if (!filter.keeps(o))
            continue;
        RankDuration& d = byRank[o.rank];
        d.rank = o.rank;
        ++d.opCount;
        d.elapseNs += o.elapseNs;
        d.transitNs += o.transitNs;
        d.waitNs += o.waitNs;
        d.syncNs += o.syncNs;
        d.idleNs += o.idleNs;
        d.hasTransit |= (o.present & CommOpIndex::kHasTransit) != 0;
        d.hasWait |= (o.present & CommOpIndex::kHasWait) != 0;
        d.hasSync |= (o.present & CommOpIndex::kHasSync) != 0;
        d.hasIdle |= (o.present & CommOpIndex::kHasIdle) != 0;
        for (const auto& b : index.bandwidths(o)) {
            if (b.transport >= 0 && (b.transport == sdma || b.transport == rdma))
                rows.emplace_back(o.rank, &b);
        }
    }
    // Sizes are summed in comm_bandwidth.id order, the order the SQL path reads them in.
    const auto byId = [](const auto& a, const auto& b) { return a.second->id < b.second->id; };
    if (!std::is_sorted(rows.begin(), rows.end(), byId))
        std::sort(rows.begin(), rows.end(), byId);
    for (const auto& [rank, b] : rows) {
        RankDuration& d = byRank[rank];
        if (b->transport == sdma) {
            d.sdmaSizeMb += b->sizeMb;
            d.sdmaTimeNs += b->transitNs;
            seen[rank].first = true;
        } else {
            d.rdmaSizeMb += b->sizeMb;
            d.rdmaTimeNs += b->transitNs;
            seen[rank].second = true;
        }
    }
    std::vector<RankDuration> out;
    out.reserve(byRank.size());
    for (auto& [rank, d] : byRank) {
        setRatios(d);
        if (auto it = seen.find(rank); it != seen.end()) {
            if (it->second.first)
                d.sdmaBandwidthGbps = bandwidthGbpsOf(d.sdmaSizeMb, d.sdmaTimeNs);
            if (it->second.second)
                d.rdmaBandwidthGbps = bandwidthGbpsOf(d.rdmaSizeMb, d.rdmaTimeNs);
        }
        out.push_back(d);
    }
    return out;
}

std::vector<PacketDistribution> CommAnalysisQuery::packets(
    const CommOpIndex& index, const CommSelection& sel, std::optional<int64_t> rank)
{
    const OpFilter filter(index, sel, true);
    std::vector<const CommOpIndex::Bandwidth*> rows;
    for (const auto& o : filter.ops()) {
        if (!filter.keeps(o) || (rank && o.rank != *rank))
            continue;
        for (const auto& b : index.bandwidths(o)) {
            if (b.packetEnd > b.packetBegin)
                rows.push_back(&b);
        }
    }
    // The weighted ratio is summed in comm_bandwidth.id order, as the SQL path does (ORDER BY b.id).
    const auto byId = [](const CommOpIndex::Bandwidth* a, const CommOpIndex::Bandwidth* b) { return a->id < b->id; };
    if (!std::is_sorted(rows.begin(), rows.end(), byId))
        std::sort(rows.begin(), rows.end(), byId);
    std::map<std::string, std::map<double, PacketBin>> bins;
    std::map<std::string, std::pair<double, int64_t>> weighted; // Σ ratio × packets, Σ packets
    for (const auto* b : rows) {
        const std::string& transport = index.text(b->transport);
        auto& byMb = bins[transport];
        int64_t rowPackets = 0;
        for (const auto& p : index.packets(*b)) {
            PacketBin& bin = byMb[p.packageMb];
            bin.packageMb = p.packageMb;
            bin.count += p.count;
            bin.totalNs += p.totalNs;
            rowPackets += p.count;
        }
        if (b->largePacketRatio) {
            auto& [sum, n] = weighted[transport];
            sum += *b->largePacketRatio * static_cast<double>(rowPackets);
            n += rowPackets;
        }
    }
    std::vector<PacketDistribution> out;
    for (auto& [t, byMb] : bins) {
        PacketDistribution d;
        d.transport = t;
        for (auto& [mb, bin] : byMb) {
            d.packets += bin.count;
            d.bins.push_back(bin);
        }
        if (auto it = weighted.find(t); it != weighted.end() && it->second.second > 0)
            d.largePacketRatio = it->second.first / static_cast<double>(it->second.second);
        if (d.packets > 0)
            out.push_back(std::move(d));
    }
    return out;
}

OpStrip CommAnalysisQuery::opStrip(const CommOpIndex& index, const CommSelection& sel)
{
    const OpFilter filter(index, sel, false);
    std::vector<const CommOpIndex::Op*> rows;
    for (const auto& o : filter.ops()) {
        if (filter.keeps(o) && o.hasStart)
            rows.push_back(&o);
    }
    // ORDER BY rank_id, start_ns; ties keep comm_op.id order.
    std::stable_sort(rows.begin(), rows.end(), [](const CommOpIndex::Op* a, const CommOpIndex::Op* b) {
        return std::make_tuple(a->rank, a->startNs, a->id) < std::make_tuple(b->rank, b->startNs, b->id);
    });
    OpStrip s;
    std::unordered_map<int32_t, int64_t> firstStart;
    for (const auto* o : rows) {
        OpSpan span;
        span.rank = o->rank;
        span.groupHash = o->group >= 0 ? index.text(o->group) : std::string();
        span.startNs = o->startNs;
        span.elapseNs = o->elapseNs;
        span.waitNs = o->waitNs;
        span.transitNs = o->transitNs;
        auto [it, inserted] = firstStart.emplace(o->name, o->startNs);
        if (!inserted)
            it->second = std::min(it->second, o->startNs);
        if (s.ranks.empty() || s.ranks.back() != span.rank)
            s.ranks.push_back(span.rank);
        s.beginNs = s.ops.empty() ? span.startNs : std::min(s.beginNs, span.startNs);
        s.endNs = s.ops.empty() ? span.startNs + span.elapseNs : std::max(s.endNs, span.startNs + span.elapseNs);
        s.ops.push_back(std::move(span));
    }
    // Names in order of their first appearance on the cluster's clock (ties by name, as the SQL path).
    std::vector<std::pair<int64_t, std::string>> order;
    order.reserve(firstStart.size());
    for (const auto& [n, t] : firstStart)
        order.emplace_back(t, index.text(n));
    std::sort(order.begin(), order.end());
    std::unordered_map<std::string, int> nameIndex;
    for (const auto& [t, n] : order) {
        nameIndex.emplace(n, static_cast<int>(s.names.size()));
        s.names.push_back(n);
    }
    for (size_t i = 0; i < s.ops.size(); ++i)
        s.ops[i].nameIndex = nameIndex[index.text(rows[i]->name)];
    return s;
}

std::vector<RankDuration> CommAnalysisQuery::durations(model::Database& db, const CommSelection& sel)
{
    return durations(*CommOpIndex::forDatabase(db), sel);
}

std::vector<PacketDistribution> CommAnalysisQuery::packets(
    model::Database& db, const CommSelection& sel, std::optional<int64_t> rank)
{
    return packets(*CommOpIndex::forDatabase(db), sel, rank);
}

OpStrip CommAnalysisQuery::opStrip(model::Database& db, const CommSelection& sel)
{
    return opStrip(*CommOpIndex::forDatabase(db), sel);
}

std::string CommAnalysisQuery::noCommReason(model::Database& db)
{
    auto any = db.prepare("SELECT EXISTS (SELECT 1 FROM comm_op WHERE is_total = 0)");
    if (any.step() && any.int64(0) != 0)
        return {};
    int64_t ranks = 0, level0 = 0;
    auto st = db.prepare("SELECT COUNT(*), COALESCE(SUM(profiler_level = 'Level0'), 0) FROM rank");
    if (st.step()) {
        ranks = st.int64(0);
        level0 = st.int64(1);
    }
    if (ranks > 0 && level0 == ranks)
        return "No communication ops: this export has no communication.json (profiler Level0 writes none; the "
               "timeline shows the communication ops)";
    return "No communication ops: the loaded files have no communication data (communication.json, hccl_raw or a "
           "db export's communication tables)";
}

TimeOverview CommAnalysisQuery::timeOverview(model::Database& db)
{
    TimeOverview t;
    std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> perStep; // step -> (time, rank)
    std::map<std::pair<int64_t, int64_t>, int64_t> wall;
    const auto rows = StepQuery::breakdown(db);
    for (const auto& b : rows) {
        const auto w = b.wallTime();
        if (!b.step || !w)
            continue;
        perStep[*b.step].emplace_back(*w, b.rank);
        wall[{ b.rank, *b.step }] = *w;
    }
    t.slowestRank = StepQuery::slowestRank(rows);
    std::map<int64_t, std::pair<double, double>> commSum;
    std::map<int64_t, int> commRanks;
    auto st = db.prepare("SELECT step, rank_id, SUM(COALESCE(elapse_ns, 0)), SUM(COALESCE(wait_ns, 0)) FROM comm_op "
                         "WHERE is_total = 0 AND step IS NOT NULL GROUP BY step, rank_id");
    while (st.step()) {
        auto& [c, w] = commSum[st.int64(0)];
        c += static_cast<double>(st.int64(2));
        w += static_cast<double>(st.int64(3));
        ++commRanks[st.int64(0)];
    }
    std::set<int64_t> steps;
    for (const auto& [s, v] : perStep)
        steps.insert(s);
    for (const auto& [s, v] : commSum)
        steps.insert(s);
    for (int64_t s : steps) {
        StepOverview o;
        o.step = s;
        auto it = perStep.find(s);
        if (it != perStep.end()) {
            auto v = it->second;
            std::sort(v.begin(), v.end());
            o.ranks = static_cast<int>(v.size());
            o.minNs = v.front().first;
            o.minRank = v.front().second;
            o.maxNs = v.back().first;
            o.maxRank = v.back().second;
            const size_t n = v.size();
            o.medianNs = n % 2 ? v[n / 2].first : (v[n / 2 - 1].first + v[n / 2].first) / 2;
        }
        if (t.slowestRank) {
            if (auto w = wall.find({ *t.slowestRank, s }); w != wall.end())
                o.slowestRankNs = w->second;
        }
        if (auto c = commSum.find(s); c != commSum.end()) {
            o.meanCommNs = c->second.first / commRanks[s];
            o.meanWaitNs = c->second.second / commRanks[s];
        }
        t.steps.push_back(o);
    }
    return t;
}

} // namespace npuscope::query
