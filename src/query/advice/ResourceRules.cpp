// SPDX-License-Identifier: Apache-2.0
// Memory peak, FLOPs-light ranks, model FLOPs utilisation and long AI CPU kernels.
#include "AdviceRules.h"

#include "npuscope/query/FlopsQuery.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"
#include "npuscope/query/advice/OutlierTest.h"

#include <algorithm>
#include <map>
#include <set>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

void memoryPeak(const AdviceContext& ctx, std::vector<Finding>& out)
{
    if (!ctx.options.capacityMb)
        return;
    std::vector<RankMemoryPeak> above;
    for (auto& p : MemoryQuery::peaks(ctx.db, ctx.options.capacityMb)) {
        if (p.ratio && *p.ratio > T::kMemoryPeak)
            above.push_back(std::move(p));
    }
    if (above.empty())
        return;
    std::sort(above.begin(), above.end(),
        [](const auto& a, const auto& b) { return *a.ratio != *b.ratio ? *a.ratio > *b.ratio : a.rank < b.rank; });
    const auto& top = above.front();
    Finding f = Finding::ofRule("memory_peak", "memory",
        *top.ratio > T::kMemoryCritical ? Severity::Critical : Severity::Warning, T::kMemoryPeak,
        text(QT_TRANSLATE_NOOP("Advice", "peak reserved ÷ device memory > %1"), { fixed(T::kMemoryPeak, 2) }));
    f.value = *top.ratio;
    f.unit = "ratio";
    for (const auto& p : above)
        f.ranks.push_back(p.rank);
    f.setMessage(
        text(QT_TRANSLATE_NOOP("Advice", "Rank %1 reserves up to %2 MB of %3 MB (%4 %, %5); ranks above %6 %: %7."),
            { std::to_string(top.rank), fixed(*top.peakReservedMb, 1), fixed(*ctx.options.capacityMb, 1),
                fixed(*top.ratio * 100, 1), top.component.value_or("?"), fixed(T::kMemoryPeak * 100, 0),
                std::to_string(above.size()) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "Close to out-of-memory, and fragmentation grows: recompute activations, shard optimizer states (ZeRO / "
        "distributed optimizer), lower the micro-batch size, or set "
        "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.")));
    f.evidence.view = "memory";
    f.evidence.rank = top.rank;
    out.push_back(std::move(f));
}

void flopsLight(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto summary = FlopsQuery::perRank(ctx.db);
    if (!summary.recorded)
        return;
    std::map<int64_t, double> rate;
    std::map<int64_t, const RankFlops*> byRank;
    for (const auto& r : summary.ranks) {
        if (r.flopsPerSecond() > 0)
            rate[r.rank] = r.flopsPerSecond();
        byRank[r.rank] = &r;
    }
    for (const auto& set : ctx.comparable) {
        std::vector<double> values;
        for (int64_t r : set) {
            if (const auto it = rate.find(r); it != rate.end())
                values.push_back(it->second);
        }
        if (values.size() < 2)
            continue;
        const double median = OutlierTest::median(values);
        for (int64_t r : set) {
            const auto it = rate.find(r);
            if (it == rate.end() || !(median > 0) || it->second >= T::kFlopsLight * median)
                continue;
            Finding f = Finding::ofRule("flops_light", "computation", Severity::Warning, T::kFlopsLight,
                text(QT_TRANSLATE_NOOP("Advice", "a rank's FLOP/s ÷ the median of its comparable ranks < %1"),
                    { fixed(T::kFlopsLight, 1) }));
            f.value = it->second / median;
            f.unit = "ratio";
            f.ranks = { r };
            f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                                  "Rank %1 does %2 TFLOP/s against a median of %3 TFLOP/s over comparable ranks %4 "
                                  "(%5 %)."),
                { std::to_string(r), fixed(it->second / 1e12, 3), fixed(median / 1e12, 3), rankList(set),
                    fixed(f.value * 100, 0) }));
            f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
                "The rank does less floating-point work in its kernel time: compare its operators with a peer "
                "(Operators view, compare ranks): other shapes, a different data type, or slower kernels.")));
            // The kernel time the rank would save at the median rate, per step (docs/metrics.md, "Impact"); only
            // with kernel times (flops_summary has none).
            const RankFlops* flops = byRank[r];
            const auto steps = ctx.stepsOf.find(r);
            if (flops->computeNs > 0 && steps != ctx.stepsOf.end() && steps->second.count > 0)
                setImpact(f,
                    (static_cast<double>(flops->computeNs) - flops->flops / median * 1e9) / steps->second.count,
                    steps->second.meanNs());
            f.evidence.view = "flops";
            f.evidence.rank = r;
            out.push_back(std::move(f));
        }
    }
}

