// SPDX-License-Identifier: Apache-2.0
// Figures that reconcile (issue 36 item 5): the step wall time column that defines "slowest rank" in Cluster steps,
// the Overview's line that tells its step time from Stage, the diverging colour around the median, the ms default,
// and a large cluster opening on its slowest ranks.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/DivergingScale.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/OverviewDock.h"
#include "npuscope/gui/steps/StepStatsModel.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPalette>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

class StepFigures : public test::TwoRanksWindow { };

// The rank the summary names as the slowest ("… · slowest rank 7 (step wall time …)"), -1 when it names none.
int64_t summarySlowestRank(ClusterStepsDock& dock)
{
    auto* summary = dock.findChild<QLabel*>(QStringLiteral("stepsSummary"));
    if (!summary)
        return -1;
    const auto match = QRegularExpression(QStringLiteral("slowest rank (\\d+)")).match(summary->text());
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

qlonglong proxyValue(const QSortFilterProxyModel& proxy, int row, int column)
{
    return proxy.index(row, column).data(StepTableModel::RawValueRole).toLongLong();
}

// Restores the default band after a test that changes it.
struct BandGuard {
    ~BandGuard() { DivergingScale::setNeutralBand(DivergingScale::kDefaultNeutralBand); }
};

} // namespace

TEST_F(StepFigures, WallTimeColumnDefinesTheSlowestRankAndSorts)
{
    ClusterStepsDock& dock = *m_window->stepsDock();
    const StepTableModel& model = *dock.model();
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_TRUE(model.isColumnShown(StepTableModel::WallTime));
    EXPECT_FALSE(dock.tableView()->isColumnHidden(StepTableModel::WallTime));
    // Computing + Communication(Not Overlapped) + Free + Preparing of step_trace_time.csv, in ns.
    const QSortFilterProxyModel& proxy = *dock.proxyModel();
    // Two ranks: rank order (a small cluster stays by rank).
    EXPECT_EQ(proxy.sortColumn(), StepTableModel::Rank);
    EXPECT_EQ(proxyValue(proxy, 0, StepTableModel::Rank), 0);
    EXPECT_EQ(proxyValue(proxy, 0, StepTableModel::WallTime), 8873756 + 101963203 + 25744050 + 17902500);
    EXPECT_EQ(proxyValue(proxy, 1, StepTableModel::WallTime), 8878295 + 96359047 + 26675274 + 20433250);

    // The header tooltip defines the column, says what "slowest rank" is and the colour rule.
    const QString tip = model.headerData(StepTableModel::WallTime, Qt::Horizontal, Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Computing + Communication(Not Overlapped) + Free + Preparing")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("ProfilerStep#N"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Slowest rank"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("median"))) << tip.toStdString();
    EXPECT_TRUE(model.headerData(StepTableModel::WallTime, Qt::Horizontal).toString().contains(QStringLiteral("[ms]")));

    // Sorted by the column, slowest first: the summary's slowest rank is the top row; ascending, the other one.
    dock.tableView()->sortByColumn(StepTableModel::WallTime, Qt::DescendingOrder);
    EXPECT_EQ(summarySlowestRank(dock), proxyValue(proxy, 0, StepTableModel::Rank));
    EXPECT_EQ(summarySlowestRank(dock), 0);
    EXPECT_GT(proxyValue(proxy, 0, StepTableModel::WallTime), proxyValue(proxy, 1, StepTableModel::WallTime));
    dock.tableView()->sortByColumn(StepTableModel::WallTime, Qt::AscendingOrder);
    EXPECT_EQ(proxyValue(proxy, 0, StepTableModel::Rank), 1);
    // The summary gives the figure that makes it the slowest, in the column's ms.
    EXPECT_TRUE(dock.findChild<QLabel*>(QStringLiteral("stepsSummary"))->text().contains(QStringLiteral("154.5 ms")));

    // The footer has the column's statistics, with the median the colours refer to.
    const StepStatsModel& stats = *dock.statsModel();
    EXPECT_EQ(
        stats.index(StepStatsModel::Max, StepTableModel::WallTime).data(StepStatsModel::RankIdRole).toLongLong(), 0);
    EXPECT_NEAR(
        stats.index(StepStatsModel::Median, StepTableModel::WallTime).data(StepStatsModel::RawValueRole).toDouble(),
        (154483509.0 + 152345866.0) / 2, 1.0);
}

TEST_F(StepFigures, TablesDefaultToMillisecondsWithOneDecimal)
{
    ClusterStepsDock& dock = *m_window->stepsDock();
    const StepTableModel& model = *dock.model();
    EXPECT_EQ(model.unit(), TimeFormat::Unit::Milliseconds);
    const int row0 = model.rowOfRank(0);
    ASSERT_GE(row0, 0);
    EXPECT_EQ(model.index(row0, StepTableModel::Stage).data().toString(), QStringLiteral("136.6"));
    EXPECT_EQ(model.index(row0, StepTableModel::Computing).data().toString(), QStringLiteral("8.9"));
    EXPECT_TRUE(model.headerData(StepTableModel::Stage, Qt::Horizontal).toString().endsWith(QStringLiteral("[ms]")));
    // µs stays available, exact as the file writes it; the tooltip always has the exact value.
    dock.setTimeUnit(TimeFormat::Unit::Microseconds);
    EXPECT_EQ(model.index(row0, StepTableModel::Computing).data().toString(), QStringLiteral("8873.756"));
    EXPECT_TRUE(model.index(row0, StepTableModel::Computing)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("8873.756 \u00b5s")));
    dock.setTimeUnit(TimeFormat::Unit::Milliseconds);
    EXPECT_EQ(model.index(row0, StepTableModel::Computing).data().toString(), QStringLiteral("8.9"));

    EXPECT_EQ(TimeFormat::tableCell(int64_t { 134246750 }, TimeFormat::Unit::Milliseconds), QStringLiteral("134.2"));
    EXPECT_EQ(TimeFormat::tableCell(int64_t { 49999 }, TimeFormat::Unit::Milliseconds), QStringLiteral("0.0"));
    EXPECT_EQ(TimeFormat::tableCell(int64_t { 50000 }, TimeFormat::Unit::Milliseconds), QStringLiteral("0.1"));
    EXPECT_EQ(TimeFormat::tableCell(int64_t { -150000 }, TimeFormat::Unit::Milliseconds), QStringLiteral("-0.2"));
}

