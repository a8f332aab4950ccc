// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MareyStep.h"

#include "npuscope/core/EnumNames.h"
#include "npuscope/query/TranslationMarker.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace npuscope::query {

namespace {

constexpr EnumName<MareyOpKind> kOpKindNames[] {
    { MareyOpKind::Compute, QT_TRANSLATE_NOOP("MareyOpKind", "compute") },
    { MareyOpKind::Communication, QT_TRANSLATE_NOOP("MareyOpKind", "communication") },
    { MareyOpKind::Send, QT_TRANSLATE_NOOP("MareyOpKind", "send") },
    { MareyOpKind::Receive, QT_TRANSLATE_NOOP("MareyOpKind", "receive") },
};

} // namespace

const char* mareyOpKindName(MareyOpKind kind) { return nameOf(kOpKindNames, kind, "compute"); }

std::pair<int64_t, int64_t> MareyStep::range(MareyTime time) const
{
    int64_t lo = std::numeric_limits<int64_t>::max();
    int64_t hi = std::numeric_limits<int64_t>::min();
    for (const auto& d : devices) {
        if (!d.hasOps())
            continue;
        lo = std::min(lo, d.stepStart - d.offset(time));
        hi = std::max(hi, d.stepEnd - d.offset(time));
    }
    return lo <= hi ? std::pair { lo, hi } : std::pair<int64_t, int64_t> { 0, 0 };
}

std::vector<MareyCollapsedOp> MareyStep::collapse(int stage, MareyTime time) const
{
    std::vector<MareyCollapsedOp> out;
    if (stage < 0 || stage >= static_cast<int>(stages.size()))
        return out;
    const auto& s = stages[stage];
    const bool single = s.deviceCount == 1;
    std::unordered_map<uint64_t, size_t> index;
    for (int d = s.firstDevice; d < s.firstDevice + s.deviceCount; ++d) {
        const auto& dev = devices[d];
        const int64_t off = dev.offset(time);
        for (const auto& op : dev.ops) {
            if (!op.matched && !single)
                continue;
            const uint64_t key = (uint64_t(op.name) << 32) | op.occurrence;
            auto [it, fresh] = index.try_emplace(key, out.size());
            if (fresh)
                out.push_back({ op.name, op.kind, op.occurrence, {} });
            out[it->second].intervals.emplace_back(op.start - off, op.end - off);
        }
    }
    for (auto& c : out) {
        auto& iv = c.intervals;
        std::sort(iv.begin(), iv.end());
        size_t w = 0;
        for (size_t r = 1; r < iv.size(); ++r) {
            // Touching intervals merge too: the union has no gap there.
            if (iv[r].first <= iv[w].second)
                iv[w].second = std::max(iv[w].second, iv[r].second);
            else
                iv[++w] = iv[r];
        }
        iv.resize(iv.empty() ? 0 : w + 1);
    }
    std::sort(out.begin(), out.end(),
        [](const MareyCollapsedOp& a, const MareyCollapsedOp& b) { return a.intervals.front() < b.intervals.front(); });
    return out;
}

int MareyStep::deviceOf(int64_t rank) const
{
    for (size_t i = 0; i < devices.size(); ++i) {
        if (devices[i].rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace npuscope::query
