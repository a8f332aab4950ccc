// SPDX-License-Identifier: Apache-2.0
// The Operators dock offscreen on the two-rank torch_npu sample: it imports the ranks' deferred kernel files only once
// it is shown, groups by type / name / name + shapes with the figures of kernel_details.csv, compares two ranks with
// the slow card's extra time on top, follows the Workspace rank and filters keys.
#include "OperatorDockFixture.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/operators/OperatorTableModel.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

class OperatorDockTest : public test::OperatorDockFixture { };

TEST_F(OperatorDockTest, ImportsKernelsWhenShownAndGroupsByType)
{
    // The cluster load skips kernel_details.csv; a hidden dock does not parse it.
    EXPECT_EQ(m_dock->model()->rowCount(), 0);
    EXPECT_TRUE(m_dock->statusLabel()->text().contains(QStringLiteral("when this view is shown")))
        << m_dock->statusLabel()->text().toStdString();

    showDock();
    EXPECT_TRUE(m_dock->errorLabel()->isHidden()) << m_dock->errorLabel()->text().toStdString();
    EXPECT_EQ(m_dock->rankCombo()->currentData().toLongLong(), 0);
    EXPECT_TRUE(m_dock->statusLabel()->text().contains(QStringLiteral("Rank 0")));
    EXPECT_TRUE(m_dock->table()->isColumnHidden(OperatorTableModel::Difference));
    EXPECT_FALSE(m_dock->table()->isColumnHidden(OperatorTableModel::Total));

    // The row npuscope-cli ops and OperatorQueryTest check: rank 0, TransData.
    const int row = rowOf(QStringLiteral("TransData"));
    ASSERT_GE(row, 0);
    EXPECT_EQ(value(row, OperatorTableModel::Count), 57);
    EXPECT_EQ(value(row, OperatorTableModel::Total), 1423202);
    EXPECT_EQ(value(row, OperatorTableModel::Wait), 9205630);
    EXPECT_EQ(m_dock->proxy()->index(row, OperatorTableModel::Mean).data().toString(), QStringLiteral("24.968"));
    EXPECT_EQ(m_dock->proxy()->index(row, OperatorTableModel::Min).data().toString(), QStringLiteral("6.540"));

    // Sorted by total, largest first.
    for (int r = 1; r < m_dock->proxy()->rowCount(); ++r) {
        EXPECT_GE(value(r - 1, OperatorTableModel::Total), value(r, OperatorTableModel::Total));
    }

    for (int c = 0; c < OperatorTableModel::ColumnCount; ++c) {
        EXPECT_FALSE(m_dock->model()->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty()) << c;
    }
}

TEST_F(OperatorDockTest, RegroupsByNameAndShape)
{
    showDock();
    // Every key, not the top 15 the dock starts with.
    m_dock->topNSpin()->setValue(0);
    ASSERT_TRUE(m_window->waitUntilIdle());
    const int types = m_dock->proxy()->rowCount();
    const qlonglong kernels = countSum();
    ASSERT_GT(types, 0);

    select(m_dock->groupByCombo(), static_cast<int>(query::OperatorGroupBy::Name));
    const int names = m_dock->proxy()->rowCount();
    EXPECT_GT(names, types);
    EXPECT_EQ(countSum(), kernels);
    EXPECT_EQ(rowOf(QStringLiteral("TransData")), -1);

    select(m_dock->groupByCombo(), static_cast<int>(query::OperatorGroupBy::Shape));
    EXPECT_GE(m_dock->proxy()->rowCount(), names);
    EXPECT_EQ(countSum(), kernels);

    select(m_dock->groupByCombo(), static_cast<int>(query::OperatorGroupBy::Type));
    EXPECT_EQ(m_dock->proxy()->rowCount(), types);
}

TEST_F(OperatorDockTest, ComparesTwoRanksSlowestExtraFirst)
{
    showDock();
    select(m_dock->compareCombo(), 1);
    ASSERT_TRUE(m_dock->model()->isCompare());
    EXPECT_TRUE(m_dock->errorLabel()->isHidden()) << m_dock->errorLabel()->text().toStdString();
    EXPECT_FALSE(m_dock->table()->isColumnHidden(OperatorTableModel::Difference));
    EXPECT_TRUE(m_dock->table()->isColumnHidden(OperatorTableModel::Total));

    // npuscope-cli ops --rank 0 --compare 1: MatMulV2 first, +26.061 µs.
    ASSERT_GT(m_dock->proxy()->rowCount(), 1);
    EXPECT_EQ(key(0), QStringLiteral("MatMulV2"));
    EXPECT_EQ(value(0, OperatorTableModel::Difference), 26061);
    EXPECT_EQ(m_dock->proxy()->index(0, OperatorTableModel::Difference).data().toString(), QStringLiteral("26.061"));
    for (int r = 0; r < m_dock->proxy()->rowCount(); ++r) {
        EXPECT_EQ(value(r, OperatorTableModel::Difference),
            value(r, OperatorTableModel::CompareTotal) - value(r, OperatorTableModel::BaseTotal));
        if (r > 0) {
            EXPECT_GE(value(r - 1, OperatorTableModel::Difference), value(r, OperatorTableModel::Difference));
        }
    }

    // Back to one rank.
    m_dock->compareCombo()->setCurrentIndex(0);
    ASSERT_TRUE(m_window->waitUntilIdle());
    EXPECT_FALSE(m_dock->model()->isCompare());
    EXPECT_TRUE(m_dock->table()->isColumnHidden(OperatorTableModel::Difference));
}

TEST_F(OperatorDockTest, FollowsWorkspaceRankAndFilters)
{
    showDock();
    m_window->workspace()->setSelectedRank(1);
    ASSERT_TRUE(m_window->waitUntilIdle());
    EXPECT_EQ(m_dock->rankCombo()->currentData().toLongLong(), 1);
    EXPECT_TRUE(m_dock->statusLabel()->text().contains(QStringLiteral("Rank 1")));
    ASSERT_GT(m_dock->proxy()->rowCount(), 0) << m_dock->statusLabel()->text().toStdString();

    m_dock->filterEdit()->setText(QStringLiteral("matmul"));
    ASSERT_GT(m_dock->proxy()->rowCount(), 0);
    for (int r = 0; r < m_dock->proxy()->rowCount(); ++r) {
        EXPECT_TRUE(key(r).contains(QStringLiteral("MatMul"), Qt::CaseInsensitive)) << key(r).toStdString();
    }
}

} // namespace
