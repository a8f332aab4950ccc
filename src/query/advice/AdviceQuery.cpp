// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/advice/AdviceQuery.h"

#include "AdviceRules.h"

#include "npuscope/core/EnumNames.h"
#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"

#include <algorithm>

namespace npuscope::query::advice {

namespace {

constexpr EnumName<Severity> kSeverityNames[] { { Severity::Info, "info" }, { Severity::Warning, "warning" },
    { Severity::Critical, "critical" } };

} // namespace

std::string_view severityName(Severity s) { return nameOf(kSeverityNames, s, "info"); }

std::vector<Finding> AdviceQuery::run(model::Database& db, const AdviceOptions& options)
{
    // Under the model's lock: the context, the in-memory indexes the rules share (built here once, then read from the
    // database's cache without the lock) and the rules that read SQL. The rules that only read the context and those
    // indexes run after the lock is released, so a view waiting for the model (the timeline's first rank at an open)
    // runs meanwhile instead of after the whole advice. Each rule's findings keep their place in the rule order.
    // After an open the indexes may be in the making on a copy of the model (IndexPrebuild): the context is read
    // meanwhile, and the indexes are asked for without the lock, since waiting for them while holding it would hold
    // up every other view.
    auto guard = db.lock();
    const auto ctx = AdviceContext::build(db, options);
    CommQuery::groups(db);
    guard.unlock();
    CommOpIndex::forDatabase(db);
    CommLinkIndex::forDatabase(db);
    guard.lock();
    std::vector<Finding> communication, resource, timeline, input;
    communicationRules(ctx, communication);
    inputBoundRule(ctx, input);
    resourceRules(ctx, resource);
    timelineRules(ctx, timeline);
    guard.unlock();

    std::vector<Finding> findings;
    delimitationRules(ctx, findings);
    slowRankRule(ctx, findings);
    slowLinkRule(ctx, findings);
    findings.insert(findings.end(), communication.begin(), communication.end());
    stepRules(ctx, findings);
    findings.insert(findings.end(), input.begin(), input.end());
    findings.insert(findings.end(), resource.begin(), resource.end());
    findings.insert(findings.end(), timeline.begin(), timeline.end());
    missingGroupRanksRule(ctx, findings);
    sortFindings(findings);
    return findings;
}

void AdviceQuery::sortFindings(std::vector<Finding>& findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        if (a.severity != b.severity)
            return a.severity > b.severity;
        if (a.impactNs != b.impactNs)
            return a.impactNs > b.impactNs;
        if (a.id != b.id)
            return a.id < b.id;
        // A bandwidth is worse the lower it is; every other value the higher.
        if (a.value != b.value)
            return a.id == "slow_link" ? a.value < b.value : a.value > b.value;
        const int64_t ra = a.ranks.empty() ? -1 : a.ranks.front();
        const int64_t rb = b.ranks.empty() ? -1 : b.ranks.front();
        return ra < rb;
    });
}

const Finding* AdviceQuery::topFinding(const std::vector<Finding>& findings)
{
    const auto it = std::find_if(findings.begin(), findings.end(), [](const Finding& f) { return f.impactNs > 0; });
    if (it != findings.end())
        return &*it;
    return findings.empty() ? nullptr : &findings.front();
}

} // namespace npuscope::query::advice
