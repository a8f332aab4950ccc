// SPDX-License-Identifier: Apache-2.0
// The Advice dock (findings of a generated slow-rank cluster, Show evidence selects the rank and raises the view) and
// the self-contained HTML report (well-formed, no external resource, every finding; CLI --html and File > Export
// report write it).
#include "GuiTestSupport.h"

#include "npuscope/gui/advice/AdviceDock.h"
#include "npuscope/gui/advice/AdviceTableModel.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/steps/TimeOverviewDock.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/query/CriticalPath.h"
#include "npuscope/query/ReportText.h"
#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/query/advice/HtmlReport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QPushButton>
#include <QTableView>
#include <QTextBrowser>
#include <QXmlStreamReader>

#include <fstream>
#include <sstream>

using namespace npuscope;
using query::advice::AdviceQuery;
using query::advice::Finding;
using query::advice::HtmlReport;

namespace {

// 16 ranks, PP 2 × TP 2, rank 5 computes longer: the advice finds slow_rank 5 (tests/core/query/AdviceQueryTest.cpp).
std::string generateSlowRank(const test::ScratchDir& dir)
{
    testgen::GeneratorOptions o;
    o.outDir = (dir.path() / "gen").string();
    o.traceMb = 0;
    o.ranks = 16;
    o.pp = 2;
    o.tp = 2;
    o.slowRank = 5;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Parses html as XML (the report is XHTML-compatible): every element closed, only XML entities. Returns the error,
// empty when well-formed; counts the elements by name.
QString xmlError(const std::string& html, std::map<QString, int>* elements = nullptr)
{
    QXmlStreamReader reader(QByteArray::fromStdString(html));
    while (!reader.atEnd()) {
        if (reader.readNext() == QXmlStreamReader::StartElement && elements)
            ++(*elements)[reader.name().toString()];
    }
    return reader.hasError() ? QStringLiteral("line %1: %2").arg(reader.lineNumber()).arg(reader.errorString())
                             : QString();
}

void expectSelfContainedReport(const std::string& html, const std::vector<Finding>& findings)
{
    std::map<QString, int> elements;
    EXPECT_EQ(xmlError(html, &elements), QString());
    EXPECT_EQ(html.find("http://"), std::string::npos);
    EXPECT_EQ(html.find("https://"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(elements[QStringLiteral("html")], 1);
    size_t blocks = 0;
    for (size_t at = html.find("<div class=\"finding\""); at != std::string::npos;
         at = html.find("<div class=\"finding\"", at + 1))
        ++blocks;
    EXPECT_EQ(blocks, findings.size());
    EXPECT_GE(elements[QStringLiteral("svg")], 1);
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        EXPECT_NE(html.find("id=\"finding-" + std::to_string(i) + "\""), std::string::npos) << f.id;
        EXPECT_NE(html.find("<span class=\"rule\">" + HtmlReport::escape(f.id) + "</span>"), std::string::npos);
        EXPECT_NE(html.find(HtmlReport::escape(f.message)), std::string::npos) << f.id;
        EXPECT_NE(html.find(HtmlReport::escape(f.suggestion)), std::string::npos) << f.id;
    }
}

} // namespace

TEST(HtmlReport, EscapesEveryXmlSpecialCharacter)
{
    EXPECT_EQ(HtmlReport::escape("a<b> & \"c\" 'd'"), "a&lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;");
    EXPECT_EQ(HtmlReport::escape(std::string("x\x01y\tz")), "x y\tz");
    EXPECT_EQ(HtmlReport::escape("rank 16 \u2192 17"), "rank 16 \u2192 17");
}

TEST(HtmlReport, GeneratedSlowRankClusterIsWellFormedAndComplete)
{
    test::ScratchDir dir;
    const std::string folder = generateSlowRank(dir);
    auto db = test::openFolder(folder);
    ASSERT_TRUE(db);
    const auto findings = AdviceQuery::run(*db);
    ASSERT_FALSE(findings.empty());
    const std::string html = HtmlReport::build(
        *db, findings, { .paths = { folder + "/<odd & name>" }, .generatedAt = "2026-01-02 03:04" });
    expectSelfContainedReport(html, findings);
    // The input path is escaped, the generation time and the version are printed.
    EXPECT_NE(html.find("/&lt;odd &amp; name&gt;"), std::string::npos);
    EXPECT_NE(html.find("Generated 2026-01-02 03:04 by npuscope 0.1.0"), std::string::npos);
    // 16 ranks: a bar row each plus the mean; the slowest ranks table starts with rank 5.
    EXPECT_NE(html.find(">rank 15</text>"), std::string::npos);
    EXPECT_NE(html.find(">mean</text>"), std::string::npos);
    const size_t slowest = html.find("<h3>Slowest ranks</h3>");
    ASSERT_NE(slowest, std::string::npos);
    EXPECT_NE(html.find("<tr><td class=\"n\">5</td>", slowest), std::string::npos);
    EXPECT_EQ(html.find("<tr><td class=\"n\">", slowest), html.find("<tr><td class=\"n\">5</td>", slowest));
    // The input section: 16 rank folders.
    EXPECT_NE(html.find("16 rank folders"), std::string::npos);
}

// The critical path section: per step its length and shares, the path by rank and the communication ops with the most
// serial time, as query::CriticalPath computes them; without a path the section says it was not computed.
TEST(HtmlReport, CriticalPathSectionListsEveryStep)
{
    test::ScratchDir dir;
    const std::string folder = generateSlowRank(dir);
    auto db = test::openFolder(folder);
    ASSERT_TRUE(db);
    const auto findings = AdviceQuery::run(*db);
    const auto graph = query::DependencyGraphBuilder::build(*db);
    const auto steps = query::CriticalPath::run(graph);
    ASSERT_FALSE(steps.empty());
    const std::string html = HtmlReport::build(*db, findings,
        { .paths = { folder }, .generatedAt = "x", .skipFirstStep = true, .graph = &graph, .criticalPath = &steps });
    expectSelfContainedReport(html, findings);
    const size_t section = html.find("<h2>Critical path</h2>");
    ASSERT_NE(section, std::string::npos);
    EXPECT_LT(section, html.find("<h2>Findings</h2>"));
    for (const auto& s : steps) {
        const size_t at
            = html.find("<h3 id=\"critical-path-" + std::to_string(s.step) + "\">Step " + std::to_string(s.step)
                + ": critical path " + query::report::fixed(3, static_cast<double>(s.lengthNs) / 1e6) + " ms");
        ASSERT_NE(at, std::string::npos) << "step " << s.step;
        // Its stays on the ranks: the first stay's rank opens the path table; the top communication ops are named.
        const auto visits = query::CriticalPath::visits(s.segments);
        ASSERT_FALSE(visits.empty());
        EXPECT_NE(
            html.find("<tr><td class=\"n\">" + std::to_string(visits.front().rank) + "</td>", at), std::string::npos);
        for (const auto& o : s.topCommunication)
            EXPECT_NE(html.find("<tr><td>" + HtmlReport::escape(graph.strings.text(o.name)) + "</td>", at),
                std::string::npos);
    }
    const std::string without = HtmlReport::build(*db, findings, { .paths = { folder }, .generatedAt = "x" });
    EXPECT_EQ(xmlError(without), QString());
    EXPECT_NE(without.find("<h2>Critical path</h2>\n<p>Not computed"), std::string::npos);
}

TEST(HtmlReport, RealTwoRankSampleIsWellFormed)
{
    auto db = test::openFolder((test::dataDir() / "torch_npu_2rank_level1").string());
    ASSERT_TRUE(db);
    const auto findings = AdviceQuery::run(*db);
    const auto graph = query::DependencyGraphBuilder::build(*db);
    const auto steps = query::CriticalPath::run(graph);
    const std::string html = HtmlReport::build(*db, findings,
        { .paths = { "sample" }, .generatedAt = {}, .skipFirstStep = true, .graph = &graph, .criticalPath = &steps });
    expectSelfContainedReport(html, findings);
    EXPECT_NE(html.find("<h2>Critical path</h2>"), std::string::npos);
    EXPECT_NE(html.find(">rank 0</text>"), std::string::npos);
    EXPECT_NE(html.find(">rank 1</text>"), std::string::npos);
    EXPECT_NE(html.find("2 rank folders"), std::string::npos);
}

TEST(AdviceDock, ListsFindingsAndShowsEvidence)
{
    test::ScratchDir dir;
    const std::string folder = generateSlowRank(dir);
    auto window = test::newWindow();
    // The advice examines the timelines that are loaded: none here, as in the model the test compares with (the
    // Timeline would otherwise load the slowest rank's when the job opens).
    window->timelineDock()->setAutoLoadRanks(0);
    window->show();
    gui::AdviceDock* dock = window->adviceDock();
    dock->show();
    dock->raise();
    ASSERT_TRUE(test::openAndWait(*window, { QString::fromStdString(folder) }));
    // The open lays the window out anew (on a 1400 px window Advice is a tab after Cluster steps): bring it forward.
    window->showView(dock);
    ASSERT_TRUE(test::waitFor([&] { return !dock->isBusy() && dock->model()->rowCount() > 0; }));

    auto db = test::openFolder(folder);
    ASSERT_TRUE(db);
    const auto expected = AdviceQuery::run(*db, gui::AdviceDock::adviceOptions(*window->workspace()));
    const auto& rows = dock->model()->rows();
    ASSERT_EQ(rows.size(), expected.size());
    int slowRankRow = -1;
    for (size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i].id, expected[i].id);
        if (i > 0) {
            EXPECT_GE(static_cast<int>(rows[i - 1].severity), static_cast<int>(rows[i].severity)) << i;
        }
        if (rows[i].id == "slow_rank" && slowRankRow < 0)
            slowRankRow = static_cast<int>(i);
    }
    ASSERT_GE(slowRankRow, 0);
    ASSERT_FALSE(rows[static_cast<size_t>(slowRankRow)].ranks.empty());
    EXPECT_EQ(rows[static_cast<size_t>(slowRankRow)].ranks.front(), 5);
    const QModelIndex cell = dock->model()->index(slowRankRow, gui::AdviceTableModel::Rule);
    EXPECT_EQ(cell.data().toString(), QStringLiteral("slow_rank"));
    EXPECT_EQ(dock->model()->index(slowRankRow, gui::AdviceTableModel::Where).data().toString().left(7),
        QStringLiteral("ranks 5"));

