// SPDX-License-Identifier: Apache-2.0
// The Marey dock offscreen: renders with content on a generated PP=4 × TP=8 cluster with a slow rank and on the real
// 2-rank samples, a stage collapses to one line, clicking a device line selects the rank, a finding highlights and
// publishes its operator, the Workspace step drives the view.
#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/marey/MareyChart.h"
#include "npuscope/gui/marey/MareyDock.h"
#include "npuscope/gui/strategy/ParallelStrategyDock.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace npuscope;
using gui::MareyChart;
using gui::MareyDock;

namespace {

MareyDock* showMarey(gui::MainWindow& window)
{
    MareyDock* dock = test::showDock(window, window.mareyDock(), 120000);
    EXPECT_TRUE(test::waitFor([dock] { return !dock->isImporting() && !dock->isBusy(); }, 120000));
    EXPECT_TRUE(window.waitUntilIdle(120000));
    return dock;
}

// Pixels of a colour in a horizontal strip of the image.
int countColour(const QImage& image, QRgb colour, int y0, int y1)
{
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(image.height(), y1); ++y) {
        for (int x = 0; x < image.width(); ++x)
            n += image.pixel(x, y) == colour ? 1 : 0;
    }
    return n;
}

const QRgb kCompute = gui::MareyChart::kindColour(query::MareyOpKind::Compute).rgb(); // the compute bar colour
// and its polygon colour (a third of its saturation, as MareyChart draws it)
const QRgb kComputeBand = qRgb(255 - (255 - qRed(kCompute)) * 35 / 100, 255 - (255 - qGreen(kCompute)) * 35 / 100,
    255 - (255 - qBlue(kCompute)) * 35 / 100);

} // namespace

