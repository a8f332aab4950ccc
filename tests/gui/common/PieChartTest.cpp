// SPDX-License-Identifier: Apache-2.0
// PieChart (gui/common): slice hit testing from 12 o'clock clockwise, the two rings, tooltips with value and share,
// and the geometry StepSplitPie shares.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/PieChart.h"

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

TEST(PieChart, SliceGeometryRunsClockwiseFromTwelve)
{
    const std::vector<int64_t> values { 3, 0, 1 }; // 270° then (nothing) then 90°
    EXPECT_EQ(PieChart::sliceAt(values, 0.0), 0);
    EXPECT_EQ(PieChart::sliceAt(values, 269.0), 0);
    EXPECT_EQ(PieChart::sliceAt(values, 271.0), 2);
    EXPECT_EQ(PieChart::sliceAt(values, 360.0), 2);
    EXPECT_EQ(PieChart::sliceAt({ 0, 0 }, 10.0), -1);
    const QPointF c(100, 100);
    EXPECT_NEAR(PieChart::clockAngle(c, QPointF(100, 50)), 0.0, 1e-9); // up
    EXPECT_NEAR(PieChart::clockAngle(c, QPointF(150, 100)), 90.0, 1e-9); // right
    EXPECT_NEAR(PieChart::clockAngle(c, QPointF(100, 150)), 180.0, 1e-9); // down
    EXPECT_NEAR(PieChart::clockAngle(c, QPointF(50, 100)), 270.0, 1e-9); // left
}

TEST(PieChart, HoverFindsThePartOfEachRingWithItsShare)
{
    PieChart pie;
    pie.resize(600, 320);
    // 3 ms and 1 ms outside, 1 ms and 1 ms inside.
    pie.setData(QStringLiteral("t"), { { QStringLiteral("a"), Qt::red }, { QStringLiteral("b"), Qt::blue } },
        { { QStringLiteral("outer"), { 3'000'000, 1'000'000 } },
            { QStringLiteral("inner"), { 1'000'000, 1'000'000 } } });
    EXPECT_DOUBLE_EQ(pie.share(0, 0), 0.75);
    EXPECT_DOUBLE_EQ(pie.share(1, 1), 0.5);
    const QImage image = pie.toImage();
    EXPECT_GT(test::distinctColours(image), 4);
    // Find the pie's square from the drawn pixels: the outer ring's red reaches the top of the pie.
    int left = image.width(), right = 0, top = image.height(), bottom = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width() * 47 / 100; ++x) { // the legend is further right
            const QColor c = image.pixelColor(x, y);
            if ((c.red() > 200 && c.green() < 60 && c.blue() < 60)
                || (c.blue() > 200 && c.red() < 60 && c.green() < 60)) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
        }
    }
    ASSERT_LT(left, right);
    const QPoint centre((left + right) / 2, (top + bottom) / 2);
    const int radius = (right - left) / 2;
    // Outer ring: right of the centre is part a (0..270°), left is part b (270..360°).
    EXPECT_EQ(pie.itemAt(centre + QPoint(radius * 9 / 10, 0)), 0);
    EXPECT_EQ(pie.itemAt(centre + QPoint(-radius * 9 / 10, -radius / 10)), 1);
    // Inner ring (items 2, 3): right is a (0..180°), left is b.
    EXPECT_EQ(pie.itemAt(centre + QPoint(radius * 62 / 100, 0)), 2);
    EXPECT_EQ(pie.itemAt(centre + QPoint(-radius * 62 / 100, 0)), 3);
    // The hole and the outside are nothing.
    EXPECT_EQ(pie.itemAt(centre), -1);
    EXPECT_EQ(pie.itemAt(centre + QPoint(radius + 5, 0)), -1);
    const QString tip = pie.itemToolTip(0);
    EXPECT_TRUE(tip.contains(QStringLiteral("3.000 ms"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("75.0 %"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("outer"))) << tip.toStdString();
}
