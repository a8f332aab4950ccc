// SPDX-License-Identifier: Apache-2.0
// The communication docks driven offscreen on real and generated data: duration table, matrix (hover, counts,
// slowest-cell outline), time overview, Groups and Links docks; group-local ranks when a group's global ranks are
// unknown; figures a file generation lacks (MindSpore hccl_raw, Level0, no communication at all) shown as absent,
// not 0; readable packet-size ticks.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/comm/CommDurationDock.h"
#include "npuscope/gui/comm/CommDurationModel.h"
#include "npuscope/gui/comm/CommMatrixDock.h"
#include "npuscope/gui/comm/CommMatrixView.h"
#include "npuscope/gui/comm/CommRankChart.h"
#include "npuscope/gui/comm/CommSelectionBar.h"
#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/comm/LinkTableModel.h"
#include "npuscope/gui/comm/LinksDock.h"
#include "npuscope/gui/comm/OpStripView.h"
#include "npuscope/gui/comm/PacketChart.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/steps/TimeOverviewChart.h"
#include "npuscope/gui/steps/TimeOverviewDock.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFontMetrics>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

constexpr QSize kWindowSize(1500, 950);
const std::string kGroup = "17522688603477080586";

class CommViews : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_window = test::newWindow(kWindowSize);
        m_testers.watch({ m_window->commDurationDock()->model(), m_window->commDurationDock()->proxyModel(),
            m_window->linksDock()->rankModel(), m_window->linksDock()->clusterModel(),
            m_window->linksDock()->clusterProxy(), m_window->groupsDock()->model(),
            m_window->groupsDock()->proxyModel() });
        ASSERT_TRUE(test::openAndWait(*m_window, { test::kTwoRanks }));
    }
    Workspace& ws() { return *m_window->workspace(); }
    bool idle() { return m_window->waitUntilIdle(60000); }
    query::RankDuration row(int64_t rank)
    {
        for (const auto& r : m_window->commDurationDock()->model()->rows()) {
            if (r.rank == rank)
                return r;
        }
        ADD_FAILURE() << "no row for rank " << rank;
        return {};
    }

    std::unique_ptr<MainWindow> m_window;
    test::ModelTesters m_testers;
};

} // namespace

TEST_F(CommViews, ScreenshotNamesResolve)
{
    for (const char* name : { "matrix", "commduration", "links", "groups", "timeoverview" })
        EXPECT_NE(m_window->dockByName(QString::fromLatin1(name)), nullptr) << name;
}

TEST_F(CommViews, DurationTableFollowsStepGroupAndOp)
{
    const CommDurationModel& model = *m_window->commDurationDock()->model();
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(row(0).opCount, 4);
    // Rank 0 step 50 from communication.json: Wait 5.94061871875 ms over 4 ops.
    EXPECT_NEAR(static_cast<double>(row(0).waitNs) / 1e6, 5.94061871875, 4e-6);
    const int r0 = model.rowOfRank(0);
    EXPECT_EQ(model.index(r0, CommDurationModel::Wait).data().toString(), QStringLiteral("5.941"));

    ws().setStep(50);
    ws().setGroupHash(kGroup);
    ws().setCommOp(std::string("hcom_allReduce__586_0_1"));
    ASSERT_TRUE(idle());
    EXPECT_EQ(row(0).opCount, 1);
    // The file's own ratio for that op, rounded to 4 decimals.
    EXPECT_NEAR(row(0).waitRatio.value_or(-1), 0.9594, 5.1e-5);
    // The selection bar of the other dock follows the Workspace too.
    EXPECT_EQ(m_window->commMatrixDock()->selectionBar()->opCombo()->currentText(),
        QStringLiteral("hcom_allReduce__586_0_1"));
    EXPECT_EQ(m_window->commDurationDock()->selectionBar()->stepCombo()->currentText(), QStringLiteral("Step 50"));

    // Choosing in a combo writes the Workspace.
    QComboBox* op = m_window->commDurationDock()->selectionBar()->opCombo();
    op->setCurrentIndex(0);
    ASSERT_TRUE(idle());
    EXPECT_FALSE(ws().commOp().has_value());
    EXPECT_EQ(row(0).opCount, 4);
    EXPECT_EQ(m_window->commDurationDock()->opStrip()->strip().ops.size(), 8u);
    EXPECT_FALSE(m_window->commDurationDock()->packetChart()->distributions().empty());
}

