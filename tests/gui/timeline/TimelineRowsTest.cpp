// SPDX-License-Identifier: Apache-2.0
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/timeline/AreaStatsModel.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineMarkerModel.h"
#include "npuscope/gui/timeline/TimelineView.h"
#include "npuscope/query/TimelineQuery.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCoreApplication>
#include <QImage>
#include <QMenu>
#include <QTest>

#include <gtest/gtest.h>

#include <memory>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

using Row = TimelineRenderer::Row;
using RowKind = TimelineRenderer::RowKind;

int findRow(const TimelineRenderer& r, const TimelineRenderer::RowKey& key)
{
    for (size_t i = 0; i < r.rows().size(); ++i)
        if (r.rows()[i].key() == key)
            return static_cast<int>(i);
    return -1;
}

// Triggers the row menu action whose text starts with prefix; false when the menu has none.
bool triggerMenu(TimelineView* view, int row, const QString& prefix)
{
    std::unique_ptr<QMenu> menu(view->createRowMenu(row));
    if (!menu)
        return false;
    for (QAction* a : menu->actions()) {
        if (a->text().startsWith(prefix)) {
            a->trigger();
            return true;
        }
    }
    return false;
}

class TimelineRows : public ::testing::Test {
protected:
    void SetUp() override
    {
        window = test::newWindow(QSize(1600, 1000));
        ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
        dock = window->timelineDock();
        window->focusDock(dock);
        window->show();
        dock->expandAllRanks();
        ASSERT_TRUE(window->waitUntilIdle());
        QCoreApplication::processEvents();
        ASSERT_TRUE(dock->view()->renderer().ranks()[1].data);
    }

    std::unique_ptr<MainWindow> window;
    TimelineDock* dock = nullptr;
};

} // namespace

TEST_F(TimelineRows, DeepRowsAreCappedSoBothRanksFitOnTheFirstScreen)
{
    TimelineView* view = dock->view();
    auto& renderer = view->renderer();
    const int rank1 = renderer.rowOfRank(1);
    ASSERT_GE(rank1, 0);
    EXPECT_LT(
        renderer.rowTop(renderer.rows()[static_cast<size_t>(rank1)]) + TimelineRenderer::kHeaderHeight, view->height())
        << "rank 1 must be visible without scrolling";
    test::keepImage(view->grab().toImage(), QStringLiteral("timeline_rows_capped.png"));

    // The deep Python thread shows the level cap and how many levels it hides.
    int deep = -1;
    for (size_t i = 0; i < renderer.rows().size(); ++i)
        if (renderer.rows()[i].rank == 0 && renderer.rows()[i].hiddenLevels > 20)
            deep = static_cast<int>(i);
    ASSERT_GE(deep, 0);
    const auto key = renderer.rows()[static_cast<size_t>(deep)].key();
    const Row capped = renderer.rows()[static_cast<size_t>(deep)];
    EXPECT_EQ(capped.levels, TimelineRenderer::kDefaultMaxLevels);
    const int depth = capped.levels + capped.hiddenLevels;

    // A click on its label shows every level; a second click collapses it again.
    view->scrollToRow(deep);
    const int y = renderer.rowTop(renderer.rows()[static_cast<size_t>(deep)]) + 5;
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(60, y));
    Row row = renderer.rows()[static_cast<size_t>(findRow(renderer, key))];
    EXPECT_EQ(row.levels, depth);
    EXPECT_EQ(row.hiddenLevels, 0);
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(60, renderer.rowTop(row) + 5));
    row = renderer.rows()[static_cast<size_t>(findRow(renderer, key))];
    EXPECT_EQ(row.levels, TimelineRenderer::kDefaultMaxLevels);

    // The level box changes the cap of every collapsed row.
    dock->setMaxLevels(5);
    EXPECT_EQ(renderer.rows()[static_cast<size_t>(findRow(renderer, key))].levels, 5);
    dock->setMaxLevels(TimelineRenderer::kDefaultMaxLevels);

    // Hover never finds a slice of a hidden level, and selecting one expands its row.
    const auto& track = renderer.ranks()[0].data->tracks[static_cast<size_t>(key.item)];
    const query::SliceRef deepRef { key.item, depth - 1, 0 };
    ASSERT_GT(track.levels[static_cast<size_t>(depth - 1)].size(), 0u);
    view->selectSlice(0, deepRef, true);
    EXPECT_EQ(renderer.rows()[static_cast<size_t>(findRow(renderer, key))].levels, depth);
}