TEST(MareyDock, GeneratedPipelineRendersCollapsesAndSelects)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 32;
    o.pp = 4;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 1;
    o.slowRank = 9;
    auto window = test::newWindow(QSize(1600, 1000));
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/pp4")));
    MareyDock* dock = showMarey(*window);
    MareyChart* chart = dock->chart();
    ASSERT_NE(chart->step(), nullptr);
    EXPECT_TRUE(dock->statusLabel()->text().contains(QStringLiteral("kernels loaded for 32 of 32 ranks")))
        << dock->statusLabel()->text().toStdString();
    ASSERT_EQ(chart->step()->stages.size(), 4u);
    ASSERT_EQ(chart->step()->devices.size(), 32u);
    EXPECT_FALSE(chart->step()->p2p.empty());

    QImage image = chart->toImage();
    test::keepImage(image, QStringLiteral("marey-pp4.png"));
    EXPECT_GT(test::distinctColours(image), 20);
    // Rank 9's line carries compute bars; the band below it (to rank 10) polygons.
    const int d9 = chart->step()->deviceOf(9);
    const int y9 = chart->deviceY(d9);
    ASSERT_GT(y9, 0);
    EXPECT_GT(countColour(image, kCompute, y9, y9 + 1), 100);
    EXPECT_GT(countColour(image, kComputeBand, y9 + 4, chart->deviceY(d9 + 1)), 100);

    // The slow rank is the first finding; clicking it selects the rank and publishes the operator.
    ASSERT_FALSE(dock->findings().findings.empty());
    const auto& first = dock->findings().findings.front();
    EXPECT_EQ(first.kind, query::MareyFindingKind::SlowDevice);
    EXPECT_EQ(chart->step()->devices[first.device].rank, 9);
    EXPECT_EQ(dock->findingsList()->topLevelItemCount(), static_cast<int>(dock->findings().findings.size()));
    dock->findingsList()->setCurrentItem(dock->findingsList()->topLevelItem(0));
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(9));
    ASSERT_TRUE(window->workspace()->selectedOperator().has_value());
    EXPECT_EQ(window->workspace()->selectedOperator()->key, chart->step()->names[first.name]);
    EXPECT_EQ(window->workspace()->selectedOperator()->rank, std::optional<int64_t>(9));

    // Collapse stage 1: one line of unions instead of 8 device lines; the other stages get more room.
    const int y2Before = chart->stageLabelY(2);
    chart->zoomOut();
    window->workspace()->setSelectedRank(std::nullopt); // the selection tints its line
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(20, chart->stageLabelY(1) + 5));
    EXPECT_TRUE(chart->isStageCollapsed(1));
    EXPECT_LT(chart->stageLabelY(2), y2Before);
    const int yCollapsed = chart->deviceY(chart->step()->stages[1].firstDevice);
    for (int d = chart->step()->stages[1].firstDevice; d < chart->step()->stages[1].firstDevice + 8; ++d)
        EXPECT_EQ(chart->deviceY(d), yCollapsed);
    image = chart->toImage();
    test::keepImage(image, QStringLiteral("marey-pp4-collapsed.png"));
    EXPECT_GT(countColour(image, kCompute, yCollapsed - 1, yCollapsed + 2), 100);
    // No polygon band inside a collapsed stage.
    EXPECT_EQ(countColour(image, kComputeBand, yCollapsed + 6, chart->stageLabelY(2)), 0);
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(20, chart->stageLabelY(1) + 5));
    EXPECT_FALSE(chart->isStageCollapsed(1));

    // Clicking a device line (label column and plot) selects its rank.
    const int d20 = chart->step()->deviceOf(20);
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(30, chart->deviceY(d20)));
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(20));
    const int d3 = chart->step()->deviceOf(3);
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(chart->plotRect().center().x(), chart->deviceY(d3)));
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(3));

    // Brushing zooms in, double-click zooms out.
    const double before = chart->axis().windowNs();
    const int x0 = chart->plotRect().left() + 100;
    QTest::mousePress(chart, Qt::LeftButton, {}, QPoint(x0, chart->deviceY(d3)));
    QMouseEvent move(QEvent::MouseMove, QPointF(x0 + 200, chart->deviceY(d3)), chart->mapToGlobal(QPointF(x0 + 200, 0)),
        Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(chart, &move);
    QTest::mouseRelease(chart, Qt::LeftButton, {}, QPoint(x0 + 200, chart->deviceY(d3)));
    EXPECT_LT(chart->axis().windowNs(), before / 2);
    QTest::mouseDClick(chart, Qt::LeftButton, {}, QPoint(x0, chart->deviceY(d3)));
    EXPECT_NEAR(chart->axis().windowNs(), before, before * 0.01);

    // Aligned time starts every device at 0.
    dock->timeCombo()->setCurrentIndex(1);
    EXPECT_EQ(chart->timeMode(), query::MareyTime::Aligned);
    EXPECT_EQ(chart->axis().boundsBegin(), 0);

    // The Workspace step drives the view.
    window->workspace()->setStep(51);
    EXPECT_TRUE(window->waitUntilIdle(60000));
    EXPECT_EQ(dock->shownStep(), std::optional<int64_t>(51));
    EXPECT_EQ(chart->step()->step, std::optional<int64_t>(51));
}

