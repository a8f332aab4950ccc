// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/issues/IssueFilterModel.h"
#include "npuscope/gui/issues/IssueTableModel.h"
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/steps/OverviewDock.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/common/RankBarChart.h"
#include "npuscope/gui/steps/StepSplitPie.h"
#include "npuscope/gui/steps/StepStatsModel.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <memory>
#include <set>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

const QString kTwoRanks = QStringLiteral(NPUSCOPE_TEST_DATA "/torch_npu_2rank_level1");

MainWindow::Options testOptions()
{
    MainWindow::Options options;
    options.persistSettings = false;
    options.interactive = false;
    return options;
}

// Loads through MainWindow::open, the path the app and its --screenshot mode use.
bool openAndWait(MainWindow& window, const QStringList& paths, QString* message = nullptr)
{
    bool ok = false;
    bool done = false;
    QObject::connect(&window, &MainWindow::loadFinished, &window, [&](bool success, const QString& text) {
        ok = success;
        done = true;
        if (message)
            *message = text;
    });
    window.open(paths);
    if (!window.waitUntilIdle(120000))
        return false;
    return done && ok;
}

int rowOfRank(const StepTableModel& model, int64_t rank)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, StepTableModel::Rank).data(StepTableModel::RawValueRole).toLongLong() == rank)
            return row;
    }
    return -1;
}

// Set NPUSCOPE_TEST_ARTIFACTS to a folder to keep the rendered images for a look.
void keepImage(const QImage& image, const QString& name)
{
    const QString dir = qEnvironmentVariable("NPUSCOPE_TEST_ARTIFACTS");
    if (!dir.isEmpty())
        image.save(dir + QLatin1Char('/') + name);
}

int distinctColours(const QImage& image)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

class LoadedWindow : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_window = std::make_unique<MainWindow>(testOptions());
        m_window->resize(1400, 900);
        // Testers watch the models from before the load so the resets are checked too.
        for (QAbstractItemModel* model : std::initializer_list<QAbstractItemModel*> { m_window->stepsDock()->model(),
                 m_window->stepsDock()->statsModel(), m_window->stepsDock()->proxyModel(),
                 m_window->issuesDock()->model(), m_window->issuesDock()->filterModel() })
            m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::Fatal));
        ASSERT_TRUE(openAndWait(*m_window, { kTwoRanks }));
    }

    std::unique_ptr<MainWindow> m_window;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
};

} // namespace

TEST(TimeFormat, ExactFixedPoint)
{
    EXPECT_EQ(TimeFormat::format(int64_t { 8873756 }, TimeFormat::Unit::Microseconds), QStringLiteral("8873.756"));
    EXPECT_EQ(TimeFormat::format(int64_t { 8873756 }, TimeFormat::Unit::Milliseconds), QStringLiteral("8.874"));
    EXPECT_EQ(TimeFormat::format(int64_t { -1500 }, TimeFormat::Unit::Microseconds), QStringLiteral("-1.500"));
    EXPECT_EQ(TimeFormat::format(int64_t { 0 }, TimeFormat::Unit::Milliseconds), QStringLiteral("0.000"));
    EXPECT_EQ(TimeFormat::format(std::optional<int64_t>(), TimeFormat::Unit::Microseconds), TimeFormat::kAbsent);
}

TEST(Workspace, EmitsOnlyOnChange)
{
    Workspace ws;
    QSignalSpy rankSpy(&ws, &Workspace::selectedRankChanged);
    QSignalSpy stepSpy(&ws, &Workspace::stepChanged);
    ws.setSelectedRank(3);
    ws.setSelectedRank(3);
    ws.setStep(50);
    ws.setStep(50);
    ws.setStep(std::nullopt);
    EXPECT_EQ(rankSpy.count(), 1);
    EXPECT_EQ(stepSpy.count(), 2);
    EXPECT_EQ(ws.selectedRank(), 3);
    ws.setSelectedRanks({ 5, 2, 5 });
    EXPECT_EQ(ws.selectedRanks(), (std::vector<int64_t> { 5, 2 }));
    EXPECT_EQ(ws.selectedRank(), 5);
}