TEST_F(TimelineRows, PinHideMoveAndFilterRows)
{
    TimelineView* view = dock->view();
    auto& renderer = view->renderer();
    // Pin a rank-1 thread row: it is drawn first, above the scrolled rows, and stays when scrolling.
    int target = -1;
    for (size_t i = 0; i < renderer.rows().size(); ++i)
        if (renderer.rows()[i].rank == 1 && renderer.rows()[i].kind == RowKind::Track)
            target = static_cast<int>(i);
    ASSERT_GE(target, 0);
    const auto key = renderer.rows()[static_cast<size_t>(target)].key();
    ASSERT_TRUE(triggerMenu(view, target, QStringLiteral("Pin to top")));
    ASSERT_FALSE(renderer.rows().empty());
    EXPECT_EQ(renderer.rows()[0].key(), key);
    EXPECT_TRUE(renderer.rows()[0].pinned);
    EXPECT_GT(renderer.pinnedHeight(), 0);
    EXPECT_EQ(findRow(renderer, key), 0) << "a pinned row is listed once";
    renderer.setScrollY(100000);
    EXPECT_GT(renderer.scrollY(), 0);
    EXPECT_EQ(renderer.rowAt(QPoint(400, TimelineRenderer::kRulerHeight + 3)), 0);
    EXPECT_EQ(renderer.rowTop(renderer.rows()[0]), TimelineRenderer::kRulerHeight);
    test::keepImage(view->grab().toImage(), QStringLiteral("timeline_pinned_scrolled.png"));
    ASSERT_TRUE(triggerMenu(view, 0, QStringLiteral("Unpin")));
    EXPECT_FALSE(renderer.rows()[0].pinned);
    EXPECT_EQ(renderer.pinnedHeight(), 0);
    renderer.setScrollY(0);

    // Hide a row, then show it again from any row's menu.
    const size_t before = renderer.rows().size();
    const int hideIndex = findRow(renderer, key);
    ASSERT_TRUE(triggerMenu(view, hideIndex, QStringLiteral("Hide row")));
    EXPECT_EQ(findRow(renderer, key), -1);
    EXPECT_EQ(renderer.rows().size(), before - 1);
    ASSERT_TRUE(triggerMenu(view, 0, QStringLiteral("Show 1 hidden")));
    EXPECT_GE(findRow(renderer, key), 0);
    EXPECT_EQ(renderer.rows().size(), before);

    // Move rank 0's first process down: the second one now follows the rank header.
    ASSERT_EQ(renderer.rows()[1].kind, RowKind::Process);
    const auto first = renderer.rows()[1].key();
    ASSERT_TRUE(triggerMenu(view, 1, QStringLiteral("Move down")));
    EXPECT_NE(renderer.rows()[1].key(), first);
    EXPECT_GT(findRow(renderer, first), 1);
    ASSERT_TRUE(triggerMenu(view, findRow(renderer, first), QStringLiteral("Move up")));
    EXPECT_EQ(renderer.rows()[1].key(), first);
    // Rank rows move too: rank 1 before rank 0.
    ASSERT_TRUE(triggerMenu(view, renderer.rowOfRank(1), QStringLiteral("Move up")));
    EXPECT_EQ(renderer.rows()[0].kind, RowKind::Rank);
    EXPECT_EQ(renderer.rows()[0].rank, 1);

    // Counter-only processes (HBM, LLC, ...) share one collapsed Counters row per rank; a click opens it.
    int group = -1;
    for (size_t i = 0; i < renderer.rows().size(); ++i)
        if (renderer.rows()[i].kind == RowKind::Group && renderer.rows()[i].rank == 0)
            group = static_cast<int>(i);
    ASSERT_GE(group, 0);
    view->scrollToRow(group);
    const size_t closed = renderer.rows().size();
    QTest::mouseClick(
        view, Qt::LeftButton, {}, QPoint(100, renderer.rowTop(renderer.rows()[static_cast<size_t>(group)]) + 5));
    EXPECT_TRUE(renderer.ranks()[0].countersExpanded);
    EXPECT_GE(renderer.rows().size(), closed + 5);
    EXPECT_EQ(renderer.rows()[static_cast<size_t>(group) + 1].kind, RowKind::Process);
    renderer.ranks()[0].countersExpanded = false;
    view->relayout();
    EXPECT_EQ(renderer.rows().size(), closed);
    renderer.setScrollY(0);

    // The filter keeps rank headers, the matching rows and their processes.
    dock->setRowFilter(QStringLiteral("hbm 0"));
    int hbm = 0;
    for (const Row& r : renderer.rows())
        hbm += r.kind == RowKind::Process && renderer.rowName(r) == QStringLiteral("HBM") ? 1 : 0;
    EXPECT_EQ(hbm, 2) << "filtering shows matching counters outside the collapsed group";
    int hbmSeries = 0;
    for (const Row& r : renderer.rows()) {
        if (r.kind == RowKind::Counter) {
            ++hbmSeries;
            EXPECT_TRUE(renderer.rowName(r).startsWith(QStringLiteral("HBM 0/"))) << renderer.rowName(r).toStdString();
        }
    }
    EXPECT_EQ(hbmSeries, 4) << "HBM 0/Read and HBM 0/Write on both ranks, inside their collapsed process";
    dock->setRowFilter(QStringLiteral("stream"));
    int tracks = 0;
    for (const Row& r : renderer.rows()) {
        if (r.kind == RowKind::Track || r.kind == RowKind::Counter) {
            ++tracks;
            EXPECT_TRUE(renderer.rowName(r).contains(QStringLiteral("Stream"))) << renderer.rowName(r).toStdString();
        }
    }
    EXPECT_GE(tracks, 4);
    EXPECT_GE(renderer.rowOfRank(0), 0);
    EXPECT_GE(renderer.rowOfRank(1), 0);
    dock->setRowFilter(QString());
    EXPECT_EQ(renderer.rows().size(), before);
}

