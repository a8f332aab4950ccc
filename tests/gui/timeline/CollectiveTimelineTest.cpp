// SPDX-License-Identifier: Apache-2.0
// A collective instance in the timeline, offscreen: on a generated 16-rank PP 2 x TP 4 cluster with rank 5 slow,
// selecting a TP all-reduce that rank 5 arrived last to brings its members to the top of the timeline (loaded, rank 5
// first and marked late, the view zoomed to the ops), "Align ranks on this collective" gives each member the offset
// re-derived from comm_op (the first member's end − its end) and "Reset alignment" puts them back to 0; "Costliest
// collectives of this rank" in Cluster steps keeps the rank's instances (one per comm_op row of it); choosing a blame
// root draws its chain.
#include "GuiTestSupport.h"

#include "npuscope/gui/collectives/BlameDock.h"
#include "npuscope/gui/collectives/BlameTableModel.h"
#include "npuscope/gui/collectives/CollectivesDock.h"
#include "npuscope/gui/collectives/CollectivesTableModel.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineView.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QAction>
#include <QComboBox>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>

#include <map>

using namespace npuscope;

namespace {

struct OpTimes {
    int64_t start = 0;
    int64_t end = 0;
};

// The instance's comm_op rows read straight from the model: rank -> start, start + elapse (ns).
std::map<int64_t, OpTimes> readOp(model::Database& db, int64_t step, const std::string& opKey)
{
    auto guard = db.lock();
    auto st = db.prepare("SELECT rank_id, start_ns, elapse_ns FROM comm_op WHERE step = ? AND op_key = ? AND "
                         "is_total = 0");
    st.bind(1, step).bind(2, opKey);
    std::map<int64_t, OpTimes> out;
    while (st.step())
        out[st.int64(0)] = { st.int64(1), st.int64(1) + st.int64(2) };
    return out;
}

// A generated 16-rank PP 2 x TP 4 cluster, 2 steps, rank 5 computing longer, opened; nullptr when that failed.
std::unique_ptr<gui::MainWindow> openSlowRank5(const QTemporaryDir& dir)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() + QStringLiteral("/pp2")).toStdString();
    o.ranks = 16;
    o.pp = 2;
    o.tp = 4;
    o.steps = 2;
    o.traceMb = 0;
    o.slowRank = 5;
    std::string error;
    if (!dir.isValid() || !testgen::ClusterGenerator::generate(o, error)) {
        ADD_FAILURE() << "generate: " << error;
        return nullptr;
    }
    auto window = test::newWindow();
    if (!test::openAndWait(*window, { QString::fromStdString(o.outDir) }))
        return nullptr;
    return window;
}

} // namespace

