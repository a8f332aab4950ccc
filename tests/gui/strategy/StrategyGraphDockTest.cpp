// SPDX-License-Identifier: Apache-2.0
// The Strategy graph view (issue 39): the real two-rank sample (tests/data/mindinsight_parallel_strategy: one stage,
// GetNext → Conv2D with a gen_strategy, see tests/core/io/StrategyGraphTest.cpp for the reading of the files) and a
// generated 4-stage job: stages, Send→Receive curves, a scope's halo, the special operators list, the attribute
// panel, the Workspace's operator selection both ways, fit, zoom and the minimap.

#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/strategy/StrategyGraphCanvas.h"
#include "npuscope/gui/strategy/StrategyGraphDock.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>

using namespace npuscope;
using namespace npuscope::test;

TEST(StrategyGraphDock, RealSampleShowsItsTwoOperators)
{
    auto window = newWindow();
    auto* dock = window->strategyGraphDock();
    ASSERT_NE(dock, nullptr);
    ASSERT_EQ(window->dockByName(QStringLiteral("strategy-graph")), dock);
    ASSERT_TRUE(openAndWait(*window, { dataPath("mindinsight_parallel_strategy") }));
    window->showView(dock);
    ASSERT_TRUE(waitFor([&] { return dock->canvas()->graph() != nullptr; }));
    const auto* graph = dock->canvas()->graph();
    ASSERT_EQ(graph->stages.size(), 1u);
    ASSERT_EQ(graph->nodes.size(), 2u);
    EXPECT_EQ(graph->types[graph->nodes[0].type], "GetNext");
    EXPECT_EQ(graph->types[graph->nodes[1].type], "Conv2D");
    EXPECT_EQ(graph->edges.size(), 1u);
    EXPECT_TRUE(dock->summaryLabel()->text().contains(QStringLiteral("2 operators")));
    // One edge, one stage: singular, not "1 edges".
    EXPECT_TRUE(dock->summaryLabel()->text().startsWith(QStringLiteral("1 stage · 2 operators · 1 edge · ")))
        << dock->summaryLabel()->text().toStdString();
    EXPECT_FALSE(dock->summaryLabel()->text().contains(QStringLiteral("1 edges")));
    // The Conv2D under "With a strategy": clicking it selects it and fills the attribute panel.
    QTreeWidgetItem* stage = dock->specialTree()->topLevelItem(0);
    ASSERT_NE(stage, nullptr);
    QTreeWidgetItem* withStrategy = stage->child(0);
    ASSERT_EQ(withStrategy->childCount(), 1);
    EXPECT_EQ(withStrategy->child(0)->text(1), QStringLiteral("[[2, 1, 1, 1], [1, 1, 1, 1]]"));
    dock->selectNode(1);
    ASSERT_TRUE(waitFor([&] { return dock->attributePanel()->toPlainText().contains(QStringLiteral("Conv2D-op2")); }));
    EXPECT_TRUE(dock->attributePanel()->toPlainText().contains(QStringLiteral("pad_list=[2, 3, 2, 3]")));
    // No kernel rows carry the node's full name: the operator goes by its last part.
    ASSERT_TRUE(waitFor([&] { return window->workspace()->selectedOperator().has_value(); }));
    EXPECT_EQ(window->workspace()->selectedOperator()->key, "Conv2D-op2");
    // On a rank of its stage (no rank selected: the rank whose graph it is), not on every rank.
    EXPECT_EQ(window->workspace()->selectedOperator()->rank, 0);
    const QImage image = dock->canvas()->renderFrame();
    keepImage(image, QStringLiteral("strategy-graph-real"));
    EXPECT_FALSE(image.isNull());
}

