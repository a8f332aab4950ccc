// SPDX-License-Identifier: Apache-2.0
// The communication docks on the data of the QA sweep's defects: local-rank fallback, MindSpore hccl_raw chart,
// empty-view reasons, absent figures, packet-size ticks, matrix counts and the slowest-cell outline.
#include "npuscope/gui/comm/CommDurationDock.h"
#include "npuscope/gui/comm/CommDurationModel.h"
#include "npuscope/gui/comm/CommMatrixDock.h"
#include "npuscope/gui/comm/CommMatrixView.h"
#include "npuscope/gui/comm/CommRankChart.h"
#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/comm/LinkTableModel.h"
#include "npuscope/gui/comm/LinksDock.h"
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/comm/PacketChart.h"
#include "npuscope/gui/steps/TimeOverviewChart.h"
#include "npuscope/gui/steps/TimeOverviewDock.h"

#include <QCheckBox>
#include <QFontMetrics>
#include <QImage>
#include <QLabel>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

QString data(const char* path) { return QStringLiteral(NPUSCOPE_TEST_DATA "/") + QString::fromLatin1(path); }

std::unique_ptr<MainWindow> openWindow(const QString& path)
{
    MainWindow::Options o;
    o.persistSettings = false;
    o.interactive = false;
    auto window = std::make_unique<MainWindow>(o);
    window->resize(1500, 950);
    bool ok = false;
    QObject::connect(
        window.get(), &MainWindow::loadFinished, window.get(), [&](bool success, const QString&) { ok = success; });
    window->open({ path });
    EXPECT_TRUE(window->waitUntilIdle(300000) && ok) << path.toStdString();
    return window;
}

int distinctColours(const QImage& image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

} // namespace

// Defect 1: one rank of an 8-rank group: matrix and link table show its links in group-local ranks, labelled.
TEST(CommFixesGui, SingleRankMatrixAndLinksUseLocalRanks)
{
    auto w = openWindow(data("torch_npu_2rank_level2/rank0_ascend_pt"));
    w->focusDock(w->commMatrixDock());
    w->show();
    ASSERT_TRUE(w->waitUntilIdle(60000));
    const auto& m = w->commMatrixDock()->view()->matrix();
    EXPECT_EQ(m.ranks.size(), 8u);
    EXPECT_EQ(m.offDiagonalCells(), 7u);
    EXPECT_TRUE(m.localGroup.has_value());
    const QString status = w->commMatrixDock()->statusLabel()->text();
    EXPECT_TRUE(status.contains(QStringLiteral("group-local ranks"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("11022204950826225271"))) << status.toStdString();
    EXPECT_GT(distinctColours(w->commMatrixDock()->view()->grab().toImage()), 10);

    w->focusDock(w->linksDock());
    ASSERT_TRUE(w->waitUntilIdle(60000));
    LinkTableModel* links = w->linksDock()->clusterModel();
    ASSERT_EQ(links->rowCount(), 7);
    EXPECT_TRUE(links->index(0, LinkTableModel::Src).data().toString().startsWith(QLatin1Char('L')));
    EXPECT_TRUE(w->linksDock()->clusterTitle()->text().contains(QStringLiteral("group-local ranks")));
}

// Defect 8: the status counts the src → dst cells the view shows, diagonal apart (Links lists 14 on this data),
// and the slowest cell's outline lies inside the plot.
TEST(CommFixesGui, MatrixCountsAndSlowestOutline)
{
    auto w = openWindow(data("torch_npu_2rank_level1"));
    w->focusDock(w->commMatrixDock());
    w->show();
    ASSERT_TRUE(w->waitUntilIdle(60000));
    const QString status = w->commMatrixDock()->statusLabel()->text();
    EXPECT_TRUE(status.contains(QStringLiteral("14 src\u2192dst links (+2 diagonal/LOCAL, hidden)")))
        << status.toStdString();
    w->commMatrixDock()->hideLocalBox()->setChecked(false);
    EXPECT_TRUE(w->commMatrixDock()->statusLabel()->text().contains(QStringLiteral("14 src\u2192dst links + 2")));
    w->commMatrixDock()->hideLocalBox()->setChecked(true);
    CommMatrixView* view = w->commMatrixDock()->view();
    for (const QSize size : { QSize(900, 600), QSize(420, 300) }) {
        view->resize(size);
        view->grab();
        const QRectF ring = view->slowestRing();
        ASSERT_FALSE(ring.isNull());
        EXPECT_TRUE(QRectF(view->plotRect()).contains(ring)) << ring.left() << "," << ring.top() << " " << ring.width();
    }
    w->focusDock(w->linksDock());
    ASSERT_TRUE(w->waitUntilIdle(60000));
    EXPECT_EQ(w->linksDock()->clusterModel()->rowCount(), 14);
}

// Defect 4: MindSpore hccl_raw has communication cost and wait cost only: the chart does not claim the identity.
TEST(CommFixesGui, HcclRawChartShowsSeparateFigures)
{
    auto w = openWindow(data("mindinsight_r13_job/run"));
    w->focusDock(w->commDurationDock());
    w->show();
    ASSERT_TRUE(w->waitUntilIdle(60000));
    CommRankChart* chart = w->commDurationDock()->chart();
    ASSERT_GT(w->commDurationDock()->model()->rowCount(), 0);
    EXPECT_TRUE(chart->separateFigures());
    const QString title = w->commDurationDock()->chartTitle()->text();
    EXPECT_FALSE(title.contains(QStringLiteral("= Elapsed"))) << title.toStdString();
    EXPECT_TRUE(title.contains(QStringLiteral("separate figures"))) << title.toStdString();
    EXPECT_TRUE(chart->toolTipFor(0).contains(QStringLiteral("Transit \u2014")));
    EXPECT_GT(distinctColours(chart->grab().toImage()), 4);
}

// Defect 5: a Level0 export has no communication.json; the view says so.
TEST(CommFixesGui, Level0SaysWhyThereIsNoCommunication)
{
    auto w = openWindow(data("torch_npu_2rank_level0"));
    w->focusDock(w->commDurationDock());
    w->show();
    ASSERT_TRUE(w->waitUntilIdle(60000));
    EXPECT_EQ(w->commDurationDock()->model()->rowCount(), 0);
    const QString text = w->commDurationDock()->summaryLabel()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("communication.json")) && text.contains(QStringLiteral("Level0")))
        << text.toStdString();
}

