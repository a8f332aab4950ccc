// SPDX-License-Identifier: Apache-2.0
// Compare mode in a 1366 x 768 window (a laptop screen): the Base / New / Δ columns of the Cluster steps and
// Operators docks are inside the table's viewport without scrolling, the Operators rows are the keys whose change is
// largest, sorted by |Δ|, the Memory detail compare pane shows the first rank's operators without a selection, and
// the status bar names the baseline in its own label (not a temporary message over the summary).
#include "GuiTestSupport.h"

#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupsDock.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/gui/compare/MemoryOperatorDiffModel.h"
#include "npuscope/gui/memory/MemoryDetailDock.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/operators/OperatorTableModel.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/query/compare/RunComparison.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <cmath>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

struct Pair {
    const char* base;
    const char* neu;
};

class CompareLayoutTest : public ::testing::TestWithParam<Pair> {
protected:
    void SetUp() override
    {
        m_window = test::newWindow(QSize(1366, 768));
        m_window->show();
        ASSERT_TRUE(test::openAndWait(*m_window, { test::dataPath(GetParam().neu) }));
        m_window->openBaseline({ test::dataPath(GetParam().base) });
        ASSERT_TRUE(test::waitFor(
            [this] { return gui::BaselineComparison::of(m_window->workspace())->comparison() != nullptr; }, 120000));
        ASSERT_TRUE(m_window->waitUntilIdle(120000));
    }

    const query::RunDiff& diff() const { return *gui::BaselineComparison::of(m_window->workspace())->comparison(); }

    // The column's right edge is inside the viewport with the table scrolled to its left end.
    static void expectInViewport(QTableView* table, int column, const char* what)
    {
        table->horizontalScrollBar()->setValue(0);
        const QHeaderView* header = table->horizontalHeader();
        ASSERT_FALSE(table->isColumnHidden(column)) << what;
        const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
        EXPECT_GE(header->sectionViewportPosition(column), 0) << what;
        EXPECT_LE(right, table->viewport()->width()) << what << ": column " << column << " ends at " << right
                                                     << " px, the viewport is " << table->viewport()->width();
    }

    std::unique_ptr<MainWindow> m_window;
};

TEST_P(CompareLayoutTest, StepColumnsAreInView)
{
    m_window->focusDock(m_window->stepsDock());
    ASSERT_TRUE(m_window->waitUntilIdle(120000));
    ClusterStepsDock* steps = m_window->stepsDock();
    ASSERT_GT(steps->model()->columnCount(), StepTableModel::ColumnCount);
    for (int c = StepTableModel::ColumnCount; c < steps->model()->columnCount(); ++c)
        expectInViewport(steps->tableView(), c, "steps");
    // The footer keeps the table's columns: a compare column has no statistic there.
    auto* footer = steps->findChild<QTableView*>(QStringLiteral("stepsFooter"));
    ASSERT_NE(footer, nullptr);
    EXPECT_EQ(footer->model()->columnCount(), steps->model()->columnCount());
    EXPECT_EQ(footer->horizontalHeader()->visualIndex(StepTableModel::ColumnCount),
        steps->tableView()->horizontalHeader()->visualIndex(StepTableModel::ColumnCount));
    EXPECT_FALSE(footer->model()->index(0, StepTableModel::ColumnCount).data().isValid());
}

