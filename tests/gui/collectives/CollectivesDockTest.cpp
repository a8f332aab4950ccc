// SPDX-License-Identifier: Apache-2.0
// The Collectives and Blame docks offscreen: on the real 2-rank sample the Collectives table lists its four
// all-reduces and selecting one selects both ranks; on a generated PP 4 x TP 8 cluster with a slow rank the Blame
// view names that rank first, and selecting it selects the rank.
#include "GuiTestSupport.h"

#include "npuscope/gui/collectives/BlameDock.h"
#include "npuscope/gui/collectives/BlameTableModel.h"
#include "npuscope/gui/collectives/CollectivesDock.h"
#include "npuscope/gui/collectives/CollectivesTableModel.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>

using namespace npuscope;

TEST(CollectivesDock, RealSampleInstancesSelectTheirRanks)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    gui::CollectivesDock* dock = window->collectivesDock();
    window->focusDock(dock);
    window->show();
    ASSERT_TRUE(test::waitFor([dock] { return !dock->isBusy() && dock->model()->rowCount() > 0; }, 60000));
    // step50: hcom_allReduce__586_{0..3}_1 on ranks 0 and 1.
    ASSERT_EQ(dock->model()->rowCount(), 4);
    EXPECT_EQ(dock->model()->rowAt(0).ranks, (std::vector<int64_t> { 0, 1 }));
    EXPECT_EQ(dock->model()->rowAt(0).step, 50);
    EXPECT_TRUE(dock->summaryLabel()->text().contains(QStringLiteral("4 of 4 instances")));
    dock->tableView()->setCurrentIndex(dock->model()->index(1, 0));
    EXPECT_EQ(window->workspace()->selectedRanks(), (std::vector<int64_t> { 0, 1 }));
    EXPECT_EQ(window->workspace()->step(), 50);
    // The type filter lists allReduce only; choosing it keeps the four.
    ASSERT_EQ(dock->typeFilter()->count(), 2);
    dock->typeFilter()->setCurrentIndex(1);
    ASSERT_TRUE(test::waitFor([dock] { return !dock->isBusy(); }, 60000)); // the rows are built off the GUI thread
    EXPECT_EQ(dock->model()->rowCount(), 4);
}

TEST(BlameDock, GeneratedSlowRankIsTheFirstRoot)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 64;
    o.pp = 4;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 0;
    o.slowRank = 9;
    auto window = test::newWindow();
    ASSERT_TRUE(test::generateAndOpen(*window, o, dir.path() + QStringLiteral("/pp4")));
    gui::BlameDock* dock = window->blameDock();
    window->focusDock(dock);
    window->show();
    ASSERT_TRUE(test::waitFor([dock] { return !dock->isBusy() && dock->model()->rowCount() > 0; }, 60000));
    EXPECT_EQ(dock->stepBox()->count(), 2);
    EXPECT_EQ(dock->model()->rowAt(0).rank, 9);
    EXPECT_EQ(dock->model()->rowAt(0).cause, query::BlameCause::Compute);
    // Showing the first root leaves the selection alone; choosing a root selects its rank.
    EXPECT_EQ(window->workspace()->selectedRank(), std::nullopt);
    EXPECT_FALSE(dock->chainView()->toPlainText().isEmpty());
    dock->tableView()->setCurrentIndex(QModelIndex());
    dock->tableView()->setCurrentIndex(dock->model()->index(0, 0));
    EXPECT_EQ(window->workspace()->selectedRank(), 9);
    EXPECT_FALSE(dock->chainView()->toPlainText().isEmpty());
}
