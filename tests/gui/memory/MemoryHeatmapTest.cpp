// SPDX-License-Identifier: Apache-2.0
#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/memory/MemoryHeatmap.h"
#include "npuscope/gui/memory/MemoryHeatmapDock.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace npuscope;
using gui::MemoryHeatmap;
using gui::MemoryHeatmapDock;

namespace {

// Shows the memory dock of a loaded window at 64 GB per device and waits for its query.
MemoryHeatmap* showMemory(gui::MainWindow& window)
{
    MemoryHeatmapDock* dock = window.memoryHeatmapDock();
    window.focusDock(dock);
    window.show();
    dock->capacitySpin()->setValue(MemoryHeatmapDock::kDefaultCapacityGb);
    EXPECT_TRUE(window.waitUntilIdle(60000));
    return dock->heatmap();
}

} // namespace

TEST(MemoryHeatmap, TwoRanksRatiosClickAndImage)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    MemoryHeatmap* map = showMemory(*window);
    EXPECT_DOUBLE_EQ(window->memoryHeatmapDock()->capacityMb(), 65536.0);
    const auto& cells = map->cells();
    ASSERT_EQ(cells.size(), 2u);
    EXPECT_EQ(cells[0].peak.rank, 0);
    EXPECT_EQ(cells[1].peak.rank, 1);
    // Rank 0's largest PTA+GE Total Reserved in memory_record.csv (the sample has no APP rows).
    ASSERT_TRUE(cells[0].peak.ratio.has_value());
    EXPECT_DOUBLE_EQ(*cells[0].peak.ratio, 2113.73046875 / 65536.0);
    ASSERT_TRUE(cells[1].peak.ratio.has_value());
    ASSERT_TRUE(cells[1].peak.peakReservedMb.has_value());
    EXPECT_DOUBLE_EQ(*cells[1].peak.ratio, *cells[1].peak.peakReservedMb / 65536.0);
    EXPECT_TRUE(map->itemToolTip(0).contains(QStringLiteral("2113.7 MB")));
    EXPECT_TRUE(map->itemToolTip(0).contains(QStringLiteral("(entered: Device memory)"))); // torch_npu records none

    // Changing the capacity re-queries: half the memory, twice the ratio.
    window->memoryHeatmapDock()->capacitySpin()->setValue(32);
    ASSERT_TRUE(window->waitUntilIdle(60000));
    EXPECT_DOUBLE_EQ(*map->cells()[0].peak.ratio, 2113.73046875 / 32768.0);
    window->memoryHeatmapDock()->capacitySpin()->setValue(MemoryHeatmapDock::kDefaultCapacityGb);
    ASSERT_TRUE(window->waitUntilIdle(60000));

    // A click on rank 1's cell selects rank 1, and the cell is drawn selected.
    const QRect cell1 = map->cellRect(map->cellOfRank(1));
    ASSERT_FALSE(cell1.isEmpty());
    EXPECT_EQ(map->itemAt(cell1.center()), map->cellOfRank(1));
    QTest::mouseClick(map, Qt::LeftButton, {}, cell1.center());
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(1));
    EXPECT_EQ(map->selectedItem(), map->cellOfRank(1));

    const QImage image = map->toImage();
    test::keepImage(image, QStringLiteral("memory-2rank.png"));
    ASSERT_FALSE(image.isNull());
    EXPECT_GT(test::distinctColours(image), 20);
    // The cell shows its ratio's colour.
    EXPECT_EQ(QColor(image.pixel(cell1.center() + QPoint(0, cell1.height() / 4))).name(),
        MemoryHeatmap::colorOf(map->cells()[1].peak.ratio).name());
}