// Model FLOPs utilisation: Σ FLOPs ÷ Σ step wall time ÷ the chip's peak, per rank over every loaded step.
void modelFlopsUtilisation(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto summary = FlopsQuery::perRank(ctx.db);
    if (!summary.recorded)
        return;
    std::map<int64_t, int64_t> wallNs;
    for (const auto& row : ctx.breakdown)
        wallNs[row.rank] += row.wallTime().value_or(0);
    std::vector<std::pair<double, int64_t>> rates; // FLOP/s over the wall time, rank
    for (const auto& r : summary.ranks) {
        const auto it = wallNs.find(r.rank);
        if (r.source == FlopsSource::Kernels && r.flops > 0 && it != wallNs.end() && it->second > 0)
            rates.emplace_back(r.flops / (static_cast<double>(it->second) * 1e-9), r.rank);
    }
    if (rates.empty())
        return;
    std::sort(rates.begin(), rates.end());
    std::vector<double> values;
    for (const auto& [rate, rank] : rates)
        values.push_back(rate);
    const double median = OutlierTest::median(values);
    const auto& lowest = rates.front();
    Finding f;
    f.id = "mfu";
    f.category = "computation";
    f.ranks.push_back(lowest.second);
    f.evidence.view = "flops";
    f.evidence.rank = lowest.second;
    if (!ctx.options.peakTflops) {
        f.severity = Severity::Info;
        f.threshold = T::kMfuLow;
        f.setThreshold(text(QT_TRANSLATE_NOOP(
            "Advice", "model FLOPs utilisation needs the chip's peak (--peak-tflops); the chip is unknown")));
        f.value = median / 1e12;
        f.unit = "TFLOP/s";
        f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                              "Achieved %1 TFLOP/s per rank (median over %2 ranks, FLOPs ÷ step wall time; the lowest "
                              "%3 on rank %4). The profiles do not name the chip: give its peak to get the "
                              "utilisation."),
            { fixed(f.value, 3), std::to_string(rates.size()), fixed(lowest.first / 1e12, 3),
                std::to_string(lowest.second) }));
        f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
            "Run `npuscope-cli advise --peak-tflops P` with the chip's dense peak for the data type trained (its data "
            "sheet).")));
        out.push_back(std::move(f));
        return;
    }
    const double peak = *ctx.options.peakTflops * 1e12;
    f.value = median / peak;
    f.severity = f.value < T::kMfuLow ? Severity::Warning : Severity::Info;
    f.threshold = T::kMfuLow;
    f.setThreshold(text(QT_TRANSLATE_NOOP("Advice", "FLOPs ÷ step wall time ÷ peak (%1 TFLOP/s) < %2"),
        { fixed(*ctx.options.peakTflops, 1), fixed(T::kMfuLow, 2) }));
    f.unit = "ratio";
    f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                          "Model FLOPs utilisation %1 % (median over %2 ranks: %3 TFLOP/s of %4); the lowest %5 % on "
                          "rank %6."),
        { fixed(f.value * 100, 1), std::to_string(rates.size()), fixed(median / 1e12, 3),
            fixed(*ctx.options.peakTflops, 1), fixed(lowest.first / peak * 100, 1), std::to_string(lowest.second) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "Low utilisation: the step spends its time outside large matrix kernels (communication, idle gaps, small or "
        "vector operators); follow the other findings, raise the micro-batch size or fuse operators.")));
    out.push_back(std::move(f));
}

