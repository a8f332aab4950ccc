// SPDX-License-Identifier: Apache-2.0
// The Statistics view: op_statistic and api_statistic of the loaded ranks, summed over the selected ranks, filtered.

#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/statistics/StatisticsDock.h"

#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>

using namespace npuscope;
using namespace npuscope::test;

namespace {

class StatisticsDockTest : public TwoRanksWindow {
protected:
    gui::StatisticsDock* dock() const { return m_window->statisticsDock(); }
    bool showsRanks(int ranks) const
    {
        const auto& rows = dock()->opModel()->rows();
        return !rows.empty()
            && std::all_of(rows.begin(), rows.end(), [ranks](const auto& r) { return r.ranks == ranks; });
    }
};

TEST_F(StatisticsDockTest, ShowsBothTablesForEveryRankThenTheSelectedOnes)
{
    m_testers.watch({ dock()->opModel(), dock()->apiModel(), dock()->opFilter(), dock()->apiFilter() });
    ASSERT_NE(m_window->dockByName(QStringLiteral("statistics")), nullptr);
    m_window->showView(dock());
    ASSERT_TRUE(waitFor([&] { return showsRanks(2); }));
    EXPECT_GT(dock()->apiModel()->rowCount(), 0);
    EXPECT_TRUE(dock()->scopeLabel()->text().contains(QStringLiteral("every rank")));

    // The header's "ForeachAddList" leads both ranks' files: summed, it leads here too.
    EXPECT_EQ(dock()->opModel()->rows().front().opType, "ForeachAddList");

    m_window->workspace()->setSelectedRank(1);
    ASSERT_TRUE(waitFor([&] { return showsRanks(1); }));
    EXPECT_TRUE(dock()->scopeLabel()->text().contains(QStringLiteral("1")));

    // The text filter narrows both tables (matched in any column, case aside).
    const int all = dock()->opFilter()->rowCount();
    dock()->filterEdit()->setText(QStringLiteral("matmul"));
    EXPECT_GT(dock()->opFilter()->rowCount(), 0);
    EXPECT_LT(dock()->opFilter()->rowCount(), all);
    for (int r = 0; r < dock()->opFilter()->rowCount(); ++r)
        EXPECT_TRUE(dock()
                        ->opFilter()
                        ->index(r, gui::OpStatisticTableModel::OpType)
                        .data()
                        .toString()
                        .contains(QStringLiteral("MatMul"), Qt::CaseInsensitive));
    dock()->filterEdit()->clear();
    EXPECT_EQ(dock()->opFilter()->rowCount(), all);
}

} // namespace
