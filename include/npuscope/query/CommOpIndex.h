// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/HugePageAllocator.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/StringTable.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npuscope::query {

// Every non-total comm_op row with its comm_bandwidth and comm_packet rows, loaded once into compact
// arrays grouped by step, so the duration table, packet distribution, op strip and op chooser of a
// 1,024-rank cluster are computed in memory on each selection change instead of by SQL under the
// database lock. Values keep the SQL semantics (NULL durations count as 0). Immutable after build;
// any thread.
class CommOpIndex {
public:
    struct Packet {
        double packageMb = 0;
        int64_t count = 0; // COALESCE(count, 0)
        int64_t totalNs = 0; // COALESCE(total_ns, 0)
    };
    struct Bandwidth {
        int64_t id = 0; // comm_bandwidth.id: the order the SQL path accumulates in
        int32_t transport = -1; // id into text()
        double sizeMb = 0; // COALESCE(size_mb, 0)
        int64_t transitNs = 0; // COALESCE(transit_ns, 0)
        std::optional<double> largePacketRatio;
        uint32_t packetBegin = 0, packetEnd = 0; // [begin, end) into packets()
    };
    // Op::present bits (old generations write no transit, sync or idle time).
    static constexpr uint8_t kHasTransit = 1, kHasWait = 2, kHasSync = 4, kHasIdle = 8;
    struct Op {
        int64_t id = 0; // comm_op.id
        int64_t step = 0;
        bool hasStep = false;
        bool hasStart = false;
        int32_t rank = 0;
        int32_t name = -1; // op_name id
        int32_t group = -1; // group_hash id, -1 = NULL
        int64_t startNs = 0;
        int64_t elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0; // NULL = 0
        uint8_t present = 0; // kHas* bits: which of the figures above were not NULL
        uint32_t bwBegin = 0, bwEnd = 0; // [begin, end) into bandwidths(), ascending id
    };

    // Loads the index; the caller holds the database lock.
    static std::shared_ptr<const CommOpIndex> build(model::Database& db);
    // The tables build() reads: a row change in one of them drops the cached index.
    static const std::vector<std::string>& tables();
    // The index of this database, held in the database's own cache slot (model::Database::cachedFor): built on
    // first use (taking db.lock() for the build), shared until a row of a table it reads changes (timelines and
    // kernels imported later keep it). Any thread; once built no database lock is taken. A slot reserved by
    // query::IndexPrebuild is waited for.
    static std::shared_ptr<const CommOpIndex> forDatabase(model::Database& db);
    static std::shared_ptr<const CommOpIndex> forDatabase(const std::shared_ptr<model::Database>& db)
    {
        return forDatabase(*db);
    }

    // Ops of one step (nullopt: every op), ordered by step, then comm_op.id.
    std::span<const Op> ops(std::optional<int64_t> step) const;
    std::span<const Bandwidth> bandwidths(const Op& op) const
    {
        return { m_bandwidths.data() + op.bwBegin, m_bandwidths.data() + op.bwEnd };
    }
    std::span<const Packet> packets(const Bandwidth& bw) const
    {
        return { m_packets.data() + bw.packetBegin, m_packets.data() + bw.packetEnd };
    }
    const std::string& text(int32_t id) const { return m_strings.text(id); }
    // Id of a string, -1 when no row uses it.
    int32_t id(const std::string& s) const;
    size_t size() const { return m_ops.size(); }

private:
    core::HugeVector<Op> m_ops;
    core::HugeVector<Bandwidth> m_bandwidths;
    core::HugeVector<Packet> m_packets;
    std::vector<std::pair<int64_t, std::pair<size_t, size_t>>> m_steps; // step -> [begin, end) of m_ops
    StringTable m_strings;
};

} // namespace npuscope::query