TEST_F(CommViews, MatrixFollowsTheWorkspaceAndHovers)
{
    CommMatrixView* view = m_window->commMatrixDock()->view();
    ASSERT_EQ(view->matrix().ranks.size(), 8u);
    ASSERT_EQ(view->matrix().cells.size(), 16u);

    ws().setStep(50);
    ws().setCommOp(std::string("hcom_allReduce__586_1_1"));
    ASSERT_TRUE(idle());
    ASSERT_FALSE(view->matrix().cells.empty());
    for (const auto& c : view->matrix().cells)
        EXPECT_EQ(c.opName, "hcom_allReduce__586_1_1");
    EXPECT_FALSE(m_window->commMatrixDock()->slotCombo()->isEnabled());

    ws().setCommOp(std::nullopt);
    ASSERT_TRUE(idle());
    QComboBox* slot = m_window->commMatrixDock()->slotCombo();
    const int top1 = slot->findText(QStringLiteral("allreduce \u00b7 top1"));
    ASSERT_GE(top1, 0);
    slot->setCurrentIndex(top1);
    ASSERT_TRUE(idle());
    for (const auto& c : view->matrix().cells)
        EXPECT_FALSE(c.opName.empty());

    // Hover: the cell under a point of the plot and its tooltip.
    m_window->focusDock(m_window->commMatrixDock());
    m_window->show();
    ASSERT_TRUE(idle());
    // 8 ranks fill the plot: single-rank cells, the whole plot wide and high (cells need not be square).
    EXPECT_EQ(view->blockSize(), 1);
    const QRect plot = view->plotRect();
    EXPECT_NEAR(view->cellRect(7, 7).right(), plot.left() + plot.width(), 1.0);
    EXPECT_NEAR(view->cellRect(7, 7).bottom(), plot.top() + plot.height(), 1.0);
    const QPoint cell01 = view->cellRect(0, 1).center().toPoint();
    const QPoint cell00 = view->cellRect(0, 0).center().toPoint();
    const auto* c = view->cellAt(cell01);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->src, 0);
    EXPECT_EQ(c->dst, 1);
    const QString tip = view->toolTipFor(*c);
    for (const char* word : { "HCCS", "MB", "ms", "GB/s", "hcom_allReduce" })
        EXPECT_TRUE(tip.contains(QString::fromLatin1(word))) << word << " " << tip.toStdString();
    // Diagonal hidden by default; shown on request.
    EXPECT_EQ(view->cellAt(cell00), nullptr);
    m_window->commMatrixDock()->hideLocalBox()->setChecked(false);
    EXPECT_NE(view->cellAt(cell00), nullptr);

    // A click selects the link's two ranks (src first), and the links dock shows the src rank's links.
    QTest::mouseClick(view, Qt::LeftButton, {}, cell01);
    EXPECT_EQ(ws().selectedRank(), 0);
    EXPECT_EQ(ws().selectedRanks(), (std::vector<int64_t> { 0, 1 }));
    // The links dock was hidden (it defers its queries) and catches up when shown.
    m_window->focusDock(m_window->linksDock());
    ASSERT_TRUE(idle());
    const auto& rankLinks = m_window->linksDock()->rankModel()->rows();
    ASSERT_FALSE(rankLinks.empty());
    for (const auto& l : rankLinks)
        EXPECT_TRUE(l.src == 0 || l.dst == 0);

    m_window->focusDock(m_window->commMatrixDock());
    ASSERT_TRUE(idle());
    // Zoom keeps working and the image is not blank.
    view->setZoom(4.0);
    EXPECT_DOUBLE_EQ(view->zoom(), 4.0);
    view->resetView();
    const QImage image = view->grab().toImage();
    test::keepImage(image, QStringLiteral("comm_matrix.png"));
    EXPECT_GT(test::distinctColours(image), 10);
}

