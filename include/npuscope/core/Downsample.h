// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace npuscope::core {

// One sample of a curve: time (ns, any clock) and value (any unit, finite).
struct CurvePoint {
    int64_t t = 0;
    double v = 0;
    bool operator==(const CurvePoint&) const = default;
};

// Largest-triangle-three-buckets downsampling (Steinarsson, "Downsampling Time Series for Visual Representation",
// 2013) that also keeps the extremes: the result always holds the first and the last point and one point of the
// smallest and one of the largest value (their first occurrence), in input order. Plain LTTB does not guarantee the
// extremes, so LTTB picks at most maxPoints − 2 points and the extremes are added when it missed them.
//
// Input sorted by t (equal times allowed), values finite. At most max(maxPoints, 4) points come back; the input
// itself when it has no more than that. Pure function, any thread. Docs: docs/metrics.md "Memory curve downsampling".
std::vector<CurvePoint> downsampleLttb(std::span<const CurvePoint> points, size_t maxPoints);

// The same, returning indexes into points (ascending) instead of copies.
std::vector<size_t> downsampleLttbIndexes(std::span<const CurvePoint> points, size_t maxPoints);

} // namespace npuscope::core
