// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommOpIndex.h"

#include <algorithm>
#include <tuple>

namespace npuscope::query {

int32_t CommOpIndex::intern(const std::optional<std::string>& s)
{
    if (!s)
        return -1;
    auto [it, inserted] = m_ids.emplace(*s, static_cast<int32_t>(m_strings.size()));
    if (inserted)
        m_strings.push_back(*s);
    return it->second;
}

std::shared_ptr<const CommOpIndex> CommOpIndex::build(model::Database& db)
{
    auto index = std::make_shared<CommOpIndex>();
    std::vector<Op>& ops = index->m_ops;
    auto st = db.prepare("SELECT id, rank_id, step, op_name, group_hash, start_ns, elapse_ns, transit_ns, wait_ns, "
                         "sync_ns, idle_ns FROM comm_op WHERE is_total = 0 ORDER BY id");
    while (st.step()) {
        Op o;
        o.id = st.int64(0);
        o.rank = static_cast<int32_t>(st.int64(1));
        o.hasStep = !st.isNull(2);
        o.step = o.hasStep ? st.int64(2) : 0;
        o.name = index->intern(st.text(3));
        o.group = index->intern(st.optText(4));
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
    // Rows without a step sort first and are only returned for "every op".
    std::stable_sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
        return std::make_tuple(a.hasStep, a.step, a.id) < std::make_tuple(b.hasStep, b.step, b.id);
    });
    for (size_t i = 0; i < ops.size();) {
        size_t j = i;
        while (j < ops.size() && ops[j].hasStep == ops[i].hasStep && ops[j].step == ops[i].step)
            ++j;
        if (ops[i].hasStep)
            index->m_steps.push_back({ ops[i].step, { i, j } });
        i = j;
    }

    // Bandwidth rows of each op, laid out in op order, each op's rows by ascending id.
    std::unordered_map<int64_t, size_t> opOf;
    opOf.reserve(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        opOf.emplace(ops[i].id, i);
    struct RawBandwidth {
        size_t op;
        Bandwidth bw;
    };
    std::vector<RawBandwidth> raw;
    auto bw
        = db.prepare("SELECT id, comm_op_id, transport, size_mb, transit_ns, large_packet_ratio FROM comm_bandwidth "
                     "ORDER BY id");
    while (bw.step()) {
        auto it = opOf.find(bw.int64(1));
        if (it == opOf.end())
            continue; // a Total Op Info row
        Bandwidth b;
        b.id = bw.int64(0);
        b.transport = index->intern(bw.text(2));
        b.sizeMb = bw.optReal(3).value_or(0.0);
        b.transitNs = bw.optInt(4).value_or(0);
        b.largePacketRatio = bw.optReal(5);
        raw.push_back({ it->second, b });
    }
    std::stable_sort(raw.begin(), raw.end(), [](const RawBandwidth& a, const RawBandwidth& b) { return a.op < b.op; });
    index->m_bandwidths.reserve(raw.size());
    for (size_t i = 0; i < raw.size();) {
        Op& o = ops[raw[i].op];
        o.bwBegin = static_cast<uint32_t>(index->m_bandwidths.size());
        for (; i < raw.size() && &ops[raw[i].op] == &o; ++i)
            index->m_bandwidths.push_back(raw[i].bw);
        o.bwEnd = static_cast<uint32_t>(index->m_bandwidths.size());
    }

    std::unordered_map<int64_t, size_t> bwOf;
    bwOf.reserve(index->m_bandwidths.size());
    for (size_t i = 0; i < index->m_bandwidths.size(); ++i)
        bwOf.emplace(index->m_bandwidths[i].id, i);
    std::vector<std::pair<size_t, Packet>> packets;
    auto pk = db.prepare("SELECT comm_bandwidth_id, package_mb, count, total_ns FROM comm_packet");
    while (pk.step()) {
        auto it = bwOf.find(pk.int64(0));
        if (it == bwOf.end())
            continue;
        packets.push_back({ it->second, Packet { pk.real(1), pk.optInt(2).value_or(0), pk.optInt(3).value_or(0) } });
    }
    std::stable_sort(packets.begin(), packets.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    index->m_packets.reserve(packets.size());
    for (size_t i = 0; i < packets.size();) {
        Bandwidth& b = index->m_bandwidths[packets[i].first];
        b.packetBegin = static_cast<uint32_t>(index->m_packets.size());
        for (; i < packets.size() && &index->m_bandwidths[packets[i].first] == &b; ++i)
            index->m_packets.push_back(packets[i].second);
        b.packetEnd = static_cast<uint32_t>(index->m_packets.size());
    }
    return index;
}

std::shared_ptr<const CommOpIndex> CommOpIndex::forDatabase(model::Database& db)
{
    return db.cached<CommOpIndex>([](model::Database& d) { return build(d); });
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

int32_t CommOpIndex::id(const std::string& s) const
{
    auto it = m_ids.find(s);
    return it == m_ids.end() ? -1 : it->second;
}

} // namespace npuscope::query