TEST_F(CommViews, TimeOverviewClickSelectsTheStep)
{
    TimeOverviewChart* chart = m_window->timeOverviewDock()->chart();
    m_window->focusDock(m_window->timeOverviewDock());
    m_window->show();
    ASSERT_TRUE(idle());
    ASSERT_EQ(chart->overview().steps.size(), 1u);
    EXPECT_EQ(chart->overview().steps[0].step, 50);
    EXPECT_TRUE(chart->toolTipFor(0).contains(QStringLiteral("Mean wait")));
    const QPoint centre = chart->plotRect().center();
    QTest::mouseClick(chart, Qt::LeftButton, {}, centre);
    EXPECT_EQ(ws().step(), 50);
    EXPECT_EQ(chart->selectedStep(), 50);
    ASSERT_TRUE(idle());
    // Every dock follows: the duration table is now step 50 only (same figures: one step).
    EXPECT_EQ(m_window->commDurationDock()->selectionBar()->stepCombo()->currentText(), QStringLiteral("Step 50"));
    ws().setStep(std::nullopt);
    EXPECT_FALSE(chart->selectedStep().has_value());
    const QImage image = chart->grab().toImage();
    test::keepImage(image, QStringLiteral("time_overview.png"));
    EXPECT_GT(test::distinctColours(image), 8);

    // The axes fit the figures by default (ranks a few per cent apart are not one line); "Axes from 0" starts them
    // at 0.
    const auto& s = chart->overview().steps[0];
    EXPECT_TRUE(chart->fitToData());
    auto [low, high] = chart->leftRange();
    EXPECT_GT(low, 0.5 * static_cast<double>(s.minNs));
    EXPECT_LE(low, static_cast<double>(s.minNs));
    EXPECT_GE(high, static_cast<double>(s.maxNs));
    EXPECT_LT(high - low, 0.5 * static_cast<double>(s.maxNs));
    auto* fromZero = m_window->timeOverviewDock()->findChild<QCheckBox*>(QStringLiteral("timeOverviewFromZero"));
    ASSERT_NE(fromZero, nullptr);
    fromZero->setChecked(true);
    chart->grab();
    EXPECT_FALSE(chart->fitToData());
    EXPECT_EQ(chart->leftRange().first, 0.0);
    EXPECT_GE(chart->leftRange().second, static_cast<double>(s.maxNs));

    // A narrow chart wraps its legend into rows inside its width, and the plot starts below the last row.
    for (const int width : { 1200, 420 }) {
        chart->resize(width, 300);
        const auto entries = chart->legendEntries();
        const auto at = chart->legendPositions();
        ASSERT_EQ(at.size(), entries.size());
        const QFontMetrics fm = chart->fontMetrics();
        for (size_t k = 0; k < entries.size(); ++k) {
            EXPECT_LE(at[k].x() + 18 + fm.horizontalAdvance(entries[k].first), width)
                << width << ": " << entries[k].first.toStdString();
            EXPECT_LT(at[k].y() + fm.height(), chart->plotRect().top()) << width;
        }
        if (width == 420) {
            EXPECT_GT(at.back().y(), at.front().y()); // more than one row
        }
    }
}

TEST_F(CommViews, GroupsDockFiltersTheOtherDocks)
{
    const GroupTableModel& model = *m_window->groupsDock()->model();
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, GroupTableModel::Ranks).data().toString(), QStringLiteral("0-7"));
    EXPECT_EQ(model.index(0, GroupTableModel::Ops).data().toLongLong(), 4);
    QTableView* table = m_window->groupsDock()->tableView();
    m_window->focusDock(m_window->groupsDock());
    m_window->show();
    ASSERT_TRUE(idle());
    const QModelIndex first = table->model()->index(0, 0);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
    EXPECT_EQ(ws().groupHash(), kGroup);
    ASSERT_TRUE(idle());
    EXPECT_EQ(m_window->commMatrixDock()->view()->matrix().ranks.size(), 8u);
    EXPECT_EQ(m_window->commDurationDock()->model()->rowCount(), 2);
    EXPECT_EQ(
        m_window->commDurationDock()->selectionBar()->groupCombo()->currentData().toString().toStdString(), kGroup);
    EXPECT_EQ(GroupTableModel::rankList({ 0, 8, 16, 17, 18, 19, 3 }), QStringLiteral("0,3,8,16-19"));
}