TEST(StrategyGraphDock, GeneratedPipelineHalosScopesAndFollowsTheSelection)
{
    auto window = newWindow();
    auto* dock = window->strategyGraphDock();
    QTemporaryDir dir;
    testgen::GeneratorOptions o;
    o.ranks = 4;
    o.pp = 4;
    o.steps = 1;
    o.traceMb = 0;
    o.format = testgen::OutputFormat::MindSpore;
    o.strategyNodes = 500;
    ASSERT_TRUE(generateAndOpen(*window, o, dir.path()));
    window->showView(dock);
    ASSERT_TRUE(waitFor([&] { return dock->canvas()->graph() != nullptr; }));
    const auto* graph = dock->canvas()->graph();
    ASSERT_EQ(graph->stages.size(), 4u);
    EXPECT_EQ(graph->sendRecv.size(), 6u); // neighbours forward and backward
    for (const auto& [send, recv] : graph->sendRecv) {
        EXPECT_EQ(graph->types[graph->nodes[send].type], "Send");
        EXPECT_EQ(graph->types[graph->nodes[recv].type], "Receive");
        EXPECT_NE(graph->nodes[send].stageSlot, graph->nodes[recv].stageSlot);
    }
    // Checking the "Gradients" scope halos exactly the operators whose scope lies under it.
    QTreeWidgetItem* gradients = nullptr;
    for (int i = 0; i < dock->scopeTree()->topLevelItemCount(); ++i) {
        if (dock->scopeTree()->topLevelItem(i)->text(0).startsWith(QStringLiteral("Gradients")))
            gradients = dock->scopeTree()->topLevelItem(i);
    }
    ASSERT_NE(gradients, nullptr);
    size_t expected = 0;
    for (const auto& n : graph->nodes)
        expected += graph->scopes[n.scope].rfind("Gradients/", 0) == 0 || graph->scopes[n.scope] == "Gradients";
    ASSERT_GT(expected, 0u);
    gradients->setCheckState(0, Qt::Checked);
    EXPECT_EQ(dock->canvas()->haloCount(), expected);
    gradients->setCheckState(0, Qt::Unchecked);
    EXPECT_EQ(dock->canvas()->haloCount(), 0u);
    // Collapsing "Gradients" draws each run of consecutive operators under it as one node: a stage's drawn columns are
    // its operators less each run's length but one; every operator of a run is drawn as the run's first.
    const auto under = [&](uint32_t i) {
        const std::string& scope = graph->scopes[graph->nodes[i].scope];
        return scope == "Gradients" || scope.rfind("Gradients/", 0) == 0;
    };
    dock->setScopeCollapsed(gradients, true);
    size_t runs = 0;
    for (size_t s = 0; s < graph->stages.size(); ++s) {
        const auto& stage = graph->stages[s];
        uint32_t columns = 0;
        for (uint32_t i = stage.first; i < stage.first + stage.count; ++i) {
            const bool continues = i > stage.first && under(i) && under(i - 1);
            columns += !continues;
            runs += under(i) && !continues;
            uint32_t first = i;
            while (under(i) && first > stage.first && under(first - 1))
                --first;
            EXPECT_EQ(dock->canvas()->drawnNode(i), under(i) ? first : i);
        }
        EXPECT_EQ(dock->canvas()->stageColumns(s), columns) << "stage " << s;
        EXPECT_LT(columns, stage.count);
    }
    EXPECT_EQ(dock->canvas()->collapsedRuns(), runs);
    gradients->setCheckState(0, Qt::Checked);
    dock->canvas()->resize(1000, 420);
    dock->canvas()->fit();
    keepImage(dock->canvas()->renderFrame(), QStringLiteral("strategy-graph-collapsed.png"));
    dock->canvas()->zoomAt(8, dock->canvas()->plotRect().left());
    keepImage(dock->canvas()->renderFrame(), QStringLiteral("strategy-graph-collapsed-zoomed.png"));
    dock->canvas()->fit();
    gradients->setCheckState(0, Qt::Unchecked);
    dock->setScopeCollapsed(gradients, false);
    EXPECT_EQ(dock->canvas()->collapsedRuns(), 0u);
    EXPECT_EQ(dock->canvas()->drawnColumns(), graph->columns);
    // An operator selected elsewhere by its short name is found in the selected rank's stage (the names repeat across
    // stages), selected and centred.
    window->workspace()->setSelectedRank(2);
    const auto& target = graph->nodes[graph->stages[2].first + 10];
    const std::string shortName = target.name.substr(target.name.rfind('/') + 1);
    window->workspace()->setSelectedOperator(
        gui::Workspace::OperatorKey { query::OperatorGroupBy::Name, shortName, std::nullopt });
    ASSERT_TRUE(waitFor([&] { return dock->canvas()->selectedItem() == static_cast<int>(graph->stages[2].first + 10); }));
    EXPECT_GE(dock->canvas()->pixelsPerColumn(), 3.0);
    // Fit shows every column; zoom keeps the column under the mouse.
    auto* canvas = dock->canvas();
    canvas->fit();
    EXPECT_DOUBLE_EQ(canvas->firstColumn(), 0.0);
    EXPECT_NEAR(canvas->pixelsPerColumn() * graph->columns, canvas->plotRect().width(), 1e-6);
    const double before = canvas->pixelsPerColumn();
    const double x = canvas->plotRect().left() + canvas->plotRect().width() / 3.0;
    const double columnUnderMouse = canvas->firstColumn() + (x - canvas->plotRect().left()) / before;
    canvas->zoomAt(4, x);
    EXPECT_NEAR(canvas->pixelsPerColumn(), before * 4, 1e-9);
    EXPECT_NEAR(canvas->firstColumn() + (x - canvas->plotRect().left()) / canvas->pixelsPerColumn(), columnUnderMouse,
        1e-6);
    keepImage(dock->canvas()->renderFrame(), QStringLiteral("strategy-graph-generated"));
    // Zoomed out (less than a pixel per column) one halo node is still a mark several pixels wide.
    canvas->resize(300, canvas->height());
    canvas->fit();
    ASSERT_LT(canvas->pixelsPerColumn(), 1.0);
    const uint32_t lone = graph->stages[1].first + graph->stages[1].count / 2;
    canvas->setHalo({ lone });
    const QImage zoomedOut = canvas->renderFrame();
    int widest = 0;
    for (int y = 0; y < zoomedOut.height(); ++y) {
        int run = 0;
        for (int px = 0; px < zoomedOut.width(); ++px) {
            run = zoomedOut.pixel(px, y) == QColor(255, 196, 0).rgb() ? run + 1 : 0;
            widest = std::max(widest, run);
        }
    }
    EXPECT_GE(widest, 3);
    keepImage(zoomedOut, QStringLiteral("strategy-graph-halo-zoomed-out.png"));
    // Selecting a node puts the operator on a rank of the node's stage: the selected rank when it is one of them.
    window->workspace()->setSelectedRank(3);
    dock->selectNode(static_cast<int>(graph->stages[3].first + 5));
    ASSERT_TRUE(waitFor([&] {
        const auto op = window->workspace()->selectedOperator();
        return op && op->rank == 3;
    }));
    dock->selectNode(static_cast<int>(graph->stages[1].first + 5));
    ASSERT_TRUE(waitFor([&] {
        const auto op = window->workspace()->selectedOperator();
        return op && op->rank == graph->stages[1].graphRank;
    }));
}