TEST_F(TimelineRows, RankOffsetsAndAlignOnStep)
{
    TimelineView* view = dock->view();
    auto& renderer = view->renderer();
    const auto r0 = renderer.ranks()[0].data, r1 = renderer.ranks()[1].data;
    const auto s0 = query::TimelineQuery::spanOfName({ r0 }, "ProfilerStep#50");
    const auto s1 = query::TimelineQuery::spanOfName({ r1 }, "ProfilerStep#50");
    ASSERT_TRUE(s0 && s1);

    // An offset moves the rank on the common axis (bounds follow).
    const int64_t end0 = renderer.axis().boundsEnd();
    dock->setRankOffset(1, 50'000'000);
    EXPECT_EQ(renderer.axis().boundsEnd(), std::max(r0->end, r1->end + 50'000'000));
    EXPECT_GT(renderer.axis().boundsEnd(), end0);
    dock->resetOffsets();
    EXPECT_EQ(renderer.ranks()[1].offsetNs, 0);

    // Align on step 50: both ProfilerStep#50 slices start at the same display time.
    dock->setRankOffset(0, 7);
    EXPECT_EQ(dock->alignRanksOnStep(50), 2);
    EXPECT_EQ(renderer.ranks()[0].offsetNs, 7);
    EXPECT_EQ(s0->first + renderer.ranks()[0].offsetNs, s1->first + renderer.ranks()[1].offsetNs);
    EXPECT_EQ(dock->alignRanksOnStep(999999), 0);

    // Hover on rank 1 finds its step slice at the aligned position.
    const auto hits = query::TimelineQuery::search({ r1 }, "ProfilerStep#50", true);
    ASSERT_FALSE(hits.empty());
    const query::SliceRef ref = hits[0].ref;
    view->selectSlice(1, ref, true); // expands the row if the step is below the level cap
    const int row = renderer.rowOfTrack(1, ref.track);
    ASSERT_GE(row, 0);
    view->scrollToRow(row);
    const double x = renderer.labelWidth() + renderer.axis().toPx(s0->first + 7) + 3;
    const int y = renderer.rowTop(renderer.rows()[static_cast<size_t>(row)]) + 2
        + ref.depth * TimelineRenderer::kLevelHeight + TimelineRenderer::kLevelHeight / 2;
    const auto hit = renderer.hitTest(QPoint(static_cast<int>(x), y));
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->rank, 1);
    EXPECT_EQ(hit->ref, ref);

    // The area statistics of the step on rank 1 count its slice once under the aligned range.
    std::vector<std::pair<int, int>> tracks { { 1, ref.track } };
    view->setRangeSelection(s0->first + 7, s0->first + 7 + (s1->second - s1->first), tracks);
    ASSERT_TRUE(window->waitUntilIdle());
    AreaStatsModel* stats = dock->statsModel();
    bool found = false;
    for (int r = 0; r < stats->rowCount(); ++r) {
        if (stats->index(r, AreaStatsModel::Name).data().toString() == QStringLiteral("ProfilerStep#50")) {
            found = true;
            EXPECT_EQ(stats->index(r, AreaStatsModel::Count).data(AreaStatsModel::SortRole).toLongLong(), 1);
            EXPECT_EQ(stats->index(r, AreaStatsModel::TotalWall).data(AreaStatsModel::SortRole).toLongLong(),
                s1->second - s1->first);
        }
    }
    EXPECT_TRUE(found);
}

