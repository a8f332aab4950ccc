// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench memory`: frames of the memory detail curve chart (gui::MemoryCurveChart) with 5,000,000 synthetic
// memory_record samples in 12 series (4 components x Allocated / Reserved / Active), painted offscreen into a
// 1600-px-wide QImage, against the same run's baseline of drawing every point unreduced; and the downsampling times
// (the one-off prepare of a rank's levels, a frame's reduction, and the same from the overviews and the raw points).

#include "BenchCases.h"

#include "npuscope/core/Downsample.h"
#include "npuscope/gui/memory/MemoryCurveChart.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QPolygonF>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace npuscope::bench {

namespace {

// A training-like curve: a sawtooth per step (activations allocated in forward, freed in backward) plus noise.
std::vector<query::MemoryCurve> syntheticCurves(size_t total)
{
    const char* components[] = { "APP", "PTA", "GE", "PTA+GE" };
    constexpr int kSeries = 12;
    const size_t each = total / kSeries;
    std::vector<query::MemoryCurve> out;
    std::mt19937 rng(42);
    std::normal_distribution<double> noise(0, 2);
    const int64_t t0 = 1'736'412'474'607'990'000;
    for (int s = 0; s < kSeries; ++s) {
        query::MemoryCurve c;
        c.component = components[s / 3];
        c.metric = static_cast<query::MemoryMetric>(s % 3);
        c.points.reserve(each);
        const double base = 2000.0 + 3000.0 * (s / 3) + 500.0 * (s % 3);
        for (size_t i = 0; i < each; ++i) {
            const double phase = static_cast<double>(i % 50'000) / 50'000.0;
            c.points.push_back({ t0 + static_cast<int64_t>(i) * 20'000, base + 1500.0 * phase + noise(rng) });
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace

int memoryCurve(int argc, char** argv, const std::vector<std::string>& args)
{
    size_t points = 5'000'000;
    int frames = 20;
    for (size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == "--points")
            points = static_cast<size_t>(std::atoll(args[i + 1].c_str()));
        else if (args[i] == "--frames")
            frames = std::max(1, std::atoi(args[i + 1].c_str()));
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    auto curves = syntheticCurves(points);
    size_t total = 0;
    for (const auto& c : curves)
        total += c.points.size();
    print("memory.points", static_cast<double>(total), "count");

    // Once per rank (a worker thread in the dock): the overviews of a rank above kReduceAbove points.
    auto a = Clock::now();
    auto series = gui::MemoryCurveChart::prepare(curves);
    print("memory.prepare", msSince(a), "ms");

    gui::MemoryCurveChart chart;
    chart.resize(1600, 500);
    chart.setSeries(series);
    chart.setSteps({ { 1, curves[0].points[total / 48].t, curves[0].points[total / 24].t } });
    QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);

    // Every frame a new view (whole range / 99.9 %, then a tenth panned), so no frame reuses the cached polylines.
    auto frameTimes = [&](double fraction) {
        std::vector<double> times;
        for (int f = 0; f < frames; ++f) {
            chart.fitAll();
            auto& axis = chart.axis();
            const double window = static_cast<double>(axis.boundsEnd() - axis.boundsBegin()) * fraction;
            const int64_t begin = axis.boundsBegin()
                + static_cast<int64_t>((static_cast<double>(axis.boundsEnd() - axis.boundsBegin()) - window) * f
                    / std::max(1, frames - 1) * (fraction < 1 ? 1.0 : 0.0));
            axis.fit(begin, begin + static_cast<int64_t>(window * (f % 2 ? 0.999 : 1.0)));
            const auto t = Clock::now();
            QPainter p(&image);
            chart.paint(p);
            p.end();
            times.push_back(msSince(t));
        }
        return times;
    };
    const auto full = frameTimes(1.0);
    print("memory.frame.full.median", percentile(full, 0.5), "ms");
    print("memory.frame.full.p95", percentile(full, 0.95), "ms");
    print("memory.frame.drawn_points", static_cast<double>(chart.drawnPoints()), "count");
    const auto tenth = frameTimes(0.1);
    print("memory.frame.tenth.median", percentile(tenth, 0.5), "ms");

    // The reductions alone: a full frame's (each series' coarse level to 2 points per pixel), the same from the
    // 1,000,000-point overviews and from the raw points (what a frame would cost without those levels).
    auto reduceMs = [&](auto levelOf) {
        std::vector<double> times;
        for (int f = 0; f < frames; ++f) {
            const auto t = Clock::now();
            size_t kept = 0;
            for (const auto& s : series)
                kept += core::downsampleLttb(levelOf(s), 3200).size();
            times.push_back(msSince(t));
            if (kept == 0)
                return -1.0;
        }
        return percentile(times, 0.5);
    };
    using Points = const std::vector<core::CurvePoint>&;
    print("memory.lttb.frame.median", reduceMs([](const gui::MemoryCurveChart::Series& s) -> Points {
        return !s.coarse.empty() ? s.coarse : (!s.overview.empty() ? s.overview : s.curve.points);
    }),
        "ms");
    print("memory.lttb.overview.median", reduceMs([](const gui::MemoryCurveChart::Series& s) -> Points {
        return !s.overview.empty() ? s.overview : s.curve.points;
    }),
        "ms");
    a = Clock::now();
    for (const auto& c : curves)
        core::downsampleLttb(c.points, 3200);
    print("memory.lttb.raw", msSince(a), "ms");

    // Baseline: every point drawn unreduced as one polyline per series, the same pens' width, no antialiasing.
    std::vector<double> baseline;
    const int baselineFrames = std::min(frames, 3);
    for (int f = 0; f < baselineFrames; ++f) {
        const auto t = Clock::now();
        QPainter p(&image);
        p.fillRect(image.rect(), Qt::white);
        const double span = static_cast<double>(curves[0].points.back().t - curves[0].points.front().t);
        for (const auto& c : curves) {
            QPolygonF line;
            line.reserve(static_cast<qsizetype>(c.points.size()));
            for (const auto& pt : c.points)
                line.append(QPointF(
                    70 + static_cast<double>(pt.t - c.points.front().t) / span * 1516, 480 - pt.v / 15000.0 * 460));
            p.setPen(QPen(Qt::blue, 1));
            p.drawPolyline(line);
        }
        p.end();
        baseline.push_back(msSince(t));
    }
    const double base = percentile(baseline, 0.5);
    print("memory.frame.unreduced.median", base, "ms");
    print("memory.frame.full.vs_unreduced", base > 0 ? percentile(full, 0.5) / base : 0, "ratio");
    return 0;
}

} // namespace npuscope::bench
