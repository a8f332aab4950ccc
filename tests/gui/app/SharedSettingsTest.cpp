// SPDX-License-Identifier: Apache-2.0
// Settings several views share live in the Workspace, not in a dock: the device memory (memory heatmap, advice, Marey,
// strategy view) and the parallel sizes applied for an input set (strategy view, Marey).
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/memory/MemoryHeatmapDock.h"
#include "npuscope/gui/strategy/ParallelStrategyDock.h"

#include <QDoubleSpinBox>
#include <QSettings>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

TEST(SharedSettings, DeviceMemoryIsTheWorkspacesAndEveryViewFollowsIt)
{
    test::ScratchSettings scratch;
    QSettings().clear();
    auto window = test::newWindow();
    Workspace* ws = window->workspace();
    EXPECT_EQ(ws->deviceCapacityGb(), Workspace::kDefaultCapacityGb);
    QSignalSpy changed(ws, &Workspace::deviceCapacityChanged);

    // Set in the workspace: the heatmap's spin box shows it, and it is remembered.
    ws->setDeviceCapacityGb(32);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(window->memoryHeatmapDock()->capacitySpin()->value(), 32.0);
    EXPECT_EQ(QSettings().value(QLatin1String(Workspace::kCapacitySetting)).toDouble(), 32.0);
    ws->setDeviceCapacityGb(32); // unchanged: no signal
    EXPECT_EQ(changed.count(), 1);

    // Set in the heatmap's spin box: the workspace has it (the advice, Marey and strategy views read it there).
    window->memoryHeatmapDock()->capacitySpin()->setValue(96);
    EXPECT_EQ(ws->deviceCapacityGb(), 96.0);
    EXPECT_EQ(changed.count(), 2);
    ws->setDeviceCapacityGb(-1); // not a capacity
    EXPECT_EQ(ws->deviceCapacityGb(), 96.0);
}

TEST(SharedSettings, ParallelSizesBelongToTheInputSet)
{
    test::ScratchSettings scratch;
    QSettings().clear();
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    Workspace* ws = window->workspace();
    EXPECT_EQ(ws->parallelSizes(), std::nullopt);
    QSignalSpy changed(ws, &Workspace::parallelSizesChanged);

    // Applied in the strategy view: the workspace holds them for this input set, remembered across opens.
    query::ParallelSizes sizes;
    sizes.pp = 2;
    window->strategyDock()->applySizes(sizes);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(ws->parallelSizes(), std::optional(sizes));
    EXPECT_EQ(window->strategyDock()->userSizes(), std::optional(sizes));
    const QString key = QStringLiteral("%1/%2").arg(
        QLatin1String(Workspace::kSizesSetting), Workspace::inputSetKey({ test::kTwoRanks }));
    EXPECT_EQ(QSettings().value(key).toString(), QStringLiteral("2,1,1,1,1"));

    auto again = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*again, { test::kTwoRanks }));
    EXPECT_EQ(again->workspace()->parallelSizes(), std::optional(sizes));

    // "From data" forgets them.
    window->strategyDock()->applySizes(std::nullopt);
    EXPECT_EQ(changed.count(), 2);
    EXPECT_EQ(ws->parallelSizes(), std::nullopt);
    EXPECT_FALSE(QSettings().contains(key));
}
