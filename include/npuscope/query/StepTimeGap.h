// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/StepQuery.h"

#include <cstdint>
#include <optional>

namespace npuscope::query {

// Why the two step times of a step_trace_time.csv row differ (docs/metrics.md "Two step times"): the step wall time
// runs from the step's start on the host (ProfilerStep#N) to the end of its last device task, Stage from the first
// to the last device task minus Bubble, so wall − Stage = Preparing + Bubble, plus what torch_npu's rounding of
// Stage leaves (`rest`, under 1 µs per step on real files). Values in ns.
struct StepTimeGap {
    int64_t wall = 0; // StepBreakdown::wallTime()
    int64_t stage = 0;
    int64_t preparing = 0; // 0 when the files have no Preparing column
    int64_t bubble = 0; // 0 when absent
    int64_t rest = 0; // wall − stage − preparing − bubble

    int64_t difference() const { return wall - stage; }
    // nullopt when the row has no wall time or no Stage (old-generation iteration trace, files without Stage).
    // Pure; any thread.
    static std::optional<StepTimeGap> of(const StepBreakdown& row);
};

} // namespace npuscope::query
