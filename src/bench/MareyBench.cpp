// SPDX-License-Identifier: Apache-2.0
// `npuscope-bench marey`: Marey view frames of 1,024 devices × 2,000 operators (synthetic, PP 4 × DP 32 × TP 8)
// painted into a 1920×1080 QImage by gui::MareyChart (per-pixel-row rasteriser) against the same run's naive frame
// (every operator and polygon a QPainter shape); and opening the view of a generated cluster's step: summary load,
// the step's kernels of every rank (Loader::loadStepKernels, 64 ranks per call as the dock does) cold and through a
// warm parse cache, MareyQuery + findings + the chart's layout, against the same run's older path (every rank's
// whole Kernels group imported, two ranks at a time, through a warm cache).

#include "BenchCases.h"

#include "npuscope/gui/marey/MareyChart.h"
#include "npuscope/gui/marey/MareyDock.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/MareyFindings.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace npuscope::bench {

namespace {

// devices (a multiple of 32) × ops: a training-like step per device, the same sequence of named ops on every
// device of a stage (every 25th a collective, sends and receives at the stage borders), durations jittered.
std::shared_ptr<query::MareyStep> syntheticStep(int devices, int ops, query::ParallelLayout& layout)
{
    query::ParallelSizes sizes { 4, std::max(1, devices / 32), 1, 8, 1 };
    std::vector<int64_t> ranks(static_cast<size_t>(sizes.world()));
    for (size_t i = 0; i < ranks.size(); ++i)
        ranks[i] = static_cast<int64_t>(i);
    layout = query::ParallelLayoutMath::megatron(sizes, ranks, query::LayoutSource::UserSizes, "bench");
    auto step = std::make_shared<query::MareyStep>();
    step->step = 1;
    const int names = 400;
    for (int n = 0; n < names; ++n)
        step->names.push_back("Op_" + std::to_string(n));
    step->names.push_back("hcom_send_");
    step->names.push_back("hcom_receive_");
    std::mt19937 rng(7);
    std::uniform_int_distribution<int64_t> jitter(0, 4000);
    const int64_t t0 = 1'736'494'814'000'000'000;
    for (const auto& stage : layout.stages) {
        query::MareyStage s;
        s.index = stage.index;
        s.firstDevice = static_cast<int>(step->devices.size());
        s.deviceCount = static_cast<int>(stage.loadedRanks.size());
        for (const int64_t rank : stage.loadedRanks) {
            query::MareyDevice dev;
            dev.rank = rank;
            dev.stage = static_cast<int>(step->stages.size());
            int64_t t = t0 + stage.index * 2'000'000 + jitter(rng) * 10;
            dev.ops.reserve(static_cast<size_t>(ops));
            for (int i = 0; i < ops; ++i) {
                query::MareyOp op;
                op.name = static_cast<uint32_t>((i * 7) % names);
                op.kind = i % 25 == 0 ? query::MareyOpKind::Communication : query::MareyOpKind::Compute;
                if (i % 500 == 250 && stage.index + 1 < static_cast<int>(layout.stages.size())) {
                    op.name = static_cast<uint32_t>(names);
                    op.kind = query::MareyOpKind::Send;
                } else if (i % 500 == 260 && stage.index > 0) {
                    op.name = static_cast<uint32_t>(names + 1);
                    op.kind = query::MareyOpKind::Receive;
                }
                const int64_t dur = 20'000 + (static_cast<int64_t>(i) * 7919 % 60'000) + jitter(rng);
                op.start = t;
                op.end = t + dur;
                t += dur + 2'000 + jitter(rng);
                dev.ops.push_back(op);
            }
            step->devices.push_back(std::move(dev));
        }
        step->stages.push_back(s);
    }
    return step;
}

std::string argOf(const std::vector<std::string>& args, const char* name, const std::string& fallback)
{
    for (size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == name)
            return args[i + 1];
    }
    return fallback;
}

// How an open gets the operators: the step's rows (step_kernel) or every rank's whole kernel table.
enum class KernelSource { Step, Group };

// Opening the view on a cluster: summary load through the cache, the first step's kernels of every rank, then
// query, findings and layout. Returns the seconds of each part.
struct OpenTimes {
    double load = 0, import = 0, query = 0, layout = 0;
    int64_t ops = 0;
    size_t devices = 0;
    double total() const { return load + import + query + layout; }
};

