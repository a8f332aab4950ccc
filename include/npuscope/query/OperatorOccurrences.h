// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/TimelineQuery.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace npuscope::query {

// The kernels of one operator key (OperatorQuery's keys) and where they are on the rank timelines, so the timeline
// can highlight an operator's occurrences. The kernel rows are found by SQL on string ids (one scan of the kernel
// table); the timeline arrays are then matched on integer name ids and start times, never by comparing strings.
class OperatorOccurrences {
public:
    // Per rank: the name ids of the key's kernels and their start times (ns).
    struct Kernels {
        std::unordered_map<int64_t, std::unordered_set<int64_t>> nameIds; // rank -> kernel.name_id
        std::unordered_map<int64_t, std::unordered_set<int64_t>> starts; // rank -> kernel.ts
        int64_t count = 0; // kernel rows of the key
    };

    // The kernels of `key` grouped by `by` on `rank` (nullopt: every rank). Caller holds db.lock().
    static Kernels kernels(
        model::Database& db, OperatorGroupBy by, const std::string& key, std::optional<int64_t> rank = std::nullopt);

    // The slices of the loaded timelines that are those kernels, ordered by rank then start: on each rank, a slice
    // with one of the rank's kernel name ids that starts exactly at one of the kernels' start times. A rank where no
    // slice matches that way (its timeline clock differs from kernel_details.csv) falls back to every slice with one
    // of the kernel name ids. Any thread (the timelines are immutable).
    static std::vector<SearchHit> find(const Kernels& kernels, const std::vector<RankTimelinePtr>& ranks);
};

} // namespace npuscope::query
