// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/StepTimeGap.h"

namespace npuscope::query {

std::optional<StepTimeGap> StepTimeGap::of(const StepBreakdown& row)
{
    const auto wall = row.wallTime();
    const auto stage = row.value(StepColumn::Stage);
    // An iteration trace's wallTime() is its Total, not the sum Stage is part of.
    if (!wall || !stage || splitOf(row).iterationTrace)
        return std::nullopt;
    StepTimeGap g;
    g.wall = *wall;
    g.stage = *stage;
    g.preparing = row.value(StepColumn::Preparing).value_or(0);
    g.bubble = row.value(StepColumn::Bubble).value_or(0);
    g.rest = g.wall - g.stage - g.preparing - g.bubble;
    return g;
}

} // namespace npuscope::query