TEST(MareyDock, RealTwoRankSampleRenders)
{
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level0" }) {
        SCOPED_TRACE(sample);
        auto window = test::newWindow();
        ASSERT_TRUE(test::openAndWait(*window, { test::dataPath(sample) }));
        MareyDock* dock = showMarey(*window);
        MareyChart* chart = dock->chart();
        ASSERT_NE(chart->step(), nullptr);
        EXPECT_EQ(dock->shownStep(), std::optional<int64_t>(50));
        ASSERT_EQ(chart->step()->devices.size(), 2u);
        EXPECT_EQ(chart->step()->devices[0].ops.size(), 191u);
        const QImage image = chart->toImage();
        test::keepImage(image, QStringLiteral("marey-%1.png").arg(QLatin1String(sample)));
        const int y0 = chart->deviceY(0), y1 = chart->deviceY(1);
        EXPECT_GT(countColour(image, kCompute, y0, y0 + 1), 20);
        EXPECT_GT(countColour(image, kComputeBand, y0 + 4, y1), 100);
        // Hovering an operator describes it.
        const auto& op = chart->step()->devices[0].ops[0];
        const int x = chart->plotRect().left() + static_cast<int>(chart->axis().toPx(op.start)) + 1;
        const int item = chart->itemAt(QPoint(x, y0));
        ASSERT_GE(item, 0);
        const QString tip = chart->itemToolTip(item);
        EXPECT_TRUE(tip.contains(QStringLiteral("rank 0"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("duration"))) << tip.toStdString();

        // Sizes applied in the Parallel strategy view lay the Marey stages out too: PP 2 puts each rank in a stage.
        window->strategyDock()->applySizes(query::ParallelSizes { 2, 1, 1, 1, 1 });
        window->focusDock(window->strategyDock());
        EXPECT_TRUE(window->waitUntilIdle(60000));
        dock = showMarey(*window);
        ASSERT_NE(dock->chart()->step(), nullptr);
        EXPECT_EQ(dock->chart()->step()->stages.size(), 2u);
        window->strategyDock()->applySizes(std::nullopt);
    }
}

// In a 683 × 384 window (a 1366 × 768 screen at a scale of 2) the dock's content is not wider than the dock, so the
// wrapped legend and status are not cut at the window's edge; the legend shows all of its lines. The time axis labels
// sit centred on their ticks, left to right without overlapping, all in one unit and one precision, the first "0".
TEST(MareyDock, NarrowWindowFitsLegendAndTicksAreCentred)
{
    auto window = test::newWindow(QSize(683, 384));
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    MareyDock* dock = showMarey(*window);
    MareyChart* chart = dock->chart();
    ASSERT_NE(chart->step(), nullptr);
    auto* area = qobject_cast<QScrollArea*>(dock->widget());
    ASSERT_NE(area, nullptr);
    EXPECT_LE(area->widget()->minimumSizeHint().width(), area->viewport()->width());
    EXPECT_FALSE(area->horizontalScrollBar()->isVisible());
    QLabel* legend = dock->legend();
    EXPECT_LE(legend->mapTo(window.get(), QPoint(legend->width(), 0)).x(), window->width());
    EXPECT_GE(legend->height(), legend->heightForWidth(legend->width()));

    for (const int width : { 683, 1366, 1920 }) {
        window->resize(width, 600);
        ASSERT_TRUE(window->waitUntilIdle(60000));
        chart->zoomOut();
        for (const bool zoomed : { false, true }) {
            SCOPED_TRACE(std::to_string(width) + (zoomed ? " zoomed" : ""));
            if (zoomed)
                chart->zoomTo(chart->axis().boundsBegin() + chart->axis().windowNs() / 3,
                    chart->axis().boundsBegin() + static_cast<int64_t>(chart->axis().windowNs() * 0.4));
            const auto ticks = chart->axisTicks();
            ASSERT_GE(ticks.size(), 2u);
            if (!zoomed) {
                EXPECT_EQ(ticks.front().text, QStringLiteral("0"));
                EXPECT_LT(ticks.front().x, chart->plotRect().left() + chart->plotRect().width() * 0.05);
            }
            QString unit;
            int decimals = -1;
            QRectF previous;
            int labelled = 0;
            for (size_t i = 0; i < ticks.size(); ++i) {
                const auto& t = ticks[i];
                if (i > 0) {
                    EXPECT_GT(t.x, ticks[i - 1].x);
                }
                if (t.text.isEmpty())
                    continue;
                ++labelled;
                EXPECT_NEAR(t.rect.center().x(), t.x, 0.5) << t.text.toStdString();
                EXPECT_GE(t.rect.left(), chart->plotRect().left() - MareyChart::kTickLabelOverhang);
                EXPECT_LE(t.rect.right(), chart->width());
                if (!previous.isNull()) {
                    EXPECT_GT(t.rect.left(), previous.right()) << t.text.toStdString();
                }
                previous = t.rect;
                if (t.text == QStringLiteral("0"))
                    continue;
                const QStringList parts = t.text.split(QLatin1Char(' '));
                ASSERT_EQ(parts.size(), 2) << t.text.toStdString();
                const qsizetype dot = parts[0].indexOf(QLatin1Char('.'));
                const int d = dot < 0 ? 0 : static_cast<int>(parts[0].size() - dot - 1);
                if (unit.isEmpty()) {
                    unit = parts[1];
                    decimals = d;
                }
                EXPECT_EQ(parts[1], unit) << t.text.toStdString();
                EXPECT_EQ(d, decimals) << t.text.toStdString();
            }
            EXPECT_GE(labelled, 2);
        }
    }
}