// Defect 6: no communication data: no right axis / legend entries in the time overview, "—" as group op count.
TEST(CommFixesGui, AbsentCommunicationIsNotZero)
{
    {
        auto w = openWindow(data("mindspore_run1_profiler"));
        w->focusDock(w->timeOverviewDock());
        w->show();
        ASSERT_TRUE(w->waitUntilIdle(60000));
        TimeOverviewChart* chart = w->timeOverviewDock()->chart();
        ASSERT_FALSE(chart->overview().steps.empty());
        EXPECT_FALSE(chart->hasCommunication());
        for (const auto& [label, colour] : chart->legendEntries())
            EXPECT_FALSE(label.contains(QStringLiteral("(right)"))) << label.toStdString();
    }
    {
        auto w = openWindow(data("torch_npu_2rank_level1"));
        ASSERT_TRUE(w->waitUntilIdle(60000));
        EXPECT_TRUE(w->timeOverviewDock()->chart()->hasCommunication());
        EXPECT_EQ(w->timeOverviewDock()->chart()->legendEntries().size(), 5u);
    }
    {
        auto w = openWindow(data("msinsight_communication_group"));
        ASSERT_TRUE(w->waitUntilIdle(60000));
        const GroupTableModel& groups = *w->groupsDock()->model();
        ASSERT_GT(groups.rowCount(), 0);
        EXPECT_FALSE(groups.commLoaded());
        for (int r = 0; r < groups.rowCount(); ++r)
            EXPECT_EQ(groups.index(r, GroupTableModel::Ops).data().toString(), QStringLiteral("\u2014"));
    }
}

// Defect 7: packet sizes in one unit system on every tick, ticks thinned so labels never overlap, the tallest
// bar labelled.
TEST(CommFixesGui, PacketTicksAreReadable)
{
    EXPECT_EQ(PacketChart::sizeLabel(4.0e-6), QStringLiteral("4 B"));
    EXPECT_EQ(PacketChart::sizeLabel(128.0e-6), QStringLiteral("128 B"));
    EXPECT_EQ(PacketChart::sizeLabel(4096.0e-6), QStringLiteral("4 KiB"));
    EXPECT_EQ(PacketChart::sizeLabel(16777216.0e-6), QStringLiteral("16 MiB"));

    auto w = openWindow(data("torch_npu_2023_2rank/test_rank_0"));
    ASSERT_TRUE(w->waitUntilIdle(60000));
    PacketChart* chart = w->commDurationDock()->packetChart();
    const auto& dists = chart->distributions();
    ASSERT_FALSE(dists.empty());
    const QFontMetrics fm = chart->fontMetrics();
    for (const auto& d : dists) {
        const auto buckets = PacketChart::buckets(d);
        ASSERT_FALSE(buckets.empty());
        size_t tallest = 0;
        int width = 0;
        for (size_t k = 0; k < buckets.size(); ++k) {
            if (buckets[k].count > buckets[tallest].count)
                tallest = k;
            const QString label = PacketChart::sizeLabel(buckets[k].lowMb);
            EXPECT_TRUE(label.endsWith(QStringLiteral(" B")) || label.endsWith(QStringLiteral("KiB"))
                || label.endsWith(QStringLiteral("MiB")))
                << label.toStdString();
            width = std::max(width, fm.horizontalAdvance(label));
        }
        for (double barWidth : { 6.0, 12.0, 30.0 }) {
            const auto ticks = PacketChart::tickBuckets(buckets, barWidth, width);
            ASSERT_FALSE(ticks.empty());
            EXPECT_NE(std::find(ticks.begin(), ticks.end(), tallest), ticks.end());
            for (size_t i = 1; i < ticks.size(); ++i)
                EXPECT_GE((ticks[i] - ticks[i - 1]) * barWidth, width + 6.0);
        }
    }
    chart->resize(520, 220);
    EXPECT_GT(distinctColours(chart->grab().toImage()), 3);
}
