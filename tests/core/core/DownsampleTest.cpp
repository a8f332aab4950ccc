// SPDX-License-Identifier: Apache-2.0
// core::downsampleLttb: LTTB that always keeps the first, last, minimum and maximum points.
#include "npuscope/core/Downsample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using npuscope::core::CurvePoint;
using npuscope::core::downsampleLttb;

namespace {

std::vector<CurvePoint> noisy(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 5);
    std::vector<CurvePoint> v;
    v.reserve(n);
    double level = 1000;
    for (size_t i = 0; i < n; ++i) {
        level += noise(rng);
        v.push_back({ 1'736'412'474'607'990'000 + static_cast<int64_t>(i) * 1000, level });
    }
    return v;
}

void expectKeepsExtremes(const std::vector<CurvePoint>& in, const std::vector<CurvePoint>& out)
{
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.front(), in.front());
    EXPECT_EQ(out.back(), in.back());
    const auto [lo, hi] = std::minmax_element(in.begin(), in.end(), [](auto a, auto b) { return a.v < b.v; });
    EXPECT_TRUE(std::find(out.begin(), out.end(), *lo) != out.end());
    EXPECT_TRUE(std::find(out.begin(), out.end(), *hi) != out.end());
    for (size_t i = 1; i < out.size(); ++i)
        EXPECT_LE(out[i - 1].t, out[i].t) << i;
    for (const auto& p : out)
        EXPECT_TRUE(std::isfinite(p.v));
}

} // namespace

TEST(Downsample, KeepsFirstLastMinMaxAndBound)
{
    for (uint32_t seed : { 1u, 2u, 3u }) {
        const auto in = noisy(100'000, seed);
        for (size_t target : { 4u, 5u, 10u, 100u, 3200u }) {
            const auto out = downsampleLttb(in, target);
            EXPECT_LE(out.size(), target) << target;
            EXPECT_GE(out.size(), std::min<size_t>(target, 4)) << target;
            expectKeepsExtremes(in, out);
        }
    }
}

TEST(Downsample, ExtremesPlainLttbWouldMiss)
{
    // A single spike in the middle of a flat run and a dip near the end: the buckets around them still keep them.
    std::vector<CurvePoint> in;
    for (int i = 0; i < 10'000; ++i)
        in.push_back({ i, 1.0 });
    in[5'001].v = 50.0;
    in[9'990].v = -3.0;
    const auto out = downsampleLttb(in, 6);
    EXPECT_LE(out.size(), 6u);
    expectKeepsExtremes(in, out);
}

TEST(Downsample, IdentityBelowThreshold)
{
    const auto in = noisy(1000, 7);
    EXPECT_EQ(downsampleLttb(in, 1000), in);
    EXPECT_EQ(downsampleLttb(in, 5000), in);
    // Fewer than 4 requested still keeps the four extremes.
    const auto four = noisy(4, 8);
    EXPECT_EQ(downsampleLttb(four, 2), four);
}

TEST(Downsample, DegenerateInputs)
{
    EXPECT_TRUE(downsampleLttb({}, 10).empty());
    const std::vector<CurvePoint> one { { 5, 2.5 } };
    EXPECT_EQ(downsampleLttb(one, 0), one);
    const std::vector<CurvePoint> two { { 5, 2.5 }, { 6, -1 } };
    EXPECT_EQ(downsampleLttb(two, 1), two);
    // Every point at the same time, and a constant curve: still bounded, ordered, extremes kept, finite.
    std::vector<CurvePoint> sameTime, constant;
    for (int i = 0; i < 1000; ++i) {
        sameTime.push_back({ 42, static_cast<double>(i % 17) });
        constant.push_back({ i, 3.0 });
    }
    for (const auto* in : { &sameTime, &constant }) {
        const auto out = downsampleLttb(*in, 20);
        EXPECT_LE(out.size(), 20u);
        expectKeepsExtremes(*in, out);
    }
}

TEST(Downsample, FollowsTheShape)
{
    // A sawtooth of 10 teeth reduced to 40 points (buckets not aligned with the teeth): every tooth keeps a point
    // high on its ramp and one at its foot.
    std::vector<CurvePoint> in;
    for (int i = 0; i < 10'000; ++i)
        in.push_back({ i, static_cast<double>(i % 1000) });
    const auto out = downsampleLttb(in, 40);
    for (int tooth = 0; tooth < 10; ++tooth) {
        double hi = -1, lo = 1e9;
        for (const auto& p : out) {
            if (p.t >= tooth * 1000 && p.t < (tooth + 1) * 1000) {
                hi = std::max(hi, p.v);
                lo = std::min(lo, p.v);
            }
        }
        EXPECT_GE(hi, 700) << tooth;
        EXPECT_LE(lo, 250) << tooth;
    }
}
