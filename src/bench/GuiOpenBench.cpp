// SPDX-License-Identifier: Apache-2.0
// gui-open: the real main window opening a profile against the engine's cluster-open of the same path in the same run,
// then a scripted session (expand all ranks, every main view raised in turn) with the GUI thread's longest stall.

#include "BenchCases.h"
#include "GuiBenchSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/StallWatchdog.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>

#include <cstdio>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace npuscope::bench {

namespace {

// The engine's part of an open, as cluster-open measures it: detect, the summary of every rank, the first queries
// of the cluster views. No parse cache (the window's open below uses none either).
double engineOpenSeconds(const std::string& path, load::LoadReport* report = nullptr)
{
    QElapsedTimer clock;
    clock.start();
    const auto plan = io::Detector::detect({ path });
    load::LoadOptions options;
    options.loadTimelines = false;
    options.report = report;
    auto db = load::Loader::load(plan, options);
    if (!db)
        return -1;
    const auto averaged = query::StepQuery::averaged(*db);
    const auto steps = query::StepQuery::steps(*db);
    const auto breakdown
        = query::StepQuery::breakdown(*db, steps.empty() ? std::nullopt : std::optional(steps.front()));
    const auto groups = query::CommQuery::groups(*db);
    (void)averaged;
    (void)breakdown;
    (void)groups;
    return static_cast<double>(clock.nsecsElapsed()) / 1e9;
}

// The window's open of path until every visible dock is ready: load finished and idle, in seconds (negative when it
// could not open), and the GUI thread's longest stall meanwhile.
struct WindowOpen {
    double loadedS = -1, readyS = -1, stallMs = 0;
    bool idle = false;
};

WindowOpen openWindow(gui::MainWindow& window, const std::string& path)
{
    WindowOpen result;
    gui::StallWatchdog watchdog(100);
    bool ok = false;
    bool finished = false;
    const auto connection
        = QObject::connect(&window, &gui::MainWindow::loadFinished, &window, [&](bool success, const QString&) {
              ok = success;
              finished = true;
              if (qEnvironmentVariableIsSet("NPUSCOPE_TRACE_QUERIES"))
                  spdlog::info("gui-open: loadFinished");
          });
    QElapsedTimer clock;
    clock.start();
    if (qEnvironmentVariableIsSet("NPUSCOPE_TRACE_QUERIES"))
        spdlog::info("gui-open: open");
    window.open({ QString::fromStdString(path) });
    spinEvents(30 * 60 * 1000, [&] { return finished; });
    QObject::disconnect(connection);
    if (!ok)
        return result;
    result.loadedS = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    result.idle = window.waitUntilIdle(30 * 60 * 1000);
    result.readyS = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    if (qEnvironmentVariableIsSet("NPUSCOPE_TRACE_QUERIES"))
        spdlog::info("gui-open: ready");
    result.stallMs = watchdog.maxStallMs();
    return result;
}

} // namespace

