// SPDX-License-Identifier: Apache-2.0
// Problem delimitation (computation / scheduling / communication dispersion over comparable ranks) and the stage
// imbalance that must not be mistaken for a slow rank.
#include "AdviceRules.h"

#include "npuscope/query/advice/AdviceThresholds.h"

#include <algorithm>
#include <optional>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

struct DelimitationColumn {
    StepColumn column;
    const char* id;
    const char* category;
    const char* what;
    const char* suggestion;
};

constexpr DelimitationColumn kColumns[] = {
    { StepColumn::Computing, "computation_dispersion", "computation", "Computing",
        "Compare the operators of the slowest and the fastest rank (Operators view, compare ranks): a different "
        "kernel mix points to uneven data (sequence lengths, MoE routing), equal kernels running longer to the "
        "device (frequency, temperature, a degraded card)." },
    { StepColumn::Free, "scheduling_dispersion", "scheduling", "Free",
        "Free is device idle time that is neither computing nor communication: on the rank with the most Free look "
        "at the host side of the timeline (late kernel launches, Python overhead, synchronisation, CPU binding)." },
    { StepColumn::CommunicationNotOverlapped, "communication_dispersion", "communication",
        "Communication(Not Overlapped)",
        "Communication that is not hidden differs between ranks doing the same work: usually the ranks waiting "
        "for a slow peer (see slow_rank) or a slow link (see slow_link); check the wait ratio per rank." },
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
        if (!worst || *stats.spread > worst->spread)
            worst = Worst { *stats.spread, stats, i };
    }
    if (!worst)
        return;
    const auto& s = worst->stats;
    Finding f;
    f.id = col.id;
    f.category = col.category;
    f.severity = worst->spread > T::kDispersionCritical ? Severity::Critical : Severity::Warning;
    f.threshold = T::kDispersionWarning;
    f.thresholdText = std::string("(max − min) ÷ mean of ") + col.what
        + " over comparable ranks (same stage, same "
          "TP position) > "
        + formatText("%.2f", T::kDispersionWarning);
    f.value = worst->spread;
    f.unit = "ratio";
    f.ranks = { *s.maxRank, *s.minRank };
    const auto& set = ctx.comparable[worst->set];
    f.message = formatText("%s differs by %.1f %% of its mean between ranks doing the same work: rank %lld %.3f ms, "
                           "rank %lld %.3f ms (mean %.3f ms over ranks %s",
        col.what, worst->spread * 100, static_cast<long long>(*s.maxRank), *s.max / 1e6,
        static_cast<long long>(*s.minRank), *s.min / 1e6, *s.mean / 1e6, rankList(set).c_str());
    f.message
        += setsAbove > 1 ? formatText("; %d groups of comparable ranks are above the threshold).", setsAbove) : ").";
    f.suggestion = col.suggestion;
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
    const auto [lo, hi] = std::minmax_element(stages.begin(), stages.end(),
        [](const StageFigure& a, const StageFigure& b) { return a.computingNs < b.computingNs; });
    double mean = 0;
    for (const auto& s : stages)
        mean += s.computingNs / static_cast<double>(stages.size());
    if (!(mean > 0))
        return;
    const double spread = (hi->computingNs - lo->computingNs) / mean;
    if (spread <= T::kStageImbalance)
        return;
    // How much ranks of one stage disagree: says whether the stage, not a rank, is the finding.
    double within = 0;
    for (const auto& set : ctx.comparable) {
        const auto stats = clusterStats(rowsOf(ctx, set))[static_cast<size_t>(StepColumn::Computing)];
        if (stats.count >= 2 && stats.spread)
            within = std::max(within, *stats.spread);
    }
    Finding f;
    f.id = "stage_imbalance";
    f.category = "delimitation";
    f.severity = Severity::Warning;
    f.threshold = T::kStageImbalance;
    f.thresholdText
        = formatText("(max − min) ÷ mean of the pipeline stages' mean Computing > %.2f", T::kStageImbalance);
    f.value = spread;
    f.unit = "ratio";
    f.ranks = hi->ranks;
    f.message = formatText("Pipeline stage %d computes %.3f ms per step, stage %d %.3f ms (%zu stages, %s); ranks of "
                           "the same stage and TP position differ by at most %.1f %%, so the stages, not single "
                           "ranks, are unequal.",
        hi->index, hi->computingNs / 1e6, lo->index, lo->computingNs / 1e6, stages.size(),
        layoutSourceName(ctx.layout.source), within * 100);
    f.suggestion = "Rebalance the layers over the pipeline stages (e.g. Megatron --decoder-first-pipeline-num-layers "
                   "/ --decoder-last-pipeline-num-layers, or fewer layers on the stage holding the embedding or the "
                   "loss); the other stages wait for the slowest one in every micro-batch.";
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
