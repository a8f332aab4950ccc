// SPDX-License-Identifier: Apache-2.0
// First run and everyday use (issue 16): a bad input says so without a stuck progress dialog, problems found after
// the load (a broken trace_view.json) reach Parse issues and turn the badge red, one click selects a rank everywhere
// and Esc clears it, rank labels never overlap, every table exports exactly its model, charts save SVG, Help opens.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/app/WelcomePage.h"
#include "npuscope/gui/comm/LinkTableModel.h"
#include "npuscope/gui/comm/LinksDock.h"
#include "npuscope/gui/common/RankBarChart.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/OverviewDock.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/query/MetricDefinitions.h"

#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

// RFC 4180 fields of a CSV text, row by row.
std::vector<QStringList> parseCsv(const QString& text)
{
    std::vector<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n'))
                ++i;
            row << field;
            field.clear();
            rows.push_back(row);
            row.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty()) {
        row << field;
        rows.push_back(row);
    }
    return rows;
}

int errorRowsWith(const ParseIssuesDock& dock, const QString& text)
{
    int n = 0;
    for (const auto& issue : dock.model()->issues()) {
        if (issue.severity == "error" && QString::fromStdString(issue.message).contains(text))
            ++n;
    }
    return n;
}

} // namespace

TEST(Ux, AFolderWithoutAProfileSaysSoWithoutAStuckProgressDialog)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    auto options = test::testOptions();
    options.interactive = true; // the progress dialog and the message box are what this test is about
    MainWindow window(options);
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(window.welcomePage()->isVisible());

    QString message;
    EXPECT_FALSE(test::openAndWait(window, { dir.path() }, &message));
    // An empty folder says so, not the sentence of a folder whose files are not a profile.
    EXPECT_TRUE(message.startsWith(QStringLiteral("Cannot open "))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("folder is empty"))) << message.toStdString();
    // The progress dialog is gone (not just scheduled for deletion) before the message shows.
    EXPECT_TRUE(window.findChildren<QProgressDialog*>().isEmpty());
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("nothingLoadedBox"));
    ASSERT_TRUE(box);
    EXPECT_TRUE(box->isVisible());
    // One sentence and the "What can I open?" link, not a list of formats.
    EXPECT_TRUE(box->text().contains(QStringLiteral("folder is empty")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("What can I open?")));
    EXPECT_LT(box->text().size(), 400);
    // OK closes it at once: nothing else holds the window.
    box->button(QMessageBox::Ok)->click();
    EXPECT_TRUE(
        test::waitFor([&] { return !window.findChild<QMessageBox*>(QStringLiteral("nothingLoadedBox")); }, 5000));
    EXPECT_TRUE(window.welcomePage()->isVisible());
    EXPECT_TRUE(window.summaryText().startsWith(QStringLiteral("Cannot open ")));
}

TEST(Ux, EachUnusableInputHasItsOwnMessage)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow window(test::testOptions());
    const QString missing = dir.filePath(QStringLiteral("no-such-folder"));
    const QString empty = dir.filePath(QStringLiteral("empty"));
    const QString noProfile = dir.filePath(QStringLiteral("notes"));
    const QString unknownFile = dir.filePath(QStringLiteral("notes/readme.txt"));
    ASSERT_TRUE(QDir().mkpath(empty));
    ASSERT_TRUE(QDir().mkpath(noProfile));
    QFile text(unknownFile);
    ASSERT_TRUE(text.open(QIODevice::WriteOnly));
    text.write("hello\n");
    text.close();
    QString message;
    EXPECT_FALSE(test::openAndWait(window, { missing }, &message));
    EXPECT_TRUE(message.contains(QStringLiteral("path does not exist"))) << message.toStdString();
    EXPECT_FALSE(test::openAndWait(window, { empty }, &message));
    EXPECT_TRUE(message.contains(QStringLiteral("folder is empty"))) << message.toStdString();
    EXPECT_FALSE(test::openAndWait(window, { unknownFile }, &message));
    EXPECT_TRUE(message.contains(QStringLiteral("not a profiler file npuscope knows"))) << message.toStdString();
    EXPECT_FALSE(test::openAndWait(window, { noProfile }, &message));
    EXPECT_TRUE(message.startsWith(QStringLiteral("No Ascend profiling data found in"))) << message.toStdString();
}