TEST_F(LoadedWindow, StepsTableShowsBothRanks)
{
    const StepTableModel& model = *m_window->stepsDock()->model();
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.columnCount(), StepTableModel::ColumnCount);
    const int row0 = rowOfRank(model, 0);
    const int row1 = rowOfRank(model, 1);
    ASSERT_GE(row0, 0);
    ASSERT_GE(row1, 0);
    EXPECT_EQ(model.index(row0, StepTableModel::Computing).data(StepTableModel::RawValueRole).toLongLong(), 8873756);
    EXPECT_EQ(model.index(row0, StepTableModel::Computing).data().toString(), QStringLiteral("8873.756"));
    EXPECT_EQ(model.index(row1, StepTableModel::Computing).data(StepTableModel::RawValueRole).toLongLong(), 8878295);
    EXPECT_EQ(
        model.index(row0, StepTableModel::CommunicationNotOverlapped).data(StepTableModel::RawValueRole).toLongLong(),
        101963203);
    EXPECT_EQ(model.index(row1, StepTableModel::Preparing).data(StepTableModel::RawValueRole).toLongLong(), 20433250);
    // Rank 1 prepares 13 % longer than the mean of the two: tinted; Computing differs by 0.03 %: not.
    EXPECT_TRUE(model.index(row1, StepTableModel::Preparing).data(Qt::BackgroundRole).isValid());
    EXPECT_FALSE(model.index(row1, StepTableModel::Computing).data(Qt::BackgroundRole).isValid());

    // Footer: min / max name their ranks.
    const StepStatsModel& stats = *m_window->stepsDock()->statsModel();
    EXPECT_EQ(
        stats.index(StepStatsModel::Min, StepTableModel::Computing).data(StepStatsModel::RankIdRole).toLongLong(), 0);
    EXPECT_EQ(
        stats.index(StepStatsModel::Max, StepTableModel::Computing).data(StepStatsModel::RankIdRole).toLongLong(), 1);
    EXPECT_NEAR(
        stats.index(StepStatsModel::Mean, StepTableModel::Computing).data(StepStatsModel::RawValueRole).toDouble(),
        (8873756.0 + 8878295.0) / 2, 1.0);

    // The step combo lists step 50; choosing it re-queries that step.
    QComboBox* combo = m_window->stepsDock()->stepCombo();
    ASSERT_EQ(combo->count(), 2);
    combo->setCurrentIndex(1);
    EXPECT_EQ(m_window->workspace()->step(), 50);
    ASSERT_TRUE(m_window->waitUntilIdle());
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_EQ(
        model.index(rowOfRank(model, 0), StepTableModel::Computing).data(StepTableModel::RawValueRole).toLongLong(),
        8873756);

    // Sorting by Computing descending puts rank 1 first.
    m_window->stepsDock()->proxyModel()->sort(StepTableModel::Computing, Qt::DescendingOrder);
    EXPECT_EQ(
        m_window->stepsDock()->proxyModel()->index(0, StepTableModel::Rank).data().toString(), QStringLiteral("1"));
}

TEST_F(LoadedWindow, StepsTableShowsTheNewGenerationColumns)
{
    const StepTableModel& model = *m_window->stepsDock()->model();
    QTableView* table = m_window->stepsDock()->tableView();
    for (int c = StepTableModel::Rank; c <= StepTableModel::Preparing; ++c) {
        if (c == StepTableModel::Host)
            continue;
        EXPECT_TRUE(model.isColumnShown(c)) << c;
        EXPECT_FALSE(table->isColumnHidden(c)) << c;
    }
    // No host and no iteration trace in torch_npu files: those columns are hidden.
    for (int c : { int(StepTableModel::Host), int(StepTableModel::Total), int(StepTableModel::IterationInterval),
             int(StepTableModel::FpBp), int(StepTableModel::Tail) }) {
        EXPECT_FALSE(model.isColumnShown(c)) << c;
        EXPECT_TRUE(table->isColumnHidden(c)) << c;
        EXPECT_FALSE(model.index(0, c).data(StepTableModel::RawValueRole).isValid()) << c;
    }
    ASSERT_TRUE(m_window->overviewDock()->shownSplit().has_value());
    EXPECT_FALSE(m_window->overviewDock()->shownSplit()->iterationTrace);
}

