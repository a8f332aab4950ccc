// SPDX-License-Identifier: Apache-2.0
// The memory detail dock on the real torch_npu 2-rank Level1 sample: curves drawn, blocks listed, a range dragged
// on the chart published as the Workspace's window and filtering the block table; a heatmap click opens the dock.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/memory/MemoryCurveChart.h"
#include "npuscope/gui/memory/MemoryDetailDock.h"
#include "npuscope/gui/memory/MemoryHeatmap.h"
#include "npuscope/gui/memory/MemoryHeatmapDock.h"
#include "npuscope/gui/memory/ModuleMemoryModel.h"
#include "npuscope/gui/memory/OperatorMemoryModel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace npuscope;
using gui::MemoryCurveChart;
using gui::MemoryDetailDock;

namespace {

MemoryDetailDock* showDetail(gui::MainWindow& window) { return test::showDock(window, window.memoryDetailDock()); }

} // namespace

TEST(MemoryDetailDock, CurvesTablesAndWindowFilter)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    MemoryDetailDock* dock = showDetail(*window);
    QAbstractItemModelTester blockTester(dock->blockModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester moduleTester(dock->moduleModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    // No rank selected: the first rank; rank 0's files have 184 operator_memory rows, 1004 memory_record rows in
    // APP / PTA / GE / PTA+GE.
    EXPECT_EQ(dock->shownRank(), std::optional<int64_t>(0));
    EXPECT_EQ(dock->blockModel()->rowCount(), 184);
    EXPECT_GT(dock->moduleModel()->rowCount(), 10);
    MemoryCurveChart* chart = dock->chart();
    std::set<std::string> components;
    size_t samples = 0;
    for (const auto& s : chart->series()) {
        components.insert(s.curve.component);
        EXPECT_TRUE(s.overview.empty()); // far below the reduction threshold
        if (s.curve.metric == query::MemoryMetric::Reserved)
            samples += s.curve.points.size();
    }
    EXPECT_EQ(components, (std::set<std::string> { "APP", "GE", "PTA", "PTA+GE" }));
    EXPECT_EQ(samples, 1004u); // every row has a Total Reserved
    EXPECT_TRUE(dock->statusLabel()->text().contains(QStringLiteral("Rank 0")));

    const QImage image = chart->toImage();
    test::keepImage(image, QStringLiteral("memorydetail-2rank.png"));
    EXPECT_GT(test::distinctColours(image), 8);
    EXPECT_GT(chart->drawnPoints(), 1000u);
    // Hover: the tooltip names time and values.
    const QRect plot(chart->width() / 2, chart->height() / 2, 1, 1);
    const int item = chart->itemAt(plot.topLeft());
    ASSERT_GE(item, MemoryCurveChart::kPlotItemBase);
    EXPECT_TRUE(chart->itemToolTip(item).contains(QStringLiteral(" MB")));

    // A legend click hides a series.
    const int legend = chart->itemAt(QPoint(80, 10));
    ASSERT_EQ(legend, 0);
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(80, 10));
    EXPECT_FALSE(chart->series()[0].visible);

    // Dragging over the middle fifth publishes a window; with "only in window" the table keeps the blocks
    // allocated or released in it.
    const int y = chart->height() / 2;
    const int x0 = chart->width() * 2 / 5, x1 = chart->width() * 3 / 5;
    QTest::mousePress(chart, Qt::LeftButton, {}, QPoint(x0, y));
    QMouseEvent move(QEvent::MouseMove, QPointF(x1, y), chart->mapToGlobal(QPointF(x1, y)), Qt::NoButton,
        Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(chart, &move);
    QTest::mouseRelease(chart, Qt::LeftButton, {}, QPoint(x1, y));
    const auto w = window->workspace()->timeWindow();
    ASSERT_TRUE(w.has_value());
    EXPECT_LT(w->begin, w->end);
    EXPECT_EQ(chart->window(), std::optional(std::pair { w->begin, w->end }));
    EXPECT_EQ(dock->blockModel()->rowCount(), 184); // not filtered until asked
    dock->windowOnlyCheck()->setChecked(true);
    const int inWindow = dock->blockModel()->rowCount();
    EXPECT_GT(inWindow, 0);
    EXPECT_LT(inWindow, 184);
    for (const auto& r : dock->blockModel()->rows())
        EXPECT_TRUE(query::MemoryDetailQuery::inWindow(r, w->begin, w->end));
    // The name filter narrows the view.
    dock->filterEdit()->setText(QStringLiteral("cann::"));
    EXPECT_LT(dock->blockProxy()->rowCount(), inWindow);
    dock->filterEdit()->clear();
    // Clearing the window shows every block again.
    window->workspace()->setTimeWindow(std::nullopt);
    EXPECT_EQ(dock->blockModel()->rowCount(), 184);
    EXPECT_FALSE(chart->window().has_value());

    // Selecting rank 1 shows rank 1.
    window->workspace()->setSelectedRank(1);
    ASSERT_TRUE(window->waitUntilIdle(60000));
    EXPECT_EQ(dock->shownRank(), std::optional<int64_t>(1));
    EXPECT_EQ(dock->blockModel()->rowCount(), 184);
}

TEST(MemoryDetailDock, HeatmapClickOpensTheDetail)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    auto* heatmapDock = window->memoryHeatmapDock();
    window->focusDock(heatmapDock);
    window->show();
    ASSERT_TRUE(window->waitUntilIdle(60000));
    window->memoryDetailDock()->hide();
    gui::MemoryHeatmap* map = heatmapDock->heatmap();
    QTest::mouseClick(map, Qt::LeftButton, {}, map->cellRect(map->cellOfRank(1)).center());
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(1));
    EXPECT_TRUE(window->memoryDetailDock()->isVisible());
    ASSERT_TRUE(window->waitUntilIdle(60000));
    EXPECT_EQ(window->memoryDetailDock()->shownRank(), std::optional<int64_t>(1));
}

