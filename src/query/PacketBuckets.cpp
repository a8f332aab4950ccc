// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/PacketBuckets.h"

#include <cmath>
#include <map>

namespace npuscope::query {

std::vector<PacketBucket> packetBuckets(const PacketDistribution& d)
{
    // Buckets by bytes so every edge is a whole number of B / KiB / MiB (the small epsilon keeps 4.096e-6 MB,
    // 4,096 B exactly, out of the 2,048 B bucket after the floating-point product).
    constexpr double kBytesPerMb = 1.0e6;
    auto edgeMb = [](int e) { return std::ldexp(1.0, e) / kBytesPerMb; };
    std::map<int, PacketBucket> byExp;
    for (const auto& bin : d.bins) {
        const double bytes = bin.packageMb * kBytesPerMb;
        const int e = bytes >= 1 ? static_cast<int>(std::floor(std::log2(bytes) + 1e-9)) : 0;
        PacketBucket& b = byExp[e];
        b.lowMb = edgeMb(e);
        b.highMb = edgeMb(e + 1);
        b.count += bin.count;
        b.totalNs += bin.totalNs;
    }
    std::vector<PacketBucket> out;
    if (byExp.empty())
        return out;
    for (int e = byExp.begin()->first; e <= byExp.rbegin()->first; ++e) {
        auto it = byExp.find(e);
        out.push_back(it != byExp.end() ? it->second : PacketBucket { edgeMb(e), edgeMb(e + 1), 0, 0 });
    }
    return out;
}

} // namespace npuscope::query
