// SPDX-License-Identifier: Apache-2.0
// The Critical path view on the real 2-rank sample: the path of step 50 (expected from the files: rank 1 arrived
// last at rank 0's first allReduce, so the path runs on rank 1 first; its length is rank 0's step time, Computing +
// Communication(Not Overlapped) + Free + Preparing of step_trace_time.csv = 154.484 ms), the timeline drawing, the
// Collectives view's column and a what-if replay.
#include "GuiTestSupport.h"

#include "npuscope/gui/collectives/CollectivesDock.h"
#include "npuscope/gui/collectives/CollectivesTableModel.h"
#include "npuscope/gui/criticalpath/CriticalPathDock.h"
#include "npuscope/gui/criticalpath/PathSegmentTableModel.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTextBrowser>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::test;

TEST_F(TwoRanksWindow, CriticalPathViewShowsTheStepsPathAcrossRanks)
{
    auto* dock = showDock(*m_window, m_window->criticalPathDock());
    m_testers.watch({ dock->model() });
    ASSERT_TRUE(waitFor([&] { return dock->path().has_value(); }));
    const auto& path = *dock->path();
    EXPECT_EQ(path.step, 50);
    EXPECT_NEAR(static_cast<double>(path.lengthNs), 154483509.0, 2000.0);
    ASSERT_GT(dock->model()->rowCount(), 10);
    EXPECT_EQ(dock->model()->rowAt(0).rank, 1) << "rank 1 arrived last at the first allReduce";
    bool rank0 = false;
    for (const auto& r : dock->model()->rows())
        rank0 = rank0 || r.rank == 0;
    EXPECT_TRUE(rank0);
    EXPECT_TRUE(dock->summaryLabel()->text().contains(QStringLiteral("154.484")));
    EXPECT_TRUE(dock->detailView()->toPlainText().contains(QStringLiteral("hcom_allReduce__586_0_1")));

    // Drawn in the timeline as a chain of the path's stays, and gone when the toggle is off.
    auto focus = m_window->workspace()->collectiveFocus();
    ASSERT_TRUE(focus);
    EXPECT_TRUE(focus->chain);
    EXPECT_EQ(focus->spans.size(), 2u);
    dock->timelineToggle()->setChecked(false);
    EXPECT_FALSE(m_window->workspace()->collectiveFocus());
    dock->timelineToggle()->setChecked(true);
    EXPECT_TRUE(m_window->workspace()->collectiveFocus());

    // Collectives: the instances of step 50 say whether the path passes them.
    const auto mark = m_window->workspace()->criticalPath();
    ASSERT_TRUE(mark);
    EXPECT_FALSE(mark->commOps.empty());
    auto* collectives = showDock(*m_window, m_window->collectivesDock());
    ASSERT_TRUE(waitFor([&] { return collectives->model()->rowCount() > 0; }));
    int on = 0;
    for (int i = 0; i < collectives->model()->rowCount(); ++i) {
        const auto text = collectives->model()->index(i, gui::CollectivesTableModel::CriticalPath).data().toString();
        on += text == gui::CollectivesTableModel::tr("on the path") ? 1 : 0;
        EXPECT_NE(text, gui::CollectivesTableModel::tr("not computed"));
    }
    EXPECT_GT(on, 0);

    // What-if: no change replays the measured step; a change that matches nothing says so.
    showDock(*m_window, dock);
    dock->replay();
    ASSERT_TRUE(waitFor([&] { return dock->whatIfResult()->text().contains(QStringLiteral("predicted")); }));
    EXPECT_TRUE(dock->whatIfResult()->text().contains(QStringLiteral("<b>154.484 ms</b>")))
        << dock->whatIfResult()->text().toStdString();
    dock->whatIfEdit()->setText(QStringLiteral("op=NoSuchOp:0.5"));
    dock->replay();
    ASSERT_TRUE(waitFor([&] { return dock->whatIfResult()->text().contains(QStringLiteral("NoSuchOp")); }));
    dock->whatIfEdit()->setText(QStringLiteral("rank=x:compute=2"));
    dock->replay();
    EXPECT_TRUE(dock->whatIfResult()->text().contains(QStringLiteral("rank=x:compute=2")));

    // A segment selects its rank and zooms to it.
    dock->tableView()->setCurrentIndex(dock->model()->index(2, 0));
    EXPECT_EQ(m_window->workspace()->selectedRank(), dock->model()->rowAt(2).rank);
    EXPECT_TRUE(m_window->workspace()->timeWindow().has_value());
}
