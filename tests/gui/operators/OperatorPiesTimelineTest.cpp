// SPDX-License-Identifier: Apache-2.0
// The Operators dock's all-ranks mode, pies and top-N, and the double-click that makes the timeline highlight an
// operator's occurrences, offscreen on the two-rank torch_npu Level1 sample (191 kernels per rank).
#include "OperatorDockFixture.h"

#include "npuscope/gui/common/PieChart.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/operators/OperatorTableModel.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineView.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

class OperatorPiesTimelineTest : public test::OperatorDockFixture {
protected:
    void SetUp() override
    {
        test::OperatorDockFixture::SetUp();
        showDock();
    }
    void waitIdle() { ASSERT_TRUE(m_window->waitUntilIdle()); }
};

TEST_F(OperatorPiesTimelineTest, AllRanksSumsBothRanks)
{
    m_dock->topNSpin()->setValue(0);
    waitIdle();
    const qlonglong rank0Total = columnSum(OperatorTableModel::Total);
    const int transData0 = rowOf(QStringLiteral("TransData"));
    ASSERT_GE(transData0, 0);
    const qlonglong transDataTotal0 = value(transData0, OperatorTableModel::Total);
    m_dock->setRank(1);
    waitIdle();
    const qlonglong rank1Total = columnSum(OperatorTableModel::Total);
    const qlonglong transDataTotal1 = value(rowOf(QStringLiteral("TransData")), OperatorTableModel::Total);

    m_dock->showAllRanks();
    waitIdle();
    EXPECT_EQ(m_dock->rankCombo()->currentText(), QStringLiteral("All ranks"));
    EXPECT_FALSE(m_dock->compareCombo()->isEnabled());
    EXPECT_TRUE(m_dock->statusLabel()->text().contains(QStringLiteral("All ranks")))
        << m_dock->statusLabel()->text().toStdString();
    // Two ranks are under the cap: no "Load all".
    EXPECT_TRUE(m_dock->loadAllButton()->isHidden());
    EXPECT_EQ(columnSum(OperatorTableModel::Count), 382);
    EXPECT_EQ(columnSum(OperatorTableModel::Total), rank0Total + rank1Total);
    const int transData = rowOf(QStringLiteral("TransData"));
    ASSERT_GE(transData, 0);
    EXPECT_EQ(value(transData, OperatorTableModel::Count), 114);
    EXPECT_EQ(value(transData, OperatorTableModel::Total), transDataTotal0 + transDataTotal1);
    // The pies cover both ranks too.
    ASSERT_EQ(m_dock->typePie()->rings().size(), 1u);
    EXPECT_EQ(m_dock->typePie()->rings()[0].total(), rank0Total + rank1Total);
    EXPECT_EQ(m_dock->corePie()->rings()[0].total(), rank0Total + rank1Total);
}

