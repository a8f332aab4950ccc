// SPDX-License-Identifier: Apache-2.0
// Issue 36: the window never waits. The deferred-load service (one import per rank and part, its own pool, batches
// with progress and cancel), no use of Qt's global thread pool, the stall watchdog, the timeline on screen at once,
// the command palette and the view shortcuts, and bad input visible at once (a cut-off timeline file).
#include "GuiTestSupport.h"

#include "npuscope/gui/advice/AdviceDock.h"
#include "npuscope/gui/app/CommandPalette.h"
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/collectives/BlameDock.h"
#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/StallWatchdog.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineRenderer.h"
#include "npuscope/gui/timeline/TimelineView.h"
#include "npuscope/query/RankQuery.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <gtest/gtest.h>

#include <filesystem>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

using Part = DeferredLoadService::Part;

// The demo's two ranks, opened without their timelines (a test asks for them itself).
std::unique_ptr<MainWindow> demoWithoutTimelines()
{
    auto window = test::newWindow();
    window->timelineDock()->setAutoLoadRanks(0);
    return window;
}

QString firstTraceView(const QString& root)
{
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root.toStdString())) {
        if (entry.path().filename() == "trace_view.json")
            return QString::fromStdString(entry.path().string());
    }
    return {};
}

} // namespace

TEST(DeferredLoadService, ImportsEachRankPartOnceAndAnswersEveryWaiter)
{
    auto window = demoWithoutTimelines();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    auto* loads = window->workspace()->loads();
    int answers = 0;
    int imported = 0;
    QObject context;
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(loads->request(0, Part::Timeline, &context, [&](const DeferredLoadService::Result& r) {
            ++answers;
            imported += r.imported ? 1 : 0;
            EXPECT_TRUE(r.error.isEmpty()) << r.error.toStdString();
        }));
    }
    EXPECT_TRUE(loads->isPending(0, Part::Timeline));
    EXPECT_TRUE(window->workspace()->isBusy());
    ASSERT_TRUE(test::waitFor([&] { return answers == 3; }, 60000));
    // One import: every waiter hears that rows arrived.
    EXPECT_EQ(imported, 3);
    EXPECT_TRUE(loads->isDone(0, Part::Timeline));
    // Asked again: answered from the event loop, nothing imported.
    bool again = false;
    loads->request(0, Part::Timeline, &context, [&](const DeferredLoadService::Result& r) {
        again = true;
        EXPECT_FALSE(r.imported);
    });
    EXPECT_FALSE(again); // never re-entrant
    ASSERT_TRUE(test::waitFor([&] { return again; }, 5000));
    EXPECT_EQ(loads->pendingCount(), 0);
}

TEST(DeferredLoadService, ABatchReportsProgressAndCancels)
{
    auto window = demoWithoutTimelines();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    auto* loads = window->workspace()->loads();
    QObject context;
    std::vector<int64_t> finished;
    int changes = 0;
    QObject::connect(loads, &DeferredLoadService::batchesChanged, &context, [&] { ++changes; });
    const quint64 id = loads->startBatch(
        QStringLiteral("Loading timelines"), { 0, 1 }, Part::Timeline, &context,
        [&](int64_t rank, const DeferredLoadService::Result& r) {
            EXPECT_FALSE(r.cancelled);
            finished.push_back(rank);
        },
        12345);
    ASSERT_NE(id, 0u);
    ASSERT_EQ(loads->batches().size(), 1u);
    EXPECT_EQ(loads->batches().front().total, 2);
    EXPECT_EQ(loads->batches().front().estimateBytes, 12345u);
    ASSERT_TRUE(test::waitFor([&] { return finished.size() == 2; }, 60000));
    EXPECT_TRUE(loads->batches().empty()); // a finished batch leaves the list
    EXPECT_GE(changes, 2);

    // A second batch of the same ranks has nothing left to import: every rank is answered at once, no batch.
    std::vector<int64_t> again;
    EXPECT_EQ(loads->startBatch(QStringLiteral("again"), { 0, 1 }, Part::Timeline, &context,
                  [&](int64_t rank, const DeferredLoadService::Result&) { again.push_back(rank); }),
        0u);
    EXPECT_TRUE(test::waitFor([&] { return again.size() == 2; }, 5000));

    // Cancelled before it ran: the queued ranks are answered "cancelled" and are not imported.
    std::vector<int64_t> cancelled;
    const quint64 memory = loads->startBatch(QStringLiteral("memory"), { 0, 1 }, Part::Memory, &context,
        [&](int64_t rank, const DeferredLoadService::Result& r) {
            if (r.cancelled)
                cancelled.push_back(rank);
        });
    ASSERT_NE(memory, 0u);
    loads->cancelBatch(memory);
    EXPECT_TRUE(loads->batches().empty());
    EXPECT_GE(cancelled.size(), 1u); // the queued one at least; a running one may finish
    ASSERT_TRUE(test::waitFor([&] { return loads->pendingCount() == 0; }, 60000));
}

