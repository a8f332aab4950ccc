// SPDX-License-Identifier: Apache-2.0
// msprof-analyze cluster_analysis_output in the GUI: the pipeline stage table of the Cluster steps dock and the
// communication_group.json groups in the Groups dock.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/StageTableModel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QTableView>

#include <gtest/gtest.h>

#include <memory>

using namespace npuscope;
using namespace npuscope::gui;

TEST(ClusterAnalysisViews, StageTableShowsTheStageRows)
{
    MainWindow window(test::testOptions());
    window.resize(1400, 900);
    ClusterStepsDock* dock = window.stepsDock();
    QAbstractItemModelTester tester(dock->stageModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_TRUE(dock->stageTableView()->isHidden());
    ASSERT_TRUE(test::openAndWait(window, { test::dataPath("msprof_cluster_analysis/text") }));

    const StageTableModel& model = *dock->stageModel();
    EXPECT_FALSE(dock->stageTableView()->isHidden());
    auto* title = dock->findChild<QLabel*>(QStringLiteral("stagesTitle"));
    ASSERT_NE(title, nullptr);
    EXPECT_FALSE(title->isHidden());
    // All steps (mean) of the single step 2: the file's two stage rows.
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(0, StageTableModel::Stage).data().toString(), QStringLiteral("0"));
    EXPECT_EQ(model.index(0, StageTableModel::Ranks).data().toString(), QStringLiteral("0-7"));
    EXPECT_EQ(model.index(1, StageTableModel::Ranks).data().toString(), QStringLiteral("8-15"));
    // ms with one decimal by default (the file's 195498.280 µs).
    EXPECT_EQ(model.index(1, StageTableModel::Bubble).data().toString(), QStringLiteral("195.5"));
    EXPECT_EQ(model.index(0, StageTableModel::Computing).data(StageTableModel::RawValueRole).toLongLong(), 76310940);
    EXPECT_EQ(model.index(0, StageTableModel::Preparing).data().toString(), TimeFormat::kAbsent);

    // Choosing step 2 re-queries that step; the unit combo switches the stage table too.
    QComboBox* combo = dock->stepCombo();
    ASSERT_EQ(combo->count(), 2);
    combo->setCurrentIndex(1);
    ASSERT_TRUE(window.waitUntilIdle());
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.rows()[1].step, 2);
    EXPECT_EQ(model.index(1, StageTableModel::StageTime).data(StageTableModel::RawValueRole).toLongLong(), 203701736);
    dock->setTimeUnit(TimeFormat::Unit::Microseconds);
    EXPECT_EQ(model.index(1, StageTableModel::Bubble).data().toString(), QStringLiteral("195498.280"));
    dock->setTimeUnit(TimeFormat::Unit::Milliseconds);

    // A profile without stage rows hides the table again.
    ASSERT_TRUE(test::openAndWait(window, { test::dataPath("torch_npu_2rank_level1") }));
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_TRUE(dock->stageTableView()->isHidden());
    EXPECT_TRUE(title->isHidden());
}

TEST(ClusterAnalysisViews, GroupsDockNamesGroupsFromCommunicationGroupJson)
{
    MainWindow window(test::testOptions());
    window.resize(1400, 900);
    const GroupTableModel& model = *window.groupsDock()->model();
    QAbstractItemModelTester tester(
        window.groupsDock()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(test::openAndWait(window, { test::dataPath("msinsight_communication_group") }));
    ASSERT_EQ(model.rowCount(), 22); // 21 hashed groups + the p2p set without a hash
    const int tp = model.rowOfHash("6960437680420871035");
    ASSERT_GE(tp, 0);
    EXPECT_EQ(model.index(tp, GroupTableModel::Name).data().toString(), QStringLiteral("tp"));
    EXPECT_EQ(model.index(tp, GroupTableModel::Ranks).data().toString(), QStringLiteral("0,1"));
    EXPECT_EQ(model.index(tp, GroupTableModel::Source).data().toString(), QStringLiteral("communication_group.json"));
    int p2p = -1;
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, GroupTableModel::Name).data(GroupTableModel::GroupHashRole).toString().isEmpty())
            p2p = row;
    }
    ASSERT_GE(p2p, 0);
    EXPECT_EQ(model.index(p2p, GroupTableModel::Name).data().toString(), QStringLiteral("p2p"));
    EXPECT_EQ(model.index(p2p, GroupTableModel::Ranks).data().toString(), QStringLiteral("0-7"));
    EXPECT_EQ(model.index(p2p, GroupTableModel::Hash).data().toString(), QStringLiteral("\u2014"));
}