OpenTimes openCluster(
    const std::string& cluster, const load::ParseCache& cache, gui::MareyChart& chart, KernelSource source)
{
    OpenTimes t;
    auto t0 = Clock::now();
    load::LoadOptions options;
    options.loadTimelines = false;
    options.cache = &cache;
    auto db = load::Loader::load(io::Detector::detect({ cluster }), options);
    t.load = secondsSince(t0);
    t0 = Clock::now();
    if (!db)
        return t;
    const auto layout = query::ParallelLayoutQuery::layout(*db);
    std::vector<int64_t> ranks;
    for (const auto& s : layout.stages)
        ranks.insert(ranks.end(), s.loadedRanks.begin(), s.loadedRanks.end());
    const auto steps = query::MareyQuery::steps(*db);
    const auto stepId = steps.empty() ? std::nullopt : std::optional<int64_t>(steps.front());
    if (source == KernelSource::Step) {
        for (size_t i = 0; i < ranks.size(); i += gui::MareyDock::kRanksPerJob) {
            const std::vector<int64_t> chunk(ranks.begin() + static_cast<std::ptrdiff_t>(i),
                ranks.begin() + static_cast<std::ptrdiff_t>(std::min(ranks.size(), i + gui::MareyDock::kRanksPerJob)));
            gui::MareyDock::importStepKernels(*db, chunk, stepId, &cache);
        }
    } else {
        std::atomic<size_t> next { 0 };
        auto worker = [&] {
            for (size_t i = next++; i < ranks.size(); i = next++)
                load::Loader::loadDeferred(*db, ranks[i], io::kKernelsGroup, {}, nullptr, &cache);
        };
        std::thread w1(worker), w2(worker);
        w1.join();
        w2.join();
    }
    t.import = secondsSince(t0);
    t0 = Clock::now();
    auto guard = db->lock();
    auto step = std::make_shared<query::MareyStep>(query::MareyQuery::step(*db, layout, stepId));
    const auto findings = query::MareyFindings::find(*step);
    t.query = secondsSince(t0);
    t0 = Clock::now();
    t.ops = step->opCount;
    t.devices = step->devices.size();
    chart.setStep(step);
    QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&image);
    chart.paint(p);
    p.end();
    t.layout = secondsSince(t0);
    if (findings.findings.empty() && step->opCount == 0)
        std::fprintf(stderr, "marey: no operators in %s\n", cluster.c_str());
    return t;
}

} // namespace

