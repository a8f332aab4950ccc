// SPDX-License-Identifier: Apache-2.0
// Issue 16, tables and selection: every table of every dock has its Copy / Export CSV toolbar and header tooltips that
// define the column (the metrics of query::MetricDefinitions word for word); a single click selects a rank, group or
// operator in the docks that list them and Esc clears what a click selected; the timeline canvas follows the dark
// theme; a folder of garbage named like profiler output is not a clean "1 rank · 0 steps".
#include "GuiTestSupport.h"

#include "npuscope/gui/advice/AdviceTableModel.h"
#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/app/WelcomePage.h"
#include "npuscope/gui/collectives/BlameTableModel.h"
#include "npuscope/gui/collectives/CollectivesTableModel.h"
#include "npuscope/gui/comm/CommDurationDock.h"
#include "npuscope/gui/comm/CommDurationModel.h"
#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/comm/LinkTableModel.h"
#include "npuscope/gui/comm/LinksDock.h"
#include "npuscope/gui/common/MetricText.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/issues/IssueTableModel.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/memory/ModuleMemoryModel.h"
#include "npuscope/gui/memory/OperatorMemoryModel.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/timeline/AreaStatsModel.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineView.h"
#include "npuscope/query/MetricDefinitions.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

// Shows every dock once so each has queried its rows.
void showEveryDock(MainWindow& window)
{
    for (QDockWidget* dock : window.docks()) {
        dock->show();
        dock->raise();
        ASSERT_TRUE(window.waitUntilIdle());
    }
}

// Clicks the first cell of a view's row.
void clickRow(QTableView* view, int row)
{
    const QModelIndex index = view->model()->index(row, 0);
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
}

} // namespace

TEST(UxTables, EveryTableHasACopyAndExportToolbarThatWritesItsModel)
{
    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.show();
    showEveryDock(window);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    int withToolbar = 0;
    for (QTableView* view : window.findChildren<QTableView*>()) {
        TableSetup* setup = TableSetup::of(view);
        ASSERT_TRUE(setup) << view->objectName().toStdString();
        // The Cluster steps footer continues the table above it: context menu only.
        if (view->objectName() == QStringLiteral("stepsFooter"))
            continue;
        QWidget* bar = setup->toolbar();
        ASSERT_TRUE(bar) << "table " << view->objectName().toStdString() << " has no toolbar";
        auto* copy = bar->findChild<QToolButton*>(QStringLiteral("tableCopyButton"));
        auto* exportButton = bar->findChild<QToolButton*>(QStringLiteral("tableExportButton"));
        ASSERT_TRUE(copy && exportButton) << view->objectName().toStdString();
        ++withToolbar;
        // What Export CSV writes is the model, row for row (the CSV text itself is checked against the model by
        // UxTest's EveryTableExportsCsvEqualToItsModel).
        const QString path = dir.filePath(view->objectName() + QStringLiteral(".csv"));
        QString error;
        ASSERT_TRUE(setup->writeCsv(path, &error)) << error.toStdString();
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_EQ(QString::fromUtf8(file.readAll()), setup->csvText()) << view->objectName().toStdString();
        // A table on a visible page shows its row count on the toolbar.
        if (bar->isVisible() && TableSetup::of(view)->view() == view && view->isVisible()) {
            auto* count = bar->findChild<QLabel*>(QStringLiteral("tableRowCount"));
            ASSERT_TRUE(count);
            EXPECT_TRUE(count->text().startsWith(QString::number(view->model()->rowCount())))
                << view->objectName().toStdString() << ": " << count->text().toStdString();
        }
    }
    EXPECT_GE(withToolbar, 12);
}

