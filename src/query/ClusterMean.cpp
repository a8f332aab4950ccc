// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/ClusterMean.h"

#include <cmath>

namespace npuscope::query {

ClusterMean ClusterMean::of(const std::vector<StepBreakdown>& rows)
{
    std::vector<StepBreakdown> newer, older;
    for (const auto& row : rows)
        (splitOf(row).iterationTrace ? older : newer).push_back(row);
    const auto& meanRows = newer.size() >= older.size() ? newer : older;
    ClusterMean m;
    m.ranks = static_cast<int>(meanRows.size());
    m.otherGenerationRanks = static_cast<int>(rows.size() - meanRows.size());
    m.stats = clusterStats(meanRows);
    m.wallTime = wallTimeStats(meanRows);
    if (meanRows.empty())
        return m;
    StepBreakdown mean;
    mean.stepCount = m.ranks;
    for (size_t c = 0; c < m.stats.size(); ++c) {
        if (m.stats[c].mean)
            mean.values[c] = static_cast<int64_t>(std::llround(*m.stats[c].mean));
    }
    m.split = splitOf(mean);
    m.mean = mean;
    return m;
}

std::optional<double> deviationFromMean(std::optional<int64_t> value, const ColumnStats& stats)
{
    if (!value || !stats.mean || *stats.mean <= 0 || stats.count < 2)
        return std::nullopt;
    return (static_cast<double>(*value) - *stats.mean) / *stats.mean;
}

std::optional<double> deviationFromMedian(std::optional<int64_t> value, const ColumnStats& stats)
{
    if (!value || !stats.median || *stats.median <= 0 || stats.count < 2)
        return std::nullopt;
    return (static_cast<double>(*value) - *stats.median) / *stats.median;
}

} // namespace npuscope::query
