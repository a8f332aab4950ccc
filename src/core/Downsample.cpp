// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/Downsample.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace npuscope::core {

namespace {

constexpr size_t kMinPoints = 4; // first, last, minimum, maximum

// Plain LTTB: `buckets` + 2 indexes (first, one per bucket, last). Times are taken relative to the first point so
// epoch-scale nanoseconds keep their precision in the triangle areas.
std::vector<size_t> lttb(std::span<const CurvePoint> p, size_t buckets)
{
    const size_t n = p.size();
    std::vector<size_t> out;
    out.reserve(buckets + 2);
    out.push_back(0);
    if (buckets == 0) {
        out.push_back(n - 1);
        return out;
    }
    const int64_t t0 = p[0].t;
    auto x = [&](size_t i) { return static_cast<double>(p[i].t - t0); };
    // The n − 2 inner points split into `buckets` buckets of (nearly) equal size.
    const double every = static_cast<double>(n - 2) / static_cast<double>(buckets);
    size_t a = 0;
    for (size_t b = 0; b < buckets; ++b) {
        const size_t begin = 1 + static_cast<size_t>(std::floor(static_cast<double>(b) * every));
        const size_t end = std::min(n - 1, 1 + static_cast<size_t>(std::floor(static_cast<double>(b + 1) * every)));
        // The third triangle corner: the mean of the next bucket (the last point after the last bucket).
        const size_t nextBegin = end;
        const size_t nextEnd = b + 1 < buckets
            ? std::min(n - 1, 1 + static_cast<size_t>(std::floor(static_cast<double>(b + 2) * every)))
            : n;
        double cx = 0, cy = 0;
        const size_t nextCount = nextEnd > nextBegin ? nextEnd - nextBegin : 0;
        if (nextCount == 0 || b + 1 == buckets) {
            cx = x(n - 1);
            cy = p[n - 1].v;
        } else {
            for (size_t i = nextBegin; i < nextEnd; ++i) {
                cx += x(i);
                cy += p[i].v;
            }
            cx /= static_cast<double>(nextCount);
            cy /= static_cast<double>(nextCount);
        }
        const double ax = x(a), ay = p[a].v;
        double best = -1;
        size_t pick = begin;
        for (size_t i = begin; i < end; ++i) {
            const double area = std::abs((ax - cx) * (p[i].v - ay) - (ax - x(i)) * (cy - ay));
            if (area > best) {
                best = area;
                pick = i;
            }
        }
        if (begin < end) {
            out.push_back(pick);
            a = pick;
        }
    }
    out.push_back(n - 1);
    return out;
}

} // namespace

std::vector<size_t> downsampleLttbIndexes(std::span<const CurvePoint> points, size_t maxPoints)
{
    const size_t n = points.size();
    const size_t limit = std::max(maxPoints, kMinPoints);
    std::vector<size_t> out;
    if (n <= limit) {
        out.resize(n);
        std::iota(out.begin(), out.end(), size_t { 0 });
        return out;
    }
    size_t lo = 0, hi = 0;
    for (size_t i = 1; i < n; ++i) {
        if (points[i].v < points[lo].v)
            lo = i;
        if (points[i].v > points[hi].v)
            hi = i;
    }
    // LTTB's buckets + 2 points and the two extremes stay within limit.
    out = lttb(points, limit - kMinPoints);
    for (size_t extreme : { lo, hi }) {
        auto at = std::lower_bound(out.begin(), out.end(), extreme);
        if (at == out.end() || *at != extreme)
            out.insert(at, extreme);
    }
    return out;
}

std::vector<CurvePoint> downsampleLttb(std::span<const CurvePoint> points, size_t maxPoints)
{
    const auto keep = downsampleLttbIndexes(points, maxPoints);
    std::vector<CurvePoint> out;
    out.reserve(keep.size());
    for (size_t i : keep)
        out.push_back(points[i]);
    return out;
}

} // namespace npuscope::core
