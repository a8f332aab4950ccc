// SPDX-License-Identifier: Apache-2.0
// Problem delimitation (computation / scheduling / communication dispersion over comparable ranks) and the stage
// imbalance that must not be mistaken for a slow rank.
#include "AdviceRules.h"

#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"
#include "npuscope/query/advice/OutlierTest.h"

#include <algorithm>
#include <optional>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

struct DelimitationColumn {
    StepColumn column;
    const char* id;
    const char* category;
    const char* what; // the step_trace_time.csv column (a template of the rules: the GUI adds its translation)
    const char* suggestion; // a template of the rules
};

constexpr DelimitationColumn kColumns[] = {
    { StepColumn::Computing, "computation_dispersion", "computation", QT_TRANSLATE_NOOP("Advice", "Computing"),
        QT_TRANSLATE_NOOP("Advice",
            "Compare the operators of the slowest and the fastest rank (Operators view, compare ranks): a different "
            "kernel mix points to uneven data (sequence lengths, MoE routing), equal kernels running longer to the "
            "device (frequency, temperature, a degraded card).") },
    { StepColumn::Free, "scheduling_dispersion", "scheduling", QT_TRANSLATE_NOOP("Advice", "Free"),
        QT_TRANSLATE_NOOP("Advice",
            "Free is device idle time that is neither computing nor communication: on the rank with the most Free look "
            "at the host side of the timeline (late kernel launches, Python overhead, synchronisation, CPU "
            "binding).") },
    { StepColumn::CommunicationNotOverlapped, "communication_dispersion", "communication",
        QT_TRANSLATE_NOOP("Advice", "Communication(Not Overlapped)"),
        QT_TRANSLATE_NOOP("Advice",
            "Communication that is not hidden differs between ranks doing the same work: usually the ranks waiting "
            "for a slow peer (see slow_rank) or a slow link (see slow_link); check the wait ratio per rank.") },
};

double meanStepNs(const std::vector<StepBreakdown>& rows)
{
    double sum = 0;
    int n = 0;
    for (const auto& r : rows) {
        if (const auto w = r.wallTime()) {
            sum += static_cast<double>(*w);
            ++n;
        }
    }
    return n ? sum / n : 0;
}

std::vector<StepBreakdown> rowsOf(const AdviceContext& ctx, const std::vector<int64_t>& ranks)
{
    std::vector<StepBreakdown> rows;
    for (int64_t r : ranks) {
        if (const auto* row = ctx.averagedRow(r))
            rows.push_back(*row);
    }
    return rows;
}

void dispersion(const AdviceContext& ctx, const DelimitationColumn& col, std::vector<Finding>& out)
{
    struct Worst {
        double spread = 0;
        ColumnStats stats;
        size_t set = 0;
        double medianNs = 0; // the column's median over the set
        double stepNs = 0; // the set's mean step
    };
    std::optional<Worst> worst;
    int setsAbove = 0;
    for (size_t i = 0; i < ctx.comparable.size(); ++i) {
        const auto rows = rowsOf(ctx, ctx.comparable[i]);
        if (rows.size() < 2)
            continue;
        const auto stats = clusterStats(rows)[static_cast<size_t>(col.column)];
        if (stats.count < 2 || !stats.spread || !stats.min || !stats.max)
            continue;
        // A spread of a figure that is a tiny part of the step is noise.
        if (*stats.max - *stats.min < T::kDispersionMinShareOfStep * meanStepNs(rows))
            continue;
        if (*stats.spread <= T::kDispersionWarning)
            continue;
        ++setsAbove;
        if (!worst || *stats.spread > worst->spread) {
            std::vector<double> values;
            for (const auto& r : rows) {
                if (const auto v = r.value(col.column))
                    values.push_back(static_cast<double>(*v));
            }
            worst = Worst { *stats.spread, stats, i, OutlierTest::median(values), meanStepNs(rows) };
        }
    }
    if (!worst)
        return;
    const auto& s = worst->stats;
    Finding f = Finding::ofRule(col.id, col.category,
        worst->spread > T::kDispersionCritical ? Severity::Critical : Severity::Warning, T::kDispersionWarning,
        text(QT_TRANSLATE_NOOP(
                 "Advice", "(max − min) ÷ mean of %1 over comparable ranks (same stage, same TP position) > %2"),
            { text(col.what), fixed(T::kDispersionWarning, 2) }));
    f.value = worst->spread;
    f.unit = "ratio";
    f.ranks = { *s.maxRank, *s.minRank };
    const auto& set = ctx.comparable[worst->set];
    std::vector<FindingText> args { text(col.what), fixed(worst->spread * 100, 1), std::to_string(*s.maxRank),
        fixed(*s.max / 1e6, 3), std::to_string(*s.minRank), fixed(*s.min / 1e6, 3), fixed(*s.mean / 1e6, 3),
        rankList(set) };
    if (setsAbove > 1) {
        args.emplace_back(std::to_string(setsAbove));
        f.setMessage(
            text(QT_TRANSLATE_NOOP("Advice",
                     "%1 differs by %2 % of its mean between ranks doing the same work: rank %3 %4 ms, rank %5 "
                     "%6 ms (mean %7 ms over ranks %8; %9 groups of comparable ranks are above the threshold)."),
                std::move(args)));
    } else {
        f.setMessage(
            text(QT_TRANSLATE_NOOP("Advice",
                     "%1 differs by %2 % of its mean between ranks doing the same work: rank %3 %4 ms, rank %5 "
                     "%6 ms (mean %7 ms over ranks %8)."),
                std::move(args)));
    }
    f.setSuggestion(text(col.suggestion));
    // The ranks above the median hold their comparable peers back by their excess (docs/metrics.md, "Impact").
    setImpact(f, *s.max - worst->medianNs, worst->stepNs);
    f.evidence.view = "steps";
    f.evidence.rank = *s.maxRank;
    out.push_back(std::move(f));
}

