// SPDX-License-Identifier: Apache-2.0
// Compare mode in the docks offscreen: the two-rank torch_npu samples (level 0 as baseline, level 1 opened). The Base /
// New / Δ columns of the Cluster steps, Operators, Communication groups and Memory detail docks and the Overview's
// baseline donut show exactly the figures of the one comparison (BaselineComparison, query::RunComparison);
// without a baseline, and after it is dropped, the docks have the columns and widgets they have without compare mode.
#include "GuiTestSupport.h"

#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/gui/compare/CompareColumns.h"
#include "npuscope/gui/compare/MemoryOperatorDiffModel.h"
#include "npuscope/gui/memory/MemoryDetailDock.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/operators/OperatorTableModel.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/OverviewDock.h"
#include "npuscope/gui/steps/StepSplitPie.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/query/compare/RunComparison.h"

#include <QSortFilterProxyModel>
#include <QTableView>

#include <cmath>
#include <map>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

const QString kBase = test::dataPath("torch_npu_2rank_level0");

struct Shape {
    int steps = 0, operators = 0, groups = 0;
    bool basePie = false, memoryBox = false;
};

Shape shapeOf(MainWindow& w)
{
    return {
        w.stepsDock()->model()->columnCount(), w.operatorDock()->model()->columnCount(),
        w.groupsDock()->model()->columnCount(), w.overviewDock()->basePie()->isVisibleTo(w.overviewDock()),
        w.memoryDetailDock()->findChild<QWidget*>(QStringLiteral("memoryCompareBox"))->isVisibleTo(w.memoryDetailDock())
    };
}

double value(const QAbstractItemModel* m, int row, int column)
{
    return m->index(row, column).data(RowTableModelBase::ValueRole).toDouble();
}

bool valid(const QAbstractItemModel* m, int row, int column)
{
    return m->index(row, column).data(RowTableModelBase::ValueRole).isValid();
}

class CompareColumnsTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_window = test::newWindow(QSize(1600, 1000));
        m_window->show();
        ASSERT_TRUE(test::openAndWait(*m_window, { test::kTwoRanks }));
        for (QDockWidget* dock : std::initializer_list<QDockWidget*> { m_window->stepsDock(), m_window->operatorDock(),
                 m_window->groupsDock(), m_window->memoryDetailDock(), m_window->overviewDock() }) {
            m_window->focusDock(dock);
            ASSERT_TRUE(m_window->waitUntilIdle(120000));
        }
    }

    // Opens the baseline and waits for the comparison.
    const query::RunDiff& compare()
    {
        m_window->openBaseline({ kBase });
        EXPECT_TRUE(test::waitFor(
            [this] { return gui::BaselineComparison::of(m_window->workspace())->comparison() != nullptr; }, 120000));
        EXPECT_TRUE(m_window->waitUntilIdle(120000));
        return *gui::BaselineComparison::of(m_window->workspace())->comparison();
    }

    std::unique_ptr<MainWindow> m_window;
};