TEST(MindInsightJobWindow, StepsAndOverviewShowTheOldGeneration)
{
    MainWindow window(testOptions());
    window.resize(1400, 900);
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    for (QAbstractItemModel* model : std::initializer_list<QAbstractItemModel*> {
             window.stepsDock()->model(), window.stepsDock()->statsModel(), window.stepsDock()->proxyModel() })
        testers.push_back(
            std::make_unique<QAbstractItemModelTester>(model, QAbstractItemModelTester::FailureReportingMode::Fatal));
    ASSERT_TRUE(openAndWait(window, { QStringLiteral(NPUSCOPE_TEST_DATA "/mindinsight_r13_job") }));

    const StepTableModel& model = *window.stepsDock()->model();
    QTableView* table = window.stepsDock()->tableView();
    ASSERT_EQ(model.rowCount(), 4);
    // Shown: rank, device, host and the iteration trace; hidden: the step_trace_time.csv columns it lacks.
    for (int c :
        { int(StepTableModel::Rank), int(StepTableModel::Device), int(StepTableModel::Host), int(StepTableModel::Total),
            int(StepTableModel::IterationInterval), int(StepTableModel::FpBp), int(StepTableModel::Tail) }) {
        EXPECT_TRUE(model.isColumnShown(c)) << c;
        EXPECT_FALSE(table->isColumnHidden(c)) << c;
    }
    for (int c = StepTableModel::Computing; c <= StepTableModel::Preparing; ++c) {
        EXPECT_FALSE(model.isColumnShown(c)) << c;
        EXPECT_TRUE(table->isColumnHidden(c)) << c;
    }
    // Mean over the 5 steps of rank 0 (step_trace_raw_0_detail_time.csv, 10 ns ticks): total 179168406 ns.
    const int row0 = rowOfRank(model, 0);
    ASSERT_GE(row0, 0);
    EXPECT_EQ(model.index(row0, StepTableModel::Total).data(StepTableModel::RawValueRole).toLongLong(), 179168406);
    EXPECT_EQ(model.index(row0, StepTableModel::Total).data().toString(), QStringLiteral("179168.406"));
    EXPECT_EQ(model.index(row0, StepTableModel::Computing).data().toString(), TimeFormat::kAbsent);
    EXPECT_EQ(model.index(row0, StepTableModel::Host).data().toString(), QStringLiteral("1"));

    // The host IP only after View > Show host IPs.
    auto* action = window.findChild<QAction*>(QStringLiteral("showHostIpsAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_FALSE(action->isChecked());
    action->setChecked(true);
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_EQ(model.index(row0, StepTableModel::Host).data().toString(), QStringLiteral("10.0.0.1"));
    action->setChecked(false);
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_EQ(model.index(row0, StepTableModel::Host).data().toString(), QStringLiteral("1"));

    // Overview: the iteration trace split, interval + fp+bp + tail = total.
    window.workspace()->setSelectedRank(0);
    ASSERT_TRUE(window.waitUntilIdle());
    const auto split = window.overviewDock()->shownSplit();
    ASSERT_TRUE(split.has_value());
    EXPECT_TRUE(split->iterationTrace);
    EXPECT_EQ(split->total(), 179168406);
    EXPECT_EQ(split->computingNotOverlapped + split->free + split->preparing, 0);
    const QImage image = window.overviewDock()->grab().toImage();
    keepImage(image, QStringLiteral("overview_mindinsight_r13.png"));
    EXPECT_GT(distinctColours(image), 8);
}

TEST_F(LoadedWindow, StatusBarCounts)
{
    EXPECT_TRUE(m_window->summaryText().contains(QStringLiteral("2 ranks")));
    EXPECT_TRUE(m_window->summaryText().contains(QStringLiteral("1 step")));
    EXPECT_FALSE(m_window->warningsBadge()->isHidden());
    EXPECT_EQ(m_window->warningsBadge()->objectName(), QStringLiteral("warningsBadge"));
}

TEST_F(LoadedWindow, OverviewFollowsSelectedRank)
{
    OverviewDock* overview = m_window->overviewDock();
    EXPECT_FALSE(overview->shownRank().has_value());
    ASSERT_TRUE(overview->shownSplit().has_value());
    EXPECT_EQ(overview->chart()->bars().size(), 2u);

    m_window->workspace()->setSelectedRank(1);
    ASSERT_TRUE(m_window->waitUntilIdle());
    ASSERT_EQ(overview->shownRank(), 1);
    const auto split = overview->shownSplit();
    ASSERT_TRUE(split.has_value());
    // Rank 1, step 50: Computing 8878.295 − Overlapped 4016.239 µs, and the other parts as in the csv.
    EXPECT_EQ(split->computingNotOverlapped, 8878295 - 4016239);
    EXPECT_EQ(split->overlapped, 4016239);
    EXPECT_EQ(split->communicationNotOverlapped, 96359047);
    EXPECT_EQ(split->free, 26675274);
    EXPECT_EQ(split->preparing, 20433250);
    EXPECT_TRUE(overview->pie()->title().contains(QStringLiteral("Rank 1")));

    // The steps table highlights the same rank.
    const StepTableModel& model = *m_window->stepsDock()->model();
    EXPECT_TRUE(model.index(rowOfRank(model, 1), StepTableModel::Rank).data(Qt::FontRole).isValid());

    m_window->workspace()->setSelectedRank(std::nullopt);
    EXPECT_FALSE(overview->shownRank().has_value());
}

TEST_F(LoadedWindow, IssuesFilter)
{
    ParseIssuesDock* issues = m_window->issuesDock();
    const int total = issues->model()->rowCount();
    EXPECT_EQ(issues->filterModel()->rowCount(), total);
    issues->filterEdit()->setText(QStringLiteral("no such text anywhere 1234"));
    EXPECT_EQ(issues->filterModel()->rowCount(), 0);
    issues->filterEdit()->clear();
    EXPECT_EQ(issues->filterModel()->rowCount(), total);
    issues->severityCombo()->setCurrentIndex(1); // errors
    for (int row = 0; row < issues->filterModel()->rowCount(); ++row)
        EXPECT_EQ(
            issues->filterModel()->index(row, IssueTableModel::Severity).data().toString(), QStringLiteral("error"));
}

TEST_F(LoadedWindow, GrabIsNotBlank)
{
    m_window->show();
    ASSERT_TRUE(m_window->waitUntilIdle());
    const QImage image = m_window->grab().toImage();
    keepImage(image, QStringLiteral("main_window.png"));
    ASSERT_FALSE(image.isNull());
    EXPECT_GT(distinctColours(image), 20);
    // The split colours of the overview are drawn.
    const QImage pie = m_window->overviewDock()->pie()->grab().toImage();
    EXPECT_GT(distinctColours(pie), 10);
}

TEST(MainWindowLoad, EmptyFolderFails)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow window(testOptions());
    QString message;
    EXPECT_FALSE(openAndWait(window, { dir.path() }, &message));
    EXPECT_FALSE(message.isEmpty());
    EXPECT_EQ(window.workspace()->database(), nullptr);
}

TEST(MainWindowLoad, DockNames)
{
    MainWindow window(testOptions());
    EXPECT_EQ(window.dockByName(QStringLiteral("STEPS")), window.stepsDock());
    EXPECT_EQ(window.dockByName(QStringLiteral("overview")), window.overviewDock());
    EXPECT_EQ(window.dockByName(QStringLiteral("parseIssuesDock")), window.issuesDock());
    EXPECT_EQ(window.dockByName(QStringLiteral("nope")), nullptr);
    for (QDockWidget* dock : window.docks())
        EXPECT_FALSE(dock->objectName().isEmpty());
}

TEST(RankBarChart, ThousandRanksStayReadable)
{
    RankBarChart chart;
    std::vector<RankBarChart::Bar> bars;
    for (int64_t r = 0; r < 1000; ++r) {
        query::StepSplit s;
        s.computingNotOverlapped = 1000000 + r * 10;
        s.communicationNotOverlapped = r == 700 ? 9000000 : 2000000;
        bars.push_back({ r, s });
    }
    chart.resize(600, 800);
    chart.setAvailableHeight(800);
    chart.setBars(std::move(bars));
    EXPECT_EQ(chart.rowHeight(), RankBarChart::kMinRowHeight);
    EXPECT_GE(chart.minimumHeight(), 1000 * RankBarChart::kMinRowHeight);
    EXPECT_GT(chart.labelEvery(), 1);
    const int y = chart.minimumHeight() - 10;
    const int index = chart.barAt(y);
    ASSERT_GE(index, 990);
    EXPECT_TRUE(chart.toolTipFor(index).contains(QStringLiteral("Rank %1").arg(index)));

    QSignalSpy clicked(&chart, &RankBarChart::rankClicked);
    chart.setSelectedRank(700);
    chart.resize(600, chart.minimumHeight());
    const QImage image = chart.grab().toImage();
    keepImage(image, QStringLiteral("rank_bars_1000.png"));
    EXPECT_GT(distinctColours(image), 4);

    // Eight ranks get tall rows and a label on each.
    std::vector<RankBarChart::Bar> few(8);
    for (int r = 0; r < 8; ++r)
        few[static_cast<size_t>(r)] = { r, query::StepSplit { 1000, 0, 500, 0, 0 } };
    chart.setBars(few);
    EXPECT_GE(chart.rowHeight(), 20);
    EXPECT_EQ(chart.labelEvery(), 1);
}

TEST(App, ScreenshotOfStepsView)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("steps.png"));
    QProcess app;
    app.start(QStringLiteral(NPUSCOPE_APP),
        { QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("steps"),
            QStringLiteral("--size"), QStringLiteral("1200x800"), kTwoRanks });
    ASSERT_TRUE(app.waitForFinished(120000));
    EXPECT_EQ(app.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(app.exitCode(), 0) << app.readAllStandardError().toStdString();
    ASSERT_TRUE(QFileInfo(png).exists());
    EXPECT_GT(QFileInfo(png).size(), 0);
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(1200, 800));
    EXPECT_GT(distinctColours(image), 10);
}

