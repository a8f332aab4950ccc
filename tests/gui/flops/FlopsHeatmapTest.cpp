// SPDX-License-Identifier: Apache-2.0
// The FLOPs heatmap dock offscreen: cells for every rank once the background kernel import is done, the FLOPs-light
// rank singled out in colour, a click selects the rank, real samples with and without FLOPs, and the old MindSpore
// flops_summary source.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/flops/FlopsHeatmap.h"
#include "npuscope/gui/flops/FlopsHeatmapDock.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

using namespace npuscope;
using gui::FlopsHeatmap;
using gui::FlopsHeatmapDock;

namespace {

FlopsHeatmap* showFlops(gui::MainWindow& window)
{
    FlopsHeatmapDock* dock = test::showDock(window, window.flopsHeatmapDock(), 120000);
    EXPECT_FALSE(dock->isImporting());
    return dock->heatmap();
}

} // namespace

TEST(FlopsHeatmap, GeneratedLightRankStandsOutAndClickSelects)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 16;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 0;
    o.flopsLightRank = 11;
    auto window = test::newWindow();
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/c")));
    FlopsHeatmap* map = showFlops(*window);
    FlopsHeatmapDock* dock = window->flopsHeatmapDock();
    EXPECT_TRUE(dock->messageLabel()->isHidden());
    EXPECT_TRUE(dock->statusLabel()->fullText().contains(QStringLiteral("kernels loaded for 16 of 16 ranks")))
        << dock->statusLabel()->fullText().toStdString();

    const auto& cells = map->cells();
    ASSERT_EQ(cells.size(), 16u);
    const int light = map->cellOfRank(11);
    ASSERT_GE(light, 0);
    ASSERT_TRUE(map->valueOf(light).has_value());
    for (int i = 0; i < 16; ++i) {
        ASSERT_TRUE(map->valueOf(i).has_value()) << i;
        ASSERT_TRUE(cells[static_cast<size_t>(i)].flops.has_value());
        EXPECT_GT(cells[static_cast<size_t>(i)].flops->kernels, 0);
        if (i != light) {
            EXPECT_GT(*map->valueOf(i), *map->valueOf(light) + 0.2) << i;
            EXPECT_NE(FlopsHeatmap::colorOf(map->valueOf(i)).name(), FlopsHeatmap::colorOf(map->valueOf(light)).name());
        }
    }
    // The light cell is drawn in its colour; the busiest device is 100 %.
    const QImage image = map->toImage();
    test::keepImage(image, QStringLiteral("flops-gen16.png"));
    EXPECT_GT(test::distinctColours(image), 20);
    const QRect lightRect = map->cellRect(light);
    EXPECT_EQ(QColor(image.pixel(lightRect.topLeft() + QPoint(2, 2))).name(),
        FlopsHeatmap::colorOf(map->valueOf(light)).name());
    EXPECT_DOUBLE_EQ(std::max_element(cells.begin(), cells.end(),
                         [](const auto& a, const auto& b) { return a.flops->relative < b.flops->relative; })
                         ->flops->relative,
        1.0);
    const QString tip = map->itemToolTip(light);
    for (const char* part : { "Rank 11", "FLOPs", "Compute time", "FLOP/s", "Kernels counted" })
        EXPECT_TRUE(tip.contains(QLatin1String(part))) << part << " in " << tip.toStdString();

    // FLOPS instead of FLOPs: the same cells, the other relative value.
    dock->measureCombo()->setCurrentIndex(1);
    EXPECT_EQ(map->measure(), FlopsHeatmap::Measure::FlopsPerSecond);
    EXPECT_DOUBLE_EQ(*map->valueOf(light), cells[static_cast<size_t>(light)].flops->relativePerSecond);

    // With no step selected every step is summed: the "All steps" box has nothing to change, shows ticked and is off.
    EXPECT_FALSE(dock->allStepsCheck()->isEnabled());
    EXPECT_TRUE(dock->allStepsCheck()->isChecked());
    // One step (the generator's steps are 50 and 51): less than both.
    const double all = cells[0].flops->flops;
    window->workspace()->setStep(50);
    ASSERT_TRUE(window->waitUntilIdle(60000));
    ASSERT_TRUE(map->cells()[0].flops.has_value());
    EXPECT_LT(map->cells()[0].flops->flops, all); // the user's choice (unticked) is back with the step
    EXPECT_TRUE(dock->allStepsCheck()->isEnabled());
    EXPECT_FALSE(dock->allStepsCheck()->isChecked());
    dock->allStepsCheck()->setChecked(true);
    ASSERT_TRUE(window->waitUntilIdle(60000));
    EXPECT_DOUBLE_EQ(map->cells()[0].flops->flops, all);

    // A click on rank 3's cell selects rank 3.
    const QRect cell3 = map->cellRect(map->cellOfRank(3));
    QTest::mouseClick(map, Qt::LeftButton, {}, cell3.center());
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(3));
    EXPECT_EQ(map->selectedItem(), map->cellOfRank(3));
}