int mareyView(int argc, char** argv, const std::vector<std::string>& args)
{
    const int devices = std::max(32, std::atoi(argOf(args, "--devices", "1024").c_str()));
    const int ops = std::max(10, std::atoi(argOf(args, "--ops", "2000").c_str()));
    const int frames = std::max(3, std::atoi(argOf(args, "--frames", "15").c_str()));
    const std::string cluster = argOf(args, "--cluster", "");
    const std::string work = argOf(args, "--work", "/tmp/npuscope-bench-marey");
    const std::string png = argOf(args, "--png", "");
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    query::ParallelLayout layout;
    auto a = Clock::now();
    auto step = syntheticStep(devices, ops, layout);
    print("marey.synthetic.build", msSince(a), "ms");
    a = Clock::now();
    query::MareyQuery::match(*step);
    print("marey.match", msSince(a), "ms");
    a = Clock::now();
    // The peers a communication matrix would name: the same dp/tp coordinate on the next / previous stage.
    std::vector<query::MareyQuery::OpPeer> peers;
    for (int d = 0; d < static_cast<int>(step->devices.size()); ++d) {
        const auto& dev = step->devices[d];
        const auto* c = layout.find(dev.rank);
        for (int i = 0; i < static_cast<int>(dev.ops.size()); ++i) {
            const auto kind = dev.ops[i].kind;
            if (kind != query::MareyOpKind::Send && kind != query::MareyOpKind::Receive)
                continue;
            const int pp = kind == query::MareyOpKind::Send ? c->pp + 1 : c->pp - 1;
            if (const auto peer = layout.rankAt(pp, c->dp, c->cp, c->tp))
                peers.push_back({ d, i, *peer });
        }
    }
    query::MareyQuery::pairSendReceive(*step, layout, peers);
    print("marey.pair_send_receive", msSince(a), "ms");
    a = Clock::now();
    const auto findings = query::MareyFindings::find(*step);
    print("marey.findings", msSince(a), "ms");
    print("marey.devices", static_cast<double>(step->devices.size()), "count");
    print("marey.ops", static_cast<double>(step->opCount), "count");
    print("marey.p2p", static_cast<double>(step->p2p.size()), "count");

    gui::MareyChart chart;
    chart.resize(1920, 1080);
    chart.setStep(step);
    QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);
    auto frameTimes = [&](int n, bool naive, const auto& setup) {
        std::vector<double> times;
        for (int f = 0; f < n; ++f) {
            setup(f);
            const auto t = Clock::now();
            QPainter p(&image);
            if (naive)
                chart.paintNaive(p);
            else
                chart.paint(p);
            p.end();
            times.push_back(msSince(t));
        }
        return times;
    };
    const auto range = step->range(query::MareyTime::Absolute);
    const auto whole = [&](int) { chart.zoomOut(); };
    const auto tenth = [&](int f) {
        const int64_t w = (range.second - range.first) / 10;
        const int64_t b = range.first + (range.second - range.first - w) * f / std::max(1, frames - 1);
        chart.zoomTo(b, b + w);
    };
    auto save = [&](const char* name) {
        if (!png.empty()) {
            std::filesystem::create_directories(png);
            image.save(QString::fromStdString(png + "/" + name));
        }
    };
    const auto full = frameTimes(frames, false, whole);
    save("marey-bench-full.png");
    print("marey.frame.median", percentile(full, 0.5), "ms");
    print("marey.frame.p95", percentile(full, 0.95), "ms");
    print("marey.frame.tenth.median", percentile(frameTimes(frames, false, tenth), 0.5), "ms");
    save("marey-bench-tenth.png");
    chart.setStageCollapsed(1, true);
    print("marey.frame.collapsed.median", percentile(frameTimes(frames, false, whole), 0.5), "ms");
    save("marey-bench-collapsed.png");
    chart.setStageCollapsed(1, false);
    // The baseline: the same frame with one QPainter shape per operator and per polygon (few frames: it is slow).
    const auto naive = frameTimes(3, true, whole);
    save("marey-bench-naive.png");
    print("marey.frame.naive.median", percentile(naive, 0.5), "ms");
    print("marey.frame.speedup", percentile(naive, 0.5) / std::max(1e-6, percentile(full, 0.5)), "x");
    print("marey.findings.count",
        static_cast<double>(findings.slowDeviceTotal + findings.stageWideTotal + findings.oneDeviceTotal), "count");

    if (cluster.empty()) {
        std::printf("# marey.open_s: pass --cluster DIR (a generated cluster, e.g. npuscope-cli generate --ranks 1024 "
                    "--pp 4 --tp 8) to measure opening the view\n");
        return 0;
    }
    gui::MareyChart openChart;
    openChart.resize(1920, 1080);
    // Cold: an empty cache (summary parsed, every rank's kernel file scanned); warm: the second open reads it.
    const std::string coldDir = work + "/cold";
    std::filesystem::remove_all(coldDir);
    const load::ParseCache fresh(load::ParseCache::Options { coldDir, 64ull << 30 });
    const auto cold = openCluster(cluster, fresh, openChart, KernelSource::Step);
    const auto warm = openCluster(cluster, fresh, openChart, KernelSource::Step);
    std::filesystem::remove_all(coldDir);
    // The baseline: every rank's Kernels group, through a cache kept between runs (filled here when empty).
    const load::ParseCache cache(load::ParseCache::Options { work + "/cache", 64ull << 30 });
    openCluster(cluster, cache, openChart, KernelSource::Group);
    const auto group = openCluster(cluster, cache, openChart, KernelSource::Group);
    print("marey.open.devices", static_cast<double>(warm.devices), "count");
    print("marey.open.ops", static_cast<double>(warm.ops), "count");
    print("marey.open.baseline_ops", static_cast<double>(group.ops), "count");
    print("marey.open.cold_s", cold.total(), "s");
    print("marey.open.cold_load_s", cold.load, "s");
    print("marey.open.cold_step_kernels_s", cold.import, "s");
    print("marey.open.load_s", warm.load, "s");
    print("marey.open.step_kernels_s", warm.import, "s");
    print("marey.open.query_s", warm.query, "s");
    print("marey.open.layout_paint_s", warm.layout, "s");
    print("marey.open_s", warm.total(), "s");
    print("marey.open.baseline_group_import_s", group.total(), "s");
    print("marey.open.baseline_import_kernels_s", group.import, "s");
    print("marey.open.speedup", group.total() / std::max(1e-6, warm.total()), "x");
    return 0;
}

} // namespace npuscope::bench