// A large job (4 stages of 32 devices: 128 lines, more than kAutoCollapseDevices) opens with its stages collapsed, one
// line each, instead of a hatch of one-pixel device lines; once stages are chosen by hand the choice is kept.
TEST(MareyDock, ManyDevicesOpenWithStagesCollapsed)
{
    // stages × devices, without ops: the layout is what is tested.
    const auto stepOf = [](std::optional<int64_t> step, int stages, int devices) {
        auto out = std::make_shared<query::MareyStep>();
        out->step = step;
        for (int s = 0; s < stages; ++s) {
            out->stages.push_back({ s, s * devices, devices, 0 });
            for (int d = 0; d < devices; ++d) {
                query::MareyDevice device;
                device.rank = s * devices + d;
                device.stage = s;
                out->devices.push_back(device);
            }
        }
        return out;
    };
    const auto big = stepOf(std::nullopt, 4, 32);
    gui::MareyChart chart;
    chart.resize(900, 500);
    chart.setStep(big);
    for (int s = 0; s < 4; ++s)
        EXPECT_TRUE(chart.isStageCollapsed(s)) << s;
    EXPECT_EQ(chart.deviceY(0), chart.deviceY(31));

    // A small one (2 stages of 8) opens expanded.
    const auto small = stepOf(2, 2, 8);
    chart.setStep(small);
    EXPECT_FALSE(chart.isStageCollapsed(0));

    // Expanded by hand: the next large step keeps the hand's choice.
    chart.setStep(big);
    chart.setStageCollapsed(0, false);
    chart.setStep(small);
    chart.setStep(big);
    EXPECT_FALSE(chart.isStageCollapsed(0));
}

// The tutorial's FLOPs line: each operator carries its kernel's FLOPs (the model's own sum per device and step), and
// the chart draws the purple line above the devices whose kernels have FLOPs.
TEST(MareyDock, FlopsLineFromTheKernelsFlops)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 8;
    o.pp = 2;
    o.tp = 4;
    o.steps = 2;
    o.traceMb = 1;
    o.flops = true;
    auto window = test::newWindow(QSize(1600, 1000));
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/flops")));
    MareyDock* dock = showMarey(*window);
    MareyChart* chart = dock->chart();
    ASSERT_NE(chart->step(), nullptr);
    ASSERT_TRUE(chart->step()->step);
    const int64_t step = *chart->step()->step;
    auto db = window->workspace()->database();
    for (const auto& dev : chart->step()->devices) {
        double shown = 0;
        for (const auto& op : dev.ops)
            shown += op.flops;
        double expected = 0;
        {
            auto lock = db->lock();
            const std::string where = " WHERE rank_id = " + std::to_string(dev.rank) + " AND step = "
                + std::to_string(step);
            expected = test::real(*db, "SELECT COALESCE((SELECT SUM(flops) FROM kernel" + where
                    + "), (SELECT SUM(flops) FROM step_kernel" + where + "), 0)");
        }
        EXPECT_NEAR(shown, expected, std::max(1.0, expected * 1e-9)) << "rank " << dev.rank;
        EXPECT_GT(shown, 0) << "rank " << dev.rank;
    }
    const QImage image = chart->grab().toImage();
    const QRgb purple = MareyChart::flopsLineColour().rgb();
    int lines = 0;
    for (size_t d = 0; d < chart->step()->devices.size(); ++d) {
        const int y = chart->deviceY(static_cast<int>(d));
        lines += countColour(image, purple, y - 30, y) > 50 ? 1 : 0;
    }
    EXPECT_EQ(lines, static_cast<int>(chart->step()->devices.size()));
    test::keepImage(image, QStringLiteral("marey_flops_line.png"));
}

