// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/CommOpInfoBuilder.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/Rows.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace npuscope::io {

// Writes communication.json-style OPINFO objects ({"Communication Time Info", "Communication Bandwidth Info"}) as
// comm_op rows with their comm_bandwidth and comm_packet rows. Shared by the importers of files that embed OPINFO
// objects (communication.json streamed, msprof-analyze cluster_communication.json from a DOM); ms -> ns, Start
// Timestamp µs -> epoch ns (from the number's digits as written). A transport whose every figure is 0 and that has no
// packets (four of an op's five in most files) gets no comm_bandwidth row: its name goes to comm_op.zero_transports.
// Ops are queued and written in multi-row statements (ops, then their transports, then their packets), ids in
// queue order as one op at a time would give them; problems are reported as each op is queued.
class CommOpInfoWriter {
public:
    explicit CommOpInfoWriter(ImportContext& ctx)
        : m_ctx(ctx)
    {
    }

    // Queues one op (rank: the rank the op belongs to; key: "hcom_allReduce__586_0_1@<hash>" or "Total Op Info").
    // Writes the queue when it is long.
    void add(int64_t rank, std::optional<int64_t> step, const std::string& kind, const std::string& key,
        const CommOpInfo& info);
    // Writes the queued ops.
    void flush();

    // One op at once.
    static void write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
        const std::string& key, const CommOpInfo& info);
    // The same from a DOM value (through CommOpInfoBuilder::fromJson).
    static void write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
        const std::string& key, const nlohmann::json& info);

private:
    ImportContext& m_ctx;
    std::vector<model::CommOpRow> m_ops;
    std::vector<model::CommBandwidthRow> m_bandwidths; // commOpId: an index into m_ops until flush()
    std::vector<model::CommPacketRow> m_packets; // commBandwidthId: an index into m_bandwidths until flush()
};

} // namespace npuscope::io