TEST(UxTables, HeaderTooltipsDefineEveryColumn)
{
    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.show();
    showEveryDock(window);
    for (QTableView* view : window.findChildren<QTableView*>()) {
        if (view->horizontalHeader()->isHidden())
            continue;
        const QAbstractItemModel* model = view->model();
        for (int c = 0; c < model->columnCount(); ++c) {
            if (view->isColumnHidden(c))
                continue;
            const QString title = model->headerData(c, Qt::Horizontal).toString();
            const QString tip = model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            EXPECT_FALSE(tip.isEmpty()) << view->objectName().toStdString() << " column " << title.toStdString();
            EXPECT_NE(tip, title) << view->objectName().toStdString() << " column " << title.toStdString();
        }
    }

    // The communication columns start with the definition of query::MetricDefinitions (docs/metrics.md).
    CommDurationModel duration;
    const auto ratio = query::MetricDefinitions::of("Wait Ratio");
    ASSERT_FALSE(ratio.empty());
    const QString tip = duration.headerData(CommDurationModel::WaitRatio, Qt::Horizontal, Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.startsWith(
        QStringLiteral("Wait Ratio: ") + QString::fromUtf8(ratio.data(), static_cast<qsizetype>(ratio.size()))))
        << tip.toStdString();
    LinkTableModel links;
    bool bandwidth = false;
    for (int c = 0; c < links.columnCount(); ++c) {
        if (links.headerData(c, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("Bandwidth: ") + MetricText::definition("Bandwidth")))
            bandwidth = true;
    }
    EXPECT_TRUE(bandwidth);
    // The tables of Collectives, Blame, Area statistics, Memory detail, Communication groups, Advice and Parse issues
    // too: each has columns whose tooltip starts with their metric's definition.
    CollectivesTableModel collectives;
    BlameTableModel blame;
    AreaStatsModel area;
    ModuleMemoryModel modules;
    OperatorMemoryModel blocks;
    GroupTableModel groupTable;
    AdviceTableModel advice;
    IssueTableModel issues;
    for (const QAbstractItemModel* model : std::initializer_list<const QAbstractItemModel*> {
             &collectives, &blame, &area, &modules, &blocks, &groupTable, &advice, &issues }) {
        int defined = 0;
        for (int c = 0; c < model->columnCount(); ++c) {
            const std::string_view metric
                = MetricText::metricOf(*model, model->headerData(c, Qt::Horizontal).toString());
            if (metric.empty())
                continue;
            ++defined;
            const QString columnTip = model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            EXPECT_TRUE(columnTip.startsWith(MetricText::name(metric) + QStringLiteral(": ")
                + QString::fromUtf8(query::MetricDefinitions::of(metric).data())))
                << model->metaObject()->className() << ": " << columnTip.toStdString();
        }
        EXPECT_GE(defined, 1) << model->metaObject()->className();
    }
    // Every metric the GUI maps a column to is defined.
    for (const auto& d : query::MetricDefinitions::all())
        EXPECT_FALSE(MetricText::definition(d.name).isEmpty()) << d.name;
}

TEST(UxSelection, ASingleClickSelectsInEveryListAndEscClearsIt)
{
    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.show();
    Workspace* ws = window.workspace();

    // Communication duration: a rank.
    window.focusDock(window.commDurationDock());
    ASSERT_TRUE(window.waitUntilIdle());
    auto* duration = window.commDurationDock()->findChild<QTableView*>(QStringLiteral("durationTable"));
    ASSERT_TRUE(duration);
    ASSERT_GE(duration->model()->rowCount(), 2);
    clickRow(duration, 1);
    const auto durationRank = duration->model()->index(1, 0).data(CommDurationModel::RankIdRole).toLongLong();
    EXPECT_EQ(ws->selectedRank(), std::optional<int64_t>(durationRank));
    ASSERT_TRUE(window.waitUntilIdle());
    // The timeline scrolled to it (its row is in view).
    EXPECT_EQ(duration->selectionModel()->selectedRows().size(), 1);

    // Links: the link's source rank.
    ws->setSelectedRank(std::nullopt);
    window.focusDock(window.linksDock());
    ASSERT_TRUE(window.waitUntilIdle());
    auto* links = window.linksDock()->findChild<QTableView*>(QStringLiteral("clusterLinksTable"));
    ASSERT_TRUE(links);
    ASSERT_GE(links->model()->rowCount(), 1);
    clickRow(links, 0);
    const auto src = links->model()->index(0, LinkTableModel::Src).data(LinkTableModel::RawValueRole).toLongLong();
    EXPECT_EQ(ws->selectedRank(), std::optional<int64_t>(src));

    // Groups: a group.
    window.focusDock(window.groupsDock());
    ASSERT_TRUE(window.waitUntilIdle());
    auto* groups = window.groupsDock()->findChild<QTableView*>(QStringLiteral("groupsTable"));
    ASSERT_TRUE(groups);
    ASSERT_GE(groups->model()->rowCount(), 1);
    // The first row with a hash (a rank set listed without one names no op and selects nothing).
    for (int row = 0; row < groups->model()->rowCount() && !ws->groupHash(); ++row)
        clickRow(groups, row);
    EXPECT_TRUE(ws->groupHash().has_value());
    ws->setGroupHash(std::nullopt);

    // Operators: an operator (no double-click needed).
    window.focusDock(window.operatorDock());
    ASSERT_TRUE(window.waitUntilIdle());
    auto* ops = window.operatorDock()->findChild<QTableView*>(QStringLiteral("operatorTable"));
    ASSERT_TRUE(ops);
    ASSERT_TRUE(test::waitFor([&] { return ops->model()->rowCount() > 0; }, 30000));
    clickRow(ops, 0);
    ASSERT_TRUE(ws->selectedOperator().has_value());
    EXPECT_EQ(ops->selectionModel()->selectedRows().size(), 1);
    ws->setSelectedRank(src);

    // Esc clears the rank and the operator; the operator table drops its highlighted row.
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    ops->setFocus();
    QTest::keyClick(ops, Qt::Key_Escape);
    EXPECT_EQ(ws->selectedRank(), std::nullopt);
    EXPECT_FALSE(ws->selectedOperator().has_value());
    EXPECT_TRUE(ops->selectionModel()->selectedRows().isEmpty());
}