// The tutorial's memory line, from torch_npu's memory_record.csv: each device's line is its PTA+GE "Total
// Allocated(MB)" samples over the step (with the one in force at its start), read here from the CSV itself; the
// chart draws it in the memory colour.
TEST(MareyDock, MemoryLineFromMemoryRecord)
{
    auto window = test::newWindow(QSize(1600, 1000));
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    MareyDock* dock = showMarey(*window);
    MareyChart* chart = dock->chart();
    ASSERT_NE(chart->step(), nullptr);
    ASSERT_EQ(chart->blocks().size(), chart->step()->devices.size());
    for (size_t d = 0; d < chart->step()->devices.size(); ++d) {
        const auto& dev = chart->step()->devices[d];
        const auto& line = chart->blocks()[d].memoryLine;
        // The rank's PTA+GE rows: "PTA+GE,<us with a fraction>\t,<allocated MB>,..." as epoch ns.
        QFile csv(test::kTwoRanks + QStringLiteral("/rank%1_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv")
                .arg(dev.rank));
        ASSERT_TRUE(csv.open(QIODevice::ReadOnly)) << csv.fileName().toStdString();
        std::vector<std::pair<int64_t, double>> rows;
        for (const QByteArray& raw : csv.readAll().split('\n')) {
            const QList<QByteArray> cells = raw.split(',');
            if (cells.size() < 3 || cells[0] != "PTA+GE" || cells[2].trimmed().isEmpty())
                continue;
            const QList<QByteArray> us = cells[1].trimmed().split('.');
            int64_t ns = us[0].toLongLong() * 1000;
            if (us.size() > 1)
                ns += us[1].leftJustified(3, '0').left(3).toLongLong();
            rows.emplace_back(ns, cells[2].trimmed().toDouble());
        }
        ASSERT_FALSE(rows.empty());
        std::sort(rows.begin(), rows.end());
        // The samples in force during the step: the last one at or before its first operator, then those up to its end.
        std::vector<std::pair<int64_t, double>> expected;
        for (size_t i = 0; i < rows.size(); ++i) {
            const bool inForceAtStart = rows[i].first <= dev.stepStart
                && (i + 1 == rows.size() || rows[i + 1].first > dev.stepStart);
            if (inForceAtStart || (rows[i].first > dev.stepStart && rows[i].first <= dev.stepEnd))
                expected.push_back(rows[i]);
        }
        ASSERT_FALSE(expected.empty()) << "rank " << dev.rank;
        ASSERT_LE(expected.size(), 2000u); // under the line's point budget: every sample is drawn
        ASSERT_EQ(line.size(), expected.size()) << "rank " << dev.rank;
        for (size_t i = 0; i < line.size(); ++i) {
            EXPECT_EQ(line[i].t, expected[i].first) << "rank " << dev.rank << " sample " << i;
            EXPECT_NEAR(line[i].v, expected[i].second, 1e-9) << "rank " << dev.rank << " sample " << i;
        }
        EXPECT_EQ(chart->blocks()[d].memorySeries, "PTA+GE allocated");
    }
    const QImage image = chart->grab().toImage();
    EXPECT_GT(countColour(image, MareyChart::memoryLineColour().rgb(), 0, image.height()), 50);
}
