// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include <cstdint>
#include <vector>

namespace npuscope::query {

// A power-of-two byte range of packet sizes (1 MB of the files = 10^6 B): [2^e, 2^(e+1)) B, given in MB as the
// files are.
struct PacketBucket {
    double lowMb = 0, highMb = 0; // [low, high)
    int64_t count = 0;
    int64_t totalNs = 0;
};

// The bins of one distribution summed into power-of-two buckets, ascending, without empty ends (empty buckets
// between filled ones are kept). Pure function; any thread.
std::vector<PacketBucket> packetBuckets(const PacketDistribution& d);

} // namespace npuscope::query
