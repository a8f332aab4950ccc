// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/TimeAxis.h"

#include <gtest/gtest.h>

#include <cmath>

using npuscope::core::TimeAxis;

namespace {
constexpr int64_t kEpoch = 1736408883688177930; // an epoch-scale ns timestamp from a real trace
}

TEST(TimeAxis, MapsBothWaysExactlyAtEpochScale)
{
    TimeAxis axis(kEpoch, kEpoch + 1000, 1000);
    EXPECT_DOUBLE_EQ(axis.nsPerPx(), 1.0);
    EXPECT_DOUBLE_EQ(axis.toPx(kEpoch), 0.0);
    EXPECT_DOUBLE_EQ(axis.toPx(kEpoch + 1), 1.0);
    EXPECT_DOUBLE_EQ(axis.toPx(kEpoch + 1000), 1000.0);
    EXPECT_EQ(axis.toNs(0), kEpoch);
    EXPECT_EQ(axis.toNs(437), kEpoch + 437);
    EXPECT_EQ(axis.end(), kEpoch + 1000);
}

TEST(TimeAxis, ZoomAtCursorKeepsTheTimeUnderTheCursor)
{
    TimeAxis axis(kEpoch, kEpoch + 1'000'000'000, 1000);
    axis.setBounds(kEpoch, kEpoch + 1'000'000'000);
    const int64_t under = axis.toNs(300);
    axis.zoomAt(300, 8);
    EXPECT_EQ(axis.toNs(300), under);
    EXPECT_NEAR(axis.windowNs(), 125'000'000.0, 1e-3);
    axis.zoomAt(300, 0.5);
    EXPECT_EQ(axis.toNs(300), under);
}

TEST(TimeAxis, ZoomsDownToOneNanosecondAtEpochScale)
{
    TimeAxis axis(kEpoch, kEpoch + 10'000'000'000, 1920);
    axis.setBounds(kEpoch, kEpoch + 10'000'000'000);
    const int64_t target = kEpoch + 4'321'987'654;
    const double px = axis.toPx(target);
    for (int i = 0; i < 200; ++i)
        axis.zoomAt(px, 1.5);
    // Clamped at a 1 ns window, still centred where the cursor was.
    EXPECT_NEAR(axis.windowNs(), TimeAxis::kMinWindowNs, 1e-9);
    EXPECT_GE(axis.toNsCeil(px), target - 1);
    EXPECT_LE(axis.toNsFloor(px), target + 1);
    // Each ns of the window maps to distinct pixels: 1 ns is the full width.
    const int64_t s = axis.toNsCeil(0);
    EXPECT_NEAR(axis.toPx(s + 1) - axis.toPx(s), 1920.0, 1e-6);

    // A 1 ns fit at epoch scale.
    axis.fit(kEpoch + 5, kEpoch + 6);
    EXPECT_EQ(axis.start(), kEpoch + 5);
    EXPECT_DOUBLE_EQ(axis.toPx(kEpoch + 5), 0.0);
    EXPECT_DOUBLE_EQ(axis.toPx(kEpoch + 6), 1920.0);
    // Panning by a quarter of the width moves a quarter ns: the sub-ns start is kept.
    axis.panPx(480);
    EXPECT_NEAR(axis.toPx(kEpoch + 6), 1440.0, 1e-6);
    axis.panPx(-480);
    EXPECT_NEAR(axis.toPx(kEpoch + 6), 1920.0, 1e-6);
}

TEST(TimeAxis, ClampsToTheBounds)
{
    const int64_t span = 1'000'000;
    TimeAxis axis(kEpoch, kEpoch + span, 1000);
    axis.setBounds(kEpoch, kEpoch + span);
    // Zooming out stops a little beyond the data.
    for (int i = 0; i < 50; ++i)
        axis.zoomAt(500, 0.5);
    EXPECT_LE(axis.windowNs(), span * 1.05);
    EXPECT_GE(axis.toPx(kEpoch), 0.0);
    EXPECT_LE(axis.toPx(kEpoch + span), 1000.0);
    // Panning far away stops at the edges.
    axis.fit(kEpoch, kEpoch + 1000);
    axis.panPx(1e9);
    EXPECT_GE(axis.toPx(kEpoch + span), 1000.0 - 0.05 * 1000 * 1000);
    EXPECT_LE(axis.end(), kEpoch + span + span / 20);
    axis.panPx(-1e12);
    EXPECT_GE(axis.start(), kEpoch - span / 20);
    EXPECT_LE(axis.start(), kEpoch);
    // Fit of the bounds shows all of them.
    axis.fitBounds();
    EXPECT_GE(axis.toPx(kEpoch), 0.0);
    EXPECT_LE(axis.toPx(kEpoch + span), 1000.0);
    EXPECT_GT(axis.toPx(kEpoch + span) - axis.toPx(kEpoch), 950.0);
}

TEST(TimeAxis, WidthChangeKeepsStartAndScale)
{
    TimeAxis axis(kEpoch, kEpoch + 1000, 1000);
    axis.setWidth(500);
    EXPECT_EQ(axis.start(), kEpoch);
    EXPECT_DOUBLE_EQ(axis.nsPerPx(), 1.0);
    EXPECT_EQ(axis.end(), kEpoch + 500);
    // Degenerate input does not produce NaN or zero scales.
    axis.zoomAt(10, 0);
    axis.zoomAt(10, std::nan(""));
    EXPECT_GT(axis.nsPerPx(), 0.0);
    TimeAxis empty(kEpoch, kEpoch, 100);
    EXPECT_GT(empty.nsPerPx(), 0.0);
}

TEST(TimeAxis, ShiftedAxisDrawsOffsetData)
{
    TimeAxis axis(kEpoch, kEpoch + 1000, 1000);
    axis.setBounds(kEpoch, kEpoch + 1000);
    axis.zoomAt(300, 7.5); // a fractional window start
    for (const int64_t offset : { int64_t { 0 }, int64_t { 37 }, int64_t { -1'000'000'007 } }) {
        const TimeAxis shifted = axis.shifted(offset);
        for (const int64_t t : { kEpoch, kEpoch + 123, kEpoch + 999 })
            EXPECT_DOUBLE_EQ(shifted.toPx(t - offset), axis.toPx(t)) << offset;
        EXPECT_EQ(shifted.toNs(400) + offset, axis.toNs(400));
        EXPECT_EQ(shifted.boundsBegin() + offset, axis.boundsBegin());
        EXPECT_DOUBLE_EQ(shifted.windowNs(), axis.windowNs());
    }
}
