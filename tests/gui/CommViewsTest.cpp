// SPDX-License-Identifier: Apache-2.0
// The communication docks driven offscreen on real and generated data.
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
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/comm/OpStripView.h"
#include "npuscope/gui/comm/PacketChart.h"
#include "npuscope/gui/steps/TimeOverviewChart.h"
#include "npuscope/gui/steps/TimeOverviewDock.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
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

const QString kTwoRanks = QStringLiteral(NPUSCOPE_TEST_DATA "/torch_npu_2rank_level1");
const std::string kGroup = "17522688603477080586";

MainWindow::Options options()
{
    MainWindow::Options o;
    o.persistSettings = false;
    o.interactive = false;
    return o;
}

bool openAndWait(MainWindow& window, const QStringList& paths)
{
    bool ok = false;
    QObject::connect(&window, &MainWindow::loadFinished, &window, [&](bool success, const QString&) { ok = success; });
    window.open(paths);
    return window.waitUntilIdle(300000) && ok;
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

void keepImage(const QImage& image, const QString& name)
{
    const QString dir = qEnvironmentVariable("NPUSCOPE_TEST_ARTIFACTS");
    if (!dir.isEmpty())
        image.save(dir + QLatin1Char('/') + name);
}

class CommViews : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_window = std::make_unique<MainWindow>(options());
        m_window->resize(1500, 950);
        for (QAbstractItemModel* model :
            std::initializer_list<QAbstractItemModel*> { m_window->commDurationDock()->model(),
                m_window->commDurationDock()->proxyModel(), m_window->linksDock()->rankModel(),
                m_window->linksDock()->clusterModel(), m_window->linksDock()->clusterProxy(),
                m_window->groupsDock()->model(), m_window->groupsDock()->proxyModel() })
            m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::Fatal));
        ASSERT_TRUE(openAndWait(*m_window, { kTwoRanks }));
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
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
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
    const QRect plot = view->plotRect();
    const double px = plot.width() / 8.0;
    const QPoint cell01(plot.left() + static_cast<int>(1.5 * px), plot.top() + static_cast<int>(0.5 * px));
    const auto* c = view->cellAt(cell01);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->src, 0);
    EXPECT_EQ(c->dst, 1);
    const QString tip = view->toolTipFor(*c);
    for (const char* word : { "HCCS", "MB", "ms", "GB/s", "hcom_allReduce" })
        EXPECT_TRUE(tip.contains(QString::fromLatin1(word))) << word << " " << tip.toStdString();
    // Diagonal hidden by default; shown on request.
    EXPECT_EQ(view->cellAt(QPoint(plot.left() + static_cast<int>(0.5 * px), plot.top() + static_cast<int>(0.5 * px))),
        nullptr);
    m_window->commMatrixDock()->hideLocalBox()->setChecked(false);
    EXPECT_NE(view->cellAt(QPoint(plot.left() + static_cast<int>(0.5 * px), plot.top() + static_cast<int>(0.5 * px))),
        nullptr);

    // A click selects the src rank, and the links dock shows that rank's links.
    QTest::mouseClick(view, Qt::LeftButton, {}, cell01);
    EXPECT_EQ(ws().selectedRank(), 0);
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
    keepImage(image, QStringLiteral("comm_matrix.png"));
    EXPECT_GT(distinctColours(image), 10);
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
    keepImage(image, QStringLiteral("time_overview.png"));
    EXPECT_GT(distinctColours(image), 8);
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
        keepImage(image, dock->objectName() + QStringLiteral(".png"));
        EXPECT_GT(distinctColours(image), 10) << dock->objectName().toStdString();
    }
}

TEST(CommViewsGenerated, PlantedSlowLinkIsTheMatrixOutlier)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() + QStringLiteral("/c")).toStdString();
    o.ranks = 64;
    o.pp = 2;
    o.tp = 8;
    o.dp = 4;
    o.steps = 2;
    o.traceMb = 0;
    o.slowLink = std::make_pair(3, 4);
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    MainWindow window(options());
    window.resize(1400, 900);
    ASSERT_TRUE(openAndWait(window, { QString::fromStdString(o.outDir) }));
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
    keepImage(image, QStringLiteral("comm_matrix_64.png"));
    EXPECT_GT(distinctColours(image), 10);
}