TEST(Ux, GarbageTraceViewGivesAnErrorIssueAndARedBadge)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString rankDir = dir.path() + QStringLiteral("/rank0_ascend_pt");
    ASSERT_TRUE(test::copyTree(test::kTwoRanks + QStringLiteral("/rank0_ascend_pt"), rankDir));
    QFile trace(rankDir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
    ASSERT_TRUE(trace.open(QIODevice::WriteOnly | QIODevice::Truncate));
    trace.write(QByteArray("\x7f"
                           "ELF garbage, not JSON at all \x01\x02\x03",
        36));
    trace.close();

    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { rankDir }));
    EXPECT_FALSE(window.welcomePage()->isVisible());
    EXPECT_EQ(window.summaryText(), QStringLiteral("1 rank \u00b7 1 step"));
    // The load's first look at the deferred trace (load::DeferredSniff) already found it is not JSON: the badge counts
    // the error and is red (not "clean") before any view reads the timeline.
    EXPECT_GE(window.problemCount(), 1);
    EXPECT_FALSE(window.warningsBadge()->property("clean").toBool());

    window.show();
    window.timelineDock()->expandAllRanks();
    ASSERT_TRUE(window.waitUntilIdle());
    // Expanding the rank neither crashes nor clears the error; Parse issues lists it.
    EXPECT_GE(window.problemCount(), 1);
    EXPECT_FALSE(window.warningsBadge()->property("clean").toBool());
    EXPECT_TRUE(window.warningsBadge()->text().contains(QStringLiteral("problem")));
    window.showIssues();
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_GE(errorRowsWith(*window.issuesDock(), QStringLiteral("trace_view.json"))
            + errorRowsWith(*window.issuesDock(), QStringLiteral("syntax error")),
        1);
    // The issue names the file (its File column), the message says why.
    bool named = false;
    for (const auto& issue : window.issuesDock()->model()->issues())
        named = named
            || (issue.severity == "error"
                && QString::fromStdString(issue.file.value_or("")).endsWith(QStringLiteral("trace_view.json"))
                && QString::fromStdString(issue.message).contains(QStringLiteral("not JSON")));
    EXPECT_TRUE(named);
}

TEST(Ux, OneClickSelectsTheRankEverywhereAndEscClearsIt)
{
    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.show();
    ASSERT_TRUE(window.waitUntilIdle());
    ClusterStepsDock* steps = window.stepsDock();
    QTableView* table = steps->tableView();
    ASSERT_EQ(table->model()->rowCount(), 2);
    // The summary names the slowest rank by the one definition every view uses.
    EXPECT_TRUE(
        steps->findChild<QLabel*>(QStringLiteral("stepsSummary"))->text().contains(QStringLiteral("slowest rank")));

    const QModelIndex second = table->model()->index(1, 0);
    const int64_t rank = second.data(StepTableModel::RankIdRole).toLongLong();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(second).center());
    ASSERT_EQ(window.workspace()->selectedRank(), std::optional<int64_t>(rank));
    ASSERT_TRUE(window.waitUntilIdle());
    // The table's selection, its bold current row and the Overview bars agree.
    EXPECT_EQ(table->selectionModel()->selectedRows().size(), 1);
    EXPECT_EQ(table->selectionModel()->selectedRows().front().row(), 1);
    auto* model = qobject_cast<const StepTableModel*>(
        qobject_cast<const QSortFilterProxyModel*>(table->model())->sourceModel());
    ASSERT_TRUE(model);
    EXPECT_EQ(model->highlightedRank(), std::optional<int64_t>(rank));
    EXPECT_EQ(window.overviewDock()->chart()->selectedRank(), std::optional<int64_t>(rank));

    // Esc clears it everywhere.
    window.activateWindow();
    EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Escape);
    EXPECT_EQ(window.workspace()->selectedRank(), std::nullopt);
    EXPECT_EQ(model->highlightedRank(), std::nullopt);
    EXPECT_EQ(window.overviewDock()->chart()->selectedRank(), std::nullopt);
}