TEST_F(TimelineRows, MarkersAreListedDrawnAndRemovable)
{
    TimelineView* view = dock->view();
    auto& renderer = view->renderer();
    TimelineMarkerModel* markers = dock->markerModel();
    QAbstractItemModelTester tester(markers, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QImage plain = view->grab().toImage();

    dock->addMarkerAtCursor(); // no cursor: the window centre
    ASSERT_EQ(markers->rowCount(), 1);
    const int64_t centre = renderer.axis().toNs(renderer.axis().width() / 2);
    EXPECT_EQ(markers->index(0, 0).data(TimelineMarkerModel::BeginRole).toLongLong(), centre);
    EXPECT_FALSE(markers->markers()[0].isRange());

    EXPECT_FALSE(dock->addMarkerFromRange()) << "no range selected yet";
    const int64_t b = renderer.axis().boundsBegin() + 1'000'000, e = b + 20'000'000;
    view->setRangeSelection(b, e, {});
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_TRUE(dock->addMarkerFromRange());
    ASSERT_EQ(markers->rowCount(), 2);
    EXPECT_TRUE(markers->markers()[0].isRange()); // kept in start order
    EXPECT_EQ(markers->markers()[0].begin, b);
    EXPECT_EQ(markers->markers()[0].end, e);
    EXPECT_EQ(renderer.markers().size(), 2u);
    EXPECT_TRUE(markers->setData(markers->index(0, TimelineMarkerModel::Name), QStringLiteral("warm-up")));
    EXPECT_EQ(renderer.markers()[0].name, QStringLiteral("warm-up"));

    // M at the mouse adds a point marker there.
    QTest::mouseMove(view, QPoint(700, 300));
    QTest::keyClick(view, Qt::Key_M);
    ASSERT_EQ(markers->rowCount(), 3);
    ASSERT_TRUE(view->cursorNs().has_value());

    const QImage marked = view->grab().toImage();
    test::keepImage(marked, QStringLiteral("timeline_markers.png"));
    EXPECT_NE(marked, plain);

    ASSERT_TRUE(markers->removeRows(0, 1));
    EXPECT_EQ(markers->rowCount(), 2);
    EXPECT_EQ(renderer.markers().size(), 2u);
    markers->clear();
    EXPECT_TRUE(renderer.markers().empty());
}

TEST_F(TimelineRows, RangeIsPublishedAndRankSelectionScrolls)
{
    TimelineView* view = dock->view();
    auto& renderer = view->renderer();
    Workspace* ws = window->workspace();
    const int64_t b = renderer.axis().boundsBegin() + 5'000'000, e = b + 30'000'000;
    view->setRangeSelection(b, e, {});
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_TRUE(ws->timeWindow().has_value());
    EXPECT_EQ(ws->timeWindow()->begin, b);
    EXPECT_EQ(ws->timeWindow()->end, e);
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Escape);
    EXPECT_FALSE(ws->timeWindow().has_value());
    EXPECT_FALSE(renderer.range().has_value());
    // A window set elsewhere is shown as the range.
    ws->setTimeWindow(Workspace::TimeWindow { b, e });
    ASSERT_TRUE(renderer.range().has_value());
    EXPECT_EQ(renderer.range()->first, b);

    // Selecting rank 1 in another dock scrolls the timeline to it.
    renderer.setScrollY(0);
    ws->setSelectedRank(1);
    ASSERT_TRUE(window->waitUntilIdle());
    const int row = renderer.rowOfRank(1);
    ASSERT_GE(row, 0);
    const int top = renderer.rowTop(renderer.rows()[static_cast<size_t>(row)]);
    EXPECT_GT(renderer.scrollY(), 0);
    EXPECT_GE(top, renderer.scrollTop());
    EXPECT_LT(top, view->height() - TimelineRenderer::kHeaderHeight);
}

