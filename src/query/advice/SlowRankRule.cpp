// SPDX-License-Identifier: Apache-2.0
// slow_rank: per collective the member with the least wait arrived last and delayed the group by the gap to the
// next-least wait; each rank's summed delay is tested for an outlier among comparable ranks.
#include "AdviceRules.h"

#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"
#include "npuscope/query/advice/OutlierTest.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

// Point-to-point ops: the receiver waits for the sender by construction, which says nothing about arrival order.
bool isPointToPoint(std::string name)
{
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name.find("send") != std::string::npos || name.find("receive") != std::string::npos
        || name.find("recv") != std::string::npos;
}

} // namespace

void slowRankRule(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto index = CommOpIndex::forDatabase(ctx.db);
    // (step, name, group) -> members' (rank, wait).
    std::map<std::tuple<int64_t, int32_t, int32_t>, std::vector<std::pair<int64_t, int64_t>>> instances;
    std::map<int32_t, bool> p2p;
    for (const auto& op : index->ops(std::nullopt)) {
        if (!(op.present & CommOpIndex::kHasWait) || op.name < 0)
            continue;
        auto it = p2p.find(op.name);
        if (it == p2p.end())
            it = p2p.emplace(op.name, isPointToPoint(index->text(op.name))).first;
        if (it->second)
            continue;
        instances[{ op.hasStep ? op.step : -1, op.name, op.group }].emplace_back(op.rank, op.waitNs);
    }
    std::map<int64_t, int64_t> votes, taken;
    std::map<int64_t, double> delayNs; // rank -> Σ (second-least wait − least wait) of the collectives it was last in
    std::map<int64_t, std::set<int64_t>> peers; // rank -> ranks of the collectives it arrived last in
    std::map<int64_t, std::set<int32_t>> lastOps; // rank -> op names it arrived last in
    for (const auto& [key, members] : instances) {
        if (members.size() < 2)
            continue;
        for (const auto& m : members)
            ++taken[m.first];
        auto sorted = members;
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        // A tie for the least wait names no rank.
        if (sorted[0].second == sorted[1].second)
            continue;
        const int64_t last = sorted[0].first;
        ++votes[last];
        delayNs[last] += static_cast<double>(sorted[1].second - sorted[0].second);
        lastOps[last].insert(std::get<1>(key));
        for (const auto& m : members)
            peers[last].insert(m.first);
    }
    if (votes.empty())
        return;
    std::map<int64_t, RankDuration> durations;
    for (auto& d : CommAnalysisQuery::durations(ctx.db, {}))
        durations[d.rank] = d;

    for (const auto& set : ctx.comparable) {
        std::vector<double> delays;
        std::vector<int64_t> ranks;
        for (int64_t r : set) {
            if (!taken.count(r))
                continue;
            const auto d = delayNs.find(r);
            delays.push_back(d == delayNs.end() ? 0.0 : d->second);
            ranks.push_back(r);
        }
        if (delays.size() < 3 || !OutlierTest::isOutlier(delays, true))
            continue;
        const size_t top = static_cast<size_t>(std::max_element(delays.begin(), delays.end()) - delays.begin());
        const double median = OutlierTest::median(delays);
        const int64_t slow = ranks[top];
        // The delay must matter: a share of the rank's step time above the median of its peers (twice the median
        // when the data has no step times).
        // rank -> Σ step time over its steps, as the delays sum every step
        const auto steps = ctx.stepsOf.find(slow);
        const double limit
            = steps != ctx.stepsOf.end() ? median + T::kSlowRankMinDelayShare * steps->second.sumNs : 2 * median;
        if (delays[top] <= limit)
            continue;
        // Late on its own account, not passed on: Computing + Free above the comparable median.
        const auto ownTime = [&ctx](int64_t r) -> std::optional<double> {
            const auto* row = ctx.averagedRow(r);
            if (!row || !row->value(StepColumn::Computing))
                return std::nullopt;
            return static_cast<double>(*row->value(StepColumn::Computing) + row->value(StepColumn::Free).value_or(0));
        };
        if (const auto own = ownTime(slow)) {
            std::vector<double> peersOwn;
            for (int64_t r : ranks) {
                if (const auto o = ownTime(r))
                    peersOwn.push_back(*o);
            }
            const auto* row = ctx.averagedRow(slow);
            const double step = row && row->wallTime() ? static_cast<double>(*row->wallTime()) : 0.0;
            if (*own - OutlierTest::median(peersOwn) < T::kSlowRankMinOwnShare * step)
                continue;
        }
        // The most waiting rank among those that waited for it: a high synchronisation ratio there confirms a slow
        // rank (CANN tuning suggestions); a low one points to the links.
        std::optional<RankDuration> waiting;
        for (int64_t p : peers[slow]) {
            const auto d = durations.find(p);
            if (p == slow || d == durations.end() || !d->second.waitRatio)
                continue;
            if (!waiting || *d->second.waitRatio > *waiting->waitRatio)
                waiting = d->second;
        }
        const bool syncConfirms = waiting && waiting->syncRatio && *waiting->syncRatio > T::kSyncRatio;

        Finding f;
        f.id = "slow_rank";
        f.category = "slow_rank";
        f.severity = syncConfirms ? Severity::Critical : Severity::Warning;
        f.threshold = limit / 1e6;
        f.setThreshold(text(QT_TRANSLATE_NOOP("Advice",
                                "the delay a rank causes (Σ over the collectives it arrives last in of the next-least "
                                "wait − its wait) is an outlier among %1 comparable ranks (%2) and exceeds their "
                                "median by %3 % of its step time"),
            { std::to_string(delays.size()),
                delays.size() <= 10 ? text(QT_TRANSLATE_NOOP("Advice", "Dixon's Q, 95 %"))
                                    : text(QT_TRANSLATE_NOOP("Advice", "robust z-score > 3.5")),
                fixed(T::kSlowRankMinDelayShare * 100, 0) }));
        f.value = delays[top] / 1e6;
        f.unit = "ms";
        f.ranks = { slow };
        // By name: the interned ids follow the (multi-threaded) parse order, which differs from run to run.
        for (int32_t name : lastOps[slow])
            f.ops.emplace_back(index->text(name));
        std::sort(f.ops.begin(), f.ops.end());
        if (f.ops.size() > 5)
            f.ops.resize(5);
        std::vector<FindingText> sentences { text(QT_TRANSLATE_NOOP("Advice",
                                                      "Rank %1 arrives last in %2 of the %3 collectives it takes part "
                                                      "in and holds the others back by %4 ms in total (median of "
                                                      "comparable ranks %5: %6 ms)."),
            { std::to_string(slow), std::to_string(votes[slow]), std::to_string(taken[slow]),
                fixed(delays[top] / 1e6, 3), rankList(ranks), fixed(median / 1e6, 3) }) };
        if (const auto* row = ctx.averagedRow(slow)) {
            std::vector<double> computing;
            for (int64_t r : ranks) {
                if (const auto* other = ctx.averagedRow(r); other && other->value(StepColumn::Computing))
                    computing.push_back(static_cast<double>(*other->value(StepColumn::Computing)));
            }
            if (const auto c = row->value(StepColumn::Computing); c && !computing.empty())
                sentences.push_back(
                    text(QT_TRANSLATE_NOOP("Advice", "Its Computing is %1 ms per step against a median of %2 ms."),
                        { fixed(static_cast<double>(*c) / 1e6, 3), fixed(OutlierTest::median(computing) / 1e6, 3) }));
        }
        if (waiting && waiting->syncRatio)
            sentences.push_back(text(QT_TRANSLATE_NOOP("Advice",
                                         "The most waiting peer, rank %1 (wait ratio %2), has a synchronisation ratio "
                                         "of %3: %4."),
                { std::to_string(waiting->rank), fixed(*waiting->waitRatio, 3), fixed(*waiting->syncRatio, 3),
                    syncConfirms
                        ? text(QT_TRANSLATE_NOOP("Advice", "above 0.2, the wait is for a slow rank"))
                        : text(QT_TRANSLATE_NOOP("Advice", "not above 0.2, so check the links too (slow_link)")) }));
        f.setMessage(joined(sentences, QT_TRANSLATE_NOOP("Advice", "%1 %2")));
        f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
            "Look at what the rank does before the collectives it arrives last in (Time overview, then its timeline): "
            "longer computing (a different data shard, a degraded card), host delays, or extra work only that rank "
            "does.")));
        // What the rank holds its peers back by beyond what a typical comparable rank does, per step
        // (docs/metrics.md, "Impact").
        if (steps != ctx.stepsOf.end() && steps->second.count > 0)
            setImpact(f, (delays[top] - median) / steps->second.count, steps->second.meanNs());
        f.evidence.view = "timeoverview";
        f.evidence.rank = slow;
        out.push_back(std::move(f));
    }
}

} // namespace npuscope::query::advice