TEST_F(OperatorPiesTimelineTest, PiesAndTopN)
{
    // Default: the 15 largest of rank 0's 34 types.
    EXPECT_EQ(m_dock->topNSpin()->value(), OperatorDock::kDefaultTopN);
    EXPECT_EQ(m_dock->proxy()->rowCount(), 15);
    EXPECT_TRUE(m_dock->statusLabel()->text().contains(QStringLiteral("top 15")));
    const PieChart* pie = m_dock->typePie();
    ASSERT_EQ(pie->parts().size(), 16u); // 15 types and "other"
    EXPECT_EQ(pie->parts().back().name, QStringLiteral("other"));
    EXPECT_EQ(pie->parts().front().name, QStringLiteral("hcom_allReduce_"));
    double shares = 0;
    for (int i = 0; i < static_cast<int>(pie->parts().size()); ++i)
        shares += pie->share(0, i);
    EXPECT_NEAR(shares, 1.0, 1e-9);
    const qlonglong shown = columnSum(OperatorTableModel::Total);

    m_dock->topNSpin()->setValue(0);
    waitIdle();
    EXPECT_EQ(m_dock->proxy()->rowCount(), 34);
    const qlonglong all = columnSum(OperatorTableModel::Total);
    // The pie's total is every type's, whatever N is; the table's 15 rows are the largest.
    EXPECT_EQ(pie->rings()[0].total(), all);
    EXPECT_EQ(m_dock->corePie()->rings()[0].total(), all);
    for (int r = 15; r < 34; ++r)
        EXPECT_LE(value(r, OperatorTableModel::Total), value(14, OperatorTableModel::Total));
    qlonglong top15 = 0;
    for (int r = 0; r < 15; ++r)
        top15 += value(r, OperatorTableModel::Total);
    EXPECT_EQ(top15, shown);

    // The core pie: rank 0's HCCL kernels are the communication class (92.3 % of the time).
    const PieChart* cores = m_dock->corePie();
    ASSERT_EQ(cores->parts().size(), query::kCoreClassCount);
    EXPECT_EQ(
        cores->parts()[static_cast<size_t>(query::CoreClass::Communication)].name, QStringLiteral("communication"));
    EXPECT_NEAR(cores->share(0, static_cast<int>(query::CoreClass::Communication)), 0.923, 0.001);
    const QString tip = cores->itemToolTip(static_cast<int>(query::CoreClass::Communication));
    EXPECT_TRUE(tip.contains(QStringLiteral("92.3 %"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("105.992 ms"))) << tip.toStdString();

    // Compare: two rings in the same parts, comparison outside.
    m_dock->setCompareRank(1);
    waitIdle();
    ASSERT_EQ(pie->rings().size(), 2u);
    EXPECT_EQ(pie->rings()[0].name, QStringLiteral("rank 1"));
    EXPECT_EQ(pie->rings()[1].name, QStringLiteral("rank 0"));
    EXPECT_EQ(pie->rings()[1].total(), all);

    // The Block dim and Accelerator columns come through the table's CSV export.
    m_dock->setCompareRank(std::nullopt);
    waitIdle();
    auto* setup = m_dock->table()->findChild<TableSetup*>();
    ASSERT_NE(setup, nullptr);
    const QString csv = setup->csvText();
    EXPECT_TRUE(csv.contains(QStringLiteral("Block dim"))) << csv.left(200).toStdString();
    EXPECT_TRUE(
        csv.contains(QStringLiteral("TransData,57,1423.202,24.968,6.540,70.801,9205.630,8\u201343,AI_VECTOR_CORE")))
        << csv.toStdString();

    // Rendered with content: both pies and the table.
    const QImage image = m_dock->grab().toImage();
    test::keepImage(image, QStringLiteral("operator_pies.png"));
    EXPECT_GT(test::distinctColours(image), 40);
    EXPECT_GT(test::distinctColours(pie->toImage()), 20);
}

TEST_F(OperatorPiesTimelineTest, DoubleClickHighlightsTheOccurrencesOnTheTimeline)
{
    m_dock->groupByCombo()->setCurrentIndex(
        m_dock->groupByCombo()->findData(static_cast<int>(query::OperatorGroupBy::Name)));
    m_dock->topNSpin()->setValue(0);
    waitIdle();
    const QString name = QStringLiteral("aclnnMuls_MulAiCore_Mul");
    const int row = rowOf(name);
    ASSERT_GE(row, 0);
    const qlonglong count = value(row, OperatorTableModel::Count);
    EXPECT_EQ(count, 18);

    m_dock->selectOperatorAt(row);
    const auto op = m_window->workspace()->selectedOperator();
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(op->key, name.toStdString());
    EXPECT_EQ(op->by, query::OperatorGroupBy::Name);
    EXPECT_EQ(op->rank, std::optional<int64_t>(0));

    // The timeline loads rank 0 and highlights exactly the 18 kernels, the first one selected.
    TimelineDock* timeline = m_window->timelineDock();
    ASSERT_TRUE(
        test::waitFor([&] { return timeline->highlightedCount() > 0 && !m_window->workspace()->isBusy(); }, 60000));
    waitIdle();
    EXPECT_EQ(static_cast<qlonglong>(timeline->highlightedCount()), count);
    EXPECT_EQ(timeline->searchHitCount(), count);
    EXPECT_EQ(timeline->currentHit(), 0);
    const auto& renderer = timeline->view()->renderer();
    for (const auto& [k, indexes] : renderer.highlights()) {
        const auto& entry = renderer.ranks()[static_cast<size_t>(std::get<0>(k))];
        EXPECT_EQ(entry.rank, 0);
        const auto& level
            = entry.data->tracks[static_cast<size_t>(std::get<1>(k))].levels[static_cast<size_t>(std::get<2>(k))];
        for (size_t i : indexes)
            EXPECT_EQ(entry.data->nameOf(level.nameId[i]), name.toStdString());
    }
    test::keepImage(timeline->grab().toImage(), QStringLiteral("operator_occurrences_timeline.png"));
    timeline->nextHit();
    EXPECT_EQ(timeline->currentHit(), 1);

    // Clearing the operator clears the highlight.
    m_window->workspace()->setSelectedOperator(std::nullopt);
    EXPECT_EQ(timeline->highlightedCount(), 0u);

    // An operator picked in another view (the Strategy graph, Marey) selects its row here.
    Workspace::OperatorKey picked;
    picked.by = query::OperatorGroupBy::Name;
    picked.key = name.toStdString();
    m_window->workspace()->setSelectedOperator(picked);
    const QModelIndex current = m_dock->table()->selectionModel()->selectedRows().value(0);
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(current.row(), row);
}

} // namespace

namespace {

// Above OperatorDock::kAutoImportRanks ranks, "All ranks" sums the first 64 and says so; "Load all" imports the rest.
TEST(OperatorDockAllRanks, CapsTheImportAndLoadsTheRestOnRequest)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = OperatorDock::kAutoImportRanks + 6;
    o.tp = 2;
    o.steps = 1;
    o.traceMb = 0;
    auto window = test::newWindow();
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/c")));
    OperatorDock* dock = window->operatorDock();
    window->focusDock(dock);
    window->show();
    ASSERT_TRUE(window->waitUntilIdle());
    dock->showAllRanks();
    ASSERT_TRUE(test::waitFor([&] { return !dock->isImporting() && !window->workspace()->isBusy(); }, 120000));
    ASSERT_TRUE(window->waitUntilIdle());
    const QString status = dock->statusLabel()->text();
    EXPECT_TRUE(status.contains(QStringLiteral("(64 with kernels)"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("the first 64"))) << status.toStdString();
    EXPECT_FALSE(dock->loadAllButton()->isHidden());

    dock->loadAllButton()->click();
    ASSERT_TRUE(test::waitFor([&] { return !dock->isImporting() && !window->workspace()->isBusy(); }, 120000));
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_TRUE(dock->statusLabel()->text().contains(QStringLiteral("(70 with kernels)")))
        << dock->statusLabel()->text().toStdString();
    EXPECT_TRUE(dock->loadAllButton()->isHidden());
}

} // namespace
