// SPDX-License-Identifier: Apache-2.0
// The Data pipeline view on the real MindInsight fixtures (tests/data/mindspore_pipeline): the chain of dataset
// operators from the source to the device queue, the table of their figures and the bottleneck named with its rule
// (rank 1: ImageFolderOp by slow_source, see tests/core/query/PipelineQueryTest.cpp for the reading of the files).

#include "GuiTestSupport.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/pipeline/PipelineChain.h"
#include "npuscope/gui/pipeline/PipelineDock.h"
#include "npuscope/gui/pipeline/PipelineOpTableModel.h"

#include <QComboBox>
#include <QLabel>

using namespace npuscope;
using namespace npuscope::test;

TEST(PipelineDock, ShowsTheChainAndTheBottleneck)
{
    auto window = newWindow();
    auto* dock = window->pipelineDock();
    ASSERT_NE(dock, nullptr);
    ModelTesters testers;
    testers.watch({ dock->model() });
    ASSERT_EQ(window->dockByName(QStringLiteral("pipeline")), dock);
    ASSERT_TRUE(openAndWait(*window, { dataPath("mindspore_pipeline") }));
    window->showView(dock);
    ASSERT_TRUE(waitFor([&] { return dock->pipelines().size() == 2; }));
    EXPECT_EQ(dock->rankCombo()->count(), 2);

    window->workspace()->setSelectedRank(1);
    ASSERT_TRUE(waitFor([&] { return dock->chain()->pipeline() && dock->chain()->pipeline()->rank == 1; }));
    const auto& shown = *dock->chain()->pipeline();
    // Four operators and the device queue box, laid out left to right from the source to the device queue.
    ASSERT_EQ(dock->chain()->boxes().size(), 5u);
    EXPECT_EQ(shown.ops.front().opType, "ImageFolderOp");
    for (size_t i = 1; i < dock->chain()->boxes().size(); ++i)
        EXPECT_GT(dock->chain()->boxes()[i].left(), dock->chain()->boxes()[i - 1].left());
    EXPECT_EQ(dock->model()->rowCount(), 4);
    EXPECT_EQ(
        dock->model()->index(0, gui::PipelineOpTableModel::OpType).data().toString(), QStringLiteral("ImageFolderOp"));
    EXPECT_EQ(dock->model()->index(3, gui::PipelineOpTableModel::QueueUsage).data().toString(), QStringLiteral("1.6"));
    EXPECT_TRUE(dock->bottleneckLabel()->text().contains(QStringLiteral("ImageFolderOp")));
    EXPECT_TRUE(dock->bottleneckLabel()->text().contains(QStringLiteral("slow_source")));
    EXPECT_TRUE(dock->queueLabel()->text().contains(QStringLiteral("1 of 1")));
    EXPECT_TRUE(dock->chain()->itemToolTip(0).contains(QStringLiteral("ImageFolderOp")));

    const QImage image = dock->chain()->toImage();
    keepImage(image, QStringLiteral("pipeline-chain"));
    EXPECT_GT(distinctColours(image), 5);

    // Rank 0: no operator singled out; the line says why.
    window->workspace()->setSelectedRank(0);
    ASSERT_TRUE(waitFor([&] { return dock->chain()->pipeline() && dock->chain()->pipeline()->rank == 0; }));
    EXPECT_FALSE(dock->chain()->pipeline()->bottleneck);
    EXPECT_TRUE(dock->bottleneckLabel()->text().startsWith(QStringLiteral("No bottleneck found")));
}