void stageImbalance(const AdviceContext& ctx, std::vector<Finding>& out)
{
    struct StageFigure {
        int index = 0;
        double computingNs = 0;
        double stepNs = 0;
        std::vector<int64_t> ranks;
    };
    std::vector<StageFigure> stages;
    for (const auto& stage : ctx.layout.stages) {
        const auto rows = rowsOf(ctx, stage.loadedRanks);
        const auto stats = clusterStats(rows)[static_cast<size_t>(StepColumn::Computing)];
        if (!stats.mean)
            continue;
        stages.push_back({ stage.index, *stats.mean, meanStepNs(rows), stage.loadedRanks });
    }
    if (stages.size() < 2)
        return;
    const auto computing = spreadOf(stages, [](const StageFigure& s) { return s.computingNs; });
    if (!computing || computing->spread <= T::kStageImbalance)
        return;
    const auto [lo, hi, mean, spread] = *computing;
    // How much ranks of one stage disagree: says whether the stage, not a rank, is the finding.
    double within = 0;
    for (const auto& set : ctx.comparable) {
        const auto stats = clusterStats(rowsOf(ctx, set))[static_cast<size_t>(StepColumn::Computing)];
        if (stats.count >= 2 && stats.spread)
            within = std::max(within, *stats.spread);
    }
    Finding f = Finding::ofRule("stage_imbalance", "delimitation", Severity::Warning, T::kStageImbalance,
        text(QT_TRANSLATE_NOOP("Advice", "(max − min) ÷ mean of the pipeline stages' mean Computing > %1"),
            { fixed(T::kStageImbalance, 2) }));
    f.value = spread;
    f.unit = "ratio";
    f.ranks = hi->ranks;
    f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                          "Pipeline stage %1 computes %2 ms per step, stage %3 %4 ms (%5 stages, %6); ranks of the "
                          "same stage and TP position differ by at most %7 %, so the stages, not single ranks, are "
                          "unequal."),
        { std::to_string(hi->index), fixed(hi->computingNs / 1e6, 3), std::to_string(lo->index),
            fixed(lo->computingNs / 1e6, 3), std::to_string(stages.size()),
            FindingText("LayoutSource", layoutSourceName(ctx.layout.source)), fixed(within * 100, 1) }));
    f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
        "Rebalance the layers over the pipeline stages (e.g. Megatron --decoder-first-pipeline-num-layers / "
        "--decoder-last-pipeline-num-layers, or fewer layers on the stage holding the embedding or the loss); the "
        "other "
        "stages wait for the slowest one in every micro-batch.")));
    // With the layers rebalanced every stage would compute the mean: the slowest stage's excess is what the other
    // stages wait for in every micro-batch (docs/metrics.md, "Impact").
    setImpact(f, hi->computingNs - mean, ctx.meanStepNs);
    f.evidence.view = "parallel";
    f.evidence.stage = hi->index;
    out.push_back(std::move(f));
}

} // namespace

void delimitationRules(const AdviceContext& ctx, std::vector<Finding>& out)
{
    stageImbalance(ctx, out);
    for (const auto& col : kColumns)
        dispersion(ctx, col, out);
}

} // namespace npuscope::query::advice
