// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/FlowTracker.h"

namespace npuscope::io {

const std::vector<FlowTracker::Arrow>& FlowTracker::pair(const std::vector<Phase>& group, Unpaired unpaired)
{
    m_arrows.clear();
    m_used.assign(group.size(), 0);
    const bool keep = unpaired == Unpaired::Keep;
    const auto n = static_cast<int32_t>(group.size());
    int32_t start = kNone;
    auto closeStart = [&] {
        if (start != kNone && !m_used[start] && keep)
            m_arrows.push_back({ start, kNone });
    };
    for (int32_t k = 0; k < n; ++k) {
        if (group[k] == Phase::Start) {
            closeStart();
            start = k;
            continue;
        }
        int32_t from = start;
        for (int32_t j = k + 1; from == kNone && j < n; ++j) {
            if (group[j] != Phase::End)
                from = j;
        }
        if (from != kNone || keep)
            m_arrows.push_back({ from, k });
        if (from != kNone)
            m_used[from] = 1;
        if (group[k] == Phase::Step) {
            closeStart();
            start = k;
        }
    }
    closeStart();
    return m_arrows;
}

} // namespace npuscope::io