TEST_F(CommViews, LinkTableFiltersAndSortsSlowestFirst)
{
    LinksDock* dock = m_window->linksDock();
    ASSERT_EQ(dock->clusterModel()->rowCount(), 14); // 16 links minus the two LOCAL self links
    QSortFilterProxyModel* proxy = dock->clusterProxy();
    double previous = 0;
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const double bw = proxy->index(r, LinkTableModel::Bandwidth).data(LinkTableModel::RawValueRole).toDouble();
        EXPECT_GE(bw, previous);
        previous = bw;
    }
    EXPECT_EQ(proxy->index(0, LinkTableModel::Src).data().toString(), QStringLiteral("1"));
    EXPECT_EQ(proxy->index(0, LinkTableModel::Dst).data().toString(), QStringLiteral("7"));
    dock->srcFilter()->setText(QStringLiteral("0"));
    emit dock->srcFilter()->editingFinished();
    ASSERT_TRUE(idle());
    EXPECT_EQ(dock->clusterModel()->rowCount(), 7);
    dock->transportFilter()->setCurrentIndex(dock->transportFilter()->findData(QStringLiteral("LOCAL")));
    ASSERT_TRUE(idle());
    EXPECT_EQ(dock->clusterModel()->rowCount(), 1);
}

TEST_F(CommViews, EveryDockRendersSomething)
{
    for (QDockWidget* dock :
        std::initializer_list<QDockWidget*> { m_window->commMatrixDock(), m_window->commDurationDock(),
            m_window->linksDock(), m_window->groupsDock(), m_window->timeOverviewDock() }) {
        m_window->focusDock(dock);
        m_window->show();
        ASSERT_TRUE(idle());
        const QImage image = dock->grab().toImage();
        test::keepImage(image, dock->objectName() + QStringLiteral(".png"));
        EXPECT_GT(test::distinctColours(image), 10) << dock->objectName().toStdString();
    }
}

TEST(CommViewsGenerated, PlantedSlowLinkIsTheMatrixOutlier)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.ranks = 64;
    o.pp = 2;
    o.tp = 8;
    o.dp = 4;
    o.steps = 2;
    o.traceMb = 0;
    o.slowLink = std::make_pair(3, 4);
    MainWindow window(test::testOptions());
    window.resize(1400, 900);
    ASSERT_TRUE(test::generateAndOpen(window, o, dir.path() + QStringLiteral("/c")));
    CommMatrixView* view = window.commMatrixDock()->view();
    const auto& m = view->matrix();
    ASSERT_EQ(m.ranks.size(), 64u);
    ASSERT_TRUE(m.slowestCell.has_value());
    const auto& slow = m.cells[*m.slowestCell];
    EXPECT_EQ((std::set<int64_t> { slow.src, slow.dst }), (std::set<int64_t> { 3, 4 }));
    // Group blocks: every block is one group of the chosen name.
    EXPECT_FALSE(m.blocks.empty());
    EXPECT_FALSE(m.orderedBy.empty());
    // Switching step and group re-queries.
    window.workspace()->setStep(51);
    ASSERT_TRUE(window.waitUntilIdle(60000));
    EXPECT_EQ(window.commDurationDock()->model()->rowCount(), 64);
    window.focusDock(window.commMatrixDock());
    window.show();
    ASSERT_TRUE(window.waitUntilIdle(60000));
    const QImage image = view->grab().toImage();
    test::keepImage(image, QStringLiteral("comm_matrix_64.png"));
    EXPECT_GT(test::distinctColours(image), 10);
}

