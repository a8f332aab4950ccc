// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

namespace npuscope::io {

// Pairs the points of one flow (one category and id: the caller groups them) into arrows, by the one rule
// the timeline importers use (docs/loading.md, "Flows"). The rule is the Chrome trace format's flow events
// as torch_npu writes them (one "s" at the host launch, an "f" at each device task it launched):
//  - Points are taken in time order (equal times in input order); the caller passes them so.
//  - An end or a step is the destination of an arrow from the latest start or step before it; every end
//    after one start gets an arrow from that start (one launch, several tasks).
//  - An end or step with no start or step before it (host and device clocks skewed) takes the first start
//    or step after it.
//  - A step is, after its own arrow, the source for the points after it.
//  - A start no arrow leaves, or an end no source is found for, is a half arrow (no destination / no
//    source): kept with Unpaired::Keep, dropped with Unpaired::Drop.
// Not thread-safe; use one tracker per thread.
class FlowTracker {
public:
    enum class Phase : uint8_t { Start, Step, End }; // trace event ph "s", "t", "f"
    enum class Unpaired : uint8_t { Keep, Drop };
    static constexpr int32_t kNone = -1;

    struct Arrow {
        int32_t src = kNone; // index into the group passed to pair(), kNone for a half arrow
        int32_t dst = kNone;
    };

    // The arrows of one flow, in the order the rule meets them. The result stays valid until the next call.
    const std::vector<Arrow>& pair(const std::vector<Phase>& group, Unpaired unpaired);

private:
    std::vector<Arrow> m_arrows;
    std::vector<uint8_t> m_used; // a start some arrow already leaves
};

} // namespace npuscope::io