TEST(MemoryHeatmap, GeneratedHeavyRankHasTheHighestRatio)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 16;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 0;
    o.memoryHeavyRank = 11;
    auto window = test::newWindow();
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/c")));
    MemoryHeatmap* map = showMemory(*window);
    const auto& cells = map->cells();
    ASSERT_EQ(cells.size(), 16u);
    const auto highest = std::max_element(cells.begin(), cells.end(),
        [](const auto& a, const auto& b) { return a.peak.ratio.value_or(-1) < b.peak.ratio.value_or(-1); });
    EXPECT_EQ(highest->peak.rank, 11);
    for (const auto& c : cells) {
        ASSERT_TRUE(c.peak.ratio.has_value()) << c.peak.rank;
        if (c.peak.rank != 11) {
            EXPECT_LT(*c.peak.ratio, *highest->peak.ratio);
        }
    }
    // Every cell has its own slot in the grid.
    std::set<std::pair<int, int>> positions;
    for (const auto& c : cells)
        positions.emplace(c.row, c.column);
    EXPECT_EQ(positions.size(), 16u);
    test::keepImage(map->toImage(), QStringLiteral("memory-gen16.png"));
}

// MindSpore's old layout: each device's capacity and peak come from its memory_usage_summary file (GiB, read here),
// whatever the Device memory figure says.
TEST(MemoryHeatmap, MindSporeSummaryGivesCapacityAndPeak)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 4;
    o.pp = 2;
    o.steps = 2;
    o.traceMb = 0;
    o.memoryHeavyRank = 2;
    o.format = testgen::OutputFormat::MindSporeLegacy;
    auto window = test::newWindow();
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/c")));
    MemoryHeatmap* map = showMemory(*window);
    const auto& cells = map->cells();
    ASSERT_EQ(cells.size(), 4u);
    for (size_t i = 0; i < cells.size(); ++i) {
        const auto& p = cells[i].peak;
        QFile f(dir.path() + QStringLiteral("/c/cluster_profiler/1/profiler/memory_usage_summary_%1.json").arg(p.rank));
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const auto summary = QJsonDocument::fromJson(f.readAll()).object();
        const double capacityMb = summary.value(QStringLiteral("capacity")).toDouble() * 1024.0;
        const double peakMb = summary.value(QStringLiteral("peak_mem")).toDouble() * 1024.0;
        ASSERT_TRUE(p.ratio.has_value()) << p.rank;
        EXPECT_DOUBLE_EQ(*p.ratio, peakMb / capacityMb) << p.rank;
        EXPECT_TRUE(map->itemToolTip(static_cast<int>(i)).contains(QStringLiteral("from memory_usage_summary")));
    }
    const auto highest = std::max_element(cells.begin(), cells.end(),
        [](const auto& a, const auto& b) { return a.peak.ratio.value_or(-1) < b.peak.ratio.value_or(-1); });
    EXPECT_EQ(highest->peak.rank, 2);
    // The view says where the figure came from.
    EXPECT_TRUE(window->memoryHeatmapDock()->summaryLabel()->text().contains(QStringLiteral("memory_usage_summary")))
        << window->memoryHeatmapDock()->summaryLabel()->text().toStdString();
}

TEST(MemoryHeatmap, NoHostsLayOutByRankInRowsOf16)
{
    MemoryHeatmap map;
    std::vector<query::RankMemoryPeak> peaks(40);
    for (size_t i = 0; i < peaks.size(); ++i)
        peaks[i].rank = static_cast<int64_t>(i);
    peaks[3].peakReservedMb = 100;
    peaks[3].capacityMb = 1000;
    peaks[3].ratio = 0.1;
    map.setPeaks(peaks);
    EXPECT_EQ(map.rowCount(), 3);
    EXPECT_EQ(map.columnCount(), 16);
    EXPECT_EQ(map.cells()[33].row, 2);
    EXPECT_EQ(map.cells()[33].column, 1);
    EXPECT_EQ(map.rowLabels()[2], QStringLiteral("ranks 32\u201339"));
    EXPECT_TRUE(map.itemToolTip(0).contains(QStringLiteral("no memory records")));
    EXPECT_EQ(MemoryHeatmap::colorOf(std::nullopt), MemoryHeatmap::colorOf(std::nullopt));
    EXPECT_NE(MemoryHeatmap::colorOf(0.95), MemoryHeatmap::colorOf(0.5));
}