TEST(CollectiveTimeline, InstanceMarksMembersAndAligns)
{
    QTemporaryDir dir;
    auto window = openSlowRank5(dir);
    ASSERT_NE(window, nullptr);
    gui::CollectivesDock* dock = window->collectivesDock();
    gui::TimelineDock* timeline = window->timelineDock();
    window->focusDock(dock);
    window->show();
    ASSERT_TRUE(test::waitFor([dock] { return !dock->isBusy() && dock->model()->rowCount() > 0; }, 60000));
    ASSERT_TRUE(test::waitFor([timeline] { return !timeline->view()->renderer().ranks().empty(); }, 60000));

    // The costliest all-reduce of rank 5's tensor-parallel group: rank 5 computes longer, so it arrives last.
    int row = -1;
    for (int i = 0; i < dock->model()->rowCount(); ++i) {
        const auto& r = dock->model()->rowAt(i);
        if (r.kind == QStringLiteral("collective") && r.opType == QStringLiteral("allReduce") && r.ranks.size() == 4
            && std::find(r.ranks.begin(), r.ranks.end(), 5) != r.ranks.end()) {
            row = i;
            break;
        }
    }
    ASSERT_GE(row, 0);
    const gui::CollectiveRow picked = dock->model()->rowAt(row);
    const auto ops = readOp(*window->workspace()->database(), picked.step, picked.opKey.toStdString());
    ASSERT_EQ(ops.size(), 4u);
    int64_t latest = 0, lastRank = -1;
    for (const auto& [rank, t] : ops) {
        EXPECT_NE(std::find(picked.ranks.begin(), picked.ranks.end(), rank), picked.ranks.end());
        if (lastRank < 0 || t.start > latest) {
            latest = t.start;
            lastRank = rank;
        }
    }
    EXPECT_EQ(lastRank, 5); // no clock skew here: the latest start is the last arriver
    EXPECT_EQ(picked.lastArriver, 5);

    EXPECT_FALSE(dock->alignButton()->isEnabled());
    dock->tableView()->setCurrentIndex(dock->model()->index(row, 0));
    EXPECT_TRUE(dock->alignButton()->isEnabled());
    const auto focus = window->workspace()->collectiveFocus();
    ASSERT_TRUE(focus.has_value());
    EXPECT_FALSE(focus->chain);
    EXPECT_EQ(focus->step, picked.step);
    ASSERT_EQ(focus->spans.size(), 4u);
    for (const auto& s : focus->spans) {
        EXPECT_EQ(s.beginNs, ops.at(s.rank).start) << s.rank;
        EXPECT_EQ(s.endNs, ops.at(s.rank).end) << s.rank;
        EXPECT_EQ(s.late, s.rank == 5) << s.rank;
    }

    // The members are loaded and first among the ranks, the last arriver at the top and marked late.
    auto& renderer = timeline->view()->renderer();
    ASSERT_TRUE(test::waitFor(
        [&] {
            for (const auto& e : renderer.ranks()) {
                if (ops.count(e.rank) && !e.data)
                    return false;
            }
            return !timeline->isBusy();
        },
        60000));
    std::vector<int64_t> order;
    for (const auto& r : renderer.rows()) {
        if (r.kind == gui::TimelineRenderer::RowKind::Rank)
            order.push_back(renderer.ranks()[static_cast<size_t>(r.rank)].rank);
    }
    ASSERT_GE(order.size(), 16u);
    EXPECT_EQ(order[0], 5);
    for (size_t i = 0; i < 4; ++i)
        EXPECT_TRUE(ops.count(order[i])) << order[i];
    ASSERT_EQ(renderer.focus().size(), 4u);
    for (const auto& f : renderer.focus())
        EXPECT_EQ(f.late, renderer.ranks()[static_cast<size_t>(f.rank)].rank == 5);
    // Zoomed to the ops: every member's op is in the window.
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const auto& [rank, t] : ops) {
        first = std::min(first, t.start);
        last = std::max(last, t.end);
    }
    EXPECT_LE(renderer.axis().start(), first);
    EXPECT_GE(renderer.axis().end(), last);
    EXPECT_LT(renderer.axis().windowNs(), 20 * (last - first) + 10000);

    // Align: every member's end at the first member's (lowest rank) end; the other ranks stay at 0.
    dock->alignButton()->click();
    const int64_t reference = ops.begin()->second.end;
    for (const auto& e : renderer.ranks()) {
        const auto it = ops.find(e.rank);
        EXPECT_EQ(e.offsetNs, it == ops.end() ? 0 : reference - it->second.end) << e.rank;
    }
    EXPECT_NE(renderer.ranks()[5].offsetNs, 0);
    dock->resetAlignButton()->click();
    for (const auto& e : renderer.ranks())
        EXPECT_EQ(e.offsetNs, 0) << e.rank;

    // "Costliest collectives of this rank" from Cluster steps: every op of the rank is one instance it is part of.
    auto* steps = window->findChild<QTableView*>(QStringLiteral("stepsTable"));
    auto* costliest = window->findChild<QAction*>(QStringLiteral("stepsCostliestCollectives"));
    ASSERT_NE(steps, nullptr);
    ASSERT_NE(costliest, nullptr);
    ASSERT_TRUE(test::waitFor([steps] { return steps->model()->rowCount() == 16; }, 60000));
    QModelIndex rankRow;
    for (int i = 0; i < 16; ++i) {
        const QModelIndex index = steps->model()->index(i, 0);
        if (index.data(gui::StepTableModel::RankIdRole).toLongLong() == 6)
            rankRow = index;
    }
    ASSERT_TRUE(rankRow.isValid());
    steps->setCurrentIndex(rankRow);
    dock->stepFilter()->setCurrentIndex(0);
    costliest->trigger();
    ASSERT_TRUE(window->waitUntilIdle()); // the rows are built off the GUI thread
    EXPECT_EQ(dock->memberFilter(), (std::vector<int64_t> { 6 }));
    EXPECT_TRUE(dock->memberChip()->isVisibleTo(dock));
    int64_t rank6Ops = 0;
    {
        auto db = window->workspace()->database();
        auto guard = db->lock();
        auto st = db->prepare("SELECT COUNT(*) FROM comm_op WHERE rank_id = 6 AND is_total = 0 AND step IS NOT NULL");
        ASSERT_TRUE(st.step());
        rank6Ops = st.int64(0);
    }
    ASSERT_GT(rank6Ops, 0);
    EXPECT_EQ(dock->model()->rowCount(), rank6Ops);
    for (int i = 0; i < dock->model()->rowCount(); ++i) {
        const auto& r = dock->model()->rowAt(i).ranks;
        EXPECT_NE(std::find(r.begin(), r.end(), 6), r.end());
    }
    // A link's two ends: the instances both take part in; the chip drops the filter.
    window->workspace()->requestCollectivesOf({ 4, 5 });
    ASSERT_TRUE(window->waitUntilIdle());
    EXPECT_GT(dock->model()->rowCount(), 0);
    EXPECT_LT(dock->model()->rowCount(), rank6Ops * 2);
    dock->memberChip()->click();
    EXPECT_TRUE(dock->memberFilter().empty());
    EXPECT_FALSE(dock->memberChip()->isVisibleTo(dock));
}

