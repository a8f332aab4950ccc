// SPDX-License-Identifier: Apache-2.0
// missing_group_ranks: a communication group names ranks that were not loaded, and its loaded members spend a large
// share of the step inside its collectives neither transferring nor waiting for each other; that time is spent on the
// ranks that are not there.
#include "AdviceRules.h"

#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"

#include <algorithm>
#include <map>
#include <set>

namespace npuscope::query::advice {

namespace {

using T = AdviceThresholds;

// "2–7, 9" (ascending ranks as runs, at most limit runs, then ", … (n ranks)"): a group of 1,024 ranks reads as ranges.
FindingText rankRuns(const std::vector<int64_t>& ranks, size_t limit = 8)
{
    std::vector<FindingText> runs;
    size_t count = 0;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        ++count;
        if (runs.size() < limit)
            runs.emplace_back(
                i == j ? std::to_string(ranks[i]) : std::to_string(ranks[i]) + "\u2013" + std::to_string(ranks[j]));
        i = j + 1;
    }
    const FindingText list = joined(runs, QT_TRANSLATE_NOOP("Advice", "%1, %2"));
    if (count <= limit)
        return list;
    return text(QT_TRANSLATE_NOOP("Advice", "%1, … (%2 ranks)"), { list, std::to_string(ranks.size()) });
}

} // namespace

void missingGroupRanksRule(const AdviceContext& ctx, std::vector<Finding>& out)
{
    const auto index = CommOpIndex::forDatabase(ctx.db);
    if (index->size() == 0)
        return;
    std::set<int64_t> loaded;
    for (const auto& c : ctx.layout.ranks) {
        if (c.loaded)
            loaded.insert(c.rank);
    }
    for (const auto& entry : ctx.stepsOf)
        loaded.insert(entry.first);
    // rank -> (Σ Communication(Not Overlapped), steps with it) over every step, as the op instances cover every step.
    std::map<int64_t, std::pair<double, int>> notOverlapped;
    for (const auto& row : ctx.breakdown) {
        if (const auto v = row.value(StepColumn::CommunicationNotOverlapped)) {
            notOverlapped[row.rank].first += static_cast<double>(*v);
            ++notOverlapped[row.rank].second;
        }
    }

    for (const auto& group : CommQuery::groups(ctx.db)) {
        const int32_t gid = group.hash.empty() ? -1 : index->id(group.hash);
        if (gid < 0 || group.ranks.empty())
            continue;
        std::vector<int64_t> members, missing;
        for (int64_t r : group.ranks)
            (loaded.count(r) ? members : missing).push_back(r);
        if (members.empty() || missing.empty())
            continue;
        std::sort(missing.begin(), missing.end());
        // (step, op name) -> the loaded members' time in the op neither transferring (Elapse − Transit: Wait and
        // Idle).
        std::map<std::pair<int64_t, int32_t>, std::vector<int64_t>> instances;
        for (const auto& op : index->ops(std::nullopt)) {
            if (op.group != gid || !(op.present & CommOpIndex::kHasTransit))
                continue;
            instances[{ op.hasStep ? op.step : -1, op.name }].push_back(
                std::max<int64_t>(0, op.elapseNs - op.transitNs));
        }
        if (instances.empty())
            continue;
        // The least over the loaded members of an instance is time even the last of them to arrive spent inside the op:
        // not a wait for a loaded rank.
        double totalNs = 0;
        std::set<int64_t> steps;
        std::map<int32_t, double> byName;
        for (const auto& [key, times] : instances) {
            const auto least = static_cast<double>(*std::min_element(times.begin(), times.end()));
            totalNs += least;
            byName[key.second] += least;
            steps.insert(key.first);
        }
        double perStepNs = totalNs / static_cast<double>(steps.size());
        // Waiting hidden behind computing costs no step time: at most the members' unoverlapped communication.
        double stepNs = 0, capNs = 0;
        int withSteps = 0, withCap = 0;
        for (int64_t r : members) {
            if (const auto it = ctx.stepsOf.find(r); it != ctx.stepsOf.end() && it->second.count > 0) {
                stepNs += it->second.meanNs();
                ++withSteps;
            }
            if (const auto it = notOverlapped.find(r); it != notOverlapped.end() && it->second.second > 0) {
                capNs += it->second.first / it->second.second;
                ++withCap;
            }
        }
        if (withSteps == 0)
            continue;
        stepNs /= withSteps;
        if (withCap > 0)
            perStepNs = std::min(perStepNs, capNs / withCap);
        if (!(stepNs > 0) || perStepNs < T::kMissingGroupWaitShare * stepNs)
            continue;

        Finding f = Finding::ofRule("missing_group_ranks", "communication", Severity::Warning,
            T::kMissingGroupWaitShare * stepNs / 1e6,
            text(QT_TRANSLATE_NOOP("Advice",
                     "per step, the time the loaded members of a group whose rank list names ranks that "
                     "were not loaded spend in its ops neither transferring nor waiting for each other "
                     "(the least over them per op) > %1 % of the step"),
                { fixed(T::kMissingGroupWaitShare * 100, 0) }));
        f.value = perStepNs / 1e6;
        f.unit = "ms";
        f.ranks = missing;
        std::vector<std::pair<double, std::string>> names;
        for (const auto& [name, ns] : byName) {
            if (name >= 0)
                names.emplace_back(ns, index->text(name));
        }
        std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (size_t i = 0; i < names.size() && i < 5; ++i)
            f.ops.push_back(names[i].second);
        // Named as the Groups and Collectives views name it (its name, else its ranks: a 20-digit hash alone tells
        // the user nothing), the hash after it for search.
        std::vector<int64_t> groupRanks = group.ranks;
        std::sort(groupRanks.begin(), groupRanks.end());
        const FindingText groupName = group.name
            ? text(QT_TRANSLATE_NOOP("Advice", "%1 (%2)"), { *group.name, group.hash })
            : (groupRanks.empty() ? FindingText(group.hash)
                                  : text(QT_TRANSLATE_NOOP("Advice", "%1 (%2)"), { rankRuns(groupRanks), group.hash }));
        f.setMessage(text(QT_TRANSLATE_NOOP("Advice",
                              "The wait is on ranks %1 of communication group %2, which were not loaded (not "
                              "collected, or not opened): the loaded members %3 spend %4 ms per step (%5 % of the "
                              "step) in the group's %6 op instances neither transferring nor waiting for each other "
                              "(the least over the loaded members in each). The group has %7 ranks (membership: %8)."),
            { rankRuns(missing), groupName, rankRuns(members), fixed(f.value, 3), fixed(perStepNs / stepNs * 100, 1),
                std::to_string(instances.size()), std::to_string(group.ranks.size()), group.ranksSource }));
        f.setSuggestion(text(QT_TRANSLATE_NOOP("Advice",
            "Open the missing ranks' profiles with these (or collect them: profile every rank of the group, at least "
            "one per node) to see which of them arrives late; from the loaded ranks alone the wait cannot be "
            "attributed to a rank.")));
        // The time the loaded ranks spend waiting on the missing ones (docs/metrics.md, "Impact").
        setImpact(f, perStepNs, stepNs);
        f.evidence.view = "commduration";
        f.evidence.rank = members.front();
        out.push_back(std::move(f));
    }
}

} // namespace npuscope::query::advice
