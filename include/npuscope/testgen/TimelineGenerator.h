// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/RankTimeline.h"

#include <cstdint>

namespace npuscope::testgen {

// Synthetic timelines for benchmarks and tests: one rank, `rows` thread tracks spread over a few
// processes, `slices` slices in total, nested up to maxDepth levels below the top (properly nested,
// durations log-uniform from ns to ms so every zoom level has sub-pixel runs to fold).
// Deterministic for a given seed. Any thread.
class TimelineGenerator {
public:
    static query::RankTimelinePtr generate(
        int64_t slices, int rows, int maxDepth, uint64_t seed = 42, int64_t origin = 1736408883688177930);
};

} // namespace npuscope::testgen
