// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/FlopsQuery.h"
#include "npuscope/model/ReadRow.h"
#include "npuscope/query/TranslationMarker.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <string_view>

namespace npuscope::query {

const char* const FlopsQuery::kHowToRecord = QT_TRANSLATE_NOOP("FlopsQuery",
    "FLOPs are recorded only with aic_metrics=ArithmeticUtilization (torch_npu experimental_config "
    "aic_metrics=AiCMetrics.ArithmeticUtilization, or msprof --aic-metrics=ArithmeticUtilization)");

namespace {

// Per-rank totals of the kernels that carry FLOPs. The one place that reads the kernel table for FLOPs, so a smaller
// per-rank aggregate can replace it.
std::vector<RankFlops> kernelTotals(model::Database& db, std::optional<int64_t> step)
{
    std::vector<RankFlops> out;
    // A rank's kernel table when imported, else its kernel_total rows (Loader::loadKernelTotals; the loader drops
    // them when the kernel table arrives, so no rank is counted twice), else, for one step, its step_kernel rows of
    // that step (Loader::loadStepKernels, the Marey view). Same sums either way.
    auto st = db.prepare(
        "SELECT rank_id, SUM(n), TOTAL(f), TOTAL(d) FROM ("
        "SELECT rank_id, COUNT(flops) AS n, TOTAL(flops) AS f, TOTAL(CASE WHEN flops IS NOT NULL THEN dur END) AS d "
        "FROM kernel WHERE ?1 IS NULL OR step = ?1 GROUP BY rank_id "
        "UNION ALL SELECT rank_id, SUM(flops_kernels), TOTAL(flops), TOTAL(flops_dur_ns) "
        "FROM kernel_total WHERE ?1 IS NULL OR step = ?1 GROUP BY rank_id "
        "UNION ALL SELECT rank_id, COUNT(flops), TOTAL(flops), TOTAL(CASE WHEN flops IS NOT NULL THEN dur END) "
        "FROM step_kernel WHERE step = ?1 AND rank_id NOT IN (SELECT rank_id FROM kernel_total) GROUP BY rank_id) "
        "GROUP BY rank_id ORDER BY rank_id");
    if (step)
        st.bind(1, *step);
    while (st.step()) {
        RankFlops r;
        model::readRow(st, r.rank, r.kernels, r.flops);
        r.computeNs = static_cast<int64_t>(st.real(3));
        out.push_back(r);
    }
    return out;
}

std::optional<double> number(const std::string& text)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

// flops_summary_N.json as MindSpore writes it: FLOPs in MFLOPs (10^6), FLOPS in GFLOPS (10^9 FLOP/s),
// FLOPS_Utilization in percent; the newer form (AscendFlopsGenerator) has cube_FLOPs / vec_FLOPs (MFLOPs) and
// cube_FLOPS / vec_FLOPS (GFLOPS) instead. A value that is not a number was reported by the importer and is left out.
std::map<int64_t, RankFlops> summaryTotals(model::Database& db)
{
    struct Read {
        std::optional<double> flops, perSecond;
    };
    std::map<int64_t, RankFlops> out;
    std::map<int64_t, Read> totals;
    auto st = db.prepare("SELECT rank_id, key, value FROM rank_info WHERE key IN ('flops_summary.FLOPs', "
                         "'flops_summary.FLOPS', 'flops_summary.FLOPS_Utilization', 'flops_summary.cube_FLOPs', "
                         "'flops_summary.vec_FLOPs', 'flops_summary.cube_FLOPS', 'flops_summary.vec_FLOPS') "
                         "ORDER BY rank_id");
    while (st.step()) {
        const auto value = number(st.text(2));
        if (!value)
            continue;
        RankFlops& r = out[st.int64(0)];
        Read& t = totals[st.int64(0)];
        r.rank = st.int64(0);
        r.source = FlopsSource::MindSporeSummary;
        const std::string key = st.text(1).substr(std::string_view("flops_summary.").size());
        if (key == "FLOPs")
            t.flops = *value * 1e6;
        else if (key == "FLOPS")
            t.perSecond = *value * 1e9;
        else if (key == "FLOPS_Utilization")
            r.utilizationPercent = *value;
        else if (key == "cube_FLOPs")
            r.cubeFlops = *value * 1e6;
        else if (key == "vec_FLOPs")
            r.vecFlops = *value * 1e6;
        else if (key == "cube_FLOPS")
            r.cubeFlopsPerSecond = *value * 1e9;
        else
            r.vecFlopsPerSecond = *value * 1e9;
    }
    // The total where the file gives it, else the sum of the parts it gives.
    const auto sum = [](std::optional<double> a, std::optional<double> b) -> std::optional<double> {
        if (!a && !b)
            return std::nullopt;
        return a.value_or(0.0) + b.value_or(0.0);
    };
    for (auto& [rank, r] : out) {
        const Read& t = totals[rank];
        r.flops = t.flops ? *t.flops : sum(r.cubeFlops, r.vecFlops).value_or(0.0);
        r.reportedFlopsPerSecond = t.perSecond ? t.perSecond : sum(r.cubeFlopsPerSecond, r.vecFlopsPerSecond);
    }
    return out;
}

} // namespace

FlopsSummary FlopsQuery::perRank(model::Database& db, std::optional<int64_t> step)
{
    FlopsSummary out;
    auto summaries = summaryTotals(db);
    for (auto& r : kernelTotals(db, step)) {
        // A rank whose kernels carry no FLOPs keeps its flops_summary figures when it has them.
        if (r.kernels == 0 && summaries.count(r.rank))
            continue;
        summaries.erase(r.rank);
        out.ranks.push_back(r);
    }
    for (auto& [rank, r] : summaries)
        out.ranks.push_back(r);
    std::sort(out.ranks.begin(), out.ranks.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    double busiest = 0;
    double fastest = 0;
    for (const auto& r : out.ranks) {
        out.recorded = out.recorded || r.kernels > 0 || r.source == FlopsSource::MindSporeSummary;
        out.wholeRunOnly = out.wholeRunOnly || r.source == FlopsSource::MindSporeSummary;
        busiest = std::max(busiest, r.flops);
        fastest = std::max(fastest, r.flopsPerSecond());
    }
    for (auto& r : out.ranks) {
        r.relative = busiest > 0 ? r.flops / busiest : 0.0;
        r.relativePerSecond = fastest > 0 ? r.flopsPerSecond() / fastest : 0.0;
    }
    return out;
}

} // namespace npuscope::query
