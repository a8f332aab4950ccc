// SPDX-License-Identifier: Apache-2.0
// The main window: loading (and failing to load) through MainWindow::open, the status bar, dock names, the Parse
// issues filter, and the rendered window and --screenshot images.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/issues/IssueFilterModel.h"
#include "npuscope/gui/issues/IssueTableModel.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/steps/OverviewDock.h"
#include "npuscope/gui/steps/StepSplitPie.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/RankImport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPixmap>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <filesystem>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

class MainWindowLoaded : public test::TwoRanksWindow { };

} // namespace

TEST_F(MainWindowLoaded, StatusBarCounts)
{
    EXPECT_TRUE(m_window->summaryText().contains(QStringLiteral("2 ranks")));
    EXPECT_TRUE(m_window->summaryText().contains(QStringLiteral("1 step")));
    EXPECT_FALSE(m_window->warningsBadge()->isHidden());
    EXPECT_EQ(m_window->warningsBadge()->objectName(), QStringLiteral("warningsBadge"));
}

TEST_F(MainWindowLoaded, IssuesFilter)
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

TEST_F(MainWindowLoaded, GrabIsNotBlank)
{
    m_window->show();
    ASSERT_TRUE(m_window->waitUntilIdle());
    const QImage image = m_window->grab().toImage();
    test::keepImage(image, QStringLiteral("main_window.png"));
    ASSERT_FALSE(image.isNull());
    EXPECT_GT(test::distinctColours(image, 3), 20);
    // The split colours of the overview are drawn.
    const QImage pie = m_window->overviewDock()->pie()->grab().toImage();
    EXPECT_GT(test::distinctColours(pie, 3), 10);
}

TEST(MainWindowLoad, EmptyFolderFails)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow window(test::testOptions());
    QString message;
    EXPECT_FALSE(test::openAndWait(window, { dir.path() }, &message));
    EXPECT_FALSE(message.isEmpty());
    EXPECT_EQ(window.workspace()->database(), nullptr);
}

TEST(MainWindowLoad, DockNames)
{
    MainWindow window(test::testOptions());
    EXPECT_EQ(window.dockByName(QStringLiteral("STEPS")), window.stepsDock());
    EXPECT_EQ(window.dockByName(QStringLiteral("overview")), window.overviewDock());
    EXPECT_EQ(window.dockByName(QStringLiteral("parseIssuesDock")), window.issuesDock());
    EXPECT_EQ(window.dockByName(QStringLiteral("nope")), nullptr);
    for (QDockWidget* dock : window.docks())
        EXPECT_FALSE(dock->objectName().isEmpty());
}

TEST(AppScreenshot, ScreenshotOfStepsView)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("steps.png"));
    QProcess app;
    app.start(QStringLiteral(NPUSCOPE_APP),
        { QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("steps"),
            QStringLiteral("--size"), QStringLiteral("1200x800"), test::kTwoRanks });
    ASSERT_TRUE(app.waitForFinished(120000));
    EXPECT_EQ(app.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(app.exitCode(), 0) << app.readAllStandardError().toStdString();
    ASSERT_TRUE(QFileInfo(png).exists());
    EXPECT_GT(QFileInfo(png).size(), 0);
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(1200, 800));
    EXPECT_GT(test::distinctColours(image, 3), 10);
}

TEST(AppScreenshot, ScreenshotFailsCleanly)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("x.png"));
    QProcess unknownView;
    unknownView.start(QStringLiteral(NPUSCOPE_APP),
        { QStringLiteral("--screenshot"), png, QStringLiteral("--view"), QStringLiteral("bogus"), test::kTwoRanks });
    ASSERT_TRUE(unknownView.waitForFinished(60000));
    EXPECT_NE(unknownView.exitCode(), 0);
    EXPECT_FALSE(unknownView.readAllStandardError().isEmpty());

    QProcess noRanks;
    noRanks.start(QStringLiteral(NPUSCOPE_APP), { QStringLiteral("--screenshot"), png, dir.path() });
    ASSERT_TRUE(noRanks.waitForFinished(60000));
    EXPECT_NE(noRanks.exitCode(), 0);
    EXPECT_FALSE(QFileInfo(png).exists());
}

// A folder of `npuscope-cli import` rank files opens like any folder (File → Open imported folder… is there for it);
// the progress dialog counts the ranks read.
TEST(MainWindowLoad, OpensAnImportedFolder)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::filesystem::path root(dir.path().toStdString());
    testgen::GeneratorOptions g;
    g.outDir = (root / "raw").string();
    g.ranks = 4;
    g.traceMb = 0;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(g, error)) << error;
    std::vector<std::string> rankDirs;
    for (const auto& e : std::filesystem::directory_iterator(g.outDir)) {
        if (e.is_directory())
            rankDirs.push_back(e.path().string());
    }
    const auto imported = load::RankImport::importRanks(rankDirs, (root / "imported").string());
    ASSERT_TRUE(imported.errors.empty());
    MainWindow window(test::testOptions());
    bool found = false;
    for (QAction* menu : window.menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction* a : menu->menu()->actions())
            found = found || a->objectName() == QStringLiteral("openImportedAction");
    }
    EXPECT_TRUE(found);
    QString message;
    ASSERT_TRUE(test::openAndWait(window, { QString::fromStdString((root / "imported").string()) }, &message))
        << message.toStdString();
    EXPECT_TRUE(window.summaryText().contains(QStringLiteral("4 ranks"))) << window.summaryText().toStdString();

    load::LoadProgress progress;
    progress.currentFile = (root / "imported" / "rank_2.nprank").string();
    progress.ranksDone = 3;
    progress.ranksTotal = 4;
    EXPECT_TRUE(MainWindow::progressText(progress).contains(QStringLiteral("3 of 4 ranks imported")))
        << MainWindow::progressText(progress).toStdString();
}