TEST(App, ScreenshotFailsCleanly)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("x.png"));
    QProcess unknownView;
    unknownView.start(QStringLiteral(NPUSCOPE_APP),
        { QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("bogus"), kTwoRanks });
    ASSERT_TRUE(unknownView.waitForFinished(60000));
    EXPECT_NE(unknownView.exitCode(), 0);
    EXPECT_FALSE(unknownView.readAllStandardError().isEmpty());

    QProcess noRanks;
    noRanks.start(QStringLiteral(NPUSCOPE_APP), { QStringLiteral("--screenshot"), png, dir.path() });
    ASSERT_TRUE(noRanks.waitForFinished(60000));
    EXPECT_NE(noRanks.exitCode(), 0);
    EXPECT_FALSE(QFileInfo(png).exists());
}

// Both file generations loaded (16 msprof-analyze summary ranks; rank 1 replaced by an old MindSpore folder): the
// cluster mean covers the 15 ranks of the majority generation and says so, instead of one rank's iteration split.
TEST(MixedGenerationsWindow, ClusterMeanCoversOneGeneration)
{
    MainWindow window(testOptions());
    window.resize(1400, 900);
    ASSERT_TRUE(openAndWait(window,
        { QStringLiteral(NPUSCOPE_TEST_DATA "/msprof_cluster_analysis/text"),
            QStringLiteral(NPUSCOPE_TEST_DATA "/mindspore_run1_profiler") }));
    window.workspace()->setSelectedRank(std::nullopt);
    ASSERT_TRUE(window.waitUntilIdle());
    const auto split = window.overviewDock()->shownSplit();
    ASSERT_TRUE(split.has_value());
    EXPECT_FALSE(split->iterationTrace);
    EXPECT_GT(split->computingNotOverlapped, 0);
    EXPECT_TRUE(window.overviewDock()->pie()->title().startsWith(QStringLiteral("Cluster mean of 15 of 16 ranks")))
        << window.overviewDock()->pie()->title().toStdString();
}

