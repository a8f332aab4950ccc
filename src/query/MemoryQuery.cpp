// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/model/ReadRow.h"

#include "npuscope/query/RankQuery.h"

#include <map>

namespace npuscope::query {

namespace {

struct Peak {
    double mb = 0;
    int64_t ts = 0;
};

using Peaks = std::map<std::pair<int64_t, std::string>, Peak>;

// The largest value of column per rank and component, the earliest sample of it on ties, over memory_record rows.
Peaks peaksOfRecords(model::Database& db, const char* column)
{
    Peaks out;
    auto st = db.prepare(std::string("SELECT rank_id, component, ") + column + ", ts FROM memory_record WHERE " + column
        + " IS NOT NULL AND component IN ('APP', 'PTA+GE', 'PTA') ORDER BY rank_id, component, ts");
    while (st.step()) {
        const auto key = std::make_pair(st.int64(0), st.text(1));
        const double mb = st.real(2);
        auto it = out.find(key);
        if (it == out.end())
            out.emplace(key, Peak { mb, st.int64(3) });
        else if (mb > it->second.mb)
            it->second = Peak { mb, st.int64(3) };
    }
    return out;
}

// The same from memory_peak, where the summary load folded them (io::MemoryPeakTracker, same rule).
Peaks peaksOfAggregate(model::Database& db, const char* column, const char* tsColumn)
{
    Peaks out;
    auto st = db.prepare(std::string("SELECT rank_id, component, ") + column + ", " + tsColumn
        + " FROM memory_peak WHERE " + column + " IS NOT NULL AND component IN ('APP', 'PTA+GE', 'PTA')");
    while (st.step())
        out.emplace(std::make_pair(st.int64(0), st.text(1)), Peak { st.real(2), st.int64(3) });
    return out;
}

} // namespace

std::vector<RankMemoryPeak> MemoryQuery::peaks(model::Database& db, std::optional<double> capacityMb, Source source)
{
    const bool rows = source == Source::Records;
    const auto reserved
        = rows ? peaksOfRecords(db, "reserved_mb") : peaksOfAggregate(db, "peak_reserved_mb", "reserved_ts");
    const auto allocated
        = rows ? peaksOfRecords(db, "allocated_mb") : peaksOfAggregate(db, "peak_allocated_mb", "allocated_ts");
    const auto hosts = RankQuery::hosts(db);
    // MindSpore's memory_usage_summary figures (rank_info, GiB as written).
    struct Summary {
        std::optional<double> capacityGib, peakGib;
    };
    std::map<int64_t, Summary> summaries;
    auto sm = db.prepare("SELECT rank_id, key, CAST(value AS REAL) FROM rank_info WHERE key IN "
                         "('memory_usage_summary.capacity', 'memory_usage_summary.peak_mem')");
    while (sm.step()) {
        auto& s = summaries[sm.int64(0)];
        (sm.text(1) == "memory_usage_summary.capacity" ? s.capacityGib : s.peakGib) = sm.real(2);
    }
    std::vector<RankMemoryPeak> out;
    auto st = db.prepare("SELECT rank_id, device_id FROM rank ORDER BY rank_id");
    while (st.step()) {
        RankMemoryPeak p;
        model::readRow(st, p.rank, p.device);
        if (auto h = hosts.find(p.rank); h != hosts.end())
            p.host = h->second;
        for (const char* component : { "APP", "PTA+GE", "PTA" }) {
            if (auto it = reserved.find({ p.rank, component }); it != reserved.end()) {
                p.peakReservedMb = it->second.mb;
                p.peakTimeNs = it->second.ts;
                p.component = component;
                break;
            }
        }
        for (const char* component : { "PTA+GE", "PTA" }) {
            if (auto it = allocated.find({ p.rank, component }); it != allocated.end()) {
                p.peakAllocatedMb = it->second.mb;
                break;
            }
        }
        if (auto s = summaries.find(p.rank); s != summaries.end()) {
            if (s->second.capacityGib && *s->second.capacityGib > 0) {
                p.capacityMb = *s->second.capacityGib * 1024.0;
                p.capacitySource = RankMemoryPeak::CapacitySource::MemorySummary;
            }
            if (!p.peakReservedMb && s->second.peakGib) {
                p.peakReservedMb = *s->second.peakGib * 1024.0;
                p.peakAllocatedMb = p.peakReservedMb;
                p.component = "memory_usage_summary";
            }
        }
        if (p.capacitySource == RankMemoryPeak::CapacitySource::None && capacityMb) {
            p.capacityMb = capacityMb;
            p.capacitySource = RankMemoryPeak::CapacitySource::User;
        }
        if (p.peakReservedMb && p.capacityMb && *p.capacityMb > 0)
            p.ratio = *p.peakReservedMb / *p.capacityMb;
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace npuscope::query