TEST(FlopsHeatmap, RealSampleWithoutFlopsSaysHowToRecordThem)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    showFlops(*window);
    FlopsHeatmapDock* dock = window->flopsHeatmapDock();
    EXPECT_FALSE(dock->messageLabel()->isHidden());
    EXPECT_TRUE(dock->messageLabel()->text().contains(QStringLiteral("No loaded kernel carries FLOPs")));
    EXPECT_TRUE(dock->messageLabel()->text().contains(QStringLiteral("aic_metrics=ArithmeticUtilization")));
    EXPECT_TRUE(dock->statusLabel()->fullText().contains(QStringLiteral("kernels loaded for 2 of 2 ranks")));
    // The ranks' kernels were imported (the Level1 sample has kernel rows), they just carry no FLOPs.
    ASSERT_EQ(dock->heatmap()->cells().size(), 2u);
    ASSERT_TRUE(dock->heatmap()->cells()[0].flops.has_value());
    EXPECT_EQ(dock->heatmap()->cells()[0].flops->kernels, 0);
    EXPECT_FALSE(dock->heatmap()->valueOf(0).has_value());
}

TEST(FlopsHeatmap, RealSampleWithFlops)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::dataPath("msprof_advisor_flops") }));
    FlopsHeatmap* map = showFlops(*window);
    EXPECT_TRUE(window->flopsHeatmapDock()->messageLabel()->isHidden());
    ASSERT_EQ(map->cells().size(), 1u);
    ASSERT_TRUE(map->valueOf(0).has_value());
    EXPECT_DOUBLE_EQ(*map->valueOf(0), 1.0);
    // Σ *_fops of the file = 4539107856576 over 558 kernels.
    const QString tip = map->itemToolTip(0);
    EXPECT_TRUE(tip.contains(QStringLiteral("4.54 TFLOPs"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("558"))) << tip.toStdString();
    test::keepImage(map->toImage(), QStringLiteral("flops-advisor.png"));
}

TEST(FlopsHeatmap, MindSporeFlopsSummary)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::dataPath("mindspore_flat_profiler/cluster_propose") }));
    FlopsHeatmap* map = showFlops(*window);
    ASSERT_EQ(map->cells().size(), 4u);
    // flops_summary_0.json: 107146.763 MFLOPs; the busiest is rank 3 with 329612.4.
    EXPECT_DOUBLE_EQ(*map->valueOf(map->cellOfRank(0)), 107146.763 / 329612.4);
    EXPECT_TRUE(map->itemToolTip(map->cellOfRank(0)).contains(QStringLiteral("107.15 GFLOPs")));
    EXPECT_TRUE(map->itemToolTip(map->cellOfRank(0)).contains(QStringLiteral("flops_summary")));
    EXPECT_TRUE(window->flopsHeatmapDock()->statusLabel()->fullText().contains(QStringLiteral("whole run")));
}