TEST(MemoryHeatmap, HostsAreRowsDevicesAreColumns)
{
    MemoryHeatmap map;
    std::vector<query::RankMemoryPeak> peaks(5);
    const char* hosts[] = { "node10", "node2", "node10", "node2", nullptr };
    const int64_t devices[] = { 0, 0, 1, 1, 3 };
    for (size_t i = 0; i < peaks.size(); ++i) {
        peaks[i].rank = static_cast<int64_t>(i);
        if (hosts[i])
            peaks[i].host = hosts[i];
        peaks[i].device = devices[i];
    }
    map.setPeaks(peaks);
    ASSERT_EQ(map.rowLabels(),
        (std::vector<QString> { QStringLiteral("node2"), QStringLiteral("node10"), QStringLiteral("\u2014") }));
    EXPECT_EQ(map.columnCount(), 3); // devices 0, 1, 3
    EXPECT_EQ(map.cells()[0].row, 1);
    EXPECT_EQ(map.cells()[2].column, 1);
    EXPECT_EQ(map.cells()[4].row, 2);
    EXPECT_EQ(map.cells()[4].column, 2);
}

// Devices that reserve 50 … 53 % of their memory are one blue on the device scale. "Deviation from the median device"
// colours what differs from the median by more than the neutral band (±2 %): 0.52 is the median, 0.53 (+1.9 %) stays
// neutral, 0.50 (−3.8 %) is cool and 0.60 (+15 %) warm; red stays "over 90 %". A spread of a few MB is noise: both
// neutral (a least-to-most ramp painted it light against dark).
TEST(MemoryHeatmap, MedianScaleColoursOnlyWhatDiffersPastTheBand)
{
    const auto peaksOf = [](std::vector<double> ratios) {
        std::vector<query::RankMemoryPeak> peaks;
        for (size_t i = 0; i < ratios.size(); ++i) {
            query::RankMemoryPeak p;
            p.rank = static_cast<int64_t>(i);
            p.peakReservedMb = ratios[i] * 65536.0;
            p.capacityMb = 65536.0;
            p.ratio = ratios[i];
            peaks.push_back(p);
        }
        return peaks;
    };
    const auto distance = [](const QColor& a, const QColor& b) {
        return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
    };
    MemoryHeatmap map;
    map.resize(800, 300);
    map.setPeaks(peaksOf({ 0.50, 0.51, 0.52, 0.53, 0.60, 0.95 }));
    EXPECT_EQ(map.scale(), MemoryHeatmap::Scale::Device);
    EXPECT_LT(distance(map.colorOnScale(0.50), map.colorOnScale(0.53)), 40);
    map.setScale(MemoryHeatmap::Scale::Median);
    EXPECT_NEAR(map.medianRatio(), 0.525, 1e-12);
    EXPECT_EQ(map.colorOnScale(0.52).name(), MemoryHeatmap::neutralColor().name());
    EXPECT_EQ(map.colorOnScale(0.53).name(), MemoryHeatmap::neutralColor().name());
    const QColor cool = map.colorOnScale(0.50), warm = map.colorOnScale(0.60);
    EXPECT_GT(cool.blue(), cool.red()) << cool.name().toStdString();
    EXPECT_GT(warm.red(), warm.blue()) << warm.name().toStdString();
    EXPECT_GT(distance(warm, MemoryHeatmap::neutralColor()), distance(cool, MemoryHeatmap::neutralColor()));
    EXPECT_EQ(map.colorOnScale(0.95).name(), MemoryHeatmap::colorOf(0.95).name()); // red on both scales
    const QImage image = map.toImage();
    test::keepImage(image, QStringLiteral("memory-median.png"));
    const QRect cell = map.cellRect(map.cellOfRank(4));
    EXPECT_EQ(QColor(image.pixel(cell.center() + QPoint(0, cell.height() / 4))).name(), warm.name());

    // 4 MB apart of 64 GB: both neutral.
    map.setPeaks(peaksOf({ 0.52, 0.52 + 4.0 / 65536.0 }));
    EXPECT_EQ(map.colorOnScale(0.52 + 4.0 / 65536.0).name(), MemoryHeatmap::neutralColor().name());
}
