// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench comm`: a generated cluster opened in the real main window offscreen; how long a
// step / group / op switch takes until the communication matrix and the duration table show the new
// selection, how long a matrix frame paints, and how long the in-memory indexes take to build. The
// same-run baseline is the SQL path of the duration figures the index replaced.

#include "BenchCases.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/comm/CommDurationDock.h"
#include "npuscope/gui/comm/CommMatrixDock.h"
#include "npuscope/gui/comm/CommMatrixView.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QThreadPool>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace npuscope::bench {

namespace {

void printStats(const std::string& name, const std::vector<double>& v)
{
    print(name + ".median_ms", percentile(v, 0.5), "ms");
    print(name + ".p95_ms", percentile(v, 0.95), "ms");
}

double loadAverage()
{
    std::ifstream in("/proc/loadavg");
    double load = -1;
    in >> load;
    return load;
}

double msOf(const std::function<void()>& fn)
{
    QElapsedTimer t;
    t.start();
    fn();
    return static_cast<double>(t.nsecsElapsed()) / 1.0e6;
}

// The generated cluster for about `ranks` ranks: TP up to 8, PP up to 8, the rest DP (rounded down), one slow link.
testgen::GeneratorOptions clusterOptions(int ranks, const std::string& work)
{
    testgen::GeneratorOptions g;
    g.outDir = (fs::path(work) / ("comm" + std::to_string(ranks))).string();
    g.ranks = ranks;
    g.steps = 3;
    g.traceMb = 0.01;
    g.tp = std::min(8, ranks);
    g.pp = std::max(1, std::min(8, ranks / g.tp));
    g.dp = std::max(1, ranks / (g.tp * g.pp));
    g.ranks = g.tp * g.pp * g.dp;
    if (g.ranks > 4)
        g.slowLink = std::make_pair(3, 4);
    g.seed = 42;
    return g;
}

bool generateCluster(const testgen::GeneratorOptions& g)
{
    std::string error;
    QElapsedTimer clock;
    clock.start();
    if (!testgen::ClusterGenerator::generate(g, error)) {
        std::fprintf(stderr, "npuscope-bench: generate %d ranks: %s\n", g.ranks, error.c_str());
        return false;
    }
    print("comm.ranks", g.ranks, "ranks");
    print("comm.generate_s", static_cast<double>(clock.elapsed()) / 1e3, "s");
    return true;
}

bool openCluster(gui::MainWindow& window, const std::string& dir)
{
    bool loaded = false;
    const QMetaObject::Connection connection = QObject::connect(
        &window, &gui::MainWindow::loadFinished, &window, [&](bool ok, const QString&) { loaded = ok; });
    QElapsedTimer clock;
    clock.start();
    window.open({ QString::fromStdString(dir) });
    const bool opened = window.waitUntilIdle(600000) && loaded;
    QObject::disconnect(connection); // loaded is this function's
    if (!opened) {
        std::fprintf(stderr, "npuscope-bench: loading %s failed\n", dir.c_str());
        return false;
    }
    print("comm.open_and_first_views_s", static_cast<double>(clock.elapsed()) / 1e3, "s");
    return true;
}

// The steps with communication ops and the communication groups' hashes. The caller holds db's lock.
void listSelections(model::Database& db, std::vector<int64_t>& steps, std::vector<std::string>& groups)
{
    auto st = db.prepare("SELECT DISTINCT step FROM comm_op WHERE step IS NOT NULL ORDER BY step");
    while (st.step())
        steps.push_back(st.int64(0));
    for (const auto& grp : query::CommQuery::groups(db))
        groups.push_back(grp.hash);
}

// The indexes the views share, built again here to time them (the views built theirs on open). The caller holds db's
// lock.
void timeIndexBuilds(const std::shared_ptr<model::Database>& db)
{
    std::vector<double> linkBuild, opBuild;
    for (int i = 0; i < 3; ++i) {
        linkBuild.push_back(msOf([&] { query::CommLinkIndex::build(*db); }));
        opBuild.push_back(msOf([&] { query::CommOpIndex::build(*db); }));
    }
    print("comm.index_build.links_ms", percentile(linkBuild, 0.5), "ms");
    print("comm.index_build.ops_ms", percentile(opBuild, 0.5), "ms");
    print("comm.index.link_rows", static_cast<double>(query::CommLinkIndex::forDatabase(db)->size()), "rows");
    print("comm.index.op_rows", static_cast<double>(query::CommOpIndex::forDatabase(db)->size()), "rows");
}

// The duration dock's figures of the middle step from the index, and the same through the database (its cached
// index). The caller holds db's lock.
void timeDurationQueries(const std::shared_ptr<model::Database>& db, const std::vector<int64_t>& steps)
{
    query::CommSelection sel;
    sel.step = steps.empty() ? std::nullopt : std::optional<int64_t>(steps[steps.size() / 2]);
    const auto ops = query::CommOpIndex::forDatabase(db);
    std::vector<double> viaDb, mem;
    for (int i = 0; i < 5; ++i) {
        viaDb.push_back(msOf([&] {
            query::CommAnalysisQuery::durations(*db, sel);
            query::CommAnalysisQuery::packets(*db, sel);
            query::CommAnalysisQuery::opStrip(*db, sel);
        }));
        mem.push_back(msOf([&] {
            query::CommAnalysisQuery::durations(*ops, sel);
            query::CommAnalysisQuery::packets(*ops, sel);
            query::CommAnalysisQuery::opStrip(*ops, sel);
        }));
    }
    print("comm.duration_query.via_database_ms", percentile(viaDb, 0.5), "ms");
    print("comm.duration_query.index_ms", percentile(mem, 0.5), "ms");
}

// Times selection switches. One switch: from the Workspace change until both docks applied their new result and the
// event loop ran once more (their repaint). Then everything settles before the next switch.
struct SwitchTimer {
    gui::MainWindow& window;
    gui::CommMatrixDock* matrix;
    gui::CommDurationDock* duration;
    bool timedOut = false;
    std::vector<double> matrixAt, durationAt; // when each dock applied its result, every switch