void aicpuLong(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto ops = OperatorQuery::forDatabase(ctx.db);
    if (ops->size() == 0)
        return;
    std::vector<OperatorRow> rows;
    for (auto& row : ops->aggregate(OperatorGroupBy::Name)) {
        if (row.accelerator.find("AI_CPU") != std::string::npos && static_cast<double>(row.maxNs) > T::kAiCpuUs * 1e3)
            rows.push_back(std::move(row));
    }
    if (rows.empty())
        return;
    std::set<int64_t> ranks;
    std::map<int64_t, double> rankNs; // rank -> Σ time of its long-running AI CPU operators
    for (const auto& row : ops->group(OperatorGroupBy::Name)) {
        if (row.accelerator.find("AI_CPU") != std::string::npos && static_cast<double>(row.maxNs) > T::kAiCpuUs * 1e3) {
            ranks.insert(row.rank);
            rankNs[row.rank] += static_cast<double>(row.totalNs);
        }
    }
    int64_t total = 0, longest = 0;
    Finding f;
    for (const auto& row : rows) {
        total += row.totalNs;
        longest = std::max(longest, row.maxNs);
        if (f.ops.size() < 10)
            f.ops.push_back(row.key);
    }
    f.id = "aicpu_long";
    f.category = "computation";
    f.severity = Severity::Warning;
    f.threshold = T::kAiCpuUs;
    f.setThreshold(text(QT_TRANSLATE_NOOP("Advice", "an AI CPU kernel longer than %1 µs"), { fixed(T::kAiCpuUs, 0) }));
    f.value = static_cast<double>(longest) / 1e3;
    f.unit = "us";
    f.ranks.assign(ranks.begin(), ranks.end());
    f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                          "%1 AI CPU operators have kernels longer than %2 µs (the longest %3 µs; %4 ms in total over "
                          "every rank): %5%6."),
        { std::to_string(rows.size()), fixed(T::kAiCpuUs, 0), fixed(f.value, 1),
            fixed(static_cast<double>(total) / 1e6, 3), rows.front().key, std::string(rows.size() > 1 ? ", …" : "") }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "AI CPU operators run on the device's CPU and stall the stream: replace them (other data types, an AI Core "
        "implementation, move the computation out of the step).")));
    // The rank whose AI CPU operators take most of its steps: their whole time per step, an upper bound of what
    // replacing them saves (docs/metrics.md, "Impact").
    double worstShare = 0, worstNs = 0, worstStepNs = 0;
    for (const auto& [rank, ns] : rankNs) {
        const auto steps = ctx.stepsOf.find(rank);
        if (steps == ctx.stepsOf.end() || steps->second.count == 0 || !(steps->second.sumNs > 0))
            continue;
        if (ns / steps->second.sumNs > worstShare) {
            worstShare = ns / steps->second.sumNs;
            worstNs = ns / steps->second.count;
            worstStepNs = steps->second.meanNs();
        }
    }
    setImpact(f, worstNs, worstStepNs);
    f.evidence.view = "operators";
    if (!f.ranks.empty())
        f.evidence.rank = f.ranks.front();
    f.evidence.op = rows.front().key;
    out.push_back(std::move(f));
}

} // namespace

void resourceRules(const AdviceContext& ctx, std::vector<Finding>& out)
{
    memoryPeak(ctx, out);
    flopsLight(ctx, out);
    modelFlopsUtilisation(ctx, out);
    aicpuLong(ctx, out);
}

} // namespace npuscope::query::advice
