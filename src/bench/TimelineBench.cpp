// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench timeline`: paints of a generated 5,000,000-slice, 64-row timeline into a
// 1920x1080 QImage at several zoom levels, and hover hit-testing. Compiled only when the bench is
// linked to npuscope_gui (which brings the Qt include paths); see src/bench/main.cpp.

#if __has_include(<QtGui/QImage>)

#include "npuscope/gui/timeline/TimelineRenderer.h"
#include "npuscope/testgen/TimelineGenerator.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include "BenchCases.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace npuscope::bench {

namespace {

} // namespace

int runTimelineBench(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv); // fonts need a GUI application
    const int64_t slices = argc > 2 ? std::atoll(argv[2]) : 5'000'000;
    const auto t0 = Clock::now();
    const auto data = testgen::TimelineGenerator::generate(slices, 64, 4);
    std::printf("timeline.generate %.3f ms\n", msSince(t0));
    std::printf("timeline.slices %zu count\n", data->sliceCount());

    gui::TimelineRenderer renderer;
    gui::TimelineRenderer::RankEntry entry;
    entry.rank = 0;
    entry.data = data;
    entry.expanded = true;
    entry.offsetNs = 1234; // exercises the per-rank shifted axis
    renderer.ranks().push_back(entry);
    renderer.setSize(QSize(1920, 1080));
    // Worst case: every nesting level drawn (no level cap), one pinned row and a few markers.
    renderer.setMaxLevels(1000);
    renderer.setPinned({ gui::TimelineRenderer::RowKind::Track, 0, 0 }, true);
    for (int m = 0; m < 20; ++m) {
        const int64_t at = data->begin + (data->end - data->begin) / 20 * m;
        renderer.markers().push_back({ QStringLiteral("m%1").arg(m), at, m % 2 ? at + 1000 : at });
    }
    renderer.rebuildRows();
    renderer.updateBounds();
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);

    const int64_t span = data->end - data->begin;
    const int64_t mid = data->begin + span / 2;
    struct Level {
        const char* name;
        int64_t window;
    };
    const Level levels[] = { { "full", 0 }, { "tenth", span / 10 }, { "thousandth", span / 1000 }, { "1us", 1000 } };
    for (const Level& level : levels) {
        std::vector<double> times;
        for (int frame = 0; frame < 60; ++frame) {
            if (level.window == 0)
                renderer.axis().fitBounds();
            else // pan a little every frame, as a user would
                renderer.axis().fit(mid + frame * level.window / 50, mid + frame * level.window / 50 + level.window);
            renderer.setScrollY((frame * 97) % std::max(1, renderer.contentHeight()));
            const auto a = Clock::now();
            QPainter p(&image);
            renderer.paint(p);
            p.end();
            times.push_back(msSince(a));
        }
        std::printf("timeline.paint.%s.median %.3f ms\n", level.name, percentile(times, 0.5));
        std::printf("timeline.paint.%s.p95 %.3f ms\n", level.name, percentile(times, 0.95));
    }
    renderer.axis().fitBounds();
    renderer.setScrollY(0);
    std::vector<double> hits;
    int found = 0;
    const int labelWidth = gui::TimelineRenderer::labelWidthFor(1920);
    for (int i = 0; i < 2000; ++i) {
        const QPoint pos(labelWidth + (i * 37) % (1920 - labelWidth),
            gui::TimelineRenderer::kRulerHeight + (i * 53) % (1080 - gui::TimelineRenderer::kRulerHeight));
        const auto a = Clock::now();
        found += renderer.hitTest(pos).has_value() ? 1 : 0;
        hits.push_back(msSince(a));
    }
    std::printf("timeline.hover.full.median %.4f ms\n", percentile(hits, 0.5));
    std::printf("timeline.hover.full.p95 %.4f ms\n", percentile(hits, 0.95));
    std::printf("timeline.hover.hits %d count\n", found);
    return 0;
}

} // namespace npuscope::bench

#endif
