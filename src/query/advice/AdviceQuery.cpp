// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/advice/AdviceQuery.h"

#include "AdviceRules.h"

#include <algorithm>

namespace npuscope::query::advice {

std::string_view severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Critical:
        return "critical";
    }
    return "info";
}

std::vector<Finding> AdviceQuery::run(model::Database& db, const AdviceOptions& options)
{
    auto guard = db.lock();
    const auto ctx = AdviceContext::build(db, options);
    std::vector<Finding> findings;
    delimitationRules(ctx, findings);
    slowRankRule(ctx, findings);
    slowLinkRule(ctx, findings);
    communicationRules(ctx, findings);
    stepRules(ctx, findings);
    resourceRules(ctx, findings);
    timelineRules(ctx, findings);
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