    // Appends the time of one switch (change) to out.
    void measure(std::vector<double>& out, const std::function<void()>& change)
    {
        window.waitUntilIdle(60000);
        const int m0 = matrix->resultsApplied();
        const int d0 = duration->resultsApplied();
        QElapsedTimer t;
        t.start();
        change();
        const QDeadlineTimer deadline(60000);
        double mAt = -1, dAt = -1;
        while ((matrix->resultsApplied() == m0 || duration->resultsApplied() == d0) && !deadline.hasExpired()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
            const double now = static_cast<double>(t.nsecsElapsed()) / 1.0e6;
            if (mAt < 0 && matrix->resultsApplied() != m0)
                mAt = now;
            if (dAt < 0 && duration->resultsApplied() != d0)
                dAt = now;
        }
        matrixAt.push_back(mAt);
        durationAt.push_back(dAt);
        QCoreApplication::processEvents();
        timedOut = timedOut || deadline.hasExpired();
        out.push_back(static_cast<double>(t.nsecsElapsed()) / 1.0e6);
    }
};

// Step, group and op switches, round after round, and the docks' last query times.
void timeSwitches(gui::MainWindow& window, gui::CommMatrixDock* matrix, gui::CommDurationDock* duration,
    const std::shared_ptr<model::Database>& db, const std::vector<int64_t>& steps,
    const std::vector<std::string>& groups)
{
    gui::Workspace& ws = *window.workspace();
    SwitchTimer timer { window, matrix, duration, false, {}, {} };
    std::vector<double> stepSwitch, groupSwitch, opSwitch;
    constexpr int kRounds = 12;
    for (int i = 0; i < kRounds; ++i) {
        const int64_t step = steps[static_cast<size_t>(i) % steps.size()];
        timer.measure(stepSwitch, [&] { ws.setStep(step); });
        const std::string group = groups[static_cast<size_t>(i * 37) % groups.size()];
        timer.measure(groupSwitch, [&] { ws.setGroupHash(group); });
        query::CommSelection sel;
        sel.step = step;
        sel.groupHash = group;
        const auto names = query::CommAnalysisQuery::opNames(*query::CommOpIndex::forDatabase(db), sel);
        if (!names.empty()) {
            const std::string op = names[static_cast<size_t>(i) % names.size()];
            timer.measure(opSwitch, [&] { ws.setCommOp(op); });
            timer.measure(opSwitch, [&] { ws.setCommOp(std::nullopt); });
        }
        timer.measure(groupSwitch, [&] { ws.setGroupHash(std::nullopt); });
    }
    printStats("comm.switch_step", stepSwitch);
    printStats("comm.switch_group", groupSwitch);
    printStats("comm.switch_op", opSwitch);
    printStats("comm.switch_any.matrix_applied", timer.matrixAt);
    printStats("comm.switch_any.duration_applied", timer.durationAt);
    print("comm.switch_timeouts", timer.timedOut ? 1 : 0, "bool");
    print("comm.matrix_query_last_ms", matrix->lastQueryMs(), "ms");
    print("comm.duration_query_last_ms", duration->lastQueryMs(), "ms");
}

// Matrix frames: the all-ranks matrix of one step, painted at several zoom levels, against blitting one image.
void timeMatrixFrames(gui::MainWindow& window, gui::CommMatrixDock* matrix, int64_t step)
{
    window.workspace()->setStep(step);
    window.waitUntilIdle(60000);
    gui::CommMatrixView* view = matrix->view();
    QImage target(view->size(), QImage::Format_ARGB32_Premultiplied);
    const int imagesBefore = view->imagesBuilt();
    view->resetView();
    const int fitBlock = view->blockSize();
    std::vector<double> frames;
    for (int i = 0; i < 40; ++i) {
        view->setZoom(1.0 + (i % 10));
        frames.push_back(msOf([&] { view->render(&target); }));
    }
    view->resetView();
    // Baseline in the same run: drawing one widget-sized image, about the least a frame can cost.
    const QImage frame = target.copy();
    std::vector<double> baseline;
    for (int i = 0; i < 40; ++i) {
        baseline.push_back(msOf([&] {
            QPainter p(&target);
            p.drawImage(0, 0, frame);
        }));
    }
    print("comm.matrix_ranks", static_cast<double>(view->matrix().ranks.size()), "ranks");
    print("comm.matrix_cells", static_cast<double>(view->matrix().cells.size()), "cells");
    print("comm.matrix_fit_block_ranks", fitBlock, "ranks");
    // Cell images are built once per block size (zoom 1-10 needs a few), not per frame.
    print("comm.matrix_images_built", view->imagesBuilt() - imagesBefore, "images");
    printStats("comm.matrix_frame", frames);
    printStats("comm.matrix_frame_baseline_blit", baseline);
    print("comm.matrix_frame_ratio", percentile(frames, 0.5) / std::max(1e-6, percentile(baseline, 0.5)), "x");
}

// A full all-to-all matrix (a flat data-parallel job: every rank sends to every other), set on a view and painted
// fitted: what setMatrix and the first frames cost the GUI thread at ranks x ranks cells.
void timeFullMeshMatrix(int ranks, QThreadPool* pool, const std::string& prefix)
{
    query::CommMatrix m;
    const auto n = static_cast<size_t>(ranks);
    m.ranks.resize(n);
    for (size_t i = 0; i < n; ++i)
        m.ranks[i] = static_cast<int64_t>(i);
    m.cells.reserve(n * n);
    for (size_t s = 0; s < n; ++s) {
        for (size_t d = 0; d < n; ++d) {
            query::MatrixCell c;
            c.src = static_cast<int64_t>(s);
            c.dst = static_cast<int64_t>(d);
            c.transport = s == d ? "LOCAL" : (s / 8 == d / 8 ? "HCCS" : "RDMA");
            c.sizeMb = 4.0 + static_cast<double>((s * 31 + d * 17) % 97) / 10.0;
            c.timeNs = 100000 + static_cast<int64_t>((s * 13 + d * 7) % 1000) * 100;
            c.links = 1;
            m.cells.push_back(std::move(c));
        }
    }
    gui::CommMatrixView view;
    view.setWorkerPool(pool);
    view.resize(900, 700);
    QImage target(view.size(), QImage::Format_ARGB32_Premultiplied);
    const double setMs = msOf([&] { view.setMatrix(std::move(m)); });
    std::vector<double> frames;
    QElapsedTimer clock;
    clock.start();
    frames.push_back(msOf([&] { view.render(&target); }));
    // Until the fitted image is drawn (built on a worker where the view has a pool): frames as a user's repaints.
    while (view.imagesPending() && clock.elapsed() < 60000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        frames.push_back(msOf([&] { view.render(&target); }));
    }
    const double readyMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    print(prefix + ".cells", static_cast<double>(n * n), "cells");
    print(prefix + ".set_matrix_ms", setMs, "ms");
    print(prefix + ".first_frame_ms", frames.front(), "ms");
    print(prefix + ".max_frame_ms", *std::max_element(frames.begin(), frames.end()), "ms");
    print(prefix + ".image_ready_ms", readyMs, "ms");
}

} // namespace

