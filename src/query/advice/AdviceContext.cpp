// SPDX-License-Identifier: Apache-2.0
#include "AdviceContext.h"

#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/query/TranslationMarker.h"
#include "npuscope/query/advice/AdviceThresholds.h"

#include <algorithm>

#include <cstdarg>
#include <cstdio>

namespace npuscope::query::advice {

AdviceContext AdviceContext::build(model::Database& db, const AdviceOptions& options)
{
    AdviceContext ctx { db, options, ParallelLayoutQuery::layout(db), {}, {}, {}, {}, {}, 0 };
    std::map<std::pair<int, int>, std::vector<int64_t>> sets;
    for (const auto& c : ctx.layout.ranks) {
        if (!c.loaded)
            continue;
        sets[{ c.pp, c.tp }].push_back(c.rank);
        ctx.stageOf[c.rank] = c.pp;
    }
    for (auto& [key, ranks] : sets)
        ctx.comparable.push_back(std::move(ranks));
    ctx.averaged = StepQuery::averaged(db, options.skipFirstStep);
    ctx.breakdown = StepQuery::breakdown(db);
    for (const auto& row : ctx.breakdown) {
        if (const auto w = row.wallTime()) {
            auto& steps = ctx.stepsOf[row.rank];
            steps.sumNs += static_cast<double>(*w);
            ++steps.count;
        }
    }
    int n = 0;
    for (const auto& row : ctx.averaged) {
        if (const auto w = row.wallTime(); w && *w > 0) {
            ctx.meanStepNs += static_cast<double>(*w);
            ++n;
        }
    }
    if (n > 0)
        ctx.meanStepNs /= n;
    return ctx;
}

double AdviceContext::rankStepNs(int64_t rank) const
{
    const auto* row = averagedRow(rank);
    return row && row->wallTime() ? static_cast<double>(*row->wallTime()) : 0.0;
}

void setImpact(Finding& f, double impactNs, double stepNs, double warningShare)
{
    if (!(impactNs > 0)) {
        f.impactNs = 0;
        f.impactShare = 0;
        return;
    }
    f.impactNs = impactNs;
    if (!(stepNs > 0)) {
        f.impactShare = 0;
        return;
    }
    // An estimate can exceed the step it is compared with (a retransmission longer than the mean step): the share
    // says how much of a step, at most all of it.
    f.impactShare = std::min(1.0, impactNs / stepNs);
    f.severity = f.impactShare >= AdviceThresholds::kImpactCritical ? Severity::Critical
        : f.impactShare >= warningShare                             ? Severity::Warning
                                                                    : Severity::Info;
}

void setImpact(Finding& f, double impactNs, double stepNs)
{
    setImpact(f, impactNs, stepNs, AdviceThresholds::kImpactWarning);
}

const StepBreakdown* AdviceContext::averagedRow(int64_t rank) const
{
    for (const auto& row : averaged) {
        if (row.rank == rank)
            return &row;
    }
    return nullptr;
}

std::string formatText(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    std::string s(n > 0 ? static_cast<size_t>(n) : 0, '\0');
    if (n > 0)
        std::vsnprintf(s.data(), s.size() + 1, format, args);
    va_end(args);
    return s;
}

std::string fixed(double v, int decimals) { return formatText("%.*f", decimals, v); }

FindingText text(const char* source, std::vector<FindingText> args)
{
    return FindingText(kFindingContext, source, std::move(args));
}

FindingText joined(const std::vector<FindingText>& parts, const char* separator)
{
    if (parts.empty())
        return {};
    FindingText out = parts.front();
    for (size_t i = 1; i < parts.size(); ++i)
        out = text(separator, { std::move(out), parts[i] });
    return out;
}

FindingText rankList(const std::vector<int64_t>& ranks, size_t limit)
{
    std::vector<FindingText> shown;
    for (size_t i = 0; i < ranks.size() && i < limit; ++i)
        shown.emplace_back(std::to_string(ranks[i]));
    const FindingText list = joined(shown, QT_TRANSLATE_NOOP("Advice", "%1, %2"));
    if (ranks.size() <= limit)
        return list;
    return text(QT_TRANSLATE_NOOP("Advice", "%1, … (%2 ranks)"), { list, std::to_string(ranks.size()) });
}

} // namespace npuscope::query::advice
