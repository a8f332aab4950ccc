// SPDX-License-Identifier: Apache-2.0
// The Compare dock offscreen: two generated PP 4 x TP 8 clusters of the same seed, the second with a slow rank 5,
// opened as baseline and new run: the strip marks rank 5 as the largest computing increase, the waterfall runs from
// the base step to the new step, a click on the strip selects the rank; without a baseline the dock says how to
// choose one, and a new open drops the baseline.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/CompareDock.h"
#include "npuscope/gui/compare/OperatorDiffModel.h"
#include "npuscope/gui/compare/RankDeltaStrip.h"
#include "npuscope/gui/compare/WaterfallChart.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QLabel>
#include <QTemporaryDir>

#include <algorithm>
#include <optional>

using namespace npuscope;

namespace {

std::string generate(const QTemporaryDir& dir, const char* name, std::optional<int> slowRank)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() + QLatin1Char('/') + QLatin1String(name)).toStdString();
    o.ranks = 32;
    o.pp = 4;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 0;
    o.slowRank = slowRank;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

} // namespace

TEST(CompareDock, SlowRankIsTheLargestComputingIncrease)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string base = generate(dir, "a", std::nullopt);
    const std::string neu = generate(dir, "b", 5);
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { QString::fromStdString(neu) }));
    gui::CompareDock* dock = window->compareDock();
    window->focusDock(dock);
    window->show();
    ASSERT_TRUE(test::waitFor([dock] { return !dock->isBusy(); }));
    EXPECT_EQ(dock->diff(), nullptr);
    window->openBaseline({ QString::fromStdString(base) });
    ASSERT_TRUE(window->waitUntilIdle(300000));
    ASSERT_TRUE(test::waitFor([dock] { return !dock->isBusy() && dock->diff() != nullptr; }, 120000));
    const query::RunDiff& diff = *dock->diff();
    ASSERT_EQ(diff.ranks.size(), 32u);
    EXPECT_TRUE(diff.unmatchedBase.empty());
    EXPECT_TRUE(diff.unmatchedNew.empty());

    // The strip (computing by default) marks rank 5, and its Δ is the largest of all ranks.
    gui::RankDeltaStrip* strip = dock->strip();
    EXPECT_EQ(strip->component(), query::DiffComponent::Computing);
    ASSERT_EQ(strip->largestIncreaseRank(), 5);
    double rank5 = 0, others = 0;
    for (const auto& r : diff.ranks) {
        const double d = *query::diffDelta(r.base, r.neu, query::DiffComponent::Computing);
        if (r.rank == 5)
            rank5 = d;
        else
            others = std::max(others, d);
    }
    EXPECT_GT(rank5, 1.0);
    EXPECT_GT(rank5, 5 * others);

    // The waterfall starts at the base step, ends at the new step, and its deltas add up to the step change.
    const auto& bars = dock->waterfall()->bars();
    ASSERT_GE(bars.size(), 3u);
    EXPECT_DOUBLE_EQ(bars.front().to, *diff.clusterBase.value(query::DiffComponent::Step));
    EXPECT_DOUBLE_EQ(bars.back().to, *diff.clusterNew.value(query::DiffComponent::Step));
    EXPECT_EQ(bars.back().kind, gui::WaterfallChart::Bar::Total);
    const auto& last = bars[bars.size() - 2];
    EXPECT_NEAR(last.to, bars.back().to, 1e-6);
    EXPECT_GT(bars.back().to, bars.front().to); // the cluster step got slower
    // The axis starts at zero unless every change is too small to see against the step, and then says so.
    double largest = 0;
    for (const auto& b : bars) {
        if (b.kind != gui::WaterfallChart::Bar::Total)
            largest = std::max(largest, std::abs(b.to - b.from));
    }
    if (largest >= 0.08 * bars.back().to) {
        EXPECT_EQ(dock->waterfall()->axisFloorMs(), 0.0);
    }
    EXPECT_EQ(dock->waterfall()->truncated(), dock->waterfall()->axisFloorMs() > 0);

    // The headline and the operator tables are filled; a click on the strip selects the rank.
    EXPECT_TRUE(dock->headline()->text().startsWith(QStringLiteral("step +")));
    EXPECT_GT(dock->kernelModel()->rowCount(), 0);
    const QRect plot = strip->plotRect();
    const int x = plot.left() + static_cast<int>((5 + 0.5) * plot.width() / 32.0);
    const int item = strip->itemAt(QPoint(x, plot.center().y()));
    EXPECT_EQ(strip->rankOf(item), 5);
    emit strip->itemClicked(item);
    EXPECT_EQ(window->workspace()->selectedRank(), 5);

    // A new open drops the baseline; the dock says how to choose one again.
    ASSERT_TRUE(test::openAndWait(*window, { QString::fromStdString(neu) }));
    EXPECT_EQ(window->workspace()->baseline(), nullptr);
    ASSERT_TRUE(test::waitFor([dock] { return dock->diff() == nullptr; }));
}

TEST(CompareDock, WithoutBaselineSaysHowToChooseOne)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    gui::CompareDock* dock = window->compareDock();
    window->focusDock(dock);
    window->show();
    ASSERT_TRUE(window->waitUntilIdle());
    auto* message = dock->findChild<QLabel*>(QStringLiteral("compareMessage"));
    ASSERT_NE(message, nullptr);
    EXPECT_TRUE(message->isVisible());
    EXPECT_TRUE(message->text().contains(QStringLiteral("Compare with")));
    // The command as typed, shown with no-break hyphens so that it never breaks inside.
    EXPECT_TRUE(message->text().contains(QStringLiteral("\u2011\u2011baseline")));
    EXPECT_EQ(dock->diff(), nullptr);
}