TEST(DeferredLoadService, TheMemoryEstimateUsesThePlannedBytes)
{
    auto window = demoWithoutTimelines();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    const auto db = window->workspace()->database();
    const uint64_t one = DeferredLoadService::estimateBytes(*db, { 0 }, Part::Timeline);
    const uint64_t both = DeferredLoadService::estimateBytes(*db, { 0, 1 }, Part::Timeline);
    // trace_view.json is about 2.2 MB per rank, weighted 3 bytes of memory per byte.
    EXPECT_GT(one, 3u * 2000000u);
    EXPECT_GT(both, one);
}

TEST(WindowNeverWaits, NothingRunsOnQtsGlobalPool)
{
    // The raster paint engine uses Qt's global pool: a view that fills it stalls painting (issue 36: 4½ minutes). With
    // the global pool's only thread held for the whole test, an open, every view's queries and an "Expand all ranks"
    // must still finish: none of them may need that pool. (The window is not shown: its painting would need it.)
    QThreadPool* global = QThreadPool::globalInstance();
    const int threads = global->maxThreadCount();
    global->setMaxThreadCount(1);
    QSemaphore held;
    QSemaphore release;
    global->start([&] {
        held.release();
        release.acquire();
    });
    ASSERT_TRUE(held.tryAcquire(1, 5000));
    {
        auto window = test::newWindow();
        ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
        window->timelineDock()->expandAllRanks();
        ASSERT_TRUE(window->waitUntilIdle(120000));
        for (QDockWidget* dock : window->docks()) {
            window->showView(dock);
            EXPECT_TRUE(window->waitUntilIdle(120000)) << dock->objectName().toStdString();
        }
        for (const auto& rank : window->timelineDock()->view()->renderer().ranks())
            EXPECT_TRUE(rank.data) << rank.rank;
    }
    release.release();
    global->waitForDone();
    global->setMaxThreadCount(threads);
}

TEST(StallWatchdog, ReportsAStallWithItsLengthAndStack)
{
    StallWatchdog watchdog(100);
    test::waitFor([] { return false; }, 100); // a few ticks
    EXPECT_TRUE(watchdog.stalls().empty());
    QTimer::singleShot(0, [] { QThread::msleep(250); }); // the GUI thread held for 250 ms
    test::waitFor([] { return false; }, 400);
    ASSERT_EQ(watchdog.stalls().size(), 1u);
    EXPECT_GE(watchdog.stalls().front().ms, 200.0);
    EXPECT_LT(watchdog.stalls().front().ms, 2000.0);
    EXPECT_GE(watchdog.maxStallMs(), 200.0);
    // The stack was taken while the GUI thread was held.
    EXPECT_FALSE(watchdog.stalls().front().stack.isEmpty());
    watchdog.reset();
    EXPECT_EQ(watchdog.maxStallMs(), 0.0);
}

TEST(WindowNeverWaits, ASmallJobShowsEveryTimelineWhenOpened)
{
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    const auto& ranks = window->timelineDock()->view()->renderer().ranks();
    ASSERT_EQ(ranks.size(), 2u);
    for (const auto& rank : ranks) {
        EXPECT_TRUE(rank.expanded) << rank.rank;
        EXPECT_TRUE(rank.data) << rank.rank;
        EXPECT_FALSE(rank.truncated) << rank.rank;
    }
}

