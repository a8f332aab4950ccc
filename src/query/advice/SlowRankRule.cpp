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

// Who arrived last in each collective and what that cost its peers.
struct Arrivals {
    std::map<int64_t, int64_t> votes, taken; // rank -> collectives it arrived last in / took part in
    std::map<int64_t, double> delayNs; // rank -> Σ (second-least wait − least wait) of the collectives it was last in
    std::map<int64_t, std::set<int64_t>> peers; // rank -> ranks of the collectives it arrived last in
    std::map<int64_t, std::set<int32_t>> lastOps; // rank -> op names it arrived last in
};

// Per collective the member with the least wait arrived last and delayed the group by the gap to the next-least wait.
Arrivals arrivals(const CommOpIndex& index)
{
    // (step, name, group) -> members' (rank, wait).
    std::map<std::tuple<int64_t, int32_t, int32_t>, std::vector<std::pair<int64_t, int64_t>>> instances;
    std::map<int32_t, bool> p2p;
    for (const auto& op : index.ops(std::nullopt)) {
        if (!(op.present & CommOpIndex::kHasWait) || op.name < 0)
            continue;
        auto it = p2p.find(op.name);
        if (it == p2p.end())
            it = p2p.emplace(op.name, isPointToPoint(index.text(op.name))).first;
        if (it->second)
            continue;
        instances[{ op.hasStep ? op.step : -1, op.name, op.group }].emplace_back(op.rank, op.waitNs);
    }
    Arrivals a;
    for (const auto& [key, members] : instances) {
        if (members.size() < 2)
            continue;
        for (const auto& m : members)
            ++a.taken[m.first];
        auto sorted = members;
        std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
        // A tie for the least wait names no rank.
        if (sorted[0].second == sorted[1].second)
            continue;
        const int64_t last = sorted[0].first;
        ++a.votes[last];
        a.delayNs[last] += static_cast<double>(sorted[1].second - sorted[0].second);
        a.lastOps[last].insert(std::get<1>(key));
        for (const auto& m : members)
            a.peers[last].insert(m.first);
    }
    return a;
}

// A comparable set's outlier: the rank whose delay stands out, with the set's delays.
struct Outlier {
    int64_t rank = 0;
    double delayNs = 0, medianNs = 0, limitNs = 0;
    std::vector<int64_t> ranks; // the set's ranks that took part in collectives
    size_t count = 0; // how many delays were compared
};

// The set's outlier when there is one whose delay matters: above the median of its peers by a share of its step time
// (twice the median when the data has no step times).
std::optional<Outlier> outlierOf(const AdviceContext& ctx, const std::vector<int64_t>& set, const Arrivals& a)
{
    std::vector<double> delays;
    Outlier o;
    for (int64_t r : set) {
        if (!a.taken.count(r))
            continue;
        const auto d = a.delayNs.find(r);
        delays.push_back(d == a.delayNs.end() ? 0.0 : d->second);
        o.ranks.push_back(r);
    }
    if (delays.size() < 3 || !OutlierTest::isOutlier(delays, true))
        return std::nullopt;
    const size_t top = static_cast<size_t>(std::max_element(delays.begin(), delays.end()) - delays.begin());
    o.rank = o.ranks[top];
    o.delayNs = delays[top];
    o.medianNs = OutlierTest::median(delays);
    o.count = delays.size();
    // rank -> Σ step time over its steps, as the delays sum every step
    const auto steps = ctx.stepsOf.find(o.rank);
    o.limitNs
        = steps != ctx.stepsOf.end() ? o.medianNs + T::kSlowRankMinDelayShare * steps->second.sumNs : 2 * o.medianNs;
    if (o.delayNs <= o.limitNs)
        return std::nullopt;
    return o;
}

// Computing + Free of a rank's averaged step.
std::optional<double> ownTime(const AdviceContext& ctx, int64_t r)
{
    const auto* row = ctx.averagedRow(r);
    if (!row || !row->value(StepColumn::Computing))
        return std::nullopt;
    return static_cast<double>(*row->value(StepColumn::Computing) + row->value(StepColumn::Free).value_or(0));
}

// Late on its own account, not passed on: Computing + Free above the comparable median (true when unknown).
bool lateOnItsOwn(const AdviceContext& ctx, const Outlier& o)
{
    const auto own = ownTime(ctx, o.rank);
    if (!own)
        return true;
    std::vector<double> peersOwn;
    for (int64_t r : o.ranks) {
        if (const auto t = ownTime(ctx, r))
            peersOwn.push_back(*t);
    }
    const auto* row = ctx.averagedRow(o.rank);
    const double step = row && row->wallTime() ? static_cast<double>(*row->wallTime()) : 0.0;
    return *own - OutlierTest::median(peersOwn) >= T::kSlowRankMinOwnShare * step;
}

