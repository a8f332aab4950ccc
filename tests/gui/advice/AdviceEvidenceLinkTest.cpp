// SPDX-License-Identifier: Apache-2.0
// The Advice dock on a generated cluster with a slow link between ranks 8 and 9: Show evidence on the slow_link
// finding selects both ends of the link (the Workspace has no link selection); shares show as percentages; File >
// Export report runs on a worker and reports a write failure instead of losing it.
#include "GuiTestSupport.h"

#include "npuscope/gui/advice/AdviceDock.h"
#include "npuscope/gui/advice/AdviceTableModel.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QPushButton>
#include <QTableView>

#include <vector>

using namespace npuscope;

TEST(AdviceEvidence, SlowLinkSelectsBothRanksAndExportReportsFailures)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.traceMb = 0;
    o.ranks = 16;
    o.slowLink = std::make_pair(8, 9);
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;

    auto window = test::newWindow();
    window->show();
    gui::AdviceDock* dock = window->adviceDock();
    dock->show();
    dock->raise();
    ASSERT_TRUE(test::openAndWait(*window, { QString::fromStdString(o.outDir) }));
    // The open lays the window out anew (on a 1400 px window Advice is a tab after Cluster steps): bring it forward.
    window->showView(dock);
    ASSERT_TRUE(test::waitFor([&] { return !dock->isBusy() && dock->model()->rowCount() > 0; }));
    int row = -1;
    for (size_t i = 0; i < dock->model()->rows().size(); ++i) {
        if (dock->model()->rows()[i].id == "slow_link" && row < 0)
            row = static_cast<int>(i);
    }
    ASSERT_GE(row, 0);
    dock->tableView()->setCurrentIndex(dock->model()->index(row, gui::AdviceTableModel::Rule));
    dock->evidenceButton()->click();
    EXPECT_EQ(window->workspace()->selectedRanks(), (std::vector<int64_t> { 8, 9 }));

    EXPECT_EQ(gui::AdviceTableModel::valueText(0.125, "share"), QStringLiteral("12.5 %"));
    EXPECT_EQ(gui::AdviceTableModel::valueText(0.125, "ratio"), QStringLiteral("0.125"));

    // A folder is not a writable file: the error comes back from the worker.
    QString exportError;
    EXPECT_FALSE(window->exportReport(QString::fromStdString(dir.path().string()), &exportError));
    EXPECT_TRUE(exportError.startsWith(QStringLiteral("Cannot write"))) << exportError.toStdString();
}
