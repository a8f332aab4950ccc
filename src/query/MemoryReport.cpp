// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MemoryReport.h"

#include "npuscope/query/MemoryQuery.h"

#include <cstdio>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

template <typename T> ojson orNull(const std::optional<T>& v) { return v ? ojson(*v) : ojson(nullptr); }

std::string cell(const std::optional<double>& v, int decimals, const char* suffix = "")
{
    if (!v)
        return "—";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, *v, suffix);
    return buf;
}

// Where capacity_mb comes from: "memory_usage_summary" (MindSpore's file of the rank), "user" (--capacity-gb), or null.
ojson capacitySourceJson(RankMemoryPeak::CapacitySource source)
{
    switch (source) {
    case RankMemoryPeak::CapacitySource::MemorySummary:
        return "memory_usage_summary";
    case RankMemoryPeak::CapacitySource::User:
        return "user";
    case RankMemoryPeak::CapacitySource::None:
        break;
    }
    return nullptr;
}

} // namespace

nlohmann::ordered_json MemoryReport::json(model::Database& db, std::optional<double> capacityMb)
{
    ojson ranks = ojson::array();
    for (const auto& p : MemoryQuery::peaks(db, capacityMb)) {
        ranks.push_back({ { "rank", p.rank }, { "host", orNull(p.host) }, { "device", orNull(p.device) },
            { "peak_reserved_mb", orNull(p.peakReservedMb) }, { "peak_allocated_mb", orNull(p.peakAllocatedMb) },
            { "capacity_mb", orNull(p.capacityMb) }, { "ratio", orNull(p.ratio) },
            { "peak_time_ns", orNull(p.peakTimeNs) }, { "component", orNull(p.component) },
            { "capacity_source", capacitySourceJson(p.capacitySource) } });
    }
    return ojson { { "schema", kSchema }, { "ranks", std::move(ranks) } };
}

std::string MemoryReport::text(model::Database& db, std::optional<double> capacityMb)
{
    std::string out = "rank  device  peak reserved MB  component  peak allocated MB  capacity MB  ratio\n";
    for (const auto& p : MemoryQuery::peaks(db, capacityMb)) {
        char line[256];
        std::snprintf(line, sizeof line, "%4lld  %6s  %16s  %-9s  %17s  %11s  %5s\n", static_cast<long long>(p.rank),
            p.device ? std::to_string(*p.device).c_str() : "—", cell(p.peakReservedMb, 3).c_str(),
            p.component ? p.component->c_str() : "—", cell(p.peakAllocatedMb, 3).c_str(),
            cell(p.capacityMb, 0).c_str(), cell(p.ratio ? std::optional<double>(*p.ratio * 100) : std::nullopt, 1, "%").c_str());
        out += line;
    }
    return out;
}

} // namespace npuscope::query