TEST(Ux, RankLabelsNeverOverlap)
{
    for (const int ranks : { 8, 256, 1024 }) {
        for (const int available : { 220, 600, 1400 }) {
            RankBarChart chart;
            chart.resize(600, available);
            chart.setAvailableHeight(available);
            std::vector<RankBarChart::Bar> bars(static_cast<size_t>(ranks));
            for (int i = 0; i < ranks; ++i) {
                bars[static_cast<size_t>(i)].rank = i;
                bars[static_cast<size_t>(i)].split.computingNotOverlapped = 1000 + i;
            }
            chart.setBars(std::move(bars));
            // A selected rank next to a scale label (rank 7 beside rank 5 or 10) must not be drawn over it.
            for (const int64_t selected : { int64_t(-1), int64_t(1), int64_t(7), int64_t(ranks - 2) }) {
                chart.setSelectedRank(selected < 0 ? std::nullopt : std::optional<int64_t>(selected));
                const std::vector<QRect> rects = chart.labelRects();
                ASSERT_FALSE(rects.empty());
                for (size_t i = 0; i < rects.size(); ++i) {
                    for (size_t j = i + 1; j < rects.size(); ++j)
                        ASSERT_FALSE(rects[i].intersects(rects[j]))
                            << ranks << " ranks, height " << available << ", selected " << selected << ": label " << i
                            << " and " << j;
                }
                if (selected >= 0) {
                    const bool drawn = std::any_of(rects.begin(), rects.end(),
                        [&](const QRect& r) { return chart.barAt(r.center().y()) == static_cast<int>(selected); });
                    EXPECT_TRUE(drawn) << "the selected rank " << selected << " has its label";
                }
            }
        }
    }
}

TEST(Ux, EveryTableExportsCsvEqualToItsModel)
{
    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.show();
    // Show every dock once so each has its rows.
    for (QDockWidget* dock : window.docks()) {
        dock->show();
        dock->raise();
        ASSERT_TRUE(window.waitUntilIdle());
    }
    int tables = 0;
    int withRows = 0;
    for (QTableView* view : window.findChildren<QTableView*>()) {
        auto* setup = view->findChild<TableSetup*>();
        ASSERT_TRUE(setup) << "table " << view->objectName().toStdString() << " has no Copy / Export CSV";
        ASSERT_TRUE(setup->copyAction());
        ASSERT_TRUE(setup->exportAction());
        ++tables;
        const QAbstractItemModel* model = view->model();
        std::vector<int> columns;
        for (int visual = 0; visual < view->horizontalHeader()->count(); ++visual) {
            const int logical = view->horizontalHeader()->logicalIndex(visual);
            if (!view->isColumnHidden(logical))
                columns.push_back(logical);
        }
        const std::vector<QStringList> csv = parseCsv(setup->csvText());
        ASSERT_EQ(csv.size(), static_cast<size_t>(model->rowCount() + 1)) << view->objectName().toStdString();
        ASSERT_EQ(csv[0].size(), static_cast<qsizetype>(columns.size()));
        for (size_t c = 0; c < columns.size(); ++c)
            EXPECT_EQ(csv[0][static_cast<qsizetype>(c)],
                model->headerData(columns[c], Qt::Horizontal).toString().replace(QLatin1Char('\n'), QLatin1Char(' ')))
                << view->objectName().toStdString();
        for (int r = 0; r < model->rowCount(); ++r) {
            ASSERT_EQ(csv[static_cast<size_t>(r + 1)].size(), static_cast<qsizetype>(columns.size()));
            for (size_t c = 0; c < columns.size(); ++c)
                EXPECT_EQ(csv[static_cast<size_t>(r + 1)][static_cast<qsizetype>(c)],
                    model->index(r, columns[c]).data().toString())
                    << view->objectName().toStdString() << " row " << r << " column " << columns[c];
        }
        if (model->rowCount() > 0)
            ++withRows;
    }
    EXPECT_GE(tables, 8);
    EXPECT_GE(withRows, 5);
}

