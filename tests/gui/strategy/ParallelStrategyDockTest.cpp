// SPDX-License-Identifier: Apache-2.0
#include "GuiTestSupport.h"

#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/strategy/ParallelStrategyDock.h"
#include "npuscope/gui/strategy/StrategyChart.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace npuscope;
using gui::ParallelStrategyDock;
using gui::StrategyChart;

namespace {

StrategyChart* showStrategy(gui::MainWindow& window) { return test::showDock(window, window.strategyDock())->chart(); }

} // namespace

TEST(ParallelStrategyDock, MetadataSampleLayoutClickAndImage)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::dataPath("metadata_8rank") }));
    ParallelStrategyDock* dock = window->strategyDock();
    dock->applySizes(std::nullopt);
    StrategyChart* chart = showStrategy(*window);
    const auto& l = chart->layoutData();
    ASSERT_EQ(l.ranks.size(), 8u);
    EXPECT_EQ(l.source, query::LayoutSource::ParallelGroups);
    EXPECT_TRUE(dock->sourceLabel()->text().contains(QStringLiteral("parallel groups")));
    EXPECT_EQ(dock->sizeSpin(0)->value(), 2);
    EXPECT_EQ(dock->sizeSpin(3)->value(), 2);

    // Rank 6 is stage 1, DP replica 1, TP 0: right of rank 2 (stage 0), below rank 4.
    const QRect r6 = chart->cellRect(6);
    ASSERT_FALSE(r6.isEmpty());
    EXPECT_GT(r6.left(), chart->cellRect(2).right());
    EXPECT_GT(r6.top(), chart->cellRect(4).bottom());
    EXPECT_EQ(chart->itemAt(r6.center()), 6);
    EXPECT_TRUE(chart->itemToolTip(6).contains(QStringLiteral("not loaded")));
    EXPECT_TRUE(chart->itemToolTip(6).contains(QStringLiteral("PP 1 / 2")));
    QTest::mouseClick(chart, Qt::LeftButton, {}, r6.center());
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(6));
    EXPECT_EQ(chart->selectedItem(), 6);

    const QImage image = chart->toImage();
    test::keepImage(image, QStringLiteral("strategy-metadata8.png"));
    EXPECT_GT(test::distinctColours(image), 10);
}

TEST(ParallelStrategyDock, GeneratedClusterSizesRangeAndOverride)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 32;
    o.pp = 2;
    o.tp = 4;
    o.steps = 2;
    o.traceMb = 0;
    o.slowRank = 9;
    auto window = test::newWindow();
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/c")));
    ParallelStrategyDock* dock = window->strategyDock();
    dock->applySizes(std::nullopt);
    StrategyChart* chart = showStrategy(*window);
    EXPECT_EQ(chart->layoutData().sizes, (query::ParallelSizes { 2, 4, 1, 4, 1 }));
    EXPECT_FALSE(chart->p2pPairs().empty());
    ASSERT_EQ(chart->values().size(), 32u);

    // Computing: the slow rank has the largest value and stays inside a range starting at its value.
    dock->metricCombo()->setCurrentIndex(static_cast<int>(query::RankMetric::Computing));
    ASSERT_TRUE(window->waitUntilIdle(60000));
    const auto& v = chart->values();
    const auto top = std::max_element(v.begin(), v.end(), [](auto& a, auto& b) { return a.second < b.second; });
    EXPECT_EQ(top->first, 9);
    dock->lowSpin()->setValue(top->second / 1e6 - 1e-3);
    EXPECT_TRUE(chart->inRange(9));
    EXPECT_FALSE(chart->inRange(8));
    test::keepImage(chart->toImage(), QStringLiteral("strategy-gen32-range.png"));

    // Entered sizes that fit override the groups and are remembered for this input set; "From data" forgets them.
    dock->sizeSpin(0)->setValue(4);
    dock->sizeSpin(1)->setValue(2);
    dock->applyButton()->click();
    ASSERT_TRUE(window->waitUntilIdle(60000));
    EXPECT_EQ(chart->layoutData().source, query::LayoutSource::UserSizes);
    EXPECT_EQ(chart->layoutData().sizes.pp, 4);
    {
        auto again = test::newWindow();
        ASSERT_TRUE(test::openAndWait(*again, { QString::fromStdString(o.outDir) }));
        EXPECT_EQ(showStrategy(*again)->layoutData().source, query::LayoutSource::UserSizes);
    }
    // Sizes that do not fit: the message says why, the data's layout stays.
    dock->sizeSpin(0)->setValue(3);
    dock->applyButton()->click();
    ASSERT_TRUE(window->waitUntilIdle(60000));
    EXPECT_EQ(chart->layoutData().source, query::LayoutSource::ParallelGroups);
    EXPECT_TRUE(dock->sourceLabel()->text().contains(QStringLiteral("= 24 ranks, but the profile has 32")))
        << dock->sourceLabel()->text().toStdString();
    dock->applySizes(std::nullopt);
    ASSERT_TRUE(window->waitUntilIdle(60000));
    EXPECT_EQ(chart->layoutData().source, query::LayoutSource::ParallelGroups);
}

// The source line says in Chinese where the layout came from and why the groups were not used: the query layer's
// sentences are translatable (context ParallelLayout), not English text pasted into a Chinese line.
TEST(ParallelStrategyDock, SourceLineInChinese)
{
    struct RestoreEnglish {
        ~RestoreEnglish() { gui::Appearance::installTranslation(QStringLiteral("en")); }
    } restore;
    ASSERT_TRUE(gui::Appearance::installTranslation(QStringLiteral("zh_CN")));
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    ParallelStrategyDock* dock = window->strategyDock();
    showStrategy(*window);
    const QString text = dock->sourceLabel()->text() + dock->sourceLabel()->toolTip();
    EXPECT_TRUE(text.contains(QStringLiteral("数据中没有任何信息说明并行布局"))) << text.toStdString();
    for (const char* english : { "nothing in the data", "not used", "group", "profiler_metadata" })
        EXPECT_FALSE(text.contains(QLatin1String(english))) << english << ": " << text.toStdString();
}