TEST_F(TimelineRows, AreaStatisticsModelSortsAndPassesTheModelTester)
{
    TimelineView* view = dock->view();
    auto& renderer = view->renderer();
    AreaStatsModel* stats = dock->statsModel();
    QAbstractItemModelTester tester(stats, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(stats->columnCount(), AreaStatsModel::ColumnCount);
    std::vector<std::pair<int, int>> tracks;
    for (const auto& row : renderer.rows())
        if (row.kind == RowKind::Track)
            tracks.emplace_back(row.rank, row.item);
    view->setRangeSelection(renderer.axis().boundsBegin(), renderer.axis().boundsEnd(), tracks);
    ASSERT_TRUE(window->waitUntilIdle());
    ASSERT_GT(stats->rowCount(), 10);
    auto column = [&](int c, int r) { return stats->index(r, c).data(AreaStatsModel::SortRole); };
    // Default order: total wall, descending.
    for (int r = 1; r < stats->rowCount(); ++r)
        EXPECT_GE(
            column(AreaStatsModel::TotalWall, r - 1).toLongLong(), column(AreaStatsModel::TotalWall, r).toLongLong());
    QPersistentModelIndex tracked = stats->index(3, AreaStatsModel::Name);
    const QString trackedName = tracked.data().toString();
    stats->sort(AreaStatsModel::Count, Qt::AscendingOrder);
    for (int r = 1; r < stats->rowCount(); ++r)
        EXPECT_LE(column(AreaStatsModel::Count, r - 1).toLongLong(), column(AreaStatsModel::Count, r).toLongLong());
    EXPECT_EQ(tracked.data().toString(), trackedName) << "persistent indexes follow their rows";
    stats->sort(AreaStatsModel::Name, Qt::DescendingOrder);
    for (int r = 1; r < stats->rowCount(); ++r)
        EXPECT_GE(column(AreaStatsModel::Name, r - 1).toString(), column(AreaStatsModel::Name, r).toString());
    EXPECT_EQ(stats->headerData(AreaStatsModel::TotalSelf, Qt::Horizontal).toString(), QStringLiteral("Total self"));
}