TEST(UxSelection, TheTimelineScrollsToTheSelectedRank)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions o;
    o.traceMb = 0;
    o.ranks = 16;
    MainWindow window(test::testOptions());
    window.resize(1400, 900);
    ASSERT_TRUE(test::generateAndOpen(window, o, QString::fromStdString((dir.path() / "gen").string())));
    window.focusDock(window.timelineDock());
    window.show();
    ASSERT_TRUE(window.waitUntilIdle());
    TimelineView* view = window.timelineDock()->findChild<TimelineView*>();
    ASSERT_TRUE(view);
    window.workspace()->setSelectedRank(13);
    ASSERT_TRUE(window.waitUntilIdle());
    TimelineRenderer& renderer = view->renderer();
    int index = -1;
    for (size_t i = 0; i < renderer.ranks().size(); ++i) {
        if (renderer.ranks()[i].rank == 13)
            index = static_cast<int>(i);
    }
    ASSERT_GE(index, 0);
    const int row = renderer.rowOfRank(index);
    ASSERT_GE(row, 0);
    const int top = renderer.rowTop(renderer.rows()[static_cast<size_t>(row)]);
    EXPECT_GE(top, renderer.scrollTop());
    EXPECT_LT(top, view->height());
}

TEST(UxTheme, TimelineCanvasFollowsTheDarkTheme)
{
    struct Restore {
        ~Restore() { Appearance::apply(Appearance::Choices {}); }
    } restore;
    MainWindow window(test::testOptions());
    window.resize(1400, 900);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.focusDock(window.timelineDock());
    window.show();
    ASSERT_TRUE(window.waitUntilIdle());
    TimelineView* view = window.timelineDock()->findChild<TimelineView*>();
    ASSERT_TRUE(view);
    const QPoint probe(view->width() - 30, view->height() - 8); // the canvas under the last row
    const QColor light = view->grab().toImage().pixelColor(probe);
    EXPECT_GT(light.lightness(), 200);
    EXPECT_FALSE(view->renderer().isDark());

    Appearance::Choices dark;
    dark.theme = Appearance::Theme::Dark;
    Appearance::apply(dark);
    QApplication::processEvents();
    const QImage image = view->grab().toImage();
    EXPECT_TRUE(view->renderer().isDark());
    EXPECT_LT(image.pixelColor(probe).lightness(), 80);
    // The label column too (not only the track area).
    EXPECT_LT(image.pixelColor(5, view->height() - 8).lightness(), 90);
    // And every dock: the ones the window's style sheet styles kept the light palette until it was polished again.
    for (QDockWidget* dock : window.docks())
        EXPECT_TRUE(Appearance::isDark(dock->palette())) << dock->objectName().toStdString();

    // Back to the light theme.
    Appearance::Choices lightTheme;
    lightTheme.theme = Appearance::Theme::Light;
    Appearance::apply(lightTheme);
    QApplication::processEvents();
    EXPECT_GT(view->grab().toImage().pixelColor(probe).lightness(), 200);
    EXPECT_FALSE(view->renderer().isDark());
}

TEST(UxErrors, AFolderOfGarbageNamedLikeProfilerOutputIsNotACleanLoad)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString out = dir.path() + QStringLiteral("/x_ascend_pt/ASCEND_PROFILER_OUTPUT");
    ASSERT_TRUE(QDir().mkpath(out));
    auto write = [&out](const char* name, const QByteArray& bytes) {
        QFile f(out + QLatin1Char('/') + QLatin1String(name));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    write("trace_view.json", QByteArray("\x89PNG\r\n\x1a\n garbage, not JSON", 26));
    write("step_trace_time.csv", QByteArray("hello,world\nfoo;bar\n\x01\x02junk\n"));
    write("kernel_details.csv", QByteArray("lorem ipsum\n"));
    write("communication.json", QByteArray("not json"));

    auto options = test::testOptions();
    options.interactive = true; // the message box is what this test is about
    MainWindow window(options);
    window.resize(1200, 800);
    window.show();
    QString message;
    const bool loaded = test::openAndWait(window, { dir.path() }, &message);
    ASSERT_TRUE(window.waitUntilIdle());
    // Either nothing usable was found and the user is told so, or the problems are counted: never a clean load.
    if (loaded) {
        EXPECT_GE(window.problemCount(), 1);
        EXPECT_FALSE(window.warningsBadge()->property("clean").toBool());
        window.showIssues();
        ASSERT_TRUE(window.waitUntilIdle());
        EXPECT_GE(window.issuesDock()->model()->rowCount(), 1);
    }
    const auto saysSo = [](const QString& text) {
        return text.contains(QStringLiteral("nothing usable"), Qt::CaseInsensitive)
            || text.contains(QStringLiteral("No Ascend profiling data found"));
    };
    EXPECT_TRUE(saysSo(message) || saysSo(window.summaryText()))
        << message.toStdString() << " / " << window.summaryText().toStdString();
    EXPECT_FALSE(window.summaryText().contains(QStringLiteral("0 steps"))) << window.summaryText().toStdString();
}