    // Selecting the row fills the detail pane; Show evidence selects rank 5 and raises the Time overview.
    dock->tableView()->setCurrentIndex(cell);
    EXPECT_TRUE(dock->evidenceButton()->isEnabled());
    const QString detail = dock->detailView()->toPlainText();
    EXPECT_TRUE(detail.contains(QStringLiteral("slow_rank")));
    EXPECT_TRUE(detail.contains(QString::fromStdString(rows[static_cast<size_t>(slowRankRow)].suggestion)));
    EXPECT_TRUE(window->timeOverviewDock()->visibleRegion().isEmpty());
    dock->evidenceButton()->click();
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(5));
    ASSERT_TRUE(test::waitFor([&] { return !window->timeOverviewDock()->visibleRegion().isEmpty(); }, 5000));

    // A double-click on the first row (critical, view "steps" or another) raises its view.
    const Finding& first = rows.front();
    emit dock->tableView()->doubleClicked(dock->model()->index(0, 0));
    QDockWidget* view = window->dockByName(
        first.evidence.view == "parallel" ? QStringLiteral("strategy") : QString::fromStdString(first.evidence.view));
    ASSERT_TRUE(view);
    EXPECT_TRUE(test::waitFor([&] { return !view->visibleRegion().isEmpty(); }, 5000));

    // File > Export report writes the same report as the writer.
    const QString path = QString::fromStdString((dir.path() / "export.html").string());
    QString error;
    ASSERT_TRUE(window->exportReport(path, &error)) << error.toStdString();
    expectSelfContainedReport(readAll(path.toStdString()), expected);
}

// A pipeline stage's 256 ranks read as a range, not "0, 1, 2, 3, 4, 5, … (256)"; ranks in the finding's own order
// (the most affected first) keep it.
TEST(AdviceTableModel, AscendingRanksReadAsRanges)
{
    Finding stage;
    for (int64_t r = 0; r < 256; ++r)
        stage.ranks.push_back(r);
    EXPECT_EQ(gui::AdviceTableModel::whereText(stage), QStringLiteral("ranks 0-255 (256)"));
    Finding slowest;
    slowest.ranks = { 1007, 983, 999, 897, 863, 835, 12 };
    EXPECT_EQ(
        gui::AdviceTableModel::whereText(slowest), QStringLiteral("ranks 1007, 983, 999, 897, 863, 835, \u2026 (7)"));
    Finding pair;
    pair.ranks = { 523, 675 };
    EXPECT_EQ(gui::AdviceTableModel::whereText(pair), QStringLiteral("ranks 523, 675"));
}