TEST_F(StepFigures, OverviewSaysWhichStepTimeItShowsAndWhyStageIsShorter)
{
    OverviewDock& overview = *m_window->overviewDock();
    QLabel* note = overview.stepTimeNote();
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->isVisibleTo(&overview));
    const QString text = note->text();
    // Mean of the two ranks: wall 153.4 ms, Stage 134.2 ms; the 19.2 ms between them is Preparing (Bubble is 0).
    EXPECT_TRUE(text.contains(QStringLiteral("153.4 ms per step"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("step wall time"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Stage 134.2 ms"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("19.2 ms"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Preparing 19.2 ms"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Bubble 0.0 ms"))) << text.toStdString();
    // The pie's figure is the same 153.4 ms.
    ASSERT_TRUE(overview.shownSplit().has_value());
    EXPECT_EQ(
        TimeFormat::tableCell(overview.shownSplit()->total(), TimeFormat::Unit::Milliseconds), QStringLiteral("153.4"));

    // A selected rank: its own figures (rank 1: wall 152.3, Stage 131.9, Preparing 20.4 ms).
    m_window->workspace()->setSelectedRank(1);
    EXPECT_TRUE(note->text().contains(QStringLiteral("152.3 ms per step"))) << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(QStringLiteral("Stage 131.9 ms"))) << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(QStringLiteral("Preparing 20.4 ms"))) << note->text().toStdString();
}

TEST(StepFiguresScale, NeutralWithinTheBandWarmAboveCoolBelow)
{
    const BandGuard guard;
    EXPECT_DOUBLE_EQ(DivergingScale::neutralBand(), 0.02);
    EXPECT_EQ(DivergingScale::strength(0.019, 0.02), 0.0);
    EXPECT_EQ(DivergingScale::strength(-0.02, 0.02), 0.0);
    EXPECT_GT(DivergingScale::strength(0.03, 0.02), 0.0);
    EXPECT_LT(DivergingScale::strength(-0.03, 0.02), 0.0);
    // Proportional past the band, full at ±20 %.
    EXPECT_NEAR(DivergingScale::strength(0.11, 0.02), 0.5, 1e-9);
    EXPECT_DOUBLE_EQ(DivergingScale::strength(0.20, 0.02), 1.0);
    EXPECT_DOUBLE_EQ(DivergingScale::strength(-0.90, 0.02), -1.0);

    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    EXPECT_FALSE(DivergingScale::colour(0.015, 0.02, light).isValid());
    const QColor warm = DivergingScale::colour(0.10, 0.02, light);
    const QColor cool = DivergingScale::colour(-0.10, 0.02, light);
    ASSERT_TRUE(warm.isValid());
    ASSERT_TRUE(cool.isValid());
    EXPECT_GT(warm.red(), warm.blue());
    EXPECT_GT(cool.blue(), cool.red());
    // Stronger further out.
    EXPECT_GT(DivergingScale::colour(0.19, 0.02, light).alpha(), warm.alpha());

    EXPECT_TRUE(DivergingScale::legend(0.02).contains(QStringLiteral("\u00b12 % neutral")));
    EXPECT_TRUE(DivergingScale::legend(0.005).contains(QStringLiteral("\u00b10.5 % neutral")));
    DivergingScale::setNeutralBand(0.5);
    EXPECT_DOUBLE_EQ(DivergingScale::neutralBand(), DivergingScale::kMaxNeutralBand);
}

TEST_F(StepFigures, CellsAreColouredByDeviationFromTheMedian)
{
    const BandGuard guard;
    const StepTableModel& model = *m_window->stepsDock()->model();
    const int row0 = model.rowOfRank(0);
    const int row1 = model.rowOfRank(1);
    // Preparing: 17.9 vs 20.4 ms, ∓6.6 % from their median, but 1.3 ms apart: within ±2 % of the 153.4 ms median step
    // wall time, so neutral at the default band; Computing differs by 0.03 %, the wall time by 0.7 %: neutral.
    EXPECT_NEAR(
        model.index(row1, StepTableModel::Preparing).data(StepTableModel::DeviationRole).toDouble(), 0.066, 0.001);
    for (int row : { row0, row1 }) {
        for (int c = StepTableModel::WallTime; c <= StepTableModel::Preparing; ++c)
            EXPECT_FALSE(model.index(row, c).data(Qt::BackgroundRole).isValid()) << row << " " << c;
    }
    // The header says the rule and the band.
    EXPECT_TRUE(model.headerData(StepTableModel::Preparing, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("\u00b12 % neutral")));
    // A band of ±0.5 % (Settings): Preparing is past both, warm above the median (rank 1), cool below (rank 0);
    // Computing (0.03 %) stays neutral.
    DivergingScale::setNeutralBand(0.005);
    const QVariant above = model.index(row1, StepTableModel::Preparing).data(Qt::BackgroundRole);
    const QVariant below = model.index(row0, StepTableModel::Preparing).data(Qt::BackgroundRole);
    ASSERT_TRUE(above.isValid());
    ASSERT_TRUE(below.isValid());
    const QColor warm = above.value<QBrush>().color();
    const QColor cool = below.value<QBrush>().color();
    EXPECT_GT(warm.red(), warm.blue());
    EXPECT_GT(cool.blue(), cool.red());
    EXPECT_FALSE(model.index(row1, StepTableModel::Computing).data(Qt::BackgroundRole).isValid());
    EXPECT_TRUE(model.headerData(StepTableModel::Preparing, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("\u00b10.5 % neutral")));
}

TEST(StepFiguresCluster, LargeClusterOpensSortedByWallTimeSlowestFirst)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions o;
    o.traceMb = 0;
    o.ranks = 32;

    auto window = test::newWindow();
    ASSERT_TRUE(test::generateAndOpen(*window, o, QString::fromStdString((dir.path() / "gen").string())));
    ClusterStepsDock& dock = *window->stepsDock();
    const QSortFilterProxyModel& proxy = *dock.proxyModel();
    ASSERT_EQ(proxy.rowCount(), 32);
    EXPECT_EQ(proxy.sortColumn(), StepTableModel::WallTime);
    EXPECT_EQ(proxy.sortOrder(), Qt::DescendingOrder);
    for (int row = 1; row < proxy.rowCount(); ++row)
        EXPECT_GE(
            proxyValue(proxy, row - 1, StepTableModel::WallTime), proxyValue(proxy, row, StepTableModel::WallTime));
    // "All steps (mean)": the summary's slowest rank (largest wall time summed over the steps) is the top row.
    EXPECT_EQ(summarySlowestRank(dock), proxyValue(proxy, 0, StepTableModel::Rank));
    // Every step: the same.
    QComboBox* combo = dock.stepCombo();
    for (int i = 1; i < combo->count(); ++i) {
        combo->setCurrentIndex(i);
        ASSERT_TRUE(window->waitUntilIdle());
        EXPECT_EQ(summarySlowestRank(dock), proxyValue(proxy, 0, StepTableModel::Rank))
            << combo->currentText().toStdString();
    }
    // A click on a header keeps the user's order over reloads.
    dock.tableView()->horizontalHeader()->sectionClicked(StepTableModel::Rank);
    dock.tableView()->sortByColumn(StepTableModel::Rank, Qt::AscendingOrder);
    combo->setCurrentIndex(0);
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_EQ(proxy.sortColumn(), StepTableModel::Rank);
}