TEST(WindowNeverWaits, RanksWithoutATimelineShareOneLine)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString copy = dir.filePath(QStringLiteral("job"));
    ASSERT_TRUE(test::copyTree(test::kTwoRanks, copy));
    ASSERT_TRUE(QFile::remove(firstTraceView(copy)));
    auto window = test::newWindow();
    ASSERT_TRUE(test::openAndWait(*window, { copy }));
    const auto& renderer = window->timelineDock()->view()->renderer();
    int absentRows = 0;
    int rankRows = 0;
    for (const auto& row : renderer.rows()) {
        if (row.kind != TimelineRenderer::RowKind::Rank)
            continue;
        ++rankRows;
        if (row.absentRanks > 0) {
            ++absentRows;
            EXPECT_EQ(row.absentRanks, 1);
        }
    }
    EXPECT_EQ(absentRows, 1);
    EXPECT_EQ(rankRows, 2); // the rank with a timeline, and the one line for the other
}

TEST(WindowNeverWaits, ACutOffTimelineIsAProblemAtOnceAndMarkedWhereItStops)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString copy = dir.filePath(QStringLiteral("job"));
    ASSERT_TRUE(test::copyTree(test::kTwoRanks, copy));
    const QString trace = firstTraceView(copy);
    QFile file(trace);
    ASSERT_TRUE(file.open(QIODevice::ReadWrite));
    ASSERT_TRUE(file.resize(file.size() * 2 / 3)); // cut inside an event
    file.close();

    auto window = test::newWindow();
    window->timelineDock()->setAutoLoadRanks(0);
    ASSERT_TRUE(test::openAndWait(*window, { copy }));
    // Reported by the open itself, before any timeline is loaded.
    const auto db = window->workspace()->database();
    std::vector<query::ParseIssue> issues;
    {
        auto guard = db->lock();
        issues = query::IssueQuery::issues(*db);
    }
    const auto cut = std::find_if(issues.begin(), issues.end(),
        [](const query::ParseIssue& i) { return i.message.rfind("file looks truncated", 0) == 0; });
    ASSERT_NE(cut, issues.end());
    EXPECT_EQ(cut->severity, "warning");
    EXPECT_GT(window->problemCount(), 0);

    window->timelineDock()->expandAllRanks();
    ASSERT_TRUE(window->waitUntilIdle(120000));
    int truncated = 0;
    for (const auto& rank : window->timelineDock()->view()->renderer().ranks())
        truncated += rank.truncated && rank.data ? 1 : 0;
    EXPECT_EQ(truncated, 1);
}

TEST(CommandPalette, MatchesWordsAndPrefersNamesThatStartWithTheQuery)
{
    EXPECT_EQ(
        CommandPalette::matchRank(QStringLiteral("rank 12"), QStringLiteral("Rank"), QStringLiteral("Rank 12")), 0);
    EXPECT_EQ(
        CommandPalette::matchRank(QStringLiteral("rank 12"), QStringLiteral("Rank"), QStringLiteral("Rank 120")), 1);
    EXPECT_EQ(CommandPalette::matchRank(QStringLiteral("time"), QStringLiteral("View"), QStringLiteral("Timeline")), 1);
    EXPECT_EQ(
        CommandPalette::matchRank(QStringLiteral("view time"), QStringLiteral("View"), QStringLiteral("Timeline")), 2);
    EXPECT_EQ(
        CommandPalette::matchRank(QStringLiteral("marey"), QStringLiteral("View"), QStringLiteral("Timeline")), -1);
}

TEST(CommandPalette, FindsViewsActionsRanksStepsAndOperators)
{
    auto window = test::newWindow();
    window->show();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    CommandPalette* palette = window->showCommandPalette();
    ASSERT_TRUE(palette->isVisible());

    palette->setQuery(QStringLiteral("advice"));
    ASSERT_FALSE(palette->shown().empty());
    EXPECT_EQ(palette->shown().front()->kind, CommandPalette::Kind::View);
    ASSERT_TRUE(palette->runCurrent());
    EXPECT_FALSE(palette->isVisible());
    EXPECT_FALSE(window->adviceDock()->visibleRegion().isEmpty());

    window->showCommandPalette()->setQuery(QStringLiteral("rank 1"));
    ASSERT_FALSE(palette->shown().empty());
    EXPECT_EQ(palette->shown().front()->kind, CommandPalette::Kind::Rank);
    ASSERT_TRUE(palette->runCurrent());
    EXPECT_EQ(window->workspace()->selectedRank(), std::optional<int64_t>(1));

    window->showCommandPalette()->setQuery(QStringLiteral("step 50"));
    ASSERT_FALSE(palette->shown().empty());
    EXPECT_EQ(palette->shown().front()->kind, CommandPalette::Kind::Step);
    ASSERT_TRUE(palette->runCurrent());
    EXPECT_EQ(window->workspace()->step(), std::optional<int64_t>(50));

    window->showCommandPalette()->setQuery(QStringLiteral("operator matmul"));
    ASSERT_FALSE(palette->shown().empty());
    EXPECT_EQ(palette->shown().front()->kind, CommandPalette::Kind::Operator);

    window->showCommandPalette()->setQuery(QStringLiteral("file open folder"));
    ASSERT_FALSE(palette->shown().empty());
    EXPECT_EQ(palette->shown().front()->kind, CommandPalette::Kind::Action);
    palette->hide();
}

