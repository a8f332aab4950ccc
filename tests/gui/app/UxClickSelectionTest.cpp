// SPDX-License-Identifier: Apache-2.0
// Issue 16, selection in the Collectives, Blame and Compare views: a single click on a row selects its ranks (an
// instance's members, a blame root) or its operator (an op type or kernel of the comparison) in the Workspace, as a
// click in Cluster steps or Operators does, and Esc clears the selection and the row, so the same row can be clicked
// again. An instance also selects its group and op, a Communication row of the comparison its group. On two generated
// PP 4 x TP 8 clusters of one seed, the second with a slow rank 5 (the blame root).
#include "GuiTestSupport.h"

#include "npuscope/gui/collectives/BlameDock.h"
#include "npuscope/gui/collectives/CollectivesDock.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/collectives/CollectivesTableModel.h"
#include "npuscope/gui/compare/CommDiffModel.h"
#include "npuscope/gui/compare/CompareDock.h"
#include "npuscope/gui/compare/OperatorDiffModel.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QItemSelectionModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

std::string generate(const QTemporaryDir& dir, const char* name, std::optional<int> slowRank)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() + QLatin1Char('/') + QLatin1String(name)).toStdString();
    o.ranks = 32;
    o.pp = 4;
    o.tp = 8;
    o.steps = 2;
    o.traceMb = 0;
    o.slowRank = slowRank;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

void clickRow(QTableView* view, int row)
{
    const QModelIndex index = view->model()->index(row, 0);
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
}

// Esc as the user presses it: on the table, in the active window.
void pressEscape(MainWindow& window, QTableView* view)
{
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Escape);
}

} // namespace

TEST(UxClickSelection, CollectivesBlameAndCompareSelectOnASingleClickAndEscClears)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string base = generate(dir, "a", std::nullopt);
    const std::string neu = generate(dir, "b", 5);
    auto window = test::newWindow(QSize(1600, 1000));
    ASSERT_TRUE(test::openAndWait(*window, { QString::fromStdString(neu) }));
    window->show();
    Workspace* ws = window->workspace();

    // Collectives: an instance selects its members and marks them (the collective focus).
    window->focusDock(window->collectivesDock());
    ASSERT_TRUE(window->waitUntilIdle());
    auto* instances = window->collectivesDock()->findChild<QTableView*>(QStringLiteral("collectivesTable"));
    ASSERT_TRUE(instances);
    ASSERT_TRUE(test::waitFor([&] { return instances->model()->rowCount() > 0; }, 60000));
    clickRow(instances, 0);
    EXPECT_FALSE(ws->selectedRanks().empty());
    EXPECT_TRUE(ws->collectiveFocus().has_value());
    EXPECT_EQ(instances->selectionModel()->selectedRows().size(), 1);
    // ... and its group and op become the communication views' selection (the Op column shows name@hash).
    ASSERT_TRUE(ws->groupHash().has_value());
    ASSERT_TRUE(ws->commOp().has_value());
    const QString opKey = instances->model()->index(0, CollectivesTableModel::Op).data().toString();
    EXPECT_EQ(opKey, QString::fromStdString(*ws->commOp() + "@" + *ws->groupHash()));
    pressEscape(*window, instances);
    EXPECT_TRUE(ws->selectedRanks().empty());
    EXPECT_FALSE(ws->collectiveFocus().has_value());
    EXPECT_TRUE(instances->selectionModel()->selectedRows().isEmpty());
    // The same row again selects again.
    clickRow(instances, 0);
    EXPECT_FALSE(ws->selectedRanks().empty());
    pressEscape(*window, instances);
    ws->setGroupHash(std::nullopt);
    ws->setCommOp(std::nullopt);

    // Blame: the root (rank 5 is slow) selects its rank.
    window->focusDock(window->blameDock());
    ASSERT_TRUE(window->waitUntilIdle());
    auto* roots = window->blameDock()->findChild<QTableView*>(QStringLiteral("blameTable"));
    ASSERT_TRUE(roots);
    ASSERT_TRUE(test::waitFor([&] { return roots->model()->rowCount() > 0; }, 60000));
    // The first row is current (its chain is shown) without selecting anything; a click on it selects.
    EXPECT_TRUE(ws->selectedRanks().empty());
    roots->selectionModel()->clear();
    clickRow(roots, 0);
    EXPECT_FALSE(ws->selectedRanks().empty());
    pressEscape(*window, roots);
    EXPECT_TRUE(ws->selectedRanks().empty());
    EXPECT_TRUE(roots->selectionModel()->selectedRows().isEmpty());

    // Compare: a kernel of the comparison selects that operator (by name), an op type selects it by type.
    CompareDock* compare = window->compareDock();
    window->openBaseline({ QString::fromStdString(base) });
    ASSERT_TRUE(window->waitUntilIdle(300000));
    ASSERT_TRUE(test::waitFor([compare] { return !compare->isBusy() && compare->diff() != nullptr; }, 120000));
    window->focusDock(compare);
    ASSERT_TRUE(window->waitUntilIdle());
    auto* tabs = compare->findChild<QTabWidget*>(QStringLiteral("compareTables"));
    ASSERT_TRUE(tabs);
    for (const auto& [name, by] : { std::pair { "compareKernelsTable", query::OperatorGroupBy::Name },
             std::pair { "compareTypesTable", query::OperatorGroupBy::Type } }) {
        auto* table = compare->findChild<QTableView*>(QString::fromLatin1(name));
        ASSERT_TRUE(table) << name;
        tabs->setCurrentWidget(table);
        ASSERT_GT(table->model()->rowCount(), 0) << name;
        clickRow(table, 0);
        const auto op = ws->selectedOperator();
        ASSERT_TRUE(op.has_value()) << name;
        EXPECT_EQ(op->by, by) << name;
        EXPECT_EQ(QString::fromStdString(op->key),
            table->model()->index(0, OperatorDiffModel::Key).data().toString())
            << name;
        pressEscape(*window, table);
        EXPECT_FALSE(ws->selectedOperator().has_value()) << name;
        EXPECT_TRUE(table->selectionModel()->selectedRows().isEmpty()) << name;
    }

    // Compare, Communication: a row selects its group in the communication views; no group clears the row.
    auto* comm = compare->findChild<QTableView*>(QStringLiteral("compareCommTable"));
    ASSERT_TRUE(comm);
    tabs->setCurrentWidget(comm);
    ASSERT_GT(comm->model()->rowCount(), 0);
    EXPECT_FALSE(ws->groupHash().has_value());
    clickRow(comm, 0);
    ASSERT_TRUE(ws->groupHash().has_value());
    EXPECT_EQ(QString::fromStdString(*ws->groupHash()),
        comm->model()->index(0, CommDiffModel::Group).data().toString());
    EXPECT_EQ(comm->selectionModel()->selectedRows().size(), 1);
    ws->setGroupHash(std::nullopt);
    EXPECT_TRUE(comm->selectionModel()->selectedRows().isEmpty());
}
