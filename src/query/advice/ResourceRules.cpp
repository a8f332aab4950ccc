// SPDX-License-Identifier: Apache-2.0
// Memory peak, FLOPs-light ranks, model FLOPs utilisation and long AI CPU kernels.
#include "AdviceRules.h"

#include "npuscope/query/FlopsQuery.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/StepQuery.h"
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
    Finding f;
    f.id = "memory_peak";
    f.category = "memory";
    f.severity = *top.ratio > T::kMemoryCritical ? Severity::Critical : Severity::Warning;
    f.threshold = T::kMemoryPeak;
    f.thresholdText = formatText("peak reserved ÷ device memory > %.2f", T::kMemoryPeak);
    f.value = *top.ratio;
    f.unit = "ratio";
    for (const auto& p : above)
        f.ranks.push_back(p.rank);
    f.message = formatText("Rank %lld reserves up to %.1f MB of %.1f MB (%.1f %%, %s); ranks above %.0f %%: %zu.",
        static_cast<long long>(top.rank), *top.peakReservedMb, *ctx.options.capacityMb, *top.ratio * 100,
        top.component.value_or("?").c_str(), T::kMemoryPeak * 100, above.size());
    f.suggestion = "Close to out-of-memory, and fragmentation grows: recompute activations, shard optimizer states "
                   "(ZeRO / distributed optimizer), lower the micro-batch size, or set PYTORCH_NPU_ALLOC_CONF="
                   "expandable_segments:True.";
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
    for (const auto& r : summary.ranks) {
        if (r.flopsPerSecond() > 0)
            rate[r.rank] = r.flopsPerSecond();
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
            Finding f;
            f.id = "flops_light";
            f.category = "computation";
            f.severity = Severity::Warning;
            f.threshold = T::kFlopsLight;
            f.thresholdText = formatText("a rank's FLOP/s ÷ the median of its comparable ranks < %.1f", T::kFlopsLight);
            f.value = it->second / median;
            f.unit = "ratio";
            f.ranks = { r };
            f.message = formatText("Rank %lld does %.3f TFLOP/s against a median of %.3f TFLOP/s over comparable ranks "
                                   "%s (%.0f %%).",
                static_cast<long long>(r), it->second / 1e12, median / 1e12, rankList(set).c_str(), f.value * 100);
            f.suggestion = "The rank does less floating-point work in its kernel time: compare its operators with a "
                           "peer (Operators view, compare ranks): other shapes, a different data type, or slower "
                           "kernels.";
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
    for (const auto& row : StepQuery::breakdown(ctx.db))
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
        f.thresholdText = "model FLOPs utilisation needs the chip's peak (--peak-tflops); the chip is unknown";
        f.value = median / 1e12;
        f.unit = "TFLOP/s";
        f.message = formatText("Achieved %.3f TFLOP/s per rank (median over %zu ranks, FLOPs ÷ step wall time; the "
                               "lowest %.3f on rank %lld). The profiles do not name the chip: give its peak to get "
                               "the utilisation.",
            f.value, rates.size(), lowest.first / 1e12, static_cast<long long>(lowest.second));
        f.suggestion = "Run `npuscope-cli advise --peak-tflops P` with the chip's dense peak for the data type "
                       "trained (its data sheet).";
        out.push_back(std::move(f));
        return;
    }
    const double peak = *ctx.options.peakTflops * 1e12;
    f.value = median / peak;
    f.severity = f.value < T::kMfuLow ? Severity::Warning : Severity::Info;
    f.threshold = T::kMfuLow;
    f.thresholdText
        = formatText("FLOPs ÷ step wall time ÷ peak (%.1f TFLOP/s) < %.2f", *ctx.options.peakTflops, T::kMfuLow);
    f.unit = "ratio";
    f.message = formatText("Model FLOPs utilisation %.1f %% (median over %zu ranks: %.3f TFLOP/s of %.1f); the lowest "
                           "%.1f %% on rank %lld.",
        f.value * 100, rates.size(), median / 1e12, *ctx.options.peakTflops, lowest.first / peak * 100,
        static_cast<long long>(lowest.second));
    f.suggestion = "Low utilisation: the step spends its time outside large matrix kernels (communication, idle "
                   "gaps, small or vector operators); follow the other findings, raise the micro-batch size or "
                   "fuse operators.";
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
    for (const auto& row : ops->group(OperatorGroupBy::Name)) {
        if (row.accelerator.find("AI_CPU") != std::string::npos && static_cast<double>(row.maxNs) > T::kAiCpuUs * 1e3)
            ranks.insert(row.rank);
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
    f.thresholdText = formatText("an AI CPU kernel longer than %.0f µs", T::kAiCpuUs);
    f.value = static_cast<double>(longest) / 1e3;
    f.unit = "us";
    f.ranks.assign(ranks.begin(), ranks.end());
    f.message = formatText("%zu AI CPU operators have kernels longer than %.0f µs (the longest %.1f µs; %.3f ms in "
                           "total over every rank): %s%s.",
        rows.size(), T::kAiCpuUs, f.value, static_cast<double>(total) / 1e6, rows.front().key.c_str(),
        rows.size() > 1 ? ", …" : "");
    f.suggestion = "AI CPU operators run on the device's CPU and stall the stream: replace them (other data types, "
                   "an AI Core implementation, move the computation out of the step).";
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