TEST(CollectiveTimeline, BlameRootDrawsItsChain)
{
    QTemporaryDir dir;
    auto window = openSlowRank5(dir);
    ASSERT_NE(window, nullptr);
    gui::BlameDock* dock = window->blameDock();
    gui::TimelineDock* timeline = window->timelineDock();
    window->focusDock(dock);
    window->show();
    ASSERT_TRUE(test::waitFor([dock] { return !dock->isBusy() && dock->model()->rowCount() > 0; }, 60000));
    ASSERT_TRUE(test::waitFor([timeline] { return !timeline->view()->renderer().ranks().empty(); }, 60000));
    ASSERT_EQ(dock->model()->rowAt(0).rank, 5);
    // Showing the first root by itself leaves the timeline alone; choosing it draws its chain.
    EXPECT_FALSE(window->workspace()->collectiveFocus().has_value());
    dock->tableView()->setCurrentIndex(QModelIndex());
    dock->tableView()->setCurrentIndex(dock->model()->index(0, 0));
    const auto focus = window->workspace()->collectiveFocus();
    ASSERT_TRUE(focus.has_value());
    EXPECT_TRUE(focus->chain);
    const auto& chain = dock->model()->rowAt(0).chain;
    ASSERT_EQ(focus->spans.size(), chain.size());
    for (size_t i = 0; i < chain.size(); ++i)
        EXPECT_EQ(focus->spans[i].rank, chain[i].rank);
    // The chain ends at the root: rank 5, late there.
    EXPECT_EQ(focus->spans.back().rank, 5);
    EXPECT_TRUE(focus->spans.back().late);
    EXPECT_EQ(timeline->view()->renderer().focus().size(), chain.size());
}