// One rank of an 8-rank group: matrix and link table show its links in group-local ranks, labelled.
TEST(CommViewsLocalRanks, SingleRankMatrixAndLinksUseLocalRanks)
{
    auto w = test::newWindow(kWindowSize);
    ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("torch_npu_2rank_level2/rank0_ascend_pt") }));
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
    EXPECT_GT(test::distinctColours(w->commMatrixDock()->view()->grab().toImage()), 10);

    w->focusDock(w->linksDock());
    ASSERT_TRUE(w->waitUntilIdle(60000));
    LinkTableModel* links = w->linksDock()->clusterModel();
    ASSERT_EQ(links->rowCount(), 7);
    EXPECT_TRUE(links->index(0, LinkTableModel::Src).data().toString().startsWith(QLatin1Char('L')));
    EXPECT_TRUE(w->linksDock()->clusterTitle()->text().contains(QStringLiteral("group-local ranks")));
}

// The status counts the src → dst cells the view shows, diagonal apart (Links lists 14 on this data),
// and the slowest cell's outline lies inside the plot.
TEST(CommMatrixDock, MatrixCountsAndSlowestOutline)
{
    auto w = test::newWindow(kWindowSize);
    ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("torch_npu_2rank_level1") }));
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

// MindSpore hccl_raw has communication cost and wait cost only: the chart does not claim the identity.
TEST(CommViewsMissingFigures, HcclRawChartShowsSeparateFigures)
{
    auto w = test::newWindow(kWindowSize);
    ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("mindinsight_r13_job/run") }));
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
    EXPECT_GT(test::distinctColours(chart->grab().toImage()), 4);
}

// A Level0 export has no communication.json; the view says so.
TEST(CommViewsMissingFigures, Level0SaysWhyThereIsNoCommunication)
{
    auto w = test::newWindow(kWindowSize);
    ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("torch_npu_2rank_level0") }));
    w->focusDock(w->commDurationDock());
    w->show();
    ASSERT_TRUE(w->waitUntilIdle(60000));
    EXPECT_EQ(w->commDurationDock()->model()->rowCount(), 0);
    const QString text = w->commDurationDock()->summaryLabel()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("communication.json")) && text.contains(QStringLiteral("Level0")))
        << text.toStdString();
}

// No communication data: no right axis / legend entries in the time overview, "—" as group op count.
TEST(CommViewsMissingFigures, AbsentCommunicationIsNotZero)
{
    {
        auto w = test::newWindow(kWindowSize);
        ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("mindspore_run1_profiler") }));
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
        auto w = test::newWindow(kWindowSize);
        ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("torch_npu_2rank_level1") }));
        ASSERT_TRUE(w->waitUntilIdle(60000));
        EXPECT_TRUE(w->timeOverviewDock()->chart()->hasCommunication());
        EXPECT_EQ(w->timeOverviewDock()->chart()->legendEntries().size(), 5u);
    }
    {
        auto w = test::newWindow(kWindowSize);
        ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("msinsight_communication_group") }));
        ASSERT_TRUE(w->waitUntilIdle(60000));
        const GroupTableModel& groups = *w->groupsDock()->model();
        ASSERT_GT(groups.rowCount(), 0);
        EXPECT_FALSE(groups.commLoaded());
        for (int r = 0; r < groups.rowCount(); ++r)
            EXPECT_EQ(groups.index(r, GroupTableModel::Ops).data().toString(), QStringLiteral("\u2014"));
    }
}

// Packet sizes in one unit system on every tick, ticks thinned so labels never overlap, the tallest
// bar labelled.
TEST(PacketChart, PacketTicksAreReadable)
{
    EXPECT_EQ(PacketChart::sizeLabel(4.0e-6), QStringLiteral("4 B"));
    EXPECT_EQ(PacketChart::sizeLabel(128.0e-6), QStringLiteral("128 B"));
    EXPECT_EQ(PacketChart::sizeLabel(4096.0e-6), QStringLiteral("4 KiB"));
    EXPECT_EQ(PacketChart::sizeLabel(16777216.0e-6), QStringLiteral("16 MiB"));

    auto w = test::newWindow(kWindowSize);
    ASSERT_TRUE(test::openAndWait(*w, { test::dataPath("torch_npu_2023_2rank/test_rank_0") }));
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
    EXPECT_GT(test::distinctColours(chart->grab().toImage()), 3);
}