TEST(Ux, ChartsSaveSvgAndPng)
{
    MainWindow window(test::testOptions());
    window.resize(1400, 900);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.focusDock(window.overviewDock());
    window.show();
    ASSERT_TRUE(window.waitUntilIdle());
    QTemporaryDir dir;
    QString error;
    const QString svg = dir.path() + QStringLiteral("/bars.svg");
    ASSERT_TRUE(window.overviewDock()->chart()->saveImage(svg, &error)) << error.toStdString();
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    EXPECT_TRUE(text.contains("<svg"));
    EXPECT_TRUE(text.contains("rank 1")); // the labels are text, not pixels
    const QString png = dir.path() + QStringLiteral("/bars.png");
    ASSERT_TRUE(window.overviewDock()->chart()->saveImage(png, &error)) << error.toStdString();
    EXPECT_FALSE(QImage(png).isNull());
    EXPECT_FALSE(window.overviewDock()->chart()->saveImage(dir.path() + QStringLiteral("/no/such/dir/x.png"), &error));
    EXPECT_FALSE(error.isEmpty());
}

TEST(Ux, HelpOpensOnF1AndDefinitionsMatchTheDocs)
{
    MainWindow window(test::testOptions());
    window.resize(1200, 800);
    window.show();
    window.activateWindow();
    EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_F1);
    auto* sheet = window.findChild<QDialog*>(QStringLiteral("shortcutSheet"));
    ASSERT_TRUE(sheet);
    EXPECT_TRUE(sheet->isVisible());
    sheet->close();

    // Every definition the GUI shows is word for word in docs/metrics.md.
    std::ifstream in(std::filesystem::path(NPUSCOPE_TEST_DATA) / "../../docs/metrics.md");
    ASSERT_TRUE(in);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string doc = buffer.str();
    ASSERT_GE(query::MetricDefinitions::all().size(), 10u);
    for (const auto& d : query::MetricDefinitions::all())
        EXPECT_NE(doc.find(std::string(d.definition)), std::string::npos) << d.name;
    // The Cluster steps headers show them as tooltips: the definition's line, then the colour rule.
    const auto stage = query::MetricDefinitions::of("Stage");
    EXPECT_FALSE(stage.empty());
    StepTableModel model;
    bool found = false;
    for (int c = 0; c < model.columnCount(); ++c) {
        if (model.headerData(c, Qt::Horizontal).toString().startsWith(QStringLiteral("Stage"))) {
            const QStringList lines = model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().split('\n');
            EXPECT_EQ(lines.front().toStdString(), std::string(stage));
            EXPECT_TRUE(lines.back().startsWith(QStringLiteral("Colour: deviation from the column's median")));
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

TEST(Ux, LinksFilterAsYouTypeKeepsTheSortAndShowsInheritedFiltersAsChips)
{
    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    window.focusDock(window.linksDock());
    window.show();
    ASSERT_TRUE(window.waitUntilIdle());
    LinksDock* dock = window.linksDock();
    auto* table = dock->findChild<QTableView*>(QStringLiteral("clusterLinksTable"));
    ASSERT_TRUE(table);
    const int all = table->model()->rowCount();
    ASSERT_GT(all, 1);
    table->sortByColumn(LinkTableModel::Src, Qt::DescendingOrder);

    // No Enter: the filter applies while typing, and the user's sort stays.
    QTest::keyClicks(dock->findChild<QLineEdit*>(QStringLiteral("linkSrcFilter")), QStringLiteral("1"));
    ASSERT_TRUE(window.waitUntilIdle());
    const int filtered = table->model()->rowCount();
    EXPECT_GT(filtered, 0);
    EXPECT_LT(filtered, all);
    for (int r = 0; r < filtered; ++r)
        EXPECT_EQ(table->model()->index(r, LinkTableModel::Src).data(LinkTableModel::RawValueRole).toLongLong(), 1);
    EXPECT_EQ(table->horizontalHeader()->sortIndicatorSection(), static_cast<int>(LinkTableModel::Src));
    EXPECT_EQ(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);

    // The step chosen elsewhere shows as a chip; its click drops the filter.
    EXPECT_TRUE(dock->stepChip()->isHidden());
    window.workspace()->setStep(50);
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_FALSE(dock->stepChip()->isHidden());
    EXPECT_TRUE(dock->stepChip()->text().contains(QStringLiteral("step 50")));
    dock->stepChip()->click();
    EXPECT_EQ(window.workspace()->step(), std::nullopt);
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_TRUE(dock->stepChip()->isHidden());
}