int guiOpen(int argc, char** argv, const std::vector<std::string>& args)
{
    std::string path, size;
    int expandSeconds = 15;
    int repeat = 3;
    int width = 1920, height = 1080;
    if (!parseArgs(args, { { "--expand-seconds", &expandSeconds, 0 }, { "--repeat", &repeat, 1 } },
            { { "--path", &path }, { "--size", &size } })
        || !parseSize(size, width, height))
        return 2;
    if (path.empty()) {
        std::fprintf(stderr,
            "usage: npuscope-bench gui-open --path P [--repeat 3] [--expand-seconds 15] [--size 1920x1080]\n");
        return 2;
    }
    // On a display when there is one (xvfb-run), else offscreen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    // A first engine open warms the page cache (not counted); then, repeat times, the engine's open and the window's
    // in turn, so a change of this machine's speed between runs hits both sides alike. The medians are compared, and
    // each pair on its own (gui.pairs_within_target: the window within 1.2 x + 0.5 s of the engine's open just before).
    load::LoadReport stages;
    const double engineFirstS = engineOpenSeconds(path, &stages);
    if (engineFirstS < 0) {
        std::fprintf(stderr, "npuscope-bench: nothing loaded from %s\n", path.c_str());
        return 1;
    }
    gui::MainWindow::Options options;
    options.persistSettings = false;
    options.interactive = true; // the progress dialog, as a user sees it
    options.useParseCache = false;
    std::vector<double> engineS, readyS, loadedS;
    double openStallMs = 0;
    int withinTarget = 0;
    bool idle = true;
    std::unique_ptr<gui::MainWindow> window;
    for (int r = 0; r < repeat; ++r) {
        engineS.push_back(engineOpenSeconds(path, &stages));
        window.reset(); // the last one stays for the session
        window = std::make_unique<gui::MainWindow>(options);
        window->resize(width, height);
        window->show();
        spinEvents(300, [] { return false; }); // the first paint, the welcome page
        const WindowOpen open = openWindow(*window, path);
        if (open.readyS < 0) {
            std::fprintf(stderr, "npuscope-bench: the window could not open %s\n", path.c_str());
            return 1;
        }
        loadedS.push_back(open.loadedS);
        readyS.push_back(open.readyS);
        openStallMs = std::max(openStallMs, open.stallMs);
        idle = idle && open.idle;
        withinTarget += open.readyS <= 1.2 * engineS.back() + 0.5 ? 1 : 0;
    }
    if (qEnvironmentVariableIsSet("NPUSCOPE_BENCH_DOCKS")) {
        for (QDockWidget* dock : window->docks())
            std::fprintf(stderr, "dock %s visible %d\n", qPrintable(dock->objectName()), dock->isVisible() ? 1 : 0);
    }

    // The scripted session on the last window: expand every rank (a batch through the load service), then raise
    // every view in turn while the batch runs, then cancel what is left of it.
    gui::StallWatchdog watchdog(100);
    auto* loads = window->workspace()->loads();
    window->timelineDock()->show();
    window->timelineDock()->raise();
    window->timelineDock()->expandAllRanks();
    // The batch starts once its memory estimate is in (a worker reads rank_file).
    spinEvents(5000, [&] { return !loads->batches().empty(); });
    int batchTotal = 0;
    for (const auto& b : loads->batches())
        batchTotal += b.total;
    spinEvents(expandSeconds * 1000 / 2, [&] { return loads->pendingCount() == 0; });
    for (const QString& name : gui::MainWindow::dockShortNames()) {
        if (QDockWidget* dock = window->dockByName(name)) {
            window->showView(dock);
            spinEvents(400, [] { return false; });
        }
    }
    spinEvents(expandSeconds * 1000 / 2, [&] { return loads->pendingCount() == 0; });
    int batchLeft = 0;
    for (const auto& b : loads->batches())
        batchLeft += b.total - b.done;
    loads->cancelAll();
    spinEvents(500, [] { return false; });
    const double sessionStallMs = watchdog.maxStallMs();
    const size_t sessionStalls = watchdog.stalls().size();

    const double engine = medianOf(engineS), ready = medianOf(readyS);
    print("engine.first_s", engineFirstS, "s");
    print("engine.ready_s", engine, "s");
    print("engine.ready_min_s", *std::min_element(engineS.begin(), engineS.end()), "s");
    print("engine.ready_max_s", *std::max_element(engineS.begin(), engineS.end()), "s");
    print("engine.parse_s", stages.parseSeconds, "s");
    print("engine.postload_s", stages.postLoadSeconds, "s");
    print("engine.index_s", stages.indexSeconds, "s");
    print("gui.loaded_s", medianOf(loadedS), "s");
    print("gui.ready_s", ready, "s");
    print("gui.ready_min_s", *std::min_element(readyS.begin(), readyS.end()), "s");
    print("gui.ready_max_s", *std::max_element(readyS.begin(), readyS.end()), "s");
    print("gui.ready_ratio", engine > 0 ? ready / engine : 0, "x");
    print("gui.ready_over_engine_s", ready - engine, "s");
    print("gui.ready_target_s", 1.2 * engine + 0.5, "s");
    print("gui.pairs_within_target", withinTarget, "pairs");
    print("gui.pairs", repeat, "pairs");
    print("gui.idle", idle ? 1 : 0, "bool");
    print("gui.open_max_stall_ms", openStallMs, "ms");
    print("gui.session_max_stall_ms", sessionStallMs, "ms");
    print("gui.max_stall_ms", std::max(openStallMs, sessionStallMs), "ms");
    print("gui.session_stalls_over_100ms", static_cast<double>(sessionStalls), "stalls");
    print("gui.expand_ranks_queued", batchTotal, "ranks");
    print("gui.expand_ranks_left", batchLeft, "ranks");
    print("rss_mb", peakRssMb(), "MB");
    return 0;
}

} // namespace npuscope::bench
