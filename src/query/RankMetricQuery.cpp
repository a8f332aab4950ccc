// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/RankMetricQuery.h"
#include "npuscope/core/EnumNames.h"
#include "npuscope/query/TranslationMarker.h"

#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/StepQuery.h"

#include <algorithm>

namespace npuscope::query {

namespace {

constexpr EnumName<RankMetric> kMetricTitles[] {
    { RankMetric::StepTime, QT_TRANSLATE_NOOP("RankMetric", "Step time") },
    { RankMetric::Computing, QT_TRANSLATE_NOOP("RankMetric", "Computing") },
    { RankMetric::CommNotOverlapped, QT_TRANSLATE_NOOP("RankMetric", "Communication (not overlapped)") },
    { RankMetric::Free, QT_TRANSLATE_NOOP("RankMetric", "Free") },
    { RankMetric::WaitRatio, QT_TRANSLATE_NOOP("RankMetric", "Wait ratio") },
    { RankMetric::PeakMemoryRatio, QT_TRANSLATE_NOOP("RankMetric", "Peak memory \u00f7 capacity") },
};

} // namespace

const char* rankMetricTitle(RankMetric m) { return nameOf(kMetricTitles, m, ""); }

bool rankMetricIsRatio(RankMetric m) { return m == RankMetric::WaitRatio || m == RankMetric::PeakMemoryRatio; }

std::map<int64_t, double> RankMetricQuery::values(
    model::Database& db, RankMetric metric, std::optional<int64_t> step, bool skipFirst, double capacityMb)
{
    std::map<int64_t, double> out;
    switch (metric) {
    case RankMetric::WaitRatio:
        for (const auto& d : CommAnalysisQuery::durations(db, CommSelection { step, std::nullopt, std::nullopt })) {
            if (d.waitRatio)
                out[d.rank] = *d.waitRatio;
        }
        return out;
    case RankMetric::PeakMemoryRatio:
        for (const auto& p : MemoryQuery::peaks(db, capacityMb)) {
            if (p.ratio)
                out[p.rank] = *p.ratio;
        }
        return out;
    default:
        break;
    }
    const auto rows = step ? StepQuery::breakdown(db, step) : StepQuery::averaged(db, skipFirst);
    for (const auto& row : rows) {
        std::optional<int64_t> v;
        if (metric == RankMetric::StepTime)
            v = row.wallTime();
        else if (metric == RankMetric::Computing)
            v = row.value(StepColumn::Computing);
        else if (metric == RankMetric::CommNotOverlapped)
            v = row.value(StepColumn::CommunicationNotOverlapped);
        else
            v = row.value(StepColumn::Free);
        // Several rows of one rank in one step (multi-device builds) keep the largest, as a step waits for it.
        if (v) {
            auto [it, inserted] = out.emplace(row.rank, static_cast<double>(*v));
            if (!inserted)
                it->second = std::max(it->second, static_cast<double>(*v));
        }
    }
    return out;
}

} // namespace npuscope::query