TEST_P(CompareLayoutTest, OperatorRowsAreTheLargestChangesInView)
{
    OperatorDock* ops = m_window->operatorDock();
    m_window->focusDock(ops);
    ASSERT_TRUE(test::waitFor([ops] { return ops->model()->columnCount() == OperatorTableModel::ColumnCount + 4; }));
    ASSERT_TRUE(m_window->waitUntilIdle(120000));
    auto* table = ops->findChild<QTableView*>(QStringLiteral("operatorTable"));
    ASSERT_NE(table, nullptr);
    const int delta = ops->model()->runDeltaColumn();
    for (int c = OperatorTableModel::ColumnCount; c < ops->model()->columnCount(); ++c)
        expectInViewport(table, c, "operators");

    // Grouped by type: the rows are the comparison's op types of largest |Δ| (its order), sorted by |Δ| descending.
    const auto& types = diff().types;
    const QAbstractItemModel* m = ops->proxy();
    const int shown = m->rowCount();
    ASSERT_GT(shown, 0);
    ASSERT_LE(static_cast<size_t>(shown), types.size());
    for (int row = 0; row < shown; ++row) {
        const double d = m->index(row, delta).data(RowTableModelBase::ValueRole).toDouble();
        EXPECT_DOUBLE_EQ(d, std::abs(types[static_cast<size_t>(row)].deltaMs())) << row;
        if (row > 0) {
            EXPECT_GE(m->index(row - 1, delta).data(RowTableModelBase::ValueRole).toDouble(), d) << row;
        }
    }
    // Every listed key's change is at least the largest change left out.
    if (static_cast<size_t>(shown) < types.size()) {
        EXPECT_GE(m->index(shown - 1, delta).data(RowTableModelBase::ValueRole).toDouble(),
            std::abs(types[static_cast<size_t>(shown)].deltaMs()));
    }
}

TEST_P(CompareLayoutTest, GroupRowsSortByDeltaInView)
{
    GroupsDock* groups = m_window->groupsDock();
    m_window->focusDock(groups);
    ASSERT_TRUE(m_window->waitUntilIdle(120000));
    const int delta = groups->model()->compareDeltaColumn();
    ASSERT_GE(delta, 0);
    for (int c = GroupTableModel::ColumnCount; c < groups->model()->columnCount(); ++c)
        expectInViewport(groups->tableView(), c, "groups");
    const QAbstractItemModel* m = groups->proxyModel();
    for (int row = 1; row < m->rowCount(); ++row) {
        const QVariant previous = m->index(row - 1, delta).data(RowTableModelBase::ValueRole);
        const QVariant current = m->index(row, delta).data(RowTableModelBase::ValueRole);
        if (previous.isValid() && current.isValid()) {
            EXPECT_GE(previous.toDouble(), current.toDouble()) << row;
        }
    }
}

TEST_P(CompareLayoutTest, MemoryPaneShowsTheFirstRankWithoutSelection)
{
    ASSERT_FALSE(m_window->workspace()->selectedRank().has_value());
    MemoryDetailDock* memory = m_window->memoryDetailDock();
    m_window->focusDock(memory);
    ASSERT_TRUE(test::waitFor([memory] { return memory->shownRank().has_value(); }, 120000));
    ASSERT_TRUE(m_window->waitUntilIdle(120000));
    const int64_t rank = *memory->shownRank();
    const auto expected = MemoryOperatorDiffModel::rowsOfRank(diff(), rank);
    EXPECT_EQ(memory->compareModel()->rowCount(), static_cast<int>(expected.size()));
    auto* title = memory->findChild<QLabel*>(QStringLiteral("memoryCompareTitle"));
    ASSERT_NE(title, nullptr);
    EXPECT_TRUE(title->text().contains(QStringLiteral("Rank %1").arg(rank))) << title->text().toStdString();
    EXPECT_FALSE(title->text().contains(QStringLiteral("select a rank"))) << title->text().toStdString();
}

TEST_P(CompareLayoutTest, StatusBarNamesTheBaselineInItsOwnLabel)
{
    auto* label = m_window->findChild<QLabel*>(QStringLiteral("baselineLabel"));
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->isVisible());
    EXPECT_TRUE(label->text().startsWith(QStringLiteral("Baseline: "))) << label->text().toStdString();
    EXPECT_FALSE(label->text().contains(QStringLiteral("1 ranks")));
    m_window->workspace()->setBaseline(nullptr);
    EXPECT_FALSE(label->isVisible());
}

INSTANTIATE_TEST_SUITE_P(Pairs, CompareLayoutTest,
    ::testing::Values(Pair { "torch_npu_2rank_level0", "torch_npu_2rank_level1" },
        Pair { "kineto_trace_diff/control", "kineto_trace_diff/test" }),
    [](const ::testing::TestParamInfo<Pair>& param) { return param.index == 0 ? "TorchNpu" : "Kineto"; });

} // namespace
