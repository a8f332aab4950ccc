// SPDX-License-Identifier: Apache-2.0
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/timeline/AreaStatsModel.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineView.h"

#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

TEST(TimelineDock, LoadZoomSelectSearchAndStatistics)
{
    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    TimelineDock* dock = window.timelineDock();
    ASSERT_NE(dock, nullptr);
    window.focusDock(dock);
    window.show();

    // A job of up to 8 ranks shows every rank's timeline when it opens (issue 36: the trace on screen at once).
    auto& renderer = dock->view()->renderer();
    ASSERT_EQ(renderer.ranks().size(), 2u);
    EXPECT_TRUE(renderer.ranks()[0].expanded && renderer.ranks()[1].expanded);
    dock->expandAllRanks();
    ASSERT_TRUE(window.waitUntilIdle());
    ASSERT_TRUE(renderer.ranks()[0].data && renderer.ranks()[1].data);
    EXPECT_GT(renderer.ranks()[0].data->sliceCount(), 4000u);
    EXPECT_TRUE(renderer.axis().hasBounds());
    const QImage full = dock->view()->grab().toImage();
    EXPECT_GT(test::distinctColours(full, 7), 10);
    test::keepImage(full, QStringLiteral("timeline_full.png"));

    // Zoom at the cursor keeps the time under it.
    const double window0 = renderer.axis().windowNs();
    const int64_t under = renderer.axis().toNs(300);
    dock->view()->zoomAt(300, 4);
    EXPECT_NEAR(renderer.axis().windowNs(), window0 / 4, window0 * 1e-9);
    EXPECT_EQ(renderer.axis().toNs(300), under);

    // Search, next: the view selects the first ProfilerStep and the details panel shows it.
    dock->search(QStringLiteral("profilerstep"), false);
    ASSERT_TRUE(window.waitUntilIdle());
    ASSERT_GE(dock->searchHitCount(), 2); // one per rank at least
    dock->nextHit();
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_EQ(dock->currentHit(), 0);
    ASSERT_TRUE(renderer.selection().has_value());
    EXPECT_TRUE(dock->detailsText().contains(QStringLiteral("ProfilerStep#"))) << dock->detailsText().toStdString();
    EXPECT_TRUE(dock->detailsText().contains(QStringLiteral("Parent chain")));
    dock->previousHit();
    EXPECT_EQ(dock->currentHit(), dock->searchHitCount() - 1);

    // A device kernel with an async_npu flow: details list the flow and its args (from the model).
    const auto& data = *renderer.ranks()[0].data;
    std::optional<int64_t> kernel;
    for (const auto& f : data.flows) {
        if (f.cat == "async_npu" && f.dstSlice) {
            kernel = f.dstSlice;
            break;
        }
    }
    ASSERT_TRUE(kernel.has_value());
    ASSERT_TRUE(dock->selectSliceById(*kernel));
    ASSERT_TRUE(window.waitUntilIdle());
    const QString details = dock->detailsText();
    EXPECT_TRUE(details.contains(QStringLiteral("async_npu"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("Task Type"))) << details.toStdString();
    EXPECT_FALSE(details.contains(QStringLiteral("loading")));
    QCoreApplication::processEvents();
    const QImage zoomed = dock->view()->grab().toImage();
    test::keepImage(zoomed, QStringLiteral("timeline_kernel_flows.png"));
    test::keepImage(window.grab().toImage(), QStringLiteral("timeline_kernel_window.png"));
    EXPECT_GT(test::distinctColours(zoomed, 7), 5);

    // Area statistics over the whole extent and every track (shown or in a collapsed process).
    std::vector<std::pair<int, int>> tracks;
    for (size_t r = 0; r < renderer.ranks().size(); ++r)
        for (size_t t = 0; t < renderer.ranks()[r].data->tracks.size(); ++t)
            tracks.emplace_back(static_cast<int>(r), static_cast<int>(t));
    dock->view()->setRangeSelection(renderer.axis().boundsBegin(), renderer.axis().boundsEnd(), tracks);
    ASSERT_TRUE(window.waitUntilIdle());
    AreaStatsModel* stats = dock->statsModel();
    ASSERT_GT(stats->rowCount(), 10);
    int64_t count = 0;
    for (int r = 0; r < stats->rowCount(); ++r)
        count += stats->index(r, AreaStatsModel::Count).data(AreaStatsModel::SortRole).toLongLong();
    EXPECT_EQ(
        static_cast<size_t>(count), renderer.ranks()[0].data->sliceCount() + renderer.ranks()[1].data->sliceCount());
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("stats.csv"));
    ASSERT_TRUE(dock->exportStatsCsv(csv));
    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    EXPECT_TRUE(lines[0].startsWith("name,count,total_wall_ns"));
    EXPECT_EQ(lines.size(), stats->rowCount() + 2); // header + rows + trailing newline

    // Selecting a step elsewhere zooms to it.
    window.workspace()->setStep(std::nullopt);
    window.workspace()->setStep(renderer.ranks()[0].data->names.empty() ? 0 : 50);
    EXPECT_LT(
        renderer.axis().windowNs(), static_cast<double>(renderer.axis().boundsEnd() - renderer.axis().boundsBegin()));
}

// Data more than a day apart makes "Fit" useless; the dock says so (the CANN msprof_0.db fixture holds MSTX events
// from 2025 next to tasks from 2023). A normal profile shows no such note.
TEST(TimelineDock, SaysWhenTheDataSpansDays)
{
    for (const auto& [path, expected] :
        { std::pair { test::dataPath("cann_msprof_db"), true }, std::pair { test::kTwoRanks, false } }) {
        MainWindow window(test::testOptions());
        window.open({ path });
        ASSERT_TRUE(window.waitUntilIdle());
        window.timelineDock()->expandAllRanks();
        ASSERT_TRUE(window.waitUntilIdle());
        auto* note = window.timelineDock()->findChild<QLabel*>(QStringLiteral("timelineSpanNote"));
        ASSERT_NE(note, nullptr);
        EXPECT_EQ(!note->isHidden(), expected) << path.toStdString();
        if (expected) {
            EXPECT_TRUE(note->text().contains(QStringLiteral("days"))) << note->text().toStdString();
        }
    }
}