TEST_F(CompareColumnsTest, DeltaColumnsAreTheComparisonsFigures)
{
    const Shape before = shapeOf(*m_window);
    EXPECT_EQ(before.steps, StepTableModel::ColumnCount);
    EXPECT_EQ(before.operators, OperatorTableModel::ColumnCount);
    EXPECT_EQ(before.groups, GroupTableModel::ColumnCount);
    EXPECT_FALSE(before.basePie);
    EXPECT_FALSE(before.memoryBox);

    const query::RunDiff& diff = compare();
    ASSERT_EQ(diff.ranks.size(), 2u);
    {
        // The baseline holds what the comparison reads and no more: its operator_memory rows, not the
        // memory_record.csv samples of its Memory group (both sides' files have both).
        const auto base = m_window->workspace()->baseline();
        ASSERT_TRUE(base);
        auto lock = base->lock();
        EXPECT_GT(test::count(*base, "SELECT COUNT(*) FROM operator_memory"), 0);
        EXPECT_EQ(test::count(*base, "SELECT COUNT(*) FROM memory_record"), 0);
    }

    // Cluster steps: per rank, Base / New / Δ / Δ % of the step and the Δ of three components.
    ClusterStepsDock* steps = m_window->stepsDock();
    const QAbstractItemModel* sm = steps->proxyModel();
    const int c0 = StepTableModel::ColumnCount;
    ASSERT_EQ(sm->columnCount(), c0 + 7);
    ASSERT_EQ(sm->rowCount(), 2);
    double previous = INFINITY;
    for (int row = 0; row < sm->rowCount(); ++row) {
        const int64_t rank = sm->index(row, 0).data(StepTableModel::RankIdRole).toLongLong();
        const query::RankDiff* r = nullptr;
        for (const auto& d : diff.ranks)
            r = d.newRank == rank ? &d : r;
        ASSERT_NE(r, nullptr) << rank;
        using query::DiffComponent;
        EXPECT_EQ(value(sm, row, c0 + 0), *r->base.value(DiffComponent::Step));
        EXPECT_EQ(value(sm, row, c0 + 1), *r->neu.value(DiffComponent::Step));
        const double delta = *query::diffDelta(r->base, r->neu, DiffComponent::Step);
        EXPECT_EQ(value(sm, row, c0 + 2), std::abs(delta)); // the Δ column sorts by |Δ|
        // The step columns show 3 decimals: a Δ that rounds to zero is an unsigned, untinted "0.000".
        const bool shown = !DeltaColors::showsAsZero(delta, 3);
        EXPECT_EQ(sm->index(row, c0 + 2).data().toString().startsWith(QLatin1Char('+')), shown && delta > 0);
        EXPECT_EQ(value(sm, row, c0 + 3), *query::diffDeltaPct(r->base, r->neu, DiffComponent::Step));
        EXPECT_EQ(value(sm, row, c0 + 4), std::abs(*query::diffDelta(r->base, r->neu, DiffComponent::Computing)));
        EXPECT_EQ(value(sm, row, c0 + 6), std::abs(*query::diffDelta(r->base, r->neu, DiffComponent::Free)));
        EXPECT_EQ(sm->index(row, c0 + 2).data(Qt::ForegroundRole).isValid(), shown);
        // Sorted by |Δ step|, largest first.
        EXPECT_LE(value(sm, row, c0 + 2), previous);
        previous = value(sm, row, c0 + 2);
        EXPECT_FALSE(steps->tableView()->isColumnHidden(c0 + 2));
    }

    // Overview: the baseline's donut (cluster mean without a selected rank) beside the opened run's.
    OverviewDock* overview = m_window->overviewDock();
    ASSERT_TRUE(overview->basePie()->isVisibleTo(overview));
    ASSERT_TRUE(overview->basePie()->split().has_value());
    const query::StepSplit expected = query::splitOfDiff(diff.clusterBase);
    EXPECT_EQ(overview->basePie()->split()->total(), expected.total());
    EXPECT_EQ(overview->basePie()->split()->free, expected.free);
    m_window->workspace()->setSelectedRank(1);
    EXPECT_EQ(overview->basePie()->split()->total(), query::splitOfDiff(diff.ranks[1].base).total());
    EXPECT_TRUE(overview->basePie()->title().contains(QStringLiteral("rank 1")));

    // Operators (grouped by type): the key's ms per rank and step of the comparison's op types.
    OperatorDock* ops = m_window->operatorDock();
    ASSERT_TRUE(test::waitFor([ops] { return ops->model()->columnCount() == OperatorTableModel::ColumnCount + 4; }));
    ASSERT_TRUE(m_window->waitUntilIdle(120000));
    std::map<std::string, const query::OperatorDiff*> types;
    for (const auto& t : diff.types)
        types[t.key] = &t;
    const QAbstractItemModel* om = ops->proxy();
    const int o0 = OperatorTableModel::ColumnCount;
    ASSERT_GT(om->rowCount(), 0);
    int matched = 0;
    for (int row = 0; row < om->rowCount(); ++row) {
        const std::string key = om->index(row, OperatorTableModel::Key).data().toString().toStdString();
        const auto it = types.find(key);
        if (it == types.end()) {
            EXPECT_FALSE(valid(om, row, o0)) << key;
            continue;
        }
        ++matched;
        EXPECT_EQ(value(om, row, o0 + 0), it->second->baseMs) << key;
        EXPECT_EQ(value(om, row, o0 + 1), it->second->newMs) << key;
        EXPECT_EQ(value(om, row, o0 + 2), std::abs(it->second->deltaMs())) << key;
        if (row > 0 && valid(om, row - 1, o0 + 2)) {
            EXPECT_GE(value(om, row - 1, o0 + 2), value(om, row, o0 + 2));
        }
    }
    EXPECT_GT(matched, 0);

    // Communication groups: the group's elapse summed over its op types.
    std::map<std::string, std::pair<double, double>> groups;
    for (const auto& c : diff.communication) {
        groups[c.group].first += c.baseElapseMs;
        groups[c.group].second += c.newElapseMs;
    }
    const QAbstractItemModel* gm = m_window->groupsDock()->proxyModel();
    const int g0 = GroupTableModel::ColumnCount;
    ASSERT_EQ(gm->columnCount(), g0 + 4);
    int groupRows = 0;
    for (int row = 0; row < gm->rowCount(); ++row) {
        const std::string hash = gm->index(row, 0).data(GroupTableModel::GroupHashRole).toString().toStdString();
        const auto it = groups.find(hash);
        if (hash.empty() || it == groups.end())
            continue;
        ++groupRows;
        EXPECT_DOUBLE_EQ(value(gm, row, g0 + 0), it->second.first) << hash;
        EXPECT_DOUBLE_EQ(value(gm, row, g0 + 1), it->second.second) << hash;
    }
    EXPECT_EQ(groupRows, static_cast<int>(groups.size()) - static_cast<int>(groups.count("")));

    // Memory detail: rank 1's operators whose allocation changed, as the comparison lists them.
    MemoryDetailDock* memory = m_window->memoryDetailDock();
    auto* box = memory->findChild<QWidget*>(QStringLiteral("memoryCompareBox"));
    ASSERT_TRUE(box->isVisibleTo(memory));
    const auto expectedRows = MemoryOperatorDiffModel::rowsOfRank(diff, 1);
    ASSERT_FALSE(expectedRows.empty());
    const MemoryOperatorDiffModel* mm = memory->compareModel();
    ASSERT_EQ(mm->rowCount(), static_cast<int>(expectedRows.size()));
    for (int row = 0; row < mm->rowCount(); ++row) {
        EXPECT_EQ(mm->rowAt(row).name, expectedRows[static_cast<size_t>(row)].name);
        EXPECT_EQ(value(mm, row, MemoryOperatorDiffModel::BaseMb), expectedRows[static_cast<size_t>(row)].baseMb);
        EXPECT_EQ(value(mm, row, MemoryOperatorDiffModel::NewMb), expectedRows[static_cast<size_t>(row)].newMb);
        EXPECT_EQ(value(mm, row, MemoryOperatorDiffModel::DeltaMb),
            std::abs(expectedRows[static_cast<size_t>(row)].deltaMb()));
    }

    // Dropping the baseline gives back the docks as they were.
    m_window->workspace()->setBaseline(nullptr);
    ASSERT_TRUE(m_window->waitUntilIdle(120000));
    const Shape after = shapeOf(*m_window);
    EXPECT_EQ(after.steps, before.steps);
    EXPECT_EQ(after.operators, before.operators);
    EXPECT_EQ(after.groups, before.groups);
    EXPECT_FALSE(after.basePie);
    EXPECT_FALSE(after.memoryBox);
}

