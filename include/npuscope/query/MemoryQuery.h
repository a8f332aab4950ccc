// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::query {

// One rank's memory peak (docs/metrics.md, "Memory peak"). MB as the files write them (2^20 bytes); absent = nullopt.
struct RankMemoryPeak {
    int64_t rank = 0;
    std::optional<std::string> host;
    std::optional<int64_t> device;
    // The largest Total Reserved of the APP component (the whole process on the device) where it is recorded, else
    // of PTA+GE, else of PTA.
    std::optional<double> peakReservedMb;
    std::optional<int64_t> peakTimeNs; // when that peak was sampled (epoch ns)
    // the component it was read from: APP | PTA+GE | PTA, or memory_usage_summary (MindSpore's peak_mem, for a rank
    // without memory records)
    std::optional<std::string> component;
    // The largest Total Allocated of PTA+GE, else of PTA.
    std::optional<double> peakAllocatedMb;
    std::optional<double> capacityMb; // the device's memory, when known
    // Where capacityMb comes from: MindSpore's memory_usage_summary file of the rank (its capacity), else the figure
    // the caller passed (the user's), else none.
    enum class CapacitySource { None, User, MemorySummary };
    CapacitySource capacitySource = CapacitySource::None;
    std::optional<double> ratio; // peakReservedMb / capacityMb
};

// Memory figures from memory_record (memory_record.csv, a db export's MEMORY_RECORD). Caller holds the database
// lock (or owns the database).
class MemoryQuery {
public:
    // Where the peaks are read: memory_peak, folded at summary load so the cluster heatmap needs no memory_record row
    // (the default), or the memory_record rows themselves (only once the ranks' Memory group is imported; the same
    // figures, for tests and the benchmark's baseline).
    enum class Source { Aggregate, Records };
    // Every rank in rank order, with nullopt figures for a rank without memory records. A rank with MindSpore's
    // memory_usage_summary takes its capacity (and, without memory records, its peak_mem as the peak) from it, GiB ×
    // 1024; capacityMb applies to every other device.
    static std::vector<RankMemoryPeak> peaks(
        model::Database& db, std::optional<double> capacityMb = std::nullopt, Source source = Source::Aggregate);
};

} // namespace npuscope::query