int commViews(int argc, char** argv, const std::vector<std::string>& args)
{
    int ranks = 1024;
    std::string work = defaultWorkDir();
    if (!parseArgs(args, { { "--ranks", &ranks, 1 } }, { { "--work", &work } }))
        return 2;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    print("comm.machine_load1_start", loadAverage(), "load");

    const testgen::GeneratorOptions g = clusterOptions(ranks, work);
    if (!generateCluster(g))
        return 1;
    gui::MainWindow::Options options;
    options.persistSettings = false;
    options.interactive = false;
    gui::MainWindow window(options);
    window.resize(1600, 1000);
    if (!openCluster(window, g.outDir))
        return 1;

    // Matrix and duration table side by side (by default they share a tab): both must redraw.
    gui::CommMatrixDock* matrix = window.commMatrixDock();
    gui::CommDurationDock* duration = window.commDurationDock();
    window.addDockWidget(Qt::RightDockWidgetArea, duration);
    window.focusDock(matrix);
    duration->show();
    window.show();
    window.waitUntilIdle(60000);

    const std::shared_ptr<model::Database> db = window.workspace()->database();
    std::vector<int64_t> steps;
    std::vector<std::string> groups;
    {
        auto guard = db->lock();
        listSelections(*db, steps, groups);
        timeIndexBuilds(db);
        timeDurationQueries(db, steps);
    }
    if (steps.empty() || groups.empty()) {
        std::fprintf(stderr, "npuscope-bench: the cluster has no communication steps or groups\n");
        return 1;
    }
    timeSwitches(window, matrix, duration, db, steps, groups);
    timeMatrixFrames(window, matrix, steps.front());
    // The images built on the GUI thread (no pool: the view before it had one) and on the workspace's pool.
    timeFullMeshMatrix(ranks, nullptr, "comm.full_mesh.gui_thread");
    timeFullMeshMatrix(ranks, window.workspace()->inMemoryPool(), "comm.full_mesh.pool");
    print("comm.machine_load1_end", loadAverage(), "load");
    print("rss.comm.peak_mb", peakRssMb(), "MB");
    return 0;
}

} // namespace npuscope::bench
