// SPDX-License-Identifier: Apache-2.0
// Step-level scheduling rules: Preparing share, step-to-step variance, pipeline bubble share.
#include "AdviceRules.h"

#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"
#include "npuscope/query/advice/OutlierTest.h"

#include <algorithm>
#include <map>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

// (rank, value) pairs above a threshold, largest first.
std::vector<std::pair<int64_t, double>> sortedDesc(std::vector<std::pair<int64_t, double>> v)
{
    std::sort(v.begin(), v.end(),
        [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    return v;
}

std::vector<int64_t> ranksOf(const std::vector<std::pair<int64_t, double>>& v)
{
    std::vector<int64_t> ranks;
    for (const auto& [r, x] : v)
        ranks.push_back(r);
    return ranks;
}

void preparing(const AdviceContext& ctx, std::vector<Finding>& out)
{
    std::vector<std::pair<int64_t, double>> above;
    for (const auto& row : ctx.averaged) {
        const auto prep = row.value(StepColumn::Preparing);
        const auto wall = row.wallTime();
        if (!prep || !wall || *wall <= 0)
            continue;
        const double share = static_cast<double>(*prep) / static_cast<double>(*wall);
        if (share > T::kPreparingShare)
            above.emplace_back(row.rank, share);
    }
    if (above.empty())
        return;
    above = sortedDesc(std::move(above));
    Finding f = Finding::ofRule("preparing", "scheduling", Severity::Warning, T::kPreparingShare,
        text(QT_TRANSLATE_NOOP("Advice", "Preparing ÷ step time > %1"), { fixed(T::kPreparingShare, 2) }));
    f.value = above.front().second;
    f.unit = "ratio";
    f.ranks = ranksOf(above);
    f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                          "Preparing (from the step start to the first device task: data loading) is %1 % of the "
                          "step on rank %2; ranks above %3 %: %4."),
        { fixed(f.value * 100, 1), std::to_string(above.front().first), fixed(T::kPreparingShare * 100, 0),
            std::to_string(above.size()) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "The input pipeline is too slow: more DataLoader workers, pin_memory, prefetching, or preprocessed / cached "
        "data; check the host CPU binding.")));
    // The top rank's Preparing is step time no device work fills (docs/metrics.md, "Impact").
    const double stepNs = ctx.rankStepNs(above.front().first);
    setImpact(f, f.value * stepNs, stepNs);
    f.evidence.view = "steps";
    f.evidence.rank = above.front().first;
    out.push_back(std::move(f));
}

void stepVariance(const AdviceContext& ctx, std::vector<Finding>& out)
{
    std::map<int64_t, std::vector<std::pair<int64_t, double>>> perRank; // rank -> (step, wall ns)
    for (const auto& row : ctx.breakdown) {
        if (const auto w = row.wallTime(); w && row.step)
            perRank[row.rank].emplace_back(*row.step, static_cast<double>(*w));
    }
    std::vector<std::pair<int64_t, double>> above;
    std::map<int64_t, std::pair<int64_t, int64_t>> extremes; // rank -> (slowest step, fastest step)
    std::map<int64_t, std::pair<double, double>> excess; // rank -> (mean excess over the median step, mean step)
    for (auto& [rank, steps] : perRank) {
        std::sort(steps.begin(), steps.end());
        // The warm-up step (graph compilation, first allocations) is left out when two others remain.
        if (ctx.options.skipFirstStep && steps.size() > 2)
            steps.erase(steps.begin());
        if (steps.size() < 2)
            continue;
        const auto wall = spreadOf(steps, [](const auto& s) { return s.second; });
        if (!wall)
            continue;
        const auto [lo, hi, mean, spread] = *wall;
        if (spread > T::kStepVariance) {
            above.emplace_back(rank, spread);
            extremes[rank] = { hi->first, lo->first };
            std::vector<double> walls;
            for (const auto& st : steps)
                walls.push_back(st.second);
            const double median = OutlierTest::median(walls);
            double sum = 0;
            for (double w : walls)
                sum += std::max(0.0, w - median);
            excess[rank] = { sum / static_cast<double>(walls.size()), mean };
        }
    }
    if (above.empty())
        return;
    above = sortedDesc(std::move(above));
    const int64_t rank = above.front().first;
    Finding f = Finding::ofRule("step_variance", "scheduling", Severity::Warning, T::kStepVariance,
        text(QT_TRANSLATE_NOOP("Advice", "(max − min) ÷ mean of a rank's step time over its steps > %1"),
            { fixed(T::kStepVariance, 2) }));
    f.value = above.front().second;
    f.unit = "ratio";
    f.ranks = ranksOf(above);
    f.steps = { extremes[rank].first, extremes[rank].second };
    f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                          "Step time varies by %1 % of its mean on rank %2 (slowest step %3, fastest %4); ranks "
                          "varying more than %5 %: %6."),
        { fixed(f.value * 100, 1), std::to_string(rank), std::to_string(extremes[rank].first),
            std::to_string(extremes[rank].second), fixed(T::kStepVariance * 100, 0), std::to_string(above.size()) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "Compare the slowest and the fastest step of the rank: dynamic shapes (recompilation), garbage collection, "
        "checkpointing or evaluation inside the profiled steps, or host jitter.")));
    // The mean step would be this much shorter if no step took longer than the median one (docs/metrics.md,
    // "Impact").
    setImpact(f, excess[rank].first, excess[rank].second);
    f.evidence.view = "timeoverview";
    f.evidence.rank = rank;
    f.evidence.step = extremes[rank].first;
    out.push_back(std::move(f));
}

void bubbleShare(const AdviceContext& ctx, std::vector<Finding>& out)
{
    if (ctx.layout.stages.size() < 2)
        return;
    for (const auto& stage : ctx.layout.stages) {
        double bubble = 0;
        double wall = 0;
        int n = 0;
        for (int64_t r : stage.loadedRanks) {
            const auto* row = ctx.averagedRow(r);
            if (!row || !row->value(StepColumn::Bubble) || !row->wallTime())
                continue;
            bubble += static_cast<double>(*row->value(StepColumn::Bubble));
            wall += static_cast<double>(*row->wallTime());
            ++n;
        }
        if (n == 0 || !(wall > 0) || bubble / wall <= T::kBubbleShare)
            continue;
        Finding f = Finding::ofRule("bubble_share", "scheduling", Severity::Warning, T::kBubbleShare,
            text(QT_TRANSLATE_NOOP("Advice", "Σ Bubble ÷ Σ step time over a stage's ranks > %1"),
                { fixed(T::kBubbleShare, 2) }));
        f.value = bubble / wall;
        f.unit = "ratio";
        f.ranks = stage.loadedRanks;
        f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                              "Pipeline stage %1 spends %2 % of its step in the pipeline bubble (mean %3 ms of %4 ms "
                              "over %5 ranks)."),
            { std::to_string(stage.index), fixed(f.value * 100, 1), fixed(bubble / n / 1e6, 3),
                fixed(wall / n / 1e6, 3), std::to_string(n) }));
        f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
            "Raise the number of micro-batches per step (gradient accumulation), use an interleaved (virtual pipeline) "
            "schedule, or balance the stages (see stage_imbalance).")));
        setImpact(f, bubble / n, wall / n);
        f.evidence.view = "parallel";
        f.evidence.stage = stage.index;
        out.push_back(std::move(f));
    }
}

} // namespace

void stepRules(const AdviceContext& ctx, std::vector<Finding>& out)
{
    preparing(ctx, out);
    stepVariance(ctx, out);
    bubbleShare(ctx, out);
}

} // namespace npuscope::query::advice