TEST(ViewMenu, ShortcutsShowAndRaiseAndChoosingAViewNeverHidesIt)
{
    auto window = test::newWindow(QSize(1920, 1080));
    window->show();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    const QList<QDockWidget*> main = window->mainViews();
    ASSERT_EQ(main.size(), 9);
    for (int k = 0; k < main.size(); ++k) {
        QAction* action = window->findChild<QAction*>(main[k]->objectName() + QStringLiteral("ShowAction"));
        ASSERT_TRUE(action) << main[k]->objectName().toStdString();
        EXPECT_EQ(action->shortcut(), QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + k)));
        action->trigger();
        QCoreApplication::processEvents();
        EXPECT_TRUE(main[k]->isVisible()) << main[k]->objectName().toStdString();
        EXPECT_FALSE(main[k]->visibleRegion().isEmpty()) << main[k]->objectName().toStdString();
        // Chosen again while in front: still shown (the dock's toggle action hid it).
        action->trigger();
        QCoreApplication::processEvents();
        EXPECT_TRUE(main[k]->isVisible()) << main[k]->objectName().toStdString();
    }
    // A closed view comes back.
    window->blameDock()->close();
    EXPECT_FALSE(window->blameDock()->isVisible());
    window->findChild<QAction*>(window->blameDock()->objectName() + QStringLiteral("ShowAction"))->trigger();
    EXPECT_TRUE(window->blameDock()->isVisible());
}

TEST(DefaultLayout, TheAnsweringViewsAreInSight)
{
    for (const QSize size : { QSize(1920, 1080), QSize(1366, 768) }) {
        const std::string what = std::to_string(size.width()) + "x" + std::to_string(size.height());
        auto window = test::newWindow(size);
        window->show();
        ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks })) << what;
        // Advice is in front of its own group on a wide window; on a narrow one its tab is the second of the group.
        QDockWidget* advice = window->adviceDock();
        QDockWidget* steps = window->stepsDock();
        if (size.width() >= 1600) {
            EXPECT_FALSE(advice->visibleRegion().isEmpty()) << what;
            EXPECT_FALSE(steps->visibleRegion().isEmpty()) << what;
            EXPECT_FALSE(window->tabifiedDockWidgets(steps).contains(advice)) << what;
        } else {
            EXPECT_TRUE(window->tabifiedDockWidgets(steps).contains(advice)) << what;
        }
        // The Timeline keeps at least 40 % of the height, the views above it at least a third.
        EXPECT_GT(window->timelineDock()->height(), size.height() * 35 / 100) << what;
        EXPECT_GT(steps->height(), size.height() / 3) << what;
    }
}

TEST(Advice, TheStatusBarLeadsWithTheFindingThatExplainsTheMost)
{
    auto window = test::newWindow(QSize(1920, 1080));
    window->show();
    ASSERT_TRUE(test::openAndWait(*window, { test::kTwoRanks }));
    // Advice is in front on a wide window: its findings arrive with the open, and the status bar names the first.
    ASSERT_TRUE(test::waitFor([&] { return !window->workspace()->topFindingRule().isEmpty(); }, 60000));
    QLabel* label = window->topFindingLabel();
    ASSERT_TRUE(label);
    EXPECT_TRUE(label->isVisible());
    // The demo holds 2 of an 8-rank job: the wait on the six ranks that were not collected explains most of the step.
    EXPECT_EQ(window->workspace()->topFindingRule(), QStringLiteral("missing_group_ranks"));
    EXPECT_TRUE(label->text().contains(QStringLiteral("% of the step"))) << label->text().toStdString();
    // A new model clears it until its own findings arrive.
    window->workspace()->setDatabase(nullptr);
    EXPECT_TRUE(window->workspace()->topFindingRule().isEmpty());
    EXPECT_FALSE(label->isVisible());
}