// Cluster steps: "All steps but the first (mean)" leaves each rank's warm-up step out, for the table and overview.
TEST(MindInsightJobWindow, MeanWithoutTheWarmUpStep)
{
    MainWindow window(testOptions());
    window.resize(1400, 900);
    ASSERT_TRUE(openAndWait(window, { QStringLiteral(NPUSCOPE_TEST_DATA "/mindinsight_r13_job") }));
    QComboBox* combo = window.stepsDock()->stepCombo();
    const int index = combo->findText(QStringLiteral("All steps but the first (mean)"));
    ASSERT_EQ(index, 1);
    const StepTableModel& model = *window.stepsDock()->model();
    const int row2 = rowOfRank(model, 2);
    ASSERT_GE(row2, 0);
    const qlonglong withWarmUp = model.index(row2, StepTableModel::Total).data(StepTableModel::RawValueRole).toLongLong();
    combo->setCurrentIndex(index);
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_TRUE(window.workspace()->skipFirstStep());
    EXPECT_FALSE(window.workspace()->step().has_value());
    const qlonglong without = model.index(rowOfRank(model, 2), StepTableModel::Total).data(StepTableModel::RawValueRole).toLongLong();
    EXPECT_GT(withWarmUp, 500000000); // step 1 of rank 2 is a 1.3 s warm-up
    EXPECT_LT(without, 200000000);
    EXPECT_TRUE(window.overviewDock()->pie()->title().contains(QStringLiteral("but the first")));
    combo->setCurrentIndex(0);
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_FALSE(window.workspace()->skipFirstStep());
}