TEST_F(CompareColumnsTest, WithoutBaselineNothingChanges)
{
    // No baseline: no comparison, the docks' own columns, and a selection or step change adds none.
    EXPECT_EQ(gui::BaselineComparison::of(m_window->workspace())->comparison(), nullptr);
    m_window->workspace()->setSelectedRank(1);
    m_window->workspace()->setStep(m_window->workspace()->step());
    ASSERT_TRUE(m_window->waitUntilIdle(120000));
    const Shape s = shapeOf(*m_window);
    EXPECT_EQ(s.steps, StepTableModel::ColumnCount);
    EXPECT_EQ(s.operators, OperatorTableModel::ColumnCount);
    EXPECT_EQ(s.groups, GroupTableModel::ColumnCount);
    EXPECT_FALSE(s.basePie);
    EXPECT_FALSE(s.memoryBox);
    EXPECT_FALSE(m_window->stepsDock()->model()->isComparing());
    // The steps table keeps its rank order.
    const QAbstractItemModel* sm = m_window->stepsDock()->proxyModel();
    for (int row = 1; row < sm->rowCount(); ++row) {
        EXPECT_LT(sm->index(row - 1, 0).data(StepTableModel::RankIdRole).toLongLong(),
            sm->index(row, 0).data(StepTableModel::RankIdRole).toLongLong());
    }
}

} // namespace

// A change too small to show with the column's decimals is no change: no sign, no "-0.000", no tint.
TEST(DeltaText, ZeroAfterRoundingIsUnsignedAndUntinted)
{
    EXPECT_EQ(DeltaColors::signedText(0.0, 3), QStringLiteral("0.000"));
    EXPECT_EQ(DeltaColors::signedText(0.0004, 3), QStringLiteral("0.000"));
    EXPECT_EQ(DeltaColors::signedText(-0.0004, 3), QStringLiteral("0.000"));
    EXPECT_EQ(DeltaColors::signedText(-0.04, 1), QStringLiteral("0.0"));
    EXPECT_EQ(DeltaColors::signedText(0.0006, 3), QStringLiteral("+0.001"));
    EXPECT_EQ(DeltaColors::signedText(-0.05, 1), QStringLiteral("-0.1"));
    EXPECT_EQ(DeltaColors::signedText(12.5, 2), QStringLiteral("+12.50"));
    EXPECT_FALSE(DeltaColors::foreground(0.0004, 3).isValid());
    EXPECT_FALSE(DeltaColors::foreground(0.0, 3).isValid());
    EXPECT_TRUE(DeltaColors::foreground(0.0006, 3).isValid());
    EXPECT_TRUE(DeltaColors::foreground(-2.0, 1).isValid());
    EXPECT_NE(DeltaColors::foreground(1.0, 1), DeltaColors::foreground(-1.0, 1));
}
