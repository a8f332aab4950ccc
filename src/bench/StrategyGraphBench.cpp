// SPDX-License-Identifier: Apache-2.0
// strategy-graph: the Strategy graph view of a MindSpore job with parallel_strategy files, in the real main window:
// how long after the load the view is ready, and the frame time at every zoom level against a blank frame of the
// same size (the floor: filling and drawing an image that big).
#include "BenchCases.h"
#include "GuiBenchSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/strategy/StrategyGraphCanvas.h"
#include "npuscope/gui/strategy/StrategyGraphDock.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPainter>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace npuscope::bench {

int strategyGraph(int argc, char** argv, const std::vector<std::string>& args)
{
    std::string path, size;
    int width = 1920, height = 1080, frames = 15;
    if (!parseArgs(args, { { "--frames", &frames, 3 } }, { { "--path", &path }, { "--size", &size } })
        || !parseSize(size, width, height))
        return 2;
    if (path.empty()) {
        std::fprintf(stderr, "usage: npuscope-bench strategy-graph --path P [--frames 15] [--size 1920x1080]\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    gui::MainWindow::Options options;
    options.persistSettings = false;
    options.useParseCache = false;
    gui::MainWindow window(options);
    window.resize(width, height);
    window.show();
    auto* dock = window.strategyGraphDock();
    window.showView(dock);
    bool finished = false, ok = false;
    QObject::connect(&window, &gui::MainWindow::loadFinished, &window, [&](bool success, const QString&) {
        ok = success;
        finished = true;
    });
    QElapsedTimer clock;
    clock.start();
    window.open({ QString::fromStdString(path) });
    spinEvents(30 * 60 * 1000, [&] { return finished; });
    const double loadedS = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    if (!ok) {
        std::fprintf(stderr, "npuscope-bench: the window could not open %s\n", path.c_str());
        return 1;
    }
    window.showView(dock); // the open raised the cluster views; a hidden dock queries when it is shown
    auto* canvas = dock->canvas();
    spinEvents(30 * 60 * 1000, [&] { return canvas->graph() != nullptr; });
    const double readyS = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    if (!canvas->graph()) {
        std::fprintf(stderr, "npuscope-bench: no strategy graph in %s\n", path.c_str());
        return 1;
    }
    // The canvas as big as the window, as a user maximising the view would have it.
    canvas->resize(width, height);
    canvas->fit();
    std::vector<double> blank;
    for (int f = 0; f < frames; ++f) {
        QElapsedTimer t;
        t.start();
        QImage image(canvas->size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QImage layer(canvas->size(), QImage::Format_ARGB32_Premultiplied);
        layer.fill(Qt::transparent);
        QPainter(&image).drawImage(0, 0, layer);
        blank.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    // Zoom levels from the whole pipeline to labelled boxes; at each, frames at spread positions (a pan).
    const double fitScale = canvas->pixelsPerColumn();
    double worst = 0;
    for (const double zoom : { 1.0, 4.0, 16.0, 64.0, 256.0 }) {
        canvas->fit();
        canvas->zoomAt(zoom, 0);
        const auto* graph = canvas->graph();
        std::vector<double> times;
        for (int f = 0; f < frames; ++f) {
            const uint32_t node
                = static_cast<uint32_t>((static_cast<uint64_t>(graph->nodes.size()) * static_cast<uint64_t>(f)) / frames);
            if (zoom > 1)
                canvas->centerOn(node);
            if (zoom > 1 && canvas->pixelsPerColumn() != fitScale * zoom)
                canvas->zoomAt(fitScale * zoom / canvas->pixelsPerColumn(), width / 2.0);
            QElapsedTimer t;
            t.start();
            const QImage image = canvas->renderFrame();
            times.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        const double median = medianOf(times);
        worst = std::max(worst, median);
        print("strategy.frame_median_ms.zoom" + std::to_string(static_cast<int>(zoom)), median, "ms");
    }
    print("strategy.nodes", static_cast<double>(canvas->graph()->nodes.size()), "nodes");
    print("strategy.stages", static_cast<double>(canvas->graph()->stages.size()), "stages");
    print("strategy.loaded_s", loadedS, "s");
    print("strategy.ready_s", readyS - loadedS, "s");
    print("strategy.frame_median_ms", worst, "ms");
    print("strategy.blank_frame_median_ms", medianOf(blank), "ms");
    print("rss_mb", peakRssMb(), "MB");
    return 0;
}

} // namespace npuscope::bench