// The most waiting rank among those that waited for slow: a high synchronisation ratio there confirms a slow rank
// (CANN tuning suggestions); a low one points to the links.
std::optional<RankDuration> mostWaitingPeer(
    int64_t slow, const Arrivals& a, const std::map<int64_t, RankDuration>& durations)
{
    std::optional<RankDuration> waiting;
    const auto peers = a.peers.find(slow);
    if (peers == a.peers.end())
        return waiting;
    for (int64_t p : peers->second) {
        const auto d = durations.find(p);
        if (p == slow || d == durations.end() || !d->second.waitRatio)
            continue;
        if (!waiting || *d->second.waitRatio > *waiting->waitRatio)
            waiting = d->second;
    }
    return waiting;
}

Finding slowRankFinding(const AdviceContext& ctx, const CommOpIndex& index, const Arrivals& a, const Outlier& o,
    const std::optional<RankDuration>& waiting)
{
    const bool syncConfirms = waiting && waiting->syncRatio && *waiting->syncRatio > T::kSyncRatio;
    Finding f = Finding::ofRule("slow_rank", "slow_rank", syncConfirms ? Severity::Critical : Severity::Warning,
        o.limitNs / 1e6,
        text(QT_TRANSLATE_NOOP("Advice",
                 "the delay a rank causes (Σ over the collectives it arrives last in of the next-least "
                 "wait − its wait) is an outlier among %1 comparable ranks (%2) and exceeds their "
                 "median by %3 % of its step time"),
            { std::to_string(o.count),
                o.count <= 10 ? text(QT_TRANSLATE_NOOP("Advice", "Dixon's Q, 95 %"))
                              : text(QT_TRANSLATE_NOOP("Advice", "robust z-score > 3.5")),
                fixed(T::kSlowRankMinDelayShare * 100, 0) }));
    f.value = o.delayNs / 1e6;
    f.unit = "ms";
    f.ranks = { o.rank };
    // By name: the interned ids follow the (multi-threaded) parse order, which differs from run to run.
    for (int32_t name : a.lastOps.at(o.rank))
        f.ops.emplace_back(index.text(name));
    std::sort(f.ops.begin(), f.ops.end());
    if (f.ops.size() > 5)
        f.ops.resize(5);
    std::vector<FindingText> sentences { text(QT_TRANSLATE_NOOP("Advice",
                                                  "Rank %1 arrives last in %2 of the %3 collectives it takes part "
                                                  "in and holds the others back by %4 ms in total (median of "
                                                  "comparable ranks %5: %6 ms)."),
        { std::to_string(o.rank), std::to_string(a.votes.at(o.rank)), std::to_string(a.taken.at(o.rank)),
            fixed(o.delayNs / 1e6, 3), rankList(o.ranks), fixed(o.medianNs / 1e6, 3) }) };
    if (const auto* row = ctx.averagedRow(o.rank)) {
        std::vector<double> computing;
        for (int64_t r : o.ranks) {
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
    // What the rank holds its peers back by beyond what a typical comparable rank does, per step (docs/metrics.md,
    // "Impact").
    if (const auto steps = ctx.stepsOf.find(o.rank); steps != ctx.stepsOf.end() && steps->second.count > 0)
        setImpact(f, (o.delayNs - o.medianNs) / steps->second.count, steps->second.meanNs());
    f.evidence.view = "timeoverview";
    f.evidence.rank = o.rank;
    return f;
}

} // namespace

void slowRankRule(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto index = CommOpIndex::forDatabase(ctx.db);
    const Arrivals a = arrivals(*index);
    if (a.votes.empty())
        return;
    std::map<int64_t, RankDuration> durations;
    for (auto& d : CommAnalysisQuery::durations(ctx.db, {}))
        durations[d.rank] = d;
    for (const auto& set : ctx.comparable) {
        const auto o = outlierOf(ctx, set, a);
        if (!o || !lateOnItsOwn(ctx, *o))
            continue;
        out.push_back(slowRankFinding(ctx, *index, a, *o, mostWaitingPeer(o->rank, a, durations)));
    }
}

} // namespace npuscope::query::advice
