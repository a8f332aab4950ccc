// SPDX-License-Identifier: Apache-2.0
// The Operators view's FLOPs and FLOPS columns: the table model shows the figures OperatorQuery joins from a MindSpore
// flops_N.txt (and a dash without them) under QAbstractItemModelTester, and the dock hides both columns on a sample
// that has no FLOPs file.
#include "OperatorDockFixture.h"

#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/operators/OperatorTableModel.h"

#include <QAbstractItemModelTester>
#include <QTableView>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

TEST(OperatorFlopsColumns, ModelShowsTheJoinedFigures)
{
    OperatorTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    EXPECT_FALSE(model.hasFlops());
    query::OperatorRow mul;
    mul.key = "Mul";
    mul.count = 2;
    mul.flops = 333e6; // one op of MindInsight's run_1 flops_1.txt: 333 MFLOPs at 333 GFLOPS
    mul.flopsPerSecond = 333e9;
    query::OperatorRow cast;
    cast.key = "Cast";
    cast.count = 1;
    model.setRows({ mul, cast });
    EXPECT_TRUE(model.hasFlops());
    EXPECT_EQ(model.index(0, OperatorTableModel::Flops).data().toString(), QStringLiteral("333.00 MFLOPs"));
    EXPECT_EQ(model.index(0, OperatorTableModel::FlopsPerSecond).data().toString(), QStringLiteral("333.00 GFLOP/s"));
    EXPECT_EQ(model.index(1, OperatorTableModel::Flops).data().toString(), QStringLiteral("\u2014"));
    EXPECT_DOUBLE_EQ(model.index(0, OperatorTableModel::Flops).data(OperatorTableModel::ValueRole).toDouble(), 333e6);
    EXPECT_FALSE(model.index(1, OperatorTableModel::Flops).data(OperatorTableModel::ValueRole).isValid());
    EXPECT_FALSE(model.headerData(OperatorTableModel::Flops, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
}

namespace {
class OperatorFlopsColumnsDock : public test::OperatorDockFixture { };
}

TEST_F(OperatorFlopsColumnsDock, HiddenWithoutAFlopsFile)
{
    showDock();
    ASSERT_GT(m_dock->model()->rowCount(), 0);
    EXPECT_FALSE(m_dock->model()->hasFlops());
    EXPECT_TRUE(m_dock->table()->isColumnHidden(OperatorTableModel::Flops));
    EXPECT_TRUE(m_dock->table()->isColumnHidden(OperatorTableModel::FlopsPerSecond));
}