TEST(MemoryDetailDock, RankWithoutMemorySaysWhichFiles)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::dataPath("msinsight_communication_group") }));
    MemoryDetailDock* dock = showDetail(*window);
    EXPECT_EQ(dock->blockModel()->rowCount(), 0);
    EXPECT_TRUE(dock->chart()->series().empty());
    EXPECT_TRUE(dock->statusLabel()->text().contains(QStringLiteral("profile_memory=True")));
    EXPECT_TRUE(dock->statusLabel()->text().contains(QStringLiteral("memory_record.csv")));
}

TEST(MemoryCurveChart, LargeInputKeepsOverviewsAndBoundsTheFrame)
{
    std::vector<query::MemoryCurve> curves(2);
    for (int c = 0; c < 2; ++c) {
        curves[static_cast<size_t>(c)].component = c ? "PTA" : "GE";
        for (int i = 0; i < 30'000; ++i)
            curves[static_cast<size_t>(c)].points.push_back({ i * 1000LL, static_cast<double>((i * 7) % 1000 + c) });
    }
    auto series = MemoryCurveChart::prepare(curves, 10'000);
    ASSERT_EQ(series.size(), 2u);
    for (const auto& s : series) {
        EXPECT_LE(s.overview.size(), 5000u);
        EXPECT_GE(s.overview.size(), 4u);
        EXPECT_EQ(s.overview.front(), s.curve.points.front());
        EXPECT_EQ(s.overview.back(), s.curve.points.back());
    }
    MemoryCurveChart chart;
    chart.resize(600, 300);
    chart.setSeries(std::move(series));
    QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    chart.paint(p);
    p.end();
    // About 2 points per pixel per series (plus the edge points).
    EXPECT_LE(chart.drawnPoints(), 2u * (2u * 600u + 4u));
    EXPECT_GT(chart.drawnPoints(), 100u);
    EXPECT_EQ(MemoryCurveChart::valueAt(chart.series()[0], 1500), std::optional<double>(7.0));
    EXPECT_FALSE(MemoryCurveChart::valueAt(chart.series()[0], -1).has_value());
}
