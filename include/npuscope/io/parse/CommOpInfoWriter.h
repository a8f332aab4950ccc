// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/CommOpInfoBuilder.h"
#include "npuscope/io/parse/ImportContext.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace npuscope::io {

// Writes one communication.json-style OPINFO object ({"Communication Time Info", "Communication Bandwidth
// Info"}) as a comm_op row with its comm_bandwidth and comm_packet rows. Shared by the importers of files that
// embed OPINFO objects (communication.json streamed, msprof-analyze cluster_communication.json from a DOM);
// ms -> ns, Start Timestamp µs -> epoch ns (from the number's digits as written).
class CommOpInfoWriter {
public:
    // rank: the rank the op belongs to; key: the op key ("hcom_allReduce__586_0_1@<hash>" or "Total Op Info").
    static void write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
        const std::string& key, const CommOpInfo& info);
    // The same from a DOM value (through CommOpInfoBuilder::fromJson).
    static void write(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
        const std::string& key, const nlohmann::json& info);
};

} // namespace npuscope::io
