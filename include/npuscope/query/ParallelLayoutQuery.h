// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/ParallelLayout.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace npuscope::query {

// The parallel layout of the loaded ranks (docs/metrics.md, "Parallel layout"). Callable from any thread holding
// the database lock.
class ParallelLayoutQuery {
public:
    // userSizes set: those sizes in Megatron order when they fit the world size (else a note says why and the data's
    // own layout is used). Otherwise, in order: parallel groups, distributed_args sizes, MindSpore stageDevices, the
    // fallback (one stage, DP = world size). The world size is the default group's size, else distributed_args
    // world_size, else the highest loaded rank + 1.
    static ParallelLayout layout(model::Database& db, std::optional<ParallelSizes> userSizes = std::nullopt);
    // The world size layout() uses.
    static int64_t worldSize(model::Database& db);
    // Distinct (src, dst) global rank pairs of point-to-point links (comm_link kind p2p, src ≠ dst, both known),
    // ascending. Empty when the data has none.
    static std::vector<std::pair<int64_t, int64_t>> p2pPairs(model::Database& db);
};

} // namespace npuscope::query
