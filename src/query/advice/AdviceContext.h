// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/query/ParallelLayout.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/query/advice/Finding.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query::advice {

// What every rule reads, computed once per AdviceQuery::run: the parallel layout and its comparable rank sets, and
// each rank's step breakdown averaged over its steps. Internal to the advice rules.
struct AdviceContext {
    // One rank's step times over every loaded step (the first included), as the communication and kernel figures
    // that cover every step.
    struct RankSteps {
        double sumNs = 0;
        int count = 0;
        double meanNs() const { return count ? sumNs / count : 0; }
    };

    model::Database& db;
    AdviceOptions options;
    ParallelLayout layout;
    // Loaded ranks doing the same work: same pipeline stage and same TP position (ascending ranks), by (pp, tp).
    std::vector<std::vector<int64_t>> comparable;
    std::map<int64_t, int> stageOf; // loaded rank -> pp index
    std::vector<StepBreakdown> averaged; // StepQuery::averaged(db, options.skipFirstStep)
    std::vector<StepBreakdown> breakdown; // StepQuery::breakdown(db): every rank and step, read once for every rule
    std::map<int64_t, RankSteps> stepsOf; // rank -> Σ wallTime() and count of StepQuery::breakdown
    // The mean step: the mean over the ranks of their averaged wallTime() (0 without step times).
    double meanStepNs = 0;

    static AdviceContext build(model::Database& db, const AdviceOptions& options);
    // The averaged row of a rank, nullptr when it has none.
    const StepBreakdown* averagedRow(int64_t rank) const;
    // A rank's averaged wallTime() (ns), 0 when it has none.
    double rankStepNs(int64_t rank) const;
};

// Sets the finding's impact (docs/metrics.md, "Impact"): impactNs of a step of stepNs. When both are positive the
// share also sets the severity: critical from AdviceThresholds::kImpactCritical, warning from warningShare, else info;
// otherwise the impact is 0 and the rule's severity stays.
void setImpact(Finding& f, double impactNs, double stepNs, double warningShare);
void setImpact(Finding& f, double impactNs, double stepNs);

// The smallest and the largest of some items by a figure, the figure's mean over them and the spread (largest −
// smallest) ÷ mean, as the rules that flag an uneven figure read it (stage_imbalance, step_variance).
template <class Iterator> struct Spread {
    Iterator lo, hi;
    double mean = 0;
    double spread = 0;
};

// The Spread of items (at least one) by figure(item); nullopt when the mean is not positive.
template <class Items, class Figure>
std::optional<Spread<typename Items::const_iterator>> spreadOf(const Items& items, Figure figure)
{
    const auto [lo, hi] = std::minmax_element(
        items.begin(), items.end(), [&figure](const auto& a, const auto& b) { return figure(a) < figure(b); });
    double mean = 0;
    for (const auto& item : items)
        mean += figure(item) / static_cast<double>(items.size());
    if (!(mean > 0))
        return std::nullopt;
    return Spread<typename Items::const_iterator> { lo, hi, mean, (figure(*hi) - figure(*lo)) / mean };
}

// printf into a std::string (the messages carry figures).
std::string formatText(const char* format, ...) __attribute__((format(printf, 1, 2)));
// v with the given decimals, as "%.<decimals>f".
std::string fixed(double v, int decimals);
// A template of the rules: source marked QT_TRANSLATE_NOOP("Advice", ...) at the call, with its arguments.
FindingText text(const char* source, std::vector<FindingText> args = {});
// parts one after another, each pair joined by separator: a template of two places marked
// QT_TRANSLATE_NOOP("Advice", ...) at the call ("%1, %2" for a list, "%1; %2" for clauses, "%1 %2" for sentences), so
// that a translation joins them with its own punctuation (zh_CN "%1、%2", "%1；%2", "%1%2"); English as written.
FindingText joined(const std::vector<FindingText>& parts, const char* separator);
// "0, 3, 5" (at most limit ranks, then ", … (n ranks)").
FindingText rankList(const std::vector<int64_t>& ranks, size_t limit = 8);

} // namespace npuscope::query::advice
